/* Sweeps: for each metric, the two dimensions drawn as x axis and series
 * (or every configuration by one dimension, the experiment's own axis),
 * and what to say when the ones asked for cannot be drawn
 * (docs/report.md, "Sweeps"). */
#include "analysis/sweeps.h"
#include "analysis/sweep_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int key_matches(const struct cand *k, const char *want)
{
    if (!want || k->kind == RP_DIM_FAMILY || k->kind == RP_DIM_OTHERS)
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

struct sweep_ctx {
    struct rp_data *d;
    struct rp_sweeps *out;
    const char *xkey, *skey;
    int xfound, sfound;    /* a sweep was drawn with them */
    int xvary, svary;      /* some metric's results vary along them */
    struct pb_buf varying; /* names of varying dims, for the error */
    struct pb_buf why;     /* why the metric with the most cells that has
                              them cannot */
    size_t why_n;
};

static void note_varying(struct sweep_ctx *x, const struct cand *k)
{
    const char *name = rp_sw_key(k);
    struct pb_buf tmp = PB_BUF_INIT;
    pb_buf_printf(&tmp, ", %s,", pb_buf_str(&x->varying));
    struct pb_buf probe = PB_BUF_INIT;
    pb_buf_printf(&probe, ", %s,", name);
    int dup = strstr(pb_buf_str(&tmp), pb_buf_str(&probe)) != NULL;
    pb_buf_release(&tmp);
    pb_buf_release(&probe);
    if (dup)
        return;
    if (x->varying.len)
        pb_buf_puts(&x->varying, ", ");
    pb_buf_puts(&x->varying, name);
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

/* Does some configuration dimension vary that does not follow from x? */
static int has_others(const struct sw_metric *m, size_t x)
{
    for (size_t k = 0; k < m->nreal; k++)
        if (k != x && m->cands[k].kind == RP_DIM_CONFIG &&
            !m->dep[x * m->nreal + k])
            return 1;
    return 0;
}

/* The experiment's own axis: the configuration dimension that explains
 * the configurations. Among those with two values or more, one of them
 * held by two configurations at least (else it is only a name) and
 * others varying beside it: the one with a value on the most cells, then
 * the one the most other dimensions follow from (pool_layout: layout,
 * vdevs, disks), then the preference of keys (layout before vdevs,
 * disks, slog, l2arc), then more values. SIZE_MAX = none. */
static size_t own_axis(const struct sw_metric *m)
{
    const struct rp_data *d = m->d;
    size_t best = SIZE_MAX, bhave = 0, bscore = 0;
    unsigned char *seen = pb_xcalloc(d->nconfigs + 1, 1);
    size_t *held = NULL;
    for (size_t k = 0; k < m->nreal; k++) {
        const struct cand *c = &m->cands[k];
        if (c->kind != RP_DIM_CONFIG || !has_others(m, k))
            continue;
        size_t nv = c->nvals - (c->vals[c->nvals - 1] == NULL);
        if (nv < 2)
            continue;
        /* configurations per value, and cells with a value */
        held = pb_xcalloc(c->nvals + 1, sizeof(size_t));
        memset(seen, 0, d->nconfigs + 1);
        size_t have = 0;
        for (size_t i = 0; i < m->n; i++) {
            size_t v = m->vi[i * m->stride + k];
            if (!c->vals[v])
                continue;
            have++;
            size_t cf = d->cells[m->cells[i]].config;
            if (!seen[cf]) {
                seen[cf] = 1;
                held[v]++;
            }
        }
        int shared = 0;
        for (size_t v = 0; v < c->nvals; v++)
            shared |= held[v] >= 2;
        free(held);
        if (!shared)
            continue;
        size_t score = 0;
        for (size_t j = 0; j < m->nreal; j++)
            score += j != k && m->cands[j].kind == RP_DIM_CONFIG &&
                     m->dep[k * m->nreal + j];
        const struct cand *b = best != SIZE_MAX ? &m->cands[best] : NULL;
        if (!b || have > bhave ||
            (have == bhave && (score > bscore ||
                               (score == bscore && (c->pref < b->pref ||
                                                    (c->pref == b->pref &&
                                                     c->nvals > b->nvals)))))) {
            best = k;
            bhave = have;
            bscore = score;
        }
    }
    free(seen);
    return best;
}

/* The metric's primary cells, with a value and without. */
static void metric_cells(const struct rp_data *d, struct sw_metric *m)
{
    size_t cap = 0, capn = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (g->metric != m->metric || !g->primary)
            continue;
        for (size_t i = g->first; i < g->first + g->n; i++)
            if (d->cells[i].has_value) {
                PB_GROW(m->cells, cap, m->n + 1);
                m->cells[m->n++] = i;
            } else {
                PB_GROW(m->nulls, capn, m->nnull + 1);
                m->nulls[m->nnull++] = i;
            }
    }
}

/* One metric: its cells, their dimensions, the choice, the panels. */
static void sweep_metric(struct sweep_ctx *x, size_t metric)
{
    struct sw_metric m;
    memset(&m, 0, sizeof(m));
    m.d = x->d;
    m.metric = metric;
    m.arena = &x->out->arena;
    metric_cells(x->d, &m);
    /* drawn by this call, not an earlier one (tests find sweeps twice) */
    for (size_t i = 0; i < m.n; i++)
        x->d->cells[m.cells[i]].in_sweep = 0;
    if (m.n < 2) {
        free(m.cells);
        free(m.nulls);
        return;
    }
    rp_sw_candidates(&m);
    size_t xm = SIZE_MAX, sm = SIZE_MAX; /* the dimensions asked for */
    for (size_t k = 0; k < m.ncand; k++) {
        if (m.cands[k].kind != RP_DIM_FAMILY)
            note_varying(x, &m.cands[k]);
        if (xm == SIZE_MAX && key_matches(&m.cands[k], x->xkey))
            xm = k;
        if (sm == SIZE_MAX && key_matches(&m.cands[k], x->skey))
            sm = k;
    }
    x->xvary |= xm != SIZE_MAX;
    x->svary |= sm != SIZE_MAX;
    struct cov_ws ws;
    rp_sw_cov_init(&ws, &m);
    /* the pair of dimensions that draws the most cells */
    size_t bx = SIZE_MAX, bsi = SIZE_MAX, bcov = 0;
    int btwo = 0, bpref = 0;
    size_t bnv = 0;
    for (size_t xi = 0; xi < m.ncand; xi++) {
        if (m.cands[xi].kind == RP_DIM_FAMILY ||
            (x->xkey && !key_matches(&m.cands[xi], x->xkey)))
            continue;
        for (size_t si = 0; si <= m.ncand; si++) {
            int two = si < m.ncand;
            if (si == xi || (two && m.cands[si].kind == RP_DIM_FAMILY) ||
                (x->skey && (!two || !key_matches(&m.cands[si], x->skey))))
                continue;
            /* one dimension alone only along a test parameter: a config
             * dimension alone is the per-test chart already */
            if (!two && m.cands[xi].kind != RP_DIM_TEST && !x->xkey)
                continue;
            size_t cov = rp_sw_coverage(&m, xi, two ? si : SIZE_MAX, &ws);
            if (!cov)
                continue;
            /* x: the dimension with more values (bars in groups) */
            size_t xx = xi, ss = si;
            if (two && !x->xkey && !x->skey &&
                (m.cands[si].nvals > m.cands[xi].nvals ||
                 (m.cands[si].nvals == m.cands[xi].nvals &&
                  m.cands[si].pref < m.cands[xi].pref)))
                xx = si, ss = xi;
            int pref = m.cands[xx].pref + (two ? m.cands[ss].pref : 0);
            size_t nv = m.cands[xx].nvals;
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
    /* Every configuration by one configuration dimension (x asked for
     * alone, or the experiment's own axis): counted once, like a sweep
     * along one dimension; on a tie it wins, drawing more cells. */
    size_t ax = SIZE_MAX;
    if (!x->skey && !x->xkey)
        ax = own_axis(&m);
    else if (!x->skey && xm != SIZE_MAX && m.cands[xm].kind == RP_DIM_CONFIG &&
             has_others(&m, xm))
        ax = xm;
    int all = 0;
    if (ax != SIZE_MAX) {
        size_t cov = rp_sw_coverage_all(&m, ax, &ws);
        size_t bsc = bcov * (btwo ? 2 : 1);
        if (cov &&
            (bx == SIZE_MAX || cov > bsc || (cov == bsc && cov > bcov))) {
            bx = ax;
            bsi = SIZE_MAX;
            all = 1;
        }
    }
    size_t before = x->out->n;
    if (bx != SIZE_MAX) {
        if (all) {
            struct rp_dim others;
            memset(&others, 0, sizeof(others));
            size_t si = rp_sw_others(&m, bx, &others);
            rp_sw_panels(&m, x->out, bx, si, &others);
        } else {
            rp_sw_panels(&m, x->out, bx, bsi, NULL);
        }
    }
    if (x->out->n > before) {
        x->xfound |= x->xkey != NULL;
        x->sfound |= x->skey != NULL && bsi != SIZE_MAX;
    } else if ((x->xkey || x->skey) && m.n > x->why_n &&
               (!x->xkey || xm != SIZE_MAX) && (!x->skey || sm != SIZE_MAX)) {
        pb_buf_reset(&x->why);
        rp_sw_explain(&m, xm, sm, &ws, &x->why);
        x->why_n = m.n;
    }
    rp_sw_cov_release(&ws, m.nreal);
    free(m.dep);
    free(m.vi);
    free(m.cands);
    free(m.cells);
    free(m.nulls);
}

/* A value of key in the results, for "it does not vary"; NULL when none
 * has it. */
static const char *one_value(const struct rp_data *d, const char *key)
{
    int cfg = 1, tst = 1;
    if (!strncmp(key, "config.", 7) || !strncmp(key, "config:", 7)) {
        key += 7;
        tst = 0;
    } else if (!strncmp(key, "test.", 5) || !strncmp(key, "test:", 5)) {
        key += 5;
        cfg = 0;
    }
    for (size_t i = 0; cfg && i < d->nconfigs; i++) {
        const struct rp_config *c = &d->configs[i];
        const char *v = c->used ? rp_param(c->params, c->nparams, key) : NULL;
        if (v)
            return v;
    }
    for (size_t i = 0; tst && i < d->ntests; i++) {
        const struct rp_test *t = &d->tests[i];
        const char *v = t->used ? rp_param(t->params, t->nparams, key) : NULL;
        if (v)
            return v;
    }
    return NULL;
}

/* "'sync' is not a dimension the results vary along: every result has
 * sync=always (they vary along: ...)". */
static void not_varying(const struct sweep_ctx *x, const char *bad,
                        struct pb_buf *b)
{
    pb_buf_printf(b, "'%s' is not a dimension the results vary along", bad);
    const char *v = NULL;
    if (rp_sw_identity_key(bad) || !strcmp(bad, "tool"))
        pb_buf_puts(b, ": it names the program that ran, which is never a "
                       "sweep axis");
    else if ((v = one_value(x->d, bad)) != NULL) {
        char buf[64];
        const char *k = strchr(bad, '.') ? strchr(bad, '.') + 1 : bad;
        pb_buf_printf(b, ": every result here has %s=%s", k,
                      rp_param_text(k, v, buf, sizeof(buf)));
    } else if (strcmp(bad, "config") && strcmp(bad, "label") &&
               strcmp(bad, "test"))
        pb_buf_puts(b, ": no result here has it");
    pb_buf_printf(b, " (they vary along: %s)",
                  x->varying.len ? pb_buf_str(&x->varying) : "none");
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
        struct pb_buf b = PB_BUF_INIT;
        if (xkey && !x.xvary)
            not_varying(&x, xkey, &b);
        else if (skey && !x.svary)
            not_varying(&x, skey, &b);
        else if (x.why.len)
            pb_buf_puts(&b, pb_buf_str(&x.why));
        else
            not_varying(&x, xkey ? xkey : skey, &b);
        out->why = pb_arena_strdup(&out->arena, pb_buf_str(&b));
        rc = pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "%s", out->why);
        pb_buf_release(&b);
    }
    pb_buf_release(&x.varying);
    pb_buf_release(&x.why);
    return rc;
}

void rp_sweeps_release(struct rp_sweeps *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].left);
    free(s->v);
    pb_arena_release(&s->arena);
    memset(s, 0, sizeof(*s));
}
