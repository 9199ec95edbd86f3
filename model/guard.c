/* What stands between SQLite and a database file: every file SQLite opens
 * goes through pb_open_file (a FIFO or a device named as a database
 * cannot block or be written), and a database from elsewhere (merged, or
 * compared with db:FILE) is read only when each table poolbench reads is
 * a table of poolbench's shape, with no trigger, and with its work
 * bounded by its size. Rules: docs/threat-model.md. */
#define _GNU_SOURCE
#include "model/db_int.h"
#include "common/pb_file.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern const char pb_schema_sql[];

/* ==== every file SQLite opens ==== */

/* SQLite's unix VFS calls this instead of open(2). Directories are
 * opened to sync them, /dev/urandom to seed SQLite's randomness. */
static int guarded_open(const char *path, int flags, int mode)
{
    unsigned allow = PB_OPEN_REG | PB_OPEN_DIR;
    if (!strcmp(path, "/dev/urandom"))
        allow |= PB_OPEN_CHR;
    return pb_open_file(path, flags, mode, allow, NULL);
}

static void init_once(void)
{
    /* SQLite's allocation statistics take a global mutex per malloc;
     * nothing reads them. Only possible before SQLite initialises. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_vfs *v = sqlite3_vfs_find(NULL);
    if (v && v->iVersion >= 3 && v->xSetSystemCall)
        v->xSetSystemCall(v, "open", (sqlite3_syscall_ptr)guarded_open);
}

void db_sqlite_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_once);
}

int db_check_kind(const char *path, struct pb_err *err)
{
    struct stat st;
    const char *kind;
    if (stat(path, &st) != 0 || !(kind = pb_file_kind(st.st_mode)))
        return PB_OK;
    return pb_err_set(err, PB_EDB, path, 0, 0,
                      "cannot open database: not a regular file (%s)", kind);
}

/* ==== the work bound ==== */

/* VM instructions between two calls of the progress handler. */
#define STEP 1000

static int on_progress(void *ctx)
{
    struct pb_db *db = ctx;
    if (db->budget == 0) {
        db->budget_hit = 1;
        return 1; /* SQLITE_INTERRUPT */
    }
    db->budget--;
    return 0;
}

/* The database file and its WAL, in bytes. */
static double file_bytes(const char *path)
{
    struct stat st;
    double n = stat(path, &st) == 0 ? (double)st.st_size : 0;
    char *wal = pb_xasprintf("%s-wal", path);
    if (stat(wal, &st) == 0)
        n += (double)st.st_size;
    free(wal);
    return n;
}

const char *db_budget_text(struct pb_db *db, char *buf, size_t n)
{
    if (!db->budget_hit)
        return NULL;
    snprintf(buf, n, "more work than a database of %.0f KiB can need "
             "(%.3g SQLite instructions): a hostile or broken file",
             db->budget_bytes / 1024.0, db->budget_ops);
    return buf;
}

/* ==== the shape of a database from elsewhere ==== */

/* poolbench's tables and columns, read from schema.sql applied to a
 * database in memory, once. */
struct ref_table {
    char *name;
    char **col;
    size_t ncol;
};
static struct ref_table *ref;
static size_t nref;

static char **columns(sqlite3 *h, const char *table, size_t *n)
{
    sqlite3_stmt *q;
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    if (sqlite3_prepare_v2(h, "SELECT name FROM pragma_table_info(?1, "
                              "'main') ORDER BY name", -1, &q, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_text(q, 1, table, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(q) == SQLITE_ROW) {
        PB_GROW(v, cap, *n + 1);
        v[(*n)++] = pb_xstrdup((const char *)sqlite3_column_text(q, 0));
    }
    sqlite3_finalize(q);
    return v;
}

static void load_ref(void)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    size_t cap = 0;
    if (sqlite3_open_v2(":memory:", &h,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(h, pb_schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = "
                              "'table' ORDER BY name", -1, &q, NULL) !=
            SQLITE_OK)
        abort(); /* the schema built into this binary is broken */
    while (sqlite3_step(q) == SQLITE_ROW) {
        PB_GROW(ref, cap, nref + 1);
        struct ref_table *t = &ref[nref++];
        t->name = pb_xstrdup((const char *)sqlite3_column_text(q, 0));
        t->col = columns(h, t->name, &t->ncol);
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
}

/* The type of the object called name in the file ("table", "view",
 * ...), or NULL; *buf holds it. */
static const char *type_of(sqlite3 *h, const char *name, char *buf,
                           size_t n)
{
    sqlite3_stmt *q;
    const char *t = NULL;
    if (sqlite3_prepare_v2(h, "SELECT type FROM main.sqlite_master WHERE "
                              "name = ?1 COLLATE NOCASE AND type IN "
                              "('table', 'view')", -1, &q, NULL) !=
        SQLITE_OK)
        return NULL;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW) {
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, 0));
        t = buf;
    }
    sqlite3_finalize(q);
    return t;
}

static int shape_fail(struct pb_db *db, struct pb_err *err, const char *fmt,
                      const char *a, const char *b)
{
    char msg[200];
    snprintf(msg, sizeof(msg), fmt, a, b);
    return pb_err_set(err, PB_EDB, db->path, 0, 0,
                      "not poolbench's schema: %s", msg);
}

int db_check_shape(struct pb_db *db, struct pb_err *err)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_ref);
    for (size_t i = 0; i < nref; i++) {
        char type[16];
        if (!type_of(db->h, ref[i].name, type, sizeof(type)))
            return shape_fail(db, err, "no table '%s'%s", ref[i].name, "");
        if (strcmp(type, "table"))
            return shape_fail(db, err, "'%s' is a %s, not a table",
                              ref[i].name, type);
        size_t n;
        char **col = columns(db->h, ref[i].name, &n);
        int rc = PB_OK;
        for (size_t a = 0, b = 0; !rc && (a < ref[i].ncol || b < n);) {
            int c = a == ref[i].ncol ? 1
                    : b == n         ? -1
                                     : strcmp(ref[i].col[a], col[b]);
            if (c < 0)
                rc = shape_fail(db, err, "table '%s' has no column '%s'",
                                ref[i].name, ref[i].col[a]);
            else if (c > 0)
                rc = shape_fail(db, err, "table '%s' has a column '%s' "
                                "poolbench does not make", ref[i].name,
                                col[b]);
            a += c <= 0;
            b += c >= 0;
        }
        for (size_t k = 0; k < n; k++)
            free(col[k]);
        free(col);
        if (rc)
            return rc;
    }
    return PB_OK;
}

int db_guard(struct pb_db *db, struct pb_err *err)
{
    /* its views and triggers may not call functions of this program */
    sqlite3_db_config(db->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    /* Work in proportion to the file: a view or a trigger that recurses
     * without end, or statistics that make every query a scan in a scan,
     * end with an error instead of a process that never returns. */
    db->budget_bytes = file_bytes(db->path);
    double ops = db->budget_bytes * DB_BUDGET_PER_BYTE;
    if (ops < DB_BUDGET_MIN)
        ops = DB_BUDGET_MIN;
    db->budget_ops = ops;
    db->budget = (unsigned long long)(ops / STEP);
    db->budget_hit = 0;
    sqlite3_progress_handler(db->h, STEP, on_progress, db);
    /* poolbench makes no triggers; one would run while the copy of a
     * merge is migrated */
    sqlite3_stmt *q;
    char name[128] = "";
    if (sqlite3_prepare_v2(db->h, "SELECT name FROM main.sqlite_master "
                                  "WHERE type = 'trigger' LIMIT 1", -1, &q,
                           NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot read the database");
    int st = sqlite3_step(q);
    if (st == SQLITE_ROW)
        snprintf(name, sizeof(name), "%s", sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    if (st != SQLITE_ROW && st != SQLITE_DONE)
        return db_fail(db, err, "cannot read the database");
    if (st == SQLITE_ROW)
        return shape_fail(db, err, "trigger '%s'%s (poolbench makes none)",
                          name, "");
    return PB_OK;
}
