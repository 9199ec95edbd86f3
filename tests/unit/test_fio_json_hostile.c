/* Unit tests for ingest/fio/fio_json.c on hostile input built in memory
 * (a table of broken documents, implausible and odd values, NUL bytes
 * and nesting depth, client/server mixes), truncation of fixtures and
 * corpus files at every position, and sniffing scores. Fixtures and
 * corpus: test_fio_json.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/fio_json_help.h"

/* ==== hostile input ==== */

static void hostile_table(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        long line, col;
        const char *msg;
    } cases[] = {
        {"", 0, 0, "empty file"},
        {" \n\t\n", 0, 0, "only white space"},
        {"{", 1, 1, "truncated JSON"},
        {"[1,2]", 1, 0, "no JSON object found"},
        {"fio: oops\n", 1, 0,
         "no JSON object found (first line: \"fio: oops\")"},
        {"{\"fio version\":\"x\",\"jobs\":5}", 1, 1,
         "not fio output: no \"jobs\" or \"client_stats\" array"},
        {"{\"fio version\":\"x\"}", 1, 1, "not fio output"},
        {"{\"fio version\":\"x\",\"jobs\":[]}", 1, 1,
         "no usable job in \"jobs\""},
        {"{\"jobs\":[1,\"a\",null,[],{}]}", 1, 1, "no usable job"},
        {"{\"client_stats\":[{\"jobname\":\"x\"}]}", 1, 1,
         "no usable job in \"client_stats\""},
        {"w1\nw2\n{\n  \"fio version\": x\n}\n", 4, 18, "invalid JSON"},
        {"  {\"a\": x}", 1, 9, "invalid JSON"},
        {"{\"a\":1e999}", 1, 6, "invalid JSON: number out of range"},
        {"{\"a\":1}\n{\"b\":2}\n", 2, 1, "second JSON document"},
        {"fio: {not json}\n  {\"jobs\":[{\"error\":5}]}", 2, 13,
         "failed with error 5"},
        /* wrong types everywhere: nothing usable, but no crash */
        {"{\"fio version\":1,\"global options\":[1],\"jobs\":[{\"jobname\":5,"
         "\"error\":\"x\",\"job options\":\"s\",\"read\":{\"io_bytes\":\"1\","
         "\"total_ios\":[1],\"iops\":{},\"clat_ns\":{\"mean\":\"x\","
         "\"percentile\":[5]},\"lat_ns\":7},\"write\":[1,2],\"trim\":null,"
         "\"usr_cpu\":\"a\",\"sys_cpu\":null}]}",
         1, 1, "no usable job"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_resultset *s;
        struct pb_err err;
        int rc =
            th_parse(JSONP, "mem", cases[i].in, strlen(cases[i].in), &s, &err);
        if (rc != PB_EINPUT || err.line != cases[i].line ||
            err.col != cases[i].col || !strstr(err.msg, cases[i].msg)) {
            print_error("case %zu: rc %d at %ld:%ld \"%s\"; want %ld:%ld "
                        "\"%s\"\n",
                        i, rc, err.line, err.col, err.msg, cases[i].line,
                        cases[i].col, cases[i].msg);
            fail();
        }
        assert_null(s);
    }
}

/* A copy of buf with the first `from` replaced by `to`. */
static char *replaced(const char *buf, const char *from, const char *to)
{
    const char *p = strstr(buf, from);
    assert_non_null(p);
    return pb_xasprintf("%.*s%s%s", (int)(p - buf), buf, to, p + strlen(from));
}

/* Values no run can produce are stored as they are, with a fact saying
 * which bound they break: a mean latency of 8.7 days in a 27 ms run, a
 * bandwidth 1000 times io_bytes / runtime. */
static void hostile_implausible(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FIX_DIR "/fio-3.33_randread_4k_qd4_libaio.json", &len);
    char *a = replaced(buf, "\"mean\" : 103083.101562", "\"mean\" : 7.5e14");
    char *b = replaced(a, "\"bw_bytes\" : 155344592", "\"bw_bytes\" : "
                                                    "155344592000");
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(th_parse(JSONP, "mem", b, strlen(b), &s, &err), PB_OK);
    assert_val(s, "randread-4k-qd4", "read_lat_mean", 7.5e14);
    assert_val(s, "randread-4k-qd4", "read_bw", 155344592000.0);
    assert_string_equal(th_fact(s, NULL, "flag.implausible"),
                        "read_lat_mean 7.5e+14 ns > runtime 0.027 s; "
                        "read_bw 1.553e+11 B/s > 10 x io_bytes/runtime "
                        "1.553e+08 B/s");
    pb_resultset_free(s);
    free(a);
    free(b);
    free(buf);
    /* the fixture itself is plausible */
    s = fixture("fio-3.33_randread_4k_qd4_libaio.json");
    assert_null(th_fact(s, NULL, "flag.implausible"));
    pb_resultset_free(s);
}

static void hostile_values(void **state)
{
    (void)state;
    /* huge numbers, bogus percentile keys, a string where a number goes */
    static const char in[] =
        "{\"fio version\":\"fio-9\",\"jobs\":[{\"jobname\":\"j\","
        "\"job options\":{\"rw\":\"randread:8\",\"bs\":[4],\"iodepth\":\"x\"},"
        "\"read\":{\"io_bytes\":8192,\"io_kbytes\":8,\"bw_bytes\":1e308,"
        "\"iops\":1e308,\"total_ios\":2,\"runtime\":1e308,"
        "\"clat_ns\":{\"mean\":5,\"max\":1e308,\"N\":2,\"percentile\":"
        "{\"50.000000\":1e308,\"0.00\":5,\"abc\":1,\"99.000000\":\"x\","
        "\"99.9\":7}}},\"usr_cpu\":-1}]}";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(th_parse(JSONP, "mem", in, sizeof(in) - 1, &s, &err),
                     PB_OK);
    assert_val(s, "j", "read_iops", 1e308);
    assert_val(s, "j", "read_bw", 1e308);
    assert_val(s, "j", "read_clat_p50", 1e308);
    assert_val(s, "j", "read_clat_p99.9", 7);
    assert_val(s, "j", "read_clat_mean", 5);
    assert_val(s, "j", "usr_cpu", -1);
    assert_null(th_find(s, "j", "read_clat_p99")); /* a string */
    assert_null(th_find(s, "j", "read_runtime"));  /* overflows in ns */
    const struct pb_test *t = th_test_of(s, "j");
    assert_string_equal(th_param(t, "rw"), "randread"); /* ":8" dropped */
    assert_string_equal(th_param(t, "bs"), "4096");     /* not a string */
    assert_null(th_param(t, "iodepth"));
    pb_resultset_free(s);
}

static void hostile_nul_and_depth(void **state)
{
    (void)state;
    /* NUL bytes in the noise and in strings */
    static const char in[] =
        "fio: \0 junk\n{\"fio version\":\"a\\u0000b\",\"jobs\":[{\"jobname\":"
        "\"n\\u0000m\",\"read\":{\"io_bytes\":4096,\"io_kbytes\":4,\"iops\":1,"
        "\"total_ios\":1}}],\"x\":\"\\u0000\"}";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(th_parse(JSONP, "mem", in, sizeof(in) - 1, &s, &err),
                     PB_OK);
    assert_val(s, "n", "read_bytes", 4096);
    pb_resultset_free(s);

    /* nesting far deeper than any parser stack */
    size_t depth = 100000, n = 0;
    char *deep = malloc(depth + 16);
    assert_non_null(deep);
    n += (size_t)sprintf(deep, "{\"jobs\":");
    memset(deep + n, '[', depth);
    n += depth;
    assert_int_equal(th_parse(JSONP, "mem", deep, n, &s, &err), PB_EINPUT);
    assert_int_equal(err.line, 1);
    free(deep);
}

static void hostile_client_mix(void **state)
{
    (void)state;
    /* two clients running different jobs: "All clients" keeps its own
     * name and a test of its own */
    static const char in[] =
        "{\"fio version\":\"fio-3.33\",\"client_stats\":["
        "{\"jobname\":\"a\",\"job options\":{\"rw\":\"read\"},"
        "\"read\":{\"io_bytes\":4096,\"io_kbytes\":4,\"iops\":1,"
        "\"total_ios\":1},\"hostname\":\"h1\",\"port\":8765},"
        "{\"jobname\":\"b\",\"job options\":{\"rw\":\"write\"},"
        "\"write\":{\"io_bytes\":4096,\"io_kbytes\":4,\"iops\":2,"
        "\"total_ios\":1},\"hostname\":\"h2\",\"port\":8765},"
        "{\"jobname\":\"All clients\",\"read\":{\"io_bytes\":4096,"
        "\"io_kbytes\":4,\"iops\":1,\"total_ios\":1},\"write\":{\"io_bytes\":"
        "4096,\"io_kbytes\":4,\"iops\":2,\"total_ios\":1},"
        "\"hostname\":\"h2\",\"port\":8765}]}";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(th_parse(JSONP, "mem", in, sizeof(in) - 1, &s, &err),
                     PB_OK);
    assert_hval(s, "h1", "a", "read_iops", 1);
    assert_hval(s, "h2", "b", "write_iops", 2);
    assert_null(th_hfind(s, "h2", "b", "read_iops"));
    assert_hval(s, "(all clients)", "All clients", "read_iops", 1);
    assert_hval(s, "(all clients)", "All clients", "write_iops", 2);
    assert_string_equal(th_htest_of(s, "(all clients)", "All clients")->name,
                        "fio all clients");
    pb_resultset_free(s);
}

/* Cut a real file at every tenth: always PB_EINPUT, never a crash, and the
 * error on the line where the text stops. */
static void truncate_file(const char *dir, const char *name, int exact)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    for (int k = 0; k < 10; k++) {
        size_t cut = len * (size_t)k / 10;
        struct pb_resultset *s;
        struct pb_err err;
        int rc = th_parse(JSONP, name, buf, cut, &s, &err);
        if (rc != PB_EINPUT) {
            print_error("%s cut at %zu: rc %d\n", name, cut, rc);
            fail();
        }
        if (!exact || cut == 0)
            continue;
        size_t last = cut;
        while (last > 0 && strchr(" \t\r\n", buf[last - 1]))
            last--;
        assert_true(last > 0);
        assert_int_equal(err.line, pb_line_of(buf, last - 1));
        if (strncmp(err.msg, "truncated JSON: ", 16) != 0) {
            print_error("%s cut at %zu: \"%s\"\n", name, cut, err.msg);
            fail();
        }
    }
    free(buf);
}

static void hostile_truncated_fixture(void **state)
{
    (void)state;
    truncate_file(FIX_DIR, "fio-3.33_randread_4k_qd4_libaio.json", 1);
    truncate_file(FIX_DIR, "fio-3.33_randrw70_4k_json-plus.json", 1);
    truncate_file(FIX_DIR, "fio-3.33_client-server_two-servers.json", 0);
}

static void hostile_truncated_corpus(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS_DIR);
    static const char *const files[] = {
        "fio-2.1.4_multi-job_perfkit.json",
        "fio-2.17_randrw-hist-log_perfkit.json",
        "fio-3.28_48-job-bs-qd-sweep_io_uring_whitepau.json",
        "DIRTY-PREFIX_fio-3.34_randread_4k_sigint_fio-plot.json",
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        truncate_file(CORPUS_DIR, files[i], 0);
}

static void sniff_scores(void **state)
{
    (void)state;
    assert_int_equal(pb_parser_fio_json.sniff("", 0), 0);
    assert_int_equal(pb_parser_fio_json.sniff("Bad option\n", 11), 0);
    static const char j[] = "note\n{\n  \"fio version\" : \"fio-3.33\",";
    assert_int_equal(pb_parser_fio_json.sniff(j, sizeof(j) - 1), 90);
    /* the key alone in text, not in a JSON object, is not enough */
    static const char t[] = "the \"fio version\" key";
    assert_int_equal(pb_parser_fio_json.sniff(t, sizeof(t) - 1), 0);
    assert_string_equal(pb_parser_fio_json.name, "fio-json");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_table),
        cmocka_unit_test(hostile_values),
        cmocka_unit_test(hostile_implausible),
        cmocka_unit_test(hostile_nul_and_depth),
        cmocka_unit_test(hostile_client_mix),
        cmocka_unit_test(hostile_truncated_fixture),
        cmocka_unit_test(hostile_truncated_corpus),
        cmocka_unit_test(sniff_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
