/* The Hosts section of index.html (issue 15 item 2): a summary table of
 * every configuration, test and metric measured on two or more hosts
 * (spread, aggregate, outliers), then per cell a bar per host plus the
 * "all hosts" aggregate, with the table of its exact numbers and its CSV.
 * The model is hosts.c's; docs/report.md, "Hosts". */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HOST_CHARTS 60
#define UNEVEN          0.95 /* all hosts / sum below: say why */
#define BARS_WORST      20   /* past RP_MANY_LIMIT hosts */
#define BARS_BEST       10
#define HOST_COLOR      0x4e79a7u /* one colour: hosts are not ranked */
#define AGG_COLOR       0x6b6b6bu
#define OUTLIER_COLOR   0xc0392bu

static const char *agg_label(const struct rp_hcell *c)
{
    return c->agg_fio                       ? "all hosts (fio)"
           : c->has_sum && c->agg == c->sum ? "all hosts (sum)"
                                            : "all hosts (mean)";
}

static void num_cell(struct rt_table *t, struct rt_cell *cell,
                     const struct rp_unit *u, int has, double v)
{
    char buf[64];
    if (has && isfinite(v))
        rt_setv(t, cell, rp_fmt(u, v, buf, sizeof(buf)), v);
    else
        rt_set(t, cell, "");
}

static void ratio_cell(struct rt_table *t, struct rt_cell *cell, double v,
                       const char *fmt)
{
    if (isfinite(v))
        rt_setv(t, cell, rt_str(t, fmt, v), v);
    else
        rt_set(t, cell, "");
}

/* ==== the summary ==== */

static void summary_table(struct rp_out *o, const struct rp_data *d,
                          const struct rp_hosts *hs)
{
    struct rt_table t;
    rt_init(&t, 13);
    t.sortable = 1;
    t.id = "hosts-summary";
    static const char *const head[] = {
        "Test",    "Metric",    "Configuration", "Hosts",
        "Min",     "Median",    "Max",           "Max / min",
        "CV",      "All hosts", "Sum of hosts",  "All hosts / sum",
        "Outliers"};
    for (size_t i = 0; i < 13; i++)
        rt_header(&t, i, head[i], i < 3 || i == 12 ? RT_LEFT : RT_RIGHT);
    char buf[96];
    size_t rows = hs->nc < RP_MANY_ROWS ? hs->nc : RP_MANY_ROWS;
    for (size_t i = 0; i < rows; i++) {
        const struct rp_hcell *c = &hs->c[i];
        const struct rp_metric *m = &d->metrics[c->metric];
        const struct rp_config *cf = &d->configs[c->config];
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], d->tests[c->test].name);
        rt_set(&t, &row[1], rp_metric_title(m->name, buf, sizeof(buf)));
        rt_set(&t, &row[2], cf->label);
        row[2].has_swatch = 1;
        row[2].swatch = cf->color;
        rt_setv(&t, &row[3], rp_int((long long)c->n, buf, sizeof(buf)),
                (double)c->n);
        num_cell(&t, &row[4], &m->u, 1, c->sp.min);
        num_cell(&t, &row[5], &m->u, 1, c->sp.median);
        num_cell(&t, &row[6], &m->u, 1, c->sp.max);
        ratio_cell(&t, &row[7], c->sp.ratio, "%.3f");
        if (isfinite(c->sp.cv))
            rt_setv(&t, &row[8], rt_str(&t, "%.1f%%", c->sp.cv * 100),
                    c->sp.cv);
        else
            rt_set(&t, &row[8], "");
        num_cell(&t, &row[9], &m->u, c->has_agg, c->agg);
        if (c->has_agg)
            row[9].title = agg_label(c);
        num_cell(&t, &row[10], &m->u, c->has_sum, c->sum);
        ratio_cell(&t, &row[11],
                   c->has_agg && c->has_sum && c->sum != 0 ? c->agg / c->sum
                                                           : NAN,
                   "%.4f");
        if (c->noutliers) {
            struct pb_buf b = PB_BUF_INIT;
            for (size_t k = 0; k < c->n; k++)
                if (hs->h[c->first + k].outlier)
                    pb_buf_printf(&b, "%s%s", b.len ? ", " : "\xE2\x9A\xA0 ",
                                  hs->h[c->first + k].name);
            rt_set(&t, &row[12], pb_buf_str(&b));
            row[12].style = RT_WARN;
            pb_buf_release(&b);
        } else {
            rt_set(&t, &row[12], "");
        }
    }
    t.caption = "Configurations measured on several hosts";
    if (rows < hs->nc)
        t.note = rt_str(&t, "%zu of %zu rows shown.", rows, hs->nc);
    rp_out_table(o, &t);
}

/* ==== one chart per cell ==== */

struct worst_ctx {
    const struct rp_hhost *h;
    int dir;
};

static int cmp_worst(const void *a, const void *b, void *ctx)
{
    const struct worst_ctx *w = ctx;
    const struct rp_hhost *x = &w->h[*(const size_t *)a],
                          *y = &w->h[*(const size_t *)b];
    if (x->mean != y->mean)
        return (x->mean < y->mean) == (w->dir > 0) ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The bars of a cell's hosts: all of them in name order, or past
 * RP_MANY_LIMIT hosts the BARS_WORST worst, the BARS_BEST best and every
 * outlier, worst first. Returns how many were copied to out. */
static size_t pick_bars(const struct rp_hosts *hs, const struct rp_hcell *c,
                        int dir, const struct rc_bar *hb, struct rc_bar *out)
{
    if (c->n <= RP_MANY_LIMIT) {
        memcpy(out, hb, c->n * sizeof(*out));
        return c->n;
    }
    size_t *ord = pb_xcalloc(c->n, sizeof(*ord));
    for (size_t k = 0; k < c->n; k++)
        ord[k] = k;
    struct worst_ctx w = {hs->h + c->first, dir};
    rp_sort(ord, c->n, sizeof(*ord), cmp_worst, &w);
    size_t n = 0;
    for (size_t k = 0; k < c->n; k++)
        if (k < BARS_WORST || k >= c->n - BARS_BEST ||
            hs->h[c->first + ord[k]].outlier)
            out[n++] = hb[ord[k]];
    free(ord);
    return n;
}

/* One row of a hosts chart's CSV: its table's row, exact and unformatted
 * (outlier: "below", "above" or empty). */
static void csv_row(struct rp_csv *cv, const struct rp_data *d,
                    const struct rp_hcell *c, const char *host, double v,
                    double se, long long n, double dev, const char *outlier,
                    const char *note)
{
    const struct rp_metric *m = &d->metrics[c->metric];
    rp_csv_str(cv, host);
    rp_csv_str(cv, d->configs[c->config].label);
    rp_csv_str(cv, d->tests[c->test].name);
    rp_csv_str(cv, m->name);
    rp_csv_str(cv, m->unit);
    rp_csv_str(cv, m->dir < 0 ? "lower" : "higher");
    rp_csv_num(cv, v);
    rp_csv_num(cv, se >= 0 ? se : NAN);
    rp_csv_int(cv, n);
    rp_csv_num(cv, dev);
    rp_csv_str(cv, outlier);
    rp_csv_str(cv, note);
}

/* One host's bar b and its row of t and cv. */
static void host_row(struct rt_table *t, struct rp_csv *cv,
                     const struct rp_data *d, const struct rp_hcell *c,
                     const struct rp_metric *m, const struct rp_hhost *hh,
                     struct rc_bar *b)
{
    char buf[96];
    b->label = hh->outlier ? rt_str(t, "\xE2\x9A\xA0 %s", hh->name) : hh->name;
    b->color = hh->outlier ? OUTLIER_COLOR : HOST_COLOR;
    b->has_value = 1;
    b->v = hh->mean;
    b->se = hh->n > 1 ? hh->se : -1;
    struct rt_cell *row = rt_row(t);
    rt_set(t, &row[0], hh->name);
    row[0].has_swatch = 1;
    row[0].swatch = b->color;
    num_cell(t, &row[1], &m->u, 1, hh->mean);
    if (hh->se >= 0)
        rt_setv(t, &row[2],
                rp_fmt_se(&m->u, hh->mean, hh->se, buf, sizeof(buf)), hh->se);
    else
        rt_set(t, &row[2], "");
    rt_setv(t, &row[3], rp_int(hh->n, buf, sizeof(buf)), (double)hh->n);
    if (isfinite(hh->dev))
        rt_setv(t, &row[4], rt_str(t, "%+.1f%%", hh->dev * 100), hh->dev);
    else
        rt_set(t, &row[4], "");
    if (hh->outlier) {
        rt_set(t, &row[5],
               hh->outlier < 0 ? "\xE2\x9A\xA0 outlier: below the median"
                               : "\xE2\x9A\xA0 outlier: above the median");
        row[5].style = RT_WARN;
    } else {
        rt_set(t, &row[5], "");
    }
    csv_row(cv, d, c, hh->name, hh->mean, hh->se, hh->n, hh->dev,
            hh->outlier < 0   ? "below"
            : hh->outlier > 0 ? "above"
                              : "",
            "");
}

/* The rows (and the bar, into bars at *nb) of all hosts together: the
 * aggregate (fio's "All clients", or the sum or mean of the hosts), and
 * the sum of the hosts beside fio's own. */
static void total_rows(struct rt_table *t, struct rp_csv *cv,
                       const struct rp_data *d, const struct rp_hcell *c,
                       const struct rp_metric *m, struct rc_bar *bars,
                       size_t *nb)
{
    char buf[96];
    if (c->has_agg) {
        struct rc_bar *b = &bars[(*nb)++];
        b->label = agg_label(c);
        b->color = AGG_COLOR;
        b->has_value = 1;
        b->v = c->agg;
        b->se = -1;
        struct rt_cell *row = rt_row(t);
        rt_set(t, &row[0], b->label);
        row[0].style = RT_BOLD;
        num_cell(t, &row[1], &m->u, 1, c->agg);
        rt_set(t, &row[2], "");
        rt_setv(t, &row[3], rp_int((long long)c->nruns, buf, sizeof(buf)),
                (double)c->nruns);
        rt_set(t, &row[4], "");
        rt_set(t, &row[5],
               c->agg_fio   ? "fio's \"All clients\" result"
               : c->has_sum ? "sum of the hosts"
                            : "mean of the hosts");
        csv_row(cv, d, c, b->label, c->agg, -1, (long long)c->nruns, NAN, "",
                row[5].text);
    }
    if (c->has_sum && (c->agg_fio || !c->has_agg)) {
        struct rt_cell *row = rt_row(t);
        rt_set(t, &row[0], "sum of hosts");
        row[0].style = RT_MUTED;
        num_cell(t, &row[1], &m->u, 1, c->sum);
        rt_set(t, &row[2], "");
        rt_setv(t, &row[3], rp_int((long long)c->nruns, buf, sizeof(buf)),
                (double)c->nruns);
        rt_set(t, &row[4], "");
        if (c->has_agg && c->sum != 0)
            rt_set(t, &row[5],
                   rt_str(t, "all hosts / sum = %.4f%s", c->agg / c->sum,
                          c->agg / c->sum < UNEVEN
                              ? " (the hosts ran unequal times: fio divides "
                                "all I/Os by the longest runtime)"
                              : ""));
        else
            rt_set(t, &row[5], "");
        csv_row(cv, d, c, "sum of hosts", c->sum, -1, (long long)c->nruns, NAN,
                "", row[5].text);
    }
}

static void host_chart(struct rp_out *o, const struct rp_data *d,
                       const struct rp_hosts *hs, const struct rp_hcell *c)
{
    const struct rp_metric *m = &d->metrics[c->metric];
    const struct rp_test *te = &d->tests[c->test];
    const struct rp_config *cf = &d->configs[c->config];
    struct rc_bar *hb = pb_xcalloc(c->n + 1, sizeof(*hb));     /* per host */
    struct rc_bar *bars = pb_xcalloc(c->n + 1, sizeof(*bars)); /* drawn */
    struct rt_table t;
    rt_init(&t, 6);
    rt_header(&t, 0, "Host", RT_LEFT);
    rt_header(&t, 1, "Value", RT_RIGHT);
    rt_header(&t, 2, "± SE", RT_RIGHT);
    rt_header(&t, 3, "n", RT_RIGHT);
    rt_header(&t, 4, "Against the median", RT_RIGHT);
    rt_header(&t, 5, "Note", RT_LEFT);
    static const char *const head[] = {
        "host",  "config", "test", "metric",         "unit",    "direction",
        "value", "stderr", "n",    "against_median", "outlier", "note"};
    struct rp_csv *cv = rp_csv_new(12, head);
    int any_se = 0;
    for (size_t k = 0; k < c->n; k++) {
        host_row(&t, cv, d, c, m, &hs->h[c->first + k], &hb[k]);
        any_se |= hb[k].se > 0;
    }
    size_t nb = pick_bars(hs, c, m->dir, hb, bars);
    size_t drawn = nb;
    total_rows(&t, cv, d, c, m, bars, &nb);
    char mt[96], title[400], sub[300], stem[200], s1[40], s2[40];
    rp_metric_title(m->name, mt, sizeof(mt));
    snprintf(title, sizeof(title), "%s: %s · %s", te->name, mt, cf->label);
    snprintf(sub, sizeof(sub), "%zu hosts · %s is better%s · grey: all hosts%s",
             c->n, m->dir < 0 ? "lower" : "higher",
             any_se ? " · whiskers: ± standard error" : "",
             c->noutliers ? " · red: outlier" : "");
    if (drawn < c->n)
        snprintf(sub, sizeof(sub),
                 "%zu of %zu hosts drawn: the %d worst, the %d best and "
                 "every outlier, worst first (all in the table) · grey: all "
                 "hosts",
                 drawn, c->n, BARS_WORST, BARS_BEST);
    rp_out_heading(o, 3, NULL, title);
    struct rc_barspec s = {0};
    s.title = title;
    s.subtitle = sub;
    s.unit = m->u;
    s.dir = m->dir;
    s.bars = bars;
    s.n = nb;
    snprintf(stem, sizeof(stem), "hosts-%s-%s", rp_slug(te->name, s1, 30),
             rp_slug(m->name, s2, 20));
    rp_out_chart_data(o, cv);
    rp_out_chart(o, rc_bars(rp_out_fonts(o), &s), stem);
    char lo[64], hi[64];
    t.caption = rt_str(&t, "Data: %s", title);
    t.note =
        rt_str(&t, "Spread of %zu hosts: min %s, max %s, max / min %s, CV %s.",
               c->n, rp_fmt(&m->u, c->sp.min, lo, sizeof(lo)),
               rp_fmt(&m->u, c->sp.max, hi, sizeof(hi)),
               isfinite(c->sp.ratio) ? rt_str(&t, "%.3f", c->sp.ratio) : "-",
               isfinite(c->sp.cv) ? rt_str(&t, "%.1f%%", c->sp.cv * 100) : "-");
    rp_out_table(o, &t);
    free(hb);
    free(bars);
}

void rp_section_hosts(struct rp_out *o, const struct rp_data *d)
{
    if (!rp_has_hosts(d))
        return;
    const struct rp_hosts *hs = d->hosts;
    rp_out_raw(o, "<section id=\"hosts\">\n");
    rp_out_heading(o, 2, NULL, "Hosts");
    char lead[600];
    snprintf(lead, sizeof(lead),
             "Configurations whose results of a test come from several "
             "hosts (fio client/server runs): a bar per host and the "
             "aggregate of the hosts that ran together (fio's \"All "
             "clients\" when present, else the sum of bandwidth and IOPS, "
             "the mean of other metrics; none for percentiles). A host is "
             "an outlier when it is more than %.0f%% from the median of at "
             "least %d hosts (from %d hosts on, also a modified z-score "
             "above 3.5).",
             RP_HOST_REL * 100, RP_HOST_MIN, RP_HOST_Z_FROM);
    rp_out_para(o, "lead", lead);
    summary_table(o, d, hs);
    size_t n = hs->nc < MAX_HOST_CHARTS ? hs->nc : MAX_HOST_CHARTS;
    for (size_t i = 0; i < n; i++)
        host_chart(o, d, hs, &hs->c[i]);
    if (n < hs->nc)
        rp_out_para(o, "note",
                    "More configurations have several hosts than are drawn "
                    "here (all are in the table above): narrow the report "
                    "with --test, --metric or --host.");
    rp_out_raw(o, "</section>\n");
}
