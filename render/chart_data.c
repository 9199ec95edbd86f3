/* The CSV data of report.c's charts (bars of a test and metric, sweep
 * panels, the overall ranking): the rows of the table under each chart,
 * with exact numbers in canonical units instead of display text. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_csv.h"

#include <math.h>
#include <stdlib.h>

/* Columns every chart of cells shares after its own leading ones. */
#define CELL_HEAD                                                              \
    "config", "test", "metric", "unit", "direction", "value", "stderr", "n",   \
        "results"

/* label: the configuration column (NULL = the cell's configuration) */
static void cell_row(struct rp_csv *cv, const struct rp_data *d,
                     const struct rp_cell *c, const char *label)
{
    const struct rp_metric *m = &d->metrics[c->metric];
    rp_csv_str(cv, label ? label : d->configs[c->config].label);
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
        cell_row(cv, d, c, NULL);
        if (c->has_value)
            rp_csv_num(cv, pct_of_best(c->mean, bestv, dir));
        else
            rp_csv_empty(cv);
        const char *why = rp_cell_reason(d, c);
        rp_csv_str(cv, c->has_value ? NULL : why ? why : "no value");
    }
    return cv;
}

/* A sweep of every configuration has a column per other dimension
 * instead of one for the series. */
struct rp_csv *rp_csv_sweep(const struct rp_data *d, const struct rp_sweep *sw,
                            const struct rp_panel *p, const char *xname,
                            const char *sname, const size_t *bests,
                            const double *v)
{
    static const char *const tail[] = {CELL_HEAD, "pct_of_best"};
    size_t ntail = sizeof(tail) / sizeof(tail[0]);
    int all = sw->s.kind == RP_DIM_OTHERS;
    size_t nlead = all ? 1 + sw->s.nkeys : 2;
    const char **head = pb_xcalloc(nlead + ntail, sizeof(*head));
    if (all) {
        head[0] = xname;
        for (size_t i = 0; i < sw->s.nkeys; i++)
            head[1 + i] = sw->s.keys[i];
    } else {
        head[0] = sname[0] ? sname : "series";
        head[1] = xname;
    }
    for (size_t i = 0; i < ntail; i++)
        head[nlead + i] = tail[i];
    struct rp_csv *cv = rp_csv_new(nlead + ntail, head);
    free(head);
    for (size_t a = 0; a < p->nx * p->ns; a++) {
        /* every configuration: grouped by x, as the table */
        size_t si = all ? a % p->ns : a / p->nx;
        size_t xi = all ? a / p->ns : a % p->nx;
        size_t k = si * p->nx + xi;
        const struct rp_spot *sp;
        const struct rp_cell *c = rp_panel_cell(d, p, k, &sp);
        if (!c)
            continue;
        if (all) {
            const struct rp_config *cf = &d->configs[c->config];
            rp_csv_str(cv, p->xvals[xi]);
            for (size_t i = 0; i < sw->s.nkeys; i++) {
                /* as the table shows it, like x and the series */
                const char *pv =
                    rp_param(cf->params, cf->nparams, sw->s.keys[i]);
                char buf[64];
                rp_csv_str(cv, pv ? rp_param_text(sw->s.keys[i], pv, buf,
                                                  sizeof(buf))
                                  : NULL);
            }
        } else {
            rp_csv_str(cv, p->svals[si]);
            rp_csv_str(cv, p->xvals[xi]);
        }
        cell_row(cv, d, c, sp ? sp->labels : NULL);
        double bestv = bests[k] != SIZE_MAX ? v[bests[k]] : c->mean;
        rp_csv_num(cv, pct_of_best(c->mean, bestv, d->metrics[c->metric].dir));
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
