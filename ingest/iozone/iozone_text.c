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
 * The auto-mode and report tables are read by ingest/iozone/iozone_table.c.
 */
#include "ingest/iozone/iozone_int.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SNIFF_SCAN ((size_t)8192)

/* ==== regexes (compiled once, shared read-only by all threads) ==== */

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

int pb_iozone_match(pcre2_match_data *md, int id, const char *s, size_t n)
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

struct rec *pb_iozone_add_rec(struct ctx *c, int kind, const char *op)
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
int pb_iozone_num(struct ctx *c, const char *s, size_t n, long line,
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
    int rc =
        pb_iozone_num(c, num, nn, lineno, (long)(num - l->s) + 1, &clients);
    if (rc == PB_OK)
        rc = pb_iozone_num(c, val, vn, lineno, (long)(val - l->s) + 1, &v);
    if (rc)
        return rc;
    if (!(clients >= 1 && clients < 1e9))
        return pb_err_set(c->err, PB_EINPUT, c->path, lineno,
                          (long)(num - l->s) + 1,
                          "bad number of clients \"%.*s\"", (int)nn, num);
    struct run *run = cur(c);
    struct rec *r = pb_iozone_add_rec(c, K_TPUT, op);
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

    if (pb_iozone_match(c->md, RX_BANNER, l->s, l->n)) {
        if (run_used(r))
            new_run(c, lineno);
        if (!c->banner_line)
            c->banner_line = lineno;
    } else if (pb_iozone_match(c->md, RX_VERSION, l->s, l->n)) {
        if (r->version)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->version = dupn(c, p, n);
    } else if (pb_iozone_match(c->md, RX_BEGAN, l->s, l->n)) {
        if (r->began || r->command)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->began = dupn(c, p, n);
    } else if (pb_iozone_match(c->md, RX_COMMAND, l->s, l->n)) {
        if (r->command)
            new_run(c, lineno);
        n = rx_group(c->md, 1, l->s, &p);
        cur(c)->command = dupn(c, p, n);
    } else if (pb_iozone_match(c->md, RX_FSIZE, l->s, l->n)) {
        r->fsize = kb_group(c, 1, l->s);
    } else if (pb_iozone_match(c->md, RX_RSIZE, l->s, l->n)) {
        r->rsize = kb_group(c, 1, l->s);
    } else if (pb_iozone_match(c->md, RX_EACH, l->s, l->n)) {
        r->tfsize = kb_group(c, 1, l->s);
        r->trsize = kb_group(c, 2, l->s);
    } else if (pb_iozone_match(c->md, RX_OUTPUT, l->s, l->n)) {
        n = rx_group(c->md, 1, l->s, &p);
        r->unit = unit_of(p, n);
        if (r->unit == U_RAW)
            r->unit_raw = dupn(c, p, n);
    } else if (pb_iozone_match(c->md, RX_DIRECT, l->s, l->n)) {
        r->direct = 1;
    } else if (pb_iozone_match(c->md, RX_SYNC, l->s, l->n)) {
        r->sync = 1;
    } else if (pb_iozone_match(c->md, RX_FSYNC, l->s, l->n)) {
        r->fsync = 1;
    } else if (pb_iozone_match(c->md, RX_MACHINE, l->s, l->n)) {
        n = rx_group(c->md, 2, l->s, &p);
        r->host = dupn(c, p, n);
        rx_group(c->md, 1, l->s, &p);
        size_t m = l->n - (size_t)(p - l->s);
        while (m > 0 && isspace((unsigned char)p[m - 1]))
            m--;
        r->uname = dupn(c, p, m);
    } else if (pb_iozone_match(c->md, RX_TPUT, l->s, l->n)) {
        int rc = do_tput(c, l, lineno);
        if (rc)
            return rc;
    } else if (pb_iozone_match(c->md, RX_AUTO_HDR, l->s, l->n)) {
        return pb_iozone_table(c, i);
    } else if (pb_iozone_match(c->md, RX_REPORT_TITLE, l->s, l->n)) {
        n = rx_group(c->md, 1, l->s, &p);
        return pb_iozone_report(c, i, p, n);
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

static int iozone_parse(struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
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

const struct pb_parser pb_parser_iozone = {
    .name = "iozone",
    .sniff = iozone_sniff,
    .parse = iozone_parse,
};
