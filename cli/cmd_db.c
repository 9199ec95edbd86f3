/* poolbench db: upkeep of the database file itself (db compact). */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage_text[] =
    "usage: poolbench db compact [--db FILE]\n"
    "\n"
    "Upkeep of the database file. Actions:\n"
    "  compact   rewrite the file without the space deleted rows left\n"
    "            (VACUUM), refresh the query planner's statistics (ANALYZE,\n"
    "            PRAGMA optimize) and fold the -wal file back into it; print\n"
    "            its size before and after. Needs free disk space of about\n"
    "            the file's size while it runs; other processes wait.\n"
    "\n"
    "  --db FILE   database (default $POOLBENCH_DB, else ./poolbench.db);\n"
    "              never created, and another program's SQLite file is\n"
    "              refused unchanged (exit 3)\n"
    "  -h, --help  show this help\n";

static const char *const actions[] = {"compact"};

static int compact(const char *dbpath)
{
    struct pb_err err = {0};
    struct stat st;
    if (stat(dbpath, &st) != 0) {
        pb_err_set(&err, PB_EDB, dbpath, 0, 0, "no database here: %s",
                   strerror(errno));
        return cli_fail(&err);
    }
    struct pb_db *db;
    if (pb_db_open(dbpath, 0, &db, &err) != PB_OK)
        return cli_fail(&err);
    long long before = 0, after = 0;
    int rc = pb_db_compact(db, &before, &after, &err);
    pb_db_close(db);
    if (rc)
        return cli_fail(&err);
    char *p = pb_term_str(dbpath);
    double pct = 0.0;
    if (before > 0)
        pct = 100.0 * (double)(before - after) / (double)before;
    /* it grows when there was nothing to give back: ANALYZE's statistics */
    printf("%s: %lld -> %lld bytes (%.1f MB -> %.1f MB, %.1f%% %s)\n", p,
           before, after, (double)before / 1e6, (double)after / 1e6,
           pct < 0 ? -pct : pct, pct < 0 ? "larger" : "smaller");
    free(p);
    return 0;
}

struct db_args {
    const char *db;
};

static const struct cli_opt db_opts[] = {
    {"db", 0, CLI_OPT_STR, offsetof(struct db_args, db), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};

int cmd_db(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct db_args args = {pb_db_default_path()};
    int status;
    if (!cli_opt_parse("db", db_opts, &args, help, argc, argv, &status))
        return status;
    const char *dbpath = args.db;
    if (argc - optind < 1)
        return cli_usage_error("db", "give an action: compact");
    if (argc - optind > 1)
        return cli_usage_error("db", "one action at a time ('%s' is one too "
                               "many)", argv[optind + 1]);
    const char *act = argv[optind];
    if (!strcmp(act, "compact"))
        return compact(dbpath);
    const char *near = cli_nearest(act, actions, 1);
    char *a = pb_term_str(act);
    int rc = near ? cli_usage_error("db", "no action '%s'; did you mean "
                                    "'%s'?", a, near)
                  : cli_usage_error("db", "no action '%s' (actions: "
                                    "compact)", a);
    free(a);
    return rc;
}
