/* Unit tests for the table reader (ingest/table/table*.c): exact values from the
 * fixtures of every pattern (the two tables of issue 11 verbatim, Markdown,
 * CSV, ';' CSV, aligned with prose, decimal commas, two tables of one
 * shape), headings and sentences as dimensions, --table-metric, sniffing,
 * and bad and hostile input with exact messages. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"
#include <unistd.h>

#include "ingest/ingest.h"

static const char *const FIX = PB_FIXTURES_DIR "/table";

#define MiB 1048576.0
#define GiB (1024.0 * 1024 * 1024)

/* ==== helpers ==== */

static const struct pb_parser *tbl(void)
{
    const struct pb_parser *p = pb_ingest_parser_by_name("table");
    assert_non_null(p);
    return p;
}

static struct pb_resultset *fix(const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", FIX, name);
    size_t len;
    char *buf = th_slurp(path, &len);
    const struct pb_parser *best = pb_ingest_find_parser(buf, len);
    assert_non_null(best);
    assert_string_equal(best->name, "table");
    struct pb_resultset *set = th_parse_mem_ok(tbl(), name, buf, len);
    free(buf);
    return set;
}

static struct pb_resultset *str_ok(const char *s)
{
    return th_parse_mem_ok(tbl(), "mem.txt", s, strlen(s));
}

/* The message of a rejected input, as "line:col: msg". */
static const char *str_err(const char *s)
{
    static char out[400];
    struct pb_resultset *set;
    struct pb_err err;
    int rc = th_parse(tbl(), "mem.txt", s, strlen(s), &set, &err);
    assert_int_equal(rc, PB_EINPUT);
    assert_null(set);
    snprintf(out, sizeof(out), "%ld:%ld: %.*s", err.line, err.col,
             PB_ERR_SHORT - 1, err.msg);
    return out;
}

static size_t config_named(const struct pb_resultset *s, const char *label)
{
    for (size_t i = 0; i < s->nconfigs; i++)
        if (!strcmp(s->configs[i].label, label))
            return i;
    print_error("no config \"%s\"\n", label);
    fail();
    return 0;
}

static const struct pb_kv *cparam(const struct pb_resultset *s, size_t c,
                                  const char *key)
{
    for (size_t i = 0; i < s->configs[c].nparams; i++)
        if (!strcmp(s->configs[c].params[i].key, key))
            return &s->configs[c].params[i];
    return NULL;
}

/* Value of (config label, test name, metric); fails when absent. */
static double val(const struct pb_resultset *s, const char *label,
                  const char *test, const char *metric)
{
    for (size_t i = 0; i < s->nresults; i++) {
        const struct pb_result *r = &s->results[i];
        if (!strcmp(s->configs[r->config].label, label) &&
            !strcmp(s->tests[r->test].name, test) &&
            !strcmp(r->metric, metric) && r->has_value)
            return r->value;
    }
    print_error("no %s / %s / %s\n", label, test, metric);
    fail();
    return NAN;
}

static int has(const struct pb_resultset *s, const char *label,
               const char *metric)
{
    for (size_t i = 0; i < s->nresults; i++)
        if (!strcmp(s->configs[s->results[i].config].label, label) &&
            !strcmp(s->results[i].metric, metric))
            return 1;
    return 0;
}

/* ==== the two tables of issue 11, verbatim ==== */

static void test_issue_fsync_groups(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("issue11_tsv_fsync-groups.tsv");
    const char *c = "issue11_tsv_fsync-groups.tsv table 1: volblocksize=8k";
    size_t ci = config_named(s, c);
    assert_string_equal(cparam(s, ci, "volblocksize")->value, "8192");
    assert_null(cparam(s, ci, "volblocksize")->origin);
    /* bs=4k spans the whole table, fsync=0 and fsync=1 their groups */
    assert_near(val(s, c, "write bs=4k fsync=0", "write_iops"), 10500, 0);
    assert_near(val(s, c, "write bs=4k fsync=0", "write_bw"), 43201331, 0);
    assert_near(val(s, c, "write bs=4k fsync=1", "write_iops"), 65, 0);
    assert_near(val(s, c, "write bs=4k fsync=1", "write_bw"), 260 * 1024.0, 0);
    const struct pb_test *t = th_test_named(s, "write bs=4k fsync=1");
    assert_string_equal(th_param(t, "bs"), "4096");
    assert_string_equal(th_param(t, "fsync"), "1");
    assert_string_equal(th_param(t, "rw"), "write");
    assert_string_equal(t->tool, "table");
    assert_int_equal(s->nresults, 4);
    assert_string_equal(th_fact_any(s, "skipped_lines"), "0");
    pb_resultset_free(s);
}

static void test_issue_compression(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("issue11_tsv_compression.tsv");
    const char *c = "issue11_tsv_compression.tsv table 1: volblocksize=8K, "
                    "compression=zstd";
    size_t ci = config_named(s, c);
    assert_string_equal(cparam(s, ci, "compression")->value, "zstd");
    assert_string_equal(cparam(s, ci, "volblocksize")->value, "8192");
    assert_near(val(s, c, "zfs space", "compressratio"), 1.99, 0);
    assert_near(val(s, c, "zfs space", "used"), 924 * GiB / 10, 0);
    assert_near(val(s, c, "zfs space", "logicalused"), 809 * GiB / 10, 0);
    /* the sign as given: the data grew */
    assert_near(val(s, c, "zfs space", "actual_savings"), -1.14, 0);
    assert_string_equal(th_test_named(s, "zfs space")->tool, "zfs");
    pb_resultset_free(s);
}

/* ==== the other patterns ==== */

static void test_decimal_commas(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("decimal-commas_compression.tsv");
    const char *lz4 = "decimal-commas_compression.tsv table 1: "
                      "compression=lz4";
    assert_near(val(s, lz4, "zfs space", "compressratio"), 2.17, 0);
    assert_near(val(s, lz4, "zfs space", "used"), 470 * GiB / 100, 0);
    assert_near(val(s, lz4, "zfs space", "logicalreferenced"), 102 * GiB / 10,
                0);
    /* recordsize=128k from the sentence before the table, with its origin */
    const struct pb_kv *rs = cparam(s, config_named(s, lz4), "recordsize");
    assert_string_equal(rs->value, "131072");
    assert_string_equal(rs->origin,
                        "title: line 1: Kompression auf dem Pool (Werte aus "
                        "zfs list), recordsize=128k");
    assert_string_equal(th_fact_any(s, "skipped_lines"), "1");
    pb_resultset_free(s);
}

static void test_markdown(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("blog_markdown_recordsize.md");
    const char *c16 = "blog_markdown_recordsize.md table 1: recordsize=16k";
    const char *c1m = "blog_markdown_recordsize.md table 1: recordsize=1M";
    const char *t = "randread bs=16k";
    assert_near(val(s, c16, t, "read_iops"), 18900, 0);
    assert_near(val(s, c16, t, "read_bw"), 295 * MiB, 0);
    assert_near(val(s, c16, t, "read_lat_mean"), 1690000, 0);
    assert_near(val(s, "blog_markdown_recordsize.md table 1: recordsize=128k",
                    t, "read_iops"),
                2310, 0);
    assert_near(val(s, c1m, t, "read_bw"), 4938793, 0); /* 4.71MiB/s */
    assert_false(has(s, c1m, "read_lat_mean"));         /* n/a */
    const struct pb_kv *cmp = cparam(s, config_named(s, c16), "compression");
    assert_string_equal(cmp->value, "lz4");
    assert_string_equal(cmp->origin, "title: line 6: Here is the results with "
                                     "compression=lz4 and bs=16k:");
    /* the earlier sentence (--rw=randread) is not the one before */
    assert_string_equal(th_param(th_test_named(s, t), "rw"), "randread");
    assert_string_equal(th_fact_any(s, "skipped_lines"), "5");
    assert_int_equal(s->nresults, 8);
    pb_resultset_free(s);
}

static void test_csv(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("spreadsheet_layouts.csv");
    const char *c = "spreadsheet_layouts.csv table 1: layout=mirror, vdevs=2, "
                    "slog=yes";
    const char *t = "randwrite bs=4k";
    assert_near(val(s, c, t, "write_iops"), 9210, 0);
    assert_near(val(s, c, t, "write_bw"), 37700000, 0); /* MB/s is SI */
    assert_near(val(s, c, t, "write_lat_mean"), 3470000, 0);
    size_t ci = config_named(s, c);
    assert_string_equal(cparam(s, ci, "layout")->value, "mirror");
    assert_string_equal(cparam(s, ci, "vdevs")->value, "2");
    assert_string_equal(cparam(s, ci, "slog")->value, "yes");
    assert_int_equal(s->nconfigs, 4);
    pb_resultset_free(s);
}

static void test_semicolon_csv(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("spreadsheet_semicolon_decimal-commas.csv");
    const char *c = "spreadsheet_semicolon_decimal-commas.csv table 1: "
                    "recordsize=4k, atime=off";
    /* the table writes decimal commas, so "1.267" is 1267 */
    assert_near(val(s, c, "read", "read_iops"), 1267, 0);
    assert_near(val(s, c, "write", "write_bw"), 5190451, 0); /* 4,95 MiB/s */
    pb_resultset_free(s);
}

static void test_aligned_with_prose(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("terminal_aligned_two-tables.txt");
    const char *a = "terminal_aligned_two-tables.txt table 1: volblocksize=8k";
    const char *b = "terminal_aligned_two-tables.txt table 2: volblocksize=8k";
    assert_near(val(s, a, "write", "write_iops"), 12100, 0);
    assert_near(val(s, a, "write", "write_bw"), 49597645, 0); /* 47.3 MiB/s */
    assert_near(val(s, b, "write", "write_iops"), 1100, 0);
    assert_string_equal(cparam(s, config_named(s, a), "sync")->value,
                        "standard");
    assert_string_equal(cparam(s, config_named(s, a), "ashift")->value, "12");
    assert_string_equal(cparam(s, config_named(s, b), "sync")->value, "always");
    assert_null(cparam(s, config_named(s, b), "ashift"));
    assert_string_equal(th_fact_any(s, "tables"), "2");
    assert_string_equal(th_fact_any(s, "skipped_lines"), "3");
    assert_string_equal(th_fact_any(s, "table:2"), "lines 9-11");
    pb_resultset_free(s);
}

static void test_same_shape_apart(void **state)
{
    (void)state;
    struct pb_resultset *s = fix("same-shape_two-tables.tsv");
    assert_int_equal(s->nconfigs, 4);
    assert_near(val(s, "same-shape_two-tables.tsv table 1: volblocksize=8k",
                    "write", "write_iops"),
                10500, 0);
    assert_near(val(s, "same-shape_two-tables.tsv table 2: volblocksize=8k",
                    "write", "write_iops"),
                12000, 0);
    pb_resultset_free(s);
}

/* ==== rules on small inputs ==== */

static void test_heading_spans_aligned(void **state)
{
    (void)state;
    struct pb_resultset *s = str_ok(
        "bs=4k             fsync=0               fsync=1\n"
        "volblocksize      Write IOPS  Write BW  Write IOPS  Write BW\n"
        "16k               9.1k        35.5MiB/s 70          280KiB/s\n");
    const char *c = "mem.txt table 1: volblocksize=16k";
    assert_near(val(s, c, "write bs=4k fsync=0", "write_iops"), 9100, 0);
    assert_near(val(s, c, "write bs=4k fsync=1", "write_bw"), 286720, 0);
    pb_resultset_free(s);
}

static void test_more_shapes(void **state)
{
    (void)state;
    /* a Markdown heading row spanning column groups */
    struct pb_resultset *s = str_ok(
        "| | fsync=0 | | fsync=1 | |\n"
        "| volblocksize | Write IOPS | Write BW | Write IOPS | Write BW |\n"
        "|---|---|---|---|---|\n"
        "| 8k | 10.5k | 41.2MiB/s | 65 | 260KiB/s |\n"
        "The end.\n");
    const char *c = "mem.txt table 1: volblocksize=8k";
    assert_near(val(s, c, "write fsync=0", "write_bw"), 43201331, 0);
    assert_near(val(s, c, "write fsync=1", "write_iops"), 65, 0);
    assert_string_equal(th_fact_any(s, "skipped_lines"), "1");
    pb_resultset_free(s);
    /* a UTF-8 BOM and CRLF from a spreadsheet; prose right after an
     * aligned table ends it; a pasted fio option in the sentence */
    const char *in = "\xEF\xBB\xBFvolblocksize,Write IOPS\r\n8k,100\r\n";
    assert_int_equal(th_sniff(tbl(), in, strlen(in)), 50);
    s = str_ok(in);
    assert_near(
        val(s, "mem.txt table 1: volblocksize=8k", "write", "write_iops"), 100,
        0);
    pb_resultset_free(s);
    s = str_ok("With **compression=zstd** and --size=1G x=3:\n"
               "volblocksize  Write IOPS\n"
               "8k            100\n"
               "This shows 16k is 2x better.\n");
    c = "mem.txt table 1: volblocksize=8k";
    assert_string_equal(cparam(s, config_named(s, c), "compression")->value,
                        "zstd");
    assert_near(val(s, c, "write size=1G", "write_iops"), 100, 0);
    assert_string_equal(th_fact_any(s, "skipped_lines"), "2");
    pb_resultset_free(s);
}

static void test_rw_and_bare_measures(void **state)
{
    (void)state;
    struct pb_resultset *s = str_ok("rw\tIOPS\tBW\tlat (us)\n"
                                    "randread\t10k\t39MiB/s\t100\n"
                                    "randrw\t8k\t31MiB/s\t120\n");
    const char *c = "mem.txt table 1";
    assert_near(val(s, c, "randread", "read_iops"), 10000, 0);
    assert_near(val(s, c, "randread", "read_lat_mean"), 100000, 0);
    /* a unit in the header applies to cells without one */
    struct pb_resultset *h = str_ok("rw=randread\nrecordsize\tIOPS (k)\t"
                                    "used (GiB)\n8k\t10.5\t2\n16k\t9k\t3G\n");
    assert_near(
        val(h, "mem.txt table 1: recordsize=8k", "randread", "read_iops"),
        10500, 0);
    assert_near(
        val(h, "mem.txt table 1: recordsize=16k", "randread", "read_iops"),
        9000, 0);
    assert_near(val(h, "mem.txt table 1: recordsize=8k",
                    "zfs space rw=randread", "used"),
                2 * GiB, 0);
    pb_resultset_free(h);
    /* mixed: the total as the table gives it */
    assert_near(val(s, c, "randrw", "iops"), 8000, 0);
    pb_resultset_free(s);
    /* sync: the ZFS property or fio's flag, by its value */
    s = str_ok("sync=always\nrecordsize\tWrite IOPS\n8k\t100\n");
    assert_string_equal(
        cparam(s, config_named(s, "mem.txt table 1: recordsize=8k"), "sync")
            ->value,
        "always");
    pb_resultset_free(s);
    s = str_ok("sync=1\nrecordsize\tWrite IOPS\n8k\t100\n");
    assert_null(
        cparam(s, config_named(s, "mem.txt table 1: recordsize=8k"), "sync"));
    assert_string_equal(th_param(th_test_named(s, "write sync=1"), "sync"),
                        "1");
    pb_resultset_free(s);
}

static void test_custom_metric(void **state)
{
    (void)state;
    const char *in = "recordsize\tFoo\tWrite IOPS\n8k\t1.5k\t100\n";
    struct pb_resultset *s = NULL;
    struct pb_err err = {0};
    struct pb_ingest_opts o = {0};
    o.format = "table";
    assert_int_equal(pb_ingest_buffer("x.tsv", in, strlen(in), &o, &s, &err),
                     PB_EINPUT);
    assert_string_equal(err.msg,
                        "column 'Foo' is not a known dimension or metric");
    assert_int_equal(err.line, 1);
    const char *const specs[] = {"Foo=foo_ops:ops/s:higher"};
    o.table_metrics = specs;
    o.ntable_metrics = 1;
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_buffer("x.tsv", in, strlen(in), &o, &s, &err),
                     PB_OK);
    const struct pb_result *r = th_find(s, NULL, "foo_ops");
    assert_non_null(r);
    assert_near(r->value, 1500, 0);
    assert_string_equal(r->unit, "ops/s");
    assert_int_equal(r->direction, PB_DIR_HIGHER);
    pb_resultset_free(s);
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_table_metric_check("Foo=foo:ops/s:up", &err),
                     PB_EUSAGE);
    assert_string_equal(err.msg, "--table-metric: direction must be 'higher' "
                                 "or 'lower', got 'up'");
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_table_metric_check("Foo", &err), PB_EUSAGE);
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_table_metric_check("Foo=Bad Name:x:lower", &err),
                     PB_EUSAGE);
}

static void test_errors(void **state)
{
    (void)state;
    assert_string_equal(str_err("recordsize\tWrite IOPS\tWrite BW\n"
                                "8k\t10\t1MiB/s\n16k\t12\n"),
                        "3:0: row has 2 cells, the header (line 1) has 3");
    assert_string_equal(str_err("recordsize\tWrite IOPS\n8k\tlots\n"),
                        "2:4: bad value 'lots' in column 'Write IOPS': not a "
                        "number");
    assert_string_equal(str_err("recordsize\tWrite IOPS\n8k\t-5\n"),
                        "2:4: bad value '-5' in column 'Write IOPS': "
                        "negative value");
    assert_string_equal(str_err("recordsize\tWrite IOPS\n8k\t1e400\n"),
                        "2:4: bad value '1e400' in column 'Write IOPS': "
                        "unknown unit 'e400'");
    assert_string_equal(str_err("recordsize\tWrite IOPS\n8k\t"
                                "1234567890123456789\n"),
                        "2:4: bad value '1234567890123456789' in column "
                        "'Write IOPS': number has more than 18 digits");
    assert_string_equal(str_err("recordsize\tratio\n8k\t45%\n"),
                        "2:4: bad value '45%' in column 'ratio': a "
                        "percentage where a ratio is wanted (write 1.99x)");
    assert_string_equal(str_err("rw=randwrite\nrecordsize\tRandRead IOPS\n"
                                "8k\t100\n"),
                        "3:4: column 'RandRead IOPS' measures randread, but "
                        "rw=randwrite");
    assert_string_equal(str_err("rw=read\nrecordsize\tRandRead IOPS\n"
                                "8k\t100\n"),
                        "3:4: column 'RandRead IOPS' measures randread, but "
                        "rw=read");
    assert_string_equal(str_err("ashift\tWrite IOPS\n12k\t100\n"),
                        "2:1: bad value '12k' for 'ashift'");
    assert_string_equal(str_err("Just some prose.\nNo table here.\n"),
                        "1:0: no table found: a table is a header row of "
                        "known dimension and metric names over rows of values "
                        "(docs/table-format.md)");
    assert_string_equal(str_err("a=1 b=2\nrecordsize\tWrite IOPS\n8k\t1\n"),
                        "1:1: heading 'a=1' names no known dimension key");
}

static void test_hostile(void **state)
{
    (void)state;
    /* HTML in cells is kept as text (the report escapes it) */
    struct pb_resultset *s =
        str_ok("compression\tWrite IOPS\n<script>x</script>\t100\n");
    size_t c = config_named(s, "mem.txt table 1: "
                               "compression=<script>x</script>");
    assert_string_equal(cparam(s, c, "compression")->value,
                        "<script>x</script>");
    pb_resultset_free(s);
    /* binary garbage and every prefix of a fixture: no crash */
    char g[4096];
    for (unsigned seed = 1; seed < 40; seed++) {
        th_garbage(g, sizeof(g), seed);
        struct pb_resultset *set;
        struct pb_err err;
        if (th_parse(tbl(), "g", g, sizeof(g), &set, &err) == PB_OK)
            pb_resultset_free(set);
        (void)tbl()->sniff(g, sizeof(g));
    }
    size_t len;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", FIX, "blog_markdown_recordsize.md");
    char *buf = th_slurp(path, &len);
    for (size_t n = 0; n <= len; n++) {
        struct pb_resultset *set;
        struct pb_err err;
        if (th_parse(tbl(), "cut", buf, n, &set, &err) == PB_OK)
            pb_resultset_free(set);
        else
            assert_true(err.msg[0] != '\0');
    }
    /* CRLF gives the same values */
    struct pb_resultset *crlf =
        str_ok("volblocksize\tWrite IOPS\r\n8k\t10.5k\r\n");
    assert_near(
        val(crlf, "mem.txt table 1: volblocksize=8k", "write", "write_iops"),
        10500, 0);
    pb_resultset_free(crlf);
    free(buf);
    th_parse_in_threads(tbl(), "volblocksize\tWrite IOPS\n8k\t1\n16k\t2\n",
                        strlen("volblocksize\tWrite IOPS\n8k\t1\n16k\t2\n"), 2);
}

/* Files of every other format are not claimed; table files are. */
static void test_sniff(void **state)
{
    (void)state;
    static const char *const mine[] = {
        "issue11_tsv_fsync-groups.tsv",    "issue11_tsv_compression.tsv",
        "blog_markdown_recordsize.md",     "spreadsheet_layouts.csv",
        "terminal_aligned_two-tables.txt", "decimal-commas_compression.tsv"};
    th_sniffed_as(tbl(), FIX, mine, sizeof(mine) / sizeof(mine[0]));
    static const char *const others[] = {
        "fio-text/fio-3.33_notes_cmdlines-and-iops-lines.txt",
        "zfs/zfs-fuse_zfs-list-o_ratio.txt",
        "zfs/openzfs-2.2_zfs-get-Hp_logicalused-zvol.txt",
        "bonnie-csv/bonnie-2.00a_fast-mode-fsync-concurrency2.csv",
        "iozone/iozone-3.506_auto-R_n512k-g1m.txt",
        "fio-terse/fio-3.33_terse-v3_randrw70_4k_qd8.txt"};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        size_t len;
        char *buf = th_slurp_in(PB_FIXTURES_DIR, others[i], &len);
        assert_int_equal(th_sniff(tbl(), buf, len), 0);
        free(buf);
    }
    /* a header with an unknown column is not claimed: --format table */
    const char *unk = "recordsize\tFoo\tWrite IOPS\n8k\t3\t100\n";
    assert_int_equal(th_sniff(tbl(), unk, strlen(unk)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_fsync_groups),
        cmocka_unit_test(test_issue_compression),
        cmocka_unit_test(test_decimal_commas),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_semicolon_csv),
        cmocka_unit_test(test_aligned_with_prose),
        cmocka_unit_test(test_same_shape_apart),
        cmocka_unit_test(test_heading_spans_aligned),
        cmocka_unit_test(test_more_shapes),
        cmocka_unit_test(test_rw_and_bare_measures),
        cmocka_unit_test(test_custom_metric),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
