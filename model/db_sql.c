/* All SQL text of the model's prepared statements (db_int.h's enum
 * db_stmt names them; db.c prepares each once per handle, on first use). */
#include "model/db_int.h"

const char *const pb_db_sql[S__COUNT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_SAVEPOINT] = "SAVEPOINT pb_source",
    [S_RELEASE] = "RELEASE pb_source",
    [S_ROLLBACK_TO] = "ROLLBACK TO pb_source",
    /* a streamed source's page cache (model/store.c pb_db_stream_open) */
    [S_STREAM_CACHE] = "PRAGMA cache_size = -16384",
    [S_SOURCE_FIND] = "SELECT id FROM source WHERE sha256 = ?1",
    [S_SOURCE_INSERT] =
        "INSERT INTO source(sha256, path, format, tool_version, size, "
        "ingested_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [S_HOST_FIND] = "SELECT id FROM host WHERE name = ?1",
    /* host and job names and reasons: inserted first (job names: most
     * are new in nightly runs; hosts: one cache miss a process each, and
     * a bonnie++ CSV can name 100,000), looked up when already there */
    [S_HOST_INSERT] = "INSERT OR IGNORE INTO host(name) VALUES (?1)",
    [S_JOB_FIND] = "SELECT id FROM job WHERE name = ?1",
    [S_JOB_INSERT] = "INSERT OR IGNORE INTO job(name) VALUES (?1)",
    [S_REASON_FIND] = "SELECT id FROM reason WHERE text = ?1",
    [S_REASON_INSERT] = "INSERT OR IGNORE INTO reason(text) VALUES (?1)",
    [S_CONFIG_FIND] =
        "SELECT id FROM config WHERE label = ?1 AND signature = ?2",
    [S_CONFIG_INSERT] = "INSERT INTO config(label, signature) VALUES (?1, ?2)",
    /* a config inserted first and looked up only when it was there
     * (attach.c db_place_new_own): one probe of its index instead of two */
    [S_CONFIG_INSERT_NEW] =
        "INSERT OR IGNORE INTO config(label, signature) VALUES (?1, ?2)",
    [S_CONFIG_PARAM_INSERT] = "INSERT OR REPLACE INTO config_param("
                              "config_id, key, value, origin) VALUES (?1, "
                              "?2, ?3, ?4)",
    [S_OWN_FIND] = "SELECT id, config_id FROM config_own WHERE label = ?1 "
                   "AND signature = ?2",
    [S_OWN_INSERT] = "INSERT INTO config_own(label, signature, config_id) "
                     "VALUES (?1, ?2, 0)",
    /* the same, when the own config may be new (store.c own_config) */
    [S_OWN_INSERT_NEW] = "INSERT OR IGNORE INTO config_own(label, signature, "
                         "config_id) VALUES (?1, ?2, 0)",
    [S_OWN_PARAM_INSERT] = "INSERT OR REPLACE INTO config_own_param(own_id, "
                           "key, value, origin) VALUES (?1, ?2, ?3, ?4)",
    [S_OWN_PARAMS] = "SELECT key, value, origin FROM config_own_param WHERE "
                     "own_id = ?1 ORDER BY key",
    [S_OWN_SET_CONFIG] = "UPDATE config_own SET config_id = ?2 WHERE id = ?1",
    [S_LABEL_PARAM_INSERT] =
        "INSERT INTO label_param(label, key, value, origin, source_id) "
        "VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_LABEL_PARAMS] = "SELECT key, value, origin FROM label_param WHERE "
                       "label = ?1",
    /* does any label have attached dimensions? */
    [S_LABEL_ANY] = "SELECT 1 FROM label_param LIMIT 1",
    [S_LABEL_OWNS] = "SELECT id, config_id FROM config_own WHERE label = ?1 "
                     "ORDER BY id",
    [S_LABEL_CONFIGS] = "SELECT id, signature FROM config WHERE label = ?1 "
                        "ORDER BY id",
    [S_CONFIG_OWNS] = "SELECT id FROM config_own WHERE label = ?1 AND "
                      "config_id = ?2 ORDER BY id",
    [S_CONFIG_RESIGN] = "UPDATE config SET signature = ?2 WHERE id = ?1",
    [S_CONFIG_PARAMS_CLEAR] = "DELETE FROM config_param WHERE config_id = ?1",
    [S_CONFIG_DELETE] = "DELETE FROM config WHERE id = ?1",
    [S_REMAP_ADD] = "INSERT OR REPLACE INTO temp.pb_remap(own_id, config_id) "
                    "VALUES (?1, ?2)",
    /* one pass over result however many configs moved */
    [S_REMAP_RESULTS] =
        "UPDATE result SET config_id = (SELECT m.config_id FROM temp.pb_remap "
        "m WHERE m.own_id = result.own_id) WHERE own_id IN (SELECT own_id "
        "FROM temp.pb_remap)",
    [S_REMAP_CLEAR] = "DELETE FROM temp.pb_remap",
    [S_GEN_GET] = "SELECT n FROM model_generation",
    [S_GEN_BUMP] = "UPDATE model_generation SET n = n + 1",
    [S_SOURCE_LABELS] = "SELECT DISTINCT label FROM label_param WHERE "
                        "source_id = ?1 ORDER BY label",
    [S_FORGET_LABEL_PARAMS] = "DELETE FROM label_param WHERE source_id = ?1",
    [S_TEST_FIND] = "SELECT id FROM test WHERE tool = ?1 AND name = ?2 AND "
                    "signature = ?3",
    [S_TEST_INSERT] =
        "INSERT INTO test(tool, name, signature) VALUES (?1, ?2, ?3)",
    [S_TEST_PARAM_INSERT] = "INSERT OR IGNORE INTO test_param(test_id, key, "
                            "value) VALUES (?1, ?2, ?3)",
    [S_METRIC_FIND] = "SELECT id FROM metric WHERE name = ?1 AND unit = ?2 "
                      "AND direction = ?3",
    [S_METRIC_INSERT] =
        "INSERT INTO metric(name, unit, direction) VALUES (?1, ?2, ?3)",
    /* OR FAIL: store.c runs it with 256 rows of VALUES, and a statement
     * of several rows that may ABORT half-way keeps a statement journal:
     * inside the source's savepoint it is never truncated, and each
     * statement wrote the old content of the pages it touched to it
     * again, 1.2 GB of temporary file for 3.5 M bonnie++ results. Its
     * only constraints are NOT NULL on ids store.c always binds. */
    [S_RESULT_INSERT] =
        "INSERT OR FAIL INTO result(source_id, host_id, config_id, test_id, "
        "job_id, metric_id, value, reason_id, stderr, samples, own_id) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [S_FACT_INSERT] = "INSERT INTO fact(source_id, host, key, value) "
                      "VALUES (?1, ?2, ?3, ?4)",
    [S_SAMPLE_INSERT] = "INSERT INTO sample(result_id, seq, value) "
                        "VALUES (?1, ?2, ?3)",
    /* v_result's columns and order, with the config and test ids */
    [S_EACH_RESULT] =
        "SELECT s.path, s.format, h.name, c.label, t.name, t.tool, j.name, "
        "m.name, r.value, m.unit, m.direction, r.stderr, r.samples, "
        "r.config_id, r.test_id FROM result r "
        "JOIN source s ON s.id = r.source_id "
        "LEFT JOIN host h ON h.id = r.host_id "
        "JOIN config c ON c.id = r.config_id "
        "JOIN test t ON t.id = r.test_id "
        "LEFT JOIN job j ON j.id = r.job_id "
        "JOIN metric m ON m.id = r.metric_id "
        "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
        "AND (?2 IS NULL OR regexp(?2, c.label)) "
        "AND (?3 IS NULL OR regexp(?3, m.name)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
        "AND (?5 IS NULL OR s.format = ?5) "
        "ORDER BY t.name, c.label, m.name, j.name, h.name, s.path, r.id",
    /* S_EACH_RESULT's rows and order, one row per stored sample */
    [S_EXPORT_SAMPLES] =
        "SELECT s.path, s.format, h.name, c.label, t.name, t.tool, j.name, "
        "m.name, x.value, m.unit, m.direction, x.seq, r.samples, "
        "r.config_id, r.test_id FROM result r "
        "JOIN sample x ON x.result_id = r.id "
        "JOIN source s ON s.id = r.source_id "
        "LEFT JOIN host h ON h.id = r.host_id "
        "JOIN config c ON c.id = r.config_id "
        "JOIN test t ON t.id = r.test_id "
        "LEFT JOIN job j ON j.id = r.job_id "
        "JOIN metric m ON m.id = r.metric_id "
        "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
        "AND (?2 IS NULL OR regexp(?2, c.label)) "
        "AND (?3 IS NULL OR regexp(?3, m.name)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
        "AND (?5 IS NULL OR s.format = ?5) "
        "ORDER BY t.name, c.label, m.name, j.name, h.name, s.path, r.id, "
        "x.seq",
    [S_EACH_SOURCE] =
        "SELECT s.id, s.sha256, s.path, s.format, s.tool_version, s.size, "
        "s.ingested_at, (SELECT count(*) FROM result r WHERE r.source_id = "
        "s.id) FROM source s ORDER BY s.id",
    /* counts in one pass over result, not one scan per config or test */
    [S_EACH_CONFIG] =
        "SELECT c.id, c.label, (SELECT group_concat(key || '=' || value, ', ') "
        "FROM (SELECT key, value FROM config_param p WHERE p.config_id = c.id "
        "ORDER BY key)), coalesce(n.n, 0) FROM config c LEFT JOIN (SELECT "
        "config_id, count(*) AS n FROM result GROUP BY config_id) n ON "
        "n.config_id = c.id ORDER BY c.label, c.id",
    [S_EACH_TEST] =
        "SELECT t.id, t.name, t.tool, (SELECT group_concat(key || '=' || "
        "value, ', ') FROM (SELECT key, value FROM test_param p WHERE "
        "p.test_id = t.id ORDER BY key)), coalesce(n.n, 0) FROM test t LEFT "
        "JOIN (SELECT test_id, count(*) AS n FROM result GROUP BY test_id) n "
        "ON n.test_id = t.id ORDER BY t.tool, t.name, t.id",
    [S_COUNTS] = "SELECT (SELECT count(*) FROM source), (SELECT count(*) "
                 "FROM config), (SELECT count(*) FROM test), (SELECT count(*) "
                 "FROM result)",
    /* report queries: lean listings without per-row subqueries, so that
     * a report over 100,000 results stays one pass. S_REPORT_ROWS is the
     * fallback of model/rrows.c's own sort (ids past 32 bits). */
    [S_REPORT_ROWS] =
        "SELECT r.test_id, r.metric_id, r.config_id, r.source_id, "
        "j.name, h.name, r.value, y.text, r.stderr, r.samples FROM result r "
        "JOIN metric m ON m.id = r.metric_id "
        "JOIN test t ON t.id = r.test_id "
        "JOIN config c ON c.id = r.config_id "
        "LEFT JOIN host h ON h.id = r.host_id "
        "LEFT JOIN job j ON j.id = r.job_id "
        "LEFT JOIN reason y ON y.id = r.reason_id "
        "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
        "AND (?2 IS NULL OR regexp(?2, c.label)) "
        "AND (?3 IS NULL OR regexp(?3, m.name)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
        "AND (?5 IS NULL OR r.source_id IN "
        "(SELECT id FROM source WHERE format = ?5)) "
        "AND (?6 IS NULL OR r.source_id BETWEEN ?6 AND ?7) "
        "ORDER BY r.test_id, r.metric_id, r.config_id, r.source_id, "
        "j.name, h.name, r.id",
    [S_REPORT_CONFIGS] = "SELECT id, label FROM config ORDER BY id",
    [S_REPORT_TESTS] = "SELECT id, name, tool FROM test ORDER BY id",
    [S_REPORT_CONFIG_PARAMS] = "SELECT config_id, key, value, origin FROM "
                               "config_param ORDER BY config_id, key",
    [S_REPORT_TEST_PARAMS] =
        "SELECT test_id, key, value FROM test_param ORDER BY test_id, key",
    [S_LABEL_ORIGINS] =
        "SELECT DISTINCT r.config_id, f.value FROM fact f JOIN result r ON "
        "r.source_id = f.source_id WHERE f.key = 'label_origin' AND f.host "
        "IS NULL ORDER BY r.config_id, f.value",
    [S_HIST_INSERT] = "INSERT INTO latency_hist(result_id, kind, total, "
                      "nbins, bins) VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_SOURCE_RESULT_IDS] =
        "SELECT id FROM result WHERE source_id = ?1 ORDER BY id",
    [S_EACH_HIST] =
        "SELECT r.test_id, r.config_id, r.source_id, j.name, h.kind, "
        "h.total, h.nbins, h.bins FROM latency_hist h JOIN result r ON r.id = "
        "h.result_id LEFT JOIN host ho ON ho.id = r.host_id "
        "LEFT JOIN job j ON j.id = r.job_id "
        "WHERE (?1 IS NULL OR regexp(?1, coalesce(ho.name, ''))) "
        "AND (?2 IS NULL OR r.source_id IN "
        "(SELECT id FROM source WHERE format = ?2)) "
        "ORDER BY r.test_id, r.config_id, h.kind, r.id",
    [S_REPORT_FACTS] = "SELECT source_id, host, key, value FROM fact "
                       "ORDER BY source_id, rowid",
    [S_EACH_SAMPLE] =
        "SELECT r.id, r.source_id, r.test_id, r.metric_id, r.config_id, "
        "s.seq, s.value FROM sample s JOIN result r ON r.id = s.result_id "
        "ORDER BY r.source_id, r.test_id, r.metric_id, r.config_id, r.id, "
        "s.seq",
    /* children first: foreign keys are not enforced, so ON DELETE
     * CASCADE does not fire */
    [S_FORGET_POINTS] = "DELETE FROM series_point WHERE series_id IN "
                        "(SELECT s.id FROM series s JOIN result r ON "
                        "r.id = s.result_id WHERE r.source_id = ?1)",
    [S_FORGET_SERIES] = "DELETE FROM series WHERE result_id IN "
                        "(SELECT id FROM result WHERE source_id = ?1)",
    [S_FIRST_RESULT] = "SELECT min(id) FROM result WHERE source_id = ?1",
    [S_SERIES_INSERT] = "INSERT INTO series(result_id, name, unit, kind, "
                        "width_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_POINT_INSERT] = "INSERT INTO series_point(series_id, seq, t_ms, "
                       "value, n, min, max, p50, p90, p95, p99, p999) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                       "?11, ?12)",
    /* time series with their owner's names; metric filter on the series
     * name */
    [S_EACH_POINT] =
        "SELECT s.path, c.label, t.name, j.name, h.name, se.name, se.unit, "
        "se.kind, se.width_ms, r.config_id, r.test_id, se.id "
        "FROM series se JOIN result r ON r.id = se.result_id "
        "JOIN source s ON s.id = r.source_id "
        "JOIN config c ON c.id = r.config_id "
        "JOIN test t ON t.id = r.test_id "
        "LEFT JOIN host h ON h.id = r.host_id "
        "LEFT JOIN job j ON j.id = r.job_id "
        "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
        "AND (?2 IS NULL OR regexp(?2, c.label)) "
        "AND (?3 IS NULL OR regexp(?3, se.name)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
        "AND (?5 IS NULL OR s.format = ?5) "
        "ORDER BY t.name, t.id, se.name, c.label, r.config_id, j.name, "
        "h.name, s.path, se.id",
    /* the points of one series: a range of the primary key, in order */
    [S_SERIES_POINTS] = "SELECT t_ms, value, n, min, max, p50, p90, p95, "
                        "p99, p999 FROM series_point WHERE series_id = ?1 "
                        "ORDER BY seq",
    [S_FORGET_SAMPLES] = "DELETE FROM sample WHERE result_id IN "
                         "(SELECT id FROM result WHERE source_id = ?1)",
    [S_FORGET_HISTS] = "DELETE FROM latency_hist WHERE result_id IN "
                       "(SELECT id FROM result WHERE source_id = ?1)",
    [S_FORGET_RESULTS] = "DELETE FROM result WHERE source_id = ?1",
    [S_FORGET_FACTS] = "DELETE FROM fact WHERE source_id = ?1",
    [S_FORGET_SOURCE] = "DELETE FROM source WHERE id = ?1",
};
