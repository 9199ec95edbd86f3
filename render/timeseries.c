/* The "Over time" section: the time series of fio logs, one chart per test
 * and series (read_bw, write_clat, ...), one line per configuration (or
 * per job with report --per-job). Lines of several jobs or repeats are
 * summed (bandwidth, IOPS) or averaged (latency) per time step. A line
 * of more than 2,000 points is drawn as 2,000 means with a min/max band,
 * so no spike is lost; the exact points are a CSV file next to the chart
 * (docs/report.md, "Over time"). */
#include "analysis/analysis.h"
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"

#include <math.h>
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

struct tp {
    long long sid; /* series id */
    long long t;
    double v, n;
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
    long width; /* largest width_ms of its series */
};

struct ts {
    struct rp_out *o;
    const struct rp_data *d;
    struct tchart c;
    int open;
    size_t ncharts, skipped;
    int per_job;
};

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

static size_t merge_line(struct tline *l, long width, int rate, double *t,
                         double *v)
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
            v[i] = l->p[i].v;
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
            ssum += l->p[j].v;
            sn++;
            double wt = l->p[j].n > 0 ? l->p[j].n : 1;
            acc += l->p[j].v * wt;
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

static void draw(struct ts *s)
{
    struct tchart *c = &s->c;
    const struct rp_data *d = s->d;
    int rate = is_rate(c->unit);
    struct rp_unit yu, xu = {RP_U_NS, NULL};
    rp_unit_of(c->series, c->unit, &yu);
    struct pb_chart *ch = rc_chart_new(W, 100);
    char title[400], sub[300];
    snprintf(title, sizeof(title), "%s: %s over time", c->test, c->series);
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
    double **lt = pb_xcalloc(c->n + 1, sizeof(*lt));
    double **lv = pb_xcalloc(c->n + 1, sizeof(*lv));
    size_t *ln = pb_xcalloc(c->n + 1, sizeof(*ln));
    double tmax = 0, vmax = 0, vmin = 0;
    for (size_t i = 0; i < c->n; i++) {
        lt[i] = pb_xmalloc((c->l[i].n + 1) * sizeof(double));
        lv[i] = pb_xmalloc((c->l[i].n + 1) * sizeof(double));
        ln[i] = merge_line(&c->l[i], c->width, rate, lt[i], lv[i]);
        for (size_t k = 0; k < ln[i]; k++) {
            if (lt[i][k] > tmax)
                tmax = lt[i][k];
            if (isfinite(lv[i][k]) && lv[i][k] > vmax)
                vmax = lv[i][k];
            if (isfinite(lv[i][k]) && lv[i][k] < vmin)
                vmin = lv[i][k];
        }
    }
    struct rc_fonts *f = rp_out_fonts(s->o);
    struct rp_scale xs, ys;
    rp_scale_for(&xu, tmax * 1e6, &xs);
    rp_scale_for(&yu, fmax(fabs(vmax), fabs(vmin)), &ys);
    struct rp_ticks yt, xt;
    rc_fit_ticks(f, vmin, (vmax > vmin ? vmax : vmin + 1) * 1.05, &ys,
                 plot_h, 8, &yt);
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
#define XOF(ms) (x0 + (((ms) * 1e6 / xs.div) - xt.lo) / xspan * (x1 - x0))
#define YOF(v) (y0 - (((v) / ys.div) - yt.lo) / yspan * (y0 - y1))
    /* fio's steady state: the last ss_duration of the line, shaded */
    int any_ss = 0;
    for (size_t i = 0; i < c->n; i++) {
        double win = ss_window(d, c->test_id, c->l[i].config_id);
        if (win <= 0 || !ln[i])
            continue;
        double te = lt[i][ln[i] - 1], ts = fmax(te - win, 0);
        rc_rect(ch, XOF(ts), y1, XOF(te) - XOF(ts), y0 - y1, 0xe6f2e6,
                RC_NONE, 0);
        if (!any_ss)
            rc_text(ch, XOF(te) - 4, y1 + 12, "steady state", F_TICK, 0,
                    RC_END, 0x2e7d32);
        any_ss = 1;
    }
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
    double *xy = pb_xmalloc(4 * (MAXPTS + 2) * sizeof(double));
    for (size_t i = 0; i < c->n; i++) {
        uint32_t col = config_color(d, c->l[i].config_id, i);
        size_t n = ln[i], k = (n + MAXPTS - 1) / MAXPTS;
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
                st += lt[i][b];
                sv += lv[i][b];
                mn = fmin(mn, lv[i][b]);
                mx = fmax(mx, lv[i][b]);
            }
            double cnt = (double)(b - a);
            xy[2 * m] = XOF(st / cnt);
            xy[2 * m + 1] = YOF(sv / cnt);
            band[2 * m] = xy[2 * m];
            band[2 * m + 1] = YOF(mx);
            lo[m] = YOF(mn);
            banded |= mx > mn;
        }
        if (banded) {
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
            rc_poly(ch, xy, m, RC_NONE, col, 1.6);
    }
    free(xy);
    double y = y0 + 32;
    snprintf(buf, sizeof(buf), "time since the job started (%s) →", xs.name);
    rc_text(ch, (x0 + x1) / 2, y, buf, F_TICK, 0, RC_MIDDLE, C_MUTED);
    snprintf(buf, sizeof(buf), "↑ %s (%s)", c->series, ys.name);
    rc_text(ch, PAD, top - 12, buf, F_TICK, 0, RC_START, C_MUTED);
    y += 10;
    for (size_t i = 0; i < c->n; i++) {
        const char *lines[1];
        int el;
        y += 20;
        rc_rect(ch, PAD, y - 10, 12, 12, config_color(d, c->l[i].config_id, i),
                RC_NONE, 0);
        char *lab = c->l[i].job ? pb_xasprintf("%s · %s", c->l[i].label,
                                               c->l[i].job)
                                : pb_xstrdup(c->l[i].label);
        rc_wrap(f, &ch->arena, lab, F_LABEL, 0, W - 2 * PAD - 20, 1, lines,
                &el);
        struct pb_item *it =
            rc_text(ch, PAD + 18, y, lines[0], F_LABEL, 0, RC_START, C_TEXT);
        if (el)
            it->title = pb_arena_strdup(&ch->arena, lab);
        free(lab);
    }
#undef XOF
#undef YOF
    ch->h = ceil(y + PAD);
    ch->items[bg].h = ch->h;

    /* heading, chart, CSV link, summary table */
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

    struct rt_table t;
    rt_init(&t, 6);
    t.sortable = 1;
    rt_header(&t, 0, c->per_job ? "Configuration · job" : "Configuration",
              RT_LEFT);
    rt_header(&t, 1, "points", RT_RIGHT);
    rt_header(&t, 2, "mean", RT_RIGHT);
    rt_header(&t, 3, "min", RT_RIGHT);
    rt_header(&t, 4, "max", RT_RIGHT);
    rt_header(&t, 5, "CV", RT_RIGHT);
    for (size_t i = 0; i < c->n; i++) {
        double sum = 0, sq = 0, mn = INFINITY, mx = -INFINITY;
        for (size_t k = 0; k < ln[i]; k++) {
            sum += lv[i][k];
            sq += lv[i][k] * lv[i][k];
            mn = fmin(mn, lv[i][k]);
            mx = fmax(mx, lv[i][k]);
        }
        double n = (double)ln[i], mean = n ? sum / n : 0;
        double var = n > 1 ? (sq - n * mean * mean) / (n - 1) : 0;
        double cv = mean != 0 ? sqrt(fmax(var, 0)) / fabs(mean) : 0;
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], c->l[i].job ? rt_str(&t, "%s · %s", c->l[i].label,
                                                 c->l[i].job)
                                        : c->l[i].label);
        row[0].has_swatch = 1;
        row[0].swatch = config_color(d, c->l[i].config_id, i);
        rt_setv(&t, &row[1], rt_str(&t, "%zu", ln[i]), n);
        rt_setv(&t, &row[2], rp_fmt(&yu, mean, buf, sizeof(buf)), mean);
        rt_setv(&t, &row[3], rp_fmt(&yu, mn, buf, sizeof(buf)), mn);
        rt_setv(&t, &row[4], rp_fmt(&yu, mx, buf, sizeof(buf)), mx);
        rt_setv(&t, &row[5], rt_str(&t, "%.3f", cv), cv);
    }
    t.caption = rt_str(&t, "Data: %s (the lines as drawn, before the "
                           "2,000-point limit)", title);
    rp_out_table(s->o, &t);
    for (size_t i = 0; i < c->n; i++) {
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
    if (s->ncharts < MAXCHARTS) {
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
        draw(s);
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
                                           "max",    "p50", "p99"};
        c->csv = rp_csv_new(9, head);
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
    t->v = p->value;
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
    const double v[] = {p->value, (double)p->n, p->min, p->max, p->p50,
                        p->p99};
    for (size_t i = 0; i < 6; i++) {
        if (i == 1 && p->n == 0)
            rp_csv_empty(c->csv);
        else
            rp_csv_num(c->csv, v[i]);
    }
    return 0;
}

int rp_has_timeseries(struct pb_db *db, const struct pb_db_filter *f)
{
    return pb_an_has_points(db, f);
}

int rp_section_timeseries(struct rp_out *o, const struct rp_data *d,
                          struct pb_db *db, const struct pb_db_filter *f,
                          int per_job, struct pb_err *err)
{
    struct ts s;
    memset(&s, 0, sizeof(s));
    s.o = o;
    s.d = d;
    s.per_job = per_job;
    int rc = pb_an_each_point(db, f, on_point, &s, err);
    if (!rc)
        flush_chart(&s);
    chart_reset(&s.c);
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
