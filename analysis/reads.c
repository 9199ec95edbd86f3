/* Every read of the database behind a report: the report's tables and
 * result rows, samples and histograms (read by analysis/ itself), and,
 * through the handle struct pb_an that render/ is given instead of the
 * database, the rows of results.csv, the bonnie++ table, the time-series
 * points and the repeats of one result. Each hands rows to the caller's
 * callback as the model reads them (nothing is held here), so a streamed
 * report stays streamed. */
#include "analysis/analysis.h"

#include <stdlib.h>

struct pb_an {
    struct pb_db *db; /* borrowed */
};

struct pb_an *pb_an_open(struct pb_db *db)
{
    struct pb_an *an = pb_xcalloc(1, sizeof(*an));
    an->db = db;
    return an;
}

void pb_an_close(struct pb_an *an)
{
    free(an);
}

const char *pb_an_db_path(const struct pb_an *an)
{
    return pb_db_path(an->db);
}

int pb_an_report_tables(struct pb_db *db, const struct pb_an_tables *t,
                        struct pb_err *err)
{
    int rc = PB_OK;
    if (t->source)
        rc = pb_db_each_source(db, t->source, t->ctx, err);
    if (!rc && t->config)
        rc = pb_db_report_configs(db, t->config, t->ctx, err);
    if (!rc && t->test)
        rc = pb_db_report_tests(db, t->test, t->ctx, err);
    if (!rc && t->config_param)
        rc = pb_db_report_params(db, 0, t->config_param, t->ctx, err);
    if (!rc && t->test_param)
        rc = pb_db_report_params(db, 1, t->test_param, t->ctx, err);
    if (!rc && t->fact)
        rc = pb_db_report_facts(db, t->fact, t->ctx, err);
    return rc;
}

int pb_an_report_params(struct pb_an *an, int tests, pb_db_triple_cb cb,
                        void *ctx, struct pb_err *err)
{
    return pb_db_report_params(an->db, tests, cb, ctx, err);
}

int pb_an_report_rows(struct pb_db *db, const struct pb_db_filter *f,
                      pb_db_rrow_cb cb, void *ctx, struct pb_err *err)
{
    return pb_db_each_report_row(db, f, cb, ctx, err);
}

int pb_an_ranked_rows(struct pb_an *an, const struct pb_db_filter *f,
                      const struct pb_db_order *ord, pb_db_ranked_cb cb,
                      void *ctx, struct pb_err *err)
{
    return pb_db_each_ranked_row(an->db, f, ord, cb, ctx, err);
}

int pb_an_result_rows(struct pb_an *an, const struct pb_db_filter *f,
                      pb_db_row_cb cb, void *ctx, struct pb_err *err)
{
    return pb_db_each_result(an->db, f, cb, ctx, err);
}

int pb_an_each_sample(struct pb_db *db, pb_db_sample_cb cb, void *ctx,
                      struct pb_err *err)
{
    return pb_db_each_sample(db, cb, ctx, err);
}

int pb_an_each_hist(struct pb_db *db, const struct pb_db_filter *f,
                    pb_db_hist_cb cb, void *ctx, struct pb_err *err)
{
    return pb_db_each_hist(db, f, cb, ctx, err);
}

int pb_an_each_point(struct pb_an *an, const struct pb_db_filter *f,
                     pb_db_point_cb cb, void *ctx, struct pb_err *err)
{
    return pb_db_each_point(an->db, f, cb, ctx, err);
}

static int stop_at_first(void *ctx, const struct pb_db_point *p)
{
    (void)p;
    *(int *)ctx = 1;
    return 1;
}

int pb_an_has_points(struct pb_an *an, const struct pb_db_filter *f)
{
    int any = 0;
    struct pb_err err = {0};
    if (pb_db_each_point(an->db, f, stop_at_first, &any, &err) != PB_OK && !any)
        return 0;
    return any;
}

struct pb_an_repeats {
    struct pb_db_samples *s;
};

int pb_an_repeats_open(struct pb_an *an, struct pb_an_repeats **out,
                       struct pb_err *err)
{
    struct pb_an_repeats *r = pb_xcalloc(1, sizeof(*r));
    int rc = pb_db_samples_open(an->db, &r->s, err);
    *out = r;
    return rc;
}

int pb_an_repeats_of(struct pb_an_repeats *r, long long result_id, double **v,
                     size_t *n, size_t *cap, struct pb_err *err)
{
    return pb_db_samples_of(r->s, result_id, v, n, cap, err);
}

void pb_an_repeats_close(struct pb_an_repeats *r)
{
    if (!r)
        return;
    pb_db_samples_close(r->s);
    free(r);
}
