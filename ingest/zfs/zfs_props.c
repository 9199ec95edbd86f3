/* ZFS command output into a result set: `zfs get` (human, -p, -H, -Hp),
 * `zfs list` (default columns, -o, -p, -H), `zpool status`, `zpool list`
 * (with or without -v, -H), `zpool get` (human, -p, -H). One file may hold
 * several of them one after the other; other outputs between them (df,
 * zpool iostat, ...) are skipped and named in the fact skipped_lines
 * (zfs_sections.c). -H output without a header: zfs_headerless.c; zpool
 * status and vdev trees: zpool_status.c; lines read from the input:
 * zfs_lines.c; objects, facts and what is stored: zfs_objects.c (also
 * the streamed parse's two passes); shared pieces: zfs_common.c.
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
#include "ingest/zfs/vdev_int.h"
#include "ingest/zfs/zfs_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

/* ==== zfs get / zpool get ==== */

/* Whether a name's rows are `zpool get` or `zfs get` output is known only
 * from all of them: a block is read twice, first for the counts of
 * pool-only and dataset-only properties per name (and every row error),
 * then to store its rows. */
struct nameclass {
    const char *name; /* NULL: empty slot */
    int zp, zf;
};

struct classes {
    struct nameclass *tab;
    size_t cap, n;
    struct pb_arena names;
};

static struct nameclass *class_slot(struct nameclass *tab, size_t cap,
                                    const char *name, size_t n)
{
    size_t i = (size_t)pb_zfs_hash(0, name, n) & (cap - 1);
    while (tab[i].name &&
           (strncmp(tab[i].name, name, n) != 0 || tab[i].name[n] != '\0'))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static struct nameclass *class_of(struct classes *cl, const char *name,
                                  size_t n)
{
    if ((cl->n + 1) * 2 > cl->cap) {
        size_t cap = cl->cap ? cl->cap * 2 : 64;
        struct nameclass *tab = pb_xcalloc(cap, sizeof(*tab));
        for (size_t i = 0; i < cl->cap; i++)
            if (cl->tab[i].name)
                *class_slot(tab, cap, cl->tab[i].name,
                            strlen(cl->tab[i].name)) = cl->tab[i];
        free(cl->tab);
        cl->tab = tab;
        cl->cap = cap;
    }
    struct nameclass *nc = class_slot(cl->tab, cl->cap, name, n);
    if (!nc->name) {
        nc->name = pb_arena_strndup(&cl->names, name, n);
        cl->n++;
    }
    return nc;
}

static void classes_free(struct classes *cl)
{
    free(cl->tab);
    pb_arena_release(&cl->names);
}

/* A row's fields, pointing into its line. */
struct getrow {
    const char *name, *prop, *value;
    size_t nn, np, nv;
    long col; /* of the value */
};

/* Store one row of a block whose classes are known. */
static int put_row(struct ctx *c, struct classes *cl, const struct getrow *r,
                   long line)
{
    const struct nameclass *nc = class_of(cl, r->name, r->nn);
    int kind;
    if (nc->zp && !nc->zf)
        kind = O_POOL;
    else if (nc->zp && nc->zf)
        kind = pb_zfs_is_zpool_only(r->prop, r->np) ? O_POOL : O_DS;
    else
        kind = O_DS;
    const char *name = pb_arena_strndup(&c->row, r->name, r->nn);
    const char *prop = pb_arena_strndup(&c->row, r->prop, r->np);
    const char *value = pb_arena_strndup(&c->row, r->value, r->nv);
    int rc = pb_zfs_put_prop(c, kind, name, prop, value, line, r->col);
    pb_arena_reset(&c->row);
    return rc ? rc : pb_zfs_flush_point(c);
}

static void count_row(struct classes *cl, const struct getrow *r)
{
    struct nameclass *nc = class_of(cl, r->name, r->nn);
    nc->zp += pb_zfs_is_zpool_only(r->prop, r->np);
    nc->zf += pb_zfs_is_zfs_only(r->prop, r->np);
}

static int valid_source(const struct tok *t)
{
    return pb_zfs_tokeq(t, "-") || pb_zfs_tokeq(t, "default") ||
           pb_zfs_tokeq(t, "local") || pb_zfs_tokeq(t, "temporary") ||
           pb_zfs_tokeq(t, "received") || pb_zfs_tokeq(t, "none");
}

/* The header of a `zfs get`/`zpool get` table. */
enum { C_NAME, C_PROP, C_VALUE, C_SOURCE, C_RECEIVED, C_OTHER };
struct gethead {
    int cols[16];
    size_t ncols, ivalue;
    long no; /* its line number */
};

/* Row L of a table: PB_OK with *r, 1 where the table ends (the next
 * output of a combined log), or an input error. Columns before VALUE are
 * single words; SOURCE may be "inherited from X"; VALUE is what is left
 * between them and may hold spaces or be empty. */
static int get_row(struct ctx *c, const struct gethead *g,
                   const struct line *L, struct getrow *r)
{
    struct toks *tk = &c->tk;
    const int *cols = g->cols;
    size_t ncols = g->ncols, ivalue = g->ivalue;
    size_t after = ncols - ivalue - 1;
    if (pb_zfs_is_blank(L->s) || pb_zfs_is_key(L->s, "pool", NULL))
        return 1;
    pb_zfs_split_ws(L->s, tk);
    if (pb_zfs_is_prompt(tk) || pb_zfs_header_kind(tk) != H_NONE ||
        pb_zfs_foreign(tk, L->s) || !pb_zfs_name_shaped(&tk->t[0]))
        return 1;
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
                    c->err, PB_EINPUT, c->path, L->no, (long)s->off + 1,
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
        return pb_err_set(c->err, PB_EINPUT, c->path, g->no, 0,
                          "unsupported get columns: NAME and PROPERTY "
                          "must come before VALUE");
    if (!pb_zfs_is_prop_name(prop->s, prop->n))
        return pb_err_set(c->err, PB_EINPUT, c->path, L->no,
                          (long)prop->off + 1, "bad property name \"%.*s\"",
                          (int)(prop->n > 60 ? 60 : prop->n), prop->s);
    r->value = "";
    r->nv = 0;
    size_t voff = ivalue < tk->n ? tk->t[ivalue].off : 0;
    if (end > ivalue) {
        r->value = tk->t[ivalue].s;
        r->nv = (size_t)(tk->t[end - 1].s + tk->t[end - 1].n - r->value);
    }
    r->name = name->s;
    r->nn = name->n;
    r->prop = prop->s;
    r->np = prop->n;
    r->col = (long)voff + 1;
    return PB_OK;
}

/* A `zfs get`/`zpool get` table whose header is line h. */
static int get_table(struct ctx *c, size_t h, size_t *next)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(pb_zfs_line(c, h)->s, tk);
    struct gethead g = {.no = (long)h + 1};
    g.ncols = tk->n < 16 ? tk->n : 16;
    for (size_t i = 0; i < g.ncols; i++) {
        const struct tok *t = &tk->t[i];
        g.cols[i] = pb_zfs_tokeq(t, "NAME")       ? C_NAME
                    : pb_zfs_tokeq(t, "PROPERTY") ? C_PROP
                    : pb_zfs_tokeq(t, "VALUE")    ? C_VALUE
                    : pb_zfs_tokeq(t, "SOURCE")   ? C_SOURCE
                    : pb_zfs_tokeq(t, "RECEIVED") ? C_RECEIVED
                                                  : C_OTHER;
        if (g.cols[i] == C_VALUE)
            g.ivalue = i;
    }
    struct classes cl = {0};
    struct getrow r;
    int rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        rc = get_row(c, &g, pb_zfs_line(c, i), &r);
        if (rc == 1) {
            rc = PB_OK;
            break;
        }
        if (rc)
            break;
        count_row(&cl, &r);
    }
    *next = i;
    for (size_t k = h + 1; k < *next && rc == PB_OK; k++) {
        const struct line *L = pb_zfs_line(c, k);
        get_row(c, &g, L, &r);
        rc = put_row(c, &cl, &r, L->no);
    }
    classes_free(&cl);
    return rc;
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

static void h_get_row(const struct toks *tk, struct getrow *r)
{
    r->name = tk->t[0].s;
    r->nn = tk->t[0].n;
    r->prop = tk->t[1].s;
    r->np = tk->t[1].n;
    r->value = tk->t[2].s;
    r->nv = tk->t[2].n;
    r->col = (long)tk->t[2].off + 1;
}

static int h_get_run(struct ctx *c, size_t first, size_t *next)
{
    struct toks *tk = &c->tk;
    struct classes cl = {0};
    struct getrow r;
    size_t i;
    for (i = first; i < c->nlines; i++) {
        if (!h_get_line(pb_zfs_line(c, i)->s, tk, 0))
            break;
        h_get_row(tk, &r);
        count_row(&cl, &r);
    }
    *next = i;
    int rc = PB_OK;
    for (size_t k = first; k < *next && rc == PB_OK; k++) {
        const struct line *L = pb_zfs_line(c, k);
        h_get_line(L->s, tk, 0);
        h_get_row(tk, &r);
        rc = put_row(c, &cl, &r, L->no);
    }
    classes_free(&cl);
    return rc;
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
        vals[k] = pb_arena_strndup(&c->row, a->s,
                                   (size_t)(b->s + b->n - a->s));
        vcols[k] = (long)a->off + 1;
        t += span;
    }
    return PB_OK;
}

static int list_table(struct ctx *c, size_t h, size_t *next, int pool)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(pb_zfs_line(c, h)->s, tk);
    size_t ncols = tk->n;
    const char **props = pb_arena_alloc(&c->scratch, ncols * sizeof(*props));
    const char **vals = pb_arena_alloc(&c->scratch, ncols * sizeof(*vals));
    long *vcols = pb_arena_alloc(&c->scratch, ncols * sizeof(*vcols));
    for (size_t k = 0; k < ncols; k++)
        props[k] = pool ? pb_zfs_pool_col(c, &tk->t[k])
                        : pb_zfs_list_col(c, &tk->t[k]);
    int base = pb_zfs_indent_of(pb_zfs_line(c, h)->s);

    int rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = pb_zfs_line(c, i);
        if (pb_zfs_is_blank(L->s) || pb_zfs_is_key(L->s, "pool", NULL))
            break;
        pb_zfs_split_ws(L->s, tk);
        if (pb_zfs_is_prompt(tk) || pb_zfs_header_kind(tk) != H_NONE ||
            pb_zfs_foreign(tk, L->s))
            break;
        int ind = pb_zfs_indent_of(L->s) - base;
        if (pool && ind > 0)
            continue; /* vdev row of -v: see pb_zfs_pool_list_tree() */
        if (pool && pb_vclass_of(tk->t[0].s, tk->t[0].n) >= 0 &&
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
        pb_arena_reset(&c->row);
        rc = pb_zfs_flush_point(c);
        if (rc)
            return rc;
    }
    *next = i;
    return rc;
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

static int not_zfs(struct ctx *c)
{
    for (size_t i = 0; i < c->nlines; i++) {
        const struct line *L = pb_zfs_line(c, i);
        const char *s = L->s;
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
        return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
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
        pb_arena_reset(&c->scratch);
        const struct line *L = pb_zfs_line(c, i);
        size_t next = i + 1;
        if (pb_zfs_is_blank(L->s)) {
            i++;
            continue;
        }
        long no = L->no;
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
            pb_zfs_junk_line(c, pb_zfs_line(c, i));
        else
            pb_zfs_section_found(c);
        if (found && c->first_section == 0)
            c->first_section = no;
        if (rc == PB_OK)
            rc = pb_zfs_flush_point(c);
        if (next <= i)
            next = i + 1;
        i = next;
    }
    return rc;
}

static void ctx_init(struct ctx *c, const char *path, const char *columns,
                     struct pb_resultset *out, struct pb_err *err)
{
    memset(c, 0, sizeof(*c));
    c->columns = columns && *columns ? columns : NULL;
    c->path = path;
    c->out = out;
    c->set = pb_resultset_new();
    c->err = err;
    c->last_obj = (size_t)-1;
    pb_arena_init(&c->scratch);
    pb_arena_init(&c->row);
    pb_arena_init(&c->keep);
}

static void ctx_release(struct ctx *c)
{
    pb_zfs_lines_close(c);
    pb_arena_release(&c->scratch);
    pb_arena_release(&c->row);
    pb_arena_release(&c->keep);
    for (size_t i = 0; i < c->nobjs; i++)
        free(c->objs[i].fb);
    free(c->objs);
    free(c->tk.t);
    free(c->skips);
    free(c->ix);
    free(c->order);
    pb_resultset_free(c->set);
}

/* Read the whole input: every object, dimension and fact (these only
 * noted when c->facts_off); every input error. */
static int read_all(struct ctx *c, const char *buf, size_t len)
{
    int rc = pb_zfs_lines_open(c, buf, len);
    if (rc == PB_OK)
        rc = parse_all(c);
    if (rc == PB_OK && c->first_section == 0)
        rc = not_zfs(c);
    if (rc == PB_OK && !pb_zfs_has_results(c))
        rc = pb_err_set(c->err, PB_EINPUT, c->path, c->first_section, 0,
                        "no sizes, ratios or error counters found in "
                        "the zfs output");
    return rc;
}

static int finish(struct ctx *c)
{
    int rc = pb_zfs_emit(c);
    if (rc == PB_OK)
        pb_zfs_skipped_fact(c);
    return rc;
}

int pb_zfs_parse_columns(const char *path, const char *buf, size_t len,
                         const char *columns, struct pb_resultset *set,
                         struct pb_err *err)
{
    struct ctx c;
    ctx_init(&c, path, columns, set, err);
    int rc = read_all(&c, buf, len);
    if (rc == PB_OK)
        rc = finish(&c);
    ctx_release(&c);
    return rc;
}


/* Streamed (docs/performance.md, "Streaming ingest", zfs-props): pass A reads
 * the file storing nothing, so every input error is found first, and
 * notes where each object's facts end; pass B reads it again and hands
 * the set its facts in parts as objects are finished, then the configs
 * and results object by object (zfs_objects.c). Memory: the objects
 * (their names, dimensions and metrics), the facts of the objects still
 * open, the ring of lines; not the file. */
static int zfs_parse_stream(const char *path, const char *buf, size_t len,
                            const char *columns, struct pb_resultset *set,
                            struct pb_err *err)
{
    struct ctx a;
    ctx_init(&a, path, columns, set, err);
    a.facts_off = 1;
    int rc = read_all(&a, buf, len);
    if (rc != PB_OK) {
        ctx_release(&a);
        return rc;
    }
    struct ctx b;
    ctx_init(&b, path, columns, set, err);
    b.streamed = 1;
    pb_zfs_fact_order(&b, a.objs, a.nobjs);
    ctx_release(&a);
    rc = read_all(&b, buf, len);
    if (rc == PB_OK)
        rc = finish(&b);
    ctx_release(&b);
    return rc;
}

/* --columns (ctx->opts): the names of the columns of -H output without a
 * header. */
static int zfs_parse(struct pb_parse *x)
{
    const char *columns = x->opts ? x->opts->columns : NULL;
    if (x->part)
        return zfs_parse_stream(x->path, x->buf, x->len, columns, x->out,
                                x->err);
    return pb_zfs_parse_columns(x->path, x->buf, x->len, columns, x->out,
                                x->err);
}

const struct pb_parser pb_parser_zfs_props = {
    .name = "zfs-props",
    .flags = PB_PARSER_STREAMS | PB_PARSER_OPTIONS | PB_PARSER_COMPANION,
    .sniff = zfs_sniff,
    .parse = zfs_parse,
    .stream_min = PB_STREAM_MIN_ZFS,
};
