/* The report's Sweeps section: for each sweep (analysis/sweeps.c chose its
 * dimensions and panels), grouped bars and a heatmap of the same data and
 * the table under them. A panel with more values down its rows than fit
 * (RP_MANY_LIMIT) gets a reduced heatmap, as a test's bar chart does
 * (chart_many.c): the best rows, the baseline's and the worst, the gaps
 * between them marked; the table and the CSV keep every cell. */
#include "render/report_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== sweeps ==== */

static const char *dim_name(const struct rp_dim *dm)
{
    return dm->kind == RP_DIM_LABEL ? "configuration" : dm->key;
}

/* Do the cells of p hold one test, *t0 (SIZE_MAX: none yet) included?
 * *t0 gets the first test seen. */
static int one_test(const struct rp_data *d, const struct rp_panel *p,
                    size_t *t0)
{
    int one = 1;
    for (size_t i = 0; i < p->nx * p->ns; i++) {
        if (p->grid[i] == SIZE_MAX)
            continue;
        size_t t = d->cells[p->grid[i]].test;
        if (*t0 == SIZE_MAX)
            *t0 = t;
        else if (t != *t0)
            one = 0;
    }
    return one;
}

/* The workload of a panel as a user names it: the test's name when the
 * panel holds one test ("fio randread bs=4k iodepth=4"), else the tool and
 * the workload parameters its tests share ("fio rw=randread bs=4k"); ""
 * when they share none. */
static void panel_workload(const struct rp_data *d, const struct rp_panel *p,
                           char *buf, size_t n)
{
    static const char *const keys[] = {"rw", "bs", "iodepth", "numjobs"};
    size_t t0 = SIZE_MAX;
    int one = one_test(d, p, &t0);
    buf[0] = '\0';
    if (t0 == SIZE_MAX)
        return;
    const struct rp_test *ts = &d->tests[t0];
    if (one) {
        snprintf(buf, n, "%s", ts->name);
        return;
    }
    size_t len = (size_t)snprintf(buf, n, "%s", ts->tool ? ts->tool : "");
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && len < n; k++) {
        const char *v = rp_param(ts->params, ts->nparams, keys[k]);
        if (!v)
            continue;
        for (size_t i = 0; v && i < p->nx * p->ns; i++) {
            if (p->grid[i] == SIZE_MAX)
                continue;
            const struct rp_test *o = &d->tests[d->cells[p->grid[i]].test];
            const char *w = rp_param(o->params, o->nparams, keys[k]);
            if (!w || strcmp(v, w))
                v = NULL;
        }
        if (!v)
            continue;
        char tmp[64];
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "",
                                keys[k],
                                rp_param_text(keys[k], v, tmp, sizeof(tmp)));
    }
    if (!strchr(buf, '='))
        buf[0] = '\0';
}

/* Rows ranked by score, best first (NAN last, then by row). ctx: the
 * scores (const double *), indexed by row. */
static int by_score(const void *a, const void *b, void *ctx)
{
    const double *rank_score = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double p = rank_score[x], q = rank_score[y];
    if (isnan(p) != isnan(q))
        return isnan(p) ? 1 : -1;
    if (!isnan(p) && p != q)
        return p > q ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The heatmap h (rows: the long dimension, more than RP_MANY_LIMIT of
 * them) reduced as a test's bar chart is: rows ranked by their mean share
 * of the best (what the colours show: against the best of the column, or
 * of all cells when each row is compared within itself), the best
 * RP_MANY_BEST, the baseline's row (the configuration stored first) and
 * the worst RP_MANY_WORST drawn, a gap row where ranks are left out. The
 * colours and outlines still compare with the best of all rows. */
static void reduce_rows(struct rp_out *o, const struct rp_data *d,
                        const struct rp_panel *p, const struct rc_gridspec *h,
                        const size_t *gk, const struct rp_dim *rowdim,
                        const char *stem)
{
    size_t nc = h->nx, nr = h->ns, n = nc * nr;
    size_t *bests = pb_xcalloc(n + 1, sizeof(size_t));
    double *bv = pb_xcalloc(n + 1, sizeof(double));
    rc_grid_bests(h, bests);
    double all = NAN; /* the best of all cells */
    for (size_t k = 0; k < n; k++) {
        bv[k] = bests[k] != SIZE_MAX ? h->v[bests[k]] : NAN;
        if (!isnan(h->v[k]) &&
            (isnan(all) || (h->dir < 0 ? h->v[k] < all : h->v[k] > all)))
            all = h->v[k];
    }
    double *score = pb_xcalloc(nr + 1, sizeof(double));
    size_t *order = pb_xcalloc(nr + 1, sizeof(size_t));
    size_t nv = 0, base_row = SIZE_MAX;
    long long base_id = 0;
    for (size_t r = 0; r < nr; r++) {
        double sum = 0;
        size_t m = 0;
        for (size_t c = 0; c < nc; c++) {
            size_t k = r * nc + c;
            if (isnan(h->v[k]))
                continue;
            sum += rc_share(h->v[k], h->norm == RC_NORM_ROW ? all : bv[k],
                            h->dir);
            m++;
            size_t ci = p->grid[gk[k]];
            long long id = d->configs[d->cells[ci].config].id;
            if (base_row == SIZE_MAX || id < base_id) {
                base_row = r;
                base_id = id;
            }
        }
        score[r] = m ? sum / (double)m : NAN;
        nv += m > 0;
        order[r] = r;
    }
    rp_sort(order, nr, sizeof(*order), by_score, score);
    size_t base = SIZE_MAX;
    for (size_t i = 0; i < nv; i++)
        if (order[i] == base_row)
            base = i;
    struct rp_pick pick[RP_MANY_PICKS];
    struct rp_pick_sum sum;
    size_t np = rp_many_pick(nv, base, pick, &sum);

    /* the reduced grid */
    struct pb_arena a;
    pb_arena_init(&a);
    const char *noun =
        rowdim->kind == RP_DIM_LABEL
            ? "configurations"
            : pb_arena_printf(&a, "values of %s", dim_name(rowdim));
    double *rv = pb_xcalloc(np * nc + 1, sizeof(double));
    double *rse = pb_xcalloc(np * nc + 1, sizeof(double));
    const char **rmk = pb_xcalloc(np * nc + 1, sizeof(*rmk));
    double *rbv = pb_xcalloc(np * nc + 1, sizeof(double));
    const char **rvals = pb_xcalloc(np + 1, sizeof(*rvals));
    const char **gaps = pb_xcalloc(np + 1, sizeof(*gaps));
    for (size_t q = 0; q < np; q++) {
        const struct rp_pick *pk = &pick[q];
        if (pk->i == SIZE_MAX) {
            char nb[32];
            rvals[q] = "";
            gaps[q] = pb_arena_printf(
                &a, "… %s %s not drawn (ranks %zu–%zu): in the table below",
                rp_int((long long)(pk->to - pk->from + 1), nb, sizeof(nb)),
                noun, pk->from, pk->to);
            for (size_t c = 0; c < nc; c++) {
                rv[q * nc + c] = rbv[q * nc + c] = NAN;
                rse[q * nc + c] = -1;
            }
            continue;
        }
        size_t r = order[pk->i];
        rvals[q] = rp_many_label(&a, h->svals[r], pk, nv);
        for (size_t c = 0; c < nc; c++) {
            rv[q * nc + c] = h->v[r * nc + c];
            rse[q * nc + c] = h->se[r * nc + c];
            rmk[q * nc + c] = h->marks ? h->marks[r * nc + c] : NULL;
            rbv[q * nc + c] = bv[r * nc + c];
        }
    }
    char nd[32], nt[32];
    rp_int((long long)sum.drawn, nd, sizeof(nd));
    rp_int((long long)nr, nt, sizeof(nt));
    struct rc_gridspec r = *h;
    r.subtitle = pb_arena_printf(
        &a, "%s · %s of %s %s shown: the best %zu, %sthe worst %zu by their "
            "mean share of the best; all in the table below",
        h->subtitle, nd, nt, noun, sum.nbest,
        sum.base_apart ? "the baseline, " : "", sum.nworst);
    r.ns = np;
    r.svals = rvals;
    r.v = rv;
    r.se = rse;
    r.marks = h->marks ? rmk : NULL;
    r.bestv = rbv;
    r.sgaps = gaps;
    rp_out_chart(o, rc_heatmap(o->f, &r), stem);
    rp_out_para(o, "note",
                pb_arena_printf(&a,
                                "%s of %s %s shown; all in the table below "
                                "and in the CSV",
                                nd, nt, noun));
    pb_arena_release(&a);
    free(rv);
    free(rse);
    free(rmk);
    free(rbv);
    free(rvals);
    free(gaps);
    free(score);
    free(order);
    free(bests);
    free(bv);
}

/* The heatmap of a panel and its CSV (g: x values by series values, the
 * longer dimension goes down the rows: pages scroll down). Past
 * RP_MANY_LIMIT rows it is reduced (reduce_rows); past RP_MANY_LIMIT
 * columns as well it is not drawn: the table under it has every cell. */
static void sweep_heatmap(struct rp_out *o, const struct rp_data *d,
                          const struct rp_sweep *sw, const struct rp_panel *p,
                          const struct rc_gridspec *g, const size_t *bests,
                          const char *stem)
{
    size_t nx = g->nx, ns = g->ns, n = nx * ns;
    if (nx > RP_MANY_LIMIT && ns > RP_MANY_LIMIT) {
        char a[32], b[32], buf[200];
        snprintf(buf, sizeof(buf),
                 "%s × %s values are too many for a heatmap: every cell is "
                 "in the table below.",
                 rp_int((long long)nx, a, sizeof(a)),
                 rp_int((long long)ns, b, sizeof(b)));
        rp_out_para(o, "note", buf);
        return;
    }
    rp_out_chart_data(o,
                      rp_csv_sweep(d, sw, p, g->xname, g->sname, bests, g->v));
    struct rc_gridspec h = *g;
    /* gk[k]: the index in g of h's cell k */
    size_t *gk = pb_xcalloc(n + 1, sizeof(size_t));
    double *tv = pb_xcalloc(n + 1, sizeof(double));
    double *ts = pb_xcalloc(n + 1, sizeof(double));
    const char **tm = pb_xcalloc(n + 1, sizeof(*tm));
    int turn = nx > ns;
    for (size_t si = 0; si < ns; si++)
        for (size_t xi = 0; xi < nx; xi++) {
            size_t k = turn ? xi * ns + si : si * nx + xi;
            gk[k] = si * nx + xi;
            tv[k] = g->v[si * nx + xi];
            tm[k] = g->marks ? g->marks[si * nx + xi] : NULL;
            ts[k] = g->se[si * nx + xi];
        }
    if (turn) {
        h.nx = ns;
        h.ns = nx;
        h.xvals = g->svals;
        h.svals = g->xvals;
        h.xname = g->sname;
        h.sname = g->xname;
        h.norm = g->norm == RC_NORM_ROW   ? RC_NORM_COL
                 : g->norm == RC_NORM_COL ? RC_NORM_ROW
                                          : RC_NORM_ALL;
    }
    h.v = tv;
    h.se = ts;
    h.marks = g->marks ? tm : NULL;
    const struct rp_dim *rowdim = turn ? &sw->x : &sw->s;
    if (h.ns > RP_MANY_LIMIT)
        reduce_rows(o, d, p, &h, gk, rowdim, stem);
    else
        rp_out_chart(o, rc_heatmap(o->f, &h), stem);
    free(gk);
    free(tv);
    free(ts);
    free(tm);
}

/* The subtitle's additions: pooled cells and configurations left out
 * ("" when neither: the chart is as it always was). */
static void panel_notes(const struct rp_sweep *sw, const struct rp_panel *p,
                        char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (p->nspots)
        len += (size_t)snprintf(buf + len, n - len,
                                " · ×N: N configurations no dimension tells "
                                "apart, pooled as repeats");
    if (len < n && sw->nleft_configs)
        len += (size_t)snprintf(buf + len, n - len,
                                " · %zu of %zu configurations are not in this "
                                "sweep (listed below it)",
                                sw->nleft_configs, sw->nconfigs);
    else if (len < n && sw->nleft)
        snprintf(buf + len, n - len,
                 " · %zu result%s not in this sweep (listed below it)",
                 sw->nleft, sw->nleft == 1 ? " is" : "s are");
}

/* The table under a panel: series, x, value ... or, for a sweep of every
 * configuration, x and a column per other dimension. */
static void panel_table(struct rp_out *o, const struct rp_data *d,
                        const struct rp_sweep *sw, const struct rp_panel *p,
                        const char *title, int norm, const size_t *bests,
                        const double *v)
{
    const struct rp_metric *m = &d->metrics[sw->metric];
    size_t nx = p->nx, ns = p->ns;
    int all = sw->s.kind == RP_DIM_OTHERS;
    size_t lead = all ? 1 + sw->s.nkeys : 2;
    struct rt_table t;
    rt_init(&t, lead + 6);
    t.sortable = 1;
    t.fold = nx * ns > 12;
    if (norm != RC_NORM_ALL)
        t.note = norm == RC_NORM_ROW
                     ? rt_str(&t, "%% of best: within the same %s.",
                              dim_name(&sw->s))
                     : rt_str(&t, "%% of best: within the same %s.",
                              dim_name(&sw->x));
    t.caption = rt_str(&t, "Data: %s", title);
    if (all) {
        rt_header(&t, 0, dim_name(&sw->x), RT_LEFT);
        for (size_t i = 0; i < sw->s.nkeys; i++)
            rt_header(&t, 1 + i, sw->s.keys[i], RT_LEFT);
    } else {
        rt_header(&t, 0, ns > 1 ? dim_name(&sw->s) : "series", RT_LEFT);
        rt_header(&t, 1, dim_name(&sw->x), RT_LEFT);
    }
    rt_header(&t, lead, "Value", RT_RIGHT);
    rt_header(&t, lead + 1, "± SE", RT_RIGHT);
    rt_header(&t, lead + 2, "n", RT_RIGHT);
    rt_header(&t, lead + 3, "% of best", RT_RIGHT);
    rt_header(&t, lead + 4, rt_str(&t, "Exact (%s)", m->unit), RT_RIGHT);
    rt_header(&t, lead + 5, "Configuration / test", RT_LEFT);
    /* every configuration: grouped by x, as the chart draws them */
    for (size_t a = 0; a < nx * ns; a++) {
        size_t si = all ? a % ns : a / nx, xi = all ? a / ns : a % nx;
        size_t k = si * nx + xi;
        const struct rp_spot *sp;
        const struct rp_cell *c = rp_panel_cell(d, p, k, &sp);
        if (!c)
            continue;
        struct rt_cell *row = rt_row(&t);
        if (all) {
            const struct rp_config *cf = &d->configs[c->config];
            rt_setv(&t, &row[0], p->xvals[xi], (double)xi);
            for (size_t i = 0; i < sw->s.nkeys; i++) {
                const char *pv =
                    rp_param(cf->params, cf->nparams, sw->s.keys[i]);
                char buf[64];
                rt_set(&t, &row[1 + i],
                       pv ? rp_param_text(sw->s.keys[i], pv, buf, sizeof(buf))
                          : "–");
            }
            row[1].has_swatch = sw->s.nkeys > 0;
            row[1].swatch = p->scolors[si];
        } else {
            rt_setv(&t, &row[0], p->svals[si], (double)si);
            row[0].has_swatch = 1;
            row[0].swatch = p->scolors[si];
            rt_setv(&t, &row[1], p->xvals[xi], (double)xi);
        }
        rp_value_cells(&t, row, lead, d, &m->u, c);
        size_t bk = bests[k];
        double bestv = bk != SIZE_MAX ? v[bk] : c->mean;
        double pc = rp_pct_of_best(c->mean, bestv, m->dir);
        char pcs[64];
        rt_setv(&t, &row[lead + 3], rp_pct1("", pc, pcs, sizeof(pcs)), pc);
        if (bk != SIZE_MAX && v[k] == v[bk])
            row[lead + 3].style = RT_BOLD;
        char num[40];
        rt_setv(&t, &row[lead + 4], rp_num(c->mean, num, sizeof(num)), c->mean);
        row[lead + 4].style = RT_MONO;
        if (sp)
            rt_set(&t, &row[lead + 5],
                   rt_str(&t, "%s (%zu configurations pooled) — %s", sp->labels,
                          sp->n, d->tests[c->test].name));
        else
            rt_set(&t, &row[lead + 5],
                   rt_str(&t, "%s — %s", d->configs[c->config].label,
                          d->tests[c->test].name));
        row[lead + 5].style = RT_MUTED;
    }
    rp_out_table_paged(o, &t, NULL, title);
}

static void sweep_panel(struct rp_out *o, const struct rp_data *d,
                        const struct rp_sweep *sw, const struct rp_panel *p,
                        const char *mtitle)
{
    const struct rp_metric *m = &d->metrics[sw->metric];
    size_t nx = p->nx, ns = p->ns;
    int all = sw->s.kind == RP_DIM_OTHERS;
    double *v = pb_xcalloc(nx * ns + 1, sizeof(double));
    double *se = pb_xcalloc(nx * ns + 1, sizeof(double));
    for (size_t i = 0; i < nx * ns; i++) {
        v[i] = NAN;
        se[i] = -1;
        const struct rp_cell *c = rp_panel_cell(d, p, i, NULL);
        if (!c)
            continue;
        v[i] = c->mean;
        se[i] = c->se;
    }
    /* ×N on the cells of N configurations pooled */
    struct pb_arena ma;
    pb_arena_init(&ma);
    const char **marks = NULL;
    if (p->nspots) {
        marks = pb_arena_alloc(&ma, (nx * ns + 1) * sizeof(*marks));
        memset(marks, 0, (nx * ns + 1) * sizeof(*marks));
        for (size_t i = 0; i < p->nspots; i++)
            marks[p->spots[i].k] = pb_arena_printf(&ma, "×%zu", p->spots[i].n);
    }
    /* Workloads differ in scale: when one dimension is a test parameter and
     * the other a configuration, compare configurations per workload. */
    int xtest = sw->x.kind == RP_DIM_TEST;
    int stest = ns > 1 && sw->s.kind == RP_DIM_TEST;
    int norm = ns < 2              ? RC_NORM_ALL
               : (stest && !xtest) ? RC_NORM_ROW
               : (xtest && !stest) ? RC_NORM_COL
                                   : RC_NORM_ALL;
    char title[512], sub[768], wl[256], extra[256];
    panel_workload(d, p, wl, sizeof(wl));
    if (all)
        snprintf(title, sizeof(title), "%s%s%s by %s, every configuration", wl,
                 wl[0] ? ": " : "", mtitle, dim_name(&sw->x));
    else
        snprintf(title, sizeof(title), "%s%s%s by %s%s%s", wl,
                 wl[0] ? ": " : "", mtitle, dim_name(&sw->x),
                 ns > 1 ? " and " : "", ns > 1 ? dim_name(&sw->s) : "");
    panel_notes(sw, p, extra, sizeof(extra));
    snprintf(sub, sizeof(sub), "%s%s%s%s is better%s", p->title,
             p->title[0] ? " · " : "",
             all ? "a row per combination of the other dimensions · " : "",
             m->dir < 0 ? "lower" : "higher", extra);
    struct rc_gridspec g = {0};
    g.title = title;
    g.subtitle = sub;
    g.xname = dim_name(&sw->x);
    g.sname = ns > 1 || all ? dim_name(&sw->s) : "";
    g.unit = m->u;
    g.dir = m->dir;
    g.xvals = p->xvals;
    g.svals = p->svals;
    g.scolors = p->scolors;
    g.nx = nx;
    g.ns = ns;
    g.v = v;
    g.se = se;
    g.norm = norm;
    g.marks = marks;
    g.compact = all;
    char stem[200];
    if (all)
        snprintf(stem, sizeof(stem), "sweep-%s-%s-all", m->name,
                 dim_name(&sw->x));
    else
        snprintf(stem, sizeof(stem), "sweep-%s-%s-%s", m->name,
                 dim_name(&sw->x), ns > 1 ? dim_name(&sw->s) : "");
    size_t *bests = pb_xcalloc(nx * ns + 1, sizeof(size_t));
    rc_grid_bests(&g, bests);
    /* the same data behind the grouped bars and the heatmap; past
     * RP_MANY_LIMIT values of a dimension only a reduced heatmap */
    int many = nx > RP_MANY_LIMIT || ns > RP_MANY_LIMIT;
    if (!many && ns <= 10 && nx * ns <= 240) {
        rp_out_chart_data(o,
                          rp_csv_sweep(d, sw, p, g.xname, g.sname, bests, v));
        rp_out_chart(o, rc_grouped(o->f, &g), stem);
    }
    if (ns >= 2 || many) {
        if (all)
            snprintf(stem, sizeof(stem), "heatmap-%s-%s-all", m->name,
                     dim_name(&sw->x));
        else
            snprintf(stem, sizeof(stem), "heatmap-%s-%s%s%s", m->name,
                     dim_name(&sw->x), ns > 1 ? "-" : "",
                     ns > 1 ? dim_name(&sw->s) : "");
        sweep_heatmap(o, d, sw, p, &g, bests, stem);
    }
    panel_table(o, d, sw, p, title, norm, bests, v);
    pb_arena_release(&ma);
    free(bests);
    free(v);
    free(se);
}

/* ==== what a sweep leaves out, and what it pools ==== */

#define NOTE_NAMES 40

static const char *left_head(const struct rp_sweep *sw, const struct rp_left *l,
                             struct pb_arena *a)
{
    const char *xs = dim_name(&sw->x);
    int two = sw->s.kind != RP_DIM_OTHERS && sw->s.nvals;
    const char *ss = two ? dim_name(&sw->s) : "";
    switch (l->why) {
    case RP_LEFT_NOVALUE:
        return pb_arena_printf(a, "No value, %s",
                               l->what ? l->what : "not measured");
    case RP_LEFT_NODIM:
        return pb_arena_printf(a, "No value of %s", l->what);
    case RP_LEFT_APART:
        if (!l->what || !*l->what)
            return pb_arena_printf(a, "Nothing to compare with along %s%s%s",
                                   xs, two ? " and " : "", ss);
        return pb_arena_printf(a,
                               "Nothing to compare with along %s%s%s, set "
                               "apart by %s",
                               xs, two ? " and " : "", ss, l->what);
    case RP_LEFT_CLASH:
        return "Results of tests told apart only by their name on one spot";
    case RP_LEFT_PANELS:
        return pb_arena_printf(a,
                               "In combinations of the other dimensions past "
                               "the %zu drawn (narrow the report with --test "
                               "or --config)",
                               sw->npanels);
    }
    return "";
}

/* Does the sweep hold cells of several tests? Then left-out cells name
 * their test. */
static int several_tests(const struct rp_data *d, const struct rp_sweep *sw)
{
    size_t t0 = SIZE_MAX;
    for (size_t i = 0; i < sw->nleft; i++) {
        size_t t = d->cells[sw->left[i].cell].test;
        if (t0 == SIZE_MAX)
            t0 = t;
        else if (t != t0)
            return 1;
    }
    for (size_t k = 0; k < sw->npanels; k++)
        if (!one_test(d, &sw->panels[k], &t0))
            return 1;
    return 0;
}

/* "Not in this sweep: 8 of 19 configurations ...", then one line per
 * reason with the configurations it holds. */
static void left_notes(struct rp_out *o, const struct rp_data *d,
                       const struct rp_sweep *sw)
{
    if (!sw->nleft)
        return;
    struct pb_arena a;
    pb_arena_init(&a);
    if (sw->nleft_configs)
        rp_out_para(o, "note",
                    pb_arena_printf(&a,
                                    "Not in this sweep: %zu of %zu "
                                    "configurations (every one is in Results "
                                    "by test):",
                                    sw->nleft_configs, sw->nconfigs));
    else
        rp_out_para(o, "note",
                    pb_arena_printf(&a,
                                    "Not in this sweep: %zu result%s of "
                                    "configurations it draws for other "
                                    "tests:",
                                    sw->nleft, sw->nleft == 1 ? "" : "s"));
    int tests = several_tests(d, sw);
    for (size_t i = 0; i < sw->nleft;) {
        const char *head = left_head(sw, &sw->left[i], &a);
        size_t j = i;
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_printf(&b, "%s: ", head);
        size_t shown = 0;
        const struct rp_left *l0 = &sw->left[i];
        while (j < sw->nleft && sw->left[j].why == l0->why &&
               !strcmp(sw->left[j].what ? sw->left[j].what : "",
                       l0->what ? l0->what : "")) {
            const struct rp_cell *c = &d->cells[sw->left[j].cell];
            if (shown < NOTE_NAMES) {
                pb_buf_printf(&b, "%s%s", shown ? ", " : "",
                              d->configs[c->config].label);
                if (tests)
                    pb_buf_printf(&b, " — %s", d->tests[c->test].name);
            }
            shown++;
            j++;
        }
        if (shown > NOTE_NAMES)
            pb_buf_printf(&b, " and %zu more", shown - NOTE_NAMES);
        pb_buf_puts(&b, ".");
        rp_out_para(o, "note", pb_buf_str(&b));
        pb_buf_release(&b);
        i = j;
    }
    pb_arena_release(&a);
}

/* "Pooled: ashift 12, recordsize 4k: ashift=12 (2 results) + ..." */
static void pooled_notes(struct rp_out *o, const struct rp_data *d,
                         const struct rp_sweep *sw)
{
    struct pb_buf b = PB_BUF_INIT;
    size_t shown = 0, total = 0;
    for (size_t k = 0; k < sw->npanels; k++) {
        const struct rp_panel *p = &sw->panels[k];
        for (size_t i = 0; i < p->nspots; i++) {
            const struct rp_spot *sp = &p->spots[i];
            total++;
            if (shown++ >= NOTE_NAMES)
                continue;
            size_t xi = sp->k % p->nx, si = sp->k / p->nx;
            pb_buf_printf(&b, "%s%s%s%s=%s", shown > 1 ? "; " : "",
                          p->title[0] && sw->npanels > 1 ? p->title : "",
                          p->title[0] && sw->npanels > 1 ? ", " : "",
                          dim_name(&sw->x), p->xvals[xi]);
            if (sw->s.kind == RP_DIM_OTHERS)
                pb_buf_printf(&b, ", %s", p->svals[si]);
            else if (p->ns > 1)
                pb_buf_printf(&b, ", %s=%s", dim_name(&sw->s), p->svals[si]);
            pb_buf_puts(&b, ": ");
            for (size_t q = 0; q < sp->n; q++) {
                const struct rp_cell *c = &d->cells[sp->cells[q]];
                pb_buf_printf(&b, "%s%s (%d result%s)", q ? " + " : "",
                              d->configs[c->config].label, (int)c->nresults,
                              c->nresults == 1 ? "" : "s");
            }
        }
    }
    if (total) {
        struct pb_buf t = PB_BUF_INIT;
        pb_buf_printf(&t,
                      "Cells marked ×N hold N configurations that no "
                      "dimension tells apart (one setup measured under "
                      "several names), pooled as repeats of one setup: the "
                      "mean of all their results, ± the standard error of "
                      "their spread. %s%s",
                      pb_buf_str(&b), total > shown ? "; ..." : "");
        if (total > NOTE_NAMES)
            pb_buf_printf(&t, " (%zu cells in all)", total);
        pb_buf_puts(&t, ".");
        rp_out_para(o, "note", pb_buf_str(&t));
        pb_buf_release(&t);
    }
    pb_buf_release(&b);
}

void rp_section_sweeps(struct rp_out *o, const struct rp_data *d,
                       const struct rp_sweeps *sws)
{
    if (!sws->n)
        return;
    rp_out_raw(o, "<section id=\"sweeps\">\n");
    rp_out_heading(o, 2, NULL, "Sweeps");
    rp_out_para(o, "lead",
                "Results that vary along configuration or test dimensions, "
                "drawn as grouped bars (one group per value on the x axis, "
                "one bar per series value) and as a heatmap with the numbers "
                "in the cells. Darker is better; the best cell is outlined.");
    for (size_t i = 0; i < sws->n; i++) {
        const struct rp_sweep *sw = &sws->v[i];
        char mt[96], head[300], id[40];
        rp_group_metric_title(d, sw->metric, mt, sizeof(mt));
        int all = sw->s.kind == RP_DIM_OTHERS;
        int two = !all && sw->panels[0].ns > 1;
        if (all)
            snprintf(head, sizeof(head), "%s by %s, every configuration", mt,
                     dim_name(&sw->x));
        else
            snprintf(head, sizeof(head), "%s by %s%s%s", mt, dim_name(&sw->x),
                     two ? " and " : "", two ? dim_name(&sw->s) : "");
        snprintf(id, sizeof(id), "sweep-%zu", i + 1);
        rp_out_heading(o, 3, id, head);
        if (all) {
            char buf[400];
            snprintf(buf, sizeof(buf),
                     "The configurations differ in several dimensions at "
                     "once, so no grid of two holds most of them: every "
                     "configuration is drawn by %s, the dimension that "
                     "explains them, with a row per combination of the "
                     "others (%s), which the table lists as columns.",
                     dim_name(&sw->x), dim_name(&sw->s));
            rp_out_para(o, "note", buf);
        }
        for (size_t k = 0; k < sw->npanels; k++) {
            const struct rp_panel *p = &sw->panels[k];
            if (p->title[0] && sw->npanels > 1)
                rp_out_heading(o, 4, NULL, p->title);
            sweep_panel(o, d, sw, p, mt);
        }
        if (sw->omitted) {
            char buf[160];
            snprintf(buf, sizeof(buf),
                     "%zu more combinations of the other dimensions are not "
                     "drawn; narrow the report with --test or --config.",
                     sw->omitted);
            rp_out_para(o, "note", buf);
        }
        pooled_notes(o, d, sw);
        left_notes(o, d, sw);
    }
    rp_out_raw(o, "</section>\n");
}
