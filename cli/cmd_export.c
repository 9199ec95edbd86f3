/* poolbench export: stream v_result rows as CSV or JSON. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "common/pb_file.h"
#include "model/db.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench export [--db FILE] --csv|--json\n"
    "                        [--wide|--samples|--series]\n"
    "                        [-o|--output FILE]\n"
    "                        [--test RE] [--config RE] [--metric RE]\n"
    "                        [--host RE] [--format FMT]\n"
    "\n"
    "Write every result (the columns of the v_result view) in canonical\n"
    "units: bytes/s, ops/s, ns, bytes, percent. JSON rows also hold the\n"
    "configuration's and the test's parameters as objects (config_params,\n"
    "test_params; numbers as JSON numbers).\n"
    "\n"
    "  --db FILE     database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --csv         RFC 4180 CSV with a header line\n"
    "  --json        a JSON array of objects\n"
    "  --wide        one row per source, host, config, test and job, with\n"
    "                every config dimension, test parameter and metric as\n"
    "                its own column (sorted; docs/model.md, Wide export)\n"
    "  --samples     one row per stored per-repeat sample (PTS RawString,\n"
    "                bonnie++ -x runs, run-module repeats): the result's\n"
    "                columns with seq (0-based, input order) and the\n"
    "                sample's value instead of value, stderr, samples\n"
    "  --series      time series from fio logs instead of results: one row\n"
    "                per point (source, config, test, job, series, t_ms,\n"
    "                value, min, max, then unit, kind, n, p50, p90, p95,\n"
    "                p99, p99.9); --metric matches the series name\n"
    "                (read_bw, ...)\n"
    "  -o, --output FILE\n"
    "                write to FILE instead of standard output\n"
    "  --test RE, --config RE, --metric RE, --host RE\n"
    "                keep rows whose field matches the PCRE2 pattern\n"
    "  --format FMT  keep rows from sources of that format (fio-json, ...)\n"
    "  -h, --help    show this help\n";

static const char *const columns[] = {
    "source_path", "format", "host",  "config",    "test",   "tool",   "job",
    "metric",      "value",  "unit",  "direction", "stderr", "samples"};
#define NCOLS (sizeof(columns) / sizeof(columns[0]))
static const char *const sample_columns[] = {
    "source_path", "format", "host", "config", "test",      "tool",
    "job",         "metric", "seq",  "value",  "unit", "direction"};
#define NSCOLS (sizeof(sample_columns) / sizeof(sample_columns[0]))

/* Parameters of configs or tests, ordered by owner id and key. */
struct params {
    struct pb_db_triple *v; /* id, key, value (owned copies) */
    size_t n, cap;
};

static int on_param(void *ctx, const struct pb_db_triple *t)
{
    struct params *p = ctx;
    PB_GROW(p->v, p->cap, p->n + 1);
    p->v[p->n].id = t->id;
    p->v[p->n].a = pb_xstrdup(t->a ? t->a : "");
    p->v[p->n].b = pb_xstrdup(t->b ? t->b : "");
    p->v[p->n].c = NULL;
    p->n++;
    return 0;
}

static void params_release(struct params *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free((char *)p->v[i].a);
        free((char *)p->v[i].b);
    }
    free(p->v);
}

/* {"key": value, ...} of owner id; numbers as JSON numbers. */
static json_t *params_object(const struct params *p, long long id)
{
    size_t lo = pb_lower_bound_id(p->v, p->n, sizeof(*p->v),
                                  offsetof(struct pb_db_triple, id), id);
    json_t *o = json_object();
    for (; lo < p->n && p->v[lo].id == id; lo++)
        json_object_set_new(o, p->v[lo].a, cli_json_value(p->v[lo].b));
    return o;
}

struct out {
    FILE *fp;
    int json;
    int samples; /* rows are samples (pb_db_each_result_sample) */
    size_t n;
    struct params cp, tp;
};

/* ==== one writer for results, samples and series ==== */

/* A cell of a row: text, a real or an integer; a missing number is an
 * empty CSV field and a JSON null. */
enum { C_STR, C_NUM, C_INT };
struct cell {
    int kind;
    const char *s;
    double d;
    long long i;
    int null;
};

#define STR(x)     {C_STR, (x), 0, 0, 0}
#define NUM(x, ok) {C_NUM, NULL, (x), 0, !(ok)}
#define INT(x, ok) {C_INT, NULL, 0, (x), !(ok)}

static void csv_header(FILE *fp, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s%s", i ? "," : "", names[i]);
    fputs("\r\n", fp);
}

static void csv_row(FILE *fp, const struct cell *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char b[64] = "";
        if (i)
            fputc(',', fp);
        if (c[i].kind == C_STR) {
            cli_csv_field(fp, c[i].s);
            continue;
        }
        if (!c[i].null && c[i].kind == C_NUM)
            pb_fmt_num(c[i].d, b, sizeof(b));
        else if (!c[i].null)
            snprintf(b, sizeof(b), "%lld", c[i].i);
        cli_csv_field(fp, b);
    }
    fputs("\r\n", fp);
}

/* The row as a JSON object, keys in column order; caller owns it. */
static json_t *json_row(const char *const *names, const struct cell *c,
                        size_t n)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < n; i++) {
        json_t *x = c[i].kind == C_STR ? cli_json_str(c[i].s)
                    : c[i].null        ? json_null()
                    : c[i].kind == C_NUM ? json_real(c[i].d)
                                         : json_integer(c[i].i);
        json_object_set_new(obj, names[i], x);
    }
    return obj;
}

/* Write obj as the next element of the JSON array and drop it. */
static void json_item(struct out *o, json_t *obj)
{
    fputs(o->n ? ",\n  " : "[\n  ", o->fp);
    json_dumpf(obj, o->fp,
               JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(obj);
}

static void json_close(const struct out *o)
{
    if (o->json)
        fputs(o->n ? "\n]\n" : "[]\n", o->fp);
}

static int on_row(void *ctx, const struct pb_db_row *r)
{
    struct out *o = ctx;
    if (o->samples) {
        const struct cell c[NSCOLS] = {
            STR(r->source_path), STR(r->format), STR(r->host),
            STR(r->config),      STR(r->test),   STR(r->tool),
            STR(r->job),         STR(r->metric), INT(r->samples, 1),
            NUM(r->value, r->has_value), STR(r->unit), STR(r->direction)};
        if (o->json)
            json_item(o, json_row(sample_columns, c, NSCOLS));
        else
            csv_row(o->fp, c, NSCOLS);
        o->n++;
        return 0;
    }
    const struct cell c[NCOLS] = {
        STR(r->source_path), STR(r->format), STR(r->host),
        STR(r->config),      STR(r->test),   STR(r->tool),
        STR(r->job),         STR(r->metric), NUM(r->value, r->has_value),
        STR(r->unit),        STR(r->direction),
        NUM(r->stderr_, r->has_stderr), INT(r->samples, r->samples)};
    if (o->json) {
        json_t *obj = json_row(columns, c, NCOLS);
        json_object_set_new(obj, "config_params",
                            params_object(&o->cp, r->config_id));
        json_object_set_new(obj, "test_params",
                            params_object(&o->tp, r->test_id));
        json_item(o, obj);
    } else {
        csv_row(o->fp, c, NCOLS);
    }
    o->n++;
    return 0;
}

/* ==== --series ==== */

static const char *const pcols[] = {
    "source", "config", "test", "job",  "series", "t_ms", "value", "min",
    "max",    "unit",   "kind", "n",    "p50",    "p90",  "p95",   "p99",
    "p99.9"};
#define NPCOLS (sizeof(pcols) / sizeof(pcols[0]))

static int on_point(void *ctx, const struct pb_db_point *p)
{
    struct out *o = ctx;
    const struct cell c[NPCOLS] = {
        STR(p->source_path),           STR(p->config),
        STR(p->test),                  STR(p->job),
        STR(p->series),                INT(p->t_ms, 1),
        NUM(p->value, !isnan(p->value)), NUM(p->min, !isnan(p->min)),
        NUM(p->max, !isnan(p->max)),   STR(p->unit),
        STR(p->kind),                  INT(p->n, p->n),
        NUM(p->p50, !isnan(p->p50)),   NUM(p->p90, !isnan(p->p90)),
        NUM(p->p95, !isnan(p->p95)),   NUM(p->p99, !isnan(p->p99)),
        NUM(p->p999, !isnan(p->p999))};
    if (o->json)
        json_item(o, json_row(pcols, c, NPCOLS));
    else
        csv_row(o->fp, c, NPCOLS);
    o->n++;
    return 0;
}

static int export_series(struct pb_db *db, const struct pb_db_filter *f,
                         struct out *o, struct pb_err *err)
{
    if (!o->json)
        csv_header(o->fp, pcols, NPCOLS);
    int rc = pb_db_each_point(db, f, on_point, o, err);
    json_close(o);
    return rc;
}

/* Close the database and the output (-o: it replaces FILE only when
 * all went well); the exit status of rc, or of a failed write. */
static int finish(struct pb_db *db, struct pb_wfile *out, int rc,
                  struct pb_err *err)
{
    pb_db_close(db);
    if (rc != PB_OK) {
        pb_wfile_abort(out);
        return cli_fail(err);
    }
    if (out ? pb_wfile_commit(out, err)
            : (fflush(stdout) != 0 || ferror(stdout)) &&
                  pb_err_set(err, PB_EIO, "-", 0, 0, "write failed"))
        return cli_fail(err);
    return 0;
}

struct export_args {
    const char *db, *output;
    struct pb_db_filter f;
    int csv, json, wide, samples, series;
};

#define A(f) offsetof(struct export_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt export_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"csv", 0, CLI_OPT_FLAG, A(csv), NULL},
    {"json", 0, CLI_OPT_FLAG, A(json), NULL},
    {"output", 'o', CLI_OPT_STR, A(output), NULL},
    {"test", 0, CLI_OPT_STR, A(f.test_re), NULL},
    {"config", 0, CLI_OPT_STR, A(f.config_re), NULL},
    {"metric", 0, CLI_OPT_STR, A(f.metric_re), NULL},
    {"host", 0, CLI_OPT_STR, A(f.host_re), NULL},
    {"format", 0, CLI_OPT_STR, A(f.format), NULL},
    {"wide", 0, CLI_OPT_FLAG, A(wide), NULL},
    {"samples", 0, CLI_OPT_FLAG, A(samples), NULL},
    {"series", 0, CLI_OPT_FLAG, A(series), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_export(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct export_args a = {0};
    a.db = pb_db_default_path();
    int ostatus;
    if (!cli_opt_parse("export", export_opts, &a, help, argc, argv, &ostatus))
        return ostatus;
    const char *dbpath = a.db, *outpath = a.output;
    struct pb_db_filter f = a.f;
    int csv = a.csv, json = a.json, wide = a.wide, samples = a.samples,
        series = a.series;
    if (optind < argc)
        return cli_usage_error("export", "unexpected argument '%s'",
                               argv[optind]);
    if (csv == json)
        return cli_usage_error("export", "give exactly one of --csv, --json");
    if (wide + samples + series > 1)
        return cli_usage_error("export", "give at most one of --wide, "
                               "--samples, --series");
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 1, &db, &err) != PB_OK)
        return cli_fail(&err);
    /* Made with the database open, when its -wal and -shm exist. */
    struct pb_keep keep;
    pb_keep_init(&keep);
    pb_keep_add_db(&keep, dbpath);
    /* --series: --metric names series, not metrics */
    struct pb_db_filter cf = f;
    if (series)
        cf.metric_re = NULL;
    int frc = cli_check_filter(db, "export", &cf);
    if (frc) {
        pb_db_close(db);
        return frc;
    }
    struct out o;
    memset(&o, 0, sizeof(o));
    o.fp = stdout;
    o.json = json;
    o.samples = samples;
    /* beside FILE, renamed over it when complete: never through a link */
    struct pb_wfile *out = NULL;
    if (outpath && pb_wfile_open(outpath, &keep, &out, &err)) {
        pb_db_close(db);
        return cli_fail(&err);
    }
    if (out)
        o.fp = pb_wfile_stream(out);
    if (series)
        return finish(db, out, export_series(db, &f, &o, &err),
                      &err);
    if (wide)
        return finish(db, out,
                      cli_export_wide(db, &f, json, o.fp, &err), &err);
    if (csv)
        csv_header(o.fp, samples ? sample_columns : columns,
                   samples ? NSCOLS : NCOLS);
    int rc = PB_OK;
    if (samples) {
        rc = pb_db_each_result_sample(db, &f, on_row, &o, &err);
        json_close(&o);
        return finish(db, out, rc, &err);
    }
    if (json)
        rc = pb_db_report_params(db, 0, on_param, &o.cp, &err);
    if (json && !rc)
        rc = pb_db_report_params(db, 1, on_param, &o.tp, &err);
    if (!rc)
        rc = pb_db_each_result(db, &f, on_row, &o, &err);
    params_release(&o.cp);
    params_release(&o.tp);
    json_close(&o);
    return finish(db, out, rc, &err);
}
