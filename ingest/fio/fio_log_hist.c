/* fio's histogram logs (write_hist_log, log_hist_msec,
 * log_hist_coarseness): "time, direction, block size[, priority], bin 0,
 * ..., bin N-1" a line, N = 1856 >> coarseness (fio 3.x, latencies in ns)
 * or 1216 >> coarseness (fio 2.x, us). Each line gives one point of
 * latency percentiles over time, computed as fiologparser_hist.py does
 * (docs/formats.md, "fio logs: time series"). */
#include "ingest/fio/fio_log_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* fio's stat.c plat_idx_to_val as fiologparser_hist.py writes it
 * (FIO_IO_U_PLAT_BITS 6): the value at `edge` (0..1) into bin idx. */
static double plat_val(uint64_t idx, double edge)
{
    if (idx < 128)
        return (double)idx;
    uint64_t eb = (idx >> 6) - 1;
    double base = (double)((uint64_t)1 << (eb + 6));
    return base + ((double)(idx % 64) + edge) * (double)((uint64_t)1 << eb);
}

/* The midpoint of coarse bin idx (plat_idx_to_val_coarse, edge 0.5). */
static double coarse_mid(uint64_t idx, int coarse)
{
    uint64_t stride = (uint64_t)1 << coarse;
    double lo = plat_val(idx * stride, 0.0);
    double hi = plat_val(idx * stride + stride, 1.0);
    return lo + (hi - lo) * 0.5;
}

double pb_log_hist_pct(const double *vals, const uint64_t *w, size_t nbins,
                       double p)
{
    /* cdf = 100 * (cumsum(w) - w/2) / sum(w), then numpy.interp(p, cdf,
     * vals): the last i with cdf[i] <= p, linear to i + 1 */
    double total = 0;
    for (size_t i = 0; i < nbins; i++)
        total += (double)w[i];
    if (total <= 0)
        return NAN;
    double cum = 0, prev_cdf = 0;
    for (size_t i = 0; i < nbins; i++) {
        cum += (double)w[i];
        double cdf = 100.0 * (cum - (double)w[i] / 2.0) / total;
        if (i == 0 && p < cdf)
            return vals[0];
        if (i > 0 && p < cdf)
            return vals[i - 1] + (p - prev_cdf) * (vals[i] - vals[i - 1]) /
                                     (cdf - prev_cdf);
        prev_cdf = cdf;
    }
    return vals[nbins - 1];
}

/* Columns: how many bins, and whether a priority column comes first. */
static int layout(struct pb_log *lg, int k, long line, struct pb_err *err)
{
    static const int groups[] = {29, 19}; /* fio 3.x, fio 2.x */
    for (int head = 3; head <= 4; head++)
        for (int g = 0; g < 2; g++)
            for (int c = 0; c <= 8; c++) {
                int nb = groups[g] * 64;
                if (nb % (1 << c) || k - head != nb >> c)
                    continue;
                lg->hist_cols = k - head;
                lg->hist_head = head;
                lg->hist_coarse = c;
                lg->hist_group = groups[g];
                lg->hist_val = pb_xmalloc((size_t)lg->hist_cols *
                                          sizeof(*lg->hist_val));
                lg->hist_row = pb_xmalloc((size_t)k * sizeof(*lg->hist_row));
                for (int i = 0; i < lg->hist_cols; i++)
                    lg->hist_val[i] = coarse_mid((uint64_t)i, c);
                return PB_OK;
            }
    return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                      "%d columns: a histogram log has 3 or 4 columns and "
                      "then 1856 (fio 3.x) or 1216 (fio 2.x) bins, halved "
                      "by each step of log_hist_coarseness",
                      k);
}

int pb_log_hist_line(struct pb_log *lg, const char *s, size_t n, long line,
                     struct pb_err *err)
{
    int max = lg->hist_cols ? lg->hist_cols + lg->hist_head : 1856 + 4;
    uint64_t *f = lg->hist_row;
    uint64_t tmp[1860];
    int k = pb_log_fields(s, n, f ? f : tmp, max);
    if (k == -2)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "negative number: fio logs hold none");
    if (k < 0)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "expected whole numbers separated by commas%s",
                          lg->hist_cols ? " (as many as on line 1)" : "");
    if (!lg->hist_cols) {
        if (layout(lg, k, line, err))
            return PB_EINPUT;
        memcpy(lg->hist_row, tmp, (size_t)k * sizeof(*tmp));
        f = lg->hist_row;
    } else if (k != lg->hist_cols + lg->hist_head) {
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "%d columns where line 1 had %d", k,
                          lg->hist_cols + lg->hist_head);
    }
    if (f[1] > 2)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "direction %llu is not 0 (read), 1 (write) or 2 "
                          "(trim)", (unsigned long long)f[1]);
    struct pb_log_dir *d = &lg->dir[f[1]];
    if (d->used && (int64_t)f[0] < d->last_t)
        return pb_err_set(err, PB_EINPUT, lg->path, line, 0,
                          "time goes backwards: %llu ms after %lld ms",
                          (unsigned long long)f[0], (long long)d->last_t);
    d->used = 1;
    d->last_t = (int64_t)f[0];
    const uint64_t *w = f + lg->hist_head;
    size_t nb = (size_t)lg->hist_cols;
    double total = 0, wsum = 0;
    size_t first = nb, last = 0;
    for (size_t i = 0; i < nb; i++) {
        if (!w[i])
            continue;
        if (first == nb)
            first = i;
        last = i;
        total += (double)w[i];
        wsum += (double)w[i] * lg->hist_val[i];
    }
    if (total <= 0)
        return PB_OK; /* nothing completed in this interval */
    struct pb_point p;
    p.t_ms = (int64_t)f[0];
    p.n = (int64_t)total;
    p.value = wsum / total;
    p.min = lg->hist_val[first];
    p.max = lg->hist_val[last];
    p.p50 = pb_log_hist_pct(lg->hist_val, w, nb, 50);
    p.p90 = pb_log_hist_pct(lg->hist_val, w, nb, 90);
    p.p95 = pb_log_hist_pct(lg->hist_val, w, nb, 95);
    p.p99 = pb_log_hist_pct(lg->hist_val, w, nb, 99);
    p.p999 = p.n >= PB_P999_MIN ? pb_log_hist_pct(lg->hist_val, w, nb, 99.9)
                                : NAN;
    PB_GROW(d->pts, d->cappts, d->npts + 1);
    d->pts[d->npts++] = p;
    return PB_OK;
}

static int sniff(const char *buf, size_t len)
{
    return pb_log_sniff_lines(buf, len, 64 + 3, 1856 + 4) ? 90 : 0;
}

static int parse(struct pb_parse *x)
{
    return pb_log_parse(x, 1);
}

const struct pb_parser pb_parser_fio_hist_log = {
    .name = "fio-hist-log",
    .flags = PB_PARSER_LINES,
    .sniff = sniff,
    .parse = parse,
};
