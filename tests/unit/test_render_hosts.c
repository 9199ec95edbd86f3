/* Unit tests for render/hosts.c: the spread between hosts and the outlier
 * rule (issue 15 item 2; docs/report.md, "Hosts"). */
#include "tests/unit/testhelp.h"
#include <math.h>
#include <string.h>

#include "render/rp_sections.h"

static void test_spread(void **state)
{
    (void)state;
    struct rp_hspread sp;
    signed char fl[8];
    double dev[8];
    /* the three-server fixture's read IOPS: within 20 % of the median */
    const double a[] = {229426.294821, 211913.086913, 226580.41958};
    assert_int_equal(rp_host_spread(a, 3, &sp, fl, dev), 0);
    assert_int_equal(sp.n, 3);
    assert_true(sp.min == 211913.086913 && sp.max == 229426.294821);
    assert_true(sp.median == 226580.41958);
    assert_true(fabs(sp.ratio - 1.082643352) < 1e-9);
    assert_true(fabs(sp.cv - 0.04221196057) < 1e-10);
    assert_true(fabs(dev[1] + 0.06473345178805844) < 1e-15);
    assert_true(dev[2] == 0);
    /* the edited copy: :18772 at half, 53.2 % below, flagged below */
    const double b[] = {229426.294821, 105956.043956, 226580.41958};
    assert_int_equal(rp_host_spread(b, 3, &sp, fl, dev), 1);
    static const signed char wb[3] = {0, -1, 0};
    assert_memory_equal(fl, wb, 3);
    assert_true(fabs(dev[1] + 0.5323689304115288) < 1e-12);
    /* 20 % is not more than 20 %; 21 % above is (median 100) */
    const double c[] = {100, 120, 99};
    assert_int_equal(rp_host_spread(c, 3, &sp, fl, NULL), 0);
    const double c2[] = {100, 121, 99};
    assert_int_equal(rp_host_spread(c2, 3, &sp, fl, NULL), 1);
    assert_int_equal(fl[1], 1);
    /* two hosts: which one is off cannot be told; spread only */
    const double e[] = {10, 30};
    assert_int_equal(rp_host_spread(e, 2, &sp, fl, dev), 0);
    assert_true(sp.ratio == 3 && sp.median == 20);
    /* five hosts that spread widely (MAD 20): 25 % and 40 % off the
     * median 100 have modified z 0.6745 x 25 / 20 = 0.84 and 1.35, no
     * outliers (the 20 % rule alone would flag both); 25 % off hosts that
     * agree within 1 (MAD 1, z 16.9) is one */
    const double f[] = {100, 80, 120, 125, 60};
    assert_int_equal(rp_host_spread(f, 5, &sp, fl, NULL), 0);
    const double g[] = {100, 101, 99, 100, 125};
    assert_int_equal(rp_host_spread(g, 5, &sp, fl, NULL), 1);
    assert_int_equal(fl[4], 1);
    /* min <= 0: no ratio; median 0: no deviation, no flag */
    const double z[] = {0, 0, 5};
    assert_int_equal(rp_host_spread(z, 3, &sp, fl, dev), 0);
    assert_true(isnan(sp.ratio) && isnan(dev[2]));
    assert_int_equal(rp_host_spread(NULL, 0, &sp, NULL, NULL), 0);
    assert_true(isnan(sp.median));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
