/* The one parse of fio normal output, whole or streamed: two passes over
 * the buffer by the scanner (fio_text_scan.c); parsed whole (x->part 0)
 * the results are one part, nothing flushed; streamed they are stored in
 * parts (docs/performance.md, "Streaming ingest", fio text). The steps
 * per job are fio_text.c's.
 *
 * What ties the jobs of a file together: a job measured in several runs
 * is folded into one result (fio_repeats.c, its values held until its
 * last run), a run's jobs of several names on one target are labelled by
 * the file, options that differ between the jobs name their tests, a
 * single fio server's hostname makes every job that host's, and the
 * device fact
 * comes from pasted command lines when any job names a file there, from
 * the "Disk stats" lines otherwise. What does not: the scanner only ever
 * changes the last job it made, and a run's header lines, command line
 * and job file come before its first job. So:
 *
 *   pass 1 scans every line; the scanner hands over the jobs it finished
 *     (all but the last) after each line, and they are counted and let
 *     go: the runs of each job name, each run's names and targets, the
 *     options, the usable jobs, the disks and fio servers seen, the
 *     first fio version. Errors are pass 1's, in this order: the first
 *     line the scanner cannot read (it stops there), else the first job
 *     cut short (no cpu line; the scan goes on to find such a line),
 *     else, with no usable job, the first job that failed without I/O or
 *     fio's own error line.
 *   pass 2 scans again; every CHUNK_JOBS finished jobs (fewer with
 *     smaller parts), each complete
 *     group of numjobs clones (all but the last group, which the next job
 *     may continue) is labelled, gets its test and results, and the part
 *     goes to the store once it holds PB_STREAM_PART results. The facts
 *     written after the results (device, flag.interrupted,
 *     flag.no_version, flag.implausible) are gathered aside and written
 *     with the last part, in that order.
 *
 * The scanner's strings (job names, header lines, pasted options) live in
 * a scratch set of their own, not in the set the parts are stored from:
 * each step moves the ones still used (the jobs held, the runs they and
 * the scanner still read) to a new scratch set and frees the old one, and
 * frees the option arrays of the runs no job can read any more. Memory is
 * then a step of jobs, one part, the runs in use and the tables of
 * distinct names, not the file. */
#include "ingest/fio/fio_text_int.h"
#include "ingest/fio/stream_names.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_JOBS ((size_t)256) /* finished jobs held before a cut */

struct xstream {
    const char *path, *map;
    size_t len;
    struct pb_resultset *set;  /* the parts */
    size_t part;               /* results a part holds; 0: one part */
    struct pb_resultset *scan; /* the scanner's strings (c.set) */
    struct ctx c;
    struct pb_fio_file f; /* names measured more than once, targets,
                             options that vary: pass 1; the fold: pass 2 */
    struct pb_fio_inv *invs; /* per run: its targets' labels */
    size_t ninvs, capinvs;
    struct pb_fio_inv inv; /* pass 1: the names of the run being read */
    size_t inv_run;
    /* pass 1's findings */
    size_t usable;  /* usable jobs */
    char *version;  /* the first fio version, or NULL */
    char time[32];  /* the first job's start (ctx.time), "" = none */
    struct pb_resultset *disks, *probes; /* device and hostname facts */
    int nprobe;
    char *probe_host; /* the fio server, when one */
    struct pb_err cut;  /* the first job cut short (cut.code 0: none) */
    /* the first job that failed without I/O (failed_name NULL: none) */
    long failed_line, failed_code;
    char *failed_name, *failed_why;
    /* pass 2 */
    struct pb_resultset *dev, *imp; /* facts gathered for the end */
    int named;
    double ran, asked;
    size_t maxjobs;  /* finished jobs held before a cut */
    size_t nresults; /* results emitted */
    size_t since;    /* jobs finished since the last move of strings */
    size_t run_base; /* run number of c.runs[0] (runs count from 0) */
    size_t lines;    /* lines scanned in this pass */
    size_t movestep; /* jobs or runs between moves of the strings:
                        CHUNK_JOBS, fewer with smaller parts (the tests'
                        parts of 1 and 40 move them often) */
};

/* Finished jobs held before a cut, and between moves of the strings. */
static size_t chunk(const struct xstream *t)
{
    return t->part && t->part < CHUNK_JOBS ? t->part : CHUNK_JOBS;
}

/* No usable job, or no result: the first job that failed without I/O,
 * else fio's own error line, else that nothing was found. PB_EINPUT. */
static int no_results(const struct xstream *t)
{
    const struct ctx *c = &t->c;
    if (t->failed_name)
        return pb_fio_job_failed(c->err, t->path, t->failed_line,
                                 t->failed_name, t->failed_code,
                                 t->failed_why);
    return pb_fio_no_results(c->err, t->path, c->errline, c->errmsg,
                             "no fio results found (no \"read:\", "
                             "\"write:\" or \"trim:\" lines)");
}

/* ==== the scanner's strings ==== */

static const char *keep(struct pb_resultset *to, const char *s)
{
    return s ? pb_rs_str(to, s) : NULL;
}

static void keep_kvl(struct pb_resultset *to, struct kvl *l)
{
    for (size_t i = 0; i < l->n; i++) {
        l->kv[i].key = keep(to, l->kv[i].key);
        l->kv[i].value = keep(to, l->kv[i].value);
    }
}

static void keep_run(struct pb_resultset *to, struct run *r)
{
    r->last_name = keep(to, r->last_name);
    keep_kvl(to, &r->global);
    for (size_t k = 0; k < r->nsec; k++) {
        r->sec[k].name = keep(to, r->sec[k].name);
        keep_kvl(to, &r->sec[k].kv);
    }
    for (size_t k = 0; k < r->nhdr; k++) {
        struct pb_fio_hdr *h = &r->hdr[k];
        h->name = keep(to, h->name);
        h->rw = keep(to, h->rw);
        h->bs = keep(to, h->bs);
        h->ioengine = keep(to, h->ioengine);
        h->iodepth = keep(to, h->iodepth);
    }
}

/* Move what the scan still reads to a new scratch set and free the rest:
 * the runs before the first one still read (the held jobs', the last one,
 * which new jobs join, and the one a pasted job file fills) leave
 * c->runs, whose indexes then start at t->run_base. */
static void move_strings(struct xstream *t)
{
    struct ctx *c = &t->c;
    struct pb_resultset *to = pb_resultset_new();
    if (t->scan->tool_version) /* pass 1 keeps the first one */
        pb_fio_set_version(to, t->scan->tool_version);
    size_t low = c->nruns ? c->nruns - 1 : 0;
    for (size_t i = 0; i < c->njobs; i++)
        if (c->jobs[i].job.run < low)
            low = c->jobs[i].job.run;
    if (c->jf.run >= 0 && (size_t)c->jf.run < low)
        low = (size_t)c->jf.run;
    for (size_t r = 0; r < low; r++) /* their strings go with the set */
        pb_fio_text_free_run(&c->runs[r]);
    /* a job file being read writes to its run's globals through jf.dst,
     * a pointer into c->runs: it moves with the run */
    int dst_global = c->jf.run >= 0 && c->jf.dst == &c->runs[c->jf.run].global;
    if (low) {
        memmove(c->runs, c->runs + low, (c->nruns - low) * sizeof(*c->runs));
        c->nruns -= low;
    }
    t->run_base += low;
    if (c->jf.run >= 0)
        c->jf.run -= (long)low;
    if (dst_global)
        c->jf.dst = &c->runs[c->jf.run].global;
    for (size_t r = 0; r < c->nruns; r++)
        keep_run(to, &c->runs[r]);
    for (size_t i = 0; i < c->njobs; i++) {
        struct job *j = &c->jobs[i];
        j->job.run -= low;
        j->job.name = keep(to, j->job.name);
        j->errtext = keep(to, j->errtext);
    }
    c->probe_host = keep(to, c->probe_host);
    c->jf.pending = keep(to, c->jf.pending);
    pb_resultset_free(t->scan);
    t->scan = to;
    c->set = to;
    t->since = 0;
}

/* After a line: the strings and runs kept from growing, the pages of
 * the input read released. */
static void after_line(struct xstream *t, const char *next)
{
    if (t->since >= t->movestep || t->c.nruns > t->movestep)
        move_strings(t);
    if ((++t->lines & 1023) == 0)
        pb_rs_consumed(t->set, next);
}

/* The items of buf (separated by sep) as distinct values of fact key in
 * to (pb_fio_fact_add); buf emptied. */
static void drain(struct pb_buf *buf, char sep, struct pb_resultset *to,
                  const char *key)
{
    for (char *p = to && buf->len ? buf->s : NULL; p;) {
        char *e = strchr(p, sep);
        if (e)
            *e = '\0';
        pb_fio_fact_add(to, NULL, key, p);
        p = e ? e + 1 : NULL;
    }
    pb_buf_reset(buf);
}

/* Finished job j: PB_EINPUT (c->err set) when it was cut short, else
 * its usable flag set. */
static int finished(const struct ctx *c, struct job *j)
{
    int rc = pb_fio_text_incomplete(c, j, c->err);
    if (rc != PB_OK)
        return rc;
    pb_fio_text_set_usable(j);
    return PB_OK;
}

/* Jobs [0, k) leave c->jobs. */
static void shift_jobs(struct ctx *c, size_t k)
{
    if (k == 0)
        return;
    memmove(c->jobs, c->jobs + k, (c->njobs - k) * sizeof(*c->jobs));
    c->njobs -= k;
}

/* ==== pass 1 ==== */

/* The jobs of run t->inv_run (absolute) seen so far are all: how its
 * targets are labelled is kept for pass 2. */
static void run_done(struct xstream *t)
{
    if (!t->inv.nt)
        return;
    PB_GROW(t->invs, t->capinvs, t->inv_run + 1);
    while (t->ninvs < t->inv_run)
        memset(&t->invs[t->ninvs++], 0, sizeof(*t->invs));
    pb_fio_inv_done(&t->inv);
    t->invs[t->ninvs++] = t->inv;
    memset(&t->inv, 0, sizeof(t->inv));
}

/* Count finished jobs [0, k) and let them go; the first cut short and
 * the first failed are noted. */
static void count(struct xstream *t, size_t k)
{
    struct ctx *c = &t->c;
    for (size_t i = 0; i < k; i++) {
        struct job *j = &c->jobs[i];
        if (t->cut.code == PB_OK) {
            int cut = pb_fio_text_incomplete(c, j, &t->cut);
            (void)cut; /* noted in t->cut; the scan goes on */
        }
        pb_fio_text_set_usable(j);
        t->usable += j->job.usable != 0;
        if (!t->failed_name && j->err != 0 &&
            !pb_fio_moved_data(&j->job.st)) {
            t->failed_line = j->line;
            t->failed_code = j->err;
            t->failed_name = pb_xstrdup(j->job.name);
            t->failed_why = j->errtext ? pb_xstrdup(j->errtext) : NULL;
        }
        size_t run = t->run_base + j->job.run;
        if (run != t->inv_run) {
            run_done(t);
            t->inv_run = run;
        }
        struct pb_fio_text_src src = {c, j};
        pb_fio_inv_add(&t->inv, j->job.name, pb_fio_text_target(c, j),
                       pb_fio_opts_sig(pb_fio_text_each, &src));
        pb_fio_file_count(&t->f, j->job.name, pb_fio_meas(run, j->job.rep),
                          NULL, pb_fio_text_target(c, j));
        pb_fio_file_options(&t->f, pb_fio_text_each, &src);
    }
    shift_jobs(c, k);
    t->since += k;
}

static int plan_line(struct ctx *c, const char *next)
{
    struct xstream *t = c->owner;
    if (c->njobs > 1)
        count(t, c->njobs - 1);
    drain(&c->disks, ',', t->disks, "device");
    drain(&c->probes, '\n', t->probes, "hostname");
    after_line(t, next);
    return PB_OK;
}

/* Pass 1: PB_OK, or the file's error (PB_EINPUT, c->err set). */
static int plan(struct xstream *t)
{
    struct ctx *c = &t->c;
    c->each_line = plan_line;
    c->light = 1;
    int rc = pb_fio_text_scan(c, t->map, t->len);
    if (rc == PB_OK)
        count(t, c->njobs);
    drain(&c->disks, ',', t->disks, "device");
    drain(&c->probes, '\n', t->probes, "hostname");
    pb_rs_consumed(t->set, t->map + t->len);
    if (rc != PB_OK)
        return rc; /* the first line the scanner cannot read */
    if (t->cut.code != PB_OK)
        return pb_err_set(c->err, t->cut.code, t->cut.path, t->cut.line,
                          t->cut.col, "%s", t->cut.msg);
    if (t->usable == 0)
        return no_results(t);
    if (t->scan->tool_version)
        t->version = pb_xstrdup(t->scan->tool_version);
    memcpy(t->time, c->time, sizeof(t->time));
    t->nprobe = c->nprobe;
    if (c->probe_host)
        t->probe_host = pb_xstrdup(c->probe_host);
    run_done(t);
    pb_fio_file_counted(&t->f, NULL, NULL);
    return PB_OK;
}

/* ==== pass 2 ==== */

/* Label, test, results and lines of finished jobs [0, k) (whole groups of
 * clones); the facts for the end gathered aside; they leave c->jobs. */
static int emit(struct xstream *t, size_t k)
{
    struct ctx *c = &t->c;
    for (size_t i = 0; i < k; i++) {
        struct job *j = &c->jobs[i];
        int rc = finished(c, j);
        if (rc != PB_OK)
            return rc; /* pass 1 said so first */
        size_t run = t->run_base + j->job.run;
        if (!pb_sn_get(&t->f.names, j->job.name, strlen(j->job.name), 0))
            return pb_err_set(c->err, PB_EINPUT, t->path, j->line, 0,
                              "internal error: job \"%s\" read otherwise "
                              "in the first pass",
                              j->job.name);
        j->job.jobname = j->job.name;
        const char *tg = pb_fio_text_target(c, j);
        pb_fio_file_job(&t->f, &j->job,
                        run < t->ninvs && pb_fio_inv_base(&t->invs[run], tg),
                        NULL, tg, pb_fio_meas(run, j->job.rep));
        if (t->nprobe == 1)
            j->job.host = t->probe_host;
    }
    size_t r0 = t->set->nresults;
    c->set = t->set; /* tests and configs go to the part */
    pb_fio_text_emit(c, t->set, k);
    c->set = t->scan;
    pb_fio_file_take(&t->f); /* the held results: their values */
    t->nresults += t->set->nresults - r0;
    for (size_t i = 0; i < k; i++) {
        const struct job *j = &c->jobs[i];
        t->named |= pb_fio_text_named(c, j);
        pb_fio_text_job_facts(c, j, t->dev, &t->ran, &t->asked);
    }
    pb_fio_flag_jobs(t->imp, &c->jobs[0].job, sizeof(c->jobs[0]), k);
    shift_jobs(c, k);
    t->since += k;
    return PB_OK;
}

/* Jobs held: cut off every complete group of clones (all of them when
 * last), store the part when due. PB_OK, PB_EINPUT (c->err set), or
 * minus the store's error. */
static int step(struct xstream *t, int last, const char *upto)
{
    struct ctx *c = &t->c;
    size_t open = c->njobs;
    if (!last) {
        /* groups need usable jobs; the last one, still being read, may
         * join the group before it: its group stays */
        for (size_t i = 0; i + 1 < c->njobs; i++)
            pb_fio_text_set_usable(&c->jobs[i]);
        struct job *lj = &c->jobs[c->njobs - 1];
        int was = lj->job.usable;
        lj->job.usable = 1;
        for (size_t i = 0; i < c->njobs;) {
            size_t g = pb_fio_count_clones(&c->jobs[0].job, sizeof(c->jobs[0]),
                                           c->njobs, i, pb_fio_text_is_clone,
                                           c);
            if (i + g == c->njobs)
                open = i;
            i += g;
        }
        lj->job.usable = was;
        if (open == 0) { /* one group of clones fills the chunk */
            t->maxjobs *= 2;
            return PB_OK;
        }
    }
    int rc = emit(t, open);
    if (rc != PB_OK)
        return rc;
    t->maxjobs = chunk(t);
    if (last)
        return PB_OK;
    if (!pb_rs_flush_due(t->set, 0)) {
        pb_rs_consumed(t->set, upto);
        return PB_OK;
    }
    rc = pb_rs_flush(t->set, upto);
    return rc == PB_OK ? PB_OK : -rc;
}

static int stream_line(struct ctx *c, const char *next)
{
    struct xstream *t = c->owner;
    /* read in pass 1; kept from growing */
    pb_buf_reset(&c->disks);
    pb_buf_reset(&c->probes);
    int rc = c->njobs > t->maxjobs ? step(t, 0, next) : PB_OK;
    if (rc == PB_OK)
        after_line(t, next);
    return rc;
}

/* The ctx of a new scan: what pass 1 left is freed. */
static void rescan(struct xstream *t)
{
    struct ctx *c = &t->c;
    pb_fio_text_free(c);
    pb_buf_release(&c->disks);
    pb_buf_release(&c->probes);
    pb_resultset_free(t->scan);
    t->scan = pb_resultset_new();
    struct pb_err *err = c->err;
    memset(c, 0, sizeof(*c));
    t->run_base = 0;
    t->since = t->lines = 0;
    c->path = t->path;
    c->set = t->scan;
    c->err = err;
    c->owner = t;
    c->f = &t->f;
}

static int pass2(struct xstream *t)
{
    struct ctx *c = &t->c;
    struct pb_resultset *set = t->set;
    rescan(t);
    c->each_line = stream_line;
    if (t->version)
        pb_fio_set_version(set, t->version);
    if (t->time[0]) /* the History's time of the source */
        pb_rs_fact(set, NULL, "timestamp", t->time);
    /* the hostname facts come before the results */
    if (t->nprobe == 1)
        pb_rs_fact(set, t->probe_host, "hostname", t->probe_host);
    if (t->nprobe > 1)
        pb_fio_copy_facts(set, t->probes);
    t->maxjobs = chunk(t);
    pb_fio_file_setups(&t->f, t->map, pb_rs_context_len(set, t->len));
    int rc = pb_fio_text_scan(c, t->map, t->len);
    if (rc == PB_OK)
        rc = step(t, 1, t->map + t->len);
    if (rc == PB_OK) {
        size_t r0 = set->nresults;
        pb_fio_file_fold(&t->f, set);
        t->nresults += set->nresults - r0;
    }
    if (rc == PB_OK && t->nresults == 0)
        rc = no_results(t);
    return rc;
}

/* The facts after the results, in their order. */
static void end_facts(struct xstream *t)
{
    struct pb_resultset *set = t->set;
    const struct ctx *c = &t->c;
    pb_fio_copy_facts(set, t->named ? t->dev : t->disks);
    if (c->intr_line)
        pb_fio_flag_interrupted(set, c->intr_line, c->intr, strlen(c->intr),
                                t->ran, t->asked);
    pb_fio_flag_end(set, t->imp);
}

int pb_fio_text_parse(const struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
    if (!pb_fio_text_rx_start())
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "internal error: cannot compile patterns");
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    struct xstream t;
    memset(&t, 0, sizeof(t));
    t.path = path;
    t.map = buf;
    t.len = len;
    t.set = set;
    t.part = x->part;
    t.ran = t.asked = NAN;
    t.scan = pb_resultset_new();
    t.disks = pb_resultset_new();
    t.probes = pb_resultset_new();
    t.dev = pb_resultset_new();
    t.imp = pb_resultset_new();
    pb_fio_file_init(&t.f, path);
    t.inv_run = (size_t)-1;
    t.movestep = chunk(&t);
    t.c.path = path;
    t.c.set = t.scan;
    t.c.err = err;
    t.c.owner = &t;
    t.c.f = &t.f;
    rc = plan(&t);
    if (rc == PB_OK)
        rc = pass2(&t);
    if (rc == PB_OK)
        end_facts(&t);
    pb_fio_text_free(&t.c);
    pb_buf_release(&t.c.disks);
    pb_buf_release(&t.c.probes);
    pb_resultset_free(t.scan);
    pb_resultset_free(t.disks);
    pb_resultset_free(t.probes);
    pb_resultset_free(t.dev);
    pb_resultset_free(t.imp);
    pb_fio_file_release(&t.f);
    pb_fio_inv_release(&t.inv);
    for (size_t i = 0; i < t.ninvs; i++)
        pb_fio_inv_release(&t.invs[i]);
    free(t.invs);
    free(t.version);
    free(t.probe_host);
    free(t.failed_name);
    free(t.failed_why);
    return rc < 0 ? -rc : rc;
}
