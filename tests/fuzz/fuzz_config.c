/* libFuzzer harness: the user's config file (~/.config/poolbench/config,
 * cli/config.c) is the input, parsed from the buffer. A rejection must be
 * one usable path:line message; an accepted file holds only valid values.
 * cli/ is no library: the reader is compiled into the harness. */
#define _POSIX_C_SOURCE 200809L /* as cli/config.c, before any header */
#include "tests/fuzz/fuzz.h"

#include "cli/config.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cli_config c = {0};
    struct pb_err err = {0};
    int rc = cli_config_parse("/fuzz/config", (const char *)data, size, &c,
                              &err);
    if (rc != PB_OK) {
        FUZZ_CHECK(err.code == PB_EUSAGE);
        fuzz_check_err(&err, data, size);
    } else {
        FUZZ_CHECK(c.npalette <= CLI_CONFIG_MAX_COLORS);
        for (size_t i = 0; i < c.npalette; i++)
            FUZZ_CHECK(c.palette[i] <= 0xffffff);
        FUZZ_CHECK(!c.label_from || !strcmp(c.label_from, "file") ||
                   !strcmp(c.label_from, "dir") ||
                   !strcmp(c.label_from, "title"));
        FUZZ_CHECK(!c.db || c.db[0] == '/' || c.db[0] == '~' ||
                   !strncmp(c.db, "/fuzz/", 6) || getenv("HOME"));
    }
    cli_config_release(&c);
    return 0;
}
