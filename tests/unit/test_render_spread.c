/* Unit tests for render/spread.c: the MAD outlier rule and the 95% CI
 * text beside ±SE (issue 12 item 5). */
#include "tests/unit/testhelp.h"
#include <math.h>
#include <string.h>

#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_sections.h"

static void test_outliers(void **state)
{
    (void)state;
    unsigned char m[8];
    /* median 409.1, |dev| 3.2 3.3 0 0.1 90.9, MAD 3.2: only 500 */
    const double a[] = {412.3, 405.8, 409.1, 409.0, 500};
    assert_int_equal(rp_outliers_of(a, 5, m), 1);
    static const unsigned char wa[5] = {0, 0, 0, 0, 1};
    assert_memory_equal(m, wa, 5);
    /* 0.6745 x 5 / 1 = 3.37: not above 3.5; 0.6745 x 6 = 4.05: above */
    const double b[] = {10, 11, 9, 10, 15};
    assert_int_equal(rp_outliers_of(b, 5, m), 0);
    const double c[] = {10, 11, 9, 10, 16};
    assert_int_equal(rp_outliers_of(c, 5, m), 1);
    /* MAD 0 (most equal) and n < 5 flag nothing: 310.52 305.11 309.9
     * (PTS Dbench) has one gap 7.7x the other, which is noise */
    const double d[] = {5, 5, 5, 9, 5};
    assert_int_equal(rp_outliers_of(d, 5, m), 0);
    const double e[] = {310.52, 305.11, 309.9};
    assert_int_equal(rp_outliers_of(e, 3, m), 0);
    assert_int_equal(rp_outliers_of(c, 4, m), 0);
}

static void test_ci_text(void **state)
{
    (void)state;
    struct rp_unit u;
    rp_unit_of("value", "MB/s", &u);
    struct rp_cell c;
    memset(&c, 0, sizeof(c));
    c.has_value = 1;
    c.mean = 409.07;
    c.se = 1.8764623926716761;
    c.n = 3;
    char buf[128];
    /* t(0.975, 2) = 4.302653 -> 8.07 */
    assert_string_equal(rp_fmt_se_ci(&u, &c, buf, sizeof(buf)),
                        "± 1.9 MB/s · 95% CI ± 8.1 MB/s");
    c.n = 1;
    assert_string_equal(rp_fmt_se_ci(&u, &c, buf, sizeof(buf)), "± 1.9 MB/s");
    c.n = 3;
    c.se = 0;
    assert_string_equal(rp_fmt_se_ci(&u, &c, buf, sizeof(buf)), "± 0 MB/s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outliers),
        cmocka_unit_test(test_ci_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
