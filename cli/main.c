/* poolbench: entry point and the subcommand table. */
#include "cli/cli.h"
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
    {"rm", cmd_rm, "remove sources and everything of them"},
    {"relabel", cmd_relabel, "rename a configuration label"},
    {"run", cmd_run, "run a plan of fio benchmarks on fresh ZFS pools"},
    {"doctor", cmd_doctor, "check what run needs on this machine"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *fp)
{
    fprintf(fp, "usage: poolbench <command> [options] [args]\n"
                "       poolbench help [command]\n"
                "       poolbench --version\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(fp, "\nThe database is --db FILE, else $POOLBENCH_DB, else "
                "the config file's db, else\n./poolbench.db. Config file: "
                "$POOLBENCH_CONFIG, else\n$XDG_CONFIG_HOME/poolbench/config "
                "(~/.config/poolbench/config).\n"
                "Run 'poolbench <command> --help' for a command's options.\n");
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

/* A cell a spreadsheet would run as a formula: = + - @ (or a tab or CR,
 * which some strip first) at the start of a text that is not a number. */
static int csv_formula(const char *s)
{
    if (!strchr("=+-@\t\r", s[0]) || !s[0])
        return 0;
    char *end;
    errno = 0;
    (void)strtod(s, &end);
    return end == s || *end != '\0';
}

void cli_csv_field(FILE *fp, const char *s)
{
    if (!s)
        return;
    int formula = csv_formula(s);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    /* OWASP's advice for formula injection: a leading ' and quotes. */
    fputc('"', fp);
    if (formula)
        fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

int cli_check_output(const char *cmd, const char *out, const char *db)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    struct stat o, d;
    if (!out || !db || stat(out, &o) != 0)
        return 0; /* a new file cannot be an input */
    for (size_t i = 0; i < sizeof(sfx) / sizeof(*sfx); i++) {
        char *p = pb_xasprintf("%s%s", db, sfx[i]);
        int same = stat(p, &d) == 0 && d.st_dev == o.st_dev &&
                   d.st_ino == o.st_ino;
        free(p);
        if (same)
            return cli_usage_error(cmd, "refusing to write '%s': it is %s%s"
                                   "the database '%s'", out,
                                   i ? sfx[i] : "", i ? " file of " : "", db);
    }
    return 0;
}

json_t *cli_json_str(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    /* Not UTF-8 (a file name in Latin-1, say): the bytes that are not
     * UTF-8 are written as \xHH rather than the field dropped. */
    char *e = pb_term_str(s);
    j = json_string(e);
    free(e);
    return j ? j : json_null();
}

/* The JSON number grammar (RFC 8259, section 6). */
static int json_number_text(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return 0;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

json_t *cli_json_value(const char *s)
{
    if (!s || !json_number_text(s))
        return cli_json_str(s);
    if (!strpbrk(s, ".eE") && strlen(s) < 19)
        return json_integer(strtoll(s, NULL, 10));
    double d = strtod(s, NULL);
    return isfinite(d) ? json_real(d) : cli_json_str(s);
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
