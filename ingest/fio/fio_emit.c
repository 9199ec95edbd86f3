/* The results the fio parsers emit for a job and for numjobs clones with
 * their aggregate (the rules are in fio_common.c's head comment). */
#include "ingest/fio/fio_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char NO_IO[] = "no I/O in this direction";

/* Element k of an array of structs `size` bytes apart, each holding a
 * struct pb_fio_job at the offset of `first`. */
static const struct pb_fio_job *job_at(const struct pb_fio_job *first,
                                       size_t size, size_t k)
{
    return (const struct pb_fio_job *)((const char *)first + k * size);
}

/* ==== results ==== */

static void add(struct pb_resultset *set, const struct pb_fio_job *j,
                const char *job, const char *dir, const char *metric,
                const char *unit, int direction, double v,
                const char *null_reason)
{
    char m[64];
    if (dir)
        snprintf(m, sizeof(m), "%s_%s", dir, metric);
    else
        snprintf(m, sizeof(m), "%s", metric);
    struct pb_result *r = NULL;
    if (null_reason)
        r = pb_rs_add_null(set, j->config, j->test, j->host, job, m, unit,
                           direction, null_reason);
    else if (isfinite(v)) /* absent, or overflowed in unit conversion */
        r = pb_rs_add(set, j->config, j->test, j->host, job, m, unit,
                      direction, v);
    if (r)
        r->line = j->line; /* pasted commands apply as of there */
}

/* The results of stats s under j's config, test and host as job `job`;
 * an aggregate has percentiles only from its clones' summed json+ bins,
 * which a clone (one of several) does not keep. */
static void emit(struct pb_resultset *set, const struct pb_fio_job *j,
                 const char *job, const struct pb_fio_stats *s, int aggregate,
                 int clone)
{
    for (int i = 0; i < D_N; i++) {
        const struct pb_fio_dstat *d = &s->d[i];
        int io = pb_fio_has_io(s, i);
        if (!d->present || !(io || (i < D_MIXED && (j->rwmask & (1u << i)))))
            continue;
        const char *dn = pb_fio_dir_name[i];
        const char *none = io ? NULL : NO_IO;
        add(set, j, job, dn, "iops", "ops/s", PB_DIR_HIGHER, d->iops, NULL);
        add(set, j, job, dn, "bw", "B/s", PB_DIR_HIGHER, d->bw, NULL);
        add(set, j, job, dn, "bytes", "B", PB_DIR_HIGHER, d->bytes, NULL);
        add(set, j, job, dn, "runtime", "ns", PB_DIR_LOWER, d->runtime, none);
        add(set, j, job, dn, "lat_mean", "ns", PB_DIR_LOWER, d->lat_mean, none);
        add(set, j, job, dn, "clat_mean", "ns", PB_DIR_LOWER, d->clat_mean,
            none);
        if (io)
            add(set, j, job, dn, "slat_mean", "ns", PB_DIR_LOWER, d->slat_mean,
                NULL);
        if (!aggregate && !d->bins[FIO_CLAT])
            for (size_t k = 0; k < FIO_NPCT; k++)
                add(set, j, job, dn, pb_fio_pcts[k].metric, "ns", PB_DIR_LOWER,
                    d->pct[k], none);
        pb_fio_bins_emit(set, j, job, dn, d, !aggregate, !clone);
        add(set, j, job, dn, "clat_max", "ns", PB_DIR_LOWER, d->clat_max, none);
    }
    add(set, j, job, NULL, "usr_cpu", "%", PB_DIR_LOWER, s->usr_cpu, NULL);
    add(set, j, job, NULL, "sys_cpu", "%", PB_DIR_LOWER, s->sys_cpu, NULL);
}

/* weighted mean accumulator */
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

/* The json+ bins of direction i of the n clones, summed as fio's
 * group_reporting sums them (none unless every clone has them). */
static void merge_bins(struct pb_resultset *set,
                       const struct pb_fio_job *first, size_t size, size_t n,
                       int i, struct pb_fio_dstat *a)
{
    const struct pb_fio_bins **v = pb_xcalloc(n + 1, sizeof(*v));
    for (int k = 0; k < FIO_NKIND; k++) {
        for (size_t c = 0; c < n; c++)
            v[c] = job_at(first, size, c)->st.d[i].bins[k];
        a->bins[k] = pb_fio_bins_merge(set, v, n);
    }
    free(v);
}

/* Combine n clones into one set of stats (see the file header). */
static void aggregate(struct pb_resultset *set, const struct pb_fio_job *first,
                      size_t size, size_t n, struct pb_fio_stats *out)
{
    pb_fio_stats_init(out, first->st.iops_io);
    for (int i = 0; i < D_N; i++) {
        struct pb_fio_dstat *a = &out->d[i];
        struct wmean lat = {0, 0}, clat = {0, 0}, slat = {0, 0};
        a->ios = a->bytes = a->bw = a->iops = 0;
        int known_ios = 1;
        for (size_t k = 0; k < n; k++) {
            const struct pb_fio_stats *s = &job_at(first, size, k)->st;
            const struct pb_fio_dstat *d = &s->d[i];
            if (!d->present)
                continue;
            a->present = 1;
            if (isnan(d->ios))
                known_ios = 0;
            a->ios += or0(d->ios);
            a->bytes += or0(d->bytes);
            a->bw += or0(d->bw);
            a->iops += or0(d->iops);
            if (!isnan(d->runtime) && !(d->runtime <= a->runtime))
                a->runtime = d->runtime;
            if (!pb_fio_has_io(s, i))
                continue;
            double w = isnan(d->ios) ? d->bytes : d->ios;
            wm_add(&lat, d->lat_mean, w);
            wm_add(&clat, d->clat_mean, w);
            wm_add(&slat, d->slat_mean, w);
            if (!isnan(d->clat_max) && !(d->clat_max <= a->clat_max))
                a->clat_max = d->clat_max;
        }
        if (!known_ios)
            a->ios = NAN;
        a->lat_mean = wm_get(&lat);
        a->clat_mean = wm_get(&clat);
        a->slat_mean = wm_get(&slat);
        merge_bins(set, first, size, n, i, a);
    }
    struct wmean usr = {0, 0}, sys = {0, 0};
    int weighted = 1;
    for (size_t k = 0; k < n; k++)
        if (!(job_at(first, size, k)->st.job_runtime > 0))
            weighted = 0;
    for (size_t k = 0; k < n; k++) {
        const struct pb_fio_stats *s = &job_at(first, size, k)->st;
        double w = weighted ? s->job_runtime : 1;
        wm_add(&usr, s->usr_cpu, w);
        wm_add(&sys, s->sys_cpu, w);
    }
    out->usr_cpu = wm_get(&usr);
    out->sys_cpu = wm_get(&sys);
}

/* Job `first` alone (n = 1), or n clones as "<jobname>#<k>" each plus
 * their aggregate as "<jobname>", or (blocks) n blocks that may be
 * clones or repeats as "<jobname> block <k>" (k from 1), no aggregate.
 * Each in j's own line. */
static void emit_clones(struct pb_resultset *set,
                        const struct pb_fio_job *first, size_t size, size_t n,
                        int blocks)
{
    if (n == 1) {
        emit(set, first, first->jobname, &first->st, 0, 0);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        const struct pb_fio_job *j = job_at(first, size, k);
        char *job = blocks ? pb_xasprintf("%s block %zu", first->jobname,
                                          k + 1)
                           : pb_xasprintf("%s#%zu", first->jobname, k);
        emit(set, j, job, &j->st, 0, !blocks);
        free(job);
    }
    if (blocks)
        return;
    struct pb_fio_stats agg;
    aggregate(set, first, size, n, &agg);
    emit(set, first, first->jobname, &agg, 1, 0);
}

size_t pb_fio_count_clones(const struct pb_fio_job *first, size_t size,
                           size_t n, size_t i, pb_fio_clone_fn is_clone,
                           const void *ctx)
{
    size_t k = 1;
    if (job_at(first, size, i)->usable)
        while (i + k < n && job_at(first, size, i + k)->usable &&
               is_clone(ctx, i, i + k))
            k++;
    return k;
}

void pb_fio_emit_all(struct pb_resultset *set, struct pb_fio_file *f,
                     const struct pb_fio_job *first, size_t size, size_t n,
                     pb_fio_clone_fn is_clone, pb_fio_ambig_fn is_ambiguous,
                     pb_fio_build_fn build, void *ctx)
{
    for (size_t i = 0; i < n;) {
        const struct pb_fio_job *j = job_at(first, size, i);
        if (!j->usable) {
            i++;
            continue;
        }
        size_t k = pb_fio_count_clones(first, size, n, i, is_clone, ctx);
        if (build)
            build(ctx, i, k);
        int blocks = k > 1 && is_ambiguous && is_ambiguous(ctx, i, k);
        emit_clones(pb_fio_job_set(set, f, j), j, size, k, blocks);
        if (f && j->held && pb_fio_file_last(f, j))
            pb_fio_file_flush(f, set, j);
        i += k;
    }
}
