/* poolbench list: what is in the database, as aligned text or JSON. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"

#include <getopt.h>
#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench list [--db FILE] [--json] [sources|configs|tests|results]\n"
    "                      [--test RE] [--config RE] [--metric RE] [--host RE]\n"
    "                      [--format FMT]\n"
    "\n"
    "Show what the database holds (default: sources). Filters apply to\n"
    "'results' and are PCRE2 patterns matched anywhere in the field.\n"
    "\n"
    "  --db FILE     database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --json        one JSON array instead of a table\n"
    "  --test RE, --config RE, --metric RE, --host RE, --format FMT\n"
    "                keep only matching results\n"
    "  -h, --help    show this help\n";

/* A table collected in memory, printed with aligned columns. */
struct table {
    size_t ncols;
    const char **head;
    char **cells; /* row-major */
    size_t nrows, cap;
    json_t *json; /* when --json: array of objects */
};

static void table_row(struct table *t, const char *const *vals)
{
    if (t->json) {
        /* counts, ids and values are JSON numbers */
        static const char *const numeric[] = {"id", "results", "bytes",
                                              "value", "stderr", "samples"};
        json_t *o = json_object();
        for (size_t i = 0; i < t->ncols; i++) {
            int num = 0;
            for (size_t k = 0; k < sizeof(numeric) / sizeof(*numeric); k++)
                num |= !strcmp(t->head[i], numeric[k]);
            json_object_set_new(o, t->head[i], num ? cli_json_value(vals[i])
                                                   : cli_json_str(vals[i]));
        }
        json_array_append_new(t->json, o);
        return;
    }
    PB_GROW(t->cells, t->cap, (t->nrows + 1) * t->ncols);
    /* Names come from input files: no escape sequence reaches the terminal
     * (the JSON form keeps them exact). */
    for (size_t i = 0; i < t->ncols; i++)
        t->cells[t->nrows * t->ncols + i] = pb_term_str(vals[i]);
    t->nrows++;
}

static void table_print(struct table *t)
{
    if (t->json) {
        json_dumpf(t->json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(15));
        fputc('\n', stdout);
        json_decref(t->json);
        return;
    }
    size_t *w = pb_xcalloc(t->ncols, sizeof(*w));
    for (size_t c = 0; c < t->ncols; c++)
        w[c] = strlen(t->head[c]);
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t l = strlen(t->cells[r * t->ncols + c]);
            if (l > w[c])
                w[c] = l;
        }
    for (size_t c = 0; c < t->ncols; c++)
        printf("%-*s%s", c + 1 < t->ncols ? (int)w[c] : 0, t->head[c],
               c + 1 < t->ncols ? "  " : "\n");
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            printf("%-*s%s", c + 1 < t->ncols ? (int)w[c] : 0, s,
                   c + 1 < t->ncols ? "  " : "\n");
            free(t->cells[r * t->ncols + c]);
        }
    }
    if (t->nrows == 0)
        printf("(none)\n");
    free(t->cells);
    free(w);
}

static int on_source(void *ctx, const struct pb_db_source *s)
{
    char id[32], size[32], n[32];
    snprintf(id, sizeof(id), "%lld", s->id);
    snprintf(size, sizeof(size), "%lld", s->size);
    snprintf(n, sizeof(n), "%lld", s->nresults);
    char sha[13];
    snprintf(sha, sizeof(sha), "%.12s", s->sha256);
    const char *v[] = {id, s->path, s->format, s->tool_version, n, size,
                       sha, s->ingested_at};
    table_row(ctx, v);
    return 0;
}

/* Dimensions of every config with their origins, collected once. */
struct dims {
    struct pb_db_triple *v; /* id, key, value, origin (owned copies) */
    size_t n, cap;
};

static int on_dim(void *ctx, const struct pb_db_triple *t)
{
    struct dims *d = ctx;
    PB_GROW(d->v, d->cap, d->n + 1);
    d->v[d->n].id = t->id;
    d->v[d->n].a = pb_xstrdup(t->a ? t->a : "");
    d->v[d->n].b = pb_xstrdup(t->b ? t->b : "");
    d->v[d->n].c = t->c ? pb_xstrdup(t->c) : NULL;
    d->n++;
    return 0;
}

static void dims_free(struct dims *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free((char *)d->v[i].a);
        free((char *)d->v[i].b);
        free((char *)d->v[i].c);
    }
    free(d->v);
}

struct cfg_ctx {
    struct table *t;
    const struct dims *d;
    const struct dims *from; /* label origins: (config id, text) */
};

/* The dims of owner id: d->v[*lo .. *hi) (dims are ordered by id). */
static void dims_range(const struct dims *d, long long id, size_t *lo,
                       size_t *hi)
{
    size_t a = pb_lower_bound_id(d->v, d->n, sizeof(*d->v),
                                 offsetof(struct pb_db_triple, id), id);
    *lo = a;
    while (a < d->n && d->v[a].id == id)
        a++;
    *hi = a;
}

/* Whether origin o says how a config labelled label got it: a fio
 * file's "file: ... (LABEL)" names the label it gave (the file's other
 * configurations keep their job names; a title may replace it). */
static int origin_of(const char *o, const char *label)
{
    if (strncmp(o, "file: ", 6) != 0)
        return 1;
    size_t n = strlen(o), m = strlen(label);
    return n >= m + 3 && o[n - 1] == ')' && o[n - m - 2] == '(' &&
           !strncmp(o + n - m - 1, label, m);
}

/* Where the label of config id came from: its sources' label_origin
 * facts, "; "-joined (a title, --label-from, several fio job names on one
 * target, --label), else "parser" (the format's own name for it: the fio
 * job, the bonnie++ machine, the PTS system, the dataset). Caller frees. */
static char *label_from(const struct dims *from, long long id,
                        const char *label)
{
    size_t lo, hi;
    dims_range(from, id, &lo, &hi);
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = lo; i < hi; i++)
        if (origin_of(from->v[i].a, label))
            pb_buf_printf(&b, "%s%s", b.len ? "; " : "", from->v[i].a);
    if (!b.len)
        pb_buf_puts(&b, "parser");
    return pb_buf_take(&b);
}

/* In JSON, "params" is an object: {"recordsize": 131072, "rw": "read"}. */
static void params_object(struct table *t, const struct dims *d,
                          long long id)
{
    if (!t->json)
        return;
    size_t lo, hi;
    dims_range(d, id, &lo, &hi);
    json_t *o = json_object();
    for (size_t i = lo; i < hi; i++)
        json_object_set_new(o, d->v[i].a, cli_json_value(d->v[i].b));
    json_object_set_new(json_array_get(t->json, json_array_size(t->json) - 1),
                        "params", o);
}

static int on_entity(void *vctx, const struct pb_db_entity *e)
{
    struct cfg_ctx *c = vctx;
    char id[32], n[32];
    snprintf(id, sizeof(id), "%lld", e->id);
    snprintf(n, sizeof(n), "%lld", e->nresults);
    const char *v[] = {id, e->tool, e->name, n, e->params};
    table_row(c->t, v);
    params_object(c->t, c->d, e->id);
    return 0;
}

/* A config row: its params, and where each came from ("key, key
 * [origin]"; "parser" when the parser read it); in JSON also a "dims"
 * array of {key, value, origin}. */
static int on_config(void *vctx, const struct pb_db_entity *e)
{
    struct cfg_ctx *c = vctx;
    struct table *t = c->t;
    struct pb_buf o = PB_BUF_INIT;
    pb_buf_puts(&o, "");
    json_t *arr = t->json ? json_array() : NULL;
    size_t lo, hi2;
    dims_range(c->d, e->id, &lo, &hi2);
    /* keys grouped by origin, in the order of each origin's first key:
     * "disks, layout [sheet: hosts.csv:3]; recordsize [parser]" */
    for (size_t i = lo; i < hi2; i++) {
        const char *oi = c->d->v[i].c ? c->d->v[i].c : "parser";
        int seen = 0;
        for (size_t j = lo; j < i && !seen; j++)
            seen = !strcmp(oi, c->d->v[j].c ? c->d->v[j].c : "parser");
        if (seen)
            continue;
        pb_buf_puts(&o, o.len ? "; " : "");
        int first = 1;
        for (size_t j = i; j < hi2; j++)
            if (!strcmp(oi, c->d->v[j].c ? c->d->v[j].c : "parser")) {
                pb_buf_printf(&o, "%s%s", first ? "" : ", ", c->d->v[j].a);
                first = 0;
            }
        pb_buf_printf(&o, " [%s]", oi);
    }
    for (size_t i = lo; i < hi2; i++) {
        const struct pb_db_triple *p = &c->d->v[i];
        if (arr) {
            json_t *d = json_object();
            json_object_set_new(d, "key", json_string(p->a));
            json_object_set_new(d, "value", json_string(p->b));
            json_object_set_new(d, "origin",
                                json_string(p->c ? p->c : "parser"));
            json_array_append_new(arr, d);
        }
    }
    char id[32], n[32];
    snprintf(id, sizeof(id), "%lld", e->id);
    snprintf(n, sizeof(n), "%lld", e->nresults);
    char *lf = label_from(c->from, e->id, e->name);
    const char *v[] = {id, e->name, n, e->params, pb_buf_str(&o), lf};
    table_row(t, v);
    free(lf);
    if (arr)
        json_object_set_new(json_array_get(t->json,
                                           json_array_size(t->json) - 1),
                            "dims", arr);
    params_object(t, c->d, e->id);
    pb_buf_release(&o);
    return 0;
}

static int on_result(void *ctx, const struct pb_db_row *r)
{
    char val[64] = "", se[64] = "", n[32] = "";
    if (r->has_value)
        pb_fmt_num(r->value, val, sizeof(val));
    if (r->has_stderr)
        pb_fmt_num(r->stderr_, se, sizeof(se));
    if (r->samples)
        snprintf(n, sizeof(n), "%ld", r->samples);
    const char *v[] = {r->config, r->test, r->job, r->host, r->metric,
                       r->has_value ? val : NULL, r->unit, r->direction,
                       r->has_stderr ? se : NULL, r->samples ? n : NULL,
                       r->source_path};
    table_row(ctx, v);
    return 0;
}

struct list_args {
    const char *db;
    struct pb_db_filter f;
    int json;
};

#define A(f) offsetof(struct list_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt list_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"json", 0, CLI_OPT_FLAG, A(json), NULL},
    {"test", 0, CLI_OPT_STR, A(f.test_re), NULL},
    {"config", 0, CLI_OPT_STR, A(f.config_re), NULL},
    {"metric", 0, CLI_OPT_STR, A(f.metric_re), NULL},
    {"host", 0, CLI_OPT_STR, A(f.host_re), NULL},
    {"format", 0, CLI_OPT_STR, A(f.format), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_list(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct list_args a = {0};
    a.db = pb_db_default_path();
    int status;
    if (!cli_opt_parse("list", list_opts, &a, help, argc, argv, &status))
        return status;
    const char *dbpath = a.db;
    struct pb_db_filter f = a.f;
    int json = a.json;
    const char *what = optind < argc ? argv[optind++] : "sources";
    if (optind < argc)
        return cli_usage_error("list", "unexpected argument '%s'", argv[optind]);
    static const char *h_src[] = {"id", "path", "format", "tool_version",
                                  "results", "bytes", "sha256", "ingested_at"};
    static const char *h_cfg[] = {"id",     "config",  "results",
                                  "params", "origins", "label_from"};
    static const char *h_tst[] = {"id", "tool", "test", "results", "params"};
    static const char *h_res[] = {"config", "test", "job", "host", "metric",
                                  "value", "unit", "direction", "stderr",
                                  "samples", "source"};
    struct table t = {0};
    enum { L_SRC, L_CFG, L_TST, L_RES } kind;
    if (!strcmp(what, "sources")) {
        kind = L_SRC; t.head = h_src; t.ncols = 8;
    } else if (!strcmp(what, "configs")) {
        kind = L_CFG; t.head = h_cfg; t.ncols = 6;
    } else if (!strcmp(what, "tests")) {
        kind = L_TST; t.head = h_tst; t.ncols = 5;
    } else if (!strcmp(what, "results")) {
        kind = L_RES; t.head = h_res; t.ncols = 11;
    } else {
        return cli_usage_error("list", "unknown listing '%s' (sources, "
                               "configs, tests or results)", what);
    }
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 1, &db, &err) != PB_OK)
        return cli_fail(&err);
    if (kind == L_RES) {
        int frc = cli_check_filter(db, "list", &f);
        if (frc) {
            pb_db_close(db);
            return frc;
        }
    }
    if (json)
        t.json = json_array();
    int rc;
    switch (kind) {
    case L_SRC: rc = pb_db_each_source(db, on_source, &t, &err); break;
    case L_CFG: {
        struct dims d = {0}, from = {0};
        struct cfg_ctx cc = {&t, &d, &from};
        rc = pb_db_report_params(db, 0, on_dim, &d, &err);
        if (!rc)
            rc = pb_db_label_origins(db, on_dim, &from, &err);
        if (!rc)
            rc = pb_db_each_config(db, on_config, &cc, &err);
        dims_free(&d);
        dims_free(&from);
        break;
    }
    case L_TST: {
        struct dims d = {0};
        struct cfg_ctx cc = {&t, &d, NULL};
        rc = pb_db_report_params(db, 1, on_dim, &d, &err);
        if (!rc)
            rc = pb_db_each_test(db, on_entity, &cc, &err);
        dims_free(&d);
        break;
    }
    default: rc = pb_db_each_result(db, &f, on_result, &t, &err); break;
    }
    pb_db_close(db);
    if (rc != PB_OK) {
        for (size_t i = 0; i < t.nrows * t.ncols; i++)
            free(t.cells[i]);
        free(t.cells);
        json_decref(t.json);
        return cli_fail(&err);
    }
    table_print(&t);
    return 0;
}
