/* The SVG back-end: writes a chart's display list as a small standalone
 * SVG document with real <text> elements (selectable and searchable). */
#include "render/render_int.h"

#include <math.h>
#include <string.h>

/* A coordinate with one decimal, without a trailing ".0". */
static void num(struct pb_buf *b, double v)
{
    long t = lround(v * 10);
    if (t < 0) {
        pb_buf_putc(b, '-');
        t = -t;
    }
    if (t % 10)
        pb_buf_printf(b, "%ld.%ld", t / 10, t % 10);
    else
        pb_buf_printf(b, "%ld", t / 10);
}

static void attr_num(struct pb_buf *b, const char *name, double v)
{
    pb_buf_printf(b, " %s=\"", name);
    num(b, v);
    pb_buf_putc(b, '"');
}

static void attr_color(struct pb_buf *b, const char *name, uint32_t c)
{
    if (c == RC_NONE) {
        pb_buf_printf(b, " %s=\"none\"", name);
        return;
    }
    char hex[8];
    pb_buf_printf(b, " %s=\"%s\"", name, rc_hex(c, hex));
}

static void item(struct pb_buf *b, const struct pb_item *it)
{
    switch (it->kind) {
    case PB_IT_RECT:
        pb_buf_puts(b, "<rect");
        attr_num(b, "x", it->x);
        attr_num(b, "y", it->y);
        attr_num(b, "width", it->w);
        attr_num(b, "height", it->h);
        attr_color(b, "fill", it->fill);
        if (it->stroke != RC_NONE) {
            attr_color(b, "stroke", it->stroke);
            attr_num(b, "stroke-width", it->sw);
        }
        pb_buf_puts(b, "/>\n");
        break;
    case PB_IT_LINE:
        pb_buf_puts(b, "<line");
        attr_num(b, "x1", it->x);
        attr_num(b, "y1", it->y);
        attr_num(b, "x2", it->w);
        attr_num(b, "y2", it->h);
        attr_color(b, "stroke", it->stroke);
        attr_num(b, "stroke-width", it->sw);
        pb_buf_puts(b, "/>\n");
        break;
    case PB_IT_TEXT:
        pb_buf_puts(b, "<text");
        attr_num(b, "x", it->x);
        attr_num(b, "y", it->y);
        attr_num(b, "font-size", it->size);
        if (it->bold)
            pb_buf_puts(b, " font-weight=\"bold\"");
        if (it->anchor == RC_MIDDLE)
            pb_buf_puts(b, " text-anchor=\"middle\"");
        else if (it->anchor == RC_END)
            pb_buf_puts(b, " text-anchor=\"end\"");
        attr_color(b, "fill", it->fill);
        if (it->rot90) {
            pb_buf_puts(b, " transform=\"rotate(-90 ");
            num(b, it->x);
            pb_buf_putc(b, ' ');
            num(b, it->y);
            pb_buf_puts(b, ")\"");
        }
        pb_buf_putc(b, '>');
        if (it->title) {
            pb_buf_puts(b, "<title>");
            rp_esc(b, it->title);
            pb_buf_puts(b, "</title>");
        }
        rp_esc(b, it->text);
        pb_buf_puts(b, "</text>\n");
        break;
    }
}

void pb_chart_svg(const struct pb_chart *c, struct pb_buf *out)
{
    pb_buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr_num(out, "width", c->w);
    attr_num(out, "height", c->h);
    pb_buf_puts(out, " viewBox=\"0 0 ");
    num(out, c->w);
    pb_buf_putc(out, ' ');
    num(out, c->h);
    pb_buf_puts(out, "\" font-family=\"");
    rp_esc(out, RC_FONT_CSS);
    pb_buf_puts(out, "\" style=\"font-kerning:none\" role=\"img\">\n");
    if (c->title) {
        pb_buf_puts(out, "<title>");
        rp_esc(out, c->title);
        pb_buf_puts(out, "</title>\n");
    }
    for (size_t i = 0; i < c->n; i++)
        item(out, &c->items[i]);
    pb_buf_puts(out, "</svg>\n");
}
