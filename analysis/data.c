/* The report's model: one pass over the sorted result rows of model/,
 * repeats of a config/test/metric folded into mean, standard error and n,
 * then cells ordered by test (natural order), metric and config
 * (data_order.c). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "analysis/data.h"
#include "analysis/stream_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ==== lookups by id ==== */

/* Index of id in an array of structs sorted by their leading id. */
#define FIND_BY_ID(arr, n, want, out)                                          \
    do {                                                                       \
        size_t lo_ = 0, hi_ = (n);                                             \
        (out) = SIZE_MAX;                                                      \
        while (lo_ < hi_) {                                                    \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                               \
            if ((arr)[mid_].id < (want))                                       \
                lo_ = mid_ + 1;                                                \
            else                                                               \
                hi_ = mid_;                                                    \
        }                                                                      \
        if (lo_ < (n) && (arr)[lo_].id == (want))                              \
            (out) = lo_;                                                       \
    } while (0)

const char *rp_param(const struct rp_kv *params, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(params[i].key, key))
            return params[i].value;
    return NULL;
}

/* ==== listings ==== */

/* The intern table's memory: a mapping of its own, not a malloc chunk.
 * Freeing a chunk of 4 MB (100,000 machines) raised glibc's mmap
 * threshold to it, and the report's later buffers of up to that size then
 * stayed in the heap (model/rsort.h, struct db_map, has the same). */
static const char **strs_alloc(size_t n)
{
    void *p = mmap(NULL, n * sizeof(const char *), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "poolbench: out of memory allocating %zu bytes\n",
                n * sizeof(const char *));
        abort();
    }
    return p; /* zeroed */
}

static void strs_free(struct rp_data *d)
{
    if (d->strs)
        munmap((void *)d->strs, d->capstrs * sizeof(*d->strs));
    d->strs = NULL;
    d->nstrs = d->capstrs = 0;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

/* rp_clean(s), stored once: 50,000 sources repeat the same fact keys,
 * hosts and versions (NULL gives NULL). stored: the text to keep for s
 * when it is new (rp_clean(s), held elsewhere in d->arena); NULL: a copy
 * is made. */
static const char *intern_as(struct rp_data *d, const char *s,
                             const char *stored)
{
    if (!s)
        return NULL;
    if ((d->nstrs + 1) * 2 > d->capstrs) {
        size_t ncap = d->capstrs ? d->capstrs * 2 : 256;
        const char **nv = strs_alloc(ncap);
        for (size_t i = 0; i < d->capstrs; i++) {
            if (!d->strs[i])
                continue;
            size_t h = (size_t)hash_str(d->strs[i]) & (ncap - 1);
            while (nv[h])
                h = (h + 1) & (ncap - 1);
            nv[h] = d->strs[i];
        }
        size_t n = d->nstrs;
        strs_free(d);
        d->strs = nv;
        d->nstrs = n;
        d->capstrs = ncap;
    }
    /* probed by the text as read; a text rp_clean changed is found only
     * by its cleaned form (stored again, never wrong: clean is
     * idempotent) */
    size_t h = (size_t)hash_str(s) & (d->capstrs - 1);
    while (d->strs[h]) {
        if (!strcmp(d->strs[h], s))
            return d->strs[h];
        h = (h + 1) & (d->capstrs - 1);
    }
    d->strs[h] = stored ? stored : rp_clean(&d->arena, s);
    d->nstrs++;
    return d->strs[h];
}

static const char *intern(struct rp_data *d, const char *s)
{
    return intern_as(d, s, NULL);
}

/* The context of the table callbacks (pb_an_report_tables). */
struct tables_ctx {
    struct rp_data *d;
    int tests;   /* reading test parameters (configuration ones before) */
    size_t last; /* index of the last owner found */
    size_t *first; /* by configuration: its first parameter in d->cparams
                      while they are read (config_param) */
    size_t nfirst;
};

static int on_source(void *ctx, const struct pb_db_source *s)
{
    struct rp_data *d = ((struct tables_ctx *)ctx)->d;
    PB_GROW(d->sources, d->capsources, d->nsources + 1);
    struct rp_source *o = &d->sources[d->nsources++];
    o->id = s->id;
    o->path = rp_clean(&d->arena, s->path ? s->path : "-");
    o->format = intern(d, s->format ? s->format : "");
    o->tool_version = intern(d, s->tool_version);
    o->ingested_at = intern(d, s->ingested_at);
    o->sha256 = rp_clean(&d->arena, s->sha256);
    o->size = s->size;
    o->nresults = s->nresults;
    o->used = 0;
    return 0;
}

static int on_config(void *ctx, const struct pb_db_triple *t)
{
    struct rp_data *d = ((struct tables_ctx *)ctx)->d;
    PB_GROW(d->configs, d->capconfigs, d->nconfigs + 1);
    struct rp_config *c = &d->configs[d->nconfigs++];
    memset(c, 0, sizeof(*c));
    c->id = t->id;
    /* kept as "label: NAME", the origin of the parameters read from the
     * label, whose tail is the label; both interned, so that the origins
     * and a fact's host (bonnie++'s machine name) share the one copy
     * (100,000 machines: 12.8 MB of second and third copies) */
    char *o = pb_xasprintf("label: %s", t->a ? t->a : "");
    const char *full = intern(d, o);
    free(o);
    c->label = intern_as(d, full + 7, full + 7);
    return 0;
}

static int on_test(void *ctx, const struct pb_db_triple *t)
{
    struct rp_data *d = ((struct tables_ctx *)ctx)->d;
    PB_GROW(d->tests, d->captests, d->ntests + 1);
    struct rp_test *o = &d->tests[d->ntests++];
    memset(o, 0, sizeof(*o));
    o->id = t->id;
    o->name = rp_clean(&d->arena, t->a ? t->a : "");
    o->tool = rp_clean(&d->arena, t->b ? t->b : "");
    return 0;
}


static void shrink_params(struct rp_kv **kv, size_t *cap, size_t n)
{
    if (*kv && n && *cap > n) {
        *kv = pb_xrealloc(*kv, n * sizeof(**kv));
        *cap = n;
    }
}

/* p (of *cap elements of size sz, n used) reallocated to n + 1. */
static void *shrink_to(void *p, size_t n, size_t *cap, size_t sz)
{
    if (!p || n + 1 >= *cap)
        return p;
    *cap = n + 1;
    return pb_xrealloc(p, *cap * sz);
}

/* A configuration parameter appended to d->cparams: while the tables are
 * read, first[i] is the index of configuration i's first parameter there
 * (its params pointer is set when the block is whole, params_done). The
 * rows come by configuration (ORDER BY config_id); one whose parameters
 * were interrupted has them moved to the end first. */
static struct rp_kv *config_param(struct rp_data *d, struct tables_ctx *p,
                                  size_t i)
{
    struct rp_config *c = &d->configs[i];
    if (!p->first) {
        p->first = pb_xcalloc(d->nconfigs + 1, sizeof(*p->first));
        p->nfirst = d->nconfigs;
    }
    if (!c->nparams) {
        p->first[i] = d->ncparams;
    } else if (p->first[i] + c->nparams != d->ncparams) {
        PB_GROW(d->cparams, d->capcparams, d->ncparams + c->nparams);
        memmove(d->cparams + d->ncparams, d->cparams + p->first[i],
                c->nparams * sizeof(*d->cparams));
        p->first[i] = d->ncparams;
        d->ncparams += c->nparams;
    }
    PB_GROW(d->cparams, d->capcparams, d->ncparams + 1);
    return &d->cparams[d->ncparams++];
}

/* The block of configuration parameters at its size, the configurations
 * pointed into it. */
static void params_done(struct rp_data *d, struct tables_ctx *p)
{
    d->cparams = shrink_to(d->cparams, d->ncparams, &d->capcparams,
                           sizeof(*d->cparams));
    for (size_t i = 0; i < d->nconfigs; i++) {
        struct rp_config *c = &d->configs[i];
        c->params = c->nparams && i < p->nfirst ? d->cparams + p->first[i]
                                                : NULL;
    }
    free(p->first);
    p->first = NULL;
}

static int on_param(void *vctx, const struct pb_db_triple *t)
{
    struct tables_ctx *p = vctx;
    struct rp_data *d = p->d;
    struct rp_kv *kv;
    size_t i = p->last;
    if (p->tests) {
        if (i >= d->ntests || d->tests[i].id != t->id)
            FIND_BY_ID(d->tests, d->ntests, t->id, i);
        if (i == SIZE_MAX)
            return 0;
        struct rp_test *o = &d->tests[i];
        PB_GROW(o->params, o->cap, o->nparams + 1);
        kv = &o->params[o->nparams++];
    } else {
        if (i >= d->nconfigs || d->configs[i].id != t->id)
            FIND_BY_ID(d->configs, d->nconfigs, t->id, i);
        if (i == SIZE_MAX)
            return 0;
        kv = config_param(d, p, i);
        d->configs[i].nparams++;
    }
    p->last = i;
    /* keys, values and origins repeat across configurations: stored once
     * (100,000 bonnie++ machines: 300,000 parameters of 3 keys and 11
     * values were 19 MB of copies) */
    kv->key = intern(d, t->a ? t->a : "");
    kv->value = intern(d, t->b ? t->b : "");
    kv->origin = intern(d, t->c);
    return 0;
}

/* Test parameters come after every configuration parameter. */
static int on_test_param(void *vctx, const struct pb_db_triple *t)
{
    struct tables_ctx *p = vctx;
    if (!p->tests) {
        p->tests = 1;
        p->last = SIZE_MAX;
    }
    return on_param(p, t);
}

static int on_fact(void *ctx, const struct pb_db_triple *t)
{
    struct rp_data *d = ((struct tables_ctx *)ctx)->d;
    PB_GROW(d->facts, d->capfacts, d->nfacts + 1);
    struct rp_fact *f = &d->facts[d->nfacts++];
    f->source_id = t->id;
    f->host = intern(d, t->a);
    f->key = intern(d, t->b ? t->b : "");
    f->value = intern(d, t->c ? t->c : "");
    return 0;
}

/* ==== rows ==== */

/* One row of the current source within the current group. */
struct pend {
    size_t job, host; /* offsets into strs; SIZE_MAX = NULL */
    int has_value, has_se;
    double value, se;
    long samples;
    size_t reason;
};

struct row_ctx {
    struct rp_data *d;
    int started;
    long long test_id, metric_id, config_id, source_id;
    long long first_source; /* of the current cell */
    size_t test, metric, config;
    struct rp_acc acc;
    long nnull;
    unsigned reason; /* rp_cell.reason of the current cell */
    uint32_t *rhash; /* d->reasons by text: rp_cell.reason, 0 empty */
    size_t caprhash;
    int too_many; /* a reason past RP_MAX_REASONS: the load fails */
    struct pend *pend;
    size_t npend, cappend;
    struct pb_buf strs;
    size_t *bases; /* pend indexes of jobs without '#', in job order */
    size_t capbases;
    long long *metric_ids; /* metric index + 1 by id */
    size_t capmetric_ids;
    char *host1; /* the first host name read, until a second one */
    uint64_t *hosth; /* by configuration: hash of its first host name (0
                        none), until one has a second (config_hosts) */
};

static size_t keep_str(struct row_ctx *r, const char *s)
{
    if (!s)
        return SIZE_MAX;
    size_t off = r->strs.len;
    pb_buf_add(&r->strs, s, strlen(s) + 1);
    return off;
}

static const char *str_at(const struct row_ctx *r, size_t off)
{
    return off == SIZE_MAX ? NULL : r->strs.s + off;
}

static void rhash_put(struct row_ctx *r, unsigned id)
{
    size_t h = (size_t)hash_str(r->d->reasons[id - 1]) & (r->caprhash - 1);
    while (r->rhash[h])
        h = (h + 1) & (r->caprhash - 1);
    r->rhash[h] = id;
}

/* The rp_cell.reason of s (an interned text): found by its text, else
 * appended to d->reasons; 0 and too_many past RP_MAX_REASONS. */
static unsigned reason_id(struct row_ctx *r, const char *s)
{
    struct rp_data *d = r->d;
    if ((d->nreasons + 1) * 2 > r->caprhash) {
        free(r->rhash);
        r->caprhash = r->caprhash ? r->caprhash * 2 : 64;
        r->rhash = pb_xcalloc(r->caprhash, sizeof(*r->rhash));
        for (size_t i = 0; i < d->nreasons; i++)
            rhash_put(r, (unsigned)i + 1);
    }
    size_t h = (size_t)hash_str(s) & (r->caprhash - 1);
    for (; r->rhash[h]; h = (h + 1) & (r->caprhash - 1))
        if (!strcmp(d->reasons[r->rhash[h] - 1], s))
            return r->rhash[h];
    if (d->nreasons >= RP_MAX_REASONS) {
        r->too_many = 1;
        return 0;
    }
    PB_GROW(d->reasons, d->capreasons, d->nreasons + 1);
    d->reasons[d->nreasons++] = s;
    r->rhash[h] = (uint32_t)d->nreasons;
    return (unsigned)d->nreasons;
}

const char *rp_cell_reason(const struct rp_data *d, const struct rp_cell *c)
{
    return c->reason ? d->reasons[c->reason - 1] : NULL;
}

/* Does a row whose job is exactly job[0..len) exist in this source? */
static int has_base(const struct row_ctx *r, size_t nb, const char *job,
                    size_t len)
{
    size_t lo = 0, hi = nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *j = str_at(r, r->pend[r->bases[mid]].job);
        int c = strncmp(j, job, len);
        if (c == 0 && j[len])
            c = 1;
        if (c < 0)
            lo = mid + 1;
        else if (c > 0)
            hi = mid;
        else
            return 1;
    }
    return 0;
}

/* The rows of one source for one cell: a fio aggregate ("job" beside
 * "job#0".."job#n", or host "(all clients)" beside each client) stands for
 * its parts; what is left are repeats. */
static void flush_source(struct row_ctx *r)
{
    if (!r->npend)
        return;
    int all_clients = 0;
    size_t nb = 0;
    for (size_t i = 0; i < r->npend; i++) {
        const char *h = str_at(r, r->pend[i].host);
        if (h && !strcmp(h, "(all clients)"))
            all_clients = 1;
        const char *j = str_at(r, r->pend[i].job);
        if (j && !strchr(j, '#')) {
            PB_GROW(r->bases, r->capbases, nb + 1);
            r->bases[nb++] = i;
        }
    }
    for (size_t i = 0; i < r->npend; i++) {
        const struct pend *p = &r->pend[i];
        const char *h = str_at(r, p->host);
        if (all_clients && (!h || strcmp(h, "(all clients)")))
            continue;
        const char *j = str_at(r, p->job);
        const char *hash = j ? strrchr(j, '#') : NULL;
        if (hash && has_base(r, nb, j, (size_t)(hash - j)))
            continue;
        if (p->has_value && isfinite(p->value)) {
            rp_acc_add(&r->acc, p->value, p->has_se, p->se, p->samples);
        } else {
            r->nnull++;
            if (!r->reason)
                /* stored once: bonnie++'s "+++++" rows gave every null
                 * cell a copy (56 MB at 100,000 machines) */
                r->reason = reason_id(
                    r, intern(r->d, p->reason == SIZE_MAX
                                        ? "no value"
                                        : str_at(r, p->reason)));
        }
    }
    r->npend = 0;
    pb_buf_reset(&r->strs);
}

static void flush_cell(struct row_ctx *r)
{
    flush_source(r);
    if (!r->started)
        return;
    struct rp_data *d = r->d;
    if ((r->acc.k || r->nnull) &&
        !rp_ignore_cell(d, r->test, r->metric, r->config, &r->acc, r->nnull,
                        r->reason)) {
        struct rp_cell one;
        struct rp_cell *c = &one;
        /* a merged test's cells take later streaks (rp_ignore_cell): they
         * stay in memory until the pass ends (stream_merged) */
        int held = !d->stream || rp_ignore_merged(d, r->test);
        if (held) {
            PB_GROW(d->cells, d->capcells, d->ncells + 1);
            c = &d->cells[d->ncells++];
        }
        memset(c, 0, sizeof(*c));
        c->test = r->test;
        c->metric = r->metric;
        c->config = r->config;
        rp_acc_done(&r->acc, c);
        c->nnull = r->nnull;
        c->reason = r->reason;
        c->source = r->first_source;
        d->configs[r->config].used = 1;
        d->tests[r->test].used = 1;
        if (!held)
            rp_stream_put(d, c);
    }
    memset(&r->acc, 0, sizeof(r->acc));
    r->nnull = 0;
    r->reason = 0;
}

static size_t metric_index(struct row_ctx *r, const struct pb_db_rrow *row)
{
    struct rp_data *d = r->d;
    if (row->metric_id >= 0 && (size_t)row->metric_id < (size_t)1 << 30) {
        size_t id = (size_t)row->metric_id;
        if (id < r->capmetric_ids && r->metric_ids[id])
            return (size_t)r->metric_ids[id] - 1;
        size_t old = r->capmetric_ids;
        PB_GROW(r->metric_ids, r->capmetric_ids, id + 1);
        memset(r->metric_ids + old, 0,
               (r->capmetric_ids - old) * sizeof(*r->metric_ids));
        r->metric_ids[id] = (long long)d->nmetrics + 1;
    }
    PB_GROW(d->metrics, d->capmetrics, d->nmetrics + 1);
    struct rp_metric *m = &d->metrics[d->nmetrics];
    m->id = row->metric_id;
    m->name = rp_clean(&d->arena, row->metric ? row->metric : "");
    m->unit = rp_clean(&d->arena, row->unit ? row->unit : "");
    m->dir = row->direction && !strcmp(row->direction, "lower") ? -1 : 1;
    rp_unit_of(m->name, m->unit, &m->u);
    m->headline = rp_metric_headline(m->name);
    return d->nmetrics++;
}

/* A host name of the current configuration's results: a second name
 * sets config_hosts. Names are compared by a 64-bit hash (the rows'
 * strings do not outlive their callback on every path of model/, and a
 * copy per configuration was 5 MB at 100,000 machines): a configuration
 * of two hosts is missed only if their names' hashes collide. */
/* A 64-bit hash of a host name, 8 bytes a step (the byte-wise hash_str
 * of every row's name was 6% of a report at 100,000 bonnie++ machines,
 * whose rows come a configuration, and so a host, each). Each step is a
 * bijection of the hash for a given word, so two names of one length
 * that differ in one 8-byte word never collide. */
static uint64_t host_hash(const char *s)
{
    const uint64_t k = 0xff51afd7ed558ccdULL;
    size_t n = strlen(s), i = 0;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    if (i < n) {
        w = 0;
        memcpy(&w, s + i, n - i);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    return h;
}

static void note_host(struct row_ctx *r, const char *host)
{
    struct rp_data *d = r->d;
    if (!r->hosth)
        r->hosth = pb_xcalloc(d->nconfigs + 1, sizeof(*r->hosth));
    uint64_t h = host_hash(host);
    h += !h;
    if (!r->hosth[r->config])
        r->hosth[r->config] = h;
    else if (r->hosth[r->config] != h) {
        d->config_hosts = 1;
        free(r->hosth);
        r->hosth = NULL;
    }
}

static int on_row(void *vctx, const struct pb_db_rrow *row)
{
    struct row_ctx *r = vctx;
    struct rp_data *d = r->d;
    d->nrows++;
    if (!r->started || row->test_id != r->test_id ||
        row->metric_id != r->metric_id || row->config_id != r->config_id) {
        flush_cell(r);
        size_t ti, ci;
        FIND_BY_ID(d->tests, d->ntests, row->test_id, ti);
        FIND_BY_ID(d->configs, d->nconfigs, row->config_id, ci);
        if (ti == SIZE_MAX || ci == SIZE_MAX) {
            r->started = 0;
            return 0; /* written after our listing: next report */
        }
        r->started = 1;
        r->test_id = row->test_id;
        r->metric_id = row->metric_id;
        r->config_id = row->config_id;
        r->test = rp_ignore_canon(d, ti);
        r->config = ci;
        r->metric = metric_index(r, row);
        r->source_id = row->source_id;
        r->first_source = row->source_id;
    } else if (row->source_id != r->source_id) {
        flush_source(r);
        r->source_id = row->source_id;
    }
    if (row->host && !d->config_hosts)
        note_host(r, row->host);
    size_t si;
    FIND_BY_ID(d->sources, d->nsources, row->source_id, si);
    if (si != SIZE_MAX)
        d->sources[si].used = 1;
    if (row->host && !d->multi_host) {
        if (!r->host1)
            r->host1 = pb_xstrdup(row->host);
        else if (strcmp(r->host1, row->host))
            d->multi_host = 1;
    }
    PB_GROW(r->pend, r->cappend, r->npend + 1);
    struct pend *p = &r->pend[r->npend++];
    p->job = keep_str(r, row->job);
    p->host = keep_str(r, row->host);
    p->has_value = row->has_value;
    p->value = row->value;
    p->has_se = row->has_stderr;
    p->se = row->stderr_;
    p->samples = row->samples;
    p->reason = keep_str(r, row->has_value ? NULL : row->null_reason);
    return r->too_many; /* stops the pass */
}

int rp_data_load(struct pb_db *db, const struct pb_db_filter *f,
                 struct rp_data *d, struct pb_err *err)
{
    return rp_data_load_ignoring(db, f, NULL, d, err);
}

static int cmp_tmc(const void *a, const void *b)
{
    const struct rp_cell *x = a, *y = b;
    if (x->test != y->test)
        return x->test < y->test ? -1 : 1;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    return (x->config > y->config) - (x->config < y->config);
}

/* After the row pass of a streamed load: the merged tests' cells, held in
 * memory while later streaks were added to them, go to the file after
 * every other test's, each test's cells one run. */
static void stream_merged(struct rp_data *d)
{
    rp_ignore_cells_done(d);
    if (d->ncells) /* qsort's base may not be NULL, even for 0 items */
        qsort(d->cells, d->ncells, sizeof(*d->cells), cmp_tmc);
    for (size_t i = 0; i < d->ncells; i++)
        rp_stream_put(d, &d->cells[i]);
    free(d->cells);
    d->cells = NULL;
    d->ncells = d->capcells = 0;
}

/* An experiment's section finds a source's cells among all of them. */
static int has_experiment(const struct rp_data *d)
{
    for (size_t i = 0; i < d->nfacts; i++)
        if (!strcmp(d->facts[i].key, "run.cell"))
            return 1;
    return 0;
}

static int load(struct pb_db *db, const struct pb_db_filter *f,
                const char *const *ignore, int stream, struct rp_data *d,
                struct pb_err *err);

int rp_data_load_ignoring(struct pb_db *db, const struct pb_db_filter *f,
                          const char *const *ignore, struct rp_data *d,
                          struct pb_err *err)
{
    return load(db, f, ignore, 0, d, err);
}

int rp_data_load_streamed(struct pb_db *db, const struct pb_db_filter *f,
                          const char *const *ignore, struct rp_data *d,
                          struct pb_err *err)
{
    return load(db, f, ignore, 1, d, err);
}

static void shrink_arrays(struct rp_data *d)
{
    d->configs = shrink_to(d->configs, d->nconfigs, &d->capconfigs,
                           sizeof(*d->configs));
    d->sources = shrink_to(d->sources, d->nsources, &d->capsources,
                           sizeof(*d->sources));
    d->facts = shrink_to(d->facts, d->nfacts, &d->capfacts,
                         sizeof(*d->facts));
}

static int load(struct pb_db *db, const struct pb_db_filter *f,
                const char *const *ignore, int stream, struct rp_data *d,
                struct pb_err *err)
{
    memset(d, 0, sizeof(*d));
    pb_arena_init(&d->arena);
    d->metric_filtered = f && f->metric_re;
    struct tables_ctx tc = {d, 0, SIZE_MAX, NULL, 0};
    const struct pb_an_tables tables = {
        .source = on_source,
        .config = on_config,
        .test = on_test,
        .config_param = on_param,
        .test_param = on_test_param,
        .fact = on_fact,
        .ctx = &tc,
    };
    int rc = pb_an_report_tables(db, &tables, err);
    if (rc) {
        free(tc.first);
        return rc;
    }
    /* the arrays grew by doubling: at their sizes (100,000 machines: the
     * configurations held room for 131,072) */
    params_done(d, &tc);
    shrink_arrays(d);
    for (size_t i = 0; i < d->ntests; i++)
        shrink_params(&d->tests[i].params, &d->tests[i].cap,
                      d->tests[i].nparams);
    rp_ignore_map(d, ignore);
    if (stream && !has_experiment(d)) {
        /* no temporary file: every cell in memory, as without streaming */
        struct pb_err ignored;
        memset(&ignored, 0, sizeof(ignored));
        if (rp_stream_new(&d->stream, &ignored))
            d->stream = NULL;
    }
    struct row_ctx r;
    memset(&r, 0, sizeof(r));
    r.d = d;
    rc = pb_an_report_rows(db, f, on_row, &r, err);
    if (!rc)
        flush_cell(&r);
    if (r.too_many && (!rc || !err->code)) /* else the pass's own error */
        rc = pb_err_set(err, PB_EINPUT, NULL, 0, 0,
                        "more than %u distinct reasons for a missing value: "
                        "a report holds at most that many",
                        RP_MAX_REASONS);
    if (!rc && d->stream)
        stream_merged(d);
    free(r.pend);
    free(r.bases);
    free(r.metric_ids);
    free(r.host1);
    free(r.hosth);
    free(r.rhash);
    pb_buf_release(&r.strs);
    if (rc)
        return rc;
    /* nothing is interned after the rows: the table goes (4 MB at
     * 100,000 bonnie++ machines); the strings stay in the arena */
    strs_free(d);
    rp_data_order(d);
    rp_mark_groups(d);
    rp_latency_beside(d);
    if (d->stream)
        return rp_stream_resident(d, err);
    return PB_OK;
}

size_t rp_facts_of(const struct rp_data *d, long long id, size_t *first)
{
    size_t lo = pb_lower_bound_id(d->facts, d->nfacts, sizeof(*d->facts),
                                  offsetof(struct rp_fact, source_id), id);
    *first = lo;
    size_t end = lo;
    while (end < d->nfacts && d->facts[end].source_id == id)
        end++;
    return end - lo;
}

const char *rp_fact_of(const struct rp_data *d, long long source,
                       const char *key)
{
    size_t first, n = rp_facts_of(d, source, &first);
    for (size_t i = first; i < first + n; i++)
        if (!strcmp(d->facts[i].key, key))
            return d->facts[i].value;
    return NULL;
}

void rp_data_release(struct rp_data *d)
{
    free(d->cparams);
    for (size_t i = 0; i < d->ntests; i++)
        free(d->tests[i].params);
    free(d->configs);
    free(d->tests);
    free(d->metrics);
    free(d->cells);
    free(d->groups);
    free(d->sources);
    free(d->facts);
    free(d->reasons);
    strs_free(d);
    rp_ignore_release(d);
    rp_stream_free(d->stream);
    pb_arena_release(&d->arena);
    memset(d, 0, sizeof(*d));
}
