/* The SQLite model: open and migrate, store result sets one transaction per
 * source, and the read queries. All SQL text lives here. */
#define _GNU_SOURCE
#include "model/db.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern const char pb_schema_sql[];

/* ==== statements ==== */

enum stmt {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_SAVEPOINT,
    S_RELEASE,
    S_ROLLBACK_TO,
    S_SOURCE_FIND,
    S_SOURCE_INSERT,
    S_HOST_FIND,
    S_HOST_INSERT,
    S_CONFIG_FIND,
    S_CONFIG_INSERT,
    S_CONFIG_PARAM_INSERT,
    S_TEST_FIND,
    S_TEST_INSERT,
    S_TEST_PARAM_INSERT,
    S_METRIC_FIND,
    S_METRIC_INSERT,
    S_RESULT_INSERT,
    S_FACT_INSERT,
    S_EACH_RESULT,
    S_EACH_SOURCE,
    S_EACH_CONFIG,
    S_EACH_TEST,
    S_COUNTS,
    /* report queries */
    S_REPORT_ROWS,
    S_REPORT_CONFIGS,
    S_REPORT_TESTS,
    S_REPORT_CONFIG_PARAMS,
    S_REPORT_TEST_PARAMS,
    S_REPORT_FACTS,
    /* forgetting a source */
    S_FORGET_RESULTS,
    S_FORGET_FACTS,
    S_FORGET_SOURCE,
    S__COUNT
};

static const char *const stmt_sql[S__COUNT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_SAVEPOINT] = "SAVEPOINT pb_source",
    [S_RELEASE] = "RELEASE pb_source",
    [S_ROLLBACK_TO] = "ROLLBACK TO pb_source",
    [S_SOURCE_FIND] = "SELECT id FROM source WHERE sha256 = ?1",
    [S_SOURCE_INSERT] =
        "INSERT INTO source(sha256, path, format, tool_version, size, "
        "ingested_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [S_HOST_FIND] = "SELECT id FROM host WHERE name = ?1",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?1)",
    [S_CONFIG_FIND] =
        "SELECT id FROM config WHERE label = ?1 AND signature = ?2",
    [S_CONFIG_INSERT] = "INSERT INTO config(label, signature) VALUES (?1, ?2)",
    [S_CONFIG_PARAM_INSERT] = "INSERT OR IGNORE INTO config_param(config_id, "
                              "key, value) VALUES (?1, ?2, ?3)",
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
    [S_RESULT_INSERT] =
        "INSERT INTO result(source_id, host_id, config_id, test_id, job, "
        "metric_id, value, null_reason, stderr, samples) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    [S_FACT_INSERT] = "INSERT INTO fact(source_id, host, key, value) "
                      "VALUES (?1, ?2, ?3, ?4)",
    [S_EACH_RESULT] =
        "SELECT source_path, format, host, config, test, tool, job, metric, "
        "value, unit, direction, stderr, samples FROM v_result "
        "WHERE (?1 IS NULL OR regexp(?1, test)) "
        "AND (?2 IS NULL OR regexp(?2, config)) "
        "AND (?3 IS NULL OR regexp(?3, metric)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(host, ''))) "
        "AND (?5 IS NULL OR format = ?5) "
        "ORDER BY test, config, metric, job, host, source_path",
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
     * a report over 100,000 results stays one pass */
    [S_REPORT_ROWS] =
        "SELECT r.test_id, r.metric_id, r.config_id, r.source_id, m.name, "
        "m.unit, m.direction, r.job, h.name, r.value, r.null_reason, "
        "r.stderr, r.samples FROM result r "
        "JOIN metric m ON m.id = r.metric_id "
        "JOIN test t ON t.id = r.test_id "
        "JOIN config c ON c.id = r.config_id "
        "LEFT JOIN host h ON h.id = r.host_id "
        "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
        "AND (?2 IS NULL OR regexp(?2, c.label)) "
        "AND (?3 IS NULL OR regexp(?3, m.name)) "
        "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
        "AND (?5 IS NULL OR r.source_id IN "
        "(SELECT id FROM source WHERE format = ?5)) "
        "ORDER BY r.test_id, r.metric_id, r.config_id, r.source_id, "
        "r.job, h.name, r.id",
    [S_REPORT_CONFIGS] = "SELECT id, label FROM config ORDER BY id",
    [S_REPORT_TESTS] = "SELECT id, name, tool FROM test ORDER BY id",
    [S_REPORT_CONFIG_PARAMS] = "SELECT config_id, key, value FROM "
                               "config_param ORDER BY config_id, key",
    [S_REPORT_TEST_PARAMS] =
        "SELECT test_id, key, value FROM test_param ORDER BY test_id, key",
    [S_REPORT_FACTS] = "SELECT source_id, host, key, value FROM fact "
                       "ORDER BY source_id, rowid",
    /* children first: foreign keys are not enforced, so ON DELETE
     * CASCADE does not fire */
    [S_FORGET_RESULTS] = "DELETE FROM result WHERE source_id = ?1",
    [S_FORGET_FACTS] = "DELETE FROM fact WHERE source_id = ?1",
    [S_FORGET_SOURCE] = "DELETE FROM source WHERE id = ?1",
};

/* Schema migrations: migrations[i] brings user_version i+1 up to i+2.
 * A new database gets schema.sql whole (the latest version). When the
 * schema changes: edit schema.sql, bump PB_DB_SCHEMA_VERSION, and append
 * the ALTER/CREATE statements that turn the previous version into it. */
static const char *const migrations[] = {
    /* 1 -> 2: the (test, metric) index cost more per result than the
     * rest of the row */
    "DROP INDEX IF EXISTS result_by_test;",
};

/* Cache of name -> id kept for the life of the connection: hosts by name,
 * metrics by name, unit and direction (the key of the metric table),
 * configs by label and signature, tests by tool+name and signature.
 * Hashed on the strings' content, so 10,000 fio files naming 40 metrics
 * ask the database 40 times, and a set of 3,600,000 results costs one
 * probe per result. Ids are never deleted, so an entry stays true for
 * rows other processes add; it is dropped on any rollback, which may have
 * taken back a row it names. Keys are owned copies. */
struct idslot {
    char *k, *k2; /* NULL k = free */
    int k3;
    uint32_t h;
    long long id;
};

struct idcache {
    struct idslot *v;
    size_t n, cap; /* cap is a power of two */
};

static uint32_t id_hash(const char *k, const char *k2, int k3)
{
    uint32_t h = 2166136261u ^ (uint32_t)k3; /* FNV-1a */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 16777619u;
    h = (h ^ 0xffu) * 16777619u;
    for (; *k2; k2++)
        h = (h ^ (unsigned char)*k2) * 16777619u;
    return h;
}

/* The slot holding (k, k2, k3), or the free slot where it goes. */
static struct idslot *cache_slot(struct idcache *c, const char *k,
                                 const char *k2, int k3)
{
    if (2 * (c->n + 1) > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct idslot *v = pb_xcalloc(cap, sizeof(*v));
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->v[i].k)
                continue;
            size_t j = c->v[i].h & (cap - 1);
            while (v[j].k)
                j = (j + 1) & (cap - 1);
            v[j] = c->v[i];
        }
        free(c->v);
        c->v = v;
        c->cap = cap;
    }
    uint32_t h = id_hash(k, k2, k3);
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        struct idslot *s = &c->v[i];
        if (!s->k) {
            s->h = h;
            return s;
        }
        if (s->h == h && s->k3 == k3 && !strcmp(s->k, k) &&
            !strcmp(s->k2, k2))
            return s;
    }
}

/* 0 when (k, k2, k3) is not cached. */
static long long cache_get(struct idcache *c, const char *k, const char *k2,
                           int k3)
{
    return cache_slot(c, k ? k : "", k2 ? k2 : "", k3)->id;
}

static void cache_put(struct idcache *c, const char *k, const char *k2,
                      int k3, long long id)
{
    struct idslot *s = cache_slot(c, k ? k : "", k2 ? k2 : "", k3);
    if (!s->k) {
        c->n++;
        s->k = pb_xstrdup(k ? k : "");
        s->k2 = pb_xstrdup(k2 ? k2 : "");
        s->k3 = k3;
    }
    s->id = id;
}

static void cache_clear(struct idcache *c)
{
    for (size_t i = 0; i < c->cap; i++) {
        free(c->v[i].k);
        free(c->v[i].k2);
    }
    free(c->v);
    memset(c, 0, sizeof(*c));
}

enum { C_HOST, C_METRIC, C_CONFIG, C_TEST, C__COUNT };

#define MULTI_LOG 6 /* result INSERTs of 1, 2, 4, ... 64 rows */

struct pb_db {
    sqlite3 *h;
    int batch; /* inside pb_db_begin/pb_db_commit */
    char *path;
    sqlite3_stmt *st[S__COUNT];
    sqlite3_stmt *multi[MULTI_LOG + 1]; /* multi[k]: INSERT of 2^k rows */
    struct idcache ids[C__COUNT];
};

/* A rollback may have taken back rows the caches name. */
static void forget_ids(struct pb_db *db)
{
    for (int i = 0; i < C__COUNT; i++)
        cache_clear(&db->ids[i]);
}

const char *pb_db_default_path(void)
{
    const char *env = getenv("POOLBENCH_DB");
    return env && *env ? env : "poolbench.db";
}

/* SQLite's message plus, when an OS call failed, the reason the OS gave
 * ("disk I/O error (No space left on device)"). */
static const char *why(sqlite3 *h, char *buf, size_t n)
{
    if (!h)
        return "out of memory";
    int e = sqlite3_system_errno(h);
    if (e)
        snprintf(buf, n, "%s (%s)", sqlite3_errmsg(h), strerror(e));
    else
        snprintf(buf, n, "%s", sqlite3_errmsg(h));
    return buf;
}

static int db_fail(struct pb_db *db, struct pb_err *err, const char *what)
{
    char msg[200];
    return pb_err_set(err, PB_EDB, db->path, 0, 0, "%s: %s", what,
                      why(db->h, msg, sizeof(msg)));
}

static sqlite3_stmt *stmt(struct pb_db *db, enum stmt s, struct pb_err *err)
{
    if (!db->st[s]) {
        if (sqlite3_prepare_v3(db->h, stmt_sql[s], -1,
                               SQLITE_PREPARE_PERSISTENT, &db->st[s],
                               NULL) != SQLITE_OK) {
            db_fail(db, err, "cannot prepare statement");
            return NULL;
        }
    }
    sqlite3_reset(db->st[s]);
    sqlite3_clear_bindings(db->st[s]);
    return db->st[s];
}

static int exec_simple(struct pb_db *db, enum stmt s, struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return db_fail(db, err, stmt_sql[s]);
    return PB_OK;
}

/* ==== REGEXP via PCRE2 ==== */

static void regexp_free(void *p)
{
    pcre2_code_free((pcre2_code *)p);
}

/* regexp(pattern, text): 1 when pattern matches anywhere in text. The
 * compiled pattern is cached on the statement (sqlite3_set_auxdata). */
static void regexp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *pat = sqlite3_value_text(argv[0]);
    const unsigned char *txt = sqlite3_value_text(argv[1]);
    if (!pat || !txt) {
        sqlite3_result_int(ctx, 0);
        return;
    }
    pcre2_code *re = sqlite3_get_auxdata(ctx, 0);
    if (!re) {
        int ec;
        PCRE2_SIZE eo;
        re = pcre2_compile(pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
                           &ec, &eo, NULL);
        if (!re) {
            char msg[200];
            PCRE2_UCHAR emsg[160];
            pcre2_get_error_message(ec, emsg, sizeof(emsg));
            snprintf(msg, sizeof(msg), "bad pattern '%s' at offset %zu: %s",
                     (const char *)pat, (size_t)eo, (const char *)emsg);
            sqlite3_result_error(ctx, msg, -1);
            return;
        }
        sqlite3_set_auxdata(ctx, 0, re, regexp_free);
        re = sqlite3_get_auxdata(ctx, 0);
        if (!re) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = pcre2_match(re, txt, (PCRE2_SIZE)sqlite3_value_bytes(argv[1]), 0,
                         0, md, NULL);
    pcre2_match_data_free(md);
    sqlite3_result_int(ctx, rc >= 0);
}

/* ==== open / migrate ==== */

static int user_version(struct pb_db *db, int *out, struct pb_err *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &q, NULL) !=
        SQLITE_OK)
        return db_fail(db, err, "cannot read schema version");
    int rc = sqlite3_step(q);
    *out = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
        return db_fail(db, err, "cannot read schema version");
    return PB_OK;
}

static int exec_sql(struct pb_db *db, const char *sql, struct pb_err *err,
                    const char *what)
{
    char *msg = NULL;
    int rc;
    /* Switching to WAL on a new file races with another process doing the
     * same, and SQLite reports that as BUSY without calling the busy
     * handler: retry for as long as the busy timeout would wait. */
    for (int waited = 0;
         (rc = sqlite3_exec(db->h, sql, NULL, NULL, &msg)) != SQLITE_OK &&
         (rc & 0xff) == SQLITE_BUSY && waited < 30000;
         waited += 20) {
        sqlite3_free(msg);
        msg = NULL;
        sqlite3_sleep(20);
    }
    if (rc != SQLITE_OK) {
        char buf[200];
        int e = sqlite3_system_errno(db->h);
        if (msg && e)
            pb_err_set(err, PB_EDB, db->path, 0, 0, "%s: %s (%s)", what, msg,
                       strerror(e));
        else
            pb_err_set(err, PB_EDB, db->path, 0, 0, "%s: %s", what,
                       msg ? msg : why(db->h, buf, sizeof(buf)));
        sqlite3_free(msg);
        return PB_EDB;
    }
    return PB_OK;
}

static int migrate(struct pb_db *db, struct pb_err *err)
{
    int v;
    if (user_version(db, &v, err))
        return PB_EDB;
    if (v == PB_DB_SCHEMA_VERSION)
        return PB_OK;
    if (v > PB_DB_SCHEMA_VERSION)
        return pb_err_set(err, PB_EDB, db->path, 0, 0,
                          "database schema version %d is newer than this "
                          "poolbench (%d); upgrade poolbench",
                          v, PB_DB_SCHEMA_VERSION);
    /* Take the write lock first so two processes never both migrate. */
    if (exec_sql(db, "BEGIN IMMEDIATE", err, "cannot lock database"))
        return PB_EDB;
    if (user_version(db, &v, err))
        goto fail;
    if (v == 0) {
        if (exec_sql(db, pb_schema_sql, err, "cannot create schema"))
            goto fail;
    } else {
        for (; v < PB_DB_SCHEMA_VERSION; v++) {
            const char *m = migrations[v - 1];
            if (m && exec_sql(db, m, err, "cannot migrate schema"))
                goto fail;
        }
    }
    char sql[64];
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
             PB_DB_SCHEMA_VERSION);
    if (exec_sql(db, sql, err, "cannot set schema version") ||
        exec_sql(db, "COMMIT", err, "cannot commit schema"))
        goto fail;
    return PB_OK;
fail:
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return PB_EDB;
}

int pb_db_open(const char *path, int readonly, struct pb_db **out,
               struct pb_err *err)
{
    *out = NULL;
    /* SQLite's allocation statistics take a global mutex per malloc;
     * nothing reads them. Only possible before SQLite initialises (a no-op
     * error after that, e.g. when a caller opened SQLite itself). */
    static int configured;
    if (!configured) {
        configured = 1;
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    }
    struct pb_db *db = pb_xcalloc(1, sizeof(*db));
    db->path = pb_xstrdup(path);
    struct stat st;
    if (!readonly) {
        /* SQLite would say only "unable to open database file": name the
         * reason. The folder must be writable too, for the -wal and -shm
         * files of WAL mode. */
        int exists = stat(path, &st) == 0;
        char *dir = pb_xstrdup(path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir ? 1 : 0] = '\0';
        const char *d = slash ? dir : ".";
        const char *what = NULL;
        if (exists && access(path, W_OK) != 0)
            what = "database file is not writable";
        else if (!exists && errno == ENOENT && access(d, W_OK) != 0)
            what = "cannot create database in";
        else if (exists && access(d, W_OK) != 0)
            what = "cannot write the database's -wal and -shm files in";
        if (what) {
            int e = errno;
            if (what[0] == 'd')
                pb_err_set(err, PB_EDB, path, 0, 0, "%s: %s", what,
                           strerror(e));
            else
                pb_err_set(err, PB_EDB, path, 0, 0, "%s '%s': %s", what, d,
                           strerror(e));
            free(dir);
            pb_db_close(db);
            return PB_EDB;
        }
        free(dir);
    }
    int flags = readonly ? SQLITE_OPEN_READONLY
                         : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path, &db->h, flags | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        char msg[200];
        pb_err_set(err, PB_EDB, path, 0, 0, "cannot open database: %s",
                   why(db->h, msg, sizeof(msg)));
        pb_db_close(db);
        return PB_EDB;
    }
    sqlite3_extended_result_codes(db->h, 1);
    sqlite3_busy_timeout(db->h, 30000);
    sqlite3_create_function(db->h, "regexp", 2,
                            SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            regexp_fn, NULL, NULL);
    if (!readonly) {
        /* WAL lets readers and one writer work at once; NORMAL sync keeps
         * every commit durable against crashes of poolbench itself.
         * Foreign keys are not enforced: pb_db_store writes only ids it
         * has just looked up or inserted in the same transaction, and
         * nothing deletes; checking five parents per result cost a fifth
         * of storing it. The e2e tests run PRAGMA foreign_key_check. */
        if (exec_sql(db, "PRAGMA journal_mode=WAL", err,
                     "cannot open database") ||
            exec_sql(db, "PRAGMA synchronous=NORMAL", err,
                     "cannot open database") ||
            migrate(db, err)) {
            pb_db_close(db);
            return PB_EDB;
        }
    } else {
        int v;
        if (user_version(db, &v, err)) {
            pb_db_close(db);
            return PB_EDB;
        }
        if (v == 0 || v > PB_DB_SCHEMA_VERSION) {
            pb_err_set(err, PB_EDB, path, 0, 0,
                       v ? "database schema version %d is newer than this "
                           "poolbench"
                         : "not a poolbench database (schema version %d)",
                       v);
            pb_db_close(db);
            return PB_EDB;
        }
    }
    *out = db;
    return PB_OK;
}

void pb_db_close(struct pb_db *db)
{
    if (!db)
        return;
    if (db->batch) {
        struct pb_err ignored = {0};
        if (pb_db_commit(db, &ignored) != PB_OK)
            pb_err_print(&ignored, stderr);
    }
    for (int i = 0; i < S__COUNT; i++)
        sqlite3_finalize(db->st[i]);
    for (int i = 0; i <= MULTI_LOG; i++)
        sqlite3_finalize(db->multi[i]);
    forget_ids(db);
    sqlite3_close(db->h);
    free(db->path);
    free(db);
}

/* ==== storing ==== */

static void bind_text(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, i);
}

/* Run a FIND statement (already bound); returns the id or 0. */
static long long find_id(struct pb_db *db, sqlite3_stmt *q, int *rcout,
                         struct pb_err *err)
{
    int rc = sqlite3_step(q);
    long long id = 0;
    if (rc == SQLITE_ROW)
        id = sqlite3_column_int64(q, 0);
    else if (rc != SQLITE_DONE)
        *rcout = db_fail(db, err, "lookup failed");
    sqlite3_reset(q);
    return id;
}

static int step_done(struct pb_db *db, sqlite3_stmt *q, struct pb_err *err,
                     const char *what)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return db_fail(db, err, what);
    return PB_OK;
}

static int cmp_kv(const void *a, const void *b)
{
    const struct pb_kv *x = a, *y = b;
    return strcmp(x->key, y->key);
}

/* Sorted "k=v\x1f..." signature of a parameter list. Caller frees. */
static char *signature(const struct pb_kv *params, size_t n)
{
    struct pb_kv *s = pb_xcalloc(n ? n : 1, sizeof(*s));
    if (n)
        memcpy(s, params, n * sizeof(*s));
    if (n > 1)
        qsort(s, n, sizeof(*s), cmp_kv);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (i)
            pb_buf_putc(&b, '\x1f');
        pb_buf_puts(&b, s[i].key);
        pb_buf_putc(&b, '=');
        pb_buf_puts(&b, s[i].value ? s[i].value : "");
    }
    free(s);
    return pb_buf_take(&b);
}

static long long entity_id(struct pb_db *db, enum stmt find, enum stmt ins,
                           enum stmt param_ins, const char *tool,
                           const char *name, const struct pb_kv *params,
                           size_t nparams, int *rc, struct pb_err *err)
{
    char *sig = signature(params, nparams);
    /* tests are keyed by tool and name, configs by label */
    struct idcache *c = &db->ids[tool ? C_TEST : C_CONFIG];
    char *key = tool ? pb_xasprintf("%s\x1f%s", tool, name) : NULL;
    long long id = cache_get(c, key ? key : name, sig, 0);
    if (id) {
        free(key);
        free(sig);
        return id;
    }
    sqlite3_stmt *q = stmt(db, find, err);
    if (!q)
        goto out;
    int i = 1;
    if (tool)
        bind_text(q, i++, tool);
    bind_text(q, i++, name);
    bind_text(q, i++, sig);
    id = find_id(db, q, rc, err);
    if (id || *rc)
        goto out;
    q = stmt(db, ins, err);
    if (!q)
        goto out;
    i = 1;
    if (tool)
        bind_text(q, i++, tool);
    bind_text(q, i++, name);
    bind_text(q, i++, sig);
    if ((*rc = step_done(db, q, err, "cannot insert config/test")))
        goto out;
    id = sqlite3_last_insert_rowid(db->h);
    q = stmt(db, param_ins, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    for (size_t k = 0; k < nparams; k++) {
        sqlite3_bind_int64(q, 1, id);
        bind_text(q, 2, params[k].key);
        bind_text(q, 3, params[k].value ? params[k].value : "");
        if ((*rc = step_done(db, q, err, "cannot insert parameter")))
            goto out;
    }
out:
    if (!q && !*rc)
        *rc = PB_EDB;
    if (id && !*rc)
        cache_put(c, key ? key : name, sig, 0, id);
    free(key);
    free(sig);
    return id;
}

static long long named_id(struct pb_db *db, enum stmt find, enum stmt ins,
                          const char *const *vals, int nvals, int *rc,
                          struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, find, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    for (int i = 0; i < nvals; i++)
        bind_text(q, i + 1, vals[i]);
    long long id = find_id(db, q, rc, err);
    if (id || *rc)
        return id;
    q = stmt(db, ins, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    for (int i = 0; i < nvals; i++)
        bind_text(q, i + 1, vals[i]);
    if ((*rc = step_done(db, q, err, "cannot insert")))
        return 0;
    return sqlite3_last_insert_rowid(db->h);
}

static void now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ==== result rows ==== */

#define RESULT_COLS 10 /* parameters of S_RESULT_INSERT */
/* S_RESULT_INSERT with `rows` rows of values. Caller frees. */
static char *multi_insert_sql(int rows)
{
    const char *sql = stmt_sql[S_RESULT_INSERT];
    const char *values = strstr(sql, "VALUES");
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, sql, (size_t)(values - sql));
    pb_buf_puts(&b, "VALUES ");
    for (int k = 0; k < rows; k++)
        pb_buf_puts(&b, k ? ",(?,?,?,?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?,?,?,?)");
    return pb_buf_take(&b);
}

/* The INSERT of 2^lg rows, prepared once per connection. */
static sqlite3_stmt *multi_stmt(struct pb_db *db, int lg, struct pb_err *err)
{
    if (lg == 0)
        return stmt(db, S_RESULT_INSERT, err);
    if (!db->multi[lg]) {
        char *sql = multi_insert_sql(1 << lg);
        if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &db->multi[lg], NULL) != SQLITE_OK) {
            db_fail(db, err, "cannot prepare statement");
            db->multi[lg] = NULL;
        }
        free(sql);
    }
    return db->multi[lg];
}

/* Text that lives in the set until the statement has run. */
static void bind_str(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

/* Bind one result to parameters off+1 .. off+RESULT_COLS. */
static void bind_result(sqlite3_stmt *q, int off, long long source_id,
                        long long host_id, long long config_id,
                        long long test_id, long long metric_id,
                        const struct pb_result *r)
{
    sqlite3_bind_int64(q, off + 1, source_id);
    if (host_id)
        sqlite3_bind_int64(q, off + 2, host_id);
    else
        sqlite3_bind_null(q, off + 2);
    sqlite3_bind_int64(q, off + 3, config_id);
    sqlite3_bind_int64(q, off + 4, test_id);
    bind_str(q, off + 5, r->job);
    sqlite3_bind_int64(q, off + 6, metric_id);
    if (r->has_value)
        sqlite3_bind_double(q, off + 7, r->value);
    else
        sqlite3_bind_null(q, off + 7);
    bind_str(q, off + 8, r->has_value ? NULL : r->null_reason);
    if (r->has_stderr)
        sqlite3_bind_double(q, off + 9, r->stderr_);
    else
        sqlite3_bind_null(q, off + 9);
    if (r->samples > 0)
        sqlite3_bind_int64(q, off + 10, r->samples);
    else
        sqlite3_bind_null(q, off + 10);
}

/* Host and metric ids of a result, from the caches or the database. */
static int result_ids(struct pb_db *db, const struct pb_result *r,
                      long long *host_id, long long *metric_id,
                      struct pb_err *err)
{
    struct idcache *hosts = &db->ids[C_HOST], *metrics = &db->ids[C_METRIC];
    int rc = PB_OK;
    if (r->host) {
        *host_id = cache_get(hosts, r->host, NULL, 0);
        if (!*host_id) {
            const char *v[1] = {r->host};
            *host_id =
                named_id(db, S_HOST_FIND, S_HOST_INSERT, v, 1, &rc, err);
            if (!rc)
                cache_put(hosts, r->host, NULL, 0, *host_id);
        }
    }
    int lower = r->direction == PB_DIR_LOWER;
    *metric_id = cache_get(metrics, r->metric, r->unit, lower);
    if (!*metric_id && !rc) {
        const char *v[3] = {r->metric, r->unit ? r->unit : "",
                            lower ? "lower" : "higher"};
        *metric_id =
            named_id(db, S_METRIC_FIND, S_METRIC_INSERT, v, 3, &rc, err);
        if (!rc)
            cache_put(metrics, r->metric, r->unit, lower, *metric_id);
    }
    return rc;
}

static int store_rows(struct pb_db *db, const struct pb_resultset *set,
                      long long source_id, struct pb_err *err)
{
    int rc = PB_OK;
    long long *cfg = pb_xcalloc(set->nconfigs + 1, sizeof(*cfg));
    long long *tst = pb_xcalloc(set->ntests + 1, sizeof(*tst));

    for (size_t i = 0; i < set->nconfigs && !rc; i++) {
        const struct pb_config *c = &set->configs[i];
        cfg[i] = entity_id(db, S_CONFIG_FIND, S_CONFIG_INSERT,
                           S_CONFIG_PARAM_INSERT, NULL, c->label, c->params,
                           c->nparams, &rc, err);
    }
    for (size_t i = 0; i < set->ntests && !rc; i++) {
        const struct pb_test *t = &set->tests[i];
        tst[i] = entity_id(db, S_TEST_FIND, S_TEST_INSERT, S_TEST_PARAM_INSERT,
                           t->tool ? t->tool : "", t->name, t->params,
                           t->nparams, &rc, err);
    }
    /* Rows go 64 per INSERT, the rest in INSERTs of 32, 16, ... 1 rows:
     * each statement costs as much as several rows (bench/: half the CPU
     * of one INSERT per row for a fio file of 33 results). */
    for (size_t i = 0; i < set->nresults && !rc;) {
        size_t left = set->nresults - i;
        int lg = MULTI_LOG;
        while ((size_t)1 << lg > left)
            lg--;
        size_t n = (size_t)1 << lg;
        sqlite3_stmt *q = multi_stmt(db, lg, err);
        if (!q) {
            rc = PB_EDB;
            break;
        }
        for (size_t k = 0; k < n && !rc; k++, i++) {
            const struct pb_result *r = &set->results[i];
            long long host_id = 0, metric_id = 0;
            rc = result_ids(db, r, &host_id, &metric_id, err);
            if (!rc)
                bind_result(q, (int)k * RESULT_COLS, source_id, host_id,
                            cfg[r->config], tst[r->test], metric_id, r);
        }
        if (!rc)
            rc = step_done(db, q, err, "cannot insert result");
        else
            sqlite3_reset(q);
    }
    sqlite3_stmt *fq = rc ? NULL : stmt(db, S_FACT_INSERT, err);
    if (!rc && !fq)
        rc = PB_EDB;
    for (size_t i = 0; i < set->nfacts && !rc; i++) {
        const struct pb_fact *f = &set->facts[i];
        sqlite3_bind_int64(fq, 1, source_id);
        bind_text(fq, 2, f->host);
        bind_text(fq, 3, f->key);
        bind_text(fq, 4, f->value);
        rc = step_done(db, fq, err, "cannot insert fact");
    }
    free(cfg);
    free(tst);
    return rc;
}

int pb_db_begin(struct pb_db *db, struct pb_err *err)
{
    if (db->batch)
        return PB_OK;
    if (exec_simple(db, S_BEGIN, err))
        return PB_EDB;
    db->batch = 1;
    return PB_OK;
}

int pb_db_commit(struct pb_db *db, struct pb_err *err)
{
    if (!db->batch)
        return PB_OK;
    db->batch = 0;
    if (exec_simple(db, S_COMMIT, err)) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        forget_ids(db);
        return PB_EDB;
    }
    return PB_OK;
}

/* Undo everything of the source being stored, and nothing else. */
static void undo_source(struct pb_db *db, struct pb_err *err)
{
    forget_ids(db);
    if (!db->batch) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        return;
    }
    exec_simple(db, S_ROLLBACK_TO, err);
    exec_simple(db, S_RELEASE, err);
}

int pb_db_store(struct pb_db *db, const struct pb_resultset *set,
                size_t *nresults, struct pb_err *err)
{
    if (nresults)
        *nresults = 0;
    /* Alone: one transaction. In a batch: a savepoint, so a bad source
     * still leaves nothing behind while the batch commits once. */
    if (exec_simple(db, db->batch ? S_SAVEPOINT : S_BEGIN, err))
        return PB_EDB;
    int rc = PB_OK;
    sqlite3_stmt *q = stmt(db, S_SOURCE_FIND, err);
    if (!q) {
        rc = PB_EDB;
        goto rollback;
    }
    bind_text(q, 1, set->sha256);
    long long existing = find_id(db, q, &rc, err);
    if (rc)
        goto rollback;
    if (existing) {
        undo_source(db, err);
        return PB_EDUP;
    }
    q = stmt(db, S_SOURCE_INSERT, err);
    if (!q) {
        rc = PB_EDB;
        goto rollback;
    }
    char when[32];
    now_iso(when, sizeof(when));
    bind_text(q, 1, set->sha256);
    bind_text(q, 2, set->path ? set->path : "-");
    bind_text(q, 3, set->format ? set->format : "unknown");
    bind_text(q, 4, set->tool_version);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)set->size);
    bind_text(q, 6, when);
    if ((rc = step_done(db, q, err, "cannot insert source")))
        goto rollback;
    long long source_id = sqlite3_last_insert_rowid(db->h);
    if ((rc = store_rows(db, set, source_id, err)))
        goto rollback;
    if ((rc = exec_simple(db, db->batch ? S_RELEASE : S_COMMIT, err)))
        goto rollback;
    if (nresults)
        *nresults = set->nresults;
    return PB_OK;
rollback:
    undo_source(db, err);
    return rc ? rc : PB_EDB;
}

int pb_db_forget_source(struct pb_db *db, long long source_id,
                        struct pb_err *err)
{
    /* like pb_db_store: a transaction of its own, or a savepoint in a
     * batch */
    if (exec_simple(db, db->batch ? S_SAVEPOINT : S_BEGIN, err))
        return PB_EDB;
    static const enum stmt del[] = {S_FORGET_RESULTS, S_FORGET_FACTS,
                                    S_FORGET_SOURCE};
    for (size_t i = 0; i < sizeof(del) / sizeof(del[0]); i++) {
        sqlite3_stmt *q = stmt(db, del[i], err);
        if (!q) {
            undo_source(db, err);
            return PB_EDB;
        }
        sqlite3_bind_int64(q, 1, source_id);
        if (step_done(db, q, err, "cannot forget source")) {
            undo_source(db, err);
            return PB_EDB;
        }
    }
    if (exec_simple(db, db->batch ? S_RELEASE : S_COMMIT, err)) {
        undo_source(db, err);
        return PB_EDB;
    }
    return PB_OK;
}

/* ==== reading ==== */

static const char *col_text(sqlite3_stmt *q, int i)
{
    return (const char *)sqlite3_column_text(q, i);
}

static int finish_query(struct pb_db *db, sqlite3_stmt *q, int rc, int stop,
                        struct pb_err *err)
{
    int result = PB_OK;
    if (stop)
        result = stop;
    else if (rc != SQLITE_DONE) {
        const char *msg = sqlite3_errmsg(db->h);
        if (strncmp(msg, "bad pattern", 11) == 0)
            result = pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "%s", msg);
        else
            result = db_fail(db, err, "query failed");
    }
    sqlite3_reset(q);
    return result;
}

/* Parameters ?1..?5 of the filtered queries (NULL = match all). */
static void bind_filter(sqlite3_stmt *q, const struct pb_db_filter *f)
{
    if (!f)
        return;
    bind_text(q, 1, f->test_re);
    bind_text(q, 2, f->config_re);
    bind_text(q, 3, f->metric_re);
    bind_text(q, 4, f->host_re);
    bind_text(q, 5, f->format);
}

int pb_db_each_result(struct pb_db *db, const struct pb_db_filter *f,
                      pb_db_row_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, S_EACH_RESULT, err);
    if (!q)
        return PB_EDB;
    bind_filter(q, f);
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_row r;
        r.source_path = col_text(q, 0);
        r.format = col_text(q, 1);
        r.host = col_text(q, 2);
        r.config = col_text(q, 3);
        r.test = col_text(q, 4);
        r.tool = col_text(q, 5);
        r.job = col_text(q, 6);
        r.metric = col_text(q, 7);
        r.has_value = sqlite3_column_type(q, 8) != SQLITE_NULL;
        r.value = sqlite3_column_double(q, 8);
        r.unit = col_text(q, 9);
        r.direction = col_text(q, 10);
        r.has_stderr = sqlite3_column_type(q, 11) != SQLITE_NULL;
        r.stderr_ = sqlite3_column_double(q, 11);
        r.samples = (long)sqlite3_column_int64(q, 12);
        if ((stop = cb(ctx, &r)) != 0)
            break;
    }
    return finish_query(db, q, rc, stop, err);
}

int pb_db_each_source(struct pb_db *db, pb_db_source_cb cb, void *ctx,
                      struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, S_EACH_SOURCE, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_source s;
        s.id = sqlite3_column_int64(q, 0);
        s.sha256 = col_text(q, 1);
        s.path = col_text(q, 2);
        s.format = col_text(q, 3);
        s.tool_version = col_text(q, 4);
        s.size = sqlite3_column_int64(q, 5);
        s.ingested_at = col_text(q, 6);
        s.nresults = sqlite3_column_int64(q, 7);
        if ((stop = cb(ctx, &s)) != 0)
            break;
    }
    return finish_query(db, q, rc, stop, err);
}

static int each_entity(struct pb_db *db, enum stmt s, int has_tool,
                       pb_db_entity_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_entity e;
        int i = 0;
        e.id = sqlite3_column_int64(q, i++);
        e.name = col_text(q, i++);
        e.tool = has_tool ? col_text(q, i++) : NULL;
        e.params = col_text(q, i++);
        e.nresults = sqlite3_column_int64(q, i++);
        if (!e.params)
            e.params = "";
        if ((stop = cb(ctx, &e)) != 0)
            break;
    }
    return finish_query(db, q, rc, stop, err);
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
    sqlite3_stmt *q = stmt(db, S_COUNTS, err);
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
    return finish_query(db, q, rc, 0, err);
}

/* ==== report queries ==== */

int pb_db_each_report_row(struct pb_db *db, const struct pb_db_filter *f,
                          pb_db_rrow_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, S_REPORT_ROWS, err);
    if (!q)
        return PB_EDB;
    bind_filter(q, f);
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_rrow r;
        r.test_id = sqlite3_column_int64(q, 0);
        r.metric_id = sqlite3_column_int64(q, 1);
        r.config_id = sqlite3_column_int64(q, 2);
        r.source_id = sqlite3_column_int64(q, 3);
        r.metric = col_text(q, 4);
        r.unit = col_text(q, 5);
        r.direction = col_text(q, 6);
        r.job = col_text(q, 7);
        r.host = col_text(q, 8);
        r.has_value = sqlite3_column_type(q, 9) != SQLITE_NULL;
        r.value = sqlite3_column_double(q, 9);
        r.null_reason = col_text(q, 10);
        r.has_stderr = sqlite3_column_type(q, 11) != SQLITE_NULL;
        r.stderr_ = sqlite3_column_double(q, 11);
        r.samples = (long)sqlite3_column_int64(q, 12);
        if ((stop = cb(ctx, &r)) != 0)
            break;
    }
    return finish_query(db, q, rc, stop, err);
}

/* Rows of a three-text-column listing (id, a, b) or (id, a, b, c). */
static int each_triple(struct pb_db *db, enum stmt s, int ncols,
                       pb_db_triple_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc, stop = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_triple t;
        t.id = sqlite3_column_int64(q, 0);
        t.a = col_text(q, 1);
        t.b = col_text(q, 2);
        t.c = ncols > 3 ? col_text(q, 3) : NULL;
        if ((stop = cb(ctx, &t)) != 0)
            break;
    }
    return finish_query(db, q, rc, stop, err);
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
                       3, cb, ctx, err);
}

int pb_db_report_facts(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                       struct pb_err *err)
{
    return each_triple(db, S_REPORT_FACTS, 4, cb, ctx, err);
}
