/* The latency distributions of a test (fio json+ bins, schema v5): for
 * each direction with completion latency bins, a CDF on a log latency
 * axis, a percentile ladder and a histogram, one line (or bar) per
 * configuration, each with its numbers in a table below. The histograms
 * of one test, configuration and latency (repeats, several sources) are
 * summed before anything is computed.
 *
 * The distributions are read and summed by analysis/latency.c. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== the section of a test ==== */

/* fio's rule (ingest/fio/fio_bins.c): the first bin whose cumulative count
 * reaches p / 100 of the total. */
static double pct_of(const struct rp_dist *t, double p)
{
    long double need = (long double)p / 100.0 * (long double)t->total;
    uint64_t sum = 0;
    for (size_t i = 0; i < t->n; i++) {
        sum += t->cnt[i];
        if ((long double)sum >= need)
            return (double)t->val[i];
    }
    return t->n ? (double)t->val[t->n - 1] : NAN;
}

static const struct {
    double p;
    const char *name;
} ladder[] = {
    {50.0, "p50"},   {90.0, "p90"},     {95.0, "p95"},
    {99.0, "p99"},   {99.9, "p99.9"},   {99.99, "p99.99"},
    {99.999, "p99.999"},
};
#define NLADDER (sizeof(ladder) / sizeof(ladder[0]))
/* the ladder chart stops at p99.99 (p99.999 is in its table) */
#define NBARS 6
/* configurations drawn in one chart; the tables have them all */
#define MAX_LINES 12

/* What a chart says when it draws fewer configurations than it has. */
static const char *more_note(struct rt_table *t, const char *sub, size_t ndraw,
                             size_t n)
{
    if (ndraw >= n)
        return sub;
    return rt_str(t, "%s · the first %zu of %zu configurations (all in the "
                     "table%s)",
                  sub, ndraw, n, n > RP_ENDS_WHOLE ? "'s pages" : "");
}

static void cdf_chart(struct rp_out *o, const struct rp_data *d,
                      const struct rp_lat *l, struct rp_dist **v, size_t n,
                      size_t ndraw, const char *tname, const char *dir,
                      const char *stem)
{
    struct rc_latline *lines = pb_xcalloc(n + 1, sizeof(*lines));
    for (size_t i = 0; i < n; i++) {
        const struct rp_config *cf = &d->configs[v[i]->config];
        lines[i] = (struct rc_latline){cf->label, cf->color, v[i]->n,
                                       v[i]->val, v[i]->cnt, v[i]->total};
    }
    struct rt_table t;
    rt_init(&t, 3 + NLADDER + 1);
    t.sortable = 1;
    struct rc_latspec s = {0};
    s.title = rt_str(&t, "%s: %s completion latency, distribution (CDF)",
                     tname, dir);
    s.subtitle = l->nines
                     ? "share of I/Os at most this slow, in nines (99.9% = "
                       "1 in 1,000 slower) · left and up is better"
                     : "share of I/Os at most this slow · left and up is "
                       "better";
    s.subtitle = more_note(&t, s.subtitle, ndraw, n);
    s.lines = lines;
    s.n = ndraw;
    s.nines = l->nines;
    struct rp_unit u = {RP_U_NS, NULL};
    char buf[96];
    rt_header(&t, 0, "Configuration", RT_LEFT);
    rt_header(&t, 1, "I/Os", RT_RIGHT);
    rt_header(&t, 2, "fastest bin", RT_RIGHT);
    for (size_t k = 0; k < NLADDER; k++)
        rt_header(&t, 3 + k, ladder[k].name, RT_RIGHT);
    rt_header(&t, 3 + NLADDER, "slowest bin", RT_RIGHT);
    for (size_t i = 0; i < n; i++) {
        const struct rp_dist *x = v[i];
        struct rt_cell *row = rt_row(&t);
        rp_config_cell(&t, &row[0], &d->configs[x->config]);
        rt_setv(&t, &row[1], rt_str(&t, "%llu", (unsigned long long)x->total),
                (double)x->total);
        rt_setv(&t, &row[2], rp_fmt(&u, (double)x->val[0], buf, sizeof(buf)),
                (double)x->val[0]);
        for (size_t k = 0; k < NLADDER; k++) {
            double p = pct_of(x, ladder[k].p);
            rt_setv(&t, &row[3 + k], rp_fmt(&u, p, buf, sizeof(buf)), p);
        }
        double hi = (double)x->val[x->n - 1];
        rt_setv(&t, &row[3 + NLADDER], rp_fmt(&u, hi, buf, sizeof(buf)), hi);
    }
    rp_out_chart_data(o, rp_csv_table(&t));
    rp_out_chart(o, rc_lat_cdf(rp_out_fonts(o), &s),
                 rt_str(&t, "%s-cdf", stem));
    t.caption = rt_str(&t, "Data: %s", s.title);
    t.note = "Percentiles as fio computes them: the value of the first bin "
             "whose running count reaches that share of the I/Os (bins of "
             "repeats summed first).";
    /* a row per configuration: past RP_ENDS_WHOLE, its ends here and all
     * rows on pages of their own */
    rp_out_table_ends(o, &t, rt_str(&t, "%s-cdf", stem), s.title);
    free(lines);
}

static void ladder_chart(struct rp_out *o, const struct rp_data *d,
                         struct rp_dist **v, size_t n, size_t ndraw,
                         const char *tname, const char *dir, const char *stem)
{
    struct rt_table t;
    rt_init(&t, 1 + NBARS);
    t.sortable = 1;
    const char **xv = pb_arena_alloc(&t.arena, NBARS * sizeof(*xv));
    struct rc_latline *lines =
        pb_arena_alloc(&t.arena, (n + 1) * sizeof(*lines));
    double *val = pb_arena_alloc(&t.arena, (n * NBARS + 1) * sizeof(*val));
    for (size_t k = 0; k < NBARS; k++)
        xv[k] = ladder[k].name;
    for (size_t i = 0; i < n; i++) {
        const struct rp_config *cf = &d->configs[v[i]->config];
        lines[i] = (struct rc_latline){cf->label, cf->color, 0, NULL, NULL,
                                       v[i]->total};
        for (size_t k = 0; k < NBARS; k++)
            val[i * NBARS + k] = pct_of(v[i], ladder[k].p);
    }
    struct rc_ladspec g = {0};
    g.lat.title = rt_str(&t, "%s: %s completion latency, percentile ladder",
                         tname, dir);
    g.lat.subtitle = more_note(&t, "p50 to p99.99 per configuration on a "
                                   "log latency axis · left is better",
                               ndraw, n);
    g.lat.lines = lines;
    g.lat.n = ndraw;
    g.pnames = xv;
    g.np = NBARS;
    g.v = val;
    struct rp_unit unit = {RP_U_NS, NULL};
    char buf[96];
    rt_header(&t, 0, "Configuration", RT_LEFT);
    for (size_t k = 0; k < NBARS; k++)
        rt_header(&t, 1 + k, ladder[k].name, RT_RIGHT);
    for (size_t i = 0; i < n; i++) {
        struct rt_cell *row = rt_row(&t);
        rp_config_cell(&t, &row[0], &d->configs[v[i]->config]);
        for (size_t k = 0; k < NBARS; k++) {
            double p = val[i * NBARS + k];
            rt_setv(&t, &row[1 + k], rp_fmt(&unit, p, buf, sizeof(buf)), p);
        }
    }
    rp_out_chart_data(o, rp_csv_table(&t));
    rp_out_chart(o, rc_lat_ladder(rp_out_fonts(o), &g),
                 rt_str(&t, "%s-ladder", stem));
    t.caption = rt_str(&t, "Data: %s", g.lat.title);
    rp_out_table_ends(o, &t, rt_str(&t, "%s-ladder", stem), g.lat.title);
}

static void hist_chart(struct rp_out *o, const struct rp_data *d,
                       struct rp_dist **v, size_t n, size_t all,
                       const char *tname, const char *dir, const char *stem)
{
    struct rc_latline *lines = pb_xcalloc(n + 1, sizeof(*lines));
    for (size_t i = 0; i < n; i++) {
        const struct rp_config *cf = &d->configs[v[i]->config];
        lines[i] = (struct rc_latline){cf->label, cf->color, v[i]->n,
                                       v[i]->val, v[i]->cnt, v[i]->total};
    }
    struct rt_table t;
    rt_init(&t, 1 + n);
    t.sortable = 1;
    t.fold = 1;
    struct rc_latspec s = {0};
    s.title = rt_str(&t, "%s: %s completion latency, histogram", tname, dir);
    s.subtitle = "share of I/Os in each latency band (10 bands a decade)";
    if (n < all)
        s.subtitle = rt_str(&t, "%s · the first %zu of %zu configurations",
                            s.subtitle, n, all);
    s.lines = lines;
    s.n = n;
    int dlo;
    size_t nb = rc_lat_hist_bins(&s, &dlo);
    double *pct = pb_xcalloc(nb * (n + 1) + 1, sizeof(double));
    for (size_t i = 0; i < n; i++)
        rc_lat_hist_fill(&lines[i], dlo, nb, pct + i * nb);
    struct rp_unit u = {RP_U_NS, NULL};
    char a[48], b[48];
    rt_header(&t, 0, "latency band", RT_LEFT);
    for (size_t i = 0; i < n; i++)
        rt_header(&t, 1 + i, d->configs[v[i]->config].label, RT_RIGHT);
    /* the chart's data: the band's edges as numbers, then each
     * configuration's percent of I/Os */
    const char **head = pb_xcalloc(n + 3, sizeof(*head));
    head[0] = "band_from_ns";
    head[1] = "band_to_ns";
    for (size_t i = 0; i < n; i++)
        head[2 + i] = d->configs[v[i]->config].label;
    struct rp_csv *cv = rp_csv_new(n + 2, head);
    free(head);
    for (size_t j = 0; j < nb; j++) {
        int any = 0;
        for (size_t i = 0; i < n; i++)
            any |= pct[i * nb + j] > 0;
        if (!any)
            continue;
        struct rt_cell *row = rt_row(&t);
        double lo = rc_lat_hist_edge(dlo, j), hi = rc_lat_hist_edge(dlo, j + 1);
        rt_setv(&t, &row[0],
                rt_str(&t, "%s to %s", rp_fmt(&u, lo, a, sizeof(a)),
                       rp_fmt(&u, hi, b, sizeof(b))),
                lo);
        rp_csv_num(cv, lo);
        rp_csv_num(cv, hi);
        for (size_t i = 0; i < n; i++) {
            double p = pct[i * nb + j];
            rt_setv(&t, &row[1 + i], rt_str(&t, "%.3f%%", p), p);
            rp_csv_num(cv, p);
        }
    }
    free(pct);
    rp_out_chart_data(o, cv);
    rp_out_chart(o, rc_lat_hist(rp_out_fonts(o), &s),
                 rt_str(&t, "%s-hist", stem));
    t.caption = rt_str(&t, "Data: %s (bands without I/Os left out)", s.title);
    rp_out_table(o, &t);
    free(lines);
}

/* Index of the first distribution of test (by its rank), or l->n. */
static size_t first_of(const struct rp_data *d, const struct rp_lat *l,
                       size_t test)
{
    size_t rank = d->tests[test].rank, lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->tests[l->v[mid].test].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void rp_lat_section(struct rp_out *o, const struct rp_data *d,
                    struct rp_lat *l, size_t test)
{
    if (!l)
        return;
    static const char *const dirs[] = {"read", "write", "trim", "mixed"};
    size_t from = first_of(d, l, test), to = from;
    while (to < l->n && l->v[to].test == test)
        to++;
    if (from == to)
        return;
    struct rp_dist **v = pb_xcalloc(to - from + 1, sizeof(*v));
    for (size_t di = 0; di < 4; di++) {
        char kind[32];
        snprintf(kind, sizeof(kind), "%s_clat", dirs[di]);
        size_t n = 0;
        for (size_t i = from; i < to; i++)
            if (!strcmp(l->v[i].kind, kind) && l->v[i].n) {
                v[n++] = &l->v[i];
                l->v[i].drawn = 1;
            }
        if (!n)
            continue;
        const struct rp_test *t = &d->tests[test];
        char stem[64];
        snprintf(stem, sizeof(stem), "lat-%zu-%s", t->rank + 1, dirs[di]);
        char head[300];
        snprintf(head, sizeof(head), "%s latency distribution", dirs[di]);
        rp_out_heading(o, 4, NULL, head);
        size_t ndraw = n < MAX_LINES ? n : MAX_LINES;
        cdf_chart(o, d, l, v, n, ndraw, t->name, dirs[di], stem);
        ladder_chart(o, d, v, n, ndraw, t->name, dirs[di], stem);
        hist_chart(o, d, v, ndraw, n, t->name, dirs[di], stem);
    }
    free(v);
}

void rp_lat_section_rest(struct rp_out *o, const struct rp_data *d,
                         struct rp_lat *l)
{
    if (!l)
        return;
    int opened = 0;
    for (size_t i = 0; i < l->n;) {
        size_t test = l->v[i].test, j = i;
        int drawn = 0;
        while (j < l->n && l->v[j].test == test)
            drawn |= l->v[j++].drawn;
        if (!drawn) {
            if (!opened) {
                rp_out_raw(o, "<section id=\"latency\">\n");
                rp_out_heading(o, 2, NULL, "Latency distributions");
                rp_out_para(o, "lead",
                            "Completion latency of the fio tests that kept "
                            "their histograms (json+ output) and have no "
                            "section of their own above: how the I/Os "
                            "spread, and how slow the slowest ones were.");
                opened = 1;
            }
            rp_out_heading(o, 3, NULL, d->tests[test].name);
            rp_lat_section(o, d, l, test);
        }
        i = j;
    }
    if (opened)
        rp_out_raw(o, "</section>\n");
}
