/* fio logs: what a log is from its name (NAME_bw.N.log), which run it
 * belongs to (a fio JSON output in the same folder whose job wrote it),
 * and the series and summary results it gives (docs/formats.md,
 * "fio logs: time series"). */
#define _GNU_SOURCE
#include "ingest/fio/fio_log_int.h"
#include "ingest/fio/fio_json_int.h"
#include "common/pb_file.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== names ==== */

static const struct {
    const char *sfx;
    enum pb_log_kind kind;
} kinds[] = {
    /* longest first: _clat_hist before _clat, _clat/_slat before _lat */
    {"_clat_hist", PB_LOG_HIST}, {"_clat", PB_LOG_CLAT},
    {"_slat", PB_LOG_SLAT},      {"_lat", PB_LOG_LAT},
    {"_iops", PB_LOG_IOPS},      {"_bw", PB_LOG_BW},
};

const char *pb_log_kind_str(enum pb_log_kind k)
{
    switch (k) {
    case PB_LOG_BW: return "bw";
    case PB_LOG_IOPS: return "iops";
    case PB_LOG_LAT: return "lat";
    case PB_LOG_CLAT: return "clat";
    case PB_LOG_SLAT: return "slat";
    case PB_LOG_HIST: return "clat_hist";
    default: return "unknown";
    }
}

static int ends_with(const char *s, size_t n, const char *sfx)
{
    size_t m = strlen(sfx);
    return n >= m && !memcmp(s + n - m, sfx, m);
}

void pb_log_name_parse(const char *path, struct pb_log_name *out)
{
    memset(out, 0, sizeof(*out));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (ends_with(base, n, ".gz"))
        n -= 3;
    if (!ends_with(base, n, ".log"))
        return;
    n -= 4;
    /* .N: fio numbers the logs of a job's clones from 1 */
    size_t d = n;
    while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9')
        d--;
    if (d < n && d > 0 && base[d - 1] == '.' && n - d < 9) {
        out->jobno = atoi(base + d);
        n = d - 1;
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (ends_with(base, n, kinds[i].sfx)) {
            size_t plen = n - strlen(kinds[i].sfx);
            if (plen == 0 || plen >= sizeof(out->prefix))
                return;
            memcpy(out->prefix, base, plen);
            out->prefix[plen] = '\0';
            out->kind = kinds[i].kind;
            return;
        }
}

/* ==== linking to the run ==== */

struct link {
    char *json_path;     /* the fio JSON it was linked to, or NULL */
    int ambiguous;       /* several JSON files name this log */
    const struct pb_resultset *run; /* that JSON parsed (the cache's) */
    char *jobname;       /* the job in it */
    int fio2;            /* fio 2.x: latencies in us */
    long avg_msec, hist_msec;
    int max_value;       /* log_max_value=1 */
    struct jdir *dir;    /* the cached folder it holds (a reference) */
};

static const char *opt_str(json_t *opts, const char *key)
{
    json_t *v = opts ? json_object_get(opts, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The option that names this kind of log. */
static const char *log_option(enum pb_log_kind k)
{
    switch (k) {
    case PB_LOG_BW: return "write_bw_log";
    case PB_LOG_IOPS: return "write_iops_log";
    case PB_LOG_HIST: return "write_hist_log";
    default: return "write_lat_log";
    }
}

/* Does job (its options merged over the global ones) write this log? fio
 * names it after the option's value, or after the job when the value is
 * empty. */
static int job_writes(json_t *job, json_t *global, const struct pb_log_name *n)
{
    json_t *opts = json_object_get(job, "job options");
    const char *key = log_option(n->kind);
    const char *v = opt_str(opts, key);
    if (!v)
        v = opt_str(global, key);
    const char *name = json_string_value(json_object_get(job, "jobname"));
    if (v && *v) { /* fio's prefix may be a path: DIR/raw/c001 */
        const char *b = strrchr(v, '/');
        return !strcmp(b ? b + 1 : v, n->prefix);
    }
    return v && name && !strcmp(name, n->prefix);
}

static long opt_long(json_t *job, json_t *global, const char *key)
{
    const char *v = opt_str(json_object_get(job, "job options"), key);
    if (!v)
        v = opt_str(global, key);
    return v ? atol(v) : 0;
}

/* ---- the files of a folder, each read once per ingest ----
 *
 * Every log of a folder looks at every other file in it for its run: 200
 * logs beside 50 fio JSON files would parse 10,000 JSON files. The cache
 * keeps what each file of the folder was (its JSON, or not a fio JSON)
 * under its identity (device, inode, size, mtime): a file that changes is
 * read again, so the links are those of reading every file each time.
 * The folder is listed for each log as before. Ingest workers share it
 * under one mutex; a few folders are kept, the oldest unused dropped. */

#define JDIR_KEEP 4

struct jfile {
    char *name;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    json_t *root;              /* link_view of it; NULL: not a fio JSON */
    struct pb_resultset *run;  /* parsed on the first link */
    int run_tried;
};

struct jdir {
    char *path;
    struct jfile *f;
    size_t n, cap;
    /* runs of files that changed: a log may still be adopting one */
    struct pb_resultset **stale;
    size_t nstale, capstale;
    int refs;
    unsigned long used;
};

static struct {
    pthread_mutex_t mu;
    struct jdir **d;
    size_t n, cap;
    unsigned long tick;
} cache = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

static void jfile_clear(struct jfile *f)
{
    json_decref(f->root);
    pb_resultset_free(f->run);
    f->root = NULL;
    f->run = NULL;
    f->run_tried = 0;
}

static void jdir_free(struct jdir *d)
{
    for (size_t i = 0; i < d->n; i++) {
        jfile_clear(&d->f[i]);
        free(d->f[i].name);
    }
    for (size_t i = 0; i < d->nstale; i++)
        pb_resultset_free(d->stale[i]);
    free(d->stale);
    free(d->f);
    free(d->path);
    free(d);
}

/* The cached folder of path, a new one when absent (a reference: give it
 * back with jdir_put). Under cache.mu. */
static struct jdir *jdir_get(const char *path)
{
    for (size_t i = 0; i < cache.n; i++)
        if (!strcmp(cache.d[i]->path, path)) {
            cache.d[i]->refs++;
            cache.d[i]->used = ++cache.tick;
            return cache.d[i];
        }
    /* room: drop the least recently used folders nobody holds */
    while (cache.n >= JDIR_KEEP) {
        size_t old = cache.n;
        for (size_t i = 0; i < cache.n; i++)
            if (!cache.d[i]->refs &&
                (old == cache.n || cache.d[i]->used < cache.d[old]->used))
                old = i;
        if (old == cache.n)
            break;
        jdir_free(cache.d[old]);
        cache.d[old] = cache.d[--cache.n];
    }
    struct jdir *d = pb_xcalloc(1, sizeof(*d));
    d->path = pb_xstrdup(path);
    d->refs = 1;
    d->used = ++cache.tick;
    PB_GROW(cache.d, cache.cap, cache.n + 1);
    cache.d[cache.n++] = d;
    return d;
}

static void jdir_put(struct jdir *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&cache.mu);
    d->refs--;
    pthread_mutex_unlock(&cache.mu);
}

/* What linking reads of a fio JSON: its version, and the log options and
 * names of its jobs and global options (a JSON of many jobs and
 * percentiles kept whole, per file of a large folder, would be large). */
static json_t *link_view(json_t *root)
{
    static const char *const keys[] = {
        "write_bw_log",   "write_iops_log", "write_lat_log", "write_hist_log",
        "log_avg_msec",   "log_hist_msec",  "log_max_value"};
    json_t *v = json_object();
    json_t *ver = json_object_get(root, "fio version");
    if (ver)
        json_object_set(v, "fio version", ver);
    json_t *g = json_object_get(root, "global options");
    json_t *jobs = json_object_get(root, "jobs"), *vjobs = json_array();
    json_t *vg = g ? json_object() : NULL;
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        json_t *x = json_object_get(g, keys[k]);
        if (vg && x)
            json_object_set(vg, keys[k], x);
    }
    if (vg)
        json_object_set_new(v, "global options", vg);
    size_t i;
    json_t *job;
    json_array_foreach(jobs, i, job)
    {
        json_t *vj = json_object();
        json_t *name = json_object_get(job, "jobname");
        if (name)
            json_object_set(vj, "jobname", name);
        json_t *o = json_object_get(job, "job options");
        if (o) {
            json_t *vo = json_object();
            for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
                json_t *x = json_object_get(o, keys[k]);
                if (x)
                    json_object_set(vo, keys[k], x);
            }
            json_object_set_new(vj, "job options", vo);
        }
        json_array_append_new(vjobs, vj);
    }
    json_object_set_new(v, "jobs", vjobs);
    return v;
}

/* What linking reads of path (link_view) when it is a fio JSON (sniffed
 * from its first 8 KiB before it is read whole); NULL otherwise. */
static json_t *load_json(const char *path, const struct stat *st)
{
    if (!S_ISREG(st->st_mode) || st->st_size > 64 * 1024 * 1024)
        return NULL;
    char head[8192];
    struct pb_err oe = {0};
    int fd = pb_open_input(path, &oe);
    ssize_t hn = fd >= 0 ? read(fd, head, sizeof(head)) : 0;
    if (fd >= 0)
        close(fd);
    if (hn <= 0 || pb_parser_fio_json.sniff(head, (size_t)hn) < 50)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, &len, &e) != PB_OK)
        return NULL;
    const char *brace = memchr(buf, '{', len);
    json_error_t je;
    json_t *root = brace ? json_loadb(brace, len - (size_t)(brace - buf),
                                      JSON_DISABLE_EOF_CHECK, &je)
                         : NULL;
    free(buf);
    json_t *v = root ? link_view(root) : NULL;
    json_decref(root);
    return v;
}

/* The file name of folder d (path its full path), read when it is new or
 * changed; NULL when it cannot be looked at. Under cache.mu. */
static struct jfile *jfile_get(struct jdir *d, const char *name,
                               const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    struct jfile *f = NULL;
    for (size_t i = 0; i < d->n && !f; i++)
        if (!strcmp(d->f[i].name, name))
            f = &d->f[i];
    if (f && f->dev == st.st_dev && f->ino == st.st_ino &&
        f->size == st.st_size && f->mtime.tv_sec == st.st_mtim.tv_sec &&
        f->mtime.tv_nsec == st.st_mtim.tv_nsec)
        return f;
    if (!f) {
        PB_GROW(d->f, d->cap, d->n + 1);
        f = &d->f[d->n++];
        memset(f, 0, sizeof(*f));
        f->name = pb_xstrdup(name);
    }
    if (f->run) { /* changed since: another log may hold its run */
        PB_GROW(d->stale, d->capstale, d->nstale + 1);
        d->stale[d->nstale++] = f->run;
        f->run = NULL;
    }
    jfile_clear(f);
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->size = st.st_size;
    f->mtime = st.st_mtim;
    f->root = load_json(path, &st);
    return f;
}

/* The run of f parsed, once (NULL when fio-json rejects it). */
static const struct pb_resultset *jfile_run(struct jfile *f, const char *path)
{
    if (f->run_tried)
        return f->run;
    f->run_tried = 1;
    char *buf = NULL;
    size_t len = 0;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, &len, &e) != PB_OK)
        return NULL;
    struct pb_resultset *run = pb_resultset_new();
    struct pb_err pe = {0};
    if (pb_fio_json_read(path, buf, len, run, &pe) == PB_OK)
        f->run = run;
    else
        pb_resultset_free(run);
    free(buf);
    return f->run;
}

/* When the fio JSON f (at path) names this log: the job in lk. 1 when
 * linked. Under cache.mu. */
static int try_json(struct jfile *f, const char *path,
                    const struct pb_log_name *n, struct link *lk)
{
    json_t *root = f->root;
    json_t *jobs = json_object_get(root, "jobs");
    json_t *global = json_object_get(root, "global options");
    size_t i;
    json_t *job;
    json_array_foreach(jobs, i, job)
    {
        if (!job_writes(job, global, n))
            continue;
        if (lk->json_path) {
            lk->ambiguous = 1;
            break;
        }
        const char *ver = json_string_value(json_object_get(root, "fio version"));
        lk->fio2 = ver && !strncmp(ver, "fio-2.", 6);
        lk->jobname = pb_xstrdup(
            json_string_value(json_object_get(job, "jobname")));
        lk->avg_msec = opt_long(job, global, "log_avg_msec");
        lk->hist_msec = opt_long(job, global, "log_hist_msec");
        lk->max_value = opt_long(job, global, "log_max_value") != 0;
        lk->json_path = pb_xstrdup(path);
        lk->run = jfile_run(f, path);
        return 1;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Look for the run of this log in its folder (files in name order). */
static void find_run(const char *path, const struct pb_log_name *n,
                     struct link *lk)
{
    if (!strcmp(path, "-"))
        return;
    char *dir = pb_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    const char *d = slash ? dir : ".";
    DIR *dp = opendir(d);
    if (!dp) {
        free(dir);
        return;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || ends_with(e->d_name, l, ".log") ||
            ends_with(e->d_name, l, ".log.gz"))
            continue;
        PB_GROW(names, cap, nn + 1);
        names[nn++] = pb_xstrdup(e->d_name);
    }
    closedir(dp);
    if (nn)
        qsort(names, nn, sizeof(*names), cmp_str);
    pthread_mutex_lock(&cache.mu);
    lk->dir = jdir_get(d);
    for (size_t i = 0; i < nn; i++) {
        if (!lk->ambiguous) {
            char *full = pb_xasprintf("%s/%s", d, names[i]);
            struct jfile *f = jfile_get(lk->dir, names[i], full);
            if (f && f->root)
                try_json(f, full, n, lk);
            free(full);
        }
        free(names[i]);
    }
    pthread_mutex_unlock(&cache.mu);
    free(names);
    free(dir);
}

/* lk->run stays the cache's: only the folder reference is given back. */
static void link_release(struct link *lk)
{
    free(lk->json_path);
    free(lk->jobname);
    jdir_put(lk->dir);
}

/* ==== into the set ==== */

/* Copy the config, test and host of the run's result for `job` (or the
 * first of jobname) into set; returns the job name to use. */
static const char *adopt(struct pb_resultset *set, const struct link *lk,
                         const struct pb_log_name *n, size_t *config,
                         size_t *test, const char **host)
{
    const struct pb_resultset *run = lk->run;
    char *want = n->jobno > 0 ? pb_xasprintf("%s#%d", lk->jobname,
                                             n->jobno - 1)
                              : pb_xstrdup(lk->jobname);
    const struct pb_result *hit = NULL;
    for (size_t i = 0; i < run->nresults && !hit; i++)
        if (run->results[i].job && !strcmp(run->results[i].job, want))
            hit = &run->results[i];
    for (size_t i = 0; i < run->nresults && !hit; i++)
        if (run->results[i].job && !strcmp(run->results[i].job, lk->jobname))
            hit = &run->results[i];
    free(want);
    if (!hit)
        return NULL;
    const struct pb_config *c = &run->configs[hit->config];
    *config = pb_rs_config(set, c->label);
    set->configs[*config].label_is_name = c->label_is_name;
    for (size_t j = 0; j < c->nparams; j++)
        pb_rs_config_param_origin(set, *config, c->params[j].key,
                                  c->params[j].value, c->params[j].origin);
    const struct pb_test *t = &run->tests[hit->test];
    *test = pb_rs_test_kv(set, t->name, t->tool, t->params, t->nparams);
    *host = hit->host ? pb_rs_str(set, hit->host) : NULL;
    if (run->tool_version)
        set->tool_version = pb_rs_str(set, run->tool_version);
    return pb_rs_str(set, hit->job);
}

/* Summary results of one series; returns the index of NAME_log_mean. */
static size_t summaries(struct pb_resultset *set, size_t config, size_t test,
                        const char *host, const char *job, const char *name,
                        const char *unit, int direction,
                        const struct pb_log_dir *d, int exact, double scale)
{
    double mean = 0, m2 = 0, mn = INFINITY, mx = -INFINITY;
    long long n = 0;
    if (exact) { /* every logged value */
        n = d->n;
        mean = d->mean * scale;
        m2 = d->m2 * scale * scale;
        mn = d->vmin * scale;
        mx = d->vmax * scale;
    } else {
        for (size_t i = 0; i < d->npts; i++) {
            double x = d->pts[i].value;
            n++;
            double delta = x - mean;
            mean += delta / (double)n;
            m2 += delta * (x - mean);
            mn = fmin(mn, x);
            mx = fmax(mx, x);
        }
    }
    double sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
    char *m = pb_xasprintf("%s_log_mean", name);
    size_t first = set->nresults;
    struct pb_result *r = pb_rs_add(set, config, test, host, job, m, unit,
                                    direction, mean);
    r->samples = n;
    free(m);
    const struct {
        const char *sfx, *unit;
        int dir;
        double v;
    } more[] = {
        {"min", unit, direction, mn},
        {"max", unit, direction, mx},
        {"stdev", unit, PB_DIR_LOWER, sd},
        {"cv", "", PB_DIR_LOWER, mean != 0 ? sd / fabs(mean) : 0},
    };
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
        m = pb_xasprintf("%s_log_%s", name, more[i].sfx);
        r = pb_rs_add(set, config, test, host, job, m, more[i].unit,
                      more[i].dir, more[i].v);
        r->samples = n;
        free(m);
    }
    return first;
}

static void scale_points(struct pb_log_dir *d, double k)
{
    if (k == 1)
        return;
    for (size_t i = 0; i < d->npts; i++) {
        struct pb_point *p = &d->pts[i];
        p->value *= k;
        p->min *= k;
        p->max *= k;
        p->p50 *= k;
        p->p90 *= k;
        p->p95 *= k;
        p->p99 *= k;
        p->p999 *= k;
    }
}

int pb_log_finish(struct pb_log *lg, struct pb_resultset *set,
                  struct pb_err *err)
{
    const struct pb_log_name *n = &lg->name;
    int any = 0;
    for (int i = 0; i < 3; i++)
        any |= lg->dir[i].used;
    if (!any)
        return pb_err_set(err, PB_EINPUT, lg->path, 0, 0,
                          "%s: no log lines", lg->hist ? "fio-hist-log"
                                                       : "fio-log");
    struct link lk = {0};
    find_run(lg->path, n, &lk);
    size_t config = 0, test = 0;
    const char *host = NULL, *job = NULL;
    if (lk.run && !lk.ambiguous)
        job = adopt(set, &lk, n, &config, &test, &host);
    if (!job) {
        config = pb_rs_config(set, n->prefix);
        char *tn = pb_xasprintf("fio %s", n->prefix);
        test = pb_rs_test(set, tn, "fio");
        free(tn);
        char *j = n->jobno > 1 ? pb_xasprintf("%s#%d", n->prefix, n->jobno - 1)
                               : pb_xstrdup(n->prefix);
        job = pb_rs_str(set, j);
        free(j);
    }
    if (lk.ambiguous)
        pb_rs_fact(set, NULL, "fio_log_run",
                   "ambiguous: several fio JSON files in its folder name "
                   "this log; not linked");
    else if (lk.json_path && job)
        pb_rs_fact(set, NULL, "fio_log_run", lk.json_path);
    pb_rs_fact(set, NULL, "fio_log", pb_log_kind_str(n->kind));

    static const char *const dn[] = {"read", "write", "trim"};
    int lat = n->kind == PB_LOG_LAT || n->kind == PB_LOG_CLAT ||
              n->kind == PB_LOG_SLAT || n->kind == PB_LOG_HIST;
    /* canonical units: bw logs are KiB/s, latencies ns (us before fio 3) */
    double k = n->kind == PB_LOG_BW ? 1024.0 : lat && lk.fio2 ? 1000.0 : 1.0;
    if (n->kind == PB_LOG_HIST && lg->hist_group == 19)
        k = 1000.0;
    const char *unit = n->kind == PB_LOG_BW     ? "B/s"
                       : n->kind == PB_LOG_IOPS ? "ops/s"
                                                : "ns";
    int direction = lat ? PB_DIR_LOWER : PB_DIR_HIGHER;
    for (int i = 0; i < 3; i++) {
        struct pb_log_dir *d = &lg->dir[i];
        if (!d->used)
            continue;
        const char *kind;
        long width;
        int exact = 0;
        if (lg->hist) {
            kind = "hist";
            width = lk.hist_msec;
        } else if (lg->mode == 1) {
            kind = lk.max_value ? "max" : "avg";
            width = lk.avg_msec;
        } else {
            kind = "io";
            width = (long)d->width;
            pb_log_dir_points(d, !lat, n->kind == PB_LOG_BW);
            exact = lat;
            if (n->kind == PB_LOG_BW) /* bytes: no KiB */
                k = 1.0;
        }
        scale_points(d, k);
        char *name = pb_xasprintf("%s_%s", dn[i], pb_log_kind_str(n->kind));
        size_t r = summaries(set, config, test, host, job, name, unit,
                             direction, d, exact, k);
        struct pb_series *s = pb_rs_series(set, r, name, unit, kind, width);
        free(name);
        s->pts = d->pts;
        s->npts = d->npts;
        s->cappts = d->cappts;
        d->pts = NULL;
        d->npts = d->cappts = 0;
        if (n->kind == PB_LOG_BW && lg->mode == 2)
            k = 1024.0;
    }
    link_release(&lk);
    return PB_OK;
}

int pb_ingest_empty_log(const char *path, struct pb_err *err)
{
    struct pb_log_name n;
    pb_log_name_parse(path, &n);
    if (n.kind == PB_LOG_UNKNOWN)
        return 0;
    pb_err_set(err, PB_ESKIP, path, 0, 0,
               "empty fio %s log, no samples (fio writes one for a log it "
               "has nothing for, e.g. slat of a synchronous engine)",
               pb_log_kind_str(n.kind));
    return 1;
}
