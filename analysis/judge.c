/* One verdict on two cells, for compare and best alike: their summaries
 * and, when each is one stored result holding its repeats, the repeats
 * (table sample), judged by pb_stats_judge (common/stats.c). */
#include "analysis/data.h"

#include <stdlib.h>
#include <string.h>

struct pb_an_samp rp_cell_key(const struct rp_data *d, const struct rp_cell *c)
{
    return (struct pb_an_samp){c->source, d->tests[c->test].id,
                            d->metrics[c->metric].id,
                            d->configs[c->config].id, 0, 0};
}

double *rp_cell_repeats(const struct pb_an_samps *ss, const struct rp_data *d,
                        const struct rp_cell *c, size_t *n)
{
    *n = 0;
    if (!ss || !ss->n || c->nresults != 1)
        return NULL;
    struct pb_an_samp key = rp_cell_key(d, c);
    size_t lo = 0, hi = ss->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pb_an_samp_cmp(&ss->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < ss->n && !pb_an_samp_cmp(&ss->v[end], &key)) {
        if (ss->v[end].result != ss->v[lo].result)
            return NULL; /* several results: not this cell's alone */
        end++;
    }
    if (end - lo < 2 || (c->n > 0 && (size_t)c->n != end - lo))
        return NULL;
    double *v = pb_xmalloc((end - lo) * sizeof(*v));
    for (size_t i = lo; i < end; i++)
        v[i - lo] = ss->v[i].value;
    *n = end - lo;
    return v;
}

/* A side of the verdict: the cell's summary, its repeats when stored,
 * and the standard error of those repeats when the summary has none. */
static void side_of(const struct pb_an_samps *ss, const struct rp_data *d,
                    const struct rp_cell *c, struct pb_stats_side *s,
                    double **own)
{
    memset(s, 0, sizeof(*s));
    s->mean = c->mean;
    s->se = c->se;
    s->n = c->n;
    *own = rp_cell_repeats(ss, d, c, &s->nv);
    s->v = *own;
    if (s->se < 0 && s->nv >= 2) {
        double mean;
        pb_stats_mean_se(s->v, s->nv, &mean, &s->se);
    }
}

void rp_judge_cells(double alpha, const struct rp_data *db,
                    const struct rp_cell *cb, const struct pb_an_samps *sb,
                    const struct rp_data *dc, const struct rp_cell *cc,
                    const struct pb_an_samps *sc, struct pb_stats_judgement *j,
                    double *se_b, double *se_c)
{
    struct pb_stats_side b, c;
    double *vb, *vc;
    side_of(sb, db, cb, &b, &vb);
    side_of(sc, dc, cc, &c, &vc);
    pb_stats_judge(&b, &c, alpha, j);
    if (se_b)
        *se_b = b.se;
    if (se_c)
        *se_c = c.se;
    free(vb);
    free(vc);
}
