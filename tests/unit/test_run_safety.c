/* Unit tests for the run module's guards on what a plan names (issue 20,
 * item 13): cell counts that would wrap, vdev sizes past the free space of
 * their file system, and vdev paths that name one file in two ways. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "run/run.h"
#include "run/run_int.h"

static int parse(const char *text, struct pb_run_plan **p, struct pb_err *err)
{
    memset(err, 0, sizeof(*err));
    *p = NULL;
    return pb_run_plan_parse("/plans/s.ini", text, p, err);
}

/* 16 axes of 16 values: 2^64 cells, which a size_t product wraps to 0. */
static void test_cells_overflow(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "[plan]\nvdevs = file:/tmp/pb-unit-none/d0.img:128M\n"
                    "[fio]\nsize = 8m\n[dataset]\n");
    static const char *const keys[] = {
        "atime", "checksum", "compression", "copies", "dedup", "dnodesize",
        "exec", "logbias", "normalization", "primarycache", "quota",
        "readonly", "redundant_metadata", "relatime", "setuid", "xattr"};
    for (int i = 0; i < 16; i++) {
        pb_buf_printf(&b, "%s = ", keys[i]);
        for (int v = 0; v < 16; v++)
            pb_buf_printf(&b, "%sv%d", v ? "," : "", v);
        pb_buf_puts(&b, "\n");
    }
    struct pb_err err;
    struct pb_run_plan *p;
    assert_int_equal(parse(pb_buf_str(&b), &p, &err), PB_EUSAGE);
    assert_null(p);
    if (err.line != 10)
        print_error("got %ld: %s\n", err.line, err.msg);
    assert_string_equal(err.path, "/plans/s.ini");
    /* 16^5 passes 100000 at the 5th axis, on line 10 */
    assert_int_equal(err.line, 10);
    assert_string_equal(err.msg, "the plan has 18446744073709551616 cells; "
                                 "at most 100000");
    pb_buf_release(&b);
}

static void test_canon_paths(void **state)
{
    (void)state;
    char out[PATH_MAX];
    pb_run_canon_path("//pb-unit-none//./a/../x.img", out, sizeof(out));
    assert_string_equal(out, "/pb-unit-none/x.img");
    pb_run_canon_path("/", out, sizeof(out));
    assert_string_equal(out, "/");
    pb_run_canon_path("//x", out, sizeof(out));
    assert_string_equal(out, "/x");

    /* a folder reached through a symlink is the folder itself */
    char dir[] = "/tmp/pb-unit-safety-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char real[PATH_MAX], link[PATH_MAX + 8], want[PATH_MAX + 16];
    assert_non_null(realpath(dir, real));
    snprintf(link, sizeof(link), "%s.lnk", dir);
    assert_int_equal(symlink(dir, link), 0);
    char in[PATH_MAX + 16];
    snprintf(in, sizeof(in), "%s/d0.img", link);
    pb_run_canon_path(in, out, sizeof(out));
    snprintf(want, sizeof(want), "%s/d0.img", real);
    assert_string_equal(out, want);

    /* and so a plan naming it both ways lists one vdev twice */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "[plan]\nvdevs = file:%s/d0.img:128M\n"
                      "  file:%s//d0.img:128M\n[fio]\nsize = 8m\n",
                  dir, link);
    struct pb_err err;
    struct pb_run_plan *p;
    assert_int_equal(parse(pb_buf_str(&b), &p, &err), PB_EUSAGE);
    assert_int_equal(err.line, 2);
    char msg[PATH_MAX + 64];
    snprintf(msg, sizeof(msg), "vdev '%s' is listed twice", want);
    assert_string_equal(err.msg, msg);
    pb_buf_release(&b);

    /* '/x' and '//x' (no such folder: the lexical form) */
    assert_int_equal(parse("[plan]\nvdevs = file:/pb-unit-none/x:128M\n"
                           "log_vdevs = file://pb-unit-none/x:128M\n"
                           "[fio]\nsize = 8m\n",
                           &p, &err),
                     PB_EUSAGE);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "vdev '/pb-unit-none/x' is listed twice");
    unlink(link);
    rmdir(dir);
}

/* 1E of vdev files is refused before anything runs, naming the figures. */
static void test_space_cap(void **state)
{
    (void)state;
    char dir[] = "/tmp/pb-unit-space-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "[plan]\nvdevs = file:%s/d0.img:128M\n"
                      "  file:%s/d1.img:1E\n[fio]\nsize = 8m\n",
                  dir, dir);
    struct pb_err err;
    struct pb_run_plan *p;
    assert_int_equal(parse(pb_buf_str(&b), &p, &err), PB_OK);
    assert_near(p->data.v[1].size, 1152921504606846976.0, 0);
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_run_check_vdevs(p, 0, &err), PB_EUSAGE);
    assert_string_equal(err.path, "/plans/s.ini");
    assert_int_equal(err.line, 2);
    struct statvfs vfs;
    assert_int_equal(statvfs(real, &vfs), 0);
    char want[PATH_MAX + 200];
    snprintf(want, sizeof(want), "vdev files in '%s' need "
             "1152921504741064704 bytes (", real);
    if (strncmp(err.msg, want, strlen(want)))
        print_error("got '%s'\n", err.msg);
    assert_true(!strncmp(err.msg, want, strlen(want)));
    assert_non_null(strstr(err.msg, " free; make the vdevs smaller"));
    pb_run_plan_free(p);
    pb_buf_release(&b);

    /* 2 x 128M fits in /tmp: no refusal, nothing created */
    pb_buf_reset(&b);
    pb_buf_printf(&b, "[plan]\nvdevs = file:%s/d0.img:128M\n"
                      "  file:%s/d1.img:128M\n[fio]\nsize = 8m\n",
                  dir, dir);
    assert_int_equal(parse(pb_buf_str(&b), &p, &err), PB_OK);
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_run_check_vdevs(p, 0, &err), PB_OK);
    pb_run_plan_free(p);
    pb_buf_release(&b);
    assert_int_equal(rmdir(dir), 0);
}

/* Item 10: a vdev file is made new (an existing file, another run's live
 * vdev, is neither truncated nor later removed), and only the very file
 * made (device, inode) counts as ours. */
static void test_vdev_file_excl(void **state)
{
    (void)state;
    char dir[] = "/tmp/pb-unit-excl-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[PATH_MAX], moved[PATH_MAX + 8];
    snprintf(path, sizeof(path), "%s/d0.img", dir);
    snprintf(moved, sizeof(moved), "%s.old", path);
    struct pb_run_exec x = {0};
    struct pb_run_vdev v = {0};
    v.path = path;
    v.size = 64.0 * 1024 * 1024;
    v.is_file = 1;
    char why[200];

    /* someone's file of 5 bytes is there: refused, untouched */
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("keep\n", fp);
    fclose(fp);
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", why, sizeof(why)),
                     -1);
    assert_string_equal(why, "it exists now (another run's vdev?); left as "
                             "it is");
    assert_int_equal(v.made, 0);
    assert_int_equal(pb_run_vdev_file_ours(&v), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 5);

    /* a symlink planted at the path is not followed */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(symlink("/etc/hostname", path), 0);
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", why, sizeof(why)),
                     -1);
    assert_int_equal(v.made, 0);
    assert_int_equal(unlink(path), 0);

    /* made new: ours, of the size asked */
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", why, sizeof(why)),
                     0);
    assert_int_equal(v.made, 1);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 64 * 1024 * 1024);
    assert_int_equal(pb_run_vdev_file_ours(&v), 1);
    /* replaced by another file of the same name: not ours any more */
    assert_int_equal(rename(path, moved), 0);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(pb_run_vdev_file_ours(&v), 0);
    unlink(path);
    unlink(moved);
    assert_int_equal(rmdir(dir), 0);
}

/* Item 12: a cell's key follows its parameters, not its number. */
static void test_cell_key(void **state)
{
    (void)state;
    static const char base[] =
        "[plan]\nvdevs = file:/tmp/pb-unit-none/d0.img:128M\n"
        "[dataset]\nrecordsize = 8k, 128k\n[fio]\nsize = 8m\n";
    struct pb_buf b = PB_BUF_INIT;
    struct pb_err err;
    struct pb_run_plan *p1, *p2, *p3;
    pb_buf_printf(&b, "%sbs = 4k, 8k\n", base);
    assert_int_equal(parse(pb_buf_str(&b), &p1, &err), PB_OK);
    pb_buf_reset(&b);
    pb_buf_printf(&b, "%sbs = 4k, 64k\n", base);
    assert_int_equal(parse(pb_buf_str(&b), &p2, &err), PB_OK);
    pb_buf_reset(&b);
    pb_buf_printf(&b, "%sbs = 4k, 8k\n", base);
    pb_buf_puts(&b, "; a comment changes nothing\n");
    assert_int_equal(parse(pb_buf_str(&b), &p3, &err), PB_OK);
    char k1[17], k2[17], k3[17];
    for (size_t i = 0; i < 4; i++) {
        pb_run_cell_key(p1, i, k1);
        pb_run_cell_key(p2, i, k2);
        pb_run_cell_key(p3, i, k3);
        assert_int_equal(strlen(k1), 16);
        assert_string_equal(k1, k3);
        if (i % 2 == 0) /* bs=4k in both */
            assert_string_equal(k1, k2);
        else
            assert_string_not_equal(k1, k2);
    }
    /* four cells, four keys */
    char all[4][17];
    for (size_t i = 0; i < 4; i++)
        pb_run_cell_key(p1, i, all[i]);
    for (size_t i = 0; i < 4; i++)
        for (size_t j = i + 1; j < 4; j++)
            assert_string_not_equal(all[i], all[j]);
    pb_run_plan_free(p1);
    pb_run_plan_free(p2);
    pb_run_plan_free(p3);
    pb_buf_release(&b);
}

/* Item 14: the advice for a suspended pool works on the ZFS in use:
 * zfs-fuse can neither clear nor destroy it, so no 'zpool clear' there. */
static void test_suspended_advice(void **state)
{
    (void)state;
    char buf[1024];
    pb_run_suspended_advice(PB_RUN_IMPL_ZFS_FUSE, "pbr20p", "r-1",
                            "/var/tmp/out/mnt", buf, sizeof(buf));
    assert_null(strstr(buf, "zpool clear pbr20p"));
    assert_null(strstr(buf, "zpool destroy pbr20p"));
    assert_non_null(strstr(buf, "zfs-fuse can neither resume nor destroy "
                                "a suspended pool"));
    assert_non_null(strstr(buf, "stop the daemon with 'pkill -KILL -x "
                                "zfs-fuse'"));
    assert_non_null(strstr(buf, "'fusermount -uz MOUNTPOINT' for each "
                                "fuse.zfs line of /proc/mounts"));
    assert_non_null(strstr(buf, "then run 'poolbench run --cleanup r-1 -o "
                                "/var/tmp/out'"));
    pb_run_suspended_advice(PB_RUN_IMPL_OPENZFS, "pbr20p", "r-1",
                            "/var/tmp/out/mnt", buf, sizeof(buf));
    assert_string_equal(buf, "pool 'pbr20p' has suspended its I/O (an I/O "
                        "error, or it ran out of space); poolbench leaves it "
                        "and its vdevs as they are: see 'zpool status "
                        "pbr20p', make room on the file system of the vdev "
                        "files (or fix the device), run 'zpool clear "
                        "pbr20p', then 'poolbench run --cleanup r-1 -o "
                        "/var/tmp/out'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells_overflow),
        cmocka_unit_test(test_canon_paths),
        cmocka_unit_test(test_space_cap),
        cmocka_unit_test(test_vdev_file_excl),
        cmocka_unit_test(test_cell_key),
        cmocka_unit_test(test_suspended_advice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
