/* The latency distributions of the report's tests (fio json+ bins,
 * schema v5): the histograms of one test, configuration and latency
 * (repeats, several sources) read through reads.c and summed, ordered by
 * test, kind and configuration; render/latency.c draws them. */
#include "analysis/data.h"

#include <stdlib.h>
#include <string.h>

struct lctx {
    struct rp_lat *l;
    const struct rp_data *d;
};

static size_t test_at(const struct rp_data *d, long long id)
{
    size_t lo = 0, hi = d->ntests;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->tests[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->ntests && d->tests[lo].id == id ? lo : SIZE_MAX;
}

static size_t config_at(const struct rp_data *d, long long id)
{
    size_t lo = 0, hi = d->nconfigs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->configs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nconfigs && d->configs[lo].id == id ? lo : SIZE_MAX;
}

/* The metric filter (if any) keeps the percentiles of kind. */
static int kept(const struct rp_data *d, const char *kind)
{
    if (!d->metric_filtered)
        return 1;
    size_t n = strlen(kind);
    for (size_t m = 0; m < d->nmetrics; m++) {
        const char *name = d->metrics[m].name;
        if (!strncmp(name, kind, n) && !strncmp(name + n, "_p", 2))
            return 1;
    }
    return 0;
}

static uint64_t key_hash(size_t t, size_t c, const char *kind)
{
    uint64_t h = 1469598103934665603ULL ^ t;
    h = (h * 1099511628211ULL) ^ c;
    for (; *kind; kind++)
        h = (h ^ (unsigned char)*kind) * 1099511628211ULL;
    return h ^ (h >> 29);
}

/* The distribution of (test, config, kind), added when new. */
static struct rp_dist *find_or_add(struct rp_lat *l, size_t ti, size_t ci,
                                const char *kind)
{
    if (2 * (l->n + 1) > l->nslots) {
        size_t cap = l->nslots ? l->nslots * 2 : 64;
        free(l->slots);
        l->slots = pb_xcalloc(cap, sizeof(*l->slots));
        l->nslots = cap;
        for (size_t i = 0; i < l->n; i++) {
            size_t j = key_hash(l->v[i].test, l->v[i].config, l->v[i].kind) &
                       (cap - 1);
            while (l->slots[j])
                j = (j + 1) & (cap - 1);
            l->slots[j] = i + 1;
        }
    }
    size_t mask = l->nslots - 1;
    for (size_t j = key_hash(ti, ci, kind) & mask;; j = (j + 1) & mask) {
        if (!l->slots[j]) {
            PB_GROW(l->v, l->cap, l->n + 1);
            struct rp_dist *t = &l->v[l->n];
            memset(t, 0, sizeof(*t));
            t->test = ti;
            t->config = ci;
            t->kind = rp_clean(&l->arena, kind);
            l->slots[j] = ++l->n;
            return t;
        }
        struct rp_dist *t = &l->v[l->slots[j] - 1];
        if (t->test == ti && t->config == ci && !strcmp(t->kind, kind))
            return t;
    }
}

static int on_hist(void *vctx, const struct pb_db_hist *h)
{
    struct lctx *x = vctx;
    const struct rp_data *d = x->d;
    /* only completion latency is drawn; under --metric, only when the
     * filter keeps its percentiles ("read_clat_p50") */
    if (!strstr(h->kind, "_clat") || !kept(d, h->kind))
        return 0;
    size_t ti = test_at(d, h->test_id), ci = config_at(d, h->config_id);
    if (ti == SIZE_MAX || ci == SIZE_MAX || !d->configs[ci].used)
        return 0; /* filtered out */
    ti = rp_ignore_canon(d, ti);
    if (!d->tests[ti].used)
        return 0;
    struct rp_dist *t = find_or_add(x->l, ti, ci, h->kind);
    if (t->n + h->n > t->cap) {
        t->cap = (t->n + h->n) * 2;
        t->val = realloc(t->val, t->cap * sizeof(*t->val));
        t->cnt = realloc(t->cnt, t->cap * sizeof(*t->cnt));
        if (!t->val || !t->cnt)
            abort();
    }
    memcpy(t->val + t->n, h->value, h->n * sizeof(*t->val));
    memcpy(t->cnt + t->n, h->count, h->n * sizeof(*t->cnt));
    t->n += h->n;
    t->total += h->total;
    t->nhist++;
    return 0;
}

struct pair {
    uint64_t v, c;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Sort the pairs of a summed distribution and add up equal values. */
static void finish(struct rp_dist *t)
{
    if (t->nhist < 2)
        return;
    struct pair *p = pb_xcalloc(t->n + 1, sizeof(*p));
    for (size_t i = 0; i < t->n; i++) {
        p[i].v = t->val[i];
        p[i].c = t->cnt[i];
    }
    qsort(p, t->n, sizeof(*p), cmp_pair);
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (m && t->val[m - 1] == p[i].v) {
            t->cnt[m - 1] += p[i].c;
        } else {
            t->val[m] = p[i].v;
            t->cnt[m++] = p[i].c;
        }
    }
    t->n = m;
    free(p);
}

/* Test rank, kind, config rank: a test's distributions are one run.
 * ctx: the struct rp_data whose ranks order them. */
static int cmp_order(const void *a, const void *b, void *ctx)
{
    const struct rp_dist *x = a, *y = b;
    const struct rp_data *sort_d = ctx;
    size_t ta = sort_d->tests[x->test].rank, tb = sort_d->tests[y->test].rank;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    int k = strcmp(x->kind, y->kind);
    if (k)
        return k;
    size_t ra = sort_d->configs[x->config].rank;
    size_t rb = sort_d->configs[y->config].rank;
    return ra < rb ? -1 : ra > rb;
}

struct rp_lat *rp_lat_load(struct pb_db *db, const struct rp_data *d,
                           const struct pb_db_filter *f, int nines, int *rc,
                           struct pb_err *err)
{
    struct rp_lat *l = pb_xcalloc(1, sizeof(*l));
    pb_arena_init(&l->arena);
    l->nines = nines;
    struct lctx x = {l, d};
    *rc = pb_an_each_hist(db, f, on_hist, &x, err);
    if (*rc || !l->n) {
        rp_lat_free(l);
        return NULL;
    }
    for (size_t i = 0; i < l->n; i++)
        finish(&l->v[i]);
    free(l->slots);
    l->slots = NULL;
    rp_sort(l->v, l->n, sizeof(*l->v), cmp_order, d);
    return l;
}

void rp_lat_free(struct rp_lat *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].val);
        free(l->v[i].cnt);
    }
    free(l->v);
    free(l->slots);
    pb_arena_release(&l->arena);
    free(l);
}
