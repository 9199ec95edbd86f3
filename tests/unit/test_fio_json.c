/* Unit tests for ingest/fio/fio_json.c: every fixture made with fio 3.33 and
 * every file of the shared corpus (skipped when absent). Expected numbers
 * are copied from the files, in canonical units (B, B/s, ns). Hostile
 * input built in memory, truncation and sniffing: test_fio_json_hostile.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/fio_json_help.h"

/* ==== fixtures made with fio 3.33 (fixtures/README.md) ==== */

static void fix_randread_libaio(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_randread_4k_qd4_libaio.json");
    const char *j = "randread-4k-qd4";
    assert_string_equal(s->tool_version, "fio-3.33");
    assert_val(s, j, "read_iops", 37925.925926);
    assert_val(s, j, "read_bw", 155344592);
    assert_val(s, j, "read_bytes", 4194304);
    assert_val(s, j, "read_runtime", 27e6);
    assert_val(s, j, "read_clat_mean", 95120.722656);
    assert_val(s, j, "read_slat_mean", 7962.378906);
    assert_val(s, j, "read_lat_mean", 103083.101562);
    assert_val(s, j, "read_clat_p50", 82432);
    assert_val(s, j, "read_clat_p95", 177152);
    assert_val(s, j, "read_clat_p99", 411648);
    assert_val(s, j, "read_clat_p99.9", 522240);
    assert_val(s, j, "read_clat_max", 523565);
    assert_val(s, j, "usr_cpu", 15.384615);
    assert_val(s, j, "sys_cpu", 30.769231);
    assert_string_equal(unit_of(s, j, "read_bw"), "B/s");
    assert_string_equal(unit_of(s, j, "read_iops"), "ops/s");
    assert_string_equal(unit_of(s, j, "read_clat_p99"), "ns");
    assert_string_equal(unit_of(s, j, "read_bytes"), "B");
    assert_string_equal(unit_of(s, j, "sys_cpu"), "%");
    assert_int_equal(th_find(s, j, "read_iops")->direction, PB_DIR_HIGHER);
    assert_int_equal(th_find(s, j, "read_clat_p99")->direction, PB_DIR_LOWER);
    assert_int_equal(th_count_prefix(s, j, "write_"), 0);
    assert_int_equal(th_count_prefix(s, j, "trim_"), 0);
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name, "fio randread bs=4k iodepth=4 direct=1");
    assert_string_equal(t->tool, "fio");
    assert_string_equal(th_param(t, "rw"), "randread");
    assert_string_equal(th_param(t, "bs"), "4096");
    assert_string_equal(th_param(t, "iodepth"), "4");
    assert_string_equal(th_param(t, "numjobs"), "1");
    assert_string_equal(th_param(t, "direct"), "1");
    assert_string_equal(th_param(t, "ioengine"), "libaio");
    assert_string_equal(th_param(t, "size"), "4194304");
    assert_string_equal(th_param(t, "runtime"), "1000000000");
    assert_string_equal(config_of(s, j), j);
    /* the version, the start ("timestamp": 1795989071 s, UTC) and the
     * disk of "disk_util" (no filename option) */
    assert_int_equal(s->nfacts, 3);
    assert_string_equal(s->facts[0].key, "fio_version");
    assert_string_equal(s->facts[0].value, "fio-3.33");
    assert_string_equal(th_fact(s, NULL, "timestamp"), "2026-11-29 21:51:11");
    assert_string_equal(th_fact(s, NULL, "device"), "vda");
    pb_resultset_free(s);
}

static void fix_write_only(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_write_64k_fsync16.json");
    const char *j = "seqwrite-64k";
    assert_val(s, j, "write_bw", 699050666);
    assert_val(s, j, "write_iops", 10666.666667);
    assert_val(s, j, "write_clat_p50", 11456);
    /* no fake zero rows for the direction the job does not do */
    assert_int_equal(th_count_prefix(s, j, "read_"), 0);
    assert_int_equal(th_count_prefix(s, j, "trim_"), 0);
    /* psync: fio did not measure slat (N = 0) */
    assert_null(th_find(s, j, "write_slat_mean"));
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name, "fio write bs=64k iodepth=1 fsync=16");
    assert_string_equal(th_param(t, "fsync"), "16");
    assert_string_equal(th_param(t, "bs"), "65536");
    assert_string_equal(th_param(t, "ioengine"), "psync");
    assert_null(th_param(t, "direct"));
    assert_null(th_param(t, "rwmixread"));
    pb_resultset_free(s);
}

static void fix_randrw_json_plus(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_randrw70_4k_json-plus.json");
    const char *j = "randrw-70";
    assert_val(s, j, "read_clat_p99.9", 489472);
    assert_val(s, j, "read_bytes", 2895872);
    assert_val(s, j, "write_iops", 8128.205128);
    assert_val(s, j, "write_slat_mean", 3319.356467);
    assert_val(s, j, "write_clat_p50", 362496);
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name,
                        "fio randrw bs=4k iodepth=8 rwmixread=70 direct=1");
    assert_string_equal(th_param(t, "rwmixread"), "70");
    pb_resultset_free(s);
}

static void fix_three_jobs(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_three-jobs.json");
    /* three jobs of one invocation on one target (directory=): tests of
     * one configuration, labelled by the file (issue 42) */
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, "fio-3.33_three-jobs");
    assert_int_equal(s->ntests, 3);
    assert_val(s, "seqread-128k", "read_bw", 466033777);
    assert_int_equal(th_count_prefix(s, "seqread-128k", "write_"), 0);
    assert_val(s, "randwrite-8k", "write_clat_mean", 137140.373047);
    assert_int_equal(th_count_prefix(s, "randwrite-8k", "read_"), 0);
    assert_val(s, "rw-4k-16k", "write_bytes", 3375104);
    assert_val(s, "rw-4k-16k", "read_bytes", 819200);
    assert_string_equal(th_test_of(s, "seqread-128k")->name,
                        "fio read bs=128k iodepth=1 direct=1");
    const struct pb_test *t = th_test_of(s, "randwrite-8k");
    assert_string_equal(t->name, "fio randwrite bs=8k iodepth=2 direct=1");
    assert_string_equal(th_param(t, "ioengine"), "libaio"); /* global */
    t = th_test_of(s, "rw-4k-16k");
    assert_string_equal(
        t->name, "fio rw bs=4k bs_write=16k iodepth=1 rwmixread=50 direct=1");
    assert_string_equal(th_param(t, "bs"), "4096");
    assert_string_equal(th_param(t, "bs_write"), "16384");
    assert_string_equal(th_param(t, "rwmixread"), "50");
    assert_string_equal(config_of(s, "rw-4k-16k"), "fio-3.33_three-jobs");
    pb_resultset_free(s);
}

static void fix_numjobs_grouped(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("fio-3.33_randread_numjobs4_group-reporting.json");
    const char *j = "randread-nj4";
    assert_val(s, j, "read_bytes", 8388608);
    assert_val(s, j, "read_iops", 31507.692308);
    assert_val(s, j, "read_clat_p99", 411648);
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name, "fio randread bs=4k iodepth=1 numjobs=4");
    assert_string_equal(th_param(t, "numjobs"), "4");
    pb_resultset_free(s);
}

static void fix_numjobs_clones(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("fio-3.33_randwrite_numjobs3_no-group-reporting.json");
    assert_val(s, "randwrite-nj3#0", "write_clat_mean", 2502.976562);
    assert_val(s, "randwrite-nj3#1", "write_clat_p50", 1576);
    assert_val(s, "randwrite-nj3#2", "write_clat_max", 13108);
    /* aggregate: sums, io-weighted means (512 I/Os each), no percentiles */
    const char *j = "randwrite-nj3";
    assert_val(s, j, "write_iops", 768000);
    assert_val(s, j, "write_bw", 3 * 1048576000.0);
    assert_val(s, j, "write_bytes", 3 * 2097152.0);
    assert_val(s, j, "write_clat_mean",
               (2502.976562 + 2518.623047 + 1700.427734) / 3);
    assert_val(s, j, "write_lat_mean",
               (2532.818359 + 2548.716797 + 1729.791016) / 3);
    assert_val(s, j, "write_clat_max", 147650);
    assert_val(s, j, "write_runtime", 2e6);
    assert_null(th_find(s, j, "write_clat_p50"));
    assert_null(th_find(s, j, "write_clat_p99"));
    assert_null(th_find(s, "randwrite-nj3#3", "write_iops"));
    assert_string_equal(config_of(s, "randwrite-nj3#1"), j);
    assert_ptr_equal(th_test_of(s, j), th_test_of(s, "randwrite-nj3#0"));
    assert_string_equal(th_test_of(s, j)->name,
                        "fio randwrite bs=4k iodepth=1 numjobs=3");
    pb_resultset_free(s);
}

static void fix_json_normal(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_randread_json-normal.json");
    assert_val(s, "randread-4k-qd4", "read_iops", 39384.615385);
    assert_val(s, "randread-4k-qd4", "read_lat_mean", 97482.819336);
    assert_int_equal(sniff_file(FIX_DIR, "fio-3.33_randread_json-normal.json"),
                     90);
    pb_resultset_free(s);
}

static void fix_warning_prefix(void **state)
{
    (void)state;
    const char *f = "fio-3.33_read_16k_warning-prefix.json";
    struct pb_resultset *s = fixture(f);
    assert_val(s, "warn-time-based", "read_clat_max", 1462076);
    assert_val(s, "warn-time-based", "read_bw", 1048576000);
    assert_string_equal(th_param(th_test_of(s, "warn-time-based"), "bs"),
                        "16384");
    assert_int_equal(sniff_file(FIX_DIR, f), 90);
    pb_resultset_free(s);
}

static void fix_sigint_prefix(void **state)
{
    (void)state;
    const char *f = "fio-3.33_randread_sigint-prefix.json";
    struct pb_resultset *s = fixture(f);
    assert_val(s, "sigint-randread", "read_bytes", 66023424);
    assert_val(s, "sigint-randread", "read_clat_p99.9", 432128);
    assert_string_equal(th_param(th_test_of(s, "sigint-randread"), "runtime"),
                        "30000000000");
    assert_int_equal(sniff_file(FIX_DIR, f), 90);
    /* stored, with what was cut short: 1243 ms of runtime=30 */
    assert_string_equal(
        th_fact(s, NULL, "flag.interrupted"),
        "line 2: fio: terminating on signal 2; ran 1.243 s of 30 s");
    assert_null(th_fact(s, NULL, "flag.no_version"));
    assert_null(th_fact(s, NULL, "flag.implausible"));
    pb_resultset_free(s);
}

/* fio 3.4x client/server: "global options" is a list, one object per
 * client with its hostname and port; each client's jobs take theirs. */
static void fix_client_server_global_list(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("fio-3.33-edited_client-server_global-options-list.json");
    const char *h1 = "127.0.0.1:18761", *h2 = "127.0.0.1:18762";
    const struct pb_test *t = th_htest_of(s, h1, "cs-global");
    assert_string_equal(t->name, "fio randread bs=4k iodepth=1");
    assert_string_equal(th_param(t, "rw"), "randread");
    assert_string_equal(th_param(t, "ioengine"), "libaio");
    assert_string_equal(th_param(t, "size"), "4194304");
    assert_ptr_equal(th_htest_of(s, h2, "cs-global"), t);
    assert_string_equal(th_fact(s, h1, "hostname"), "127.0.0.1");
    assert_string_equal(th_fact(s, h1, "device"), "/dev/shm/pbfio18/cs-a.dat");
    assert_string_equal(th_fact(s, h2, "device"), "/dev/shm/pbfio18/cs-b.dat");
    assert_near(th_hval(s, h2, "cs-global", "read_iops"), 341333.333333, 1e-6);
    assert_null(th_fact(s, NULL, "flag.interrupted"));
    pb_resultset_free(s);
}

/* fio 3.33 client/server: one "global options" object holding every
 * client's options; what the clients agree on is read, the rest (here
 * filename) is not given to either, and no default is assumed. */
static void fix_client_server_merged_global(void **state)
{
    (void)state;
    struct pb_resultset *s =
        fixture("fio-3.33_client-server_merged-global-options.json");
    const struct pb_test *t = th_htest_of(s, "127.0.0.1:18761", "cs-global");
    assert_string_equal(t->name, "fio randread bs=4k iodepth=1");
    assert_string_equal(th_param(t, "ioengine"), "libaio");
    assert_string_equal(th_param(t, "size"), "4194304");
    assert_null(th_param(t, "numjobs"));
    assert_null(th_fact(s, "127.0.0.1:18761", "device"));
    assert_string_equal(th_fact(s, "127.0.0.1:18762", "hostname"), "127.0.0.1");
    pb_resultset_free(s);
}

static void fix_trim(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_randtrim_64k_loopdev.json");
    const char *j = "randtrim-64k";
    assert_val(s, j, "trim_iops", 16000);
    assert_val(s, j, "trim_bw", 1048576000);
    assert_val(s, j, "trim_clat_p50", 55552);
    assert_int_equal(th_count_prefix(s, j, "read_"), 0);
    assert_int_equal(th_count_prefix(s, j, "write_"), 0);
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name, "fio randtrim bs=64k iodepth=1");
    assert_string_equal(th_param(t, "bs"), "65536");
    pb_resultset_free(s);
}

static void fix_client_server_two(void **state)
{
    (void)state;
    const char *f = "fio-3.33_client-server_two-servers.json";
    struct pb_resultset *s = fixture(f);
    const char *j = "cs-randread";
    /* both servers run on 127.0.0.1: the port tells them apart */
    assert_hval(s, "127.0.0.1:8766", j, "read_iops", 11130.434783);
    assert_hval(s, "127.0.0.1:8765", j, "read_iops", 14222.222222);
    assert_hval(s, "127.0.0.1:8765", j, "read_clat_p50", 60160);
    assert_hval(s, "(all clients)", j, "read_iops", 22260.869565);
    assert_hval(s, "(all clients)", j, "read_bytes", 4194304);
    assert_hval(s, "(all clients)", j, "read_clat_mean", 78034.098633);
    assert_null(th_hfind(s, "(all clients)", j, "read_clat_p50"));
    assert_null(th_find(s, j, "read_iops"));
    assert_null(th_hfind(s, "127.0.0.1", j, "read_iops"));
    assert_int_equal(s->nconfigs, 1);
    assert_int_equal(s->ntests, 1);
    assert_string_equal(th_htest_of(s, "(all clients)", j)->name,
                        "fio randread bs=4k iodepth=1");
    assert_int_equal(sniff_file(FIX_DIR, f), 90);
    pb_resultset_free(s);
}

static void fix_client_server_one(void **state)
{
    (void)state;
    struct pb_resultset *s = fixture("fio-3.33_client-server_one-server.json");
    assert_hval(s, "127.0.0.1", "cs-randread", "read_clat_p99.9", 692224);
    assert_hval(s, "127.0.0.1", "cs-randread", "read_bw", 26886564);
    assert_null(th_hfind(s, "(all clients)", "cs-randread", "read_iops"));
    pb_resultset_free(s);
}

static void fix_failed_job(void **state)
{
    (void)state;
    expect_reject(FIX_DIR, "bad/fio-3.33_randtrim_regular-file_failed-job.json",
                  11, 7, "job \"randtrim-file\" failed with error 25");
}

/* ==== the shared corpus ==== */

static void corpus_fio_2_1_4(void **state)
{
    (void)state;
    struct pb_resultset *s = corpus("fio-2.1.4_multi-job_perfkit.json");
    const char *j = "sequential_write";
    assert_string_equal(s->tool_version, "fio-2.1.4");
    assert_val(s, j, "write_bw", 68118.0 * 1024);     /* KiB/s */
    assert_val(s, j, "write_bytes", 361984.0 * 1024); /* KiB */
    assert_val(s, j, "write_clat_mean", 477734840);   /* usec */
    assert_val(s, j, "write_slat_mean", 1001720);
    assert_val(s, j, "write_lat_mean", 478737470);
    assert_val(s, j, "write_clat_p99", 823296000);
    assert_val(s, j, "write_clat_p99.9", 872448000);
    assert_val(s, j, "write_runtime", 5314e6);
    assert_val(s, j, "write_iops", 133);
    assert_int_equal(th_count_prefix(s, j, "read_"), 0);
    assert_val(s, "random_read_test", "read_iops", 317);
    assert_val(s, "sequential_read", "read_clat_p50", 264192000);
    /* fio 2.1 prints no options: rw from what the job did, no defaults */
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name, "fio write job=sequential_write");
    assert_string_equal(th_param(t, "rw"), "write");
    assert_null(th_param(t, "bs"));
    /* five job names, no options (so no target) at all: they may be one
     * workload on several targets, a configuration each */
    assert_int_equal(s->nconfigs, 5);
    pb_resultset_free(s);
}

static void corpus_fio_2_17(void **state)
{
    (void)state;
    /* "global options" holds the key "filename" twice */
    struct pb_resultset *s = corpus("fio-2.17_randrw-hist-log_perfkit.json");
    const char *j = "rand_16k_read_100%-io-depth-1-num-jobs-2";
    assert_val(s, j, "read_bw", 129386.0 * 1024);
    assert_val(s, j, "read_bytes", 1294256.0 * 1024);
    assert_val(s, j, "read_clat_mean", 238357.679);
    assert_val(s, j, "read_clat_p99", 1352000);
    assert_val(s, "rand_16k_write_100%-io-depth-1-num-jobs-2", "write_iops",
               2457.017193);
    const struct pb_test *t = th_test_of(s, j);
    assert_string_equal(t->name,
                        "fio randread bs=16k iodepth=1 numjobs=2 direct=1");
    assert_string_equal(th_param(t, "size"), "100%");
    assert_string_equal(th_param(t, "runtime"), "10000000000");
    pb_resultset_free(s);
}

static void corpus_fio_2_18(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("fio-2.18_randread_fio-plot-example01.json");
    assert_string_equal(s->tool_version, "fio-2.18-59-g618e");
    assert_val(s, "random-io", "read_iops", 73.184143);
    assert_val(s, "random-io", "read_bw", 292.0 * 1024);
    assert_val(s, "random-io", "read_clat_p95", 20608000);
    assert_val(s, "random-io", "read_slat_mean", 14013.889);
    const struct pb_test *t = th_test_of(s, "random-io");
    assert_string_equal(th_param(t, "iodepth"), "1"); /* "01" in the file */
    assert_string_equal(th_param(t, "size"), "1998233534464"); /* 1861G */
    pb_resultset_free(s);
}

static void corpus_fio_3_12(void **state)
{
    (void)state;
    struct pb_resultset *s = corpus("fio-3.12_randrw-50-50_32k_arau.json");
    assert_val(s, "vol0", "read_bw", 7402092);
    assert_val(s, "vol0", "write_iops", 224.677039);
    assert_val(s, "vol0", "write_clat_p99.9", 742391808);
    assert_val(s, "vol0", "read_bytes", 2153283584);
    const struct pb_test *t = th_test_of(s, "vol0");
    assert_string_equal(t->name,
                        "fio randrw bs=32k iodepth=16 rwmixread=50 direct=1");
    assert_string_equal(th_param(t, "size"), "4294967296"); /* 4GB */
    pb_resultset_free(s);
}

static void corpus_fio_3_14(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("fio-3.14_randread_intel-s4610_fio-plot.json");
    assert_val(s, "random-read", "read_iops", 8360.793987);
    assert_val(s, "random-read", "read_clat_mean", 107363.82174);
    assert_val(s, "random-read", "read_clat_p99", 150528);
    assert_int_equal(th_count_prefix(s, "random-read", "write_"), 0);
    pb_resultset_free(s);
}

static void corpus_fio_3_16(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("fio-3.16_randrw_highpoint-raid5_fio-plot.json");
    assert_val(s, "iotest", "read_iops", 25.246234);
    assert_val(s, "iotest", "write_bw", 108306);
    assert_val(s, "iotest", "write_clat_p50", 15925248);
    const struct pb_test *t = th_test_of(s, "iotest");
    assert_string_equal(th_param(t, "fsync"), "10000");
    assert_string_equal(th_param(t, "size"), "52428800000"); /* 50000Mi */
    assert_string_equal(
        t->name,
        "fio randrw bs=4k iodepth=1 rwmixread=50 fsync=10000 direct=1");
    pb_resultset_free(s);
}

static void corpus_fio_3_1(void **state)
{
    (void)state;
    struct pb_resultset *s = corpus("fio-3.1_randrw_md0_fio-plot.json");
    assert_val(s, "iotest", "read_bw", 25454.0 * 1024); /* no bw_bytes yet */
    assert_val(s, "iotest", "write_bytes", 1560662016);
    assert_val(s, "iotest", "write_clat_mean", 50896.971023);
    assert_val(s, "iotest", "usr_cpu", 8.508333);
    pb_resultset_free(s);
}

static void corpus_fio_3_28(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("fio-3.28_48-job-bs-qd-sweep_io_uring_whitepau.json");
    /* 48 jobs on one device: 48 tests of one configuration */
    assert_int_equal(s->nconfigs, 1);
    assert_int_equal(s->ntests, 48);
    assert_val(s, "r_bs4k_qd1", "write_bw", 99511259);
    assert_val(s, "r_bs4k_qd4", "write_iops", 41286.292741);
    assert_val(s, "r_bs4k_qd1", "write_clat_p95", 33024);
    assert_int_equal(th_count_prefix(s, "r_bs4k_qd1", "read_"), 0);
    const struct pb_test *t = th_test_of(s, "r_bs4k_qd4");
    assert_string_equal(t->name, "fio write bs=4k iodepth=4 direct=1");
    assert_string_equal(th_param(t, "runtime"), "20000000000"); /* "20s" */
    assert_string_equal(th_param(t, "ioengine"), "io_uring");
    pb_resultset_free(s);
}

static void corpus_fio_3_6_clones(void **state)
{
    (void)state;
    struct pb_resultset *s =
        corpus("fio-3.6_randread_16-jobs-no-group-reporting_fio-plot.json");
    assert_val(s, "random-io#0", "read_iops", 6.199173);
    assert_val(s, "random-io#1", "read_clat_p50", 110624768);
    assert_non_null(th_find(s, "random-io#15", "read_iops"));
    assert_null(th_find(s, "random-io#16", "read_iops"));
    /* aggregate of the 16 clones */
    assert_val(s, "random-io", "read_iops", 105.378736);
    assert_val(s, "random-io", "read_bw", 431621);
    assert_val(s, "random-io", "read_bytes", 25919488);
    assert_rel(th_val(s, "random-io", "read_clat_mean"), 151714571.2575853,
               1e-9);
    assert_val(s, "random-io", "read_clat_max", 1149541193);
    assert_null(th_find(s, "random-io", "read_clat_p99"));
    assert_string_equal(th_test_of(s, "random-io")->name,
                        "fio randread bs=4k iodepth=1 numjobs=16 direct=1");
    pb_resultset_free(s);
}

static void corpus_fio_3_6_ceph(void **state)
{
    (void)state;
    struct pb_resultset *s = corpus("fio-3.6_randread_ceph-ssd_fio-plot.json");
    assert_val(s, "random-read", "read_clat_mean", 860669.744547);
    assert_val(s, "random-read", "read_slat_mean", 37441.8801);
    assert_val(s, "random-read", "read_bw", 4487639);
    assert_val(s, "random-read", "read_clat_p99.9", 1662976);
    pb_resultset_free(s);
}

static void corpus_dirty_sigint(void **state)
{
    (void)state;
    const char *f = "DIRTY-PREFIX_fio-3.34_randread_4k_sigint_fio-plot.json";
    struct pb_resultset *s = corpus(f);
    assert_string_equal(s->tool_version, "fio-3.34");
    assert_val(s, "FIOJOB", "read_iops", 10102.601156);
    assert_val(s, "FIOJOB", "read_bw", 41380254);
    assert_string_equal(th_param(th_test_of(s, "FIOJOB"), "size"),
                        "1073741824");
    assert_int_equal(sniff_file(CORPUS_DIR, f), 90);
    assert_string_equal(
        th_fact(s, NULL, "flag.interrupted"),
        "line 2: fio: terminating on signal 2; ran 2.768 s of 10 s");
    pb_resultset_free(s);
}

static void corpus_dirty_failed_job(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS_DIR);
    /* three warning lines, then a job with error 22 and all-zero stats:
     * nothing usable, so the file is rejected at the job's "error" key */
    expect_reject(CORPUS_DIR,
                  "DIRTY-PREFIX_fio-3.33_write_1m_failed-job_fio-plot.json", 13,
                  7, "job \"1m\" failed with error 22 and did no I/O");
}

static void corpus_broken(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS_DIR);
    expect_reject(CORPUS_DIR,
                  "BROKEN_fio-3.12_two-json-docs-with-shell-prompt_arau.json",
                  317, 1, "second JSON document");
    expect_reject(CORPUS_DIR, "BROKEN_fio-bad-option_whitepau.json", 1, 0,
                  "no JSON object found (first line: \"Bad option <");
    expect_reject(CORPUS_DIR, "BROKEN_fio-error-libaio_fio-plot.json", 1, 0,
                  "no JSON object found (first line: \"fio: engine libaio "
                  "not loadable\")");
    expect_reject(CORPUS_DIR, "BROKEN_fio-error-shm_fio-plot.json", 1, 0,
                  "no JSON object found");
    assert_int_equal(
        sniff_file(CORPUS_DIR, "BROKEN_fio-error-shm_fio-plot.json"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fix_randread_libaio),
        cmocka_unit_test(fix_write_only),
        cmocka_unit_test(fix_randrw_json_plus),
        cmocka_unit_test(fix_three_jobs),
        cmocka_unit_test(fix_numjobs_grouped),
        cmocka_unit_test(fix_numjobs_clones),
        cmocka_unit_test(fix_json_normal),
        cmocka_unit_test(fix_warning_prefix),
        cmocka_unit_test(fix_sigint_prefix),
        cmocka_unit_test(fix_trim),
        cmocka_unit_test(fix_client_server_two),
        cmocka_unit_test(fix_client_server_one),
        cmocka_unit_test(fix_client_server_global_list),
        cmocka_unit_test(fix_client_server_merged_global),
        cmocka_unit_test(fix_failed_job),
        cmocka_unit_test(corpus_fio_2_1_4),
        cmocka_unit_test(corpus_fio_2_17),
        cmocka_unit_test(corpus_fio_2_18),
        cmocka_unit_test(corpus_fio_3_12),
        cmocka_unit_test(corpus_fio_3_14),
        cmocka_unit_test(corpus_fio_3_16),
        cmocka_unit_test(corpus_fio_3_1),
        cmocka_unit_test(corpus_fio_3_28),
        cmocka_unit_test(corpus_fio_3_6_clones),
        cmocka_unit_test(corpus_fio_3_6_ceph),
        cmocka_unit_test(corpus_dirty_sigint),
        cmocka_unit_test(corpus_dirty_failed_job),
        cmocka_unit_test(corpus_broken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
