/* Unit tests for model/guard.c (issue 40 item 4): a database from
 * elsewhere (compare's db:FILE, a merged file) is read only when each
 * table poolbench reads is a table of its shape and it holds no trigger,
 * and its work is bounded in proportion to its size; a FIFO named as a
 * database is refused without blocking. */
#define _GNU_SOURCE
#include "tests/unit/db_help.h"
#include "model/db_int.h"

#include <dirent.h>
#include <sys/stat.h>

static void make_db(void)
{
    struct pb_db *db;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open(dbpath, 0, &db, &e), PB_OK);
    store(db, sample("guard"));
    pb_db_close(db);
}

static void sql(const char *text)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(dbpath, &h), SQLITE_OK);
    if (sqlite3_exec(h, text, NULL, NULL, NULL) != SQLITE_OK)
        fail_msg("%s: %s", text, sqlite3_errmsg(h));
    sqlite3_close(h);
}

/* A poolbench database of its own shape opens, with a budget of
 * max(DB_BUDGET_MIN, bytes x DB_BUDGET_PER_BYTE) instructions. */
static void test_legit(void **state)
{
    (void)state;
    make_db();
    struct pb_db *db;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open_foreign(dbpath, &db, &e), PB_OK);
    struct stat st;
    assert_int_equal(stat(dbpath, &st), 0);
    assert_true(db->budget_bytes >= (double)st.st_size);
    double want = db->budget_bytes * DB_BUDGET_PER_BYTE;
    assert_near(db->budget_ops, want > DB_BUDGET_MIN ? want : DB_BUDGET_MIN,
                0);
    assert_string_equal(pb_db_path(db), dbpath);
    pb_db_close(db);
}

/* Each way a file can differ from poolbench's shape, named. */
static void test_shape(void **state)
{
    (void)state;
    static const struct {
        const char *sql, *msg;
    } cases[] = {
        {"DROP INDEX fact_by_source; DROP TABLE fact; CREATE VIEW fact AS "
         "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
         "SELECT 1 AS source_id, NULL AS host, 'k' AS key, 'v' AS value "
         "FROM c WHERE x < 0",
         "not poolbench's schema: 'fact' is a view, not a table"},
        {"DROP TABLE series_point",
         "not poolbench's schema: no table 'series_point'"},
        {"ALTER TABLE fact DROP COLUMN host",
         "not poolbench's schema: table 'fact' has no column 'host'"},
        {"ALTER TABLE fact ADD COLUMN extra",
         "not poolbench's schema: table 'fact' has a column 'extra' "
         "poolbench does not make"},
        {"CREATE TRIGGER t AFTER INSERT ON fact BEGIN SELECT 1; END",
         "not poolbench's schema: trigger 't' (poolbench makes none)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        teardown(NULL);
        make_db();
        sql(cases[i].sql);
        struct pb_db *db = NULL;
        struct pb_err e = {0};
        double t0 = th_now();
        assert_int_equal(pb_db_open_foreign(dbpath, &db, &e), PB_EDB);
        assert_null(db);
        assert_string_equal(e.msg, cases[i].msg);
        /* the merge reads through the same guard, and says so */
        struct pb_db_merge *m = NULL;
        pb_err_clear(&e);
        assert_int_equal(pb_db_merge_open(dbpath, &m, &e), PB_EDB);
        assert_null(m);
        char *want = pb_xasprintf("cannot read the database: %s",
                                  cases[i].msg);
        assert_string_equal(e.msg, want);
        free(want);
        assert_true(th_now() - t0 < 5);
        /* still a database of its own for the user who made it */
        assert_int_equal(pb_db_open(dbpath, 1, &db, &e), PB_OK);
        pb_db_close(db);
    }
}

/* A statement past the budget ends with SQLITE_INTERRUPT and the bound's
 * message, at once, instead of never. */
static void test_budget(void **state)
{
    (void)state;
    make_db();
    struct pb_db *db;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open_foreign(dbpath, &db, &e), PB_OK);
    db->budget = 100; /* 100,000 instructions, not 1e8: a fast test */
    sqlite3_stmt *q;
    assert_int_equal(
        sqlite3_prepare_v2(db->h,
                           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                           "SELECT x + 1 FROM c) SELECT count(*) FROM c "
                           "WHERE x < 0",
                           -1, &q, NULL),
        SQLITE_OK);
    double t0 = th_now();
    assert_int_equal(sqlite3_step(q), SQLITE_INTERRUPT);
    assert_true(th_now() - t0 < 2);
    sqlite3_finalize(q);
    assert_int_equal(db_fail(db, &e, "cannot read the database"), PB_EDB);
    char *want = pb_xasprintf(
        "cannot read the database: more work than a database of %.0f KiB "
        "can need (%.3g SQLite instructions): a hostile or broken file",
        db->budget_bytes / 1024.0, db->budget_ops);
    assert_string_equal(e.msg, want);
    free(want);
    pb_db_close(db);
    /* the user's own database has no bound */
    assert_int_equal(pb_db_open(dbpath, 1, &db, &e), PB_OK);
    assert_int_equal(db->budget_ops, 0);
    pb_db_close(db);
}

/* A FIFO named as a database: refused at once, for reading and writing. */
static void test_fifo(void **state)
{
    (void)state;
    alarm(20); /* a regression fails the test instead of hanging it */
    assert_int_equal(mkfifo(dbpath, 0600), 0);
    struct pb_db *db;
    struct pb_err e = {0};
    double t0 = th_now();
    assert_int_equal(pb_db_open(dbpath, 1, &db, &e), PB_EDB);
    assert_string_equal(e.msg,
                        "cannot open database: not a regular file (a FIFO)");
    pb_err_clear(&e);
    assert_int_equal(pb_db_open(dbpath, 0, &db, &e), PB_EDB);
    pb_err_clear(&e);
    assert_int_equal(pb_db_open_foreign(dbpath, &db, &e), PB_EDB);
    assert_true(th_now() - t0 < 2);
    /* and SQLite itself, opening the name, gets no FIFO either */
    db_sqlite_init();
    sqlite3 *h;
    t0 = th_now();
    assert_int_not_equal(sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READONLY,
                                         NULL),
                         SQLITE_OK);
    sqlite3_close(h);
    assert_true(th_now() - t0 < 2);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_legit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
