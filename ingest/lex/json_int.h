/* Private to ingest/: a read-only JSON document for the parsers that read
 * JSON (fio_json.c). jsmn (Debian libjsmn-dev) cuts the text into tokens;
 * this layer then checks every token and every byte between tokens
 * against the JSON grammar (RFC 8259: commas, colons, number syntax,
 * escapes, UTF-8, no control characters in strings), so a document is
 * refused exactly where a validating parser would refuse it. Nothing is
 * converted until asked for: a caller that reads 100 numbers of a file
 * holding 20,000 pays for 100 conversions.
 *
 * Use:
 *   1. pb_json_parse() on the text (it stops after the first value: what
 *      follows, such as fio's normal output after --output-format=json,
 *      normal, is not part of the document);
 *   2. walk it with pb_json_get() / pb_json_first() / pb_json_next() and
 *      read values with pb_json_number() / pb_json_str();
 *   3. pb_json_release().
 *
 * Values are token indexes (int); PB_JSON_NONE (-1) is "absent", and every
 * function takes it and answers "absent" / NAN / NULL, so lookups chain
 * without checks: pb_json_number(d, pb_json_get(d, pb_json_get(d, root,
 * "read"), "iops")).
 */
#ifndef PB_JSON_INT_H
#define PB_JSON_INT_H

#include "common/pb.h"

#include <stddef.h>

#define PB_JSON_NONE (-1)
#define PB_JSON_MAX_DEPTH 64 /* objects and arrays; deeper is refused */

enum pb_json_type {
    PB_JSON_ABSENT = 0,
    PB_JSON_OBJECT,
    PB_JSON_ARRAY,
    PB_JSON_STRING,
    PB_JSON_NUMBER,
    PB_JSON_TRUE,
    PB_JSON_FALSE,
    PB_JSON_NULL,
};

struct pb_json_node; /* private */

struct pb_json {
    const char *text;    /* borrowed; text[0 .. len) is the document */
    size_t len;          /* bytes of the first value (its end) */
    struct pb_json_node *n;
    int count;           /* tokens of the document */
    struct pb_arena str; /* strings handed out by pb_json_str */
};

struct pb_json_error {
    size_t offset;       /* in text, where the problem is */
    int truncated;       /* the text ends inside the value */
    char msg[128];       /* "expected ',' or '}'" */
};

/* Tokenise and check text[0 .. avail). Returns 0, or -1 with *e filled
 * (and nothing to release). The document must not be used after `text`
 * is freed. */
int pb_json_parse(struct pb_json *doc, const char *text, size_t avail,
                  struct pb_json_error *e) PB_WUR;
void pb_json_release(struct pb_json *doc);

/* The root value: 0, or PB_JSON_NONE for an empty document. */
int pb_json_root(const struct pb_json *doc);

enum pb_json_type pb_json_type(const struct pb_json *doc, int v);

/* Value of member `key` of object v (the last one when a key repeats, as
 * jansson does), or PB_JSON_NONE. */
int pb_json_get(const struct pb_json *doc, int v, const char *key);

/* Offset in the text where value (or key) v starts (its opening quote
 * for a string); 0 for PB_JSON_NONE. */
size_t pb_json_offset(const struct pb_json *doc, int v);

/* Members of an object or elements of an array (0 for anything else). */
size_t pb_json_size(const struct pb_json *doc, int v);

/* Iteration: the first element of an array, or the first member's KEY of
 * an object; pb_json_next gives the next element or key; the value of a
 * member is pb_json_value(doc, key). All PB_JSON_NONE at the end. */
int pb_json_first(const struct pb_json *doc, int v);
int pb_json_next(const struct pb_json *doc, int v);
int pb_json_value(const struct pb_json *doc, int key);

/* A number as a double (integers included); NAN when v is not a number.
 * Numbers too large for a double were refused by pb_json_parse. */
double pb_json_number(const struct pb_json *doc, int v);

/* A string (or a key), unescaped into UTF-8 and NUL-terminated; owned by
 * the document. NULL when v is not a string. */
const char *pb_json_str(struct pb_json *doc, int v);

/* Same structure and values (object members in any order). */
int pb_json_equal(struct pb_json *doc, int a, int b);

/* ==== scanning without a document (json_scan.c) ====
 * For a file too large to hold as tokens: find where values begin and
 * end, tracking strings, escapes and nesting (brackets must match), and
 * check nothing else; pb_json_parse on the spans found checks them. */

/* Offset of the first byte at or after i that is not JSON white space
 * (len at the end). */
size_t pb_json_scan_ws(const char *text, size_t len, size_t i);

/* Offset just past the value that starts at text[i], or (size_t)-1 when
 * the text ends inside it or its brackets do not match. *depth: the
 * deepest nesting of objects and arrays in it (1 for "{}", 0 for a
 * scalar); deeper than PB_JSON_MAX_DEPTH is refused. */
size_t pb_json_scan_value(const char *text, size_t len, size_t i, int *depth);

/* One member of an object: the key's span (quotes included) and the
 * value's span, offsets in the text. */
struct pb_json_member {
    size_t key, key_end, val, val_end;
    int depth; /* of the value, as pb_json_scan_value */
};

/* Walk the members of the object at text[i] ('{'), calling fn for each;
 * returns the offset just past its '}', or (size_t)-1 when the object is
 * not well formed at this level or fn returns nonzero. */
size_t pb_json_scan_object(const char *text, size_t len, size_t i,
                           int (*fn)(void *ctx, const char *text,
                                     const struct pb_json_member *m),
                           void *ctx);

#endif
