/* The pages around the sections: index.html's head and footer, and the
 * pages of their own (a split report's section pages, test pages, long
 * tables' pages) with their pagers.
 * The output primitives are in out.c, the driver in report.c. */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The icon of every page, inline: a report served over HTTP asks for no
 * /favicon.ico (a 404 in the console otherwise). Three white bars on
 * blue, a 16 x 16 PNG (124 bytes of base64; an SVG would name its
 * namespace's URL, and the pages name no network address). */
static const char favicon[] =
    "<link rel=\"icon\" type=\"image/png\" href=\"data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAI0lEQVR42mOQj99PEmIY"
    "IA3/wWDQakDTTIEGXIqGtYZBk/gANHWKELzes6MAAAAASUVORK5CYII=\">\n";

void rp_index_head(struct rp_out *o, const struct rp_data *d,
                   const struct pb_render_opts *opts, const char *title)
{
    struct pb_buf *h = &o->html;
    pb_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, "
                   "initial-scale=1\">\n<meta name=\"generator\" "
                   "content=\"poolbench\">\n");
    pb_buf_puts(h, favicon);
    pb_buf_puts(h, "<title>");
    rp_esc(h, title);
    pb_buf_puts(h, "</title>\n<style>\n");
    rp_css_put(h);
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
                   "content=\"poolbench\">\n");
    pb_buf_puts(h, favicon);
    pb_buf_puts(h, "<title>");
    rp_esc(h, o->title);
    pb_buf_puts(h, " — ");
    rp_esc(h, what);
    pb_buf_puts(h, "</title>\n<style>\n");
    rp_css_put(h);
    pb_buf_puts(h, page_css);
    pb_buf_puts(h, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>");
    rp_esc(h, o->title);
    pb_buf_puts(h, "</h1>\n<p class=\"meta\">");
    rp_esc(h, what);
    pb_buf_puts(h, "</p>\n");
}

/* A page of its own (o->page) that will be rel: its file is opened now
 * and written as the page grows (out.c); when it cannot be created the
 * page is held and written whole at page_close, which reports the error. */
static void page_open(struct rp_out *o, const char *what, const char *rel)
{
    pb_buf_reset(&o->page);
    o->h = &o->page;
    struct pb_err ignored;
    memset(&ignored, 0, sizeof(ignored));
    if (!o->rc && rp_file_open(o->out, rel, &o->pagef, &ignored))
        o->pagef = NULL;
    o->inline_charts = 1;
    page_head(o, &o->page, what);
}

/* The footer of a page in h (note: its last sentence) and the page
 * written as rel, counted in *count. */
static void foot_text(struct rp_out *o, struct pb_buf *h, const char *note);

static void page_foot(struct rp_out *o, struct pb_buf *h, const char *rel,
                      const char *note, size_t *count)
{
    foot_text(o, h, note);
    if (!o->rc) {
        rp_out_file(o, rel, h->s, h->len); /* a failure sets o->rc */
        if (!o->rc)
            (*count)++;
    }
}

/* Foot of a page of its own (note: the footer's last sentence), written
 * as rel; back to index.html. */
static void page_close(struct rp_out *o, const char *rel, const char *note,
                       size_t *count)
{
    if (o->pagef) {
        foot_text(o, &o->page, note);
        rp_file_flush(o->pagef, &o->page, 0);
        int rc = rp_file_close(o->pagef, o->err);
        o->pagef = NULL;
        if (rc && !o->rc)
            o->rc = rc;
        if (!rc)
            (*count)++;
    } else {
        page_foot(o, &o->page, rel, note, count);
    }
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

void rp_page_write(struct rp_out *o, struct pb_buf *h, const char *rel,
                   const char *note)
{
    size_t uncounted = 0;
    page_foot(o, h, rel, note, &uncounted);
}

const char *rp_out_here(const struct rp_out *o)
{
    return o->here[0] ? o->here : "index.html";
}

const char *rp_tests_at(const struct rp_out *o)
{
    return o->split ? "tests.html" : "";
}

/* The footer of a page (note: its last sentence) and its script. */
static void foot_text(struct rp_out *o, struct pb_buf *h, const char *note)
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
}

int rp_section_page_begin(struct rp_out *o, const char *stem,
                          const char *what)
{
    char rel[24];
    snprintf(rel, sizeof(rel), "%s.html", stem);
    rp_file_flush(o->index, &o->html, 0);
    o->index_main = o->index;
    o->index = NULL;
    int rc = rp_file_open(o->out, rel, &o->index, o->err);
    if (rc) {
        o->index = o->index_main;
        o->index_main = NULL;
        if (!o->rc)
            o->rc = rc;
        return rc;
    }
    memcpy(o->home, rel, sizeof(o->home));
    memcpy(o->here, rel, sizeof(o->here));
    page_head(o, &o->html, what);
    pb_buf_puts(&o->html, "<p class=\"pager\"><a href=\"index.html\">"
                          "Overview (index.html)</a></p>\n</header>\n");
    return PB_OK;
}

void rp_section_page_end(struct rp_out *o)
{
    foot_text(o, &o->html, "Charts are SVG files in charts/; every number "
                           "drawn is in the table under its chart.");
    rp_file_flush(o->index, &o->html, 0);
    int rc = rp_file_close(o->index, o->err);
    if (rc && !o->rc)
        o->rc = rc;
    o->index = o->index_main;
    o->index_main = NULL;
    o->home[0] = o->here[0] = '\0';
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
    snprintf(o->here, sizeof(o->here), "tests-%03zu.html", page);
    page_open(o, what, o->here);
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
    memcpy(o->here, o->home, sizeof(o->here));
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

static void table_pager(struct rp_out *o, struct pb_buf *h, const char *stem,
                        size_t page, size_t npages)
{
    char *first = pb_xasprintf("%s#%s",
                               o->home[0] ? o->home : "index.html", stem);
    rp_table_pager(h, stem, first, page, npages);
    free(first);
}

void rp_table_page_begin(struct rp_out *o, const char *stem,
                         const char *what, size_t page, size_t npages)
{
    char *rel = pb_xasprintf("%s-%03zu.html", stem, page);
    page_open(o, what, rel);
    free(rel);
    table_pager(o, &o->page, stem, page, npages);
    pb_buf_printf(&o->page, "</header>\n<section id=\"%s\">\n", stem);
}

void rp_table_page_end(struct rp_out *o, const char *stem, size_t page,
                       size_t npages)
{
    pb_buf_puts(&o->page, "</section>\n");
    table_pager(o, &o->page, stem, page, npages);
    char *path = pb_xasprintf("%s-%03zu.html", stem, page);
    page_close(o, path,
               "Every number of this page is in results.csv (in the export "
               "command on index.html when the report is too large for it).",
               &o->sum.table_pages);
    free(path);
}

void rp_index_foot(struct rp_out *o, int has_pages)
{
    pb_buf_puts(&o->html, "<footer>Generated by poolbench");
    if (o->version) {
        pb_buf_putc(&o->html, ' ');
        rp_esc(&o->html, o->version);
    }
    if (o->timestamp) {
        pb_buf_puts(&o->html, " on ");
        rp_esc(&o->html, o->timestamp);
    }
    pb_buf_puts(&o->html, ". Charts are SVG files in charts/");
    if (has_pages)
        pb_buf_puts(&o->html, " (inline SVG on the test pages)");
    pb_buf_puts(&o->html, "; every number drawn is in the table under its "
                         "chart.</footer>\n</main>\n<script>\n");
    pb_buf_puts(&o->html, js);
    pb_buf_puts(&o->html, "</script>\n</body>\n</html>\n");
}
