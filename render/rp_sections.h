/* Private to render/: the sections other than the overview and tests
 * (report_int.h) and what they load: over time, IOPS against latency,
 * latency distributions, the special tables, warnings, spread, history,
 * hosts, the experiment. */
#ifndef PB_RP_SECTIONS_H
#define PB_RP_SECTIONS_H

#include "render/rp_out.h"

/* 1 when some series matches f (the contents list links the section). */
int rp_has_timeseries(struct pb_an *an, const struct pb_db_filter *f);
/* timeseries.c: the "Over time" section, fio logs' series matching f, a
 * line per configuration (per job with per_job). PB_OK, PB_EUSAGE or
 * PB_EDB. */
int rp_section_timeseries(struct rp_out *o, const struct rp_data *d,
                          struct pb_an *an, const struct pb_db_filter *f,
                          int per_job, struct pb_err *err) PB_WUR;
/* Rows of the bonnie++ table a page (index.html holds the first). */
#define RP_BON_PAGE 1000

/* iolat.c: IOPS against latency where fio tests vary iodepth/numjobs. */
int rp_has_iops_latency(const struct rp_data *d);
void rp_section_iops_latency(struct rp_out *o, const struct rp_data *d);

/* latency.c: the latency distributions of fio json+ bins, per test
 * (loaded by analysis/latency.c). */
/* The CDF, percentile ladder and histogram of test (an index into d) for
 * each direction with completion latency bins, with their tables. */
void rp_lat_section(struct rp_out *o, const struct rp_data *d,
                    struct rp_lat *l, size_t test);
/* A section "Latency distributions" with those of the tests that had no
 * section of their own (one configuration, or drawn only in sweeps). */
void rp_lat_section_rest(struct rp_out *o, const struct rp_data *d,
                         struct rp_lat *l);

/* ==== special tables (tables.c, bonnie_table.c) ==== */

int rp_has_compression(const struct rp_data *d);
void rp_section_compression(struct rp_out *o, const struct rp_data *d);
int rp_has_bonnie(const struct rp_data *d);
/* The bonnie++ table from its own ordered read through an with f (never
 * d's cells): memory holds one page of RP_BON_PAGE rows. PB_OK,
 * PB_EUSAGE or PB_EDB (err filled). */
int rp_section_bonnie(struct rp_out *o, const struct rp_data *d,
                      struct pb_an *an, const struct pb_db_filter *f,
                      struct pb_err *err) PB_WUR;
/* Host facts of the sources shown; 0 rows = no section. */
int rp_has_systems(const struct rp_data *d);
void rp_section_systems(struct rp_out *o, const struct rp_data *d);
void rp_section_sources(struct rp_out *o, const struct rp_data *d);
/* ==== flagged sources (flags.c) ==== */

/* Append the markers of the flag.* facts of a source to out ("⚠
 * interrupted run: TEXT; ⚠ no version found"); returns how many. */
int rp_source_flags(const struct rp_data *d, long long source_id,
                    struct pb_buf *out);
/* Does any source shown carry a flag? */
int rp_has_flags(const struct rp_data *d);
/* The Warnings list (nothing when no source is flagged). */
void rp_section_warnings(struct rp_out *o, const struct rp_data *d);

/* ==== spread of repeats (spread.c) ==== */

/* "± 1.2 MiB/s · 95% CI ± 3.3 MiB/s" of cell c (Student t with n - 1
 * df); just the ± SE when n < 2 or the SE is 0 or unknown. Returns buf. */
const char *rp_fmt_se_ci(const struct rp_unit *u, const struct rp_cell *c,
                         char *buf, size_t n);
/* The 95% CI of c ("95% CI ± 8.1 MB/s: 401.0 to 417.1 MB/s", arena
 * text), or NULL when c has fewer than 2 repeats or no SE. */
const char *rp_ci_text(struct rt_table *t, const struct rp_unit *u,
                       const struct rp_cell *c);
/* ... as the tooltip of a cell (appended to a tooltip it has), where
 * rp_fmt_se_ci would add it to the text. */
void rp_ci_title(struct rt_table *t, struct rt_cell *cell,
                 const struct rp_unit *u, const struct rp_cell *c);
/* Append "⚠ N outliers" (amber, with a tooltip) to a table cell of c. */
void rp_outlier_mark(struct rt_table *t, struct rt_cell *cell,
                     const struct rp_cell *c);

/* ==== history across runs (history.c; loaded by analysis/history.c) ==== */

/* d->history has a series. */
int rp_has_history(const struct rp_data *d);
/* The History section (nothing without one). */
void rp_section_history(struct rp_out *o, const struct rp_data *d);
/* The Warnings line of step p of series s. */
void rp_history_step_text(const struct rp_data *d, const struct rp_history *h,
                          const struct rp_hseries *s,
                          const struct rp_hpoint *p, struct pb_buf *b);

/* ==== hosts (hosts.c, chart_hosts.c; loaded by analysis/hosts.c) ==== */

/* d->hosts has a cell. */
int rp_has_hosts(const struct rp_data *d);
/* The Warnings line of each outlier host (flags.c calls it). */
void rp_hosts_warnings(struct rp_out *o, const struct rp_data *d);
/* The Hosts section (chart_hosts.c; nothing without one). */
void rp_section_hosts(struct rp_out *o, const struct rp_data *d);

/* ==== the experiment of run results (experiment.c) ==== */

/* Facts a run stores per cell (run.*, flag.*, zpool_iostat*, arc.*, ...):
 * shown in the Experiment section, not in Systems. */
int rp_cell_fact(const char *key);
int rp_has_experiment(const struct rp_data *d);
/* One table per run folder: cells, fio options, ZFS properties, flags and
 * links (relative to outdir) to the plan, commands.log and raw files. */
void rp_section_experiment(struct rp_out *o, const struct rp_data *d,
                           const char *outdir);

#endif
