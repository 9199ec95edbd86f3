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

/* judge.c (the verdict, rp_judge_cells) is in analysis/data.h. */

/* ==== best.c ==== */

/* The stored repeats of the best and runner-up cells of d's primary
 * groups whose sizes let the Mann-Whitney test reach 0.05 (none read
 * when there are none), for rp_best_of. *out zeroed first; release with
 * pb_an_samps_release. PB_OK or PB_EDB. */
int rp_best_samples_load(struct pb_db *db, const struct rp_data *d,
                         struct pb_an_samps *out, struct pb_err *err) PB_WUR;

#endif
