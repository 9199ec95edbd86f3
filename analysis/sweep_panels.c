/* Sweeps: drawing a chosen x axis and series as panels, one per
 * combination of the other dimensions. Configurations no dimension tells
 * apart share a spot (pooled as repeats of one setup); every cell that no
 * panel draws is recorded with the reason, so the report can say which
 * configurations a sweep leaves out and why (docs/report.md, "Sweeps"). */
#include "analysis/sweeps.h"
#include "analysis/sweep_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PANELS 24

/* ==== the composite series: every configuration by x ==== */

/* ctx: the candidates (const struct cand *) the indexes point into */
static int by_pref(const void *a, const void *b, void *ctx)
{
    const struct cand *sort_cands = ctx;
    const struct cand *p = &sort_cands[*(const size_t *)a];
    const struct cand *q = &sort_cands[*(const size_t *)b];
    if (p->pref != q->pref)
        return p->pref < q->pref ? -1 : 1;
    return strcmp(p->key, q->key);
}

size_t rp_sw_others(struct sw_metric *m, size_t x, struct rp_dim *out)
{
    struct pb_arena *a = m->arena;
    size_t *all = pb_xcalloc(m->nreal + 1, sizeof(size_t));
    size_t nall = 0;
    for (size_t k = 0; k < m->nreal; k++)
        if (k != x && m->cands[k].kind == RP_DIM_CONFIG)
            all[nall++] = k;
    rp_sort(all, nall, sizeof(*all), by_pref, m->cands);
    /* the table shows them all; the rows are told apart by those that do
     * not follow from x */
    size_t *dims = pb_xcalloc(nall + 1, sizeof(size_t));
    size_t nd = 0;
    out->keys = pb_arena_alloc(a, (nall + 1) * sizeof(*out->keys));
    out->nkeys = nall;
    struct pb_buf name = PB_BUF_INIT;
    for (size_t i = 0; i < nall; i++) {
        out->keys[i] = m->cands[all[i]].key;
        if (m->dep[x * m->nreal + all[i]])
            continue;
        dims[nd++] = all[i];
        pb_buf_printf(&name, "%s%s", nd > 1 ? " · " : "", m->cands[all[i]].key);
    }
    size_t *order = pb_xcalloc(m->n + 1, sizeof(size_t));
    for (size_t i = 0; i < m->n; i++)
        order[i] = i;
    rp_sw_sort(order, m->n, m->vi, m->stride, dims, nd);
    size_t col = m->ncand;
    struct cand *k = &m->cands[col];
    memset(k, 0, sizeof(*k));
    k->kind = RP_DIM_OTHERS;
    k->key = pb_arena_strdup(a, pb_buf_str(&name));
    k->vals = pb_arena_alloc(a, (m->n + 1) * sizeof(*k->vals));
    for (size_t i = 0; i < m->n;) {
        size_t j = i + 1;
        while (j < m->n &&
               rp_sw_same(m->vi, m->stride, dims, nd, order[i], order[j]))
            j++;
        struct pb_buf t = PB_BUF_INIT;
        pb_buf_puts(&t, "");
        for (size_t q = 0; q < nd; q++) {
            const struct cand *c = &m->cands[dims[q]];
            char buf[64];
            pb_buf_printf(
                &t, "%s%s", q ? " · " : "",
                rp_sw_text(c, c->vals[m->vi[order[i] * m->stride + dims[q]]],
                           buf, sizeof(buf)));
        }
        k->vals[k->nvals] = pb_arena_strdup(a, pb_buf_str(&t));
        pb_buf_release(&t);
        for (size_t q = i; q < j; q++)
            m->vi[order[q] * m->stride + col] = (uint32_t)k->nvals;
        k->nvals++;
        i = j;
    }
    k->nums = pb_arena_alloc(a, (k->nvals + 1) * sizeof(*k->nums));
    out->kind = RP_DIM_OTHERS;
    out->key = k->key;
    out->vals = k->vals;
    out->nvals = k->nvals;
    pb_buf_release(&name);
    free(order);
    free(dims);
    free(all);
    return m->ncand++;
}

/* ==== panels ==== */

/* What the panels are made from: the metric's cells that have a value of
 * x (and of the series), their value indexes (the label's may be
 * cleared: see rescue), and the dimensions that make the panels. */
struct pw {
    struct sw_metric *m;
    size_t *cells, n; /* indexes into d->cells */
    uint32_t *vi;     /* n rows of m->stride */
    size_t x, s;      /* s = SIZE_MAX: none */
    int all;          /* a composite series: every configuration */
    size_t *pd, npd;
    size_t *order; /* by panel, series, x */
    /* per group (a panel's cells: order[gfirst[g]] ... before the next) */
    size_t *gfirst, ngroups;
    unsigned char *gok;   /* drawable */
    unsigned char *clash; /* results of two tests on one spot */
    struct rp_sweep *sw;
    struct rp_sweeps *out;
};

static size_t xof(const struct pw *w, size_t row)
{
    return w->vi[row * w->m->stride + w->x];
}

static size_t sof(const struct pw *w, size_t row)
{
    return w->s == SIZE_MAX ? 0 : w->vi[row * w->m->stride + w->s];
}

/* Split order into groups and judge each: a panel is drawn when it
 * compares something (two x values; with a series, some series holding
 * two x values and some x value two series) and no spot holds results of
 * two tests. Cells of one spot (twins) are adjacent. */
static void group(struct pw *w)
{
    size_t st = w->m->stride;
    for (size_t i = 0; i < w->n; i++)
        w->order[i] = i;
    size_t *k = pb_xcalloc(w->npd + 3, sizeof(size_t));
    memcpy(k, w->pd, w->npd * sizeof(size_t));
    size_t nk = w->npd;
    if (w->s != SIZE_MAX)
        k[nk++] = w->s;
    k[nk++] = w->x;
    rp_sw_sort(w->order, w->n, w->vi, st, k, nk);
    free(k);
    w->ngroups = 0;
    const struct rp_data *d = w->m->d;
    size_t maxv = w->m->cands[w->x].nvals + 1;
    size_t maxs = w->s == SIZE_MAX ? 1 : w->m->cands[w->s].nvals + 1;
    size_t *xs = pb_xcalloc(maxv, sizeof(size_t)); /* spots per x value */
    size_t *ss = pb_xcalloc(maxs, sizeof(size_t)); /* spots per series */
    for (size_t i = 0; i < w->n;) {
        size_t j = i + 1;
        while (j < w->n &&
               rp_sw_same(w->vi, st, w->pd, w->npd, w->order[i], w->order[j]))
            j++;
        size_t g = w->ngroups++;
        w->gfirst[g] = i;
        size_t px = 0, ps = 0;
        int xmulti = 0, smulti = 0, clash = 0;
        for (size_t q = i; q < j; q++) {
            size_t r = w->order[q];
            xs[xof(w, r)] = ss[sof(w, r)] = 0;
        }
        for (size_t q = i; q < j; q++) {
            size_t r = w->order[q];
            if (q > i && xof(w, r) == xof(w, w->order[q - 1]) &&
                sof(w, r) == sof(w, w->order[q - 1])) {
                /* a second cell on this spot: a twin, or a clash */
                if (d->cells[w->cells[r]].test !=
                    d->cells[w->cells[w->order[q - 1]]].test)
                    clash = 1;
                continue;
            }
            px += ++xs[xof(w, r)] == 1;
            xmulti |= xs[xof(w, r)] >= 2;
            ps += ++ss[sof(w, r)] == 1;
            smulti |= ss[sof(w, r)] >= 2;
        }
        int ok = px >= 2 &&
                 (w->all || w->s == SIZE_MAX || (ps >= 2 && xmulti && smulti));
        w->gok[g] = (unsigned char)(ok && !clash);
        w->clash[g] = (unsigned char)clash;
        i = j;
    }
    w->gfirst[w->ngroups] = w->n;
    free(xs);
    free(ss);
}

/* Configurations no parameter tells apart have their label as a
 * dimension, so "hdd" and "ssd" never share a bar. A label that makes no
 * panel of its own (the baseline measured again under another title)
 * is cleared instead: its cells join the configurations the parameters
 * tell apart, pooled with their twins on one spot. Returns 1 when some
 * were. */
static int rescue(struct pw *w)
{
    size_t lab = w->m->label;
    if (lab == SIZE_MAX || w->all)
        return 0;
    int in = 0;
    for (size_t q = 0; q < w->npd; q++)
        in |= w->pd[q] == lab;
    const struct cand *c = &w->m->cands[lab];
    if (!in || c->vals[c->nvals - 1]) /* no configuration without one */
        return 0;
    uint32_t none = (uint32_t)(c->nvals - 1);
    int any = 0;
    for (size_t g = 0; g < w->ngroups; g++) {
        if (w->gok[g])
            continue;
        for (size_t q = w->gfirst[g]; q < w->gfirst[g + 1]; q++) {
            uint32_t *v = &w->vi[w->order[q] * w->m->stride + lab];
            if (*v != none) {
                *v = none;
                any = 1;
            }
        }
    }
    return any;
}

/* ctx: the struct rp_data whose config ranks order the cells */
static int by_config_rank(const void *a, const void *b, void *ctx)
{
    const struct rp_data *rank_d = ctx;
    const struct rp_cell *p = &rank_d->cells[*(const size_t *)a];
    const struct rp_cell *q = &rank_d->cells[*(const size_t *)b];
    size_t x = rank_d->configs[p->config].rank,
           y = rank_d->configs[q->config].rank;
    return x < y ? -1 : x > y;
}

/* The results of twins as repeats of one setup: the mean of all their
 * stored results and the SE of their spread, as one configuration's
 * repeats are folded (Chan et al.'s update over each cell's mean and
 * M2). */
static void pool(const struct rp_data *d, const size_t *cells, size_t n,
                 struct rp_cell *out)
{
    struct rp_acc acc;
    memset(&acc, 0, sizeof(acc));
    long nnull = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rp_cell *c = &d->cells[cells[i]];
        struct rp_acc one;
        memset(&one, 0, sizeof(one));
        if (c->nresults <= 1) {
            rp_acc_add(&one, c->mean, c->se >= 0, c->se, c->n);
        } else {
            double k = (double)c->nresults;
            one.k = c->nresults;
            one.mean = c->mean;
            one.m2 = c->se >= 0 ? c->se * c->se * k * (k - 1) : 0;
        }
        rp_acc_merge(&acc, &one);
        nnull += c->nnull;
    }
    *out = d->cells[cells[0]];
    rp_acc_done(&acc, out);
    out->nnull = (int32_t)nnull;
    out->nrepeats = 0;
    out->outliers = 0;
    out->in_sweep = 1;
}

static void left(struct pw *w, size_t cell, int why, const char *what)
{
    struct rp_sweep *sw = w->sw;
    PB_GROW(sw->left, sw->capleft, sw->nleft + 1);
    sw->left[sw->nleft].cell = cell;
    sw->left[sw->nleft].why = why;
    sw->left[sw->nleft].what = what;
    sw->nleft++;
}

/* The panel of group g, or nothing when it cannot be drawn. */
static void emit(struct pw *w, size_t g, size_t *first)
{
    struct rp_data *d = w->m->d;
    struct pb_arena *a = w->m->arena;
    struct rp_sweep *sw = w->sw;
    const struct cand *cx = &w->m->cands[w->x];
    const struct cand *cs = w->s != SIZE_MAX ? &w->m->cands[w->s] : NULL;
    size_t i = w->gfirst[g], j = w->gfirst[g + 1];
    size_t nxv = cx->nvals, nsv = cs ? cs->nvals : 1;
    size_t *xmap = pb_xcalloc(nxv + 1, sizeof(size_t));
    size_t *smap = pb_xcalloc(nsv + 1, sizeof(size_t));
    for (size_t k = i; k < j; k++) {
        xmap[xof(w, w->order[k])] = 1;
        smap[sof(w, w->order[k])] = 1;
    }
    size_t px = 0, ps = 0;
    for (size_t k = 0; k < nxv; k++)
        xmap[k] = xmap[k] ? ++px : 0;
    for (size_t k = 0; k < nsv; k++)
        smap[k] = smap[k] ? ++ps : 0;
    first[sw->npanels] = w->order[i];
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
                a, rp_sw_text(cx, cx->vals[k], buf, sizeof(buf)));
    for (size_t k = 0; k < nsv; k++)
        if (smap[k]) {
            size_t idx = smap[k] - 1;
            p->svals[idx] =
                cs ? pb_arena_strdup(
                         a, rp_sw_text(cs, cs->vals[k], buf, sizeof(buf)))
                   : "";
            p->scolors[idx] = rc_series_color(idx, ps);
        }
    p->grid = pb_arena_alloc(a, px * ps * sizeof(size_t));
    for (size_t k = 0; k < px * ps; k++)
        p->grid[k] = SIZE_MAX;
    /* spots of twins: at most one per two cells */
    p->spots = pb_arena_alloc(a, ((j - i) / 2 + 1) * sizeof(*p->spots));
    for (size_t k = i; k < j;) {
        size_t e = k + 1;
        size_t r = w->order[k];
        while (e < j && xof(w, w->order[e]) == xof(w, r) &&
               sof(w, w->order[e]) == sof(w, r))
            e++;
        size_t gx = xmap[xof(w, r)] - 1, gs = smap[sof(w, r)] - 1;
        size_t spot = gs * px + gx;
        if (e - k > 1) {
            size_t *mem = pb_arena_alloc(a, (e - k) * sizeof(size_t));
            for (size_t q = k; q < e; q++)
                mem[q - k] = w->cells[w->order[q]];
            rp_sort(mem, e - k, sizeof(*mem), by_config_rank, d);
            struct rp_spot *sp = &p->spots[p->nspots++];
            sp->k = spot;
            sp->cells = mem;
            sp->n = e - k;
            pool(d, mem, e - k, &sp->pooled);
            struct pb_buf lb = PB_BUF_INIT;
            for (size_t q = 0; q < e - k; q++)
                pb_buf_printf(&lb, "%s%s", q ? " + " : "",
                              d->configs[d->cells[mem[q]].config].label);
            sp->labels = pb_arena_strdup(a, pb_buf_str(&lb));
            pb_buf_release(&lb);
            p->grid[spot] = mem[0];
        } else {
            p->grid[spot] = w->cells[r];
        }
        for (size_t q = k; q < e; q++) {
            size_t c = w->cells[w->order[q]];
            d->cells[c].in_sweep = 1;
            d->tests[d->cells[c].test].swept = 1;
            if (cs && cs->kind == RP_DIM_LABEL)
                p->scolors[gs] = d->configs[d->cells[c].config].color;
        }
        k = e;
    }
    free(xmap);
    free(smap);
}

/* The panel dimensions of row r whose values no drawn panel shares with
 * it, against the nearest drawn panel ("atime=on"); "" when none is
 * drawn. */
static const char *apart(struct pw *w, size_t r, const size_t *first,
                         size_t npanels)
{
    size_t st = w->m->stride, best = SIZE_MAX, bd = SIZE_MAX;
    for (size_t p = 0; p < npanels; p++) {
        size_t dd = 0;
        for (size_t q = 0; q < w->npd; q++)
            dd += w->vi[r * st + w->pd[q]] != w->vi[first[p] * st + w->pd[q]];
        if (dd < bd) {
            bd = dd;
            best = p;
        }
    }
    if (best == SIZE_MAX)
        return "";
    struct pb_buf t = PB_BUF_INIT;
    pb_buf_puts(&t, "");
    for (size_t q = 0; q < w->npd; q++) {
        size_t k = w->pd[q];
        if (w->vi[r * st + k] == w->vi[first[best] * st + k])
            continue;
        const struct cand *c = &w->m->cands[k];
        const char *v = c->vals[w->vi[r * st + k]];
        char buf[64];
        if (v)
            pb_buf_printf(&t, "%s%s=%s", t.len ? ", " : "", rp_sw_key(c),
                          rp_sw_text(c, v, buf, sizeof(buf)));
        else
            pb_buf_printf(&t, "%s%s unknown", t.len ? ", " : "", rp_sw_key(c));
    }
    const char *s = pb_arena_strdup(w->m->arena, pb_buf_str(&t));
    pb_buf_release(&t);
    return s;
}

/* Titles: only the dimensions that tell the panels apart. */
static void titles(struct pw *w, const size_t *first)
{
    struct rp_sweep *sw = w->sw;
    size_t st = w->m->stride;
    for (size_t k = 0; k < sw->npanels; k++) {
        struct pb_buf t = PB_BUF_INIT;
        pb_buf_puts(&t, "");
        int any = 0;
        for (size_t q = 0; q < w->npd; q++) {
            size_t dim = w->pd[q];
            int differs = 0;
            for (size_t o = 0; o < sw->npanels && !differs; o++)
                differs =
                    w->vi[first[o] * st + dim] != w->vi[first[k] * st + dim];
            if (!differs)
                continue;
            const struct cand *pc = &w->m->cands[dim];
            char buf[64];
            pb_buf_printf(&t, "%s%s=%s", any ? ", " : "", rp_sw_key(pc),
                          rp_sw_text(pc, pc->vals[w->vi[first[k] * st + dim]],
                                     buf, sizeof(buf)));
            any = 1;
        }
        sw->panels[k].title = pb_arena_strdup(w->m->arena, pb_buf_str(&t));
        pb_buf_release(&t);
    }
}

/* Reason, what sets apart, configuration, test. ctx: the struct rp_data
 * whose ranks break the ties. */
static int by_reason(const void *a, const void *b, void *ctx)
{
    const struct rp_left *p = a, *q = b;
    const struct rp_data *rank_d = ctx;
    if (p->why != q->why)
        return p->why < q->why ? -1 : 1;
    int c = strcmp(p->what ? p->what : "", q->what ? q->what : "");
    if (c)
        return c;
    const struct rp_cell *x = &rank_d->cells[p->cell];
    const struct rp_cell *y = &rank_d->cells[q->cell];
    size_t rx = rank_d->configs[x->config].rank,
           ry = rank_d->configs[y->config].rank;
    if (rx != ry)
        return rx < ry ? -1 : 1;
    rx = rank_d->tests[x->test].rank;
    ry = rank_d->tests[y->test].rank;
    return rx < ry ? -1 : rx > ry;
}

/* How many configurations have cells of the metric, and how many of
 * them no cell drawn. */
static void count_configs(struct pw *w)
{
    const struct rp_data *d = w->m->d;
    unsigned char *st = pb_xcalloc(d->nconfigs + 1, 1); /* 1 seen, 2 drawn */
    for (int pass = 0; pass < 2; pass++) {
        const size_t *cs = pass ? w->m->nulls : w->m->cells;
        size_t n = pass ? w->m->nnull : w->m->n;
        for (size_t i = 0; i < n; i++) {
            const struct rp_cell *c = &d->cells[cs[i]];
            st[c->config] |= (unsigned char)(1 | (c->in_sweep ? 2 : 0));
        }
    }
    for (size_t i = 0; i < d->nconfigs; i++) {
        w->sw->nconfigs += st[i] != 0;
        w->sw->nleft_configs += st[i] == 1;
    }
    free(st);
}

void rp_sw_panels(struct sw_metric *m, struct rp_sweeps *out, size_t x,
                  size_t s, const struct rp_dim *others)
{
    struct rp_data *d = m->d;
    struct pw w;
    memset(&w, 0, sizeof(w));
    w.m = m;
    w.x = x;
    w.s = s;
    w.all = others != NULL;
    w.out = out;
    struct rp_sweep sw;
    memset(&sw, 0, sizeof(sw));
    w.sw = &sw;
    sw.metric = m->metric;
    const struct cand *cx = &m->cands[x];
    sw.x.kind = cx->kind == RP_DIM_TEST_NAME ? RP_DIM_TEST : cx->kind;
    sw.x.key = cx->key;
    sw.x.vals = cx->vals;
    sw.x.nvals = cx->nvals;
    if (others) {
        sw.s = *others;
    } else if (s != SIZE_MAX) {
        const struct cand *cs = &m->cands[s];
        sw.s.kind = cs->kind == RP_DIM_TEST_NAME ? RP_DIM_TEST : cs->kind;
        sw.s.key = cs->key;
        sw.s.vals = cs->vals;
        sw.s.nvals = cs->nvals;
    }
    /* the panel dimensions: every real one but x, the series and those
     * that follow from them (vdevs of a layout); a composite series holds
     * the configuration dimensions, and twins share its spots */
    w.pd = pb_xcalloc(m->nreal + 1, sizeof(size_t));
    for (size_t k = 0; k < m->nreal; k++) {
        if (k == x || k == s || rp_sw_depends(m->dep, m->nreal, x, s, k))
            continue;
        if (w.all && (m->cands[k].kind == RP_DIM_CONFIG || k == m->label))
            continue;
        w.pd[w.npd++] = k;
    }
    /* cells without a value of x or the series are left out */
    for (size_t i = 0; i < m->nnull; i++)
        left(&w, m->nulls[i], RP_LEFT_NOVALUE,
             rp_cell_reason(d, &d->cells[m->nulls[i]]));
    w.cells = pb_xcalloc(m->n + 1, sizeof(size_t));
    w.vi = pb_xcalloc(m->n * m->stride + 1, sizeof(uint32_t));
    for (size_t i = 0; i < m->n; i++) {
        const uint32_t *row = m->vi + i * m->stride;
        int nox = !cx->vals[row[x]];
        if (nox || (s != SIZE_MAX && !m->cands[s].vals[row[s]])) {
            left(&w, m->cells[i], RP_LEFT_NODIM,
                 rp_sw_key(&m->cands[nox ? x : s]));
            continue;
        }
        memcpy(w.vi + w.n * m->stride, row, m->stride * sizeof(uint32_t));
        w.cells[w.n++] = m->cells[i];
    }
    w.order = pb_xcalloc(w.n + 1, sizeof(size_t));
    w.gfirst = pb_xcalloc(w.n + 2, sizeof(size_t));
    w.gok = pb_xcalloc(w.n + 1, 1);
    w.clash = pb_xcalloc(w.n + 1, 1);
    group(&w);
    if (rescue(&w))
        group(&w);
    sw.panels = pb_arena_alloc(m->arena, MAX_PANELS * sizeof(*sw.panels));
    size_t first[MAX_PANELS]; /* a row of each panel */
    for (size_t g = 0; g < w.ngroups; g++) {
        if (!w.gok[g])
            continue;
        if (sw.npanels == MAX_PANELS) {
            sw.omitted++;
            for (size_t q = w.gfirst[g]; q < w.gfirst[g + 1]; q++)
                left(&w, w.cells[w.order[q]], RP_LEFT_PANELS, NULL);
            continue;
        }
        emit(&w, g, first);
    }
    for (size_t g = 0; g < w.ngroups; g++) {
        if (w.gok[g])
            continue;
        const char *what =
            w.clash[g] ? NULL
                       : apart(&w, w.order[w.gfirst[g]], first, sw.npanels);
        for (size_t q = w.gfirst[g]; q < w.gfirst[g + 1]; q++)
            left(&w, w.cells[w.order[q]],
                 w.clash[g] ? RP_LEFT_CLASH : RP_LEFT_APART, what);
    }
    titles(&w, first);
    if (sw.npanels) {
        count_configs(&w);
        rp_sort(sw.left, sw.nleft, sizeof(*sw.left), by_reason, d);
        PB_GROW(out->v, out->cap, out->n + 1);
        out->v[out->n++] = sw;
    } else {
        free(sw.left);
    }
    free(w.pd);
    free(w.cells);
    free(w.vi);
    free(w.order);
    free(w.gfirst);
    free(w.gok);
    free(w.clash);
}

const struct rp_cell *rp_panel_cell(const struct rp_data *d,
                                    const struct rp_panel *p, size_t k,
                                    const struct rp_spot **spot)
{
    if (spot)
        *spot = NULL;
    if (p->grid[k] == SIZE_MAX)
        return NULL;
    for (size_t i = 0; i < p->nspots; i++)
        if (p->spots[i].k == k) {
            if (spot)
                *spot = &p->spots[i];
            return &p->spots[i].pooled;
        }
    return &d->cells[p->grid[k]];
}
