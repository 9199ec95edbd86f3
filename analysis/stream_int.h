/* Private to analysis/data.c, data_order.c, stream.c (and render/spread.c,
 * render/report.c): the order of
 * the report's cells, and the cells on disk with one test in memory at a
 * time (docs/performance.md, "Report memory"). */
#ifndef PB_STREAM_INT_H
#define PB_STREAM_INT_H

#include "analysis/data.h"

/* ==== data_order.c: the order of cells ==== */

/* After the rows are read: configurations, tests, metrics and cells in
 * report order, tests' names made unique. */
void rp_data_order(struct rp_data *d);
/* After the groups are marked: the metrics a test shows by default (one
 * throughput per direction beside its mean and p99 latency). */
void rp_latency_beside(struct rp_data *d);

/* Order of each metric inside a test (index by metric); caller frees. */
int *rp_metric_orders(const struct rp_data *d);
/* Compare (test ta, metric ma) with (tb, mb) in report order. */
int rp_tm_cmp(const struct rp_data *d, const int *morder, size_t ta,
              size_t ma, size_t tb, size_t mb);
/* Sort c[0..n) in report order (test, metric, configuration rank). */
void rp_cells_sort(const struct rp_data *d, const int *morder,
                   struct rp_cell *c, size_t n);

/* ==== stream.c ==== */

/* A temporary file for the cells in $TMPDIR or /tmp, unlinked at once.
 * PB_OK or PB_EIO (the caller keeps every cell in memory instead). */
int rp_stream_new(struct rp_stream **out, struct pb_err *err) PB_WUR;
void rp_stream_free(struct rp_stream *s);
/* One finished cell of the ordered pass (rows by test, metric, config). */
void rp_stream_put(struct rp_data *d, const struct rp_cell *c);
/* The groups of every (test, metric) put, in report order, first =
 * SIZE_MAX (after the ranks are known). */
void rp_stream_groups(struct rp_data *d, const int *morder);
/* After the groups are marked: read the resident groups' cells into
 * d->cells (sorted, their first set), count each configuration's cells
 * and tests, reserve the window. PB_OK or PB_EIO. */
int rp_stream_resident(struct rp_data *d, struct pb_err *err) PB_WUR;
/* PB_EIO (err filled) when a read of the window failed, else PB_OK. */
int rp_stream_check(const struct rp_data *d, struct pb_err *err) PB_WUR;
/* A cell that stands for (group, config) while the group's cells are on
 * disk: what is added to its nrepeats and outliers is added to the real
 * cell when its test is loaded. Valid until the next call. */
struct rp_cell *rp_stream_side(const struct rp_data *d, size_t group,
                               size_t config);
/* After the last section that reads cells: free the resident cells and
 * the window (every group's first becomes SIZE_MAX) and load no test
 * again; d->stream stays for rp_stream_check. Nothing without d->stream.
 * The report's last sections (the bonnie++ table, systems, sources) read
 * their own rows, configurations, sources and facts: 100,000 machines'
 * resident cells (28.8 MB) were held under the bonnie++ table's pages. */
void rp_stream_drop(struct rp_data *d);

#endif
