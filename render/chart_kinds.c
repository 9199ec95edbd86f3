/* Chart layout: computes the geometry of horizontal bar charts, grouped
 * bar charts and heatmaps (bars, axes, ticks, labels, text measured with
 * cairo's font metrics so nothing overlaps) into a display list that the
 * SVG and cairo back-ends draw alike. */
#define _GNU_SOURCE
#include "render/rp_base.h"
#include "render/rp_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== shared pieces ==== */

#define W_DEFAULT 860.0
#define PAD       16.0
#define F_TITLE   15.0
#define F_SUB     12.0
#define F_LABEL   12.5
#define F_VALUE   12.0
#define F_TICK    11.0
#define C_TEXT    0x1a1a1a
#define C_MUTED   0x5a5a5a
#define C_GRID    0xe4e4e4
#define C_AXIS    0x8a8a8a
#define C_STAR    0xc27c00

/* Title and subtitle lines from y on; returns the y below them. */
static double heading(struct rc_fonts *f, struct pb_chart *c, double w,
                      const char *title, const char *sub, double y)
{
    const char *lines[3];
    int el;
    size_t n =
        rc_wrap(f, &c->arena, title, F_TITLE, 1, w - 2 * PAD, 2, lines, &el);
    for (size_t i = 0; i < n; i++) {
        y += 19;
        struct pb_item *it =
            rc_text(c, PAD, y, lines[i], F_TITLE, 1, RC_START, C_TEXT);
        if (el)
            it->title = pb_arena_strdup(&c->arena, title);
    }
    if (sub && *sub) {
        n = rc_wrap(f, &c->arena, sub, F_SUB, 0, w - 2 * PAD, 3, lines, &el);
        y += 4;
        for (size_t i = 0; i < n; i++) {
            y += 16;
            struct pb_item *it =
                rc_text(c, PAD, y, lines[i], F_SUB, 0, RC_START, C_MUTED);
            if (el)
                it->title = pb_arena_strdup(&c->arena, sub);
        }
    }
    return y;
}

/* Axis ticks that fit: fewer until their labels do not touch. */
static void fit_ticks(struct rc_fonts *f, double lo, double hi,
                      const struct rp_scale *sc, double pixels, double minsep,
                      struct rp_ticks *t)
{
    int target = (int)(pixels / 90);
    if (target < 2)
        target = 2;
    for (;;) {
        rp_ticks(lo / sc->div, hi / sc->div, target, t);
        double maxw = 0;
        for (int i = 0; i < t->n; i++) {
            char buf[64];
            rp_fmt_scaled((t->lo + i * t->step) * sc->div, sc, t->decimals, buf,
                          sizeof(buf));
            double w = rc_text_width(f, buf, F_TICK, 0);
            if (w > maxw)
                maxw = w;
        }
        double sep = t->n > 1 ? pixels / (t->n - 1) : pixels;
        if (sep >= maxw + minsep || target <= 2)
            return;
        target--;
    }
}

void rc_legend_entry(struct rc_fonts *f, struct pb_chart *c, double x, double y,
                     double w, const char *label, uint32_t color, double size,
                     uint32_t text)
{
    const char *lines[1];
    int el;
    rc_rect(c, x, y - 10, 12, 12, color, RC_NONE, 0);
    rc_wrap(f, &c->arena, label, size, 0, w, 1, lines, &el);
    struct pb_item *it =
        rc_text(c, x + 18, y, lines[0], size, 0, RC_START, text);
    if (el)
        it->title = pb_arena_strdup(&c->arena, label);
}

double rc_heading(struct rc_fonts *f, struct pb_chart *c, double w,
                  const char *title, const char *sub)
{
    return heading(f, c, w, title, sub, 0);
}

void rc_fit_ticks(struct rc_fonts *f, double lo, double hi,
                  const struct rp_scale *sc, double pixels, double minsep,
                  struct rp_ticks *t)
{
    fit_ticks(f, lo, hi, sc, pixels, minsep, t);
}

static int better_dir(double a, double b, int dir)
{
    return dir < 0 ? a < b : a > b;
}

/* Decimals for 4 significant digits of a scaled value. */
static int sig_decimals(double x)
{
    x = fabs(x);
    if (x == 0 || x >= 1000)
        return 0;
    return x >= 100 ? 1 : x >= 10 ? 2 : 3;
}

/* Decimals for 2 significant digits (at most 6). */
static int se_decimals(double x)
{
    x = fabs(x);
    if (x == 0 || !isfinite(x))
        return 0;
    int d = 1 - (int)floor(log10(x));
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

void rc_grid_bests(const struct rc_gridspec *s, size_t *best)
{
    size_t n = s->nx * s->ns;
    size_t ngroups = s->norm == RC_NORM_ROW   ? s->ns
                     : s->norm == RC_NORM_COL ? s->nx
                                              : 1;
    for (size_t g = 0; g < ngroups; g++) {
        size_t start = s->norm == RC_NORM_ROW ? g * s->nx : g;
        size_t step = s->norm == RC_NORM_COL ? s->nx : 1;
        size_t count = s->norm == RC_NORM_ROW   ? s->nx
                       : s->norm == RC_NORM_COL ? s->ns
                                                : n;
        size_t b = SIZE_MAX, have = 0;
        for (size_t i = 0, j = start; i < count; i++, j += step) {
            if (isnan(s->v[j]))
                continue;
            have++;
            if (b == SIZE_MAX || better_dir(s->v[j], s->v[b], s->dir))
                b = j;
        }
        for (size_t i = 0, j = start; i < count; i++, j += step)
            best[j] = have >= 2 && !isnan(s->v[j]) ? b : SIZE_MAX;
    }
}

int rc_grid_best(const struct rc_gridspec *s, size_t k)
{
    size_t *b = pb_xcalloc(s->nx * s->ns + 1, sizeof(size_t));
    rc_grid_bests(s, b);
    int r = b[k] != SIZE_MAX && s->v[k] == s->v[b[k]];
    free(b);
    return r;
}

/* A number inside a chart, without the unit name: in the chart's common
 * scale for units named once (MiB/s), in its own scale where the prefix is
 * part of the number (37.93k, 442 for IOPS); SE with 2 digits. */
static const char *cell_num(const struct rp_unit *u,
                            const struct rp_scale *common, double v, int is_se,
                            char *buf, size_t n)
{
    struct rp_scale own;
    const struct rp_scale *sc = common;
    if (u->kind == RP_U_IOPS || u->kind == RP_U_OPS || u->kind == RP_U_OTHER) {
        rp_scale_for(u, v, &own);
        sc = &own;
    }
    double x = v / sc->div;
    return rp_fmt_scaled(v, sc, is_se ? se_decimals(x) : sig_decimals(x), buf,
                         n);
}

/* The chart ends PAD below y; its background item bg grows to it. */
static struct pb_chart *finish(struct pb_chart *c, size_t bg, double y)
{
    c->h = ceil(y + PAD);
    c->items[bg].h = c->h;
    rc_fix_size(c);
    return c;
}

/* ==== horizontal bars ==== */

/* The bars' x scale: v at bx0 + (v / div - lo) / span * (bx1 - bx0). */
struct bmap {
    double bx0, bx1, div, lo, span;
};

static double bmap_x(const struct bmap *m, double v)
{
    return m->bx0 + ((v / m->div) - m->lo) / m->span * (m->bx1 - m->bx0);
}

/* One bar centred on cy, its whisker, its value text vt (inside the bar
 * when it fits) and the star of the best; "no value" bars get vt alone. */
static void draw_bar(struct rc_fonts *f, struct pb_chart *c,
                     const struct rc_bar *b, const char *vt, double cy,
                     const struct bmap *mp)
{
    if (!b->has_value) {
        rc_text(c, bmap_x(mp, 0) + 6, cy + 4, vt, F_VALUE, 0, RC_START,
                C_MUTED);
        return;
    }
    double x0 = bmap_x(mp, 0), x1 = bmap_x(mp, b->v);
    double bx = x0 < x1 ? x0 : x1, bw = fabs(x1 - x0);
    if (bw < 1)
        bw = 1;
    rc_rect(c, bx, cy - 9, bw, 18, b->color, b->best ? 0x1a1a1a : RC_NONE,
            b->best ? 1.5 : 0);
    double vx = x1 > x0 ? x1 : x0;
    if (b->se > 0) {
        double e0 = bmap_x(mp, b->v - b->se), e1 = bmap_x(mp, b->v + b->se);
        rc_line(c, e0, cy, e1, cy, 0x222222, 1.3);
        rc_line(c, e0, cy - 5, e0, cy + 5, 0x222222, 1.3);
        rc_line(c, e1, cy - 5, e1, cy + 5, 0x222222, 1.3);
        if (e1 > vx)
            vx = e1;
    }
    /* the value inside a positive bar long enough for it, at its
     * start: on a narrow screen (the chart scrolls in its figure) it
     * is in view with the label; else beside the bar's end */
    double w = rc_text_width(f, vt, F_VALUE, b->best);
    if (x1 > x0 && bw >= w + 12) {
        rc_text(c, bx + 6, cy + 4, vt, F_VALUE, b->best, RC_START,
                rc_text_on(b->color));
        w = -6; /* the star right after the bar's end */
    } else {
        rc_text(c, vx + 6, cy + 4, vt, F_VALUE, b->best, RC_START, C_TEXT);
    }
    if (b->best) {
        struct pb_item *it =
            rc_text(c, vx + 6 + w, cy + 4, " ★", F_VALUE, 1, RC_START, C_STAR);
        it->title = pb_arena_strdup(&c->arena, "best");
    }
}

struct pb_chart *rc_bars(struct rc_fonts *f, const struct rc_barspec *s)
{
    double W = W_DEFAULT;
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, s->title);
    rc_rect(c, 0, 0, W, 0, 0xffffff, RC_NONE, 0); /* height set at the end */
    size_t bg = c->n - 1;
    double y = heading(f, c, W, s->title, s->subtitle, 0) + 14;

    /* value texts and their width */
    const char **vt = pb_arena_alloc(&c->arena, (s->n + 1) * sizeof(*vt));
    double vw = 0, starw = rc_text_width(f, " ★", F_VALUE, 1);
    double vmax = 0, vmin = 0, maxabs = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_bar *b = &s->bars[i];
        char buf[128];
        if (b->has_value) {
            vt[i] = pb_arena_strdup(
                &c->arena, rp_fmt_pm(&s->unit, b->v, b->se, buf, sizeof(buf)));
            double hi = b->v + (b->se > 0 ? b->se : 0);
            double lo = b->v - (b->se > 0 ? b->se : 0);
            if (hi > vmax)
                vmax = hi;
            if (lo < vmin)
                vmin = lo;
            if (fabs(b->v) > maxabs)
                maxabs = fabs(b->v);
        } else {
            vt[i] = b->note ? b->note : "no value";
        }
        double w =
            rc_text_width(f, vt[i], F_VALUE, b->best) + (b->best ? starw : 0);
        if (b->has_value && w > vw)
            vw = w;
    }
    vw += 10;
    if (vw > W * 0.32)
        vw = W * 0.32;

    /* labels: wrapped to two lines in at most a third of the width */
    double maxlw = W * 0.34;
    if (maxlw > W - 2 * PAD - vw - 10 - 240)
        maxlw = W - 2 * PAD - vw - 10 - 240;
    const char **lines =
        pb_arena_alloc(&c->arena, (2 * s->n + 1) * sizeof(*lines));
    size_t *nl = pb_arena_alloc(&c->arena, (s->n + 1) * sizeof(*nl));
    int *elided = pb_arena_alloc(&c->arena, (s->n + 1) * sizeof(*elided));
    double lw = 40;
    for (size_t i = 0; i < s->n; i++) {
        nl[i] = rc_wrap(f, &c->arena, s->bars[i].label, F_LABEL, 0, maxlw, 2,
                        lines + 2 * i, &elided[i]);
        for (size_t k = 0; k < nl[i]; k++) {
            double w = rc_text_width(f, lines[2 * i + k], F_LABEL, 0);
            if (w > lw)
                lw = w;
        }
    }
    double bx0 = PAD + lw + 12, bx1 = W - PAD - vw;

    struct rp_scale sc;
    rp_scale_for(&s->unit, maxabs, &sc);
    struct rp_ticks t;
    if (vmax <= vmin)
        vmax = vmin + 1;
    fit_ticks(f, vmin, vmax, &sc, bx1 - bx0, 14, &t);
    double span = t.hi - t.lo;
    struct bmap mp = {bx0, bx1, sc.div, t.lo, span};
#define XOF(v) bmap_x(&mp, (v))

    /* rows */
    double top = y;
    double *rowy = pb_arena_alloc(&c->arena, (s->n + 1) * sizeof(double));
    for (size_t i = 0; i < s->n; i++) {
        double rh = nl[i] > 1 ? 36 : 26;
        rowy[i] = y + rh / 2;
        y += rh;
    }
    double bottom = y + 4;
    /* grid behind the bars */
    for (int i = 0; i < t.n; i++) {
        double v = (t.lo + i * t.step) * sc.div;
        double x = XOF(v);
        int zero = fabs(t.lo + i * t.step) < t.step * 1e-9;
        rc_line(c, x, top - 4, x, bottom, zero ? C_AXIS : C_GRID,
                zero ? 1.2 : 1);
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_bar *b = &s->bars[i];
        double cy = rowy[i];
        double ly = cy - (double)(nl[i] - 1) * 7.5 + 4.5;
        for (size_t k = 0; k < nl[i]; k++) {
            struct pb_item *it =
                rc_text(c, PAD + lw, ly + 15.0 * (double)k, lines[2 * i + k],
                        F_LABEL, 0, RC_END, C_TEXT);
            if (elided[i])
                it->title = pb_arena_strdup(&c->arena, b->label);
        }
        draw_bar(f, c, b, vt[i], cy, &mp);
    }
    /* tick labels and axis name */
    y = bottom + 14;
    for (int i = 0; i < t.n; i++) {
        double v = (t.lo + i * t.step) * sc.div;
        char buf[64];
        rp_fmt_scaled(v, &sc, t.decimals, buf, sizeof(buf));
        rc_text(c, XOF(v), y, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    }
    y += 17;
    char axis[96];
    snprintf(axis, sizeof(axis), "%s%s%s", sc.name, sc.name[0] ? "   " : "",
             s->dir < 0 ? "← lower is better" : "higher is better →");
    rc_text(c, (bx0 + bx1) / 2, y, axis, F_TICK, 0, RC_MIDDLE, C_MUTED);
    if (s->more) {
        char buf[96];
        snprintf(buf, sizeof(buf), "+%zu more in the table", s->more);
        y += 17;
        rc_text(c, PAD, y, buf, F_TICK, 0, RC_START, C_MUTED);
    }
#undef XOF
    return finish(c, bg, y);
}

/* ==== grouped vertical bars ==== */

/* The series' legend of a grouped chart W px wide, from y on (lines
 * wrap); returns the y below it. */
static double series_legend(struct rc_fonts *f, struct pb_chart *c,
                            const struct rc_gridspec *s, double W, double y)
{
    char head[96];
    snprintf(head, sizeof(head), "%s:", s->sname ? s->sname : "series");
    double x = PAD;
    y += 14;
    rc_text(c, x, y, head, F_LABEL, 1, RC_START, C_TEXT);
    x += rc_text_width(f, head, F_LABEL, 1) + 10;
    for (size_t i = 0; i < s->ns; i++) {
        const char *lines[1];
        int el;
        rc_wrap(f, &c->arena, s->svals[i], F_LABEL, 0, 180, 1, lines, &el);
        double w = 16 + rc_text_width(f, lines[0], F_LABEL, 0) + 14;
        if (x + w > W - PAD && x > PAD + 60) {
            x = PAD;
            y += 18;
        }
        rc_rect(c, x, y - 10, 11, 11, s->scolors[i], RC_NONE, 0);
        struct pb_item *it =
            rc_text(c, x + 16, y, lines[0], F_LABEL, 0, RC_START, C_TEXT);
        if (el)
            it->title = pb_arena_strdup(&c->arena, s->svals[i]);
        x += w;
    }
    y += 8;
    return y;
}

/* The x labels of a grouped chart (up to two lines under each group of
 * the slot px wide from px0), at y = ly; returns the most lines. */
static size_t x_labels(struct rc_fonts *f, struct pb_chart *c,
                       const struct rc_gridspec *s, double px0, double slot,
                       double ly)
{
    size_t maxl = 1;
    for (size_t xi = 0; xi < s->nx; xi++) {
        const char *lines[2];
        int el;
        size_t n = rc_wrap(f, &c->arena, s->xvals[xi], F_LABEL, 0, slot - 4, 2,
                           lines, &el);
        if (n > maxl)
            maxl = n;
        for (size_t k = 0; k < n; k++) {
            struct pb_item *it = rc_text(c, px0 + slot * ((double)xi + 0.5),
                                         ly + 15.0 * (double)k, lines[k],
                                         F_LABEL, 0, RC_MIDDLE, C_TEXT);
            if (el)
                it->title = pb_arena_strdup(&c->arena, s->xvals[xi]);
        }
    }
    return maxl;
}

/* What a grouped chart's bars share: fonts, chart, spec, scale, the
 * plot's bottom, height and top, its y range (lo, span), the bars' width,
 * how values are labelled (0 none, 1 level, 2 turned), the best of each
 * cell (rc_grid_bests). */
struct gbar {
    struct rc_fonts *f;
    struct pb_chart *c;
    const struct rc_gridspec *s;
    const struct rp_scale *sc;
    double pbot, ph, lo, span, ptop, bw;
    int vmode;
    const size_t *bests;
};

static double gbar_y(const struct gbar *g, double v)
{
    return g->pbot - ((v / g->sc->div) - g->lo) / g->span * g->ph;
}

/* The bar of value k (series si) at x = bx: its whisker, the mark of
 * pooled configurations, its value. */
static void grouped_bar(const struct gbar *g, size_t si, size_t k, double bx)
{
    double v = g->s->v[k];
    double y0 = gbar_y(g, 0), y1 = gbar_y(g, v);
    double top = y0 < y1 ? y0 : y1, h = fabs(y1 - y0);
    if (h < 1)
        h = 1;
    int isbest = g->bests[k] != SIZE_MAX && v == g->s->v[g->bests[k]];
    rc_rect(g->c, bx + 0.5, top, g->bw - 1, h, g->s->scolors[si],
            isbest ? 0x1a1a1a : RC_NONE, isbest ? 1.5 : 0);
    double tip = top;
    if (g->s->se[k] > 0) {
        double e0 = gbar_y(g, v - g->s->se[k]), e1 = gbar_y(g, v + g->s->se[k]);
        double cx = bx + g->bw / 2;
        rc_line(g->c, cx, e0, cx, e1, 0x222222, 1.1);
        double cap = g->bw / 4 < 4 ? g->bw / 4 : 4;
        rc_line(g->c, cx - cap, e0, cx + cap, e0, 0x222222, 1.1);
        rc_line(g->c, cx - cap, e1, cx + cap, e1, 0x222222, 1.1);
        if (e1 < tip)
            tip = e1;
    }
    if (g->s->marks && g->s->marks[k]) {
        /* inside the bar at its foot, else above its tip and
         * its value */
        double mw = rc_text_width(g->f, g->s->marks[k], 9.5, 1);
        int inside = h >= 16 && g->bw >= mw + 2;
        double my = inside ? (y1 < y0 ? y0 - 5 : y0 + 12)
                           : tip - 5 - (g->vmode == 1 ? 12 : 0);
        struct pb_item *mi =
            rc_text(g->c, bx + g->bw / 2, my, g->s->marks[k], 9.5, 1, RC_MIDDLE,
                    inside ? rc_text_on(g->s->scolors[si]) : C_STAR);
        mi->title =
            pb_arena_strdup(&g->c->arena, "configurations pooled in this cell");
    }
    char buf[64];
    cell_num(&g->s->unit, g->sc, v, 0, buf, sizeof(buf));
    double tw2 = rc_text_width(g->f, buf, 10, 0);
    if (g->vmode == 1 && tip - 5 - 10 > g->ptop - 12) {
        rc_text(g->c, bx + g->bw / 2, tip - 5, buf, 10, 0, RC_MIDDLE, C_TEXT);
    } else if (g->vmode == 2) {
        struct pb_item *it;
        if (tip - 7 - tw2 >= g->ptop - 12)
            it = rc_text(g->c, bx + g->bw / 2 + 3.5, tip - 7, buf, 10, 0,
                         RC_START, C_TEXT);
        else if (h >= tw2 + 8)
            it = rc_text(g->c, bx + g->bw / 2 + 3.5, top + 4 + tw2, buf, 10, 0,
                         RC_START, rc_text_on(g->s->scolors[si]));
        else
            return;
        it->rot90 = 1;
    }
}

/* The range of a grid's values with their whiskers, from 0 (*vmin,
 * *vmax), and the largest magnitude of a value (*maxabs). */
static void grid_range(const struct rc_gridspec *s, double *vmin, double *vmax,
                       double *maxabs)
{
    for (size_t i = 0; i < s->nx * s->ns; i++) {
        double v = s->v[i];
        if (isnan(v))
            continue;
        double e = s->se[i] > 0 ? s->se[i] : 0;
        if (v + e > *vmax)
            *vmax = v + e;
        if (v - e < *vmin)
            *vmin = v - e;
        if (fabs(v) > *maxabs)
            *maxabs = fabs(v);
    }
}

struct pb_chart *rc_grouped(struct rc_fonts *f, const struct rc_gridspec *s)
{
    size_t nx = s->nx, ns = s->ns;
    double vmax = 0, vmin = 0, maxabs = 0;
    grid_range(s, &vmin, &vmax, &maxabs);
    struct rp_scale sc;
    rp_scale_for(&s->unit, maxabs, &sc);
    /* y axis label width */
    struct rp_ticks t;
    if (vmax <= vmin)
        vmax = vmin + 1;
    rp_ticks(vmin / sc.div, vmax / sc.div, 6, &t);
    double tw = 0;
    for (int i = 0; i < t.n; i++) {
        char buf[64];
        rp_fmt_scaled((t.lo + i * t.step) * sc.div, &sc, t.decimals, buf,
                      sizeof(buf));
        double w = rc_text_width(f, buf, F_TICK, 0);
        if (w > tw)
            tw = w;
    }
    double px0 = PAD + tw + 8;
    double slot_min = (double)ns * 6 + 12;
    double W = W_DEFAULT;
    if (px0 + slot_min * (double)nx + PAD > W)
        W = ceil(px0 + slot_min * (double)nx + PAD);
    if (W > 2400)
        W = 2400;
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, s->title);
    rc_rect(c, 0, 0, W, 0, 0xffffff, RC_NONE, 0);
    size_t bg = c->n - 1;
    double y = heading(f, c, W, s->title, s->subtitle, 0) + 10;

    /* legend: the series */
    if (ns > 1 || (s->svals[0] && *s->svals[0]))
        y = series_legend(f, c, s, W, y);
    /* unit above the axis */
    y += 18;
    char axis[96];
    snprintf(axis, sizeof(axis), "%s%s%s", sc.name, sc.name[0] ? "   " : "",
             s->dir < 0 ? "lower is better ↓" : "higher is better ↑");
    rc_text(c, PAD, y, axis, F_TICK, 0, RC_START, C_MUTED);
    double ptop = y + 14, ph = 250, pbot = ptop + ph;
    double px1 = W - PAD;
    double span = t.hi - t.lo;
    struct gbar gb = {f, c, s, &sc, pbot, ph, t.lo, span, ptop, 0, 0, NULL};
#define YOF(v) gbar_y(&gb, (v))
    for (int i = 0; i < t.n; i++) {
        double v = (t.lo + i * t.step) * sc.div;
        double yy = YOF(v);
        int zero = fabs(t.lo + i * t.step) < t.step * 1e-9;
        rc_line(c, px0, yy, px1, yy, zero ? C_AXIS : C_GRID, zero ? 1.2 : 1);
        char buf[64];
        rp_fmt_scaled(v, &sc, t.decimals, buf, sizeof(buf));
        rc_text(c, px0 - 6, yy + 4, buf, F_TICK, 0, RC_END, C_MUTED);
    }
    double slot = (px1 - px0) / (double)nx;
    /* compact: a group is as wide as its bars, the widest sets the size */
    size_t per = ns;
    if (s->compact) {
        per = 1;
        for (size_t xi = 0; xi < nx; xi++) {
            size_t m = 0;
            for (size_t si = 0; si < ns; si++)
                m += !isnan(s->v[si * nx + xi]);
            if (m > per)
                per = m;
        }
    }
    double bw = (slot - 12) / (double)per;
    if (bw > 34)
        bw = 34;
    if (bw < 2)
        bw = 2;
    double gw = bw * (double)per;
    /* value labels: horizontal when every one fits its bar, else rotated
     * when the bars are wide enough, else none (the table has them) */
    double maxvw = 0;
    for (size_t i = 0; i < nx * ns; i++) {
        if (isnan(s->v[i]))
            continue;
        char buf[64];
        cell_num(&s->unit, &sc, s->v[i], 0, buf, sizeof(buf));
        double w = rc_text_width(f, buf, 10, 0);
        if (w > maxvw)
            maxvw = w;
    }
    int vmode = maxvw + 2 <= bw ? 1 : bw >= 11 ? 2 : 0;
    size_t *bests = pb_xcalloc(nx * ns + 1, sizeof(size_t));
    rc_grid_bests(s, bests);
    gb.bw = bw;
    gb.vmode = vmode;
    gb.bests = bests;
    for (size_t xi = 0; xi < nx; xi++) {
        double gx = px0 + slot * (double)xi + (slot - gw) / 2;
        size_t pos = 0;
        if (s->compact) {
            size_t m = 0;
            for (size_t si = 0; si < ns; si++)
                m += !isnan(s->v[si * nx + xi]);
            gx = px0 + slot * (double)xi + (slot - bw * (double)m) / 2;
        }
        for (size_t si = 0; si < ns; si++) {
            size_t k = si * nx + xi;
            double v = s->v[k];
            if (isnan(v))
                continue;
            double bx = gx + bw * (double)(s->compact ? pos++ : si);
            grouped_bar(&gb, si, k, bx);
        }
    }
    /* x labels and name */
    double ly = pbot + 15;
    size_t maxl = x_labels(f, c, s, px0, slot, ly);
    y = ly + 15.0 * (double)(maxl - 1) + 19;
    rc_text(c, (px0 + px1) / 2, y, s->xname ? s->xname : "", F_LABEL, 1,
            RC_MIDDLE, C_TEXT);
#undef YOF
    free(bests);
    return finish(c, bg, y);
}

/* ==== heatmap ==== */

double rc_share(double v, double best, int dir)
{
    if (isnan(best))
        best = v;
    if (dir < 0)
        return v > 0 ? best / v : 0;
    return best > 0 ? v / best : 0;
}

/* The texts of a heatmap's cells (txt: the value, "–" for none; setxt:
 * "± SE" or NULL), allocated here; returns the cells' width. */
static double heat_texts(struct rc_fonts *f, const struct rc_gridspec *s,
                         const struct rp_scale *sc, char **txt, char **setxt)
{
    double cw = 52;
    for (size_t i = 0; i < s->nx * s->ns; i++) {
        char buf[96];
        if (isnan(s->v[i])) {
            txt[i] = pb_xstrdup("–");
            continue;
        }
        cell_num(&s->unit, sc, s->v[i], 0, buf, sizeof(buf));
        txt[i] = pb_xstrdup(buf);
        double w = rc_text_width(f, buf, F_VALUE, 1) + 16;
        if (w > cw)
            cw = w;
        if (s->se[i] >= 0) {
            char b2[64];
            cell_num(&s->unit, sc, s->se[i], 1, b2, sizeof(b2));
            snprintf(buf, sizeof(buf), "± %s", b2);
            setxt[i] = pb_xstrdup(buf);
            w = rc_text_width(f, buf, 9.5, 0) + 12;
            if (w > cw)
                cw = w;
        }
    }
    return cw;
}

/* The best each cell compares with (allocated): of the drawn grid, or of
 * all rows (s->bestv) when some are left out. */
static double *heat_bests(const struct rc_gridspec *s)
{
    double *bv = pb_xcalloc(s->nx * s->ns + 1, sizeof(double));
    if (s->bestv) {
        memcpy(bv, s->bestv, s->nx * s->ns * sizeof(double));
    } else {
        size_t *bests = pb_xcalloc(s->nx * s->ns + 1, sizeof(size_t));
        rc_grid_bests(s, bests);
        for (size_t k = 0; k < s->nx * s->ns; k++)
            bv[k] = bests[k] != SIZE_MAX ? s->v[bests[k]] : NAN;
        free(bests);
    }
    return bv;
}

/* Cell k at (cx, ry), cw x ch: grey for no value, else coloured by its
 * share of the best bv, its text, ± SE and mark. */
static void heat_cell(struct pb_chart *c, const struct rc_gridspec *s, size_t k,
                      double cx, double ry, double cw, double ch,
                      const char *txt, const char *setxt, double bv)
{
    if (isnan(s->v[k])) {
        rc_rect(c, cx + 1, ry + 1, cw - 2, ch - 2, 0xf4f4f4, RC_NONE, 0);
        rc_text(c, cx + cw / 2, ry + ch / 2 + 4.5, txt, F_VALUE, 0, RC_MIDDLE,
                0x9a9a9a);
        return;
    }
    /* colour by the share of the best: honest about small
     * differences, unlike a min-max stretch */
    uint32_t col = rc_heat_color(rc_share(s->v[k], bv, s->dir));
    uint32_t fg = rc_text_on(col);
    rc_rect(c, cx + 1, ry + 1, cw - 2, ch - 2, col, RC_NONE, 0);
    int isbest = s->v[k] == bv;
    double ty = setxt ? ry + 17 : ry + ch / 2 + 4.5;
    rc_text(c, cx + cw / 2, ty, txt, F_VALUE, isbest, RC_MIDDLE, fg);
    if (setxt)
        rc_text(c, cx + cw / 2, ry + 31, setxt, 9.5, 0, RC_MIDDLE, fg);
    if (s->marks && s->marks[k]) {
        struct pb_item *mi =
            rc_text(c, cx + cw - 4, ry + 11, s->marks[k], 9, 1, RC_END, fg);
        mi->title =
            pb_arena_strdup(&c->arena, "configurations pooled in this cell");
    }
}

/* The colour legend at y: left, the scale, right, the best's outline. */
static void heat_legend(struct rc_fonts *f, struct pb_chart *c, double y,
                        const char *left, const char *right,
                        const char *bestlbl)
{
    double x = PAD;
    rc_text(c, x, y, left, F_TICK, 0, RC_START, C_MUTED);
    x += rc_text_width(f, left, F_TICK, 0) + 8;
    for (int i = 0; i < 8; i++)
        rc_rect(c, x + 18.0 * i, y - 10, 18, 12, rc_heat_color(i / 7.0),
                RC_NONE, 0);
    x += 18 * 8 + 8;
    rc_text(c, x, y, right, F_TICK, 0, RC_START, C_MUTED);
    x += rc_text_width(f, right, F_TICK, 0) + 14;
    rc_rect(c, x, y - 10, 18, 12, RC_NONE, 0xf2a900, 2.5);
    rc_text(c, x + 24, y, bestlbl, F_TICK, 0, RC_START, C_MUTED);
}

/* Row si's header at ry (ch high, rw wide), or, for rows left out
 * (s->sgaps), one line of text across the chart W wide: then 1. */
static int heat_row_label(struct rc_fonts *f, struct pb_chart *c,
                          const struct rc_gridspec *s, size_t si, double ry,
                          double ch, double rw, double W)
{
    const char *lines[1];
    int el;
    if (s->sgaps && s->sgaps[si]) { /* rows left out: one line of text */
        rc_wrap(f, &c->arena, s->sgaps[si], F_TICK, 0, W - 2 * PAD, 1, lines,
                &el);
        struct pb_item *it = rc_text(c, PAD, ry + ch / 2 + 4, lines[0], F_TICK,
                                     0, RC_START, C_MUTED);
        if (el)
            it->title = pb_arena_strdup(&c->arena, s->sgaps[si]);
        return 1;
    }
    rc_wrap(f, &c->arena, s->svals[si], F_LABEL, 0, rw - 12, 1, lines, &el);
    struct pb_item *it = rc_text(c, PAD, ry + ch / 2 + 4.5, lines[0], F_LABEL,
                                 0, RC_START, C_TEXT);
    if (el)
        it->title = pb_arena_strdup(&c->arena, s->svals[si]);
    return 0;
}

struct pb_chart *rc_heatmap(struct rc_fonts *f, const struct rc_gridspec *s)
{
    size_t nx = s->nx, ns = s->ns;
    double lo = INFINITY, hi = -INFINITY, maxabs = 0;
    int any_se = 0;
    for (size_t i = 0; i < nx * ns; i++) {
        double v = s->v[i];
        if (isnan(v))
            continue;
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
        if (fabs(v) > maxabs)
            maxabs = fabs(v);
        if (s->se[i] >= 0)
            any_se = 1;
    }
    struct rp_scale sc;
    rp_scale_for(&s->unit, maxabs, &sc);
    /* cell texts and sizes */
    char **txt = pb_xcalloc(nx * ns + 1, sizeof(*txt));
    char **setxt = pb_xcalloc(nx * ns + 1, sizeof(*setxt));
    double cw = heat_texts(f, s, &sc, txt, setxt);
    for (size_t i = 0; i < nx; i++) {
        double w = rc_text_width(f, s->xvals[i], F_LABEL, 1) + 12;
        if (w > cw)
            cw = w < 130 ? w : 130;
    }
    double rw = rc_text_width(f, s->sname ? s->sname : "", F_LABEL, 1) + 14;
    for (size_t i = 0; i < ns; i++) {
        if (s->sgaps && s->sgaps[i])
            continue;
        double w = rc_text_width(f, s->svals[i], F_LABEL, 0) + 14;
        if (w > rw)
            rw = w;
    }
    /* marked rows of a reduced heatmap: "cfg-0047 (worst, rank 9,996 of
     * 10,000)" */
    double rwmax = s->sgaps ? 340 : 240;
    if (rw > rwmax)
        rw = rwmax;
    if (rw < 60)
        rw = 60;
    double ch = any_se ? 38 : 28;

    /* the legend line decides the minimum width */
    char left[96], right[96], bestlbl[64];
    const char *grp = s->norm == RC_NORM_ROW   ? " of its row"
                      : s->norm == RC_NORM_COL ? " of its column"
                                               : "";
    snprintf(left, sizeof(left), "colour: value as %% of the best%s   0%%",
             grp);
    snprintf(right, sizeof(right), "100%%");
    snprintf(bestlbl, sizeof(bestlbl), "best%s", grp);
    double legw = rc_text_width(f, left, F_TICK, 0) + 8 + 18 * 8 + 8 +
                  rc_text_width(f, right, F_TICK, 0) + 14 + 24 +
                  rc_text_width(f, bestlbl, F_TICK, 0);
    double W = PAD + rw + cw * (double)nx + PAD;
    if (W < PAD + legw + PAD)
        W = PAD + legw + PAD;
    if (W < 480)
        W = 480;
    struct pb_chart *c = rc_chart_new(ceil(W), 100);
    W = c->w;
    c->title = pb_arena_strdup(&c->arena, s->title);
    rc_rect(c, 0, 0, W, 0, 0xffffff, RC_NONE, 0);
    size_t bg = c->n - 1;
    /* the best each cell compares with: of the drawn grid, or of all rows
     * (s->bestv) when some are left out */
    double *bv = heat_bests(s);
    char sub[600];
    snprintf(sub, sizeof(sub), "%s%svalues in %s",
             s->subtitle ? s->subtitle : "",
             s->subtitle && *s->subtitle ? " · " : "",
             sc.name[0] ? sc.name : "units");
    double y = heading(f, c, W, s->title, sub, 0) + 12;
    double gx = PAD + rw;
    /* x name over the columns, series name over the row headers */
    y += 14;
    rc_text(c, gx + cw * (double)nx / 2, y, s->xname ? s->xname : "", F_LABEL,
            1, RC_MIDDLE, C_TEXT);
    y += 20;
    for (size_t i = 0; i < nx; i++) {
        const char *lines[1];
        int el;
        rc_wrap(f, &c->arena, s->xvals[i], F_LABEL, 1, cw - 6, 1, lines, &el);
        struct pb_item *it = rc_text(c, gx + cw * ((double)i + 0.5), y,
                                     lines[0], F_LABEL, 1, RC_MIDDLE, C_TEXT);
        if (el)
            it->title = pb_arena_strdup(&c->arena, s->xvals[i]);
    }
    rc_text(c, PAD, y, s->sname ? s->sname : "", F_LABEL, 1, RC_START, C_TEXT);
    y += 8;
    for (size_t si = 0; si < ns; si++) {
        double ry = y + ch * (double)si;
        if (heat_row_label(f, c, s, si, ry, ch, rw, W))
            continue; /* rows left out: one line of text */
        for (size_t xi = 0; xi < nx; xi++) {
            size_t k = si * nx + xi;
            double cx = gx + cw * (double)xi;
            heat_cell(c, s, k, cx, ry, cw, ch, txt[k], setxt[k], bv[k]);
        }
    }
    /* outlines last, so neighbours do not paint over them */
    for (size_t k = 0; k < nx * ns; k++)
        if (s->v[k] == bv[k])
            rc_rect(c, gx + cw * (double)(k % nx) + 1.5,
                    y + ch * (double)(k / nx) + 1.5, cw - 3, ch - 3, RC_NONE,
                    0xf2a900, 3);
    y += ch * (double)ns + 24;
    /* colour legend */
    heat_legend(f, c, y, left, right, bestlbl);
    for (size_t i = 0; i < nx * ns; i++) {
        free(txt[i]);
        free(setxt[i]);
    }
    free(txt);
    free(setxt);
    free(bv);
    return finish(c, bg, y);
}
