/* zpool status blocks and vdev trees (also those of `zpool list -v`)
 * for the zfs-props parser: the vdev dimensions (vdev_tree.c) and the
 * error counters. */
#include "ingest/zfs/vdev_int.h"
#include "ingest/zfs/zfs_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== vdev trees (zpool status, zpool list -v) ==== */

struct vrow {
    int depth;
    int cls;
    int heading; /* a class heading such as "logs" */
    const char *name; /* scratch */
    int has_cnt;
    double cnt[3];
};

/* Type of a top-level vdev with children from its name: mirror-0 ->
 * mirror, raidz-0 -> raidz1, draid2:4d:7c:1s-0 -> draid2; NULL for a
 * single disk (also one being replaced, or replaced by a hot spare). */
static const char *vdev_type(struct ctx *c, const char *name)
{
    char buf[16];
    size_t n = strlen(name);
    const char *t = pb_vdev_group_type(name, n, buf, sizeof(buf));
    if (t)
        return pb_arena_strndup(&c->scratch, t, strlen(t));
    size_t k = strcspn(name, "-:");
    if ((k == 9 && !memcmp(name, "replacing", 9)) ||
        (k == 5 && !memcmp(name, "spare", 5)))
        return NULL;
    char *low = pb_arena_alloc(&c->scratch, k + 1);
    pb_zfs_lower_copy(low, name, k);
    return low;
}

struct dimput {
    struct pb_resultset *set;
    size_t config;
};

static void put_dim(void *ctx, const char *key, const char *value)
{
    struct dimput *d = ctx;
    pb_rs_config_param(d->set, d->config, key, value);
}

/* Derive the vdev dimensions and error sums of pool o from its rows. */
static void analyze_tree(struct ctx *c, struct obj *o, const struct vrow *r,
                         size_t n)
{
    if (n == 0)
        return;
    /* r[0] is the pool itself; top-level vdevs are the shallowest rows
     * below it */
    int top = 0;
    for (size_t i = 1; i < n; i++)
        if (!r[i].heading && r[i].depth > 0 && (top == 0 || r[i].depth < top))
            top = r[i].depth;
    struct pb_vtree tree = {0};
    double sum[3] = {0, 0, 0};
    int have_cnt = 0;
    for (size_t i = 1; i < n; i++) {
        if (r[i].heading)
            continue;
        int leaf = i + 1 >= n || r[i + 1].heading ||
                   r[i + 1].depth <= r[i].depth;
        if (leaf && r[i].has_cnt) {
            have_cnt = 1;
            for (int k = 0; k < 3; k++)
                sum[k] += r[i].cnt[k];
        }
        if (r[i].depth != top)
            continue;
        if (!strncmp(r[i].name, "indirect-", 9) ||
            !strncmp(r[i].name, "hole", 4))
            continue; /* removed vdevs leave these behind */
        long width = 0;
        int child = 0;
        for (size_t j = i + 1; j < n && !r[j].heading && r[j].depth > top;
             j++) {
            if (!child)
                child = r[j].depth;
            if (r[j].depth == child)
                width++;
        }
        pb_vtree_add(&tree, r[i].cls,
                     width > 0 ? vdev_type(c, r[i].name) : NULL, width);
    }
    struct dimput d = {c->set, o->config};
    pb_vtree_dims(&tree, put_dim, &d);
    pb_vtree_release(&tree);
    if (have_cnt) {
        for (int k = 0; k < 3; k++) {
            o->have[N_PM + (size_t)k] = 1;
            o->v[N_PM + (size_t)k] = sum[k];
        }
    }
}

/* ==== zpool status ==== */

struct vrows {
    struct vrow *r;
    size_t n, cap;
};

static void add_vrow(struct ctx *c, struct vrows *v, int depth, int cls,
                     int heading, const struct tok *name)
{
    PB_GROW(v->r, v->cap, v->n + 1);
    struct vrow *r = &v->r[v->n++];
    memset(r, 0, sizeof(*r));
    r->depth = depth;
    r->cls = cls;
    r->heading = heading;
    r->name = pb_arena_strndup(&c->scratch, name->s, name->n);
}

/* The config table of a status block: header at line h. */
static int status_config(struct ctx *c, struct obj *o, size_t h,
                         size_t *next)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(pb_zfs_line(c, h)->s, tk);
    long icnt[3] = {-1, -1, -1};
    for (size_t k = 0; k < tk->n; k++) {
        if (pb_zfs_tokeq(&tk->t[k], "READ"))
            icnt[0] = (long)k;
        else if (pb_zfs_tokeq(&tk->t[k], "WRITE"))
            icnt[1] = (long)k;
        else if (pb_zfs_tokeq(&tk->t[k], "CKSUM"))
            icnt[2] = (long)k;
    }
    int base = pb_zfs_indent_of(pb_zfs_line(c, h)->s);
    struct vrows v = {0};
    int cls = PB_VC_DATA, rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = pb_zfs_line(c, i);
        if (pb_zfs_is_blank(L->s))
            break;
        if (L->s[0] != '\t' && L->s[0] != ' ')
            break;
        pb_zfs_at(c, L->no);
        pb_zfs_split_ws(L->s, tk);
        int depth = pb_zfs_indent_of(L->s) - base;
        int k = pb_vclass_of(tk->t[0].s, tk->t[0].n);
        if (v.n > 0 && depth <= 0 && k >= 0 && tk->n == 1) {
            cls = k;
            add_vrow(c, &v, depth, cls, 1, &tk->t[0]);
            continue;
        }
        add_vrow(c, &v, depth < 0 ? 0 : depth, cls, 0, &tk->t[0]);
        struct vrow *r = &v.r[v.n - 1];
        int last = i + 1 == c->nlines && c->unterminated;
        if (last && tk->n > 1 && tk->n < 5 && icnt[2] > 0) {
            rc = pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                            "truncated vdev row \"%.60s\"", r->name);
            break;
        }
        if (icnt[0] < 0 || icnt[1] < 0 || icnt[2] < 0 ||
            (size_t)icnt[2] >= tk->n || tk->n < 3)
            continue; /* spares: name and state only */
        for (int q = 0; q < 3; q++) {
            const struct tok *t = &tk->t[icnt[q]];
            char buf[64];
            double d;
            if (t->n >= sizeof(buf))
                d = -1;
            else {
                memcpy(buf, t->s, t->n);
                buf[t->n] = '\0';
                if (pb_zfs_parse_value(V_COUNT, buf, &d) != 0)
                    d = -1;
            }
            if (d < 0) {
                rc = pb_err_set(c->err, PB_EINPUT, c->path, L->no,
                                (long)t->off + 1,
                                "bad error counter \"%.*s\" for \"%.60s\"",
                                (int)(t->n > 40 ? 40 : t->n), t->s, r->name);
                break;
            }
            r->cnt[q] = d;
        }
        if (rc)
            break;
        r->has_cnt = 1;
    }
    if (rc == PB_OK)
        analyze_tree(c, o, v.r, v.n);
    free(v.r);
    *next = i;
    return rc;
}

/* A `zpool status` block starting at its "pool:" line p. */
int pb_zfs_status_block(struct ctx *c, size_t p, size_t *next)
{
    const char *name;
    pb_zfs_is_key(pb_zfs_line(c, p)->s, "pool", &name);
    size_t nn = strlen(name);
    while (nn > 0 && (name[nn - 1] == ' ' || name[nn - 1] == '\t'))
        nn--;
    if (nn == 0)
        return pb_err_set(c->err, PB_EINPUT, c->path, (long)p + 1, 0,
                          "pool line without a pool name");
    struct obj *o = pb_zfs_get_obj(c, O_POOL, name, nn);
    int have_cfg = 0;
    struct pb_buf field = PB_BUF_INIT;
    char fkey[16] = "";
    int rc = PB_OK;
    enum { S_HEAD, S_CONFIG, S_ERRORS } st = S_HEAD;
    size_t i = p + 1;
    pb_zfs_at(c, (long)p + 1);
    while (i < c->nlines) {
        const struct line *L = pb_zfs_line(c, i);
        const char *k, *val;
        size_t kn;
        int key = pb_zfs_status_key(L->s, &k, &kn, &val);
        if (key && kn == 4 && !memcmp(k, "pool", 4))
            break;
        if (st == S_HEAD && !key && !pb_zfs_is_blank(L->s) &&
            (L->s[0] == '\t' || pb_zfs_indent_of(L->s) >= 8) && fkey[0]) {
            /* continuation of status:, action:, scan: */
            pb_buf_putc(&field, ' ');
            pb_buf_puts(&field, pb_skip_ws(L->s, L->s + strlen(L->s)));
            i++;
            continue;
        }
        if (fkey[0]) {
            pb_zfs_fact(c, o, fkey, pb_buf_str(&field));
            fkey[0] = '\0';
            pb_buf_reset(&field);
        }
        if (key) {
            if (kn == 6 && !memcmp(k, "config", 6)) {
                st = S_CONFIG;
            } else {
                snprintf(fkey, sizeof(fkey), "%.*s", (int)kn, k);
                if (!strcmp(fkey, "scrub"))
                    strcpy(fkey, "scan"); /* before OpenZFS 0.6.4 */
                pb_buf_puts(&field, val);
                st = kn == 6 && !memcmp(k, "errors", 6) ? S_ERRORS : S_HEAD;
            }
            i++;
            continue;
        }
        if (pb_zfs_is_blank(L->s)) {
            i++;
            continue;
        }
        if (st == S_CONFIG && (L->s[0] == '\t' || L->s[0] == ' ')) {
            pb_zfs_split_ws(L->s, &c->tk);
            if (pb_zfs_header_kind(&c->tk) == H_STATUS_CFG) {
                rc = status_config(c, o, i, &i);
                if (rc)
                    break;
                have_cfg = 1;
                continue;
            }
            break;
        }
        if (st == S_ERRORS && (L->s[0] == '\t' || L->s[0] == ' ')) {
            i++; /* files listed by status -v */
            continue;
        }
        break;
    }
    if (rc == PB_OK && fkey[0])
        pb_zfs_fact(c, o, fkey, pb_buf_str(&field));
    pb_buf_release(&field);
    if (rc == PB_OK && !have_cfg)
        rc = pb_err_set(c->err, PB_EINPUT, c->path, (long)p + 1, 0,
                        "no vdev table for pool \"%.80s\"", o->name);
    *next = i;
    return rc;
}

/* ==== zpool list -v trees ==== */

/* Re-read a `zpool list -v` table (header h, rows up to end) for the
 * vdev rows under each pool. */
void pb_zfs_pool_list_tree(struct ctx *c, size_t h, size_t end)
{
    struct toks *tk = &c->tk;
    int base = pb_zfs_indent_of(pb_zfs_line(c, h)->s);
    struct vrows v = {0};
    struct obj *cur = NULL;
    int cls = PB_VC_DATA, verbose = 0;
    for (size_t i = h + 1; i <= end; i++) {
        const struct line *L = i < end ? pb_zfs_line(c, i) : NULL;
        int depth = 0;
        if (L) {
            pb_zfs_split_ws(L->s, tk);
            if (tk->n == 0)
                continue;
            depth = pb_zfs_indent_of(L->s) - base;
        }
        int heading = L && depth <= 0 &&
                      pb_vclass_of(tk->t[0].s, tk->t[0].n) >= 0 &&
                      tk->n >= 2 && pb_zfs_tokeq(&tk->t[1], "-");
        if (!L || (depth <= 0 && !heading)) {
            /* a new pool (or the end): finish the previous one */
            if (cur && verbose)
                analyze_tree(c, cur, v.r, v.n);
            v.n = 0;
            verbose = 0;
            cls = PB_VC_DATA;
            if (!L)
                break;
            cur = pb_zfs_get_obj(c, O_POOL, tk->t[0].s, tk->t[0].n);
            add_vrow(c, &v, 0, cls, 0, &tk->t[0]);
            continue;
        }
        if (!cur)
            continue;
        if (heading) {
            cls = pb_vclass_of(tk->t[0].s, tk->t[0].n);
            add_vrow(c, &v, 0, cls, 1, &tk->t[0]);
            continue;
        }
        verbose = 1;
        add_vrow(c, &v, depth, cls, 0, &tk->t[0]);
    }
    free(v.r);
}
