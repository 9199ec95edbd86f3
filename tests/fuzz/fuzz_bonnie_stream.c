/* libFuzzer harness: the bonnie++ CSV parser streamed (ingest/stream_set.c,
 * docs/performance.md "Streaming ingest") on any bytes, in parts of one result,
 * against the same bytes parsed whole: the same error (line and message)
 * or the same number of results, every part a set the database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

struct count {
    size_t results, parts;
};

static void on_part(void *ctx, const struct pb_resultset *part)
{
    struct count *c = ctx;
    c->results += part->nresults;
    c->parts++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    struct count c = {0, 0};
    struct fuzz_stream fs;
    fuzz_stream_run(&fs, data, size, "bonnie-csv", on_part, &c);
    if (fs.rc1 == PB_OK)
        FUZZ_CHECK(c.results == fs.whole->nresults);
    fuzz_stream_release(&fs);
    return 0;
}
