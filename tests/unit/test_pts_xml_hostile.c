/* Unit tests of the Phoronix Test Suite result XML parser on bad and
 * hostile input: the bad/ fixtures, XXE, billion laughs, huge and
 * truncated documents, garbage, NUL bytes, odd values, HTML and CDATA,
 * CRLF. The fixtures and corpus: test_pts_xml.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/pts_xml_help.h"

#include <ctype.h>
#include <unistd.h>

/* ==== errors ==== */

static void expect_err(const char *text, long line, const char *msg_part)
{
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    int rc = parse_str(text, &set, &err);
    if (rc != PB_EINPUT)
        fail_msg("accepted: %.60s", text);
    assert_int_equal(err.code, PB_EINPUT);
    if (line >= 0 && err.line != line)
        fail_msg("line %ld, want %ld (%s)", err.line, line, err.msg);
    if (msg_part && !strstr(err.msg, msg_part))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg_part);
    assert_false(isupper((unsigned char)err.msg[0]));
}

static void test_bad_fixtures(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        long line, col;
        const char *msg;
    } cases[] = {
        {"xxe.xml", 2, 1, "refusing \"DOCTYPE\""},
        {"billion-laughs.xml", 3, 1, "refusing \"DOCTYPE\""},
        {"truncated.xml", 39, 12,
         "truncated XML: the file ends inside \"Result\" (opened on line "
         "34)"},
        /* named by ingest/recognize.c, not by the parser */
        {"test-profile.xml", 1, 0,
         "this is a Phoronix Test Suite test profile definition"},
        {"no-results.xml", 4, 0, "no test results"},
        {"only-install-results.xml", 13, 0, "no benchmark results"},
        {"mismatched-tag.xml", 17, 30, "invalid XML: opening and ending tag "
                                       "mismatch"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *path = pb_xasprintf(FIX "bad/%s", cases[i].file);
        size_t len;
        char *buf = th_slurp(path, &len);
        assert_true(pb_parser_pts_xml.sniff(buf, len) >= 90);
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        double t0 = now_s();
        int rc = pb_ingest_buffer(path, buf, len, NULL, &set, &err);
        double dt = now_s() - t0;
        /* a PTS profile definition is named, and of no supported format */
        int want = strstr(cases[i].file, "test-profile") ? PB_EFORMAT
                                                         : PB_EINPUT;
        if (rc != want || err.line != cases[i].line ||
            err.col != cases[i].col || !strstr(err.msg, cases[i].msg))
            fail_msg("%s: rc %d %ld:%ld %s", cases[i].file, rc, err.line,
                     err.col, err.msg);
        assert_null(set);
        assert_true(dt < 1.0);
        free(buf);
        free(path);
    }
    /* a non-PTS XML file is not sniffed as PTS at all */
    size_t len;
    char *buf = th_slurp(FIX "bad/not-pts.xml", &len);
    assert_int_equal(pb_parser_pts_xml.sniff(buf, len), 0);
    struct pb_err err = {0};
    assert_int_equal(parse_mem(buf, len, NULL, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "not a Phoronix Test Suite result: root "
                                 "element is \"testsuites\"");
    free(buf);
}

static void test_xxe_variants(void **state)
{
    (void)state;
    static const char *const docs[] = {
        /* external general entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "
        "\"file:///etc/passwd\">]>\n<PhoronixTestSuite><Result><Identifier>"
        "pts/x</Identifier><Title>&e;</Title><Data><Entry><Identifier>&e;"
        "</Identifier><Value>1</Value></Entry></Data></Result>"
        "</PhoronixTestSuite>\n",
        /* external DTD only */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE PhoronixTestSuite SYSTEM "
        "\"file:///etc/passwd\">\n<PhoronixTestSuite/>\n",
        /* parameter entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM "
        "\"file:///etc/passwd\"> %p;]>\n<PhoronixTestSuite/>\n",
        /* network */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "
        "\"http://127.0.0.1:9/x\">]>\n<PhoronixTestSuite>&e;"
        "</PhoronixTestSuite>\n",
        /* internal entity */
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e \"zfs\">]>\n"
        "<PhoronixTestSuite>&e;</PhoronixTestSuite>\n",
    };
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        int rc = parse_str(docs[i], &set, &err);
        if (rc != PB_EINPUT)
            fail_msg("doc %zu accepted", i);
        assert_int_equal(err.line, 2);
        assert_non_null(strstr(err.msg, "refusing \"DOCTYPE\""));
        assert_null(strstr(err.msg, "root:"));
    }
    /* DOCTYPE after junk lines: still refused, line counted in the file */
    expect_err("$ cat x.xml\n<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e "
               "SYSTEM \"file:///etc/passwd\">]>\n<PhoronixTestSuite>&e;"
               "</PhoronixTestSuite>\n",
               3, "refusing");
    /* an undeclared entity without a DTD */
    expect_err("<PhoronixTestSuite>\n<Generated>&e;</Generated>\n"
               "</PhoronixTestSuite>\n",
               2, "invalid XML");
    /* XInclude is never processed: the include stays an unknown element */
    char *doc = doc_with("a<xi:include xmlns:xi=\"http://www.w3.org/2001/"
                         "XInclude\" href=\"/etc/passwd\" parse=\"text\"/>",
                         "1", "1:1");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(parse_str(doc, &set, &err), PB_OK);
    assert_false(set_contains(set, "root:"));
    assert_int_equal(set->nresults, 1);
    assert_string_equal(set->configs[0].label, "a");
    pb_resultset_free(set);
    free(doc);
}

static void test_billion_laughs_fast(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n"
                    "<!ENTITY a0 \"lollollollollollollollollollol\">\n");
    for (int i = 1; i <= 30; i++) {
        pb_buf_printf(&b, "<!ENTITY a%d \"", i);
        for (int k = 0; k < 16; k++)
            pb_buf_printf(&b, "&a%d;", i - 1);
        pb_buf_puts(&b, "\">\n");
    }
    pb_buf_puts(&b, "]>\n<PhoronixTestSuite><Result><Title>&a30;</Title>"
                    "</Result></PhoronixTestSuite>\n");
    struct pb_err err = {0};
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, NULL, &err), PB_EINPUT);
    assert_true(now_s() - t0 < 0.5);
    assert_int_equal(err.line, 2);
    pb_buf_release(&b);
}

/* Issue 20 item 16: numbering the entries of one system was quadratic in
 * the entries of a result (a 4 MB result took 10 s). 30,000 entries of
 * 10,000 systems, three each, interleaved. */
static void test_wide_result_linear(void **state)
{
    (void)state;
    enum { NSYS = 10000, NENT = 30000 };
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<?xml version=\"1.0\"?>\n<PhoronixTestSuite>\n"
                    "<Result><Identifier>pts/dbench-1.0.2</Identifier>"
                    "<Title>Dbench</Title>"
                    "<Description>Client Count: 48</Description>"
                    "<Scale>MB/s</Scale><Proportion>HIB</Proportion><Data>\n");
    for (int i = 0; i < NENT; i++)
        pb_buf_printf(&b,
                      "<Entry><Identifier>host-%05d</Identifier>"
                      "<Value>%d</Value><RawString>%d:%d</RawString>"
                      "</Entry>\n",
                      i % NSYS, 100 + i, 99 + i, 101 + i);
    pb_buf_puts(&b, "</Data></Result>\n</PhoronixTestSuite>\n");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, &set, &err), PB_OK);
    double dt = now_s() - t0;
    print_message("%d entries parsed in %.3f s\n", NENT, dt);
    assert_true(dt < 2.0);
    assert_int_equal(set->nresults, NENT);
    assert_int_equal(set->nconfigs, NSYS);
    /* host-00005: entries 5, 10005, 20005 of the result, in that order */
    const char *name = "Dbench: Client Count: 48 (MB/s)";
    check(find(set, "host-00005", name, "entry 1"), 105, "MB/s", 1,
          RAW(104, 106));
    check(find(set, "host-00005", name, "entry 2"), 10105, "MB/s", 1,
          RAW(10104, 10106));
    check(find(set, "host-00005", name, "entry 3"), 20105, "MB/s", 1,
          RAW(20104, 20106));
    pb_resultset_free(set);
    pb_buf_release(&b);
}

/* A description of 60,000 "Key: Value" pairs (900 KB): the first 64
 * become parameters, quickly (each stored parameter is looked up among the
 * test's others: all of them took 44 s). */
static void test_huge_description(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<PhoronixTestSuite><Result><Identifier>pts/x-1.0"
                    "</Identifier><Title>X</Title><Description>");
    for (int i = 0; i < 60000; i++)
        pb_buf_printf(&b, "%sK%d: %d", i ? " - " : "", i, i);
    pb_buf_puts(&b, "</Description><Scale>s</Scale><Data><Entry><Identifier>"
                    "a</Identifier><Value>1</Value></Entry></Data></Result>"
                    "</PhoronixTestSuite>\n");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    double t0 = now_s();
    assert_int_equal(parse_mem(b.s, b.len, &set, &err), PB_OK);
    assert_true(now_s() - t0 < 2.0);
    assert_int_equal(set->ntests, 1);
    const struct pb_test *t = &set->tests[0];
    assert_int_equal(t->nparams, 64 + 1); /* and scale */
    assert_string_equal(t->params[0].key, "k0");
    assert_string_equal(t->params[63].key, "k63");
    assert_string_equal(t->params[63].value, "63");
    assert_string_equal(t->params[64].key, "scale");
    pb_resultset_free(set);
    pb_buf_release(&b);
}

static void test_truncated_everywhere(void **state)
{
    (void)state;
    static const char *const files[] = {
        FIX "fio-2systems.xml",
        FIX "lib-and-failures.xml",
        CORPUS "pts-5.6.0_tiobench_storage_aws-m3large_laertispappas.xml",
        CORPUS "pts-10.8.4_multi-test-cpu-suite_manueljbrito.xml",
        CORPUS "pts-8.0.1_blogbench_gcp-clearlinux-docker_ucd.xml",
    };
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        if (access(files[f], R_OK) != 0)
            continue;
        size_t len;
        char *buf = th_slurp(files[f], &len);
        for (int k = 0; k < 10; k++) {
            size_t cut = len * (size_t)k / 10;
            char *part = pb_xstrndup(buf, cut);
            struct pb_err err = {0};
            int rc = parse_mem(part, cut, NULL, &err);
            if (rc != PB_EINPUT)
                fail_msg("%s cut at %zu accepted", files[f], cut);
            long lines = pb_line_of(part, cut);
            if (cut > 0 && (err.line < 1 || err.line > lines ||
                            !strstr(err.msg, "truncated XML: the file ends "
                                             "inside \"")))
                fail_msg("%s cut at %zu: line %ld of %ld: %s", files[f], cut,
                         err.line, lines, err.msg);
            if (cut == 0)
                assert_string_equal(err.msg, "empty file");
            free(part);
        }
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        assert_int_equal(parse_mem(buf, len, &set, &err), PB_OK);
        pb_resultset_free(set);
        free(buf);
    }
}

static void test_garbage(void **state)
{
    (void)state;
    unsigned seed = 12345;
    char buf[4096];
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof(buf); i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)(seed >> 16);
        }
        if (round % 2) { /* garbage after a plausible start */
            static const char head[] = "<?xml version=\"1.0\"?>\n"
                                       "<PhoronixTestSuite>\n<Result>";
            memcpy(buf, head, sizeof(head) - 1);
        }
        struct pb_err err = {0};
        assert_int_equal(parse_mem(buf, sizeof(buf), NULL, &err), PB_EINPUT);
        (void)pb_parser_pts_xml.sniff(buf, sizeof(buf));
    }
    struct pb_err err = {0};
    assert_int_equal(parse_mem("", 0, NULL, &err), PB_EINPUT);
    assert_string_equal(err.msg, "empty file");
    pb_err_clear(&err);
    assert_int_equal(parse_str("   \n\n  ", NULL, &err), PB_EINPUT);
    pb_err_clear(&err);
    assert_int_equal(parse_str("{\"fio version\": \"fio-3.33\"}", NULL, &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 1);
    /* deep nesting stops at libxml2's depth limit, cleanly */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "<PhoronixTestSuite>");
    for (int i = 0; i < 5000; i++)
        pb_buf_puts(&b, "<a>");
    pb_err_clear(&err);
    assert_int_equal(parse_mem(b.s, b.len, NULL, &err), PB_EINPUT);
    pb_buf_release(&b);
}

static void test_xml_errors(void **state)
{
    (void)state;
    /* the first fatal error is reported, not its consequences */
    expect_err("<PhoronixTestSuite>\n<a>1</b><c></PhoronixTestSuite>", 2,
               "invalid XML: opening and ending tag mismatch: a line 2 and b");
    expect_err("<?xml version=\"1.0\"?>\n<PhoronixTestSu", 2,
               "truncated XML: the file ends inside the root start tag");
    expect_err("<PhoronixTestSuite>\n<Result>\n<Entry a=\"x", 3,
               "truncated XML: the file ends inside \"Result\" (opened on "
               "line 2)");
    expect_err("<PhoronixTestSuite><a>1 & 2</a></PhoronixTestSuite>", 1,
               "invalid XML");
    expect_err("<?xml version=\"1.0\"?>\n<other>\n<Result/>\n</other>\n", 2,
               "not a Phoronix Test Suite result: root element is "
               "\"other\"");
    expect_err("<?xml version=\"1.0\"?>\n<other>\n<Result>", 3,
               "truncated XML");
    /* a field longer than any PTS field is refused */
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < ((size_t)1 << 20) + 1; i++)
        pb_buf_putc(&b, 'x');
    char *doc = doc_with(b.s, "1", "1:2");
    expect_err(doc, 4, "text of \"Identifier\" is longer than 1048576 bytes");
    free(doc);
    pb_buf_release(&b);
    /* namespaced or unknown elements are ignored, a namespace error is not
     * fatal */
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(
        parse_str("<PhoronixTestSuite><x:y/><Junk><Result/></Junk>"
                  "<Result><Identifier>pts/a</Identifier><Title>A</Title>"
                  "<p:Scale>bad</p:Scale><Data><Entry><Identifier>s"
                  "</Identifier><Value>3</Value></Entry></Data></Result>"
                  "</PhoronixTestSuite>",
                  &set, &err),
        PB_OK);
    assert_int_equal(set->nresults, 1);
    assert_string_equal(set->tests[0].name, "A");
    assert_null(set->results[0].unit);
    pb_resultset_free(set);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    char *doc = doc_with("box", "12.5", "12:13");
    size_t len = strlen(doc);
    char *p = strstr(doc, "12.5");
    p[1] = '\0'; /* "1\0.5" on line 11 */
    struct pb_err err = {0};
    assert_int_equal(parse_mem(doc, len, NULL, &err), PB_EINPUT);
    assert_int_equal(err.line, 11);
    assert_int_equal(err.col, 54); /* "    <Data><Entry>...<Value>1" is 53 */
    assert_string_equal(err.msg,
                        "invalid XML: NUL byte (binary data or a damaged file)");
    free(doc);
}

static void test_values(void **state)
{
    (void)state;
    static const struct {
        const char *value, *raw;
        int has_value;
        double v;
        long n;
        const char *reason;
    } cases[] = {
        {"123456789012345678901234567890", "1:2", 1, 1.2345678901234568e29, 2,
         NULL},
        {"1e999", "1:2", 0, 0, 0, "value \"1e999\" is out of range"},
        {"-1.5e-3", "", 1, -1.5e-3, 0, NULL},
        {"12abc", "1:2", 0, 0, 0, "value \"12abc\" is not a number"},
        {"nan", "", 0, 0, 0, "value \"nan\" is not a number"},
        {"0x10", "", 0, 0, 0, "value \"0x10\" is not a number"},
        {"1,2,3,4", "1,2:3,4", 0, 0, 0, "value \"1,2,3,4\" is not a number"},
        {"5", "5:x:6", 1, 5, 0, NULL},    /* bad raw: samples unknown */
        {"5", "1e999:5", 1, 5, 0, NULL},  /* infinite raw value */
        {"  7.25 ", " 7 : 7.5 ", 1, 7.25, 2, NULL},
        {"", "", 0, 0, 0, "no value recorded"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *doc = doc_with("box", cases[i].value, cases[i].raw);
        struct pb_err err = {0};
        struct pb_resultset *set = NULL;
        assert_int_equal(parse_str(doc, &set, &err), PB_OK);
        assert_int_equal(set->nresults, 1);
        const struct pb_result *r = &set->results[0];
        if (r->has_value != cases[i].has_value)
            fail_msg("case %zu (%s): has_value %d", i, cases[i].value,
                     r->has_value);
        if (r->has_value) {
            assert_near(r->value, cases[i].v, fabs(cases[i].v) * 1e-15);
            assert_int_equal(r->samples, cases[i].n);
        } else {
            assert_string_equal(r->null_reason, cases[i].reason);
        }
        free(doc);
        pb_resultset_free(set);
    }
}

static void test_html_and_cdata(void **state)
{
    (void)state;
    char *doc = doc_with("&lt;script&gt;alert(1)&lt;/script&gt;",
                         "<![CDATA[42]]>", "41:43");
    struct pb_err err = {0};
    struct pb_resultset *set = NULL;
    assert_int_equal(parse_str(doc, &set, &err), PB_OK);
    assert_string_equal(set->configs[0].label, "<script>alert(1)</script>");
    assert_string_equal(set->results[0].host, "<script>alert(1)</script>");
    check(&set->results[0], 42, "MB/s", PB_DIR_HIGHER, RAW(41, 43));
    free(doc);
    pb_resultset_free(set);
}

/* The same file with CRLF line ends gives the same set. */
static void test_crlf(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FIX "fio-2systems.xml", &len);
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n')
            pb_buf_putc(&b, '\r');
        pb_buf_putc(&b, buf[i]);
    }
    struct pb_err err = {0};
    struct pb_resultset *a = NULL, *c = NULL;
    assert_int_equal(parse_mem(buf, len, &a, &err), PB_OK);
    assert_int_equal(parse_mem(b.s, b.len, &c, &err), PB_OK);
    assert_int_equal(a->nresults, c->nresults);
    assert_int_equal(a->nfacts, c->nfacts);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_near(a->results[i].value, c->results[i].value, 0);
        assert_near(a->results[i].stderr_, c->results[i].stderr_, 0);
    }
    for (size_t i = 0; i < a->nfacts; i++)
        assert_string_equal(a->facts[i].value, c->facts[i].value);
    pb_resultset_free(a);
    pb_resultset_free(c);
    pb_buf_release(&b);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_xxe_variants),
        cmocka_unit_test(test_billion_laughs_fast),
        cmocka_unit_test(test_wide_result_linear),
        cmocka_unit_test(test_huge_description),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_xml_errors),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_html_and_cdata),
        cmocka_unit_test(test_crlf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
