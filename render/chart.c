/* Charts as display lists: items (rectangles, lines, polygons, text)
 * with coordinates clamped to what SVG, cairo and a browser draw, which
 * the SVG and cairo back-ends draw alike; and the colours of configs,
 * series and heatmaps. Layout of the chart kinds: chart_kinds.c. */
#define _GNU_SOURCE
#include "render/rp_chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== display list ==== */

struct pb_chart *rc_chart_new(double w, double h)
{
    struct pb_chart *c = pb_xcalloc(1, sizeof(*c));
    c->w = w;
    c->h = h;
    pb_arena_init(&c->arena);
    return c;
}

void pb_chart_free(struct pb_chart *c)
{
    if (!c)
        return;
    free(c->items);
    pb_arena_release(&c->arena);
    free(c);
}

double pb_chart_width(const struct pb_chart *c)
{
    return c->w;
}

double pb_chart_height(const struct pb_chart *c)
{
    return c->h;
}

/* Coordinates of extreme values (1e300, inf, NaN from an axis that
 * overflowed) are drawn at the edge of what SVG, cairo and a browser
 * handle, and the chart says it clamped something. */
#define RC_COORD_MAX 1e6

static double cl(struct pb_chart *c, double v)
{
    if (isnan(v)) {
        c->clamped = 1;
        return 0;
    }
    if (v > RC_COORD_MAX || v < -RC_COORD_MAX) {
        c->clamped = 1;
        return v > 0 ? RC_COORD_MAX : -RC_COORD_MAX;
    }
    return v;
}

void rc_fix_size(struct pb_chart *c)
{
    c->w = cl(c, c->w);
    c->h = cl(c, c->h);
    if (c->w < 1)
        c->w = 1;
    if (c->h < 1)
        c->h = 1;
}

static struct pb_item *push(struct pb_chart *c, int kind)
{
    PB_GROW(c->items, c->cap, c->n + 1);
    struct pb_item *it = &c->items[c->n++];
    memset(it, 0, sizeof(*it));
    it->kind = (unsigned char)kind;
    it->fill = RC_NONE;
    it->stroke = RC_NONE;
    return it;
}

void rc_rect(struct pb_chart *c, double x, double y, double w, double h,
             uint32_t fill, uint32_t stroke, double sw)
{
    struct pb_item *it = push(c, PB_IT_RECT);
    it->x = cl(c, x);
    it->y = cl(c, y);
    it->w = cl(c, w);
    it->h = cl(c, h);
    it->fill = fill;
    it->stroke = stroke;
    it->sw = sw;
}

void rc_line(struct pb_chart *c, double x1, double y1, double x2, double y2,
             uint32_t stroke, double sw)
{
    struct pb_item *it = push(c, PB_IT_LINE);
    it->x = cl(c, x1);
    it->y = cl(c, y1);
    it->w = cl(c, x2);
    it->h = cl(c, y2);
    it->stroke = stroke;
    it->sw = sw;
}

void rc_poly(struct pb_chart *c, const double *xy, size_t n, uint32_t fill,
             uint32_t stroke, double sw)
{
    if (n < 2)
        return;
    struct pb_item *it = push(c, PB_IT_POLY);
    double *p = pb_arena_alloc(&c->arena, 2 * n * sizeof(*p));
    for (size_t i = 0; i < 2 * n; i++)
        p[i] = cl(c, xy[i]);
    it->pts = p;
    it->npts = n;
    it->fill = fill;
    it->stroke = stroke;
    it->sw = sw;
}

struct pb_item *rc_text(struct pb_chart *c, double x, double y, const char *s,
                        double size, int bold, int anchor, uint32_t fill)
{
    struct pb_item *it = push(c, PB_IT_TEXT);
    it->x = cl(c, x);
    it->y = cl(c, y);
    it->text = pb_arena_strdup(&c->arena, s ? s : "");
    it->size = size;
    it->bold = (unsigned char)bold;
    it->anchor = (unsigned char)anchor;
    it->fill = fill;
    return it;
}

/* ==== colours (a configuration's and a series': analysis/data_order.c) ==== */

uint32_t rc_heat_color(double t)
{
    static const uint32_t blues[] = {0xeff3ff, 0xc6dbef, 0x9ecae1, 0x6baed6,
                                     0x4292c6, 0x2171b5, 0x08519c, 0x08306b};
    return rc_lerp_color(blues, 8, t);
}

uint32_t rc_text_on(uint32_t bg)
{
    double r = ((bg >> 16) & 0xff) / 255.0, g = ((bg >> 8) & 0xff) / 255.0,
           b = (bg & 0xff) / 255.0;
    double l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    return l < 0.5 ? 0xffffff : 0x1a1a1a;
}

const char *rc_hex(uint32_t c, char *buf)
{
    snprintf(buf, 8, "#%06x", (unsigned)(c & 0xffffff));
    return buf;
}
