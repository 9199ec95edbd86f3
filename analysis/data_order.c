/* The order of the report's model: configurations and tests (natural
 * order), metrics inside a test, cells by test, metric and configuration
 * rank; names made unique where two tests would read the same; the
 * metrics a test shows by default. */
#include "analysis/data.h"
#include "analysis/stream_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== ordering ==== */

static int cmp_config(const void *a, const void *b)
{
    const struct rp_config *x = *(const struct rp_config *const *)a;
    const struct rp_config *y = *(const struct rp_config *const *)b;
    int c = rp_natcmp(x->label, y->label);
    if (c)
        return c;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_test(const void *a, const void *b)
{
    const struct rp_test *x = *(const struct rp_test *const *)a;
    const struct rp_test *y = *(const struct rp_test *const *)b;
    int c = rp_natcmp(x->name, y->name);
    if (!c)
        c = strcmp(x->tool, y->tool);
    if (c)
        return c;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Order of metrics inside a test: throughput first, by direction. */
static int metric_order(const struct rp_metric *m)
{
    static const char *const first[] = {"read_bw",    "read_iops", "write_bw",
                                        "write_iops", "trim_bw",   "trim_iops"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(m->name, first[i]))
            return i;
    return m->headline ? 10 : 20;
}

int rp_tm_cmp(const struct rp_data *d, const int *morder, size_t ta,
              size_t ma, size_t tb, size_t mb)
{
    if (ta != tb) {
        size_t rx = d->tests[ta].rank, ry = d->tests[tb].rank;
        return rx < ry ? -1 : 1;
    }
    if (ma != mb) {
        int ox = morder[ma], oy = morder[mb];
        if (ox != oy)
            return ox < oy ? -1 : 1;
        const struct rp_metric *mx = &d->metrics[ma], *my = &d->metrics[mb];
        int c = strcmp(mx->name, my->name);
        if (!c)
            c = strcmp(mx->unit, my->unit);
        if (c)
            return c;
        return mx->id < my->id ? -1 : 1;
    }
    return 0;
}

/* What cells are sorted against: the data and the metrics' orders; base
 * is the cells themselves when indexes into them are sorted. */
struct cell_ctx {
    const struct rp_data *d;
    const int *morder;
    const struct rp_cell *base;
};

static int cmp_cell(const void *a, const void *b, void *ctx)
{
    const struct rp_cell *x = a, *y = b;
    const struct cell_ctx *s = ctx;
    const struct rp_data *d = s->d;
    int c = rp_tm_cmp(d, s->morder, x->test, x->metric, y->test, y->metric);
    if (c)
        return c;
    size_t rx = d->configs[x->config].rank, ry = d->configs[y->config].rank;
    return rx < ry ? -1 : rx > ry;
}

int *rp_metric_orders(const struct rp_data *d)
{
    int *mo = pb_xcalloc(d->nmetrics + 1, sizeof(*mo));
    for (size_t i = 0; i < d->nmetrics; i++)
        mo[i] = metric_order(&d->metrics[i]);
    return mo;
}

static int cmp_index(const void *a, const void *b, void *ctx)
{
    const struct cell_ctx *s = ctx;
    return cmp_cell(&s->base[*(const uint32_t *)a],
                    &s->base[*(const uint32_t *)b], ctx);
}

/* By their indexes, then moved in place: qsort of the cells themselves
 * takes a second array of them (glibc's merge sort), 53 MB more at 10^7
 * results. The order is total (one cell per test, metric and
 * configuration), so any sort gives the same cells. */
void rp_cells_sort(const struct rp_data *d, const int *morder,
                   struct rp_cell *c, size_t n)
{
    if (n < 2)
        return;
    struct cell_ctx s = {d, morder, c};
    if (n < 1024 || n > UINT32_MAX) {
        rp_sort(c, n, sizeof(*c), cmp_cell, &s);
    } else {
        uint32_t *ix = pb_xcalloc(n, sizeof(*ix));
        for (size_t i = 0; i < n; i++)
            ix[i] = (uint32_t)i;
        rp_sort(ix, n, sizeof(*ix), cmp_index, &s);
        /* c[k] = old c[ix[k]], cycle by cycle; done: ix[k] == k */
        for (size_t i = 0; i < n; i++) {
            if (ix[i] == i)
                continue;
            struct rp_cell tmp = c[i];
            size_t j = i;
            for (;;) {
                size_t k = ix[j];
                ix[j] = (uint32_t)j;
                if (k == i) {
                    c[j] = tmp;
                    break;
                }
                c[j] = c[k];
                j = k;
            }
        }
        free(ix);
    }
}

/* Each configuration's cells and tests (cells in test order). */
static void count_configs(struct rp_data *d)
{
    size_t *lastt = pb_xcalloc(d->nconfigs + 1, sizeof(*lastt));
    for (size_t i = 0; i < d->nconfigs; i++)
        lastt[i] = SIZE_MAX;
    for (size_t i = 0; i < d->ncells; i++) {
        const struct rp_cell *c = &d->cells[i];
        d->configs[c->config].nvals++;
        if (lastt[c->config] != c->test) {
            lastt[c->config] = c->test;
            d->configs[c->config].ntested++;
        }
    }
    free(lastt);
}

/* Tests that share a name (fio runs differing only in size or runtime)
 * get the parameters that tell them apart: "fio randread bs=4k (size=2M)". */
static void disambiguate(struct rp_data *d, struct rp_test **tp, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(tp[j]->name, tp[i]->name))
            j++;
        if (j - i < 2) {
            i = j;
            continue;
        }
        for (size_t k = i; k < j; k++) {
            struct rp_test *t = tp[k];
            struct pb_buf b = PB_BUF_INIT;
            pb_buf_printf(&b, "%s (", t->name);
            int any = 0;
            for (size_t p = 0; p < t->nparams; p++) {
                const struct rp_kv *kv = &t->params[p];
                int differs = 0;
                for (size_t o = i; o < j && !differs; o++) {
                    const char *v =
                        rp_param(tp[o]->params, tp[o]->nparams, kv->key);
                    differs = !v || strcmp(v, kv->value);
                }
                if (!differs)
                    continue;
                char tmp[64];
                pb_buf_printf(
                    &b, "%s%s=%s", any ? ", " : "", kv->key,
                    rp_param_text(kv->key, kv->value, tmp, sizeof(tmp)));
                any = 1;
            }
            int seen_any = 0;
            /* else the parameters the others have and this one lacks */
            for (size_t o = i; !any && o < j; o++)
                for (size_t p = 0; o != k && p < tp[o]->nparams; p++) {
                    const char *key = tp[o]->params[p].key;
                    if (rp_param(t->params, t->nparams, key))
                        continue;
                    int seen = 0; /* named once, by its first holder */
                    for (size_t e = i; e < o && !seen; e++)
                        seen = e != k &&
                               rp_param(tp[e]->params, tp[e]->nparams, key);
                    if (seen)
                        continue;
                    pb_buf_printf(&b, "%sno %s", seen_any ? ", " : "", key);
                    seen_any = 1;
                }
            any |= seen_any;
            /* the same parameters (tests told apart by something poolbench
             * does not show): number them as a user would */
            if (!any)
                pb_buf_printf(&b, "variant %zu of %zu", k - i + 1, j - i);
            pb_buf_putc(&b, ')');
            t->name = pb_arena_strdup(&d->arena, pb_buf_str(&b));
            pb_buf_release(&b);
        }
        i = j;
    }
}

/* By default a fio test shows one throughput metric per direction (IOPS
 * for random workloads, bandwidth otherwise: at a fixed block size the
 * other says the same) beside its mean and p99 completion latency. The
 * others stay under "All metrics"; --metric charts what it names. */
void rp_latency_beside(struct rp_data *d)
{
    if (d->metric_filtered)
        return;
    static const char *const dirs[] = {"read", "write", "trim"};
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        struct rp_group *g = &d->groups[gi];
        const char *m = d->metrics[g->metric].name;
        for (size_t k = 0; k < 3; k++) {
            size_t l = strlen(dirs[k]);
            if (strncmp(m, dirs[k], l) || m[l] != '_')
                continue;
            const char *rest = m + l;
            if (!strcmp(rest, "_bw") || !strcmp(rest, "_iops"))
                g->chart = g->primary;
            else if (!strcmp(rest, "_clat_mean") || !strcmp(rest, "_clat_p99"))
                g->chart = g->nvalued > 0;
        }
    }
}

void rp_data_order(struct rp_data *d)
{
    /* Ranks: used configs and tests in natural order. */
    struct rp_config **cp = pb_xcalloc(d->nconfigs + 1, sizeof(*cp));
    size_t n = 0;
    for (size_t i = 0; i < d->nconfigs; i++)
        if (d->configs[i].used)
            cp[n++] = &d->configs[i];
    qsort(cp, n, sizeof(*cp), cmp_config);
    for (size_t i = 0; i < n; i++) {
        cp[i]->rank = i;
        cp[i]->color = rc_config_color(i);
    }
    d->used_configs = n;
    free(cp);
    struct rp_test **tp = pb_xcalloc(d->ntests + 1, sizeof(*tp));
    n = 0;
    for (size_t i = 0; i < d->ntests; i++)
        if (d->tests[i].used)
            tp[n++] = &d->tests[i];
    qsort(tp, n, sizeof(*tp), cmp_test);
    for (size_t i = 0; i < n; i++)
        tp[i]->rank = i;
    d->used_tests = n;
    disambiguate(d, tp, n);
    free(tp);
    for (size_t i = 0; i < d->nsources; i++)
        d->used_sources += d->sources[i].used != 0;

    int *morder = rp_metric_orders(d);
    if (d->stream) {
        rp_stream_groups(d, morder);
        free(morder);
        return;
    }
    rp_cells_sort(d, morder, d->cells, d->ncells);
    free(morder);
    d->ncells_total = d->ncells;
    count_configs(d);

    for (size_t i = 0; i < d->ncells;) {
        size_t j = i;
        size_t nv = 0;
        while (j < d->ncells && d->cells[j].test == d->cells[i].test &&
               d->cells[j].metric == d->cells[i].metric) {
            nv += d->cells[j].has_value != 0;
            j++;
        }
        PB_GROW(d->groups, d->capgroups, d->ngroups + 1);
        struct rp_group *g = &d->groups[d->ngroups++];
        memset(g, 0, sizeof(*g));
        g->test = d->cells[i].test;
        g->metric = d->cells[i].metric;
        g->first = i;
        g->n = j - i;
        g->nvalued = nv;
        i = j;
    }
}

uint32_t rc_config_color(size_t i)
{
    /* Tableau 10: distinct, readable on white. */
    static const uint32_t pal[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2,
                                   0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7,
                                   0x9c755f, 0xbab0ac};
    uint32_t c = pal[i % 10];
    size_t round = (i / 10) % 3;
    if (!round)
        return c;
    /* later rounds: darker shades of the same hues */
    double k = round == 1 ? 0.7 : 0.5;
    uint32_t r = (uint32_t)(((c >> 16) & 0xff) * k),
             g = (uint32_t)(((c >> 8) & 0xff) * k),
             b = (uint32_t)((c & 0xff) * k);
    return (r << 16) | (g << 8) | b;
}

uint32_t rc_lerp_color(const uint32_t *stops, size_t n, double t)
{
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    double pos = t * (double)(n - 1);
    size_t i = (size_t)floor(pos);
    if (i >= n - 1)
        return stops[n - 1];
    double u = pos - (double)i;
    uint32_t a = stops[i], b = stops[i + 1], out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double ca = (a >> sh) & 0xff, cb = (b >> sh) & 0xff;
        out |= (uint32_t)lround(ca + (cb - ca) * u) << sh;
    }
    return out;
}

uint32_t rc_series_color(size_t i, size_t n)
{
    /* viridis without its pale yellow end: ordered values read as a ramp */
    static const uint32_t vir[] = {0x440154, 0x3b528b, 0x21918c, 0x5ec962,
                                   0xb5de2b};
    if (n <= 1)
        return 0x3b528b;
    return rc_lerp_color(vir, 5, 0.82 * (double)i / (double)(n - 1));
}
