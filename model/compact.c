/* poolbench db compact: rewrite the database file without free pages
 * (VACUUM), refresh the planner's statistics (ANALYZE, PRAGMA optimize)
 * and fold the write-ahead log back into the file. */
#include "model/db_int.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Bytes of the database file plus its -wal file (0 for a missing one). */
static long long file_bytes(const char *path)
{
    struct stat st;
    long long n = stat(path, &st) == 0 ? (long long)st.st_size : 0;
    char *wal = pb_xasprintf("%s-wal", path);
    if (stat(wal, &st) == 0)
        n += (long long)st.st_size;
    free(wal);
    return n;
}

static int run(struct pb_db *db, const char *sql, struct pb_err *err)
{
    if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(db, err, sql);
    return PB_OK;
}

int pb_db_compact(struct pb_db *db, long long *before, long long *after,
                  struct pb_err *err)
{
    if (db->batch)
        return pb_err_set(err, PB_EDB, db->path, 0, 0,
                          "cannot compact inside a batch of stores");
    *before = file_bytes(db->path);
    int rc;
    if ((rc = run(db, "VACUUM", err)) || (rc = run(db, "ANALYZE", err)) ||
        (rc = run(db, "PRAGMA optimize", err)) ||
        (rc = run(db, "PRAGMA wal_checkpoint(TRUNCATE)", err)))
        return rc;
    *after = file_bytes(db->path);
    return PB_OK;
}
