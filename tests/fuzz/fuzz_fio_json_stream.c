/* libFuzzer harness: the fio JSON parser streamed (ingest/fio_json.c,
 * docs/design.md "Streaming ingest") on any bytes, in parts of one
 * result, against the same bytes parsed whole: the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and facts (as a set: a label's origin fact may come
 * before the end-of-file device facts streamed and after them whole; the
 * database keys facts, the report sorts them), every part a set the
 * database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_stream_compare(data, size, "fio-json", 1);
}
