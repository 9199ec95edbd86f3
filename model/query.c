/* Reading the model: v_result rows, listings of sources, configs and
 * tests, counts, and the lean queries the report is built from. */
#include "model/db_int.h"

#include <math.h>
#include <stdlib.h>

#include <string.h>

/* Parameters ?1..?5 of the filtered queries (NULL = match all). */
static int each_row(struct pb_db *db, enum db_stmt st,
                    const struct pb_db_filter *f, pb_db_row_cb cb, void *ctx,
                    struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, st, err);
    if (!q)
        return PB_EDB;
    db_bind_filter(q, f, 0);
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_row r;
        r.source_path = db_col_text(q, 0);
        r.format = db_col_text(q, 1);
        r.host = db_col_text(q, 2);
        r.config = db_col_text(q, 3);
        r.test = db_col_text(q, 4);
        r.tool = db_col_text(q, 5);
        r.job = db_col_text(q, 6);
        r.metric = db_col_text(q, 7);
        r.has_value = sqlite3_column_type(q, 8) != SQLITE_NULL;
        r.value = sqlite3_column_double(q, 8);
        r.unit = db_col_text(q, 9);
        r.direction = db_col_text(q, 10);
        r.has_stderr = sqlite3_column_type(q, 11) != SQLITE_NULL;
        r.stderr_ = sqlite3_column_double(q, 11);
        r.samples = (long)sqlite3_column_int64(q, 12);
        r.config_id = sqlite3_column_int64(q, 13);
        r.test_id = sqlite3_column_int64(q, 14);
        if (st == S_EXPORT_SAMPLES) {
            r.has_stderr = 0;
            r.samples = (long)sqlite3_column_int64(q, 11);
        }
        if ((stop = cb(ctx, &r)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}

int pb_db_each_result(struct pb_db *db, const struct pb_db_filter *f,
                      pb_db_row_cb cb, void *ctx, struct pb_err *err)
{
    return each_row(db, S_EACH_RESULT, f, cb, ctx, err);
}

int pb_db_each_result_sample(struct pb_db *db, const struct pb_db_filter *f,
                             pb_db_row_cb cb, void *ctx, struct pb_err *err)
{
    return each_row(db, S_EXPORT_SAMPLES, f, cb, ctx, err);
}

static double col_num(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL
               ? NAN
               : sqlite3_column_double(q, i);
}

int pb_db_each_point(struct pb_db *db, const struct pb_db_filter *f,
                     pb_db_point_cb cb, void *ctx, struct pb_err *err)
{
    /* the series in order, then each one's points by its key range: no
     * sort of every point */
    sqlite3_stmt *q = db_stmt(db, S_EACH_POINT, err);
    if (!q)
        return PB_EDB;
    db_bind_filter(q, f, 0);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_point p;
        p.source_path = db_col_text(q, 0);
        p.config = db_col_text(q, 1);
        p.test = db_col_text(q, 2);
        p.job = db_col_text(q, 3);
        p.host = db_col_text(q, 4);
        p.series = db_col_text(q, 5);
        p.unit = db_col_text(q, 6);
        p.kind = db_col_text(q, 7);
        p.width_ms = (long)sqlite3_column_int64(q, 8);
        p.config_id = sqlite3_column_int64(q, 9);
        p.test_id = sqlite3_column_int64(q, 10);
        p.series_id = sqlite3_column_int64(q, 11);
        sqlite3_stmt *pq = db_stmt(db, S_SERIES_POINTS, err);
        if (!pq) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        sqlite3_bind_int64(pq, 1, p.series_id);
        int prc;
        while ((prc = sqlite3_step(pq)) == SQLITE_ROW) {
            p.t_ms = sqlite3_column_int64(pq, 0);
            p.value = col_num(pq, 1);
            p.n = sqlite3_column_int64(pq, 2);
            p.min = col_num(pq, 3);
            p.max = col_num(pq, 4);
            p.p50 = col_num(pq, 5);
            p.p90 = col_num(pq, 6);
            p.p95 = col_num(pq, 7);
            p.p99 = col_num(pq, 8);
            p.p999 = col_num(pq, 9);
            if ((stop = cb(ctx, &p)) != 0)
                break;
        }
        if (!stop && prc != SQLITE_DONE) {
            sqlite3_reset(pq);
            sqlite3_reset(q);
            return db_fail(db, err, "query failed");
        }
        sqlite3_reset(pq);
        if (stop)
            break;
    }
    if (stop)
        rc = SQLITE_DONE;
    return db_finish_query(db, q, rc, stop, err);
}

int pb_db_each_source(struct pb_db *db, pb_db_source_cb cb, void *ctx,
                      struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_EACH_SOURCE, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_source s;
        s.id = sqlite3_column_int64(q, 0);
        s.sha256 = db_col_text(q, 1);
        s.path = db_col_text(q, 2);
        s.format = db_col_text(q, 3);
        s.tool_version = db_col_text(q, 4);
        s.size = sqlite3_column_int64(q, 5);
        s.ingested_at = db_col_text(q, 6);
        s.nresults = sqlite3_column_int64(q, 7);
        if ((stop = cb(ctx, &s)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}

static int each_entity(struct pb_db *db, enum db_stmt s, int has_tool,
                       pb_db_entity_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_entity e;
        int i = 0;
        e.id = sqlite3_column_int64(q, i++);
        e.name = db_col_text(q, i++);
        e.tool = has_tool ? db_col_text(q, i++) : NULL;
        e.params = db_col_text(q, i++);
        e.nresults = sqlite3_column_int64(q, i++);
        if (!e.params)
            e.params = "";
        if ((stop = cb(ctx, &e)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}

int pb_db_each_config(struct pb_db *db, pb_db_entity_cb cb, void *ctx,
                      struct pb_err *err)
{
    return each_entity(db, S_EACH_CONFIG, 0, cb, ctx, err);
}

int pb_db_each_test(struct pb_db *db, pb_db_entity_cb cb, void *ctx,
                    struct pb_err *err)
{
    return each_entity(db, S_EACH_TEST, 1, cb, ctx, err);
}

int pb_db_counts(struct pb_db *db, struct pb_db_counts *out,
                 struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_COUNTS, err);
    if (!q)
        return PB_EDB;
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        out->sources = sqlite3_column_int64(q, 0);
        out->configs = sqlite3_column_int64(q, 1);
        out->tests = sqlite3_column_int64(q, 2);
        out->results = sqlite3_column_int64(q, 3);
        rc = SQLITE_DONE;
    }
    return db_finish_query(db, q, rc, 0, err);
}

int pb_db_each_name(struct pb_db *db, enum pb_db_name_kind kind,
                    const char *re, pb_db_name_cb cb, void *ctx,
                    struct pb_err *err)
{
    static const char *const sql[] = {
        [PB_DB_TESTS] = "SELECT DISTINCT name FROM test WHERE id IN (SELECT "
                        "test_id FROM result) AND (?1 IS NULL OR "
                        "regexp(?1, name)) ORDER BY name",
        [PB_DB_CONFIGS] = "SELECT DISTINCT label FROM config WHERE id IN "
                          "(SELECT config_id FROM result) AND (?1 IS NULL "
                          "OR regexp(?1, label)) ORDER BY label",
        /* and the names of time series: --metric selects those too */
        [PB_DB_METRICS] = "SELECT name FROM (SELECT name FROM metric WHERE "
                          "id IN (SELECT metric_id FROM result) UNION "
                          "SELECT name FROM series) WHERE ?1 IS NULL OR "
                          "regexp(?1, name) ORDER BY name",
        [PB_DB_HOSTS] = "SELECT DISTINCT coalesce(h.name, '') FROM result r "
                        "LEFT JOIN host h ON h.id = r.host_id WHERE ?1 IS "
                        "NULL OR regexp(?1, coalesce(h.name, '')) ORDER BY 1",
        [PB_DB_FORMATS] = "SELECT DISTINCT format FROM source WHERE id IN "
                          "(SELECT source_id FROM result) AND (?1 IS NULL "
                          "OR format = ?1) ORDER BY format",
    };
    sqlite3_stmt *q;
    if ((unsigned)kind > PB_DB_FORMATS)
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "bad name kind");
    if (sqlite3_prepare_v2(db->h, sql[kind], -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot list names");
    db_bind_text(q, 1, re);
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *n = db_col_text(q, 0);
        if ((stop = cb(ctx, n ? n : "")) != 0)
            break;
    }
    int out = db_finish_query(db, q, rc, stop, err);
    sqlite3_finalize(q);
    return out;
}

/* ==== report queries ==== */

/* Is id among the sorted ids of f (or f keeps every source)? */
int db_source_kept(const struct pb_db_filter *f, long long id)
{
    if (!f || !f->source_ids)
        return 1;
    size_t lo = 0, hi = f->nsource_ids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->source_ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->nsource_ids && f->source_ids[lo] == id;
}

/* Rows of a three-text-column listing (id, a, b) or (id, a, b, c). */
static int each_triple(struct pb_db *db, enum db_stmt s, int ncols,
                       pb_db_triple_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_triple t;
        t.id = sqlite3_column_int64(q, 0);
        t.a = db_col_text(q, 1);
        t.b = db_col_text(q, 2);
        t.c = ncols > 3 ? db_col_text(q, 3) : NULL;
        if ((stop = cb(ctx, &t)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}

int pb_db_report_configs(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                         struct pb_err *err)
{
    return each_triple(db, S_REPORT_CONFIGS, 2, cb, ctx, err);
}

int pb_db_report_tests(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                       struct pb_err *err)
{
    return each_triple(db, S_REPORT_TESTS, 3, cb, ctx, err);
}

int pb_db_report_params(struct pb_db *db, int tests, pb_db_triple_cb cb,
                        void *ctx, struct pb_err *err)
{
    return each_triple(db,
                       tests ? S_REPORT_TEST_PARAMS : S_REPORT_CONFIG_PARAMS,
                       tests ? 3 : 4, cb, ctx, err);
}

int pb_db_report_facts(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                       struct pb_err *err)
{
    return each_triple(db, S_REPORT_FACTS, 4, cb, ctx, err);
}

int pb_db_label_origins(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                        struct pb_err *err)
{
    return each_triple(db, S_LABEL_ORIGINS, 2, cb, ctx, err);
}

int pb_db_each_sample(struct pb_db *db, pb_db_sample_cb cb, void *ctx,
                      struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_EACH_SAMPLE, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_sample s;
        s.result_id = sqlite3_column_int64(q, 0);
        s.source_id = sqlite3_column_int64(q, 1);
        s.test_id = sqlite3_column_int64(q, 2);
        s.metric_id = sqlite3_column_int64(q, 3);
        s.config_id = sqlite3_column_int64(q, 4);
        s.seq = (long)sqlite3_column_int64(q, 5);
        s.value = sqlite3_column_double(q, 6);
        if ((stop = cb(ctx, &s)) != 0)
            break;
    }
    return db_finish_query(db, q, rc, stop, err);
}
