/* poolbench best: the winning configuration per test, on the terminal. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"
#include "render/render.h"

#include <getopt.h>
#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench best [--db FILE] [--test RE] [--config RE] [--metric RE]\n"
    "                      [--host RE] [--ignore-param LIST] [--raw|--json]\n"
    "\n"
    "Print the best configuration of every test (its main metric: IOPS for\n"
    "random fio workloads, bandwidth otherwise; every metric matching\n"
    "--metric when given) with the runner-up, the margin and the verdict,\n"
    "as the report's \"Best configuration per test\" table. The verdict is\n"
    "the test compare uses, best against runner-up at 0.05 (Welch's\n"
    "t-test; Mann-Whitney on enough stored repeats): clear, not\n"
    "distinguishable, or not judged (a single run on a side). Tests that\n"
    "only one configuration ran are left out (counted on stderr).\n"
    "\n"
    "  --db FILE     database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --test RE, --config RE, --metric RE, --host RE\n"
    "                keep results whose field matches the PCRE2 pattern\n"
    "  --ignore-param LIST\n"
    "                test parameters that do not make tests different\n"
    "                (default runtime,size,ramp_time,time_based; 'none')\n"
    "  --raw         exact numbers in canonical units (ops/s, B/s, ns)\n"
    "  --json        a JSON array of objects, numbers as JSON numbers\n"
    "  -h, --help    show this help\n";

/* Display width of UTF-8 text: code points (µ and ± are one column). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

#define NCOL 8
struct best_ctx {
    int raw;
    json_t *json;
    char **cells; /* row-major, NCOL per row */
    size_t nrows, cap;
};

static void add_row(struct best_ctx *c, const char *const *v)
{
    PB_GROW(c->cells, c->cap, (c->nrows + 1) * NCOL);
    for (size_t i = 0; i < NCOL; i++)
        c->cells[c->nrows * NCOL + i] = pb_term_str(v[i] ? v[i] : "");
    c->nrows++;
}

static json_t *side(const char *config, double v, double se, long n)
{
    json_t *o = json_object();
    json_object_set_new(o, "config", cli_json_str(config));
    json_object_set_new(o, "value", json_real(v));
    json_object_set_new(o, "stderr", se >= 0 ? json_real(se) : json_null());
    json_object_set_new(o, "n", json_integer(n));
    return o;
}

static int on_best(void *vctx, const struct pb_render_best *b)
{
    struct best_ctx *c = vctx;
    if (c->json) {
        json_t *o = json_object();
        json_object_set_new(o, "test", cli_json_str(b->test));
        json_object_set_new(o, "tool", cli_json_str(b->tool));
        json_object_set_new(o, "metric", cli_json_str(b->metric));
        json_object_set_new(o, "unit", cli_json_str(b->unit));
        json_object_set_new(o, "direction",
                            json_string(b->higher ? "higher" : "lower"));
        json_object_set_new(o, "best", side(b->best, b->value, b->se, b->n));
        json_object_set_new(o, "runner_up",
                            b->runner ? side(b->runner, b->runner_value,
                                             b->runner_se, b->runner_n)
                                      : json_null());
        json_object_set_new(o, "margin",
                            b->runner ? json_real(b->margin) : json_null());
        json_object_set_new(o, "verdict", json_string(b->verdict));
        json_object_set_new(o, "verdict_text", json_string(b->verdict_text));
        json_object_set_new(o, "method", json_string(b->method));
        json_object_set_new(o, "p", strcmp(b->method, "none")
                                        ? json_real(b->p)
                                        : json_null());
        json_object_set_new(o, "why", cli_json_str(b->why));
        json_array_append_new(c->json, o);
        return 0;
    }
    char v[96], rv[96], m[64];
    const char *value = b->value_text, *rvalue = b->runner_text;
    const char *margin = b->margin_text;
    if (c->raw) {
        char num[40], se[40];
        pb_fmt_num(b->value, num, sizeof(num));
        if (b->se >= 0) {
            pb_fmt_num(b->se, se, sizeof(se));
            snprintf(v, sizeof(v), "%s ± %s %s", num, se, b->unit);
        } else {
            snprintf(v, sizeof(v), "%s %s", num, b->unit);
        }
        value = v;
        if (b->runner) {
            pb_fmt_num(b->runner_value, num, sizeof(num));
            if (b->runner_se >= 0) {
                pb_fmt_num(b->runner_se, se, sizeof(se));
                snprintf(rv, sizeof(rv), "%s ± %s %s", num, se, b->unit);
            } else {
                snprintf(rv, sizeof(rv), "%s %s", num, b->unit);
            }
            pb_fmt_num(b->margin * 100, num, sizeof(num));
            snprintf(m, sizeof(m), "+%s%%", num);
            rvalue = rv;
            margin = m;
        }
    }
    const char *row[NCOL] = {b->test, c->raw ? b->metric : b->metric_title,
                             b->best, value, b->runner ? b->runner : "–",
                             b->runner ? rvalue : "", margin,
                             b->verdict_text};
    add_row(c, row);
    return 0;
}

static void print_table(struct best_ctx *c)
{
    static const char *const head[NCOL] = {"test", "metric", "best", "value",
                                           "runner-up", "value", "margin",
                                           "verdict"};
    size_t w[NCOL];
    for (size_t k = 0; k < NCOL; k++) {
        w[k] = width(head[k]);
        for (size_t r = 0; r < c->nrows; r++) {
            size_t x = width(c->cells[r * NCOL + k]);
            if (x > w[k])
                w[k] = x;
        }
    }
    for (size_t r = 0; r <= c->nrows; r++)
        for (size_t k = 0; k < NCOL; k++) {
            const char *s = r ? c->cells[(r - 1) * NCOL + k] : head[k];
            if (k + 1 == NCOL) {
                printf("%s\n", s);
                continue;
            }
            /* numbers right-aligned */
            int right = r && (k == 3 || k == 5 || k == 6);
            size_t pad = w[k] - width(s);
            if (right)
                printf("%*s%s  ", (int)pad, "", s);
            else
                printf("%s%*s  ", s, (int)pad, "");
        }
}

struct best_args {
    const char *db, *ignore;
    struct pb_db_filter filter;
    int raw, json;
};

#define A(f) offsetof(struct best_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt best_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"test", 0, CLI_OPT_STR, A(filter.test_re), NULL},
    {"config", 0, CLI_OPT_STR, A(filter.config_re), NULL},
    {"metric", 0, CLI_OPT_STR, A(filter.metric_re), NULL},
    {"host", 0, CLI_OPT_STR, A(filter.host_re), NULL},
    {"ignore-param", 0, CLI_OPT_STR, A(ignore), NULL},
    {"raw", 0, CLI_OPT_FLAG, A(raw), NULL},
    {"json", 0, CLI_OPT_FLAG, A(json), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_best(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct best_args a = {0};
    a.db = pb_db_default_path();
    int ostatus;
    if (!cli_opt_parse("best", best_opts, &a, help, argc, argv, &ostatus))
        return ostatus;
    const char *dbpath = a.db;
    struct pb_render_opts ro;
    memset(&ro, 0, sizeof(ro));
    ro.filter = a.filter;
    struct best_ctx c;
    memset(&c, 0, sizeof(c));
    c.raw = a.raw;
    int json = a.json;
    const char *ignore = a.ignore;
    if (optind < argc)
        return cli_usage_error("best", "unexpected argument '%s'",
                               argv[optind]);
    if (json && c.raw)
        return cli_usage_error("best", "give at most one of --raw, --json");
    int irc = cli_ignore_params("best", ignore, &ro.ignore_params);
    if (irc)
        return irc;
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 1, &db, &err) != PB_OK)
        return cli_fail(&err);
    int frc = cli_check_filter(db, "best", &ro.filter);
    if (frc) {
        pb_db_close(db);
        return frc;
    }
    if (json)
        c.json = json_array();
    size_t single = 0;
    struct pb_an_best *bl;
    int rc = pb_an_best_load(db, &ro.filter, ro.ignore_params, &bl, &err);
    if (rc == PB_OK) {
        rc = pb_render_best(bl, on_best, &c, &single);
        pb_an_best_free(bl);
    }
    pb_db_close(db);
    if (rc == PB_OK) {
        if (json) {
            json_dumpf(c.json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                           JSON_REAL_PRECISION(17));
            fputc('\n', stdout);
        } else if (c.nrows) {
            print_table(&c);
        }
        if (!c.nrows && !json)
            fprintf(stderr, "poolbench: best: no test has two "
                            "configurations to compare\n");
        if (single)
            fprintf(stderr, "poolbench: best: %zu test/metric pair%s with a "
                            "single configuration left out\n",
                    single, single == 1 ? "" : "s");
    }
    for (size_t i = 0; i < c.nrows * NCOL; i++)
        free(c.cells[i]);
    free(c.cells);
    json_decref(c.json);
    free((void *)ro.ignore_params);
    return rc == PB_OK ? 0 : cli_fail(&err);
}
