/* History (issue 12 item 4, issue 41 item 8): the same configuration and
 * test across runs or dates. A point is one `poolbench run` (fact run_id)
 * or, for other sources, one day of the source's own time: the time the
 * file says it was made (fio JSON's "timestamp" or normal output's first
 * job line, PTS's TimeStamp, iozone's "Run began"), else the file's modification time when it was ingested
 * (fact file_time), else the ingest time (ingested_at). Its value is the
 * mean of its sources' results (the report's fold of repeats), with ±SE
 * and n. Points are ordered by their earliest time. A step is a point
 * whose value differs from the pooled points before it (since the last
 * step) by Welch's t-test at alpha 0.05, both sides with n >= 2; the
 * latest point is also compared with the one before it alone (Welch, the
 * compare statistics: better, worse or no significant change).
 * The section draws one chart per test and metric (a line per
 * configuration, ±SE whiskers) with a table of every point; steps also
 * go to the Warnings list (flags.c). docs/statistics.md, "History across
 * runs".
 *
 * This file loads and computes the history (the rows read again through
 * reads.c); render/history.c draws it. */
#include "analysis/data.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== points of sources ==== */

struct pkey {
    const char *key;  /* run id or day */
    const char *when; /* earliest time, "YYYY-MM-DD HH:MM:SS" */
    int whence;       /* RP_HWHEN_* of when */
    size_t ord;       /* position in time order */
};

struct hrow {
    size_t test, metric, config, point;
    size_t seq; /* row order of the query: the fold's order, so the same
                   database gives the same bits */
    double v, se;
    int has_se;
    long samples;
};

struct hload {
    const struct rp_data *d;
    struct pb_arena *arena;
    struct pkey *keys;
    size_t nkeys, capkeys;
    long long *src_ids; /* used sources, sorted by id */
    size_t *src_point;  /* their point */
    size_t nsrc;
    struct hrow *rows; /* the series being read (all rows when merged) */
    size_t nrows, caprows;
    size_t *metric_of; /* metric id -> index + 1 (ids are small) */
    size_t capmetric;
    struct rp_history *out;
    /* Rows come ordered by (test, metric, config) ids: unless tests are
     * merged (--ignore-param), each series is folded when its rows end,
     * so that only one series' rows are held. */
    int stream;
    int ingroup;
    long long gtest, gmetric, gconfig; /* ids of the series being read */
    size_t seq;                        /* rows taken so far */
    /* The (test rank, metric) pairs drawn: the first RP_HIST_CHARTS in
     * the section's order among those seen so far. Series of other pairs
     * keep only their step points (for the Warnings list). */
    struct shown {
        uint64_t key;
        size_t test, metric;
        size_t nseries;               /* series of the pair so far */
        size_t nlines;                /* configs drawn (<= RP_HIST_LINES) */
        size_t rank[RP_HIST_LINES];  /* their ranks, ascending */
    } shown[RP_HIST_CHARTS];
    size_t nshown;
    size_t compacted; /* capacity of the points at the last compaction */
};

static void fold_rows(struct hload *h);

static size_t find_id_ll(const long long *v, size_t n, long long id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == id ? lo : SIZE_MAX;
}


static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* Is t "YYYY-MM-DD HH:MM:SS" (what the parsers store)? */
static int is_time(const char *t)
{
    static const char pat[] = "dddd-dd-dd dd:dd:dd";
    for (size_t i = 0; i < sizeof(pat) - 1; i++)
        if (pat[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != pat[i])
            return 0;
    return t[sizeof(pat) - 1] == '\0';
}

/* The source's time into b (a "YYYY-MM-DD HH:MM:SS" string) and where it
 * came from: its own (the earliest fact timestamp of any host, or
 * iozone's run_began), else file_time, else its ingest time. */
static int source_time(const struct rp_data *d, const struct rp_source *s,
                       char *b, size_t n)
{
    size_t first, nf = rp_facts_of(d, s->id, &first);
    char own[32] = "", file[32] = "", v[32];
    for (size_t i = first; i < first + nf; i++) {
        const char *k = d->facts[i].key, *val = d->facts[i].value;
        int is_file = !strcmp(k, "file_time");
        if (!strcmp(k, "run_began")) { /* "Sun Nov 21 03:38:06 2010" */
            if (pb_time_ctime(val, v, sizeof(v)) != 0)
                continue;
        } else if (is_file || !strcmp(k, "timestamp")) {
            snprintf(v, sizeof(v), "%s", val);
        } else {
            continue;
        }
        if (!is_time(v))
            continue;
        char *to = is_file ? file : own;
        if (!*to || strcmp(v, to) < 0)
            memcpy(to, v, sizeof(v));
    }
    if (*own || *file) {
        snprintf(b, n, "%s", *own ? own : file);
        return *own ? RP_HWHEN_SOURCE : RP_HWHEN_FILE;
    }
    /* "2026-03-01T10:00:00Z" */
    snprintf(b, n, "%.19s", s->ingested_at ? s->ingested_at : "");
    if (strlen(b) > 10 && b[10] == 'T')
        b[10] = ' ';
    return RP_HWHEN_INGEST;
}

/* The point of each used source: its run id, else the day of its time. */
static void source_points(struct hload *h)
{
    const struct rp_data *d = h->d;
    h->src_ids = pb_xcalloc(d->nsources + 1, sizeof(*h->src_ids));
    h->src_point = pb_xcalloc(d->nsources + 1, sizeof(*h->src_point));
    for (size_t i = 0; i < d->nsources; i++)
        if (d->sources[i].used)
            h->src_ids[h->nsrc++] = d->sources[i].id;
    qsort(h->src_ids, h->nsrc, sizeof(*h->src_ids), cmp_ll);
    for (size_t i = 0; i < d->nsources; i++) {
        const struct rp_source *s = &d->sources[i];
        if (!s->used)
            continue;
        char tb[64];
        int whence = source_time(d, s, tb, sizeof(tb));
        const char *run = rp_fact_of(d, s->id, "run_id");
        const char *key = run;
        if (!key)
            key = pb_arena_printf(h->arena, "%.10s", tb);
        size_t k = 0;
        for (; k < h->nkeys; k++)
            if (!strcmp(h->keys[k].key, key))
                break;
        if (k == h->nkeys) {
            PB_GROW(h->keys, h->capkeys, h->nkeys + 1);
            h->keys[k].key = key;
            h->keys[k].when = pb_arena_printf(h->arena, "%s", tb);
            h->keys[k].whence = whence;
            h->nkeys++;
        } else if (strcmp(tb, h->keys[k].when) < 0) {
            h->keys[k].when = pb_arena_printf(h->arena, "%s", tb);
            h->keys[k].whence = whence;
        }
        h->src_point[find_id_ll(h->src_ids, h->nsrc, s->id)] = k;
    }
}

static int cmp_pkey(const void *a, const void *b)
{
    const struct pkey *x = *(const struct pkey *const *)a,
                      *y = *(const struct pkey *const *)b;
    int c = strcmp(x->when, y->when);
    return c ? c : strcmp(x->key, y->key);
}

static int on_row(void *ctx, const struct pb_db_rrow *r)
{
    struct hload *h = ctx;
    const struct rp_data *d = h->d;
    if (!r->has_value || !isfinite(r->value))
        return 0;
    size_t m = SIZE_MAX;
    if (r->metric_id >= 0 && (size_t)r->metric_id < h->capmetric &&
        h->metric_of[r->metric_id])
        m = h->metric_of[r->metric_id] - 1;
    if (m == SIZE_MAX || !d->metrics[m].headline)
        return 0;
    size_t t, c;
    RP_FIND_ID(d->tests, d->ntests, r->test_id, t);
    RP_FIND_ID(d->configs, d->nconfigs, r->config_id, c);
    size_t s = find_id_ll(h->src_ids, h->nsrc, r->source_id);
    if (t == SIZE_MAX || c == SIZE_MAX || s == SIZE_MAX)
        return 0;
    if (h->stream && (!h->ingroup || r->test_id != h->gtest ||
                      r->metric_id != h->gmetric ||
                      r->config_id != h->gconfig)) {
        fold_rows(h);
        h->ingroup = 1;
        h->gtest = r->test_id;
        h->gmetric = r->metric_id;
        h->gconfig = r->config_id;
    }
    PB_GROW(h->rows, h->caprows, h->nrows + 1);
    struct hrow *o = &h->rows[h->nrows++];
    o->test = rp_ignore_canon(d, t);
    o->metric = m;
    o->config = c;
    o->point = h->keys[h->src_point[s]].ord;
    o->seq = h->seq++;
    o->v = r->value;
    o->has_se = r->has_stderr;
    o->se = r->stderr_;
    o->samples = r->samples;
    return 0;
}

/* ctx: the struct rp_data whose ranks order the rows */
static int cmp_hrow(const void *a, const void *b, void *ctx)
{
    const struct hrow *x = a, *y = b;
    const struct rp_data *d = ctx;
    if (x->test != y->test)
        return d->tests[x->test].rank < d->tests[y->test].rank ? -1 : 1;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    if (x->config != y->config)
        return d->configs[x->config].rank < d->configs[y->config].rank ? -1 : 1;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Mark steps in pts[0..n): each point against the points since the last
 * step, pooled as one sample set (their means, SEs and n give the pooled
 * mean and variance exactly). */
static size_t find_steps(struct rp_hpoint *pts, size_t n)
{
    size_t steps = 0, from = 0;
    for (size_t j = 1; j < n; j++) {
        pts[j].p = NAN;
        double N = 0, sum = 0;
        for (size_t i = from; i < j; i++) {
            N += (double)pts[i].n;
            sum += (double)pts[i].n * pts[i].mean;
        }
        if (N < 2 || pts[j].n < 2 || pts[j].se < 0)
            continue;
        double M = sum / N, ss = 0;
        int ok = 1;
        for (size_t i = from; i < j; i++) {
            double ni = (double)pts[i].n;
            if (ni >= 2 && pts[i].se < 0)
                ok = 0;
            double sd = ni >= 2 ? pts[i].se * sqrt(ni) : 0;
            ss +=
                (ni - 1) * sd * sd + ni * (pts[i].mean - M) * (pts[i].mean - M);
        }
        if (!ok)
            continue;
        struct pb_stats_summary base = {M, sqrt(ss / (N - 1)) / sqrt(N), N};
        struct pb_stats_summary cand = {pts[j].mean, pts[j].se,
                                        (double)pts[j].n};
        struct pb_stats_welch w;
        if (pb_stats_welch(&base, &cand, RP_HIST_ALPHA, &w) != 0)
            continue;
        pts[j].p = w.p;
        pts[j].base = M;
        pts[j].nbase = j - from;
        if (w.p < RP_HIST_ALPHA && M != 0) {
            pts[j].step = 1;
            pts[j].change = (pts[j].mean - M) / fabs(M);
            steps++;
            from = j;
        }
    }
    return steps;
}

/* The latest point p[1] against the one before it p[0] alone, as compare
 * judges two configurations: Welch's t-test at RP_HIST_ALPHA when both
 * have n >= 2 and a known SE; dir < 0 when lower is better. */
static void latest(const struct rp_hpoint *p, int dir, struct rp_hseries *s)
{
    s->lchange = p[0].mean != 0 ? (p[1].mean - p[0].mean) / fabs(p[0].mean)
                                : NAN;
    s->lp = NAN;
    s->lverdict = RP_HLATEST_UNTESTED;
    if (p[0].n < 2 || p[1].n < 2 || p[0].se < 0 || p[1].se < 0)
        return;
    struct pb_stats_summary a = {p[0].mean, p[0].se, (double)p[0].n};
    struct pb_stats_summary b = {p[1].mean, p[1].se, (double)p[1].n};
    struct pb_stats_welch w;
    if (pb_stats_welch(&a, &b, RP_HIST_ALPHA, &w) != 0)
        return;
    s->lp = w.p;
    if (w.p >= RP_HIST_ALPHA || p[1].mean == p[0].mean)
        s->lverdict = RP_HLATEST_SAME;
    else
        s->lverdict = (p[1].mean > p[0].mean) == (dir >= 0)
                          ? RP_HLATEST_BETTER
                          : RP_HLATEST_WORSE;
}

/* The section's order of a series' chart: test rank, then metric. */
static uint64_t pair_key(const struct rp_data *d, size_t test, size_t metric)
{
    return ((uint64_t)d->tests[test].rank << 32) | (uint64_t)metric;
}

static size_t shown_at(const struct hload *h, uint64_t k)
{
    size_t lo = 0, hi = h->nshown;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->shown[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t rank_at(const struct shown *p, size_t rank)
{
    size_t lo = 0, hi = p->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->rank[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Is series s drawn (as far as the rows read so far tell)? */
static int is_shown(const struct hload *h, const struct rp_hseries *s)
{
    uint64_t k = pair_key(h->d, s->test, s->metric);
    size_t at = shown_at(h, k);
    if (at >= h->nshown || h->shown[at].key != k)
        return 0;
    const struct shown *p = &h->shown[at];
    size_t rank = h->d->configs[s->config].rank;
    size_t r = rank_at(p, rank);
    return r < p->nlines && p->rank[r] == rank;
}

/* Take series s among those drawn when its pair is one of the first
 * RP_HIST_CHARTS seen (the last one then drops out) and its config one
 * of the pair's first RP_HIST_LINES (likewise). 1 = drawn. */
static int take_series(struct hload *h, const struct rp_hseries *s)
{
    uint64_t k = pair_key(h->d, s->test, s->metric);
    size_t at = shown_at(h, k);
    if (at >= h->nshown || h->shown[at].key != k) {
        if (at >= RP_HIST_CHARTS)
            return 0;
        size_t n =
            h->nshown < RP_HIST_CHARTS ? h->nshown : RP_HIST_CHARTS - 1;
        memmove(h->shown + at + 1, h->shown + at,
                (n - at) * sizeof(*h->shown));
        memset(&h->shown[at], 0, sizeof(h->shown[at]));
        h->shown[at].key = k;
        h->shown[at].test = s->test;
        h->shown[at].metric = s->metric;
        h->nshown = n + 1;
    }
    struct shown *p = &h->shown[at];
    p->nseries++;
    size_t rank = h->d->configs[s->config].rank;
    size_t r = rank_at(p, rank);
    if (r >= RP_HIST_LINES)
        return 0;
    size_t n = p->nlines < RP_HIST_LINES ? p->nlines : RP_HIST_LINES - 1;
    memmove(p->rank + r + 1, p->rank + r, (n - r) * sizeof(*p->rank));
    p->rank[r] = rank;
    p->nlines = n + 1;
    return 1;
}

/* Keep only the step points of series s (its points from s->first). */
static size_t keep_steps(struct rp_history *out, struct rp_hseries *s,
                         size_t to)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (out->pts[s->first + i].step)
            out->pts[to + k++] = out->pts[s->first + i];
    s->first = to;
    s->n = k;
    s->reduced = 1;
    return k;
}

/* Drop the points of series whose pair is not drawn any more (their steps
 * stay) and the series without steps among them; series are still in the
 * order of their points. */
static void compact(struct hload *h)
{
    struct rp_history *out = h->out;
    size_t to = 0, ns = 0;
    for (size_t i = 0; i < out->ns; i++) {
        struct rp_hseries s = out->s[i];
        if (!s.reduced && !is_shown(h, &s)) {
            keep_steps(out, &s, to);
        } else {
            memmove(out->pts + to, out->pts + s.first,
                    s.n * sizeof(*out->pts));
            s.first = to;
        }
        if (s.reduced && !s.n) {
            out->nhidden++;
            continue;
        }
        to += s.n;
        out->s[ns++] = s;
    }
    out->npts = to;
    out->ns = ns;
}

/* Fold the rows read (one series, or all rows when tests are merged) into
 * points per (test, metric, config, point), and find the steps. */
static void fold_rows(struct hload *h)
{
    const struct rp_data *d = h->d;
    struct rp_history *out = h->out;
    if (!h->nrows)
        return;
    rp_sort(h->rows, h->nrows, sizeof(*h->rows), cmp_hrow, d);
    for (size_t i = 0; i < h->nrows;) {
        size_t j = i;
        size_t npts = 0;
        if (out->cappts >= 4096 && out->npts + 64 > out->cappts &&
            h->compacted != out->cappts) {
            compact(h); /* before the points grow: the dropped first, once
                           per capacity */
            h->compacted = out->cappts;
        }
        size_t first = out->npts;
        while (j < h->nrows && h->rows[j].test == h->rows[i].test &&
               h->rows[j].metric == h->rows[i].metric &&
               h->rows[j].config == h->rows[i].config) {
            size_t k = j;
            struct rp_acc acc = {0};
            while (k < h->nrows && h->rows[k].test == h->rows[j].test &&
                   h->rows[k].metric == h->rows[j].metric &&
                   h->rows[k].config == h->rows[j].config &&
                   h->rows[k].point == h->rows[j].point) {
                rp_acc_add(&acc, h->rows[k].v, h->rows[k].has_se,
                           h->rows[k].se, h->rows[k].samples);
                k++;
            }
            struct rp_cell c;
            memset(&c, 0, sizeof(c));
            rp_acc_done(&acc, &c);
            PB_GROW(out->pts, out->cappts, out->npts + 1);
            struct rp_hpoint *p = &out->pts[out->npts++];
            memset(p, 0, sizeof(*p));
            p->point = h->rows[j].point;
            p->mean = c.mean;
            p->se = c.se;
            p->n = c.n;
            p->p = NAN;
            npts++;
            j = k;
        }
        if (npts >= 2) {
            PB_GROW(out->s, out->caps, out->ns + 1);
            struct rp_hseries *s = &out->s[out->ns++];
            memset(s, 0, sizeof(*s));
            s->test = h->rows[i].test;
            s->metric = h->rows[i].metric;
            s->config = h->rows[i].config;
            s->first = first;
            s->n = npts;
            s->steps = find_steps(out->pts + first, npts);
            out->nsteps += s->steps;
            latest(out->pts + first + npts - 2, d->metrics[s->metric].dir, s);
            if (!take_series(h, s)) {
                out->npts = first + keep_steps(out, s, first);
                if (!s->n) {
                    out->ns--;
                    out->nhidden++;
                }
            }
        } else {
            out->npts = first; /* one point: no history */
        }
        i = j;
    }
    h->nrows = 0;
}

/* ctx: the struct rp_data whose ranks order the series */
static int cmp_series(const void *a, const void *b, void *ctx)
{
    const struct rp_hseries *x = a, *y = b;
    const struct rp_data *d = ctx;
    if (x->test != y->test)
        return d->tests[x->test].rank < d->tests[y->test].rank ? -1 : 1;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    if (x->config != y->config)
        return d->configs[x->config].rank < d->configs[y->config].rank ? -1 : 1;
    return 0;
}

int rp_history_load(struct pb_db *db, const struct pb_db_filter *f,
                    const struct rp_data *d, struct rp_history *out,
                    struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    pb_arena_init(&out->arena);
    struct hload h;
    memset(&h, 0, sizeof(h));
    h.d = d;
    h.arena = &out->arena;
    source_points(&h);
    int rc = PB_OK;
    if (h.nkeys < 2)
        goto done; /* one run or day: no history (and no second query) */
    struct pkey **byt = pb_xcalloc(h.nkeys, sizeof(*byt));
    for (size_t k = 0; k < h.nkeys; k++)
        byt[k] = &h.keys[k];
    qsort(byt, h.nkeys, sizeof(*byt), cmp_pkey);
    out->keys = pb_arena_alloc(&out->arena, h.nkeys * sizeof(*out->keys));
    out->whens = pb_arena_alloc(&out->arena, h.nkeys * sizeof(*out->whens));
    out->whence = pb_arena_alloc(&out->arena, h.nkeys * sizeof(*out->whence));
    for (size_t k = 0; k < h.nkeys; k++) {
        byt[k]->ord = k;
        out->keys[k] = byt[k]->key;
        out->whens[k] = byt[k]->when;
        out->whence[k] = byt[k]->whence;
    }
    out->nkeys = h.nkeys;
    free(byt);
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
    h.out = out;
    h.stream = d->merge == NULL;
    rc = pb_an_report_rows(db, f, on_row, &h, err);
    if (rc)
        goto done;
    fold_rows(&h);
    compact(&h);
    out->pairs = pb_xcalloc(h.nshown + 1, sizeof(*out->pairs));
    for (size_t i = 0; i < h.nshown; i++) {
        out->pairs[i].test = h.shown[i].test;
        out->pairs[i].metric = h.shown[i].metric;
        out->pairs[i].nseries = h.shown[i].nseries;
        out->pairs[i].nlines = h.shown[i].nlines;
    }
    out->npairs = h.nshown;
    rp_sort(out->s, out->ns, sizeof(*out->s), cmp_series, d);
done:
    free(h.keys);
    free(h.src_ids);
    free(h.src_point);
    free(h.rows);
    free(h.metric_of);
    return rc;
}

void rp_history_release(struct rp_history *h)
{
    free(h->pairs);
    free(h->pts);
    free(h->s);
    pb_arena_release(&h->arena);
    memset(h, 0, sizeof(*h));
}
