/* Unit tests for model/merge.c through its API (pb_db_merge_*), outside
 * any batch (the path `ingest` never takes): result ids remapped for the
 * samples when the target's ids differ from the other database's, an own
 * configuration kept with its origins, a duplicate storing nothing, and a
 * set that is not the source read last refused. */
#include "tests/unit/testhelp.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pb.h"
#include "model/db.h"

static char apath[64], bpath[64];

static void rm_db(const char *p)
{
    static const char *const ext[] = {"", "-wal", "-shm"};
    char q[96];
    for (int i = 0; i < 3; i++) {
        snprintf(q, sizeof(q), "%s%s", p, ext[i]);
        unlink(q);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(apath, sizeof(apath), "/tmp/pb_test_merge_a_%d.db", (int)getpid());
    snprintf(bpath, sizeof(bpath), "/tmp/pb_test_merge_b_%d.db", (int)getpid());
    rm_db(apath);
    rm_db(bpath);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    rm_db(apath);
    rm_db(bpath);
    return 0;
}

static char *text(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    if (sqlite3_prepare_v2(h, sql, -1, &q, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(h));
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    const char *t = (const char *)sqlite3_column_text(q, 0);
    char *out = pb_xstrdup(t ? t : "(null)");
    sqlite3_finalize(q);
    sqlite3_close(h);
    return out;
}

static void exec(const char *path, const char *sql)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

/* A source of n results read_iops = base + k under label, with a --set
 * dimension. */
static struct pb_resultset *source(const char *name, const char *label,
                                   int n, double base)
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, name);
    s->format = "fio-json";
    s->size = strlen(name);
    pb_sha256_hex(name, strlen(name), s->sha256);
    size_t c = pb_rs_config(s, label);
    pb_rs_config_param_origin(s, c, "recordsize", "8192",
                              "set: --set recordsize=8k");
    size_t t = pb_rs_test(s, "fio randread bs=4k iodepth=1", "fio");
    pb_rs_test_param(s, t, "bs", "4096");
    for (int k = 0; k < n; k++) {
        char job[16];
        snprintf(job, sizeof(job), "job%d", k);
        pb_rs_add(s, c, t, "hostb", job, "read_iops", "ops/s", PB_DIR_HIGHER,
                  base + k);
    }
    return s;
}

static void store(const char *path, struct pb_resultset *s)
{
    struct pb_db *db;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open(path, 0, &db, &e), PB_OK);
    assert_int_equal(pb_db_store(db, s, NULL, &e), PB_OK);
    pb_db_close(db);
    pb_resultset_free(s);
}

static void test_remap_outside_batch(void **state)
{
    (void)state;
    /* A: 5 results first, so B's result ids 1..3 become 6..8 */
    store(apath, source("a.json", "other", 5, 100));
    store(bpath, source("b1.json", "zfs 8k", 3, 10));
    store(bpath, source("b2.json", "zfs 8k", 2, 20));
    exec(bpath, "INSERT INTO sample SELECT id, 0, value + 0.5 FROM result;"
                "INSERT INTO sample SELECT id, 1, value + 0.25 FROM result "
                "WHERE source_id = 2");

    struct pb_db *db;
    struct pb_db_merge *m;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open(apath, 0, &db, &e), PB_OK);
    assert_int_equal(pb_db_merge_open(bpath, &m, &e), PB_OK);
    assert_int_equal(pb_db_merge_count(m), 2);
    struct pb_resultset *set;
    size_t n = 0, total = 0;
    for (;;) {
        assert_int_equal(pb_db_merge_next(m, &set, &e), PB_OK);
        if (!set)
            break;
        assert_int_equal(pb_db_merge_store(db, m, set, &n, &e), PB_OK);
        total += n;
        pb_resultset_free(set);
    }
    pb_db_merge_close(m);
    assert_int_equal(total, 5);

    /* again: both duplicates, nothing written */
    assert_int_equal(pb_db_merge_open(bpath, &m, &e), PB_OK);
    while (pb_db_merge_next(m, &set, &e) == PB_OK && set) {
        assert_int_equal(pb_db_merge_store(db, m, set, &n, &e), PB_EDUP);
        assert_int_equal(n, 0);
        pb_resultset_free(set);
    }
    pb_db_merge_close(m);
    pb_db_close(db);

    char *t = text(apath, "SELECT count(*) || ' ' || min(result_id) || ' ' "
                          "|| max(result_id) FROM sample");
    assert_string_equal(t, "7 6 10");
    free(t);
    /* every sample sits on the result it was taken for */
    t = text(apath, "SELECT count(*) FROM sample s JOIN result r ON r.id = "
                    "s.result_id WHERE s.value = r.value + CASE s.seq WHEN "
                    "0 THEN 0.5 ELSE 0.25 END");
    assert_string_equal(t, "7");
    free(t);
    /* the own configuration keeps its origin; host and job came along */
    t = text(apath, "SELECT group_concat(c.label || ':' || p.key || '=' || "
                    "p.value || '#' || p.origin) FROM config_own c JOIN "
                    "config_own_param p ON p.own_id = c.id WHERE c.label = "
                    "'zfs 8k'");
    assert_string_equal(t, "zfs 8k:recordsize=8192#set: --set recordsize=8k");
    free(t);
    t = text(apath, "SELECT group_concat(host || '/' || job || '/' || value, "
                    "' ') FROM v_result WHERE source_path = 'b2.json'");
    assert_string_equal(t, "hostb/job0/20.0 hostb/job1/21.0");
    free(t);
    t = text(apath, "PRAGMA integrity_check");
    assert_string_equal(t, "ok");
    free(t);
}

/* A set that is not the one read last is refused before anything is
 * written. */
static void test_wrong_set_refused(void **state)
{
    (void)state;
    store(bpath, source("b1.json", "zfs 8k", 3, 10));
    struct pb_db *db;
    struct pb_db_merge *m;
    struct pb_err e = {0};
    assert_int_equal(pb_db_open(apath, 0, &db, &e), PB_OK);
    assert_int_equal(pb_db_merge_open(bpath, &m, &e), PB_OK);
    struct pb_resultset *set, *other = source("x.json", "x", 1, 1);
    assert_int_equal(pb_db_merge_next(m, &set, &e), PB_OK);
    assert_non_null(set);
    size_t n = 7;
    assert_int_equal(pb_db_merge_store(db, m, other, &n, &e), PB_EDB);
    assert_int_equal(n, 0);
    assert_non_null(strstr(e.msg, "not the source read last"));
    pb_resultset_free(other);
    pb_resultset_free(set);
    pb_db_merge_close(m);
    pb_db_close(db);
    char *t = text(apath, "SELECT count(*) FROM source");
    assert_string_equal(t, "0");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_remap_outside_batch, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wrong_set_refused, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
