/* common/stats: reference values computed independently by
 * tests/unit/ref/stats_ref.py (t CDF by numerical integration of the
 * density, Mann-Whitney by enumerating every split), checked against
 * closed forms and published values where they exist (cited per case). */
#include "testhelp.h"

#include "common/stats.h"

/* ==== Student's t ==== */

struct tcase {
    double t, df, p;
};

static void t_cdf_reference(void **state)
{
    (void)state;
    static const struct tcase cases[] = {
        /* df 1 is Cauchy: 1/2 + atan(2)/pi */
        {2.0, 1, 0.852416382349567},
        /* df 2 closed form: 1/2 + t / (2 sqrt(2 + t^2)) */
        {2.0, 2, 0.908248290463863},
        {2.0, 3, 0.930337015720578},
        {2.0, 5, 0.94903026058507},
        {2.0, 10, 0.96330598261463},
        {2.0, 24.9, 0.971739664232399}, /* fractional df, as Welch's */
        {2.0, 30, 0.972687477518506},
        {-3.5, 7.5, 0.00447443599003994},
        {0.1, 3, 0.536673825599597},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_near(pb_stats_t_cdf(cases[i].t, cases[i].df), cases[i].p,
                    1e-12);
    /* symmetry, infinity, domain */
    assert_near(pb_stats_t_cdf(-2.0, 3) + pb_stats_t_cdf(2.0, 3), 1.0, 1e-15);
    assert_near(pb_stats_t_cdf(0, 4), 0.5, 1e-15);
    assert_near(pb_stats_t_cdf(1.959963984540054, INFINITY), 0.975, 1e-12);
    assert_true(isnan(pb_stats_t_cdf(1, 0)));
    assert_true(isnan(pb_stats_t_cdf(NAN, 3)));
    assert_near(pb_stats_t_cdf(INFINITY, 3), 1.0, 0);
}

static void t_quantile_reference(void **state)
{
    (void)state;
    /* the two-sided 95% column of every t table */
    static const struct tcase cases[] = {
        {0, 1, 12.7062047361748}, {0, 2, 4.30265272974946},
        {0, 4, 2.77644510519778}, {0, 10, 2.22813885198627},
        {0, 30, 2.04227245630129},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_near(pb_stats_t_quantile(0.975, cases[i].df), cases[i].p,
                    1e-10 * cases[i].p);
    assert_near(pb_stats_t_quantile(0.025, 10), -2.22813885198627, 1e-10);
    assert_near(pb_stats_t_quantile(0.975, INFINITY), 1.959963984540054,
                1e-10);
    assert_near(pb_stats_t_quantile(0.5, 3), 0, 0);
    /* round trip over the df and levels a comparison meets (Welch df are
     * fractional, from below 1 to thousands) */
    static const double dfs[] = {0.3, 0.7, 1, 1.47, 2.5, 7, 24.99, 200, 1e5};
    static const double ps[] = {0.6, 0.9, 0.975, 0.995, 0.9995, 0.99999};
    for (size_t i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++)
        for (size_t j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
            double q = pb_stats_t_quantile(ps[j], dfs[i]);
            assert_true(isfinite(q) && q > 0);
            assert_near(pb_stats_t_cdf(q, dfs[i]), ps[j], 1e-12);
        }
    assert_true(isnan(pb_stats_t_quantile(0, 3)));
    assert_true(isnan(pb_stats_t_quantile(1, 3)));
    assert_true(isnan(pb_stats_t_quantile(0.9, -1)));
}

static void normal_and_beta(void **state)
{
    (void)state;
    assert_near(pb_stats_normal_cdf(0), 0.5, 1e-15);
    assert_near(pb_stats_normal_cdf(1.959963984540054), 0.975, 1e-14);
    assert_near(pb_stats_normal_cdf(-1), 0.158655253931457, 1e-14);
    /* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1-x)^b */
    assert_near(pb_stats_betainc(1, 1, 0.3), 0.3, 1e-14);
    assert_near(pb_stats_betainc(3, 1, 0.5), 0.125, 1e-14);
    assert_near(pb_stats_betainc(1, 4, 0.5), 1 - 0.0625, 1e-14);
    assert_true(isnan(pb_stats_betainc(0, 1, 0.5)));
    assert_true(isnan(pb_stats_betainc(1, 1, 1.5)));
}

/* ==== Welch ==== */

static void welch_wikipedia(void **state)
{
    (void)state;
    /* Wikipedia "Welch's t-test", example with unequal variances
     * (A1, A2 of 15 values each): published t 2.46, df 25.0, p 0.021;
     * exact figures from stats_ref.py. */
    struct pb_stats_summary a = {20.82, 0.724220434740168, 15};
    struct pb_stats_summary b = {22.9866666666667, 0.504160468281457, 15};
    struct pb_stats_welch w;
    assert_int_equal(pb_stats_welch(&a, &b, 0.05, &w), 0);
    assert_near(w.t, 2.45535639828601, 1e-9);
    assert_near(w.df, 24.9885292902314, 1e-9);
    assert_near(w.p, 0.0213780014628708, 1e-9);
    assert_near(w.diff_lo, 0.349237066192377, 1e-9);
    assert_near(w.diff_hi, 3.98409626714097, 1e-9);
    /* Fieller's interval excludes 1 because the test rejects, and holds
     * the point ratio. */
    assert_true(w.ratio_lo > 1.0);
    assert_true(w.ratio_lo < w.ratio && w.ratio < w.ratio_hi);
    assert_near(w.ratio, 22.9866666666667 / 20.82, 1e-12);
}

static void welch_n2(void **state)
{
    (void)state;
    /* {10, 12} vs {15, 19}: stats_ref.py */
    struct pb_stats_summary a = {11, 1, 2}, b = {17, 2, 2};
    struct pb_stats_welch w;
    assert_int_equal(pb_stats_welch(&a, &b, 0.05, &w), 0);
    assert_near(w.t, 2.68328157299975, 1e-12);
    assert_near(w.df, 1.47058823529412, 1e-12);
    assert_near(w.p, 0.157963453949036, 1e-9);
    assert_near(w.diff_lo, -7.83704566014206, 1e-8);
    assert_near(w.diff_hi, 19.8370456601421, 1e-8);
    /* not significant: the ratio interval holds 1 or is unbounded */
    assert_true(isnan(w.ratio_lo) || (w.ratio_lo < 1 && w.ratio_hi > 1));
}

static void welch_single_and_zero_variance(void **state)
{
    (void)state;
    struct pb_stats_welch w;
    /* a single run has no spread: never significant */
    struct pb_stats_summary one = {100, 0, 1}, three = {50, 1, 3};
    assert_int_equal(pb_stats_welch(&one, &three, 0.05, &w), -1);
    assert_near(w.p, 1, 0);
    assert_true(isnan(w.diff_lo));
    assert_near(w.diff, -50, 0);
    assert_near(w.ratio, 0.5, 0);
    /* zero variance both sides */
    struct pb_stats_summary z1 = {10, 0, 3}, z2 = {10, 0, 3}, z3 = {12, 0, 3};
    assert_int_equal(pb_stats_welch(&z1, &z2, 0.05, &w), 0);
    assert_near(w.p, 1, 0);
    assert_int_equal(pb_stats_welch(&z1, &z3, 0.05, &w), 0);
    assert_near(w.p, 0, 0);
    assert_near(w.diff_lo, 2, 0);
    /* zero variance on one side: df is the other side's n - 1 */
    struct pb_stats_summary v = {12, 1, 4};
    assert_int_equal(pb_stats_welch(&z1, &v, 0.05, &w), 0);
    assert_near(w.df, 3, 1e-12);
    assert_near(w.t, 2, 1e-12);
    /* two-sided p of t 2 at df 3: 2 (1 - 0.930337015720578) */
    assert_near(w.p, 2 * (1 - 0.930337015720578), 1e-12);
    assert_near(w.diff_hi - w.diff, 3.18244630528371, 1e-9);
}

/* ==== Mann-Whitney ==== */

static void mwu_conover(void **state)
{
    (void)state;
    /* SciPy's mannwhitneyu documentation (from Conover): U 17, exact p
     * 0.1111111111111111, asymptotic 0.11134688653314041; enumeration
     * and the textbook formula in stats_ref.py agree. */
    const double x[] = {19, 22, 16, 29, 24}, y[] = {20, 11, 17, 12};
    struct pb_stats_mwu u;
    assert_int_equal(pb_stats_mann_whitney(x, 5, y, 4, &u), 0);
    assert_int_equal(u.exact, 1);
    assert_near(u.u, 17, 0);
    assert_near(u.p, 1.0 / 9.0, 1e-14);
    /* y against x: U = 20 - 17, the same p */
    assert_int_equal(pb_stats_mann_whitney(y, 4, x, 5, &u), 0);
    assert_near(u.u, 3, 0);
    assert_near(u.p, 1.0 / 9.0, 1e-14);
}

static void mwu_small_and_ties(void **state)
{
    (void)state;
    struct pb_stats_mwu u;
    /* n = 3 each, fully apart: the smallest exact p, 2/20 */
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    assert_int_equal(pb_stats_mann_whitney(a, 3, b, 3, &u), 0);
    assert_near(u.p, 0.1, 1e-14);
    assert_near(u.u, 0, 0);
    /* n = 2 each: 2/6, never below 0.05 */
    const double c[] = {1, 2}, d[] = {3, 4};
    assert_int_equal(pb_stats_mann_whitney(c, 2, d, 2, &u), 0);
    assert_near(u.p, 1.0 / 3.0, 1e-14);
    /* ties: normal approximation with tie and continuity correction */
    const double tx[] = {1, 2, 2, 3, 3, 3, 4}, ty[] = {3, 4, 4, 5, 5, 6};
    assert_int_equal(pb_stats_mann_whitney(tx, 7, ty, 6, &u), 0);
    assert_int_equal(u.exact, 0);
    assert_near(u.u, 3.5, 0);
    assert_near(u.p, 0.0129998543643873, 1e-12);
    /* every value tied (zero variance): p 1 */
    const double e[] = {5, 5, 5}, f[] = {5, 5};
    assert_int_equal(pb_stats_mann_whitney(e, 3, f, 2, &u), 0);
    assert_near(u.p, 1, 0);
    /* an empty side */
    assert_int_equal(pb_stats_mann_whitney(e, 3, f, 0, &u), -1);
    assert_near(u.p, 1, 0);
}

/* ==== summaries ==== */

static void summaries(void **state)
{
    (void)state;
    const double v[] = {3, 1, 4, 1, 5, 9, 2, 6};
    assert_near(pb_stats_median(v, 8), 3.5, 0);
    assert_near(pb_stats_median(v, 7), 3, 0);
    /* |v - 3.5| = .5 2.5 .5 2.5 1.5 5.5 1.5 2.5: median 2 */
    assert_near(pb_stats_mad(v, 8), 2, 0);
    assert_true(isnan(pb_stats_median(v, 0)));
    const double z[] = {7, 7, 7};
    assert_near(pb_stats_mad(z, 3), 0, 0);
    double m, se;
    pb_stats_mean_se(v, 8, &m, &se);
    assert_near(m, 3.875, 1e-15);
    /* sum of squared deviations of v is 52.875 */
    assert_near(se, sqrt(52.875 / 7) / sqrt(8), 1e-14);
    pb_stats_mean_se(v, 1, &m, &se);
    assert_near(se, 0, 0);
    size_t used;
    const double r[] = {2, 8, -1, 0, 4};
    assert_near(pb_stats_geomean(r, 5, &used), 4, 1e-14);
    assert_int_equal(used, 3);
    assert_true(isnan(pb_stats_geomean(r + 2, 2, &used)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_cdf_reference),
        cmocka_unit_test(t_quantile_reference),
        cmocka_unit_test(normal_and_beta),
        cmocka_unit_test(welch_wikipedia),
        cmocka_unit_test(welch_n2),
        cmocka_unit_test(welch_single_and_zero_variance),
        cmocka_unit_test(mwu_conover),
        cmocka_unit_test(mwu_small_and_ties),
        cmocka_unit_test(summaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
