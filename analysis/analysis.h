/* analysis/: what a report, `best` and `compare` show, loaded from the
 * database and computed into plain structs that render/ turns into
 * output. It reads model/ (pb_db_*) and common/; it draws nothing and
 * includes nothing from render/, cli/ or run/. Prefix pb_an_.
 *
 * So far it holds the stored repeats (samples) that the verdicts of best,
 * compare and the report rest on; the report's data, ranking, sweeps,
 * history and hosts are still loaded in render/ (issue 37, item 4).
 *
 * Use:
 *   1. pb_an_samps_load: the samples of a database, all or those a
 *      filter keeps, in cell order;
 *   2. look cells up in them with pb_an_samp_cmp (bsearch order);
 *   3. pb_an_samps_release. */
#ifndef PB_ANALYSIS_H
#define PB_ANALYSIS_H

#include "common/pb.h"
#include "model/db.h"

#include <stddef.h>

/* ==== stored repeats (samples.c) ==== */

/* One stored sample, by the ids of its cell and result. */
struct pb_an_samp {
    long long source, test, metric, config, result;
    double value;
};

/* Samples of one database, in pb_db_each_sample's order (source, test,
 * metric, config, result, seq). Owns v. */
struct pb_an_samps {
    struct pb_an_samp *v;
    size_t n, cap;
};

/* Read the samples of db that want(ctx, s) keeps (want NULL: all) into
 * *out (zeroed first; release with pb_an_samps_release, also after an
 * error). PB_OK or PB_EDB (err filled). */
int pb_an_samps_load(struct pb_db *db,
                     int (*want)(void *ctx, const struct pb_db_sample *s),
                     void *ctx, struct pb_an_samps *out,
                     struct pb_err *err) PB_WUR;
/* Free the samples and zero *ss. */
void pb_an_samps_release(struct pb_an_samps *ss);

/* qsort/bsearch order of samples by cell: source, test, metric, config
 * (result and value not looked at). */
int pb_an_samp_cmp(const void *a, const void *b);

#endif
