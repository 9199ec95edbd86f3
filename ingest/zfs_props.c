/* ZFS command output into a result set: `zfs get` (human, -p, -H, -Hp),
 * `zfs list` (default columns, -o, -p, -H), `zpool status`, `zpool list`
 * (with or without -v, -H), `zpool get` (human, -p, -H). One file may hold
 * several of them one after the other; other outputs between them (df,
 * zpool iostat, ...) are skipped and named in the fact skipped_lines
 * (zfs_sections.c). -H output without a header: zfs_headerless.c; zpool
 * status and vdev trees: zpool_status.c; shared pieces: zfs_common.c.
 *
 * Model mapping:
 *   - Datasets: one config per dataset, label = dataset name ("tank/vm").
 *     Its config_param are the dataset properties that are experiment
 *     dimensions: recordsize and volblocksize (in bytes, "128K" ->
 *     "131072"), compression, sync, primarycache, atime, logbias, dedup,
 *     copies (lowercase, as printed). Results of test "zfs space" (tool
 *     "zfs"): compressratio (ratio, higher), used (B, lower), logicalused
 *     (B, higher: the logical size of what was written, a workload size
 *     more than a score), referenced (B, lower), available (B, higher), and
 *     the derived actual_savings (ratio, higher) computed from the space
 *     actually written (see savings_basis(): logicalreferenced/referenced,
 *     else logicalused/(used - usedbyrefreservation), else
 *     logicalused/used), with the fact (host NULL)
 *     "<dataset>:actual_savings_basis" naming the formula used. Every other
 *     property is a fact "<dataset>:<property>" with host NULL.
 *   - Pools: one config per pool, label = pool name (the pool's root
 *     dataset shares it). From the vdev tree of `zpool status` or
 *     `zpool list -v`: config_param layout ("stripe", "mirror", "raidz2",
 *     "draid1", "2x mirror" for two mirror vdevs, "mirror+stripe" when
 *     mixed), vdevs (number of data vdevs), slog and l2arc ("yes"/"no"),
 *     and from `zpool get` ashift (when not 0). Datasets of a pool seen in
 *     the same file get those pool dimensions too. Facts "pool:<pool>:<key>"
 *     for state, status, action, see, scan, errors, disks_per_vdev,
 *     log_vdevs, cache_vdevs, spares (special_vdevs, dedup_vdevs when
 *     present) and every pool property that is no metric.
 *     Results of test "zpool space" (tool "zpool"): size (B, higher),
 *     allocated (B, lower), free (B, higher), fragmentation (%, lower),
 *     capacity (%, lower), dedupratio (ratio, higher); of test
 *     "zpool status": read_errors, write_errors, cksum_errors (count,
 *     lower), summed over the leaf devices.
 *   - Host and job are NULL: these outputs do not name the machine.
 *   - Sizes use ZFS's binary suffixes (K = 1024); "-", "none" and empty
 *     values are absent, not 0. Ratios lose their "x", percentages their
 *     "%". When a value appears twice in one file, the last one wins.
 *   - A file yielding no result at all is rejected (a pool status without
 *     its vdev table, a `zfs get` of properties that are no metric).
 */
#include "ingest/zfs_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

/* ==== zfs get / zpool get ==== */

static void add_row(struct ctx *c, const char *name, size_t nn,
                    const char *prop, size_t np, const char *value,
                    size_t nv, long line, long col)
{
    PB_GROW(c->rows, c->caprows, c->nrows + 1);
    struct getrow *r = &c->rows[c->nrows++];
    r->name = pb_arena_strndup(&c->scratch, name, nn);
    r->prop = pb_arena_strndup(&c->scratch, prop, np);
    r->value = pb_arena_strndup(&c->scratch, value, nv);
    r->line = line;
    r->col = col;
}

/* Counts of pool-only and dataset-only properties per name of a block. */
struct nameclass {
    const char *name; /* NULL: empty slot */
    int zp, zf;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static struct nameclass *class_slot(struct nameclass *tab, size_t cap,
                                    const char *name)
{
    size_t i = (size_t)hash_str(name) & (cap - 1);
    while (tab[i].name && strcmp(tab[i].name, name) != 0)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* Decide, per name, whether the collected rows are `zpool get` or
 * `zfs get` output, and store them. */
static int flush_rows(struct ctx *c)
{
    size_t cap = 16;
    while (cap < c->nrows * 2)
        cap *= 2;
    struct nameclass *tab = pb_xcalloc(cap, sizeof(*tab));
    for (size_t i = 0; i < c->nrows; i++) {
        const struct getrow *r = &c->rows[i];
        struct nameclass *nc = class_slot(tab, cap, r->name);
        nc->name = r->name;
        size_t n = strlen(r->prop);
        nc->zp += pb_zfs_is_zpool_only(r->prop, n);
        nc->zf += pb_zfs_is_zfs_only(r->prop, n);
    }
    int rc = PB_OK;
    for (size_t i = 0; i < c->nrows && rc == PB_OK; i++) {
        const struct getrow *r = &c->rows[i];
        const struct nameclass *nc = class_slot(tab, cap, r->name);
        int kind;
        if (nc->zp && !nc->zf)
            kind = O_POOL;
        else if (nc->zp && nc->zf)
            kind =
                pb_zfs_is_zpool_only(r->prop, strlen(r->prop)) ? O_POOL : O_DS;
        else
            kind = O_DS;
        rc = pb_zfs_put_prop(c, kind, r->name, r->prop, r->value, r->line,
                             r->col);
    }
    free(tab);
    c->nrows = 0;
    return rc;
}

static int valid_source(const struct tok *t)
{
    return pb_zfs_tokeq(t, "-") || pb_zfs_tokeq(t, "default") ||
           pb_zfs_tokeq(t, "local") || pb_zfs_tokeq(t, "temporary") ||
           pb_zfs_tokeq(t, "received") || pb_zfs_tokeq(t, "none");
}

/* Rows of a `zfs get`/`zpool get` table whose header is line h. Columns
 * before VALUE are single words; SOURCE may be "inherited from X";
 * VALUE is what is left between them and may hold spaces or be empty. */
static int get_table(struct ctx *c, size_t h, size_t *next)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(c->lines[h].s, tk);
    enum { C_NAME, C_PROP, C_VALUE, C_SOURCE, C_RECEIVED, C_OTHER };
    int cols[16];
    size_t ncols = tk->n < 16 ? tk->n : 16, ivalue = 0;
    for (size_t i = 0; i < ncols; i++) {
        const struct tok *t = &tk->t[i];
        cols[i] = pb_zfs_tokeq(t, "NAME")       ? C_NAME
                  : pb_zfs_tokeq(t, "PROPERTY") ? C_PROP
                  : pb_zfs_tokeq(t, "VALUE")    ? C_VALUE
                  : pb_zfs_tokeq(t, "SOURCE")   ? C_SOURCE
                  : pb_zfs_tokeq(t, "RECEIVED") ? C_RECEIVED
                                         : C_OTHER;
        if (cols[i] == C_VALUE)
            ivalue = i;
    }
    size_t after = ncols - ivalue - 1;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (pb_zfs_is_blank(L->s) || pb_zfs_is_key(L->s, "pool", NULL))
            break;
        pb_zfs_split_ws(L->s, tk);
        if (pb_zfs_is_prompt(tk) || pb_zfs_header_kind(tk) != H_NONE ||
            pb_zfs_foreign(tk, L->s) || !pb_zfs_name_shaped(&tk->t[0]))
            break; /* the next output of a combined log */
        size_t need = ivalue + after;
        if (tk->n < need || tk->n < 2)
            return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                              "truncated row for \"%.*s\"",
                              (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n),
                              tk->t[0].s);
        const struct tok *name = NULL, *prop = NULL;
        for (size_t k = 0; k < ivalue; k++) {
            if (cols[k] == C_NAME)
                name = &tk->t[k];
            else if (cols[k] == C_PROP)
                prop = &tk->t[k];
        }
        /* columns after VALUE, from the end */
        size_t end = tk->n; /* tokens [ivalue, end) hold the value */
        for (size_t k = ncols; k-- > ivalue + 1;) {
            if (cols[k] == C_SOURCE && end >= ivalue + 3 &&
                pb_zfs_tokeq(&tk->t[end - 3], "inherited") &&
                pb_zfs_tokeq(&tk->t[end - 2], "from")) {
                end -= 3;
            } else if (cols[k] == C_SOURCE) {
                const struct tok *s = &tk->t[end - 1];
                if (!valid_source(s))
                    return pb_err_set(
                        c->err, PB_EINPUT, c->path, L->no,
                        (long)s->off + 1,
                        "bad source \"%.*s\" for property '%.*s'",
                        (int)(s->n > 40 ? 40 : s->n), s->s,
                        prop ? (int)(prop->n > 60 ? 60 : prop->n) : 1,
                        prop ? prop->s : "?");
                end--;
            } else {
                end--;
            }
            if (end < ivalue)
                return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                                  "truncated row");
        }
        if (!name || !prop)
            return pb_err_set(c->err, PB_EINPUT, c->path, c->lines[h].no, 0,
                              "unsupported get columns: NAME and PROPERTY "
                              "must come before VALUE");
        if (!pb_zfs_is_prop_name(prop->s, prop->n))
            return pb_err_set(c->err, PB_EINPUT, c->path, L->no,
                              (long)prop->off + 1,
                              "bad property name \"%.*s\"",
                              (int)(prop->n > 60 ? 60 : prop->n), prop->s);
        const char *vs = "";
        size_t vn = 0, voff = ivalue < tk->n ? tk->t[ivalue].off : 0;
        if (end > ivalue) {
            vs = tk->t[ivalue].s;
            vn = (size_t)(tk->t[end - 1].s + tk->t[end - 1].n - vs);
        }
        add_row(c, name->s, name->n, prop->s, prop->n, vs, vn, L->no,
                (long)voff + 1);
    }
    *next = i;
    return flush_rows(c);
}

/* A `zfs get -H`/`zpool get -H` line: name, property, value[, source]
 * separated by tabs. strict: the property must be a known one. */
static int h_get_line(const char *s, struct toks *tk, int strict)
{
    if (!strchr(s, '\t'))
        return 0;
    pb_zfs_split_tabs(s, tk);
    if (tk->n != 4 && tk->n != 3)
        return 0;
    const struct tok *name = &tk->t[0], *prop = &tk->t[1];
    if (name->n == 0 || name->s[0] == ' ' ||
        !pb_zfs_is_prop_name(prop->s, prop->n))
        return 0;
    if (strict && !pb_zfs_is_known_prop(prop->s, prop->n))
        return 0;
    return 1;
}

static int h_get_run(struct ctx *c, size_t first, size_t *next)
{
    struct toks *tk = &c->tk;
    size_t i;
    for (i = first; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (!h_get_line(L->s, tk, 0))
            break;
        add_row(c, tk->t[0].s, tk->t[0].n, tk->t[1].s, tk->t[1].n,
                tk->t[2].s, tk->t[2].n, L->no, (long)tk->t[2].off + 1);
    }
    *next = i;
    return flush_rows(c);
}

/* ==== zfs list ==== */

/* One table row split into ncols values: a '#' word past the last column
 * starts a hand-written comment; other extra words belong to CREATION
 * (a date with spaces) or else to the last column. */
static int fit_row(struct ctx *c, const struct line *L, const char **props,
                   size_t ncols, const char **vals, long *vcols)
{
    struct toks *tk = &c->tk;
    size_t n = tk->n;
    for (size_t k = ncols; k < n; k++) {
        if (tk->t[k].s[0] == '#') {
            n = k;
            break;
        }
    }
    if (n < ncols)
        return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                          "row \"%.*s\" has %zu columns, header has %zu",
                          (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n),
                          tk->t[0].s, n, ncols);
    size_t wide = ncols - 1, extra = n - ncols;
    for (size_t k = 0; k < ncols; k++)
        if (!strcmp(props[k], "creation"))
            wide = k;
    size_t t = 0;
    for (size_t k = 0; k < ncols; k++) {
        size_t span = k == wide ? extra + 1 : 1;
        const struct tok *a = &tk->t[t], *b = &tk->t[t + span - 1];
        vals[k] = pb_arena_strndup(&c->scratch, a->s,
                                   (size_t)(b->s + b->n - a->s));
        vcols[k] = (long)a->off + 1;
        t += span;
    }
    return PB_OK;
}

static int list_table(struct ctx *c, size_t h, size_t *next, int pool)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(c->lines[h].s, tk);
    size_t ncols = tk->n;
    const char **props = pb_arena_alloc(&c->scratch, ncols * sizeof(*props));
    const char **vals = pb_arena_alloc(&c->scratch, ncols * sizeof(*vals));
    long *vcols = pb_arena_alloc(&c->scratch, ncols * sizeof(*vcols));
    for (size_t k = 0; k < ncols; k++)
        props[k] = pool ? pb_zfs_pool_col(c, &tk->t[k])
                        : pb_zfs_list_col(c, &tk->t[k]);
    int base = pb_zfs_indent_of(c->lines[h].s);

    int rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (pb_zfs_is_blank(L->s) || pb_zfs_is_key(L->s, "pool", NULL))
            break;
        pb_zfs_split_ws(L->s, tk);
        if (pb_zfs_is_prompt(tk) || pb_zfs_header_kind(tk) != H_NONE ||
            pb_zfs_foreign(tk, L->s))
            break;
        int ind = pb_zfs_indent_of(L->s) - base;
        if (pool && ind > 0)
            continue; /* vdev row of -v: see pb_zfs_pool_list_tree() */
        if (pool &&
            pb_zfs_in_list(pb_zfs_class_names, tk->t[0].s, tk->t[0].n) &&
            tk->n >= 2 && pb_zfs_tokeq(&tk->t[1], "-"))
            continue; /* "logs  -  -  -": class heading of -v */
        if (!pb_zfs_name_shaped(&tk->t[0]))
            break; /* the next output of a combined log */
        rc = fit_row(c, L, props, ncols, vals, vcols);
        if (rc)
            return rc;
        for (size_t k = 1; k < ncols; k++) {
            rc = pb_zfs_put_prop(c, pool ? O_POOL : O_DS, vals[0], props[k],
                          vals[k], L->no, vcols[k]);
            if (rc)
                return rc;
        }
    }
    *next = i;
    return rc;
}
/* ==== emit ==== */

/* actual_savings from the space actually written, and the basis it was
 * computed on (NULL: none). A reservation counts in `used` but holds no
 * data (a zvol's refreservation of 5.67T made logicalused/used 0.07), so:
 * logicalreferenced/referenced when both are known and referenced is at
 * least 1% of used (below that the dataset's own data is only metadata
 * and its space is its children's); else logicalused/(used -
 * usedbyrefreservation) when usedbyrefreservation is known and not 0;
 * else logicalused/used. */
static const char *savings_basis(const struct obj *o, double *ratio)
{
    const double *v = o->v;
    int used = o->have[DSM_USED], lused = o->have[DSM_LUSED];
    if (o->have_lref && o->have[DSM_REFER] && v[DSM_REFER] > 0 &&
        (!used || v[DSM_REFER] >= v[DSM_USED] / 100)) {
        *ratio = o->lref / v[DSM_REFER];
        return "logicalreferenced/referenced";
    }
    if (!used || !lused)
        return NULL;
    if (o->have_ubrr && o->ubrr > 0 && v[DSM_USED] - o->ubrr > 0) {
        *ratio = v[DSM_LUSED] / (v[DSM_USED] - o->ubrr);
        return "logicalused/(used-usedbyrefreservation)";
    }
    if (v[DSM_USED] > 0) {
        *ratio = v[DSM_LUSED] / v[DSM_USED];
        return "logicalused/used";
    }
    return NULL;
}


static void emit(struct ctx *c)
{
    struct pb_resultset *set = c->set;
    size_t t_zfs = (size_t)-1, t_pool = (size_t)-1, t_status = (size_t)-1;
    static const char *const dims[] = {"layout", "vdevs", "slog", "l2arc",
                                       "ashift"};
    for (size_t i = 0; i < c->nobjs; i++) {
        struct obj *o = &c->objs[i];
        if (o->kind == O_DS) {
            /* the pool's dimensions, when the pool is in this file */
            size_t pn = strcspn(o->name, "/@#");
            const struct obj *p = pb_zfs_find_obj(c, O_POOL, o->name, pn);
            if (p && p->config != o->config) {
                for (size_t k = 0; k < sizeof(dims) / sizeof(dims[0]); k++) {
                    const char *v = pb_zfs_cfg_get(set, p->config, dims[k]);
                    if (v && !pb_zfs_cfg_get(set, o->config, dims[k]))
                        pb_rs_config_param(set, o->config, dims[k], v);
                }
            }
            for (size_t k = 0; k < N_DSM; k++) {
                if (!o->have[k])
                    continue;
                if (t_zfs == (size_t)-1)
                    t_zfs = pb_rs_test(set, "zfs space", "zfs");
                pb_rs_add(set, o->config, t_zfs, NULL, NULL,
                          pb_zfs_ds_metrics[k].prop, pb_zfs_ds_metrics[k].unit,
                          pb_zfs_ds_metrics[k].dir, o->v[k]);
            }
            double ratio;
            const char *basis = savings_basis(o, &ratio);
            if (basis) {
                if (t_zfs == (size_t)-1)
                    t_zfs = pb_rs_test(set, "zfs space", "zfs");
                pb_rs_add(set, o->config, t_zfs, NULL, NULL,
                          "actual_savings", "ratio", PB_DIR_HIGHER, ratio);
                char *key = pb_arena_printf(
                    &c->scratch, "%s:actual_savings_basis", o->name);
                pb_rs_fact(set, NULL, key, basis);
            }
            continue;
        }
        for (size_t k = 0; k < N_PM; k++) {
            if (!o->have[k])
                continue;
            if (t_pool == (size_t)-1)
                t_pool = pb_rs_test(set, "zpool space", "zpool");
            pb_rs_add(set, o->config, t_pool, NULL, NULL,
                      pb_zfs_pool_metrics[k].prop, pb_zfs_pool_metrics[k].unit,
                      pb_zfs_pool_metrics[k].dir, o->v[k]);
        }
        for (size_t k = 0; k < 3; k++) {
            if (!o->have[N_PM + k])
                continue;
            if (t_status == (size_t)-1)
                t_status = pb_rs_test(set, "zpool status", "zpool");
            pb_rs_add(set, o->config, t_status, NULL, NULL,
                      pb_zfs_err_metrics[k], "count", PB_DIR_LOWER,
                      o->v[N_PM + k]);
        }
    }
}

/* ==== sniff ==== */

static int zfs_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    char line[512];
    struct toks tk = {0};
    int pool = 0, state = 0, config = 0, score = 0, hget = 0, hlist = 0,
        htab = 0;
    size_t nonblank = 0;
    const char *p = buf, *end = buf + len;
    while (p < end && score < 90) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t m = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
        memcpy(line, p, m);
        line[m] = '\0';
        if (memchr(line, '\0', m)) { /* binary */
            score = 0;
            break;
        }
        if (m > 0 && line[m - 1] == '\r')
            line[--m] = '\0';
        p = nl ? nl + 1 : end;
        if (pb_zfs_is_blank(line))
            continue;
        nonblank++;
        if (pb_zfs_is_key(line, "pool", NULL))
            pool = 1;
        else if (pool && pb_zfs_is_key(line, "state", NULL))
            state = 1;
        else if (pool && state && pb_zfs_is_key(line, "config", NULL))
            config = 1;
        if (pool && state && config)
            score = 95;
        else if (pool && state && score < 70)
            score = 70;
        pb_zfs_split_ws(line, &tk);
        enum hkind hk = pb_zfs_header_kind(&tk);
        if (hk == H_GET || hk == H_ZPOOL_LIST)
            score = score < 90 ? 90 : score;
        else if (hk == H_ZFS_LIST)
            score = score < 85 ? 85 : score;
        if (h_get_line(line, &tk, 1))
            hget++;
        else if (pb_zfs_h_list_line(line, &tk) ||
                 pb_zfs_h_pool_line(line, &tk))
            hlist++;
        else if (pb_zfs_h_tabbed_line(line, &tk))
            htab++;
    }
    if (hget >= 2 || (hget == 1 && nonblank == 1))
        score = score < 85 ? 85 : score;
    if (hlist >= 2 || (hlist == 1 && nonblank == 1))
        score = score < 60 ? 60 : score;
    /* tab-separated rows of names and sizes: -H output whose columns only
     * --columns can name (the parser says so) */
    if (htab >= 1 && (size_t)(htab + hlist + hget) == nonblank)
        score = score < 40 ? 40 : score;
    free(tk.t);
    return score;
}

/* ==== parse ==== */

static int split_lines(struct ctx *c, const char *buf, size_t len)
{
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        size_t off = (size_t)(nul - buf);
        size_t bol = off;
        while (bol > 0 && buf[bol - 1] != '\n')
            bol--;
        return pb_err_set(c->err, PB_EINPUT, c->path, pb_line_of(buf, off),
                          (long)(off - bol) + 1, "unexpected NUL byte");
    }
    c->text = pb_xstrndup(buf, len);
    c->unterminated = len > 0 && buf[len - 1] != '\n';
    char *s = c->text, *e = c->text + len;
    long no = 1;
    while (s < e) {
        char *nl = memchr(s, '\n', (size_t)(e - s));
        char *le = nl ? nl : e;
        *le = '\0';
        if (le > s && le[-1] == '\r')
            le[-1] = '\0';
        PB_GROW(c->lines, c->caplines, c->nlines + 1);
        c->lines[c->nlines].s = s;
        c->lines[c->nlines].no = no++;
        c->nlines++;
        s = le + 1;
    }
    return PB_OK;
}

static int not_zfs(struct ctx *c)
{
    for (size_t i = 0; i < c->nlines; i++) {
        const char *s = c->lines[i].s;
        if (pb_zfs_is_blank(s))
            continue;
        const char *t = pb_skip_ws(s, s + strlen(s));
        char first[128];
        size_t k = 0;
        for (; t[k] && k < 80; k++)
            first[k] = isprint((unsigned char)t[k]) ||
                               (unsigned char)t[k] >= 0x80
                           ? t[k]
                           : '?';
        while (k > 0 && ((unsigned char)first[k - 1] & 0xC0) == 0x80 &&
               t[k])
            k--; /* do not cut a UTF-8 sequence */
        first[k] = '\0';
        return pb_err_set(c->err, PB_EINPUT, c->path, c->lines[i].no, 0,
                          "no zfs or zpool output found (first line: "
                          "\"%s\")",
                          first);
    }
    return pb_err_set(c->err, PB_EINPUT, c->path, 0, 0,
                      c->nlines ? "file holds only white space"
                                : "empty file");
}

static int parse_all(struct ctx *c)
{
    struct toks *tk = &c->tk;
    int rc = PB_OK;
    size_t i = 0;
    while (i < c->nlines && rc == PB_OK) {
        const struct line *L = &c->lines[i];
        size_t next = i + 1;
        if (pb_zfs_is_blank(L->s)) {
            i++;
            continue;
        }
        int found = 1;
        if (pb_zfs_is_key(L->s, "pool", NULL)) {
            rc = pb_zfs_status_block(c, i, &next);
        } else {
            pb_zfs_split_ws(L->s, tk);
            enum hkind hk = pb_zfs_foreign(tk, L->s)
                                ? H_NONE /* lsblk's NAME ... SIZE */
                                : pb_zfs_header_kind(tk);
            if (hk == H_GET) {
                rc = get_table(c, i, &next);
            } else if (hk == H_ZFS_LIST || hk == H_ZPOOL_LIST) {
                rc = list_table(c, i, &next, hk == H_ZPOOL_LIST);
                if (rc == PB_OK && hk == H_ZPOOL_LIST)
                    pb_zfs_pool_list_tree(c, i, next);
            } else if (h_get_line(L->s, tk, 1)) {
                rc = h_get_run(c, i, &next);
            } else if (pb_zfs_headerless(c, i, &next, &rc)) {
                /* zfs list -H, zpool list -H, --columns */
            } else {
                found = 0; /* junk: prompts, notes, other outputs */
            }
        }
        if (!found)
            pb_zfs_junk_line(c, L);
        else
            pb_zfs_section_found(c);
        if (found && c->first_section == 0)
            c->first_section = L->no;
        if (next <= i)
            next = i + 1;
        i = next;
    }
    return rc;
}

int pb_zfs_parse_columns(const char *path, const char *buf, size_t len,
                         const char *columns, struct pb_resultset *set,
                         struct pb_err *err)
{
    struct ctx c;
    memset(&c, 0, sizeof(c));
    c.columns = columns && *columns ? columns : NULL;
    c.path = path;
    c.set = set;
    c.err = err;
    c.last_obj = (size_t)-1;
    pb_arena_init(&c.scratch);
    int rc = split_lines(&c, buf, len);
    if (rc == PB_OK)
        rc = parse_all(&c);
    if (rc == PB_OK && c.first_section == 0)
        rc = not_zfs(&c);
    if (rc == PB_OK) {
        emit(&c);
        pb_zfs_skipped_fact(&c);
        if (set->nresults == 0)
            rc = pb_err_set(err, PB_EINPUT, path, c.first_section, 0,
                            "no sizes, ratios or error counters found in "
                            "the zfs output");
    }
    pb_arena_release(&c.scratch);
    free(c.text);
    free(c.lines);
    free(c.objs);
    free(c.tk.t);
    free(c.rows);
    free(c.skips);
    free(c.ix);
    return rc;
}

static int zfs_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    return pb_zfs_parse_columns(path, buf, len, NULL, set, err);
}

const struct pb_parser pb_parser_zfs_props = {
    "zfs-props", zfs_sniff, zfs_parse, NULL, 0};
