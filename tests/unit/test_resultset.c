/* Unit tests for resultset/resultset.c: how a set finds its tests. By name,
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
            const struct pb_kv kv[] = {{"rw", "read", NULL}, {"size", v, NULL}};
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

/* What a config's dimension becomes (resultset/dim_norm.c, issue 42): white
 * space of any kind, case, sizes, one form of a layout. */
static void test_dim_values(void **state)
{
    (void)state;
    static const struct {
        const char *key, *in, *out;
    } cases[] = {
        {"compression", "on\xc2\xa0", "on"},         /* no-break space */
        {"compression", "\xe2\x80\xaf On \t", "on"}, /* narrow one */
        {"compression",
         "zstd\xc2\xa0\xc2\xa0"
         "fast",
         "zstd fast"},
        {"compression", "\xef\xbb\xbflz4", "lz4"}, /* a BOM */
        {"recordsize", "128K\xc2\xa0", "131072"},
        {"volblocksize", " 16k", "16384"},
        {"layout", "RAIDZ", "raidz1"},
        {"layout", "draid2:4d:1s:11c", "draid2"},
        {"layout", "mirror+stripe", "mirror+stripe"},
        {"layout", "raidz-2", "raidz-2"}, /* not guessed */
        {"layout", "no\xc2\xa0idea", "no idea"},
        {"guest_fs", "NTFS", "ntfs"},
        {"mountpoint", "\xc2\xa0", ""},
    };
    struct pb_resultset *s = pb_resultset_new();
    size_t c = pb_rs_config(s, "x");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pb_rs_config_param(s, c, cases[i].key, cases[i].in);
        const struct pb_config *cf = &s->configs[c];
        const char *got = NULL;
        for (size_t k = 0; k < cf->nparams; k++)
            if (!strcmp(cf->params[k].key, cases[i].key))
                got = cf->params[k].value;
        if (!got || strcmp(got, cases[i].out) != 0)
            print_error("case %zu: '%s'\n", i, got ? got : "(none)");
        assert_non_null(got);
        assert_string_equal(got, cases[i].out);
    }
    /* "2x mirror": the count in vdevs, unless one was said */
    size_t d = pb_rs_config(s, "y");
    pb_rs_config_param_origin(s, d, "layout", "2 x Mirror", "sheet: s:2");
    assert_int_equal(s->configs[d].nparams, 2);
    assert_string_equal(s->configs[d].params[0].value, "mirror");
    assert_string_equal(s->configs[d].params[1].key, "vdevs");
    assert_string_equal(s->configs[d].params[1].value, "2");
    assert_string_equal(s->configs[d].params[1].origin, "sheet: s:2");
    size_t e = pb_rs_config(s, "z");
    pb_rs_config_param(s, e, "vdevs", "3");
    pb_rs_config_param(s, e, "layout", "2\xc3\x97raidz2");
    assert_string_equal(s->configs[e].params[0].value, "3");
    assert_string_equal(s->configs[e].params[1].value, "raidz2");
    pb_resultset_free(s);
}

/* pb_rs_str: one copy a text; an interned string passed in again is
 * itself, a caller's buffer is copied and read anew each time. */
static void test_intern(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    char buf[32];
    strcpy(buf, "host-a");
    const char *a = pb_rs_str(s, buf);
    assert_ptr_not_equal(a, buf);
    assert_ptr_equal(pb_rs_str(s, a), a);
    assert_ptr_equal(pb_rs_str(s, buf), a);
    strcpy(buf, "host-b"); /* the same address, another text */
    const char *b = pb_rs_str(s, buf);
    assert_string_equal(b, "host-b");
    assert_ptr_not_equal(a, b);
    assert_string_equal(a, "host-a");
    assert_ptr_equal(pb_rs_str(s, b), b);
    assert_ptr_equal(pb_rs_str(s, "host-a"), a);
    for (int i = 0; i < 200; i++) { /* the table grows: same pointers */
        snprintf(buf, sizeof(buf), "h%d", i);
        const char *h = pb_rs_str(s, buf);
        assert_string_equal(h, buf);
        assert_ptr_equal(pb_rs_str(s, h), h);
    }
    assert_ptr_equal(pb_rs_str(s, a), a);
    assert_ptr_equal(pb_rs_str(s, "host-b"), b);
    assert_null(pb_rs_str(s, NULL));
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_identity), cmocka_unit_test(test_kv_many),
        cmocka_unit_test(test_merge),       cmocka_unit_test(test_dim_values),
        cmocka_unit_test(test_intern),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
