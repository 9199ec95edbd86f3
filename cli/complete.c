/* poolbench __complete: the candidates the shell completions of
 * completion/ offer, taken from the binary itself so that they never
 * drift from it: the subcommand table, each subcommand's getopt_long
 * table, the parser table, and the names in the database. Hidden from
 * `poolbench help`; docs/cli.md, "Shell completion". */
#include "cli/cli.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_listing_options;

int cli_list_options(const struct option *opts)
{
    for (const struct option *o = opts; o->name; o++)
        printf("--%s%s\n", o->name, o->has_arg == no_argument ? "" : "=");
    return 0;
}

static int print_name(void *ctx, const char *name)
{
    (void)ctx;
    if (!strchr(name, '\n'))
        puts(name);
    return 0;
}

/* The database opened read-only, and only when the file is there (a
 * completion never creates a database); NULL otherwise. Errors print
 * nothing: a Tab press is no place for them. */
static struct pb_db *open_db(const char *dbpath)
{
    struct stat st;
    if (!dbpath || stat(dbpath, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    struct pb_db *db;
    struct pb_err err = {0};
    return pb_db_open(dbpath, 1, &db, &err) == PB_OK ? db : NULL;
}

/* Names of one kind from the database. */
static int db_names(const char *dbpath, enum pb_db_name_kind kind)
{
    struct pb_db *db = open_db(dbpath);
    struct pb_err err = {0};
    if (!db)
        return 0;
    if (pb_db_each_name(db, kind, NULL, print_name, NULL, &err) != PB_OK)
        err.code = 0;
    pb_db_close(db);
    return 0;
}

/* ==== sweep keys (--x, --series) ==== */

struct keys {
    char **v;
    size_t n, cap;
};

static int add_key(void *ctx, const struct pb_db_triple *t)
{
    struct keys *k = ctx;
    if (!t->a || strchr(t->a, '\n'))
        return 0;
    /* rows come sorted by owner, then key: the last few repeat */
    for (size_t i = k->n; i-- > 0 && i + 64 >= k->n;)
        if (!strcmp(k->v[i], t->a))
            return 0;
    PB_GROW(k->v, k->cap, k->n + 1);
    k->v[k->n++] = pb_xstrdup(t->a);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cli_sweep_keys(struct pb_db *db, size_t *n)
{
    struct pb_err err = {0};
    struct keys k = {0};
    PB_GROW(k.v, k.cap, 1);
    k.v[k.n++] = pb_xstrdup("config");
    if (pb_db_report_params(db, 0, add_key, &k, &err) == PB_OK)
        (void)!pb_db_report_params(db, 1, add_key, &k, &err);
    qsort(k.v, k.n, sizeof(*k.v), cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < k.n; i++) {
        if (u && !strcmp(k.v[i], k.v[u - 1]))
            free(k.v[i]);
        else
            k.v[u++] = k.v[i];
    }
    *n = u;
    return k.v;
}

void cli_strv_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int sweep_keys(const char *dbpath)
{
    struct pb_db *db = open_db(dbpath);
    if (!db)
        return 0;
    size_t n;
    char **v = cli_sweep_keys(db, &n);
    pb_db_close(db);
    for (size_t i = 0; i < n; i++)
        puts(v[i]);
    cli_strv_free(v, n);
    return 0;
}

static const char usage_text[] =
    "usage: poolbench __complete commands\n"
    "       poolbench __complete options COMMAND\n"
    "       poolbench __complete formats\n"
    "       poolbench __complete configs|tests|metrics|hosts|keys [--db FILE]\n"
    "\n"
    "Print completion candidates, one per line (for completion/; not meant\n"
    "to be typed). Options that take a value end in '='.\n";

int cli_complete(int argc, char **argv,
                 int (*run_command)(const char *name, int argc, char **argv),
                 const char *const *names, size_t nnames)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *what = argv[1];
    if (!strcmp(what, "commands")) {
        for (size_t i = 0; i < nnames; i++)
            puts(names[i]);
        puts("help");
        return 0;
    }
    if (!strcmp(what, "options")) {
        if (argc < 3)
            return cli_usage_error("__complete", "options wants a command");
        /* An option no command has: its getopt_long loop hands its table
         * to cli_bad_option, which lists it (cli_listing_options). */
        char *av[] = {argv[2], "--\x01", NULL};
        cli_listing_options = 1;
        int rc = run_command(argv[2], 2, av);
        cli_listing_options = 0;
        return rc;
    }
    if (!strcmp(what, "formats")) {
        for (size_t i = 0; pb_parsers[i]; i++)
            if (!(pb_parsers[i]->flags & PB_PARSER_NO_RESULTS))
                puts(pb_parsers[i]->name);
        return 0;
    }
    static const struct {
        const char *name;
        enum pb_db_name_kind kind;
    } kinds[] = {{"configs", PB_DB_CONFIGS},
                 {"tests", PB_DB_TESTS},
                 {"metrics", PB_DB_METRICS},
                 {"hosts", PB_DB_HOSTS}};
    const char *dbpath = pb_db_default_path();
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--db") && i + 1 < argc)
            dbpath = argv[++i];
        else if (!strncmp(argv[i], "--db=", 5))
            dbpath = argv[i] + 5;
    }
    if (!strcmp(what, "keys"))
        return sweep_keys(dbpath);
    for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
        if (!strcmp(what, kinds[k].name))
            return db_names(dbpath, kinds[k].kind);
    return cli_usage_error("__complete", "nothing to complete as '%s'", what);
}
