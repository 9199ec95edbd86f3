/* Folding repeats of one cell: running mean and sum of squared
 * differences (Welford), standard error and n of the folded values, and
 * the merge of two such sums (Chan et al.: merged tests, sweep panels).
 * Split out of data.c, which folds with them. */
#include "analysis/data.h"

#include <math.h>

void rp_acc_add(struct rp_acc *a, double v, int has_se, double se, long samples)
{
    a->k++;
    if (a->k == 1) {
        a->has_se1 = has_se && se >= 0 && isfinite(se);
        a->se1 = se;
        a->n1 = samples;
    }
    double d = v - a->mean;
    a->mean += d / (double)a->k;
    a->m2 += d * (v - a->mean);
}

void rp_acc_done(const struct rp_acc *a, struct rp_cell *c)
{
    c->has_value = a->k > 0;
    c->mean = a->mean;
    c->nresults = a->k;
    if (a->k == 1) {
        c->se = a->has_se1 ? a->se1 : -1;
        c->n = a->n1 > 0 ? a->n1 : 1;
    } else if (a->k > 1) {
        double var = a->m2 / (double)(a->k - 1);
        c->se = sqrt(var > 0 ? var : 0) / sqrt((double)a->k);
        c->n = a->k;
    } else {
        c->se = -1;
        c->n = 0;
    }
}

/* b += a (Chan et al.'s pairwise update of mean and M2). */
void rp_acc_merge(struct rp_acc *b, const struct rp_acc *a)
{
    if (!a->k)
        return;
    if (!b->k) {
        *b = *a;
        return;
    }
    double ka = (double)a->k, kb = (double)b->k, k = ka + kb;
    double delta = a->mean - b->mean;
    b->mean += delta * ka / k;
    b->m2 += a->m2 + delta * delta * ka * kb / k;
    b->k += a->k;
}
