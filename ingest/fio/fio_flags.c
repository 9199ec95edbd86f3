/* Facts the fio parsers record about a file beside its results: where it
 * was interrupted (flag.interrupted), values no run can produce
 * (flag.implausible), no fio version anywhere (flag.no_version), and
 * per-host facts with several values (device). Values are never changed:
 * flags only say what is wrong with them.
 */
#include "ingest/fio/fio_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Element k of an array of structs `size` bytes apart, each holding a
 * struct pb_fio_job at the offset of `first`. */
static const struct pb_fio_job *job_at(const struct pb_fio_job *first,
                                       size_t size, size_t k)
{
    return (const struct pb_fio_job *)((const char *)first + k * size);
}

/* ==== flags ==== */

int pb_fio_is_interrupt(const char *s, size_t n)
{
    static const char *const marks[] = {"terminating on signal",
                                        "appears to be stuck"};
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    if (n < 5 || memcmp(s, "fio: ", 5) != 0)
        return 0;
    for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
        size_t k = strlen(marks[i]);
        for (size_t j = 5; j + k <= n; j++)
            if (!memcmp(s + j, marks[i], k))
                return 1;
    }
    return 0;
}

/* A printable, bounded copy of s[0..n). */
static void printable(const char *s, size_t n, char *out, size_t cap)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[k++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    out[k] = '\0';
}

static const char *find_fact(const struct pb_resultset *set, const char *host,
                             const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++)
        if (pb_fio_same_str(set->facts[i].host, host) &&
            !strcmp(set->facts[i].key, key))
            return set->facts[i].value;
    return NULL;
}

void pb_fio_flag_interrupted(struct pb_resultset *set, long line,
                             const char *marker, size_t n, double achieved,
                             double asked)
{
    if (find_fact(set, NULL, "flag.interrupted"))
        return;
    char m[160];
    printable(marker, n, m, sizeof(m));
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "line %ld: %s", line, m);
    if (achieved > 0 && asked > 0)
        pb_buf_printf(&b, "; ran %.4g s of %.4g s", achieved / 1e9,
                      asked / 1e9);
    else if (achieved > 0)
        pb_buf_printf(&b, "; ran %.4g s", achieved / 1e9);
    pb_rs_fact(set, NULL, "flag.interrupted", pb_buf_str(&b));
    pb_buf_release(&b);
}

/* Append value to fact key of host, after sep. */
static void fact_append(struct pb_resultset *set, const char *host,
                        const char *key, const char *value, const char *sep)
{
    const char *old = find_fact(set, host, key);
    if (!old) {
        pb_rs_fact(set, host, key, value);
        return;
    }
    /* distinct parts only */
    size_t k = strlen(value), sl = strlen(sep);
    for (const char *p = old; (p = strstr(p, value)) != NULL; p++)
        if ((p == old || (p - old >= (long)sl && !memcmp(p - sl, sep, sl))) &&
            (p[k] == '\0' || !strncmp(p + k, sep, sl)))
            return;
    char *v = pb_xasprintf("%s%s%s", old, sep, value);
    pb_rs_fact(set, host, key, v);
    free(v);
}

void pb_fio_fact_add(struct pb_resultset *set, const char *host,
                     const char *key, const char *value)
{
    if (value && *value)
        fact_append(set, host, key, value, ", ");
}

static void implausible(struct pb_resultset *set, const struct pb_fio_job *j,
                        const char *dir, const char *metric, double v,
                        const char *unit, const char *bound)
{
    char *s = pb_xasprintf("%s_%s %.4g %s > %s", dir, metric, v, unit, bound);
    fact_append(set, j->host, "flag.implausible", s, "; ");
    free(s);
}

/* Latencies above the direction's runtime, bandwidth above ten times
 * bytes / runtime. Percentiles are fio's histogram bucket values, up to
 * a few % above the latency measured: they get 5% of slack. */
static void check_job(struct pb_resultset *set, const struct pb_fio_job *j)
{
    double jr = pb_fio_longest_runtime(&j->st);
    for (int i = 0; i < D_N; i++) {
        const struct pb_fio_dstat *d = &j->st.d[i];
        if (!pb_fio_has_io(&j->st, i))
            continue;
        const char *dn = pb_fio_dir_name[i];
        double r = d->runtime > 0 ? d->runtime : jr;
        if (!(r > 0) || !isfinite(r))
            continue;
        char bound[64];
        snprintf(bound, sizeof(bound), "runtime %.4g s", r / 1e9);
        const struct {
            const char *name;
            double v, slack;
        } lat[] = {
            {"lat_mean", d->lat_mean, 1},
            {"clat_mean", d->clat_mean, 1},
            {"slat_mean", d->slat_mean, 1},
            {"clat_p50", d->pct[0], 1.05},
            {"clat_p95", d->pct[1], 1.05},
            {"clat_p99", d->pct[2], 1.05},
            {"clat_p99.9", d->pct[3], 1.05},
        };
        for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++)
            if (lat[k].v > r * lat[k].slack)
                implausible(set, j, dn, lat[k].name, lat[k].v, "ns", bound);
        if (d->bytes > 0 && d->bw > 10 * d->bytes / (r / 1e9)) {
            snprintf(bound, sizeof(bound),
                     "10 x io_bytes/runtime %.4g B/s", d->bytes / (r / 1e9));
            implausible(set, j, dn, "bw", d->bw, "B/s", bound);
        }
    }
}

void pb_fio_flag_jobs(struct pb_resultset *set, const struct pb_fio_job *first,
                      size_t size, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct pb_fio_job *j = job_at(first, size, i);
        if (j->usable)
            check_job(set, j);
    }
}

void pb_fio_flag_file(struct pb_resultset *set, const struct pb_fio_job *first,
                      size_t size, size_t n)
{
    if (!set->tool_version)
        pb_rs_fact(set, NULL, "flag.no_version", "no version found");
    pb_fio_flag_jobs(set, first, size, n);
}

void pb_fio_copy_facts(struct pb_resultset *set,
                       const struct pb_resultset *from)
{
    for (size_t i = 0; i < from->nfacts; i++)
        pb_rs_fact(set, from->facts[i].host, from->facts[i].key,
                   from->facts[i].value);
}

void pb_fio_flag_end(struct pb_resultset *set, const struct pb_resultset *imp)
{
    if (!set->tool_version)
        pb_rs_fact(set, NULL, "flag.no_version", "no version found");
    pb_fio_copy_facts(set, imp);
}
