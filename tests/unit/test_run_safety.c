/* Unit tests for the run module's guards on what a plan names (issue 20,
 * item 13): cell counts that would wrap, vdev sizes past the free space of
 * their file system, and vdev paths that name one file in two ways; vdev
 * folders checked where they really are when a file is made, holders of
 * real devices read from recorded /sys trees, and the suspended-pool watch
 * on a real full file system (issue 40, items 11, 12). */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
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
    struct pb_err why = {0};

    /* someone's file of 5 bytes is there: refused, untouched */
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("keep\n", fp);
    fclose(fp);
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", &why), PB_ERUN);
    assert_string_equal(why.msg, "it exists now (another run's vdev?); left as "
                                 "it is");
    assert_int_equal(v.made, 0);
    assert_int_equal(pb_run_vdev_file_ours(&v), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 5);

    /* a symlink planted at the path is not followed */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(symlink("/etc/hostname", path), 0);
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", &why), PB_ERUN);
    assert_int_equal(v.made, 0);
    assert_int_equal(unlink(path), 0);

    /* made new: ours, of the size asked */
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", &why), PB_OK);
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

/* Issue 40 item 11: the folder a vdev file is made in is checked where it
 * really is when the file is made (through the opened folder), so a folder
 * swapped for a link into a system folder after the plan was checked gets
 * nothing. */
static void test_vdev_folder_swap(void **state)
{
    (void)state;
    char dir[] = "/tmp/pb-unit-swap-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[PATH_MAX], path[PATH_MAX + 32], victim[PATH_MAX];
    snprintf(sub, sizeof(sub), "%s/vd", dir);
    snprintf(path, sizeof(path), "%s/pb-unit-swap.img", sub);
    snprintf(victim, sizeof(victim), "/dev/shm/pb-unit-swap.img");
    assert_int_equal(mkdir(sub, 0755), 0);
    struct pb_run_exec x = {0};
    struct pb_run_vdev v = {0};
    v.path = path;
    v.size = 64.0 * 1024 * 1024;
    v.is_file = 1;
    struct pb_err why = {0};
    /* checked as a plain folder, then swapped for a link to /dev/shm */
    struct pb_err place = {0};
    assert_int_equal(pb_run_vdev_place(path, path, &place), PB_OK);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(symlink("/dev/shm", sub), 0);
    int rc = pb_run_vdev_file_create(&x, &v, "64M", &why);
    struct stat st;
    int made = lstat(victim, &st) == 0;
    if (made)
        unlink(victim);
    assert_int_equal(rc, PB_ERUN);
    assert_false(made);
    assert_int_equal(v.made, 0);
    assert_string_equal(why.msg, "its folder is really '/dev/shm', in a system "
                                 "folder (/dev); nothing made there");
    /* a real folder again: made there */
    assert_int_equal(unlink(sub), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(pb_run_vdev_file_create(&x, &v, "64M", &why), PB_OK);
    assert_int_equal(pb_run_vdev_file_ours(&v), 1);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(rmdir(dir), 0);

    char sys[64];
    assert_string_equal(pb_run_system_folder("/lib/x", sys, sizeof(sys)),
                        "/lib");
    assert_string_equal(pb_run_system_folder("/libx32/a/b", sys,
                                             sizeof(sys)),
                        "/libx32");
    assert_string_equal(pb_run_system_folder("/var/lib/x", sys, sizeof(sys)),
                        "/var");
    assert_null(pb_run_system_folder("/var/tmp/x", sys, sizeof(sys)));
    assert_null(pb_run_system_folder("/var/tmp/a/b", sys, sizeof(sys)));
    assert_null(pb_run_system_folder("/etcetera/x", sys, sizeof(sys)));
    assert_null(pb_run_system_folder("/tmp/etc/x", sys, sizeof(sys)));
    assert_null(pb_run_system_folder("/srv/x", sys, sizeof(sys)));
}

/* ==== issue 40 item 12: holders, on recorded /sys trees ==== */

#define SYSFS_DIR PB_FIXTURES_DIR "/sysfs-block"

/* Build the tree of fixtures/sysfs-block/NAME.tree under root. */
static void build_tree(const char *root, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s.tree", SYSFS_DIR, name);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char line[1024];
    while (fgets(line, sizeof(line), fp)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        char kind[8], rel[700], val[300] = "";
        assert_true(sscanf(line, "%7s %699s %299s", kind, rel, val) >= 2);
        char full[PATH_MAX + 800], cmd[PATH_MAX * 2 + 900];
        snprintf(full, sizeof(full), "%s/%s", root, rel);
        char *slash = strrchr(full, '/');
        *slash = '\0';
        snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", full);
        assert_int_equal(system(cmd), 0);
        *slash = '/';
        if (!strcmp(kind, "dir")) {
            assert_int_equal(mkdir(full, 0755), 0);
        } else if (!strcmp(kind, "link")) {
            assert_int_equal(symlink(val, full), 0);
        } else {
            FILE *f = fopen(full, "w");
            assert_non_null(f);
            fprintf(f, "%s\n", val);
            fclose(f);
        }
    }
    fclose(fp);
}

static void test_holders_recorded(void **state)
{
    (void)state;
    static const struct {
        const char *tree, *mountinfo;
        unsigned maj, min;
        const char *why; /* NULL: free */
    } cases[] = {
        /* recorded here: the virtio disk holds the root file system */
        {"vda", "machine", 254, 0, "it is mounted on '/'"},
        {"vda", "lvm-partition", 254, 0, NULL},
        {"loop", "machine", 7, 1, NULL},
        /* by hand: LVM on a partition, the other partition mounted */
        {"lvm-partition", "lvm-partition", 8, 0,
         "its partition sda1 is mounted on '/boot'"},
        {"lvm-partition", "machine", 8, 0,
         "its partition sda2 is held by /dev/dm-0 (VolGroup00-LogVol00) "
         "(device mapper, LVM, md or another device built on it)"},
        {"lvm-pv", "machine", 8, 16,
         "it is held by /dev/dm-1 (DataVG-crid1lv) (device mapper, LVM, md "
         "or another device built on it)"},
        {"md-member", "machine", 8, 32,
         "it is held by /dev/md0 (device mapper, LVM, md or another device "
         "built on it)"},
        /* its /dev name is not its sysfs name: found by number */
        {"cciss", "machine", 104, 0,
         "its partition cciss/c0d0p1 is held by /dev/md1 (device mapper, "
         "LVM, md or another device built on it)"},
        /* a number the tree does not have: nothing known */
        {"lvm-pv", "machine", 8, 17, NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char root[] = "/tmp/pb-unit-sysfs-XXXXXX";
        assert_non_null(mkdtemp(root));
        build_tree(root, cases[i].tree);
        char mi[PATH_MAX];
        struct pb_err why = {0};
        snprintf(mi, sizeof(mi), "%s/%s.mountinfo", SYSFS_DIR,
                 cases[i].mountinfo);
        int held =
            pb_run_device_held(root, cases[i].maj, cases[i].min, mi, &why);
        if (held != (cases[i].why != NULL) ||
            (cases[i].why && strcmp(why.msg, cases[i].why)))
            print_error("case %zu (%s): %d '%s'\n", i, cases[i].tree, held,
                        why.msg);
        assert_int_equal(held, cases[i].why != NULL);
        if (cases[i].why)
            assert_string_equal(why.msg, cases[i].why);
        char cmd[PATH_MAX + 16];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        assert_int_equal(system(cmd), 0);
    }
}

/* ==== issue 40 item 12: the suspended-pool path, what runs here ==== */

/* The run's watch on a real full file system: a vdev file's file system
 * (a 32 MiB tmpfs, filled) and a "fio" that does no I/O (sleep) make
 * pb_run_stall_check say the pool's I/O is suspended after 10 s, naming
 * the file and the bytes free; once there is room it says nothing. The
 * rest of that path (zfs-fuse blocking, the advice followed word for
 * word) is e2e.test_run_suspend, which stops the shared daemon. Root and
 * a private mount namespace, else skipped. In a child process: the
 * namespace is its own. */
static int stall_child(void)
{
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return 77;
    char dir[] = "/tmp/pb-unit-stall-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    if (mount("tmpfs", dir, "tmpfs", 0, "size=32m") != 0) {
        rmdir(dir);
        return 77;
    }
    int rc = 1;
    char filler[PATH_MAX], text[PATH_MAX + 64], want[PATH_MAX + 200];
    snprintf(filler, sizeof(filler), "%s/filler", dir);
    FILE *fp = fopen(filler, "w");
    static char block[65536];
    while (fp && fwrite(block, 1, sizeof(block), fp) == sizeof(block) &&
           fflush(fp) == 0)
        ;
    if (fp)
        fclose(fp);
    snprintf(text, sizeof(text), "[plan]\nvdevs = file:%s/d0.img:64M\n"
             "[fio]\nsize = 8m\n", dir);
    struct pb_err err = {0};
    struct pb_run_plan *p = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("sleep", "sleep", "30", (char *)NULL);
        _exit(127);
    }
    struct timespec half = {0, 500000000};
    nanosleep(&half, NULL); /* sleep's own start-up reads are done */
    if (pid > 0 && pb_run_plan_parse("/plans/s.ini", text, &p, &err) == 0) {
        struct pb_run_stall s = {0};
        struct pb_err why = {0};
        int got = 0;
        double t0 = 0;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
        for (int i = 0; i < 16 && !got; i++) {
            got = pb_run_stall_check(&s, pid, p, 300, &why);
            if (!got)
                sleep(1);
        }
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double secs = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - t0;
        snprintf(want, sizeof(want), "the pool's I/O is suspended: the file "
                 "system of vdev file %s/d0.img is full (0 bytes free) and "
                 "fio has done no I/O for 10 s", dir);
        if (got != 2 || strcmp(why.msg, want) || secs < 10 || secs > 13)
            fprintf(stderr, "stall: got %d after %.1f s: '%s'\n", got, secs,
                    why.msg);
        else if (unlink(filler) != 0 ||
                 pb_run_stall_check(&s, pid, p, 300, &why) != 0)
            fprintf(stderr, "stall: room again, still said: '%s'\n", why.msg);
        else
            rc = 0;
    }
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    pb_run_plan_free(p);
    umount(dir);
    rmdir(dir);
    return rc;
}

static void test_stall_full_fs(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        fprintf(stderr, "note: not root: the full file system part is "
                "skipped\n");
        skip();
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(stall_child());
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 77) {
        fprintf(stderr, "note: no private mount namespace or tmpfs here: "
                "the full file system part is skipped\n");
        skip();
    }
    assert_int_equal(WEXITSTATUS(st), 0);
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
        cmocka_unit_test(test_vdev_folder_swap),
        cmocka_unit_test(test_holders_recorded),
        cmocka_unit_test(test_stall_full_fs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
