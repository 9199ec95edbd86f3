/* Scanning JSON text without tokens (see ingest/lex/json_int.h): value spans
 * and object members, for files read a piece at a time (fio JSON
 * streamed, docs/performance.md "Streaming ingest"). */
#include "ingest/lex/json_int.h"

#include <string.h>

#define NONE ((size_t)-1)

size_t pb_json_scan_ws(const char *text, size_t len, size_t i)
{
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                       text[i] == '\r'))
        i++;
    return i;
}

/* Offset just past the string whose opening quote is text[i]. */
static size_t scan_string(const char *text, size_t len, size_t i)
{
    for (size_t j = i + 1; j < len;) {
        const char *q = memchr(text + j, '"', len - j);
        if (!q)
            return NONE;
        size_t k = (size_t)(q - text), bs = 0;
        while (k - bs > i + 1 && text[k - bs - 1] == '\\')
            bs++;
        if (bs % 2 == 0)
            return k + 1;
        j = k + 1;
    }
    return NONE;
}

static int is_delim(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' ||
           c == ']' || c == '}' || c == ':';
}

size_t pb_json_scan_value(const char *text, size_t len, size_t i, int *depth)
{
    *depth = 0;
    if (i >= len)
        return NONE;
    char c = text[i];
    if (c == '"')
        return scan_string(text, len, i);
    if (c != '{' && c != '[') {
        size_t j = i;
        while (j < len && !is_delim(text[j]) && text[j] != '"' &&
               text[j] != '{' && text[j] != '[')
            j++;
        return j > i ? j : NONE;
    }
    char stack[PB_JSON_MAX_DEPTH];
    int d = 0;
    for (size_t j = i; j < len; j++) {
        c = text[j];
        if (c == '"') {
            j = scan_string(text, len, j);
            if (j == NONE)
                return NONE;
            j--;
        } else if (c == '{' || c == '[') {
            if (d == PB_JSON_MAX_DEPTH)
                return NONE;
            stack[d++] = c == '{' ? '}' : ']';
            if (d > *depth)
                *depth = d;
        } else if (c == '}' || c == ']') {
            if (stack[--d] != c)
                return NONE;
            if (d == 0)
                return j + 1;
        }
    }
    return NONE;
}

size_t pb_json_scan_object(const char *text, size_t len, size_t i,
                           int (*fn)(void *ctx, const char *text,
                                     const struct pb_json_member *m),
                           void *ctx)
{
    if (i >= len || text[i] != '{')
        return NONE;
    i = pb_json_scan_ws(text, len, i + 1);
    if (i < len && text[i] == '}')
        return i + 1;
    for (;;) {
        struct pb_json_member m;
        if (i >= len || text[i] != '"')
            return NONE;
        m.key = i;
        m.key_end = scan_string(text, len, i);
        if (m.key_end == NONE)
            return NONE;
        i = pb_json_scan_ws(text, len, m.key_end);
        if (i >= len || text[i] != ':')
            return NONE;
        m.val = pb_json_scan_ws(text, len, i + 1);
        m.val_end = pb_json_scan_value(text, len, m.val, &m.depth);
        if (m.val_end == NONE || fn(ctx, text, &m) != 0)
            return NONE;
        i = pb_json_scan_ws(text, len, m.val_end);
        if (i < len && text[i] == '}')
            return i + 1;
        if (i >= len || text[i] != ',')
            return NONE;
        i = pb_json_scan_ws(text, len, i + 1);
    }
}
