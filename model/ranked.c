/* Read-only result rows in an order the caller ranks (the report's bonnie++
 * table: one row per configuration and test, in the report's order), so a
 * table streams from one sorted query instead of the report's cells.
 * pb_db_each_ranked_row is model/rrows.c's own sort; this SQLite ORDER BY
 * is its fallback (ids or ranks past 32 bits), and the per-result samples. */
#include "model/db_int.h"

#include <stdlib.h>
#include <string.h>

/* ?1..?5 as S_REPORT_ROWS (filters), ?6/?7 the kept source id range, ?8
 * the caller's struct pb_db_order (sqlite3_bind_pointer). The ranks are
 * computed once per row into the sorter: SQLite sorts on disk past its
 * cache, so memory does not grow with the rows. No index serves this
 * order (EXPLAIN QUERY PLAN: SCAN r, USE TEMP B-TREE FOR ORDER BY). */
static const char ranked_sql[] =
    "SELECT pb_rank(?8, 0, r.config_id) AS ck, pb_rank(?8, 1, r.test_id) "
    "AS tk, r.test_id, r.metric_id, r.config_id, r.source_id, m.name, "
    "m.unit, m.direction, h.name, r.value, y.text, r.stderr, "
    "r.samples, r.id FROM result r "
    "JOIN metric m ON m.id = r.metric_id "
    "JOIN test t ON t.id = r.test_id "
    "JOIN config c ON c.id = r.config_id "
    "LEFT JOIN host h ON h.id = r.host_id "
    "LEFT JOIN reason y ON y.id = r.reason_id "
    "WHERE r.metric_id IN (SELECT id FROM metric WHERE "
    "pb_rank(?8, 2, id, name) >= 0) "
    "AND (?1 IS NULL OR regexp(?1, t.name)) "
    "AND (?2 IS NULL OR regexp(?2, c.label)) "
    "AND (?3 IS NULL OR regexp(?3, m.name)) "
    "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
    "AND (?5 IS NULL OR r.source_id IN "
    "(SELECT id FROM source WHERE format = ?5)) "
    "AND (?6 IS NULL OR r.source_id BETWEEN ?6 AND ?7) "
    "AND ck >= 0 AND tk >= 0 "
    "ORDER BY ck, tk, m.name, m.unit, r.metric_id, r.test_id, r.source_id, "
    "h.name, r.id";

static const char order_type[] = "pb_db_order";

/* pb_rank(order, kind, id[, name]): the caller's rank of a config (0) or
 * test (1), or whether it wants a metric (2); < 0 leaves the row out. */
static void rank_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    const struct pb_db_order *o =
        sqlite3_value_pointer(argv[0], order_type);
    if (!o || argc < 3) {
        sqlite3_result_int64(cx, -1);
        return;
    }
    int kind = sqlite3_value_int(argv[1]);
    long long id = sqlite3_value_int64(argv[2]);
    long long r = -1;
    if (kind == 0)
        r = o->config_rank(o->ctx, id);
    else if (kind == 1)
        r = o->test_rank(o->ctx, id);
    else if (kind == 2 && argc > 3) {
        const char *name = (const char *)sqlite3_value_text(argv[3]);
        r = o->want_metric(o->ctx, name ? name : "") ? 0 : -1;
    }
    sqlite3_result_int64(cx, r);
}

int db_each_ranked_row_sql(struct pb_db *db, const struct pb_db_filter *f,
                           const struct pb_db_order *ord, pb_db_ranked_cb cb,
                           void *ctx, struct pb_err *err)
{
    if (sqlite3_create_function(db->h, "pb_rank", -1, SQLITE_UTF8, NULL,
                                rank_fn, NULL, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot register pb_rank");
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, ranked_sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read results");
    db_bind_filter(q, f, 1);
    sqlite3_bind_pointer(q, 8, (void *)ord, order_type, NULL);
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_ranked r;
        memset(&r, 0, sizeof(r));
        r.config_rank = sqlite3_column_int64(q, 0);
        r.test_rank = sqlite3_column_int64(q, 1);
        r.row.test_id = sqlite3_column_int64(q, 2);
        r.row.metric_id = sqlite3_column_int64(q, 3);
        r.row.config_id = sqlite3_column_int64(q, 4);
        r.row.source_id = sqlite3_column_int64(q, 5);
        if (!db_source_kept(f, r.row.source_id))
            continue;
        r.row.metric = db_col_text(q, 6);
        r.row.unit = db_col_text(q, 7);
        r.row.direction = db_col_text(q, 8);
        r.row.job = NULL;
        r.row.host = ord->no_host ? NULL : db_col_text(q, 9);
        r.row.has_value = sqlite3_column_type(q, 10) != SQLITE_NULL;
        r.row.value = sqlite3_column_double(q, 10);
        r.row.null_reason = db_col_text(q, 11);
        r.row.has_stderr = sqlite3_column_type(q, 12) != SQLITE_NULL;
        r.row.stderr_ = sqlite3_column_double(q, 12);
        r.row.samples = (long)sqlite3_column_int64(q, 13);
        r.result_id = sqlite3_column_int64(q, 14);
        if ((stop = cb(ctx, &r)) != 0)
            break;
    }
    int out = db_finish_query(db, q, rc, stop, err);
    sqlite3_finalize(q);
    return out;
}

struct pb_db_samples {
    struct pb_db *db;
    sqlite3_stmt *q;
};

int pb_db_samples_open(struct pb_db *db, struct pb_db_samples **out,
                       struct pb_err *err)
{
    static const char sql[] =
        "SELECT value FROM sample WHERE result_id = ?1 ORDER BY seq";
    *out = NULL;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read samples");
    *out = pb_xcalloc(1, sizeof(**out));
    (*out)->db = db;
    (*out)->q = q;
    return PB_OK;
}

int pb_db_samples_of(struct pb_db_samples *s, long long result_id, double **v,
                     size_t *n, size_t *cap, struct pb_err *err)
{
    *n = 0;
    sqlite3_bind_int64(s->q, 1, result_id);
    int rc;
    while ((rc = sqlite3_step(s->q)) == SQLITE_ROW) {
        PB_GROW(*v, *cap, *n + 1);
        (*v)[(*n)++] = sqlite3_column_double(s->q, 0);
    }
    return db_finish_query(s->db, s->q, rc, 0, err);
}

void pb_db_samples_close(struct pb_db_samples *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->q);
    free(s);
}
