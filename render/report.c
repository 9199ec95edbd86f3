/* The report: index.html with its sections (overview, best configuration
 * per test, ranking, sweeps, one chart and table per test and metric, the
 * special tables), the charts/ folder, and optionally PNGs and a PDF. */
#define _POSIX_C_SOURCE 200809L
#include "render/render_int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BARS 40
/* rows of an "all metrics" table; the rest is for `poolbench export` */
#define MAX_ALL_ROWS 1000

/* A report whose "Results by test" would hold more charts than this puts
 * those sections on pages of their own (tests-001.html, ...) of at most
 * PAGE_CHARTS charts each, with the charts inline: one page of 4,000
 * charts and tables (a PTS file of 4,000 tests, 23 MB of HTML) does not
 * load in a browser in minutes, and 4,000 chart files cost more to create
 * than the rest of the report. */
#define PAGED_CHARTS 200
#define PAGE_CHARTS  100

/* Which test sections go on which page. */
struct test_plan {
    size_t *page;      /* by test index: 0 = index.html, else page number */
    size_t npages;     /* 0 = everything on index.html */
    size_t *first;     /* by page - 1: ordinal of its first section (0-based) */
    size_t *ntests;    /* by page - 1: its sections */
    size_t *firstt;    /* by page - 1: test index of its first section */
    size_t *lastt;     /* by page - 1: test index of its last section */
    size_t nsections;  /* tests with a section of their own */
    size_t ncharts;    /* their charts */
    size_t weight;     /* ncharts, and 1 per 100 rows of reduced tests */
};

struct rp_out {
    struct pb_buf html; /* index.html: what is not written yet */
    struct rp_file *index; /* index.html, written as it grows */
    struct pb_buf page; /* the test page being written */
    struct pb_buf *h;   /* where the primitives write: html or page */
    int inline_charts;  /* charts as <svg> in the page, not files */
    const char *title, *version, *timestamp; /* for the test pages */
    struct rp_dir *out; /* the report folder being written */
    int png;
    struct rp_pdf *pdf;
    struct rc_fonts *f;
    int has_iolat; /* an IOPS against latency section */
    int has_ts;    /* an Over time section (fio logs) */
    struct rp_csv *data; /* the next chart's data (rp_out_chart_data) */
    struct rp_lat *lat; /* latency distributions (latency.c); NULL: none */
    size_t nchart;
    struct pb_render_summary sum;
    struct pb_err *err;
    int rc;
};

/* ==== files ==== */

/* Write a file of the report (rel: "index.html", "charts/x.svg") into the
 * staging folder; the first error is kept in o->rc. */
static int write_file(struct rp_out *o, const char *rel, const char *data,
                      size_t len)
{
    int rc = rp_dir_write(o->out, rel, data, len, o->err);
    if (rc)
        o->rc = rc;
    return rc;
}

/* ==== output primitives ==== */

/* index.html is written as it grows, never held whole (the sections of
 * 10^6 results are 100 MB of HTML): each primitive first writes what the
 * page holds once that is 1 MiB. Nothing goes back into written text. */
#define INDEX_SPILL (1024 * 1024)

static void out_spill(struct rp_out *o)
{
    if (o->index && o->h == &o->html)
        rp_file_flush(o->index, &o->html, INDEX_SPILL);
}

void rp_out_file(struct rp_out *o, const char *rel, const char *data,
                 size_t len)
{
    write_file(o, rel, data, len);
}

void rp_out_raw(struct rp_out *o, const char *html)
{
    out_spill(o);
    pb_buf_puts(o->h, html);
}

void rp_out_heading(struct rp_out *o, int level, const char *id,
                    const char *text)
{
    out_spill(o);
    pb_buf_printf(o->h, "<h%d", level);
    if (id) {
        pb_buf_puts(o->h, " id=\"");
        rp_esc(o->h, id);
        pb_buf_putc(o->h, '"');
    }
    pb_buf_putc(o->h, '>');
    rp_esc(o->h, text);
    pb_buf_printf(o->h, "</h%d>\n", level);
    if (o->pdf)
        rp_pdf_heading(o->pdf, level, text);
}

void rp_out_para(struct rp_out *o, const char *cls, const char *text)
{
    out_spill(o);
    pb_buf_puts(o->h, "<p");
    if (cls)
        pb_buf_printf(o->h, " class=\"%s\"", cls);
    pb_buf_putc(o->h, '>');
    rp_esc(o->h, text);
    pb_buf_puts(o->h, "</p>\n");
    if (o->pdf)
        rp_pdf_para(o->pdf, text);
}

struct rc_fonts *rp_out_fonts(struct rp_out *o)
{
    return o->f;
}

void rp_out_chart_data(struct rp_out *o, struct rp_csv *c)
{
    rp_csv_free(o->data);
    o->data = c;
}

void rp_out_chart(struct rp_out *o, struct pb_chart *c, const char *stem)
{
    out_spill(o);
    char slug[64];
    rp_slug(stem, slug, 56);
    o->nchart++;
    char *name = pb_xasprintf("%03zu-%s", o->nchart, slug);
    if (o->inline_charts) {
        pb_buf_puts(o->h, c->w > 1060 ? "<figure class=\"wide\">"
                                      : "<figure>");
        pb_chart_svg(c, o->h);
        o->sum.charts++;
    } else {
        struct pb_buf svg = PB_BUF_INIT;
        pb_chart_svg(c, &svg);
        char *path = pb_xasprintf("charts/%s.svg", name);
        if (write_file(o, path, svg.s, svg.len) == PB_OK)
            o->sum.charts++;
        free(path);
        pb_buf_release(&svg);
    }
    if (o->png && !o->rc) {
        /* cairo opens the file itself: in the staging folder, which is
         * ours alone (mode 0700), so no link can be planted there. */
        char *rel = pb_xasprintf("charts/%s.png", name);
        char *path = pb_xasprintf("%s/%s", rp_dir_stage(o->out), rel);
        if (pb_chart_write_png(c, path, 1.5, o->err) == PB_OK) {
            rp_dir_add(o->out, rel);
            o->sum.pngs++;
        } else {
            o->rc = PB_EIO;
        }
        if (o->rc) /* name the file the user asked for, not the stage */
            snprintf(o->err->path, sizeof(o->err->path), "%s/%s",
                     rp_dir_path(o->out), rel);
        free(path);
        free(rel);
    }
    if (!o->inline_charts) {
        pb_buf_printf(o->h,
                      "<figure%s><a href=\"charts/%s.svg\"><img "
                      "src=\"charts/%s.svg\" width=\"%.0f\" "
                      "height=\"%.0f\" alt=\"",
                      c->w > 1060 ? " class=\"wide\"" : "", name, name, c->w,
                      c->h);
        rp_esc(o->h, c->title ? c->title : "chart");
        pb_buf_puts(o->h, "\"></a>");
    }
    if (o->data && !o->rc && rp_csv_put(o->data, o->out, name, o->h, o->err))
        o->rc = PB_EIO;
    rp_out_chart_data(o, NULL);
    pb_buf_puts(o->h, "</figure>\n");
    if (c->clamped)
        rp_out_para(o, "note",
                    "Some values of this chart are beyond what a chart can "
                    "draw; they are drawn at its edge. The table has the "
                    "exact numbers.");
    if (o->pdf)
        rp_pdf_chart(o->pdf, c);
    free(name);
    pb_chart_free(c);
}

void rp_out_table(struct rp_out *o, struct rt_table *t)
{
    out_spill(o);
    rt_html(t, o->h);
    if (o->pdf)
        rp_pdf_table(o->pdf, t);
    o->sum.tables++;
    rt_release(t);
}

/* ==== helpers ==== */

static const char *metric_title(const struct rp_data *d, size_t m, char *buf,
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
static char *params_text(const struct rp_kv *kv, size_t n)
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
static double pct_of_best(double v, double best, int dir)
{
    if (dir < 0)
        return v > 0 ? best / v * 100 : NAN;
    return best != 0 ? v / best * 100 : NAN;
}

static void config_cell(struct rt_table *t, struct rt_cell *c,
                        const struct rp_config *cf)
{
    rt_set(t, c, cf->label);
    c->has_swatch = 1;
    c->swatch = cf->color;
    c->sortv = (double)cf->rank;
    c->has_sortv = 1;
}

static void value_cells(struct rt_table *t, struct rt_cell *row, size_t at,
                        const struct rp_unit *u, const struct rp_cell *c)
{
    char buf[96];
    if (!c->has_value) {
        const char *r = c->null_reason ? c->null_reason : "no value";
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

static const char *default_title(const struct rp_data *d, struct pb_arena *a)
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

static void section_configs(struct rp_out *o, const struct rp_data *d)
{
    /* the origin column only when some dimension has another origin than
     * the parser */
    int origins = 0;
    for (size_t i = 0; i < d->nconfigs && !origins; i++)
        for (size_t k = 0; d->configs[i].used && k < d->configs[i].nparams;
             k++)
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
    size_t *ntests = pb_xcalloc(d->nconfigs + 1, sizeof(size_t));
    size_t *nvals = pb_xcalloc(d->nconfigs + 1, sizeof(size_t));
    size_t *lastt = pb_xcalloc(d->nconfigs + 1, sizeof(size_t));
    for (size_t i = 0; i < d->nconfigs; i++)
        lastt[i] = SIZE_MAX;
    for (size_t i = 0; i < d->ncells; i++) {
        const struct rp_cell *c = &d->cells[i];
        nvals[c->config]++;
        if (lastt[c->config] != c->test) {
            lastt[c->config] = c->test;
            ntests[c->config]++;
        }
    }
    const struct rp_config **byrank =
        pb_xcalloc(d->used_configs + 1, sizeof(*byrank));
    for (size_t i = 0; i < d->nconfigs; i++)
        if (d->configs[i].used)
            byrank[d->configs[i].rank] = &d->configs[i];
    size_t nshow = d->used_configs < RP_MANY_ROWS ? d->used_configs
                                                  : RP_MANY_ROWS;
    if (nshow < d->used_configs)
        t.note = rt_str(&t,
                        "%zu more configurations are not listed here; "
                        "'poolbench list configs' lists them all, and "
                        "results.csv has the parameters of every result.%s%s",
                        d->used_configs - nshow, t.note ? " " : "",
                        t.note ? t.note : "");
    for (size_t r = 0; r < nshow; r++) {
        const struct rp_config *cf = byrank[r];
        size_t ci = (size_t)(cf - d->configs);
        struct rt_cell *row = rt_row(&t);
        config_cell(&t, &row[0], cf);
        char *p = params_text(cf->params, cf->nparams);
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
        rt_setv(&t, &row[2 + oc], rt_str(&t, "%zu", ntests[ci]),
                (double)ntests[ci]);
        rt_setv(&t, &row[3 + oc], rt_str(&t, "%zu", nvals[ci]),
                (double)nvals[ci]);
    }
    free(byrank);
    free(ntests);
    free(nvals);
    free(lastt);
    rp_out_table(o, &t);
}

const char *rp_verdict_text(enum rp_verdict v, unsigned char *style)
{
    switch (v) {
    case RP_V_ONLY:
        *style = RT_MUTED;
        return "only one configuration";
    case RP_V_CLEAR:
        *style = RT_GOOD;
        return "clear: ±SE intervals apart";
    case RP_V_OVERLAP:
        *style = RT_AMBER;
        return "not distinguishable: ±SE intervals overlap";
    case RP_V_NOSE:
        *style = RT_MUTED;
        return "single runs: no SE to judge";
    case RP_V_TIE:
        *style = RT_AMBER;
        return "tie";
    }
    *style = 0;
    return "";
}

static int group_charted(const struct rp_data *d, const struct rp_group *g);

static void section_best(struct rp_out *o, const struct rp_data *d,
                         const struct test_plan *pl)
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
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!g->primary || !g->nvalued)
            continue;
        if (g->nvalued < 2) {
            single++;
            continue;
        }
        struct rp_best b;
        rp_best_of(d, g, &b);
        const struct rp_metric *m = &d->metrics[g->metric];
        const struct rp_cell *bc = &d->cells[b.best];
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], d->tests[g->test].name);
        size_t page = pl->page[g->test];
        row[0].href =
            page ? rt_str(&t, "tests-%03zu.html#t-%zu", page,
                          d->tests[g->test].rank + 1)
                 : rt_str(&t, "#t-%zu", d->tests[g->test].rank + 1);
        row[0].sortv = (double)d->tests[g->test].rank;
        row[0].has_sortv = 1;
        char buf[96];
        rt_set(&t, &row[1], metric_title(d, g->metric, buf, sizeof(buf)));
        config_cell(&t, &row[2], &d->configs[bc->config]);
        rt_setv(&t, &row[3],
                rp_fmt_pm(&m->u, bc->mean, bc->se, buf, sizeof(buf)), bc->mean);
        if (b.runner != SIZE_MAX) {
            const struct rp_cell *rc = &d->cells[b.runner];
            config_cell(&t, &row[4], &d->configs[rc->config]);
            row[4].title = rt_str(
                &t, "%s", rp_fmt_pm(&m->u, rc->mean, rc->se, buf, sizeof(buf)));
            rt_setv(&t, &row[5],
                    rp_pct1("+", b.margin * 100, buf, sizeof(buf)), b.margin);
        } else {
            rt_set(&t, &row[4], "–");
            rt_set(&t, &row[5], "");
        }
        rt_set(&t, &row[6], rp_verdict_text(b.verdict, &row[6].style));
    }
    if (t.nrows) {
        rp_out_heading(o, 3, "best", "Best configuration per test");
        t.note = rt_str(
            &t,
            "Margin: how much better the best configuration is than the "
            "runner-up (lower-is-better metrics: runner-up / best − 1). Two "
            "results are told apart only when their mean ± standard error "
            "intervals do not overlap; single runs carry no error estimate.%s",
            single ? rt_str(&t,
                            " %zu test/metric pair%s with a single "
                            "configuration %s left out.",
                            single, single == 1 ? "" : "s",
                            single == 1 ? "is" : "are")
                   : "");
        rp_out_table(o, &t);
    } else {
        rt_release(&t);
    }
}

static void section_ranking(struct rp_out *o, const struct rp_data *d,
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
        config_cell(&t, &row[1], &d->configs[r->e[i].config]);
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
                      metric_title(d, g->metric, buf, sizeof(buf)));
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
    rp_out_table(o, &t);
}

/* ==== sweeps ==== */

static const char *dim_name(const struct rp_dim *dm)
{
    return dm->kind == RP_DIM_LABEL ? "configuration" : dm->key;
}

/* The workload of a panel as a user names it: the test's name when the
 * panel holds one test ("fio randread bs=4k iodepth=4"), else the tool and
 * the workload parameters its tests share ("fio rw=randread bs=4k"); ""
 * when they share none. */
static void panel_workload(const struct rp_data *d, const struct rp_panel *p,
                           char *buf, size_t n)
{
    static const char *const keys[] = {"rw", "bs", "iodepth", "numjobs"};
    size_t t0 = SIZE_MAX;
    int one = 1;
    buf[0] = '\0';
    for (size_t i = 0; i < p->nx * p->ns; i++) {
        if (p->grid[i] == SIZE_MAX)
            continue;
        size_t t = d->cells[p->grid[i]].test;
        if (t0 == SIZE_MAX)
            t0 = t;
        else if (t != t0)
            one = 0;
    }
    if (t0 == SIZE_MAX)
        return;
    const struct rp_test *ts = &d->tests[t0];
    if (one) {
        snprintf(buf, n, "%s", ts->name);
        return;
    }
    size_t len = (size_t)snprintf(buf, n, "%s", ts->tool ? ts->tool : "");
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && len < n; k++) {
        const char *v = rp_param(ts->params, ts->nparams, keys[k]);
        if (!v)
            continue;
        for (size_t i = 0; v && i < p->nx * p->ns; i++) {
            if (p->grid[i] == SIZE_MAX)
                continue;
            const struct rp_test *o = &d->tests[d->cells[p->grid[i]].test];
            const char *w = rp_param(o->params, o->nparams, keys[k]);
            if (!w || strcmp(v, w))
                v = NULL;
        }
        if (!v)
            continue;
        char tmp[64];
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "",
                                keys[k],
                                rp_param_text(keys[k], v, tmp, sizeof(tmp)));
    }
    if (!strchr(buf, '='))
        buf[0] = '\0';
}

static void sweep_panel(struct rp_out *o, const struct rp_data *d,
                        const struct rp_sweep *sw, const struct rp_panel *p,
                        const char *mtitle)
{
    const struct rp_metric *m = &d->metrics[sw->metric];
    size_t nx = p->nx, ns = p->ns;
    double *v = pb_xcalloc(nx * ns + 1, sizeof(double));
    double *se = pb_xcalloc(nx * ns + 1, sizeof(double));
    for (size_t i = 0; i < nx * ns; i++) {
        v[i] = NAN;
        se[i] = -1;
        if (p->grid[i] == SIZE_MAX)
            continue;
        const struct rp_cell *c = &d->cells[p->grid[i]];
        v[i] = c->mean;
        se[i] = c->se;
    }
    /* Workloads differ in scale: when one dimension is a test parameter and
     * the other a configuration, compare configurations per workload. */
    int xtest = sw->x.kind == RP_DIM_TEST;
    int stest = ns > 1 && sw->s.kind == RP_DIM_TEST;
    int norm = ns < 2              ? RC_NORM_ALL
               : (stest && !xtest) ? RC_NORM_ROW
               : (xtest && !stest) ? RC_NORM_COL
                                   : RC_NORM_ALL;
    char title[512], sub[512], wl[256];
    panel_workload(d, p, wl, sizeof(wl));
    snprintf(title, sizeof(title), "%s%s%s by %s%s%s", wl, wl[0] ? ": " : "",
             mtitle, dim_name(&sw->x), ns > 1 ? " and " : "",
             ns > 1 ? dim_name(&sw->s) : "");
    snprintf(sub, sizeof(sub), "%s%s%s is better", p->title,
             p->title[0] ? " · " : "", m->dir < 0 ? "lower" : "higher");
    struct rc_gridspec g = {0};
    g.title = title;
    g.subtitle = sub;
    g.xname = dim_name(&sw->x);
    g.sname = ns > 1 ? dim_name(&sw->s) : "";
    g.unit = m->u;
    g.dir = m->dir;
    g.xvals = p->xvals;
    g.svals = p->svals;
    g.scolors = p->scolors;
    g.nx = nx;
    g.ns = ns;
    g.v = v;
    g.se = se;
    g.norm = norm;
    char stem[200];
    snprintf(stem, sizeof(stem), "sweep-%s-%s-%s", m->name, dim_name(&sw->x),
             ns > 1 ? dim_name(&sw->s) : "");
    size_t *bests = pb_xcalloc(nx * ns + 1, sizeof(size_t));
    rc_grid_bests(&g, bests);
    /* the same data behind the grouped bars and the heatmap */
    if (ns <= 10 && nx * ns <= 240) {
        rp_out_chart_data(o, rp_csv_sweep(d, p, g.xname, g.sname, bests, v));
        rp_out_chart(o, rc_grouped(o->f, &g), stem);
    }
    if (ns >= 2) {
        rp_out_chart_data(o, rp_csv_sweep(d, p, g.xname, g.sname, bests, v));
        snprintf(stem, sizeof(stem), "heatmap-%s-%s-%s", m->name,
                 dim_name(&sw->x), dim_name(&sw->s));
        if (nx > ns) {
            /* the longer dimension down the rows: pages scroll down */
            struct rc_gridspec h = g;
            double *tv = pb_xcalloc(nx * ns + 1, sizeof(double));
            double *ts = pb_xcalloc(nx * ns + 1, sizeof(double));
            for (size_t si = 0; si < ns; si++)
                for (size_t xi = 0; xi < nx; xi++) {
                    tv[xi * ns + si] = v[si * nx + xi];
                    ts[xi * ns + si] = se[si * nx + xi];
                }
            h.nx = ns;
            h.ns = nx;
            h.xvals = g.svals;
            h.svals = g.xvals;
            h.xname = g.sname;
            h.sname = g.xname;
            h.v = tv;
            h.se = ts;
            h.norm = g.norm == RC_NORM_ROW   ? RC_NORM_COL
                     : g.norm == RC_NORM_COL ? RC_NORM_ROW
                                             : RC_NORM_ALL;
            rp_out_chart(o, rc_heatmap(o->f, &h), stem);
            free(tv);
            free(ts);
        } else {
            rp_out_chart(o, rc_heatmap(o->f, &g), stem);
        }
    }
    struct rt_table t;
    rt_init(&t, 8);
    t.sortable = 1;
    t.fold = nx * ns > 12;
    if (norm != RC_NORM_ALL)
        t.note = norm == RC_NORM_ROW
                     ? rt_str(&t, "%% of best: within the same %s.",
                              dim_name(&sw->s))
                     : rt_str(&t, "%% of best: within the same %s.",
                              dim_name(&sw->x));
    t.caption = rt_str(&t, "Data: %s", title);
    rt_header(&t, 0, ns > 1 ? dim_name(&sw->s) : "series", RT_LEFT);
    rt_header(&t, 1, dim_name(&sw->x), RT_LEFT);
    rt_header(&t, 2, "Value", RT_RIGHT);
    rt_header(&t, 3, "± SE", RT_RIGHT);
    rt_header(&t, 4, "n", RT_RIGHT);
    rt_header(&t, 5, "% of best", RT_RIGHT);
    rt_header(&t, 6, rt_str(&t, "Exact (%s)", m->unit), RT_RIGHT);
    rt_header(&t, 7, "Configuration / test", RT_LEFT);
    for (size_t si = 0; si < ns; si++)
        for (size_t xi = 0; xi < nx; xi++) {
            size_t ci = p->grid[si * nx + xi];
            if (ci == SIZE_MAX)
                continue;
            const struct rp_cell *c = &d->cells[ci];
            struct rt_cell *row = rt_row(&t);
            rt_setv(&t, &row[0], p->svals[si], (double)si);
            row[0].has_swatch = 1;
            row[0].swatch = p->scolors[si];
            rt_setv(&t, &row[1], p->xvals[xi], (double)xi);
            value_cells(&t, row, 2, &m->u, c);
            size_t k = si * nx + xi, bk = bests[k];
            double bestv = bk != SIZE_MAX ? v[bk] : c->mean;
            double pc = pct_of_best(c->mean, bestv, m->dir);
            char pcs[64];
            rt_setv(&t, &row[5], rp_pct1("", pc, pcs, sizeof(pcs)), pc);
            if (bk != SIZE_MAX && v[k] == v[bk])
                row[5].style = RT_BOLD;
            char num[40];
            rt_setv(&t, &row[6], rp_num(c->mean, num, sizeof(num)),
                    c->mean);
            row[6].style = RT_MONO;
            rt_set(&t, &row[7],
                   rt_str(&t, "%s — %s", d->configs[c->config].label,
                          d->tests[c->test].name));
            row[7].style = RT_MUTED;
        }
    rp_out_table(o, &t);
    free(bests);
    free(v);
    free(se);
}

static void section_sweeps(struct rp_out *o, const struct rp_data *d,
                           const struct rp_sweeps *sws)
{
    if (!sws->n)
        return;
    rp_out_raw(o, "<section id=\"sweeps\">\n");
    rp_out_heading(o, 2, NULL, "Sweeps");
    rp_out_para(o, "lead",
                "Results that vary along configuration or test dimensions, "
                "drawn as grouped bars (one group per value on the x axis, "
                "one bar per series value) and as a heatmap with the numbers "
                "in the cells. Darker is better; the best cell is outlined.");
    for (size_t i = 0; i < sws->n; i++) {
        const struct rp_sweep *sw = &sws->v[i];
        char mt[96], head[300], id[40];
        metric_title(d, sw->metric, mt, sizeof(mt));
        int two = sw->panels[0].ns > 1;
        snprintf(head, sizeof(head), "%s by %s%s%s", mt, dim_name(&sw->x),
                 two ? " and " : "", two ? dim_name(&sw->s) : "");
        snprintf(id, sizeof(id), "sweep-%zu", i + 1);
        rp_out_heading(o, 3, id, head);
        for (size_t k = 0; k < sw->npanels; k++) {
            const struct rp_panel *p = &sw->panels[k];
            if (p->title[0] && sw->npanels > 1)
                rp_out_heading(o, 4, NULL, p->title);
            sweep_panel(o, d, sw, p, mt);
        }
        if (sw->omitted) {
            char buf[160];
            snprintf(buf, sizeof(buf),
                     "%zu more combinations of the other dimensions are not "
                     "drawn; narrow the report with --test or --config.",
                     sw->omitted);
            rp_out_para(o, "note", buf);
        }
    }
    rp_out_raw(o, "</section>\n");
}

/* ==== tests ==== */

/* Does the group get its own chart here, or is it drawn in a sweep? */
static int group_charted(const struct rp_data *d, const struct rp_group *g)
{
    if (!g->chart || !g->nvalued)
        return 0;
    /* one bonnie++ machine: its numbers are in the bonnie++ table */
    if (g->nvalued == 1 && rp_metric_in_special(d->metrics[g->metric].name))
        return 0;
    /* one bar of a test drawn in a sweep adds nothing */
    if (g->nvalued == 1 && d->tests[g->test].swept)
        return 0;
    /* tests of one configuration: a row each in a compact table */
    return !d->tests[g->test].single;
}

/* Mark the tests whose every chart would have a single bar. */
static void mark_single(struct rp_data *d)
{
    for (size_t i = 0; i < d->ngroups;) {
        size_t j = i, bars = 0, multi = 0;
        struct rp_test *t = &d->tests[d->groups[i].test];
        t->single = 0;
        for (; j < d->ngroups && d->groups[j].test == d->groups[i].test; j++) {
            const struct rp_group *g = &d->groups[j];
            if (!group_charted(d, g))
                continue;
            bars++;
            multi |= g->nvalued > 1;
        }
        t->single = bars && !multi;
        i = j;
    }
}

/* The workload group of a test in the contents: "fio · randread". */
static const char *toc_group(const struct rp_test *t, char *buf, size_t n)
{
    const char *rw = rp_param(t->params, t->nparams, "rw");
    snprintf(buf, n, "%s%s%s", t->tool[0] ? t->tool : "other",
             rw ? " · " : "", rw ? rw : "");
    return buf;
}

/* A contents list of the tests with a section on `page` (every page when
 * all is set, linking to their pages), grouped by tool and workload, plus
 * the tests of one configuration. Plain HTML: the script adds a filter. */
static void tests_toc(struct rp_out *o, const struct rp_data *d,
                      const struct test_plan *pl, size_t page, int all)
{
    size_t *ts = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    char **gk = pb_xcalloc(d->ntests + 1, sizeof(char *));
    size_t n = 0, nsingle = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        size_t t = d->groups[gi].test;
        if (gi && d->groups[gi - 1].test == t)
            continue;
        if (d->tests[t].single) {
            nsingle++;
            continue;
        }
        int has = 0;
        for (size_t k = gi; k < d->ngroups && d->groups[k].test == t; k++)
            has |= group_charted(d, &d->groups[k]);
        if (!has || (!all && pl->page[t] != page))
            continue;
        char buf[160];
        gk[n] = pb_xstrdup(toc_group(&d->tests[t], buf, sizeof(buf)));
        ts[n++] = t;
    }
    if (n + nsingle < 2) {
        for (size_t i = 0; i < n; i++)
            free(gk[i]);
        free(gk);
        free(ts);
        return;
    }
    struct pb_buf *h = o->h;
    pb_buf_puts(h, "<nav class=\"toc\"><b>Tests on this page</b><ul>\n");
    unsigned char *done = pb_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t cnt = 0;
        for (size_t k = i; k < n; k++)
            cnt += !strcmp(gk[k], gk[i]);
        pb_buf_puts(h, "<li class=\"tg\"><span>");
        rp_esc(h, gk[i]);
        pb_buf_printf(h, "</span> <span class=\"m\">(%zu)</span><ul>\n", cnt);
        for (size_t k = i; k < n; k++) {
            if (done[k] || strcmp(gk[k], gk[i]))
                continue;
            done[k] = 1;
            const struct rp_test *t = &d->tests[ts[k]];
            size_t pg = pl->page[ts[k]];
            if (all && pg && pg != page)
                pb_buf_printf(h, "<li class=\"tl\"><a href=\"tests-%03zu.html"
                                 "#t-%zu\">", pg, t->rank + 1);
            else
                pb_buf_printf(h, "<li class=\"tl\"><a href=\"#t-%zu\">",
                              t->rank + 1);
            rp_esc(h, t->name);
            pb_buf_puts(h, "</a></li>\n");
        }
        pb_buf_puts(h, "</ul></li>\n");
    }
    if (nsingle && (all || !page))
        pb_buf_printf(h, "<li class=\"tg\"><a href=\"%s#t-single\">Tests "
                         "with one configuration</a> <span class=\"m\">"
                         "(%zu)</span></li>\n",
                      page ? "index.html" : "", nsingle);
    pb_buf_puts(h, "</ul></nav>\n");
    for (size_t i = 0; i < n; i++)
        free(gk[i]);
    free(gk);
    free(done);
    free(ts);
}

/* Tests of one configuration: one row per charted metric, no bar charts. */
static void single_table(struct rp_out *o, const struct rp_data *d)
{
    size_t nt = 0;
    for (size_t t = 0; t < d->ntests; t++)
        nt += d->tests[t].single;
    if (!nt)
        return;
    rp_out_heading(o, 3, "t-single", "Tests with one configuration");
    char buf[200];
    snprintf(buf, sizeof(buf),
             "%zu test%s one configuration: a bar chart of one bar says "
             "nothing a row does not.",
             nt, nt == 1 ? " has" : "s have");
    rp_out_para(o, "note", buf);
    struct rt_table t;
    rt_init(&t, 5);
    t.sortable = 1;
    t.id = "single-tests";
    rt_header(&t, 0, "Test", RT_LEFT);
    rt_header(&t, 1, "Configuration", RT_LEFT);
    rt_header(&t, 2, "Metric", RT_LEFT);
    rt_header(&t, 3, "Value", RT_RIGHT);
    rt_header(&t, 4, "n", RT_RIGHT);
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        const struct rp_test *ts = &d->tests[g->test];
        if (!ts->single || !g->chart || g->nvalued != 1)
            continue;
        const struct rp_cell *c = NULL;
        for (size_t i = g->first; i < g->first + g->n && !c; i++)
            if (d->cells[i].has_value)
                c = &d->cells[i];
        if (!c)
            continue;
        const struct rp_metric *m = &d->metrics[g->metric];
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], ts->name);
        row[0].sortv = (double)ts->rank;
        row[0].has_sortv = 1;
        config_cell(&t, &row[1], &d->configs[c->config]);
        char mt[96], v[96];
        rt_set(&t, &row[2], metric_title(d, g->metric, mt, sizeof(mt)));
        rt_setv(&t, &row[3], rp_fmt_pm(&m->u, c->mean, c->se, v, sizeof(v)),
                c->mean);
        rt_setv(&t, &row[4], rt_str(&t, "%ld", c->n), (double)c->n);
        rp_ci_title(&t, &row[3], &m->u, c);
        rp_outlier_mark(&t, &row[4], c);
    }
    rp_out_table(o, &t);
}

static void group_chart(struct rp_out *o, const struct rp_data *d,
                        const struct rp_group *g, size_t *order)
{
    const struct rp_metric *m = &d->metrics[g->metric];
    const struct rp_test *t = &d->tests[g->test];
    rp_order_cells(d, g, order);
    int many = g->n > RP_MANY_LIMIT; /* drawn by chart_many.c */
    size_t nb = many ? 0 : g->n < MAX_BARS ? g->n : MAX_BARS;
    struct rc_bar *bars = pb_xcalloc(nb + 1, sizeof(*bars));
    int any_se = 0;
    double bestv = g->nvalued ? d->cells[order[0]].mean : NAN;
    for (size_t i = 0; i < nb; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        const struct rp_config *cf = &d->configs[c->config];
        bars[i].label = cf->label;
        bars[i].color = cf->color;
        bars[i].has_value = c->has_value;
        bars[i].v = c->mean;
        bars[i].se = c->se;
        bars[i].best = c->has_value && c->mean == bestv && g->nvalued > 1;
        if (c->se > 0)
            any_se = 1;
        if (!c->has_value) {
            const char *r = c->null_reason ? c->null_reason : "no value";
            bars[i].note = r;
        }
    }
    char mt[96], sub[300], title[400];
    metric_title(d, g->metric, mt, sizeof(mt));
    snprintf(title, sizeof(title), "%s: %s", t->name, mt);
    snprintf(sub, sizeof(sub), "%s is better%s%s",
             m->dir < 0 ? "lower" : "higher",
             any_se ? " · whiskers: ± standard error" : "",
             g->nvalued > 1 ? " · ★ best" : "");
    struct rc_barspec s = {0};
    s.title = title;
    s.subtitle = sub;
    s.unit = m->u;
    s.dir = m->dir;
    s.bars = bars;
    s.n = nb;
    s.more = g->n - nb;
    char stem[200], s1[40], s2[40];
    snprintf(stem, sizeof(stem), "%s-%s", rp_slug(t->name, s1, 34),
             rp_slug(m->name, s2, 20));
    rp_out_chart_data(o, rp_csv_bars(d, g, order));
    size_t shown = 0;
    rp_out_chart(o,
                 many ? rp_many_chart(o->f, d, g, order, title, &shown)
                      : rc_bars(o->f, &s),
                 stem);
    free(bars);
    if (many)
        rp_out_para(o, "note",
                    rp_cat(sub, sizeof(sub), rp_int((long long)shown, s1, 40),
                           " of ", rp_int((long long)g->n, s2, 40),
                           " configurations shown; all in the table below "
                           "and in the CSV",
                           NULL));

    if (many)
        return; /* one table for the test's reduced charts: rp_many_table */
    struct rt_table tb;
    rt_init(&tb, 7);
    tb.sortable = 1;
    rt_header(&tb, 0, "#", RT_RIGHT);
    rt_header(&tb, 1, "Configuration", RT_LEFT);
    rt_header(&tb, 2, mt, RT_RIGHT);
    rt_header(&tb, 3, "± SE", RT_RIGHT);
    rt_header(&tb, 4, "n", RT_RIGHT);
    rt_header(&tb, 5, "% of best", RT_RIGHT);
    rt_header(&tb, 6, rt_str(&tb, "Exact (%s)", m->unit), RT_RIGHT);
    for (size_t i = 0; i < g->n; i++) {
        const struct rp_cell *c = &d->cells[order[i]];
        struct rt_cell *row = rt_row(&tb);
        char txt[64];
        rt_setv(&tb, &row[0], rp_int((long long)i + 1, txt, sizeof(txt)),
                (double)i + 1);
        config_cell(&tb, &row[1], &d->configs[c->config]);
        value_cells(&tb, row, 2, &m->u, c);
        if (c->has_value) {
            double pc = pct_of_best(c->mean, bestv, m->dir);
            rt_setv(&tb, &row[5],
                    isnan(pc) ? "" : rp_pct1("", pc, txt, sizeof(txt)),
                    isnan(pc) ? 0 : pc);
            char num[40];
            rt_setv(&tb, &row[6], rp_num(c->mean, num, sizeof(num)),
                    c->mean);
            row[6].style = RT_MONO;
            if (c->mean == bestv) {
                row[1].style = RT_BOLD;
                row[2].style = RT_BOLD;
            }
        }
    }
    rp_out_table(o, &tb);
}

/* Every metric of the given tests in one folded table. */
static void all_metrics_table(struct rp_out *o, const struct rp_data *d,
                              size_t g0, size_t g1, const unsigned char *pick,
                              const char *caption, int with_test)
{
    struct rt_table t;
    size_t nc = with_test ? 8 : 7, k = 0;
    rt_init(&t, nc);
    t.sortable = 1;
    t.fold = 1;
    t.caption = caption;
    if (with_test)
        rt_header(&t, k++, "Test", RT_LEFT);
    rt_header(&t, k++, "Metric", RT_LEFT);
    rt_header(&t, k++, "Configuration", RT_LEFT);
    rt_header(&t, k++, "Value", RT_RIGHT);
    rt_header(&t, k++, "± SE", RT_RIGHT);
    rt_header(&t, k++, "n", RT_RIGHT);
    rt_header(&t, k++, "Exact", RT_RIGHT);
    rt_header(&t, k++, "Unit", RT_LEFT);
    size_t left = 0;
    for (size_t gi = g0; gi < g1; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (pick && !pick[g->test])
            continue;
        const struct rp_metric *m = &d->metrics[g->metric];
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct rp_cell *c = &d->cells[i];
            if (t.nrows >= MAX_ALL_ROWS) {
                left++;
                continue;
            }
            struct rt_cell *row = rt_row(&t);
            k = 0;
            if (with_test)
                rt_set(&t, &row[k++], d->tests[g->test].name);
            rt_set(&t, &row[k++], m->name);
            row[k - 1].style = RT_MONO;
            config_cell(&t, &row[k++], &d->configs[c->config]);
            value_cells(&t, row, k, &m->u, c);
            k += 3;
            if (c->has_value) {
                char num[40];
                rt_setv(&t, &row[k], rp_num(c->mean, num, sizeof(num)),
                        c->mean);
                row[k].style = RT_MONO;
            }
            k++;
            rt_set(&t, &row[k], m->unit);
        }
    }
    if (left)
        t.note = rt_str(&t,
                        "%zu more values are not listed here; 'poolbench "
                        "export --csv' writes them all.",
                        left);
    rp_out_table(o, &t);
}

/* Which tests get a section of their own, and on which page. */
static void plan_tests(const struct rp_data *d, struct test_plan *pl)
{
    memset(pl, 0, sizeof(*pl));
    pl->page = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *nch = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    /* a test with reduced charts (chart_many.c) weighs one chart more per
     * 100 rows of its tables, so that its page stays a few MB */
    size_t *rows = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t *cells = pb_xcalloc(d->ntests + 1, sizeof(size_t));
    size_t weight = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        cells[g->test] += g->n;
        if (group_charted(d, g)) {
            size_t t = g->test;
            if (!nch[t]++)
                pl->nsections++;
            pl->ncharts++;
            if (g->n > RP_MANY_LIMIT && g->n > rows[t])
                rows[t] = g->n;
        }
    }
    for (size_t t = 0; t < d->ntests; t++) {
        if (rows[t])
            nch[t] += (rows[t] + (cells[t] < MAX_ALL_ROWS ? cells[t]
                                                          : MAX_ALL_ROWS)) /
                      100;
        weight += nch[t];
    }
    free(rows);
    free(cells);
    pl->weight = weight;
    if (pl->ncharts > PAGED_CHARTS || weight > PAGED_CHARTS) {
        size_t cap = pl->nsections + 1;
        pl->first = pb_xcalloc(cap, sizeof(size_t));
        pl->ntests = pb_xcalloc(cap, sizeof(size_t));
        pl->firstt = pb_xcalloc(cap, sizeof(size_t));
        pl->lastt = pb_xcalloc(cap, sizeof(size_t));
        size_t on_page = 0, ord = 0;
        /* groups are in test order: visit each test once */
        for (size_t gi = 0; gi < d->ngroups; gi++) {
            size_t t = d->groups[gi].test;
            if (!nch[t] || (gi && d->groups[gi - 1].test == t))
                continue;
            if (!pl->npages || on_page + nch[t] > PAGE_CHARTS) {
                pl->first[pl->npages] = ord;
                pl->firstt[pl->npages] = t;
                pl->npages++;
                on_page = 0;
            }
            on_page += nch[t];
            pl->page[t] = pl->npages;
            pl->ntests[pl->npages - 1]++;
            pl->lastt[pl->npages - 1] = t;
            ord++;
        }
    }
    free(nch);
}

static void plan_release(struct test_plan *pl)
{
    free(pl->page);
    free(pl->first);
    free(pl->ntests);
    free(pl->firstt);
    free(pl->lastt);
    memset(pl, 0, sizeof(*pl));
}

static void test_page_begin(struct rp_out *o, const struct rp_data *d,
                            const struct test_plan *pl, size_t page);
static void test_page_end(struct rp_out *o, const struct test_plan *pl,
                          size_t page);

/* The index's part of a paged "Results by test": why, and the pages. */
static void tests_index(struct rp_out *o, const struct rp_data *d,
                        const struct test_plan *pl)
{
    struct pb_buf *h = &o->html;
    pb_buf_printf(h,
                  "<p class=\"note\">%zu tests have charts of their own "
                  "(%zu charts%s): too many for one page, which a browser "
                  "takes "
                  "minutes to open. Their sections (charts, drawn inline, and "
                  "tables, as a smaller report shows them here) are on the "
                  "%zu pages below, at most %d charts each. Everything else "
                  "is on this page.</p>\n<ol class=\"pages\">\n",
                  pl->nsections, pl->ncharts,
                  pl->weight > pl->ncharts
                      ? "; a test of more than 40 configurations counts one "
                        "more per 100 rows of its tables"
                      : "",
                  pl->npages, PAGE_CHARTS);
    for (size_t p = 0; p < pl->npages; p++) {
        pb_buf_printf(h,
                      "<li><a href=\"tests-%03zu.html\">tests %zu–%zu</a> "
                      "<span class=\"m\">",
                      p + 1, pl->first[p] + 1, pl->first[p] + pl->ntests[p]);
        rp_esc(h, d->tests[pl->firstt[p]].name);
        if (pl->ntests[p] > 1) {
            pb_buf_puts(h, " … ");
            rp_esc(h, d->tests[pl->lastt[p]].name);
        }
        pb_buf_puts(h, "</span></li>\n");
    }
    pb_buf_puts(h, "</ol>\n");
}

static void section_tests(struct rp_out *o, const struct rp_data *d,
                          const struct test_plan *pl)
{
    size_t maxn = 1;
    for (size_t gi = 0; gi < d->ngroups; gi++)
        if (d->groups[gi].n > maxn)
            maxn = d->groups[gi].n;
    size_t *order = pb_xcalloc(maxn, sizeof(size_t));
    unsigned char *swept = pb_xcalloc(d->ntests + 1, 1);
    size_t nswept = 0, cur_page = 0;
    int opened = 0;
    for (size_t i = 0; i < d->ngroups;) {
        size_t j = i;
        int charted = 0, other = 0;
        while (j < d->ngroups && d->groups[j].test == d->groups[i].test) {
            const struct rp_group *g = &d->groups[j];
            int special = rp_metric_in_special(d->metrics[g->metric].name);
            if (group_charted(d, g))
                charted = 1;
            else if (!special)
                other = 1;
            j++;
        }
        const struct rp_test *t = &d->tests[d->groups[i].test];
        if (t->single && !opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            if (pl->npages)
                tests_index(o, d, pl);
            tests_toc(o, d, pl, 0, pl->npages > 0);
            opened = 1;
        }
        if (!charted) {
            /* drawn only in sweeps, or only in the special tables */
            if (other) {
                swept[d->groups[i].test] = 1;
                nswept++;
            }
            i = j;
            continue;
        }
        if (!opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            if (pl->npages)
                tests_index(o, d, pl);
            tests_toc(o, d, pl, 0, pl->npages > 0);
            opened = 1;
        }
        size_t page = pl->page[d->groups[i].test];
        if (page != cur_page) {
            if (cur_page)
                test_page_end(o, pl, cur_page);
            test_page_begin(o, d, pl, page);
            if (page)
                tests_toc(o, d, pl, page, 0);
            cur_page = page;
        }
        rp_out_raw(o, "<div class=\"tst\">\n");
        char id[32];
        snprintf(id, sizeof(id), "t-%zu", t->rank + 1);
        rp_out_heading(o, 3, id, t->name);
        char *p = params_text(t->params, t->nparams);
        char *line = pb_xasprintf("%s%s%s", t->tool[0] ? t->tool : "",
                                  t->tool[0] && *p ? " · " : "", p);
        if (*line)
            rp_out_para(o, "params", line);
        free(line);
        free(p);
        size_t *many = pb_xcalloc(j - i, sizeof(*many)), nmany = 0;
        for (size_t k = i; k < j; k++)
            if (group_charted(d, &d->groups[k])) {
                group_chart(o, d, &d->groups[k], order);
                if (d->groups[k].n > RP_MANY_LIMIT)
                    many[nmany++] = k;
            }
        rp_many_table(o, d, many, nmany, order); /* their tables */
        free(many);
        rp_lat_section(o, d, o->lat, d->groups[i].test);
        if (other) {
            char cap[64];
            snprintf(cap, sizeof(cap), "All metrics of this test");
            all_metrics_table(o, d, i, j, NULL, cap, 0);
        }
        rp_out_raw(o, "</div>\n");
        i = j;
    }
    if (cur_page)
        test_page_end(o, pl, cur_page);
    single_table(o, d);
    if (nswept) {
        if (!opened) {
            rp_out_raw(o, "<section id=\"tests\">\n");
            rp_out_heading(o, 2, NULL, "Results by test");
            opened = 1;
        }
        rp_out_heading(o, 3, "t-other", "Other values");
        char buf[240];
        snprintf(buf, sizeof(buf),
                 "%zu test%s no chart of %s own (one configuration, drawn "
                 "only in the sweeps above, or the state of a pool); every "
                 "value is listed here.",
                 nswept, nswept == 1 ? " has" : "s have",
                 nswept == 1 ? "its" : "their");
        rp_out_para(o, "note", buf);
        all_metrics_table(o, d, 0, d->ngroups, swept,
                          "All values of these tests", 1);
    }
    if (opened)
        rp_out_raw(o, "</section>\n");
    free(order);
    free(swept);
}

/* ==== page ==== */

static const char css[] =
    ":root{--fg:#1d1f23;--muted:#5d6470;--line:#e3e5e8;--bg:#fff;"
    "--soft:#f6f7f9;--accent:#2f5d8a}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--soft);color:var(--fg);font:15px/1.5 "
    "system-ui,-apple-system,'Segoe UI','DejaVu Sans',Roboto,sans-serif}\n"
    "main{max-width:1360px;margin:0 auto;padding:28px 28px 60px;"
    "background:var(--bg);min-height:100vh}\n"
    "@media (max-width:600px){main{padding:16px 12px 40px}}\n"
    "h1{font-size:28px;line-height:1.2;margin:0 0 6px}\n"
    "h2{font-size:22px;margin:44px 0 10px;padding-top:12px;border-top:2px "
    "solid var(--line)}\n"
    "h3{font-size:17px;margin:30px 0 6px;overflow-wrap:anywhere}\n"
    "h4{font-size:15px;margin:20px 0 6px;color:var(--muted)}\n"
    "p{margin:6px 0 12px}\n"
    ".meta,.params,.note,.lead{color:var(--muted)}\n"
    ".warnings{border-left:4px solid #b26a00;padding-left:12px}\n"
    ".warn{color:#7a4a00;margin:4px 0}\n"
    ".params{font-size:13.5px;overflow-wrap:anywhere}\n"
    ".note{font-size:13.5px}\n"
    "a{color:var(--accent)}\n"
    ".stats{display:flex;flex-wrap:wrap;gap:12px;margin:18px 0}\n"
    ".stats div{flex:1 1 120px;border:1px solid var(--line);border-radius:8px;"
    "padding:10px 14px;background:var(--soft)}\n"
    ".stats b{display:block;font-size:24px}\n"
    ".stats span{color:var(--muted);font-size:13px}\n"
    "nav ol{columns:2 220px;margin:8px 0 0;padding-left:20px}\n"
    "nav.toc{margin:10px 0 18px;font-size:14px}\n"
    "nav.toc>ul{columns:2 320px;margin:6px 0 0;padding-left:18px}\n"
    "nav.toc li.tg{break-inside:avoid}\n"
    "nav.toc ul ul{padding-left:16px;margin:2px 0 6px}\n"
    "input.flt{display:block;width:100%;max-width:360px;margin:6px 0;"
    "padding:5px 8px;font:inherit;border:1px solid var(--line);"
    "border-radius:6px}\n"
    "figure{margin:14px 0 8px;overflow-x:auto}\n"
    "figure.wide img{max-width:none}\n"
    "figure img{display:block;max-width:100%;height:auto;border:1px solid "
    "var(--line);border-radius:6px;background:#fff}\n"
    "figcaption.csv{font-size:13px;margin:3px 0 0}\n"
    /* narrower than a chart: its natural size in a scrolling figure, so
     * its text (9.5 px and up) is never scaled below 9 px */
    "@media (max-width:899px){figure img,figure svg{max-width:none}}\n"
    /* wide tables scroll inside their box, the scrollbar in view (at most
     * 80% of the window tall), the first column and the header stay */
    ".tw{overflow:auto;max-height:80vh;margin:6px 0 14px;"
    "scrollbar-width:auto;scrollbar-color:#9aa3ad #eef0f2;"
    "background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)),"
    "linear-gradient(to right,rgba(255,255,255,0),#fff 70%) 100% 0,"
    "radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.18),"
    "rgba(0,0,0,0)) 100% 0;background-repeat:no-repeat;"
    "background-size:40px 100%,40px 100%,14px 100%;"
    "background-attachment:local,local,scroll}\n"
    ".tw::-webkit-scrollbar{width:12px;height:12px;background:#eef0f2}\n"
    ".tw::-webkit-scrollbar-thumb{background:#9aa3ad;border-radius:6px;"
    "border:2px solid #eef0f2}\n"
    ".tw table.data tbody td:first-child,.tw table.data thead "
    "th:first-child{position:sticky;left:0;z-index:1;background:#fff;"
    "box-shadow:1px 0 0 var(--line)}\n"
    ".tw table.data thead th{position:sticky;top:0;z-index:2}\n"
    ".tw table.data thead th:first-child{z-index:3;background:var(--soft)}\n"
    ".tw table.data tr.grp th{position:static}\n"
    "table.data{border-collapse:collapse;font-size:13.5px;"
    "font-variant-numeric:tabular-nums}\n"
    "table.data caption{text-align:left;font-weight:600;padding:4px 0}\n"
    "table.data th,table.data td{padding:4px 10px;border-bottom:1px solid "
    "var(--line);text-align:left;vertical-align:top}\n"
    "table.data th{background:var(--soft);font-weight:600;"
    "white-space:nowrap}\n"
    "table.data tbody tr:hover td{background:#eef3f9}\n"
    "table.data tr.grp th{text-align:center;border-bottom:0}\n"
    ".r{text-align:right!important;white-space:nowrap}\n"
    ".c{text-align:center!important}\n"
    ".b{font-weight:600}.m{color:var(--muted)}.i{font-style:italic}\n"
    ".w{color:#b00020;font-weight:600}.g{color:#1b7a3a}\n"
    ".a{color:#9a5b00;font-weight:600}\n"
    ".mono{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:12.5px}\n"
    ".sw{display:inline-block;width:11px;height:11px;border-radius:2px;"
    "margin-right:7px;vertical-align:-1px}\n"
    ".cf{display:flex;align-items:baseline}.cf .sw{flex:none}\n"
    "details{margin:6px 0 14px}\n"
    "summary{cursor:pointer;color:var(--accent);font-size:14px}\n"
    "table.sortable th{cursor:pointer}\n"
    "table.sortable th:after{content:' \\2195';color:#aab}\n"
    "footer{margin-top:50px;color:var(--muted);font-size:13px}\n"
    "@media print{body{background:#fff}main{padding:0}nav{display:none}}\n";

/* Sorting by a click on a header; numbers sort by data-v. */
static const char js[] =
    "document.querySelectorAll('table.sortable').forEach(function(t){"
    "var h=t.tHead.rows[t.tHead.rows.length-1];"
    "Array.prototype.forEach.call(h.cells,function(th,i){"
    "th.addEventListener('click',function(){"
    "var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),"
    "d=th.getAttribute('data-o')==='a'?-1:1;"
    "th.setAttribute('data-o',d>0?'a':'d');"
    "r.sort(function(x,y){var p=x.cells[i],q=y.cells[i],"
    "u=p.getAttribute('data-v'),w=q.getAttribute('data-v');"
    "if(u!==null&&w!==null)return d*(parseFloat(u)-parseFloat(w));"
    "if(u!==null)return -1;if(w!==null)return 1;"
    "return d*p.textContent.localeCompare(q.textContent)});"
    "r.forEach(function(e){b.appendChild(e)})})})});\n"
    /* a filter box over each contents list of tests: hides the tests (and
     * rows of one-configuration tests) whose name lacks a typed word */
    "document.querySelectorAll('nav.toc').forEach(function(n){"
    "var i=document.createElement('input');i.type='search';"
    "i.className='flt';i.placeholder='Filter tests: randread 4k';"
    "i.setAttribute('aria-label','Filter tests');"
    "n.insertBefore(i,n.children[1]);"
    "i.addEventListener('input',function(){"
    "var q=i.value.toLowerCase().split(/\\s+/).filter(Boolean);"
    "function ok(s){s=s.toLowerCase();"
    "return q.every(function(w){return s.indexOf(w)>=0})}"
    "n.querySelectorAll('li.tl').forEach(function(l){l.hidden=!ok(l.textContent)});"
    "n.querySelectorAll('li.tg').forEach(function(g){"
    "g.hidden=!!g.querySelector('li.tl')&&!g.querySelector('li.tl:not([hidden])')});"
    "document.querySelectorAll('div.tst').forEach(function(t){"
    "var h=t.querySelector('h3');t.hidden=!ok(h?h.textContent:'')});"
    "document.querySelectorAll('table#single-tests tbody tr').forEach(function(r){"
    "r.hidden=!ok(r.cells[0].textContent)})})});\n";

static void page_start(struct rp_out *o, const struct rp_data *d,
                       const struct pb_render_opts *opts, const char *title,
                       int has_sweeps, int has_comp, int has_bonnie,
                       int has_sys, int has_rank, int has_tests)
{
    struct pb_buf *h = &o->html;
    pb_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, "
                   "initial-scale=1\">\n<meta name=\"generator\" "
                   "content=\"poolbench\">\n<title>");
    rp_esc(h, title);
    pb_buf_puts(h, "</title>\n<style>\n");
    pb_buf_puts(h, css);
    pb_buf_puts(h, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>");
    rp_esc(h, title);
    pb_buf_puts(h, "</h1>\n");
    if (o->pdf)
        rp_pdf_heading(o->pdf, 1, title);
    struct pb_buf meta = PB_BUF_INIT;
    pb_buf_printf(&meta,
                  "%zu source%s · %zu configuration%s · %zu test%s · "
                  "%zu result%s",
                  d->used_sources, d->used_sources == 1 ? "" : "s",
                  d->used_configs, d->used_configs == 1 ? "" : "s",
                  d->used_tests, d->used_tests == 1 ? "" : "s", d->nrows,
                  d->nrows == 1 ? "" : "s");
    const struct pb_db_filter *f = &opts->filter;
    if (opts->filter_note && opts->filter_note[0]) {
        pb_buf_printf(&meta, " · %s", opts->filter_note);
    } else {
        const struct {
            const char *re, *what;
        } fl[] = {{f->test_re, "tests"},
                  {f->config_re, "configurations"},
                  {f->metric_re, "metrics"},
                  {f->host_re, "hosts"}};
        const char *sep = " · only ";
        for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
            if (!fl[i].re)
                continue;
            pb_buf_printf(&meta, "%s%s matching “%s”", sep, fl[i].what,
                          fl[i].re);
            sep = ", ";
        }
    }
    pb_buf_puts(h, "<p class=\"meta\">");
    rp_esc(h, pb_buf_str(&meta));
    pb_buf_puts(h, "</p>\n");
    if (o->pdf)
        rp_pdf_para(o->pdf, pb_buf_str(&meta));
    pb_buf_release(&meta);
    pb_buf_printf(h,
                  "<div class=\"stats\"><div><b>%zu</b><span>sources</span>"
                  "</div><div><b>%zu</b><span>configurations</span></div>"
                  "<div><b>%zu</b><span>tests</span></div><div><b>%zu</b>"
                  "<span>results</span></div></div>\n",
                  d->used_sources, d->used_configs, d->used_tests, d->nrows);
    rp_results_link(h);
    pb_buf_puts(h, "<nav><b>Contents</b><ol>\n");
    if (rp_has_flags(d))
        pb_buf_puts(h, "<li><a href=\"#warnings\">Warnings</a></li>\n");
    pb_buf_puts(h, "<li><a href=\"#overview\">Overview</a></li>\n");
    if (has_rank)
        pb_buf_puts(h, "<li><a href=\"#ranking\">Overall ranking</a></li>\n");
    if (has_sweeps)
        pb_buf_puts(h, "<li><a href=\"#sweeps\">Sweeps</a></li>\n");
    if (rp_has_history(d))
        pb_buf_puts(h, "<li><a href=\"#history\">History</a></li>\n");
    if (o->has_iolat)
        pb_buf_puts(h, "<li><a href=\"#iops-latency\">IOPS against "
                       "latency</a></li>\n");
    if (o->has_ts)
        pb_buf_puts(h, "<li><a href=\"#over-time\">Over time</a></li>\n");
    if (has_tests)
        pb_buf_puts(h, "<li><a href=\"#tests\">Results by test</a></li>\n");
    if (rp_has_experiment(d))
        pb_buf_puts(h, "<li><a href=\"#experiment\">Experiment</a></li>\n");
    if (has_comp)
        pb_buf_puts(h, "<li><a href=\"#compression\">Compression</a></li>\n");
    if (has_bonnie)
        pb_buf_puts(h, "<li><a href=\"#bonnie\">bonnie++</a></li>\n");
    if (has_sys)
        pb_buf_puts(h, "<li><a href=\"#systems\">Systems</a></li>\n");
    pb_buf_puts(h, "<li><a href=\"#sources\">Sources</a></li>\n</ol></nav>\n"
                   "</header>\n");
}

/* Extra rules of the test pages: their charts are inline SVG. */
static const char page_css[] =
    "figure svg{display:block;max-width:100%;height:auto;border:1px solid "
    "var(--line);border-radius:6px;background:#fff}\n"
    "figure.wide svg{max-width:none}\n"
    "@media (max-width:899px){figure svg{max-width:none}}\n"
    ".pager{display:flex;gap:18px;margin:18px 0}\n";

static void pager(struct pb_buf *h, const struct test_plan *pl, size_t page)
{
    pb_buf_puts(h, "<p class=\"pager\"><a href=\"index.html\">Overview "
                   "(index.html)</a>");
    if (page > 1)
        pb_buf_printf(h, "<a href=\"tests-%03zu.html\">← page %zu</a>",
                      page - 1, page - 1);
    if (page < pl->npages)
        pb_buf_printf(h, "<a href=\"tests-%03zu.html\">page %zu →</a>",
                      page + 1, page + 1);
    pb_buf_puts(h, "</p>\n");
}

static void test_page_begin(struct rp_out *o, const struct rp_data *d,
                            const struct test_plan *pl, size_t page)
{
    (void)d;
    struct pb_buf *h = &o->page;
    pb_buf_reset(h);
    o->h = h;
    o->inline_charts = 1;
    char what[160];
    snprintf(what, sizeof(what),
             "Results by test, page %zu of %zu: tests %zu–%zu of %zu", page,
             pl->npages, pl->first[page - 1] + 1,
             pl->first[page - 1] + pl->ntests[page - 1], pl->nsections);
    pb_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, "
                   "initial-scale=1\">\n<meta name=\"generator\" "
                   "content=\"poolbench\">\n<title>");
    rp_esc(h, o->title);
    pb_buf_puts(h, " — ");
    rp_esc(h, what);
    pb_buf_puts(h, "</title>\n<style>\n");
    pb_buf_puts(h, css);
    pb_buf_puts(h, page_css);
    pb_buf_puts(h, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>");
    rp_esc(h, o->title);
    pb_buf_puts(h, "</h1>\n<p class=\"meta\">");
    rp_esc(h, what);
    pb_buf_puts(h, "</p>\n");
    pager(h, pl, page);
    pb_buf_puts(h, "</header>\n<section id=\"tests\">\n");
}

static void test_page_end(struct rp_out *o, const struct test_plan *pl,
                          size_t page)
{
    struct pb_buf *h = &o->page;
    pb_buf_puts(h, "</section>\n");
    pager(h, pl, page);
    pb_buf_puts(h, "<footer>Generated by poolbench");
    if (o->version) {
        pb_buf_putc(h, ' ');
        rp_esc(h, o->version);
    }
    if (o->timestamp) {
        pb_buf_puts(h, " on ");
        rp_esc(h, o->timestamp);
    }
    pb_buf_puts(h, ". The charts of this page are inline SVG; every number "
                   "drawn is in the table under its chart.</footer>\n"
                   "</main>\n<script>\n");
    pb_buf_puts(h, js);
    pb_buf_puts(h, "</script>\n</body>\n</html>\n");
    if (!o->rc) {
        char *path = pb_xasprintf("tests-%03zu.html", page);
        if (write_file(o, path, h->s, h->len) == PB_OK)
            o->sum.pages++;
        free(path);
    }
    o->h = &o->html;
    o->inline_charts = 0;
}

static int any_tests_section(const struct rp_data *d)
{
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (group_charted(d, g) ||
            !rp_metric_in_special(d->metrics[g->metric].name))
            return 1;
    }
    return 0;
}

int pb_render_report(struct pb_db *db, const struct pb_render_opts *opts,
                     struct pb_render_summary *out, struct pb_err *err)
{
    struct rp_data d;
    int rc = rp_data_load_ignoring(db, &opts->filter, opts->ignore_params,
                                   &d, err);
    if (rc) {
        rp_data_release(&d);
        return rc;
    }
    if (opts->palette && opts->npalette)
        for (size_t i = 0; i < d.nconfigs; i++)
            if (d.configs[i].used)
                d.configs[i].color =
                    opts->palette[d.configs[i].rank % opts->npalette];
    struct rp_sweeps sws;
    rc = rp_find_sweeps(&d, opts->x_key, opts->series_key, &sws, err);
    if (rc) {
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    struct rp_ranking rank;
    rp_rank_configs(&d, &rank);

    mark_single(&d);
    struct rp_history hist;
    if ((rc = rp_history_load(db, &opts->filter, &d, &hist, err)) ||
        (rc = rp_outliers_load(db, &d, err))) {
        rp_history_release(&hist);
        rp_ranking_release(&rank);
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    d.history = &hist;
    struct test_plan plan;
    plan_tests(&d, &plan);

    struct rp_out o;
    memset(&o, 0, sizeof(o));
    o.h = &o.html;
    o.err = err;
    o.version = opts->version;
    o.timestamp = opts->timestamp;
    o.png = opts->png;
    o.f = rc_fonts_new();
    if ((rc = rp_dir_open(opts->outdir ? opts->outdir : "report",
                          opts->force, &o.out, err)))
        goto done;
    if ((rc = rp_file_open(o.out, "index.html", &o.index, err)))
        goto done;
    if (opts->pdf_path && (rc = rp_pdf_open(opts->pdf_path, o.f, &o.pdf, err)))
        goto done;

    const char *title = opts->title ? rp_clean(&d.arena, opts->title)
                                    : default_title(&d, &d.arena);
    o.title = title;
    int has_comp = rp_has_compression(&d), has_bonnie = rp_has_bonnie(&d);
    int has_sys = rp_has_systems(&d);
    o.has_iolat = rp_has_iops_latency(&d);
    o.has_ts = rp_has_timeseries(db, &opts->filter);
    o.lat = rp_lat_load(db, &d, &opts->filter, !opts->latency_linear, &rc,
                        err);
    if (rc)
        goto done;
    page_start(&o, &d, opts, title, sws.n > 0, has_comp, has_bonnie, has_sys,
               rank.n >= 2 && rank.ngroups >= 2, any_tests_section(&d));

    rp_section_warnings(&o, &d);
    rp_out_raw(&o, "<section id=\"overview\">\n");
    rp_out_heading(&o, 2, NULL, "Overview");
    if (!d.ncells)
        rp_out_para(&o, "note",
                    "No results match. Ingest files with 'poolbench ingest' "
                    "or loosen the --test/--config/--metric filters.");
    if (d.used_configs)
        section_configs(&o, &d);
    section_best(&o, &d, &plan);
    section_ranking(&o, &d, &rank);
    rp_out_raw(&o, "</section>\n");
    section_sweeps(&o, &d, &sws);
    rp_section_history(&o, &d);
    rp_section_iops_latency(&o, &d);
    if (!o.rc && (rc = rp_section_timeseries(&o, &d, db, &opts->filter,
                                             opts->per_job, err)))
        goto done;
    section_tests(&o, &d, &plan);
    rp_lat_section_rest(&o, &d, o.lat);
    if (rp_has_experiment(&d))
        rp_section_experiment(&o, &d, rp_dir_path(o.out));
    if (has_comp)
        rp_section_compression(&o, &d);
    if (has_bonnie)
        rp_section_bonnie(&o, &d);
    if (has_sys)
        rp_section_systems(&o, &d);
    rp_section_sources(&o, &d);

    pb_buf_puts(&o.html, "<footer>Generated by poolbench");
    if (opts->version) {
        pb_buf_putc(&o.html, ' ');
        rp_esc(&o.html, opts->version);
    }
    if (opts->timestamp) {
        pb_buf_puts(&o.html, " on ");
        rp_esc(&o.html, opts->timestamp);
    }
    pb_buf_puts(&o.html, ". Charts are SVG files in charts/");
    if (plan.npages)
        pb_buf_puts(&o.html, " (inline SVG on the test pages)");
    pb_buf_puts(&o.html, "; every number drawn is in the table under its "
                         "chart.</footer>\n</main>\n<script>\n");
    pb_buf_puts(&o.html, js);
    pb_buf_puts(&o.html, "</script>\n</body>\n</html>\n");
    if (!o.rc && (rc = rp_write_results(db, &opts->filter, o.out, err)))
        o.rc = rc;
    if (!o.rc) {
        rp_file_flush(o.index, &o.html, 0);
        int irc = rp_file_close(o.index, err);
        o.index = NULL;
        if (irc)
            o.rc = irc;
    }
    rc = o.rc;
done:
    if (o.index) { /* a failed report: the stage goes with it; its first
                      error is the one kept */
        int ignored = rp_file_close(o.index, err);
        (void)ignored;
    }
    rp_out_chart_data(&o, NULL);
    /* The PDF first: a report is switched in only when all of it, PDF
     * included, was written; a failed one leaves the last one whole. */
    if (o.pdf) {
        int prc = rp_pdf_close(o.pdf, !rc, err);
        if (!rc)
            rc = prc;
    }
    if (o.out && !rc)
        rc = rp_dir_commit(o.out, err);
    else
        rp_dir_abort(o.out);
    o.sum.results = d.nrows;
    o.sum.cells = d.ncells;
    if (out)
        *out = o.sum;
    rc_fonts_free(o.f);
    rp_lat_free(o.lat);
    pb_buf_release(&o.html);
    pb_buf_release(&o.page);
    plan_release(&plan);
    rp_ranking_release(&rank);
    rp_sweeps_release(&sws);
    rp_history_release(&hist);
    rp_data_release(&d);
    return rc;
}
