/* Helpers of the iozone text parser tests (test_iozone_text.c: corpus and
 * fixtures; test_iozone_text_mem.c: inputs built in memory and hostile
 * input): parsing, loading, finding results. Static and possibly unused
 * in one of them (TH_FN). */
#ifndef PB_IOZONE_HELP_H
#define PB_IOZONE_HELP_H

#include "tests/unit/testhelp.h"

#include "ingest/ingest.h"

#include <unistd.h> /* access(), in skip_unless_exists */

#define CORPUS PB_CORPUS_DIR "/iozone/"
#define FIX    PB_FIXTURES_DIR "/iozone/"

/* ==== helpers ==== */

TH_FN const struct pb_parser *parser(void)
{
    const struct pb_parser *p = pb_ingest_parser_by_name("iozone");
    assert_non_null(p);
    return p;
}

/* Parse buf with the iozone parser directly. Returns the code; *out is
 * the set on success, NULL on error. */
TH_FN int parse_buf(const char *buf, size_t len, struct pb_resultset **out,
                    struct pb_err *err)
{
    struct pb_resultset *set = pb_resultset_new();
    set->format = "iozone";
    int rc = pb_parser_run(parser(), "mem", buf, len, set, err);
    if (rc) {
        pb_resultset_free(set);
        *out = NULL;
        return rc;
    }
    *out = set;
    return rc;
}

TH_FN int parse_str(const char *s, struct pb_resultset **out,
                    struct pb_err *err)
{
    return parse_buf(s, strlen(s), out, err);
}

/* Read and parse a file through the real entry point (sniffing). */
TH_FN struct pb_resultset *load(const char *path)
{
    skip_unless_exists(path);
    char *buf;
    size_t len;
    struct pb_err err = {0};
    assert_int_equal(pb_read_file(path, &buf, &len, &err), PB_OK);
    const struct pb_parser *p = pb_ingest_find_parser(buf, len);
    assert_non_null(p);
    assert_string_equal(p->name, "iozone");
    struct pb_resultset *set = NULL;
    int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
    if (rc)
        print_error("%s:%ld:%ld: %s\n", err.path, err.line, err.col, err.msg);
    assert_int_equal(rc, PB_OK);
    free(buf);
    return set;
}

TH_FN int streq0(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Results of (test name, metric, job) in set; job NULL matches NULL. */
TH_FN size_t count(const struct pb_resultset *set, const char *test,
                   const char *metric, const char *job)
{
    size_t n = 0;
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if ((!test || !strcmp(set->tests[r->test].name, test)) &&
            !strcmp(r->metric, metric) && streq0(r->job, job))
            n++;
    }
    return n;
}

TH_FN const struct pb_result *find(const struct pb_resultset *set,
                                   const char *test, const char *metric,
                                   const char *job)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (!strcmp(set->tests[r->test].name, test) &&
            !strcmp(r->metric, metric) && streq0(r->job, job))
            return r;
    }
    print_error("no result %s / %s / %s\n", test, metric, job ? job : "-");
    fail();
    return NULL;
}

/* Exactly one result, with this value and unit. */
TH_FN void expect(const struct pb_resultset *set, const char *test,
                  const char *metric, const char *job, double value,
                  const char *unit)
{
    assert_int_equal(count(set, test, metric, job), 1);
    const struct pb_result *r = find(set, test, metric, job);
    assert_true(r->has_value);
    assert_near(r->value, value, fabs(value) * 1e-12);
    assert_string_equal(r->unit, unit);
}

TH_FN void expect_bw(const struct pb_resultset *set, const char *test,
                     const char *metric, const char *job, double kbs)
{
    expect(set, test, metric, job, kbs * 1024, "B/s");
    assert_int_equal(find(set, test, metric, job)->direction, PB_DIR_HIGHER);
}

TH_FN const char *test_param(const struct pb_resultset *set, const char *test,
                             const char *key)
{
    for (size_t i = 0; i < set->ntests; i++) {
        const struct pb_test *t = &set->tests[i];
        if (strcmp(t->name, test) != 0)
            continue;
        assert_string_equal(t->tool, "iozone");
        for (size_t j = 0; j < t->nparams; j++)
            if (!strcmp(t->params[j].key, key))
                return t->params[j].value;
        return NULL;
    }
    print_error("no test %s\n", test);
    fail();
    return NULL;
}

TH_FN void corpus_dir(void)
{
    skip_unless_exists(PB_CORPUS_DIR "/iozone");
}

#endif
