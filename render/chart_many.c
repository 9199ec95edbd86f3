/* The bar chart of a test and metric with more configurations than fit
 * (RP_MANY_LIMIT): the best RP_MANY_BEST, the baseline and the worst
 * RP_MANY_WORST as bars, marked as such, and under them a strip of dots for
 * every configuration (a band, one polygon, when there are more than
 * RP_MANY_DOTS) over a box plot of all values. The table under the chart
 * and its CSV keep every configuration (report.c). */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W        860.0
#define PAD      16.0
#define F_HEAD   12.5
#define F_TICK   11.0
#define C_TEXT   0x1a1a1a
#define C_MUTED  0x5a5a5a
#define C_GRID   0xe4e4e4
#define C_AXIS   0x8a8a8a
#define C_DOT    0xa8a8a8 /* a configuration not drawn as a bar */
#define C_BASE   0xc27c00 /* the baseline */
#define DOT      4.0
#define BAND     56.0 /* height of the dot band */

size_t rp_many_baseline(const struct rp_data *d, const struct rp_group *g,
                        const size_t *order)
{
    size_t best = SIZE_MAX;
    long long id = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        if (!c->has_value)
            continue;
        long long cid = d->configs[c->config].id;
        if (best == SIZE_MAX || cid < id) {
            best = i;
            id = cid;
        }
    }
    return best;
}

/* Number of the valued cells at the front of order. */
static size_t nvalued(const struct rp_data *d, const struct rp_group *g,
                      const size_t *order)
{
    size_t nv = 0;
    while (nv < g->n && d->cells[order[nv]].has_value)
        nv++;
    return nv;
}

static void fill_bar(const struct rp_data *d, const struct rp_cell *c,
                     struct rc_bar *b, const char *label, double bestv,
                     size_t nv)
{
    const struct rp_config *cf = &d->configs[c->config];
    b->label = label ? label : cf->label;
    b->color = cf->color;
    b->has_value = 1;
    b->v = c->mean;
    b->se = c->se;
    b->best = c->mean == bestv && nv > 1;
}

const char *rp_many_label(struct pb_arena *a, const char *label,
                          const struct rp_pick *p, size_t n)
{
    if (!p->mark)
        return label;
    char r[32], m[32], buf[512];
    rp_int((long long)p->i + 1, r, sizeof(r));
    rp_int((long long)n, m, sizeof(m));
    snprintf(buf, sizeof(buf), "%s (%s, rank %s of %s)", label,
             p->mark == RP_PICK_BASE ? "baseline" : "worst", r, m);
    return pb_arena_strdup(a, buf);
}

size_t rp_many_pick(size_t nv, size_t base, struct rp_pick *out,
                    struct rp_pick_sum *sum)
{
    size_t nbest = nv < RP_MANY_BEST ? nv : RP_MANY_BEST;
    size_t nworst = nv - nbest < RP_MANY_WORST ? nv - nbest : RP_MANY_WORST;
    int apart = base != SIZE_MAX && base >= nbest && base < nv - nworst;
    size_t n = 0;
    struct rp_pick gap = {SIZE_MAX, 0, 0, 0};
    for (size_t i = 0; i < nbest; i++)
        out[n++] = (struct rp_pick){i, 0, 0, i == base ? RP_PICK_BASE : 0};
    size_t next = nbest + 1; /* the first rank not drawn yet */
    if (apart) {
        if (base > nbest) {
            gap.from = next;
            gap.to = base;
            out[n++] = gap;
        }
        out[n++] = (struct rp_pick){base, 0, 0, RP_PICK_BASE};
        next = base + 2;
    }
    if (nworst && next <= nv - nworst) {
        gap.from = next;
        gap.to = nv - nworst;
        out[n++] = gap;
    }
    for (size_t i = nv - nworst; i < nv; i++)
        out[n++] = (struct rp_pick){
            i, 0, 0, i == base ? RP_PICK_BASE : RP_PICK_WORST};
    if (sum)
        *sum = (struct rp_pick_sum){nbest + nworst + (apart ? 1 : 0), nbest,
                                    nworst, apart};
    return n;
}

static void gap_bar(struct pb_arena *a, struct rc_bar *b, size_t from,
                    size_t to)
{
    char buf[160];
    snprintf(buf, sizeof(buf),
             "%zu configurations not drawn (ranks %zu–%zu): in the strip "
             "below and the table",
             to - from + 1, from, to);
    b->label = "…";
    b->has_value = 0;
    b->note = pb_arena_strdup(a, buf);
}

/* Value of quantile q (0..1) of the nv sorted values in order (best
 * first: the direction does not matter for quantiles of the set). */
static double quantile(const struct rp_data *d, const size_t *order,
                       size_t nv, double q)
{
    double pos = q * (double)(nv - 1);
    size_t i = (size_t)pos;
    double fr = pos - (double)i;
    double a = d->cells[order[i]].mean;
    if (i + 1 >= nv)
        return a;
    double b = d->cells[order[i + 1]].mean;
    return a + (b - a) * fr;
}

/* The dense strip's band: one grey polygon over the columns, each as high
 * as its count[b] dots stacked step apart would be. */
static void band(struct pb_chart *c, const size_t *count, size_t nbins,
                 double x0, double bottom, double step)
{
    double *xy = pb_xcalloc(4 * nbins + 4, sizeof(double));
    size_t m = 0;
    xy[2 * m] = x0;
    xy[2 * m++ + 1] = bottom;
    for (size_t b = 0; b < nbins; b++) {
        double h = count[b] ? DOT + (double)(count[b] - 1) * step : 0;
        double xl = x0 + (double)b * (DOT + 1);
        xy[2 * m] = xl;
        xy[2 * m++ + 1] = bottom - h;
        xy[2 * m] = xl + DOT + 1;
        xy[2 * m++ + 1] = bottom - h;
    }
    xy[2 * m] = x0 + (double)nbins * (DOT + 1);
    xy[2 * m++ + 1] = bottom;
    rc_poly(c, xy, m, C_DOT, RC_NONE, 0);
    free(xy);
}

/* The strip's x scale: a value v (canonical units) at
 * x0 + (v / div - lo) / span * (x1 - x0). */
struct sx {
    double x0, x1, div, lo, span;
};

static double sx_of(const struct sx *s, double v)
{
    return s->x0 + ((v / s->div) - s->lo) / s->span * (s->x1 - s->x0);
}

/* The box plot of the values of order[0..nv) at y = by: quartiles and
 * median, whiskers from min to max. */
static void box_plot(struct pb_chart *c, const struct rp_data *d,
                     const size_t *order, size_t nv, const struct sx *sx,
                     double by)
{
    double q0 = quantile(d, order, nv, 0), q4 = quantile(d, order, nv, 1);
    double q1 = quantile(d, order, nv, 0.25), q3 = quantile(d, order, nv, 0.75);
    double q2 = quantile(d, order, nv, 0.5);
    if (isfinite(q0) && isfinite(q4)) {
        double a = sx_of(sx, q0 < q4 ? q0 : q4);
        double b = sx_of(sx, q0 < q4 ? q4 : q0);
        double ba = sx_of(sx, q1 < q3 ? q1 : q3);
        double bb = sx_of(sx, q1 < q3 ? q3 : q1);
        rc_line(c, a, by, ba, by, C_MUTED, 1.2);
        rc_line(c, bb, by, b, by, C_MUTED, 1.2);
        rc_line(c, a, by - 4, a, by + 4, C_MUTED, 1.2);
        rc_line(c, b, by - 4, b, by + 4, C_MUTED, 1.2);
        rc_rect(c, ba, by - 6, bb - ba < 1 ? 1 : bb - ba, 12, RC_NONE, C_MUTED,
                1.2);
        rc_line(c, sx_of(sx, q2), by - 6, sx_of(sx, q2), by + 6, C_TEXT, 2);
    }
}

/* The strip's axis at y = ay: a line and the ticks t of scale sc. */
static void strip_axis(struct pb_chart *c, const struct sx *sx,
                       const struct rp_scale *sc, const struct rp_ticks *t,
                       double ay)
{
    rc_line(c, sx->x0, ay, sx->x1, ay, C_AXIS, 1);
    for (int i = 0; i < t->n; i++) {
        double v = (t->lo + i * t->step) * sc->div;
        char tb[64];
        rp_fmt_scaled(v, sc, t->decimals, tb, sizeof(tb));
        rc_line(c, sx_of(sx, v), ay, sx_of(sx, v), ay + 4, C_AXIS, 1);
        rc_text(c, sx_of(sx, v), ay + 16, tb, F_TICK, 0, RC_MIDDLE, C_MUTED);
    }
}

/* The strip under the bars, from y on; returns the y below it. */
static double strip(struct rc_fonts *f, struct pb_chart *c,
                    const struct rp_data *d, const struct rp_group *g,
                    const size_t *order, size_t nv, size_t nbest,
                    size_t nworst, size_t base, double y)
{
    const struct rp_metric *m = &d->metrics[g->metric];
    /* dense: more than RP_MANY_DOTS values draw one band (a histogram of
     * every value, one polygon) instead of a dot each */
    int dense = nv > RP_MANY_DOTS;
    size_t ndots = nv;
    char buf[256], nb[32];
    rp_int((long long)nv, nb, sizeof(nb));
    if (!dense)
        snprintf(buf, sizeof(buf),
                 "All %s configurations with a value: one dot each", nb);
    else
        snprintf(buf, sizeof(buf),
                 "All %s configurations with a value: a band, its height "
                 "the number in each 5 px column",
                 nb);
    y += 22;
    rc_text(c, PAD, y, buf, F_HEAD, 1, RC_START, C_TEXT);
    y += 16;
    rc_text(c, PAD, y,
            dense ? "grey: all · dark: drawn as bars above · orange: the "
                    "baseline · box: quartiles and median, whiskers: min to "
                    "max"
                  : "dark: drawn as bars above · orange: the baseline · box: "
                    "quartiles and median, whiskers: min to max",
            F_TICK, 0, RC_START, C_MUTED);

    double lo = INFINITY, hi = -INFINITY, maxabs = 0;
    for (size_t i = 0; i < nv; i++) {
        double v = d->cells[order[i]].mean;
        if (!isfinite(v))
            continue;
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
        if (fabs(v) > maxabs)
            maxabs = fabs(v);
    }
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    double x0 = PAD + 8, x1 = W - PAD - 8;
    struct rp_scale sc;
    rp_scale_for(&m->u, maxabs, &sc);
    struct rp_ticks t;
    double tlo = lo, thi = hi;
    if (thi <= tlo) {
        double e = fabs(tlo) > 0 ? fabs(tlo) * 0.05 : 1;
        tlo -= e;
        thi += e;
    }
    rc_fit_ticks(f, tlo, thi, &sc, x1 - x0, 14, &t);
    double span = t.hi - t.lo;
    if (!(span > 0))
        span = 1;
    struct sx sx = {x0, x1, sc.div, t.lo, span};
#define XOF(v) sx_of(&sx, (v))

    /* dots: stacked in columns DOT wide, the baseline drawn last */
    double top = y + 14, bottom = top + BAND;
    size_t nbins = (size_t)((x1 - x0) / (DOT + 1)) + 1;
    size_t *count = pb_xcalloc(nbins, sizeof(*count));
    size_t *bin = pb_xcalloc(ndots + 1, sizeof(*bin));
    size_t maxstack = 1;
    for (size_t k = 0; k < ndots; k++) {
        double v = d->cells[order[k]].mean;
        double x = isfinite(v) ? XOF(v) : (v > 0 ? x1 : x0);
        double bx = (x - x0) / (DOT + 1);
        size_t b = bx <= 0 ? 0 : bx >= (double)nbins - 1 ? nbins - 1
                                                          : (size_t)bx;
        bin[k] = b;
        if (++count[b] > maxstack)
            maxstack = count[b];
    }
    double step = (BAND - DOT) / (double)maxstack;
    if (step > DOT + 1)
        step = DOT + 1;
    if (dense)
        band(c, count, nbins, x0, bottom, step);
    memset(count, 0, nbins * sizeof(*count));
    for (size_t k = 0; k < ndots; k++) {
        size_t i = k;
        int shown = i < nbest || i >= nv - nworst || i == base;
        double x = x0 + (double)bin[k] * (DOT + 1);
        double yy = bottom - DOT - (double)count[bin[k]]++ * step;
        if (shown || !dense)
            rc_rect(c, x, yy, DOT, DOT,
                    i == base ? C_BASE : shown ? C_TEXT : C_DOT, RC_NONE, 0);
    }
    free(bin);
    free(count);

    /* baseline mark */
    if (base != SIZE_MAX && isfinite(d->cells[order[base]].mean)) {
        double bx = XOF(d->cells[order[base]].mean);
        rc_line(c, bx, top - 2, bx, bottom + 18, C_BASE, 1.2);
    }

    /* box plot of all values */
    double by = bottom + 9;
    box_plot(c, d, order, nv, &sx, by);

    /* axis */
    double ay = by + 12;
    strip_axis(c, &sx, &sc, &t, ay);
#undef XOF
    y = ay + 33;
    snprintf(buf, sizeof(buf), "%s%s%s", sc.name, sc.name[0] ? "   " : "",
             m->dir < 0 ? "← lower is better" : "higher is better →");
    rc_text(c, (x0 + x1) / 2, y, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    return y;
}

struct pb_chart *rp_many_chart(struct rc_fonts *f, const struct rp_data *d,
                               const struct rp_group *g, const size_t *order,
                               const char *title, size_t *shown)
{
    const struct rp_metric *m = &d->metrics[g->metric];
    size_t nv = nvalued(d, g, order);
    size_t base = rp_many_baseline(d, g, order);
    struct rp_pick pick[RP_MANY_PICKS];
    struct rp_pick_sum sum;
    size_t np = rp_many_pick(nv, base, pick, &sum);
    size_t drawn = sum.drawn, nbest = sum.nbest, nworst = sum.nworst;
    int base_apart = sum.base_apart;
    struct rc_bar *bars = pb_xcalloc(np + 1, sizeof(*bars));
    struct pb_arena a;
    pb_arena_init(&a);
    double bestv = nv ? d->cells[order[0]].mean : NAN;
    int any_se = 0;
    size_t n = 0;
    for (size_t k = 0; k < np; k++) {
        if (pick[k].i == SIZE_MAX) {
            gap_bar(&a, &bars[n++], pick[k].from, pick[k].to);
            continue;
        }
        const struct rp_cell *c = &d->cells[order[pick[k].i]];
        fill_bar(d, c, &bars[n++],
                 rp_many_label(&a, d->configs[c->config].label, &pick[k], nv),
                 bestv, nv);
        if (c->se > 0)
            any_se = 1;
    }
    char sub[400], nb[32], ns[32];
    rp_int((long long)g->n, nb, sizeof(nb));
    rp_int((long long)drawn, ns, sizeof(ns));
    snprintf(sub, sizeof(sub),
             "%s is better%s · ★ best · %s of %s configurations shown: the "
             "best %zu, %sthe worst %zu; all in the table below",
             m->dir < 0 ? "lower" : "higher",
             any_se ? " · whiskers: ± standard error" : "", ns, nb, nbest,
             base_apart ? "the baseline, " : "", nworst);
    struct rc_barspec s = {0};
    s.title = title;
    s.subtitle = sub;
    s.unit = m->u;
    s.dir = m->dir;
    s.bars = bars;
    s.n = n;
    struct pb_chart *c = rc_bars(f, &s);
    free(bars);
    pb_arena_release(&a);
    if (nv) {
        double y = strip(f, c, d, g, order, nv, nbest, nworst, base,
                         c->h - PAD);
        c->h = ceil(y + PAD);
        if (c->n && c->items[0].kind == PB_IT_RECT)
            c->items[0].h = c->h; /* the background */
    }
    if (shown)
        *shown = drawn;
    return c;
}

void rp_many_table(struct rp_out *o, const struct rp_data *d,
                   const size_t *groups, size_t ng, size_t *order)
{
    if (!ng)
        return;
    /* rows: configurations in the order of the first group, then those
     * only the others have */
    size_t *row_of = pb_xcalloc(d->nconfigs + 1, sizeof(*row_of));
    size_t *rows = pb_xcalloc(d->nconfigs + 1, sizeof(*rows));
    size_t **cell = pb_xcalloc(ng, sizeof(*cell));
    for (size_t i = 0; i < d->nconfigs; i++)
        row_of[i] = SIZE_MAX;
    size_t nrows = 0;
    for (size_t k = 0; k < ng; k++) {
        const struct rp_group *g = &d->groups[groups[k]];
        rp_order_cells(d, g, order);
        for (size_t i = 0; i < g->n; i++) {
            size_t cf = d->cells[order[i]].config;
            if (row_of[cf] == SIZE_MAX) {
                row_of[cf] = nrows;
                rows[nrows++] = cf;
            }
        }
    }
    double *best = pb_xcalloc(ng, sizeof(*best));
    for (size_t k = 0; k < ng; k++) {
        const struct rp_group *g = &d->groups[groups[k]];
        cell[k] = pb_xcalloc(nrows + 1, sizeof(**cell));
        for (size_t r = 0; r < nrows; r++)
            cell[k][r] = SIZE_MAX;
        best[k] = NAN;
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct rp_cell *c = &d->cells[i];
            cell[k][row_of[c->config]] = i;
            if (c->has_value &&
                (isnan(best[k]) || (d->metrics[g->metric].dir < 0
                                        ? c->mean < best[k]
                                        : c->mean > best[k])))
                best[k] = c->mean;
        }
    }

    struct rt_table t;
    rt_init(&t, 2 + ng);
    t.sortable = 1;
    t.fold = 1;
    t.caption = rt_str(&t, "All %zu configurations of this test", nrows);
    rt_header(&t, 0, "#", RT_RIGHT);
    rt_header(&t, 1, "Configuration", RT_LEFT);
    for (size_t k = 0; k < ng; k++) {
        const struct rp_metric *m = &d->metrics[d->groups[groups[k]].metric];
        char mt[96];
        rp_metric_title(m->name, mt, sizeof(mt));
        if (!strcmp(m->name, "value") && m->unit && m->unit[0])
            rt_header(&t, 2 + k, rt_str(&t, "%s (%s)", mt, m->unit),
                      RT_RIGHT);
        else
            rt_header(&t, 2 + k, mt, RT_RIGHT);
    }
    for (size_t r = 0; r < nrows; r++) {
        struct rt_cell *row = rt_row(&t);
        char buf[96];
        rt_setv(&t, &row[0], rp_int((long long)r + 1, buf, sizeof(buf)),
                (double)r + 1);
        const struct rp_config *cf = &d->configs[rows[r]];
        rt_setv(&t, &row[1], cf->label, (double)cf->rank);
        for (size_t k = 0; k < ng; k++) {
            if (cell[k][r] == SIZE_MAX)
                continue;
            const struct rp_cell *c = &d->cells[cell[k][r]];
            const struct rp_metric *m = &d->metrics[c->metric];
            if (!c->has_value) {
                rt_set(&t, &row[2 + k], "n/a");
                row[2 + k].style = RT_MUTED;
                continue;
            }
            rt_setv(&t, &row[2 + k],
                    rp_fmt_pm(&m->u, c->mean, c->se, buf, sizeof(buf)),
                    c->mean);
            if (c->mean == best[k])
                row[2 + k].style = RT_BOLD;
        }
    }
    /* complete on pages of their own, its ends here (table_pages.c) */
    const struct rp_test *ts = &d->tests[d->groups[groups[0]].test];
    char stem[40];
    snprintf(stem, sizeof(stem), "t%zu-all", ts->rank + 1);
    char *what = pb_xasprintf("%s: all %zu configurations", ts->name, nrows);
    rp_out_table_ends(o, &t, stem, what);
    free(what);
    for (size_t k = 0; k < ng; k++)
        free(cell[k]);
    free(cell);
    free(best);
    free(rows);
    free(row_of);
}
