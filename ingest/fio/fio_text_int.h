/* Private to fio's normal-output parser: fio_text_scan.c reads fio's own
 * lines (header, group, direction, latency, percentile, cpu lines) into
 * the model of one parse; fio_text.c makes tests and results of it;
 * fio_text_opts.c reads what people paste around them (command lines, job
 * files) and turns a job's options into its test; fio_text_pass.c is the
 * parse of a file (two passes, whole or streamed) and its facts. Nothing
 * else includes it.
 *
 * Use, per parse: fio_text_pass.c has fio_text_scan.c scan the lines, handing a command line to
 * pb_fio_text_cmdline() and every line to pb_fio_text_jobfile_line()
 * first; after the scan, pb_fio_text_job_test() names each job's test.
 */
#ifndef PB_FIO_TEXT_INT_H
#define PB_FIO_TEXT_INT_H

#include "ingest/fio/fio_int.h"

/* ==== the model of one parse ==== */

/* A direction's numbers as printed, for the exact recomputation. */
struct printed {
    double bytes_step, bw_step, iops_step, runtime_ms, shorts;
};

struct kvl {
    struct pb_kv *kv;
    size_t n, cap;
};

/* One job section of a command line (`--name=x` starts one). */
struct cmdsec {
    const char *name;
    struct kvl kv;
};

struct run {
    long line;
    int has_cmd;
    struct kvl global; /* command-line options before the first --name */
    struct cmdsec *sec;
    size_t nsec, capsec;
    struct pb_fio_hdr *hdr;
    size_t nhdr, caphdr;
    /* hdr indexes by name then position, and the groupids sorted: made
     * by the first pb_fio_text_job_test of the run */
    size_t *hdr_by_name;
    long *hdr_gids;
    size_t njobs;    /* jobs seen in this run */
    size_t nimplied; /* jobs without a groupid line, for --name sections */
    /* the blocks of one job name and group in a row (pb_fio_text_rep):
     * the streak's first measurement index and the run's next free one */
    const char *last_name;
    long last_gid;
    size_t last_i;
    size_t rep_base, rep_next;
};

struct job {
    struct pb_fio_job job; /* name, run, stats, test, ... */
    long line;
    long groupid; /* -1: unknown */
    long members; /* jobs=N; 0: unknown */
    long err;
    const char *errtext;
    int full; /* from a `(groupid=...)` line */
    size_t block; /* its place among the blocks of its name in a row */
    int has_cpu;
    size_t implied_idx;
    struct printed pr[D_N];
};

/* A pasted job file being read: "[name]" lines, then "key=value". */
struct jobfile {
    const char *pending; /* "[name]" just seen, no option yet */
    struct kvl *dst;     /* options go here; NULL: not in a job file */
    long run;            /* index of the run it fills; -1: none yet */
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    struct run *runs;
    size_t nruns, capruns;
    struct job *jobs;
    size_t njobs, capjobs;
    long errline;     /* first fio error line, 0: none */
    char errmsg[160]; /* its text */
    long intr_line;   /* first interruption line ("fio: terminating on
                         signal 2"), 0: none */
    char time[32];    /* the first job's start, "YYYY-MM-DD HH:MM:SS" as
                         printed (local time), from "pid=N: Tue Dec  1
                         15:53:33 2026"; "" = none */
    char intr[160];   /* its text */
    struct pb_buf disks; /* "vda,sdb": the disks of "Disk stats" */
    /* "hostname=vm, ..., fio=fio-3.33" lines a client prints per server:
     * the names (one a line), the last one, how many distinct in a row */
    struct pb_buf probes;
    const char *probe_host;
    int nprobe;
    long jobcount;    /* for names of nameless jobs */
    struct jobfile jf; /* a pasted job file being read */
    /* The parse's passes (fio_text_pass.c): called after each line is scanned,
     * next the text after it. It may take jobs [0, njobs - 1) out of
     * c->jobs (every job but the last is complete: lines only ever change
     * the last one) and move the strings the scan keeps to another set;
     * not PB_OK stops the scan with that code. */
    int (*each_line)(struct ctx *c, const char *next);
    void *owner;
    int light; /* the parse's first pass: latencies and percentiles are
                  recognised but not read (nothing it counts needs them) */
    struct pb_fio_file *f; /* what ties the file's jobs together */
};

/* A new run starting at line; returns it (valid until the next one). */
struct run *pb_fio_text_new_run(struct ctx *c, long line);

/* ==== fio_text_scan.c ==== */

/* Compile the line patterns once (thread-safe); 0 when they cannot be. */
int pb_fio_text_rx_start(void);

/* Scan every line of buf into c (runs, jobs, their directions, the error
 * and interruption lines, disks, fio servers); `\`-continued command
 * lines are joined first. PB_OK or PB_EINPUT with c->err set. */
int pb_fio_text_scan(struct ctx *c, const char *buf, size_t len);

/* Free the arrays of run r (its strings are in the set's arena). */
void pb_fio_text_free_run(struct run *r);

/* Free what the scan allocated in c (not c->disks, c->probes). */
void pb_fio_text_free(struct ctx *c);

/* The parser table's sniff: how much buf looks like fio's normal output. */
int pb_fio_text_sniff(const char *buf, size_t len);

/* ==== fio_text_opts.c ==== */

/* Parse the arguments of a `fio ...` command line into a new run;
 * returns 0 when they hold no option (prose that happens to say "fio"). */
int pb_fio_text_cmdline(struct ctx *c, const char *args, size_t n, long line);

/* Read line s[0..n) (number `line`) as part of a pasted job file, state in
 * jf: [global] gives the run's globals, [name] the section of job name.
 * Returns 1 when the line was one (a section, option, blank or comment
 * line inside a file), 0 otherwise (and the file ends). */
int pb_fio_text_jobfile_line(struct ctx *c, struct jobfile *jf, long line,
                             const char *s, size_t n);

/* Name the test of job j (one of a run of nclones clones) from its header
 * line, command line or job file (fio_common.c), and give the block size
 * of each direction in bytes (NAN when not one fixed size) in bs. */
void pb_fio_text_job_test(struct ctx *c, struct job *j, size_t nclones,
                          double bs[D_N]);

/* Option key of job j from its pasted command line or job file, or
 * NULL. */
const char *pb_fio_text_cmd_opt(const struct ctx *c, const struct job *j,
                                const char *key);

/* Which measurement of its job block j is within its run (j->job.rep):
 * each block of a group_reporting job, or each numjobs clones of a job
 * known not to report by group, is another run of it. */
void pb_fio_text_rep(struct ctx *c, struct job *j);

/* pb_fio_each_fn of a struct pb_fio_text_src: every option of the job
 * (header line, its command-line section or job file section, the
 * run's global ones), as pb_fio_text_cmd_opt and the header give them. */
struct pb_fio_text_src {
    const struct ctx *c;
    const struct job *j;
};
void pb_fio_text_each(const void *src, pb_fio_opt_fn fn, void *arg);

/* The job's target: filename, else directory of its pasted options. */
const char *pb_fio_text_target(const struct ctx *c, const struct job *j);

/* Mark full block j merged when it stands for several different jobs:
 * a group_reporting block (jobs=M) whose run lists several job names in
 * its group, or whose I/O contradicts its header line. */
void pb_fio_text_merged(struct ctx *c, struct job *j);

/* pb_fio_ambig_fn over c->jobs: blocks of a job pasted without its
 * options (no command line or job file): clones or repeats cannot be
 * told apart. */
int pb_fio_text_is_ambiguous(const void *ctx, size_t i, size_t n);

/* ==== fio_text.c: the steps per job of the parse ==== */

/* Jobs ia and ib of c are numjobs clones of one job. */
int pb_fio_text_is_clone(const void *ctx, size_t ia, size_t ib);
/* PB_EINPUT (err set) for a job block cut short (no cpu line). */
int pb_fio_text_incomplete(const struct ctx *c, const struct job *j,
                           struct pb_err *err) PB_WUR;
/* j->job.usable: not a failed job, something to emit. */
void pb_fio_text_set_usable(struct job *j);
/* The tests and results of jobs [0, n) of c (whole groups of clones) to
 * set, held jobs' to c->f; c->set must be set (tests are named there). */
void pb_fio_text_emit(struct ctx *c, struct pb_resultset *set, size_t n);
/* j is usable and a pasted command gives its filename. */
int pb_fio_text_named(const struct ctx *c, const struct job *j);
/* The device fact of usable job j in dev; the longest runtime so far
 * (ran) and what was asked of that job (asked). */
void pb_fio_text_job_facts(const struct ctx *c, const struct job *j,
                           struct pb_resultset *dev, double *ran,
                           double *asked);

/* ==== fio_text_pass.c ==== */

/* The parser table's parse, whole (x->part 0: one part) or streamed
 * (docs/performance.md, "Streaming ingest"). */
int pb_fio_text_parse(const struct pb_parse *x);

#endif
