/* Chart text: fonts measured with cairo (advances cached per size and
 * weight) and labels wrapped to a width, remembered by content, so chart
 * layout (chart.c, chart_kinds.c) places text that never overlaps. */
#define _GNU_SOURCE
#include "render/rp_base.h"
#include "render/rp_chart.h"

#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== fonts and measuring ==== */

#define NCACHE 12
#define NWIDE  48 /* non-ASCII characters remembered per font */

/* Advances of one font (size, weight): ASCII by code, the few non-ASCII
 * characters charts use (± ★ … – µ ×) in a short list. */
struct rc_slot {
    double size;
    int bold;
    double adv[128];
    struct {
        char s[5];
        double w;
    } wide[NWIDE];
    int nwide;
};

/* Wrapped labels, remembered by content: a report of 4,000 charts wraps
 * the same ten configuration labels 4,000 times. */
#define MEMO_CAP   8192 /* slots, a power of two */
#define MEMO_LINES 3

struct memo {
    uint64_t h; /* 0 = empty */
    const char *s;
    double size, maxw;
    unsigned char kind, bold, maxlines, nl, elided; /* kind: 2 = wrap */
    const char *lines[MEMO_LINES];
};

struct rc_fonts {
    cairo_surface_t *surf;
    cairo_t *cr;
    struct rc_slot cache[NCACHE];
    int ncache;
    struct rc_slot *last; /* the slot found last */
    double cur_size;
    int cur_bold;
    struct memo *memo;
    size_t nmemo;
    struct pb_arena arena; /* the memo's strings */
};

static int nfonts; /* rc_fonts alive */

void rc_use_font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, RC_FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD
                                : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    /* Unhinted metrics: widths scale exactly, so SVG, PNG and PDF agree. */
    cairo_font_options_t *o = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(cr, o);
    cairo_font_options_destroy(o);
}

struct rc_fonts *rc_fonts_new(void)
{
    struct rc_fonts *f = pb_xcalloc(1, sizeof(*f));
    f->surf = cairo_image_surface_create(CAIRO_FORMAT_A8, 4, 4);
    f->cr = cairo_create(f->surf);
    f->cur_size = -1;
    f->memo = pb_xcalloc(MEMO_CAP, sizeof(*f->memo));
    pb_arena_init(&f->arena);
    nfonts++;
    return f;
}

void rc_fonts_free(struct rc_fonts *f)
{
    if (!f)
        return;
    cairo_destroy(f->cr);
    cairo_surface_destroy(f->surf);
    free(f->memo);
    pb_arena_release(&f->arena);
    free(f);
    /* The last one out empties cairo's font caches and fontconfig's
     * configuration, which otherwise live until exit (leak checkers report
     * them). */
    if (--nfonts == 0) {
        cairo_debug_reset_static_data();
        FcFini();
    }
}

static void select_font(struct rc_fonts *f, double size, int bold)
{
    if (f->cur_size == size && f->cur_bold == bold)
        return;
    rc_use_font(f->cr, size, bold);
    f->cur_size = size;
    f->cur_bold = bold;
}

/* The slot of (size, bold), made when new (the last one is reused when
 * all are taken). */
static struct rc_slot *slot_for(struct rc_fonts *f, double size, int bold)
{
    if (f->last && f->last->size == size && f->last->bold == bold)
        return f->last;
    int i;
    for (i = 0; i < f->ncache; i++)
        if (f->cache[i].size == size && f->cache[i].bold == bold)
            break;
    if (i == f->ncache) {
        if (f->ncache == NCACHE)
            i = NCACHE - 1; /* reuse the last slot */
        else
            f->ncache++;
        struct rc_slot *sl = &f->cache[i];
        sl->size = size;
        sl->bold = bold;
        sl->nwide = 0;
        for (int k = 0; k < 128; k++)
            sl->adv[k] = -1;
    }
    f->last = &f->cache[i];
    return f->last;
}

static double measure(struct rc_fonts *f, const char *s, double size, int bold)
{
    cairo_text_extents_t e;
    select_font(f, size, bold);
    cairo_text_extents(f->cr, s, &e);
    if (cairo_status(f->cr) != CAIRO_STATUS_SUCCESS)
        return size * 0.6;
    return e.x_advance;
}

/* Width of one character (n bytes at s) in slot sl. */
static double slot_width(struct rc_fonts *f, struct rc_slot *sl, const char *s,
                         size_t n)
{
    unsigned char c = (unsigned char)*s;
    if (c < 0x80 && n == 1) {
        if (sl->adv[c] < 0) {
            char one[2] = {(char)(c < 0x20 ? ' ' : c), 0};
            sl->adv[c] = measure(f, one, sl->size, sl->bold);
        }
        return sl->adv[c];
    }
    char buf[8];
    if (n > 4)
        n = 4;
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (int i = 0; i < sl->nwide; i++)
        if (!strcmp(sl->wide[i].s, buf))
            return sl->wide[i].w;
    double w = measure(f, buf, sl->size, sl->bold);
    if (sl->nwide < NWIDE) {
        memcpy(sl->wide[sl->nwide].s, buf, n + 1);
        sl->wide[sl->nwide++].w = w;
    }
    return w;
}

static uint64_t memo_hash(const char *s, double size, double maxw, int kind,
                          int bold, size_t maxlines)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    uint64_t b[2];
    memcpy(&b[0], &size, 8);
    memcpy(&b[1], &maxw, 8);
    h ^= b[0] * 0x9e3779b97f4a7c15ull;
    h ^= (b[1] + ((uint64_t)kind << 1 | (uint64_t)bold | maxlines << 3)) *
         0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return h ? h : 1;
}

/* The entry of the key, or the empty slot for it (NULL when the memo is
 * full: then nothing more is remembered). */
static struct memo *memo_find(struct rc_fonts *f, uint64_t h, const char *s,
                              double size, double maxw, int kind, int bold,
                              size_t maxlines)
{
    size_t i = (size_t)h & (MEMO_CAP - 1);
    for (;;) {
        struct memo *m = &f->memo[i];
        if (!m->h)
            return f->nmemo < MEMO_CAP / 4 * 3 ? m : NULL;
        if (m->h == h && m->kind == kind && m->bold == bold &&
            m->size == size && m->maxw == maxw && m->maxlines == maxlines &&
            !strcmp(m->s, s))
            return m;
        i = (i + 1) & (MEMO_CAP - 1);
    }
}

static void memo_fill(struct rc_fonts *f, struct memo *m, uint64_t h,
                      const char *s, double size, double maxw, int kind,
                      int bold, size_t maxlines)
{
    m->h = h;
    m->s = pb_arena_strdup(&f->arena, s);
    m->size = size;
    m->maxw = maxw;
    m->kind = (unsigned char)kind;
    m->bold = (unsigned char)bold;
    m->maxlines = (unsigned char)maxlines;
    f->nmemo++;
}

/* Width of the character at s in slot sl; *n = its bytes. ASCII from the
 * table, inline: this runs for every character of every label. */
static inline double char_at(struct rc_fonts *f, struct rc_slot *sl,
                             const char *s, size_t *n)
{
    unsigned char c = (unsigned char)*s;
    if (c < 0x80) {
        *n = 1;
        double a = sl->adv[c];
        return a >= 0 ? a : slot_width(f, sl, s, 1);
    }
    *n = rp_u8len(s);
    return slot_width(f, sl, s, *n);
}

double rc_text_width(struct rc_fonts *f, const char *s, double size, int bold)
{
    double w = 0;
    if (!s)
        return 0;
    struct rc_slot *sl = slot_for(f, size, bold);
    while (*s) {
        size_t n;
        w += char_at(f, sl, s, &n);
        s += n;
    }
    return w;
}

static int is_break(char c)
{
    return c == ' ' || c == ',' || c == ';' || c == '/' || c == '-' ||
           c == '_' || c == '=' || c == ':' || c == '|';
}

static const char *ELL = "…";

static size_t wrap(struct rc_fonts *f, struct pb_arena *a, const char *s,
                   double size, int bold, double maxw, size_t maxlines,
                   const char **lines, int *elided)
{
    size_t nl = 0;
    *elided = 0;
    if (!s)
        s = "";
    if (maxlines == 0)
        return 0;
    size_t len = strlen(s), start = 0;
    double ellw = rc_text_width(f, ELL, size, bold);
    struct rc_slot *sl = slot_for(f, size, bold); /* the only font here */
    while (start < len || nl == 0) {
        while (start < len && s[start] == ' ')
            start++;
        if (nl == maxlines - 1) {
            /* last line: the rest, elided when it does not fit */
            double w = 0;
            size_t end = start, fit = start;
            while (end < len) {
                size_t n;
                w += char_at(f, sl, s + end, &n);
                end += n;
                if (w + ellw <= maxw)
                    fit = end;
            }
            if (w <= maxw) {
                lines[nl++] = pb_arena_strndup(a, s + start, len - start);
            } else {
                while (fit > start && s[fit - 1] == ' ')
                    fit--;
                lines[nl++] = pb_arena_printf(a, "%.*s%s", (int)(fit - start),
                                              s + start, ELL);
                *elided = 1;
            }
            return nl;
        }
        double w = 0;
        size_t end = start, brk = 0;
        while (end < len) {
            size_t n;
            double cw = char_at(f, sl, s + end, &n);
            if (w + cw > maxw && end > start)
                break;
            w += cw;
            end += n;
            if (is_break(s[end - 1]))
                brk = end;
        }
        if (end >= len) {
            lines[nl++] = pb_arena_strndup(a, s + start, len - start);
            return nl;
        }
        size_t cut = brk > start ? brk : end;
        size_t e = cut;
        while (e > start && s[e - 1] == ' ')
            e--;
        lines[nl++] = pb_arena_strndup(a, s + start, e - start);
        start = cut;
    }
    return nl;
}

size_t rc_wrap(struct rc_fonts *f, struct pb_arena *a, const char *s,
               double size, int bold, double maxw, size_t maxlines,
               const char **lines, int *elided)
{
    if (!s)
        s = "";
    if (maxlines == 0 || maxlines > MEMO_LINES)
        return wrap(f, a, s, size, bold, maxw, maxlines, lines, elided);
    uint64_t h = memo_hash(s, size, maxw, 2, bold, maxlines);
    struct memo *m = memo_find(f, h, s, size, maxw, 2, bold, maxlines);
    if (m && m->h) {
        for (size_t i = 0; i < m->nl; i++)
            lines[i] = pb_arena_strdup(a, m->lines[i]);
        *elided = m->elided;
        return m->nl;
    }
    size_t nl = wrap(f, a, s, size, bold, maxw, maxlines, lines, elided);
    if (m) {
        memo_fill(f, m, h, s, size, maxw, 2, bold, maxlines);
        m->nl = (unsigned char)nl;
        m->elided = (unsigned char)*elided;
        for (size_t i = 0; i < nl; i++)
            m->lines[i] = pb_arena_strdup(&f->arena, lines[i]);
    }
    return nl;
}
