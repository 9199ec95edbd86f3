/* Sweeps: the candidate dimensions of a metric's cells (config and test
 * parameters, the label of configurations no parameter tells apart, the
 * tool, the test name), their sorted values and each cell's value index. */
#include "analysis/sweeps.h"
#include "analysis/sweep_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== keys ==== */

static const char *const pref_keys[] = {
    "bs",        "recordsize",  "volblocksize", "iodepth",     "numjobs",
    "file_size", "record_size", "compression",  "pool_layout", "layout",
    "vdevs",     "ashift",      "sync",         "logbias",     "primarycache",
    "slog",      "l2arc",       "atime",        "disk_format", "guest_fs",
    "rw",        "clients",     "direct",       "fsync",       "rwmixread",
    "ioengine",  NULL};

/* Test parameters that name which program ran rather than how: PTS's
 * arguments (the profile's command line), app_version and scale (one PTS
 * result per unit). They differ between programs of a suite, and with
 * every other option of one program: never a sweep axis (docs/report.md,
 * "Sweeps"). */
static const char *const identity_keys[] = {"arguments", "app_version", "scale",
                                            NULL};

int rp_sw_identity_key(const char *key)
{
    for (int i = 0; identity_keys[i]; i++)
        if (!strcmp(identity_keys[i], key))
            return 1;
    return 0;
}

int rp_sw_pref(const char *key)
{
    for (int i = 0; pref_keys[i]; i++)
        if (!strcmp(pref_keys[i], key))
            return i;
    return 100;
}

const char *rp_sw_value(const struct rp_data *d, const struct rp_cell *c,
                        const struct cand *k)
{
    switch (k->kind) {
    case RP_DIM_CONFIG: {
        const struct rp_config *cf = &d->configs[c->config];
        return rp_param(cf->params, cf->nparams, k->key);
    }
    case RP_DIM_TEST: {
        const struct rp_test *t = &d->tests[c->test];
        return rp_param(t->params, t->nparams, k->key);
    }
    case RP_DIM_LABEL:
        return !k->only || k->only[c->config] ? d->configs[c->config].label
                                              : NULL;
    case RP_DIM_TEST_NAME:
        return d->tests[c->test].name;
    case RP_DIM_FAMILY:
        return d->tests[c->test].tool;
    case RP_DIM_OTHERS:
        return NULL; /* its values are made by sweep_panels.c */
    }
    return NULL;
}

const char *rp_sw_text(const struct cand *k, const char *v, char *buf, size_t n)
{
    if (!v)
        return "–";
    return k->kind == RP_DIM_CONFIG || k->kind == RP_DIM_TEST
               ? rp_param_text(k->key, v, buf, n)
               : v;
}

const char *rp_sw_key(const struct cand *k)
{
    return k->kind == RP_DIM_LABEL ? "config" : k->key;
}

/* ==== values ==== */

static int is_number(const char *s, double *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

/* A cell's value of k is its config's or its test's: the same for every
 * cell of that owner. */
static size_t owner_of(const struct rp_cell *c, const struct cand *k)
{
    return k->kind == RP_DIM_CONFIG || k->kind == RP_DIM_LABEL ? c->config
                                                               : c->test;
}

static size_t owners(const struct rp_data *d, const struct cand *k)
{
    return k->kind == RP_DIM_CONFIG || k->kind == RP_DIM_LABEL ? d->nconfigs
                                                               : d->ntests;
}

/* A value and its number, so that sorting does not parse it again. */
struct sval {
    const char *s;
    double num;
};

/* Values in order: NULL last; numbers by value when numeric (then every
 * non-NULL one is a number), else and on ties in natural order. */
static int sval_cmp(const struct sval *x, const struct sval *y, int numeric)
{
    if (!x->s || !y->s)
        return x->s ? -1 : y->s ? 1 : 0;
    if (numeric && x->num != y->num)
        return x->num < y->num ? -1 : 1;
    return rp_natcmp(x->s, y->s);
}

/* ctx: the int that says whether the values are numbers */
static int cmp_sval(const void *a, const void *b, void *ctx)
{
    return sval_cmp(a, b, *(const int *)ctx);
}

/* One value per owner: the cells of a config or test repeat its values. */
void rp_sw_values(const struct rp_data *d, const size_t *cells, size_t n,
                  struct cand *k, struct pb_arena *a)
{
    unsigned char *seen = pb_xcalloc(owners(d, k) + 1, 1);
    struct sval *v = pb_xcalloc(n + 1, sizeof(*v));
    size_t m = 0;
    int numeric = 1;
    for (size_t i = 0; i < n; i++) {
        const struct rp_cell *c = &d->cells[cells[i]];
        size_t o = owner_of(c, k);
        if (seen[o])
            continue;
        seen[o] = 1;
        v[m].s = rp_sw_value(d, c, k);
        if (v[m].s && !is_number(v[m].s, &v[m].num))
            numeric = 0;
        m++;
    }
    rp_sort(v, m, sizeof(*v), cmp_sval, &numeric);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || sval_cmp(&v[u - 1], &v[i], numeric) != 0)
            v[u++] = v[i];
    k->numeric = numeric;
    k->nvals = u;
    k->vals = pb_arena_alloc(a, (u + 1) * sizeof(*k->vals));
    k->nums = pb_arena_alloc(a, (u + 1) * sizeof(*k->nums));
    for (size_t i = 0; i < u; i++) {
        k->vals[i] = v[i].s;
        k->nums[i] = v[i].num;
    }
    free(v);
    free(seen);
}

static size_t value_index(const struct cand *k, const char *v)
{
    /* v is one of the values: parsed once, compared as they were sorted */
    struct sval key = {v, 0};
    if (k->numeric && v)
        is_number(v, &key.num);
    size_t lo = 0, hi = k->nvals;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        struct sval at = {k->vals[mid], k->nums[mid]};
        int c = sval_cmp(&at, &key, k->numeric);
        if (c < 0)
            lo = mid + 1;
        else if (c > 0)
            hi = mid;
        else
            return mid;
    }
    return lo < k->nvals ? lo : k->nvals - 1;
}

/* Looked up once per owner. */
void rp_sw_fill(const struct rp_data *d, const size_t *cells, size_t n,
                const struct cand *k, uint32_t *vi, size_t stride, size_t col)
{
    size_t no = owners(d, k);
    size_t *memo = pb_xmalloc((no + 1) * sizeof(size_t));
    for (size_t i = 0; i <= no; i++)
        memo[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const struct rp_cell *c = &d->cells[cells[i]];
        size_t o = owner_of(c, k);
        if (memo[o] == SIZE_MAX)
            memo[o] = value_index(k, rp_sw_value(d, c, k));
        vi[i * stride + col] = (uint32_t)memo[o];
    }
    free(memo);
}

/* ==== sorting rows by tuples ==== */

/* Stable counting sorts from the last dimension to the first (value
 * indexes are small), a few passes instead of n log n comparisons. */
void rp_sw_sort(size_t *order, size_t n, const uint32_t *vi, size_t stride,
                const size_t *dims, size_t ndims)
{
    size_t *tmp = pb_xcalloc(n + 1, sizeof(size_t));
    size_t *cnt = NULL, capcnt = 0;
    for (size_t q = ndims; q-- > 0;) {
        size_t dim = dims[q], maxv = 0;
        for (size_t i = 0; i < n; i++) {
            size_t v = vi[order[i] * stride + dim];
            if (v > maxv)
                maxv = v;
        }
        if (maxv + 2 > capcnt) {
            free(cnt);
            capcnt = maxv + 2;
            cnt = pb_xmalloc(capcnt * sizeof(size_t));
        }
        memset(cnt, 0, (maxv + 2) * sizeof(size_t));
        for (size_t i = 0; i < n; i++)
            cnt[vi[order[i] * stride + dim] + 1]++;
        for (size_t v = 1; v <= maxv + 1; v++)
            cnt[v] += cnt[v - 1];
        for (size_t i = 0; i < n; i++)
            tmp[cnt[vi[order[i] * stride + dim]]++] = order[i];
        memcpy(order, tmp, n * sizeof(size_t));
    }
    free(cnt);
    free(tmp);
}

int rp_sw_same(const uint32_t *vi, size_t stride, const size_t *dims,
               size_t ndims, size_t a, size_t b)
{
    for (size_t i = 0; i < ndims; i++)
        if (vi[a * stride + dims[i]] != vi[b * stride + dims[i]])
            return 0;
    return 1;
}

/* ==== the candidates ==== */

/* Distinct parameter keys: a set by content (a key is in every config
 * or test that has it, 32,000 copies for 4,000 PTS tests). */
struct keyset {
    const char **v; /* open addressing; NULL = empty */
    size_t mask, n;
    const char **list; /* in order of arrival */
    size_t cap;
};

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void add_keys(struct keyset *ks, const struct rp_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (2 * (ks->n + 1) > ks->mask + 1 || !ks->v) {
            /* grow: rehash the list */
            size_t cap = ks->v ? 2 * (ks->mask + 1) : 64;
            free(ks->v);
            ks->v = pb_xcalloc(cap, sizeof(*ks->v));
            ks->mask = cap - 1;
            for (size_t k = 0; k < ks->n; k++) {
                size_t j = (size_t)str_hash(ks->list[k]) & ks->mask;
                while (ks->v[j])
                    j = (j + 1) & ks->mask;
                ks->v[j] = ks->list[k];
            }
        }
        const char *key = kv[i].key;
        size_t j = (size_t)str_hash(key) & ks->mask;
        while (ks->v[j] && strcmp(ks->v[j], key))
            j = (j + 1) & ks->mask;
        if (ks->v[j])
            continue;
        ks->v[j] = key;
        PB_GROW(ks->list, ks->cap, ks->n + 1);
        ks->list[ks->n++] = key;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A pseudo-dimension (label, family, test name) at cands[ncand]: kept, with
 * each cell's value index in column ncand, when it takes two values or
 * more. The new number of candidates. */
static size_t add_pseudo(struct sw_metric *m, enum rp_dimkind kind,
                         const char *key, int pref, const unsigned char *only)
{
    struct cand *k = &m->cands[m->ncand];
    k->kind = kind;
    k->key = key;
    k->pref = pref;
    k->only = only;
    rp_sw_values(m->d, m->cells, m->n, k, m->arena);
    if (k->nvals < 2)
        return m->ncand;
    rp_sw_fill(m->d, m->cells, m->n, k, m->vi, m->stride, m->ncand);
    return m->ncand + 1;
}

/* Config and test keys with two values or more (test identity keys
 * left out), config keys first, each sorted. */
static void param_cands(struct sw_metric *m)
{
    struct rp_data *d = m->d;
    struct keyset cks = {0}, tks = {0};
    unsigned char *cseen = pb_xcalloc(d->nconfigs + 1, 1);
    unsigned char *tseen = pb_xcalloc(d->ntests + 1, 1);
    for (size_t i = 0; i < m->n; i++) {
        const struct rp_cell *c = &d->cells[m->cells[i]];
        if (!cseen[c->config]) {
            cseen[c->config] = 1;
            add_keys(&cks, d->configs[c->config].params,
                     d->configs[c->config].nparams);
        }
        if (!tseen[c->test]) {
            tseen[c->test] = 1;
            add_keys(&tks, d->tests[c->test].params, d->tests[c->test].nparams);
        }
    }
    free(cseen);
    free(tseen);
    free(cks.v);
    free(tks.v);
    if (cks.n)
        qsort(cks.list, cks.n, sizeof(*cks.list), cmp_str);
    if (tks.n)
        qsort(tks.list, tks.n, sizeof(*tks.list), cmp_str);
    /* room for the label, tool, test name and a composite series */
    m->cands = pb_xcalloc(cks.n + tks.n + 5, sizeof(*m->cands));
    m->ncand = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char **keys = pass ? tks.list : cks.list;
        size_t nkeys = pass ? tks.n : cks.n;
        for (size_t i = 0; i < nkeys; i++) {
            if (i && !strcmp(keys[i], keys[i - 1]))
                continue;
            if (pass && rp_sw_identity_key(keys[i]))
                continue;
            struct cand *k = &m->cands[m->ncand];
            k->kind = pass ? RP_DIM_TEST : RP_DIM_CONFIG;
            k->key = keys[i];
            k->pref = rp_sw_pref(keys[i]);
            rp_sw_values(d, m->cells, m->n, k, m->arena);
            if (k->nvals >= 2)
                m->ncand++;
        }
    }
    free(cks.list);
    free(tks.list);
}

/* The configurations the config parameters do not tell apart ("hdd" and
 * "ssd" with no parameters): their label is a dimension of its own, so
 * that results of different systems never share a series by accident.
 * Returns them marked (caller frees), or NULL when there are none. */
static unsigned char *twins(struct sw_metric *m, size_t *order, size_t *dims)
{
    struct rp_data *d = m->d;
    unsigned char *ambig = pb_xcalloc(d->nconfigs + 1, 1);
    size_t nc = 0;
    for (size_t q = 0; q < m->ncand; q++)
        if (m->cands[q].kind == RP_DIM_CONFIG)
            dims[nc++] = q;
    for (size_t i = 0; i < m->n; i++)
        order[i] = i;
    rp_sw_sort(order, m->n, m->vi, m->stride, dims, nc);
    int any = 0;
    for (size_t i = 0; i < m->n;) {
        size_t j = i + 1;
        int differ = 0;
        while (j < m->n &&
               rp_sw_same(m->vi, m->stride, dims, nc, order[i], order[j])) {
            differ |= d->cells[m->cells[order[j]]].config !=
                      d->cells[m->cells[order[i]]].config;
            j++;
        }
        for (size_t q = i; differ && q < j; q++)
            ambig[d->cells[m->cells[order[q]]].config] = 1;
        any |= differ;
        i = j;
    }
    if (!any) {
        free(ambig);
        return NULL;
    }
    return ambig;
}

void rp_sw_candidates(struct sw_metric *m)
{
    param_cands(m);
    m->stride = m->ncand + 4;
    m->vi = pb_xcalloc(m->n * m->stride + 1, sizeof(uint32_t));
    for (size_t k = 0; k < m->ncand; k++)
        rp_sw_fill(m->d, m->cells, m->n, &m->cands[k], m->vi, m->stride, k);
    size_t *order = pb_xcalloc(m->n + 1, sizeof(size_t));
    size_t *dims = pb_xcalloc(m->stride + 1, sizeof(size_t));
    m->label = SIZE_MAX;
    unsigned char *ambig = twins(m, order, dims);
    if (ambig) {
        /* the marks live as long as the candidate */
        unsigned char *only = pb_arena_alloc(m->arena, m->d->nconfigs + 1);
        memcpy(only, ambig, m->d->nconfigs + 1);
        free(ambig);
        size_t k = add_pseudo(m, RP_DIM_LABEL, "config", 200, only);
        if (k > m->ncand)
            m->label = m->ncand;
        m->ncand = k;
    }
    /* The test family (the tool: "fio", "pts/fio-2.1.0", "pts/c-ray-1.2.0")
     * groups cells like a dimension, so that no sweep puts two programs on
     * one axis, but is never an axis itself. */
    m->ncand = add_pseudo(m, RP_DIM_FAMILY, "tool", 300, NULL);
    m->nreal = m->ncand;
    /* Cells still not told apart (tests differing by name only): the test
     * name tells them apart, without grouping them. */
    for (size_t k = 0; k < m->ncand; k++)
        dims[k] = k;
    for (size_t i = 0; i < m->n; i++)
        order[i] = i;
    rp_sw_sort(order, m->n, m->vi, m->stride, dims, m->ncand);
    int collide = 0;
    for (size_t i = 1; i < m->n && !collide; i++)
        collide = rp_sw_same(m->vi, m->stride, dims, m->ncand, order[i - 1],
                             order[i]);
    if (collide)
        m->ncand = add_pseudo(m, RP_DIM_TEST_NAME, "test", 201, NULL);
    free(order);
    free(dims);
    m->dep = rp_sw_dependencies(m->cands, m->vi, m->stride, m->n, m->nreal);
}
