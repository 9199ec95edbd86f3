/* What the report concludes: which metrics get charts, the best config of
 * each test and its margin, and a geometric-mean ranking over shared
 * tests. Sweeps (the dimensions results vary along) are in render/sweeps.c. */
#include "analysis/data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== which metrics matter ==== */

static int in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), m = strlen(suffix);
    return l >= m && !strcmp(s + l - m, suffix);
}

/* "read"/"write"/"trim" prefix of a fio metric: its length, else 0. */
static size_t fio_dir_len(const char *m)
{
    static const char *const dirs[] = {"read_", "write_", "trim_"};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(dirs[i]);
        if (!strncmp(m, dirs[i], l))
            return l - 1;
    }
    return 0;
}

int rp_metric_headline(const char *m)
{
    static const char *const yes[] = {"seq_out_block_bw",
                                      "seq_rewrite_bw",
                                      "seq_in_block_bw",
                                      "random_seeks",
                                      "random_read_bw",
                                      "random_write_bw",
                                      NULL};
    static const char *const no[] = {
        "usr_cpu",        "sys_cpu",           "seq_out_char_bw",
        "seq_in_char_bw", "seq_create",        "seq_stat",
        "seq_delete",     "rand_create",       "rand_stat",
        "rand_delete",    "rewrite_bw",        "reread_bw",
        "bkwd_read_bw",   "record_rewrite_bw", "stride_read_bw",
        "fwrite_bw",      "frewrite_bw",       "fread_bw",
        "freread_bw",     "compressratio",     "used",
        "logicalused",    "referenced",        "logicalreferenced",
        "actual_savings", "available",         NULL};
    if (in_list(m, yes))
        return 1;
    if (in_list(m, no))
        return 0;
    size_t dl = fio_dir_len(m);
    if (dl)
        return !strcmp(m + dl, "_bw") || !strcmp(m + dl, "_iops");
    if (ends_with(m, "_cpu") || ends_with(m, "_latency"))
        return 0;
    return 1;
}

void rp_mark_groups(struct rp_data *d)
{
    for (size_t i = 0; i < d->ngroups;) {
        size_t j = i;
        while (j < d->ngroups && d->groups[j].test == d->groups[i].test)
            j++;
        const struct rp_test *t = &d->tests[d->groups[i].test];
        const char *rw = rp_param(t->params, t->nparams, "rw");
        int random = rw && strstr(rw, "rand");
        /* zfs/zpool output is the state of a pool, not a benchmark */
        int state = !strcmp(t->tool, "zfs") || !strcmp(t->tool, "zpool");
        for (size_t k = i; k < j; k++) {
            struct rp_group *g = &d->groups[k];
            const struct rp_metric *m = &d->metrics[g->metric];
            g->chart = !state && (d->metric_filtered || m->headline);
            g->primary = g->chart;
            size_t dl = fio_dir_len(m->name);
            if (d->metric_filtered || !dl || !g->chart)
                continue;
            /* fio bw and IOPS of one direction rank alike: the primary is
             * IOPS for random workloads, bandwidth otherwise. */
            int is_iops = !strcmp(m->name + dl, "_iops");
            if (is_iops == random)
                continue;
            char other[64];
            snprintf(other, sizeof(other), "%.*s%s", (int)dl, m->name,
                     is_iops ? "_bw" : "_iops");
            for (size_t o = i; o < j; o++)
                if (!strcmp(d->metrics[d->groups[o].metric].name, other) &&
                    d->groups[o].nvalued)
                    g->primary = 0;
        }
        i = j;
    }
}

/* ==== best of a group ==== */

/* Is a better than b in direction dir? */
static int better(double a, double b, int dir)
{
    return dir < 0 ? a < b : a > b;
}

void rp_best_of(const struct rp_data *d, const struct rp_group *g,
                const struct pb_an_samps *ss, struct rp_best *out)
{
    int dir = d->metrics[g->metric].dir;
    out->best = out->runner = SIZE_MAX;
    out->margin = 0;
    out->verdict = RP_V_ONLY;
    out->p = 1;
    out->method = "none";
    out->why = NULL;
    for (size_t i = g->first; i < g->first + g->n; i++) {
        const struct rp_cell *c = &d->cells[i];
        if (!c->has_value)
            continue;
        if (out->best == SIZE_MAX ||
            better(c->mean, d->cells[out->best].mean, dir)) {
            out->runner = out->best;
            out->best = i;
        } else if (out->runner == SIZE_MAX ||
                   better(c->mean, d->cells[out->runner].mean, dir)) {
            out->runner = i;
        }
    }
    if (out->runner == SIZE_MAX)
        return;
    const struct rp_cell *b = &d->cells[out->best], *r = &d->cells[out->runner];
    if (dir < 0)
        out->margin = b->mean > 0 ? r->mean / b->mean - 1 : 0;
    else
        out->margin = r->mean > 0 ? b->mean / r->mean - 1 : 0;
    if (b->mean == r->mean) {
        out->verdict = RP_V_TIE;
        return;
    }
    /* the best as the candidate against the runner-up */
    struct pb_stats_judgement j;
    rp_judge_cells(0.05, d, r, ss, d, b, ss, &j, NULL, NULL);
    out->p = j.p;
    out->method = j.method;
    out->why = j.why;
    if (j.why)
        out->verdict = RP_V_UNJUDGED;
    else if (!j.sign)
        out->verdict = RP_V_OVERLAP;
    else
        out->verdict = (j.sign > 0) == (dir > 0) ? RP_V_CLEAR : RP_V_SPLIT;
}

int rp_best_each(const struct rp_data *d, const struct pb_an_samps *ss,
                 int (*cb)(void *ctx, const struct rp_group *g,
                           const struct rp_best *b),
                 void *ctx, size_t *nsingle)
{
    size_t single = 0;
    int rc = 0;
    for (size_t gi = 0; gi < d->ngroups && !rc; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!g->primary || !g->nvalued)
            continue;
        if (g->nvalued < 2) {
            single++;
            continue;
        }
        struct rp_best b;
        rp_best_of(d, g, ss, &b);
        rc = cb(ctx, g, &b);
    }
    if (nsingle)
        *nsingle = single;
    return rc;
}

struct ord_ctx {
    const struct rp_data *d;
    int dir;
};

static int cmp_order(const void *a, const void *b, void *ctx)
{
    const struct ord_ctx *o = ctx;
    const struct rp_data *ord_d = o->d;
    const struct rp_cell *x = &ord_d->cells[*(const size_t *)a];
    const struct rp_cell *y = &ord_d->cells[*(const size_t *)b];
    if (x->has_value != y->has_value)
        return x->has_value ? -1 : 1;
    if (x->has_value && x->mean != y->mean)
        return better(x->mean, y->mean, o->dir) ? -1 : 1;
    size_t rx = ord_d->configs[x->config].rank,
           ry = ord_d->configs[y->config].rank;
    return rx < ry ? -1 : rx > ry;
}

void rp_order_cells(const struct rp_data *d, const struct rp_group *g,
                    size_t *out)
{
    for (size_t i = 0; i < g->n; i++)
        out[i] = g->first + i;
    struct ord_ctx o = {d, d->metrics[g->metric].dir};
    rp_sort(out, g->n, sizeof(*out), cmp_order, &o);
}

/* ==== geometric-mean ranking ==== */

struct series {
    size_t group;
    size_t *ranks; /* config ranks with a value, ascending */
    size_t n;
};

static int cmp_series(const void *a, const void *b)
{
    const struct series *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return x->group < y->group ? -1 : x->group > y->group;
}

static int cmp_rank(const void *a, const void *b)
{
    const struct rp_rank *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->config < y->config ? -1 : x->config > y->config;
}

/* Intersect sorted a (in place) with sorted b; returns the new length. */
static size_t intersect(size_t *a, size_t na, const size_t *b, size_t nb)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j])
            i++;
        else if (a[i] > b[j])
            j++;
        else {
            a[k++] = a[i];
            i++;
            j++;
        }
    }
    return k;
}

/* The series a ranking may use into s (d->ngroups + 1 of them): primary
 * groups with two valued cells, all positive, each with the ranks of its
 * valued configurations. *nseen gets how many configurations they hold.
 * Returns their number. */
static size_t rank_series(const struct rp_data *d, struct series *s,
                          size_t *nseen)
{
    size_t ns = 0;
    unsigned char *seen = pb_xcalloc(d->used_configs + 1, 1);
    *nseen = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!g->primary || g->nvalued < 2)
            continue;
        int ok = 1;
        for (size_t i = g->first; i < g->first + g->n && ok; i++)
            if (d->cells[i].has_value && !(d->cells[i].mean > 0))
                ok = 0;
        if (!ok)
            continue;
        s[ns].group = gi;
        s[ns].ranks = pb_xcalloc(g->nvalued, sizeof(size_t));
        for (size_t i = g->first; i < g->first + g->n; i++)
            if (d->cells[i].has_value) {
                size_t r = d->configs[d->cells[i].config].rank;
                s[ns].ranks[s[ns].n++] = r;
                if (!seen[r]) {
                    seen[r] = 1;
                    (*nseen)++;
                }
            }
        ns++;
    }
    free(seen);
    return ns;
}

/* The configurations ranked (their ranks in *nbest of the array
 * returned, which the caller frees): of the series s[0..ns) sorted most
 * configurations first, the prefix whose shared configurations cover the
 * most cells wins. */
static size_t *rank_choose(const struct series *s, size_t ns, size_t *nbest_out)
{
    size_t *cur = pb_xcalloc(s[0].n, sizeof(size_t));
    size_t *best = pb_xcalloc(s[0].n, sizeof(size_t));
    memcpy(cur, s[0].ranks, s[0].n * sizeof(size_t));
    size_t ncur = s[0].n, nbest = 0, best_cover = 0;
    for (size_t k = 0; k < ns && ncur >= 2; k++) {
        if (k)
            ncur = intersect(cur, ncur, s[k].ranks, s[k].n);
        if (ncur >= 2 && (k + 1) * ncur > best_cover) {
            best_cover = (k + 1) * ncur;
            memcpy(best, cur, ncur * sizeof(size_t));
            nbest = ncur;
        }
    }
    free(cur);
    *nbest_out = nbest;
    return best;
}

void rp_rank_configs(const struct rp_data *d, struct rp_ranking *out)
{
    memset(out, 0, sizeof(*out));
    struct series *s = pb_xcalloc(d->ngroups + 1, sizeof(*s));
    size_t nseen;
    size_t ns = rank_series(d, s, &nseen), nbest = 0;
    if (ns == 0)
        goto out;
    qsort(s, ns, sizeof(*s), cmp_series);
    size_t *best = rank_choose(s, ns, &nbest);
    if (nbest < 2) {
        free(best);
        goto out;
    }
    /* Every series holding all chosen configs counts. */
    size_t *slot = pb_xcalloc(d->used_configs + 1, sizeof(size_t));
    for (size_t i = 0; i < d->used_configs; i++)
        slot[i] = SIZE_MAX;
    for (size_t i = 0; i < nbest; i++)
        slot[best[i]] = i;
    /* config index by rank */
    size_t *byrank = pb_xcalloc(d->used_configs + 1, sizeof(size_t));
    for (size_t i = 0; i < d->nconfigs; i++)
        if (d->configs[i].used)
            byrank[d->configs[i].rank] = i;
    double *logsum = pb_xcalloc(nbest, sizeof(double));
    size_t *wins = pb_xcalloc(nbest, sizeof(size_t));
    double *val = pb_xcalloc(nbest, sizeof(double));
    out->groups = pb_xcalloc(ns, sizeof(size_t));
    for (size_t k = 0; k < ns; k++) {
        size_t have = 0;
        for (size_t i = 0; i < s[k].n; i++)
            have += slot[s[k].ranks[i]] != SIZE_MAX;
        if (have != nbest)
            continue;
        const struct rp_group *g = &d->groups[s[k].group];
        int dir = d->metrics[g->metric].dir;
        size_t bi = SIZE_MAX;
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct rp_cell *c = &d->cells[i];
            if (!c->has_value)
                continue;
            size_t sl = slot[d->configs[c->config].rank];
            if (sl == SIZE_MAX)
                continue;
            val[sl] = c->mean;
            if (bi == SIZE_MAX || better(c->mean, val[bi], dir))
                bi = sl;
        }
        for (size_t i = 0; i < nbest; i++)
            logsum[i] += log(dir < 0 ? val[bi] / val[i] : val[i] / val[bi]);
        for (size_t i = 0; i < nbest; i++)
            wins[i] += val[i] == val[bi]; /* ties: every one wins */
        out->groups[out->ngroups++] = s[k].group;
    }
    /* keep the groups in report order */
    for (size_t i = 1; i < out->ngroups; i++)
        for (size_t j = i; j > 0 && out->groups[j - 1] > out->groups[j]; j--) {
            size_t t = out->groups[j];
            out->groups[j] = out->groups[j - 1];
            out->groups[j - 1] = t;
        }
    out->e = pb_xcalloc(nbest, sizeof(*out->e));
    out->n = nbest;
    for (size_t i = 0; i < nbest; i++) {
        out->e[i].config = byrank[best[i]];
        out->e[i].score = exp(logsum[i] / (double)out->ngroups);
        out->e[i].wins = wins[i];
    }
    qsort(out->e, out->n, sizeof(*out->e), cmp_rank);
    /* normalise: the top config scores 1 */
    double top = out->e[0].score;
    for (size_t i = 0; i < out->n && top > 0; i++)
        out->e[i].score /= top;
    out->unranked = nseen - nbest;
    free(logsum);
    free(wins);
    free(val);
    free(slot);
    free(byrank);
    free(best);
out:
    for (size_t k = 0; k < ns; k++)
        free(s[k].ranks);
    free(s);
}

void rp_ranking_release(struct rp_ranking *r)
{
    free(r->e);
    free(r->groups);
    memset(r, 0, sizeof(*r));
}

/* ==== the repeats of best and runner-up cells ==== */

struct skeys {
    struct pb_an_samp *v;
    size_t n, cap;
};

static int want_sample(void *ctx, const struct pb_db_sample *s)
{
    const struct skeys *k = ctx;
    struct pb_an_samp key = {s->source_id, s->test_id, s->metric_id,
                          s->config_id, 0, 0};
    return bsearch(&key, k->v, k->n, sizeof(key), pb_an_samp_cmp) != NULL;
}

static void add_key(struct skeys *k, const struct rp_data *d,
                    const struct rp_cell *c)
{
    PB_GROW(k->v, k->cap, k->n + 1);
    k->v[k->n++] = rp_cell_key(d, c);
}

int rp_best_samples_load(struct pb_db *db, const struct rp_data *d,
                         struct pb_an_samps *out, struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    struct skeys k = {0};
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!g->primary || g->nvalued < 2 || g->first == SIZE_MAX)
            continue;
        struct rp_best b;
        rp_best_of(d, g, NULL, &b);
        if (b.runner == SIZE_MAX)
            continue;
        const struct rp_cell *bc = &d->cells[b.best];
        const struct rp_cell *rc = &d->cells[b.runner];
        /* only cells that are one result each, with enough repeats for
         * the Mann-Whitney test to reach 0.05 at all */
        if (bc->nresults != 1 || rc->nresults != 1 || bc->n < 2 ||
            rc->n < 2 ||
            !pb_stats_mwu_can_reach((size_t)bc->n, (size_t)rc->n, 0.05))
            continue;
        add_key(&k, d, bc);
        add_key(&k, d, rc);
    }
    if (!k.n)
        return PB_OK;
    qsort(k.v, k.n, sizeof(*k.v), pb_an_samp_cmp);
    int rc = pb_an_samps_load(db, want_sample, &k, out, err);
    free(k.v);
    return rc;
}
