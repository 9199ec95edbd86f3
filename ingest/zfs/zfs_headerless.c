/* ZFS outputs printed with -H and no header for the zfs-props parser:
 * `zfs list -H` and `zpool list -H` with their default columns (known by
 * count and value shapes), any -H -o output with the columns the user
 * names (`ingest --columns name,used,...`), and otherwise an error that
 * says to name them. */
#include "ingest/zfs/zfs_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== shapes ==== */

static int tok_is(const struct tok *t, int (*pred)(const char *))
{
    char buf[64];
    if (t->n == 0 || t->n >= sizeof(buf))
        return 0;
    memcpy(buf, t->s, t->n);
    buf[t->n] = '\0';
    return pred(buf);
}

static int size_shaped(const char *s)
{
    double d;
    return !strcmp(s, "-") || pb_zfs_parse_value(V_SIZE, s, &d) == 0;
}

static int health_word(const char *s)
{
    static const char *const w[] = {"ONLINE",    "DEGRADED", "FAULTED",
                                    "OFFLINE",   "UNAVAIL",  "REMOVED",
                                    "SUSPENDED", NULL};
    return pb_zfs_in_list(w, s, strlen(s));
}

/* `zfs list -H` with the default columns: name used avail refer
 * mountpoint, tab-separated. */
int pb_zfs_h_list_line(const char *s, struct toks *tk)
{
    if (!strchr(s, '\t'))
        return 0;
    pb_zfs_split_tabs(s, tk);
    if (tk->n != 5 || tk->t[0].n == 0)
        return 0;
    for (size_t k = 1; k <= 3; k++)
        if (!tok_is(&tk->t[k], size_shaped))
            return 0;
    const struct tok *m = &tk->t[4];
    return m->n > 0 && (m->s[0] == '/' || pb_zfs_tokeq(m, "none") ||
                        pb_zfs_tokeq(m, "legacy") || pb_zfs_tokeq(m, "-"));
}

/* Default columns of `zpool list -H` by count: zfs-fuse and OpenZFS
 * before 0.6.4 (8), 0.6.4 to 0.7 (10), 0.8 and 2.x (11). */
static const char *const pool8[] = {"name",   "size",     "allocated",
                                    "free",   "capacity", "dedupratio",
                                    "health", "altroot",  NULL};
static const char *const pool10[] = {"name",     "size",       "allocated",
                                     "free",     "expandsize", "fragmentation",
                                     "capacity", "dedupratio", "health",
                                     "altroot",  NULL};
static const char *const pool11[] = {
    "name",       "size",       "allocated",     "free",
    "checkpoint", "expandsize", "fragmentation", "capacity",
    "dedupratio", "health",     "altroot",       NULL};

static const char *const *pool_set(size_t n)
{
    return n == 8 ? pool8 : n == 10 ? pool10 : n == 11 ? pool11 : NULL;
}

int pb_zfs_h_pool_line(const char *s, struct toks *tk)
{
    if (!strchr(s, '\t'))
        return 0;
    pb_zfs_split_tabs(s, tk);
    if (!pool_set(tk->n) || tk->t[0].n == 0)
        return 0;
    const struct tok *alt = &tk->t[tk->n - 1];
    return tok_is(&tk->t[1], size_shaped) && tok_is(&tk->t[2], size_shaped) &&
           tok_is(&tk->t[3], size_shaped) &&
           tok_is(&tk->t[tk->n - 2], health_word) && alt->n > 0 &&
           (alt->s[0] == '/' || pb_zfs_tokeq(alt, "-"));
}

/* Two or more tab-separated fields, a name first and a size among the
 * rest: -H output of some -o column list. */
int pb_zfs_h_tabbed_line(const char *s, struct toks *tk)
{
    if (!strchr(s, '\t'))
        return 0;
    pb_zfs_split_tabs(s, tk);
    if (tk->n < 2 || tk->n > 64 || !pb_zfs_name_shaped(&tk->t[0]))
        return 0;
    for (size_t k = 1; k < tk->n; k++)
        if (tk->t[k].n > 0 && !pb_zfs_tokeq(&tk->t[k], "-") &&
            tok_is(&tk->t[k], size_shaped))
            return 1;
    return 0;
}

/* ==== runs of rows ==== */

/* Rows from line first on while line_ok() holds, each field k stored as
 * property props[k] (props[0] is the name) of an object of kind. */
static int run_rows(struct ctx *c, size_t first, size_t *next, int kind,
                    const char *const *props, size_t nprops,
                    int (*line_ok)(const char *s, struct toks *tk))
{
    struct toks *tk = &c->tk;
    size_t i;
    for (i = first; i < c->nlines; i++) {
        const struct line *L = pb_zfs_line(c, i);
        if (!line_ok(L->s, tk) || tk->n != nprops)
            break;
        const char *name = pb_arena_strndup(&c->row, tk->t[0].s, tk->t[0].n);
        for (size_t k = 1; k < nprops; k++) {
            const char *v = pb_arena_strndup(&c->row, tk->t[k].s, tk->t[k].n);
            int rc = pb_zfs_put_prop(c, kind, name, props[k], v, L->no,
                                     (long)tk->t[k].off + 1);
            if (rc)
                return rc;
        }
        pb_arena_reset(&c->row);
        int rc = pb_zfs_flush_point(c);
        if (rc)
            return rc;
    }
    *next = i;
    return PB_OK;
}

static int any_tabs(const char *s, struct toks *tk)
{
    if (!strchr(s, '\t'))
        return 0;
    pb_zfs_split_tabs(s, tk);
    return 1;
}

/* ==== --columns ==== */

/* Properties named by the --columns list: "name,used,lused,ratio" (the
 * -o names, in either case). Sets *kind to O_POOL when a column only
 * `zpool list` has is named. Returns the count, or 0 with c->err set. */
static size_t parse_columns(struct ctx *c, const char **props, size_t cap,
                            int *kind)
{
    *kind = O_DS;
    size_t n = 0;
    const char *p = c->columns;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 || len > 64 || n == cap) {
            pb_err_set(c->err, PB_EUSAGE, NULL, 0, 0,
                       "--columns wants a comma-separated list of at most "
                       "%zu column names, got \"%.80s\"",
                       cap, c->columns);
            return 0;
        }
        char up[65], low[65];
        for (size_t k = 0; k < len; k++) {
            char ch = p[k];
            up[k] = (char)(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
            low[k] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
        }
        up[len] = low[len] = '\0';
        struct tok t = {up, len, 0};
        const char *zp = pb_zfs_pool_col(c, &t), *zf = pb_zfs_list_col(c, &t);
        int inlist = strcmp(zf, low) != 0; /* AVAIL, LUSED, RATIO ... */
        int inpool = strcmp(zp, low) != 0; /* ALLOC, CAP, DEDUP ... */
        const char *prop = inlist ? zf : inpool ? zp : zf;
        if ((inpool && !inlist) || pb_zfs_is_zpool_only(prop, strlen(prop)))
            *kind = O_POOL;
        props[n++] = prop;
        p += len + (e ? 1 : 0);
    }
    if (n < 2 || strcmp(props[0], "name") != 0) {
        pb_err_set(c->err, PB_EUSAGE, NULL, 0, 0,
                   "--columns must start with name and name one more "
                   "column, got \"%.80s\"",
                   c->columns);
        return 0;
    }
    return n;
}

static int columns_run(struct ctx *c, size_t first, size_t *next)
{
    const char *props[64];
    int kind;
    size_t n = parse_columns(c, props, 64, &kind);
    if (n == 0)
        return c->err->code;
    struct toks *tk = &c->tk;
    const struct line *L = pb_zfs_line(c, first);
    pb_zfs_split_tabs(L->s, tk);
    if (tk->n != n)
        return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                          "row \"%.*s\" has %zu fields, --columns names %zu",
                          (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n), tk->t[0].s,
                          tk->n, n);
    int rc = run_rows(c, first, next, kind, props, n, any_tabs);
    if (rc == PB_OK && *next<c->nlines && * next> first) {
        const struct line *M = pb_zfs_line(c, *next);
        if (strchr(M->s, '\t')) {
            pb_zfs_split_tabs(M->s, tk);
            return pb_err_set(c->err, PB_EINPUT, c->path, M->no, 0,
                              "row \"%.*s\" has %zu fields, --columns "
                              "names %zu",
                              (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n),
                              tk->t[0].s, tk->n, n);
        }
    }
    return rc;
}

/* ==== entry ==== */

int pb_zfs_headerless(struct ctx *c, size_t i, size_t *next, int *rc)
{
    static const char *const list5[] = {"name",       "used",       "available",
                                        "referenced", "mountpoint", NULL};
    const char *s = pb_zfs_line(c, i)->s;
    struct toks *tk = &c->tk;
    if (c->columns && strchr(s, '\t')) {
        *rc = columns_run(c, i, next);
        return 1;
    }
    if (pb_zfs_h_list_line(s, tk)) {
        *rc = run_rows(c, i, next, O_DS, list5, 5, pb_zfs_h_list_line);
        return 1;
    }
    if (pb_zfs_h_pool_line(s, tk)) {
        const char *const *set = pool_set(tk->n);
        *rc = run_rows(c, i, next, O_POOL, set, tk->n, pb_zfs_h_pool_line);
        return 1;
    }
    if (pb_zfs_h_tabbed_line(s, tk)) {
        int pool = 0;
        for (size_t k = 1; k < tk->n; k++)
            pool |= tok_is(&tk->t[k], health_word);
        *rc = pb_err_set(c->err, PB_EINPUT, c->path, (long)i + 1, 0,
                         "%s -H output without a header: pass --columns "
                         "NAME,...",
                         pool ? "zpool list" : "zfs list");
        return 1;
    }
    return 0;
}
