/* Unit tests of the Phoronix Test Suite result XML parser: the fixtures and
 * every corpus file with values read from the files by hand, and parsing
 * on several threads. Bad and hostile input: test_pts_xml_hostile.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/pts_xml_help.h"

#include <ctype.h>
#include <pthread.h>
#include <unistd.h>

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
    /* the description decomposed with the model's keys (issue 11 item 6) */
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
 * parameters with the model's keys; the test keeps its title. */
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
    char *buf = th_slurp(FIX "junk-crlf-html.xml", &len);
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
    char *buf = th_slurp(path, &len);
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

/* ==== threads ==== */

static void test_threads(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FIX "fio-2systems.xml", &len);
    th_parse_in_threads(&pb_parser_pts_xml, buf, len, 6);
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
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
