/* Statistics for comparing benchmark results: Student's t distribution,
 * Welch's t-test from summaries (mean, standard error, n), the Mann-Whitney
 * U test from samples, and robust summaries (median, MAD, geometric mean).
 * Pure functions of their arguments: no I/O, no allocation kept, no state.
 *
 * Use:
 *   1. with summaries only: pb_stats_welch(base, cand, alpha, &w);
 *   2. with the repeats themselves: pb_stats_mann_whitney(x, nx, y, ny, &u);
 *   3. over many pairs: pb_stats_geomean() of the cand/base ratios.
 *
 * Methods and their sources are documented in docs/statistics.md,
 * "Compare: pairing and statistics".
 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stddef.h>

/* Regularized incomplete beta I_x(a, b) for a, b > 0 and 0 <= x <= 1
 * (continued fraction, modified Lentz); NaN outside that domain. */
double pb_stats_betainc(double a, double b, double x);

/* P(Z <= z) of the standard normal distribution. */
double pb_stats_normal_cdf(double z);

/* P(T <= t) of Student's t with df > 0 degrees of freedom (df may be
 * fractional, as Welch's is; df = INFINITY gives the normal). NaN when
 * df <= 0 or an argument is NaN. */
double pb_stats_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1, for df > 0 (Newton on
 * pb_stats_t_cdf from the Cornish-Fisher start, safeguarded by
 * bisection; 1e-14 relative); NaN outside the domain. */
double pb_stats_t_quantile(double p, double df);

/* One side of a comparison as a summary. se is the standard error of the
 * mean (stddev / sqrt(n)); n the number of repeats behind mean. */
struct pb_stats_summary {
    double mean, se;
    double n;
};

/* Welch's t-test of cand - base and the confidence intervals of the
 * difference and of the ratio cand/base. */
struct pb_stats_welch {
    double diff;           /* cand.mean - base.mean */
    double se;             /* sqrt(base.se^2 + cand.se^2) */
    double df;             /* Welch-Satterthwaite; INFINITY when se == 0 */
    double t;              /* diff / se; +-INFINITY or 0 when se == 0 */
    double p;              /* two-sided */
    double diff_lo, diff_hi; /* CI of diff at 1 - alpha */
    double ratio;          /* cand.mean / base.mean; NaN when base.mean 0 */
    double ratio_lo, ratio_hi; /* Fieller CI of the ratio; NaN when
                                  unbounded (base mean not distinct from 0) */
};

/* Welch's t-test at level alpha (0 < alpha < 1; 0.05 gives 95% CIs).
 * Needs n >= 2 on both sides (a single run has no spread): returns
 * -1 and leaves p = 1, CIs NaN otherwise; returns 0 when computed.
 * Both standard errors 0: p = 1 for equal means, else 0 (no noise at all). */
int pb_stats_welch(const struct pb_stats_summary *base,
                   const struct pb_stats_summary *cand, double alpha,
                   struct pb_stats_welch *out /* OUT */);

/* Mann-Whitney U test of samples x (base) and y (cand), two-sided.
 * u is U of x (the number of pairs with x > y, ties counting 1/2). */
struct pb_stats_mwu {
    double u;
    double p;
    int exact; /* 1: exact distribution; 0: normal approximation with tie
                  and continuity correction */
};

/* Returns 0 when computed, -1 when a side is empty (p = 1). Exact when
 * there are no ties and nx + ny <= PB_STATS_MWU_EXACT_MAX (as benchstat);
 * otherwise the normal approximation. NaN values are not allowed. */
#define PB_STATS_MWU_EXACT_MAX 100
int pb_stats_mann_whitney(const double *x, size_t nx, const double *y,
                          size_t ny, struct pb_stats_mwu *out /* OUT */);

/* Median of v[0..n) (v is not changed); NaN when n == 0. */
double pb_stats_median(const double *v, size_t n);

/* Median absolute deviation from the median, unscaled (multiply by
 * 1.4826 for a normal sigma); NaN when n == 0. */
double pb_stats_mad(const double *v, size_t n);

/* Mean and standard error (stddev with n - 1 / sqrt(n)) of v[0..n);
 * se = 0 when n < 2; mean NaN when n == 0. */
void pb_stats_mean_se(const double *v, size_t n, double *mean /* OUT */,
                      double *se /* OUT */);

/* Geometric mean of the positive values of v[0..n) (others skipped);
 * *used (may be NULL) gets their number; NaN when none. */
double pb_stats_geomean(const double *v, size_t n, size_t *used /* OUT */);

#endif
