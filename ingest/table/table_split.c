/* The `table` reader's lines and cells: lines of the input, which
 * delimiter a table uses (Markdown pipes, tabs, semicolons, commas or
 * aligned white space) and how a line splits into cells. */
#include "ingest/table/table_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== lines ==== */

void tb_reader_init(struct tb_reader *r, const char *buf, size_t len,
                    size_t maxline)
{
    r->p = buf;
    r->end = buf + len;
    r->no = 1;
    r->maxline = maxline;
    if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
        r->p += 3; /* a UTF-8 BOM, as spreadsheets write it */
}

int tb_read(struct tb_reader *r, struct tb_line *l)
{
    if (r->p >= r->end)
        return 0;
    const char *p = r->p;
    const char *nl = memchr(p, '\n', (size_t)(r->end - p));
    const char *e = nl ? nl : r->end;
    size_t n = (size_t)(e - p);
    while (n > 0 && p[n - 1] == '\r')
        n--;
    if (n > r->maxline)
        n = 0; /* too long to be a table line (sniff only) */
    l->s = p;
    l->n = n;
    l->no = r->no++;
    l->at = p;
    r->p = nl ? nl + 1 : r->end;
    return 1;
}

void tb_reader_from(struct tb_reader *r, const struct tb_reader *like,
                    const struct tb_line *l)
{
    *r = *like;
    r->p = l->at;
    r->no = l->no;
}

void tb_lines_init(struct tb_lines *w, const char *buf, size_t len,
                   size_t maxline)
{
    memset(w, 0, sizeof(*w));
    tb_reader_init(&w->rd, buf, len, maxline);
}

const struct tb_line *tb_line_at(struct tb_lines *w, size_t i)
{
    while (i >= w->base + w->n) {
        struct tb_line l;
        if (!tb_read(&w->rd, &l))
            return NULL;
        l.s = pb_xstrndup(l.s, l.n);
        PB_GROW(w->v, w->cap, w->n + 1);
        w->v[w->n++] = l;
    }
    return i >= w->base ? &w->v[i - w->base] : NULL;
}

void tb_lines_forget(struct tb_lines *w, size_t i)
{
    size_t k = i > w->base ? i - w->base : 0;
    if (k > w->n)
        k = w->n;
    for (size_t j = 0; j < k; j++) {
        if (!tb_blank(&w->v[j])) {
            free((char *)w->nb.s);
            w->nb = w->v[j];
            w->nb_idx = w->base + j;
            w->has_nb = 1;
        } else {
            free((char *)w->v[j].s);
        }
    }
    memmove(w->v, w->v + k, (w->n - k) * sizeof(*w->v));
    w->n -= k;
    w->base += k;
}

void tb_lines_restart(struct tb_lines *w, size_t i, const struct tb_reader *r)
{
    tb_lines_forget(w, w->base + w->n);
    w->base = i;
    w->rd = *r;
}

void tb_lines_release(struct tb_lines *w)
{
    for (size_t j = 0; j < w->n; j++)
        free((char *)w->v[j].s);
    free((char *)w->nb.s);
    free(w->v);
    memset(w, 0, sizeof(*w));
}

int tb_blank(const struct tb_line *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!isspace((unsigned char)l->s[i]))
            return 0;
    return 1;
}

/* Printable tb_excerpt of s for messages and origins. */
const char *tb_excerpt(struct pb_arena *a, const char *s, size_t max)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, "", 0);
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    for (; s[i] && b.len < max;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c < 0x80 ? 1 : pb_utf8_len((const unsigned char *)s + i, 4);
        if (k == 0) {
            pb_buf_putc(&b, '?');
            i++;
        } else if (c == '\t') {
            pb_buf_puts(&b, "  ");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            pb_buf_putc(&b, '?');
            i++;
        } else {
            pb_buf_add(&b, s + i, k);
            i += k;
        }
    }
    if (s[i])
        pb_buf_puts(&b, "...");
    while (b.len > 0 && isspace((unsigned char)b.s[b.len - 1]))
        b.s[--b.len] = '\0';
    const char *r = pb_arena_strdup(a, pb_buf_str(&b));
    pb_buf_release(&b);
    return r;
}

/* ==== cells ==== */

enum tb_delim tb_delim_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '|')
        return TB_PIPE;
    if (memchr(s, '\t', n))
        return TB_TAB;
    if (memchr(s, ';', n))
        return TB_SEMI;
    if (memchr(s, ',', n))
        return TB_COMMA;
    return TB_WS;
}

static void add_cell(struct tb_cells *out, struct pb_arena *a, const char *s,
                     size_t n, long off)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
        off++;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    PB_GROW(out->v, out->cap, out->n + 1);
    out->v[out->n].s = pb_arena_strndup(a, s, n);
    out->v[out->n].off = off;
    out->n++;
}

/* A CSV field with quotes: "a ""b"", c" -> a "b", c. */
static size_t csv_field(const char *s, size_t n, size_t i, char sep,
                        struct pb_buf *b)
{
    pb_buf_reset(b);
    pb_buf_add(b, "", 0);
    size_t j = i;
    while (j < n && s[j] == ' ')
        j++;
    if (j < n && s[j] == '"') {
        j++;
        while (j < n) {
            if (s[j] == '"' && j + 1 < n && s[j + 1] == '"') {
                pb_buf_putc(b, '"');
                j += 2;
            } else if (s[j] == '"') {
                j++;
                break;
            } else {
                pb_buf_putc(b, s[j++]);
            }
        }
        while (j < n && s[j] != sep) /* text after the closing quote */
            pb_buf_putc(b, s[j++]);
        return j;
    }
    while (j < n && s[j] != sep)
        pb_buf_putc(b, s[j++]);
    return j;
}

/* Units written apart from their number in aligned tables ("41.2 MiB/s"). */
static int is_unit_token(const char *s, size_t n)
{
    static const char *const units[] = {
        "k",     "m",     "g",     "t",    "x",         "%",    "b",
        "kb",    "mb",    "gb",    "tb",   "kib",       "mib",  "gib",
        "tib",   "b/s",   "kb/s",  "mb/s", "gb/s",      "tb/s", "kib/s",
        "mib/s", "gib/s", "tib/s", "ns",   "us",        "usec", "ms",
        "msec",  "s",     "sec",   "iops", "\xc2\xb5s", NULL};
    for (size_t i = 0; units[i]; i++)
        if (strlen(units[i]) == n && strncasecmp(s, units[i], n) == 0)
            return 1;
    return 0;
}

static void split_ws(const char *s, size_t n, struct tb_cells *out,
                     struct pb_arena *a)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        size_t st = i;
        while (i < n && !isspace((unsigned char)s[i]))
            i++;
        /* "41.2 MiB/s": the unit joins the number before it */
        size_t k = i;
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        size_t ue = k;
        while (ue < n && !isspace((unsigned char)s[ue]))
            ue++;
        if (k > i && ue > k && isdigit((unsigned char)s[i - 1]) &&
            is_unit_token(s + k, ue - k)) {
            struct pb_buf b = PB_BUF_INIT;
            pb_buf_add(&b, s + st, i - st);
            pb_buf_add(&b, s + k, ue - k);
            PB_GROW(out->v, out->cap, out->n + 1);
            out->v[out->n].s = pb_arena_strdup(a, pb_buf_str(&b));
            out->v[out->n].off = (long)st;
            out->n++;
            pb_buf_release(&b);
            i = ue;
            continue;
        }
        add_cell(out, a, s + st, i - st, (long)st);
    }
}

void tb_split(const char *s, size_t n, enum tb_delim d, struct tb_cells *out,
              struct pb_arena *a)
{
    out->n = 0;
    if (d == TB_WS) {
        split_ws(s, n, out, a);
        return;
    }
    if (d == TB_COMMA || d == TB_SEMI) {
        struct pb_buf b = PB_BUF_INIT;
        size_t i = 0;
        for (;;) {
            size_t j = csv_field(s, n, i, (char)d, &b);
            add_cell(out, a, pb_buf_str(&b), b.len, (long)i);
            if (j >= n)
                break;
            i = j + 1; /* past the comma */
        }
        pb_buf_release(&b);
        return;
    }
    size_t i = 0, end = n;
    if (d == TB_PIPE) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i < n && s[i] == '|')
            i++;
        while (end > i && isspace((unsigned char)s[end - 1]))
            end--;
        if (end > i && s[end - 1] == '|' && !(end >= 2 && s[end - 2] == '\\'))
            end--;
    }
    size_t st = i;
    for (; i <= end; i++) {
        int cut = i == end || (char)d == s[i];
        if (d == TB_PIPE && i < end && s[i] == '|' && i > 0 && s[i - 1] == '\\')
            cut = 0; /* \| inside a Markdown cell */
        if (cut) {
            add_cell(out, a, s + st, i - st, (long)st);
            st = i + 1;
        }
    }
}

int tb_is_md_rule(const struct tb_cells *c)
{
    if (c->n == 0)
        return 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *p = c->v[i].s;
        if (*p == ':')
            p++;
        size_t k = strspn(p, "-");
        if (k == 0)
            return 0;
        p += k;
        if (*p == ':')
            p++;
        if (*p)
            return 0;
    }
    return 1;
}

static int starts_numeric(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (*s == '.' || *s == ',')
        s++;
    return isdigit((unsigned char)*s);
}

int tb_row_like(const struct tb_cells *c)
{
    size_t full = 0, num = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (!c->v[i].s[0])
            continue;
        full++;
        num += starts_numeric(c->v[i].s) != 0;
    }
    return num > 0 && 2 * num >= full;
}
