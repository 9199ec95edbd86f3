/* Latency distribution charts from fio json+ bins: the CDF (log latency
 * axis; y as "nines" or as a linear percentage) and the histogram (10
 * log-spaced bars a decade), one line per configuration, and the
 * percentile ladder (p50 … p99.99 on the same log latency axis). Layout
 * only, like chart_xy.c. */
#include "render/rp_base.h"
#include "render/rp_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W       860.0
#define PAD     16.0
#define PLOT_H  300.0
#define F_TICK  11.0
#define F_LABEL 12.5
#define C_TEXT  0x1a1a1a
#define C_MUTED 0x5a5a5a
#define C_GRID  0xe4e4e4
#define C_MINOR 0xf1f1f1
#define C_AXIS  0x8a8a8a
#define MAX_NINES 7
#define PER_DECADE 10

/* "1 ns", "10 µs", "100 ms", "1 s", "10 s", ... for 10^k ns. */
const char *rc_lat_decade(int k, char *buf, size_t n)
{
    static const char *const unit[] = {"ns", "µs", "ms", "s"};
    int u = k / 3 > 3 ? 3 : (k < 0 ? 0 : k / 3);
    double v = pow(10, k - 3 * u);
    snprintf(buf, n, "%.0f %s", v, unit[u]);
    return buf;
}

/* Decades covering every bin of the lines: [10^*dlo, 10^*dhi] ns. */
static void decades(const struct rc_latspec *s, int *dlo, int *dhi)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_latline *l = &s->lines[i];
        if (!l->n)
            continue;
        double a = l->val[0] < 1 ? 1 : (double)l->val[0];
        double b = l->val[l->n - 1] < 1 ? 1 : (double)l->val[l->n - 1];
        if (a < lo)
            lo = a;
        if (b > hi)
            hi = b;
    }
    if (!(hi > 0)) {
        lo = 1;
        hi = 10;
    }
    *dlo = (int)floor(log10(lo));
    *dhi = (int)ceil(log10(hi) + 1e-12);
    if (*dhi <= *dlo)
        *dhi = *dlo + 1;
}

struct frame {
    double x0, x1, y0, y1; /* plot box: y0 bottom, y1 top */
    int dlo, dhi;
};

static double xof(const struct frame *fr, double v)
{
    double lv = log10(v < 1 ? 1 : v);
    return fr->x0 + (lv - fr->dlo) / (fr->dhi - fr->dlo) * (fr->x1 - fr->x0);
}

/* Background, heading, the log latency axis with its decade grid; sets the
 * frame (y ticks are the caller's). Returns the index of the background
 * rectangle whose height is set at the end. */
static size_t begin_at(struct rc_fonts *f, struct pb_chart *c,
                       const struct rc_latspec *s, double yw, int dlo,
                       int dhi, struct frame *fr)
{
    rc_rect(c, 0, 0, W, 0, 0xffffff, RC_NONE, 0);
    size_t bg = c->n - 1;
    double top = rc_heading(f, c, W, s->title, s->subtitle) + 34;
    fr->dlo = dlo;
    fr->dhi = dhi;
    fr->x0 = PAD + yw + 8;
    fr->x1 = W - PAD - 30;
    fr->y1 = top;
    fr->y0 = top + PLOT_H;
    char buf[32];
    for (int k = fr->dlo; k <= fr->dhi; k++) {
        double x = xof(fr, pow(10, k));
        rc_line(c, x, fr->y0, x, fr->y1, k > fr->dlo ? C_GRID : C_AXIS,
                k > fr->dlo ? 1 : 1.2);
        rc_text(c, x, fr->y0 + 15, rc_lat_decade(k, buf, sizeof(buf)), F_TICK,
                0, RC_MIDDLE, C_MUTED);
        for (int m = 2; m <= 9 && k < fr->dhi; m++) {
            double xm = xof(fr, m * pow(10, k));
            rc_line(c, xm, fr->y0, xm, fr->y1, C_MINOR, 1);
        }
    }
    rc_text(c, (fr->x0 + fr->x1) / 2, fr->y0 + 32,
            "latency (log scale) →", F_TICK, 0, RC_MIDDLE, C_MUTED);
    return bg;
}

/* begin_at over the decades of every bin of the lines. */
static size_t begin(struct rc_fonts *f, struct pb_chart *c,
                    const struct rc_latspec *s, double yw, struct frame *fr)
{
    int dlo, dhi;
    decades(s, &dlo, &dhi);
    return begin_at(f, c, s, yw, dlo, dhi, fr);
}

/* Legend under the plot, one line per configuration; the chart's height. */
static void finish(struct rc_fonts *f, struct pb_chart *c,
                   const struct rc_latspec *s, const struct frame *fr,
                   size_t bg)
{
    double y = fr->y0 + 42;
    for (size_t i = 0; i < s->n; i++) {
        y += 20;
        rc_legend_entry(f, c, PAD, y, W - 2 * PAD - 20, s->lines[i].label,
                        s->lines[i].color, F_LABEL, C_TEXT);
    }
    c->h = ceil(y + PAD);
    c->items[bg].h = c->h;
}

/* ==== CDF ==== */

/* How many nines the y axis shows: enough for the largest sample (with N
 * I/Os the last step is at 1 - 1/N). */
static int nines_of(const struct rc_latspec *s)
{
    uint64_t most = 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->lines[i].total > most)
            most = s->lines[i].total;
    int k = (int)ceil(log10((double)most));
    return k < 1 ? 1 : k > MAX_NINES ? MAX_NINES : k;
}

/* The y value of fraction p (0..1): nines -log10(1 - p), capped at top. */
static double ycdf(double p, int nines, int top)
{
    if (!nines)
        return p * 100;
    if (p >= 1)
        return top;
    double v = -log10(1 - p);
    return v > top ? top : v;
}

const char *rc_lat_nines_label(int k, char *buf, size_t n)
{
    /* 0 -> 0%, 1 -> 90%, 2 -> 99%, 3 -> 99.9% ... */
    if (k <= 0)
        snprintf(buf, n, "0%%");
    else if (k <= 2)
        snprintf(buf, n, "%s%%", k == 1 ? "90" : "99");
    else
        snprintf(buf, n, "99.%.*s%%", k - 2, "9999999999");
    return buf;
}

/* Appends point (x, y) to the m points of xy unless it repeats the last
 * one or the last two and it lie on one horizontal or vertical line, the
 * middle one between the others (it is then replaced). Returns the new count. */
static size_t step_to(double *xy, size_t m, double x, double y)
{
    if (m && xy[2 * m - 2] == x && xy[2 * m - 1] == y)
        return m;
    if (m >= 2) {
        double ax = xy[2 * m - 4], ay = xy[2 * m - 3];
        double bx = xy[2 * m - 2], by = xy[2 * m - 1];
        if ((ax == x && bx == x && (by - ay) * (y - by) >= 0) ||
            (ay == y && by == y && (bx - ax) * (x - bx) >= 0))
            m--;
    }
    xy[2 * m] = x;
    xy[2 * m + 1] = y;
    return m + 1;
}

struct pb_chart *rc_lat_cdf(struct rc_fonts *f, const struct rc_latspec *s)
{
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, s->title);
    int top = s->nines ? nines_of(s) : 100;
    int nt = s->nines ? top + 1 : 6;
    char buf[40];
    double yw = 0;
    for (int i = 0; i < nt; i++) {
        if (s->nines)
            rc_lat_nines_label(i, buf, sizeof(buf));
        else
            snprintf(buf, sizeof(buf), "%d%%", i * 20);
        double w = rc_text_width(f, buf, F_TICK, 0);
        if (w > yw)
            yw = w;
    }
    struct frame fr;
    size_t bg = begin(f, c, s, yw, &fr);
#define YOF(v) (fr.y0 - (v) / (double)top * (fr.y0 - fr.y1))
    for (int i = 0; i < nt; i++) {
        double v = s->nines ? i : i * 20, y = YOF(v);
        rc_line(c, fr.x0, y, fr.x1, y, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        if (s->nines)
            rc_lat_nines_label(i, buf, sizeof(buf));
        else
            snprintf(buf, sizeof(buf), "%d%%", i * 20);
        rc_text(c, fr.x0 - 6, y + 4, buf, F_TICK, 0, RC_END, C_MUTED);
    }
    rc_text(c, PAD, fr.y1 - 12,
            s->nines ? "↑ share of I/Os at most this slow (nines)"
                     : "↑ share of I/Os at most this slow",
            F_TICK, 0, RC_START, C_MUTED);
    /* one polyline per configuration, a step per bin: up at the bin's
     * value, flat to the next one; empty bins and straight runs add no
     * point */
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_latline *l = &s->lines[i];
        double *xy = pb_xmalloc((4 * l->n + 2) * sizeof(*xy));
        size_t m = 0;
        uint64_t cum = 0;
        double py = YOF(0);
        for (size_t k = 0; k < l->n; k++) {
            double x = xof(&fr, (double)l->val[k]);
            cum += l->cnt[k];
            double y = YOF(ycdf((double)cum / (double)l->total, s->nines, top));
            m = step_to(xy, m, x, py);
            m = step_to(xy, m, x, y);
            py = y;
        }
        rc_poly(c, xy, m, RC_NONE, l->color, 2);
        free(xy);
    }
#undef YOF
    finish(f, c, s, &fr, bg);
    return c;
}

/* ==== histogram ==== */

size_t rc_lat_hist_bins(const struct rc_latspec *s, int *dlo)
{
    int dhi;
    decades(s, dlo, &dhi);
    return (size_t)(dhi - *dlo) * PER_DECADE;
}

double rc_lat_hist_edge(int dlo, size_t j)
{
    return pow(10, dlo + (double)j / PER_DECADE);
}

/* The share (%) of line l's I/Os in display bin j of nb from dlo. */
void rc_lat_hist_fill(const struct rc_latline *l, int dlo, size_t nb,
                      double *pct)
{
    for (size_t j = 0; j < nb; j++)
        pct[j] = 0;
    for (size_t k = 0; k < l->n; k++) {
        double v = l->val[k] < 1 ? 1 : (double)l->val[k];
        double pos = (log10(v) - dlo) * PER_DECADE;
        size_t j = pos <= 0 ? 0 : (size_t)floor(pos + 1e-9);
        if (j >= nb)
            j = nb - 1;
        pct[j] += 100.0 * (double)l->cnt[k] / (double)l->total;
    }
}

struct pb_chart *rc_lat_hist(struct rc_fonts *f, const struct rc_latspec *s)
{
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, s->title);
    int dlo;
    size_t nb = rc_lat_hist_bins(s, &dlo);
    double *pct = pb_xcalloc(nb * (s->n + 1) + 1, sizeof(double));
    double vmax = 0;
    for (size_t i = 0; i < s->n; i++) {
        rc_lat_hist_fill(&s->lines[i], dlo, nb, pct + i * nb);
        for (size_t j = 0; j < nb; j++)
            if (pct[i * nb + j] > vmax)
                vmax = pct[i * nb + j];
    }
    struct rp_ticks t;
    rp_ticks(0, vmax > 0 ? vmax : 1, 6, &t);
    char buf[40];
    double yw = 0;
    for (int i = 0; i < t.n; i++) {
        snprintf(buf, sizeof(buf), "%.*f%%", t.decimals, t.lo + i * t.step);
        double w = rc_text_width(f, buf, F_TICK, 0);
        if (w > yw)
            yw = w;
    }
    struct frame fr;
    size_t bg = begin(f, c, s, yw, &fr);
    double span = t.hi - t.lo;
#define YOF(v) (fr.y0 - ((v) - t.lo) / span * (fr.y0 - fr.y1))
    for (int i = 0; i < t.n; i++) {
        double v = t.lo + i * t.step, y = YOF(v);
        rc_line(c, fr.x0, y, fr.x1, y, i ? C_GRID : C_AXIS, i ? 1 : 1.2);
        snprintf(buf, sizeof(buf), "%.*f%%", t.decimals, v);
        rc_text(c, fr.x0 - 6, y + 4, buf, F_TICK, 0, RC_END, C_MUTED);
    }
    rc_text(c, PAD, fr.y1 - 12, "↑ share of I/Os (10 bars a decade)", F_TICK,
            0, RC_START, C_MUTED);
    for (size_t i = 0; i < s->n; i++) {
        const struct rc_latline *l = &s->lines[i];
        const double *p = pct + i * nb;
        double prev = YOF(0);
        for (size_t j = 0; j < nb; j++) {
            double xa = xof(&fr, rc_lat_hist_edge(dlo, j));
            double xb = xof(&fr, rc_lat_hist_edge(dlo, j + 1));
            double y = YOF(p[j]);
            if (s->n == 1 && p[j] > 0)
                rc_rect(c, xa + 0.5, y, xb - xa - 1, fr.y0 - y, l->color,
                        RC_NONE, 0);
            if (s->n > 1) {
                rc_line(c, xa, prev, xa, y, l->color, 1.6);
                rc_line(c, xa, y, xb, y, l->color, 1.6);
            }
            prev = y;
        }
        if (s->n > 1)
            rc_line(c, fr.x1, prev, fr.x1, YOF(0), l->color, 1.6);
    }
#undef YOF
    free(pct);
    finish(f, c, s, &fr, bg);
    return c;
}

/* ==== percentile ladder ==== */

struct pb_chart *rc_lat_ladder(struct rc_fonts *f, const struct rc_ladspec *s)
{
    const struct rc_latspec *ls = &s->lat;
    struct pb_chart *c = rc_chart_new(W, 100);
    c->title = pb_arena_strdup(&c->arena, ls->title);
    /* decades of the drawn values only (not every bin) */
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < ls->n * s->np; i++) {
        double v = s->v[i];
        if (!(v >= 0))
            continue;
        v = v < 1 ? 1 : v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (!(hi > 0))
        lo = 1, hi = 10;
    int dlo = (int)floor(log10(lo)), dhi = (int)ceil(log10(hi) + 1e-12);
    if (dhi <= dlo)
        dhi = dlo + 1;
    double yw = 0;
    for (size_t k = 0; k < s->np; k++) {
        double w = rc_text_width(f, s->pnames[k], F_TICK, 0);
        yw = w > yw ? w : yw;
    }
    struct frame fr;
    size_t bg = begin_at(f, c, ls, yw, dlo, dhi, &fr);
    /* p50 at the bottom, the tail upwards (as the CDF's nines) */
    double step = s->np > 1 ? (fr.y0 - fr.y1 - 20) / (double)(s->np - 1) : 0;
#define YOF(k) (fr.y0 - 10 - (double)(k) * step)
    for (size_t k = 0; k < s->np; k++) {
        double y = YOF(k);
        rc_line(c, fr.x0, y, fr.x1, y, C_GRID, 1);
        rc_text(c, fr.x0 - 6, y + 4, s->pnames[k], F_TICK, 0, RC_END,
                C_MUTED);
    }
    rc_line(c, fr.x0, fr.y0, fr.x1, fr.y0, C_AXIS, 1.2);
    rc_text(c, PAD, fr.y1 - 12, "↑ percentile (the slower tail upwards)",
            F_TICK, 0, RC_START, C_MUTED);
    double *xy = pb_xcalloc(2 * s->np + 2, sizeof(double));
    char buf[64];
    struct rp_unit u = {RP_U_NS, NULL};
    for (size_t i = 0; i < ls->n; i++) {
        const double *v = s->v + i * s->np;
        size_t m = 0;
        for (size_t k = 0; k < s->np; k++) {
            if (!(v[k] >= 0))
                continue;
            xy[2 * m] = xof(&fr, v[k]);
            xy[2 * m + 1] = YOF(k);
            m++;
        }
        if (m > 1)
            rc_poly(c, xy, m, RC_NONE, ls->lines[i].color, 2);
        for (size_t k = 0; k < s->np; k++) {
            if (!(v[k] >= 0))
                continue;
            double x = xof(&fr, v[k]), y = YOF(k);
            rc_rect(c, x - 3.5, y - 3.5, 7, 7, ls->lines[i].color, 0xffffff,
                    1);
            /* one configuration: its values beside the points */
            if (ls->n == 1) {
                const char *t = rp_fmt(&u, v[k], buf, sizeof(buf));
                /* left of the point (the line comes from below left) */
                int right = x - 8 - rc_text_width(f, t, F_TICK, 0) < fr.x0;
                rc_text(c, right ? x + 8 : x - 8, y + 4, t, F_TICK, 0,
                        right ? RC_START : RC_END, C_TEXT);
            }
        }
    }
#undef YOF
    free(xy);
    finish(f, c, ls, &fr, bg);
    return c;
}
