/* The stored repeats of a database (table sample), read in cell order for
 * the verdicts of best, compare and the report. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

static int on_sample(void *ctx, const struct pb_db_sample *s)
{
    struct pb_an_samps *ss = ctx;
    PB_GROW(ss->v, ss->cap, ss->n + 1);
    ss->v[ss->n++] = (struct pb_an_samp){s->source_id, s->test_id,
                                         s->metric_id, s->config_id,
                                         s->result_id, s->value};
    return 0;
}

struct filtered {
    struct pb_an_samps *ss;
    int (*want)(void *ctx, const struct pb_db_sample *s);
    void *ctx;
};

static int on_wanted(void *ctx, const struct pb_db_sample *s)
{
    struct filtered *f = ctx;
    return f->want(f->ctx, s) ? on_sample(f->ss, s) : 0;
}

int pb_an_samps_load(struct pb_db *db,
                  int (*want)(void *ctx, const struct pb_db_sample *s),
                  void *ctx, struct pb_an_samps *out, struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    if (!want)
        return pb_db_each_sample(db, on_sample, out, err);
    struct filtered f = {out, want, ctx};
    return pb_db_each_sample(db, on_wanted, &f, err);
}

void pb_an_samps_release(struct pb_an_samps *ss)
{
    free(ss->v);
    memset(ss, 0, sizeof(*ss));
}

int pb_an_samp_cmp(const void *pa, const void *pb)
{
    const struct pb_an_samp *a = pa, *b = pb;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    if (a->test != b->test)
        return a->test < b->test ? -1 : 1;
    if (a->metric != b->metric)
        return a->metric < b->metric ? -1 : 1;
    return (a->config > b->config) - (a->config < b->config);
}
