/* Unit tests for ingest/resultset.c: how a set finds its tests. By name,
 * tool and parameters (pb_rs_test_kv), as the database keys them, so
 * that a source streamed in parts and parsed whole give the same tests
 * (docs/performance.md, "Streaming ingest", "Tests of one name"); by name and
 * tool for the parsers that merge parameters (pb_rs_test). */
#include "tests/unit/testhelp.h"

static const struct pb_kv CONC1[] = {{"file_size", "8489271296", NULL},
                                     {"concurrency", "1", NULL},
                                     {"num_files", "262144", NULL}};
static const struct pb_kv NOCONC[] = {{"file_size", "8489271296", NULL},
                                      {"num_files", "262144", NULL}};
static const char NAME[] = "bonnie++ file_size=8096M files=256k";

static void test_kv_identity(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    size_t a = pb_rs_test_kv(s, NAME, "bonnie++", CONC1, 3);
    size_t b = pb_rs_test_kv(s, NAME, "bonnie++", NOCONC, 2);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1); /* same name, other parameters */
    assert_int_equal(s->ntests, 2);
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", NOCONC, 2), 1);
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", CONC1, 3), 0);
    /* the same parameters in another order: the same test */
    const struct pb_kv swapped[] = {CONC1[2], CONC1[0], CONC1[1]};
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", swapped, 3), 0);
    /* a subset or a superset is another test */
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", CONC1, 1), 2);
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", NULL, 0), 3);
    assert_int_equal(pb_rs_test_kv(s, NAME, "fio", NOCONC, 2), 4);
    /* a key given twice counts with its last value */
    const struct pb_kv twice[] = {{"file_size", "1", NULL},
                                  {"num_files", "262144", NULL},
                                  {"file_size", "8489271296", NULL}};
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", twice, 3), 1);
    const struct pb_kv other[] = {{"file_size", "8489271296", NULL},
                                  {"num_files", "262145", NULL}};
    assert_int_equal(pb_rs_test_kv(s, NAME, "bonnie++", other, 2), 5);
    /* parameters kept in the order given */
    assert_int_equal(s->tests[0].nparams, 3);
    assert_string_equal(s->tests[0].params[1].key, "concurrency");
    assert_string_equal(s->tests[0].params[1].value, "1");
    assert_int_equal(s->tests[1].nparams, 2);
    /* pb_rs_test: the first test of the name */
    assert_int_equal(pb_rs_test(s, NAME, "bonnie++"), 0);
    pb_resultset_free(s);
}

/* Many tests of one name (and many names) through the index's growth:
 * each is found again, none replaces another. */
static void test_kv_many(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    char v[32], n[32];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 300; i++) {
            snprintf(v, sizeof(v), "%d", i);
            snprintf(n, sizeof(n), "fio read job=%d", i % 7);
            const struct pb_kv kv[] = {{"rw", "read", NULL},
                                       {"size", v, NULL}};
            assert_int_equal(pb_rs_test_kv(s, n, "fio", kv, 2), (size_t)i);
        }
    }
    assert_int_equal(s->ntests, 300);
    for (int i = 0; i < 300; i++) {
        snprintf(v, sizeof(v), "%d", i);
        assert_string_equal(s->tests[i].params[1].value, v);
    }
    assert_int_equal(pb_rs_test(s, "fio read job=3", "fio"), 3);
    pb_resultset_free(s);
}

/* Parsers that merge: pb_rs_test finds the test by name and tool, and
 * pb_rs_test_param replaces a key's value. */
static void test_merge(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    size_t t = pb_rs_test(s, "iozone", "iozone");
    pb_rs_test_param(s, t, "record_size", "4096");
    assert_int_equal(pb_rs_test(s, "iozone", "iozone"), t);
    pb_rs_test_param(s, t, "record_size", "8192");
    assert_int_equal(s->ntests, 1);
    assert_int_equal(s->tests[0].nparams, 1);
    assert_string_equal(s->tests[0].params[0].value, "8192");
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_identity),
        cmocka_unit_test(test_kv_many),
        cmocka_unit_test(test_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
