/* Private to render/: one verdict on two cells for compare and best (the
 * same test, the same "not judged"), the stored repeats it may rest on,
 * and the kind of a metric (throughput, latency, cpu, other) compare
 * summarises by. docs/statistics.md, "Which test, and the verdict". */
#ifndef PB_JUDGE_INT_H
#define PB_JUDGE_INT_H

#include "render/rp_data.h"
#include "analysis/analysis.h"
#include "common/stats.h"

/* ==== metric_kind.c ==== */

/* The kind of a metric, by its name and unit (docs/statistics.md,
 * "Kinds of metric"). */
enum pb_metric_kind rp_metric_kind(const char *name, const char *unit);

/* 1 when compare compares and gates the metric by default: what a
 * person reads of a run (throughput, latency, CPU, results of other
 * tools); 0 for the bookkeeping beside them (bytes moved, runtimes,
 * steady-state flags, log summaries, pool and dataset state, run
 * telemetry), which only --metric reaches. */
int rp_metric_read(const char *name);

/* ==== judge.c: the verdict (the stored repeats: analysis/samples.c) ==== */

/* The key of cell c of d in pb_an_samp_cmp's order. */
struct pb_an_samp rp_cell_key(const struct rp_data *d,
                              const struct rp_cell *c);

/* The stored repeats of cell c of d: only when c is one result row
 * (nresults 1) whose samples in ss number c->n (at least 2). A new array
 * (caller frees) and *n, or NULL and *n 0. */
double *rp_cell_repeats(const struct pb_an_samps *ss, const struct rp_data *d,
                        const struct rp_cell *c, size_t *n /* OUT */);

/* Judge cell cc (candidate, of dc with samples sc; sc may be NULL)
 * against cb (base, of db with sb) at level alpha: pb_stats_judge on
 * their means, standard errors and n, and their stored repeats when each
 * is one result that holds them. A summary without a standard error
 * whose repeats are stored gets theirs: *se_b and *se_c (may be NULL)
 * get the standard errors judged with (< 0 unknown). */
void rp_judge_cells(double alpha, const struct rp_data *db,
                    const struct rp_cell *cb, const struct pb_an_samps *sb,
                    const struct rp_data *dc, const struct rp_cell *cc,
                    const struct pb_an_samps *sc,
                    struct pb_stats_judgement *j /* OUT */,
                    double *se_b /* OUT */, double *se_c /* OUT */);

/* ==== best.c ==== */

/* The stored repeats of the best and runner-up cells of d's primary
 * groups whose sizes let the Mann-Whitney test reach 0.05 (none read
 * when there are none), for rp_best_of. *out zeroed first; release with
 * pb_an_samps_release. PB_OK or PB_EDB. */
int rp_best_samples_load(struct pb_db *db, const struct rp_data *d,
                         struct pb_an_samps *out, struct pb_err *err) PB_WUR;

#endif
