/* Private to the fio parsers (fio_json.c, fio_text.c, fio_terse.c):
 * the model of one fio job that each fills from its own format, and the
 * code that turns it into a test and results the same way for all three
 * (rules in the header comment of fio_common.c; what ties a file's jobs
 * together, repeats, configurations: fio_ident.c, fio_repeats.c).
 * Nothing else includes it.
 *
 * Use, per parsed file:
 *   1. for each job entry of the file, pb_fio_stats_init() its
 *      struct pb_fio_job's stats, then fill name, usable and the numbers
 *      (canonical units; NAN where the file has none);
 *   2. count the jobs into a struct pb_fio_file (below) and give each its
 *      jobname, label, target and measurement (pb_fio_file_job);
 *   3. call pb_fio_emit_all() with the format's test for numjobs clones
 *      and a build function that fills a struct pb_fio_opts
 *      (pb_fio_read_opts() when the format has options) and calls
 *      pb_fio_build_test() for each group just before its results;
 *   4. pb_fio_file_fold() adds the folded repeats and the flags.
 */
#ifndef PB_FIO_INT_H
#define PB_FIO_INT_H

#include "ingest/ingest_int.h"
#include "ingest/fio/stream_names.h"

/* ==== directions and percentiles ==== */

/* Data directions; mixed is unified_rw_reporting. */
enum { D_READ, D_WRITE, D_TRIM, D_MIXED, D_N };

#define M_READ  (1u << D_READ)
#define M_WRITE (1u << D_WRITE)
#define M_TRIM  (1u << D_TRIM)

/* "read", "write", "trim", "mixed": the prefixes of metric names. */
extern const char *const pb_fio_dir_name[D_N];

/* The completion latency percentiles kept: 50, 95, 99, 99.9. */
#define FIO_NPCT 4
struct pb_fio_pct {
    double pct;
    const char *metric; /* "clat_p99.9" */
};
extern const struct pb_fio_pct pb_fio_pcts[FIO_NPCT];

/* ==== latency histograms (fio_bins.c) ==== */

/* The latencies fio json+ may keep bins of, in the order they are
 * emitted: "clat", "lat", "slat". */
enum { FIO_CLAT, FIO_LAT, FIO_SLAT, FIO_NKIND };
extern const char *const pb_fio_kind_name[FIO_NKIND];

/* The bins of one latency: fio's bucket values (ns, ascending, distinct)
 * and their counts (> 0), total their sum (> 0). In the set's arena. */
struct pb_fio_bins {
    size_t n;
    const uint64_t *val, *cnt;
    uint64_t total;
};

/* ==== one job ==== */

/* One data direction of a job. */
struct pb_fio_dstat {
    int present;    /* the direction is in the file */
    double ios;     /* I/O count; NAN: unknown (fio 2.1 JSON, terse) */
    double bytes;   /* B */
    double bw;      /* B/s */
    double iops;    /* ops/s */
    double runtime; /* ns */
    double lat_mean, clat_mean, slat_mean, clat_max; /* ns; NAN: none */
    double pct[FIO_NPCT];                            /* ns; NAN: none */
    const struct pb_fio_bins *bins[FIO_NKIND];       /* NULL: none */
};

struct pb_fio_stats {
    struct pb_fio_dstat d[D_N];
    double usr_cpu, sys_cpu; /* %; NAN: none */
    /* how long the job ran, weighting its CPU figures in an aggregate
     * (any unit, the same for all clones); NAN: unknown */
    double job_runtime;
    /* iops > 0 alone counts as I/O (text and terse); fio_json.c goes by
     * the I/O count and bytes only */
    int iops_io;
};

struct pb_fio_job {
    const char *name;    /* as in the file */
    const char *jobname; /* job of its results: the name, or "<name> block
                            K" for a block that is neither a clone nor a
                            repeat for sure (pb_fio_emit_all) */
    const char *host;    /* NULL: local */
    size_t run;          /* text and terse: which run (fio invocation) of
                            the file */
    size_t rep;          /* which measurement of the job within its run
                            (text, terse: result blocks of a
                            group_reporting job pasted several times) */
    long line;           /* input line of its block (text); 0: unknown */
    int usable;          /* has something to emit (not a failed job) */
    struct pb_fio_stats st;
    /* set by the parser before pb_fio_build_test (pb_fio_ident_job):
     * the configuration's label (NULL: name), whether that label is the
     * file's name (several job names on one target), the job's target
     * (filename or directory option; NULL: unknown) and whether its
     * results are held for the fold of repeats (the name was measured
     * more than once in the file) */
    const char *label;
    int label_auto;
    const char *target; /* a dimension: its host's jobs name several */
    int held;
    size_t meas; /* its measurement (pb_fio_file_count) */
    /* a group_reporting entry that merged different jobs: the names of
     * the group's jobs when known ("a, b, c"), its group id and job
     * count (0: unknown); merged_why says what showed it */
    int merged;
    long groupid;
    long members;
    const char *merged_names, *merged_why;
    /* set by pb_fio_build_test */
    size_t config, test;
    unsigned rwmask; /* M_* directions its rw does */
};

/* Called with each option of a job, key and value as fio spells them. */
typedef void (*pb_fio_opt_fn)(void *arg, const char *key, const char *value);
/* Calls fn(arg, key, value) for every option of the job ctx. */
typedef void (*pb_fio_each_fn)(const void *ctx, pb_fio_opt_fn fn, void *arg);

/* Job options as fio spells them; NULL: not given. */
struct pb_fio_opts {
    /* the job's options are known, so fio's defaults stand for those not
     * given; without them a test is named by what the job did plus
     * "job=<name>" */
    int known;
    const char *rw, *bs, *iodepth, *numjobs, *rwmixread, *rwmixwrite;
    const char *fsync, *direct, *buffered, *sync, *ioengine, *size;
    const char *runtime;
    /* some option of the source is ambiguous (fio 3.33 client/server
     * merges every client's global options into one object): fio's
     * defaults are not assumed for the options not given */
    int no_defaults;
    /* the source lists every option the job was given (fio JSON), so a
     * mixed job without rwmixread/rwmixwrite ran fio's default 50; text
     * and terse never show it, and a read share is never guessed from
     * what the job did */
    int rwmix_default;
    /* every option of the job as the format gives it (its own winning
     * over the global ones): the test parameters beyond the named ones
     * (docs/formats.md, "Repeats, clones, groups, tests and
     * configurations in fio output"); NULL: none */
    pb_fio_each_fn each;
    const void *each_ctx;
};

/* A job header line of normal output, "NAME: (g=0): rw=randread,
 * bs=(R) 4096B-4096B, (W) ..., ioengine=libaio, iodepth=1"; strings in
 * the set's arena, NULL when not shown. */
struct pb_fio_hdr {
    const char *name;
    long groupid;
    const char *rw, *bs, *ioengine, *iodepth;
};

/* A direction absent, its values unknown (NAN). */
void pb_fio_dstat_init(struct pb_fio_dstat *d);
/* Every direction so, CPU and job_runtime NAN. */
void pb_fio_stats_init(struct pb_fio_stats *s, int iops_io);

/* Store ns as percentile pct of d when it is one of pb_fio_pcts. */
void pb_fio_set_pct(struct pb_fio_dstat *d, double pct, double ns);

/* Direction d of s did I/O. */
int pb_fio_has_io(const struct pb_fio_stats *s, int d);
/* Some direction moved bytes (a failed job may count the I/O that
 * failed: total_ios 1, 0 bytes). */
int pb_fio_moved_data(const struct pb_fio_stats *s);
/* Some direction is present. */
int pb_fio_any_dir(const struct pb_fio_stats *s);
/* The longest runtime of a present direction, or NAN. */
double pb_fio_longest_runtime(const struct pb_fio_stats *s);

/* ==== options ==== */

/* Fill o's option strings from get(ctx, key), fio's aliases readwrite,
 * blocksize and timeout standing in for rw, bs and runtime; known and
 * rwmix_done are left alone. */
void pb_fio_read_opts(struct pb_fio_opts *o,
                      const char *(*get)(const void *ctx, const char *key),
                      const void *ctx);

/* Parse s[0..n) as a job header line into h; 1 when it is one, else 0.
 * The "<host> " prefix of a client/server run is not part of the name. */
int pb_fio_parse_hdr(struct pb_resultset *set, const char *s, size_t n,
                     struct pb_fio_hdr *h);

/* Header bs "(R) 4096B-4096B, (W) ..., (T) ..." (3.x) or
 * "4K-4K/4K-4K/4K-4K" (2.x) into "r,w,t" in bytes ("512-4096" for a
 * range); "" when none. */
void pb_fio_header_bs(const char *bs, char *out, size_t cap);

/* The M_* directions fio's rw (lower case, without ":N") does; 0 when
 * it is not one. */
unsigned pb_fio_rw_mask(const char *rw);

/* Plain non-negative number such as "4" or "01"; -1 otherwise. */
double pb_fio_int_opt(const char *s);


/* fio's bs list "reads,writes,trims" into bytes per direction (text kept
 * when it is not a size): a value not followed by a comma applies to the
 * directions after it, an empty one means the default, 4096. */
void pb_fio_split_bs(const char *s, char out[3][64]);

/* The decimal number in s times 10^shift, shifting the decimal point in
 * the text so that "12.871519" usec gives exactly 12871.519 ns. */
double pb_fio_dec_shift(const char *s, int shift);

/* ==== tests and results ==== */

/* ==== what ties the jobs of a file together (fio_ident.c) ====
 * Rules: docs/formats.md, "Repeats, clones, groups, tests and
 * configurations in fio output". Use, per file:
 *   1. pb_fio_file_init;
 *   2. pb_fio_file_count for every job in file order (its name, its
 *      measurement: run and rep, or JSON's group id; its target; its
 *      options), then pb_fio_file_counted;
 *   3. per run (fio invocation), pb_fio_inv_add of each job's name; per
 *      job pb_fio_file_job (label, held), then pb_fio_build_test and
 *      pb_fio_emit_all with f;
 *   4. pb_fio_file_fold adds the held results, folded, to the set;
 *      pb_fio_file_release. */

struct pb_fio_vary; /* options and whether their values differ */
struct pb_fio_fold; /* held results being folded (fio_repeats.c) */
struct pb_fio_host {
    char *host, *target; /* NULL: local, unknown */
    int multi;
};

struct pb_fio_file {
    char *base;                /* the file's base name: the label of a run
                                  of several job names on one target */
    struct pb_sn_table names;  /* measurements of each job name */
    struct pb_fio_vary *vary;  /* the options of the file's jobs */
    struct pb_fio_host *hosts; /* per host: its first target, and whether
                                  its jobs name several */
    size_t nhosts, caphosts;
    int counted;               /* pb_fio_file_counted was called */
    struct pb_resultset *held; /* results of held jobs, until taken */
    struct pb_fio_fold *fold;  /* the held results taken so far */
    /* flags found while emitting, added by pb_fio_file_fold (the end of
     * the file, whole or streamed): the first value of each and how
     * many */
    struct pb_fio_flag {
        char *key, *value;
        size_t n;
    } *flags;
    size_t nflags, capflags;
    int mute; /* flags are not recorded (jobs read again) */
    int label_file; /* some configuration is labelled by the file */
};

/* The jobs of one run (fio invocation): per target whether they have
 * several names, and whether two of other names whose targets are not
 * known run the same options (they may be the same workload on different
 * targets). */
struct pb_fio_inv {
    struct pb_fio_tgt *t;
    size_t nt, capt;
    int split; /* two names, unknown targets, one set of options */
    struct pb_fio_sig *sigs; /* per options signature, the first name */
    size_t nsigs, capsigs;
};
struct pb_fio_tgt {
    char *target, *name; /* name: the first; NULL after pb_fio_inv_done */
    int multi;           /* another name was seen on the target */
};
struct pb_fio_sig {
    uint64_t sig;
    char *name;
};

void pb_fio_file_init(struct pb_fio_file *f, const char *path);
void pb_fio_file_release(struct pb_fio_file *f);
/* One job, in file order: its name, its measurement (distinct for each
 * run and rep of text and terse, each group of JSON) and its target on
 * its host (NULL: local; the jobs of each host are compared). */
void pb_fio_file_count(struct pb_fio_file *f, const char *name, size_t meas,
                       const char *host, const char *target);
/* The options of one job (text, JSON: each job; terse: each header
 * line), each(ctx, ...) giving them. */
void pb_fio_file_options(struct pb_fio_file *f, pb_fio_each_fn each,
                         const void *ctx);
/* After the last pb_fio_file_count: gopt(gctx, key) gives the global
 * option a job that does not set key has (NULL: each gave every option
 * of the job). */
void pb_fio_file_counted(struct pb_fio_file *f,
                         const char *(*gopt)(const void *gctx,
                                             const char *key),
                         const void *gctx);
/* Measurement key of run and rep (pb_fio_file_count's meas). */
size_t pb_fio_meas(size_t run, size_t rep);

/* A job of the run: its name, its target (NULL: unknown) and the
 * signature of its options (pb_fio_opts_sig). */
void pb_fio_inv_add(struct pb_fio_inv *iv, const char *name,
                    const char *target, uint64_t sig);
/* The configuration of the run's jobs on target is labelled by the
 * file (several job names on that target), not by each job name. */
int pb_fio_inv_base(const struct pb_fio_inv *iv, const char *target);
/* Keep only what pb_fio_inv_base needs. */
void pb_fio_inv_done(struct pb_fio_inv *iv);
void pb_fio_inv_release(struct pb_fio_inv *iv);
/* A signature of the options each gives (not the excluded ones), the
 * same whatever their order; 0 for none. */
uint64_t pb_fio_opts_sig(pb_fio_each_fn each, const void *ctx);

/* Label, held, target and measurement of job j (on host, as counted);
 * base: its run is labelled by the file (pb_fio_inv_base). */
void pb_fio_file_job(const struct pb_fio_file *f, struct pb_fio_job *j,
                     int base, const char *host, const char *target,
                     size_t meas);

/* The set j's results and its test go to: f->held when j is held. */
struct pb_resultset *pb_fio_job_set(struct pb_resultset *set,
                                    const struct pb_fio_file *f,
                                    const struct pb_fio_job *j);

/* Add " key=value" to name for each of the test parameters kv[0..n)
 * whose values differ between the file's jobs and that the name does not
 * show already (nor --ignore-param leaves out by default). */
void pb_fio_name_extras(const struct pb_fio_file *f, const struct pb_kv *kv,
                        size_t n, struct pb_buf *name);

/* Append to kv[0..n) (capacity *cap) the test parameters of the options
 * o->each gives that the name's own code does not read and that change
 * the workload (not fio_ident.c's opt_excluded), values normalised,
 * sorted by key; returns the new count. */
size_t pb_fio_extra_params(struct pb_resultset *set,
                           const struct pb_fio_opts *o, struct pb_kv **kv,
                           size_t n, size_t *cap);

/* j->config: its label's config in set (with its target when the file's
 * jobs have several). */
void pb_fio_job_config(struct pb_resultset *set, struct pb_fio_file *f,
                       struct pb_fio_job *j);

/* The test of a group_reporting entry that merged different jobs:
 * "fio group G (N jobs: a, b, c)", parameters group, jobs, merged (the
 * names); never a workload's own test. */
void pb_fio_merged_test(struct pb_resultset *set, struct pb_fio_file *f,
                        struct pb_fio_job *j);

/* 1 when what j did contradicts the rw and bs its options say (NULL:
 * unknown; bs as fio spells it, a fixed size per direction, no range or
 * split): I/O in a direction rw does not do, or blocks whose average
 * size is not bs. why says which. A group_reporting entry of different
 * jobs shows so (fio names it after the group's first job and gives it
 * the last job's options). */
int pb_fio_merged_io(const struct pb_fio_job *j, const char *rw,
                     const char *bs, char *why, size_t cap);

/* flag.ambiguous_jobs: n things (what: "records", "result blocks") of job
 * name from line on, without the evidence (lacking: "disk statistics or
 * normal output") that tells numjobs clones from repeated runs; each is
 * stored as one (one: "record", "block"). */
void pb_fio_flag_ambiguous(struct pb_fio_file *f, long line, size_t n,
                           const char *what, const char *name,
                           const char *lacking, const char *one);

/* 1 when key is one of keys (NULL-terminated). */
int pb_fio_key_in(const char *key, const char *const *keys);

/* The distinct job names of group g among the header lines hdr(ctx, i),
 * i < n (NULL: not a job's header), ", "-joined into names; their count. */
size_t pb_fio_group_names(const struct pb_fio_hdr *(*hdr)(const void *ctx,
                                                           size_t i),
                          const void *ctx, size_t n, long g,
                          struct pb_buf *names);

/* Job j is one entry for several jobs of group g (members: how many, 0
 * unknown; names: theirs, or NULL; why: what showed it): marked so, and
 * flag.merged_group. what: what fio printed, "entry", "record", "block". */
void pb_fio_mark_merged(struct pb_resultset *set, struct pb_fio_file *f,
                        struct pb_fio_job *j, long g, long members,
                        const char *names, const char *why,
                        const char *what);

/* Add the recorded flags to set as facts ("VALUE; and N more"). */
void pb_fio_file_flags(struct pb_fio_file *f, struct pb_resultset *set);

/* ==== the fold of repeats (fio_repeats.c) ==== */

/* Before anything is emitted: the setups that text[0..len)'s pasted
 * commands make (context.c splits the configurations at them), so that
 * runs of different setups are never folded (the text formats). */
void pb_fio_file_setups(struct pb_fio_file *f, const char *text, size_t len);
/* Take the results emitted into f->held so far into the fold (f->held is
 * then empty: configs and tests of held jobs must be made again). */
void pb_fio_file_take(struct pb_fio_file *f);
/* Count held job j's measurement as emitted: 1 when it is its name's
 * last (pb_fio_file_flush, after its results are in f->held). */
int pb_fio_file_last(struct pb_fio_file *f, const struct pb_fio_job *j);
/* The folded results of j's name to set (its repeats are all read). */
void pb_fio_file_flush(struct pb_fio_file *f, struct pb_resultset *set,
                       const struct pb_fio_job *j);
/* The held results folded into set, after every other result: per
 * configuration, test, host, job, metric and setup the mean of the
 * measurements, its standard error, n and the values as samples; a
 * measurement alone as it was. Then the flags recorded (fio_ident.c). */
void pb_fio_file_fold(struct pb_fio_file *f, struct pb_resultset *set);
void pb_fio_fold_free(struct pb_fio_fold *fd);

/* Name the test of j from o and what j did, add it with its parameters
 * and j's config (label, target) to pb_fio_job_set(set, f, j); sets
 * j->test, config, rwmask. */
void pb_fio_build_test(struct pb_resultset *set, struct pb_fio_file *f,
                       const struct pb_fio_opts *o, struct pb_fio_job *j);

/* Job b (an index into the caller's array of jobs) is a numjobs clone of
 * job a, a < b, both usable. */
typedef int (*pb_fio_clone_fn)(const void *ctx, size_t a, size_t b);

/* The jobs are the pb_fio_job members of n consecutive elements of the
 * caller's array, `size` bytes apart, starting at `first`. */

/* How many jobs from job i on form its run of clones: i and the usable
 * jobs after it that is_clone(ctx, i, ...) accepts; 1 when i is not
 * usable. */
size_t pb_fio_count_clones(const struct pb_fio_job *first, size_t size,
                           size_t n, size_t i, pb_fio_clone_fn is_clone,
                           const void *ctx);

/* Add the results of the usable jobs to pb_fio_job_set(set, f, job)
 * under their config, test and host, each result at its job's line: a
 * job alone as its jobname, a run of clones as "<jobname>#<k>" each plus
 * their aggregate as the first one's jobname. A run of clones whose
 * is_ambiguous(ctx, i, n) says the blocks may as well be repeats is
 * stored block by block ("<jobname> block <k>", no aggregate). */
typedef int (*pb_fio_ambig_fn)(const void *ctx, size_t i, size_t n);
/* Names the tests of the group of clones [i, i + n) just before its
 * results are emitted (NULL: named already), so that configurations and
 * tests are made in the order of their results. */
typedef void (*pb_fio_build_fn)(void *ctx, size_t i, size_t n);
void pb_fio_emit_all(struct pb_resultset *set, struct pb_fio_file *f,
                     const struct pb_fio_job *first, size_t size, size_t n,
                     pb_fio_clone_fn is_clone, pb_fio_ambig_fn is_ambiguous,
                     pb_fio_build_fn build, void *ctx);

/* ==== file-level ==== */

/* Equal strings, or both NULL. */
int pb_fio_same_str(const char *a, const char *b);

/* PB_OK, or PB_EINPUT when buf holds nothing but white space. */
int pb_fio_check_blank(const char *path, const char *buf, size_t len,
                       struct pb_err *err) PB_WUR;

/* Record the fio version ("fio-3.33") of the file. */
void pb_fio_set_version(struct pb_resultset *set, const char *version);
/* The run's start (fio's "timestamp", seconds since 1970) as fact
 * host=- timestamp="YYYY-MM-DD HH:MM:SS" (UTC): the History's time of the
 * source. Nothing when it is not a plausible time. */
void pb_fio_set_time(struct pb_resultset *set, double epoch);

/* ==== latency histograms (fio_bins.c) ==== */

/* Read the json+ "bins" of every latency of every direction of the job
 * entry `entry` of doc into st (doc is text[start..]: offsets for errors
 * are into text + start). PB_OK, or PB_EINPUT with err naming
 * path:line:col of the bad bin. */
struct pb_json;
int pb_fio_json_bins(struct pb_json *doc, int entry, const char *path,
                     const char *text, size_t start, struct pb_resultset *set,
                     struct pb_fio_stats *st, struct pb_err *err) PB_WUR;

/* The percentile p (0 < p <= 100) of b as fio computes it: the value of
 * the first bin whose cumulative count reaches p / 100 * total. */
double pb_fio_bins_pct(const struct pb_fio_bins *b, double p);

/* The sum of n histograms (NULL when one of them is NULL), in set's
 * arena. */
const struct pb_fio_bins *pb_fio_bins_merge(struct pb_resultset *set,
                                            const struct pb_fio_bins *const *v,
                                            size_t n);

/* Add the standard percentiles (p50 ... p99.999) of every latency of d
 * that has bins as results "<dir>_<kind>_p<P>" of job `job` (clat: fio's
 * own printed value where d->pct has one and `printed` is set), and, when
 * keep_hist, the bins themselves behind their p50 result (set->hists). */
void pb_fio_bins_emit(struct pb_resultset *set, const struct pb_fio_job *j,
                      const char *job, const char *dir,
                      const struct pb_fio_dstat *d, int printed,
                      int keep_hist);

/* ==== flags and facts (fio_flags.c) ==== */

/* s[0..n) is a line fio prints when a run was cut short ("fio:
 * terminating on signal 2", "... it appears to be stuck"). */
int pb_fio_is_interrupt(const char *s, size_t n);

/* Record fact flag.interrupted = "line L: MARKER[; ran X s of Y s]"
 * (achieved/asked in ns, NAN when unknown); the first call wins. The
 * "line L: " prefix is what `ingest --strict` quotes. */
void pb_fio_flag_interrupted(struct pb_resultset *set, long line,
                             const char *marker, size_t n, double achieved,
                             double asked);

/* After a successful parse: fact flag.no_version when the file named no
 * fio version, flag.implausible (per host) for values above what the
 * job's runtime and bytes allow (the values are kept as they are). Call
 * with the same jobs as pb_fio_emit_all. */
void pb_fio_flag_file(struct pb_resultset *set, const struct pb_fio_job *first,
                      size_t size, size_t n);
/* flag.implausible alone, for jobs given a part at a time (a streamed
 * file: pb_fio_flag_file less flag.no_version). */
void pb_fio_flag_jobs(struct pb_resultset *set, const struct pb_fio_job *first,
                      size_t size, size_t n);

/* Every fact of from added to set, in order (pb_rs_fact). */
void pb_fio_copy_facts(struct pb_resultset *set,
                       const struct pb_resultset *from);
/* A streamed file's last flags, as pb_fio_flag_file gives them:
 * flag.no_version when set has no version, then the flag.implausible
 * facts gathered in imp (pb_fio_flag_jobs). */
void pb_fio_flag_end(struct pb_resultset *set, const struct pb_resultset *imp);

/* Add value to fact key of host, joining distinct values with ", ". */
void pb_fio_fact_add(struct pb_resultset *set, const char *host,
                     const char *key, const char *value);

/* PB_EINPUT for a file with no results: fio's own error line `errmsg`
 * (at errline) when there is one (errline > 0), else the message none. */
int pb_fio_no_results(struct pb_err *err, const char *path, long errline,
                      const char *errmsg, const char *none) PB_WUR;

/* PB_EINPUT: job `name` (at line) failed with error `code` (`why`, may be
 * NULL) and did no I/O. */
int pb_fio_job_failed(struct pb_err *err, const char *path, long line,
                      const char *name, long code, const char *why) PB_WUR;

#endif
