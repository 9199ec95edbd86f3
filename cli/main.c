/* poolbench: entry point and the subcommand table. */
#include "cli/cli.h"
#include "common/pb_file.h"
#include "common/pb_out.h"
#include "cli/config.h"

#include <jansson.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <getopt.h>

#ifndef PB_VERSION
#define PB_VERSION "0.1.0"
#endif

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
};

static const struct command commands[] = {
    {"ingest", cmd_ingest, "load result files into the database"},
    {"list", cmd_list, "show sources, configs, tests or results"},
    {"export", cmd_export, "write results as CSV or JSON"},
    {"report", cmd_report, "write the HTML report"},
    {"best", cmd_best, "print the best configuration per test"},
    {"compare", cmd_compare, "compare a baseline with a candidate (CI gate)"},
    {"rm", cmd_rm, "remove sources and everything of them"},
    {"relabel", cmd_relabel, "rename a configuration label"},
    {"run", cmd_run, "run a plan of fio benchmarks on fresh ZFS pools"},
    {"doctor", cmd_doctor, "check what run needs on this machine"},
    {"db", cmd_db, "compact the database file"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *fp)
{
    fprintf(fp, "usage: poolbench <command> [options] [args]\n"
                "       poolbench help [command]\n"
                "       poolbench --version [--short]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(fp, "\nThe database is --db FILE, else $POOLBENCH_DB, else "
                "the config file's db, else\n./poolbench.db. Config file: "
                "$POOLBENCH_CONFIG, else\n$XDG_CONFIG_HOME/poolbench/config "
                "(~/.config/poolbench/config).\n"
                "Run 'poolbench <command> --help' for a command's options, "
                "'poolbench --version'\nfor the version, the libraries and "
                "the fio and ZFS found.\n");
}

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("poolbench: ", stderr);
    if (cmd)
        fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "Try 'poolbench %s --help'.\n", cmd);
    return 2;
}

int cli_fail(const struct pb_err *err)
{
    pb_err_print(err, stderr);
    return pb_err_exit_code(err->code);
}

void cli_csv_field(FILE *fp, const char *s)
{
    static struct pb_buf b = PB_BUF_INIT;
    pb_buf_reset(&b);
    pb_csv_field(&b, s);
    fwrite(pb_buf_str(&b), 1, b.len, fp);
}

int cli_check_output(const char *cmd, const char *out, const char *db)
{
    struct pb_keep keep;
    struct pb_err err = {0};
    pb_keep_init(&keep);
    pb_keep_add_db(&keep, db);
    if (!pb_keep_check(&keep, out, &err))
        return 0;
    char *msg = pb_term_str(err.msg); /* names may hold control bytes */
    int rc = cli_usage_error(cmd, "%s", msg);
    free(msg);
    return rc;
}

json_t *cli_json_str(const char *s)
{
    return pb_jout_str(s);
}

json_t *cli_json_value(const char *s)
{
    return pb_jout_value(s);
}

static int run_command(const char *name, int argc, char **argv)
{
    const struct command *c = find(name);
    if (!c)
        return cli_usage_error(NULL, "no such command '%s'", name);
    return c->fn(argc, argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    opterr = 0; /* the commands say what is wrong (cli_bad_option) */
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "version"))
        return cli_version(argc - 1, argv + 1);
    if (!strcmp(name, "__complete")) {
        (void)cli_config_init(1);
        const char *names[NCOMMANDS];
        for (size_t i = 0; i < NCOMMANDS; i++)
            names[i] = commands[i].name;
        return cli_complete(argc - 1, argv + 1, run_command, names,
                            NCOMMANDS);
    }
    if (!strcmp(name, "help")) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        const struct command *c = find(argv[2]);
        if (!c)
            return cli_usage_error(NULL, "no such command '%s'", argv[2]);
        char *av[] = {argv[2], "--help", NULL};
        return c->fn(2, av);
    }
    const struct command *c = find(name);
    int help = argc > 2 && (!strcmp(argv[2], "--help") ||
                            !strcmp(argv[2], "-h"));
    if (c && !help && cli_config_init(0) != 0)
        return 2;
    if (!c) {
        fprintf(stderr, "poolbench: '%s' is not a poolbench command.", name);
        const char *names[NCOMMANDS];
        for (size_t i = 0; i < NCOMMANDS; i++)
            names[i] = commands[i].name;
        const char *sugg = cli_nearest(name, names, NCOMMANDS);
        if (sugg)
            fprintf(stderr, " Did you mean '%s'?", sugg);
        fprintf(stderr, "\nSee 'poolbench --help'.\n");
        return 2;
    }
    return c->fn(argc - 1, argv + 1);
}
