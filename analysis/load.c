/* The analysis step of `report` and `best`: load the data and compute
 * what render/ draws (sweeps, ranking, history, hosts, outliers, the
 * repeats of the best cells, latency distributions), before anything is
 * drawn. analysis/load.h. */
#include "analysis/load.h"

#include <stdlib.h>
#include <string.h>

void pb_an_report_free(struct pb_an_report *r)
{
    if (!r)
        return;
    rp_lat_free(r->lat);
    rp_ranking_release(&r->rank);
    rp_sweeps_release(&r->sws);
    rp_history_release(&r->hist);
    rp_hosts_release(&r->hosts);
    pb_an_samps_release(&r->best_samps);
    rp_data_release(&r->d);
    pb_an_close(r->an);
    free(r);
}

int pb_an_report_load(struct pb_db *db, const struct pb_an_report_opts *o,
                      struct pb_an_report **out, char **why, struct pb_err *err)
{
    *out = NULL;
    if (why)
        *why = NULL;
    struct pb_an_report *r = pb_xcalloc(1, sizeof(*r));
    struct rp_data *d = &r->d;
    r->filter = o->filter;
    int rc = rp_data_load_streamed(db, o->filter, o->ignore_params, d, err);
    if (rc) {
        rp_data_release(d);
        free(r);
        return rc;
    }
    if (o->palette && o->npalette)
        for (size_t i = 0; i < d->nconfigs; i++)
            if (d->configs[i].used)
                d->configs[i].color =
                    o->palette[d->configs[i].rank % o->npalette];
    rc = rp_find_sweeps(d, o->x_key, o->series_key, &r->sws, err);
    if (rc) {
        if (why && r->sws.why)
            *why = pb_xstrdup(r->sws.why);
        rp_sweeps_release(&r->sws);
        rp_data_release(d);
        free(r);
        return rc;
    }
    rp_rank_configs(d, &r->rank);
    if ((rc = rp_history_load(db, o->filter, d, &r->hist, err)) ||
        (rc = rp_hosts_load(db, o->filter, d, &r->hosts, err)) ||
        (rc = rp_outliers_load(db, d, err)) ||
        (rc = rp_best_samples_load(db, d, &r->best_samps, err))) {
        pb_an_report_free(r);
        return rc;
    }
    d->history = &r->hist;
    d->hosts = &r->hosts;
    r->lat = rp_lat_load(db, d, o->filter, !o->latency_linear, &rc, err);
    if (rc) {
        pb_an_report_free(r);
        return rc;
    }
    r->an = pb_an_open(db);
    *out = r;
    return PB_OK;
}

void pb_an_best_free(struct pb_an_best *b)
{
    if (!b)
        return;
    pb_an_samps_release(&b->samps);
    rp_data_release(&b->d);
    free(b);
}

int pb_an_best_load(struct pb_db *db, const struct pb_db_filter *f,
                    const char *const *ignore_params, struct pb_an_best **out,
                    struct pb_err *err)
{
    *out = NULL;
    struct pb_an_best *b = pb_xcalloc(1, sizeof(*b));
    int rc = rp_data_load_ignoring(db, f, ignore_params, &b->d, err);
    if (!rc)
        rc = rp_best_samples_load(db, &b->d, &b->samps, err);
    if (rc) {
        pb_an_best_free(b);
        return rc;
    }
    *out = b;
    return PB_OK;
}
