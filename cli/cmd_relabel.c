/* poolbench relabel: rename a configuration label, atomically. */
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/opt.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench relabel [--db FILE] [--source PATH]... [--rules FILE]\n"
    "                         [-q|--quiet] OLD NEW\n"
    "\n"
    "Give the results of configuration label OLD the label NEW, in one\n"
    "transaction. Dimensions the label rules read out of OLD are dropped and\n"
    "those they read out of NEW added (dimensions of the file itself, --set\n"
    "and commands stay). Dimensions a companion ZFS output ingested with\n"
    "--label OLD attached move with it; a configuration sheet's rows stay\n"
    "with the label they name (docs/model.md, \"Fixing the database\").\n"
    "Configurations that now agree are merged.\n"
    "\n"
    "  --db FILE       database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --source PATH   move only the results of this source (a path as\n"
    "                  'poolbench list' shows it, or a source id); repeatable\n"
    "  --rules FILE    extra label rules, as for ingest\n"
    "  -q, --quiet     print only errors\n"
    "  -h, --help      show this help\n";

/* What the label rules read out of label: owned copies in *out. */
static void label_dims(const struct pb_label_rules *rules, const char *label,
                       struct pb_kv **out, size_t *n)
{
    struct pb_resultset *set = pb_resultset_new();
    size_t c = pb_rs_config(set, label);
    pb_label_extract(rules, set, c);
    *n = set->configs[c].nparams;
    *out = pb_xcalloc(*n ? *n : 1, sizeof(**out));
    for (size_t i = 0; i < *n; i++) {
        (*out)[i].key = pb_xstrdup(set->configs[c].params[i].key);
        (*out)[i].value = pb_xstrdup(set->configs[c].params[i].value);
        (*out)[i].origin = set->configs[c].params[i].origin
                               ? pb_xstrdup(set->configs[c].params[i].origin)
                               : NULL;
    }
    pb_resultset_free(set);
}

static void kv_free(struct pb_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)kv[i].key);
        free((char *)kv[i].value);
        free((char *)kv[i].origin);
    }
    free(kv);
}

struct labels {
    const char *want;
    int found;
    struct cli_nearest near;
};

static int on_config(void *ctx, const struct pb_db_entity *e)
{
    struct labels *l = ctx;
    if (e->nresults > 0 && !strcmp(e->name, l->want))
        l->found = 1;
    if (e->nresults > 0)
        cli_nearest_add(&l->near, e->name);
    return 0;
}

struct relabel_args {
    const char *db, *rules;
    struct cli_strv sources;
    int quiet;
};

#define A(f) offsetof(struct relabel_args, f)
static const struct cli_opt relabel_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"source", 0, CLI_OPT_LIST, A(sources), NULL},
    {"rules", 0, CLI_OPT_STR, A(rules), NULL},
    {"quiet", 'q', CLI_OPT_FLAG, A(quiet), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_relabel(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct relabel_args a = {0};
    a.db = pb_db_default_path();
    a.rules = cli_config()->rules; /* --rules wins */
    int status;
    if (!cli_opt_parse("relabel", relabel_opts, &a, help, argc, argv,
                       &status)) {
        cli_strv_release(&a.sources);
        return status;
    }
    const char *dbpath = a.db, *rules_path = a.rules;
    const char **srcs = a.sources.v; /* freed below */
    size_t nsrcs = a.sources.n;
    int quiet = a.quiet;
    if (argc - optind != 2) {
        free(srcs);
        return cli_usage_error("relabel", "give OLD and NEW labels");
    }
    const char *old = argv[optind], *new = argv[optind + 1];
    if (!*new) {
        free(srcs);
        return cli_usage_error("relabel", "the new label is empty");
    }
    struct pb_err err = {0};
    struct pb_label_rules *rules = NULL;
    if (pb_label_rules_load(rules_path, &rules, &err) != PB_OK) {
        free(srcs);
        return cli_fail(&err);
    }
    struct pb_db *db;
    if (pb_db_open(dbpath, 0, &db, &err) != PB_OK) {
        pb_label_rules_free(rules);
        free(srcs);
        return cli_fail(&err);
    }
    status = 0;
    long long *ids = NULL;
    size_t nids = 0, capids = 0;
    struct pb_kv *od = NULL, *nd = NULL;
    size_t nod = 0, nnd = 0;
    struct labels l = {old, 0, {0}};
    cli_nearest_init(&l.near, old);
    int rc = pb_db_each_config(db, on_config, &l, &err);
    if (rc)
        goto fail;
    if (!l.found) {
        status = l.near.best
                     ? cli_usage_error("relabel", "no configuration '%s'; did "
                                       "you mean '%s'?", old, l.near.best)
                     : cli_usage_error("relabel", "no configuration '%s' "
                                       "(see 'poolbench list configs')", old);
        goto out;
    }
    for (size_t i = 0; i < nsrcs; i++) {
        struct pb_db_select sel = {srcs[i], NULL, NULL, NULL};
        long long *one = NULL;
        size_t n1 = 0;
        if ((rc = pb_db_select_sources(db, &sel, &one, &n1, &err)))
            goto fail;
        if (!n1) {
            status = cli_usage_error("relabel", "no source '%s' (see "
                                     "'poolbench list sources')", srcs[i]);
            goto out;
        }
        PB_GROW(ids, capids, nids + n1);
        memcpy(ids + nids, one, n1 * sizeof(*ids));
        nids += n1;
        free(one);
    }
    label_dims(rules, old, &od, &nod);
    label_dims(rules, new, &nd, &nnd);
    struct pb_db_relabel r = {old, new, ids, nids, od, nd, nod, nnd};
    size_t moved = 0;
    if ((rc = pb_db_relabel(db, &r, &moved, &err)))
        goto fail;
    if (nsrcs && !moved) {
        status = cli_usage_error("relabel", "the sources given have no "
                                 "results of configuration '%s'", old);
        goto out;
    }
    if (!quiet) {
        char *o = pb_term_str(old), *n = pb_term_str(new);
        fprintf(stderr, "poolbench: relabel: %zu results moved from '%s' to "
                        "'%s'\n", moved, o, n);
        free(o);
        free(n);
    }
    goto out;
fail:
    status = cli_fail(&err);
out:
    cli_nearest_release(&l.near);
    kv_free(od, nod);
    kv_free(nd, nnd);
    free(ids);
    free(srcs);
    pb_db_close(db);
    pb_label_rules_free(rules);
    return status;
}
