/* Helpers of the zfs-props parser tests (test_zfs_props.c: sniffing,
 * corpus and fixtures; test_zfs_props_hostile.c: errors and hostile
 * input): parsing, finding results, parameters and facts, checking units.
 * Static and possibly unused in one of them (TH_FN). */
#ifndef PB_ZFS_PROPS_HELP_H
#define PB_ZFS_PROPS_HELP_H

#include "tests/unit/testhelp.h"

#include "ingest/ingest.h"

#include <unistd.h> /* access(), in skip_unless_exists */

#define K 1024.0
#define M (1024.0 * 1024)
#define G (1024.0 * 1024 * 1024)
#define T (1024.0 * 1024 * 1024 * 1024)

#define CORPUS PB_CORPUS_DIR "/zfs"
#define FIX    PB_FIXTURES_DIR "/zfs"

/* ==== helpers ==== */

TH_FN const struct pb_parser *zfs(void)
{
    const struct pb_parser *p = pb_ingest_parser_by_name("zfs-props");
    assert_non_null(p);
    return p;
}

/* Parse buf (a copy of exactly len bytes) as "mem"; *out NULL on error. */
TH_FN int parse_buf(const char *buf, size_t len, struct pb_resultset **out,
                    struct pb_err *err)
{
    return th_parse(zfs(), "mem", buf, len, out, err);
}

TH_FN int parse_str(const char *s, struct pb_resultset **out,
                    struct pb_err *err)
{
    return parse_buf(s, strlen(s), out, err);
}

/* Parse a file of dir that must parse; skips when dir is absent. */
TH_FN struct pb_resultset *load(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    skip_unless_exists(path);
    size_t len;
    char *buf = th_slurp(path, &len);
    assert_non_null(buf);
    assert_true(zfs()->sniff(buf, len < 8192 ? len : 8192) >= 60);
    const struct pb_parser *best =
        pb_ingest_find_parser(buf, len < 8192 ? len : 8192);
    assert_non_null(best);
    assert_string_equal(best->name, "zfs-props");
    struct pb_resultset *set;
    struct pb_err err;
    int rc = parse_buf(buf, len, &set, &err);
    if (rc != PB_OK)
        print_error("%s:%ld:%ld: %s\n", name, err.line, err.col, err.msg);
    assert_int_equal(rc, PB_OK);
    free(buf);
    return set;
}

TH_FN long config_of(const struct pb_resultset *set, const char *label)
{
    for (size_t i = 0; i < set->nconfigs; i++)
        if (!strcmp(set->configs[i].label, label))
            return (long)i;
    return -1;
}

TH_FN const struct pb_result *res(const struct pb_resultset *set,
                                  const char *label, const char *metric)
{
    long c = config_of(set, label);
    if (c < 0)
        return NULL;
    for (size_t i = 0; i < set->nresults; i++)
        if (set->results[i].config == (size_t)c &&
            !strcmp(set->results[i].metric, metric))
            return &set->results[i];
    return NULL;
}

/* The value of a result that must exist. */
TH_FN double val(const struct pb_resultset *set, const char *label,
                 const char *metric)
{
    const struct pb_result *r = res(set, label, metric);
    if (!r)
        print_error("no %s for %s\n", metric, label);
    assert_non_null(r);
    assert_true(r->has_value);
    return r->value;
}

TH_FN const char *param(const struct pb_resultset *set, const char *label,
                        const char *key)
{
    long c = config_of(set, label);
    if (c < 0)
        return NULL;
    const struct pb_config *cf = &set->configs[c];
    for (size_t i = 0; i < cf->nparams; i++)
        if (!strcmp(cf->params[i].key, key))
            return cf->params[i].value;
    return NULL;
}

TH_FN const char *fact(const struct pb_resultset *set, const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++)
        if (!strcmp(set->facts[i].key, key))
            return set->facts[i].value;
    return NULL;
}

TH_FN size_t count_metric(const struct pb_resultset *set, const char *metric)
{
    size_t n = 0;
    for (size_t i = 0; i < set->nresults; i++)
        n += !strcmp(set->results[i].metric, metric);
    return n;
}

#define ASSERT_PARAM(set, label, key, want)                                    \
    do {                                                                       \
        const char *pv_ = param((set), (label), (key));                        \
        assert_non_null(pv_);                                                  \
        assert_string_equal(pv_, (want));                                      \
    } while (0)

#define ASSERT_FACT(set, key, want)                                            \
    do {                                                                       \
        const char *fv_ = fact((set), (key));                                  \
        assert_non_null(fv_);                                                  \
        assert_string_equal(fv_, (want));                                      \
    } while (0)

/* Metric name, unit and direction as documented in zfs_props.c. */
TH_FN void check_units(const struct pb_resultset *set)
{
    static const struct {
        const char *metric, *unit;
        int dir;
    } u[] = {
        {"compressratio", "ratio", PB_DIR_HIGHER},
        {"used", "B", PB_DIR_LOWER},
        {"logicalused", "B", PB_DIR_HIGHER},
        {"referenced", "B", PB_DIR_LOWER},
        {"available", "B", PB_DIR_HIGHER},
        {"actual_savings", "ratio", PB_DIR_HIGHER},
        {"size", "B", PB_DIR_HIGHER},
        {"allocated", "B", PB_DIR_LOWER},
        {"free", "B", PB_DIR_HIGHER},
        {"fragmentation", "%", PB_DIR_LOWER},
        {"capacity", "%", PB_DIR_LOWER},
        {"dedupratio", "ratio", PB_DIR_HIGHER},
        {"read_errors", "count", PB_DIR_LOWER},
        {"write_errors", "count", PB_DIR_LOWER},
        {"cksum_errors", "count", PB_DIR_LOWER},
    };
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        size_t k;
        for (k = 0; k < sizeof(u) / sizeof(u[0]); k++)
            if (!strcmp(u[k].metric, r->metric))
                break;
        assert_true(k < sizeof(u) / sizeof(u[0]));
        assert_string_equal(r->unit, u[k].unit);
        assert_int_equal(r->direction, u[k].dir);
        assert_true(r->has_value);
        assert_true(isfinite(r->value) && r->value >= 0);
        assert_null(r->host);
        assert_null(r->job);
        const struct pb_test *t = &set->tests[r->test];
        if (!strcmp(t->tool, "zfs"))
            assert_string_equal(t->name, "zfs space");
        else if (r->metric[strlen(r->metric) - 1] == 's' &&
                 strstr(r->metric, "_errors"))
            assert_string_equal(t->name, "zpool status");
        else
            assert_string_equal(t->name, "zpool space");
    }
}

#endif
