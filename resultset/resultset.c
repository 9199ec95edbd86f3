/* The in-memory result set every parser fills: configs, tests, results and
 * facts, all strings owned by one arena. */
#include "resultset/resultset.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pb_resultset *pb_resultset_new(void)
{
    struct pb_resultset *set = pb_xcalloc(1, sizeof(*set));
    pb_arena_init(&set->arena);
    return set;
}

void pb_resultset_free(struct pb_resultset *set)
{
    if (!set)
        return;
    if (set->stream_free)
        set->stream_free(set);
    free(set->strs.tab);
    free(set->strs.hash);
    for (size_t i = 0; i < set->nconfigs; i++)
        free(set->configs[i].params);
    for (size_t i = 0; i < set->ntests; i++)
        free(set->tests[i].params);
    free(set->configs);
    free(set->tests);
    free(set->results);
    free(set->facts);
    free(set->svals);
    for (size_t i = 0; i < set->nseries; i++)
        free(set->series[i].pts);
    free(set->series);
    free(set->hists);
    free(set->config_ix.slots);
    free(set->test_ix.slots);
    free(set->fact_ix.slots);
    pb_arena_release(&set->arena);
    free(set);
}

static void intern_grow(struct pb_rs_strings *f)
{
    size_t cap = f->cap ? f->cap * 2 : 64;
    const char **tab = pb_xcalloc(cap, sizeof(*tab));
    uint32_t *hash = pb_xcalloc(cap, sizeof(*hash));
    for (size_t i = 0; i < f->cap; i++) {
        if (!f->tab[i])
            continue;
        size_t j = f->hash[i] & (cap - 1);
        while (tab[j])
            j = (j + 1) & (cap - 1);
        tab[j] = f->tab[i];
        hash[j] = f->hash[i];
    }
    free(f->tab);
    free(f->hash);
    f->tab = tab;
    f->hash = hash;
    f->cap = cap;
}

const char *pb_rs_str(struct pb_resultset *set, const char *s)
{
    if (!s)
        return NULL;
    struct pb_rs_strings *f = &set->strs;
    const char **recent = &f->recent[((uintptr_t)s >> 4) & 15];
    if (*recent == s)
        return s;
    uint32_t h = 2166136261u; /* FNV-1a */
    size_t n = 0;
    for (; s[n]; n++)
        h = (h ^ (unsigned char)s[n]) * 16777619u;
    if (2 * (f->count + 1) > f->cap)
        intern_grow(f);
    size_t mask = f->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const char *t = f->tab[i];
        if (!t) {
            f->tab[i] = pb_arena_strndup(&set->arena, s, n);
            f->hash[i] = h;
            f->count++;
            t = f->tab[i];
            f->recent[((uintptr_t)t >> 4) & 15] = t;
            return t;
        }
        if (f->hash[i] == h && strcmp(t, s) == 0) {
            f->recent[((uintptr_t)t >> 4) & 15] = t;
            return t;
        }
    }
}

static int streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* ==== hash indexes (open addressing, linear probing) ==== */

static uint64_t hash_str(uint64_t h, const char *s)
{
    /* FNV-1a; NULL hashes differently from "". */
    if (!s)
        return h ^ 0x9e3779b97f4a7c15ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return (h ^ 0xff) * 0x100000001b3ULL;
}

static uint64_t hash2(const char *a, const char *b)
{
    return hash_str(hash_str(0xcbf29ce484222325ULL, a), b);
}

/* Slot for (a, b): either the one holding a match or the empty one where
 * it would go. eq(set, idx, a, b) tells whether entry idx matches. */
static size_t *ix_find(struct pb_rs_index *ix, const struct pb_resultset *set,
                       const char *a, const char *b,
                       int (*eq)(const struct pb_resultset *, size_t,
                                 const char *, const char *))
{
    size_t mask = ix->cap - 1;
    for (size_t i = (size_t)hash2(a, b) & mask;; i = (i + 1) & mask) {
        size_t *slot = &ix->slots[i];
        if (*slot == 0 || eq(set, *slot - 1, a, b))
            return slot;
    }
}

typedef int (*ix_eq_fn)(const struct pb_resultset *, size_t, const char *,
                        const char *);
typedef void (*ix_key_fn)(const struct pb_resultset *, size_t, const char **,
                          const char **);

/* Make room for one more of n entries, rehashing when over 1/2 full. */
static void ix_reserve(struct pb_rs_index *ix, const struct pb_resultset *set,
                       size_t n, ix_key_fn key)
{
    if (ix->cap && (n + 1) * 2 <= ix->cap)
        return;
    size_t cap = ix->cap ? ix->cap * 2 : 16;
    while ((n + 1) * 2 > cap)
        cap *= 2;
    free(ix->slots);
    ix->slots = pb_xcalloc(cap, sizeof(size_t));
    ix->cap = cap;
    /* each entry to the first free slot from its hash: tests of one name
     * and tool with other parameters are several entries of one key, in
     * the order they were added */
    for (size_t i = 0; i < n; i++) {
        const char *a, *b;
        key(set, i, &a, &b);
        size_t j = (size_t)hash2(a, b) & (cap - 1);
        while (ix->slots[j])
            j = (j + 1) & (cap - 1);
        ix->slots[j] = i + 1;
    }
}

const char *pb_config_target(const struct pb_config *c)
{
    for (size_t k = 0; k < c->nparams; k++)
        if (!strcmp(c->params[k].key, "target"))
            return c->params[k].value;
    return NULL;
}

static int config_eq(const struct pb_resultset *set, size_t i, const char *a,
                     const char *b)
{
    return streq(set->configs[i].label, a) &&
           streq(pb_config_target(&set->configs[i]), b);
}

static void config_key(const struct pb_resultset *set, size_t i,
                       const char **a, const char **b)
{
    *a = set->configs[i].label;
    *b = pb_config_target(&set->configs[i]);
}

static int test_eq(const struct pb_resultset *set, size_t i, const char *a,
                   const char *b)
{
    return streq(set->tests[i].name, a) && streq(set->tests[i].tool, b);
}

static void test_key(const struct pb_resultset *set, size_t i, const char **a,
                     const char **b)
{
    *a = set->tests[i].name;
    *b = set->tests[i].tool;
}

static int fact_eq(const struct pb_resultset *set, size_t i, const char *a,
                   const char *b)
{
    return streq(set->facts[i].host, a) && streq(set->facts[i].key, b);
}

static void fact_key(const struct pb_resultset *set, size_t i, const char **a,
                     const char **b)
{
    *a = set->facts[i].host;
    *b = set->facts[i].key;
}

size_t pb_rs_config(struct pb_resultset *set, const char *label)
{
    return pb_rs_config_target(set, label, NULL);
}

static void kv_set(struct pb_resultset *set, struct pb_kv **kv, size_t *n,
                   size_t *cap, const char *key, const char *value,
                   const char *origin);

size_t pb_rs_config_target(struct pb_resultset *set, const char *label,
                           const char *target)
{
    if (!label)
        label = "";
    ix_reserve(&set->config_ix, set, set->nconfigs, config_key);
    size_t *slot = ix_find(&set->config_ix, set, label, target, config_eq);
    if (*slot)
        return *slot - 1;
    PB_GROW(set->configs, set->capconfigs, set->nconfigs + 1);
    struct pb_config *c = &set->configs[set->nconfigs];
    memset(c, 0, sizeof(*c));
    c->label = pb_rs_str(set, label);
    if (target)
        kv_set(set, &c->params, &c->nparams, &c->capparams, "target", target,
               NULL);
    *slot = set->nconfigs + 1;
    return set->nconfigs++;
}

static void kv_set(struct pb_resultset *set, struct pb_kv **kv, size_t *n,
                   size_t *cap, const char *key, const char *value,
                   const char *origin)
{
    const char *o = origin ? pb_rs_str(set, origin) : NULL;
    for (size_t i = 0; i < *n; i++) {
        if (streq((*kv)[i].key, key)) {
            (*kv)[i].value = pb_rs_str(set, value);
            (*kv)[i].origin = o;
            return;
        }
    }
    PB_GROW(*kv, *cap, *n + 1);
    (*kv)[*n].key = pb_rs_str(set, key);
    (*kv)[*n].value = pb_rs_str(set, value);
    (*kv)[*n].origin = o;
    (*n)++;
}

void pb_rs_config_param(struct pb_resultset *set, size_t config,
                        const char *key, const char *value)
{
    pb_rs_config_param_origin(set, config, key, value, NULL);
}

void pb_rs_config_param_origin(struct pb_resultset *set, size_t config,
                               const char *key, const char *value,
                               const char *origin)
{
    struct pb_config *c = &set->configs[config];
    long vdevs;
    char *v = pb_dim_norm(key, value, &vdevs);
    kv_set(set, &c->params, &c->nparams, &c->capparams, key, v, origin);
    free(v);
    if (!strcmp(key, "target"))
        set->config_ix.cap = 0; /* part of the key: rebuild the index */
    if (vdevs > 0) {
        /* "2x mirror": the count is a dimension of its own, unless one
         * was said */
        for (size_t i = 0; i < c->nparams; i++)
            if (!strcmp(c->params[i].key, "vdevs"))
                return;
        char num[32];
        snprintf(num, sizeof(num), "%ld", vdevs);
        kv_set(set, &c->params, &c->nparams, &c->capparams, "vdevs", num,
               origin);
    }
}

/* A new test name/tool at the end of set's tests, its index in the free
 * hash slot. */
static struct pb_test *new_test(struct pb_resultset *set, const char *name,
                                const char *tool, size_t *slot)
{
    PB_GROW(set->tests, set->captests, set->ntests + 1);
    struct pb_test *t = &set->tests[set->ntests];
    memset(t, 0, sizeof(*t));
    t->name = pb_rs_str(set, name);
    t->tool = pb_rs_str(set, tool);
    *slot = ++set->ntests;
    return t;
}

size_t pb_rs_test(struct pb_resultset *set, const char *name,
                  const char *tool)
{
    ix_reserve(&set->test_ix, set, set->ntests, test_key);
    size_t *slot = ix_find(&set->test_ix, set, name, tool, test_eq);
    if (*slot)
        return *slot - 1;
    new_test(set, name, tool, slot);
    return set->ntests - 1;
}

/* 1 when test t has exactly the parameters kv[0..n) (a key given twice
 * counts with its last value). */
static int same_params(const struct pb_test *t, const struct pb_kv *kv,
                       size_t n)
{
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = i + 1;
        while (k < n && !streq(kv[k].key, kv[i].key))
            k++;
        if (k < n)
            continue; /* a later value of this key counts */
        distinct++;
        size_t j = 0;
        while (j < t->nparams && !streq(t->params[j].key, kv[i].key))
            j++;
        if (j == t->nparams || !streq(t->params[j].value, kv[i].value))
            return 0;
    }
    return distinct == t->nparams;
}

size_t pb_rs_test_kv(struct pb_resultset *set, const char *name,
                     const char *tool, const struct pb_kv *params, size_t n)
{
    ix_reserve(&set->test_ix, set, set->ntests, test_key);
    size_t mask = set->test_ix.cap - 1, *slot;
    for (size_t i = (size_t)hash2(name, tool) & mask;; i = (i + 1) & mask) {
        slot = &set->test_ix.slots[i];
        if (!*slot)
            break;
        const struct pb_test *t = &set->tests[*slot - 1];
        if (streq(t->name, name) && streq(t->tool, tool) &&
            same_params(t, params, n))
            return *slot - 1;
    }
    struct pb_test *t = new_test(set, name, tool, slot);
    for (size_t i = 0; i < n; i++)
        kv_set(set, &t->params, &t->nparams, &t->capparams, params[i].key,
               params[i].value, NULL);
    return set->ntests - 1;
}

void pb_rs_test_param(struct pb_resultset *set, size_t test, const char *key,
                      const char *value)
{
    struct pb_test *t = &set->tests[test];
    kv_set(set, &t->params, &t->nparams, &t->capparams, key, value, NULL);
}

static struct pb_result *add(struct pb_resultset *set, size_t config,
                             size_t test, const char *host, const char *job,
                             const char *metric, const char *unit,
                             int direction)
{
    PB_GROW(set->results, set->capresults, set->nresults + 1);
    struct pb_result *r = &set->results[set->nresults++];
    memset(r, 0, sizeof(*r));
    r->config = config;
    r->test = test;
    r->host = pb_rs_str(set, host);
    r->job = pb_rs_str(set, job);
    r->metric = pb_rs_str(set, metric);
    r->unit = pb_rs_str(set, unit);
    r->direction = direction >= 0 ? PB_DIR_HIGHER : PB_DIR_LOWER;
    return r;
}

struct pb_result *pb_rs_add(struct pb_resultset *set, size_t config,
                            size_t test, const char *host, const char *job,
                            const char *metric, const char *unit,
                            int direction, double value)
{
    struct pb_result *r =
        add(set, config, test, host, job, metric, unit, direction);
    if (isfinite(value)) {
        r->has_value = 1;
        r->value = value;
    } else {
        r->null_reason = pb_rs_str(set, "not a finite number");
    }
    return r;
}

struct pb_result *pb_rs_add_null(struct pb_resultset *set, size_t config,
                                 size_t test, const char *host,
                                 const char *job, const char *metric,
                                 const char *unit, int direction,
                                 const char *reason)
{
    struct pb_result *r =
        add(set, config, test, host, job, metric, unit, direction);
    r->null_reason = pb_rs_str(set, reason);
    return r;
}

void pb_rs_fact(struct pb_resultset *set, const char *host, const char *key,
                const char *value)
{
    ix_reserve(&set->fact_ix, set, set->nfacts, fact_key);
    size_t *slot = ix_find(&set->fact_ix, set, host, key, fact_eq);
    if (*slot) {
        set->facts[*slot - 1].value = pb_rs_str(set, value);
        return;
    }
    PB_GROW(set->facts, set->capfacts, set->nfacts + 1);
    *slot = set->nfacts + 1;
    struct pb_fact *f = &set->facts[set->nfacts++];
    f->host = pb_rs_str(set, host);
    f->key = pb_rs_str(set, key);
    f->value = pb_rs_str(set, value);
}

size_t pb_rs_samples(struct pb_resultset *set, struct pb_result *r,
                     const double *v, size_t n)
{
    r->sample_off = 0;
    r->nsample = 0;
    if (n < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    PB_GROW(set->svals, set->capsvals, set->nsvals + n);
    memcpy(set->svals + set->nsvals, v, n * sizeof(*v));
    r->sample_off = set->nsvals;
    r->nsample = n;
    set->nsvals += n;
    if (r->samples == 0)
        r->samples = (long)n;
    return n;
}

size_t pb_rs_result_samples(const struct pb_resultset *set,
                            const struct pb_result *r, const double **v)
{
    *v = r->nsample ? set->svals + r->sample_off : NULL;
    return r->nsample;
}

/* ==== dump ==== */

static const char *nz(const char *s)
{
    return s ? s : "-";
}

/* Dump text is read on terminals and diffed by the tests: every string from
 * the input goes through pb_fput_term. */
#define T(str) pb_fput_term(nz(str), fp)

struct pb_series *pb_rs_series(struct pb_resultset *set, size_t result,
                               const char *name, const char *unit,
                               const char *kind, long width_ms)
{
    PB_GROW(set->series, set->capseries, set->nseries + 1);
    struct pb_series *s = &set->series[set->nseries++];
    memset(s, 0, sizeof(*s));
    s->result = result;
    s->name = pb_rs_str(set, name);
    s->unit = pb_rs_str(set, unit);
    s->kind = pb_rs_str(set, kind);
    s->width_ms = width_ms;
    return s;
}

void pb_series_add(struct pb_series *s, const struct pb_point *p)
{
    PB_GROW(s->pts, s->cappts, s->npts + 1);
    s->pts[s->npts++] = *p;
}

/* One point: t, value and the members that are known. */
static void dump_point(const struct pb_point *p, FILE *fp)
{
    char num[64];
    fprintf(fp, "  t=%lld %s", (long long)p->t_ms,
            pb_fmt_num(p->value, num, sizeof(num)));
    if (p->n)
        fprintf(fp, " n=%lld", (long long)p->n);
    const double v[] = {p->min, p->max, p->p50, p->p90,
                        p->p95, p->p99, p->p999};
    static const char *const k[] = {"min", "max", "p50", "p90",
                                    "p95", "p99", "p99.9"};
    for (size_t j = 0; j < 7; j++)
        if (!isnan(v[j]))
            fprintf(fp, " %s=%s", k[j], pb_fmt_num(v[j], num, sizeof(num)));
    fputc('\n', fp);
}

/* A series: its header, then its first 3 and last 3 points (the whole
 * series is in the database; .expected files stay small). */
static void dump_series(const struct pb_series *s, FILE *fp)
{
    fprintf(fp, "series r=%zu %s %s %s width_ms=%ld points=%zu\n", s->result,
            s->name, s->unit, s->kind, s->width_ms, s->npts);
    for (size_t j = 0; j < s->npts; j++) {
        if (j == 3 && s->npts > 6) {
            fputs("  ...\n", fp);
            j = s->npts - 3;
        }
        dump_point(&s->pts[j], fp);
    }
}

void pb_resultset_dump(const struct pb_resultset *set, FILE *fp)
{
    char num[64];
    fputs("format ", fp);
    T(set->format);
    fputs("\ntool_version ", fp);
    T(set->tool_version);
    fputc('\n', fp);
    for (size_t i = 0; i < set->nfacts; i++) {
        fputs("fact host=", fp);
        T(set->facts[i].host);
        fputc(' ', fp);
        T(set->facts[i].key);
        fputc('=', fp);
        T(set->facts[i].value);
        fputc('\n', fp);
    }
    for (size_t i = 0; i < set->nconfigs; i++) {
        const struct pb_config *c = &set->configs[i];
        fprintf(fp, "config %zu ", i);
        T(c->label);
        fputc('\n', fp);
        for (size_t j = 0; j < c->nparams; j++) {
            const struct pb_kv *kv = &c->params[j];
            fputs("  ", fp);
            T(kv->key);
            fputc('=', fp);
            T(kv->value);
            if (kv->origin) {
                fputs("  # ", fp);
                T(kv->origin);
            }
            fputc('\n', fp);
        }
    }
    for (size_t i = 0; i < set->ntests; i++) {
        const struct pb_test *t = &set->tests[i];
        fprintf(fp, "test %zu ", i);
        T(t->name);
        fputs(" [", fp);
        T(t->tool);
        fputs("]\n", fp);
        for (size_t j = 0; j < t->nparams; j++) {
            fputs("  ", fp);
            T(t->params[j].key);
            fputc('=', fp);
            T(t->params[j].value);
            fputc('\n', fp);
        }
    }
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        fprintf(fp, "result c=%zu t=%zu host=", r->config, r->test);
        T(r->host);
        fputs(" job=", fp);
        T(r->job);
        fputc(' ', fp);
        T(r->metric);
        fputc('=', fp);
        if (r->has_value) {
            fputs(pb_fmt_num(r->value, num, sizeof(num)), fp);
        } else {
            fputs("NULL(", fp);
            T(r->null_reason);
            fputc(')', fp);
        }
        fputc(' ', fp);
        T(r->unit);
        fputs(r->direction == PB_DIR_HIGHER ? " higher" : " lower", fp);
        if (r->has_stderr)
            fprintf(fp, " se=%s", pb_fmt_num(r->stderr_, num, sizeof(num)));
        if (r->samples)
            fprintf(fp, " n=%ld", r->samples);
        for (size_t k = 0; k < r->nsample; k++)
            fprintf(fp, "%s%s", k ? ":" : " samples=",
                    pb_fmt_num(set->svals[r->sample_off + k], num,
                               sizeof(num)));
        fputc('\n', fp);
    }
    for (size_t i = 0; i < set->nseries; i++)
        dump_series(&set->series[i], fp);
    for (size_t i = 0; i < set->nhists; i++) {
        const struct pb_hist *h = &set->hists[i];
        uint64_t total = 0;
        for (size_t k = 0; k < h->n; k++)
            total += h->count[k];
        fprintf(fp, "hist r=%zu ", h->result);
        T(h->kind);
        fprintf(fp, " n=%zu total=%llu bins=", h->n,
                (unsigned long long)total);
        for (size_t k = 0; k < h->n; k++)
            fprintf(fp, "%s%llu:%llu", k ? "," : "",
                    (unsigned long long)h->value[k],
                    (unsigned long long)h->count[k]);
        fputc('\n', fp);
    }
}

#undef T
