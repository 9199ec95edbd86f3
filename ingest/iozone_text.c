/* iozone text output into a result set: auto-mode tables (-a), the -R
 * Excel-style report tables printed to stdout, and throughput mode (-t,
 * "Children see throughput for N initial writers = X kB/sec").
 *
 * Runs: a file may hold several iozone runs one after another (shell
 * scripts appending to one log, echo lines between). A run starts at the
 * "Iozone: Performance Test of File I/O" banner, or, without one, at a
 * second "Run began:" / "Command line used:" line. When more than one run
 * produced results, each gets job "run<k>" (k counts those runs, 1-based)
 * and its facts are keyed "run<k>.<key>"; a single run has job NULL.
 *
 * Model:
 *   - config: the host name from "Machine = <sysname> <nodename> ..." (-M)
 *     when the run prints it, else "iozone"; results get that host too.
 *   - auto table and -R report: test "iozone file_size=64k record_size=4k"
 *     with test_param file_size and record_size in bytes (the table's
 *     columns are kB = 1024 bytes); throughput mode: test "iozone
 *     throughput clients=4 file_size=1M record_size=1k" with clients, and
 *     file_size/record_size from "Each process writes a N kByte file in M
 *     kByte records" (or "File size set to" / "Record Size" lines).
 *     Flags printed in the header add direct=1 ("O_DIRECT feature
 *     enabled"), sync=1 ("SYNC Mode") and fsync=1 ("Include fsync in write
 *     timing") to the params and the name; absent flags are not stored.
 *   - metrics: write_bw rewrite_bw read_bw reread_bw random_read_bw
 *     random_write_bw bkwd_read_bw record_rewrite_bw stride_read_bw
 *     fwrite_bw frewrite_bw fread_bw freread_bw in B/s (kB/s x 1024).
 *     Throughput mode adds random_mix_bw, pwrite_bw, pread_bw; "Parent
 *     sees" lines become parent_<op>_bw (wall-clock aggregate); per-process
 *     min/max/avg and "Min xfer" are dropped. With -O ("operations per
 *     second") metrics end in _iops (ops/s); with -N ("microseconds per
 *     operation") in _latency (ns, lower is better).
 *   - facts: iozone_version ("3.327"; also set->tool_version "iozone-3.327"),
 *     or, when no run prints its version, flag.no_version = "no version
 *     found" (a pasted fragment: the report flags the source),
 *     iozone_command (the command line: a fact, not a test_param, because
 *     tests of the same name are shared by runs with other command lines),
 *     run_began, uname.
 *
 * Auto-table columns are fixed-width printf fields that may be blank
 * (tests not selected with -i) or omitted, and wide values can abut. Each
 * value is placed by its right edge: the header's right edges give a first
 * guess, the edges the table's values actually use are learnt from all its
 * rows, and a digit run that reaches left of the previous column's edge is
 * split there. Blank cells give no row; columns after "freread" (header
 * words iozone may add) are read but not stored. A run with an auto table ignores
 * its -R report (the same numbers); a report alone is parsed, its cells
 * placed under the record sizes of its header line in order, and 0 cells
 * (iozone's placeholders for record sizes it skipped) are left out.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SNIFF_SCAN ((size_t)8192)
#define MAXCOLS 32 /* kB, reclen, 13 metrics, columns of later versions */
#define MAXTOK 64
#define MAXRECS 64 /* record sizes in one report header */

/* ==== regexes (compiled once, shared read-only by all threads) ==== */

enum rx_id {
    RX_BANNER,
    RX_VERSION,
    RX_BEGAN,
    RX_COMMAND,
    RX_FSIZE,
    RX_RSIZE,
    RX_OUTPUT,
    RX_DIRECT,
    RX_SYNC,
    RX_FSYNC,
    RX_MACHINE,
    RX_EACH,
    RX_TPUT,
    RX_AUTO_HDR,
    RX_REPORT_TITLE,
    RX_REPORT_HDR,
    RX_REPORT_ROW,
    RX_N
};

static const char *const rx_src[RX_N] = {
    [RX_BANNER] = "Iozone: Performance Test of File I/O",
    [RX_VERSION] = "Version \\$Revision: ([0-9][0-9.]*) \\$",
    [RX_BEGAN] = "^\\s*Run began:\\s*(.*?)\\s*$",
    [RX_COMMAND] = "^\\s*Command line used:\\s*(.*?)\\s*$",
    [RX_FSIZE] = "^\\s*File size set to (\\d+) (?i:kB|kbytes)\\b",
    [RX_RSIZE] = "^\\s*Record Size (\\d+) (?i:kB|kbytes)\\b",
    [RX_OUTPUT] = "Output is in (.*?)\\.?\\s*$",
    [RX_DIRECT] = "^\\s*O_DIRECT feature enabled",
    [RX_SYNC] = "^\\s*SYNC Mode",
    [RX_FSYNC] = "^\\s*Include fsync in write timing",
    [RX_MACHINE] = "^\\s*Machine = (\\S+)\\s+(\\S+)",
    [RX_EACH] = "^\\s*Each (?:process|thread) writes a (\\d+) (?i:kbyte) "
                "file in (\\d+) (?i:kbyte) records",
    [RX_TPUT] = "(Children see|Parent sees) throughput for\\s*(\\d+)\\s+"
                "(.*?)\\s*=\\s*(\\d+(?:\\.\\d*)?)\\s*([^\\s/]+)/sec",
    [RX_AUTO_HDR] = "^\\s*(?:kB|KB)\\s+reclen\\s+write\\b",
    [RX_REPORT_TITLE] = "^\\s*\"([A-Za-z][A-Za-z -]*) report\"\\s*$",
    [RX_REPORT_HDR] = "^\\s*(?:\"\\d+\"\\s*)+$",
    [RX_REPORT_ROW] = "^\\s*\"(\\d+)\"((?:\\s+\\d+)*)\\s*$",
};

static pcre2_code *rx_code[RX_N];
static int rx_ready;
static pthread_once_t rx_once = PTHREAD_ONCE_INIT;

static void rx_init(void)
{
    for (int i = 0; i < RX_N; i++) {
        int ec;
        PCRE2_SIZE eo;
        rx_code[i] = pcre2_compile((PCRE2_SPTR)rx_src[i],
                                   PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
        if (!rx_code[i])
            return;
    }
    rx_ready = 1;
}

static int rx_match(pcre2_match_data *md, int id, const char *s, size_t n)
{
    return pcre2_match(rx_code[id], (PCRE2_SPTR)s, n, 0, 0, md, NULL) > 0;
}

/* Capture group g of the last match as pointer + length (0 when unset). */
static size_t rx_group(pcre2_match_data *md, int g, const char *s,
                       const char **out)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (ov[2 * g] == PCRE2_UNSET) {
        *out = s;
        return 0;
    }
    *out = s + ov[2 * g];
    return ov[2 * g + 1] - ov[2 * g];
}

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

static const struct {
    const char *phrase;
    const char *op;
} tput_ops[] = {
    {"initial writers", "write"},
    {"rewriters", "rewrite"},
    {"readers", "read"},
    {"re-readers", "reread"},
    {"reverse readers", "bkwd_read"},
    {"stride readers", "stride_read"},
    {"random readers", "random_read"},
    {"mixed workload", "random_mix"},
    {"random writers", "random_write"},
    {"pwrite writers", "pwrite"},
    {"pread readers", "pread"},
    {"fwriters", "fwrite"},
    {"freaders", "fread"},
};

/* ==== parse state ==== */

enum unit { U_KB, U_OPS, U_USEC, U_RAW };
enum kind { K_AUTO, K_REPORT, K_TPUT };

struct line {
    const char *s;
    size_t n; /* without the line end */
};

struct run {
    const char *version, *command, *began, *host, *uname;
    int direct, sync, fsync;
    int unit;
    const char *unit_raw; /* U_RAW: as printed */
    double fsize, rsize;  /* B from "File size set to"/"Record Size" */
    double tfsize, trsize; /* B from "Each process writes ..." */
    size_t nauto, nreport, ntput;
    long first_line;
};

struct rec {
    size_t run;
    int kind;
    const char *op; /* static string */
    int parent;
    long clients;
    double fsize, rsize; /* B, NAN unknown */
    double value;        /* as printed */
    int unit;            /* K_TPUT only; tables use the run's */
    const char *unit_raw;
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    pcre2_match_data *md;
    struct line *lines;
    size_t nlines;
    struct run *runs;
    size_t nruns, capruns;
    struct rec *recs;
    size_t nrecs, caprecs;
    long empty_hdr_line;   /* auto header or report title without rows */
    const char *empty_what; /* what that was */
    long banner_line;
};

static struct run *cur(struct ctx *c)
{
    return &c->runs[c->nruns - 1];
}

static void new_run(struct ctx *c, long line)
{
    PB_GROW(c->runs, c->capruns, c->nruns + 1);
    struct run *r = &c->runs[c->nruns++];
    memset(r, 0, sizeof(*r));
    r->unit = U_KB;
    r->fsize = r->rsize = r->tfsize = r->trsize = NAN;
    r->first_line = line;
}

static int run_used(const struct run *r)
{
    return r->version || r->command || r->began || r->nauto || r->nreport ||
           r->ntput;
}

static struct rec *add_rec(struct ctx *c, int kind, const char *op)
{
    PB_GROW(c->recs, c->caprecs, c->nrecs + 1);
    struct rec *r = &c->recs[c->nrecs++];
    memset(r, 0, sizeof(*r));
    r->run = c->nruns - 1;
    r->kind = kind;
    r->op = op;
    r->fsize = r->rsize = NAN;
    struct run *run = cur(c);
    if (kind == K_AUTO)
        run->nauto++;
    else if (kind == K_REPORT)
        run->nreport++;
    else
        run->ntput++;
    return r;
}

static const char *dupn(struct ctx *c, const char *s, size_t n)
{
    return pb_arena_strndup(&c->set->arena, s, n);
}

/* ==== numbers ==== */

/* Parse the n bytes at s (digits, maybe one '.') as a number. Rejects
 * more than 19 integer digits: iozone prints long long values. */
static int parse_num(struct ctx *c, const char *s, size_t n, long line,
                     long col, double *out)
{
    size_t idigits = 0;
    while (idigits < n && isdigit((unsigned char)s[idigits]))
        idigits++;
    if (idigits > 19 || n > 40)
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "number \"%.*s%s\" is too large",
                          (int)(n > 20 ? 20 : n), s, n > 20 ? "..." : "");
    char tmp[48];
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    if (end == tmp || *end || !isfinite(v))
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "\"%s\" is not a number", tmp);
    *out = v;
    return PB_OK;
}

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
    int rc = parse_num(c, l->s + b, n, lineno, (long)b + 1, &val[k]);
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
        struct rec *r = add_rec(c, K_AUTO, col_op[k]);
        r->fsize = val[0] * 1024;
        r->rsize = val[1] * 1024;
        r->value = val[k];
    }
    return PB_OK;
}

/* The header line is lines[*i]; rows follow until a line that is not a
 * row. *i is left on that line. */
static int do_table(struct ctx *c, size_t *i)
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

static int do_report(struct ctx *c, size_t *i, const char *title,
                     size_t tn)
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
    if (!rx_match(c->md, RX_REPORT_HDR, h->s, h->n)) {
        if (rx_match(c->md, RX_REPORT_ROW, h->s, h->n))
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
        int rc = parse_num(c, h->s + off[k], len[k], (long)*i + 1,
                           (long)off[k] + 1, &rec_kb[k]);
        if (rc)
            return rc;
    }
    (*i)++;
    size_t before = c->nrecs;
    int rows = 0;
    while (*i < c->nlines) {
        const struct line *l = &c->lines[*i];
        if (!rx_match(c->md, RX_REPORT_ROW, l->s, l->n))
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
        int rc = parse_num(c, l->s + roff[0], rlen[0], lineno,
                           (long)roff[0] + 1, &fkb);
        if (rc)
            return rc;
        for (int k = 1; k < nv; k++) {
            double v;
            rc = parse_num(c, l->s + roff[k], rlen[k], lineno,
                           (long)roff[k] + 1, &v);
            if (rc)
                return rc;
            if (v == 0 || !op)
                continue; /* placeholder for a skipped record size */
            struct rec *r = add_rec(c, K_REPORT, op);
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

/* ==== header lines and throughput ==== */

static double kb_group(struct ctx *c, int g, const char *s)
{
    const char *p;
    size_t n = rx_group(c->md, g, s, &p);
    char tmp[32];
    if (n == 0 || n >= sizeof(tmp))
        return NAN;
    memcpy(tmp, p, n);
    tmp[n] = '\0';
    return strtod(tmp, NULL) * 1024;
}

static int unit_of(const char *s, size_t n)
{
    char low[64];
    size_t k = n < sizeof(low) - 1 ? n : sizeof(low) - 1;
    for (size_t j = 0; j < k; j++)
        low[j] = (char)tolower((unsigned char)s[j]);
    low[k] = '\0';
    if (strstr(low, "microsecond"))
        return U_USEC;
    if (strstr(low, "operations") || !strncmp(low, "ops", 3))
        return U_OPS;
    if (!strncmp(low, "kb", 2) || !strncmp(low, "kbytes", 6))
        return U_KB;
    return U_RAW;
}

static int do_tput(struct ctx *c, const struct line *l, long lineno)
{
    const char *kind, *num, *phrase, *val, *unit;
    rx_group(c->md, 1, l->s, &kind);
    size_t nn = rx_group(c->md, 2, l->s, &num);
    size_t pn = rx_group(c->md, 3, l->s, &phrase);
    size_t vn = rx_group(c->md, 4, l->s, &val);
    size_t un = rx_group(c->md, 5, l->s, &unit);
    const char *op = NULL;
    for (size_t k = 0; k < sizeof(tput_ops) / sizeof(tput_ops[0]); k++)
        if (strlen(tput_ops[k].phrase) == pn &&
            !strncasecmp(tput_ops[k].phrase, phrase, pn))
            op = tput_ops[k].op;
    if (!op)
        return PB_OK; /* an operation this parser does not name */
    double clients, v;
    int rc = parse_num(c, num, nn, lineno, (long)(num - l->s) + 1, &clients);
    if (rc == PB_OK)
        rc = parse_num(c, val, vn, lineno, (long)(val - l->s) + 1, &v);
    if (rc)
        return rc;
    if (!(clients >= 1 && clients < 1e9))
        return pb_err_set(c->err, PB_EINPUT, c->path, lineno,
                          (long)(num - l->s) + 1,
                          "bad number of clients \"%.*s\"", (int)nn, num);
    struct run *run = cur(c);
    struct rec *r = add_rec(c, K_TPUT, op);
    r->parent = kind[0] == 'P';
    r->clients = (long)clients;
    r->fsize = !isnan(run->tfsize) ? run->tfsize : run->fsize;
    r->rsize = !isnan(run->trsize) ? run->trsize : run->rsize;
    r->value = v;
    r->unit = unit_of(unit, un);
    if (r->unit == U_RAW)
        r->unit_raw = pb_arena_printf(&c->set->arena, "%.*s/s", (int)un,
                                      unit);
    return PB_OK;
}

/* One line outside tables and reports. Advances *i. */
static int do_line(struct ctx *c, size_t *i)
{
    const struct line *l = &c->lines[*i];
    long lineno = (long)*i + 1;
    const char *p;
    size_t n;
    struct run *r = cur(c);

    if (rx_match(c->md, RX_BANNER, l->s, l->n)) {
        if (run_used(r))
            new_run(c, lineno);
        if (!c->banner_line)
            c->banner_line = lineno;
    } else if (rx_match(c->md, RX_VERSION, l->s, l->n)) {
        if (r->version)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->version = dupn(c, p, n);
    } else if (rx_match(c->md, RX_BEGAN, l->s, l->n)) {
        if (r->began || r->command)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->began = dupn(c, p, n);
    } else if (rx_match(c->md, RX_COMMAND, l->s, l->n)) {
        if (r->command)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->command = dupn(c, p, n);
    } else if (rx_match(c->md, RX_FSIZE, l->s, l->n)) {
        r->fsize = kb_group(c, 1, l->s);
    } else if (rx_match(c->md, RX_RSIZE, l->s, l->n)) {
        r->rsize = kb_group(c, 1, l->s);
    } else if (rx_match(c->md, RX_EACH, l->s, l->n)) {
        r->tfsize = kb_group(c, 1, l->s);
        r->trsize = kb_group(c, 2, l->s);
    } else if (rx_match(c->md, RX_OUTPUT, l->s, l->n)) {
        n = rx_group(c->md, 1, l->s, &p);
        r->unit = unit_of(p, n);
        if (r->unit == U_RAW)
            r->unit_raw = dupn(c, p, n);
    } else if (rx_match(c->md, RX_DIRECT, l->s, l->n)) {
        r->direct = 1;
    } else if (rx_match(c->md, RX_SYNC, l->s, l->n)) {
        r->sync = 1;
    } else if (rx_match(c->md, RX_FSYNC, l->s, l->n)) {
        r->fsync = 1;
    } else if (rx_match(c->md, RX_MACHINE, l->s, l->n)) {
        n = rx_group(c->md, 2, l->s, &p);
        r->host = dupn(c, p, n);
        rx_group(c->md, 1, l->s, &p);
        size_t m = l->n - (size_t)(p - l->s);
        while (m > 0 && isspace((unsigned char)p[m - 1]))
            m--;
        r->uname = dupn(c, p, m);
    } else if (rx_match(c->md, RX_TPUT, l->s, l->n)) {
        int rc = do_tput(c, l, lineno);
        if (rc)
            return rc;
    } else if (rx_match(c->md, RX_AUTO_HDR, l->s, l->n)) {
        return do_table(c, i);
    } else if (rx_match(c->md, RX_REPORT_TITLE, l->s, l->n)) {
        n = rx_group(c->md, 1, l->s, &p);
        return do_report(c, i, p, n);
    }
    (*i)++;
    return PB_OK;
}

/* ==== emit ==== */

static size_t emitted(const struct run *r)
{
    return r->nauto + r->ntput + (r->nauto ? 0 : r->nreport);
}

static void add_size_params(struct pb_resultset *set, size_t t,
                            const struct rec *rc)
{
    char num[64];
    if (!isnan(rc->fsize))
        pb_rs_test_param(set, t, "file_size",
                         pb_fmt_num(rc->fsize, num, sizeof(num)));
    if (!isnan(rc->rsize))
        pb_rs_test_param(set, t, "record_size",
                         pb_fmt_num(rc->rsize, num, sizeof(num)));
}

static size_t make_test(struct ctx *c, const struct run *run,
                        const struct rec *rc)
{
    struct pb_buf name = PB_BUF_INIT;
    char a[32], b[32];
    pb_buf_puts(&name, "iozone");
    if (rc->kind == K_TPUT)
        pb_buf_printf(&name, " throughput clients=%ld", rc->clients);
    if (!isnan(rc->fsize))
        pb_buf_printf(&name, " file_size=%s",
                      pb_fmt_size(rc->fsize, a, sizeof(a)));
    if (!isnan(rc->rsize))
        pb_buf_printf(&name, " record_size=%s",
                      pb_fmt_size(rc->rsize, b, sizeof(b)));
    if (run->direct)
        pb_buf_puts(&name, " direct=1");
    if (run->sync)
        pb_buf_puts(&name, " sync=1");
    if (run->fsync)
        pb_buf_puts(&name, " fsync=1");
    size_t t = pb_rs_test(c->set, pb_buf_str(&name), "iozone");
    pb_buf_release(&name);
    if (rc->kind == K_TPUT) {
        char num[32];
        snprintf(num, sizeof(num), "%ld", rc->clients);
        pb_rs_test_param(c->set, t, "clients", num);
    }
    add_size_params(c->set, t, rc);
    if (run->direct)
        pb_rs_test_param(c->set, t, "direct", "1");
    if (run->sync)
        pb_rs_test_param(c->set, t, "sync", "1");
    if (run->fsync)
        pb_rs_test_param(c->set, t, "fsync", "1");
    return t;
}

static void run_fact(struct ctx *c, const struct run *run, const char *job,
                     const char *key, const char *value)
{
    if (!value)
        return;
    if (job) {
        char *k = pb_xasprintf("%s.%s", job, key);
        pb_rs_fact(c->set, run->host, k, value);
        free(k);
    } else {
        pb_rs_fact(c->set, run->host, key, value);
    }
}

static void emit_rec(struct ctx *c, const struct run *run, size_t config,
                     const char *job, const struct rec *rc)
{
    size_t t = make_test(c, run, rc);
    int unit = rc->kind == K_TPUT ? rc->unit : run->unit;
    const char *raw = rc->kind == K_TPUT ? rc->unit_raw : run->unit_raw;
    const char *suffix = "_bw", *u = "B/s";
    int dir = PB_DIR_HIGHER;
    double v = rc->value;
    switch (unit) {
    case U_KB:
        v *= 1024;
        break;
    case U_OPS:
        suffix = "_iops";
        u = "ops/s";
        break;
    case U_USEC:
        suffix = "_latency";
        u = "ns";
        v *= 1000;
        dir = PB_DIR_LOWER;
        break;
    default:
        u = raw ? raw : "?";
        break;
    }
    char metric[64];
    snprintf(metric, sizeof(metric), "%s%s%s", rc->parent ? "parent_" : "",
             rc->op, suffix);
    pb_rs_add(c->set, config, t, run->host, job, metric, u, dir, v);
}

static void emit_all(struct ctx *c)
{
    size_t nres = 0;
    for (size_t r = 0; r < c->nruns; r++)
        if (emitted(&c->runs[r]))
            nres++;
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run *run = &c->runs[r];
        if (run->version && !c->set->tool_version) {
            char *v = pb_xasprintf("iozone-%s", run->version);
            c->set->tool_version = pb_rs_str(c->set, v);
            free(v);
            pb_rs_fact(c->set, NULL, "iozone_version", run->version);
        }
    }
    if (!c->set->tool_version) /* a pasted table without the banner */
        pb_rs_fact(c->set, NULL, "flag.no_version", "no version found");
    size_t k = 0;
    for (size_t r = 0; r < c->nruns; r++) {
        const struct run *run = &c->runs[r];
        if (!emitted(run))
            continue;
        k++;
        char jobbuf[32];
        const char *job = NULL;
        if (nres > 1) {
            snprintf(jobbuf, sizeof(jobbuf), "run%zu", k);
            job = jobbuf;
        }
        size_t config = pb_rs_config(c->set, run->host ? run->host
                                                       : "iozone");
        run_fact(c, run, job, "iozone_command", run->command);
        run_fact(c, run, job, "run_began", run->began);
        run_fact(c, run, job, "uname", run->uname);
        for (size_t i = 0; i < c->nrecs; i++) {
            const struct rec *rc = &c->recs[i];
            if (rc->run != r || (rc->kind == K_REPORT && run->nauto))
                continue;
            emit_rec(c, run, config, job, rc);
        }
    }
}

/* ==== parse ==== */

static void split_lines(struct ctx *c, const char *buf, size_t len)
{
    size_t cap = 0;
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - buf) : len;
        size_t n = end - i;
        if (n > 0 && buf[end - 1] == '\r')
            n--;
        PB_GROW(c->lines, cap, c->nlines + 1);
        c->lines[c->nlines].s = buf + i;
        c->lines[c->nlines].n = n;
        c->nlines++;
        i = end + 1;
    }
}

static int no_results(struct ctx *c)
{
    if (c->empty_hdr_line)
        return pb_err_set(c->err, PB_EINPUT, c->path, c->empty_hdr_line, 0,
                          "%s without result rows (truncated output?)",
                          c->empty_what);
    return pb_err_set(c->err, PB_EINPUT, c->path,
                      c->banner_line ? c->banner_line : 1, 0,
                      "no iozone results: no auto-mode table, \"report\" "
                      "table or \"Children see throughput\" line");
}

static int iozone_parse(const char *path, const char *buf, size_t len,
                        struct pb_resultset *set, struct pb_err *err)
{
    pthread_once(&rx_once, rx_init);
    if (!rx_ready)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "internal error: iozone patterns do not compile");
    const char *q = pb_skip_ws(buf, buf + len);
    if (q == buf + len)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          len ? "file holds only white space" : "empty file");

    struct ctx c = {0};
    c.path = path;
    c.set = set;
    c.err = err;
    c.md = pcre2_match_data_create(16, NULL);
    if (!c.md)
        abort();
    split_lines(&c, buf, len);
    new_run(&c, 1);

    int rc = PB_OK;
    for (size_t i = 0; i < c.nlines && rc == PB_OK;)
        rc = do_line(&c, &i);
    if (rc == PB_OK) {
        size_t n = 0;
        for (size_t r = 0; r < c.nruns; r++)
            n += emitted(&c.runs[r]);
        if (n == 0)
            rc = no_results(&c);
        else
            emit_all(&c);
    }
    pcre2_match_data_free(c.md);
    free(c.lines);
    free(c.runs);
    free(c.recs);
    return rc;
}

/* ==== sniff ==== */

/* A line "   kB  reclen ..." (or KB) in buf. */
static int has_auto_header(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - buf) : len;
        const char *p = pb_skip_ws(buf + i, buf + end);
        size_t n = (size_t)(buf + end - p);
        if (n > 3 && (p[0] == 'k' || p[0] == 'K') && p[1] == 'B' &&
            isspace((unsigned char)p[2])) {
            const char *r = pb_skip_ws(p + 2, buf + end);
            if ((size_t)(buf + end - r) >= 6 && !memcmp(r, "reclen", 6))
                return 1;
        }
        i = end + 1;
    }
    return 0;
}

static int iozone_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    if (pb_contains(buf, len, "\"fio version\"") ||
        pb_contains(buf, len, "<PhoronixTestSuite"))
        return 0;
    if (pb_contains(buf, len, "Iozone: Performance Test of File I/O"))
        return 95;
    if (pb_contains(buf, len, "Children see throughput for"))
        return 90;
    if (has_auto_header(buf, len))
        return 85;
    if (pb_contains(buf, len, "\"Writer report\"") ||
        pb_contains(buf, len, "\"Reader report\"") ||
        pb_contains(buf, len, "\"Random read report\""))
        return 80;
    return 0;
}

const struct pb_parser pb_parser_iozone = {"iozone", iozone_sniff,
                                           iozone_parse};
