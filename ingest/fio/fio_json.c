/* fio JSON output (--output-format=json, json+, json,normal; local "jobs"
 * and client/server "client_stats"; fio 2.1 to 3.x) into a result set.
 * Tests, the directions emitted and numjobs aggregates follow the rules in
 * the header comment of ingest/fio/fio_common.c; what is particular to JSON:
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
 * Sections of one name in groups of their own (stonewall) are runs of one
 * job: repeats, folded (fio_repeats.c). An entry whose I/O contradicts its
 * options is a group_reporting entry of several jobs (fio_json_ident.c).
 *
 * Client/server: host = the entry's "hostname" ("hostname:port" when two
 * entries share a hostname on different ports); fio's "All clients" entry
 * gets host "(all clients)" and the job, config and test of the clients
 * when those agree.
 *
 * This file reads entries and their tests; the parse over the document
 * (one part, or parts of a big one) is fio_json_pass.c's.
 */
#include "ingest/fio/fio_json_int.h"

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

static double or0(double v)
{
    return isnan(v) ? 0 : v;
}

/* Offset of the first '{' that is the first non-blank char of a line, or
 * (size_t)-1. */
size_t pb_fio_json_start(const char *buf, size_t len)
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
    size_t start = pb_fio_json_start(buf, len);
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

void pb_fio_json_entry(struct pb_json *d, int obj, size_t idx,
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

void pb_fio_json_globals(struct ctx *c, int global)
{
    struct pb_json *d = c->doc;
    c->global = is_object(d, global) || pb_json_type(d, global) == PB_JSON_ARRAY
                    ? global
                    : PB_JSON_NONE;
    c->global_mult = 1;
    c->global_conflict = 0;
    if (c->clients)
        c->global_mult = merged_clients(d, c->global, &c->global_conflict);
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
    return pb_fio_json_opt(o->c, o->e, key);
}

/* Config and test of entry e, from its options. */
static void json_test(struct ctx *c, struct entry *e)
{
    struct pb_fio_opts o = {0};
    struct optsrc src = {c, e};
    struct pb_fio_json_src each = {c, e};
    o.known = has_opts(c, e);
    o.no_defaults = c->global_conflict;
    o.rwmix_default = 1;
    o.each = pb_fio_json_each;
    o.each_ctx = &each;
    pb_fio_read_opts(&o, opt_of, &src);
    pb_fio_build_test(c->set, c->f, &o, &e->job);
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

void pb_fio_json_hps_add(struct pb_fio_json_hps *t, const char *host,
                         double port)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].host, host) &&
            (t->v[i].port == port || (isnan(port) && isnan(t->v[i].port))))
            return;
    PB_GROW(t->v, t->cap, t->n + 1);
    t->v[t->n].host = host;
    t->v[t->n].port = port;
    t->n++;
}

/* Whether another client entry of the file has hostname host on a port
 * other than port: then host:port names a client. */
static int other_port(const struct pb_fio_json_hps *t, const char *host,
                      double port)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].host, host) && !(t->v[i].port == port))
            return 1;
    return 0;
}

void pb_fio_json_hosts(struct ctx *c)
{
    /* the file's clients: those of the plan, else c's entries (one
     * part) */
    struct pb_fio_json_hps own = {0};
    const struct pb_fio_json_hps *hps = c->hps;
    for (size_t i = 0; !hps && i < c->ne; i++)
        if (!c->e[i].is_agg && c->e[i].hostname)
            pb_fio_json_hps_add(&own, c->e[i].hostname, c->e[i].port);
    if (!hps)
        hps = &own;
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
        if (!isnan(e->port) && other_port(hps, e->hostname, e->port))
            e->job.host = pb_arena_printf(&c->set->arena, "%s:%.0f",
                                          e->hostname, e->port);
    }
    free(own.v);
    pb_fio_json_opts_index(c);
}

/* Clones of one numjobs job: same name, host, group and options, and
 * numjobs > 1 unless fio printed no options (2.1). Sections repeated under
 * one name with stonewall differ in groupid: they ran one after another. */
int pb_fio_json_is_clone(const void *ctx, size_t ia, size_t ib)
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
    if (has_opts(c, a) &&
        !(pb_fio_int_opt(pb_fio_json_opt(c, a, "numjobs")) > 1))
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
        a->held = first->held; /* its config and test are in that set */
        return first->name;
    }
    a->held = 0;
    a->config = pb_rs_config(c->set, a->name);
    a->test = pb_rs_test(c->set, "fio all clients", "fio");
    a->rwmask = 0;
    return a->name;
}

/* ==== interrupted runs ==== */

void pb_fio_json_ran(const struct ctx *c, const struct entry *e, double *ran,
                     double *asked)
{
    if (e->is_agg || !e->job.usable)
        return;
    double r = pb_fio_longest_runtime(&e->job.st);
    if (!(r > 0) || r <= *ran)
        return;
    *ran = r;
    double ns;
    const char *v = pb_fio_json_opt(c, e, "runtime");
    if (!v)
        v = pb_fio_json_opt(c, e, "timeout");
    *asked = v && pb_parse_duration(v, 1e9, &ns) == 0 ? ns : NAN;
}

void pb_fio_json_interrupted(struct pb_resultset *set, const char *buf,
                             size_t len, size_t start, size_t doc_end,
                             double ran, double asked)
{
    const char *end = buf + len;
    long line = 1;
    for (const char *p = buf; p < buf + start; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (pb_fio_is_interrupt(p, (size_t)(e - p))) {
            pb_fio_flag_interrupted(set, line, p, (size_t)(e - p), ran, asked);
            return;
        }
        p = nl ? nl + 1 : end;
    }
    /* the line the document ends on is the document's */
    const char *p = memchr(buf + doc_end, '\n', len - doc_end);
    for (p = p ? p + 1 : end; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (pb_fio_is_interrupt(p, (size_t)(e - p))) {
            line = 1;
            for (const char *q = buf; (q = memchr(q, '\n', (size_t)(p - q)));
                 q++)
                if ((++line & 0xffff) == 0)
                    pb_rs_consumed(set, q);
            pb_fio_flag_interrupted(set, line, p, (size_t)(e - p), ran, asked);
            return;
        }
        p = nl ? nl + 1 : end;
    }
}

void pb_fio_json_disk_util(struct pb_resultset *set, struct pb_json *doc)
{
    int du = pb_json_get(doc, pb_json_root(doc), "disk_util");
    if (pb_json_type(doc, du) == PB_JSON_ARRAY)
        for (int d = pb_json_first(doc, du); d != PB_JSON_NONE;
             d = pb_json_next(doc, d))
            pb_fio_fact_add(set, NULL, "device", str(doc, d, "name"));
}

int pb_fio_json_entries(struct ctx *c, int arr, size_t n, size_t base,
                        size_t off, size_t *eix, int *after)
{
    struct pb_json *d = c->doc;
    size_t size = pb_json_size(d, arr);
    c->ne = 0;
    c->e = pb_xcalloc((n < size ? n : size) + 1, sizeof(*c->e));
    size_t k = 0;
    int o;
    for (o = pb_json_first(d, arr); o != PB_JSON_NONE && k < n;
         o = pb_json_next(d, o), k++) {
        if (!is_object(d, o))
            continue;
        if (eix)
            eix[c->ne] = k;
        pb_fio_json_entry(d, o, base + k, &c->e[c->ne++], c->set);
    }
    if (after)
        *after = o;
    int rc = PB_OK;
    for (size_t i = 0; i < c->ne && rc == PB_OK; i++) /* json+ (fio_bins.c) */
        rc = pb_fio_json_bins(d, c->e[i].obj, c->path, c->buf, off, c->set,
                              &c->e[i].job.st, c->err);
    return rc;
}

/* ==== parse ==== */

void pb_fio_json_build(void *ctx, size_t i, size_t n)
{
    struct ctx *c = ctx;
    for (size_t k = i; k < i + n; k++) {
        struct entry *e = &c->e[k];
        if (!e->job.usable)
            continue;
        if (e->is_agg) { /* after its clients, which are built */
            e->job.jobname = resolve_aggregate(c, k);
            continue;
        }
        pb_fio_json_merged(c, e);
        json_test(c, e);
    }
}

const struct pb_parser pb_parser_fio_json = {
    .name = "fio-json",
    .flags = PB_PARSER_STREAMS,
    .sniff = fio_sniff,
    .parse = pb_fio_json_parse,
    .stream_min = PB_STREAM_MIN_JSON,
};
