/* The report's rows in report order (pb_db_each_report_row) and in a
 * table's own order (pb_db_each_ranked_row) without SQLite's sorter: one
 * pass over `result` in the order SQLite keeps it, the joins and filters
 * decided against the small tables read first, each kept row packed into
 * a 64-byte record and sorted by model/rsort.c; the texts (metric, job,
 * host, reason) come from those tables by id. SQLite's ORDER BY
 * (S_REPORT_ROWS, ranked.c) stays for what a record cannot hold: an id or
 * rank outside 0..2^32-1, or a source id that is not an integer.
 * docs/performance.md, "The report's own sort". A pass keeps its sort
 * (rkeep.c): the next pass over the same rows merges it again, and a pass
 * in a table's own order sorts the records of one in the report's order
 * instead of scanning `result` again. */
#include "model/db_int.h"
#include "model/rsort.h"

#include <stdlib.h>
#include <string.h>

#define FALLBACK (-1000) /* internal: read through S_REPORT_ROWS instead */

long long db_report_rows_path = 0;
long long db_report_rows_reused = 0;
long long db_report_rows_repacked = 0;
#define ID32(id) ((id) >= 0 && (id) <= (long long)UINT32_MAX)

/* ==== id -> small value (0 = absent) ==== */

/* Every array here is a db_map (model/rsort.h): 100,000 hosts make
 * arrays of MBs, and freeing them as malloc chunks raised the report's
 * peak RSS by 10 MB (glibc's mmap threshold). */

struct pair {
    long long id;
    uint32_t val;
};

struct idmap {
    struct db_map pm; /* pairs, sorted by id once sealed */
    size_t n;
    struct db_map dm; /* uint32_t by id - lo, when ids are dense enough */
    long long lo;
    size_t span;
    size_t last; /* sparse: the index found last */
};

static void idmap_add(struct idmap *m, long long id, uint32_t val)
{
    struct pair *p = db_map_reserve(&m->pm, (m->n + 1) * sizeof(*p));
    p[m->n].id = id;
    p[m->n].val = val;
    m->n++;
}

static int pair_cmp(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void idmap_seal(struct idmap *m)
{
    if (!m->n)
        return;
    struct pair *p = m->pm.p;
    qsort(p, m->n, sizeof(*p), pair_cmp);
    unsigned long long span =
        (unsigned long long)p[m->n - 1].id - (unsigned long long)p[0].id + 1;
    if (span && span <= 4 * (unsigned long long)m->n + 4096) {
        m->lo = p[0].id;
        m->span = (size_t)span;
        uint32_t *d = db_map_reserve(&m->dm, m->span * sizeof(*d));
        memset(d, 0, m->span * sizeof(*d));
        for (size_t i = 0; i < m->n; i++)
            d[(unsigned long long)p[i].id - (unsigned long long)m->lo] =
                p[i].val;
        db_map_free(&m->pm);
    }
}

static uint32_t idmap_get(struct idmap *m, long long id)
{
    if (m->dm.p) {
        unsigned long long k =
            (unsigned long long)id - (unsigned long long)m->lo;
        return k < m->span ? ((const uint32_t *)m->dm.p)[k] : 0;
    }
    const struct pair *p = m->pm.p;
    if (m->last < m->n && p[m->last].id == id)
        return p[m->last].val;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->n && p[lo].id == id) {
        m->last = lo;
        return p[lo].val;
    }
    return 0;
}

static void idmap_release(struct idmap *m)
{
    db_map_free(&m->pm);
    db_map_free(&m->dm);
}

/* ==== the small tables ==== */

/* Texts by index: offsets into the tables' one buffer of names (it may
 * move while tables load; read them once loaded). */
#define NO_TEXT SIZE_MAX
struct texts {
    struct db_map off;  /* size_t, NO_TEXT = NULL */
    struct db_map kept; /* hosts: unsigned char, kept by the filter */
    size_t n;
};

struct tables {
    struct db_map chars; /* every text, NUL-terminated */
    size_t nchars;
    struct idmap tests, configs, metrics, hosts, jobs, reasons, formats;
    struct texts mname, munit, mdir; /* by metric value - 1 */
    struct db_map mid;               /* long long by metric value - 1 */
    const struct pb_db_order *ord;   /* ranked: the caller's order */
    long long rank[2], rank_id[2];   /* rank_of's last config, test */
    int have_rank[2];
    struct texts host;   /* by host rank - 1, with kept */
    struct texts job;    /* by job rank - 1 */
    struct texts reason; /* by reason value - 1 */
    int null_host_kept;  /* a row without a host */
    int by_format;       /* formats filters */
    int ids_fit;         /* every kept id fits 32 bits */
    /* ranked: the caller's ranks of every test and configuration and the
     * ids of the metrics it wants, in table order (rkeep.c) */
    struct db_map fp;
    size_t nfp;
};

static void fp_add(struct tables *t, long long v)
{
    long long *p = db_map_reserve(&t->fp, (t->nfp + 1) * sizeof(*p));
    p[t->nfp++] = v;
}

static uint32_t texts_add(struct tables *t, struct texts *x, const char *s)
{
    size_t *off = db_map_reserve(&x->off, (x->n + 1) * sizeof(*off));
    if (s) {
        size_t len = strlen(s) + 1;
        char *c = db_map_reserve(&t->chars, t->nchars + len);
        memcpy(c + t->nchars, s, len);
        off[x->n] = t->nchars;
        t->nchars += len;
    } else
        off[x->n] = NO_TEXT;
    return (uint32_t)++x->n;
}

/* Text v - 1 of x (v 0: none). */
static inline const char *text_at(const struct tables *t, const struct texts *x,
                                  uint32_t v)
{
    if (!v)
        return NULL;
    size_t o = ((const size_t *)x->off.p)[v - 1];
    return o == NO_TEXT ? NULL : (const char *)t->chars.p + o;
}

static void texts_release(struct texts *x)
{
    db_map_free(&x->off);
    db_map_free(&x->kept);
}

static void tables_release(struct tables *t)
{
    idmap_release(&t->tests);
    idmap_release(&t->configs);
    idmap_release(&t->metrics);
    idmap_release(&t->hosts);
    idmap_release(&t->jobs);
    idmap_release(&t->reasons);
    idmap_release(&t->formats);
    db_map_free(&t->mid);
    texts_release(&t->mname);
    texts_release(&t->munit);
    texts_release(&t->mdir);
    texts_release(&t->host);
    texts_release(&t->job);
    texts_release(&t->reason);
    db_map_free(&t->chars);
    db_map_free(&t->fp);
}

enum table_kind {
    T_TESTS,
    T_CONFIGS,
    T_METRICS,
    T_HOSTS,
    T_NULL_HOST,
    T_JOBS,
    T_REASONS,
    T_FORMATS
};

/* ?1 is the filter's pattern (or format); NULL keeps every row. Rows
 * of hosts and jobs come by name: their rank (SQLite's BINARY order of
 * j.name and h.name in S_REPORT_ROWS; names are UNIQUE). */
static const char *const table_sql[] = {
    [T_TESTS] = "SELECT id FROM test WHERE ?1 IS NULL OR regexp(?1, name)",
    [T_CONFIGS] = "SELECT id FROM config WHERE ?1 IS NULL OR regexp(?1, label)",
    /* by name, unit and id: the ranked order's (the report's is by id,
     * from the id itself) */
    [T_METRICS] = "SELECT id, name, unit, direction FROM metric WHERE "
                  "?1 IS NULL OR regexp(?1, name) ORDER BY name, unit, id",
    [T_HOSTS] = "SELECT id, name, ?1 IS NULL OR regexp(?1, name) FROM host "
                "ORDER BY name",
    [T_NULL_HOST] = "SELECT ?1 IS NULL OR regexp(?1, '')",
    [T_JOBS] = "SELECT id, name FROM job ORDER BY name",
    [T_REASONS] = "SELECT id, text FROM reason",
    [T_FORMATS] = "SELECT id FROM source WHERE format = ?1",
};

static void table_row(struct tables *t, enum table_kind k, sqlite3_stmt *q)
{
    long long id = sqlite3_column_int64(q, 0);
    switch (k) {
    case T_TESTS:
    case T_CONFIGS:
        if (!ID32(id))
            t->ids_fit = 0;
        /* ranked: the value is where the caller's rank is in fp (+ 1),
         * for rank_of */
        if (t->ord && t->nfp < UINT32_MAX)
            fp_add(t, k == T_TESTS ? t->ord->test_rank(t->ord->ctx, id)
                                   : t->ord->config_rank(t->ord->ctx, id));
        else if (t->ord)
            t->ids_fit = 0;
        idmap_add(k == T_TESTS ? &t->tests : &t->configs, id,
                  t->ord ? (uint32_t)t->nfp : 1);
        break;
    case T_METRICS: {
        const char *name = db_col_text(q, 1);
        if (t->ord && !t->ord->want_metric(t->ord->ctx, name ? name : ""))
            break;
        if (!ID32(id))
            t->ids_fit = 0;
        if (t->ord)
            fp_add(t, id);
        texts_add(t, &t->munit, db_col_text(q, 2));
        texts_add(t, &t->mdir, db_col_text(q, 3));
        uint32_t v = texts_add(t, &t->mname, name);
        long long *ids = db_map_reserve(&t->mid, v * sizeof(*ids));
        ids[v - 1] = id;
        idmap_add(&t->metrics, id, v);
        break;
    }
    case T_HOSTS: {
        /* only the rank when the caller reads no host name */
        uint32_t rank = t->ord && t->ord->no_host
                            ? (uint32_t)++t->host.n
                            : texts_add(t, &t->host, db_col_text(q, 1));
        unsigned char *kept = db_map_reserve(&t->host.kept, rank);
        kept[rank - 1] = sqlite3_column_int(q, 2) != 0;
        idmap_add(&t->hosts, id, rank);
        break;
    }
    case T_NULL_HOST:
        t->null_host_kept = sqlite3_column_int(q, 0) != 0;
        break;
    case T_JOBS:
        idmap_add(&t->jobs, id, texts_add(t, &t->job, db_col_text(q, 1)));
        break;
    case T_REASONS:
        if (t->reason.n + 1 >= DB_RSORT_MAX_REASONS)
            t->ids_fit = 0;
        idmap_add(&t->reasons, id, texts_add(t, &t->reason, db_col_text(q, 1)));
        break;
    case T_FORMATS:
        idmap_add(&t->formats, id, 1);
        break;
    }
}

static int load_table(struct pb_db *db, struct tables *t, enum table_kind k,
                      const char *arg, struct pb_err *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, table_sql[k], -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read results");
    if (k != T_JOBS && k != T_REASONS)
        db_bind_text(q, 1, arg);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        table_row(t, k, q);
    rc = db_finish_query(db, q, rc, 0, err);
    sqlite3_finalize(q);
    return rc;
}

static int load_tables(struct pb_db *db, const struct pb_db_filter *f,
                       const struct pb_db_order *ord, struct tables *t,
                       struct pb_err *err)
{
    static const struct pb_db_filter all;
    if (!f)
        f = &all;
    t->ord = ord;
    t->ids_fit = 1;
    t->by_format = f->format != NULL;
    const char *arg[] = {
        [T_TESTS] = f->test_re,     [T_CONFIGS] = f->config_re,
        [T_METRICS] = f->metric_re, [T_HOSTS] = f->host_re,
        [T_NULL_HOST] = f->host_re, [T_JOBS] = NULL,
        [T_REASONS] = NULL,         [T_FORMATS] = f->format,
    };
    for (int k = T_TESTS; k <= T_FORMATS; k++) {
        if ((k == T_FORMATS && !t->by_format) || (k == T_JOBS && ord))
            continue; /* the ranked order reads no job */
        int rc = load_table(db, t, (enum table_kind)k, arg[k], err);
        if (rc)
            return rc;
    }
    idmap_seal(&t->tests);
    idmap_seal(&t->configs);
    idmap_seal(&t->metrics);
    idmap_seal(&t->hosts);
    idmap_seal(&t->jobs);
    idmap_seal(&t->reasons);
    idmap_seal(&t->formats);
    return PB_OK;
}

/* ==== one pass into the sorter ==== */

/* result in rowid order (a plain scan: no sort); ?1/?2 the kept source id
 * range as S_REPORT_ROWS' ?6/?7 */
static const char scan_sql[] =
    "SELECT id, test_id, metric_id, config_id, source_id, job_id, host_id, "
    "value, reason_id, stderr, samples FROM result "
    "WHERE ?1 IS NULL OR source_id BETWEEN ?1 AND ?2";

/* The caller's rank of a config (kind 0) or test (1): the one asked
 * for it when its table loaded (in fp); else asked now, the last one
 * cached. */
static long long rank_of(struct tables *t, int kind, long long id)
{
    uint32_t v = idmap_get(kind ? &t->tests : &t->configs, id);
    if (v)
        return ((const long long *)t->fp.p)[v - 1];
    if (!t->have_rank[kind] || t->rank_id[kind] != id) {
        t->rank[kind] = kind ? t->ord->test_rank(t->ord->ctx, id)
                             : t->ord->config_rank(t->ord->ctx, id);
        t->rank_id[kind] = id;
        t->have_rank[kind] = 1;
    }
    return t->rank[kind];
}

/* Whether a column's value is an INTEGER. pack_row reads a row so: each
 * sqlite3_column_* call finds the column and checks for a failed malloc
 * (the mutex calls too, no-ops on our NOMUTEX connections); one
 * sqlite3_column_value per column and sqlite3_value_* calls on it do
 * that once (3.5 M rows x 11 columns in the 100,000-machine bonnie++
 * report: SQLite's column calls 8.2 -> 6.1 % of the CPU). The values are
 * read here, on the thread that steps the statement, before the next
 * step: SQLite's "unprotected" values need no more. */
static inline int v_int(sqlite3_value *v)
{
    return sqlite3_value_type(v) == SQLITE_INTEGER;
}

/* The row's record into x; 0 when the joins or filters drop it,
 * FALLBACK when a record cannot hold it. */
static int pack_row(struct tables *t, const struct pb_db_filter *f,
                    sqlite3_stmt *q, struct db_rsort_rec *x)
{
    sqlite3_value *c[11];
    for (int i = 0; i < 11; i++)
        c[i] = sqlite3_column_value(q, i);
    /* the inner joins: a test, metric and configuration that exist (an
     * id of another type matches no INTEGER PRIMARY KEY) */
    if (!v_int(c[1]) || !v_int(c[2]) || !v_int(c[3]))
        return 0;
    long long tid = sqlite3_value_int64(c[1]);
    long long mid = sqlite3_value_int64(c[2]);
    long long cid = sqlite3_value_int64(c[3]);
    uint32_t metric = idmap_get(&t->metrics, mid);
    if (!metric || !idmap_get(&t->tests, tid) || !idmap_get(&t->configs, cid))
        return 0;
    /* the left joins: a missing host, job or reason is NULL */
    uint32_t host = 0, job = 0, reason = 0;
    if (v_int(c[6]))
        host = idmap_get(&t->hosts, sqlite3_value_int64(c[6]));
    if (!(host ? ((const unsigned char *)t->host.kept.p)[host - 1]
               : t->null_host_kept))
        return 0;
    if (!v_int(c[4]))
        return FALLBACK;
    long long sid = sqlite3_value_int64(c[4]);
    if (t->by_format && !idmap_get(&t->formats, sid))
        return 0;
    if (!db_source_kept(f, sid))
        return 0;
    if (!ID32(sid))
        return FALLBACK;
    if (v_int(c[8]))
        reason = idmap_get(&t->reasons, sqlite3_value_int64(c[8]));
    if (t->ord) {
        /* ck, tk, m.name, m.unit, r.metric_id (metric: its rank in that
         * order), r.test_id, r.source_id, h.name, r.id */
        long long ck = rank_of(t, 0, cid), tk = rank_of(t, 1, tid);
        if (ck < 0 || tk < 0)
            return 0;
        if (!ID32(ck) || !ID32(tk))
            return FALLBACK;
        x->k0 = (uint64_t)ck << 32 | (uint64_t)tk;
        x->k1 = (uint64_t)metric << 32 | (uint64_t)tid;
        x->k2 = (uint64_t)sid << 32 | host;
        x->aux = (uint32_t)cid;
    } else {
        if (v_int(c[5]))
            job = idmap_get(&t->jobs, sqlite3_value_int64(c[5]));
        x->k0 = (uint64_t)tid << 32 | (uint64_t)mid;
        x->k1 = (uint64_t)cid << 32 | (uint64_t)sid;
        x->k2 = (uint64_t)job << 32 | host;
        x->aux = 0;
    }
    x->k3 = db_rsort_id_key(sqlite3_value_int64(c[0]));
    x->flags = reason << DB_RSORT_REASON_SHIFT;
    if (sqlite3_value_type(c[7]) != SQLITE_NULL)
        x->flags |= DB_RSORT_VALUE;
    x->value = sqlite3_value_double(c[7]);
    if (sqlite3_value_type(c[9]) != SQLITE_NULL)
        x->flags |= DB_RSORT_STDERR;
    x->stderr_ = sqlite3_value_double(c[9]);
    x->samples = sqlite3_value_int64(c[10]);
    return 1;
}

static int scan(struct pb_db *db, const struct pb_db_filter *f,
                struct tables *t, struct db_rsort *s, struct pb_err *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, scan_sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read results");
    if (f && f->source_ids && f->nsource_ids) {
        sqlite3_bind_int64(q, 1, f->source_ids[0]);
        sqlite3_bind_int64(q, 2, f->source_ids[f->nsource_ids - 1]);
    }
    int rc, out = PB_OK;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct db_rsort_rec x;
        int k = pack_row(t, f, q, &x);
        if (k == FALLBACK) {
            out = FALLBACK;
            break;
        }
        if (k && (out = db_rsort_add(s, &x, err)) != PB_OK)
            break;
    }
    if (out)
        sqlite3_reset(q);
    else
        out = db_finish_query(db, q, rc, 0, err);
    sqlite3_finalize(q);
    return out;
}

/* A table's own order from the records of a sort kept in the report's
 * order of the same filter (rkeep.c): the same rows, without reading
 * `result` again; those of metrics the caller does not want, or of
 * configurations and tests it leaves out, dropped as pack_row drops
 * them. */
struct repack {
    struct tables *t;
    struct db_rsort *s;
    struct pb_err *err;
};

static int repack_row(void *ctx, const struct db_rsort_rec *in)
{
    struct repack *p = ctx;
    struct tables *t = p->t;
    long long tid = (long long)(in->k0 >> 32);
    long long cid = (long long)(in->k1 >> 32);
    uint32_t metric = idmap_get(&t->metrics, (long long)(in->k0 & UINT32_MAX));
    if (!metric)
        return 0;
    long long ck = rank_of(t, 0, cid), tk = rank_of(t, 1, tid);
    if (ck < 0 || tk < 0)
        return 0;
    if (!ID32(ck) || !ID32(tk))
        return FALLBACK;
    struct db_rsort_rec x = *in; /* value, stderr, samples, reason, id */
    x.k0 = (uint64_t)ck << 32 | (uint64_t)tk;
    x.k1 = (uint64_t)metric << 32 | (uint64_t)tid;
    x.k2 = (in->k1 & UINT32_MAX) << 32 | (in->k2 & UINT32_MAX);
    x.aux = (uint32_t)cid;
    return db_rsort_add(p->s, &x, p->err);
}

/* The ranked sort of rows's records into *out; non-zero (nothing given
 * yet, err clear) when the caller must scan `result` instead. */
static int repack(struct tables *t, struct db_rsort *rows,
                  struct db_rsort **out, struct pb_err *err)
{
    struct repack p = {t, db_rsort_new(0), err};
    int rc = db_rsort_each_parked(rows, repack_row, &p, err);
    db_rsort_free(rows);
    if (rc) {
        db_rsort_free(p.s);
        pb_err_clear(err);
        return rc;
    }
    *out = p.s;
    return PB_OK;
}

/* ==== handing rows to the callback ==== */

/* The texts of metric value m (0: none) into r. */
static void metric_texts(const struct tables *t, uint32_t m,
                         struct pb_db_rrow *r)
{
    r->metric = text_at(t, &t->mname, m);
    r->unit = text_at(t, &t->munit, m);
    r->direction = text_at(t, &t->mdir, m);
}

/* What both orders carry alike: value, stderr, samples, reason. */
static void payload(const struct tables *t, const struct db_rsort_rec *x,
                    struct pb_db_rrow *r)
{
    uint32_t reason = x->flags >> DB_RSORT_REASON_SHIFT;
    r->has_value = (x->flags & DB_RSORT_VALUE) != 0;
    r->value = x->value;
    r->null_reason = text_at(t, &t->reason, reason);
    r->has_stderr = (x->flags & DB_RSORT_STDERR) != 0;
    r->stderr_ = x->stderr_;
    r->samples = (long)x->samples;
}

static int give_sorted(struct tables *t, struct db_rsort *s, pb_db_rrow_cb cb,
                       void *ctx, struct pb_err *err)
{
    int rc;
    const struct db_rsort_rec *x;
    long long last_metric = -1;
    struct pb_db_rrow r;
    memset(&r, 0, sizeof(r));
    while ((rc = db_rsort_next(s, &x, err)) == PB_OK && x) {
        r.test_id = (long long)(x->k0 >> 32);
        r.metric_id = (long long)(x->k0 & UINT32_MAX);
        r.config_id = (long long)(x->k1 >> 32);
        r.source_id = (long long)(x->k1 & UINT32_MAX);
        if (r.metric_id != last_metric) /* rows come by metric */
            metric_texts(t, idmap_get(&t->metrics, last_metric = r.metric_id),
                         &r);
        uint32_t job = (uint32_t)(x->k2 >> 32), host = (uint32_t)x->k2;
        r.job = text_at(t, &t->job, job);
        r.host = text_at(t, &t->host, host);
        payload(t, x, &r);
        int stop = cb(ctx, &r);
        if (stop)
            return stop;
    }
    return rc;
}

static int give_ranked(struct tables *t, struct db_rsort *s, pb_db_ranked_cb cb,
                       void *ctx, struct pb_err *err)
{
    int rc;
    const struct db_rsort_rec *x;
    struct pb_db_ranked r;
    memset(&r, 0, sizeof(r));
    while ((rc = db_rsort_next(s, &x, err)) == PB_OK && x) {
        r.config_rank = (long long)(x->k0 >> 32);
        r.test_rank = (long long)(x->k0 & UINT32_MAX);
        uint32_t metric = (uint32_t)(x->k1 >> 32);
        r.row.metric_id = ((const long long *)t->mid.p)[metric - 1];
        metric_texts(t, metric, &r.row);
        r.row.test_id = (long long)(x->k1 & UINT32_MAX);
        r.row.source_id = (long long)(x->k2 >> 32);
        uint32_t host = (uint32_t)x->k2;
        r.row.host = t->ord->no_host ? NULL : text_at(t, &t->host, host);
        r.row.config_id = (long long)x->aux;
        r.row.job = NULL; /* not read */
        payload(t, x, &r.row);
        r.result_id = db_rsort_key_id(x->k3);
        int stop = cb(ctx, &r);
        if (stop)
            return stop;
    }
    return rc;
}

/* SQLite's ORDER BY: the same rows, for ids a record cannot hold. */
static int rows_by_sql(struct pb_db *db, const struct pb_db_filter *f,
                       struct tables *t, pb_db_rrow_cb cb, void *ctx,
                       struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_REPORT_ROWS, err);
    if (!q)
        return PB_EDB;
    db_bind_filter(q, f, 1);
    int rc, stop = 0;
    long long last_metric = -1;
    struct pb_db_rrow r;
    memset(&r, 0, sizeof(r));
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        r.test_id = sqlite3_column_int64(q, 0);
        r.metric_id = sqlite3_column_int64(q, 1);
        r.config_id = sqlite3_column_int64(q, 2);
        r.source_id = sqlite3_column_int64(q, 3);
        if (!db_source_kept(f, r.source_id))
            continue;
        if (r.metric_id != last_metric || last_metric == -1)
            metric_texts(t, idmap_get(&t->metrics, last_metric = r.metric_id),
                         &r);
        r.job = db_col_text(q, 4);
        r.host = db_col_text(q, 5);
        r.has_value = sqlite3_column_type(q, 6) != SQLITE_NULL;
        r.value = sqlite3_column_double(q, 6);
        r.null_reason = db_col_text(q, 7);
        r.has_stderr = sqlite3_column_type(q, 8) != SQLITE_NULL;
        r.stderr_ = sqlite3_column_double(q, 8);
        r.samples = (long)sqlite3_column_int64(q, 9);
        if ((stop = cb(ctx, &r)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}

/* ==== the two orders ==== */

/* The tables and the pass see one snapshot, as one query did. */
static int txn_begin(struct pb_db *db, int *own, struct pb_err *err)
{
    *own = sqlite3_get_autocommit(db->h);
    if (*own && sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read results");
    return PB_OK;
}

static void txn_end(struct pb_db *db, int own)
{
    if (own)
        sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
}

/* Load the tables (t is always set: release it) and pass every kept row
 * into a sort (*out), or take the sort kept from the last pass over the
 * same rows (*kept = 1: merge it again with db_rsort_rewind); *st is the
 * database's state for db_rkeep_put. FALLBACK, with nothing given to any
 * callback, when a record cannot hold an id or rank or no temporary file
 * can be made: SQLite sorts then. */
static int sorted_pass(struct pb_db *db, const struct pb_db_filter *f,
                       const struct pb_db_order *ord, struct tables *t,
                       struct db_rsort **out, int *kept, struct db_rstate *st,
                       struct pb_err *err)
{
    *out = NULL;
    *kept = 0;
    memset(st, 0, sizeof(*st));
    memset(t, 0, sizeof(*t));
    int rc = load_tables(db, f, ord, t, err);
    if (rc)
        return rc;
    db_rstate_now(db, st); /* in the read transaction the tables began */
    struct db_rsort *rows,
        *s = db_rkeep_take(db, f, ord, st, (const long long *)t->fp.p, t->nfp,
                           &rows);
    if (s) {
        *out = s;
        *kept = 1;
        db_report_rows_reused++;
        return PB_OK;
    }
    if (!t->ids_fit) {
        db_rsort_free(rows);
        return FALLBACK;
    }
    if (rows && repack(t, rows, out, err) == PB_OK) {
        db_report_rows_repacked++;
        return PB_OK;
    }
    s = db_rsort_new(0);
    rc = scan(db, f, t, s, err);
    if (rc == FALLBACK || (rc == PB_EIO && !db_rsort_runs(s))) {
        db_rsort_free(s);
        pb_err_clear(err);
        return FALLBACK;
    }
    *out = s;
    return rc;
}

/* After the rows were given (rc): keep the sort for the next pass over
 * the same rows when it went well, else free it. */
static void keep_sort(struct pb_db *db, const struct pb_db_filter *f,
                      const struct pb_db_order *ord, const struct tables *t,
                      const struct db_rstate *st, struct db_rsort *s, int rc)
{
    if (!s)
        return;
    if (rc != PB_OK) {
        db_rsort_free(s);
        return;
    }
    db_rkeep_put(db, f, ord, st, (const long long *)t->fp.p, t->nfp, s);
}

int pb_db_each_report_row(struct pb_db *db, const struct pb_db_filter *f,
                          pb_db_rrow_cb cb, void *ctx, struct pb_err *err)
{
    int own, rc = txn_begin(db, &own, err);
    if (rc)
        return rc;
    struct tables t;
    struct db_rsort *s;
    struct db_rstate st;
    int kept;
    rc = sorted_pass(db, f, NULL, &t, &s, &kept, &st, err);
    if (rc == FALLBACK)
        rc = rows_by_sql(db, f, &t, cb, ctx, err);
    txn_end(db, own);
    if (!rc && s)
        rc = kept ? db_rsort_rewind(s, err) : db_rsort_finish(s, err);
    db_report_rows_path = s ? (long long)db_rsort_runs(s) : -1;
    if (!rc && s)
        rc = give_sorted(&t, s, cb, ctx, err);
    keep_sort(db, f, NULL, &t, &st, s, rc);
    tables_release(&t);
    return rc;
}

int pb_db_each_ranked_row(struct pb_db *db, const struct pb_db_filter *f,
                          const struct pb_db_order *ord, pb_db_ranked_cb cb,
                          void *ctx, struct pb_err *err)
{
    int own, rc = txn_begin(db, &own, err);
    if (rc)
        return rc;
    struct tables t;
    struct db_rsort *s;
    struct db_rstate st;
    int kept;
    rc = sorted_pass(db, f, ord, &t, &s, &kept, &st, err);
    txn_end(db, own);
    if (rc == FALLBACK)
        rc = db_each_ranked_row_sql(db, f, ord, cb, ctx, err);
    if (!rc && s)
        rc = kept ? db_rsort_rewind(s, err) : db_rsort_finish(s, err);
    db_report_rows_path = s ? (long long)db_rsort_runs(s) : -1;
    if (!rc && s)
        rc = give_ranked(&t, s, cb, ctx, err);
    keep_sort(db, f, ord, &t, &st, s, rc);
    tables_release(&t);
    return rc;
}
