/* libFuzzer harness: PTS result descriptions into test parameters
 * (ingest/pts/pts_desc.c). The input's first line is the result identifier
 * ("pts/fio-2.1.0"), the rest (up to a NUL byte) the description. Checks
 * that keys are non-empty lower_snake_case words (pairs of any profile may
 * keep their own key, so values are not checked by key) and values are
 * non-empty strings. */
#include "tests/fuzz/fuzz.h"

#include <ctype.h>

static void check_param(void *ctx, const char *key, const char *value)
{
    size_t *n = ctx;
    (*n)++;
    FUZZ_CHECK(fuzz_valid_str(key) && fuzz_valid_str(value));
    FUZZ_CHECK(key[0] != '\0' && value[0] != '\0');
    for (const char *p = key; *p; p++)
        FUZZ_CHECK(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
                   *p == '_');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = pb_xstrndup((const char *)data, size);
    char *nl = strchr(in, '\n');
    const char *ident = "", *desc = in;
    if (nl) {
        *nl = '\0';
        ident = in;
        desc = nl + 1;
    }
    size_t n = 0;
    pb_pts_desc_params(ident, ident, desc, check_param, &n);
    free(in);
    return 0;
}
