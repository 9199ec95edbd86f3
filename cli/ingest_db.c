/* poolbench ingest OTHER.db: the sources of another poolbench database,
 * handed one by one to ingest's per-file callback (model/merge.c reads
 * them; docs/design.md, "Merging databases"). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <stdlib.h>

int cli_ingest_db(const char *path, int quiet,
                  int (*cb)(void *ctx, const char *path,
                            struct pb_resultset *set,
                            const struct pb_err *err),
                  void *ctx, struct pb_db_merge **cur, struct pb_err *err)
{
    struct pb_db_merge *m = NULL;
    int rc = pb_db_merge_open(path, &m, err);
    if (rc)
        return rc;
    if (!quiet) {
        fputs("merge ", stdout);
        pb_fput_term(path, stdout);
        printf(": poolbench database, %zu sources\n", pb_db_merge_count(m));
    }
    *cur = m;
    struct pb_resultset *set = NULL;
    while ((rc = pb_db_merge_next(m, &set, err)) == PB_OK && set) {
        /* shown as OTHER.db[SOURCE PATH]; stored with the source's path */
        char *shown = pb_xasprintf("%s[%s]", path, set->path);
        int kept = cb(ctx, shown, set, NULL);
        free(shown);
        if (!kept)
            pb_resultset_free(set);
        set = NULL;
    }
    *cur = NULL;
    pb_db_merge_close(m);
    return rc;
}
