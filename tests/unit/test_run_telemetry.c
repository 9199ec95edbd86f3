/* Unit tests of what a run cell records about the pool and the caches
 * (run/telemetry.c, run/cellinfo.c): the served-from-ARC verdict on real
 * OpenZFS arcstats (fixtures/zfs-telemetry), the compression check, the
 * working set against the cache, the compression table's workload split,
 * zpool iostat run in the background (a stand-in zpool) and summed, and
 * the dry run's estimate. */
#define _XOPEN_SOURCE 700
#include "tests/unit/run_help.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const FIX = PB_FIXTURES_DIR "/zfs-telemetry";

static void kstat(const char *name, struct pb_kstat *k)
{
    size_t len;
    char *buf = th_slurp_in(FIX, name, &len);
    struct pb_err err = {0};
    assert_int_equal(pb_ingest_kstat(name, buf, len, k, &err), PB_OK);
    free(buf);
}

static void test_arc_verdict(void **state)
{
    (void)state;
    struct pb_kstat a, b;
    kstat("arcstats-2.2.txt", &a);
    kstat("arcstats-2.2-after.txt", &b);
    char why[256];
    double ratio;
    /* 50,000 hits of 50,100 demand data reads: 99.8% */
    assert_int_equal(pb_run_arc_verdict(&a, &b, 1, why, sizeof(why), &ratio),
                     1);
    assert_near(ratio, 100.0 * 50000 / 50100, 1e-9);
    assert_string_equal(why, "ARC demand data hit ratio 99.8% (50000 hits, "
                             "100 misses): the reads measured the ARC, not "
                             "the pool");
    /* a write cell is never "served from ARC" */
    assert_int_equal(pb_run_arc_verdict(&a, &b, 0, why, sizeof(why), &ratio),
                     0);
    assert_near(ratio, 99.8, 0.01);
    /* no reads in between: no ratio */
    assert_int_equal(pb_run_arc_verdict(&a, &a, 1, why, sizeof(why), &ratio),
                     0);
    assert_true(isnan(ratio));
    pb_kstat_release(&a);
    pb_kstat_release(&b);
}

static void test_ratio_check(void **state)
{
    (void)state;
    char buf[300];
    /* measured here on zfs-fuse: gzip 3.80x, lzjb 3.23x for 75% */
    assert_int_equal(pb_run_ratio_check(75, 3.80, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "compressratio 3.80x after sync; "
                             "buffer_compress_percentage=75 implies 4.00x "
                             "(-5%: within 10%)");
    assert_int_equal(pb_run_ratio_check(75, 3.23, buf, sizeof(buf)), 1);
    assert_string_equal(buf, "compressratio 3.23x after sync; "
                             "buffer_compress_percentage=75 implies 4.00x "
                             "(-19%, more than 10% off)");
    /* what quick.ini stored before the sync: 43.12x */
    assert_int_equal(pb_run_ratio_check(75, 43.12, buf, sizeof(buf)), 1);
    assert_int_equal(pb_run_ratio_check(50, 2.1, buf, sizeof(buf)), 0);
}

static void test_cache_check(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok("[plan]\nvdevs = file:/tmp/x0.img:1G\n"
                                     "[fio]\nrw = randread, randwrite\n"
                                     "size = 16m, 2g\nnumjobs = 4\n");
    assert_near(pb_run_working_set(p, 0), 64.0 * 1024 * 1024, 0);
    struct pb_run_telrun tr = {0};
    tr.cache = 1024.0 * 1024 * 1024;
    snprintf(tr.cache_what, sizeof(tr.cache_what), "ARC c_max 1 GiB");
    struct pb_resultset *set = pb_resultset_new();
    pb_run_cache_check(p, 0, &tr, set);
    /* combo 1 is randwrite 16m (fio axes vary innermost last key) */
    assert_int_equal(set->nfacts, 2);
    assert_string_equal(set->facts[0].key, "working_set_bytes");
    assert_string_equal(set->facts[0].value, "67108864");
    assert_string_equal(set->facts[1].key, "flag.fits_in_cache");
    assert_string_equal(set->facts[1].value,
                        "working set 64 MiB (size 16m x numjobs 4) fits in "
                        "the cache: ARC c_max 1 GiB");
    pb_resultset_free(set);
    /* 2g x 4 = 8 GiB: larger than the cache */
    size_t big = 0;
    for (size_t i = 0; i < 4; i++)
        if (pb_run_working_set(p, i) > tr.cache)
            big = i;
    set = pb_resultset_new();
    pb_run_cache_check(p, big, &tr, set);
    assert_string_equal(set->facts[1].key, "cache_check");
    assert_string_equal(set->facts[1].value, "working set 8 GiB is larger "
                                             "than the cache (1 GiB)");
    pb_resultset_free(set);
    /* a write cell without end_fsync says so */
    for (size_t i = 0; i < 4; i++) {
        const char *rw = pb_run_value(p, PB_RUN_FIO, i, "rw");
        if (strcmp(rw, "randwrite") || pb_run_working_set(p, i) > tr.cache)
            continue;
        set = pb_resultset_new();
        pb_run_cache_check(p, i, &tr, set);
        assert_non_null(strstr(set->facts[1].value,
                               "its writes are not synced (no end_fsync"));
        assert_int_equal(pb_run_cell_reads(p, i), 0);
        pb_resultset_free(set);
    }
    pb_run_plan_free(p);
}

static void test_props_retest(void **state)
{
    (void)state;
    struct pb_resultset *set = pb_resultset_new();
    size_t c = pb_rs_config(set, "recordsize=8k");
    size_t t = pb_rs_test(set, "zfs space", "zfs");
    pb_rs_add(set, c, t, NULL, NULL, "compressratio", "ratio", PB_DIR_HIGHER,
              3.8);
    pb_run_props_retest(set, "fio randwrite bs=4k iodepth=1");
    assert_string_equal(set->tests[0].name,
                        "zfs space after fio randwrite bs=4k iodepth=1");
    pb_run_tel_set_ashift(set, "12", "pbq");
    assert_string_equal(set->configs[0].params[0].key, "ashift");
    assert_string_equal(set->configs[0].params[0].value, "12");
    assert_string_equal(set->configs[0].params[0].origin,
                        "command: zdb -C pbq");
    pb_resultset_free(set);
}

/* quick.ini's 8k gzip cell, measured here: 3.15x at ashift 12 */
static void test_compression_check(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok("[plan]\nvdevs = file:/tmp/x0.img:1G\n"
                                     "[fio]\nrw = randread\nsize = 16m\n"
                                     "buffer_compress_percentage = 75\n");
    struct pb_resultset *set = pb_resultset_new();
    size_t c = pb_rs_config(set, "recordsize=8k");
    pb_rs_config_param(set, c, "recordsize", "8192");
    pb_rs_config_param(set, c, "compression", "gzip");
    pb_rs_config_param(set, c, "ashift", "12");
    size_t t = pb_rs_test(set, "zfs space", "zfs");
    pb_rs_add(set, c, t, NULL, NULL, "compressratio", "ratio", PB_DIR_HIGHER,
              3.15);
    pb_rs_add(set, c, t, NULL, NULL, "used", "B", PB_DIR_LOWER, 8773632);
    struct pb_run_dsspace lay = {1, 114688, 114688, 1.0};
    pb_run_compression_check(p, 0, &lay, set);
    assert_int_equal(set->nfacts, 3);
    assert_string_equal(set->facts[0].key, "after_layout.compressratio");
    assert_string_equal(set->facts[0].value, "1");
    assert_string_equal(set->facts[2].key, "flag.compression_mismatch");
    assert_string_equal(set->facts[2].value,
                        "compressratio 3.15x after sync; "
                        "buffer_compress_percentage=75 implies 4.00x (-21%, "
                        "more than 10% off); a 8 KiB record at ashift 12 is "
                        "2 sectors of 4 KiB: compressed records are rounded "
                        "up to whole sectors");
    pb_resultset_free(set);
    /* compression off: nothing to compare */
    set = pb_resultset_new();
    c = pb_rs_config(set, "x");
    pb_rs_config_param(set, c, "compression", "off");
    t = pb_rs_test(set, "zfs space", "zfs");
    pb_rs_add(set, c, t, NULL, NULL, "compressratio", "ratio", PB_DIR_HIGHER,
              1.0);
    pb_run_compression_check(p, 0, NULL, set);
    assert_string_equal(set->facts[0].key, "compression_check");
    assert_string_equal(set->facts[0].value,
                        "compression is off: nothing to compare");
    pb_resultset_free(set);
    pb_run_plan_free(p);
}

/* zpool iostat in the background, stopped and summed: a stand-in `zpool`
 * first in PATH prints the zfs-fuse sample file captured here and waits
 * to be killed, as the real one does. */
static void test_iostat_background(void **state)
{
    (void)state;
    char dir[] = "/tmp/pb-test-tel.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *fake = pb_xasprintf("%s/zpool", dir);
    FILE *fp = fopen(fake, "w");
    assert_non_null(fp);
    fprintf(fp, "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"iostat -v pbt 1\" ] || "
                "exit 2\ncat '%s/iostat-zfs-fuse-stripe.txt'\nexec sleep 30\n",
            FIX);
    fclose(fp);
    assert_int_equal(chmod(fake, 0755), 0);
    const char *old = getenv("PATH");
    char *saved = pb_xstrdup(old ? old : "/usr/bin:/bin");
    char *path = pb_xasprintf("%s:%s", dir, saved);
    setenv("PATH", path, 1);

    struct pb_run_exec x = {0};
    struct pb_run_telrun tr = {0}; /* no arcstats */
    struct pb_run_tel t;
    char *out = pb_xasprintf("%s/c001.iostat.txt", dir);
    assert_int_equal(pb_run_tel_start(&t, &tr, &x, "pbt", out), 0);
    assert_true(t.pid > 0);
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    pb_run_tel_stop(&t, &tr, &x);
    assert_int_equal(t.pid, -1);

    struct pb_resultset *set = pb_resultset_new();
    size_t c = pb_rs_config(set, "stripe");
    pb_rs_test(set, "fio randwrite bs=4k iodepth=1", "fio");
    (void)c;
    pb_run_tel_store(&t, &tr, 0, set);
    pb_run_tel_release(&t);
    setenv("PATH", saved, 1);

    /* samples 2..8 of the file: write B/s 1.55M, 16.5M, 0, 16.9M, 0, 0, 0 */
    double m = 1024.0 * 1024.0, want = (1.55 + 16.5 + 16.9) * m / 7;
    int seen = 0;
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (!strcmp(r->metric, "pool_write_bw")) {
            assert_near(r->value, want, 1);
            assert_string_equal(r->unit, "B/s");
            seen++;
        } else if (!strcmp(r->metric, "pool_write_ops")) {
            assert_near(r->value, (79 + 201 + 274) / 7.0, 1e-9);
            seen++;
        }
    }
    assert_int_equal(seen, 2);
    const char *f = NULL, *vdev = NULL;
    for (size_t i = 0; i < set->nfacts; i++) {
        if (!strcmp(set->facts[i].key, "zpool_iostat"))
            f = set->facts[i].value;
        if (!strcmp(set->facts[i].key, "zpool_iostat./var/tmp/pbrnb/d1.img"))
            vdev = set->facts[i].value;
    }
    assert_non_null(f);
    assert_string_equal(f, "8 samples of 1 s; the means leave out the first "
                           "(since the import)");
    assert_non_null(vdev);
    /* (47 + 100 + 138) / 7 ops, (759K + 9.18M + 7.51M) / 7 */
    assert_string_equal(vdev,
                        "read 0 ops/s 0 B/s, write 40.7 ops/s 2.49 MiB/s");
    pb_resultset_free(set);
    unlink(out);
    unlink(fake);
    rmdir(dir);
    free(out);
    free(fake);
    free(path);
    free(saved);
}

static void test_estimate(void **state)
{
    (void)state;
    int unknown;
    struct pb_run_plan *p = parse_ok("[plan]\nvdevs = file:/tmp/x0.img:1G\n"
                                     "[dataset]\ncompression = gzip, lz4\n"
                                     "[fio]\nrw = randread, randwrite\n"
                                     "size = 16m\nruntime = 2\n");
    /* OpenZFS: 1 pool (3 s) + 4 cells x (2 s + 1 x (2 s + 5 s)) */
    assert_near(pb_run_estimate(p, PB_RUN_IMPL_OPENZFS, &unknown), 39, 0);
    assert_int_equal(unknown, 0);
    /* zfs-fuse has no lz4: 2 cells left */
    assert_near(pb_run_estimate(p, PB_RUN_IMPL_ZFS_FUSE, &unknown), 21, 0);
    pb_run_plan_free(p);
    p = parse_ok("[plan]\nvdevs = file:/tmp/x0.img:1G\n[fio]\nsize = 16m\n");
    assert_near(pb_run_estimate(p, PB_RUN_IMPL_OPENZFS, &unknown), 10, 0);
    assert_int_equal(unknown, 1);
    pb_run_plan_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arc_verdict),
        cmocka_unit_test(test_ratio_check),
        cmocka_unit_test(test_cache_check),
        cmocka_unit_test(test_props_retest),
        cmocka_unit_test(test_compression_check),
        cmocka_unit_test(test_iostat_background),
        cmocka_unit_test(test_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
