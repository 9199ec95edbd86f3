/* libFuzzer harness: Phoronix Test Suite result XML (ingest/pts/pts_xml.c,
 * pts_map.c) streamed through libxml2's push parser (docs/performance.md
 * "Streaming ingest", PTS) on any bytes, in parts of one result, against
 * the same bytes parsed whole: the same error (line, column and message),
 * or the same results in order (config, test, metric, unit, value) and
 * the same facts in order. See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_stream_compare(data, size, "pts-xml");
}
