/* Statistics for comparing benchmark results: Student's t distribution,
 * Welch's t-test from summaries (mean, standard error, n) with Fieller's
 * interval of the ratio, the Mann-Whitney U test from samples with the
 * Hodges-Lehmann interval of the ratio that inverts it, one verdict that
 * picks between them (compare and best), and robust summaries (median,
 * MAD, geometric mean). Pure functions of their arguments: no I/O, no
 * allocation kept, no state.
 *
 * Use:
 *   1. to judge a change: pb_stats_judge(base, cand, alpha, &j) (the test,
 *      its p, its estimate of cand/base and that estimate's interval);
 *   2. the parts: pb_stats_welch(), pb_stats_mann_whitney(),
 *      pb_stats_mwu_ratio();
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

/* Can an exact two-sided Mann-Whitney test of sizes m, n reach alpha at
 * all? Its smallest p is 2 / C(m + n, m): 3 against 3 (0.1) never reaches
 * 0.05, 4 against 4 (0.029) does. */
int pb_stats_mwu_can_reach(size_t m, size_t n, double alpha);

/* The Mann-Whitney test of x (base) against y (cand) with its own
 * estimate and interval, on the ratio y/x: the Hodges-Lehmann estimate
 * (the median of the nx ny ratios y_j / x_i, on the log scale) and the
 * ratios r for which the same test of x r against y is not rejected at
 * alpha (p >= alpha), whose ends are two of those ratios (Bauer 1972).
 * The test is the one pb_stats_mann_whitney() makes (exact without
 * ties, else normal with tie and continuity correction), so p < alpha
 * exactly when 1 is outside [lo, hi] -- but for a base and a cand repeat
 * of the same value, where the tie makes p at 1 differ from its
 * neighbourhood (pb_stats_judge() then says "~"). */
struct pb_stats_mwu_ratio {
    struct pb_stats_mwu test; /* of x against y, as pb_stats_mann_whitney */
    double est;               /* Hodges-Lehmann estimate of y/x */
    double lo, hi;            /* hi INFINITY: not bounded above */
};

/* At most this many ratios (nx ny) are sorted for the interval. */
#define PB_STATS_MWU_RATIO_MAX 4000000

/* Returns 0 when computed; -1 (nothing set but p = 1) when a side is
 * empty, a value is not finite and > 0, nx ny > PB_STATS_MWU_RATIO_MAX,
 * or alpha is not in (0, 1). */
int pb_stats_mwu_ratio(const double *x, size_t nx, const double *y,
                       size_t ny, double alpha,
                       struct pb_stats_mwu_ratio *out /* OUT */);

/* ==== one verdict: which test, its estimate and its interval ==== */

/* One side of a change: the summary v_result holds and, when stored,
 * the repeats behind it. */
struct pb_stats_side {
    double mean;
    double se; /* standard error; < 0 unknown */
    long n;    /* repeats behind mean */
    const double *v; /* the repeats; NULL when not stored */
    size_t nv;
};

/* The verdict on cand against base and what it rests on. */
struct pb_stats_judgement {
    const char *method; /* "welch", "mann-whitney"; "none": not judged */
    const char *why;    /* not judged: "single run" (n < 2 on a side),
                           "no standard error"; else NULL */
    double p;           /* two-sided; 1 when not judged */
    double est;    /* the estimate of cand/base the interval is about: the
                      ratio of the means (Welch; and when not judged), the
                      Hodges-Lehmann median ratio (Mann-Whitney); NaN when
                      the base mean is 0 */
    double lo, hi; /* its 1 - alpha interval; both NaN: none (not judged,
                      or unbounded); hi INFINITY: not bounded above; lo is
                      never below 0 when both means are above 0 */
    int unbounded; /* no interval: Fieller's set of the ratio is not one
                      interval (the base mean is not distinct from 0) */
    int sign;      /* significant: +1 cand higher, -1 cand lower; else 0 */
};

/* Judge cand against base at level alpha (docs/statistics.md, "Which
 * test, and the verdict"): not judged when a side has n < 2 or no
 * standard error; the Mann-Whitney test with its Hodges-Lehmann interval
 * when both sides hold their repeats (nv == n >= 2), all above 0, and an
 * exact test of those sizes can reach alpha; else Welch's t-test with
 * Fieller's interval of the ratio. Significant when p < alpha and the
 * interval (when there is one) excludes 1; a "~" verdict's interval
 * always holds 1. */
void pb_stats_judge(const struct pb_stats_side *base,
                    const struct pb_stats_side *cand, double alpha,
                    struct pb_stats_judgement *out /* OUT */);

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
