/* Unit tests for model/'s schema versions: a newer schema is refused, a
 * version-1 database is migrated on open with its rows kept, a reader
 * upgrades a version-2 database first, and the version-6 rebuild (job
 * names as ids) keeps v_result and the result ids, and version 7 gets
 * the p99.9 column of series points. */
#include "tests/unit/db_help.h"

static void test_newer_schema_refused(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    pb_db_close(db);
    sqlite3 *h;
    sqlite3_open(dbpath, &h);
    sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(h);
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_EDB);
    assert_non_null(strstr(err.msg, "newer"));
    pb_err_clear(&err);
    assert_int_equal(pb_db_open("/nonexistent/dir/x.db", 0, &db, &err), PB_EDB);
    assert_null(db);
}

static int count_params(void *ctx, const struct pb_db_triple *t)
{
    long long *n = ctx;
    assert_string_equal(t->a, "recordsize");
    assert_null(t->c); /* the parser's */
    (*n)++;
    return 0;
}

/* Version 7 taken back to the version-6 shape of result: the job name and
 * the null reason as text in every row (at the end of the row here; the
 * migration copies by name), no job and reason tables, no view (every
 * migration makes it again). */
#define TO_V6                                                                  \
    "DROP VIEW v_result; ALTER TABLE result ADD COLUMN job TEXT; "             \
    "ALTER TABLE result ADD COLUMN null_reason TEXT; "                         \
    "UPDATE result SET job = (SELECT name FROM job WHERE id = job_id), "       \
    "null_reason = (SELECT text FROM reason WHERE id = reason_id); "           \
    "ALTER TABLE result DROP COLUMN job_id; "                                  \
    "ALTER TABLE result DROP COLUMN reason_id; DROP TABLE job; "               \
    "DROP TABLE reason; "

/* A version-1 database (with the result_by_test index it had) is brought
 * to the current version on open, its rows kept. */
static void test_migrate_v1(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content v1");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    sqlite3 *h;
    sqlite3_open(dbpath, &h);
    /* the version-1 shape: what versions 3 to 7 added taken away */
    assert_int_equal(sqlite3_exec(h,
                                  TO_V6
                                  "DROP TABLE series_point; "
                                  "DROP TABLE series; "
                                  "DROP TABLE latency_hist; "
                                  "DROP TABLE sample; "
                                  "DROP TABLE config_own; "
                                  "DROP TABLE config_own_param; "
                                  "DROP TABLE label_param; "
                                  "DROP TABLE model_generation; "
                                  "ALTER TABLE result DROP COLUMN own_id; "
                                  "ALTER TABLE config_param DROP COLUMN "
                                  "origin; "
                                  "CREATE INDEX result_by_test ON "
                                  "result(test_id, metric_id); "
                                  "PRAGMA user_version = 1",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'result_by_test'"),
                     1);
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    pb_db_close(db);
    assert_int_equal(count("PRAGMA user_version"), PB_DB_SCHEMA_VERSION);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'result_by_test'"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'sample'"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'latency_hist'"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM v_result WHERE metric = "
                           "'read_iops' AND value = 1416"),
                     1);
    /* version 3: every config is its own config, every result names it,
     * dimensions so far are the parser's */
    assert_int_equal(count("SELECT count(*) FROM config_own o JOIN config c "
                           "ON c.id = o.config_id AND c.id = o.id AND "
                           "c.signature = o.signature"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM result WHERE own_id IS NULL "
                           "OR own_id != config_id"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM config_own_param WHERE key = "
                           "'recordsize' AND value = '8192' AND origin IS "
                           "NULL"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM config_param WHERE origin "
                           "IS NULL"),
                     1);
    /* and it takes new sources, with origins */
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    s = sample("content v1 then v3");
    s->configs[0].params[0].origin = pb_rs_str(s, "set: --set recordsize=8k");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    /* same values, other origin: the same config, the better origin */
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM config_own"), 2);
    assert_int_equal(count("SELECT count(*) FROM config_param WHERE origin = "
                           "'set: --set recordsize=8k'"),
                     1);
}

/* A reader (readonly open) of a version-2 database upgrades it first:
 * listings read columns version 3 added. */
static void test_reader_upgrades(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content v2");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    sqlite3 *h;
    sqlite3_open(dbpath, &h);
    assert_int_equal(sqlite3_exec(h,
                                  TO_V6
                                  "DROP TABLE series_point; "
                                  "DROP TABLE series; "
                                  "DROP TABLE latency_hist; "
                                  "DROP TABLE sample; "
                                  "DROP TABLE config_own; "
                                  "DROP TABLE config_own_param; "
                                  "DROP TABLE label_param; "
                                  "DROP TABLE model_generation; "
                                  "ALTER TABLE result DROP COLUMN own_id; "
                                  "ALTER TABLE config_param DROP COLUMN "
                                  "origin; PRAGMA user_version = 2",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    assert_int_equal(pb_db_open(dbpath, 1, &db, &err), PB_OK);
    long long n = 0;
    assert_int_equal(pb_db_report_params(db, 0, count_params, &n, &err), PB_OK);
    pb_db_close(db);
    assert_int_equal(n, 1);
    assert_int_equal(count("PRAGMA user_version"), PB_DB_SCHEMA_VERSION);
}

/* A version-6 database (job names as text in every result row) is
 * rebuilt to version 7 on open: the same v_result rows, the result ids
 * kept (samples still hang off them), each name once in the job table,
 * NULL jobs NULL; a store after it reuses the names' ids. */
static void test_migrate_v6(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content v6");
    size_t c = pb_rs_config(s, "zfs-16k");
    size_t t = pb_rs_test(s, "fio randwrite bs=4k iodepth=1", "fio");
    pb_rs_add(s, c, t, NULL, "job2 <b>", "write_iops", "ops/s", PB_DIR_HIGHER,
              321);
    pb_rs_add(s, c, t, NULL, NULL, "usr_cpu", "%", PB_DIR_LOWER, 12.5);
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    /* ids far apart (a file from elsewhere): copied as they are, in a few
     * steps, not one per possible id */
    sqlite3 *h;
    sqlite3_open(dbpath, &h);
    assert_int_equal(sqlite3_exec(h,
                                  "UPDATE result SET id = "
                                  "9000000000000000000 WHERE id = 5",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    static const char *const view = "SELECT * FROM v_result ORDER BY test, "
                                    "config, metric, job, host";
    char *want = rows(dbpath, view);
    char *ids = rows(dbpath, "SELECT id, metric_id FROM result ORDER BY id");
    sqlite3_open(dbpath, &h);
    assert_int_equal(
        sqlite3_exec(h,
                     TO_V6
                     "CREATE VIEW v_result AS SELECT s.path AS source_path, "
                     "s.format AS format, h.name AS host, c.label AS config, "
                     "t.name AS test, t.tool AS tool, r.job AS job, m.name AS "
                     "metric, r.value AS value, m.unit AS unit, m.direction "
                     "AS direction, r.stderr AS stderr, r.samples AS samples "
                     "FROM result r JOIN source s ON s.id = r.source_id LEFT "
                     "JOIN host h ON h.id = r.host_id JOIN config c ON c.id "
                     "= r.config_id JOIN test t ON t.id = r.test_id JOIN "
                     "metric m ON m.id = r.metric_id; "
                     "INSERT INTO sample VALUES (2, 0, 7.5); "
                     "ALTER TABLE series_point DROP COLUMN p999; "
                     "PRAGMA user_version = 6",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(h);
    /* the v6 shape gives the rows the v7 one gave */
    char *v6 = rows(dbpath, view);
    assert_string_equal(v6, want);
    free(v6);
    assert_int_equal(count("SELECT count(*) FROM result WHERE job = 'job1'"),
                     3);
    assert_int_equal(pb_db_open(dbpath, 1, &db, &err), PB_OK);
    pb_db_close(db);
    assert_int_equal(count("PRAGMA user_version"), PB_DB_SCHEMA_VERSION);
    char *got = rows(dbpath, view);
    assert_string_equal(got, want);
    free(got);
    got = rows(dbpath, "SELECT id, metric_id FROM result ORDER BY id");
    assert_string_equal(got, ids);
    free(got);
    got = rows(dbpath, "SELECT id, name FROM job ORDER BY id");
    assert_string_equal(got, "1|job1\n2|job2 <b>\n");
    free(got);
    got = rows(dbpath, "SELECT r.id, y.id, y.text FROM result r JOIN reason "
                       "y ON y.id = r.reason_id");
    assert_string_equal(got, "3|1|+++++ (too fast to measure)\n");
    free(got);
    got = rows(dbpath, "SELECT id, job_id, typeof(job_id) FROM result "
                       "ORDER BY id");
    assert_string_equal(got, "1|1|integer\n2|1|integer\n3|1|integer\n"
                             "4|2|integer\n"
                             "9000000000000000000|NULL|null\n");
    free(got);
    assert_int_equal(count("SELECT count(*) FROM sample s JOIN result r ON "
                           "r.id = s.result_id JOIN metric m ON m.id = "
                           "r.metric_id WHERE m.name = 'read_clat_p99'"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM pragma_table_info('result') "
                           "WHERE name = 'job'"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'result_by_source'"),
                     1);
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    /* the old rows' pages given back by the VACUUM after the rebuild */
    assert_int_equal(count("PRAGMA freelist_count"), 0);
    /* new sources name the same jobs by the same ids */
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    s = sample("content v7");
    pb_rs_add(s, 0, 0, NULL, "job3", "read_bw", "B/s", PB_DIR_HIGHER, 5);
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    got = rows(dbpath, "SELECT j.name, count(*) FROM result r JOIN job j ON "
                       "j.id = r.job_id GROUP BY j.id ORDER BY j.id");
    assert_string_equal(got, "job1|6\njob2 <b>|1\njob3|1\n");
    free(got);
    assert_int_equal(count("SELECT count(*) FROM result WHERE reason_id = 1"),
                     2);
    assert_int_equal(count("SELECT count(*) FROM reason"), 1);
    free(want);
    free(ids);
}

/* A version-7 database (series points without p99.9) gets the column on
 * open, even by a reader; its points keep NULL there. */
static void test_migrate_v7(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    pb_db_close(db);
    sqlite3 *h;
    sqlite3_open(dbpath, &h);
    assert_int_equal(sqlite3_exec(h,
                                  "ALTER TABLE series_point DROP COLUMN "
                                  "p999; PRAGMA user_version = 7",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    assert_int_equal(count("SELECT count(*) FROM pragma_table_info("
                           "'series_point') WHERE name = 'p999'"),
                     0);
    assert_int_equal(pb_db_open(dbpath, 1, &db, &err), PB_OK);
    pb_db_close(db);
    assert_int_equal(count("PRAGMA user_version"), 8);
    assert_int_equal(count("SELECT count(*) FROM pragma_table_info("
                           "'series_point') WHERE name = 'p999'"),
                     1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reader_upgrades, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v6, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v7, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
