/* The run: walks the cell matrix (pools reused while only dataset or fio
 * values change), runs each cell, hands the raw outputs to ingest/, stores
 * them (repeats folded into mean, standard error and sample count), and
 * records cells that cannot run or fail. Also the progress line, --resume
 * (a cell that runs again replaces its earlier failure record), on_failure
 * and what happens on SIGINT/SIGTERM. */
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

/* ==== small helpers ==== */

double pb_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pb_run_fmt_dur(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* snprintf for paths and messages that may be cut short on purpose. */
void pb_run_sfmt(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

int pb_run_write_file(const char *path, const char *buf, size_t len)
{
    FILE *fp = pb_run_fopen_out(path, 0);
    if (!fp)
        return -1;
    size_t w = fwrite(buf, 1, len, fp);
    int rc = fclose(fp);
    return w == len && rc == 0 ? 0 : -1;
}

void pb_run_warn(struct run *r, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    pb_run_say(r->o->progress, "poolbench: warning: %s", msg);
    pb_run_note(&r->x, "warning: %s", msg);
}

/* ==== the pools step ==== */

/* No pool of the plan's name yet, no real device of the plan in a pool:
 * 0, or -1 with r->err set. */
static int pools_free(struct run *r)
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
                   r->impl == PB_RUN_IMPL_ZFS_FUSE ? " (the zfs-fuse daemon)"
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
            const char *own[] = {"zfs",      "get",   "-H",
                                 "-o",       "value", "poolbench:owner",
                                 r->p->pool, NULL};
            char mark[64] = "";
            if (pb_run_cmd(&r->x, own, PB_RUN_CAPTURE, &res) == 0) {
                pb_run_sfmt(mark, sizeof(mark), "%s", pb_buf_str(&res.out));
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
                            (after == ' ' || after == '\t' || after == '\n' ||
                             after == '\0')) {
                            pb_err_set(r->err, PB_EUSAGE, r->p->path, v->line,
                                       0,
                                       "device '%s' is part of a pool "
                                       "(see 'zpool status'); refusing to "
                                       "use it",
                                       v->path);
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
            if (!v->is_file ||
                !pb_run_manifest_left(r->dir, v->path, id, sizeof(id)))
                continue;
            pb_err_set(r->err, PB_EUSAGE, r->p->path, v->line, 0,
                       "vdev file '%s' is left from run %s; remove what "
                       "that run left first: poolbench run --cleanup %s -o "
                       "%s",
                       v->path, id, id, r->dir);
            return -1;
        }
    return 0;
}

void pb_run_cleanup_command(const struct pb_run_summary *sum, struct pb_buf *b)
{
    const char *argv[] = {"poolbench", "run",    "--cleanup", sum->run_id,
                          "-o",        sum->dir, NULL};
    pb_run_quote(b, argv);
}

/* ==== the run ==== */

static void make_dir(struct run *r)
{
    const char *d = r->o->dir;
    char def[PATH_MAX];
    if (!d) {
        pb_run_sfmt(def, sizeof(def), "run-%s", r->p->name);
        d = def;
    }
    if (d[0] == '/') {
        pb_run_sfmt(r->dir, sizeof(r->dir), "%s", d);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof(cwd)))
            pb_run_sfmt(cwd, sizeof(cwd), ".");
        while (d[0] == '.' && d[1] == '/')
            d += 2;
        pb_run_sfmt(r->dir, sizeof(r->dir), "%s/%s",
                    strcmp(cwd, "/") ? cwd : "", d);
    }
    size_t n = strlen(r->dir);
    while (n > 1 && r->dir[n - 1] == '/')
        r->dir[--n] = '\0';
    if (!strcmp(r->dir, "/."))
        pb_run_sfmt(r->dir, sizeof(r->dir), "/");
    pb_run_sfmt(r->raw, sizeof(r->raw), "%s/raw", r->dir);
    pb_run_sfmt(r->mnt, sizeof(r->mnt), "%s/mnt", r->dir);
}

/* The state of pb_run_execute across its steps, besides struct run. */
struct steps {
    struct run *r;
    int installed;           /* signal handlers installed */
    int made_dir;            /* the run's folder did not exist before */
    size_t *order;           /* the order the cells run in (0-based) */
    struct pb_buf cellorder; /* ... as "3 1 2" (1-based) */
};

/* What a step that ends the run returns: r->err's code, which says why.
 * A helper may stop the run without filling r->err; the run then ends
 * with PB_OK as it always did, and only the steps after it are left out. */
static int halt(const struct run *r)
{
    return r->err->code ? r->err->code : PB_ERUN;
}

/* A new run of plan with opts: its folder, id and exec settings. */
static struct run *run_new(const struct pb_run_plan *plan,
                           const struct pb_run_opts *opts,
                           struct pb_run_summary *sum, struct pb_err *err)
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
    r->t0 = pb_run_now();
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
    r->x.watch = pb_run_fio_watch;
    r->x.watch_ctx = r;
    r->stop_on_failure =
        opts->on_failure ? opts->on_failure == 2 : plan->stop_on_failure;
    return r;
}

/* ==== the steps ==== */

/* Consent, root, the folder's lock and manifest, the vdev files (of each
 * server made here, left by an earlier run, in system folders), a
 * database: what is refused before anything is probed. */
static int step_prepare(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    const struct pb_run_opts *opts = r->o;
    struct pb_err *err = r->err;
    /* what the plan may do only with the consent of the person running
     * it: before anything else, in a dry run too */
    if (pb_run_consent_check(plan, opts, err) != PB_OK)
        return halt(r);
    if (!opts->dry_run) {
        if (geteuid() != 0)
            return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                              "a run needs root (zpool, zfs and "
                              "drop_caches); try --dry-run to see the "
                              "commands");
        /* the folder's lock first: a second run on it is refused before it
         * reads the manifest (a live run's vdevs are not "left") */
        struct stat dst;
        s->made_dir = lstat(r->dir, &dst) != 0;
        if (pb_run_dir_ours(r->dir, 1, err) != PB_OK)
            return halt(r);
        if (pb_run_manifest_open(r->dir, &r->z.manifest, err) != PB_OK)
            return halt(r);
    }
    for (size_t i = 0; i < plan->hosts.n && !err->code; i++) {
        /* each server's vdev files, where they are made here */
        if (plan->hosts.remote && !plan->hosts.h[i].sock)
            continue;
        struct pb_run_plan *hp = pb_run_host_plan(plan, i);
        int vrc = pb_run_check_vdevs(hp, opts->yes, err);
        pb_run_host_plan_free(hp);
        if (vrc != PB_OK)
            return halt(r);
    }
    if (left_files(r) != 0 || pb_run_check_vdevs(plan, opts->yes, err) != PB_OK)
        return halt(r);
    if (!opts->dry_run && !opts->db)
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "a run needs a database");
    return PB_OK;
}

/* The preflight, before anything is created (or listed): this machine's
 * ZFS, unless every server is reached through the remote template (then
 * the servers' own); which cells it cannot run; --resume's records. */
static int step_preflight(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    const struct pb_run_opts *opts = r->o;
    struct pb_err *err = r->err;
    r->remote_only = plan->hosts.remote != NULL;
    for (size_t i = 0; i < plan->hosts.n; i++)
        r->remote_only &= !plan->hosts.h[i].sock;
    if (!r->remote_only)
        pb_run_caps_probe(&r->x, r->impl, opts->caps_dir, &r->caps);
    if (plan->hosts.remote && pb_run_hosts_probe(r, err) != 0)
        return halt(r);
    r->z.loop_cache = !r->caps.file_cache;
    r->z.no_sync = pb_run_caps_lacks(&r->caps, "sync");
    if (pb_run_preflight(plan, &r->caps, &r->x, !opts->caps_dir, &r->pre,
                         err) != PB_OK)
        return halt(r);
    if (opts->resume && opts->db) {
        if (pb_db_each_source(opts->db, pb_run_on_source, r, err) != PB_OK)
            return halt(r);
        qsort(r->done, r->ndone, sizeof(char *), pb_run_cmp_str);
        qsort(r->keys, r->nkeys, sizeof(*r->keys), pb_run_cmp_keyrec);
        if (pb_db_report_facts(opts->db, pb_run_on_fact, r, err) != PB_OK ||
            pb_run_resume_check(r) != 0)
            return halt(r);
    }
    return PB_OK;
}

/* The first lines of the log and of the dry run: what runs, in which
 * order, and the commands the plan was consented to run. */
static void header_notes(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    time_t t = time(NULL);
    char ts[64];
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
    if (r->x.log)
        fprintf(r->x.log, "# ==== %s\n", ts);
    char reps[96];
    if (plan->repeats_auto)
        snprintf(reps, sizeof(reps),
                 "auto repeats (%ld to %ld, "
                 "target RSE %g%%)",
                 plan->repeats < 3 ? plan->repeats : 3, plan->repeats,
                 plan->target_rse * 100);
    else
        snprintf(reps, sizeof(reps), "%ld repeats", plan->repeats);
    pb_run_note(&r->x,
                "poolbench run %s: plan '%s', %zu cells x %s, "
                "pool '%s', %s, run id %s, on_failure = %s",
                plan->path, plan->name, plan->ncells, reps, plan->pool,
                pb_run_impl_name(r->impl), r->run_id,
                r->stop_on_failure ? "stop" : "continue");
    if (plan->order_random)
        pb_run_note(&r->x, "order = random, seed %lu%s: cells %s", plan->seed,
                    plan->has_seed ? ""
                                   : " (drawn: set seed = to run "
                                     "this order again)",
                    pb_buf_str(&s->cellorder));
    if (plan->time_scale != 1)
        pb_run_note(&r->x,
                    "time scale %g: fio runtimes, sizes and "
                    "repeats scaled down (a smoke run)",
                    plan->time_scale);
    if (!r->x.dry_run)
        pb_run_note(&r->x, "preflight: %s: the plan fits", r->caps.name);
    pb_run_consent_list(plan, r->o, &r->x, r->o->progress);
}

/* The commands log and the signal handlers (not in a dry run), the order
 * of the cells, the header notes. */
static int step_start(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    if (!r->o->dry_run) {
        char logp[PATH_MAX];
        snprintf(logp, sizeof(logp), "%s/commands.log", r->dir);
        if (pb_run_dir_ours(r->raw, 1, r->err) != PB_OK)
            return halt(r);
        if (!(r->x.log = pb_run_fopen_out(logp, 1)))
            return pb_err_set(r->err, PB_EIO, logp, 0, 0, "cannot open: %s",
                              strerror(errno));
        pb_run_manifest_add(r->z.manifest, "run", r->run_id, plan->pool);
        pb_run_signals_install();
        s->installed = 1;
    }
    s->order = pb_xcalloc(plan->ncells + 1, sizeof(*s->order));
    pb_run_order(plan, s->order);
    for (size_t k = 0; k < plan->ncells; k++)
        pb_buf_printf(&s->cellorder, "%s%zu", k ? " " : "", s->order[k] + 1);
    header_notes(s);
    return PB_OK;
}

/* No pool of the plan's name, no real device in any pool. */
static int step_pools(struct steps *s)
{
    return pools_free(s->r) != 0 ? halt(s->r) : PB_OK;
}

/* The run's facts (this machine, the servers' ZFS, the plan, the order,
 * module parameters), stored with the first cell; the plan kept. */
static int step_facts(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    r->facts = pb_resultset_new();
    /* this machine; its ZFS only when pools are made here */
    pb_run_host_facts(&r->x, r->remote_only ? PB_RUN_IMPL_AUTO : r->impl,
                      r->facts);
    for (size_t i = 0; r->host_zfs && i < plan->hosts.n; i++)
        if (r->host_zfs[i]) {
            const char *h = plan->hosts.h[i].entry;
            int fuse = !strncmp(r->host_zfs[i], "zfs-fuse", 8);
            pb_rs_fact(r->facts, h, "zfs_implementation",
                       fuse ? "zfs-fuse" : "openzfs");
            /* "OpenZFS zfs-2.3.2-2~bpo12+2" -> "zfs-2.3.2-2~bpo12+2" */
            const char *v = strchr(r->host_zfs[i], ' ');
            pb_rs_fact(r->facts, h, "zfs_version",
                       fuse ? r->host_zfs[i] : v ? v + 1 : r->host_zfs[i]);
        }
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
        pb_rs_fact(r->facts, NULL, "run_cell_order", pb_buf_str(&s->cellorder));
    }
    if (!r->remote_only) /* module parameters, ARC: of this machine */
        pb_run_tel_run(&r->tr, &r->x, r->impl, r->facts);
    if (!r->o->dry_run)
        pb_run_keep_plan(r->p, r->dir, r->facts);
    return PB_OK;
}

/* Why cell c is not run, or NULL: known not to work here, or failed (the
 * pool of this combination could not be made or used). */
static const char *skip_why(struct run *r, const struct pb_run_cell *c,
                            char *why, size_t n, int *failed)
{
    const char *skip = pb_run_pre_why(&r->pre, c);
    if (!skip)
        skip = pb_run_static_skip(r->p, c, r->impl, why, n);
    *failed = 0;
    if (!skip && r->pool_fail[0]) {
        skip = r->pool_fail;
        *failed = 1;
    }
    if (!skip && r->p->zvol && r->zvol_ok < 0)
        skip = r->zvol_why;
    return skip;
}

/* A new pool combination: the pools of the last one destroyed. */
static void next_pools(struct run *r, const struct pb_run_cell *c)
{
    if (r->z.created)
        pb_run_pool_down(r);
    pb_run_hosts_pools_down(r);
    if (r->fatal)
        return;
    r->pool_combo = c->combo[PB_RUN_POOL];
    r->pool_fail[0] = '\0';
}

/* Every cell in the run's order through the cell interface of the plan
 * (this machine, or its [hosts]); pools made per pool combination. */
static int step_cells(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    pb_run_hosts_setup(r);
    const struct pb_run_cells *cells =
        r->nhosts ? &pb_run_cells_hosts : &pb_run_cells_local;
    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    for (size_t k = 0; k < plan->ncells && !r->fatal; k++) {
        if (pb_run_stopped())
            break;
        size_t i = s->order[k];
        r->seq = k + 1;
        struct pb_run_cell c;
        pb_run_cell_at(plan, i, &c);
        pb_run_plan_describe(plan, i, &label, &test);
        pb_run_cell_key(plan, i, r->cell_key);
        if (c.combo[PB_RUN_POOL] != r->pool_combo) {
            next_pools(r, &c);
            if (r->fatal)
                break;
        }
        char path[PATH_MAX], why[512];
        pb_run_cell_path(r, i, 0, "fio.json", path, sizeof(path));
        if (r->o->resume && pb_run_is_done(r, path)) {
            r->sum->resumed++;
            pb_run_note(&r->x,
                        "cell %zu/%zu (%s | %s): already in the "
                        "database",
                        i + 1, plan->ncells, pb_buf_str(&label),
                        pb_buf_str(&test));
            continue;
        }
        int failed;
        const char *skip = skip_why(r, &c, why, sizeof(why), &failed);
        if (cells->cell(r, &c, i, skip, failed, pb_buf_str(&label),
                        pb_buf_str(&test)) != 0)
            break;
    }
    r->cell_key[0] = '\0';
    pb_buf_release(&label);
    pb_buf_release(&test);
    return PB_OK;
}

/* ZFS that stopped answering, the pools destroyed, and why the run
 * stopped early (on_failure = stop, a signal); a dry run's totals. */
static int step_finish(struct steps *s)
{
    struct run *r = s->r;
    const struct pb_run_plan *plan = r->p;
    struct pb_run_summary *sum = r->sum;
    struct pb_err *err = r->err;
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
        pb_run_pool_down(r);
    pb_run_hosts_pools_down(r);
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
        pb_run_note(&r->x,
                    "%zu cells, %zu would be skipped, %zu already in "
                    "the database",
                    plan->ncells, sum->skipped, sum->resumed);
        int unknown;
        char d[32];
        pb_run_fmt_dur(pb_run_estimate(plan, r->impl, &unknown), d, sizeof(d));
        pb_run_note(&r->x, "estimated duration: %s%s", d,
                    unknown ? " plus the time fio takes for the cells "
                              "without a runtime"
                            : "");
    }
    return err->code;
}

/* Always, whichever step ended the run: the log, the manifest's lock and
 * the signal handlers given back, a folder made for a refused run
 * removed, and the run freed. */
static void cleanup(struct steps *s)
{
    struct run *r = s->r;
    free(s->order);
    pb_buf_release(&s->cellorder);
    if (s->installed)
        pb_run_signals_restore();
    if (r->x.log)
        fclose(r->x.log);
    if (r->z.manifest)
        fclose(r->z.manifest); /* and its lock */
    if (r->err->code && s->made_dir && !s->installed) {
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
    pb_run_hosts_free(r);
    for (size_t i = 0; r->host_zfs && i < r->p->hosts.n; i++)
        free(r->host_zfs[i]);
    free(r->host_zfs);
    pb_run_caps_release(&r->caps);
    pb_run_pre_release(&r->pre);
    pb_resultset_free(r->facts);
    free(r);
}

/* The run, in order; the first step that does not return PB_OK ends it
 * (the reason in err), then cleanup() runs. Cells store their results as
 * they finish (one transaction per cell), so storing is no step. */
static const struct {
    const char *name;
    int (*fn)(struct steps *s);
} steps[] = {
    {"prepare", step_prepare}, {"preflight", step_preflight},
    {"start", step_start},     {"pools", step_pools},
    {"facts", step_facts},     {"cells", step_cells},
    {"finish", step_finish},
};

int pb_run_execute(const struct pb_run_plan *plan,
                   const struct pb_run_opts *opts, struct pb_run_summary *sum,
                   struct pb_err *err)
{
    struct steps s = {0};
    s.r = run_new(plan, opts, sum, err);
    s.cellorder = (struct pb_buf)PB_BUF_INIT;
    for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
        if (steps[k].fn(&s) != PB_OK)
            break;
    cleanup(&s);
    return err->code;
}
