/* What the pool and the ZFS module did during a cell: `zpool iostat -v
 * POOL 1` in the background while fio runs (summaries as metrics, per-vdev
 * figures and the series as facts), ARC statistics before and after fio
 * (deltas, "served from ARC"), the module parameters once per run, the
 * effective ashift (`zdb -C`), and the cache the working set is measured
 * against. Sources that do not exist here are recorded as absent. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define ARCSTATS "/proc/spl/kstat/zfs/arcstats"
#define PARAMS_DIR "/sys/module/zfs/parameters"

/* the parameters the report names on their own (issue 14, item 7) */
static const char *const key_params[] = {"zfs_arc_max", "zfs_dirty_data_max",
                                         "zfs_txg_timeout", NULL};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "16 MiB", "1.5 GiB": binary units, 3 significant digits. */
const char *pb_run_fmt_bytes(double b, char *buf, size_t n)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int k = 0;
    while (fabs(b) >= 1024 && k < 5) {
        b /= 1024;
        k++;
    }
    if (k == 0 || fabs(b) >= 100 || b == floor(b))
        snprintf(buf, n, "%.0f %s", b, u[k]);
    else if (fabs(b) >= 10)
        snprintf(buf, n, "%.1f %s", b, u[k]);
    else
        snprintf(buf, n, "%.2f %s", b, u[k]);
    return buf;
}

static int read_text(const char *path, char **buf, size_t *len)
{
    struct pb_err e = {0};
    return pb_read_file(path, buf, len, &e) == PB_OK ? 0 : -1;
}

/* ==== once per run ==== */

static double mem_total(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    if (!fp)
        return 0;
    char line[256];
    double kb = 0;
    while (fgets(line, sizeof(line), fp))
        if (!strncmp(line, "MemTotal:", 9)) {
            kb = strtod(line + 9, NULL);
            break;
        }
    fclose(fp);
    return kb * 1024;
}

/* zfs-fuse's own ARC limit: "max-arc-size = 100" (MiB) in its zfsrc. */
static double fuse_arc_max(void)
{
    FILE *fp = fopen("/etc/zfs/zfsrc", "r");
    if (!fp)
        return 0;
    char line[256];
    double mb = 0;
    while (fgets(line, sizeof(line), fp)) {
        const char *q = line;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "max-arc-size", 12))
            continue;
        q += 12;
        while (*q == ' ' || *q == '\t' || *q == '=')
            q++;
        mb = strtod(q, NULL);
    }
    fclose(fp);
    return mb > 0 ? mb * 1024 * 1024 : 0;
}

void pb_run_tel_run(struct pb_run_telrun *tr, struct pb_run_exec *x,
                    enum pb_run_impl impl, struct pb_resultset *facts)
{
    memset(tr, 0, sizeof(*tr));
    tr->impl = impl;
    char num[64], b1[32];
    const char *why = impl == PB_RUN_IMPL_ZFS_FUSE ? "zfs-fuse" : "not found";

    struct pb_params p = {0};
    struct pb_err e = {0};
    double arc_max_param = 0;
    if (access(PARAMS_DIR, F_OK) == 0 &&
        pb_ingest_params_dir(PARAMS_DIR, &p, &e) == PB_OK) {
        for (size_t i = 0; i < p.n; i++) {
            char *k = pb_xasprintf("zfs_param.%s", p.v[i].key);
            pb_rs_fact(facts, NULL, k, p.v[i].value);
            free(k);
        }
        for (size_t i = 0; key_params[i]; i++) {
            const char *v = pb_params_get(&p, key_params[i]);
            pb_rs_fact(facts, NULL, key_params[i],
                       v ? v : "absent (no such module parameter)");
        }
        const char *am = pb_params_get(&p, "zfs_arc_max");
        if (am)
            arc_max_param = strtod(am, NULL);
        pb_run_note(x, "read %zu module parameters from %s", p.n,
                    PARAMS_DIR);
    } else {
        char *v = pb_xasprintf("absent (%s: no %s)", why, PARAMS_DIR);
        pb_rs_fact(facts, NULL, "zfs_module_parameters", v);
        for (size_t i = 0; key_params[i]; i++)
            pb_rs_fact(facts, NULL, key_params[i], v);
        free(v);
    }
    pb_params_release(&p);

    /* the cache a working set is measured against */
    char *buf;
    size_t len;
    tr->have_arc = access(ARCSTATS, R_OK) == 0;
    double cmax = 0;
    if (tr->have_arc && read_text(ARCSTATS, &buf, &len) == 0) {
        struct pb_kstat k;
        if (pb_ingest_kstat(ARCSTATS, buf, len, &k, &e) == PB_OK)
            pb_kstat_get(&k, "c_max", &cmax);
        pb_kstat_release(&k);
        free(buf);
    }
    if (!tr->have_arc) {
        char *v = pb_xasprintf("absent (%s: no %s)", why, ARCSTATS);
        pb_rs_fact(facts, NULL, "arcstats", v);
        free(v);
    } else if (cmax > 0) {
        pb_rs_fact(facts, NULL, "arc_c_max",
                   pb_fmt_num(cmax, num, sizeof(num)));
    }
    double ram = mem_total();
    if (cmax > 0) {
        tr->cache = cmax;
        snprintf(tr->cache_what, sizeof(tr->cache_what), "ARC c_max %s",
                 pb_run_fmt_bytes(cmax, b1, sizeof(b1)));
    } else if (arc_max_param > 0) {
        tr->cache = arc_max_param;
        snprintf(tr->cache_what, sizeof(tr->cache_what), "zfs_arc_max %s",
                 pb_run_fmt_bytes(arc_max_param, b1, sizeof(b1)));
    } else if (ram > 0) {
        double fa = impl == PB_RUN_IMPL_ZFS_FUSE ? fuse_arc_max() : 0;
        char b2[32];
        if (fa > 0)
            pb_rs_fact(facts, NULL, "zfs_fuse_max_arc_size",
                       pb_fmt_num(fa, num, sizeof(num)));
        tr->cache = ram;
        snprintf(tr->cache_what, sizeof(tr->cache_what),
                 "RAM %s (no ARC statistics%s%s%s%s)",
                 pb_run_fmt_bytes(ram, b1, sizeof(b1)),
                 impl == PB_RUN_IMPL_ZFS_FUSE
                     ? ": zfs-fuse caches in its own ARC"
                     : "",
                 fa > 0 ? " (max-arc-size " : "",
                 fa > 0 ? pb_run_fmt_bytes(fa, b2, sizeof(b2)) : "",
                 impl == PB_RUN_IMPL_ZFS_FUSE
                     ? (fa > 0 ? " in /etc/zfs/zfsrc) and in the page cache"
                               : " and in the page cache")
                     : "");
    }
    if (tr->cache > 0)
        pb_rs_fact(facts, NULL, "cache_bound", tr->cache_what);
}

/* ==== effective ashift ==== */

int pb_run_tel_ashift(struct pb_run_exec *x, const char *pool, char *out,
                      size_t n)
{
    const char *argv[] = {"zdb", "-C", pool, NULL};
    struct pb_run_res res = {0};
    out[0] = '\0';
    int rc = pb_run_cmd(x, argv, PB_RUN_CAPTURE, &res);
    if (rc == 0 && !x->dry_run) {
        /* "ashift: 12" once per top-level vdev: all alike, or a list */
        const char *s = pb_buf_str(&res.out);
        char seen[128] = "";
        for (const char *q = strstr(s, "ashift:"); q;
             q = strstr(q + 7, "ashift:")) {
            long v = strtol(q + 7, NULL, 10);
            if (v < 9 || v > 16)
                continue;
            char one[8];
            snprintf(one, sizeof(one), "%ld", v);
            if (!*seen) {
                snprintf(seen, sizeof(seen), "%s", one);
            } else if (strcmp(seen, one) && !strstr(seen, ",")) {
                size_t k = strlen(seen);
                snprintf(seen + k, sizeof(seen) - k, ",%s", one);
            }
        }
        snprintf(out, n, "%s", seen);
    }
    pb_run_res_release(&res);
    return *out ? 0 : -1;
}

void pb_run_tel_set_ashift(struct pb_resultset *set, const char *ashift,
                           const char *pool)
{
    if (!set || !ashift || !*ashift)
        return;
    char *origin = pb_xasprintf("command: zdb -C %s", pool);
    for (size_t c = 0; c < set->nconfigs; c++)
        pb_rs_config_param_origin(set, c, "ashift", ashift, origin);
    free(origin);
}

/* ==== during a cell ==== */

int pb_run_tel_start(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                     struct pb_run_exec *x, const char *pool,
                     const char *iostat_path)
{
    memset(t, 0, sizeof(*t));
    t->pid = -1;
    snprintf(t->path, sizeof(t->path), "%s", iostat_path);
    const char *argv[] = {"zpool", "iostat", "-v", pool, "1", NULL};
    struct pb_buf line = PB_BUF_INIT;
    pb_run_quote(&line, argv);
    pb_run_note(x, "in the background while fio runs: %s > %s",
                pb_buf_str(&line), iostat_path);
    pb_buf_release(&line);
    if (tr->have_arc && !x->dry_run) {
        char *buf;
        size_t len;
        struct pb_err e = {0};
        if (read_text(ARCSTATS, &buf, &len) == 0) {
            t->have_arc = pb_ingest_kstat(ARCSTATS, buf, len, &t->arc0,
                                          &e) == PB_OK;
            free(buf);
        }
    }
    if (x->dry_run)
        return 0;
    int fd = pb_run_open_out(iostat_path, O_TRUNC);
    if (fd < 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_adddup2(&fa, fd, 2);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawnp(&pid, "zpool", &fa, &at, (char *const *)argv,
                          environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fd);
    if (rc != 0) {
        pb_run_note(x, "zpool iostat could not be started: %s",
                    strerror(rc));
        return -1;
    }
    t->pid = pid;
    t->t0 = now_s();
    return 0;
}

/* Wait up to 5 s for a killed child: a zpool stuck in a wedged ZFS
 * daemon must not hang the run (it is left to init then). */
static void reap(pid_t pid)
{
    for (int i = 0; i < 50; i++) {
        pid_t w = waitpid(pid, NULL, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            return;
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
}

void pb_run_tel_stop(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                     struct pb_run_exec *x)
{
    if (tr->have_arc && t->have_arc && !x->dry_run) {
        char *buf;
        size_t len;
        struct pb_err e = {0};
        if (read_text(ARCSTATS, &buf, &len) == 0) {
            t->have_arc1 = pb_ingest_kstat(ARCSTATS, buf, len, &t->arc1,
                                           &e) == PB_OK;
            free(buf);
        }
    }
    if (t->pid <= 0)
        return;
    kill(t->pid, SIGTERM);
    int st = 0;
    pid_t w = -1;
    for (int i = 0; i < 50; i++) { /* 5 s, then SIGKILL */
        w = waitpid(t->pid, &st, WNOHANG);
        if (w == t->pid || (w < 0 && errno != EINTR))
            break;
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    if (w != t->pid) {
        kill(t->pid, SIGKILL);
        reap(t->pid);
    }
    pb_run_note(x, "zpool iostat stopped after %.1f s", now_s() - t->t0);
    t->pid = -1;
}

void pb_run_tel_release(struct pb_run_tel *t)
{
    if (t->pid > 0) { /* never left running */
        kill(t->pid, SIGKILL);
        reap(t->pid);
        t->pid = -1;
    }
    pb_kstat_release(&t->arc0);
    pb_kstat_release(&t->arc1);
}

/* ==== what is stored ==== */

/* Mean per-second figures of the rows named like row `i` of the first
 * sample over samples from..nsamples. */
struct sums {
    double rops, wops, rbw, wbw;
    size_t n;
};

static void sum_row(const struct pb_iostat *io, const struct pb_iostat_row *ref,
                    size_t ref_index, size_t from, struct sums *s)
{
    memset(s, 0, sizeof(*s));
    for (size_t k = from; k < io->nsamples; k++) {
        size_t first, n = pb_iostat_sample_rows(io, k, &first);
        /* same position and name in each sample (the layout is fixed) */
        if (ref_index >= n)
            continue;
        const struct pb_iostat_row *r = &io->rows[first + ref_index];
        if (strcmp(r->name, ref->name) || isnan(r->rops))
            continue;
        s->rops += r->rops;
        s->wops += r->wops;
        s->rbw += r->rbw;
        s->wbw += r->wbw;
        s->n++;
    }
    if (s->n) {
        s->rops /= (double)s->n;
        s->wops /= (double)s->n;
        s->rbw /= (double)s->n;
        s->wbw /= (double)s->n;
    }
}

static void add_metric(struct pb_resultset *set, const char *metric,
                       const char *unit, double v)
{
    for (size_t c = 0; c < set->nconfigs; c++)
        for (size_t t = 0; t < set->ntests; t++)
            pb_rs_add(set, c, t, NULL, NULL, metric, unit, PB_DIR_HIGHER, v);
}

static void iostat_store(struct pb_run_tel *t, struct pb_resultset *set)
{
    char *buf;
    size_t len;
    if (read_text(t->path, &buf, &len) != 0) {
        pb_rs_fact(set, NULL, "zpool_iostat", "absent (no output file)");
        return;
    }
    struct pb_iostat io;
    struct pb_err e = {0};
    if (pb_ingest_zpool_iostat(t->path, buf, len, &io, &e) != PB_OK) {
        char *v = pb_xasprintf("unreadable (%s:%ld: %s)", t->path, e.line,
                               e.msg);
        pb_rs_fact(set, NULL, "zpool_iostat", v);
        free(v);
        pb_iostat_release(&io);
        free(buf);
        return;
    }
    free(buf);
    /* the first sample averages since the import: left out when there
     * are others */
    size_t from = io.nsamples > 1 ? 1 : 0;
    size_t first, nrows = pb_iostat_sample_rows(&io, 0, &first);
    char b1[32], b2[32], b3[32], b4[32];
    for (size_t i = 0; i < nrows; i++) {
        const struct pb_iostat_row *r = &io.rows[first + i];
        struct sums s;
        sum_row(&io, r, i, from, &s);
        if (!s.n)
            continue; /* a section header ("logs") */
        if (i == 0) {
            add_metric(set, "pool_read_ops", "ops/s", s.rops);
            add_metric(set, "pool_write_ops", "ops/s", s.wops);
            add_metric(set, "pool_read_bw", "B/s", s.rbw);
            add_metric(set, "pool_write_bw", "B/s", s.wbw);
            t->pool_rbw = s.rbw;
            t->pool_wbw = s.wbw;
            t->have_pool = 1;
        }
        char *k = pb_xasprintf("zpool_iostat.%s%s%s",
                               r->section ? r->section : "",
                               r->section ? "." : "", i ? r->name : "pool");
        char *v = pb_xasprintf("read %s ops/s %s/s, write %s ops/s %s/s",
                               pb_fmt_num(round(s.rops * 10) / 10, b1,
                                          sizeof(b1)),
                               pb_run_fmt_bytes(s.rbw, b2, sizeof(b2)),
                               pb_fmt_num(round(s.wops * 10) / 10, b3,
                                          sizeof(b3)),
                               pb_run_fmt_bytes(s.wbw, b4, sizeof(b4)));
        pb_rs_fact(set, NULL, k, v);
        free(k);
        free(v);
    }
    struct pb_buf series = PB_BUF_INIT;
    pb_buf_puts(&series, "pool per second (read ops, write ops, read B, "
                         "write B):");
    for (size_t k = 0; k < io.nsamples; k++) {
        const struct pb_iostat_row *r = &io.rows[io.first[k]];
        pb_buf_printf(&series, " %s/%s/%s/%s;",
                      pb_fmt_num(r->rops, b1, sizeof(b1)),
                      pb_fmt_num(r->wops, b2, sizeof(b2)),
                      pb_fmt_num(r->rbw, b3, sizeof(b3)),
                      pb_fmt_num(r->wbw, b4, sizeof(b4)));
    }
    pb_rs_fact(set, NULL, "zpool_iostat.series", pb_buf_str(&series));
    pb_buf_release(&series);
    char *v = pb_xasprintf("%zu samples of 1 s%s", io.nsamples,
                           from ? "; the means leave out the first (since "
                                  "the import)"
                                : "");
    pb_rs_fact(set, NULL, "zpool_iostat", v);
    free(v);
    pb_iostat_release(&io);
}

static const char *const arc_keys[] = {
    "hits", "misses", "demand_data_hits", "demand_data_misses",
    "demand_metadata_hits", "demand_metadata_misses", "prefetch_data_hits",
    "prefetch_data_misses", "l2_hits", "l2_misses", NULL};

int pb_run_arc_verdict(const struct pb_kstat *before,
                       const struct pb_kstat *after, int reads, char *buf,
                       size_t n, double *ratio)
{
    double h0, h1, m0, m1;
    *ratio = NAN;
    buf[0] = '\0';
    if (!pb_kstat_get(before, "demand_data_hits", &h0) ||
        !pb_kstat_get(after, "demand_data_hits", &h1) ||
        !pb_kstat_get(before, "demand_data_misses", &m0) ||
        !pb_kstat_get(after, "demand_data_misses", &m1))
        return 0;
    double h = h1 - h0, m = m1 - m0;
    if (h + m <= 0)
        return 0;
    *ratio = 100 * h / (h + m);
    /* a read cell whose demand data reads came from the ARC: at least
     * 90% hits over a number of reads that means something */
    if (!reads || *ratio < 90 || h + m < 100)
        return 0;
    snprintf(buf, n, "ARC demand data hit ratio %.1f%% (%.0f hits, %.0f "
             "misses): the reads measured the ARC, not the pool",
             *ratio, h, m);
    return 1;
}

static void arc_store(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                      int reads, struct pb_resultset *set)
{
    if (!tr->have_arc)
        return; /* the run's facts say "arcstats: absent (...)" */
    if (!t->have_arc || !t->have_arc1) {
        pb_rs_fact(set, NULL, "arc", "arcstats could not be read");
        return;
    }
    char num[64];
    for (size_t i = 0; arc_keys[i]; i++) {
        double a, b;
        if (!pb_kstat_get(&t->arc0, arc_keys[i], &a) ||
            !pb_kstat_get(&t->arc1, arc_keys[i], &b))
            continue;
        char *k = pb_xasprintf("arc.delta.%s", arc_keys[i]);
        pb_rs_fact(set, NULL, k, pb_fmt_num(b - a, num, sizeof(num)));
        free(k);
    }
    char why[256];
    double ratio;
    if (pb_run_arc_verdict(&t->arc0, &t->arc1, reads, why, sizeof(why),
                           &ratio))
        pb_rs_fact(set, NULL, "flag.served_from_arc", why);
    if (!isnan(ratio)) {
        add_metric(set, "arc_hit_ratio", "%", ratio);
        t->arc_ratio = ratio;
        t->have_ratio = 1;
    }
}

void pb_run_tel_store(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                      int reads, struct pb_resultset *set)
{
    if (!set)
        return;
    iostat_store(t, set);
    arc_store(t, tr, reads, set);
}
