/* fio terse output (--minimal, --output-format=terse), terse versions 2 to
 * 5, read by field position as fio's HOWTO documents it, into the model of
 * ingest/fio_json.c (same metric names and units).
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
 *   - Terse has no job options: tests are named as fio_json.c names jobs
 *     without options, "fio <rw done> job=<name>" (rw from the directions
 *     that did I/O: read, write, rw, trim, trimwrite), plus rwmixread for
 *     rw: the read share of the IOPS, rounded to the nearest 5. Job names
 *     are not parsed for parameters. Config label = job name; an empty
 *     name becomes "job<k>" (k = 1-based line record).
 *   - bw is recomputed as floor(KiB * 1024 * 1000 / runtime_ms) (fio's JSON
 *     bw_bytes) when that agrees with the printed KiB/s, else KiB/s * 1024.
 *   - slat/clat/lat printed as all zeros were not measured: no row.
 *   - Consecutive lines with the same name and group id and the same disk
 *     utilisation tail are numjobs clones: "<name>#<i>" plus an aggregate
 *     "<name>" as in fio_json.c (CPU a plain mean). A group id going down,
 *     another fio version, or a same-named line with other disk stats
 *     starts another run; a name found in several runs gets job
 *     "<name> run <k>".
 */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

enum { D_READ, D_WRITE, D_TRIM, D_MIXED, D_N };

static const char *const dir_name[D_N] = {"read", "write", "trim", "mixed"};

static const struct {
    double pct;
    const char *metric;
} pcts[] = {
    {50.0, "clat_p50"},
    {95.0, "clat_p95"},
    {99.0, "clat_p99"},
    {99.9, "clat_p99.9"},
};
#define NPCT (sizeof(pcts) / sizeof(pcts[0]))

static const char NO_IO[] = "no I/O in this direction";

#define TAIL_FIELDS 34 /* cpu 5, depths 7, usec 10, msec 12 */

struct dstat {
    int present;
    double ios; /* always unknown in terse */
    double bytes, bw, iops, runtime;
    double lat_mean, clat_mean, slat_mean, clat_max;
    double pct[NPCT];
};

struct stats {
    struct dstat d[D_N];
    double usr_cpu, sys_cpu;
};

struct rec {
    const char *name;
    const char *version; /* "fio-3.33"; NULL in v2 */
    const char *tail;    /* disk utilisation etc., "" when none */
    long line;
    long groupid;
    long err;
    int usable;
    size_t run;
    struct stats st;
    const char *jobname;
    size_t config, test;
    unsigned rwmask;
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

static void dstat_init(struct dstat *d)
{
    memset(d, 0, sizeof(*d));
    d->ios = d->bytes = d->bw = d->iops = d->runtime = NAN;
    d->lat_mean = d->clat_mean = d->slat_mean = d->clat_max = NAN;
    for (size_t i = 0; i < NPCT; i++)
        d->pct[i] = NAN;
}

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

/* The decimal number in s times 10^shift, shifting the decimal point in
 * the text so that "12.871519" usec gives exactly 12871.519 ns. */
static double dec_shift(const char *s, int shift)
{
    char b[96];
    size_t n = strlen(s), k = 0;
    if (n + (size_t)shift + 2 > sizeof(b) || strspn(s, "0123456789.") != n)
        return strtod(s, NULL) * pow(10.0, shift);
    const char *dot = strchr(s, '.');
    size_t ilen = dot ? (size_t)(dot - s) : n;
    memcpy(b, s, ilen);
    k = ilen;
    const char *frac = dot ? dot + 1 : "";
    size_t flen = strlen(frac), i = 0;
    for (int j = 0; j < shift; j++)
        b[k++] = i < flen ? frac[i++] : '0';
    if (i < flen) {
        b[k++] = '.';
        memcpy(b + k, frac + i, flen - i);
        k += flen - i;
    }
    b[k] = '\0';
    return strtod(b, NULL);
}

/* Field f (a number) times 10^shift, exactly as written. */
static double fscaled(const struct field *f, int shift)
{
    char b[64];
    size_t n = f->n < sizeof(b) - 1 ? f->n : sizeof(b) - 1;
    memcpy(b, f->s, n);
    b[n] = '\0';
    return dec_shift(b, shift);
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
                        struct dstat *d)
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
    dstat_init(d);
    if (!old) {
        for (int i = 0; i < 20; i++, k++) {
            double p, v;
            if (fpct(&f[k], &p, &v) != 0)
                return bad_field(c, line, lineno, &f[k], k,
                                 "a percentile \"P%=usec\"");
            if (p <= 0)
                continue;
            for (size_t j = 0; j < NPCT; j++)
                if (fabs(p - pcts[j].pct) < 1e-6)
                    d->pct[j] = v * 1000;
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
        for (size_t j = 0; j < NPCT; j++)
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
    r.name = pb_arena_strndup(&c->set->arena, fn->s, fn->n);
    if (!*r.name)
        r.name = pb_arena_printf(&c->set->arena, "job%ld", recno);
    if (ver > 2)
        r.version = pb_arena_strndup(&c->set->arena, f[1].s, f[1].n);
    if (fnum(&f[base - 2], 0, &v) != 0) {
        rc = bad_field(c, line, lineno, &f[base - 2], base - 2, "a group id");
        goto out;
    }
    r.groupid = (long)v;
    if (fnum(&f[base - 1], 0, &v) != 0) {
        rc = bad_field(c, line, lineno, &f[base - 1], base - 1,
                       "an error number");
        goto out;
    }
    r.err = (long)v;

    /* fio 1.x's v2 has no iops and no percentiles */
    int old = ver == 2 && !memchr(f[base + 12].s, '=', f[base + 12].n);
    size_t secsize = old ? 20 : ver == 5 ? 47 : 41;
    size_t expect = (ver == 3 || old) ? 2 : 3;
    struct dstat sec[D_N];
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
    for (int i = 0; i < D_N; i++)
        dstat_init(&r.st.d[i]);
    if (nsec == 1 && expect > 1) {
        r.st.d[D_MIXED] = sec[0];
    } else if (nsec == expect || nsec == expect + 1) {
        for (size_t i = 0; i < expect; i++)
            r.st.d[i] = sec[i];
        if (nsec > expect)
            r.st.d[D_MIXED] = sec[expect];
    } else {
        rc = pb_err_set(c->err, PB_EINPUT, c->path, lineno,
                        col_of(line, &f[pos]),
                        "%zu direction sections; terse version %d has %zu "
                        "(or one with unified_rw_reporting)",
                        nsec, ver, expect);
        goto out;
    }
    if (fnum(&f[pos], 1, &r.st.usr_cpu) != 0) {
        rc = bad_field(c, line, lineno, &f[pos], pos, "a CPU percentage");
        goto out;
    }
    if (!is_pct_field(&f[pos + 1]) || fnum(&f[pos + 1], 1, &r.st.sys_cpu)) {
        rc = bad_field(c, line, lineno, &f[pos + 1], pos + 1,
                       "a CPU percentage");
        goto out;
    }
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

/* ==== tests and results (as fio_json.c) ==== */

static int dir_has_io(const struct dstat *d)
{
    return d->present && ((d->ios > 0) || (d->bytes > 0) || (d->iops > 0));
}

static int moved_data(const struct stats *s)
{
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present && s->d[i].bytes > 0)
            return 1;
    return 0;
}

static const char *rw_from_io(const struct stats *s)
{
    int r = dir_has_io(&s->d[D_READ]), w = dir_has_io(&s->d[D_WRITE]),
        t = dir_has_io(&s->d[D_TRIM]);
    if (t && w)
        return "trimwrite";
    if (r && w)
        return "rw";
    if (r)
        return "read";
    if (w)
        return "write";
    if (t)
        return "trim";
    return NULL;
}

static unsigned rw_mask(const char *rw)
{
    if (!rw)
        return 0;
    if (!strcmp(rw, "read"))
        return 1u << D_READ;
    if (!strcmp(rw, "write"))
        return 1u << D_WRITE;
    if (!strcmp(rw, "trim"))
        return 1u << D_TRIM;
    if (!strcmp(rw, "rw"))
        return (1u << D_READ) | (1u << D_WRITE);
    if (!strcmp(rw, "trimwrite"))
        return (1u << D_TRIM) | (1u << D_WRITE);
    return 0;
}

static void build_test(struct ctx *c, struct rec *e)
{
    const char *rw = rw_from_io(&e->st);
    e->rwmask = rw_mask(rw);
    struct pb_buf name = PB_BUF_INIT;
    pb_buf_puts(&name, "fio");
    if (rw)
        pb_buf_printf(&name, " %s", rw);
    pb_buf_printf(&name, " job=%s", e->name);
    char mix[32] = "";
    if (rw && !strcmp(rw, "rw")) {
        double a = e->st.d[D_READ].iops, b = e->st.d[D_WRITE].iops;
        double share = a + b > 0 ? floor(a * 100 / (a + b) / 5 + 0.5) * 5 : 50;
        snprintf(mix, sizeof(mix), "%.0f", share);
        pb_buf_printf(&name, " rwmixread=%s", mix);
    }
    e->test = pb_rs_test(c->set, pb_buf_str(&name), "fio");
    pb_buf_release(&name);
    if (rw)
        pb_rs_test_param(c->set, e->test, "rw", rw);
    if (mix[0])
        pb_rs_test_param(c->set, e->test, "rwmixread", mix);
    e->config = pb_rs_config(c->set, e->name);
}

static void add(struct ctx *c, const struct rec *e, const char *job,
                const char *dir, const char *metric, const char *unit,
                int direction, double v, const char *null_reason)
{
    char m[64];
    if (dir)
        snprintf(m, sizeof(m), "%s_%s", dir, metric);
    else
        snprintf(m, sizeof(m), "%s", metric);
    if (null_reason)
        pb_rs_add_null(c->set, e->config, e->test, NULL, job, m, unit,
                       direction, null_reason);
    else if (isfinite(v))
        pb_rs_add(c->set, e->config, e->test, NULL, job, m, unit, direction, v);
}

static void emit(struct ctx *c, const struct rec *e, const char *job,
                 const struct stats *s, int aggregate)
{
    for (int i = 0; i < D_N; i++) {
        const struct dstat *d = &s->d[i];
        int io = dir_has_io(d);
        if (!d->present || !(io || (i < D_MIXED && (e->rwmask & (1u << i)))))
            continue;
        const char *dn = dir_name[i];
        const char *none = io ? NULL : NO_IO;
        add(c, e, job, dn, "iops", "ops/s", PB_DIR_HIGHER, d->iops, NULL);
        add(c, e, job, dn, "bw", "B/s", PB_DIR_HIGHER, d->bw, NULL);
        add(c, e, job, dn, "bytes", "B", PB_DIR_HIGHER, d->bytes, NULL);
        add(c, e, job, dn, "runtime", "ns", PB_DIR_LOWER, d->runtime, none);
        add(c, e, job, dn, "lat_mean", "ns", PB_DIR_LOWER, d->lat_mean, none);
        add(c, e, job, dn, "clat_mean", "ns", PB_DIR_LOWER, d->clat_mean, none);
        if (io)
            add(c, e, job, dn, "slat_mean", "ns", PB_DIR_LOWER, d->slat_mean,
                NULL);
        if (!aggregate)
            for (size_t k = 0; k < NPCT; k++)
                add(c, e, job, dn, pcts[k].metric, "ns", PB_DIR_LOWER,
                    d->pct[k], none);
        add(c, e, job, dn, "clat_max", "ns", PB_DIR_LOWER, d->clat_max, none);
    }
    add(c, e, job, NULL, "usr_cpu", "%", PB_DIR_LOWER, s->usr_cpu, NULL);
    add(c, e, job, NULL, "sys_cpu", "%", PB_DIR_LOWER, s->sys_cpu, NULL);
}

struct wmean {
    double sum, w;
};

static void wm_add(struct wmean *m, double v, double w)
{
    if (!isnan(v) && w > 0) {
        m->sum += v * w;
        m->w += w;
    }
}

static double wm_get(const struct wmean *m)
{
    return m->w > 0 ? m->sum / m->w : NAN;
}

static double or0(double v)
{
    return isnan(v) ? 0 : v;
}

/* The job's runtime: its longest direction runtime, or NAN. */
static double job_runtime(const struct stats *s)
{
    double r = NAN;
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present && s->d[i].runtime > 0 && !(s->d[i].runtime <= r))
            r = s->d[i].runtime;
    return r;
}

/* Combine n clone lines as group_reporting would (see fio_json.c); terse
 * has no I/O counts, so means are weighted by bytes, CPU by each job's
 * runtime (a plain mean when one is unknown). */
static void aggregate(const struct rec *e, size_t n, struct stats *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < D_N; i++) {
        struct dstat *a = &out->d[i];
        dstat_init(a);
        struct wmean lat = {0, 0}, clat = {0, 0}, slat = {0, 0};
        a->bytes = a->bw = a->iops = 0;
        for (size_t j = 0; j < n; j++) {
            const struct dstat *d = &e[j].st.d[i];
            if (!d->present)
                continue;
            a->present = 1;
            a->bytes += or0(d->bytes);
            a->bw += or0(d->bw);
            a->iops += or0(d->iops);
            if (!isnan(d->runtime) && !(d->runtime <= a->runtime))
                a->runtime = d->runtime;
            if (!dir_has_io(d))
                continue;
            wm_add(&lat, d->lat_mean, d->bytes);
            wm_add(&clat, d->clat_mean, d->bytes);
            wm_add(&slat, d->slat_mean, d->bytes);
            if (!isnan(d->clat_max) && !(d->clat_max <= a->clat_max))
                a->clat_max = d->clat_max;
        }
        a->lat_mean = wm_get(&lat);
        a->clat_mean = wm_get(&clat);
        a->slat_mean = wm_get(&slat);
    }
    struct wmean usr = {0, 0}, sys = {0, 0};
    int weighted = 1;
    for (size_t j = 0; j < n; j++)
        if (!(job_runtime(&e[j].st) > 0))
            weighted = 0;
    for (size_t j = 0; j < n; j++) {
        double w = weighted ? job_runtime(&e[j].st) : 1;
        wm_add(&usr, e[j].st.usr_cpu, w);
        wm_add(&sys, e[j].st.sys_cpu, w);
    }
    out->usr_cpu = wm_get(&usr);
    out->sys_cpu = wm_get(&sys);
}

static int same_str(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static int is_clone(const struct rec *a, const struct rec *b)
{
    return a->run == b->run && a->groupid == b->groupid &&
           !strcmp(a->name, b->name) && !strcmp(a->tail, b->tail);
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
            if (r->groupid < p->groupid || !same_str(r->version, p->version) ||
                (r->groupid == p->groupid && !strcmp(r->name, p->name) &&
                 strcmp(r->tail, p->tail) != 0))
                run++;
        }
        r->run = run;
    }
}

struct nr {
    const char *name;
    size_t run, idx;
};

static int nr_cmp(const void *pa, const void *pb)
{
    const struct nr *a = pa, *b = pb;
    int k = strcmp(a->name, b->name);
    if (k)
        return k;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void name_jobs(struct ctx *c)
{
    struct nr *v = pb_xmalloc((c->nr + 1) * sizeof(*v));
    for (size_t i = 0; i < c->nr; i++) {
        v[i].name = c->r[i].name;
        v[i].run = c->r[i].run;
        v[i].idx = i;
    }
    qsort(v, c->nr, sizeof(*v), nr_cmp);
    for (size_t i = 0; i < c->nr;) {
        size_t j = i, nruns = 0;
        while (j < c->nr && !strcmp(v[j].name, v[i].name)) {
            if (j == i || v[j].run != v[j - 1].run)
                nruns++;
            j++;
        }
        size_t k = 0;
        for (size_t x = i; x < j; x++) {
            if (x == i || v[x].run != v[x - 1].run)
                k++;
            struct rec *r = &c->r[v[x].idx];
            r->jobname = nruns > 1 ? pb_arena_printf(&c->set->arena,
                                                     "%s run %zu", r->name, k)
                                   : r->name;
        }
        i = j;
    }
    free(v);
}

static void emit_all(struct ctx *c)
{
    for (size_t i = 0; i < c->nr; i++)
        if (c->r[i].usable)
            build_test(c, &c->r[i]);
    for (size_t i = 0; i < c->nr;) {
        struct rec *e = &c->r[i];
        if (!e->usable) {
            i++;
            continue;
        }
        size_t n = 1;
        while (i + n < c->nr && c->r[i + n].usable && is_clone(e, &c->r[i + n]))
            n++;
        if (n == 1) {
            emit(c, e, e->jobname, &e->st, 0);
        } else {
            for (size_t k = 0; k < n; k++) {
                char *job = pb_xasprintf("%s#%zu", e->jobname, k);
                emit(c, &c->r[i + k], job, &c->r[i + k].st, 0);
                free(job);
            }
            struct stats agg;
            aggregate(e, n, &agg);
            emit(c, e, e->jobname, &agg, 1);
        }
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
        if (c->r[i].err == 0 || moved_data(&c->r[i].st))
            continue;
        if (why)
            return pb_err_set(c->err, PB_EINPUT, c->path, c->r[i].line, 0,
                              "job \"%s\" failed with error %ld (%s) and "
                              "did no I/O",
                              c->r[i].name, c->r[i].err, why + 6);
        return pb_err_set(c->err, PB_EINPUT, c->path, c->r[i].line, 0,
                          "job \"%s\" failed with error %ld and did no I/O",
                          c->r[i].name, c->r[i].err);
    }
    if (c->errline)
        return pb_err_set(c->err, PB_EINPUT, c->path, c->errline, 0,
                          "fio failed: \"%s\"", c->errmsg);
    return pb_err_set(c->err, PB_EINPUT, c->path, 0, 0,
                      "no fio terse lines found (lines such as "
                      "\"3;fio-3.33;job;0;0;...\")");
}

static int terse_parse(const char *path, const char *buf, size_t len,
                       struct pb_resultset *set, struct pb_err *err)
{
    const char *q = pb_skip_ws(buf, buf + len);
    if (q == buf + len)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          len ? "file holds only white space" : "empty file");
    struct ctx c;
    memset(&c, 0, sizeof(c));
    c.path = path;
    c.buf = buf;
    c.set = set;
    c.err = err;
    int rc = PB_OK;
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
                   (!strncmp(s, "fio: ", 5) || !strncmp(s, "error: ", 7))) {
            c.errline = lineno;
            quote_line(s, n, c.errmsg, sizeof(c.errmsg));
        }
    }
    if (rc == PB_OK) {
        size_t usable = 0;
        for (size_t i = 0; i < c.nr; i++) {
            struct rec *r = &c.r[i];
            int anything = !isnan(r->st.usr_cpu);
            for (int d = 0; d < D_N; d++)
                anything |= r->st.d[d].present;
            r->usable = !(r->err != 0 && !moved_data(&r->st)) && anything;
            usable += r->usable != 0;
        }
        if (usable == 0) {
            rc = no_results(&c);
        } else {
            for (size_t i = 0; i < c.nr; i++)
                if (c.r[i].version) {
                    set->tool_version = pb_rs_str(set, c.r[i].version);
                    pb_rs_fact(set, NULL, "fio_version", c.r[i].version);
                    break;
                }
            assign_runs(&c);
            name_jobs(&c);
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
