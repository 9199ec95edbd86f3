/* bonnie++ CSV, the scanning half (bonnie_csv.c parses and stores rows):
 * a line split into cells, the shapes of cells (numbers, '+' runs, version
 * and 1.0x size/files cells), whether a line is a bonnie++ CSV row and in
 * which layout, and the sniff. See bonnie_csv.c for the layouts. */
#include "ingest/bonnie/bonnie_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

/* ==== lines and cells ==== */

void bonnie_split(struct line *l, const char *start)
{
    const char *p = l->p, *end = l->p + l->n;
    l->nf = 0;
    for (;;) {
        const char *q = memchr(p, ',', (size_t)(end - p));
        const char *e = q ? q : end;
        if (l->nf < MAXCELLS) {
            struct cell *c = &l->c[l->nf];
            const char *a = p, *b = e;
            bonnie_trim(&a, &b);
            c->p = a;
            c->n = (size_t)(b - a);
            c->col = (long)(a - start) + 1;
        }
        l->nf++;
        if (!q)
            break;
        p = q + 1;
    }
}

int bonnie_cell_is(const struct cell *c, const char *s)
{
    size_t n = strlen(s);
    return c->n == n && memcmp(c->p, s, n) == 0;
}

/* ==== token shapes ==== */

/* Digits with an optional fraction; returns the length matched (0: none). */
size_t bonnie_dec_len(const char *p, size_t n)
{
    size_t i = 0, d = 0;
    while (i < n && bonnie_is_digit(p[i]))
        i++, d++;
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && bonnie_is_digit(p[i]))
            i++, d++;
    }
    return d ? i : 0;
}

int bonnie_is_plus(const struct cell *c)
{
    if (c->n < 3)
        return 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->p[i] != '+')
            return 0;
    return 1;
}

int bonnie_is_number(const struct cell *c)
{
    return c->n > 0 && bonnie_dec_len(c->p, c->n) == c->n;
}

/* The first n bytes of c as a number: pb_dec_fast for plain decimals
 * (strtod was a quarter of the CPU of ingesting bonnie++ CSV), strtod for
 * anything else. */
int bonnie_to_double(const struct cell *c, size_t n, double *out)
{
    if (pb_dec_fast(c->p, n, out) == 0)
        return 0;
    char tmp[64];
    if (n >= sizeof(tmp))
        return -1;
    memcpy(tmp, c->p, n);
    tmp[n] = '\0';
    double v = strtod(tmp, NULL);
    if (!isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* "1.96": a CSV format version of bonnie++ 1.90 or later. */
static int is_fmt_version(const struct cell *c, double *v)
{
    size_t i = 0;
    while (i < c->n && i < 4 && bonnie_is_digit(c->p[i]))
        i++;
    if (i == 0 || i >= c->n || c->p[i] != '.')
        return 0;
    size_t j = ++i;
    while (i < c->n && i - j < 4 && bonnie_is_digit(c->p[i]))
        i++;
    if (i == j || i != c->n)
        return 0;
    return bonnie_to_double(c, c->n, v) == 0 && *v >= 1.895;
}

/* "2.00a", "1.97.3": digits, a dot, then a digit and version characters. */
static int is_bonnie_version(const struct cell *c)
{
    if (c->n < 3 || c->n > 32 || !bonnie_is_digit(c->p[0]))
        return 0;
    size_t i = 0;
    while (i < c->n && bonnie_is_digit(c->p[i]))
        i++;
    if (i + 1 >= c->n || c->p[i] != '.' || !bonnie_is_digit(c->p[i + 1]))
        return 0;
    for (; i < c->n; i++) {
        char ch = c->p[i];
        if (!(bonnie_is_digit(ch) || (ch >= 'a' && ch <= 'z') ||
              (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '-' || ch == '+' ||
              ch == '~' || ch == '_'))
            return 0;
    }
    return 1;
}

/* 1.0x size cell: "8096M", "16G", "8096M:4k", "2G:512", or empty. */
static int is_legacy_size(const struct cell *c)
{
    const char *p = c->p, *end = c->p + c->n;
    if (p == end)
        return 1;
    size_t d = 0;
    while (p < end && bonnie_is_digit(*p))
        p++, d++;
    if (!d)
        return 0;
    if (p < end && strchr("MGmgkKTt", *p))
        p++;
    if (p < end && *p == ':') {
        p++;
        d = 0;
        while (p < end && bonnie_is_digit(*p))
            p++, d++;
        if (!d)
            return 0;
        if (p < end && strchr("kKmM", *p))
            p++;
    }
    return p == end;
}

/* 1.0x files cell: "256", "16:1000:100/8", "16:link", or empty. */
static int is_legacy_files(const struct cell *c)
{
    const char *p = c->p, *end = c->p + c->n;
    if (p == end)
        return 1;
    size_t d = 0;
    while (p < end && bonnie_is_digit(*p))
        p++, d++;
    if (!d)
        return 0;
    while (p < end && *p != '/') {
        if (!(bonnie_is_digit(*p) || *p == ':' || *p == '-' ||
              (*p >= 'a' && *p <= 'z')))
            return 0;
        p++;
    }
    if (p < end) {
        p++;
        d = 0;
        while (p < end && bonnie_is_digit(*p))
            p++, d++;
        if (!d)
            return 0;
    }
    return p == end;
}

/* ==== classifying a line ==== */

/* Whether line l is a bonnie++ CSV row, and which layout. A row whose
 * cell count is wrong is still a row (the caller reports it). */
enum kind bonnie_classify(const struct line *l, enum layout *lay)
{
    if (l->nf < 2)
        return K_SKIP;
    const struct cell *c = l->c;
    double v;
    if (is_fmt_version(&c[0], &v) && is_bonnie_version(&c[1])) {
        *lay = v >= 1.975 ? L_V198 : L_V196;
        return K_ROW;
    }
    /* 1.0x: no version cell; a size, then numbers, '+' runs and the files
     * cell, with at least one measured value */
    if (l->nf < 3 || c[0].n == 0 || !is_legacy_size(&c[1]))
        return K_SKIP;
    size_t last = l->nf < 27 ? l->nf : 27;
    if (last > MAXCELLS)
        last = MAXCELLS;
    int measured = 0;
    for (size_t i = 2; i < last; i++) {
        if (i == 14) {
            if (!is_legacy_files(&c[i]))
                return K_SKIP;
            continue;
        }
        if (bonnie_is_number(&c[i]) || bonnie_is_plus(&c[i]))
            measured = 1;
        else if (c[i].n != 0)
            return K_SKIP;
    }
    if (!measured)
        return K_SKIP;
    *lay = L_LEGACY;
    return K_ROW;
}

/* ==== sniff ==== */

int bonnie_starts_with(const char *p, size_t n, const char *s)
{
    size_t k = strlen(s);
    return n >= k && memcmp(p, s, k) == 0;
}

int bonnie_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    const char *p = buf, *end = buf + len;
    int text = 0;
    struct line *l = pb_xmalloc(sizeof(*l));
    int score = 0;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (p < end && score == 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *a = p, *b = e;
        bonnie_trim(&a, &b);
        size_t n = (size_t)(b - a);
        if (bonnie_starts_with(a, n, "format_version,bonnie_version,") ||
            bonnie_starts_with(a, n, "name,file_size,putc,putc_cpu,")) {
            score = 95;
        } else if (bonnie_starts_with(a, n, "Version ") &&
                   (pb_contains(a, n, "------Sequential Output------") ||
                    pb_contains(a, n, "------Sequential Create------"))) {
            text = 1;
        } else if (memchr(a, ',', n)) {
            l->p = a;
            l->n = n;
            bonnie_split(l, a);
            enum layout lay;
            /* a version-prefixed row is a strong marker even when cut by
             * the scan window or broken (the parser names the fault); a
             * 1.0x row only counts when complete */
            if (bonnie_classify(l, &lay) == K_ROW) {
                if (lay != L_LEGACY && l->nf >= 20)
                    score = 90;
                else if (lay == L_LEGACY && l->nf == 27)
                    score = 80;
            }
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    free(l);
    if (score)
        return score;
    return text ? 60 : 0;
}
