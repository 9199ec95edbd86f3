/* Test identity for comparison (--ignore-param): tests that differ only
 * in ignored parameters (runtime, size, ... by default) are one test in
 * the report; their results are aggregated as repeats. The stored tests
 * are unchanged (docs/model.md, "Tests: stored identity
 * and compared identity"). */
#include "analysis/data.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const pb_an_default_ignore[] = {"runtime", "size",
                                                "ramp_time", "time_based",
                                                NULL};

/* One merged cell: its accumulator (kept to add later streaks). */
struct slot {
    size_t test, metric, config; /* key; test SIZE_MAX = free */
    size_t cell;
    struct rp_acc acc;
};

struct rp_merge {
    size_t *canon;         /* test index -> the index of its identity */
    unsigned char *merged; /* test index: its identity has several tests */
    struct slot *v;
    size_t n, cap; /* cap a power of two */
};

static int ignored(const char *const *ignore, const char *key)
{
    for (size_t i = 0; ignore[i]; i++)
        if (!strcmp(ignore[i], key))
            return 1;
    return 0;
}

/* tool, name and the kept parameters of test t, as one text. */
static char *identity(const struct rp_test *t, const char *const *ignore)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "%s\x1f%s", t->tool, t->name);
    for (size_t i = 0; i < t->nparams; i++)
        if (!ignored(ignore, t->params[i].key))
            pb_buf_printf(&b, "\x1f%s=%s", t->params[i].key,
                          t->params[i].value);
    return pb_buf_take(&b);
}

/* ctx: the tests' identity keys (char *const *), indexed by test */
static int cmp_ident(const void *a, const void *b, void *ctx)
{
    char *const *sort_keys = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_keys[x], sort_keys[y]);
    return c ? c : (x > y) - (x < y);
}

void rp_ignore_map(struct rp_data *d, const char *const *ignore)
{
    if (!ignore)
        ignore = pb_an_default_ignore;
    if (!ignore[0] || d->ntests < 2)
        return;
    char **keys = pb_xcalloc(d->ntests, sizeof(*keys));
    size_t *ix = pb_xcalloc(d->ntests, sizeof(*ix));
    for (size_t i = 0; i < d->ntests; i++) {
        keys[i] = identity(&d->tests[i], ignore);
        ix[i] = i;
    }
    rp_sort(ix, d->ntests, sizeof(*ix), cmp_ident, keys);
    struct rp_merge *m = NULL;
    for (size_t i = 0; i < d->ntests;) {
        size_t j = i + 1;
        while (j < d->ntests && !strcmp(keys[ix[i]], keys[ix[j]]))
            j++;
        if (j - i > 1) {
            if (!m) {
                m = pb_xcalloc(1, sizeof(*m));
                m->canon = pb_xcalloc(d->ntests, sizeof(*m->canon));
                m->merged = pb_xcalloc(d->ntests, 1);
                for (size_t k = 0; k < d->ntests; k++)
                    m->canon[k] = k;
            }
            /* the smallest index (test id) stands for the group; an
             * ignored parameter whose values differ is not shown */
            struct rp_test *c = &d->tests[ix[i]];
            for (size_t k = i; k < j; k++) {
                m->canon[ix[k]] = ix[i];
                m->merged[ix[k]] = 1;
            }
            size_t w = 0;
            for (size_t p = 0; p < c->nparams; p++) {
                int differs = 0;
                if (ignored(ignore, c->params[p].key))
                    for (size_t k = i + 1; k < j && !differs; k++) {
                        const struct rp_test *o = &d->tests[ix[k]];
                        const char *v =
                            rp_param(o->params, o->nparams, c->params[p].key);
                        differs = !v || strcmp(v, c->params[p].value);
                    }
                if (!differs)
                    c->params[w++] = c->params[p];
            }
            c->nparams = w;
        }
        i = j;
    }
    for (size_t i = 0; i < d->ntests; i++)
        free(keys[i]);
    free(keys);
    free(ix);
    d->merge = m;
}

size_t rp_ignore_canon(const struct rp_data *d, size_t test)
{
    return d->merge ? d->merge->canon[test] : test;
}

static uint64_t hash3(size_t a, size_t b, size_t c)
{
    uint64_t h = 1469598103934665603ULL;
    size_t v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        h ^= (uint64_t)v[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static struct slot *find_slot(struct rp_merge *m, size_t t, size_t me,
                              size_t c)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        struct slot *nv = pb_xcalloc(ncap, sizeof(*nv));
        for (size_t i = 0; i < ncap; i++)
            nv[i].test = SIZE_MAX;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->v[i].test == SIZE_MAX)
                continue;
            size_t h = (size_t)hash3(m->v[i].test, m->v[i].metric,
                                     m->v[i].config) & (ncap - 1);
            while (nv[h].test != SIZE_MAX)
                h = (h + 1) & (ncap - 1);
            nv[h] = m->v[i];
        }
        free(m->v);
        m->v = nv;
        m->cap = ncap;
    }
    size_t h = (size_t)hash3(t, me, c) & (m->cap - 1);
    while (m->v[h].test != SIZE_MAX &&
           !(m->v[h].test == t && m->v[h].metric == me &&
             m->v[h].config == c))
        h = (h + 1) & (m->cap - 1);
    return &m->v[h];
}

int rp_ignore_cell(struct rp_data *d, size_t test, size_t metric,
                   size_t config, const struct rp_acc *acc, long nnull,
                   unsigned reason)
{
    struct rp_merge *m = d->merge;
    if (!m || !m->merged[test])
        return 0;
    struct slot *s = find_slot(m, test, metric, config);
    if (s->test == SIZE_MAX) {
        /* the first streak: the caller appends the cell */
        s->test = test;
        s->metric = metric;
        s->config = config;
        s->cell = d->ncells;
        s->acc = *acc;
        m->n++;
        return 0;
    }
    struct rp_cell *c = &d->cells[s->cell];
    rp_acc_merge(&s->acc, acc);
    rp_acc_done(&s->acc, c);
    c->nnull += nnull;
    if (!c->reason)
        c->reason = reason;
    return 1;
}

int rp_ignore_merged(const struct rp_data *d, size_t test)
{
    return d->merge && d->merge->merged[test];
}

void rp_ignore_cells_done(struct rp_data *d)
{
    if (!d->merge)
        return;
    free(d->merge->v);
    d->merge->v = NULL;
    d->merge->n = d->merge->cap = 0;
}

void rp_ignore_release(struct rp_data *d)
{
    if (!d->merge)
        return;
    free(d->merge->canon);
    free(d->merge->merged);
    free(d->merge->v);
    free(d->merge);
    d->merge = NULL;
}
