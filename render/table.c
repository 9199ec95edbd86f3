/* Tables of the report as data (cells with text, sort value, alignment,
 * colour), written as HTML here and drawn into the PDF by cairo_out.c. */
#include "render/rp_base.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rt_init(struct rt_table *t, size_t ncols)
{
    memset(t, 0, sizeof(*t));
    pb_arena_init(&t->arena);
    t->ncols = ncols;
    t->head = pb_arena_alloc(&t->arena, (ncols + 1) * sizeof(*t->head));
    memset(t->head, 0, (ncols + 1) * sizeof(*t->head));
}

void rt_release(struct rt_table *t)
{
    free(t->cells);
    pb_arena_release(&t->arena);
    memset(t, 0, sizeof(*t));
}

const char *rt_str(struct rt_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    char tmp[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    if (n >= 0 && (size_t)n < sizeof(tmp)) {
        s = pb_arena_strndup(&t->arena, tmp, (size_t)n);
    } else {
        char *big = pb_xmalloc((size_t)(n > 0 ? n : 0) + 1);
        vsnprintf(big, (size_t)(n > 0 ? n : 0) + 1, fmt, ap2);
        s = pb_arena_strdup(&t->arena, big);
        free(big);
    }
    va_end(ap2);
    va_end(ap);
    return s;
}

void rt_header(struct rt_table *t, size_t i, const char *text, int align)
{
    t->head[i].text = pb_arena_strdup(&t->arena, text);
    t->head[i].align = (unsigned char)align;
}

struct rt_cell *rt_group(struct rt_table *t, size_t n)
{
    t->group = pb_arena_alloc(&t->arena, (n + 1) * sizeof(*t->group));
    memset(t->group, 0, (n + 1) * sizeof(*t->group));
    t->ngroup = n;
    return t->group;
}

struct rt_cell *rt_row(struct rt_table *t)
{
    PB_GROW(t->cells, t->cap, (t->nrows + 1) * t->ncols);
    struct rt_cell *row = &t->cells[t->nrows * t->ncols];
    memset(row, 0, t->ncols * sizeof(*row));
    for (size_t i = 0; i < t->ncols; i++)
        row[i].align = t->head[i].align;
    t->nrows++;
    return row;
}

void rt_set(struct rt_table *t, struct rt_cell *c, const char *text)
{
    c->text = pb_arena_strdup(&t->arena, text ? text : "");
}

void rt_setv(struct rt_table *t, struct rt_cell *c, const char *text, double v)
{
    rt_set(t, c, text);
    c->sortv = v;
    c->has_sortv = 1;
}

/* "#rrggbb" of c at p (7 bytes, no NUL). */
static void put_hex(char *p, uint32_t c)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '#';
    for (int sh = 20; sh >= 0; sh -= 4)
        *p++ = hex[(c >> sh) & 0xf];
}

/* A string literal appended at p, its length known at compile time. */
#define LIT(p, s)                                                              \
    do {                                                                       \
        memcpy((p), (s), sizeof(s) - 1);                                       \
        (p) += sizeof(s) - 1;                                                  \
    } while (0)

/* A string literal appended to b: no strlen per cell. */
#define BUF_LIT(b, s) pb_buf_add((b), (s), sizeof(s) - 1)

static void cell_attrs(struct pb_buf *b, const struct rt_cell *c, int group)
{
    static const char *const al[] = {"", "r", "c"};
    const char *cls[9];
    size_t len[9]; /* of cls[i] */
    int n = 0;
    if (c->align && c->align < 3) {
        len[n] = 1;
        cls[n++] = al[c->align];
    }
#define CLS(bit, name)                                                         \
    if (c->style & (bit)) {                                                    \
        len[n] = sizeof(name) - 1;                                             \
        cls[n++] = (name);                                                     \
    }
    CLS(RT_BOLD, "b")
    CLS(RT_MUTED, "m")
    CLS(RT_WARN, "w")
    CLS(RT_GOOD, "g")
    CLS(RT_MONO, "mono")
    CLS(RT_ITALIC, "i")
    CLS(RT_AMBER, "a")
#undef CLS
    /* everything but the title, formatted here and appended once */
    char a[256];
    char *p = a;
    if (n) {
        LIT(p, " class=\"");
        for (int i = 0; i < n; i++) {
            if (i)
                *p++ = ' ';
            memcpy(p, cls[i], len[i]);
            p += len[i];
        }
        *p++ = '"';
    }
    if (group && c->span > 1)
        p += snprintf(p, 32, " colspan=\"%u\"", c->span);
    if (c->has_sortv) {
        LIT(p, " data-v=\"");
        rp_g10(c->sortv, p, 48);
        p += strlen(p);
        *p++ = '"';
    }
    if (c->has_bg) {
        LIT(p, " style=\"background:");
        put_hex(p, c->bg);
        p += 7;
        LIT(p, ";color:");
        put_hex(p, rc_text_on(c->bg));
        p += 7;
        *p++ = '"';
    }
    pb_buf_add(b, a, (size_t)(p - a));
    if (c->title) {
        BUF_LIT(b, " title=\"");
        rp_esc(b, c->title);
        pb_buf_putc(b, '"');
    }
}

static void cell_body(struct pb_buf *b, const struct rt_cell *c)
{
    if (c->has_swatch) {
        char sw[] = "<span class=\"cf\"><span class=\"sw\" "
                    "style=\"background:#rrggbb\"></span><span>";
        put_hex(sw + 52, c->swatch);
        pb_buf_add(b, sw, sizeof(sw) - 1);
    }
    if (c->href) {
        BUF_LIT(b, "<a href=\"");
        rp_esc(b, c->href);
        BUF_LIT(b, "\">");
    }
    rp_esc(b, c->text);
    if (c->href)
        BUF_LIT(b, "</a>");
    if (c->has_swatch)
        BUF_LIT(b, "</span></span>");
}

void rt_html(const struct rt_table *t, struct pb_buf *out)
{
    if (t->fold) {
        BUF_LIT(out, "<details><summary>");
        rp_esc(out, t->caption ? t->caption : "Data");
        pb_buf_printf(out, " (%zu rows)</summary>\n", t->nrows);
    }
    BUF_LIT(out, "<div class=\"tw\"><table class=\"data");
    if (t->sortable)
        BUF_LIT(out, " sortable");
    pb_buf_putc(out, '"');
    if (t->id) {
        BUF_LIT(out, " id=\"");
        rp_esc(out, t->id);
        pb_buf_putc(out, '"');
    }
    BUF_LIT(out, ">\n");
    if (t->caption && !t->fold) {
        BUF_LIT(out, "<caption>");
        rp_esc(out, t->caption);
        BUF_LIT(out, "</caption>\n");
    }
    BUF_LIT(out, "<thead>\n");
    if (t->ngroup) {
        BUF_LIT(out, "<tr class=\"grp\">");
        for (size_t i = 0; i < t->ngroup; i++) {
            BUF_LIT(out, "<th");
            cell_attrs(out, &t->group[i], 1);
            pb_buf_putc(out, '>');
            cell_body(out, &t->group[i]);
            BUF_LIT(out, "</th>");
        }
        BUF_LIT(out, "</tr>\n");
    }
    BUF_LIT(out, "<tr>");
    for (size_t i = 0; i < t->ncols; i++) {
        BUF_LIT(out, "<th");
        cell_attrs(out, &t->head[i], 0);
        pb_buf_putc(out, '>');
        cell_body(out, &t->head[i]);
        BUF_LIT(out, "</th>");
    }
    BUF_LIT(out, "</tr>\n</thead>\n<tbody>\n");
    for (size_t r = 0; r < t->nrows; r++) {
        BUF_LIT(out, "<tr>");
        for (size_t i = 0; i < t->ncols; i++) {
            const struct rt_cell *c = &t->cells[r * t->ncols + i];
            BUF_LIT(out, "<td");
            cell_attrs(out, c, 0);
            pb_buf_putc(out, '>');
            cell_body(out, c);
            BUF_LIT(out, "</td>");
        }
        BUF_LIT(out, "</tr>\n");
    }
    BUF_LIT(out, "</tbody>\n</table></div>\n");
    if (t->fold)
        BUF_LIT(out, "</details>\n");
    if (t->note) {
        BUF_LIT(out, "<p class=\"note\">");
        rp_esc(out, t->note);
        BUF_LIT(out, "</p>\n");
    }
}
