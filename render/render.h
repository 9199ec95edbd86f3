/* render/: draws what analysis/ loaded and computed: the report, the
 * terminal rows of `best`, the texts and page of `compare`. It is never
 * given the database: the caller (cli/) runs the analysis step
 * (analysis/load.h, analysis/compare.h) and hands render/ its plain
 * structs, and the rows a section draws as they stream by come through
 * the analysis handle those hold (struct pb_an). The report is a
 * self-contained static HTML page with charts. Charts are laid out once
 * (geometry of bars, axes, ticks and labels, text measured with cairo's
 * font metrics) into a display list that two back-ends draw: a direct SVG
 * writer (real <text>) and cairo surfaces (PNG, PDF). It does not parse
 * inputs, does not talk SQL and includes nothing from model/ (the row
 * and filter types of model/db.h reach it only as analysis/analysis.h
 * passes them on with its reads).
 *
 * Use:
 *   1. open the database (pb_db_open, read-only is enough);
 *   2. fill a struct pb_render_opts (zero it first: defaults everywhere);
 *   3. load the report: pb_an_report_load (analysis/load.h) with the
 *      options' filter, ignore_params, x_key, series_key, palette and
 *      latency_linear;
 *   4. pb_render_report() writes DIR/index.html and DIR/charts/, plus PNGs
 *      and a PDF when asked (and DIR/tests-NNN.html for very large
 *      reports, see pb_render_summary);
 *   5. pb_an_report_free, then close the database.
 * Lower layers, for callers that want a single chart on their own surface:
 *   pb_chart_svg() and pb_chart_draw() draw a laid-out chart; a chart is
 *   freed with pb_chart_free().
 */
#ifndef PB_RENDER_H
#define PB_RENDER_H

#include "common/pb.h"
#include "common/pb_file.h"
#include "analysis/compare.h"
#include "analysis/load.h"

#include <cairo.h>
#include <stdint.h>

/* The report's options. filter, x_key, series_key, ignore_params, palette
 * and latency_linear are the analysis step's too: the caller hands them
 * to pb_an_report_load (struct pb_an_report_opts); render/ reads filter
 * (the streamed sections, the page's note) and the rest below. */
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
};

/* The options of the analysis step (pb_an_report_load) that opts holds
 * (report.c):
 * out's filter points into opts. */
void pb_render_an_opts(const struct pb_render_opts *opts,
                       struct pb_an_report_opts *out);

/* Write the report rep (loaded by pb_an_report_load with these options;
 * rep's data is read and its test cells streamed, so it is not const).
 * Its files replace the last report's in outdir only
 * once all are written (a failed or killed report leaves the last one
 * whole). Returns PB_OK; PB_EUSAGE for an outdir that holds other files
 * and no report (unless opts->force); PB_EDB; PB_EIO when
 * a file cannot be written (err names it). out may be NULL. Before it
 * returns it empties cairo's and fontconfig's static font caches: hold no
 * cairo objects of your own across the call. */
int pb_render_report(struct pb_an_report *rep,
                     const struct pb_render_opts *opts,
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

/* Call cb for every test and main metric of b (pb_an_best_load: every
 * metric its filter's metric_re matches when given) with two
 * configurations or more, in the report's order; *nsingle (may be NULL)
 * gets the number of test and metric pairs left out because one
 * configuration has them. Returns PB_OK or cb's non-zero value. */
int pb_render_best(const struct pb_an_best *b, pb_render_best_cb cb, void *ctx,
                   size_t *nsingle) PB_WUR;

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

/* ==== compare's texts (compare_text.c) and page (compare_html.c):
 * docs/statistics.md, "Compare: pairing and statistics"; the pairing and
 * statistics are analysis/'s (analysis/compare.h) ==== */

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
