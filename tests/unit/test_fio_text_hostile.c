/* Unit tests of the fio normal-output parser (ingest/fio/fio_text.c) on
 * hostile and broken inputs: the bad/ fixtures, empty and garbage input,
 * truncation at every byte, which error of several comes first, CRLF,
 * NUL, HTML and huge numbers, fio 2.0's layout, parsing in threads. Fixtures and corpus: test_fio_text.c. */
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <unistd.h>

#define FX     PB_FIXTURES_DIR "/fio-text/"
#define CORPUS PB_CORPUS_DIR "/fio-text/"
#define TEXTP  (&pb_parser_fio_text)

/* ==== hostile and broken inputs ==== */

/* A parse of len bytes of buf as file "mem". */
static int parse_mem(const char *buf, size_t len, struct pb_err *err,
                     struct pb_resultset **out)
{
    return th_parse(TEXTP, "mem", buf, len, out, err);
}

static void expect_error(const char *buf, size_t len, long line,
                         const char *msg)
{
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(parse_mem(buf, len, &err, &s), PB_EINPUT);
    assert_null(s);
    assert_int_equal(err.code, PB_EINPUT);
    assert_int_equal(err.line, line);
    if (msg)
        assert_string_equal(err.msg, msg);
}

static void test_bad_fixtures(void **state)
{
    (void)state;
    size_t len;
    char *buf =
        th_slurp(FX "bad/fio-3.33_randread_truncated-in-percentiles.txt", &len);
    expect_error(buf, len, 5,
                 "job \"rr\" is incomplete: no \"cpu\" line (truncated "
                 "output?)");
    free(buf);
    buf =
        th_slurp(FX "bad/fio-3.33_randtrim_regular-file_failed-job.txt", &len);
    expect_error(buf, len, 7,
                 "job \"trimfail\" failed with error 25 (Inappropriate ioctl "
                 "for device) and did no I/O");
    free(buf);
    buf = th_slurp(FX "bad/fio-3.33_engine-not-loadable.txt", &len);
    expect_error(buf, len, 1,
                 "fio failed: \"fio: engine nosuchengine not loadable\"");
    free(buf);
}

static void test_empty_and_garbage(void **state)
{
    (void)state;
    expect_error("", 0, 0, "empty file");
    expect_error(" \n\t\n", 4, 0, "file holds only white space");
    const char *prose = "hello, these are my notes\n";
    expect_error(prose, strlen(prose), 0,
                 "no fio results found (no \"read:\", \"write:\" or "
                 "\"trim:\" lines)");
    /* binary garbage, fixed seed */
    unsigned char g[4096];
    th_garbage(g, sizeof(g), 12345);
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(parse_mem((const char *)g, sizeof(g), &err, &s),
                     PB_EINPUT);
    assert_int_equal(pb_parser_fio_text.sniff((const char *)g, sizeof(g)), 0);
    /* a direction line cut in the middle */
    const char *cut = "rr: (groupid=0, jobs=1): err= 0: pid=1: now\n"
                      "  read: IOPS=21.3k, BW=83.3Mi\n";
    expect_error(cut, strlen(cut), 2,
                 "cannot read the direction line \"read: IOPS=21.3k, "
                 "BW=83.3Mi\"");
    /* a very long line is skipped, not matched */
    size_t big = 200000;
    char *b = malloc(big + 64);
    memset(b, 'a', big);
    strcpy(b + big, "\n  read: IOPS=10, BW=40.0KiB/s (41.0kB/s)\n");
    assert_int_equal(parse_mem(b, strlen(b), &err, &s), PB_OK);
    assert_near(th_val(s, "job1", "read_iops"), 10, 0);
    pb_resultset_free(s);
    free(b);
}

/* Every prefix at 10% steps of real files: an error or a set, never a
 * crash, and errors point inside the text. */
static void truncate_file(const char *path)
{
    size_t len;
    char *buf = th_slurp(path, &len);
    long lines = pb_line_of(buf, len);
    for (int k = 0; k <= 10; k++) {
        size_t n = len * (size_t)k / 10;
        char *cut = pb_xstrndup(buf, n);
        struct pb_err err;
        struct pb_resultset *s = NULL;
        int rc = parse_mem(cut, n, &err, &s);
        if (rc == PB_OK) {
            assert_non_null(s);
            assert_true(s->nresults > 0);
            for (size_t i = 0; i < s->nresults; i++)
                if (s->results[i].has_value)
                    assert_true(isfinite(s->results[i].value));
            pb_resultset_free(s);
        } else {
            assert_int_equal(rc, PB_EINPUT);
            assert_true(err.line >= 0 && err.line <= lines);
            assert_true(err.msg[0] >= 'a' && err.msg[0] <= 'z');
        }
        free(cut);
    }
    free(buf);
}

static void test_truncated(void **state)
{
    (void)state;
    static const char *const fx[] = {
        "fio-3.33_randread_4k_qd4_libaio.txt",
        "fio-3.33_randrw70_4k_qd8_libaio.txt",
        "fio-3.33_randwrite_8k_numjobs2_no-group-reporting.txt",
        "fio-3.33_notes_cmdlines-and-iops-lines.txt",
        "fio-3.33_randread_2-runs-appended.txt",
    };
    for (size_t i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
        char path[512];
        snprintf(path, sizeof(path), FX "%s", fx[i]);
        truncate_file(path);
    }
    if (access(CORPUS, R_OK) == 0) {
        truncate_file(CORPUS "fio-2.16_randwrite_6groups_24procs_ceph_"
                             "chris-sanders.txt");
        truncate_file(CORPUS "fio-3.16_randread_32jobs_8-runs-appended_"
                             "mvdiopt.txt");
        truncate_file(CORPUS "fio-3.41_randrw-80-20_256k_in-pod-log_"
                             "rafmoshe.txt");
    }
    /* cut inside run 2 of an appended file: the whole file is refused */
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_randread_2-runs-appended.txt", &len);
    const char *second = strstr(strstr(buf, "(groupid=") + 1, "(groupid=");
    assert_non_null(second);
    size_t n = (size_t)(strstr(second, "clat percentiles") - buf);
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(parse_mem(buf, n, &err, &s), PB_EINPUT);
    assert_int_equal(err.line, pb_line_of(buf, (size_t)(second - buf)));
    free(buf);
}

static long nlines(const char *s, size_t n)
{
    long k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* ok without its cpu line (cut short), or with its read line unreadable */
static char *variant(const char *ok, int what)
{
    const char *cpu = strstr(ok, "  cpu  "), *rd = strstr(ok, "  read: IOPS=");
    assert_non_null(cpu);
    assert_non_null(rd);
    if (what == 'c')
        return pb_xasprintf("%.*s%s", (int)(cpu - ok), ok,
                            strchr(cpu, '\n') + 1);
    return pb_xasprintf("%.*s  read: IOPS=garbage BW=??%s", (int)(rd - ok),
                        ok, strchr(rd, '\n'));
}

/* The error of the first bad line: a line the scanner cannot read wins
 * over a job cut short before it (the first pass reads on past that
 * job); a job cut short over jobs that failed; of jobs that failed, the
 * first. Each file also ends in a good or failed job. */
static void test_error_order(void **state)
{
    (void)state;
    size_t len, flen;
    char *ok = th_slurp(FX "fio-3.33_randread_4k_qd4_libaio.txt", &len);
    char *failed =
        th_slurp(FX "bad/fio-3.33_randtrim_regular-file_failed-job.txt", &flen);
    char *cut = variant(ok, 'c'), *bad = variant(ok, 'r');
    long okl = nlines(ok, len), cutl = okl - 1, fl = nlines(failed, flen);
    assert_int_equal(okl, 28);
    assert_int_equal(fl, 18);
    const char *incomplete =
        "job \"rr\" is incomplete: no \"cpu\" line (truncated output?)";
    const char *unreadable =
        "cannot read the direction line \"read: IOPS=garbage BW=??\"";
    const char *trimfail = "job \"trimfail\" failed with error 25 "
                           "(Inappropriate ioctl for device) and did no I/O";
    struct {
        char *buf;
        long line;
        const char *msg;
    } c[] = {
        {pb_xasprintf("%s%s", cut, bad), cutl + 6, unreadable},
        {pb_xasprintf("%s%s", bad, cut), 6, unreadable},
        {pb_xasprintf("%s%s", cut, ok), 5, incomplete},
        {pb_xasprintf("%s%s%s", ok, cut, ok), okl + 5, incomplete},
        {pb_xasprintf("%s%s", failed, cut), fl + 5, incomplete},
        {pb_xasprintf("%s%s", failed, failed), 7, trimfail},
    };
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        expect_error(c[i].buf, strlen(c[i].buf), c[i].line, c[i].msg);
        free(c[i].buf);
    }
    free(cut);
    free(bad);
    free(failed);
    free(ok);
}

static void test_crlf_nul_html_huge(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_randread_4k_qd4_libaio.txt", &len);
    /* CRLF gives the same results */
    struct pb_buf crlf = PB_BUF_INIT;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n')
            pb_buf_putc(&crlf, '\r');
        pb_buf_putc(&crlf, buf[i]);
    }
    struct pb_err err;
    struct pb_resultset *a = NULL, *b = NULL;
    assert_int_equal(parse_mem(buf, len, &err, &a), PB_OK);
    assert_int_equal(parse_mem(crlf.s, crlf.len, &err, &b), PB_OK);
    assert_int_equal(a->nresults, b->nresults);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_string_equal(a->results[i].metric, b->results[i].metric);
        assert_near(a->results[i].value, b->results[i].value, 0);
    }
    assert_string_equal(a->tests[0].name, b->tests[0].name);
    pb_resultset_free(a);
    pb_resultset_free(b);
    pb_buf_release(&crlf);

    /* NUL bytes inside lines: no crash */
    char *nul = pb_xstrndup(buf, len);
    for (size_t i = 7; i < len; i += 97)
        nul[i] = '\0';
    a = NULL;
    (void)parse_mem(nul, len, &err, &a);
    pb_resultset_free(a);
    free(nul);
    free(buf);

    /* HTML in the job name is kept as plain text */
    const char *html =
        "<script>alert(1)</script>: (g=0): rw=read, bs=(R) 4096B-4096B, "
        "(W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
        "<script>alert(1)</script>: (groupid=0, jobs=1): err= 0: pid=1: x\n"
        "  read: IOPS=100, BW=400KiB/s (410kB/s)(400KiB/1000msec)\n"
        "  cpu          : usr=1.00%, sys=2.00%, ctx=1, majf=0, minf=1\n";
    assert_int_equal(parse_mem(html, strlen(html), &err, &a), PB_OK);
    assert_string_equal(a->configs[0].label, "<script>alert(1)</script>");
    assert_near(th_val(a, "<script>alert(1)</script>", "read_bw"), 400 * 1024,
                0);
    pb_resultset_free(a);

    /* huge numbers never become inf; 40+ digits are dropped */
    const char *huge =
        "x: (groupid=0, jobs=1): err= 0: pid=1: x\n"
        "  read: IOPS=10, "
        "BW=99999999999999999999999999999999999999EiB/s (1MB/s)"
        "(99999999999999999999999999999999999999999999999999KiB/1msec)\n"
        "    clat (msec): min=1, max=99999999999999999999999999999999999.9G, "
        "avg=1.5, stdev=0\n"
        "  cpu          : usr=1.00%, sys=2.00%, ctx=1, majf=0, minf=1\n";
    assert_int_equal(parse_mem(huge, strlen(huge), &err, &a), PB_OK);
    for (size_t i = 0; i < a->nresults; i++)
        if (a->results[i].has_value)
            assert_true(isfinite(a->results[i].value));
    assert_near(th_val(a, "x", "read_clat_mean"), 1.5e6, 0);
    pb_resultset_free(a);
}

/* fio 2.0's layout (written from its show_ddir_status format): "iops=N ,"
 * and a two-part bs in the header. */
static void test_fio20_layout(void **state)
{
    (void)state;
    const char *t =
        "seq: (g=0): rw=read, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=32\n"
        "fio-2.0.8\n"
        "seq: (groupid=0, jobs=1): err= 0: pid=2208\n"
        "  read : io=1024.0MB, bw=172861KB/s, iops=43215 , runt=  6066msec\n"
        "    clat (usec): min=84, max=11019, avg=738.92, stdev=198.48\n"
        "  cpu          : usr=7.13%, sys=31.19%, ctx=40432, majf=0, minf=56\n"
        "     issued    : total=r=262144/w=0/d=0, short=r=0/w=0/d=0\n";
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(parse_mem(t, strlen(t), &err, &s), PB_OK);
    assert_string_equal(s->tool_version, "fio-2.0.8");
    assert_string_equal(th_test_of(s, "seq")->name,
                        "fio read bs=4k iodepth=32");
    assert_near(th_val(s, "seq", "read_bytes"), 262144.0 * 4096, 0);
    assert_near(th_val(s, "seq", "read_iops"), 262144e3 / 6066, 1e-9);
    assert_near(th_val(s, "seq", "read_bw"), floor(262144.0 * 4096e3 / 6066),
                0);
    assert_near(th_val(s, "seq", "read_clat_mean"), 738920, 1e-9);
    assert_near(th_val(s, "seq", "sys_cpu"), 31.19, 1e-12);
    pb_resultset_free(s);
}

/* parse runs on several threads at once */
static void test_threads(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_notes_cmdlines-and-iops-lines.txt", &len);
    struct pb_resultset *ref = NULL;
    struct pb_err err;
    assert_int_equal(parse_mem(buf, len, &err, &ref), PB_OK);
    th_parse_in_threads(TEXTP, buf, len, ref->nresults);
    pb_resultset_free(ref);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_empty_and_garbage),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_error_order),
        cmocka_unit_test(test_crlf_nul_html_huge),
        cmocka_unit_test(test_fio20_layout),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
