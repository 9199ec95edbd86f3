/* Unit tests for the iozone text parser: every corpus file and fixture
 * with exact values (kB/s x 1024). Decisions of the file header on
 * samples built in memory, and hostile inputs: test_iozone_text_mem.c. */
#include "tests/unit/iozone_help.h"

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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
