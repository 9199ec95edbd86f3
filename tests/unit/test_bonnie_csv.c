/* Unit tests for ingest/bonnie_csv.c: the fixtures made with bonnie++ 2.00a
 * (and the hand-written 1.03/1.97 one), every file of the shared corpus
 * (skipped when absent), and hostile input built in memory. Expected
 * numbers are copied from the files and converted by hand: K/sec x 1024 =
 * B/s, us x 1e3 / ms x 1e6 / s x 1e9 = ns, sizes in MiB x 1048576 = B. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"
#include <dirent.h>
#include <unistd.h>

#include "ingest/ingest_int.h"

#define FIX_DIR    PB_FIXTURES_DIR "/bonnie-csv"
#define CORPUS_DIR PB_CORPUS_DIR "/bonnie-csv"

static const char TOO_FAST[] = "+++++ (too fast to measure)";

/* ==== helpers (the generic ones in testhelp.h) ==== */

#define BONNIEP (&pb_parser_bonnie_csv)

static struct pb_resultset *fixture(const char *name)
{
    return th_parse_ok(BONNIEP, FIX_DIR, name);
}

static struct pb_resultset *corpus(const char *name)
{
    skip_unless_exists(CORPUS_DIR);
    return th_parse_ok(BONNIEP, CORPUS_DIR, name);
}

/* Expect a parse of buf to fail at line:col with msg inside the message. */
static void expect_mem_reject(const char *buf, size_t len, long line,
                              long col, const char *msg)
{
    struct pb_resultset *set;
    struct pb_err err;
    assert_int_equal(th_parse(BONNIEP, "mem.csv", buf, len, &set, &err),
                     PB_EINPUT);
    assert_null(set);
    assert_int_equal(err.code, PB_EINPUT);
    assert_string_equal(err.path, "mem.csv");
    if (err.line != line || err.col != col || !strstr(err.msg, msg)) {
        print_error("got %ld:%ld: \"%s\", want %ld:%ld: \"%s\"\n", err.line,
                    err.col, err.msg, line, col, msg);
        fail();
    }
}

static void expect_reject(const char *dir, const char *name, long line,
                          long col, const char *msg)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    expect_mem_reject(buf, len, line, col, msg);
    free(buf);
}

/* The one result (host, job, metric) of test `test` (NULL: any test). */
static const struct pb_result *find_t(const struct pb_resultset *s,
                                      const char *test, const char *host,
                                      const char *job, const char *metric)
{
    const struct pb_result *hit = NULL;
    for (size_t i = 0; i < s->nresults; i++) {
        const struct pb_result *r = &s->results[i];
        if (th_same(r->host, host) && th_same(r->job, job) &&
            !strcmp(r->metric, metric) &&
            (!test || !strcmp(s->tests[r->test].name, test))) {
            if (hit) {
                print_error("two results for %s/%s/%s\n", host,
                            job ? job : "-", metric);
                fail();
            }
            hit = r;
        }
    }
    return hit;
}

static const struct pb_result *find(const struct pb_resultset *s,
                                    const char *host, const char *job,
                                    const char *metric)
{
    return find_t(s, NULL, host, job, metric);
}

static const struct pb_result *must(const struct pb_result *r,
                                    const char *metric)
{
    if (!r) {
        print_error("no result for %s\n", metric);
        fail();
    }
    return r;
}

/* value, unit and direction of a measured result */
static void chk_t(const struct pb_resultset *s, const char *test,
                  const char *host, const char *job, const char *metric,
                  double want, const char *unit, int dir)
{
    const struct pb_result *r = must(find_t(s, test, host, job, metric),
                                     metric);
    if (!r->has_value) {
        print_error("%s is NULL (%s)\n", metric, r->null_reason);
        fail();
    }
    assert_near(r->value, want, fabs(want) * 1e-12);
    assert_string_equal(r->unit, unit);
    assert_int_equal(r->direction, dir);
}

static void chk(const struct pb_resultset *s, const char *host,
                const char *job, const char *metric, double want,
                const char *unit, int dir)
{
    chk_t(s, NULL, host, job, metric, want, unit, dir);
}

static void chk_null(const struct pb_resultset *s, const char *host,
                     const char *job, const char *metric)
{
    const struct pb_result *r = must(find(s, host, job, metric), metric);
    assert_false(r->has_value);
    assert_string_equal(r->null_reason, TOO_FAST);
}

/* A result folded from repeated runs: mean, stderr (se < 0: none) and
 * samples (0: one run, unknown). */
static void chk_fold_t(const struct pb_resultset *s, const char *test,
                       const char *host, const char *metric, double mean,
                       double se, long n)
{
    const struct pb_result *r = must(find_t(s, test, host, NULL, metric),
                                     metric);
    if (!r->has_value) {
        print_error("%s is NULL (%s)\n", metric, r->null_reason);
        fail();
    }
    assert_near(r->value, mean, fabs(mean) * 1e-12);
    if (se < 0) {
        assert_false(r->has_stderr);
    } else {
        assert_true(r->has_stderr);
        assert_near(r->stderr_, se, fabs(se) * 1e-12);
    }
    assert_int_equal(r->samples, n);
}

static void chk_fold(const struct pb_resultset *s, const char *host,
                     const char *metric, double mean, double se, long n)
{
    chk_fold_t(s, NULL, host, metric, mean, se, n);
}

/* NULL "+++++" in all of n runs (n = 0: one run) */
static void chk_null_nt(const struct pb_resultset *s, const char *test,
                        const char *host, const char *metric, long n)
{
    const struct pb_result *r = must(find_t(s, test, host, NULL, metric),
                                     metric);
    assert_false(r->has_value);
    assert_string_equal(r->null_reason, TOO_FAST);
    assert_false(r->has_stderr);
    assert_int_equal(r->samples, n);
}

static void chk_null_n(const struct pb_resultset *s, const char *host,
                       const char *metric, long n)
{
    chk_null_nt(s, NULL, host, metric, n);
}

static void no_jobs(const struct pb_resultset *s)
{
    for (size_t i = 0; i < s->nresults; i++)
        assert_null(s->results[i].job);
}

static void chk_absent(const struct pb_resultset *s, const char *host,
                       const char *job, const char *metric)
{
    assert_null(find(s, host, job, metric));
}

static const char *tparam(const struct pb_resultset *s, size_t t,
                          const char *key)
{
    return th_param(&s->tests[t], key);
}

static size_t test_named(const struct pb_resultset *s, const char *name)
{
    const struct pb_test *t = th_test_named(s, name);
    assert_string_equal(t->tool, "bonnie++");
    return (size_t)(t - s->tests);
}

#define HI PB_DIR_HIGHER
#define LO PB_DIR_LOWER
#define KB 1024.0
#define MIB 1048576.0

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
                     pb_ingest_find_parser(buf, len) != &pb_parser_bonnie_csv)) {
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

/* ==== hostile input ==== */

static const char ROW197[] =
    "1.97,1.97,m1,1,1518013224,15G,,736,99,26293,3,24577,2,1656,99,34696,3,"
    "9677,141,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
    "+++,15706us,332ms,1814ms,6118us,31607us,5473us,735us,503us,1116us,373us,"
    "30us,1537us";

/* ROW197 with cell `idx` replaced by `val` (and name `name` if not NULL). */
static char *row_with(const char *name, int idx, const char *val)
{
    struct pb_buf b = PB_BUF_INIT;
    const char *p = ROW197;
    for (int i = 0;; i++) {
        const char *q = strchr(p, ',');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (i)
            pb_buf_putc(&b, ',');
        if (i == idx)
            pb_buf_puts(&b, val);
        else if (i == 2 && name)
            pb_buf_puts(&b, name);
        else
            pb_buf_add(&b, p, n);
        if (!q)
            break;
        p = q + 1;
    }
    pb_buf_putc(&b, '\n');
    return pb_buf_take(&b);
}

/* 1-based column of cell idx of row r */
static long col_of(const char *r, int idx)
{
    const char *p = r;
    for (int k = 0; k < idx; k++)
        p = strchr(p, ',') + 1;
    return (long)(p - r) + 1;
}

/* Repeats built from ROW197: runs of one machine and test fold into one
 * result per metric wherever they are in the file; other machines and
 * tests do not. */
static void test_repeats(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    /* m1 three times, seq_create "+++++", 100, 200; m2 in between */
    const char *cells[] = {"+++++", "100", "200"};
    for (int i = 0; i < 3; i++) {
        char *r = row_with(NULL, 24, cells[i]);
        pb_buf_puts(&b, r);
        free(r);
        if (i == 0) {
            r = row_with("m2", 7, "100");
            pb_buf_puts(&b, r);
            free(r);
        }
    }
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->nconfigs, 2);
    assert_int_equal(s->ntests, 1);
    assert_int_equal(s->nresults, 72); /* 36 per machine */
    no_jobs(s);
    assert_string_equal(s->results[0].host, "m1"); /* m1 came first */
    assert_string_equal(s->results[36].host, "m2");
    /* 100 and 200 measured, one run too fast: mean 150, SD 70.71, SE 50 */
    chk_fold(s, "m1", "seq_create", 150, 50, 2);
    chk_null_n(s, "m1", "seq_create_cpu", 3); /* "+++" three times */
    chk_fold(s, "m1", "seq_out_char_bw", 736 * KB, 0, 3);
    chk_fold(s, "m1", "seq_out_char_latency", 15706e3, 0, 3);
    assert_string_equal(th_fact(s, "m1", "too_fast_runs"),
                        "bonnie++ file_size=15G files=16k: seq_create 1 of "
                        "3");
    /* m2: one row, as read */
    chk_fold(s, "m2", "seq_out_char_bw", 100 * KB, -1, 0);
    chk_null_n(s, "m2", "seq_create", 0);
    assert_null(th_fact(s, "m2", "too_fast_runs"));
    pb_resultset_free(s);

    /* a 1.97 row (no seeks cells) and a 2.00a row (seeks 8192, the
     * default) of m1 name the same test but differ in its parameters:
     * two tests, as the database keys them (and as two files of these
     * rows give), so no fold: one result each */
    pb_buf_reset(&b);
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    const char *cut = strstr(ROW197, "15G,,") + 5;
    pb_buf_puts(&b, "1.98,2.00a");
    pb_buf_add(&b, ROW197 + 9, (size_t)(cut - ROW197 - 9));
    pb_buf_puts(&b, "8192,5,");
    pb_buf_puts(&b, cut);
    pb_buf_putc(&b, '\n');
    s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->ntests, 2);
    assert_string_equal(s->tests[0].name, "bonnie++ file_size=15G files=16k");
    assert_string_equal(s->tests[1].name, "bonnie++ file_size=15G files=16k");
    assert_null(tparam(s, 0, "seeks"));
    assert_string_equal(tparam(s, 1, "seeks"), "8192");
    assert_string_equal(tparam(s, 1, "seek_procs"), "5");
    assert_int_equal(s->nresults, 72);
    assert_int_equal(s->results[0].test, 0);
    assert_string_equal(s->results[3].metric, "seq_out_block_bw");
    assert_near(s->results[3].value, 26293 * KB, 0);
    assert_int_equal(s->results[3].samples, 0);
    assert_int_equal(s->results[36].test, 1);
    assert_string_equal(s->results[36].metric, "seq_out_char_bw");
    assert_near(s->results[36].value, 736 * KB, 0);
    assert_int_equal(s->results[36].samples, 0);
    assert_string_equal(s->tool_version, "bonnie++-1.97"); /* first row */
    assert_string_equal(th_fact(s, "m1", "bonnie_version"), "2.00a"); /* last */
    pb_resultset_free(s);

    /* another test (file size) of the same machine is not a repeat */
    pb_buf_reset(&b);
    char *r = row_with(NULL, 5, "16G");
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    pb_buf_puts(&b, r);
    free(r);
    s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->ntests, 2);
    assert_int_equal(s->nresults, 72);
    chk_fold_t(s, "bonnie++ file_size=16G files=16k", "m1", "seq_out_char_bw",
               736 * KB, -1, 0);
    pb_resultset_free(s);
    pb_buf_release(&b);
}

/* Numbers take an exact path instead of strtod: it must give the same
 * double, bit for bit. */
static void test_number_exact(void **state)
{
    (void)state;
    static const char *const v[] = {"0.1",  "148.7", "312.5", "0.3",
                                    "2.675", "99999999999999.9",
                                    "123456789012345", "0.000000000000001",
                                    "1.0000000000001", "9007199254740.993"};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        char *r = row_with(NULL, 17, v[i]); /* seeks: no unit factor */
        struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
        const struct pb_result *x =
            must(find(s, "m1", NULL, "random_seeks"), v[i]);
        double want = strtod(v[i], NULL);
        if (memcmp(&x->value, &want, sizeof(want)) != 0) {
            print_error("%s: got %.17g, strtod %.17g\n", v[i], x->value,
                        want);
            fail();
        }
        pb_resultset_free(s);
        free(r);
    }
}

static void test_empty_and_blank(void **state)
{
    (void)state;
    expect_mem_reject("", 0, 0, 0, "no bonnie++ CSV row found");
    expect_mem_reject("\n\n  \r\n", 6, 0, 0, "no bonnie++ CSV row found");
    const char *c = "# only a comment, with, commas, and more, commas\n"
                    "Comment here!\n";
    expect_mem_reject(c, strlen(c), 0, 0, "no bonnie++ CSV row found");
    const char *h = "format_version,bonnie_version,name,concurrency,seed\n";
    expect_mem_reject(h, strlen(h), 0, 0, "no bonnie++ CSV row found");
}

static void truncate_all(const char *dir, const char *name)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    for (int k = 0; k <= 10; k++) {
        size_t n = len * (size_t)k / 10;
        struct pb_resultset *set;
        struct pb_err err;
        int rc = th_parse(BONNIEP, name, buf, n, &set, &err);
        if (rc == PB_OK) {
            assert_non_null(set);
            pb_resultset_free(set);
        } else {
            assert_int_equal(rc, PB_EINPUT);
            assert_true(err.msg[0] != '\0');
            assert_true(err.line >= 0 && err.line <= pb_line_of(buf, n));
        }
        (void)th_sniff(BONNIEP, buf, n);
    }
    free(buf);
}

static void test_truncated(void **state)
{
    (void)state;
    truncate_all(FIX_DIR, "bonnie-2.00a_stdout-text-plus-csv.txt");
    truncate_all(FIX_DIR, "bonnie-2.00a_q-two-runs-appended.csv");
    truncate_all(FIX_DIR, "bonnie-1.03-and-1.97_hand-written_crlf.csv");
    if (access(CORPUS_DIR, R_OK) != 0)
        return;
    truncate_all(CORPUS_DIR,
                 "bonnie-1.96-and-1.03-mixed_with-comment_annttu.csv");
    truncate_all(CORPUS_DIR,
                 "bonnie-1.97_multiple-runs-appended_ssd_cunnie.txt");
    truncate_all(CORPUS_DIR,
                 "bonnie-1.96_multiple-runs-with-comment-header_iscsi_"
                 "cunnie.txt");
    /* a cut row is reported at its line */
    size_t len;
    char *buf = th_slurp_in(CORPUS_DIR,
                      "bonnie-1.97_pure-csv-5-runs_zfs-hdd_george-qiaozhi.csv",
                      &len);
    expect_mem_reject(buf, len / 2, 3, 0, "expected 48 (CSV format 1.97)");
    free(buf);
}

static void test_garbage(void **state)
{
    (void)state;
    /* deterministic random bytes, with and without commas */
    char *g = malloc(65536);
    assert_non_null(g);
    th_garbage(g, 65536, 12345);
    struct pb_resultset *set;
    struct pb_err err;
    for (size_t n = 0; n <= 65536; n += 4096) {
        int rc = th_parse(BONNIEP, "g", g, n, &set, &err);
        if (rc == PB_OK)
            pb_resultset_free(set);
        else
            assert_int_equal(rc, PB_EINPUT);
        (void)th_sniff(BONNIEP, g, n);
    }
    /* garbage after a version prefix is a broken row */
    const char *b = "1.97,1.97,\xff\xfe,\x01\x02,,,,,,,\n";
    expect_mem_reject(b, strlen(b), 1, 0, "columns, expected 48");
    free(g);
}

static void test_huge_numbers(void **state)
{
    (void)state;
    char *r = row_with(NULL, 9, "99999999999999999999999");
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_bw", 99999999999999999999999.0 * KB,
        "B/s", HI);
    pb_resultset_free(s);
    free(r);

    r = row_with(NULL, 37, "999999999999999999ms");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_latency", 999999999999999999e6, "ns",
        LO);
    pb_resultset_free(s);
    free(r);

    /* 400 digits: out of range, an error rather than inf */
    char big[401];
    memset(big, '9', 400);
    big[400] = '\0';
    r = row_with(NULL, 9, big);
    expect_mem_reject(r, strlen(r), 1, col_of(r, 9), "invalid value \"9999");
    free(r);
    r = row_with(NULL, 5, "99999999999999999999999999999G");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    pb_resultset_free(s);
    free(r);
}

static void test_html_label(void **state)
{
    (void)state;
    const char *name = "<script>alert('x')</script>&amp;\"q\"";
    char *r = row_with(name, -1, NULL);
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, name);
    assert_string_equal(s->results[0].host, name);
    assert_string_equal(th_fact(s, name, "bonnie_version"), "1.97");
    pb_resultset_free(s);
    free(r);
}

static void test_crlf_and_bom(void **state)
{
    (void)state;
    size_t len;
    char *lf =
        th_slurp_in(FIX_DIR, "bonnie-2.00a_stdout-text-plus-csv.txt", &len);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "\xEF\xBB\xBF");
    for (size_t i = 0; i < len; i++) {
        if (lf[i] == '\n')
            pb_buf_putc(&b, '\r');
        pb_buf_putc(&b, lf[i]);
    }
    struct pb_resultset *a = th_parse_mem_ok(BONNIEP, "lf", lf, len);
    struct pb_resultset *c = th_parse_mem_ok(BONNIEP, "crlf", b.s, b.len);
    assert_int_equal(a->nresults, c->nresults);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_string_equal(a->results[i].metric, c->results[i].metric);
        assert_int_equal(a->results[i].has_value, c->results[i].has_value);
        assert_near(a->results[i].value, c->results[i].value, 0);
        assert_string_equal(a->results[i].host, c->results[i].host);
    }
    assert_string_equal(c->tests[0].name, a->tests[0].name);
    pb_resultset_free(a);
    pb_resultset_free(c);
    pb_buf_release(&b);
    free(lf);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    /* NUL inside the machine name: an error at its column */
    char *r = row_with("ab\x01" "cd", -1, NULL);
    r[12] = '\0';
    size_t n = strlen(r + 13) + 13;
    expect_mem_reject(r, n, 1, 13, "control character in machine name");
    free(r);
    /* NUL in a skipped text line does not matter */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, "junk\0line\n", 10);
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    chk(s, "m1", NULL, "seq_out_char_bw", 736 * KB, "B/s", HI);
    pb_resultset_free(s);
    pb_buf_release(&b);
    /* NUL inside a number cell */
    r = row_with(NULL, 9, "26x93");
    char *x = strstr(r, "26x93");
    x[2] = '\0';
    expect_mem_reject(r, strlen(r + 60) + 60, 1, (long)(x - r) + 1,
                      "invalid value \"26?93\" in column \"put_block\"");
    free(r);
}

static void test_cells(void **state)
{
    (void)state;
    struct pb_resultset *s;
    char *r;
    /* latencies: ns, us, ms, s, with a fraction */
    r = row_with(NULL, 36, "1.5s");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_char_latency", 1.5e9, "ns", LO);
    pb_resultset_free(s);
    free(r);
    r = row_with(NULL, 36, "250ns");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_char_latency", 250, "ns", LO);
    pb_resultset_free(s);
    free(r);
    static const struct {
        int idx;
        const char *val, *msg;
    } bad[] = {
        {36, "1303", "invalid latency \"1303\" in column \"putc_latency\""},
        {36, "12xs", "invalid latency"},
        {36, "ms", "invalid latency"},
        {36, "-5ms", "invalid latency"},
        {7, "++", "invalid value \"++\" in column \"putc\""},
        {8, "9 9", "invalid value \"9 9\" in column \"putc_cpu\""},
        {7, "-1", "invalid value"},
        {7, "1e3", "invalid value"},
        {7, "nan", "invalid value"},
        {3, "x", "invalid number \"x\" in column \"concurrency\""},
        {5, "64Q", "invalid size \"64Q\" in column \"file_size\""},
        {6, "4q", "invalid size \"4q\" in column \"chunk_size\""},
        {19, "1.5", "invalid number \"1.5\" in column \"num_files\""},
        {20, "big", "invalid number \"big\" in column \"max_size\""},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        r = row_with(NULL, bad[i].idx, bad[i].val);
        expect_mem_reject(r, strlen(r), 1, col_of(r, bad[i].idx),
                          bad[i].msg);
        free(r);
    }
    /* blanks around cells are tolerated */
    r = row_with(NULL, 9, " 26293 ");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_bw", 26293 * KB, "B/s", HI);
    pb_resultset_free(s);
    free(r);
    /* a bare file size is MiB; a bare chunk size is bytes */
    r = row_with(NULL, 5, "512");
    char *r2 = row_with(NULL, 6, "512");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_string_equal(tparam(s, 0, "file_size"), "536870912");
    pb_resultset_free(s);
    s = th_parse_mem_ok(BONNIEP, "m", r2, strlen(r2));
    assert_string_equal(tparam(s, 0, "chunk_size"), "512");
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=15G chunk=512 files=16k");
    pb_resultset_free(s);
    free(r);
    free(r2);
}

static void test_layout_details(void **state)
{
    (void)state;
    struct pb_resultset *s;
    /* header order for the file block when num_dirs is in its own cell */
    const char *a =
        "1.97,1.97,m1,1,1,,,,,,,,,,,,,,,4,4096,512,8,2k,10,1,11,1,12,1,13,1,"
        "14,1,15,1,,,,,,,1ms,1ms,1ms,1ms,1ms,1ms\n";
    s = th_parse_mem_ok(BONNIEP, "m", a, strlen(a));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ files=4k max=4k min=512 dirs=8 "
                        "file_chunk=2k");
    assert_string_equal(tparam(s, 0, "num_dirs"), "8");
    assert_string_equal(tparam(s, 0, "file_chunk_size"), "2048");
    chk(s, "m1", NULL, "rand_delete", 15, "ops/s", HI);
    assert_int_equal(s->nresults, 18);
    pb_resultset_free(s);
    /* links, 1.98 with non-default seeks, concurrency */
    const char *b =
        "1.98,2.00a,m2,3,1,1G,,4000,2,,,5,1,,,,,,,,,1,link,,,,3,1,4,1,5,1,6,1,"
        "7,1,8,1,,1ms,,,,,2ms,2ms,2ms,2ms,2ms,2ms\n";
    s = th_parse_mem_ok(BONNIEP, "m", b, strlen(b));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=1G seeks=4000 seekers=2 files=1k "
                        "max=link concurrency=3");
    assert_string_equal(tparam(s, 0, "max_size"), "link");
    assert_string_equal(tparam(s, 0, "seeks"), "4000");
    assert_string_equal(tparam(s, 0, "seek_procs"), "2");
    chk(s, "m2", NULL, "seq_out_block_bw", 5 * KB, "B/s", HI);
    chk(s, "m2", NULL, "seq_out_block_latency", 1e6, "ns", LO);
    pb_resultset_free(s);
    /* 1.0x: symlinks and directories in the files cell */
    const char *c = "old,300M,1,2,3,4,5,6,7,8,9,10,11.5,12,4:symlink/2,1,1,"
                    "2,2,3,3,4,4,5,5,6,6\n";
    s = th_parse_mem_ok(BONNIEP, "m", c, strlen(c));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=300M files=4k max=symlink dirs=2");
    assert_string_equal(tparam(s, 0, "file_size"), "314572800");
    chk(s, "old", NULL, "random_seeks", 11.5, "ops/s", HI);
    pb_resultset_free(s);
    /* a 1.98 row with the 1.96 cell count, and a short 1.0x row */
    char *r = row_with(NULL, -1, NULL);
    memcpy(r, "1.98", 4);
    expect_mem_reject(r, strlen(r), 1, 0,
                      "row \"m1\" has 48 columns, expected 50 (CSV format "
                      "1.98)");
    free(r);
    const char *d = "# x\nold,300M,1,2,3,4,5,6,7,8,9,10,11.5,12,4,1,1\n";
    expect_mem_reject(d, strlen(d), 2, 0,
                      "row \"old\" has 17 columns, expected 27 (bonnie++ "
                      "1.0x CSV)");
    /* -s 0 -n 0 measures nothing: parsed, no results */
    const char *e = "1.97,1.97,m1,1,1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
                    ",\n";
    s = th_parse_mem_ok(BONNIEP, "m", e, strlen(e));
    assert_int_equal(s->nresults, 0);
    pb_resultset_free(s);
    /* an empty machine name */
    r = row_with("", -1, NULL);
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_string_equal(s->configs[0].label, "(unnamed)");
    pb_resultset_free(s);
    free(r);
}

/* Issue 18 item 9: 1.0x rows carry no version; the text table's "Version"
 * line gives it, else the fact flag.no_version. */
static void test_no_version(void **state)
{
    (void)state;
    static const char row[] =
        "zfs01,8G,52011,97,142516,31,58204,14,48216,89,150339,17,243.2,1,"
        "16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n";
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "mem.csv", row,
                                             sizeof(row) - 1);
    assert_null(s->tool_version);
    assert_string_equal(th_fact(s, NULL, "flag.no_version"), "no version found");
    pb_resultset_free(s);

    static const char text[] =
        "Version  1.03e       ------Sequential Output------ --Sequential "
        "Input- --Random-\n"
        "zfs01,8G,52011,97,142516,31,58204,14,48216,89,150339,17,243.2,1,"
        "16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n";
    s = th_parse_mem_ok(BONNIEP, "mem.txt", text, sizeof(text) - 1);
    assert_null(th_fact(s, NULL, "flag.no_version"));
    assert_string_equal(th_fact(s, NULL, "bonnie_version"), "1.03e");
    pb_resultset_free(s);

    /* a version cell: no flag */
    s = fixture("bonnie-2.00a_q-two-runs-appended.csv");
    assert_null(th_fact(s, NULL, "flag.no_version"));
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests_[] = {
        cmocka_unit_test(test_fixture_stdout),
        cmocka_unit_test(test_no_version),
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
        cmocka_unit_test(test_empty_and_blank),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_huge_numbers),
        cmocka_unit_test(test_html_label),
        cmocka_unit_test(test_crlf_and_bom),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_layout_details),
        cmocka_unit_test(test_repeats),
        cmocka_unit_test(test_number_exact),
    };
    return cmocka_run_group_tests(tests_, NULL, NULL);
}
