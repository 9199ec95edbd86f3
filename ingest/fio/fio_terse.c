/* fio terse output (--minimal, --output-format=terse), terse versions 2 to
 * 5, read by field position as fio's HOWTO documents it, into the model of
 * ingest/fio/fio_json.c (same metric names and units; ingest/fio/fio_common.c).
 * This file reads one line; the header and group lines of terse,normal
 * output and the tests named from them are in fio_terse_tests.c; the
 * parse of a file, whole or streamed (two passes over the buffer, the
 * results stored in parts when streamed), is fio_terse_pass.c.
 *
 * Layout per line: v2 "2;name;groupid;error", v3+ "N;fio-x.y;name;groupid;
 * error"; then one section per data direction: read, write, trim (no trim
 * in v3, nor in fio 1.x's v2); with unified_rw_reporting only one section
 * (mixed), with unified_rw_reporting=both a fourth (mixed). A section is
 * io KiB, bw KiB/s, iops, runtime ms, slat/clat min,max,mean,stdev (usec),
 * 20 clat percentiles "P%=usec", lat min,max,mean,stdev, bw min,max,agg%,
 * mean,stdev, and in v5 bw samples plus iops min,max,mean,stdev,samples
 * (41 fields, 47 in v5; fio 1.x's v2 has 20: no iops, no percentiles).
 * Then CPU usr%,sys%,ctx,majf,minf, 7 I/O depths, 10 usec and 12 msec
 * latency buckets, and optionally disk utilisation, error counts and the
 * job description (v2 prints the description on its own line).
 *
 * Decisions (see fixtures/fio-terse/README.md):
 *   - Terse has no job options. With --output-format=terse,normal the
 *     job header lines (`NAME: (g=0): rw=randread, bs=(R) 4096B-4096B,
 *     ..., ioengine=psync, iodepth=1`) and group lines (`NAME: (groupid=
 *     0, jobs=2)`) are in the file: tests are named from them exactly as
 *     ingest/fio/fio_text.c names them, so one file gives the same tests
 *     through either parser. Without them (--minimal) tests are named as
 *     ingest/fio/fio_common.c names jobs without options, "fio <rw done>
 *     job=<name>" (rw from the directions that did I/O: read, write, rw,
 *     trim, trimwrite; iops > 0 counts as I/O); rwmixread is never
 *     derived from the measured split. Job names are not parsed for
 *     parameters. Config label = job name; an empty name becomes "job<k>"
 *     (k = 1-based line record).
 *   - fio's progress text glued to the first record (terminal redraws
 *     with CR, or "[eta 00m:00s]3;fio-3.33;..." once the CRs were lost)
 *     is stripped; a line that holds 20+ fields but no readable record is
 *     an error, never skipped.
 *   - Facts: flag.interrupted ("fio: terminating on signal N"),
 *     flag.no_version (v2 has no version field), flag.implausible.
 *   - bw is recomputed as floor(KiB * 1024 * 1000 / runtime_ms) (fio's JSON
 *     bw_bytes) when that agrees with the printed KiB/s, else KiB/s * 1024.
 *   - slat/clat/lat printed as all zeros were not measured: no row.
 *   - Consecutive lines with the same name and group id and the same disk
 *     utilisation tail are numjobs clones: "<name>#<i>" plus an aggregate
 *     "<name>" as in fio_common.c (terse has no I/O counts: means weighted
 *     by bytes; CPU by each job's longest direction runtime, a plain mean
 *     when one is unknown). A group id going down,
 *     another fio version, or a same-named line with other disk stats
 *     starts another run; a job found in several runs (or in several
 *     groups of one run) is repeated: one result of its measurements
 *     (fio_repeats.c). Records of one name, group and
 *     run with no disk statistics and no normal output may be clones or
 *     repeats: stored record by record, flag.ambiguous_jobs.
 */
#include "ingest/fio/fio_terse_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)
/* ==== fields ==== */

/* 1-based column of field k in line. */
static long col_of(const char *line, const struct field *f)
{
    return (long)(f->s - line) + 1;
}

/* Printable, bounded copy of a field for messages. */
static void show(const struct field *f, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n && k + 4 < cap; i++) {
        unsigned char ch = (unsigned char)f->s[i];
        out[k++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    if (k + 4 >= cap && f->n > k) {
        out[k++] = '.';
        out[k++] = '.';
        out[k++] = '.';
    }
    out[k] = '\0';
}

/* Number in field f (optionally with a trailing '%'); -1 when it is not
 * one. */
int pb_terse_fnum(const struct field *f, int pct, double *out)
{
    char b[64];
    size_t n = f->n;
    if (pct && n > 0 && f->s[n - 1] == '%')
        n--;
    if (n == 0 || n >= sizeof(b) || memchr(f->s, '\0', n))
        return -1;
    memcpy(b, f->s, n);
    b[n] = '\0';
    if (!isdigit((unsigned char)b[0]) &&
        !(b[0] == '-' && isdigit((unsigned char)b[1])))
        return -1;
    char *end;
    double v = strtod(b, &end);
    if (*end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* Field f (a number) times 10^shift, exactly as written. */
static double fscaled(const struct field *f, int shift)
{
    char b[64];
    size_t n = f->n < sizeof(b) - 1 ? f->n : sizeof(b) - 1;
    memcpy(b, f->s, n);
    b[n] = '\0';
    return pb_fio_dec_shift(b, shift);
}

/* A percentile field "99.000000%=1234" (or unused "0%=0"). */
static int fpct(const struct field *f, double *p, double *v)
{
    const char *eq = memchr(f->s, '=', f->n);
    if (!eq || eq == f->s || eq[-1] != '%')
        return -1;
    struct field a = {f->s, (size_t)(eq - f->s)};
    struct field b = {eq + 1, f->n - (size_t)(eq + 1 - f->s)};
    return pb_terse_fnum(&a, 1, p) == 0 && pb_terse_fnum(&b, 0, v) == 0 ? 0
                                                                        : -1;
}

static int bad_field(struct ctx *c, const char *line, long lineno,
                     const struct field *f, size_t k, const char *what)
{
    char s[48];
    show(f, s, sizeof(s));
    return pb_err_set(c->err, PB_EINPUT, c->path, lineno, col_of(line, f),
                      "field %zu (\"%s\") is not %s", k + 1, s, what);
}

/* ==== one line ==== */

/* Mean of a min,max,mean,stdev group in ns; NAN when all zero (fio did
 * not measure it). */
static double lat4(const struct field *f, size_t k, const double *v,
                   int want_max)
{
    if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0)
        return NAN;
    return fscaled(&f[k + (want_max ? 1 : 2)], 3);
}

static int read_section(struct ctx *c, const char *line, long lineno,
                        const struct field *f, size_t pos, int old,
                        struct pb_fio_dstat *d)
{
    /* numeric fields of the section, by layout */
    double io, bw, iops = NAN, rt, slat[4], clat[4], lat[4];
    size_t k = pos;
    const struct field *bad = NULL;
    size_t badk = 0;
#define NUMF(dst)                                                              \
    do {                                                                       \
        if (!bad && pb_terse_fnum(&f[k], 0, &(dst)) != 0) {                    \
            bad = &f[k];                                                       \
            badk = k;                                                          \
        }                                                                      \
        k++;                                                                   \
    } while (0)
    NUMF(io);
    NUMF(bw);
    if (!old)
        NUMF(iops);
    NUMF(rt);
    size_t kslat = k;
    for (int i = 0; i < 4; i++)
        NUMF(slat[i]);
    size_t kclat = k;
    for (int i = 0; i < 4; i++)
        NUMF(clat[i]);
    if (bad)
        return bad_field(c, line, lineno, bad, badk, "a number");
    pb_fio_dstat_init(d);
    if (!old) {
        for (int i = 0; i < 20; i++, k++) {
            double p, v;
            if (fpct(&f[k], &p, &v) != 0)
                return bad_field(c, line, lineno, &f[k], k,
                                 "a percentile \"P%=usec\"");
            if (p > 0)
                pb_fio_set_pct(d, p, v * 1000);
        }
    }
    size_t klat = k;
    for (int i = 0; i < 4; i++)
        NUMF(lat[i]);
    if (bad)
        return bad_field(c, line, lineno, bad, badk, "a number");
#undef NUMF
    d->present = 1;
    d->bytes = io * 1024;
    d->bw = bw * 1024;
    d->iops = iops;
    d->runtime = rt * 1e6;
    if (rt > 0) {
        double exact = floor(d->bytes * 1000 / rt);
        if (floor(exact / 1024) == bw)
            d->bw = exact;
    }
    d->slat_mean = lat4(f, kslat, slat, 0);
    d->clat_mean = lat4(f, kclat, clat, 0);
    d->clat_max = lat4(f, kclat, clat, 1);
    d->lat_mean = lat4(f, klat, lat, 0);
    int io_done = d->bytes > 0 || d->iops > 0;
    if (!io_done) {
        for (size_t j = 0; j < FIO_NPCT; j++)
            d->pct[j] = NAN;
        d->runtime = NAN;
    }
    return PB_OK;
}

int pb_terse_is_pct(const struct field *f)
{
    return f->n > 0 && f->s[f->n - 1] == '%' && !memchr(f->s, '=', f->n);
}

/* Fields of a record with read, write (and trim) sections, before the
 * optional disk utilisation. */
static size_t full_fields(int ver)
{
    return ver == 2   ? 4 + 3 * 41 + TAIL_FIELDS
           : ver == 3 ? 5 + 2 * 41 + TAIL_FIELDS
           : ver == 4 ? 5 + 3 * 41 + TAIL_FIELDS
                      : 5 + 3 * 47 + TAIL_FIELDS;
}

static int truncated(struct ctx *c, long lineno, size_t nf, int ver)
{
    size_t need = full_fields(ver);
    return pb_err_set(c->err, PB_EINPUT, c->path, lineno, 0,
                      "terse line ends after %zu fields; terse version %d "
                      "needs at least %zu (truncated?)",
                      nf, ver, need);
}

int pb_terse_parse_line(struct ctx *c, const char *line, size_t len,
                        long lineno, long recno)
{
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += line[i] == ';';
    struct field *f = pb_xmalloc(cap * sizeof(*f));
    size_t nf = 0;
    const char *p = line, *end = line + len;
    for (;;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *e = semi ? semi : end;
        f[nf].s = p;
        f[nf].n = (size_t)(e - p);
        nf++;
        if (!semi)
            break;
        p = semi + 1;
    }
    int rc = PB_OK;
    double v;
    int ver = (int)strtol(line, NULL, 10);
    size_t base = ver == 2 ? 4 : 5;
    if (ver < 2 || ver > 5) {
        rc =
            pb_err_set(c->err, PB_EINPUT, c->path, lineno, 1,
                       "unsupported terse version %d (fio writes 2 to 5)", ver);
        goto out;
    }
    if (nf < base + 13) {
        rc = truncated(c, lineno, nf, ver);
        goto out;
    }
    struct rec r;
    memset(&r, 0, sizeof(r));
    r.line = lineno;
    r.tail = "";
    r.text = line;
    r.len = len;
    r.recno = recno;
    const struct field *fn = &f[ver == 2 ? 1 : 2];
    r.job.name = pb_arena_strndup(&c->set->arena, fn->s, fn->n);
    if (!*r.job.name)
        r.job.name = pb_arena_printf(&c->set->arena, "job%ld", recno);
    if (ver > 2)
        r.version = pb_arena_strndup(&c->set->arena, f[1].s, f[1].n);
    if (pb_terse_fnum(&f[base - 2], 0, &v) != 0 || v < 0 || v > INT_MAX) {
        rc = bad_field(c, line, lineno, &f[base - 2], base - 2, "a group id");
        goto out;
    }
    r.groupid = (long)v;
    if (pb_terse_fnum(&f[base - 1], 0, &v) != 0 || v < 0 || v > INT_MAX) {
        rc = bad_field(c, line, lineno, &f[base - 1], base - 1,
                       "an error number");
        goto out;
    }
    r.err = (long)v;

    /* fio 1.x's v2 has no iops and no percentiles */
    int old = ver == 2 && !memchr(f[base + 12].s, '=', f[base + 12].n);
    size_t secsize = old ? 20 : ver == 5 ? 47 : 41;
    size_t expect = (ver == 3 || old) ? 2 : 3;
    struct pb_fio_dstat sec[D_N];
    size_t nsec = 0, pos = base;
    while (nsec < D_N && pos < nf && !pb_terse_is_pct(&f[pos])) {
        if (pos + secsize > nf) {
            rc = truncated(c, lineno, nf, ver);
            goto out;
        }
        rc = read_section(c, line, lineno, f, pos, old, &sec[nsec]);
        if (rc != PB_OK)
            goto out;
        pos += secsize;
        nsec++;
    }
    if (pos + TAIL_FIELDS > nf) {
        rc = truncated(c, lineno, nf, ver);
        goto out;
    }
    struct pb_fio_stats *st = &r.job.st;
    pb_fio_stats_init(st, 1);
    if (nsec == 1 && expect > 1) {
        st->d[D_MIXED] = sec[0];
    } else if (nsec == expect || nsec == expect + 1) {
        for (size_t i = 0; i < expect; i++)
            st->d[i] = sec[i];
        if (nsec > expect)
            st->d[D_MIXED] = sec[expect];
    } else {
        rc = pb_err_set(c->err, PB_EINPUT, c->path, lineno,
                        col_of(line, &f[pos]),
                        "%zu direction sections; terse version %d has %zu "
                        "(or one with unified_rw_reporting)",
                        nsec, ver, expect);
        goto out;
    }
    if (pb_terse_fnum(&f[pos], 1, &st->usr_cpu) != 0) {
        rc = bad_field(c, line, lineno, &f[pos], pos, "a CPU percentage");
        goto out;
    }
    if (!pb_terse_is_pct(&f[pos + 1]) ||
        pb_terse_fnum(&f[pos + 1], 1, &st->sys_cpu)) {
        rc = bad_field(c, line, lineno, &f[pos + 1], pos + 1,
                       "a CPU percentage");
        goto out;
    }
    st->job_runtime = pb_fio_longest_runtime(st); /* CPU weight */
    pos += TAIL_FIELDS;
    if (pos < nf)
        r.tail = pb_arena_strndup(&c->set->arena, f[pos].s,
                                  (size_t)(end - f[pos].s));
    PB_GROW(c->r, c->capr, c->nr + 1);
    c->r[c->nr++] = r;
out:
    free(f);
    return rc;
}

int pb_terse_is_clone(const void *ctx, size_t ia, size_t ib)
{
    const struct ctx *c = ctx;
    const struct rec *a = &c->r[ia], *b = &c->r[ib];
    return a->job.run == b->job.run && a->groupid == b->groupid &&
           !strcmp(a->job.name, b->job.name) && !strcmp(a->tail, b->tail);
}

void pb_terse_build(void *ctx, size_t i, size_t n)
{
    struct ctx *c = ctx;
    int amb = n > 1 && pb_terse_is_ambiguous(c, i, n);
    if (amb)
        pb_fio_flag_ambiguous(c->f, c->r[i].line, n, "records",
                              c->r[i].job.name,
                              "disk statistics or normal output", "record");
    for (size_t x = 0; x < n; x++)
        if (c->r[i + x].job.usable)
            pb_terse_build_test(c, &c->r[i + x], amb ? 1 : n);
}

void pb_terse_tests(struct ctx *c, size_t k)
{
    for (size_t i = 0; i < k;) {
        size_t n = pb_fio_count_clones(&c->r[0].job, sizeof(c->r[0]), k, i,
                                       pb_terse_is_clone, c);
        pb_terse_build(c, i, n);
        i += n;
    }
}

/* ==== parse ==== */

/* Version number of a line that starts like a terse record ("3;"), or 0. */
static int terse_start(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t d = i;
    while (i < n && i - d < 3 && isdigit((unsigned char)s[i]))
        i++;
    if (i == d || i >= n || s[i] != ';')
        return 0;
    return (int)strtol(s + d, NULL, 10);
}

/* Semicolons in s[0..n). */
static size_t semis(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == ';';
    return k;
}

/* Offset of a terse record in a line, or (size_t)-1: at its start, or
 * after fio's progress text that a terminal redraw (CR) or a lost line
 * break glued to it ("Jobs: 1 (f=1): [r(1)][...][eta 00m:00s]3;fio-3.33;
 * ..."): right after a CR or a ']', v3+ with its "fio-" field, v2 with
 * the fields of a whole record. */
static size_t record_at(const char *s, size_t n)
{
    if (terse_start(s, n))
        return 0;
    size_t after = semis(s, n); /* semicolons from i on */
    for (size_t i = 1; i < n; i++) {
        after -= s[i - 1] == ';';
        if (s[i - 1] != '\r' && s[i - 1] != ']')
            continue;
        int ver = terse_start(s + i, n - i);
        if (ver < 2 || ver > 5)
            continue;
        const char *f1 = memchr(s + i, ';', n - i);
        if (ver >= 3 && (size_t)(s + n - f1) > 5 && !memcmp(f1 + 1, "fio-", 4))
            return i;
        if (ver == 2 && after >= 76)
            return i;
    }
    return (size_t)-1;
}

static void quote_line(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[k++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    out[k] = '\0';
}

int pb_terse_no_results(const struct ctx *c, long line, const char *name,
                        long code)
{
    /* fio's own message, "fio: pid=1, err=25/file:..., error=Text" */
    const char *why = c->errline ? strstr(c->errmsg, "error=") : NULL;
    if (line)
        return pb_fio_job_failed(c->err, c->path, line, name, code,
                                 why ? why + 6 : NULL);
    return pb_fio_no_results(c->err, c->path, c->errline, c->errmsg,
                             "no fio terse lines found (lines such as "
                             "\"3;fio-3.33;job;0;0;...\")");
}

/* Fact device: the disk of a record's utilisation field ("vda;0;0;...":
 * a name followed by a number). */
void pb_terse_disk_fact(struct pb_resultset *set, const struct rec *r)
{
    const char *t = r->tail;
    size_t n = strcspn(t, ";");
    if (n == 0 || n > 64 || t[n] != ';' || !isalpha((unsigned char)t[0]) ||
        !isdigit((unsigned char)t[n + 1]))
        return;
    char name[72];
    memcpy(name, t, n);
    name[n] = '\0';
    pb_fio_fact_add(set, NULL, "device", name);
}

int pb_terse_next_line(const char **p, const char *end, const char **s,
                       size_t *n)
{
    if (*p >= end)
        return 0;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *e = nl ? nl : end;
    const char *b = *p;
    *p = nl ? nl + 1 : end;
    while (e > b && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        e--;
    size_t k = (size_t)(e - b);
    size_t at = record_at(b, k);
    if (at == (size_t)-1) {
        *s = b;
        *n = k;
        return 2;
    }
    b += at;
    k -= at;
    while (*b == ' ' || *b == '\t') {
        b++;
        k--;
    }
    *s = b;
    *n = k;
    return 1;
}

int pb_terse_other_line(struct ctx *c, const char *s, size_t n, long lineno)
{
    if (semis(s, n) >= 20) {
        /* never drop what may be a record silently */
        char q[48];
        quote_line(s, n < 40 ? n : 40, q, sizeof(q));
        return pb_err_set(c->err, PB_EINPUT, c->path, lineno, 0,
                          "line with %zu fields is not a terse record "
                          "(starts \"%s\")",
                          semis(s, n) + 1, q);
    }
    if (n > 5 && !strncmp(s, "fio: ", 5) && pb_fio_is_interrupt(s, n)) {
        if (!c->intr_line) {
            c->intr_line = lineno;
            quote_line(s, n, c->intr, sizeof(c->intr));
        }
    } else if (pb_terse_header_line(c, s, n, lineno) ||
               pb_terse_group_line(c, s, n, lineno)) {
        /* names the tests */
    } else if (!c->errline && n > 5 &&
               (!strncmp(s, "fio: ", 5) ||
                (n >= 7 && !strncmp(s, "error: ", 7)))) {
        c->errline = lineno;
        quote_line(s, n, c->errmsg, sizeof(c->errmsg));
    }
    return PB_OK;
}

void pb_terse_set_usable(struct rec *r)
{
    const struct pb_fio_stats *st = &r->job.st;
    int anything = !isnan(st->usr_cpu) || pb_fio_any_dir(st);
    r->job.usable = !(r->err != 0 && !pb_fio_moved_data(st)) && anything;
}

void pb_terse_ctx_free(struct ctx *c)
{
    free(c->r);
    free(c->h);
    free(c->by_ngl);
    free(c->by_nl);
    free(c->groups);
    free(c->hdr_gid);
}

/* ==== sniff ==== */

static int terse_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    int score = 0;
    const char *p = buf, *end = buf + len;
    while (p < end && score < 95) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *s = p;
        p = nl ? nl + 1 : end;
        size_t n = (size_t)(e - s);
        size_t at = record_at(s, n);
        if (at == (size_t)-1)
            continue;
        s += at;
        n -= at;
        int ver = terse_start(s, n);
        if (ver < 2 || ver > 5)
            continue;
        size_t semis = 0;
        for (size_t i = 0; i < n; i++)
            semis += s[i] == ';';
        /* a full record has 77+ fields; the scan window (or a truncated
         * file) may cut it, which v3+'s "fio-" version field makes safe */
        const char *f1 = (const char *)memchr(s, ';', n) + 1;
        int fio = ver >= 3 && (size_t)(e - f1) > 4 && !memcmp(f1, "fio-", 4);
        if (semis < 20 || (!fio && nl && semis < 76))
            continue;
        if (fio)
            score = 95;
        else if (score < 85)
            score = 85;
    }
    if (score &&
        (pb_contains(buf, len, "(groupid=") || pb_contains(buf, len, "): rw=")))
        score = 50; /* normal output next to terse (its job header lines
                       or its results): fio-text reads more */
    if (score && pb_contains(buf, len, "\"fio version\""))
        score = 30; /* json,terse: fio-json */
    return score;
}

static int parse(struct pb_parse *x)
{
    return pb_terse_parse(x);
}

const struct pb_parser pb_parser_fio_terse = {
    .name = "fio-terse",
    .flags = PB_PARSER_STREAMS,
    .sniff = terse_sniff,
    .parse = parse,
    .stream_min = PB_STREAM_MIN_TERSE,
};
