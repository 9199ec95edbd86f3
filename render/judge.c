/* One verdict on two cells, for compare and best alike: their summaries
 * and, when each is one stored result holding its repeats, the repeats
 * (table sample), judged by pb_stats_judge (common/stats.c). */
#include "render/judge_int.h"

#include <stdlib.h>
#include <string.h>

static int on_sample(void *ctx, const struct pb_db_sample *s)
{
    struct rp_samps *ss = ctx;
    PB_GROW(ss->v, ss->cap, ss->n + 1);
    ss->v[ss->n++] = (struct rp_samp){s->source_id, s->test_id, s->metric_id,
                                      s->config_id, s->result_id, s->value};
    return 0;
}

struct filtered {
    struct rp_samps *ss;
    int (*want)(void *ctx, const struct pb_db_sample *s);
    void *ctx;
};

static int on_wanted(void *ctx, const struct pb_db_sample *s)
{
    struct filtered *f = ctx;
    return f->want(f->ctx, s) ? on_sample(f->ss, s) : 0;
}

int rp_samps_load(struct pb_db *db,
                  int (*want)(void *ctx, const struct pb_db_sample *s),
                  void *ctx, struct rp_samps *out, struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    if (!want)
        return pb_db_each_sample(db, on_sample, out, err);
    struct filtered f = {out, want, ctx};
    return pb_db_each_sample(db, on_wanted, &f, err);
}

void rp_samps_release(struct rp_samps *ss)
{
    free(ss->v);
    memset(ss, 0, sizeof(*ss));
}

int rp_samp_cmp(const void *pa, const void *pb)
{
    const struct rp_samp *a = pa, *b = pb;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->test != b->test)
        return a->test < b->test ? -1 : 1;
    if (a->metric != b->metric)
        return a->metric < b->metric ? -1 : 1;
    return (a->config > b->config) - (a->config < b->config);
}

struct rp_samp rp_cell_key(const struct rp_data *d, const struct rp_cell *c)
{
    return (struct rp_samp){c->source, d->tests[c->test].id,
                            d->metrics[c->metric].id,
                            d->configs[c->config].id, 0, 0};
}

double *rp_cell_repeats(const struct rp_samps *ss, const struct rp_data *d,
                        const struct rp_cell *c, size_t *n)
{
    *n = 0;
    if (!ss || !ss->n || c->nresults != 1)
        return NULL;
    struct rp_samp key = rp_cell_key(d, c);
    size_t lo = 0, hi = ss->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rp_samp_cmp(&ss->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < ss->n && !rp_samp_cmp(&ss->v[end], &key)) {
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
static void side_of(const struct rp_samps *ss, const struct rp_data *d,
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
                    const struct rp_cell *cb, const struct rp_samps *sb,
                    const struct rp_data *dc, const struct rp_cell *cc,
                    const struct rp_samps *sc, struct pb_stats_judgement *j,
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
