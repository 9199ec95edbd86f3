/* Unit tests of the ZFS telemetry readers (run/zfs_telemetry.c): zpool
 * iostat -v of zfs-fuse (captured here) and of OpenZFS (shaped like public
 * outputs), arcstats and module parameter folders (fixtures/zfs-telemetry,
 * its README says where each came from). */
#include "tests/unit/testhelp.h"
#include "run/zfs_telemetry.h"

static const char *const FIX = PB_FIXTURES_DIR "/zfs-telemetry";

#define M (1024.0 * 1024.0)
#define G (1024.0 * M)

static void iostat_file(const char *name, struct pb_iostat *io)
{
    size_t len;
    char *buf = th_slurp_in(FIX, name, &len);
    char *copy = malloc(len ? len : 1); /* no NUL after it */
    assert_non_null(copy);
    memcpy(copy, buf, len);
    struct pb_err err = {0};
    int rc = pb_ingest_zpool_iostat(name, copy, len, io, &err);
    if (rc != PB_OK)
        print_error("%s:%ld: %s\n", err.path, err.line, err.msg);
    assert_int_equal(rc, PB_OK);
    free(copy);
    free(buf);
}

static void test_iostat_zfs_fuse(void **state)
{
    (void)state;
    struct pb_iostat io;
    iostat_file("iostat-zfs-fuse-stripe.txt", &io);
    /* 8 samples; the 9th header (pool already destroyed) has no rows */
    assert_int_equal(io.nsamples, 8);
    assert_int_equal(io.nrows, 24);
    size_t first, n = pb_iostat_sample_rows(&io, 2, &first);
    assert_int_equal(n, 3);
    const struct pb_iostat_row *p = &io.rows[first];
    assert_string_equal(p->name, "pbrnbio");
    assert_int_equal(p->depth, 0);
    assert_null(p->section);
    assert_near(p->alloc, 18.3 * M, 1);
    assert_near(p->free, 482 * M, 1);
    assert_near(p->rops, 0, 0);
    assert_near(p->wops, 201, 0);
    assert_near(p->wbw, 16.5 * M, 1);
    assert_string_equal(p[2].name, "/var/tmp/pbrnb/d1.img");
    assert_int_equal(p[2].depth, 1);
    assert_near(p[2].alloc, 10.1 * M, 1);
    assert_near(p[2].wbw, 9.18 * M, 1);
    /* the first sample: since import, "2.75K" write ops */
    assert_near(io.rows[0].wops, 2.75 * 1024, 1e-6);
    pb_iostat_release(&io);
}

static void test_iostat_openzfs_cache(void **state)
{
    (void)state;
    struct pb_iostat io;
    iostat_file("iostat-openzfs-cache.txt", &io);
    assert_int_equal(io.nsamples, 2);
    size_t first, n = pb_iostat_sample_rows(&io, 1, &first);
    assert_int_equal(n, 5);
    const struct pb_iostat_row *r = &io.rows[first];
    assert_string_equal(r[0].name, "august");
    assert_near(r[0].rbw, 12.3 * 1024, 1e-6);
    assert_near(r[0].wbw, 134 * 1024, 1e-6);
    assert_near(r[0].wops, 10, 0);
    assert_string_equal(r[2].name, "cache");
    assert_string_equal(r[2].section, "cache");
    assert_int_equal(r[2].depth, 0);
    assert_true(isnan(r[2].rops));
    assert_string_equal(r[3].name, "gpt/cache-august");
    assert_string_equal(r[3].section, "cache");
    assert_int_equal(r[3].depth, 1);
    assert_near(r[3].alloc, 28.7 * G, 1);
    assert_null(r[1].section);
    pb_iostat_release(&io);
}

static void test_iostat_openzfs_mirror(void **state)
{
    (void)state;
    struct pb_iostat io;
    iostat_file("iostat-openzfs-mirror-logs.txt", &io);
    assert_int_equal(io.nsamples, 1);
    assert_int_equal(io.nrows, 6);
    assert_string_equal(io.rows[1].name, "mirror");
    assert_int_equal(io.rows[1].depth, 1);
    assert_near(io.rows[1].wops, 4.09 * 1024, 1e-6);
    assert_string_equal(io.rows[2].name, "wwn-5000c5002e38e0eb");
    assert_int_equal(io.rows[2].depth, 2);
    assert_true(isnan(io.rows[2].alloc));
    assert_near(io.rows[2].rbw, 559 * 1024, 1e-6);
    assert_string_equal(io.rows[5].section, "logs");
    assert_near(io.rows[5].wbw, 37.2 * M, 1);
    pb_iostat_release(&io);

    iostat_file("iostat-openzfs-2.x-mirror-0.txt", &io);
    assert_int_equal(io.nrows, 8);
    assert_near(io.rows[5].alloc, 0, 0); /* "0B" */
    assert_string_equal(io.rows[5].name, "mirror-1");
    assert_string_equal(io.rows[6].section, "logs");
    assert_string_equal(io.rows[6].name, "nvme0n1");
    assert_int_equal(io.rows[6].depth, 2);
    pb_iostat_release(&io);
}

/* Real: zpool iostat -v 1 of OpenZFS 2.3.2 (scripts/openzfs-vm) during a
 * cell of examples/layouts.ini: mirror-0, a log and a cache file vdev. */
static void test_iostat_openzfs_23(void **state)
{
    (void)state;
    struct pb_iostat io;
    iostat_file("iostat-openzfs-2.3-mirror-log-cache.txt", &io);
    assert_int_equal(io.nsamples, 4);
    size_t first, n = pb_iostat_sample_rows(&io, 0, &first);
    assert_int_equal(n, 8);
    const struct pb_iostat_row *r = &io.rows[first];
    assert_string_equal(r[0].name, "pblayouts");
    assert_near(r[0].alloc, 48.3 * M, 1);
    assert_near(r[0].wops, 252, 0);
    assert_string_equal(r[1].name, "mirror-0");
    assert_int_equal(r[1].depth, 1);
    assert_string_equal(r[2].name, "/var/tmp/poolbench-lay-d0.img");
    assert_int_equal(r[2].depth, 2);
    assert_true(isnan(r[2].alloc));
    assert_near(r[2].wbw, 854 * 1024, 1e-6);
    assert_string_equal(r[4].name, "logs");
    assert_true(isnan(r[4].rops));
    assert_string_equal(r[5].section, "logs");
    assert_string_equal(r[5].name, "/var/tmp/poolbench-lay-log.img");
    assert_near(r[5].wbw, 670 * 1024, 1e-6);
    assert_string_equal(r[7].section, "cache");
    assert_near(r[7].alloc, 0, 0);
    assert_near(r[7].rbw, 436 * 1024, 1e-6);
    pb_iostat_release(&io);
}

static void test_iostat_bad(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
        long line;
    } cases[] = {
        {"garbage\n", "no zpool iostat sample", 1},
        {"pool alloc free read write read write\nx\n",
         "expected a line of dashes", 2},
        {"pool alloc free read write read write\n--- ---\np 1 2 3 4 5\n",
         "a zpool iostat row needs a name and 6 numbers", 3},
        {"pool alloc free read write read write\n--- ---\np 1 2 3 4 5 1e9\n",
         "not a zpool iostat number", 3},
        {"pool alloc free read write read write\n--- ---\n  p 1 2 3 4 5 "
         "6\nq 1 2 3 4 5 6\n",
         "a vdev row must be indented under its pool", 4},
        {"pool alloc free read write read write\n", "ends after its header",
         1},
        /* found by fuzz_zfs_telemetry: a header, dashes and no row */
        {"pool alloc free read write read write\n--- ---\n",
         "no zpool iostat sample has rows", 2},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_iostat io;
        struct pb_err err = {0};
        int rc = pb_ingest_zpool_iostat("t", cases[i].text,
                                        strlen(cases[i].text), &io, &err);
        pb_iostat_release(&io);
        assert_int_equal(rc, PB_EINPUT);
        if (!strstr(err.msg, cases[i].msg))
            print_error("case %zu: '%s'\n", i, err.msg);
        assert_non_null(strstr(err.msg, cases[i].msg));
        assert_int_equal(err.line, cases[i].line);
    }
    size_t len;
    char *buf = th_slurp_in(FIX, "bad/iostat-html.txt", &len);
    struct pb_iostat io;
    struct pb_err err = {0};
    assert_int_equal(pb_ingest_zpool_iostat("bad/iostat-html.txt", buf, len,
                                            &io, &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 4);
    assert_string_equal(err.msg, "not a zpool iostat number");
    pb_iostat_release(&io);
    free(buf);
}

static void kstat_file(const char *name, struct pb_kstat *k)
{
    size_t len;
    char *buf = th_slurp_in(FIX, name, &len);
    struct pb_err err = {0};
    int rc = pb_ingest_kstat(name, buf, len, k, &err);
    if (rc != PB_OK)
        print_error("%s:%ld: %s\n", err.path, err.line, err.msg);
    assert_int_equal(rc, PB_OK);
    free(buf);
}

static void test_arcstats(void **state)
{
    (void)state;
    struct pb_kstat a, b, old;
    double v, w;
    kstat_file("arcstats-2.2.txt", &a);
    assert_int_equal(a.n, 66);
    assert_true(pb_kstat_get(&a, "c_max", &v));
    assert_near(v, 32458756096.0, 0);
    assert_true(pb_kstat_get(&a, "demand_data_hits", &v));
    assert_near(v, 5821681723.0, 0);
    assert_true(pb_kstat_get(&a, "demand_iohit_predictive_prefetch", &v));
    assert_near(v, 221984, 0);
    assert_true(pb_kstat_get(&a, "memory_available_bytes", &v));
    assert_near(v, 3970557824.0, 0);
    assert_false(pb_kstat_get(&a, "recycle_miss", &v));

    kstat_file("arcstats-2.2-after.txt", &b);
    assert_true(pb_kstat_get(&a, "demand_data_hits", &v));
    assert_true(pb_kstat_get(&b, "demand_data_hits", &w));
    assert_near(w - v, 50000, 0);
    assert_true(pb_kstat_get(&a, "misses", &v));
    assert_true(pb_kstat_get(&b, "misses", &w));
    assert_near(w - v, 103, 0);

    struct pb_kstat real;
    kstat_file("arcstats-2.3.txt", &real); /* OpenZFS 2.3.2, just booted */
    assert_int_equal(real.n, 147);
    assert_true(pb_kstat_get(&real, "c_max", &v));
    assert_near(v, 2054680576.0, 0);
    assert_true(pb_kstat_get(&real, "memory_available_bytes", &v));
    assert_near(v, 2873761408.0, 0);
    pb_kstat_release(&real);
    kstat_file("arcstats-0.6.txt", &old);
    assert_int_equal(old.n, 17);
    assert_true(pb_kstat_get(&old, "recycle_miss", &v));
    assert_near(v, 0, 0);
    assert_true(pb_kstat_get(&old, "mfu_hits", &v));
    assert_near(v, 1535989, 0);
    assert_false(pb_kstat_get(&old, "c_max", &v));
    pb_kstat_release(&a);
    pb_kstat_release(&b);
    pb_kstat_release(&old);

    size_t len;
    char *buf = th_slurp_in(FIX, "bad/arcstats-negative.txt", &len);
    struct pb_err err = {0};
    struct pb_kstat k;
    assert_int_equal(pb_ingest_kstat("x", buf, len, &k, &err), PB_EINPUT);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "negative value of an unsigned kstat");
    pb_kstat_release(&k);
    free(buf);
    const char *nohead = "hits 4 1\n";
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_kstat("x", nohead, strlen(nohead), &k, &err),
                     PB_EINPUT);
    assert_string_equal(err.msg,
                        "expected the kstat header 'name type data'");
    pb_kstat_release(&k);
}

static void test_params(void **state)
{
    (void)state;
    struct pb_params p;
    struct pb_err err = {0};
    assert_int_equal(pb_ingest_params_dir(PB_FIXTURES_DIR
                                          "/zfs-telemetry/parameters-issue7038",
                                          &p, &err),
                     PB_OK);
    assert_int_equal(p.n, 9);
    assert_string_equal(p.v[0].key, "zfs_condense_indirect_vdevs_enable");
    assert_string_equal(pb_params_get(&p, "zfs_dirty_data_max"),
                        "4294967296");
    assert_string_equal(pb_params_get(&p, "zfs_deadman_failmode"),
                        "continue");
    assert_null(pb_params_get(&p, "zfs_arc_max"));
    pb_params_release(&p);
    assert_int_equal(pb_ingest_params_dir(PB_FIXTURES_DIR
                                          "/zfs-telemetry/parameters-issue2218",
                                          &p, &err),
                     PB_OK);
    assert_int_equal(p.n, 7);
    assert_string_equal(pb_params_get(&p, "zfs_arc_max"), "32359738368");
    assert_string_equal(pb_params_get(&p, "spa_config_path"),
                        "/etc/zfs/zpool.cache");
    pb_params_release(&p);
    assert_int_equal(pb_ingest_params_dir("/nonexistent/zfs/parameters", &p,
                                          &err),
                     PB_EIO);
    pb_params_release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iostat_zfs_fuse),
        cmocka_unit_test(test_iostat_openzfs_cache),
        cmocka_unit_test(test_iostat_openzfs_mirror),
        cmocka_unit_test(test_iostat_openzfs_23),
        cmocka_unit_test(test_iostat_bad),
        cmocka_unit_test(test_arcstats),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
