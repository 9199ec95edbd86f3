/* analysis/: what a report, `best` and `compare` show, loaded from the
 * database and computed into plain structs that render/ turns into
 * output. It reads model/ (pb_db_*) and common/; it draws nothing and
 * includes nothing from render/, cli/ or run/. Prefix pb_an_ (the
 * report's data keeps render/'s rp_ names, analysis/data.h).
 *
 * It holds the stored repeats (samples) that the verdicts of best,
 * compare and the report rest on (samples.c), every read of the database
 * (reads.c), the report's data: the model best, compare and the report
 * draw, its order and streaming, the best configuration, verdicts and
 * ranking, history, hosts, latency distributions and outliers
 * (analysis/data.h), sweeps (analysis/sweeps.h), compare's pairing and
 * statistics (analysis/compare.h), and the analysis step of report and
 * best, which cli/ runs before it hands render/ what to draw
 * (analysis/load.h). render/ is never given the database: the rows that
 * stream as a section is drawn (time series, the bonnie++ table,
 * results.csv) come through the handle struct pb_an and the reads below
 * that take it, one row at a time.
 *
 * Use:
 *   1. pb_an_samps_load: the samples of a database, all or those a
 *      filter keeps, in cell order;
 *   2. look cells up in them with pb_an_samp_cmp (bsearch order);
 *   3. pb_an_samps_release.
 * The reads (reads.c) each run one pass over the database and hand each
 * row to a callback (return non-zero to stop), in the order and with the
 * filter the model's function of the same kind documents (model/db.h). */
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

/* ==== the reads (reads.c) ==== */

/* The handle on a database that render/ reads through (it is never
 * given the database): made by pb_an_open over an open database
 * (borrowed: close the handle first), freed by pb_an_close (NULL is
 * fine). */
struct pb_an;
struct pb_an *pb_an_open(struct pb_db *db);
void pb_an_close(struct pb_an *an);

/* The file an reads, which no output of a report may replace. */
const char *pb_an_db_path(const struct pb_an *an);

/* The tables beside the results a report shows, read in this order:
 * sources, configurations and tests (labels), configuration parameters,
 * test parameters, facts (pb_db_each_source, pb_db_report_configs, ...).
 * Each callback gets ctx; a NULL one skips its table. */
struct pb_an_tables {
    pb_db_source_cb source;
    pb_db_triple_cb config, test;        /* id, label/name, tool */
    pb_db_triple_cb config_param, test_param;
    pb_db_triple_cb fact;
    void *ctx;
};
int pb_an_report_tables(struct pb_db *db, const struct pb_an_tables *t,
                        struct pb_err *err) PB_WUR;
/* The parameters of every configuration (tests 0) or test (tests 1). */
int pb_an_report_params(struct pb_an *an, int tests, pb_db_triple_cb cb,
                        void *ctx, struct pb_err *err) PB_WUR;

/* The result rows a report aggregates (pb_db_each_report_row: streamed,
 * memory independent of their number). */
int pb_an_report_rows(struct pb_db *db, const struct pb_db_filter *f,
                      pb_db_rrow_cb cb, void *ctx, struct pb_err *err) PB_WUR;
/* The same rows of the metrics ord wants, in ord's (configuration, test)
 * order (pb_db_each_ranked_row). */
int pb_an_ranked_rows(struct pb_an *an, const struct pb_db_filter *f,
                      const struct pb_db_order *ord, pb_db_ranked_cb cb,
                      void *ctx, struct pb_err *err) PB_WUR;
/* Every result as export writes it (pb_db_each_result). */
int pb_an_result_rows(struct pb_an *an, const struct pb_db_filter *f,
                      pb_db_row_cb cb, void *ctx, struct pb_err *err) PB_WUR;
/* Every stored sample, in cell order (pb_db_each_sample). */
int pb_an_each_sample(struct pb_db *db, pb_db_sample_cb cb, void *ctx,
                      struct pb_err *err) PB_WUR;
/* Latency histograms of the results f keeps (pb_db_each_hist). */
int pb_an_each_hist(struct pb_db *db, const struct pb_db_filter *f,
                    pb_db_hist_cb cb, void *ctx, struct pb_err *err) PB_WUR;
/* Time-series points of the results f keeps (pb_db_each_point). */
int pb_an_each_point(struct pb_an *an, const struct pb_db_filter *f,
                     pb_db_point_cb cb, void *ctx, struct pb_err *err) PB_WUR;
/* 1 when f keeps a time-series point, else 0 (also on a read error that
 * came before the first point). */
int pb_an_has_points(struct pb_an *an, const struct pb_db_filter *f);

/* The stored repeats of one result at a time: pb_an_repeats_open (PB_OK
 * or PB_EDB; close with pb_an_repeats_close, NULL is fine), then
 * pb_an_repeats_of per result: *v (grown, the caller frees it) gets its
 * *n samples in order (pb_db_samples_of). */
struct pb_an_repeats;
int pb_an_repeats_open(struct pb_an *an, struct pb_an_repeats **out,
                       struct pb_err *err) PB_WUR;
int pb_an_repeats_of(struct pb_an_repeats *r, long long result_id, double **v,
                     size_t *n, size_t *cap, struct pb_err *err) PB_WUR;
void pb_an_repeats_close(struct pb_an_repeats *r);

#endif
