/* libFuzzer harness: the bonnie++ CSV (ingest/bonnie/bonnie_csv.c) parser on any bytes.
 * See tests/fuzz/fuzz.h for what is checked. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_parser(&pb_parser_bonnie_csv, data, size);
}
