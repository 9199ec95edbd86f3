/* Sweeps: the config/test dimensions a metric's results vary along, the
 * two chosen as x axis and series, and the panels drawn over them. */
#include "render/sweep_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== sweeps ==== */


static const char *const pref_keys[] = {
    "bs",        "recordsize",  "volblocksize", "iodepth",      "numjobs",
    "file_size", "record_size", "compression",  "pool_layout",  "layout",
    "vdevs",
    "ashift",    "sync",        "logbias",      "primarycache", "slog",
    "l2arc",     "atime",       "disk_format",  "guest_fs",     "rw",
    "clients",   "direct",      "fsync",        "rwmixread",    "ioengine",
    NULL};

/* Test parameters that name which program ran rather than how: PTS's
 * arguments (the profile's command line), app_version and scale (one PTS
 * result per unit). They differ between programs of a suite, and with
 * every other option of one program: never a sweep axis (docs/report.md,
 * "Sweeps"). */
static const char *const identity_keys[] = {"arguments", "app_version",
                                            "scale", NULL};

static int is_identity_key(const char *key)
{
    for (int i = 0; identity_keys[i]; i++)
        if (!strcmp(identity_keys[i], key))
            return 1;
    return 0;
}

static int pref_of(const char *key)
{
    for (int i = 0; pref_keys[i]; i++)
        if (!strcmp(pref_keys[i], key))
            return i;
    return 100;
}

static const char *cell_value(const struct rp_data *d, const struct rp_cell *c,
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
    }
    return NULL;
}

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

static int sort_numeric;

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

/* Values in order: NULL last; numbers by value when sort_numeric (then
 * every non-NULL one is a number), else and on ties in natural order. */
static int cmp_sval(const void *a, const void *b)
{
    const struct sval *x = a, *y = b;
    if (!x->s || !y->s)
        return x->s ? -1 : y->s ? 1 : 0;
    if (sort_numeric && x->num != y->num)
        return x->num < y->num ? -1 : 1;
    return rp_natcmp(x->s, y->s);
}

/* Fill k's sorted distinct values from the cells (one value per owner:
 * the cells of a config or test repeat its values). */
static void cand_values(const struct rp_data *d, const size_t *cells, size_t n,
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
        v[m].s = cell_value(d, c, k);
        if (v[m].s && !is_number(v[m].s, &v[m].num))
            numeric = 0;
        m++;
    }
    sort_numeric = numeric;
    qsort(v, m, sizeof(*v), cmp_sval);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || cmp_sval(&v[u - 1], &v[i]) != 0)
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
    sort_numeric = k->numeric;
    size_t lo = 0, hi = k->nvals;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        struct sval at = {k->vals[mid], k->nums[mid]};
        int c = cmp_sval(&at, &key);
        if (c < 0)
            lo = mid + 1;
        else if (c > 0)
            hi = mid;
        else
            return mid;
    }
    return lo < k->nvals ? lo : k->nvals - 1;
}

/* Column col of the value index matrix: k's value index of every cell,
 * looked up once per owner. */
static void fill_vi(const struct rp_data *d, const size_t *cells, size_t n,
                    const struct cand *k, uint32_t *vi, size_t stride,
                    size_t col)
{
    size_t no = owners(d, k);
    size_t *memo = pb_xmalloc((no + 1) * sizeof(size_t));
    for (size_t i = 0; i <= no; i++)
        memo[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const struct rp_cell *c = &d->cells[cells[i]];
        size_t o = owner_of(c, k);
        if (memo[o] == SIZE_MAX)
            memo[o] = value_index(k, cell_value(d, c, k));
        vi[i * stride + col] = (uint32_t)memo[o];
    }
    free(memo);
}

/* A pseudo-dimension (label, family, test name) at cands[ncand]: kept, with
 * each cell's value index in column ncand, when it takes two values or
 * more. The new number of candidates. */
static size_t add_pseudo(const struct rp_data *d, const size_t *cells,
                         size_t n, struct cand *cands, size_t ncand,
                         enum rp_dimkind kind, const char *key, int pref,
                         struct pb_arena *a, uint32_t *vi, size_t stride)
{
    struct cand *k = &cands[ncand];
    k->kind = kind;
    k->key = key;
    k->pref = pref;
    if (kind != RP_DIM_LABEL) /* the slot may be one a label left */
        k->only = NULL;
    cand_values(d, cells, n, k, a);
    if (k->nvals < 2)
        return ncand;
    fill_vi(d, cells, n, k, vi, stride, ncand);
    return ncand + 1;
}

/* Sorting cells by a list of dims of the per-cell value index matrix. */
static const uint32_t *sk_vi;
static const size_t *sk_dims;
static size_t sk_ndims, sk_stride;

static int same_tuple(size_t x, size_t y)
{
    for (size_t i = 0; i < sk_ndims; i++)
        if (sk_vi[x * sk_stride + sk_dims[i]] !=
            sk_vi[y * sk_stride + sk_dims[i]])
            return 0;
    return 1;
}

/* Sort order (= 0..n-1) by the tuples of value indexes of the cells in
 * the dimensions sk_dims, ties by cell: stable counting sorts from the
 * last dimension to the first (value indexes are small), a few passes
 * instead of n log n comparisons. */
static void sort_by_tuple(size_t *order, size_t n)
{
    size_t *tmp = pb_xcalloc(n + 1, sizeof(size_t));
    size_t *cnt = NULL, capcnt = 0;
    for (size_t q = sk_ndims; q-- > 0;) {
        size_t dim = sk_dims[q], maxv = 0;
        for (size_t i = 0; i < n; i++) {
            size_t v = sk_vi[order[i] * sk_stride + dim];
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
            cnt[sk_vi[order[i] * sk_stride + dim] + 1]++;
        for (size_t v = 1; v <= maxv + 1; v++)
            cnt[v] += cnt[v - 1];
        for (size_t i = 0; i < n; i++)
            tmp[cnt[sk_vi[order[i] * sk_stride + dim]]++] = order[i];
        memcpy(order, tmp, n * sizeof(size_t));
    }
    free(cnt);
    free(tmp);
}

static int key_matches(const struct cand *k, const char *want)
{
    if (!want || k->kind == RP_DIM_FAMILY)
        return 0;
    if (k->kind == RP_DIM_LABEL)
        return !strcmp(want, "config") || !strcmp(want, "label");
    if (k->kind == RP_DIM_TEST_NAME)
        return !strcmp(want, "test");
    const char *w = want;
    if (!strncmp(w, "config.", 7) || !strncmp(w, "config:", 7)) {
        if (k->kind != RP_DIM_CONFIG)
            return 0;
        w += 7;
    } else if (!strncmp(w, "test.", 5) || !strncmp(w, "test:", 5)) {
        if (k->kind != RP_DIM_TEST)
            return 0;
        w += 5;
    }
    return !strcmp(k->key, w);
}

#define MAX_PANELS 24

struct sweep_ctx {
    struct rp_data *d;
    struct rp_sweeps *out;
    const char *xkey, *skey;
    int xfound, sfound;
    struct pb_buf varying; /* names of varying dims, for the error */
};

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

static void note_varying(struct sweep_ctx *x, const struct cand *k)
{
    const char *name = k->kind == RP_DIM_LABEL ? "config" : k->key;
    char probe[160];
    snprintf(probe, sizeof(probe), ", %s,", name);
    struct pb_buf tmp = PB_BUF_INIT;
    pb_buf_printf(&tmp, ", %s,", pb_buf_str(&x->varying));
    int dup = strstr(pb_buf_str(&tmp), probe) != NULL;
    pb_buf_release(&tmp);
    if (dup)
        return;
    if (x->varying.len)
        pb_buf_puts(&x->varying, ", ");
    pb_buf_puts(&x->varying, name);
}

static const char *dim_text(const struct cand *k, const char *v, char *buf,
                            size_t n)
{
    if (!v)
        return "–";
    return k->kind == RP_DIM_LABEL || k->kind == RP_DIM_TEST_NAME ||
                   k->kind == RP_DIM_FAMILY
               ? v
               : rp_param_text(k->key, v, buf, n);
}

static const char *dim_key(const struct cand *k)
{
    return k->kind == RP_DIM_LABEL ? "config" : k->key;
}

/* ==== panels ==== */

static void emit_panels(struct sweep_ctx *x, size_t metric, const size_t *cells,
                        size_t n, struct cand *cands, size_t ncand,
                        uint32_t *vi, size_t xi, size_t si, const size_t *pdims,
                        size_t npd)
{
    struct rp_data *d = x->d;
    struct pb_arena *a = &x->out->arena;
    PB_GROW(x->out->v, x->out->cap, x->out->n + 1);
    struct rp_sweep *sw = &x->out->v[x->out->n];
    memset(sw, 0, sizeof(*sw));
    sw->metric = metric;
    const struct cand *cx = &cands[xi];
    sw->x.kind = cx->kind == RP_DIM_TEST_NAME ? RP_DIM_TEST : cx->kind;
    sw->x.key = cx->key;
    sw->x.vals = cx->vals;
    sw->x.nvals = cx->nvals;
    const struct cand *cs = si < ncand ? &cands[si] : NULL;
    if (cs) {
        sw->s.kind = cs->kind == RP_DIM_TEST_NAME ? RP_DIM_TEST : cs->kind;
        sw->s.key = cs->key;
        sw->s.vals = cs->vals;
        sw->s.nvals = cs->nvals;
    }
    /* order: panel tuple, then series, then x */
    size_t *order = pb_xcalloc(n + 1, sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    size_t *keys = pb_xcalloc(npd + 2, sizeof(size_t));
    memcpy(keys, pdims, npd * sizeof(size_t));
    size_t nk = npd;
    if (cs)
        keys[nk++] = si;
    keys[nk++] = xi;
    sk_vi = vi;
    sk_stride = ncand;
    sk_dims = keys;
    sk_ndims = nk;
    sort_by_tuple(order, n);
    size_t nxv = cx->nvals, nsv = cs ? cs->nvals : 1;
    size_t *xmap = pb_xcalloc(nxv + 1, sizeof(size_t));
    size_t *smap = pb_xcalloc(nsv + 1, sizeof(size_t));
    size_t first[MAX_PANELS]; /* a cell of each panel, for the titles */
    sk_ndims = npd;
    sw->panels = pb_arena_alloc(a, MAX_PANELS * sizeof(*sw->panels));
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_tuple(order[i], order[j]))
            j++;
        memset(xmap, 0, (nxv + 1) * sizeof(size_t));
        memset(smap, 0, (nsv + 1) * sizeof(size_t));
        int xmulti = 0, smulti = 0;
        for (size_t k = i; k < j; k++) {
            xmulti |= ++xmap[vi[order[k] * ncand + xi]] >= 2;
            smulti |= ++smap[cs ? vi[order[k] * ncand + si] : 0] >= 2;
        }
        size_t px = 0, ps = 0;
        for (size_t k = 0; k < nxv; k++)
            xmap[k] = xmap[k] ? ++px : 0;
        for (size_t k = 0; k < nsv; k++)
            smap[k] = smap[k] ? ++ps : 0;
        if (px < 2 || (cs && (ps < 2 || !xmulti || !smulti))) {
            i = j;
            continue;
        }
        if (sw->npanels == MAX_PANELS) {
            sw->omitted++;
            i = j;
            continue;
        }
        first[sw->npanels] = order[i];
        struct rp_panel *p = &sw->panels[sw->npanels++];
        memset(p, 0, sizeof(*p));
        p->nx = px;
        p->ns = ps;
        p->xvals = pb_arena_alloc(a, px * sizeof(*p->xvals));
        p->svals = pb_arena_alloc(a, ps * sizeof(*p->svals));
        p->scolors = pb_arena_alloc(a, ps * sizeof(*p->scolors));
        char buf[64];
        for (size_t k = 0; k < nxv; k++)
            if (xmap[k])
                p->xvals[xmap[k] - 1] = pb_arena_strdup(
                    a, dim_text(cx, cx->vals[k], buf, sizeof(buf)));
        for (size_t k = 0; k < nsv; k++)
            if (smap[k]) {
                size_t idx = smap[k] - 1;
                p->svals[idx] =
                    cs ? pb_arena_strdup(
                             a, dim_text(cs, cs->vals[k], buf, sizeof(buf)))
                       : "";
                p->scolors[idx] = rc_series_color(idx, ps);
            }
        p->grid = pb_arena_alloc(a, px * ps * sizeof(size_t));
        for (size_t k = 0; k < px * ps; k++)
            p->grid[k] = SIZE_MAX;
        int dup = 0;
        for (size_t k = i; k < j; k++) {
            size_t c = order[k];
            size_t gx = xmap[vi[c * ncand + xi]] - 1;
            size_t gs = cs ? smap[vi[c * ncand + si]] - 1 : 0;
            if (p->grid[gs * px + gx] != SIZE_MAX)
                dup = 1;
            p->grid[gs * px + gx] = cells[c];
            if (cs && cs->kind == RP_DIM_LABEL)
                p->scolors[gs] = d->configs[d->cells[cells[c]].config].color;
        }
        if (dup) { /* cells on one spot: this panel cannot be drawn */
            sw->npanels--;
            i = j;
            continue;
        }
        for (size_t k = 0; k < px * ps; k++)
            if (p->grid[k] != SIZE_MAX) {
                d->cells[p->grid[k]].in_sweep = 1;
                d->tests[d->cells[p->grid[k]].test].swept = 1;
            }
        i = j;
    }
    /* titles: only the dimensions that tell the panels apart */
    for (size_t k = 0; k < sw->npanels; k++) {
        struct pb_buf t = PB_BUF_INIT;
        pb_buf_puts(&t, "");
        int any = 0;
        for (size_t q = 0; q < npd; q++) {
            size_t dim = pdims[q];
            int differs = 0;
            for (size_t o = 0; o < sw->npanels && !differs; o++)
                differs =
                    vi[first[o] * ncand + dim] != vi[first[k] * ncand + dim];
            if (!differs)
                continue;
            const struct cand *pc = &cands[dim];
            char buf[64];
            pb_buf_printf(&t, "%s%s=%s", any ? ", " : "", dim_key(pc),
                          dim_text(pc, pc->vals[vi[first[k] * ncand + dim]],
                                   buf, sizeof(buf)));
            any = 1;
        }
        sw->panels[k].title = pb_arena_strdup(a, pb_buf_str(&t));
        pb_buf_release(&t);
    }
    free(order);
    free(keys);
    free(xmap);
    free(smap);
    if (sw->npanels)
        x->out->n++;
}

/* Candidates ordered for choosing: fewer preferred, pseudo-dims last. */
static int better_pair(size_t cov, int two, size_t nvals, int pref, size_t bcov,
                       int btwo, size_t bnvals, int bpref)
{
    /* a two-dimensional sweep counts double: it says more per cell */
    size_t sc = cov * (two ? 2 : 1), bs = bcov * (btwo ? 2 : 1);
    if (sc != bs)
        return sc > bs;
    if (pref != bpref)
        return pref < bpref;
    return nvals > bnvals;
}

/* One metric: its primary cells, their dimensions, the panels. */
static void sweep_metric(struct sweep_ctx *x, size_t metric)
{
    struct rp_data *d = x->d;
    struct pb_arena *a = &x->out->arena;
    size_t *cells = NULL, n = 0, cap = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (g->metric != metric || !g->primary)
            continue;
        for (size_t i = g->first; i < g->first + g->n; i++)
            if (d->cells[i].has_value) {
                PB_GROW(cells, cap, n + 1);
                cells[n++] = i;
            }
    }
    if (n < 2) {
        free(cells);
        return;
    }
    /* candidate keys: each config's and test's once */
    struct keyset cks = {0}, tks = {0};
    unsigned char *cseen = pb_xcalloc(d->nconfigs + 1, 1);
    unsigned char *tseen = pb_xcalloc(d->ntests + 1, 1);
    for (size_t i = 0; i < n; i++) {
        const struct rp_cell *c = &d->cells[cells[i]];
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
    const char **ck = cks.list, **tk = tks.list;
    size_t nck = cks.n, ntk = tks.n;
    if (nck)
        qsort(ck, nck, sizeof(*ck), cmp_str);
    if (ntk)
        qsort(tk, ntk, sizeof(*tk), cmp_str);
    struct cand *cands = pb_xcalloc(nck + ntk + 4, sizeof(*cands));
    size_t ncand = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char **keys = pass ? tk : ck;
        size_t nkeys = pass ? ntk : nck;
        for (size_t i = 0; i < nkeys; i++) {
            if (i && !strcmp(keys[i], keys[i - 1]))
                continue;
            if (pass && is_identity_key(keys[i]))
                continue;
            struct cand *k = &cands[ncand];
            k->kind = pass ? RP_DIM_TEST : RP_DIM_CONFIG;
            k->key = keys[i];
            k->pref = pref_of(keys[i]);
            cand_values(d, cells, n, k, a);
            if (k->nvals >= 2)
                ncand++;
        }
    }
    free(ck);
    free(tk);
    /* per-cell value indexes; room for the family, label and test
     * pseudo-dims */
    size_t stride = ncand + 3;
    uint32_t *vi = pb_xcalloc(n * stride + 1, sizeof(uint32_t));
    for (size_t k = 0; k < ncand; k++)
        fill_vi(d, cells, n, &cands[k], vi, stride, k);
    /* The config label is a dimension of its own for configurations the
     * config parameters do not tell apart ("hdd" and "ssd" with no
     * parameters): results of different systems never share a series by
     * accident. Configurations told apart by parameters have no value. */
    size_t *order = pb_xcalloc(n + 1, sizeof(size_t));
    size_t *alld = pb_xcalloc(stride + 1, sizeof(size_t));
    unsigned char *ambig = pb_xcalloc(d->nconfigs + 1, 1);
    {
        size_t nc = 0;
        for (size_t q = 0; q < ncand; q++)
            if (cands[q].kind == RP_DIM_CONFIG)
                alld[nc++] = q;
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        sk_vi = vi;
        sk_stride = stride;
        sk_dims = alld;
        sk_ndims = nc;
        sort_by_tuple(order, n);
        int any = 0;
        for (size_t i = 0; i < n;) {
            size_t j = i + 1;
            int differ = 0;
            while (j < n && same_tuple(order[i], order[j])) {
                differ |= d->cells[cells[order[j]]].config !=
                          d->cells[cells[order[i]]].config;
                j++;
            }
            for (size_t q = i; differ && q < j; q++)
                ambig[d->cells[cells[order[q]]].config] = 1;
            any |= differ;
            i = j;
        }
        if (any) {
            cands[ncand].only = ambig;
            ncand = add_pseudo(d, cells, n, cands, ncand, RP_DIM_LABEL,
                               "config", 200, a, vi, stride);
        }
    }
    /* The test family (the tool: "fio", "pts/fio-2.1.0", "pts/c-ray-1.2.0")
     * groups cells like a dimension, so that no sweep puts two programs on
     * one axis, but is never an axis itself. */
    ncand = add_pseudo(d, cells, n, cands, ncand, RP_DIM_FAMILY, "tool", 300,
                       a, vi, stride);
    size_t nreal = ncand;
    /* Cells still not told apart (tests differing by name only): the test
     * name tells them apart, without grouping them. */
    for (size_t k = 0; k < ncand; k++)
        alld[k] = k;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sk_ndims = ncand;
    sort_by_tuple(order, n);
    int collide = 0;
    for (size_t i = 1; i < n && !collide; i++)
        collide = same_tuple(order[i - 1], order[i]);
    if (collide)
        ncand = add_pseudo(d, cells, n, cands, ncand, RP_DIM_TEST_NAME, "test",
                           201, a, vi, stride);
    free(order);
    free(alld);
    for (size_t k = 0; k < ncand; k++)
        if (cands[k].kind != RP_DIM_FAMILY)
            note_varying(x, &cands[k]);
    /* the pair of dimensions that draws the most cells */
    uint64_t *full = pb_xcalloc(n + 1, sizeof(uint64_t));
    size_t maxv = 1;
    for (size_t k = 0; k < ncand; k++)
        if (cands[k].nvals > maxv)
            maxv = cands[k].nvals;
    uint64_t **hv = pb_xcalloc(nreal + 1, sizeof(*hv));
    for (size_t k = 0; k < nreal; k++) {
        hv[k] = pb_xcalloc(cands[k].nvals + 1, sizeof(uint64_t));
        for (size_t v = 0; v < cands[k].nvals; v++)
            hv[k][v] = rp_sw_hval(k, v);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nreal; k++)
            full[i] += hv[k][vi[i * stride + k]];
    unsigned char *dep = rp_sw_dependencies(cands, vi, stride, n, nreal);
    struct cov_ws ws;
    rp_sw_cov_init(&ws, n, maxv);
    ws.hv = hv;
    size_t bx = SIZE_MAX, bsi = SIZE_MAX, bcov = 0;
    int btwo = 0, bpref = 0;
    size_t bnv = 0;
    for (size_t xi = 0; xi < ncand; xi++) {
        if (cands[xi].kind == RP_DIM_FAMILY ||
            (x->xkey && !key_matches(&cands[xi], x->xkey)))
            continue;
        for (size_t si = 0; si <= ncand; si++) {
            int two = si < ncand;
            if (si == xi || (two && cands[si].kind == RP_DIM_FAMILY) ||
                (x->skey && (!two || !key_matches(&cands[si], x->skey))))
                continue;
            /* one dimension alone only along a test parameter: a config
             * dimension alone is the per-test chart already */
            if (!two && cands[xi].kind != RP_DIM_TEST && !x->xkey)
                continue;
            size_t cov = rp_sw_coverage(cands, vi, stride, full, n, nreal, xi,
                                        two ? si : SIZE_MAX, dep, &ws);
            if (!cov)
                continue;
            /* x: the dimension with more values (bars in groups) */
            size_t xx = xi, ss = si;
            if (two && !x->xkey && !x->skey &&
                (cands[si].nvals > cands[xi].nvals ||
                 (cands[si].nvals == cands[xi].nvals &&
                  cands[si].pref < cands[xi].pref)))
                xx = si, ss = xi;
            int pref = cands[xx].pref + (two ? cands[ss].pref : 0);
            size_t nv = cands[xx].nvals;
            if (bx == SIZE_MAX ||
                better_pair(cov, two, nv, pref, bcov, btwo, bnv, bpref)) {
                bx = xx;
                bsi = two ? ss : SIZE_MAX;
                bcov = cov;
                btwo = two;
                bpref = pref;
                bnv = nv;
            }
        }
    }
    rp_sw_cov_release(&ws);
    for (size_t k = 0; k < nreal; k++)
        free(hv[k]);
    free(hv);
    free(full);
    if (bx != SIZE_MAX) {
        if (x->xkey)
            x->xfound = 1;
        if (x->skey && bsi != SIZE_MAX)
            x->sfound = 1;
        size_t *pd = pb_xcalloc(ncand + 1, sizeof(size_t));
        size_t npd = 0;
        for (size_t k = 0; k < nreal; k++)
            if (k != bx && k != bsi && !rp_sw_depends(dep, nreal, bx, bsi, k))
                pd[npd++] = k;
        /* repack without the cells that lack x or the series */
        uint32_t *vi2 = pb_xcalloc(n * ncand + 1, sizeof(uint32_t));
        size_t *cells2 = pb_xcalloc(n + 1, sizeof(size_t));
        size_t n2 = 0;
        for (size_t i = 0; i < n; i++) {
            const uint32_t *row = vi + i * stride;
            if (!cands[bx].vals[row[bx]] ||
                (bsi != SIZE_MAX && !cands[bsi].vals[row[bsi]]))
                continue;
            memcpy(vi2 + n2 * ncand, row, ncand * sizeof(uint32_t));
            cells2[n2++] = cells[i];
        }
        emit_panels(x, metric, cells2, n2, cands, ncand, vi2, bx,
                    bsi == SIZE_MAX ? ncand : bsi, pd, npd);
        free(cells2);
        free(vi2);
        free(pd);
    }
    free(dep);
    free(ambig);
    free(vi);
    free(cands);
    free(cells);
}

int rp_find_sweeps(struct rp_data *d, const char *xkey, const char *skey,
                   struct rp_sweeps *out, struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    pb_arena_init(&out->arena);
    struct sweep_ctx x;
    memset(&x, 0, sizeof(x));
    x.d = d;
    x.out = out;
    x.xkey = xkey;
    x.skey = skey;
    /* metrics in report order of their first primary group */
    unsigned char *done = pb_xcalloc(d->nmetrics + 1, 1);
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        size_t m = d->groups[gi].metric;
        if (!d->groups[gi].primary || done[m])
            continue;
        done[m] = 1;
        sweep_metric(&x, m);
    }
    free(done);
    int rc = PB_OK;
    if ((xkey && !x.xfound) || (skey && !x.sfound)) {
        const char *bad = xkey && !x.xfound ? xkey : skey;
        rc = pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                        "'%s' is not a dimension the results vary along "
                        "(they vary along: %s)",
                        bad, x.varying.len ? pb_buf_str(&x.varying) : "none");
    }
    pb_buf_release(&x.varying);
    return rc;
}

void rp_sweeps_release(struct rp_sweeps *s)
{
    free(s->v);
    pb_arena_release(&s->arena);
    memset(s, 0, sizeof(*s));
}
