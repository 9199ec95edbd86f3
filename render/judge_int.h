/* Private to render/: the kind of a metric (throughput, latency, cpu,
 * other) compare summarises by. The verdict on two cells and the stored
 * repeats it may rest on are in analysis/data.h (judge.c, analysis.c).
 * docs/statistics.md, "Which test, and the verdict". */
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

#endif
