/* Private to render/: the display list of a chart, table cells and the
 * output and section declarations shared by the render/ files; the data
 * model is in rp_data.h, text and units in rp_base.h (both included here).
 * Prefixes: rp_ (report model and text), rc_ (chart layout), rt_ (tables). */
#ifndef PB_RENDER_INT_H
#define PB_RENDER_INT_H

#include "render/rp_data.h"

#include <stdint.h>

/* ==== chart.c: layout into a display list ==== */

enum pb_item_kind { PB_IT_RECT, PB_IT_LINE, PB_IT_TEXT, PB_IT_POLY };
enum { RC_START, RC_MIDDLE, RC_END };
#define RC_NONE 0xff000000u /* no fill / no stroke */

struct pb_item {
    unsigned char kind, anchor, bold, rot90; /* rot90: rotated -90° */
    uint32_t fill, stroke;
    double sw;         /* stroke width */
    double x, y, w, h; /* rect; line from (x,y) to (w,h); text at x, y
                          (baseline) */
    double size;       /* font size, px */
    const char *text;  /* text: the string drawn */
    const char *title; /* tooltip (full text when elided); may be NULL */
    const double *pts; /* poly: x0, y0, x1, y1, ... (arena) */
    size_t npts;       /* poly: points */
};

struct pb_chart {
    double w, h;
    int clamped; /* a coordinate was out of the drawable range (a value
                    such as 1.7e308): drawn at the edge, said under it */
    const char *title; /* for <title> and alt text */
    struct pb_item *items;
    size_t n, cap;
    struct pb_arena arena;
};

#define RC_FONT     "DejaVu Sans"
#define RC_FONT_CSS "'DejaVu Sans', Verdana, Geneva, sans-serif"

/* Text measurement with cairo's font metrics (one image surface). */
struct rc_fonts;
struct rc_fonts *rc_fonts_new(void);
void rc_fonts_free(struct rc_fonts *f);
/* Advance width of s in px at `size`. */
double rc_text_width(struct rc_fonts *f, const char *s, double size, int bold);
/* Set the font of cr as the measurements assume. */
void rc_use_font(cairo_t *cr, double size, int bold);

/* Wrap s into at most maxlines lines of width <= maxw; breaks at spaces
 * and after , ; / - _ = :, else inside words. When text remains, the last
 * line ends in "…". Lines are arena copies; returns the number of lines
 * and sets *elided. */
size_t rc_wrap(struct rc_fonts *f, struct pb_arena *a, const char *s,
               double size, int bold, double maxw, size_t maxlines,
               const char **lines, int *elided);

struct pb_chart *rc_chart_new(double w, double h);
/* The chart's size within the drawable range (coordinates past it are
 * clamped and the chart marked clamped). */
void rc_fix_size(struct pb_chart *c);
void rc_rect(struct pb_chart *c, double x, double y, double w, double h,
             uint32_t fill, uint32_t stroke, double sw);
void rc_line(struct pb_chart *c, double x1, double y1, double x2, double y2,
             uint32_t stroke, double sw);
struct pb_item *rc_text(struct pb_chart *c, double x, double y, const char *s,
                        double size, int bold, int anchor, uint32_t fill);
/* A polyline through n points (xy: x0, y0, x1, y1, ...; copied), or a
 * filled polygon when fill is not RC_NONE (time-series envelopes). */
void rc_poly(struct pb_chart *c, const double *xy, size_t n, uint32_t fill,
             uint32_t stroke, double sw);

/* Horizontal bars, one per config. */
struct rc_bar {
    const char *label;
    uint32_t color;
    int has_value;
    double v, se;     /* se < 0: no error bar */
    const char *note; /* instead of a bar when !has_value */
    int best;
};

struct rc_barspec {
    const char *title, *subtitle;
    struct rp_unit unit;
    int dir;
    const struct rc_bar *bars;
    size_t n;
    size_t more; /* configs not drawn (see the table) */
};

struct pb_chart *rc_bars(struct rc_fonts *f, const struct rc_barspec *s);

/* A grid of values: x values × series values (row-major by series). */
struct rc_gridspec {
    const char *title, *subtitle;
    const char *xname, *sname;
    struct rp_unit unit;
    int dir;
    const char *const *xvals;
    const char *const *svals;
    const uint32_t *scolors;
    size_t nx, ns;
    const double *v;  /* NAN = no value */
    const double *se; /* < 0 = none */
    int norm;         /* RC_NORM_*: what "best" and colours compare */
    /* A reduced heatmap (some rows left out), else NULL: per cell, the
     * best value of its comparison group over all rows (NAN: none), which
     * colours and outlines compare with; per row, NULL or the text of a
     * gap row (no cells) standing for the rows left out there. */
    const double *bestv;
    const char *const *sgaps;
    /* per cell, NULL or a short mark drawn with it ("×2": a cell of two
     * configurations pooled); NULL = none */
    const char *const *marks;
    /* grouped bars: each group's bars side by side, without the gaps of
     * series it lacks (a sweep of every configuration: sparse series) */
    int compact;
};

enum { RC_NORM_ALL, RC_NORM_ROW, RC_NORM_COL };

/* best[k] = the best cell of k's comparison group (its row, column or
 * all), SIZE_MAX when k has no value or the group fewer than two. O(n). */
void rc_grid_bests(const struct rc_gridspec *s, size_t *best);
/* Is cell k (row-major) the best of its group? (O(n): not for loops) */
int rc_grid_best(const struct rc_gridspec *s, size_t k);

/* Vertical grouped bars: one group per x value, one bar per series. */
struct pb_chart *rc_grouped(struct rc_fonts *f, const struct rc_gridspec *s);
/* Heatmap with the numbers in the cells; the best cell outlined. */
struct pb_chart *rc_heatmap(struct rc_fonts *f, const struct rc_gridspec *s);

/* The title and subtitle lines of a chart w px wide (bold 15 px, 12 px),
 * from the top; returns the y below them. */
double rc_heading(struct rc_fonts *f, struct pb_chart *c, double w,
                  const char *title, const char *sub);
/* Round ticks from lo to hi whose labels (11 px) keep minsep px apart. */
void rc_fit_ticks(struct rc_fonts *f, double lo, double hi,
                  const struct rp_scale *sc, double pixels, double minsep,
                  struct rp_ticks *t);

/* A bar chart of many configurations (chart_many.c): a test and metric
 * with more than RP_MANY_LIMIT configurations draws the best RP_MANY_BEST,
 * the baseline and the worst RP_MANY_WORST as bars, and a strip of dots
 * for all of them (RP_MANY_DOTS quantile dots at most) over a box plot. */
#define RP_MANY_LIMIT 40
#define RP_MANY_BEST  30
#define RP_MANY_WORST 5
#define RP_MANY_DOTS  400
/* Rows of the overview's configurations and the sources table at most
 * (the rest: poolbench list configs / sources, results.csv). */
#define RP_MANY_ROWS  1000
/* What a reduced view draws of nv items ranked best first (bars of a
 * test, rows of a heatmap): the best RP_MANY_BEST, the baseline (its
 * rank - 1, or SIZE_MAX) and the worst RP_MANY_WORST, in rank order, with
 * a gap between them where ranks are left out. */
enum { RP_PICK_BASE = 1, RP_PICK_WORST = 2 };
struct rp_pick {
    size_t i;        /* rank - 1 of the item; SIZE_MAX: a gap */
    size_t from, to; /* a gap: the ranks left out (1-based, inclusive) */
    int mark;        /* 0, RP_PICK_BASE or RP_PICK_WORST */
};
#define RP_MANY_PICKS (RP_MANY_BEST + RP_MANY_WORST + 3)
/* What a pick holds: items drawn, of them the best and the worst, and
 * whether the baseline is drawn apart from them. */
struct rp_pick_sum {
    size_t drawn, nbest, nworst;
    int base_apart;
};
/* Fills out (room for RP_MANY_PICKS) and returns how many; *sum (may be
 * NULL) says what they hold. */
size_t rp_many_pick(size_t nv, size_t base, struct rp_pick *out,
                    struct rp_pick_sum *sum);
/* label, or "label (baseline, rank 60 of 120)" / "(worst, ...)" for a
 * marked pick of n, in a. */
const char *rp_many_label(struct pb_arena *a, const char *label,
                          const struct rp_pick *p, size_t n);
/* The chart of group g, order from rp_order_cells, title "TEST: METRIC".
 * *shown (may be NULL) gets the number of configurations drawn as bars.
 * Free with pb_chart_free. */
struct pb_chart *rp_many_chart(struct rc_fonts *f, const struct rp_data *d,
                               const struct rp_group *g, const size_t *order,
                               const char *title, size_t *shown);
/* The complete table of a test whose charts are reduced: one row per
 * configuration (ordered by the first group), one column per group, inside
 * a closed <details>. order: scratch of the largest group's n. */
struct rp_out;
void rp_many_table(struct rp_out *o, const struct rp_data *d,
                   const size_t *groups, size_t ng, size_t *order);
/* Position in order of the baseline: the valued configuration stored
 * first (lowest id); SIZE_MAX when none has a value. */
size_t rp_many_baseline(const struct rp_data *d, const struct rp_group *g,
                        const size_t *order);

/* Lines of points (chart_xy.c): IOPS against latency, one line per
 * configuration, one point per iodepth (or numjobs), labelled. */
struct rc_xyline {
    const char *label;
    uint32_t color;
    size_t n;
    const double *x, *y;   /* in the units of the spec */
    const double *yerr;    /* ± whiskers (< 0: none); may be NULL */
    const char *const *pt; /* point labels ("qd4"); may be NULL */
};
struct rc_xyspec {
    const char *title, *subtitle, *xname, *yname;
    struct rp_unit xunit, yunit;
    const struct rc_xyline *lines;
    size_t n;
    /* categories of x: x = 1 .. nxcats names xcats[x - 1] (ticks are
     * those names; xunit unused); NULL = x is a number */
    const char *const *xcats;
    size_t nxcats;
};
struct pb_chart *rc_xy(struct rc_fonts *f, const struct rc_xyspec *s);

/* Latency distributions (chart_latency.c): one line per configuration
 * through the json+ bins of one latency (value ns ascending, count). */
struct rc_latline {
    const char *label;
    uint32_t color;
    size_t n;
    const uint64_t *val, *cnt;
    uint64_t total; /* sum of cnt, > 0 */
};
struct rc_latspec {
    const char *title, *subtitle;
    const struct rc_latline *lines;
    size_t n;
    int nines; /* CDF y axis as nines (90%, 99%, ...); 0: linear % */
};
/* CDF on a log latency axis, a step up at each bin's value. */
struct pb_chart *rc_lat_cdf(struct rc_fonts *f, const struct rc_latspec *s);
/* Histogram: share of I/Os in 10 log-spaced bars a decade (filled bars
 * for one configuration, step outlines for several). */
struct pb_chart *rc_lat_hist(struct rc_fonts *f, const struct rc_latspec *s);
/* The histogram's bars: their number (from decade 10^*dlo ns), the edge
 * j (ns), and line l's share (%) in each of nb bars. */
size_t rc_lat_hist_bins(const struct rc_latspec *s, int *dlo);
double rc_lat_hist_edge(int dlo, size_t j);
void rc_lat_hist_fill(const struct rc_latline *l, int dlo, size_t nb,
                      double *pct);
/* Axis labels: 10^k ns ("10 µs"); k nines ("99.9%"). Return buf. */
const char *rc_lat_decade(int k, char *buf, size_t n);
const char *rc_lat_nines_label(int k, char *buf, size_t n);

/* Stable colour of the i-th config; of the i-th of n ordered series. */
uint32_t rc_config_color(size_t i);
uint32_t rc_series_color(size_t i, size_t n);
/* Sequential colour for t in [0,1] (1 = best) and a readable text colour
 * on it. */
uint32_t rc_heat_color(double t);
uint32_t rc_text_on(uint32_t bg);
/* v as a share of best for direction dir (0..1, 1 = as good as the best;
 * best NAN: v is its own best): what a heatmap cell's colour shows. */
double rc_share(double v, double best, int dir);
/* "#rrggbb" into buf (8 bytes). */
const char *rc_hex(uint32_t c, char *buf);

/* ==== tables (table.c) ==== */

enum { RT_LEFT, RT_RIGHT, RT_CENTER };
enum {
    RT_BOLD = 1,
    RT_MUTED = 2,
    RT_WARN = 4, /* flagged: red */
    RT_GOOD = 8,
    RT_MONO = 16,
    RT_ITALIC = 32,
    RT_AMBER = 64 /* caution: amber */
};

struct rt_cell {
    const char *text;  /* plain text, escaped on output */
    const char *title; /* tooltip; may be NULL */
    const char *href;  /* link target (relative); may be NULL */
    double sortv;
    unsigned char has_sortv, align, style, has_bg, has_swatch;
    unsigned span; /* colspan in group headers; 0 = 1 */
    uint32_t bg, swatch;
};

struct rt_table {
    struct pb_arena arena;
    const char *id;      /* HTML id; may be NULL */
    const char *caption; /* may be NULL */
    const char *note;    /* paragraph after the table; may be NULL */
    size_t ncols;
    struct rt_cell *head;  /* ncols header cells */
    struct rt_cell *group; /* optional row above head, with spans */
    size_t ngroup;
    struct rt_cell *cells; /* nrows * ncols */
    size_t nrows, cap;
    int sortable;
    int fold; /* inside a closed <details> */
};

void rt_init(struct rt_table *t, size_t ncols);
void rt_release(struct rt_table *t);
/* Arena copy of a formatted string. */
const char *rt_str(struct rt_table *t, const char *fmt, ...) PB_PRINTF(2, 3);
/* Set header i (text copied). */
void rt_header(struct rt_table *t, size_t i, const char *text, int align);
/* Add the optional group header row (cells copied later with rt_str). */
struct rt_cell *rt_group(struct rt_table *t, size_t n);
/* New row of ncols zeroed cells, aligned like the headers. The pointer is
 * valid until the next rt_row. */
struct rt_cell *rt_row(struct rt_table *t);
/* Set a cell's text (copied) and, when has_v, its numeric sort value. */
void rt_set(struct rt_table *t, struct rt_cell *c, const char *text);
void rt_setv(struct rt_table *t, struct rt_cell *c, const char *text, double v);
/* A configuration's label cell (swatch, sort value, tooltip;
 * report_overview.c). */
void rp_config_cell(struct rt_table *t, struct rt_cell *c,
                    const struct rp_config *cf);

/* Append the table as HTML. */
void rt_html(const struct rt_table *t, struct pb_buf *out);

/* ==== report output (report.c) ==== */

/* Where sections go: index.html, charts/, the PDF. */
struct rp_out;

/* Heading with an HTML id (may be NULL); also a PDF heading/bookmark. */
void rp_out_heading(struct rp_out *o, int level, const char *id,
                    const char *text);
/* Paragraph of plain text (escaped); cls may be NULL. */
void rp_out_para(struct rp_out *o, const char *cls, const char *text);
/* Write c as charts/NNN-stem.svg (and .png), add it to the page and the
 * PDF, and free it. */
void rp_out_chart(struct rp_out *o, struct pb_chart *c, const char *stem);
/* Add the table to the page and the PDF, and release it. */
void rp_out_table(struct rp_out *o, struct rt_table *t);
/* Trusted markup written as is (only literals from render/). */
void rp_out_raw(struct rp_out *o, const char *html);
/* The fonts charts are measured with. */
struct rc_fonts *rp_out_fonts(struct rp_out *o);

/* A file of the report (rel: "charts/series-001-read_bw.csv"). */
void rp_out_file(struct rp_out *o, const char *rel, const char *data,
                 size_t len);

/* 1 when some series matches f (the contents list links the section). */
int rp_has_timeseries(struct pb_db *db, const struct pb_db_filter *f);
/* timeseries.c: the "Over time" section, fio logs' series matching f, a
 * line per configuration (per job with per_job). PB_OK, PB_EUSAGE or
 * PB_EDB. */
int rp_section_timeseries(struct rp_out *o, const struct rp_data *d,
                          struct pb_db *db, const struct pb_db_filter *f,
                          int per_job, struct pb_err *err) PB_WUR;
/* Rows of the bonnie++ table a page (index.html holds the first). */
#define RP_BON_PAGE 1000

/* A page of its own for part of a long table (page > 1; index.html holds
 * page 1): STEM-NNN.html with links to its neighbours; between begin and
 * end the rp_out_* calls write to it. */
void rp_table_page_begin(struct rp_out *o, const char *stem,
                         const char *what, size_t page, size_t npages);
void rp_table_page_end(struct rp_out *o, const char *stem, size_t page,
                       size_t npages);
/* The links of page `page` of a long table's pages: index.html,
 * neighbours STEM-NNN.html; first: the href of page 1. */
void rp_table_pager(struct pb_buf *h, const char *stem, const char *first,
                    size_t page, size_t npages);
/* Head of a page of its own into h (doctype, style, title; what names
 * it), up to its header's navigation. */
void rp_page_head(struct rp_out *o, struct pb_buf *h, const char *what);
/* Footer (note: its last sentence) into h; writes h as rel and counts it
 * in the summary's table_pages. */
void rp_page_foot(struct rp_out *o, struct pb_buf *h, const char *rel,
                  const char *note);
/* The file the output primitives write now: "index.html" or a test page
 * ("tests-003.html"). */
const char *rp_out_here(const struct rp_out *o);

/* ==== long tables, paged (table_pages.c) ==== */

/* Rows of a long table on one page. */
#define RP_TABLE_PAGE 1000

/* Writes table t like rp_out_table when it has at most RP_TABLE_PAGE
 * rows. Longer: its first RP_TABLE_PAGE rows where the output is, after
 * a note and links "rows 1001–2000", ...; the other rows, in t's order,
 * on STEM-002.html, STEM-003.html, ... (RP_TABLE_PAGE each, titled with
 * what and their row range). stem: [a-z0-9-], unique in the report;
 * NULL = "table-K" (K counts the report's paged tables). Frees t. */
void rp_out_table_paged(struct rp_out *o, struct rt_table *t,
                        const char *stem, const char *what);
/* The same, for tables that come many to a section (IOPS against
 * latency: one per family and direction): past RP_TABLE_PAGE rows, every
 * row is on the pages (STEM-001.html, ...) and only the note and links
 * stand where the table would. Frees t. */
void rp_out_table_elsewhere(struct rp_out *o, struct rt_table *t,
                            const char *stem, const char *what);

/* The style sheet of every page (css.c): the report's pages and, before
 * rules of its own, the compare page. */
extern const char rp_css[];

/* ==== the data behind a chart, as CSV (csv_out.c) ====
 *
 * Every chart links the exact numbers it draws as charts/NNN-stem.csv
 * (beside its SVG and PNG, in the report's manifest, so `report -o`
 * re-runs remove stale ones). A chart kind builds its data with this
 * writer and hands it over just before drawing:
 *
 *     static const char *const head[] = {"config", "x", "y"};
 *     struct rp_csv *cv = rp_csv_new(3, head);
 *     for (each point) {
 *         rp_csv_str(cv, label);     -- quoted, formula-escaped
 *         rp_csv_num(cv, x);         -- exact, canonical units
 *         rp_csv_num(cv, y);         -- a row ends after ncols fields
 *     }
 *     rp_out_chart_data(o, cv);      -- the next rp_out_chart takes it
 *     rp_out_chart(o, chart, stem);  -- writes NNN-stem.svg and .csv
 *
 * Columns: lower-case names; numbers in the model's canonical units
 * (name the unit in a "unit" column or the header); one row per point or
 * bar, in the order of the table under the chart. Labels are written as
 * the report shows them. A chart without data gets no link. */
struct rp_csv;
struct rp_dir;
/* New CSV with a header row of ncols names. Never NULL; rp_csv_free. */
struct rp_csv *rp_csv_new(size_t ncols, const char *const *head);
void rp_csv_free(struct rp_csv *c);
/* Append one field: text (NULL = empty), a number (shortest text that
 * reads back the same double; NaN and infinities empty), an integer, an
 * empty field. */
void rp_csv_str(struct rp_csv *c, const char *s);
void rp_csv_num(struct rp_csv *c, double v);
void rp_csv_int(struct rp_csv *c, long long v);
void rp_csv_empty(struct rp_csv *c);
/* Append n (>= 1) fields at once: text holds them escaped with rp_csv_esc
 * and joined by commas (a row prefix that repeats, escaped once). */
void rp_csv_fields(struct rp_csv *c, const char *text, size_t len,
                   size_t n);
/* Four fields of a cell: value (mean), stderr, n, results (the stored
 * results averaged); the first three empty without value. */
void rp_csv_cell(struct rp_csv *c, const struct rp_cell *cell);
/* Data rows so far (the header not counted). */
size_t rp_csv_rows(const struct rp_csv *c);
/* The text (a short last row is completed with empty fields). */
const char *rp_csv_text(struct rp_csv *c, size_t *len);
/* Append s as one CSV field to b: RFC 4180 quoting, a leading ' for a
 * text a spreadsheet would run as a formula (= + - @ tab CR), invalid
 * UTF-8 as U+FFFD. */
void rp_csv_esc(struct pb_buf *b, const char *s);
/* Write c as charts/NAME.csv into dir and append the link to it (a
 * <figcaption>) to html. PB_OK or PB_EIO (err filled). */
int rp_csv_put(struct rp_csv *c, struct rp_dir *dir, const char *name,
               struct pb_buf *html, struct pb_err *err) PB_WUR;
/* Attach c (taken: freed by the next rp_out_chart) to the next chart. */
void rp_out_chart_data(struct rp_out *o, struct rp_csv *c);

/* The CSVs of report.c's charts (chart_data.c): a test and metric's bars
 * (order: rp_order_cells), a sweep panel (bests and v as rc_grid_bests
 * and the grid's values), the overall ranking. */
struct rp_csv *rp_csv_bars(const struct rp_data *d, const struct rp_group *g,
                           const size_t *order);
struct rp_csv *rp_csv_sweep(const struct rp_data *d, const struct rp_sweep *sw,
                            const struct rp_panel *p, const char *xname,
                            const char *sname, const size_t *bests,
                            const double *v);
struct rp_csv *rp_csv_ranking(const struct rp_data *d,
                              const struct rp_ranking *r);
/* The rows of a table as CSV: its headers; a right-aligned cell with a
 * value (rt_setv) as that exact number, any other as its text. For
 * charts whose table below holds exactly the numbers drawn. */
struct rp_csv *rp_csv_table(const struct rt_table *t);

/* The whole report's data at the report's root (results_out.c):
 * results.csv and results.json, one row per stored result matching f
 * (the rows of `poolbench export` with the same filter), with the
 * configuration's dimensions and the test's parameters. */
int rp_write_results(struct pb_db *db, const struct pb_db_filter *f,
                     struct rp_dir *dir, struct pb_err *err) PB_WUR;
/* 1 when the report writes results.csv and results.json: at most
 * opts->raw_rows results (0: always). */
int rp_results_whole(const struct pb_render_opts *opts, size_t nresults);
/* The paragraph linking both, for the top of index.html; when they are
 * not written, what the report holds instead and the export command. */
void rp_results_link(struct pb_buf *h, const struct pb_render_opts *opts,
                     size_t nresults);

/* iolat.c: IOPS against latency where fio tests vary iodepth/numjobs. */
int rp_has_iops_latency(const struct rp_data *d);
/* Is metric one of the three "IOPS against latency" reads of a test
 * (DIR_iops, DIR_clat_mean, DIR_clat_p99)? stream.c loads those groups. */
int rp_iolat_metric(const char *metric);
void rp_section_iops_latency(struct rp_out *o, const struct rp_data *d);

/* latency.c: the latency distributions of fio json+ bins, per test. */
struct rp_lat;
/* Read and merge (per test, config and latency) every stored histogram of
 * the configs and tests in d that filter f keeps; NULL when there are
 * none. *rc gets PB_OK, PB_EUSAGE (bad pattern) or PB_EDB (err filled).
 * Free with rp_lat_free (NULL is fine). */
struct rp_lat *rp_lat_load(struct pb_db *db, const struct rp_data *d,
                           const struct pb_db_filter *f, int nines, int *rc,
                           struct pb_err *err);
void rp_lat_free(struct rp_lat *l);
/* The CDF, percentile ladder and histogram of test (an index into d) for
 * each direction with completion latency bins, with their tables. */
void rp_lat_section(struct rp_out *o, const struct rp_data *d,
                    struct rp_lat *l, size_t test);
/* A section "Latency distributions" with those of the tests that had no
 * section of their own (one configuration, or drawn only in sweeps). */
void rp_lat_section_rest(struct rp_out *o, const struct rp_data *d,
                         struct rp_lat *l);

/* ==== special tables (tables.c, bonnie_table.c) ==== */

int rp_has_compression(const struct rp_data *d);
void rp_section_compression(struct rp_out *o, const struct rp_data *d);
int rp_has_bonnie(const struct rp_data *d);
/* The bonnie++ table from its own ordered query over db with f (never
 * d's cells): memory holds one page of RP_BON_PAGE rows. PB_OK,
 * PB_EUSAGE or PB_EDB (err filled). */
int rp_section_bonnie(struct rp_out *o, const struct rp_data *d,
                      struct pb_db *db, const struct pb_db_filter *f,
                      struct pb_err *err) PB_WUR;
/* Is the metric one of the bonnie++ table's (bonnie_table.c)? */
int rp_metric_is_bonnie(const char *metric);
/* Host facts of the sources shown; 0 rows = no section. */
int rp_has_systems(const struct rp_data *d);
void rp_section_systems(struct rp_out *o, const struct rp_data *d);
void rp_section_sources(struct rp_out *o, const struct rp_data *d);
/* ==== flagged sources (flags.c) ==== */

/* Append the markers of the flag.* facts of a source to out ("⚠
 * interrupted run: TEXT; ⚠ no version found"); returns how many. */
int rp_source_flags(const struct rp_data *d, long long source_id,
                    struct pb_buf *out);
/* Does any source shown carry a flag? */
int rp_has_flags(const struct rp_data *d);
/* The Warnings list (nothing when no source is flagged). */
void rp_section_warnings(struct rp_out *o, const struct rp_data *d);

/* Is the metric shown in the compression or bonnie++ table? */
int rp_metric_in_special(const char *metric);

/* ==== spread of repeats (spread.c) ==== */

/* "± 1.2 MiB/s · 95% CI ± 3.3 MiB/s" of cell c (Student t with n - 1
 * df); just the ± SE when n < 2 or the SE is 0 or unknown. Returns buf. */
const char *rp_fmt_se_ci(const struct rp_unit *u, const struct rp_cell *c,
                         char *buf, size_t n);
/* Mark in out[0..n) the outliers of v[0..n) (modified z-score by the
 * MAD above 3.5; none when n < 5 or MAD is 0); returns their number. */
int rp_outliers_of(const double *v, size_t n, unsigned char *out);
/* Set nrepeats and outliers of d's cells from the stored samples.
 * PB_OK or PB_EDB. */
int rp_outliers_load(struct pb_db *db, struct rp_data *d,
                     struct pb_err *err) PB_WUR;
/* The 95% CI of c ("95% CI ± 8.1 MB/s: 401.0 to 417.1 MB/s", arena
 * text), or NULL when c has fewer than 2 repeats or no SE. */
const char *rp_ci_text(struct rt_table *t, const struct rp_unit *u,
                       const struct rp_cell *c);
/* ... as the tooltip of a cell (appended to a tooltip it has), where
 * rp_fmt_se_ci would add it to the text. */
void rp_ci_title(struct rt_table *t, struct rt_cell *cell,
                 const struct rp_unit *u, const struct rp_cell *c);
/* Append "⚠ N outliers" (amber, with a tooltip) to a table cell of c. */
void rp_outlier_mark(struct rt_table *t, struct rt_cell *cell,
                     const struct rp_cell *c);

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

/* ==== history across runs (history.c) ==== */

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

/* A configuration's points for one test and metric (>= 2). */
struct rp_hseries {
    size_t test, metric, config;
    size_t first, n; /* into rp_history.pts */
    size_t steps;
    int reduced; /* not drawn (the section draws the first charts only):
                    its points are its steps alone */
};

struct rp_history {
    const char **keys;  /* run id or ingest day of each point, oldest
                           first */
    const char **whens; /* their first ingested_at */
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
/* d->history has a series. */
int rp_has_history(const struct rp_data *d);
/* The History section (nothing without one). */
void rp_section_history(struct rp_out *o, const struct rp_data *d);
/* The Warnings line of step p of series s. */
void rp_history_step_text(const struct rp_data *d, const struct rp_history *h,
                          const struct rp_hseries *s,
                          const struct rp_hpoint *p, struct pb_buf *b);

/* ==== hosts as a dimension (hosts.c, chart_hosts.c) ==== */

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
/* d->hosts has a cell. */
int rp_has_hosts(const struct rp_data *d);
/* The Warnings line of each outlier host (flags.c calls it). */
void rp_hosts_warnings(struct rp_out *o, const struct rp_data *d);
/* The Hosts section (chart_hosts.c; nothing without one). */
void rp_section_hosts(struct rp_out *o, const struct rp_data *d);

/* ==== the report folder (output.c) ==== */

/* Files go to a private staging folder and replace the last report's only
 * in rp_dir_commit. Use: rp_dir_open; rp_dir_write (or a file made in
 * rp_dir_stage() and rp_dir_add) per file; rp_dir_commit or rp_dir_abort,
 * which both free the struct. */
struct rp_dir;
/* Create dir if missing; refuse a link, another user's folder, one others
 * can write, or (unless force) a non-empty folder that holds no poolbench
 * report. keep (copied; may be NULL): files no commit may replace or
 * remove (the database in use). PB_OK, PB_EUSAGE or PB_EIO with err
 * filled. */
int rp_dir_open(const char *dir, int force, const struct pb_keep *keep,
                struct rp_dir **out, struct pb_err *err) PB_WUR;
/* The report folder as given. */
const char *rp_dir_path(const struct rp_dir *d);
/* The staging folder's path (files made there must be rp_dir_add'ed). */
const char *rp_dir_stage(const struct rp_dir *d);
/* Write rel ("index.html", "charts/x.svg") into the stage, O_EXCL. */
int rp_dir_write(struct rp_dir *d, const char *rel, const char *data,
                 size_t len, struct pb_err *err) PB_WUR;
void rp_dir_add(struct rp_dir *d, const char *rel);
/* Move every staged file into place (index.html last), remove the last
 * report's files this one did not write, write the manifest. When any of
 * these is a file of keep, nothing is changed: PB_EUSAGE. */
int rp_dir_commit(struct rp_dir *d, struct pb_err *err) PB_WUR;
/* Drop the stage, leaving the last report as it was. NULL is fine. */
void rp_dir_abort(struct rp_dir *d);
/* A file of the report written in pieces (results.csv, index.html), so
 * that no whole file is held in memory: rp_file_open creates rel in the
 * stage (O_EXCL); rp_file_put appends (the first error is kept);
 * rp_file_flush writes and empties b once it holds `over` bytes or more;
 * rp_file_close closes and frees f (NULL is fine) and adds rel to the
 * report: PB_OK or PB_EIO (err filled) when a write failed. */
struct rp_file;
int rp_file_open(struct rp_dir *d, const char *rel, struct rp_file **out,
                 struct pb_err *err) PB_WUR;
void rp_file_put(struct rp_file *f, const char *data, size_t len);
void rp_file_flush(struct rp_file *f, struct pb_buf *b, size_t over);
int rp_file_close(struct rp_file *f, struct pb_err *err) PB_WUR;
/* ==== the experiment of run results (experiment.c) ==== */

/* Facts a run stores per cell (run.*, flag.*, zpool_iostat*, arc.*, ...):
 * shown in the Experiment section, not in Systems. */
int rp_cell_fact(const char *key);
/* The value of fact key of source id, or NULL. */
const char *rp_fact_of(const struct rp_data *d, long long source,
                       const char *key);
int rp_has_experiment(const struct rp_data *d);
/* One table per run folder: cells, fio options, ZFS properties, flags and
 * links (relative to outdir) to the plan, commands.log and raw files. */
void rp_section_experiment(struct rp_out *o, const struct rp_data *d,
                           const char *outdir);

/* ==== PDF (cairo_out.c) ==== */

/* The PDF is written through pb_wfile (common/pb_file.h): beside path,
 * renamed over it by rp_pdf_close; path must not be a file of keep. */
struct rp_pdf;
int rp_pdf_open(const char *path, const struct pb_keep *keep,
                struct rc_fonts *f, struct rp_pdf **out,
                struct pb_err *err) PB_WUR;
void rp_pdf_heading(struct rp_pdf *p, int level, const char *text);
void rp_pdf_para(struct rp_pdf *p, const char *text);
void rp_pdf_chart(struct rp_pdf *p, const struct pb_chart *c);
void rp_pdf_table(struct rp_pdf *p, const struct rt_table *t);
/* Layout numbers of the PDF so far, for tests: the smallest table text
 * (pt), headings drawn, and headings whose content began on a later page
 * (orphans: 0 is the rule). */
struct rp_pdf_stats {
    double min_table_pt;
    size_t headings, orphans, table_parts;
    int last_heading_page; /* internal: the page of the last heading */
    double last_heading_y;
};
void rp_pdf_get_stats(const struct rp_pdf *p, struct rp_pdf_stats *out);
/* Finish and free. The PDF is written to a temporary file beside path
 * and renamed over it only when keep is set and all went well; PB_OK or
 * PB_EIO. */
int rp_pdf_close(struct rp_pdf *p, int keep, struct pb_err *err) PB_WUR;

#endif
