/* fio JSON output (--output-format=json, json+, json,normal; local "jobs"
 * and client/server "client_stats"; fio 2.1 to 3.x) into a result set.
 * Tests, the directions emitted and numjobs aggregates follow the rules in
 * the header comment of ingest/fio_common.c; what is particular to JSON:
 *
 *   - A direction did I/O when its total_ios > 0 or its io bytes > 0.
 *     slat is left out when fio did not measure it (N = 0, or all zero in
 *     fio 2.x: sync engines).
 *   - Entries with "error" != 0 and no I/O are skipped; a file where
 *     nothing is left is rejected, naming the first failed job.
 *   - json+ latency histograms ("bins") are read by fio_bins.c.
 *
 * numjobs clones without group_reporting (consecutive entries with the same
 * jobname, host, groupid and options, numjobs > 1) get job "<name>#<k>"
 * (k = 0..), plus an aggregate with job "<name>": lat/clat/slat means
 * weighted by I/O count (bytes on fio 2.1); CPU weighted by job_runtime (a
 * plain mean before fio 3.14), as fio's group_reporting does.
 *
 * Client/server: host = the entry's "hostname" ("hostname:port" when two
 * entries share a hostname on different ports); fio's "All clients" entry
 * gets host "(all clients)" and the job, config and test of the clients
 * when those agree.
 */
#include "ingest/fio_int.h"
#include "ingest/json_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== small helpers ==== */

#define SNIFF_SCAN ((size_t)8192)

/* A finite number stored under key, or NAN. */
static double num(const struct pb_json *d, int obj, const char *key)
{
    double v = pb_json_number(d, pb_json_get(d, obj, key));
    return isfinite(v) ? v : NAN;
}

/* A string stored under key (owned by the document), or NULL. */
static const char *str(struct pb_json *d, int obj, const char *key)
{
    return pb_json_str(d, pb_json_get(d, obj, key));
}

static int is_object(const struct pb_json *d, int v)
{
    return pb_json_type(d, v) == PB_JSON_OBJECT;
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
        /* certain when the file is the document alone: the other
         * sniffers need not look (pb_ingest_find_parser stops at 100) */
        return pb_skip_ws(buf, p) == p ? 100 : 90;
    if (pb_contains(p, n, "\"jobname\"") &&
        (pb_contains(p, n, "\"jobs\"") ||
         pb_contains(p, n, "\"client_stats\"")))
        return 40;
    return 0;
}

/* ==== one job entry ==== */

struct entry {
    struct pb_fio_job job; /* name, host, stats, test; jobname = name */
    int obj;               /* in the document */
    const char *hostname;
    double port;
    int is_agg; /* fio's "All clients" */
    int gopts;  /* its global options object, or PB_JSON_NONE */
    double error;
    int have_test; /* job.config and job.test are set */
};

/* Mean of a latency object in ns, or NAN when fio did not measure it. */
static double lat_mean(const struct pb_json *d, int o, double mult)
{
    if (!is_object(d, o))
        return NAN;
    double n = num(d, o, "N"), mean = num(d, o, "mean"),
           max = num(d, o, "max");
    if (isnan(mean))
        return NAN;
    if (!isnan(n) && n == 0)
        return NAN;
    if (isnan(n) && mean == 0 && or0(max) == 0)
        return NAN;
    return mean * mult;
}

/* The latency object `base`_ns (ns) or `base` (fio 2.x, usec). */
static int lat_obj(const struct pb_json *d, int dir, const char *base,
                   double *mult)
{
    char key[16];
    size_t n = strlen(base);
    if (n + 4 > sizeof(key))
        return PB_JSON_NONE;
    memcpy(key, base, n);
    memcpy(key + n, "_ns", 4);
    int o = pb_json_get(d, dir, key);
    if (is_object(d, o)) {
        *mult = 1;
        return o;
    }
    o = pb_json_get(d, dir, base);
    *mult = 1000;
    return is_object(d, o) ? o : PB_JSON_NONE;
}

static void read_percentiles(struct pb_json *d, int clat, double mult,
                             struct pb_fio_dstat *ds)
{
    int p = pb_json_get(d, clat, "percentile");
    for (int k = pb_json_first(d, is_object(d, p) ? p : PB_JSON_NONE);
         k != PB_JSON_NONE; k = pb_json_next(d, k)) {
        const char *key = pb_json_str(d, k);
        char *end;
        double pk = strtod(key, &end);
        double v = pb_json_number(d, pb_json_value(d, k));
        if (end == key || !(pk > 0) || !isfinite(v))
            continue; /* fio 2.1.4 pads with bogus "0.00" keys */
        pb_fio_set_pct(ds, pk, v * mult);
    }
}

static void read_dir(struct pb_json *d, int o, struct pb_fio_dstat *ds)
{
    pb_fio_dstat_init(ds);
    if (!is_object(d, o))
        return;
    ds->present = 1;
    ds->ios = num(d, o, "total_ios");
    double io = num(d, o, "io_bytes");
    /* fio 3.x: io_bytes in bytes next to io_kbytes; 2.x: KiB only */
    ds->bytes =
        pb_json_get(d, o, "io_kbytes") != PB_JSON_NONE ? io : io * 1024;
    ds->bw = num(d, o, "bw_bytes");
    if (isnan(ds->bw))
        ds->bw = num(d, o, "bw") * 1024;
    ds->iops = num(d, o, "iops");
    ds->runtime = num(d, o, "runtime") * 1e6; /* ms */

    double mult;
    int lat = lat_obj(d, o, "lat", &mult);
    ds->lat_mean = lat_mean(d, lat, mult);
    int slat = lat_obj(d, o, "slat", &mult);
    ds->slat_mean = lat_mean(d, slat, mult);
    int clat = lat_obj(d, o, "clat", &mult);
    ds->clat_mean = lat_mean(d, clat, mult);
    if (!isnan(ds->clat_mean))
        ds->clat_max = num(d, clat, "max") * mult;
    read_percentiles(d, clat, mult, ds);
}

static void read_entry(struct pb_json *d, int obj, size_t idx,
                       struct entry *e, struct pb_resultset *set)
{
    struct pb_fio_job *j = &e->job;
    struct pb_fio_stats *st = &j->st;
    e->obj = obj;
    j->name = str(d, obj, "jobname");
    if (!j->name || !*j->name)
        j->name = pb_arena_printf(&set->arena, "job%zu", idx + 1);
    j->jobname = j->name;
    e->is_agg = pb_json_get(d, obj, "hostname") != PB_JSON_NONE &&
                !strcmp(j->name, "All clients");
    e->hostname = str(d, obj, "hostname");
    e->port = num(d, obj, "port");
    e->error = num(d, obj, "error");
    pb_fio_stats_init(st, 0);
    for (int i = 0; i < D_N; i++)
        read_dir(d, pb_json_get(d, obj, pb_fio_dir_name[i]), &st->d[i]);
    st->usr_cpu = num(d, obj, "usr_cpu");
    st->sys_cpu = num(d, obj, "sys_cpu");
    st->job_runtime = num(d, obj, "job_runtime");
    int failed = !isnan(e->error) && e->error != 0 && !pb_fio_moved_data(st);
    int anything = !isnan(st->usr_cpu) || !isnan(st->sys_cpu);
    anything |= pb_fio_any_dir(st);
    j->usable = !failed && anything;
}

/* ==== options and tests ==== */

struct ctx {
    const char *path;
    const char *buf; /* whole file */
    size_t start;    /* offset of the JSON document */
    size_t jlen;     /* its length in buf */
    struct pb_resultset *set;
    struct pb_err *err;
    struct pb_json *doc;
    int global; /* "global options" (object or list), or PB_JSON_NONE */
    int clients;         /* client/server output ("client_stats") */
    size_t global_mult;  /* clients merged into the object (fio 3.33) */
    int global_conflict; /* and some key of theirs is ambiguous */
    struct entry *e;
    size_t ne;
    const char *arrname; /* "jobs" or "client_stats" */
};

/* Option `key` of a global options object, or NULL. fio 3.33 in
 * client/server mode merges the options of every client into one object
 * (each key once per client that sent it): a key is known only when it
 * occurs `need` times (the most any key occurs) with one value. */
static const char *gopt(struct pb_json *d, int obj, const char *key,
                        size_t need)
{
    const char *v = NULL;
    size_t klen = strlen(key), count = 0;
    for (int k = pb_json_first(d, is_object(d, obj) ? obj : PB_JSON_NONE);
         k != PB_JSON_NONE; k = pb_json_next(d, k)) {
        const char *name = pb_json_str(d, k);
        if (!name || strlen(name) != klen || memcmp(name, key, klen) != 0)
            continue;
        const char *x = pb_json_str(d, pb_json_value(d, k));
        if (!x || (v && strcmp(v, x) != 0))
            return NULL;
        v = x;
        count++;
    }
    return count >= need ? v : NULL;
}

struct kvp {
    const char *k, *v; /* v NULL: not a string */
};

static int kvp_cmp(const void *pa, const void *pb)
{
    const struct kvp *a = pa, *b = pb;
    int c = strcmp(a->k, b->k);
    if (c)
        return c;
    if (!a->v || !b->v)
        return (a->v != NULL) - (b->v != NULL);
    return strcmp(a->v, b->v);
}

/* The most times a key occurs in the object (1: no merge); *ambiguous:
 * some key does not occur that often with one value. Sorted, so that a
 * hostile object of many keys costs n log n. */
static size_t merged_clients(struct pb_json *d, int obj, int *ambiguous)
{
    *ambiguous = 0;
    size_t n = is_object(d, obj) ? pb_json_size(d, obj) : 0;
    if (n < 2)
        return 1;
    struct kvp *t = pb_xmalloc(n * sizeof(*t));
    size_t k = 0;
    for (int x = pb_json_first(d, obj); x != PB_JSON_NONE && k < n;
         x = pb_json_next(d, x)) {
        t[k].k = pb_json_str(d, x);
        t[k].v = pb_json_str(d, pb_json_value(d, x));
        if (t[k].k)
            k++;
    }
    qsort(t, k, sizeof(*t), kvp_cmp);
    size_t most = 1;
    for (size_t i = 0, j; i < k; i = j) {
        for (j = i + 1; j < k && !strcmp(t[j].k, t[i].k); j++)
            ;
        if (j - i > most)
            most = j - i;
    }
    for (size_t i = 0, j; i < k && most > 1; i = j) {
        int one = 1;
        for (j = i + 1; j < k && !strcmp(t[j].k, t[i].k); j++)
            one &= pb_fio_same_str(t[j].v, t[i].v);
        if (j - i != most || !one)
            *ambiguous = 1;
    }
    free(t);
    return most;
}

/* Job option `key`, the job's own value winning over its client's
 * "global options". */
static const char *opt(const struct ctx *c, const struct entry *e,
                       const char *key)
{
    const char *v = str(c->doc, pb_json_get(c->doc, e->obj, "job options"),
                        key);
    if (v)
        return v;
    if (!c->clients) /* local run: as fio reads a job file, the last one */
        return str(c->doc, e->gopts, key);
    return gopt(c->doc, e->gopts, key,
                e->gopts == c->global ? c->global_mult : 1);
}

static int has_opts(const struct ctx *c, const struct entry *e)
{
    return is_object(c->doc, pb_json_get(c->doc, e->obj, "job options")) ||
           pb_json_size(c->doc, e->gopts) > 0;
}

struct optsrc {
    const struct ctx *c;
    const struct entry *e;
};

static const char *opt_of(const void *src, const char *key)
{
    const struct optsrc *o = src;
    return opt(o->c, o->e, key);
}

static void build_test(struct ctx *c, struct entry *e)
{
    struct pb_fio_opts o = {0};
    struct optsrc src = {c, e};
    o.known = has_opts(c, e);
    o.no_defaults = c->global_conflict;
    o.rwmix_default = 1;
    pb_fio_read_opts(&o, opt_of, &src);
    pb_fio_build_test(c->set, &o, &e->job);
    e->have_test = 1;
}

/* ==== hosts (client/server) ==== */

/* The global options of entry e: the object, or (fio 3.4x client/server)
 * the element of the list with e's hostname and port (hostname alone
 * when the port is not given), or the only element. */
static int global_of(const struct ctx *c, const struct entry *e)
{
    struct pb_json *d = c->doc;
    if (pb_json_type(d, c->global) != PB_JSON_ARRAY)
        return c->global;
    int only = PB_JSON_NONE, n = 0, match = PB_JSON_NONE;
    for (int el = pb_json_first(d, c->global); el != PB_JSON_NONE;
         el = pb_json_next(d, el)) {
        if (!is_object(d, el))
            continue;
        n++;
        only = el;
        const char *h = str(d, el, "hostname");
        double port = num(d, el, "port");
        if (!e->hostname || !h || strcmp(h, e->hostname) != 0)
            continue;
        if (port == e->port)
            return el;
        if ((isnan(port) || isnan(e->port)) && match == PB_JSON_NONE)
            match = el;
    }
    if (match != PB_JSON_NONE)
        return match;
    return n == 1 ? only : PB_JSON_NONE;
}

/* Facts of each host: its hostname and the target (filename option;
 * else, for a local run, the disks of "disk_util"). */
static void host_facts(struct ctx *c)
{
    int named = 0;
    for (size_t i = 0; i < c->ne; i++)
        named |= !c->e[i].is_agg && c->e[i].job.usable &&
                 opt(c, &c->e[i], "filename") != NULL;
    int du = pb_json_get(c->doc, pb_json_root(c->doc), "disk_util");
    if (!named && !c->clients && pb_json_type(c->doc, du) == PB_JSON_ARRAY)
        for (int d = pb_json_first(c->doc, du); d != PB_JSON_NONE;
             d = pb_json_next(c->doc, d))
            pb_fio_fact_add(c->set, NULL, "device", str(c->doc, d, "name"));
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (e->is_agg || !e->job.usable)
            continue;
        if (e->hostname)
            pb_rs_fact(c->set, e->job.host, "hostname", e->hostname);
        pb_fio_fact_add(c->set, e->job.host, "device",
                        opt(c, e, "filename"));
    }
}

static void assign_hosts(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        struct entry *e = &c->e[i];
        e->gopts = global_of(c, e);
        if (e->is_agg) {
            e->job.host = "(all clients)";
            continue;
        }
        if (!e->hostname)
            continue;
        e->job.host = e->hostname;
        for (size_t j = 0; j < c->ne; j++) {
            const struct entry *o = &c->e[j];
            if (j == i || o->is_agg || !o->hostname ||
                strcmp(o->hostname, e->hostname) != 0)
                continue;
            if (!(o->port == e->port) && !isnan(e->port)) {
                e->job.host = pb_arena_printf(&c->set->arena, "%s:%.0f",
                                              e->hostname, e->port);
                break;
            }
        }
    }
}

/* Clones of one numjobs job: same name, host, group and options, and
 * numjobs > 1 unless fio printed no options (2.1). Sections repeated under
 * one name with stonewall differ in groupid: they ran one after another. */
static int is_clone(const void *ctx, size_t ia, size_t ib)
{
    const struct ctx *c = ctx;
    const struct entry *a = &c->e[ia], *b = &c->e[ib];
    if (a->is_agg || b->is_agg || strcmp(a->job.name, b->job.name) != 0 ||
        !pb_fio_same_str(a->job.host, b->job.host))
        return 0;
    double ga = num(c->doc, a->obj, "groupid"),
           gb = num(c->doc, b->obj, "groupid");
    if (!(ga == gb) && !(isnan(ga) && isnan(gb)))
        return 0;
    if (has_opts(c, a) && !(pb_fio_int_opt(opt(c, a, "numjobs")) > 1))
        return 0;
    int oa = pb_json_get(c->doc, a->obj, "job options");
    int ob = pb_json_get(c->doc, b->obj, "job options");
    if (oa == PB_JSON_NONE || ob == PB_JSON_NONE)
        return oa == ob;
    return pb_json_equal(c->doc, oa, ob);
}

/* The "All clients" entry takes the job, config and test of the client
 * entries before it when they all agree. */
static const char *resolve_aggregate(struct ctx *c, size_t idx)
{
    struct pb_fio_job *a = &c->e[idx].job;
    const struct pb_fio_job *first = NULL;
    int agree = 1;
    for (size_t j = idx; j-- > 0;) {
        const struct entry *o = &c->e[j];
        if (o->is_agg)
            break;
        if (!o->job.usable || !o->have_test)
            continue;
        if (!first)
            first = &o->job;
        else if (strcmp(o->job.name, first->name) != 0 ||
                 o->job.test != first->test || o->job.config != first->config)
            agree = 0;
    }
    c->e[idx].have_test = 1;
    if (first && agree) {
        a->config = first->config;
        a->test = first->test;
        a->rwmask = first->rwmask;
        return first->name;
    }
    a->config = pb_rs_config(c->set, a->name);
    a->test = pb_rs_test(c->set, "fio all clients", "fio");
    a->rwmask = 0;
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
        if (pb_json_get(c->doc, c->e[i].obj, "error") != PB_JSON_NONE)
            nth++;
    size_t off = find_key(c, "error", nth);
    if (off == (size_t)-1)
        off = c->start;
    line_col(c->buf, off, line, col);
}

static int json_error(const struct ctx *c, const struct pb_json_error *je)
{
    const char *buf = c->buf;
    long line, col;
    if (je->truncated) {
        /* where the text stops */
        size_t end = c->start + c->jlen;
        while (end > c->start && isspace((unsigned char)buf[end - 1]))
            end--;
        line_col(buf, end > c->start ? end - 1 : c->start, &line, &col);
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "truncated JSON: %s", je->msg);
    }
    line_col(buf, c->start + je->offset, &line, &col);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col, "invalid JSON: %s",
                      je->msg);
}

static int no_json(const char *path, const char *buf, size_t len,
                   struct pb_err *err)
{
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    const char *p = pb_skip_ws(buf, buf + len);
    long line, col;
    line_col(buf, (size_t)(p - buf), &line, &col);
    size_t n = 0;
    while (n < 120 && p + n < buf + len && p[n] != '\n' && p[n] != '\r')
        n++;
    if (n == 120 && p + n < buf + len) /* do not cut a UTF-8 sequence */
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

/* ==== interrupted runs ==== */

/* How long the longest job ran and the runtime it asked for (ns). */
static void runtimes(const struct ctx *c, double *ran, double *asked)
{
    *ran = *asked = NAN;
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (e->is_agg || !e->job.usable)
            continue;
        double r = pb_fio_longest_runtime(&e->job.st);
        if (!(r > 0) || r <= *ran)
            continue;
        *ran = r;
        double ns;
        const char *v = opt(c, e, "runtime");
        if (!v)
            v = opt(c, e, "timeout");
        *asked = v && pb_parse_duration(v, 1e9, &ns) == 0 ? ns : NAN;
    }
}

/* fio's interruption lines around the document (stderr captured with
 * it, or json,normal text after it). */
static void flag_interrupted(struct ctx *c, size_t used)
{
    const char *buf = c->buf, *end = buf + c->start + c->jlen;
    const char *doc_end = buf + c->start + used;
    long line = 1;
    for (const char *p = buf; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if ((p < buf + c->start || p >= doc_end) &&
            pb_fio_is_interrupt(p, (size_t)(e - p))) {
            double ran, asked;
            runtimes(c, &ran, &asked);
            pb_fio_flag_interrupted(c->set, line, p, (size_t)(e - p), ran,
                                    asked);
            return;
        }
        p = nl ? nl + 1 : end;
    }
}

/* ==== parse ==== */

/* fio's steadystate section of a job (steadystate=, ss_dur=): whether
 * it was attained and over how long a window (docs/design.md, "Time
 * series"). */
static void steady_state(struct ctx *c, const struct entry *e)
{
    int ss = pb_json_get(c->doc, e->obj, "steadystate");
    double att = num(c->doc, ss, "attained"), dur = num(c->doc, ss, "duration");
    if (!e->job.usable || isnan(att))
        return;
    pb_rs_add(c->set, e->job.config, e->job.test, e->job.host,
              e->job.jobname, "ss_attained", "", PB_DIR_HIGHER, att != 0);
    if (!isnan(dur))
        pb_rs_add(c->set, e->job.config, e->job.test, e->job.host,
                  e->job.jobname, "ss_duration", "ns", PB_DIR_LOWER,
                  dur * 1e9);
}

static int emit_all(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++)
        if (c->e[i].job.usable && !c->e[i].is_agg)
            build_test(c, &c->e[i]);
    for (size_t i = 0; i < c->ne; i++)
        if (c->e[i].job.usable && c->e[i].is_agg)
            c->e[i].job.jobname = resolve_aggregate(c, i);
    pb_fio_emit_all(c->set, &c->e[0].job, sizeof(c->e[0]), c->ne, is_clone, c);
    for (size_t i = 0; i < c->ne; i++)
        steady_state(c, &c->e[i]);
    return PB_OK;
}

static int no_results(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (!isnan(e->error) && e->error != 0 &&
            !pb_fio_moved_data(&e->job.st)) {
            long line, col;
            locate_error(c, i, &line, &col);
            return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                              "job \"%s\" failed with error %.0f and did "
                              "no I/O",
                              e->job.name, e->error);
        }
    }
    long line, col;
    line_col(c->buf, c->start, &line, &col);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                      "no usable job in \"%s\"", c->arrname);
}

static int parse_whole(const char *path, const char *buf, size_t len,
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

    struct pb_json doc;
    struct pb_json_error je;
    if (pb_json_parse(&doc, buf + c.start, c.jlen, &je) != 0)
        return json_error(&c, &je);
    c.doc = &doc;

    /* anything after the document may be text (json,normal) but not a
     * second document (runs appended to one file) */
    size_t used = doc.len;
    if (used < c.jlen) {
        size_t rest = c.start + used;
        size_t second = find_json_start(buf + rest, len - rest);
        if (second != (size_t)-1) {
            long line, col;
            line_col(buf, rest + second, &line, &col);
            pb_json_release(&doc);
            return pb_err_set(err, PB_EINPUT, path, line, col,
                              "a second JSON document starts here; one "
                              "fio run per file");
        }
    }

    int rc = PB_OK;
    long l0, c0;
    line_col(buf, c.start, &l0, &c0);
    int root = pb_json_root(&doc);
    int arr = pb_json_get(&doc, root, "jobs");
    c.arrname = "jobs";
    if (pb_json_type(&doc, arr) != PB_JSON_ARRAY) {
        arr = pb_json_get(&doc, root, "client_stats");
        c.arrname = "client_stats";
    }
    if (pb_json_type(&doc, arr) != PB_JSON_ARRAY) {
        rc = pb_err_set(err, PB_EINPUT, path, l0, c0,
                        "not fio output: no \"jobs\" or \"client_stats\" "
                        "array");
        goto out;
    }
    const char *version = str(&doc, root, "fio version");
    if (version)
        pb_fio_set_version(set, version);
    c.global = pb_json_get(&doc, root, "global options");
    if (!is_object(&doc, c.global) &&
        pb_json_type(&doc, c.global) != PB_JSON_ARRAY)
        c.global = PB_JSON_NONE;
    c.clients = !strcmp(c.arrname, "client_stats");
    c.global_mult = 1;
    if (c.clients)
        c.global_mult =
            merged_clients(&doc, c.global, &c.global_conflict);

    c.ne = 0;
    c.e = pb_xcalloc(pb_json_size(&doc, arr) + 1, sizeof(*c.e));
    size_t idx = 0;
    for (int o = pb_json_first(&doc, arr); o != PB_JSON_NONE;
         o = pb_json_next(&doc, o), idx++)
        if (is_object(&doc, o))
            read_entry(&doc, o, idx, &c.e[c.ne++], set);
    for (size_t i = 0; i < c.ne && rc == PB_OK; i++) /* json+ (fio_bins.c) */
        rc = pb_fio_json_bins(&doc, c.e[i].obj, path, buf, c.start, set,
                              &c.e[i].job.st, err);
    if (rc != PB_OK) {
        free(c.e);
        goto out;
    }
    assign_hosts(&c);
    size_t before = set->nresults;
    rc = emit_all(&c);
    if (rc == PB_OK && set->nresults == before)
        rc = no_results(&c);
    if (rc == PB_OK) {
        host_facts(&c);
        flag_interrupted(&c, used);
        pb_fio_flag_file(set, &c.e[0].job, sizeof(c.e[0]), c.ne);
    }
    free(c.e);
out:
    pb_json_release(&doc);
    return rc;
}


/* ==== streamed (docs/design.md, "Streaming ingest") ====
 * A large file of one local run: a first pass over the mapped text finds
 * the document, its top-level members and each element of "jobs" without
 * tokens; then the jobs are parsed a chunk at a time, the chunk's text
 * "[" JOBS "," GLOBAL-OPTIONS "]" copied from the file, and their results
 * handed to the store in parts. A group of numjobs clones is never cut:
 * the last group of a chunk is parsed again with the next. Files that
 * need every job at once (client/server "hostname"s, "steadystate" after
 * all results, keys written with escapes, very deep nesting) are parsed
 * whole, and so is every file with an error: the message is then the
 * whole parse's, and the parts stored so far are rolled back. */

#define CHUNK_BYTES ((size_t)1 << 20) /* job text parsed at once */
#define GOPTS_MAX ((size_t)1 << 20)   /* "global options" copied per chunk */
#define SCAN_DEPTH 30 /* nesting below a member; json.c refuses past 64 */
#define NOPOS ((size_t)-1)

struct stream {
    const char *path, *map;
    size_t len, start, doc_end; /* the document: map[start .. doc_end) */
    size_t jobs, jobs_end;      /* the "jobs" array */
    size_t gopts, gopts_end;    /* "global options", or gopts = NOPOS */
    int njobs;
    struct pb_resultset *set;
    struct pb_resultset *dev, *imp; /* facts kept until the end */
    size_t emitted;                 /* results of emit_all, every part */
    int named;                      /* some job has a filename option */
    double ran, asked;              /* as runtimes() */
};

static int key_is(const char *text, const struct pb_json_member *m,
                  const char *name)
{
    size_t n = strlen(name);
    return m->key_end - m->key == n + 2 && !memcmp(text + m->key + 1, name, n);
}

/* A member of a job object that needs the whole file. */
static int job_member(void *ctx, const char *text,
                      const struct pb_json_member *m)
{
    (void)ctx;
    return memchr(text + m->key, '\\', m->key_end - m->key) != NULL ||
           m->depth > SCAN_DEPTH - 2 || key_is(text, m, "hostname") ||
           key_is(text, m, "steadystate");
}

/* Walks the elements of the array at map[arr]. */
struct elems {
    const char *text;
    size_t len, i;
    int done;
};

static void elems_init(struct elems *w, const char *text, size_t len,
                       size_t arr)
{
    w->text = text;
    w->len = len;
    w->i = pb_json_scan_ws(text, len, arr + 1);
    w->done = w->i < len && text[w->i] == ']';
}

/* 1 with the next element's span, 0 after the last, -1 when malformed. */
static int elems_next(struct elems *w, size_t *el, size_t *end, int *depth)
{
    if (w->done)
        return 0;
    *el = w->i;
    *end = pb_json_scan_value(w->text, w->len, w->i, depth);
    if (*end == NOPOS)
        return -1;
    size_t i = pb_json_scan_ws(w->text, w->len, *end);
    if (i < w->len && w->text[i] == ']') {
        w->done = 1;
    } else if (i < w->len && w->text[i] == ',') {
        i = pb_json_scan_ws(w->text, w->len, i + 1);
    } else {
        return -1;
    }
    w->i = i;
    return 1;
}

/* The first pass over the jobs array: 1 when every element can be read
 * on its own. Releases the pages it read. */
static int plan_jobs(struct stream *s)
{
    struct elems w;
    elems_init(&w, s->map, s->len, s->jobs);
    size_t el, end;
    int depth, r;
    while ((r = elems_next(&w, &el, &end, &depth)) == 1) {
        if (depth > SCAN_DEPTH - 2)
            return 0;
        if (s->map[el] == '{' &&
            pb_json_scan_object(s->map, end, el, job_member, NULL) != end)
            return 0;
        pb_rs_consumed(s->set, s->map + end);
    }
    if (r < 0)
        return 0;
    s->jobs_end = w.i + 1;
    return 1;
}

/* The first pass: 1 when the file can be streamed (s filled), 0 when it
 * is parsed whole (it may hold an error: that parse reports it). */
static int plan(struct stream *s)
{
    const char *t = s->map;
    s->start = find_json_start(t, s->len);
    if (s->start == NOPOS)
        return 0;
    s->gopts = NOPOS;
    size_t i = pb_json_scan_ws(t, s->len, s->start + 1);
    if (i < s->len && t[i] == '}')
        return 0;
    for (;;) {
        struct pb_json_member m;
        int depth;
        if (i >= s->len || t[i] != '"')
            return 0;
        m.key = i;
        m.key_end = pb_json_scan_value(t, s->len, i, &depth);
        if (m.key_end == NOPOS ||
            memchr(t + m.key, '\\', m.key_end - m.key) != NULL)
            return 0;
        i = pb_json_scan_ws(t, s->len, m.key_end);
        if (i >= s->len || t[i] != ':')
            return 0;
        m.val = pb_json_scan_ws(t, s->len, i + 1);
        if (key_is(t, &m, "client_stats"))
            return 0;
        if (key_is(t, &m, "jobs") && m.val < s->len && t[m.val] == '[') {
            s->jobs = m.val;
            if (s->njobs++ || !plan_jobs(s))
                return 0;
            m.val_end = s->jobs_end;
        } else {
            m.val_end = pb_json_scan_value(t, s->len, m.val, &depth);
            if (m.val_end == NOPOS || depth > SCAN_DEPTH)
                return 0;
            if (key_is(t, &m, "jobs"))
                return 0; /* not an array: the whole parse says so */
        }
        if (key_is(t, &m, "global options")) {
            s->gopts = m.val;
            s->gopts_end = m.val_end;
        }
        i = pb_json_scan_ws(t, s->len, m.val_end);
        if (i < s->len && t[i] == '}')
            break;
        if (i >= s->len || t[i] != ',')
            return 0;
        i = pb_json_scan_ws(t, s->len, i + 1);
    }
    s->doc_end = i + 1;
    pb_rs_consumed(s->set, s->map + s->doc_end);
    if (s->njobs != 1 ||
        (s->gopts != NOPOS && s->gopts_end - s->gopts > GOPTS_MAX))
        return 0;
    /* a second document: the whole parse refuses it */
    return find_json_start(t + s->doc_end, s->len - s->doc_end) == NOPOS;
}

/* The document without the jobs' text ("jobs": []), parsed: the version,
 * global options and disk_util; checks every byte outside the jobs. */
static int skeleton(const struct stream *s, char **text, struct pb_json *doc)
{
    size_t a = s->jobs + 1 - s->start, b = s->doc_end - (s->jobs_end - 1);
    *text = pb_xmalloc(a + b + 1);
    memcpy(*text, s->map + s->start, a);
    memcpy(*text + a, s->map + s->jobs_end - 1, b);
    struct pb_json_error je;
    if (pb_json_parse(doc, *text, a + b, &je) != 0)
        return -1;
    if (doc->len != a + b) {
        pb_json_release(doc);
        return -1;
    }
    return 0;
}

/* One chunk: elements [0, n) of the file's jobs at spans el[], the first
 * having index `base` in the array; the results of every complete group
 * of clones (all of them when `last`). *nel: elements done (the rest
 * begin the next chunk); 0 when the chunk is one open group. PB_OK, or
 * PB_EINPUT for an error the whole parse will name. */
static int chunk(struct stream *s, const size_t (*el)[2], size_t n,
                 size_t base, int last, const char *gtext, size_t glen,
                 size_t *nel)
{
    *nel = 0;
    size_t body = el[n - 1][1] - el[0][0];
    char *text = pb_xmalloc(body + glen + 4);
    text[0] = '[';
    memcpy(text + 1, s->map + el[0][0], body);
    text[1 + body] = ',';
    memcpy(text + 2 + body, gtext, glen);
    text[2 + body + glen] = ']';
    size_t tlen = body + glen + 3;

    struct pb_json doc;
    struct pb_json_error je;
    struct pb_err lerr = {0};
    if (pb_json_parse(&doc, text, tlen, &je) != 0) {
        free(text);
        return PB_EINPUT;
    }
    int rc = doc.len == tlen ? PB_OK : PB_EINPUT;
    struct ctx c = {0};
    c.path = s->path;
    c.buf = s->map;
    c.start = s->start;
    c.jlen = s->doc_end - s->start;
    c.set = s->set;
    c.err = &lerr;
    c.doc = &doc;
    c.arrname = "jobs";
    c.global_mult = 1;
    c.e = pb_xcalloc(n + 1, sizeof(*c.e));
    size_t *eix = pb_xcalloc(n + 1, sizeof(*eix));
    size_t k = 0;
    for (int o = pb_json_first(&doc, pb_json_root(&doc));
         o != PB_JSON_NONE && rc == PB_OK; o = pb_json_next(&doc, o), k++) {
        if (k == n) { /* the global options */
            c.global = is_object(&doc, o) ||
                               pb_json_type(&doc, o) == PB_JSON_ARRAY
                           ? o
                           : PB_JSON_NONE;
            break;
        }
        if (!is_object(&doc, o))
            continue;
        eix[c.ne] = k;
        read_entry(&doc, o, base + k, &c.e[c.ne++], s->set);
    }
    for (size_t i = 0; i < c.ne && rc == PB_OK; i++)
        rc = pb_fio_json_bins(&doc, c.e[i].obj, s->path, s->map, el[0][0] - 1,
                              s->set, &c.e[i].job.st, &lerr);
    if (rc != PB_OK)
        goto out;
    assign_hosts(&c);
    /* where the last group of clones begins: it may go on */
    size_t open = c.ne;
    for (size_t i = 0; i < c.ne;) {
        if (!c.e[i].job.usable) {
            i++;
            continue;
        }
        size_t g = pb_fio_count_clones(&c.e[0].job, sizeof(c.e[0]), c.ne, i,
                                       is_clone, &c);
        if (i + g == c.ne)
            open = i;
        i += g;
    }
    size_t ne = last ? c.ne : open;
    *nel = last || open == c.ne ? n : eix[open];
    if (*nel == 0)
        goto out;
    for (size_t i = 0; i < ne; i++)
        if (c.e[i].job.usable)
            build_test(&c, &c.e[i]);
    size_t before = s->set->nresults;
    pb_fio_emit_all(s->set, &c.e[0].job, sizeof(c.e[0]), ne, is_clone, &c);
    s->emitted += s->set->nresults - before;
    for (size_t i = 0; i < ne; i++) {
        const struct entry *e = &c.e[i];
        if (!e->job.usable)
            continue;
        const char *fn = opt(&c, e, "filename");
        s->named |= fn != NULL;
        pb_fio_fact_add(s->dev, e->job.host, "device", fn);
        double r = pb_fio_longest_runtime(&e->job.st);
        if (!(r > 0) || r <= s->ran)
            continue;
        s->ran = r;
        double ns;
        const char *v = opt(&c, e, "runtime");
        if (!v)
            v = opt(&c, e, "timeout");
        s->asked = v && pb_parse_duration(v, 1e9, &ns) == 0 ? ns : NAN;
    }
    pb_fio_flag_jobs(s->imp, &c.e[0].job, sizeof(c.e[0]), ne);
out:
    free(eix);
    free(c.e);
    pb_json_release(&doc);
    free(text);
    return rc;
}

/* pass 2: the jobs a chunk at a time. */
static int stream_jobs(struct stream *s, const char *gtext, size_t glen)
{
    struct elems w;
    elems_init(&w, s->map, s->len, s->jobs);
    size_t part = pb_rs_stream_part(s->set);
    size_t maxel = part < 4096 ? part : 4096, maxbytes = CHUNK_BYTES;
    size_t (*el)[2] = NULL, nel = 0, cap = 0, base = 0;
    int rc = PB_OK, r = 1;
    while (rc == PB_OK) {
        size_t bytes = nel ? el[nel - 1][1] - el[0][0] : 0;
        while (nel < maxel && bytes < maxbytes) {
            int depth;
            size_t a, b;
            r = elems_next(&w, &a, &b, &depth);
            if (r != 1)
                break;
            PB_GROW(el, cap, nel + 1);
            el[nel][0] = a;
            el[nel][1] = b;
            nel++;
            bytes = b - el[0][0];
        }
        if (r < 0) {
            rc = PB_EINPUT;
            break;
        }
        if (nel == 0)
            break;
        int last = r == 0 || w.done;
        size_t done = 0;
        rc = chunk(s, (const size_t(*)[2])el, nel, base, last, gtext, glen,
                   &done);
        if (rc != PB_OK)
            break;
        if (done == 0) { /* one group of clones fills the chunk */
            maxel *= 2;
            maxbytes *= 2;
            continue;
        }
        const char *upto = s->map + (done < nel ? el[done][0] : el[nel - 1][1]);
        memmove(el, el + done, (nel - done) * sizeof(*el));
        nel -= done;
        base += done;
        maxel = part < 4096 ? part : 4096;
        maxbytes = CHUNK_BYTES;
        if (pb_rs_flush_due(s->set, 0)) {
            rc = pb_rs_flush(s->set, upto);
            if (rc != PB_OK) {
                free(el);
                return -rc; /* the store's error, err filled */
            }
        } else {
            pb_rs_consumed(s->set, upto);
        }
        if (last && nel == 0)
            break;
    }
    free(el);
    return rc;
}

/* fio's interruption lines before or after the document (see
 * flag_interrupted). */
static void stream_interrupted(struct stream *s)
{
    const char *t = s->map, *end = t + s->len;
    long line = 1;
    for (const char *p = t; p < t + s->start; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (pb_fio_is_interrupt(p, (size_t)(e - p))) {
            pb_fio_flag_interrupted(s->set, line, p, (size_t)(e - p), s->ran,
                                    s->asked);
            return;
        }
        p = nl ? nl + 1 : end;
    }
    const char *p = memchr(t + s->doc_end, '\n', s->len - s->doc_end);
    for (p = p ? p + 1 : end; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (pb_fio_is_interrupt(p, (size_t)(e - p))) {
            line = 1;
            for (const char *q = t; (q = memchr(q, '\n', (size_t)(p - q)));
                 q++)
                if ((++line & 0xffff) == 0)
                    pb_rs_consumed(s->set, q);
            pb_fio_flag_interrupted(s->set, line, p, (size_t)(e - p), s->ran,
                                    s->asked);
            return;
        }
        p = nl ? nl + 1 : end;
    }
}

/* The facts the whole parse gives after its results, in its order. */
static void stream_facts(struct stream *s, struct pb_json *skel)
{
    struct pb_resultset *set = s->set;
    if (s->named) {
        for (size_t i = 0; i < s->dev->nfacts; i++)
            pb_rs_fact(set, s->dev->facts[i].host, s->dev->facts[i].key,
                       s->dev->facts[i].value);
    } else {
        int du = pb_json_get(skel, pb_json_root(skel), "disk_util");
        if (pb_json_type(skel, du) == PB_JSON_ARRAY)
            for (int d = pb_json_first(skel, du); d != PB_JSON_NONE;
                 d = pb_json_next(skel, d))
                pb_fio_fact_add(set, NULL, "device", str(skel, d, "name"));
    }
    stream_interrupted(s);
    if (!set->tool_version)
        pb_rs_fact(set, NULL, "flag.no_version", "no version found");
    for (size_t i = 0; i < s->imp->nfacts; i++)
        pb_rs_fact(set, s->imp->facts[i].host, s->imp->facts[i].key,
                   s->imp->facts[i].value);
}

/* The whole parse's error for a file the streamed parse found wrong. */
static int whole_error(const char *path, const char *buf, size_t len,
                       struct pb_err *err)
{
    struct pb_resultset *tmp = pb_resultset_new();
    int rc = parse_whole(path, buf, len, tmp, err);
    pb_resultset_free(tmp);
    if (rc == PB_OK)
        rc = pb_err_set(err, PB_EINPUT, path, 0, 0,
                        "fio-json: the streamed parse failed where the "
                        "whole file parses");
    return rc;
}

static int parse_stream(const char *path, const char *buf, size_t len,
                        struct pb_resultset *set, struct pb_err *err)
{
    struct stream s = {0};
    s.path = path;
    s.map = buf;
    s.len = len;
    s.set = set;
    s.ran = s.asked = NAN;
    if (!plan(&s))
        return parse_whole(path, buf, len, set, err);
    char *sktext = NULL;
    struct pb_json skel;
    if (skeleton(&s, &sktext, &skel) != 0) {
        free(sktext);
        return whole_error(path, buf, len, err);
    }
    const char *version = str(&skel, pb_json_root(&skel), "fio version");
    if (version)
        pb_fio_set_version(set, version);
    char *gtext = s.gopts == NOPOS
                      ? pb_xstrdup("null")
                      : pb_xstrndup(buf + s.gopts, s.gopts_end - s.gopts);
    s.dev = pb_resultset_new();
    s.imp = pb_resultset_new();
    int rc = stream_jobs(&s, gtext, strlen(gtext));
    if (rc == PB_OK && s.emitted == 0)
        rc = PB_EINPUT; /* the whole parse names the failed job */
    if (rc == PB_OK)
        stream_facts(&s, &skel);
    pb_resultset_free(s.dev);
    pb_resultset_free(s.imp);
    free(gtext);
    pb_json_release(&skel);
    free(sktext);
    if (rc < 0)
        return -rc;
    if (rc != PB_OK)
        return whole_error(path, buf, len, err);
    return PB_OK;
}

static int fio_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    if (pb_rs_stream_part(set))
        return parse_stream(path, buf, len, set, err);
    return parse_whole(path, buf, len, set, err);
}

const struct pb_parser pb_parser_fio_json = {"fio-json", fio_sniff, fio_parse};
