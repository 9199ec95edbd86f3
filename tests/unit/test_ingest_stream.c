/* Unit tests for the streaming entries of the parser table (ingest.h,
 * struct pb_parser: PB_PARSER_STREAMS, stream_min) and for how
 * pb_ingest_stream_open reads them: which formats stream, and from which
 * input size (docs/performance.md, "Streaming ingest"). */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <unistd.h>

#include "ingest/ingest_int.h"

#define FIX PB_FIXTURES_DIR

/* ==== the table ==== */

static void test_table(void **state)
{
    (void)state;
    size_t nstream = 0;
    for (size_t i = 0; pb_parsers[i]; i++) {
        const struct pb_parser *p = pb_parsers[i];
        /* each capability flag comes with its members, and only then */
        assert_non_null(p->parse);
        assert_int_equal(!!(p->flags & PB_PARSER_STREAMS),
                         p->stream_min != 0);
        assert_int_equal(!!(p->flags & PB_PARSER_NEEDS_LABEL),
                         p->needs_label != NULL);
        nstream += (p->flags & PB_PARSER_STREAMS) != 0;
    }
    assert_int_equal(nstream, 7);
    const struct pb_parser *b = pb_ingest_parser_by_name("bonnie-csv");
    const struct pb_parser *j = pb_ingest_parser_by_name("fio-json");
    const struct pb_parser *t = pb_ingest_parser_by_name("fio-terse");
    assert_non_null(b);
    assert_non_null(j);
    assert_non_null(t);
    assert_int_equal(b->stream_min, 131072);
    assert_int_equal(j->stream_min, 4194304);
    assert_int_equal(t->stream_min, 1048576);
    assert_true(b->flags & PB_PARSER_STREAMS);
    assert_true(j->flags & PB_PARSER_STREAMS);
    assert_true(t->flags & PB_PARSER_STREAMS);
    const struct pb_parser *x = pb_ingest_parser_by_name("fio-text");
    assert_non_null(x);
    assert_true(x->flags & PB_PARSER_STREAMS);
    assert_int_equal(x->stream_min, 1048576);
    const struct pb_parser *tb = pb_ingest_parser_by_name("table");
    assert_non_null(tb);
    assert_true(tb->flags & PB_PARSER_STREAMS);
    assert_int_equal(tb->stream_min, 1048576);
    const struct pb_parser *px = pb_ingest_parser_by_name("pts-xml");
    assert_non_null(px);
    assert_true(px->flags & PB_PARSER_STREAMS);
    assert_int_equal(px->stream_min, 1048576);
    const struct pb_parser *z = pb_ingest_parser_by_name("zfs-props");
    assert_non_null(z);
    assert_true(z->flags & PB_PARSER_STREAMS);
    assert_int_equal(z->stream_min, 1048576);
    /* the sheet is in the table, but holds no results: never named by
     * --format, never sniffed, parsed only through pb_ingest_sheet */
    size_t nsheet = 0;
    for (size_t i = 0; pb_parsers[i]; i++)
        if (pb_parsers[i]->flags & PB_PARSER_NO_RESULTS) {
            assert_string_equal(pb_parsers[i]->name, "sheet");
            nsheet++;
        }
    assert_int_equal(nsheet, 1);
    assert_null(pb_ingest_parser_by_name("sheet"));
    const char *sheet = "label,recordsize\nmirror,128k\n";
    const struct pb_parser *sn = pb_ingest_find_parser(sheet, strlen(sheet));
    assert_true(sn == NULL || strcmp(sn->name, "sheet"));
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    assert_int_equal(pb_ingest_sheet("s.csv", sheet, strlen(sheet), &set,
                                     &err),
                     PB_OK);
    assert_string_equal(set->format, "sheet");
    assert_int_equal(set->nconfigs, 1);
    pb_resultset_free(set);
}

/* ==== which files stream ==== */

/* Write `copies` copies of fixture name plus `pad` newlines to a temp
 * file; returns its path (static buffer) and its size in *size. */
static const char *make(const char *name, size_t copies, size_t pad,
                        size_t *size)
{
    static char path[64];
    size_t len;
    char *buf = th_slurp_in(FIX, name, &len);
    snprintf(path, sizeof(path), "/tmp/pb-test-stream-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    for (size_t i = 0; i < copies; i++)
        assert_int_equal(fwrite(buf, 1, len, fp), len);
    for (size_t i = 0; i < pad; i++)
        fputc('\n', fp);
    assert_int_equal(fclose(fp), 0);
    free(buf);
    *size = copies * len + pad;
    return path;
}

/* pb_ingest_stream_open on path: PB_OK (a streamed set of format fmt) or
 * PB_EDUP (read whole). */
static int open_as(const char *path, const char *fmt)
{
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    o.stream = 1;
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    int rc = pb_ingest_stream_open(path, &o, &set, &err);
    if (rc == PB_OK) {
        assert_true(pb_ingest_streaming(set));
        assert_string_equal(set->format, fmt);
    } else {
        assert_null(set);
    }
    pb_resultset_free(set);
    return rc;
}

/* copies of fixture name are streamed as fmt from `copies` on (size
 * at), read whole one copy fewer (size below; 1 MiB = 1,048,576). */
static void edge(const char *name, const char *fmt, size_t copies,
                 size_t at, size_t below)
{
    size_t n;
    const char *f = make(name, copies, 0, &n);
    assert_int_equal(n, at);
    assert_int_equal(open_as(f, fmt), PB_OK);
    unlink(f);
    f = make(name, copies - 1, 0, &n);
    assert_int_equal(n, below);
    assert_int_equal(open_as(f, fmt), PB_EDUP);
    unlink(f);
}

static void test_sizes(void **state)
{
    (void)state;
    unsetenv("POOLBENCH_STREAM_MIN");
    size_t n;
    /* bonnie++ 2.00a rows, 1,321 bytes a copy: streamed from 128 KiB */
    const char *f = make("bonnie-csv/bonnie-2.00a_x3-repeats.csv", 100, 0, &n);
    assert_int_equal(n, 132100);
    assert_int_equal(open_as(f, "bonnie-csv"), PB_OK);
    unlink(f);
    f = make("bonnie-csv/bonnie-2.00a_x3-repeats.csv", 99, 0, &n);
    assert_int_equal(n, 130779); /* 128 KiB = 131,072 */
    assert_int_equal(open_as(f, "bonnie-csv"), PB_EDUP);
    unlink(f);

    /* a fio JSON of 1 MiB: whole (from 4 MiB only) */
    f = make("fio-json/fio-3.33_three-jobs.json", 1, 1 << 20, &n);
    assert_int_equal(open_as(f, "fio-json"), PB_EDUP);
    setenv("POOLBENCH_STREAM_MIN", "0", 1);
    assert_int_equal(open_as(f, "fio-json"), PB_OK);
    unlink(f);

    /* fio terse (1,060 bytes a record): streamed from 1 MiB */
    unsetenv("POOLBENCH_STREAM_MIN");
    edge("fio-terse/fio-3.33_terse-v3_randrw70_4k_qd8.txt", "fio-terse",
         990, 1049400, 1048340);

    /* fio normal text (2,239 bytes a copy): streamed from 1 MiB */
    edge("fio-text/fio-3.33_randrw70_4k_qd8_libaio.txt", "fio-text",
         469, 1050091, 1047852);

    /* a table (87 bytes a copy): streamed from 1 MiB */
    edge("table/issue11_tsv_compression.tsv", "table",
         12053, 1048611, 1048524);

    /* PTS result XML (4,887 bytes a copy): streamed from 1 MiB */
    edge("pts-xml/fio-2systems.xml", "pts-xml",
         215, 1050705, 1045818);

    /* zfs get all (3,141 bytes a copy): streamed from 1 MiB */
    edge("zfs/zfs-fuse_zfs-get-all_gzip.txt", "zfs-props",
         334, 1049094, 1045953);

    /* terse,normal output is fio-text's, streamed as that */
    f = make("fio-terse/fio-3.33_terse-normal_two-groups.txt", 600, 0, &n);
    assert_true(n > 1048576);
    assert_int_equal(open_as(f, "fio-text"), PB_OK);
    unlink(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
