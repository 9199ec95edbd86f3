/* Helpers of the PTS XML parser tests (test_pts_xml.c: files and corpus;
 * test_pts_xml_hostile.c: bad and hostile input): reading, parsing and
 * finding results. Static and possibly unused in one of them (TH_FN). */
#ifndef PB_PTS_XML_HELP_H
#define PB_PTS_XML_HELP_H

#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <time.h>

#define CORPUS PB_CORPUS_DIR "/pts-xml/"
#define FIX PB_FIXTURES_DIR "/pts-xml/"

/* ==== helpers ==== */

/* Ingest a file the way the CLI does (sniffing); must succeed. */
TH_FN struct pb_resultset *ingest(const char *path)
{
    size_t len;
    char *buf = th_slurp(path, &len);
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
    free(buf);
    if (rc != PB_OK)
        fail_msg("%s:%ld:%ld: %s", path, err.line, err.col, err.msg);
    assert_string_equal(set->format, "pts-xml");
    return set;
}

/* Parse a buffer with the pts-xml parser, no sniffing. */
TH_FN int parse_mem(const char *buf, size_t len, struct pb_resultset **out,
                     struct pb_err *err)
{
    struct pb_resultset *set = pb_resultset_new();
    int rc = pb_parser_run(&pb_parser_pts_xml, "mem.xml", buf, len, set, err);
    if (rc != PB_OK || !out)
        pb_resultset_free(set);
    else
        *out = set;
    return rc;
}

TH_FN int parse_str(const char *s, struct pb_resultset **out,
                     struct pb_err *err)
{
    return parse_mem(s, strlen(s), out, err);
}

TH_FN const struct pb_result *find(const struct pb_resultset *set,
                                    const char *config, const char *test,
                                    const char *job)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (strcmp(set->configs[r->config].label, config) != 0 ||
            strcmp(set->tests[r->test].name, test) != 0)
            continue;
        if (job ? (r->job && !strcmp(r->job, job)) : !r->job)
            return r;
    }
    print_error("no result %s / %s / %s\n", config, test, job ? job : "-");
    return NULL;
}

TH_FN const char *tparam(const struct pb_resultset *set, const char *test,
                          const char *key)
{
    const struct pb_test *t = th_test_named(set, test);
    for (size_t i = 0; t && i < t->nparams; i++)
        if (!strcmp(t->params[i].key, key))
            return t->params[i].value;
    return NULL;
}

TH_FN const char *fact(const struct pb_resultset *set, const char *host,
                        const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++) {
        const struct pb_fact *f = &set->facts[i];
        if ((host ? (f->host && !strcmp(f->host, host)) : !f->host) &&
            !strcmp(f->key, key))
            return f->value;
    }
    return NULL;
}

/* Standard error of the mean of the per-run values, by the textbook. */
TH_FN double se_of(const double *x, size_t n)
{
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    return sqrt(ss / (double)(n - 1)) / sqrt((double)n);
}

#define RAW(...)                                                              \
    (const double[]){__VA_ARGS__},                                            \
        sizeof((const double[]){__VA_ARGS__}) / sizeof(double)

TH_FN void check(const struct pb_result *r, double value, const char *unit,
                  int dir, const double *raw, size_t n)
{
    assert_non_null(r);
    assert_true(r->has_value);
    assert_near(r->value, value, fabs(value) * 1e-12);
    assert_string_equal(r->metric, "value");
    if (unit)
        assert_string_equal(r->unit, unit);
    else
        assert_null(r->unit);
    assert_int_equal(r->direction, dir);
    assert_int_equal(r->samples, (long)n);
    if (n >= 2) {
        double se = se_of(raw, n);
        assert_true(r->has_stderr);
        assert_near(r->stderr_, se, se * 1e-9 + 1e-12);
    } else {
        assert_false(r->has_stderr);
    }
}

/* Does any string of the set contain needle? (leak checks for XXE) */
TH_FN int set_contains(const struct pb_resultset *set, const char *needle)
{
#define HAS(s) ((s) && strstr((s), needle))
    for (size_t i = 0; i < set->nfacts; i++)
        if (HAS(set->facts[i].value) || HAS(set->facts[i].key) ||
            HAS(set->facts[i].host))
            return 1;
    for (size_t i = 0; i < set->nconfigs; i++)
        if (HAS(set->configs[i].label))
            return 1;
    for (size_t i = 0; i < set->ntests; i++) {
        if (HAS(set->tests[i].name) || HAS(set->tests[i].tool))
            return 1;
        for (size_t j = 0; j < set->tests[i].nparams; j++)
            if (HAS(set->tests[i].params[j].value))
                return 1;
    }
    for (size_t i = 0; i < set->nresults; i++)
        if (HAS(set->results[i].host) || HAS(set->results[i].job) ||
            HAS(set->results[i].null_reason))
            return 1;
    return HAS(set->tool_version);
#undef HAS
}

TH_FN double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A small valid document with one result whose entry carries VALUE and
 * RAW, and identifier IDENT. */
TH_FN char *doc_with(const char *ident, const char *value, const char *raw)
{
    return pb_xasprintf(
        "<?xml version=\"1.0\"?>\n"
        "<PhoronixTestSuite>\n"
        "  <Generated><Title>t</Title></Generated>\n"
        "  <System><Identifier>%s</Identifier></System>\n"
        "  <Result>\n"
        "    <Identifier>pts/dbench-1.0.0</Identifier>\n"
        "    <Title>Dbench</Title>\n"
        "    <Description>Client Count: 6</Description>\n"
        "    <Scale>MB/s</Scale>\n"
        "    <Proportion>HIB</Proportion>\n"
        "    <Data><Entry><Identifier>%s</Identifier><Value>%s</Value>"
        "<RawString>%s</RawString></Entry></Data>\n"
        "  </Result>\n"
        "</PhoronixTestSuite>\n",
        ident, ident, value, raw);
}

#endif
