/* libFuzzer harness: configuration sheets (ingest/sheet/sheet.c, ingest
 * --configs) on any bytes: a set of configs without results whose every
 * dimension carries its "sheet: PATH:LINE" origin, or a rejection naming a
 * line of the input. The same bytes as a companion ZFS output: its
 * dimensions become "companion: PATH" ones. See tests/fuzz/fuzz.h. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = fuzz_input(data, size);
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    int rc = pb_ingest_sheet("fuzz-input", buf, size, &set, &err);
    if (rc == PB_OK) {
        FUZZ_CHECK(set != NULL && err.code == PB_OK);
        FUZZ_CHECK(set->nresults == 0 && set->nconfigs > 0);
        fuzz_check_set(set);
        for (size_t i = 0; i < set->nconfigs; i++)
            for (size_t k = 0; k < set->configs[i].nparams; k++) {
                const char *o = set->configs[i].params[k].origin;
                FUZZ_CHECK(o && !strncmp(o, "sheet: fuzz-input:", 18));
            }
    } else {
        FUZZ_CHECK(set == NULL);
        fuzz_check_err(&err, data, size);
    }
    pb_resultset_free(set);

    /* companions: what zfs-props reads, attached to a label */
    set = pb_resultset_new();
    set->path = pb_rs_str(set, "fuzz-input");
    set->format = pb_parser_zfs_props.name;
    struct pb_err e2 = {0};
    if (pb_parser_run(&pb_parser_zfs_props, "fuzz-input", buf, size, set, &e2) ==
        PB_OK) {
        pb_ingest_companion(set);
        fuzz_check_set(set);
        for (size_t i = 0; i < set->nconfigs; i++)
            for (size_t k = 0; k < set->configs[i].nparams; k++) {
                const char *o = set->configs[i].params[k].origin;
                FUZZ_CHECK(o == NULL ||
                           !strcmp(o, "companion: fuzz-input"));
            }
    }
    pb_resultset_free(set);
    fuzz_input_free(buf, data);
    return 0;
}
