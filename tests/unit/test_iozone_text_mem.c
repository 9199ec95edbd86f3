/* Unit tests for the iozone text parser on inputs built in memory: the
 * decisions of the file header (usec mode, machine, Excel report beside
 * tables, extra columns, errors and their lines), and hostile inputs
 * (empty, truncated, garbage, huge numbers, HTML, CRLF, NUL bytes,
 * parallel parses), sniffing. Corpus and fixtures: test_iozone_text.c. */
#include "tests/unit/iozone_help.h"

#include <pthread.h>
#include <stdint.h>

/* ==== decisions on in-memory samples ==== */

static const char HDR2[] =
    "              kB  reclen    write  rewrite    read    reread    read"
    "     write     read   rewrite      read   fwrite frewrite    fread  "
    "freread\n";

static void test_usec_mode_and_machine(void **state)
{
    (void)state;
    char buf[2048];
    snprintf(buf, sizeof(buf),
             "\tIozone: Performance Test of File I/O\n"
             "\t        Version $Revision: 3.465 $\n\n"
             "\tRun began: Mon Sep 26 07:12:57 2016\n\n"
             "\tMicroseconds/op Mode. Output is in microseconds per "
             "operation.\n"
             "\tMachine = Linux <script>alert(1)</script> 4.4.0 #1 SMP "
             "x86_64 GNU/Linux\n\n"
             "\tCommand line used: iozone -N -M -s 64k -r 4k -i 0 "
             "<b>x</b>\n%s"
             "              64       4       12       10\n",
             HDR2);
    struct pb_resultset *set;
    struct pb_err err = {0};
    assert_int_equal(parse_str(buf, &set, &err), PB_OK);
    assert_int_equal(set->nconfigs, 1);
    assert_string_equal(set->configs[0].label, "<script>alert(1)</script>");
    const char *t = "iozone file_size=64k record_size=4k";
    expect(set, t, "write_latency", NULL, 12000, "ns");
    expect(set, t, "rewrite_latency", NULL, 10000, "ns");
    assert_int_equal(find(set, t, "write_latency", NULL)->direction,
                     PB_DIR_LOWER);
    assert_string_equal(find(set, t, "write_latency", NULL)->host,
                        "<script>alert(1)</script>");
    assert_string_equal(th_fact_any(set, "iozone_command"),
                        "iozone -N -M -s 64k -r 4k -i 0 <b>x</b>");
    assert_non_null(strstr(th_fact_any(set, "uname"), "x86_64 GNU/Linux"));
    pb_resultset_free(set);
}

static void test_report_ignored_when_table(void **state)
{
    (void)state;
    char buf[2048];
    snprintf(buf, sizeof(buf),
             "%s"
             "              64       4   100000   200000\n"
             "\niozone test complete.\nExcel output is below:\n\n"
             "\"Writer report\"\n        \"4\"  \n\"64\"   111111 \n\n"
             "\"Fread report\"\n        \"4\"  \n\"64\"   222222 \n",
             HDR2);
    struct pb_resultset *set;
    struct pb_err err = {0};
    assert_int_equal(parse_str(buf, &set, &err), PB_OK);
    assert_int_equal(set->nresults, 2);
    expect_bw(set, "iozone file_size=64k record_size=4k", "write_bw", NULL,
              100000);
    assert_int_equal(count(set, NULL, "fread_bw", NULL), 0);
    pb_resultset_free(set);
}

static void test_extra_columns(void **state)
{
    (void)state;
    char buf[2048];
    /* a later version with one more column after freread */
    snprintf(buf, sizeof(buf),
             "              kB  reclen    write  rewrite    read    reread    "
             "read     write     read   rewrite      read   fwrite frewrite    "
             "fread  freread    pread\n"
             "              64       4        1        2        3        4    "
             "     5         6        7         8         9       10       11  "
             "     12       13       14\n");
    struct pb_resultset *set;
    struct pb_err err = {0};
    assert_int_equal(parse_str(buf, &set, &err), PB_OK);
    assert_int_equal(set->nresults, 13);
    const char *t = "iozone file_size=64k record_size=4k";
    expect_bw(set, t, "write_bw", NULL, 1);
    expect_bw(set, t, "random_read_bw", NULL, 5);
    expect_bw(set, t, "freread_bw", NULL, 13);
    pb_resultset_free(set);
}

static void test_errors_and_lines(void **state)
{
    (void)state;
    struct pb_resultset *set;
    struct pb_err err = {0};
    assert_int_equal(parse_str("", &set, &err), PB_EINPUT);
    assert_string_equal(err.msg, "empty file");
    pb_err_clear(&err);
    assert_int_equal(parse_str(" \n\t\n", &set, &err), PB_EINPUT);
    pb_err_clear(&err);
    assert_int_equal(parse_str("hello\nworld\n", &set, &err), PB_EINPUT);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.msg, "no iozone results"));
    pb_err_clear(&err);

    char buf[1024];
    snprintf(buf, sizeof(buf), "junk\n\n%s\n", HDR2);
    assert_int_equal(parse_str(buf, &set, &err), PB_EINPUT);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "auto-mode table header without result "
                                 "rows (truncated output?)");
    pb_err_clear(&err);

    /* two numbers under "write" (the second ends at column 37) */
    snprintf(buf, sizeof(buf), "%s              64       4   100000 12\n",
             HDR2);
    assert_int_equal(parse_str(buf, &set, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 35);
    assert_non_null(strstr(err.msg, "\"write\""));
    pb_err_clear(&err);

    snprintf(buf, sizeof(buf),
             "\tChildren see throughput for  2 readers \t\t= "
             "123456789012345678901234.00 kB/sec\n");
    assert_int_equal(parse_str(buf, &set, &err), PB_EINPUT);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.msg, "is too large"));
    pb_err_clear(&err);

    assert_int_equal(parse_str("\"Reader report\"\n\"64\"   1 2\n", &set,
                               &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "\"Reader report\" has rows but no line "
                                 "of record sizes");
}

/* ==== hostile input ==== */

static char *slurp(const char *path, size_t *len)
{
    char *buf;
    struct pb_err err = {0};
    if (pb_read_file(path, &buf, len, &err) != PB_OK)
        return NULL;
    return buf;
}

static const char *const all_files[] = {
    CORPUS "iozone-3.327_auto_ext4_rovanion.txt",
    CORPUS "iozone-3.430_write-only-i0_trailing-space-padding_joyfeel.txt",
    CORPUS "iozone-3.434_auto_minmax-reclen_psteinb.txt",
    CORPUS "iozone-3.465_auto_odirect_ilkermanap.txt",
    CORPUS "iozone-3.506_throughput-t4_multi-run-with-echo-labels_oscomp.txt",
    CORPUS "iozone-R-excel-report-only_toby1984.txt",
    CORPUS "iozone-partial-no-banner_128G_shmuma-perfdb.txt",
    FIX "iozone-3.506_auto-R_n512k-g1m.txt",
    FIX "iozone-R-report-only_n16m-g32m-q64k.txt",
    FIX "iozone-3.506_throughput-t2.txt",
    FIX "iozone-3.492_junk-around_i0-i2-blank-cells.txt",
    FIX "iozone-3.327_auto_abutting-8-digit-values.txt",
    FIX "iozone-3.263_ops-mode_odirect.txt",
};
#define NFILES (sizeof(all_files) / sizeof(all_files[0]))

/* Either a clean set with results or an input error with a line. */
static void parse_any(const char *buf, size_t len)
{
    struct pb_resultset *set;
    struct pb_err err = {0};
    int rc = parse_buf(buf, len, &set, &err);
    if (rc == PB_OK) {
        assert_true(set->nresults > 0);
        for (size_t i = 0; i < set->nresults; i++)
            assert_true(set->results[i].test < set->ntests);
        pb_resultset_free(set);
    } else {
        assert_int_equal(rc, PB_EINPUT);
        assert_true(err.line >= 0);
        assert_true(err.msg[0] != '\0');
    }
}

static void test_truncated(void **state)
{
    (void)state;
    for (size_t f = 0; f < NFILES; f++) {
        size_t len;
        char *buf = slurp(all_files[f], &len);
        if (!buf)
            continue;
        for (int p = 0; p <= 10; p++) {
            size_t n = len * (size_t)p / 10;
            char *cut = pb_xmalloc(n + 1);
            memcpy(cut, buf, n);
            cut[n] = '\0';
            parse_any(cut, n);
            free(cut);
        }
        free(buf);
    }
}

static void test_garbage(void **state)
{
    (void)state;
    uint32_t x = 12345;
    char *buf = pb_xmalloc(65536);
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < 65536; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (char)(x >> 16);
        }
        parse_any(buf, 65536);
    }
    /* digits and spaces only under a header: any table shape */
    size_t h = strlen(HDR2);
    memcpy(buf, HDR2, h);
    for (int round = 0; round < 50; round++) {
        for (size_t i = h; i < 4096; i++) {
            x = x * 1103515245u + 12345u;
            unsigned v = (x >> 16) % 16;
            buf[i] = v < 9 ? (char)('0' + v) : v < 14 ? ' ' : '\n';
        }
        parse_any(buf, 4096);
    }
    free(buf);

    /* a row of huge digit runs */
    char big[4096];
    int n = snprintf(big, sizeof(big), "%s              64       4 ", HDR2);
    memset(big + n, '9', 400);
    strcpy(big + n + 400, "\n");
    parse_any(big, strlen(big));
}

static void test_crlf_and_nul(void **state)
{
    (void)state;
    size_t len;
    char *buf = slurp(FIX "iozone-3.506_auto-R_n512k-g1m.txt", &len);
    assert_non_null(buf);
    char *crlf = pb_xmalloc(2 * len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = buf[i];
    }
    struct pb_resultset *a, *b;
    struct pb_err err = {0};
    assert_int_equal(parse_buf(buf, len, &a, &err), PB_OK);
    assert_int_equal(parse_buf(crlf, k, &b, &err), PB_OK);
    assert_int_equal(a->nresults, b->nresults);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_string_equal(a->results[i].metric, b->results[i].metric);
        assert_near(a->results[i].value, b->results[i].value, 0);
    }
    assert_string_equal(th_fact_any(a, "iozone_command"), th_fact_any(b, "iozone_command"));
    pb_resultset_free(a);
    pb_resultset_free(b);
    free(crlf);

    /* NUL bytes everywhere, one at a time */
    for (size_t i = 0; i < len; i += 97) {
        char save = buf[i];
        buf[i] = '\0';
        parse_any(buf, len);
        buf[i] = save;
    }
    free(buf);
}

struct job {
    const char *buf;
    size_t len;
    size_t nresults;
    double sum;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    for (int r = 0; r < 20; r++) {
        struct pb_resultset *set = pb_resultset_new();
        struct pb_err err = {0};
        if (pb_parser_run(parser(), "mem", j->buf, j->len, set, &err) == PB_OK) {
            double s = 0;
            for (size_t i = 0; i < set->nresults; i++)
                s += set->results[i].value;
            j->nresults = set->nresults;
            j->sum = s;
        }
        pb_resultset_free(set);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    const char *path =
        CORPUS "iozone-3.506_throughput-t4_multi-run-with-echo-labels_oscomp.txt";
    skip_unless_exists(path);
    size_t len;
    char *buf = slurp(path, &len);
    assert_non_null(buf);
    pthread_t th[8];
    struct job jobs[8];
    for (int i = 0; i < 8; i++) {
        jobs[i] = (struct job){buf, len, 0, 0};
        assert_int_equal(pthread_create(&th[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].nresults, 53);
        assert_near(jobs[i].sum, jobs[0].sum, 0);
    }
    free(buf);
}

static void test_sniff(void **state)
{
    (void)state;
    const struct pb_parser *p = parser();
    assert_int_equal(p->sniff("", 0), 0);
    static const char fio[] = "{\n  \"fio version\" : \"fio-3.33\",\n";
    assert_int_equal(p->sniff(fio, sizeof(fio) - 1), 0);
    static const char text[] = "Run status group 0 (all jobs):\n   READ: "
                               "bw=1MiB/s\n";
    assert_int_equal(p->sniff(text, sizeof(text) - 1), 0);
    static const char csv[] = "format_version,bonnie_version,name\n";
    assert_int_equal(p->sniff(csv, sizeof(csv) - 1), 0);
    assert_true(p->sniff(HDR2, strlen(HDR2)) >= 80);
    static const char tp[] = "$ ./run.sh\n\tChildren see throughput for  1 "
                             "initial writers \t=  907733.81 kB/sec\n";
    assert_true(p->sniff(tp, sizeof(tp) - 1) >= 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usec_mode_and_machine),
        cmocka_unit_test(test_report_ignored_when_table),
        cmocka_unit_test(test_extra_columns),
        cmocka_unit_test(test_errors_and_lines),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_crlf_and_nul),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
