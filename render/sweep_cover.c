/* Sweeps: choosing the two dimensions. How many of a metric's cells a
 * sweep over an x dimension (and a series) would draw, by grouping cells
 * on every other dimension: hashed keys, dense ids, stamp tables. */
#include "render/sweep_int.h"

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


void rp_sw_cov_init(struct cov_ws *w, size_t n, size_t maxv)
{
    w->tmp = pb_xcalloc(n + 1, sizeof(*w->tmp));
    w->tmp2 = pb_xcalloc(n + 1, sizeof(*w->tmp2));
    dense_init(&w->h, n);
    w->start = pb_xcalloc(n + 2, sizeof(size_t));
    w->xst = pb_xcalloc(2 * maxv + 2, sizeof(size_t));
    w->sst = pb_xcalloc(2 * maxv + 2, sizeof(size_t));
    w->pst = NULL;
    w->gen = 0;
}

void rp_sw_cov_release(struct cov_ws *w)
{
    free(w->tmp);
    free(w->tmp2);
    dense_release(&w->h);
    free(w->start);
    free(w->xst);
    free(w->sst);
    free(w->pst);
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

/* Cells a sweep over x (and s, SIZE_MAX = none) would draw: those in
 * groups (same value of every other dimension) holding at least two x
 * values, and two series values when s is given. */
size_t rp_sw_coverage(const struct cand *cands, const uint32_t *vi,
                      size_t stride, const uint64_t *full, size_t n,
                      size_t nreal, size_t x, size_t s,
                      const unsigned char *dep, struct cov_ws *w)
{
    struct keyed *tmp = w->tmp;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t vx = vi[i * stride + x];
        if (!cands[x].vals[vx])
            continue;
        /* the key: every real dimension but x and s (pseudo-dimensions
         * only tell cells apart, they do not group them) */
        uint64_t key = full[i];
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
            if (k != x && k != s && rp_sw_depends(dep, nreal, x, s, k))
                key -= w->hv[k][vi[i * stride + k]];
        tmp[m].key = key;
        tmp[m].x = vx;
        tmp[m].s = vs;
        m++;
    }
    size_t ngroups = dense_keys(&w->h, tmp, m);
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
        while (j < m && g[j].key == g[i].key) {
            if (direct) {
                size_t c = stamp_hit(w->xst, g[j].x, gen);
                if (c == 1)
                    px++;
                else
                    xmulti = 1; /* an x value with two series */
                size_t *p = &w->pst[g[j].x * nsv + g[j].s];
                if (*p == gen)
                    dup = 1; /* two cells on one spot: not this pair */
                *p = gen;
            } else if (j == i || g[j].x != g[j - 1].x) {
                px++;
            } else {
                xmulti = 1;
                if (g[j].s == g[j - 1].s)
                    dup = 1;
            }
            if (s != SIZE_MAX) {
                size_t c = stamp_hit(w->sst, g[j].s, gen);
                if (c == 1)
                    ps++;
                if (c == 2)
                    smulti = 1; /* a series with two x values */
            }
            j++;
        }
        /* a grid worth drawing: some series compares x values and some x
         * value compares series (not just a diagonal) */
        if (px >= 2 && !dup && (s == SIZE_MAX || (ps >= 2 && xmulti && smulti)))
            cover += j - i;
        i = j;
    }
    return cover;
}
