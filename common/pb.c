/* Shared helpers: errors, allocation, string buffers, arenas, unit parsing
 * and whole-file reading. */
#define _GNU_SOURCE
#include "common/pb.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== errors ==== */

int pb_err_vset(struct pb_err *err, int code, const char *path, long line,
                long col, const char *fmt, va_list ap)
{
    if (!err || err->code)
        return code;
    err->code = code;
    snprintf(err->path, sizeof(err->path), "%s", path ? path : "");
    err->line = line;
    err->col = col;
    vsnprintf(err->msg, PB_ERR_SHORT, fmt, ap);
    /* One line, always: libraries put newlines in their messages. */
    char *w = err->msg;
    for (const char *r = err->msg; *r; r++) {
        unsigned char ch = (unsigned char)*r;
        if (ch < 0x20 || ch == 0x7f) {
            if (w > err->msg && w[-1] != ' ')
                *w++ = ' ';
        } else {
            *w++ = *r;
        }
    }
    while (w > err->msg && w[-1] == ' ')
        w--;
    *w = '\0';
    return code;
}

int pb_err_set(struct pb_err *err, int code, const char *path, long line,
               long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pb_err_vset(err, code, path, line, col, fmt, ap);
    va_end(ap);
    return code;
}

int pb_err_say(struct pb_err *err, int code, const char *fmt, ...)
{
    if (!err || err->code)
        return code;
    memset(err, 0, sizeof(*err));
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

void pb_err_clear(struct pb_err *err)
{
    memset(err, 0, sizeof(*err));
}

void pb_err_print(const struct pb_err *err, FILE *fp)
{
    fputs("poolbench: ", fp);
    if (err->path[0]) {
        pb_fput_term(err->path, fp);
        if (err->line > 0) {
            fprintf(fp, ":%ld", err->line);
            if (err->col > 0)
                fprintf(fp, ":%ld", err->col);
        }
        fputs(": ", fp);
    }
    pb_fput_term(err->msg, fp);
    fputc('\n', fp);
}

int pb_err_exit_code(int code)
{
    switch (code) {
    case PB_OK:
    case PB_EDUP:
    case PB_ESKIP:
        return 0;
    case PB_EINPUT:
    case PB_EFORMAT:
        return 1;
    case PB_EUSAGE:
        return 2;
    default:
        return 3;
    }
}

/* ==== memory ==== */

static void oom(size_t n)
{
    fprintf(stderr, "poolbench: out of memory allocating %zu bytes\n", n);
    abort();
}

void *pb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *pb_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *pb_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *pb_xstrdup(const char *s)
{
    return pb_xstrndup(s, strlen(s));
}

char *pb_xstrndup(const char *s, size_t n)
{
    char *p = pb_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *pb_xasprintf(const char *fmt, ...)
{
    struct pb_buf b = PB_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof(tmp)) {
        pb_buf_add(&b, tmp, (size_t)n);
    } else {
        char *big = pb_xmalloc((size_t)n + 1);
        vsnprintf(big, (size_t)n + 1, fmt, ap2);
        pb_buf_add(&b, big, (size_t)n);
        free(big);
    }
    va_end(ap2);
    va_end(ap);
    if (!b.s)
        return pb_xstrdup("");
    return pb_buf_take(&b);
}

void pb_grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    *arr = pb_xrealloc(*arr, ncap * size);
    *cap = ncap;
}

/* ==== string buffer ==== */

void pb_buf_add(struct pb_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        while (ncap < b->len + n + 1)
            ncap *= 2;
        b->s = pb_xrealloc(b->s, ncap);
        b->cap = ncap;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void pb_buf_puts(struct pb_buf *b, const char *s)
{
    pb_buf_add(b, s, strlen(s));
}

void pb_buf_putc(struct pb_buf *b, char c)
{
    pb_buf_add(b, &c, 1);
}

void pb_buf_printf(struct pb_buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    if (n > 0 && (size_t)n < sizeof(tmp)) {
        pb_buf_add(b, tmp, (size_t)n);
    } else if (n > 0) {
        char *big = pb_xmalloc((size_t)n + 1);
        vsnprintf(big, (size_t)n + 1, fmt, ap2);
        pb_buf_add(b, big, (size_t)n);
        free(big);
    }
    va_end(ap2);
    va_end(ap);
}

void pb_buf_reset(struct pb_buf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

const char *pb_buf_str(const struct pb_buf *b)
{
    return b->s ? b->s : "";
}

char *pb_buf_take(struct pb_buf *b)
{
    char *s = b->s ? b->s : pb_xstrdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void pb_buf_release(struct pb_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

/* ==== arena ==== */

struct pb_arena_block {
    struct pb_arena_block *next;
    size_t used, cap;
    max_align_t data[];
};

#define ARENA_BLOCK 16384

void pb_arena_init(struct pb_arena *a)
{
    a->head = NULL;
}

void pb_arena_release(struct pb_arena *a)
{
    struct pb_arena_block *b = a->head;
    while (b) {
        struct pb_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void pb_arena_reset(struct pb_arena *a)
{
    struct pb_arena_block *keep = NULL, *b = a->head;
    while (b) {
        struct pb_arena_block *next = b->next;
        if (!keep && b->cap == ARENA_BLOCK)
            keep = b;
        else
            free(b);
        b = next;
    }
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    a->head = keep;
}

void *pb_arena_alloc(struct pb_arena *a, size_t n)
{
    size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    struct pb_arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = pb_xmalloc(sizeof(*b) + cap);
        b->used = 0;
        b->cap = cap;
        if (n > ARENA_BLOCK && a->head) {
            /* Big allocation: keep the current block as the head. */
            b->next = a->head->next;
            a->head->next = b;
            b->used = n;
            return (char *)b->data;
        }
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

char *pb_arena_strndup(struct pb_arena *a, const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *p = pb_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *pb_arena_strdup(struct pb_arena *a, const char *s)
{
    return s ? pb_arena_strndup(a, s, strlen(s)) : NULL;
}

char *pb_arena_printf(struct pb_arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    if (n < 0)
        n = 0;
    char *p = pb_arena_alloc(a, (size_t)n + 1);
    if ((size_t)n < sizeof(tmp))
        memcpy(p, tmp, (size_t)n + 1);
    else
        vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    va_end(ap);
    return p;
}

/* ==== units ==== */

static double binary_mult(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'k':
        return 1024.0;
    case 'm':
        return 1024.0 * 1024;
    case 'g':
        return 1024.0 * 1024 * 1024;
    case 't':
        return 1024.0 * 1024 * 1024 * 1024;
    case 'p':
        return 1024.0 * 1024 * 1024 * 1024 * 1024;
    case 'e':
        return 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024;
    default:
        return 0;
    }
}

int pb_parse_size(const char *s, int si_with_b, double *out)
{
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s) && *s != '.')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    const char *u = end;
    while (isspace((unsigned char)*u))
        u++;
    double mult = 1;
    if (*u == '\0') {
        mult = 1;
    } else if (tolower((unsigned char)*u) == 'b' && u[1] == '\0') {
        mult = 1;
    } else {
        mult = binary_mult(*u);
        if (mult == 0)
            return -1;
        u++;
        if (*u == 'i' && (u[1] == 'B' || u[1] == 'b') && u[2] == '\0') {
            /* KiB: binary */
        } else if ((*u == 'B' || *u == 'b') && u[1] == '\0') {
            if (si_with_b)
                mult = pow(1000.0, log(mult) / log(1024.0));
        } else if (*u != '\0') {
            return -1;
        }
    }
    *out = v * mult;
    return 0;
}

int pb_parse_duration(const char *s, double default_unit_ns, double *out)
{
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    double mult;
    if (*end == '\0')
        mult = default_unit_ns;
    else if (!strcmp(end, "ns") || !strcmp(end, "nsec"))
        mult = 1;
    else if (!strcmp(end, "us") || !strcmp(end, "usec"))
        mult = 1e3;
    else if (!strcmp(end, "ms") || !strcmp(end, "msec"))
        mult = 1e6;
    else if (!strcmp(end, "s") || !strcmp(end, "sec"))
        mult = 1e9;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        mult = 60e9;
    else if (!strcmp(end, "h"))
        mult = 3600e9;
    else if (!strcmp(end, "d"))
        mult = 86400e9;
    else
        return -1;
    *out = v * mult;
    return 0;
}

const char *pb_fmt_size(double bytes, char *buf, size_t n)
{
    static const char units[] = "kMGTPE";
    if (bytes < 1024 || fmod(bytes, 1024) != 0) {
        pb_fmt_num(bytes, buf, n);
        return buf;
    }
    int u = -1;
    while (bytes >= 1024 && fmod(bytes, 1024) == 0 && u < 5) {
        bytes /= 1024;
        u++;
    }
    char num[32];
    pb_fmt_num(bytes, num, sizeof(num));
    snprintf(buf, n, "%s%c", num, units[u]);
    return buf;
}

size_t pb_utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0], min, cp;
    size_t k;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2, min = 0x80, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        k = 3, min = 0x800, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        k = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < k; i++) {
        if (i >= n || (s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

int pb_dec_fast(const char *s, size_t n, double *out)
{
    static const double pow10[16] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                     1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15};
    uint64_t m = 0;
    size_t i = n > 0 && s[0] == '-', digits = 0, frac = 0;
    int neg = (int)i, dot = 0;
    for (; i < n; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9') {
            m = m * 10 + (uint64_t)(ch - '0');
            digits++;
            frac += (size_t)dot;
        } else if (ch == '.' && !dot && digits > 0) {
            dot = 1;
        } else {
            return -1;
        }
    }
    if (digits == 0 || digits > 15 || (dot && frac == 0))
        return -1;
    double v = (double)m / pow10[frac];
    *out = neg ? -v : v;
    return 0;
}

const char *pb_fmt_num(double v, char *buf, size_t n)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return buf;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        return buf;
    }
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return buf;
    }
    return buf;
}

/* ==== files ==== */

void pb_sha256_hex(const void *buf, size_t len, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL);
    for (unsigned int i = 0; i < mdlen && i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    out[64] = '\0';
}

long pb_line_of(const char *buf, size_t off)
{
    long line = 1;
    const char *p = buf, *end = buf + off;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        line++;
        p++;
    }
    return line;
}

/* ==== terminal-safe text ==== */

static void term_esc(const char *s, struct pb_buf *b)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c >= 0x20 && c < 0x7f) {
            const unsigned char *q = p;
            while (*q >= 0x20 && *q < 0x7f)
                q++;
            pb_buf_add(b, (const char *)p, (size_t)(q - p));
            p = q;
            continue;
        }
        size_t n = c >= 0x80 ? pb_utf8_len(p, 4) : 0;
        /* C1 controls are U+0080..U+009F: 0xC2 0x80..0x9F in UTF-8. */
        if (n > 1 && !(c == 0xC2 && p[1] < 0xA0)) {
            pb_buf_add(b, (const char *)p, n);
            p += n;
            continue;
        }
        size_t k = n > 1 ? n : 1;
        for (size_t i = 0; i < k; i++, p++) {
            char e[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            if (*p == '\n' || *p == '\r' || *p == '\t') {
                e[1] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
                pb_buf_add(b, e, 2);
            } else {
                pb_buf_add(b, e, 4);
            }
        }
    }
}

void pb_fput_term(const char *s, FILE *fp)
{
    if (!s)
        return;
    const char *p = s;
    while ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
        p++;
    if (!*p) {
        fputs(s, fp); /* the common case: plain ASCII */
        return;
    }
    struct pb_buf b = PB_BUF_INIT;
    term_esc(s, &b);
    fputs(pb_buf_str(&b), fp);
    pb_buf_release(&b);
}

char *pb_term_str(const char *s)
{
    struct pb_buf b = PB_BUF_INIT;
    term_esc(s ? s : "", &b);
    char *r = pb_xstrdup(pb_buf_str(&b));
    pb_buf_release(&b);
    return r;
}

/* ==== sorted arrays ==== */

size_t pb_lower_bound_id(const void *base, size_t n, size_t size, size_t off,
                         long long id)
{
    const unsigned char *b = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        long long v;
        memcpy(&v, b + mid * size + off, sizeof(v));
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ==== INI text for inih ==== */

char *pb_ini_read_line(char *str, int num, void *stream)
{
    struct pb_ini_reader *r = stream;
    if (!*r->p || r->toolong)
        return NULL;
    const char *nl = strchr(r->p, '\n');
    size_t n = nl ? (size_t)(nl - r->p) + 1 : strlen(r->p);
    r->line++;
    if (num < 4 || n > (size_t)num - 3) {
        r->toolong = r->line;
        return NULL;
    }
    r->indented = r->p[0] == ' ' || r->p[0] == '\t';
    memcpy(str, r->p, n);
    str[n] = '\0';
    r->p += n;
    return str;
}

/* ==== times ==== */

int pb_time_utc(long long t, char *out, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    char b[32];
    if (!gmtime_r(&tt, &tm) || !strftime(b, sizeof(b), "%Y-%m-%d %H:%M:%S", &tm))
        return -1;
    snprintf(out, n, "%s", b);
    return 0;
}

int pb_time_ctime(const char *s, char *out, size_t n)
{
    struct tm tm;
    char b[32];
    memset(&tm, 0, sizeof(tm));
    const char *end = strptime(s, "%a %b %d %H:%M:%S %Y", &tm);
    if (!end || *end || !strftime(b, sizeof(b), "%Y-%m-%d %H:%M:%S", &tm))
        return -1;
    snprintf(out, n, "%s", b);
    return 0;
}
