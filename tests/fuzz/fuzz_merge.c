/* libFuzzer harness: merging another poolbench database (model/merge.c,
 * `ingest OTHER.db`) whose content is hostile. The input is an SQL script
 * run on a fresh poolbench database (the schema made by pb_db_open; the
 * script may insert, update, delete, alter and change user_version or
 * application_id, but not attach files or touch more than ~100,000 VM
 * steps); that file is then merged into another fresh database, source by
 * source. Invariants: the merge is refused with a message or every source
 * is stored or a duplicate, the target passes PRAGMA integrity_check, and
 * the other file's bytes are unchanged. Seeds: tests/fuzz/seeds/merge/.
 * See tests/fuzz/fuzz.h. */
#include "tests/fuzz/fuzz.h"
#include "model/db.h"

#include <sqlite3.h>
#include <unistd.h>

static int deny(void *ctx, int op, const char *a, const char *b,
                const char *c, const char *d)
{
    (void)ctx, (void)a, (void)b, (void)c, (void)d;
    return op == SQLITE_ATTACH || op == SQLITE_DETACH ? SQLITE_DENY
                                                       : SQLITE_OK;
}

static int stop_long(void *ctx)
{
    return ++*(int *)ctx > 1000; /* x 100 VM steps */
}

static char *slurp(const char *path, size_t *len)
{
    char *buf = NULL;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, len, &e) != PB_OK)
        return NULL;
    return buf;
}

static void rm_db(const char *p)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char *q = pb_xasprintf("%s%s", p, ext[i]);
        unlink(q);
        free(q);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char other[64], target[64];
    snprintf(other, sizeof(other), "/tmp/pb_fuzz_merge_o_%d.db", (int)getpid());
    snprintf(target, sizeof(target), "/tmp/pb_fuzz_merge_t_%d.db",
             (int)getpid());
    rm_db(other);
    rm_db(target);
    struct pb_db *db = NULL;
    struct pb_err e = {0};
    FUZZ_CHECK(pb_db_open(other, 0, &db, &e) == PB_OK);
    pb_db_close(db);
    char *sql = pb_xstrndup((const char *)data, size);
    sqlite3 *h = NULL;
    if (sqlite3_open(other, &h) == SQLITE_OK) {
        int steps = 0;
        sqlite3_set_authorizer(h, deny, NULL);
        sqlite3_progress_handler(h, 100, stop_long, &steps);
        sqlite3_exec(h, sql, NULL, NULL, NULL);
        sqlite3_exec(h, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    }
    sqlite3_close(h);
    free(sql);

    size_t len0 = 0, len1 = 0;
    char *before = slurp(other, &len0);
    FUZZ_CHECK(pb_db_open(target, 0, &db, &e) == PB_OK);
    struct pb_db_merge *m = NULL;
    int rc = pb_db_merge_open(other, &m, &e);
    if (rc != PB_OK) {
        FUZZ_CHECK(m == NULL && e.code == rc && e.msg[0]);
    } else {
        struct pb_resultset *set = NULL;
        while ((rc = pb_db_merge_next(m, &set, &e)) == PB_OK && set) {
            fuzz_check_set(set);
            struct pb_err se = {0};
            size_t n = 0;
            int st = pb_db_merge_store(db, m, set, &n, &se);
            FUZZ_CHECK(st == PB_OK || st == PB_EDUP ||
                       (st == PB_EDB && se.msg[0]));
            pb_resultset_free(set);
        }
        FUZZ_CHECK(rc == PB_OK || e.msg[0]);
        pb_db_merge_close(m);
    }
    pb_db_close(db);
    if (sqlite3_open(target, &h) == SQLITE_OK) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &q, NULL) ==
            SQLITE_OK) {
            FUZZ_CHECK(sqlite3_step(q) == SQLITE_ROW);
            const char *ok = (const char *)sqlite3_column_text(q, 0);
            FUZZ_CHECK(ok && !strcmp(ok, "ok"));
            sqlite3_finalize(q);
        }
    }
    sqlite3_close(h);
    char *after = slurp(other, &len1);
    FUZZ_CHECK((!before && !after) ||
               (before && after && len0 == len1 && !memcmp(before, after, len0)));
    free(before);
    free(after);
    rm_db(other);
    rm_db(target);
    return 0;
}
