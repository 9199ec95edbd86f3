/* model/ internals shared by db.c (statements, open, migrations), store.c
 * and store_source.c (storing and forgetting sources), attach.c (label
 * dimensions and re-keying) and query.c (listings and report queries). */
#ifndef PB_DB_INT_H
#define PB_DB_INT_H

#include "model/db.h"

#include <sqlite3.h>
#include <stdint.h>

/* ==== statements (text in db_sql.c) ==== */

enum db_stmt {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_SAVEPOINT,
    S_RELEASE,
    S_ROLLBACK_TO,
    S_STREAM_CACHE,
    S_SOURCE_FIND,
    S_SOURCE_INSERT,
    S_HOST_FIND,
    S_HOST_INSERT,
    S_JOB_FIND,
    S_JOB_INSERT,
    S_REASON_FIND,
    S_REASON_INSERT,
    S_CONFIG_FIND,
    S_CONFIG_INSERT,
    S_CONFIG_INSERT_NEW,
    S_CONFIG_PARAM_INSERT,
    /* own configs, label dimensions, re-keying (attach.c) */
    S_OWN_FIND,
    S_OWN_INSERT,
    S_OWN_INSERT_NEW,
    S_OWN_PARAM_INSERT,
    S_OWN_PARAMS,
    S_OWN_SET_CONFIG,
    S_LABEL_PARAM_INSERT,
    S_LABEL_PARAMS,
    S_LABEL_ANY,
    S_LABEL_OWNS,
    S_LABEL_CONFIGS,
    S_CONFIG_OWNS,
    S_CONFIG_RESIGN,
    S_CONFIG_PARAMS_CLEAR,
    S_CONFIG_DELETE,
    S_REMAP_ADD,
    S_REMAP_RESULTS,
    S_REMAP_CLEAR,
    S_GEN_GET,
    S_GEN_BUMP,
    S_SOURCE_LABELS,
    S_FORGET_LABEL_PARAMS,
    S_TEST_FIND,
    S_TEST_INSERT,
    S_TEST_PARAM_INSERT,
    S_METRIC_FIND,
    S_METRIC_INSERT,
    S_RESULT_INSERT,
    S_FACT_INSERT,
    S_SAMPLE_INSERT,
    S_EACH_RESULT,
    S_EXPORT_SAMPLES,
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
    S_LABEL_ORIGINS,
    S_EACH_SAMPLE,
    /* latency distributions (hist.c) */
    S_HIST_INSERT,
    S_SOURCE_RESULT_IDS,
    S_EACH_HIST,
    /* forgetting a source */
    S_FORGET_POINTS,
    S_FORGET_SERIES,
    S_FIRST_RESULT,
    S_SERIES_INSERT,
    S_POINT_INSERT,
    S_EACH_POINT,
    S_SERIES_POINTS,
    S_FORGET_SAMPLES,
    S_FORGET_HISTS,
    S_FORGET_RESULTS,
    S_FORGET_FACTS,
    S_FORGET_SOURCE,
    S__COUNT
};

extern const char *const pb_db_sql[S__COUNT];

/* Cache of name -> id kept for the life of the connection: hosts, job
 * names and reasons by name, metrics by name, unit and direction (the key
 * of the metric table), configs by label and signature, tests by tool+name and signature.
 * Hashed on the strings' content, so 10,000 fio files naming 40 metrics
 * ask the database 40 times, and a set of 3,600,000 results costs one
 * probe per result. Ids are never deleted, so an entry stays true for
 * rows other processes add; it is dropped on any rollback, which may have
 * taken back a row it names. Keys are owned copies. */
struct idslot {
    char *k, *k2; /* NULL k = free; k2 is in k's allocation */
    int k3;
    uint32_t h;
    long long id, id2; /* id2: C_OWN's config id, else 0 */
};

struct idcache {
    struct idslot *v;
    size_t n, cap; /* cap is a power of two */
};

/* C_OWN: (label, own signature) -> own config id and (id2) the config
 * id it maps to. */
enum { C_HOST, C_JOB, C_REASON, C_METRIC, C_OWN, C_TEST, C__COUNT };

#define MULTI_LOG 8 /* result INSERTs of 1, 2, 4, ... 256 rows */
#define KV_MULTI 16 /* params of a new config in one INSERT, at most */

struct pb_db {
    sqlite3 *h;
    int batch; /* inside pb_db_begin/pb_db_commit */
    int cache_set; /* S_STREAM_CACHE has run on this connection */
    struct db_rkeep *rkeep; /* the last report sort, kept (rkeep.c) */
    char *path;
    sqlite3_stmt *st[S__COUNT];
    sqlite3_stmt *multi[MULTI_LOG + 1]; /* multi[k]: INSERT of 2^k rows */
    /* kv_multi[t][n]: INSERT OR IGNORE of n params of a new own config
     * (t 0) or config (t 1), store.c db_new_params */
    sqlite3_stmt *kv_multi[2][KV_MULTI + 1];
    struct idcache ids[C__COUNT];
    long long generation; /* model_generation.n the caches are true for */
    /* a database from elsewhere (guard.c): progress-handler calls left,
     * and whether they ran out */
    unsigned long long budget;
    int budget_hit;
    double budget_bytes, budget_ops;
};

/* ==== opening (db.c) and guarding (guard.c) ==== */

/* db_open flags */
#define DB_RO 1      /* read-only (pb_db_open's readonly) */
#define DB_FOREIGN 2 /* a database from elsewhere: db_guard, db_check_shape */
/* pb_db_open with flags; pb_db_open_foreign is DB_RO | DB_FOREIGN. */
int db_open(const char *path, unsigned flags, struct pb_db **out,
            struct pb_err *err);
/* A reader's handle on path: opened read-only, or, when that cannot read
 * it (a folder where this user cannot make the -shm file) and no -wal
 * file says a writer is active, immutable. PB_OK with *h, else PB_EDB
 * with SQLite's own message (and what to do about a WAL database). */
int db_open_reader(const char *path, sqlite3 **h, struct pb_err *err);
/* SQLite's message for db's last failure (or the work bound's, when it
 * was reached) into buf. */
const char *db_why(struct pb_db *db, char *buf, size_t n);

/* Process-wide SQLite set-up, once, before any database is opened: no
 * memory statistics, and every file SQLite opens goes through
 * pb_open_file (regular files and folders only, never blocking). */
void db_sqlite_init(void);
/* PB_EDB "not a regular file (a FIFO)" when path exists and is not a
 * regular file; else PB_OK. */
int db_check_kind(const char *path, struct pb_err *err);
/* Work allowed on a database from elsewhere: this many SQLite VM
 * instructions per byte of the file and its WAL, and at least
 * DB_BUDGET_MIN. Merging or comparing real databases (0.7 to 10 MB, a
 * schema-6 one migrated) took 0.03 to 1.1 per byte: 100 leaves a margin
 * of ~100; the minimum is ~4 s of a recursive query here
 * (docs/threat-model.md). */
#define DB_BUDGET_PER_BYTE 100.0
#define DB_BUDGET_MIN 1e8
/* For a database from elsewhere, before anything else reads it: its
 * schema is not trusted (no functions of ours from its views), its work
 * is bounded (progress handler), and a trigger refuses it. PB_OK or
 * PB_EDB. */
int db_guard(struct pb_db *db, struct pb_err *err);
/* Every table of schema.sql is a table in db (not a view) with the same
 * columns. PB_OK or PB_EDB naming the first difference. */
int db_check_shape(struct pb_db *db, struct pb_err *err);
/* The work bound's message when it was reached, else NULL. */
const char *db_budget_text(struct pb_db *db, char *buf, size_t n);

/* The prepared statement s, reset and unbound; NULL with err filled. */
sqlite3_stmt *db_stmt(struct pb_db *db, enum db_stmt s, struct pb_err *err);
/* Run a statement without parameters or rows. PB_OK or PB_EDB. */
int db_exec(struct pb_db *db, enum db_stmt s, struct pb_err *err);
/* A report filter's patterns to ?1-?5, with_range: the range of its kept
 * source ids to ?6 and ?7. f may be NULL. */
void db_bind_filter(sqlite3_stmt *q, const struct pb_db_filter *f,
                    int with_range);
/* Fill err with what SQLite says about the last failure; returns PB_EDB. */
int db_fail(struct pb_db *db, struct pb_err *err, const char *what);
/* Bind a copied text, or NULL when s is NULL. */
void db_bind_text(sqlite3_stmt *q, int i, const char *s);
/* Step a bound FIND statement: the id of its first row, or 0 (*rcout set
 * on failure). Resets q. */
long long db_find_id(struct pb_db *db, sqlite3_stmt *q, int *rcout,
                     struct pb_err *err);
/* Step a statement that returns no rows. PB_OK or PB_EDB. */
int db_step_done(struct pb_db *db, sqlite3_stmt *q, struct pb_err *err,
                 const char *what);
const char *db_col_text(sqlite3_stmt *q, int i);
/* End a row loop: the callback's stop value, PB_EUSAGE for a bad pattern,
 * PB_EDB for another failure, else PB_OK. Resets q. */
int db_finish_query(struct pb_db *db, sqlite3_stmt *q, int rc, int stop,
                    struct pb_err *err);

/* The id caches (key strings are copied); 0 = not cached. */
long long db_cache_get(struct idcache *c, const char *k, const char *k2,
                       int k3);
void db_cache_put(struct idcache *c, const char *k, const char *k2, int k3,
                  long long id);
/* The same with a second id per entry (*id2 may be NULL). */
long long db_cache_get2(struct idcache *c, const char *k, const char *k2,
                        int k3, long long *id2);
void db_cache_put2(struct idcache *c, const char *k, const char *k2, int k3,
                   long long id, long long id2);
/* Drop every cached id (after a rollback, or rows deleted). */
void db_forget_ids(struct pb_db *db);


/* ==== table rebuilds of migrations (migrate.c) ==== */

/* Schema 6 -> 7 inside migrate()'s transaction (job names and null
 * reasons into their tables, result rebuilt with job_id and reason_id).
 * PB_OK or PB_EDB. */
int db_migrate_v7(struct pb_db *db, struct pb_err *err);
/* After migrate()'s commit, when a table was rebuilt: VACUUM the file
 * (the old table's pages are free pages). Failures only print. */
void db_migrate_compact(struct pb_db *db);

/* ==== latency distributions (hist.c) ==== */

/* Store set->hists of the source just stored (its results are in), in
 * the caller's transaction. PB_OK or PB_EDB. */
int db_store_hists(struct pb_db *db, const struct pb_resultset *set,
                   long long source_id, struct pb_err *err);

/* ==== label dimensions (attach.c) ==== */

/* Rank of an origin: the lower wins a conflict between dimensions of one
 * key. set 0, sheet 1, parser (NULL) 2, command 3, companion 4, label,
 * title and path 5, anything else 6. */
int db_origin_rank(const char *origin);
/* Test hook (rrows.c): how the last pb_db_each_report_row or
 * pb_db_each_ranked_row read its rows: -1 SQLite's ORDER BY, else the
 * runs its own sort wrote (0: one run in memory). */
extern long long db_report_rows_path;
/* Test hook (rrows.c): passes that merged a kept sort again (rkeep.c). */
extern long long db_report_rows_reused;
/* Test hook (rrows.c): ranked passes sorted from the records of a sort
 * kept in the report's order. */
extern long long db_report_rows_repacked;
/* The last report sort of a connection, kept for the next pass over the
 * same rows (rkeep.c). db_rstate_now reads the database's state inside
 * the pass's read transaction (0 when it cannot: nothing is kept then);
 * db_rkeep_take gives the kept sort (to db_rsort_rewind) when the state,
 * filter, order and fingerprint (fp, nfp numbers) are those it was kept
 * with, else NULL, and drops what was kept either way; for a table's own
 * order (ord) it gives in *rows instead a sort kept in the report's order
 * of the same filter and state (its records: the rows to sort again; the
 * caller frees it), else *rows is NULL. db_rkeep_put keeps s (parked) in
 * place of any other, or frees it. */
struct db_rsort;
struct db_rkeep;
struct db_rstate {
    long long version, changes;
    int valid;
};
int db_rstate_now(struct pb_db *db, struct db_rstate *st);
struct db_rsort *db_rkeep_take(struct pb_db *db, const struct pb_db_filter *f,
                               const struct pb_db_order *ord,
                               const struct db_rstate *st, const long long *fp,
                               size_t nfp, struct db_rsort **rows);
void db_rkeep_put(struct pb_db *db, const struct pb_db_filter *f,
                  const struct pb_db_order *ord, const struct db_rstate *st,
                  const long long *fp, size_t nfp, struct db_rsort *s);
void db_rkeep_free(struct pb_db *db);
/* pb_db_each_ranked_row through SQLite's ORDER BY (ranked.c): the
 * fallback of rrows.c's own sort. */
int db_each_ranked_row_sql(struct pb_db *db, const struct pb_db_filter *f,
                           const struct pb_db_order *ord, pb_db_ranked_cb cb,
                           void *ctx, struct pb_err *err);
/* Is source id among the sorted ids of f (or f keeps every source)? */
int db_source_kept(const struct pb_db_filter *f, long long id);
/* Non-zero for origins of dimensions attached to a label (sheet,
 * companion) rather than stated by the source itself. */
int db_origin_attached(const char *origin);

/* Re-key every configuration of the given labels after their attached
 * dimensions changed (see docs/model.md): configs recomputed, merged or
 * split, results moved, in the caller's transaction. PB_OK or PB_EDB. */
int db_rekey_labels(struct pb_db *db, char **labels, size_t n,
                    struct pb_err *err);
/* The config of own config own_id (label, own params), found or created
 * with the label's attached dimensions; its params are refreshed. Returns
 * the config id, or 0 with *rc set. */
long long db_place_own(struct pb_db *db, long long own_id, const char *label,
                       int *rc, struct pb_err *err);
/* db_place_own for own config own_id that this transaction has just
 * inserted with params kv[0..n) (as stored: one a key, by key), when no
 * label_param row names any label (the caller asked S_LABEL_ANY after
 * its own attachments): the same config and params, without reading back
 * what was just written. */
long long db_place_new_own(struct pb_db *db, long long own_id,
                           const char *label, const struct pb_kv *kv,
                           size_t n, int *rc, struct pb_err *err);
/* Drop the caches when another connection re-keyed (model_generation).
 * PB_OK or PB_EDB. */
int db_sync_generation(struct pb_db *db, struct pb_err *err);

/* "k=v\x1fk=v..." of params sorted by key, each with "\x1eORIGIN" when
 * with_origin and it has one (an own configuration's signature). Caller
 * frees. */
char *db_signature(const struct pb_kv *params, size_t n, int with_origin);
/* The params kv[0..n) (one a key) of a config (cfg 1) or own config
 * (cfg 0) that has none, KV_MULTI rows a statement. PB_OK or PB_EDB. */
int db_new_params(struct pb_db *db, int cfg, long long id,
                  const struct pb_kv *kv, size_t n, struct pb_err *err);
/* Insert an own configuration (label, sig) and its parameters; its id, or
 * 0 with *rc and err set. */
long long db_own_insert(struct pb_db *db, const char *label, const char *sig,
                        const struct pb_kv *kv, size_t n, int *rc,
                        struct pb_err *err);
/* store.c: a parsed set's configurations, tests, results, samples, facts
 * and series under source_id (store_source.c opens the savepoint). */
/* One fact of source_id (host NULL = the file's). */
int db_store_fact(struct pb_db *db, long long source_id, const char *host,
                  const char *key, const char *value, struct pb_err *err);
int db_store_rows(struct pb_db *db, const struct pb_resultset *set,
                  long long source_id, struct pb_err *err);

#endif
