/* The SVG back-end: writes a chart's display list as a small standalone
 * SVG document with real <text> elements (selectable and searchable). */
#include "render/rp_base.h"
#include "render/rp_chart.h"

#include <math.h>
#include <string.h>

/* Items are formatted into a line buffer by hand and appended once:
 * printf per attribute was a quarter of the time of a report of 4,000
 * charts. Output is the same as "%ld.%ld" / "#%06x" would give. */
struct line {
    char s[512]; /* the longest item without its texts is under 300 */
    char *p;
};

/* A string literal appended with its length known at compile time. */
#define LIT(l, s)                                                              \
    do {                                                                       \
        memcpy((l)->p, (s), sizeof(s) - 1);                                    \
        (l)->p += sizeof(s) - 1;                                               \
    } while (0)

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
    if (!(v > -1e9 && v < 1e9)) /* NaN, inf, or far beyond any chart */
        v = v > 0 ? 1e9 : v < 0 ? -1e9 : 0;
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

/* name="v" (the name a literal). */
#define ATTR_NUM(l, name, v)                                                   \
    do {                                                                       \
        LIT(l, " " name "=\"");                                                \
        num(l, v);                                                             \
        *(l)->p++ = '"';                                                       \
    } while (0)

static void color(struct line *l, uint32_t c)
{
    if (c == RC_NONE) {
        LIT(l, "none\"");
        return;
    }
    static const char hex[] = "0123456789abcdef";
    *l->p++ = '#';
    for (int sh = 20; sh >= 0; sh -= 4)
        *l->p++ = hex[(c >> sh) & 0xf];
    *l->p++ = '"';
}

#define ATTR_COLOR(l, name, c)                                                 \
    do {                                                                       \
        LIT(l, " " name "=\"");                                                \
        color(l, c);                                                           \
    } while (0)

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
        LIT(&l, "<rect");
        ATTR_NUM(&l, "x", it->x);
        ATTR_NUM(&l, "y", it->y);
        ATTR_NUM(&l, "width", it->w);
        ATTR_NUM(&l, "height", it->h);
        ATTR_COLOR(&l, "fill", it->fill);
        if (it->stroke != RC_NONE) {
            ATTR_COLOR(&l, "stroke", it->stroke);
            ATTR_NUM(&l, "stroke-width", it->sw);
        }
        LIT(&l, "/>\n");
        break;
    case PB_IT_POLY:
        if (it->fill != RC_NONE)
            LIT(&l, "<polygon");
        else
            LIT(&l, "<polyline");
        ATTR_COLOR(&l, "fill", it->fill);
        if (it->stroke != RC_NONE) {
            ATTR_COLOR(&l, "stroke", it->stroke);
            ATTR_NUM(&l, "stroke-width", it->sw);
            LIT(&l, " stroke-linejoin=\"round\"");
        }
        LIT(&l, " points=\"");
        for (size_t k = 0; k < it->npts; k++) {
            if ((size_t)(l.p - l.s) > sizeof(l.s) - 64)
                flush(b, &l);
            if (k)
                *l.p++ = ' ';
            num(&l, it->pts[2 * k]);
            *l.p++ = ',';
            num(&l, it->pts[2 * k + 1]);
        }
        LIT(&l, "\"/>\n");
        break;
    case PB_IT_LINE:
        LIT(&l, "<line");
        ATTR_NUM(&l, "x1", it->x);
        ATTR_NUM(&l, "y1", it->y);
        ATTR_NUM(&l, "x2", it->w);
        ATTR_NUM(&l, "y2", it->h);
        ATTR_COLOR(&l, "stroke", it->stroke);
        ATTR_NUM(&l, "stroke-width", it->sw);
        LIT(&l, "/>\n");
        break;
    case PB_IT_TEXT:
        LIT(&l, "<text");
        ATTR_NUM(&l, "x", it->x);
        ATTR_NUM(&l, "y", it->y);
        ATTR_NUM(&l, "font-size", it->size);
        if (it->bold)
            LIT(&l, " font-weight=\"bold\"");
        if (it->anchor == RC_MIDDLE)
            LIT(&l, " text-anchor=\"middle\"");
        else if (it->anchor == RC_END)
            LIT(&l, " text-anchor=\"end\"");
        ATTR_COLOR(&l, "fill", it->fill);
        if (it->rot90) {
            LIT(&l, " transform=\"rotate(-90 ");
            num(&l, it->x);
            *l.p++ = ' ';
            num(&l, it->y);
            LIT(&l, ")\"");
        }
        *l.p++ = '>';
        if (it->title) {
            LIT(&l, "<title>");
            flush(b, &l);
            rp_esc(b, it->title);
            LIT(&l, "</title>");
        }
        flush(b, &l);
        rp_esc(b, it->text);
        LIT(&l, "</text>\n");
        break;
    }
    flush(b, &l);
}

void pb_chart_svg(const struct pb_chart *c, struct pb_buf *out)
{
    struct line l;
    l.p = l.s;
    LIT(&l, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    ATTR_NUM(&l, "width", c->w);
    ATTR_NUM(&l, "height", c->h);
    LIT(&l, " viewBox=\"0 0 ");
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
