/* run/stall.c - is fio still doing I/O?
 *
 * A pool whose I/O is suspended (a vdev file's file system is full, or a
 * device failed) does not fail fio's writes: it blocks them in the kernel,
 * and zfs-fuse says nothing about it ('zpool status' shows the pool
 * ONLINE, 'zfs get' still answers). Left alone, the run waits forever. The
 * watch that runs about once a second while fio runs (pb_run_exec.watch)
 * asks two things here:
 *  - has fio (the process and its job processes) read or written anything
 *    since the last look (/proc/PID/io: rchar + wchar)?
 *  - is the file system holding a vdev file full?
 * A full vdev file system (less than 16 MiB free) and no I/O for
 * PB_RUN_STALL_FULL_S seconds: ZFS
 * cannot write its transaction groups, the pool suspends (stall 2). No I/O
 * at all for the --stall-timeout: fio is stopped, the cell fails (stall 1).
 */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>

/* seconds without I/O while a vdev file system is full */
#define PB_RUN_STALL_FULL_S 10.0
/* a file system with less than this free is full for ZFS (it writes
 * whole records, several copies of metadata, labels and uberblocks, and
 * gives up on the transaction group when one write fails) */
#define PB_RUN_FULL_BYTES (16.0 * 1024.0 * 1024.0)

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* rchar + wchar of one process, or (tid > 0) of one of its threads; 0
 * when unreadable (gone, or not ours) */
static unsigned long long io_of(long pid, long tid)
{
    char path[96], line[128];
    if (tid > 0)
        snprintf(path, sizeof(path), "/proc/%ld/task/%ld/io", pid, tid);
    else
        snprintf(path, sizeof(path), "/proc/%ld/io", pid);
    FILE *fp = fopen(path, "re");
    if (!fp)
        return 0;
    unsigned long long sum = 0, v;
    while (fgets(line, sizeof(line), fp))
        if (sscanf(line, "rchar: %llu", &v) == 1 ||
            sscanf(line, "wchar: %llu", &v) == 1)
            sum += v;
    fclose(fp);
    return sum;
}

/* The parent pid of a process, from /proc/PID/stat ("pid (comm) S ppid":
 * comm may hold spaces and parentheses, so read after the last ')'). */
static long ppid_of(long pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *fp = fopen(path, "re");
    if (!fp)
        return -1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    long ppid = -1;
    if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
        return -1;
    return ppid;
}

/* fio's I/O counters: those of its main thread (which lays files out)
 * and of its job processes (fio forks one per job). Not the other threads
 * of the main process: fio's helper thread reads /proc and /sys disk
 * statistics all the time, which is no progress. */
static unsigned long long fio_io(pid_t pid, int *readable)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%ld/io", (long)pid);
    FILE *fp = fopen(path, "re");
    *readable = fp != NULL;
    if (fp)
        fclose(fp);
    unsigned long long sum = io_of((long)pid, (long)pid);
    DIR *d = opendir("/proc");
    if (!d)
        return sum;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long p = strtol(e->d_name, &end, 10);
        if (*end || p <= 0 || p == (long)pid)
            continue;
        if (ppid_of(p) == (long)pid)
            sum += io_of(p, 0);
    }
    closedir(d);
    return sum;
}

/* The first vdev file whose file system is full, or NULL. Those file
 * systems are not ZFS's own, so statvfs cannot block on the pool. */
static const char *full_vdev_fs(const struct pb_run_plan *p, double *avail)
{
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    for (size_t l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const struct pb_run_vdev *v = &lists[l]->v[i];
            if (!v->is_file)
                continue;
            char dir[PATH_MAX];
            snprintf(dir, sizeof(dir), "%s", v->path);
            char *slash = strrchr(dir, '/');
            if (slash == dir)
                dir[1] = '\0';
            else if (slash)
                *slash = '\0';
            struct statvfs st;
            if (statvfs(dir, &st) != 0 || st.f_blocks == 0)
                continue;
            double unit = st.f_frsize ? (double)st.f_frsize
                                      : (double)st.f_bsize;
            *avail = (double)st.f_bavail * unit;
            if (*avail < PB_RUN_FULL_BYTES)
                return v->path;
        }
    return NULL;
}

int pb_run_stall_check(struct pb_run_stall *s, pid_t pid,
                       const struct pb_run_plan *p, double limit,
                       struct pb_err *err)
{
    double now = mono_s();
    /* with thread=1 the jobs are threads beside the helper thread: no
     * telling progress apart from statistics, so no judgement */
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->ax[i].key, "thread"))
            return 0;
    int readable;
    unsigned long long io = fio_io(pid, &readable);
    if (s->pid != pid || io != s->io || !readable) {
        /* a new command, progress, or nothing to judge by */
        s->pid = pid;
        s->io = io;
        s->since = now;
        return 0;
    }
    double idle = now - s->since, avail = 0;
    const char *full = full_vdev_fs(p, &avail);
    if (full && idle >= PB_RUN_STALL_FULL_S) {
        pb_err_say(err, PB_ERUN,
                   "the pool's I/O is suspended: the file system of "
                   "vdev file %s is full (%.0f bytes free) and fio has done "
                   "no I/O for %.0f s",
                   full, avail, idle);
        return 2;
    }
    if (limit > 0 && idle >= limit) {
        pb_err_say(err, PB_ERUN,
                   "fio has done no I/O for %.0f s (--stall-timeout): "
                   "the pool's I/O may be suspended",
                   idle);
        return 1;
    }
    return 0;
}
