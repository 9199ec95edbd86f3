/* Unit tests for per-repeat samples (issue 12 item 3): pb_rs_samples
 * keeps 2+ finite values behind a result, --dump prints them, and
 * pb_db_store puts each value behind the right result row across the
 * multi-row INSERTs (64, 32, ... rows each: ids derived from the last
 * one), in input order. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "model/db.h"

static void test_rs_samples(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    size_t c = pb_rs_config(s, "cfg"), t = pb_rs_test(s, "t", "pts");
    struct pb_result *r =
        pb_rs_add(s, c, t, NULL, NULL, "value", "MB/s", PB_DIR_HIGHER, 2);
    const double v[] = {1, 2, 3};
    const double *got;
    assert_int_equal(pb_rs_samples(s, r, v, 3), 3);
    assert_int_equal(r->samples, 3); /* set when it was unknown */
    assert_int_equal(pb_rs_result_samples(s, r, &got), 3);
    assert_memory_equal(got, v, sizeof(v));
    /* one value, or a value that is not finite: none kept */
    assert_int_equal(pb_rs_samples(s, r, v, 1), 0);
    assert_int_equal(pb_rs_result_samples(s, r, &got), 0);
    const double bad[] = {1, NAN, 3};
    assert_int_equal(pb_rs_samples(s, r, bad, 3), 0);
    const double inf[] = {1, INFINITY};
    assert_int_equal(pb_rs_samples(s, r, inf, 2), 0);
    /* the parser's count stays */
    struct pb_result *q =
        pb_rs_add(s, c, t, NULL, NULL, "v2", "MB/s", PB_DIR_HIGHER, 2);
    q->samples = 5;
    assert_int_equal(pb_rs_samples(s, q, v + 1, 2), 2);
    assert_int_equal(q->samples, 5);
    /* dump */
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    pb_resultset_dump(s, fp);
    fclose(fp);
    assert_non_null(strstr(out, " value=2 MB/s higher n=3\n"));
    assert_non_null(strstr(out, " v2=2 MB/s higher n=5 samples=2:3\n"));
    free(out);
    pb_resultset_free(s);
}

static char dbpath[] = "/tmp/pb-unit-samples-XXXXXX";

/* A set of n results "m000".."m(n-1)"; result k has samples k, k+0.5
 * when keep(k). */
static struct pb_resultset *set_of(const char *name, size_t n,
                                   int (*keep)(size_t))
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, name);
    s->format = "test";
    pb_sha256_hex(name, strlen(name), s->sha256);
    size_t c = pb_rs_config(s, "cfg"), t = pb_rs_test(s, "t", "pts");
    for (size_t k = 0; k < n; k++) {
        char m[16];
        snprintf(m, sizeof(m), "m%03zu", k);
        struct pb_result *r =
            pb_rs_add(s, c, t, NULL, NULL, m, "B", PB_DIR_HIGHER, (double)k);
        double v[3] = {(double)k, (double)k + 0.5, (double)k + 0.25};
        if (keep(k))
            pb_rs_samples(s, r, v, 3);
    }
    return s;
}

static int every(size_t k)
{
    (void)k;
    return 1;
}

static int some(size_t k)
{
    return k == 0 || k == 63 || k == 64 || k == 95 || k == 96 || k == 99;
}

static void test_store(void **state)
{
    (void)state;
    int fd = mkstemp(dbpath);
    assert_true(fd >= 0);
    close(fd);
    unlink(dbpath);
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *a = set_of("a", 5, every);
    struct pb_resultset *b = set_of("b", 100, some);
    assert_int_equal(pb_db_store(db, a, NULL, &err), PB_OK);
    assert_int_equal(pb_db_store(db, b, NULL, &err), PB_OK);
    pb_resultset_free(a);
    pb_resultset_free(b);
    pb_db_close(db);

    sqlite3 *h;
    assert_int_equal(sqlite3_open(dbpath, &h), SQLITE_OK);
    sqlite3_stmt *q;
    /* every sample: its result's metric name and value match it */
    assert_int_equal(
        sqlite3_prepare_v2(h,
                           "SELECT s.path, m.name, r.value, x.seq, x.value "
                           "FROM sample x JOIN result r ON r.id = x.result_id "
                           "JOIN metric m ON m.id = r.metric_id JOIN source s "
                           "ON s.id = r.source_id ORDER BY r.id, x.seq",
                           -1, &q, NULL),
        SQLITE_OK);
    size_t n = 0;
    char seen[256] = "";
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *m = (const char *)sqlite3_column_text(q, 1);
        double rv = sqlite3_column_double(q, 2);
        int seq = sqlite3_column_int(q, 3);
        double xv = sqlite3_column_double(q, 4);
        assert_int_equal(atoi(m + 1), (int)rv);
        static const double off[3] = {0, 0.5, 0.25};
        assert_true(xv == rv + off[seq]);
        if (seq == 0 && !strcmp((const char *)sqlite3_column_text(q, 0), "b"))
            snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s ",
                     m);
        n++;
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
    assert_int_equal(n, 3 * (5 + 6));
    assert_string_equal(seen, "m000 m063 m064 m095 m096 m099 ");
    unlink(dbpath);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rs_samples),
        cmocka_unit_test(test_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
