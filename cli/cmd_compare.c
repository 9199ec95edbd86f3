/* poolbench compare: a baseline against a candidate, per test and metric,
 * with the verdict of a significance test, and a gate for CI jobs. */
#include "cli/cli.h"
#include "model/db.h"
#include "render/render.h"

#include <fnmatch.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exit status of a failed gate (DESIGN.md). */
#define EXIT_GATE 4

static const char usage_text[] =
    "usage: poolbench compare [--db FILE] [options] BASE CAND\n"
    "\n"
    "Compare the results of BASE with those of CAND, paired by test and\n"
    "metric (and by configuration when a side holds several): means, the\n"
    "change in %, its confidence interval and a verdict, better, worse or\n"
    "~ (not significant at --alpha, or a side with a single run). Welch's\n"
    "t-test on mean, standard error and n; the Mann-Whitney U test when\n"
    "both sides have stored per-repeat samples. Nothing is written to any\n"
    "database.\n"
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
    "  --json             one JSON object: pairs, unpaired, summary, gate\n"
    "  --csv              one CSV row per pair\n"
    "  --html DIR         write DIR/index.html, the compare page\n"
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
    int rc = pb_db_open(file, 1, &s->db, &err);
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

/* ==== output ==== */

/* Display width of UTF-8 text: code points (µ, ±, → are one column). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static const char *pct(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "?");
    else
        snprintf(buf, n, "%+.1f%%", v);
    return buf;
}

static const char *verdict_word(const struct pb_compare_pair *p)
{
    return p->verdict == PB_CMP_BETTER  ? "better"
           : p->verdict == PB_CMP_WORSE ? "worse"
                                        : "~";
}

static int use_colour(void)
{
    const char *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    return isatty(1) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

#define NCOL 9

/* The cells of one table row, formatted into row-owned buffers. */
struct row {
    char cfg[512], base[96], cand[96], ch[32], ci[80], pv[32], vd[96];
    const char *v[NCOL];
};

static void row_of(const struct pb_compare *c, const struct pb_compare_pair *p,
                   struct row *r)
{
    char lo[32], hi[32];
    if (isnan(p->ci_lo_pct))
        snprintf(r->ci, sizeof(r->ci), "–");
    else
        snprintf(r->ci, sizeof(r->ci), "[%s, %s]",
                 pct(p->ci_lo_pct, lo, sizeof(lo)),
                 pct(p->ci_hi_pct, hi, sizeof(hi)));
    if (!strcmp(p->method, "none"))
        snprintf(r->pv, sizeof(r->pv), "–");
    else
        snprintf(r->pv, sizeof(r->pv), "%.3g", p->p);
    snprintf(r->vd, sizeof(r->vd), "%s%s%s%s", verdict_word(p),
             p->why ? " (" : "", p->why ? p->why : "", p->why ? ")" : "");
    if (p->offender)
        snprintf(r->vd + strlen(r->vd), sizeof(r->vd) - strlen(r->vd),
                 "  FAIL > %g%%", c->fail_worse);
    if (!strcmp(p->base_config, p->cand_config))
        snprintf(r->cfg, sizeof(r->cfg), "%s", p->base_config);
    else
        snprintf(r->cfg, sizeof(r->cfg), "%s → %s", p->base_config,
                 p->cand_config);
    r->v[0] = p->test;
    r->v[1] = p->metric_title;
    r->v[2] = r->cfg;
    r->v[3] = pb_compare_value_text(c, p, 0, r->base, sizeof(r->base));
    r->v[4] = pb_compare_value_text(c, p, 1, r->cand, sizeof(r->cand));
    r->v[5] = pct(p->change_pct, r->ch, sizeof(r->ch));
    r->v[6] = r->ci;
    r->v[7] = r->pv;
    r->v[8] = r->vd;
}

/* Plain printable ASCII, shown as is. */
static int plain(const char *s)
{
    while ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
        s++;
    return !*s;
}

/* Display width of s as the terminal shows it (pb_term_str escapes
 * control characters and bytes that are not UTF-8). */
static size_t term_width(const char *s)
{
    if (plain(s))
        return strlen(s);
    char *t = pb_term_str(s);
    size_t w = width(t);
    free(t);
    return w;
}

static void put_cell(const char *s, size_t w, int right, int last)
{
    size_t pad = w - term_width(s);
    if (right)
        printf("%*s", (int)pad, "");
    pb_fput_term(s, stdout);
    if (!last)
        printf("%*s", (int)(right ? 2 : pad + 2), "");
}

static void print_table(const struct pb_compare *c)
{
    static const char *const head[NCOL] = {
        "test", "metric", "config", "base", "cand", "change", "95% CI", "p",
        "verdict"};
    int show_cfg = 0;
    for (size_t i = 1; i < c->npairs && !show_cfg; i++)
        show_cfg = strcmp(c->pairs[i].base_config, c->pairs[0].base_config) ||
                   strcmp(c->pairs[i].cand_config, c->pairs[0].cand_config);
    int colour = use_colour();
    size_t w[NCOL];
    for (size_t k = 0; k < NCOL; k++)
        w[k] = width(head[k]);
    struct row r;
    /* two passes, formatting each row twice, rather than holding 100,000
     * rows of text */
    for (size_t i = 0; i < c->npairs; i++) {
        row_of(c, &c->pairs[i], &r);
        for (size_t k = 0; k < NCOL; k++) {
            size_t x = term_width(r.v[k]);
            if (x > w[k])
                w[k] = x;
        }
    }
    for (size_t k = 0; k < NCOL; k++)
        if (k != 2 || show_cfg)
            put_cell(head[k], w[k], 0, k + 1 == NCOL);
    putchar('\n');
    for (size_t i = 0; i < c->npairs; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        row_of(c, p, &r);
        const char *on = "", *off = "";
        if (colour && p->verdict != PB_CMP_SAME) {
            on = p->offender                  ? "\033[1;31m"
                 : p->verdict == PB_CMP_WORSE ? "\033[31m"
                                              : "\033[32m";
            off = "\033[0m";
        }
        for (size_t k = 0; k < NCOL; k++) {
            if (k == 2 && !show_cfg)
                continue;
            if (k + 1 == NCOL)
                fputs(on, stdout);
            put_cell(r.v[k], w[k], k >= 3 && k <= 7, k + 1 == NCOL);
        }
        printf("%s\n", off);
    }
}

static void print_summary(const struct pb_compare *c, FILE *fp)
{
    fprintf(fp, "\n%zu better, %zu worse, %zu unchanged (~), %zu unpaired",
            c->better, c->worse, c->same, c->nunpaired);
    if (!isnan(c->geomean_ratio))
        fprintf(fp, "; geomean of cand/base %.4g (oriented so > 1 is "
                    "better: %.4g)",
                c->geomean_ratio, c->geomean_better);
    fprintf(fp, "\n");
    for (size_t i = 0; i < c->nunpaired && i < 20; i++) {
        const struct pb_compare_unpaired *u = &c->unpaired[i];
        char *t = pb_term_str(u->test), *m = pb_term_str(u->metric);
        char *cf = pb_term_str(u->config);
        fprintf(fp, "unpaired (only in %s): %s, %s, %s\n",
                u->cand ? "cand" : "base", t, m, cf);
        free(t);
        free(m);
        free(cf);
    }
    if (c->nunpaired > 20)
        fprintf(fp, "... and %zu more unpaired\n", c->nunpaired - 20);
}

static void print_offenders(const struct pb_compare *c, FILE *fp)
{
    size_t shown = 0;
    for (size_t i = 0; i < c->npairs && shown < 20; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        if (!p->offender)
            continue;
        shown++;
        char *t = pb_term_str(p->test), *m = pb_term_str(p->metric);
        char *cf = pb_term_str(p->cand_config);
        char ch[32];
        fprintf(fp, "poolbench: compare: gate failed: '%s' %s", t, m);
        if (!c->single_config)
            fprintf(fp, " of '%s'", cf);
        fprintf(fp, " is worse by %s (more than %g%%, p = %.3g)\n",
                pct(fabs(p->change_pct), ch, sizeof(ch)) + 1, c->fail_worse,
                p->p);
        free(t);
        free(m);
        free(cf);
    }
    if (c->offenders > shown)
        fprintf(fp, "poolbench: compare: gate failed: ... and %zu more "
                    "(--json lists every offender)\n",
                c->offenders - shown);
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON string (jansson's escaping) or null. */
static void jstr(const char *key, const char *v)
{
    printf("\"%s\": ", key);
    json_t *j = cli_json_str(v);
    json_dumpf(j, stdout, JSON_ENCODE_ANY);
    json_decref(j);
}

/* A JSON number, null when not finite. %.17g round-trips. */
static void jnum(const char *key, double v)
{
    if (isfinite(v))
        printf(", \"%s\": %.17g", key, v);
    else
        printf(", \"%s\": null", key);
}

/* One pair as a JSON object on one line, written directly: jansson
 * objects of 21 keys for 100,000 pairs cost more than the comparison. */
static void pair_json(const struct pb_compare_pair *p)
{
    putchar('{');
    jstr("test", p->test);
    fputs(", ", stdout);
    jstr("metric", p->metric);
    fputs(", ", stdout);
    jstr("unit", p->unit);
    printf(", \"direction\": \"%s\", ", p->higher ? "higher" : "lower");
    jstr("base_config", p->base_config);
    fputs(", ", stdout);
    jstr("cand_config", p->cand_config);
    jnum("base_mean", p->base_mean);
    jnum("base_stderr", p->base_se >= 0 ? p->base_se : NAN);
    printf(", \"base_n\": %ld", p->base_n);
    jnum("cand_mean", p->cand_mean);
    jnum("cand_stderr", p->cand_se >= 0 ? p->cand_se : NAN);
    printf(", \"cand_n\": %ld", p->cand_n);
    jnum("change_pct", p->change_pct);
    jnum("ci_low_pct", p->ci_lo_pct);
    jnum("ci_high_pct", p->ci_hi_pct);
    jnum("p", p->p);
    printf(", \"method\": \"%s\", \"verdict\": \"%s\", "
           "\"significant\": %s, \"why\": ",
           p->method, verdict_word(p),
           p->verdict != PB_CMP_SAME ? "true" : "false");
    if (p->why)
        printf("\"%s\"", p->why);
    else
        fputs("null", stdout);
    printf(", \"offender\": %s}", p->offender ? "true" : "false");
}

/* Dump one value: objects of the top level on their own lines. */
static void dump(json_t *v, int indent)
{
    json_dumpf(v, stdout,
               (indent ? JSON_INDENT(indent) : JSON_COMPACT) |
                   JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) |
                   JSON_ENCODE_ANY);
    json_decref(v);
}

/* One JSON object, written as it goes (a pair at a time) so that 100,000
 * pairs need not be held as a jansson tree. */
static void print_json(const struct pb_compare *c, const char *fail_metric)
{
    fputs("{\n\"base\": ", stdout);
    dump(cli_json_str(c->base_name), 0);
    fputs(",\n\"cand\": ", stdout);
    dump(cli_json_str(c->cand_name), 0);
    printf(",\n\"alpha\": %g,\n\"pairs\": [", c->alpha);
    for (size_t i = 0; i < c->npairs; i++) {
        fputs(i ? ",\n" : "\n", stdout);
        pair_json(&c->pairs[i]);
    }
    fputs("\n],\n\"unpaired\": [", stdout);
    for (size_t i = 0; i < c->nunpaired; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "side",
                            json_string(c->unpaired[i].cand ? "cand"
                                                            : "base"));
        json_object_set_new(o, "test", cli_json_str(c->unpaired[i].test));
        json_object_set_new(o, "metric", cli_json_str(c->unpaired[i].metric));
        json_object_set_new(o, "config", cli_json_str(c->unpaired[i].config));
        fputs(i ? ",\n" : "\n", stdout);
        dump(o, 0);
    }
    fputs("\n],\n\"summary\": ", stdout);
    json_t *sum = json_object();
    json_object_set_new(sum, "better", json_integer((json_int_t)c->better));
    json_object_set_new(sum, "worse", json_integer((json_int_t)c->worse));
    json_object_set_new(sum, "unchanged", json_integer((json_int_t)c->same));
    json_object_set_new(sum, "unpaired",
                        json_integer((json_int_t)c->nunpaired));
    json_object_set_new(sum, "geomean_ratio", num_or_null(c->geomean_ratio));
    json_object_set_new(sum, "geomean_better",
                        num_or_null(c->geomean_better));
    dump(sum, 0);
    fputs(",\n\"gate\": ", stdout);
    json_t *gate = json_object();
    json_object_set_new(gate, "fail_worse_pct",
                        c->fail_worse >= 0 ? json_real(c->fail_worse)
                                           : json_null());
    json_object_set_new(gate, "fail_metric", cli_json_str(fail_metric));
    json_object_set_new(gate, "failed", json_boolean(c->offenders > 0));
    json_t *offenders = json_array();
    for (size_t i = 0; i < c->npairs; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        if (!p->offender)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "test", cli_json_str(p->test));
        json_object_set_new(o, "metric", cli_json_str(p->metric));
        json_object_set_new(o, "base_config", cli_json_str(p->base_config));
        json_object_set_new(o, "cand_config", cli_json_str(p->cand_config));
        json_object_set_new(o, "change_pct", num_or_null(p->change_pct));
        json_object_set_new(o, "p", num_or_null(p->p));
        json_array_append_new(offenders, o);
    }
    json_object_set_new(gate, "offenders", offenders);
    dump(gate, 0);
    fputs("\n}\n", stdout);
}

/* %.17g: exact, one printf (the shortest form costs a strtod per try,
 * most of the time of 100,000 rows) */
static void csv_num(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
}

static void print_csv(const struct pb_compare *c)
{
    puts("test,metric,unit,direction,base_config,cand_config,base_mean,"
         "base_stderr,base_n,cand_mean,cand_stderr,cand_n,change_pct,"
         "ci_low_pct,ci_high_pct,p,method,verdict,why,offender");
    for (size_t i = 0; i < c->npairs; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        const char *texts[] = {p->test, p->metric, p->unit,
                               p->higher ? "higher" : "lower",
                               p->base_config, p->cand_config};
        for (size_t k = 0; k < 6; k++) {
            cli_csv_field(stdout, texts[k]);
            putchar(',');
        }
        csv_num(p->base_mean);
        putchar(',');
        if (p->base_se >= 0)
            csv_num(p->base_se);
        printf(",%ld,", p->base_n);
        csv_num(p->cand_mean);
        putchar(',');
        if (p->cand_se >= 0)
            csv_num(p->cand_se);
        printf(",%ld,", p->cand_n);
        csv_num(p->change_pct);
        putchar(',');
        csv_num(p->ci_lo_pct);
        putchar(',');
        csv_num(p->ci_hi_pct);
        putchar(',');
        csv_num(p->p);
        printf(",%s,%s,", p->method, verdict_word(p));
        cli_csv_field(stdout, p->why);
        printf(",%d\n", p->offender);
    }
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

int cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"test", required_argument, NULL, 't'},
        {"metric", required_argument, NULL, 'm'},
        {"ignore-param", required_argument, NULL, 'I'},
        {"alpha", required_argument, NULL, 'a'},
        {"fail-worse", required_argument, NULL, 'F'},
        {"fail-metric", required_argument, NULL, 'M'},
        {"json", no_argument, NULL, 'J'},
        {"csv", no_argument, NULL, 'C'},
        {"html", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dbpath = pb_db_default_path();
    struct pb_db_filter common = {0};
    struct pb_compare_opts co;
    memset(&co, 0, sizeof(co));
    co.alpha = 0.05;
    co.fail_worse = -1;
    const char *ignore = NULL, *html = NULL;
    int json = 0, csv = 0, ch, rc;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (ch) {
        case 'd': dbpath = optarg; break;
        case 't': common.test_re = optarg; break;
        case 'm': common.metric_re = optarg; break;
        case 'I': ignore = optarg; break;
        case 'a':
            if ((rc = parse_number("--alpha", optarg, 1e-9, 0.5, &co.alpha)))
                return rc;
            break;
        case 'F':
            if ((rc = parse_number("--fail-worse", optarg, 0, 1e9,
                                   &co.fail_worse)))
                return rc;
            break;
        case 'M': co.fail_metric_re = optarg; break;
        case 'J': json = 1; break;
        case 'C': csv = 1; break;
        case 'O': html = optarg; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: return cli_bad_option("compare", "h", opts, argv);
        }
    }
    if (argc - optind != 2)
        return argc - optind < 2
                   ? cli_usage_error("compare", "give BASE and CAND")
                   : cli_usage_error("compare", "unexpected argument '%s'",
                                     argv[optind + 2]);
    if (json + csv > 1)
        return cli_usage_error("compare", "give at most one of --json, --csv");
    if (co.fail_metric_re && co.fail_worse < 0)
        return cli_usage_error("compare", "--fail-metric needs --fail-worse");
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
            status = cli_usage_error("compare", "'%s' selects no result "
                                     "with a value", sides[s].text);
    if (!status && !cmp->npairs)
        status = no_pairs(cmp, sides[0].text, sides[1].text);
    if (status)
        goto out;
    if (html && (rc = pb_compare_html(cmp, html, &err))) {
        status = cli_fail(&err);
        goto out;
    }
    if (json)
        print_json(cmp, co.fail_metric_re);
    else if (csv)
        print_csv(cmp);
    else if (!html) {
        print_table(cmp);
        print_summary(cmp, stdout);
    } else {
        print_summary(cmp, stderr);
    }
    if (html)
        fprintf(stderr, "poolbench: compare: wrote %s/index.html\n", html);
    if (cmp->offenders) {
        print_offenders(cmp, stderr);
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
