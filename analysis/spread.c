/* The repeats behind the report's cells and their outliers (modified
 * z-score by the MAD, docs/statistics.md): each cell's nrepeats and
 * outliers, from the stored samples read in cell order (reads.c);
 * render/spread.c writes the CI and the outlier marks. */
#include "analysis/data.h"
#include "analysis/stream_int.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUTLIER_Z 3.5
/* With 3 or 4 repeats the MAD is one gap between two of them: a repeat
 * 5x farther than the nearest pair would count, which normal noise does
 * often. From 5 on the rule is the one the literature uses. */
#define MIN_OUTLIER_N 5

/* ==== outliers ==== */

int rp_outliers_of(const double *v, size_t n, unsigned char *out)
{
    memset(out, 0, n);
    if (n < MIN_OUTLIER_N)
        return 0;
    double med = pb_stats_median(v, n), mad = pb_stats_mad(v, n);
    if (!(mad > 0) || !isfinite(mad))
        return 0;
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (0.6745 * fabs(v[i] - med) / mad > OUTLIER_Z) {
            out[i] = 1;
            k++;
        }
    return k;
}

/* ==== loading ==== */

struct gkey {
    size_t key; /* test * nmetrics + metric */
    size_t group;
};

struct oload {
    struct rp_data *d;
    const struct gkey *gk;
    size_t ngk;
    size_t *metric_of; /* metric id -> index + 1 */
    size_t capmetric;
    long long result; /* the result whose samples are in v */
    struct rp_cell *cell; /* its cell; NULL = not shown */
    double *v;
    size_t nv, capv;
};

static int cmp_gkey(const void *a, const void *b)
{
    const struct gkey *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}


static struct rp_cell *cell_of(struct oload *o, const struct pb_db_sample *s)
{
    struct rp_data *d = o->d;
    size_t t, c, m = SIZE_MAX;
    RP_FIND_ID(d->tests, d->ntests, s->test_id, t);
    RP_FIND_ID(d->configs, d->nconfigs, s->config_id, c);
    if (s->metric_id >= 0 && (size_t)s->metric_id < o->capmetric &&
        o->metric_of[s->metric_id])
        m = o->metric_of[s->metric_id] - 1;
    if (t == SIZE_MAX || c == SIZE_MAX || m == SIZE_MAX)
        return NULL;
    struct gkey want = {rp_ignore_canon(d, t) * d->nmetrics + m, 0};
    const struct gkey *g =
        bsearch(&want, o->gk, o->ngk, sizeof(*o->gk), cmp_gkey);
    if (!g)
        return NULL;
    /* a group's cells are in config rank order, one per config */
    const struct rp_group *gr = &d->groups[g->group];
    if (gr->first == SIZE_MAX) /* on disk (stream.c) */
        return rp_stream_side(d, g->group, c);
    size_t want_rank = d->configs[c].rank, lo = gr->first,
           hi = gr->first + gr->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->configs[d->cells[mid].config].rank < want_rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < gr->first + gr->n && d->cells[lo].config == c ? &d->cells[lo]
                                                              : NULL;
}

/* The samples of one result are complete: count its outliers. */
static void flush(struct oload *o)
{
    if (o->cell && o->nv) {
        unsigned char *mark = pb_xcalloc(o->nv, 1);
        struct rp_cell *c = o->cell;
        c->nrepeats += (long)o->nv;
        int k = rp_outliers_of(o->v, o->nv, mark);
        c->outliers += k;
        free(mark);
    }
    o->nv = 0;
}

static int on_sample(void *ctx, const struct pb_db_sample *s)
{
    struct oload *o = ctx;
    if (s->result_id != o->result) {
        flush(o);
        o->result = s->result_id;
        o->cell = cell_of(o, s);
    }
    if (!o->cell)
        return 0;
    PB_GROW(o->v, o->capv, o->nv + 1);
    o->v[o->nv++] = s->value;
    return 0;
}

int rp_outliers_load(struct pb_db *db, struct rp_data *d, struct pb_err *err)
{
    if (!d->ngroups)
        return PB_OK;
    struct oload o;
    memset(&o, 0, sizeof(o));
    o.d = d;
    o.result = -1;
    o.cell = NULL;
    struct gkey *gk = pb_xcalloc(d->ngroups, sizeof(*gk));
    for (size_t i = 0; i < d->ngroups; i++) {
        gk[i].key = d->groups[i].test * d->nmetrics + d->groups[i].metric;
        gk[i].group = i;
    }
    qsort(gk, d->ngroups, sizeof(*gk), cmp_gkey);
    o.gk = gk;
    o.ngk = d->ngroups;
    for (size_t m = 0; m < d->nmetrics; m++) {
        long long id = d->metrics[m].id;
        if (id < 0 || id >= (long long)1 << 30)
            continue;
        if ((size_t)id >= o.capmetric) {
            size_t old = o.capmetric;
            PB_GROW(o.metric_of, o.capmetric, (size_t)id + 1);
            memset(o.metric_of + old, 0,
                   (o.capmetric - old) * sizeof(*o.metric_of));
        }
        o.metric_of[id] = m + 1;
    }
    int rc = pb_an_each_sample(db, on_sample, &o, err);
    if (!rc)
        flush(&o);
    free(gk);
    free(o.metric_of);
    free(o.v);
    return rc;
}
