/* What makes a fio test and a configuration, and what ties the jobs of
 * one file together: the options that are no part of a test, the options
 * whose values differ between the file's jobs (named in the tests), the
 * job names measured more than once (repeats, held for the fold of
 * fio_repeats.c), the label of a run of jobs and its target. Rules:
 * docs/formats.md, "Repeats, clones, groups, tests and configurations in
 * fio output". */
#include "ingest/fio/fio_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== options that are no part of the test ==== */

/* Names, targets, output and logs, reporting and fio's own command
 * options: they change what fio prints or where it writes, not the I/O
 * it does. Sorted (bsearch). */
static const char *const excluded[] = {
    "alloc-size",
    "allow_file_create",
    "allow_mounted_write",
    "append-terse",
    "aux-path",
    "bandwidth-log",
    "bwavgtime",
    "clat_percentiles",
    "client",
    "cmdhelp",
    "daemonize",
    "debug",
    "description",
    "directory",
    "disable_bw_measurement",
    "disable_clat",
    "disable_lat",
    "disable_slat",
    "enghelp",
    "eta",
    "eta-interval",
    "eta-newline",
    "exec_postrun",
    "exec_prerun",
    "filename",
    "filename_format",
    "group_reporting",
    "help",
    "hostname",
    "idle-prof",
    "inflate-log",
    "iopsavgtime",
    "kb_base",
    "lat_percentiles",
    "latency-log",
    "log_alternate_epoch",
    "log_alternate_epoch_clock_id",
    "log_avg_msec",
    "log_compression",
    "log_compression_cpus",
    "log_hist_coarseness",
    "log_hist_msec",
    "log_max_value",
    "log_offset",
    "log_prio",
    "log_store_compressed",
    "log_unix_epoch",
    "max-jobs",
    "minimal",
    "name",
    "new_group",
    "output",
    "output-format",
    "parse-only",
    "per_job_logs",
    "percentile_list",
    "pidfile",
    "port",
    "readonly",
    "remote-config",
    "section",
    "server",
    "showcmd",
    "significant_figures",
    "slat_percentiles",
    "stats",
    "status-interval",
    "stonewall",
    "terse-version",
    "trigger",
    "trigger-file",
    "trigger-remote",
    "trigger-timeout",
    "unified_rw_reporting",
    "unique_filename",
    "unit_base",
    "version",
    "wait_for",
    "wait_for_previous",
    "warnings-fatal",
    "write_bw_log",
    "write_hist_log",
    "write_iolog",
    "write_iops_log",
    "write_lat_log",
};

static void file_flag(struct pb_fio_file *f, const char *key,
                      const char *value);

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* key is a job option that does not change the workload (names,
 * targets, output, logs, reporting; fio's own command options): no test
 * parameter. */
static int opt_excluded(const char *key)
{
    return bsearch(&key, excluded, sizeof(excluded) / sizeof(excluded[0]),
                   sizeof(excluded[0]), cmp_key) != NULL;
}

void pb_fio_flag_ambiguous(struct pb_fio_file *f, long line, size_t n,
                           const char *what, const char *name,
                           const char *lacking, const char *one)
{
    char *v = pb_xasprintf("line %ld: %zu %s of job '%s' without %s: "
                           "numjobs clones or repeated runs cannot be told "
                           "apart; stored %s by %s",
                           line, n, what, name, lacking, one, one);
    file_flag(f, "flag.ambiguous_jobs", v);
    free(v);
}

int pb_fio_key_in(const char *key, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++)
        if (!strcmp(keys[i], key))
            return 1;
    return 0;
}

/* ==== options shown in a test's name ==== */

int pb_ingest_fio_name_shows(const char *key)
{
    static const char *const keys[] = {
        "rw",        "readwrite",  "bs",    "blocksize", "iodepth",
        "numjobs",   "rwmixread",  "rwmixwrite", "fsync", "direct",
        "buffered",  NULL};
    return pb_fio_key_in(key, keys);
}

void pb_ingest_fio_name_extra(struct pb_buf *b, const char *key,
                              const char *value)
{
    pb_buf_printf(b, " %s=%s", key, value);
}

/* ==== options whose values differ between the jobs ==== */

/* One option: the value of the first job that set it, how many jobs set
 * it, whether another value was seen. */
struct vopt {
    char *key, *value;
    size_t jobs;
    int differs;
};

struct pb_fio_vary {
    struct vopt *v;
    size_t n, cap;
    size_t *slot; /* index + 1; 0: free; a power of 2 */
    size_t nslot;
    size_t njobs;
    size_t job_seen; /* this job's mark, to count a key once a job */
    size_t *mark;    /* per option: the last job that set it */
    size_t capmark;
};

static uint64_t hash_key(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

static size_t *vslot(struct pb_fio_vary *v, const char *key)
{
    size_t mask = v->nslot - 1;
    for (size_t i = (size_t)hash_key(key) & mask;; i = (i + 1) & mask)
        if (!v->slot[i] || !strcmp(v->v[v->slot[i] - 1].key, key))
            return &v->slot[i];
}

static void vgrow(struct pb_fio_vary *v)
{
    if (v->nslot && (v->n + 1) * 2 <= v->nslot)
        return;
    size_t ns = v->nslot ? v->nslot * 2 : 64;
    free(v->slot);
    v->slot = pb_xcalloc(ns, sizeof(*v->slot));
    v->nslot = ns;
    for (size_t i = 0; i < v->n; i++)
        *vslot(v, v->v[i].key) = i + 1;
}

/* A job sets more options than fio has: the rest are not read (a
 * hostile file stays cheap). */
#define MAX_JOB_OPTS 512

struct vjob {
    struct pb_fio_vary *v;
    size_t k;
};

static void vary_opt(void *arg, const char *key, const char *value)
{
    struct vjob *j = arg;
    struct pb_fio_vary *v = j->v;
    if (!key || !value || j->k++ >= MAX_JOB_OPTS || opt_excluded(key))
        return;
    char *norm = pb_ingest_norm_param(key, value);
    vgrow(v);
    size_t *s = vslot(v, key);
    if (!*s) {
        PB_GROW(v->v, v->cap, v->n + 1);
        PB_GROW(v->mark, v->capmark, v->n + 1);
        struct vopt *o = &v->v[v->n];
        o->key = pb_xstrdup(key);
        o->value = norm;
        o->jobs = 0;
        o->differs = 0;
        v->mark[v->n] = 0;
        *s = ++v->n;
    } else {
        struct vopt *o = &v->v[*s - 1];
        if (strcmp(o->value, norm) != 0)
            o->differs = 1;
        free(norm);
    }
    if (v->mark[*s - 1] != v->job_seen) {
        v->mark[*s - 1] = v->job_seen;
        v->v[*s - 1].jobs++;
    }
}

static void vary_free(struct pb_fio_vary *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        free(v->v[i].key);
        free(v->v[i].value);
    }
    free(v->v);
    free(v->slot);
    free(v->mark);
    free(v);
}

/* The option key differs between the file's jobs. */
static int vary_has(const struct pb_fio_vary *v, const char *key)
{
    if (!v || !v->nslot)
        return 0;
    size_t mask = v->nslot - 1;
    for (size_t i = (size_t)hash_key(key) & mask;; i = (i + 1) & mask) {
        size_t s = v->slot[i];
        if (!s)
            return 0;
        if (!strcmp(v->v[s - 1].key, key))
            return v->v[s - 1].differs;
    }
}

/* ==== the file ==== */

void pb_fio_file_init(struct pb_fio_file *f, const char *path)
{
    memset(f, 0, sizeof(*f));
    f->base = pb_ingest_path_part(path, 0);
    if (!f->base || !*f->base) {
        free(f->base);
        f->base = pb_xstrdup("fio");
    }
    pb_sn_init(&f->names);
    f->vary = pb_xcalloc(1, sizeof(*f->vary));
    f->held = pb_resultset_new();
}

void pb_fio_file_release(struct pb_fio_file *f)
{
    free(f->base);
    for (size_t i = 0; i < f->nhosts; i++) {
        free(f->hosts[i].host);
        free(f->hosts[i].target);
    }
    free(f->hosts);
    pb_sn_release(&f->names);
    vary_free(f->vary);
    pb_resultset_free(f->held);
    pb_fio_fold_free(f->fold);
    for (size_t i = 0; i < f->nflags; i++) {
        free(f->flags[i].key);
        free(f->flags[i].value);
    }
    free(f->flags);
    memset(f, 0, sizeof(*f));
}

size_t pb_fio_meas(size_t run, size_t rep)
{
    /* distinct for every (run, rep) of a file: a file holds fewer than
     * 2^40 runs, a run fewer than 2^24 blocks of one job */
    return (run << 24) ^ rep;
}

static struct pb_fio_host *host_of(const struct pb_fio_file *f,
                                   const char *host)
{
    for (size_t i = 0; i < f->nhosts; i++)
        if (pb_fio_same_str(f->hosts[i].host, host))
            return &f->hosts[i];
    return NULL;
}

void pb_fio_file_count(struct pb_fio_file *f, const char *name, size_t meas,
                       const char *host, const char *target)
{
    pb_sn_count_run(&f->names, name, strlen(name), meas);
    struct pb_fio_host *h = host_of(f, host);
    if (!h) {
        PB_GROW(f->hosts, f->caphosts, f->nhosts + 1);
        h = &f->hosts[f->nhosts++];
        h->host = host ? pb_xstrdup(host) : NULL;
        h->target = target ? pb_xstrdup(target) : NULL;
        h->multi = 0;
    } else if (!pb_fio_same_str(h->target, target)) {
        h->multi = 1;
    }
}

void pb_fio_file_options(struct pb_fio_file *f, pb_fio_each_fn each,
                         const void *ctx)
{
    struct pb_fio_vary *v = f->vary;
    v->njobs++;
    v->job_seen = v->njobs;
    struct vjob j = {v, 0};
    if (each)
        each(ctx, vary_opt, &j);
}

void pb_fio_file_counted(struct pb_fio_file *f,
                         const char *(*gopt)(const void *gctx,
                                             const char *key),
                         const void *gctx)
{
    struct pb_fio_vary *v = f->vary;
    for (size_t i = 0; i < v->n; i++) {
        struct vopt *o = &v->v[i];
        if (o->differs || o->jobs == v->njobs)
            continue;
        /* the jobs that do not set it have the global value, or none */
        const char *g = gopt ? gopt(gctx, o->key) : NULL;
        char *norm = g ? pb_ingest_norm_param(o->key, g) : NULL;
        o->differs = !norm || strcmp(norm, o->value) != 0;
        free(norm);
    }
    f->counted = 1;
}

static struct pb_fio_tgt *tgt_of(const struct pb_fio_inv *iv,
                                  const char *target)
{
    for (size_t i = 0; i < iv->nt; i++)
        if (pb_fio_same_str(iv->t[i].target, target))
            return &iv->t[i];
    return NULL;
}

void pb_fio_inv_add(struct pb_fio_inv *iv, const char *name,
                    const char *target, uint64_t sig)
{
    struct pb_fio_tgt *t = tgt_of(iv, target);
    if (!t) {
        PB_GROW(iv->t, iv->capt, iv->nt + 1);
        t = &iv->t[iv->nt++];
        t->target = target ? pb_xstrdup(target) : NULL;
        t->name = pb_xstrdup(name);
        t->multi = 0;
    } else if (t->name && strcmp(t->name, name) != 0) {
        t->multi = 1;
    }
    if (target || iv->split)
        return;
    /* jobs of other names whose targets are unknown: the same options
     * may be the same workload on other targets */
    for (size_t i = 0; i < iv->nsigs; i++)
        if (iv->sigs[i].sig == sig) {
            iv->split |= strcmp(iv->sigs[i].name, name) != 0;
            return;
        }
    PB_GROW(iv->sigs, iv->capsigs, iv->nsigs + 1);
    iv->sigs[iv->nsigs].sig = sig;
    iv->sigs[iv->nsigs++].name = pb_xstrdup(name);
}

int pb_fio_inv_base(const struct pb_fio_inv *iv, const char *target)
{
    const struct pb_fio_tgt *t = tgt_of(iv, target);
    return t && t->multi && !iv->split;
}

void pb_fio_inv_done(struct pb_fio_inv *iv)
{
    for (size_t i = 0; i < iv->nt; i++) {
        free(iv->t[i].name);
        iv->t[i].name = NULL;
    }
    for (size_t i = 0; i < iv->nsigs; i++)
        free(iv->sigs[i].name);
    free(iv->sigs);
    iv->sigs = NULL;
    iv->nsigs = iv->capsigs = 0;
}

void pb_fio_inv_release(struct pb_fio_inv *iv)
{
    pb_fio_inv_done(iv);
    for (size_t i = 0; i < iv->nt; i++)
        free(iv->t[i].target);
    free(iv->t);
    memset(iv, 0, sizeof(*iv));
}

static void sig_opt(void *arg, const char *key, const char *value)
{
    uint64_t *h = arg;
    if (!key || !value || opt_excluded(key))
        return;
    char *norm = pb_ingest_norm_param(key, value);
    uint64_t x = hash_key(key) * 31 + hash_key(norm);
    *h += x * 0x9e3779b97f4a7c15ULL + (x >> 29);
    free(norm);
}

uint64_t pb_fio_opts_sig(pb_fio_each_fn each, const void *ctx)
{
    uint64_t h = 0;
    if (each)
        each(ctx, sig_opt, &h);
    return h;
}

void pb_fio_file_job(const struct pb_fio_file *f, struct pb_fio_job *j,
                     int base, const char *host, const char *target,
                     size_t meas)
{
    j->meas = meas;
    const struct pb_fio_host *h = host_of(f, host);
    j->target = h && h->multi ? target : NULL;
    j->label = base ? f->base : j->name;
    j->label_auto = base;
    struct pb_sn_name *e =
        pb_sn_get((struct pb_sn_table *)&f->names, j->name, strlen(j->name),
                  0);
    j->held = e && e->nruns > 1;
}

struct pb_resultset *pb_fio_job_set(struct pb_resultset *set,
                                    const struct pb_fio_file *f,
                                    const struct pb_fio_job *j)
{
    return f && j->held ? f->held : set;
}

/* ==== the name's extra options ==== */

/* The keys --ignore-param leaves out by default (how long or how much a
 * run did: render's pb_render_default_ignore): tests of one name that
 * differ in them stay one name, so that they can be compared as one. */
static int said_by_report(const char *key)
{
    return !strcmp(key, "runtime") || !strcmp(key, "size") ||
           !strcmp(key, "ramp_time") || !strcmp(key, "time_based");
}

void pb_fio_name_extras(const struct pb_fio_file *f, const struct pb_kv *kv,
                        size_t n, struct pb_buf *name)
{
    if (!f)
        return;
    for (size_t i = 0; i < n; i++)
        if (!pb_ingest_fio_name_shows(kv[i].key) &&
            !said_by_report(kv[i].key) && vary_has(f->vary, kv[i].key))
            pb_ingest_fio_name_extra(name, kv[i].key, kv[i].value);
}

/* Record flag fact key = value for the end of the file (the first value
 * of a key is kept, the others counted). */
static void file_flag(struct pb_fio_file *f, const char *key,
                      const char *value)
{
    if (f->mute)
        return;
    /* the first of each key is said; the others are counted */
    for (size_t i = 0; i < f->nflags; i++)
        if (!strcmp(f->flags[i].key, key)) {
            f->flags[i].n++;
            return;
        }
    PB_GROW(f->flags, f->capflags, f->nflags + 1);
    f->flags[f->nflags].key = pb_xstrdup(key);
    f->flags[f->nflags].value = pb_xstrdup(value);
    f->flags[f->nflags++].n = 1;
}

void pb_fio_file_flags(struct pb_fio_file *f, struct pb_resultset *set)
{
    if (f->label_file) { /* list configs says where a label came from */
        char *o = pb_xasprintf("file: fio jobs of several names on one "
                               "target (%s)", f->base);
        pb_rs_fact(set, NULL, "label_origin", o);
        free(o);
    }
    f->label_file = 0;
    for (size_t i = 0; i < f->nflags; i++) {
        const struct pb_fio_flag *x = &f->flags[i];
        char *v = x->n > 1 ? pb_xasprintf("%s; and %zu more", x->value,
                                          x->n - 1)
                           : pb_xstrdup(x->value);
        pb_rs_fact(set, NULL, x->key, v);
        free(v);
        free(x->key);
        free(x->value);
    }
    f->nflags = 0;
}

/* ==== a job's test parameters beyond the named ones ==== */

/* The options the test name's own code reads (fio_common.c), aliases
 * included. */
static int core_key(const char *key)
{
    static const char *const keys[] = {
        "blocksize", "bs",       "buffered",  "direct",  "fsync",
        "iodepth",   "ioengine", "numjobs",   "readwrite", "runtime",
        "rw",        "rwmixread", "rwmixwrite", "size",   "sync",
        "timeout",   NULL};
    return pb_fio_key_in(key, keys);
}

struct extra {
    struct pb_resultset *set;
    struct pb_kv *kv;
    size_t n, cap, seen;
};

int pb_ingest_fio_test_option(const char *key)
{
    return !core_key(key) && !opt_excluded(key);
}

static void extra_opt(void *arg, const char *key, const char *value)
{
    struct extra *x = arg;
    if (!key || !value || x->seen++ >= MAX_JOB_OPTS ||
        !pb_ingest_fio_test_option(key))
        return;
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->kv[i].key, key))
            return; /* the first value given wins (the job's own) */
    char *norm = pb_ingest_norm_param(key, value);
    PB_GROW(x->kv, x->cap, x->n + 1);
    x->kv[x->n].key = pb_rs_str(x->set, key);
    x->kv[x->n].value = pb_rs_str(x->set, norm);
    x->kv[x->n].origin = NULL;
    x->n++;
    free(norm);
}

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const struct pb_kv *)a)->key,
                  ((const struct pb_kv *)b)->key);
}

size_t pb_fio_extra_params(struct pb_resultset *set,
                           const struct pb_fio_opts *o, struct pb_kv **kv,
                           size_t n, size_t *cap)
{
    if (!o->each)
        return n;
    struct extra x = {set, NULL, 0, 0, 0};
    o->each(o->each_ctx, extra_opt, &x);
    if (x.n)
        qsort(x.kv, x.n, sizeof(*x.kv), cmp_kv);
    PB_GROW(*kv, *cap, n + x.n + 1);
    if (x.n)
        memcpy(*kv + n, x.kv, x.n * sizeof(*x.kv));
    free(x.kv);
    return n + x.n;
}

/* ==== configurations ==== */

void pb_fio_job_config(struct pb_resultset *set, struct pb_fio_file *f,
                       struct pb_fio_job *j)
{
    const char *label = j->label ? j->label : j->name;
    j->config = pb_rs_config_target(set, label, f ? j->target : NULL);
    if (j->label_auto) {
        set->configs[j->config].label_auto = 1;
        if (f && !f->mute)
            f->label_file = 1;
    }
}

/* ==== a group_reporting entry that merged different jobs ==== */

void pb_fio_merged_test(struct pb_resultset *set, struct pb_fio_file *f,
                        struct pb_fio_job *j)
{
    struct pb_buf name = PB_BUF_INIT;
    char gid[32], members[32];
    snprintf(gid, sizeof(gid), "%ld", j->groupid);
    snprintf(members, sizeof(members), "%ld", j->members);
    pb_buf_printf(&name, "fio group %s (", gid);
    if (j->members > 0)
        pb_buf_printf(&name, "%ld jobs: ", j->members);
    if (j->merged_names)
        pb_buf_puts(&name, j->merged_names);
    else
        pb_buf_printf(&name, "%s and others", j->name);
    pb_buf_putc(&name, ')');
    struct pb_kv kv[3];
    size_t n = 0;
    kv[n++] = (struct pb_kv){"group", gid, NULL};
    if (j->members > 0)
        kv[n++] = (struct pb_kv){"jobs", members, NULL};
    kv[n++] = (struct pb_kv){"merged",
                             j->merged_names ? j->merged_names : j->name,
                             NULL};
    j->test = pb_rs_test_kv(set, pb_buf_str(&name), "fio", kv, n);
    j->rwmask = 0;
    pb_buf_release(&name);
    /* several jobs: not the first one's configuration, the file's */
    if (f) {
        j->label = f->base;
        j->label_auto = 1;
    }
    pb_fio_job_config(set, f, j);
}

size_t pb_fio_group_names(const struct pb_fio_hdr *(*hdr)(const void *ctx,
                                                           size_t i),
                          const void *ctx, size_t n, long g,
                          struct pb_buf *names)
{
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        const struct pb_fio_hdr *h = hdr(ctx, i);
        if (!h || h->groupid != g)
            continue;
        int dup = 0;
        for (size_t k = 0; k < i && !dup; k++) {
            const struct pb_fio_hdr *e = hdr(ctx, k);
            dup = e && e->groupid == g && !strcmp(e->name, h->name);
        }
        if (dup)
            continue;
        pb_buf_printf(names, "%s%s", got ? ", " : "", h->name);
        got++;
    }
    return got;
}

void pb_fio_mark_merged(struct pb_resultset *set, struct pb_fio_file *f,
                        struct pb_fio_job *j, long g, long members,
                        const char *names, const char *why,
                        const char *what)
{
    j->merged = 1;
    j->groupid = g;
    j->members = members;
    j->merged_names = names ? pb_rs_str(set, names) : NULL;
    j->merged_why = pb_rs_str(set, why);
    char *v = pb_xasprintf("group %ld: one %s named '%s' for several jobs "
                           "(group_reporting): %s",
                           g, what, j->name, why);
    file_flag(f, "flag.merged_group", v);
    free(v);
}

int pb_fio_merged_io(const struct pb_fio_job *j, const char *rw,
                     const char *bs, char *why, size_t cap)
{
    char low[32];
    size_t k = 0;
    for (; rw && rw[k] && rw[k] != ':' && k + 1 < sizeof(low); k++)
        low[k] = (char)(rw[k] >= 'A' && rw[k] <= 'Z' ? rw[k] + 32 : rw[k]);
    low[k] = '\0';
    unsigned mask = pb_fio_rw_mask(low);
    for (int d = 0; d < D_MIXED && mask; d++)
        if (pb_fio_has_io(&j->st, d) && !(mask & (1u << d))) {
            snprintf(why, cap, "%s I/O in a job whose options say rw=%s",
                     pb_fio_dir_name[d], low);
            return 1;
        }
    if (!bs)
        return 0;
    char part[3][64];
    pb_fio_split_bs(bs, part);
    for (int d = 0; d < D_MIXED; d++) {
        const struct pb_fio_dstat *x = &j->st.d[d];
        double b = pb_fio_int_opt(part[d]);
        if (!(b > 0) || !pb_fio_has_io(&j->st, d) || !(x->ios > 0) ||
            !(x->bytes > 0))
            continue;
        /* fixed blocks average to bs; 10% leaves room for sizes fio
         * rounds (fio 2.x KiB) and short last blocks */
        double avg = x->bytes / x->ios;
        if (avg > b * 1.1 || avg < b * 0.9) {
            char a[32], s[32];
            snprintf(why, cap,
                     "%s blocks of %s bytes on average in a job whose "
                     "options say bs=%s",
                     pb_fio_dir_name[d], pb_fmt_num(avg, a, sizeof(a)),
                     pb_fmt_num(b, s, sizeof(s)));
            return 1;
        }
    }
    return 0;
}
