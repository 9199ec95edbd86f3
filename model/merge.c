/* Merging another poolbench database (`poolbench ingest other.db`): its
 * sources are read back as result sets, one per source, and stored with
 * pb_db_store like parsed files, so the SHA-256 rule, own and attached
 * configuration dimensions (with their origins) and re-keying work exactly
 * as for files; the per-repeat samples and the time of the first ingest
 * follow in the same savepoint. Opening, checking and copying the other
 * file: merge_open.c. Rules: docs/model.md, "Merging databases". */
#define _GNU_SOURCE
#include "model/merge_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* id -> index map (open addressing; ids are never 0) */
struct idmap {
    long long *k;
    size_t *v;
    size_t n, cap;
};

static size_t *idmap_slot(struct idmap *m, long long k)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        long long *nk = pb_xcalloc(cap, sizeof(*nk));
        size_t *nv = pb_xcalloc(cap, sizeof(*nv));
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->k[i])
                continue;
            size_t j = ((size_t)m->k[i] * 11400714819323198485u) & (cap - 1);
            while (nk[j])
                j = (j + 1) & (cap - 1);
            nk[j] = m->k[i];
            nv[j] = m->v[i];
        }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = cap;
    }
    size_t j = ((size_t)k * 11400714819323198485u) & (m->cap - 1);
    while (m->k[j] && m->k[j] != k)
        j = (j + 1) & (m->cap - 1);
    if (!m->k[j]) {
        m->k[j] = k;
        m->v[j] = (size_t)-1;
        m->n++;
    }
    return &m->v[j];
}

static void idmap_clear(struct idmap *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof(*m));
}

/* A new config entry of set (two own configurations of one label stay
 * two entries, unlike pb_rs_config, which finds configs by label). */
static size_t add_config(struct pb_resultset *set, const char *label)
{
    PB_GROW(set->configs, set->capconfigs, set->nconfigs + 1);
    struct pb_config *c = &set->configs[set->nconfigs];
    memset(c, 0, sizeof(*c));
    c->label = pb_rs_str(set, label ? label : "");
    return set->nconfigs++;
}

/* The config entry of own configuration own_id (or, with own_id 0, of
 * config config_id as its own: a database from before own configs). */
static int config_of(struct pb_db_merge *m, struct pb_resultset *set,
                     long long own_id, long long config_id, size_t *out,
                     struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, own_id ? M_OWN : M_CONFIG, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, own_id ? own_id : config_id);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_reset(q);
        return pb_err_set(err, PB_EDB, m->path, 0, 0,
                          "broken database: no configuration %lld",
                          own_id ? own_id : config_id);
    }
    *out = add_config(set, db_col_text(q, 0));
    sqlite3_reset(q);
    if (!(q = mg_stmt(m, own_id ? M_OWN_PARAMS : M_CONFIG_PARAMS, err)))
        return PB_EDB;
    sqlite3_bind_int64(q, 1, own_id ? own_id : config_id);
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        const char *origin = db_col_text(q, 2);
        if (mg_need(m, q, 0, "a configuration parameter's key", err)) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        if (!own_id && db_origin_attached(origin))
            continue; /* comes with the source that attached it */
        const char *v = db_col_text(q, 1);
        pb_rs_config_param_origin(set, *out, db_col_text(q, 0), v ? v : "",
                                  origin);
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

static int test_of(struct pb_db_merge *m, struct pb_resultset *set,
                   long long test_id, size_t *out, struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_TEST, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, test_id);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_reset(q);
        return pb_err_set(err, PB_EDB, m->path, 0, 0,
                          "broken database: no test %lld", test_id);
    }
    if (mg_need(m, q, 1, "test.name", err)) {
        sqlite3_reset(q);
        return PB_EDB;
    }
    const char *tool = db_col_text(q, 0);
    /* interned: they outlive the statement */
    const char *name = pb_rs_str(set, db_col_text(q, 1));
    tool = pb_rs_str(set, tool ? tool : "");
    sqlite3_reset(q);
    if (!(q = mg_stmt(m, M_TEST_PARAMS, err)))
        return PB_EDB;
    sqlite3_bind_int64(q, 1, test_id);
    /* tests of one name with other parameters stay apart, as the set
     * keys them (pb_rs_test_kv) */
    struct pb_kv *kv = NULL;
    size_t n = 0, cap = 0;
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        if (mg_need(m, q, 0, "test_param.key", err)) {
            sqlite3_reset(q);
            free(kv);
            return PB_EDB;
        }
        const char *v = db_col_text(q, 1);
        PB_GROW(kv, cap, n + 1);
        kv[n].key = pb_rs_str(set, db_col_text(q, 0));
        kv[n].value = pb_rs_str(set, v ? v : "");
        kv[n++].origin = NULL;
    }
    sqlite3_reset(q);
    if (st == SQLITE_DONE)
        *out = pb_rs_test_kv(set, name, tool, kv, n);
    free(kv);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

static int read_results(struct pb_db_merge *m, struct pb_resultset *set,
                        struct pb_err *err)
{
    struct idmap own = {0}, tests = {0};
    sqlite3_stmt *q = mg_stmt(m, M_RESULTS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, m->cur->id);
    int rc = PB_OK, st;
    while (!rc && (st = sqlite3_step(q)) == SQLITE_ROW) {
        long long own_id = sqlite3_column_int64(q, 1);
        long long cfg_id = sqlite3_column_int64(q, 2);
        long long test_id = sqlite3_column_int64(q, 3);
        size_t *ci = idmap_slot(&own, own_id ? own_id : -cfg_id);
        if (*ci == (size_t)-1 &&
            (rc = config_of(m, set, own_id, cfg_id, ci, err)))
            break;
        size_t *ti = idmap_slot(&tests, test_id);
        if (*ti == (size_t)-1 && (rc = test_of(m, set, test_id, ti, err)))
            break;
        if ((rc = mg_need(m, q, 6, "metric.name", err)))
            break;
        const char *unit = db_col_text(q, 7);
        if (!unit)
            unit = "";
        const char *dir = db_col_text(q, 8);
        int d = dir && !strcmp(dir, "lower") ? PB_DIR_LOWER : PB_DIR_HIGHER;
        struct pb_result *r;
        if (sqlite3_column_type(q, 9) == SQLITE_NULL)
            r = pb_rs_add_null(set, *ci, *ti, db_col_text(q, 4),
                               db_col_text(q, 5), db_col_text(q, 6), unit, d,
                               db_col_text(q, 10));
        else
            r = pb_rs_add(set, *ci, *ti, db_col_text(q, 4), db_col_text(q, 5),
                          db_col_text(q, 6), unit, d,
                          sqlite3_column_double(q, 9));
        if (sqlite3_column_type(q, 11) != SQLITE_NULL) {
            r->has_stderr = 1;
            r->stderr_ = sqlite3_column_double(q, 11);
        }
        r->samples = (long)sqlite3_column_int64(q, 12);
        PB_GROW(m->res_ids, m->capres, m->nres + 1);
        m->res_ids[m->nres++] = sqlite3_column_int64(q, 0);
    }
    if (!rc && st != SQLITE_DONE)
        rc = mg_fail(m, err);
    sqlite3_reset(q);
    idmap_clear(&own);
    idmap_clear(&tests);
    return rc;
}

/* Dimensions the source attached to labels (a sheet's rows, a
 * companion's layout): one config entry per label, without results, so
 * that pb_db_store attaches them again. */
static int read_label_params(struct pb_db_merge *m, struct pb_resultset *set,
                             struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_LABEL_PARAMS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, m->cur->id);
    size_t first = set->nconfigs;
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        if (mg_need(m, q, 0, "label_param.label", err) ||
            mg_need(m, q, 1, "label_param.key", err) ||
            mg_need(m, q, 3, "label_param.origin", err)) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        const char *label = db_col_text(q, 0);
        size_t ci = set->nconfigs;
        for (size_t i = first; i < set->nconfigs; i++)
            if (!strcmp(set->configs[i].label, label))
                ci = i;
        if (ci == set->nconfigs)
            ci = add_config(set, label);
        const char *v = db_col_text(q, 2);
        pb_rs_config_param_origin(set, ci, db_col_text(q, 1), v ? v : "",
                                  db_col_text(q, 3));
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* The latency distributions (schema v5) behind the source's results:
 * onto the set, by result index, so that pb_db_store stores them. */
static int read_hists(struct pb_db_merge *m, struct pb_resultset *set,
                      struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_HISTS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, m->cur->id);
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(q, 0);
        long long *hit = m->nres ? bsearch(&id, m->res_ids, m->nres,
                                           sizeof(*m->res_ids), cmp_ll)
                                 : NULL;
        sqlite3_int64 n = sqlite3_column_int64(q, 2);
        const unsigned char *blob = sqlite3_column_blob(q, 3);
        size_t len = (size_t)sqlite3_column_bytes(q, 3);
        if (!hit || sqlite3_column_type(q, 1) == SQLITE_NULL || n <= 0 ||
            (size_t)n > len)
            continue; /* as the report does with a blob it cannot read */
        uint64_t *val = pb_arena_alloc(&set->arena, (size_t)n * sizeof(*val));
        uint64_t *cnt = pb_arena_alloc(&set->arena, (size_t)n * sizeof(*cnt));
        if (pb_db_hist_decode(blob, len, (size_t)n, val, cnt) != 0)
            continue;
        PB_GROW(set->hists, set->caphists, set->nhists + 1);
        struct pb_hist *h = &set->hists[set->nhists++];
        h->result = (size_t)(hit - m->res_ids);
        h->kind = pb_rs_str(set, db_col_text(q, 1));
        h->n = (size_t)n;
        h->value = val;
        h->count = cnt;
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

static double col_num(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL
               ? NAN
               : sqlite3_column_double(q, i);
}

/* The time series of fio logs (schema v6) behind the source's results:
 * onto the set, by result index, with their points. */
static int read_series(struct pb_db_merge *m, struct pb_resultset *set,
                       struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_SERIES, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, m->cur->id);
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(q, 1);
        long long *hit = m->nres ? bsearch(&id, m->res_ids, m->nres,
                                           sizeof(*m->res_ids), cmp_ll)
                                 : NULL;
        if (!hit || mg_need(m, q, 2, "series.name", err) ||
            mg_need(m, q, 3, "series.unit", err) ||
            mg_need(m, q, 4, "series.kind", err)) {
            if (!hit)
                continue;
            sqlite3_reset(q);
            return PB_EDB;
        }
        struct pb_series *sr = pb_rs_series(
            set, (size_t)(hit - m->res_ids), db_col_text(q, 2),
            db_col_text(q, 3), db_col_text(q, 4),
            (long)sqlite3_column_int64(q, 5));
        sqlite3_stmt *pq = mg_stmt(m, M_SERIES_POINTS, err);
        if (!pq) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        sqlite3_bind_int64(pq, 1, sqlite3_column_int64(q, 0));
        int pst;
        while ((pst = sqlite3_step(pq)) == SQLITE_ROW) {
            struct pb_point p = {
                .t_ms = sqlite3_column_int64(pq, 0),
                .value = col_num(pq, 1),
                .n = sqlite3_column_int64(pq, 2),
                .min = col_num(pq, 3),
                .max = col_num(pq, 4),
                .p50 = col_num(pq, 5),
                .p90 = col_num(pq, 6),
                .p95 = col_num(pq, 7),
                .p99 = col_num(pq, 8),
                .p999 = col_num(pq, 9),
            };
            pb_series_add(sr, &p);
        }
        sqlite3_reset(pq);
        if (pst != SQLITE_DONE) {
            sqlite3_reset(q);
            return mg_fail(m, err);
        }
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

static int read_facts(struct pb_db_merge *m, struct pb_resultset *set,
                      struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_FACTS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, m->cur->id);
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        if (mg_need(m, q, 1, "fact.key", err)) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        pb_rs_fact(set, db_col_text(q, 0), db_col_text(q, 1),
                   db_col_text(q, 2));
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

int pb_db_merge_next(struct pb_db_merge *m, struct pb_resultset **out,
                     struct pb_err *err)
{
    *out = NULL;
    m->cur = NULL;
    m->nres = 0;
    if (m->next >= m->nsrc)
        return PB_OK;
    m->cur = &m->src[m->next++];
    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, m->cur->path);
    set->format = pb_rs_str(set, m->cur->format);
    set->tool_version = pb_rs_str(set, m->cur->tool_version);
    snprintf(set->sha256, sizeof(set->sha256), "%s",
             m->cur->sha256 ? m->cur->sha256 : "");
    set->size = m->cur->size > 0 ? (size_t)m->cur->size : 0;
    int rc = read_results(m, set, err);
    if (!rc)
        rc = read_label_params(m, set, err);
    if (!rc)
        rc = read_facts(m, set, err);
    if (!rc)
        rc = read_hists(m, set, err);
    if (!rc)
        rc = read_series(m, set, err);
    if (rc) {
        pb_resultset_free(set);
        m->cur = NULL;
        return rc;
    }
    *out = set;
    return PB_OK;
}

/* Run sql (no parameters) on the target. */
static int target_exec(struct pb_db *db, const char *sql, struct pb_err *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) == SQLITE_OK)
        return PB_OK;
    pb_err_set(err, PB_EDB, db->path, 0, 0, "cannot merge: %s",
               msg ? msg : sqlite3_errmsg(db->h));
    sqlite3_free(msg);
    return PB_EDB;
}


/* After pb_db_store: the new source's first ingest time, and the samples
 * of its results (old result ids -> new ones, both in result order). */
static int store_extras(struct pb_db *db, struct pb_db_merge *m,
                        const struct pb_resultset *set, struct pb_err *err)
{
    sqlite3_stmt *q = NULL, *ids_q = NULL, *ins = NULL, *smp = NULL;
    long long *ids = NULL;
    size_t nids = 0, cap = 0;
    int rc = PB_EDB, st;
    if (sqlite3_prepare_v2(db->h, "UPDATE source SET ingested_at = ?2 "
                           "WHERE sha256 = ?1 RETURNING id", -1, &q,
                           NULL) != SQLITE_OK)
        goto fail;
    db_bind_text(q, 1, set->sha256);
    db_bind_text(q, 2, m->cur->ingested_at);
    long long source_id = 0;
    if (sqlite3_step(q) == SQLITE_ROW)
        source_id = sqlite3_column_int64(q, 0);
    if (sqlite3_step(q) != SQLITE_DONE || !source_id)
        goto fail;
    sqlite3_finalize(q);
    q = NULL;
    if (!(ids_q = db_stmt(db, S_SOURCE_RESULT_IDS, err)))
        goto out;
    sqlite3_bind_int64(ids_q, 1, source_id);
    while ((st = sqlite3_step(ids_q)) == SQLITE_ROW) {
        PB_GROW(ids, cap, nids + 1);
        ids[nids++] = sqlite3_column_int64(ids_q, 0);
    }
    if (st != SQLITE_DONE)
        goto fail;
    if (nids != m->nres) {
        pb_err_set(err, PB_EDB, db->path, 0, 0,
                   "cannot merge %s: %zu results stored for %zu read",
                   set->path, nids, m->nres);
        rc = PB_EDB;
        goto out;
    }
    if (!(smp = mg_stmt(m, M_SAMPLES, err)))
        goto out;
    if (!(ins = db_stmt(db, S_SAMPLE_INSERT, err)))
        goto out;
    sqlite3_bind_int64(smp, 1, m->cur->id);
    while ((st = sqlite3_step(smp)) == SQLITE_ROW) {
        long long old = sqlite3_column_int64(smp, 0);
        long long *hit = m->nres ? bsearch(&old, m->res_ids, m->nres,
                                           sizeof(*m->res_ids), cmp_ll)
                                 : NULL;
        if (!hit)
            continue;
        sqlite3_bind_int64(ins, 1, ids[hit - m->res_ids]);
        sqlite3_bind_int64(ins, 2, sqlite3_column_int64(smp, 1));
        sqlite3_bind_double(ins, 3, sqlite3_column_double(smp, 2));
        if (sqlite3_step(ins) != SQLITE_DONE)
            goto fail;
        sqlite3_reset(ins);
    }
    sqlite3_reset(smp);
    if (st != SQLITE_DONE) {
        rc = mg_fail(m, err);
        goto out;
    }
    rc = PB_OK;
    goto out;
fail:
    rc = pb_err_set(err, PB_EDB, db->path, 0, 0, "cannot merge %s: %s",
                    set->path, sqlite3_errmsg(db->h));
out:
    if (smp)
        sqlite3_reset(smp);
    if (ids_q)
        sqlite3_reset(ids_q);
    if (ins)
        sqlite3_reset(ins);
    sqlite3_finalize(q);
    free(ids);
    return rc;
}

int pb_db_merge_store(struct pb_db *db, struct pb_db_merge *m,
                      const struct pb_resultset *set, size_t *nresults,
                      struct pb_err *err)
{
    if (nresults)
        *nresults = 0;
    if (!m->cur || set->nresults != m->nres || !m->cur->sha256 ||
        strcmp(set->sha256, m->cur->sha256))
        return pb_err_set(err, PB_EDB, m->path, 0, 0,
                          "merge: the set is not the source read last");
    int own_batch = !db->batch;
    if (own_batch && pb_db_begin(db, err))
        return PB_EDB;
    int rc = target_exec(db, "SAVEPOINT pb_merge", err);
    if (!rc)
        rc = pb_db_store(db, set, nresults, err);
    if (!rc)
        rc = store_extras(db, m, set, err);
    if (!rc)
        rc = target_exec(db, "RELEASE pb_merge", err);
    if (rc) {
        /* nothing of this source stays (a duplicate wrote nothing) */
        db_forget_ids(db);
        sqlite3_exec(db->h, "ROLLBACK TO pb_merge; RELEASE pb_merge", NULL,
                     NULL, NULL);
        if (nresults)
            *nresults = 0;
    }
    if (own_batch) {
        if (rc && rc != PB_EDUP)
            pb_db_rollback(db);
        else if (pb_db_commit(db, err))
            rc = PB_EDB;
    }
    return rc;
}
