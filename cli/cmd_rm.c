/* poolbench rm: remove sources and everything of them, atomically. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: poolbench rm [--db FILE] [-n|--dry-run] [-q|--quiet] SOURCE...\n"
    "       poolbench rm [--db FILE] [-n|--dry-run] [-q|--quiet] --config RE\n"
    "       poolbench rm [--db FILE] [-n|--dry-run] [-q|--quiet] --run ID\n"
    "\n"
    "Remove sources with their results, facts and the dimensions they\n"
    "attached to labels, in one transaction; configurations and tests no\n"
    "result uses any more go too. SOURCE is a path as 'poolbench list'\n"
    "shows it, or a source id. --config removes the sources with results of\n"
    "matching configurations (refused when such a source also has results\n"
    "of other configurations: remove it by path). --run removes the sources\n"
    "of a 'poolbench run' (fact run_id).\n"
    "\n"
    "  --db FILE     database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --config RE   sources of configurations whose label matches (PCRE2)\n"
    "  --run ID      sources of that run\n"
    "  -n, --dry-run show what would go (sources, result counts,\n"
    "                configurations left empty) and change nothing\n"
    "  -q, --quiet   print only errors\n"
    "  -h, --help    show this help\n";

struct src {
    long long id, nresults;
    char *path, *format;
};
struct srcs {
    struct src *v;
    size_t n, cap;
};

static int on_src(void *ctx, const struct pb_db_source *s)
{
    struct srcs *l = ctx;
    PB_GROW(l->v, l->cap, l->n + 1);
    l->v[l->n++] = (struct src){s->id, s->nresults, pb_xstrdup(s->path),
                                pb_xstrdup(s->format ? s->format : "")};
    return 0;
}

static void srcs_release(struct srcs *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].path), free(l->v[i].format);
    free(l->v);
}

static int on_cfg(void *ctx, const struct pb_db_entity *e)
{
    struct srcs *l = ctx; /* id, nresults, label */
    PB_GROW(l->v, l->cap, l->n + 1);
    l->v[l->n++] = (struct src){e->id, e->nresults, pb_xstrdup(e->name),
                                NULL};
    return 0;
}

static const struct src *by_id(const struct srcs *l, long long id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].id == id)
            return &l->v[i];
    return NULL;
}

/* "no source 'x'; did you mean 'y'?" */
static int no_source(const char *what, const struct srcs *all)
{
    struct cli_nearest n;
    cli_nearest_init(&n, what);
    for (size_t i = 0; i < all->n; i++) {
        cli_nearest_add(&n, all->v[i].path);
        const char *slash = strrchr(all->v[i].path, '/');
        if (slash && !strcmp(slash + 1, what))
            cli_nearest_add(&n, all->v[i].path);
    }
    /* a file name alone: the stored path that ends with it */
    for (size_t i = 0; i < all->n && !n.best; i++) {
        const char *slash = strrchr(all->v[i].path, '/');
        if (slash && !strcmp(slash + 1, what))
            n.best = pb_term_str(all->v[i].path);
    }
    int rc = n.best ? cli_usage_error("rm", "no source '%s'; did you mean "
                                      "'%s'?", what, n.best)
                    : cli_usage_error("rm", "no source '%s' (see 'poolbench "
                                      "list sources')", what);
    cli_nearest_release(&n);
    return rc;
}

struct rm_args {
    const char *db;
    struct pb_db_select sel;
    int dry, quiet;
};

#define A(f) offsetof(struct rm_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt rm_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"config", 0, CLI_OPT_STR, A(sel.config_re), NULL},
    {"run", 0, CLI_OPT_STR, A(sel.run_id), NULL},
    {"dry-run", 'n', CLI_OPT_FLAG, A(dry), NULL},
    {"quiet", 'q', CLI_OPT_FLAG, A(quiet), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

/* The ids of the SOURCE operands (a path as stored, or an id), each
 * once, appended to *ids. 0, or the exit status of an error (said). */
static int pick_named(struct pb_db *db, char **names, int n,
                      const struct srcs *all, long long **ids, size_t *nids)
{
    struct pb_err err = {0};
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        long long *one = NULL;
        size_t n1 = 0;
        struct pb_db_select s1 = {names[i], NULL, NULL, NULL};
        if (pb_db_select_sources(db, &s1, &one, &n1, &err))
            return cli_fail(&err);
        if (!n1)
            return no_source(names[i], all);
        PB_GROW(*ids, cap, *nids + n1);
        for (size_t k = 0; k < n1; k++) {
            int dup = 0;
            for (size_t j = 0; j < *nids && !dup; j++)
                dup = (*ids)[j] == one[k];
            if (!dup)
                (*ids)[(*nids)++] = one[k];
        }
        free(one);
    }
    return 0;
}

/* The ids --config RE or --run ID selects into *ids; with --config, none
 * of them may have results of a configuration RE does not match. 0, or
 * the exit status of an error (said). */
static int pick_selected(struct pb_db *db, const struct pb_db_select *sel,
                         const struct srcs *all, long long **ids, size_t *nids)
{
    struct pb_err err = {0};
    int status;
    if (sel->config_re) {
        struct pb_db_filter f = {0};
        f.config_re = sel->config_re;
        if ((status = cli_check_filter(db, "rm", &f)))
            return status;
    }
    if (pb_db_select_sources(db, sel, ids, nids, &err))
        return cli_fail(&err);
    if (!*nids)
        return cli_usage_error("rm", "no source of run '%s'",
                               sel->run_id ? sel->run_id : "");
    /* every result of the chosen sources must be of a matching
     * configuration */
    for (size_t i = 0; sel->config_re && i < *nids; i++) {
        int outside = 0;
        /* a failed query ends the check and the removal goes on, as it
         * always has (issue 37 keeps behaviour; worth its own fix) */
        if (pb_db_source_outside(db, (*ids)[i], sel->config_re, &outside, &err))
            break;
        const struct src *s = by_id(all, (*ids)[i]);
        if (outside && s) {
            char *p = pb_term_str(s->path);
            status = cli_usage_error(
                "rm",
                "source %lld '%s' also has results of "
                "configurations '%s' does not match; remove it by path "
                "or narrow --config",
                s->id, p, sel->config_re);
            free(p);
            return status;
        }
    }
    return 0;
}

/* The sources removed (ids) and the configurations left without results
 * (in before, not in after), said on stdout unless quiet; their result
 * and configuration counts in *nres and *nempty. */
static void tell_removed(const struct srcs *all, const struct srcs *before,
                         const struct srcs *after, const long long *ids,
                         size_t nids, int dry, int quiet, long long *nres,
                         size_t *nempty)
{
    *nres = 0;
    *nempty = 0;
    for (size_t i = 0; i < nids; i++) {
        const struct src *s = by_id(all, ids[i]);
        if (!s)
            continue;
        *nres += s->nresults;
        if (!quiet) {
            char *p = pb_term_str(s->path);
            printf("%s source %lld %s (%s): %lld results\n",
                   dry ? "would remove" : "removed", s->id, p, s->format,
                   s->nresults);
            free(p);
        }
    }
    for (size_t i = 0; i < before->n; i++) {
        const struct src *c = &before->v[i];
        const struct src *a = by_id(after, c->id);
        if (c->nresults <= 0 || (a && a->nresults > 0))
            continue;
        (*nempty)++;
        if (!quiet) {
            char *l = pb_term_str(c->path);
            printf("%s configuration %lld '%s': left without results\n",
                   dry ? "would remove" : "removed", c->id, l);
            free(l);
        }
    }
}

int cmd_rm(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct rm_args o = {0};
    o.db = pb_db_default_path();
    int ostatus;
    if (!cli_opt_parse("rm", rm_opts, &o, help, argc, argv, &ostatus))
        return ostatus;
    const char *dbpath = o.db;
    struct pb_db_select sel = o.sel;
    int dry = o.dry, quiet = o.quiet;
    int nsel = (optind < argc) + !!sel.config_re + !!sel.run_id;
    if (nsel != 1)
        return cli_usage_error("rm", "give SOURCE..., --config RE or --run "
                               "ID (one of them)");
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 0, &db, &err) != PB_OK)
        return cli_fail(&err);
    struct srcs all = {0}, before = {0}, after = {0};
    long long *ids = NULL;
    size_t nids = 0;
    int status = 0;
    int rc = pb_db_each_source(db, on_src, &all, &err);
    if (!rc)
        rc = pb_db_each_config(db, on_cfg, &before, &err);
    if (rc)
        goto fail;
    status = optind < argc ? pick_named(db, argv + optind, argc - optind, &all,
                                        &ids, &nids)
                           : pick_selected(db, &sel, &all, &ids, &nids);
    if (status)
        goto out;
    if ((rc = pb_db_begin(db, &err)))
        goto fail;
    for (size_t i = 0; i < nids && !rc; i++)
        rc = pb_db_forget_source(db, ids[i], &err);
    if (!rc)
        rc = pb_db_prune(db, &err);
    if (!rc)
        rc = pb_db_each_config(db, on_cfg, &after, &err);
    if (rc) {
        pb_db_rollback(db);
        goto fail;
    }
    long long nres;
    size_t nempty;
    tell_removed(&all, &before, &after, ids, nids, dry, quiet, &nres, &nempty);
    if (dry) {
        pb_db_rollback(db);
    } else if ((rc = pb_db_commit(db, &err))) {
        goto fail;
    }
    if (!quiet)
        fprintf(stderr, "poolbench: rm: %s %zu source%s, %lld results; %zu "
                        "configuration%s left empty\n",
                dry ? "would remove" : "removed", nids, nids == 1 ? "" : "s",
                nres, nempty, nempty == 1 ? "" : "s");
    goto out;
fail:
    status = cli_fail(&err);
out:
    free(ids);
    srcs_release(&all);
    for (size_t i = 0; i < before.n; i++)
        free(before.v[i].path);
    free(before.v);
    for (size_t i = 0; i < after.n; i++)
        free(after.v[i].path);
    free(after.v);
    pb_db_close(db);
    return status;
}
