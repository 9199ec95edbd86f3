/* The report's overview sections: configurations, best configuration per
 * test and ranking (report.c writes the page around them; the sweeps:
 * report_sweeps.c). */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== helpers ==== */

const char *rp_group_metric_title(const struct rp_data *d, size_t m, char *buf,
                                  size_t n)
{
    const struct rp_metric *mt = &d->metrics[m];
    rp_metric_title(mt->name, buf, n);
    /* PTS results are one "value" in the result's own unit: name the unit */
    if (!strcmp(mt->name, "value") && mt->unit && mt->unit[0]) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, " (%s)", mt->unit);
    }
    return buf;
}

/* "rw=randread · bs=4k · iodepth=64" */
char *rp_params_text(const struct rp_kv *kv, size_t n)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    for (size_t i = 0; i < n; i++) {
        char tmp[64];
        pb_buf_printf(&b, "%s%s=%s", i ? " · " : "", kv[i].key,
                      rp_param_text(kv[i].key, kv[i].value, tmp, sizeof(tmp)));
    }
    return pb_buf_take(&b);
}

/* % of the best, direction-aware (best = 100). */
double rp_pct_of_best(double v, double best, int dir)
{
    if (dir < 0)
        return v > 0 ? best / v * 100 : NAN;
    return best != 0 ? v / best * 100 : NAN;
}

void rp_config_cell(struct rt_table *t, struct rt_cell *c,
                    const struct rp_config *cf)
{
    rt_set(t, c, cf->label);
    c->has_swatch = 1;
    c->swatch = cf->color;
    c->sortv = (double)cf->rank;
    c->has_sortv = 1;
}

void rp_value_cells(struct rt_table *t, struct rt_cell *row, size_t at,
                    const struct rp_data *d, const struct rp_unit *u,
                    const struct rp_cell *c)
{
    char buf[96];
    if (!c->has_value) {
        const char *r = c->reason ? rp_cell_reason(d, c) : "no value";
        rt_set(t, &row[at], strstr(r, "+++++") ? "+++++" : "n/a");
        row[at].title = rt_str(t, "%s", r);
        row[at].style = RT_MUTED;
        return;
    }
    rt_setv(t, &row[at], rp_fmt(u, c->mean, buf, sizeof(buf)), c->mean);
    if (c->se >= 0)
        rt_setv(t, &row[at + 1], rp_fmt_se_ci(u, c, buf, sizeof(buf)), c->se);
    else
        rt_set(t, &row[at + 1], "");
    rt_setv(t, &row[at + 2], rp_int(c->n, buf, sizeof(buf)), (double)c->n);
    rp_outlier_mark(t, &row[at + 2], c);
}

/* ==== header and overview ==== */

static int source_shown(const struct rp_data *d, long long id)
{
    for (size_t i = 0; i < d->nsources; i++)
        if (d->sources[i].id == id)
            return d->sources[i].used;
    return 0;
}

const char *rp_default_title(const struct rp_data *d, struct pb_arena *a)
{
    /* a title the sources agree on (PTS results carry one) */
    const char *title = NULL;
    int agree = 1;
    for (size_t i = 0; i < d->nfacts && agree; i++) {
        const struct rp_fact *f = &d->facts[i];
        if (strcmp(f->key, "title") || !f->value[0] || f->value[0] == '$' ||
            !source_shown(d, f->source_id))
            continue;
        if (title && strcmp(title, f->value))
            agree = 0;
        title = f->value;
    }
    if (title && agree)
        return title;
    if (d->used_sources == 1)
        for (size_t i = 0; i < d->nsources; i++)
            if (d->sources[i].used) {
                const char *p = d->sources[i].path;
                const char *slash = strrchr(p, '/');
                return pb_arena_printf(a, "Benchmark report: %s",
                                       slash ? slash + 1 : p);
            }
    return pb_arena_printf(a, "Benchmark report: %zu configurations, %zu tests",
                           d->used_configs, d->used_tests);
}

/* Kind of an origin ("sheet" of "sheet: hosts.csv:3"); "parser" for
 * NULL. */
static const char *origin_kind(const char *origin, char *buf, size_t n)
{
    if (!origin) /* into buf too: callers read buf */
        return rp_cat(buf, n, "parser", (const char *)NULL);
    const char *colon = strchr(origin, ':');
    size_t l = colon ? (size_t)(colon - origin) : strlen(origin);
    snprintf(buf, n, "%.*s", (int)(l < n ? l : n - 1), origin);
    return buf;
}

/* Where a config's dimensions came from, grouped by origin in the order
 * of each origin's first key: "sheet hosts.csv:3: disks, layout ·
 * parser: recordsize". Paths lose their folders and long details are
 * cut (the full text is in *title). NULL when every dimension is the
 * parser's. Arena strings. */
static const char *origins_text(struct rt_table *t, const struct rp_config *cf,
                                const char **title)
{
    int any = 0;
    for (size_t i = 0; i < cf->nparams && !any; i++)
        any = cf->params[i].origin != NULL;
    *title = NULL;
    if (!any)
        return NULL;
    struct pb_buf b = PB_BUF_INIT, tb = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    pb_buf_puts(&tb, "");
    for (size_t i = 0; i < cf->nparams; i++) {
        const char *oi = cf->params[i].origin;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const char *oj = cf->params[j].origin;
            seen = oi == oj || (oi && oj && !strcmp(oi, oj));
        }
        if (seen)
            continue;
        char kind[32];
        origin_kind(oi, kind, sizeof(kind));
        const char *detail = oi && strchr(oi, ':') ? strchr(oi, ':') + 1 : "";
        while (*detail == ' ')
            detail++;
        if (!strcmp(kind, "sheet") || !strcmp(kind, "companion") ||
            !strcmp(kind, "path")) {
            const char *slash = strrchr(detail, '/');
            if (slash)
                detail = slash + 1;
        }
        size_t dl = pb_utf8_len((const unsigned char *)detail, strlen(detail));
        pb_buf_printf(&b, "%s%s", b.len ? " · " : "", kind);
        if (*detail && dl <= 40) {
            pb_buf_printf(&b, " %s", detail);
        } else if (*detail) {
            /* cut on a character boundary */
            size_t cut = 0, chars = 0;
            while (detail[cut] && chars < 39) {
                cut++;
                while ((detail[cut] & 0xc0) == 0x80)
                    cut++;
                chars++;
            }
            pb_buf_printf(&b, " %.*s…", (int)cut, detail);
        }
        pb_buf_puts(&b, ":");
        pb_buf_printf(&tb, "%s%s:", tb.len ? "\n" : "", oi ? oi : "parser");
        for (size_t j = i; j < cf->nparams; j++) {
            const char *oj = cf->params[j].origin;
            if (oi == oj || (oi && oj && !strcmp(oi, oj))) {
                pb_buf_printf(&b, " %s", cf->params[j].key);
                pb_buf_printf(&tb, " %s", cf->params[j].key);
            }
        }
    }
    const char *r = rt_str(t, "%s", pb_buf_str(&b));
    *title = rt_str(t, "%s", pb_buf_str(&tb));
    pb_buf_release(&b);
    pb_buf_release(&tb);
    return r;
}

void rp_section_configs(struct rp_out *o, const struct rp_data *d)
{
    /* the origin column only when some dimension has another origin than
     * the parser */
    int origins = 0;
    for (size_t i = 0; i < d->nconfigs && !origins; i++)
        for (size_t k = 0; d->configs[i].used && k < d->configs[i].nparams; k++)
            origins |= d->configs[i].params[k].origin != NULL;
    size_t oc = origins ? 1 : 0;
    struct rt_table t;
    rt_init(&t, 4 + oc);
    t.caption = "Configurations (colours are the same in every chart)";
    t.sortable = 1;
    t.fold = d->used_configs > 24;
    rt_header(&t, 0, "Configuration", RT_LEFT);
    rt_header(&t, 1, "Parameters", RT_LEFT);
    if (origins) {
        rt_header(&t, 2, "Where the parameters came from", RT_LEFT);
        t.note =
            "Where the parameters came from: parser = the result file's own "
            "fields; command = a zpool, zfs or hdparm command pasted in the "
            "file (its line); label = a label rule; title = the note's title "
            "line; path = the file or folder name; set = --set on the "
            "command line; sheet = a configuration sheet (ingest --configs), "
            "file:line; companion = a zpool status, zpool get or zfs get "
            "output ingested with --label. Hover a cell for the full "
            "origin.";
    }
    rt_header(&t, 2 + oc, "Tests", RT_RIGHT);
    rt_header(&t, 3 + oc, "Values", RT_RIGHT);
    size_t nshow =
        d->used_configs < RP_MANY_ROWS ? d->used_configs : RP_MANY_ROWS;
    /* the rows shown, by rank (of 100,000 machines, 1,000) */
    const struct rp_config **byrank = pb_xcalloc(nshow + 1, sizeof(*byrank));
    for (size_t i = 0; i < d->nconfigs; i++)
        if (d->configs[i].used && d->configs[i].rank < nshow)
            byrank[d->configs[i].rank] = &d->configs[i];
    if (nshow < d->used_configs)
        t.note = rt_str(&t,
                        "%zu more configurations are not listed here; "
                        "'poolbench list configs' lists them all, and "
                        "%s has the parameters of every result.%s%s",
                        d->used_configs - nshow,
                        o->raw_whole ? "results.csv"
                                     : "the export command at the top",
                        t.note ? " " : "",
                        t.note ? t.note : "");
    for (size_t r = 0; r < nshow; r++) {
        const struct rp_config *cf = byrank[r];
        struct rt_cell *row = rt_row(&t);
        rp_config_cell(&t, &row[0], cf);
        char *p = rp_params_text(cf->params, cf->nparams);
        rt_set(&t, &row[1], *p ? p : "–");
        if (!*p)
            row[1].style = RT_MUTED;
        free(p);
        if (origins) {
            const char *title;
            const char *ot = origins_text(&t, cf, &title);
            rt_set(&t, &row[2], ot ? ot : "parser");
            row[2].title = title;
            row[2].style = RT_MUTED;
        }
        rt_setv(&t, &row[2 + oc], rt_str(&t, "%zu", (size_t)cf->ntested),
                (double)cf->ntested);
        rt_setv(&t, &row[3 + oc], rt_str(&t, "%zu", (size_t)cf->nvals),
                (double)cf->nvals);
    }
    free(byrank);
    rp_out_table(o, &t);
}

const char *rp_verdict_word(enum rp_verdict v)
{
    switch (v) {
    case RP_V_ONLY:
        return "only one configuration";
    case RP_V_CLEAR:
        return "clear";
    case RP_V_OVERLAP:
        return "not distinguishable";
    case RP_V_UNJUDGED:
        return "not judged";
    case RP_V_TIE:
        return "tie";
    case RP_V_SPLIT:
        return "unclear";
    }
    return "";
}

const char *rp_best_verdict_text(const struct rp_best *b, char *buf, size_t n,
                                 unsigned char *style)
{
    const char *test = !strcmp(b->method, "mann-whitney") ? "Mann-Whitney"
                                                           : "Welch";
    const char *word = rp_verdict_word(b->verdict);
    switch (b->verdict) {
    case RP_V_CLEAR:
        *style = RT_GOOD;
        snprintf(buf, n, "%s: %s p = %.2g", word, test, b->p);
        break;
    case RP_V_OVERLAP:
        *style = RT_AMBER;
        snprintf(buf, n, "%s: %s p = %.2g", word, test, b->p);
        break;
    case RP_V_SPLIT:
        *style = RT_AMBER;
        snprintf(buf, n, "%s: the repeats favour the runner-up (%s p = %.2g)",
                 word, test, b->p);
        break;
    case RP_V_UNJUDGED:
        *style = RT_MUTED;
        snprintf(buf, n, "%s: %s", word, b->why ? b->why : "single run");
        break;
    case RP_V_ONLY:
        *style = RT_MUTED;
        snprintf(buf, n, "%s", word);
        break;
    case RP_V_TIE:
        *style = RT_AMBER;
        snprintf(buf, n, "%s", word);
        break;
    }
    return buf;
}

/* ctx of best_row: the table being filled */
struct best_rows {
    struct rp_out *o;
    const struct rp_data *d;
    const struct test_plan *pl;
    struct rt_table *t;
};

/* One row of the best table: the group's best, runner-up and verdict. */
static int best_row(void *ctx, const struct rp_group *g,
                    const struct rp_best *b)
{
    const struct best_rows *x = ctx;
    const struct rp_data *d = x->d;
    const struct test_plan *pl = x->pl;
    struct rp_out *o = x->o;
    struct rt_table *t = x->t;
    const struct rp_metric *m = &d->metrics[g->metric];
    const struct rp_cell *bc = &d->cells[b->best];
    struct rt_cell *row = rt_row(t);
    rt_set(t, &row[0], d->tests[g->test].name);
    size_t page = pl->page[g->test];
    row[0].href = page ? rt_str(t, "tests-%03zu.html#t-%zu", page,
                                d->tests[g->test].rank + 1)
                       : rt_str(t, "%s#t-%zu", rp_tests_at(o),
                                d->tests[g->test].rank + 1);
    row[0].sortv = (double)d->tests[g->test].rank;
    row[0].has_sortv = 1;
    char buf[96];
    rt_set(t, &row[1], rp_group_metric_title(d, g->metric, buf, sizeof(buf)));
    rp_config_cell(t, &row[2], &d->configs[bc->config]);
    rt_setv(t, &row[3], rp_fmt_pm(&m->u, bc->mean, bc->se, buf, sizeof(buf)),
            bc->mean);
    if (b->runner != SIZE_MAX) {
        const struct rp_cell *rc = &d->cells[b->runner];
        rp_config_cell(t, &row[4], &d->configs[rc->config]);
        row[4].title = rt_str(
            t, "%s", rp_fmt_pm(&m->u, rc->mean, rc->se, buf, sizeof(buf)));
        rt_setv(t, &row[5], rp_pct1("+", b->margin * 100, buf, sizeof(buf)),
                b->margin);
    } else {
        rt_set(t, &row[4], "–");
        rt_set(t, &row[5], "");
    }
    rt_set(t, &row[6],
           rp_best_verdict_text(b, buf, sizeof(buf), &row[6].style));
    return 0;
}

void rp_section_best(struct rp_out *o, const struct rp_data *d,
                     const struct test_plan *pl, const struct pb_an_samps *ss)
{
    struct rt_table t;
    rt_init(&t, 7);
    t.sortable = 1;
    rt_header(&t, 0, "Test", RT_LEFT);
    rt_header(&t, 1, "Metric", RT_LEFT);
    rt_header(&t, 2, "Best configuration", RT_LEFT);
    rt_header(&t, 3, "Value", RT_RIGHT);
    rt_header(&t, 4, "Runner-up", RT_LEFT);
    rt_header(&t, 5, "Margin", RT_RIGHT);
    rt_header(&t, 6, "Verdict", RT_LEFT);
    size_t single = 0;
    struct best_rows x = {o, d, pl, &t};
    (void)rp_best_each(d, ss, best_row, &x, &single);
    if (t.nrows) {
        rp_out_heading(o, 3, "best", "Best configuration per test");
        t.note = rt_str(
            &t,
            "Margin: how much better the best configuration is than the "
            "runner-up (lower-is-better metrics: runner-up / best − 1). "
            "Verdict: the test poolbench compare uses, at the 0.05 level "
            "(Welch's t-test; Mann-Whitney when both hold enough stored "
            "repeats to reach that level, as 4 and 4); a single run on a "
            "side is not judged.%s",
            single ? rt_str(&t,
                            " %zu test/metric pair%s with a single "
                            "configuration %s left out.",
                            single, single == 1 ? "" : "s",
                            single == 1 ? "is" : "are")
                   : "");
        if (o->split)
            rp_out_table_top(o, &t, "best", "Best configuration per test",
                             RP_INDEX_BEST);
        else
            rp_out_table(o, &t);
    } else {
        rt_release(&t);
    }
}

void rp_section_ranking(struct rp_out *o, const struct rp_data *d,
                        const struct rp_ranking *r)
{
    if (r->n < 2 || r->ngroups < 2)
        return;
    rp_out_heading(o, 3, "ranking", "Overall ranking (geometric mean)");
    struct rc_bar *bars = pb_xcalloc(r->n, sizeof(*bars));
    size_t nb = r->n < MAX_BARS ? r->n : MAX_BARS;
    for (size_t i = 0; i < nb; i++) {
        const struct rp_config *cf = &d->configs[r->e[i].config];
        bars[i].label = cf->label;
        bars[i].color = cf->color;
        bars[i].has_value = 1;
        bars[i].v = r->e[i].score * 100;
        bars[i].se = -1;
        bars[i].best = i == 0;
    }
    struct rc_barspec s = {0};
    char sub[200];
    snprintf(sub, sizeof(sub),
             "Score: geometric mean over %zu shared test%s of each value "
             "relative to the best (lower-is-better metrics inverted); 100%% "
             "= best everywhere",
             r->ngroups, r->ngroups == 1 ? "" : "s");
    s.title = "Overall ranking of configurations";
    s.subtitle = sub;
    s.unit.kind = RP_U_PCT;
    s.unit.raw = "%";
    s.dir = 1;
    s.bars = bars;
    s.n = nb;
    s.more = r->n - nb;
    rp_out_chart_data(o, rp_csv_ranking(d, r));
    rp_out_chart(o, rc_bars(o->f, &s), "ranking");
    free(bars);
    struct rt_table t;
    rt_init(&t, 4);
    t.sortable = 1;
    if (r->n > RP_MANY_LIMIT) { /* complete, folded (chart_many.c) */
        t.fold = 1;
        t.caption = rt_str(&t, "All %zu ranked configurations", r->n);
    }
    rt_header(&t, 0, "Rank", RT_RIGHT);
    rt_header(&t, 1, "Configuration", RT_LEFT);
    rt_header(&t, 2, "Score (% of best)", RT_RIGHT);
    rt_header(&t, 3, "Wins", RT_RIGHT);
    for (size_t i = 0; i < r->n; i++) {
        struct rt_cell *row = rt_row(&t);
        rt_setv(&t, &row[0], rt_str(&t, "%zu", i + 1), (double)i + 1);
        rp_config_cell(&t, &row[1], &d->configs[r->e[i].config]);
        rt_setv(&t, &row[2], rt_str(&t, "%.1f%%", r->e[i].score * 100),
                r->e[i].score);
        rt_setv(&t, &row[3], rt_str(&t, "%zu of %zu", r->e[i].wins, r->ngroups),
                (double)r->e[i].wins);
    }
    struct pb_buf note = PB_BUF_INIT;
    pb_buf_printf(&note,
                  "Computed over the %zu test/metric series that all %zu "
                  "ranked configurations have results in:",
                  r->ngroups, r->n);
    for (size_t i = 0; i < r->ngroups && i < 12; i++) {
        char buf[96];
        const struct rp_group *g = &d->groups[r->groups[i]];
        pb_buf_printf(&note, "%s %s (%s)", i ? ";" : "", d->tests[g->test].name,
                      rp_group_metric_title(d, g->metric, buf, sizeof(buf)));
    }
    if (r->ngroups > 12)
        pb_buf_printf(&note, "; and %zu more", r->ngroups - 12);
    pb_buf_puts(&note, ".");
    if (r->unranked)
        pb_buf_printf(&note,
                      " %zu configuration%s without results in all of them "
                      "%s not ranked.",
                      r->unranked, r->unranked == 1 ? "" : "s",
                      r->unranked == 1 ? "is" : "are");
    t.note = rt_str(&t, "%s", pb_buf_str(&note));
    pb_buf_release(&note);
    rp_out_table_paged(o, &t, "ranking-all", "Overall ranking");
}
