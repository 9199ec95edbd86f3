/* fio JSON output (--output-format=json, json+, json,normal; local "jobs"
 * and client/server "client_stats"; fio 2.1 to 3.x) into a result set.
 *
 * Which data directions are emitted, per job entry:
 *   - read, write, trim: when the direction did I/O (total_ios > 0 or its
 *     io bytes > 0), OR when the job's rw says it does that direction
 *     (read/randread: read; write/randwrite: write; trim/randtrim: trim;
 *     rw/readwrite/randrw: read+write; trimwrite/randtrimwrite:
 *     trim+write). A write-only job gets no read rows.
 *   - mixed (unified_rw_reporting): only when it did I/O.
 *   - A direction emitted without I/O gets iops/bw/bytes = 0 and NULL
 *     latencies and runtime ("no I/O in this direction"): a 0 ns latency
 *     would be a fake value. slat is left out when fio did not measure it
 *     (N = 0, or all zero in fio 2.x: sync engines).
 *   - Entries with "error" != 0 and no I/O are skipped; a file where
 *     nothing is left is rejected, naming the first failed job.
 *
 * numjobs clones without group_reporting (consecutive entries with the same
 * jobname, host, groupid and options, numjobs > 1) get job "<name>#<k>"
 * (k = 0..), plus an aggregate with job "<name>": iops, bw, bytes summed;
 * lat/clat/slat means weighted by I/O count (bytes on fio 2.1); clat_max
 * the largest; runtime the longest; CPU weighted by job_runtime (a plain
 * mean before fio 3.14), as fio's group_reporting does. No percentiles:
 * they cannot be derived.

 *
 * Client/server: host = the entry's "hostname" ("hostname:port" when two
 * entries share a hostname on different ports); fio's "All clients" entry
 * gets host "(all clients)" and the job, config and test of the clients
 * when those agree.
 */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== small helpers ==== */

#define SNIFF_SCAN ((size_t)8192)

enum { D_READ, D_WRITE, D_TRIM, D_MIXED, D_N };

static const char *const dir_name[D_N] = {"read", "write", "trim", "mixed"};

#define M_READ  (1u << D_READ)
#define M_WRITE (1u << D_WRITE)
#define M_TRIM  (1u << D_TRIM)

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

/* A finite number stored under key, or NAN. */
static double num(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    if (!json_is_number(v))
        return NAN;
    double d = json_number_value(v);
    return isfinite(d) ? d : NAN;
}

static const char *str(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static double or0(double v)
{
    return isnan(v) ? 0 : v;
}

/* 1-based line and column of byte offset off in buf. */
static void line_col(const char *buf, size_t off, long *line, long *col)
{
    long l = 1;
    size_t bol = 0;
    for (size_t i = 0; i < off; i++) {
        if (buf[i] == '\n') {
            l++;
            bol = i + 1;
        }
    }
    *line = l;
    *col = (long)(off - bol) + 1;
}

/* Offset of the first '{' that is the first non-blank char of a line, or
 * (size_t)-1. */
static size_t find_json_start(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && (buf[j] == ' ' || buf[j] == '\t' || buf[j] == '\r'))
            j++;
        if (j < len && buf[j] == '{')
            return j;
        const char *nl = memchr(buf + j, '\n', len - j);
        if (!nl)
            break;
        i = (size_t)(nl - buf) + 1;
    }
    return (size_t)-1;
}

/* ==== sniff ==== */

static int fio_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    size_t start = find_json_start(buf, len);
    if (start == (size_t)-1)
        return 0;
    const char *p = buf + start;
    size_t n = len - start;
    if (pb_contains(p, n, "\"fio version\""))
        return 90;
    if (pb_contains(p, n, "\"jobname\"") &&
        (pb_contains(p, n, "\"jobs\"") ||
         pb_contains(p, n, "\"client_stats\"")))
        return 40;
    return 0;
}

/* ==== one job entry ==== */

struct dstat {
    int present;    /* the direction object exists */
    double ios;     /* NAN: unknown (fio 2.1 has no total_ios) */
    double bytes;   /* B */
    double bw;      /* B/s */
    double iops;    /* ops/s */
    double runtime; /* ns */
    double lat_mean, clat_mean, slat_mean, clat_max; /* ns; NAN: none */
    double pct[NPCT];                                /* ns; NAN: none */
};

struct stats {
    struct dstat d[D_N];
    double usr_cpu, sys_cpu, job_runtime;
};

struct entry {
    json_t *obj; /* borrowed from the document */
    const char *name;
    const char *hostname;
    double port;
    int is_agg; /* fio's "All clients" */
    double error;
    int usable;
    struct stats st;
    /* filled when building tests */
    const char *host;
    size_t config, test;
    unsigned rwmask;
    int have_test;
};

static int dir_has_io(const struct dstat *d)
{
    return d->present && ((d->ios > 0) || (d->bytes > 0));
}

/* A failed job may count the I/O that failed (total_ios 1, 0 bytes). */
static int stats_moved_data(const struct stats *s)
{
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present && s->d[i].bytes > 0)
            return 1;
    return 0;
}

/* Mean of a latency object in ns, or NAN when fio did not measure it. */
static double lat_mean(const json_t *o, double mult)
{
    if (!json_is_object(o))
        return NAN;
    double n = num(o, "N"), mean = num(o, "mean"), max = num(o, "max");
    if (isnan(mean))
        return NAN;
    if (!isnan(n) && n == 0)
        return NAN;
    if (isnan(n) && mean == 0 && or0(max) == 0)
        return NAN;
    return mean * mult;
}

/* The latency object `base`_ns (ns) or `base` (fio 2.x, usec). */
static const json_t *lat_obj(const json_t *dir, const char *base, double *mult)
{
    char key[16];
    snprintf(key, sizeof(key), "%s_ns", base);
    const json_t *o = json_object_get(dir, key);
    if (json_is_object(o)) {
        *mult = 1;
        return o;
    }
    o = json_object_get(dir, base);
    *mult = 1000;
    return json_is_object(o) ? o : NULL;
}

static void read_percentiles(const json_t *clat, double mult, struct dstat *d)
{
    const json_t *p =
        json_is_object(clat) ? json_object_get(clat, "percentile") : NULL;
    if (!json_is_object(p))
        return;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)p, key, val)
    {
        char *end;
        double k = strtod(key, &end);
        if (end == key || !(k > 0) || !json_is_number(val))
            continue; /* fio 2.1.4 pads with bogus "0.00" keys */
        double v = json_number_value(val);
        if (!isfinite(v))
            continue;
        for (size_t i = 0; i < NPCT; i++)
            if (fabs(k - pcts[i].pct) < 1e-6)
                d->pct[i] = v * mult;
    }
}

static void read_dir(const json_t *o, struct dstat *d)
{
    d->ios = d->bytes = d->bw = d->iops = d->runtime = NAN;
    d->lat_mean = d->clat_mean = d->slat_mean = d->clat_max = NAN;
    for (size_t i = 0; i < NPCT; i++)
        d->pct[i] = NAN;
    if (!json_is_object(o))
        return;
    d->present = 1;
    d->ios = num(o, "total_ios");
    double io = num(o, "io_bytes");
    /* fio 3.x: io_bytes in bytes next to io_kbytes; 2.x: KiB only */
    d->bytes = json_object_get(o, "io_kbytes") ? io : io * 1024;
    d->bw = num(o, "bw_bytes");
    if (isnan(d->bw))
        d->bw = num(o, "bw") * 1024;
    d->iops = num(o, "iops");
    d->runtime = num(o, "runtime") * 1e6; /* ms */

    double mult;
    const json_t *lat = lat_obj(o, "lat", &mult);
    d->lat_mean = lat_mean(lat, mult);
    const json_t *slat = lat_obj(o, "slat", &mult);
    d->slat_mean = lat_mean(slat, mult);
    const json_t *clat = lat_obj(o, "clat", &mult);
    d->clat_mean = lat_mean(clat, mult);
    if (!isnan(d->clat_mean))
        d->clat_max = num(clat, "max") * mult;
    read_percentiles(clat, mult, d);
}

static void read_entry(json_t *obj, size_t idx, struct entry *e,
                       struct pb_resultset *set)
{
    e->obj = obj;
    e->name = str(obj, "jobname");
    if (!e->name || !*e->name)
        e->name = pb_arena_printf(&set->arena, "job%zu", idx + 1);
    e->is_agg =
        json_object_get(obj, "hostname") && !strcmp(e->name, "All clients");
    e->hostname = str(obj, "hostname");
    e->port = num(obj, "port");
    e->error = num(obj, "error");
    for (int i = 0; i < D_N; i++)
        read_dir(json_object_get(obj, dir_name[i]), &e->st.d[i]);
    e->st.usr_cpu = num(obj, "usr_cpu");
    e->st.sys_cpu = num(obj, "sys_cpu");
    e->st.job_runtime = num(obj, "job_runtime");
    int failed = !isnan(e->error) && e->error != 0 && !stats_moved_data(&e->st);
    int anything = !isnan(e->st.usr_cpu) || !isnan(e->st.sys_cpu);
    for (int i = 0; i < D_N; i++)
        anything |= e->st.d[i].present;
    e->usable = !failed && anything;
}

/* ==== options and tests ==== */

struct ctx {
    const char *path;
    const char *buf; /* whole file */
    size_t start;    /* offset of the JSON document */
    size_t jlen;     /* its length in buf */
    struct pb_resultset *set;
    struct pb_err *err;
    const json_t *global;
    struct entry *e;
    size_t ne;
    const char *arrname; /* "jobs" or "client_stats" */
};

/* Job option `key`, the job's own value winning over "global options". */
static const char *opt(const struct ctx *c, const struct entry *e,
                       const char *key)
{
    const char *v = str(json_object_get(e->obj, "job options"), key);
    return v ? v : str(c->global, key);
}

static const char *opt2(const struct ctx *c, const struct entry *e,
                        const char *key, const char *alias)
{
    const char *v = opt(c, e, key);
    return v ? v : opt(c, e, alias);
}

static int has_opts(const struct ctx *c, const struct entry *e)
{
    return json_is_object(json_object_get(e->obj, "job options")) ||
           (json_is_object(c->global) && json_object_size(c->global) > 0);
}

/* Plain non-negative number such as "4" or "01"; -1 otherwise. */
static double int_opt(const char *s)
{
    if (!s)
        return -1;
    char *end;
    double v = strtod(s, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    if (end == s || *end || !isfinite(v) || v < 0)
        return -1;
    return v;
}

/* fio sizes: "4k", "4GB" (binary), "50000Mi" (pb_parse_size wants MiB). */
static int parse_fio_size(const char *s, double *out)
{
    if (pb_parse_size(s, 0, out) == 0)
        return 0;
    size_t n = strlen(s);
    if (n > 1 && n < 60 && s[n - 1] == 'i') {
        char tmp[64];
        snprintf(tmp, sizeof(tmp), "%sB", s);
        return pb_parse_size(tmp, 0, out);
    }
    return -1;
}

static unsigned rw_mask(const char *rw)
{
    static const struct {
        const char *name;
        unsigned mask;
    } t[] = {
        {"read", M_READ},
        {"randread", M_READ},
        {"write", M_WRITE},
        {"randwrite", M_WRITE},
        {"trim", M_TRIM},
        {"randtrim", M_TRIM},
        {"rw", M_READ | M_WRITE},
        {"readwrite", M_READ | M_WRITE},
        {"randrw", M_READ | M_WRITE},
        {"trimwrite", M_TRIM | M_WRITE},
        {"randtrimwrite", M_TRIM | M_WRITE},
    };
    for (size_t i = 0; rw && i < sizeof(t) / sizeof(t[0]); i++)
        if (!strcmp(rw, t[i].name))
            return t[i].mask;
    return 0;
}

/* fio's bs list: reads,writes,trims; a value not followed by a comma
 * applies to the types after it, an empty one means the default. */
static void split_bs(const char *s, char out[3][64])
{
    for (int i = 0; i < 3; i++)
        strcpy(out[i], "4096");
    int k = 0;
    const char *p = s;
    while (k < 3) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n >= 64)
            n = 63;
        if (n > 0) {
            char v[64];
            memcpy(v, p, n);
            v[n] = '\0';
            double b;
            if (parse_fio_size(v, &b) == 0)
                pb_fmt_num(b, v, sizeof(v));
            for (int j = k; j < (comma ? k + 1 : 3); j++)
                strcpy(out[j], v);
        }
        if (!comma)
            break;
        p = comma + 1;
        k++;
    }
}

static void short_size(const char *bytes, char *buf, size_t n)
{
    double b;
    if (int_opt(bytes) >= 0 && pb_parse_size(bytes, 0, &b) == 0)
        pb_fmt_size(b, buf, n);
    else
        snprintf(buf, n, "%s", bytes);
}

/* The rw of an entry without any options (fio 2.1): what it did. */
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

static void build_test(struct ctx *c, struct entry *e)
{
    struct pb_resultset *set = c->set;
    struct pb_buf name = PB_BUF_INIT;
    char num_s[64], sz[64];
    int known = has_opts(c, e);

    /* rw */
    char rw[32] = "";
    const char *v = opt2(c, e, "rw", "readwrite");
    if (v) {
        size_t n = strcspn(v, ":");
        if (n >= sizeof(rw))
            n = sizeof(rw) - 1;
        for (size_t i = 0; i < n; i++)
            rw[i] = (char)tolower((unsigned char)v[i]);
        rw[n] = '\0';
        if (!strcmp(rw, "readwrite"))
            strcpy(rw, "rw");
    } else if (known) {
        strcpy(rw, "read"); /* fio's default */
    } else if (rw_from_io(&e->st)) {
        strcpy(rw, rw_from_io(&e->st));
    }
    e->rwmask = rw_mask(rw);
    int mixed = !strcmp(rw, "rw") || !strcmp(rw, "randrw");

    /* bs: the size of the first direction the job does (read, write,
     * trim); bs_write / bs_trim when those differ */
    char bs[3][64], *bsmain = NULL;
    int have_bs = 0;
    v = opt2(c, e, "bs", "blocksize");
    if (v || known) {
        split_bs(v ? v : "4096", bs);
        have_bs = 1;
        int first = (e->rwmask & M_READ)    ? 0
                    : (e->rwmask & M_WRITE) ? 1
                    : (e->rwmask & M_TRIM)  ? 2
                                            : 0;
        bsmain = bs[first];
    }

    double iodepth = int_opt(opt(c, e, "iodepth"));
    if (iodepth < 0 && known && !opt(c, e, "iodepth"))
        iodepth = 1;
    double numjobs = int_opt(opt(c, e, "numjobs"));
    if (numjobs < 0 && known && !opt(c, e, "numjobs"))
        numjobs = 1;
    double rwmix = -1;
    if (mixed) {
        rwmix = int_opt(opt(c, e, "rwmixread"));
        if (rwmix < 0 && int_opt(opt(c, e, "rwmixwrite")) >= 0)
            rwmix = 100 - int_opt(opt(c, e, "rwmixwrite"));
        if (rwmix < 0 || rwmix > 100)
            rwmix = 50;
    }
    double fsync = int_opt(opt(c, e, "fsync"));
    double direct = int_opt(opt(c, e, "direct"));
    if (direct < 0 && int_opt(opt(c, e, "buffered")) >= 0)
        direct = int_opt(opt(c, e, "buffered")) == 0;
    int write_differs =
        have_bs && (e->rwmask & M_WRITE) && strcmp(bs[1], bsmain) != 0;
    int trim_differs =
        have_bs && (e->rwmask & M_TRIM) && strcmp(bs[2], bsmain) != 0;

    /* name */
    pb_buf_puts(&name, "fio");
    if (*rw)
        pb_buf_printf(&name, " %s", rw);
    if (have_bs) {
        short_size(bsmain, sz, sizeof(sz));
        pb_buf_printf(&name, " bs=%s", sz);
        if (write_differs) {
            short_size(bs[1], sz, sizeof(sz));
            pb_buf_printf(&name, " bs_write=%s", sz);
        }
        if (trim_differs) {
            short_size(bs[2], sz, sizeof(sz));
            pb_buf_printf(&name, " bs_trim=%s", sz);
        }
    }
    if (iodepth >= 0)
        pb_buf_printf(&name, " iodepth=%s",
                      pb_fmt_num(iodepth, num_s, sizeof(num_s)));
    if (!known)
        pb_buf_printf(&name, " job=%s", e->name);
    if (numjobs > 1)
        pb_buf_printf(&name, " numjobs=%s",
                      pb_fmt_num(numjobs, num_s, sizeof(num_s)));
    if (mixed)
        pb_buf_printf(&name, " rwmixread=%s",
                      pb_fmt_num(rwmix, num_s, sizeof(num_s)));
    if (fsync > 0)
        pb_buf_printf(&name, " fsync=%s",
                      pb_fmt_num(fsync, num_s, sizeof(num_s)));
    if (direct > 0)
        pb_buf_puts(&name, " direct=1");

    size_t t = pb_rs_test(set, pb_buf_str(&name), "fio");
    pb_buf_release(&name);

    /* params */
    if (*rw)
        pb_rs_test_param(set, t, "rw", rw);
    if (have_bs) {
        pb_rs_test_param(set, t, "bs", bsmain);
        if (write_differs)
            pb_rs_test_param(set, t, "bs_write", bs[1]);
        if (trim_differs)
            pb_rs_test_param(set, t, "bs_trim", bs[2]);
    }
    if (iodepth >= 0)
        pb_rs_test_param(set, t, "iodepth",
                         pb_fmt_num(iodepth, num_s, sizeof(num_s)));
    if (numjobs >= 0)
        pb_rs_test_param(set, t, "numjobs",
                         pb_fmt_num(numjobs, num_s, sizeof(num_s)));
    if (mixed)
        pb_rs_test_param(set, t, "rwmixread",
                         pb_fmt_num(rwmix, num_s, sizeof(num_s)));
    if (direct >= 0)
        pb_rs_test_param(set, t, "direct", direct > 0 ? "1" : "0");
    if (fsync >= 0)
        pb_rs_test_param(set, t, "fsync",
                         pb_fmt_num(fsync, num_s, sizeof(num_s)));
    if ((v = opt(c, e, "sync")) != NULL) {
        char low[64];
        size_t i = 0;
        for (; v[i] && i < sizeof(low) - 1; i++)
            low[i] = (char)tolower((unsigned char)v[i]);
        low[i] = '\0';
        pb_rs_test_param(set, t, "sync", low);
    }
    if ((v = opt(c, e, "ioengine")) != NULL)
        pb_rs_test_param(set, t, "ioengine", v);
    if ((v = opt(c, e, "size")) != NULL) {
        double b;
        if (parse_fio_size(v, &b) == 0)
            v = pb_fmt_num(b, num_s, sizeof(num_s));
        pb_rs_test_param(set, t, "size", v);
    }
    if ((v = opt2(c, e, "runtime", "timeout")) != NULL) {
        double ns;
        if (pb_parse_duration(v, 1e9, &ns) == 0)
            v = pb_fmt_num(ns, num_s, sizeof(num_s));
        pb_rs_test_param(set, t, "runtime", v);
    }

    e->test = t;
    e->config = pb_rs_config(set, e->name);
    e->have_test = 1;
}

/* ==== emitting results ==== */

static void add(struct ctx *c, const struct entry *e, const char *job,
                const char *dir, const char *metric, const char *unit,
                int direction, double v, const char *null_reason)
{
    char m[64];
    if (dir)
        snprintf(m, sizeof(m), "%s_%s", dir, metric);
    else
        snprintf(m, sizeof(m), "%s", metric);
    if (null_reason)
        pb_rs_add_null(c->set, e->config, e->test, e->host, job, m, unit,
                       direction, null_reason);
    else if (isfinite(v)) /* absent, or overflowed in unit conversion */
        pb_rs_add(c->set, e->config, e->test, e->host, job, m, unit, direction,
                  v);
}

static void emit(struct ctx *c, const struct entry *e, const char *job,
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

/* io-weighted mean accumulator */
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

/* Combine n clone entries into one set of stats (see the file header). */
static void aggregate(const struct entry *e, size_t n, struct stats *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < D_N; i++) {
        struct dstat *a = &out->d[i];
        struct wmean lat = {0, 0}, clat = {0, 0}, slat = {0, 0};
        a->ios = a->bytes = a->bw = a->iops = 0;
        a->runtime = a->clat_max = NAN;
        for (size_t k = 0; k < NPCT; k++)
            a->pct[k] = NAN;
        int known_ios = 1;
        for (size_t j = 0; j < n; j++) {
            const struct dstat *d = &e[j].st.d[i];
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
            if (!dir_has_io(d))
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
    }
    struct wmean usr = {0, 0}, sys = {0, 0};
    int weighted = 1;
    for (size_t j = 0; j < n; j++)
        if (!(e[j].st.job_runtime > 0))
            weighted = 0;
    for (size_t j = 0; j < n; j++) {
        double w = weighted ? e[j].st.job_runtime : 1;
        wm_add(&usr, e[j].st.usr_cpu, w);
        wm_add(&sys, e[j].st.sys_cpu, w);
    }
    out->usr_cpu = wm_get(&usr);
    out->sys_cpu = wm_get(&sys);
    out->job_runtime = NAN;
}

/* ==== hosts (client/server) ==== */

static void assign_hosts(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        struct entry *e = &c->e[i];
        if (e->is_agg) {
            e->host = "(all clients)";
            continue;
        }
        if (!e->hostname)
            continue;
        e->host = e->hostname;
        for (size_t j = 0; j < c->ne; j++) {
            const struct entry *o = &c->e[j];
            if (j == i || o->is_agg || !o->hostname ||
                strcmp(o->hostname, e->hostname) != 0)
                continue;
            if (!(o->port == e->port) && !isnan(e->port)) {
                e->host = pb_arena_printf(&c->set->arena, "%s:%.0f",
                                          e->hostname, e->port);
                break;
            }
        }
    }
}

static int same_str(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Clones of one numjobs job: same name, host, group and options, and
 * numjobs > 1 unless fio printed no options (2.1). Sections repeated under
 * one name with stonewall differ in groupid: they ran one after another. */
static int is_clone(const struct ctx *c, const struct entry *a,
                    const struct entry *b)
{
    if (a->is_agg || b->is_agg || strcmp(a->name, b->name) != 0 ||
        !same_str(a->host, b->host))
        return 0;
    double ga = num(a->obj, "groupid"), gb = num(b->obj, "groupid");
    if (!(ga == gb) && !(isnan(ga) && isnan(gb)))
        return 0;
    if (has_opts(c, a) && !(int_opt(opt(c, a, "numjobs")) > 1))
        return 0;
    const json_t *oa = json_object_get(a->obj, "job options");
    const json_t *ob = json_object_get(b->obj, "job options");
    if (!oa || !ob)
        return !oa && !ob;
    return json_equal((json_t *)oa, (json_t *)ob);
}

/* The "All clients" entry takes the job, config and test of the client
 * entries before it when they all agree. */
static const char *resolve_aggregate(struct ctx *c, size_t idx)
{
    struct entry *a = &c->e[idx];
    const struct entry *first = NULL;
    int agree = 1;
    for (size_t j = idx; j-- > 0;) {
        const struct entry *o = &c->e[j];
        if (o->is_agg)
            break;
        if (!o->usable || !o->have_test)
            continue;
        if (!first)
            first = o;
        else if (strcmp(o->name, first->name) != 0 || o->test != first->test ||
                 o->config != first->config)
            agree = 0;
    }
    if (first && agree) {
        a->config = first->config;
        a->test = first->test;
        a->rwmask = first->rwmask;
        a->have_test = 1;
        return first->name;
    }
    a->config = pb_rs_config(c->set, a->name);
    a->test = pb_rs_test(c->set, "fio all clients", "fio");
    a->rwmask = 0;
    a->have_test = 1;
    return a->name;
}

/* ==== errors ==== */

/* Offset of the nth (0-based) key `"name"` (a string followed by ':') in
 * the document, or (size_t)-1. A quote inside a string is escaped, so
 * string values cannot fake a key. */
static size_t find_key(const struct ctx *c, const char *name, size_t nth)
{
    const char *p = c->buf + c->start, *end = p + c->jlen;
    size_t n = strlen(name);
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            break;
        p = q + 1;
        if ((size_t)(end - p) < n + 1 || memcmp(p, name, n) != 0 || p[n] != '"')
            continue;
        const char *r = p + n + 1;
        while (r < end && isspace((unsigned char)*r))
            r++;
        if (r < end && *r == ':' && nth-- == 0)
            return (size_t)(q - c->buf);
    }
    return (size_t)-1;
}

/* Where entry idx's "error" key is, for the message about it: fio writes
 * that key only once per entry. */
static void locate_error(const struct ctx *c, size_t idx, long *line, long *col)
{
    size_t nth = 0;
    for (size_t i = 0; i < idx; i++)
        if (json_object_get(c->e[i].obj, "error"))
            nth++;
    size_t off = find_key(c, "error", nth);
    if (off == (size_t)-1)
        off = c->start;
    line_col(c->buf, off, line, col);
}

static int json_error(const struct ctx *c, const json_error_t *je)
{
    const char *buf = c->buf;
    long line, col;
    int truncated = json_error_code(je) == json_error_premature_end_of_input ||
                    (je->position >= 0 && (size_t)je->position >= c->jlen);
    if (truncated) {
        /* where the text stops */
        size_t end = c->start + c->jlen;
        while (end > c->start && isspace((unsigned char)buf[end - 1]))
            end--;
        line_col(buf, end > c->start ? end - 1 : c->start, &line, &col);
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "truncated JSON: %s", je->text);
    }
    long l0, c0;
    line_col(buf, c->start, &l0, &c0);
    line = je->line > 0 ? l0 + je->line - 1 : l0;
    col = je->column > 0 ? je->column : 0;
    if (je->line == 1 && col > 0)
        col += c0 - 1;
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col, "invalid JSON: %s",
                      je->text);
}

static int no_json(const char *path, const char *buf, size_t len,
                   struct pb_err *err)
{
    const char *p = pb_skip_ws(buf, buf + len);
    if (p == buf + len)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          len ? "file holds only white space" : "empty file");
    long line, col;
    line_col(buf, (size_t)(p - buf), &line, &col);
    size_t n = 0;
    while (n < 120 && p + n < buf + len && p[n] != '\n' && p[n] != '\r')
        n++;
    if (n == 120) /* do not cut a UTF-8 sequence */
        while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
            n--;
    char first[128];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)p[i];
        first[k++] = (ch >= 0x80 || isprint(ch)) ? p[i] : '?';
    }
    first[k] = '\0';
    return pb_err_set(err, PB_EINPUT, path, line, 0,
                      "no JSON object found (first line: \"%s\")", first);
}

/* ==== parse ==== */

static int emit_all(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++)
        if (c->e[i].usable && !c->e[i].is_agg)
            build_test(c, &c->e[i]);
    for (size_t i = 0; i < c->ne;) {
        struct entry *e = &c->e[i];
        if (!e->usable) {
            i++;
            continue;
        }
        if (e->is_agg) {
            const char *job = resolve_aggregate(c, i);
            emit(c, e, job, &e->st, 0);
            i++;
            continue;
        }
        size_t n = 1;
        while (i + n < c->ne && c->e[i + n].usable &&
               is_clone(c, e, &c->e[i + n]))
            n++;
        if (n == 1) {
            emit(c, e, e->name, &e->st, 0);
        } else {
            for (size_t k = 0; k < n; k++) {
                char *job = pb_xasprintf("%s#%zu", e->name, k);
                emit(c, &c->e[i + k], job, &c->e[i + k].st, 0);
                free(job);
            }
            struct stats agg;
            aggregate(e, n, &agg);
            emit(c, e, e->name, &agg, 1);
        }
        i += n;
    }
    return PB_OK;
}

static int no_results(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (!isnan(e->error) && e->error != 0 && !stats_moved_data(&e->st)) {
            long line, col;
            locate_error(c, i, &line, &col);
            return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                              "job \"%s\" failed with error %.0f and did "
                              "no I/O",
                              e->name, e->error);
        }
    }
    long line, col;
    line_col(c->buf, c->start, &line, &col);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                      "no usable job in \"%s\"", c->arrname);
}

static int fio_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    struct ctx c = {0};
    c.path = path;
    c.buf = buf;
    c.set = set;
    c.err = err;
    c.start = find_json_start(buf, len);
    if (c.start == (size_t)-1)
        return no_json(path, buf, len, err);
    c.jlen = len - c.start;

    json_error_t je;
    memset(&je, 0, sizeof(je));
    json_t *root = json_loadb(
        buf + c.start, c.jlen,
        JSON_DISABLE_EOF_CHECK | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &je);
    if (!root)
        return json_error(&c, &je);

    /* anything after the document may be text (json,normal) but not a
     * second document (runs appended to one file) */
    size_t used = je.position > 0 ? (size_t)je.position : 0;
    if (used < c.jlen) {
        size_t rest = c.start + used;
        size_t second = find_json_start(buf + rest, len - rest);
        if (second != (size_t)-1) {
            long line, col;
            line_col(buf, rest + second, &line, &col);
            json_decref(root);
            return pb_err_set(err, PB_EINPUT, path, line, col,
                              "a second JSON document starts here; one "
                              "fio run per file");
        }
    }

    int rc = PB_OK;
    long l0, c0;
    line_col(buf, c.start, &l0, &c0);
    const json_t *arr = json_object_get(root, "jobs");
    c.arrname = "jobs";
    if (!json_is_array(arr)) {
        arr = json_object_get(root, "client_stats");
        c.arrname = "client_stats";
    }
    if (!json_is_object(root) || !json_is_array(arr)) {
        rc = pb_err_set(err, PB_EINPUT, path, l0, c0,
                        "not fio output: no \"jobs\" or \"client_stats\" "
                        "array");
        goto out;
    }
    const char *version = str(root, "fio version");
    if (version) {
        set->tool_version = pb_rs_str(set, version);
        pb_rs_fact(set, NULL, "fio_version", version);
    }
    c.global = json_object_get(root, "global options");
    if (!json_is_object(c.global))
        c.global = NULL;

    c.ne = 0;
    c.e = pb_xcalloc(json_array_size(arr) + 1, sizeof(*c.e));
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *o = json_array_get(arr, i);
        if (!json_is_object(o))
            continue;
        read_entry(o, i, &c.e[c.ne++], set);
    }
    assign_hosts(&c);
    size_t before = set->nresults;
    rc = emit_all(&c);
    if (rc == PB_OK && set->nresults == before)
        rc = no_results(&c);
    free(c.e);
out:
    json_decref(root);
    return rc;
}

const struct pb_parser pb_parser_fio_json = {"fio-json", fio_sniff, fio_parse};
