/* compare: two sides read as the report reads them (repeats aggregated),
 * paired by test and metric (and configuration), each pair judged
 * (rp_judge_cells: Welch from summaries, Mann-Whitney on stored samples,
 * each with its own interval; not judged with a single run), gated, and
 * summarised per kind of metric. docs/statistics.md, "Compare: pairing
 * and statistics". */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analysis/compare.h"

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

/* ==== entries: valued cells of both sides ==== */

struct ent {
    uint32_t cell;
    uint8_t side, paired;
    const char *dims; /* "k=v,k=v", made when needed */
};

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

/* ctx: the sides' data (struct pb_compare_priv) */
static int ent_cmp(const void *pa, const void *pb, void *ctx)
{
    const struct ent *a = pa, *b = pb;
    const struct pb_compare_priv *pv = ctx;
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
    struct pb_an_samps samps[2];
    pcre2_code *gate_re;
    size_t cap;
    unsigned char gated[PB_NKINDS], offended[PB_NKINDS];
};

/* Judge p from its two cells: the test, its estimate and interval in %,
 * the verdict by the metric's direction. */
static void judge(struct ctx *x, struct pb_compare_pair *p,
                  const struct rp_cell *cb, const struct rp_cell *cc)
{
    const struct rp_data *db = &x->cmp->priv->d[0], *dc = &x->cmp->priv->d[1];
    struct pb_stats_judgement j;
    rp_judge_cells(x->cmp->alpha, db, cb, &x->samps[0], dc, cc,
                   &x->samps[1], &j, &p->base_se, &p->cand_se);
    p->change_pct = p->base_mean != 0
                        ? (p->cand_mean / p->base_mean - 1) * 100
                        : NAN;
    p->method = j.method;
    p->why = j.why;
    p->p = j.p;
    p->estimate_pct = (j.est - 1) * 100;
    p->ci_lo_pct = (j.lo - 1) * 100;
    p->ci_hi_pct = (j.hi - 1) * 100;
    p->ci_unbounded = j.unbounded;
    if (j.why)
        p->verdict = PB_CMP_UNJUDGED;
    else if (j.sign)
        p->verdict = (j.sign > 0) == p->higher ? PB_CMP_BETTER : PB_CMP_WORSE;
    else
        p->verdict = PB_CMP_SAME;
}

static int gate_matches(const struct ctx *x, const char *metric)
{
    if (!x->gate_re)
        return 1;
    pcre2_match_data *md =
        pcre2_match_data_create_from_pattern(x->gate_re, NULL);
    int match = pcre2_match(x->gate_re, (PCRE2_SPTR)metric,
                            PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0;
    pcre2_match_data_free(md);
    return match;
}

/* The gate: a worse verdict (or, with --gate-unjudged, a pair not
 * judged) whose estimate is worse than --fail-worse, of a gated metric. */
static void gate(struct ctx *x, struct pb_compare_pair *p)
{
    struct pb_compare *cmp = x->cmp;
    if (cmp->fail_worse < 0 || !gate_matches(x, p->metric))
        return;
    x->gated[p->kind] = 1;
    double worse_by = p->higher ? -p->estimate_pct : p->estimate_pct;
    int judged_worse = p->verdict == PB_CMP_WORSE;
    int unjudged = p->verdict == PB_CMP_UNJUDGED && cmp->gate_unjudged;
    if ((judged_worse || unjudged) && worse_by > cmp->fail_worse) {
        p->offender = 1;
        cmp->offenders++;
        x->offended[p->kind] = 1;
    }
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
    p->u = &m->u;
    p->higher = m->dir > 0;
    p->base_config = db->configs[cb->config].label;
    p->cand_config = dc->configs[cc->config].label;
    p->base_mean = cb->mean;
    p->base_se = cb->se;
    p->base_n = cb->n;
    p->cand_mean = cc->mean;
    p->cand_se = cc->se;
    p->cand_n = cc->n;
    p->kind = rp_metric_kind(m->name, m->unit);
    judge(x, p, cb, cc);
    struct pb_compare_kind *k = &cmp->kinds[p->kind];
    k->n++;
    switch (p->verdict) {
    case PB_CMP_BETTER:
        cmp->better++;
        k->better++;
        break;
    case PB_CMP_WORSE:
        cmp->worse++;
        k->worse++;
        break;
    case PB_CMP_UNJUDGED:
        cmp->not_judged++;
        k->not_judged++;
        break;
    case PB_CMP_SAME:
        cmp->same++;
        break;
    }
    gate(x, p);
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

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Metrics left out by default, each named once (sorted). */
static void left_out(struct pb_compare *cmp, const char *metric, size_t *cap)
{
    for (size_t i = 0; i < cmp->nleft_out; i++)
        if (!strcmp(cmp->left_out[i], metric))
            return;
    PB_GROW(cmp->left_out, *cap, cmp->nleft_out + 1);
    cmp->left_out[cmp->nleft_out++] = metric;
}

static void add_entries(struct pb_compare *cmp, int side, int every_metric,
                        struct ent **e, size_t *n, size_t *cap,
                        size_t *left_cap)
{
    const struct rp_data *d = &cmp->priv->d[side];
    for (size_t i = 0; i < d->ncells; i++) {
        const struct rp_cell *c = &d->cells[i];
        if (!c->has_value || !isfinite(c->mean))
            continue;
        const char *metric = d->metrics[c->metric].name;
        if (!every_metric && !rp_metric_read(metric)) {
            left_out(cmp, metric, left_cap);
            continue;
        }
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

/* Per kind of metric: the geometric mean of the significant changes,
 * oriented so > 1 is better; and the kind the summary leads with: that of
 * the gate's offenders, else of the gated pairs, else of any pair, first
 * in the order throughput, latency, cpu, other. */
static void summarise(struct pb_compare *cmp, const struct ctx *x)
{
    double sum[PB_NKINDS] = {0}, raw[PB_NKINDS] = {0};
    size_t used[PB_NKINDS] = {0}, higher[PB_NKINDS] = {0};
    for (size_t i = 0; i < cmp->npairs; i++) {
        const struct pb_compare_pair *p = &cmp->pairs[i];
        if (p->verdict != PB_CMP_BETTER && p->verdict != PB_CMP_WORSE)
            continue;
        double r = 1 + p->estimate_pct / 100;
        if (!(r > 0) || !isfinite(r))
            continue;
        sum[p->kind] += p->higher ? log(r) : -log(r);
        raw[p->kind] += log(r);
        higher[p->kind] += p->higher != 0;
        used[p->kind]++;
    }
    int any_off = 0, any_gated = 0;
    for (int k = 0; k < PB_NKINDS; k++) {
        struct pb_compare_kind *pk = &cmp->kinds[k];
        pk->significant = pk->better + pk->worse;
        pk->geomean_better = used[k] ? exp(sum[k] / (double)used[k]) : NAN;
        pk->geomean_ratio = used[k] ? exp(raw[k] / (double)used[k]) : NAN;
        pk->mixed = higher[k] && higher[k] < used[k];
        any_off |= x->offended[k];
        any_gated |= x->gated[k];
    }
    cmp->headline = PB_KIND_THROUGHPUT;
    for (int k = PB_NKINDS - 1; k >= 0; k--) {
        int lead = any_off     ? x->offended[k]
                   : any_gated ? x->gated[k]
                               : cmp->kinds[k].n > 0;
        if (lead)
            cmp->headline = (enum pb_metric_kind)k;
    }
}

/* Load both sides into cmp->priv->d (no growth slack: two sides held at
 * once), the stored samples when the Mann-Whitney test can reach alpha,
 * and compile the gate's pattern. PB_OK, PB_EUSAGE, PB_EDB. */
static int sides_load(struct ctx *x, const struct pb_compare_side *base,
                      const struct pb_compare_side *cand,
                      const struct pb_compare_opts *opts, struct pb_err *err)
{
    struct pb_compare *cmp = x->cmp;
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
        pb_stats_mwu_can_reach(maxn[0], maxn[1], cmp->alpha))
        for (int s = 0; s < 2 && !rc; s++)
            rc = pb_an_samps_load(sides[s]->db, NULL, NULL, &x->samps[s], err);
    if (!rc && opts->fail_metric_re) {
        int ec;
        PCRE2_SIZE eo;
        x->gate_re = pcre2_compile((PCRE2_SPTR)opts->fail_metric_re,
                                   PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF | PCRE2_UCP, &ec, &eo, NULL);
        if (!x->gate_re) {
            PCRE2_UCHAR emsg[160];
            pcre2_get_error_message(ec, emsg, sizeof(emsg));
            rc = pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                            "bad pattern '%s' at offset %zu: %s",
                            opts->fail_metric_re, (size_t)eo,
                            (const char *)emsg);
        }
    }
    return rc;
}

/* Pair the valued cells of both sides by (test, metric), judge and gate
 * every pair, list the unpaired; then free the cells (the pairs hold
 * what they need) and sort the pairs. */
static void pair_all(struct ctx *x, int every_metric)
{
    struct pb_compare *cmp = x->cmp;
    struct ent *e = NULL;
    size_t n = 0, cap = 0, left_cap = 0;
    add_entries(cmp, 0, every_metric, &e, &n, &cap, &left_cap);
    add_entries(cmp, 1, every_metric, &e, &n, &cap, &left_cap);
    if (cmp->nleft_out)
        qsort(cmp->left_out, cmp->nleft_out, sizeof(*cmp->left_out),
              cmp_str);
    rp_sort(e, n, sizeof(*e), ent_cmp, cmp->priv);
    /* at most one pair per base entry: allocated once, exactly */
    x->cap = cmp->nbase_cells < cmp->ncand_cells ? cmp->nbase_cells
                                                 : cmp->ncand_cells;
    cmp->pairs = pb_xcalloc(x->cap + 1, sizeof(*cmp->pairs));
    const struct pb_compare_priv *pv = cmp->priv;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(ent_test(pv, &e[j]), ent_test(pv, &e[i])) &&
               !strcmp(ent_metric(pv, &e[j]), ent_metric(pv, &e[i])))
            j++;
        pair_group(x, e + i, j - i);
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
    cmp->gate_unjudged = opts->gate_unjudged;
    cmp->base_name = pb_arena_strdup(&cmp->priv->arena, base->name);
    cmp->cand_name = pb_arena_strdup(&cmp->priv->arena, cand->name);
    struct ctx x;
    memset(&x, 0, sizeof(x));
    x.cmp = cmp;
    x.opts = opts;
    int rc = sides_load(&x, base, cand, opts, err);
    if (rc) {
        for (int s = 0; s < 2; s++)
            pb_an_samps_release(&x.samps[s]);
        pcre2_code_free(x.gate_re);
        pb_compare_free(cmp);
        return rc;
    }
    cmp->priv->titles = pb_xcalloc(cmp->priv->d[0].nmetrics + 1,
                                   sizeof(*cmp->priv->titles));
    pair_all(&x, opts->every_metric);
    summarise(cmp, &x);
    cmp->single_config = 1;
    for (size_t i = 1; i < cmp->npairs && cmp->single_config; i++)
        cmp->single_config =
            !strcmp(cmp->pairs[i].base_config, cmp->pairs[0].base_config) &&
            !strcmp(cmp->pairs[i].cand_config, cmp->pairs[0].cand_config);
    for (int s = 0; s < 2; s++)
        pb_an_samps_release(&x.samps[s]);
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
    free(c->left_out);
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
