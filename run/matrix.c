/* The cell matrix of a plan (pool axes outer, dataset/zvol axes next, fio
 * axes inner): each cell's values, config label, dimensions and fio test
 * name. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== cells ==== */

void pb_run_cell_at(const struct pb_run_plan *p, size_t i,
                    struct pb_run_cell *out)
{
    out->index = i;
    size_t nf = p->sect[PB_RUN_FIO].ncombos, nd = p->sect[PB_RUN_DATA].ncombos;
    out->combo[PB_RUN_FIO] = i % nf;
    out->combo[PB_RUN_DATA] = (i / nf) % nd;
    out->combo[PB_RUN_POOL] = i / nf / nd;
}

/* Index of axis a's value in combination `combo`: the first axis is the
 * outermost loop. */
static size_t axis_index(const struct pb_run_section *sec, size_t combo,
                         size_t a)
{
    for (size_t k = sec->n; k-- > a + 1;)
        combo /= sec->ax[k].nvals;
    return combo % sec->ax[a].nvals;
}

const char *pb_run_axis_value(const struct pb_run_plan *p, enum pb_run_sect s,
                              size_t combo, size_t a)
{
    const struct pb_run_section *sec = &p->sect[s];
    return sec->ax[a].vals[axis_index(sec, combo, a)];
}

const char *pb_run_value(const struct pb_run_plan *p, enum pb_run_sect s,
                         size_t combo, const char *key)
{
    const struct pb_run_section *sec = &p->sect[s];
    for (size_t a = 0; a < sec->n; a++)
        if (!strcmp(sec->ax[a].key, key))
            return pb_run_axis_value(p, s, combo, a);
    return NULL;
}

static void kv_add(struct pb_kv **kv, size_t *n, size_t *cap, const char *k,
                   const char *v)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*kv)[i].key, k)) {
            free((char *)(*kv)[i].value);
            (*kv)[i].value = pb_xstrdup(v);
            return;
        }
    PB_GROW(*kv, *cap, *n + 1);
    (*kv)[*n].key = pb_xstrdup(k);
    (*kv)[*n].value = pb_xstrdup(v);
    (*kv)[*n].origin = NULL;
    (*n)++;
}

void pb_run_kv_free(struct pb_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)kv[i].key);
        free((char *)kv[i].value);
    }
    free(kv);
}

void pb_run_cell_config(const struct pb_run_plan *p,
                        const struct pb_run_cell *c, struct pb_kv **kv,
                        size_t *n)
{
    size_t cap = 0;
    *kv = NULL;
    *n = 0;
    size_t pc = c->combo[PB_RUN_POOL];
    const char *lay = pb_run_value(p, PB_RUN_POOL, pc, "layout");
    struct pb_run_layout l;
    char num[32];
    struct pb_err lerr = {0};
    if (pb_run_layout_parse(lay ? lay : "stripe", p->data.n, &l, &lerr) ==
        PB_OK) {
        /* the names a `zpool status` of the pool gives (ingest/zfs/vdev_tree.c):
         * layout is the vdev type, vdevs their number */
        int stripe = !strcmp(l.type, "stripe");
        kv_add(kv, n, &cap, "layout", l.type);
        /* the plan's own name of the pool (stripe-2, 2xmirror-2): the one
         * dimension a layout study sweeps, vdevs and disks follow from it */
        kv_add(kv, n, &cap, "pool_layout", lay ? lay : "stripe");
        snprintf(num, sizeof(num), "%d", stripe ? l.width : l.groups);
        kv_add(kv, n, &cap, "vdevs", num);
        snprintf(num, sizeof(num), "%d", stripe ? l.width : l.groups * l.width);
        kv_add(kv, n, &cap, "disks", num);
        snprintf(num, sizeof(num), "%d", stripe ? 1 : l.width);
        kv_add(kv, n, &cap, "disks_per_vdev", num);
    }
    const char *v = pb_run_value(p, PB_RUN_POOL, pc, "ashift");
    if (v)
        kv_add(kv, n, &cap, "ashift", v);
    /* log = on: each log vdev a disk of its own ("stripe"), as zpool
     * status shows it */
    v = pb_run_value(p, PB_RUN_POOL, pc, "log");
    kv_add(kv, n, &cap, "slog",
           !v || !strcmp(v, "none") ? "no"
           : !strcmp(v, "mirror")   ? "mirror"
                                    : "stripe");
    v = pb_run_value(p, PB_RUN_POOL, pc, "cache");
    kv_add(kv, n, &cap, "l2arc", v && !strcmp(v, "on") ? "yes" : "no");
    const struct pb_run_section *ds = &p->sect[PB_RUN_DATA];
    for (size_t a = 0; a < ds->n; a++) {
        const char *k = ds->ax[a].key;
        if (p->zvol && !strcmp(k, "size"))
            k = "volsize";
        kv_add(kv, n, &cap, k,
               pb_run_axis_value(p, PB_RUN_DATA, c->combo[PB_RUN_DATA], a));
    }
}

void pb_run_cell_label(const struct pb_run_plan *p,
                       const struct pb_run_cell *c, struct pb_buf *b)
{
    size_t start = b->len;
    for (int s = PB_RUN_POOL; s <= PB_RUN_DATA; s++) {
        const struct pb_run_section *sec = &p->sect[s];
        for (size_t a = 0; a < sec->n; a++) {
            if (sec->ax[a].nvals < 2)
                continue;
            const char *v = pb_run_axis_value(p, (enum pb_run_sect)s,
                                              c->combo[s], a);
            if (b->len > start)
                pb_buf_putc(b, ' ');
            if (s == PB_RUN_POOL && !strcmp(sec->ax[a].key, "layout"))
                pb_buf_puts(b, v);
            else
                pb_buf_printf(b, "%s=%s", sec->ax[a].key, v);
        }
    }
    if (b->len == start)
        pb_buf_puts(b, p->name);
}

/* ==== the fio test name, as ingest/fio/fio_json.c builds it ==== */

static double num_opt(const char *v, double dflt)
{
    if (!v)
        return dflt;
    char *end;
    double d = strtod(v, &end);
    return end == v || *end ? dflt : d;
}

static const char *fio_opt(const struct pb_run_plan *p, size_t combo,
                           const char *k1, const char *k2)
{
    const char *v = pb_run_value(p, PB_RUN_FIO, combo, k1);
    if (!v && k2)
        v = pb_run_value(p, PB_RUN_FIO, combo, k2);
    return v;
}

static void fio_rw(const struct pb_run_plan *p, size_t combo, char *rw,
                   size_t n)
{
    const char *v = fio_opt(p, combo, "rw", "readwrite");
    if (!v)
        v = "read";
    size_t k = strcspn(v, ":");
    if (k >= n)
        k = n - 1;
    for (size_t i = 0; i < k; i++)
        rw[i] = (char)tolower((unsigned char)v[i]);
    rw[k] = '\0';
    if (!strcmp(rw, "readwrite"))
        snprintf(rw, n, "rw");
}

/* fio's bs of the first direction the job does. */
static double fio_bs(const struct pb_run_plan *p, size_t combo,
                     const char *rw)
{
    const char *v = fio_opt(p, combo, "bs", "blocksize");
    double b = 4096;
    if (!v)
        return b;
    int first = strstr(rw, "read") || !strcmp(rw, "rw") || !strcmp(rw,
                                                                   "randrw")
                    ? 0
                : strstr(rw, "write") ? 1
                                      : 2;
    const char *q = v;
    for (int i = 0; i < first && strchr(q, ','); i++)
        q = strchr(q, ',') + 1;
    char one[64];
    size_t k = strcspn(q, ",");
    if (k == 0 || k >= sizeof(one))
        return b;
    memcpy(one, q, k);
    one[k] = '\0';
    if (pb_parse_size(one, 0, &b) != 0)
        b = 4096;
    return b;
}

/* The options the fio test name shows itself (ingest's rule: a name is
 * made the same way from a plan and from a file of many jobs). */
static int named_key(const char *k)
{
    return pb_ingest_fio_name_shows(k);
}

void pb_run_fio_extra(const struct pb_run_plan *p, size_t combo,
                      struct pb_buf *b)
{
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    for (size_t a = 0; a < f->n; a++)
        if (f->ax[a].nvals > 1 && !named_key(f->ax[a].key))
            pb_ingest_fio_name_extra(
                b, f->ax[a].key, pb_run_axis_value(p, PB_RUN_FIO, combo, a));
}

void pb_run_fio_name(const struct pb_run_plan *p, size_t combo,
                     struct pb_buf *b)
{
    char rw[32], sz[64];
    fio_rw(p, combo, rw, sizeof(rw));
    int mixed = !strcmp(rw, "rw") || !strcmp(rw, "randrw");
    pb_buf_printf(b, "fio %s bs=%s", rw,
                  pb_fmt_size(fio_bs(p, combo, rw), sz, sizeof(sz)));
    pb_buf_printf(b, " iodepth=%s",
                  pb_fmt_num(num_opt(fio_opt(p, combo, "iodepth", NULL), 1),
                             sz, sizeof(sz)));
    double nj = num_opt(fio_opt(p, combo, "numjobs", NULL), 1);
    if (nj > 1)
        pb_buf_printf(b, " numjobs=%s", pb_fmt_num(nj, sz, sizeof(sz)));
    if (mixed) {
        double mix = num_opt(fio_opt(p, combo, "rwmixread", NULL), -1);
        if (mix < 0 && fio_opt(p, combo, "rwmixwrite", NULL))
            mix = 100 - num_opt(fio_opt(p, combo, "rwmixwrite", NULL), 50);
        if (mix < 0 || mix > 100)
            mix = 50;
        pb_buf_printf(b, " rwmixread=%s", pb_fmt_num(mix, sz, sizeof(sz)));
    }
    double fs = num_opt(fio_opt(p, combo, "fsync", NULL), 0);
    if (fs > 0)
        pb_buf_printf(b, " fsync=%s", pb_fmt_num(fs, sz, sizeof(sz)));
    double direct = num_opt(fio_opt(p, combo, "direct", NULL), -1);
    if (direct < 0 && fio_opt(p, combo, "buffered", NULL))
        direct = num_opt(fio_opt(p, combo, "buffered", NULL), 1) == 0;
    if (direct > 0)
        pb_buf_puts(b, " direct=1");
    pb_run_fio_extra(p, combo, b);
}

void pb_run_fio_params(const struct pb_run_plan *p, size_t combo,
                       struct pb_resultset *set, size_t t, int extra_only)
{
    char num[64];
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    if (!extra_only) {
        char rw[32];
        fio_rw(p, combo, rw, sizeof(rw));
        pb_rs_test_param(set, t, "rw", rw);
        pb_rs_test_param(set, t, "bs",
                         pb_fmt_num(fio_bs(p, combo, rw), num, sizeof(num)));
        pb_rs_test_param(set, t, "iodepth",
                         pb_fmt_num(num_opt(fio_opt(p, combo, "iodepth",
                                                    NULL), 1),
                                    num, sizeof(num)));
        pb_rs_test_param(set, t, "numjobs",
                         pb_fmt_num(num_opt(fio_opt(p, combo, "numjobs",
                                                    NULL), 1),
                                    num, sizeof(num)));
        static const char *const plain[] = {"direct", "fsync", "ioengine",
                                            "rwmixread", NULL};
        for (size_t i = 0; plain[i]; i++) {
            const char *v = fio_opt(p, combo, plain[i], NULL);
            if (v)
                pb_rs_test_param(set, t, plain[i], v);
        }
        const char *v = fio_opt(p, combo, "size", NULL);
        double d;
        if (v && pb_parse_size(v, 0, &d) == 0)
            pb_rs_test_param(set, t, "size", pb_fmt_num(d, num, sizeof(num)));
        v = fio_opt(p, combo, "runtime", NULL);
        if (v && pb_parse_duration(v, 1e9, &d) == 0)
            pb_rs_test_param(set, t, "runtime",
                             pb_fmt_num(d, num, sizeof(num)));
    }
    for (size_t a = 0; a < f->n; a++) {
        /* the swept options the name adds; and without fio's output (a
         * skipped cell) every option ingest stores from it, so that the
         * cell's test is its siblings' test */
        int swept = f->ax[a].nvals > 1 && !named_key(f->ax[a].key);
        if (!swept &&
            (extra_only || !pb_ingest_fio_test_option(f->ax[a].key)))
            continue;
        char *v = pb_ingest_norm_param(
            f->ax[a].key, pb_run_axis_value(p, PB_RUN_FIO, combo, a));
        pb_rs_test_param(set, t, f->ax[a].key, v);
        free(v);
    }
}

void pb_run_plan_describe(const struct pb_run_plan *p, size_t i,
                          struct pb_buf *label, struct pb_buf *test)
{
    struct pb_run_cell c;
    pb_run_cell_at(p, i, &c);
    pb_buf_reset(label);
    pb_buf_reset(test);
    pb_run_cell_label(p, &c, label);
    pb_run_fio_name(p, c.combo[PB_RUN_FIO], test);
}
