/* Private to render/: the report's data model (data.c, stream.c), test
 * identity (ignore.c) and the analyses over it (analysis.c, sweeps.c).
 * Included by the render/ files that use it (render_int.h has all). */
#ifndef PB_RP_DATA_H
#define PB_RP_DATA_H

#include "render/rp_base.h"

#include <stdint.h>

/* ==== the report's model (data.c) ==== */

struct rp_kv {
    const char *key, *value;
    const char *origin; /* configs: "KIND: DETAIL"; NULL = parser */
};

struct rp_config {
    long long id;
    const char *label;
    struct rp_kv *params; /* sorted by key */
    size_t nparams, cap;
    size_t rank; /* position in natural label order among used configs */
    int used;
    uint32_t color;
    size_t nvals, ntested; /* its cells and tests (data.c / stream.c) */
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
 * million at 10^6-10^7 results (docs/performance.md, "Report memory"). */
struct rp_cell {
    uint32_t test, metric, config; /* indexes into rp_data */
    unsigned char has_value;
    unsigned char in_sweep; /* drawn in a sweep */
    double mean;
    double se;  /* standard error; < 0 unknown */
    long n;     /* samples behind mean (runs, or the parser's count) */
    int32_t nresults; /* stored results averaged into mean (1: n is the
                         parser's) */
    int32_t nnull; /* rows without a value */
    const char *null_reason;
    long long source; /* id of the first source behind it (its facts) */
    int32_t nrepeats, outliers; /* stored samples behind it and how many
                                   are outliers (spread.c) */
};

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
    size_t ncells_total;      /* every cell, in memory or not */
};

/* Read everything the report shows, filtered by f, and aggregate it into
 * cells grouped by test (natural order) and metric. Returns PB_OK,
 * PB_EUSAGE (bad pattern) or PB_EDB. Release with rp_data_release. */
int rp_data_load(struct pb_db *db, const struct pb_db_filter *f,
                 struct rp_data *d, struct pb_err *err) PB_WUR;
void rp_data_release(struct rp_data *d);
/* The same, with the test parameters that do not make tests different
 * (NULL = pb_render_default_ignore; {NULL} = none): tests that differ only
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
                   const char *null_reason);
void rp_ignore_release(struct rp_data *d);

/* ==== analysis.c: what to chart, best configs, ranking; sweeps.c ==== */

/* Default-charted metrics: fio bw/iops, the main bonnie++ and iozone
 * throughputs, anything unknown (PTS "value"); not fio latency/CPU, not
 * ZFS space metrics. */
int rp_metric_headline(const char *metric);

/* Set chart/primary on every group. */
void rp_mark_groups(struct rp_data *d);

/* The verdict on the best configuration against the runner-up: the
 * test compare uses (rp_judge_cells, judge_int.h), at 0.05. */
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

enum rp_dimkind {
    RP_DIM_CONFIG,    /* a config_param key */
    RP_DIM_TEST,      /* a test_param key */
    RP_DIM_LABEL,     /* the config label, when params do not tell apart */
    RP_DIM_TEST_NAME, /* the test name, likewise (internal to sweeps) */
    RP_DIM_FAMILY,    /* the test's tool: groups, never an axis (internal) */
    RP_DIM_OTHERS     /* a series of every configuration: the combination
                         of the configuration dimensions other than x */
};

struct rp_dim {
    enum rp_dimkind kind;
    const char *key;   /* param key; "config" for RP_DIM_LABEL; the keys
                          combined, ", "-joined, for RP_DIM_OTHERS */
    const char **vals; /* distinct values in display order */
    size_t nvals;
    /* RP_DIM_OTHERS: every configuration dimension that varies but x, in
     * order of preference: the columns of the sweep's table */
    const char **keys;
    size_t nkeys;
};

/* A spot of a panel's grid that holds several configurations no
 * dimension tells apart (the same setup under two titles): their results
 * pooled as repeats of one setup. */
struct rp_spot {
    size_t k;            /* its grid index */
    const size_t *cells; /* the cells pooled, in configuration order */
    size_t n;
    const char *labels; /* their configurations' labels, " + "-joined */
    struct rp_cell pooled;
};

/* One chart of a sweep: the cells of one combination of the other
 * dimensions, on an nx × ns grid (row-major by series). */
struct rp_panel {
    const char *title; /* "rw=randread, numjobs=1"; "" when alone */
    size_t *grid;      /* ns * nx cell indexes, SIZE_MAX = none (a pooled
                          spot: its first cell) */
    size_t nx, ns;     /* used x and series values (subset of the dim) */
    const char **xvals, **svals;
    uint32_t *scolors;
    struct rp_spot *spots; /* grid spots of several configurations */
    size_t nspots;
};

/* The cell at grid index k of p (the pooled one of a spot), NULL when
 * empty; *spot (may be NULL) gets the spot or NULL. */
const struct rp_cell *rp_panel_cell(const struct rp_data *d,
                                    const struct rp_panel *p, size_t k,
                                    const struct rp_spot **spot);

/* Why a cell of the sweep's metric is in no panel (docs/report.md,
 * "Sweeps": every configuration appears or is named). */
enum rp_left_why {
    RP_LEFT_NOVALUE, /* the result has no value; what: its reason */
    RP_LEFT_NODIM,   /* no value of x or the series; what: its name */
    RP_LEFT_APART,   /* set apart by other dimensions, nothing to compare
                        with; what: "atime=on" */
    RP_LEFT_CLASH,   /* tests told apart only by name on one spot */
    RP_LEFT_PANELS   /* in panels past the most a sweep draws */
};

struct rp_left {
    size_t cell;
    int why;          /* enum rp_left_why */
    const char *what; /* NULL = nothing to add */
};

struct rp_sweep {
    size_t metric;
    struct rp_dim x, s;
    struct rp_panel *panels;
    size_t npanels, omitted;
    struct rp_left *left; /* by reason, what, configuration, test */
    size_t nleft, capleft;
    size_t nconfigs;      /* configurations with a cell of the metric */
    size_t nleft_configs; /* of them, in no panel */
};

struct rp_sweeps {
    struct pb_arena arena;
    struct rp_sweep *v;
    size_t n, cap;
    /* rp_find_sweeps's PB_EUSAGE in full (the error holds its first 255
     * bytes); NULL otherwise */
    const char *why;
};

/* Find sweeps over the primary groups: for each metric, the config/test
 * dimensions that vary; x and series chosen automatically unless xkey or
 * skey name one (docs/report.md, "Sweeps"). Marks cells drawn in a sweep
 * (in_sweep) and records those left out (rp_sweep.left). Returns PB_OK or
 * PB_EUSAGE when no sweep can be drawn with xkey/skey: out->why says why
 * in full. Release out with rp_sweeps_release either way. */
int rp_find_sweeps(struct rp_data *d, const char *xkey, const char *skey,
                   struct rp_sweeps *out, struct pb_err *err) PB_WUR;
void rp_sweeps_release(struct rp_sweeps *s);

#endif
