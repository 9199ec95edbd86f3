/* Merging another poolbench database (`poolbench ingest other.db`), the
 * other file: recognising it, opening it read-only, checking that it is a
 * poolbench database, copying it (SQLite backup API, a consistent
 * snapshot even while it is being written) to a temporary file that is
 * migrated when its schema is older, listing its sources, and the
 * statements read on the copy. The other file is never written. Reading
 * its sources back and storing them: merge.c. Rules: docs/model.md,
 * "Merging databases". */
#define _GNU_SOURCE
#include "model/merge_int.h"

#include "common/pb_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const merge_sql[M__COUNT] = {
    [M_SOURCES] = "SELECT id, sha256, path, format, tool_version, size, "
                  "ingested_at FROM source ORDER BY id",
    [M_RESULTS] = "SELECT r.id, r.own_id, r.config_id, r.test_id, h.name, "
                  "j.name, m.name, m.unit, m.direction, r.value, "
                  "y.text, r.stderr, r.samples FROM result r "
                  "LEFT JOIN host h ON h.id = r.host_id "
                  "LEFT JOIN job j ON j.id = r.job_id "
                  "LEFT JOIN reason y ON y.id = r.reason_id "
                  "LEFT JOIN metric m ON m.id = r.metric_id "
                  "WHERE r.source_id = ?1 ORDER BY r.id",
    [M_OWN] = "SELECT label FROM config_own WHERE id = ?1",
    [M_OWN_PARAMS] = "SELECT key, value, origin FROM config_own_param "
                     "WHERE own_id = ?1 ORDER BY key",
    [M_CONFIG] = "SELECT label FROM config WHERE id = ?1",
    [M_CONFIG_PARAMS] = "SELECT key, value, origin FROM config_param "
                        "WHERE config_id = ?1 ORDER BY key",
    [M_TEST] = "SELECT tool, name FROM test WHERE id = ?1",
    [M_TEST_PARAMS] = "SELECT key, value FROM test_param WHERE test_id = ?1 "
                      "ORDER BY key",
    [M_LABEL_PARAMS] = "SELECT label, key, value, origin FROM label_param "
                       "WHERE source_id = ?1 ORDER BY rowid",
    [M_FACTS] = "SELECT host, key, value FROM fact WHERE source_id = ?1 "
                "ORDER BY rowid",
    [M_SAMPLES] = "SELECT s.result_id, s.seq, s.value FROM sample s "
                  "JOIN result r ON r.id = s.result_id "
                  "WHERE r.source_id = ?1 ORDER BY s.result_id, s.seq",
    [M_HISTS] = "SELECT h.result_id, h.kind, h.nbins, h.bins FROM "
                "latency_hist h JOIN result r ON r.id = h.result_id "
                "WHERE r.source_id = ?1 ORDER BY h.result_id",
    [M_SERIES] = "SELECT s.id, s.result_id, s.name, s.unit, s.kind, "
                 "s.width_ms FROM series s JOIN result r ON r.id = "
                 "s.result_id WHERE r.source_id = ?1 ORDER BY s.id",
    [M_SERIES_POINTS] = "SELECT t_ms, value, n, min, max, p50, p90, p95, "
                        "p99, p999 FROM series_point WHERE series_id = ?1 "
                        "ORDER BY seq",
};

sqlite3_stmt *mg_stmt(struct pb_db_merge *m, enum merge_stmt s,
                           struct pb_err *err)
{
    if (!m->st[s] && sqlite3_prepare_v2(m->db->h, merge_sql[s], -1,
                                        &m->st[s], NULL) != SQLITE_OK) {
        pb_err_set(err, PB_EDB, m->path, 0, 0, "cannot read the database: %s",
                   sqlite3_errmsg(m->db->h));
        m->st[s] = NULL;
        return NULL;
    }
    sqlite3_reset(m->st[s]);
    sqlite3_clear_bindings(m->st[s]);
    return m->st[s];
}

/* A column that must have a value: PB_OK, else "broken database" (a file
 * whose schema lets NULL in where poolbench's does not). */
int mg_need(struct pb_db_merge *m, sqlite3_stmt *q, int i,
                const char *what, struct pb_err *err)
{
    if (sqlite3_column_type(q, i) != SQLITE_NULL)
        return PB_OK;
    return pb_err_set(err, PB_EDB, m->path, 0, 0,
                      "broken database: %s is NULL", what);
}

int mg_fail(struct pb_db_merge *m, struct pb_err *err)
{
    char msg[200];
    return pb_err_set(err, PB_EDB, m->path, 0, 0,
                      "cannot read the database: %s",
                      db_why(m->db, msg, sizeof(msg)));
}

int pb_db_merge_sniff(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    if (!path || !strcmp(path, "-"))
        return 0;
    int fd = pb_open_file(path, O_RDONLY, 0, PB_OPEN_REG, NULL);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, head, sizeof(head));
    close(fd);
    return n == (ssize_t)sizeof(head) && !memcmp(head, magic, sizeof(head));
}

/* One integer of a query on h; -1 when it cannot be read. */
static long long int_of(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *q;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

/* Is the other file a poolbench database this binary can read? The same
 * test as pb_db_open's for --db: application_id "PBDB", or poolbench's
 * tables from before it was set. */
static int check_other(sqlite3 *h, const char *path, struct pb_err *err)
{
    long long app = int_of(h, "PRAGMA application_id");
    long long v = int_of(h, "PRAGMA user_version");
    long long ours = int_of(h, "SELECT count(*) FROM sqlite_master WHERE "
                               "type = 'table' AND name IN ('source', "
                               "'result', 'config', 'metric')");
    if (app < 0 || v < 0 || ours < 0)
        return pb_err_set(err, PB_EDB, path, 0, 0,
                          "cannot read the database: %s", sqlite3_errmsg(h));
    if (app != PB_DB_APPLICATION_ID && app != 0)
        return pb_err_set(err, PB_EFORMAT, path, 0, 0,
                          "not a poolbench database (it belongs to another "
                          "program: application_id 0x%08llx); not merged",
                          app);
    if (app == 0 && (v < 1 || v > PB_DB_SCHEMA_VERSION || ours != 4))
        return pb_err_set(err, PB_EFORMAT, path, 0, 0,
                          "not a poolbench database (no poolbench tables, "
                          "schema version %lld); not merged", v);
    if (v > PB_DB_SCHEMA_VERSION)
        return pb_err_set(err, PB_EDB, path, 0, 0,
                          "database schema version %lld is newer than this "
                          "poolbench (%d); not merged: upgrade poolbench",
                          v, PB_DB_SCHEMA_VERSION);
    if (v < 1 || ours != 4)
        return pb_err_set(err, PB_EDB, path, 0, 0,
                          "not a poolbench database (schema version %lld); "
                          "not merged", v);
    return PB_OK;
}

/* ==== the copy ==== */

static const char *const tmp_ext[] = {"", "-wal", "-shm", "-journal"};
#define NEXT (sizeof(tmp_ext) / sizeof(tmp_ext[0]))
/* A copy no process has locked is left by a killed merge once it is this
 * old (seconds): younger, it may be one made a moment ago and not yet
 * locked. */
#define STALE_AGE 60

static const char *tmp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

/* Copies left by merges that were killed (SIGKILL cannot be caught):
 * poolbench-merge-PID-XXXXXX of this user, a regular file, older than
 * STALE_AGE and locked by no process (each merge holds an flock on its
 * copy while it lives, whatever PID namespace it runs in), with its
 * -wal, -shm and -journal. Other files are never touched. */
static void sweep_stale(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        char *end;
        if (strncmp(n, "poolbench-merge-", 16))
            continue;
        long pid = strtol(n + 16, &end, 10);
        if (end == n + 16 || *end != '-' || pid <= 0 || strlen(end + 1) != 6)
            continue;
        int fd = openat(dirfd(d), n, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
                                         O_NOCTTY | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid() && time(NULL) - st.st_mtime > STALE_AGE &&
            flock(fd, LOCK_EX | LOCK_NB) == 0)
            for (size_t i = 0; i < NEXT; i++) {
                char *p = pb_xasprintf("%s%s", n, tmp_ext[i]);
                if (fstatat(dirfd(d), p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISREG(st.st_mode) && st.st_uid == geteuid())
                    unlinkat(dirfd(d), p, 0);
                free(p);
            }
        close(fd);
    }
    if (d)
        closedir(d);
}

/* Copy src to a new temporary file, m->tmp, locked (m->lock) and removed
 * if a signal ends the process (m->clean). */
static int copy_to_temp(sqlite3 *src, struct pb_db_merge *m,
                        struct pb_err *err)
{
    const char *dir = tmp_dir();
    sweep_stale(dir);
    m->tmp = pb_xasprintf("%s/poolbench-merge-%ld-XXXXXX", dir,
                          (long)getpid());
    m->lock = mkostemp(m->tmp, O_CLOEXEC);
    if (m->lock < 0) {
        int e = errno;
        free(m->tmp);
        m->tmp = NULL;
        return pb_err_set(err, PB_EDB, m->path, 0, 0,
                          "cannot make a temporary copy in %s: %s", dir,
                          strerror(e));
    }
    /* held until the copy is removed: the sign that it is in use. flock,
     * not fcntl: closing this descriptor must not drop SQLite's locks. */
    flock(m->lock, LOCK_EX);
    for (size_t i = 0; i < NEXT; i++) {
        char *p = pb_xasprintf("%s%s", m->tmp, tmp_ext[i]);
        m->clean[i] = pb_cleanup_add(p);
        free(p);
    }
    sqlite3 *dst = NULL;
    int rc = sqlite3_open_v2(m->tmp, &dst,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    sqlite3_backup *b =
        rc == SQLITE_OK ? sqlite3_backup_init(dst, "main", src, "main") : NULL;
    if (b) {
        rc = sqlite3_backup_step(b, -1);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
        int rc2 = sqlite3_backup_finish(b);
        if (rc == SQLITE_OK)
            rc = rc2;
    } else if (rc == SQLITE_OK) {
        rc = sqlite3_errcode(dst);
    }
    if (rc != SQLITE_OK)
        pb_err_set(err, PB_EDB, m->path, 0, 0,
                   "cannot copy the database to %s: %s", m->tmp,
                   dst ? sqlite3_errmsg(dst) : sqlite3_errstr(rc));
    sqlite3_close(dst);
    return rc == SQLITE_OK ? PB_OK : PB_EDB;
}

static void remove_temp(struct pb_db_merge *m)
{
    if (!m->tmp)
        return;
    for (size_t i = 0; i < NEXT; i++) {
        char *p = pb_xasprintf("%s%s", m->tmp, tmp_ext[i]);
        unlink(p);
        free(p);
        pb_cleanup_forget(m->clean[i]);
    }
    close(m->lock);
}

static char *dup_col(sqlite3_stmt *q, int i)
{
    const char *s = db_col_text(q, i);
    return s ? pb_xstrdup(s) : NULL;
}

static int load_sources(struct pb_db_merge *m, struct pb_err *err)
{
    sqlite3_stmt *q = mg_stmt(m, M_SOURCES, err);
    if (!q)
        return PB_EDB;
    size_t cap = 0;
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW) {
        if (mg_need(m, q, 1, "source.sha256", err)) {
            sqlite3_reset(q);
            return PB_EDB;
        }
        if (sqlite3_column_bytes(q, 1) > 64) {
            sqlite3_reset(q);
            return pb_err_set(err, PB_EDB, m->path, 0, 0,
                              "broken database: source.sha256 is not a "
                              "SHA-256");
        }
        PB_GROW(m->src, cap, m->nsrc + 1);
        struct merge_source *s = &m->src[m->nsrc++];
        s->id = sqlite3_column_int64(q, 0);
        s->sha256 = dup_col(q, 1);
        s->path = dup_col(q, 2);
        s->format = dup_col(q, 3);
        s->tool_version = dup_col(q, 4);
        s->size = sqlite3_column_int64(q, 5);
        s->ingested_at = dup_col(q, 6);
    }
    sqlite3_reset(q);
    return st == SQLITE_DONE ? PB_OK : mg_fail(m, err);
}

int pb_db_merge_open(const char *path, struct pb_db_merge **out,
                     struct pb_err *err)
{
    *out = NULL;
    sqlite3 *h = NULL;
    if (db_open_reader(path, &h, err))
        return PB_EDB;
    struct pb_db_merge *m = pb_xcalloc(1, sizeof(*m));
    m->path = pb_xstrdup(path);
    m->lock = -1;
    int rc = check_other(h, path, err);
    if (!rc)
        rc = copy_to_temp(h, m, err);
    sqlite3_close(h);
    struct pb_err e = {0};
    /* The copy is brought to this binary's schema by the usual
     * migrations (the other file stays as it was), guarded as a file
     * from elsewhere: its schema is not trusted to call functions, its
     * work is bounded, and its tables must have poolbench's shape. */
    if (!rc && (rc = db_open(m->tmp, DB_FOREIGN, &m->db, &e)) != PB_OK)
        pb_err_set(err, PB_EDB, path, 0, 0, "cannot read the database: %s",
                   e.msg);
    if (!rc)
        rc = load_sources(m, err);
    if (rc) {
        pb_db_merge_close(m);
        return rc;
    }
    *out = m;
    return PB_OK;
}

size_t pb_db_merge_count(const struct pb_db_merge *m)
{
    return m ? m->nsrc : 0;
}

void pb_db_merge_close(struct pb_db_merge *m)
{
    if (!m)
        return;
    for (int i = 0; i < M__COUNT; i++)
        sqlite3_finalize(m->st[i]);
    pb_db_close(m->db);
    remove_temp(m);
    for (size_t i = 0; i < m->nsrc; i++) {
        struct merge_source *s = &m->src[i];
        free(s->sha256);
        free(s->path);
        free(s->format);
        free(s->tool_version);
        free(s->ingested_at);
    }
    free(m->src);
    free(m->res_ids);
    free(m->tmp);
    free(m->path);
    free(m);
}
