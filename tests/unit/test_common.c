/* Unit tests for common/: sizes, durations, number formatting, errors,
 * the arena and SHA-256. */
#include "tests/unit/testhelp.h"
#include <string.h>

#include "common/pb.h"

static void test_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int si;
        double want;
    } ok[] = {
        {"4k", 0, 4096},           {"4K", 0, 4096},
        {"128k", 0, 131072},       {"1m", 0, 1048576},
        {"1M", 0, 1048576},        {"4KiB", 0, 4096},
        {"1.5G", 0, 1610612736.0}, {"512", 0, 512},
        {"512b", 0, 512},          {"92.4G", 0, 92.4 * 1073741824.0},
        {"77.3MB", 1, 77.3e6},     {"1kB", 1, 1000},
        {"1KB", 0, 1024},          {" 8k", 0, 8192},
        {"1T", 0, 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        double v = -1;
        assert_int_equal(pb_parse_size(ok[i].in, ok[i].si, &v), 0);
        assert_near(v, ok[i].want, 1e-6);
    }
    static const char *const bad[] = {"", "k", "abc", "4x", "-4k", "1e999",
                                      "4kk", "4 kilo"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        double v;
        assert_int_equal(pb_parse_size(bad[i], 0, &v), -1);
    }
}

static void test_durations(void **state)
{
    (void)state;
    double v;
    assert_int_equal(pb_parse_duration("60", 1e9, &v), 0);
    assert_near(v, 60e9, 0);
    assert_int_equal(pb_parse_duration("20s", 1e9, &v), 0);
    assert_near(v, 20e9, 0);
    assert_int_equal(pb_parse_duration("500ms", 1e9, &v), 0);
    assert_near(v, 500e6, 0);
    assert_int_equal(pb_parse_duration("2m", 1e9, &v), 0);
    assert_near(v, 120e9, 0);
    assert_int_equal(pb_parse_duration("10us", 1e9, &v), 0);
    assert_near(v, 10e3, 0);
    assert_int_equal(pb_parse_duration("7", 1e3, &v), 0);
    assert_near(v, 7e3, 0);
    assert_int_equal(pb_parse_duration("soon", 1e9, &v), -1);
    assert_int_equal(pb_parse_duration("5 parsecs", 1e9, &v), -1);
}

static void test_format(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(pb_fmt_size(4096, b, sizeof(b)), "4k");
    assert_string_equal(pb_fmt_size(131072, b, sizeof(b)), "128k");
    assert_string_equal(pb_fmt_size(1048576, b, sizeof(b)), "1M");
    assert_string_equal(pb_fmt_size(1536, b, sizeof(b)), "1536");
    assert_string_equal(pb_fmt_size(512, b, sizeof(b)), "512");
    assert_string_equal(pb_fmt_num(1416, b, sizeof(b)), "1416");
    assert_string_equal(pb_fmt_num(73.184143, b, sizeof(b)), "73.184143");
    assert_string_equal(pb_fmt_num(0.1, b, sizeof(b)), "0.1");
    assert_string_equal(pb_fmt_num(-0.0, b, sizeof(b)), "-0");
}

static void test_errors(void **state)
{
    (void)state;
    struct pb_err e = {0};
    assert_int_equal(pb_err_set(&e, PB_EINPUT, "a.json", 42, 7, "bad %s",
                                "thing"),
                     PB_EINPUT);
    /* The first error wins. */
    pb_err_set(&e, PB_EDB, "b", 1, 1, "second");
    assert_int_equal(e.code, PB_EINPUT);
    assert_string_equal(e.msg, "bad thing");
    assert_int_equal(e.line, 42);
    assert_int_equal(pb_err_exit_code(PB_OK), 0);
    assert_int_equal(pb_err_exit_code(PB_EINPUT), 1);
    assert_int_equal(pb_err_exit_code(PB_EUSAGE), 2);
    assert_int_equal(pb_err_exit_code(PB_EDB), 3);
    assert_int_equal(pb_err_exit_code(PB_EDUP), 0);
}

static void test_arena_and_buf(void **state)
{
    (void)state;
    struct pb_arena a;
    pb_arena_init(&a);
    char *big = pb_arena_alloc(&a, 100000); /* larger than a block */
    memset(big, 'x', 100000);
    for (int i = 0; i < 5000; i++) {
        char *s = pb_arena_printf(&a, "item %d", i);
        assert_string_equal(s, pb_arena_printf(&a, "item %d", i));
    }
    assert_null(pb_arena_strdup(&a, NULL));
    pb_arena_release(&a);

    struct pb_buf b = PB_BUF_INIT;
    assert_string_equal(pb_buf_str(&b), "");
    for (int i = 0; i < 1000; i++)
        pb_buf_printf(&b, "%d,", i);
    assert_int_equal(strncmp(pb_buf_str(&b), "0,1,2,", 6), 0);
    char *s = pb_buf_take(&b);
    assert_null(b.s);
    free(s);
}

static void test_sha256(void **state)
{
    (void)state;
    char hex[65];
    pb_sha256_hex("abc", 3, hex);
    assert_string_equal(
        hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    pb_sha256_hex("", 0, hex);
    assert_string_equal(
        hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_int_equal(pb_line_of("a\nb\nc", 4), 3);
    assert_int_equal(pb_line_of("abc", 0), 1);
}

static void test_utf8(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n, want;
    } cases[] = {
        {"a", 1, 1},
        {"\xc3\xa9", 2, 2},             /* e acute */
        {"\xe2\x82\xac", 3, 3},         /* euro */
        {"\xf0\x9f\x98\x80", 4, 4},     /* U+1F600 */
        {"\xf4\x8f\xbf\xbf", 4, 4},     /* U+10FFFF */
        {"\xc0\x80", 2, 0},             /* overlong NUL */
        {"\xe0\x80\xaf", 3, 0},         /* overlong '/' */
        {"\xed\xa0\x80", 3, 0},         /* surrogate D800 */
        {"\xf4\x90\x80\x80", 4, 0},     /* above U+10FFFF */
        {"\xf5\x80\x80\x80", 4, 0},
        {"\x80", 1, 0},                 /* lone continuation */
        {"\xe2\x82", 2, 0},             /* cut short by n */
        {"\xe2\x82", 4, 0},             /* cut short by the NUL */
        {"", 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(
            pb_utf8_len((const unsigned char *)cases[i].s, cases[i].n),
            cases[i].want);
}

/* pb_dec_fast gives strtod's double, bit for bit, or declines. */
static void test_dec_fast(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int ok;
        double want;
    } cases[] = {
        {"1416", 0, 1416},
        {"-0", 0, -0.0},
        {"0.1", 0, 0.1},
        {"51200.5", 0, 51200.5},
        {"-3.25", 0, -3.25},
        {"123456789012345", 0, 123456789012345.0},
        {"0.00000000000001", 0, 1e-14},
        {"0.000000000000001", -1, 0}, /* 16 digits with the 0 */
        {"1234567890123456", -1, 0}, /* 16 digits: strtod's job */
        {"1e5", -1, 0},
        {"1.", -1, 0},
        {".5", -1, 0},
        {"-", -1, 0},
        {"", -1, 0},
        {"1.2.3", -1, 0},
        {"+1", -1, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double v = 12345;
        int rc = pb_dec_fast(cases[i].in, strlen(cases[i].in), &v);
        assert_int_equal(rc, cases[i].ok);
        if (rc == 0) {
            assert_true(v == cases[i].want);
            assert_int_equal(!!signbit(v), !!signbit(cases[i].want));
        }
    }
    /* random decimals of up to 15 digits against strtod */
    unsigned x = 12345;
    for (int k = 0; k < 200000; k++) {
        char buf[32];
        int nd = 1 + (int)((x = x * 1103515245u + 12345u) >> 16) % 15;
        int dot = (int)((x = x * 1103515245u + 12345u) >> 16) % (nd + 1);
        size_t n = 0;
        if (k & 1)
            buf[n++] = '-';
        for (int d = 0; d < nd; d++) {
            if (d == dot && d > 0)
                buf[n++] = '.';
            buf[n++] = (char)('0' + ((x = x * 1103515245u + 12345u) >> 16) % 10);
        }
        buf[n] = '\0';
        double v;
        assert_int_equal(pb_dec_fast(buf, n, &v), 0);
        double w = strtod(buf, NULL);
        if (memcmp(&v, &w, sizeof(v)) != 0) {
            print_error("%s: %.17g, strtod %.17g\n", buf, v, w);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),       cmocka_unit_test(test_durations),
        cmocka_unit_test(test_format),      cmocka_unit_test(test_errors),
        cmocka_unit_test(test_arena_and_buf), cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_dec_fast),    cmocka_unit_test(test_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
