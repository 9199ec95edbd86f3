/* The report's "Results by test": a chart and table per test and metric,
 * the tests with one configuration in one table, and the plan of which
 * tests go on which page (report.c writes the pages). */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== tests ==== */

/* Does the group get its own chart here, or is it drawn in a sweep? */
int rp_group_charted(const struct rp_data *d, const struct rp_group *g)
{
    if (!g->chart || !g->nvalued)
        return 0;
    /* one bonnie++ machine: its numbers are in the bonnie++ table */
    if (g->nvalued == 1 && rp_metric_in_special(d->metrics[g->metric].name))
        return 0;
    /* one bar of a test drawn in a sweep adds nothing */
    if (g->nvalued == 1 && d->tests[g->test].swept)
        return 0;
    /* tests of one configuration: a row each in a compact table */
    return !d->tests[g->test].single;
}

/* Mark the tests whose every chart would have a single bar. */
void rp_mark_single(struct rp_data *d)
{
    for (size_t i = 0; i < d->ngroups;) {
        size_t j = i, bars = 0, multi = 0;
        struct rp_test *t = &d->tests[d->groups[i].test];
        t->single = 0;
        for (; j < d->ngroups && d->groups[j].test == d->groups[i].test; j++) {
            const struct rp_group *g = &d->groups[j];
            if (!rp_group_charted(d, g))
                continue;
            bars++;
            multi |= g->nvalued > 1;
        }
        t->single = bars && !multi;
        i = j;
    }
}

/* The workload group of a test in the contents: "fio · randread". */
static const char *toc_group(const struct rp_test *t, char *buf, size_t n)
{
    const char *rw = rp_param(t->params, t->nparams, "rw");
    snprintf(buf, n, "%s%s%s", t->tool[0] ? t->tool : "other", rw ? " · " : "",
             rw ? rw : "");
    return buf;
}

/* A contents list of the tests with a section on `page` (every page when
 * all is set, linking to their pages), grouped by tool and workload, plus
 * the tests of one configuration. Plain HTML: the script adds a filter. */
static void tests_toc(struct rp_out *o, const struct rp_data *d,
                      const struct test_plan *pl, size_t page, int all)
{
    size_t *ts = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    char **gk = pb_xcalloc(d->ntests + 1, sizeof(char *));
    size_t n = 0, nsingle = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        size_t t = d->groups[gi].test;
        if (gi && d->groups[gi - 1].test == t)
            continue;
        if (d->tests[t].single) {
            nsingle++;
            continue;
        }
        int has = 0;
        for (size_t k = gi; k < d->ngroups && d->groups[k].test == t; k++)
            has |= rp_group_charted(d, &d->groups[k]);
        if (!has || (!all && pl->page[t] != page))
            continue;
        char buf[160];
        gk[n] = pb_xstrdup(toc_group(&d->tests[t], buf, sizeof(buf)));
        ts[n++] = t;
    }
    if (n + nsingle < 2) {
        for (size_t i = 0; i < n; i++)
            free(gk[i]);
        free(gk);
        free(ts);
        return;
    }
    struct pb_buf *h = o->h;
    pb_buf_puts(h, "<nav class=\"toc\"><b>Tests on this page</b><ul>\n");
    unsigned char *done = pb_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t cnt = 0;
        for (size_t k = i; k < n; k++)
            cnt += !strcmp(gk[k], gk[i]);
        pb_buf_puts(h, "<li class=\"tg\"><span>");
        rp_esc(h, gk[i]);
        pb_buf_printf(h, "</span> <span class=\"m\">(%zu)</span><ul>\n", cnt);
        for (size_t k = i; k < n; k++) {
            if (done[k] || strcmp(gk[k], gk[i]))
                continue;
            done[k] = 1;
            const struct rp_test *t = &d->tests[ts[k]];
            size_t pg = pl->page[ts[k]];
            if (all && pg && pg != page)
                pb_buf_printf(h,
                              "<li class=\"tl\"><a href=\"tests-%03zu.html"
                              "#t-%zu\">",
                              pg, t->rank + 1);
            else
                pb_buf_printf(h, "<li class=\"tl\"><a href=\"#t-%zu\">",
                              t->rank + 1);
            rp_esc(h, t->name);
            pb_buf_puts(h, "</a></li>\n");
        }
        pb_buf_puts(h, "</ul></li>\n");
    }
    if (nsingle && (all || !page))
        pb_buf_printf(h,
                      "<li class=\"tg\"><a href=\"%s#t-single\">Tests "
                      "with one configuration</a> <span class=\"m\">"
                      "(%zu)</span></li>\n",
                      page ? (o->home[0] ? o->home : "index.html") : "",
                      nsingle);
    pb_buf_puts(h, "</ul></nav>\n");
    for (size_t i = 0; i < n; i++)
        free(gk[i]);
    free(gk);
    free(done);
    free(ts);
}

/* Tests of one configuration: one row per charted metric, no bar charts. */
static void single_table(struct rp_out *o, const struct rp_data *d)
{
    size_t nt = 0;
    for (size_t t = 0; t < d->ntests; t++)
        nt += d->tests[t].single;
    if (!nt)
        return;
    rp_out_heading(o, 3, "t-single", "Tests with one configuration");
    char buf[200];
    snprintf(buf, sizeof(buf),
             "%zu test%s one configuration: a bar chart of one bar says "
             "nothing a row does not.",
             nt, nt == 1 ? " has" : "s have");
    rp_out_para(o, "note", buf);
    struct rt_table t;
    rt_init(&t, 5);
    t.sortable = 1;
    t.id = "single-tests";
    rt_header(&t, 0, "Test", RT_LEFT);
    rt_header(&t, 1, "Configuration", RT_LEFT);
    rt_header(&t, 2, "Metric", RT_LEFT);
    rt_header(&t, 3, "Value", RT_RIGHT);
    rt_header(&t, 4, "n", RT_RIGHT);
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        const struct rp_test *ts = &d->tests[g->test];
        if (!ts->single || !g->chart || g->nvalued != 1)
            continue;
        rp_stream_test(d, g->test);
        const struct rp_cell *c = NULL;
        for (size_t i = g->first; i < g->first + g->n && !c; i++)
            if (d->cells[i].has_value)
                c = &d->cells[i];
        if (!c)
            continue;
        const struct rp_metric *m = &d->metrics[g->metric];
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], ts->name);
        row[0].sortv = (double)ts->rank;
        row[0].has_sortv = 1;
        rp_config_cell(&t, &row[1], &d->configs[c->config]);
        char mt[96], v[96];
        rt_set(&t, &row[2],
               rp_group_metric_title(d, g->metric, mt, sizeof(mt)));
        rt_setv(&t, &row[3], rp_fmt_pm(&m->u, c->mean, c->se, v, sizeof(v)),
                c->mean);
        rt_setv(&t, &row[4], rt_str(&t, "%ld", c->n), (double)c->n);
        rp_ci_title(&t, &row[3], &m->u, c);
        rp_outlier_mark(&t, &row[4], c);
    }
    rp_out_table(o, &t);
}

static void group_chart(struct rp_out *o, const struct rp_data *d,
                        const struct rp_group *g, size_t *order)
{
    const struct rp_metric *m = &d->metrics[g->metric];
    const struct rp_test *t = &d->tests[g->test];
    rp_order_cells(d, g, order);
    int many = g->n > RP_MANY_LIMIT; /* drawn by chart_many.c */
    size_t nb = many ? 0 : g->n < MAX_BARS ? g->n : MAX_BARS;
    struct rc_bar *bars = pb_xcalloc(nb + 1, sizeof(*bars));
    int any_se = 0;
    double bestv = g->nvalued ? d->cells[order[0]].mean : NAN;
    for (size_t i = 0; i < nb; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        const struct rp_config *cf = &d->configs[c->config];
        bars[i].label = cf->label;
        bars[i].color = cf->color;
        bars[i].has_value = c->has_value;
        bars[i].v = c->mean;
        bars[i].se = c->se;
        bars[i].best = c->has_value && c->mean == bestv && g->nvalued > 1;
        if (c->se > 0)
            any_se = 1;
        if (!c->has_value) {
            const char *r = c->reason ? rp_cell_reason(d, c) : "no value";
            bars[i].note = r;
        }
    }
    char mt[96], sub[300], title[400];
    rp_group_metric_title(d, g->metric, mt, sizeof(mt));
    snprintf(title, sizeof(title), "%s: %s", t->name, mt);
    snprintf(sub, sizeof(sub), "%s is better%s%s",
             m->dir < 0 ? "lower" : "higher",
             any_se ? " · whiskers: ± standard error" : "",
             g->nvalued > 1 ? " · ★ best" : "");
    struct rc_barspec s = {0};
    s.title = title;
    s.subtitle = sub;
    s.unit = m->u;
    s.dir = m->dir;
    s.bars = bars;
    s.n = nb;
    s.more = g->n - nb;
    char stem[200], s1[40], s2[40];
    snprintf(stem, sizeof(stem), "%s-%s", rp_slug(t->name, s1, 34),
             rp_slug(m->name, s2, 20));
    rp_out_chart_data(o, rp_csv_bars(d, g, order));
    size_t shown = 0;
    rp_out_chart(o,
                 many ? rp_many_chart(o->f, d, g, order, title, &shown)
                      : rc_bars(o->f, &s),
                 stem);
    free(bars);
    if (many)
        rp_out_para(o, "note",
                    rp_cat(sub, sizeof(sub), rp_int((long long)shown, s1, 40),
                           " of ", rp_int((long long)g->n, s2, 40),
                           g->n > RP_ENDS_WHOLE
                               ? " configurations shown; all on the pages of "
                                 "the table below and in the CSV"
                               : " configurations shown; all in the table "
                                 "below and in the CSV",
                           NULL));

    if (many)
        return; /* one table for the test's reduced charts: rp_many_table */
    struct rt_table tb;
    rt_init(&tb, 7);
    tb.sortable = 1;
    rt_header(&tb, 0, "#", RT_RIGHT);
    rt_header(&tb, 1, "Configuration", RT_LEFT);
    rt_header(&tb, 2, mt, RT_RIGHT);
    rt_header(&tb, 3, "± SE", RT_RIGHT);
    rt_header(&tb, 4, "n", RT_RIGHT);
    rt_header(&tb, 5, "% of best", RT_RIGHT);
    rt_header(&tb, 6, rt_str(&tb, "Exact (%s)", m->unit), RT_RIGHT);
    for (size_t i = 0; i < g->n; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        struct rt_cell *row = rt_row(&tb);
        char txt[64];
        rt_setv(&tb, &row[0], rp_int((long long)i + 1, txt, sizeof(txt)),
                (double)i + 1);
        rp_config_cell(&tb, &row[1], &d->configs[c->config]);
        rp_value_cells(&tb, row, 2, d, &m->u, c);
        if (c->has_value) {
            double pc = rp_pct_of_best(c->mean, bestv, m->dir);
            rt_setv(&tb, &row[5],
                    isnan(pc) ? "" : rp_pct1("", pc, txt, sizeof(txt)),
                    isnan(pc) ? 0 : pc);
            char num[40];
            rt_setv(&tb, &row[6], rp_num(c->mean, num, sizeof(num)), c->mean);
            row[6].style = RT_MONO;
            if (c->mean == bestv) {
                row[1].style = RT_BOLD;
                row[2].style = RT_BOLD;
            }
        }
    }
    rp_out_table(o, &tb);
}

/* Every metric of the given tests in one folded table. */
static void all_metrics_table(struct rp_out *o, const struct rp_data *d,
                              size_t g0, size_t g1, const unsigned char *pick,
                              const char *caption, int with_test,
                              size_t max_rows)
{
    struct rt_table t;
    size_t nc = with_test ? 8 : 7, k = 0;
    rt_init(&t, nc);
    t.sortable = 1;
    t.fold = 1;
    t.caption = caption;
    if (with_test)
        rt_header(&t, k++, "Test", RT_LEFT);
    rt_header(&t, k++, "Metric", RT_LEFT);
    rt_header(&t, k++, "Configuration", RT_LEFT);
    rt_header(&t, k++, "Value", RT_RIGHT);
    rt_header(&t, k++, "± SE", RT_RIGHT);
    rt_header(&t, k++, "n", RT_RIGHT);
    rt_header(&t, k++, "Exact", RT_RIGHT);
    rt_header(&t, k++, "Unit", RT_LEFT);
    size_t left = 0;
    for (size_t gi = g0; gi < g1; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (pick && !pick[g->test])
            continue;
        if (t.nrows >= max_rows) { /* counted, not read */
            left += g->n;
            continue;
        }
        rp_stream_test(d, g->test);
        const struct rp_metric *m = &d->metrics[g->metric];
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct rp_cell *c = &d->cells[i];
            if (t.nrows >= max_rows) {
                left++;
                continue;
            }
            struct rt_cell *row = rt_row(&t);
            k = 0;
            if (with_test)
                rt_set(&t, &row[k++], d->tests[g->test].name);
            rt_set(&t, &row[k++], m->name);
            row[k - 1].style = RT_MONO;
            rp_config_cell(&t, &row[k++], &d->configs[c->config]);
            rp_value_cells(&t, row, k, d, &m->u, c);
            k += 3;
            if (c->has_value) {
                char num[40];
                rt_setv(&t, &row[k], rp_num(c->mean, num, sizeof(num)),
                        c->mean);
                row[k].style = RT_MONO;
            }
            k++;
            rt_set(&t, &row[k], m->unit);
        }
    }
    if (left)
        t.note = rt_str(&t,
                        "%zu more values are not listed here; 'poolbench "
                        "export --csv' writes them all.",
                        left);
    rp_out_table(o, &t);
}

/* Rows of "All metrics of this test" on a test with more than
 * RP_ENDS_WHOLE configurations (the others: MAX_ALL_ROWS). */
#define MANY_ALL_ROWS 100

/* Lines of a latency CDF at most (MAX_LINES of latency.c). */
#define LAT_LINES 12

/* Inline rows of test t's tables: the table under each chart, or the
 * ends of the one table of a test with reduced charts (chart_many.c,
 * rp_out_table_ends), and its "All metrics" table. */
static size_t inline_rows(size_t rows, size_t many, size_t cells)
{
    if (many <= RP_ENDS_WHOLE)
        return (many ? many : rows) +
               (cells < MAX_ALL_ROWS ? cells : MAX_ALL_ROWS);
    return 2 * RP_ENDS_ROWS + (cells < MANY_ALL_ROWS ? cells : MANY_ALL_ROWS);
}

/* Latency charts of each test in chart units (a chart of ~15 KB): the
 * CDF, ladder and histogram of each direction weigh 3 plus one per line
 * drawn (a CDF of 12 configurations and its histogram are ~200 KB). */
static void lat_weights(const struct rp_data *d, const struct rp_lat *l,
                        size_t *w)
{
    for (size_t i = 0; l && i < l->n;) {
        size_t j = i, lines = 0;
        while (j < l->n && l->v[j].test == l->v[i].test &&
               !strcmp(l->v[j].kind, l->v[i].kind)) {
            lines += l->v[j].n > 0;
            j++;
        }
        const char *k = l->v[i].kind;
        size_t len = strlen(k);
        if (lines && len > 5 && !strcmp(k + len - 5, "_clat") &&
            l->v[i].test < d->ntests)
            w[l->v[i].test] += 3 + (lines < LAT_LINES ? lines : LAT_LINES);
        i = j;
    }
}

/* Which tests get a section of their own, and on which page. */
void rp_plan_tests(const struct rp_data *d, const struct rp_lat *lat,
                   struct test_plan *pl)
{
    memset(pl, 0, sizeof(*pl));
    pl->page = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *nch = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    /* a test weighs one chart more per 100 rows of its tables (a chart is
     * ~15 KB, a row ~330 B), so that its page stays a few MB; a reduced
     * chart of many configurations (~40 KB) weighs 3 charts, the latency
     * charts their share (lat_weights) */
    size_t *rows = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *many = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *cells = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *extra = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t weight = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        cells[g->test] += g->n;
        if (rp_group_charted(d, g)) {
            size_t t = g->test;
            if (!nch[t]++)
                pl->nsections++;
            pl->ncharts++;
            rows[t] += g->n;
            if (g->n > RP_MANY_LIMIT) {
                extra[t] += 2;
                if (g->n > many[t])
                    many[t] = g->n;
            }
        }
    }
    lat_weights(d, lat, extra);
    for (size_t t = 0; t < d->ntests; t++) {
        if (nch[t])
            nch[t] += extra[t] + inline_rows(rows[t], many[t], cells[t]) / 100;
        weight += nch[t];
    }
    free(rows);
    free(many);
    free(cells);
    free(extra);
    pl->weight = weight;
    if (pl->ncharts > PAGED_CHARTS || weight > PAGED_CHARTS) {
        size_t cap = pl->nsections + 1;
        pl->first = pb_xcalloc(cap, sizeof(size_t));
        pl->ntests = pb_xcalloc(cap, sizeof(size_t));
        pl->firstt = pb_xcalloc(cap, sizeof(size_t));
        pl->lastt = pb_xcalloc(cap, sizeof(size_t));
        size_t on_page = 0, ord = 0;
        /* groups are in test order: visit each test once */
        for (size_t gi = 0; gi < d->ngroups; gi++) {
            size_t t = d->groups[gi].test;
            if (!nch[t] || (gi && d->groups[gi - 1].test == t))
                continue;
            if (!pl->npages || on_page + nch[t] > PAGE_CHARTS) {
                pl->first[pl->npages] = ord;
                pl->firstt[pl->npages] = t;
                pl->npages++;
                on_page = 0;
            }
            on_page += nch[t];
            pl->page[t] = pl->npages;
            pl->ntests[pl->npages - 1]++;
            pl->lastt[pl->npages - 1] = t;
            ord++;
        }
    }
    free(nch);
}

void rp_plan_release(struct test_plan *pl)
{
    free(pl->page);
    free(pl->first);
    free(pl->ntests);
    free(pl->firstt);
    free(pl->lastt);
    memset(pl, 0, sizeof(*pl));
}

/* The index's part of a paged "Results by test": why, and the pages. */
static void tests_index(struct rp_out *o, const struct rp_data *d,
                        const struct test_plan *pl)
{
    struct pb_buf *h = &o->html;
    pb_buf_printf(h,
                  "<p class=\"note\">%zu tests have charts of their own "
                  "(%zu charts%s): too many for one page, which a browser "
                  "takes "
                  "minutes to open. Their sections (charts, drawn inline, and "
                  "tables, as a smaller report shows them here) are on the "
                  "%zu pages below, at most %d charts each. Everything else "
                  "is on this page.</p>\n<ol class=\"pages\">\n",
                  pl->nsections, pl->ncharts,
                  pl->weight > pl->ncharts
                      ? "; a test counts one more per 100 rows of its "
                        "tables"
                      : "",
                  pl->npages, PAGE_CHARTS);
    for (size_t p = 0; p < pl->npages; p++) {
        pb_buf_printf(h,
                      "<li><a href=\"tests-%03zu.html\">tests %zu–%zu</a> "
                      "<span class=\"m\">",
                      p + 1, pl->first[p] + 1, pl->first[p] + pl->ntests[p]);
        rp_esc(h, d->tests[pl->firstt[p]].name);
        if (pl->ntests[p] > 1) {
            pb_buf_puts(h, " … ");
            rp_esc(h, d->tests[pl->lastt[p]].name);
        }
        pb_buf_puts(h, "</span></li>\n");
    }
    pb_buf_puts(h, "</ol>\n");
}

void rp_section_tests(struct rp_out *o, const struct rp_data *d,
                      const struct test_plan *pl)
{
    size_t maxn = 1;
    for (size_t gi = 0; gi < d->ngroups; gi++)
        if (d->groups[gi].n > maxn)
            maxn = d->groups[gi].n;
    size_t *order = pb_xcalloc(maxn, sizeof(size_t));
    unsigned char *swept = pb_xcalloc(d->ntests + 1, 1);
    size_t nswept = 0, cur_page = 0;
    int opened = 0;
    for (size_t i = 0; i < d->ngroups;) {
        size_t j = i;
        int charted = 0, other = 0;
        while (j < d->ngroups && d->groups[j].test == d->groups[i].test) {
            const struct rp_group *g = &d->groups[j];
            int special = rp_metric_in_special(d->metrics[g->metric].name);
            if (rp_group_charted(d, g))
                charted = 1;
            else if (!special)
                other = 1;
            j++;
        }
        const struct rp_test *t = &d->tests[d->groups[i].test];
        if (t->single && !opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            if (pl->npages)
                tests_index(o, d, pl);
            tests_toc(o, d, pl, 0, pl->npages > 0);
            opened = 1;
        }
        if (!charted) {
            /* drawn only in sweeps, or only in the special tables */
            if (other) {
                swept[d->groups[i].test] = 1;
                nswept++;
            }
            i = j;
            continue;
        }
        if (!opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            if (pl->npages)
                tests_index(o, d, pl);
            tests_toc(o, d, pl, 0, pl->npages > 0);
            opened = 1;
        }
        size_t page = pl->page[d->groups[i].test];
        if (page != cur_page) {
            if (cur_page)
                rp_test_page_end(o, pl, cur_page);
            rp_test_page_begin(o, d, pl, page);
            if (page)
                tests_toc(o, d, pl, page, 0);
            cur_page = page;
        }
        rp_stream_test(d, d->groups[i].test);
        rp_out_raw(o, "<div class=\"tst\">\n");
        char id[32];
        snprintf(id, sizeof(id), "t-%zu", t->rank + 1);
        rp_out_heading(o, 3, id, t->name);
        char *p = rp_params_text(t->params, t->nparams);
        char *line = pb_xasprintf("%s%s%s", t->tool[0] ? t->tool : "",
                                  t->tool[0] && *p ? " · " : "", p);
        if (*line)
            rp_out_para(o, "params", line);
        free(line);
        free(p);
        size_t *many = pb_xcalloc(j - i, sizeof(*many)), nmany = 0;
        size_t most = 0; /* configurations of its largest reduced chart */
        for (size_t k = i; k < j; k++)
            if (rp_group_charted(d, &d->groups[k])) {
                group_chart(o, d, &d->groups[k], order);
                if (d->groups[k].n > RP_MANY_LIMIT)
                    many[nmany++] = k;
                if (d->groups[k].n > most)
                    most = d->groups[k].n;
            }
        rp_many_table(o, d, many, nmany, order); /* their tables */
        free(many);
        rp_lat_section(o, d, o->lat, d->groups[i].test);
        if (other) {
            char cap[64];
            snprintf(cap, sizeof(cap), "All metrics of this test");
            all_metrics_table(o, d, i, j, NULL, cap, 0,
                              most > RP_ENDS_WHOLE ? MANY_ALL_ROWS
                                                   : MAX_ALL_ROWS);
        }
        rp_out_raw(o, "</div>\n");
        i = j;
    }
    if (cur_page)
        rp_test_page_end(o, pl, cur_page);
    single_table(o, d);
    if (nswept) {
        if (!opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            opened = 1;
        }
        rp_out_heading(o, 3, "t-other", "Other values");
        char buf[240];
        snprintf(buf, sizeof(buf),
                 "%zu test%s no chart of %s own (one configuration, drawn "
                 "only in the sweeps above, or the state of a pool); every "
                 "value is listed here.",
                 nswept, nswept == 1 ? " has" : "s have",
                 nswept == 1 ? "its" : "their");
        rp_out_para(o, "note", buf);
        all_metrics_table(o, d, 0, d->ngroups, swept,
                          "All values of these tests", 1, MAX_ALL_ROWS);
    }
    if (opened)
        rp_out_raw(o, "</section>\n");
    free(order);
    free(swept);
}
