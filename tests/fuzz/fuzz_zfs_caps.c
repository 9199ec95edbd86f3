/* libFuzzer harness: the run preflight's readers of what a ZFS and fio say
 * they can do (run/caps.c): the property table of `zfs get`/`zpool get`
 * usage texts, `zpool upgrade -v` and `fio --cmdhelp=KEY`, on any bytes;
 * every row found is matched against a few values. Catches crashes and
 * runaway matching in the VALUES column parser. */
#include "tests/fuzz/fuzz.h"

#include "run/preflight_int.h"

static const char *const probes[] = {"on", "lz4", "gzip-9", "zstd-fast-500",
                                     "128k", "0", "sha256,verify", "",
                                     "512", "16M", "-1", "gzip-"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = pb_xmalloc(size + 1);
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    struct pb_run_prop *t;
    size_t n = pb_run_props_parse(text, &t);
    FUZZ_CHECK((n == 0) == (t == NULL));
    char buf[300];
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(fuzz_valid_str(t[i].name) && fuzz_valid_str(t[i].values));
        for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
            int fits = pb_run_value_fits(t[i].values, probes[k]);
            FUZZ_CHECK(fits == 0 || fits == 1);
            const char *why = pb_run_prop_check(t, n, t[i].name, probes[k],
                                                buf, sizeof(buf));
            FUZZ_CHECK(!why || fuzz_valid_str(why));
        }
    }
    pb_run_props_free(t, n);
    (void)pb_run_pool_version_parse(text);
    char **vals;
    int known = pb_run_fio_help_parse(text, &vals);
    FUZZ_CHECK(known == 0 || known == 1);
    for (size_t i = 0; vals && vals[i]; i++)
        FUZZ_CHECK(fuzz_valid_str(vals[i]) && *vals[i]);
    pb_run_strv_free(vals);
    free(text);
    return 0;
}
