/* Unit tests for run/: the exact command list of a dry run (which must
 * create nothing) on zfs-fuse and OpenZFS, options without effect, zvols,
 * refusals, and the dry run of --cleanup. Plan parsing: test_run_plan.c.
 * No root and no ZFS needed. */
#define _GNU_SOURCE
#include "tests/unit/run_help.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== dry run ==== */

static char *dry_run(const char *plan_text, enum pb_run_impl impl,
                     const char *dir, int *rc)
{
    struct pb_run_opts o = {0};
    o.dir = dir;
    o.run_id = "unit-1";
    o.impl = impl;
    o.caps_dir = impl == PB_RUN_IMPL_ZFS_FUSE ? CAPS_DIR "/zfs-fuse"
                                              : CAPS_DIR "/openzfs-2.1";
    struct pb_err err = {0};
    char *out = rh_dry_run(plan_text, o, rc, &err);
    if (*rc)
        print_error("dry run: %s\n", err.msg);
    return out;
}

static const char dry_plan[] =
    "[plan]\n"
    "name = unit\n"
    "pool = pbunit\n"
    "vdevs = file:/tmp/pb-unit-run-d0.img:128M "
    "file:/tmp/pb-unit-run-d1.img:128M\n"
    "log_vdevs = file:/tmp/pb-unit-run-l0.img:64M\n"
    "repeats = 2\n"
    "on_unsupported = skip\n"
    "[pool]\n"
    "layout = mirror\n"
    "log = none, on\n"
    "[dataset]\n"
    "recordsize = 8k\n"
    "compression = gzip, lz4\n"
    "[fio]\n"
    "rw = randwrite\n"
    "size = 8m\n"
    "runtime = 1\n";

#define OUT "/tmp/pb-unit-run-out"
#define OWN "zfs get -H -o value poolbench:owner pbunit\n"
#define CELL(n, log, zc)                                                     \
    OWN                                                                      \
    "zfs create -o recordsize=8k -o compression=" zc " pbunit/pb\n"          \
    REP(n, 1) REP(n, 2)                                                      \
    "sync\n# settle: export/import so that zfs get sees the data on disk\n" \
    OWN "zpool export pbunit\n"                                              \
    "zpool import -d /tmp pbunit\n"                                          \
    "zfs get -Hp all pbunit/pb\n"                                            \
    "zpool get all pbunit\n"                                                 \
    "zpool status pbunit\n" OWN "zfs destroy pbunit/pb\n"
#define FIO "fio --name=poolbench --directory=" OUT "/mnt/pb --rw=randwrite " \
            "--size=8m --runtime=1"
#define REP(n, r)                                                            \
    FIO " --create_only=1 --output-format=json\n"                            \
    "sync\n"                                                                 \
    "# echo 3 > /proc/sys/vm/drop_caches\n" OWN                              \
    "zpool export pbunit\n"                                                  \
    "zpool import -d /tmp pbunit\n"                                          \
    "zfs get -Hp -o property,value used,referenced,compressratio "           \
    "pbunit/pb\n"                                                            \
    "# in the background while fio runs: zpool iostat -v pbunit 1 > " OUT   \
    "/raw/c00" #n "-r" #r ".iostat.txt\n" FIO                                \
    " --group_reporting=1 --output-format=json --output=" OUT                \
    "/raw/c00" #n "-r" #r ".fio.json\n"

/* in two parts: one literal would pass C99's 4095-byte minimum */
static const char dry_want_fuse1[] =
    "# preflight: zfs-fuse (pool version 23); 53 dataset and 18 pool "
    "properties known\n"
    "# poolbench run /plans/t.ini: plan 'unit', 4 cells x 2 repeats, pool "
    "'pbunit', zfs-fuse, run id unit-1, on_failure = continue\n"
    "zpool list -H -o name\n"
    "zpool upgrade -v\n"
    "truncate -s 128M /tmp/pb-unit-run-d0.img\n"
    "truncate -s 128M /tmp/pb-unit-run-d1.img\n"
    "zpool create -O poolbench:owner=unit-1 -m " OUT "/mnt pbunit mirror "
    "/tmp/pb-unit-run-d0.img /tmp/pb-unit-run-d1.img\n"
    "zdb -C pbunit\n"
    "# cell 1/4: log=none compression=gzip | fio randwrite bs=4k iodepth=1\n"
    CELL(1, none, "gzip")
    "# skip cell 2/4 (log=none compression=lz4 | fio randwrite bs=4k "
    "iodepth=1): compression=lz4: zfs-fuse (pool version 23) does not take "
    "that value (compression: on | off | lzjb | gzip | gzip-[1-9] | zle)\n"
    OWN "zpool destroy pbunit\n"
    "rm -f /tmp/pb-unit-run-d0.img\n"
    "rm -f /tmp/pb-unit-run-d1.img\n"
    "truncate -s 128M /tmp/pb-unit-run-d0.img\n"
    "truncate -s 128M /tmp/pb-unit-run-d1.img\n"
    "truncate -s 64M /tmp/pb-unit-run-l0.img\n"
    "zpool create -O poolbench:owner=unit-1 -m " OUT "/mnt pbunit mirror "
    "/tmp/pb-unit-run-d0.img /tmp/pb-unit-run-d1.img log "
    "/tmp/pb-unit-run-l0.img\n"
    "zdb -C pbunit\n";
static const char dry_want_fuse2[] =
    "# cell 3/4: log=on compression=gzip | fio randwrite bs=4k iodepth=1\n"
    CELL(3, on, "gzip")
    "# skip cell 4/4 (log=on compression=lz4 | fio randwrite bs=4k "
    "iodepth=1): compression=lz4: zfs-fuse (pool version 23) does not take "
    "that value (compression: on | off | lzjb | gzip | gzip-[1-9] | zle)\n"
    OWN "zpool destroy pbunit\n"
    "rm -f /tmp/pb-unit-run-d0.img\n"
    "rm -f /tmp/pb-unit-run-d1.img\n"
    "rm -f /tmp/pb-unit-run-l0.img\n"
    "# 4 cells, 2 would be skipped, 0 already in the database\n"
    /* 2 pools x 3 s + 2 cells x (2 s + 2 repeats x (1 s runtime + 5 s)) */
    "# estimated duration: 0:34\n";
static char dry_want_fuse[sizeof(dry_want_fuse1) + sizeof(dry_want_fuse2)];

static void test_dry_run_exact(void **state)
{
    (void)state;
    if (access("/tmp/pb-unit-run-d0.img", F_OK) == 0 ||
        access(OUT, F_OK) == 0) {
        print_message("skipping: leftovers of another run in /tmp\n");
        skip();
    }
    int rc;
    snprintf(dry_want_fuse, sizeof(dry_want_fuse), "%s%s", dry_want_fuse1,
             dry_want_fuse2);
    char *out = dry_run(dry_plan, PB_RUN_IMPL_ZFS_FUSE, OUT, &rc);
    assert_int_equal(rc, PB_OK);
    if (strcmp(out, dry_want_fuse))
        print_error("got:\n%s\n", out);
    assert_string_equal(out, dry_want_fuse);
    free(out);
    /* a dry run creates nothing: no folder, no sparse file */
    assert_int_not_equal(access(OUT, F_OK), 0);
    assert_int_not_equal(access("/tmp/pb-unit-run-d0.img", F_OK), 0);
    assert_int_not_equal(access("/tmp/pb-unit-run-l0.img", F_OK), 0);

    /* OpenZFS runs lz4, and asks `zfs version` */
    out = dry_run(dry_plan, PB_RUN_IMPL_OPENZFS, OUT, &rc);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "\nzfs version\n"));
    assert_null(strstr(out, "# skip"));
    assert_non_null(strstr(out, "zfs create -o recordsize=8k -o "
                                "compression=lz4 pbunit/pb\n"));
    assert_non_null(strstr(out, "# 4 cells, 0 would be skipped"));
    free(out);

    /* on_failure = stop is shown, and cells that cannot run on zfs-fuse
     * are skips, not failures: the listing is the same to the end */
    char *plan = pb_xasprintf("[plan]\non_failure = stop\n%s",
                              dry_plan + strlen("[plan]\n"));
    out = dry_run(plan, PB_RUN_IMPL_ZFS_FUSE, OUT, &rc);
    assert_int_equal(rc, PB_OK);
    const char *nl = strchr(strstr(dry_want_fuse, "continue\n"), '\n');
    assert_non_null(nl);
    char *want = pb_xasprintf("%.*sstop%s",
                              (int)(strstr(dry_want_fuse, "continue\n") -
                                    dry_want_fuse),
                              dry_want_fuse, nl);
    if (strcmp(out, want))
        print_error("got:\n%s\n", out);
    assert_string_equal(out, want);
    free(want);
    free(out);
    free(plan);
}

/* fio options that do nothing for a workload are named by the
 * preflight, once per option and value, and the plan still runs. */
static void test_dry_run_inert_options(void **state)
{
    (void)state;
    int rc;
    char *out = dry_run("[plan]\npool = pbi\n"
                        "vdevs = file:/tmp/pb-unit-run-i0.img:256M\n"
                        "[fio]\nrw = randread, randwrite, randrw\n"
                        "bs = 4k\nsize = 8m\nfsync = 1\nrwmixread = 70\n"
                        "end_fsync = 0\n",
                        PB_RUN_IMPL_ZFS_FUSE, OUT, &rc);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "# preflight: warning: /plans/t.ini:8: "
                                "fsync=1 does not apply to rw=randread (it "
                                "writes nothing): fio ignores it\n"));
    assert_non_null(strstr(out, "rwmixread=70 does not apply to "
                                "rw=randwrite (it does not mix reads and "
                                "writes)"));
    assert_non_null(strstr(out, "rwmixread=70 does not apply to "
                                "rw=randread (it does not mix"));
    /* randrw mixes and writes: nothing said of it; a 0 says nothing */
    assert_null(strstr(out, "does not apply to rw=randrw"));
    assert_null(strstr(out, "end_fsync=0 does not apply"));
    assert_null(strstr(out, "fsync=1 does not apply to rw=randwrite"));
    const char *first = strstr(out, "fsync=1 does not apply");
    assert_null(strstr(first + 1, "fsync=1 does not apply"));
    free(out);
}

/* zvols: the probe, the device wait, the layout pass on the device. */
static void test_dry_run_zvol(void **state)
{
    (void)state;
    int rc;
    char *out = dry_run("[plan]\npool = pbz\n"
                        "vdevs = file:/tmp/pb-unit-run-z0.img:1G\n"
                        "[zvol]\nsize = 512M\nvolblocksize = 16k\n"
                        "[fio]\nrw = randread\nbs = 16k\n"
                        "buffer_compress_percentage = 50\n",
                        PB_RUN_IMPL_OPENZFS, OUT, &rc);
    assert_int_equal(rc, PB_OK);
    static const char *const lines[] = {
        "zfs create -V 4M pbz/pbprobe\n",
        "# wait until /dev/zvol/pbz/pbprobe appears\n",
        "zfs destroy pbz/pbprobe\n",
        "zfs create -V 512M -o volblocksize=16k pbz/pbvol\n",
        "fio --name=layout --filename=/dev/zvol/pbz/pbvol --rw=write --bs=1M "
        "--buffer_compress_percentage=50 --output-format=json\n",
        "zpool import -d /tmp pbz\n# wait until /dev/zvol/pbz/pbvol appears\n",
        "fio --name=poolbench --filename=/dev/zvol/pbz/pbvol --rw=randread "
        "--bs=16k --buffer_compress_percentage=50 --group_reporting=1 "
        "--output-format=json --output=" OUT "/raw/c001.fio.json\n",
        "zfs get -Hp all pbz/pbvol\n",
    };
    const char *at = out;
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        const char *hit = strstr(at, lines[i]);
        if (!hit)
            print_error("missing in order: %s\nin:\n%s\n", lines[i], out);
        assert_non_null(hit);
        at = hit;
    }
    free(out);
}

/* Refusals happen before any command: real devices without --yes, vdev
 * files that exist. */
static void test_refusals(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok("[plan]\nvdevs = /dev/null-pb-unit\n"
                                     "[fio]\nsize=8m\n");
    struct pb_run_opts o = {0};
    o.dry_run = 1;
    o.out = stdout;
    struct pb_run_summary sum;
    struct pb_err err = {0};
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_EUSAGE);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "'/dev/null-pb-unit' is a real device and "
                                 "its contents will be destroyed; add --yes "
                                 "to allow it");
    o.yes = 1;
    pb_err_clear(&err);
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_EUSAGE);
    assert_string_equal(err.msg, "device '/dev/null-pb-unit' does not exist");
    pb_run_plan_free(p);

    char path[64];
    snprintf(path, sizeof(path), "/tmp/pb_unit_vdev_%d.img", (int)getpid());
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fclose(fp);
    char *text = pb_xasprintf("[plan]\nvdevs = file:%s:64M\n[fio]\nsize=8m\n",
                              path);
    p = parse_ok(text);
    pb_err_clear(&err);
    o.yes = 0;
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_EUSAGE);
    char *want = pb_xasprintf("vdev file '%s' already exists; poolbench "
                              "creates and removes its sparse files itself "
                              "(remove it or choose another path)", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(access(path, F_OK), 0); /* left alone */
    unlink(path);
    free(want);
    free(text);
    pb_run_plan_free(p);

    p = parse_ok("[plan]\nvdevs = file:/nonexistent-pb/d0.img:64M\n"
                 "[fio]\nsize=8m\n");
    pb_err_clear(&err);
    assert_int_equal(pb_run_execute(p, &o, &sum, &err), PB_EUSAGE);
    assert_string_equal(err.msg, "folder '/nonexistent-pb' of vdev file "
                                 "'/nonexistent-pb/d0.img' does not exist");
    pb_run_plan_free(p);
}

/* ==== cleanup (--cleanup) ==== */

static void make_sparse(const char *path, off_t size)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(ftruncate(fileno(fp), size), 0);
    fclose(fp);
}

static char *cleanup_dry(const char *id, const char *dir, int *rc,
                         struct pb_err *err, char **warn)
{
    char *out = NULL, *w = NULL;
    size_t outlen = 0, wlen = 0;
    FILE *fp = open_memstream(&out, &outlen);
    FILE *wf = open_memstream(&w, &wlen);
    assert_non_null(fp);
    assert_non_null(wf);
    struct pb_run_cleanup_opts o = {0};
    o.run_id = id;
    o.dir = dir;
    o.dry_run = 1;
    o.out = fp;
    o.progress = wf;
    pb_err_clear(err);
    *rc = pb_run_cleanup(&o, err);
    fclose(fp);
    fclose(wf);
    if (warn)
        *warn = w;
    else
        free(w);
    return out;
}

/* The manifest a run writes, and the exact command list of a dry-run
 * cleanup: the marked pool is destroyed after its mark is read back, and
 * only the files that are still the ones the run made are removed. */
static void test_cleanup_dry_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/pb-unit-clean-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char f0[80], f1[80], f2[80], f3[80], f4[80], f5[80];
    snprintf(f0, sizeof(f0), "%s/d0.img", dir); /* left: to remove */
    snprintf(f1, sizeof(f1), "%s/d1.img", dir); /* removed by the run */
    snprintf(f2, sizeof(f2), "%s/d2.img", dir); /* replaced since */
    snprintf(f3, sizeof(f3), "%s/d3.img", dir); /* gone */
    snprintf(f4, sizeof(f4), "%s/o0.img", dir); /* another run's, gone */
    snprintf(f5, sizeof(f5), "%s/d5.img", dir); /* resized since */
    make_sparse(f0, 64 << 20);
    make_sparse(f1, 64 << 20);
    make_sparse(f2, 64 << 20);
    make_sparse(f3, 64 << 20);
    make_sparse(f4, 64 << 20);
    make_sparse(f5, 64 << 20);
    struct statx sx;
    if (statx(AT_FDCWD, f0, 0, STATX_BTIME, &sx) != 0 ||
        !(sx.stx_mask & STATX_BTIME)) {
        /* a file put in place of a removed one may get its inode number,
         * and only the birth time tells them apart */
        print_message("skipping: no birth times on the file system of "
                      "/tmp\n");
        const char *all[] = {f0, f1, f2, f3, f4, f5};
        for (size_t i = 0; i < 6; i++)
            unlink(all[i]);
        rmdir(dir);
        skip();
    }

    /* what a run writes */
    FILE *m = NULL;
    struct pb_err err = {0};
    assert_int_equal(pb_run_manifest_open(dir, &m, &err), PB_OK);
    FILE *m2 = NULL; /* a second run in the same folder is refused */
    assert_int_equal(pb_run_manifest_open(dir, &m2, &err), PB_ERUN);
    assert_null(m2);
    assert_non_null(strstr(err.msg, "another poolbench run"));
    pb_run_manifest_add(m, "run", "unit-8", "pbclean");
    pb_run_manifest_file(m, "unit-8", f4);
    pb_run_manifest_add(m, "pool", "unit-8", "pbclean");
    pb_run_manifest_add(m, "destroyed", "unit-8", "pbclean");
    pb_run_manifest_add(m, "gone", "unit-8", f4);
    pb_run_manifest_add(m, "run", "unit-9", "pbclean");
    pb_run_manifest_file(m, "unit-9", f0);
    pb_run_manifest_file(m, "unit-9", f1);
    pb_run_manifest_file(m, "unit-9", f2);
    pb_run_manifest_file(m, "unit-9", f3);
    pb_run_manifest_file(m, "unit-9", f5);
    pb_run_manifest_add(m, "pool", "unit-9", "pbclean");
    pb_run_manifest_add(m, "gone", "unit-9", f1);
    fputs("file\tunit-9\tnot-a-number\t1\t2\t-\t/etc/passwd\n", m);
    fputs("file\tunit-7\t1\t2\t3\t-\t/etc/passwd\n", m); /* no run */
    fclose(m);
    unlink(f2);
    make_sparse(f2, 64 << 20); /* same name and size, another file */
    unlink(f3);
    unlink(f4);
    make_sparse(f5, 128 << 20); /* the same file, made larger */

    char id[64] = "";
    assert_int_equal(pb_run_manifest_left(dir, f0, id, sizeof(id)), 1);
    assert_string_equal(id, "unit-9");
    assert_int_equal(pb_run_manifest_left(dir, f1, id, sizeof(id)), 0);
    assert_int_equal(pb_run_manifest_left(dir, f2, id, sizeof(id)), 0);

    int rc;
    char *warn;
    char *out = cleanup_dry("unit-9", dir, &rc, &err, &warn);
    assert_int_equal(rc, PB_OK);
    char *want = pb_xasprintf(
        "zpool list -H -o name\n"
        "zfs get -H -o name,value -s local poolbench:owner\n"
        "# cleanup of run unit-9: pool 'pbclean', %s/manifest.tsv\n"
        "# if pool 'pbclean' is not imported: zpool import -d %s pbclean\n"
        "zfs get -H -o value poolbench:owner pbclean\n"
        "zpool destroy pbclean\n"
        "zpool status\n"
        "rm -f %s\n"
        "# kept %s: another file has its name now (device, inode or birth "
        "time differs)\n"
        "# %s is already gone\n"
        "# kept %s: its size is not the one the run gave it\n",
        dir, dir, f0, f2, f3, f5);
    if (strcmp(out, want))
        print_error("got:\n%s\n", out);
    assert_string_equal(out, want);
    free(want);
    free(out);
    /* both bad lines are reported and ignored */
    want = pb_xasprintf("poolbench: %s/manifest.tsv:15: not a manifest "
                        "record (ignored)\npoolbench: %s/manifest.tsv:16: "
                        "not a manifest record (ignored)\n", dir, dir);
    assert_string_equal(warn, want);
    free(want);
    free(warn);
    /* a dry run ran nothing: every file is still there, no log written */
    assert_int_equal(access(f0, F_OK), 0);
    assert_int_equal(access(f1, F_OK), 0);
    char log[120];
    snprintf(log, sizeof(log), "%s/commands.log", dir);
    assert_int_not_equal(access(log, F_OK), 0);

    /* no run id: every run of the manifest; unit-8 has nothing left */
    out = cleanup_dry(NULL, dir, &rc, &err, NULL);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "# cleanup of run unit-8: pool 'pbclean'"));
    assert_non_null(strstr(out, "# cleanup of run unit-9: pool 'pbclean'"));
    assert_null(strstr(out, "o0.img"));
    free(out);

    /* a run the manifest does not know */
    out = cleanup_dry("unit-1", dir, &rc, &err, NULL);
    assert_int_equal(rc, PB_EUSAGE);
    assert_string_equal(err.msg, "no run 'unit-1' in it (it has: unit-8, "
                                 "unit-9)");
    assert_string_equal(out, "");
    free(out);

    /* a manifest others may write is not trusted to say what to remove */
    char mp[120];
    snprintf(mp, sizeof(mp), "%s/manifest.tsv", dir);
    assert_int_equal(chmod(mp, 0666), 0);
    out = cleanup_dry("unit-9", dir, &rc, &err, NULL);
    assert_int_equal(rc, PB_EUSAGE);
    assert_non_null(strstr(err.msg, "not trusted"));
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(pb_run_manifest_left(dir, f0, id, sizeof(id)), 0);
    unlink(mp);

    /* no manifest at all */
    out = cleanup_dry(NULL, dir, &rc, &err, NULL);
    assert_int_equal(rc, PB_EUSAGE);
    assert_non_null(strstr(err.msg, "the -o folder of a poolbench run"));
    free(out);

    /* a run id only: the pools are found by their mark */
    out = cleanup_dry("unit-9", NULL, &rc, &err, NULL);
    assert_int_equal(rc, PB_OK);
    assert_string_equal(out,
                        "zpool list -H -o name\n"
                        "zfs get -H -o name,value -s local poolbench:owner\n"
                        "# cleanup of run unit-9: every pool with "
                        "poolbench:owner=unit-9 (from the 'zfs get' above), "
                        "and its file vdevs\n");
    free(out);

    unlink(f0);
    unlink(f1);
    unlink(f2);
    unlink(f5);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dry_run_exact),
        cmocka_unit_test(test_dry_run_inert_options),
        cmocka_unit_test(test_dry_run_zvol),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cleanup_dry_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
