/* The report's output primitives: the calls every section writes through
 * (headings, paragraphs, charts, tables, files), each writing the HTML of
 * the page being written and, with --pdf, the PDF. The pages around them
 * are in page.c, the driver in report.c. */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"

#include <stdlib.h>
#include <string.h>

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

/* index.html and the pages of their own (test pages, table pages) are
 * written as they grow, never held whole (the sections of 10^6 results
 * are 100 MB of HTML): each primitive first writes what the page holds
 * once that is 1 MiB. Nothing goes back into written text. */
#define INDEX_SPILL (1024 * 1024)

static void out_spill(struct rp_out *o)
{
    if (o->index && o->h == &o->html)
        rp_file_flush(o->index, &o->html, INDEX_SPILL);
    else if (o->pagef && o->h == &o->page)
        rp_file_flush(o->pagef, &o->page, INDEX_SPILL);
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

void rp_out_fold(struct rp_out *o, const char *cls, const char *summary,
                 const char *const *items, size_t n)
{
    out_spill(o);
    pb_buf_puts(o->h, "<details");
    if (cls)
        pb_buf_printf(o->h, " class=\"%s\"", cls);
    pb_buf_puts(o->h, "><summary>");
    rp_esc(o->h, summary);
    pb_buf_puts(o->h, "</summary>\n<ul>\n");
    for (size_t i = 0; i < n; i++) {
        pb_buf_puts(o->h, "<li>");
        rp_esc(o->h, items[i]);
        pb_buf_puts(o->h, "</li>\n");
    }
    pb_buf_puts(o->h, "</ul>\n</details>\n");
    if (o->pdf) {
        /* no folds on paper: the summary, then the items in one paragraph */
        rp_pdf_para(o->pdf, summary);
        struct pb_buf b = PB_BUF_INIT;
        for (size_t i = 0; i < n; i++) {
            if (i)
                pb_buf_puts(&b, " \xC2\xB7 ");
            pb_buf_puts(&b, items[i]);
        }
        rp_pdf_para(o->pdf, pb_buf_str(&b));
        pb_buf_release(&b);
    }
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
                      "src=\"charts/%s.svg\" loading=\"lazy\" "
                      "decoding=\"async\" width=\"%.0f\" "
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

void rp_out_table_keep(struct rp_out *o, struct rt_table *t,
                       struct rt_cell **cells, size_t *cap)
{
    *cells = t->cells;
    *cap = t->cap;
    out_spill(o);
    rt_html(t, o->h);
    if (o->pdf)
        rp_pdf_table(o->pdf, t);
    o->sum.tables++;
    t->cells = NULL;
    t->cap = 0;
    rt_release(t);
}
