/* Text helpers of the report: strings escaped for HTML and SVG and
 * turned into slugs (made valid UTF-8, compared in natural order and
 * concatenated by analysis/names.c). */
#include "render/rp_base.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

void rp_esc(struct pb_buf *b, const char *s)
{
    /* 1: ends a run (NUL and the characters replaced) */
    static const unsigned char stop[256] = {
        [0] = 1, ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 1};
    if (!s)
        return;
    const unsigned char *p = (const unsigned char *)s, *run = p;
    for (;;) {
        while (!stop[*p])
            p++;
        if (p > run || !*p) /* "" still makes b a string, as before */
            pb_buf_add(b, (const char *)run, (size_t)(p - run));
        switch (*p) {
        case '\0':
            return;
        case '&':
            pb_buf_add(b, "&amp;", 5);
            break;
        case '<':
            pb_buf_add(b, "&lt;", 4);
            break;
        case '>':
            pb_buf_add(b, "&gt;", 4);
            break;
        case '"':
            pb_buf_add(b, "&quot;", 6);
            break;
        default: /* '\'' */
            pb_buf_add(b, "&#39;", 5);
            break;
        }
        run = ++p;
    }
}

const char *rp_slug(const char *s, char *buf, size_t max)
{
    size_t n = 0;
    int dash = 0;
    for (; s && *s && n < max; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) && c < 0x80) {
            if (dash && n)
                buf[n++] = '-';
            if (n < max)
                buf[n++] = (char)tolower(c);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    if (!n)
        buf[n++] = 'x';
    buf[n] = '\0';
    return buf;
}

