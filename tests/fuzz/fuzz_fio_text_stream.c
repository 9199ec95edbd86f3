/* libFuzzer harness: the fio normal-text parser streamed (ingest/fio/fio_text_pass.c,
 * docs/performance.md "Streaming ingest", fio text) on any bytes, in parts of
 * one result, against the same bytes parsed whole (the same algorithm as
 * one part, nothing flushed): the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and the same facts in the same order, every part a set
 * the database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_stream_compare(data, size, "fio-text");
}
