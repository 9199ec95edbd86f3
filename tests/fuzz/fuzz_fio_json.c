/* libFuzzer harness: the fio JSON (ingest/fio/fio_json.c) parser on any bytes.
 * See tests/fuzz/fuzz.h for what is checked. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_parser(&pb_parser_fio_json, data, size);
}
