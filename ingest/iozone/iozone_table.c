/* The tables of iozone's text output (ingest/iozone/iozone_text.c reads the
 * rest): the auto-mode (-a) table and the -R report tables.
 *
 * Auto-table columns are fixed-width printf fields that may be blank
 * (tests not selected with -i) or omitted, and wide values can abut. Each
 * value is placed by its right edge: the header's right edges give a first
 * guess, the edges the table's values actually use are learnt from all its
 * rows, and a digit run that reaches left of the previous column's edge is
 * split there. Blank cells give no row; columns after "freread" (header
 * words iozone may add) are read but not stored. A run with an auto table
 * ignores its -R report (the same numbers); a report alone is parsed, its
 * cells placed under the record sizes of its header line in order, and 0
 * cells (iozone's placeholders for record sizes it skipped) are left out.
 */
#include "ingest/iozone/iozone_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAXCOLS 32 /* kB, reclen, 13 metrics, columns of later versions */
#define MAXTOK 64
#define MAXRECS 64 /* record sizes in one report header */

/* ==== names ==== */

/* Auto-table header words in order; metric bases for columns 2.. */
static const char *const hdr_words[] = {
    "kB",     "reclen", "write",  "rewrite", "read",     "reread",
    "read",   "write",  "read",   "rewrite", "read",     "fwrite",
    "frewrite", "fread", "freread"};
#define NHDR ((int)(sizeof(hdr_words) / sizeof(hdr_words[0])))

static const char *const col_op[] = {
    NULL,         NULL,        "write",         "rewrite",     "read",
    "reread",     "random_read", "random_write", "bkwd_read",
    "record_rewrite", "stride_read", "fwrite",   "frewrite",    "fread",
    "freread"};

static const struct {
    const char *title;
    const char *op;
} report_ops[] = {
    {"Writer", "write"},
    {"Re-writer", "rewrite"},
    {"Reader", "read"},
    {"Re-Reader", "reread"},
    {"Random read", "random_read"},
    {"Random write", "random_write"},
    {"Backward read", "bkwd_read"},
    {"Record rewrite", "record_rewrite"},
    {"Stride read", "stride_read"},
    {"Fwrite", "fwrite"},
    {"Re-Fwrite", "frewrite"},
    {"Fread", "fread"},
    {"Re-Fread", "freread"},
};

/* ==== auto-mode table ==== */

struct tok {
    long c0, c1; /* visual columns [c0, c1), tabs expanded */
    size_t b0;   /* byte offset in the line */
    int dot;
};

/* Split a table row into number tokens. Returns the count, or -1 when the
 * line is not a row (other characters, fewer than 2 numbers, first one
 * not an integer). */
static int row_tokens(const struct line *l, struct tok *t)
{
    int nt = 0;
    long col = 0;
    size_t i = 0;
    while (i < l->n) {
        char ch = l->s[i];
        if (ch == ' ' || ch == '\r') {
            col++;
            i++;
        } else if (ch == '\t') {
            col += 8 - col % 8;
            i++;
        } else if (isdigit((unsigned char)ch)) {
            if (nt == MAXTOK)
                return -1;
            struct tok *k = &t[nt++];
            k->c0 = col;
            k->b0 = i;
            k->dot = 0;
            while (i < l->n && (isdigit((unsigned char)l->s[i]) ||
                                l->s[i] == '.')) {
                if (l->s[i] == '.') {
                    if (k->dot || i + 1 >= l->n ||
                        !isdigit((unsigned char)l->s[i + 1]))
                        return -1;
                    k->dot = 1;
                }
                i++;
                col++;
            }
            k->c1 = col;
        } else {
            return -1;
        }
    }
    if (nt < 2 || t[0].dot)
        return -1;
    return nt;
}

static int nearest(const long *edge, int ncols, long e)
{
    int best = 0;
    for (int k = 1; k < ncols; k++)
        if (labs(e - edge[k]) < labs(e - edge[best]))
            best = k;
    return best;
}

/* Right edges of the header words (at most MAXCOLS) into edge; *nknown
 * gets how many of them, from the left, are the words iozone prints
 * (kB reclen write ...). Returns the number of words. */
static int header_cols(const struct line *l, long *edge, int *nknown)
{
    int k = 0;
    long col = 0;
    size_t i = 0;
    *nknown = 0;
    while (i < l->n && k < MAXCOLS) {
        char ch = l->s[i];
        if (ch == ' ' || ch == '\r') {
            col++;
            i++;
            continue;
        }
        if (ch == '\t') {
            col += 8 - col % 8;
            i++;
            continue;
        }
        size_t b = i;
        while (i < l->n && !isspace((unsigned char)l->s[i])) {
            i++;
            col++;
        }
        if (*nknown == k && k < NHDR &&
            i - b == strlen(hdr_words[k]) &&
            !strncasecmp(l->s + b, hdr_words[k], i - b))
            (*nknown)++;
        edge[k++] = col;
    }
    return k;
}

/* The right edges the values of a table use: for each column the most
 * common end of the values nearest to its header word. */
static void learn_edges(const struct line *rows, size_t nrows,
                        const long *hdr, int ncols, long *edge)
{
    enum { LO = -4, HI = 8, NB = HI - LO + 1 };
    int cnt[MAXCOLS][NB];
    memset(cnt, 0, sizeof(cnt));
    struct tok t[MAXTOK];
    for (size_t r = 0; r < nrows; r++) {
        int nt = row_tokens(&rows[r], t);
        for (int j = 0; j < nt; j++) {
            int k = nearest(hdr, ncols, t[j].c1);
            long off = t[j].c1 - hdr[k];
            if (off >= LO && off <= HI)
                cnt[k][off - LO]++;
        }
    }
    long off[MAXCOLS];
    int known[MAXCOLS];
    for (int k = 0; k < ncols; k++) {
        int best = -1;
        for (int b = 0; b < NB; b++)
            if (cnt[k][b] > 0 && (best < 0 || cnt[k][b] > cnt[k][best]))
                best = b;
        known[k] = best >= 0;
        off[k] = best >= 0 ? best + LO : 0;
    }
    for (int k = 0; k < ncols; k++) {
        long o = 0;
        if (known[k]) {
            o = off[k];
        } else {
            /* the nearest column with values, the left one first */
            for (int d = 1; d < ncols; d++) {
                if (k - d >= 0 && known[k - d]) {
                    o = off[k - d];
                    break;
                }
                if (k + d < ncols && known[k + d]) {
                    o = off[k + d];
                    break;
                }
            }
        }
        edge[k] = hdr[k] + o;
    }
}

static const char *col_name(int k)
{
    if (k < 2)
        return hdr_words[k];
    return k < NHDR ? col_op[k] : "(unnamed)";
}

static int put_cell(struct ctx *c, const struct line *l, long lineno,
                    size_t b, size_t n, int k, int *has, double *val)
{
    if (has[k])
        return pb_err_set(c->err, PB_EINPUT, c->path, lineno, (long)b + 1,
                          "two values under column \"%s\": the row does "
                          "not line up with the table header",
                          col_name(k));
    int rc = pb_iozone_num(c, l->s + b, n, lineno, (long)b + 1, &val[k]);
    if (rc)
        return rc;
    has[k] = 1;
    return PB_OK;
}

static int table_row(struct ctx *c, const struct line *l, long lineno,
                     const long *edge, int ncols, int nknown)
{
    struct tok t[MAXTOK];
    int nt = row_tokens(l, t);
    int has[MAXCOLS] = {0};
    double val[MAXCOLS];
    for (int j = 0; j < nt; j++) {
        long s = t[j].c0, e = t[j].c1;
        int k = nearest(edge, ncols, e);
        /* a digit run reaching left of the previous column's edge is two
         * abutting values */
        while (!t[j].dot && k >= 1 && s < edge[k - 1] && edge[k - 1] < e) {
            size_t b = t[j].b0 + (size_t)(edge[k - 1] - t[j].c0);
            int rc = put_cell(c, l, lineno, b, (size_t)(e - edge[k - 1]), k,
                              has, val);
            if (rc)
                return rc;
            e = edge[k - 1];
            k--;
        }
        int rc = put_cell(c, l, lineno, t[j].b0, (size_t)(e - s), k, has,
                          val);
        if (rc)
            return rc;
    }
    if (!has[0] || !has[1])
        return pb_err_set(c->err, PB_EINPUT, c->path, lineno, 0,
                          "row has no %s value under the table header",
                          has[0] ? "\"reclen\"" : "\"kB\"");
    for (int k = 2; k < nknown; k++) {
        if (!has[k])
            continue;
        struct rec *r = pb_iozone_add_rec(c, K_AUTO, col_op[k]);
        r->fsize = val[0] * 1024;
        r->rsize = val[1] * 1024;
        r->value = val[k];
    }
    return PB_OK;
}

/* The header line is lines[*i]; rows follow until a line that is not a
 * row. *i is left on that line. */
int pb_iozone_table(struct ctx *c, size_t *i)
{
    long hdr[MAXCOLS], edge[MAXCOLS];
    long hline = (long)*i + 1;
    int nknown;
    int ncols = header_cols(&c->lines[*i], hdr, &nknown);
    (*i)++;
    if (nknown < 3)
        return PB_OK; /* not the header we know: ignore */
    size_t first = *i;
    struct tok t[MAXTOK];
    while (*i < c->nlines && row_tokens(&c->lines[*i], t) >= 0)
        (*i)++;
    /* A table stops at a blank or text line; a line that starts like a
     * row (a number first) but is not one is a damaged row: refuse the
     * file rather than keep the table cut short there. */
    if (*i < c->nlines && *i > first) {
        const struct line *l = &c->lines[*i];
        size_t k = 0;
        while (k < l->n && (l->s[k] == ' ' || l->s[k] == '\t'))
            k++;
        if (k < l->n && isdigit((unsigned char)l->s[k])) {
            size_t bad = k;
            while (bad < l->n && (isdigit((unsigned char)l->s[bad]) ||
                                  l->s[bad] == ' ' || l->s[bad] == '\t' ||
                                  l->s[bad] == '.' || l->s[bad] == '\r'))
                bad++;
            return pb_err_set(c->err, PB_EINPUT, c->path, (long)*i + 1,
                              (long)bad + 1,
                              "damaged table row: unexpected character in "
                              "an auto-mode table");
        }
    }
    size_t nrows = *i - first;
    if (nrows == 0) {
        c->empty_hdr_line = hline;
        c->empty_what = "auto-mode table header";
        return PB_OK;
    }
    learn_edges(c->lines + first, nrows, hdr, ncols, edge);
    for (size_t r = first; r < *i; r++) {
        int rc = table_row(c, &c->lines[r], (long)r + 1, edge, ncols,
                           nknown);
        if (rc)
            return rc;
    }
    return PB_OK;
}

/* ==== -R report ==== */

static int blank(const struct line *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!isspace((unsigned char)l->s[i]))
            return 0;
    return 1;
}

/* Numbers (digit runs) of s[0..n) into out (at most max), with their byte
 * offsets; returns the count or -1 past max. */
static int digit_runs(const char *s, size_t n, size_t *off, size_t *len,
                      int max)
{
    int k = 0;
    size_t i = 0;
    while (i < n) {
        if (!isdigit((unsigned char)s[i])) {
            i++;
            continue;
        }
        if (k == max)
            return -1;
        off[k] = i;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        len[k] = i - off[k];
        k++;
    }
    return k;
}

int pb_iozone_report(struct ctx *c, size_t *i, const char *title, size_t tn)
{
    const char *op = NULL;
    for (size_t k = 0; k < sizeof(report_ops) / sizeof(report_ops[0]); k++)
        if (strlen(report_ops[k].title) == tn &&
            !strncasecmp(report_ops[k].title, title, tn))
            op = report_ops[k].op;
    long tline = (long)*i + 1;
    char tname[64];
    snprintf(tname, sizeof(tname), "%.*s report", (int)(tn > 40 ? 40 : tn),
             title);
    (*i)++;
    while (*i < c->nlines && blank(&c->lines[*i]))
        (*i)++;
    if (*i >= c->nlines)
        goto empty;
    const struct line *h = &c->lines[*i];
    if (!pb_iozone_match(c->md, RX_REPORT_HDR, h->s, h->n)) {
        if (pb_iozone_match(c->md, RX_REPORT_ROW, h->s, h->n))
            return pb_err_set(c->err, PB_EINPUT, c->path, (long)*i + 1, 0,
                              "\"%s\" has rows but no line of record "
                              "sizes",
                              tname);
        goto empty;
    }
    size_t off[MAXRECS], len[MAXRECS];
    double rec_kb[MAXRECS];
    int nrec = digit_runs(h->s, h->n, off, len, MAXRECS);
    if (nrec < 0)
        return pb_err_set(c->err, PB_EINPUT, c->path, (long)*i + 1, 0,
                          "more than %d record sizes in \"%s\"", MAXRECS,
                          tname);
    for (int k = 0; k < nrec; k++) {
        int rc = pb_iozone_num(c, h->s + off[k], len[k], (long)*i + 1,
                               (long)off[k] + 1, &rec_kb[k]);
        if (rc)
            return rc;
    }
    (*i)++;
    size_t before = c->nrecs;
    int rows = 0;
    while (*i < c->nlines) {
        const struct line *l = &c->lines[*i];
        if (!pb_iozone_match(c->md, RX_REPORT_ROW, l->s, l->n))
            break;
        long lineno = (long)*i + 1;
        size_t roff[MAXRECS + 1], rlen[MAXRECS + 1];
        int nv = digit_runs(l->s, l->n, roff, rlen, MAXRECS + 1);
        if (nv < 0 || nv - 1 > nrec)
            return pb_err_set(c->err, PB_EINPUT, c->path, lineno, 0,
                              "row has more values than \"%s\" has record "
                              "sizes",
                              tname);
        double fkb;
        int rc = pb_iozone_num(c, l->s + roff[0], rlen[0], lineno,
                               (long)roff[0] + 1, &fkb);
        if (rc)
            return rc;
        for (int k = 1; k < nv; k++) {
            double v;
            rc = pb_iozone_num(c, l->s + roff[k], rlen[k], lineno,
                               (long)roff[k] + 1, &v);
            if (rc)
                return rc;
            if (v == 0 || !op)
                continue; /* placeholder for a skipped record size */
            struct rec *r = pb_iozone_add_rec(c, K_REPORT, op);
            r->fsize = fkb * 1024;
            r->rsize = rec_kb[k - 1] * 1024;
            r->value = v;
        }
        rows++;
        (*i)++;
    }
    if (rows > 0 || c->nrecs > before)
        return PB_OK;
empty:
    if (!c->empty_hdr_line) {
        c->empty_hdr_line = tline;
        c->empty_what = "report title";
    }
    return PB_OK;
}
