/* Declarative command options (cli/opt.c), like fio's fio_options[]: a
 * command lists its options once, each with its long and short name,
 * whether it takes a value and where the value goes, and
 * cli_opt_parse() runs getopt_long over the table. The table's order is
 * the getopt table's: it decides the order of "ambiguous" and "did you
 * mean" messages and of completion. The --help text stays the command's
 * own usage text (its layout is not the table's order).
 *
 * Use:
 *   1. a struct of the command's arguments, zeroed and given defaults;
 *   2. a `static const struct cli_opt opts[]` ending in {NULL};
 *   3. cli_opt_parse(); when it says so, return its exit status;
 *   4. the operands are argv[optind..argc); free lists with
 *      cli_strv_release(). May include common/ only. */
#ifndef PB_CLI_OPT_H
#define PB_CLI_OPT_H

#include "common/pb.h"

#include <stddef.h>

/* A repeatable option's values, borrowed from argv. */
struct cli_strv {
    const char **v; /* NULL until the first */
    size_t n, cap;
};
void cli_strv_release(struct cli_strv *s);

enum cli_opt_type {
    CLI_OPT_FLAG, /* no value: the int at off becomes 1 */
    CLI_OPT_STR,  /* a value: the const char * at off points to it */
    CLI_OPT_LIST, /* a repeatable value: added to the cli_strv at off */
    CLI_OPT_FUNC, /* a value given to fn, which checks and stores it */
    CLI_OPT_HELP  /* prints the help text: the command ends, exit 0 */
};

struct cli_opt {
    const char *name; /* long name, "db"; NULL ends the table */
    int shortname;    /* 'j', or 0 */
    enum cli_opt_type type;
    size_t off; /* offsetof() the destination in the command's struct */
    /* CLI_OPT_FUNC: args is the command's struct; 0, or an exit status
     * (the usage error printed) */
    int (*fn)(const char *cmd, void *args, const char *value);
};

/* Parse the options of argv (from argv[1]) by table into args; help is
 * printed (its parts in order, up to NULL) for CLI_OPT_HELP. Returns 1
 * when the command goes on (optind at the first operand), else 0 with
 * *status the exit status to return: 0 after --help, 2 after a usage
 * error (printed, with "did you mean": cli_bad_option). */
int cli_opt_parse(const char *cmd, const struct cli_opt *table, void *args,
                  const char *const *help, int argc, char **argv,
                  int *status) PB_WUR;

#endif
