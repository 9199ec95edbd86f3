/* Sources in the database: the batch transaction, one source stored whole
 * (pb_db_store) or in parts (pb_db_stream_*) inside its own savepoint, and
 * forgetting a source. The rows themselves: store.c. */
#define _GNU_SOURCE
#include "model/db_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int pb_db_begin(struct pb_db *db, struct pb_err *err)
{
    if (db->batch)
        return PB_OK;
    if (db_exec(db, S_BEGIN, err))
        return PB_EDB;
    db->batch = 1;
    /* the write lock is ours: no other connection re-keys until commit */
    if (db_sync_generation(db, err)) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        db->batch = 0;
        return PB_EDB;
    }
    return PB_OK;
}

int pb_db_commit(struct pb_db *db, struct pb_err *err)
{
    if (!db->batch)
        return PB_OK;
    db->batch = 0;
    if (db_exec(db, S_COMMIT, err)) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        db_forget_ids(db);
        return PB_EDB;
    }
    return PB_OK;
}

/* Undo everything of the source being stored, and nothing else. */
static void undo_source(struct pb_db *db, struct pb_err *err)
{
    db_forget_ids(db);
    if (!db->batch) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        return;
    }
    db_exec(db, S_ROLLBACK_TO, err);
    db_exec(db, S_RELEASE, err);
}

struct pb_db_stream {
    struct pb_db *db;
    long long source_id; /* 0 until the first part */
    size_t n;            /* results stored */
    char *file_time;     /* the set's, stored last; NULL = none */
};

int pb_db_stream_open(struct pb_db *db, const struct pb_resultset *set,
                      struct pb_db_stream **out, struct pb_err *err)
{
    *out = NULL;
    /* A streamed source is large (bonnie++ from 128 KiB, 36 results a
     * row): with SQLite's default 2 MB page cache its one transaction
     * spills pages of the config, host and own-config indexes to the WAL
     * and reads them back (pread), a third of the CPU time of 100,000
     * distinct machines. 16 MB keeps them: sys time 3.7 -> 1.6 s, peak
     * RSS +15 MB (bench/RESULTS.md, "bonnie++ ingest speed"). Only the
     * cache: synchronous and the journal stay as pb_db_open set them.
     * Once per connection: a PRAGMA is prepared again at every run
     * (~3% of the CPU time of ingesting 1,000 fio files, bench/NOTES.md,
     * "Issue 41 item 3"). */
    if (!db->cache_set) {
        if (db_exec(db, S_STREAM_CACHE, err))
            return PB_EDB;
        db->cache_set = 1;
    }
    /* Alone: one transaction. In a batch: a savepoint, so a bad source
     * still leaves nothing behind while the batch commits once. */
    if (db_exec(db, db->batch ? S_SAVEPOINT : S_BEGIN, err))
        return PB_EDB;
    int rc = PB_OK;
    if (!db->batch && (rc = db_sync_generation(db, err)))
        goto rollback;
    sqlite3_stmt *q = db_stmt(db, S_SOURCE_FIND, err);
    if (!q) {
        rc = PB_EDB;
        goto rollback;
    }
    db_bind_text(q, 1, set->sha256);
    long long existing = db_find_id(db, q, &rc, err);
    if (rc)
        goto rollback;
    if (existing) {
        undo_source(db, err);
        return PB_EDUP;
    }
    *out = pb_xcalloc(1, sizeof(**out));
    (*out)->db = db;
    (*out)->file_time = set->file_time ? pb_xstrdup(set->file_time) : NULL;
    return PB_OK;
rollback:
    undo_source(db, err);
    return rc ? rc : PB_EDB;
}

static int insert_source(struct pb_db *db, const struct pb_resultset *set,
                         long long *id, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_SOURCE_INSERT, err);
    if (!q)
        return PB_EDB;
    char when[32];
    now_iso(when, sizeof(when));
    db_bind_text(q, 1, set->sha256);
    db_bind_text(q, 2, set->path ? set->path : "-");
    db_bind_text(q, 3, set->format ? set->format : "unknown");
    db_bind_text(q, 4, set->tool_version);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)set->size);
    db_bind_text(q, 6, when);
    int rc = db_step_done(db, q, err, "cannot insert source");
    if (!rc)
        *id = sqlite3_last_insert_rowid(db->h);
    return rc;
}

int pb_db_stream_part(struct pb_db_stream *st, const struct pb_resultset *part,
                      struct pb_err *err)
{
    int rc = PB_OK;
    if (!st->source_id &&
        (rc = insert_source(st->db, part, &st->source_id, err)))
        return rc;
    if ((rc = db_store_rows(st->db, part, st->source_id, err)))
        return rc;
    if (part->nhists &&
        (rc = db_store_hists(st->db, part, st->source_id, err)))
        return rc;
    st->n += part->nresults;
    return PB_OK;
}

int pb_db_stream_close(struct pb_db_stream *st, const struct pb_resultset *last,
                       int ok, size_t *nresults, struct pb_err *err)
{
    if (nresults)
        *nresults = 0;
    struct pb_db *db = st->db;
    int rc = ok ? PB_OK : PB_EINPUT;
    if (ok && last)
        rc = pb_db_stream_part(st, last, err);
    if (!rc && st->file_time)
        rc = db_store_fact(db, st->source_id, NULL, "file_time",
                           st->file_time, err);
    if (!rc)
        rc = db_exec(db, db->batch ? S_RELEASE : S_COMMIT, err);
    if (!rc && nresults)
        *nresults = st->n;
    free(st->file_time);
    free(st);
    if (rc)
        undo_source(db, err);
    return rc;
}

int pb_db_store(struct pb_db *db, const struct pb_resultset *set,
                size_t *nresults, struct pb_err *err)
{
    struct pb_db_stream *st = NULL;
    int rc = pb_db_stream_open(db, set, &st, err);
    if (rc)
        return rc;
    return pb_db_stream_close(st, set, 1, nresults, err);
}

/* Labels source_id attached dimensions to (caller frees each and the
 * array). */
static int source_labels(struct pb_db *db, long long source_id,
                         char ***out, size_t *n, struct pb_err *err)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    sqlite3_stmt *q = db_stmt(db, S_SOURCE_LABELS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, source_id);
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        PB_GROW(*out, cap, *n + 1);
        (*out)[(*n)++] = pb_xstrdup(db_col_text(q, 0));
    }
    return db_finish_query(db, q, st, 0, err);
}

int pb_db_forget_source(struct pb_db *db, long long source_id,
                        struct pb_err *err)
{
    /* like pb_db_store: a transaction of its own, or a savepoint in a
     * batch */
    if (db_exec(db, db->batch ? S_SAVEPOINT : S_BEGIN, err))
        return PB_EDB;
    char **labels = NULL;
    size_t nl = 0;
    int rc = db->batch ? PB_OK : db_sync_generation(db, err);
    if (!rc)
        rc = source_labels(db, source_id, &labels, &nl, err);
    static const enum db_stmt del[] = {S_FORGET_LABEL_PARAMS,
                                       S_FORGET_POINTS, S_FORGET_SERIES,
                                       S_FORGET_SAMPLES, S_FORGET_HISTS,
                                       S_FORGET_RESULTS, S_FORGET_FACTS,
                                       S_FORGET_SOURCE};
    for (size_t i = 0; i < sizeof(del) / sizeof(del[0]) && !rc; i++) {
        sqlite3_stmt *q = db_stmt(db, del[i], err);
        if (!q) {
            rc = PB_EDB;
            break;
        }
        sqlite3_bind_int64(q, 1, source_id);
        rc = db_step_done(db, q, err, "cannot forget source");
    }
    /* what it attached is gone: its labels' configs are re-keyed back */
    if (!rc && nl)
        rc = db_rekey_labels(db, labels, nl, err);
    for (size_t i = 0; i < nl; i++)
        free(labels[i]);
    free(labels);
    if (!rc)
        rc = db_exec(db, db->batch ? S_RELEASE : S_COMMIT, err);
    if (rc) {
        undo_source(db, err);
        return PB_EDB;
    }
    return PB_OK;
}
