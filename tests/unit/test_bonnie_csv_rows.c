/* Unit tests for ingest/bonnie/bonnie_csv.c on rows built in memory: repeats,
 * exact numbers, cells and layout details, rows without a version, and
 * hostile input (empty, truncated, garbage, huge numbers, HTML, CRLF and
 * BOM, NUL bytes). Fixtures, corpus and sniffing: test_bonnie_csv.c. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/bonnie_csv_help.h"

/* ==== hostile input ==== */

static const char ROW197[] =
    "1.97,1.97,m1,1,1518013224,15G,,736,99,26293,3,24577,2,1656,99,34696,3,"
    "9677,141,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
    "+++,15706us,332ms,1814ms,6118us,31607us,5473us,735us,503us,1116us,373us,"
    "30us,1537us";

/* ROW197 with cell `idx` replaced by `val` (and name `name` if not NULL). */
static char *row_with(const char *name, int idx, const char *val)
{
    struct pb_buf b = PB_BUF_INIT;
    const char *p = ROW197;
    for (int i = 0;; i++) {
        const char *q = strchr(p, ',');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (i)
            pb_buf_putc(&b, ',');
        if (i == idx)
            pb_buf_puts(&b, val);
        else if (i == 2 && name)
            pb_buf_puts(&b, name);
        else
            pb_buf_add(&b, p, n);
        if (!q)
            break;
        p = q + 1;
    }
    pb_buf_putc(&b, '\n');
    return pb_buf_take(&b);
}

/* 1-based column of cell idx of row r */
static long col_of(const char *r, int idx)
{
    const char *p = r;
    for (int k = 0; k < idx; k++)
        p = strchr(p, ',') + 1;
    return (long)(p - r) + 1;
}

/* Repeats built from ROW197: runs of one machine and test fold into one
 * result per metric wherever they are in the file; other machines and
 * tests do not. */
static void test_repeats(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    /* m1 three times, seq_create "+++++", 100, 200; m2 in between */
    const char *cells[] = {"+++++", "100", "200"};
    for (int i = 0; i < 3; i++) {
        char *r = row_with(NULL, 24, cells[i]);
        pb_buf_puts(&b, r);
        free(r);
        if (i == 0) {
            r = row_with("m2", 7, "100");
            pb_buf_puts(&b, r);
            free(r);
        }
    }
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->nconfigs, 2);
    assert_int_equal(s->ntests, 1);
    assert_int_equal(s->nresults, 72); /* 36 per machine */
    no_jobs(s);
    assert_string_equal(s->results[0].host, "m1"); /* m1 came first */
    assert_string_equal(s->results[36].host, "m2");
    /* 100 and 200 measured, one run too fast: mean 150, SD 70.71, SE 50 */
    chk_fold(s, "m1", "seq_create", 150, 50, 2);
    chk_null_n(s, "m1", "seq_create_cpu", 3); /* "+++" three times */
    chk_fold(s, "m1", "seq_out_char_bw", 736 * KB, 0, 3);
    chk_fold(s, "m1", "seq_out_char_latency", 15706e3, 0, 3);
    assert_string_equal(th_fact(s, "m1", "too_fast_runs"),
                        "bonnie++ file_size=15G files=16k: seq_create 1 of "
                        "3");
    /* m2: one row, as read */
    chk_fold(s, "m2", "seq_out_char_bw", 100 * KB, -1, 0);
    chk_null_n(s, "m2", "seq_create", 0);
    assert_null(th_fact(s, "m2", "too_fast_runs"));
    pb_resultset_free(s);

    /* a 1.97 row (no seeks cells) and a 2.00a row (seeks 8192, the
     * default) of m1 name the same test but differ in its parameters:
     * two tests, as the database keys them (and as two files of these
     * rows give), so no fold: one result each */
    pb_buf_reset(&b);
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    const char *cut = strstr(ROW197, "15G,,") + 5;
    pb_buf_puts(&b, "1.98,2.00a");
    pb_buf_add(&b, ROW197 + 9, (size_t)(cut - ROW197 - 9));
    pb_buf_puts(&b, "8192,5,");
    pb_buf_puts(&b, cut);
    pb_buf_putc(&b, '\n');
    s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->ntests, 2);
    assert_string_equal(s->tests[0].name, "bonnie++ file_size=15G files=16k");
    assert_string_equal(s->tests[1].name, "bonnie++ file_size=15G files=16k");
    assert_null(tparam(s, 0, "seeks"));
    assert_string_equal(tparam(s, 1, "seeks"), "8192");
    assert_string_equal(tparam(s, 1, "seek_procs"), "5");
    assert_int_equal(s->nresults, 72);
    assert_int_equal(s->results[0].test, 0);
    assert_string_equal(s->results[3].metric, "seq_out_block_bw");
    assert_near(s->results[3].value, 26293 * KB, 0);
    assert_int_equal(s->results[3].samples, 0);
    assert_int_equal(s->results[36].test, 1);
    assert_string_equal(s->results[36].metric, "seq_out_char_bw");
    assert_near(s->results[36].value, 736 * KB, 0);
    assert_int_equal(s->results[36].samples, 0);
    assert_string_equal(s->tool_version, "bonnie++-1.97"); /* first row */
    assert_string_equal(th_fact(s, "m1", "bonnie_version"), "2.00a"); /* last */
    pb_resultset_free(s);

    /* another test (file size) of the same machine is not a repeat */
    pb_buf_reset(&b);
    char *r = row_with(NULL, 5, "16G");
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    pb_buf_puts(&b, r);
    free(r);
    s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    assert_int_equal(s->ntests, 2);
    assert_int_equal(s->nresults, 72);
    chk_fold_t(s, "bonnie++ file_size=16G files=16k", "m1", "seq_out_char_bw",
               736 * KB, -1, 0);
    pb_resultset_free(s);
    pb_buf_release(&b);
}

/* Numbers take an exact path instead of strtod: it must give the same
 * double, bit for bit. */
static void test_number_exact(void **state)
{
    (void)state;
    static const char *const v[] = {"0.1",  "148.7", "312.5", "0.3",
                                    "2.675", "99999999999999.9",
                                    "123456789012345", "0.000000000000001",
                                    "1.0000000000001", "9007199254740.993"};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        char *r = row_with(NULL, 17, v[i]); /* seeks: no unit factor */
        struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
        const struct pb_result *x =
            must(find(s, "m1", NULL, "random_seeks"), v[i]);
        double want = strtod(v[i], NULL);
        if (memcmp(&x->value, &want, sizeof(want)) != 0) {
            print_error("%s: got %.17g, strtod %.17g\n", v[i], x->value,
                        want);
            fail();
        }
        pb_resultset_free(s);
        free(r);
    }
}

static void test_empty_and_blank(void **state)
{
    (void)state;
    expect_mem_reject("", 0, 0, 0, "no bonnie++ CSV row found");
    expect_mem_reject("\n\n  \r\n", 6, 0, 0, "no bonnie++ CSV row found");
    const char *c = "# only a comment, with, commas, and more, commas\n"
                    "Comment here!\n";
    expect_mem_reject(c, strlen(c), 0, 0, "no bonnie++ CSV row found");
    const char *h = "format_version,bonnie_version,name,concurrency,seed\n";
    expect_mem_reject(h, strlen(h), 0, 0, "no bonnie++ CSV row found");
}

static void truncate_all(const char *dir, const char *name)
{
    size_t len;
    char *buf = th_slurp_in(dir, name, &len);
    for (int k = 0; k <= 10; k++) {
        size_t n = len * (size_t)k / 10;
        struct pb_resultset *set;
        struct pb_err err;
        int rc = th_parse(BONNIEP, name, buf, n, &set, &err);
        if (rc == PB_OK) {
            assert_non_null(set);
            pb_resultset_free(set);
        } else {
            assert_int_equal(rc, PB_EINPUT);
            assert_true(err.msg[0] != '\0');
            assert_true(err.line >= 0 && err.line <= pb_line_of(buf, n));
        }
        (void)th_sniff(BONNIEP, buf, n);
    }
    free(buf);
}

static void test_truncated(void **state)
{
    (void)state;
    truncate_all(FIX_DIR, "bonnie-2.00a_stdout-text-plus-csv.txt");
    truncate_all(FIX_DIR, "bonnie-2.00a_q-two-runs-appended.csv");
    truncate_all(FIX_DIR, "bonnie-1.03-and-1.97_hand-written_crlf.csv");
    if (access(CORPUS_DIR, R_OK) != 0)
        return;
    truncate_all(CORPUS_DIR,
                 "bonnie-1.96-and-1.03-mixed_with-comment_annttu.csv");
    truncate_all(CORPUS_DIR,
                 "bonnie-1.97_multiple-runs-appended_ssd_cunnie.txt");
    truncate_all(CORPUS_DIR,
                 "bonnie-1.96_multiple-runs-with-comment-header_iscsi_"
                 "cunnie.txt");
    /* a cut row is reported at its line */
    size_t len;
    char *buf = th_slurp_in(CORPUS_DIR,
                      "bonnie-1.97_pure-csv-5-runs_zfs-hdd_george-qiaozhi.csv",
                      &len);
    expect_mem_reject(buf, len / 2, 3, 0, "expected 48 (CSV format 1.97)");
    free(buf);
}

static void test_garbage(void **state)
{
    (void)state;
    /* deterministic random bytes, with and without commas */
    char *g = malloc(65536);
    assert_non_null(g);
    th_garbage(g, 65536, 12345);
    struct pb_resultset *set;
    struct pb_err err;
    for (size_t n = 0; n <= 65536; n += 4096) {
        int rc = th_parse(BONNIEP, "g", g, n, &set, &err);
        if (rc == PB_OK)
            pb_resultset_free(set);
        else
            assert_int_equal(rc, PB_EINPUT);
        (void)th_sniff(BONNIEP, g, n);
    }
    /* garbage after a version prefix is a broken row */
    const char *b = "1.97,1.97,\xff\xfe,\x01\x02,,,,,,,\n";
    expect_mem_reject(b, strlen(b), 1, 0, "columns, expected 48");
    free(g);
}

static void test_huge_numbers(void **state)
{
    (void)state;
    char *r = row_with(NULL, 9, "99999999999999999999999");
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_bw", 99999999999999999999999.0 * KB,
        "B/s", HI);
    pb_resultset_free(s);
    free(r);

    r = row_with(NULL, 37, "999999999999999999ms");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_latency", 999999999999999999e6, "ns",
        LO);
    pb_resultset_free(s);
    free(r);

    /* 400 digits: out of range, an error rather than inf */
    char big[401];
    memset(big, '9', 400);
    big[400] = '\0';
    r = row_with(NULL, 9, big);
    expect_mem_reject(r, strlen(r), 1, col_of(r, 9), "invalid value \"9999");
    free(r);
    r = row_with(NULL, 5, "99999999999999999999999999999G");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    pb_resultset_free(s);
    free(r);
}

static void test_html_label(void **state)
{
    (void)state;
    const char *name = "<script>alert('x')</script>&amp;\"q\"";
    char *r = row_with(name, -1, NULL);
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_int_equal(s->nconfigs, 1);
    assert_string_equal(s->configs[0].label, name);
    assert_string_equal(s->results[0].host, name);
    assert_string_equal(th_fact(s, name, "bonnie_version"), "1.97");
    pb_resultset_free(s);
    free(r);
}

static void test_crlf_and_bom(void **state)
{
    (void)state;
    size_t len;
    char *lf =
        th_slurp_in(FIX_DIR, "bonnie-2.00a_stdout-text-plus-csv.txt", &len);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "\xEF\xBB\xBF");
    for (size_t i = 0; i < len; i++) {
        if (lf[i] == '\n')
            pb_buf_putc(&b, '\r');
        pb_buf_putc(&b, lf[i]);
    }
    struct pb_resultset *a = th_parse_mem_ok(BONNIEP, "lf", lf, len);
    struct pb_resultset *c = th_parse_mem_ok(BONNIEP, "crlf", b.s, b.len);
    assert_int_equal(a->nresults, c->nresults);
    for (size_t i = 0; i < a->nresults; i++) {
        assert_string_equal(a->results[i].metric, c->results[i].metric);
        assert_int_equal(a->results[i].has_value, c->results[i].has_value);
        assert_near(a->results[i].value, c->results[i].value, 0);
        assert_string_equal(a->results[i].host, c->results[i].host);
    }
    assert_string_equal(c->tests[0].name, a->tests[0].name);
    pb_resultset_free(a);
    pb_resultset_free(c);
    pb_buf_release(&b);
    free(lf);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    /* NUL inside the machine name: an error at its column */
    char *r = row_with("ab\x01" "cd", -1, NULL);
    r[12] = '\0';
    size_t n = strlen(r + 13) + 13;
    expect_mem_reject(r, n, 1, 13, "control character in machine name");
    free(r);
    /* NUL in a skipped text line does not matter */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, "junk\0line\n", 10);
    pb_buf_puts(&b, ROW197);
    pb_buf_putc(&b, '\n');
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "m", b.s, b.len);
    chk(s, "m1", NULL, "seq_out_char_bw", 736 * KB, "B/s", HI);
    pb_resultset_free(s);
    pb_buf_release(&b);
    /* NUL inside a number cell */
    r = row_with(NULL, 9, "26x93");
    char *x = strstr(r, "26x93");
    x[2] = '\0';
    expect_mem_reject(r, strlen(r + 60) + 60, 1, (long)(x - r) + 1,
                      "invalid value \"26?93\" in column \"put_block\"");
    free(r);
}

static void test_cells(void **state)
{
    (void)state;
    struct pb_resultset *s;
    char *r;
    /* latencies: ns, us, ms, s, with a fraction */
    r = row_with(NULL, 36, "1.5s");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_char_latency", 1.5e9, "ns", LO);
    pb_resultset_free(s);
    free(r);
    r = row_with(NULL, 36, "250ns");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_char_latency", 250, "ns", LO);
    pb_resultset_free(s);
    free(r);
    static const struct {
        int idx;
        const char *val, *msg;
    } bad[] = {
        {36, "1303", "invalid latency \"1303\" in column \"putc_latency\""},
        {36, "12xs", "invalid latency"},
        {36, "ms", "invalid latency"},
        {36, "-5ms", "invalid latency"},
        {7, "++", "invalid value \"++\" in column \"putc\""},
        {8, "9 9", "invalid value \"9 9\" in column \"putc_cpu\""},
        {7, "-1", "invalid value"},
        {7, "1e3", "invalid value"},
        {7, "nan", "invalid value"},
        {3, "x", "invalid number \"x\" in column \"concurrency\""},
        {5, "64Q", "invalid size \"64Q\" in column \"file_size\""},
        {6, "4q", "invalid size \"4q\" in column \"chunk_size\""},
        {19, "1.5", "invalid number \"1.5\" in column \"num_files\""},
        {20, "big", "invalid number \"big\" in column \"max_size\""},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        r = row_with(NULL, bad[i].idx, bad[i].val);
        expect_mem_reject(r, strlen(r), 1, col_of(r, bad[i].idx),
                          bad[i].msg);
        free(r);
    }
    /* blanks around cells are tolerated */
    r = row_with(NULL, 9, " 26293 ");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    chk(s, "m1", NULL, "seq_out_block_bw", 26293 * KB, "B/s", HI);
    pb_resultset_free(s);
    free(r);
    /* a bare file size is MiB; a bare chunk size is bytes */
    r = row_with(NULL, 5, "512");
    char *r2 = row_with(NULL, 6, "512");
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_string_equal(tparam(s, 0, "file_size"), "536870912");
    pb_resultset_free(s);
    s = th_parse_mem_ok(BONNIEP, "m", r2, strlen(r2));
    assert_string_equal(tparam(s, 0, "chunk_size"), "512");
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=15G chunk=512 files=16k");
    pb_resultset_free(s);
    free(r);
    free(r2);
}

static void test_layout_details(void **state)
{
    (void)state;
    struct pb_resultset *s;
    /* header order for the file block when num_dirs is in its own cell */
    const char *a =
        "1.97,1.97,m1,1,1,,,,,,,,,,,,,,,4,4096,512,8,2k,10,1,11,1,12,1,13,1,"
        "14,1,15,1,,,,,,,1ms,1ms,1ms,1ms,1ms,1ms\n";
    s = th_parse_mem_ok(BONNIEP, "m", a, strlen(a));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ files=4k max=4k min=512 dirs=8 "
                        "file_chunk=2k");
    assert_string_equal(tparam(s, 0, "num_dirs"), "8");
    assert_string_equal(tparam(s, 0, "file_chunk_size"), "2048");
    chk(s, "m1", NULL, "rand_delete", 15, "ops/s", HI);
    assert_int_equal(s->nresults, 18);
    pb_resultset_free(s);
    /* links, 1.98 with non-default seeks, concurrency */
    const char *b =
        "1.98,2.00a,m2,3,1,1G,,4000,2,,,5,1,,,,,,,,,1,link,,,,3,1,4,1,5,1,6,1,"
        "7,1,8,1,,1ms,,,,,2ms,2ms,2ms,2ms,2ms,2ms\n";
    s = th_parse_mem_ok(BONNIEP, "m", b, strlen(b));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=1G seeks=4000 seekers=2 files=1k "
                        "max=link concurrency=3");
    assert_string_equal(tparam(s, 0, "max_size"), "link");
    assert_string_equal(tparam(s, 0, "seeks"), "4000");
    assert_string_equal(tparam(s, 0, "seek_procs"), "2");
    chk(s, "m2", NULL, "seq_out_block_bw", 5 * KB, "B/s", HI);
    chk(s, "m2", NULL, "seq_out_block_latency", 1e6, "ns", LO);
    pb_resultset_free(s);
    /* 1.0x: symlinks and directories in the files cell */
    const char *c = "old,300M,1,2,3,4,5,6,7,8,9,10,11.5,12,4:symlink/2,1,1,"
                    "2,2,3,3,4,4,5,5,6,6\n";
    s = th_parse_mem_ok(BONNIEP, "m", c, strlen(c));
    assert_string_equal(s->tests[0].name,
                        "bonnie++ file_size=300M files=4k max=symlink dirs=2");
    assert_string_equal(tparam(s, 0, "file_size"), "314572800");
    chk(s, "old", NULL, "random_seeks", 11.5, "ops/s", HI);
    pb_resultset_free(s);
    /* a 1.98 row with the 1.96 cell count, and a short 1.0x row */
    char *r = row_with(NULL, -1, NULL);
    memcpy(r, "1.98", 4);
    expect_mem_reject(r, strlen(r), 1, 0,
                      "row \"m1\" has 48 columns, expected 50 (CSV format "
                      "1.98)");
    free(r);
    const char *d = "# x\nold,300M,1,2,3,4,5,6,7,8,9,10,11.5,12,4,1,1\n";
    expect_mem_reject(d, strlen(d), 2, 0,
                      "row \"old\" has 17 columns, expected 27 (bonnie++ "
                      "1.0x CSV)");
    /* -s 0 -n 0 measures nothing: parsed, no results */
    const char *e = "1.97,1.97,m1,1,1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"
                    ",\n";
    s = th_parse_mem_ok(BONNIEP, "m", e, strlen(e));
    assert_int_equal(s->nresults, 0);
    pb_resultset_free(s);
    /* an empty machine name */
    r = row_with("", -1, NULL);
    s = th_parse_mem_ok(BONNIEP, "m", r, strlen(r));
    assert_string_equal(s->configs[0].label, "(unnamed)");
    pb_resultset_free(s);
    free(r);
}

/* Issue 18 item 9: 1.0x rows carry no version; the text table's "Version"
 * line gives it, else the fact flag.no_version. */
static void test_no_version(void **state)
{
    (void)state;
    static const char row[] =
        "zfs01,8G,52011,97,142516,31,58204,14,48216,89,150339,17,243.2,1,"
        "16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n";
    struct pb_resultset *s = th_parse_mem_ok(BONNIEP, "mem.csv", row,
                                             sizeof(row) - 1);
    assert_null(s->tool_version);
    assert_string_equal(th_fact(s, NULL, "flag.no_version"), "no version found");
    pb_resultset_free(s);

    static const char text[] =
        "Version  1.03e       ------Sequential Output------ --Sequential "
        "Input- --Random-\n"
        "zfs01,8G,52011,97,142516,31,58204,14,48216,89,150339,17,243.2,1,"
        "16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n";
    s = th_parse_mem_ok(BONNIEP, "mem.txt", text, sizeof(text) - 1);
    assert_null(th_fact(s, NULL, "flag.no_version"));
    assert_string_equal(th_fact(s, NULL, "bonnie_version"), "1.03e");
    pb_resultset_free(s);

    /* a version cell: no flag */
    s = fixture("bonnie-2.00a_q-two-runs-appended.csv");
    assert_null(th_fact(s, NULL, "flag.no_version"));
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests_[] = {
        cmocka_unit_test(test_no_version),
        cmocka_unit_test(test_empty_and_blank),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_huge_numbers),
        cmocka_unit_test(test_html_label),
        cmocka_unit_test(test_crlf_and_bom),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_layout_details),
        cmocka_unit_test(test_repeats),
        cmocka_unit_test(test_number_exact),
    };
    return cmocka_run_group_tests(tests_, NULL, NULL);
}
