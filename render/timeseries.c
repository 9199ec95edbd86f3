/* The "Over time" section: the time series of fio logs, one chart per test
 * and series (read_bw, write_clat, ...), one line per configuration (or
 * per job with report --per-job). Lines of several jobs or repeats are
 * summed (bandwidth, IOPS) or averaged (latency) per time step. A line
 * of more than 2,000 points is drawn as 2,000 means with a min/max band,
 * so no spike is lost; the exact points are a CSV file next to the chart.
 * Latency logs with percentiles draw each interval's p99 bold and its mean
 * thin; --metric picks a series or one of its lines (SERIES_STAT)
 * (docs/report.md, "Over time"). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analysis/analysis.h"
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"

#include <math.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define W       860.0
#define PAD     16.0
#define F_TICK  11.0
#define F_LABEL 12.5
#define C_TEXT  0x1a1a1a
#define C_MUTED 0x5a5a5a
#define C_GRID  0xe4e4e4
#define C_AXIS  0x8a8a8a
#define MAXPTS  2000
#define MAXCHARTS 400

/* The statistics of a point a line can draw: the interval mean (every
 * series) and, for latency logs with percentiles (write_hist_log, per-I/O
 * logs), p50 .. p99, and p99.9 for intervals of 1,000 I/Os or more
 * (PB_P999_MIN). Drawn from the most important: p99 bold, p99.9 above it
 * at the normal width, the mean thin. */
enum { ST_MEAN, ST_P50, ST_P90, ST_P95, ST_P99, ST_P999, NST };
static const char *const st_name[NST] = {"mean", "p50", "p90",
                                         "p95",  "p99", "p99.9"};
#define ST_PCT                                                                 \
    ((1u << ST_P50) | (1u << ST_P90) | (1u << ST_P95) | (1u << ST_P99) |     \
     (1u << ST_P999))

struct tp {
    long long sid; /* series id */
    long long t;
    double q[NST], n; /* q[ST_MEAN]: the value */
};

struct tline {
    long long config_id;
    char *label, *job; /* job only with --per-job */
    struct pb_buf row;  /* config,job of its CSV rows (rp_csv_esc) */
    char *rowjob;       /* the job in row */
    struct tp *p;
    size_t n, cap;
};

struct tchart {
    long long test_id;
    char *test, *series, *unit;
    struct tline *l;
    size_t n, cap;
    struct rp_csv *csv; /* the exact points (render/csv_out.c) */
    int per_job;
    long width;   /* largest width_ms of its series */
    unsigned has; /* statistics (1 << ST_) with a value in some point */
};

struct ts {
    struct rp_out *o;
    const struct rp_data *d;
    struct tchart c;
    int open;
    size_t ncharts, skipped;
    int per_job;
    pcre2_code *re; /* report --metric: series or SERIES_STAT names */
    pcre2_match_data *md;
};

/* ==== --metric: a series by its name, or a line by SERIES_STAT ==== */

static int re_match(const pcre2_code *re, pcre2_match_data *md,
                    const char *name)
{
    return pcre2_match(re, (PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED, 0, 0, md,
                       NULL) >= 0;
}

static int re_hit(struct ts *s, const char *name)
{
    return re_match(s->re, s->md, name);
}

/* The statistics of `series` (1 << ST_, of those in `has`) whose line
 * names re matches: SERIES_STAT, or BASE_STAT for a BASE_hist series
 * ('clat_p99' picks the p99 lines of read_clat and read_clat_hist). */
static unsigned line_stats(const pcre2_code *re, pcre2_match_data *md,
                           const char *series, unsigned has)
{
    unsigned out = 0;
    size_t len = strlen(series);
    int hist = len > 5 && !strcmp(series + len - 5, "_hist");
    for (int i = 0; i < NST; i++) {
        if (!(has & (1u << i)))
            continue;
        char name[300];
        snprintf(name, sizeof(name), "%s_%s", series, st_name[i]);
        int hit = re_match(re, md, name);
        if (!hit && hist) {
            snprintf(name, sizeof(name), "%.*s_%s", (int)(len - 5), series,
                     st_name[i]);
            hit = re_match(re, md, name);
        }
        if (hit)
            out |= 1u << i;
    }
    return out;
}

int pb_render_names_series_line(const pcre2_code *re, pcre2_match_data *md,
                                const char *name)
{
    return line_stats(re, md, name, (1u << NST) - 1) != 0;
}

/* The statistics of `series` that --metric names, of those in `has`.
 * Only the percentile series have such names. */
static unsigned re_stats(struct ts *s, const char *series, unsigned has)
{
    if (!(has & ST_PCT))
        return 0;
    return line_stats(s->re, s->md, series, has);
}

/* The lines a chart draws (1 << ST_), 0 for none: with no --metric or
 * one naming the series, p99 (and p99.9 where the log has it) and the
 * mean where there are percentiles, else the mean; with --metric naming
 * SERIES_STAT, those. */
static unsigned chart_stats(struct ts *s, const char *series, unsigned has)
{
    if (!s->re || re_hit(s, series))
        return (has & (1u << ST_P99))
                   ? (1u << ST_P99) | (1u << ST_MEAN) |
                         (has & (1u << ST_P999))
                   : (1u << ST_MEAN);
    return re_stats(s, series, has);
}

/* ==== gathering ==== */

static uint32_t config_color(const struct rp_data *d, long long id,
                             size_t i)
{
    for (size_t c = 0; c < d->nconfigs; c++)
        if (d->configs[c].id == id)
            return d->configs[c].color;
    return rc_config_color(i);
}

static void chart_reset(struct tchart *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->l[i].p);
        free(c->l[i].label);
        free(c->l[i].job);
        pb_buf_release(&c->l[i].row);
        free(c->l[i].rowjob);
    }
    free(c->l);
    free(c->test);
    free(c->series);
    free(c->unit);
    rp_csv_free(c->csv);
    memset(c, 0, sizeof(*c));
}

static int is_rate(const char *unit)
{
    return !strcmp(unit, "B/s") || !strcmp(unit, "ops/s");
}

/* Points of one line merged per time step: several series (jobs,
 * repeats) summed (rates) or averaged (latency) on steps of `width`. */
static int cmp_tp(const void *a, const void *b)
{
    const struct tp *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->sid > y->sid) - (x->sid < y->sid);
}

static size_t merge_line(struct tline *l, long width, int rate, int st,
                         double *t, double *v)
{
    size_t nseries = 0;
    long long last = -1;
    for (size_t i = 0; i < l->n; i++)
        if (l->p[i].sid != last) {
            nseries++;
            last = l->p[i].sid;
        }
    if (nseries <= 1) {
        for (size_t i = 0; i < l->n; i++) {
            t[i] = (double)l->p[i].t;
            v[i] = l->p[i].q[st];
        }
        return l->n;
    }
    long w = width > 0 ? width : 1;
    for (size_t i = 0; i < l->n; i++)
        l->p[i].t = (l->p[i].t + w / 2) / w * w;
    qsort(l->p, l->n, sizeof(*l->p), cmp_tp);
    size_t out = 0;
    for (size_t i = 0; i < l->n;) {
        size_t j = i;
        double sum = 0, wsum = 0, acc = 0, cnt = 0;
        long long sid = -1;
        double ssum = 0, sn = 0;
        for (; j < l->n && l->p[j].t == l->p[i].t; j++) {
            if (l->p[j].sid != sid) {
                if (sn > 0)
                    sum += ssum / sn;
                ssum = sn = 0;
                sid = l->p[j].sid;
            }
            ssum += l->p[j].q[st];
            sn++;
            double wt = l->p[j].n > 0 ? l->p[j].n : 1;
            acc += l->p[j].q[st] * wt;
            wsum += wt;
            cnt++;
        }
        if (sn > 0)
            sum += ssum / sn;
        t[out] = (double)l->p[i].t;
        v[out++] = rate ? sum : acc / wsum;
        i = j;
    }
    return out;
}

/* The steady-state window of (test, config) in ms: fio's ss_duration when
 * its steadystate section says attained, else 0. */
static double ss_window(const struct rp_data *d, long long test_id,
                        long long config_id)
{
    double att = 0, dur = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        const char *m = d->metrics[g->metric].name;
        int is_att = !strcmp(m, "ss_attained");
        if (d->tests[g->test].id != test_id ||
            (!is_att && strcmp(m, "ss_duration")))
            continue;
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct rp_cell *cl = &d->cells[i];
            if (!cl->has_value || d->configs[cl->config].id != config_id)
                continue;
            if (is_att)
                att = cl->mean;
            else
                dur = cl->mean / 1e6;
        }
    }
    return att > 0 ? dur : 0;
}

/* ==== the chart ==== */

/* The stroke of a statistic's line: with percentiles drawn, p99 bold and
 * the mean thin; a single line as before. */
static double st_width(int st, unsigned want)
{
    if (!(want & ST_PCT))
        return 1.6;
    if (st == ST_MEAN)
        return 1.0;
    return st == ST_P99 ? 2.6 : 1.6;
}

/* The colour of a statistic's line: beside percentiles the thin mean is
 * paler, so it reads as the second line where the two cross. */
static uint32_t st_color(uint32_t col, int st, unsigned want)
{
    if (!(want & ST_PCT) || st != ST_MEAN)
        return col;
    return ((((col >> 16) & 0xff) + 0xff) / 2) << 16 |
           ((((col >> 8) & 0xff) + 0xff) / 2) << 8 | (((col & 0xff) + 0xff) / 2);
}

/* The chart's scales: x of a time ms at x0 + (ms 1e6 / xdiv - xlo) /
 * xspan * (x1 - x0), y of v at y0 - (v / ydiv - ylo) / yspan * (y0 - y1). */
struct tmap {
    double x0, x1, y0, y1;
    double xdiv, xlo, xspan, ydiv, ylo, yspan;
};

static double tmap_x(const struct tmap *m, double ms)
{
    return m->x0 + ((ms * 1e6 / m->xdiv) - m->xlo) / m->xspan * (m->x1 - m->x0);
}

static double tmap_y(const struct tmap *m, double v)
{
    return m->y0 - ((v / m->ydiv) - m->ylo) / m->yspan * (m->y0 - m->y1);
}

/* fio's steady state: the last ss_duration of each line, shaded. Lines:
 * lt[L] (times), ln[L] (points), L = config * NST + statistic. */
static void shade_steady(struct pb_chart *ch, const struct rp_data *d,
                         const struct tchart *c, unsigned want,
                         double *const *lt, const size_t *ln,
                         const struct tmap *mp)
{
    double y0 = mp->y0, y1 = mp->y1;
    int any_ss = 0;
    for (size_t i = 0; i < c->n; i++) {
        double win = ss_window(d, c->test_id, c->l[i].config_id);
        size_t L = i * NST + ST_MEAN;
        for (int st = NST - 1; st >= 0; st--)
            if (want & (1u << st)) {
                L = i * NST + (size_t)st;
                break;
            }
        if (win <= 0 || !ln[L])
            continue;
        double te = lt[L][ln[L] - 1], ts = fmax(te - win, 0);
        rc_rect(ch, tmap_x(mp, ts), y1, tmap_x(mp, te) - tmap_x(mp, ts),
                y0 - y1, 0xe6f2e6, RC_NONE, 0);
        if (!any_ss)
            rc_text(ch, tmap_x(mp, te) - 4, y1 + 12, "steady state", F_TICK, 0,
                    RC_END, 0x2e7d32);
        any_ss = 1;
    }
}

/* The lines of the statistics want, each in chunks of ceil(n / MAXPTS)
 * points (their mean drawn), the boldest with its min/max band. */
static void draw_series(struct pb_chart *ch, const struct rp_data *d,
                        const struct tchart *c, unsigned want,
                        double *const *lt, double *const *lv, const size_t *ln,
                        const struct tmap *mp)
{
    /* the mean (thin) first, p99 (bold) on top; the band of the boldest */
    int top_st = -1;
    for (int st = 0; st < NST; st++)
        if (want & (1u << st))
            top_st = st;
    if (want & (1u << ST_P99)) /* bold, with p99.9 above it */
        top_st = ST_P99;
    double *xy = pb_xmalloc(4 * (MAXPTS + 2) * sizeof(double));
    for (size_t L = 0; L < c->n * NST; L++) {
        if (!(want & (1u << (L % NST))))
            continue;
        size_t i = L / NST;
        uint32_t col = config_color(d, c->l[i].config_id, i);
        size_t n = ln[L], k = (n + MAXPTS - 1) / MAXPTS;
        if (!k)
            continue;
        size_t m = 0;
        double *band = xy + 2 * (MAXPTS + 1);
        int banded = 0;
        double *lo = pb_xmalloc((MAXPTS + 1) * sizeof(double));
        for (size_t a = 0; a < n; a += k, m++) {
            double st = 0, sv = 0, mn = INFINITY, mx = -INFINITY;
            size_t b = a;
            for (; b < n && b < a + k; b++) {
                st += lt[L][b];
                sv += lv[L][b];
                mn = fmin(mn, lv[L][b]);
                mx = fmax(mx, lv[L][b]);
            }
            double cnt = (double)(b - a);
            xy[2 * m] = tmap_x(mp, st / cnt);
            xy[2 * m + 1] = tmap_y(mp, sv / cnt);
            band[2 * m] = xy[2 * m];
            band[2 * m + 1] = tmap_y(mp, mx);
            lo[m] = tmap_y(mp, mn);
            banded |= mx > mn;
        }
        if (banded && (int)(L % NST) == top_st) {
            /* upper edge forward, lower edge back: one polygon */
            double *poly = pb_xmalloc(4 * m * sizeof(double));
            for (size_t j = 0; j < m; j++) {
                poly[2 * j] = band[2 * j];
                poly[2 * j + 1] = band[2 * j + 1];
                poly[2 * (2 * m - 1 - j)] = band[2 * j];
                poly[2 * (2 * m - 1 - j) + 1] = lo[j];
            }
            uint32_t light = ((((col >> 16) & 0xff) + 3 * 0xff) / 4) << 16 |
                             ((((col >> 8) & 0xff) + 3 * 0xff) / 4) << 8 |
                             (((col & 0xff) + 3 * 0xff) / 4);
            rc_poly(ch, poly, 2 * m, light, RC_NONE, 0);
            free(poly);
        }
        free(lo);
        if (m == 1)
            rc_rect(ch, xy[0] - 3, xy[1] - 3, 6, 6, col, RC_NONE, 0);
        else
            rc_poly(ch, xy, m, RC_NONE, st_color(col, (int)(L % NST), want),
                    st_width((int)(L % NST), want));
    }
    free(xy);
}

/* The chart's heading, the chart and the link to its exact series. */
static void emit_chart(struct ts *s, struct pb_chart *ch, const char *title)
{
    const struct tchart *c = &s->c;
    rp_out_heading(s->o, 3, NULL, title);
    char stem[64];
    snprintf(stem, sizeof(stem), "series-%s", c->series);
    rp_out_chart(s->o, ch, stem);
    char *csvname = pb_xasprintf("charts/series-%03zu-%s.csv", s->ncharts + 1,
                                 c->series);
    size_t csvlen;
    const char *csvtext = rp_csv_text(c->csv, &csvlen);
    rp_out_file(s->o, csvname, csvtext, csvlen);
    struct pb_buf a = PB_BUF_INIT;
    pb_buf_puts(&a, "<p class=\"note\"><a href=\"");
    rp_esc(&a, csvname);
    pb_buf_puts(&a, "\">The exact series (CSV)</a></p>\n");
    rp_out_raw(s->o, pb_buf_str(&a));
    pb_buf_release(&a);
    free(csvname);
}

/* The table under the chart: per line drawn, its points, mean, min, max
 * and CV (in unit yu). */
static void summary_table(struct ts *s, unsigned want, double *const *lv,
                          const size_t *ln, const struct rp_unit *yu,
                          const char *title)
{
    char buf[96];
    struct rt_table t;
    rt_init(&t, 6);
    t.sortable = 1;
    rt_header(&t, 0, s->c.per_job ? "Configuration · job" : "Configuration",
              RT_LEFT);
    rt_header(&t, 1, "points", RT_RIGHT);
    rt_header(&t, 2, "mean", RT_RIGHT);
    rt_header(&t, 3, "min", RT_RIGHT);
    rt_header(&t, 4, "max", RT_RIGHT);
    rt_header(&t, 5, "CV", RT_RIGHT);
    for (size_t L = 0; L < s->c.n * NST; L++) {
        if (!(want & (1u << (L % NST))))
            continue;
        size_t i = L / NST;
        double sum = 0, sq = 0, mn = INFINITY, mx = -INFINITY;
        for (size_t k = 0; k < ln[L]; k++) {
            sum += lv[L][k];
            sq += lv[L][k] * lv[L][k];
            mn = fmin(mn, lv[L][k]);
            mx = fmax(mx, lv[L][k]);
        }
        double n = (double)ln[L], mean = n ? sum / n : 0;
        double var = n > 1 ? (sq - n * mean * mean) / (n - 1) : 0;
        double cv = mean != 0 ? sqrt(fmax(var, 0)) / fabs(mean) : 0;
        struct rt_cell *row = rt_row(&t);
        const char *lab = s->c.l[i].job ? rt_str(&t, "%s · %s", s->c.l[i].label,
                                                 s->c.l[i].job)
                                        : s->c.l[i].label;
        if (want & ST_PCT)
            lab = rt_str(&t, "%s · %s", lab, st_name[L % NST]);
        rt_set(&t, &row[0], lab);
        row[0].has_swatch = 1;
        row[0].swatch = config_color(s->d, s->c.l[i].config_id, i);
        rt_setv(&t, &row[1], rt_str(&t, "%zu", ln[L]), n);
        rt_setv(&t, &row[2], rp_fmt(yu, mean, buf, sizeof(buf)), mean);
        rt_setv(&t, &row[3], rp_fmt(yu, mn, buf, sizeof(buf)), mn);
        rt_setv(&t, &row[4], rp_fmt(yu, mx, buf, sizeof(buf)), mx);
        rt_setv(&t, &row[5], rt_str(&t, "%.3f", cv), cv);
    }
    t.caption = rt_str(&t, "Data: %s (the lines as drawn, before the "
                           "2,000-point limit)", title);
    rp_out_table(s->o, &t);
}

/* The lines of the statistics want, merged as drawn into lt[L], lv[L]
 * (allocated here), ln[L] points, L = config * NST + statistic; *tmax,
 * *vmax, *vmin (0 first) get the range of their times and values. */
static void merge_lines(const struct tchart *c, unsigned want, int rate,
                        double **lt, double **lv, size_t *ln, double *tmax,
                        double *vmax, double *vmin)
{
    for (size_t i = 0; i < c->n * NST; i++) {
        if (!(want & (1u << (i % NST))))
            continue;
        const struct tline *cl = &c->l[i / NST];
        lt[i] = pb_xmalloc((cl->n + 1) * sizeof(double));
        lv[i] = pb_xmalloc((cl->n + 1) * sizeof(double));
        ln[i] = merge_line(&c->l[i / NST], c->width, rate, (int)(i % NST),
                           lt[i], lv[i]);
        for (size_t k = 0; k < ln[i]; k++) {
            if (lt[i][k] > *tmax)
                *tmax = lt[i][k];
            if (isfinite(lv[i][k]) && lv[i][k] > *vmax)
                *vmax = lv[i][k];
            if (isfinite(lv[i][k]) && lv[i][k] < *vmin)
                *vmin = lv[i][k];
        }
    }
}

/* The key of the statistics drawn, on one line at y; returns y. */
static double stat_key(struct rc_fonts *f, struct pb_chart *ch, unsigned want,
                       double y)
{
    char buf[96];
    double x = PAD;
    for (int st = NST - 1; st >= 0; st--) {
        if (!(want & (1u << st)))
            continue;
        rc_line(ch, x, y - 4, x + 24, y - 4, st_color(C_TEXT, st, want),
                st_width(st, want));
        snprintf(buf, sizeof(buf), "%s of each interval", st_name[st]);
        rc_text(ch, x + 30, y, buf, F_LABEL, 0, RC_START, C_TEXT);
        x += 30 + rc_text_width(f, buf, F_LABEL, 0) + 24;
    }
    return y;
}

static void draw(struct ts *s, unsigned want)
{
    struct tchart *c = &s->c;
    const struct rp_data *d = s->d;
    int rate = is_rate(c->unit);
    struct rp_unit yu, xu = {RP_U_NS, NULL};
    rp_unit_of(c->series, c->unit, &yu);
    struct pb_chart *ch = rc_chart_new(W, 100);
    char title[400], sub[300];
    snprintf(title, sizeof(title), "%s: %s over time", c->test, c->series);
    if (want & ST_PCT)
        snprintf(sub, sizeof(sub),
                 "per %s%s: the %s of each interval of the log, as the key "
                 "below shows",
                 c->per_job ? "job" : "configuration",
                 rate ? " (jobs summed)" : " (jobs averaged)",
                 want == ((1u << ST_P99) | (1u << ST_MEAN))
                     ? "p99 (bold) and the mean (thin)"
                 : want == ((1u << ST_P99) | (1u << ST_P999) | (1u << ST_MEAN))
                     ? "p99 (bold), p99.9 (above it) and the mean (thin)"
                     : "selected statistics");
    else
        snprintf(sub, sizeof(sub),
                 "one line per %s%s; a band shows the min and max of points "
                 "drawn as one",
                 c->per_job ? "job" : "configuration",
                 rate ? " (jobs summed)" : " (jobs averaged)");
    ch->title = pb_arena_strdup(&ch->arena, title);
    rc_rect(ch, 0, 0, W, 0, 0xffffff, RC_NONE, 0);
    size_t bg = ch->n - 1;
    double top = rc_heading(rp_out_fonts(s->o), ch, W, title, sub) + 34;
    double plot_h = 260;

    /* merged lines, then the ranges */
    /* line L = config * NST + statistic; the drawn ones merged */
    size_t nl = c->n * NST;
    double **lt = pb_xcalloc(nl + 1, sizeof(*lt));
    double **lv = pb_xcalloc(nl + 1, sizeof(*lv));
    size_t *ln = pb_xcalloc(nl + 1, sizeof(*ln));
    double tmax = 0, vmax = 0, vmin = 0;
    merge_lines(c, want, rate, lt, lv, ln, &tmax, &vmax, &vmin);
    struct rc_fonts *f = rp_out_fonts(s->o);
    struct rp_scale xs, ys;
    rp_scale_for(&xu, tmax * 1e6, &xs);
    rp_scale_for(&yu, fmax(fabs(vmax), fabs(vmin)), &ys);
    struct rp_ticks yt, xt;
    rc_fit_ticks(f, vmin, (vmax > vmin ? vmax : vmin + 1) * 1.05, &ys, plot_h,
                 8, &yt);
    char buf[96];
    double yw = 0;
    for (int i = 0; i < yt.n; i++) {
        rp_fmt_scaled((yt.lo + i * yt.step) * ys.div, &ys, yt.decimals, buf,
                      sizeof(buf));
        double w = rc_text_width(f, buf, F_TICK, 0);
        yw = fmax(yw, w);
    }
    double x0 = PAD + yw + 8, x1 = W - PAD - 20;
    rc_fit_ticks(f, 0, (tmax > 0 ? tmax : 1) * 1e6, &xs, x1 - x0, 14, &xt);
    double y0 = top + plot_h, y1 = top;
    double xspan = xt.hi - xt.lo, yspan = yt.hi - yt.lo;
    if (xspan <= 0)
        xspan = 1;
    if (yspan <= 0)
        yspan = 1;
    struct tmap mp = {x0,    x1,    y0,     y1,    xs.div,
                      xt.lo, xspan, ys.div, yt.lo, yspan};
#define XOF(ms) tmap_x(&mp, (ms))
#define YOF(v)  tmap_y(&mp, (v))
    shade_steady(ch, d, c, want, lt, ln, &mp);
    for (int i = 0; i < yt.n; i++) {
        double v = (yt.lo + i * yt.step) * ys.div, y = YOF(v);
        rc_line(ch, x0, y, x1, y, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        rp_fmt_scaled(v, &ys, yt.decimals, buf, sizeof(buf));
        rc_text(ch, x0 - 6, y + 4, buf, F_TICK, 0, RC_END, C_MUTED);
    }
    for (int i = 0; i < xt.n; i++) {
        double v = (xt.lo + i * xt.step) * xs.div, x = XOF(v / 1e6);
        rc_line(ch, x, y0, x, y1, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        rp_fmt_scaled(v, &xs, xt.decimals, buf, sizeof(buf));
        rc_text(ch, x, y0 + 15, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    }
    /* lines: chunks of ceil(n / MAXPTS) points, mean drawn, min/max band */
    draw_series(ch, d, c, want, lt, lv, ln, &mp);
    double y = y0 + 32;
    snprintf(buf, sizeof(buf), "time since the job started (%s) →", xs.name);
    rc_text(ch, (x0 + x1) / 2, y, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    snprintf(buf, sizeof(buf), "↑ %s (%s)", c->series, ys.name);
    rc_text(ch, PAD, top - 12, buf, F_TICK, 0, RC_START, C_MUTED);
    y += 10;
    if (want & ST_PCT) /* the key: which line is which statistic */
        y = stat_key(f, ch, want, y + 20);
    for (size_t i = 0; i < c->n; i++) {
        y += 20;
        char *lab = c->l[i].job
                        ? pb_xasprintf("%s · %s", c->l[i].label, c->l[i].job)
                        : pb_xstrdup(c->l[i].label);
        rc_legend_entry(f, ch, PAD, y, W - 2 * PAD - 20, lab,
                        config_color(d, c->l[i].config_id, i), F_LABEL, C_TEXT);
        free(lab);
    }
#undef XOF
#undef YOF
    ch->h = ceil(y + PAD);
    ch->items[bg].h = ch->h;

    /* heading, chart, CSV link, summary table */
    emit_chart(s, ch, title);
    summary_table(s, want, lv, ln, &yu, title);
    for (size_t i = 0; i < nl; i++) {
        free(lt[i]);
        free(lv[i]);
    }
    free(lt);
    free(lv);
    free(ln);
}

/* ==== the walk over the points ==== */

static void flush_chart(struct ts *s)
{
    if (!s->open)
        return;
    unsigned want = chart_stats(s, s->c.series, s->c.has);
    if (!want) {
        /* --metric names neither the series nor one of its lines */
    } else if (s->ncharts < MAXCHARTS) {
        if (!s->ncharts) {
            rp_out_raw(s->o, "<section id=\"over-time\">\n");
            rp_out_heading(s->o, 2, NULL, "Over time");
            rp_out_para(s->o, "lead",
                        "What fio logged while the tests ran (write_bw_log, "
                        "write_iops_log, write_lat_log, write_hist_log): "
                        "warm-up, stalls such as ZFS transaction group "
                        "flushes, and whether a run reached a steady "
                        "state.");
        }
        draw(s, want);
        s->ncharts++;
    } else {
        s->skipped++;
    }
    chart_reset(&s->c);
    s->open = 0;
}

static int on_point(void *ctx, const struct pb_db_point *p)
{
    struct ts *s = ctx;
    struct tchart *c = &s->c;
    if (s->open && (c->test_id != p->test_id || strcmp(c->series, p->series)))
        flush_chart(s);
    if (!s->open) {
        c->test_id = p->test_id;
        c->test = pb_xstrdup(p->test);
        c->series = pb_xstrdup(p->series);
        c->unit = pb_xstrdup(p->unit);
        c->per_job = s->per_job;
        static const char *const head[] = {"config", "job", "t_ms",
                                           "value",  "n",   "min",
                                           "max",    "p50", "p99",
                                           "p99.9"};
        c->csv = rp_csv_new(10, head);
        s->open = 1;
    }
    struct tline *l = c->n ? &c->l[c->n - 1] : NULL;
    if (!l || l->config_id != p->config_id ||
        (s->per_job && strcmp(l->job ? l->job : "", p->job ? p->job : ""))) {
        PB_GROW(c->l, c->cap, c->n + 1);
        l = &c->l[c->n++];
        memset(l, 0, sizeof(*l));
        l->config_id = p->config_id;
        l->label = pb_xstrdup(p->config ? p->config : "");
        l->job = s->per_job ? pb_xstrdup(p->job ? p->job : "") : NULL;
    }
    PB_GROW(l->p, l->cap, l->n + 1);
    struct tp *t = &l->p[l->n++];
    t->sid = p->series_id;
    t->t = p->t_ms;
    const double q[NST] = {p->value, p->p50, p->p90,
                           p->p95,   p->p99, p->p999};
    for (int i = 0; i < NST; i++) {
        t->q[i] = q[i];
        if (isfinite(q[i]))
            c->has |= 1u << i;
    }
    t->n = (double)p->n;
    if (p->width_ms > c->width)
        c->width = p->width_ms;
    /* the exact points, one CSV row each (a million rows for 100 charts
     * of 10,000 points: config and job are escaped once per line) */
    if (!l->row.len || strcmp(l->rowjob, p->job ? p->job : "")) {
        pb_buf_reset(&l->row);
        rp_csv_esc(&l->row, p->config);
        pb_buf_putc(&l->row, ',');
        rp_csv_esc(&l->row, p->job);
        free(l->rowjob);
        l->rowjob = pb_xstrdup(p->job ? p->job : "");
    }
    rp_csv_fields(c->csv, l->row.s, l->row.len, 2);
    rp_csv_int(c->csv, p->t_ms);
    const double v[] = {p->value, (double)p->n, p->min, p->max,
                        p->p50,   p->p99,       p->p999};
    for (size_t i = 0; i < 7; i++) {
        if (i == 1 && p->n == 0)
            rp_csv_empty(c->csv);
        else
            rp_csv_num(c->csv, v[i]);
    }
    return 0;
}

/* --metric compiled for the walk, and the filter without it (the series
 * are chosen here: SERIES_STAT names are not in the database); 0 when
 * there is no --metric, -1 on a bad pattern (the database's regexp
 * reports it). */
static int re_open(struct ts *s, const struct pb_db_filter *f,
                   struct pb_db_filter *all)
{
    *all = *f;
    if (!f->metric_re)
        return 0;
    int ec;
    PCRE2_SIZE eo;
    s->re = pcre2_compile((PCRE2_SPTR)f->metric_re, PCRE2_ZERO_TERMINATED,
                          PCRE2_UTF | PCRE2_UCP, &ec, &eo, NULL);
    if (!s->re)
        return -1;
    s->md = pcre2_match_data_create_from_pattern(s->re, NULL);
    all->metric_re = NULL;
    return 1;
}

static void re_close(struct ts *s)
{
    pcre2_match_data_free(s->md);
    pcre2_code_free(s->re);
    s->md = NULL;
    s->re = NULL;
}

/* pb_an_has_points' walk with --metric: stops at a point whose series or
 * SERIES_STAT the pattern names */
static int first_named(void *ctx, const struct pb_db_point *p)
{
    struct ts *s = ctx;
    const double q[NST] = {p->value, p->p50, p->p90,
                           p->p95,   p->p99, p->p999};
    unsigned has = 0;
    for (int i = 0; i < NST; i++)
        if (isfinite(q[i]))
            has |= 1u << i;
    if (chart_stats(s, p->series, has)) {
        s->ncharts = 1;
        return 1;
    }
    return 0;
}

int rp_has_timeseries(struct pb_an *an, const struct pb_db_filter *f)
{
    struct ts s;
    struct pb_db_filter all;
    memset(&s, 0, sizeof(s));
    int r = re_open(&s, f, &all);
    if (r <= 0)
        return pb_an_has_points(an, f);
    struct pb_err err = {0};
    if (pb_an_each_point(an, &all, first_named, &s, &err) != PB_OK &&
        !s.ncharts)
        s.ncharts = 0;
    re_close(&s);
    return s.ncharts > 0;
}

int rp_section_timeseries(struct rp_out *o, const struct rp_data *d,
                          struct pb_an *an, const struct pb_db_filter *f,
                          int per_job, struct pb_err *err)
{
    struct ts s;
    memset(&s, 0, sizeof(s));
    s.o = o;
    s.d = d;
    s.per_job = per_job;
    struct pb_db_filter all;
    int rc;
    if (re_open(&s, f, &all) < 0) /* the database reports the pattern */
        rc = pb_an_each_point(an, f, on_point, &s, err);
    else
        rc = pb_an_each_point(an, &all, on_point, &s, err);
    if (!rc)
        flush_chart(&s);
    chart_reset(&s.c);
    re_close(&s);
    if (s.skipped) {
        char note[160];
        snprintf(note, sizeof(note),
                 "%zu more time-series charts left out (at most %d): "
                 "narrow the report with --test, --config or --metric, or "
                 "see 'poolbench export --series'.",
                 s.skipped, MAXCHARTS);
        rp_out_para(o, "note", note);
    }
    if (s.ncharts)
        rp_out_raw(o, "</section>\n");
    return rc;
}
