/* Configuration sheets (ingest --configs SHEET): CSV or TSV with a header
 * `label,<key>,<key>...` and one row per label; the table's entry
 * pb_parser_sheet. Not a result format (PB_PARSER_NO_RESULTS: never
 * sniffed, no --format name): each row becomes a config of a result set without results,
 * whose dimensions carry the origin "sheet: PATH:LINE" and are attached by
 * model/ to every configuration with that label. And companions: ZFS
 * outputs ingested with --label whose dimensions attach the same way. */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SHEET_MAX_CELL 256 /* bytes of a label, key or value */
#define SHEET_MAX_COLS 256

struct row {
    char **cell;
    size_t n, cap;
};

static void row_clear(struct row *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->cell[i]);
    r->n = 0;
}

/* Split one line (no newline) into cells: TSV when sep is '\t' (cells
 * taken as they are, trimmed), else CSV with "quoted" cells ("" inside is
 * a quote). Returns 0, or -1 with *why set. */
static int split(const char *p, const char *end, char sep, struct row *r,
                 const char **why)
{
    row_clear(r);
    for (;;) {
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_puts(&b, "");
        while (p < end && (*p == ' ' || *p == '\t') && *p != sep)
            p++;
        if (sep == ',' && p < end && *p == '"') {
            p++;
            for (;;) {
                if (p >= end) {
                    pb_buf_release(&b);
                    *why = "quoted cell not closed on its line";
                    return -1;
                }
                if (*p == '"' && p + 1 < end && p[1] == '"') {
                    pb_buf_putc(&b, '"');
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    pb_buf_putc(&b, *p++);
                }
            }
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if (p < end && *p != sep) {
                pb_buf_release(&b);
                *why = "text after a quoted cell";
                return -1;
            }
        } else {
            const char *s = p;
            while (p < end && *p != sep)
                p++;
            const char *e = p;
            while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
                e--;
            pb_buf_add(&b, s, (size_t)(e - s));
        }
        if (r->n >= SHEET_MAX_COLS) {
            pb_buf_release(&b);
            *why = "more than 256 columns";
            return -1;
        }
        PB_GROW(r->cell, r->cap, r->n + 1);
        r->cell[r->n++] = pb_buf_take(&b);
        if (p >= end)
            return 0;
        p++; /* the separator */
    }
}

/* A cell fit to store: not too long, no control characters. NULL or the
 * reason. */
static const char *bad_text(const char *s)
{
    if (strlen(s) > SHEET_MAX_CELL)
        return "longer than 256 bytes";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return "control character";
    return NULL;
}

static int good_key(const char *k)
{
    if (!*k)
        return 0;
    for (const char *p = k; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' &&
            *p != '-' && *p != ':')
            return 0;
    return 1;
}

/* The header: 'label' first, then distinct dimension names (lowered). */
static int check_header(const char *path, long line, struct row *head,
                        struct pb_err *err)
{
    if (strcasecmp(head->cell[0], "label"))
        return pb_err_set(err, PB_EUSAGE, path, line, 0,
                          "first column must be 'label', got '%.60s'",
                          head->cell[0]);
    if (head->n < 2)
        return pb_err_set(err, PB_EUSAGE, path, line, 0,
                          "no dimension columns after 'label'");
    for (size_t i = 1; i < head->n; i++) {
        for (char *k = head->cell[i]; *k; k++)
            *k = (char)tolower((unsigned char)*k);
        if (!good_key(head->cell[i]) || strlen(head->cell[i]) > 64)
            return pb_err_set(err, PB_EUSAGE, path, line, 0,
                              "column %zu: bad dimension name '%.60s' "
                              "(letters, digits, _ . - :)",
                              i + 1, head->cell[i]);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(head->cell[i], head->cell[j]))
                return pb_err_set(err, PB_EUSAGE, path, line, 0,
                                  "column %zu: '%s' appears twice", i + 1,
                                  head->cell[i]);
    }
    return PB_OK;
}

int pb_sheet_shaped(const char *buf, size_t len, long *line)
{
    if (memchr(buf, '\0', len))
        return 0;
    const char *p = buf, *end = buf + len;
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
        p += 3;
    struct row head = {0}, r = {0};
    char sep = 0;
    long head_line = 0;
    int yes = 0;
    for (long ln = 1; p < end; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break; /* a line cut by the caller's scan is no evidence */
        const char *e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
        const char *s = pb_skip_ws(p, e), *line_at = p;
        p = nl + 1;
        if (s == e || *s == '#')
            continue;
        if (!sep)
            sep = memchr(line_at, '\t', (size_t)(e - line_at)) ? '\t' : ',';
        const char *why;
        struct pb_err err = {0};
        if (!head_line) {
            if (split(line_at, e, sep, &head, &why) ||
                check_header("", ln, &head, &err) != PB_OK)
                break;
            head_line = ln;
            continue;
        }
        yes = !split(line_at, e, sep, &r, &why) && r.n == head.n &&
              *r.cell[0];
        break;
    }
    row_clear(&head);
    row_clear(&r);
    free(head.cell);
    free(r.cell);
    if (yes)
        *line = head_line;
    return yes;
}

/* The sheet's parse: into ctx->out, which the caller (pb_ingest_sheet)
 * made with the path, format, size and sha256, and frees on failure. */
static int sheet_parse(struct pb_parse *ctx)
{
    const char *path = ctx->path, *buf = ctx->buf;
    size_t len = ctx->len;
    struct pb_resultset *set = ctx->out;
    struct pb_err *err = ctx->err;
    const char *nul = memchr(buf, '\0', len);
    if (nul)
        return pb_err_set(err, PB_EUSAGE, path,
                          pb_line_of(buf, (size_t)(nul - buf)), 0,
                          "NUL byte: not a CSV or TSV sheet");
    struct row head = {0}, r = {0};
    long *first_line = NULL; /* line of each config's row */
    long head_line = 0;
    size_t capfl = 0;
    char sep = 0;
    int rc = PB_OK;
    const char *why = NULL;
    const char *p = buf, *end = buf + len;
    if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
        p += 3;
    for (long line = 1; p < end && !rc; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *next = nl ? nl + 1 : end;
        if (e > p && e[-1] == '\r')
            e--;
        const char *s = pb_skip_ws(p, e);
        if (s == e || *s == '#') { /* blank line or comment */
            p = next;
            continue;
        }
        if (!sep)
            sep = memchr(p, '\t', (size_t)(e - p)) ? '\t' : ',';
        int is_head = head.n == 0;
        if (split(p, e, sep, is_head ? &head : &r, &why)) {
            rc = pb_err_set(err, PB_EUSAGE, path, line, 0, "%s", why);
            break;
        }
        p = next;
        if (is_head) {
            head_line = line;
            rc = check_header(path, line, &head, err);
            continue;
        }
        if (r.n != head.n) {
            rc = pb_err_set(err, PB_EUSAGE, path, line, 0,
                            "%zu cells, the header has %zu", r.n, head.n);
            break;
        }
        const char *label = r.cell[0];
        if (!*label) {
            rc = pb_err_set(err, PB_EUSAGE, path, line, 0, "empty label");
            break;
        }
        for (size_t i = 0; i < r.n && !rc; i++)
            if ((why = bad_text(r.cell[i])))
                rc = pb_err_set(err, PB_EUSAGE, path, line, 0,
                                "column %zu: %s", i + 1, why);
        if (rc)
            break;
        size_t before = set->nconfigs;
        size_t c = pb_rs_config(set, label);
        if (c < before) {
            rc = pb_err_set(err, PB_EUSAGE, path, line, 0,
                            "label '%s' already has a row (line %ld)", label,
                            first_line[c]);
            break;
        }
        PB_GROW(first_line, capfl, c + 1);
        first_line[c] = line;
        char *origin = pb_xasprintf("sheet: %s:%ld", path, line);
        for (size_t i = 1; i < r.n; i++) {
            if (!*r.cell[i])
                continue; /* nothing said about this key */
            char *v = pb_ingest_norm_param(head.cell[i], r.cell[i]);
            if (*v) /* a cell of a no-break space says nothing either */
                pb_rs_config_param_origin(set, c, head.cell[i], v, origin);
            free(v);
        }
        free(origin);
    }
    if (!rc && !head.n)
        rc = pb_err_set(err, PB_EUSAGE, path, 1, 0,
                        "empty sheet: want a header 'label,<key>,...'");
    else if (!rc && set->nconfigs == 0)
        rc = pb_err_set(err, PB_EUSAGE, path, head_line, 0,
                        "no rows after the header");
    row_clear(&head);
    row_clear(&r);
    free(head.cell);
    free(r.cell);
    free(first_line);
    return rc;
}

/* Never sniffed: a sheet is read only when named by --configs. */
static int sheet_sniff(const char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return 0;
}

const struct pb_parser pb_parser_sheet = {
    .name = "sheet",
    .flags = PB_PARSER_NO_RESULTS,
    .sniff = sheet_sniff,
    .parse = sheet_parse,
};

/* ==== companions ==== */

void pb_ingest_companion(struct pb_resultset *set)
{
    char *origin = pb_xasprintf("companion: %s", set->path ? set->path : "-");
    for (size_t i = 0; i < set->nconfigs; i++) {
        struct pb_config *c = &set->configs[i];
        for (size_t k = 0; k < c->nparams; k++) {
            struct pb_kv *kv = &c->params[k];
            if (kv->origin)
                continue;
            /* a key whose value differs between the file's datasets or
             * pools says nothing certain about the label */
            int agree = 1;
            for (size_t j = 0; j < set->nconfigs && agree; j++)
                for (size_t m = 0; m < set->configs[j].nparams; m++) {
                    const struct pb_kv *o = &set->configs[j].params[m];
                    if (!strcmp(o->key, kv->key) &&
                        strcmp(o->value, kv->value))
                        agree = 0;
                }
            if (agree)
                kv->origin = pb_rs_str(set, origin);
        }
    }
    free(origin);
}
