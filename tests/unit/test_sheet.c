/* Unit tests for configuration sheets (ingest/sheet/sheet.c) and companions:
 * CSV and TSV, quoting, a BOM, CRLF, comments, empty cells, values
 * normalised like --set, origins with the line of each row; errors name
 * the line. */
#include "tests/unit/testhelp.h"

static struct pb_resultset *parse(const char *text, struct pb_err *err)
{
    struct pb_resultset *s = NULL;
    int rc = pb_ingest_sheet("s.csv", text, strlen(text), &s, err);
    assert_true(rc == PB_OK ? s != NULL : s == NULL);
    return s;
}

static const struct pb_kv *dim(const struct pb_config *c, const char *key)
{
    for (size_t i = 0; i < c->nparams; i++)
        if (!strcmp(c->params[i].key, key))
            return &c->params[i];
    return NULL;
}

static void test_csv(void **state)
{
    (void)state;
    struct pb_err err = {0};
    struct pb_resultset *s = parse(
        "\xef\xbb\xbf# pools\r\n"
        "Label , RecordSize,Layout,note\r\n"
        "\r\n"
        "zfs 8k, 8k ,MIRROR,\"a, \"\"quoted\"\" note\"\r\n"
        "# between rows\n"
        "\"zfs,128k\",128K,,plain\n",
        &err);
    assert_non_null(s);
    assert_string_equal(s->format, "sheet");
    assert_int_equal(s->nresults, 0);
    assert_int_equal(s->nconfigs, 2);
    const struct pb_config *c = &s->configs[0];
    assert_string_equal(c->label, "zfs 8k");
    assert_int_equal(c->nparams, 3);
    assert_string_equal(dim(c, "recordsize")->value, "8192");
    assert_string_equal(dim(c, "recordsize")->origin, "sheet: s.csv:4");
    assert_string_equal(dim(c, "layout")->value, "mirror");
    assert_string_equal(dim(c, "note")->value, "a, \"quoted\" note");
    c = &s->configs[1];
    assert_string_equal(c->label, "zfs,128k");
    /* an empty cell says nothing */
    assert_int_equal(c->nparams, 2);
    assert_null(dim(c, "layout"));
    assert_string_equal(dim(c, "recordsize")->value, "131072");
    assert_string_equal(dim(c, "note")->origin, "sheet: s.csv:6");
    pb_resultset_free(s);
}

static void test_tsv(void **state)
{
    (void)state;
    struct pb_err err = {0};
    /* in TSV commas and quotes are plain text */
    struct pb_resultset *s =
        parse("label\tvolblocksize\tcompression\n"
              "vm, \"fast\"\t16K\tLZ4\n",
              &err);
    assert_non_null(s);
    assert_string_equal(s->configs[0].label, "vm, \"fast\"");
    assert_string_equal(dim(&s->configs[0], "volblocksize")->value,
                        "16384");
    assert_string_equal(dim(&s->configs[0], "compression")->value, "lz4");
    pb_resultset_free(s);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        long line;
        const char *msg;
    } cases[] = {
        {"# c\nlabel,a\nx,1\nx,2\n", 4, "label 'x' already has a row (line 3)"},
        {"label,a,b\nx,1\n", 2, "2 cells, the header has 3"},
        {"label,a\nx,1,2\n", 2, "3 cells, the header has 2"},
        {"name,a\n", 1, "first column must be 'label', got 'name'"},
        {"label\n", 1, "no dimension columns after 'label'"},
        {"label,a,A\n", 1, "column 3: 'a' appears twice"},
        {"label,a=b\n", 1,
         "column 2: bad dimension name 'a=b' (letters, digits, _ . - :)"},
        {"label,a\nx,\"1\" 2\n", 2, "text after a quoted cell"},
        {"label,a\nx,1\x01\n", 2, "column 2: control character"},
        {"label,a\n\n", 1, "no rows after the header"},
        {"", 1, "empty sheet: want a header 'label,<key>,...'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_err err = {0};
        assert_null(parse(cases[i].text, &err));
        assert_int_equal(err.code, PB_EUSAGE);
        assert_string_equal(err.path, "s.csv");
        assert_int_equal(err.line, cases[i].line);
        assert_string_equal(err.msg, cases[i].msg);
    }
    /* a value longer than 256 bytes */
    char big[400];
    memset(big, 'v', sizeof(big));
    memcpy(big, "label,a\nx,", 10);
    big[sizeof(big) - 1] = '\0';
    struct pb_err err = {0};
    assert_null(parse(big, &err));
    assert_string_equal(err.msg, "column 2: longer than 256 bytes");
}

/* Companion dimensions: the parser's ones get "companion: PATH" unless
 * the set's configs disagree about the key; others keep their origin. */
static void test_companion(void **state)
{
    (void)state;
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, "st.txt");
    size_t a = pb_rs_config(s, "tank"), b = pb_rs_config(s, "tank/db");
    pb_rs_config_param(s, a, "layout", "mirror");
    pb_rs_config_param(s, b, "layout", "mirror");
    pb_rs_config_param(s, a, "recordsize", "131072");
    pb_rs_config_param(s, b, "recordsize", "8192");
    pb_rs_config_param_origin(s, b, "ashift", "12", "label: ashift=12");
    pb_ingest_companion(s);
    assert_string_equal(dim(&s->configs[a], "layout")->origin,
                        "companion: st.txt");
    assert_string_equal(dim(&s->configs[b], "layout")->origin,
                        "companion: st.txt");
    assert_null(dim(&s->configs[a], "recordsize")->origin);
    assert_null(dim(&s->configs[b], "recordsize")->origin);
    assert_string_equal(dim(&s->configs[b], "ashift")->origin,
                        "label: ashift=12");
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_tsv),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_companion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
