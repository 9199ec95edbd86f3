/* fio terse output (--minimal, --output-format=terse), terse versions 2 to
 * 5, read by field position as fio's HOWTO documents it, into the model of
 * ingest/fio_json.c (same metric names and units; ingest/fio_common.c).
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
 *   - Terse has no job options: tests are named as ingest/fio_common.c
 *     names jobs without options, "fio <rw done> job=<name>" (rw from the
 *     directions that did I/O: read, write, rw, trim, trimwrite; iops > 0
 *     counts as I/O), plus rwmixread for rw: the read share of the IOPS,
 *     rounded to the nearest 5 (50 when both are 0). Job names
 *     are not parsed for parameters. Config label = job name; an empty
 *     name becomes "job<k>" (k = 1-based line record).
 *   - bw is recomputed as floor(KiB * 1024 * 1000 / runtime_ms) (fio's JSON
 *     bw_bytes) when that agrees with the printed KiB/s, else KiB/s * 1024.
 *   - slat/clat/lat printed as all zeros were not measured: no row.
 *   - Consecutive lines with the same name and group id and the same disk
 *     utilisation tail are numjobs clones: "<name>#<i>" plus an aggregate
 *     "<name>" as in fio_common.c (terse has no I/O counts: means weighted
 *     by bytes; CPU by each job's longest direction runtime, a plain mean
 *     when one is unknown). A group id going down,
 *     another fio version, or a same-named line with other disk stats
 *     starts another run; a name found in several runs gets job
 *     "<name> run <k>".
 */
#include "ingest/fio_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

#define TAIL_FIELDS 34 /* cpu 5, depths 7, usec 10, msec 12 */

struct rec {
    struct pb_fio_job job; /* name, run, stats, test */
    const char *version;   /* "fio-3.33"; NULL in v2 */
    const char *tail;      /* disk utilisation etc., "" when none */
    long line;
    long groupid;
    long err;
};

struct field {
    const char *s;
    size_t n;
};

struct ctx {
    const char *path;
    const char *buf;
    struct pb_resultset *set;
    struct pb_err *err;
    struct rec *r;
    size_t nr, capr;
    long errline;
    char errmsg[160];
};

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
static int fnum(const struct field *f, int pct, double *out)
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
    return fnum(&a, 1, p) == 0 && fnum(&b, 0, v) == 0 ? 0 : -1;
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
        if (!bad && fnum(&f[k], 0, &(dst)) != 0) {                             \
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

static int is_pct_field(const struct field *f)
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

static int parse_line(struct ctx *c, const char *line, size_t len, long lineno,
                      long recno)
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
    const struct field *fn = &f[ver == 2 ? 1 : 2];
    r.job.name = pb_arena_strndup(&c->set->arena, fn->s, fn->n);
    if (!*r.job.name)
        r.job.name = pb_arena_printf(&c->set->arena, "job%ld", recno);
    if (ver > 2)
        r.version = pb_arena_strndup(&c->set->arena, f[1].s, f[1].n);
    if (fnum(&f[base - 2], 0, &v) != 0 || v < 0 || v > INT_MAX) {
        rc = bad_field(c, line, lineno, &f[base - 2], base - 2, "a group id");
        goto out;
    }
    r.groupid = (long)v;
    if (fnum(&f[base - 1], 0, &v) != 0 || v < 0 || v > INT_MAX) {
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
    while (nsec < D_N && pos < nf && !is_pct_field(&f[pos])) {
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
    if (fnum(&f[pos], 1, &st->usr_cpu) != 0) {
        rc = bad_field(c, line, lineno, &f[pos], pos, "a CPU percentage");
        goto out;
    }
    if (!is_pct_field(&f[pos + 1]) || fnum(&f[pos + 1], 1, &st->sys_cpu)) {
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

/* ==== tests and results (fio_common.c) ==== */

/* Terse has no job options: the test is named by what the job did. */
static void build_test(struct ctx *c, struct rec *e)
{
    const struct pb_fio_stats *s = &e->job.st;
    double a = s->d[D_READ].iops, b = s->d[D_WRITE].iops;
    double share = a + b > 0 ? floor(a * 100 / (a + b) / 5 + 0.5) * 5 : 50;
    char mix[32];
    snprintf(mix, sizeof(mix), "%.0f", share);
    struct pb_fio_opts o = {0};
    o.rwmix_done = mix; /* used for rw only */
    pb_fio_build_test(c->set, &o, &e->job);
}

static int is_clone(const void *ctx, size_t ia, size_t ib)
{
    const struct ctx *c = ctx;
    const struct rec *a = &c->r[ia], *b = &c->r[ib];
    return a->job.run == b->job.run && a->groupid == b->groupid &&
           !strcmp(a->job.name, b->job.name) && !strcmp(a->tail, b->tail);
}

/* Runs: a group id going down, another fio version, or a same-named
 * line in the same group with other disk stats starts a new one. */
static void assign_runs(struct ctx *c)
{
    size_t run = 0;
    for (size_t i = 0; i < c->nr; i++) {
        struct rec *r = &c->r[i];
        if (i > 0) {
            const struct rec *p = &c->r[i - 1];
            if (r->groupid < p->groupid ||
                !pb_fio_same_str(r->version, p->version) ||
                (r->groupid == p->groupid &&
                 !strcmp(r->job.name, p->job.name) &&
                 strcmp(r->tail, p->tail) != 0))
                run++;
        }
        r->job.run = run;
    }
}

static void emit_all(struct ctx *c)
{
    for (size_t i = 0; i < c->nr; i++)
        if (c->r[i].job.usable)
            build_test(c, &c->r[i]);
    pb_fio_emit_all(c->set, &c->r[0].job, sizeof(c->r[0]), c->nr, is_clone, c);
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

static void quote_line(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[k++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    out[k] = '\0';
}

static int no_results(struct ctx *c)
{
    /* fio's own message, "fio: pid=1, err=25/file:..., error=Text" */
    const char *why = c->errline ? strstr(c->errmsg, "error=") : NULL;
    for (size_t i = 0; i < c->nr; i++) {
        const struct rec *r = &c->r[i];
        if (r->err != 0 && !pb_fio_moved_data(&r->job.st))
            return pb_fio_job_failed(c->err, c->path, r->line, r->job.name,
                                     r->err, why ? why + 6 : NULL);
    }
    return pb_fio_no_results(c->err, c->path, c->errline, c->errmsg,
                             "no fio terse lines found (lines such as "
                             "\"3;fio-3.33;job;0;0;...\")");
}

static int terse_parse(const char *path, const char *buf, size_t len,
                       struct pb_resultset *set, struct pb_err *err)
{
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    struct ctx c = {.path = path, .buf = buf, .set = set, .err = err};
    long lineno = 0, recno = 0;
    const char *p = buf, *end = buf + len;
    while (p < end && rc == PB_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *s = p;
        lineno++;
        p = nl ? nl + 1 : end;
        while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            e--;
        size_t n = (size_t)(e - s);
        if (terse_start(s, n)) {
            while (*s == ' ' || *s == '\t') {
                s++;
                n--;
            }
            rc = parse_line(&c, s, n, lineno, ++recno);
        } else if (!c.errline && n > 5 &&
                   (!strncmp(s, "fio: ", 5) ||
                    (n >= 7 && !strncmp(s, "error: ", 7)))) {
            c.errline = lineno;
            quote_line(s, n, c.errmsg, sizeof(c.errmsg));
        }
    }
    if (rc == PB_OK) {
        size_t usable = 0;
        for (size_t i = 0; i < c.nr; i++) {
            struct rec *r = &c.r[i];
            const struct pb_fio_stats *st = &r->job.st;
            int anything = !isnan(st->usr_cpu) || pb_fio_any_dir(st);
            r->job.usable =
                !(r->err != 0 && !pb_fio_moved_data(st)) && anything;
            usable += r->job.usable != 0;
        }
        if (usable == 0) {
            rc = no_results(&c);
        } else {
            for (size_t i = 0; i < c.nr; i++)
                if (c.r[i].version) {
                    pb_fio_set_version(set, c.r[i].version);
                    break;
                }
            assign_runs(&c);
            pb_fio_name_runs(set, &c.r[0].job, sizeof(c.r[0]), c.nr);
            emit_all(&c);
        }
    }
    free(c.r);
    return rc;
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
    if (score && pb_contains(buf, len, "(groupid="))
        score = 50; /* normal output next to terse: fio-text reads more */
    if (score && pb_contains(buf, len, "\"fio version\""))
        score = 30; /* json,terse: fio-json */
    return score;
}

const struct pb_parser pb_parser_fio_terse = {"fio-terse", terse_sniff,
                                              terse_parse};
