/* Unit tests for model/: schema creation and version, storing a result
 * set, idempotence by SHA-256, rollback leaving nothing behind, and the
 * read iterators with PCRE2 filters. */
#include "tests/unit/testhelp.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/db.h"
#include "common/pb.h"

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
    assert_int_equal(count("SELECT count(*) FROM result r JOIN reason y ON "
                           "y.id = r.reason_id WHERE y.text LIKE '+++++%'"),
                     2);
    assert_int_equal(count("SELECT count(*) FROM reason"), 1);
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
#define TO_V6                                                                 \
    "DROP VIEW v_result; ALTER TABLE result ADD COLUMN job TEXT; "           \
    "ALTER TABLE result ADD COLUMN null_reason TEXT; "                       \
    "UPDATE result SET job = (SELECT name FROM job WHERE id = job_id), "    \
    "null_reason = (SELECT text FROM reason WHERE id = reason_id); "        \
    "ALTER TABLE result DROP COLUMN job_id; "                                \
    "ALTER TABLE result DROP COLUMN reason_id; DROP TABLE job; "             \
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
    assert_int_equal(pb_db_report_params(db, 0, count_params, &n, &err),
                     PB_OK);
    pb_db_close(db);
    assert_int_equal(n, 1);
    assert_int_equal(count("PRAGMA user_version"), PB_DB_SCHEMA_VERSION);
}

/* ==== configurations: attached dimensions, order, re-keying ==== */

/* A source of label with dims "key=value#origin" (origin optional) and,
 * unless `results` is 0, one read_iops result of value v. */
static struct pb_resultset *src(const char *content, const char *label,
                                const char *const *dims, int results,
                                double v)
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, content);
    s->format = results ? "test" : "sheet";
    s->size = strlen(content);
    pb_sha256_hex(content, strlen(content), s->sha256);
    size_t c = pb_rs_config(s, label);
    for (size_t i = 0; dims && dims[i]; i++) {
        char *k = pb_xstrdup(dims[i]);
        char *eq = strchr(k, '=');
        char *hash = strchr(k, '#');
        *eq = '\0';
        if (hash)
            *hash = '\0';
        pb_rs_config_param_origin(s, c, k, eq + 1, hash ? hash + 1 : NULL);
        free(k);
    }
    if (results) {
        size_t t = pb_rs_test(s, "fio randread bs=4k", "fio");
        pb_rs_add(s, c, t, NULL, "job", "read_iops", "ops/s", PB_DIR_HIGHER,
                  v);
    }
    return s;
}

static void store(struct pb_db *db, struct pb_resultset *s)
{
    struct pb_err err = {0};
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

/* Text of a query's rows ("a|b\n..."), from the database at path. */
static char *rows(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    while (sqlite3_step(q) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(q); i++) {
            const char *t = (const char *)sqlite3_column_text(q, i);
            pb_buf_printf(&b, "%s%s", i ? "|" : "", t ? t : "NULL");
        }
        pb_buf_putc(&b, '\n');
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
    return pb_buf_take(&b);
}

/* What must not depend on the order of ingest: configs with their
 * dimensions and origins, and which config each result has (ids may
 * differ: they follow the order configs first appeared in); the model is
 * clean. */
static char *model_text(const char *path)
{
    char *a = rows(path, "SELECT c.label, p.key, p.value, p.origin "
                         "FROM config c LEFT JOIN config_param p ON "
                         "p.config_id = c.id ORDER BY c.label, "
                         "c.signature, p.key");
    char *b = rows(path, "SELECT c.label, replace(c.signature, char(31), "
                         "','), m.name, r.value, s.path FROM result r JOIN "
                         "config c ON c.id = r.config_id JOIN metric m ON "
                         "m.id = r.metric_id JOIN source s ON s.id = "
                         "r.source_id ORDER BY s.path, m.name");
    char *c = rows(path, "PRAGMA integrity_check");
    char *d = rows(path, "PRAGMA foreign_key_check");
    assert_string_equal(c, "ok\n");
    assert_string_equal(d, "");
    char *t = pb_xasprintf("%s--\n%s", a, b);
    free(a);
    free(b);
    free(c);
    free(d);
    return t;
}

static const char *const sheet_x[] = {"layout=mirror#sheet: s.csv:2",
                                      "vdevs=2#sheet: s.csv:2", NULL};
static const char *const by_label[] = {"layout=mirror#label: mirror", NULL};
static const char *const by_set[] = {"layout=raidz1#set: --set layout=raidz1",
                                     NULL};

/* Two sources of label X: one says nothing, one says layout=mirror (a
 * label rule); the sheet says layout=mirror vdevs=2 for X. */
static void store_merge_case(struct pb_db *db, int sheet_first)
{
    if (sheet_first)
        store(db, src("sheet", "X", sheet_x, 0, 0));
    store(db, src("plain", "X", NULL, 1, 100));
    store(db, src("labelled", "X", by_label, 1, 200));
    store(db, src("other", "Y", NULL, 1, 300));
    if (!sheet_first)
        store(db, src("sheet", "X", sheet_x, 0, 0));
}

static void test_attach_order(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    char other[80];
    snprintf(other, sizeof(other), "%s.2", dbpath);
    unlink(other);
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    store_merge_case(db, 1);
    pb_db_close(db);
    assert_int_equal(pb_db_open(other, 0, &db, &err), PB_OK);
    store_merge_case(db, 0);
    pb_db_close(db);
    char *a = model_text(dbpath), *b = model_text(other);
    assert_string_equal(a, b);
    /* both sources of X are one configuration now: the sheet made the
     * plain one a mirror too; the label rule's origin loses to the
     * sheet's; Y is untouched */
    assert_string_equal(a, "X|layout|mirror|sheet: s.csv:2\n"
                           "X|vdevs|2|sheet: s.csv:2\n"
                           "Y|NULL|NULL|NULL\n"
                           "--\n"
                           "X|layout=mirror,vdevs=2|read_iops|200.0|labelled\n"
                           "Y||read_iops|300.0|other\n"
                           "X|layout=mirror,vdevs=2|read_iops|100.0|plain\n");
    /* the merged config kept the smaller id */
    assert_int_equal(count("SELECT count(*) FROM config WHERE id = 1 AND "
                           "label = 'X'"),
                     1);
    free(a);
    free(b);
    unlink(other);
    snprintf(other + strlen(other), 8, "-wal");
    unlink(other);
}

static long long source_id(const char *path)
{
    char sql[128];
    snprintf(sql, sizeof(sql), "SELECT id FROM source WHERE path = '%s'",
             path);
    return count(sql);
}

/* Forgetting the sheet takes its dimensions back and splits the merged
 * configuration again; a --set dimension wins over the sheet. */
static void test_attach_forget(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    store_merge_case(db, 0);
    store(db, src("set", "X", by_set, 1, 400));
    assert_int_equal(count("SELECT count(*) FROM config WHERE label = 'X'"),
                     2);
    char *a = rows(dbpath, "SELECT c.id, p.key, p.value, p.origin FROM "
                           "config c JOIN config_param p ON p.config_id = "
                           "c.id WHERE c.label = 'X' ORDER BY 1, 2");
    assert_string_equal(a, "1|layout|mirror|sheet: s.csv:2\n"
                           "1|vdevs|2|sheet: s.csv:2\n"
                           "4|layout|raidz1|set: --set layout=raidz1\n"
                           "4|vdevs|2|sheet: s.csv:2\n");
    free(a);
    assert_int_equal(pb_db_forget_source(db, source_id("sheet"), &err),
                     PB_OK);
    pb_db_close(db);
    a = rows(dbpath, "SELECT c.id, c.label, p.key, p.value, p.origin FROM "
                     "config c LEFT JOIN config_param p ON p.config_id = "
                     "c.id ORDER BY 1, 3");
    /* plain X keeps id 1 (no dims), the labelled one gets a new id */
    assert_string_equal(a, "1|X|NULL|NULL|NULL\n"
                           "3|Y|NULL|NULL|NULL\n"
                           "4|X|layout|raidz1|set: --set layout=raidz1\n"
                           "5|X|layout|mirror|label: mirror\n");
    free(a);
    a = rows(dbpath, "SELECT s.path, r.config_id, r.own_id FROM result r "
                     "JOIN source s ON s.id = r.source_id ORDER BY 1");
    assert_string_equal(a, "labelled|5|2\nother|3|3\nplain|1|1\nset|4|4\n");
    free(a);
    assert_int_equal(count("SELECT count(*) FROM label_param"), 0);
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"),
                     0);
}

/* Another connection re-keys (merging configs): this one's cached ids
 * are dropped before its next store, which lands in the right config. */
static void test_attach_other_connection(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *one, *two;
    assert_int_equal(pb_db_open(dbpath, 0, &one, &err), PB_OK);
    store(one, src("plain", "X", NULL, 1, 100));
    store(one, src("labelled", "X", by_label, 1, 200));
    assert_int_equal(pb_db_open(dbpath, 0, &two, &err), PB_OK);
    store(two, src("sheet", "X", sheet_x, 0, 0));
    pb_db_close(two);
    /* config 2 was merged into 1; "one" had cached it */
    store(one, src("labelled again", "X", by_label, 1, 250));
    pb_db_close(one);
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM result WHERE config_id = 1"),
                     3);
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"),
                     0);
}

/* Two sheets disagreeing about one label, and a companion against the
 * parser: the outcome is the same in both orders (sheet beats companion,
 * the parser beats a companion; between two sheets the smaller origin
 * text). */
static void test_attach_conflicts(void **state)
{
    (void)state;
    static const char *const s1[] = {"layout=mirror#sheet: a.csv:2", NULL};
    static const char *const s2[] = {"layout=raidz2#sheet: b.csv:5", NULL};
    static const char *const comp[] = {"layout=stripe#companion: st.txt",
                                       "slog=yes#companion: st.txt",
                                       "ashift=9#companion: st.txt", NULL};
    static const char *const parsed[] = {"ashift=12", NULL};
    struct pb_err err = {0};
    struct pb_db *db;
    char *first = NULL;
    for (int order = 0; order < 2; order++) {
        teardown(NULL);
        assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
        if (order)
            store(db, src("res", "X", parsed, 1, 1));
        store(db, src(order ? "b" : "comp", "X", order ? s2 : comp, 1, 2));
        store(db, src("a", "X", s1, 0, 0));
        store(db, src(order ? "comp" : "b", "X", order ? comp : s2, 1, 2));
        if (!order)
            store(db, src("res", "X", parsed, 1, 1));
        pb_db_close(db);
        char *t = rows(dbpath, "SELECT p.key, p.value, p.origin FROM "
                               "config c JOIN config_param p ON "
                               "p.config_id = c.id ORDER BY c.signature, "
                               "1");
        if (!first)
            first = t;
        else {
            assert_string_equal(first, t);
            free(t);
        }
    }
    /* the parsed source keeps its ashift (the parser beats a companion);
     * the companion's own results get its ashift=9; the sheets agree on
     * nothing: a.csv's mirror wins (smaller origin text) over b.csv's
     * raidz2, and over the companion's stripe */
    assert_string_equal(first, "ashift|12|NULL\n"
                               "layout|mirror|sheet: a.csv:2\n"
                               "slog|yes|companion: st.txt\n"
                               "ashift|9|companion: st.txt\n"
                               "layout|mirror|sheet: a.csv:2\n"
                               "slog|yes|companion: st.txt\n");
    free(first);
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

/* rm's model steps: choosing sources, pruning what no result uses, a
 * dry run rolled back; relabel re-deriving label dimensions. */
static void test_edit(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    static const char *const rs8k[] = {"recordsize=8192", NULL};
    store(db, src("edit one", "zfs rs8k", rs8k, 1, 100));
    store(db, src("edit two", "zfs rs8k", rs8k, 1, 300));
    store(db, src("edit three", "ext4", NULL, 1, 50));
    struct pb_db_select sel = {"edit two", NULL, NULL, NULL};
    long long *ids = NULL;
    size_t n = 0;
    assert_int_equal(pb_db_select_sources(db, &sel, &ids, &n, &err), PB_OK);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], 2);
    free(ids);
    sel.source = "3"; /* an id */
    assert_int_equal(pb_db_select_sources(db, &sel, &ids, &n, &err), PB_OK);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], 3);
    free(ids);
    struct pb_db_select byconf = {NULL, "^zfs", NULL, NULL};
    assert_int_equal(pb_db_select_sources(db, &byconf, &ids, &n, &err),
                     PB_OK);
    assert_int_equal(n, 2);
    int outside = 1;
    assert_int_equal(pb_db_source_outside(db, ids[0], "^zfs", &outside, &err),
                     PB_OK);
    assert_int_equal(outside, 0);
    assert_int_equal(pb_db_source_outside(db, ids[0], "^ext", &outside, &err),
                     PB_OK);
    assert_int_equal(outside, 1);

    /* a dry run: everything inside a batch, rolled back */
    assert_int_equal(pb_db_begin(db, &err), PB_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pb_db_forget_source(db, ids[i], &err), PB_OK);
    assert_int_equal(pb_db_prune(db, &err), PB_OK);
    pb_db_rollback(db);
    assert_int_equal(count("SELECT count(*) FROM source"), 3);
    assert_int_equal(count("SELECT count(*) FROM result"), 3);
    assert_int_equal(count("SELECT count(*) FROM config"), 2);

    /* for real: the zfs config goes, ext4 and its test stay */
    assert_int_equal(pb_db_begin(db, &err), PB_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pb_db_forget_source(db, ids[i], &err), PB_OK);
    assert_int_equal(pb_db_prune(db, &err), PB_OK);
    assert_int_equal(pb_db_commit(db, &err), PB_OK);
    free(ids);
    assert_int_equal(count("SELECT count(*) FROM source"), 1);
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM config_own"), 1);
    assert_int_equal(count("SELECT count(*) FROM config_param"), 0);
    assert_int_equal(count("SELECT count(*) FROM config_own_param"), 0);
    assert_int_equal(count("SELECT count(*) FROM test"), 1);

    /* relabel: the old label's dimension goes, the new one's comes */
    struct pb_kv nd[] = {{"recordsize", "131072", NULL}};
    struct pb_db_relabel r = {"ext4", "zfs rs128k", NULL, 0, NULL, nd, 0, 1};
    size_t moved = 0;
    assert_int_equal(pb_db_relabel(db, &r, &moved, &err), PB_OK);
    assert_int_equal(moved, 1);
    pb_db_close(db);
    char *got = rows(dbpath, "SELECT c.label, p.key, p.value FROM config c "
                             "JOIN config_param p ON p.config_id = c.id");
    assert_string_equal(got, "zfs rs128k|recordsize|131072\n");
    free(got);
    assert_int_equal(count("SELECT count(*) FROM result r JOIN config_own o "
                           "ON o.id = r.own_id WHERE o.config_id != "
                           "r.config_id OR o.label != 'zfs rs128k'"),
                     0);
    assert_int_equal(count("SELECT count(*) FROM config"), 1);
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"),
                     0);
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
    pb_rs_add(s, c, t, NULL, "job2 <b>", "write_iops", "ops/s",
              PB_DIR_HIGHER, 321);
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
    assert_int_equal(count("PRAGMA user_version"), 7);
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
    assert_int_equal(count("SELECT count(*) FROM pragma_foreign_key_check"),
                     0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store_and_dup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rollback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_v6, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forget_source, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reader_upgrades, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_attach_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attach_forget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attach_other_connection, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_attach_conflicts, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
