/* History (issue 12 item 4, issue 41 item 8): the same configuration and
 * test across runs or dates. A point is one `poolbench run` (fact run_id)
 * or, for other sources, one day of the source's own time (what the file
 * says, else its modification time, else its ingest time); its value is
 * the mean of its sources' results (the report's fold of repeats), with
 * ±SE and n. Points are ordered by time. A step is a point whose value
 * differs from the pooled points before it (since the last step) by
 * Welch's t-test at alpha 0.05, both sides with n >= 2; the latest point
 * is judged against the previous one as compare judges two
 * configurations. The section draws one chart per test and metric (a line per
 * configuration, ±SE whiskers) with a table of every point; steps also
 * go to the Warnings list (flags.c). docs/statistics.md, "History across
 * runs".
 *
 * The history itself is loaded and computed by analysis/history.c. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "read IOPS of fio randread bs=4k, config: −20.0% at 2026-03-03 against
 * the 2 points before (Welch p = 0.0012)" */
void rp_history_step_text(const struct rp_data *d, const struct rp_history *h,
                          const struct rp_hseries *s, const struct rp_hpoint *p,
                          struct pb_buf *b)
{
    char mt[96];
    pb_buf_printf(b,
                  "\xE2\x9A\xA0 step change: %s of %s, %s: %+.1f%% at %s "
                  "against the %zu point%s before (Welch p = %.2g)",
                  rp_metric_title(d->metrics[s->metric].name, mt, sizeof(mt)),
                  d->tests[s->test].name, d->configs[s->config].label,
                  p->change * 100, h->keys[p->point], p->nbase,
                  p->nbase == 1 ? "" : "s", p->p);
}

/* ==== the section ==== */

static const char *const whence_text[] = {
    [RP_HWHEN_SOURCE] = "the file's own time:",
    [RP_HWHEN_FILE] = "no time in the file; its modification time:",
    [RP_HWHEN_INGEST] = "no time in the file; ingested:",
};

/* "−19.9%: worse (p = 1.6e-05)" on the latest point of series s */
static void latest_cell(struct rt_table *t, struct rt_cell *c,
                        const struct rp_hseries *s)
{
    static const char *const verdict[] = {
        [RP_HLATEST_SAME] = "no significant change",
        [RP_HLATEST_BETTER] = "better",
        [RP_HLATEST_WORSE] = "worse",
    };
    if (s->lverdict == RP_HLATEST_UNTESTED || isnan(s->lchange)) {
        rt_set(t, c, "n < 2: not tested");
        c->style = RT_MUTED;
        return;
    }
    rt_setv(t, c,
            rt_str(t, "%+.1f%%: %s (p = %.2g)", s->lchange * 100,
                   verdict[s->lverdict], s->lp),
            s->lchange);
    if (s->lverdict == RP_HLATEST_WORSE)
        c->style = RT_WARN;
    else if (s->lverdict == RP_HLATEST_BETTER)
        c->style = RT_GOOD;
}

/* The row of t and cv of point k of series s (configuration cf). */
static void point_row(struct rt_table *t, struct rp_csv *cv,
                      const struct rp_data *d, const struct rp_history *h,
                      const struct rp_metric *m, const struct rp_hseries *s,
                      const struct rp_hpoint *p, size_t k)
{
    const struct rp_config *cf = &d->configs[s->config];
    char buf[96];
    struct rt_cell *row = rt_row(t);
    rp_config_cell(t, &row[0], cf);
    rt_setv(t, &row[1], h->keys[p->point], (double)p->point);
    row[1].title = rt_str(t, "%s %s", whence_text[h->whence[p->point]],
                          h->whens[p->point]);
    rt_setv(t, &row[2], rp_fmt(&m->u, p->mean, buf, sizeof(buf)), p->mean);
    if (p->se >= 0)
        rt_setv(t, &row[3], rp_fmt_se(&m->u, p->mean, p->se, buf, sizeof(buf)),
                p->se);
    else
        rt_set(t, &row[3], "");
    rt_setv(t, &row[4], rp_int(p->n, buf, sizeof(buf)), (double)p->n);
    if (!isnan(p->p) && p->base != 0) {
        double ch = (p->mean - p->base) / fabs(p->base);
        rt_setv(t, &row[5], rt_str(t, "%+.1f%% (p = %.2g)", ch * 100, p->p),
                ch);
    } else {
        rt_set(t, &row[5], k ? "n < 2: not tested" : "");
        row[5].style = RT_MUTED;
    }
    if (p->step) {
        rt_set(t, &row[6], "\xE2\x9A\xA0 step");
        row[6].style = RT_WARN;
    } else {
        rt_set(t, &row[6], "");
    }
    if (k + 1 == s->n)
        latest_cell(t, &row[7], s);
    else
        rt_set(t, &row[7], "");
    rp_csv_str(cv, cf->label);
    rp_csv_str(cv, h->keys[p->point]);
    rp_csv_str(cv, h->whens[p->point]);
    rp_csv_str(cv, d->tests[s->test].name);
    rp_csv_str(cv, m->name);
    rp_csv_str(cv, m->unit);
    rp_csv_str(cv, m->dir < 0 ? "lower" : "higher");
    rp_csv_num(cv, p->mean);
    rp_csv_num(cv, p->se >= 0 ? p->se : NAN);
    rp_csv_int(cv, p->n);
    rp_csv_num(cv, !isnan(p->p) && p->base != 0
                       ? (p->mean - p->base) / fabs(p->base)
                       : NAN);
    rp_csv_num(cv, p->p);
    rp_csv_int(cv, p->step);
}

static void history_chart(struct rp_out *o, const struct rp_data *d,
                          const struct rp_history *h, size_t from, size_t to,
                          size_t num)
{
    const struct rp_hseries *s0 = &h->s[from];
    while (s0->reduced) /* the caller's group has a drawn series */
        s0++;
    const struct rp_metric *m = &d->metrics[s0->metric];
    struct rt_table t;
    rt_init(&t, 8);
    t.sortable = 1;
    rt_header(&t, 0, "Configuration", RT_LEFT);
    rt_header(&t, 1, "Run or date", RT_LEFT);
    rt_header(&t, 2, "Value", RT_RIGHT);
    rt_header(&t, 3, "± SE", RT_RIGHT);
    rt_header(&t, 4, "n", RT_RIGHT);
    rt_header(&t, 5, "Against the points before", RT_RIGHT);
    rt_header(&t, 6, "Step", RT_LEFT);
    rt_header(&t, 7, "Latest against the previous", RT_LEFT);
    struct rc_xyline *lines = pb_xcalloc(to - from, sizeof(*lines));
    /* its data: exact, in canonical units */
    static const char *const head[] = {
        "config",    "point", "first_time",     "test", "metric", "unit",
        "direction", "value", "stderr",         "n",    "change", "p",
        "step"};
    struct rp_csv *cv = rp_csv_new(13, head);
    size_t nl = 0;
    for (size_t si = from; si < to; si++) {
        const struct rp_hseries *s = &h->s[si];
        if (s->reduced)
            continue;
        const struct rp_config *cf = &d->configs[s->config];
        double *x = pb_arena_alloc(&t.arena, s->n * sizeof(double));
        double *y = pb_arena_alloc(&t.arena, s->n * sizeof(double));
        double *e = pb_arena_alloc(&t.arena, s->n * sizeof(double));
        const char **pt = pb_arena_alloc(&t.arena, s->n * sizeof(*pt));
        for (size_t k = 0; k < s->n; k++) {
            const struct rp_hpoint *p = &h->pts[s->first + k];
            x[k] = (double)p->point + 1;
            y[k] = p->mean;
            e[k] = p->se;
            pt[k] = p->step ? rt_str(&t, "step %+.1f%%", p->change * 100) : "";
            point_row(&t, cv, d, h, m, s, p, k);
        }
        lines[nl].label = cf->label;
        lines[nl].color = cf->color;
        lines[nl].n = s->n;
        lines[nl].x = x;
        lines[nl].y = y;
        lines[nl].yerr = e;
        lines[nl].pt = pt;
        nl++;
    }
    char mt[96], title[400], stem[48];
    rp_metric_title(m->name, mt, sizeof(mt));
    snprintf(title, sizeof(title), "%s: %s over time", d->tests[s0->test].name,
             mt);
    rp_out_heading(o, 3, NULL, title);
    struct rc_xyspec xs = {0};
    xs.title = title;
    xs.subtitle = "a line per configuration, a point per run or day "
                  "(oldest first), whiskers ±SE";
    xs.xname = "run or date";
    xs.yname = mt;
    rp_unit_of("", "", &xs.xunit);
    xs.yunit = m->u;
    xs.lines = lines;
    xs.n = nl;
    xs.xcats = h->keys;
    xs.nxcats = h->nkeys;
    snprintf(stem, sizeof(stem), "history-%zu", num);
    rp_out_chart_data(o, cv);
    rp_out_chart(o, rc_xy(rp_out_fonts(o), &xs), stem);
    t.caption = rt_str(&t, "Data: %s", title);
    rp_out_table(o, &t);
    for (size_t i = 0; i < h->npairs; i++)
        if (h->pairs[i].test == s0->test && h->pairs[i].metric == s0->metric &&
            h->pairs[i].nseries > nl) {
            char note[300];
            snprintf(note, sizeof(note),
                     "Lines of the first %zu of the %zu configurations with "
                     "a history of this test (the report's order); the "
                     "steps of all are under Warnings. Narrow the report "
                     "with --config for the others.",
                     nl, h->pairs[i].nseries);
            rp_out_para(o, "note", note);
        }
    free(lines);
}

int rp_has_history(const struct rp_data *d)
{
    return d->history && (d->history->ns > 0 || d->history->nhidden > 0);
}

void rp_section_history(struct rp_out *o, const struct rp_data *d)
{
    if (!rp_has_history(d))
        return;
    const struct rp_history *h = d->history;
    rp_out_raw(o, "<section id=\"history\">\n");
    rp_out_heading(o, 2, NULL, "History");
    rp_out_para(o, "lead",
                "The same configuration and test across runs (poolbench "
                "run) or days, oldest first: the day a file says it was "
                "made (fio's timestamp or job line, PTS's TimeStamp, "
                "iozone's Run began), else its modification time, else "
                "when it was "
                "ingested (hover a date). A step is a point that differs "
                "from the points before it (since the last step) by "
                "Welch's t-test at p < 0.05; the latest point is also "
                "judged against the previous one alone, as compare judges "
                "two configurations. Single runs (n < 2) are never called "
                "a step or a change.");
    size_t charts = 0;
    for (size_t i = 0; i < h->ns && charts < RP_HIST_CHARTS;) {
        size_t j = i, drawn = 0;
        while (j < h->ns && h->s[j].test == h->s[i].test &&
               h->s[j].metric == h->s[i].metric)
            drawn += !h->s[j++].reduced;
        if (drawn) /* else not drawn: its steps alone were kept */
            history_chart(o, d, h, i, j, ++charts);
        i = j;
    }
    if (charts == RP_HIST_CHARTS)
        rp_out_para(o, "note",
                    "More tests have a history than are drawn "
                    "here: narrow the report with --test or "
                    "--metric.");
    rp_out_raw(o, "</section>\n");
}
