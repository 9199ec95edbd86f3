/* Unit tests of ingest/lex/json.c: the grammar checks around jsmn's tokens,
 * values, escapes, iteration and lookups. */
#include "testhelp.h"

#include "ingest/lex/json_int.h"

/* ==== refused documents: where and why ==== */

static void refused(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t offset;
        int truncated;
        const char *msg;
    } cases[] = {
        /* commas and colons, which jsmn alone does not check */
        {"[1 2]", 3, 0, "expected ',' or ']' before '2'"},
        {"{\"a\":1 \"b\":2}", 7, 0, "expected ',' or '}' before '\"'"},
        {"{\"a\" 1}", 5, 0, "unexpected '1'"},
        {"{\"a\":1,}", 6, 0, "unexpected ','"},
        {"[1,,2]", 3, 0, "unexpected ','"},
        {"[,1]", 1, 0, "unexpected ','"},
        {"{\"a\"::1}", 5, 0, "unexpected ':'"},
        {"{\"a\":1:2}", 5, 0, "invalid number or literal '1:2'"},
        {"[\"a\":1]", 4, 0, "unexpected ':'"},
        {"{\"a\"}", 1, 0, "expected an object key (a string) and ':'"},
        {"{\"a\":\"b\":\"c\"}", 8, 0, "unexpected ':'"},
        /* numbers and literals */
        {"[01]", 1, 0, "invalid number or literal '01'"},
        {"[1.]", 1, 0, "invalid number or literal '1.'"},
        {"[-]", 1, 0, "invalid number or literal '-'"},
        {"[.5]", 1, 0, "unexpected '.'"},
        {"[+1]", 1, 0, "unexpected '+'"},
        {"[1e]", 1, 0, "invalid number or literal '1e'"},
        {"[tru]", 1, 0, "invalid number or literal 'tru'"},
        {"[nulll]", 1, 0, "invalid number or literal 'nulll'"},
        {"[NaN]", 1, 0, "unexpected 'N'"},
        {"[1e400]", 1, 0, "number out of range of a double"},
        {"[-1e400]", 1, 0, "number out of range of a double"},
        /* strings */
        {"[\"a\tb\"]", 3, 0, "control character 0x09 in a string"},
        {"[\"\xc0\x80\"]", 2, 0, "invalid UTF-8 in a string"},
        {"[\"\xed\xa0\x80\"]", 2, 0, "invalid UTF-8 in a string"},
        {"[\"\xf5\x80\x80\x80\"]", 2, 0, "invalid UTF-8 in a string"},
        {"[\"ab\xe2\x82\"]", 4, 0, "invalid UTF-8 in a string"},
        {"[\"\\ud800\"]", 2, 0, "lone UTF-16 surrogate in a string"},
        {"[\"\\ud800\\u0041\"]", 2, 0, "lone UTF-16 surrogate in a string"},
        {"[\"\\udc00\"]", 2, 0, "lone UTF-16 surrogate in a string"},
        {"[\"\\x\"]", 1, 0, "invalid escape in a string"},
        {"[\"\\u12g4\"]", 1, 0, "invalid escape in a string"},
        /* ends too early, or nests too deep */
        {"{\"a\":[1,2", 9, 1, "the text ends inside the document"},
        {"{\"a\":\"b", 7, 1, "the text ends inside the document"},
        {"", 0, 1, "no JSON value"},
        {"]", 0, 0, "unexpected ']'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_json doc;
        struct pb_json_error e;
        int rc = pb_json_parse(&doc, cases[i].in, strlen(cases[i].in), &e);
        if (rc != -1 || e.offset != cases[i].offset ||
            e.truncated != cases[i].truncated ||
            strcmp(e.msg, cases[i].msg) != 0) {
            print_error("case %zu %s: rc %d at %zu%s \"%s\"; want %zu \"%s\"\n",
                        i, cases[i].in, rc, e.offset,
                        e.truncated ? " (truncated)" : "", e.msg,
                        cases[i].offset, cases[i].msg);
            fail();
        }
    }
}

static void too_deep(void **state)
{
    (void)state;
    /* 64 levels are fine, 65 are not; 100,000 are refused at once */
    char buf[256];
    for (int depth = 64; depth <= 65; depth++) {
        memset(buf, '[', (size_t)depth);
        memset(buf + depth, ']', (size_t)depth);
        struct pb_json doc;
        struct pb_json_error e;
        int rc = pb_json_parse(&doc, buf, 2 * (size_t)depth, &e);
        if (depth == 64) {
            assert_int_equal(rc, 0);
            assert_int_equal(doc.count, 64);
            pb_json_release(&doc);
        } else {
            assert_int_equal(rc, -1);
            assert_int_equal(e.offset, 64);
            assert_string_equal(e.msg, "nested deeper than 64 levels");
        }
    }
    size_t n = 100000;
    char *deep = malloc(n);
    assert_non_null(deep);
    memset(deep, '{', n);
    struct pb_json doc;
    struct pb_json_error e;
    assert_int_equal(pb_json_parse(&doc, deep, n, &e), -1);
    assert_int_equal(e.offset, 64);
    free(deep);
}

/* ==== accepted documents: values ==== */

static void values(void **state)
{
    (void)state;
    static const char in[] =
        "{ \"int\" : 1416, \"neg\" : -0, \"big\" : 12345678901234567890,\n"
        "  \"frac\" : 0.125, \"exp\" : 1.5E3, \"tiny\" : 1e-400,\n"
        "  \"t\" : true, \"f\" : false, \"n\" : null,\n"
        "  \"s\" : \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\",\n"
        "  \"u\" : \"\\u00e9\\u20ac\\ud83d\\ude00\", \"raw\" : \"\xc3\xa9\",\n"
        "  \"nul\" : \"n\\u0000m\",\n"
        "  \"dup\" : 1, \"dup\" : 2, \"k\\u0065y\" : 3,\n"
        "  \"arr\" : [ 1, [ ], { }, \"x\" ] }\n"
        "fio: text after the document is not part of it {\n";
    struct pb_json doc;
    struct pb_json_error e;
    assert_int_equal(pb_json_parse(&doc, in, sizeof(in) - 1, &e), 0);
    assert_int_equal(doc.len, (size_t)(strstr(in, "] }") - in) + 3);
    int r = pb_json_root(&doc);
    assert_int_equal(pb_json_type(&doc, r), PB_JSON_OBJECT);
    assert_int_equal(pb_json_size(&doc, r), 17);
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "int")) == 1416);
    double z = pb_json_number(&doc, pb_json_get(&doc, r, "neg"));
    assert_true(z == 0 && signbit(z));
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "big")) ==
                12345678901234567890.0);
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "frac")) == 0.125);
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "exp")) == 1500);
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "tiny")) == 0);
    assert_int_equal(pb_json_type(&doc, pb_json_get(&doc, r, "t")),
                     PB_JSON_TRUE);
    assert_int_equal(pb_json_type(&doc, pb_json_get(&doc, r, "f")),
                     PB_JSON_FALSE);
    assert_int_equal(pb_json_type(&doc, pb_json_get(&doc, r, "n")),
                     PB_JSON_NULL);
    assert_true(isnan(pb_json_number(&doc, pb_json_get(&doc, r, "n"))));
    assert_string_equal(pb_json_str(&doc, pb_json_get(&doc, r, "s")),
                        "a\"b\\c/d\b\f\n\r\t");
    assert_string_equal(pb_json_str(&doc, pb_json_get(&doc, r, "u")),
                        "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    assert_string_equal(pb_json_str(&doc, pb_json_get(&doc, r, "raw")),
                        "\xc3\xa9");
    assert_string_equal(pb_json_str(&doc, pb_json_get(&doc, r, "nul")), "n");
    /* the last of repeated keys, as jansson; escaped keys match too */
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "dup")) == 2);
    assert_true(pb_json_number(&doc, pb_json_get(&doc, r, "key")) == 3);
    assert_int_equal(pb_json_get(&doc, r, "missing"), PB_JSON_NONE);
    assert_null(pb_json_str(&doc, pb_json_get(&doc, r, "int")));

    /* iteration */
    int arr = pb_json_get(&doc, r, "arr");
    assert_int_equal(pb_json_size(&doc, arr), 4);
    static const enum pb_json_type want[] = {PB_JSON_NUMBER, PB_JSON_ARRAY,
                                             PB_JSON_OBJECT, PB_JSON_STRING};
    size_t k = 0;
    for (int v = pb_json_first(&doc, arr); v != PB_JSON_NONE;
         v = pb_json_next(&doc, v))
        assert_int_equal(pb_json_type(&doc, v), want[k++]);
    assert_int_equal(k, 4);
    k = 0;
    for (int key = pb_json_first(&doc, r); key != PB_JSON_NONE;
         key = pb_json_next(&doc, key), k++)
        assert_int_not_equal(pb_json_value(&doc, key), PB_JSON_NONE);
    assert_int_equal(k, 17);
    /* absent values chain */
    assert_true(isnan(pb_json_number(
        &doc, pb_json_get(&doc, pb_json_get(&doc, r, "nope"), "x"))));
    assert_int_equal(pb_json_first(&doc, PB_JSON_NONE), PB_JSON_NONE);
    assert_int_equal(pb_json_next(&doc, r), PB_JSON_NONE);
    pb_json_release(&doc);
}

static void equality(void **state)
{
    (void)state;
    static const char in[] =
        "[{\"rw\":\"randread\",\"bs\":\"4k\",\"n\":[1,2]},"
        "{\"bs\":\"4\\u006b\",\"n\":[1,2],\"rw\":\"randread\"},"
        "{\"bs\":\"4k\",\"n\":[2,1],\"rw\":\"randread\"},"
        "{\"bs\":\"4k\",\"rw\":\"randread\"}]";
    struct pb_json doc;
    struct pb_json_error e;
    assert_int_equal(pb_json_parse(&doc, in, sizeof(in) - 1, &e), 0);
    int a = pb_json_first(&doc, pb_json_root(&doc));
    int b = pb_json_next(&doc, a), c = pb_json_next(&doc, b),
        d = pb_json_next(&doc, c);
    assert_true(pb_json_equal(&doc, a, b));  /* member order, escapes */
    assert_false(pb_json_equal(&doc, a, c)); /* element order counts */
    assert_false(pb_json_equal(&doc, a, d)); /* a member fewer */
    assert_false(pb_json_equal(&doc, d, a));
    pb_json_release(&doc);
}

/* A scalar document, and white space before the first value. */
static void scalars(void **state)
{
    (void)state;
    struct pb_json doc;
    struct pb_json_error e;
    assert_int_equal(pb_json_parse(&doc, "  \"x\" 5", 7, &e), 0);
    assert_string_equal(pb_json_str(&doc, pb_json_root(&doc)), "x");
    pb_json_release(&doc);
    assert_int_equal(pb_json_parse(&doc, "42\n", 3, &e), 0);
    assert_true(pb_json_number(&doc, pb_json_root(&doc)) == 42);
    pb_json_release(&doc);
}

/* json_scan.c: value spans with strings, escapes and nesting tracked,
 * and object members, without tokens. */
static int count_member(void *ctx, const char *text,
                        const struct pb_json_member *m)
{
    (void)text;
    size_t *n = ctx;
    (*n)++;
    return m->depth > 2; /* stop at a deep value */
}

static void scanning(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t at, end; /* (size_t)-1: refused */
        int depth;
    } v[] = {
        {"\"a\\\"b\" x", 0, 6, 0},      /* escaped quote */
        {"\"a\\\\\" x", 0, 5, 0},       /* escaped backslash ends it */
        {"\"a\\\\\\\"\" x", 0, 7, 0},   /* \\ then \" */
        {"{\"}\":[1,{\"]\":2}]} ,", 0, 17, 3},
        {"[1, [2, [3]]]", 0, 13, 3},
        {"[1, {2]}", 0, (size_t)-1, 0}, /* brackets must match */
        {"[1, 2", 0, (size_t)-1, 0},    /* text ends inside */
        {"\"abc", 0, (size_t)-1, 0},
        {"  12.5e3, 4", 2, 8, 0},
        {"true]", 0, 4, 0},
        {",", 0, (size_t)-1, 0},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        int depth = -1;
        size_t end = pb_json_scan_value(v[i].in, strlen(v[i].in), v[i].at,
                                        &depth);
        assert_int_equal(end, v[i].end);
        if (end != (size_t)-1)
            assert_int_equal(depth, v[i].depth);
    }
    char deep[200];
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    int depth;
    assert_int_equal(pb_json_scan_value(deep, 130, 0, &depth), (size_t)-1);
    assert_int_equal(pb_json_scan_value(deep + 1, 128, 0, &depth), 128);
    assert_int_equal(depth, 64);
    assert_int_equal(pb_json_scan_ws(" \t\r\n x", 6, 0), 5);

    const char obj[] = "{ \"a\" : 1, \"b\\\"\":{\"c\":[]} , \"d\":\"}\" } tail";
    size_t n = 0;
    assert_int_equal(pb_json_scan_object(obj, sizeof(obj) - 1, 0,
                                         count_member, &n),
                     strlen(obj) - 5);
    assert_int_equal(n, 3);
    n = 0;
    assert_int_equal(pb_json_scan_object("{}", 2, 0, count_member, &n), 2);
    assert_int_equal(n, 0);
    const char bad[] = "{\"a\" 1}";
    assert_int_equal(pb_json_scan_object(bad, sizeof(bad) - 1, 0,
                                         count_member, &n),
                     (size_t)-1);
    const char deepv[] = "{\"a\":[[[1]]],\"b\":2}";
    n = 0;
    assert_int_equal(pb_json_scan_object(deepv, sizeof(deepv) - 1, 0,
                                         count_member, &n),
                     (size_t)-1);
    assert_int_equal(n, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused), cmocka_unit_test(too_deep),
        cmocka_unit_test(values),  cmocka_unit_test(equality),
        cmocka_unit_test(scalars), cmocka_unit_test(scanning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
