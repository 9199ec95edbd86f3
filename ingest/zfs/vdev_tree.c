/* A pool's vdev tree into configuration dimensions, one form for every
 * reader: `zpool status`, `zpool list -v` and a pasted `zpool create` of
 * the same pool give the same keys and values (docs/model.md, "Dimensions
 * of a pool's vdevs"). */
#include "ingest/zfs/vdev_int.h"
#include "common/pb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pb_vclass_of(const char *s, size_t n)
{
    static const struct {
        const char *w;
        int cls;
    } words[] = {{"logs", PB_VC_LOG},    {"log", PB_VC_LOG},
                 {"cache", PB_VC_CACHE}, {"spares", PB_VC_SPARE},
                 {"spare", PB_VC_SPARE}, {"special", PB_VC_SPECIAL},
                 {"dedup", PB_VC_DEDUP}};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i].w) == n && !memcmp(s, words[i].w, n))
            return words[i].cls;
    return -1;
}

void pb_vtree_add(struct pb_vtree *t, int cls, const char *type, long width)
{
    PB_GROW(t->v, t->cap, t->n + 1);
    struct pb_vtop *v = &t->v[t->n++];
    v->cls = cls;
    snprintf(v->type, sizeof(v->type), "%s", type ? type : "stripe");
    v->width = type ? width : 1;
}

void pb_vtree_widen(struct pb_vtree *t)
{
    if (t->n)
        t->v[t->n - 1].width++;
}

void pb_vtree_release(struct pb_vtree *t)
{
    free(t->v);
    memset(t, 0, sizeof(*t));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The layout of class cls into out: its types, each once, sorted and
 * joined by '+' ("mirror", "mirror+stripe"); the number of its vdevs. */
static size_t class_layout(const struct pb_vtree *t, int cls,
                           struct pb_buf *out)
{
    const char **types = pb_xcalloc(t->n + 1, sizeof(*types));
    size_t nt = 0, count = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->v[i].cls != cls)
            continue;
        count++;
        size_t k = 0;
        while (k < nt && strcmp(types[k], t->v[i].type) != 0)
            k++;
        if (k == nt)
            types[nt++] = t->v[i].type;
    }
    qsort(types, nt, sizeof(*types), cmp_str);
    pb_buf_reset(out);
    for (size_t k = 0; k < nt; k++)
        pb_buf_printf(out, "%s%s", k ? "+" : "", types[k]);
    free(types);
    return count;
}

const char *const pb_vtree_keys[] = {"layout",      "vdevs",
                                     "disks",       "disks_per_vdev",
                                     "slog",        "slog_vdevs",
                                     "l2arc",       "l2arc_devices",
                                     "special",     "special_vdevs",
                                     "dedup_class", "dedup_class_vdevs",
                                     "spares",      NULL};

void pb_vtree_dims(const struct pb_vtree *t, pb_vtree_put_fn *put, void *ctx)
{
    struct pb_buf lay = PB_BUF_INIT, widths = PB_BUF_INIT;
    char num[32];
    size_t n = class_layout(t, PB_VC_DATA, &lay);
    if (n > 0) {
        long disks = 0, w0 = -1;
        int same = 1;
        for (size_t i = 0; i < t->n; i++) {
            const struct pb_vtop *v = &t->v[i];
            if (v->cls != PB_VC_DATA)
                continue;
            disks += v->width;
            if (w0 < 0)
                w0 = v->width;
            else if (v->width != w0)
                same = 0;
            pb_buf_printf(&widths, "%s%ld", widths.len ? "," : "", v->width);
        }
        put(ctx, "layout", pb_buf_str(&lay));
        snprintf(num, sizeof(num), "%zu", n);
        put(ctx, "vdevs", num);
        snprintf(num, sizeof(num), "%ld", disks);
        put(ctx, "disks", num);
        snprintf(num, sizeof(num), "%ld", w0);
        put(ctx, "disks_per_vdev", same ? num : pb_buf_str(&widths));
    }
    /* the auxiliary classes: "no", or their layout and count */
    static const struct {
        int cls;
        const char *key, *count;
    } aux[] = {{PB_VC_LOG, "slog", "slog_vdevs"},
               {PB_VC_CACHE, "l2arc", "l2arc_devices"},
               {PB_VC_SPECIAL, "special", "special_vdevs"},
               {PB_VC_DEDUP, "dedup_class", "dedup_class_vdevs"}};
    for (size_t a = 0; a < sizeof(aux) / sizeof(aux[0]); a++) {
        n = class_layout(t, aux[a].cls, &lay);
        /* cache devices are never mirrored: yes/no, as before */
        if (aux[a].cls == PB_VC_CACHE)
            put(ctx, aux[a].key, n ? "yes" : "no");
        else
            put(ctx, aux[a].key, n ? pb_buf_str(&lay) : "no");
        if (n) {
            snprintf(num, sizeof(num), "%zu", n);
            put(ctx, aux[a].count, num);
        }
    }
    n = class_layout(t, PB_VC_SPARE, &lay);
    snprintf(num, sizeof(num), "%zu", n);
    put(ctx, "spares", num);
    pb_buf_release(&lay);
    pb_buf_release(&widths);
}
