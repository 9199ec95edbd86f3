/* Sweeps: choosing the two dimensions. How many of a metric's cells a
 * sweep over an x dimension (and a series) would draw, by grouping cells
 * on every other dimension: hashed keys, dense ids, stamp tables. */
#include "analysis/sweeps.h"
#include "analysis/sweep_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rp_sw_hval(size_t dim, size_t v)
{
    return mix64(((uint64_t)dim << 32) ^ (uint64_t)(v + 1));
}


static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *p = a, *q = b;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->s < q->s ? -1 : p->s > q->s;
}

/* Sort by (key, x, s) as cmp_keyed does: LSD radix sort, one byte per
 * pass, only the bytes some element has set. qsort of the ~50 candidate
 * pairs of a 40,000-cell metric was most of the sweeps' time. tmp2 has
 * room for n. */
static void sort_keyed(struct keyed *v, size_t n, struct keyed *tmp2)
{
    if (n < 64) {
        qsort(v, n, sizeof(*v), cmp_keyed);
        return;
    }
    uint64_t os = 0, ox = 0, ok = 0;
    for (size_t i = 0; i < n; i++) {
        os |= v[i].s;
        ox |= v[i].x;
        ok |= v[i].key;
    }
    /* digits, least significant first: (field, byte) */
    int field[24], byte[24], nd = 0;
    const uint64_t ors[3] = {os, ox, ok};
    for (int f = 0; f < 3; f++)
        for (int b = 0; b < 8; b++)
            if ((ors[f] >> (8 * b)) & 0xff) {
                field[nd] = f;
                byte[nd++] = b;
            }
    size_t (*cnt)[256] = pb_xcalloc((size_t)nd + 1, sizeof(*cnt));
    for (size_t i = 0; i < n; i++)
        for (int dg = 0; dg < nd; dg++) {
            uint64_t w = field[dg] == 0   ? (uint64_t)v[i].s
                         : field[dg] == 1 ? (uint64_t)v[i].x
                                          : v[i].key;
            cnt[dg][(w >> (8 * byte[dg])) & 0xff]++;
        }
    struct keyed *src = v, *dst = tmp2;
    for (int dg = 0; dg < nd; dg++) {
        size_t *c = cnt[dg];
        size_t pos = 0;
        for (int k = 0; k < 256; k++) {
            size_t t = c[k];
            c[k] = pos;
            pos += t;
        }
        int f = field[dg], sh = 8 * byte[dg];
        for (size_t i = 0; i < n; i++) {
            uint64_t w = f == 0   ? (uint64_t)src[i].s
                         : f == 1 ? (uint64_t)src[i].x
                                  : src[i].key;
            dst[c[(w >> sh) & 0xff]++] = src[i];
        }
        struct keyed *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof(*v));
    free(cnt);
}


static void dense_init(struct dense *h, size_t n)
{
    size_t cap = 64;
    while (cap < 2 * n + 2)
        cap *= 2;
    h->k = pb_xcalloc(cap, sizeof(*h->k));
    h->id = pb_xcalloc(cap, sizeof(*h->id));
    h->gen = pb_xcalloc(cap, sizeof(*h->gen));
    h->mask = cap - 1;
    h->g = 0;
}

static void dense_release(struct dense *h)
{
    free(h->k);
    free(h->id);
    free(h->gen);
}

/* Returns the number of distinct keys. */
static size_t dense_keys(struct dense *h, struct keyed *v, size_t m)
{
    if (++h->g == 0) {
        memset(h->gen, 0, (h->mask + 1) * sizeof(*h->gen));
        h->g = 1;
    }
    size_t next = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t key = v[i].key;
        size_t j = (size_t)(key ^ (key >> 32)) & h->mask;
        while (h->gen[j] == h->g && h->k[j] != key)
            j = (j + 1) & h->mask;
        if (h->gen[j] != h->g) {
            h->gen[j] = h->g;
            h->k[j] = key;
            h->id[j] = next++;
        }
        v[i].key = h->id[j];
    }
    return next;
}

void rp_sw_cov_init(struct cov_ws *w, const struct sw_metric *m)
{
    size_t n = m->n, maxv = 1;
    for (size_t k = 0; k < m->ncand; k++)
        if (m->cands[k].nvals > maxv)
            maxv = m->cands[k].nvals;
    w->tmp = pb_xcalloc(n + 1, sizeof(*w->tmp));
    w->tmp2 = pb_xcalloc(n + 1, sizeof(*w->tmp2));
    dense_init(&w->h, n);
    w->start = pb_xcalloc(n + 2, sizeof(size_t));
    w->xst = pb_xcalloc(2 * maxv + 2, sizeof(size_t));
    w->sst = pb_xcalloc(2 * maxv + 2, sizeof(size_t));
    w->pst = NULL;
    w->gen = 0;
    w->hv = pb_xcalloc(m->nreal + 1, sizeof(*w->hv));
    for (size_t k = 0; k < m->nreal; k++) {
        w->hv[k] = pb_xcalloc(m->cands[k].nvals + 1, sizeof(uint64_t));
        for (size_t v = 0; v < m->cands[k].nvals; v++)
            w->hv[k][v] = rp_sw_hval(k, v);
    }
    w->full = pb_xcalloc(n + 1, sizeof(uint64_t));
    w->rid = pb_xcalloc(n + 1, sizeof(size_t));
    w->gok = pb_xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < m->nreal; k++)
            w->full[i] += w->hv[k][m->vi[i * m->stride + k]];
}

void rp_sw_cov_release(struct cov_ws *w, size_t nreal)
{
    free(w->tmp);
    free(w->tmp2);
    dense_release(&w->h);
    free(w->start);
    free(w->xst);
    free(w->sst);
    free(w->pst);
    for (size_t k = 0; k < nreal; k++)
        free(w->hv[k]);
    free(w->hv);
    free(w->full);
    free(w->rid);
    free(w->gok);
}

/* Count a stamp of generation gen; returns the count (1 = first). */
static size_t stamp_hit(size_t *st, size_t i, size_t gen)
{
    if (st[2 * i] != gen) {
        st[2 * i] = gen;
        st[2 * i + 1] = 0;
    }
    return ++st[2 * i + 1];
}

/* dep[a * nreal + b]: dimension b is a function of dimension a over the
 * cells (each value of a goes with one value of b: `vdevs` and `disks`
 * of a `layout` such as stripe-2). Such a b is no dimension of its own
 * when a is swept. */
unsigned char *rp_sw_dependencies(const struct cand *cands, const uint32_t *vi,
                                  size_t stride, size_t n, size_t nreal)
{
    unsigned char *dep = pb_xcalloc(nreal * nreal + 1, 1);
    size_t maxv = 1;
    for (size_t k = 0; k < nreal; k++)
        if (cands[k].nvals > maxv)
            maxv = cands[k].nvals;
    size_t *seen = pb_xcalloc(maxv + 1, sizeof(size_t));
    for (size_t a = 0; a < nreal; a++) {
        if (cands[a].kind == RP_DIM_FAMILY)
            continue;
        for (size_t b = 0; b < nreal; b++) {
            if (a == b || cands[b].kind == RP_DIM_FAMILY)
                continue;
            for (size_t v = 0; v <= maxv; v++)
                seen[v] = 0; /* value of b + 1 seen with value v of a */
            int fn = 1;
            for (size_t i = 0; i < n && fn; i++) {
                size_t va = vi[i * stride + a], vb = vi[i * stride + b];
                if (!seen[va])
                    seen[va] = vb + 1;
                else if (seen[va] != vb + 1)
                    fn = 0;
            }
            dep[a * nreal + b] = (unsigned char)fn;
        }
    }
    free(seen);
    return dep;
}

int rp_sw_depends(const unsigned char *dep, size_t nreal, size_t x, size_t s,
                  size_t k)
{
    return (x < nreal && dep[x * nreal + k]) ||
           (s < nreal && dep[s * nreal + k]);
}

/* The elements of a coverage: each cell with a value of x (and s), keyed
 * by every real dimension but x, s and those that follow from them. With
 * ok (the first pass's verdict per group, rid each element's group in
 * it), the label of cells in groups that cannot be drawn is cleared, as
 * sweep_panels.c's rescue does. Returns how many. */
static size_t build(const struct sw_metric *sm, size_t x, size_t s,
                    struct cov_ws *w, const unsigned char *ok, size_t lab)
{
    const struct cand *cands = sm->cands;
    const uint32_t *vi = sm->vi;
    size_t stride = sm->stride, nreal = sm->nreal;
    struct keyed *tmp = w->tmp;
    size_t m = 0;
    for (size_t i = 0; i < sm->n; i++) {
        size_t vx = vi[i * stride + x];
        if (!cands[x].vals[vx])
            continue;
        /* the key: every real dimension but x and s (pseudo-dimensions
         * only tell cells apart, they do not group them) */
        uint64_t key = w->full[i];
        if (x < nreal)
            key -= w->hv[x][vx];
        size_t vs = 0;
        if (s != SIZE_MAX) {
            vs = vi[i * stride + s];
            if (!cands[s].vals[vs])
                continue;
            if (s < nreal)
                key -= w->hv[s][vs];
        }
        /* dimensions that follow from x or s (vdevs from a layout) do
         * not split groups */
        for (size_t k = 0; k < nreal; k++)
            if (k != x && k != s && rp_sw_depends(sm->dep, nreal, x, s, k))
                key -= w->hv[k][vi[i * stride + k]];
        if (ok && !ok[w->rid[m]]) {
            size_t v = vi[i * stride + lab], none = cands[lab].nvals - 1;
            key += w->hv[lab][none] - w->hv[lab][v];
        }
        tmp[m].key = key;
        tmp[m].x = vx;
        tmp[m].s = vs;
        m++;
    }
    return m;
}

/* Group the m elements (keys made dense: ngroups) and count the cells of
 * groups worth drawing; ok (may be NULL) gets each group's verdict. With
 * dup_ok, cells on one spot are twins pooled there, else the group is
 * not drawn. */
static size_t judge(const struct sw_metric *sm, size_t x, size_t s,
                    struct cov_ws *w, size_t m, size_t ngroups, int dup_ok,
                    unsigned char *ok)
{
    const struct cand *cands = sm->cands;
    struct keyed *tmp = w->tmp;
    size_t nsv = s != SIZE_MAX ? cands[s].nvals : 1;
    int direct = cands[x].nvals <= PAIR_STAMPS / nsv;
    struct keyed *g = tmp;
    if (direct) {
        /* groups by counting, no sort: the checks below do not depend on
         * the order inside a group */
        size_t *start = w->start;
        memset(start, 0, (ngroups + 2) * sizeof(size_t));
        for (size_t i = 0; i < m; i++)
            start[tmp[i].key + 2]++;
        for (size_t k = 2; k < ngroups + 2; k++)
            start[k] += start[k - 1];
        for (size_t i = 0; i < m; i++)
            w->tmp2[start[tmp[i].key + 1]++] = tmp[i];
        g = w->tmp2;
        if (!w->pst)
            w->pst = pb_xcalloc(PAIR_STAMPS, sizeof(size_t));
    } else {
        sort_keyed(tmp, m, w->tmp2);
    }
    size_t cover = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i, px = 0, ps = 0;
        int dup = 0, xmulti = 0, smulti = 0;
        size_t gen = ++w->gen;
        for (; j < m && g[j].key == g[i].key; j++) {
            if (direct) {
                size_t *p = &w->pst[g[j].x * nsv + g[j].s];
                if (*p == gen) {
                    dup = 1; /* two cells on one spot: not this pair */
                    continue;
                }
                *p = gen;
                size_t c = stamp_hit(w->xst, g[j].x, gen);
                if (c == 1)
                    px++;
                else
                    xmulti = 1; /* an x value with two series */
            } else if (j == i || g[j].x != g[j - 1].x) {
                px++;
            } else if (g[j].s == g[j - 1].s) {
                dup = 1;
                continue;
            } else {
                xmulti = 1;
            }
            if (s != SIZE_MAX) {
                size_t c = stamp_hit(w->sst, g[j].s, gen);
                if (c == 1)
                    ps++;
                if (c == 2)
                    smulti = 1; /* a series with two x values */
            }
        }
        /* a grid worth drawing: some series compares x values and some x
         * value compares series (not just a diagonal) */
        int draw = px >= 2 && (dup_ok || !dup) &&
                   (s == SIZE_MAX || (ps >= 2 && xmulti && smulti));
        if (ok)
            ok[g[i].key] = (unsigned char)draw;
        if (draw)
            cover += j - i;
        i = j;
    }
    return cover;
}

/* Cells a sweep over x (and s, SIZE_MAX = none) would draw: those in
 * groups (same value of every other dimension) holding at least two x
 * values, and two series values when s is given. Configurations no
 * parameter tells apart have their label as a dimension; where it makes
 * no group of its own, it is cleared and they are counted where they
 * pool with their twins (sweep_panels.c, rescue). */
size_t rp_sw_coverage(const struct sw_metric *sm, size_t x, size_t s,
                      struct cov_ws *w)
{
    size_t lab = sm->label;
    int rescue = lab != SIZE_MAX && lab != x && lab != s &&
                 !rp_sw_depends(sm->dep, sm->nreal, x, s, lab) &&
                 !sm->cands[lab].vals[sm->cands[lab].nvals - 1];
    size_t m = build(sm, x, s, w, NULL, SIZE_MAX);
    size_t ngroups = dense_keys(&w->h, w->tmp, m);
    if (rescue)
        for (size_t i = 0; i < m; i++)
            w->rid[i] = w->tmp[i].key;
    size_t cover = judge(sm, x, s, w, m, ngroups, 0, rescue ? w->gok : NULL);
    if (!rescue)
        return cover;
    int any = 0;
    for (size_t i = 0; i < m && !any; i++)
        any = !w->gok[w->rid[i]] &&
              sm->cands[lab].vals[sm->vi[i * sm->stride + lab]];
    if (!any)
        return cover;
    /* twins pool only when no two tests share a spot */
    int names = sm->ncand > sm->nreal &&
                sm->cands[sm->ncand - 1].kind == RP_DIM_TEST_NAME;
    m = build(sm, x, s, w, w->gok, lab);
    ngroups = dense_keys(&w->h, w->tmp, m);
    return judge(sm, x, s, w, m, ngroups, !names, NULL);
}

/* The groups are those of the dimensions that are no configuration's
 * (test parameters, the tool): every configuration of one workload is in
 * the panel, the configuration dimensions are its rows; a panel counts
 * when it holds two values of x. */
size_t rp_sw_coverage_all(const struct sw_metric *m, size_t x, struct cov_ws *w)
{
    struct keyed *tmp = w->tmp;
    size_t mm = 0;
    for (size_t i = 0; i < m->n; i++) {
        const uint32_t *row = m->vi + i * m->stride;
        if (!m->cands[x].vals[row[x]])
            continue;
        uint64_t key = 0;
        for (size_t k = 0; k < m->nreal; k++)
            if (m->cands[k].kind != RP_DIM_CONFIG &&
                m->cands[k].kind != RP_DIM_LABEL)
                key += w->hv[k][row[k]];
        tmp[mm].key = key;
        tmp[mm].x = row[x];
        tmp[mm].s = 0;
        mm++;
    }
    size_t ngroups = dense_keys(&w->h, tmp, mm);
    size_t *count = pb_xcalloc(ngroups + 1, sizeof(size_t));
    size_t *first = pb_xcalloc(ngroups + 1, sizeof(size_t)); /* x + 1 */
    unsigned char *two = pb_xcalloc(ngroups + 1, 1);
    for (size_t i = 0; i < mm; i++) {
        size_t g = tmp[i].key;
        count[g]++;
        if (!first[g])
            first[g] = (size_t)tmp[i].x + 1;
        else if (first[g] != (size_t)tmp[i].x + 1)
            two[g] = 1;
    }
    size_t cover = 0;
    for (size_t g = 0; g < ngroups; g++)
        if (two[g])
            cover += count[g];
    free(count);
    free(first);
    free(two);
    return cover;
}
