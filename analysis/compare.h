/* analysis/compare.h: compare's pairing and statistics (compare.c) and
 * the kinds of metric it summarises apart (metric_kind.c). Two sides are
 * read as the report reads them (repeats aggregated), paired by test and
 * metric (and configuration), each pair judged (Welch from summaries,
 * Mann-Whitney on stored samples; not judged with a single run), gated,
 * and summarised per kind of metric, into the plain struct pb_compare
 * that cli/ prints and render/ draws (pb_compare_html). docs/statistics.md,
 * "Compare: pairing and statistics".
 *
 * Use:
 *   1. fill two struct pb_compare_side (an open database and a filter
 *      each) and a struct pb_compare_opts;
 *   2. pb_compare_run pairs and judges them into a struct pb_compare;
 *   3. read its pairs, kinds and unpaired results (their texts:
 *      render/render.h, pb_compare_*_text);
 *   4. pb_compare_free. */
#ifndef PB_AN_COMPARE_H
#define PB_AN_COMPARE_H

#include "analysis/data.h"

#include <stddef.h>

/* One side of a comparison: results of db selected by filter (config_re,
 * source_ids, test_re, metric_re), repeats aggregated as in the report. */
struct pb_compare_side {
    struct pb_db *db;           /* borrowed, read-only is enough */
    struct pb_db_filter filter; /* borrowed strings */
    const char *name;           /* the selector as given, for messages */
};

struct pb_compare_opts {
    double alpha;       /* significance level; 0 = 0.05 */
    double fail_worse;  /* gate threshold in %; NAN or < 0 = no gate */
    const char *fail_metric_re; /* gate only metrics matching; NULL = all */
    const char *const *ignore_params; /* as rp_data_load_ignoring */
    int gate_unjudged;  /* gate pairs not judged on their raw change */
    int every_metric;   /* --metric given: compare every metric it selects,
                           not only those a person reads (rp_metric_read) */
};

/* ==== kinds of metric (metric_kind.c) ==== */

/* The kinds of metric compare summarises apart, never in one number
 * (docs/statistics.md, "Kinds of metric"). */
enum pb_metric_kind {
    PB_KIND_THROUGHPUT = 0,
    PB_KIND_LATENCY,
    PB_KIND_CPU,
    PB_KIND_OTHER
};
#define PB_NKINDS 4
/* "throughput", "latency", "cpu", "other" */
const char *pb_metric_kind_name(enum pb_metric_kind k);

/* The kind of a metric, by its name and unit. */
enum pb_metric_kind rp_metric_kind(const char *name, const char *unit);

/* 1 when compare compares and gates the metric by default: what a
 * person reads of a run (throughput, latency, CPU, results of other
 * tools); 0 for the bookkeeping beside them (bytes moved, runtimes,
 * steady-state flags, log summaries, pool and dataset state, run
 * telemetry), which only --metric reaches. */
int rp_metric_read(const char *name);

/* ==== the comparison (compare.c) ==== */

enum pb_compare_verdict {
    PB_CMP_SAME = 0,  /* tested, not significant: "~" */
    PB_CMP_BETTER,
    PB_CMP_WORSE,
    PB_CMP_UNJUDGED   /* fewer than 2 runs (or no standard error) on a side */
};

/* One paired (test, metric): strings live as long as the pb_compare. */
struct pb_compare_pair {
    const char *test, *metric, *unit;
    const char *metric_title; /* "read bandwidth" */
    enum pb_metric_kind kind;
    int higher;               /* 1 higher is better, 0 lower */
    const char *base_config, *cand_config;
    double base_mean, base_se, cand_mean, cand_se; /* se < 0 unknown */
    long base_n, cand_n;
    double change_pct;   /* of the means, (cand / base - 1) 100; NaN base 0 */
    double estimate_pct; /* the test's estimate of the change: change_pct
                            (Welch, not judged), Hodges-Lehmann
                            (Mann-Whitney) */
    double ci_lo_pct, ci_hi_pct; /* 1 - alpha CI of estimate_pct, never
                                    below -100 for positive quantities;
                                    NaN none; ci_hi_pct INFINITY: not
                                    bounded above */
    int ci_unbounded;          /* no interval: the base not distinct from 0 */
    double p;                  /* two-sided; 1 when not judged */
    const char *method;        /* "welch", "mann-whitney", "none" */
    const char *why;           /* why not judged, else NULL */
    enum pb_compare_verdict verdict;
    int offender;              /* fails the gate */
    const struct rp_unit *u;   /* the metric's unit, for display */
};

/* A result of one side that has no partner on the other. */
struct pb_compare_unpaired {
    int cand; /* 0 base, 1 cand */
    const char *test, *metric, *config;
};

/* The pairs of one kind of metric. */
struct pb_compare_kind {
    size_t n;           /* pairs */
    size_t significant; /* better + worse */
    size_t better, worse, not_judged;
    double geomean_better; /* geometric mean of the significant changes'
                              ratios, each oriented so > 1 is better; NaN
                              when none */
    double geomean_ratio;  /* the same of cand/base as they are */
    int mixed;             /* those pairs differ in direction */
};

struct pb_compare {
    struct pb_compare_pair *pairs; /* sorted by test (natural), metric */
    size_t npairs;
    struct pb_compare_unpaired *unpaired;
    size_t nunpaired;
    size_t better, worse, same, not_judged, offenders;
    double alpha, fail_worse;
    int gate_unjudged;
    struct pb_compare_kind kinds[PB_NKINDS];
    enum pb_metric_kind headline; /* the kind the summary leads with */
    const char **left_out; /* metrics not compared by default (sorted) */
    size_t nleft_out;
    size_t nbase_cells, ncand_cells; /* results (aggregated) per side */
    int single_config; /* every pair has the same two configurations */
    const char *base_name, *cand_name;
    struct pb_compare_priv *priv;
};

/* Pair the two sides and test every pair. Returns PB_OK with *out (free
 * with pb_compare_free), PB_EUSAGE for a bad pattern, PB_EDB. A side
 * with no results, or no pair at all, is not an error here: the caller
 * checks nbase_cells, ncand_cells and npairs. */
int pb_compare_run(const struct pb_compare_side *base,
                   const struct pb_compare_side *cand,
                   const struct pb_compare_opts *opts,
                   struct pb_compare **out, struct pb_err *err) PB_WUR;
void pb_compare_free(struct pb_compare *c);

/* The tests (sorted, distinct) a side holds, for "what there is"
 * messages when npairs is 0 (with pairs, the cells behind them are
 * already freed and nothing is called): calls cb with each name; stops
 * when cb returns non-zero. */
int pb_compare_each_test(const struct pb_compare *c, int cand,
                         int (*cb)(void *ctx, const char *test), void *ctx);

#endif
