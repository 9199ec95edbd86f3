/* Shared by the unit tests: cmocka plus the few helpers it lacks, and
 * helpers for the parser tests (reading and parsing files, finding
 * results). Include this instead of <cmocka.h>. */
#ifndef PB_TESTHELP_H
#define PB_TESTHELP_H

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ingest/ingest.h"

/* |a - b| <= eps, printing both values (cmocka 1.1 compares floats only). */
#define assert_near(a, b, eps)                                                \
    do {                                                                      \
        double pb_a_ = (a), pb_b_ = (b);                                      \
        if (!(fabs(pb_a_ - pb_b_) <= (eps))) {                                \
            print_error("%.17g != %.17g (eps %g)\n", pb_a_, pb_b_,            \
                        (double)(eps));                                       \
            fail();                                                           \
        }                                                                     \
    } while (0)

/* Relative comparison for large values: |a - b| <= rel * |b|. */
#define assert_rel(a, b, rel) assert_near((a), (b), fabs((double)(b)) * (rel))

/* Skip the current test (exit code 77 for ctest) when path is absent. */
#define skip_unless_exists(path)                                              \
    do {                                                                      \
        if (access((path), R_OK) != 0) {                                      \
            print_message("skipping: %s absent\n", (path));                   \
            skip();                                                           \
        }                                                                     \
    } while (0)

/* Skip unless folder dir and file dir name exist (string literals). */
#define skip_unless_in(dir, name)                                              \
    do {                                                                       \
        skip_unless_exists(dir);                                               \
        skip_unless_exists(dir name);                                          \
    } while (0)

/* ==== parser tests: files and parses ==== */

/* Helpers below are static and may go unused in a test. */
#define TH_FN static __attribute__((unused))

/* Seconds (C11 timespec_get: no feature macro needed), for "it did not
 * hang" checks. */
TH_FN double th_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The bytes of file path, or fail the test; caller frees. */
TH_FN char *th_slurp(const char *path, size_t *len)
{
    char *buf = NULL;
    struct pb_err err = {0};
    if (pb_read_file(path, &buf, len, &err) != PB_OK) {
        print_error("cannot read %s: %s\n", path, err.msg);
        fail();
    }
    return buf;
}

/* The value of fact key of host (NULL: a fact of the source itself), or
 * NULL. */
TH_FN const char *th_fact(const struct pb_resultset *s, const char *host,
                          const char *key)
{
    for (size_t i = 0; i < s->nfacts; i++) {
        const struct pb_fact *f = &s->facts[i];
        if (((!host && !f->host) || (host && f->host && !strcmp(host, f->host)))
            && !strcmp(f->key, key))
            return f->value;
    }
    return NULL;
}

/* The value of the first fact key, whatever its host, or NULL. */
TH_FN const char *th_fact_any(const struct pb_resultset *s, const char *key)
{
    for (size_t i = 0; i < s->nfacts; i++)
        if (!strcmp(s->facts[i].key, key))
            return s->facts[i].value;
    return NULL;
}

/* th_slurp of dir/name; dir NULL: name is the path. */
TH_FN char *th_slurp_in(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    if (!dir)
        return th_slurp(name, len);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return th_slurp(path, len);
}

/* Parse len bytes with p under the name path. The bytes are copied to a
 * heap block of exactly that size, so that ASan sees any read past the
 * end (parsers must not rely on a NUL). Returns the parser's code; *out
 * is the set, NULL on error (err filled). */
TH_FN int th_parse(const struct pb_parser *p, const char *path, const char *buf,
                   size_t len, struct pb_resultset **out, struct pb_err *err)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, buf, len);
    struct pb_resultset *set = pb_resultset_new();
    memset(err, 0, sizeof(*err));
    int rc = pb_parser_run(p, path, copy, len, set, err);
    free(copy);
    if (rc != PB_OK) {
        pb_resultset_free(set);
        set = NULL;
    }
    *out = set;
    return rc;
}

/* th_parse of file dir/name (dir NULL: name is the path) under name. */
TH_FN int th_parse_file(const struct pb_parser *p, const char *dir,
                        const char *name, struct pb_resultset **out,
                        struct pb_err *err)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    int rc = th_parse(p, name, buf, len, out, err);
    free(buf);
    return rc;
}

/* The set of len bytes of buf that p must accept under the name path;
 * fails the test otherwise. Caller frees with pb_resultset_free. */
TH_FN struct pb_resultset *th_parse_mem_ok(const struct pb_parser *p,
                                           const char *path, const char *buf,
                                           size_t len)
{
    struct pb_resultset *set;
    struct pb_err err;
    if (th_parse(p, path, buf, len, &set, &err) != PB_OK) {
        print_error("%s:%ld:%ld: %s\n", err.path, err.line, err.col, err.msg);
        fail();
    }
    return set;
}

/* The same for file dir/name (dir NULL: name is the path). */
TH_FN struct pb_resultset *th_parse_ok(const struct pb_parser *p,
                                       const char *dir, const char *name)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    struct pb_resultset *set = th_parse_mem_ok(p, name, buf, len);
    free(buf);
    return set;
}

/* p's sniff score for a heap copy of the first 8 KiB of buf (what the
 * caller hands a sniffer). */
TH_FN int th_sniff(const struct pb_parser *p, const char *buf, size_t len)
{
    size_t n = len < 8192 ? len : 8192;
    char *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    if (n)
        memcpy(copy, buf, n);
    int score = p->sniff(copy, n);
    free(copy);
    return score;
}

/* The name of the parser pb_ingest_find_parser gives buf, "(none)" when
 * none: tests compare parsers by name, never by address. */
TH_FN const char *th_sniffed(const char *buf, size_t len)
{
    const struct pb_parser *p = pb_ingest_find_parser(buf, len);
    return p ? p->name : "(none)";
}

/* Fail unless pb_ingest_find_parser gives each file dir/names[i] (dir
 * NULL: the names are paths) to p. */
TH_FN void th_sniffed_as(const struct pb_parser *p, const char *dir,
                         const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *buf = th_slurp_in(dir, names[i], &len);
        if (strcmp(th_sniffed(buf, len), p->name) != 0) {
            print_error("%s is not sniffed as %s\n", names[i], p->name);
            fail();
        }
        free(buf);
    }
}

/* n bytes of deterministic garbage from seed. */
TH_FN void th_garbage(void *buf, size_t n, unsigned seed)
{
    unsigned char *g = buf;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        g[i] = (unsigned char)(seed >> 16);
    }
}

struct th_thread {
    const struct pb_parser *p;
    const char *buf;
    size_t len, nresults;
};

TH_FN void *th_thread_main(void *arg)
{
    struct th_thread *t = arg;
    for (int k = 0; k < 20; k++) {
        struct pb_err err = {0};
        struct pb_resultset *s = pb_resultset_new();
        if (pb_parser_run(t->p, "mem", t->buf, t->len, s, &err) == PB_OK)
            t->nresults = s->nresults;
        pb_resultset_free(s);
    }
    return NULL;
}

/* Parse buf with p on 4 threads at once, 20 times each: every parse must
 * give `want` results. */
TH_FN void th_parse_in_threads(const struct pb_parser *p, const char *buf,
                               size_t len, size_t want)
{
    pthread_t th[4];
    struct th_thread t[4];
    for (int i = 0; i < 4; i++) {
        t[i].p = p;
        t[i].buf = buf;
        t[i].len = len;
        t[i].nresults = 0;
        assert_int_equal(pthread_create(&th[i], NULL, th_thread_main, &t[i]),
                         0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(t[i].nresults, want);
    }
}

/* ==== parser tests: results of a set ==== */

/* Equal strings, or both NULL. */
TH_FN int th_same(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* The first result (host, job, metric), or NULL; host NULL: local. */
TH_FN const struct pb_result *th_hfind(const struct pb_resultset *s,
                                       const char *host, const char *job,
                                       const char *metric)
{
    for (size_t i = 0; i < s->nresults; i++) {
        const struct pb_result *r = &s->results[i];
        if (th_same(r->host, host) && th_same(r->job, job) &&
            !strcmp(r->metric, metric))
            return r;
    }
    return NULL;
}

TH_FN const struct pb_result *th_find(const struct pb_resultset *s,
                                      const char *job, const char *metric)
{
    return th_hfind(s, NULL, job, metric);
}

/* The value of result (host, job, metric); fails when it is absent or
 * NULL. */
TH_FN double th_hval(const struct pb_resultset *s, const char *host,
                     const char *job, const char *metric)
{
    const struct pb_result *r = th_hfind(s, host, job, metric);
    if (!r || !r->has_value) {
        print_error("no value for host=%s job=%s %s\n", host ? host : "-",
                    job ? job : "-", metric);
        fail();
    }
    return r->value;
}

TH_FN double th_val(const struct pb_resultset *s, const char *job,
                    const char *metric)
{
    return th_hval(s, NULL, job, metric);
}

/* The test of the first result of (host, job); fails when there is none. */
TH_FN const struct pb_test *th_htest_of(const struct pb_resultset *s,
                                        const char *host, const char *job)
{
    for (size_t i = 0; i < s->nresults; i++)
        if (th_same(s->results[i].host, host) &&
            th_same(s->results[i].job, job))
            return &s->tests[s->results[i].test];
    print_error("no results for job %s\n", job ? job : "-");
    fail();
    return NULL;
}

TH_FN const struct pb_test *th_test_of(const struct pb_resultset *s,
                                       const char *job)
{
    return th_htest_of(s, NULL, job);
}

/* The test called name; fails when there is none. */
TH_FN const struct pb_test *th_test_named(const struct pb_resultset *s,
                                          const char *name)
{
    for (size_t i = 0; i < s->ntests; i++)
        if (!strcmp(s->tests[i].name, name))
            return &s->tests[i];
    print_error("no test \"%s\"\n", name);
    fail();
    return NULL;
}

/* Parameter key of test t, or NULL. */
TH_FN const char *th_param(const struct pb_test *t, const char *key)
{
    for (size_t i = 0; i < t->nparams; i++)
        if (!strcmp(t->params[i].key, key))
            return t->params[i].value;
    return NULL;
}

/* How many results of job (NULL: of any job) have a metric starting with
 * prefix ("read_"). */
TH_FN size_t th_count_prefix(const struct pb_resultset *s, const char *job,
                             const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nresults; i++)
        if ((!job || th_same(s->results[i].job, job)) &&
            !strncmp(s->results[i].metric, prefix, strlen(prefix)))
            n++;
    return n;
}

#endif
