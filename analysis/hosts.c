/* Hosts as a dimension of the report (issue 15 item 2): a configuration's
 * results of one test and metric that come from two or more hosts (fio
 * client/server runs: host = server, plus fio's "(all clients)"). Per
 * host the mean of its results, the aggregate of the hosts that ran
 * together, the spread between hosts and the outlier hosts, which also go
 * to the Warnings list. docs/report.md, "Hosts".
 *
 * This file loads and computes the hosts (the rows read again through
 * reads.c); render/hosts.c and render/chart_hosts.c draw them. */
#include "analysis/data.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALL_CLIENTS "(all clients)"
#define OUTLIER_Z   3.5

/* ==== the math ==== */

size_t rp_host_spread(const double *v, size_t n, struct rp_hspread *sp,
                      signed char *out, double *dev)
{
    memset(sp, 0, sizeof(*sp));
    sp->n = n;
    sp->min = sp->max = sp->median = sp->ratio = sp->cv = NAN;
    if (out)
        memset(out, 0, n * sizeof(*out));
    for (size_t i = 0; dev && i < n; i++)
        dev[i] = NAN;
    if (!n)
        return 0;
    double sum = 0;
    sp->min = sp->max = v[0];
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] < sp->min)
            sp->min = v[i];
        if (v[i] > sp->max)
            sp->max = v[i];
    }
    sp->median = pb_stats_median(v, n);
    if (sp->min > 0)
        sp->ratio = sp->max / sp->min;
    double mean = sum / (double)n;
    if (n >= 2 && mean != 0) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (v[i] - mean) * (v[i] - mean);
        sp->cv = sqrt(ss / (double)(n - 1)) / fabs(mean);
    }
    double med = sp->median;
    if (!(med != 0) || !isfinite(med))
        return 0;
    double mad = n >= RP_HOST_Z_FROM ? pb_stats_mad(v, n) : NAN;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (v[i] - med) / fabs(med);
        if (dev)
            dev[i] = d;
        if (n < RP_HOST_MIN || !(fabs(d) > RP_HOST_REL))
            continue;
        /* enough hosts to know their own spread: also far by it (MAD 0:
         * the others agree exactly, so any 20 % is far) */
        if (n >= RP_HOST_Z_FROM && mad > 0 &&
            !(0.6745 * fabs(v[i] - med) / mad > OUTLIER_Z))
            continue;
        if (out)
            out[i] = d > 0 ? 1 : -1;
        k++;
    }
    return k;
}

/* ==== loading ==== */

struct hrow {
    size_t group, config; /* group: index into d->groups */
    long long source;
    const char *host; /* interned; ALL_CLIENTS for fio's aggregate */
    int agg;
    size_t seq;
    double v, se;
    int has_se;
    long samples;
};

/* A row of the current (test, metric, config, source) before clones are
 * resolved: fio's "job#k" parts stand beside their aggregate "job". */
struct pend {
    size_t job; /* offset into strs */
    const char *host;
    double v, se;
    int has_se;
    long samples;
};

struct hload {
    const struct rp_data *d;
    struct rp_hosts *out;
    size_t *gidx;      /* test * nmetrics + metric -> charted group + 1 */
    size_t *metric_of; /* metric id -> index + 1 */
    size_t capmetric;
    /* host names as stored -> as shown (open addressing) */
    const char **names, **clean;
    size_t nnames, capnames;
    /* the current key and its rows (started: the key is kept) */
    int seen, started;
    size_t block;     /* first row of the current (test, metric, config) */
    int block_merged; /* its test stands for another's (--ignore-param) */
    long long test_id, metric_id, config_id, source_id;
    size_t group, config;
    struct pend *pend;
    size_t npend, cappend;
    struct pb_buf strs;
    struct hrow *rows;
    size_t nrows, caprows;
};

static size_t hash_str(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The report's text of a host name, one copy per distinct name. */
static const char *intern(struct hload *h, const char *s)
{
    if (2 * (h->nnames + 1) > h->capnames) {
        size_t cap = h->capnames ? 2 * h->capnames : 64;
        const char **nk = pb_xcalloc(cap, sizeof(*nk));
        const char **nv = pb_xcalloc(cap, sizeof(*nv));
        for (size_t i = 0; i < h->capnames; i++) {
            if (!h->names[i])
                continue;
            size_t j = hash_str(h->names[i]) & (cap - 1);
            while (nk[j])
                j = (j + 1) & (cap - 1);
            nk[j] = h->names[i];
            nv[j] = h->clean[i];
        }
        free(h->names);
        free(h->clean);
        h->names = nk;
        h->clean = nv;
        h->capnames = cap;
    }
    size_t j = hash_str(s) & (h->capnames - 1);
    while (h->names[j]) {
        if (!strcmp(h->names[j], s))
            return h->clean[j];
        j = (j + 1) & (h->capnames - 1);
    }
    h->names[j] = pb_arena_strdup(&h->out->arena, s);
    h->clean[j] = rp_clean(&h->out->arena, s);
    h->nnames++;
    return h->clean[j];
}

static const char *job_at(const struct hload *h, size_t off)
{
    return h->strs.s + off;
}

static void flush_key(struct hload *h)
{
    for (size_t i = 0; i < h->npend; i++) {
        const struct pend *p = &h->pend[i];
        const char *j = job_at(h, p->job);
        const char *hash = strrchr(j, '#');
        int part = 0;
        for (size_t k = 0; hash && !part && k < h->npend; k++) {
            const char *b = job_at(h, h->pend[k].job);
            part = strlen(b) == (size_t)(hash - j) &&
                   !strncmp(b, j, (size_t)(hash - j));
        }
        if (part)
            continue;
        PB_GROW(h->rows, h->caprows, h->nrows + 1);
        struct hrow *r = &h->rows[h->nrows];
        r->group = h->group;
        r->config = h->config;
        r->source = h->source_id;
        r->host = p->host;
        r->agg = !strcmp(p->host, ALL_CLIENTS);
        r->seq = h->nrows++;
        r->v = p->v;
        r->se = p->se;
        r->has_se = p->has_se;
        r->samples = p->samples;
    }
    h->npend = 0;
    pb_buf_reset(&h->strs);
}

/* The end of the rows of one stored (test, metric, config): unless they
 * are from two hosts or more (or their test is merged with another by
 * --ignore-param, whose rows come later), they are dropped now, so only
 * multi-host rows are kept in memory. */
static void end_block(struct hload *h)
{
    if (h->block_merged)
        return;
    const char *first = NULL;
    for (size_t i = h->block; i < h->nrows; i++) {
        if (h->rows[i].agg)
            continue;
        if (!first)
            first = h->rows[i].host;
        else if (strcmp(first, h->rows[i].host))
            return;
    }
    h->nrows = h->block;
}

static int on_row(void *ctx, const struct pb_db_rrow *r)
{
    struct hload *h = ctx;
    const struct rp_data *d = h->d;
    if (!h->seen || r->test_id != h->test_id || r->metric_id != h->metric_id ||
        r->config_id != h->config_id || r->source_id != h->source_id) {
        flush_key(h);
        if (!h->seen || r->test_id != h->test_id ||
            r->metric_id != h->metric_id || r->config_id != h->config_id) {
            end_block(h);
            h->block = h->nrows;
            h->block_merged = 0;
        }
        h->seen = 1; /* the key, kept or not: one lookup per key */
        h->started = 0;
        h->test_id = r->test_id;
        h->metric_id = r->metric_id;
        h->config_id = r->config_id;
        h->source_id = r->source_id;
        size_t m = SIZE_MAX, t, c;
        if (r->metric_id >= 0 && (size_t)r->metric_id < h->capmetric &&
            h->metric_of[r->metric_id])
            m = h->metric_of[r->metric_id] - 1;
        RP_FIND_ID(d->tests, d->ntests, r->test_id, t);
        RP_FIND_ID(d->configs, d->nconfigs, r->config_id, c);
        if (m == SIZE_MAX || t == SIZE_MAX || c == SIZE_MAX)
            return 0;
        size_t ct = rp_ignore_canon(d, t);
        size_t g = h->gidx[ct * d->nmetrics + m];
        if (!g)
            return 0;
        h->block_merged = ct != t;
        h->started = 1;
        h->group = g - 1;
        h->config = c;
    }
    if (!h->started || !r->host || !r->has_value || !isfinite(r->value))
        return 0;
    PB_GROW(h->pend, h->cappend, h->npend + 1);
    struct pend *p = &h->pend[h->npend++];
    p->job = h->strs.len;
    const char *job = r->job ? r->job : "";
    pb_buf_add(&h->strs, job, strlen(job) + 1);
    p->host = intern(h, r->host);
    p->v = r->value;
    p->se = r->stderr_;
    p->has_se = r->has_stderr;
    p->samples = r->samples;
    return 0;
}

/* ctx: the struct rp_data whose config ranks order the rows */
static int cmp_hrow(const void *a, const void *b, void *ctx)
{
    const struct hrow *x = a, *y = b;
    const struct rp_data *sort_d = ctx;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->config != y->config) {
        size_t rx = sort_d->configs[x->config].rank,
               ry = sort_d->configs[y->config].rank;
        return rx < ry ? -1 : 1;
    }
    if (x->agg != y->agg)
        return x->agg ? 1 : -1; /* the aggregate after the hosts */
    if (x->host != y->host) {
        int c = rp_natcmp(x->host, y->host);
        if (!c)
            c = strcmp(x->host, y->host);
        if (c)
            return c;
    }
    if (x->source != y->source)
        return x->source < y->source ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One run's mean of one host (or of fio's aggregate). */
struct runval {
    long long source;
    size_t host; /* index into out->h; SIZE_MAX = fio's aggregate */
    double v;
};

static int cmp_runval(const void *a, const void *b)
{
    const struct runval *x = a, *y = b;
    if (x->source != y->source)
        return x->source < y->source ? -1 : 1;
    if (x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return 0;
}

/* Metrics whose hosts add up: bandwidth, IOPS and other rates, bytes. */
static int additive(const struct rp_metric *m)
{
    return m->u.kind == RP_U_BPS || m->u.kind == RP_U_IOPS ||
           m->u.kind == RP_U_OPS || m->u.kind == RP_U_BYTES;
}

/* A percentile ("read_clat_p99"): no aggregate can be made of the hosts'. */
static int percentile(const char *metric)
{
    for (const char *p = strstr(metric, "_p"); p; p = strstr(p + 1, "_p"))
        if (p[2] >= '0' && p[2] <= '9')
            return 1;
    return 0;
}

/* The runs of a cell: aggregate and sum over the sources in which >= 2
 * hosts ran together. */
static void cell_runs(const struct rp_data *d, struct rp_hcell *c,
                      struct runval *rv, size_t nrv)
{
    const struct rp_metric *mt = &d->metrics[c->metric];
    int add = additive(mt), pct = percentile(mt->name);
    qsort(rv, nrv, sizeof(*rv), cmp_runval);
    double aggsum = 0, sumsum = 0;
    size_t nagg = 0, nsum = 0, nfio = 0;
    for (size_t i = 0; i < nrv;) {
        size_t j = i, nh = 0;
        double s = 0, fio = NAN;
        while (j < nrv && rv[j].source == rv[i].source) {
            if (rv[j].host == SIZE_MAX) {
                fio = rv[j].v;
            } else {
                s += rv[j].v;
                nh++;
            }
            j++;
        }
        if (nh >= 2) {
            c->nruns++;
            if (add) {
                sumsum += s;
                nsum++;
            }
            if (!isnan(fio)) {
                aggsum += fio;
                nagg++;
                nfio++;
            } else if (add) {
                aggsum += s;
                nagg++;
            } else if (!pct) {
                aggsum += s / (double)nh;
                nagg++;
            }
        }
        i = j;
    }
    /* a sum past the largest double (hostile input) is no value */
    if (nagg && nagg == c->nruns && isfinite(aggsum / (double)nagg)) {
        c->has_agg = 1;
        c->agg = aggsum / (double)nagg;
        c->agg_fio = nfio == nagg;
    }
    if (nsum && isfinite(sumsum / (double)nsum)) {
        c->has_sum = 1;
        c->sum = sumsum / (double)nsum;
    }
}

/* Fold the sorted rows of one (group, config) rows[i..j) into a cell when
 * they come from >= 2 hosts. */
static void make_cell(struct hload *h, size_t i, size_t j)
{
    const struct rp_data *d = h->d;
    struct rp_hosts *out = h->out;
    size_t first = out->nh;
    struct runval *rv = NULL;
    size_t nrv = 0, caprv = 0;
    for (size_t k = i; k < j;) {
        size_t e = k;
        while (e < j && h->rows[e].agg == h->rows[k].agg &&
               !strcmp(h->rows[e].host, h->rows[k].host))
            e++;
        int agg = h->rows[k].agg;
        size_t hi = SIZE_MAX;
        if (!agg) {
            struct rp_acc acc;
            memset(&acc, 0, sizeof(acc));
            for (size_t q = k; q < e; q++)
                rp_acc_add(&acc, h->rows[q].v, h->rows[q].has_se, h->rows[q].se,
                           h->rows[q].samples);
            struct rp_cell c;
            memset(&c, 0, sizeof(c));
            rp_acc_done(&acc, &c);
            PB_GROW(out->h, out->caph, out->nh + 1);
            struct rp_hhost *hh = &out->h[out->nh];
            memset(hh, 0, sizeof(*hh));
            hh->name = h->rows[k].host;
            hh->mean = c.mean;
            hh->se = c.se;
            hh->n = c.n;
            hh->dev = NAN;
            hi = out->nh++;
        }
        /* per run: the mean of this host's rows in it */
        for (size_t q = k; q < e;) {
            size_t r = q;
            double s = 0;
            while (r < e && h->rows[r].source == h->rows[q].source)
                s += h->rows[r++].v;
            PB_GROW(rv, caprv, nrv + 1);
            rv[nrv].source = h->rows[q].source;
            rv[nrv].host = hi;
            rv[nrv].v = s / (double)(r - q);
            nrv++;
            q = r;
        }
        k = e;
    }
    size_t nh = out->nh - first;
    if (nh < 2) {
        out->nh = first;
        free(rv);
        return;
    }
    PB_GROW(out->c, out->capc, out->nc + 1);
    struct rp_hcell *c = &out->c[out->nc++];
    memset(c, 0, sizeof(*c));
    const struct rp_group *g = &d->groups[h->rows[i].group];
    c->test = g->test;
    c->metric = g->metric;
    c->config = h->rows[i].config;
    c->first = first;
    c->n = nh;
    cell_runs(d, c, rv, nrv);
    free(rv);
    double *v = pb_xcalloc(nh, sizeof(*v));
    double *dev = pb_xcalloc(nh, sizeof(*dev));
    signed char *fl = pb_xcalloc(nh, sizeof(*fl));
    for (size_t k = 0; k < nh; k++)
        v[k] = out->h[first + k].mean;
    c->noutliers = rp_host_spread(v, nh, &c->sp, fl, dev);
    for (size_t k = 0; k < nh; k++) {
        out->h[first + k].outlier = fl[k];
        out->h[first + k].dev = dev[k];
    }
    out->noutliers += c->noutliers;
    free(v);
    free(dev);
    free(fl);
}

int rp_hosts_load(struct pb_db *db, const struct pb_db_filter *f,
                  const struct rp_data *d, struct rp_hosts *out,
                  struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    pb_arena_init(&out->arena);
    /* nothing charted, fewer than two hosts or no configuration of two
     * (the model's read saw every result: a second pass would find no
     * row to keep), or a table of
     * groups too big to index: no section */
    size_t cells = d->ntests * d->nmetrics;
    if (!d->multi_host || !d->config_hosts || !d->ngroups || !d->nmetrics || cells / d->nmetrics != d->ntests ||
        cells > ((size_t)1 << 24))
        return PB_OK;
    struct hload h;
    memset(&h, 0, sizeof(h));
    h.d = d;
    h.out = out;
    h.gidx = pb_xcalloc(cells, sizeof(*h.gidx));
    size_t charted = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++)
        if (d->groups[gi].chart) {
            h.gidx[d->groups[gi].test * d->nmetrics + d->groups[gi].metric] =
                gi + 1;
            charted++;
        }
    int rc = PB_OK;
    if (!charted)
        goto done;
    for (size_t m = 0; m < d->nmetrics; m++) {
        long long id = d->metrics[m].id;
        if (id < 0 || id >= (long long)1 << 30)
            continue;
        if ((size_t)id >= h.capmetric) {
            size_t old = h.capmetric;
            PB_GROW(h.metric_of, h.capmetric, (size_t)id + 1);
            memset(h.metric_of + old, 0,
                   (h.capmetric - old) * sizeof(*h.metric_of));
        }
        h.metric_of[id] = m + 1;
    }
    rc = pb_an_report_rows(db, f, on_row, &h, err);
    if (rc)
        goto done;
    flush_key(&h);
    end_block(&h);
    rp_sort(h.rows, h.nrows, sizeof(*h.rows), cmp_hrow, d);
    for (size_t i = 0; i < h.nrows;) {
        size_t j = i;
        while (j < h.nrows && h.rows[j].group == h.rows[i].group &&
               h.rows[j].config == h.rows[i].config)
            j++;
        make_cell(&h, i, j);
        i = j;
    }
done:
    free(h.gidx);
    free(h.metric_of);
    free(h.names);
    free(h.clean);
    free(h.pend);
    free(h.rows);
    pb_buf_release(&h.strs);
    return rc;
}

void rp_hosts_release(struct rp_hosts *h)
{
    free(h->c);
    free(h->h);
    pb_arena_release(&h->arena);
    memset(h, 0, sizeof(*h));
}
