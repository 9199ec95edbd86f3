/* The whole report's data at the report's root: results.csv and
 * results.json, one row per stored result the report's filter keeps (the
 * rows `poolbench export` gives for the same filter), each with its
 * configuration's dimensions and its test's parameters. */
#include "analysis/analysis.h"
#include "render/rp_base.h"
#include "render/rp_files.h"
#include "render/rp_csv.h"
#include "common/pb_out.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const columns[] = {
    "source_path", "format", "host", "config",    "test",   "tool",   "job",
    "metric",      "value",  "unit", "direction", "stderr", "samples"};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

/* Parameters of configs or tests, ordered by owner id (then key). */
struct params {
    struct pb_db_triple *v; /* id, key, value: arena copies */
    size_t n, cap;
    struct pb_arena *a;
};

struct ids {
    long long *v;
    size_t n, cap;
};

struct pjson {
    long long id;
    char *text; /* NULL: none yet */
};

struct res {
    struct pb_arena arena;
    struct params cp, tp;
    struct ids cids, tids;       /* owners of the rows, sorted, unique */
    const char **ckeys, **tkeys; /* column keys, sorted */
    size_t nckeys, ntkeys;
    struct pb_buf csv, json;   /* what is not written yet */
    struct rp_file *fcsv, *fjson; /* results.csv, results.json */
    struct pjson cjs, tjs; /* the last owners' parameters as JSON */
    size_t rows;
};

/* Bytes held before they are written: the files are written as the rows
 * come, never held whole (10^7 results are 4 GB of JSON). */
#define FLUSH_AT (256 * 1024)

static int on_param(void *ctx, const struct pb_db_triple *t)
{
    struct params *p = ctx;
    PB_GROW(p->v, p->cap, p->n + 1);
    p->v[p->n].id = t->id;
    p->v[p->n].a = pb_arena_strdup(p->a, t->a ? t->a : "");
    p->v[p->n].b = pb_arena_strdup(p->a, t->b ? t->b : "");
    p->v[p->n].c = NULL;
    p->n++;
    return 0;
}

static void ids_done(struct ids *s);

static void ids_add(struct ids *s, long long id)
{
    if (s->n && s->v[s->n - 1] == id)
        return; /* rows come grouped: most repeats end here */
    if (s->n == s->cap && s->n >= 4096) {
        /* sorted by names, not ids: fold the repeats before growing, so
         * that this holds twice the distinct ids at most, not a row's */
        size_t was = s->n;
        ids_done(s);
        if (s->n <= was / 2) {
            s->v[s->n++] = id;
            return;
        }
    }
    PB_GROW(s->v, s->cap, s->n + 1);
    s->v[s->n++] = id;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static void ids_done(struct ids *s)
{
    if (!s->n)
        return;
    qsort(s->v, s->n, sizeof(*s->v), cmp_ll);
    size_t k = 1;
    for (size_t i = 1; i < s->n; i++)
        if (s->v[i] != s->v[k - 1])
            s->v[k++] = s->v[i];
    s->n = k;
}

static int on_row_ids(void *ctx, const struct pb_db_row *r)
{
    struct res *x = ctx;
    ids_add(&x->cids, r->config_id);
    ids_add(&x->tids, r->test_id);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct keys of the owners in ids, sorted. */
static const char **keys_of(const struct params *p, const struct ids *ids,
                            size_t *n)
{
    const char **k = pb_xcalloc(p->n + 1, sizeof(*k));
    *n = 0;
    for (size_t i = 0; i < p->n; i++)
        if (ids->n && /* no results (a report of time series only) */
            bsearch(&p->v[i].id, ids->v, ids->n, sizeof(*ids->v), cmp_ll))
            k[(*n)++] = p->v[i].a;
    qsort(k, *n, sizeof(*k), cmp_str);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (!m || strcmp(k[i], k[m - 1]))
            k[m++] = k[i];
    *n = m;
    return k;
}

/* The value of key for owner id, or NULL. */
static const char *param_of(const struct params *p, long long id,
                            const char *key)
{
    size_t lo = pb_lower_bound_id(p->v, p->n, sizeof(*p->v),
                                  offsetof(struct pb_db_triple, id), id);
    for (; lo < p->n && p->v[lo].id == id; lo++)
        if (!strcmp(p->v[lo].a, key))
            return p->v[lo].b;
    return NULL;
}

/* ==== JSON ==== */


static json_t *params_object(const struct params *p, long long id)
{
    size_t lo = pb_lower_bound_id(p->v, p->n, sizeof(*p->v),
                                  offsetof(struct pb_db_triple, id), id);
    json_t *o = json_object();
    for (; lo < p->n && p->v[lo].id == id; lo++) {
        json_t *v = pb_jout_value(p->v[lo].b);
        char *k = NULL;
        if (json_object_set_new(o, p->v[lo].a, v) != 0) {
            k = pb_term_str(p->v[lo].a); /* a key that is not UTF-8 */
            json_object_set_new(o, k, pb_jout_value(p->v[lo].b));
        }
        free(k);
    }
    return o;
}

#define JSON_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* The JSON text of owner id's parameters, kept for the next rows of the
 * same owner. Owned by c. */
static const char *params_json(const struct params *p, struct pjson *c,
                               long long id)
{
    if (c->text && c->id == id)
        return c->text;
    free(c->text);
    json_t *o = params_object(p, id);
    c->text = json_dumps(o, JSON_FLAGS);
    json_decref(o);
    if (!c->text)
        c->text = pb_xstrdup("null");
    c->id = id;
    return c->text;
}

/* ==== rows ==== */

static int on_row(void *ctx, const struct pb_db_row *r)
{
    struct res *x = ctx;
    char val[48] = "", se[48] = "", n[32] = "";
    if (r->has_value && isfinite(r->value))
        rp_num(r->value, val, sizeof(val));
    if (r->has_stderr && isfinite(r->stderr_))
        rp_num(r->stderr_, se, sizeof(se));
    if (r->samples)
        rp_int(r->samples, n, sizeof(n));
    const char *v[NCOLS] = {
        r->source_path, r->format, r->host,   r->config, r->test,
        r->tool,        r->job,    r->metric, val,       r->unit,
        r->direction,   se,        n};
    struct pb_buf *b = &x->csv;
    for (size_t i = 0; i < NCOLS; i++) {
        if (i)
            pb_buf_putc(b, ',');
        rp_csv_esc(b, v[i]);
    }
    for (size_t i = 0; i < x->nckeys; i++) {
        pb_buf_putc(b, ',');
        rp_csv_esc(b, param_of(&x->cp, r->config_id, x->ckeys[i]));
    }
    for (size_t i = 0; i < x->ntkeys; i++) {
        pb_buf_putc(b, ',');
        rp_csv_esc(b, param_of(&x->tp, r->test_id, x->tkeys[i]));
    }
    pb_buf_puts(b, "\r\n");

    json_t *o = json_object();
    for (size_t i = 0; i < NCOLS; i++) {
        json_t *j;
        if (i == 8) /* value */
            j = val[0] ? json_real(r->value) : json_null();
        else if (i == 11) /* stderr */
            j = se[0] ? json_real(r->stderr_) : json_null();
        else if (i == 12) /* samples */
            j = r->samples ? json_integer(r->samples) : json_null();
        else
            j = pb_jout_str(v[i]);
        json_object_set_new(o, columns[i], j);
    }
    char *s = json_dumps(o, JSON_FLAGS);
    json_decref(o);
    pb_buf_puts(&x->json, x->rows ? ",\n  " : "[\n  ");
    if (s && *s && s[strlen(s) - 1] == '}') {
        /* the two parameter objects, printed once per owner (rows come
         * grouped by test and config): compact JSON is their text after
         * the columns, as jansson prints the whole object */
        s[strlen(s) - 1] = '\0';
        pb_buf_puts(&x->json, s);
        pb_buf_puts(&x->json, ",\"config_params\":");
        pb_buf_puts(&x->json, params_json(&x->cp, &x->cjs, r->config_id));
        pb_buf_puts(&x->json, ",\"test_params\":");
        pb_buf_puts(&x->json, params_json(&x->tp, &x->tjs, r->test_id));
        pb_buf_putc(&x->json, '}');
    } else {
        pb_buf_puts(&x->json, "null");
    }
    free(s);
    x->rows++;
    rp_file_flush(x->fcsv, &x->csv, FLUSH_AT);
    rp_file_flush(x->fjson, &x->json, FLUSH_AT);
    return 0;
}

static void res_release(struct res *x)
{
    free(x->cjs.text);
    free(x->tjs.text);
    free(x->cp.v);
    free(x->tp.v);
    free(x->cids.v);
    free(x->tids.v);
    free(x->ckeys);
    free(x->tkeys);
    pb_buf_release(&x->csv);
    pb_buf_release(&x->json);
    pb_arena_release(&x->arena);
}

int rp_results_whole(const struct pb_render_opts *opts, size_t nresults)
{
    return !opts->raw_rows || nresults <= opts->raw_rows;
}

void rp_results_link(struct pb_buf *h, const struct pb_render_opts *opts,
                     size_t nresults)
{
    if (rp_results_whole(opts, nresults)) {
        pb_buf_puts(h, "<p class=\"data\">All results of this report: <a "
                       "href=\"results.csv\" type=\"text/csv\" download>"
                       "results.csv</a> · <a href=\"results.json\" type=\""
                       "application/json\">results.json</a>; each chart "
                       "links its own data (CSV).</p>\n");
        return;
    }
    char a[32], b[32];
    pb_buf_printf(h,
                  "<p class=\"data\">This report summarises %s results, "
                  "more than the %s that it writes as results.csv and "
                  "results.json (report --raw-rows), so it writes neither. "
                  "Every number it shows is in the tables, paged where they "
                  "are long, and each chart links its own data (CSV: the "
                  "mean, standard error and n of each configuration). "
                  "Every result: <code>",
                  rp_int((long long)nresults, a, sizeof(a)),
                  rp_int((long long)opts->raw_rows, b, sizeof(b)));
    rp_esc(h, opts->export_cmd ? opts->export_cmd : "poolbench export --csv");
    pb_buf_puts(h, "</code></p>\n");
}

int rp_write_results(struct pb_an *an, const struct pb_db_filter *f,
                     struct rp_dir *dir, struct pb_err *err)
{
    struct res x;
    memset(&x, 0, sizeof(x));
    pb_arena_init(&x.arena);
    x.cp.a = x.tp.a = &x.arena;
    int rc = pb_an_result_rows(an, f, on_row_ids, &x, err);
    if (!rc)
        rc = pb_an_report_params(an, 0, on_param, &x.cp, err);
    if (!rc)
        rc = pb_an_report_params(an, 1, on_param, &x.tp, err);
    if (rc) {
        res_release(&x);
        return rc;
    }
    ids_done(&x.cids);
    ids_done(&x.tids);
    x.ckeys = keys_of(&x.cp, &x.cids, &x.nckeys);
    x.tkeys = keys_of(&x.tp, &x.tids, &x.ntkeys);
    /* the header: the columns of export, then config.KEY and test.KEY */
    for (size_t i = 0; i < NCOLS; i++)
        pb_buf_printf(&x.csv, "%s%s", i ? "," : "", columns[i]);
    struct pb_buf h = PB_BUF_INIT;
    for (size_t k = 0; k < 2; k++) {
        const char **keys = k ? x.tkeys : x.ckeys;
        for (size_t i = 0; i < (k ? x.ntkeys : x.nckeys); i++) {
            pb_buf_reset(&h);
            pb_buf_printf(&h, "%s.%s", k ? "test" : "config", keys[i]);
            pb_buf_putc(&x.csv, ',');
            rp_csv_esc(&x.csv, pb_buf_str(&h));
        }
    }
    pb_buf_release(&h);
    pb_buf_puts(&x.csv, "\r\n");
    rc = rp_file_open(dir, "results.csv", &x.fcsv, err);
    if (!rc)
        rc = rp_file_open(dir, "results.json", &x.fjson, err);
    if (!rc)
        rc = pb_an_result_rows(an, f, on_row, &x, err);
    pb_buf_puts(&x.json, x.rows ? "\n]\n" : "[]\n");
    if (x.fcsv)
        rp_file_flush(x.fcsv, &x.csv, 0);
    if (x.fjson)
        rp_file_flush(x.fjson, &x.json, 0);
    int crc = rp_file_close(x.fcsv, err);
    int jrc = rp_file_close(x.fjson, err);
    if (!rc)
        rc = crc ? crc : jrc;
    res_release(&x);
    return rc;
}
