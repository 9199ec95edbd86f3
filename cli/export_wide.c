/* poolbench export --wide: one row per source, host, configuration, test
 * and job; every configuration dimension, test parameter and metric its own
 * column (docs/model.md, "Wide export"). */
#include "cli/cli.h"
#include "model/db.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A named thing by id: a source (path, format), config (label), test
 * (name, tool). */
struct named {
    long long id;
    char *a, *b;
};

/* A parameter of a config or test. */
struct param {
    long long id;
    char *key, *value;
};

/* One result, kept for the pivot. */
struct cell {
    long long source, config, test;
    char *host, *job;
    size_t metric; /* column index among the metrics */
    int has_value;
    double value;
};

struct wide {
    struct named *src, *cfg, *tst;
    size_t nsrc, csrc, ncfg, ccfg, ntst, ctst;
    struct param *cp, *tp;
    size_t ncp, ccp, ntp, ctp;
    struct cell *cells;
    size_t ncells, ccells;
    /* metric columns: names, units, ids (several ids may share a name) */
    char **mname, **munit;
    long long *mid;
    size_t nm, cm;
};

static char *dup0(const char *s)
{
    return s ? pb_xstrdup(s) : NULL;
}

static int on_src(void *ctx, const struct pb_db_source *s)
{
    struct wide *w = ctx;
    PB_GROW(w->src, w->csrc, w->nsrc + 1);
    w->src[w->nsrc++] = (struct named){s->id, dup0(s->path), dup0(s->format)};
    return 0;
}

static int on_cfg(void *ctx, const struct pb_db_triple *t)
{
    struct wide *w = ctx;
    PB_GROW(w->cfg, w->ccfg, w->ncfg + 1);
    w->cfg[w->ncfg++] = (struct named){t->id, dup0(t->a), NULL};
    return 0;
}

static int on_tst(void *ctx, const struct pb_db_triple *t)
{
    struct wide *w = ctx;
    PB_GROW(w->tst, w->ctst, w->ntst + 1);
    w->tst[w->ntst++] = (struct named){t->id, dup0(t->a), dup0(t->b)};
    return 0;
}

static int on_cparam(void *ctx, const struct pb_db_triple *t)
{
    struct wide *w = ctx;
    PB_GROW(w->cp, w->ccp, w->ncp + 1);
    w->cp[w->ncp++] = (struct param){t->id, dup0(t->a), dup0(t->b)};
    return 0;
}

static int on_tparam(void *ctx, const struct pb_db_triple *t)
{
    struct wide *w = ctx;
    PB_GROW(w->tp, w->ctp, w->ntp + 1);
    w->tp[w->ntp++] = (struct param){t->id, dup0(t->a), dup0(t->b)};
    return 0;
}

static int on_rrow(void *ctx, const struct pb_db_rrow *r)
{
    struct wide *w = ctx;
    size_t m = 0;
    while (m < w->nm && w->mid[m] != r->metric_id)
        m++;
    if (m == w->nm) {
        PB_GROW(w->mname, w->cm, w->nm + 1);
        w->munit = pb_xrealloc(w->munit, w->cm * sizeof(*w->munit));
        w->mid = pb_xrealloc(w->mid, w->cm * sizeof(*w->mid));
        w->mname[m] = pb_xstrdup(r->metric ? r->metric : "");
        w->munit[m] = pb_xstrdup(r->unit ? r->unit : "");
        w->mid[m] = r->metric_id;
        w->nm++;
    }
    PB_GROW(w->cells, w->ccells, w->ncells + 1);
    w->cells[w->ncells++] = (struct cell){
        r->source_id, r->config_id, r->test_id, dup0(r->host), dup0(r->job),
        m, r->has_value, r->value};
    return 0;
}

static int cmp_str0(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int cmp_cell(const void *pa, const void *pb)
{
    const struct cell *a = pa, *b = pb;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    int c = cmp_str0(a->host, b->host);
    if (c)
        return c;
    if (a->config != b->config)
        return a->config < b->config ? -1 : 1;
    if (a->test != b->test)
        return a->test < b->test ? -1 : 1;
    return cmp_str0(a->job, b->job);
}

static int same_row(const struct cell *a, const struct cell *b)
{
    return a->source == b->source && a->config == b->config &&
           a->test == b->test && !cmp_str0(a->host, b->host) &&
           !cmp_str0(a->job, b->job);
}

static const struct named *named_of(const struct named *v, size_t n,
                                    long long id)
{
    for (size_t lo = 0, hi = n; lo < hi;) { /* ids ascend */
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id == id)
            return &v[mid];
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The value of key for owner id in params ordered by id and key. */
static const char *param_of(const struct param *v, size_t n, long long id,
                            const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && v[lo].id == id; lo++)
        if (!strcmp(v[lo].key, key))
            return v[lo].value;
    return NULL;
}

static int cmp_pstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* The sorted distinct keys of the params used by the kept cells. */
static char **keys_of(const struct param *v, size_t n, const struct cell *c,
                      size_t nc, int test, size_t *nk)
{
    char **k = NULL;
    size_t cap = 0;
    *nk = 0;
    long long *ids = pb_xcalloc(nc ? nc : 1, sizeof(*ids));
    for (size_t j = 0; j < nc; j++)
        ids[j] = test ? c[j].test : c[j].config;
    qsort(ids, nc, sizeof(*ids), cmp_ll);
    for (size_t i = 0; i < n; i++) {
        if (!bsearch(&v[i].id, ids, nc, sizeof(*ids), cmp_ll))
            continue;
        int seen = 0;
        for (size_t j = 0; j < *nk && !seen; j++)
            seen = !strcmp(k[j], v[i].key);
        if (!seen) {
            PB_GROW(k, cap, *nk + 1);
            k[(*nk)++] = v[i].key;
        }
    }
    if (*nk)
        qsort(k, *nk, sizeof(*k), cmp_pstr);
    free(ids);
    return k;
}

static const char *const fixed[] = {"source_path", "format", "host", "config",
                                    "test", "tool", "job"};
#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

/* Is name taken by a fixed column or a key in other? */
static int clashes(const char *name, char **other, size_t nother)
{
    for (size_t i = 0; i < NFIXED; i++)
        if (!strcmp(name, fixed[i]))
            return 1;
    for (size_t i = 0; i < nother; i++)
        if (!strcmp(name, other[i]))
            return 1;
    return 0;
}

static void wide_release(struct wide *w)
{
    for (size_t i = 0; i < w->nsrc; i++)
        free(w->src[i].a), free(w->src[i].b);
    for (size_t i = 0; i < w->ncfg; i++)
        free(w->cfg[i].a);
    for (size_t i = 0; i < w->ntst; i++)
        free(w->tst[i].a), free(w->tst[i].b);
    for (size_t i = 0; i < w->ncp; i++)
        free(w->cp[i].key), free(w->cp[i].value);
    for (size_t i = 0; i < w->ntp; i++)
        free(w->tp[i].key), free(w->tp[i].value);
    for (size_t i = 0; i < w->ncells; i++)
        free(w->cells[i].host), free(w->cells[i].job);
    for (size_t i = 0; i < w->nm; i++)
        free(w->mname[i]), free(w->munit[i]);
    free(w->src), free(w->cfg), free(w->tst), free(w->cp), free(w->tp);
    free(w->cells), free(w->mname), free(w->munit), free(w->mid);
}

/* Read every table the pivot needs into *w (zeroed first; release with
 * wide_release, also after an error). */
static int wide_load(struct pb_db *db, const struct pb_db_filter *f,
                     struct wide *w, struct pb_err *err)
{
    memset(w, 0, sizeof(*w));
    int rc = pb_db_each_source(db, on_src, w, err);
    if (!rc)
        rc = pb_db_report_configs(db, on_cfg, w, err);
    if (!rc)
        rc = pb_db_report_tests(db, on_tst, w, err);
    if (!rc)
        rc = pb_db_report_params(db, 0, on_cparam, w, err);
    if (!rc)
        rc = pb_db_report_params(db, 1, on_tparam, w, err);
    if (!rc)
        rc = pb_db_each_report_row(db, f, on_rrow, w, err);
    if (!rc && w->ncells)
        qsort(w->cells, w->ncells, sizeof(*w->cells), cmp_cell);
    return rc;
}

/* The columns: fixed, config dimensions (ck), test parameters (tk),
 * metrics (in morder: by name, then unit); head their names. */
struct cols {
    char **ck, **tk;
    size_t nck, ntk;
    size_t *morder;
    char **head;
    size_t ncol;
};

/* The metric columns' order, by name (then unit): insertion sort, few
 * columns. */
static size_t *metric_order(const struct wide *w)
{
    size_t *morder = pb_xcalloc(w->nm ? w->nm : 1, sizeof(*morder));
    for (size_t i = 0; i < w->nm; i++)
        morder[i] = i;
    for (size_t i = 1; i < w->nm; i++)
        for (size_t j = i; j > 0; j--) {
            size_t a = morder[j - 1], b = morder[j];
            int c = strcmp(w->mname[a], w->mname[b]);
            if (c < 0 || (c == 0 && strcmp(w->munit[a], w->munit[b]) <= 0))
                break;
            morder[j - 1] = b, morder[j] = a;
        }
    return morder;
}

/* A dimension key also used by the other kind or by a fixed column is
 * written config.KEY / test.KEY; a metric name used twice or taken by
 * another column gets its unit, "NAME [UNIT]". */
static void cols_init(struct cols *c, const struct wide *w)
{
    c->ck = keys_of(w->cp, w->ncp, w->cells, w->ncells, 0, &c->nck);
    c->tk = keys_of(w->tp, w->ntp, w->cells, w->ncells, 1, &c->ntk);
    c->ncol = NFIXED + c->nck + c->ntk + w->nm;
    c->head = pb_xcalloc(c->ncol, sizeof(*c->head));
    c->morder = metric_order(w);
    size_t h = 0;
    for (size_t i = 0; i < NFIXED; i++)
        c->head[h++] = pb_xstrdup(fixed[i]);
    for (size_t i = 0; i < c->nck; i++)
        c->head[h++] = clashes(c->ck[i], c->tk, c->ntk)
                           ? pb_xasprintf("config.%s", c->ck[i])
                           : pb_xstrdup(c->ck[i]);
    for (size_t i = 0; i < c->ntk; i++)
        c->head[h++] = clashes(c->tk[i], c->ck, c->nck)
                           ? pb_xasprintf("test.%s", c->tk[i])
                           : pb_xstrdup(c->tk[i]);
    const size_t *mo = c->morder;
    for (size_t i = 0; i < w->nm; i++) {
        size_t m = mo[i];
        int twice =
            (i > 0 && !strcmp(w->mname[mo[i - 1]], w->mname[m])) ||
            (i + 1 < w->nm && !strcmp(w->mname[mo[i + 1]], w->mname[m]));
        int taken = 0;
        for (size_t j = 0; j < NFIXED + c->nck + c->ntk && !taken; j++)
            taken = !strcmp(c->head[j], w->mname[m]);
        c->head[h++] = twice || taken
                           ? pb_xasprintf("%s [%s]", w->mname[m], w->munit[m])
                           : pb_xstrdup(w->mname[m]);
    }
}

static void cols_release(struct cols *c)
{
    for (size_t i = 0; i < c->ncol; i++)
        free(c->head[i]);
    free(c->head), free(c->ck), free(c->tk), free(c->morder);
}

/* One row's values and metrics: vals[ncol] the text of each column,
 * has[m] and dv[m] the value of metric m (num: their text). */
struct row {
    const char **vals;
    char (*num)[40];
    int *has;
    double *dv;
};

/* Fill r from the cells of one row, cells[0..n). */
static void row_fill(struct row *r, const struct wide *w, const struct cols *c,
                     const struct cell *cells, size_t n)
{
    memset(r->has, 0, (w->nm ? w->nm : 1) * sizeof(*r->has));
    for (size_t j = 0; j < n; j++)
        if (cells[j].has_value && !r->has[cells[j].metric]) {
            r->has[cells[j].metric] = 1;
            r->dv[cells[j].metric] = cells[j].value;
        }
    const struct cell *x = &cells[0];
    const struct named *s = named_of(w->src, w->nsrc, x->source);
    const struct named *cf = named_of(w->cfg, w->ncfg, x->config);
    const struct named *t = named_of(w->tst, w->ntst, x->test);
    size_t v = 0;
    r->vals[v++] = s ? s->a : NULL;
    r->vals[v++] = s ? s->b : NULL;
    r->vals[v++] = x->host;
    r->vals[v++] = cf ? cf->a : NULL;
    r->vals[v++] = t ? t->a : NULL;
    r->vals[v++] = t ? t->b : NULL;
    r->vals[v++] = x->job;
    for (size_t k = 0; k < c->nck; k++)
        r->vals[v++] = param_of(w->cp, w->ncp, x->config, c->ck[k]);
    for (size_t k = 0; k < c->ntk; k++)
        r->vals[v++] = param_of(w->tp, w->ntp, x->test, c->tk[k]);
    for (size_t k = 0; k < w->nm; k++) {
        size_t m = c->morder[k];
        if (r->has[m])
            pb_fmt_num(r->dv[m], r->num[k], sizeof(r->num[k]));
        r->vals[v++] = r->has[m] ? r->num[k] : NULL;
    }
}

static void csv_line(FILE *fp, const char *const *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (k)
            fputc(',', fp);
        cli_csv_field(fp, v[k]);
    }
    fputs("\r\n", fp);
}

/* The row as one JSON object: fixed fields, then the dimensions and
 * metrics as objects. */
static json_t *row_json(const struct row *r, const struct cols *c)
{
    json_t *o = json_object();
    json_t *cpo = json_object(), *tpo = json_object();
    json_t *mo = json_object();
    size_t nck = c->nck, ntk = c->ntk;
    for (size_t k = 0; k < c->ncol; k++) {
        const char *val = r->vals[k];
        if (k >= NFIXED + nck + ntk) {
            size_t m = c->morder[k - NFIXED - nck - ntk];
            if (r->has[m])
                json_object_set_new(mo, c->head[k], json_real(r->dv[m]));
        } else if (k >= NFIXED + nck) {
            if (val)
                json_object_set_new(tpo, c->tk[k - NFIXED - nck],
                                    cli_json_value(val));
        } else if (k >= NFIXED) {
            if (val)
                json_object_set_new(cpo, c->ck[k - NFIXED],
                                    cli_json_value(val));
        } else {
            json_object_set_new(o, c->head[k], cli_json_str(val));
        }
    }
    json_object_set_new(o, "config_params", cpo);
    json_object_set_new(o, "test_params", tpo);
    json_object_set_new(o, "metrics", mo);
    return o;
}

int cli_export_wide(struct pb_db *db, const struct pb_db_filter *f, int json,
                    FILE *fp, struct pb_err *err)
{
    struct wide w;
    int rc = wide_load(db, f, &w, err);
    if (rc) {
        wide_release(&w);
        return rc;
    }
    struct cols c;
    cols_init(&c, &w);
    if (!json)
        csv_line(fp, (const char *const *)c.head, c.ncol);
    size_t nrows = 0, nm1 = w.nm ? w.nm : 1;
    struct row r = {
        pb_xcalloc(c.ncol, sizeof(*r.vals)), pb_xcalloc(nm1, sizeof(*r.num)),
        pb_xcalloc(nm1, sizeof(*r.has)), pb_xcalloc(nm1, sizeof(*r.dv))};
    for (size_t i = 0; i < w.ncells;) {
        size_t j = i;
        while (j < w.ncells && same_row(&w.cells[i], &w.cells[j]))
            j++;
        row_fill(&r, &w, &c, &w.cells[i], j - i);
        if (!json) {
            csv_line(fp, r.vals, c.ncol);
        } else {
            json_t *o = row_json(&r, &c);
            fputs(nrows ? ",\n  " : "[\n  ", fp);
            json_dumpf(o, fp, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                  JSON_REAL_PRECISION(17));
            json_decref(o);
        }
        nrows++;
        i = j;
    }
    if (json)
        fputs(nrows ? "\n]\n" : "[]\n", fp);
    free(r.vals), free(r.num), free(r.has), free(r.dv);
    cols_release(&c);
    wide_release(&w);
    return PB_OK;
}
