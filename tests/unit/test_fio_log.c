/* Unit tests of the fio log readers (ingest/fio/fio_log*.c): fields, names,
 * the bucket width rule, per-I/O buckets against exact values, the
 * histogram percentile of fiologparser_hist.py, and the stream path
 * (.gz, a log longer than any buffer). */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"

#include "ingest/fio/fio_log_int.h"

#include <unistd.h>
#include <zlib.h>

#define FX PB_FIXTURES_DIR "/fio-log/"

static void test_fields(void **state)
{
    (void)state;
    uint64_t f[6];
    assert_int_equal(pb_log_fields("12, 345, 0, 4096, 0", 19, f, 6), 5);
    assert_true(f[0] == 12 && f[1] == 345 && f[3] == 4096);
    assert_int_equal(pb_log_fields("1,2,1,0\r", 8, f, 6), 4);
    assert_int_equal(pb_log_fields("1, -2, 0, 0", 11, f, 6), -2);
    assert_int_equal(pb_log_fields("1, 2, 0,", 8, f, 6), -1);
    assert_int_equal(pb_log_fields("1, 2x, 0, 0", 11, f, 6), -1);
    assert_int_equal(pb_log_fields("1, 2, 0, 0, 0, 0, 0", 19, f, 6), -1);
    /* 2^63 is the largest number taken */
    assert_int_equal(pb_log_fields("9223372036854775808", 19, f, 6), 1);
    assert_int_equal(pb_log_fields("9223372036854775809", 19, f, 6), -1);
    assert_int_equal(pb_log_fields("99999999999999999999", 20, f, 6), -1);
    assert_int_equal(pb_log_fields("", 0, f, 6), 0);
}

static void test_names(void **state)
{
    (void)state;
    struct pb_log_name n;
    pb_log_name_parse("/x/run_clat_hist.3.log", &n);
    assert_int_equal(n.kind, PB_LOG_HIST);
    assert_string_equal(n.prefix, "run");
    assert_int_equal(n.jobno, 3);
    pb_log_name_parse("a_b_lat.log.gz", &n);
    assert_int_equal(n.kind, PB_LOG_LAT);
    assert_string_equal(n.prefix, "a_b");
    assert_int_equal(n.jobno, 0);
    pb_log_name_parse("j_slat.12.log", &n);
    assert_int_equal(n.kind, PB_LOG_SLAT);
    pb_log_name_parse("j_iops.1.log", &n);
    assert_int_equal(n.kind, PB_LOG_IOPS);
    pb_log_name_parse("_bw.1.log", &n); /* no prefix */
    assert_int_equal(n.kind, PB_LOG_UNKNOWN);
    pb_log_name_parse("bw.log", &n);
    assert_int_equal(n.kind, PB_LOG_UNKNOWN);
    pb_log_name_parse("x_bw.1.txt", &n);
    assert_int_equal(n.kind, PB_LOG_UNKNOWN);
}

/* A per-I/O clat log of `secs` seconds, one read a ms of 1000 + t % 7
 * ns, parsed from a buffer in a folder without a JSON. */
static struct pb_resultset *per_io(long secs)
{
    struct pb_buf b = PB_BUF_INIT;
    for (long t = 0; t < secs * 1000; t++)
        pb_buf_printf(&b, "%ld, %ld, 0, 4096, 0\n", t, 1000 + t % 7);
    struct pb_resultset *set = pb_resultset_new();
    struct pb_err err = {0};
    assert_int_equal(pb_parser_run(&pb_parser_fio_log,
                                   "/nonexistent-pb/j_clat.1.log", b.s, b.len,
                                   set, &err),
                     PB_OK);
    pb_buf_release(&b);
    return set;
}

static void test_bucket_width(void **state)
{
    (void)state;
    /* 2,000 buckets at most: 19 s fit in 10 ms ones, 30 s need 20 ms,
     * 100 s 100 ms (widths 10, 20, 100, 200, 1000, ...) */
    static const struct {
        long secs, width;
        size_t npts;
    } cases[] = {{19, 10, 1900}, {30, 20, 1500}, {100, 100, 1000},
                 {250, 200, 1250}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_resultset *set = per_io(cases[i].secs);
        assert_int_equal(set->nseries, 1);
        const struct pb_series *s = &set->series[0];
        assert_string_equal(s->kind, "io");
        assert_int_equal(s->width_ms, cases[i].width);
        assert_int_equal(s->npts, cases[i].npts);
        /* every bucket: width I/Os, t at its end; the first of 10 ms:
         * t 0..9 give 1000..1006, 1000..1002: sum 10024, mean 1002.4 */
        assert_int_equal(s->pts[0].n, cases[i].width);
        assert_int_equal(s->pts[0].t_ms, cases[i].width);
        if (cases[i].width == 10) {
            assert_near(s->pts[0].value, 1002.4, 1e-9);
            assert_near(s->pts[0].max, 1006, 0);
            assert_near(s->pts[0].min, 1000, 0);
            /* the 5th of 10 is 1002, in the bin [992, 1024) of 16 per
             * octave: its midpoint 1008, clamped to the bucket's max */
            assert_near(s->pts[0].p50, 1006, 0);
        }
        /* summaries over every I/O: 1000..1006 evenly, mean 1003 */
        assert_string_equal(set->results[s->result].metric,
                            "read_clat_log_mean");
        assert_near(set->results[s->result].value, 1003, 0.01);
        assert_int_equal(set->results[s->result].samples,
                         cases[i].secs * 1000);
        pb_resultset_free(set);
    }
}

static void test_hist_pct(void **state)
{
    (void)state;
    /* fiologparser_hist.py weighted_percentile: cdf = 100 * (cumsum(w) -
     * w/2) / sum(w) = 25, 75 for weights 1, 1 at values 10, 20; numpy
     * interp: 50 -> 15, below 25 -> 10, above 75 -> 20 */
    double v[] = {10, 20, 30};
    uint64_t w[] = {1, 1, 0};
    assert_near(pb_log_hist_pct(v, w, 3, 50), 15, 1e-12);
    assert_near(pb_log_hist_pct(v, w, 3, 10), 10, 1e-12);
    /* cdf of the empty third bin is 100: 90 lies between 75 and 100 */
    assert_near(pb_log_hist_pct(v, w, 3, 90), 20 + (90 - 75) * 10 / 25.0,
                1e-12);
    uint64_t z[] = {0, 0, 0};
    assert_true(isnan(pb_log_hist_pct(v, z, 3, 50)));
}

/* The stream path: the fixture's .gz gives what the plain bytes give. */
static void test_stream_gz(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/pb-test-fio-log-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char *plain = pb_xasprintf("%s/j_clat.1.log", tmpl);
    char *gz = pb_xasprintf("%s/k_clat.1.log.gz", tmpl);
    gzFile in = gzopen(FX "avg0_clat.1.log.gz", "rb");
    assert_non_null(in);
    FILE *out = fopen(plain, "w");
    gzFile gout = gzopen(gz, "wb");
    char buf[4096];
    int n;
    while ((n = gzread(in, buf, sizeof(buf))) > 0) {
        fwrite(buf, 1, (size_t)n, out);
        gzwrite(gout, buf, (unsigned)n);
    }
    gzclose(in);
    fclose(out);
    gzclose(gout);
    struct pb_resultset *a = NULL, *b = NULL;
    struct pb_err err = {0};
    assert_int_equal(pb_ingest_file(plain, NULL, &a, &err), PB_OK);
    assert_int_equal(pb_ingest_file(gz, NULL, &b, &err), PB_OK);
    assert_string_equal(a->sha256, b->sha256); /* the bytes, unpacked */
    assert_int_equal(a->nseries, 2);
    assert_int_equal(a->series[0].npts, b->series[0].npts);
    assert_int_equal(a->series[0].npts, 200);
    assert_near(a->results[0].value, 233554.0325, 1e-6);
    assert_near(b->results[0].value, 233554.0325, 1e-6);
    /* the buffer path agrees with the stream path */
    char *all = NULL;
    size_t len = 0;
    assert_int_equal(pb_read_file(plain, &all, &len, &err), PB_OK);
    struct pb_resultset *c = NULL;
    assert_int_equal(pb_ingest_buffer(plain, all, len, NULL, &c, &err),
                     PB_OK);
    assert_string_equal(a->sha256, c->sha256);
    assert_int_equal(c->series[1].npts, a->series[1].npts);
    assert_near(c->series[1].pts[199].value, a->series[1].pts[199].value, 0);
    free(all);
    pb_resultset_free(a);
    pb_resultset_free(b);
    pb_resultset_free(c);
    unlink(plain);
    unlink(gz);
    rmdir(tmpl);
    free(plain);
    free(gz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),     cmocka_unit_test(test_names),
        cmocka_unit_test(test_bucket_width), cmocka_unit_test(test_hist_pct),
        cmocka_unit_test(test_stream_gz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
