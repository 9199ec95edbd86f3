/* A read-only JSON document on jsmn tokens, checked against the grammar:
 * see ingest/lex/json_int.h. jsmn only cuts tokens (it accepts "[1 2]" and
 * "{"a" 1}", and checks no number or UTF-8); the checks here make the
 * whole document as strict as a validating parser. */
#include "ingest/lex/json_int.h"

#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include <jsmn.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Token budget: beyond this a document is refused rather than allowed to
 * take gigabytes (a fio JSON file of 10 MB has ~700,000). */
#define MAX_TOKENS (1 << 25)

struct pb_json_node {
    int start, end; /* string: inside the quotes */
    int size;       /* members, elements; 1 for an object key */
    int parent;     /* PB_JSON_NONE for the root */
    int next;       /* first token after this value (and its children) */
    unsigned char type;
    unsigned char esc; /* string holds a backslash */
};

/* ==== errors ==== */

static int fail(struct pb_json_error *e, size_t off, int truncated,
                const char *fmt, ...)
{
    e->offset = off;
    e->truncated = truncated;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_char(struct pb_json_error *e, const char *text, size_t off,
                     const char *what)
{
    unsigned char c = (unsigned char)text[off];
    if (c > 0x20 && c < 0x7f)
        return fail(e, off, 0, "%s '%c'", what, c);
    return fail(e, off, 0, "%s (byte 0x%02x)", what, c);
}

/* ==== tokens ==== */

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}


/* Run jsmn on text[0 .. len), growing the token array as it asks.
 * Returns the number of tokens it made, or a jsmn error with p->pos at
 * the place. */
static int tokenize(const char *text, size_t len, jsmn_parser *p,
                    jsmntok_t **tok)
{
    jsmn_init(p);
    unsigned cap = (unsigned)(len / 12 + 16);
    if (cap > MAX_TOKENS)
        cap = MAX_TOKENS;
    *tok = pb_xmalloc(cap * sizeof(**tok));
    for (;;) {
        int r = jsmn_parse(p, text, len, *tok, cap);
        if (r != JSMN_ERROR_NOMEM || cap >= MAX_TOKENS)
            return r;
        cap = cap * 2 > MAX_TOKENS ? MAX_TOKENS : cap * 2;
        *tok = pb_xrealloc(*tok, cap * sizeof(**tok));
    }
}

/* Where the first value of text ends (the byte after it), or -1 when the
 * text ends first; *deep gets the offset of a bracket nested deeper than
 * PB_JSON_MAX_DEPTH, or -1. One pass that knows strings: it keeps jsmn,
 * whose closing brackets cost as much as the depth they close, linear,
 * and off the text after the document. */
static long value_end(const char *s, size_t n, long *deep)
{
    /* bytes that matter here: most of a document (indentation, digits,
     * key names) is skipped eight at a time by the first loop below */
    static const unsigned char special[256] = {
        ['"'] = 1, ['\\'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
    };
    int depth = 0, in_str = 0;
    size_t i = 0;
    *deep = -1;
    while (i < n && is_ws(s[i]))
        i++;
    if (i < n && s[i] != '{' && s[i] != '[') {
        /* a scalar: a string to its closing quote, else to a delimiter */
        if (s[i] == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\')
                    i++;
            return i < n ? (long)i + 1 : -1;
        }
        while (i < n && !is_ws(s[i]) && s[i] != ',' && s[i] != ']' &&
               s[i] != '}')
            i++;
        return i < n ? (long)i + 1 : -1;
    }
    for (; i < n; i++) {
        while (i + 8 <= n && !(special[(unsigned char)s[i]] |
                               special[(unsigned char)s[i + 1]] |
                               special[(unsigned char)s[i + 2]] |
                               special[(unsigned char)s[i + 3]] |
                               special[(unsigned char)s[i + 4]] |
                               special[(unsigned char)s[i + 5]] |
                               special[(unsigned char)s[i + 6]] |
                               special[(unsigned char)s[i + 7]]))
            i += 8;
        while (i < n && !special[(unsigned char)s[i]])
            i++;
        if (i >= n)
            break;
        char c = s[i];
        if (c == '\\') {
            i++; /* the escaped byte, inside a string */
        } else if (c == '"') {
            in_str = !in_str;
        } else if (in_str) {
            continue;
        } else if (c == '{' || c == '[') {
            if (++depth > PB_JSON_MAX_DEPTH) {
                *deep = (long)i;
                return -1;
            }
        } else if (--depth == 0) {
            return (long)i + 1;
        } else if (depth < 0) {
            return -1;
        }
    }
    return -1;
}

/* First byte of the value's text and the byte after it (quotes included
 * for strings). */
static int vbegin(const struct pb_json_node *n)
{
    return n->type == PB_JSON_STRING ? n->start - 1 : n->start;
}

static int vend(const struct pb_json_node *n)
{
    return n->type == PB_JSON_STRING ? n->end + 1 : n->end;
}

/* ==== checking leaves ==== */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static unsigned hex4(const char *s)
{
    return (unsigned)(hexval(s[0]) << 12 | hexval(s[1]) << 8 |
                      hexval(s[2]) << 4 | hexval(s[3]));
}

/* Control characters, bad UTF-8 and lone surrogates are refused (jsmn
 * has checked that escapes are well-formed). \u0000 is taken, as jansson
 * takes it with JSON_ALLOW_NUL: the C string handed out ends there. */
static int check_string(const char *text, struct pb_json_node *n,
                        struct pb_json_error *e)
{
    const unsigned char *s = (const unsigned char *)text;
    for (int i = n->start; i < n->end;) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '\\') {
            i++;
            continue;
        }
        if (c < 0x20)
            return fail(e, (size_t)i, 0,
                        "control character 0x%02x in a string", c);
        if (c >= 0x80) {
            size_t k = pb_utf8_len(s + i, (size_t)(n->end - i));
            if (!k)
                return fail(e, (size_t)i, 0, "invalid UTF-8 in a string");
            i += (int)k;
            continue;
        }
        n->esc = 1;
        if (s[i + 1] != 'u') {
            i += 2;
            continue;
        }
        unsigned cp = hex4(text + i + 2);
        if (cp >= 0xdc00 && cp <= 0xdfff)
            return fail(e, (size_t)i, 0, "lone UTF-16 surrogate in a string");
        if (cp >= 0xd800 && cp <= 0xdbff) {
            if (i + 12 > n->end || s[i + 6] != '\\' || s[i + 7] != 'u')
                return fail(e, (size_t)i, 0,
                            "lone UTF-16 surrogate in a string");
            unsigned lo = hex4(text + i + 8);
            if (lo < 0xdc00 || lo > 0xdfff)
                return fail(e, (size_t)i, 0,
                            "lone UTF-16 surrogate in a string");
            i += 12;
            continue;
        }
        i += 6;
    }
    return 0;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* true, false, null, or a number as RFC 8259 writes it that fits a
 * double (underflow to 0 is fine, as in jansson). */
static int check_primitive(const char *text, struct pb_json_node *n,
                           struct pb_json_error *e)
{
    const char *s = text + n->start, *end = text + n->end;
    size_t len = (size_t)(end - s);
    if (*s >= 'a') { /* jsmn lets only t, f and n start a word */
        if (len == 4 && !memcmp(s, "true", 4))
            n->type = PB_JSON_TRUE;
        else if (len == 5 && !memcmp(s, "false", 5))
            n->type = PB_JSON_FALSE;
        else if (len == 4 && !memcmp(s, "null", 4))
            n->type = PB_JSON_NULL;
        else
            goto bad;
        return 0;
    }
    const char *p = s;
    int exp = 0;
    if (p < end && *p == '-')
        p++;
    if (p < end && *p == '0')
        p++;
    else if (p < end && is_digit(*p))
        while (p < end && is_digit(*p))
            p++;
    else
        goto bad;
    if (p < end && *p == '.') {
        p++;
        if (p == end || !is_digit(*p))
            goto bad;
        while (p < end && is_digit(*p))
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        exp = 1;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end || !is_digit(*p))
            goto bad;
        while (p < end && is_digit(*p))
            p++;
    }
    if (p != end)
        goto bad;
    n->type = PB_JSON_NUMBER;
    /* Only a long number or one with an exponent can exceed DBL_MAX. */
    if (exp || len > 300) {
        char *q;
        errno = 0;
        double d = strtod(s, &q);
        if (errno == ERANGE && isinf(d))
            return fail(e, (size_t)n->start, 0,
                        "number out of range of a double");
    }
    return 0;
bad:
    return fail(e, (size_t)n->start, 0, "invalid number or literal '%.*s'",
                (int)(len > 40 ? 40 : len), s);
}

/* ==== checking structure ==== */

/* The bytes [from, to) must be white space around exactly one `sep` (no
 * separator when sep is 0). Returns -1 when they are, else the offset of
 * the byte to blame with *missing set when it is the separator that is
 * not there (the offset is then `to`). */
static long check_gap(const char *text, int from, int to, char sep,
                      int *missing)
{
    int seen = 0;
    *missing = 0;
    for (int i = from; i < to; i++) {
        if (is_ws(text[i]))
            continue;
        if (sep && text[i] == sep && !seen) {
            seen = 1;
            continue;
        }
        return i;
    }
    if (sep && !seen) {
        *missing = 1;
        return to;
    }
    return -1;
}

static int gap_error(struct pb_json_error *e, const char *text, long bad,
                     int missing, const char *expected)
{
    if (!missing)
        return fail_char(e, text, (size_t)bad, "unexpected");
    char what[64];
    snprintf(what, sizeof(what), "expected %s before", expected);
    return fail_char(e, text, (size_t)bad, what);
}

/* Children of container c: where they are, the commas between them, the
 * colons of an object, and that an object holds only key: value pairs. */
static int check_container(const char *text, const struct pb_json_node *n,
                           int c, struct pb_json_error *e)
{
    const struct pb_json_node *cn = &n[c];
    int obj = cn->type == PB_JSON_OBJECT, missing;
    const char *sep = obj ? "',' or '}'" : "',' or ']'";
    int pos = cn->start + 1, close = cn->end - 1;
    int k = c + 1;
    for (int i = 0; i < cn->size; i++, k = n[k].next) {
        if (k >= cn->next || n[k].parent != c || vbegin(&n[k]) < pos)
            return fail(e, (size_t)pos, 0, "invalid JSON structure");
        long bad = check_gap(text, pos, vbegin(&n[k]), i ? ',' : 0, &missing);
        if (bad >= 0)
            return gap_error(e, text, bad, missing, sep);
        if (vend(&n[k]) > close)
            return fail(e, (size_t)vbegin(&n[k]), 0, "invalid JSON structure");
        if (!obj) {
            pos = vend(&n[k]);
            continue;
        }
        if (n[k].type != PB_JSON_STRING || n[k].size == 0)
            return fail(e, (size_t)vbegin(&n[k]), 0,
                        "expected an object key (a string) and ':'");
        const struct pb_json_node *v = &n[k + 1];
        bad = check_gap(text, vend(&n[k]), vbegin(v), ':', &missing);
        if (bad >= 0)
            return gap_error(e, text, bad, missing, "':' after an object key");
        if (n[k].size > 1) /* jsmn hangs a value without its comma here */
            return gap_error(e, text, vbegin(&n[v->next]), 1, sep);
        if (vend(v) > close)
            return fail(e, (size_t)vbegin(v), 0, "invalid JSON structure");
        pos = vend(v);
    }
    int missing_;
    long bad = check_gap(text, pos, close, 0, &missing_);
    if (bad >= 0)
        return gap_error(e, text, bad, 0, sep);
    return 0;
}

/* A string with a child is an object key; nothing else may have one but
 * containers, and a key holds exactly one value. */
static int check_roles(const char *text, const struct pb_json_node *n, int i,
                       struct pb_json_error *e)
{
    const struct pb_json_node *t = &n[i];
    int is_key = t->type == PB_JSON_STRING && t->size > 0;
    int p = t->parent;
    if (p == PB_JSON_NONE || n[p].type != PB_JSON_OBJECT) {
        if (is_key)
            return fail_char(e, text, (size_t)t->end + 1, "unexpected");
        if (p != PB_JSON_NONE && n[p].type != PB_JSON_ARRAY &&
            !(n[p].type == PB_JSON_STRING && n[p].size == 1))
            return fail(e, (size_t)vbegin(t), 0, "invalid JSON structure");
    }
    return 0;
}

/* ==== parse ==== */

int pb_json_parse(struct pb_json *doc, const char *text, size_t avail,
                  struct pb_json_error *e)
{
    memset(doc, 0, sizeof(*doc));
    memset(e, 0, sizeof(*e));
    if (avail > (size_t)INT32_MAX)
        return fail(e, 0, 0, "document larger than 2 GiB");
    long deep, end = value_end(text, avail, &deep);
    if (deep >= 0)
        return fail(e, (size_t)deep, 0, "nested deeper than %d levels",
                    PB_JSON_MAX_DEPTH);
    jsmn_parser p;
    jsmntok_t *tok = NULL;
    int r = tokenize(text, end > 0 ? (size_t)end : avail, &p, &tok);
    if (r <= 0) {
        free(tok);
        if (r == JSMN_ERROR_INVAL && text[p.pos] == '"')
            return fail(e, p.pos, 0, "invalid escape in a string");
        if (r == JSMN_ERROR_INVAL)
            return fail_char(e, text, p.pos, "unexpected");
        if (r == JSMN_ERROR_NOMEM)
            return fail(e, p.pos, 0, "more than %d JSON values", MAX_TOKENS);
        if (r == 0)
            return fail(e, avail, 1, "no JSON value");
        return fail(e, avail, 1, "the text ends inside the document");
    }
    /* The document is the first value: a text that starts with a string
     * or a number may hold more after it. */
    int count = 1;
    while (count < r && tok[count].parent != -1)
        count++;

    struct pb_json_node *n = pb_xmalloc((size_t)count * sizeof(*n));
    for (int i = 0; i < count; i++) {
        n[i].start = tok[i].start;
        n[i].end = tok[i].end;
        n[i].size = tok[i].size;
        n[i].parent = tok[i].parent;
        n[i].esc = 0;
        n[i].type = tok[i].type == JSMN_OBJECT   ? PB_JSON_OBJECT
                    : tok[i].type == JSMN_ARRAY  ? PB_JSON_ARRAY
                    : tok[i].type == JSMN_STRING ? PB_JSON_STRING
                                                 : PB_JSON_NUMBER;
    }
    free(tok);

    /* the end of every subtree: children come after their parent */
    int rc = 0;
    for (int i = 0; i < count; i++)
        n[i].next = i + 1;
    for (int i = count - 1; i > 0; i--)
        if (n[i].next > n[n[i].parent].next)
            n[n[i].parent].next = n[i].next;
    for (int i = 0; i < count && !rc; i++) {
        if (n[i].type == PB_JSON_STRING)
            rc = check_string(text, &n[i], e);
        else if (n[i].type == PB_JSON_NUMBER)
            rc = check_primitive(text, &n[i], e);
        if (!rc)
            rc = check_roles(text, n, i, e);
        if (!rc && (n[i].type == PB_JSON_OBJECT || n[i].type == PB_JSON_ARRAY))
            rc = check_container(text, n, i, e);
    }
    if (rc) {
        free(n);
        return -1;
    }
    doc->text = text;
    doc->len = (size_t)vend(&n[0]);
    doc->n = n;
    doc->count = count;
    pb_arena_init(&doc->str);
    return 0;
}

void pb_json_release(struct pb_json *doc)
{
    if (!doc->n)
        return;
    free(doc->n);
    pb_arena_release(&doc->str);
    memset(doc, 0, sizeof(*doc));
}

/* ==== reading ==== */

static int valid(const struct pb_json *doc, int v)
{
    return v >= 0 && v < doc->count;
}

int pb_json_root(const struct pb_json *doc)
{
    return doc->count > 0 ? 0 : PB_JSON_NONE;
}

enum pb_json_type pb_json_type(const struct pb_json *doc, int v)
{
    return valid(doc, v) ? (enum pb_json_type)doc->n[v].type : PB_JSON_ABSENT;
}

size_t pb_json_offset(const struct pb_json *doc, int v)
{
    if (v < 0 || v >= doc->count)
        return 0;
    const struct pb_json_node *x = &doc->n[v];
    /* a string's start is inside its quotes */
    return (size_t)x->start - (x->type == PB_JSON_STRING && x->start > 0);
}

size_t pb_json_size(const struct pb_json *doc, int v)
{
    enum pb_json_type t = pb_json_type(doc, v);
    return t == PB_JSON_OBJECT || t == PB_JSON_ARRAY ? (size_t)doc->n[v].size
                                                     : 0;
}

int pb_json_first(const struct pb_json *doc, int v)
{
    return pb_json_size(doc, v) ? v + 1 : PB_JSON_NONE;
}

int pb_json_next(const struct pb_json *doc, int v)
{
    if (!valid(doc, v) || doc->n[v].parent == PB_JSON_NONE)
        return PB_JSON_NONE;
    const struct pb_json_node *p = &doc->n[doc->n[v].parent];
    int k = doc->n[v].next;
    return k < p->next ? k : PB_JSON_NONE;
}

int pb_json_value(const struct pb_json *doc, int key)
{
    if (!valid(doc, key) || doc->n[key].type != PB_JSON_STRING ||
        doc->n[key].size != 1)
        return PB_JSON_NONE;
    return key + 1;
}

/* Is string token k equal to the NUL-terminated s? */
static int str_is(struct pb_json *doc, int k, const char *s, size_t slen)
{
    const struct pb_json_node *t = &doc->n[k];
    if (!t->esc)
        return (size_t)(t->end - t->start) == slen &&
               !memcmp(doc->text + t->start, s, slen);
    const char *u = pb_json_str(doc, k);
    return u && !strcmp(u, s);
}

int pb_json_get(const struct pb_json *doc, int v, const char *key)
{
    if (pb_json_type(doc, v) != PB_JSON_OBJECT)
        return PB_JSON_NONE;
    size_t klen = strlen(key);
    int found = PB_JSON_NONE;
    /* str_is only writes to the document's string arena */
    struct pb_json *d = (struct pb_json *)doc;
    for (int k = pb_json_first(doc, v); k != PB_JSON_NONE;
         k = pb_json_next(doc, k))
        if (str_is(d, k, key, klen))
            found = k + 1;
    return found;
}

double pb_json_number(const struct pb_json *doc, int v)
{
    if (pb_json_type(doc, v) != PB_JSON_NUMBER)
        return NAN;
    const struct pb_json_node *t = &doc->n[v];
    const char *s = doc->text + t->start;
    double x;
    if (pb_dec_fast(s, (size_t)(t->end - t->start), &x) == 0)
        return x;
    /* The token is followed by a delimiter, so strtod stops at its end. */
    return strtod(s, NULL);
}

static void put_utf8(char **o, unsigned cp)
{
    char *p = *o;
    if (cp < 0x80) {
        *p++ = (char)cp;
    } else if (cp < 0x800) {
        *p++ = (char)(0xc0 | cp >> 6);
        *p++ = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *p++ = (char)(0xe0 | cp >> 12);
        *p++ = (char)(0x80 | (cp >> 6 & 0x3f));
        *p++ = (char)(0x80 | (cp & 0x3f));
    } else {
        *p++ = (char)(0xf0 | cp >> 18);
        *p++ = (char)(0x80 | (cp >> 12 & 0x3f));
        *p++ = (char)(0x80 | (cp >> 6 & 0x3f));
        *p++ = (char)(0x80 | (cp & 0x3f));
    }
    *o = p;
}

const char *pb_json_str(struct pb_json *doc, int v)
{
    if (pb_json_type(doc, v) != PB_JSON_STRING)
        return NULL;
    const struct pb_json_node *t = &doc->n[v];
    const char *s = doc->text + t->start;
    size_t len = (size_t)(t->end - t->start);
    if (!t->esc)
        return pb_arena_strndup(&doc->str, s, len);
    /* an escape never takes fewer bytes than what it stands for */
    char *out = pb_arena_alloc(&doc->str, len + 1), *o = out;
    for (size_t i = 0; i < len;) {
        if (s[i] != '\\') {
            *o++ = s[i++];
            continue;
        }
        char c = s[i + 1];
        i += 2;
        switch (c) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp = hex4(s + i);
            i += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) { /* checked: a pair */
                unsigned lo = hex4(s + i + 2);
                i += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(&o, cp);
            break;
        }
        default: *o++ = c; break; /* " \ / */
        }
    }
    *o = '\0';
    return out;
}

int pb_json_equal(struct pb_json *doc, int a, int b)
{
    enum pb_json_type ta = pb_json_type(doc, a), tb = pb_json_type(doc, b);
    if (ta != tb)
        return 0;
    switch (ta) {
    case PB_JSON_ABSENT:
    case PB_JSON_TRUE:
    case PB_JSON_FALSE:
    case PB_JSON_NULL:
        return 1;
    case PB_JSON_NUMBER:
        return pb_json_number(doc, a) == pb_json_number(doc, b);
    case PB_JSON_STRING: {
        const struct pb_json_node *x = &doc->n[a], *y = &doc->n[b];
        if (!x->esc && !y->esc)
            return x->end - x->start == y->end - y->start &&
                   !memcmp(doc->text + x->start, doc->text + y->start,
                           (size_t)(x->end - x->start));
        return !strcmp(pb_json_str(doc, a), pb_json_str(doc, b));
    }
    case PB_JSON_ARRAY:
        if (pb_json_size(doc, a) != pb_json_size(doc, b))
            return 0;
        for (int x = pb_json_first(doc, a), y = pb_json_first(doc, b);
             x != PB_JSON_NONE; x = pb_json_next(doc, x),
                 y = pb_json_next(doc, y))
            if (!pb_json_equal(doc, x, y))
                return 0;
        return 1;
    case PB_JSON_OBJECT:
        if (pb_json_size(doc, a) != pb_json_size(doc, b))
            return 0;
        for (int k = pb_json_first(doc, a); k != PB_JSON_NONE;
             k = pb_json_next(doc, k)) {
            const char *key = pb_json_str(doc, k);
            if (!pb_json_equal(doc, k + 1, pb_json_get(doc, b, key)))
                return 0;
        }
        return 1;
    }
    return 0;
}
