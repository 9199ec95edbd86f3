/* Unit tests for the iozone text parser: every corpus file and fixture
 * with exact values (kB/s x 1024), the decisions of the file header, and
 * hostile inputs (empty, truncated, garbage, huge numbers, HTML, CRLF,
 * NUL bytes, parallel parses). */
#include "tests/unit/testhelp.h"

#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "ingest/ingest.h"

#define CORPUS PB_CORPUS_DIR "/iozone/"
#define FIX PB_FIXTURES_DIR "/iozone/"

/* ==== helpers ==== */

static const struct pb_parser *parser(void)
{
    const struct pb_parser *p = pb_ingest_parser_by_name("iozone");
    assert_non_null(p);
    return p;
}

/* Parse buf with the iozone parser directly. Returns the code; *out is
 * the set on success, NULL on error. */
static int parse_buf(const char *buf, size_t len, struct pb_resultset **out,
                     struct pb_err *err)
{
    struct pb_resultset *set = pb_resultset_new();
    set->format = "iozone";
    int rc = parser()->parse("mem", buf, len, set, err);
    if (rc) {
        pb_resultset_free(set);
        *out = NULL;
        return rc;
    }
    *out = set;
    return rc;
}

static int parse_str(const char *s, struct pb_resultset **out,
                     struct pb_err *err)
{
    return parse_buf(s, strlen(s), out, err);
}

/* Read and parse a file through the real entry point (sniffing). */
static struct pb_resultset *load(const char *path)
{
    skip_unless_exists(path);
    char *buf;
    size_t len;
    struct pb_err err = {0};
    assert_int_equal(pb_read_file(path, &buf, &len, &err), PB_OK);
    const struct pb_parser *p = pb_ingest_find_parser(buf, len);
    assert_non_null(p);
    assert_string_equal(p->name, "iozone");
    struct pb_resultset *set = NULL;
    int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
    if (rc)
        print_error("%s:%ld:%ld: %s\n", err.path, err.line, err.col,
                    err.msg);
    assert_int_equal(rc, PB_OK);
    free(buf);
    return set;
}

static int streq0(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Results of (test name, metric, job) in set; job NULL matches NULL. */
static size_t count(const struct pb_resultset *set, const char *test,
                    const char *metric, const char *job)
{
    size_t n = 0;
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if ((!test || !strcmp(set->tests[r->test].name, test)) &&
            !strcmp(r->metric, metric) && streq0(r->job, job))
            n++;
    }
    return n;
}

static const struct pb_result *find(const struct pb_resultset *set,
                                    const char *test, const char *metric,
                                    const char *job)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (!strcmp(set->tests[r->test].name, test) &&
            !strcmp(r->metric, metric) && streq0(r->job, job))
            return r;
    }
    print_error("no result %s / %s / %s\n", test, metric, job ? job : "-");
    fail();
    return NULL;
}

/* Exactly one result, with this value and unit. */
static void expect(const struct pb_resultset *set, const char *test,
                   const char *metric, const char *job, double value,
                   const char *unit)
{
    assert_int_equal(count(set, test, metric, job), 1);
    const struct pb_result *r = find(set, test, metric, job);
    assert_true(r->has_value);
    assert_near(r->value, value, fabs(value) * 1e-12);
    assert_string_equal(r->unit, unit);
}

static void expect_bw(const struct pb_resultset *set, const char *test,
                      const char *metric, const char *job, double kbs)
{
    expect(set, test, metric, job, kbs * 1024, "B/s");
    assert_int_equal(find(set, test, metric, job)->direction, PB_DIR_HIGHER);
}

static const char *test_param(const struct pb_resultset *set,
                              const char *test, const char *key)
{
    for (size_t i = 0; i < set->ntests; i++) {
        const struct pb_test *t = &set->tests[i];
        if (strcmp(t->name, test) != 0)
            continue;
        assert_string_equal(t->tool, "iozone");
        for (size_t j = 0; j < t->nparams; j++)
            if (!strcmp(t->params[j].key, key))
                return t->params[j].value;
        return NULL;
    }
    print_error("no test %s\n", test);
    fail();
    return NULL;
}

static void corpus_dir(void)
{
    skip_unless_exists(PB_CORPUS_DIR "/iozone");
}

/* ==== corpus ==== */

static void test_corpus_3327_ext4(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set = load(CORPUS "iozone-3.327_auto_ext4_rovanion.txt");
    assert_string_equal(set->tool_version, "iozone-3.327");
    assert_string_equal(th_fact_any(set, "iozone_version"), "3.327");
    assert_null(th_fact_any(set, "flag.no_version"));
    assert_string_equal(th_fact_any(set, "run_began"), "Sun Nov 21 03:38:06 2010");
    assert_non_null(strstr(th_fact_any(set, "iozone_command"),
                           "-a -f /RHTSspareLUN1/ext4 -n 4k -g 4096m"));
    assert_int_equal(set->nconfigs, 1);
    /* no Machine = line: the generic label names its file and version */
    assert_string_equal(set->configs[0].label,
                        "iozone (file iozone-3.327_auto_ext4_rovanion, "
                        "iozone-3.327)");
    assert_int_equal(set->nresults, 163 * 13);
    /* first row: 4 4 200191 267128 401314 806376 65585 247430 40445
     * 306121 50563 221318 306121 66627 67977 */
    const char *t = "iozone file_size=4k record_size=4k";
    assert_string_equal(test_param(set, t, "file_size"), "4096");
    assert_string_equal(test_param(set, t, "record_size"), "4096");
    assert_null(test_param(set, t, "direct"));
    expect_bw(set, t, "write_bw", NULL, 200191);
    expect_bw(set, t, "rewrite_bw", NULL, 267128);
    expect_bw(set, t, "read_bw", NULL, 401314);
    expect_bw(set, t, "reread_bw", NULL, 806376);
    expect_bw(set, t, "random_read_bw", NULL, 65585);
    expect_bw(set, t, "random_write_bw", NULL, 247430);
    expect_bw(set, t, "bkwd_read_bw", NULL, 40445);
    expect_bw(set, t, "record_rewrite_bw", NULL, 306121);
    expect_bw(set, t, "stride_read_bw", NULL, 50563);
    expect_bw(set, t, "fwrite_bw", NULL, 221318);
    expect_bw(set, t, "frewrite_bw", NULL, 306121);
    expect_bw(set, t, "fread_bw", NULL, 66627);
    expect_bw(set, t, "freread_bw", NULL, 67977);
    /* 32 32 184922 1033989 ...: a 7-digit value right after a 6-digit */
    expect_bw(set, "iozone file_size=32k record_size=32k", "rewrite_bw",
              NULL, 1033989);
    /* last row: 4194304 16384 1439589 ... 102409 */
    t = "iozone file_size=4G record_size=16M";
    assert_string_equal(test_param(set, t, "file_size"), "4294967296");
    assert_string_equal(test_param(set, t, "record_size"), "16777216");
    expect_bw(set, t, "write_bw", NULL, 1439589);
    expect_bw(set, t, "record_rewrite_bw", NULL, 2278735);
    expect_bw(set, t, "freread_bw", NULL, 102409);
    pb_resultset_free(set);
}

static void test_corpus_3327_xfs(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set = load(CORPUS "iozone-3.327_auto_xfs_rovanion.txt");
    assert_int_equal(set->nresults, 163 * 13);
    const char *t = "iozone file_size=4k record_size=4k";
    expect_bw(set, t, "write_bw", NULL, 188920);
    expect_bw(set, t, "reread_bw", NULL, 676345);
    expect_bw(set, t, "freread_bw", NULL, 63356);
    t = "iozone file_size=4G record_size=16M";
    expect_bw(set, t, "write_bw", NULL, 1615461);
    expect_bw(set, t, "fread_bw", NULL, 99335);
    expect_bw(set, t, "freread_bw", NULL, 99042);
    pb_resultset_free(set);
}

static void test_corpus_3430_write_only(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set = load(
        CORPUS "iozone-3.430_write-only-i0_trailing-space-padding_joyfeel.txt");
    assert_string_equal(set->tool_version, "iozone-3.430");
    assert_string_equal(th_fact_any(set, "iozone_command"), "./iozone -a -i 0 -s 512");
    /* 8 rows of write + rewrite; the blank padding gives nothing */
    assert_int_equal(set->nresults, 16);
    assert_int_equal(count(set, NULL, "read_bw", NULL), 0);
    const char *t = "iozone file_size=512k record_size=4k";
    expect_bw(set, t, "write_bw", NULL, 225760);
    expect_bw(set, t, "rewrite_bw", NULL, 415919);
    t = "iozone file_size=512k record_size=512k";
    expect_bw(set, t, "write_bw", NULL, 522982);
    expect_bw(set, t, "rewrite_bw", NULL, 1077933);
    pb_resultset_free(set);
}

static void test_corpus_3434_minmax(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set =
        load(CORPUS "iozone-3.434_auto_minmax-reclen_psteinb.txt");
    assert_string_equal(set->tool_version, "iozone-3.434");
    assert_int_equal(set->nresults, 8 * 13);
    /* 1048576 512 5169375 7712220 7634280 7649870 7541971 8989992
     * 7688128 11968815 7556588 7164076 7202157 7687779 7659035 */
    const char *t = "iozone file_size=1G record_size=512k";
    assert_string_equal(test_param(set, t, "file_size"), "1073741824");
    expect_bw(set, t, "write_bw", NULL, 5169375);
    expect_bw(set, t, "random_write_bw", NULL, 8989992);
    expect_bw(set, t, "bkwd_read_bw", NULL, 7688128);
    expect_bw(set, t, "record_rewrite_bw", NULL, 11968815);
    expect_bw(set, t, "stride_read_bw", NULL, 7556588);
    expect_bw(set, t, "freread_bw", NULL, 7659035);
    t = "iozone file_size=2G record_size=4M";
    expect_bw(set, t, "record_rewrite_bw", NULL, 5660099);
    expect_bw(set, t, "freread_bw", NULL, 6736193);
    pb_resultset_free(set);
}

static void test_corpus_3465_odirect(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set =
        load(CORPUS "iozone-3.465_auto_odirect_ilkermanap.txt");
    assert_string_equal(th_fact_any(set, "iozone_command"), "/root/iozone -I -a");
    assert_int_equal(set->nresults, 126 * 13);
    const char *t = "iozone file_size=64k record_size=4k direct=1";
    assert_string_equal(test_param(set, t, "direct"), "1");
    expect_bw(set, t, "write_bw", NULL, 1865);
    expect_bw(set, t, "rewrite_bw", NULL, 1802);
    expect_bw(set, t, "freread_bw", NULL, 2772930);
    t = "iozone file_size=512M record_size=16M direct=1";
    expect_bw(set, t, "write_bw", NULL, 187438);
    expect_bw(set, t, "record_rewrite_bw", NULL, 192338);
    expect_bw(set, t, "freread_bw", NULL, 2238586);
    pb_resultset_free(set);
}

static void test_corpus_3506_multi_run(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set = load(
        CORPUS
        "iozone-3.506_throughput-t4_multi-run-with-echo-labels_oscomp.txt");
    assert_string_equal(set->tool_version, "iozone-3.506");
    /* run1 auto (13) + throughput runs: 8+8+6+6+4+4+4 */
    assert_int_equal(set->nresults, 53);
    assert_string_equal(th_fact_any(set, "run1.iozone_command"),
                        "iozone -a -r 1k -s 4m");
    assert_string_equal(th_fact_any(set, "run8.iozone_command"),
                        "iozone -t 4 -i 11 -i 12 -r 1k -s 1m");
    assert_null(th_fact_any(set, "iozone_command"));
    const char *t = "iozone file_size=4M record_size=1k";
    expect_bw(set, t, "write_bw", "run1", 13721);
    expect_bw(set, t, "freread_bw", "run1", 24710);
    t = "iozone throughput clients=4 file_size=1M record_size=1k";
    assert_string_equal(test_param(set, t, "clients"), "4");
    assert_string_equal(test_param(set, t, "file_size"), "1048576");
    assert_string_equal(test_param(set, t, "record_size"), "1024");
    expect_bw(set, t, "write_bw", "run2", 13545.93);
    expect_bw(set, t, "parent_write_bw", "run2", 11624.25);
    expect_bw(set, t, "read_bw", "run2", 50931.58);
    expect_bw(set, t, "reread_bw", "run2", 48204.08);
    expect_bw(set, t, "parent_reread_bw", "run2", 34139.58);
    expect_bw(set, t, "random_read_bw", "run3", 41679.51);
    expect_bw(set, t, "random_write_bw", "run3", 25554.45);
    expect_bw(set, t, "bkwd_read_bw", "run4", 39143.26);
    expect_bw(set, t, "stride_read_bw", "run5", 42873.56);
    expect_bw(set, t, "fwrite_bw", "run6", 12272.83);
    expect_bw(set, t, "parent_fwrite_bw", "run6", 9606.97);
    expect_bw(set, t, "fread_bw", "run6", 26930.34);
    expect_bw(set, t, "pwrite_bw", "run7", 14005.01);
    expect_bw(set, t, "pread_bw", "run7", 53217.58);
    expect_bw(set, t, "parent_pread_bw", "run7", 38787.67);
    expect_bw(set, t, "write_bw", "run8", 14056.85);
    expect_bw(set, t, "rewrite_bw", "run8", 30184.44);
    assert_int_equal(count(set, t, "write_bw", NULL), 0);
    pb_resultset_free(set);
}

static void test_corpus_report_only(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set =
        load(CORPUS "iozone-R-excel-report-only_toby1984.txt");
    assert_null(set->tool_version);
    /* 13 reports x (5+6+7+8+9+10+11) cells */
    assert_int_equal(set->nresults, 13 * 56);
    /* "Writer report", row "64": 581273 743988 743988 771797 752329 */
    const char *t = "iozone file_size=64k record_size=4k";
    assert_string_equal(test_param(set, t, "file_size"), "65536");
    assert_string_equal(test_param(set, t, "record_size"), "4096");
    expect_bw(set, t, "write_bw", NULL, 581273);
    expect_bw(set, t, "rewrite_bw", NULL, 1452528);
    expect_bw(set, t, "freread_bw", NULL, 2561267);
    expect_bw(set, "iozone file_size=64k record_size=64k", "write_bw", NULL,
              752329);
    /* row "4096", 11th value (record size 4096) */
    t = "iozone file_size=4M record_size=4M";
    expect_bw(set, t, "write_bw", NULL, 1110039);
    expect_bw(set, t, "random_write_bw", NULL, 2471637);
    expect_bw(set, t, "freread_bw", NULL, 4801789);
    assert_int_equal(count(set, "iozone file_size=64k record_size=128k",
                           "write_bw", NULL),
                     0);
    pb_resultset_free(set);
}

static void test_corpus_partial_no_banner(void **state)
{
    (void)state;
    corpus_dir();
    struct pb_resultset *set =
        load(CORPUS "iozone-partial-no-banner_128G_shmuma-perfdb.txt");
    assert_null(set->tool_version);
    /* issue 18 item 9: a pasted fragment says so */
    assert_string_equal(th_fact_any(set, "flag.no_version"), "no version found");
    assert_string_equal(th_fact_any(set, "iozone_command"),
                        "iozone -a -i 0 -i 1 -i 2 -s 128G");
    /* 13 rows x 6 columns: the other 7 are omitted */
    assert_int_equal(set->nresults, 13 * 6);
    assert_int_equal(count(set, NULL, "bkwd_read_bw", NULL), 0);
    const char *t = "iozone file_size=128G record_size=4k";
    assert_string_equal(test_param(set, t, "file_size"), "137438953472");
    expect_bw(set, t, "write_bw", NULL, 738046);
    expect_bw(set, t, "reread_bw", NULL, 908487);
    expect_bw(set, t, "random_read_bw", NULL, 1155);
    expect_bw(set, t, "random_write_bw", NULL, 37148);
    t = "iozone file_size=128G record_size=16M";
    expect_bw(set, t, "write_bw", NULL, 698564);
    expect_bw(set, t, "random_write_bw", NULL, 271494);
    pb_resultset_free(set);
}

/* ==== fixtures ==== */

static void test_fixture_auto_R(void **state)
{
    (void)state;
    struct pb_resultset *set = load(FIX "iozone-3.506_auto-R_n512k-g1m.txt");
    /* the -R report repeats the table: stored once */
    assert_int_equal(set->nresults, 7 * 13);
    const char *t = "iozone file_size=512k record_size=128k";
    expect_bw(set, t, "write_bw", NULL, 612345);
    expect_bw(set, t, "record_rewrite_bw", NULL, 2987311);
    expect_bw(set, t, "freread_bw", NULL, 2512004);
    t = "iozone file_size=1M record_size=1M";
    assert_string_equal(test_param(set, t, "file_size"), "1048576");
    expect_bw(set, t, "write_bw", NULL, 668540);
    expect_bw(set, t, "freread_bw", NULL, 2720884);
    pb_resultset_free(set);
}

static void test_fixture_report_only(void **state)
{
    (void)state;
    struct pb_resultset *set =
        load(FIX "iozone-R-report-only_n16m-g32m-q64k.txt");
    /* 13 reports x (5 + 1): the 0 placeholders of the 32M row are left out */
    assert_int_equal(set->nresults, 13 * 6);
    assert_int_equal(count(set, "iozone file_size=32M record_size=4k",
                           "write_bw", NULL),
                     0);
    expect_bw(set, "iozone file_size=16M record_size=4k", "write_bw", NULL,
              402117);
    expect_bw(set, "iozone file_size=32M record_size=64k", "write_bw", NULL,
              498215);
    expect_bw(set, "iozone file_size=32M record_size=64k", "freread_bw",
              NULL, 2063218);
    pb_resultset_free(set);
}

static void test_fixture_throughput(void **state)
{
    (void)state;
    struct pb_resultset *set = load(FIX "iozone-3.506_throughput-t2.txt");
    assert_int_equal(set->nresults, 12);
    const char *t = "iozone throughput clients=2 file_size=1M record_size=64k";
    assert_string_equal(test_param(set, t, "clients"), "2");
    assert_string_equal(test_param(set, t, "record_size"), "65536");
    expect_bw(set, t, "write_bw", NULL, 601234.56);
    expect_bw(set, t, "parent_write_bw", NULL, 412345.67);
    expect_bw(set, t, "reread_bw", NULL, 3012345.67);
    expect_bw(set, t, "random_write_bw", NULL, 654321.09);
    expect_bw(set, t, "parent_random_write_bw", NULL, 456789.01);
    pb_resultset_free(set);
}

static void test_fixture_junk_blank_cells(void **state)
{
    (void)state;
    struct pb_resultset *set =
        load(FIX "iozone-3.492_junk-around_i0-i2-blank-cells.txt");
    assert_int_equal(set->nresults, 8);
    assert_int_equal(count(set, NULL, "read_bw", NULL), 0);
    assert_int_equal(count(set, NULL, "reread_bw", NULL), 0);
    const char *t = "iozone file_size=100M record_size=4k direct=1 fsync=1";
    assert_string_equal(test_param(set, t, "direct"), "1");
    assert_string_equal(test_param(set, t, "fsync"), "1");
    expect_bw(set, t, "write_bw", NULL, 2604);
    expect_bw(set, t, "random_read_bw", NULL, 9959);
    expect_bw(set, t, "random_write_bw", NULL, 2652);
    t = "iozone file_size=100M record_size=1M direct=1 fsync=1";
    expect_bw(set, t, "rewrite_bw", NULL, 389054);
    expect_bw(set, t, "random_read_bw", NULL, 379221);
    pb_resultset_free(set);
}

static void test_fixture_abutting(void **state)
{
    (void)state;
    struct pb_resultset *set =
        load(FIX "iozone-3.327_auto_abutting-8-digit-values.txt");
    assert_int_equal(set->nresults, 6 * 13);
    /* "       41205834214224596": reclen 4, write, rewrite abut */
    const char *t = "iozone file_size=4k record_size=4k";
    expect_bw(set, t, "write_bw", NULL, 12058342);
    expect_bw(set, t, "rewrite_bw", NULL, 14224596);
    expect_bw(set, t, "reread_bw", NULL, 19787442);
    expect_bw(set, t, "random_read_bw", NULL, 11023377);
    expect_bw(set, t, "random_write_bw", NULL, 13390021);
    expect_bw(set, t, "freread_bw", NULL, 7820193);
    t = "iozone file_size=16k record_size=16k";
    expect_bw(set, t, "reread_bw", NULL, 16513555);
    expect_bw(set, t, "random_read_bw", NULL, 13617522);
    pb_resultset_free(set);
}

static void test_fixture_ops(void **state)
{
    (void)state;
    struct pb_resultset *set = load(FIX "iozone-3.263_ops-mode_odirect.txt");
    assert_int_equal(set->nresults, 6);
    const char *t = "iozone file_size=4G record_size=128k direct=1";
    expect(set, t, "write_iops", NULL, 1012, "ops/s");
    expect(set, t, "random_read_iops", NULL, 251, "ops/s");
    expect(set, t, "random_write_iops", NULL, 1096, "ops/s");
    assert_int_equal(count(set, NULL, "write_bw", NULL), 0);
    pb_resultset_free(set);
}

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
        if (parser()->parse("mem", j->buf, j->len, set, &err) == PB_OK) {
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
        cmocka_unit_test(test_corpus_3327_ext4),
        cmocka_unit_test(test_corpus_3327_xfs),
        cmocka_unit_test(test_corpus_3430_write_only),
        cmocka_unit_test(test_corpus_3434_minmax),
        cmocka_unit_test(test_corpus_3465_odirect),
        cmocka_unit_test(test_corpus_3506_multi_run),
        cmocka_unit_test(test_corpus_report_only),
        cmocka_unit_test(test_corpus_partial_no_banner),
        cmocka_unit_test(test_fixture_auto_R),
        cmocka_unit_test(test_fixture_report_only),
        cmocka_unit_test(test_fixture_throughput),
        cmocka_unit_test(test_fixture_junk_blank_cells),
        cmocka_unit_test(test_fixture_abutting),
        cmocka_unit_test(test_fixture_ops),
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
