/* fio's human ("normal") output, fio 2.x (`read : io=..., bw=..., iops=`)
 * and 3.x (`read: IOPS=18.9k, BW=73.7MiB/s (77.3MB/s)(...)`), also when
 * embedded in other text (pod logs), several runs appended to one file, and
 * notes that paste `fio --rw=... --bs=...` command lines or job files
 * followed by the `read: IOPS=...` lines of that run (read by
 * ingest/fio/fio_text_opts.c). ingest/fio/fio_text_scan.c scans the lines; this
 * file makes the results of what it read. Same model as
 * ingest/fio/fio_json.c; the test naming, results and aggregates are
 * ingest/fio/fio_common.c's.
 *
 * Decisions (documented in fixtures/fio-text/README.md):
 *   - Metrics, units, test names and params are those of fio_json.c. The
 *     job header line (`name: (g=0): rw=..., bs=..., ioengine=...,
 *     iodepth=N`) gives rw, bs, ioengine, iodepth; a pasted command line
 *     or job file (`[global]`, `[name]`, `key=value` lines) gives those
 *     plus numjobs, rwmixread, direct, fsync, sync, size, runtime (the
 *     header wins for the four it shows). Without any, the test is named
 *     as fio_json names option-less jobs: "fio <rw done> job=<name>".
 *   - numjobs, when no command line or job file says it: `jobs=N` of a
 *     group_reporting block whose group has one job definition, else the
 *     number of clone blocks. rwmixread only as stated: never from the
 *     measured split, never fio's default (the output does not show it).
 *   - Facts: `device` (the filename of a pasted command/job file),
 *     `flag.interrupted` (fio's "terminating on signal N" line, with the
 *     runtime achieved and, when pasted, asked), `flag.no_version`,
 *     `flag.implausible` (ingest/fio/fio_common.c).
 *   - Values are read at the text's precision; when the `issued` counts and
 *     a fixed block size are known, bytes, bw and iops are recomputed from
 *     them exactly as fio computes its JSON (io_bytes = ios * bs,
 *     bw = floor(bytes * 1000 / runtime_ms), iops = ios * 1000 /
 *     runtime_ms), but only when they agree with the printed values.
 *   - Runs appended to one file are all kept. A job measured in more than
 *     one run (or in several blocks of one group_reporting run: results
 *     pasted one after the other) is repeated: one result of its runs
 *     (fio_repeats.c; the rule for blocks: pb_fio_text_rep). Clone blocks
 *     (numjobs without group_reporting) get "<name>#<i>" plus an
 *     aggregate "<name>", as in fio_json.c; the text has no job_runtime,
 *     so CPU is weighted by each job's longest direction runtime (a plain
 *     mean when one is unknown).
 *   - A job block (`name: (groupid=...)`) without its `cpu` line is cut
 *     short and rejects the file; output with no results is rejected,
 *     quoting fio's own error line when there is one.
 */
#include "ingest/fio/fio_text_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== per-job finishing ==== */

/* Exact bytes/bw/iops from the I/O count when they agree with the text. */
static void refine(struct pb_fio_dstat *x, const struct printed *pr, double bs)
{
    if (!x->present || isnan(x->ios) || pr->shorts != 0 || isnan(bs) ||
        !(pr->runtime_ms > 0) || isnan(x->bytes))
        return;
    double bytes = x->ios * bs;
    if (!(fabs(bytes - x->bytes) <= pr->bytes_step))
        return;
    x->bytes = bytes;
    double bw = floor(bytes * 1000 / pr->runtime_ms);
    if (fabs(bw - x->bw) <= pr->bw_step)
        x->bw = bw;
    double iops = x->ios * 1000 / pr->runtime_ms;
    if (fabs(iops - x->iops) <= pr->iops_step)
        x->iops = iops;
}

int pb_fio_text_is_clone(const void *ctx, size_t ia, size_t ib)
{
    const struct ctx *c = ctx;
    const struct job *a = &c->jobs[ia], *b = &c->jobs[ib];
    return a->job.run == b->job.run && a->job.rep == b->job.rep &&
           a->full == b->full && a->groupid == b->groupid &&
           !strcmp(a->job.name, b->job.name) &&
           (!a->full || (a->members <= 1 && b->members <= 1));
}

/* ==== parse ==== */

int pb_fio_text_incomplete(const struct ctx *c, const struct job *j)
{
    if (!j->full || j->has_cpu)
        return PB_OK;
    return pb_err_set(c->err, PB_EINPUT, c->path, j->line, 0,
                      "job \"%s\" is incomplete: no \"cpu\" line "
                      "(truncated output?)",
                      j->job.name);
}

void pb_fio_text_set_usable(struct job *j)
{
    int failed = j->err != 0 && !pb_fio_moved_data(&j->job.st);
    j->job.usable = !failed && (pb_fio_any_dir(&j->job.st) || j->has_cpu);
}

static int check_jobs(struct ctx *c)
{
    for (size_t i = 0; i < c->njobs; i++) {
        struct job *j = &c->jobs[i];
        int rc = pb_fio_text_incomplete(c, j);
        if (rc != PB_OK)
            return rc;
        pb_fio_text_set_usable(j);
    }
    return PB_OK;
}

static int no_results(struct ctx *c)
{
    for (size_t i = 0; i < c->njobs; i++) {
        const struct job *j = &c->jobs[i];
        if (j->err != 0 && !pb_fio_moved_data(&j->job.st))
            return pb_fio_job_failed(c->err, c->path, j->line, j->job.name,
                                     j->err, j->errtext);
    }
    return pb_fio_no_results(c->err, c->path, c->errline, c->errmsg,
                             "no fio results found (no \"read:\", "
                             "\"write:\" or \"trim:\" lines)");
}

/* The tests and exact values of the group of clones [i, i + n) of
 * c->jobs (usable set), in c->set (pb_fio_build_fn). */
static void text_build(void *ctx, size_t i, size_t n)
{
    struct ctx *c = ctx;
    /* blocks pasted without their options: not clones for sure */
    int amb = n > 1 && pb_fio_text_is_ambiguous(c, i, n);
    if (amb)
        pb_fio_flag_ambiguous(c->f, c->jobs[i].line, n, "result blocks",
                              c->jobs[i].job.name,
                              "its command line or job file", "block");
    for (size_t k = 0; k < n; k++) {
        struct job *j = &c->jobs[i + k];
        struct pb_fio_stats *st = &j->job.st;
        if (!j->job.usable)
            continue;
        double bs[D_N];
        pb_fio_text_merged(c, j);
        pb_fio_text_job_test(c, j, amb ? 1 : n, bs);
        for (int d = 0; d < D_N; d++)
            refine(&st->d[d], &j->pr[d], bs[d]);
        /* full output leaves out directions without I/O */
        int has_mixed = st->d[D_MIXED].present;
        for (int d = 0; d < D_MIXED && j->full && !has_mixed; d++) {
            struct pb_fio_dstat *x = &st->d[d];
            if (!x->present && (j->job.rwmask & (1u << d))) {
                x->present = 1;
                x->bytes = x->bw = x->iops = 0;
            }
        }
        /* CPU weight in aggregates (see the file header) */
        st->job_runtime = pb_fio_longest_runtime(st);
    }
}

void pb_fio_text_emit(struct ctx *c, struct pb_resultset *set, size_t n)
{
    /* each group named just before its results: configs and tests then
     * come in the order of their results, whole or streamed in parts of
     * any size (the folded repeats of a name come where its last run is) */
    pb_fio_emit_all(set, c->f, &c->jobs[0].job, sizeof(c->jobs[0]), n,
                    pb_fio_text_is_clone, pb_fio_text_is_ambiguous,
                    text_build, c);
}

/* What ties the file's jobs together (fio_ident.c): each run's job
 * names, the names measured more than once, the targets, the options
 * that vary; then each job's label and target. */
static void ident(struct ctx *c)
{
    struct pb_fio_inv *inv = pb_xcalloc(c->nruns + 1, sizeof(*inv));
    for (size_t i = 0; i < c->njobs; i++) {
        const struct job *j = &c->jobs[i];
        struct pb_fio_text_src src = {c, j};
        pb_fio_inv_add(&inv[j->job.run], j->job.name,
                       pb_fio_text_target(c, j),
                       pb_fio_opts_sig(pb_fio_text_each, &src));
        pb_fio_file_count(c->f, j->job.name,
                          pb_fio_meas(j->job.run, j->job.rep),
                          NULL, pb_fio_text_target(c, j));
        pb_fio_file_options(c->f, pb_fio_text_each, &src);
    }
    pb_fio_file_counted(c->f, NULL, NULL);
    for (size_t i = 0; i < c->njobs; i++) {
        struct job *j = &c->jobs[i];
        const char *t = pb_fio_text_target(c, j);
        pb_fio_file_job(c->f, &j->job, pb_fio_inv_base(&inv[j->job.run], t),
                        NULL, t, pb_fio_meas(j->job.run, j->job.rep));
    }
    for (size_t r = 0; r < c->nruns; r++)
        pb_fio_inv_release(&inv[r]);
    free(inv);
}

static void emit_all(struct ctx *c, const char *buf, size_t len)
{
    ident(c);
    pb_fio_file_setups(c->f, buf, pb_rs_context_len(c->set, len));
    pb_fio_text_emit(c, c->set, c->njobs);
    pb_fio_file_fold(c->f, c->set);
}

int pb_fio_text_named(const struct ctx *c, const struct job *j)
{
    return j->job.usable && pb_fio_text_cmd_opt(c, j, "filename") != NULL;
}

void pb_fio_text_job_facts(const struct ctx *c, const struct job *j,
                           struct pb_resultset *dev, double *ran, double *asked)
{
    if (!j->job.usable)
        return;
    pb_fio_fact_add(dev, j->job.host, "device",
                    pb_fio_text_cmd_opt(c, j, "filename"));
    double rt = pb_fio_longest_runtime(&j->job.st), ns;
    if (!(rt > 0) || rt <= *ran)
        return;
    *ran = rt;
    const char *v = pb_fio_text_cmd_opt(c, j, "runtime");
    *asked = v && pb_parse_duration(v, 1e9, &ns) == 0 ? ns : NAN;
}

/* The target of the command lines, the interruption, the flags. */
static void file_facts(struct ctx *c)
{
    double ran = NAN, asked = NAN;
    int named = 0;
    for (size_t i = 0; i < c->njobs; i++)
        named |= pb_fio_text_named(c, &c->jobs[i]);
    /* else the disks fio saw, each once */
    for (char *d = c->disks.len ? c->disks.s : NULL; d && !named;) {
        char *comma = strchr(d, ',');
        if (comma)
            *comma = '\0';
        pb_fio_fact_add(c->set, NULL, "device", d);
        d = comma ? comma + 1 : NULL;
    }
    for (size_t i = 0; i < c->njobs; i++)
        pb_fio_text_job_facts(c, &c->jobs[i], c->set, &ran, &asked);
    if (c->intr_line)
        pb_fio_flag_interrupted(c->set, c->intr_line, c->intr,
                                strlen(c->intr), ran, asked);
    pb_fio_flag_file(c->set, &c->jobs[0].job, sizeof(c->jobs[0]), c->njobs);
}

int pb_fio_text_whole(const char *path, const char *buf, size_t len,
                          struct pb_resultset *set, struct pb_err *err)
{
    if (!pb_fio_text_rx_start())
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "internal error: cannot compile patterns");
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    struct pb_fio_file f;
    pb_fio_file_init(&f, path);
    struct ctx c = {.path = path, .set = set, .err = err, .f = &f};
    rc = pb_fio_text_scan(&c, buf, len);
    if (rc == PB_OK)
        rc = check_jobs(&c);
    if (rc == PB_OK) {
        size_t usable = 0;
        for (size_t i = 0; i < c.njobs; i++)
            usable += c.jobs[i].job.usable != 0;
        if (usable == 0) {
            rc = no_results(&c);
        } else {
            for (size_t i = 0; i < c.njobs; i++)
                c.jobs[i].job.jobname = c.jobs[i].job.name;
            /* one fio server: its results are that host's, as in JSON */
            for (size_t i = 0; i < c.njobs && c.nprobe == 1; i++)
                c.jobs[i].job.host = c.probe_host;
            if (c.nprobe == 1) /* the fact goes with its results */
                pb_rs_fact(set, c.probe_host, "hostname", c.probe_host);
            for (char *p = c.nprobe > 1 ? c.probes.s : NULL; p;) {
                char *nl = strchr(p, '\n');
                if (nl)
                    *nl = '\0';
                pb_fio_fact_add(set, NULL, "hostname", p);
                p = nl ? nl + 1 : NULL;
            }
            emit_all(&c, buf, len);
            if (set->nresults == 0)
                rc = no_results(&c);
            else
                file_facts(&c);
        }
    }
    pb_buf_release(&c.disks);
    pb_buf_release(&c.probes);
    pb_fio_text_free(&c);
    pb_fio_file_release(&f);
    return rc;
}


static int parse(struct pb_parse *x)
{
    return x->part ? pb_fio_text_stream(x)
                   : pb_fio_text_whole(x->path, x->buf, x->len, x->out,
                                       x->err);
}

const struct pb_parser pb_parser_fio_text = {
    .name = "fio-text",
    .flags = PB_PARSER_STREAMS,
    .sniff = pb_fio_text_sniff,
    .parse = parse,
    .stream_min = PB_STREAM_MIN_TEXT,
};
