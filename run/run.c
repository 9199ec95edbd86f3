/* The run: walks the cell matrix (pools reused while only dataset or fio
 * values change), runs each cell, hands the raw outputs to ingest/, stores
 * them (repeats folded into mean, standard error and sample count), and
 * records cells that cannot run or fail. Also the progress line, --resume
 * (a cell that runs again replaces its earlier failure record), on_failure
 * and what happens on SIGINT/SIGTERM. */
#define _GNU_SOURCE
#include "run/preflight_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct run {
    const struct pb_run_plan *p;
    const struct pb_run_opts *o;
    struct pb_run_summary *sum;
    struct pb_err *err;
    struct pb_run_exec x;
    struct pb_run_zfs z;
    enum pb_run_impl impl;
    struct pb_run_caps caps; /* what this ZFS and fio can do */
    struct pb_run_pre pre;   /* ... and which cells lack it */
    int stop_on_failure;     /* the plan's on_failure, or --on-failure */
    size_t seq;              /* 1-based position of the cell in the run */
    char run_id[64];
    char dir[PATH_MAX - 64], raw[PATH_MAX], mnt[PATH_MAX];
    int width; /* digits of cell numbers in file names */

    char **done; /* source paths already in the database (--resume) */
    size_t ndone, capdone;
    struct keyrec { /* ... with their run_cell_key fact, by source id */
        long long id;
        char *path;
        char key[17];
    } *keys;
    size_t nkeys, capkeys;
    char cell_key[17]; /* of the cell being run: a fact of its sources */
    struct failrec { /* skip and failure records in the database, with */
        long long id;  /* the cell's source path (--resume); id 0 once */
        char *path;    /* forgotten */
        char sha256[65];
    } *fails;
    size_t nfails, capfails;

    struct pb_resultset *facts; /* host facts, moved to the first store */
    struct pb_run_telrun tr;    /* module parameters, arcstats, cache */
    char ashift[16];            /* effective ashift of the pool (zdb -C) */
    int facts_stored;
    int warned_props;

    size_t pool_combo;  /* pool combination of z, or (size_t)-1 */
    char pool_fail[512]; /* why the current pool combination cannot run */
    int zvol_ok;         /* 0 unknown, 1 yes, -1 no (zvol_why) */
    char zvol_why[512];

    double t0;
    size_t ran;       /* cells that ran in this process */
    double ran_secs;  /* their total time */
    int fatal;        /* storing failed or a pool is not ours: stop */
    size_t gone_cell; /* the cell during which ZFS stopped answering */
    int stop;         /* a cell failed and the plan says on_failure = stop */
    struct pb_run_stall stall; /* fio's I/O progress (run/stall.c) */
    int stalled;               /* ... what the watch last found */
};

/* ==== small helpers ==== */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fmt_dur(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void sfmt(char *buf, size_t n, const char *fmt, ...) PB_PRINTF(3, 4);
/* snprintf for paths and messages that may be cut short on purpose. */
static void sfmt(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

static int write_file(const char *path, const char *buf, size_t len)
{
    FILE *fp = pb_run_fopen_out(path, 0);
    if (!fp)
        return -1;
    size_t w = fwrite(buf, 1, len, fp);
    int rc = fclose(fp);
    return w == len && rc == 0 ? 0 : -1;
}

static void warn(struct run *r, const char *fmt, ...) PB_PRINTF(2, 3);
static void warn(struct run *r, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (r->o->progress)
        fprintf(r->o->progress, "poolbench: warning: %s\n", msg);
    pb_run_note(&r->x, "warning: %s", msg);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int on_source(void *ctx, const struct pb_db_source *s)
{
    struct run *r = ctx;
    PB_GROW(r->done, r->capdone, r->ndone + 1);
    r->done[r->ndone++] = pb_xstrdup(s->path);
    PB_GROW(r->keys, r->capkeys, r->nkeys + 1);
    r->keys[r->nkeys].id = s->id;
    r->keys[r->nkeys].path = pb_xstrdup(s->path);
    r->keys[r->nkeys++].key[0] = '\0';
    if (s->format && !strcmp(s->format, "poolbench-run")) {
        PB_GROW(r->fails, r->capfails, r->nfails + 1);
        struct failrec *f = &r->fails[r->nfails++];
        f->id = s->id;
        f->path = pb_xstrdup(s->path);
        snprintf(f->sha256, sizeof(f->sha256), "%s",
                 s->sha256 ? s->sha256 : "");
    }
    return 0;
}

static void cell_path(const struct run *r, size_t i, long repeat,
                      const char *suffix, char *buf, size_t n);

static int cmp_keyrec(const void *a, const void *b)
{
    const struct keyrec *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int on_fact(void *ctx, const struct pb_db_triple *t)
{
    struct run *r = ctx;
    if (!t->b || strcmp(t->b, "run_cell_key") || !t->c)
        return 0;
    struct keyrec k = {.id = t->id};
    struct keyrec *hit = bsearch(&k, r->keys, r->nkeys, sizeof(k),
                                 cmp_keyrec);
    if (hit)
        snprintf(hit->key, sizeof(hit->key), "%s", t->c);
    return 0;
}

/* --resume: cells stored under their number whose parameters are not the
 * plan's any more (a key stored, and another now) are named; the run is
 * refused (results of other parameters would stand in for them). */
static int resume_check(struct run *r)
{
    struct pb_buf bad = PB_BUF_INIT, first = PB_BUF_INIT;
    size_t nbad = 0;
    for (size_t i = 0; i < r->p->ncells; i++) {
        char path[PATH_MAX], key[17];
        cell_path(r, i, 0, "fio.json", path, sizeof(path));
        pb_run_cell_key(r->p, i, key);
        for (size_t k = 0; k < r->nkeys; k++) {
            if (!r->keys[k].key[0] || strcmp(r->keys[k].path, path) ||
                !strcmp(r->keys[k].key, key))
                continue;
            if (nbad < 20)
                pb_buf_printf(&bad, "%s%zu", nbad ? ", " : "", i + 1);
            if (!nbad) {
                struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
                pb_run_plan_describe(r->p, i, &label, &test);
                pb_buf_printf(&first, "%s | %s", pb_buf_str(&label),
                              pb_buf_str(&test));
                pb_buf_release(&label);
                pb_buf_release(&test);
            }
            nbad++;
            break;
        }
    }
    if (nbad)
        pb_err_set(r->err, PB_EUSAGE, r->p->path, 0, 0,
                   "--resume: the plan changed since %zu stored cell%s "
                   "ran: cell%s %s%s %s other parameters now (cell %s is "
                   "'%s'); run it into a new -o folder, or restore the plan",
                   nbad, nbad == 1 ? "" : "s", nbad == 1 ? "" : "s",
                   pb_buf_str(&bad), nbad > 20 ? ", ..." : "",
                   nbad == 1 ? "has" : "have",
                   pb_buf_str(&bad), pb_buf_str(&first));
    pb_buf_release(&bad);
    pb_buf_release(&first);
    return nbad ? -1 : 0;
}

static int is_done(const struct run *r, const char *path)
{
    return r->ndone &&
           bsearch(&path, r->done, r->ndone, sizeof(char *), cmp_str);
}

/* Raw file of cell i (0-based): "DIR/raw/c007.fio.json", or with repeats
 * "DIR/raw/c007-r2.fio.json"; repeat 0 gives the path the cell is stored
 * under ("c007-r*.fio.json" for the folded repeats). */
static void cell_path(const struct run *r, size_t i, long repeat,
                      const char *suffix, char *buf, size_t n)
{
    if (r->p->repeats == 1 || !strcmp(suffix, "zfs.txt") ||
        !strcmp(suffix, "skipped.txt"))
        sfmt(buf, n, "%s/c%0*zu.%s", r->raw, r->width, i + 1, suffix);
    else if (repeat == 0)
        sfmt(buf, n, "%s/c%0*zu-r*.%s", r->raw, r->width, i + 1, suffix);
    else
        sfmt(buf, n, "%s/c%0*zu-r%ld.%s", r->raw, r->width, i + 1,
                 repeat, suffix);
}

/* ==== storing ==== */

/* Store set; PB_OK or PB_EDUP (already stored), else -1 (the run stops).
 * The run's facts go with its first measured source and with every skip
 * or failure record (`record`): a record a resumed cell forgets later
 * does not take the run's facts with it. */
static int store(struct run *r, struct pb_resultset *set, int record)
{
    if (!r->o->db)
        return PB_OK;
    int with_facts = r->facts && (record || !r->facts_stored);
    if (r->cell_key[0])
        pb_rs_fact(set, NULL, "run_cell_key", r->cell_key);
    if (with_facts)
        for (size_t i = 0; i < r->facts->nfacts; i++)
            pb_rs_fact(set, r->facts->facts[i].host, r->facts->facts[i].key,
                       r->facts->facts[i].value);
    struct pb_err e = {0};
    int rc = pb_db_store(r->o->db, set, NULL, &e);
    if (rc == PB_OK && !record)
        r->facts_stored = 1;
    if (rc == PB_OK || rc == PB_EDUP) {
        if (rc == PB_EDUP && with_facts) {
            /* the facts were not written with this set: take them off */
            set->nfacts -= r->facts->nfacts;
        }
        return rc;
    }
    *r->err = e;
    r->fatal = 1;
    return -1;
}

/* --resume: the skip and failure records of cell i stored by earlier runs
 * go once the cell has a newer outcome: its results, or a record of
 * another reason (keep_sha, the new record, stays). */
static void forget_records(struct run *r, size_t i, const char *keep_sha)
{
    if (!r->nfails || !r->o->db || r->x.dry_run)
        return;
    char path[PATH_MAX];
    cell_path(r, i, 0, "skipped.txt", path, sizeof(path));
    for (size_t k = 0; k < r->nfails && !r->fatal; k++) {
        struct failrec *f = &r->fails[k];
        if (!f->id || strcmp(f->path, path) ||
            (keep_sha && !strcmp(f->sha256, keep_sha)))
            continue;
        struct pb_err e = {0};
        if (pb_db_forget_source(r->o->db, f->id, &e) != PB_OK) {
            *r->err = e;
            r->fatal = 1;
            return;
        }
        pb_run_note(&r->x, "cell %zu/%zu: its earlier record %s (source "
                    "%lld) is replaced", i + 1, r->p->ncells, f->path,
                    f->id);
        f->id = 0;
    }
}

/* A cell that cannot run (`failed` 0: known not to work here) or whose
 * commands failed (1): one NULL-valued "cell_skipped" result with the
 * reason, under the cell's config and test, so the report can show it.
 * A failure ends the run when the plan says on_failure = stop. */
static void record_skip(struct run *r, const struct pb_run_cell *c,
                        const char *label, const char *test,
                        const char *why, int failed)
{
    r->sum->skipped++;
    if (failed) {
        r->sum->failed++;
        if (r->stop_on_failure && !r->x.dry_run) {
            r->stop = 1;
            r->sum->failed_cell = c->index + 1;
            snprintf(r->sum->failed_why, sizeof(r->sum->failed_why), "%s",
                     why);
        }
    }
    if (r->o->progress && !r->x.dry_run)
        fprintf(r->o->progress, "cell %zu/%zu %s %s %s: %s\n",
                c->index + 1, r->p->ncells, label, test,
                failed ? "failed" : "skipped", why);
    pb_run_note(&r->x, "%s cell %zu/%zu (%s | %s): %s",
                failed ? "failed" : "skip", c->index + 1, r->p->ncells,
                label, test, why);
    if (r->x.dry_run || !r->o->db)
        return;
    char path[PATH_MAX];
    cell_path(r, c->index, 0, "skipped.txt", path, sizeof(path));
    char *text = pb_xasprintf("poolbench run %s, cell %zu of %zu\nconfig: "
                              "%s\ntest: %s\nskipped: %s\n", r->p->name,
                              c->index + 1, r->p->ncells, label, test, why);
    if (write_file(path, text, strlen(text)) != 0)
        warn(r, "cannot write '%s': %s", path, strerror(errno));

    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, path);
    set->format = "poolbench-run";
    set->size = strlen(text);
    pb_sha256_hex(text, strlen(text), set->sha256);
    free(text);
    size_t ci = pb_rs_config(set, label);
    struct pb_kv *kv;
    size_t nkv;
    pb_run_cell_config(r->p, c, &kv, &nkv);
    for (size_t i = 0; i < nkv; i++) {
        char *v = pb_ingest_norm_param(kv[i].key, kv[i].value);
        pb_rs_config_param(set, ci, kv[i].key, v);
        free(v);
    }
    pb_run_kv_free(kv, nkv);
    size_t ti = pb_rs_test(set, test, "fio");
    pb_run_fio_params(r->p, c->combo[PB_RUN_FIO], set, ti, 0);
    pb_rs_add_null(set, ci, ti, NULL, NULL, "cell_skipped", "", PB_DIR_HIGHER,
                   why);
    if (store(r, set, 1) >= 0)
        forget_records(r, c->index, set->sha256);
    pb_resultset_free(set);
}

/* fio's test name leaves out options such as buffer_compress_percentage:
 * when the plan sweeps them they are appended, or two cells would look
 * like one. */
static void patch_tests(struct run *r, size_t fio_combo,
                        struct pb_resultset *set)
{
    struct pb_buf extra = PB_BUF_INIT;
    pb_run_fio_extra(r->p, fio_combo, &extra);
    if (extra.len) {
        for (size_t t = 0; t < set->ntests; t++) {
            char *name = pb_xasprintf("%s%s", set->tests[t].name,
                                      pb_buf_str(&extra));
            set->tests[t].name = pb_rs_str(set, name);
            free(name);
            pb_run_fio_params(r->p, fio_combo, set, t, 1);
        }
    }
    pb_buf_release(&extra);
}

static int same(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return !strcmp(a, b);
}

static const struct pb_result *find_like(const struct pb_resultset *dst,
                                         const struct pb_resultset *src,
                                         const struct pb_result *r)
{
    for (size_t i = 0; i < dst->nresults; i++) {
        const struct pb_result *q = &dst->results[i];
        if (same(q->metric, r->metric) && same(q->job, r->job) &&
            same(q->host, r->host) && same(q->unit, r->unit) &&
            same(dst->configs[q->config].label,
                 src->configs[r->config].label) &&
            same(dst->tests[q->test].name, src->tests[r->test].name))
            return q;
    }
    return NULL;
}

/* Fold the repeats of a cell into one set: per result the mean, its
 * standard error, the number of samples and the values themselves (in
 * repeat order, the sample table). */
static struct pb_resultset *fold(struct pb_resultset **sets, size_t n,
                                 const char *path, const char *sha,
                                 size_t size)
{
    struct pb_resultset *out = pb_resultset_new();
    const struct pb_resultset *s0 = sets[0];
    out->path = pb_rs_str(out, path);
    out->format = s0->format;
    out->tool_version = pb_rs_str(out, s0->tool_version);
    snprintf(out->sha256, sizeof(out->sha256), "%s", sha);
    out->size = size;
    for (size_t i = 0; i < s0->nfacts; i++)
        pb_rs_fact(out, s0->facts[i].host, s0->facts[i].key,
                   s0->facts[i].value);
    double *vals = NULL; /* one result's values over the repeats */
    size_t capv = 0;
    for (size_t k = 0; k < n; k++) {
        const struct pb_resultset *s = sets[k];
        for (size_t i = 0; i < s->nresults; i++) {
            const struct pb_result *r = &s->results[i];
            if (find_like(out, s, r))
                continue;
            const struct pb_config *cf = &s->configs[r->config];
            const struct pb_test *te = &s->tests[r->test];
            size_t ci = pb_rs_config(out, cf->label);
            for (size_t j = 0; j < cf->nparams; j++)
                pb_rs_config_param(out, ci, cf->params[j].key,
                                   cf->params[j].value);
            size_t ti = pb_rs_test(out, te->name, te->tool);
            for (size_t j = 0; j < te->nparams; j++)
                pb_rs_test_param(out, ti, te->params[j].key,
                                 te->params[j].value);
            double sum = 0, sq = 0;
            long cnt = 0;
            PB_GROW(vals, capv, n);
            for (size_t m = 0; m < n; m++) {
                const struct pb_result *q = find_like(sets[m], s, r);
                if (q && q->has_value) {
                    sum += q->value;
                    vals[cnt++] = q->value;
                }
            }
            if (cnt == 0) {
                pb_rs_add_null(out, ci, ti, r->host, r->job, r->metric,
                               r->unit, r->direction, r->null_reason);
                continue;
            }
            double mean = sum / (double)cnt;
            for (size_t m = 0; m < n; m++) {
                const struct pb_result *q = find_like(sets[m], s, r);
                if (q && q->has_value)
                    sq += (q->value - mean) * (q->value - mean);
            }
            struct pb_result *o = pb_rs_add(out, ci, ti, r->host, r->job,
                                            r->metric, r->unit, r->direction,
                                            mean);
            o->samples = cnt;
            if (cnt > 1) {
                o->has_stderr = 1;
                o->stderr_ = sqrt(sq / (double)(cnt - 1)) / sqrt((double)cnt);
            }
            pb_rs_samples(out, o, vals, (size_t)cnt);
        }
    }
    free(vals);
    return out;
}

/* zfs-fuse has no logicalused: derive it from used x compressratio, and
 * actual_savings from it, each flagged by a fact, unless the parser
 * already gave them. */
static void derive_logicalused(struct run *r, struct pb_resultset *set)
{
    const struct pb_result *used = NULL, *ratio = NULL;
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *q = &set->results[i];
        if (!strcmp(q->metric, "logicalused"))
            return;
        if (!strcmp(q->metric, "used") && q->has_value)
            used = q;
        if (!strcmp(q->metric, "compressratio") && q->has_value)
            ratio = q;
    }
    if (!used || !ratio)
        return;
    struct pb_result u = *used;
    double lu = used->value * ratio->value;
    char *ds = pb_run_ds_name(r->p);
    char key[300];
    pb_rs_add(set, u.config, u.test, u.host, u.job, "logicalused", "B",
              PB_DIR_HIGHER, lu);
    snprintf(key, sizeof(key), "%s:logicalused", ds);
    pb_rs_fact(set, NULL, key, "derived: used x compressratio (no "
               "logicalused property in this ZFS)");
    if (u.value > 0) {
        pb_rs_add(set, u.config, u.test, u.host, u.job, "actual_savings",
                  "ratio", PB_DIR_HIGHER, lu / u.value);
        snprintf(key, sizeof(key), "%s:actual_savings", ds);
        pb_rs_fact(set, NULL, key, "derived: logicalused/used");
    }
    free(ds);
}

/* ==== commands of a cell ==== */

/* While fio writes: stop it when the pool is nearly full. */
/* The watch of fio while it runs: the pool nearly full, or fio's I/O
 * stalled (run/stall.c; 2: the pool's I/O is suspended). */
static int fio_watch(void *ctx, char *why, size_t n)
{
    struct run *r = ctx;
    int s = pb_run_stall_check(&r->stall, r->x.child, r->p,
                               r->o->stall_timeout, why, n);
    if (s) {
        r->stalled = s;
        return 1;
    }
    return pb_run_pool_nearly_full(r->mnt, r->p->pool, why, n);
}

/* After a watched fio: a full vdev file system under a stalled fio, or a
 * fio that cannot be killed, means a suspended pool: nothing more can
 * run on it, nor can it be destroyed (the summary says what to do). */
static void after_fio(struct run *r, const struct pb_run_res *res)
{
    if (r->stalled == 2 || res->stuck)
        r->z.suspended = 1;
    if (res->stuck)
        warn(r, "fio does not exit (blocked in the kernel on the pool's "
             "I/O): it ends when the pool's I/O resumes or ZFS stops");
    r->stalled = 0;
}

static void fio_common(struct run *r, const struct pb_run_cell *c,
                       struct pb_run_argv *a)
{
    pb_run_argv_add(a, "fio");
    pb_run_argv_add(a, "--name=poolbench");
    if (r->p->zvol) {
        char *dev = pb_run_zvol_dev(r->p);
        pb_run_argv_addf(a, "--filename=%s", dev);
        free(dev);
    } else {
        pb_run_argv_addf(a, "--directory=%s/pb", r->mnt);
    }
    const struct pb_run_section *f = &r->p->sect[PB_RUN_FIO];
    for (size_t i = 0; i < f->n; i++)
        pb_run_argv_addf(a, "--%s=%s", f->ax[i].key,
                         pb_run_axis_value(r->p, PB_RUN_FIO,
                                           c->combo[PB_RUN_FIO], i));
}

/* Lay the data out before measuring, with the plan's buffer contents (so
 * the compressibility is the one asked for). */
static int layout(struct run *r, const struct pb_run_cell *c, char *why,
                  size_t n)
{
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    if (!r->p->zvol) {
        fio_common(r, c, &a);
        pb_run_argv_add(&a, "--create_only=1");
    } else {
        static const char *const content[] = {
            "buffer_compress_percentage", "buffer_compress_chunk",
            "refill_buffers", "scramble_buffers", "buffer_pattern",
            "dedupe_percentage", "zero_buffers", "size", NULL};
        char *dev = pb_run_zvol_dev(r->p);
        pb_run_argv_add(&a, "fio");
        pb_run_argv_add(&a, "--name=layout");
        pb_run_argv_addf(&a, "--filename=%s", dev);
        pb_run_argv_add(&a, "--rw=write");
        pb_run_argv_add(&a, "--bs=1M");
        free(dev);
        for (size_t i = 0; content[i]; i++) {
            const char *v = pb_run_value(r->p, PB_RUN_FIO,
                                         c->combo[PB_RUN_FIO], content[i]);
            if (v)
                pb_run_argv_addf(&a, "--%s=%s", content[i], v);
        }
    }
    pb_run_argv_add(&a, "--output-format=json");
    int rc = pb_run_cmd(&r->x, (const char *const *)a.v,
                        PB_RUN_CAPTURE | PB_RUN_STOPPABLE | PB_RUN_WATCH,
                        &res);
    after_fio(r, &res);
    pb_run_argv_release(&a);
    if (res.stopped[0])
        rc = rc ? rc : -1;
    if (rc != 0 && !pb_run_stopped()) {
        char w[300];
        snprintf(why, n, "fio could not lay out the data: %s",
                 pb_run_res_why(&res, w, sizeof(w)));
    }
    pb_run_res_release(&res);
    return rc ? -1 : 0;
}

/* Page cache and ARC: sync, drop_caches, export/import. */
static int drop_caches(struct run *r, char *why, size_t n)
{
    struct pb_run_res res = {0};
    const char *sync_argv[] = {"sync", NULL};
    pb_run_cmd(&r->x, sync_argv, 0, &res);
    pb_run_res_release(&res);
    if (r->x.dry_run) {
        fprintf(r->x.dry, "# echo 3 > /proc/sys/vm/drop_caches\n");
    } else {
        FILE *fp = fopen("/proc/sys/vm/drop_caches", "w");
        int ok = fp && fputs("3\n", fp) >= 0;
        if (fp && fclose(fp) != 0)
            ok = 0;
        if (r->x.log)
            fprintf(r->x.log, "# echo 3 > /proc/sys/vm/drop_caches  # %s\n",
                    ok ? "done" : strerror(errno));
        if (!ok)
            warn(r, "cannot drop the page cache: %s", strerror(errno));
    }
    return pb_run_pool_cycle(&r->z, why, n);
}

/* Progress on stderr: "cell i/N <label> <test> elapsed 0:42 eta 3:10". */
static void progress(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test, long rep)
{
    if (!r->o->progress || r->x.dry_run)
        return;
    double el = now_s() - r->t0;
    size_t left = r->p->ncells - c->index;
    double per = -1;
    if (r->ran)
        per = r->ran_secs / (double)r->ran;
    else {
        const char *rt = pb_run_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO],
                                      "runtime");
        double ns;
        if (rt && pb_parse_duration(rt, 1e9, &ns) == 0)
            per = (double)r->p->repeats * (ns / 1e9 + 4);
    }
    char e[32], t[32] = "?";
    fmt_dur(el, e, sizeof(e));
    if (per >= 0)
        fmt_dur(per * (double)left - (rep > 1 ? per * (double)(rep - 1) /
                                                    (double)r->p->repeats
                                              : 0),
                t, sizeof(t));
    fprintf(r->o->progress, "cell %zu/%zu %s %s", c->index + 1,
            r->p->ncells, label, test);
    if (r->p->repeats > 1)
        fprintf(r->o->progress, " repeat %ld/%ld", rep, r->p->repeats);
    fprintf(r->o->progress, " elapsed %s eta %s\n", e, t);
    fflush(r->o->progress);
}

/* The pool of a new pool combination: created, and zvol support probed
 * once per run. */
static int pool_up(struct run *r, const struct pb_run_cell *c)
{
    char why[512];
    size_t pc = c->combo[PB_RUN_POOL];
    if (pb_run_pool_create(&r->z, pc, why, sizeof(why)) != 0) {
        sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", why);
        return -1;
    }
    pb_run_tel_ashift(&r->x, r->p->pool, r->ashift, sizeof(r->ashift));
    if (r->p->zvol && r->zvol_ok == 0) {
        r->zvol_ok = pb_run_zvol_probe(&r->z, r->zvol_why,
                                       sizeof(r->zvol_why)) == 0
                         ? 1
                         : -1;
    }
    return 0;
}

static void pool_down(struct run *r)
{
    pb_run_ds_destroy(&r->z);
    struct pb_err e = {0};
    if (pb_run_pool_destroy(&r->z, &e) != 0) {
        if (!r->err->code)
            *r->err = e;
        r->fatal = 1;
    }
}

/* The state of the cell's dataset and pool after its repeats: `zfs get
 * -Hp all`, `zpool get all` and `zpool status` in one raw file, parsed by
 * ingest/ (zfs-props), which gives the dataset and pool dimensions too.
 * Returns the set (caller frees) or NULL. */
static struct pb_resultset *capture_props(struct run *r,
                                          const struct pb_run_cell *c,
                                          const struct pb_ingest_opts *io,
                                          char *hung, size_t hn)
{
    char path[PATH_MAX];
    cell_path(r, c->index, 0, "zfs.txt", path, sizeof(path));
    char *ds = pb_run_ds_name(r->p);
    const char *zget[] = {"zfs", "get", "-Hp", "all", ds, NULL};
    const char *pget[] = {"zpool", "get", "all", r->p->pool, NULL};
    const char *pstat[] = {"zpool", "status", r->p->pool, NULL};
    const char *const *cmds[] = {zget, pget, pstat};
    struct pb_buf all = PB_BUF_INIT;
    struct pb_run_res res = {0};
    struct pb_resultset *set = NULL;
    char w[200];
    /* a first line naming the cell: each file is a source of its own */
    pb_buf_printf(&all, "# poolbench run %s, cell %zu: %s\n", r->run_id,
                  c->index + 1, io->label);
    for (int k = 0; k < 3; k++) {
        if (pb_run_cmd(&r->x, cmds[k], PB_RUN_CAPTURE, &res) != 0) {
            if (res.timed_out && !*hung) /* a hung ZFS fails the cell */
                snprintf(hung, hn, "'%s %s %s' %s", cmds[k][0], cmds[k][1],
                         cmds[k][2], pb_run_res_why(&res, w, sizeof(w)));
            if (!r->x.dry_run)
                warn(r, "'%s %s' failed: %s", cmds[k][0], cmds[k][1],
                     pb_run_res_why(&res, w, sizeof(w)));
            continue;
        }
        pb_buf_add(&all, pb_buf_str(&res.out), res.out.len);
        if (all.len && all.s[all.len - 1] != '\n')
            pb_buf_putc(&all, '\n');
    }
    free(ds);
    pb_run_res_release(&res);
    if (r->x.dry_run) {
        pb_buf_release(&all);
        return NULL;
    }
    if (write_file(path, all.s, all.len) != 0)
        warn(r, "cannot write '%s': %s", path, strerror(errno));
    struct pb_err e = {0};
    if (pb_ingest_buffer(path, all.s, all.len, io, &set, &e) != PB_OK) {
        if (!r->warned_props)
            warn(r, "zfs properties not ingested (kept in %s): %s", path,
                 e.msg);
        r->warned_props = 1;
        set = NULL;
    } else {
        derive_logicalused(r, set);
    }
    pb_buf_release(&all);
    return set;
}

/* Give the fio set the dimensions zfs reported for the dataset (atime,
 * copies, ...) so that both sources share one config. */
static void share_dims(const struct pb_resultset *from,
                       struct pb_resultset *to)
{
    if (!from || !to || from->nconfigs == 0)
        return;
    const struct pb_config *src = &from->configs[0];
    for (size_t c = 0; c < to->nconfigs; c++)
        for (size_t i = 0; i < src->nparams; i++) {
            const struct pb_config *dst = &to->configs[c];
            int have = 0;
            for (size_t j = 0; j < dst->nparams && !have; j++)
                have = !strcmp(dst->params[j].key, src->params[i].key);
            if (!have)
                pb_rs_config_param(to, c, src->params[i].key,
                                   src->params[i].value);
        }
}

/* One cell on the current pool: dataset, repeats of layout + cache drop +
 * fio, properties, storing, dataset destroyed. */
static void run_cell(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test)
{
    char why[1024] = "";
    double t0 = now_s();
    struct pb_kv *kv;
    size_t nkv;
    pb_run_cell_config(r->p, c, &kv, &nkv);
    struct pb_ingest_opts io = {0};
    io.label = label;
    io.set = kv;
    io.nset = nkv;
    io.set_origin = r->p->path;
    long R = r->p->repeats;
    struct pb_resultset **sets = pb_xcalloc((size_t)R, sizeof(*sets));
    struct pb_resultset **logsets = NULL; /* fio logs of the repeats */
    size_t nlogs = 0, caplogs = 0;
    struct pb_buf all = PB_BUF_INIT; /* the repeats' bytes, for SHA-256 */
    struct pb_resultset *props = NULL;
    long got = 0;
    struct pb_run_repstop stop = {0};
    struct pb_run_tel tel = {0};
    struct pb_run_dsspace lay = {0};
    struct pb_buf fiocmd = PB_BUF_INIT, rawl = PB_BUF_INIT;
    char *dsname = pb_run_ds_name(r->p);
    int reads = pb_run_cell_reads(r->p, c->combo[PB_RUN_FIO]);
    tel.pid = -1;

    pb_run_note(&r->x, "cell %zu/%zu: %s | %s", c->index + 1, r->p->ncells,
                label, test);
    if (pb_run_ds_create(&r->z, c, why, sizeof(why)) != 0)
        goto skip;
    for (long rep = 1; rep <= R; rep++) {
        if (pb_run_stopped())
            goto out;
        progress(r, c, label, test, rep);
        if (layout(r, c, why, sizeof(why)) != 0)
            goto skip;
        if (pb_run_stopped())
            goto out;
        if (drop_caches(r, why, sizeof(why)) != 0) {
            /* the pool is in an unknown state: drop it, skip its cells */
            sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", why);
            goto skip;
        }
        if (pb_run_stopped())
            goto out;
        pb_run_layout_space(&r->x, dsname, &lay);
        char path[PATH_MAX], iopath[PATH_MAX];
        cell_path(r, c->index, rep, "fio.json", path, sizeof(path));
        cell_path(r, c->index, rep, "iostat.txt", iopath, sizeof(iopath));
        pb_buf_printf(&rawl, "%sraw/%s raw/%s", rawl.len ? " " : "",
                      strrchr(path, '/') + 1, strrchr(iopath, '/') + 1);
        struct pb_run_argv a = {0};
        fio_common(r, c, &a);
        pb_run_argv_add(&a, "--group_reporting=1");
        char logp[PATH_MAX]; /* raw/c001.fio.json -> raw/c001_bw.1.log */
        sfmt(logp, sizeof(logp), "%.*s", (int)(strlen(path) - 9), path);
        if (r->p->logs)
            pb_run_log_args(r->p, logp, &a);
        pb_run_argv_add(&a, "--output-format=json");
        pb_run_argv_addf(&a, "--output=%s", path);
        /* fio opens it as root and follows links: made here first */
        if (!r->x.dry_run && pb_run_out_fresh(path) != 0)
            warn(r, "cannot create '%s': %s", path, strerror(errno));
        pb_buf_reset(&fiocmd);
        pb_run_quote(&fiocmd, (const char *const *)a.v);
        struct pb_run_res res = {0};
        pb_run_tel_release(&tel);
        pb_run_tel_start(&tel, &r->tr, &r->x, r->p->pool, iopath);
        int rc = pb_run_cmd(&r->x, (const char *const *)a.v,
                            PB_RUN_STOPPABLE | PB_RUN_WATCH, &res);
        after_fio(r, &res);
        pb_run_tel_stop(&tel, &r->tr, &r->x);
        pb_run_argv_release(&a);
        if (res.stopped[0])
            rc = rc ? rc : -1;
        if (pb_run_stopped()) {
            pb_run_res_release(&res);
            goto out;
        }
        if (rc != 0) {
            char w[300];
            snprintf(why, sizeof(why), "fio failed: %s",
                     pb_run_res_why(&res, w, sizeof(w)));
            pb_run_res_release(&res);
            goto skip;
        }
        pb_run_res_release(&res);
        if (r->x.dry_run)
            continue;
        char *buf;
        size_t len;
        struct pb_err e = {0};
        if (pb_read_file(path, &buf, &len, &e) != PB_OK) {
            snprintf(why, sizeof(why), "fio output unreadable: %s", e.msg);
            goto skip;
        }
        if (pb_ingest_buffer(path, buf, len, &(struct pb_ingest_opts){
                                 .format = "fio-json",
                                 .label = label,
                                 .set = kv,
                                 .nset = nkv,
                                 .set_origin = r->p->path},
                             &sets[got], &e) != PB_OK) {
            sfmt(why, sizeof(why), "fio output not ingested (%s:%ld): %s",
                     path, e.line, e.msg);
            free(buf);
            goto skip;
        }
        patch_tests(r, c->combo[PB_RUN_FIO], sets[got]);
        if (r->p->logs) {
            char lw[400] = "";
            pb_run_logs_ingest(logp, &(struct pb_ingest_opts){
                                   .label = label,
                                   .set = kv,
                                   .nset = nkv,
                                   .set_origin = r->p->path},
                               sets[got], &logsets, &nlogs, &caplogs, lw,
                               sizeof(lw));
            if (*lw)
                warn(r, "cell %zu/%zu: fio log not ingested: %s",
                     c->index + 1, r->p->ncells, lw);
        }
        pb_run_tel_store(&tel, &r->tr, reads, sets[got]);
        pb_run_cache_check(r->p, c->combo[PB_RUN_FIO], &r->tr, sets[got]);
        pb_buf_add(&all, buf, len);
        free(buf);
        got++;
        if (pb_run_repeat_enough(r->p, sets, got, &stop))
            break;
    }
    /* zfs get after the last repeat, once the data is on the pool; when
     * that fails the fio results stand, without space figures, and the
     * pool (in an unknown state) is not used again */
    io.format = "zfs-props";
    if (pb_run_settle(&r->z, why, sizeof(why)) != 0) {
        sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", why);
        warn(r, "cell %zu/%zu: no zfs get: %s", c->index + 1, r->p->ncells,
             why);
        if (r->z.gone)
            goto skip;
        why[0] = '\0'; /* said; the cell's fio results stand */
    } else {
        props = capture_props(r, c, &io, why, sizeof(why));
        if (*why)
            goto skip;
    }
    pb_run_props_retest(props, test);
    pb_run_tel_set_ashift(props, r->ashift, r->p->pool);
    pb_run_compression_check(r->p, c->combo[PB_RUN_FIO], &lay, props);
    if (props) {
        char zp[PATH_MAX];
        cell_path(r, c->index, 0, "zfs.txt", zp, sizeof(zp));
        pb_buf_printf(&rawl, " raw/%s", strrchr(zp, '/') + 1);
    }
    pb_run_cell_facts(r->p, c, NULL, pb_buf_str(&rawl), props);
    if (props)
        store(r, props, 0);
    for (long k = 0; k < got; k++) {
        share_dims(props, sets[k]);
        pb_run_tel_set_ashift(sets[k], r->ashift, r->p->pool);
        pb_run_cell_facts(r->p, c, pb_buf_str(&fiocmd), pb_buf_str(&rawl),
                          sets[k]);
        pb_run_repeat_facts(r->p, &stop, sets[k]);
        if (r->p->order_random) {
            char seq[32];
            snprintf(seq, sizeof(seq), "%zu", r->seq);
            pb_rs_fact(sets[k], NULL, "cell_seq", seq);
        }
    }
    if (!r->x.dry_run && got > 0) {
        struct pb_resultset *set = sets[0];
        if (R > 1) {
            char path[PATH_MAX], sha[65];
            cell_path(r, c->index, 0, "fio.json", path, sizeof(path));
            pb_sha256_hex(all.s, all.len, sha);
            set = fold(sets, (size_t)got, path, sha, all.len);
        }
        if (store(r, set, 0) >= 0)
            forget_records(r, c->index, NULL);
        for (size_t k = 0; k < nlogs; k++) {
            /* the cell's configuration: the dimensions its fio set got */
            share_dims(props, logsets[k]);
            pb_run_tel_set_ashift(logsets[k], r->ashift, r->p->pool);
            pb_run_cell_facts(r->p, c, pb_buf_str(&fiocmd),
                              pb_buf_str(&rawl), logsets[k]);
            store(r, logsets[k], 0);
        }
        if (r->o->progress) {
            struct pb_buf h = PB_BUF_INIT;
            pb_run_headline(set, &tel, &h);
            fprintf(r->o->progress, "cell %zu/%zu %s %s: %s\n",
                    c->index + 1, r->p->ncells, label, test,
                    pb_buf_str(&h));
            fflush(r->o->progress);
            pb_buf_release(&h);
        }
        if (set != sets[0])
            pb_resultset_free(set);
    }
    r->sum->done++;
    r->ran++;
    r->ran_secs += now_s() - t0;
    goto out;
skip:
    if (!r->x.dry_run && !pb_run_zfs_answers(&r->z) &&
        !strstr(why, "ZFS stopped answering")) {
        size_t k = strlen(why);
        sfmt(why + k, sizeof(why) - k, " (ZFS stopped answering: %s)",
             r->z.gone_why);
    }
    if (!pb_run_stopped())
        record_skip(r, c, label, test, why, 1);
out:
    for (size_t k = 0; k < nlogs; k++)
        pb_resultset_free(logsets[k]);
    free(logsets);
    pb_run_tel_release(&tel);
    pb_buf_release(&fiocmd);
    pb_buf_release(&rawl);
    free(dsname);
    pb_run_ds_destroy(&r->z);
    for (long i = 0; i < R; i++)
        pb_resultset_free(sets[i]);
    free(sets);
    pb_resultset_free(props);
    pb_buf_release(&all);
    pb_run_kv_free(kv, nkv);
}

/* ==== preflight ==== */

static int preflight(struct run *r)
{
    struct pb_run_res res = {0};
    const char *list[] = {"zpool", "list", "-H", "-o", "name", NULL};
    int rc = pb_run_cmd(&r->x, list, PB_RUN_CAPTURE, &res);
    if (r->x.dry_run) {
        pb_run_res_release(&res);
        return 0;
    }
    char w[300];
    if (rc != 0) {
        pb_err_set(r->err, PB_ERUN, NULL, 0, 0,
                   "'zpool list' does not answer (%s); is ZFS%s usable?",
                   pb_run_res_why(&res, w, sizeof(w)),
                   r->impl == PB_RUN_IMPL_ZFS_FUSE
                       ? " (the zfs-fuse daemon)"
                       : "");
        pb_run_res_release(&res);
        return -1;
    }
    const char *s = pb_buf_str(&res.out);
    size_t pl = strlen(r->p->pool);
    for (const char *q = s; *q;) {
        size_t k = strcspn(q, "\n");
        if (k == pl && !strncmp(q, r->p->pool, pl)) {
            /* a pool of an earlier run that could not destroy it? */
            const char *own[] = {"zfs", "get", "-H", "-o", "value",
                                 "poolbench:owner", r->p->pool, NULL};
            char mark[64] = "";
            if (pb_run_cmd(&r->x, own, PB_RUN_CAPTURE, &res) == 0) {
                sfmt(mark, sizeof(mark), "%s", pb_buf_str(&res.out));
                mark[strcspn(mark, "\r\n")] = '\0';
            }
            if (*mark && strcmp(mark, "-"))
                pb_err_set(r->err, PB_EUSAGE, r->p->path, 0, 0,
                           "pool '%s' already exists, left by poolbench run "
                           "%s; remove it first: poolbench run --cleanup %s",
                           r->p->pool, mark, mark);
            else
                pb_err_set(r->err, PB_EUSAGE, r->p->path, 0, 0,
                           "pool '%s' already exists; poolbench only uses "
                           "pools it creates (set another [plan] pool name)",
                           r->p->pool);
            pb_run_res_release(&res);
            return -1;
        }
        q += k;
        if (*q)
            q++;
    }
    /* real devices: refused when any pool uses them */
    const struct pb_run_vdevs *lists[3] = {&r->p->data, &r->p->log,
                                           &r->p->cache};
    int devices = 0;
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            devices |= !lists[l]->v[i].is_file;
    if (devices) {
        const char *status[] = {"zpool", "status", NULL};
        pb_run_cmd(&r->x, status, PB_RUN_CAPTURE, &res);
        const char *out = pb_buf_str(&res.out);
        for (int l = 0; l < 3; l++)
            for (size_t i = 0; i < lists[l]->n; i++) {
                const struct pb_run_vdev *v = &lists[l]->v[i];
                if (v->is_file)
                    continue;
                char real[PATH_MAX];
                const char *names[2] = {strrchr(v->path, '/') + 1, NULL};
                if (realpath(v->path, real))
                    names[1] = strrchr(real, '/') + 1;
                for (int k = 0; k < 2; k++) {
                    if (!names[k])
                        continue;
                    size_t nl = strlen(names[k]);
                    for (const char *q = strstr(out, names[k]); q;
                         q = strstr(q + 1, names[k])) {
                        char before = q == out ? ' ' : q[-1];
                        char after = q[nl];
                        if ((before == ' ' || before == '\t' ||
                             before == '/') &&
                            (after == ' ' || after == '\t' ||
                             after == '\n' || after == '\0')) {
                            pb_err_set(r->err, PB_EUSAGE, r->p->path,
                                       v->line, 0,
                                       "device '%s' is part of a pool "
                                       "(see 'zpool status'); refusing to "
                                       "use it", v->path);
                            pb_run_res_release(&res);
                            return -1;
                        }
                    }
                }
            }
    }
    pb_run_res_release(&res);
    return 0;
}

/* A vdev file left in place by an earlier run in this folder (ZFS stopped
 * answering under it): point at the cleanup instead of the bare refusal. */
static int left_files(struct run *r)
{
    const struct pb_run_vdevs *lists[3] = {&r->p->data, &r->p->log,
                                           &r->p->cache};
    char id[64];
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const struct pb_run_vdev *v = &lists[l]->v[i];
            if (!v->is_file || !pb_run_manifest_left(r->dir, v->path, id,
                                                     sizeof(id)))
                continue;
            pb_err_set(r->err, PB_EUSAGE, r->p->path, v->line, 0,
                       "vdev file '%s' is left from run %s; remove what "
                       "that run left first: poolbench run --cleanup %s -o "
                       "%s", v->path, id, id, r->dir);
            return -1;
        }
    return 0;
}

void pb_run_cleanup_command(const struct pb_run_summary *sum,
                            struct pb_buf *b)
{
    const char *argv[] = {"poolbench", "run", "--cleanup", sum->run_id,
                          "-o", sum->dir, NULL};
    pb_run_quote(b, argv);
}

/* ==== the run ==== */

/* [plan] allow_exec = yes and a [fio] option that runs commands: say so
 * before anything runs. */
static void exec_warning(struct run *r)
{
    const struct pb_run_section *f = &r->p->sect[PB_RUN_FIO];
    for (size_t a = 0; a < f->n; a++) {
        int ex = pb_run_fio_key_class(f->ax[a].key) == PB_RUN_FIO_EXEC;
        for (size_t j = 0; j < f->ax[a].nvals && !ex; j++)
            ex = !strcmp(f->ax[a].key, "ioengine") &&
                 pb_run_fio_engine_execs(f->ax[a].vals[j]);
        if (ex)
            warn(r, "%s:%ld: fio option '%s' runs commands as root "
                 "(through a shell for exec_prerun/exec_postrun): allowed "
                 "by [plan] allow_exec = yes", r->p->path, f->ax[a].line,
                 f->ax[a].key);
    }
}

static void make_dir(struct run *r)
{
    const char *d = r->o->dir;
    char def[PATH_MAX];
    if (!d) {
        sfmt(def, sizeof(def), "run-%s", r->p->name);
        d = def;
    }
    if (d[0] == '/') {
        sfmt(r->dir, sizeof(r->dir), "%s", d);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof(cwd)))
            sfmt(cwd, sizeof(cwd), ".");
        while (d[0] == '.' && d[1] == '/')
            d += 2;
        sfmt(r->dir, sizeof(r->dir), "%s/%s", strcmp(cwd, "/") ? cwd : "",
                 d);
    }
    size_t n = strlen(r->dir);
    while (n > 1 && r->dir[n - 1] == '/')
        r->dir[--n] = '\0';
    if (!strcmp(r->dir, "/."))
        sfmt(r->dir, sizeof(r->dir), "/");
    sfmt(r->raw, sizeof(r->raw), "%s/raw", r->dir);
    sfmt(r->mnt, sizeof(r->mnt), "%s/mnt", r->dir);
}

int pb_run_execute(const struct pb_run_plan *plan,
                   const struct pb_run_opts *opts, struct pb_run_summary *sum,
                   struct pb_err *err)
{
    struct run *r = pb_xcalloc(1, sizeof(*r));
    memset(sum, 0, sizeof(*sum));
    sum->cells = plan->ncells;
    r->p = plan;
    r->o = opts;
    r->sum = sum;
    r->err = err;
    r->impl = opts->impl ? opts->impl : pb_run_detect_impl();
    r->pool_combo = (size_t)-1;
    r->t0 = now_s();
    r->width = 3;
    for (size_t n = plan->ncells; n >= 1000; n /= 10)
        r->width++;
    make_dir(r);
    snprintf(sum->dir, sizeof(sum->dir), "%s", r->dir);
    if (opts->run_id) {
        snprintf(r->run_id, sizeof(r->run_id), "%s", opts->run_id);
    } else {
        time_t t = time(NULL);
        struct tm tm;
        char ts[32];
        localtime_r(&t, &tm);
        strftime(ts, sizeof(ts), "%Y%m%dT%H%M%S", &tm);
        snprintf(r->run_id, sizeof(r->run_id), "%s-%ld", ts, (long)getpid());
    }
    snprintf(sum->run_id, sizeof(sum->run_id), "%s", r->run_id);
    r->x.dry_run = opts->dry_run;
    r->x.dry = opts->out ? opts->out : stdout;
    r->z.x = &r->x;
    r->z.plan = plan;
    r->z.impl = r->impl;
    r->z.owner = r->run_id;
    r->z.mnt = r->mnt;
    r->z.dir = r->dir;
    r->x.query_timeout = opts->zfs_timeout;
    r->x.admin_timeout = opts->zfs_timeout * 10;
    r->x.watch = fio_watch;
    r->x.watch_ctx = r;
    r->stop_on_failure = opts->on_failure ? opts->on_failure == 2
                                          : plan->stop_on_failure;
    int installed = 0, made_dir = 0;
    size_t *order = NULL;
    struct pb_buf cellorder = PB_BUF_INIT;

    if (!opts->dry_run) {
        if (geteuid() != 0) {
            pb_err_set(err, PB_ERUN, NULL, 0, 0,
                       "a run needs root (zpool, zfs and drop_caches); "
                       "try --dry-run to see the commands");
            goto done;
        }
        /* the folder's lock first: a second run on it is refused before it
         * reads the manifest (a live run's vdevs are not "left") */
        struct stat dst;
        made_dir = lstat(r->dir, &dst) != 0;
        if (pb_run_dir_ours(r->dir, 1, err) != PB_OK)
            goto done;
        if (pb_run_manifest_open(r->dir, &r->z.manifest, err) != PB_OK)
            goto done;
    }
    if (left_files(r) != 0 ||
        pb_run_check_vdevs(plan, opts->yes, err) != PB_OK)
        goto done;
    if (!opts->dry_run && !opts->db) {
        pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "a run needs a database");
        goto done;
    }
    /* the preflight: before anything is created (or listed) */
    pb_run_caps_probe(&r->x, r->impl, opts->caps_dir, &r->caps);
    r->z.loop_cache = !r->caps.file_cache;
    if (pb_run_preflight(plan, &r->caps, &r->x, !opts->caps_dir, &r->pre,
                         err) != PB_OK)
        goto done;
    if (opts->resume && opts->db) {
        if (pb_db_each_source(opts->db, on_source, r, err) != PB_OK)
            goto done;
        qsort(r->done, r->ndone, sizeof(char *), cmp_str);
        qsort(r->keys, r->nkeys, sizeof(*r->keys), cmp_keyrec);
        if (pb_db_report_facts(opts->db, on_fact, r, err) != PB_OK ||
            resume_check(r) != 0)
            goto done;
    }
    if (!opts->dry_run) {
        char logp[PATH_MAX];
        snprintf(logp, sizeof(logp), "%s/commands.log", r->dir);
        if (pb_run_dir_ours(r->raw, 1, err) != PB_OK)
            goto done;
        if (!(r->x.log = pb_run_fopen_out(logp, 1))) {
            pb_err_set(err, PB_EIO, logp, 0, 0, "cannot open: %s",
                       strerror(errno));
            goto done;
        }
        pb_run_manifest_add(r->z.manifest, "run", r->run_id, plan->pool);
        pb_run_signals_install();
        installed = 1;
    }
    /* the order the cells run in, "3 1 2" (1-based) */
    order = pb_xcalloc(plan->ncells + 1, sizeof(*order));
    pb_run_order(plan, order);
    for (size_t k = 0; k < plan->ncells; k++)
        pb_buf_printf(&cellorder, "%s%zu", k ? " " : "", order[k] + 1);
    {
        time_t t = time(NULL);
        char ts[64];
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
        if (r->x.log)
            fprintf(r->x.log, "# ==== %s\n", ts);
        char reps[96];
        if (plan->repeats_auto)
            snprintf(reps, sizeof(reps), "auto repeats (%ld to %ld, "
                     "target RSE %g%%)", plan->repeats < 3 ? plan->repeats : 3,
                     plan->repeats, plan->target_rse * 100);
        else
            snprintf(reps, sizeof(reps), "%ld repeats", plan->repeats);
        pb_run_note(&r->x, "poolbench run %s: plan '%s', %zu cells x %s, "
                    "pool '%s', %s, run id %s, on_failure = %s",
                    plan->path, plan->name, plan->ncells, reps,
                    plan->pool, pb_run_impl_name(r->impl), r->run_id,
                    r->stop_on_failure ? "stop" : "continue");
        if (plan->order_random)
            pb_run_note(&r->x, "order = random, seed %lu%s: cells %s",
                        plan->seed,
                        plan->has_seed ? "" : " (drawn: set seed = to run "
                                              "this order again)",
                        pb_buf_str(&cellorder));
        if (plan->time_scale != 1)
            pb_run_note(&r->x, "time scale %g: fio runtimes, sizes and "
                        "repeats scaled down (a smoke run)",
                        plan->time_scale);
        if (!r->x.dry_run)
            pb_run_note(&r->x, "preflight: %s: the plan fits", r->caps.name);
        exec_warning(r);
    }
    if (preflight(r) != 0)
        goto done;
    r->facts = pb_resultset_new();
    pb_run_host_facts(&r->x, r->impl, r->facts);
    pb_rs_fact(r->facts, NULL, "run_id", r->run_id);
    pb_rs_fact(r->facts, NULL, "run_plan", plan->path);
    if (plan->description)
        pb_rs_fact(r->facts, NULL, "run_description", plan->description);
    pb_run_plan_facts(plan, &r->caps, r->facts);
    if (plan->order_random) {
        char seed[32];
        snprintf(seed, sizeof(seed), "%lu", plan->seed);
        pb_rs_fact(r->facts, NULL, "run_order", "random");
        pb_rs_fact(r->facts, NULL, "run_seed", seed);
        pb_rs_fact(r->facts, NULL, "run_cell_order", pb_buf_str(&cellorder));
    }
    pb_run_tel_run(&r->tr, &r->x, r->impl, r->facts);
    if (!opts->dry_run)
        pb_run_keep_plan(plan, r->dir, r->facts);

    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    for (size_t k = 0; k < plan->ncells && !r->fatal; k++) {
        if (pb_run_stopped())
            break;
        size_t i = order[k];
        r->seq = k + 1;
        struct pb_run_cell c;
        pb_run_cell_at(plan, i, &c);
        pb_run_plan_describe(plan, i, &label, &test);
        pb_run_cell_key(plan, i, r->cell_key);
        if (c.combo[PB_RUN_POOL] != r->pool_combo) {
            if (r->z.created)
                pool_down(r);
            if (r->fatal)
                break;
            r->pool_combo = c.combo[PB_RUN_POOL];
            r->pool_fail[0] = '\0';
        }
        char path[PATH_MAX], why[512];
        cell_path(r, i, 0, "fio.json", path, sizeof(path));
        if (opts->resume && is_done(r, path)) {
            sum->resumed++;
            pb_run_note(&r->x, "cell %zu/%zu (%s | %s): already in the "
                        "database", i + 1, plan->ncells, pb_buf_str(&label),
                        pb_buf_str(&test));
            continue;
        }
        /* known not to work here, or failed (the pool of this
         * combination could not be made or used) */
        const char *skip = pb_run_pre_why(&r->pre, &c);
        if (!skip)
            skip = pb_run_static_skip(plan, &c, r->impl, why, sizeof(why));
        int failed = 0;
        if (!skip && r->pool_fail[0]) {
            skip = r->pool_fail;
            failed = 1;
        }
        if (!skip && plan->zvol && r->zvol_ok < 0)
            skip = r->zvol_why;
        if (!skip && !r->z.created && pool_up(r, &c) != 0) {
            skip = r->pool_fail;
            failed = 1;
        }
        if (!skip && plan->zvol && r->zvol_ok < 0)
            skip = r->zvol_why;
        if (skip) {
            record_skip(r, &c, pb_buf_str(&label), pb_buf_str(&test), skip,
                        failed);
        } else {
            run_cell(r, &c, pb_buf_str(&label), pb_buf_str(&test));
            if ((r->pool_fail[0] || r->z.suspended) && r->z.created &&
                !r->z.gone)
                pool_down(r);
        }
        if (r->z.gone) {
            /* nothing can go on without ZFS, and nothing of the pool can
             * be checked: stop, and leave it to pb_run_cleanup() */
            r->gone_cell = i + 1;
            break;
        }
        if (r->stop)
            break; /* on_failure = stop: cleaned up below */
    }
    r->cell_key[0] = '\0';
    pb_buf_release(&label);
    pb_buf_release(&test);
    if (r->z.gone) {
        sum->zfs_gone = 1;
        sum->failed_cell = 0; /* ZFS stopped it, whatever on_failure says */
        pb_err_set(err, PB_ERUN, NULL, 0, 0,
                   "ZFS stopped answering (%s) in cell %zu/%zu: the run "
                   "stopped; that cell is recorded as failed, cells "
                   "finished and kept: %zu; pool '%s' and its vdev files "
                   "are left",
                   r->z.gone_why, r->gone_cell, plan->ncells, sum->done,
                   plan->pool);
        r->z.created = 0;
        r->z.nfiles = 0;
    }
    if (r->z.created || r->z.nfiles)
        pool_down(r);
    if (r->z.suspended)
        pb_run_suspended_advice(r->impl, plan->pool, r->run_id, r->mnt,
                                sum->suspended, sizeof(sum->suspended));
    if (r->stop && !err->code) {
        size_t left = sum->cells - sum->done - sum->skipped - sum->resumed;
        pb_err_set(err, PB_ERUN, NULL, 0, 0,
                   "the run stopped at cell %zu/%zu, which failed ([plan] "
                   "on_failure = stop): cells finished and kept: %zu, not "
                   "run: %zu; its pool and sparse files are removed",
                   sum->failed_cell, plan->ncells, sum->done, left);
    }
    if (pb_run_stopped()) {
        sum->signal = pb_run_stopped();
        pb_run_note(&r->x, "stopped by signal %d", sum->signal);
        if (!err->code)
            pb_err_set(err, PB_ERUN, NULL, 0, 0,
                       "run interrupted by %s: the cell in progress was "
                       "abandoned and its pool destroyed; %zu finished cells "
                       "are kept (run again with --resume to go on)",
                       sum->signal == SIGINT    ? "SIGINT"
                       : sum->signal == SIGTERM ? "SIGTERM"
                                                : "a signal",
                       sum->done);
    }
    if (r->x.dry_run) {
        pb_run_note(&r->x, "%zu cells, %zu would be skipped, %zu already in "
                    "the database", plan->ncells, sum->skipped, sum->resumed);
        int unknown;
        char d[32];
        fmt_dur(pb_run_estimate(plan, r->impl, &unknown), d, sizeof(d));
        pb_run_note(&r->x, "estimated duration: %s%s", d,
                    unknown ? " plus the time fio takes for the cells "
                              "without a runtime"
                            : "");
    }
done:
    free(order);
    pb_buf_release(&cellorder);
    if (installed)
        pb_run_signals_restore();
    if (r->x.log)
        fclose(r->x.log);
    if (r->z.manifest)
        fclose(r->z.manifest); /* and its lock */
    if (err->code && made_dir && !installed) {
        /* refused before anything was made: the folder this run created
         * for it goes too (a refused plan leaves nothing behind) */
        char mp[PATH_MAX];
        snprintf(mp, sizeof(mp), "%s/manifest.tsv", r->dir);
        unlink(mp);
        rmdir(r->dir);
    }
    for (size_t i = 0; i < r->ndone; i++)
        free(r->done[i]);
    free(r->done);
    for (size_t i = 0; i < r->nfails; i++)
        free(r->fails[i].path);
    free(r->fails);
    for (size_t i = 0; i < r->nkeys; i++)
        free(r->keys[i].path);
    free(r->keys);
    free(r->z.files);
    pb_run_caps_release(&r->caps);
    pb_run_pre_release(&r->pre);
    pb_resultset_free(r->facts);
    free(r);
    return err->code;
}
