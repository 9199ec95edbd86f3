/* libFuzzer harness: the fio terse parser streamed (ingest/fio_terse_stream.c,
 * docs/design.md "Streaming ingest", fio terse) on any bytes, in parts of
 * one result, against the same bytes parsed whole: the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and the same facts in the same order, every part a set
 * the database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

/* One line per result of a set appended to b[0], per fact to b[1]:
 * parts store them in separate tables, so the order that counts is that
 * within each. */
static void describe(struct pb_buf *b, const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        pb_buf_printf(&b[0], "r %s|%s|%s|%s|%s|%s|%d|",
                      set->configs[r->config].label, set->tests[r->test].name,
                      r->host ? r->host : "-", r->job ? r->job : "-", r->metric,
                      r->unit, r->has_value);
        if (r->has_value)
            pb_buf_printf(&b[0], "%.17g", r->value);
        else
            pb_buf_printf(&b[0], "%s", r->null_reason ? r->null_reason : "-");
        pb_buf_printf(&b[0], "\n");
    }
    for (size_t i = 0; i < set->nfacts; i++)
        pb_buf_printf(&b[1], "f %s|%s|%s\n",
                      set->facts[i].host ? set->facts[i].host : "-",
                      set->facts[i].key, set->facts[i].value);
}

static void on_part(void *ctx, const struct pb_resultset *part)
{
    describe(ctx, part);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    struct pb_buf a[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct pb_buf b[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct fuzz_stream fs;
    fuzz_stream_run(&fs, data, size, "fio-terse", on_part, b);
    if (fs.rc1 == PB_OK) {
        describe(a, fs.whole);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[0]), pb_buf_str(&b[0])) == 0);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[1]), pb_buf_str(&b[1])) == 0);
    } else {
        FUZZ_CHECK(fs.e1.col == fs.e2.col);
    }
    for (int i = 0; i < 2; i++) {
        pb_buf_release(&a[i]);
        pb_buf_release(&b[i]);
    }
    fuzz_stream_release(&fs);
    return 0;
}
