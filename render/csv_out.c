/* The data behind a chart as CSV: one generic writer (rp_csv_*) that every
 * chart kind fills with the exact numbers it draws, written beside the
 * chart as charts/NNN-stem.csv and linked under it. Text is quoted per
 * RFC 4180 and a cell a spreadsheet would run as a formula gets a leading
 * ' (common/pb_out.c, as export writes it). */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_table.h"
#include "render/rp_files.h"
#include "render/rp_csv.h"
#include "common/pb_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rp_csv {
    struct pb_buf b;
    size_t ncols, col, rows;
};

static int valid_utf8(const char *s)
{
    while (*s) {
        size_t l = pb_utf8_len((const unsigned char *)s, 4);
        if (!l)
            return 0;
        s += l;
    }
    return 1;
}

void rp_csv_esc(struct pb_buf *b, const char *s)
{
    if (!s)
        return;
    struct pb_arena a;
    int bad = !valid_utf8(s);
    if (bad) {
        /* bytes no spreadsheet could decode: U+FFFD, as the page shows */
        pb_arena_init(&a);
        s = rp_clean(&a, s);
    }
    pb_csv_field(b, s);
    if (bad)
        pb_arena_release(&a);
}

struct rp_csv *rp_csv_new(size_t ncols, const char *const *head)
{
    struct rp_csv *c = pb_xcalloc(1, sizeof(*c));
    c->ncols = ncols ? ncols : 1;
    pb_buf_puts(&c->b, "");
    for (size_t i = 0; i < ncols; i++)
        rp_csv_str(c, head[i]);
    c->rows = 0; /* the header is no data row */
    return c;
}

void rp_csv_free(struct rp_csv *c)
{
    if (!c)
        return;
    pb_buf_release(&c->b);
    free(c);
}

/* Before a field: its separator; after it: the row's end when full. */
static void field_begin(struct rp_csv *c)
{
    if (c->col)
        pb_buf_putc(&c->b, ',');
}

static void field_end(struct rp_csv *c)
{
    if (++c->col == c->ncols) {
        pb_buf_puts(&c->b, "\r\n");
        c->col = 0;
        c->rows++;
    }
}

void rp_csv_str(struct rp_csv *c, const char *s)
{
    field_begin(c);
    rp_csv_esc(&c->b, s);
    field_end(c);
}

void rp_csv_num(struct rp_csv *c, double v)
{
    field_begin(c);
    if (isfinite(v)) {
        char buf[48];
        pb_buf_puts(&c->b, rp_num(v, buf, sizeof(buf)));
    }
    field_end(c);
}

void rp_csv_int(struct rp_csv *c, long long v)
{
    char buf[32];
    field_begin(c);
    pb_buf_puts(&c->b, rp_int(v, buf, sizeof(buf)));
    field_end(c);
}

void rp_csv_empty(struct rp_csv *c)
{
    field_begin(c);
    field_end(c);
}

void rp_csv_fields(struct rp_csv *c, const char *text, size_t len,
                   size_t n)
{
    field_begin(c);
    pb_buf_add(&c->b, text, len);
    c->col += n - 1;
    field_end(c);
}

void rp_csv_cell(struct rp_csv *c, const struct rp_cell *cell)
{
    if (!cell || !cell->has_value) {
        rp_csv_empty(c);
        rp_csv_empty(c);
        rp_csv_empty(c);
    } else {
        rp_csv_num(c, cell->mean);
        if (cell->se >= 0)
            rp_csv_num(c, cell->se);
        else
            rp_csv_empty(c);
        rp_csv_int(c, cell->n);
    }
    rp_csv_int(c, cell ? cell->nresults : 0);
}

struct rp_csv *rp_csv_table(const struct rt_table *t)
{
    const char **head = pb_xcalloc(t->ncols + 1, sizeof(*head));
    for (size_t i = 0; i < t->ncols; i++)
        head[i] = t->head[i].text ? t->head[i].text : "";
    struct rp_csv *c = rp_csv_new(t->ncols, head);
    free(head);
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t i = 0; i < t->ncols; i++) {
            const struct rt_cell *x = &t->cells[r * t->ncols + i];
            if (x->has_sortv && t->head[i].align != RT_LEFT)
                rp_csv_num(c, x->sortv);
            else
                rp_csv_str(c, x->text ? x->text : "");
        }
    return c;
}

size_t rp_csv_rows(const struct rp_csv *c)
{
    return c->rows;
}

const char *rp_csv_text(struct rp_csv *c, size_t *len)
{
    while (c->col) /* a short last row: its missing fields are empty */
        rp_csv_empty(c);
    *len = c->b.len;
    return pb_buf_str(&c->b);
}

int rp_csv_put(struct rp_csv *c, struct rp_dir *dir, const char *name,
               struct pb_buf *html, struct pb_err *err)
{
    size_t len;
    const char *text = rp_csv_text(c, &len);
    char *rel = pb_xasprintf("charts/%s.csv", name);
    int rc = rp_dir_write(dir, rel, text, len, err);
    if (rc == PB_OK)
        pb_buf_printf(html,
                      "<figcaption class=\"csv\"><a href=\"%s\" "
                      "type=\"text/csv\" download>Data (CSV, %zu "
                      "row%s)</a></figcaption>",
                      rel, c->rows, c->rows == 1 ? "" : "s");
    free(rel);
    return rc;
}
