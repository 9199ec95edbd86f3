/* What the machine is and allows before a pool is made: which ZFS
 * (OpenZFS or zfs-fuse), what cannot run there, the safety checks on
 * vdevs, and the host facts a run records. The pool lifecycle itself:
 * run/zfs.c. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ==== which ZFS ==== */

static int in_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/sbin:/usr/bin:/sbin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%.*s/%s", (int)n, path, prog);
        if (n > 0 && access(full, X_OK) == 0)
            return 1;
        path += n;
        if (*path)
            path++;
    }
    return 0;
}

static int daemon_running(const char *comm)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char p[300], buf[64] = "";
        snprintf(p, sizeof(p), "/proc/%s/comm", e->d_name);
        FILE *fp = fopen(p, "r");
        if (!fp)
            continue;
        if (fgets(buf, sizeof(buf), fp)) {
            buf[strcspn(buf, "\n")] = '\0';
            found = !strcmp(buf, comm);
        }
        fclose(fp);
    }
    closedir(d);
    return found;
}

enum pb_run_impl pb_run_detect_impl(void)
{
    if (access("/sys/module/zfs", F_OK) == 0)
        return PB_RUN_IMPL_OPENZFS;
    if (daemon_running("zfs-fuse") || in_path("zfs-fuse"))
        return PB_RUN_IMPL_ZFS_FUSE;
    return PB_RUN_IMPL_OPENZFS;
}

const char *pb_run_impl_name(enum pb_run_impl impl)
{
    return impl == PB_RUN_IMPL_ZFS_FUSE ? "zfs-fuse" : "openzfs";
}

/* ==== what cannot run ==== */

int pb_run_sync_emulated(const struct pb_run_plan *p,
                         const struct pb_run_cell *c, int no_sync)
{
    if (!no_sync)
        return 0;
    const char *v = pb_run_value(p, PB_RUN_DATA, c->combo[PB_RUN_DATA], "sync");
    return v && !strcmp(v, "always") &&
           !pb_run_value(p, PB_RUN_FIO, c->combo[PB_RUN_FIO], "sync");
}

const char *pb_run_static_skip(const struct pb_run_plan *p,
                               const struct pb_run_cell *c,
                               enum pb_run_impl impl, char *buf, size_t n)
{
    if (impl != PB_RUN_IMPL_ZFS_FUSE)
        return NULL;
    size_t dc = c->combo[PB_RUN_DATA];
    const char *v = pb_run_value(p, PB_RUN_DATA, dc, "compression");
    if (v && strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "lzjb") &&
        strcmp(v, "zle") && strncmp(v, "gzip", 4)) {
        snprintf(buf, n, "compression=%s is not supported by zfs-fuse "
                 "(it has on, off, lzjb, gzip, gzip-1..9, zle)", v);
        return buf;
    }
    static const char *const sizes[] = {"recordsize", "volblocksize", NULL};
    for (size_t i = 0; sizes[i]; i++) {
        double b;
        v = pb_run_value(p, PB_RUN_DATA, dc, sizes[i]);
        if (v && pb_parse_size(v, 0, &b) == 0 && b > 128 * 1024) {
            snprintf(buf, n, "%s=%s is not supported by zfs-fuse (at most "
                     "128k: no large_blocks feature)", sizes[i], v);
            return buf;
        }
    }
    return NULL; /* file cache vdevs go through loop devices (loop.c) */
}

/* ==== safety checks on vdevs ==== */

/* Is dev (a resolved path) or one of its partitions listed in file as the
 * first field of a line? */
static int listed_in(const char *file, const char *dev, char *what,
                     size_t n)
{
    FILE *fp = fopen(file, "r");
    if (!fp)
        return 0;
    char line[4096];
    size_t dl = strlen(dev);
    int hit = 0;
    while (!hit && fgets(line, sizeof(line), fp)) {
        char src[PATH_MAX];
        size_t k = strcspn(line, " \t\n");
        if (k == 0 || k >= sizeof(src))
            continue;
        memcpy(src, line, k);
        src[k] = '\0';
        char real[PATH_MAX];
        const char *s = realpath(src, real) ? real : src;
        if (!strncmp(s, dev, dl)) {
            const char *rest = s + dl;
            if (*rest == 'p')
                rest++;
            while (isdigit((unsigned char)*rest))
                rest++;
            if (!*rest) {
                snprintf(what, n, "%s", src);
                hit = 1;
            }
        }
    }
    fclose(fp);
    return hit;
}

static int check_one(const struct pb_run_plan *p, const struct pb_run_vdev *v,
                     int yes, struct pb_err *err)
{
    struct stat st;
    if (v->is_file) {
        if (lstat(v->path, &st) == 0)
            return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                              "vdev file '%s' already exists; poolbench "
                              "creates and removes its sparse files itself "
                              "(remove it or choose another path)",
                              v->path);
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", v->path);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                              "folder '%s' of vdev file '%s' does not exist",
                              dir, v->path);
        return PB_OK;
    }
    if (!yes)
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "'%s' is a real device and its contents will be "
                          "destroyed; add --yes to allow it", v->path);
    char real[PATH_MAX], what[PATH_MAX];
    if (!realpath(v->path, real) || stat(real, &st) != 0)
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "device '%s' does not exist", v->path);
    if (!S_ISBLK(st.st_mode))
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "'%s' is not a block device", v->path);
    if (listed_in("/proc/mounts", real, what, sizeof(what)))
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "device '%s' is mounted (as '%s'); refusing to "
                          "use it", v->path, what);
    if (listed_in("/proc/swaps", real, what, sizeof(what)))
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "device '%s' is used as swap ('%s'); refusing to "
                          "use it", v->path, what);
    struct pb_err why = {0};
    if (pb_run_device_users(real, &why))
        return pb_err_set(err, PB_EUSAGE, p->path, v->line, 0,
                          "device '%s' is in use: %s; refusing to use it",
                          v->path, why.msg);
    return PB_OK;
}

int pb_run_check_vdevs(const struct pb_run_plan *p, int yes,
                       struct pb_err *err)
{
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            if (check_one(p, &lists[l]->v[i], yes, err) != PB_OK)
                return err->code;
    return pb_run_check_space(p, err);
}

/* ==== host facts ==== */

static int file_field(const char *path, const char *key, char *out, size_t n)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[1024];
    size_t kl = strlen(key);
    int found = -1;
    while (fgets(line, sizeof(line), fp)) {
        if (strncmp(line, key, kl))
            continue;
        const char *v = line + kl;
        while (*v == ' ' || *v == '\t' || *v == ':')
            v++;
        snprintf(out, n, "%s", v);
        out[strcspn(out, "\n")] = '\0';
        found = 0;
        break;
    }
    fclose(fp);
    return found;
}

void pb_run_host_facts(struct pb_run_exec *x, enum pb_run_impl impl,
                       struct pb_resultset *set)
{
    char host[256] = "", buf[1024];
    gethostname(host, sizeof(host) - 1);
    const char *h = *host ? host : NULL;
    if (file_field("/proc/cpuinfo", "model name", buf, sizeof(buf)) == 0)
        pb_rs_fact(set, h, "cpu_model", buf);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu > 0) {
        snprintf(buf, sizeof(buf), "%ld", ncpu);
        pb_rs_fact(set, h, "cpu_count", buf);
    }
    if (file_field("/proc/meminfo", "MemTotal", buf, sizeof(buf)) == 0) {
        double kb = strtod(buf, NULL);
        char num[64];
        pb_rs_fact(set, h, "memory_bytes",
                   pb_fmt_num(kb * 1024, num, sizeof(num)));
    }
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(buf, sizeof(buf), "%s %s %s", u.sysname, u.release,
                 u.machine);
        pb_rs_fact(set, h, "kernel", buf);
    }
    if (impl == PB_RUN_IMPL_AUTO)
        return; /* the pools are made elsewhere: this ZFS is not the run's */
    pb_rs_fact(set, h, "zfs_implementation", pb_run_impl_name(impl));

    /* The version: OpenZFS has `zfs version`; zfs-fuse only tells its pool
     * version through `zpool upgrade -v`. */
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    if (impl == PB_RUN_IMPL_OPENZFS) {
        pb_run_argv_add(&a, "zfs");
        pb_run_argv_add(&a, "version");
    } else {
        pb_run_argv_add(&a, "zpool");
        pb_run_argv_add(&a, "upgrade");
        pb_run_argv_add(&a, "-v");
    }
    if (pb_run_cmd(x, (const char *const *)a.v, PB_RUN_CAPTURE, &res) == 0 &&
        !x->dry_run) {
        const char *out = pb_buf_str(&res.out);
        if (impl == PB_RUN_IMPL_OPENZFS) {
            snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(out, "\n"), out);
            if (*buf)
                pb_rs_fact(set, h, "zfs_version", buf);
        } else {
            const char *v = strstr(out, "pool version ");
            if (v) {
                long pv = strtol(v + 13, NULL, 10);
                snprintf(buf, sizeof(buf), "zfs-fuse, pool version %ld", pv);
                pb_rs_fact(set, h, "zfs_version", buf);
            }
        }
    }
    pb_run_argv_release(&a);
    pb_run_res_release(&res);
}
