/* libFuzzer harness: the ZFS command output (ingest/zfs/zfs_props.c) parser on any bytes,
 * as sniffed and with `ingest --columns` (pb_zfs_parse_columns).
 * See tests/fuzz/fuzz.h for what is checked. */
#include "tests/fuzz/fuzz.h"
#include "ingest/ingest_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_parser(&pb_parser_zfs_props, data, size);
    /* -H output without a header, named by --columns: a dataset list and
     * a pool list */
    static const char *const cols[] = {"name,used,avail,refer,lused,ratio",
                                       "NAME,SIZE,ALLOC,FREE,CAP,HEALTH"};
    const char *buf = fuzz_input(data, size);
    for (size_t k = 0; k < 2; k++) {
        struct pb_resultset *set = pb_resultset_new();
        struct pb_err err = {0};
        set->path = pb_rs_str(set, "fuzz-input");
        set->format = "zfs-props";
        set->size = size;
        int rc = pb_zfs_parse_columns("fuzz-input", buf, size, cols[k], set,
                                      &err);
        if (rc == PB_OK) {
            FUZZ_CHECK(err.code == PB_OK);
            fuzz_check_set(set);
        } else {
            fuzz_check_err(&err, data, size);
        }
        pb_resultset_free(set);
    }
    fuzz_input_free(buf, data);
    return 0;
}
