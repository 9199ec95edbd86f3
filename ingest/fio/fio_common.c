/* What the fio parsers (fio_json.c, fio_text.c, fio_terse.c) share: the
 * test named from a job's options, the results emitted for a job, and the
 * aggregate of numjobs clones. Each parser only reads its format.
 *
 * Tests: "fio <rw> bs=<bs> iodepth=N numjobs=N rwmixread=N fsync=N
 * direct=1" (the parts that apply), with parameters rw, bs (bs_write /
 * bs_trim when those differ), iodepth, numjobs, rwmixread, direct, fsync,
 * sync, ioengine, size, runtime, and every other option of the job but
 * those that do not change the workload (fio_ident.c); the options that
 * differ between the file's jobs are added to the name ("...
 * buffer_compress_percentage=50"). A job whose options are unknown (fio
 * 2.1 JSON, terse, text without header or command line) is named by what
 * it did: "fio <rw done> job=<name>".
 *
 * Which data directions are emitted, per job:
 *   - read, write, trim: when the direction did I/O, OR when the job's rw
 *     says it does that direction (read/randread: read; write/randwrite:
 *     write; trim/randtrim: trim; rw/readwrite/randrw: read+write;
 *     trimwrite/randtrimwrite: trim+write). A write-only job gets no read
 *     rows.
 *   - mixed (unified_rw_reporting): only when it did I/O.
 *   - A direction emitted without I/O gets iops/bw/bytes = 0 and NULL
 *     latencies and runtime ("no I/O in this direction"): a 0 ns latency
 *     would be a fake value. slat is left out when fio did not measure it.
 *
 * The results of a job and its clones are emitted by fio_emit.c.
 *
 * numjobs clones (each parser says how it recognises them) get job
 * "<name>#<k>" (k = 0..), plus an aggregate with job "<name>": iops, bw,
 * bytes summed; lat/clat/slat means weighted by I/O count (bytes when the
 * count is unknown); clat_max the largest; runtime the longest; CPU
 * weighted by job_runtime (a plain mean when one is unknown), as fio's
 * group_reporting does. Percentiles only when every clone has json+ bins
 * (fio_bins.c): from their sum, as group_reporting computes them; else
 * none, as they cannot be derived from the clones' percentiles.
 */
#include "ingest/fio/fio_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pb_fio_dir_name[D_N] = {"read", "write", "trim", "mixed"};

const struct pb_fio_pct pb_fio_pcts[FIO_NPCT] = {
    {50.0, "clat_p50"},
    {95.0, "clat_p95"},
    {99.0, "clat_p99"},
    {99.9, "clat_p99.9"},
};

/* ==== one job ==== */

void pb_fio_dstat_init(struct pb_fio_dstat *d)
{
    memset(d, 0, sizeof(*d));
    d->ios = d->bytes = d->bw = d->iops = d->runtime = NAN;
    d->lat_mean = d->clat_mean = d->slat_mean = d->clat_max = NAN;
    for (size_t i = 0; i < FIO_NPCT; i++)
        d->pct[i] = NAN;
}

void pb_fio_stats_init(struct pb_fio_stats *s, int iops_io)
{
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < D_N; i++)
        pb_fio_dstat_init(&s->d[i]);
    s->usr_cpu = s->sys_cpu = s->job_runtime = NAN;
    s->iops_io = iops_io;
}

void pb_fio_set_pct(struct pb_fio_dstat *d, double pct, double ns)
{
    for (size_t i = 0; i < FIO_NPCT; i++)
        if (fabs(pct - pb_fio_pcts[i].pct) < 1e-6)
            d->pct[i] = ns;
}

int pb_fio_has_io(const struct pb_fio_stats *s, int d)
{
    const struct pb_fio_dstat *x = &s->d[d];
    return x->present &&
           ((x->ios > 0) || (x->bytes > 0) || (s->iops_io && x->iops > 0));
}

int pb_fio_moved_data(const struct pb_fio_stats *s)
{
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present && s->d[i].bytes > 0)
            return 1;
    return 0;
}

int pb_fio_any_dir(const struct pb_fio_stats *s)
{
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present)
            return 1;
    return 0;
}

double pb_fio_longest_runtime(const struct pb_fio_stats *s)
{
    double r = NAN;
    for (int i = 0; i < D_N; i++)
        if (s->d[i].present && s->d[i].runtime > 0 && !(s->d[i].runtime <= r))
            r = s->d[i].runtime;
    return r;
}

/* The rw of a job without options: what it did. */
static const char *rw_from_io(const struct pb_fio_stats *s)
{
    int r = pb_fio_has_io(s, D_READ), w = pb_fio_has_io(s, D_WRITE),
        t = pb_fio_has_io(s, D_TRIM);
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

/* ==== options ==== */

static const char *get2(const char *(*get)(const void *ctx, const char *key),
                        const void *ctx, const char *key, const char *alias)
{
    const char *v = get(ctx, key);
    return v ? v : get(ctx, alias);
}

void pb_fio_read_opts(struct pb_fio_opts *o,
                      const char *(*get)(const void *ctx, const char *key),
                      const void *ctx)
{
    o->rw = get2(get, ctx, "rw", "readwrite");
    o->bs = get2(get, ctx, "bs", "blocksize");
    o->iodepth = get(ctx, "iodepth");
    o->numjobs = get(ctx, "numjobs");
    o->rwmixread = get(ctx, "rwmixread");
    o->rwmixwrite = get(ctx, "rwmixwrite");
    o->fsync = get(ctx, "fsync");
    o->direct = get(ctx, "direct");
    o->buffered = get(ctx, "buffered");
    o->sync = get(ctx, "sync");
    o->ioengine = get(ctx, "ioengine");
    o->size = get(ctx, "size");
    o->runtime = get2(get, ctx, "runtime", "timeout");
}

double pb_fio_int_opt(const char *s)
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

/* pb_parse_size wants "50000MiB" for fio's "50000Mi" */
/* fio sizes: "4k", "4GB" (binary), "50000Mi". 0, or -1 when s is not one. */
static int parse_size(const char *s, double *out)
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

unsigned pb_fio_rw_mask(const char *rw)
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

void pb_fio_split_bs(const char *s, char out[3][64])
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
            if (parse_size(v, &b) == 0)
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

double pb_fio_dec_shift(const char *s, int shift)
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

/* ==== job header lines ==== */

/* s[0..n) as a NUL-terminated arena string. */
static const char *astr(struct pb_resultset *set, const char *s, size_t n)
{
    return pb_arena_strndup(&set->arena, s, n);
}

/* Last occurrence of lit in s[0..n), or NULL. */
static const char *last_of(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    for (size_t i = n >= k ? n - k + 1 : 0; i-- > 0;)
        if (!memcmp(s + i, lit, k))
            return s + i;
    return NULL;
}

int pb_fio_parse_hdr(struct pb_resultset *set, const char *s, size_t n,
                     struct pb_fio_hdr *h)
{
    static const char G[] = ": (g=";
    const char *end = s + n, *g = NULL;
    for (const char *p = s; p + 5 <= end && !g; p++)
        if (!memcmp(p, G, 5))
            g = p;
    if (!g)
        return 0;
    const char *p = g + 5, *d = p;
    while (p < end && isdigit((unsigned char)*p))
        p++;
    if (p == d || p - d > 9 || end - p < 6 || memcmp(p, "): rw=", 6) != 0)
        return 0;
    memset(h, 0, sizeof(*h));
    h->groupid = strtol(d, NULL, 10);
    /* "<host> name": a client prints the server's lines so */
    if (s[0] == '<') {
        const char *gt = memchr(s, '>', (size_t)(g - s));
        if (gt && gt + 1 < g && gt[1] == ' ')
            s = gt + 2;
    }
    p += 6;
    const char *rw = p;
    while (p < end && *p >= 'a' && *p <= 'z')
        p++;
    if (p == rw)
        return 0;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    h->name = astr(set, s, (size_t)(g - s));
    h->rw = astr(set, rw, (size_t)(p - rw));
    /* from the end: ", iodepth=N", then ", ioengine=X" */
    const char *q = last_of(p, (size_t)(end - p), ", iodepth=");
    if (q) {
        const char *v = q + 10, *e = v;
        while (e < end && isdigit((unsigned char)*e))
            e++;
        if (e == end && e > v) {
            h->iodepth = astr(set, v, (size_t)(e - v));
            end = q;
        }
    }
    q = last_of(p, (size_t)(end - p), ", ioengine=");
    if (q) {
        const char *v = q + 11, *e = v;
        while (e < end && *e != ',' && !isspace((unsigned char)*e))
            e++;
        if (e == end && e > v) {
            h->ioengine = astr(set, v, (size_t)(e - v));
            end = q;
        }
    }
    if (end - p >= 5 && !memcmp(p, ", bs=", 5))
        h->bs = astr(set, p + 5, (size_t)(end - p - 5));
    else if (end > p)
        return 0; /* something else follows rw=: not a header */
    return 1;
}

/* One "min-max" block size range of a header: bytes, or "min-max". */
static void range_bs(const char *s, size_t n, char *out, size_t cap)
{
    char tmp[32];
    if (n >= sizeof(tmp))
        n = sizeof(tmp) - 1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *dash = strchr(tmp, '-');
    if (dash)
        *dash = '\0';
    double lo, hi = NAN;
    int ok = parse_size(tmp, &lo) == 0;
    if (dash)
        ok = ok && parse_size(dash + 1, &hi) == 0;
    char a[32], b[32];
    if (!ok)
        snprintf(out, cap, "%s", tmp);
    else if (!dash || hi == lo)
        snprintf(out, cap, "%s", pb_fmt_num(lo, a, sizeof(a)));
    else
        snprintf(out, cap, "%s-%s", pb_fmt_num(lo, a, sizeof(a)),
                 pb_fmt_num(hi, b, sizeof(b)));
}

void pb_fio_header_bs(const char *bs, char *out, size_t cap)
{
    char part[3][80];
    int np = 0;
    const char *p = bs;
    while (*p && np < 3) {
        while (*p == ' ' || *p == ',' || *p == '/')
            p++;
        if (p[0] == '(' && p[1] && p[2] == ')')
            p += 3;
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, ",/");
        if (n == 0)
            break;
        size_t k = n;
        while (k > 0 && p[k - 1] == ' ')
            k--;
        range_bs(p, k, part[np], sizeof(part[np]));
        np++;
        p += n;
    }
    if (np == 0) {
        out[0] = '\0';
        return;
    }
    for (int i = np; i < 3; i++)
        strcpy(part[i], part[np - 1]);
    snprintf(out, cap, "%s,%s,%s", part[0], part[1], part[2]);
}

/* ==== tests ==== */

static void short_size(const char *bytes, char *buf, size_t n)
{
    double b;
    if (pb_fio_int_opt(bytes) >= 0 && pb_parse_size(bytes, 0, &b) == 0)
        pb_fmt_size(b, buf, n);
    else
        snprintf(buf, n, "%s", bytes);
}

void pb_fio_build_test(struct pb_resultset *set, struct pb_fio_file *f,
                       const struct pb_fio_opts *o, struct pb_fio_job *j)
{
    set = pb_fio_job_set(set, f, j);
    if (j->merged) {
        pb_fio_merged_test(set, f, j);
        return;
    }
    struct pb_buf name = PB_BUF_INIT;
    char num_s[64], sz[64];
    int known = o->known;
    int defaults = known && !o->no_defaults; /* fio's defaults apply */

    /* rw */
    char rw[32] = "";
    const char *v = o->rw;
    if (v) {
        size_t n = strcspn(v, ":");
        if (n >= sizeof(rw))
            n = sizeof(rw) - 1;
        for (size_t i = 0; i < n; i++)
            rw[i] = (char)tolower((unsigned char)v[i]);
        rw[n] = '\0';
        if (!strcmp(rw, "readwrite"))
            strcpy(rw, "rw");
    } else if (defaults) {
        strcpy(rw, "read"); /* fio's default */
    } else if (rw_from_io(&j->st)) {
        strcpy(rw, rw_from_io(&j->st));
    }
    j->rwmask = pb_fio_rw_mask(rw);
    int mixed = !strcmp(rw, "rw") || !strcmp(rw, "randrw");

    /* bs: the size of the first direction the job does (read, write,
     * trim); bs_write / bs_trim when those differ */
    char bs[3][64], *bsmain = NULL;
    int have_bs = 0;
    v = o->bs;
    if (v || defaults) {
        pb_fio_split_bs(v ? v : "4096", bs);
        have_bs = 1;
        int first = (j->rwmask & M_READ)    ? 0
                    : (j->rwmask & M_WRITE) ? 1
                    : (j->rwmask & M_TRIM)  ? 2
                                            : 0;
        bsmain = bs[first];
    }

    double iodepth = pb_fio_int_opt(o->iodepth);
    if (iodepth < 0 && defaults && !o->iodepth)
        iodepth = 1;
    double numjobs = pb_fio_int_opt(o->numjobs);
    if (numjobs < 0 && defaults && !o->numjobs)
        numjobs = 1;
    /* rwmixread as stated (or 100 - rwmixwrite); fio's default 50 only
     * where the source lists every option; never the measured split */
    const char *rwmix = NULL;
    char rwmix_s[64];
    if (mixed) {
        double r = pb_fio_int_opt(o->rwmixread);
        if (r < 0 && pb_fio_int_opt(o->rwmixwrite) >= 0)
            r = 100 - pb_fio_int_opt(o->rwmixwrite);
        if ((r < 0 || r > 100) && o->rwmix_default && !o->no_defaults &&
            !o->rwmixread && !o->rwmixwrite)
            r = 50;
        if (r >= 0 && r <= 100)
            rwmix = pb_fmt_num(r, rwmix_s, sizeof(rwmix_s));
    }
    double fsync = pb_fio_int_opt(o->fsync);
    double direct = pb_fio_int_opt(o->direct);
    if (direct < 0 && pb_fio_int_opt(o->buffered) >= 0)
        direct = pb_fio_int_opt(o->buffered) == 0;
    int write_differs =
        have_bs && (j->rwmask & M_WRITE) && strcmp(bs[1], bsmain) != 0;
    int trim_differs =
        have_bs && (j->rwmask & M_TRIM) && strcmp(bs[2], bsmain) != 0;

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
        pb_buf_printf(&name, " job=%s", j->name);
    if (numjobs > 1)
        pb_buf_printf(&name, " numjobs=%s",
                      pb_fmt_num(numjobs, num_s, sizeof(num_s)));
    if (rwmix)
        pb_buf_printf(&name, " rwmixread=%s", rwmix);
    if (fsync > 0)
        pb_buf_printf(&name, " fsync=%s",
                      pb_fmt_num(fsync, num_s, sizeof(num_s)));
    if (direct > 0)
        pb_buf_puts(&name, " direct=1");

    /* params, in this order; values that are not the option's own text
     * in vals; then every other option of the job but those that do not
     * change the workload (fio_ident.c's opt_excluded), sorted by key */
    struct pb_kv *kv = pb_xcalloc(16, sizeof(*kv));
    size_t capkv = 16;
    char vals[6][64];
    size_t n = 0;
#define KV(k, v) (kv[n].key = (k), kv[n].value = (v), kv[n++].origin = NULL)
    if (*rw)
        KV("rw", rw);
    if (have_bs) {
        KV("bs", bsmain);
        if (write_differs)
            KV("bs_write", bs[1]);
        if (trim_differs)
            KV("bs_trim", bs[2]);
    }
    if (iodepth >= 0)
        KV("iodepth", pb_fmt_num(iodepth, vals[0], sizeof(vals[0])));
    if (numjobs >= 0)
        KV("numjobs", pb_fmt_num(numjobs, vals[1], sizeof(vals[1])));
    if (rwmix)
        KV("rwmixread", rwmix);
    if (direct >= 0)
        KV("direct", direct > 0 ? "1" : "0");
    if (fsync >= 0)
        KV("fsync", pb_fmt_num(fsync, vals[2], sizeof(vals[2])));
    if ((v = o->sync) != NULL) {
        char *low = vals[3];
        size_t i = 0;
        for (; v[i] && i < sizeof(vals[3]) - 1; i++)
            low[i] = (char)tolower((unsigned char)v[i]);
        low[i] = '\0';
        KV("sync", low);
    }
    if ((v = o->ioengine) != NULL)
        KV("ioengine", v);
    if ((v = o->size) != NULL) {
        double b;
        if (parse_size(v, &b) == 0)
            v = pb_fmt_num(b, vals[4], sizeof(vals[4]));
        KV("size", v);
    }
    if ((v = o->runtime) != NULL) {
        double ns;
        if (pb_parse_duration(v, 1e9, &ns) == 0)
            v = pb_fmt_num(ns, vals[5], sizeof(vals[5]));
        KV("runtime", v);
    }
#undef KV
    n = pb_fio_extra_params(set, o, &kv, n, &capkv);
    /* the options that differ between the file's jobs, when the name does
     * not show them yet */
    pb_fio_name_extras(f, kv, n, &name);
    /* jobs of one name with other parameters (ioengine, size, runtime,
     * sync, buffer_compress_percentage, ... are not in the name) are other
     * tests, as in the database */
    size_t t = pb_rs_test_kv(set, pb_buf_str(&name), "fio", kv, n);
    pb_buf_release(&name);
    free(kv);

    j->test = t;
    pb_fio_job_config(set, f, j);
}

/* ==== file-level ==== */

int pb_fio_same_str(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

int pb_fio_check_blank(const char *path, const char *buf, size_t len,
                       struct pb_err *err)
{
    if (pb_skip_ws(buf, buf + len) != buf + len)
        return PB_OK;
    return pb_err_set(err, PB_EINPUT, path, 0, 0,
                      len ? "file holds only white space" : "empty file");
}

void pb_fio_set_version(struct pb_resultset *set, const char *version)
{
    set->tool_version = pb_rs_str(set, version);
    pb_rs_fact(set, NULL, "fio_version", version);
}

void pb_fio_set_time(struct pb_resultset *set, double epoch)
{
    char b[32];
    /* from 1971 to 2999: outside, the field is not a time fio wrote */
    if (epoch >= 31536000.0 && epoch < 32503680000.0 &&
        pb_time_utc((long long)epoch, b, sizeof(b)) == 0)
        pb_rs_fact(set, NULL, "timestamp", b);
}

int pb_fio_job_failed(struct pb_err *err, const char *path, long line,
                      const char *name, long code, const char *why)
{
    if (why)
        return pb_err_set(err, PB_EINPUT, path, line, 0,
                          "job \"%s\" failed with error %ld (%s) and did no "
                          "I/O",
                          name, code, why);
    return pb_err_set(err, PB_EINPUT, path, line, 0,
                      "job \"%s\" failed with error %ld and did no I/O", name,
                      code);
}

int pb_fio_no_results(struct pb_err *err, const char *path, long errline,
                      const char *errmsg, const char *none)
{
    if (errline)
        return pb_err_set(err, PB_EINPUT, path, errline, 0,
                          "fio failed: \"%s\"", errmsg);
    return pb_err_set(err, PB_EINPUT, path, 0, 0, "%s", none);
}
