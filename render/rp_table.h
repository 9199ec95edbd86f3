/* Private to render/: tables as cells (table.c), written as HTML by
 * rt_html and into the PDF by cairo_out.c. Prefix rt_. */
#ifndef PB_RP_TABLE_H
#define PB_RP_TABLE_H

#include "render/rp_data.h"
#include <stdint.h>

/* ==== tables (table.c) ==== */

enum { RT_LEFT, RT_RIGHT, RT_CENTER };
enum {
    RT_BOLD = 1,
    RT_MUTED = 2,
    RT_WARN = 4, /* flagged: red */
    RT_GOOD = 8,
    RT_MONO = 16,
    RT_ITALIC = 32,
    RT_AMBER = 64 /* caution: amber */
};

struct rt_cell {
    const char *text;  /* plain text, escaped on output */
    const char *title; /* tooltip; may be NULL */
    const char *href;  /* link target (relative); may be NULL */
    double sortv;
    unsigned char has_sortv, align, style, has_bg, has_swatch;
    unsigned span; /* colspan in group headers; 0 = 1 */
    uint32_t bg, swatch;
};

struct rt_table {
    struct pb_arena arena;
    const char *id;      /* HTML id; may be NULL */
    const char *caption; /* may be NULL */
    const char *note;    /* paragraph after the table; may be NULL */
    size_t ncols;
    struct rt_cell *head;  /* ncols header cells */
    struct rt_cell *group; /* optional row above head, with spans */
    size_t ngroup;
    struct rt_cell *cells; /* nrows * ncols */
    size_t nrows, cap;
    int sortable;
    int fold; /* inside a closed <details> */
};

void rt_init(struct rt_table *t, size_t ncols);
void rt_release(struct rt_table *t);
/* Arena copy of a formatted string. */
const char *rt_str(struct rt_table *t, const char *fmt, ...) PB_PRINTF(2, 3);
/* Set header i (text copied). */
void rt_header(struct rt_table *t, size_t i, const char *text, int align);
/* Add the optional group header row (cells copied later with rt_str). */
struct rt_cell *rt_group(struct rt_table *t, size_t n);
/* New row of ncols zeroed cells, aligned like the headers. The pointer is
 * valid until the next rt_row. */
struct rt_cell *rt_row(struct rt_table *t);
/* Set a cell's text (copied) and, when has_v, its numeric sort value. */
void rt_set(struct rt_table *t, struct rt_cell *c, const char *text);
void rt_setv(struct rt_table *t, struct rt_cell *c, const char *text, double v);
/* A configuration's label cell (swatch, sort value, tooltip;
 * report_overview.c). */
void rp_config_cell(struct rt_table *t, struct rt_cell *c,
                    const struct rp_config *cf);

/* Append the table as HTML. */
void rt_html(const struct rt_table *t, struct pb_buf *out);

#endif
