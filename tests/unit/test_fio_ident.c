/* Unit tests of what a fio test and a repeat are (issue 42: ingest/
 * fio_ident.c, fio_repeats.c) on pasted fio output read by the text
 * parser: every workload option is part of the test, and repeats, numjobs
 * clones and blocks that cannot be told apart. Whole files of every fio
 * format: tests/e2e/test_fio_identity.sh. */
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <string.h>

#define TEXTP (&pb_parser_fio_text)

/* Parse text held in memory; the caller frees. */
static struct pb_resultset *parse_mem(const char *text)
{
    struct pb_resultset *s = NULL;
    struct pb_err err = {0};
    assert_int_equal(th_parse(TEXTP, "mem", text, strlen(text), &s, &err),
                     PB_OK);
    return s;
}

/* Every option of a pasted command is part of the test but those that do
 * not change the workload (names, targets, output, logs, reporting). */
static void test_options_are_the_test(void **state)
{
    (void)state;
    static const char note[] =
        "$ fio --name=a --filename=/tmp/x --rw=randread --bs=4k "
        "--random_distribution=zipf:1.2 --rate_iops=500 --thinktime=100 "
        "--fdatasync=1 --end_fsync=1 --zero_buffers --dedupe_percentage=30 "
        "--verify=md5 --buffer_compress_percentage=50 --output-format=normal "
        "--write_bw_log=a --group_reporting --percentile_list=99 "
        "--description=x | grep IOPS\n"
        "  read: IOPS=100, BW=400KiB/s (410kB/s)(800KiB/2000msec)\n"
        "$ fio --name=a --filename=/tmp/x --rw=randread --bs=4k "
        "--random_distribution=random --rate_iops=500 --thinktime=100 "
        "--fdatasync=1 --end_fsync=1 --zero_buffers --dedupe_percentage=30 "
        "--verify=md5 --buffer_compress_percentage=50 | grep IOPS\n"
        "  read: IOPS=200, BW=800KiB/s (819kB/s)(1600KiB/2000msec)\n";
    struct pb_resultset *s = parse_mem(note);
    /* two workloads (zipf against uniform), not two repeats of one: the
     * option that differs between them is in their names */
    assert_int_equal(s->ntests, 2);
    const struct pb_test *t = &s->tests[0];
    assert_string_equal(t->name, "fio randread bs=4k iodepth=1 "
                                 "random_distribution=zipf:1.2");
    assert_string_equal(s->tests[1].name, "fio randread bs=4k iodepth=1 "
                                          "random_distribution=random");
    static const char *const in[][2] = {
        {"random_distribution", "zipf:1.2"}, {"rate_iops", "500"},
        {"thinktime", "100"}, {"fdatasync", "1"}, {"end_fsync", "1"},
        {"zero_buffers", "1"}, {"dedupe_percentage", "30"},
        {"verify", "md5"}, {"buffer_compress_percentage", "50"}};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
        assert_string_equal(th_param(t, in[i][0]), in[i][1]);
    static const char *const out[] = {"name",        "filename",
                                      "output-format", "write_bw_log",
                                      "group_reporting", "percentile_list",
                                      "description"};
    for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
        assert_null(th_param(t, out[i]));
    /* each a result of its own, n = 1 */
    for (size_t r = 0; r < s->nresults; r++)
        assert_int_equal(s->results[r].nsample, 0);
    pb_resultset_free(s);
}

/* One command, the result lines of several runs pasted after it: fio
 * prints one line per run with group_reporting (repeats), numjobs lines
 * per run without (clones; two runs of two clones: repeats of clones),
 * and without the command the blocks are stored as they are, flagged. */
static void test_repeats_clones_groups(void **state)
{
    (void)state;
    static const char gr[] =
        "$ fio --name=j --rw=write --bs=4k --numjobs=4 --group_reporting\n"
        "  write: IOPS=1000, BW=3906KiB/s (4000kB/s)(7812KiB/2000msec)\n"
        "  write: IOPS=1200, BW=4688KiB/s (4800kB/s)(9375KiB/2000msec)\n";
    struct pb_resultset *s = parse_mem(gr);
    const struct pb_result *r = th_find(s, "j", "write_iops");
    assert_near(r->value, 1100, 0);
    assert_int_equal(r->samples, 2);
    assert_null(th_find(s, "j#0", "write_iops"));
    assert_string_equal(th_test_of(s, "j")->name,
                        "fio write bs=4k iodepth=1 numjobs=4");
    pb_resultset_free(s);

    static const char clones[] =
        "$ fio --name=j --rw=write --bs=4k --numjobs=2\n"
        "  write: IOPS=100, BW=400KiB/s (410kB/s)(800KiB/2000msec)\n"
        "  write: IOPS=110, BW=440KiB/s (451kB/s)(880KiB/2000msec)\n"
        "  write: IOPS=120, BW=480KiB/s (492kB/s)(960KiB/2000msec)\n"
        "  write: IOPS=130, BW=520KiB/s (532kB/s)(1040KiB/2000msec)\n";
    s = parse_mem(clones);
    /* run 1: clones 100 + 110 = 210; run 2: 120 + 130 = 250 */
    r = th_find(s, "j", "write_iops");
    assert_near(r->value, 230, 0);
    assert_int_equal(r->samples, 2);
    r = th_find(s, "j#1", "write_iops");
    assert_near(r->value, 120, 0); /* 110 and 130 */
    assert_int_equal(r->samples, 2);
    pb_resultset_free(s);

    static const char bare[] =
        "j: (g=0): rw=write, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) "
        "4096B-4096B, ioengine=psync, iodepth=1\n"
        "  write: IOPS=100, BW=400KiB/s (410kB/s)(800KiB/2000msec)\n"
        "  write: IOPS=110, BW=440KiB/s (451kB/s)(880KiB/2000msec)\n";
    s = parse_mem(bare);
    assert_non_null(th_find(s, "j block 1", "write_iops"));
    assert_near(th_val(s, "j block 2", "write_iops"), 110, 0);
    assert_null(th_find(s, "j", "write_iops")); /* neither sum nor mean */
    assert_non_null(strstr(th_fact(s, NULL, "flag.ambiguous_jobs"),
                           "2 result blocks of job 'j' without its command"));
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_are_the_test),
        cmocka_unit_test(test_repeats_clones_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
