/* One cell of a run: dataset, repeats of layout + cache drop + fio, the
 * properties after it, repeats folded, storing; the pool of a pool
 * combination created and destroyed. */
#define _GNU_SOURCE
#include "run/run_loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* fio's test name leaves out options such as buffer_compress_percentage:
 * when the plan sweeps them they are appended, or two cells would look
 * like one. */
void pb_run_patch_tests(struct run *r, size_t fio_combo,
                        struct pb_resultset *set)
{
    struct pb_buf extra = PB_BUF_INIT;
    pb_run_fio_extra(r->p, fio_combo, &extra);
    if (extra.len) {
        for (size_t t = 0; t < set->ntests; t++) {
            char *name =
                pb_xasprintf("%s%s", set->tests[t].name, pb_buf_str(&extra));
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
static struct pb_resultset *fold_repeats(struct pb_resultset **sets,
                                         size_t n, const char *path,
                                         const char *sha, size_t size)
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
            size_t ti = pb_rs_test_kv(out, te->name, te->tool, te->params,
                                      te->nparams);
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
                pb_rs_add_null(out, ci, ti, r->host, r->job, r->metric, r->unit,
                               r->direction, r->null_reason);
                continue;
            }
            double mean = sum / (double)cnt;
            for (size_t m = 0; m < n; m++) {
                const struct pb_result *q = find_like(sets[m], s, r);
                if (q && q->has_value)
                    sq += (q->value - mean) * (q->value - mean);
            }
            struct pb_result *o =
                pb_rs_add(out, ci, ti, r->host, r->job, r->metric, r->unit,
                          r->direction, mean);
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

/* The fio results of a cell stored: one repeat's set, or the repeats
 * folded (see run_loop.h). */
struct pb_resultset *pb_run_store_fio(struct run *r,
                                      const struct pb_run_cell *c,
                                      struct pb_resultset **sets, long got,
                                      const struct pb_buf *all)
{
    struct pb_resultset *set = sets[0];
    if (r->p->repeats > 1) {
        char path[PATH_MAX], sha[65];
        pb_run_cell_path(r, c->index, 0, "fio.json", path, sizeof(path));
        pb_sha256_hex(all->s, all->len, sha);
        set = fold_repeats(sets, (size_t)got, path, sha, all->len);
    }
    if (pb_run_store(r, set, 0) >= 0)
        pb_run_forget_records(r, c->index, NULL);
    return set;
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
    pb_rs_fact(set, NULL, key,
               "derived: used x compressratio (no "
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
int pb_run_fio_watch(void *ctx, struct pb_err *err)
{
    struct run *r = ctx;
    int s = pb_run_stall_check(&r->stall, r->x.child, r->p, r->o->stall_timeout,
                               err);
    if (s) {
        r->stalled = s;
        return 1;
    }
    return pb_run_pool_nearly_full(r->mnt, r->p->pool, err);
}

/* After a watched fio: a full vdev file system under a stalled fio, or a
 * fio that cannot be killed, means a suspended pool: nothing more can
 * run on it, nor can it be destroyed (the summary says what to do). */
static void after_fio(struct run *r, const struct pb_run_res *res)
{
    if (r->stalled == 2 || res->stuck)
        r->z.suspended = 1;
    if (res->stuck)
        pb_run_warn(r,
                    "fio does not exit (blocked in the kernel on the pool's "
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
        pb_run_argv_addf(
            a, "--%s=%s", f->ax[i].key,
            pb_run_axis_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO], i));
    if (pb_run_sync_emulated(r->p, c, r->z.no_sync))
        pb_run_argv_add(a, "--sync=1");
}

/* Lay the data out before measuring, with the plan's buffer contents (so
 * the compressibility is the one asked for). */
static int layout(struct run *r, const struct pb_run_cell *c,
                  struct pb_err *err)
{
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    if (!r->p->zvol) {
        fio_common(r, c, &a);
        pb_run_argv_add(&a, "--create_only=1");
    } else {
        static const char *const content[] = {"buffer_compress_percentage",
                                              "buffer_compress_chunk",
                                              "refill_buffers",
                                              "scramble_buffers",
                                              "buffer_pattern",
                                              "dedupe_percentage",
                                              "zero_buffers",
                                              "size",
                                              NULL};
        char *dev = pb_run_zvol_dev(r->p);
        pb_run_argv_add(&a, "fio");
        pb_run_argv_add(&a, "--name=layout");
        pb_run_argv_addf(&a, "--filename=%s", dev);
        pb_run_argv_add(&a, "--rw=write");
        pb_run_argv_add(&a, "--bs=1M");
        free(dev);
        for (size_t i = 0; content[i]; i++) {
            const char *v = pb_run_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO],
                                         content[i]);
            if (v)
                pb_run_argv_addf(&a, "--%s=%s", content[i], v);
        }
    }
    pb_run_argv_add(&a, "--output-format=json");
    int rc = pb_run_cmd(&r->x, (const char *const *)a.v,
                        PB_RUN_CAPTURE | PB_RUN_STOPPABLE | PB_RUN_WATCH, &res);
    after_fio(r, &res);
    pb_run_argv_release(&a);
    if (res.stopped[0])
        rc = rc ? rc : -1;
    if (rc != 0 && !pb_run_stopped()) {
        char w[300];
        pb_err_say(err, PB_ERUN, "fio could not lay out the data: %s",
                   pb_run_res_why(&res, w, sizeof(w)));
    }
    pb_run_res_release(&res);
    return rc ? PB_ERUN : PB_OK;
}

/* Page cache and ARC: sync, drop_caches, export/import. */
void pb_run_drop_page_cache(struct run *r)
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
            pb_run_warn(r, "cannot drop the page cache: %s", strerror(errno));
    }
}

static int drop_caches(struct run *r, struct pb_err *err)
{
    pb_run_drop_page_cache(r);
    return pb_run_pool_cycle(&r->z, err);
}

/* Progress on stderr: "cell i/N <label> <test> elapsed 0:42 eta 3:10". */
void pb_run_progress(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test, long rep)
{
    if (!r->o->progress || r->x.dry_run)
        return;
    double el = pb_run_now() - r->t0;
    size_t left = r->p->ncells - c->index;
    double per = -1;
    if (r->ran)
        per = r->ran_secs / (double)r->ran;
    else {
        const char *rt =
            pb_run_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO], "runtime");
        double ns;
        if (rt && pb_parse_duration(rt, 1e9, &ns) == 0)
            per = (double)r->p->repeats * (ns / 1e9 + 4);
    }
    char e[32], t[32] = "?";
    pb_run_fmt_dur(el, e, sizeof(e));
    if (per >= 0)
        pb_run_fmt_dur(
            per * (double)left -
                (rep > 1 ? per * (double)(rep - 1) / (double)r->p->repeats : 0),
            t, sizeof(t));
    char reps[64] = "";
    if (r->p->repeats > 1)
        snprintf(reps, sizeof(reps), " repeat %ld/%ld", rep, r->p->repeats);
    pb_run_say(r->o->progress, "cell %zu/%zu %s %s%s elapsed %s eta %s",
               c->index + 1, r->p->ncells, label, test, reps, e, t);
}

/* The pool of a new pool combination: created, and zvol support probed
 * once per run. */
int pb_run_pool_up(struct run *r, const struct pb_run_cell *c)
{
    struct pb_err why = {0};
    size_t pc = c->combo[PB_RUN_POOL];
    if (pb_run_pool_create(&r->z, pc, &why) != PB_OK) {
        pb_run_sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", why.msg);
        return -1;
    }
    pb_run_tel_ashift(&r->x, r->p->pool, r->ashift, sizeof(r->ashift));
    if (r->p->zvol && r->zvol_ok == 0) {
        struct pb_err zw = {0};
        r->zvol_ok = pb_run_zvol_probe(&r->z, &zw) == PB_OK ? 1 : -1;
        pb_run_sfmt(r->zvol_why, sizeof(r->zvol_why), "%s", zw.msg);
    }
    return 0;
}

void pb_run_pool_down(struct run *r)
{
    pb_run_ds_destroy(&r->z);
    struct pb_err e = {0};
    if (pb_run_pool_destroy(&r->z, &e) != 0) {
        if (!r->err->code)
            *r->err = e;
        r->fatal = 1;
    }
}

/* The properties after a cell's repeats (see run_loop.h): of the pool on
 * this machine, or of one server's pool in a [hosts] cell (hostcell.c). */
struct pb_resultset *pb_run_capture_props(struct run *r, struct pb_run_exec *x,
                                          const struct pb_run_plan *p,
                                          const char *host, const char *path,
                                          size_t cell,
                                          const struct pb_ingest_opts *io,
                                          struct pb_err *hung)
{
    char *ds = pb_run_ds_name(p);
    const char *zget[] = {"zfs", "get", "-Hp", "all", ds, NULL};
    const char *pget[] = {"zpool", "get", "all", p->pool, NULL};
    const char *pstat[] = {"zpool", "status", p->pool, NULL};
    const char *const *cmds[] = {zget, pget, pstat};
    /* "host NAME: " before the messages of a server's part */
    const char *hw = host ? "host " : "", *hname = host ? host : "",
               *hs = host ? ": " : "";
    struct pb_buf all = PB_BUF_INIT;
    struct pb_run_res res = {0};
    struct pb_resultset *set = NULL;
    char w[200];
    /* a first line naming the cell: each file is a source of its own */
    pb_buf_printf(&all, "# poolbench run %s, cell %zu%s%s: %s\n", r->run_id,
                  cell + 1, host ? ", host " : "", hname, io->label);
    for (int k = 0; k < 3; k++) {
        if (pb_run_cmd(x, cmds[k], PB_RUN_CAPTURE, &res) != 0) {
            if (hung && res.timed_out) /* a hung ZFS fails the cell */
                pb_err_say(hung, PB_ERUN, "'%s %s %s' %s", cmds[k][0],
                           cmds[k][1], cmds[k][2],
                           pb_run_res_why(&res, w, sizeof(w)));
            if (!r->x.dry_run)
                pb_run_warn(r, "%s%s%s'%s %s' failed: %s", hw, hname, hs,
                            cmds[k][0], cmds[k][1],
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
    if (pb_run_write_file(path, all.s, all.len) != 0)
        pb_run_warn(r, "cannot write '%s': %s", path, strerror(errno));
    struct pb_err e = {0};
    if (pb_ingest_buffer(path, all.s, all.len, io, &set, &e) != PB_OK) {
        if (host || !r->warned_props)
            pb_run_warn(r, "%s%s%szfs properties not ingested (kept in %s): %s",
                        hw, hname, hs, path, e.msg);
        if (!host)
            r->warned_props = 1;
        set = NULL;
    }
    pb_buf_release(&all);
    return set;
}

/* Give the fio set the dimensions zfs reported for the dataset (atime,
 * copies, ...) so that both sources share one config. */
void pb_run_share_dims(const struct pb_resultset *from, struct pb_resultset *to)
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

/* One cell on this machine while it runs (pb_run_cell_run and its
 * parts). */
struct cellrun {
    const struct pb_run_cell *c;
    const char *label, *test;
    char why[1024]; /* why the cell failed */
    double t0;
    struct pb_kv *kv; /* the cell's dimensions */
    size_t nkv;
    struct pb_ingest_opts io;
    struct pb_resultset **sets;    /* fio, one per repeat: got of them */
    struct pb_resultset **logsets; /* fio logs of the repeats */
    size_t nlogs, caplogs;
    struct pb_buf all; /* the repeats' bytes, for SHA-256 */
    struct pb_resultset *props;
    long got;
    struct pb_run_repstop stop;
    struct pb_run_tel tel;
    struct pb_run_dsspace lay;
    struct pb_buf fiocmd, rawl;
    char *dsname;
    int reads;
};

/* The cell's failure: the message of e (none kept when e holds none). */
static void cr_why(struct cellrun *cr, const struct pb_err *e)
{
    snprintf(cr->why, sizeof(cr->why), "%s", e->msg);
}

/* What a part of the cell says to the next: go on, stop repeating, the
 * cell failed (why says why), the run was stopped by a signal. */
enum { CR_NEXT, CR_BREAK, CR_SKIP, CR_STOPPED };

/* fio's argv for a repeat: output to path, its logs (a plan's logs =) to
 * logp's files. */
static void cr_fio_argv(struct run *r, struct cellrun *cr, const char *path,
                        const char *logp, struct pb_run_argv *a)
{
    fio_common(r, cr->c, a);
    pb_run_argv_add(a, "--group_reporting=1");
    if (r->p->logs)
        pb_run_log_args(r->p, logp, a);
    pb_run_argv_add(a, "--output-format=json");
    pb_run_argv_addf(a, "--output=%s", path);
}

/* A repeat's fio output at path (and its logs) ingested into sets[got],
 * with its telemetry; CR_BREAK once the repeats are enough. */
static int cr_take(struct run *r, struct cellrun *cr, const char *path,
                   const char *logp)
{
    char *buf;
    size_t len;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, &len, &e) != PB_OK) {
        pb_run_sfmt(cr->why, sizeof(cr->why), "fio output unreadable: %s",
                    e.msg);
        return CR_SKIP;
    }
    if (pb_ingest_buffer(path, buf, len,
                         &(struct pb_ingest_opts){.format = "fio-json",
                                                  .label = cr->label,
                                                  .set = cr->kv,
                                                  .nset = cr->nkv,
                                                  .set_origin = r->p->path},
                         &cr->sets[cr->got], &e) != PB_OK) {
        pb_run_sfmt(cr->why, sizeof(cr->why),
                    "fio output not ingested (%s:%ld): %s", path, e.line,
                    e.msg);
        free(buf);
        return CR_SKIP;
    }
    struct pb_resultset *set = cr->sets[cr->got];
    pb_run_patch_tests(r, cr->c->combo[PB_RUN_FIO], set);
    if (r->p->logs) {
        struct pb_err lw = {0};
        pb_run_logs_ingest(logp,
                           &(struct pb_ingest_opts){.label = cr->label,
                                                    .set = cr->kv,
                                                    .nset = cr->nkv,
                                                    .set_origin = r->p->path},
                           set, &cr->logsets, &cr->nlogs, &cr->caplogs, &lw);
        if (lw.code)
            pb_run_warn(r, "cell %zu/%zu: fio log not ingested: %s",
                        cr->c->index + 1, r->p->ncells, lw.msg);
    }
    pb_run_tel_store(&cr->tel, &r->tr, cr->reads, set);
    pb_run_cache_check(r->p, cr->c->combo[PB_RUN_FIO], &r->tr, set);
    pb_buf_add(&cr->all, buf, len);
    free(buf);
    cr->got++;
    return pb_run_repeat_enough(r->p, cr->sets, cr->got, &cr->stop) ? CR_BREAK
                                                                    : CR_NEXT;
}

/* Repeat rep: layout, caches dropped, fio with telemetry, its output. */
static int cr_repeat(struct run *r, struct cellrun *cr, long rep)
{
    const struct pb_run_cell *c = cr->c;
    if (pb_run_stopped())
        return CR_STOPPED;
    pb_run_progress(r, c, cr->label, cr->test, rep);
    struct pb_err e = {0};
    if (layout(r, c, &e) != PB_OK) {
        cr_why(cr, &e);
        return CR_SKIP;
    }
    if (pb_run_stopped())
        return CR_STOPPED;
    if (drop_caches(r, &e) != PB_OK) {
        /* the pool is in an unknown state: drop it, skip its cells */
        cr_why(cr, &e);
        pb_run_sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", cr->why);
        return CR_SKIP;
    }
    if (pb_run_stopped())
        return CR_STOPPED;
    pb_run_layout_space(&r->x, cr->dsname, &cr->lay);
    char path[PATH_MAX], iopath[PATH_MAX];
    pb_run_cell_path(r, c->index, rep, "fio.json", path, sizeof(path));
    pb_run_cell_path(r, c->index, rep, "iostat.txt", iopath, sizeof(iopath));
    pb_buf_printf(&cr->rawl, "%sraw/%s raw/%s", cr->rawl.len ? " " : "",
                  strrchr(path, '/') + 1, strrchr(iopath, '/') + 1);
    char logp[PATH_MAX]; /* raw/c001.fio.json -> raw/c001_bw.1.log */
    pb_run_sfmt(logp, sizeof(logp), "%.*s", (int)(strlen(path) - 9), path);
    struct pb_run_argv a = {0};
    cr_fio_argv(r, cr, path, logp, &a);
    /* fio opens it as root and follows links: made here first */
    if (!r->x.dry_run && pb_run_out_fresh(path) != 0)
        pb_run_warn(r, "cannot create '%s': %s", path, strerror(errno));
    pb_buf_reset(&cr->fiocmd);
    pb_run_quote(&cr->fiocmd, (const char *const *)a.v);
    struct pb_run_res res = {0};
    pb_run_tel_release(&cr->tel);
    pb_run_tel_start(&cr->tel, &r->tr, &r->x, r->p->pool, iopath);
    int rc = pb_run_cmd(&r->x, (const char *const *)a.v,
                        PB_RUN_STOPPABLE | PB_RUN_WATCH, &res);
    after_fio(r, &res);
    pb_run_tel_stop(&cr->tel, &r->tr, &r->x);
    pb_run_argv_release(&a);
    if (res.stopped[0])
        rc = rc ? rc : -1;
    if (pb_run_stopped()) {
        pb_run_res_release(&res);
        return CR_STOPPED;
    }
    if (rc != 0) {
        char w[300];
        snprintf(cr->why, sizeof(cr->why), "fio failed: %s",
                 pb_run_res_why(&res, w, sizeof(w)));
        pb_run_res_release(&res);
        return CR_SKIP;
    }
    pb_run_res_release(&res);
    if (r->x.dry_run)
        return CR_NEXT;
    return cr_take(r, cr, path, logp);
}

/* zfs get after the last repeat, once the data is on the pool; when that
 * fails the fio results stand, without space figures, and the pool (in
 * an unknown state) is not used again. CR_NEXT or CR_SKIP. */
static int cr_props(struct run *r, struct cellrun *cr)
{
    const struct pb_run_cell *c = cr->c;
    cr->io.format = "zfs-props";
    struct pb_err e = {0};
    if (pb_run_settle(&r->z, &e) != PB_OK) {
        pb_run_sfmt(r->pool_fail, sizeof(r->pool_fail), "%s", e.msg);
        pb_run_warn(r, "cell %zu/%zu: no zfs get: %s", c->index + 1,
                    r->p->ncells, e.msg);
        if (!r->z.gone)
            return CR_NEXT; /* said; the cell's fio results stand */
        cr_why(cr, &e);
        return CR_SKIP;
    }
    char zp[PATH_MAX];
    pb_run_cell_path(r, c->index, 0, "zfs.txt", zp, sizeof(zp));
    cr->props =
        pb_run_capture_props(r, &r->x, r->p, NULL, zp, c->index, &cr->io, &e);
    if (cr->props)
        derive_logicalused(r, cr->props);
    cr_why(cr, &e);
    return *cr->why ? CR_SKIP : CR_NEXT;
}

/* The fio sets (one source, repeats folded), their logs and the
 * properties stored with the cell's facts; the headline said. */
static void cr_store(struct run *r, struct cellrun *cr)
{
    const struct pb_run_cell *c = cr->c;
    struct pb_resultset *props = cr->props;
    pb_run_props_retest(props, cr->test);
    pb_run_tel_set_ashift(props, r->ashift, r->p->pool);
    pb_run_compression_check(r->p, c->combo[PB_RUN_FIO], &cr->lay, props);
    if (props) {
        char zp[PATH_MAX];
        pb_run_cell_path(r, c->index, 0, "zfs.txt", zp, sizeof(zp));
        pb_buf_printf(&cr->rawl, " raw/%s", strrchr(zp, '/') + 1);
    }
    const char *fiocmd = pb_buf_str(&cr->fiocmd);
    const char *rawl = pb_buf_str(&cr->rawl);
    pb_run_cell_facts(r->p, c, NULL, rawl, props);
    if (props)
        pb_run_store(r, props, 0);
    for (long k = 0; k < cr->got; k++) {
        pb_run_share_dims(props, cr->sets[k]);
        pb_run_tel_set_ashift(cr->sets[k], r->ashift, r->p->pool);
        pb_run_cell_facts(r->p, c, fiocmd, rawl, cr->sets[k]);
        pb_run_repeat_facts(r->p, &cr->stop, cr->sets[k]);
        if (r->p->order_random) {
            char seq[32];
            snprintf(seq, sizeof(seq), "%zu", r->seq);
            pb_rs_fact(cr->sets[k], NULL, "cell_seq", seq);
        }
    }
    if (!r->x.dry_run && cr->got > 0) {
        struct pb_resultset *set =
            pb_run_store_fio(r, c, cr->sets, cr->got, &cr->all);
        for (size_t k = 0; k < cr->nlogs; k++) {
            /* the cell's configuration: the dimensions its fio set got */
            pb_run_share_dims(props, cr->logsets[k]);
            pb_run_tel_set_ashift(cr->logsets[k], r->ashift, r->p->pool);
            pb_run_cell_facts(r->p, c, fiocmd, rawl, cr->logsets[k]);
            pb_run_store(r, cr->logsets[k], 0);
        }
        if (r->o->progress) {
            struct pb_buf h = PB_BUF_INIT;
            pb_run_headline(set, &cr->tel, &h);
            pb_run_say(r->o->progress, "cell %zu/%zu %s %s: %s", c->index + 1,
                       r->p->ncells, cr->label, cr->test, pb_buf_str(&h));
            pb_buf_release(&h);
        }
        if (set != cr->sets[0])
            pb_resultset_free(set);
    }
    r->sum->done++;
    r->ran++;
    r->ran_secs += pb_run_now() - cr->t0;
}

/* The cell recorded as failed (unless the run was stopped), saying so
 * when ZFS stopped answering under it. */
static void cr_failed(struct run *r, struct cellrun *cr)
{
    if (!r->x.dry_run && !pb_run_zfs_answers(&r->z) &&
        !strstr(cr->why, "ZFS stopped answering")) {
        size_t k = strlen(cr->why);
        pb_run_sfmt(cr->why + k, sizeof(cr->why) - k,
                    " (ZFS stopped answering: %s)", r->z.gone_why);
    }
    if (!pb_run_stopped())
        pb_run_record_skip(r, cr->c, cr->label, cr->test, cr->why, 1);
}

/* The dataset destroyed and the cell's state freed. */
static void cr_release(struct run *r, struct cellrun *cr)
{
    for (size_t k = 0; k < cr->nlogs; k++)
        pb_resultset_free(cr->logsets[k]);
    free(cr->logsets);
    pb_run_tel_release(&cr->tel);
    pb_buf_release(&cr->fiocmd);
    pb_buf_release(&cr->rawl);
    free(cr->dsname);
    pb_run_ds_destroy(&r->z);
    for (long i = 0; i < r->p->repeats; i++)
        pb_resultset_free(cr->sets[i]);
    free(cr->sets);
    pb_resultset_free(cr->props);
    pb_buf_release(&cr->all);
    pb_run_kv_free(cr->kv, cr->nkv);
}

/* One cell on the current pool: dataset, repeats of layout + cache drop +
 * fio, properties, storing, dataset destroyed. */
void pb_run_cell_run(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test)
{
    struct cellrun *cr = pb_xcalloc(1, sizeof(*cr));
    cr->c = c;
    cr->label = label;
    cr->test = test;
    cr->t0 = pb_run_now();
    pb_run_cell_config(r->p, c, &cr->kv, &cr->nkv);
    cr->io.label = label;
    cr->io.set = cr->kv;
    cr->io.nset = cr->nkv;
    cr->io.set_origin = r->p->path;
    cr->sets = pb_xcalloc((size_t)r->p->repeats, sizeof(*cr->sets));
    cr->dsname = pb_run_ds_name(r->p);
    cr->reads = pb_run_cell_reads(r->p, c->combo[PB_RUN_FIO]);
    cr->tel.pid = -1;

    pb_run_note(&r->x, "cell %zu/%zu: %s | %s", c->index + 1, r->p->ncells,
                label, test);
    int step = CR_NEXT;
    struct pb_err e = {0};
    if (pb_run_ds_create(&r->z, c, &e) != PB_OK) {
        cr_why(cr, &e);
        step = CR_SKIP;
    }
    for (long rep = 1; step == CR_NEXT && rep <= r->p->repeats; rep++)
        step = cr_repeat(r, cr, rep);
    if (step == CR_NEXT || step == CR_BREAK)
        step = cr_props(r, cr);
    if (step == CR_NEXT)
        cr_store(r, cr);
    else if (step == CR_SKIP)
        cr_failed(r, cr);
    cr_release(r, cr);
    free(cr);
}

/* ==== the cell interface: this machine ==== */

int pb_run_cell_after(struct run *r, size_t i)
{
    if (r->z.gone) {
        /* nothing can go on without ZFS, and nothing of the pool can be
         * checked: stop, and leave it to pb_run_cleanup() */
        r->gone_cell = i + 1;
        return 1;
    }
    return r->stop != 0; /* on_failure = stop: cleaned up by the run */
}

int pb_run_cell_skipped(struct run *r, const struct pb_run_cell *c, size_t i,
                        const char *skip, int failed, const char *label,
                        const char *test)
{
    pb_run_record_skip(r, c, label, test, skip, failed);
    return pb_run_cell_after(r, i);
}

/* The pool of the combination made when it is not yet, then the cell run
 * on it (the pool destroyed when it failed or was suspended). */
static int local_cell(struct run *r, const struct pb_run_cell *c, size_t i,
                      const char *skip, int failed, const char *label,
                      const char *test)
{
    if (!skip && !r->z.created && pb_run_pool_up(r, c) != 0) {
        skip = r->pool_fail;
        failed = 1;
    }
    if (!skip && r->p->zvol && r->zvol_ok < 0)
        skip = r->zvol_why;
    if (skip)
        return pb_run_cell_skipped(r, c, i, skip, failed, label, test);
    pb_run_cell_run(r, c, label, test);
    if ((r->pool_fail[0] || r->z.suspended) && r->z.created && !r->z.gone)
        pb_run_pool_down(r);
    return pb_run_cell_after(r, i);
}

const struct pb_run_cells pb_run_cells_local = {"local", local_cell};
