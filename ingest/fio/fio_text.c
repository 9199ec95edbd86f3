/* fio's human ("normal") output, fio 2.x (`read : io=..., bw=..., iops=`)
 * and 3.x (`read: IOPS=18.9k, BW=73.7MiB/s (77.3MB/s)(...)`), also when
 * embedded in other text (pod logs), several runs appended to one file, and
 * notes that paste `fio --rw=... --bs=...` command lines or job files
 * followed by the `read: IOPS=...` lines of that run (read by
 * ingest/fio/fio_text_opts.c). ingest/fio/fio_text_scan.c scans the lines; this
 * file makes the results of what it read; the parse of a file, whole or
 * streamed (two passes over the buffer, the results stored in parts when
 * streamed), is ingest/fio/fio_text_pass.c. Same model as
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

int pb_fio_text_incomplete(const struct ctx *c, const struct job *j,
                           struct pb_err *err)
{
    if (!j->full || j->has_cpu)
        return PB_OK;
    return pb_err_set(err, PB_EINPUT, c->path, j->line, 0,
                      "job \"%s\" is incomplete: no \"cpu\" line "
                      "(truncated output?)",
                      j->job.name);
}

void pb_fio_text_set_usable(struct job *j)
{
    int failed = j->err != 0 && !pb_fio_moved_data(&j->job.st);
    j->job.usable = !failed && (pb_fio_any_dir(&j->job.st) || j->has_cpu);
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

static int parse(struct pb_parse *x)
{
    return pb_fio_text_parse(x);
}

const struct pb_parser pb_parser_fio_text = {
    .name = "fio-text",
    .flags = PB_PARSER_STREAMS,
    .sniff = pb_fio_text_sniff,
    .parse = parse,
    .stream_min = PB_STREAM_MIN_TEXT,
};
