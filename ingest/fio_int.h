/* Private to the fio parsers (fio_json.c, fio_text.c, fio_terse.c):
 * the model of one fio job that each fills from its own format, and the
 * code that turns it into a test and results the same way for all three
 * (rules in the header comment of fio_common.c). Nothing else includes it.
 *
 * Use, per parsed file:
 *   1. for each job entry of the file, pb_fio_stats_init() its
 *      struct pb_fio_job's stats, then fill name, usable and the numbers
 *      (canonical units; NAN where the file has none);
 *   2. for each usable job, fill a struct pb_fio_opts (pb_fio_read_opts()
 *      when the format has options) and call pb_fio_build_test();
 *   3. set every job's label in jobname (pb_fio_name_runs() makes
 *      "<name> run <k>" labels for files holding several runs) and call
 *      pb_fio_emit_all() with the format's test for numjobs clones.
 */
#ifndef PB_FIO_INT_H
#define PB_FIO_INT_H

#include "ingest/ingest_int.h"

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
    const char *name;    /* as in the file; also the config label */
    const char *jobname; /* job of its results, e.g. "<name> run 2" */
    const char *host;    /* NULL: local */
    size_t run;          /* text and terse: which run of the file */
    int usable;          /* has something to emit (not a failed job) */
    struct pb_fio_stats st;
    /* set by pb_fio_build_test */
    size_t config, test;
    unsigned rwmask; /* M_* directions its rw does */
};

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

/* Plain non-negative number such as "4" or "01"; -1 otherwise. */
double pb_fio_int_opt(const char *s);

/* fio sizes: "4k", "4GB" (binary), "50000Mi". 0, or -1 when s is not one. */
int pb_fio_parse_size(const char *s, double *out);

/* fio's bs list "reads,writes,trims" into bytes per direction (text kept
 * when it is not a size): a value not followed by a comma applies to the
 * directions after it, an empty one means the default, 4096. */
void pb_fio_split_bs(const char *s, char out[3][64]);

/* The decimal number in s times 10^shift, shifting the decimal point in
 * the text so that "12.871519" usec gives exactly 12871.519 ns. */
double pb_fio_dec_shift(const char *s, int shift);

/* ==== tests and results ==== */

/* Name the test of j from o and what j did, add it with its parameters
 * and j's config (label j->name) to set; sets j->test, config, rwmask. */
void pb_fio_build_test(struct pb_resultset *set, const struct pb_fio_opts *o,
                       struct pb_fio_job *j);

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

/* Add the results of the usable jobs to set under their config, test and
 * host: a job alone as its jobname, a run of clones as "<jobname>#<k>"
 * each plus their aggregate as the first one's jobname. */
void pb_fio_emit_all(struct pb_resultset *set, const struct pb_fio_job *first,
                     size_t size, size_t n, pb_fio_clone_fn is_clone,
                     const void *ctx);

/* Set jobname of the n jobs: the name, or "<name> run <k>" when the name
 * occurs in several runs. */
void pb_fio_name_runs(struct pb_resultset *set, struct pb_fio_job *first,
                      size_t size, size_t n);

/* ==== file-level ==== */

/* Equal strings, or both NULL. */
int pb_fio_same_str(const char *a, const char *b);

/* PB_OK, or PB_EINPUT when buf holds nothing but white space. */
int pb_fio_check_blank(const char *path, const char *buf, size_t len,
                       struct pb_err *err) PB_WUR;

/* Record the fio version ("fio-3.33") of the file. */
void pb_fio_set_version(struct pb_resultset *set, const char *version);

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
