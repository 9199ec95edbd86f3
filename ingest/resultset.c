/* The in-memory result set every parser fills: configs, tests, results and
 * facts, all strings owned by one arena. */
#include "ingest/ingest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pb_resultset *pb_resultset_new(void)
{
    struct pb_resultset *set = pb_xcalloc(1, sizeof(*set));
    pb_arena_init(&set->arena);
    return set;
}

void pb_resultset_free(struct pb_resultset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->nconfigs; i++)
        free(set->configs[i].params);
    for (size_t i = 0; i < set->ntests; i++)
        free(set->tests[i].params);
    free(set->configs);
    free(set->tests);
    free(set->results);
    free(set->facts);
    pb_arena_release(&set->arena);
    free(set);
}

const char *pb_rs_str(struct pb_resultset *set, const char *s)
{
    return pb_arena_strdup(&set->arena, s);
}

static int streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

size_t pb_rs_config(struct pb_resultset *set, const char *label)
{
    if (!label)
        label = "";
    /* Sets hold few configs; a linear scan from the end finds the usual
     * "same as last time" case at once. */
    for (size_t i = set->nconfigs; i-- > 0;)
        if (streq(set->configs[i].label, label))
            return i;
    PB_GROW(set->configs, set->capconfigs, set->nconfigs + 1);
    struct pb_config *c = &set->configs[set->nconfigs];
    memset(c, 0, sizeof(*c));
    c->label = pb_rs_str(set, label);
    return set->nconfigs++;
}

static void kv_set(struct pb_resultset *set, struct pb_kv **kv, size_t *n,
                   size_t *cap, const char *key, const char *value)
{
    for (size_t i = 0; i < *n; i++) {
        if (streq((*kv)[i].key, key)) {
            (*kv)[i].value = pb_rs_str(set, value);
            return;
        }
    }
    PB_GROW(*kv, *cap, *n + 1);
    (*kv)[*n].key = pb_rs_str(set, key);
    (*kv)[*n].value = pb_rs_str(set, value);
    (*n)++;
}

void pb_rs_config_param(struct pb_resultset *set, size_t config,
                        const char *key, const char *value)
{
    struct pb_config *c = &set->configs[config];
    kv_set(set, &c->params, &c->nparams, &c->capparams, key, value);
}

size_t pb_rs_test(struct pb_resultset *set, const char *name,
                  const char *tool)
{
    for (size_t i = set->ntests; i-- > 0;)
        if (streq(set->tests[i].name, name) && streq(set->tests[i].tool, tool))
            return i;
    PB_GROW(set->tests, set->captests, set->ntests + 1);
    struct pb_test *t = &set->tests[set->ntests];
    memset(t, 0, sizeof(*t));
    t->name = pb_rs_str(set, name);
    t->tool = pb_rs_str(set, tool);
    return set->ntests++;
}

void pb_rs_test_param(struct pb_resultset *set, size_t test, const char *key,
                      const char *value)
{
    struct pb_test *t = &set->tests[test];
    kv_set(set, &t->params, &t->nparams, &t->capparams, key, value);
}

static struct pb_result *add(struct pb_resultset *set, size_t config,
                             size_t test, const char *host, const char *job,
                             const char *metric, const char *unit,
                             int direction)
{
    PB_GROW(set->results, set->capresults, set->nresults + 1);
    struct pb_result *r = &set->results[set->nresults++];
    memset(r, 0, sizeof(*r));
    r->config = config;
    r->test = test;
    r->host = pb_rs_str(set, host);
    r->job = pb_rs_str(set, job);
    r->metric = pb_rs_str(set, metric);
    r->unit = pb_rs_str(set, unit);
    r->direction = direction >= 0 ? PB_DIR_HIGHER : PB_DIR_LOWER;
    return r;
}

struct pb_result *pb_rs_add(struct pb_resultset *set, size_t config,
                            size_t test, const char *host, const char *job,
                            const char *metric, const char *unit,
                            int direction, double value)
{
    struct pb_result *r =
        add(set, config, test, host, job, metric, unit, direction);
    if (isfinite(value)) {
        r->has_value = 1;
        r->value = value;
    } else {
        r->null_reason = pb_rs_str(set, "not a finite number");
    }
    return r;
}

struct pb_result *pb_rs_add_null(struct pb_resultset *set, size_t config,
                                 size_t test, const char *host,
                                 const char *job, const char *metric,
                                 const char *unit, int direction,
                                 const char *reason)
{
    struct pb_result *r =
        add(set, config, test, host, job, metric, unit, direction);
    r->null_reason = pb_rs_str(set, reason);
    return r;
}

void pb_rs_fact(struct pb_resultset *set, const char *host, const char *key,
                const char *value)
{
    for (size_t i = 0; i < set->nfacts; i++) {
        if (streq(set->facts[i].host, host) &&
            streq(set->facts[i].key, key)) {
            set->facts[i].value = pb_rs_str(set, value);
            return;
        }
    }
    PB_GROW(set->facts, set->capfacts, set->nfacts + 1);
    struct pb_fact *f = &set->facts[set->nfacts++];
    f->host = pb_rs_str(set, host);
    f->key = pb_rs_str(set, key);
    f->value = pb_rs_str(set, value);
}

/* ==== dump ==== */

static const char *nz(const char *s)
{
    return s ? s : "-";
}

void pb_resultset_dump(const struct pb_resultset *set, FILE *fp)
{
    char num[64];
    fprintf(fp, "format %s\n", nz(set->format));
    fprintf(fp, "tool_version %s\n", nz(set->tool_version));
    for (size_t i = 0; i < set->nfacts; i++)
        fprintf(fp, "fact host=%s %s=%s\n", nz(set->facts[i].host),
                set->facts[i].key, nz(set->facts[i].value));
    for (size_t i = 0; i < set->nconfigs; i++) {
        const struct pb_config *c = &set->configs[i];
        fprintf(fp, "config %zu %s\n", i, c->label);
        for (size_t j = 0; j < c->nparams; j++)
            fprintf(fp, "  %s=%s\n", c->params[j].key, c->params[j].value);
    }
    for (size_t i = 0; i < set->ntests; i++) {
        const struct pb_test *t = &set->tests[i];
        fprintf(fp, "test %zu %s [%s]\n", i, t->name, nz(t->tool));
        for (size_t j = 0; j < t->nparams; j++)
            fprintf(fp, "  %s=%s\n", t->params[j].key, t->params[j].value);
    }
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        fprintf(fp, "result c=%zu t=%zu host=%s job=%s %s=", r->config,
                r->test, nz(r->host), nz(r->job), r->metric);
        if (r->has_value)
            fputs(pb_fmt_num(r->value, num, sizeof(num)), fp);
        else
            fprintf(fp, "NULL(%s)", nz(r->null_reason));
        fprintf(fp, " %s %s", nz(r->unit),
                r->direction == PB_DIR_HIGHER ? "higher" : "lower");
        if (r->has_stderr)
            fprintf(fp, " se=%s", pb_fmt_num(r->stderr_, num, sizeof(num)));
        if (r->samples)
            fprintf(fp, " n=%ld", r->samples);
        fputc('\n', fp);
    }
}
