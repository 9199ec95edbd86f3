/* fio's bandwidth, IOPS and latency logs (write_bw_log, write_iops_log,
 * write_lat_log): "time, value, direction, block size[, offset][, prio]"
 * a line, fio 2.x and 3.x. Averaged logs (log_avg_msec > 0: block size 0)
 * are kept as given; per-I/O logs go into fixed time buckets as they are
 * read (docs/formats.md, "fio logs: time series"). The same reader serves
 * a whole buffer (this file's parser) and a stream (ingest/stream.c). */
#include "ingest/fio/fio_log_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== fields ==== */

int pb_log_fields(const char *s, size_t n, uint64_t *out, int max)
{
    const char *p = s, *end = s + n;
    int k = 0;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p == end)
            return k ? -1 : 0; /* a trailing comma, or nothing */
        if (*p == '-')
            return -2;
        if (*p < '0' || *p > '9' || k == max)
            return -1;
        uint64_t v = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (v > (UINT64_C(1) << 63) / 10)
                return -1;
            v = v * 10 + (uint64_t)(*p++ - '0');
        }
        if (v > (UINT64_C(1) << 63))
            return -1;
        out[k++] = v;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p == end)
            return k;
        if (*p++ != ',')
            return -1;
    }
}

/* ==== buckets ==== */

/* Bucket widths, ms: each divides the next, so buckets merge exactly. */
static const int64_t widths[] = {10,      20,      100,      200,     1000,
                                 2000,    10000,   20000,    100000,  200000,
                                 1000000, 2000000, 10000000, 20000000};
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

static unsigned bin_of(uint64_t v)
{
    if (v < 32)
        return (unsigned)v;
    int msb = 63 - __builtin_clzll(v);
    int eb = msb - 4;
    unsigned idx = (unsigned)(eb + 1) * 16 + (unsigned)((v >> eb) & 15);
    return idx < PB_LOG_NBINS ? idx : PB_LOG_NBINS - 1;
}

/* Midpoint of bin idx. */
static double bin_mid(unsigned idx)
{
    if (idx < 32)
        return idx;
    int eb = (int)(idx / 16) - 1;
    double lo = (double)((uint64_t)(16 + idx % 16) << eb);
    return lo + (double)((uint64_t)1 << eb) / 2;
}

static void dir_alloc(struct pb_log_dir *d, int lat)
{
    d->width = widths[0];
    d->cnt = pb_xcalloc(PB_LOG_MAXB, sizeof(*d->cnt));
    d->sum = pb_xcalloc(PB_LOG_MAXB, sizeof(*d->sum));
    d->bytes = pb_xcalloc(PB_LOG_MAXB, sizeof(*d->bytes));
    d->bmin = pb_xcalloc(PB_LOG_MAXB, sizeof(*d->bmin));
    d->bmax = pb_xcalloc(PB_LOG_MAXB, sizeof(*d->bmax));
    if (lat)
        d->bins = pb_xcalloc((size_t)PB_LOG_MAXB * PB_LOG_NBINS,
                             sizeof(*d->bins));
}

/* Widen the buckets by f (merging f neighbours into one). */
static void dir_merge(struct pb_log_dir *d, int64_t f)
{
    size_t nb = (d->nb + (size_t)f - 1) / (size_t)f;
    for (size_t j = 0; j < nb; j++) {
        int64_t c = 0;
        double s = 0, by = 0, mn = INFINITY, mx = -INFINITY;
        uint32_t tmp[PB_LOG_NBINS];
        if (d->bins)
            memset(tmp, 0, sizeof(tmp));
        for (size_t i = j * (size_t)f; i < (j + 1) * (size_t)f && i < d->nb;
             i++) {
            if (d->cnt[i]) {
                mn = fmin(mn, d->bmin[i]);
                mx = fmax(mx, d->bmax[i]);
            }
            c += d->cnt[i];
            s += d->sum[i];
            by += d->bytes[i];
            if (d->bins)
                for (unsigned b = 0; b < PB_LOG_NBINS; b++)
                    tmp[b] += d->bins[i * PB_LOG_NBINS + b];
        }
        d->cnt[j] = c;
        d->sum[j] = s;
        d->bytes[j] = by;
        d->bmin[j] = mn;
        d->bmax[j] = mx;
        if (d->bins)
            memcpy(&d->bins[j * PB_LOG_NBINS], tmp, sizeof(tmp));
    }
    size_t rest = d->nb - nb;
    memset(d->cnt + nb, 0, rest * sizeof(*d->cnt));
    memset(d->sum + nb, 0, rest * sizeof(*d->sum));
    memset(d->bytes + nb, 0, rest * sizeof(*d->bytes));
    if (d->bins)
        memset(d->bins + nb * PB_LOG_NBINS, 0,
               rest * PB_LOG_NBINS * sizeof(*d->bins));
    d->nb = nb;
    d->width *= f;
}

static void dir_bucket(struct pb_log_dir *d, uint64_t t, uint64_t v,
                       uint64_t bs)
{
    size_t w = 0;
    while (widths[w] != d->width)
        w++;
    while ((uint64_t)d->width * PB_LOG_MAXB <= t && w + 1 < NWIDTHS) {
        dir_merge(d, widths[w + 1] / widths[w]);
        w++;
    }
    size_t i = (size_t)(t / (uint64_t)d->width);
    if (i >= PB_LOG_MAXB)
        i = PB_LOG_MAXB - 1; /* beyond 1,000 years of ms: the last one */
    if (i >= d->nb) {
        d->nb = i + 1;
    }
    double x = (double)v;
    if (!d->cnt[i] || x < d->bmin[i])
        d->bmin[i] = x;
    if (!d->cnt[i] || x > d->bmax[i])
        d->bmax[i] = x;
    d->cnt[i]++;
    d->sum[i] += x;
    d->bytes[i] += (double)bs;
    if (d->bins)
        d->bins[i * PB_LOG_NBINS + bin_of(v)]++;
}

static void dir_stat(struct pb_log_dir *d, double x)
{
    d->n++;
    double delta = x - d->mean;
    d->mean += delta / (double)d->n;
    d->m2 += delta * (x - d->mean);
    if (d->n == 1 || x < d->vmin)
        d->vmin = x;
    if (d->n == 1 || x > d->vmax)
        d->vmax = x;
}

/* Rank percentile of a bucket's bins, clamped to its min and max. */
static double bucket_pct(const uint32_t *bins, int64_t n, double p,
                         double mn, double mx)
{
    int64_t rank = (int64_t)ceil(p / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    int64_t c = 0;
    for (unsigned b = 0; b < PB_LOG_NBINS; b++) {
        c += bins[b];
        if (c >= rank)
            return fmin(fmax(bin_mid(b), mn), mx);
    }
    return mx;
}

/* The buckets as points (empty buckets inside the span are kept: a stall
 * is a point of 0 I/Os). value: rate (bw: bytes, iops: I/Os per second)
 * or mean (latency). */
void pb_log_dir_points(struct pb_log_dir *d, int rate, int bytes)
{
    for (size_t i = 0; i < d->nb; i++) {
        struct pb_point p;
        p.t_ms = (int64_t)(i + 1) * d->width;
        p.n = d->cnt[i];
        p.min = p.max = p.p50 = p.p90 = p.p95 = p.p99 = p.p999 = NAN;
        if (rate) {
            p.value = (bytes ? d->bytes[i] : (double)d->cnt[i]) * 1000.0 /
                      (double)d->width;
        } else if (d->cnt[i]) {
            p.value = d->sum[i] / (double)d->cnt[i];
            p.min = d->bmin[i];
            p.max = d->bmax[i];
            if (d->bins) {
                const uint32_t *b = &d->bins[i * PB_LOG_NBINS];
                p.p50 = bucket_pct(b, p.n, 50, p.min, p.max);
                p.p90 = bucket_pct(b, p.n, 90, p.min, p.max);
                p.p95 = bucket_pct(b, p.n, 95, p.min, p.max);
                p.p99 = bucket_pct(b, p.n, 99, p.min, p.max);
                if (p.n >= PB_P999_MIN)
                    p.p999 = bucket_pct(b, p.n, 99.9, p.min, p.max);
            }
        } else {
            continue; /* no I/O completed: no latency to show */
        }
        PB_GROW(d->pts, d->cappts, d->npts + 1);
        d->pts[d->npts++] = p;
    }
}

/* ==== the reader ==== */

/* A reader for path (its name says the kind); hist: the file sniffed as
 * a histogram log. */
static struct pb_log *log_new(const char *path, int hist)
{
    struct pb_log *lg = pb_xcalloc(1, sizeof(*lg));
    lg->path = pb_xstrdup(path);
    lg->hist = hist;
    pb_log_name_parse(path, &lg->name);
    return lg;
}

static void log_free(struct pb_log *lg)
{
    if (!lg)
        return;
    for (int i = 0; i < 3; i++) {
        struct pb_log_dir *d = &lg->dir[i];
        free(d->pts);
        free(d->cnt);
        free(d->sum);
        free(d->bytes);
        free(d->bmin);
        free(d->bmax);
        free(d->bins);
    }
    free(lg->hist_val);
    free(lg->hist_row);
    free(lg->path);
    free(lg);
}

static const char *const dir_names[] = {"read", "write", "trim"};

/* A line of a bw, iops or lat log. */
static int plain_line(struct pb_log *lg, const char *s, size_t n, long line,
                      struct pb_err *err)
{
    uint64_t f[6];
    int k = pb_log_fields(s, n, f, 6);
    if (k == -2)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "negative number: fio logs hold none");
    if (k < 4)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "expected 'time, value, direction, block size"
                          "[, offset][, priority]' (4 to 6 whole numbers)");
    if (f[2] > 2)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "direction %llu is not 0 (read), 1 (write) or 2 "
                          "(trim)", (unsigned long long)f[2]);
    int mode = f[3] == 0 ? 1 : 2;
    if (lg->mode && mode != lg->mode)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "%s line in a%s log: averaged lines (block size 0) "
                          "and per-I/O lines do not mix",
                          mode == 1 ? "an averaged" : "a per-I/O",
                          lg->mode == 1 ? "n averaged" : " per-I/O");
    lg->mode = mode;
    struct pb_log_dir *d = &lg->dir[f[2]];
    if (mode == 1 && d->used && (int64_t)f[0] < d->last_t)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "time goes backwards: %llu ms after %lld ms "
                          "(%s)", (unsigned long long)f[0],
                          (long long)d->last_t, dir_names[f[2]]);
    if (!d->used && mode == 2)
        dir_alloc(d, lg->name.kind == PB_LOG_LAT ||
                         lg->name.kind == PB_LOG_CLAT ||
                         lg->name.kind == PB_LOG_SLAT);
    d->used = 1;
    d->last_t = (int64_t)f[0];
    dir_stat(d, (double)f[1]);
    if (mode == 2) {
        dir_bucket(d, f[0], f[1], f[3]);
        return PB_OK;
    }
    struct pb_point p = {(int64_t)f[0], (double)f[1], 0,   NAN, NAN,
                         NAN,           NAN,          NAN, NAN, NAN};
    PB_GROW(d->pts, d->cappts, d->npts + 1);
    d->pts[d->npts++] = p;
    return PB_OK;
}

/* One line without its newline (line numbers from 1): PB_OK or
 * PB_EINPUT with err naming path:line. */
static int log_feed(struct pb_log *lg, const char *s, size_t n,
                    struct pb_err *err)
{
    long line = ++lg->line;
    if (memchr(s, '\0', n))
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "NUL byte: binary or damaged file, not a fio log");
    const char *q = s;
    while (q < s + n && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    if (q == s + n)
        return PB_OK; /* blank line */
    if (lg->name.kind == PB_LOG_UNKNOWN)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "a fio log, but its name does not say which one: "
                          "fio names them NAME_bw.N.log, NAME_iops.N.log, "
                          "NAME_lat.N.log, NAME_clat.N.log, NAME_slat.N.log, "
                          "NAME_clat_hist.N.log");
    if (lg->hist != (lg->name.kind == PB_LOG_HIST))
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          lg->hist ? "histogram lines in a log whose name "
                                     "says '%s'"
                                   : "a '%s' log without histogram lines",
                          pb_log_kind_str(lg->name.kind));
    return lg->hist ? pb_log_hist_line(lg, s, n, line, err)
                    : plain_line(lg, s, n, line, err);
}

/* ==== the parser (whole buffer) ==== */

/* 1 when the first line of buf is a log line with `min` to `max` fields
 * (later lines are the parser's to judge: their errors name the line). */
int pb_log_sniff_lines(const char *buf, size_t len, int min, int max)
{
    const char *p = buf, *end = buf + len;
    int lines = 0;
    uint64_t *f = pb_xmalloc((size_t)max * sizeof(*f));
    int ok = 1;
    while (p < end && lines < 1 && ok) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        int cut = 0;
        if (!nl) {
            if (lines > 0)
                break; /* a line cut by the sniff window */
            /* one long line (a histogram): up to its last whole field */
            nl = end;
            while (nl > p && nl[-1] != ',')
                nl--;
            if (nl > p)
                nl--;
            cut = 1;
        }
        int k = pb_log_fields(p, (size_t)(nl - p), f, max);
        if (cut && k > 0 && k < min && len < 8192)
            k = -1;
        if (k == 0 && lines == 0 && nl < end) {
            p = nl + 1;
            continue;
        }
        ok = k >= min && f[2 - (min > 6)] <= 2;
        lines++;
        p = nl + 1;
    }
    free(f);
    return ok && lines > 0;
}

static int sniff(const char *buf, size_t len)
{
    return pb_log_sniff_lines(buf, len, 4, 6) ? 90 : 0;
}

int pb_log_parse(struct pb_parse *x, int hist)
{
    struct pb_log *lg = log_new(x->path, hist);
    int rc = PB_OK;
    if (x->lines) {
        const char *s;
        size_t n;
        int got = 0;
        while (!rc && (got = x->lines->next(x->lines, &s, &n, x->err)) == 1)
            rc = log_feed(lg, s, n, x->err);
        if (!rc)
            rc = got;
    } else {
        const char *p = x->buf, *end = x->buf + x->len;
        while (p < end && !rc) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            if (!nl)
                nl = end;
            rc = log_feed(lg, p, (size_t)(nl - p), x->err);
            p = nl + 1;
        }
    }
    if (!rc)
        rc = pb_log_finish(lg, x->out, x->err);
    log_free(lg);
    return rc;
}

static int parse(struct pb_parse *x)
{
    return pb_log_parse(x, 0);
}

const struct pb_parser pb_parser_fio_log = {
    .name = "fio-log",
    .flags = PB_PARSER_LINES,
    .sniff = sniff,
    .parse = parse,
};
