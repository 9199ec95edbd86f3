/* Hosts as a dimension of the report (issue 15 item 2): a configuration's
 * results of one test and metric that come from two or more hosts (fio
 * client/server runs: host = server, plus fio's "(all clients)"). Per
 * host the mean of its results, the aggregate of the hosts that ran
 * together, the spread between hosts and the outlier hosts, which also go
 * to the Warnings list. docs/report.md, "Hosts".
 *
 * The hosts are loaded and computed by analysis/hosts.c; this file says
 * whether there are any and writes their warnings (chart_hosts.c draws
 * the section). */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_out.h"
#include "render/rp_sections.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rp_has_hosts(const struct rp_data *d)
{
    return d->hosts && d->hosts->nc > 0;
}

/* ==== warnings ==== */

void rp_hosts_warnings(struct rp_out *o, const struct rp_data *d)
{
    const struct rp_hosts *hs = d->hosts;
    if (!hs || !hs->noutliers)
        return;
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < hs->nc; i++) {
        const struct rp_hcell *c = &hs->c[i];
        const struct rp_metric *m = &d->metrics[c->metric];
        for (size_t k = 0; c->noutliers && k < c->n; k++) {
            const struct rp_hhost *hh = &hs->h[c->first + k];
            if (!hh->outlier)
                continue;
            char mt[96], v[64], med[64];
            pb_buf_reset(&b);
            pb_buf_printf(
                &b,
                "\xE2\x9A\xA0 host outlier: %s of %s, %s: host %s has %s, "
                "%.1f%% %s the median of its %zu hosts (%s)",
                rp_metric_title(m->name, mt, sizeof(mt)),
                d->tests[c->test].name, d->configs[c->config].label, hh->name,
                rp_fmt(&m->u, hh->mean, v, sizeof(v)), fabs(hh->dev) * 100,
                hh->dev < 0 ? "below" : "above", c->n,
                rp_fmt(&m->u, c->sp.median, med, sizeof(med)));
            rp_out_para(o, "warn", pb_buf_str(&b));
        }
    }
    pb_buf_release(&b);
}
