/* Text helpers of the report: strings from input files made into valid,
 * XML-safe UTF-8, escaped for HTML and SVG, turned into slugs, and
 * compared in natural order. */
#include "render/rp_base.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

/* Length of a valid UTF-8 sequence at s that XML 1.0 allows, or 0:
 * no control characters, no U+FFFE or U+FFFF. s is NUL-terminated. */
static size_t valid_seq(const unsigned char *s)
{
    if (s[0] < 0x80)
        return (s[0] >= 0x20 && s[0] != 0x7f) ? 1 : 0;
    size_t k = pb_utf8_len(s, 4);
    if (k == 3 && s[0] == 0xef && s[1] == 0xbf &&
        (s[2] == 0xbe || s[2] == 0xbf))
        return 0;
    return k;
}

size_t rp_u8len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            return 1;
    return n;
}

char *rp_clean(struct pb_arena *a, const char *s)
{
    if (!s)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    /* Fast path: most strings are plain printable ASCII. */
    size_t i = 0;
    while (p[i] >= 0x20 && p[i] < 0x7f)
        i++;
    if (!p[i])
        return pb_arena_strndup(a, s, i);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, s, i);
    while (p[i]) {
        size_t n = valid_seq(p + i);
        if (n) {
            pb_buf_add(&b, (const char *)p + i, n);
            i += n;
        } else if (p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
            pb_buf_putc(&b, ' ');
            i++;
        } else {
            pb_buf_puts(&b, "\xef\xbf\xbd"); /* U+FFFD */
            i++;
        }
    }
    char *r = pb_arena_strndup(a, pb_buf_str(&b), b.len);
    pb_buf_release(&b);
    return r;
}

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

char *rp_cat(char *buf, size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    size_t len = 0;
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL)
        for (; *s && len + 1 < n; s++)
            buf[len++] = *s;
    va_end(ap);
    if (n)
        buf[len] = '\0';
    return buf;
}

int rp_natcmp(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la]))
                la++;
            while (isdigit((unsigned char)b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = memcmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a || *b)
        return *a ? 1 : -1;
    /* Equal as numbers ("07" and "7"): keep a total order. */
    return strcmp(a0, b0);
}
