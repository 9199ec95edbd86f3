/* Private to render/: the output primitives every section writes through
 * (out.c: headings, paragraphs, charts, tables, files; page.c: pages of
 * their own; table_pages.c: long tables paged) and the style sheet. */
#ifndef PB_RP_OUT_H
#define PB_RP_OUT_H

#include "render/rp_chart.h"
#include "render/rp_table.h"

/* ==== report output (report.c) ==== */

/* Where sections go: index.html, charts/, the PDF. */
struct rp_out;

/* Heading with an HTML id (may be NULL); also a PDF heading/bookmark. */
void rp_out_heading(struct rp_out *o, int level, const char *id,
                    const char *text);
/* Paragraph of plain text (escaped); cls may be NULL. */
void rp_out_para(struct rp_out *o, const char *cls, const char *text);
/* A fold: <details> (class cls, may be NULL) whose summary is shown and
 * whose n items are a list inside (all escaped); in the PDF the summary
 * and the items as one paragraph. */
void rp_out_fold(struct rp_out *o, const char *cls, const char *summary,
                 const char *const *items, size_t n);
/* Write c as charts/NNN-stem.svg (and .png), add it to the page and the
 * PDF, and free it. */
void rp_out_chart(struct rp_out *o, struct pb_chart *c, const char *stem);
/* Add the table to the page and the PDF, and release it. */
void rp_out_table(struct rp_out *o, struct rt_table *t);
/* As rp_out_table, but t's cells array is handed back in *cells and *cap
 * (the caller's: to give the next table of its size, then free) instead
 * of freed: a table of 1,000 bonnie++ rows (2 MB of cells) a page,
 * without new memory faulted in for each. */
void rp_out_table_keep(struct rp_out *o, struct rt_table *t,
                       struct rt_cell **cells, size_t *cap);
/* Trusted markup written as is (only literals from render/). */
void rp_out_raw(struct rp_out *o, const char *html);
/* The fonts charts are measured with. */
struct rc_fonts *rp_out_fonts(struct rp_out *o);

/* A file of the report (rel: "charts/series-001-read_bw.csv"). */
void rp_out_file(struct rp_out *o, const char *rel, const char *data,
                 size_t len);

/* A page of its own for part of a long table (page > 1; index.html holds
 * page 1): STEM-NNN.html with links to its neighbours; between begin and
 * end the rp_out_* calls write to it. */
void rp_table_page_begin(struct rp_out *o, const char *stem,
                         const char *what, size_t page, size_t npages);
void rp_table_page_end(struct rp_out *o, const char *stem, size_t page,
                       size_t npages);
/* The links of page `page` of a long table's pages: index.html,
 * neighbours STEM-NNN.html; first: the href of page 1. */
void rp_table_pager(struct pb_buf *h, const char *stem, const char *first,
                    size_t page, size_t npages);
/* Head of a page of its own into h (doctype, style, title; what names
 * it), up to its header's navigation. */
void rp_page_head(struct rp_out *o, struct pb_buf *h, const char *what);
/* Footer (note: its last sentence) into h; writes h as rel and counts it
 * in the summary's table_pages. */
void rp_page_foot(struct rp_out *o, struct pb_buf *h, const char *rel,
                  const char *note);
/* The same, for a page the summary does not count (best.html). */
void rp_page_write(struct rp_out *o, struct pb_buf *h, const char *rel,
                   const char *note);
/* The file the output primitives write now: "index.html" or a test page
 * ("tests-003.html"). */
const char *rp_out_here(const struct rp_out *o);

/* ==== long tables, paged (table_pages.c) ==== */

/* Rows of a long table on one page. */
#define RP_TABLE_PAGE 1000

/* Writes table t like rp_out_table when it has at most RP_TABLE_PAGE
 * rows. Longer: its first RP_TABLE_PAGE rows where the output is, after
 * a note and links "rows 1001–2000", ...; the other rows, in t's order,
 * on STEM-002.html, STEM-003.html, ... (RP_TABLE_PAGE each, titled with
 * what and their row range). stem: [a-z0-9-], unique in the report;
 * NULL = "table-K" (K counts the report's paged tables). Frees t. */
void rp_out_table_paged(struct rp_out *o, struct rt_table *t,
                        const char *stem, const char *what);
/* The same, for tables that come many to a section (IOPS against
 * latency: one per family and direction): past RP_TABLE_PAGE rows, every
 * row is on the pages (STEM-001.html, ...) and only the note and links
 * stand where the table would. Frees t. */
void rp_out_table_elsewhere(struct rp_out *o, struct rt_table *t,
                            const char *stem, const char *what);

/* A table of a test's configurations (chart_many.c) is shown whole on
 * its test page up to RP_ENDS_WHOLE rows; past that the page shows its
 * first and its last RP_ENDS_ROWS (the best and the worst, in the order
 * of its first column). */
#define RP_ENDS_WHOLE 200
#define RP_ENDS_ROWS  25

/* A table of a test with many configurations (chart_many.c): up to
 * RP_ENDS_WHOLE rows, rp_out_table; past that its first and last
 * RP_ENDS_ROWS rows where the output is, after them a note and the links
 * of STEM-001.html, ... which hold every row in t's order (RP_TABLE_PAGE
 * each), so that a test page stays the same size at any number of
 * configurations. Frees t. */
void rp_out_table_ends(struct rp_out *o, struct rt_table *t,
                       const char *stem, const char *what);

/* The top nshow rows of t where the output is, after a note linking
 * STEM.html, which holds all of t (titled what); t itself when it has at
 * most nshow rows. index.html of a split report shows the best table
 * this way. Frees t. */
void rp_out_table_top(struct rp_out *o, struct rt_table *t, const char *stem,
                      const char *what, size_t nshow);

/* The style sheet of every page (css.c): the report's pages and, before
 * rules of its own, the compare page. */
extern const char rp_css[];
extern const char rp_css_more[];
/* Both style sheets, rp_css then rp_css_more, into h. */
void rp_css_put(struct pb_buf *h);

#endif
