/* Private to render/: the PDF beside the report (cairo_out.c). */
#ifndef PB_RP_PDF_H
#define PB_RP_PDF_H

#include "render/rp_chart.h"
#include "render/rp_table.h"

/* ==== PDF (cairo_out.c) ==== */

/* The PDF is written through pb_wfile (common/pb_file.h): beside path,
 * renamed over it by rp_pdf_close; path must not be a file of keep. */
struct rp_pdf;
int rp_pdf_open(const char *path, const struct pb_keep *keep,
                struct rc_fonts *f, struct rp_pdf **out,
                struct pb_err *err) PB_WUR;
void rp_pdf_heading(struct rp_pdf *p, int level, const char *text);
void rp_pdf_para(struct rp_pdf *p, const char *text);
void rp_pdf_chart(struct rp_pdf *p, const struct pb_chart *c);
void rp_pdf_table(struct rp_pdf *p, const struct rt_table *t);
/* Layout numbers of the PDF so far, for tests: the smallest table text
 * (pt), headings drawn, and headings whose content began on a later page
 * (orphans: 0 is the rule). */
struct rp_pdf_stats {
    double min_table_pt;
    size_t headings, orphans, table_parts;
    int last_heading_page; /* internal: the page of the last heading */
    double last_heading_y;
};
void rp_pdf_get_stats(const struct rp_pdf *p, struct rp_pdf_stats *out);
/* Finish and free. The PDF is written to a temporary file beside path
 * and renamed over it only when keep is set and all went well; PB_OK or
 * PB_EIO. */
int rp_pdf_close(struct rp_pdf *p, int keep, struct pb_err *err) PB_WUR;

#endif
