/* render/: the report. Reads the model through model/'s API (never SQL),
 * aggregates repeated results (mean, standard error, n), ranks
 * configurations, finds sweeps along config/test dimensions, and writes a
 * self-contained static HTML page with charts. Charts are laid out once
 * (geometry of bars, axes, ticks and labels, text measured with cairo's
 * font metrics) into a display list that two back-ends draw: a direct SVG
 * writer (real <text>) and cairo surfaces (PNG, PDF). It does not parse
 * inputs and does not talk SQL.
 *
 * Use:
 *   1. open the database (pb_db_open, read-only is enough);
 *   2. fill a struct pb_render_opts (zero it first: defaults everywhere);
 *   3. pb_render_report() writes DIR/index.html and DIR/charts/, plus PNGs
 *      and a PDF when asked (and DIR/tests-NNN.html for very large
 *      reports, see pb_render_summary);
 *   4. close the database.
 * Lower layers, for callers that want a single chart on their own surface:
 *   pb_chart_svg() and pb_chart_draw() draw a laid-out chart; a chart is
 *   freed with pb_chart_free().
 */
#ifndef PB_RENDER_H
#define PB_RENDER_H

#include "common/pb.h"
#include "common/pb_file.h"
#include "model/db.h"

#include <cairo.h>
#include <stdint.h>

struct pb_render_opts {
    const char *outdir;         /* NULL = "report" */
    const char *title;          /* NULL = derived from the sources */
    struct pb_db_filter filter; /* --test, --config, --metric */
    const char *filter_note;    /* what the filter selects, said as a user
                                   would ("configurations of run x"),
                                   shown instead of its patterns; NULL =
                                   the patterns, quoted */
    const char *x_key;          /* sweep x dimension; NULL = automatic */
    const char *series_key;     /* sweep series dimension; NULL = automatic */
    int png;                    /* also write charts/NAME.png */
    const char *pdf_path;       /* also write one PDF here; NULL = none */
    const char *timestamp;      /* printed in the footer; NULL = none, which
                                   keeps the output byte-identical */
    const char *version; /* poolbench version for the footer; may be NULL */
    int force; /* write into a non-empty folder that holds no poolbench
                  report (its other files are kept) */
    /* Test parameters that do not make tests different (--ignore-param):
     * results of tests that differ only in these are compared as one test
     * (docs/model.md, "Tests: stored identity and compared identity").
     * NULL-terminated; NULL = the default list pb_an_default_ignore
     * (analysis/data.h); an empty list = none. */
    const char *const *ignore_params;
    int per_job; /* time series: a line per job, not per configuration */
    /* Colours of the configurations (0xRRGGBB), given in their label
     * order and cycled; NULL or 0 = the built-in palette (the config
     * file's report.palette). */
    const uint32_t *palette;
    size_t npalette;
    /* y axis of the latency CDFs (fio json+ bins): 0 = nines (90%, 99%,
     * 99.9%, ...), 1 = linear percent (report --latency-axis) */
    int latency_linear;
    /* results.csv and results.json hold every result only while the
     * report has at most this many; beyond, they are not written and the
     * page names export_cmd (report --raw-rows; docs/report.md,
     * "Output at scale"). 0 = always written. */
    size_t raw_rows;
    /* The command that exports every result of the report, shown when the
     * raw files are not written; NULL = "poolbench export --csv". */
    const char *export_cmd;
};

/* What pb_render_report wrote. pages: test pages (tests-001.html, ...),
 * written instead of one long "Results by test" section when it would
 * hold more than 200 charts; their charts are inline SVG, not files.
 * table_pages: pages of a long table beyond its first (bonnie-002.html,
 * ...). */
struct pb_render_summary {
    size_t charts, tables, pngs, results, cells, pages, table_pages;
    /* When pb_render_report fails because --x/--series cannot be drawn:
     * the whole explanation, one line (err holds its first 255 bytes);
     * else NULL. The caller frees it. */
    char *why;
};

/* Write the report. Its files replace the last report's in outdir only
 * once all are written (a failed or killed report leaves the last one
 * whole). Returns PB_OK; PB_EUSAGE for a bad filter pattern, an
 * --x/--series key that is no dimension of the data, or an outdir that
 * holds other files and no report (unless opts->force); PB_EDB; PB_EIO when
 * a file cannot be written (err names it). out may be NULL. Before it
 * returns it empties cairo's and fontconfig's static font caches: hold no
 * cairo objects of your own across the call. */
int pb_render_report(struct pb_db *db, const struct pb_render_opts *opts,
                     struct pb_render_summary *out, struct pb_err *err) PB_WUR;

/* ==== the best configuration per test, for the terminal ==== */

/* One test and metric: its best configuration and the runner-up, as the
 * report's "Best configuration per test" table has them. Strings are
 * borrowed until the callback returns. */
struct pb_render_best {
    const char *test, *tool, *metric, *unit;
    char metric_title[96]; /* "read IOPS" */
    int higher;            /* higher is better */
    const char *best;      /* configuration label */
    double value, se;      /* mean, standard error (< 0 unknown) */
    long n;                /* samples behind the mean */
    const char *runner;    /* NULL when there is none */
    double runner_value, runner_se;
    long runner_n;
    double margin; /* fraction better than the runner-up */
    char value_text[96], runner_text[96]; /* "46.56k IOPS", "± SE" added */
    char margin_text[48];                 /* "+3.2%" */
    /* The test compare uses, best against runner-up at 0.05: */
    const char *verdict;   /* "clear", "not distinguishable", "not judged",
                              "tie", "unclear" */
    char verdict_text[128]; /* "clear: Welch p = 0.0012" */
    double p;               /* 1 when not judged */
    const char *method;     /* "welch", "mann-whitney", "none" */
    const char *why;        /* not judged: "single run", ...; else NULL */
};
typedef int (*pb_render_best_cb)(void *ctx, const struct pb_render_best *b);

/* Call cb for every test and main metric (every metric matching
 * opts->filter.metric_re when given) with two configurations or more, in
 * the report's order; *nsingle (may be NULL) gets the number of test and
 * metric pairs left out because one configuration has them. Uses
 * opts->filter and opts->ignore_params only. Returns PB_OK, cb's non-zero
 * value, PB_EUSAGE (bad pattern) or PB_EDB. */
int pb_render_best(struct pb_db *db, const struct pb_render_opts *opts,
                   pb_render_best_cb cb, void *ctx, size_t *nsingle,
                   struct pb_err *err) PB_WUR;

/* ==== charts ==== */

/* A laid-out chart: a display list of rectangles, lines and text. */
struct pb_chart;

/* Chart size in CSS pixels. */
double pb_chart_width(const struct pb_chart *c);
double pb_chart_height(const struct pb_chart *c);

/* Append the chart as a standalone SVG document to out. */
void pb_chart_svg(const struct pb_chart *c, struct pb_buf *out);

/* Draw the chart on cr with its top-left corner at the current origin, one
 * user unit per pixel. The caller owns cr and its surface. */
void pb_chart_draw(const struct pb_chart *c, cairo_t *cr);

/* Write the chart as a PNG of `scale` device pixels per pixel into path,
 * created new (pb_create_new: never an existing file or a link). Returns
 * PB_OK or PB_EIO with err naming path. */
int pb_chart_write_png(const struct pb_chart *c, const char *path, double scale,
                       struct pb_err *err) PB_WUR;

void pb_chart_free(struct pb_chart *c);

/* ==== compare (compare.c, compare_html.c; docs/statistics.md, "Compare:
 * pairing and statistics") ==== */

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
    const char *const *ignore_params; /* as pb_render_opts */
    int gate_unjudged;  /* gate pairs not judged on their raw change */
    int every_metric;   /* --metric given: compare every metric it selects,
                           not only those a person reads (rp_metric_read) */
};

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
    size_t metric_ix;          /* private to render/ */
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

/* The mean ± SE of one side of p (cand non-zero: the candidate's) in
 * human units, "148.1 ± 1.7 MiB/s". Returns buf (n >= 64). */
const char *pb_compare_value_text(const struct pb_compare *c,
                                  const struct pb_compare_pair *p, int cand,
                                  char *buf, size_t n);

/* "better", "worse", "~", "not judged". */
const char *pb_compare_verdict_word(enum pb_compare_verdict v);

/* A change in % as compare prints it: "-20.0%", "+0.04%" (never "+0.0%"
 * for a change that is not 0), "–" for NaN. Returns buf (n >= 32). */
const char *pb_compare_pct(double v, char *buf, size_t n);

/* The interval of p's change: "[-20.2%, -19.8%]", "[-72.3%, unbounded)",
 * "unbounded", "–" (not judged); Mann-Whitney's with its estimate,
 * "[+1.0%, +100.0%] (median +4.0%)". Returns buf (n >= 96). */
const char *pb_compare_ci_text(const struct pb_compare_pair *p, char *buf,
                               size_t n);

/* One kind's summary: "throughput: -20.0%, worse (geometric mean of the 2
 * significant changes among 2 pairs)", "latency: no significant change
 * (7 pairs, 1 not judged)", "cpu: not judged (2 pairs)". Returns buf
 * (n >= 160). */
const char *pb_compare_kind_text(const struct pb_compare *c,
                                 enum pb_metric_kind kind, char *buf,
                                 size_t n);

/* "2 pairs not judged (a single run on a side): their raw change is not
 * tested and does not fail the gate; --gate-unjudged gates them" (with
 * --gate-unjudged: "...: gated on their raw change (--gate-unjudged)").
 * Returns buf (n >= 256). */
const char *pb_compare_unjudged_text(const struct pb_compare *c, char *buf,
                                     size_t n);

/* The tests (sorted, distinct) a side holds, for "what there is"
 * messages when npairs is 0 (with pairs, the cells behind them are
 * already freed and nothing is called): calls cb with each name; stops
 * when cb returns non-zero. */
int pb_compare_each_test(const struct pb_compare *c, int cand,
                         int (*cb)(void *ctx, const char *test), void *ctx);

/* Write DIR/index.html: the compare page (table with a diverging colour
 * scale, bar chart of % change with CI whiskers, verdicts), through the
 * report folder's safe writing (see pb_render_report); no file of keep
 * (the databases compared) is replaced. PB_OK, PB_EUSAGE (a non-empty
 * folder that holds no poolbench output, or a file of keep) or PB_EIO. */
int pb_compare_html(const struct pb_compare *c, const char *dir,
                    const struct pb_keep *keep, struct pb_err *err) PB_WUR;

/* report --metric may name one line of an "Over time" chart: SERIES_STAT
 * (STAT mean, p50, p90, p95, p99), or BASE_STAT for a BASE_hist series.
 * 1 when re (a compiled pcre2 pattern, md its match data) matches such a
 * line name of the series or metric `name`, else 0. (timeseries.c) */
struct pcre2_real_code_8;
struct pcre2_real_match_data_8;
int pb_render_names_series_line(const struct pcre2_real_code_8 *re,
                                struct pcre2_real_match_data_8 *md,
                                const char *name);

#endif
