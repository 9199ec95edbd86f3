/* libFuzzer harness: the zpool/zfs command transcript (ingest/
 * zfs_commands.c) parser on any bytes, as sniffed and parsed, and through
 * pb_ingest_buffer as a companion (--label X). See tests/fuzz/fuzz.h. */
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_parser(&pb_parser_zfs_commands, data, size);
    const char *buf = fuzz_input(data, size);
    struct pb_ingest_opts o = {0};
    o.format = "zfs-commands";
    o.label = "X";
    o.companion = 1;
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    if (pb_ingest_buffer("fuzz-input", buf, size, &o, &set, &err) == PB_OK) {
        fuzz_check_set(set);
        FUZZ_CHECK(set->nconfigs == 1);
        for (size_t i = 0; i < set->configs[0].nparams; i++)
            FUZZ_CHECK(set->configs[0].params[i].origin != NULL);
    } else {
        fuzz_check_err(&err, data, size);
    }
    pb_resultset_free(set);
    fuzz_input_free(buf, data);
    return 0;
}
