/* The bonnie++ table in bon_csv2html's layout: one row per machine and
 * size, throughput and %CP beside each other, latencies in a second table,
 * paged past RP_BON_PAGE rows. */
#include "render/render_int.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* bonnie++ columns in bon_csv2html order: value metric, CPU, latency. */
static const struct {
    const char *group, *name, *value, *cpu, *lat;
} bon_cols[] = {
    {"Sequential Output", "Per Chr", "seq_out_char_bw", "seq_out_char_cpu",
     "seq_out_char_latency"},
    {"Sequential Output", "Block", "seq_out_block_bw", "seq_out_block_cpu",
     "seq_out_block_latency"},
    {"Sequential Output", "Rewrite", "seq_rewrite_bw", "seq_rewrite_cpu",
     "seq_rewrite_latency"},
    {"Sequential Input", "Per Chr", "seq_in_char_bw", "seq_in_char_cpu",
     "seq_in_char_latency"},
    {"Sequential Input", "Block", "seq_in_block_bw", "seq_in_block_cpu",
     "seq_in_block_latency"},
    {"Random", "Seeks", "random_seeks", "random_seeks_cpu",
     "random_seeks_latency"},
    {"Sequential Create", "Create", "seq_create", "seq_create_cpu",
     "seq_create_latency"},
    {"Sequential Create", "Read", "seq_stat", "seq_stat_cpu",
     "seq_stat_latency"},
    {"Sequential Create", "Delete", "seq_delete", "seq_delete_cpu",
     "seq_delete_latency"},
    {"Random Create", "Create", "rand_create", "rand_create_cpu",
     "rand_create_latency"},
    {"Random Create", "Read", "rand_stat", "rand_stat_cpu",
     "rand_stat_latency"},
    {"Random Create", "Delete", "rand_delete", "rand_delete_cpu",
     "rand_delete_latency"},
};
#define NBON (sizeof(bon_cols) / sizeof(bon_cols[0]))

/* Which bonnie column (and part: 0 value, 1 cpu, 2 latency) a metric is. */
static int bon_slot(const char *m, int *part)
{
    for (size_t i = 0; i < NBON; i++) {
        if (!strcmp(m, bon_cols[i].value))
            return *part = 0, (int)i;
        if (!strcmp(m, bon_cols[i].cpu))
            return *part = 1, (int)i;
        if (!strcmp(m, bon_cols[i].lat))
            return *part = 2, (int)i;
    }
    return -1;
}

int rp_metric_is_bonnie(const char *metric)
{
    int part;
    return bon_slot(metric, &part) >= 0;
}

/* Rows keyed by (config, test): cell indexes sorted that way. */
static const struct rp_data *key_d;
static int cmp_ct(const void *a, const void *b)
{
    const struct rp_cell *x = &key_d->cells[*(const size_t *)a];
    const struct rp_cell *y = &key_d->cells[*(const size_t *)b];
    size_t cx = key_d->configs[x->config].rank,
           cy = key_d->configs[y->config].rank;
    if (cx != cy)
        return cx < cy ? -1 : 1;
    size_t tx = key_d->tests[x->test].rank, ty = key_d->tests[y->test].rank;
    if (tx != ty)
        return tx < ty ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *cells_where(const struct rp_data *d,
                           int (*want)(const char *metric), size_t *n)
{
    size_t *v = NULL, cap = 0;
    *n = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!want(d->metrics[g->metric].name))
            continue;
        for (size_t i = g->first; i < g->first + g->n; i++) {
            PB_GROW(v, cap, *n + 1);
            v[(*n)++] = i;
        }
    }
    key_d = d;
    if (*n)
        qsort(v, *n, sizeof(*v), cmp_ct);
    key_d = NULL;
    return v;
}

static void config_cell(struct rt_table *t, struct rt_cell *c,
                        const struct rp_config *cf)
{
    rt_set(t, c, cf->label);
    c->has_swatch = 1;
    c->swatch = cf->color;
    c->sortv = (double)cf->rank;
    c->has_sortv = 1;
}

/* ==== bonnie++ ==== */

static int want_bonnie(const char *m)
{
    int part;
    return bon_slot(m, &part) >= 0;
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

struct bon_row {
    size_t config, test;
    const struct rp_cell *c[NBON][3];
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

/* One bonnie table: part 0 = values and %CP, part 2 = latencies. Columns
 * and colour ranges come from all nrows rows; the table holds rows
 * [from, to). */
static void bonnie_table(struct rp_out *o, const struct rp_data *d,
                         const struct bon_row *rows, size_t nrows, int lat,
                         size_t from, size_t to)
{
    /* which columns have anything */
    int used[NBON][3] = {{0}};
    for (size_t r = 0; r < nrows; r++)
        for (size_t i = 0; i < NBON; i++)
            for (int p = 0; p < 3; p++)
                if (rows[r].c[i][p])
                    used[i][p] = 1;
    /* a Files column (bonnie's num_files:max:min/dirs) tells apart runs of
     * one machine and size that differ only in their file tests */
    int files = 0;
    for (size_t r = 0; r < nrows; r++) {
        const struct rp_test *ts = &d->tests[rows[r].test];
        files |= rp_param(ts->params, ts->nparams, "num_files") != NULL;
    }
    size_t fixed = 2 + (size_t)files, ncols = fixed;
    for (size_t i = 0; i < NBON; i++) {
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
    /* group header */
    struct rt_cell *grp = rt_group(&t, NBON + 1);
    size_t ng = 0;
    grp[ng].span = (unsigned)fixed;
    grp[ng++].text = "";
    for (size_t i = 0; i < NBON; i++) {
        size_t w = lat ? (size_t)used[i][2] : (used[i][0] || used[i][1]) * 2u;
        if (!w)
            continue;
        if (ng > 1 && !strcmp(grp[ng - 1].text, bon_cols[i].group)) {
            grp[ng - 1].span += (unsigned)w;
            continue;
        }
        grp[ng].text = bon_cols[i].group;
        grp[ng++].span = (unsigned)w;
    }
    t.ngroup = ng;
    rt_header(&t, 0, "Name", RT_LEFT);
    rt_header(&t, 1, "Size", RT_RIGHT);
    if (files)
        rt_header(&t, 2, "Files", RT_RIGHT);
    /* per column scale and range */
    size_t col = fixed;
    struct {
        size_t slot;
        int part;
        struct rp_scale sc;
        struct rp_unit u;
        double lo, hi;
        int dir, any;
    } cols[NBON * 2];
    size_t nc = 0;
    for (size_t i = 0; i < NBON; i++) {
        int parts[2], np = 0;
        if (lat) {
            if (used[i][2])
                parts[np++] = 2;
        } else if (used[i][0] || used[i][1]) {
            parts[np++] = 0;
            parts[np++] = 1;
        }
        for (int p = 0; p < np; p++) {
            cols[nc].slot = i;
            cols[nc].part = parts[p];
            cols[nc].lo = INFINITY;
            cols[nc].hi = -INFINITY;
            cols[nc].any = 0;
            cols[nc].dir = parts[p] == 0 ? 1 : -1;
            cols[nc].u.kind = parts[p] == 1 ? RP_U_PCT : RP_U_OTHER;
            cols[nc].u.raw = "";
            for (size_t r = 0; r < nrows; r++) {
                const struct rp_cell *c = rows[r].c[i][parts[p]];
                if (!c)
                    continue;
                /* the unit even when every value is +++++ */
                const struct rp_metric *m = &d->metrics[c->metric];
                cols[nc].u = m->u;
                cols[nc].dir = m->dir;
                if (!c->has_value)
                    continue;
                cols[nc].any++;
                if (c->mean < cols[nc].lo)
                    cols[nc].lo = c->mean;
                if (c->mean > cols[nc].hi)
                    cols[nc].hi = c->mean;
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
                snprintf(head, sizeof(head), "%s", bon_cols[i].name);
            else
                snprintf(head, sizeof(head), "%s (%s%s)", bon_cols[i].name,
                         cols[nc].sc.prefix, cols[nc].sc.name);
            rt_header(&t, col++, head, RT_RIGHT);
            nc++;
        }
    }
    for (size_t r = from; r < to && r < nrows; r++) {
        /* a row whose every cell would be blank (fields bonnie++ left
         * empty) is no row */
        int any = 0;
        for (size_t k = 0; k < nc; k++) {
            const struct rp_cell *c = rows[r].c[cols[k].slot][cols[k].part];
            any |= c && (c->has_value ||
                         (c->null_reason && strstr(c->null_reason, "+++")));
        }
        if (!any)
            continue;
        struct rt_cell *row = rt_row(&t);
        const struct rp_config *cf = &d->configs[rows[r].config];
        config_cell(&t, &row[0], cf);
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
            const struct rp_cell *c = rows[r].c[cols[k].slot][cols[k].part];
            if (!c) {
                rt_set(&t, cell, "");
                continue;
            }
            if (!c->has_value) {
                const char *why = c->null_reason ? c->null_reason : "";
                rt_set(&t, cell, strstr(why, "+++") ? "+++++" : "");
                cell->title = why;
                cell->style = RT_MUTED;
                continue;
            }
            double x = c->mean / cols[k].sc.div;
            int dec = fabs(x) >= 100 || x == 0 ? 0 : fabs(x) >= 10 ? 1 : 2;
            if (cols[k].part == 1)
                dec = 0;
            if (cols[k].part == 2) /* latency: units per cell, as bonnie */
                rt_setv(&t, cell, rp_fmt(&cols[k].u, c->mean, b, sizeof(b)),
                        c->mean);
            else
                rt_setv(&t, cell, rt_str(&t, "%.*f", dec, x), c->mean);
            char tip[96];
            cell->title =
                rt_str(&t, "%s%s",
                       rp_fmt_pm(&cols[k].u, c->mean, c->se, tip, sizeof(tip)),
                       c->n > 1 ? rt_str(&t, " (n=%ld)", c->n) : "");
            rp_ci_title(&t, cell, &cols[k].u, c);
            rp_outlier_mark(&t, cell, c);
            if (cols[k].any >= 2 && cols[k].hi > cols[k].lo) {
                double tt = (c->mean - cols[k].lo) / (cols[k].hi - cols[k].lo);
                if (cols[k].dir < 0)
                    tt = 1 - tt;
                cell->has_bg = 1;
                cell->bg = bon_color(tt);
            }
        }
    }
    if (!t.nrows) {
        rt_release(&t);
        return;
    }
    t.note = lat ? "Latency: the longest single operation of each test."
                 : "+++++: too fast to measure (bonnie++ prints no number). "
                   "Colours compare each column: green best, red worst. "
                   "Hover a cell for its exact value; repeated runs of one "
                   "machine and size are averaged.";
    rp_out_table(o, &t);
}

void rp_section_bonnie(struct rp_out *o, const struct rp_data *d)
{
    size_t n;
    size_t *cells = cells_where(d, want_bonnie, &n);
    struct bon_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    for (size_t i = 0; i < n;) {
        const struct rp_cell *c0 = &d->cells[cells[i]];
        PB_GROW(rows, cap, nrows + 1);
        struct bon_row *r = &rows[nrows++];
        memset(r, 0, sizeof(*r));
        r->config = c0->config;
        r->test = c0->test;
        while (i < n && d->cells[cells[i]].config == c0->config &&
               d->cells[cells[i]].test == c0->test) {
            const struct rp_cell *c = &d->cells[cells[i]];
            int part;
            int slot = bon_slot(d->metrics[c->metric].name, &part);
            if (slot >= 0)
                r->c[slot][part] = c;
            i++;
        }
    }
    rp_out_raw(o, "<section id=\"bonnie\">\n");
    rp_out_heading(o, 2, NULL, "bonnie++");
    /* Past RP_BON_PAGE rows (100,000 machines made a 356 MB page) the
     * table is paged: index.html shows the first RP_BON_PAGE, the others
     * are on bonnie-002.html ...; colours still compare all rows. */
    size_t npages = (nrows + RP_BON_PAGE - 1) / RP_BON_PAGE;
    if (npages > 1) {
        char *note = pb_xasprintf(
            "<p class=\"note\">%zu rows (machine and size): the first %d "
            "here, all on %zu pages of %d (colours compare all %zu). Every "
            "value is in results.csv.</p>\n",
            nrows, RP_BON_PAGE, npages, RP_BON_PAGE, nrows);
        rp_out_raw(o, note);
        free(note);
    }
    bonnie_table(o, d, rows, nrows, 0, 0, RP_BON_PAGE);
    bonnie_table(o, d, rows, nrows, 1, 0, RP_BON_PAGE);
    if (npages > 1) {
        rp_out_raw(o, "<p class=\"pager\">");
        for (size_t p = 2; p <= npages; p++) {
            char *a = pb_xasprintf("<a href=\"bonnie-%03zu.html\">%zu</a> ",
                                   p, p);
            rp_out_raw(o, a);
            free(a);
        }
        rp_out_raw(o, "</p>\n");
    }
    rp_out_raw(o, "</section>\n");
    for (size_t p = 2; p <= npages; p++) {
        size_t from = (p - 1) * RP_BON_PAGE;
        size_t to = from + RP_BON_PAGE < nrows ? from + RP_BON_PAGE : nrows;
        char what[160];
        snprintf(what, sizeof(what),
                 "bonnie++, page %zu of %zu: rows %zu–%zu of %zu", p, npages,
                 from + 1, to, nrows);
        rp_table_page_begin(o, "bonnie", what, p, npages);
        bonnie_table(o, d, rows, nrows, 0, from, to);
        bonnie_table(o, d, rows, nrows, 1, from, to);
        rp_table_page_end(o, "bonnie", p, npages);
    }
    free(rows);
    free(cells);
}
