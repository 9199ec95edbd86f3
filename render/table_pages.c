/* Long tables of the report, paged (issue 16): past RP_TABLE_PAGE rows a
 * table shows its first rows where it stands and puts the others, in its
 * order, on pages of their own (STEM-002.html, ...), so that no page grows
 * with the number of configurations. One mechanism for every table that
 * grows with configurations; the bonnie++ table's pages share its links
 * and page shell (report.c). */
#include "render/report_int.h"

#include <stdlib.h>
#include <string.h>

/* rows [from, to) of t as a table of their own: shares t's cells and
 * arena (never released). */
static struct rt_table part_of(const struct rt_table *t, size_t from,
                               size_t to)
{
    struct rt_table p = *t;
    p.cells = t->cells + from * t->ncols;
    p.nrows = to - from;
    p.cap = p.nrows;
    return p;
}

/* "CAPTION, rows A–B of N" (arena of t). */
static const char *part_caption(struct rt_table *t, size_t from, size_t to)
{
    return rt_str(t, "%s%srows %zu–%zu of %zu", t->caption ? t->caption : "",
                  t->caption ? ", " : "", from + 1, to, t->nrows);
}

static void one_page(struct rp_out *o, struct rt_table *t, const char *stem,
                     const char *first, const char *what, size_t page,
                     size_t npages)
{
    size_t from = (page - 1) * RP_TABLE_PAGE;
    size_t to = from + RP_TABLE_PAGE < t->nrows ? from + RP_TABLE_PAGE
                                                : t->nrows;
    struct rt_table p = part_of(t, from, to);
    p.fold = 0; /* the page is this table */
    p.caption = part_caption(t, from, to);
    struct pb_buf h = PB_BUF_INIT;
    char *title = pb_xasprintf("%s, page %zu of %zu: rows %zu–%zu of %zu",
                               what, page, npages, from + 1, to, t->nrows);
    rp_page_head(o, &h, title);
    rp_table_pager(&h, stem, first, page, npages);
    pb_buf_printf(&h, "</header>\n<section id=\"%s\">\n", stem);
    rt_html(&p, &h);
    pb_buf_puts(&h, "</section>\n");
    rp_table_pager(&h, stem, first, page, npages);
    char *rel = pb_xasprintf("%s-%03zu.html", stem, page);
    rp_page_foot(o, &h, rel,
                 "This page holds one part of a long table; a click on a "
                 "header sorts the rows of this page.");
    free(rel);
    free(title);
    pb_buf_release(&h);
}

/* Pages `first_page`..npages of t, and in place the note, the links and,
 * when first_page is 2, the first RP_TABLE_PAGE rows. */
static void paged(struct rp_out *o, struct rt_table *t, const char *stem,
                  const char *what, size_t first_page)
{
    o->npaged++;
    char own[32];
    if (!stem) {
        snprintf(own, sizeof(own), "table-%zu", o->npaged);
        stem = own;
    }
    size_t n = t->nrows, npages = (n + RP_TABLE_PAGE - 1) / RP_TABLE_PAGE;
    char *first = first_page == 1
                      ? pb_xasprintf("%s-001.html", stem)
                      : pb_xasprintf("%s#%s", rp_out_here(o), stem);

    /* where the table stands: a note, the links (and its first rows) */
    struct pb_buf b = PB_BUF_INIT;
    if (first_page == 1) {
        pb_buf_puts(&b, "<p class=\"note\">");
        rp_esc(&b, t->caption ? t->caption : "Table");
        if (npages == 1) /* the ends of a shorter table (rp_out_table_ends) */
            pb_buf_printf(&b,
                          ": all %zu rows, in the table's order, on a page "
                          "of their own.</p>\n<p class=\"pager\" "
                          "id=\"%s\">",
                          n, stem);
        else
            pb_buf_printf(&b,
                          ": %zu rows, on %zu pages of their own (at most "
                          "%d rows each, in the table's order).</p>\n<p "
                          "class=\"pager\" id=\"%s\">",
                          n, npages, RP_TABLE_PAGE, stem);
    } else {
        pb_buf_printf(&b,
                      "<p class=\"note\">%zu rows: the first %d here, the "
                      "others on %zu pages of their own (at most %d rows "
                      "each, in this table's order). A click on a header "
                      "sorts the rows of one page.</p>\n<p class=\"pager\" "
                      "id=\"%s\">",
                      n, RP_TABLE_PAGE, npages - 1, RP_TABLE_PAGE, stem);
    }
    for (size_t p = first_page; p <= npages; p++) {
        size_t from = (p - 1) * RP_TABLE_PAGE;
        size_t to = from + RP_TABLE_PAGE < n ? from + RP_TABLE_PAGE : n;
        pb_buf_printf(&b, "<a href=\"%s-%03zu.html\">rows %zu–%zu</a>%s",
                      stem, p, from + 1, to, p < npages ? " " : "");
    }
    pb_buf_puts(&b, "</p>\n");
    rp_out_raw(o, pb_buf_str(&b));
    pb_buf_release(&b);

    if (first_page == 2) {
        struct rt_table p1 = part_of(t, 0, RP_TABLE_PAGE);
        p1.caption = part_caption(t, 0, RP_TABLE_PAGE);
        struct pb_buf h = PB_BUF_INIT;
        rt_html(&p1, &h);
        rp_out_raw(o, pb_buf_str(&h));
        pb_buf_release(&h);
        if (o->pdf)
            rp_pdf_table(o->pdf, &p1);
        o->sum.tables++;
    } else if (o->pdf) {
        rp_pdf_para(o->pdf, rt_str(t, "%s: %zu rows, on %zu pages of the "
                                      "HTML report (%s-001.html, ...).",
                                   t->caption ? t->caption : "Table", n,
                                   npages, stem));
    }
    for (size_t p = first_page; p <= npages && !o->rc; p++)
        one_page(o, t, stem, first, what, p, npages);
    free(first);
    rt_release(t);
}

void rp_out_table_paged(struct rp_out *o, struct rt_table *t,
                        const char *stem, const char *what)
{
    if (t->nrows <= RP_TABLE_PAGE)
        rp_out_table(o, t);
    else
        paged(o, t, stem, what, 2);
}

void rp_out_table_elsewhere(struct rp_out *o, struct rt_table *t,
                            const char *stem, const char *what)
{
    if (t->nrows <= RP_TABLE_PAGE)
        rp_out_table(o, t);
    else
        paged(o, t, stem, what, 1);
}

void rp_out_table_ends(struct rp_out *o, struct rt_table *t,
                       const char *stem, const char *what)
{
    size_t n = t->nrows, k = RP_ENDS_ROWS;
    if (n <= RP_ENDS_WHOLE) {
        rp_out_table(o, t);
        return;
    }
    /* the ends, one table: cells copied (their text stays in t's arena) */
    struct rt_table e = *t;
    e.cells = pb_xcalloc(2 * k * t->ncols, sizeof(*e.cells));
    memcpy(e.cells, t->cells, k * t->ncols * sizeof(*e.cells));
    memcpy(e.cells + k * t->ncols, t->cells + (n - k) * t->ncols,
           k * t->ncols * sizeof(*e.cells));
    e.nrows = e.cap = 2 * k;
    e.fold = 0;
    e.caption = rt_str(t, "%s%sthe first %zu and the last %zu of %zu rows",
                       t->caption ? t->caption : "", t->caption ? ": " : "",
                       k, k, n);
    struct pb_buf b = PB_BUF_INIT;
    rt_html(&e, &b);
    rp_out_raw(o, pb_buf_str(&b));
    pb_buf_release(&b);
    if (o->pdf)
        rp_pdf_table(o->pdf, &e);
    free(e.cells);
    o->sum.tables++;
    /* every row on pages of their own, linked under the ends */
    paged(o, t, stem, what, 1);
}

void rp_out_table_top(struct rp_out *o, struct rt_table *t, const char *stem,
                      const char *what, size_t nshow)
{
    if (t->nrows <= nshow) {
        rp_out_table(o, t);
        return;
    }
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "<p class=\"note\">The first %zu of %zu rows; "
                      "<a href=\"%s.html\">all %zu rows: ",
                  nshow, t->nrows, stem, t->nrows);
    rp_esc(&b, what);
    pb_buf_puts(&b, "</a>. A click on a header sorts the rows shown.</p>\n");
    struct rt_table top = part_of(t, 0, nshow);
    top.caption = part_caption(t, 0, nshow);
    rt_html(&top, &b);
    rp_out_raw(o, pb_buf_str(&b));
    pb_buf_release(&b);
    o->sum.tables++;

    /* the whole table on its page; the PDF has it whole */
    struct pb_buf h = PB_BUF_INIT;
    rp_page_head(o, &h, what);
    pb_buf_printf(&h, "<p class=\"pager\"><a href=\"index.html\">Overview "
                      "(index.html)</a></p>\n</header>\n<section id=\"%s\">"
                      "\n",
                  stem);
    rt_html(t, &h);
    pb_buf_puts(&h, "</section>\n");
    char *rel = pb_xasprintf("%s.html", stem);
    rp_page_write(o, &h, rel, "A click on a header sorts the rows.");
    free(rel);
    pb_buf_release(&h);
    if (o->pdf)
        rp_pdf_table(o->pdf, t);
    rt_release(t);
}
