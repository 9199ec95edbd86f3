/* Migrations that rebuild a table (db.c runs the ones that are plain SQL):
 * schema 6 -> 7, job names and null reasons out of every result row into
 * tables of their own.
 * Runs inside migrate()'s transaction; see docs/model.md,
 * "Migrations and upgrades". */
#define _GNU_SOURCE
#include "model/db_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern const char pb_schema_sql[];

/* Results per INSERT ... SELECT: a progress line between two. */
#define CHUNK 200000
/* From this many results on, the rebuild says what it does on stderr. */
#define LOUD 200000

/* The statement of schema.sql that starts with head, up to its ';' (none
 * of the statements taken here has one in a comment), with head replaced
 * by as. Caller frees. */
static char *schema_stmt(const char *head, const char *as)
{
    const char *p = strstr(pb_schema_sql, head);
    const char *end = p ? strchr(p, ';') : NULL;
    if (!end)
        return NULL;
    p += strlen(head);
    return pb_xasprintf("%s%.*s", as, (int)(end - p), p);
}

static int run(struct pb_db *db, const char *sql, struct pb_err *err)
{
    if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot migrate schema to version 7");
    return PB_OK;
}

static long long one_int(struct pb_db *db, const char *sql)
{
    sqlite3_stmt *q;
    long long v = 0;
    if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* 6 -> 7: the job and reason tables; result rebuilt with job_id and
 * reason_id (the SQLite way to change a column: a new table, rows copied,
 * the old one dropped, the new one renamed), its index and v_result made
 * again from schema.sql. The old table's pages become free pages of the
 * file: db_migrate_compact gives them back after the commit. */
int db_migrate_v7(struct pb_db *db, struct pb_err *err)
{
    char *job = schema_stmt("CREATE TABLE job (", "CREATE TABLE job (");
    char *reason =
        schema_stmt("CREATE TABLE reason (", "CREATE TABLE reason (");
    char *res = schema_stmt("CREATE TABLE result (",
                            "CREATE TABLE result_v7 (");
    char *idx = schema_stmt("CREATE INDEX result_by_source ",
                            "CREATE INDEX result_by_source ");
    char *view = schema_stmt("CREATE VIEW v_result ", "CREATE VIEW v_result ");
    sqlite3_stmt *q = NULL;
    int rc = PB_OK;
    if (!job || !reason || !res || !idx || !view) {
        rc = pb_err_set(err, PB_EDB, db->path, 0, 0,
                        "cannot migrate schema to version 7: schema.sql "
                        "lacks a statement");
        goto out;
    }
    long long n = one_int(db, "SELECT count(*) FROM result");
    long long lo = one_int(db, "SELECT min(id) FROM result");
    int loud = n >= LOUD, tty = isatty(2);
    double t0 = now_s();
    if (loud)
        fprintf(stderr,
                "poolbench: %s: upgrading the database to schema 7 "
                "(%lld results; job names and reasons stored once)\n",
                db->path, n);
    /* ids in the order the names first appear */
    if ((rc = run(db, "DROP VIEW IF EXISTS v_result", err)) ||
        (rc = run(db, job, err)) || (rc = run(db, reason, err)) ||
        (rc = run(db, "INSERT OR IGNORE INTO job(name) SELECT job FROM "
                      "result WHERE job IS NOT NULL ORDER BY id",
                  err)) ||
        (rc = run(db, "INSERT OR IGNORE INTO reason(text) SELECT "
                      "null_reason FROM result WHERE null_reason IS NOT "
                      "NULL ORDER BY id",
                  err)) ||
        (rc = run(db, res, err)))
        goto out;
    if (sqlite3_prepare_v2(
            db->h,
            "INSERT INTO result_v7(id, source_id, host_id, config_id, "
            "test_id, job_id, metric_id, value, reason_id, stderr, "
            "samples, own_id) SELECT r.id, r.source_id, r.host_id, "
            "r.config_id, r.test_id, j.id, r.metric_id, r.value, y.id, "
            "r.stderr, r.samples, r.own_id FROM result r "
            "LEFT JOIN job j ON j.name = r.job "
            "LEFT JOIN reason y ON y.text = r.null_reason "
            "WHERE r.id >= ?1 ORDER BY r.id LIMIT ?2",
            -1, &q, NULL) != SQLITE_OK) {
        rc = db_fail(db, err, "cannot migrate schema to version 7");
        goto out;
    }
    /* CHUNK rows at a time from the next id on (ids may have gaps, or be
     * anything in a file from elsewhere) */
    for (long long done = 0; done < n;) {
        sqlite3_bind_int64(q, 1, lo);
        sqlite3_bind_int64(q, 2, CHUNK);
        int st = sqlite3_step(q);
        sqlite3_reset(q);
        if (st != SQLITE_DONE) {
            rc = db_fail(db, err, "cannot migrate schema to version 7");
            goto out;
        }
        long long k = sqlite3_changes64(db->h);
        long long last = one_int(db, "SELECT max(id) FROM result_v7");
        done += k;
        if (k < CHUNK || last == INT64_MAX)
            break;
        lo = last + 1;
        if (loud && tty)
            fprintf(stderr, "\rpoolbench: %s: %3.0f%% of the results",
                    db->path, 100.0 * (double)done / (double)n);
    }
    if ((rc = run(db, "DROP TABLE result", err)) ||
        (rc = run(db, "ALTER TABLE result_v7 RENAME TO result", err)) ||
        (rc = run(db, idx, err)) || (rc = run(db, view, err)))
        goto out;
    if (loud)
        fprintf(stderr, "%spoolbench: %s: schema 7 in %.1f s\n",
                tty ? "\r" : "", db->path, now_s() - t0);
out:
    sqlite3_finalize(q);
    free(job);
    free(reason);
    free(res);
    free(idx);
    free(view);
    return rc;
}

/* After the commit of a rebuild: the old rows' pages are free pages (the
 * file grew by the new table: 118 -> 152 MB at 10^6 results); VACUUM
 * writes the file again without them (-> 46 MB). A failure (no space for
 * the copy, a reader in the way) leaves the file as it is: correct, only
 * larger, and `poolbench db compact` can do it later. */
void db_migrate_compact(struct pb_db *db)
{
    long long page = one_int(db, "PRAGMA page_size");
    long long before = one_int(db, "PRAGMA page_count") * page;
    long long n = one_int(db, "SELECT count(*) FROM result");
    if (one_int(db, "PRAGMA freelist_count") == 0)
        return;
    double t0 = now_s();
    int ok = sqlite3_exec(db->h, "VACUUM", NULL, NULL, NULL) == SQLITE_OK;
    if (n < LOUD)
        return;
    if (ok)
        fprintf(stderr,
                "poolbench: %s: compacted, %.1f MB -> %.1f MB in %.1f s\n",
                db->path, (double)before / 1e6,
                (double)(one_int(db, "PRAGMA page_count") * page) / 1e6,
                now_s() - t0);
    else
        fprintf(stderr,
                "poolbench: %s: not compacted (%s): `poolbench db compact` "
                "gives the old rows' space back\n",
                db->path, sqlite3_errmsg(db->h));
}
