/* Unit tests of the fio normal-output parser (ingest/fio/fio_text.c): fixtures
 * and every corpus file with values read by hand from the files, the same
 * fio runs compared with ingest/fio/fio_json.c, sniffing. Hostile and broken
 * inputs: test_fio_text_hostile.c. */
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <unistd.h>

#define FX     PB_FIXTURES_DIR "/fio-text/"
#define CORPUS PB_CORPUS_DIR "/fio-text/"

/* ==== helpers (in testhelp.h) ==== */

#define TEXTP (&pb_parser_fio_text)

/* Parse a file that must be accepted. */
static struct pb_resultset *parse_ok(const char *path)
{
    return th_parse_ok(TEXTP, NULL, path);
}

/* Parameter key of the test called test. */
static const char *param(const struct pb_resultset *s, const char *test,
                         const char *key)
{
    return th_param(th_test_named(s, test), key);
}

/* ==== fixtures ==== */

static void test_randread(void **state)
{
    (void)state;
    struct pb_resultset *s = parse_ok(FX "fio-3.33_randread_4k_qd4_libaio.txt");
    assert_string_equal(s->tool_version, "fio-3.33");
    assert_string_equal(th_test_of(s, "rr")->name,
                        "fio randread bs=4k iodepth=4");
    const char *t = "fio randread bs=4k iodepth=4";
    assert_string_equal(param(s, t, "rw"), "randread");
    assert_string_equal(param(s, t, "bs"), "4096");
    assert_string_equal(param(s, t, "iodepth"), "4");
    assert_string_equal(param(s, t, "numjobs"), "1");
    assert_string_equal(param(s, t, "ioengine"), "libaio");
    /* issued total=1024, (4096KiB/48msec) */
    assert_near(th_val(s, "rr", "read_iops"), 1024 * 1000.0 / 48, 1e-9);
    assert_near(th_val(s, "rr", "read_bw"), floor(4194304 * 1000.0 / 48), 0);
    assert_near(th_val(s, "rr", "read_bytes"), 4194304, 0);
    assert_near(th_val(s, "rr", "read_runtime"), 48e6, 0);
    assert_near(th_val(s, "rr", "read_slat_mean"), 6373.63, 1e-9); /* nsec */
    assert_near(th_val(s, "rr", "read_clat_mean"), 177040, 1e-9); /* 177.04us */
    assert_near(th_val(s, "rr", "read_lat_mean"), 183420, 1e-9);
    assert_near(th_val(s, "rr", "read_clat_max"), 456000, 0);
    assert_near(th_val(s, "rr", "read_clat_p50"), 101000, 0);
    assert_near(th_val(s, "rr", "read_clat_p95"), 396000, 0);
    assert_near(th_val(s, "rr", "read_clat_p99"), 441000, 0);
    assert_near(th_val(s, "rr", "read_clat_p99.9"), 457000, 0);
    assert_near(th_val(s, "rr", "usr_cpu"), 0, 0);
    assert_near(th_val(s, "rr", "sys_cpu"), 23.40, 1e-9);
    assert_null(th_find(s, "rr", "write_iops"));
    const struct pb_result *r = th_find(s, "rr", "read_iops");
    assert_string_equal(r->unit, "ops/s");
    assert_int_equal(r->direction, PB_DIR_HIGHER);
    r = th_find(s, "rr", "read_clat_p99");
    assert_string_equal(r->unit, "ns");
    assert_int_equal(r->direction, PB_DIR_LOWER);
    assert_string_equal(th_find(s, "rr", "read_bw")->unit, "B/s");
    assert_string_equal(s->configs[0].label, "rr");
    pb_resultset_free(s);
}

static void test_randrw70(void **state)
{
    (void)state;
    struct pb_resultset *s = parse_ok(FX "fio-3.33_randrw70_4k_qd8_libaio.txt");
    const char *t = "fio randrw bs=4k iodepth=8";
    assert_string_equal(th_test_of(s, "mix7030")->name, t);
    /* issued total=707,317 (69.0% read): the job's rwmixread=70 is not in
     * the output, and the measured split is never taken for it */
    assert_null(param(s, t, "rwmixread"));
    assert_string_equal(param(s, t, "ioengine"), "libaio");
    assert_near(th_val(s, "mix7030", "read_bytes"), 707 * 4096.0, 0);
    assert_near(th_val(s, "mix7030", "write_bytes"), 317 * 4096.0, 0);
    assert_near(th_val(s, "mix7030", "read_iops"), 707 * 1000.0 / 20, 1e-9);
    assert_near(th_val(s, "mix7030", "write_iops"), 317 * 1000.0 / 20, 1e-9);
    assert_near(th_val(s, "mix7030", "write_bw"), floor(317 * 4096000.0 / 20),
                0);
    assert_near(th_val(s, "mix7030", "write_slat_mean"), 4256.61, 1e-9);
    assert_near(th_val(s, "mix7030", "write_clat_mean"), 118320, 1e-9);
    assert_near(th_val(s, "mix7030", "write_clat_p99.9"), 363000, 0);
    assert_near(th_val(s, "mix7030", "sys_cpu"), 36.84, 1e-9);
    pb_resultset_free(s);
}

static void test_group_reporting(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_read_64k_numjobs2_group-reporting.txt");
    const char *t = "fio read bs=64k iodepth=1 numjobs=2";
    assert_string_equal(th_test_of(s, "seqread")->name, t);
    assert_string_equal(param(s, t, "bs"), "65536");
    /* (16.0MiB/16msec), issued total=256 of 64 KiB */
    assert_near(th_val(s, "seqread", "read_bytes"), 256 * 65536.0, 0);
    assert_near(th_val(s, "seqread", "read_bw"), 1048576000, 0);
    assert_near(th_val(s, "seqread", "read_iops"), 16000, 1e-9);
    assert_near(th_val(s, "seqread", "usr_cpu"), 10.34, 1e-9);
    pb_resultset_free(s);
}

static void test_fsync(void **state)
{
    (void)state;
    struct pb_resultset *s = parse_ok(FX "fio-3.33_write_4k_fsync1_sync.txt");
    /* the normal output does not show fsync=1 */
    assert_string_equal(th_test_of(s, "syncwrite")->name,
                        "fio write bs=4k iodepth=1");
    assert_near(th_val(s, "syncwrite", "write_iops"), 256 * 1000.0 / 54, 1e-9);
    assert_near(th_val(s, "syncwrite", "write_clat_mean"), 6260, 1e-9);
    assert_near(th_val(s, "syncwrite", "write_lat_mean"), 6390, 1e-9);
    /* the sync percentiles (190, 807 usec) are not clat percentiles */
    assert_near(th_val(s, "syncwrite", "write_clat_p50"), 5000, 0);
    assert_near(th_val(s, "syncwrite", "write_clat_p99.9"), 149000, 0);
    assert_near(th_val(s, "syncwrite", "write_clat_max"), 149000, 0);
    assert_null(th_find(s, "syncwrite", "write_slat_mean")); /* not printed */
    assert_near(th_val(s, "syncwrite", "sys_cpu"), 22.64, 1e-9);
    assert_int_equal(th_count_prefix(s, NULL, "read_"), 0);
    pb_resultset_free(s);
}

static void test_clones(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_randwrite_8k_numjobs2_no-group-reporting.txt");
    const char *t = "fio randwrite bs=8k iodepth=1 numjobs=2";
    assert_string_equal(th_test_of(s, "rw8k#0")->name, t);
    assert_string_equal(th_test_of(s, "rw8k#1")->name, t);
    assert_string_equal(th_test_of(s, "rw8k")->name, t);
    /* clone 0: 256 ios in 30 msec, clone 1: 256 in 46 msec */
    assert_near(th_val(s, "rw8k#0", "write_iops"), 256000.0 / 30, 1e-9);
    assert_near(th_val(s, "rw8k#1", "write_iops"), 256000.0 / 46, 1e-9);
    assert_near(th_val(s, "rw8k", "write_iops"), 256000.0 / 30 + 256000.0 / 46,
                1e-9);
    assert_near(th_val(s, "rw8k", "write_bytes"), 2 * 2097152.0, 0);
    assert_near(th_val(s, "rw8k", "write_runtime"), 46e6, 0);
    assert_near(th_val(s, "rw8k", "write_clat_mean"),
                (112760.0 * 256 + 175360.0 * 256) / 512, 1e-6);
    assert_near(th_val(s, "rw8k", "write_clat_max"), 6014000, 0);
    /* CPU weighted by runtime: usr 0 / 6.67, sys 34.48 / 13.33 */
    assert_near(th_val(s, "rw8k", "sys_cpu"), (34.48 * 30 + 13.33 * 46) / 76,
                1e-9);
    assert_near(th_val(s, "rw8k", "usr_cpu"), (0 * 30 + 6.67 * 46) / 76, 1e-9);
    assert_null(th_find(s, "rw8k", "write_clat_p50")); /* not derivable */
    pb_resultset_free(s);
}

/* rwmixread comes from the pasted job file; the same output without it
 * has none (issued 644,380: a 62.9% split is not a parameter). */
static void test_jobfile_pasted(void **state)
{
    (void)state;
    const char *f = FX "fio-3.33_randrw65_jobfile-pasted.txt";
    struct pb_resultset *s = parse_ok(f);
    const char *t = "fio randrw bs=4k iodepth=1 rwmixread=65";
    assert_string_equal(th_test_of(s, "mix65")->name, t);
    assert_string_equal(param(s, t, "rwmixread"), "65");
    assert_string_equal(param(s, t, "size"), "4194304");
    assert_string_equal(param(s, t, "ioengine"), "psync");
    assert_near(th_val(s, "mix65", "read_bytes"), 644 * 4096.0, 0);
    pb_resultset_free(s);
    size_t len;
    char *buf = th_slurp(f, &len);
    const char *out = strstr(buf, "$ fio randrw-65.fio\n");
    assert_non_null(out);
    struct pb_err err;
    s = NULL;
    assert_int_equal(th_parse(&pb_parser_fio_text, "mem", out,
                              len - (size_t)(out - buf), &s, &err),
                     PB_OK);
    assert_string_equal(th_test_of(s, "mix65")->name,
                        "fio randrw bs=4k iodepth=1");
    assert_null(th_param(th_test_of(s, "mix65"), "rwmixread"));
    pb_resultset_free(s);
    free(buf);
}

/* Interrupted with SIGINT after 1348 ms of a --runtime=30 run (command
 * line pasted before the output): stored, with flag.interrupted. */
static void test_sigint(void **state)
{
    (void)state;
    struct pb_resultset *s = parse_ok(FX "fio-3.33_randread_sigint_cmdline.txt");
    assert_string_equal(
        th_fact(s, NULL, "flag.interrupted"),
        "line 7: fio: terminating on signal 2; ran 1.348 s of 30 s");
    assert_string_equal(th_fact(s, NULL, "device"), "/dev/shm/pbfio18/sig.dat");
    assert_near(th_val(s, "sigint-text", "read_runtime"), 1348e6, 0);
    assert_string_equal(th_test_of(s, "sigint-text")->name,
                        "fio randread bs=4k iodepth=1");
    assert_null(th_fact(s, NULL, "flag.no_version"));
    /* the job's start as fio printed it ("pid=7040: Tue Dec  1 15:25:57
     * 2026"): the History's time of the source (issue 41 item 8) */
    assert_string_equal(th_fact(s, NULL, "timestamp"), "2026-12-01 15:25:57");
    pb_resultset_free(s);
    /* pasted command lines and their IOPS lines, no "fio-3.x" line */
    s = parse_ok(FX "fio-3.33_notes_cmdlines-and-iops-lines.txt");
    assert_string_equal(th_fact(s, NULL, "flag.no_version"), "no version found");
    assert_null(th_fact(s, NULL, "flag.interrupted"));
    assert_null(th_fact(s, NULL, "timestamp")); /* no job line */
    pb_resultset_free(s);
}

/* Normal output of `fio --client` with one server: the probe line
 * "hostname=vm, ..., fio=fio-3.33" gives the host of the results and the
 * version; the "<vm> " prefix is not part of the header's job name. */
static void test_client_normal(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_client-server_one-server_normal.txt");
    assert_string_equal(s->tool_version, "fio-3.33");
    assert_string_equal(th_fact(s, "vm", "hostname"), "vm");
    const struct pb_test *t = th_htest_of(s, "vm", "cs-global");
    assert_string_equal(t->name, "fio randread bs=4k iodepth=1");
    assert_string_equal(th_param(t, "ioengine"), "libaio");
    assert_near(th_hval(s, "vm", "cs-global", "read_iops"), 256000, 1e-9);
    assert_null(th_fact(s, NULL, "flag.no_version"));
    pb_resultset_free(s);
    /* two servers: no host for the results, both names as a fact; the
     * header of x is found by its name without "<a> " */
    const char *two = "hostname=a, be=0, fio=fio-3.33, flags=1\n"
                      "hostname=b, be=0, fio=fio-3.33, flags=1\n"
                      "<a> y: (g=0): rw=write, bs=(R) 8192B-8192B, (W) "
                      "8192B-8192B, (T) 8192B-8192B, ioengine=psync, "
                      "iodepth=1\n"
                      "<a> x: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) "
                      "4096B-4096B, (T) 4096B-4096B, ioengine=sync, "
                      "iodepth=1\n"
                      "x: (groupid=0, jobs=1): err= 0: pid=1\n"
                      "  read: IOPS=10, BW=40.0KiB/s (41.0kB/s)"
                      "(40.0KiB/1000msec)\n"
                      "  cpu          : usr=0.00%, sys=1.00%, ctx=1\n";
    struct pb_err err;
    s = NULL;
    assert_int_equal(
        th_parse(&pb_parser_fio_text, "mem", two, strlen(two), &s, &err),
        PB_OK);
    assert_string_equal(th_fact(s, NULL, "hostname"), "a, b");
    assert_string_equal(th_test_of(s, "x")->name,
                        "fio randread bs=4k iodepth=1");
    assert_string_equal(th_param(th_test_of(s, "x"), "ioengine"), "sync");
    pb_resultset_free(s);
}

static void test_unified(void **state)
{
    (void)state;
    struct pb_resultset *s = parse_ok(FX "fio-3.33_randrw_unified-mixed.txt");
    /* normal output does not show rwmixread: none is invented */
    assert_string_equal(th_test_of(s, "unified")->name,
                        "fio randrw bs=4k iodepth=1");
    assert_near(th_val(s, "unified", "mixed_iops"), 512000.0 / 53, 1e-9);
    assert_near(th_val(s, "unified", "mixed_bytes"), 2097152, 0);
    assert_near(th_val(s, "unified", "mixed_clat_p50"), 95000, 0);
    assert_int_equal(th_count_prefix(s, NULL, "read_"), 0);
    assert_int_equal(th_count_prefix(s, NULL, "write_"), 0);
    pb_resultset_free(s);
}

/* The samples of result r of s as "a:b:c". */
static void samples_of(const struct pb_resultset *s, const struct pb_result *r,
                       double *out, size_t cap, size_t *n)
{
    const double *v;
    *n = pb_rs_result_samples(s, r, &v);
    for (size_t i = 0; i < *n && i < cap; i++)
        out[i] = v[i];
}

/* r's samples are exactly a then b (within eps). */
static void assert_two_samples(const struct pb_resultset *s,
                               const struct pb_result *r, double a, double b,
                               double eps)
{
    double v[4];
    size_t n;
    samples_of(s, r, v, 4, &n);
    assert_int_equal(n, 2);
    assert_near(v[0], a, eps);
    assert_near(v[1], b, eps);
}

static void test_appended(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_randread_2-runs-appended.txt");
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, "TEST");
    assert_string_equal(th_test_of(s, "TEST")->name,
                        "fio randread bs=4k iodepth=2");
    assert_null(th_find(s, "TEST run 1", "read_iops"));
    /* two runs of one job are repeats: one result, their mean, n = 2, the
     * values kept (issue 42); run 1: 512 ios in 18 msec; run 2: 19 msec */
    const struct pb_result *r = th_find(s, "TEST", "read_iops");
    assert_non_null(r);
    assert_near(r->value, (512000.0 / 18 + 512000.0 / 19) / 2, 1e-9);
    assert_int_equal(r->samples, 2);
    assert_true(r->has_stderr);
    assert_near(r->stderr_, (512000.0 / 18 - 512000.0 / 19) / 2, 1e-9);
    assert_two_samples(s, r, 512000.0 / 18, 512000.0 / 19, 1e-9);
    pb_resultset_free(s);
}

/* One name in groups 0 and 1 of one run (`--name=twice --name=twice
 * --new_group`): measured twice, one result of 2 samples, as fio's JSON
 * of the same run reads (before: two one-sample results of one config
 * and test). Group 0: 1,024 ios of 4 KiB in 3 msec; group 1: 4 msec. */
static void test_name_in_two_groups(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_read_same-name-two-groups.txt");
    assert_int_equal(s->nconfigs, 1);
    size_t n_iops = 0;
    for (size_t i = 0; i < s->nresults; i++)
        n_iops += !strcmp(s->results[i].metric, "read_iops");
    assert_int_equal(n_iops, 1);
    const struct pb_result *r = th_find(s, "twice", "read_iops");
    assert_non_null(r);
    assert_int_equal(r->samples, 2);
    assert_two_samples(s, r, 1024000.0 / 3, 1024000.0 / 4, 1e-6);
    assert_near(r->value, (1024000.0 / 3 + 1024000.0 / 4) / 2, 1e-6);
    pb_resultset_free(s);
}

static void test_notes(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_notes_cmdlines-and-iops-lines.txt");
    assert_null(s->tool_version);
    /* ioengine differs between the note's jobs (seqw gives none): named */
    const char *t = "fio randread bs=4k iodepth=8 direct=1 ioengine=libaio";
    assert_string_equal(th_test_of(s, "randread-4k")->name, t);
    assert_string_equal(param(s, t, "size"), "4194304");
    assert_string_equal(param(s, t, "ioengine"), "libaio");
    assert_string_equal(param(s, t, "direct"), "1");
    /* the same command twice: repeats. read: IOPS=64.0k, BW=250MiB/s
     * (262MB/s)(4096KiB/16msec), then IOPS=73.1k, BW=286MiB/s */
    const struct pb_result *r = th_find(s, "randread-4k", "read_iops");
    assert_near(r->value, (64000 + 73100) / 2.0, 1e-9);
    assert_int_equal(r->samples, 2);
    double v[4];
    size_t n;
    samples_of(s, r, v, 4, &n);
    assert_int_equal(n, 2);
    assert_near(v[0], 64000, 1e-9);
    assert_near(v[1], 73100, 1e-9);
    r = th_find(s, "randread-4k", "read_bw");
    samples_of(s, r, v, 4, &n);
    assert_near(v[0], 250.0 * 1048576, 0);
    assert_near(v[1], 286.0 * 1048576, 0);
    assert_near(th_val(s, "randread-4k", "read_bytes"), 4096.0 * 1024, 0);
    assert_near(th_val(s, "randread-4k", "read_runtime"), 15e6, 0);
    /* what only the first paste shows comes from it alone */
    r = th_find(s, "randread-4k", "read_clat_mean");
    assert_near(r->value, 115430, 1e-9);
    assert_int_equal(r->nsample, 0);
    assert_near(th_val(s, "randread-4k", "read_clat_max"), 606000, 0);
    assert_near(th_val(s, "randread-4k", "read_clat_p95"), 169000, 0);
    assert_near(th_val(s, "randread-4k", "read_clat_p99.9"), 603000, 0);
    /* "--rw randrw --rwmixread 70 --bs 16k \" continued on the next line */
    t = "fio randrw bs=16k iodepth=4 rwmixread=70 direct=1 ioengine=libaio";
    assert_string_equal(th_test_of(s, "mixed")->name, t);
    assert_near(th_val(s, "mixed", "read_iops"), 10200, 1e-9);
    assert_near(th_val(s, "mixed", "read_bw"), 160.0 * 1048576, 0);
    assert_near(th_val(s, "mixed", "read_bytes"), 2944.0 * 1024, 0);
    assert_near(th_val(s, "mixed", "write_iops"), 4000, 1e-9);
    assert_near(th_val(s, "mixed", "write_bw"), 62.5 * 1048576, 0);
    assert_near(th_val(s, "mixed", "write_runtime"), 18e6, 0);
    /* "user@box:/tmp$ sudo fio ... --numjobs=2 --group_reporting" */
    t = "fio write bs=64k iodepth=1 numjobs=2 fsync=1";
    assert_string_equal(th_test_of(s, "seqw")->name, t);
    assert_near(th_val(s, "seqw", "write_iops"), 4923, 1e-9);
    assert_near(th_val(s, "seqw", "write_bw"), 308.0 * 1048576, 0);
    pb_resultset_free(s);
}

/* ==== the same fio run through fio_json.c ==== */

/* The JSON test name without the options the normal output cannot show. */
static void strip_opts(const char *in, char *out, size_t cap)
{
    snprintf(out, cap, "%s", in);
    static const char *const drop[] = {" direct=1", " fsync=1"};
    for (size_t i = 0; i < 2; i++) {
        char *p = strstr(out, drop[i]);
        if (p)
            memmove(p, p + strlen(drop[i]), strlen(p + strlen(drop[i])) + 1);
    }
    /* nor rwmixread (never guessed from the measured split) */
    char *p = strstr(out, " rwmixread=");
    if (p) {
        size_t n = 11 + strspn(p + 11, "0123456789");
        memmove(p, p + n, strlen(p + n) + 1);
    }
}

/* Allowed difference for a metric printed by fio's normal output. */
static double tolerance(const char *metric, const char *job, double json)
{
    if (strstr(metric, "_iops") || strstr(metric, "_bw") ||
        strstr(metric, "_bytes") || strstr(metric, "_runtime"))
        return fabs(json) * 1e-9; /* recomputed from the I/O counts */
    if (strstr(metric, "_p") || strstr(metric, "clat_max"))
        return 1000; /* whole usec */
    if (strstr(metric, "_mean"))
        return 5; /* usec with 2 decimals */
    if (strstr(metric, "_cpu"))
        /* clone aggregates: runtime vs fio's job_runtime weights */
        return strchr(job, '#') || strstr(job, "rw8k") ? 0.1 : 0.005;
    return 0;
}

static void compare_pair(const char *base)
{
    char pj[512], pt[512], a[256], b[256];
    snprintf(pj, sizeof(pj), FX "same-run/%s.json", base);
    snprintf(pt, sizeof(pt), FX "%s.txt", base);
    struct pb_resultset *js = th_parse_ok(&pb_parser_fio_json, NULL, pj);
    struct pb_resultset *tx = parse_ok(pt);
    assert_int_equal(js->nresults, tx->nresults);
    for (size_t i = 0; i < js->nresults; i++) {
        const struct pb_result *r = &js->results[i];
        const struct pb_result *q = th_find(tx, r->job, r->metric);
        if (!q) {
            print_error("%s: text lacks %s %s\n", base, r->job, r->metric);
            fail();
        }
        assert_string_equal(q->unit, r->unit);
        assert_int_equal(q->direction, r->direction);
        assert_int_equal(q->has_value, r->has_value);
        assert_int_equal(q->samples, r->samples);
        strip_opts(js->tests[r->test].name, a, sizeof(a));
        snprintf(b, sizeof(b), "%s", tx->tests[q->test].name);
        assert_string_equal(a, b);
        assert_string_equal(js->configs[r->config].label,
                            tx->configs[q->config].label);
        if (r->has_value)
            assert_near(q->value, r->value,
                        tolerance(r->metric, r->job, r->value));
    }
    pb_resultset_free(js);
    pb_resultset_free(tx);
}

static void test_same_run_as_json(void **state)
{
    (void)state;
    static const char *const base[] = {
        "fio-3.33_randread_4k_qd4_libaio",
        "fio-3.33_randrw70_4k_qd8_libaio",
        "fio-3.33_read_64k_numjobs2_group-reporting",
        "fio-3.33_write_4k_fsync1_sync",
        "fio-3.33_randwrite_8k_numjobs2_no-group-reporting",
        "fio-3.33_randrw_unified-mixed",
        "fio-3.33_read_same-name-two-groups",
    };
    for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
        compare_pair(base[i]);
}

/* ==== corpus ==== */

#define CORPUS_FILE(name) skip_unless_in(CORPUS, name)

static void test_corpus_broken(void **state)
{
    (void)state;
    const char *f = CORPUS "BROKEN_fio-error-max-jobs_macos_74th.txt";
    CORPUS_FILE("BROKEN_fio-error-max-jobs_macos_74th.txt");
    size_t len;
    char *buf = th_slurp(f, &len);
    struct pb_err err = {0};
    struct pb_resultset *s = NULL;
    assert_int_equal(th_parse(TEXTP, "mem", buf, len, &s, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "fio failed: \"error: maximum number of "
                                 "jobs (8) reached.\"");
    assert_string_equal(th_sniffed(buf, len), "fio-text");
    free(buf);
}

static void test_corpus_fio216(void **state)
{
    (void)state;
    CORPUS_FILE("fio-2.16_randwrite_6groups_24procs_ceph_chris-sanders.txt");
    struct pb_resultset *s = parse_ok(
        CORPUS "fio-2.16_randwrite_6groups_24procs_ceph_chris-sanders.txt");
    assert_string_equal(s->tool_version, "fio-2.16");
    assert_int_equal(s->nconfigs, 6);
    const char *j = "ceph-fuse-replicated";
    assert_string_equal(th_test_of(s, j)->name,
                        "fio randwrite bs=4k iodepth=32 "
                        "numjobs=4");
    /* write: io=47232KB, bw=802654B/s, iops=195, runt= 60257msec;
     * issued w=11808 */
    assert_near(th_val(s, j, "write_bytes"), 47232.0 * 1024, 0);
    assert_near(th_val(s, j, "write_bytes"), 11808.0 * 4096, 0);
    assert_near(th_val(s, j, "write_bw"), 802654, 0);
    assert_near(th_val(s, j, "write_iops"), 11808 * 1000.0 / 60257, 1e-9);
    assert_near(th_val(s, j, "write_runtime"), 60257e6, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 20.39e6, 1e-6);     /* msec */
    assert_near(th_val(s, j, "write_clat_mean"), 630809.57e3, 1e-6); /* usec */
    assert_near(th_val(s, j, "write_clat_max"), 3311.7e6, 1e-3); /* 3311.7K */
    assert_near(th_val(s, j, "write_lat_mean"), 651.21e6, 1e-6);
    assert_near(th_val(s, j, "write_clat_p50"), 239e6, 0); /* msec block */
    assert_near(th_val(s, j, "write_clat_p95"), 2442e6, 0);
    assert_near(th_val(s, j, "write_clat_p99"), 2671e6, 0);
    assert_near(th_val(s, j, "write_clat_p99.9"), 3032e6, 0);
    assert_near(th_val(s, j, "usr_cpu"), 0.13, 1e-12);
    assert_near(th_val(s, j, "sys_cpu"), 0.36, 1e-12);
    j = "ceph-kern-erasure_2";
    assert_near(th_val(s, j, "write_bytes"), 32500.0 * 1024, 0);
    assert_near(th_val(s, j, "write_bw"), 545618, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 469130, 1e-6);
    assert_near(th_val(s, j, "write_clat_mean"), 950.90e6, 1e-6);
    assert_near(th_val(s, j, "write_clat_p99.9"), 2737e6, 0);
    assert_near(th_val(s, j, "sys_cpu"), 0.35, 1e-12);
    assert_int_equal(th_count_prefix(s, NULL, "read_"), 0);
    pb_resultset_free(s);
}

static void test_corpus_fio2210(void **state)
{
    (void)state;
    CORPUS_FILE("fio-2.2.10_rw-mixed_4k_ceph_chris-sanders.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-2.2.10_rw-mixed_4k_ceph_chris-sanders.txt");
    const char *j = "ceph-erasure-2-1";
    /* issued r=8177/w=8200 (49.9% read), no rwmixread in the file */
    assert_string_equal(th_test_of(s, j)->name, "fio rw bs=4k iodepth=32");
    assert_near(th_val(s, j, "read_bytes"), 32708.0 * 1024, 0);
    assert_near(th_val(s, j, "read_bw"), 557417, 0);
    assert_near(th_val(s, j, "read_iops"), 8177 * 1000.0 / 60086, 1e-9);
    assert_near(th_val(s, j, "read_slat_mean"), 59040, 1e-9);
    assert_near(th_val(s, j, "read_clat_mean"), 114.15e6, 1e-6);
    assert_near(th_val(s, j, "read_clat_p50"), 113152e3, 0); /* usec block */
    assert_near(th_val(s, j, "read_clat_p99.9"), 423936e3, 0);
    assert_near(th_val(s, j, "write_bytes"), 32800.0 * 1024, 0);
    assert_near(th_val(s, j, "write_bw"), 558985, 0);
    assert_near(th_val(s, j, "write_clat_p50"), 118e6, 0); /* msec block */
    assert_near(th_val(s, j, "write_clat_max"), 453e6, 0);
    assert_near(th_val(s, j, "usr_cpu"), 0.42, 1e-12);
    assert_near(th_val(s, j, "sys_cpu"), 2.13, 1e-12);
    pb_resultset_free(s);
}

static void test_corpus_appended(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.16_randread_32jobs_8-runs-appended_mvdiopt.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-3.16_randread_32jobs_8-runs-appended_mvdiopt.txt");
    assert_int_equal(s->nconfigs, 1);
    assert_int_equal(s->ntests, 1);
    assert_string_equal(s->tests[0].name,
                        "fio randread bs=4k iodepth=1 numjobs=32");
    /* eight runs of one command appended (tee -a): repeats, one result
     * per metric holding the eight values in run order (issue 42) */
    assert_null(th_find(s, "TEST run 1", "read_iops"));
    double v[16];
    size_t n;
    const struct pb_result *r = th_find(s, "TEST", "read_iops");
    samples_of(s, r, v, 16, &n);
    assert_int_equal(n, 8);
    assert_int_equal(r->samples, 8);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    assert_near(r->value, sum / 8, 1e-6);
    /* run 1: IOPS=79.6k ... (18.2GiB/60001msec), issued 4776928 */
    assert_near(v[0], 4776928e3 / 60001, 1e-6);
    samples_of(s, th_find(s, "TEST", "read_bytes"), v, 16, &n);
    assert_near(v[0], 4776928.0 * 4096, 0);
    samples_of(s, th_find(s, "TEST", "read_bw"), v, 16, &n);
    assert_near(v[0], floor(4776928.0 * 4096 * 1000 / 60001), 0);
    samples_of(s, th_find(s, "TEST", "read_slat_mean"), v, 16, &n);
    assert_near(v[0], 22716.13, 1e-9);
    samples_of(s, th_find(s, "TEST", "read_clat_max"), v, 16, &n);
    assert_near(v[0], 12699e3, 0);
    assert_near(v[7], 17614e3, 0);
    samples_of(s, th_find(s, "TEST", "read_clat_p99"), v, 16, &n);
    assert_near(v[0], 1004e3, 0);
    /* run 4: IOPS=8979 (2105MiB/60024msec), issued 538965 */
    samples_of(s, th_find(s, "TEST", "read_iops"), v, 16, &n);
    assert_near(v[3], 538965e3 / 60024, 1e-6);
    assert_near(v[7], 4800650e3 / 60001, 1e-6); /* run 8 */
    samples_of(s, th_find(s, "TEST", "read_runtime"), v, 16, &n);
    assert_near(v[3], 60024e6, 0);
    samples_of(s, th_find(s, "TEST", "read_clat_mean"), v, 16, &n);
    assert_near(v[3], 197278.93, 1e-9);
    assert_near(v[7], 370113.46, 1e-9);
    samples_of(s, th_find(s, "TEST", "sys_cpu"), v, 16, &n);
    assert_near(v[3], 2.18, 1e-12);
    samples_of(s, th_find(s, "TEST", "usr_cpu"), v, 16, &n);
    assert_near(v[7], 0.34, 1e-12);
    pb_resultset_free(s);
}

static void test_corpus_64jobs(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.16_randwrite_4k_64jobs_ubuntu-vm_74th.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-3.16_randwrite_4k_64jobs_ubuntu-vm_74th.txt");
    const char *j = "random-read-4KB-64Thread"; /* sic: it is a write */
    assert_string_equal(th_test_of(s, j)->name,
                        "fio randwrite bs=4k iodepth=1 numjobs=64");
    assert_string_equal(th_param(th_test_of(s, j), "ioengine"), "posixaio");
    assert_near(th_val(s, j, "write_iops"), 70020e3 / 11093, 1e-9);
    assert_near(th_val(s, j, "write_bytes"), 70020.0 * 4096, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 6679.81, 1e-9);
    assert_near(th_val(s, j, "write_clat_max"), 4055.0e6, 1e-3); /* 4055.0k */
    assert_near(th_val(s, j, "write_clat_p50"), 2671e3, 0);
    assert_near(th_val(s, j, "write_clat_p99.9"), 3909092e3, 0);
    assert_near(th_val(s, j, "sys_cpu"), 0.20, 1e-12);
    pb_resultset_free(s);
}

static void test_corpus_macos(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.19_randread_4k_8jobs_macos-m1_74th.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-3.19_randread_4k_8jobs_macos-m1_74th.txt");
    const char *j = "random-read-4KB-8Thread";
    assert_string_equal(th_test_of(s, j)->name,
                        "fio randread bs=4k iodepth=1 numjobs=8");
    assert_near(th_val(s, j, "read_iops"), 595942e3 / 10001, 1e-9);
    assert_near(th_val(s, j, "read_bw"), floor(595942.0 * 4096 * 1000 / 10001),
                0);
    assert_near(th_val(s, j, "read_slat_mean"), 427.91, 1e-9);
    assert_near(th_val(s, j, "read_clat_mean"), 133490.72, 1e-9);
    assert_near(th_val(s, j, "read_clat_max"), 11807e3, 0); /* 11807k nsec */
    assert_near(th_val(s, j, "read_lat_mean"), 133920, 1e-9);
    assert_near(th_val(s, j, "read_clat_p99.9"), 2057e3, 0);
    assert_near(th_val(s, j, "usr_cpu"), 0.70, 1e-12);
    pb_resultset_free(s);
}

static void test_corpus_fsync(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.30_randrw_fsync_x1extreme_mvdiopt.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-3.30_randrw_fsync_x1extreme_mvdiopt.txt");
    /* issued 11381,11313 (50.1% read), no rwmixread in the file */
    assert_string_equal(th_test_of(s, "TEST")->name,
                        "fio randrw bs=4k iodepth=1");
    assert_near(th_val(s, "TEST", "read_bytes"), 11381.0 * 4096, 0);
    assert_near(th_val(s, "TEST", "read_bw"), floor(11381.0 * 4096e3 / 60001),
                0);
    assert_near(th_val(s, "TEST", "write_iops"), 11313e3 / 60001, 1e-9);
    assert_near(th_val(s, "TEST", "write_slat_mean"), 42720, 1e-9);
    assert_near(th_val(s, "TEST", "write_clat_p50"), 190e3, 0);
    /* not the "sync percentiles (nsec)" block that follows */
    assert_near(th_val(s, "TEST", "write_clat_p99.9"), 474e3, 0);
    assert_near(th_val(s, "TEST", "sys_cpu"), 4.10, 1e-12);
    pb_resultset_free(s);
}

static void test_corpus_podlog(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.41_randrw-80-20_256k_in-pod-log_rafmoshe.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-3.41_randrw-80-20_256k_in-pod-log_rafmoshe.txt");
    assert_string_equal(s->tool_version, "fio-3.41");
    const char *j = "test10-burst-write-phase1";
    /* the job file pasted before the output: rwmixread=80, direct=1,
     * numjobs=8, size=10G, runtime=600 ([global]) */
    const char *t =
        "fio randrw bs=256k iodepth=16 numjobs=8 rwmixread=80 direct=1";
    assert_string_equal(th_test_of(s, j)->name, t);
    assert_string_equal(param(s, t, "bs"), "262144");
    assert_string_equal(param(s, t, "rwmixread"), "80");
    assert_string_equal(param(s, t, "size"), "10737418240");
    assert_string_equal(param(s, t, "runtime"), "600000000000");
    assert_string_equal(param(s, t, "ioengine"), "libaio");
    assert_near(th_val(s, j, "read_bytes"), 5759571.0 * 262144, 0);
    assert_near(th_val(s, j, "read_iops"), 5759571e3 / 600057, 1e-9);
    assert_near(th_val(s, j, "write_iops"), 1439869e3 / 600057, 1e-9);
    assert_near(th_val(s, j, "read_slat_mean"), 48290, 1e-9);
    assert_near(th_val(s, j, "write_clat_mean"), 7719720, 1e-9);
    assert_near(th_val(s, j, "write_clat_p99.9"), 113771e3, 0);
    assert_near(th_val(s, j, "usr_cpu"), 2.26, 1e-12);
    assert_near(th_val(s, j, "sys_cpu"), 8.48, 1e-12);
    pb_resultset_free(s);
}

/* Every corpus file is claimed by this parser when sniffed. */
static void test_corpus_sniff(void **state)
{
    (void)state;
    static const char *const files[] = {
        "fio-2.16_randwrite_6groups_24procs_ceph_chris-sanders.txt",
        "fio-2.2.10_rw-mixed_4k_ceph_chris-sanders.txt",
        "fio-3.16_randread_32jobs_8-runs-appended_mvdiopt.txt",
        "fio-3.16_randwrite_4k_64jobs_ubuntu-vm_74th.txt",
        "fio-3.19_randread_4k_8jobs_macos-m1_74th.txt",
        "fio-3.30_randrw_fsync_x1extreme_mvdiopt.txt",
        "fio-3.41_randrw-80-20_256k_in-pod-log_rafmoshe.txt",
    };
    skip_unless_exists(CORPUS);
    th_sniffed_as(TEXTP, CORPUS, files, sizeof(files) / sizeof(files[0]));
}

/* ==== sniffing ==== */

static void test_sniff(void **state)
{
    (void)state;
    static const char *const mine[] = {
        FX "fio-3.33_randread_4k_qd4_libaio.txt",
        FX "fio-3.33_notes_cmdlines-and-iops-lines.txt",
        FX "fio-3.33_randread_2-runs-appended.txt",
        FX "bad/fio-3.33_engine-not-loadable.txt",
    };
    th_sniffed_as(TEXTP, NULL, mine, sizeof(mine) / sizeof(mine[0]));
    /* json,normal output belongs to fio-json; terse to fio-terse */
    static const char *const other[] = {
        FX "same-run/fio-3.33_randread_4k_qd4_libaio.json",
        PB_FIXTURES_DIR "/fio-terse/fio-3.33_terse-v3_randrw70_4k_qd8.txt",
    };
    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
        size_t len;
        char *buf = th_slurp(other[i], &len);
        assert_true(pb_parser_fio_text.sniff(buf, len) <= 30);
        free(buf);
    }
    size_t plen;
    char *plain = th_slurp(FX "fio-3.33_randread_4k_qd4_libaio.txt", &plen);
    char *both = pb_xasprintf("{\n  \"fio version\" : \"fio-3.33\",\n"
                              "  \"jobs\" : []\n}\n%s",
                              plain);
    assert_true(pb_parser_fio_text.sniff(both, strlen(both)) <= 30);
    free(both);
    free(plain);
    const char *notes = "hello, these are my notes\nfio is nice - really\n";
    assert_int_equal(pb_parser_fio_text.sniff(notes, strlen(notes)), 0);
    assert_int_equal(pb_parser_fio_text.sniff("", 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_randread),
        cmocka_unit_test(test_randrw70),
        cmocka_unit_test(test_jobfile_pasted),
        cmocka_unit_test(test_sigint),
        cmocka_unit_test(test_client_normal),
        cmocka_unit_test(test_group_reporting),
        cmocka_unit_test(test_fsync),
        cmocka_unit_test(test_clones),
        cmocka_unit_test(test_unified),
        cmocka_unit_test(test_appended),
        cmocka_unit_test(test_name_in_two_groups),
        cmocka_unit_test(test_notes),
        cmocka_unit_test(test_same_run_as_json),
        cmocka_unit_test(test_corpus_broken),
        cmocka_unit_test(test_corpus_fio216),
        cmocka_unit_test(test_corpus_fio2210),
        cmocka_unit_test(test_corpus_appended),
        cmocka_unit_test(test_corpus_64jobs),
        cmocka_unit_test(test_corpus_macos),
        cmocka_unit_test(test_corpus_fsync),
        cmocka_unit_test(test_corpus_podlog),
        cmocka_unit_test(test_corpus_sniff),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
