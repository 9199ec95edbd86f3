/* Unit tests for ingest/bonnie/bonnie_csv.c: the fixtures made with bonnie++ 2.00a
 * (and the hand-written 1.03/1.97 one), every file of the shared corpus
 * (skipped when absent), and sniffing. Rows built in memory and hostile
 * input: test_bonnie_csv_rows.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/bonnie_csv_help.h"

#include <dirent.h>

/* ==== fixtures made with bonnie++ 2.00a ==== */

static void test_fixture_stdout(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("bonnie-2.00a_stdout-text-plus-csv.txt");
    /* 1.98,2.00a,pbtest,1,1795987953,64M,,8192,5,3563,99,+++++,+++,... */
    assert_string_equal(s->tool_version, "bonnie++-2.00a");
    assert_string_equal(th_fact(s, "pbtest", "bonnie_version"), "2.00a");
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, "pbtest");
    assert_int_equal(s->ntests, 1);
    size_t t = test_named(s, "bonnie++ file_size=64M files=1k");
    assert_string_equal(tparam(s, t, "file_size"), "67108864");
    assert_null(tparam(s, t, "chunk_size")); /* 2.00a leaves it empty */
    assert_string_equal(tparam(s, t, "seeks"), "8192");
    assert_string_equal(tparam(s, t, "seek_procs"), "5");
    assert_string_equal(tparam(s, t, "concurrency"), "1");
    assert_string_equal(tparam(s, t, "num_files"), "1024");
    assert_null(tparam(s, t, "seed"));
    assert_int_equal(s->nresults, 36);
    chk(s, "pbtest", NULL, "seq_out_char_bw", 3563 * KB, "B/s", HI);
    chk(s, "pbtest", NULL, "seq_out_char_cpu", 99, "%", LO);
    chk(s, "pbtest", NULL, "seq_out_char_latency", 1266e3, "ns", LO);
    chk_null(s, "pbtest", NULL, "seq_out_block_bw");
    chk_null(s, "pbtest", NULL, "seq_out_block_cpu");
    chk(s, "pbtest", NULL, "seq_out_block_latency", 368e3, "ns", LO);
    chk(s, "pbtest", NULL, "seq_in_char_bw", 5200 * KB, "B/s", HI);
    chk(s, "pbtest", NULL, "random_seeks_latency", 8176e3, "ns", LO);
    chk_null(s, "pbtest", NULL, "random_seeks");
    chk_null(s, "pbtest", NULL, "rand_delete");
    chk(s, "pbtest", NULL, "rand_delete_latency", 70e3, "ns", LO);
    /* a single run: stored as read, no stderr, samples unknown */
    chk_fold(s, "pbtest", "seq_out_char_bw", 3563 * KB, -1, 0);
    chk_null_n(s, "pbtest", "random_seeks", 0);
    assert_null(th_fact(s, "pbtest", "too_fast_runs"));
    no_jobs(s);
    pb_resultset_free(s);
}

static void test_fixture_two_runs(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("bonnie-2.00a_q-two-runs-appended.csv");
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, "zfs_mirror_rs128k");
    assert_int_equal(s->ntests, 1);
    size_t t = test_named(s, "bonnie++ file_size=64M files=1k max=4k min=1k "
                             "dirs=4");
    /* -n 1:4096:1024:4 is written "1,4096,1024,,4" */
    assert_string_equal(tparam(s, t, "max_size"), "4096");
    assert_string_equal(tparam(s, t, "min_size"), "1024");
    assert_string_equal(tparam(s, t, "num_dirs"), "4");
    assert_null(tparam(s, t, "file_chunk_size"));
    /* two runs of one machine and test: one result per metric */
    assert_int_equal(s->nresults, 36);
    no_jobs(s);
    const char *h = "zfs_mirror_rs128k";
    /* putc 3586 and 3511 K/sec: mean 3548.5 K/sec, SE = |a - b| / 2 =
     * 37.5 K/sec (sample SD |a - b| / sqrt 2, over sqrt 2) */
    chk(s, h, NULL, "seq_out_char_bw", 3548.5 * KB, "B/s", HI);
    chk_fold(s, h, "seq_out_char_bw", 3548.5 * KB, 37.5 * KB, 2);
    chk_fold(s, h, "seq_out_char_cpu", 98.5, 0.5, 2);       /* 99, 98 */
    chk_fold(s, h, "seq_out_char_latency", 4348e3, 1400e3, 2); /* 2948us,
                                                                 5748us */
    chk_fold(s, h, "seq_in_char_cpu", 99, 0, 2);            /* 99, 99 */
    chk_fold(s, h, "random_seeks_latency", 28164e3, 20100e3, 2); /* 8064us,
                                                                 48264us */
    /* seq_del "+++++" then 1775: the measured run alone, n = 1, no SE,
     * and a fact names the run that was too fast */
    chk_fold(s, h, "seq_delete", 1775, -1, 1);
    chk_fold(s, h, "seq_delete_cpu", 4, -1, 1);
    chk_fold(s, h, "seq_delete_latency", 2741500, 2518500, 2); /* 223us,
                                                                 5260us */
    assert_string_equal(th_fact(s, h, "too_fast_runs"),
                        "bonnie++ file_size=64M files=1k max=4k min=1k "
                        "dirs=4: seq_delete 1 of 2, seq_delete_cpu 1 of 2");
    /* put_block "+++++" in both runs */
    chk_null_n(s, h, "seq_out_block_bw", 2);
    chk_null_n(s, h, "rand_delete_cpu", 2);
    chk_absent(s, h, "run 1", "seq_out_char_bw");
    pb_resultset_free(s);
}

static void test_fixture_fast_mode(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("bonnie-2.00a_fast-mode-fsync-concurrency2.csv");
    const char *h = "raidz2_rs1M_lz4";
    size_t t = test_named(s, "bonnie++ file_size=64M files=1k "
                             "concurrency=2");
    assert_string_equal(tparam(s, t, "concurrency"), "2");
    /* -f: putc/getc, their CPU and latency cells are empty: no rows */
    assert_int_equal(s->nresults, 30);
    chk_absent(s, h, NULL, "seq_out_char_bw");
    chk_absent(s, h, NULL, "seq_out_char_cpu");
    chk_absent(s, h, NULL, "seq_out_char_latency");
    chk_absent(s, h, NULL, "seq_in_char_bw");
    chk(s, h, NULL, "seq_out_block_latency", 481e3, "ns", LO);
    chk(s, h, NULL, "seq_create", 1910, "ops/s", HI);
    chk(s, h, NULL, "seq_create_cpu", 35, "%", LO);
    chk(s, h, NULL, "seq_create_latency", 1772e3, "ns", LO);
    chk(s, h, NULL, "rand_create", 1863, "ops/s", HI);
    chk(s, h, NULL, "rand_create_cpu", 36, "%", LO);
    chk(s, h, NULL, "rand_stat_latency", 5e3, "ns", LO);
    chk_null(s, h, NULL, "rand_stat");
    pb_resultset_free(s);
}

static void test_fixture_hand_written(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("bonnie-1.03-and-1.97_hand-written_crlf.csv");
    const char *tank = "tank_raidz1_rs16k", *ufs = "legacy_ufs";
    assert_string_equal(s->tool_version, "bonnie++-1.97");
    assert_string_equal(th_fact(s, tank, "bonnie_version"), "1.97");
    assert_null(th_fact(s, ufs, "bonnie_version"));
    assert_int_equal(s->nconfigs, 2);
    assert_int_equal(s->ntests, 4);
    const char *t16 = "bonnie++ file_size=16G chunk=4k files=16k";
    size_t t = test_named(s, t16);
    assert_string_equal(tparam(s, t, "chunk_size"), "4096");
    assert_string_equal(tparam(s, t, "file_size"), "17179869184");
    /* rows 1 and 3 of tank repeat the test (not adjacent): folded */
    chk_fold_t(s, t16, tank, "seq_out_char_bw", 505 * KB, 7 * KB, 2);
    chk_fold_t(s, t16, tank, "random_seeks", 307.1, 5.4, 2); /* 312.5,
                                                              301.7 */
    chk_fold_t(s, t16, tank, "seq_rewrite_latency", 2993.5e6, 6.5e6,
               2); /* 3s, 2987ms */
    chk_fold_t(s, t16, tank, "rand_delete_latency", 119e9, 1e9,
               2); /* 120s, 118s */
    chk_null_nt(s, t16, tank, "seq_stat", 2); /* "++++", "+++++" */
    chk_null_nt(s, t16, tank, "seq_stat_cpu", 2);
    assert_null(th_fact(s, tank, "too_fast_runs"));
    no_jobs(s);
    /* -s 0 row: only the file tests, its own test */
    const char *tf = "bonnie++ files=16k max=4k min=512 dirs=8";
    t = test_named(s, tf);
    assert_null(tparam(s, t, "file_size"));
    assert_string_equal(tparam(s, t, "num_dirs"), "8");
    chk_t(s, tf, tank, NULL, "seq_create", 705, "ops/s", HI);
    chk_t(s, tf, tank, NULL, "rand_delete_latency", 101e6, "ns", LO);
    assert_null(find_t(s, tf, tank, NULL, "seq_out_block_bw"));
    /* 1.03 rows: 2G:4k, 16:1000:100/8 and an -n 0 row */
    const char *tl = "bonnie++ file_size=2G chunk=4k files=16k max=1000 "
                     "min=100 dirs=8";
    t = test_named(s, tl);
    assert_string_equal(tparam(s, t, "file_size"), "2147483648");
    assert_string_equal(tparam(s, t, "chunk_size"), "4096");
    assert_string_equal(tparam(s, t, "max_size"), "1000");
    assert_string_equal(tparam(s, t, "min_size"), "100");
    assert_null(tparam(s, t, "concurrency"));
    chk_t(s, tl, ufs, NULL, "seq_out_char_bw", 41234 * KB, "B/s", HI);
    chk_t(s, tl, ufs, NULL, "random_seeks", 210.4, "ops/s", HI);
    chk_t(s, tl, ufs, NULL, "rand_delete_cpu", 14, "%", LO);
    assert_null(find_t(s, tl, ufs, NULL, "seq_out_char_latency"));
    const char *tn = "bonnie++ file_size=2G chunk=4k";
    test_named(s, tn);
    chk_t(s, tn, ufs, NULL, "seq_in_block_bw", 61003 * KB, "B/s", HI);
    assert_null(find_t(s, tn, ufs, NULL, "seq_create"));
    /* 36 for tank's two runs, 6 x 3 for its -s 0 row, 24 + 12 for the
     * 1.03 rows (another test each: not repeats) */
    assert_int_equal(s->nresults, 36 + 18 + 24 + 12);
    chk_fold_t(s, tl, ufs, "seq_out_char_bw", 41234 * KB, -1, 0);
    pb_resultset_free(s);
}

static void test_fixture_bad(void **state)
{
    (void)state;
    expect_reject(FIX_DIR "/bad", "text-tables-only.txt", 0, 0,
                  "no bonnie++ CSV row found");
    expect_reject(FIX_DIR "/bad", "truncated-second-row.csv", 2, 0,
                  "row \"zfs_mirror_rs128k\" has 32 columns, expected 50 "
                  "(CSV format 1.98)");
    expect_reject(FIX_DIR "/bad", "wrong-column-count.csv", 2, 0,
                  "has 47 columns, expected 48 (CSV format 1.97)");
    expect_reject(FIX_DIR "/bad", "binary-garbage-in-cell.csv", 1, 52,
                  "invalid value \"?PNG?????\" in column \"put_block\"");
    expect_reject(FIX_DIR "/bad", "latency-without-unit.csv", 2, 180,
                  "invalid latency \"1303\" in column \"rewrite_latency\"");
}

/* ==== the shared corpus ==== */

static void test_corpus_mixed_103(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.96-and-1.03-mixed_with-comment_annttu.csv");
    assert_string_equal(s->tool_version, "bonnie++-1.96");
    assert_int_equal(s->nconfigs, 7);
    /* the 1.03 row (host7, no concurrency column) names the test of the
     * 8096M 1.96 rows, without their concurrency=1: a test of its own */
    assert_int_equal(s->ntests, 3);
    assert_int_equal(s->nresults, 6 * 36 + 24);
    size_t t = test_named(s, "bonnie++ file_size=8096M files=256k");
    assert_string_equal(tparam(s, t, "file_size"), "8489271296");
    assert_string_equal(tparam(s, t, "num_files"), "262144");
    assert_string_equal(tparam(s, t, "concurrency"), "1");
    test_named(s, "bonnie++ file_size=16G files=256k");
    assert_string_equal(s->tests[2].name,
                        "bonnie++ file_size=8096M files=256k");
    assert_null(tparam(s, 2, "concurrency"));
    assert_int_equal(s->tests[2].nparams, 2);
    const struct pb_result *h7 = find(s, "host7", NULL, "seq_out_char_bw");
    assert_non_null(h7);
    assert_int_equal(h7->test, 2);
    /* host1: 838,98,110033,7,48154,4,... 9829us,226ms,1759ms,... */
    chk(s, "host1", NULL, "seq_out_char_bw", 838 * KB, "B/s", HI);
    chk(s, "host1", NULL, "seq_out_block_bw", 110033 * KB, "B/s", HI);
    chk(s, "host1", NULL, "seq_out_block_cpu", 7, "%", LO);
    chk(s, "host1", NULL, "seq_out_char_latency", 9829e3, "ns", LO);
    chk(s, "host1", NULL, "seq_rewrite_latency", 1759e6, "ns", LO);
    chk(s, "host1", NULL, "random_seeks", 228.2, "ops/s", HI);
    chk_null(s, "host1", NULL, "seq_stat");
    chk_null(s, "host1", NULL, "seq_stat_cpu"); /* "+++" */
    chk(s, "host1", NULL, "seq_stat_latency", 458e3, "ns", LO);
    chk(s, "host1", NULL, "rand_delete_latency", 6206e6, "ns", LO);
    /* host3, 16G: ...,16101us,7694ms,7790ms,13804us,124ms,76495us,... */
    chk_t(s, "bonnie++ file_size=16G files=256k", "host3", NULL,
          "seq_stat", 332943, "ops/s", HI);
    chk(s, "host3", NULL, "seq_in_block_latency", 124e6, "ns", LO);
    chk(s, "host3", NULL, "random_seeks_latency", 76495e3, "ns", LO);
    /* host6: getc "+++++" */
    chk_null(s, "host6", NULL, "seq_in_char_bw");
    chk(s, "host6", NULL, "seq_in_char_latency", 3891e3, "ns", LO);
    /* host7 is the 1.03 row: no version, no latencies */
    chk(s, "host7", NULL, "seq_out_char_bw", 38449 * KB, "B/s", HI);
    chk(s, "host7", NULL, "seq_in_block_bw", 47958 * KB, "B/s", HI);
    chk(s, "host7", NULL, "random_seeks", 330.6, "ops/s", HI);
    chk(s, "host7", NULL, "random_seeks_cpu", 0, "%", LO);
    chk(s, "host7", NULL, "seq_delete", 66339, "ops/s", HI);
    chk(s, "host7", NULL, "rand_delete_cpu", 35, "%", LO);
    chk_null(s, "host7", NULL, "rand_stat");
    chk_absent(s, "host7", NULL, "seq_out_char_latency");
    assert_null(th_fact(s, "host7", "bonnie_version"));
    assert_string_equal(th_fact(s, "host5", "bonnie_version"), "1.96");
    pb_resultset_free(s);
}

static void test_corpus_perfkit(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.96_fast-mode-empty-putc_perfkit.csv");
    const char *h = "perfkit-7b22f510-0";
    size_t t = test_named(s, "bonnie++ file_size=7423M files=100k");
    assert_string_equal(tparam(s, t, "file_size"), "7783579648");
    assert_string_equal(tparam(s, t, "num_files"), "102400");
    assert_int_equal(s->nresults, 30);
    chk_absent(s, h, NULL, "seq_out_char_bw");
    chk_absent(s, h, NULL, "seq_in_char_latency");
    chk(s, h, NULL, "seq_out_block_bw", 72853 * KB, "B/s", HI);
    chk(s, h, NULL, "seq_out_block_latency", 512e6, "ns", LO);
    chk(s, h, NULL, "seq_in_block_latency", 44660e3, "ns", LO);
    chk(s, h, NULL, "random_seeks", 537.7, "ops/s", HI);
    chk(s, h, NULL, "random_seeks_cpu", 10, "%", LO);
    /* ...,49223,58,+++++,+++,54405,53,2898,97,+++++,+++,59089,60 */
    chk(s, h, NULL, "rand_create", 2898, "ops/s", HI);
    chk(s, h, NULL, "rand_create_cpu", 97, "%", LO);
    chk_null(s, h, NULL, "rand_stat");
    chk(s, h, NULL, "rand_delete", 59089, "ops/s", HI);
    chk(s, h, NULL, "rand_create_latency", 33518e3, "ns", LO);
    chk_null(s, h, NULL, "seq_stat");
    pb_resultset_free(s);
}

static void test_corpus_iscsi(void **state)
{
    (void)state;
    struct pb_resultset *s = corpus(
        "bonnie-1.96_multiple-runs-with-comment-header_iscsi_cunnie.txt");
    const char *h = "iSCSI_L2_80G";
    /* seven runs of one test, folded (means and SE computed with
     * python3's statistics.fmean/stdev from the cells) */
    assert_int_equal(s->nresults, 30);
    no_jobs(s);
    test_named(s, "bonnie++ file_size=80G files=1k");
    /* put_block 74149 66636 69179 62335 65328 69112 67811 K/sec */
    chk_fold(s, h, "seq_out_block_bw", 69419885.714285716, 1424379.2049294035,
             7);
    /* seeks 148.7 158.7 157.6 114.1 145.7 129.7 139.6 */
    chk_fold(s, h, "random_seeks", 142.01428571428571, 6.0085030451467203, 7);
    chk_fold(s, h, "seq_out_block_latency", 2007285714.2857144,
             58482278.262293264, 7);
    chk_fold(s, h, "seq_create", 474.57142857142856, 14.3125937599044, 7);
    chk_fold(s, h, "rand_delete_latency", 124243428.57142857,
             10462423.480648991, 7);
    chk_null_n(s, h, "seq_stat", 7);
    chk_absent(s, h, "run 1", "random_seeks");
    pb_resultset_free(s);
}

static void test_corpus_freenas(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.97_fastmode-with-hash-comments_freenas_cunnie.txt");
    /* the text table cuts the name to 15 characters, the CSV does not */
    const char *h = "RAIDZ2_FreeNAS_11";
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, h);
    test_named(s, "bonnie++ file_size=64G files=1k");
    assert_int_equal(s->nresults, 30);
    chk(s, h, NULL, "seq_out_block_bw", 323909 * KB, "B/s", HI);
    chk(s, h, NULL, "seq_out_block_cpu", 93, "%", LO);
    chk(s, h, NULL, "random_seeks", 5134, "ops/s", HI);
    chk(s, h, NULL, "random_seeks_cpu", 279, "%", LO);
    chk(s, h, NULL, "seq_delete_latency", 1316e6, "ns", LO);
    chk(s, h, NULL, "seq_rewrite_latency", 50234e3, "ns", LO);
    pb_resultset_free(s);
}

static void test_corpus_ssd(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.97_multiple-runs-appended_ssd_cunnie.txt");
    const char *h = "SSD_SATA_80G";
    /* nine runs appended, folded (python3 statistics on the cells) */
    assert_int_equal(s->nresults, 30);
    no_jobs(s);
    /* put_block 256640 313349 288357 293228 110696 291390 292077 291777
     * 288478 K/sec */
    chk_fold(s, h, "seq_out_block_bw", 276023978.66666669, 20926936.42771576,
             9);
    chk_fold(s, h, "seq_out_block_latency", 132601555.55555555,
             14721094.266119463, 9);
    chk_fold(s, h, "random_seeks", 5159.2222222222226, 46.280478779387998, 9);
    chk_fold(s, h, "rand_delete_latency", 448333.33333333331,
             148610.97611624192, 9);
    chk_null_n(s, h, "seq_create", 9);
    chk_null_n(s, h, "rand_delete_cpu", 9);
    pb_resultset_free(s);
}

static void test_corpus_zfs_hdd(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.97_pure-csv-5-runs_zfs-hdd_george-qiaozhi.csv");
    const char *h = "s209";
    size_t t = test_named(s, "bonnie++ file_size=16G files=16k");
    assert_string_equal(tparam(s, t, "num_files"), "16384");
    assert_int_equal(s->nresults, 30);
    no_jobs(s);
    /* put_block 111645 107697 106153 104564 103171 K/sec: mean 106646
     * K/sec; seeks 112.1 112.5 109.3 111.8 110.4: mean 111.22, squared
     * deviations 7.108 / 4 = 1.777, SD 1.33304, SE 0.596154 (by hand) */
    chk_fold(s, h, "seq_out_block_bw", 106646 * KB, 1497072.5908919715, 5);
    chk_fold(s, h, "random_seeks", 111.22, 0.59615434243155463, 5);
    chk_fold(s, h, "seq_out_block_latency", 2596.8e6, 53632452.862049855, 5);
    chk_fold(s, h, "rand_delete", 82, 1.5491933384829666, 5);
    chk_fold(s, h, "rand_delete_latency", 249.2e6, 22795613.613149349, 5);
    chk_null_n(s, h, "rand_stat", 5);
    pb_resultset_free(s);
}

static void test_corpus_qemu(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.97_single-line_qemu-zfs_george-qiaozhi.csv");
    const char *h = "s209";
    assert_int_equal(s->nresults, 30);
    chk(s, h, NULL, "seq_out_block_latency", 33865e6, "ns", LO);
    chk(s, h, NULL, "seq_rewrite_latency", 29625e6, "ns", LO);
    chk(s, h, NULL, "seq_out_block_bw", 14450 * KB, "B/s", HI);
    chk(s, h, NULL, "random_seeks", 390.3, "ops/s", HI);
    chk(s, h, NULL, "seq_create_latency", 79818e3, "ns", LO);
    pb_resultset_free(s);
}

static void test_corpus_gce(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("bonnie-1.97_stdout-text-plus-csv_gce-pd-ssd_cunnie.txt");
    const char *h = "gce_pd-ssd";
    size_t t = test_named(s, "bonnie++ file_size=15G files=16k");
    assert_string_equal(tparam(s, t, "file_size"), "16106127360");
    assert_int_equal(s->nresults, 36);
    chk(s, h, NULL, "seq_out_char_bw", 736 * KB, "B/s", HI);
    chk(s, h, NULL, "seq_out_char_cpu", 99, "%", LO);
    chk(s, h, NULL, "seq_in_char_bw", 1656 * KB, "B/s", HI);
    chk(s, h, NULL, "random_seeks", 9677, "ops/s", HI);
    chk(s, h, NULL, "random_seeks_cpu", 141, "%", LO);
    chk(s, h, NULL, "seq_out_char_latency", 15706e3, "ns", LO);
    chk(s, h, NULL, "seq_rewrite_latency", 1814e6, "ns", LO);
    chk(s, h, NULL, "rand_delete_latency", 1537e3, "ns", LO);
    chk_null(s, h, NULL, "seq_create");
    chk_null(s, h, NULL, "rand_delete");
    pb_resultset_free(s);
}

/* ==== sniffing ==== */

static int is_bonnie_name(const char *dir, const char *name)
{
    (void)dir;
    size_t n = strlen(name);
    return !(n > 9 && !strcmp(name + n - 9, ".expected")) &&
           !(n > 4 && !strcmp(name + n - 4, ".err")) && strcmp(name, "bad") &&
           strcmp(name, "README.md") && name[0] != '.';
}

/* Every file of dir must sniff as bonnie-csv (want != 0) or score 0. */
static void sniff_dir(const char *dir, int want)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    int seen = 0;
    while ((de = readdir(d)) != NULL) {
        if (!is_bonnie_name(dir, de->d_name))
            continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        char *buf = NULL;
        size_t len;
        struct pb_err err = {0};
        if (pb_read_file(path, &buf, &len, &err) != PB_OK)
            continue; /* a directory */
        seen++;
        int sc = th_sniff(BONNIEP, buf, len);
        if (want && (sc < want ||
                     strcmp(th_sniffed(buf, len), "bonnie-csv") != 0)) {
            print_error("%s sniffs %d\n", path, sc);
            fail();
        }
        if (!want && sc != 0) {
            print_error("%s is not bonnie++ but sniffs %d\n", path, sc);
            fail();
        }
        free(buf);
    }
    closedir(d);
    if (want)
        assert_true(seen > 0);
}

static void test_sniff(void **state)
{
    (void)state;
    sniff_dir(FIX_DIR, 80);
    static const char *const others[] = {"fio-json", "fio-text", "fio-terse",
                                         "iozone", "pts-xml", "zfs-props", "zfs",
                                         NULL};
    char path[1024];
    for (size_t i = 0; others[i]; i++) {
        snprintf(path, sizeof(path), "%s/%s", PB_CORPUS_DIR, others[i]);
        sniff_dir(path, 0);
        snprintf(path, sizeof(path), "%s/%s", PB_FIXTURES_DIR, others[i]);
        sniff_dir(path, 0);
    }
    size_t len;
    char *buf = th_slurp_in(FIX_DIR "/bad", "text-tables-only.txt", &len);
    assert_int_equal(th_sniff(BONNIEP, buf, len), 60);
    free(buf);
    assert_int_equal(th_sniff(BONNIEP, "", 0), 0);
    static const char *const no[] = {
        "a,b,c\n1,2,3\n",
        "{\"fio version\": \"fio-3.33\"}\n",
        "Comment here!\n",
        "1.5,2.5\n",
        "host,64M,12\n",
        "3;fio-3.33;job;0;0;1;2;3\n",
    };
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        assert_int_equal(th_sniff(BONNIEP, no[i], strlen(no[i])), 0);
}

static void test_sniff_corpus(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS_DIR);
    sniff_dir(CORPUS_DIR, 80);
}

int main(void)
{
    const struct CMUnitTest tests_[] = {
        cmocka_unit_test(test_fixture_stdout),
        cmocka_unit_test(test_fixture_two_runs),
        cmocka_unit_test(test_fixture_fast_mode),
        cmocka_unit_test(test_fixture_hand_written),
        cmocka_unit_test(test_fixture_bad),
        cmocka_unit_test(test_corpus_mixed_103),
        cmocka_unit_test(test_corpus_perfkit),
        cmocka_unit_test(test_corpus_iscsi),
        cmocka_unit_test(test_corpus_freenas),
        cmocka_unit_test(test_corpus_ssd),
        cmocka_unit_test(test_corpus_zfs_hdd),
        cmocka_unit_test(test_corpus_qemu),
        cmocka_unit_test(test_corpus_gce),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_sniff_corpus),
    };
    return cmocka_run_group_tests(tests_, NULL, NULL);
}
