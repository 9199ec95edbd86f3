/* Unit tests for the report's own sort (model/rsort.c, model/rrows.c):
 * the sorter against qsort with many runs, and pb_db_each_report_row
 * against SQLite's ORDER BY on the same database (ties broken by result
 * id, NULL and missing jobs and hosts first, names past 0x7f in BINARY
 * order, ids near 2^31 and 2^32, every filter, records spilled into
 * many runs, and the fallback for ids past 32 bits); and
 * pb_db_each_ranked_row (the bonnie++ table's order) against its SQLite
 * ORDER BY. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/db.h"
#include "model/db_int.h"
#include "model/rcode.h"
#include "model/rsort.h"

/* xorshift64: a number below n from state *st */
static uint64_t xorshift(uint64_t *st, uint64_t n)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return *st % n;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
    return xorshift(&rng, n);
}

/* ==== the sorter alone ==== */

static int rec_cmp(const void *a, const void *b)
{
    const struct db_rsort_rec *x = a, *y = b;
    if (x->k0 != y->k0)
        return x->k0 < y->k0 ? -1 : 1;
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2 ? -1 : 1;
    return x->k3 < y->k3 ? -1 : x->k3 > y->k3;
}

/* Shapes of input besides random keys: each k0's records already in
 * order of the rest (the report's rows: one radix pass over k0 is the
 * sort), or short groups of one k0 out of order (the ranked order's:
 * sorted by insertion), or one long group out of order after such runs
 * (the full radix sort). */
enum shape {
    RANDOM,
    K0_GROUPS_IN_ORDER,
    SHORT_GROUPS,
    LONG_GROUP_LAST,
    K0_19_BITS, /* k0's differing bits: 17 high, 2 low (two passes) */
    K0_30_BITS  /* 28 high, 2 low (three passes) */
};

static void shape_keys(struct db_rsort_rec *r, size_t i, size_t n,
                       enum shape sh)
{
    switch (sh) {
    case RANDOM:
        break;
    case K0_GROUPS_IN_ORDER:
        r->k0 = rnd(40) << 32 | rnd(3);
        r->k1 = (uint64_t)i << 20; /* rising with the input */
        r->k2 = 0;
        break;
    case SHORT_GROUPS:
        r->k0 = (uint64_t)(i / 20) ^ 0x55; /* groups of 20, out of order */
        break;
    case K0_19_BITS:
        r->k0 = rnd(1u << 17) << 33 | rnd(4) << 5 | (uint64_t)1 << 60;
        break;
    case K0_30_BITS:
        r->k0 = rnd(1u << 28) << 32 | rnd(4) << 30;
        break;
    case LONG_GROUP_LAST:
        if (i > n - n / 4)
            r->k0 = 7; /* a group longer than a run's insertion limit */
        else {
            r->k0 = rnd(5);
            r->k1 = (uint64_t)i;
        }
        break;
    }
}

/* Payloads of every kind the file's coding tells apart: whole and
 * fractional values, -0.0, NaN, infinities, numbers at and past 2^62 and
 * 2^53, samples and aux and flags at their extremes (a generator of its
 * own: the keys' stay as they were). */
static uint64_t prng = 0x9e3779b97f4a7c15ULL;
static uint64_t prnd(uint64_t n)
{
    return xorshift(&prng, n);
}

static double odd_double(void)
{
    const double v[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e300, -1e-300,
                        0x1p62, -0x1p62, 0x1p62 - 1024, 0x1p53 + 2,
                        123456789.0, 0.001234, NAN, -NAN, INFINITY,
                        -INFINITY, 4e-320 /* subnormal */};
    size_t k = prnd(sizeof(v) / sizeof(v[0]) + 2);
    if (k >= sizeof(v) / sizeof(v[0]))
        return (double)(int64_t)(prnd(1u << 30)) - (1 << 29);
    return v[k];
}

static void odd_payload(struct db_rsort_rec *r)
{
    const int64_t sm[] = {0, 1, -1, INT64_MIN, INT64_MAX, 1000};
    const uint32_t u[] = {0, 1, 127, 128, UINT32_MAX, 1u << 31};
    r->value = odd_double();
    r->stderr_ = odd_double();
    r->samples = sm[prnd(6)];
    r->aux = u[prnd(6)];
    r->flags = u[prnd(6)];
}

/* n records of few distinct keys (many ties on k0..k2), k3 rising or
 * not, of the given shape, through a sort of budget bytes: the order of
 * qsort, every payload with its record, and the same again after parking
 * and rewinding the sort when it had runs in its file. */
static void sort_shape(size_t n, size_t budget, int ids_rising,
                       size_t want_runs, enum shape sh)
{
    struct db_rsort_rec *in = calloc(n, sizeof(*in));
    assert_non_null(in);
    const uint64_t big[] = {
        0, 1, 255, 256, 65535, 65536, (uint64_t)1 << 31, UINT32_MAX};
    for (size_t i = 0; i < n; i++) {
        struct db_rsort_rec *r = &in[i];
        r->k0 = big[rnd(8)] << 32 | big[rnd(8)];
        r->k1 = big[rnd(3)] << 32 | rnd(3);
        r->k2 = rnd(3) << 32 | big[rnd(2) * 7];
        r->k3 = ids_rising
                    ? db_rsort_id_key((long long)i - 1000)
                    : db_rsort_id_key((long long)rnd(1u << 20) - (1 << 19));
        shape_keys(r, i, n, sh);
        r->value = (double)i;
        r->samples = (int64_t)i;
        if (i % 3 == 0)
            odd_payload(r);
    }
    struct db_rsort *s = db_rsort_new(budget);
    struct pb_err err = {0};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(db_rsort_add(s, &in[i], &err), PB_OK);
    assert_int_equal(db_rsort_finish(s, &err), PB_OK);
    assert_int_equal(db_rsort_runs(s), want_runs);
    qsort(in, n, sizeof(*in), rec_cmp);
    for (int pass = 0; pass < 2; pass++) {
        const struct db_rsort_rec *x;
        size_t got = 0;
        while (db_rsort_next(s, &x, &err) == PB_OK && x) {
            assert_true(got < n);
            if (memcmp(x, &in[got], sizeof(*x))) {
                print_error(
                    "record %zu: k0 %llx k1 %llx k2 %llx k3 %llx, "
                    "want k3 %llx\n",
                    got, (unsigned long long)x->k0, (unsigned long long)x->k1,
                    (unsigned long long)x->k2, (unsigned long long)x->k3,
                    (unsigned long long)in[got].k3);
                fail();
            }
            got++;
        }
        assert_int_equal(got, n);
        if (pass)
            break;
        assert_int_equal(db_rsort_park(s), want_runs > 0);
        if (!want_runs)
            break;
        assert_int_equal(db_rsort_rewind(s, &err), PB_OK);
    }
    db_rsort_free(s);
    free(in);
}

static void sort_case(size_t n, size_t budget, int ids_rising, size_t want_runs)
{
    sort_shape(n, budget, ids_rising, want_runs, RANDOM);
}

/* The file's coding alone: records through db_rcode_put and
 * db_rcode_get give back every bit, each within DB_RCODE_MAX bytes; a
 * record that differs from the one before only in the low half of k1
 * and k3 and a whole value takes 7 bytes, one identical to it 2. */
static void test_rcode(void **state)
{
    (void)state;
    enum { N = 4000 };
    static struct db_rsort_rec in[N];
    static uint8_t buf[N * DB_RCODE_MAX];
    const uint64_t half[] = {0, 1, 0x7fffffff, 0x80000000, UINT32_MAX};
    for (size_t i = 0; i < N; i++) {
        uint64_t *k[4] = {&in[i].k0, &in[i].k1, &in[i].k2, &in[i].k3};
        for (int w = 0; w < 4; w++)
            *k[w] = half[prnd(5)] << 32 | half[prnd(5)];
        odd_payload(&in[i]);
    }
    uint8_t *p = buf;
    const struct db_rsort_rec zero = {0}, *old = &zero;
    for (size_t i = 0; i < N; old = &in[i++]) {
        uint8_t *q = db_rcode_put(p, old, &in[i]);
        assert_true(q - p >= 2 && q - p <= DB_RCODE_MAX);
        p = q;
    }
    struct db_rsort_rec cur = {0};
    const uint8_t *g = buf;
    for (size_t i = 0; i < N; i++) {
        g = db_rcode_get(g, &cur);
        assert_memory_equal(&cur, &in[i], sizeof(cur));
    }
    assert_ptr_equal(g, p);

    struct db_rsort_rec a = {0}, b;
    a.k0 = (uint64_t)3 << 32 | 17;
    a.k1 = (uint64_t)100 << 32 | 5000;
    a.k3 = db_rsort_id_key(123456);
    a.value = 81920.0;
    a.flags = DB_RSORT_VALUE;
    b = a;
    b.k1 += 3;               /* another source: 1 byte */
    b.k3 += 36;              /* the next id: 1 byte */
    b.value = 1024.0 * 1000; /* a whole number: 3 bytes */
    assert_int_equal(db_rcode_put(buf, &b, &b) - buf, 2);
    assert_int_equal(db_rcode_put(buf, &a, &b) - buf, 7);
    cur = a;
    db_rcode_get(buf, &cur);
    assert_memory_equal(&cur, &b, sizeof(cur));
}

static void test_sorter(void **state)
{
    (void)state;
    /* 4096 bytes: runs of 32 records */
    sort_case(20000, 4096, 1, 625);
    sort_case(20000, 4096, 0, 625);
    sort_case(20001, 4096, 0, 626); /* a last run of one record */
    /* the smallest budget: runs of two */
    sort_case(999, 1, 0, 500);
    /* one run: no file */
    sort_case(20000, 0, 0, 0);
    sort_case(1, 0, 1, 0);
    sort_case(0, 4096, 1, 0);
    /* runs of 256 records: by k0 alone, by insertion, or the full radix
     * after some runs sorted by k0 alone */
    for (int ids = 0; ids < 2; ids++) {
        sort_shape(20000, 32768, ids, 79, K0_GROUPS_IN_ORDER);
        sort_shape(20000, 32768, ids, 79, SHORT_GROUPS);
        sort_shape(20000, 32768, ids, 79, LONG_GROUP_LAST);
        sort_shape(20000, 0, ids, 0, SHORT_GROUPS);
        sort_shape(20000, 32768, ids, 79, K0_19_BITS);
        sort_shape(20000, 32768, ids, 79, K0_30_BITS);
    }
    /* ids as keys keep their signed order */
    assert_true(db_rsort_id_key(-1) < db_rsort_id_key(0));
    assert_true(db_rsort_id_key(INT64_MIN) < db_rsort_id_key(-1));
    assert_true(db_rsort_id_key(INT64_MAX) > db_rsort_id_key(1));
    const long long ids[] = {INT64_MIN, -1, 0, 1, INT64_MAX, 1LL << 31};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
        assert_true(db_rsort_key_id(db_rsort_id_key(ids[i])) == ids[i]);
}

/* ==== pb_db_each_report_row against SQLite's ORDER BY ==== */

static char dbpath[] = "/tmp/pb-unit-rsort-XXXXXX";

struct row {
    long long test_id, metric_id, config_id, source_id;
    char *metric, *unit, *direction, *job, *host, *reason;
    int has_value, has_stderr;
    double value, stderr_;
    long samples;
};

struct rows {
    struct row *v;
    size_t n, cap;
};

static char *dup0(const char *s)
{
    return s ? strdup(s) : NULL;
}

static int on_rrow(void *ctx, const struct pb_db_rrow *r)
{
    struct rows *o = ctx;
    PB_GROW(o->v, o->cap, o->n + 1);
    struct row *w = &o->v[o->n++];
    w->test_id = r->test_id;
    w->metric_id = r->metric_id;
    w->config_id = r->config_id;
    w->source_id = r->source_id;
    w->metric = dup0(r->metric);
    w->unit = dup0(r->unit);
    w->direction = dup0(r->direction);
    w->job = dup0(r->job);
    w->host = dup0(r->host);
    w->reason = dup0(r->null_reason);
    w->has_value = r->has_value;
    w->value = r->value;
    w->has_stderr = r->has_stderr;
    w->stderr_ = r->stderr_;
    w->samples = r->samples;
    return 0;
}

static void rows_free(struct rows *o)
{
    for (size_t i = 0; i < o->n; i++) {
        struct row *w = &o->v[i];
        free(w->metric);
        free(w->unit);
        free(w->direction);
        free(w->job);
        free(w->host);
        free(w->reason);
    }
    free(o->v);
    memset(o, 0, sizeof(*o));
}

/* The report's query as it was before the own sort (S_REPORT_ROWS with
 * the metric's texts), the reference. */
static const char ref_sql[] =
    "SELECT r.test_id, r.metric_id, r.config_id, r.source_id, "
    "j.name, h.name, r.value, y.text, r.stderr, r.samples, m.name, m.unit, "
    "m.direction FROM result r "
    "JOIN metric m ON m.id = r.metric_id "
    "JOIN test t ON t.id = r.test_id "
    "JOIN config c ON c.id = r.config_id "
    "LEFT JOIN host h ON h.id = r.host_id "
    "LEFT JOIN job j ON j.id = r.job_id "
    "LEFT JOIN reason y ON y.id = r.reason_id "
    "WHERE (?1 IS NULL OR regexp(?1, t.name)) "
    "AND (?2 IS NULL OR regexp(?2, c.label)) "
    "AND (?3 IS NULL OR regexp(?3, m.name)) "
    "AND (?4 IS NULL OR regexp(?4, coalesce(h.name, ''))) "
    "AND (?5 IS NULL OR r.source_id IN "
    "(SELECT id FROM source WHERE format = ?5)) "
    "ORDER BY r.test_id, r.metric_id, r.config_id, r.source_id, "
    "j.name, h.name, r.id";

static char *col0(sqlite3_stmt *q, int i)
{
    const unsigned char *s = sqlite3_column_text(q, i);
    return s ? strdup((const char *)s) : NULL;
}

static void bind0(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
}

static int kept(const struct pb_db_filter *f, long long id)
{
    if (!f->source_ids)
        return 1;
    for (size_t i = 0; i < f->nsource_ids; i++)
        if (f->source_ids[i] == id)
            return 1;
    return 0;
}

/* regexp() as poolbench registers it: the reference runs on a
 * connection of pb_db_open's */
static void reference(struct pb_db *db, const struct pb_db_filter *f,
                      struct rows *o)
{
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db->h, ref_sql, -1, &q, NULL),
                     SQLITE_OK);
    bind0(q, 1, f->test_re);
    bind0(q, 2, f->config_re);
    bind0(q, 3, f->metric_re);
    bind0(q, 4, f->host_re);
    bind0(q, 5, f->format);
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (!kept(f, sqlite3_column_int64(q, 3)))
            continue;
        PB_GROW(o->v, o->cap, o->n + 1);
        struct row *w = &o->v[o->n++];
        w->test_id = sqlite3_column_int64(q, 0);
        w->metric_id = sqlite3_column_int64(q, 1);
        w->config_id = sqlite3_column_int64(q, 2);
        w->source_id = sqlite3_column_int64(q, 3);
        w->job = col0(q, 4);
        w->host = col0(q, 5);
        w->has_value = sqlite3_column_type(q, 6) != SQLITE_NULL;
        w->value = sqlite3_column_double(q, 6);
        w->reason = col0(q, 7);
        w->has_stderr = sqlite3_column_type(q, 8) != SQLITE_NULL;
        w->stderr_ = sqlite3_column_double(q, 8);
        w->samples = (long)sqlite3_column_int64(q, 9);
        w->metric = col0(q, 10);
        w->unit = col0(q, 11);
        w->direction = col0(q, 12);
    }
    sqlite3_finalize(q);
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static void same_rows(const struct rows *got, const struct rows *want,
                      const char *what)
{
    if (got->n != want->n) {
        print_error("%s: %zu rows, want %zu\n", what, got->n, want->n);
        fail();
    }
    for (size_t i = 0; i < got->n; i++) {
        const struct row *a = &got->v[i], *b = &want->v[i];
        if (a->test_id != b->test_id || a->metric_id != b->metric_id ||
            a->config_id != b->config_id || a->source_id != b->source_id ||
            !str_eq(a->job, b->job) || !str_eq(a->host, b->host) ||
            !str_eq(a->metric, b->metric) || !str_eq(a->unit, b->unit) ||
            !str_eq(a->direction, b->direction) ||
            !str_eq(a->reason, b->reason) || a->has_value != b->has_value ||
            memcmp(&a->value, &b->value, sizeof(a->value)) ||
            a->has_stderr != b->has_stderr ||
            memcmp(&a->stderr_, &b->stderr_, sizeof(a->stderr_)) ||
            a->samples != b->samples) {
            print_error(
                "%s: row %zu differs: test %lld metric %lld config "
                "%lld source %lld job %s host %s value %.17g; want "
                "test %lld metric %lld config %lld source %lld job "
                "%s host %s value %.17g\n",
                what, i, a->test_id, a->metric_id, a->config_id, a->source_id,
                a->job ? a->job : "NULL", a->host ? a->host : "NULL", a->value,
                b->test_id, b->metric_id, b->config_id, b->source_id,
                b->job ? b->job : "NULL", b->host ? b->host : "NULL", b->value);
            fail();
        }
    }
}

static void exec(sqlite3 *h, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        print_error("%s: %s\n", sql, msg ? msg : "?");
        fail();
    }
}

/* The small tables: ids near 2^31 and 2^32 - 1, names that sort
 * differently as signed chars or case-folded, a dangling id of each. */
static void fill(sqlite3 *h)
{
    exec(h, "INSERT INTO source(id, sha256, path, format, size, "
            "ingested_at) VALUES (1, 'a', 'a', 'fio-json', 1, 'x'), (2, 'b', "
            "'b', 'bonnie-csv', 1, 'x'), (2147483647, 'c', 'c', 'fio-json', "
            "1, 'x'), (2147483648, 'd', 'd', 'bonnie-csv', 1, 'x'), "
            "(4294967295, 'e', 'e', 'fio-json', 1, 'x')");
    exec(h, "INSERT INTO test(id, tool, name, signature) VALUES (1, 'fio', "
            "'read', ''), (5, 'fio', 'randread', ''), (2147483646, 'fio', "
            "'randwrite', ''), (2147483649, 'bonnie++', 'seq', ''), "
            "(4294967295, 'fio', 'rw', '')");
    exec(h, "INSERT INTO config(id, label, signature) VALUES (1, 'lz4', ''), "
            "(2, 'zstd', ''), (2147483650, 'off', ''), (4294967294, "
            "'<b>gzip</b>', '')");
    exec(h, "INSERT INTO metric(id, name, unit, direction) VALUES (1, "
            "'iops', 'ops/s', 'higher'), (2, 'bw', 'B/s', 'higher'), (3, "
            "'clat_p99', 'ns', 'lower'), (2147483648, 'lat_mean', 'ns', "
            "'lower')");
    exec(h, "INSERT INTO host(id, name) VALUES (1, 'b'), (2, 'a'), (3, "
            "'\xc3\xa9t\xc3\xa9'), (4, 'A'), (2147483649, 'zz')");
    exec(h, "INSERT INTO job(id, name) VALUES (1, 'job2'), (2, 'job10'), "
            "(3, '\xff'), (4, 'Job'), (5, ''), (4294967295, 'job#0')");
    exec(h, "INSERT INTO reason(id, text) VALUES (1, '+++++'), (2, 'n/a')");
}

/* n random results over those tables (and ids that match nothing) */
static void results(sqlite3 *h, size_t n)
{
    const char *tests[] = {"1",          "5",   "2147483646", "2147483649",
                           "4294967295", "999", "'x'"};
    const char *metrics[] = {"1", "2", "3", "2147483648", "77"};
    const char *configs[] = {"1", "2", "2147483650", "4294967294", "55"};
    const char *sources[] = {"1",          "2",          "2147483647",
                             "2147483648", "4294967295", "31"};
    const char *hosts[] = {"NULL", "1",          "2",  "3",
                           "4",    "2147483649", "98", "'y'"};
    const char *jobs[] = {"NULL", "1", "2", "3", "4", "5", "4294967295", "97"};
    exec(h, "BEGIN");
    for (size_t i = 0; i < n; i++) {
        char sql[512];
        int nul = rnd(4) == 0;
        snprintf(sql, sizeof(sql),
                 "INSERT INTO result(source_id, host_id, config_id, test_id, "
                 "job_id, metric_id, value, reason_id, stderr, samples) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %d)",
                 sources[rnd(6)], hosts[rnd(8)], configs[rnd(5)], tests[rnd(7)],
                 jobs[rnd(8)], metrics[rnd(5)],
                 nul      ? "NULL"
                 : rnd(2) ? "1.5"
                          : "-0.0",
                 nul      ? (rnd(2) ? "1" : "2")
                 : rnd(8) ? "NULL"
                          : "3",
                 rnd(3) ? "NULL" : "0.25", (int)rnd(4));
        exec(h, sql);
    }
    exec(h, "COMMIT");
}

/* Every filter, with budget bytes for the sort ("" = default); want_path
 * is what db_report_rows_path must say: 1 = the own sort spilled runs, 0
 * one run in memory, -1 SQLite's ORDER BY. */
static void compare_all(struct pb_db *db, const char *budget, int want_path)
{
    static const long long some[] = {2, 2147483647, 4294967295};
    const struct pb_db_filter filters[] = {
        {0},
        {.test_re = "rand"},
        {.config_re = "^(lz4|off)$"},
        {.metric_re = "iops|lat"},
        {.host_re = "a"},  /* a row without a host: '' does not match */
        {.host_re = "^$"}, /* only rows without one */
        {.host_re = "\xc3\xa9"},
        {.format = "bonnie-csv"},
        {.source_ids = some, .nsource_ids = 3},
        {.test_re = "read",
         .host_re = ".?",
         .format = "fio-json",
         .source_ids = some,
         .nsource_ids = 3},
        {.test_re = "nothing matches"},
    };
    if (*budget)
        setenv("POOLBENCH_SORT_BYTES", budget, 1);
    else
        unsetenv("POOLBENCH_SORT_BYTES");
    for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
        struct rows got = {0}, want = {0};
        struct pb_err err = {0};
        assert_int_equal(
            pb_db_each_report_row(db, &filters[i], on_rrow, &got, &err), PB_OK);
        reference(db, &filters[i], &want);
        char what[64];
        snprintf(what, sizeof(what), "filter %zu, budget '%s'", i, budget);
        same_rows(&got, &want, what);
        if (i == 0) {
            assert_true(got.n > 100);
            if (want_path > 0)
                assert_true(db_report_rows_path > 1);
            else
                assert_int_equal(db_report_rows_path, want_path);
        }
        rows_free(&got);
        rows_free(&want);
    }
    unsetenv("POOLBENCH_SORT_BYTES");
}

/* ==== pb_db_each_ranked_row against its SQLite ORDER BY ==== */

static long long crank(void *ctx, long long id)
{
    (void)ctx;
    /* ties between configurations, one left out, ranks near 2^32 */
    return id == 2 ? -1 : id == 1 ? 4294967295LL : (id % 3);
}

static long long trank(void *ctx, long long id)
{
    (void)ctx;
    return id == 5 ? -1 : (long long)((unsigned long long)id % 2);
}

static int want(void *ctx, const char *name)
{
    (void)ctx;
    return strcmp(name, "bw") != 0;
}

static long long big_rank(void *ctx, long long id)
{
    (void)ctx;
    return id == 1 ? 4294967296LL : 0; /* past 32 bits: SQLite sorts */
}

struct ranked_rows {
    struct rows r;
    long long *ck, *tk, *id;
    size_t cap;
};

static int on_ranked(void *ctx, const struct pb_db_ranked *r)
{
    struct ranked_rows *o = ctx;
    size_t i = o->r.n;
    on_rrow(&o->r, &r->row);
    o->r.v[i].config_id = r->row.config_id;
    if (o->cap <= i) {
        o->cap = 2 * i + 16;
        o->ck = realloc(o->ck, o->cap * sizeof(*o->ck));
        o->tk = realloc(o->tk, o->cap * sizeof(*o->tk));
        o->id = realloc(o->id, o->cap * sizeof(*o->id));
    }
    o->ck[i] = r->config_rank;
    o->tk[i] = r->test_rank;
    o->id[i] = r->result_id;
    if (r->row.job) {
        print_error("a ranked row carries a job\n");
        fail();
    }
    return 0;
}

static void ranked_free(struct ranked_rows *o)
{
    rows_free(&o->r);
    free(o->ck);
    free(o->tk);
    free(o->id);
    memset(o, 0, sizeof(*o));
}

static void compare_ranked(struct pb_db *db, const struct pb_db_order *ord,
                           const char *budget, int want_path)
{
    const struct pb_db_filter filters[] = {
        {0},
        {.host_re = "a"},
        {.format = "fio-json", .metric_re = "lat|iops"},
    };
    setenv("POOLBENCH_SORT_BYTES", budget, 1);
    for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
        struct ranked_rows got = {0}, ref = {0};
        struct pb_err err = {0};
        assert_int_equal(
            pb_db_each_ranked_row(db, &filters[i], ord, on_ranked, &got, &err),
            PB_OK);
        long long path = db_report_rows_path;
        assert_int_equal(
            db_each_ranked_row_sql(db, &filters[i], ord, on_ranked, &ref, &err),
            PB_OK);
        char what[64];
        snprintf(what, sizeof(what), "ranked filter %zu, budget %s", i, budget);
        same_rows(&got.r, &ref.r, what);
        for (size_t k = 0; k < got.r.n; k++)
            if (got.ck[k] != ref.ck[k] || got.tk[k] != ref.tk[k] ||
                got.id[k] != ref.id[k]) {
                print_error("%s: row %zu: ranks %lld %lld id %lld, want "
                            "%lld %lld id %lld\n",
                            what, k, got.ck[k], got.tk[k], got.id[k], ref.ck[k],
                            ref.tk[k], ref.id[k]);
                fail();
            }
        if (i == 0) {
            assert_true(got.r.n > 100);
            if (want_path > 0)
                assert_true(path > 1);
            else
                assert_int_equal(path, want_path);
        }
        ranked_free(&got);
        ranked_free(&ref);
    }
    unsetenv("POOLBENCH_SORT_BYTES");
}

/* The rows of one filter as SQLite orders them, in the own sort's budget
 * "256" (many runs), and how many passes merged a kept sort meanwhile. */
static long long rows_again(struct pb_db *db, const struct pb_db_filter *f)
{
    long long before = db_report_rows_reused;
    struct rows got = {0}, want = {0};
    struct pb_err err = {0};
    assert_int_equal(pb_db_each_report_row(db, f, on_rrow, &got, &err), PB_OK);
    reference(db, f, &want);
    same_rows(&got, &want, "kept sort");
    assert_true(got.n > 0);
    rows_free(&got);
    rows_free(&want);
    return db_report_rows_reused - before;
}

static long long shift_rank; /* added to trank's ranks */
static long long trank_shifted(void *ctx, long long id)
{
    long long r = trank(ctx, id);
    return r < 0 ? r : r + shift_rank;
}

/* One ranked pass against SQLite's; how many merged a kept sort. */
static long long ranked_again(struct pb_db *db, const struct pb_db_order *ord)
{
    long long before = db_report_rows_reused;
    struct ranked_rows got = {0}, ref = {0};
    struct pb_err err = {0};
    const struct pb_db_filter all = {0};
    assert_int_equal(
        pb_db_each_ranked_row(db, &all, ord, on_ranked, &got, &err), PB_OK);
    long long used = db_report_rows_reused - before;
    assert_int_equal(
        db_each_ranked_row_sql(db, &all, ord, on_ranked, &ref, &err), PB_OK);
    same_rows(&got.r, &ref.r, "kept ranked sort");
    assert_int_equal(got.r.n, ref.r.n);
    for (size_t k = 0; k < got.r.n; k++)
        assert_true(got.ck[k] == ref.ck[k] && got.tk[k] == ref.tk[k] &&
                    got.id[k] == ref.id[k]);
    ranked_free(&got);
    ranked_free(&ref);
    return used;
}

/* A sort kept from one pass is merged again by the next pass over the
 * same rows, and only then: not after a write by this or another
 * connection, nor for another filter, order or ranks. */
static void kept_sorts(struct pb_db *db)
{
    setenv("POOLBENCH_SORT_BYTES", "256", 1);
    const struct pb_db_filter all = {0}, some = {.host_re = "a"};
    char re[] = "a"; /* the same filter in other memory */
    const struct pb_db_filter same = {.host_re = re};
    assert_int_equal(rows_again(db, &all), 0);
    assert_int_equal(rows_again(db, &all), 1);
    assert_int_equal(rows_again(db, &some), 0);
    assert_int_equal(rows_again(db, &same), 1);
    assert_int_equal(rows_again(db, &all), 0);
    /* a write on this connection */
    exec(db->h, "UPDATE result SET value = 41 WHERE id = 3");
    assert_int_equal(rows_again(db, &all), 0);
    assert_int_equal(rows_again(db, &all), 1);
    /* a commit by another connection */
    sqlite3 *h2;
    assert_int_equal(sqlite3_open(dbpath, &h2), SQLITE_OK);
    exec(h2, "UPDATE result SET value = 42 WHERE id = 3");
    sqlite3_close(h2);
    assert_int_equal(rows_again(db, &all), 0);
    assert_int_equal(rows_again(db, &all), 1);
    /* the ranked order: the same callbacks and context, other ranks */
    struct pb_db_order ord = {crank, trank_shifted, want, NULL, 0};
    shift_rank = 0;
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(ranked_again(db, &ord), 1);
    shift_rank = 5;
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(ranked_again(db, &ord), 1);
    ord.no_host = 1;
    assert_int_equal(ranked_again(db, &ord), 0);
    /* the report's order after the ranked one: not the same sort */
    assert_int_equal(rows_again(db, &all), 0);
    /* a ranked pass after one in the report's order of the same filter
     * sorts that pass's records again: the same rows as SQLite's */
    long long repacked = db_report_rows_repacked;
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(db_report_rows_repacked, repacked + 1);
    assert_int_equal(ranked_again(db, &ord), 1);
    ord.no_host = 0;
    assert_int_equal(rows_again(db, &all), 0);
    shift_rank = 2;
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(db_report_rows_repacked, repacked + 2);
    /* not from another filter's rows, nor after a write */
    assert_int_equal(rows_again(db, &some), 0);
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(db_report_rows_repacked, repacked + 2);
    assert_int_equal(rows_again(db, &all), 0);
    exec(db->h, "UPDATE result SET value = 43 WHERE id = 3");
    assert_int_equal(ranked_again(db, &ord), 0);
    assert_int_equal(db_report_rows_repacked, repacked + 2);
    shift_rank = 0;
    unsetenv("POOLBENCH_SORT_BYTES");
}

static void test_report_rows(void **state)
{
    (void)state;
    int fd = mkstemp(dbpath);
    assert_true(fd >= 0);
    close(fd);
    unlink(dbpath);
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    fill(db->h);
    results(db->h, 3000);
    compare_all(db, "", 0);
    compare_all(db, "256", 1);  /* runs of two records */
    compare_all(db, "4096", 1); /* runs of 32 */
    /* a table's own order */
    struct pb_db_order ord = {crank, trank, want, NULL, 0};
    compare_ranked(db, &ord, "256", 1);
    compare_ranked(db, &ord, "16777216", 0);
    ord.no_host = 1; /* ordered by host, no name given */
    compare_ranked(db, &ord, "4096", 1);
    ord.no_host = 0;
    struct pb_db_order big = {big_rank, trank, want, NULL, 0};
    compare_ranked(db, &big, "256", -1);
    kept_sorts(db);
    /* a bad pattern is a usage error, as with SQLite's ORDER BY */
    struct pb_db_filter bad = {.test_re = "("};
    struct rows got = {0};
    assert_int_equal(pb_db_each_report_row(db, &bad, on_rrow, &got, &err),
                     PB_EUSAGE);
    assert_int_equal(got.n, 0);
    /* a source id past 32 bits: SQLite sorts, the same rows */
    exec(db->h, "INSERT INTO result(source_id, config_id, test_id, "
                "metric_id, value) VALUES (4294967296, 1, 1, 1, 7)");
    compare_all(db, "256", -1);
    exec(db->h, "DELETE FROM result WHERE source_id = 4294967296");
    compare_all(db, "256", 1);
    /* a negative test id */
    exec(db->h, "INSERT INTO test(id, tool, name, signature) VALUES (-4, "
                "'fio', 'neg', '')");
    compare_all(db, "", -1);
    pb_db_close(db);
    unlink(dbpath);
    char side[sizeof(dbpath) + 8];
    snprintf(side, sizeof(side), "%s-wal", dbpath);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", dbpath);
    unlink(side);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rcode),
        cmocka_unit_test(test_sorter),
        cmocka_unit_test(test_report_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
