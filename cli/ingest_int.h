/* Private to `poolbench ingest` (cmd_ingest.c: options, sheets, the
 * walk; ingest_store.c: storing each source as it comes, in batched
 * transactions, and saying "ok" only once it is durable). */
#ifndef PB_CLI_INGEST_INT_H
#define PB_CLI_INGEST_INT_H

#include "ingest/ingest.h"
#include "model/db.h"

/* A source stored in the open transaction: reported "ok" only once that
 * transaction is committed (durable), never before. */
struct pending {
    char *path;
    char *format;
    size_t n;
};

struct ingest_ctx {
    struct pb_db *db;
    int dump, quiet, tty, strict;
    int skip_unknown; /* files of no supported format are skipped */
    int replace;      /* --replace: a known file's old source goes */
    size_t unknown;   /* ... and counted */
    size_t empty;     /* empty fio logs skipped (no samples) */
    int fatal;
    struct pb_err fatal_err;
    size_t stored, dups, rejected, results, seen;
    double last_progress;
    size_t batch_n;       /* sources in the open transaction */
    double batch_t0;      /* when it was opened */
    struct pending *pend; /* sources of the open transaction */
    size_t npend, cappend;
    struct collapse *coll; /* sources per configuration with a generic name */
    size_t ncoll, capcoll;
    size_t *collix;            /* hash of coll: index + 1, 0 = free */
    size_t capix;              /* power of two */
    struct pb_db_merge *merge; /* sources come from this database */
    int db_refused; /* an input was an SQLite file not merged: exit 3 */
};

/* The walk's per-source callback: store set (or report err) in the open
 * batch; commits when the batch is full or old. Always 0 (go on). */
int cli_ingest_on_file(void *vctx, const char *path, struct pb_resultset *set,
                       const struct pb_err *err);
/* Commit the open batch, print its sources' "ok" lines, open the next. */
int cli_ingest_commit(struct ingest_ctx *c, struct pb_err *e);
/* Forget the batch's pending sources, counting and printing each "ok"
 * line first when ok (the batch committed). */
void cli_ingest_settle(struct ingest_ctx *c, int ok);
/* Warn about generic configurations that 3 or more sources fell into. */
void cli_ingest_warn_collapsed(struct ingest_ctx *c);

#endif
