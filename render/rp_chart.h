/* Private to render/: a chart as a display list (chart.c) and the chart
 * kinds that lay one out (chart_*.c), drawn by svg.c and cairo_out.c.
 * Prefix rc_ (and pb_chart/pb_item for the display list). */
#ifndef PB_RP_CHART_H
#define PB_RP_CHART_H

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
/* One entry of a legend of lines: a colour square at (x, y - 10) and the
 * label (size px, colour text) beside it, cut to w px with the whole
 * label as its tooltip. */
void rc_legend_entry(struct rc_fonts *f, struct pb_chart *c, double x, double y,
                     double w, const char *label, uint32_t color, double size,
                     uint32_t text);
/* Round ticks from lo to hi whose labels (11 px) keep minsep px apart. */
void rc_fit_ticks(struct rc_fonts *f, double lo, double hi,
                  const struct rp_scale *sc, double pixels, double minsep,
                  struct rp_ticks *t);

/* A bar chart of many configurations (chart_many.c): a test and metric
 * with more than RP_MANY_LIMIT configurations draws the best RP_MANY_BEST,
 * the baseline and the worst RP_MANY_WORST as bars, and a strip of dots
 * for all of them (past RP_MANY_DOTS a band: one polygon) over a box plot
 * (RP_MANY_LIMIT: analysis/data.h). */
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
/* Percentile ladder: per line np values (ns; v[i * np + k], < 0 or NAN:
 * none) at the percentiles named pnames, on a log latency axis; lines'
 * bins are not used (only labels and colours). */
struct rc_ladspec {
    struct rc_latspec lat;
    const char *const *pnames;
    size_t np;
    const double *v;
};
struct pb_chart *rc_lat_ladder(struct rc_fonts *f, const struct rc_ladspec *s);
/* The histogram's bars: their number (from decade 10^*dlo ns), the edge
 * j (ns), and line l's share (%) in each of nb bars. */
size_t rc_lat_hist_bins(const struct rc_latspec *s, int *dlo);
double rc_lat_hist_edge(int dlo, size_t j);
void rc_lat_hist_fill(const struct rc_latline *l, int dlo, size_t nb,
                      double *pct);
/* Axis labels: 10^k ns ("10 µs"); k nines ("99.9%"). Return buf. */
const char *rc_lat_decade(int k, char *buf, size_t n);
const char *rc_lat_nines_label(int k, char *buf, size_t n);

/* Sequential colour for t in [0,1] (1 = best) and a readable text colour
 * on it. */
uint32_t rc_heat_color(double t);
uint32_t rc_text_on(uint32_t bg);
/* v as a share of best for direction dir (0..1, 1 = as good as the best;
 * best NAN: v is its own best): what a heatmap cell's colour shows. */
double rc_share(double v, double best, int dir);
/* "#rrggbb" into buf (8 bytes). */
const char *rc_hex(uint32_t c, char *buf);

#endif
