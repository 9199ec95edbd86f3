/* The report's cells on disk: every cell of the ordered pass goes to an
 * unlinked temporary file; the groups that sections read across tests stay
 * in memory, the others are read back one test at a time. */
#define _POSIX_C_SOURCE 200809L
#include "analysis/stream_int.h"
#include "analysis/data.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 4096 /* cells per write or read */

/* One (test, metric) of the pass: its cells and valued cells. */
struct rec {
    size_t test, metric;
    size_t n, nvalued;
};

struct rp_stream {
    int fd;
    int failed; /* errno of the first failed write or read; 0 = none */
    struct rp_cell *buf; /* CHUNK cells: being written, or read */
    size_t nbuf;
    size_t written; /* cells in the file */
    struct rec *recs;
    size_t nrecs, caprecs;
    size_t *off, *cnt; /* by test index: its first cell, its cells */
    size_t ntests;
    size_t *tgroup; /* by test index: its first group; SIZE_MAX none */
    unsigned char *res; /* by group: resident */
    unsigned char *win; /* by group: read back with its test (windowed) */
    int *morder;
    size_t loaded; /* test in the window; SIZE_MAX none */
    int dropped;   /* rp_stream_drop: no cells in memory any more */
    struct rp_cell *side;
    size_t nside, capside;
    int side_sorted;
};

int rp_stream_new(struct rp_stream **out, struct pb_err *err)
{
    *out = NULL;
    const char *dir = getenv("TMPDIR");
    if (!dir || dir[0] != '/')
        dir = "/tmp";
    char *path = pb_xasprintf("%s/poolbench-cells-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        int rc = pb_err_set(err, PB_EIO, path, 0, 0,
                            "cannot create a temporary file: %s",
                            strerror(errno));
        free(path);
        return rc;
    }
    unlink(path);
    free(path);
    struct rp_stream *s = pb_xcalloc(1, sizeof(*s));
    s->fd = fd;
    s->buf = pb_xcalloc(CHUNK, sizeof(*s->buf));
    s->loaded = SIZE_MAX;
    *out = s;
    return PB_OK;
}

void rp_stream_free(struct rp_stream *s)
{
    if (!s)
        return;
    close(s->fd);
    free(s->buf);
    free(s->recs);
    free(s->off);
    free(s->cnt);
    free(s->tgroup);
    free(s->res);
    free(s->win);
    free(s->morder);
    free(s->side);
    free(s);
}

/* ==== writing ==== */

static void write_all(struct rp_stream *s, const void *p, size_t len)
{
    const char *c = p;
    while (len && !s->failed) {
        ssize_t k = write(s->fd, c, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            s->failed = k < 0 ? errno : EIO;
            return;
        }
        c += k;
        len -= (size_t)k;
    }
}

static void flush_buf(struct rp_stream *s)
{
    write_all(s, s->buf, s->nbuf * sizeof(*s->buf));
    s->nbuf = 0;
}

void rp_stream_put(struct rp_data *d, const struct rp_cell *c)
{
    struct rp_stream *s = d->stream;
    if (s->ntests < d->ntests) {
        s->off = pb_xrealloc(s->off, d->ntests * sizeof(*s->off));
        s->cnt = pb_xrealloc(s->cnt, d->ntests * sizeof(*s->cnt));
        for (size_t i = s->ntests; i < d->ntests; i++)
            s->cnt[i] = 0;
        s->ntests = d->ntests;
    }
    /* rows come by test: a test's cells are one run of the file */
    if (!s->cnt[c->test])
        s->off[c->test] = s->written;
    s->cnt[c->test]++;
    struct rec *r = s->nrecs ? &s->recs[s->nrecs - 1] : NULL;
    if (!r || r->test != c->test || r->metric != c->metric) {
        PB_GROW(s->recs, s->caprecs, s->nrecs + 1);
        r = &s->recs[s->nrecs++];
        memset(r, 0, sizeof(*r));
        r->test = c->test;
        r->metric = c->metric;
    }
    r->n++;
    r->nvalued += c->has_value != 0;
    s->buf[s->nbuf++] = *c;
    s->written++;
    if (s->nbuf == CHUNK)
        flush_buf(s);
}

/* ==== groups ==== */

/* Records by test and metric: the data and the metrics' orders. */
struct rec_ctx {
    const struct rp_data *d;
    const int *morder;
};

static int cmp_rec(const void *a, const void *b, void *ctx)
{
    const struct rec *x = a, *y = b;
    const struct rec_ctx *r = ctx;
    return rp_tm_cmp(r->d, r->morder, x->test, x->metric, y->test,
                     y->metric);
}

void rp_stream_groups(struct rp_data *d, const int *morder)
{
    struct rp_stream *s = d->stream;
    flush_buf(s);
    struct rec_ctx rc = {d, morder};
    rp_sort(s->recs, s->nrecs, sizeof(*s->recs), cmp_rec, &rc);
    s->morder = pb_xcalloc(d->nmetrics + 1, sizeof(*s->morder));
    memcpy(s->morder, morder, d->nmetrics * sizeof(*morder));
    s->tgroup = pb_xcalloc(d->ntests + 1, sizeof(*s->tgroup));
    for (size_t i = 0; i < d->ntests; i++)
        s->tgroup[i] = SIZE_MAX;
    for (size_t i = 0; i < s->nrecs; i++) {
        const struct rec *r = &s->recs[i];
        PB_GROW(d->groups, d->capgroups, d->ngroups + 1);
        struct rp_group *g = &d->groups[d->ngroups];
        memset(g, 0, sizeof(*g));
        g->test = r->test;
        g->metric = r->metric;
        g->first = SIZE_MAX;
        g->n = r->n;
        g->nvalued = r->nvalued;
        if (s->tgroup[r->test] == SIZE_MAX)
            s->tgroup[r->test] = d->ngroups;
        d->ngroups++;
    }
    free(s->recs);
    s->recs = NULL;
    s->nrecs = s->caprecs = 0;
    d->ncells_total = s->written;
}

/* The group of (test, metric); a test's groups are adjacent. */
static size_t group_of(const struct rp_data *d, size_t test, size_t metric)
{
    const struct rp_stream *s = d->stream;
    if (test >= d->ntests)
        return SIZE_MAX;
    for (size_t g = s->tgroup[test];
         g < d->ngroups && d->groups[g].test == test; g++)
        if (d->groups[g].metric == metric)
            return g;
    return SIZE_MAX;
}

int rp_group_resident(const struct rp_data *d, const struct rp_group *g)
{
    const char *m = d->metrics[g->metric].name;
    /* the bonnie++ table reads its own query (render/bonnie_table.c) */
    return g->primary ||
           (rp_metric_in_special(m) && !rp_metric_is_bonnie(m)) ||
           !strcmp(m, "ss_attained") || !strcmp(m, "ss_duration");
}

/* ==== reading ==== */

/* Read cells [at, at + n) (n <= CHUNK) into s->buf. */
static int read_cells(struct rp_stream *s, size_t at, size_t n)
{
    char *p = (char *)s->buf;
    size_t len = n * sizeof(*s->buf);
    off_t pos = (off_t)(at * sizeof(*s->buf));
    while (len) {
        ssize_t k = pread(s->fd, p, len, pos);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (!s->failed)
                s->failed = k < 0 ? errno : EIO;
            return -1;
        }
        p += k;
        pos += k;
        len -= (size_t)k;
    }
    return 0;
}

/* Point the groups at their runs of sorted cells c[0..n), c at d->cells +
 * base. */
static void set_first(struct rp_data *d, size_t base, size_t n)
{
    const struct rp_cell *c = d->cells + base;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && c[j].test == c[i].test && c[j].metric == c[i].metric)
            j++;
        size_t g = group_of(d, c[i].test, c[i].metric);
        if (g != SIZE_MAX)
            d->groups[g].first = base + i;
        i = j;
    }
}

/* Does a section read g's cells when its test is loaded? Its chart, the
 * table of tests with one configuration and the complete tables read the
 * charted groups (g->chart); "All metrics of this test" and "Other values"
 * read at most MAX_ALL_ROWS cells, the first groups of a test in order
 * (before: the cells of the test's groups before g); "IOPS against
 * latency" reads three fio metrics. Every other group of the test is only
 * counted (g->n): its cells stay on disk (bonnie++'s 36 metrics of 57,142
 * machines were a 148 MB window). */
static int windowed(const struct rp_data *d, const struct rp_group *g,
                    size_t before)
{
    return g->chart || before < MAX_ALL_ROWS ||
           rp_iolat_metric(d->metrics[g->metric].name);
}

/* The window: the largest test's cells of the groups on disk that a
 * section reads (windowed), s->win set. */
static size_t window_size(struct rp_data *d)
{
    struct rp_stream *s = d->stream;
    s->win = pb_xcalloc(d->ngroups + 1, 1);
    size_t win = 0;
    for (size_t g = 0; g < d->ngroups;) {
        size_t h = g, sum = 0, before = 0;
        for (; h < d->ngroups && d->groups[h].test == d->groups[g].test;
             h++) {
            s->win[h] = (unsigned char)(!s->res[h] &&
                                        windowed(d, &d->groups[h], before));
            before += d->groups[h].n;
            if (s->win[h])
                sum += d->groups[h].n;
        }
        if (sum > win)
            win = sum;
        g = h;
    }
    return win;
}

int rp_stream_resident(struct rp_data *d, struct pb_err *err)
{
    struct rp_stream *s = d->stream;
    s->res = pb_xcalloc(d->ngroups + 1, 1);
    /* each resident group's place: the groups are in report order, so
     * only the cells of one group are sorted (by configuration rank); a
     * sort of all of them took 8 bytes a cell more (3.2 MB at 100,000
     * machines) */
    size_t *at = pb_xcalloc(2 * d->ngroups + 1, sizeof(*at));
    size_t *end = at + d->ngroups;
    size_t nres = 0;
    for (size_t g = 0; g < d->ngroups; g++) {
        s->res[g] = (unsigned char)rp_group_resident(d, &d->groups[g]);
        at[g] = nres;
        if (s->res[g])
            nres += d->groups[g].n;
        end[g] = nres;
    }
    /* the resident cells and the window in one allocation of their size
     * (grown by doubling, 400,000 cells of 100,000 machines held room for
     * 524,288) */
    size_t win = window_size(d);
    free(d->cells);
    d->ncells = nres;
    d->capcells = nres + win + 1;
    d->cells = pb_xcalloc(d->capcells, sizeof(*d->cells));
    /* each configuration's last test (a cell's test is 32 bits) */
    uint32_t *lastt = pb_xcalloc(d->nconfigs + 1, sizeof(*lastt));
    for (size_t i = 0; i < d->nconfigs; i++)
        lastt[i] = UINT32_MAX;
    size_t gcache = SIZE_MAX;
    for (size_t pos = 0; pos < s->written && !s->failed; pos += CHUNK) {
        size_t n = s->written - pos < CHUNK ? s->written - pos : CHUNK;
        if (read_cells(s, pos, n))
            break;
        for (size_t i = 0; i < n; i++) {
            const struct rp_cell *c = &s->buf[i];
            struct rp_config *cf = &d->configs[c->config];
            cf->nvals++;
            if (lastt[c->config] != c->test) {
                lastt[c->config] = c->test;
                cf->ntested++;
            }
            if (gcache == SIZE_MAX || d->groups[gcache].test != c->test ||
                d->groups[gcache].metric != c->metric)
                gcache = group_of(d, c->test, c->metric);
            if (gcache == SIZE_MAX || !s->res[gcache] ||
                at[gcache] == end[gcache])
                continue;
            d->cells[at[gcache]++] = *c;
        }
    }
    free(lastt);
    if (s->failed) {
        free(at);
        return pb_err_set(err, PB_EIO, NULL, 0, 0,
                          "cannot read the report's temporary file: %s",
                          strerror(s->failed));
    }
    for (size_t g = 0; g < d->ngroups; g++)
        if (s->res[g]) {
            size_t first = end[g] - d->groups[g].n;
            rp_cells_sort(d, s->morder, d->cells + first, d->groups[g].n);
            d->groups[g].first = first;
        }
    free(at);
    return PB_OK;
}

int rp_stream_check(const struct rp_data *d, struct pb_err *err)
{
    if (!d->stream || !d->stream->failed)
        return PB_OK;
    return pb_err_set(err, PB_EIO, NULL, 0, 0,
                      "cannot read the report's temporary file: %s",
                      strerror(d->stream->failed));
}

/* ==== outliers of cells on disk ==== */

static int cmp_side(const void *a, const void *b)
{
    const struct rp_cell *x = a, *y = b;
    if (x->test != y->test)
        return x->test < y->test ? -1 : 1;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    return x->config < y->config ? -1 : x->config > y->config;
}

struct rp_cell *rp_stream_side(const struct rp_data *d, size_t group,
                               size_t config)
{
    struct rp_stream *s = d->stream;
    PB_GROW(s->side, s->capside, s->nside + 1);
    struct rp_cell *c = &s->side[s->nside++];
    memset(c, 0, sizeof(*c));
    c->test = (uint32_t)d->groups[group].test;
    c->metric = (uint32_t)d->groups[group].metric;
    c->config = (uint32_t)config;
    s->side_sorted = 0;
    return c;
}

static void add_side(struct rp_stream *s, struct rp_cell *c)
{
    size_t lo = 0, hi = s->nside;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_side(&s->side[mid], c) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->nside && !cmp_side(&s->side[lo], c); lo++) {
        c->nrepeats += s->side[lo].nrepeats;
        c->outliers += s->side[lo].outliers;
    }
}

/* ==== the window ==== */

void rp_stream_test(const struct rp_data *d, size_t test)
{
    struct rp_stream *s = d->stream;
    if (!s || s->dropped || s->loaded == test || test >= d->ntests)
        return;
    if (s->loaded != SIZE_MAX)
        for (size_t g = s->tgroup[s->loaded];
             g < d->ngroups && d->groups[g].test == s->loaded; g++)
            if (!s->res[g])
                d->groups[g].first = SIZE_MAX;
    s->loaded = test;
    if (test >= s->ntests || !s->cnt[test] || s->tgroup[test] == SIZE_MAX)
        return;
    if (s->nside && !s->side_sorted) {
        qsort(s->side, s->nside, sizeof(*s->side), cmp_side);
        s->side_sorted = 1;
    }
    struct rp_cell *w = d->cells + d->ncells;
    size_t nw = 0, room = d->capcells - d->ncells;
    size_t end = s->off[test] + s->cnt[test];
    for (size_t at = s->off[test]; at < end; at += CHUNK) {
        size_t n = end - at < CHUNK ? end - at : CHUNK;
        if (read_cells(s, at, n))
            break;
        size_t gc = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            const struct rp_cell *c = &s->buf[i];
            if (gc == SIZE_MAX || d->groups[gc].metric != c->metric)
                gc = group_of(d, c->test, c->metric);
            if (gc == SIZE_MAX || !s->win[gc] || nw == room)
                continue;
            w[nw] = *c;
            if (s->nside)
                add_side(s, &w[nw]);
            nw++;
        }
    }
    /* the cells are a cache of d: loading them changes nothing d says */
    struct rp_data *dm = (struct rp_data *)d;
    rp_cells_sort(dm, s->morder, w, nw);
    set_first(dm, d->ncells, nw);
}

void rp_stream_drop(struct rp_data *d)
{
    struct rp_stream *s = d->stream;
    if (!s)
        return;
    free(d->cells);
    d->cells = NULL;
    d->ncells = d->capcells = 0;
    for (size_t g = 0; g < d->ngroups; g++)
        d->groups[g].first = SIZE_MAX;
    free(s->side);
    s->side = NULL;
    s->nside = s->capside = 0;
    s->loaded = SIZE_MAX;
    s->dropped = 1;
}
