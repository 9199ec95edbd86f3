/* compare: two sides read as the report reads them (repeats aggregated),
 * paired by test and metric (and configuration), each pair tested
 * (Welch from summaries, Mann-Whitney on stored samples) and judged
 * against the gate. docs/statistics.md, "Compare: pairing and statistics". */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "render/render_int.h"
#include "common/stats.h"

#include <math.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pb_compare_priv {
    struct rp_data d[2];
    struct pb_arena arena;
    const char **titles; /* metric titles by base metric index */
};

/* ==== samples of one side ==== */

struct samp {
    long long source, test, metric, config, result;
    double value;
};

struct samps {
    struct samp *v;
    size_t n, cap;
};

static int on_sample(void *ctx, const struct pb_db_sample *s)
{
    struct samps *ss = ctx;
    PB_GROW(ss->v, ss->cap, ss->n + 1);
    ss->v[ss->n++] = (struct samp){s->source_id, s->test_id, s->metric_id,
                                   s->config_id, s->result_id, s->value};
    return 0;
}

static int samp_cmp_key(const struct samp *a, long long source,
                        long long test, long long metric, long long config)
{
    if (a->source != source)
        return a->source < source ? -1 : 1;
    if (a->test != test)
        return a->test < test ? -1 : 1;
    if (a->metric != metric)
        return a->metric < metric ? -1 : 1;
    if (a->config != config)
        return a->config < config ? -1 : 1;
    return 0;
}

/* The stored samples behind cell c: only when the cell is one result row
 * (k 1), one result holds them and their count is the cell's n. */
static const struct samp *cell_samples(const struct samps *ss,
                                       const struct rp_data *d,
                                       const struct rp_cell *c, size_t *n)
{
    *n = 0;
    if (!ss->n || c->nresults != 1)
        return NULL;
    long long t = d->tests[c->test].id, m = d->metrics[c->metric].id;
    long long cf = d->configs[c->config].id;
    size_t lo = 0, hi = ss->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (samp_cmp_key(&ss->v[mid], c->source, t, m, cf) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < ss->n && !samp_cmp_key(&ss->v[end], c->source, t, m, cf)) {
        if (ss->v[end].result != ss->v[lo].result)
            return NULL; /* several results: not this cell's alone */
        end++;
    }
    if (end - lo < 2 || (c->n > 0 && (size_t)c->n != end - lo))
        return NULL;
    *n = end - lo;
    return &ss->v[lo];
}

/* ==== entries: valued cells of both sides ==== */

struct ent {
    uint32_t cell;
    uint8_t side, paired;
    const char *dims; /* "k=v,k=v", made when needed */
};

/* The sides' data while entries are sorted (qsort has no context). */
static const struct pb_compare_priv *ent_priv;

static const struct rp_cell *ent_cell(const struct pb_compare_priv *pv,
                                      const struct ent *e)
{
    return &pv->d[e->side].cells[e->cell];
}

static const char *ent_test(const struct pb_compare_priv *pv,
                            const struct ent *e)
{
    return pv->d[e->side].tests[ent_cell(pv, e)->test].name;
}

static const char *ent_metric(const struct pb_compare_priv *pv,
                              const struct ent *e)
{
    return pv->d[e->side].metrics[ent_cell(pv, e)->metric].name;
}

static const char *ent_label(const struct pb_compare_priv *pv,
                             const struct ent *e)
{
    return pv->d[e->side].configs[ent_cell(pv, e)->config].label;
}

static int ent_cmp(const void *pa, const void *pb)
{
    const struct ent *a = pa, *b = pb;
    const struct pb_compare_priv *pv = ent_priv;
    int c = strcmp(ent_test(pv, a), ent_test(pv, b));
    if (!c)
        c = strcmp(ent_metric(pv, a), ent_metric(pv, b));
    if (!c)
        c = strcmp(ent_label(pv, a), ent_label(pv, b));
    if (!c)
        c = (a->side > b->side) - (a->side < b->side);
    if (!c)
        c = (a->cell > b->cell) - (a->cell < b->cell);
    return c;
}

static const char *ent_dims(struct pb_compare *cmp, struct ent *e)
{
    if (e->dims)
        return e->dims;
    const struct rp_data *d = &cmp->priv->d[e->side];
    const struct rp_config *cf = &d->configs[d->cells[e->cell].config];
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < cf->nparams; i++)
        pb_buf_printf(&b, "%s%s=%s", i ? "," : "", cf->params[i].key,
                      cf->params[i].value);
    e->dims = pb_arena_strdup(&cmp->priv->arena, b.s ? b.s : "");
    pb_buf_release(&b);
    return e->dims;
}

/* ==== one pair ==== */

struct ctx {
    struct pb_compare *cmp;
    const struct pb_compare_opts *opts;
    struct samps samps[2];
    pcre2_code *gate_re;
    size_t cap;
};

/* Can an exact two-sided Mann-Whitney test of sizes m, n reach alpha? Its
 * smallest p is 2 / C(m + n, m). */
static int mwu_can_reach(size_t m, size_t n, double alpha)
{
    double c = 1;
    for (size_t i = 1; i <= m; i++)
        c = c * (double)(n + i) / (double)i;
    return 2.0 / c <= alpha;
}

static void judge(struct ctx *x, struct pb_compare_pair *p,
                  const struct samp *sb, size_t nsb, const struct samp *sc,
                  size_t nsc)
{
    double alpha = x->cmp->alpha;
    p->p = 1;
    p->method = "none";
    p->ci_lo_pct = p->ci_hi_pct = NAN;
    p->change_pct = p->base_mean != 0
                        ? (p->cand_mean / p->base_mean - 1) * 100
                        : NAN;
    if (p->base_n < 2 || p->cand_n < 2) {
        p->why = "single run";
        return;
    }
    if (p->base_se < 0 || p->cand_se < 0) {
        p->why = "no standard error";
        return;
    }
    struct pb_stats_summary b = {p->base_mean, p->base_se,
                                 (double)p->base_n};
    struct pb_stats_summary c = {p->cand_mean, p->cand_se,
                                 (double)p->cand_n};
    struct pb_stats_welch w;
    if (pb_stats_welch(&b, &c, alpha, &w) != 0) {
        p->why = "single run";
        return;
    }
    p->method = "welch";
    p->p = w.p;
    if (!isnan(w.ratio_lo)) {
        p->ci_lo_pct = (w.ratio_lo - 1) * 100;
        p->ci_hi_pct = (w.ratio_hi - 1) * 100;
    }
    if (nsb && nsc && mwu_can_reach(nsb, nsc, alpha)) {
        double *xv = pb_xmalloc((nsb + nsc) * sizeof(double));
        for (size_t i = 0; i < nsb; i++)
            xv[i] = sb[i].value;
        for (size_t i = 0; i < nsc; i++)
            xv[nsb + i] = sc[i].value;
        struct pb_stats_mwu u;
        if (pb_stats_mann_whitney(xv, nsb, xv + nsb, nsc, &u) == 0) {
            p->method = "mann-whitney";
            p->p = u.p;
        }
        free(xv);
    }
    if (!(p->p < alpha) || p->cand_mean == p->base_mean)
        return;
    int up = p->cand_mean > p->base_mean;
    p->verdict = up == p->higher ? PB_CMP_BETTER : PB_CMP_WORSE;
}

/* A summary without a standard error whose repeats are stored: the
 * standard error of those repeats. */
static void fill_se(double *se, const struct samp *s, size_t n)
{
    if (*se >= 0 || n < 2)
        return;
    double *v = pb_xmalloc(n * sizeof(*v));
    for (size_t i = 0; i < n; i++)
        v[i] = s[i].value;
    double mean;
    pb_stats_mean_se(v, n, &mean, se);
    free(v);
}

static void add_pair(struct ctx *x, struct ent *eb, struct ent *ec)
{
    struct pb_compare *cmp = x->cmp;
    const struct rp_data *db = &cmp->priv->d[0], *dc = &cmp->priv->d[1];
    const struct rp_cell *cb = &db->cells[eb->cell], *cc = &dc->cells[ec->cell];
    const struct rp_metric *m = &db->metrics[cb->metric];
    eb->paired = ec->paired = 1;
    PB_GROW(cmp->pairs, x->cap, cmp->npairs + 1);
    struct pb_compare_pair *p = &cmp->pairs[cmp->npairs++];
    memset(p, 0, sizeof(*p));
    p->test = db->tests[cb->test].name;
    p->metric = m->name;
    p->unit = m->unit;
    char title[96];
    if (!cmp->priv->titles[cb->metric])
        rp_metric_title(m->name, title, sizeof(title));
    const char **tt = &cmp->priv->titles[cb->metric];
    if (!*tt)
        *tt = pb_arena_strdup(&cmp->priv->arena, title);
    p->metric_title = *tt;
    p->metric_ix = cb->metric;
    p->higher = m->dir > 0;
    p->base_config = db->configs[cb->config].label;
    p->cand_config = dc->configs[cc->config].label;
    p->base_mean = cb->mean;
    p->base_se = cb->se;
    p->base_n = cb->n;
    p->cand_mean = cc->mean;
    p->cand_se = cc->se;
    p->cand_n = cc->n;
    size_t nsb, nsc;
    const struct samp *sb = cell_samples(&x->samps[0], db, cb, &nsb);
    const struct samp *sc = cell_samples(&x->samps[1], dc, cc, &nsc);
    fill_se(&p->base_se, sb, nsb);
    fill_se(&p->cand_se, sc, nsc);
    judge(x, p, sb, nsb, sc, nsc);
    if (p->verdict == PB_CMP_BETTER)
        cmp->better++;
    else if (p->verdict == PB_CMP_WORSE)
        cmp->worse++;
    else
        cmp->same++;
    double worse_by = p->higher ? -p->change_pct : p->change_pct;
    if (p->verdict == PB_CMP_WORSE && cmp->fail_worse >= 0 &&
        worse_by > cmp->fail_worse) {
        int match = 1;
        if (x->gate_re) {
            pcre2_match_data *md =
                pcre2_match_data_create_from_pattern(x->gate_re, NULL);
            match = pcre2_match(x->gate_re, (PCRE2_SPTR)p->metric,
                                PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0;
            pcre2_match_data_free(md);
        }
        if (match) {
            p->offender = 1;
            cmp->offenders++;
        }
    }
}

/* Pair the entries of one (test, metric): e[0..n) sorted by label, side. */
static void pair_group(struct ctx *x, struct ent *e, size_t n)
{
    const struct pb_compare_priv *pv = x->cmp->priv;
    size_t nb = 0, nc = 0;
    for (size_t i = 0; i < n; i++)
        *(e[i].side ? &nc : &nb) += 1;
    if (!nb || !nc)
        return;
    if (nb == 1 && nc == 1) {
        struct ent *b = e[0].side ? &e[1] : &e[0];
        struct ent *c = e[0].side ? &e[0] : &e[1];
        add_pair(x, b, c);
        return;
    }
    /* 1. the same label, when it names one configuration on each side */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(ent_label(pv, &e[j]), ent_label(pv, &e[i])))
            j++;
        if (j - i == 2 && e[i].side == 0 && e[i + 1].side == 1)
            add_pair(x, &e[i], &e[i + 1]);
        i = j;
    }
    /* 2. the same dimensions, when they name one configuration on each
     * side among those left */
    for (size_t i = 0; i < n; i++) {
        if (e[i].paired || e[i].side)
            continue;
        const char *di = ent_dims(x->cmp, &e[i]);
        if (!*di)
            continue;
        struct ent *match = NULL;
        int unique = 1;
        for (size_t j = 0; j < n && unique; j++) {
            if (j == i || e[j].paired || strcmp(ent_dims(x->cmp, &e[j]), di))
                continue;
            if (e[j].side == 0 || match)
                unique = 0;
            else
                match = &e[j];
        }
        if (unique && match)
            add_pair(x, &e[i], match);
    }
}

static int pair_cmp(const void *pa, const void *pb)
{
    const struct pb_compare_pair *a = pa, *b = pb;
    /* names of one side are shared strings: equal pointers, equal names */
    int c = a->test == b->test ? 0 : rp_natcmp(a->test, b->test);
    if (!c && a->metric != b->metric)
        c = strcmp(a->metric, b->metric);
    if (!c && a->base_config != b->base_config)
        c = rp_natcmp(a->base_config, b->base_config);
    return c;
}

/* ==== the comparison ==== */

static void add_entries(struct pb_compare *cmp, int side, struct ent **e,
                        size_t *n, size_t *cap)
{
    const struct rp_data *d = &cmp->priv->d[side];
    for (size_t i = 0; i < d->ncells; i++) {
        const struct rp_cell *c = &d->cells[i];
        if (!c->has_value || !isfinite(c->mean))
            continue;
        PB_GROW(*e, *cap, *n + 1);
        struct ent *x = &(*e)[(*n)++];
        memset(x, 0, sizeof(*x));
        x->side = (uint8_t)side;
        x->cell = (uint32_t)i;
        if (side)
            cmp->ncand_cells++;
        else
            cmp->nbase_cells++;
    }
}

static void summarise(struct pb_compare *cmp)
{
    double sr = 0, sb = 0;
    size_t k = 0;
    for (size_t i = 0; i < cmp->npairs; i++) {
        const struct pb_compare_pair *p = &cmp->pairs[i];
        if (!(p->base_mean > 0) || !(p->cand_mean > 0))
            continue;
        double r = log(p->cand_mean / p->base_mean);
        sr += r;
        sb += p->higher ? r : -r;
        k++;
    }
    cmp->geomean_ratio = k ? exp(sr / (double)k) : NAN;
    cmp->geomean_better = k ? exp(sb / (double)k) : NAN;
}

int pb_compare_run(const struct pb_compare_side *base,
                   const struct pb_compare_side *cand,
                   const struct pb_compare_opts *opts,
                   struct pb_compare **out, struct pb_err *err)
{
    *out = NULL;
    struct pb_compare *cmp = pb_xcalloc(1, sizeof(*cmp));
    cmp->priv = pb_xcalloc(1, sizeof(*cmp->priv));
    pb_arena_init(&cmp->priv->arena);
    cmp->alpha = opts->alpha > 0 && opts->alpha < 1 ? opts->alpha : 0.05;
    cmp->fail_worse = opts->fail_worse >= 0 ? opts->fail_worse : -1;
    cmp->base_name = pb_arena_strdup(&cmp->priv->arena, base->name);
    cmp->cand_name = pb_arena_strdup(&cmp->priv->arena, cand->name);
    struct ctx x;
    memset(&x, 0, sizeof(x));
    x.cmp = cmp;
    x.opts = opts;
    int rc = PB_OK;
    const struct pb_compare_side *sides[2] = {base, cand};
    for (int s = 0; s < 2 && !rc; s++) {
        rc = rp_data_load_ignoring(sides[s]->db, &sides[s]->filter,
                                   opts->ignore_params, &cmp->priv->d[s],
                                   err);
        struct rp_data *d = &cmp->priv->d[s];
        if (!rc && d->ncells < d->capcells) {
            /* two sides held at once: no growth slack */
            d->cells = pb_xrealloc(d->cells,
                                   (d->ncells + 1) * sizeof(*d->cells));
            d->capcells = d->ncells + 1;
        }
    }
    /* Samples serve the Mann-Whitney test only, which needs a cell of
     * each side with enough repeats to reach alpha at all (3 against 3
     * never does): otherwise they are not read (time and memory of
     * every repeat of both databases). */
    size_t maxn[2] = {0, 0};
    for (int s = 0; s < 2 && !rc; s++)
        for (size_t i = 0; i < cmp->priv->d[s].ncells; i++) {
            const struct rp_cell *c = &cmp->priv->d[s].cells[i];
            if (c->nresults == 1 && c->n > 0 && (size_t)c->n > maxn[s])
                maxn[s] = (size_t)c->n;
        }
    if (!rc && maxn[0] >= 2 && maxn[1] >= 2 &&
        mwu_can_reach(maxn[0], maxn[1], cmp->alpha))
        for (int s = 0; s < 2 && !rc; s++)
            rc = pb_db_each_sample(sides[s]->db, on_sample, &x.samps[s], err);
    if (!rc && opts->fail_metric_re) {
        int ec;
        PCRE2_SIZE eo;
        x.gate_re = pcre2_compile((PCRE2_SPTR)opts->fail_metric_re,
                                  PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
                                  &ec, &eo, NULL);
        if (!x.gate_re) {
            PCRE2_UCHAR emsg[160];
            pcre2_get_error_message(ec, emsg, sizeof(emsg));
            rc = pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                            "bad pattern '%s' at offset %zu: %s",
                            opts->fail_metric_re, (size_t)eo,
                            (const char *)emsg);
        }
    }
    if (rc) {
        for (int s = 0; s < 2; s++)
            free(x.samps[s].v);
        pb_compare_free(cmp);
        return rc;
    }
    cmp->priv->titles = pb_xcalloc(cmp->priv->d[0].nmetrics + 1,
                                   sizeof(*cmp->priv->titles));
    struct ent *e = NULL;
    size_t n = 0, cap = 0;
    add_entries(cmp, 0, &e, &n, &cap);
    add_entries(cmp, 1, &e, &n, &cap);
    ent_priv = cmp->priv;
    qsort(e, n, sizeof(*e), ent_cmp);
    ent_priv = NULL;
    /* at most one pair per base entry: allocated once, exactly */
    x.cap = cmp->nbase_cells < cmp->ncand_cells ? cmp->nbase_cells
                                                : cmp->ncand_cells;
    cmp->pairs = pb_xcalloc(x.cap + 1, sizeof(*cmp->pairs));
    const struct pb_compare_priv *pv = cmp->priv;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(ent_test(pv, &e[j]), ent_test(pv, &e[i])) &&
               !strcmp(ent_metric(pv, &e[j]), ent_metric(pv, &e[i])))
            j++;
        pair_group(&x, e + i, j - i);
        i = j;
    }
    size_t ucap = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].paired)
            continue;
        PB_GROW(cmp->unpaired, ucap, cmp->nunpaired + 1);
        cmp->unpaired[cmp->nunpaired++] = (struct pb_compare_unpaired){
            e[i].side, ent_test(pv, &e[i]), ent_metric(pv, &e[i]),
            ent_label(pv, &e[i])};
    }
    free(e);
    if (cmp->npairs) {
        /* the pairs hold what they need: the cells can go (half the
         * memory of a large comparison) */
        for (int s = 0; s < 2; s++) {
            free(cmp->priv->d[s].cells);
            cmp->priv->d[s].cells = NULL;
            cmp->priv->d[s].ncells = 0;
        }
    }
    if (cmp->npairs)
        qsort(cmp->pairs, cmp->npairs, sizeof(*cmp->pairs), pair_cmp);
    summarise(cmp);
    cmp->single_config = 1;
    for (size_t i = 1; i < cmp->npairs && cmp->single_config; i++)
        cmp->single_config =
            !strcmp(cmp->pairs[i].base_config, cmp->pairs[0].base_config) &&
            !strcmp(cmp->pairs[i].cand_config, cmp->pairs[0].cand_config);
    for (int s = 0; s < 2; s++)
        free(x.samps[s].v);
    pcre2_code_free(x.gate_re);
    *out = cmp;
    return PB_OK;
}

void pb_compare_free(struct pb_compare *c)
{
    if (!c)
        return;
    if (c->priv) {
        rp_data_release(&c->priv->d[0]);
        rp_data_release(&c->priv->d[1]);
        pb_arena_release(&c->priv->arena);
        free(c->priv->titles);
        free(c->priv);
    }
    free(c->pairs);
    free(c->unpaired);
    free(c);
}

int pb_compare_each_test(const struct pb_compare *c, int cand,
                         int (*cb)(void *ctx, const char *test), void *ctx)
{
    const struct rp_data *d = &c->priv->d[cand ? 1 : 0];
    const char *last = NULL;
    for (size_t i = 0; i < d->ncells; i++) {
        const char *t = d->tests[d->cells[i].test].name;
        if (last && !strcmp(last, t))
            continue;
        last = t;
        int rc = cb(ctx, t);
        if (rc)
            return rc;
    }
    return 0;
}

const char *pb_compare_value_text(const struct pb_compare *c,
                                  const struct pb_compare_pair *p, int cand,
                                  char *buf, size_t n)
{
    const struct rp_metric *m = &c->priv->d[0].metrics[p->metric_ix];
    return rp_fmt_pm(&m->u, cand ? p->cand_mean : p->base_mean,
                     cand ? p->cand_se : p->base_se, buf, n);
}
