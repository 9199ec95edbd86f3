/* Unit tests for model/: storing a result set, idempotence by SHA-256,
 * rollback leaving nothing behind, the read iterators with PCRE2 filters,
 * attached dimensions, forgetting and editing. Schema versions and
 * migrations: test_db_migrate.c. */
#include "tests/unit/db_help.h"

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

/* ==== configurations: attached dimensions, order, re-keying ==== */

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

/* A new own config is stored without reading back what was just written
 * when no label has attached dimensions (store.c own_new): the same
 * configs, own configs, params, origins and ids as the path that reads
 * them back (forced here by a sheet of another label). Two own configs
 * of X differ only in an origin (one config: the better origin wins);
 * Y's is stored once; a source repeats the first's own config; W has
 * more params than one INSERT of them takes. */
static void test_new_own_paths(void **state)
{
    (void)state;
    static const char *const a[] = {"recordsize=8192",
                                    "compression=lz4#label: X", NULL};
    static const char *const b[] = {"recordsize=8192#command: zfs get",
                                    "compression=lz4#label: X", NULL};
    static const char *const y[] = {"pool=tank#label: Y", NULL};
    static const char *const z[] = {"layout=mirror#sheet: z.csv:2", NULL};
    /* more params than one INSERT takes (KV_MULTI) */
    char wbuf[20][16];
    const char *w[21];
    for (int i = 0; i < 20; i++) {
        snprintf(wbuf[i], sizeof(wbuf[i]), "k%02d=v%02d", i, i);
        w[i] = wbuf[i];
    }
    w[20] = NULL;
    struct pb_err err = {0};
    char *seen[2];
    for (int slow = 0; slow < 2; slow++) {
        teardown(NULL);
        struct pb_db *db;
        assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
        if (slow)
            store(db, src("z", "Z", z, 0, 0));
        store(db, src("a", "X", a, 1, 1));
        store(db, src("b", "X", b, 1, 2));
        store(db, src("y", "Y", y, 1, 3));
        store(db, src("a2", "X", a, 1, 4));
        store(db, src("w", "W", w, 1, 5));
        pb_db_close(db);
        char *c = rows(dbpath, "SELECT c.id, c.label, replace(c.signature, "
                               "char(31), ','), p.key, p.value, p.origin "
                               "FROM config c LEFT JOIN config_param p ON "
                               "p.config_id = c.id WHERE c.label <> 'W' "
                               "ORDER BY c.id, p.key");
        char *o = rows(dbpath, "SELECT o.id, o.config_id, p.key, p.value, "
                               "p.origin FROM config_own o LEFT JOIN "
                               "config_own_param p ON p.own_id = o.id "
                               "WHERE o.label <> 'W' ORDER BY o.id, p.key");
        char *wc = rows(dbpath, "SELECT c.id, count(*), min(p.key), "
                                "max(p.value), length(c.signature) FROM "
                                "config c JOIN config_param p ON "
                                "p.config_id = c.id WHERE c.label = 'W' "
                                "UNION ALL SELECT o.id, count(*), min(p.key), "
                                "max(p.value), o.config_id FROM config_own "
                                "o JOIN config_own_param p ON p.own_id = "
                                "o.id WHERE o.label = 'W'");
        char *r = rows(dbpath, "SELECT r.value, r.config_id, r.own_id FROM "
                               "result r ORDER BY r.id");
        seen[slow] = pb_xasprintf("%s--\n%s--\n%s--\n%s", c, o, r, wc);
        free(wc);
        free(c);
        free(o);
        free(r);
    }
    assert_string_equal(seen[0], seen[1]);
    assert_string_equal(seen[0],
                        "1|X|compression=lz4,recordsize=8192|compression|lz4|"
                        "label: X\n"
                        "1|X|compression=lz4,recordsize=8192|recordsize|8192|"
                        "NULL\n"
                        "2|Y|pool=tank|pool|tank|label: Y\n"
                        "--\n"
                        "1|1|compression|lz4|label: X\n"
                        "1|1|recordsize|8192|NULL\n"
                        "2|1|compression|lz4|label: X\n"
                        "2|1|recordsize|8192|command: zfs get\n"
                        "3|2|pool|tank|label: Y\n"
                        "--\n"
                        "1.0|1|1\n2.0|1|2\n3.0|2|3\n4.0|1|1\n5.0|3|4\n"
                        "--\n"
                        "3|20|k00|v19|159\n"
                        "4|20|k00|v19|3\n");
    free(seen[0]);
    free(seen[1]);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store_and_dup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rollback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forget_source, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attach_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attach_forget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attach_other_connection, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_attach_conflicts, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_new_own_paths, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
