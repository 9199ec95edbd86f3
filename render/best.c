/* The best configuration per test for the terminal (poolbench best): what
 * the analysis step loaded and judged (pb_an_best_load, rp_best_of:
 * analysis/), as plain rows with their texts. */
#include "render/rp_base.h"
#include "render/rp_data.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== poolbench best ==== */

/* ctx of one_best: the caller's callback */
struct best_cb {
    const struct rp_data *d;
    pb_render_best_cb cb;
    void *ctx;
};

static int one_best(void *ctx, const struct rp_group *g,
                    const struct rp_best *b)
{
    const struct best_cb *x = ctx;
    const struct rp_data *d = x->d;
    const struct rp_metric *m = &d->metrics[g->metric];
    const struct rp_cell *bc = &d->cells[b->best];
    const struct rp_cell *rc2 =
        b->runner != SIZE_MAX ? &d->cells[b->runner] : NULL;
    struct pb_render_best r;
    memset(&r, 0, sizeof(r));
    r.test = d->tests[g->test].name;
    r.tool = d->tests[g->test].tool;
    r.metric = m->name;
    rp_metric_title(m->name, r.metric_title, sizeof(r.metric_title));
    r.unit = m->unit;
    r.higher = m->dir > 0;
    r.best = d->configs[bc->config].label;
    r.value = bc->mean;
    r.se = bc->se;
    r.n = bc->n;
    rp_fmt_pm(&m->u, bc->mean, bc->se, r.value_text, sizeof(r.value_text));
    if (rc2) {
        r.runner = d->configs[rc2->config].label;
        r.runner_value = rc2->mean;
        r.runner_se = rc2->se;
        r.runner_n = rc2->n;
        rp_fmt_pm(&m->u, rc2->mean, rc2->se, r.runner_text,
                  sizeof(r.runner_text));
        r.margin = b->margin;
        rp_pct1("+", b->margin * 100, r.margin_text, sizeof(r.margin_text));
    }
    unsigned char style;
    r.verdict = rp_verdict_word(b->verdict);
    rp_best_verdict_text(b, r.verdict_text, sizeof(r.verdict_text), &style);
    r.p = b->p;
    r.method = b->method;
    r.why = b->why;
    return x->cb(x->ctx, &r);
}

int pb_render_best(const struct pb_an_best *bl, pb_render_best_cb cb, void *ctx,
                   size_t *nsingle)
{
    struct best_cb x = {&bl->d, cb, ctx};
    return rp_best_each(&bl->d, &bl->samps, one_best, &x, nsingle);
}
