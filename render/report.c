/* The report: index.html with its sections (overview, best configuration
 * per test, ranking, sweeps, one chart and table per test and metric, the
 * special tables), the charts/ folder, and optionally PNGs and a PDF. This
 * file: the output primitives, the page around the sections and
 * pb_render_report; the sections are in report_overview.c and
 * report_tests.c (report_int.h). */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"
#include "render/stream_int.h"
#include "render/judge_int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


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

/* ==== page ==== */

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
    pb_buf_puts(h, rp_css);
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
    rp_results_link(h, opts, d->nrows);
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
    if (rp_has_hosts(d))
        pb_buf_puts(h, "<li><a href=\"#hosts\">Hosts</a></li>\n");
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

/* Head of a page of its own (o->page): doctype, style, title and the
 * header's first lines, up to the navigation; what names the page. */
static void page_head(struct rp_out *o, struct pb_buf *h, const char *what)
{
    pb_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, "
                   "initial-scale=1\">\n<meta name=\"generator\" "
                   "content=\"poolbench\">\n<title>");
    rp_esc(h, o->title);
    pb_buf_puts(h, " — ");
    rp_esc(h, what);
    pb_buf_puts(h, "</title>\n<style>\n");
    pb_buf_puts(h, rp_css);
    pb_buf_puts(h, page_css);
    pb_buf_puts(h, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>");
    rp_esc(h, o->title);
    pb_buf_puts(h, "</h1>\n<p class=\"meta\">");
    rp_esc(h, what);
    pb_buf_puts(h, "</p>\n");
}

static void page_open(struct rp_out *o, const char *what)
{
    pb_buf_reset(&o->page);
    o->h = &o->page;
    o->inline_charts = 1;
    page_head(o, &o->page, what);
}

/* The footer of a page in h (note: its last sentence) and the page
 * written as rel, counted in *count. */
static void page_foot(struct rp_out *o, struct pb_buf *h, const char *rel,
                      const char *note, size_t *count)
{
    pb_buf_puts(h, "<footer>Generated by poolbench");
    if (o->version) {
        pb_buf_putc(h, ' ');
        rp_esc(h, o->version);
    }
    if (o->timestamp) {
        pb_buf_puts(h, " on ");
        rp_esc(h, o->timestamp);
    }
    pb_buf_puts(h, ". ");
    pb_buf_puts(h, note);
    pb_buf_puts(h, "</footer>\n</main>\n<script>\n");
    pb_buf_puts(h, js);
    pb_buf_puts(h, "</script>\n</body>\n</html>\n");
    if (!o->rc && write_file(o, rel, h->s, h->len) == PB_OK)
        (*count)++;
}

/* Foot of a page of its own (note: the footer's last sentence), written
 * as rel; back to index.html. */
static void page_close(struct rp_out *o, const char *rel, const char *note,
                       size_t *count)
{
    page_foot(o, &o->page, rel, note, count);
    o->h = &o->html;
    o->inline_charts = 0;
}

void rp_page_head(struct rp_out *o, struct pb_buf *h, const char *what)
{
    page_head(o, h, what);
}

void rp_page_foot(struct rp_out *o, struct pb_buf *h, const char *rel,
                  const char *note)
{
    page_foot(o, h, rel, note, &o->sum.table_pages);
}

const char *rp_out_here(const struct rp_out *o)
{
    return o->here[0] ? o->here : "index.html";
}

void rp_test_page_begin(struct rp_out *o, const struct rp_data *d,
                            const struct test_plan *pl, size_t page)
{
    (void)d;
    char what[160];
    snprintf(what, sizeof(what),
             "Results by test, page %zu of %zu: tests %zu–%zu of %zu", page,
             pl->npages, pl->first[page - 1] + 1,
             pl->first[page - 1] + pl->ntests[page - 1], pl->nsections);
    page_open(o, what);
    snprintf(o->here, sizeof(o->here), "tests-%03zu.html", page);
    pager(&o->page, pl, page);
    pb_buf_puts(&o->page, "</header>\n<section id=\"tests\">\n");
}

void rp_test_page_end(struct rp_out *o, const struct test_plan *pl,
                          size_t page)
{
    struct pb_buf *h = &o->page;
    pb_buf_puts(h, "</section>\n");
    pager(h, pl, page);
    char *path = pb_xasprintf("tests-%03zu.html", page);
    page_close(o, path, "The charts of this page are inline SVG; every "
                        "number drawn is in the table under its chart.",
               &o->sum.pages);
    o->here[0] = '\0';
    free(path);
}

/* Links of a table's pages: index.html holds page 1, page k > 1 is
 * STEM-k.html (3 digits). */
void rp_table_pager(struct pb_buf *h, const char *stem, const char *first,
                    size_t page, size_t npages)
{
    pb_buf_puts(h, "<p class=\"pager\"><a href=\"index.html\">Overview "
                   "(index.html)</a>");
    if (page > 2)
        pb_buf_printf(h, "<a href=\"%s-%03zu.html\">← page %zu</a>", stem,
                      page - 1, page - 1);
    else if (page == 2)
        pb_buf_printf(h, "<a href=\"%s\">← page 1</a>", first);
    if (page < npages)
        pb_buf_printf(h, "<a href=\"%s-%03zu.html\">page %zu →</a>", stem,
                      page + 1, page + 1);
    pb_buf_puts(h, "</p>\n");
}

static void table_pager(struct pb_buf *h, const char *stem, size_t page,
                        size_t npages)
{
    char *first = pb_xasprintf("index.html#%s", stem);
    rp_table_pager(h, stem, first, page, npages);
    free(first);
}

void rp_table_page_begin(struct rp_out *o, const char *stem,
                         const char *what, size_t page, size_t npages)
{
    page_open(o, what);
    table_pager(&o->page, stem, page, npages);
    pb_buf_printf(&o->page, "</header>\n<section id=\"%s\">\n", stem);
}

void rp_table_page_end(struct rp_out *o, const char *stem, size_t page,
                       size_t npages)
{
    pb_buf_puts(&o->page, "</section>\n");
    table_pager(&o->page, stem, page, npages);
    char *path = pb_xasprintf("%s-%03zu.html", stem, page);
    page_close(o, path,
               "Every number of this page is in results.csv (in the export "
               "command on index.html when the report is too large for it).",
               &o->sum.table_pages);
    free(path);
}

static int any_tests_section(const struct rp_data *d)
{
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (rp_group_charted(d, g) ||
            !rp_metric_in_special(d->metrics[g->metric].name))
            return 1;
    }
    return 0;
}

int pb_render_report(struct pb_db *db, const struct pb_render_opts *opts,
                     struct pb_render_summary *out, struct pb_err *err)
{
    struct rp_data d;
    int rc = rp_data_load_streamed(db, &opts->filter, opts->ignore_params,
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
    if (out)
        out->why = NULL;
    rc = rp_find_sweeps(&d, opts->x_key, opts->series_key, &sws, err);
    if (rc) {
        if (out && sws.why)
            out->why = pb_xstrdup(sws.why);
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    struct rp_ranking rank;
    rp_rank_configs(&d, &rank);

    rp_mark_single(&d);
    struct rp_history hist;
    struct rp_hosts hosts;
    struct rp_samps best_samps = {0};
    memset(&hosts, 0, sizeof(hosts));
    if ((rc = rp_history_load(db, &opts->filter, &d, &hist, err)) ||
        (rc = rp_hosts_load(db, &opts->filter, &d, &hosts, err)) ||
        (rc = rp_outliers_load(db, &d, err)) ||
        (rc = rp_best_samples_load(db, &d, &best_samps, err))) {
        rp_samps_release(&best_samps);
        rp_hosts_release(&hosts);
        rp_history_release(&hist);
        rp_ranking_release(&rank);
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    d.history = &hist;
    d.hosts = &hosts;
    struct test_plan plan;
    rp_plan_tests(&d, &plan);

    struct rp_out o;
    memset(&o, 0, sizeof(o));
    o.h = &o.html;
    o.err = err;
    o.version = opts->version;
    o.timestamp = opts->timestamp;
    o.png = opts->png;
    o.f = rc_fonts_new();
    /* no file of the report replaces the database it reads */
    struct pb_keep keep;
    pb_keep_init(&keep);
    pb_keep_add_db(&keep, pb_db_path(db));
    if ((rc = rp_dir_open(opts->outdir ? opts->outdir : "report",
                          opts->force, &keep, &o.out, err)))
        goto done;
    if ((rc = rp_file_open(o.out, "index.html", &o.index, err)))
        goto done;
    if (opts->pdf_path &&
        (rc = rp_pdf_open(opts->pdf_path, &keep, o.f, &o.pdf, err)))
        goto done;

    const char *title = opts->title ? rp_clean(&d.arena, opts->title)
                                    : rp_default_title(&d, &d.arena);
    o.title = title;
    o.raw_whole = rp_results_whole(opts, d.nrows);
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
    if (!d.ncells_total)
        rp_out_para(&o, "note",
                    "No results match. Ingest files with 'poolbench ingest' "
                    "or loosen the --test/--config/--metric filters.");
    if (d.used_configs)
        rp_section_configs(&o, &d);
    rp_section_best(&o, &d, &plan, &best_samps);
    rp_section_ranking(&o, &d, &rank);
    rp_out_raw(&o, "</section>\n");
    rp_section_sweeps(&o, &d, &sws);
    rp_section_history(&o, &d);
    rp_section_hosts(&o, &d);
    rp_section_iops_latency(&o, &d);
    if (!o.rc && (rc = rp_section_timeseries(&o, &d, db, &opts->filter,
                                             opts->per_job, err)))
        goto done;
    rp_section_tests(&o, &d, &plan);
    rp_lat_section_rest(&o, &d, o.lat);
    if (rp_has_experiment(&d))
        rp_section_experiment(&o, &d, rp_dir_path(o.out));
    if (has_comp)
        rp_section_compression(&o, &d);
    if (has_bonnie && !o.rc &&
        (rc = rp_section_bonnie(&o, &d, db, &opts->filter, err)))
        goto done;
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
    if (!o.rc && (rc = rp_stream_check(&d, err)))
        o.rc = rc;
    if (!o.rc && rp_results_whole(opts, d.nrows) &&
        (rc = rp_write_results(db, &opts->filter, o.out, err)))
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
    o.sum.cells = d.ncells_total;
    if (out)
        *out = o.sum;
    rc_fonts_free(o.f);
    rp_lat_free(o.lat);
    pb_buf_release(&o.html);
    pb_buf_release(&o.page);
    rp_plan_release(&plan);
    rp_ranking_release(&rank);
    rp_sweeps_release(&sws);
    rp_history_release(&hist);
    rp_hosts_release(&hosts);
    rp_samps_release(&best_samps);
    rp_data_release(&d);
    return rc;
}
