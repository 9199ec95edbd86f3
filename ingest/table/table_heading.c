/* The `table` reader's headings and sentences: `key=value` lines right
 * above a table's header (for the whole table or spanning column groups)
 * and `key=value` words in the last prose line before it. */
#include "ingest/table/table_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* key=value with a key of letters, digits and '_' (surrounding Markdown
 * emphasis and a trailing ',' ';' ':' dropped). */
static int kv_token(const char *s, size_t n, const char **k, size_t *kn,
                    const char **v, size_t *vn)
{
    while (n > 0 && (*s == '*' || *s == '`' || *s == '('))
        s++, n--;
    while (n > 0 && strchr("*`),;:", s[n - 1]))
        n--;
    const char *eq = memchr(s, '=', n);
    if (!eq || eq == s || eq + 1 == s + n)
        return 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_')
        return 0;
    for (const char *p = s; p < eq; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    if (memchr(eq + 1, '=', (size_t)(s + n - eq - 1)))
        return 0;
    *k = s;
    *kn = (size_t)(eq - s);
    *v = eq + 1;
    *vn = (size_t)(s + n - eq - 1);
    return 1;
}

/* The next white-space word at *p (NULL at the end); *p moves past it,
 * so the word is [return value, *p). */
static const char *next_word(const char **p)
{
    const char *q = *p;
    size_t k;
    while ((k = pb_space_len(q)) > 0) /* a no-break space too */
        q += k;
    if (!*q)
        return NULL;
    const char *st = q;
    while (*q && !pb_space_len(q))
        q++;
    *p = q;
    return st;
}

/* Each white-space word of s is key=value (and there is one). */
static int all_kv(const char *s)
{
    int any = 0;
    const char *p = s, *st;
    while ((st = next_word(&p)) != NULL) {
        const char *k, *v;
        size_t kn, vn;
        if (!kv_token(st, (size_t)(p - st), &k, &kn, &v, &vn))
            return 0;
        any = 1;
    }
    return any;
}

/* The dimensions of the words of s into dl; errors name line l. */
static int kv_dims(struct tb_ctx *c, const struct tb_line *l, const char *s,
                   long col, const char *origin, struct tb_dimlist *dl)
{
    const char *p = s, *st;
    while ((st = next_word(&p)) != NULL) {
        const char *k, *v;
        size_t kn, vn;
        if (!kv_token(st, (size_t)(p - st), &k, &kn, &v, &vn))
            continue;
        char *key = pb_xstrndup(k, kn), *val = pb_xstrndup(v, vn);
        struct tb_dim dm;
        char why[160];
        int rc = tb_make_dim(&c->a, key, val, origin, &dm, why, sizeof(why));
        long at = col + (long)(st - s);
        if (rc == 1)
            pb_err_set(c->err, PB_EINPUT, c->path, l->no, at,
                       "heading '%s' names no known dimension key",
                       tb_excerpt(&c->a,
                                  pb_arena_strndup(&c->a, st, (size_t)(p - st)),
                                  40));
        else if (rc < 0)
            pb_err_set(c->err, PB_EINPUT, c->path, l->no, at, "heading: %s",
                       why);
        free(key);
        free(val);
        if (rc != 0)
            return PB_EINPUT;
        tb_dl_put(dl, &dm);
    }
    return PB_OK;
}

/* Is line l a heading for a table of delimiter d? Cells in hc. */
int tb_heading_cells(struct tb_ctx *c, const struct tb_line *l, enum tb_delim d,
                     struct tb_cells *hc, int *spans)
{
    if (tb_blank(l))
        return 0;
    int has_d = d == TB_PIPE ? tb_delim_of(l->s, l->n) == TB_PIPE
                             : d != TB_WS && memchr(l->s, (char)d, l->n);
    *spans = d == TB_WS || has_d;
    if (d == TB_WS) {
        tb_split(l->s, l->n, TB_WS, hc, &c->a);
    } else if (has_d) {
        tb_split(l->s, l->n, d, hc, &c->a);
    } else {
        hc->n = 0;
        PB_GROW(hc->v, hc->cap, 1);
        hc->v[0].s = l->s;
        hc->v[0].off = 0;
        hc->n = 1;
    }
    size_t full = 0;
    for (size_t i = 0; i < hc->n; i++) {
        if (!hc->v[i].s[0])
            continue;
        if (!all_kv(hc->v[i].s))
            return 0;
        full++;
    }
    return full > 0;
}

static const char *origin_of(struct tb_ctx *c, const struct tb_line *l)
{
    return pb_arena_printf(&c->a, "title: line %ld: %s", l->no,
                           tb_excerpt(&c->a, l->s, 100));
}

/* Apply heading line l to the table: cells spanning column groups, or the
 * whole table. */
int tb_apply_heading(struct tb_ctx *c, const struct tb_line *l, enum tb_delim d,
                     struct tb_col *cols, size_t ncols,
                     struct tb_dimlist *whole)
{
    struct tb_cells hc = {0};
    int spans;
    if (!tb_heading_cells(c, l, d, &hc, &spans)) {
        free(hc.v);
        return PB_OK;
    }
    const char *origin = origin_of(c, l);
    /* group start column of each non-empty cell */
    size_t *start = pb_xcalloc(hc.n + 1, sizeof(*start));
    size_t ng = 0;
    int rc = PB_OK;
    for (size_t i = 0; i < hc.n; i++) {
        if (!hc.v[i].s[0])
            continue;
        size_t col = 0;
        if (!spans) {
            col = 0;
        } else if (d == TB_WS) {
            for (size_t k = 0; k < ncols; k++)
                if (cols[k].off <= hc.v[i].off)
                    col = k;
        } else {
            col = i;
            if (col >= ncols) {
                rc = pb_err_set(c->err, PB_EINPUT, c->path, l->no, 0,
                                "heading has more cells than the table "
                                "has columns (%zu)",
                                ncols);
                break;
            }
        }
        start[ng++] = col;
    }
    size_t g = 0;
    for (size_t i = 0; i < hc.n && rc == PB_OK; i++) {
        if (!hc.v[i].s[0])
            continue;
        size_t s = start[g];
        size_t e = ncols; /* exclusive */
        for (size_t h = g + 1; h < ng; h++)
            if (start[h] > s) {
                e = start[h];
                break;
            }
        g++;
        int metric = 0;
        for (size_t k = s; k < e; k++)
            metric |= !cols[k].nm.is_dim;
        struct tb_dimlist dl = {0};
        rc = kv_dims(c, l, hc.v[i].s, hc.v[i].off + 1, origin, &dl);
        for (size_t j = 0; j < dl.n && rc == PB_OK; j++) {
            if (!metric || !spans)
                tb_dl_put(whole, &dl.v[j]);
            else
                for (size_t k = s; k < e; k++)
                    tb_dl_put(&cols[k].group, &dl.v[j]);
        }
        free(dl.v);
    }
    free(start);
    free(hc.v);
    return rc;
}

/* key=value tokens of known keys in a prose line (others are ignored). */
int tb_sentence_dims(struct tb_ctx *c, const struct tb_line *l,
                     struct tb_dimlist *whole)
{
    const char *origin = origin_of(c, l);
    const char *s = l->s;
    for (size_t i = 0; i < l->n; i++) {
        if (s[i] != '=' || i == 0)
            continue;
        size_t ks = i;
        while (ks > 0 &&
               (isalnum((unsigned char)s[ks - 1]) || s[ks - 1] == '_'))
            ks--;
        size_t ve = i + 1;
        while (ve < l->n && !pb_space_len(s + ve) &&
               !strchr(",;()[]*`\"'=<>", s[ve]))
            ve++;
        while (ve > i + 1 && strchr(".:!?", s[ve - 1]))
            ve--;
        if (ks == i || ve == i + 1)
            continue;
        char *key = pb_xstrndup(s + ks, i - ks);
        char *val = pb_xstrndup(s + i + 1, ve - i - 1);
        struct tb_dim dm;
        char why[160];
        int rc = tb_make_dim(&c->a, key, val, origin, &dm, why, sizeof(why));
        free(key);
        free(val);
        if (rc < 0)
            return pb_err_set(c->err, PB_EINPUT, c->path, l->no, (long)ks + 1,
                              "%s", why);
        if (rc == 0)
            tb_dl_put(whole, &dm);
    }
    return PB_OK;
}
