/* Helpers of the fio JSON parser tests (test_fio_json.c: fixtures and
 * corpus; test_fio_json_hostile.c: hostile input and sniffing): parsing
 * files, rejecting, comparing values. Static and possibly unused in one
 * of them (TH_FN). */
#ifndef PB_FIO_JSON_HELP_H
#define PB_FIO_JSON_HELP_H

#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <unistd.h> /* access(), in skip_unless_exists */

#define FIX_DIR    PB_FIXTURES_DIR "/fio-json"
#define CORPUS_DIR PB_CORPUS_DIR "/fio-json"

/* ==== helpers (most in testhelp.h) ==== */

#define JSONP (&pb_parser_fio_json)

TH_FN struct pb_resultset *fixture(const char *name)
{
    return th_parse_ok(JSONP, FIX_DIR, name);
}

TH_FN struct pb_resultset *corpus(const char *name)
{
    skip_unless_exists(CORPUS_DIR);
    return th_parse_ok(JSONP, CORPUS_DIR, name);
}

/* Expect the parse of a bad file to fail at line:col with msg inside. */
TH_FN void expect_reject(const char *dir, const char *name, long line, long col,
                         const char *msg)
{
    struct pb_resultset *set;
    struct pb_err err;
    assert_int_equal(th_parse_file(JSONP, dir, name, &set, &err), PB_EINPUT);
    assert_null(set);
    assert_int_equal(err.code, PB_EINPUT);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    if (!strstr(err.msg, msg)) {
        print_error("message \"%s\" lacks \"%s\"\n", err.msg, msg);
        fail();
    }
}

/* Values are compared with a relative 1e-12: unit conversions such as
 * 477734.84 usec * 1000 are not exact in binary. */
#define assert_val(s, job, metric, want)                                       \
    assert_rel(th_val((s), (job), (metric)), (want), 1e-12)
#define assert_hval(s, host, job, metric, want)                                \
    assert_rel(th_hval((s), (host), (job), (metric)), (want), 1e-12)

TH_FN const char *unit_of(const struct pb_resultset *s, const char *job,
                          const char *metric)
{
    const struct pb_result *r = th_find(s, job, metric);
    assert_non_null(r);
    return r->unit;
}

TH_FN const char *config_of(const struct pb_resultset *s, const char *job)
{
    for (size_t i = 0; i < s->nresults; i++)
        if (th_same(s->results[i].job, job))
            return s->configs[s->results[i].config].label;
    return NULL;
}

TH_FN int sniff_file(const char *dir, const char *name)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    int score = th_sniff(JSONP, buf, len);
    free(buf);
    return score;
}

#endif
