/* poolbench report: write the static HTML report (and PNGs, a PDF). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/opt.h"
#include "model/db.h"
#include "render/render.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PB_VERSION
#define PB_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: poolbench report [--db FILE] [-o|--output DIR] [--title TEXT]\n"
    "                        [--test RE] [--config RE] [--metric RE]\n"
    "                        [--host RE] [--x KEY] [--series KEY] [--png]\n"
    "                        [--pdf FILE] [--timestamp] [--force]\n"
    "                        [--ignore-param LIST] [--per-job] [--raw-rows N]\n"
    "                        [--latency-axis nines|linear] [-q|--quiet]\n"
    "\n"
    "Write a self-contained HTML report of the database: DIR/index.html,\n"
    "DIR/charts/*.svg with each chart's data as CSV beside it, and every\n"
    "result as DIR/results.csv and DIR/results.json (up to --raw-rows\n"
    "results; beyond, index.html gives the export command instead). Tables\n"
    "longer than 1000 rows are paged (DIR/STEM-002.html, ...). A new\n"
    "report replaces the last one in DIR only once all of it is written\n"
    "(DIR/.poolbench-report lists its files; files\n"
    "poolbench did not write are never removed). DIR must be yours and not\n"
    "writable by others. The same database gives byte-identical files. When the results by test\n"
    "would hold more than 200 charts, they go on pages of their own\n"
    "(DIR/tests-001.html, ...; 100 charts each, inline SVG), linked from\n"
    "index.html. When the sources shown span several runs or ingest days,\n"
    "a History section follows each test over them and flags step\n"
    "changes (Welch's t-test, p < 0.05).\n"
    "\n"
    "  --db FILE       database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  -o, --output DIR  where to write (default ./report)\n"
    "  --title TEXT    page title (default: the config file's report.title,\n"
    "                  else from the sources)\n"
    "  --test RE       only tests whose name matches (PCRE2, anywhere)\n"
    "  --config RE     only configurations whose label matches\n"
    "  --metric RE     only metrics whose name matches; every matching metric\n"
    "                  gets a chart (e.g. --metric 'clat_p99' for latency)\n"
    "  --host RE       only results of matching hosts\n"
    "  --x KEY         sweep dimension for the x axis (a config or test\n"
    "                  parameter such as recordsize or bs; 'config' = label);\n"
    "                  alone, it may draw every configuration by KEY\n"
    "  --series KEY    sweep dimension for the series\n"
    "  --png           also write DIR/charts/*.png for forum posts\n"
    "  --pdf FILE      also write one PDF with every chart and table\n"
    "  --timestamp     print the generation time in the footer\n"
    "  --force         write into a folder that holds other files and no\n"
    "                  poolbench report (those files are kept)\n"
    "  --ignore-param LIST\n"
    "                  test parameters that do not make tests different:\n"
    "                  tests differing only in them are compared as one\n"
    "                  (default runtime,size,ramp_time,time_based; 'none'\n"
    "                  keeps every parameter)\n"
    "  --per-job       time series of fio logs: a line per job, not per\n"
    "                  configuration (jobs summed or averaged)\n"
    "  --latency-axis nines|linear\n"
    "                  y axis of the latency CDFs drawn from fio json+ bins:\n"
    "                  nines (90%, 99%, 99.9%, ...; default) or linear %\n"
    "  --raw-rows N    write results.csv and results.json only when the\n"
    "                  report has at most N results (default 100000; 0 =\n"
    "                  always); beyond, index.html names the export command\n"
    "                  that gives them all\n"
    "  -q, --quiet     print only errors\n"
    "  -h, --help      show this help\n";

/* Results a report writes whole as results.csv/json (--raw-rows):
 * 100,000 are ~60 MB of JSON and ~30 MB of CSV (docs/report.md,
 * "Output at scale"). */
#define RAW_ROWS 100000

/* s for a POSIX shell: as is when plain, else in single quotes. */
static void sh_word(struct pb_buf *b, const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = isalnum((unsigned char)*p) || strchr("_./=:,+-@%", *p);
    if (plain) {
        pb_buf_puts(b, s);
        return;
    }
    pb_buf_putc(b, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            pb_buf_puts(b, "'\\''");
        else
            pb_buf_putc(b, *p);
    }
    pb_buf_putc(b, '\'');
}

/* The export command that gives every result of this report. */
static char *export_cmd(const char *dbpath, const struct pb_db_filter *f)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "poolbench export --db ");
    sh_word(&b, dbpath);
    pb_buf_puts(&b, " --csv");
    const struct {
        const char *opt, *re;
    } fl[] = {{" --test ", f->test_re},
              {" --config ", f->config_re},
              {" --metric ", f->metric_re},
              {" --host ", f->host_re}};
    for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
        if (!fl[i].re)
            continue;
        pb_buf_puts(&b, fl[i].opt);
        sh_word(&b, fl[i].re);
    }
    pb_buf_puts(&b, " -o results.csv");
    return pb_buf_take(&b);
}

/* --x/--series name a key no result has (a typo): say so with the
 * nearest key and every key there is, before the report is read. Keys
 * that exist but cannot be drawn are explained by pb_render_report. */
static int check_sweep_key(struct pb_db *db, const char *opt, const char *key)
{
    if (!key || !strcmp(key, "config") || !strcmp(key, "label") ||
        !strcmp(key, "test"))
        return 0;
    const char *k = key;
    if (!strncmp(k, "config.", 7) || !strncmp(k, "config:", 7))
        k += 7;
    else if (!strncmp(k, "test.", 5) || !strncmp(k, "test:", 5))
        k += 5;
    size_t n;
    char **v = cli_sweep_keys(db, &n);
    int known = 0;
    for (size_t i = 0; i < n && !known; i++)
        known = !strcmp(v[i], k);
    if (known) {
        cli_strv_free(v, n);
        return 0;
    }
    struct cli_nearest near;
    cli_nearest_init(&near, k);
    struct pb_buf all = PB_BUF_INIT;
    pb_buf_puts(&all, "");
    for (size_t i = 0; i < n; i++) {
        cli_nearest_add(&near, v[i]);
        char *t = pb_term_str(v[i]);
        pb_buf_printf(&all, "%s%s", i ? ", " : "", t);
        free(t);
    }
    char *tk = pb_term_str(key);
    int rc = cli_usage_error(
        "report",
        "%s '%s' is not a dimension of these results%s%s%s "
        "(their dimensions: %s)",
        opt, tk, near.best ? "; did you mean '" : "",
        near.best ? near.best : "", near.best ? "'?" : "", pb_buf_str(&all));
    free(tk);
    pb_buf_release(&all);
    cli_nearest_release(&near);
    cli_strv_free(v, n);
    return rc;
}

int cli_report_write(struct pb_db *db, const struct pb_render_opts *ro,
                     struct pb_render_summary *sum, char **why,
                     struct pb_err *err)
{
    memset(sum, 0, sizeof(*sum));
    struct pb_an_report_opts ao;
    pb_render_an_opts(ro, &ao);
    struct pb_an_report *rep;
    int rc = pb_an_report_load(db, &ao, &rep, why, err);
    if (rc)
        return rc;
    rc = pb_render_report(rep, ro, sum, err);
    pb_an_report_free(rep);
    return rc;
}

struct report_args {
    const char *db, *ignore;
    struct pb_render_opts ro;
    int stamp, quiet;
};

static int opt_latency_axis(const char *cmd, void *args, const char *v)
{
    if (strcmp(v, "nines") && strcmp(v, "linear"))
        return cli_usage_error(cmd,
                               "--latency-axis is nines or linear, "
                               "not '%s'",
                               v);
    ((struct report_args *)args)->ro.latency_linear = !strcmp(v, "linear");
    return 0;
}

static int opt_raw_rows(const char *cmd, void *args, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (!isdigit((unsigned char)v[0]) || *end || errno || n > SIZE_MAX)
        return cli_usage_error(cmd,
                               "--raw-rows wants a number of "
                               "results (0 = no limit), not '%s'",
                               v);
    ((struct report_args *)args)->ro.raw_rows = (size_t)n;
    return 0;
}

#define A(f) offsetof(struct report_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt report_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"output", 'o', CLI_OPT_STR, A(ro.outdir), NULL},
    {"title", 0, CLI_OPT_STR, A(ro.title), NULL},
    {"test", 0, CLI_OPT_STR, A(ro.filter.test_re), NULL},
    {"config", 0, CLI_OPT_STR, A(ro.filter.config_re), NULL},
    {"metric", 0, CLI_OPT_STR, A(ro.filter.metric_re), NULL},
    {"host", 0, CLI_OPT_STR, A(ro.filter.host_re), NULL},
    {"x", 0, CLI_OPT_STR, A(ro.x_key), NULL},
    {"series", 0, CLI_OPT_STR, A(ro.series_key), NULL},
    {"png", 0, CLI_OPT_FLAG, A(ro.png), NULL},
    {"pdf", 0, CLI_OPT_STR, A(ro.pdf_path), NULL},
    {"timestamp", 0, CLI_OPT_FLAG, A(stamp), NULL},
    {"force", 0, CLI_OPT_FLAG, A(ro.force), NULL},
    {"quiet", 'q', CLI_OPT_FLAG, A(quiet), NULL},
    {"ignore-param", 0, CLI_OPT_STR, A(ignore), NULL},
    {"per-job", 0, CLI_OPT_FLAG, A(ro.per_job), NULL},
    {"latency-axis", 0, CLI_OPT_FUNC, 0, opt_latency_axis},
    {"raw-rows", 0, CLI_OPT_FUNC, 0, opt_raw_rows},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_report(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct report_args a;
    memset(&a, 0, sizeof(a));
    a.db = pb_db_default_path();
    a.ro.outdir = "report";
    a.ro.version = PB_VERSION;
    a.ro.title = cli_config()->title; /* --title wins */
    a.ro.palette = cli_config()->palette;
    a.ro.npalette = cli_config()->npalette;
    a.ro.raw_rows = RAW_ROWS;
    int ostatus;
    if (!cli_opt_parse("report", report_opts, &a, help, argc, argv, &ostatus))
        return ostatus;
    const char *dbpath = a.db;
    struct pb_render_opts ro = a.ro;
    int stamp = a.stamp, quiet = a.quiet;
    const char *ignore = a.ignore;
    if (optind < argc)
        return cli_usage_error("report", "unexpected argument '%s'",
                               argv[optind]);
    if (!*ro.outdir)
        return cli_usage_error("report", "empty output directory");
    int irc = cli_ignore_params("report", ignore, &ro.ignore_params);
    if (irc)
        return irc;
    char when[40];
    if (stamp) {
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
        ro.timestamp = when;
    }
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 1, &db, &err) != PB_OK) {
        free((void *)ro.ignore_params);
        return cli_fail(&err);
    }
    /* Checked with the database open, when its -wal and -shm exist. */
    int frc = 0;
    if (cli_check_output("report", ro.pdf_path, dbpath) ||
        cli_check_output("report", ro.outdir, dbpath))
        frc = 2;
    if (!frc)
        frc = cli_check_filter(db, "report", &ro.filter);
    if (!frc)
        frc = check_sweep_key(db, "--x", ro.x_key);
    if (!frc)
        frc = check_sweep_key(db, "--series", ro.series_key);
    if (frc) {
        pb_db_close(db);
        free((void *)ro.ignore_params);
        return frc;
    }
    struct pb_render_summary sum;
    char *ecmd = export_cmd(dbpath, &ro.filter);
    ro.export_cmd = ecmd;
    char *why = NULL;
    int rc = cli_report_write(db, &ro, &sum, &why, &err);
    pb_db_close(db);
    free(ecmd);
    free((void *)ro.ignore_params);
    if (rc != PB_OK && why) {
        /* in full: the error keeps only its first 255 bytes */
        char *t = pb_term_str(why);
        fprintf(stderr, "poolbench: %s\n", t);
        free(t);
        free(why);
        return pb_err_exit_code(err.code);
    }
    if (rc != PB_OK)
        return cli_fail(&err);
    if (!quiet) {
        fprintf(stderr,
                "poolbench: wrote %s/index.html: %zu results, %zu charts, "
                "%zu tables",
                ro.outdir, sum.results, sum.charts, sum.tables);
        if (sum.pages)
            fprintf(stderr, ", %zu test pages", sum.pages);
        if (sum.table_pages)
            fprintf(stderr, ", %zu more pages of long tables",
                    sum.table_pages);
        if (ro.png)
            fprintf(stderr, ", %zu PNGs", sum.pngs);
        if (ro.pdf_path)
            fprintf(stderr, "; PDF %s", ro.pdf_path);
        fputc('\n', stderr);
        if (ro.raw_rows && sum.results > ro.raw_rows)
            fprintf(stderr,
                    "poolbench: results.csv and results.json not written "
                    "(%zu results, --raw-rows %zu); index.html names the "
                    "export command\n",
                    sum.results, ro.raw_rows);
    }
    return 0;
}
