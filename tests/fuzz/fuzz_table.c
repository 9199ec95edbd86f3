/* libFuzzer harness: the summary table (ingest/table/table*.c) parser on any bytes.
 * See tests/fuzz/fuzz.h for what is checked. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_parser(&pb_parser_table, data, size);
}
