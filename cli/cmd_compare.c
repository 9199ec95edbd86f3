/* poolbench compare: a baseline against a candidate, per test and metric,
 * with the verdict of a significance test, and a gate for CI jobs. */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"
#include "render/render.h"

#include <fnmatch.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exit status of a failed gate (docs/model.md, "Exit codes"). */
#define EXIT_GATE 4

static const char usage_text[] =
    "usage: poolbench compare [--db FILE] [--test RE] [--metric RE]\n"
    "                         [--ignore-param LIST] [--alpha A]\n"
    "                         [--fail-worse PCT [--fail-metric RE]\n"
    "                         [--gate-unjudged]]\n"
    "                         [--json|--csv] [--html DIR] BASE CAND\n"
    "\n"
    "Compare the results of BASE with those of CAND, paired by test and\n"
    "metric (and by configuration when a side holds several): means, the\n"
    "change in %, its confidence interval and a verdict: better, worse, ~\n"
    "(not significant at --alpha), or not judged (a side with a single\n"
    "run). Welch's t-test on mean, standard error and n with Fieller's\n"
    "interval; the Mann-Whitney U test with its Hodges-Lehmann interval\n"
    "when both sides have stored per-repeat samples. The summary leads\n"
    "with the kind of metric the gate is about (throughput, latency, cpu,\n"
    "other) and never mixes kinds. By default the metrics a person reads\n"
    "are compared, not bytes moved, runtimes, log summaries or pool state\n"
    "(--metric reaches them). Nothing is written to any database.\n"
    "\n"
    "BASE and CAND are selectors:\n"
    "  LABEL-RE           configurations whose label matches (PCRE2)\n"
    "  run:ID             the sources of a 'poolbench run' run\n"
    "  source:GLOB        sources whose stored path matches the glob\n"
    "  db:FILE            every result of another poolbench database\n"
    "  db:FILE:LABEL-RE   its configurations whose label matches\n"
    "\n"
    "  --db FILE          database (default $POOLBENCH_DB, else "
    "./poolbench.db)\n"
    "  --test RE, --metric RE\n"
    "                     compare only tests / metrics that match\n"
    "  --ignore-param LIST\n"
    "                     test parameters that do not make tests different\n"
    "                     (default runtime,size,ramp_time,time_based; "
    "'none')\n"
    "  --alpha A          significance level (default 0.05; CIs are 1 - A)\n"
    "  --fail-worse PCT   exit 4 when a significant change is worse than\n"
    "                     PCT percent (the gate for CI jobs)\n"
    "  --fail-metric RE   gate only metrics matching RE (default: all)\n"
    "  --gate-unjudged    gate pairs not judged (a single run on a side) on\n"
    "                     their raw change: exit 4 when worse than PCT\n"
    "  --json             one JSON object: pairs, unpaired, summary, gate\n"
    "  --csv              one CSV row per pair\n"
    "  --html DIR         write DIR/index.html, the compare page (and no\n"
    "                     table or summary on the terminal)\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 ok, 2 usage (a selector that matches nothing, sides\n"
    "that share no test), 3 a database that cannot be read (or is not\n"
    "poolbench's), 4 the gate failed.\n";

/* ==== selectors ==== */

struct side {
    const char *text;         /* as given */
    struct pb_db *db;         /* borrowed main db, or own */
    int own;                  /* db opened for this side */
    struct pb_db_filter f;
    long long *ids;           /* run:, source: */
    char *label_re;           /* db:FILE:RE */
};

struct names {
    char **v;
    size_t n, cap;
};

static int add_name(struct names *ns, const char *s)
{
    for (size_t i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], s))
            return 0;
    PB_GROW(ns->v, ns->cap, ns->n + 1);
    ns->v[ns->n++] = pb_xstrdup(s);
    return 0;
}

static void free_names(struct names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
}

/* "a', 'b', 'c" of up to max names, "..." beyond; into b. */
static void list_names(struct pb_buf *b, const struct names *ns, size_t max)
{
    for (size_t i = 0; i < ns->n && i < max; i++) {
        char *t = pb_term_str(ns->v[i]);
        pb_buf_printf(b, "%s'%s'", i ? ", " : "", t);
        free(t);
    }
    if (ns->n > max)
        pb_buf_printf(b, " and %zu more", ns->n - max);
    if (!ns->n)
        pb_buf_puts(b, "none");
}

struct glob_ctx {
    const char *glob;
    long long *ids;
    size_t n, cap;
    struct names paths;
};

static int on_source(void *vctx, const struct pb_db_source *s)
{
    struct glob_ctx *g = vctx;
    if (!s->nresults)
        return 0;
    add_name(&g->paths, s->path);
    if (fnmatch(g->glob, s->path, 0) == 0) {
        PB_GROW(g->ids, g->cap, g->n + 1);
        g->ids[g->n++] = s->id;
    }
    return 0;
}

static int on_fact(void *vctx, const struct pb_db_triple *t)
{
    if (t->b && !strcmp(t->b, "run_id") && t->c)
        add_name(vctx, t->c);
    return 0;
}

static int source_side(struct side *s, const char *glob)
{
    struct glob_ctx g;
    memset(&g, 0, sizeof(g));
    g.glob = glob;
    struct pb_err err = {0};
    if (pb_db_each_source(s->db, on_source, &g, &err)) {
        free(g.ids);
        free_names(&g.paths);
        return cli_fail(&err);
    }
    if (!g.n) {
        struct pb_buf b = PB_BUF_INIT;
        const char *near = cli_nearest(glob, (const char *const *)g.paths.v,
                                       g.paths.n);
        if (near) {
            char *t = pb_term_str(near);
            pb_buf_printf(&b, "; did you mean 'source:%s'?", t);
            free(t);
        } else {
            pb_buf_puts(&b, "; sources: ");
            list_names(&b, &g.paths, 5);
        }
        int rc = cli_usage_error("compare", "no source matches '%s'%s",
                                 s->text, pb_buf_str(&b));
        pb_buf_release(&b);
        free(g.ids);
        free_names(&g.paths);
        return rc;
    }
    free_names(&g.paths);
    s->ids = g.ids;
    s->f.source_ids = g.ids;
    s->f.nsource_ids = g.n;
    return 0;
}

static int run_side(struct side *s, const char *run)
{
    struct pb_db_select sel = {NULL, NULL, run, NULL};
    struct pb_err err = {0};
    size_t n = 0;
    if (pb_db_select_sources(s->db, &sel, &s->ids, &n, &err))
        return cli_fail(&err);
    if (!n) {
        struct names runs = {0};
        struct pb_buf b = PB_BUF_INIT;
        if (pb_db_report_facts(s->db, on_fact, &runs, &err)) {
            free_names(&runs);
            return cli_fail(&err);
        }
        const char *near = cli_nearest(run, (const char *const *)runs.v,
                                       runs.n);
        if (near) {
            pb_buf_printf(&b, "did you mean 'run:%s'?", near);
        } else {
            pb_buf_puts(&b, "runs: ");
            list_names(&b, &runs, 8);
        }
        int rc = cli_usage_error("compare", "no run matches '%s'; %s",
                                 s->text, pb_buf_str(&b));
        pb_buf_release(&b);
        free_names(&runs);
        return rc;
    }
    s->f.source_ids = s->ids;
    s->f.nsource_ids = n;
    return 0;
}

static int on_label(void *ctx, const char *name)
{
    return add_name(ctx, name);
}

/* A label pattern must match some configuration with results: else name
 * the selector, the nearest label and what there is. */
static int label_side(struct side *s, const char *re)
{
    struct names all = {0}, hit = {0};
    struct pb_err err = {0};
    int rc = pb_db_each_name(s->db, PB_DB_CONFIGS, re, on_label, &hit, &err);
    if (!rc)
        rc = pb_db_each_name(s->db, PB_DB_CONFIGS, NULL, on_label, &all,
                             &err);
    if (rc) {
        free_names(&all);
        free_names(&hit);
        return cli_fail(&err);
    }
    int out = 0;
    if (!hit.n) {
        struct pb_buf b = PB_BUF_INIT;
        const char *near = cli_nearest(re, (const char *const *)all.v, all.n);
        if (near) {
            char *t = pb_term_str(near);
            pb_buf_printf(&b, "did you mean '%s'? ", t);
            free(t);
        }
        pb_buf_puts(&b, "configurations: ");
        list_names(&b, &all, 8);
        char *t = pb_term_str(s->text);
        out = cli_usage_error("compare", "no configuration label matches "
                              "'%s'; %s", t, pb_buf_str(&b));
        free(t);
        pb_buf_release(&b);
    }
    free_names(&all);
    free_names(&hit);
    return out;
}

/* db:FILE or db:FILE:RE. FILE ends at the first ':' after "db:" unless
 * the whole rest names an existing file. */
static int db_side(struct side *s, const char *rest)
{
    struct stat st;
    char *file;
    const char *colon = strchr(rest, ':');
    if (colon && stat(rest, &st) != 0) {
        file = pb_xstrndup(rest, (size_t)(colon - rest));
        s->label_re = pb_xstrdup(colon + 1);
        if (!*s->label_re) {
            free(s->label_re);
            s->label_re = NULL;
        }
    } else {
        file = pb_xstrdup(rest);
    }
    if (!*file) {
        free(file);
        return cli_usage_error("compare", "'%s': no file after 'db:'",
                               s->text);
    }
    struct pb_err err = {0};
    if (access(file, F_OK) != 0) {
        int rc = cli_usage_error("compare", "'%s': no such database '%s'",
                                 s->text, file);
        free(file);
        return rc;
    }
    /* a file from elsewhere: guarded (model/guard.c) */
    int rc = pb_db_open_foreign(file, &s->db, &err);
    free(file);
    if (rc)
        return cli_fail(&err);
    s->own = 1;
    s->f.config_re = s->label_re;
    return s->label_re ? label_side(s, s->label_re) : 0;
}

/* Fill side s from its selector text; main is the --db database (opened
 * on first need into *main). 0 or an exit status (printed). */
static int parse_side(struct side *s, const char *dbpath, struct pb_db **main,
                      const struct pb_db_filter *common)
{
    s->f.test_re = common->test_re;
    s->f.metric_re = common->metric_re;
    if (!strncmp(s->text, "db:", 3)) {
        int rc = db_side(s, s->text + 3);
        if (rc)
            return rc;
    } else {
        if (!*main) {
            struct pb_err err = {0};
            if (pb_db_open(dbpath, 1, main, &err))
                return cli_fail(&err);
        }
        s->db = *main;
        if (!strncmp(s->text, "run:", 4)) {
            int rc = run_side(s, s->text + 4);
            if (rc)
                return rc;
        } else if (!strncmp(s->text, "source:", 7)) {
            int rc = source_side(s, s->text + 7);
            if (rc)
                return rc;
        } else {
            s->f.config_re = s->text;
            int rc = label_side(s, s->text);
            if (rc)
                return rc;
        }
    }
    /* every pattern must match something in this side's database */
    return cli_check_filter(s->db, "compare", &s->f);
}

static void release_side(struct side *s)
{
    if (s->own)
        pb_db_close(s->db);
    free(s->ids);
    free(s->label_re);
}

/* ==== sides that share nothing ==== */

static int collect_test(void *ctx, const char *t)
{
    return add_name(ctx, t);
}

static int no_pairs(const struct pb_compare *c, const char *bt, const char *ct)
{
    struct names b = {0}, k = {0};
    (void)pb_compare_each_test(c, 0, collect_test, &b);
    (void)pb_compare_each_test(c, 1, collect_test, &k);
    const char *shared = NULL;
    for (size_t i = 0; i < b.n && !shared; i++)
        for (size_t j = 0; j < k.n && !shared; j++)
            if (!strcmp(b.v[i], k.v[j]))
                shared = b.v[i];
    if (shared) {
        /* tests in common, but configurations that cannot be told apart:
         * say which, and how to select fewer */
        struct names cb = {0}, cc = {0};
        for (size_t i = 0; i < c->nunpaired; i++)
            add_name(c->unpaired[i].cand ? &cc : &cb,
                     c->unpaired[i].config);
        struct pb_buf m = PB_BUF_INIT;
        pb_buf_puts(&m, "base has ");
        list_names(&m, &cb, 3);
        pb_buf_puts(&m, "; cand has ");
        list_names(&m, &cc, 3);
        char *bs = pb_term_str(bt), *cs = pb_term_str(ct),
             *ts = pb_term_str(shared);
        int rc = cli_usage_error(
            "compare", "'%s' and '%s' share tests ('%s'...) but no "
            "configuration pairs with one on the other side (by being the "
            "only one, by label or by dimensions): %s. A label pattern "
            "matches anywhere in a label: anchor it (e.g. '^%s$') to "
            "select fewer", bs, cs, ts, pb_buf_str(&m), cs);
        free(bs);
        free(cs);
        free(ts);
        pb_buf_release(&m);
        free_names(&cb);
        free_names(&cc);
        free_names(&b);
        free_names(&k);
        return rc;
    }
    struct pb_buf m = PB_BUF_INIT;
    pb_buf_puts(&m, "base has ");
    list_names(&m, &b, 4);
    pb_buf_puts(&m, "; cand has ");
    list_names(&m, &k, 4);
    char *bs = pb_term_str(bt), *cs = pb_term_str(ct);
    int rc = cli_usage_error("compare",
                             "'%s' and '%s' share no test and metric: %s",
                             bs, cs, pb_buf_str(&m));
    free(bs);
    free(cs);
    pb_buf_release(&m);
    free_names(&b);
    free_names(&k);
    return rc;
}

/* A side with no result compare reads: say so, and name the metrics left
 * out by default when that is why. */
static int no_results(const struct pb_compare *c, const char *side)
{
    char *t = pb_term_str(side);
    if (!c->nleft_out) {
        int rc = cli_usage_error("compare", "'%s' selects no result with a "
                                 "value", t);
        free(t);
        return rc;
    }
    struct pb_buf m = PB_BUF_INIT;
    for (size_t i = 0; i < c->nleft_out && i < 6; i++) {
        char *n = pb_term_str(c->left_out[i]);
        pb_buf_printf(&m, "%s%s", i ? ", " : "", n);
        free(n);
    }
    if (c->nleft_out > 6)
        pb_buf_printf(&m, " and %zu more", c->nleft_out - 6);
    int rc = cli_usage_error("compare", "'%s' selects only metrics compare "
                             "leaves out by default (%s): name them with "
                             "--metric", t, pb_buf_str(&m));
    pb_buf_release(&m);
    free(t);
    return rc;
}

/* ==== the command ==== */

static int parse_number(const char *opt, const char *s, double lo, double hi,
                        double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return cli_usage_error("compare", "%s: '%s' is not a number from "
                               "%g to %g", opt, s, lo, hi);
    *out = v;
    return 0;
}

struct compare_args {
    const char *db, *ignore, *html;
    struct pb_db_filter common;
    struct pb_compare_opts co;
    int json, csv;
};

static int opt_alpha(const char *cmd, void *args, const char *v)
{
    (void)cmd;
    return parse_number("--alpha", v, 1e-9, 0.5,
                        &((struct compare_args *)args)->co.alpha);
}

static int opt_fail_worse(const char *cmd, void *args, const char *v)
{
    (void)cmd;
    return parse_number("--fail-worse", v, 0, 1e9,
                        &((struct compare_args *)args)->co.fail_worse);
}

#define A(f) offsetof(struct compare_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt compare_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"test", 0, CLI_OPT_STR, A(common.test_re), NULL},
    {"metric", 0, CLI_OPT_STR, A(common.metric_re), NULL},
    {"ignore-param", 0, CLI_OPT_STR, A(ignore), NULL},
    {"alpha", 0, CLI_OPT_FUNC, 0, opt_alpha},
    {"fail-worse", 0, CLI_OPT_FUNC, 0, opt_fail_worse},
    {"fail-metric", 0, CLI_OPT_STR, A(co.fail_metric_re), NULL},
    {"gate-unjudged", 0, CLI_OPT_FLAG, A(co.gate_unjudged), NULL},
    {"json", 0, CLI_OPT_FLAG, A(json), NULL},
    {"csv", 0, CLI_OPT_FLAG, A(csv), NULL},
    {"html", 0, CLI_OPT_STR, A(html), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_compare(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct compare_args a;
    memset(&a, 0, sizeof(a));
    a.db = pb_db_default_path();
    a.co.alpha = 0.05;
    a.co.fail_worse = -1;
    int rc;
    if (!cli_opt_parse("compare", compare_opts, &a, help, argc, argv, &rc))
        return rc;
    const char *dbpath = a.db;
    struct pb_db_filter common = a.common;
    struct pb_compare_opts co = a.co;
    const char *ignore = a.ignore, *html = a.html;
    int json = a.json, csv = a.csv;
    if (argc - optind != 2)
        return argc - optind < 2
                   ? cli_usage_error("compare", "give BASE and CAND")
                   : cli_usage_error("compare", "unexpected argument '%s'",
                                     argv[optind + 2]);
    if (json + csv > 1)
        return cli_usage_error("compare", "give at most one of --json, --csv");
    if (co.fail_metric_re && co.fail_worse < 0)
        return cli_usage_error("compare", "--fail-metric needs --fail-worse");
    if (co.gate_unjudged && co.fail_worse < 0)
        return cli_usage_error("compare", "--gate-unjudged needs --fail-worse");
    co.every_metric = common.metric_re != NULL;
    if ((rc = cli_ignore_params("compare", ignore, &co.ignore_params)))
        return rc;
    struct pb_db *main_db = NULL;
    struct side sides[2];
    memset(sides, 0, sizeof(sides));
    sides[0].text = argv[optind];
    sides[1].text = argv[optind + 1];
    struct pb_compare *cmp = NULL;
    struct pb_err err = {0};
    int status = 0;
    for (int s = 0; s < 2 && !status; s++)
        status = parse_side(&sides[s], dbpath, &main_db, &common);
    if (status)
        goto out;
    struct pb_compare_side cs[2];
    for (int s = 0; s < 2; s++)
        cs[s] = (struct pb_compare_side){sides[s].db, sides[s].f,
                                         sides[s].text};
    if (pb_compare_run(&cs[0], &cs[1], &co, &cmp, &err)) {
        status = cli_fail(&err);
        goto out;
    }
    for (int s = 0; s < 2 && !status; s++)
        if (!(s ? cmp->ncand_cells : cmp->nbase_cells))
            status = no_results(cmp, sides[s].text);
    if (!status && !cmp->npairs)
        status = no_pairs(cmp, sides[0].text, sides[1].text);
    if (status)
        goto out;
    /* the page never replaces a database compared */
    struct pb_keep keep;
    pb_keep_init(&keep);
    for (int s = 0; s < 2; s++)
        pb_keep_add_db(&keep, pb_db_path(sides[s].db));
    if (html && (rc = pb_compare_html(cmp, html, &keep, &err))) {
        status = cli_fail(&err);
        goto out;
    }
    /* --html: the page holds the table and the summary; the terminal (a
     * CI log) gets one line, the warnings and the gate */
    if (json)
        cli_compare_json(cmp, co.fail_metric_re);
    else if (csv)
        cli_compare_csv(cmp);
    else if (!html) {
        cli_compare_table(cmp);
        cli_compare_summary(cmp, stdout);
    }
    if (html)
        fprintf(stderr, "poolbench: compare: wrote %s/index.html\n", html);
    cli_compare_warn_unjudged(cmp, stderr);
    if (cmp->offenders) {
        cli_compare_offenders(cmp, stderr);
        status = EXIT_GATE;
    }
out:
    pb_compare_free(cmp);
    for (int s = 0; s < 2; s++)
        release_side(&sides[s]);
    pb_db_close(main_db);
    free((void *)co.ignore_params);
    return status;
}
