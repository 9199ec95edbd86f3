/* The bonnie++ table in bon_csv2html's layout: one row per machine and
 * size, throughput and %CP beside each other, latencies in a second table,
 * paged past RP_BON_PAGE rows. Its columns (rp_bon_cols) are in
 * analysis/metrics.c, where the data model keeps their metrics resident. */
#include "analysis/analysis.h"
#include "render/report_int.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ==== bonnie++ ==== */

static int want_bonnie(const char *m)
{
    int part;
    return rp_bon_slot(m, &part) >= 0;
}

int rp_has_bonnie(const struct rp_data *d)
{
    for (size_t gi = 0; gi < d->ngroups; gi++)
        if (want_bonnie(d->metrics[d->groups[gi].metric].name))
            return 1;
    return 0;
}

/* Light red (worst) to light yellow to light green (best): dark text stays
 * readable, as in bon_csv2html. */
static uint32_t bon_color(double t)
{
    static const uint32_t st[] = {0xf4b6b6, 0xfbeeb8, 0xbfe3bf};
    double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    uint32_t a = t < 0.5 ? st[0] : st[1], b = t < 0.5 ? st[1] : st[2], out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double ca = (a >> sh) & 0xff, cb = (b >> sh) & 0xff;
        out |= (uint32_t)lround(ca + (cb - ca) * u) << sh;
    }
    return out;
}

/* One row of the table: a machine (configuration) and test, its cells by
 * column and part (m NULL: no cell). */
struct bon_metric {
    long long id;
    const char *name;
    struct rp_unit u;
    int dir, slot, part;
};

struct bon_row {
    size_t config, test;
    struct rp_cell c[RP_NBON][3];
    const char *why[RP_NBON][3]; /* c's null reasons (rp_cell.reason
                                    indexes rp_data's, not these) */
    const struct bon_metric *m[RP_NBON][3];
};

static const struct rp_cell *bon_cell(const struct bon_row *r, size_t slot,
                                      int part)
{
    return r->m[slot][part] ? &r->c[slot][part] : NULL;
}

/* What a table needs of all its rows before the first is written: which
 * columns have a cell, the colour range of each, the Files column. */
struct bon_col {
    double lo, hi;
    size_t any; /* cells with a value */
    int seen;   /* a cell gave the unit */
    struct rp_unit u;
    int dir;
};

struct bon_stats {
    size_t nrows;
    int files;
    int used[RP_NBON][3];
    struct bon_col col[RP_NBON][3];
};

/* "16k:4k:512/8" as bonnie++ writes its -n argument (files in units of
 * 1024 when they divide, sizes in bytes), or "" for no file tests. */
static void bon_files_cell(struct rt_table *t, struct rt_cell *cell,
                           const struct rp_test *ts)
{
    const char *nf = rp_param(ts->params, ts->nparams, "num_files");
    if (!nf) {
        rt_set(t, cell, "");
        return;
    }
    const char *mx = rp_param(ts->params, ts->nparams, "max_size");
    const char *mn = rp_param(ts->params, ts->nparams, "min_size");
    const char *nd = rp_param(ts->params, ts->nparams, "num_dirs");
    long long n = atoll(nf);
    const char *txt = n > 0 && n % 1024 == 0 ? rt_str(t, "%lldk", n / 1024)
                                             : rt_str(t, "%s", nf);
    if (mx)
        txt = rt_str(t, "%s:%s", txt, mx);
    if (mx && mn)
        txt = rt_str(t, "%s:%s", txt, mn);
    if (nd)
        txt = rt_str(t, "%s/%s", txt, nd);
    rt_setv(t, cell, txt, (double)n);
    cell->title = ts->name;
}

/* A column of one table: its slot and part, scale, unit, colour range,
 * direction, and how many cells have a value (up to 2). */
struct bon_tcol {
    size_t slot;
    int part;
    struct rp_scale sc;
    struct rp_unit u;
    double lo, hi;
    int dir, any;
};

/* The group header: a blank over the fixed columns, then each group of
 * bonnie++'s columns over the columns it has. */
static void group_header(struct rt_table *t, const int (*used)[3], size_t fixed,
                         int lat)
{
    struct rt_cell *grp = rt_group(t, RP_NBON + 1);
    size_t ng = 0;
    grp[ng].span = (unsigned)fixed;
    grp[ng++].text = "";
    for (size_t i = 0; i < RP_NBON; i++) {
        size_t w = lat ? (size_t)used[i][2] : (used[i][0] || used[i][1]) * 2u;
        if (!w)
            continue;
        if (ng > 1 && !strcmp(grp[ng - 1].text, rp_bon_cols[i].group)) {
            grp[ng - 1].span += (unsigned)w;
            continue;
        }
        grp[ng].text = rp_bon_cols[i].group;
        grp[ng++].span = (unsigned)w;
    }
    t->ngroup = ng;
}

/* One value cell: blank for no cell, "+++++" for too fast to measure,
 * else the value (latency in units per cell, as bonnie++), its colour on
 * the column's range. */
static void value_cell(struct rt_table *t, struct rt_cell *cell,
                       const struct rp_cell *c, const char *reason,
                       const struct bon_tcol *col)
{
    char b[96];
    if (!c) {
        rt_set(t, cell, "");
        return;
    }
    if (!c->has_value) {
        const char *why = reason ? reason : "";
        rt_set(t, cell, strstr(why, "+++") ? "+++++" : "");
        cell->title = why;
        cell->style = RT_MUTED;
        return;
    }
    double x = c->mean / col->sc.div;
    int dec = fabs(x) >= 100 || x == 0 ? 0 : fabs(x) >= 10 ? 1 : 2;
    if (col->part == 1)
        dec = 0;
    /* without printf: 100,000 machines make 3.6 M of these cells */
    if (col->part == 2) /* latency: units per cell, as bonnie */
        rt_setv(t, cell, rp_fmt(&col->u, c->mean, b, sizeof(b)), c->mean);
    else
        rt_setv(t, cell, rp_fixed(x, dec, b, sizeof(b)), c->mean);
    char tip[128];
    rp_fmt_pm(&col->u, c->mean, c->se, tip, 96);
    size_t len = strlen(tip);
    if (c->n > 1) /* " (n=%ld)" */
        len += (size_t)snprintf(tip + len, sizeof(tip) - len, " (n=%ld)",
                                c->n);
    cell->title = pb_arena_strndup(&t->arena, tip, len);
    rp_ci_title(t, cell, &col->u, c);
    rp_outlier_mark(t, cell, c);
    if (col->any >= 2 && col->hi > col->lo) {
        double tt = (c->mean - col->lo) / (col->hi - col->lo);
        if (col->dir < 0)
            tt = 1 - tt;
        cell->has_bg = 1;
        cell->bg = bon_color(tt);
    }
}

/* The cells array of the tables written, for the next (one array for
 * every page: its memory is not faulted in again for each). */
struct bon_cells {
    struct rt_cell *v;
    size_t cap;
};

/* One bonnie table of rows[0..n) (a page): lat 0 = values and %CP, 1 =
 * latencies. Columns and colour ranges come from st (every row). */
static void bonnie_table(struct rp_out *o, const struct rp_data *d,
                         const struct bon_stats *st,
                         const struct bon_row *rows, size_t n, int lat,
                         struct bon_cells *keep)
{
    const int(*used)[3] = st->used;
    /* a Files column (bonnie's num_files:max:min/dirs) tells apart runs of
     * one machine and size that differ only in their file tests */
    int files = st->files;
    size_t fixed = 2 + (size_t)files, ncols = fixed;
    for (size_t i = 0; i < RP_NBON; i++) {
        if (lat)
            ncols += used[i][2];
        else
            ncols += (size_t)(used[i][0] || used[i][1]) * 2;
    }
    if (ncols == fixed)
        return;
    struct rt_table t;
    rt_init(&t, ncols);
    t.caption = lat ? "bonnie++ latency (lower is better)"
                    : "bonnie++ throughput and CPU (bon_csv2html layout)";
    group_header(&t, used, fixed, lat);
    rt_header(&t, 0, "Name", RT_LEFT);
    rt_header(&t, 1, "Size", RT_RIGHT);
    if (files)
        rt_header(&t, 2, "Files", RT_RIGHT);
    /* per column scale and range */
    size_t col = fixed;
    struct bon_tcol cols[RP_NBON * 2];
    size_t nc = 0;
    for (size_t i = 0; i < RP_NBON; i++) {
        int parts[2], np = 0;
        if (lat) {
            if (used[i][2])
                parts[np++] = 2;
        } else if (used[i][0] || used[i][1]) {
            parts[np++] = 0;
            parts[np++] = 1;
        }
        for (int p = 0; p < np; p++) {
            const struct bon_col *sc = &st->col[i][parts[p]];
            cols[nc].slot = i;
            cols[nc].part = parts[p];
            cols[nc].lo = sc->any ? sc->lo : INFINITY;
            cols[nc].hi = sc->any ? sc->hi : -INFINITY;
            cols[nc].any = (int)(sc->any > 2 ? 2 : sc->any);
            cols[nc].dir = parts[p] == 0 ? 1 : -1;
            cols[nc].u.kind = parts[p] == 1 ? RP_U_PCT : RP_U_OTHER;
            cols[nc].u.raw = "";
            if (sc->seen) { /* the unit even when every value is +++++ */
                cols[nc].u = sc->u;
                cols[nc].dir = sc->dir;
            }
            rp_scale_for(&cols[nc].u, cols[nc].any ? cols[nc].hi : 0,
                         &cols[nc].sc);
            /* counts per second as bonnie++ prints them (215, not 0.21k):
             * the cells carry no prefix, the header names the unit once */
            if (cols[nc].sc.prefix[0] && cols[nc].u.kind != RP_U_BPS) {
                cols[nc].sc.div = 1;
                cols[nc].sc.prefix[0] = '\0';
            }
            char head[96];
            if (parts[p] == 1)
                snprintf(head, sizeof(head), "%%CP");
            else if (parts[p] == 2 || !cols[nc].sc.name[0])
                snprintf(head, sizeof(head), "%s", rp_bon_cols[i].name);
            else
                snprintf(head, sizeof(head), "%s (%s%s)", rp_bon_cols[i].name,
                         cols[nc].sc.prefix, cols[nc].sc.name);
            rt_header(&t, col++, head, RT_RIGHT);
            nc++;
        }
    }
    /* room for every row at once (rt_row's doubling copied each page's
     * cells ~12 times over, 2 MB at the end), in the array of the table
     * before */
    t.cells = keep->v;
    t.cap = keep->cap;
    keep->v = NULL;
    keep->cap = 0;
    PB_GROW(t.cells, t.cap, n * ncols);
    for (size_t r = 0; r < n; r++) {
        /* a row whose every cell would be blank (fields bonnie++ left
         * empty) is no row */
        int any = 0;
        for (size_t k = 0; k < nc; k++) {
            const struct rp_cell *c =
                bon_cell(&rows[r], cols[k].slot, cols[k].part);
            any |= c && (c->has_value ||
                         (rows[r].why[cols[k].slot][cols[k].part] &&
                          strstr(rows[r].why[cols[k].slot][cols[k].part],
                                 "+++")));
        }
        if (!any)
            continue;
        struct rt_cell *row = rt_row(&t);
        const struct rp_config *cf = &d->configs[rows[r].config];
        rp_config_cell(&t, &row[0], cf);
        const struct rp_test *ts = &d->tests[rows[r].test];
        const char *sz = rp_param(ts->params, ts->nparams, "file_size");
        if (!sz)
            sz = rp_param(ts->params, ts->nparams, "size");
        char b[96];
        if (sz)
            rt_setv(&t, &row[1], rp_param_text("size", sz, b, sizeof(b)),
                    atof(sz));
        else
            rt_set(&t, &row[1], "");
        row[1].title = ts->name;
        if (files)
            bon_files_cell(&t, &row[2], ts);
        for (size_t k = 0; k < nc; k++) {
            struct rt_cell *cell = &row[fixed + k];
            const struct rp_cell *c =
                bon_cell(&rows[r], cols[k].slot, cols[k].part);
            value_cell(&t, cell, c, rows[r].why[cols[k].slot][cols[k].part],
                       &cols[k]);
        }
    }
    if (!t.nrows) {
        keep->v = t.cells;
        keep->cap = t.cap;
        t.cells = NULL;
        rt_release(&t);
        return;
    }
    t.note = lat ? "Latency: the longest single operation of each test."
                 : "+++++: too fast to measure (bonnie++ prints no number). "
                   "Colours compare each column: green best, red worst. "
                   "Hover a cell for its exact value; repeated runs of one "
                   "machine and size are averaged.";
    rp_out_table_keep(o, &t, &keep->v, &keep->cap);
}

/* ==== the rows, from one ordered query ==== */

/* The report's order: configurations and tests by rank (tests merged by
 * --ignore-param under the test standing for them); only shown ones. */
static long long config_rank(void *ctx, long long id)
{
    const struct rp_data *d = ctx;
    size_t i;
    RP_FIND_ID(d->configs, d->nconfigs, id, i);
    return i == SIZE_MAX || !d->configs[i].used ? -1
                                                : (long long)d->configs[i].rank;
}

static long long test_rank(void *ctx, long long id)
{
    const struct rp_data *d = ctx;
    size_t i;
    RP_FIND_ID(d->tests, d->ntests, id, i);
    if (i == SIZE_MAX)
        return -1;
    i = rp_ignore_canon(d, i);
    return d->tests[i].used ? (long long)d->tests[i].rank : -1;
}

static int want_metric(void *ctx, const char *name)
{
    (void)ctx;
    return rp_metric_is_bonnie(name);
}

/* Reading state: the row and the cell being folded. A cell folds its
 * repeats as render/data.c does (rp_acc in row order); the rows of tests
 * merged by --ignore-param come as one streak per test, merged as
 * ignore.c merges them (Chan's pairwise update). */
struct bon_scan {
    const struct rp_data *d;
    struct pb_an *an;
    struct pb_err *err;
    struct pb_an_repeats *samples;
    double *sv;
    size_t nsv, capsv;
    unsigned char *mark;
    size_t capmark;
    struct pb_arena arena; /* metric names and units: the whole section */
    struct bon_metric **metrics; /* sorted by id; each in arena (rows
                                    point at them) */
    size_t nmetrics, capmetrics;
    struct pb_arena reasons; /* null reasons of the rows held */
    const char *last_raw, *last_clean;
    /* the row */
    int in_row;
    long long ck, tk;
    struct bon_row row;
    /* the cell */
    int in_cell, nstreaks;
    long long metric_id, streak_test;
    const struct bon_metric *cm;
    struct rp_acc acc, streak;
    long nnull;
    const char *null_reason;
    long long first_source;
    long nrepeats, outliers;
    long long *small; /* results with 2-4 samples: counted only when the
                         cell has an outlier (its tooltip's total) */
    size_t nsmall, capsmall;
    int (*emit)(void *ctx, const struct bon_row *row);
    void *ctx;
};

static const struct bon_metric *scan_metric(struct bon_scan *s,
                                            const struct pb_db_rrow *r)
{
    size_t lo = 0, hi = s->nmetrics;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->metrics[mid]->id < r->metric_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nmetrics && s->metrics[lo]->id == r->metric_id)
        return s->metrics[lo];
    PB_GROW(s->metrics, s->capmetrics, s->nmetrics + 1);
    memmove(&s->metrics[lo + 1], &s->metrics[lo],
            (s->nmetrics - lo) * sizeof(*s->metrics));
    s->nmetrics++;
    struct bon_metric *m = pb_arena_alloc(&s->arena, sizeof(*m));
    s->metrics[lo] = m;
    m->id = r->metric_id;
    m->name = rp_clean(&s->arena, r->metric ? r->metric : "");
    const char *unit = rp_clean(&s->arena, r->unit ? r->unit : "");
    m->dir = r->direction && !strcmp(r->direction, "lower") ? -1 : 1;
    rp_unit_of(m->name, unit, &m->u);
    m->slot = rp_bon_slot(m->name, &m->part);
    return m;
}

/* The rows emitted so far no longer need their texts. */
static void scan_forget(struct bon_scan *s)
{
    pb_arena_release(&s->reasons);
    pb_arena_init(&s->reasons);
    s->last_raw = s->last_clean = NULL;
}

static const char *scan_reason(struct bon_scan *s, const char *raw)
{
    if (!raw)
        raw = "no value";
    if (!s->last_raw || strcmp(raw, s->last_raw)) {
        s->last_raw = pb_arena_strdup(&s->reasons, raw);
        s->last_clean = rp_clean(&s->reasons, raw);
    }
    return s->last_clean;
}

static void end_streak(struct bon_scan *s)
{
    if (!s->nstreaks++)
        s->acc = s->streak;
    else
        rp_acc_merge(&s->acc, &s->streak);
    memset(&s->streak, 0, sizeof(s->streak));
}

static int end_cell(struct bon_scan *s)
{
    if (!s->in_cell)
        return PB_OK;
    s->in_cell = 0;
    end_streak(s);
    const struct bon_metric *m = s->cm;
    if (m->slot < 0 || (!s->acc.k && !s->nnull))
        return PB_OK;
    if (s->outliers)
        for (size_t i = 0; i < s->nsmall; i++) {
            int rc = pb_an_repeats_of(s->samples, s->small[i], &s->sv,
                                      &s->nsv, &s->capsv, s->err);
            if (rc)
                return rc;
            s->nrepeats += (long)s->nsv;
        }
    struct rp_cell *c = &s->row.c[m->slot][m->part];
    memset(c, 0, sizeof(*c));
    c->config = (uint32_t)s->row.config;
    c->test = (uint32_t)s->row.test;
    rp_acc_done(&s->acc, c);
    c->nnull = (int32_t)s->nnull;
    s->row.why[m->slot][m->part] = s->null_reason;
    c->source = s->first_source;
    c->nrepeats = (int32_t)s->nrepeats;
    c->outliers = (int32_t)s->outliers;
    s->row.m[m->slot][m->part] = m;
    return PB_OK;
}

static int end_row(struct bon_scan *s)
{
    int rc = end_cell(s);
    if (rc || !s->in_row)
        return rc;
    s->in_row = 0;
    return s->emit(s->ctx, &s->row);
}

static int on_ranked(void *ctx, const struct pb_db_ranked *r)
{
    struct bon_scan *s = ctx;
    const struct rp_data *d = s->d;
    const struct pb_db_rrow *row = &r->row;
    int rc;
    if (!s->in_row || r->config_rank != s->ck || r->test_rank != s->tk) {
        if ((rc = end_row(s)))
            return rc;
        size_t ci, ti;
        RP_FIND_ID(d->configs, d->nconfigs, row->config_id, ci);
        RP_FIND_ID(d->tests, d->ntests, row->test_id, ti);
        if (ci == SIZE_MAX || ti == SIZE_MAX)
            return 0; /* ranked, so listed: never */
        memset(&s->row, 0, sizeof(s->row));
        s->row.config = ci;
        s->row.test = rp_ignore_canon(d, ti);
        s->in_row = 1;
        s->ck = r->config_rank;
        s->tk = r->test_rank;
    }
    if (!s->in_cell || row->metric_id != s->metric_id) {
        if ((rc = end_cell(s)))
            return rc;
        s->in_cell = 1;
        s->nstreaks = 0;
        memset(&s->acc, 0, sizeof(s->acc));
        memset(&s->streak, 0, sizeof(s->streak));
        s->metric_id = row->metric_id;
        s->streak_test = row->test_id;
        s->cm = scan_metric(s, row);
        s->nnull = 0;
        s->null_reason = NULL;
        s->first_source = row->source_id;
        s->nrepeats = s->outliers = 0;
        s->nsmall = 0;
    } else if (row->test_id != s->streak_test) {
        end_streak(s);
        s->streak_test = row->test_id;
    }
    if (row->has_value && isfinite(row->value)) {
        rp_acc_add(&s->streak, row->value, row->has_stderr, row->stderr_,
                   row->samples);
    } else {
        s->nnull++;
        if (!s->null_reason)
            s->null_reason = scan_reason(s, row->null_reason);
    }
    /* outlier repeats (spread.c): only a result of 5 or more samples can
     * have one */
    if (row->samples >= 5) {
        if ((rc = pb_an_repeats_of(s->samples, r->result_id, &s->sv, &s->nsv,
                                   &s->capsv, s->err)))
            return rc;
        if (s->nsv) {
            PB_GROW(s->mark, s->capmark, s->nsv);
            s->nrepeats += (long)s->nsv;
            s->outliers += rp_outliers_of(s->sv, s->nsv, s->mark);
        }
    } else if (row->samples >= 2) {
        PB_GROW(s->small, s->capsmall, s->nsmall + 1);
        s->small[s->nsmall++] = r->result_id;
    }
    return 0;
}

/* Read every row of the table in order, emit(ctx, row) each. */
static int scan_rows(struct bon_scan *s, const struct pb_db_filter *f)
{
    struct pb_db_order ord = {config_rank, test_rank, want_metric,
                              (void *)s->d, 1};
    s->in_row = s->in_cell = 0;
    int rc = pb_an_ranked_rows(s->an, f, &ord, on_ranked, s, s->err);
    if (!rc)
        rc = end_row(s);
    return rc;
}

/* ==== the section ==== */

/* Pass 1 gathers the stats, pass 2 writes pages of RP_BON_PAGE rows as
 * they are read: memory holds one page, whatever the number of rows. */
struct bon_sec {
    struct bon_scan scan;
    struct bon_stats st;
    struct rp_out *o;
    struct bon_row *page;
    size_t npage, pageno, npages;
    struct bon_cells cells;
};

static int add_stats(void *ctx, const struct bon_row *row)
{
    struct bon_sec *b = ctx;
    struct bon_stats *st = &b->st;
    const struct rp_test *ts = &b->scan.d->tests[row->test];
    st->files |= rp_param(ts->params, ts->nparams, "num_files") != NULL;
    for (size_t i = 0; i < RP_NBON; i++)
        for (int p = 0; p < 3; p++) {
            const struct rp_cell *c = bon_cell(row, i, p);
            if (!c)
                continue;
            struct bon_col *col = &st->col[i][p];
            st->used[i][p] = 1;
            col->seen = 1;
            col->u = row->m[i][p]->u;
            col->dir = row->m[i][p]->dir;
            if (!c->has_value)
                continue;
            if (!col->any || c->mean < col->lo)
                col->lo = c->mean;
            if (!col->any || c->mean > col->hi)
                col->hi = c->mean;
            col->any++;
        }
    st->nrows++;
    scan_forget(&b->scan);
    return 0;
}

/* The rows held make page b->pageno: index.html's section for the first,
 * bonnie-NNN.html for the others. */
static void write_page(struct bon_sec *b)
{
    const struct rp_data *d = b->scan.d;
    size_t p = ++b->pageno;
    if (p == 1) {
        bonnie_table(b->o, d, &b->st, b->page, b->npage, 0, &b->cells);
        bonnie_table(b->o, d, &b->st, b->page, b->npage, 1, &b->cells);
        if (b->npages > 1) {
            rp_out_raw(b->o, "<p class=\"pager\">");
            for (size_t k = 2; k <= b->npages; k++) {
                char *a = pb_xasprintf(
                    "<a href=\"bonnie-%03zu.html\">%zu</a> ", k, k);
                rp_out_raw(b->o, a);
                free(a);
            }
            rp_out_raw(b->o, "</p>\n");
        }
        rp_out_raw(b->o, "</section>\n");
    } else {
        size_t from = (p - 1) * RP_BON_PAGE, to = from + b->npage;
        char what[160];
        snprintf(what, sizeof(what),
                 "bonnie++, page %zu of %zu: rows %zu–%zu of %zu", p,
                 b->npages, from + 1, to, b->st.nrows);
        rp_table_page_begin(b->o, "bonnie", what, p, b->npages);
        bonnie_table(b->o, d, &b->st, b->page, b->npage, 0, &b->cells);
        bonnie_table(b->o, d, &b->st, b->page, b->npage, 1, &b->cells);
        rp_table_page_end(b->o, "bonnie", p, b->npages);
    }
    b->npage = 0;
    scan_forget(&b->scan);
}

static int add_row(void *ctx, const struct bon_row *row)
{
    struct bon_sec *b = ctx;
    if (b->pageno >= b->npages)
        return 0; /* written after pass 1: the next report shows it */
    b->page[b->npage++] = *row;
    if (b->npage == RP_BON_PAGE)
        write_page(b);
    return 0;
}

int rp_section_bonnie(struct rp_out *o, const struct rp_data *d,
                      struct pb_an *an, const struct pb_db_filter *f,
                      struct pb_err *err)
{
    struct bon_sec *b = pb_xcalloc(1, sizeof(*b));
    struct bon_scan *s = &b->scan;
    s->d = d;
    s->an = an;
    s->err = err;
    s->emit = add_stats;
    s->ctx = b;
    b->o = o;
    pb_arena_init(&s->arena);
    pb_arena_init(&s->reasons);
    int rc = pb_an_repeats_open(an, &s->samples, err);
    if (!rc)
        rc = scan_rows(s, f);
    if (rc)
        goto done;
    rp_out_raw(o, "<section id=\"bonnie\">\n");
    rp_out_heading(o, 2, NULL, "bonnie++");
    /* Past RP_BON_PAGE rows (100,000 machines made a 356 MB page) the
     * table is paged: index.html shows the first RP_BON_PAGE, the others
     * are on bonnie-002.html ...; colours still compare all rows. */
    size_t nrows = b->st.nrows;
    b->npages = nrows ? (nrows + RP_BON_PAGE - 1) / RP_BON_PAGE : 1;
    if (b->npages > 1) {
        char *note = pb_xasprintf(
            "<p class=\"note\">%zu rows (machine and size): the first %d "
            "here, all on %zu pages of %d (colours compare all %zu). Every "
            "value is in %s.</p>\n",
            nrows, RP_BON_PAGE, b->npages, RP_BON_PAGE, nrows,
            o->raw_whole ? "results.csv" : "the export command at the top");
        rp_out_raw(o, note);
        free(note);
    }
    b->page = pb_xcalloc(RP_BON_PAGE, sizeof(*b->page));
    s->emit = add_row;
    rc = scan_rows(s, f);
    /* the last page (or an empty first one); a failed read leaves the
     * report failed, its pages unwritten */
    while (!rc && b->pageno < b->npages)
        write_page(b);
done:
    pb_an_repeats_close(s->samples);
    pb_arena_release(&s->arena);
    pb_arena_release(&s->reasons);
    free(s->metrics);
    free(s->sv);
    free(s->mark);
    free(s->small);
    free(b->page);
    free(b->cells.v);
    free(b);
    return rc;
}
