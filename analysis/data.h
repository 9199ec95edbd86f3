/* analysis/: the report's data (the data model render/ draws from, kept
 * with its rp_ names): configurations, tests, metrics, sources, facts and
 * the cells of aggregated results, loaded from the database (data.c,
 * through reads.c), put in report order (data_order.c), with the cells
 * of big reports on disk one test at a time (stream.c), tests compared as
 * one (ignore.c), and what is concluded from them: which metrics get
 * charts, the best configuration and its verdict, the ranking
 * (analysis.c, judge.c), the history across runs (history.c), hosts
 * (hosts.c), latency distributions (latency.c) and outlier repeats
 * (spread.c). Also the text, order and unit helpers the data is read with
 * (names.c, sort.c, metrics.c). It includes nothing from render/;
 * The sweeps are in analysis/sweeps.h. */
#ifndef PB_AN_DATA_H
#define PB_AN_DATA_H

#include "analysis/analysis.h"
#include "common/pb.h"
#include "common/stats.h"

#include <stddef.h>
#include <stdint.h>

/* ==== text as read (names.c) ==== */

/* Arena copy of s as valid UTF-8 that XML accepts: invalid sequences and
 * control characters become U+FFFD, tab/CR/LF become a space. NULL in
 * gives NULL out. Every string read from the database goes through it. */
char *rp_clean(struct pb_arena *a, const char *s);

/* Natural order: digit runs compare as numbers ("bs=4k" < "bs=16k"). */
int rp_natcmp(const char *a, const char *b);

/* Byte length of the UTF-8 sequence starting at s (1 for bad bytes). */
size_t rp_u8len(const char *s);

/* The strings up to a NULL, one after the other in buf, cut at n - 1
 * bytes as snprintf(buf, n, "%s%s...") would (without its cost). Returns
 * buf. */
char *rp_cat(char *buf, size_t n, ...);

/* Human name of a metric: "read IOPS", "sequential output, block". */
const char *rp_metric_title(const char *metric, char *buf, size_t n);

/* ==== sorting (sort.c) ==== */

/* qsort with a context handed to every comparison (glibc qsort_r, the same
 * order as qsort, ties included): comparators take what they compare
 * against from ctx, never from a file-level global. n <= 1 does nothing
 * (base may then be NULL). */
void rp_sort(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *, void *), const void *ctx);

/* ==== units of the data (names.c; drawn by render/units.c) ==== */

enum rp_ukind {
    RP_U_BPS,   /* B/s: KiB/s, MiB/s, GiB/s */
    RP_U_IOPS,  /* ops/s of fio *_iops: k IOPS */
    RP_U_OPS,   /* other ops/s */
    RP_U_NS,    /* ns, µs, ms, s */
    RP_U_BYTES, /* B, KiB, MiB, ... */
    RP_U_PCT,   /* % */
    RP_U_RATIO, /* 1.99× */
    RP_U_OTHER  /* unit kept as given, SI prefixes for big numbers */
};

struct rp_unit {
    enum rp_ukind kind;
    const char *raw; /* the stored unit ("Seconds"), for RP_U_OTHER */
};

void rp_unit_of(const char *metric, const char *unit, struct rp_unit *out);

/* Keys whose values are byte sizes ("recordsize", "bs", ...). */
int rp_size_key(const char *key);

/* A parameter value for display: sizes as "4k"/"128k"/"1M", else as is.
 * Returns buf or value. */
const char *rp_param_text(const char *key, const char *value, char *buf,
                          size_t n);

/* ==== kinds of metric the data model keeps resident (metrics.c) ==== */

/* Is metric one of the three "IOPS against latency" reads of a test
 * (DIR_iops, DIR_clat_mean, DIR_clat_p99; iolat.c)? stream.c loads
 * those groups. */
int rp_iolat_metric(const char *metric);
/* A metric of the bonnie++ table (bonnie_table.c). */
int rp_metric_is_bonnie(const char *metric);
/* Is the metric shown in the compression or bonnie++ table (tables.c)? */
int rp_metric_in_special(const char *metric);
/* A ZFS space metric (compressratio, used, logicalused, ...). */
int rp_metric_is_zfs_space(const char *metric);

/* The bonnie++ columns in bon_csv2html order: value metric, CPU,
 * latency; which column (and part: 0 value, 1 cpu, 2 latency) a metric
 * is, or -1. */
struct rp_bon_col {
    const char *group, *name, *value, *cpu, *lat;
};
#define RP_NBON 12
extern const struct rp_bon_col rp_bon_cols[RP_NBON];
int rp_bon_slot(const char *m, int *part);

/* fio's I/O directions, in the order the report shows them. */
extern const char *const rp_io_dirs[3];

/* The default list of test parameters that do not make tests different
 * (--ignore-param): runtime, size, ramp_time, time_based (ignore.c). */
extern const char *const pb_an_default_ignore[];

/* Colour of the i-th configuration in report order (data_order.c). */
uint32_t rc_config_color(size_t i);
/* Colour of the i-th of n ordered series (a ramp); the colour at t in
 * [0, 1] of the ramp through stops[0..n) (data_order.c). */
uint32_t rc_series_color(size_t i, size_t n);
uint32_t rc_lerp_color(const uint32_t *stops, size_t n, double t);

/* ==== the report's model (data.c) ==== */

/* Configurations a chart shows whole: a test and metric with more draws
 * the best, the baseline and the worst (render/chart_many.c); History
 * draws that many lines at most. */
#define RP_MANY_LIMIT 40

/* Rows of an "all metrics" table (render/report_tests.c); the rest is for
 * `poolbench export`. The cells of a test that stay in memory while it is
 * drawn follow from it (stream.c). */
#define MAX_ALL_ROWS 1000

struct rp_kv {
    const char *key, *value;
    const char *origin; /* configs: "KIND: DETAIL"; NULL = parser */
};

/* 48 bytes: a report holds one per configuration, 100,000 bonnie++
 * machines (counts of 32 bits, as the cells' indexes). */
struct rp_config {
    long long id;
    const char *label;
    struct rp_kv *params; /* sorted by key; in rp_data.cparams */
    uint32_t nparams;
    uint32_t rank; /* position in natural label order among used configs */
    uint32_t color;
    uint32_t nvals, ntested; /* its cells and tests (data.c / stream.c) */
    unsigned char used;
};

struct rp_test {
    long long id;
    const char *name, *tool;
    struct rp_kv *params;
    size_t nparams, cap;
    size_t rank;
    int used;
    int swept; /* some of its cells are drawn in a sweep */
    int single; /* its charts would have one bar each: folded into the
                   report's table of tests with one configuration */
};

struct rp_metric {
    long long id;
    const char *name, *unit;
    int dir; /* +1 higher is better, -1 lower */
    struct rp_unit u;
    int headline; /* charted by default */
};

/* Results of one config for one test and metric, repeats aggregated.
 * Kept small: a report holds one per (test, metric, config) shown, a
 * million at 10^6-10^7 results (docs/performance.md, "Report memory"):
 * 64 bytes, its null reason an index (rp_cell_reason) and its flags
 * bits beside it. */
struct rp_cell {
    uint32_t test, metric, config; /* indexes into rp_data */
    unsigned reason : 30; /* why it has no value: 1 + index into
                             rp_data.reasons, 0 none (rp_cell_reason) */
    unsigned has_value : 1;
    unsigned in_sweep : 1; /* drawn in a sweep */
    double mean;
    double se;  /* standard error; < 0 unknown */
    long n;     /* samples behind mean (runs, or the parser's count) */
    long long source; /* id of the first source behind it (its facts) */
    int32_t nresults; /* stored results averaged into mean (1: n is the
                         parser's) */
    int32_t nnull; /* rows without a value */
    int32_t nrepeats, outliers; /* stored samples behind it and how many
                                   are outliers (spread.c) */
};
_Static_assert(sizeof(struct rp_cell) <= 64,
               "struct rp_cell: 64 bytes, 400,000 resident at 100,000 "
               "machines");

/* The most distinct null reasons a report holds (rp_cell.reason's 30
 * bits); one more fails the load (rp_data_load). */
#define RP_MAX_REASONS ((1u << 30) - 1)

/* The cells of one test and metric, contiguous in rp_data.cells. */
struct rp_group {
    size_t test, metric;
    size_t first, n, nvalued;
    int chart;   /* gets a chart */
    int primary; /* the test's main metric for its direction */
};

struct rp_source {
    long long id;
    const char *path, *format, *tool_version, *ingested_at, *sha256;
    long long size, nresults;
    int used;
};

struct rp_fact {
    long long source_id;
    const char *host, *key, *value;
};

struct rp_data {
    struct pb_arena arena;
    struct rp_config *configs;
    size_t nconfigs, capconfigs;
    struct rp_kv *cparams; /* every configuration's parameters, one block
                              (data.c): 100,000 machines' arrays of 3
                              were one allocation each */
    size_t ncparams, capcparams;
    struct rp_test *tests;
    size_t ntests, captests;
    struct rp_metric *metrics;
    size_t nmetrics, capmetrics;
    struct rp_cell *cells;
    size_t ncells, capcells;
    struct rp_group *groups;
    size_t ngroups, capgroups;
    struct rp_source *sources;
    size_t nsources, capsources;
    struct rp_fact *facts;
    size_t nfacts, capfacts;
    const char **strs; /* texts repeated across sources and facts (keys,
                          hosts, formats, versions), stored once: a hash
                          set of arena strings (data.c) */
    size_t nstrs, capstrs;
    const char **reasons; /* the cells' distinct null reasons, in the
                             order first read (rp_cell.reason) */
    size_t nreasons, capreasons;
    size_t nrows; /* result rows read */
    size_t used_configs, used_tests, used_sources;
    int metric_filtered; /* --metric given: chart every metric */
    struct rp_merge *merge; /* tests compared as one (ignore.c); NULL */
    const struct rp_history *history; /* history.c; NULL = none */
    const struct rp_hosts *hosts;     /* hosts.c; NULL = none */
    struct rp_stream *stream; /* stream.c: the cells of the groups only
                                 "Results by test" reads are on disk, one
                                 test in memory at a time; NULL = every
                                 cell is in cells */
    int multi_host;           /* results of two host names or more read */
    int config_hosts;         /* a configuration's results of two host
                                 names or more (else hosts.c reads no
                                 rows: no configuration has two hosts) */
    size_t ncells_total;      /* every cell, in memory or not */
};

/* Read everything the report shows, filtered by f, and aggregate it into
 * cells grouped by test (natural order) and metric. Returns PB_OK,
 * PB_EUSAGE (bad pattern) or PB_EDB. Release with rp_data_release. */
int rp_data_load(struct pb_db *db, const struct pb_db_filter *f,
                 struct rp_data *d, struct pb_err *err) PB_WUR;
void rp_data_release(struct rp_data *d);
/* The same, with the test parameters that do not make tests different
 * (NULL = pb_an_default_ignore; {NULL} = none): tests that differ only
 * in them are one test, their results aggregated as repeats. */
int rp_data_load_ignoring(struct pb_db *db, const struct pb_db_filter *f,
                          const char *const *ignore, struct rp_data *d,
                          struct pb_err *err) PB_WUR;
/* The same for `poolbench report`: memory independent of the number of
 * cells (docs/performance.md, "Report memory"). Only the groups that sections
 * read across tests (rp_group_resident) have their cells in d->cells;
 * the others have first == SIZE_MAX until rp_stream_test loads their test.
 * Without merged tests or an experiment only; else as
 * rp_data_load_ignoring. */
int rp_data_load_streamed(struct pb_db *db, const struct pb_db_filter *f,
                          const char *const *ignore, struct rp_data *d,
                          struct pb_err *err) PB_WUR;
/* Are g's cells in d->cells for the whole report (primary metrics, the
 * special tables' and steady-state metrics), or only while its test is
 * loaded? */
int rp_group_resident(const struct rp_data *d, const struct rp_group *g);
/* Load the cells of test (a test index) into d->cells past d->ncells and
 * point its non-resident groups at them; the test loaded before loses
 * them (pointers into them die). Nothing without d->stream. The window
 * is a cache: d itself is logically unchanged. */
void rp_stream_test(const struct rp_data *d, size_t test);

/* Why c (a cell of d) has no value, or NULL. */
const char *rp_cell_reason(const struct rp_data *d, const struct rp_cell *c);

/* Value of a config's or test's parameter, or NULL. */
const char *rp_param(const struct rp_kv *params, size_t n, const char *key);

/* Add the samples of one cell in order; mean, SE and n come out. Used by
 * data.c and tests. */
struct rp_acc {
    long k;
    double mean, m2;
    int has_se1;
    double se1;
    long n1;
};
void rp_acc_add(struct rp_acc *a, double v, int has_se, double se,
                long samples);
/* Fill mean, se, n of c from a. */
void rp_acc_done(const struct rp_acc *a, struct rp_cell *c);
/* b += a (Chan et al.'s pairwise update of mean and M2). */
void rp_acc_merge(struct rp_acc *b, const struct rp_acc *a);

/* ==== ignore.c: test identity for comparison ==== */

/* After the tests and their parameters are read: map each test to the
 * first test of its identity (tool, name, parameters but the ignored
 * ones); ignored parameters whose values differ within an identity are
 * dropped from its first test's parameters. Sets d->merge when some tests
 * share an identity. */
void rp_ignore_map(struct rp_data *d, const char *const *ignore);
/* The test index standing for test. */
size_t rp_ignore_canon(const struct rp_data *d, size_t test);
/* A finished cell of (test, metric, config): 1 when it was added to the
 * cell of an earlier test of the same identity (nothing to append), else 0
 * (the caller appends it as cell d->ncells). */
int rp_ignore_cell(struct rp_data *d, size_t test, size_t metric,
                   size_t config, const struct rp_acc *acc, long nnull,
                   unsigned reason);
/* Is test (a canonical index) one of several tests of an identity? Its
 * cells are merged in memory before they can be streamed. */
int rp_ignore_merged(const struct rp_data *d, size_t test);
/* After the last rp_ignore_cell: drop the merge's accumulators. */
void rp_ignore_cells_done(struct rp_data *d);
void rp_ignore_release(struct rp_data *d);

/* ==== analysis.c: what to chart, best configs, ranking ==== */

/* Default-charted metrics: fio bw/iops, the main bonnie++ and iozone
 * throughputs, anything unknown (PTS "value"); not fio latency/CPU, not
 * ZFS space metrics. */
int rp_metric_headline(const char *metric);

/* Set chart/primary on every group. */
void rp_mark_groups(struct rp_data *d);

/* The verdict on the best configuration against the runner-up: the
 * test compare uses (rp_judge_cells, judge.c), at 0.05. */
enum rp_verdict {
    RP_V_ONLY,     /* one configuration */
    RP_V_CLEAR,    /* significant, the best's way */
    RP_V_OVERLAP,  /* not distinguishable: not significant */
    RP_V_UNJUDGED, /* a single run (or no standard error) on a side */
    RP_V_TIE,      /* equal values */
    RP_V_SPLIT     /* significant the runner-up's way: the mean and the
                      repeats (Mann-Whitney) disagree */
};

struct rp_best {
    size_t best, runner; /* cell indexes; SIZE_MAX = none */
    double margin;       /* fraction better than the runner-up */
    enum rp_verdict verdict;
    double p;            /* of the test; 1 when not judged */
    const char *method;  /* "welch", "mann-whitney", "none" */
    const char *why;     /* not judged: why */
};

/* The verdict in words ("clear: Welch p = 0.0012", "not judged: single
 * run") into buf (n >= 96), and the table style that marks it (the
 * report's table; `poolbench best` prints it too). */
const char *rp_best_verdict_text(const struct rp_best *b, char *buf, size_t n,
                                 unsigned char *style);
/* "clear", "not distinguishable", "not judged", "tie", "unclear", "only
 * one configuration". */
const char *rp_verdict_word(enum rp_verdict v);

struct pb_an_samps;
/* Best and runner-up of a group (direction-aware), judged by the test
 * compare uses on their summaries and, from ss (may be NULL), their
 * stored repeats. */
void rp_best_of(const struct rp_data *d, const struct rp_group *g,
                const struct pb_an_samps *ss, struct rp_best *out);
/* The best configuration per test, as the report's table and `poolbench
 * best` list it: cb(ctx, g, b) for every primary group with two valued
 * configurations or more, in d's order, b its rp_best_of with ss; stops
 * at cb's first non-zero value and returns it (else 0). *nsingle (may be
 * NULL) gets the number of primary groups passed with one valued
 * configuration. */
int rp_best_each(const struct rp_data *d, const struct pb_an_samps *ss,
                 int (*cb)(void *ctx, const struct rp_group *g,
                           const struct rp_best *b),
                 void *ctx, size_t *nsingle);

/* Cells of a group ordered best first (valued by value, then nulls); out
 * holds g->n cell indexes. */
void rp_order_cells(const struct rp_data *d, const struct rp_group *g,
                    size_t *out);

struct rp_rank {
    size_t config;
    double score; /* geometric mean of value/best, 1 = best everywhere */
    size_t wins;
};

struct rp_ranking {
    struct rp_rank *e; /* best first */
    size_t n;
    size_t *groups; /* the shared series it is computed over */
    size_t ngroups;
    size_t unranked; /* configs with primary results left out */
};

/* Geometric-mean ranking of configs over the primary series they share.
 * n == 0 when fewer than two configs share a series. */
void rp_rank_configs(const struct rp_data *d, struct rp_ranking *out);
void rp_ranking_release(struct rp_ranking *r);


/* out = the index of the element of arr[0..n) (sorted by .id) whose id
 * is want, or SIZE_MAX: one binary search for the id-sorted arrays of
 * struct rp_data (tests, configs). */
#define RP_FIND_ID(arr, n, want, out)                                          \
    do {                                                                       \
        size_t lo_ = 0, hi_ = (n);                                             \
        while (lo_ < hi_) {                                                    \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                               \
            if ((arr)[mid_].id < (want))                                       \
                lo_ = mid_ + 1;                                                \
            else                                                               \
                hi_ = mid_;                                                    \
        }                                                                      \
        (out) = lo_ < (n) && (arr)[lo_].id == (want) ? lo_ : SIZE_MAX;         \
    } while (0)

/* ==== facts (data.c) ==== */

/* The facts of source id (model/ lists them by source id): their count,
 * the first in *first. */
size_t rp_facts_of(const struct rp_data *d, long long id, size_t *first);
/* The value of fact key of source id, or NULL. */
const char *rp_fact_of(const struct rp_data *d, long long source,
                       const char *key);

/* ==== history across runs (history.c; drawn by render/history.c) ==== */

/* Welch's level for a step; the charts drawn (their series are kept
 * whole, the others' only their steps, for the Warnings list) and their
 * lines at most: the first configurations in the report's order (as
 * RP_MANY_LIMIT bars: more are not readable). */
#define RP_HIST_ALPHA  0.05
#define RP_HIST_CHARTS 60
#define RP_HIST_LINES  RP_MANY_LIMIT

/* One point of a series: a run or ingest date. */
struct rp_hpoint {
    size_t point;     /* index into rp_history.keys (time order) */
    double mean, se;  /* se < 0: unknown */
    long n;
    double p;         /* Welch p against the points before; NAN = none */
    double base;      /* their pooled mean (when p is set) */
    size_t nbase;     /* how many points that was */
    int step;         /* p < 0.05: a step change */
    double change;    /* (mean - base) / |base| at a step */
};

/* Where a point's time came from (history.c source_time). */
enum { RP_HWHEN_SOURCE, RP_HWHEN_FILE, RP_HWHEN_INGEST };
/* The latest point against the previous one. */
enum {
    RP_HLATEST_UNTESTED, /* n < 2 or no SE on a side */
    RP_HLATEST_SAME,     /* p >= RP_HIST_ALPHA */
    RP_HLATEST_BETTER,
    RP_HLATEST_WORSE
};

/* A configuration's points for one test and metric (>= 2). */
struct rp_hseries {
    size_t test, metric, config;
    size_t first, n; /* into rp_history.pts */
    size_t steps;
    double lchange; /* latest against the previous: (b - a) / |a|; NAN */
    double lp;      /* its Welch p; NAN = not tested */
    int lverdict;   /* RP_HLATEST_* */
    int reduced; /* not drawn (the section draws the first charts only):
                    its points are its steps alone */
};

struct rp_history {
    const char **keys;  /* run id or day of each point, oldest first */
    const char **whens; /* their earliest time, "YYYY-MM-DD HH:MM:SS" */
    int *whence;        /* RP_HWHEN_* of each */
    size_t nkeys;
    struct rp_hpoint *pts;
    size_t npts, cappts;
    struct rp_hseries *s; /* by test rank, metric, config rank */
    size_t ns, caps;
    size_t nhidden; /* series not drawn and without steps: dropped */
    struct rp_hpair { /* the charts drawn: their series and lines */
        size_t test, metric, nseries, nlines;
    } *pairs;
    size_t npairs;
    size_t nsteps;
    struct pb_arena arena;
};

/* The history of d's headline metrics (rows read again from db with f):
 * out->ns == 0 when the sources shown are of one run or day (then db is
 * not read). PB_OK or the query's error. Release with
 * rp_history_release (also after an error). */
int rp_history_load(struct pb_db *db, const struct pb_db_filter *f,
                    const struct rp_data *d, struct rp_history *out,
                    struct pb_err *err) PB_WUR;
void rp_history_release(struct rp_history *h);
/* ==== hosts as a dimension (hosts.c; drawn by render/chart_hosts.c) ==== */

/* A host is an outlier when it is more than RP_HOST_REL from the median
 * of the hosts, with at least RP_HOST_MIN hosts; from RP_HOST_Z_FROM hosts
 * on it must also have a modified z-score above 3.5 (docs/report.md,
 * "Hosts"). */
#define RP_HOST_REL    0.20
#define RP_HOST_MIN    3
#define RP_HOST_Z_FROM 5

struct rp_hspread {
    size_t n;
    double min, median, max;
    double ratio; /* max / min; NAN when min <= 0 */
    double cv;    /* sample standard deviation / |mean|; NAN: n < 2 or 0 */
};

/* Spread of the host values v[0..n) into sp; out[i] (may be NULL) gets
 * +1 (far above the median), -1 (far below) or 0, and dev[i] (may be
 * NULL) (v[i] - median) / |median| (NAN when the median is 0). Returns the
 * number of outliers. */
size_t rp_host_spread(const double *v, size_t n, struct rp_hspread *sp,
                      signed char *out, double *dev);

struct rp_hhost {
    const char *name;
    double mean, se; /* se < 0: unknown */
    long n;
    signed char outlier; /* +1 above, -1 below the median, 0 */
    double dev;          /* (mean - median) / |median|; NAN */
};

/* A configuration's results of one test and metric from >= 2 hosts. */
struct rp_hcell {
    size_t test, metric, config;
    size_t first, n; /* its hosts in rp_hosts.h, natural order of names */
    size_t nruns;    /* sources in which >= 2 of them ran together */
    int has_agg, agg_fio; /* agg_fio: fio's "(all clients)" in every run */
    double agg;           /* all hosts: mean over those runs */
    int has_sum;          /* bandwidth/IOPS/bytes: the sum of the hosts */
    double sum;           /* mean over the runs of the sum of their hosts */
    struct rp_hspread sp;
    size_t noutliers;
};

struct rp_hosts {
    struct rp_hcell *c; /* group order (test rank, metric), config rank */
    size_t nc, capc;
    struct rp_hhost *h;
    size_t nh, caph;
    size_t noutliers;
    struct pb_arena arena;
};

/* The hosts of d's charted groups (rows read again from db with f, so
 * --host keeps working): out->nc == 0 when no configuration has results
 * from two hosts. PB_OK or the query's error. Release with
 * rp_hosts_release (also after an error). */
int rp_hosts_load(struct pb_db *db, const struct pb_db_filter *f,
                  const struct rp_data *d, struct rp_hosts *out,
                  struct pb_err *err) PB_WUR;
void rp_hosts_release(struct rp_hosts *h);

/* ==== repeats and outliers (spread.c) ==== */

/* Mark in out[0..n) the outliers of v[0..n) (modified z-score by the
 * MAD above 3.5; none when n < 5 or MAD is 0); returns their number. */
int rp_outliers_of(const double *v, size_t n, unsigned char *out);
/* Set nrepeats and outliers of d's cells from the stored samples.
 * PB_OK or PB_EDB. */
int rp_outliers_load(struct pb_db *db, struct rp_data *d,
                     struct pb_err *err) PB_WUR;

/* ==== latency distributions (latency.c; drawn by render/latency.c) ==== */

/* One merged distribution. */
struct rp_dist {
    size_t test, config;
    const char *kind; /* "read_clat" */
    size_t n, cap;    /* pairs, before and after finish() */
    uint64_t *val, *cnt;
    uint64_t total;
    size_t nhist; /* histograms summed */
    int drawn;    /* in a test's section already */
};

struct rp_lat {
    struct pb_arena arena;
    struct rp_dist *v; /* after loading: by test rank, kind, config rank */
    size_t n, cap;
    size_t *slots; /* while loading: (test, config, kind) -> index + 1 */
    size_t nslots; /* power of two */
    int nines;
};

/* Read and merge (per test, config and latency) every stored histogram of
 * the configs and tests in d that filter f keeps; NULL when there are
 * none. *rc gets PB_OK, PB_EUSAGE (bad pattern) or PB_EDB (err filled).
 * Free with rp_lat_free (NULL is fine). */
struct rp_lat *rp_lat_load(struct pb_db *db, const struct rp_data *d,
                           const struct pb_db_filter *f, int nines, int *rc,
                           struct pb_err *err);
void rp_lat_free(struct rp_lat *l);

/* ==== judge.c: one verdict on two cells (compare, best, the report) ==== */

/* The key of cell c of d in pb_an_samp_cmp's order. */
struct pb_an_samp rp_cell_key(const struct rp_data *d,
                              const struct rp_cell *c);

/* The stored repeats of cell c of d: only when c is one result row
 * (nresults 1) whose samples in ss number c->n (at least 2). A new array
 * (caller frees) and *n, or NULL and *n 0. */
double *rp_cell_repeats(const struct pb_an_samps *ss, const struct rp_data *d,
                        const struct rp_cell *c, size_t *n /* OUT */);

/* Judge cell cc (candidate, of dc with samples sc; sc may be NULL)
 * against cb (base, of db with sb) at level alpha: pb_stats_judge on
 * their means, standard errors and n, and their stored repeats when each
 * is one result that holds them. A summary without a standard error
 * whose repeats are stored gets theirs: *se_b and *se_c (may be NULL)
 * get the standard errors judged with (< 0 unknown). */
void rp_judge_cells(double alpha, const struct rp_data *db,
                    const struct rp_cell *cb, const struct pb_an_samps *sb,
                    const struct rp_data *dc, const struct rp_cell *cc,
                    const struct pb_an_samps *sc,
                    struct pb_stats_judgement *j /* OUT */,
                    double *se_b /* OUT */, double *se_c /* OUT */);

/* ==== the repeats of best and runner-up cells (analysis.c) ==== */

/* The stored repeats of the best and runner-up cells of d's primary
 * groups whose sizes let the Mann-Whitney test reach 0.05 (none read
 * when there are none), for rp_best_of. *out zeroed first; release with
 * pb_an_samps_release. PB_OK or PB_EDB. */
int rp_best_samples_load(struct pb_db *db, const struct rp_data *d,
                         struct pb_an_samps *out, struct pb_err *err) PB_WUR;

#endif
