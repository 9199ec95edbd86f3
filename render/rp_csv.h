/* Private to render/: the data behind a chart as CSV (csv_out.c) and the
 * report's results.csv/json (results_out.c). */
#ifndef PB_RP_CSV_H
#define PB_RP_CSV_H

#include "render/rp_out.h"
#include "render/rp_files.h"

/* ==== the data behind a chart, as CSV (csv_out.c) ====
 *
 * Every chart links the exact numbers it draws as charts/NNN-stem.csv
 * (beside its SVG and PNG, in the report's manifest, so `report -o`
 * re-runs remove stale ones). A chart kind builds its data with this
 * writer and hands it over just before drawing:
 *
 *     static const char *const head[] = {"config", "x", "y"};
 *     struct rp_csv *cv = rp_csv_new(3, head);
 *     for (each point) {
 *         rp_csv_str(cv, label);     -- quoted, formula-escaped
 *         rp_csv_num(cv, x);         -- exact, canonical units
 *         rp_csv_num(cv, y);         -- a row ends after ncols fields
 *     }
 *     rp_out_chart_data(o, cv);      -- the next rp_out_chart takes it
 *     rp_out_chart(o, chart, stem);  -- writes NNN-stem.svg and .csv
 *
 * Columns: lower-case names; numbers in the model's canonical units
 * (name the unit in a "unit" column or the header); one row per point or
 * bar, in the order of the table under the chart. Labels are written as
 * the report shows them. A chart without data gets no link. */
struct rp_csv;
struct rp_dir;
/* New CSV with a header row of ncols names. Never NULL; rp_csv_free. */
struct rp_csv *rp_csv_new(size_t ncols, const char *const *head);
void rp_csv_free(struct rp_csv *c);
/* Append one field: text (NULL = empty), a number (shortest text that
 * reads back the same double; NaN and infinities empty), an integer, an
 * empty field. */
void rp_csv_str(struct rp_csv *c, const char *s);
void rp_csv_num(struct rp_csv *c, double v);
void rp_csv_int(struct rp_csv *c, long long v);
void rp_csv_empty(struct rp_csv *c);
/* Append n (>= 1) fields at once: text holds them escaped with rp_csv_esc
 * and joined by commas (a row prefix that repeats, escaped once). */
void rp_csv_fields(struct rp_csv *c, const char *text, size_t len,
                   size_t n);
/* Four fields of a cell: value (mean), stderr, n, results (the stored
 * results averaged); the first three empty without value. */
void rp_csv_cell(struct rp_csv *c, const struct rp_cell *cell);
/* Data rows so far (the header not counted). */
size_t rp_csv_rows(const struct rp_csv *c);
/* The text (a short last row is completed with empty fields). */
const char *rp_csv_text(struct rp_csv *c, size_t *len);
/* Append s as one CSV field to b: RFC 4180 quoting, a leading ' for a
 * text a spreadsheet would run as a formula (= + - @ tab CR), invalid
 * UTF-8 as U+FFFD. */
void rp_csv_esc(struct pb_buf *b, const char *s);
/* Write c as charts/NAME.csv into dir and append the link to it (a
 * <figcaption>) to html. PB_OK or PB_EIO (err filled). */
int rp_csv_put(struct rp_csv *c, struct rp_dir *dir, const char *name,
               struct pb_buf *html, struct pb_err *err) PB_WUR;
/* Attach c (taken: freed by the next rp_out_chart) to the next chart. */
void rp_out_chart_data(struct rp_out *o, struct rp_csv *c);

/* The CSVs of report.c's charts (chart_data.c): a test and metric's bars
 * (order: rp_order_cells), a sweep panel (bests and v as rc_grid_bests
 * and the grid's values), the overall ranking. */
struct rp_csv *rp_csv_bars(const struct rp_data *d, const struct rp_group *g,
                           const size_t *order);
struct rp_csv *rp_csv_sweep(const struct rp_data *d, const struct rp_sweep *sw,
                            const struct rp_panel *p, const char *xname,
                            const char *sname, const size_t *bests,
                            const double *v);
struct rp_csv *rp_csv_ranking(const struct rp_data *d,
                              const struct rp_ranking *r);
/* The rows of a table as CSV: its headers; a right-aligned cell with a
 * value (rt_setv) as that exact number, any other as its text. For
 * charts whose table below holds exactly the numbers drawn. */
struct rp_csv *rp_csv_table(const struct rt_table *t);

/* The whole report's data at the report's root (results_out.c):
 * results.csv and results.json, one row per stored result matching f
 * (the rows of `poolbench export` with the same filter), with the
 * configuration's dimensions and the test's parameters. */
int rp_write_results(struct pb_an *an, const struct pb_db_filter *f,
                     struct rp_dir *dir, struct pb_err *err) PB_WUR;
/* 1 when the report writes results.csv and results.json: at most
 * opts->raw_rows results (0: always). */
int rp_results_whole(const struct pb_render_opts *opts, size_t nresults);
/* The paragraph linking both, for the top of index.html; when they are
 * not written, what the report holds instead and the export command. */
void rp_results_link(struct pb_buf *h, const struct pb_render_opts *opts,
                     size_t nresults);

#endif
