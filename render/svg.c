/* The SVG back-end: writes a chart's display list as a small standalone
 * SVG document with real <text> elements (selectable and searchable). */
#include "render/render_int.h"

#include <math.h>
#include <string.h>

/* Items are formatted into a line buffer by hand and appended once:
 * printf per attribute was a quarter of the time of a report of 4,000
 * charts. Output is the same as "%ld.%ld" / "#%06x" would give. */
struct line {
    char s[512]; /* the longest item without its texts is under 300 */
    char *p;
};

static void lit(struct line *l, const char *s)
{
    while (*s)
        *l->p++ = *s++;
}

static void uint_(struct line *l, unsigned long t)
{
    char d[24];
    int n = 0;
    do {
        d[n++] = (char)('0' + t % 10);
        t /= 10;
    } while (t);
    while (n)
        *l->p++ = d[--n];
}

/* A coordinate with one decimal, without a trailing ".0". */
static void num(struct line *l, double v)
{
    long t = lround(v * 10);
    if (t < 0) {
        *l->p++ = '-';
        t = -t;
    }
    uint_(l, (unsigned long)t / 10);
    if (t % 10) {
        *l->p++ = '.';
        *l->p++ = (char)('0' + t % 10);
    }
}

static void attr_num(struct line *l, const char *name, double v)
{
    *l->p++ = ' ';
    lit(l, name);
    lit(l, "=\"");
    num(l, v);
    *l->p++ = '"';
}

static void attr_color(struct line *l, const char *name, uint32_t c)
{
    *l->p++ = ' ';
    lit(l, name);
    if (c == RC_NONE) {
        lit(l, "=\"none\"");
        return;
    }
    static const char hex[] = "0123456789abcdef";
    lit(l, "=\"#");
    for (int sh = 20; sh >= 0; sh -= 4)
        *l->p++ = hex[(c >> sh) & 0xf];
    *l->p++ = '"';
}

static void flush(struct pb_buf *b, struct line *l)
{
    pb_buf_add(b, l->s, (size_t)(l->p - l->s));
    l->p = l->s;
}

static void item(struct pb_buf *b, const struct pb_item *it)
{
    struct line l;
    l.p = l.s;
    switch (it->kind) {
    case PB_IT_RECT:
        lit(&l, "<rect");
        attr_num(&l, "x", it->x);
        attr_num(&l, "y", it->y);
        attr_num(&l, "width", it->w);
        attr_num(&l, "height", it->h);
        attr_color(&l, "fill", it->fill);
        if (it->stroke != RC_NONE) {
            attr_color(&l, "stroke", it->stroke);
            attr_num(&l, "stroke-width", it->sw);
        }
        lit(&l, "/>\n");
        break;
    case PB_IT_LINE:
        lit(&l, "<line");
        attr_num(&l, "x1", it->x);
        attr_num(&l, "y1", it->y);
        attr_num(&l, "x2", it->w);
        attr_num(&l, "y2", it->h);
        attr_color(&l, "stroke", it->stroke);
        attr_num(&l, "stroke-width", it->sw);
        lit(&l, "/>\n");
        break;
    case PB_IT_TEXT:
        lit(&l, "<text");
        attr_num(&l, "x", it->x);
        attr_num(&l, "y", it->y);
        attr_num(&l, "font-size", it->size);
        if (it->bold)
            lit(&l, " font-weight=\"bold\"");
        if (it->anchor == RC_MIDDLE)
            lit(&l, " text-anchor=\"middle\"");
        else if (it->anchor == RC_END)
            lit(&l, " text-anchor=\"end\"");
        attr_color(&l, "fill", it->fill);
        if (it->rot90) {
            lit(&l, " transform=\"rotate(-90 ");
            num(&l, it->x);
            *l.p++ = ' ';
            num(&l, it->y);
            lit(&l, ")\"");
        }
        *l.p++ = '>';
        if (it->title) {
            lit(&l, "<title>");
            flush(b, &l);
            rp_esc(b, it->title);
            lit(&l, "</title>");
        }
        flush(b, &l);
        rp_esc(b, it->text);
        lit(&l, "</text>\n");
        break;
    }
    flush(b, &l);
}

void pb_chart_svg(const struct pb_chart *c, struct pb_buf *out)
{
    struct line l;
    l.p = l.s;
    lit(&l, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr_num(&l, "width", c->w);
    attr_num(&l, "height", c->h);
    lit(&l, " viewBox=\"0 0 ");
    num(&l, c->w);
    *l.p++ = ' ';
    num(&l, c->h);
    flush(out, &l);
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
