/* The CSV data of report.c's charts (bars of a test and metric, sweep
 * panels, the overall ranking): the rows of the table under each chart,
 * with exact numbers in canonical units instead of display text. */
#include "render/render_int.h"

#include <math.h>

/* Columns every chart of cells shares after its own leading ones. */
#define CELL_HEAD                                                              \
    "config", "test", "metric", "unit", "direction", "value", "stderr", "n",   \
        "results"

static void cell_row(struct rp_csv *cv, const struct rp_data *d,
                     const struct rp_cell *c)
{
    const struct rp_metric *m = &d->metrics[c->metric];
    rp_csv_str(cv, d->configs[c->config].label);
    rp_csv_str(cv, d->tests[c->test].name);
    rp_csv_str(cv, m->name);
    rp_csv_str(cv, m->unit);
    rp_csv_str(cv, m->dir < 0 ? "lower" : "higher");
    rp_csv_cell(cv, c);
}

/* % of the best, direction-aware (best = 100), as the tables have it. */
static double pct_of_best(double v, double best, int dir)
{
    if (dir < 0)
        return v > 0 ? best / v * 100 : NAN;
    return best != 0 ? v / best * 100 : NAN;
}

struct rp_csv *rp_csv_bars(const struct rp_data *d, const struct rp_group *g,
                           const size_t *order)
{
    static const char *const head[] = {"rank", CELL_HEAD, "pct_of_best",
                                       "null_reason"};
    struct rp_csv *cv = rp_csv_new(sizeof(head) / sizeof(head[0]), head);
    int dir = d->metrics[g->metric].dir;
    double bestv = g->nvalued ? d->cells[order[0]].mean : NAN;
    for (size_t i = 0; i < g->n; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        rp_csv_int(cv, (long long)i + 1);
        cell_row(cv, d, c);
        if (c->has_value)
            rp_csv_num(cv, pct_of_best(c->mean, bestv, dir));
        else
            rp_csv_empty(cv);
        rp_csv_str(cv, c->has_value     ? NULL
                       : c->null_reason ? c->null_reason
                                        : "no value");
    }
    return cv;
}

struct rp_csv *rp_csv_sweep(const struct rp_data *d, const struct rp_panel *p,
                            const char *xname, const char *sname,
                            const size_t *bests, const double *v)
{
    const char *head[] = {sname[0] ? sname : "series", xname, CELL_HEAD,
                          "pct_of_best"};
    struct rp_csv *cv = rp_csv_new(sizeof(head) / sizeof(head[0]), head);
    for (size_t si = 0; si < p->ns; si++)
        for (size_t xi = 0; xi < p->nx; xi++) {
            size_t k = si * p->nx + xi, ci = p->grid[k];
            if (ci == SIZE_MAX)
                continue;
            const struct rp_cell *c = &d->cells[ci];
            rp_csv_str(cv, p->svals[si]);
            rp_csv_str(cv, p->xvals[xi]);
            cell_row(cv, d, c);
            double bestv = bests[k] != SIZE_MAX ? v[bests[k]] : c->mean;
            rp_csv_num(cv,
                       pct_of_best(c->mean, bestv, d->metrics[c->metric].dir));
        }
    return cv;
}

struct rp_csv *rp_csv_ranking(const struct rp_data *d,
                              const struct rp_ranking *r)
{
    static const char *const head[] = {"rank", "config", "score", "wins",
                                       "series"};
    struct rp_csv *cv = rp_csv_new(sizeof(head) / sizeof(head[0]), head);
    for (size_t i = 0; i < r->n; i++) {
        rp_csv_int(cv, (long long)i + 1);
        rp_csv_str(cv, d->configs[r->e[i].config].label);
        rp_csv_num(cv, r->e[i].score);
        rp_csv_int(cv, (long long)r->e[i].wins);
        rp_csv_int(cv, (long long)r->ngroups);
    }
    return cv;
}
