/* Unit tests for render/csv_out.c: one CSV field escaped (RFC 4180
 * quoting, formula injection, invalid UTF-8) and the generic chart-data
 * writer (rows end after ncols fields, exact numbers, empty fields). */
#include "tests/unit/testhelp.h"

#include "render/rp_data.h"
#include "render/rp_csv.h"

static void test_esc(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"zfs rs=8k lz4", "zfs rs=8k lz4"},
        {"", ""},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {"cr\rhere", "\"cr\rhere\""},
        /* formulas: a leading ' inside quotes */
        {"=HYPERLINK(\"http://x\",\"y\")",
         "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""},
        {"+cmd", "\"'+cmd\""},
        {"@SUM(A1)", "\"'@SUM(A1)\""},
        {"-x", "\"'-x\""},
        {"\tx", "\"'\tx\""},
        /* numbers are no formulas */
        {"-5", "-5"},
        {"+1.5e3", "+1.5e3"},
        {"-0.25", "-0.25"},
        /* markup is text in a CSV */
        {"<script>x</script>", "<script>x</script>"},
        /* bytes that are not UTF-8 become U+FFFD */
        {"a\xff" "b", "a\xef\xbf\xbd" "b"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_buf b = PB_BUF_INIT;
        rp_csv_esc(&b, cases[i].in);
        assert_string_equal(pb_buf_str(&b), cases[i].out);
        pb_buf_release(&b);
    }
    struct pb_buf b = PB_BUF_INIT;
    rp_csv_esc(&b, NULL);
    assert_string_equal(pb_buf_str(&b), "");
    pb_buf_release(&b);
}

static void test_writer(void **state)
{
    (void)state;
    static const char *const head[] = {"config", "value", "n", "note"};
    struct rp_csv *c = rp_csv_new(4, head);
    assert_int_equal(rp_csv_rows(c), 0);
    rp_csv_str(c, "a,b");
    rp_csv_num(c, 37925.925926);
    rp_csv_int(c, 3);
    rp_csv_str(c, NULL);
    rp_csv_str(c, "=1+1");
    rp_csv_num(c, 0.1 + 0.2); /* exact: 0.30000000000000004 */
    rp_csv_num(c, NAN);
    rp_csv_empty(c);
    rp_csv_str(c, "short"); /* a short last row is completed */
    rp_csv_num(c, 1e300);
    assert_int_equal(rp_csv_rows(c), 2);
    size_t len;
    const char *t = rp_csv_text(c, &len);
    assert_string_equal(t, "config,value,n,note\r\n"
                           "\"a,b\",37925.925926,3,\r\n"
                           "\"'=1+1\",0.30000000000000004,,\r\n"
                           "short,1e+300,,\r\n");
    assert_int_equal(len, strlen(t));
    assert_int_equal(rp_csv_rows(c), 3);
    rp_csv_free(c);
    rp_csv_free(NULL);
}

static void test_cell(void **state)
{
    (void)state;
    static const char *const head[] = {"value", "stderr", "n", "results"};
    struct rp_csv *c = rp_csv_new(4, head);
    struct rp_cell a = {0}, b = {0}, n = {0};
    a.has_value = 1;
    a.mean = 155344592;
    a.se = 0;
    a.n = 3;
    a.nresults = 3;
    b.has_value = 1;
    b.mean = 95120.722656;
    b.se = -1; /* unknown */
    b.n = 1;
    b.nresults = 1;
    rp_csv_cell(c, &a);
    rp_csv_cell(c, &b);
    rp_csv_cell(c, &n);
    rp_csv_cell(c, NULL);
    size_t len;
    assert_string_equal(rp_csv_text(c, &len), "value,stderr,n,results\r\n"
                                              "155344592,0,3,3\r\n"
                                              "95120.722656,,1,1\r\n"
                                              ",,,0\r\n"
                                              ",,,0\r\n");
    rp_csv_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_esc),
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
