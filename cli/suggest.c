/* "Did you mean": the nearest name for a mistyped command, option or
 * filter, and the check that every filter of a command matches something. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "model/db.h"
#include "render/render.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <getopt.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/* Levenshtein distance, ignoring case; 99 for very long words. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t prev[65], cur[65];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int same = tolower((unsigned char)a[i - 1]) ==
                       tolower((unsigned char)b[j - 1]);
            size_t sub = prev[j - 1] + !same;
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(size_t) * (lb + 1));
    }
    return prev[lb];
}

/* How far a candidate may be from word: 1 for words of up to 3
 * characters, else 2, or a quarter of the word's length when longer; one
 * more when both start with the same two characters. */
static size_t limit(const char *word, const char *cand)
{
    size_t len = strlen(word);
    size_t lim = len <= 3 ? 1 : len / 4 > 2 ? len / 4 : 2;
    if (len >= 2 && !strncmp(word, cand, 2))
        lim++;
    return lim;
}

/* A typo of cand: near enough, and not every character changed. */
static int near(const char *word, const char *cand, size_t d)
{
    return d <= limit(word, cand) && d < strlen(word) && d < strlen(cand);
}

void cli_nearest_init(struct cli_nearest *n, const char *word)
{
    n->word = word;
    n->best = NULL;
    n->dist = 99;
}

void cli_nearest_add(struct cli_nearest *n, const char *cand)
{
    if (!cand || !*cand || !strcmp(cand, n->word))
        return;
    size_t d = distance(n->word, cand);
    if (near(n->word, cand, d) && d < n->dist) {
        free(n->best);
        /* names come from input files: no escape reaches the terminal */
        n->best = pb_term_str(cand);
        n->dist = d;
    }
}

void cli_nearest_release(struct cli_nearest *n)
{
    free(n->best);
    n->best = NULL;
}

const char *cli_nearest(const char *word, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t bd = 99;
    for (size_t i = 0; i < n; i++) {
        size_t d = distance(word, cands[i]);
        if (near(word, cands[i], d) && d < bd) {
            bd = d;
            best = cands[i];
        }
    }
    return best;
}

int cli_bad_option(const char *cmd, const char *shortopts,
                   const struct option *opts, char **argv)
{
    if (cli_listing_options) /* poolbench __complete options CMD */
        return cli_list_options(opts);
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (optopt) {
        /* a known option without its value or with one it does not
         * take, or an unknown short one */
        for (const struct option *o = opts; o->name; o++)
            if (o->val == optopt && !strncmp(arg, "--", 2))
                return cli_usage_error(cmd, o->has_arg == no_argument
                                                ? "option '--%s' takes no "
                                                  "value"
                                                : "option '--%s' needs a "
                                                  "value",
                                       o->name);
        const char *p = strchr(shortopts, optopt);
        if (p && optopt != ':' && p[1] == ':')
            return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    }
    if (strncmp(arg, "--", 2) != 0)
        return cli_usage_error(cmd, "bad option '%s'", arg);
    char name[80];
    size_t len = strcspn(arg + 2, "=");
    snprintf(name, sizeof(name), "%.*s", (int)(len < 79 ? len : 79), arg + 2);
    /* an abbreviation of several options */
    size_t nprefix = 0;
    for (const struct option *o = opts; o->name; o++)
        nprefix += len && !strncmp(o->name, name, len);
    if (nprefix > 1) {
        struct pb_buf b = PB_BUF_INIT;
        for (const struct option *o = opts; o->name; o++)
            if (!strncmp(o->name, name, len))
                pb_buf_printf(&b, "%s--%s", b.len ? ", " : "", o->name);
        int rc = cli_usage_error(cmd, "option '--%s' is ambiguous (%s)",
                                 name, pb_buf_str(&b));
        pb_buf_release(&b);
        return rc;
    }
    for (const struct option *o = opts; o->name; o++)
        if (!strcmp(o->name, name) && o->has_arg == no_argument)
            return cli_usage_error(cmd, "option '--%s' takes no value", name);
    const char *best = NULL;
    size_t bd = 99;
    for (const struct option *o = opts; o->name; o++) {
        size_t d = distance(name, o->name);
        if (near(name, o->name, d) && d < bd) {
            bd = d;
            best = o->name;
        }
    }
    if (best)
        return cli_usage_error(cmd, "unknown option '--%s'; did you mean "
                               "'--%s'?", name, best);
    return cli_usage_error(cmd, "unknown option '--%s'", name);
}

/* ==== filters that match nothing ==== */

/* The stop value of the "any row?" callbacks: no PB_E* code. */
#define ANY_HIT 100

struct any {
    int hit;
};

static int on_any_name(void *ctx, const char *name)
{
    (void)name;
    ((struct any *)ctx)->hit = 1;
    return ANY_HIT;
}

static int on_any_row(void *ctx, const struct pb_db_row *r)
{
    (void)r;
    ((struct any *)ctx)->hit = 1;
    return ANY_HIT;
}

/* Every name, and every word of it (split at blanks and '='), is a
 * candidate. */
static int on_cand(void *ctx, const char *name)
{
    struct cli_nearest *n = ctx;
    cli_nearest_add(n, name);
    char *copy = pb_xstrdup(name), *save = NULL;
    for (char *w = strtok_r(copy, " \t=,;()", &save); w;
         w = strtok_r(NULL, " \t=,;()", &save))
        cli_nearest_add(n, w);
    free(copy);
    return 0;
}

/* report --metric may name one line of a latency series' chart
 * (pb_render_names_series_line): those names are not in the database, so
 * they are made from every metric and series name. A pattern that names
 * such a line of a metric that is not a percentile series passes this
 * check and draws nothing. */
struct line_hit {
    pcre2_code *re;
    pcre2_match_data *md;
    int hit;
};

static int on_line_name(void *ctx, const char *name)
{
    struct line_hit *h = ctx;
    if (!pb_render_names_series_line(h->re, h->md, name))
        return 0;
    h->hit = 1;
    return ANY_HIT;
}

/* 1 when pattern names a SERIES_STAT line, 0 when not, -1 on a database
 * error (err). An invalid pattern names nothing. */
static int names_series_line(struct pb_db *db, const char *pattern,
                             struct pb_err *err)
{
    int ec;
    PCRE2_SIZE eo;
    struct line_hit h = {0};
    h.re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                         PCRE2_UTF | PCRE2_UCP, &ec, &eo, NULL);
    if (!h.re)
        return 0;
    h.md = pcre2_match_data_create_from_pattern(h.re, NULL);
    int rc = h.md ? pb_db_each_name(db, PB_DB_METRICS, NULL, on_line_name,
                                    &h, err)
                  : PB_OK;
    pcre2_match_data_free(h.md);
    pcre2_code_free(h.re);
    if (rc != PB_OK && rc != ANY_HIT)
        return -1;
    return h.hit;
}

static const char *const kind_word[] = {
    [PB_DB_TESTS] = "test",     [PB_DB_CONFIGS] = "config",
    [PB_DB_METRICS] = "metric", [PB_DB_HOSTS] = "host",
    [PB_DB_FORMATS] = "format",
};

int cli_check_filter(struct pb_db *db, const char *cmd,
                     const struct pb_db_filter *f)
{
    const char *pat[] = {
        [PB_DB_TESTS] = f->test_re,     [PB_DB_CONFIGS] = f->config_re,
        [PB_DB_METRICS] = f->metric_re, [PB_DB_HOSTS] = f->host_re,
        [PB_DB_FORMATS] = f->format,
    };
    struct pb_err err = {0};
    int nset = 0;
    for (int k = PB_DB_TESTS; k <= PB_DB_FORMATS; k++) {
        if (!pat[k])
            continue;
        nset++;
        struct any a = {0};
        int rc = pb_db_each_name(db, k, pat[k], on_any_name, &a, &err);
        if (rc != PB_OK && rc != ANY_HIT)
            return cli_fail(&err);
        if (a.hit)
            continue;
        if (k == PB_DB_METRICS && !strcmp(cmd, "report")) {
            int line = names_series_line(db, pat[k], &err);
            if (line < 0)
                return cli_fail(&err);
            if (line)
                continue;
        }
        /* the nearest name of this kind, else of another kind */
        struct cli_nearest n;
        cli_nearest_init(&n, pat[k]);
        int found_kind = k;
        if (pb_db_each_name(db, k, NULL, on_cand, &n, &err) != PB_OK) {
            cli_nearest_release(&n);
            return cli_fail(&err);
        }
        for (int o = PB_DB_TESTS; o <= PB_DB_HOSTS && !n.best; o++) {
            if (o == k)
                continue;
            if (pb_db_each_name(db, o, NULL, on_cand, &n, &err) != PB_OK) {
                cli_nearest_release(&n);
                return cli_fail(&err);
            }
            found_kind = o;
        }
        char *msg = k == PB_DB_FORMATS
                        ? pb_xasprintf("no source of format '%s' has results",
                                       pat[k])
                        : pb_xasprintf("no %s matches '%s'", kind_word[k],
                                       pat[k]);
        int out;
        if (!n.best)
            out = cli_usage_error(cmd, "%s", msg);
        else if (found_kind == k)
            out = cli_usage_error(cmd, "%s; did you mean '%s'?", msg, n.best);
        else
            out = cli_usage_error(cmd, "%s; did you mean --%s '%s'?", msg,
                                  kind_word[found_kind], n.best);
        free(msg);
        cli_nearest_release(&n);
        return out;
    }
    if (nset < 2)
        return 0;
    /* each matches something, but maybe not together */
    struct any a = {0};
    int rc = pb_db_each_result(db, f, on_any_row, &a, &err);
    if (rc != PB_OK && rc != ANY_HIT)
        return cli_fail(&err);
    if (!a.hit)
        return cli_usage_error(cmd, "no result matches all the filters "
                               "together (each matches some)");
    return 0;
}

/* ==== --ignore-param ==== */

int cli_ignore_params(const char *cmd, const char *text,
                      const char *const **out)
{
    *out = NULL;
    if (!text)
        return 0;
    size_t len = strlen(text), n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    char **v = pb_xmalloc((n + 1) * sizeof(*v) + len + 1);
    char *copy = (char *)(v + n + 1);
    memcpy(copy, text, len + 1);
    size_t k = 0;
    if (strcmp(text, "none") != 0) {
        for (char *s = copy;;) {
            char *comma = strchr(s, ',');
            if (comma)
                *comma = '\0';
            int ok = *s != '\0';
            for (const char *c = s; *c && ok; c++)
                ok = isalnum((unsigned char)*c) || *c == '_' || *c == '.' ||
                     *c == '-';
            if (!ok) {
                int rc = cli_usage_error(cmd, "--ignore-param: bad parameter "
                                         "name '%s' (give keys such as "
                                         "runtime,size, or none)", s);
                free(v);
                return rc;
            }
            v[k++] = s;
            if (!comma)
                break;
            s = comma + 1;
        }
    }
    v[k] = NULL;
    *out = (const char *const *)v;
    return 0;
}
