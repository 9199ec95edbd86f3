/* Unit tests for model/: schema creation and version, storing a result
 * set, idempotence by SHA-256, rollback leaving nothing behind, and the
 * read iterators with PCRE2 filters. */
#include "tests/unit/testhelp.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/db.h"

static char dbpath[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dbpath, sizeof(dbpath), "/tmp/pb_test_db_%d.db", (int)getpid());
    unlink(dbpath);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char p[80];
    unlink(dbpath);
    snprintf(p, sizeof(p), "%s-wal", dbpath);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", dbpath);
    unlink(p);
    return 0;
}

static long long count(const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(dbpath, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    long long n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(h);
    return n;
}

static struct pb_resultset *sample(const char *content)
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, "sample.json");
    s->format = "test";
    s->tool_version = pb_rs_str(s, "fio-3.33");
    s->size = strlen(content);
    pb_sha256_hex(content, strlen(content), s->sha256);
    size_t c = pb_rs_config(s, "zfs-8k");
    pb_rs_config_param(s, c, "recordsize", "8192");
    size_t t = pb_rs_test(s, "fio randread bs=4k iodepth=1", "fio");
    pb_rs_test_param(s, t, "bs", "4096");
    pb_rs_add(s, c, t, NULL, "job1", "read_iops", "ops/s", PB_DIR_HIGHER,
              1416);
    pb_rs_add(s, c, t, "hostA", "job1", "read_clat_p99", "ns", PB_DIR_LOWER,
              2048000);
    struct pb_result *r = pb_rs_add_null(s, c, t, NULL, "job1", "seq_create",
                                         "ops/s", PB_DIR_HIGHER,
                                         "+++++ (too fast to measure)");
    r->samples = 3;
    pb_rs_fact(s, NULL, "fio_version", "fio-3.33");
    return s;
}

static void test_store_and_dup(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content one");
    size_t n = 0;
    assert_int_equal(pb_db_store(db, s, &n, &err), PB_OK);
    assert_int_equal(n, 3);
    /* Same bytes again: nothing changes. */
    assert_int_equal(pb_db_store(db, s, &n, &err), PB_EDUP);
    pb_resultset_free(s);
    /* Other bytes, same config and test: reuses them. */
    s = sample("content two");
    assert_int_equal(pb_db_store(db, s, &n, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);

    assert_int_equal(count("SELECT count(*) FROM source"), 2);
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM test"), 1);
    assert_int_equal(count("SELECT count(*) FROM result"), 6);
    assert_int_equal(count("SELECT count(*) FROM host"), 1);
    assert_int_equal(count("PRAGMA user_version"), PB_DB_SCHEMA_VERSION);
    assert_int_equal(count("SELECT value FROM v_result WHERE metric = "
                           "'read_iops' LIMIT 1"),
                     1416);
    assert_int_equal(count("SELECT count(*) FROM v_result WHERE value IS NULL "
                           "AND samples = 3"),
                     2);
    assert_int_equal(count("SELECT count(*) FROM result WHERE null_reason "
                           "LIKE '+++++%'"),
                     2);
    assert_int_equal(count("SELECT count(*) FROM v_result WHERE host = 'hostA' "
                           "AND direction = 'lower' AND unit = 'ns'"),
                     2);
}

static void test_rollback(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content three");
    /* A result pointing at a config that does not exist violates the
     * foreign key only after the source row went in: all must roll back. */
    s->results[1].config = 0;
    s->configs[0].label = NULL; /* NOT NULL constraint fails */
    size_t n = 0;
    assert_int_equal(pb_db_store(db, s, &n, &err), PB_EDB);
    assert_int_not_equal(err.msg[0], '\0');
    pb_resultset_free(s);
    pb_db_close(db);
    assert_int_equal(count("SELECT count(*) FROM source"), 0);
    assert_int_equal(count("SELECT count(*) FROM result"), 0);
}

static int collect(void *ctx, const struct pb_db_row *r)
{
    int *n = ctx;
    assert_string_equal(r->config, "zfs-8k");
    (*n)++;
    return 0;
}

static void test_filters(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content four");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    int n = 0;
    struct pb_db_filter f = {.metric_re = "^read_"};
    assert_int_equal(pb_db_each_result(db, &f, collect, &n, &err), PB_OK);
    assert_int_equal(n, 2);
    n = 0;
    struct pb_db_filter g = {.metric_re = "clat", .host_re = "^hostA$"};
    assert_int_equal(pb_db_each_result(db, &g, collect, &n, &err), PB_OK);
    assert_int_equal(n, 1);
    struct pb_db_filter bad = {.test_re = "(unclosed"};
    assert_int_equal(pb_db_each_result(db, &bad, collect, &n, &err),
                     PB_EUSAGE);
    struct pb_db_counts c;
    pb_err_clear(&err);
    assert_int_equal(pb_db_counts(db, &c, &err), PB_OK);
    assert_int_equal(c.results, 3);
    pb_db_close(db);
}

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
    assert_int_equal(pb_db_open("/nonexistent/dir/x.db", 0, &db, &err),
                     PB_EDB);
    assert_null(db);
}

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
    assert_int_equal(sqlite3_exec(h,
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
    assert_int_equal(count("PRAGMA user_version"), 2);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name = "
                           "'result_by_test'"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM v_result WHERE metric = "
                           "'read_iops' AND value = 1416"),
                     1);
}

static int source_ids(void *ctx, const struct pb_db_source *s)
{
    long long *ids = ctx;
    if (ids[0] < 2)
        ids[1 + ids[0]++] = s->id;
    return 0;
}

/* Forgetting a source deletes its results, facts and the source row, and
 * nothing of the other source; alone or inside a batch (a savepoint);
 * an id no source has changes nothing. */
static void test_forget_source(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s = sample("content forget one");
    pb_rs_fact(s, "hostA", "cpu", "one");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    s = sample("content forget two");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    long long ids[3] = {0};
    assert_int_equal(pb_db_each_source(db, source_ids, ids, &err), PB_OK);
    assert_int_equal(ids[0], 2);
    assert_int_equal(count("SELECT count(*) FROM result"), 6);
    assert_int_equal(count("SELECT count(*) FROM fact"), 3);

    assert_int_equal(pb_db_forget_source(db, ids[1], &err), PB_OK);
    assert_int_equal(count("SELECT count(*) FROM source"), 1);
    assert_int_equal(count("SELECT count(*) FROM result"), 3);
    assert_int_equal(count("SELECT count(*) FROM fact"), 1);
    char sql[128];
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM result WHERE "
             "source_id = %lld", ids[2]);
    assert_int_equal(count(sql), 3);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM fact WHERE "
             "source_id = %lld AND key = 'fio_version'", ids[2]);
    assert_int_equal(count(sql), 1);
    assert_int_equal(count("SELECT count(*) FROM v_result WHERE metric = "
                           "'read_iops' AND value = 1416"),
                     1);
    /* configs, tests and metrics stay for the other source */
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM test"), 1);
    /* an unknown id: nothing changes */
    assert_int_equal(pb_db_forget_source(db, ids[1], &err), PB_OK);
    assert_int_equal(pb_db_forget_source(db, 999999, &err), PB_OK);
    assert_int_equal(count("SELECT count(*) FROM source"), 1);

    /* inside a batch: a savepoint, committed with the batch */
    assert_int_equal(pb_db_begin(db, &err), PB_OK);
    s = sample("content forget three");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    assert_int_equal(pb_db_forget_source(db, ids[2], &err), PB_OK);
    assert_int_equal(pb_db_commit(db, &err), PB_OK);
    /* the same sha256 may be stored again once forgotten */
    s = sample("content forget one");
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    pb_db_close(db);
    assert_int_equal(count("SELECT count(*) FROM source"), 2);
    assert_int_equal(count("SELECT count(*) FROM result"), 6);
    assert_int_equal(count("SELECT count(*) FROM fact"), 2);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM source WHERE id = %lld",
             ids[2]);
    assert_int_equal(count(sql), 0);
    /* no result or fact points at a source that is gone */
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM result WHERE source_id NOT "
                           "IN (SELECT id FROM source)"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM fact WHERE source_id NOT IN "
                           "(SELECT id FROM source)"),
                     0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store_and_dup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rollback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forget_source, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
