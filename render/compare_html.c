/* The compare page: the report's look, a table of changes on a diverging
 * colour scale, a bar chart (inline SVG, real text) of the % change with
 * its confidence interval per test, the verdicts and the gate. Written
 * through the report folder's safe writing (output.c). */
#include "render/rp_base.h"
#include "render/rp_out.h"
#include "render/rp_files.h"
#include "render/rp_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most this many pairs in the table and the chart; JSON and CSV hold
 * every pair. */
#define TABLE_MAX 5000
#define CHART_MAX 60

/* The compare page's rules, after the report's (rp_css). */
static const char compare_css[] =
    "h1{overflow-wrap:anywhere}\n"
    ".gate{border-left:4px solid #1a7f37;padding:6px 12px;margin:12px 0}\n"
    ".gate.failed{border-color:#b2182b;background:#fdf1f1}\n"
    "figure svg{display:block;border:1px solid var(--line);border-radius:6px;"
    "background:#fff}\n"
    "table.data td.num{text-align:right;white-space:nowrap}\n"
    "td.v-worse{color:#8a1020;font-weight:600}"
    "td.v-better{color:#134f8a;font-weight:600}td.v-same{color:var(--muted)}"
    "td.v-unjudged{color:#8a5a00}\n"
    ".kinds{margin:6px 0 12px;padding-left:20px}.kinds li.lead{font-weight:600}\n"
    "tr.offender td{box-shadow:inset 0 -2px 0 #b2182b}\n"
    /* the verdict stays in view at the right while the table scrolls
     * (the first column stays at the left: rp_css); on a phone both are
     * narrow enough to leave the change between them */
    "#compare td:last-child,#compare thead th:last-child{position:sticky;"
    "right:0;z-index:1;background:#fff;box-shadow:-1px 0 0 var(--line)}\n"
    "#compare thead th:last-child{z-index:3;background:var(--soft)}\n"
    "@media (max-width:600px){#compare td:first-child,"
    "#compare td:last-child{min-width:6em;max-width:34vw;"
    "overflow-wrap:break-word}}\n"
    ".legend{display:flex;align-items:center;gap:8px;font-size:13px;"
    "color:var(--muted)}\n"
    ".legend i{display:inline-block;width:160px;height:12px;border-radius:3px;"
    "background:linear-gradient(to right,#b2182b,#fff,#2166ac)}\n";

/* ==== the diverging scale ==== */

/* Oriented change (the test's estimate): > 0 better, whatever the
 * metric's direction. */
static double better_pct(const struct pb_compare_pair *p)
{
    return p->higher ? p->estimate_pct : -p->estimate_pct;
}

/* Background of a change cell: white at 0, toward blue (better) or red
 * (worse), full at 25 %; a change that is not significant at a third. */
static void cell_colour(const struct pb_compare_pair *p, char *buf, size_t n)
{
    double g = better_pct(p);
    if (isnan(g)) {
        snprintf(buf, n, "#ffffff");
        return;
    }
    double t = fabs(g) / 25.0;
    if (t > 1)
        t = 1;
    if (p->verdict == PB_CMP_SAME || p->verdict == PB_CMP_UNJUDGED)
        t /= 3;
    int r = g > 0 ? 0x21 : 0xb2, gr = g > 0 ? 0x66 : 0x18,
        b = g > 0 ? 0xac : 0x2b;
    int cr = (int)lround(255 + (r - 255) * t * 0.75);
    int cg = (int)lround(255 + (gr - 255) * t * 0.75);
    int cb = (int)lround(255 + (b - 255) * t * 0.75);
    snprintf(buf, n, "#%02x%02x%02x", cr, cg, cb);
}

static const char *verdict_word(const struct pb_compare_pair *p)
{
    return pb_compare_verdict_word(p->verdict);
}

static const char *verdict_class(const struct pb_compare_pair *p)
{
    return p->verdict == PB_CMP_BETTER     ? "v-better"
           : p->verdict == PB_CMP_WORSE    ? "v-worse"
           : p->verdict == PB_CMP_UNJUDGED ? "v-unjudged"
                                           : "v-same";
}

/* s cut to at most max code points, "…" when cut (SVG text does not
 * wrap). */
static void esc_cut(struct pb_buf *h, const char *s, size_t max)
{
    size_t i = 0, cps = 0;
    while (s[i] && cps < max) {
        i += rp_u8len(s + i);
        cps++;
    }
    if (!s[i]) {
        rp_esc(h, s);
        return;
    }
    char *cut = pb_xstrndup(s, i);
    rp_esc(h, cut);
    free(cut);
    pb_buf_puts(h, "…");
}

/* ==== the chart ==== */

struct pick {
    size_t i;
    int sig;
    double size;
};

static int pick_cmp(const void *pa, const void *pb)
{
    const struct pick *a = pa, *b = pb;
    if (a->sig != b->sig)
        return b->sig - a->sig;
    if (a->size != b->size)
        return a->size < b->size ? 1 : -1;
    return (a->i > b->i) - (a->i < b->i);
}

static int idx_cmp(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

/* Pairs to chart, in table order: all when they fit, else the CHART_MAX
 * significant ones first by size of change, then the rest by size. */
static size_t chart_pick(const struct pb_compare *c, size_t *idx)
{
    struct pick *v = pb_xcalloc(c->npairs + 1, sizeof(*v));
    size_t n = 0;
    for (size_t i = 0; i < c->npairs; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        if (isnan(p->estimate_pct))
            continue;
        v[n++] = (struct pick){i,
                               p->verdict == PB_CMP_BETTER ||
                                   p->verdict == PB_CMP_WORSE,
                               fabs(p->estimate_pct)};
    }
    if (n > CHART_MAX) {
        qsort(v, n, sizeof(*v), pick_cmp);
        n = CHART_MAX;
    }
    for (size_t k = 0; k < n; k++)
        idx[k] = v[k].i;
    free(v);
    qsort(idx, n, sizeof(*idx), idx_cmp);
    return n;
}

/* The chart's geometry: the plot's left edge and width, its top, the
 * height of a row, the axis' ticks. */
struct geom {
    double left, plot, top, row;
    struct rp_ticks t;
};

/* x of the change v in %, clipped at the frame. */
static double gx(const struct geom *g, double v)
{
    return g->left +
           ((fmax(fmin(v, g->t.hi), g->t.lo) - g->t.lo) / (g->t.hi - g->t.lo)) *
               g->plot;
}

/* One pair's bar at y: label, estimate, interval, value. */
static void chart_bar(struct pb_buf *h, const struct pb_compare *c,
                      const struct pb_compare_pair *p, const struct geom *g,
                      double y)
{
    const char *col = p->verdict == PB_CMP_BETTER     ? "#2166ac"
                      : p->verdict == PB_CMP_WORSE    ? "#b2182b"
                      : p->verdict == PB_CMP_UNJUDGED ? "#c9ced4"
                                                      : "#9aa3ad";
    /* the full names as a tooltip; cut to fit the label column */
    pb_buf_printf(h, "<g class=\"bar\" data-verdict=\"%s\"><title>",
                  verdict_word(p));
    rp_esc(h, p->test);
    pb_buf_puts(h, " · ");
    rp_esc(h, p->metric_title);
    if (!c->single_config) {
        pb_buf_puts(h, " · ");
        rp_esc(h, p->cand_config);
    }
    pb_buf_printf(h,
                  "</title><text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"end\">",
                  g->left - 8, y + 15);
    esc_cut(h, p->test, c->single_config ? 40 : 30);
    pb_buf_puts(h, " · ");
    esc_cut(h, p->metric_title, c->single_config ? 20 : 16);
    if (!c->single_config) {
        pb_buf_puts(h, " · ");
        esc_cut(h, p->cand_config, 16);
    }
    pb_buf_puts(h, "</text>");
    double x0 = gx(g, 0), x1 = gx(g, p->estimate_pct);
    pb_buf_printf(h,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                  "height=\"12\" fill=\"%s\"/>",
                  fmin(x0, x1), y + 5, fmax(fabs(x1 - x0), 1), col);
    if (!isnan(p->ci_lo_pct)) {
        double a = gx(g, p->ci_lo_pct), b = gx(g, p->ci_hi_pct);
        /* an end at infinity: an open arrow at the frame, no cap */
        if (isinf(p->ci_hi_pct))
            pb_buf_printf(h,
                          "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f"
                          "M%.1f %.1fL%.1f %.1fL%.1f %.1f\" "
                          "stroke=\"#1d1f23\" fill=\"none\"/>",
                          a, y + 7, y + 15, a, y + 11, b, b - 5, y + 7, b,
                          y + 11, b - 5, y + 15);
        else
            pb_buf_printf(h,
                          "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1f"
                          "M%.1f %.1fV%.1f\" stroke=\"#1d1f23\" "
                          "fill=\"none\"/>",
                          a, y + 7, y + 15, a, y + 11, b, b, y + 7, y + 15);
    }
    char buf[32];
    pb_buf_printf(h, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
                  g->left + g->plot + 6, y + 15, col);
    rp_esc(h, pb_compare_pct(p->estimate_pct, buf, sizeof(buf)));
    pb_buf_puts(h, "</text></g>\n");
}

static void chart(struct pb_buf *h, const struct pb_compare *c)
{
    size_t *idx = pb_xcalloc(CHART_MAX + 1, sizeof(*idx));
    size_t n = chart_pick(c, idx);
    if (!n) {
        free(idx);
        return;
    }
    /* the bars are the tests' estimates, the whiskers their intervals
     * (an end that is not finite runs to the frame) */
    double lo = 0, hi = 0;
    int positive = 1;
    for (size_t i = 0; i < n; i++) {
        const struct pb_compare_pair *p = &c->pairs[idx[i]];
        double a = p->estimate_pct, b = p->estimate_pct;
        if (isfinite(p->ci_lo_pct))
            a = fmin(a, p->ci_lo_pct);
        if (isfinite(p->ci_hi_pct))
            b = fmax(b, p->ci_hi_pct);
        lo = fmin(lo, a);
        hi = fmax(hi, b);
        positive &= p->base_mean > 0 && p->cand_mean > 0;
    }
    double m = fmax(fmax(-lo, hi), 5.0);
    if (m > 1000)
        m = 1000; /* whiskers past it are clipped at the frame */
    /* a positive quantity cannot fall by more than 100% */
    double axis_lo = positive && m > 100 ? -100 : -m;
    struct rp_ticks t;
    rp_ticks(axis_lo, m, 8, &t);
    /* DejaVu Sans 11 px: at most ~6.5 px a character, 70 characters */
    const double left = 470, plot = 420, right = 70, row = 22, top = 34;
    double W = left + plot + right, H = top + row * (double)n + 30;
    struct geom g = {left, plot, top, row, t};
    pb_buf_printf(h,
                  "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
                  "id=\"change-chart\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
                  "font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\">"
                  "<title>Change in %% of the candidate against the base, "
                  "with its %.0f%% confidence interval</title>\n",
                  W, H, W, H, (1 - c->alpha) * 100);
    for (int i = 0; i < t.n; i++) {
        double v = t.lo + t.step * i;
        if (v > t.hi + t.step / 2)
            break;
        double x = gx(&g, v);
        pb_buf_printf(h,
                      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
                      "stroke=\"%s\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                      "fill=\"#5d6470\">%+.*f%%</text>\n",
                      x, x, top - 6, H - 22,
                      fabs(v) < t.step / 2 ? "#5d6470" : "#e3e5e8", x,
                      top - 12, t.decimals, fabs(v) < t.step / 2 ? 0.0 : v);
    }
    for (size_t i = 0; i < n; i++)
        chart_bar(h, c, &c->pairs[idx[i]], &g, top + row * (double)i);
    pb_buf_puts(h, "</svg></figure>\n");
    if (n < c->npairs)
        pb_buf_printf(h,
                      "<p class=\"note\">The chart shows %zu of %zu pairs: "
                      "the significant changes first, largest first.</p>\n",
                      n, c->npairs);
    free(idx);
}

/* ==== the page ==== */

static void stat_box(struct pb_buf *h, const char *value, const char *what)
{
    pb_buf_puts(h, "<div><b>");
    rp_esc(h, value);
    pb_buf_puts(h, "</b><span>");
    rp_esc(h, what);
    pb_buf_puts(h, "</span></div>");
}

/* The counts, the kinds of metric (the headline first), pairs not
 * judged, metrics left out and the gate. */
static void summary(struct pb_buf *h, const struct pb_compare *c)
{
    char v[160];
    pb_buf_puts(h, "<div class=\"stats\" id=\"summary\">");
    snprintf(v, sizeof(v), "%zu", c->better);
    stat_box(h, v, "better");
    snprintf(v, sizeof(v), "%zu", c->worse);
    stat_box(h, v, "worse");
    snprintf(v, sizeof(v), "%zu", c->same);
    stat_box(h, v, "unchanged (~)");
    snprintf(v, sizeof(v), "%zu", c->not_judged);
    stat_box(h, v, "not judged");
    snprintf(v, sizeof(v), "%zu", c->nunpaired);
    stat_box(h, v, "unpaired");
    pb_buf_puts(h, "</div>\n<ul class=\"kinds\" id=\"kinds\">");
    for (int i = -1; i < PB_NKINDS; i++) {
        enum pb_metric_kind k = i < 0 ? c->headline : (enum pb_metric_kind)i;
        if ((i >= 0 && k == c->headline) || (i >= 0 && !c->kinds[k].n))
            continue;
        pb_buf_printf(h, "<li%s data-kind=\"%s\">",
                      i < 0 ? " class=\"lead\" id=\"headline\"" : "",
                      pb_metric_kind_name(k));
        rp_esc(h, pb_compare_kind_text(c, k, v, sizeof(v)));
        pb_buf_puts(h, "</li>");
    }
    pb_buf_puts(h, "</ul>\n");
    if (c->not_judged) {
        char nj[256];
        pb_buf_puts(h, "<p class=\"note\" id=\"not-judged\">");
        rp_esc(h, pb_compare_unjudged_text(c, nj, sizeof(nj)));
        pb_buf_puts(h, ".</p>\n");
    }
    if (c->nleft_out) {
        pb_buf_puts(h, "<p class=\"note\" id=\"left-out\">Not compared "
                       "by default: ");
        for (size_t i = 0; i < c->nleft_out; i++) {
            pb_buf_puts(h, i ? ", <code>" : "<code>");
            rp_esc(h, c->left_out[i]);
            pb_buf_puts(h, "</code>");
        }
        pb_buf_puts(h, " (<code>--metric</code> reaches them).</p>\n");
    }
    if (c->fail_worse < 0)
        return;
    pb_buf_printf(h, "<p class=\"gate%s\" id=\"gate\"><b>Gate %s</b>: ",
                  c->offenders ? " failed" : "",
                  c->offenders ? "failed" : "passed");
    if (c->offenders)
        pb_buf_printf(h, "%zu pair%s worse than %g%% (marked in the table).",
                      c->offenders, c->offenders == 1 ? "" : "s",
                      c->fail_worse);
    else
        pb_buf_printf(h, "no significant change%s worse than %g%%.",
                      c->gate_unjudged ? ", nor raw change of a pair not "
                                         "judged,"
                                       : "",
                      c->fail_worse);
    pb_buf_puts(h, "</p>\n");
}

static void table(struct pb_buf *h, const struct pb_compare *c)
{
    pb_buf_printf(h,
                  "<div class=\"tw\"><table class=\"data\" id=\"compare\">"
                  "<thead><tr><th>test</th><th>metric</th><th>configuration"
                  "</th><th>base</th><th>cand</th><th>change</th>"
                  "<th>%.0f%% CI</th><th>p</th><th>test used</th>"
                  "<th>verdict</th></tr></thead>\n<tbody>\n",
                  (1 - c->alpha) * 100);
    for (size_t i = 0; i < c->npairs && i < TABLE_MAX; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        char bg[16], a[96];
        cell_colour(p, bg, sizeof(bg));
        pb_buf_printf(h, "<tr%s data-verdict=\"%s\"><td>",
                      p->offender ? " class=\"offender\"" : "",
                      verdict_word(p));
        rp_esc(h, p->test);
        pb_buf_puts(h, "</td><td>");
        rp_esc(h, p->metric_title);
        pb_buf_puts(h, "</td><td>");
        rp_esc(h, p->base_config);
        if (strcmp(p->base_config, p->cand_config)) {
            pb_buf_puts(h, " → ");
            rp_esc(h, p->cand_config);
        }
        pb_buf_puts(h, "</td><td class=\"num\">");
        char val[96];
        rp_esc(h, pb_compare_value_text(c, p, 0, val, sizeof(val)));
        pb_buf_puts(h, "</td><td class=\"num\">");
        rp_esc(h, pb_compare_value_text(c, p, 1, val, sizeof(val)));
        pb_buf_printf(h, "</td><td class=\"num\" style=\"background:%s\">",
                      bg);
        rp_esc(h, pb_compare_pct(p->change_pct, a, sizeof(a)));
        pb_buf_puts(h, "</td><td class=\"num\">");
        rp_esc(h, pb_compare_ci_text(p, a, sizeof(a)));
        pb_buf_puts(h, "</td><td class=\"num\">");
        if (strcmp(p->method, "none"))
            pb_buf_printf(h, "%.3g", p->p);
        else
            pb_buf_puts(h, "–");
        pb_buf_printf(h, "</td><td>%s</td><td class=\"%s\">", p->method,
                      verdict_class(p));
        rp_esc(h, verdict_word(p));
        if (p->why) {
            pb_buf_puts(h, " (");
            rp_esc(h, p->why);
            pb_buf_puts(h, ")");
        }
        if (p->offender)
            pb_buf_printf(h, " — fails the gate (worse than %g%%)",
                          c->fail_worse);
        pb_buf_puts(h, "</td></tr>\n");
    }
    pb_buf_puts(h, "</tbody></table></div>\n");
    if (c->npairs > TABLE_MAX)
        pb_buf_printf(h,
                      "<p class=\"note\">The first %d of %zu pairs; "
                      "<code>poolbench compare --json</code> or "
                      "<code>--csv</code> gives every pair.</p>\n",
                      TABLE_MAX, c->npairs);
}

static void unpaired(struct pb_buf *h, const struct pb_compare *c)
{
    if (!c->nunpaired)
        return;
    pb_buf_printf(h, "<h2 id=\"unpaired\">Unpaired results (%zu)</h2>\n"
                     "<p class=\"note\">A test, metric and configuration "
                     "of one side that has no partner on the other "
                     "(docs/statistics.md, \"Compare: pairing and "
                     "statistics\").</p>\n<ul>\n",
                  c->nunpaired);
    for (size_t i = 0; i < c->nunpaired && i < 200; i++) {
        const struct pb_compare_unpaired *u = &c->unpaired[i];
        pb_buf_printf(h, "<li>only in %s: ", u->cand ? "cand" : "base");
        rp_esc(h, u->test);
        pb_buf_puts(h, ", ");
        rp_esc(h, u->metric);
        pb_buf_puts(h, ", ");
        rp_esc(h, u->config);
        pb_buf_puts(h, "</li>\n");
    }
    if (c->nunpaired > 200)
        pb_buf_printf(h, "<li>… and %zu more</li>\n", c->nunpaired - 200);
    pb_buf_puts(h, "</ul>\n");
}

static void page(struct pb_buf *h, const struct pb_compare *c)
{
    pb_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                   "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
                   "content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"generator\" content=\"poolbench\">\n"
                   "<title>Compare: ");
    rp_esc(h, c->base_name);
    pb_buf_puts(h, " → ");
    rp_esc(h, c->cand_name);
    pb_buf_puts(h, "</title>\n<style>\n");
    rp_css_put(h);
    pb_buf_puts(h, compare_css);
    pb_buf_puts(h, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>"
                   "Compare: ");
    rp_esc(h, c->base_name);
    pb_buf_puts(h, " → ");
    rp_esc(h, c->cand_name);
    pb_buf_printf(h,
                  "</h1>\n<p class=\"meta\">%zu pair%s of test and metric · "
                  "significance level %g · base %zu result%s, cand %zu "
                  "result%s (repeats aggregated)</p>\n</header>\n",
                  c->npairs, c->npairs == 1 ? "" : "s", c->alpha,
                  c->nbase_cells, c->nbase_cells == 1 ? "" : "s",
                  c->ncand_cells, c->ncand_cells == 1 ? "" : "s");
    summary(h, c);
    pb_buf_printf(h, "<h2 id=\"chart\">Change per test</h2>\n<p "
                     "class=\"note\">Bars: the change each test estimates "
                     "(of the means with Welch's t-test; the median ratio "
                     "of the repeats, Hodges-Lehmann, with Mann-Whitney); "
                     "whiskers: its own %.0f%% confidence interval "
                     "(Fieller's; the one Mann-Whitney's test gives), an "
                     "arrow where it has no upper end; blue better, red "
                     "worse, grey not significant (~), light grey not "
                     "judged.</p>\n",
                  (1 - c->alpha) * 100);
    chart(h, c);
    pb_buf_puts(h, "<h2 id=\"changes\">Changes</h2>\n<p class=\"legend\">"
                   "worse <i></i> better (change cells; faint when not "
                   "significant)</p>\n");
    table(h, c);
    unpaired(h, c);
    pb_buf_puts(h, "<p class=\"note\">Welch's t-test on mean, standard "
                   "error and n; the Mann-Whitney U test when both sides "
                   "hold per-repeat samples that can reach the level. A "
                   "change is significant when p is below the level and "
                   "its interval excludes 0%. A pair with a single run on "
                   "a side is not judged: its raw change is shown, never "
                   "tested. Made by poolbench compare.</p>\n</main>\n"
                   "</body>\n</html>\n");
}

int pb_compare_html(const struct pb_compare *c, const char *dir,
                    const struct pb_keep *keep, struct pb_err *err)
{
    struct rp_dir *out;
    int rc = rp_dir_open(dir, 0, keep, &out, err);
    if (rc)
        return rc;
    struct pb_buf h = PB_BUF_INIT;
    page(&h, c);
    rc = rp_dir_write(out, "index.html", h.s, h.len, err);
    pb_buf_release(&h);
    if (rc) {
        rp_dir_abort(out);
        return rc;
    }
    return rp_dir_commit(out, err);
}
