/* Helpers of the bonnie++ CSV parser tests (test_bonnie_csv.c: fixtures,
 * corpus, sniffing; test_bonnie_csv_rows.c: rows built in memory, hostile
 * input): parsing, rejecting, finding and checking results. Expected
 * numbers are copied from the files and converted by hand: K/sec x 1024 =
 * B/s, us x 1e3 / ms x 1e6 / s x 1e9 = ns, sizes in MiB x 1048576 = B.
 * Static and possibly unused in one of them (TH_FN). */
#ifndef PB_BONNIE_CSV_HELP_H
#define PB_BONNIE_CSV_HELP_H

#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <unistd.h> /* access(), in skip_unless_exists */

#define FIX_DIR    PB_FIXTURES_DIR "/bonnie-csv"
#define CORPUS_DIR PB_CORPUS_DIR "/bonnie-csv"

#define TOO_FAST "+++++ (too fast to measure)"

/* ==== helpers (the generic ones in testhelp.h) ==== */

#define BONNIEP (&pb_parser_bonnie_csv)

TH_FN struct pb_resultset *fixture(const char *name)
{
    return th_parse_ok(BONNIEP, FIX_DIR, name);
}

TH_FN struct pb_resultset *corpus(const char *name)
{
    skip_unless_exists(CORPUS_DIR);
    return th_parse_ok(BONNIEP, CORPUS_DIR, name);
}

/* Expect a parse of buf to fail at line:col with msg inside the message. */
TH_FN void expect_mem_reject(const char *buf, size_t len, long line, long col,
                             const char *msg)
{
    struct pb_resultset *set;
    struct pb_err err;
    assert_int_equal(th_parse(BONNIEP, "mem.csv", buf, len, &set, &err),
                     PB_EINPUT);
    assert_null(set);
    assert_int_equal(err.code, PB_EINPUT);
    assert_string_equal(err.path, "mem.csv");
    if (err.line != line || err.col != col || !strstr(err.msg, msg)) {
        print_error("got %ld:%ld: \"%s\", want %ld:%ld: \"%s\"\n", err.line,
                    err.col, err.msg, line, col, msg);
        fail();
    }
}

TH_FN void expect_reject(const char *dir, const char *name, long line, long col,
                         const char *msg)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    expect_mem_reject(buf, len, line, col, msg);
    free(buf);
}

/* The one result (host, job, metric) of test `test` (NULL: any test). */
TH_FN const struct pb_result *find_t(const struct pb_resultset *s,
                                     const char *test, const char *host,
                                     const char *job, const char *metric)
{
    const struct pb_result *hit = NULL;
    for (size_t i = 0; i < s->nresults; i++) {
        const struct pb_result *r = &s->results[i];
        if (th_same(r->host, host) && th_same(r->job, job) &&
            !strcmp(r->metric, metric) &&
            (!test || !strcmp(s->tests[r->test].name, test))) {
            if (hit) {
                print_error("two results for %s/%s/%s\n", host, job ? job : "-",
                            metric);
                fail();
            }
            hit = r;
        }
    }
    return hit;
}

TH_FN const struct pb_result *find(const struct pb_resultset *s,
                                   const char *host, const char *job,
                                   const char *metric)
{
    return find_t(s, NULL, host, job, metric);
}

TH_FN const struct pb_result *must(const struct pb_result *r,
                                   const char *metric)
{
    if (!r) {
        print_error("no result for %s\n", metric);
        fail();
    }
    return r;
}

/* value, unit and direction of a measured result */
TH_FN void chk_t(const struct pb_resultset *s, const char *test,
                 const char *host, const char *job, const char *metric,
                 double want, const char *unit, int dir)
{
    const struct pb_result *r =
        must(find_t(s, test, host, job, metric), metric);
    if (!r->has_value) {
        print_error("%s is NULL (%s)\n", metric, r->null_reason);
        fail();
    }
    assert_near(r->value, want, fabs(want) * 1e-12);
    assert_string_equal(r->unit, unit);
    assert_int_equal(r->direction, dir);
}

TH_FN void chk(const struct pb_resultset *s, const char *host, const char *job,
               const char *metric, double want, const char *unit, int dir)
{
    chk_t(s, NULL, host, job, metric, want, unit, dir);
}

TH_FN void chk_null(const struct pb_resultset *s, const char *host,
                    const char *job, const char *metric)
{
    const struct pb_result *r = must(find(s, host, job, metric), metric);
    assert_false(r->has_value);
    assert_string_equal(r->null_reason, TOO_FAST);
}

/* A result folded from repeated runs: mean, stderr (se < 0: none) and
 * samples (0: one run, unknown). */
TH_FN void chk_fold_t(const struct pb_resultset *s, const char *test,
                      const char *host, const char *metric, double mean,
                      double se, long n)
{
    const struct pb_result *r =
        must(find_t(s, test, host, NULL, metric), metric);
    if (!r->has_value) {
        print_error("%s is NULL (%s)\n", metric, r->null_reason);
        fail();
    }
    assert_near(r->value, mean, fabs(mean) * 1e-12);
    if (se < 0) {
        assert_false(r->has_stderr);
    } else {
        assert_true(r->has_stderr);
        assert_near(r->stderr_, se, fabs(se) * 1e-12);
    }
    assert_int_equal(r->samples, n);
}

TH_FN void chk_fold(const struct pb_resultset *s, const char *host,
                    const char *metric, double mean, double se, long n)
{
    chk_fold_t(s, NULL, host, metric, mean, se, n);
}

/* NULL "+++++" in all of n runs (n = 0: one run) */
TH_FN void chk_null_nt(const struct pb_resultset *s, const char *test,
                       const char *host, const char *metric, long n)
{
    const struct pb_result *r =
        must(find_t(s, test, host, NULL, metric), metric);
    assert_false(r->has_value);
    assert_string_equal(r->null_reason, TOO_FAST);
    assert_false(r->has_stderr);
    assert_int_equal(r->samples, n);
}

TH_FN void chk_null_n(const struct pb_resultset *s, const char *host,
                      const char *metric, long n)
{
    chk_null_nt(s, NULL, host, metric, n);
}

TH_FN void no_jobs(const struct pb_resultset *s)
{
    for (size_t i = 0; i < s->nresults; i++)
        assert_null(s->results[i].job);
}

TH_FN void chk_absent(const struct pb_resultset *s, const char *host,
                      const char *job, const char *metric)
{
    assert_null(find(s, host, job, metric));
}

TH_FN const char *tparam(const struct pb_resultset *s, size_t t,
                         const char *key)
{
    return th_param(&s->tests[t], key);
}

TH_FN size_t test_named(const struct pb_resultset *s, const char *name)
{
    const struct pb_test *t = th_test_named(s, name);
    assert_string_equal(t->tool, "bonnie++");
    return (size_t)(t - s->tests);
}

#define HI  PB_DIR_HIGHER
#define LO  PB_DIR_LOWER
#define KB  1024.0
#define MIB 1048576.0

#endif
