/* compare's texts, shared by the terminal (cli/compare_out.c) and the
 * page (compare_html.c): a side's mean ± SE, a verdict, a change, its
 * interval, a kind's summary, the note on pairs not judged. The pairing
 * and statistics behind them: analysis/compare.c. */
#include "render/rp_base.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *pb_compare_value_text(const struct pb_compare *c,
                                  const struct pb_compare_pair *p, int cand,
                                  char *buf, size_t n)
{
    (void)c;
    return rp_fmt_pm(p->u, cand ? p->cand_mean : p->base_mean,
                     cand ? p->cand_se : p->base_se, buf, n);
}

/* ==== texts the terminal and the page share ==== */

const char *pb_compare_verdict_word(enum pb_compare_verdict v)
{
    switch (v) {
    case PB_CMP_BETTER:
        return "better";
    case PB_CMP_WORSE:
        return "worse";
    case PB_CMP_UNJUDGED:
        return "not judged";
    case PB_CMP_SAME:
        break;
    }
    return "~";
}

const char *pb_compare_pct(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "–");
    else if (v != 0 && fabs(v) < 0.05)
        snprintf(buf, n, "%+.2g%%", v); /* never "+0.0%" for a change */
    else
        snprintf(buf, n, "%+.1f%%", v);
    return buf;
}

const char *pb_compare_ci_text(const struct pb_compare_pair *p, char *buf,
                               size_t n)
{
    char lo[32], hi[32], est[32];
    if (p->ci_unbounded) {
        snprintf(buf, n, "unbounded");
        return buf;
    }
    if (isnan(p->ci_lo_pct)) {
        snprintf(buf, n, "–");
        return buf;
    }
    pb_compare_pct(p->ci_lo_pct, lo, sizeof(lo));
    if (isinf(p->ci_hi_pct))
        snprintf(buf, n, "[%s, unbounded)", lo);
    else
        snprintf(buf, n, "[%s, %s]", lo,
                 pb_compare_pct(p->ci_hi_pct, hi, sizeof(hi)));
    if (!strcmp(p->method, "mann-whitney")) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, " (median %s)",
                 pb_compare_pct(p->estimate_pct, est, sizeof(est)));
    }
    return buf;
}

const char *pb_compare_kind_text(const struct pb_compare *c,
                                 enum pb_metric_kind kind, char *buf, size_t n)
{
    const struct pb_compare_kind *k = &c->kinds[kind];
    const char *name = pb_metric_kind_name(kind);
    size_t l;
    if (k->significant && !isnan(k->geomean_better)) {
        /* as the metrics move when they share a direction ("latency:
         * +25.0%, worse"), else oriented ("other: 3.0% better") */
        double g = (k->geomean_better - 1) * 100;
        double r = (k->geomean_ratio - 1) * 100;
        const char *word = g < 0 ? "worse" : "better";
        char v[32];
        if (k->mixed)
            snprintf(buf, n, "%s: %s %s on the whole", name,
                     pb_compare_pct(fabs(g), v, sizeof(v)) + 1, word);
        else
            snprintf(buf, n, "%s: %s, %s", name,
                     pb_compare_pct(r, v, sizeof(v)), word);
        l = strlen(buf);
        snprintf(buf + l, n - l,
                 " (geometric mean of the %zu significant change%s among "
                 "%zu pair%s)",
                 k->significant, k->significant == 1 ? "" : "s", k->n,
                 k->n == 1 ? "" : "s");
    } else if (k->n && k->n == k->not_judged) {
        snprintf(buf, n, "%s: not judged (%zu pair%s)", name, k->n,
                 k->n == 1 ? "" : "s");
        return buf;
    } else {
        snprintf(buf, n, "%s: no significant change (%zu pair%s)", name, k->n,
                 k->n == 1 ? "" : "s");
    }
    if (k->not_judged && (l = strlen(buf)) > 0 && buf[l - 1] == ')')
        snprintf(buf + l - 1, n - l + 1, ", %zu not judged)", k->not_judged);
    return buf;
}

const char *pb_compare_unjudged_text(const struct pb_compare *c, char *buf,
                                     size_t n)
{
    size_t single = 0;
    for (size_t i = 0; i < c->npairs; i++)
        single += c->pairs[i].verdict == PB_CMP_UNJUDGED &&
                  !strcmp(c->pairs[i].why, "single run");
    const char *why = single == c->not_judged
                          ? "a single run on a side"
                          : "a single run or no standard error on a side";
    if (c->gate_unjudged)
        snprintf(buf, n,
                 "%zu pair%s not judged (%s): gated on %s raw change "
                 "(--gate-unjudged)",
                 c->not_judged, c->not_judged == 1 ? "" : "s", why,
                 c->not_judged == 1 ? "its" : "their");
    else
        snprintf(buf, n,
                 "%zu pair%s not judged (%s): %s raw change is not tested "
                 "and does not fail the gate; --gate-unjudged gates %s",
                 c->not_judged, c->not_judged == 1 ? "" : "s", why,
                 c->not_judged == 1 ? "its" : "their",
                 c->not_judged == 1 ? "it" : "them");
    return buf;
}
