/* Summary tables copied from blog posts and spreadsheets (TSV, CSV,
 * Markdown pipes, aligned white space; several per file, prose between)
 * into a result set: finding tables, and turning their rows into results.
 * Cells: table_split.c; headings and sentences: table_heading.c; names and
 * values: table_values.c. Every rule is in docs/table-format.md.
 *
 * Model mapping:
 *   - Columns whose header is a dimension key (docs/model.md: volblocksize,
 *     compression, ...; bs, fsync, rw, ...) are dimensions of their row;
 *     the others are metrics (table_values.c names them). A header it
 *     cannot map is an error naming the column, unless --table-metric
 *     names it.
 *   - `key=value` heading lines right above the header are dimensions of
 *     the table, or of the column group below each cell; `key=value`
 *     tokens of known keys in the last prose line before the table too
 *     (origin "title: line N: TEXT").
 *   - Each table is its own experiment: config label "<file> table N",
 *     plus ": key=value, ..." for the configuration dimensions that vary
 *     inside it (row cells, column groups). Tool "table", test named by
 *     rw and the test parameters ("write bs=4k fsync=0"); ZFS space
 *     columns are test "zfs space" of tool "zfs", as zfs-props stores them.
 *   - Facts: tables, skipped_lines (prose lines), table:N (its lines).
 */
#include "ingest/table/table_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SNIFF_SCAN     ((size_t)8192)
#define LINE_MAX_SNIFF 2048
#define LINE_MAX_PARSE ((size_t)65536) /* no table line, no prose line */
/* Heading lines looked for above a header at most (the window keeps them):
 * real tables have one or two. */
#define TB_LOOK ((size_t)256)

/* ==== the parse ==== */

/* The header of a table: its cells mapped to columns. For aligned tables
 * neighbouring words join into the longest known name ("Write IOPS"). */
static void map_header(const struct tb_ctx *c, const struct tb_line *l,
                       enum tb_delim d, int strict, struct pb_arena *a,
                       struct tb_col **cols, size_t *ncols, size_t *nknown,
                       size_t *nmetric)
{
    struct tb_cells t = {0};
    if (d != TB_WS) {
        tb_split(l->s, l->n, d, &t, a);
    } else {
        /* plain white-space words, no unit joining */
        size_t i = 0;
        while (i < l->n) {
            while (i < l->n && isspace((unsigned char)l->s[i]))
                i++;
            if (i >= l->n)
                break;
            size_t st = i;
            while (i < l->n && !isspace((unsigned char)l->s[i]))
                i++;
            PB_GROW(t.v, t.cap, t.n + 1);
            t.v[t.n].s = pb_arena_strndup(a, l->s + st, i - st);
            t.v[t.n].off = (long)st;
            t.n++;
        }
    }
    *cols = NULL;
    *ncols = *nknown = *nmetric = 0;
    size_t cap = 0;
    for (size_t i = 0; i < t.n;) {
        size_t take = 1;
        struct tb_colname nm;
        int known = 0;
        const char *title = t.v[i].s;
        if (d == TB_WS) {
            for (size_t k = 4; k >= 1 && !known; k--) {
                char b[128];
                size_t bl = 0;
                if (i + k > t.n)
                    continue;
                for (size_t j = i; j < i + k && bl < sizeof(b); j++)
                    bl += (size_t)snprintf(b + bl, sizeof(b) - bl, "%s%s",
                                           j > i ? " " : "", t.v[j].s);
                if (bl >= sizeof(b))
                    continue; /* longer than any name */
                if (tb_map_column(b, c->cust, c->ncust, &nm)) {
                    known = 1;
                    take = k;
                    title = pb_arena_strdup(a, b);
                }
            }
        } else {
            known = tb_map_column(title, c->cust, c->ncust, &nm);
        }
        if (!known && strict) { /* all must be known: no need to go on */
            *nknown = 0;
            break;
        }
        if (!known)
            memset(&nm, 0, sizeof(nm));
        PB_GROW(*cols, cap, *ncols + 1);
        struct tb_col *co = &(*cols)[(*ncols)++];
        memset(co, 0, sizeof(*co));
        co->nm = nm;
        co->title = title;
        co->off = t.v[i].off;
        if (known)
            (*nknown)++;
        if (known && !nm.is_dim)
            (*nmetric)++;
        if (!known)
            co->nm.key = NULL, co->nm.metric = NULL;
        i += take;
    }
    free(t.v);
}

static int col_known(const struct tb_col *co)
{
    return co->nm.is_dim || co->nm.metric;
}

static void free_cols(struct tb_col *cols, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cols[i].group.v);
    free(cols);
}

/* Is line i the header of a table? Then *first_row is the line of its
 * first row (after a Markdown rule). `strict`: every cell must map and
 * one must be a metric (sniffing). */
static int header_at(struct tb_ctx *c, size_t i, int strict, enum tb_delim *dp,
                     struct tb_col **cols, size_t *ncols, size_t *first_row)
{
    /* the next two lines first: reading them may move the records */
    (void)tb_line_at(&c->lines, i + 2);
    const struct tb_line *l = tb_line_at(&c->lines, i);
    *cols = NULL;
    *ncols = 0;
    if (!l || tb_blank(l))
        return 0;
    enum tb_delim d = tb_delim_of(l->s, l->n);
    size_t nk, nmet;
    map_header(c, l, d, strict, &c->a, cols, ncols, &nk, &nmet);
    int ok = *ncols >= 2 && nk >= 1;
    if (d == TB_WS)
        ok = ok && 2 * nk >= *ncols;
    if (strict)
        ok = ok && nk == *ncols && nmet >= 1;
    size_t j = i + 1;
    const struct tb_line *nx = tb_line_at(&c->lines, j);
    if (ok && d == TB_PIPE && nx) {
        tb_split(nx->s, nx->n, d, &c->cells, &c->a);
        if (tb_is_md_rule(&c->cells))
            nx = tb_line_at(&c->lines, ++j);
    }
    if (ok) {
        ok = nx && !tb_blank(nx);
        if (ok) {
            tb_split(nx->s, nx->n, d, &c->cells, &c->a);
            ok = c->cells.n == *ncols &&
                 (d != TB_WS || tb_row_like(&c->cells)) &&
                 (!strict || tb_row_like(&c->cells));
        }
    }
    if (!ok) {
        free_cols(*cols, *ncols);
        *cols = NULL;
        *ncols = 0;
        return 0;
    }
    *dp = d;
    *first_row = j;
    return 1;
}

/* ==== one table into the result set ==== */

struct emitted {
    size_t config, test;
    const char *metric;
    const char *title; /* of the column */
};

static const char *rw_ddir(const char *rw)
{
    if (!strcmp(rw, "read") || !strcmp(rw, "randread"))
        return "read";
    if (!strcmp(rw, "write") || !strcmp(rw, "randwrite"))
        return "write";
    if (!strcmp(rw, "trim") || !strcmp(rw, "randtrim"))
        return "trim";
    return NULL; /* mixed */
}

static int rw_has(const char *rw, const char *ddir)
{
    if (strstr(rw, ddir))
        return 1;
    if (!strcmp(ddir, "read") || !strcmp(ddir, "write"))
        return !strcmp(rw, "rw") || !strcmp(rw, "randrw");
    return 0;
}

static int emit_cell(struct tb_ctx *c, int tno, const struct tb_line *l,
                     const struct tb_col *co, size_t ci, const char *cell,
                     char conv, const struct tb_dimlist *whole,
                     const struct tb_dimlist *row, struct emitted **em,
                     size_t *nem, size_t *capem)
{
    double v;
    char why[160];
    int r = tb_value(cell, co->nm.vk, co->nm.hmult, conv, &v, why, sizeof(why));
    long colno = c->cells.v[ci].off + 1;
    if (r == 1)
        return PB_OK;
    if (r < 0)
        return pb_err_set(c->err, PB_EINPUT, c->path, l->no, colno,
                          "bad value '%s' in column '%s': %s",
                          tb_excerpt(&c->row, cell, 40),
                          tb_excerpt(&c->row, co->title, 40), why);
    struct tb_dimlist m = {0};
    for (size_t i = 0; i < whole->n; i++)
        tb_dl_put(&m, &whole->v[i]);
    for (size_t i = 0; i < co->group.n; i++)
        tb_dl_put(&m, &co->group.v[i]);
    for (size_t i = 0; i < row->n; i++)
        tb_dl_put(&m, &row->v[i]);
    int rc = PB_OK;
    const struct tb_dim *rwd = tb_dl_get(&m, "rw");
    const char *rw = rwd ? rwd->norm : co->nm.rw;
    const char *metric = co->nm.metric;
    if (rwd && co->nm.ddir &&
        (!rw_has(rwd->norm, co->nm.ddir) ||
         (!strncmp(co->nm.rw, "rand", 4) && strncmp(rwd->norm, "rand", 4)))) {
        rc = pb_err_set(c->err, PB_EINPUT, c->path, l->no, colno,
                        "column '%s' measures %s, but rw=%s",
                        tb_excerpt(&c->row, co->title, 40), co->nm.rw, rwd->norm);
    } else if (co->nm.ddir) {
        metric = pb_arena_printf(&c->row, "%s_%s", co->nm.ddir, metric);
    } else if (co->nm.needs_dir) {
        if (!rw) {
            rc = pb_err_set(c->err, PB_EINPUT, c->path, l->no, colno,
                            "column '%s' needs a data direction: add rw (a "
                            "column, or rw=randread above the table) or name "
                            "it 'Read %s'",
                            tb_excerpt(&c->row, co->title, 40),
                            tb_excerpt(&c->row, co->title, 40));
        } else if (rw_ddir(rw)) {
            metric = pb_arena_printf(&c->row, "%s_%s", rw_ddir(rw), metric);
        }
    }
    if (rc != PB_OK) {
        free(m.v);
        return rc;
    }
    /* the configuration: label from what varies inside the table */
    struct pb_buf lab = PB_BUF_INIT;
    pb_buf_printf(&lab, "%s table %d", c->base, tno);
    int first = 1;
    for (int pass = 0; pass < 2; pass++) {
        const struct tb_dimlist *src = pass == 0 ? row : &co->group;
        for (size_t i = 0; i < src->n; i++) {
            if (src->v[i].is_test)
                continue;
            pb_buf_printf(&lab, "%s%s=%s", first ? ": " : ", ", src->v[i].key,
                          src->v[i].raw);
            first = 0;
        }
    }
    size_t cfg = pb_rs_config(c->set, pb_buf_str(&lab));
    pb_buf_release(&lab);
    c->set->configs[cfg].label_is_name = 1;
    for (size_t i = 0; i < m.n; i++)
        if (!m.v[i].is_test)
            pb_rs_config_param_origin(c->set, cfg, m.v[i].key, m.v[i].norm,
                                      m.v[i].origin);
    /* the test */
    struct pb_buf tn = PB_BUF_INIT;
    pb_buf_puts(&tn, co->nm.zfs ? "zfs space" : rw ? rw : "table");
    if (co->nm.zfs && rw)
        pb_buf_printf(&tn, " rw=%s", rw);
    for (size_t k = 0; tb_test_order[k]; k++) {
        const struct tb_dim *t = tb_dl_get(&m, tb_test_order[k]);
        if (!t || !t->is_test)
            continue;
        char sz[40];
        double bytes;
        const char *val = t->norm;
        if (tb_in_list(t->key, tb_size_keys) &&
            pb_parse_size(t->norm, 0, &bytes) == 0)
            val = pb_fmt_size(bytes, sz, sizeof(sz));
        pb_buf_printf(&tn, " %s=%s", t->key, val);
    }
    size_t test =
        pb_rs_test(c->set, pb_buf_str(&tn), co->nm.zfs ? "zfs" : "table");
    pb_buf_release(&tn);
    if (rw)
        pb_rs_test_param(c->set, test, "rw", rw);
    for (size_t k = 0; tb_test_order[k]; k++) {
        const struct tb_dim *t = tb_dl_get(&m, tb_test_order[k]);
        if (t && t->is_test)
            pb_rs_test_param(c->set, test, t->key, t->norm);
    }
    free(m.v);
    for (size_t i = 0; i < *nem; i++) {
        const struct emitted *e = &(*em)[i];
        if (e->config == cfg && e->test == test && !strcmp(e->metric, metric))
            return pb_err_set(c->err, PB_EINPUT, c->path, l->no, colno,
                              "columns '%s' and '%s' give the same metric "
                              "for the same dimensions (a key=value heading "
                              "above them tells them apart)",
                              tb_excerpt(&c->row, e->title, 40),
                              tb_excerpt(&c->row, co->title, 40));
    }
    PB_GROW(*em, *capem, *nem + 1);
    (*em)[(*nem)++] =
        (struct emitted){cfg, test, pb_rs_str(c->set, metric), co->title};
    pb_rs_add(c->set, cfg, test, NULL, NULL, metric, co->nm.unit,
              co->nm.direction, v);
    return PB_OK;
}

/* A row's cells, dimensions and names live in c->row until the next row:
 * what stays is copied into the set (pb_rs_*), so a table's memory does
 * not grow with its rows' text. */
static void next_row(struct tb_ctx *c)
{
    pb_arena_release(&c->row);
    pb_arena_init(&c->row);
}

/* Rows of the table whose header is line h; *end is the line after it. */
static int table(struct tb_ctx *c, size_t h, size_t first_row, enum tb_delim d,
                 struct tb_col *cols, size_t ncols, size_t prev_end,
                 size_t *end)
{
    struct tb_lines *w = &c->lines;
    const long hno = tb_line_at(w, h)->no;
    *end = h + 1;
    for (size_t k = 0; k < ncols; k++)
        if (!col_known(&cols[k]))
            return pb_err_set(
                c->err, PB_EINPUT, c->path, hno, 0,
                cols[k].title[0] ? "column '%s' is not a known dimension or "
                                   "metric"
                                 : "column %s has no name",
                cols[k].title[0] ? tb_excerpt(&c->a, cols[k].title, 60)
                                 : pb_arena_printf(&c->a, "%zu", k + 1));
    int tno = ++c->ntables;
    /* heading lines directly above (as far as the window reaches: the
     * TB_LOOK lines before the header), then the last prose line before:
     * in the window, or the last non-blank line it forgot */
    size_t top = h;
    struct tb_cells hc = {0};
    int spans;
    while (top > prev_end && top > w->base &&
           tb_heading_cells(c, tb_line_at(w, top - 1), d, &hc, &spans))
        top--;
    free(hc.v);
    struct tb_dimlist whole = {0};
    int rc = PB_OK;
    size_t s = top;
    while (s > prev_end && s > w->base && tb_blank(tb_line_at(w, s - 1)))
        s--;
    if (s > prev_end && s > w->base)
        rc = tb_sentence_dims(c, tb_line_at(w, s - 1), &whole);
    else if (s > prev_end && w->has_nb && w->nb_idx >= prev_end)
        rc = tb_sentence_dims(c, &w->nb, &whole);
    for (size_t k = top; k < h && rc == PB_OK; k++)
        rc = tb_apply_heading(c, tb_line_at(w, k), d, cols, ncols, &whole);
    c->used += h - top + 1 + (first_row - h - 1);
    const long top_no = tb_line_at(w, top)->no;
    long last_no = tb_line_at(w, first_row - 1)->no;

    /* the rows, and the decimal mark the table shows: read from the
     * input, not kept (two passes) */
    struct tb_reader rows;
    tb_reader_from(&rows, &w->rd, tb_line_at(w, first_row));
    struct tb_line row_line, *l = &row_line;
    size_t j = first_row;
    char conv = 0;
    int mixed = 0;
    const char *let_go = rows.p;
    for (; rc == PB_OK && tb_read(&rows, l); j++) {
        if (rows.p - let_go >= (1 << 20)) { /* streamed: pages let go */
            pb_rs_consumed(c->set, rows.p);
            let_go = rows.p;
        }
        if (tb_blank(l))
            break;
        if (d == TB_PIPE && tb_delim_of(l->s, l->n) != TB_PIPE)
            break;
        next_row(c);
        tb_split(l->s, l->n, d, &c->cells, &c->row);
        if (d == TB_PIPE && tb_is_md_rule(&c->cells))
            continue;
        if (c->cells.n != ncols) {
            if (!tb_row_like(&c->cells))
                break;
            rc = pb_err_set(c->err, PB_EINPUT, c->path, l->no, 0,
                            "row has %zu cells, the header (line %ld) has "
                            "%zu",
                            c->cells.n, hno, ncols);
            break;
        }
        if (d == TB_WS && !tb_row_like(&c->cells))
            break;
        for (size_t k = 0; k < ncols; k++) {
            char mk = cols[k].nm.is_dim ? 0 : tb_decimal_hint(c->cells.v[k].s);
            if (mk && conv && mk != conv)
                mixed = 1;
            if (mk)
                conv = mk;
        }
    }
    if (mixed)
        conv = 0;
    size_t end_rows = j;

    struct emitted *em = NULL;
    size_t nem = 0, capem = 0;
    tb_reader_from(&rows, &w->rd, tb_line_at(w, first_row));
    for (j = first_row; j < end_rows && rc == PB_OK && tb_read(&rows, l); j++) {
        last_no = l->no;
        next_row(c);
        tb_split(l->s, l->n, d, &c->cells, &c->row);
        c->used++;
        if (d == TB_PIPE && tb_is_md_rule(&c->cells))
            continue;
        struct tb_dimlist row = {0};
        for (size_t k = 0; k < ncols && rc == PB_OK; k++) {
            const char *cell = c->cells.v[k].s;
            if (!cols[k].nm.is_dim || !cell[0])
                continue;
            struct tb_dim dm;
            char why[160];
            if (tb_make_dim(&c->row, cols[k].nm.key, cell, NULL, &dm, why,
                            sizeof(why)) != 0)
                rc = pb_err_set(c->err, PB_EINPUT, c->path, l->no,
                                c->cells.v[k].off + 1, "%s", why);
            else
                tb_dl_put(&row, &dm);
        }
        nem = 0;
        for (size_t k = 0; k < ncols && rc == PB_OK; k++)
            if (!cols[k].nm.is_dim)
                rc = emit_cell(c, tno, l, &cols[k], k, c->cells.v[k].s, conv,
                               &whole, &row, &em, &nem, &capem);
        free(row.v);
        /* a streamed set: the rows so far to the store (each row is
         * whole in itself: nothing later refers to them) */
        if (rc == PB_OK && pb_rs_flush_due(c->set, 0))
            rc = pb_rs_flush(c->set, rows.p);
    }
    free(em);
    free(whole.v);
    if (rc == PB_OK) {
        char key[32];
        snprintf(key, sizeof(key), "table:%d", tno);
        pb_rs_fact(c->set, NULL, key,
                   pb_arena_printf(&c->a, "lines %ld-%ld", top_no, last_no));
    }
    *end = j;
    tb_lines_restart(w, j, &rows); /* nothing before j is read again */
    return rc;
}

static const char *base_name(struct pb_arena *a, const char *path)
{
    if (!strcmp(path, "-"))
        return "stdin";
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return tb_excerpt(a, *b ? b : path, 80);
}

static int parse_with(const char *path, const char *buf, size_t len,
                      const struct tb_custom *cust, size_t ncust,
                      struct pb_resultset *set, struct pb_err *err)
{
    struct tb_ctx c;
    memset(&c, 0, sizeof(c));
    c.path = path;
    c.set = set;
    c.err = err;
    c.cust = cust;
    c.ncust = ncust;
    pb_arena_init(&c.a);
    pb_arena_init(&c.row);
    c.base = base_name(&c.a, path);
    /* in steps, letting the pages go (a streamed file is mapped) */
    const char *nul = NULL;
    for (size_t off = 0; off < len && !nul; off += (size_t)1 << 20) {
        size_t n = len - off < ((size_t)1 << 20) ? len - off : (size_t)1 << 20;
        nul = memchr(buf + off, '\0', n);
        pb_rs_consumed(set, buf + off + n);
    }
    int rc = PB_OK;
    if (nul)
        rc = pb_err_set(err, PB_EINPUT, path,
                        pb_line_of(buf, (size_t)(nul - buf)), 0,
                        "NUL byte: binary or damaged file, not a table");
    /* a first pass: lines of prose and tables, and none too long */
    size_t nonblank = 0, prev_end = 0;
    struct tb_reader rd;
    struct tb_line l;
    tb_reader_init(&rd, buf, len, (size_t)-1);
    const char *let_go = buf;
    while (rc == PB_OK && tb_read(&rd, &l)) {
        if (rd.p - let_go >= (1 << 20)) { /* streamed: pages let go */
            pb_rs_consumed(set, rd.p);
            let_go = rd.p;
        }
        nonblank += !tb_blank(&l);
        if (l.n > LINE_MAX_PARSE)
            rc = pb_err_set(err, PB_EINPUT, path, l.no, 0,
                            "line of %zu bytes: not a summary table (lines "
                            "hold at most %zu)",
                            l.n, LINE_MAX_PARSE);
    }
    tb_lines_init(&c.lines, buf, len, (size_t)-1);
    for (size_t i = 0; rc == PB_OK && tb_line_at(&c.lines, i);) {
        enum tb_delim d;
        struct tb_col *cols;
        size_t ncols, first_row, end;
        if (i >= c.lines.base + TB_LOOK + 1024)
            tb_lines_forget(&c.lines, i - TB_LOOK);
        if (!header_at(&c, i, 0, &d, &cols, &ncols, &first_row)) {
            i++;
            continue;
        }
        rc = table(&c, i, first_row, d, cols, ncols, prev_end, &end);
        free_cols(cols, ncols);
        prev_end = i = end;
    }
    if (rc == PB_OK && c.ntables == 0)
        rc = pb_err_set(err, PB_EINPUT, path, 1, 0,
                        "no table found: a table is a header row of known "
                        "dimension and metric names over rows of values "
                        "(docs/table-format.md)");
    if (rc == PB_OK) {
        char n[32];
        snprintf(n, sizeof(n), "%d", c.ntables);
        pb_rs_fact(set, NULL, "tables", n);
        snprintf(n, sizeof(n), "%zu", nonblank - c.used);
        pb_rs_fact(set, NULL, "skipped_lines", n);
    }
    tb_lines_release(&c.lines);
    free(c.cells.v);
    pb_arena_release(&c.row);
    pb_arena_release(&c.a);
    return rc;
}

/* The parse with the ingest options (--table-metric), whole or streamed
 * (docs/table-format.md, "Large tables"): the same parse either way. */
static int table_parse(struct pb_parse *x)
{
    const struct pb_ingest_opts *opts = x->opts;
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
    struct tb_custom *cust = NULL;
    size_t n = opts ? opts->ntable_metrics : 0;
    if (n)
        cust = pb_xcalloc(n, sizeof(*cust));
    int rc = PB_OK;
    for (size_t i = 0; i < n && rc == PB_OK; i++) {
        char why[200];
        if (tb_custom_parse(opts->table_metrics[i], &cust[i], why,
                            sizeof(why)) != 0)
            rc = pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "%s", why);
    }
    if (rc == PB_OK)
        rc = parse_with(path, buf, len, cust, n, set, err);
    for (size_t i = 0; i < n; i++)
        tb_custom_release(&cust[i]);
    free(cust);
    return rc;
}

int pb_ingest_table_metric_check(const char *spec, struct pb_err *err)
{
    struct tb_custom cu;
    char why[200];
    if (tb_custom_parse(spec, &cu, why, sizeof(why)) != 0)
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "%s", why);
    tb_custom_release(&cu);
    return PB_OK;
}

/* ==== sniff ==== */

/* Sure only with a header whose cells all map (one a metric) over a row
 * of values: then 50, below every format with a marker of its own. */
static int table_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    if (memchr(buf, '\0', len))
        return 0;
    struct tb_ctx c;
    memset(&c, 0, sizeof(c));
    int score = 0, arena = 0;
    const char *p = buf, *end = buf + len;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3; /* a UTF-8 BOM */
    while (p < end && !score) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        /* cheap first: does the line's first word start a known name? */
        const char *a = p;
        while (a < e && (isspace((unsigned char)*a) || *a == '|'))
            a++;
        const char *b = a;
        if (a < e && isalpha((unsigned char)*a))
            while (b < e && !isspace((unsigned char)*b) && *b != '|' &&
                   *b != ',' && *b != ';' && *b != '(')
                b++;
        /* and a header holds no ':' or '=' (fio's "lat (usec): min=") */
        if (b > a && nl && (size_t)(e - p) <= LINE_MAX_SNIFF &&
            tb_name_start(a, (size_t)(b - a)) &&
            !memchr(b, ':', (size_t)(e - b)) &&
            !memchr(b, '=', (size_t)(e - b))) {
            /* this line and the next two (a Markdown rule, a row) */
            const char *q = nl + 1;
            for (int k = 0; k < 2 && q < end; k++) {
                const char *n2 = memchr(q, '\n', (size_t)(end - q));
                q = n2 ? n2 + 1 : end;
            }
            if (!arena)
                pb_arena_init(&c.a);
            arena = 1;
            tb_lines_release(&c.lines);
            tb_lines_init(&c.lines, p, (size_t)(q - p), LINE_MAX_SNIFF);
            enum tb_delim d;
            struct tb_col *cols = NULL;
            size_t ncols = 0, first_row;
            if (tb_line_at(&c.lines, 1) &&
                header_at(&c, 0, 1, &d, &cols, &ncols, &first_row))
                score = 50;
            free_cols(cols, ncols);
        }
        p = nl ? nl + 1 : end;
    }
    tb_lines_release(&c.lines);
    free(c.cells.v);
    if (arena)
        pb_arena_release(&c.a);
    return score;
}

/* A table by its shape only, whatever its header says (the hint of an
 * unrecognised input): a header of two cells or more (three when aligned
 * by blanks) that is no row of values, maybe a Markdown rule, then a row
 * of as many cells that holds numbers (two such rows when aligned by
 * blanks, which prose with numbers can look like once). */
int pb_table_shaped(const char *buf, size_t len, long *line)
{
    if (memchr(buf, '\0', len))
        return 0;
    struct pb_arena a;
    pb_arena_init(&a);
    struct tb_reader rd;
    tb_reader_init(&rd, buf, len, LINE_MAX_SNIFF);
    struct tb_cells head = {0}, row = {0};
    struct tb_line l;
    enum tb_delim d = TB_WS;
    long head_line = 0;
    size_t rows = 0;
    int yes = 0;
    while (!yes && tb_read(&rd, &l)) {
        if (tb_blank(&l)) {
            head_line = 0;
            continue;
        }
        if (head_line) {
            tb_split(l.s, l.n, d, &row, &a);
            if (tb_is_md_rule(&row))
                continue;
            if (row.n == head.n && tb_row_like(&row)) {
                rows++;
                yes = rows >= (d == TB_WS ? 2u : 1u);
                continue;
            }
            head_line = 0; /* this line may head a table itself */
        }
        d = tb_delim_of(l.s, l.n);
        tb_split(l.s, l.n, d, &head, &a);
        size_t empty = 0;
        for (size_t i = 0; i < head.n; i++)
            empty += !head.v[i].s[0];
        if (head.n >= (d == TB_WS ? 3u : 2u) && !empty &&
            !tb_row_like(&head)) {
            head_line = l.no;
            rows = 0;
        }
    }
    free(head.v);
    free(row.v);
    pb_arena_release(&a);
    if (yes)
        *line = head_line;
    return yes;
}

const struct pb_parser pb_parser_table = {
    .name = "table",
    .flags = PB_PARSER_STREAMS | PB_PARSER_OPTIONS,
    .sniff = table_sniff,
    .parse = table_parse,
    .stream_min = PB_STREAM_MIN_TABLE,
};
