/* Unit tests for the run preflight: the property tables of zfs-fuse (made
 * here) and OpenZFS 2.1 (shaped from a public real output), value
 * matching, `fio --cmdhelp` parsing, the allocation factor and space
 * estimate, the preflight of a plan against each ZFS, --time-scale, the
 * exec timeouts and loop vdevs in plans. No root, no ZFS, no fio needed. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/preflight_int.h"

#define CAPS PB_FIXTURES_DIR "/zfs-caps"
#define FUSE CAPS "/zfs-fuse"
#define OZFS CAPS "/openzfs-2.1"
#define OZFS23 CAPS "/openzfs-2.3"
#define MIB (1024.0 * 1024.0)

static char *slurp(const char *path)
{
    char *buf;
    size_t len;
    struct pb_err err = {0};
    if (pb_read_file(path, &buf, &len, &err) != PB_OK)
        print_error("%s: %s\n", path, err.msg);
    assert_int_equal(err.code, 0);
    return buf;
}

static const char *values_of(const struct pb_run_prop *t, size_t n,
                             const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return t[i].values;
    return NULL;
}

static void probe(const char *dir, enum pb_run_impl impl,
                  struct pb_run_caps *caps)
{
    struct pb_run_exec x = {0};
    pb_run_caps_probe(&x, impl, dir, caps);
}

/* ==== the tables ==== */

static void test_tables_fuse(void **state)
{
    (void)state;
    struct pb_run_caps c;
    probe(FUSE, PB_RUN_IMPL_ZFS_FUSE, &c);
    assert_string_equal(c.name, "zfs-fuse (pool version 23)");
    assert_int_equal(c.nds, 53);
    assert_int_equal(c.npool, 18);
    assert_int_equal(c.pool_version, 23);
    assert_int_equal(c.file_cache, 0);
    assert_int_equal(c.zvols, 0);
    assert_null(values_of(c.ds, c.nds, "sync"));
    assert_null(values_of(c.ds, c.nds, "logicalused"));
    assert_string_equal(values_of(c.ds, c.nds, "compression"),
                        "on | off | lzjb | gzip | gzip-[1-9] | zle");
    assert_string_equal(values_of(c.ds, c.nds, "recordsize"),
                        "512 to 128k, power of 2");
    assert_string_equal(values_of(c.ds, c.nds, "usedbyrefreservation"),
                        "<size>");
    assert_string_equal(values_of(c.ds, c.nds, "userquota@..."),
                        "<size> | none");
    assert_string_equal(values_of(c.pool, c.npool, "ashift"),
                        "<ashift, 9-13, or 0=default>");
    assert_string_equal(values_of(c.pool, c.npool, "failmode"),
                        "wait | continue | panic");
    pb_run_caps_release(&c);
}

/* The real thing: what OpenZFS 2.3.2 printed in scripts/openzfs-vm */
static void test_tables_openzfs_23(void **state)
{
    (void)state;
    struct pb_run_caps c;
    probe(OZFS23, PB_RUN_IMPL_AUTO, &c);
    assert_string_equal(c.name, "OpenZFS zfs-2.3.2-2~bpo12+2");
    assert_int_equal(c.pool_version, 5000);
    assert_int_equal(c.alloc_classes, 1);
    assert_string_equal(values_of(c.ds, c.nds, "sync"),
                        "standard | always | disabled");
    assert_int_equal(pb_run_caps_lacks(&c, "sync"), 0);
    char buf[300];
    assert_null(pb_run_prop_check(c.ds, c.nds, "compression", "zstd", buf,
                                  sizeof(buf)));
    assert_null(pb_run_prop_check(c.ds, c.nds, "compression", "zstd-19",
                                  buf, sizeof(buf)));
    assert_null(pb_run_prop_check(c.ds, c.nds, "volblocksize", "16k", buf,
                                  sizeof(buf)));
    pb_run_caps_release(&c);
}

static void test_tables_openzfs(void **state)
{
    (void)state;
    struct pb_run_caps c;
    probe(OZFS, PB_RUN_IMPL_OPENZFS, &c);
    assert_string_equal(c.name, "OpenZFS zfs-2.1.5-1ubuntu6~22.04.1");
    assert_int_equal(c.nds, 96);
    assert_int_equal(c.npool, 29);
    assert_int_equal(c.pool_version, 5000);
    assert_int_equal(c.file_cache, 1);
    assert_int_equal(c.zvols, 1);
    assert_string_equal(values_of(c.ds, c.nds, "sync"),
                        "standard | always | disabled");
    assert_string_equal(values_of(c.ds, c.nds, "special_small_blocks"),
                        "zero or 512 to 1M, power of 2");
    assert_string_equal(values_of(c.ds, c.nds, "written#<bookmark>"),
                        "<size>");
    assert_string_equal(values_of(c.pool, c.npool, "feature@..."),
                        "disabled | enabled | active");
    pb_run_caps_release(&c);
}

static void test_values(void **state)
{
    (void)state;
    char *ft = slurp(FUSE "/zfs-get-usage.txt");
    char *ot = slurp(OZFS "/zfs-get-usage.txt");
    struct pb_run_prop *f, *o;
    size_t nf = pb_run_props_parse(ft, &f), no = pb_run_props_parse(ot, &o);
    static const struct {
        const char *key, *value;
        int fuse, ozfs;
    } cases[] = {
        {"compression", "lz4", 0, 1},
        {"compression", "zstd", 0, 1},
        {"compression", "zstd-19", 0, 1},
        {"compression", "zstd-20", 0, 0},
        {"compression", "zstd-fast-500", 0, 1},
        {"compression", "zstd-fast-11", 0, 0},
        {"compression", "gzip", 1, 1},
        {"compression", "gzip-9", 1, 1},
        {"compression", "gzip-10", 0, 0},
        {"compression", "gzip-", 0, 0},
        {"compression", "lzjb", 1, 1},
        {"recordsize", "2k", 1, 1},
        {"recordsize", "128k", 1, 1},
        {"recordsize", "256k", 0, 1},
        {"recordsize", "1M", 0, 1},
        {"recordsize", "2M", 0, 0},
        {"recordsize", "3k", 0, 0},
        {"recordsize", "256", 0, 0},
        {"sync", "always", -1, 1},
        {"sync", "sometimes", -1, 0},
        {"primarycache", "none", 1, 1},
        {"primarycache", "some", 0, 0},
        {"dedup", "sha256,verify", 1, 1},
        {"dedup", "sha256", 1, 1},
        {"dedup", "sha256,ver", 0, 0},
        {"dedup", "edonr,verify", 0, 1},
        {"copies", "3", 1, 1},
        {"copies", "4", 0, 0},
        {"quota", "10G", 1, 1},
        {"special_small_blocks", "0", -1, 1},
        {"special_small_blocks", "16k", -1, 1},
        {"special_small_blocks", "3k", -1, 0},
        {"xattr", "sa", 0, 1},
        {"com.example:tag", "anything", 1, 1},
    };
    char buf[300];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int z = 0; z < 2; z++) {
            int want = z ? cases[i].ozfs : cases[i].fuse;
            const char *why = pb_run_prop_check(z ? o : f, z ? no : nf,
                                                cases[i].key, cases[i].value,
                                                buf, sizeof(buf));
            if ((why == NULL) != (want == 1))
                print_error("case %zu (%s=%s) on %s: %s\n", i, cases[i].key,
                            cases[i].value, z ? "openzfs" : "zfs-fuse",
                            why ? why : "accepted");
            assert_true((why == NULL) == (want == 1));
            if (want == -1)
                assert_non_null(strstr(why, "has no property"));
        }
    }
    assert_string_equal(pb_run_prop_check(f, nf, "sync", "always", buf,
                                          sizeof(buf)),
                        "has no property 'sync'");
    assert_string_equal(pb_run_prop_check(f, nf, "compression", "lz4", buf,
                                          sizeof(buf)),
                        "does not take that value (compression: on | off | "
                        "lzjb | gzip | gzip-[1-9] | zle)");
    pb_run_props_free(f, nf);
    pb_run_props_free(o, no);
    free(ft);
    free(ot);
    /* no table: nothing */
    struct pb_run_prop *none;
    assert_int_equal(pb_run_props_parse("connect: Connection refused\n",
                                        &none), 0);
    assert_null(none);
    assert_int_equal(pb_run_pool_version_parse("garbage"), 0);
}

static void test_fio_help(void **state)
{
    (void)state;
    char *t = slurp(CAPS "/fio-cmdhelp-rw.txt");
    char **v;
    assert_int_equal(pb_run_fio_help_parse(t, &v), 1);
    assert_non_null(v);
    size_t n = 0;
    while (v[n])
        n++;
    assert_int_equal(n, 11);
    assert_string_equal(v[0], "read");
    assert_string_equal(v[8], "randrw");
    assert_string_equal(v[10], "randtrimwrite");
    pb_run_strv_free(v);
    free(t);
    t = slurp(CAPS "/fio-cmdhelp-unknown.txt");
    assert_int_equal(pb_run_fio_help_parse(t, &v), 0);
    assert_null(v);
    free(t);
    t = slurp(CAPS "/fio-cmdhelp-ioengine.txt");
    assert_int_equal(pb_run_fio_help_parse(t, &v), 1);
    int libaio = 0, psync = 0;
    for (size_t i = 0; v[i]; i++) {
        libaio |= !strcmp(v[i], "libaio");
        psync |= !strcmp(v[i], "psync");
    }
    assert_true(libaio && psync);
    pb_run_strv_free(v);
    free(t);
}

/* ==== space ==== */

static void test_alloc_factor(void **state)
{
    (void)state;
    struct pb_run_layout l = {"stripe", 1, 2};
    assert_near(pb_run_alloc_factor(&l, 14, 2048), 8.0, 1e-12);
    assert_near(pb_run_alloc_factor(&l, 12, 2048), 2.0, 1e-12);
    assert_near(pb_run_alloc_factor(&l, 9, 2048), 1.0, 1e-12);
    assert_near(pb_run_alloc_factor(&l, 12, 131072), 1.0, 1e-12);
    struct pb_run_layout m = {"mirror", 2, 2};
    assert_near(pb_run_alloc_factor(&m, 13, 4096), 2.0, 1e-12);
    /* raidz1 of 3 at ashift 12, 4k records: 1 data + 1 parity sector */
    struct pb_run_layout z1 = {"raidz1", 1, 3};
    assert_near(pb_run_alloc_factor(&z1, 12, 4096), 2.0, 1e-12);
    /* 128k: 32 data + 16 parity = 48 sectors for 32: 1.5 */
    assert_near(pb_run_alloc_factor(&z1, 12, 131072), 1.5, 1e-12);
    /* raidz2 of 4, 128k at ashift 12: 32 + 2 x 16 = 64, padded to 66 */
    struct pb_run_layout z2 = {"raidz2", 1, 4};
    assert_near(pb_run_alloc_factor(&z2, 12, 131072), 66.0 / 32, 1e-12);
}

static struct pb_run_plan *plan_of(const char *text)
{
    struct pb_run_plan *p = NULL;
    struct pb_err err = {0};
    if (pb_run_plan_parse("/plans/p.ini", text, &p, &err) != PB_OK)
        print_error("%ld: %s\n", err.line, err.msg);
    assert_non_null(p);
    return p;
}

/* The study of issue 14 on 2 x 1G: ashift=14 x recordsize=2k needs 8x. */
static const char ashift_plan[] =
    "[plan]\n"
    "pool = pbrnaunit\n"
    "vdevs = file:/nonexistent/pb-a0.img:1G file:/nonexistent/pb-a1.img:1G\n"
    "[pool]\n"
    "ashift = 9, 12, 13, 14\n"
    "[dataset]\n"
    "recordsize = 2k, 4k, 8k\n"
    "%s"
    "[fio]\n"
    "rw = randrw\n"
    "numjobs = 8\n"
    "size = %s\n";

static void test_space(void **state)
{
    (void)state;
    char *text = pb_xasprintf(ashift_plan, "", "64m");
    struct pb_run_plan *p = plan_of(text);
    struct pb_run_cell c;
    struct pb_run_space s;
    pb_run_cell_at(p, 9, &c); /* ashift=14 recordsize=2k */
    pb_run_space_of(p, &c, &s);
    assert_int_equal(s.ashift, 14);
    assert_near(s.record, 2048, 0);
    assert_near(s.data, 512 * MIB, 0);
    assert_near(s.factor, 8.0, 1e-12);
    assert_near(s.need, 512 * MIB * 8 * 1.1 + 16 * MIB, 1);
    /* 2 x (1G - 8M), less a slop of 128M */
    assert_near(s.capacity, 2 * (1024 - 8) * MIB - 128 * MIB, 1);
    pb_run_cell_at(p, 0, &c); /* ashift=9 recordsize=2k */
    pb_run_space_of(p, &c, &s);
    assert_near(s.factor, 1.0, 1e-12);

    /* the preflight names the first cell that does not fit */
    struct pb_run_caps caps;
    probe(FUSE, PB_RUN_IMPL_ZFS_FUSE, &caps);
    struct pb_run_exec x = {0};
    struct pb_run_pre pre;
    struct pb_err err = {0};
    assert_int_equal(pb_run_preflight(p, &caps, &x, 0, &pre, &err),
                     PB_EUSAGE);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg,
                        "cell 7/12 does not fit its pool: 512M of data x "
                        "4.00 (ashift=13, recordsize=2k) + metadata = about "
                        "2.2G; the pool holds about 1.9G: larger vdevs or a "
                        "smaller fio size (ashift=13 recordsize=2k | fio "
                        "randrw bs=4k iodepth=1 numjobs=8 rwmixread=50)");
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    free(text);

    /* 16m per job fits every cell */
    text = pb_xasprintf(ashift_plan, "", "16m");
    p = plan_of(text);
    pb_err_clear(&err);
    assert_int_equal(pb_run_preflight(p, &caps, &x, 0, &pre, &err), PB_OK);
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    free(text);
    pb_run_caps_release(&caps);
}

/* ==== the preflight of a plan ==== */

static void test_preflight_sync(void **state)
{
    (void)state;
    char *text = pb_xasprintf(ashift_plan,
                              "sync = disabled\nprimarycache = none\n", "16m");
    struct pb_run_plan *p = plan_of(text);
    struct pb_run_caps fuse, ozfs;
    probe(FUSE, PB_RUN_IMPL_ZFS_FUSE, &fuse);
    probe(OZFS, PB_RUN_IMPL_OPENZFS, &ozfs);
    struct pb_run_exec x = {0};
    struct pb_run_pre pre;
    struct pb_err err = {0};
    /* zfs-fuse: refused at the line of `sync` (sync=always runs there
     * with fio sync=1 in its place: test_sync_fallback) */
    assert_int_equal(pb_run_preflight(p, &fuse, &x, 0, &pre, &err),
                     PB_EUSAGE);
    assert_string_equal(err.path, "/plans/p.ini");
    assert_int_equal(err.line, 8);
    assert_string_equal(err.msg,
                        "sync=disabled: zfs-fuse (pool version 23) has no "
                        "property 'sync' (or [plan] on_unsupported = "
                        "skip)");
    pb_run_pre_release(&pre);
    /* OpenZFS runs it */
    pb_err_clear(&err);
    assert_int_equal(pb_run_preflight(p, &ozfs, &x, 0, &pre, &err), PB_OK);
    struct pb_run_cell c;
    pb_run_cell_at(p, 11, &c);
    assert_null(pb_run_pre_why(&pre, &c));
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    free(text);

    /* on_unsupported = skip: the cells keep the reason */
    text = pb_xasprintf("[plan]\non_unsupported = skip\n%s",
                        "vdevs = file:/nonexistent/pb-b0.img:1G\n"
                        "[pool]\nashift = 12\n"
                        "[dataset]\ncompression = off, lz4, gzip-9\n"
                        "[fio]\nrw = read, write\nsize = 8m\n");
    p = plan_of(text);
    pb_err_clear(&err);
    assert_int_equal(pb_run_preflight(p, &fuse, &x, 0, &pre, &err), PB_OK);
    const char *want[6] = {NULL, NULL,
                           "compression=lz4: zfs-fuse (pool version 23) "
                           "does not take that value (compression: on | off "
                           "| lzjb | gzip | gzip-[1-9] | zle)",
                           NULL, NULL, NULL};
    want[3] = want[2];
    for (size_t i = 0; i < 6; i++) {
        pb_run_cell_at(p, i, &c);
        const char *why = pb_run_pre_why(&pre, &c);
        if (want[i])
            assert_string_equal(why, want[i]);
        else
            assert_null(why);
    }
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    free(text);

    /* zvols: none on zfs-fuse; volblocksize 1M on OpenZFS (large_blocks,
     * though its table says 128k) */
    p = plan_of("[plan]\nkind = zvol\non_unsupported = skip\n"
                "vdevs = file:/nonexistent/pb-c0.img:4G\n"
                "[zvol]\nsize = 1G\nvolblocksize = 8k, 1M\n"
                "[fio]\nrw = read\n");
    pb_err_clear(&err);
    assert_int_equal(pb_run_preflight(p, &fuse, &x, 0, &pre, &err), PB_OK);
    pb_run_cell_at(p, 0, &c);
    assert_string_equal(pb_run_pre_why(&pre, &c),
                        "kind=zvol: zfs-fuse (pool version 23) has no zvols "
                        "(no /dev/zvol device nodes; zvols need OpenZFS)");
    pb_run_pre_release(&pre);
    assert_int_equal(pb_run_preflight(p, &ozfs, &x, 0, &pre, &err), PB_OK);
    pb_run_cell_at(p, 1, &c);
    assert_null(pb_run_pre_why(&pre, &c));
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    pb_run_caps_release(&fuse);
    pb_run_caps_release(&ozfs);
}

/* ==== --time-scale, loop vdevs, timeouts ==== */

static void test_time_scale(void **state)
{
    (void)state;
    struct pb_run_plan *p = NULL;
    struct pb_err err = {0};
    assert_int_equal(pb_run_plan_load(PB_FIXTURES_DIR
                                      "/../examples/ashift-recordsize.ini",
                                      &p, &err),
                     PB_OK);
    assert_int_equal(pb_run_plan_scale(p, 0.05, &err), PB_OK);
    assert_string_equal(pb_run_value(p, PB_RUN_FIO, 0, "size"), "3m");
    assert_string_equal(pb_run_value(p, PB_RUN_FIO, 0, "runtime"), "2");
    assert_int_equal(p->repeats, 1);
    assert_near(p->time_scale, 0.05, 0);
    assert_int_equal(pb_run_plan_scale(p, 0, &err), PB_EUSAGE);
    assert_int_equal(pb_run_plan_scale(p, 1.5, &err), PB_EUSAGE);
    pb_run_plan_free(p);

    /* sizes stay at least the block size; zvols at least 16M */
    p = plan_of("[plan]\nkind = zvol\nvdevs = file:/nonexistent/z.img:1G\n"
                "repeats = 3\n[zvol]\nsize = 100m\n"
                "[fio]\nbs = 4k, 2m\nsize = 40m\nruntime = 1m\n");
    pb_err_clear(&err);
    assert_int_equal(pb_run_plan_scale(p, 0.01, &err), PB_OK);
    assert_string_equal(pb_run_value(p, PB_RUN_FIO, 0, "size"), "2m");
    assert_string_equal(pb_run_value(p, PB_RUN_FIO, 0, "runtime"), "1");
    assert_string_equal(pb_run_value(p, PB_RUN_DATA, 0, "size"), "16m");
    assert_int_equal(p->repeats, 1);
    pb_run_plan_free(p);
}

/* The facts a plan gets on a ZFS: the time scale, and fio's sync= where
 * the ZFS has no `sync` property (none where it has). */
static void test_plan_facts(void **state)
{
    (void)state;
    struct pb_run_plan *p = plan_of("[plan]\nvdevs = file:/nonexistent/f."
                                    "img:1G\n[fio]\nrw = randwrite\n"
                                    "sync = 1\nsize = 64m\nruntime = 30\n");
    struct pb_err err = {0};
    assert_int_equal(pb_run_plan_scale(p, 0.1, &err), PB_OK);
    struct pb_run_caps fuse, ozfs;
    probe(FUSE, PB_RUN_IMPL_ZFS_FUSE, &fuse);
    probe(OZFS, PB_RUN_IMPL_OPENZFS, &ozfs);
    struct pb_resultset *set = pb_resultset_new();
    pb_run_plan_facts(p, &fuse, set);
    assert_int_equal(set->nfacts, 2);
    assert_string_equal(set->facts[0].key, "run_time_scale");
    assert_string_equal(set->facts[0].value, "0.1 (fio runtimes, sizes and "
                                             "repeats scaled down: a smoke "
                                             "run)");
    assert_string_equal(set->facts[1].key, "zfs_sync");
    assert_string_equal(set->facts[1].value,
                        "zfs-fuse (pool version 23) has no sync property: "
                        "synchronous writes come from fio sync=1 (O_SYNC), "
                        "not from the dataset");
    pb_resultset_free(set);
    set = pb_resultset_new();
    pb_run_plan_facts(p, &ozfs, set);
    assert_int_equal(set->nfacts, 1);
    pb_resultset_free(set);
    pb_run_caps_release(&fuse);
    pb_run_caps_release(&ozfs);
    pb_run_plan_free(p);
    /* the pool watch: a folder that is no mount of a full pool */
    struct pb_err why = {0};
    assert_int_equal(pb_run_pool_nearly_full("/nonexistent/mnt", "p", &why), 0);
    assert_string_equal(why.msg, "");
}

/* A dataset's sync=always on a ZFS without the `sync` property: the
 * preflight lets it run (sync=disabled cannot be had and is left), fio
 * sync=1 stands in (not when [fio] sets sync itself, not on OpenZFS), and
 * the fact zfs_sync says so. */
static void test_sync_fallback(void **state)
{
    (void)state;
    struct pb_run_plan *p = plan_of("[plan]\nvdevs = file:/nonexistent/f."
                                    "img:1G\n[dataset]\nsync = always, "
                                    "standard\n[fio]\nrw = randwrite\n"
                                    "size = 64m\nruntime = 30\n");
    struct pb_run_caps fuse, ozfs;
    probe(FUSE, PB_RUN_IMPL_ZFS_FUSE, &fuse);
    probe(OZFS, PB_RUN_IMPL_OPENZFS, &ozfs);
    assert_int_equal(pb_run_caps_lacks(&fuse, "sync"), 1);
    assert_int_equal(pb_run_caps_lacks(&ozfs, "sync"), 0);
    assert_int_equal(pb_run_caps_lacks(&fuse, "recordsize"), 0);
    struct pb_run_cell c0, c1;
    pb_run_cell_at(p, 0, &c0);
    pb_run_cell_at(p, 1, &c1);
    assert_int_equal(pb_run_sync_emulated(p, &c0, 1), 1);  /* always */
    assert_int_equal(pb_run_sync_emulated(p, &c1, 1), 0);  /* standard */
    assert_int_equal(pb_run_sync_emulated(p, &c0, 0), 0);  /* OpenZFS */
    struct pb_run_exec x = {.dry_run = 1};
    struct pb_run_pre pre;
    struct pb_err err = {0};
    assert_int_equal(pb_run_preflight(p, &fuse, &x, 0, &pre, &err), PB_OK);
    assert_null(pre.why[PB_RUN_DATA] ? pre.why[PB_RUN_DATA][0] : NULL);
    assert_null(pre.why[PB_RUN_DATA] ? pre.why[PB_RUN_DATA][1] : NULL);
    pb_run_pre_release(&pre);
    struct pb_resultset *set = pb_resultset_new();
    pb_run_plan_facts(p, &fuse, set);
    assert_int_equal(set->nfacts, 1);
    assert_string_equal(set->facts[0].key, "zfs_sync");
    assert_string_equal(set->facts[0].value,
                        "zfs-fuse (pool version 23) has no sync property: "
                        "the dataset's sync=always comes from fio sync=1 "
                        "(O_SYNC: every write through the ZIL), unless "
                        "[fio] sets sync itself; sync=standard is left out");
    pb_resultset_free(set);
    pb_run_plan_free(p);
    /* [fio] sync given: the plan's own value, no second sync= */
    p = plan_of("[plan]\nvdevs = file:/nonexistent/f.img:1G\n[dataset]\n"
                "sync = always\n[fio]\nsync = 0\nsize = 64m\n");
    pb_run_cell_at(p, 0, &c0);
    assert_int_equal(pb_run_sync_emulated(p, &c0, 1), 0);
    pb_run_plan_free(p);
    /* sync=disabled cannot be had without the property: skipped */
    p = plan_of("[plan]\nvdevs = file:/nonexistent/f.img:1G\n"
                "on_unsupported = skip\n[dataset]\nsync = disabled\n"
                "[fio]\nsize = 64m\n");
    assert_int_equal(pb_run_preflight(p, &fuse, &x, 0, &pre, &err), PB_OK);
    assert_non_null(pre.why[PB_RUN_DATA]);
    assert_non_null(pre.why[PB_RUN_DATA][0]);
    assert_string_equal(pre.why[PB_RUN_DATA][0],
                        "sync=disabled: zfs-fuse (pool version 23) has no "
                        "property 'sync'");
    pb_run_pre_release(&pre);
    pb_run_plan_free(p);
    pb_run_caps_release(&fuse);
    pb_run_caps_release(&ozfs);
}

static void test_loop_vdevs(void **state)
{
    (void)state;
    struct pb_run_plan *p = plan_of(
        "[plan]\nvdevs = loop:/var/tmp/pb-l0.img:128M file:/var/tmp/f.img:"
        "128M\ncache_vdevs = loop:/var/tmp/pb-c.img:64M\n"
        "[pool]\ncache = on\n[fio]\nsize = 8m\n");
    assert_int_equal(p->data.n, 2);
    assert_string_equal(p->data.v[0].path, "/var/tmp/pb-l0.img");
    assert_true(p->data.v[0].is_file && p->data.v[0].loop);
    assert_true(p->data.v[1].is_file && !p->data.v[1].loop);
    assert_near(p->data.v[0].size, 128 * MIB, 0);
    assert_true(p->cache.v[0].loop);
    pb_run_plan_free(p);
    struct pb_err err = {0};
    p = NULL;
    assert_int_equal(pb_run_plan_parse("/p.ini", "[plan]\nvdevs = loop:rel."
                                       "img:128M\n[fio]\nsize = 8m\n", &p,
                                       &err),
                     PB_EUSAGE);
    assert_string_equal(err.msg, "'vdevs': vdev path 'rel.img' must be "
                                 "absolute");
}

/* Issue 40 item 13: a plan cannot allow itself to run commands. [plan]
 * allow_exec = yes is refused with a hint naming --allow-exec; without
 * that option exec_prerun is refused (in a dry run too); with it, each
 * command the plan runs is listed before anything runs (on the progress
 * stream and in the listing). */
static void test_allow_exec(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_run_plan *p = NULL;
    assert_int_equal(pb_run_plan_parse("/plans/p.ini",
                                       "[plan]\nallow_exec = yes\n"
                                       "vdevs = file:/tmp/x0.img:128M\n"
                                       "[fio]\nsize = 4m\n",
                                       &p, &err),
                     PB_EUSAGE);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "allow_exec = yes: a plan cannot allow "
                                 "itself to run commands; the person "
                                 "running it gives --allow-exec (after "
                                 "reading them in --dry-run)");
    p = plan_of("[plan]\nallow_exec = no\npool = pbrnaexec\n"
                "vdevs = file:/tmp/pb-unit-exec-x0.img:128M\n"
                "[fio]\nrw = read\nsize = 4m\nexec_prerun = echo hi\n"
                "ioengine = psync, external:/tmp/x.so\n");
    char *out = NULL, *prog = NULL;
    size_t on = 0, pn = 0;
    FILE *fo = open_memstream(&out, &on), *fp = open_memstream(&prog, &pn);
    struct pb_run_opts o = {0};
    o.dry_run = 1;
    o.dir = "/tmp/pb-unit-exec-out";
    o.out = fo;
    o.progress = fp;
    o.run_id = "unit-x";
    o.impl = PB_RUN_IMPL_ZFS_FUSE;
    o.caps_dir = FUSE;
    struct pb_run_summary sum;
    pb_err_clear(&err);
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_EUSAGE);
    assert_int_equal(err.line, 8);
    assert_string_equal(err.msg, "fio option 'exec_prerun' runs a command "
                                 "through a shell as root; a plan cannot "
                                 "allow that itself: read it in --dry-run, "
                                 "then give the run --allow-exec");
    fflush(fo);
    assert_int_equal(on, 0); /* refused before any line */
    o.allow_exec = 1;
    pb_err_clear(&err);
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_OK);
    fclose(fo);
    fclose(fp);
    const char *w1 = "/plans/p.ini:8: exec_prerun=echo hi is a command fio "
                     "runs through a shell as root, allowed by --allow-exec";
    const char *w2 = "/plans/p.ini:9: ioengine=external:/tmp/x.so loads "
                     "code as root, allowed by --allow-exec";
    /* listed, and said on the progress stream */
    char *line = pb_xasprintf("poolbench: warning: %s\npoolbench: warning: "
                              "%s\n", w1, w2);
    assert_string_equal(prog, line);
    free(line);
    line = pb_xasprintf("# warning: %s\n# warning: %s\n", w1, w2);
    assert_non_null(strstr(out, line));
    free(line);
    assert_non_null(strstr(out, "'--exec_prerun=echo hi'"));
    free(out);
    free(prog);
    pb_run_plan_free(p);
}

static void test_timeouts(void **state)
{
    (void)state;
    struct pb_run_exec x = {0};
    const char *get[] = {"zpool", "get", "all", "p", NULL};
    const char *exp[] = {"zpool", "export", "p", NULL};
    const char *fio[] = {"fio", "--name=x", NULL};
    assert_near(pb_run_cmd_timeout(&x, get), PB_RUN_QUERY_TIMEOUT, 0);
    assert_near(pb_run_cmd_timeout(&x, exp), PB_RUN_ADMIN_TIMEOUT, 0);
    assert_near(pb_run_cmd_timeout(&x, fio), 600, 0);
    x.query_timeout = 2;
    x.admin_timeout = 20;
    assert_near(pb_run_cmd_timeout(&x, get), 2, 0);
    assert_near(pb_run_cmd_timeout(&x, exp), 20, 0);

    /* a command that hangs is killed after its timeout, with its whole
     * process group (a shell's sleeping child too), and says so */
    char dir[] = "/tmp/pb-unit-hang.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char zpool[64], path[4200];
    snprintf(zpool, sizeof(zpool), "%s/zpool", dir);
    FILE *fp = fopen(zpool, "w");
    assert_non_null(fp);
    fputs("#!/bin/sh\nsleep 30\n", fp);
    fclose(fp);
    assert_int_equal(chmod(zpool, 0755), 0);
    const char *old = getenv("PATH");
    snprintf(path, sizeof(path), "%s:%s", dir, old ? old : "/usr/bin:/bin");
    char *saved = pb_xstrdup(old ? old : "");
    setenv("PATH", path, 1);
    x.query_timeout = 1;
    struct pb_run_res res = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = pb_run_cmd(&x, get, PB_RUN_CAPTURE, &res);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    setenv("PATH", saved, 1);
    free(saved);
    double secs = (double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_int_equal(rc, 128 + 9);
    assert_int_equal(res.timed_out, 1);
    assert_true(secs >= 1 && secs < 5);
    char why[200];
    assert_string_equal(pb_run_res_why(&res, why, sizeof(why)),
                        "did not finish in 1 s and was killed");
    pb_run_res_release(&res);
    unlink(zpool);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_fuse),
        cmocka_unit_test(test_tables_openzfs),
        cmocka_unit_test(test_tables_openzfs_23),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_fio_help),
        cmocka_unit_test(test_alloc_factor),
        cmocka_unit_test(test_space),
        cmocka_unit_test(test_preflight_sync),
        cmocka_unit_test(test_time_scale),
        cmocka_unit_test(test_plan_facts),
        cmocka_unit_test(test_sync_fallback),
        cmocka_unit_test(test_loop_vdevs),
        cmocka_unit_test(test_allow_exec),
        cmocka_unit_test(test_timeouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
