/* An x-y line chart: IOPS (x) against completion latency (y), one line per
 * configuration through one point per iodepth or numjobs, as fio-plot
 * draws it. Point labels that would touch another label are left out (the
 * table under the chart has every point). With categories on x and ±
 * whiskers it is the History trend (history.c): a point per run. */
#include "render/rp_base.h"
#include "render/rp_chart.h"

#include <math.h>
#include <stdio.h>
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

struct box {
    double x0, y0, x1, y1;
};

static int touches(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 + 2 && b->x0 < a->x1 + 2 && a->y0 < b->y1 + 1 &&
           b->y0 < a->y1 + 1;
}

static void range(const struct rc_xyspec *s, int y, double *lo, double *hi)
{
    *lo = 0;
    *hi = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t k = 0; k < s->lines[i].n; k++) {
            double v = y ? s->lines[i].y[k] : s->lines[i].x[k];
            if (y && s->lines[i].yerr && s->lines[i].yerr[k] > 0)
                v += s->lines[i].yerr[k];
            if (isfinite(v) && v > *hi)
                *hi = v;
        }
    if (*hi <= *lo)
        *hi = *lo + 1;
}

/* The plot's scales: x of v at x0 + (v / xdiv - xfrom) / xspan * (x1 -
 * x0), y at y0 - (v / ydiv - ylo) / yspan * (y0 - y1). */
struct xymap {
    double x0, x1, y0, y1;
    double xdiv, xfrom, xspan, ydiv, ylo, yspan;
};

static double map_x(const struct xymap *m, double v)
{
    return m->x0 + ((v / m->xdiv) - m->xfrom) / m->xspan * (m->x1 - m->x0);
}

static double map_y(const struct xymap *m, double v)
{
    return m->y0 - ((v / m->ydiv) - m->ylo) / m->yspan * (m->y0 - m->y1);
}

/* Every line, its whiskers and its points. */
static void draw_lines(struct pb_chart *c, const struct rc_xyspec *s,
                       const struct xymap *mp)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_xyline *l = &s->lines[i];
        for (size_t k = 1; k < l->n; k++)
            rc_line(c, map_x(mp, l->x[k - 1]), map_y(mp, l->y[k - 1]),
                    map_x(mp, l->x[k]), map_y(mp, l->y[k]), l->color, 2);
        for (size_t k = 0; l->yerr && k < l->n; k++) {
            double e = l->yerr[k];
            if (!(e > 0) || !isfinite(e))
                continue;
            double x = map_x(mp, l->x[k]), lo = l->y[k] - e;
            double ya = map_y(mp, lo < 0 ? 0 : lo);
            double yb = map_y(mp, l->y[k] + e);
            rc_line(c, x, ya, x, yb, l->color, 1.2);
            rc_line(c, x - 4, ya, x + 4, ya, l->color, 1.2);
            rc_line(c, x - 4, yb, x + 4, yb, l->color, 1.2);
        }
        for (size_t k = 0; k < l->n; k++)
            rc_rect(c, map_x(mp, l->x[k]) - 3.5, map_y(mp, l->y[k]) - 3.5, 7, 7,
                    l->color, 0xffffff, 1);
    }
}

/* The points' labels ("qd4") that fit: none over another or above the
 * plot's top. */
static void point_labels(struct rc_fonts *f, struct pb_chart *c,
                         const struct rc_xyspec *s, const struct xymap *mp,
                         double top)
{
    size_t nbox = 0, cap = 0;
    struct box *boxes = NULL;
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_xyline *l = &s->lines[i];
        for (size_t k = 0; l->pt && k < l->n; k++) {
            double w = rc_text_width(f, l->pt[k], F_TICK, 0);
            double px = map_x(mp, l->x[k]) + 6, py = map_y(mp, l->y[k]) - 6;
            if (px + w > W - PAD)
                px = map_x(mp, l->x[k]) - 6 - w;
            struct box b = {px, py - 10, px + w, py + 2};
            int ok = b.y0 > top - 12;
            for (size_t j = 0; ok && j < nbox; j++)
                ok = !touches(&b, &boxes[j]);
            if (!ok)
                continue;
            PB_GROW(boxes, cap, nbox + 1);
            boxes[nbox++] = b;
            rc_text(c, px, py, l->pt[k], F_TICK, 0, RC_START, C_MUTED);
        }
    }
    free(boxes);
}

struct pb_chart *rc_xy(struct rc_fonts *f, const struct rc_xyspec *s)
{
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, s->title);
    rc_rect(c, 0, 0, W, 0, 0xffffff, RC_NONE, 0); /* height set at the end */
    size_t bg = c->n - 1;
    double top = rc_heading(f, c, W, s->title, s->subtitle) + 34;
    double plot_h = 300;

    double xlo, xhi, ylo, yhi;
    range(s, 0, &xlo, &xhi);
    range(s, 1, &ylo, &yhi);
    struct rp_scale xs, ys;
    rp_scale_for(&s->xunit, xhi, &xs);
    rp_scale_for(&s->yunit, yhi, &ys);
    struct rp_ticks yt;
    rc_fit_ticks(f, ylo, yhi * 1.05, &ys, plot_h, 8, &yt);
    /* the y tick labels set the left edge */
    double yw = 0;
    char buf[96];
    for (int i = 0; i < yt.n; i++) {
        rp_fmt_scaled((yt.lo + i * yt.step) * ys.div, &ys, yt.decimals, buf,
                      sizeof(buf));
        double w = rc_text_width(f, buf, F_TICK, 0);
        if (w > yw)
            yw = w;
    }
    double x0 = PAD + yw + 8, x1 = W - PAD - 30;
    struct rp_ticks xt;
    rc_fit_ticks(f, xlo, xhi * 1.05, &xs, x1 - x0, 14, &xt);
    double y0 = top + plot_h, y1 = top;
    double xspan = xt.hi - xt.lo, yspan = yt.hi - yt.lo, xfrom = xt.lo;
    if (s->xcats) { /* categories 1 .. nxcats, centred in equal slots */
        xs.div = 1;
        xfrom = 0.5;
        xspan = s->nxcats ? (double)s->nxcats : 1;
    }
    struct xymap mp = {x0,    x1,    y0,     y1,    xs.div,
                       xfrom, xspan, ys.div, yt.lo, yspan};
#define XOF(v) map_x(&mp, (v))
#define YOF(v) map_y(&mp, (v))

    for (int i = 0; i < yt.n; i++) {
        double v = (yt.lo + i * yt.step) * ys.div, y = YOF(v);
        rc_line(c, x0, y, x1, y, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        rp_fmt_scaled(v, &ys, yt.decimals, buf, sizeof(buf));
        rc_text(c, x0 - 6, y + 4, buf, F_TICK, 0, RC_END, C_MUTED);
    }
    if (s->xcats) {
        /* every category a grid line; labels as many as fit */
        double slot = (x1 - x0) / xspan, lw = 0;
        for (size_t i = 0; i < s->nxcats; i++) {
            double w = rc_text_width(f, s->xcats[i], F_TICK, 0);
            lw = w > lw ? w : lw;
        }
        size_t every = (size_t)ceil((lw + 10) / (slot > 1 ? slot : 1));
        every = every ? every : 1;
        rc_line(c, x0, y0, x0, y1, C_AXIS, 1.2);
        for (size_t i = 0; i < s->nxcats; i++) {
            double x = XOF((double)i + 1);
            rc_line(c, x, y0, x, y1, C_GRID, 1);
            if (i % every == 0) {
                struct pb_item *it = rc_text(c, x, y0 + 15, s->xcats[i],
                                             F_TICK, 0, RC_MIDDLE, C_MUTED);
                it->title = pb_arena_strdup(&c->arena, s->xcats[i]);
            }
        }
    }
    for (int i = 0; !s->xcats && i < xt.n; i++) {
        double v = (xt.lo + i * xt.step) * xs.div, x = XOF(v);
        rc_line(c, x, y0, x, y1, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        rp_fmt_scaled(v, &xs, xt.decimals, buf, sizeof(buf));
        rc_text(c, x, y0 + 15, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    }
    /* lines, then points, then the labels that fit */
    draw_lines(c, s, &mp);
    point_labels(f, c, s, &mp, top);
    double y = y0 + 32;
    if (s->xcats)
        snprintf(buf, sizeof(buf), "%s →", s->xname);
    else if (strstr(s->xname, xs.name)) /* "read IOPS", not "(IOPS)" */
        snprintf(buf, sizeof(buf), "%s →", s->xname);
    else
        snprintf(buf, sizeof(buf), "%s (%s) →", s->xname, xs.name);
    rc_text(c, (x0 + x1) / 2, y, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    snprintf(buf, sizeof(buf), "↑ %s (%s)", s->yname, ys.name);
    rc_text(c, PAD, top - 12, buf, F_TICK, 0, RC_START, C_MUTED);
    /* legend: one line per configuration */
    y += 10;
    for (size_t i = 0; i < s->n; i++) {
        y += 20;
        rc_legend_entry(f, c, PAD, y, W - 2 * PAD - 20, s->lines[i].label,
                        s->lines[i].color, F_LABEL, C_TEXT);
    }
#undef XOF
#undef YOF
    c->h = ceil(y + PAD);
    c->items[bg].h = c->h;
    return c;
}
