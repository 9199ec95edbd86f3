/* libFuzzer harness: the fio JSON parser streamed (ingest/fio/
 * fio_json_pass.c, the document in parts of its entries; docs/
 * performance.md "Streaming ingest") on any bytes, in parts of one
 * result, against the same bytes parsed whole (one part): the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and the same facts in the same order (a label's
 * origin fact, added by the ingest options, comes after the end-of-file
 * device facts both ways: stream_set.c holds it for the last part), every
 * part a set the database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_stream_compare(data, size, "fio-json");
}
