/* The run module's guards on what a plan names: its text without control
 * characters, vdev paths made canonical (so '/x' and '//x', or a path
 * through a symlinked folder, are seen as one file) and kept out of
 * system folders, vdev file sizes held to the free space of their file
 * system, real devices not held by another. See docs/threat-model.md,
 * "The run module" and "Consent". */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Lexical form of an absolute path: no '//', no '/./', '..' taken back. */
static void lexical(const char *in, char *out, size_t n)
{
    size_t o = 0;
    const char *p = in;
    if (n == 0)
        return;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        size_t k = strcspn(p, "/");
        if (k == 1 && p[0] == '.') {
            /* nothing */
        } else if (k == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
        } else if (o + 1 + k < n) {
            out[o++] = '/';
            memcpy(out + o, p, k);
            o += k;
        }
        p += k;
    }
    if (o == 0 && n > 1)
        out[o++] = '/';
    out[o] = '\0';
}

void pb_run_canon_path(const char *in, char *out, size_t n)
{
    char lex[PATH_MAX];
    lexical(in, lex, sizeof(lex));
    const char *slash = strrchr(lex, '/');
    const char *base = slash ? slash + 1 : lex;
    if (!*base) { /* "/" */
        snprintf(out, n, "%s", lex);
        return;
    }
    char parent[PATH_MAX], real[PATH_MAX];
    size_t pl = slash ? (size_t)(slash - lex) : 0;
    snprintf(parent, sizeof(parent), "%.*s", (int)pl, lex);
    if (!*parent)
        snprintf(parent, sizeof(parent), "/");
    if (realpath(parent, real))
        snprintf(out, n, "%s%s%s", real, strcmp(real, "/") ? "/" : "",
                 base);
    else
        snprintf(out, n, "%s", lex);
}

/* The folder a vdev file is made in. */
static void parent_of(const char *path, char *dir, size_t n)
{
    snprintf(dir, n, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
}

/* ==== the plan's text ==== */

/* A plan is UTF-8 text without control characters (tab, and CR before
 * LF, aside): an ESC, BEL or CR in a value or a vdev path could hide, on
 * the terminal of whoever reviews the plan or its dry run, what it runs.
 * PB_OK, or PB_EUSAGE at the line and column of the first such byte. */
int pb_run_plan_text_check(const char *path, const char *text,
                           struct pb_err *err)
{
    long line = 1, col = 1;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t k = 1;
        if (*s == '\n') {
            line++;
            col = 1;
            s++;
            continue;
        }
        if ((*s < 0x20 && *s != '\t' && !(*s == '\r' && s[1] == '\n')) ||
            *s == 0x7f)
            return pb_err_set(err, PB_EUSAGE, path, line, col,
                              "control character 0x%02x in the plan (a "
                              "plan is text: ESC, BEL, CR and the like "
                              "could hide what it runs)",
                              *s);
        if (*s >= 0x80) {
            k = pb_utf8_len(s, 4);
            if (k == 0)
                return pb_err_set(err, PB_EUSAGE, path, line, col,
                                  "byte 0x%02x is not UTF-8 (a plan is "
                                  "UTF-8 text)",
                                  *s);
            if (k == 2 && s[0] == 0xc2 && s[1] < 0xa0)
                return pb_err_set(err, PB_EUSAGE, path, line, col,
                                  "control character U+%04X in the plan "
                                  "(a plan is text: control characters "
                                  "could hide what it runs)",
                                  (unsigned)s[1]);
        }
        s += k;
        col++;
    }
    return PB_OK;
}

/* ==== where a vdev file may be ==== */

/* Folders whose files the system reads or runs by name, as root (cron,
 * ld.so.preload, units, udev and modprobe rules, sudoers, polkit, dpkg,
 * a web root under /var/www, boot flags in '/'): a vdev file there is a
 * root-owned file whose bytes the plan chooses (fio writes them). */
static const char *const system_folders[] = {
    "/bin", "/boot", "/dev", "/efi", "/etc", "/opt", "/proc", "/root",
    "/run", "/sbin", "/snap", "/sys", "/usr", "/var", NULL};

const char *pb_run_system_folder(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (slash == path) {
        snprintf(buf, n, "/");
        return buf; /* a file directly in '/' (/.autorelabel, ...) */
    }
    if (!strncmp(path, "/var/tmp/", 9))
        return NULL;
    size_t k = strcspn(path + 1, "/") + 1; /* the first component */
    if (k >= 4 && !strncmp(path, "/lib", 4)) {
        snprintf(buf, n, "%.*s", (int)k, path); /* /lib, /lib64, ... */
        return buf;
    }
    for (size_t i = 0; system_folders[i]; i++)
        if (strlen(system_folders[i]) == k &&
            !strncmp(path, system_folders[i], k)) {
            snprintf(buf, n, "%s", system_folders[i]);
            return buf;
        }
    return NULL;
}

int pb_run_vdev_place(const char *written, const char *canon,
                      struct pb_err *err)
{
    char lex[PATH_MAX], sys[64];
    lexical(written, lex, sizeof(lex));
    const char *in = pb_run_system_folder(lex, sys, sizeof(sys));
    const char *real = in ? NULL : canon;
    if (!in && canon)
        in = pb_run_system_folder(canon, sys, sizeof(sys));
    if (!in)
        return 0;
    return pb_err_set(
        err, PB_EUSAGE, NULL, 0, 0,
        "vdev file '%s'%s%s%s is in a system folder (%s): "
        "the run makes it as root with bytes the plan chooses; use "
        "/var/tmp, /tmp or a data disk",
        written, real ? " (really '" : "", real ? real : "", real ? "')" : "",
        in);
}

int pb_run_check_space(const struct pb_run_plan *p, struct pb_err *err)
{
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    size_t n = p->data.n + p->log.n + p->cache.n, k = 0;
    const struct pb_run_vdev **all = pb_xcalloc(n + 1, sizeof(*all));
    dev_t *devs = pb_xcalloc(n + 1, sizeof(*devs));
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const struct pb_run_vdev *v = &lists[l]->v[i];
            char dir[PATH_MAX];
            struct stat st;
            if (!v->is_file)
                continue;
            parent_of(v->path, dir, sizeof(dir));
            if (stat(dir, &st) != 0)
                continue; /* said elsewhere: the folder does not exist */
            all[k] = v;
            devs[k++] = st.st_dev;
        }
    int rc = PB_OK;
    /* the files of each file system, summed, against its free space */
    for (size_t i = 0; i < k && rc == PB_OK; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= devs[j] == devs[i];
        if (seen)
            continue;
        double need = 0;
        for (size_t j = i; j < k; j++)
            if (devs[j] == devs[i])
                need += all[j]->size;
        char dir[PATH_MAX];
        struct statvfs vfs;
        parent_of(all[i]->path, dir, sizeof(dir));
        if (statvfs(dir, &vfs) != 0)
            continue;
        double avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
        if (need > avail) {
            char a[32], b[32];
            rc = pb_err_set(err, PB_EUSAGE, p->path, all[i]->line, 0,
                            "vdev files in '%s' need %.0f bytes (%s) but "
                            "its file system has %.0f bytes (%s) free; make "
                            "the vdevs smaller",
                            dir, need, pb_fmt_size(need, a, sizeof(a)),
                            avail, pb_fmt_size(avail, b, sizeof(b)));
        }
    }
    free(all);
    free(devs);
    return rc;
}

/* ==== vdev files: made new, removed only while still ours ==== */

/* What is done in-process, logged as the command it stands for with its
 * outcome, like every command of the log ("  # exit 0"). */
static int vdev_logged(struct pb_run_exec *x, const struct pb_buf *line,
                       int rc, const char *why)
{
    if (x->log) {
        if (rc == 0)
            fprintf(x->log, "%s  # exit 0 (in-process: a new file only, "
                    "O_EXCL)\n", pb_buf_str(line));
        else {
            fprintf(x->log, "%s  # exit 1 (in-process: ", pb_buf_str(line));
            pb_fput_term(why, x->log);
            fputs(")\n", x->log);
        }
        fflush(x->log);
    }
    return rc;
}

/* The folder of path, opened, and checked where it really is (its
 * realpath names the folder this descriptor holds): the file is made
 * through it, so a folder swapped for a link to /etc/cron.d since the plan
 * was checked is caught. The descriptor, or -1 with err. */
static int vdev_folder(const char *path, struct pb_err *err)
{
    char dir[PATH_MAX], real[PATH_MAX], sys[64];
    parent_of(path, dir, sizeof(dir));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat a, b;
    if (dfd < 0 || fstat(dfd, &a) != 0 || !realpath(dir, real) ||
        stat(real, &b) != 0) {
        pb_err_say(err, PB_ERUN, "its folder: %s", strerror(errno));
        if (dfd >= 0)
            close(dfd);
        return -1;
    }
    if (a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        pb_err_say(err, PB_ERUN,
                   "its folder '%s' changed while it was checked; "
                   "left as it is",
                   dir);
        close(dfd);
        return -1;
    }
    char file[PATH_MAX + 2];
    snprintf(file, sizeof(file), "%s/x", strcmp(real, "/") ? real : "");
    if (pb_run_system_folder(file, sys, sizeof(sys))) {
        pb_err_say(err, PB_ERUN,
                   "its folder is really '%s', in a system folder "
                   "(%s); nothing made there",
                   real, sys);
        close(dfd);
        return -1;
    }
    return dfd;
}

static int vdev_create(struct pb_run_vdev *v, struct pb_err *err)
{
    int dfd = vdev_folder(v->path, err);
    if (dfd < 0)
        return PB_ERUN;
    const char *base = strrchr(v->path, '/');
    base = base ? base + 1 : v->path;
    /* never an existing file (another run's live vdev) nor a link */
    int fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                   O_CLOEXEC, 0600);
    close(dfd);
    if (fd < 0) {
        pb_err_say(err, PB_ERUN, "%s",
                   errno == EEXIST ? "it exists now (another run's vdev?); "
                                     "left as it is"
                                   : strerror(errno));
        return PB_ERUN;
    }
    struct stat st;
    v->made = 1;
    if (fstat(fd, &st) == 0) {
        v->ident_dev = (unsigned long long)st.st_dev;
        v->ident_ino = (unsigned long long)st.st_ino;
    }
    if (ftruncate(fd, (off_t)v->size) != 0) {
        pb_err_say(err, PB_ERUN, "%s", strerror(errno));
        close(fd);
        return PB_ERUN;
    }
    if (close(fd) != 0) {
        pb_err_say(err, PB_ERUN, "%s", strerror(errno));
        return PB_ERUN;
    }
    return 0;
}

int pb_run_vdev_file_create(struct pb_run_exec *x, struct pb_run_vdev *v,
                            const char *size_txt, struct pb_err *err)
{
    const char *argv[] = {"truncate", "-s", size_txt, v->path, NULL};
    struct pb_buf line = PB_BUF_INIT;
    v->made = 0;
    if (x->remote) {
        /* [hosts] with a remote template: the file is on the other host,
         * made through its shell after checking that nothing (not even a
         * dangling link) is at its path; argv only, each word quoted */
        const char *none[] = {"test", "!", "-e", v->path, NULL};
        const char *nolink[] = {"test", "!", "-L", v->path, NULL};
        struct pb_run_res res = {0};
        int rc = 0;
        char w[200];
        const char *h = x->host ? x->host : "";
        if (pb_run_cmd(x, none, 0, &res) != 0 ||
            pb_run_cmd(x, nolink, 0, &res) != 0) {
            /* test says 1; a shell or ssh that fails says something else */
            if (res.status == 1)
                pb_err_say(err, PB_ERUN, "it exists on host %s", h);
            else
                pb_err_say(err, PB_ERUN, "the shell of host %s failed: %s", h,
                           pb_run_res_why(&res, w, sizeof(w)));
            rc = PB_ERUN;
        } else if (pb_run_cmd(x, argv, 0, &res) != 0) {
            pb_err_say(err, PB_ERUN, "on host %s: %s", h,
                       pb_run_res_why(&res, w, sizeof(w)));
            rc = PB_ERUN;
        } else {
            v->made = 1;
        }
        pb_run_res_release(&res);
        return rc;
    }
    pb_run_quote(&line, argv);
    if (x->dry_run) {
        fprintf(x->dry, "%s\n", pb_buf_str(&line));
        pb_buf_release(&line);
        return 0;
    }
    int rc = vdev_logged(x, &line, vdev_create(v, err), err->msg);
    pb_buf_release(&line);
    return rc;
}

int pb_run_vdev_file_ours(const struct pb_run_vdev *v)
{
    struct stat st;
    if (!v->made)
        return 0;
    if (lstat(v->path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return (unsigned long long)st.st_dev == v->ident_dev &&
           (unsigned long long)st.st_ino == v->ident_ino;
}

/* ==== the run's folder (-o DIR) and the files in it ==== */

/* mkdir -p, the missing folders 0755 */
static int mkdirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof(tmp), "%s", path);
    for (char *q = tmp + 1; *q; q++) {
        if (*q != '/')
            continue;
        *q = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *q = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int pb_run_dir_ours(const char *dir, int create, struct pb_err *err)
{
    if (create && mkdirs(dir) != 0)
        return pb_err_set(err, PB_EIO, dir, 0, 0, "cannot create: %s",
                          strerror(errno));
    struct stat st;
    if (lstat(dir, &st) != 0)
        return pb_err_set(err, PB_EIO, dir, 0, 0, "cannot open: %s",
                          strerror(errno));
    if (S_ISLNK(st.st_mode))
        return pb_err_set(err, PB_EUSAGE, dir, 0, 0,
                          "is a symbolic link; a run writes only into a real "
                          "folder (name the folder it points to)");
    if (!S_ISDIR(st.st_mode))
        return pb_err_set(err, PB_EUSAGE, dir, 0, 0, "is not a folder");
    if (st.st_uid != geteuid())
        return pb_err_set(err, PB_EUSAGE, dir, 0, 0,
                          "is owned by uid %lu, not by this user (uid %lu); "
                          "a run writes only into its own folders",
                          (unsigned long)st.st_uid,
                          (unsigned long)geteuid());
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return pb_err_set(err, PB_EUSAGE, dir, 0, 0,
                          "is writable by others (mode %04o); a run writes "
                          "only into a folder no one else can write in "
                          "(chmod go-w)",
                          (unsigned)(st.st_mode & 07777));
    return PB_OK;
}

int pb_run_open_out(const char *path, int flags)
{
    return open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags,
                0644);
}

FILE *pb_run_fopen_out(const char *path, int append)
{
    int fd = pb_run_open_out(path, append ? O_APPEND : O_TRUNC);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, append ? "a" : "w");
    if (!fp) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return fp;
}

int pb_run_out_fresh(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return -1;
    int fd = pb_run_open_out(path, O_EXCL);
    if (fd < 0)
        return -1;
    return close(fd);
}

/* ==== real devices: in use through another device? ==== */

/* The first line of a small sysfs file into out ("" when unreadable). */
static void sys_line(const char *path, char *out, size_t n)
{
    out[0] = '\0';
    FILE *fp = fopen(path, "re");
    if (!fp)
        return;
    if (!fgets(out, (int)n, fp))
        out[0] = '\0';
    fclose(fp);
    out[strcspn(out, "\r\n")] = '\0';
}

/* The first holder of the device or partition folder dir (dm, md, LVM,
 * bcache ...): its /dev name ('!' in a sysfs name is '/') into out, with
 * the device mapper's name of it when there is one. */
static int first_holder(const char *dir, char *out, size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/holders", dir);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *e;
    int hit = 0;
    while (!hit && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char name[256], dm[256], dmp[PATH_MAX + 300];
        snprintf(name, sizeof(name), "%s", e->d_name);
        for (char *q = name; *q; q++)
            if (*q == '!')
                *q = '/';
        snprintf(dmp, sizeof(dmp), "%s/%s/dm/name", path, e->d_name);
        sys_line(dmp, dm, sizeof(dm));
        snprintf(out, n, "/dev/%s%s%s%s", name, *dm ? " (" : "", dm,
                 *dm ? ")" : "");
        hit = 1;
    }
    closedir(d);
    return hit;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The device folder and its partitions' (subfolders with a "partition"
 * file), at most max, into dirs. */
static size_t parts_of(const char *dev, char dirs[][PATH_MAX], size_t max)
{
    size_t k = 0;
    snprintf(dirs[k++], PATH_MAX, "%s", dev);
    DIR *d = opendir(dev);
    if (!d)
        return k;
    struct dirent *e;
    while (k < max && (e = readdir(d))) {
        char pf[PATH_MAX + 300];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(pf, sizeof(pf), "%s/%s/partition", dev, e->d_name);
        if (stat(pf, &st) == 0 && strlen(pf) - 10 < PATH_MAX) {
            memcpy(dirs[k], pf, strlen(pf) - 10); /* less "/partition" */
            dirs[k][strlen(pf) - 10] = '\0';
            k++;
        }
    }
    closedir(d);
    /* partitions in name order: the same answer whatever readdir gives */
    qsort(dirs + 1, k - 1, sizeof(*dirs), cmp_name);
    return k;
}

/* Mount point of a file system on maj:min, from a mountinfo file. */
static int mounted_devno(const char *mountinfo, const char *devno,
                         char *out, size_t n)
{
    FILE *fp = fopen(mountinfo, "re");
    if (!fp)
        return 0;
    char line[8192];
    int hit = 0;
    while (!hit && fgets(line, sizeof(line), fp)) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
        char mm[64], mp[4096];
        if (sscanf(line, "%*s %*s %63s %*s %4095s", mm, mp) == 2 &&
            !strcmp(mm, devno)) {
            snprintf(out, n, "%s", mp);
            hit = 1;
        }
    }
    fclose(fp);
    return hit;
}

int pb_run_device_held(const char *sys, unsigned maj, unsigned min,
                       const char *mountinfo, struct pb_err *err)
{
    /* by device number, not by name: /dev/cciss/c0d0 is cciss!c0d0 in
     * sysfs, and a /dev name is whatever udev made it */
    char link[PATH_MAX], dev[PATH_MAX];
    snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys, maj, min);
    if (!realpath(link, dev))
        return 0;
    char(*dirs)[PATH_MAX] = pb_xcalloc(65, sizeof(*dirs));
    size_t k = parts_of(dev, dirs, 65);
    int held = 0;
    for (size_t i = 0; i < k; i++) {
        char part[256], h[600], devno[64], mp[4096], file[PATH_MAX + 8];
        snprintf(part, sizeof(part), "%s", strrchr(dirs[i], '/') + 1);
        for (char *q = part; *q; q++)
            if (*q == '!')
                *q = '/'; /* sysfs's cciss!c0d0p1 is cciss/c0d0p1 */
        if (first_holder(dirs[i], h, sizeof(h))) {
            pb_err_say(err, PB_EUSAGE,
                       "%s%s is held by %s (device mapper, LVM, md "
                       "or another device built on it)",
                       i ? "its partition " : "", i ? part : "it", h);
            held = 1;
            break;
        }
        snprintf(file, sizeof(file), "%s/dev", dirs[i]);
        sys_line(file, devno, sizeof(devno));
        if (*devno && mounted_devno(mountinfo, devno, mp, sizeof(mp))) {
            pb_err_say(err, PB_EUSAGE, "%s%s is mounted on '%s'",
                       i ? "its partition " : "", i ? part : "it", mp);
            held = 1;
            break;
        }
    }
    free(dirs);
    return held;
}

int pb_run_device_users(const char *real, struct pb_err *err)
{
    struct stat st;
    if (stat(real, &st) == 0 && S_ISBLK(st.st_mode) &&
        pb_run_device_held("/sys", major(st.st_rdev), minor(st.st_rdev),
                           "/proc/self/mountinfo", err))
        return 1;
    /* signatures: a file system, a partition table, RAID or LVM member */
    struct pb_run_exec x = {0};
    struct pb_run_res res = {0};
    const char *argv[] = {"blkid", "-p", "-o", "export", real, NULL};
    int rc = pb_run_cmd(&x, argv, PB_RUN_CAPTURE, &res);
    if (rc == 0) {
        const char *s = pb_buf_str(&res.out);
        const char *t = strstr(s, "\nTYPE=");
        const char *pt = strstr(s, "PTTYPE=");
        if (!strncmp(s, "TYPE=", 5))
            t = s - 1;
        if (t || pt) {
            const char *v = t ? t + 6 : pt + 7;
            pb_err_say(err, PB_EUSAGE,
                       "it has a%s %.*s signature (blkid -p); if it "
                       "is free, wipe it first: wipefs -a %s",
                       t ? "" : " partition table", (int)strcspn(v, "\n"), v,
                       real);
            pb_run_res_release(&res);
            return 1;
        }
    }
    pb_run_res_release(&res);
    return 0;
}

/* ==== a suspended pool: advice that works on the ZFS in use ==== */

void pb_run_suspended_advice(enum pb_run_impl impl, const char *pool,
                             const char *run_id, const char *mnt, char *buf,
                             size_t n)
{
    char dir[PATH_MAX];
    parent_of(mnt ? mnt : ".", dir, sizeof(dir));
    if (impl == PB_RUN_IMPL_ZFS_FUSE)
        snprintf(buf, n, "pool '%s' has suspended its I/O (an I/O error, or "
                 "a vdev file's file system is full); poolbench leaves it "
                 "and its vdevs as they are. zfs-fuse can neither resume nor "
                 "destroy a suspended pool ('zpool clear' and 'zpool "
                 "destroy' hang; processes writing to it, fio too, cannot "
                 "be killed). Once nothing else uses zfs-fuse: stop the "
                 "daemon with 'pkill -KILL -x zfs-fuse' (it ignores SIGTERM "
                 "then), unmount its mounts with 'fusermount -uz MOUNTPOINT' "
                 "for each fuse.zfs line of /proc/mounts, make room on the "
                 "file system of the vdev files (or fix the device), start "
                 "'zfs-fuse' again (the pool comes back ONLINE), then run "
                 "'poolbench run --cleanup %s -o %s'",
                 pool, run_id, dir);
    else
        snprintf(buf, n, "pool '%s' has suspended its I/O (an I/O error, or "
                 "it ran out of space); poolbench leaves it and its vdevs as "
                 "they are: see 'zpool status %s', make room on the file "
                 "system of the vdev files (or fix the device), run 'zpool "
                 "clear %s', then 'poolbench run --cleanup %s -o %s'",
                 pool, pool, pool, run_id, dir);
}
