/* analysis/load.h: the analysis step of `report` and `best` (load.c):
 * cli/ runs it over an open database and hands render/ what it drew up,
 * so render/ is never given the database. What it loads and computes is
 * in analysis/data.h and analysis/sweeps.h; the rows a report draws as
 * they stream by come through the handle it holds (struct pb_an,
 * analysis/analysis.h).
 *
 * Use (report):
 *   1. fill a struct pb_an_report_opts (zero it first);
 *   2. pb_an_report_load: the report's data, sweeps, ranking, history,
 *      hosts, outliers, the repeats of the best cells, latency
 *      distributions, and the handle over db;
 *   3. pb_render_report draws it (render/render.h);
 *   4. pb_an_report_free, then close the database.
 * Use (best): pb_an_best_load, pb_render_best, pb_an_best_free. */
#ifndef PB_AN_LOAD_H
#define PB_AN_LOAD_H

#include "analysis/sweeps.h"

#include <stddef.h>
#include <stdint.h>

struct pb_an_report_opts {
    const struct pb_db_filter *filter; /* required: --test, --config, ... */
    const char *const *ignore_params;  /* as rp_data_load_ignoring */
    const char *x_key;                 /* sweep x dimension; NULL = automatic */
    const char *series_key; /* sweep series dimension; NULL = automatic */
    /* Colours of the configurations (0xRRGGBB) by rank, cycled; NULL or
     * 0 = the built-in palette. */
    const uint32_t *palette;
    size_t npalette;
    int latency_linear; /* latency CDFs on a linear axis, not nines */
};

/* What a report shows, loaded and computed before anything is drawn. */
struct pb_an_report {
    struct pb_an *an; /* the rows sections stream (time series, the
                         bonnie++ table, results.csv) */
    const struct pb_db_filter *filter; /* as given to pb_an_report_load */
    struct rp_data d;
    struct rp_sweeps sws;
    struct rp_ranking rank;
    struct rp_history hist;
    struct rp_hosts hosts;
    struct pb_an_samps best_samps; /* the repeats of best and runner-up */
    struct rp_lat *lat;            /* latency distributions; NULL none */
};

/* Load db (borrowed until pb_an_report_free) as o says into *out (free
 * with pb_an_report_free). PB_OK; PB_EUSAGE for a bad filter pattern or
 * an --x/--series key that is no dimension of the data (*why, when not
 * NULL, gets the whole explanation, one line, which the caller frees;
 * else NULL); PB_EDB. On error *out is NULL. */
int pb_an_report_load(struct pb_db *db, const struct pb_an_report_opts *o,
                      struct pb_an_report **out, char **why,
                      struct pb_err *err) PB_WUR;
void pb_an_report_free(struct pb_an_report *r);

/* What `best` shows: the report's data and the repeats of its best and
 * runner-up cells. */
struct pb_an_best {
    struct rp_data d;
    struct pb_an_samps samps;
};

/* Load the results of db that f keeps, tests compared with
 * ignore_params left out, into *out (free with pb_an_best_free). PB_OK,
 * PB_EUSAGE (bad pattern) or PB_EDB; on error *out is NULL. */
int pb_an_best_load(struct pb_db *db, const struct pb_db_filter *f,
                    const char *const *ignore_params, struct pb_an_best **out,
                    struct pb_err *err) PB_WUR;
void pb_an_best_free(struct pb_an_best *b);

#endif
