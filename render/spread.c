/* The spread of a cell's repeats in the report tables (issue 12 item 5):
 * the 95% confidence interval of the mean beside its ±SE where n >= 2,
 * and outlier repeats among the stored samples (table sample) flagged by
 * the median absolute deviation: a repeat x of a result is an outlier
 * when 0.6745 |x - median| / MAD > 3.5 (Iglewicz and Hoaglin's modified
 * z-score; fewer than 5 repeats or MAD 0 flag nothing). docs/statistics.md,
 * "Spread of repeats in the tables".
 *
 * The outliers and repeats of the cells are counted by analysis/spread.c. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_table.h"
#include "render/rp_sections.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rp_fmt_se_ci(const struct rp_unit *u, const struct rp_cell *c,
                         char *buf, size_t n)
{
    rp_fmt_se(u, c->mean, c->se, buf, n);
    if (c->n < 2 || !(c->se > 0) || !isfinite(c->se))
        return buf;
    double t = pb_stats_t_quantile(0.975, (double)(c->n - 1));
    if (!isfinite(t))
        return buf;
    char ci[64];
    rp_fmt_se(u, c->mean, t * c->se, ci, sizeof(ci));
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, " · 95%% CI %s", ci);
    return buf;
}

const char *rp_ci_text(struct rt_table *t, const struct rp_unit *u,
                       const struct rp_cell *c)
{
    if (c->n < 2 || !(c->se > 0) || !isfinite(c->se))
        return NULL;
    double q = pb_stats_t_quantile(0.975, (double)(c->n - 1));
    if (!isfinite(q))
        return NULL;
    char pm[64], lo[64], hi[64];
    rp_fmt_se(u, c->mean, q * c->se, pm, sizeof(pm));
    rp_fmt(u, c->mean - q * c->se, lo, sizeof(lo));
    rp_fmt(u, c->mean + q * c->se, hi, sizeof(hi));
    return rt_str(t, "95%% CI %s: %s to %s", pm, lo, hi);
}

void rp_ci_title(struct rt_table *t, struct rt_cell *cell,
                 const struct rp_unit *u, const struct rp_cell *c)
{
    const char *ci = rp_ci_text(t, u, c);
    if (ci)
        cell->title = cell->title ? rt_str(t, "%s · %s", cell->title, ci)
                                  : ci;
}

void rp_outlier_mark(struct rt_table *t, struct rt_cell *cell,
                     const struct rp_cell *c)
{
    if (!c->outliers)
        return;
    rt_setv(t, cell,
            rt_str(t, "%s \xE2\x9A\xA0 %ld outlier%s", cell->text, (long)c->outliers,
                   c->outliers == 1 ? "" : "s"),
            cell->sortv);
    cell->style |= RT_AMBER;
    cell->title =
        rt_str(t,
               "%ld of the %ld stored repeats %s more than 3.5 "
               "robust deviations from their median (modified "
               "z-score: 0.6745 x abs(x - median) / MAD above 3.5)",
               (long)c->outliers, (long)c->nrepeats, c->outliers == 1 ? "is" : "are");
}
