/* The "IOPS against latency" section: where fio tests of one family (the
 * same parameters but iodepth, or numjobs) were run at several queue
 * depths, one chart per family and direction with x = IOPS, y = mean
 * completion latency, a line per configuration through a point per
 * iodepth (fio-plot's most-used view), and a table of every point. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FAMILIES 40


/* The family key of a fio test: its parameters but `vary`. */
static char *family_key(const struct rp_test *t, const char *vary)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, t->tool);
    for (size_t i = 0; i < t->nparams; i++)
        if (strcmp(t->params[i].key, vary))
            pb_buf_printf(&b, "\x1f%s=%s", t->params[i].key,
                          t->params[i].value);
    return pb_buf_take(&b);
}

static long long param_ll(const struct rp_test *t, const char *key)
{
    const char *v = rp_param(t->params, t->nparams, key);
    return v ? atoll(v) : 1;
}

static size_t metric_index(const struct rp_data *d, const char *name)
{
    for (size_t m = 0; m < d->nmetrics; m++)
        if (!strcmp(d->metrics[m].name, name))
            return m;
    return SIZE_MAX;
}


struct family {
    const char *vary; /* "iodepth" or "numjobs" */
    size_t *tests;    /* sorted by the varying value */
    size_t n;
};

/* The valued cells of a family's metrics, by test k and config c, copied
 * out of their tests one test at a time (their cells may be on disk:
 * rp_stream_test): value, or NAN. */
struct fam_vals {
    double *v[3]; /* iops, mean latency, p99; [k * nconfigs + c] */
    unsigned char *has[3];
};

static void fam_vals_load(const struct rp_data *d, const struct family *f,
                          const size_t metric[3], struct fam_vals *out)
{
    size_t n = f->n * d->nconfigs + 1;
    for (size_t m = 0; m < 3; m++) {
        out->v[m] = pb_xcalloc(n, sizeof(double));
        out->has[m] = pb_xcalloc(n, 1);
    }
    for (size_t k = 0; k < f->n; k++) {
        rp_stream_test(d, f->tests[k]);
        for (size_t gi = 0; gi < d->ngroups; gi++) {
            const struct rp_group *g = &d->groups[gi];
            if (g->test != f->tests[k])
                continue;
            for (size_t m = 0; m < 3; m++) {
                if (metric[m] != g->metric)
                    continue;
                /* the first valued cell of a config, as before */
                for (size_t i = g->first; i < g->first + g->n; i++) {
                    const struct rp_cell *c = &d->cells[i];
                    size_t at = k * d->nconfigs + c->config;
                    if (!c->has_value || out->has[m][at])
                        continue;
                    out->has[m][at] = 1;
                    out->v[m][at] = c->mean;
                }
            }
        }
    }
}

static void fam_vals_free(struct fam_vals *fv)
{
    for (size_t m = 0; m < 3; m++) {
        free(fv->v[m]);
        free(fv->has[m]);
    }
}

/* Tests by the value of the parameter that varies in their family. */
struct vary_ctx {
    const struct rp_data *d;
    const char *key;
};

static int cmp_vary(const void *a, const void *b, void *ctx)
{
    const struct vary_ctx *v = ctx;
    long long x = param_ll(&v->d->tests[*(const size_t *)a], v->key);
    long long y = param_ll(&v->d->tests[*(const size_t *)b], v->key);
    return x < y ? -1 : x > y;
}

/* Families of fio tests with >= 2 values of iodepth (else numjobs). */
static size_t find_families(const struct rp_data *d, struct family *fam)
{
    size_t nf = 0;
    static const char *const vary[] = {"iodepth", "numjobs"};
    char *done = pb_xcalloc(d->ntests + 1, 1);
    for (size_t v = 0; v < 2; v++)
        for (size_t i = 0; i < d->ntests && nf < MAX_FAMILIES; i++) {
            const struct rp_test *t = &d->tests[i];
            if (done[i] || !t->used || strcmp(t->tool, "fio") ||
                !rp_param(t->params, t->nparams, vary[v]))
                continue;
            char *key = family_key(t, vary[v]);
            size_t *m = pb_xcalloc(d->ntests + 1, sizeof(*m));
            size_t n = 0;
            for (size_t j = i; j < d->ntests; j++) {
                const struct rp_test *o = &d->tests[j];
                if (done[j] || !o->used || strcmp(o->tool, "fio"))
                    continue;
                char *k2 = family_key(o, vary[v]);
                if (!strcmp(key, k2))
                    m[n++] = j;
                free(k2);
            }
            free(key);
            long long first = param_ll(t, vary[v]);
            int varies = 0;
            for (size_t j = 0; j < n; j++)
                varies |= param_ll(&d->tests[m[j]], vary[v]) != first;
            if (!varies) {
                free(m);
                continue;
            }
            for (size_t j = 0; j < n; j++)
                done[m[j]] = 1;
            struct vary_ctx vc = {d, vary[v]};
            rp_sort(m, n, sizeof(*m), cmp_vary, &vc);
            fam[nf].vary = vary[v];
            fam[nf].tests = m;
            fam[nf++].n = n;
        }
    free(done);
    return nf;
}

/* The family's name: the first test's name without its varying part
 * ("fio write bs=16k direct=1"), else its tool and workload parameters. */
static const char *family_name(struct rt_table *t, const struct rp_data *d,
                               const struct family *f)
{
    const struct rp_test *ts = &d->tests[f->tests[0]];
    const char *fv = rp_param(ts->params, ts->nparams, f->vary);
    char tok[96];
    snprintf(tok, sizeof(tok), " %s=%s", f->vary, fv ? fv : "");
    const char *at = strstr(ts->name, tok);
    size_t tl = strlen(tok);
    if (at && (at[tl] == ' ' || at[tl] == '\0'))
        return rt_str(t, "%.*s%s", (int)(at - ts->name), ts->name, at + tl);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "fio");
    static const char *const keys[] = {"rw", "bs", "iodepth", "numjobs"};
    for (size_t k = 0; k < 4; k++) {
        if (!strcmp(keys[k], f->vary))
            continue;
        const char *v = rp_param(ts->params, ts->nparams, keys[k]);
        char tmp[64];
        if (v)
            pb_buf_printf(&b, " %s=%s", keys[k],
                          rp_param_text(keys[k], v, tmp, sizeof(tmp)));
    }
    const char *s = rt_str(t, "%s", pb_buf_str(&b));
    pb_buf_release(&b);
    return s;
}

/* The rows of a family's table: a configuration's points in order, as
 * its line and the chart's CSV have them. */
static void family_rows(struct rt_table *t, const struct rp_data *d,
                        const struct family *f, const struct fam_vals *fv,
                        size_t m_p99, const struct rp_unit *ui,
                        const struct rp_unit *ul)
{
    for (size_t c = 0; c < d->nconfigs; c++) {
        const struct rp_config *cf = &d->configs[c];
        if (!cf->used)
            continue;
        for (size_t k = 0; k < f->n; k++) {
            size_t at = k * d->nconfigs + c;
            if (!fv->has[0][at] || !fv->has[1][at])
                continue;
            double a = fv->v[0][at], b = fv->v[1][at];
            long long q = param_ll(&d->tests[f->tests[k]], f->vary);
            struct rt_cell *row = rt_row(t);
            rp_config_cell(t, &row[0], cf);
            rt_setv(t, &row[1], rt_str(t, "%lld", q), (double)q);
            char buf[96];
            rt_setv(t, &row[2], rp_fmt(ui, a, buf, sizeof(buf)), a);
            rt_setv(t, &row[3], rp_fmt(ul, b, buf, sizeof(buf)), b);
            int has_p = m_p99 != SIZE_MAX && fv->has[2][at];
            double p = fv->v[2][at];
            if (has_p)
                rt_setv(t, &row[4],
                        rp_fmt(&d->metrics[m_p99].u, p, buf, sizeof(buf)), p);
            else
                rt_set(t, &row[4], "");
        }
    }
}

static void family_chart(struct rp_out *o, const struct rp_data *d,
                         const struct family *f, size_t dir, size_t fi)
{
    char mi[32], ml[32], mp[32];
    snprintf(mi, sizeof(mi), "%s_iops", rp_io_dirs[dir]);
    snprintf(ml, sizeof(ml), "%s_clat_mean", rp_io_dirs[dir]);
    snprintf(mp, sizeof(mp), "%s_clat_p99", rp_io_dirs[dir]);
    size_t m_iops = metric_index(d, mi), m_lat = metric_index(d, ml);
    size_t m_p99 = metric_index(d, mp);
    if (m_iops == SIZE_MAX || m_lat == SIZE_MAX)
        return;
    const struct rp_unit *ui = &d->metrics[m_iops].u, *ul = &d->metrics[m_lat].u;
    struct rt_table t;
    rt_init(&t, 5);
    t.sortable = 1;
    const char *qd = !strcmp(f->vary, "iodepth") ? "qd" : "jobs ";
    struct rc_xyline *lines = pb_xcalloc(d->nconfigs + 1, sizeof(*lines));
    size_t nl = 0;
    rt_header(&t, 0, "Configuration", RT_LEFT);
    rt_header(&t, 1, f->vary, RT_RIGHT);
    rt_header(&t, 2, rt_str(&t, "%s IOPS", rp_io_dirs[dir]), RT_RIGHT);
    rt_header(&t, 3, "mean completion latency", RT_RIGHT);
    rt_header(&t, 4, "p99 completion latency", RT_RIGHT);
    /* its data: exact, in canonical units named in the header */
    const char *head[] = {
        "config", f->vary, "test",
        rt_str(&t, "%s (%s)", mi, d->metrics[m_iops].unit),
        rt_str(&t, "%s (%s)", ml, d->metrics[m_lat].unit),
        rt_str(&t, "%s (%s)", mp,
               m_p99 == SIZE_MAX ? "ns" : d->metrics[m_p99].unit)};
    struct rp_csv *cv = rp_csv_new(6, head);
    const size_t want[3] = {m_iops, m_lat, m_p99};
    struct fam_vals fv;
    fam_vals_load(d, f, want, &fv);
    for (size_t c = 0; c < d->nconfigs; c++) {
        const struct rp_config *cf = &d->configs[c];
        if (!cf->used)
            continue;
        double *x = pb_arena_alloc(&t.arena, (f->n + 1) * sizeof(double));
        double *y = pb_arena_alloc(&t.arena, (f->n + 1) * sizeof(double));
        const char **pt =
            pb_arena_alloc(&t.arena, (f->n + 1) * sizeof(const char *));
        size_t n = 0;
        for (size_t k = 0; k < f->n; k++) {
            size_t at = k * d->nconfigs + c;
            if (!fv.has[0][at] || !fv.has[1][at])
                continue;
            double a = fv.v[0][at], b = fv.v[1][at];
            long long q = param_ll(&d->tests[f->tests[k]], f->vary);
            x[n] = a;
            y[n] = b;
            pt[n++] = rt_str(&t, "%s%lld", qd, q);
            int has_p = m_p99 != SIZE_MAX && fv.has[2][at];
            double p = fv.v[2][at];
            rp_csv_str(cv, cf->label);
            rp_csv_int(cv, q);
            rp_csv_str(cv, d->tests[f->tests[k]].name);
            rp_csv_num(cv, a);
            rp_csv_num(cv, b);
            rp_csv_num(cv, has_p ? p : NAN);
        }
        if (!n)
            continue;
        lines[nl].label = cf->label;
        lines[nl].color = cf->color;
        lines[nl].n = n;
        lines[nl].x = x;
        lines[nl].y = y;
        lines[nl++].pt = pt;
    }
    if (nl) {
        const char *name = family_name(&t, d, f);
        char title[300], sub[200], stem[64];
        snprintf(title, sizeof(title), "%s: %s IOPS against mean completion "
                 "latency by %s", name, rp_io_dirs[dir], f->vary);
        snprintf(sub, sizeof(sub), "one point per %s, a line per "
                 "configuration · down and right is better", f->vary);
        rp_out_heading(o, 3, NULL,
                       rt_str(&t, "%s: %s IOPS against latency", name,
                              rp_io_dirs[dir]));
        struct rc_xyspec xs = {0};
        xs.title = title;
        xs.subtitle = sub;
        xs.xname = rt_str(&t, "%s IOPS", rp_io_dirs[dir]);
        xs.yname = "mean completion latency";
        xs.xunit = *ui;
        xs.yunit = *ul;
        xs.lines = lines;
        xs.n = nl;
        snprintf(stem, sizeof(stem), "iops-latency-%zu-%s", fi + 1, rp_io_dirs[dir]);
        rp_out_chart_data(o, cv);
        cv = NULL;
        rp_out_chart(o, rc_xy(rp_out_fonts(o), &xs), stem);
        /* the table's rows after the chart is written and freed: both at
         * once were the report's peak at 10^7 results (11,575 lines and
         * 34,725 rows) */
        family_rows(&t, d, f, &fv, m_p99, ui, ul);
        t.caption = rt_str(&t, "Data: %s", title);
        rp_out_table_elsewhere(o, &t, stem, title);
    } else {
        rt_release(&t);
    }
    fam_vals_free(&fv);
    rp_csv_free(cv);
    free(lines);
}


int rp_has_iops_latency(const struct rp_data *d)
{
    struct family fam[MAX_FAMILIES];
    size_t nf = find_families(d, fam);
    for (size_t i = 0; i < nf; i++)
        free(fam[i].tests);
    return nf > 0;
}

void rp_section_iops_latency(struct rp_out *o, const struct rp_data *d)
{
    struct family fam[MAX_FAMILIES];
    size_t nf = find_families(d, fam);
    if (!nf)
        return;
    rp_out_raw(o, "<section id=\"iops-latency\">\n");
    rp_out_heading(o, 2, NULL, "IOPS against latency");
    rp_out_para(o, "lead",
                "Tests run at several queue depths (iodepth) or job counts "
                "(numjobs): how much latency each configuration pays for "
                "more IOPS. Each line is a configuration, each point one "
                "queue depth; a line that bends upward has reached its "
                "limit.");
    for (size_t i = 0; i < nf; i++) {
        for (size_t dir = 0; dir < 3; dir++)
            family_chart(o, d, &fam[i], dir, i);
        free(fam[i].tests);
    }
    rp_out_raw(o, "</section>\n");
}
