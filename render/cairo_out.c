/* The cairo back-end: draws a chart's display list on any cairo_t, writes
 * PNGs through an image surface, and lays out the one-file PDF (headings,
 * paragraphs, charts and tables on A4 pages) through a PDF surface. */
#define _GNU_SOURCE
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_pdf.h"
#include "common/pb_file.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PI 3.14159265358979323846

/* ==== drawing a chart ==== */

static void source(cairo_t *cr, uint32_t c)
{
    cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
                         ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

static void draw_text(cairo_t *cr, const struct pb_item *it)
{
    rc_use_font(cr, it->size, it->bold);
    cairo_text_extents_t e;
    cairo_text_extents(cr, it->text, &e);
    double dx = it->anchor == RC_MIDDLE ? -e.x_advance / 2
                : it->anchor == RC_END  ? -e.x_advance
                                        : 0;
    source(cr, it->fill == RC_NONE ? 0 : it->fill);
    cairo_save(cr);
    cairo_translate(cr, it->x, it->y);
    if (it->rot90)
        cairo_rotate(cr, -PI / 2);
    cairo_move_to(cr, dx, 0);
    cairo_show_text(cr, it->text);
    cairo_restore(cr);
    cairo_new_path(cr);
}

void pb_chart_draw(const struct pb_chart *c, cairo_t *cr)
{
    cairo_save(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        switch (it->kind) {
        case PB_IT_RECT:
            cairo_rectangle(cr, it->x, it->y, it->w, it->h);
            if (it->fill != RC_NONE) {
                source(cr, it->fill);
                cairo_fill_preserve(cr);
            }
            if (it->stroke != RC_NONE) {
                source(cr, it->stroke);
                cairo_set_line_width(cr, it->sw);
                cairo_stroke_preserve(cr);
            }
            cairo_new_path(cr);
            break;
        case PB_IT_POLY:
            cairo_move_to(cr, it->pts[0], it->pts[1]);
            for (size_t k = 1; k < it->npts; k++)
                cairo_line_to(cr, it->pts[2 * k], it->pts[2 * k + 1]);
            if (it->fill != RC_NONE) {
                cairo_close_path(cr);
                source(cr, it->fill);
                cairo_fill_preserve(cr);
            }
            if (it->stroke != RC_NONE) {
                source(cr, it->stroke);
                cairo_set_line_width(cr, it->sw);
                cairo_stroke_preserve(cr);
            }
            cairo_new_path(cr);
            break;
        case PB_IT_LINE:
            cairo_move_to(cr, it->x, it->y);
            cairo_line_to(cr, it->w, it->h);
            source(cr, it->stroke);
            cairo_set_line_width(cr, it->sw);
            cairo_stroke(cr);
            break;
        case PB_IT_TEXT:
            draw_text(cr, it);
            break;
        }
    }
    cairo_restore(cr);
}

/* cairo's stream writer onto a descriptor; *closure: {fd, errno}. */
static cairo_status_t fd_write(void *closure, const unsigned char *data,
                               unsigned int len)
{
    int *fe = closure;
    if (!fe[1])
        fe[1] = pb_write_all(fe[0], data, len);
    return fe[1] ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

int pb_chart_write_png(const struct pb_chart *c, const char *path, double scale,
                       struct pb_err *err)
{
    /* cairo's image surfaces end at 32,767 pixels a side: a taller
     * heatmap is scaled down to fit rather than not written. */
    if (c->w * scale > 32000)
        scale = 32000 / c->w;
    if (c->h * scale > 32000)
        scale = 32000 / c->h;
    int w = (int)ceil(c->w * scale), h = (int)ceil(c->h * scale);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    pb_chart_draw(c, cr);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    int fe[2] = {-1, 0};
    if (st == CAIRO_STATUS_SUCCESS && (fe[0] = pb_create_new(path, 0644)) < 0)
        fe[1] = errno;
    if (st == CAIRO_STATUS_SUCCESS && fe[0] >= 0)
        st = cairo_surface_write_to_png_stream(s, fd_write, fe);
    cairo_surface_destroy(s);
    if (fe[0] >= 0 && close(fe[0]) != 0 && !fe[1])
        fe[1] = errno;
    if (fe[1])
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot write PNG: %s",
                          strerror(fe[1]));
    if (st != CAIRO_STATUS_SUCCESS)
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot write PNG: %s",
                          cairo_status_to_string(st));
    return PB_OK;
}

/* ==== the PDF ==== */

#define PAGE_W    595.28
#define PAGE_H    841.89
#define MARGIN    40.0
#define CONTENT_W (PAGE_W - 2 * MARGIN)

struct rp_pdf {
    cairo_surface_t *s;
    cairo_t *cr;
    struct rc_fonts *f;
    struct pb_arena arena;
    double y;
    int page;
    int outline_h2; /* outline id of the current level-2 heading */
    char *path;
    struct pb_wfile *out; /* beside path, renamed over it at the end */
    int werr;  /* errno of a failed write, 0 = none */
    /* headings not drawn yet: kept with the content that follows them */
    struct {
        int level;
        const char *text;
    } pend[4];
    int npend;
    struct rp_pdf_stats st;
};

static cairo_status_t pdf_write(void *closure, const unsigned char *data,
                                unsigned int len)
{
    struct rp_pdf *p = closure;
    if (!p->werr)
        p->werr = pb_write_all(pb_wfile_fd(p->out), data, len);
    return p->werr ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

int rp_pdf_open(const char *path, const struct pb_keep *keep,
                struct rc_fonts *f, struct rp_pdf **out, struct pb_err *err)
{
    *out = NULL;
    /* Written beside path under a name no one can guess or plant,
     * renamed over path when complete: a failed report keeps the last
     * PDF, and no link is followed. */
    struct rp_pdf *p = pb_xcalloc(1, sizeof(*p));
    int rc = pb_wfile_open(path, keep, &p->out, err);
    if (rc) {
        free(p);
        return rc;
    }
    cairo_surface_t *s =
        cairo_pdf_surface_create_for_stream(pdf_write, p, PAGE_W, PAGE_H);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        rc = pb_err_set(err, PB_EIO, path, 0, 0, "cannot write PDF: %s",
                        cairo_status_to_string(cairo_surface_status(s)));
        cairo_surface_destroy(s);
        pb_wfile_abort(p->out);
        free(p);
        return rc;
    }
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "poolbench");
    /* no creation date: the same database gives the same bytes */
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "");
    p->s = s;
    p->cr = cairo_create(s);
    p->f = f;
    p->y = MARGIN;
    p->page = 1;
    p->outline_h2 = CAIRO_PDF_OUTLINE_ROOT;
    p->path = pb_xstrdup(path);
    pb_arena_init(&p->arena);
    *out = p;
    return PB_OK;
}

static void new_page(struct rp_pdf *p)
{
    cairo_show_page(p->cr);
    p->page++;
    p->y = MARGIN;
}

static double heading_size(int level)
{
    return level <= 1 ? 18 : level == 2 ? 14 : level == 3 ? 11.5 : 10;
}

static void text_at(struct rp_pdf *p, double x, double y, const char *s,
                    double size, int bold, uint32_t color);

/* Draw the pending headings, on a new page unless they and `next` points
 * of what follows them fit on this one: no heading ends a page. */
static void flush_headings(struct rp_pdf *p, double next)
{
    if (!p->npend)
        return;
    const char *lines[3];
    int el;
    double h = 0;
    for (int k = 0; k < p->npend; k++) {
        double size = heading_size(p->pend[k].level);
        size_t n = rc_wrap(p->f, &p->arena, p->pend[k].text, size, 1,
                           CONTENT_W, 3, lines, &el);
        h += (p->pend[k].level <= 2 ? size * 0.8 : size * 0.4) +
             size * 1.25 * (double)n + size * 0.5;
    }
    if (next > PAGE_H - 2 * MARGIN - h)
        next = PAGE_H - 2 * MARGIN - h;
    if (p->y + h + next > PAGE_H - MARGIN && p->y > MARGIN)
        new_page(p);
    for (int k = 0; k < p->npend; k++) {
        int level = p->pend[k].level;
        const char *text = p->pend[k].text;
        double size = heading_size(level);
        size_t n =
            rc_wrap(p->f, &p->arena, text, size, 1, CONTENT_W, 3, lines, &el);
        p->y += level <= 2 ? size * 0.8 : size * 0.4;
        if (level >= 2 && level <= 3) {
            char link[64];
            snprintf(link, sizeof(link), "page=%d pos=[%.1f %.1f]", p->page,
                     MARGIN, p->y);
            int id = cairo_pdf_surface_add_outline(
                p->s, level == 2 ? CAIRO_PDF_OUTLINE_ROOT : p->outline_h2,
                text, link, 0);
            if (level == 2)
                p->outline_h2 = id;
        }
        for (size_t i = 0; i < n; i++) {
            p->y += size * 1.25;
            text_at(p, MARGIN, p->y, lines[i], size, 1, 0x1a1a1a);
        }
        p->y += size * 0.5;
    }
    p->st.headings += (size_t)p->npend;
    p->st.last_heading_page = p->page;
    p->st.last_heading_y = p->y;
    p->npend = 0;
}

/* Content drawn at the current y: a heading left alone at a page's foot
 * (content went on to the next page) is counted, to be tested. */
static void content_at(struct rp_pdf *p)
{
    if (p->st.last_heading_page && p->st.last_heading_page != p->page)
        p->st.orphans++;
    p->st.last_heading_page = 0;
}

void rp_pdf_get_stats(const struct rp_pdf *p, struct rp_pdf_stats *out)
{
    *out = p->st;
}

static void need(struct rp_pdf *p, double h)
{
    if (p->y + h > PAGE_H - MARGIN && p->y > MARGIN)
        new_page(p);
}

static void text_at(struct rp_pdf *p, double x, double y, const char *s,
                    double size, int bold, uint32_t color)
{
    rc_use_font(p->cr, size, bold);
    source(p->cr, color);
    cairo_move_to(p->cr, x, y);
    cairo_show_text(p->cr, s);
    cairo_new_path(p->cr);
}

void rp_pdf_heading(struct rp_pdf *p, int level, const char *text)
{
    if (p->npend == (int)(sizeof(p->pend) / sizeof(p->pend[0])))
        flush_headings(p, 0);
    p->pend[p->npend].level = level;
    p->pend[p->npend++].text = pb_arena_strdup(&p->arena, text);
}

void rp_pdf_para(struct rp_pdf *p, const char *text)
{
    const char *lines[40];
    int el;
    size_t n =
        rc_wrap(p->f, &p->arena, text, 8.5, 0, CONTENT_W, 40, lines, &el);
    flush_headings(p, n > 1 ? 24 : 12);
    for (size_t i = 0; i < n; i++) {
        need(p, 12);
        if (!i)
            content_at(p);
        p->y += 11;
        text_at(p, MARGIN, p->y, lines[i], 8.5, 0, 0x333333);
    }
    p->y += 5;
}

void rp_pdf_chart(struct rp_pdf *p, const struct pb_chart *c)
{
    double scale = CONTENT_W / c->w;
    if (scale > 0.75)
        scale = 0.75;
    double h = c->h * scale;
    double maxh = PAGE_H - 2 * MARGIN;
    if (h > maxh) {
        scale *= maxh / h;
        h = maxh;
    }
    flush_headings(p, h);
    need(p, h);
    content_at(p);
    cairo_save(p->cr);
    cairo_translate(p->cr, MARGIN, p->y);
    cairo_scale(p->cr, scale, scale);
    pb_chart_draw(c, p->cr);
    cairo_restore(p->cr);
    p->y += h + 8;
}

#define TABLE_PT     7.5 /* table text, and never below: */
#define TABLE_MIN_PT 7.0
#define CELL_LINES   5   /* a cell wraps to at most this many lines */

/* One table row (or the header) at the current y: the columns cols[0..nc)
 * of the table, widths colw (by column), cells wrapped. */
static void table_row(struct rp_pdf *p, const struct rt_table *t,
                      const struct rt_cell *cells, const size_t *cols,
                      size_t nc, const double *colw, double fs, int head)
{
    const char *lines[CELL_LINES * 64];
    size_t nl[64];
    size_t nmax = 1;
    if (nc > 64)
        nc = 64;
    for (size_t i = 0; i < nc; i++) {
        const struct rt_cell *c = &cells[cols[i]];
        int el, bold = head || (c->style & RT_BOLD);
        double inner = colw[cols[i]] - 6 - (c->has_swatch && !head ? fs : 0);
        nl[i] = c->text && *c->text
                    ? rc_wrap(p->f, &p->arena, c->text, fs, bold, inner,
                              CELL_LINES, lines + i * CELL_LINES, &el)
                    : 0;
        if (nl[i] > nmax)
            nmax = nl[i];
    }
    double lh = fs * 1.2, rh = lh * (double)nmax + fs * 0.5, x = MARGIN;
    need(p, rh);
    content_at(p);
    for (size_t i = 0; i < nc; i++) {
        const struct rt_cell *c = &cells[cols[i]];
        double w = colw[cols[i]];
        uint32_t bg = head ? 0xeeeeee : c->has_bg ? c->bg : RC_NONE;
        if (bg != RC_NONE) {
            source(p->cr, bg);
            cairo_rectangle(p->cr, x, p->y, w, rh);
            cairo_fill(p->cr);
        }
        double tx0 = x + 3;
        if (c->has_swatch && !head) {
            source(p->cr, c->swatch);
            cairo_rectangle(p->cr, tx0, p->y + fs * 0.25 + lh / 2 - fs * 0.35,
                            fs * 0.7, fs * 0.7);
            cairo_fill(p->cr);
            tx0 += fs;
        }
        int bold = head || (c->style & RT_BOLD);
        uint32_t fg = (c->style & RT_WARN)    ? 0xb00020
                      : (c->style & RT_AMBER) ? 0x9a5b00
                      : (c->style & RT_GOOD)  ? 0x1b7a3a
                      : (c->style & RT_MUTED) ? 0x777777
                      : c->has_bg             ? rc_text_on(c->bg)
                                              : 0x1a1a1a;
        if (head)
            fg = 0x1a1a1a;
        for (size_t k = 0; k < nl[i]; k++) {
            const char *ln = lines[i * CELL_LINES + k];
            double tw = rc_text_width(p->f, ln, fs, bold), tx = tx0;
            if (c->align == RT_RIGHT)
                tx = x + w - 3 - tw;
            else if (c->align == RT_CENTER)
                tx = x + (w - tw) / 2;
            text_at(p, tx, p->y + fs * 0.25 + lh * (double)k + fs * 0.95, ln,
                    fs, bold, fg);
        }
        if (p->st.min_table_pt == 0 || fs < p->st.min_table_pt)
            p->st.min_table_pt = fs;
        x += w;
    }
    source(p->cr, 0xdddddd);
    cairo_set_line_width(p->cr, 0.5);
    cairo_move_to(p->cr, MARGIN, p->y + rh);
    cairo_line_to(p->cr, x, p->y + rh);
    cairo_stroke(p->cr);
    p->y += rh;
}

/* The group header row (spans) over the columns cols[0..nc). */
static void group_row(struct rp_pdf *p, const struct rt_table *t,
                      const size_t *cols, size_t nc, const double *colw,
                      double fs)
{
    double rh = fs * 1.7, x = MARGIN;
    need(p, rh);
    size_t col = 0;
    for (size_t g = 0; g < t->ngroup; g++) {
        size_t span = t->group[g].span ? t->group[g].span : 1;
        double w = 0;
        for (size_t i = 0; i < nc; i++)
            if (cols[i] >= col && cols[i] < col + span)
                w += colw[cols[i]];
        col += span;
        if (w <= 0)
            continue;
        source(p->cr, 0xeeeeee);
        cairo_rectangle(p->cr, x, p->y, w, rh);
        cairo_fill(p->cr);
        const char *txt = t->group[g].text;
        if (txt && *txt) {
            const char *line[1];
            int el;
            rc_wrap(p->f, &p->arena, txt, fs, 1, w - 6, 1, line, &el);
            double tw = rc_text_width(p->f, line[0], fs, 1);
            text_at(p, x + (w - tw) / 2, p->y + rh / 2 + fs * 0.35, line[0],
                    fs, 1, 0x1a1a1a);
        }
        x += w;
    }
    p->y += rh;
}

/* Tables keep their text at 7-7.5 pt: wide text columns wrap (up to five
 * lines), and when the columns still do not fit the page they are split
 * into parts, each with the first column again ("continued"). */
void rp_pdf_table(struct rp_pdf *p, const struct rt_table *t)
{
    if (!t->ncols)
        return;
    double fs = TABLE_PT;
    double *colw = pb_xcalloc(t->ncols, sizeof(double));
    double *natw = pb_xcalloc(t->ncols, sizeof(double));
    double *cellw = pb_xcalloc(t->ncols, sizeof(double)); /* no header */
    for (;;) {
        double total = 0;
        for (size_t c = 0; c < t->ncols; c++) {
            double w = rc_text_width(p->f, t->head[c].text, fs, 1) + 8;
            cellw[c] = 0;
            for (size_t r = 0; r < t->nrows; r++) {
                const struct rt_cell *cell = &t->cells[r * t->ncols + c];
                double cw = rc_text_width(p->f, cell->text, fs,
                                          (cell->style & RT_BOLD) != 0) +
                            8 + (cell->has_swatch ? fs : 0);
                if (cw > cellw[c])
                    cellw[c] = cw;
            }
            natw[c] = w > cellw[c] ? w : cellw[c];
            total += w;
        }
        if (total <= CONTENT_W || fs <= TABLE_MIN_PT)
            break;
        fs -= 0.5;
    }
    /* wrap: columns wider than a share of the page give up width, down to
     * what CELL_LINES lines of their longest text need (and 40 pt) */
    double total = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        colw[c] = natw[c] < 200 ? natw[c] : 200;
        total += colw[c];
    }
    if (total > CONTENT_W) {
        /* the widest column above its floor gives a point at a time */
        double *floor = pb_xcalloc(t->ncols, sizeof(double));
        for (size_t c = 0; c < t->ncols; c++) {
            /* numbers keep their width; text wraps */
            floor[c] = t->head[c].align == RT_RIGHT ? cellw[c]
                                                   : natw[c] / CELL_LINES + 12;
            double hw = rc_text_width(p->f, t->head[c].text, fs, 1) / 2 + 10;
            if (floor[c] < hw)
                floor[c] = hw;
            if (floor[c] < 40)
                floor[c] = 40;
            if (floor[c] > colw[c])
                floor[c] = colw[c];
        }
        while (total > CONTENT_W) {
            size_t best = SIZE_MAX;
            for (size_t c = 0; c < t->ncols; c++)
                if (colw[c] - 1 >= floor[c] &&
                    (best == SIZE_MAX || colw[c] > colw[best]))
                    best = c;
            if (best == SIZE_MAX)
                break;
            colw[best] -= 1;
            total -= 1;
        }
        free(floor);
    }
    /* parts: the first column, then the columns that fit beside it */
    size_t *cols = pb_xcalloc(t->ncols + 1, sizeof(size_t));
    size_t next = 1, part = 0;
    if (t->caption)
        rp_pdf_para(p, t->caption);
    do {
        size_t nc = 0;
        double w = colw[0];
        cols[nc++] = 0;
        while (next < t->ncols && nc < 64 &&
               (nc == 1 || w + colw[next] <= CONTENT_W)) {
            w += colw[next];
            cols[nc++] = next++;
        }
        if (part)
            rp_pdf_para(p, "(continued: more columns of the table above)");
        flush_headings(p, fs * 1.7 * 3);
        need(p, fs * 1.7 * 3);
        if (t->ngroup)
            group_row(p, t, cols, nc, colw, fs);
        table_row(p, t, t->head, cols, nc, colw, fs, 1);
        for (size_t r = 0; r < t->nrows; r++) {
            if (p->y + fs * 1.7 * 2 > PAGE_H - MARGIN) {
                new_page(p);
                table_row(p, t, t->head, cols, nc, colw, fs, 1);
            }
            table_row(p, t, &t->cells[r * t->ncols], cols, nc, colw, fs, 0);
        }
        p->y += 8;
        part++;
    } while (next < t->ncols);
    p->st.table_parts += part;
    if (t->note)
        rp_pdf_para(p, t->note);
    free(cols);
    free(natw);
    free(cellw);
    free(colw);
}

int rp_pdf_close(struct rp_pdf *p, int keep, struct pb_err *err)
{
    if (!p)
        return PB_OK;
    flush_headings(p, 0);
    cairo_show_page(p->cr);
    cairo_destroy(p->cr);
    cairo_surface_finish(p->s);
    cairo_status_t st = cairo_surface_status(p->s);
    cairo_surface_destroy(p->s);
    int rc = PB_OK;
    if (p->werr)
        rc = pb_err_set(err, PB_EIO, p->path, 0, 0, "cannot write PDF: %s",
                        strerror(p->werr));
    else if (st != CAIRO_STATUS_SUCCESS)
        rc = pb_err_set(err, PB_EIO, p->path, 0, 0, "cannot write PDF: %s",
                        cairo_status_to_string(st));
    if (!rc && keep)
        rc = pb_wfile_commit(p->out, err);
    else
        pb_wfile_abort(p->out);
    pb_arena_release(&p->arena);
    free(p->path);
    free(p);
    return rc;
}
