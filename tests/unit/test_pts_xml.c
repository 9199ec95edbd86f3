/* Unit tests of the Phoronix Test Suite result XML parser: the fixtures and
 * every corpus file with values read from the files by hand, plus hostile
 * inputs (XXE, billion laughs, truncation, garbage, NUL bytes, ...). */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <ctype.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define CORPUS PB_CORPUS_DIR "/pts-xml/"
#define FIX PB_FIXTURES_DIR "/pts-xml/"

/* ==== helpers ==== */

static char *slurp(const char *path, size_t *len)
{
    struct pb_err err = {0};
    char *buf = NULL;
    if (pb_read_file(path, &buf, len, &err) != PB_OK)
        fail_msg("cannot read %s: %s", path, err.msg);
    return buf;
}

/* Ingest a file the way the CLI does (sniffing); must succeed. */
static struct pb_resultset *ingest(const char *path)
{
    size_t len;
    char *buf = slurp(path, &len);
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
    free(buf);
    if (rc != PB_OK)
        fail_msg("%s:%ld:%ld: %s", path, err.line, err.col, err.msg);
    assert_string_equal(set->format, "pts-xml");
    return set;
}

/* Parse a buffer with the pts-xml parser, no sniffing. */
static int parse_mem(const char *buf, size_t len, struct pb_resultset **out,
                     struct pb_err *err)
{
    struct pb_resultset *set = pb_resultset_new();
    int rc = pb_parser_pts_xml.parse("mem.xml", buf, len, set, err);
    if (rc != PB_OK || !out)
        pb_resultset_free(set);
    else
        *out = set;
    return rc;
}

static int parse_str(const char *s, struct pb_resultset **out,
                     struct pb_err *err)
{
    return parse_mem(s, strlen(s), out, err);
}

static const struct pb_result *find(const struct pb_resultset *set,
                                    const char *config, const char *test,
                                    const char *job)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (strcmp(set->configs[r->config].label, config) != 0 ||
            strcmp(set->tests[r->test].name, test) != 0)
            continue;
        if (job ? (r->job && !strcmp(r->job, job)) : !r->job)
            return r;
    }
    print_error("no result %s / %s / %s\n", config, test, job ? job : "-");
    return NULL;
}

static const struct pb_test *test_named(const struct pb_resultset *set,
                                        const char *name)
{
    for (size_t i = 0; i < set->ntests; i++)
        if (!strcmp(set->tests[i].name, name))
            return &set->tests[i];
    print_error("no test %s\n", name);
    return NULL;
}

static const char *tparam(const struct pb_resultset *set, const char *test,
                          const char *key)
{
    const struct pb_test *t = test_named(set, test);
    for (size_t i = 0; t && i < t->nparams; i++)
        if (!strcmp(t->params[i].key, key))
            return t->params[i].value;
    return NULL;
}

static const char *fact(const struct pb_resultset *set, const char *host,
                        const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++) {
        const struct pb_fact *f = &set->facts[i];
        if ((host ? (f->host && !strcmp(f->host, host)) : !f->host) &&
            !strcmp(f->key, key))
            return f->value;
    }
    return NULL;
}

/* Standard error of the mean of the per-run values, by the textbook. */
static double se_of(const double *x, size_t n)
{
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    return sqrt(ss / (double)(n - 1)) / sqrt((double)n);
}

#define RAW(...)                                                              \
    (const double[]){__VA_ARGS__},                                            \
        sizeof((const double[]){__VA_ARGS__}) / sizeof(double)

static void check(const struct pb_result *r, double value, const char *unit,
                  int dir, const double *raw, size_t n)
{
    assert_non_null(r);
    assert_true(r->has_value);
    assert_near(r->value, value, fabs(value) * 1e-12);
    assert_string_equal(r->metric, "value");
    if (unit)
        assert_string_equal(r->unit, unit);
    else
        assert_null(r->unit);
    assert_int_equal(r->direction, dir);
    assert_int_equal(r->samples, (long)n);
    if (n >= 2) {
        double se = se_of(raw, n);
        assert_true(r->has_stderr);
        assert_near(r->stderr_, se, se * 1e-9 + 1e-12);
    } else {
        assert_false(r->has_stderr);
    }
}

/* Does any string of the set contain needle? (leak checks for XXE) */
static int set_contains(const struct pb_resultset *set, const char *needle)
{
#define HAS(s) ((s) && strstr((s), needle))
    for (size_t i = 0; i < set->nfacts; i++)
        if (HAS(set->facts[i].value) || HAS(set->facts[i].key) ||
            HAS(set->facts[i].host))
            return 1;
    for (size_t i = 0; i < set->nconfigs; i++)
        if (HAS(set->configs[i].label))
            return 1;
    for (size_t i = 0; i < set->ntests; i++) {
        if (HAS(set->tests[i].name) || HAS(set->tests[i].tool))
            return 1;
        for (size_t j = 0; j < set->tests[i].nparams; j++)
            if (HAS(set->tests[i].params[j].value))
                return 1;
    }
    for (size_t i = 0; i < set->nresults; i++)
        if (HAS(set->results[i].host) || HAS(set->results[i].job) ||
            HAS(set->results[i].null_reason))
            return 1;
    return HAS(set->tool_version);
#undef HAS
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A small valid document with one result whose entry carries VALUE and
 * RAW, and identifier IDENT. */
static char *doc_with(const char *ident, const char *value, const char *raw)
{
    return pb_xasprintf(
        "<?xml version=\"1.0\"?>\n"
        "<PhoronixTestSuite>\n"
        "  <Generated><Title>t</Title></Generated>\n"
        "  <System><Identifier>%s</Identifier></System>\n"
        "  <Result>\n"
        "    <Identifier>pts/dbench-1.0.0</Identifier>\n"
        "    <Title>Dbench</Title>\n"
        "    <Description>Client Count: 6</Description>\n"
        "    <Scale>MB/s</Scale>\n"
        "    <Proportion>HIB</Proportion>\n"
        "    <Data><Entry><Identifier>%s</Identifier><Value>%s</Value>"
        "<RawString>%s</RawString></Entry></Data>\n"
        "  </Result>\n"
        "</PhoronixTestSuite>\n",
        ident, ident, value, raw);
}

/* ==== sniff ==== */

static void test_sniff(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int want;
    } cases[] = {
        {"<?xml version=\"1.0\"?>\n<!--Phoronix Test Suite v5.6.0-->\n"
         "<?xml-stylesheet type=\"text/xsl\" href=\"x.xsl\"?>\n"
         "<PhoronixTestSuite>\n  <Generated>",
         95},
        {"<PhoronixTestSuite>", 95},
        {"\xEF\xBB\xBF<?xml version=\"1.0\"?><PhoronixTestSuite >", 95},
        {"<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e \"]>\">]>\n"
         "<PhoronixTestSuite>",
         95},
        {"$ cat composite.xml\n<?xml version=\"1.0\"?>\n<PhoronixTestSuite>", 70},
        {"<PhoronixTestSuiteX>", 0},
        {"<?xml version=\"1.0\"?>\n<testsuites name=\"x\">", 0},
        {"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : []\n}", 0},
        {"format_version,bonnie_version,name\n", 0},
        {"some text mentioning <PhoronixTestSuite> inline", 0},
        {"<!-- unterminated comment <PhoronixTestSuite>", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int got = pb_parser_pts_xml.sniff(cases[i].text, strlen(cases[i].text));
        if (got != cases[i].want)
            fail_msg("sniff case %zu: got %d want %d", i, got, cases[i].want);
    }
}

/* ==== fixtures ==== */

static void test_fixture_fio_2systems(void **state)
{
    (void)state;
    struct pb_resultset *set = ingest(FIX "fio-2systems.xml");
    const char *zfs = "zfs mirror recordsize=16k lz4", *ext4 = "ext4 mdraid1";
    const char *rr = "Flexible IO Tester: Type: Random Read - Engine: IO_uring - "
                     "Buffered: No - Direct: Yes - Block Size: 4KB - Disk "
                     "Target: Default Test Directory (MB/s)";
    const char *rri = "Flexible IO Tester: Type: Random Read - Engine: IO_uring "
                      "- Buffered: No - Direct: Yes - Block Size: 4KB - Disk "
                      "Target: Default Test Directory (IOPS)";
    const char *sw = "Flexible IO Tester: Type: Sequential Write - Engine: "
                     "IO_uring - Buffered: No - Direct: Yes - Block Size: 1MB "
                     "- Disk Target: Default Test Directory (MB/s)";
    assert_int_equal(set->nresults, 6);
    assert_int_equal(set->nconfigs, 2);
    assert_int_equal(set->ntests, 3);
    assert_string_equal(set->tool_version, "pts-10.8.4");
    check(find(set, zfs, rr, NULL), 409.07, "MB/s", PB_DIR_HIGHER,
          RAW(412.3, 405.8, 409.1));
    check(find(set, ext4, rr, NULL), 388.5, "MB/s", PB_DIR_HIGHER,
          RAW(388.2, 391.7, 385.6));
    check(find(set, zfs, rri, NULL), 104721, "IOPS", PB_DIR_HIGHER,
          RAW(105549, 103885, 104730));
    check(find(set, ext4, rri, NULL), 99456, "IOPS", PB_DIR_HIGHER,
          RAW(99379, 100275, 98714));
    check(find(set, zfs, sw, NULL), 2786, "MB/s", PB_DIR_HIGHER,
          RAW(2790, 2801, 2768));
    check(find(set, ext4, sw, NULL), 2369, "MB/s", PB_DIR_HIGHER,
          RAW(2345, 2390, 2371));
    /* stderr by hand: 412.3, 405.8, 409.1 -> mean 409.0667, deviations
     * 3.2333, -3.2667, 0.0333, sum of squares 21.1267, sd 3.2502,
     * / sqrt(3) = 1.87646 */
    assert_near(find(set, zfs, rr, NULL)->stderr_, 1.87646, 1e-5);
    assert_string_equal(find(set, zfs, rr, NULL)->host, zfs);
    /* the description decomposed with DESIGN's keys (issue 11 item 6) */
    assert_string_equal(tparam(set, rr, "rw"), "randread");
    assert_string_equal(tparam(set, rr, "ioengine"), "io_uring");
    assert_string_equal(tparam(set, rr, "buffered"), "0");
    assert_string_equal(tparam(set, rr, "direct"), "1");
    assert_string_equal(tparam(set, rr, "bs"), "4096");
    assert_null(tparam(set, rr, "type"));
    assert_null(tparam(set, rr, "block_size"));
    assert_string_equal(tparam(set, sw, "rw"), "write");
    assert_string_equal(tparam(set, sw, "bs"), "1048576");
    assert_string_equal(tparam(set, rr, "disk_target"),
                        "Default Test Directory");
    assert_string_equal(tparam(set, rr, "app_version"), "3.33");
    assert_string_equal(tparam(set, rri, "scale"), "IOPS");
    assert_string_equal(tparam(set, sw, "arguments"),
                        "write io_uring 0 1 1m /mnt/bench");
    assert_string_equal(set->tests[0].tool, "pts/fio-2.1.0");
    assert_string_equal(fact(set, zfs, "File-System"), "zfs");
    assert_string_equal(fact(set, ext4, "File-System"), "ext4");
    assert_string_equal(fact(set, ext4, "disk-mount-options"),
                        "relatime,rw,stripe=32");
    assert_string_equal(fact(set, zfs, "Processor"),
                        "AMD Ryzen 7 5800X 8-Core @ 3.80GHz (8 Cores / 16 "
                        "Threads)");
    assert_string_equal(fact(set, NULL, "title"), "zfs-vs-ext4-fio");
    pb_resultset_free(set);
}

static void test_fixture_lib_and_failures(void **state)
{
    (void)state;
    struct pb_resultset *set = ingest(FIX "lib-and-failures.xml");
    const char *cfg = "tank raidz2 sync=always";
    assert_int_equal(set->nresults, 5); /* install time/size skipped */
    assert_string_equal(set->tool_version, "pts-5.6.0");
    check(find(set, cfg, "SQLite: Timed SQLite Insertions (Seconds)", NULL),
          12.54, "Seconds", PB_DIR_LOWER, RAW(12.571, 12.402, 12.66));
    check(find(set, cfg, "Compile Bench: Test: Initial Create (MB/s)", NULL),
          41.2, "MB/s", PB_DIR_HIGHER, RAW(41.2));
    const struct pb_result *r =
        find(set, cfg, "PostMark: Disk Transaction Performance (TPS)", NULL);
    assert_non_null(r);
    assert_false(r->has_value);
    assert_string_equal(r->null_reason,
                        "The test quit with a non-zero exit status.");
    assert_int_equal(r->direction, PB_DIR_HIGHER);
    const char *unpack = "Unpacking The Linux Kernel: linux-3.19.tar.xz "
                         "(Seconds)";
    /* two entries of one system: kept, told apart by job; 318.77, 322.05:
     * sd = 3.28 / sqrt(2) = 2.3193, se = 2.3193 / sqrt(2) = 1.64 */
    check(find(set, cfg, unpack, "entry 1"), 320.41, "Seconds", PB_DIR_LOWER,
          RAW(318.77, 322.05));
    assert_near(find(set, cfg, unpack, "entry 1")->stderr_, 1.64, 1e-9);
    r = find(set, cfg, unpack, "entry 2");
    assert_non_null(r);
    assert_near(r->value, 17.9, 1e-12);
    assert_int_equal(r->samples, 0);
    assert_false(r->has_stderr);
    assert_null(tparam(set, unpack, "app_version")); /* empty AppVersion */
    for (size_t i = 0; i < set->ntests; i++)
        assert_string_not_equal(set->tests[i].tool, "pts");
    assert_string_equal(fact(set, cfg, "notes"), "Disk Scheduler: NOOP.");
    pb_resultset_free(set);
}

static void test_fixture_commas(void **state)
{
    (void)state;
    struct pb_resultset *set = ingest(FIX "commas-in-values.xml");
    const char *h = "nas zfs raidz1 ashift=12";
    assert_string_equal(fact(set, h, "Disk"),
                        "500GB Samsung SSD 860, 3 x 4001GB WDC WD40EFRX-68N");
    assert_string_equal(fact(set, h, "Graphics"),
                        "llvmpipe 2GB (LLVM 6.0, 256 bits)");
    assert_string_equal(fact(set, h, "OpenGL"),
                        "3.3 Mesa 18.0.5 (LLVM 6.0, 256 bits)");
    assert_string_equal(fact(set, h, "Audio"), "Realtek ALC887-VD");
    assert_string_equal(fact(set, h, "Screen Resolution"), "1024x768");
    assert_string_equal(fact(set, h, "Kernel"), "4.15.0-43-generic (x86_64)");
    assert_string_equal(set->tool_version, "pts-8.0.1");
    const char *t2 = "FS-Mark: Test: 5000 Files, 1MB Size, 4 Threads (Files/s)";
    check(find(set, h, "FS-Mark: Test: 1000 Files, 1MB Size (Files/s)", NULL),
          61.58, "Files/s", PB_DIR_HIGHER, RAW(61.4, 60.9, 62.2, 61.8));
    check(find(set, h, t2, NULL), 113.2, "Files/s", PB_DIR_HIGHER,
          RAW(112.5, 114.1, 113.0));
    assert_string_equal(tparam(set, t2, "files"), "5000");
    assert_string_equal(tparam(set, t2, "file_size"), "1048576");
    assert_string_equal(tparam(set, t2, "threads"), "4");
    assert_null(tparam(set, t2, "test"));
    pb_resultset_free(set);
}

/* Issue 11 item 6: descriptions of the storage profiles become test
 * parameters with DESIGN's keys; the test keeps its title. */
static void test_fixture_storage_descriptions(void **state)
{
    (void)state;
    struct pb_resultset *set = ingest(FIX "storage-descriptions.xml");
    const char *a = "zfs mirror recordsize=128k", *b = "zfs mirror recordsize=16k";
    const char *f8 = "Flexible IO Tester: Type: Random Read - IO Engine: Linux "
                     "AIO - Buffered: No - Direct: Yes - Block Size: 8KB - "
                     "Disk Target: Default Test Directory (IOPS)";
    check(find(set, a, f8, NULL), 62084, "IOPS", PB_DIR_HIGHER,
          RAW(61884, 62410, 61957));
    check(find(set, b, f8, NULL), 66132, "IOPS", PB_DIR_HIGHER,
          RAW(66120, 65873, 66402));
    assert_string_equal(tparam(set, f8, "rw"), "randread");
    assert_string_equal(tparam(set, f8, "bs"), "8192");
    assert_string_equal(tparam(set, f8, "ioengine"), "libaio");
    assert_string_equal(tparam(set, f8, "direct"), "1");
    assert_string_equal(tparam(set, f8, "buffered"), "0");
    assert_string_equal(tparam(set, f8, "arguments"),
                        "randread libaio 0 1 8k /mnt/tank");
    const char *sw = "Flexible IO Tester: Type: Sequential Write - Engine: "
                     "IO_uring - Direct: Yes - Block Size: 1MB - Job Count: 4 "
                     "- Disk Target: Default Test Directory (MB/s)";
    assert_string_equal(tparam(set, sw, "rw"), "write");
    assert_string_equal(tparam(set, sw, "ioengine"), "io_uring");
    assert_string_equal(tparam(set, sw, "bs"), "1048576");
    assert_string_equal(tparam(set, sw, "numjobs"), "4");
    assert_null(tparam(set, sw, "buffered")); /* not stated */
    const char *io = "IOzone: Record Size: 4Kb - File Size: 8GB - Disk Test: "
                     "Read Performance (MB/s)";
    check(find(set, a, io, NULL), 9819.37, "MB/s", PB_DIR_HIGHER,
          RAW(9812.4, 9790.6, 9855.1));
    assert_string_equal(tparam(set, io, "record_size"), "4096");
    assert_string_equal(tparam(set, io, "file_size"), "8589934592");
    assert_string_equal(tparam(set, io, "rw"), "read");
    const char *db = "Dbench: Client Count: 48 (MB/s)";
    check(find(set, b, db, NULL), 1552.37, "MB/s", PB_DIR_HIGHER,
          RAW(1544.87, 1560.31, 1551.92));
    assert_string_equal(tparam(set, db, "clients"), "48");
    const char *pg = "PostgreSQL pgbench: Scaling Factor: 100 - Clients: 50 - "
                     "Mode: Read Write - Average Latency (ms)";
    check(find(set, a, pg, NULL), 12.035, "ms", PB_DIR_LOWER,
          RAW(12.121, 11.939, 12.045));
    assert_string_equal(tparam(set, pg, "clients"), "50");
    assert_string_equal(tparam(set, pg, "scaling_factor"), "100");
    assert_string_equal(tparam(set, pg, "mode"), "read write");
    assert_string_equal(tparam(set, "SQLite: Threads / Copies: 8 (Seconds)",
                               "threads"),
                        "8");
    assert_string_equal(tparam(set, "AIO-Stress: Test: Random Write (MB/s)",
                               "rw"),
                        "randwrite");
    assert_int_equal(set->ntests, 12);
    assert_int_equal(set->nresults, 24);
    pb_resultset_free(set);
}

static void test_fixture_junk_crlf_html(void **state)
{
    (void)state;
    size_t len;
    char *buf = slurp(FIX "junk-crlf-html.xml", &len);
    assert_int_equal(pb_parser_pts_xml.sniff(buf, len), 70);
    free(buf);
    struct pb_resultset *set = ingest(FIX "junk-crlf-html.xml");
    const char *h = "<script>tank</script> mirror";
    check(find(set, h, "Dbench: Client Count: 6 (MB/s)", NULL), 308.51, "MB/s",
          PB_DIR_HIGHER, RAW(310.52, 305.11, 309.9));
    assert_string_equal(fact(set, NULL, "title"), "<b>dbench</b> on tank");
    assert_string_equal(fact(set, h, "File-System"), "zfs");
    assert_string_equal(tparam(set, "Dbench: Client Count: 6 (MB/s)",
                               "clients"),
                        "6");
    assert_string_equal(set->tool_version, "pts-9.6.0");
    pb_resultset_free(set);
}

/* ==== corpus ==== */

#define SKIP_NO_CORPUS() skip_unless_exists(CORPUS)

static void test_corpus_7zip(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set =
        ingest(CORPUS "pts-5.6.0_7zip_single-run-test-1_laertispappas.xml");
    assert_int_equal(set->nresults, 1);
    const char *t = "7-Zip Compression: Compress Speed Test (MIPS)";
    const struct pb_result *r = find(set, "7zip-run-0", t, NULL);
    check(r, 4913, "MIPS", PB_DIR_HIGHER, RAW(4909, 4905, 4926));
    /* by hand: mean 4913.333, squares 18.778 + 69.444 + 160.444 = 248.667,
     * sd sqrt(124.333) = 11.1505, se 11.1505 / 1.73205 = 6.43774 */
    assert_near(r->stderr_, 6.43774, 1e-5);
    assert_string_equal(set->tests[r->test].tool, "pts/compress-7zip-1.6.0");
    assert_string_equal(tparam(set, t, "app_version"), "9.20.1");
    assert_null(tparam(set, t, "arguments"));
    assert_string_equal(set->tool_version, "pts-5.6.0");
    assert_string_equal(fact(set, "7zip-run-0", "Chipset"),
                        "Intel 440FX- 82441FX PMC");
    assert_string_equal(fact(set, "7zip-run-0", "System Layer"),
                        "Xen HVM domU 4.2.amazon");
    assert_string_equal(fact(set, NULL, "description"),
                        "7zip run - 0 cloud lab exercise mpsp unipi.gr");
    pb_resultset_free(set);
}

static void test_corpus_gzip_10_systems(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set =
        ingest(CORPUS "pts-5.6.0_gzip_10-systems_laertispappas.xml");
    const char *t = "Gzip Compression: 2GB File Compression (Seconds)";
    assert_int_equal(set->nresults, 10);
    assert_int_equal(set->nconfigs, 10);
    check(find(set, "gzip-run-0", t, NULL), 16.23, "Seconds", PB_DIR_LOWER,
          RAW(16.383008003235, 16.167191982269, 16.141351938248));
    check(find(set, "gzip-run-4", t, NULL), 16.30, "Seconds", PB_DIR_LOWER,
          RAW(16.521157979965, 16.208717107773, 16.1715528965));
    check(find(set, "gzip-run-9", t, NULL), 16.19, "Seconds", PB_DIR_LOWER,
          RAW(16.23303103447, 16.211677074432, 16.111393928528));
    assert_null(tparam(set, t, "app_version"));
    assert_string_equal(fact(set, "gzip-run-9", "timestamp"),
                        "2015-05-11 19:40:10");
    assert_string_equal(fact(set, "gzip-run-3", "Memory"), "8192MB");
    pb_resultset_free(set);
}

static void test_corpus_tiobench(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set = ingest(
        CORPUS "pts-5.6.0_tiobench_storage_aws-m3large_laertispappas.xml");
    const char *h = "threaded-last-unique";
    assert_int_equal(set->nresults, 64);
    assert_int_equal(set->ntests, 64);
    const char *t1 = "Threaded I/O Tester: Test: Read - Size Per Thread: 32MB - "
                     "Thread Count: 4 (MB/s)";
    check(find(set, h, t1, NULL), 4548.91, "MB/s", PB_DIR_HIGHER,
          RAW(4997.462, 4540.134, 4447.069, 4454.033, 4464.13, 4390.629));
    check(find(set, h,
               "Threaded I/O Tester: Test: Read - Size Per Thread: 32MB - "
               "Thread Count: 8 (MB/s)",
               NULL),
          4663.74, "MB/s", PB_DIR_HIGHER, RAW(4699.231, 4607.3, 4684.698));
    const char *t2 = "Threaded I/O Tester: Test: Random Write - Size Per "
                     "Thread: 256MB - Thread Count: 32 (MB/s)";
    check(find(set, h, t2, NULL), 0.28, "MB/s", PB_DIR_HIGHER,
          RAW(0.276, 0.276, 0.276));
    assert_near(find(set, h, t2, NULL)->stderr_, 0, 0); /* equal runs */
    assert_string_equal(tparam(set, t1, "rw"), "read");
    assert_string_equal(tparam(set, t1, "size"), "33554432");
    assert_string_equal(tparam(set, t1, "threads"), "4");
    assert_string_equal(tparam(set, t2, "rw"), "randwrite");
    assert_string_equal(tparam(set, t2, "size"), "268435456");
    assert_string_equal(tparam(set, t2, "threads"), "32");
    assert_string_equal(tparam(set, t1, "arguments"), "-k3 -k1 -f 32 -t 4");
    assert_string_equal(fact(set, h, "notes"), "Disk Scheduler: DEADLINE.");
    assert_string_equal(fact(set, h, "disk-scheduler"), "DEADLINE");
    assert_string_equal(fact(set, h, "disk-mount-options"),
                        "data=ordered,discard,relatime,rw");
    assert_string_equal(set->tool_version, "pts-5.6.0");
    pb_resultset_free(set);
}

static void test_corpus_blogbench(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set = ingest(
        CORPUS "pts-8.0.1_blogbench_gcp-clearlinux-docker_ucd.xml");
    assert_int_equal(set->nresults, 2);
    check(find(set, "PersistentDisk", "BlogBench: Test: Read (Final Score)",
               NULL),
          872634, "Final Score", PB_DIR_HIGHER, RAW(855992, 883852, 878058));
    check(find(set, "PersistentDisk", "BlogBench: Test: Write (Final Score)",
               NULL),
          5555, "Final Score", PB_DIR_HIGHER, RAW(4916, 5833, 5916));
    assert_string_equal(set->tool_version, "pts-8.0.1");
    assert_string_equal(fact(set, "PersistentDisk", "Compiler"),
                        "GCC 8.2.0 + Clang 6.0.1 + LLVM 6.0.1");
    assert_string_equal(fact(set, "PersistentDisk", "File-System"), "aufs");
    assert_string_equal(fact(set, "PersistentDisk", "System Layer"), "KVM");
    assert_string_equal(fact(set, "PersistentDisk", "security"),
                        "KPTI + __user pointer sanitization + Full generic "
                        "retpoline Protection");
    pb_resultset_free(set);
}

static void test_corpus_disk_suite(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set = ingest(
        CORPUS "pts-5.2.1_disk-suite_sqlite-fsmark-dbench-compilebench-"
               "postmark_rpi4_s3437526.xml");
    const char *h = "SN64G";
    assert_int_equal(set->nresults, 11);
    check(find(set, h, "SQLite: Timed SQLite Insertions (Seconds)", NULL),
          91.18, "Seconds", PB_DIR_LOWER,
          RAW(86.974828958511, 92.855672121048, 94.093055009842,
              90.814913034439));
    const char *fs = "FS-Mark: Test: 5000 Files, 1MB Size, 4 Threads (Files/s)";
    check(find(set, h, fs, NULL), 24.27, "Files/s", PB_DIR_HIGHER,
          RAW(19.6, 25.2, 25.2, 24.8, 25.6, 25.2));
    assert_string_equal(tparam(set, fs, "files"), "5000");
    assert_string_equal(tparam(set, fs, "file_size"), "1048576");
    assert_string_equal(tparam(set, fs, "threads"), "4");
    const char *nosync =
        "FS-Mark: Test: 1000 Files, 1MB Size, No Sync/FSync (Files/s)";
    assert_string_equal(tparam(set, nosync, "fsync"), "0");
    assert_string_equal(tparam(set, nosync, "files"), "1000");
    assert_null(tparam(set, fs, "fsync")); /* not stated: not invented */
    assert_string_equal(tparam(set, "Dbench: 12 Clients (MB/s)", "clients"),
                        "12");
    assert_string_equal(tparam(set, "Dbench: 1 Clients (MB/s)", "clients"),
                        "1");
    check(find(set, h, "Dbench: 12 Clients (MB/s)", NULL), 86.67, "MB/s",
          PB_DIR_HIGHER, RAW(85.5952, 86.3885, 88.0173));
    check(find(set, h, "Compile Bench: Test: Compile (MB/s)", NULL), 11.75,
          "MB/s", PB_DIR_HIGHER, RAW(13.63, 12.24, 11.75, 10.63, 11.33, 10.91));
    check(find(set, h, "PostMark: Disk Transaction Performance (TPS)", NULL),
          67, "TPS", PB_DIR_HIGHER, RAW(65, 68, 69));
    assert_string_equal(fact(set, h, "Display Server"),
                        "X Server plymouth.ignore-serial-consoles");
    assert_string_equal(fact(set, h, "Graphics"),
                        "llvmpipe (LLVM 9.0.1 128 bits)");
    assert_string_equal(fact(set, h, "Monitor"), "LG TV");
    assert_string_equal(fact(set, h, "disk-mount-options"), "noatime,rw");
    pb_resultset_free(set);
}

static void test_corpus_active_incomplete(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set =
        ingest(CORPUS "pts-5.2.1_active-xml-incomplete_dbench-sqlite-"
                      "tiobench_s3437526.xml");
    const char *h = "SN64G - ARMv7 rev 3";
    assert_int_equal(set->nresults, 4);
    check(find(set, h, "SQLite: Timed SQLite Insertions (Seconds)", NULL),
          90.84, "Seconds", PB_DIR_LOWER,
          RAW(94.259454965591, 89.668081045151, 88.590572834015));
    check(find(set, h, "Dbench: 12 Clients (MB/s)", NULL), 97.02, "MB/s",
          PB_DIR_HIGHER, RAW(97.0336, 97.034, 96.9784));
    check(find(set, h, "Threaded I/O Tester: 64MB Read - 32 Threads (MB/s)",
               NULL),
          1689.69, "MB/s", PB_DIR_HIGHER, RAW(1668.436, 1724.081, 1676.547));
    check(find(set, h, "Threaded I/O Tester: 64MB Write - 32 Threads (MB/s)",
               NULL),
          1.44, "MB/s", PB_DIR_HIGHER, RAW(1.446, 1.444, 1.42));
    /* PTS 5.2's tiobench descriptions have no keys: the phrases */
    const char *tw = "Threaded I/O Tester: 64MB Write - 32 Threads (MB/s)";
    assert_string_equal(tparam(set, tw, "rw"), "write");
    assert_string_equal(tparam(set, tw, "size"), "67108864");
    assert_string_equal(tparam(set, tw, "threads"), "32");
    assert_string_equal(tparam(set, "Dbench: 12 Clients (MB/s)", "clients"),
                        "12");
    assert_null(tparam(set, "SQLite: Timed SQLite Insertions (Seconds)",
                       "threads"));
    assert_string_equal(fact(set, h, "Kernel"),
                        "5.4.74-v7l_s3437526+ (armv7l)");
    pb_resultset_free(set);
}

static void test_corpus_active_no_results(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    const char *path = CORPUS "pts-5.2.1_active-xml-no-results_s3437526.xml";
    size_t len;
    char *buf = slurp(path, &len);
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(pb_ingest_buffer(path, buf, len, NULL, &set, &err),
                     PB_EINPUT);
    assert_null(set);
    assert_int_equal(err.line, 4); /* <PhoronixTestSuite> */
    assert_string_equal(err.msg, "no test results: \"PhoronixTestSuite\" "
                                 "holds no \"Result\" element");
    free(buf);
}

static void test_corpus_simdjson(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set = ingest(
        CORPUS "pts-10.8.4_simdjson_single-system_manueljbrito.xml");
    const char *h = "GVNO3";
    assert_int_equal(set->nresults, 5); /* 7 Results, 2 install pseudo */
    check(find(set, h, "simdjson: Throughput Test: PartialTweets (GB/s)", NULL),
          1.36, "GB/s", PB_DIR_HIGHER, RAW(1.36, 1.36, 1.36));
    assert_near(find(set, h, "simdjson: Throughput Test: PartialTweets (GB/s)",
                     NULL)
                    ->stderr_,
                0, 0);
    /* by hand: 1.14, 1.13, 1.14 -> sd 0.005774, se 0.003333 */
    const struct pb_result *r =
        find(set, h, "simdjson: Throughput Test: Kostya (GB/s)", NULL);
    check(r, 1.14, "GB/s", PB_DIR_HIGHER, RAW(1.14, 1.13, 1.14));
    assert_near(r->stderr_, 0.01 / 3, 1e-12);
    check(find(set, h, "simdjson: Throughput Test: TopTweet (GB/s)", NULL),
          1.52, "GB/s", PB_DIR_HIGHER, RAW(1.52, 1.52, 1.51));
    assert_string_equal(fact(set, h, "Disk"),
                        "2000GB Western Digital WD20EARX-00P + 256GB Samsung "
                        "SSD 850");
    assert_string_equal(fact(set, h, "Chipset"), "Intel Xeon E7 v2/Xeon");
    assert_non_null(strstr(fact(set, h, "security"), "usercopy/swapgs"));
    assert_null(fact(set, h, "user")); /* <User></User> */
    assert_string_equal(set->tool_version, "pts-10.8.4");
    for (size_t i = 0; i < set->ntests; i++)
        assert_null(strstr(set->tests[i].name, "Install"));
    pb_resultset_free(set);
}

static void test_corpus_multi_test(void **state)
{
    (void)state;
    SKIP_NO_CORPUS();
    struct pb_resultset *set = ingest(
        CORPUS "pts-10.8.4_multi-test-cpu-suite_manueljbrito.xml");
    const char *h = "GVNO2";
    /* 142 Results, 40 with an empty Identifier (install time/size) */
    assert_int_equal(set->nresults, 102);
    assert_int_equal(set->ntests, 102);
    check(find(set, h, "FFTW: Build: Stock - Size: 1D FFT Size 32 (Mflops)",
               NULL),
          5013.2, "Mflops", PB_DIR_HIGHER, RAW(4983.3, 5027.7, 5028.7));
    check(find(set, h,
               "FFTW: Build: Float + SSE - Size: 2D FFT Size 128 (Mflops)",
               NULL),
          11697, "Mflops", PB_DIR_HIGHER,
          RAW(11617, 11423, 12509, 11526, 11452, 11422, 11730, 11544, 11829,
              12466, 11660, 11526, 11680, 11398, 11679));
    /* one description, two scales: two tests */
    check(find(set, h, "OpenSSL: Algorithm: RSA4096 (sign/s)", NULL), 101.6,
          "sign/s", PB_DIR_HIGHER, RAW(100.8, 102.2, 101.8));
    check(find(set, h, "OpenSSL: Algorithm: RSA4096 (verify/s)", NULL), 6665.2,
          "verify/s", PB_DIR_HIGHER, RAW(6663.4, 6647.3, 6684.9));
    check(find(set, h, "Google Draco: Model: Church Facade (ms)", NULL), 12786,
          "ms", PB_DIR_LOWER, RAW(12818, 12745, 12796));
    check(find(set, h, "SQLite Speedtest: Timed Time - Size 1,000 (Seconds)",
               NULL),
          146.935, "Seconds", PB_DIR_LOWER, RAW(146.972, 146.539, 147.294));
    /* failed runs: NULL with PTS's reason, never 0; empty Scale: no unit */
    const struct pb_result *r =
        find(set, h, "OpenSSL: Algorithm: AES-128-GCM", NULL);
    assert_non_null(r);
    assert_false(r->has_value);
    assert_null(r->unit);
    assert_string_equal(r->null_reason,
                        "The test run did not produce a result.");
    r = find(set, h, "Z3 Theorem Prover: SMT File: 1.smt2 (Seconds)", NULL);
    assert_non_null(r);
    assert_false(r->has_value);
    assert_int_equal(r->direction, PB_DIR_LOWER);
    assert_string_equal(r->null_reason,
                        "The test quit with a non-zero exit status. E: "
                        "taskset: failed to execute ./z3-z3-4.12.1/build/z3: "
                        "No such file or directory");
    r = find(set, h, "FLAC Audio Encoding (Seconds)", NULL);
    assert_non_null(r);
    assert_false(r->has_value);
    assert_non_null(find(set, h, "Aircrack-ng (k/s)", NULL));
    size_t nnull = 0;
    for (size_t i = 0; i < set->nresults; i++)
        nnull += !set->results[i].has_value;
    assert_int_equal(nnull, 7);
    assert_string_equal(tparam(set, "Botan: Test: Twofish - Decrypt (MiB/s)",
                               "test"),
                        "Twofish");
    assert_string_equal(fact(set, NULL, "title"), "$result_name");
    pb_resultset_free(set);
}

/* ==== errors ==== */

static void expect_err(const char *text, long line, const char *msg_part)
{
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    int rc = parse_str(text, &set, &err);
    if (rc != PB_EINPUT)
        fail_msg("accepted: %.60s", text);
    assert_int_equal(err.code, PB_EINPUT);
    if (line >= 0 && err.line != line)
        fail_msg("line %ld, want %ld (%s)", err.line, line, err.msg);
    if (msg_part && !strstr(err.msg, msg_part))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg_part);
    assert_false(isupper((unsigned char)err.msg[0]));
}

static void test_bad_fixtures(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        long line, col;
        const char *msg;
    } cases[] = {
        {"xxe.xml", 2, 1, "refusing \"DOCTYPE\""},
        {"billion-laughs.xml", 3, 1, "refusing \"DOCTYPE\""},
        {"truncated.xml", 39, 12,
         "truncated XML: the file ends inside \"Result\" (opened on line "
         "34)"},
        /* named by ingest/recognize.c, not by the parser */
        {"test-profile.xml", 1, 0,
         "this is a Phoronix Test Suite test profile definition"},
        {"no-results.xml", 4, 0, "no test results"},
        {"only-install-results.xml", 13, 0, "no benchmark results"},
        {"mismatched-tag.xml", 17, 30, "invalid XML: opening and ending tag "
                                       "mismatch"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *path = pb_xasprintf(FIX "bad/%s", cases[i].file);
        size_t len;
        char *buf = slurp(path, &len);
        assert_true(pb_parser_pts_xml.sniff(buf, len) >= 90);
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        double t0 = now_s();
        int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
        double dt = now_s() - t0;
        /* a PTS profile definition is named, and of no supported format */
        int want = strstr(cases[i].file, "test-profile") ? PB_EFORMAT
                                                         : PB_EINPUT;
        if (rc != want || err.line != cases[i].line ||
            err.col != cases[i].col || !strstr(err.msg, cases[i].msg))
            fail_msg("%s: rc %d %ld:%ld %s", cases[i].file, rc, err.line,
                     err.col, err.msg);
        assert_null(set);
        assert_true(dt < 1.0);
        free(buf);
        free(path);
    }
    /* a non-PTS XML file is not sniffed as PTS at all */
    size_t len;
    char *buf = slurp(FIX "bad/not-pts.xml", &len);
    assert_int_equal(pb_parser_pts_xml.sniff(buf, len), 0);
    struct pb_err err = {0};
    assert_int_equal(parse_mem(buf, len, NULL, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "not a Phoronix Test Suite result: root "
                                 "element is \"testsuites\"");
    free(buf);
}

static void test_xxe_variants(void **state)
{
    (void)state;
    static const char *const docs[] = {
        /* external general entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "
        "\"file:///etc/passwd\">]>\n<PhoronixTestSuite><Result><Identifier>"
        "pts/x</Identifier><Title>&e;</Title><Data><Entry><Identifier>&e;"
        "</Identifier><Value>1</Value></Entry></Data></Result>"
        "</PhoronixTestSuite>\n",
        /* external DTD only */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE PhoronixTestSuite SYSTEM "
        "\"file:///etc/passwd\">\n<PhoronixTestSuite/>\n",
        /* parameter entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM "
        "\"file:///etc/passwd\"> %p;]>\n<PhoronixTestSuite/>\n",
        /* network */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "
        "\"http://127.0.0.1:9/x\">]>\n<PhoronixTestSuite>&e;"
        "</PhoronixTestSuite>\n",
        /* internal entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e \"zfs\">]>\n"
        "<PhoronixTestSuite>&e;</PhoronixTestSuite>\n",
    };
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        int rc = parse_str(docs[i], &set, &err);
        if (rc != PB_EINPUT)
            fail_msg("doc %zu accepted", i);
        assert_int_equal(err.line, 2);
        assert_non_null(strstr(err.msg, "refusing \"DOCTYPE\""));
        assert_null(strstr(err.msg, "root:"));
    }
    /* DOCTYPE after junk lines: still refused, line counted in the file */
    expect_err("$ cat x.xml\n<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e "
               "SYSTEM \"file:///etc/passwd\">]>\n<PhoronixTestSuite>&e;"
               "</PhoronixTestSuite>\n",
               3, "refusing");
    /* an undeclared entity without a DTD */
    expect_err("<PhoronixTestSuite>\n<Generated>&e;</Generated>\n"
               "</PhoronixTestSuite>\n",
               2, "invalid XML");
    /* XInclude is never processed: the include stays an unknown element */
    char *doc = doc_with("a<xi:include xmlns:xi=\"http://www.w3.org/2001/"
                         "XInclude\" href=\"/etc/passwd\" parse=\"text\"/>",
                         "1", "1:1");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(parse_str(doc, &set, &err), PB_OK);
    assert_false(set_contains(set, "root:"));
    assert_int_equal(set->nresults, 1);
    assert_string_equal(set->configs[0].label, "a");
    pb_resultset_free(set);
    free(doc);
}

static void test_billion_laughs_fast(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n"
                    "<!ENTITY a0 \"lollollollollollollollollollol\">\n");
    for (int i = 1; i <= 30; i++) {
        pb_buf_printf(&b, "<!ENTITY a%d \"", i);
        for (int k = 0; k < 16; k++)
            pb_buf_printf(&b, "&a%d;", i - 1);
        pb_buf_puts(&b, "\">\n");
    }
    pb_buf_puts(&b, "]>\n<PhoronixTestSuite><Result><Title>&a30;</Title>"
                    "</Result></PhoronixTestSuite>\n");
    struct pb_err err = {0};
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, NULL, &err), PB_EINPUT);
    assert_true(now_s() - t0 < 0.5);
    assert_int_equal(err.line, 2);
    pb_buf_release(&b);
}

/* Issue 20 item 16: numbering the entries of one system was quadratic in
 * the entries of a result (a 4 MB result took 10 s). 30,000 entries of
 * 10,000 systems, three each, interleaved. */
static void test_wide_result_linear(void **state)
{
    (void)state;
    enum { NSYS = 10000, NENT = 30000 };
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<?xml version=\"1.0\"?>\n<PhoronixTestSuite>\n"
                    "<Result><Identifier>pts/dbench-1.0.2</Identifier>"
                    "<Title>Dbench</Title>"
                    "<Description>Client Count: 48</Description>"
                    "<Scale>MB/s</Scale><Proportion>HIB</Proportion><Data>\n");
    for (int i = 0; i < NENT; i++)
        pb_buf_printf(&b,
                      "<Entry><Identifier>host-%05d</Identifier>"
                      "<Value>%d</Value><RawString>%d:%d</RawString>"
                      "</Entry>\n",
                      i % NSYS, 100 + i, 99 + i, 101 + i);
    pb_buf_puts(&b, "</Data></Result>\n</PhoronixTestSuite>\n");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, &set, &err), PB_OK);
    double dt = now_s() - t0;
    print_message("%d entries parsed in %.3f s\n", NENT, dt);
    assert_true(dt < 2.0);
    assert_int_equal(set->nresults, NENT);
    assert_int_equal(set->nconfigs, NSYS);
    /* host-00005: entries 5, 10005, 20005 of the result, in that order */
    const char *name = "Dbench: Client Count: 48 (MB/s)";
    check(find(set, "host-00005", name, "entry 1"), 105, "MB/s", 1,
          RAW(104, 106));
    check(find(set, "host-00005", name, "entry 2"), 10105, "MB/s", 1,
          RAW(10104, 10106));
    check(find(set, "host-00005", name, "entry 3"), 20105, "MB/s", 1,
          RAW(20104, 20106));
    pb_resultset_free(set);
    pb_buf_release(&b);
}

/* A description of 60,000 "Key: Value" pairs (900 KB): the first 64
 * become parameters, quickly (each stored parameter is looked up among the
 * test's others: all of them took 44 s). */
static void test_huge_description(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<PhoronixTestSuite><Result><Identifier>pts/x-1.0"
                    "</Identifier><Title>X</Title><Description>");
    for (int i = 0; i < 60000; i++)
        pb_buf_printf(&b, "%sK%d: %d", i ? " - " : "", i, i);
    pb_buf_puts(&b, "</Description><Scale>s</Scale><Data><Entry><Identifier>"
                    "a</Identifier><Value>1</Value></Entry></Data></Result>"
                    "</PhoronixTestSuite>\n");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, &set, &err), PB_OK);
    assert_true(now_s() - t0 < 2.0);
    assert_int_equal(set->ntests, 1);
    const struct pb_test *t = &set->tests[0];
    assert_int_equal(t->nparams, 64 + 1); /* and scale */
    assert_string_equal(t->params[0].key, "k0");
    assert_string_equal(t->params[63].key, "k63");
    assert_string_equal(t->params[63].value, "63");
    assert_string_equal(t->params[64].key, "scale");
    pb_resultset_free(set);
    pb_buf_release(&b);
}

static void test_truncated_everywhere(void **state)
{
    (void)state;
    static const char *const files[] = {
        FIX "fio-2systems.xml",
        FIX "lib-and-failures.xml",
        CORPUS "pts-5.6.0_tiobench_storage_aws-m3large_laertispappas.xml",
        CORPUS "pts-10.8.4_multi-test-cpu-suite_manueljbrito.xml",
        CORPUS "pts-8.0.1_blogbench_gcp-clearlinux-docker_ucd.xml",
    };
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        if (access(files[f], R_OK) != 0)
            continue;
        size_t len;
        char *buf = slurp(files[f], &len);
        for (int k = 0; k < 10; k++) {
            size_t cut = len * (size_t)k / 10;
            char *part = pb_xstrndup(buf, cut);
            struct pb_err err = {0};
            int rc = parse_mem(part, cut, NULL, &err);
            if (rc != PB_EINPUT)
                fail_msg("%s cut at %zu accepted", files[f], cut);
            long lines = pb_line_of(part, cut);
            if (cut > 0 && (err.line < 1 || err.line > lines ||
                            !strstr(err.msg, "truncated XML: the file ends "
                                             "inside \"")))
                fail_msg("%s cut at %zu: line %ld of %ld: %s", files[f], cut,
                         err.line, lines, err.msg);
            if (cut == 0)
                assert_string_equal(err.msg, "empty file");
            free(part);
        }
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        assert_int_equal(parse_mem(buf, len, &set, &err), PB_OK);
        pb_resultset_free(set);
        free(buf);
    }
}

static void test_garbage(void **state)
{
    (void)state;
    unsigned seed = 12345;
    char buf[4096];
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof(buf); i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)(seed >> 16);
        }
        if (round % 2) { /* garbage after a plausible start */
            static const char head[] = "<?xml version=\"1.0\"?>\n"
                                       "<PhoronixTestSuite>\n<Result>";
            memcpy(buf, head, sizeof(head) - 1);
        }
        struct pb_err err = {0};
        assert_int_equal(parse_mem(buf, sizeof(buf), NULL, &err), PB_EINPUT);
        (void)pb_parser_pts_xml.sniff(buf, sizeof(buf));
    }
    struct pb_err err = {0};
    assert_int_equal(parse_mem("", 0, NULL, &err), PB_EINPUT);
    assert_string_equal(err.msg, "empty file");
    pb_err_clear(&err);
    assert_int_equal(parse_str("   \n\n  ", NULL, &err), PB_EINPUT);
    pb_err_clear(&err);
    assert_int_equal(parse_str("{\"fio version\": \"fio-3.33\"}", NULL, &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 1);
    /* deep nesting stops at libxml2's depth limit, cleanly */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<PhoronixTestSuite>");
    for (int i = 0; i < 5000; i++)
        pb_buf_puts(&b, "<a>");
    pb_err_clear(&err);
    assert_int_equal(parse_mem(b.s, b.len, NULL, &err), PB_EINPUT);
    pb_buf_release(&b);
}

static void test_xml_errors(void **state)
{
    (void)state;
    /* the first fatal error is reported, not its consequences */
    expect_err("<PhoronixTestSuite>\n<a>1</b><c></PhoronixTestSuite>", 2,
               "invalid XML: opening and ending tag mismatch: a line 2 and b");
    expect_err("<?xml version=\"1.0\"?>\n<PhoronixTestSu", 2,
               "truncated XML: the file ends inside the root start tag");
    expect_err("<PhoronixTestSuite>\n<Result>\n<Entry a=\"x", 3,
               "truncated XML: the file ends inside \"Result\" (opened on "
               "line 2)");
    expect_err("<PhoronixTestSuite><a>1 & 2</a></PhoronixTestSuite>", 1,
               "invalid XML");
    expect_err("<?xml version=\"1.0\"?>\n<other>\n<Result/>\n</other>\n", 2,
               "not a Phoronix Test Suite result: root element is "
               "\"other\"");
    expect_err("<?xml version=\"1.0\"?>\n<other>\n<Result>", 3,
               "truncated XML");
    /* a field longer than any PTS field is refused */
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < ((size_t)1 << 20) + 1; i++)
        pb_buf_putc(&b, 'x');
    char *doc = doc_with(b.s, "1", "1:2");
    expect_err(doc, 4, "text of \"Identifier\" is longer than 1048576 bytes");
    free(doc);
    pb_buf_release(&b);
    /* namespaced or unknown elements are ignored, a namespace error is not
     * fatal */
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(
        parse_str("<PhoronixTestSuite><x:y/><Junk><Result/></Junk>"
                  "<Result><Identifier>pts/a</Identifier><Title>A</Title>"
                  "<p:Scale>bad</p:Scale><Data><Entry><Identifier>s"
                  "</Identifier><Value>3</Value></Entry></Data></Result>"
                  "</PhoronixTestSuite>",
                  &set, &err),
        PB_OK);
    assert_int_equal(set->nresults, 1);
    assert_string_equal(set->tests[0].name, "A");
    assert_null(set->results[0].unit);
    pb_resultset_free(set);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    char *doc = doc_with("box", "12.5", "12:13");
    size_t len = strlen(doc);
    char *p = strstr(doc, "12.5");
    p[1] = '\0'; /* "1\0.5" on line 11 */
    struct pb_err err = {0};
    assert_int_equal(parse_mem(doc, len, NULL, &err), PB_EINPUT);
    assert_int_equal(err.line, 11);
    assert_int_equal(err.col, 54); /* "    <Data><Entry>...<Value>1" is 53 */
    assert_string_equal(err.msg,
                        "invalid XML: NUL byte (binary data or a damaged file)");
    free(doc);
}

static void test_values(void **state)
{
    (void)state;
    static const struct {
        const char *value, *raw;
        int has_value;
        double v;
        long n;
        const char *reason;
    } cases[] = {
        {"123456789012345678901234567890", "1:2", 1, 1.2345678901234568e29, 2,
         NULL},
        {"1e999", "1:2", 0, 0, 0, "value \"1e999\" is out of range"},
        {"-1.5e-3", "", 1, -1.5e-3, 0, NULL},
        {"12abc", "1:2", 0, 0, 0, "value \"12abc\" is not a number"},
        {"nan", "", 0, 0, 0, "value \"nan\" is not a number"},
        {"0x10", "", 0, 0, 0, "value \"0x10\" is not a number"},
        {"1,2,3,4", "1,2:3,4", 0, 0, 0, "value \"1,2,3,4\" is not a number"},
        {"5", "5:x:6", 1, 5, 0, NULL},    /* bad raw: samples unknown */
        {"5", "1e999:5", 1, 5, 0, NULL},  /* infinite raw value */
        {"  7.25 ", " 7 : 7.5 ", 1, 7.25, 2, NULL},
        {"", "", 0, 0, 0, "no value recorded"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *doc = doc_with("box", cases[i].value, cases[i].raw);
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        assert_int_equal(parse_str(doc, &set, &err), PB_OK);
        assert_int_equal(set->nresults, 1);
        const struct pb_result *r = &set->results[0];
        if (r->has_value != cases[i].has_value)
            fail_msg("case %zu (%s): has_value %d", i, cases[i].value,
                     r->has_value);
        if (r->has_value) {
            assert_near(r->value, cases[i].v, fabs(cases[i].v) * 1e-15);
            assert_int_equal(r->samples, cases[i].n);
        } else {
            assert_string_equal(r->null_reason, cases[i].reason);
        }
        free(doc);
        pb_resultset_free(set);
    }
}

static void test_html_and_cdata(void **state)
{
    (void)state;
    char *doc = doc_with("&lt;script&gt;alert(1)&lt;/script&gt;",
                         "<![CDATA[42]]>", "41:43");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(parse_str(doc, &set, &err), PB_OK);
    assert_string_equal(set->configs[0].label, "<script>alert(1)</script>");
    assert_string_equal(set->results[0].host, "<script>alert(1)</script>");
    check(&set->results[0], 42, "MB/s", PB_DIR_HIGHER, RAW(41, 43));
    free(doc);
    pb_resultset_free(set);
}

/* The same file with CRLF line ends gives the same set. */
static void test_crlf(void **state)
{
    (void)state;
    size_t len;
    char *buf = slurp(FIX "fio-2systems.xml", &len);
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n')
            pb_buf_putc(&b, '\r');
        pb_buf_putc(&b, buf[i]);
    }
    struct pb_err err = {0};
    struct pb_resultset *a = NULL, *c = NULL;
    assert_int_equal(parse_mem(buf, len, &a, &err), PB_OK);
    assert_int_equal(parse_mem(b.s, b.len, &c, &err), PB_OK);
    assert_int_equal(a->nresults, c->nresults);
    assert_int_equal(a->nfacts, c->nfacts);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_near(a->results[i].value, c->results[i].value, 0);
        assert_near(a->results[i].stderr_, c->results[i].stderr_, 0);
    }
    for (size_t i = 0; i < a->nfacts; i++)
        assert_string_equal(a->facts[i].value, c->facts[i].value);
    pb_resultset_free(a);
    pb_resultset_free(c);
    pb_buf_release(&b);
    free(buf);
}

/* ==== threads ==== */

struct job {
    const char *buf;
    size_t len;
    size_t nresults;
    int rc;
};

static void *thread_main(void *arg)
{
    struct job *j = arg;
    for (int k = 0; k < 20; k++) {
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        j->rc = parse_mem(j->buf, j->len, &set, &err);
        if (j->rc != PB_OK)
            return NULL;
        j->nresults = set->nresults;
        pb_resultset_free(set);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    size_t len;
    char *buf = slurp(FIX "fio-2systems.xml", &len);
    pthread_t t[4];
    struct job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct job){buf, len, 0, -1};
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(jobs[i].rc, PB_OK);
        assert_int_equal(jobs[i].nresults, 6);
    }
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_fixture_fio_2systems),
        cmocka_unit_test(test_fixture_lib_and_failures),
        cmocka_unit_test(test_fixture_commas),
        cmocka_unit_test(test_fixture_storage_descriptions),
        cmocka_unit_test(test_fixture_junk_crlf_html),
        cmocka_unit_test(test_corpus_7zip),
        cmocka_unit_test(test_corpus_gzip_10_systems),
        cmocka_unit_test(test_corpus_tiobench),
        cmocka_unit_test(test_corpus_blogbench),
        cmocka_unit_test(test_corpus_disk_suite),
        cmocka_unit_test(test_corpus_active_incomplete),
        cmocka_unit_test(test_corpus_active_no_results),
        cmocka_unit_test(test_corpus_simdjson),
        cmocka_unit_test(test_corpus_multi_test),
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_xxe_variants),
        cmocka_unit_test(test_billion_laughs_fast),
        cmocka_unit_test(test_wide_result_linear),
        cmocka_unit_test(test_huge_description),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_xml_errors),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_html_and_cdata),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
