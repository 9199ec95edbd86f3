/* Unit tests for the zfs-props parser (ingest/zfs_props.c): sniffing,
 * exact values from every corpus file and from the fixtures, and hostile
 * inputs (empty, truncated, binary, huge numbers, HTML, CRLF, NUL). */
#define _POSIX_C_SOURCE 200809L /* popen, fmemopen */
#include "tests/unit/testhelp.h"
#include <unistd.h>

#include "ingest/ingest.h"

#define K 1024.0
#define M (1024.0 * 1024)
#define G (1024.0 * 1024 * 1024)
#define T (1024.0 * 1024 * 1024 * 1024)

static const char *const CORPUS = PB_CORPUS_DIR "/zfs";
static const char *const FIX = PB_FIXTURES_DIR "/zfs";

/* ==== helpers ==== */

static const struct pb_parser *zfs(void)
{
    const struct pb_parser *p = pb_ingest_parser_by_name("zfs-props");
    assert_non_null(p);
    return p;
}

static int parse_buf(const char *buf, size_t len, struct pb_resultset **out,
                     struct pb_err *err)
{
    struct pb_resultset *set = pb_resultset_new();
    memset(err, 0, sizeof(*err));
    int rc = zfs()->parse("mem", buf, len, set, err);
    if (rc != PB_OK) {
        pb_resultset_free(set);
        *out = NULL;
    } else {
        *out = set;
    }
    return rc;
}

static int parse_str(const char *s, struct pb_resultset **out,
                     struct pb_err *err)
{
    return parse_buf(s, strlen(s), out, err);
}

/* Parse a file of dir that must parse; skips when dir is absent. */
static struct pb_resultset *load(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    skip_unless_exists(path);
    size_t len;
    char *buf = th_slurp(path, &len);
    assert_non_null(buf);
    assert_true(zfs()->sniff(buf, len < 8192 ? len : 8192) >= 60);
    const struct pb_parser *best =
        pb_ingest_find_parser(buf, len < 8192 ? len : 8192);
    assert_non_null(best);
    assert_string_equal(best->name, "zfs-props");
    struct pb_resultset *set;
    struct pb_err err;
    int rc = parse_buf(buf, len, &set, &err);
    if (rc != PB_OK)
        print_error("%s:%ld:%ld: %s\n", name, err.line, err.col, err.msg);
    assert_int_equal(rc, PB_OK);
    free(buf);
    return set;
}

static long config_of(const struct pb_resultset *set, const char *label)
{
    for (size_t i = 0; i < set->nconfigs; i++)
        if (!strcmp(set->configs[i].label, label))
            return (long)i;
    return -1;
}

static const struct pb_result *res(const struct pb_resultset *set,
                                   const char *label, const char *metric)
{
    long c = config_of(set, label);
    if (c < 0)
        return NULL;
    for (size_t i = 0; i < set->nresults; i++)
        if (set->results[i].config == (size_t)c &&
            !strcmp(set->results[i].metric, metric))
            return &set->results[i];
    return NULL;
}

/* The value of a result that must exist. */
static double val(const struct pb_resultset *set, const char *label,
                  const char *metric)
{
    const struct pb_result *r = res(set, label, metric);
    if (!r)
        print_error("no %s for %s\n", metric, label);
    assert_non_null(r);
    assert_true(r->has_value);
    return r->value;
}

static const char *param(const struct pb_resultset *set, const char *label,
                         const char *key)
{
    long c = config_of(set, label);
    if (c < 0)
        return NULL;
    const struct pb_config *cf = &set->configs[c];
    for (size_t i = 0; i < cf->nparams; i++)
        if (!strcmp(cf->params[i].key, key))
            return cf->params[i].value;
    return NULL;
}

static const char *fact(const struct pb_resultset *set, const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++)
        if (!strcmp(set->facts[i].key, key))
            return set->facts[i].value;
    return NULL;
}

static size_t count_metric(const struct pb_resultset *set,
                           const char *metric)
{
    size_t n = 0;
    for (size_t i = 0; i < set->nresults; i++)
        n += !strcmp(set->results[i].metric, metric);
    return n;
}

#define ASSERT_PARAM(set, label, key, want)                                   \
    do {                                                                      \
        const char *pv_ = param((set), (label), (key));                       \
        assert_non_null(pv_);                                                 \
        assert_string_equal(pv_, (want));                                     \
    } while (0)

#define ASSERT_FACT(set, key, want)                                           \
    do {                                                                      \
        const char *fv_ = fact((set), (key));                                 \
        assert_non_null(fv_);                                                 \
        assert_string_equal(fv_, (want));                                     \
    } while (0)

/* Metric name, unit and direction as documented in zfs_props.c. */
static void check_units(const struct pb_resultset *set)
{
    static const struct {
        const char *metric, *unit;
        int dir;
    } u[] = {
        {"compressratio", "ratio", PB_DIR_HIGHER},
        {"used", "B", PB_DIR_LOWER},
        {"logicalused", "B", PB_DIR_HIGHER},
        {"referenced", "B", PB_DIR_LOWER},
        {"available", "B", PB_DIR_HIGHER},
        {"actual_savings", "ratio", PB_DIR_HIGHER},
        {"size", "B", PB_DIR_HIGHER},
        {"allocated", "B", PB_DIR_LOWER},
        {"free", "B", PB_DIR_HIGHER},
        {"fragmentation", "%", PB_DIR_LOWER},
        {"capacity", "%", PB_DIR_LOWER},
        {"dedupratio", "ratio", PB_DIR_HIGHER},
        {"read_errors", "count", PB_DIR_LOWER},
        {"write_errors", "count", PB_DIR_LOWER},
        {"cksum_errors", "count", PB_DIR_LOWER},
    };
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        size_t k;
        for (k = 0; k < sizeof(u) / sizeof(u[0]); k++)
            if (!strcmp(u[k].metric, r->metric))
                break;
        assert_true(k < sizeof(u) / sizeof(u[0]));
        assert_string_equal(r->unit, u[k].unit);
        assert_int_equal(r->direction, u[k].dir);
        assert_true(r->has_value);
        assert_true(isfinite(r->value) && r->value >= 0);
        assert_null(r->host);
        assert_null(r->job);
        const struct pb_test *t = &set->tests[r->test];
        if (!strcmp(t->tool, "zfs"))
            assert_string_equal(t->name, "zfs space");
        else if (r->metric[strlen(r->metric) - 1] == 's' &&
                 strstr(r->metric, "_errors"))
            assert_string_equal(t->name, "zpool status");
        else
            assert_string_equal(t->name, "zpool space");
    }
}

/* ==== sniffing ==== */

static void test_sniff(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "NAME  PROPERTY  VALUE  SOURCE\ntank  used  1G  -\n",
        "NAME   USED  AVAIL  REFER  MOUNTPOINT\ntank 1G 2G 96K /tank\n",
        "TEST_TIMESTAMP=1\n  pool: x\n state: ONLINE\nconfig:\n",
        "NAME   SIZE  ALLOC   FREE  CAP  DEDUP  HEALTH  ALTROOT\n",
        "tank\tcompressratio\t1.99x\t-\ntank\tused\t1024\t-\n",
        "$ zfs get all\nNAME PROPERTY VALUE SOURCE\n",
    };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        assert_true(zfs()->sniff(yes[i], strlen(yes[i])) >= 60);
        const struct pb_parser *p =
            pb_ingest_find_parser(yes[i], strlen(yes[i]));
        assert_non_null(p);
        assert_string_equal(p->name, "zfs-props");
    }
    static const char *const no[] = {
        "",
        "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : []\n}\n",
        "1.97,1.97,host,1,1234,2G,,100,99,200,98\n",
        "hello world\nNAME is Bob\n",
        "NAME\n",
        "NAME  PROPERTY\n",
        "\tPROPERTY       EDIT  INHERIT   VALUES\n\tused  NO  NO  <size>\n",
        "a\tb\tc\td\n",
        "<PhoronixTestSuite><Result/></PhoronixTestSuite>\n",
        "  pool: looks like status\n",
    };
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        int s = zfs()->sniff(no[i], strlen(no[i]));
        if (s >= 60)
            print_error("sniffed %zu: %s\n", i, no[i]);
        assert_true(s < 60);
    }
    /* binary */
    char bin[512];
    for (size_t i = 0; i < sizeof(bin); i++)
        bin[i] = (char)(i * 37 + 11);
    assert_int_equal(zfs()->sniff(bin, sizeof(bin)), 0);
}

/* ==== corpus: zfs get all ==== */

static void test_corpus_get_all_dataset(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zfs-get-all_dataset_openzfs2.x_bencord0.txt");
    const char *l = "zpool/gentoo/root";
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, l);
    assert_near(val(s, l, "used"), 3.33 * G, 1e-3);
    assert_near(val(s, l, "available"), 3.43 * T, 1e-1);
    assert_near(val(s, l, "referenced"), 2.29 * G, 1e-3);
    assert_near(val(s, l, "compressratio"), 1.23, 1e-12);
    assert_near(val(s, l, "logicalused"), 3.94 * G, 1e-3);
    /* from the space its own data takes, not logicalused/used (3.94 /
     * 3.33, which counts 1.05G of snapshots) */
    assert_near(val(s, l, "actual_savings"), 2.97 / 2.29, 1e-12);
    ASSERT_FACT(s, "zpool/gentoo/root:actual_savings_basis",
                "logicalreferenced/referenced");
    ASSERT_PARAM(s, l, "recordsize", "131072");
    ASSERT_PARAM(s, l, "compression", "on");
    ASSERT_PARAM(s, l, "atime", "on");
    ASSERT_PARAM(s, l, "sync", "standard");
    ASSERT_PARAM(s, l, "primarycache", "all");
    ASSERT_PARAM(s, l, "logbias", "latency");
    ASSERT_PARAM(s, l, "dedup", "off");
    ASSERT_PARAM(s, l, "copies", "1");
    /* values with spaces */
    ASSERT_FACT(s, "zpool/gentoo/root:creation", "Sun Aug 20 16:25 2023");
    ASSERT_FACT(s, "zpool/gentoo/root:snapshots_changed",
                "Mon Aug 21 21:02:12 2023");
    ASSERT_FACT(s, "zpool/gentoo/root:refcompressratio", "1.33x");
    ASSERT_FACT(s, "zpool/gentoo/root:encryption", "aes-256-gcm");
    ASSERT_FACT(s, "zpool/gentoo/root:guid", "2026319059069114529");
    /* metrics and dimensions are not repeated as facts */
    assert_null(fact(s, "zpool/gentoo/root:used"));
    assert_null(fact(s, "zpool/gentoo/root:recordsize"));
    assert_int_equal(s->nresults, 6);
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_get_all_encrypted(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zfs-get-all_encrypted-parent_bencord0.txt");
    const char *l = "zpool/gentoo";
    assert_near(val(s, l, "used"), 6.36 * G, 1e-3);
    assert_near(val(s, l, "available"), 3.43 * T, 1e-1);
    assert_near(val(s, l, "referenced"), 98 * K, 0);
    assert_near(val(s, l, "compressratio"), 1.22, 1e-12);
    assert_near(val(s, l, "logicalused"), 7.38 * G, 1e-3);
    /* its own 98K are metadata (under 1% of used): the basis is
     * logicalused/used, not 49K/98K */
    assert_near(val(s, l, "actual_savings"), 7.38 / 6.36, 1e-12);
    ASSERT_FACT(s, "zpool/gentoo:actual_savings_basis", "logicalused/used");
    ASSERT_FACT(s, "zpool/gentoo:keylocation",
                "file:///boot/zpool_encryption.key");
    ASSERT_FACT(s, "zpool/gentoo:mountpoint", "none");
    ASSERT_FACT(s, "zpool/gentoo:usedbychildren", "6.36G");
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_get_all_freenas(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zfs-get-all_freenas-pool-root_cunnie.txt");
    const char *l = "tank";
    assert_near(val(s, l, "used"), 10.7 * T, 1);
    assert_near(val(s, l, "available"), 5.55 * T, 1);
    assert_near(val(s, l, "referenced"), 4.05 * T, 1);
    assert_near(val(s, l, "compressratio"), 1.08, 1e-12);
    assert_near(val(s, l, "logicalused"), 5.41 * T, 1);
    /* 6.70T of children (with their reservations) made logicalused/used
     * 0.51 for a compressratio of 1.08 */
    assert_near(val(s, l, "actual_savings"), 4.09 / 4.05, 1e-12);
    ASSERT_FACT(s, "tank:actual_savings_basis",
                "logicalreferenced/referenced");
    ASSERT_PARAM(s, l, "compression", "lz4");
    ASSERT_PARAM(s, l, "atime", "off");
    ASSERT_PARAM(s, l, "recordsize", "131072");
    /* double spaces and an unpadded hour survive */
    ASSERT_FACT(s, "tank:creation", "Sun Oct  5  8:37 2014");
    ASSERT_FACT(s, "tank:org.freenas:permissions_type", "PERM");
    ASSERT_FACT(s, "tank:org.freebsd.ioc:active", "yes");
    ASSERT_FACT(s, "tank:mlslabel", "");
    ASSERT_FACT(s, "tank:xattr", "off");
    ASSERT_FACT(s, "tank:usedbysnapshots", "0");
    check_units(s);
    pb_resultset_free(s);
}

/* ==== corpus: zfs list ==== */

static void test_corpus_list_bootenvs(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zfs-list_freebsd-13-bootenvs_d4wc3k.txt");
    assert_int_equal(s->nconfigs, 25);
    assert_near(val(s, "zroot", "used"), 5.86 * G, 1e-3);
    assert_near(val(s, "zroot", "available"), 187 * G, 0);
    assert_near(val(s, "zroot", "referenced"), 96 * K, 0);
    const char *be = "zroot/ROOT/13.1-RELEASE-p5_2022-12-20_215345";
    assert_near(val(s, be, "used"), 8 * K, 0);
    assert_near(val(s, be, "referenced"), 3.15 * G, 1e-3);
    assert_near(val(s, "zroot/ROOT/13.1-RELEASE_2022-12-20_161904",
                    "referenced"),
                586 * M, 0);
    assert_near(val(s, "zroot/var/db/pkg", "used"), 56.1 * M, 1e-6);
    assert_near(val(s, "zroot/var/db", "referenced"), 302 * M, 0);
    assert_near(val(s, "zroot/var/tmp", "available"), 187 * G, 0);
    ASSERT_FACT(s, "zroot/ROOT:mountpoint", "none");
    ASSERT_FACT(s, "zroot/usr/home/dawid:mountpoint", "/usr/home/dawid");
    assert_null(res(s, "zroot", "compressratio"));
    assert_null(res(s, "zroot", "actual_savings"));
    assert_int_equal(s->nresults, 25 * 3);
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_list_comments(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zfs-list_with-hand-comments_bencord0.txt");
    assert_int_equal(s->nconfigs, 16);
    assert_near(val(s, "zpool", "used"), 83.0 * G, 1e-3);
    assert_near(val(s, "zpool", "available"), 3.43 * T, 1e-1);
    assert_near(val(s, "zpool", "referenced"), 24 * K, 0);
    /* rows with a hand-written "# comment" after the mountpoint */
    assert_near(val(s, "zpool/boot", "used"), 90.9 * M, 1e-6);
    assert_near(val(s, "zpool/boot", "referenced"), 90.9 * M, 1e-6);
    ASSERT_FACT(s, "zpool/boot:mountpoint", "none");
    assert_near(val(s, "zpool/gentoo/root-6.1.41", "used"), 29.9 * M, 1e-6);
    assert_near(val(s, "zpool/gentoo/root-6.1.41", "referenced"), 2.10 * G,
                1e-3);
    ASSERT_FACT(s, "zpool/gentoo/root-6.1.41:mountpoint", "none");
    assert_near(val(s, "zpool/gentoo/var/tmp/portage", "used"), 546 * M, 0);
    check_units(s);
    pb_resultset_free(s);
}

/* ==== corpus: zpool get / zpool list ==== */

static void test_corpus_zpool_get_all(void **state)
{
    (void)state;
    struct pb_resultset *s = load(CORPUS, "zpool-get-all_bencord0.txt");
    const char *l = "zpool";
    assert_int_equal(s->nconfigs, 1);
    assert_near(val(s, l, "size"), 3.62 * T, 1e-1);
    assert_near(val(s, l, "capacity"), 2, 0);
    assert_near(val(s, l, "free"), 3.54 * T, 1e-1);
    assert_near(val(s, l, "allocated"), 83.0 * G, 1e-3);
    assert_near(val(s, l, "fragmentation"), 0, 0);
    assert_near(val(s, l, "dedupratio"), 1.00, 0);
    assert_int_equal(s->nresults, 6);
    /* ashift 0 means "auto": a fact, not a dimension */
    assert_null(param(s, l, "ashift"));
    ASSERT_FACT(s, "pool:zpool:ashift", "0");
    ASSERT_FACT(s, "pool:zpool:health", "ONLINE");
    ASSERT_FACT(s, "pool:zpool:guid", "13641190368301957381");
    ASSERT_FACT(s, "pool:zpool:feature@zstd_compress", "enabled");
    ASSERT_FACT(s, "pool:zpool:feature@vdev_zaps_v2", "disabled");
    ASSERT_FACT(s, "pool:zpool:bcloneratio", "1.00x");
    /* pool properties are no dataset facts */
    assert_null(fact(s, "zpool:guid"));
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_zpool_list(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-list_3-pools_george-qiaozhi.txt");
    assert_int_equal(s->nconfigs, 3);
    assert_near(val(s, "SSD20G", "size"), 19.5 * G, 1e-3);
    assert_near(val(s, "SSD20G", "allocated"), 276 * K, 0);
    assert_near(val(s, "SSD20G", "free"), 19.5 * G, 1e-3);
    assert_near(val(s, "SSD20G", "fragmentation"), 0, 0);
    assert_near(val(s, "SSD20G", "capacity"), 0, 0);
    assert_near(val(s, "SSD20G", "dedupratio"), 1.0, 0);
    assert_near(val(s, "SSD40G", "size"), 39 * G, 0);
    assert_near(val(s, "SSD40G", "free"), 39.0 * G, 0);
    assert_near(val(s, "SSD80G", "size"), 78 * G, 0);
    assert_near(val(s, "SSD80G", "free"), 78.0 * G, 0);
    ASSERT_FACT(s, "pool:SSD80G:health", "ONLINE");
    ASSERT_FACT(s, "pool:SSD80G:expandsize", "-");
    assert_int_equal(s->nresults, 18);
    check_units(s);
    pb_resultset_free(s);
}

/* ==== corpus: zpool status ==== */

static void check_pool(const struct pb_resultset *s, const char *pool,
                       const char *layout, const char *vdevs,
                       const char *disks, const char *state, double rd,
                       double wr, double ck)
{
    char key[256];
    ASSERT_PARAM(s, pool, "layout", layout);
    ASSERT_PARAM(s, pool, "vdevs", vdevs);
    ASSERT_PARAM(s, pool, "slog", "no");
    ASSERT_PARAM(s, pool, "l2arc", "no");
    snprintf(key, sizeof(key), "pool:%s:disks_per_vdev", pool);
    ASSERT_FACT(s, key, disks);
    snprintf(key, sizeof(key), "pool:%s:state", pool);
    ASSERT_FACT(s, key, state);
    snprintf(key, sizeof(key), "pool:%s:log_vdevs", pool);
    ASSERT_FACT(s, key, "0");
    snprintf(key, sizeof(key), "pool:%s:cache_vdevs", pool);
    ASSERT_FACT(s, key, "0");
    snprintf(key, sizeof(key), "pool:%s:spares", pool);
    ASSERT_FACT(s, key, "0");
    assert_near(val(s, pool, "read_errors"), rd, 0);
    assert_near(val(s, pool, "write_errors"), wr, 0);
    assert_near(val(s, pool, "cksum_errors"), ck, 0);
}

static void test_corpus_status_3way(void **state)
{
    (void)state;
    struct pb_resultset *s = load(
        CORPUS, "zpool-status_3way-mirror_scan-none_george-qiaozhi.txt");
    check_pool(s, "raid1-3vdev", "mirror", "1", "3", "ONLINE", 0, 0, 0);
    check_pool(s, "raid1-2vdev", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:raid1-3vdev:scan", "none requested");
    ASSERT_FACT(s, "pool:raid1-2vdev:errors", "No known data errors");
    /* the zpool list after the two status blocks */
    assert_int_equal(s->nconfigs, 5);
    assert_near(val(s, "raid1-2vdev", "allocated"), 64 * K, 0);
    assert_near(val(s, "raid1-3vdev", "size"), 19.5 * G, 1e-3);
    assert_near(val(s, "SSD80G", "free"), 78.0 * G, 0);
    assert_null(res(s, "SSD80G", "read_errors"));
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_status_degraded(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-status_degraded-corrupted_danjl1100.txt");
    assert_int_equal(s->nconfigs, 1);
    check_pool(s, "dummy", "2x mirror", "2", "2", "DEGRADED", 0, 0, 0);
    ASSERT_FACT(s, "pool:dummy:status",
                "One or more devices could not be used because the label is "
                "missing or invalid.  Sufficient replicas exist for the pool "
                "to continue functioning in a degraded state.");
    ASSERT_FACT(s, "pool:dummy:action",
                "Replace the device using 'zpool replace'.");
    ASSERT_FACT(s, "pool:dummy:see",
                "https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-4J");
    ASSERT_FACT(s, "pool:dummy:scan",
                "scrub repaired 0B in 00:00:00 with 0 errors on Sat Feb 10 "
                "20:34:42 2024");
    /* the test-harness prefix line is no fact of ours */
    for (size_t i = 0; i < s->nfacts; i++)
        assert_null(strstr(s->facts[i].key, "TEST_TIMESTAMP"));
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_status_freenas(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-status_freenas-raidz2-gptid_cunnie.txt");
    check_pool(s, "tank", "raidz2", "1", "7", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:tank:scan",
                "scrub repaired 0 in 0 days 04:27:18 with 0 errors on Sun "
                "Apr 28 04:27:20 2019");
    /* no trailing newline after the last line */
    ASSERT_FACT(s, "pool:tank:errors", "No known data errors");
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_status_misc(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-status_new-pool-no-scan_danjl1100.txt");
    check_pool(s, "milton", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    assert_null(fact(s, "pool:milton:scan"));
    pb_resultset_free(s);

    s = load(CORPUS, "zpool-status_removed-device_danjl1100.txt");
    check_pool(s, "dummy", "mirror", "1", "2", "DEGRADED", 0, 0, 0);
    ASSERT_FACT(s, "pool:dummy:action",
                "Online the device using zpool online' or replace the device "
                "with 'zpool replace'.");
    ASSERT_FACT(s, "pool:dummy:scan",
                "scrub repaired 0B in 10:42:32 with 0 errors on Sun Oct 20 "
                "17:29:34 2024");
    pb_resultset_free(s);

    s = load(CORPUS, "zpool-status_resilvered_danjl1100.txt");
    check_pool(s, "dummy", "2x mirror", "2", "2", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:dummy:scan",
                "resilvered 21K in 00:00:00 with 0 errors on Sat Feb 10 "
                "20:30:44 2024");
    pb_resultset_free(s);

    s = load(CORPUS, "zpool-status_scrub-canceled_danjl1100.txt");
    check_pool(s, "neptune", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:neptune:scan",
                "scrub canceled on Sun Jan 18 12:18:11 2026");
    pb_resultset_free(s);

    s = load(CORPUS, "zpool-status_scrub-in-progress_danjl1100.txt");
    check_pool(s, "neptune", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:neptune:scan",
                "scrub in progress since Sun Feb 11 11:54:20 2024 704G / "
                "1.66T scanned at 5.67G/s, 0B / 1.66T issued 0B repaired, "
                "0.00% done, no estimated completion time");
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_status_two_pools(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-status_two-pools-features_danjl1100.txt");
    assert_int_equal(s->nconfigs, 2);
    check_pool(s, "rpool", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    check_pool(s, "wilbur", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    ASSERT_FACT(s, "pool:wilbur:scan",
                "scrub repaired 0B in 06:35:50 with 0 errors on Sun Feb 11 "
                "10:20:10 2024");
    ASSERT_FACT(s, "pool:rpool:scan",
                "scrub repaired 0B in 00:15:42 with 0 errors on Sun Feb 11 "
                "04:00:01 2024");
    assert_int_equal(count_metric(s, "cksum_errors"), 2);
    check_units(s);
    pb_resultset_free(s);
}

static void test_corpus_status_unavail(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(CORPUS, "zpool-status_unavail-guid-cksum_danjl1100.txt");
    /* the GUID-named UNAVAIL disk has CKSUM 100980 */
    check_pool(s, "mypool", "mirror", "1", "3", "DEGRADED", 0, 0, 100980);
    check_units(s);
    pb_resultset_free(s);
}

/* Every corpus file parses and sniffs as ours (new files included). */
static void test_corpus_all(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS);
    FILE *ls = popen("ls " PB_CORPUS_DIR "/zfs", "r");
    assert_non_null(ls);
    char name[512];
    int n = 0;
    while (fgets(name, sizeof(name), ls)) {
        name[strcspn(name, "\n")] = '\0';
        struct pb_resultset *s = load(CORPUS, name);
        assert_true(s->nresults > 0);
        check_units(s);
        pb_resultset_free(s);
        n++;
    }
    pclose(ls);
    assert_true(n >= 17);
}

/* ==== fixtures (zfs-fuse and hand-written) ==== */

static void test_fixtures_zfs_fuse(void **state)
{
    (void)state;
    struct pb_resultset *s = load(FIX, "zfs-fuse_zfs-get-all_gzip.txt");
    const char *gz = "pbzfsfix_10641/gz";
    assert_near(val(s, gz, "used"), 776 * K, 0);
    assert_near(val(s, gz, "available"), 88.4 * M, 1e-6);
    assert_near(val(s, gz, "referenced"), 776 * K, 0);
    assert_near(val(s, gz, "compressratio"), 216.87, 1e-12);
    assert_null(res(s, gz, "logicalused")); /* zfs-fuse has none */
    assert_null(res(s, gz, "actual_savings"));
    ASSERT_PARAM(s, gz, "compression", "gzip");
    ASSERT_PARAM(s, gz, "recordsize", "131072");
    ASSERT_FACT(s, "pbzfsfix_10641/gz:creation", "Sun Nov 29 21:57 2026");
    ASSERT_FACT(s, "pbzfsfix_10641/gz:mlslabel", "off");
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zfs-get-Hp_recursive.txt");
    assert_int_equal(s->nconfigs, 3);
    assert_near(val(s, "pbzfsfix_10641", "used"), 2723840, 0);
    assert_near(val(s, "pbzfsfix_10641/db", "used"), 1392640, 0);
    assert_near(val(s, "pbzfsfix_10641/gz", "referenced"), 794624, 0);
    assert_near(val(s, "pbzfsfix_10641/gz", "compressratio"), 216.87, 0);
    ASSERT_PARAM(s, "pbzfsfix_10641/db", "recordsize", "8192");
    ASSERT_PARAM(s, "pbzfsfix_10641/db", "compression", "off");
    pb_resultset_free(s);

    /* zfs-fuse misaligns the VALUE column ("15.87x  -") */
    s = load(FIX, "zfs-fuse_zfs-get_human-misaligned.txt");
    assert_near(val(s, "pbzfsfix_10641", "compressratio"), 15.87, 0);
    assert_near(val(s, "pbzfsfix_10641", "used"), 2.60 * M, 1e-6);
    assert_near(val(s, "pbzfsfix_10641/db", "used"), 1.33 * M, 1e-6);
    assert_near(val(s, "pbzfsfix_10641/gz", "compressratio"), 216.87, 0);
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zfs-list-o_ratio.txt");
    assert_near(val(s, "pbzfsfix_10641/gz", "compressratio"), 216.87, 0);
    assert_near(val(s, "pbzfsfix_10641/db", "referenced"), 1.33 * M, 1e-6);
    assert_near(val(s, "pbzfsfix_10641", "available"), 88.4 * M, 1e-6);
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zfs-get-p.txt");
    assert_near(val(s, "pbzfsfix_14375/vm", "available"), 223232208, 0);
    assert_near(val(s, "pbzfsfix_14375/vm", "used"), 1003904, 0);
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zfs-get-H_lzjb-16k.txt");
    const char *vm = "pbzfsfix_14375/vm";
    ASSERT_PARAM(s, vm, "recordsize", "16384");
    ASSERT_PARAM(s, vm, "compression", "lzjb");
    ASSERT_PARAM(s, vm, "atime", "off");
    ASSERT_PARAM(s, vm, "primarycache", "metadata");
    ASSERT_PARAM(s, vm, "logbias", "throughput");
    ASSERT_PARAM(s, vm, "copies", "2");
    ASSERT_PARAM(s, vm, "dedup", "off");
    assert_near(val(s, vm, "compressratio"), 13.45, 0);
    assert_near(val(s, vm, "used"), 980 * K, 0);
    assert_near(val(s, vm, "available"), 213 * M, 0);
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zpool-status_mirror.txt");
    check_pool(s, "pbzfsfix_10641", "mirror", "1", "2", "ONLINE", 0, 0, 0);
    /* zfs-fuse prints the old "scrub:" key */
    ASSERT_FACT(s, "pool:pbzfsfix_10641:scan", "none requested");
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zpool-list.txt");
    assert_near(val(s, "pbzfsfix_10641", "size"), 123 * M, 0);
    assert_near(val(s, "pbzfsfix_10641", "allocated"), 2.67 * M, 1e-6);
    assert_near(val(s, "pbzfsfix_10641", "free"), 120 * M, 0);
    assert_near(val(s, "pbzfsfix_10641", "capacity"), 2, 0);
    assert_null(res(s, "pbzfsfix_10641", "fragmentation"));
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zpool-get-all.txt");
    assert_near(val(s, "pbzfsfix_10641", "size"), 123 * M, 0);
    assert_near(val(s, "pbzfsfix_10641", "allocated"), 2.67 * M, 1e-6);
    ASSERT_FACT(s, "pool:pbzfsfix_10641:version", "23");
    pb_resultset_free(s);

    s = load(FIX, "zfs-fuse_zpool-status-and-list_raidz1-log-cache-spare.txt");
    const char *p = "pbzfsfix_14375";
    ASSERT_PARAM(s, p, "layout", "raidz1");
    ASSERT_PARAM(s, p, "vdevs", "1");
    ASSERT_PARAM(s, p, "slog", "yes");
    ASSERT_PARAM(s, p, "l2arc", "yes");
    ASSERT_FACT(s, "pool:pbzfsfix_14375:disks_per_vdev", "3");
    ASSERT_FACT(s, "pool:pbzfsfix_14375:log_vdevs", "1");
    ASSERT_FACT(s, "pool:pbzfsfix_14375:cache_vdevs", "1");
    ASSERT_FACT(s, "pool:pbzfsfix_14375:spares", "1");
    assert_near(val(s, p, "size"), 370 * M, 0);
    assert_near(val(s, p, "allocated"), 3.13 * M, 1e-6);
    assert_near(val(s, p, "read_errors"), 0, 0);
    check_units(s);
    pb_resultset_free(s);
}

static void test_fixtures_openzfs(void **state)
{
    (void)state;
    struct pb_resultset *s =
        load(FIX, "openzfs-2.2_zfs-get-Hp_logicalused-zvol.txt");
    /* -p prints ratios without the x */
    assert_near(val(s, "tank/vm", "compressratio"), 1.99, 0);
    assert_near(val(s, "tank/vm", "used"), 99220455424.0, 0);
    assert_near(val(s, "tank/vm", "logicalused"), 197448695808.0, 0);
    assert_near(val(s, "tank/vm", "actual_savings"),
                197448695808.0 / 99220455424.0, 1e-15);
    ASSERT_PARAM(s, "tank/vm", "atime", "off"); /* inherited from tank */
    ASSERT_PARAM(s, "tank/zvol", "volblocksize", "8192");
    ASSERT_PARAM(s, "tank/zvol", "compression", "zstd-3");
    ASSERT_PARAM(s, "tank/zvol", "sync", "always");
    assert_null(param(s, "tank/zvol", "recordsize")); /* "-" */
    /* used 0: no ratio to derive */
    assert_near(val(s, "tank/zvol", "used"), 0, 0);
    assert_null(res(s, "tank/zvol", "actual_savings"));
    pb_resultset_free(s);

    s = load(FIX, "openzfs-2.2_zfs-get_inherited-source.txt");
    ASSERT_PARAM(s, "tank/db", "compression", "zstd");
    ASSERT_PARAM(s, "tank/db", "recordsize", "16384");
    assert_near(val(s, "tank/db", "used"), 12.5 * G, 0);
    assert_near(val(s, "tank/db", "logicalused"), 26.2 * G, 1e-3);
    assert_near(val(s, "tank/db", "actual_savings"), 26.2 / 12.5, 1e-12);
    ASSERT_FACT(s, "tank/db:creation", "Tue Mar  5 10:12 2024");
    pb_resultset_free(s);

    s = load(FIX, "openzfs-2.2_zpool-list-v_2x-mirror-log-cache-spare.txt");
    ASSERT_PARAM(s, "tank", "layout", "2x mirror");
    ASSERT_PARAM(s, "tank", "vdevs", "2");
    ASSERT_PARAM(s, "tank", "slog", "yes");
    ASSERT_PARAM(s, "tank", "l2arc", "yes");
    ASSERT_FACT(s, "pool:tank:spares", "1");
    ASSERT_FACT(s, "pool:tank:disks_per_vdev", "2");
    ASSERT_PARAM(s, "scratch", "layout", "stripe");
    ASSERT_PARAM(s, "scratch", "slog", "no");
    assert_near(val(s, "tank", "size"), 3.62 * T, 1e-1);
    assert_near(val(s, "tank", "allocated"), 920 * G, 0);
    assert_near(val(s, "tank", "fragmentation"), 4, 0);
    assert_near(val(s, "tank", "capacity"), 24, 0);
    assert_near(val(s, "scratch", "free"), 727 * G, 0);
    /* vdev rows are no pools */
    assert_int_equal(s->nconfigs, 2);
    pb_resultset_free(s);

    s = load(FIX, "openzfs-2.2_zpool-status_draid-special-spare.txt");
    ASSERT_PARAM(s, "big", "layout", "draid2");
    ASSERT_PARAM(s, "big", "vdevs", "1");
    ASSERT_FACT(s, "pool:big:disks_per_vdev", "6");
    ASSERT_FACT(s, "pool:big:special_vdevs", "1");
    ASSERT_FACT(s, "pool:big:spares", "1");
    assert_near(val(s, "big", "read_errors"), 3, 0);
    assert_near(val(s, "big", "write_errors"), 1.20 * K, 1e-9);
    assert_near(val(s, "big", "cksum_errors"), 2, 0);
    pb_resultset_free(s);
}

/* Pool dimensions reach the datasets of that pool in the same file. */
static void test_pool_dims_to_datasets(void **state)
{
    (void)state;
    static const char in[] =
        "  pool: tank\n"
        " state: ONLINE\n"
        "config:\n\n"
        "\tNAME        STATE     READ WRITE CKSUM\n"
        "\ttank        ONLINE       0     0     0\n"
        "\t  raidz1-0  ONLINE       0     0     0\n"
        "\t    sda     ONLINE       0     0     0\n"
        "\t    sdb     ONLINE       0     0     0\n"
        "\t    sdc     ONLINE       0     0     0\n"
        "\t  raidz1-1  ONLINE       0     0     0\n"
        "\t    sdd     ONLINE       0     0     0\n"
        "\t    sde     ONLINE       0     0     0\n"
        "\t    sdf     ONLINE       0     0     0\n"
        "\n"
        "errors: No known data errors\n"
        "tank/vm\tused\t4096\t-\n"
        "tank/vm\trecordsize\t64K\tlocal\n"
        "NAME  PROPERTY  VALUE  SOURCE\n"
        "tank  ashift    12     local\n";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str(in, &s, &err), PB_OK);
    ASSERT_PARAM(s, "tank", "layout", "2x raidz1");
    ASSERT_PARAM(s, "tank", "ashift", "12");
    ASSERT_PARAM(s, "tank/vm", "layout", "2x raidz1");
    ASSERT_PARAM(s, "tank/vm", "vdevs", "2");
    ASSERT_PARAM(s, "tank/vm", "slog", "no");
    ASSERT_PARAM(s, "tank/vm", "ashift", "12");
    ASSERT_PARAM(s, "tank/vm", "recordsize", "65536");
    assert_near(val(s, "tank/vm", "used"), 4096, 0);
    pb_resultset_free(s);

    /* a stripe of three disks, mixed with a mirror */
    static const char mixed[] =
        "  pool: m\n state: ONLINE\nconfig:\n\n"
        "\tNAME        STATE     READ WRITE CKSUM\n"
        "\tm           ONLINE       0     0     0\n"
        "\t  sda       ONLINE       1     0     0\n"
        "\t  sdb       ONLINE       0     2     0\n"
        "\t  mirror-2  ONLINE       0     0     0\n"
        "\t    sdc     ONLINE       0     0     4\n"
        "\t    sdd     ONLINE       0     0     0\n";
    assert_int_equal(parse_str(mixed, &s, &err), PB_OK);
    ASSERT_PARAM(s, "m", "layout", "stripe+mirror");
    ASSERT_PARAM(s, "m", "vdevs", "3");
    ASSERT_FACT(s, "pool:m:disks_per_vdev", "1,1,2");
    assert_near(val(s, "m", "read_errors"), 1, 0);
    assert_near(val(s, "m", "write_errors"), 2, 0);
    assert_near(val(s, "m", "cksum_errors"), 4, 0);
    pb_resultset_free(s);
}

/* ==== hostile inputs ==== */

static void expect_err(const char *in, size_t len, long line, long col,
                       const char *msg)
{
    struct pb_resultset *s;
    struct pb_err err;
    int rc = parse_buf(in, len, &s, &err);
    assert_int_equal(rc, PB_EINPUT);
    assert_null(s);
    if (strcmp(err.msg, msg) != 0 || err.line != line || err.col != col)
        print_error("got %ld:%ld: %s\n", err.line, err.col, err.msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.path, "mem");
}

#define EXPECT_ERR(s, line, col, msg) expect_err(s, sizeof(s) - 1, line, col, msg)

static void test_errors(void **state)
{
    (void)state;
    EXPECT_ERR("", 0, 0, "empty file");
    EXPECT_ERR("  \n\t\n", 0, 0, "file holds only white space");
    EXPECT_ERR("hello\nworld\n", 1, 0,
               "no zfs or zpool output found (first line: \"hello\")");
    EXPECT_ERR("NAME USED AVAIL\ntank 1G\n", 2, 0,
               "row \"tank\" has 2 columns, header has 3");
    EXPECT_ERR("NAME USED AVAIL\ntank 1G 12Q\n", 2, 9,
               "bad size \"12Q\" for 'available' of \"tank\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt compressratio abc -\n", 2, 17,
               "bad ratio \"abc\" for 'compressratio' of \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\np capacity 5x% -\np health "
               "ONLINE -\n",
               2, 12, "bad percentage \"5x%\" for 'capacity' of \"p\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt used 1G\n", 2, 8,
               "bad source \"1G\" for property 'used'");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt\n", 2, 0,
               "truncated row for \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt USED 1G -\n", 2, 3,
               "bad property name \"USED\"");
    EXPECT_ERR("NAME VALUE PROPERTY\nt 1G used\n", 1, 0,
               "unsupported get columns: NAME and PROPERTY must come "
               "before VALUE");
    EXPECT_ERR("  pool: tank\n state: ONLINE\n", 1, 0,
               "no vdev table for pool \"tank\"");
    EXPECT_ERR("x\n  pool: \n", 2, 0, "pool line without a pool name");
    EXPECT_ERR("  pool: t\n state: ONLINE\nconfig:\n\n"
               "\tNAME STATE READ WRITE CKSUM\n\tt ONLINE 0 x 0\n",
               6, 13, "bad error counter \"x\" for \"t\"");
    EXPECT_ERR("t\trecordsize\t8K\tlocal\nt\tcompression\toff\tlocal\n", 1, 0,
               "no sizes, ratios or error counters found in the zfs output");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt used 1G -\nt\0 x\n", 3, 2,
               "unexpected NUL byte");
    /* huge numbers: finite ones are kept, overflow is refused */
    EXPECT_ERR("NAME USED AVAIL\nt 1e400 1G\n", 2, 3,
               "bad size \"1e400\" for 'used' of \"t\"");
    EXPECT_ERR("NAME USED AVAIL\nt 0x10 1G\n", 2, 3,
               "bad size \"0x10\" for 'used' of \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt compressratio 1e999x -\n", 2, 17,
               "bad ratio \"1e999x\" for 'compressratio' of \"t\"");
    /* a truncated last vdev row */
    EXPECT_ERR("  pool: t\n state: ONLINE\nconfig:\n\n"
               "\tNAME STATE READ WRITE CKSUM\n\tt ONLINE 0 0 0\n\t  sda ONL",
               7, 0, "truncated vdev row \"sda\"");

    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str("NAME USED AVAIL\nt 99999999999999999999999E "
                               "1G\n",
                               &s, &err),
                     PB_OK);
    assert_near(val(s, "t", "used"), 99999999999999999999999.0 * 1024 * 1024 *
                                         1024 * 1024 * 1024 * 1024,
                1e30);
    pb_resultset_free(s);
}

/* The bad fixtures give the messages in their .err files. */
static void test_bad_fixtures(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "zfs-list_bad-size.txt", "zfs-get_truncated-row.txt",
        "zpool-status_no-vdev-table.txt", "zfs-get-H_no-metrics.txt"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char path[1024], errpath[1100];
        snprintf(path, sizeof(path), "%s/bad/%s", FIX, bad[i]);
        snprintf(errpath, sizeof(errpath), "%s.err", path);
        skip_unless_exists(path);
        size_t len, elen;
        char *buf = th_slurp(path, &len), *want = th_slurp(errpath, &elen);
        assert_non_null(buf);
        assert_non_null(want);
        struct pb_resultset *s = pb_resultset_new();
        struct pb_err err = {0};
        char rel[600];
        snprintf(rel, sizeof(rel), "zfs/bad/%s", bad[i]);
        assert_int_equal(zfs()->parse(rel, buf, len, s, &err), PB_EINPUT);
        char got[1024];
        FILE *m = fmemopen(got, sizeof(got), "w");
        pb_err_print(&err, m);
        fclose(m);
        assert_string_equal(got, want);
        pb_resultset_free(s);
        free(buf);
        free(want);
    }
}

static void parse_any(const char *buf, size_t len)
{
    struct pb_resultset *s;
    struct pb_err err;
    int rc = parse_buf(buf, len, &s, &err);
    assert_true(rc == PB_OK || rc == PB_EINPUT);
    if (rc == PB_OK) {
        assert_true(s->nresults > 0);
        for (size_t i = 0; i < s->nresults; i++)
            assert_true(isfinite(s->results[i].value));
        pb_resultset_free(s);
    } else {
        assert_true(err.msg[0] != '\0');
        assert_true(err.line >= 0);
    }
}

static void test_truncated(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS);
    FILE *ls = popen("ls -d " PB_CORPUS_DIR "/zfs/* " PB_FIXTURES_DIR
                     "/zfs/*.txt " PB_FIXTURES_DIR "/zfs/bad/*.txt",
                     "r");
    assert_non_null(ls);
    char name[1024];
    while (fgets(name, sizeof(name), ls)) {
        name[strcspn(name, "\n")] = '\0';
        size_t len;
        char *buf = th_slurp(name, &len);
        if (!buf)
            continue;
        for (int pct = 0; pct <= 100; pct += 10) {
            size_t n = len * (size_t)pct / 100;
            char *cut = malloc(n + 1);
            memcpy(cut, buf, n);
            parse_any(cut, n);
            free(cut);
        }
        /* every byte position of small files */
        if (len < 1200)
            for (size_t n = 0; n < len; n++)
                parse_any(buf, n);
        free(buf);
    }
    pclose(ls);
}

static void test_garbage(void **state)
{
    (void)state;
    unsigned x = 12345;
    for (int round = 0; round < 200; round++) {
        char buf[2048];
        size_t n = 1 + (size_t)(round * 13) % sizeof(buf);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (char)(x >> 16);
            if (round % 2 && buf[i] == '\0')
                buf[i] = '\t'; /* tabs and text without NULs */
        }
        parse_any(buf, n);
    }
    /* structured garbage: real markers followed by noise */
    static const char *const heads[] = {
        "NAME PROPERTY VALUE SOURCE\n", "NAME USED AVAIL REFER\n",
        "NAME SIZE ALLOC FREE\n", "  pool: p\n state: X\nconfig:\n\n"
                                  "\tNAME STATE READ WRITE CKSUM\n",
        "p\tused\t1\t-\n"};
    for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
        for (int round = 0; round < 100; round++) {
            char buf[600];
            size_t hl = strlen(heads[h]);
            memcpy(buf, heads[h], hl);
            size_t n = hl + (size_t)round * 5;
            for (size_t i = hl; i < n; i++) {
                x = x * 1103515245u + 12345u;
                static const char alpha[] = " \t\n-%x.0123456789KMGTabc#@/";
                buf[i] = alpha[(x >> 16) % (sizeof(alpha) - 1)];
            }
            parse_any(buf, n);
        }
    }
}

static void test_html_and_crlf(void **state)
{
    (void)state;
    static const char html[] =
        "NAME                  PROPERTY       VALUE     SOURCE\n"
        "tank/<script>x</script>  compressratio  1.50x  -\n"
        "tank/<script>x</script>  comment:note   <b>hi</b> there  local\n";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str(html, &s, &err), PB_OK);
    assert_near(val(s, "tank/<script>x</script>", "compressratio"), 1.5, 0);
    ASSERT_FACT(s, "tank/<script>x</script>:comment:note", "<b>hi</b> there");
    pb_resultset_free(s);

    /* CRLF copies of real files give the same values */
    static const char *const files[] = {
        "zfs-get-all_freenas-pool-root_cunnie.txt",
        "zpool-status_unavail-guid-cksum_danjl1100.txt",
        "zfs-list_with-hand-comments_bencord0.txt",
        "zpool-list_3-pools_george-qiaozhi.txt"};
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", CORPUS, files[f]);
        skip_unless_exists(path);
        size_t len;
        char *buf = th_slurp(path, &len);
        char *crlf = malloc(len * 2 + 1);
        size_t n = 0;
        for (size_t i = 0; i < len; i++) {
            if (buf[i] == '\n')
                crlf[n++] = '\r';
            crlf[n++] = buf[i];
        }
        struct pb_resultset *a, *b;
        assert_int_equal(parse_buf(buf, len, &a, &err), PB_OK);
        assert_int_equal(parse_buf(crlf, n, &b, &err), PB_OK);
        assert_int_equal(a->nresults, b->nresults);
        assert_int_equal(a->nconfigs, b->nconfigs);
        assert_int_equal(a->nfacts, b->nfacts);
        for (size_t i = 0; i < a->nresults; i++) {
            assert_string_equal(a->results[i].metric, b->results[i].metric);
            assert_near(a->results[i].value, b->results[i].value, 0);
        }
        for (size_t i = 0; i < a->nfacts; i++)
            assert_string_equal(a->facts[i].value, b->facts[i].value);
        for (size_t i = 0; i < a->nconfigs; i++)
            assert_string_equal(a->configs[i].label, b->configs[i].label);
        pb_resultset_free(a);
        pb_resultset_free(b);
        free(buf);
        free(crlf);
    }
}

/* Junk around the outputs: prompts, notes, a second output kind. */
static void test_junk_between(void **state)
{
    (void)state;
    static const char in[] =
        "root@nas:~# zfs list -o name,used,avail,refer,ratio\n"
        "NAME       USED  AVAIL  REFER  RATIO\n"
        "tank/a    1.00G   100G  1.00G  2.00x\n"
        "root@nas:~# zfs get -Hp logicalused tank/a\n"
        "tank/a\tlogicalused\t2147483648\t-\n"
        "root@nas:~# echo done\n"
        "done\n";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str(in, &s, &err), PB_OK);
    assert_near(val(s, "tank/a", "used"), G, 0);
    assert_near(val(s, "tank/a", "compressratio"), 2, 0);
    assert_near(val(s, "tank/a", "logicalused"), 2 * G, 0);
    assert_near(val(s, "tank/a", "actual_savings"), 2, 0);
    assert_int_equal(s->nconfigs, 1);
    pb_resultset_free(s);

    /* the same value twice: the last one wins, no duplicate rows */
    static const char twice[] =
        "NAME PROPERTY VALUE SOURCE\nt used 1K -\n\nt\tused\t2048\t-\n";
    assert_int_equal(parse_str(twice, &s, &err), PB_OK);
    assert_int_equal(s->nresults, 1);
    assert_near(val(s, "t", "used"), 2048, 0);
    pb_resultset_free(s);

    /* zfs list -H with the default columns */
    static const char hlist[] = "tank\t1.5G\t10G\t96K\t/tank\n"
                                "tank/x\t1G\t10G\t1G\tnone\n";
    assert_true(pb_ingest_find_parser(hlist, sizeof(hlist) - 1) != NULL);
    assert_int_equal(parse_str(hlist, &s, &err), PB_OK);
    assert_near(val(s, "tank", "used"), 1.5 * G, 0);
    assert_near(val(s, "tank/x", "referenced"), G, 0);
    ASSERT_FACT(s, "tank/x:mountpoint", "none");
    pb_resultset_free(s);
}

/* Issue 18 item 5: a zvol whose 5.67T refreservation counts in `used`
 * (logicalused/used = 0.080) still gets the savings of the data it holds,
 * 1.55 like its compressratio, whatever the output gives. */
static void test_savings_refreservation(void **state)
{
    (void)state;
    const char *l = "tank/vm-disk";
    struct pb_resultset *s =
        load(FIX, "openzfs-2.2_zfs-get-Hp-all_zvol-refreservation.txt");
    assert_near(val(s, l, "used"), 6234168754176.0, 0);
    assert_near(val(s, l, "logicalused"), 499289948160.0, 0);
    assert_near(val(s, l, "actual_savings"), 499289948160.0 / 322122547200.0,
                1e-15);
    assert_near(val(s, l, "actual_savings"), 1.55, 1e-12);
    ASSERT_FACT(s, "tank/vm-disk:actual_savings_basis",
                "logicalreferenced/referenced");
    ASSERT_FACT(s, "tank/vm-disk:usedbyrefreservation", "5912046206976");
    ASSERT_PARAM(s, l, "volblocksize", "16384");
    pb_resultset_free(s);

    /* zfs list -o without LREFER: used minus the reservation */
    s = load(FIX, "openzfs-2.2_zfs-list-p-o_zvol-refreserv.txt");
    assert_near(val(s, l, "actual_savings"),
                499289948160.0 / (6234168754176.0 - 5912046206976.0), 1e-15);
    assert_near(val(s, l, "actual_savings"), 1.55, 1e-12);
    ASSERT_FACT(s, "tank/vm-disk:actual_savings_basis",
                "logicalused/(used-usedbyrefreservation)");
    /* no reservation: logicalused/used */
    assert_near(val(s, "tank/db", "actual_savings"), 2.1, 1e-12);
    ASSERT_FACT(s, "tank/db:actual_savings_basis", "logicalused/used");
    pb_resultset_free(s);

    /* a dataset whose own data is under 1% of used (a parent of its
     * children) keeps logicalused/used; an unparsable size is an error */
    static const char parent[] = "p\tused\t1000000\t-\n"
                                 "p\tlogicalused\t1500000\t-\n"
                                 "p\treferenced\t9000\t-\n"
                                 "p\tlogicalreferenced\t4500\t-\n";
    struct pb_err err;
    assert_int_equal(parse_str(parent, &s, &err), PB_OK);
    assert_near(val(s, "p", "actual_savings"), 1.5, 1e-15);
    pb_resultset_free(s);
    static const char bad[] = "p\tused\t1000\t-\n"
                              "p\tusedbyrefreservation\t12Q\t-\n";
    assert_int_equal(parse_str(bad, &s, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "bad size \"12Q\" for "
                                 "'usedbyrefreservation' of \"p\"");
}

/* Issue 18 item 7: a log of zpool iostat -v, zpool status, zpool list,
 * /proc/loadavg, df -h and zfs list (zfs-fuse, one command after the
 * other, no prompts): the known sections land, the rest is named. */
static void test_combined_log(void **state)
{
    (void)state;
    const char *p = "pbmsc_14284";
    struct pb_resultset *s =
        load(FIX, "zfs-fuse_combined-log_iostat-status-list-df.txt");
    ASSERT_FACT(s, "skipped_lines",
                "1-8 (zpool iostat), 24 (unknown), 25-27 (df)");
    /* zpool status */
    ASSERT_PARAM(s, p, "layout", "mirror");
    ASSERT_PARAM(s, p, "vdevs", "1");
    ASSERT_FACT(s, "pool:pbmsc_14284:disks_per_vdev", "2");
    assert_near(val(s, p, "cksum_errors"), 0, 0);
    /* zpool list, cut short by the loadavg line */
    assert_near(val(s, p, "size"), 123 * M, 0);
    assert_near(val(s, p, "allocated"), 716 * K, 0);
    assert_near(val(s, p, "free"), 122 * M, 0);
    /* zfs list after df */
    assert_near(val(s, "pbmsc_14284/gz", "used"), 272 * K, 0);
    assert_near(val(s, "pbmsc_14284/gz", "available"), 90.3 * M, 1e-3);
    ASSERT_PARAM(s, "pbmsc_14284/gz", "layout", "mirror");
    assert_int_equal(s->nconfigs, 2);
    assert_int_equal(s->nresults, 14);
    pb_resultset_free(s);

    /* prompts name the output after them; comments are no skipped data */
    static const char prompts[] =
        "root@nas:~# zpool list tank\n"
        "NAME   SIZE  ALLOC   FREE    CAP  DEDUP  HEALTH  ALTROOT\n"
        "tank  1.00T   100G   924G     9%  1.00x  ONLINE  -\n"
        "root@nas:~# sudo /sbin/zpool iostat tank 1 1\n"
        "tank   100G   924G  1  2  3K  4K\n"
        "\n"
        "tank   100G   924G  1  2  3K  4K\n"
        "root@nas:~# free -m\n"
        "              total        used        free\n"
        "Mem:          64000       32000       32000\n"
        "# a note\n"
        "12:00:01 up 3 days,  1 user,  load average: 0.50, 0.40, 0.30\n";
    struct pb_err err;
    assert_int_equal(parse_str(prompts, &s, &err), PB_OK);
    ASSERT_FACT(s, "skipped_lines",
                "5-7 (zpool iostat), 9-10 (free), 12 (uptime)");
    assert_near(val(s, "tank", "size"), T, 0);
    pb_resultset_free(s);

    /* a prompt or comment naming no known command: "unknown" */
    static const char odd[] = "$ <b>\x1b[2J\nzzz 1 2\n"
                              "# a note\nnote text\n"
                              "NAME  SIZE  ALLOC   FREE    CAP  DEDUP  HEALTH"
                              "  ALTROOT\ntank  1.00T  100G  924G  9%  1.00x"
                              "  ONLINE  -\n";
    assert_int_equal(parse_str(odd, &s, &err), PB_OK);
    ASSERT_FACT(s, "skipped_lines", "2 (unknown), 4 (unknown)");
    pb_resultset_free(s);

    /* nothing skipped: no fact */
    s = load(FIX, "zfs-fuse_zpool-list.txt");
    assert_null(fact(s, "skipped_lines"));
    pb_resultset_free(s);
}

/* Issue 11 item 8: -H output without a header. Default column sets are
 * known (zfs-fuse's 8-column and OpenZFS 2.x's 11-column zpool list -H);
 * other -o lists need --columns, and without it the error says so. */
static void test_headerless(void **state)
{
    (void)state;
    struct pb_resultset *s = load(FIX, "zfs-fuse_zpool-list-H.txt");
    assert_near(val(s, "pbmsc_14284", "size"), 123 * M, 0);
    assert_near(val(s, "pbmsc_14284", "allocated"), 716 * K, 0);
    assert_near(val(s, "pbmsc_14284", "dedupratio"), 1, 0);
    ASSERT_FACT(s, "pool:pbmsc_14284:health", "ONLINE");
    pb_resultset_free(s);

    /* OpenZFS 2.x zpool list -Hp: name size alloc free ckpoint expandsz
     * frag cap dedup health altroot */
    static const char oz[] = "tank\t1099511627776\t549755813888\t"
                             "549755813888\t-\t-\t23\t50\t1.00\t"
                             "ONLINE\t-\n";
    struct pb_err err;
    assert_true(zfs()->sniff(oz, sizeof(oz) - 1) >= 60);
    assert_int_equal(parse_str(oz, &s, &err), PB_OK);
    assert_near(val(s, "tank", "size"), T, 0);
    assert_near(val(s, "tank", "fragmentation"), 23, 0);
    assert_near(val(s, "tank", "capacity"), 50, 0);
    pb_resultset_free(s);

    /* zfs list -H -o name,used,avail,refer,compressratio (zfs-fuse) */
    char path[1024];
    snprintf(path, sizeof(path), "%s/bad/zfs-fuse_zfs-list-H-o_no-header.txt",
             FIX);
    size_t len;
    char *buf = th_slurp(path, &len);
    assert_non_null(buf);
    assert_true(pb_ingest_find_parser(buf, len) == zfs());
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.msg, "zfs list -H output without a header: pass "
                                 "--columns NAME,...");
    o.columns = "name,used,avail,refer,ratio";
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err), PB_OK);
    assert_near(val(s, "pbmsc_14284/gz", "compressratio"), 152.40, 1e-12);
    assert_near(val(s, "pbmsc_14284/gz", "used"), 272 * K, 0);
    assert_near(val(s, "pbmsc_14284", "available"), 90.3 * M, 1e-3);
    pb_resultset_free(s);
    /* a column list that does not fit the rows */
    o.columns = "name,used,avail";
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err),
                     PB_EINPUT);
    assert_string_equal(err.msg, "row \"pbmsc_14284\" has 5 fields, "
                                 "--columns names 3");
    free(buf);

    /* zpool list -H -o with pool columns */
    static const char po[] = "tank\t1.00T\t100G\t924G\t9%\tONLINE\n";
    o.columns = "NAME,SIZE,ALLOC,FREE,CAP,HEALTH";
    assert_int_equal(pb_ingest_buffer("x", po, sizeof(po) - 1, &o, &s, &err),
                     PB_OK);
    assert_near(val(s, "tank", "allocated"), 100 * G, 0);
    assert_near(val(s, "tank", "capacity"), 9, 0);
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_corpus_get_all_dataset),
        cmocka_unit_test(test_corpus_get_all_encrypted),
        cmocka_unit_test(test_corpus_get_all_freenas),
        cmocka_unit_test(test_corpus_list_bootenvs),
        cmocka_unit_test(test_corpus_list_comments),
        cmocka_unit_test(test_corpus_zpool_get_all),
        cmocka_unit_test(test_corpus_zpool_list),
        cmocka_unit_test(test_corpus_status_3way),
        cmocka_unit_test(test_corpus_status_degraded),
        cmocka_unit_test(test_corpus_status_freenas),
        cmocka_unit_test(test_corpus_status_misc),
        cmocka_unit_test(test_corpus_status_two_pools),
        cmocka_unit_test(test_corpus_status_unavail),
        cmocka_unit_test(test_corpus_all),
        cmocka_unit_test(test_fixtures_zfs_fuse),
        cmocka_unit_test(test_fixtures_openzfs),
        cmocka_unit_test(test_pool_dims_to_datasets),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_html_and_crlf),
        cmocka_unit_test(test_junk_between),
        cmocka_unit_test(test_savings_refreservation),
        cmocka_unit_test(test_combined_log),
        cmocka_unit_test(test_headerless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
