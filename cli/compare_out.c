/* poolbench compare's outputs: the aligned terminal table (coloured on a
 * TTY unless NO_COLOR), the summary, the gate's offenders, JSON written a
 * pair at a time, and CSV. */
#include "cli/cli.h"
#include "render/render.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Display width of UTF-8 text: code points (µ, ±, → are one column). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static const char *verdict_word(const struct pb_compare_pair *p)
{
    return pb_compare_verdict_word(p->verdict);
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
    char cfg[512], base[96], cand[96], ch[32], ci[128], pv[32], vd[96];
    const char *v[NCOL];
};

static void row_of(const struct pb_compare *c, const struct pb_compare_pair *p,
                   struct row *r)
{
    pb_compare_ci_text(p, r->ci, sizeof(r->ci));
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
    r->v[5] = pb_compare_pct(p->change_pct, r->ch, sizeof(r->ch));
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

void cli_compare_table(const struct pb_compare *c)
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
        if (colour && (p->verdict == PB_CMP_BETTER ||
                       p->verdict == PB_CMP_WORSE || p->offender)) {
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

void cli_compare_summary(const struct pb_compare *c, FILE *fp)
{
    char buf[256];
    fputc('\n', fp);
    /* the kind the gate is about first, then the others that have pairs */
    for (int i = -1; i < PB_NKINDS; i++) {
        enum pb_metric_kind k = i < 0 ? c->headline : (enum pb_metric_kind)i;
        if (i >= 0 && (k == c->headline || !c->kinds[k].n))
            continue;
        fprintf(fp, "%s\n", pb_compare_kind_text(c, k, buf, sizeof(buf)));
    }
    fprintf(fp,
            "%zu better, %zu worse, %zu unchanged (~), %zu not judged, %zu "
            "unpaired\n",
            c->better, c->worse, c->same, c->not_judged, c->nunpaired);
    if (c->not_judged)
        fprintf(fp, "%s\n", pb_compare_unjudged_text(c, buf, sizeof(buf)));
    if (c->nleft_out) {
        fputs("not compared by default:", fp);
        for (size_t i = 0; i < c->nleft_out; i++) {
            fputs(i ? ", " : " ", fp);
            pb_fput_term(c->left_out[i], fp);
        }
        fputs(" (--metric reaches them)\n", fp);
    }
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

void cli_compare_warn_unjudged(const struct pb_compare *c, FILE *fp)
{
    char buf[256];
    if (c->not_judged)
        fprintf(fp, "poolbench: compare: warning: %s\n",
                pb_compare_unjudged_text(c, buf, sizeof(buf)));
}

void cli_compare_offenders(const struct pb_compare *c, FILE *fp)
{
    size_t shown = 0;
    for (size_t i = 0; i < c->npairs && shown < 20; i++) {
        const struct pb_compare_pair *p = &c->pairs[i];
        if (!p->offender)
            continue;
        shown++;
        char *t = pb_term_str(p->test), *m = pb_term_str(p->metric);
        char *cf = pb_term_str(p->cand_config);
        fprintf(fp, "poolbench: compare: gate failed: '%s' %s", t, m);
        if (!c->single_config)
            fprintf(fp, " of '%s'", cf);
        char ch[32];
        const char *how = p->verdict == PB_CMP_UNJUDGED
                              ? "not judged: "
                          : !strcmp(p->method, "mann-whitney")
                              ? "Hodges-Lehmann, "
                              : "";
        fprintf(fp, " is worse by %s (%s", 
                pb_compare_pct(fabs(p->estimate_pct), ch, sizeof(ch)) + 1,
                how);
        if (p->verdict == PB_CMP_UNJUDGED)
            fprintf(fp, "%s, more than %g%%)\n", p->why, c->fail_worse);
        else
            fprintf(fp, "more than %g%%, p = %.3g)\n", c->fail_worse, p->p);
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
    printf(", \"kind\": \"%s\", ", pb_metric_kind_name(p->kind));
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
    jnum("estimate_pct", p->estimate_pct);
    jnum("ci_low_pct", p->ci_lo_pct);
    jnum("ci_high_pct", p->ci_hi_pct);
    printf(", \"ci_unbounded\": %s",
           p->ci_unbounded || isinf(p->ci_hi_pct) ? "true" : "false");
    jnum("p", p->p);
    printf(", \"method\": \"%s\", \"verdict\": \"%s\", "
           "\"significant\": %s, \"why\": ",
           p->method, verdict_word(p),
           p->verdict == PB_CMP_BETTER || p->verdict == PB_CMP_WORSE
               ? "true"
               : "false");
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
void cli_compare_json(const struct pb_compare *c, const char *fail_metric)
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
    json_object_set_new(sum, "not_judged",
                        json_integer((json_int_t)c->not_judged));
    json_object_set_new(sum, "unpaired",
                        json_integer((json_int_t)c->nunpaired));
    json_object_set_new(sum, "headline",
                        json_string(pb_metric_kind_name(c->headline)));
    json_t *kinds = json_object();
    for (int k = 0; k < PB_NKINDS; k++) {
        const struct pb_compare_kind *pk = &c->kinds[k];
        json_t *o = json_object();
        json_object_set_new(o, "n", json_integer((json_int_t)pk->n));
        json_object_set_new(o, "significant",
                            json_integer((json_int_t)pk->significant));
        json_object_set_new(o, "better", json_integer((json_int_t)pk->better));
        json_object_set_new(o, "worse", json_integer((json_int_t)pk->worse));
        json_object_set_new(o, "not_judged",
                            json_integer((json_int_t)pk->not_judged));
        json_object_set_new(o, "geomean_better",
                            num_or_null(pk->geomean_better));
        json_object_set_new(o, "geomean_ratio",
                            num_or_null(pk->geomean_ratio));
        json_object_set_new(kinds, pb_metric_kind_name((enum pb_metric_kind)k),
                            o);
    }
    json_object_set_new(sum, "by_kind", kinds);
    json_t *left = json_array();
    for (size_t i = 0; i < c->nleft_out; i++)
        json_array_append_new(left, cli_json_str(c->left_out[i]));
    json_object_set_new(sum, "left_out", left);
    dump(sum, 0);
    fputs(",\n\"gate\": ", stdout);
    json_t *gate = json_object();
    json_object_set_new(gate, "fail_worse_pct",
                        c->fail_worse >= 0 ? json_real(c->fail_worse)
                                           : json_null());
    json_object_set_new(gate, "fail_metric", cli_json_str(fail_metric));
    json_object_set_new(gate, "gate_unjudged",
                        json_boolean(c->gate_unjudged));
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
        json_object_set_new(o, "estimate_pct", num_or_null(p->estimate_pct));
        json_object_set_new(o, "verdict", json_string(verdict_word(p)));
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

void cli_compare_csv(const struct pb_compare *c)
{
    puts("test,metric,unit,direction,base_config,cand_config,base_mean,"
         "base_stderr,base_n,cand_mean,cand_stderr,cand_n,change_pct,"
         "ci_low_pct,ci_high_pct,p,method,verdict,why,offender,kind,"
         "estimate_pct,ci_unbounded");
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
        printf(",%d,%s,", p->offender, pb_metric_kind_name(p->kind));
        csv_num(p->estimate_pct);
        printf(",%d\n", p->ci_unbounded || isinf(p->ci_hi_pct));
    }
}
