/* Declarative command options: a cli_opt table turned into getopt_long's
 * table and short option string, and each option stored where its row
 * says (cli/opt.h). */
#include "cli/opt.h"
#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* A long option with no short name gets a value no character has. */
#define LONG_ONLY 0x100

void cli_strv_release(struct cli_strv *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

static int takes_value(const struct cli_opt *o)
{
    return o->type == CLI_OPT_STR || o->type == CLI_OPT_LIST ||
           o->type == CLI_OPT_FUNC;
}

static int val_of(const struct cli_opt *o, size_t i)
{
    return o->shortname ? o->shortname : LONG_ONLY + (int)i;
}

/* getopt_long's table and short option string of table: caller frees
 * both. */
static void build(const struct cli_opt *table, struct option **lo,
                  char **shortopts)
{
    size_t n = 0;
    while (table[n].name)
        n++;
    *lo = pb_xcalloc(n + 1, sizeof(**lo));
    char *s = pb_xcalloc(2 * n + 1, 1), *w = s;
    for (size_t i = 0; i < n; i++) {
        const struct cli_opt *o = &table[i];
        (*lo)[i].name = o->name;
        (*lo)[i].has_arg = takes_value(o) ? required_argument : no_argument;
        (*lo)[i].val = val_of(o, i);
        if (o->shortname) {
            *w++ = (char)o->shortname;
            if (takes_value(o))
                *w++ = ':';
        }
    }
    *shortopts = s;
}

/* Store value by row o into args: 0, or an exit status. */
static int store(const char *cmd, const struct cli_opt *o, void *args,
                 const char *value)
{
    char *at = (char *)args + o->off;
    switch (o->type) {
    case CLI_OPT_FLAG:
        *(int *)(void *)at = 1;
        return 0;
    case CLI_OPT_STR:
        *(const char **)(void *)at = value;
        return 0;
    case CLI_OPT_LIST: {
        struct cli_strv *l = (struct cli_strv *)(void *)at;
        PB_GROW(l->v, l->cap, l->n + 1);
        l->v[l->n++] = value;
        return 0;
    }
    case CLI_OPT_FUNC:
        return o->fn(cmd, args, value);
    case CLI_OPT_HELP:
        break;
    }
    return 0;
}

int cli_opt_parse(const char *cmd, const struct cli_opt *table, void *args,
                  const char *const *help, int argc, char **argv,
                  int *status)
{
    struct option *lo;
    char *shortopts;
    build(table, &lo, &shortopts);
    int ch, go = 1;
    *status = 0;
    optind = 1;
    while (go && (ch = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
        size_t i = 0;
        while (table[i].name && val_of(&table[i], i) != ch)
            i++;
        if (!table[i].name) {
            *status = cli_bad_option(cmd, shortopts, lo, argv);
            go = 0;
        } else if (table[i].type == CLI_OPT_HELP) {
            for (size_t k = 0; help && help[k]; k++)
                fputs(help[k], stdout);
            go = 0;
        } else if ((*status = store(cmd, &table[i], args, optarg)) != 0) {
            go = 0;
        }
    }
    free(lo);
    free(shortopts);
    return go;
}
