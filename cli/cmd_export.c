/* poolbench export: stream v_result rows as CSV or JSON. */
#include "cli/cli.h"
#include "model/db.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench export [--db FILE] --csv|--json [--wide|--samples]\n"
    "                        [-o FILE]\n"
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
    "                its own column (sorted; docs/design.md, Wide export)\n"
    "  --samples     one row per stored per-repeat sample (PTS RawString,\n"
    "                bonnie++ -x runs, run-module repeats): the result's\n"
    "                columns with seq (0-based, input order) and the\n"
    "                sample's value instead of value, stderr, samples\n"
    "  -o FILE       write to FILE instead of standard output\n"
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

static int on_row(void *ctx, const struct pb_db_row *r)
{
    struct out *o = ctx;
    char val[64] = "", se[64] = "", n[32] = "";
    if (r->has_value)
        pb_fmt_num(r->value, val, sizeof(val));
    if (r->has_stderr)
        pb_fmt_num(r->stderr_, se, sizeof(se));
    if (r->samples)
        snprintf(n, sizeof(n), "%ld", r->samples);
    if (o->samples) {
        snprintf(n, sizeof(n), "%ld", r->samples);
        if (!o->json) {
            const char *v[NSCOLS] = {r->source_path, r->format, r->host,
                                     r->config, r->test, r->tool, r->job,
                                     r->metric, n, val, r->unit,
                                     r->direction};
            for (size_t i = 0; i < NSCOLS; i++) {
                if (i)
                    fputc(',', o->fp);
                cli_csv_field(o->fp, v[i]);
            }
            fputs("\r\n", o->fp);
        } else {
            json_t *obj = json_object();
            const char *v[NSCOLS] = {r->source_path, r->format, r->host,
                                     r->config, r->test, r->tool, r->job,
                                     r->metric, NULL, NULL, r->unit,
                                     r->direction};
            for (size_t i = 0; i < NSCOLS; i++) {
                json_t *x = i == 8   ? json_integer(r->samples)
                            : i == 9 ? json_real(r->value)
                                     : cli_json_str(v[i]);
                json_object_set_new(obj, sample_columns[i], x);
            }
            fputs(o->n ? ",\n  " : "[\n  ", o->fp);
            json_dumpf(obj, o->fp, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(17));
            json_decref(obj);
        }
        o->n++;
        return 0;
    }
    if (!o->json) {
        const char *v[NCOLS] = {r->source_path, r->format, r->host, r->config,
                                r->test, r->tool, r->job, r->metric, val,
                                r->unit, r->direction, se, n};
        for (size_t i = 0; i < NCOLS; i++) {
            if (i)
                fputc(',', o->fp);
            cli_csv_field(o->fp, v[i]);
        }
        fputs("\r\n", o->fp);
    } else {
        json_t *obj = json_object();
#define STR(k, s) json_object_set_new(obj, k, cli_json_str(s))
        STR("source_path", r->source_path);
        STR("format", r->format);
        STR("host", r->host);
        STR("config", r->config);
        STR("test", r->test);
        STR("tool", r->tool);
        STR("job", r->job);
        STR("metric", r->metric);
        json_object_set_new(obj, "value",
                            r->has_value ? json_real(r->value) : json_null());
        STR("unit", r->unit);
        STR("direction", r->direction);
        json_object_set_new(obj, "stderr", r->has_stderr
                                               ? json_real(r->stderr_)
                                               : json_null());
        json_object_set_new(obj, "samples",
                            r->samples ? json_integer(r->samples)
                                       : json_null());
        json_object_set_new(obj, "config_params",
                            params_object(&o->cp, r->config_id));
        json_object_set_new(obj, "test_params",
                            params_object(&o->tp, r->test_id));
#undef STR
        fputs(o->n ? ",\n  " : "[\n  ", o->fp);
        json_dumpf(obj, o->fp, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                   JSON_REAL_PRECISION(17));
        json_decref(obj);
    }
    o->n++;
    return 0;
}

/* Close the database and the output; the exit status of rc, or of a
 * failed write. */
static int finish(struct pb_db *db, FILE *fp, const char *outpath, int rc,
                  struct pb_err *err)
{
    pb_db_close(db);
    int werr = ferror(fp);
    if (fp != stdout && fclose(fp) != 0)
        werr = 1;
    if (rc != PB_OK)
        return cli_fail(err);
    if (werr) {
        pb_err_set(err, PB_EIO, outpath ? outpath : "-", 0, 0,
                   "write failed");
        return cli_fail(err);
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"csv", no_argument, NULL, 'C'},
        {"json", no_argument, NULL, 'J'},
        {"output", required_argument, NULL, 'o'},
        {"test", required_argument, NULL, 't'},
        {"config", required_argument, NULL, 'c'},
        {"metric", required_argument, NULL, 'm'},
        {"host", required_argument, NULL, 'H'},
        {"format", required_argument, NULL, 'f'},
        {"wide", no_argument, NULL, 'W'},
        {"samples", no_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dbpath = pb_db_default_path(), *outpath = NULL;
    struct pb_db_filter f = {0};
    int csv = 0, json = 0, wide = 0, samples = 0, ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': dbpath = optarg; break;
        case 'C': csv = 1; break;
        case 'J': json = 1; break;
        case 'o': outpath = optarg; break;
        case 't': f.test_re = optarg; break;
        case 'c': f.config_re = optarg; break;
        case 'm': f.metric_re = optarg; break;
        case 'H': f.host_re = optarg; break;
        case 'f': f.format = optarg; break;
        case 'W': wide = 1; break;
        case 'S': samples = 1; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: return cli_bad_option("export", "ho:", opts, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("export", "unexpected argument '%s'",
                               argv[optind]);
    if (csv == json)
        return cli_usage_error("export", "give exactly one of --csv, --json");
    if (wide && samples)
        return cli_usage_error("export", "give at most one of --wide, "
                               "--samples");
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 1, &db, &err) != PB_OK)
        return cli_fail(&err);
    /* Checked with the database open, when its -wal and -shm exist. */
    if (cli_check_output("export", outpath, dbpath)) {
        pb_db_close(db);
        return 2;
    }
    int frc = cli_check_filter(db, "export", &f);
    if (frc) {
        pb_db_close(db);
        return frc;
    }
    struct out o;
    memset(&o, 0, sizeof(o));
    o.fp = stdout;
    o.json = json;
    o.samples = samples;
    if (outpath && !(o.fp = fopen(outpath, "w"))) {
        pb_err_set(&err, PB_EIO, outpath, 0, 0, "cannot write: %s",
                   strerror(errno));
        pb_db_close(db);
        return cli_fail(&err);
    }
    if (wide)
        return finish(db, o.fp, outpath,
                      cli_export_wide(db, &f, json, o.fp, &err), &err);
    if (csv) {
        size_t nc = samples ? NSCOLS : NCOLS;
        for (size_t i = 0; i < nc; i++)
            fprintf(o.fp, "%s%s", i ? "," : "",
                    samples ? sample_columns[i] : columns[i]);
        fputs("\r\n", o.fp);
    }
    int rc = PB_OK;
    if (samples) {
        rc = pb_db_each_result_sample(db, &f, on_row, &o, &err);
        if (json)
            fputs(o.n ? "\n]\n" : "[]\n", o.fp);
        return finish(db, o.fp, outpath, rc, &err);
    }
    if (json)
        rc = pb_db_report_params(db, 0, on_param, &o.cp, &err);
    if (json && !rc)
        rc = pb_db_report_params(db, 1, on_param, &o.tp, &err);
    if (!rc)
        rc = pb_db_each_result(db, &f, on_row, &o, &err);
    params_release(&o.cp);
    params_release(&o.tp);
    if (json)
        fputs(o.n ? "\n]\n" : "[]\n", o.fp);
    return finish(db, o.fp, outpath, rc, &err);
}
