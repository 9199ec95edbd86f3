/* Private to the merge of another poolbench database (merge_open.c:
 * opening, checking and copying it, its statements; merge.c: reading its
 * sources back as result sets and storing them). */
#ifndef PB_MERGE_INT_H
#define PB_MERGE_INT_H

#include "model/db_int.h"

/* Statements on the copy (the other database). Not in db.c's array: they
 * run on a connection of their own and are finalized by
 * pb_db_merge_close. */
enum merge_stmt {
    M_SOURCES,
    M_RESULTS,
    M_OWN,
    M_OWN_PARAMS,
    M_CONFIG,
    M_CONFIG_PARAMS,
    M_TEST,
    M_TEST_PARAMS,
    M_LABEL_PARAMS,
    M_FACTS,
    M_SAMPLES,
    M_HISTS,
    M_SERIES,
    M_SERIES_POINTS,
    M__COUNT
};

struct merge_source {
    long long id, size;
    char *sha256, *path, *format, *tool_version, *ingested_at;
};

struct pb_db_merge {
    char *path;    /* the other database, as given */
    char *tmp;     /* its copy: $TMPDIR/poolbench-merge-PID-XXXXXX */
    int lock;      /* the copy's descriptor, flock'ed while it is used */
    int clean[4];  /* pb_cleanup_add handles of the copy and its journals */
    struct pb_db *db; /* the copy, migrated */
    sqlite3_stmt *st[M__COUNT];
    struct merge_source *src;
    size_t nsrc, next;
    /* the source last given by pb_db_merge_next */
    const struct merge_source *cur;
    long long *res_ids; /* its result ids, in the order of the set */
    size_t nres, capres;
};

/* Statement s on the copy, prepared once, reset and unbound; NULL with
 * err set when it cannot be prepared. */
sqlite3_stmt *mg_stmt(struct pb_db_merge *m, enum merge_stmt s,
                      struct pb_err *err);
/* A column that must have a value: PB_OK, else "broken database". */
int mg_need(struct pb_db_merge *m, sqlite3_stmt *q, int i, const char *what,
            struct pb_err *err);
/* "cannot read the database: SQLite's message" for the copy. */
int mg_fail(struct pb_db_merge *m, struct pb_err *err);

#endif
