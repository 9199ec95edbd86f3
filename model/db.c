/* The SQLite model: statements (their SQL text is in db_sql.c), open and
 * migrate, the id caches and helpers shared by store.c, attach.c and
 * query.c. */
#define _GNU_SOURCE
#include "model/db_int.h"

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

/* Schema migrations: migrations[i] brings user_version i+1 up to i+2.
 * A new database gets schema.sql whole (the latest version). When the
 * schema changes: edit schema.sql, bump PB_DB_SCHEMA_VERSION, and append
 * the ALTER/CREATE statements that turn the previous version into it
 * (or NULL and a function, for a table rebuild: migrate.c). */
static const char *const migrations[] = {
    /* 1 -> 2: the (test, metric) index cost more per result than the
     * rest of the row */
    "DROP INDEX IF EXISTS result_by_test;",
    /* 2 -> 3: dimensions carry their origin; own configs and label
     * dimensions (sheets, companions). Every config so far is its own
     * config: no origins, so its own signature is its signature. */
    "ALTER TABLE config_param ADD COLUMN origin TEXT;"
    "CREATE TABLE config_own (id INTEGER PRIMARY KEY, label TEXT NOT NULL, "
    "signature TEXT NOT NULL, config_id INTEGER NOT NULL REFERENCES "
    "config(id), UNIQUE (label, signature));"
    "CREATE TABLE config_own_param (own_id INTEGER NOT NULL REFERENCES "
    "config_own(id), key TEXT NOT NULL, value TEXT NOT NULL, origin TEXT, "
    "PRIMARY KEY (own_id, key)) WITHOUT ROWID;"
    "CREATE TABLE label_param (label TEXT NOT NULL, key TEXT NOT NULL, "
    "value TEXT NOT NULL, origin TEXT NOT NULL, source_id INTEGER NOT NULL "
    "REFERENCES source(id) ON DELETE CASCADE);"
    "CREATE INDEX label_param_by_label ON label_param(label);"
    "CREATE INDEX label_param_by_source ON label_param(source_id);"
    "CREATE TABLE model_generation (n INTEGER NOT NULL);"
    "INSERT INTO model_generation VALUES (0);"
    "ALTER TABLE result ADD COLUMN own_id INTEGER REFERENCES config_own(id);"
    "INSERT INTO config_own(id, label, signature, config_id) "
    "SELECT id, label, signature, id FROM config;"
    "INSERT INTO config_own_param(own_id, key, value, origin) "
    "SELECT config_id, key, value, NULL FROM config_param;"
    "UPDATE result SET own_id = config_id;",
    /* 3 -> 4: per-repeat samples of a result (schema.sql, "sample") */
    "CREATE TABLE sample (result_id INTEGER NOT NULL REFERENCES result(id) "
    "ON DELETE CASCADE, seq INTEGER NOT NULL, value REAL NOT NULL, "
    "PRIMARY KEY (result_id, seq)) WITHOUT ROWID;",
    /* 4 -> 5: latency distributions (schema.sql, "latency_hist") */
    "CREATE TABLE latency_hist (result_id INTEGER PRIMARY KEY REFERENCES "
    "result(id) ON DELETE CASCADE, kind TEXT NOT NULL, total INTEGER NOT "
    "NULL, nbins INTEGER NOT NULL, bins BLOB NOT NULL);",
    /* 5 -> 6: time series from fio logs (schema.sql, "series") */
    "CREATE TABLE series (id INTEGER PRIMARY KEY, result_id INTEGER NOT NULL "
    "REFERENCES result(id) ON DELETE CASCADE, name TEXT NOT NULL, unit TEXT "
    "NOT NULL, kind TEXT NOT NULL, width_ms INTEGER);"
    "CREATE INDEX series_by_result ON series(result_id);"
    "CREATE TABLE series_point (series_id INTEGER NOT NULL REFERENCES "
    "series(id) ON DELETE CASCADE, seq INTEGER NOT NULL, t_ms INTEGER NOT "
    "NULL, value REAL, n INTEGER, min REAL, max REAL, p50 REAL, p90 REAL, "
    "p95 REAL, p99 REAL, PRIMARY KEY (series_id, seq)) WITHOUT ROWID;",
    /* 6 -> 7: job names and reasons as ids, a rebuild of result:
     * db_migrate_v7 (migrate.c) */
    NULL,
    /* 7 -> 8: p99.9 of a time series' intervals (issue 41 item 4) */
    "ALTER TABLE series_point ADD COLUMN p999 REAL;",
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

/* The slot of (k, k2, k3) of hash h, or the free slot where it goes;
 * NULL when the table is empty. A lookup never grows the table. */
static struct idslot *cache_slot(struct idcache *c, const char *k,
                                 const char *k2, int k3, uint32_t h)
{
    if (!c->cap)
        return NULL;
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        struct idslot *s = &c->v[i];
        if (!s->k || (s->h == h && s->k3 == k3 && !strcmp(s->k, k) &&
                      !strcmp(s->k2, k2)))
            return s;
    }
}

static void cache_grow(struct idcache *c)
{
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

long long db_cache_get2(struct idcache *c, const char *k, const char *k2,
                        int k3, long long *id2)
{
    k = k ? k : "";
    k2 = k2 ? k2 : "";
    struct idslot *s = cache_slot(c, k, k2, k3, id_hash(k, k2, k3));
    int hit = s && s->k;
    if (id2)
        *id2 = hit ? s->id2 : 0;
    return hit ? s->id : 0;
}

long long db_cache_get(struct idcache *c, const char *k, const char *k2,
                       int k3)
{
    return db_cache_get2(c, k, k2, k3, NULL);
}

static void cache_clear(struct idcache *c);

/* Entries a cache holds at most: past it, it starts again empty, so an
 * ingest of 100,000 distinct machines keeps its memory bounded (the ids
 * are found again by the database's indexes). */
#define CACHE_MAX 16384

void db_cache_put2(struct idcache *c, const char *k, const char *k2, int k3,
                   long long id, long long id2)
{
    k = k ? k : "";
    k2 = k2 ? k2 : "";
    if (c->n >= CACHE_MAX)
        cache_clear(c);
    if (2 * (c->n + 1) > c->cap)
        cache_grow(c);
    uint32_t h = id_hash(k, k2, k3);
    struct idslot *s = cache_slot(c, k, k2, k3, h);
    if (!s->k) {
        /* both keys in one allocation */
        size_t a = strlen(k) + 1, b = strlen(k2) + 1;
        c->n++;
        s->k = pb_xmalloc(a + b);
        memcpy(s->k, k, a);
        s->k2 = s->k + a;
        memcpy(s->k2, k2, b);
        s->k3 = k3;
        s->h = h;
    }
    s->id = id;
    s->id2 = id2;
}

void db_cache_put(struct idcache *c, const char *k, const char *k2, int k3,
                  long long id)
{
    db_cache_put2(c, k, k2, k3, id, 0);
}

static void cache_clear(struct idcache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        free(c->v[i].k);
    free(c->v);
    memset(c, 0, sizeof(*c));
}

/* A rollback may have taken back rows the caches name. */
void db_forget_ids(struct pb_db *db)
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

const char *db_why(struct pb_db *db, char *buf, size_t n)
{
    const char *b = db_budget_text(db, buf, n);
    return b ? b : why(db->h, buf, n);
}

int db_fail(struct pb_db *db, struct pb_err *err, const char *what)
{
    char msg[200];
    return pb_err_set(err, PB_EDB, db->path, 0, 0, "%s: %s", what,
                      db_why(db, msg, sizeof(msg)));
}

sqlite3_stmt *db_stmt(struct pb_db *db, enum db_stmt s, struct pb_err *err)
{
    if (!db->st[s]) {
        if (sqlite3_prepare_v3(db->h, pb_db_sql[s], -1,
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

/* Bind a report filter's patterns to ?1-?5 and, when with_range, the
 * range of its kept source ids to ?6 and ?7 (so that SQLite reads only
 * rows that may be kept; db_source_kept() decides). f may be NULL. */
void db_bind_filter(sqlite3_stmt *q, const struct pb_db_filter *f,
                    int with_range)
{
    if (!f)
        return;
    db_bind_text(q, 1, f->test_re);
    db_bind_text(q, 2, f->config_re);
    db_bind_text(q, 3, f->metric_re);
    db_bind_text(q, 4, f->host_re);
    db_bind_text(q, 5, f->format);
    if (with_range && f->source_ids && f->nsource_ids) {
        sqlite3_bind_int64(q, 6, f->source_ids[0]);
        sqlite3_bind_int64(q, 7, f->source_ids[f->nsource_ids - 1]);
    }
}

int db_exec(struct pb_db *db, enum db_stmt s, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, s, err);
    if (!q)
        return PB_EDB;
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return db_fail(db, err, pb_db_sql[s]);
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

/* One integer of a PRAGMA or query; -1 when it cannot be read. */
static long long int_of(struct pb_db *db, const char *sql)
{
    sqlite3_stmt *q;
    long long v = -1;
    if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

/* Is this file ours to change? poolbench's own (application_id, or a
 * schema of ours from before it was set), or an empty database. Another
 * program's SQLite file is refused before anything is written to it:
 * not even the switch to WAL. */
static int check_ours(struct pb_db *db, struct pb_err *err)
{
    /* One statement, so one snapshot: read one by one, another process
     * creating the schema (one transaction) can commit between the reads
     * and its new tables look like another program's. */
    sqlite3_stmt *q;
    long long app = 0, v = 0, n = 0, ours = 0;
    int got = 0;
    if (sqlite3_prepare_v2(
            db->h,
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master), "
            "(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
            "name IN ('source', 'result', 'config', 'metric'))",
            -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW) {
            app = sqlite3_column_int64(q, 0);
            v = sqlite3_column_int64(q, 1);
            n = sqlite3_column_int64(q, 2);
            ours = sqlite3_column_int64(q, 3);
            got = 1;
        }
        sqlite3_finalize(q);
    }
    if (!got)
        return db_fail(db, err, "cannot read the database");
    if (app == PB_DB_APPLICATION_ID)
        return PB_OK;
    if (app != 0)
        return pb_err_set(err, PB_EDB, db->path, 0, 0,
                          "not a poolbench database (it belongs to another "
                          "program: application_id 0x%08llx); refusing to "
                          "change it", app);
    if (n == 0 && v == 0)
        return PB_OK; /* new or empty: made ours by migrate() */
    if (v >= 1 && v <= PB_DB_SCHEMA_VERSION && ours == 4)
        return PB_OK; /* poolbench's, from before application_id */
    return pb_err_set(err, PB_EDB, db->path, 0, 0,
                      "not a poolbench database (tables or views of "
                      "another program: %lld, schema version %lld); "
                      "refusing to change it", n, v);
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
    if (v == PB_DB_SCHEMA_VERSION &&
        int_of(db, "PRAGMA application_id") == PB_DB_APPLICATION_ID)
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
    int rebuilt = v >= 1 && v <= 6; /* result is rebuilt (6 -> 7) */
    if (v == 0) {
        if (exec_sql(db, pb_schema_sql, err, "cannot create schema"))
            goto fail;
    } else {
        for (; v < PB_DB_SCHEMA_VERSION; v++) {
            const char *m = migrations[v - 1];
            if (m && exec_sql(db, m, err, "cannot migrate schema"))
                goto fail;
            if (v == 6 && db_migrate_v7(db, err))
                goto fail;
        }
    }
    char sql[128];
    snprintf(sql, sizeof(sql),
             "PRAGMA user_version = %d; PRAGMA application_id = %d",
             PB_DB_SCHEMA_VERSION, PB_DB_APPLICATION_ID);
    if (exec_sql(db, sql, err, "cannot set schema version") ||
        exec_sql(db, "COMMIT", err, "cannot commit schema"))
        goto fail;
    if (rebuilt)
        db_migrate_compact(db);
    return PB_OK;
fail:
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return PB_EDB;
}

/* Can h be read? (reading the header needs a read transaction, which
 * in WAL mode needs the -shm file) */
static int readable(sqlite3 *h)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &q, NULL) !=
        SQLITE_OK)
        return 0;
    int ok = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return ok;
}

/* A reader of a WAL database needs to write its -shm file, or to create
 * it in the folder: a user who may only read a shared database cannot.
 * When no -wal file is there (no writer is active: every commit is in the
 * main file) the file is opened immutable, without the -shm; otherwise
 * say what the owner can do. */
int db_open_reader(const char *path, sqlite3 **h, struct pb_err *err)
{
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
    char msg[200];
    db_sqlite_init();
    *h = NULL;
    if (db_check_kind(path, err))
        return PB_EDB;
    if (sqlite3_open_v2(path, h, flags, NULL) != SQLITE_OK)
        goto cannot_open;
    sqlite3_extended_result_codes(*h, 1);
    if (readable(*h))
        return PB_OK;
    int ec = sqlite3_extended_errcode(*h) & 0xff;
    char *wal = pb_xasprintf("%s-wal", path);
    struct stat st;
    int has_wal = stat(wal, &st) == 0 && st.st_size > 0;
    free(wal);
    if ((ec != SQLITE_READONLY && ec != SQLITE_CANTOPEN) || has_wal) {
        /* the message is made before the handle that holds it is closed */
        pb_err_set(err, PB_EDB, path, 0, 0, "cannot read the database: %s%s",
                   why(*h, msg, sizeof(msg)),
                   has_wal ? "; it is being written (WAL mode) and reading "
                             "it needs write access to its -shm file or its "
                             "folder: ask its owner to share the folder, or "
                             "copy the database"
                           : "");
        sqlite3_close(*h);
        *h = NULL;
        return PB_EDB;
    }
    sqlite3_close(*h);
    *h = NULL;
    /* file: URI with the path escaped: '%', '?' and '#' are special */
    struct pb_buf u = PB_BUF_INIT;
    pb_buf_puts(&u, "file:");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#')
            pb_buf_printf(&u, "%%%02X", (unsigned char)*p);
        else
            pb_buf_putc(&u, *p);
    }
    pb_buf_puts(&u, "?immutable=1");
    int rc = sqlite3_open_v2(pb_buf_str(&u), h, flags | SQLITE_OPEN_URI, NULL);
    pb_buf_release(&u);
    if (rc != SQLITE_OK)
        goto cannot_open;
    sqlite3_extended_result_codes(*h, 1);
    return PB_OK;
cannot_open:
    pb_err_set(err, PB_EDB, path, 0, 0, "cannot open database: %s",
               why(*h, msg, sizeof(msg)));
    sqlite3_close(*h);
    *h = NULL;
    return PB_EDB;
}

/* SQLite's handle set up for poolbench: extended codes, the REGEXP
 * function; a writer waits up to 30 s for another one. */
static void setup(struct pb_db *db)
{
    sqlite3_extended_result_codes(db->h, 1);
    sqlite3_busy_timeout(db->h, 30000);
    sqlite3_create_function(db->h, "regexp", 2,
                            SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                            regexp_fn, NULL, NULL);
}

/* SQLite would say only "unable to open database file": name the reason
 * a writer cannot open path. The folder must be writable too, for the
 * -wal and -shm files of WAL mode. */
static int check_writable(const char *path, struct pb_err *err)
{
    struct stat st;
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
    int rc = PB_OK;
    if (what) {
        int e = errno;
        if (what[0] == 'd')
            rc = pb_err_set(err, PB_EDB, path, 0, 0, "%s: %s", what,
                            strerror(e));
        else
            rc = pb_err_set(err, PB_EDB, path, 0, 0, "%s '%s': %s", what, d,
                            strerror(e));
    }
    free(dir);
    return rc;
}

/* The writer's part of db_open. */
static int open_writer(struct pb_db *db, unsigned flags, struct pb_err *err)
{
    if (check_writable(db->path, err) || db_check_kind(db->path, err))
        return PB_EDB;
    if (sqlite3_open_v2(db->path, &db->h,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        char msg[200];
        return pb_err_set(err, PB_EDB, db->path, 0, 0,
                          "cannot open database: %s",
                          why(db->h, msg, sizeof(msg)));
    }
    setup(db);
    /* WAL lets readers and one writer work at once; FULL sync makes
     * every commit durable (the WAL is synced at each commit) before
     * "ok" is printed, also against an OS crash or power loss, which
     * NORMAL is not: 142 fdatasyncs instead of 50 for 10,000 fio
     * files, the same 2.8 s (ingest batches sources, cmd_ingest.c).
     * Foreign keys are not enforced: pb_db_store writes only ids it
     * has just looked up or inserted in the same transaction, and
     * deletes children first; checking five parents per result cost a
     * fifth of storing it. The e2e tests run PRAGMA
     * foreign_key_check. pb_remap is the re-keying scratch table of
     * this connection (attach.c). A file from elsewhere is guarded
     * before its schema is migrated, and its shape checked after. */
    if (((flags & DB_FOREIGN) && db_guard(db, err)) || check_ours(db, err) ||
        exec_sql(db, "PRAGMA journal_mode=WAL", err,
                 "cannot open database") ||
        exec_sql(db, "PRAGMA synchronous=FULL", err,
                 "cannot open database") ||
        migrate(db, err) ||
        ((flags & DB_FOREIGN) && db_check_shape(db, err)) ||
        exec_sql(db,
                 "CREATE TEMP TABLE IF NOT EXISTS pb_remap(own_id "
                 "INTEGER PRIMARY KEY, config_id INTEGER NOT NULL)",
                 err, "cannot open database"))
        return PB_EDB;
    return PB_OK;
}

int db_open(const char *path, unsigned flags, struct pb_db **out,
            struct pb_err *err)
{
    *out = NULL;
    db_sqlite_init();
    struct pb_db *db = pb_xcalloc(1, sizeof(*db));
    db->path = pb_xstrdup(path);
    if (!(flags & DB_RO)) {
        if (open_writer(db, flags, err)) {
            pb_db_close(db);
            return PB_EDB;
        }
        *out = db;
        return PB_OK;
    }
    if (db_open_reader(path, &db->h, err)) {
        pb_db_close(db);
        return PB_EDB;
    }
    setup(db);
    int v;
    if (((flags & DB_FOREIGN) && db_guard(db, err)) ||
        user_version(db, &v, err)) {
        pb_db_close(db);
        return PB_EDB;
    }
    long long app = int_of(db, "PRAGMA application_id");
    if (app != 0 && app != PB_DB_APPLICATION_ID) {
        pb_err_set(err, PB_EDB, path, 0, 0,
                   "not a poolbench database (application_id "
                   "0x%08llx)", app);
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
    if (v < PB_DB_SCHEMA_VERSION) {
        /* readers need the current schema too (version 3 added
         * columns they read): upgrade the file once, opening it for
         * writing (not created: it exists) */
        pb_db_close(db);
        struct pb_err e = {0};
        if (db_open(path, flags & ~DB_RO, out, &e) != PB_OK)
            return pb_err_set(err, PB_EDB, path, 0, 0,
                              "database schema version %d is older "
                              "than this poolbench (%d) and cannot be "
                              "upgraded: %s",
                              v, PB_DB_SCHEMA_VERSION, e.msg);
        return PB_OK;
    }
    if ((flags & DB_FOREIGN) && db_check_shape(db, err)) {
        pb_db_close(db);
        return PB_EDB;
    }
    *out = db;
    return PB_OK;
}

int pb_db_open(const char *path, int readonly, struct pb_db **out,
               struct pb_err *err)
{
    return db_open(path, readonly ? DB_RO : 0, out, err);
}

int pb_db_open_foreign(const char *path, struct pb_db **out,
                       struct pb_err *err)
{
    return db_open(path, DB_RO | DB_FOREIGN, out, err);
}

const char *pb_db_path(const struct pb_db *db)
{
    return db->path;
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
    for (int t = 0; t < 2; t++)
        for (int i = 0; i <= KV_MULTI; i++)
            sqlite3_finalize(db->kv_multi[t][i]);
    db_forget_ids(db);
    db_rkeep_free(db);
    sqlite3_close(db->h);
    free(db->path);
    free(db);
}

/* ==== helpers shared by the model files ==== */

void db_bind_text(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, i);
}

/* Run a FIND statement (already bound); returns the id or 0. */
long long db_find_id(struct pb_db *db, sqlite3_stmt *q, int *rcout,
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

int db_step_done(struct pb_db *db, sqlite3_stmt *q, struct pb_err *err,
                     const char *what)
{
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return db_fail(db, err, what);
    return PB_OK;
}

const char *db_col_text(sqlite3_stmt *q, int i)
{
    return (const char *)sqlite3_column_text(q, i);
}

int db_finish_query(struct pb_db *db, sqlite3_stmt *q, int rc, int stop,
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
