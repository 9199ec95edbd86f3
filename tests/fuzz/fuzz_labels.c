/* libFuzzer harness: the built-in label rules (ingest/labels.c) on a config
 * whose label is the input (up to its first NUL byte: labels are C
 * strings). Checks that every dimension found has a value of its kind. */
#include "tests/fuzz/fuzz.h"

#include <ctype.h>

static const struct pb_label_rules *rules(void)
{
    static struct pb_label_rules *r;
    if (!r) {
        struct pb_err err = {0};
        FUZZ_CHECK(pb_label_rules_load(NULL, &r, &err) == PB_OK);
    }
    return r;
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static void check_param(const char *key, const char *value)
{
    FUZZ_CHECK(value[0] != '\0');
    if (!strcmp(key, "ashift")) {
        FUZZ_CHECK(all_digits(value));
        long v = strtol(value, NULL, 10);
        FUZZ_CHECK(v >= 9 && v <= 16);
    } else if (!strcmp(key, "vdevs")) {
        FUZZ_CHECK(all_digits(value));
        long v = strtol(value, NULL, 10);
        FUZZ_CHECK(v >= 1 && v <= 9999);
    } else if (!strcmp(key, "recordsize") || !strcmp(key, "volblocksize") ||
               !strcmp(key, "disk_cluster_size") ||
               !strcmp(key, "guest_block_size")) {
        /* A power of two from 512 B to 16 MiB, in bytes. */
        FUZZ_CHECK(all_digits(value));
        long v = strtol(value, NULL, 10);
        FUZZ_CHECK(v >= 512 && v <= 16L * 1024 * 1024 && (v & (v - 1)) == 0);
    } else if (!strcmp(key, "slog") || !strcmp(key, "l2arc")) {
        FUZZ_CHECK(!strcmp(value, "yes") || !strcmp(value, "no"));
    } else if (!strcmp(key, "atime")) {
        FUZZ_CHECK(!strcmp(value, "on") || !strcmp(value, "off"));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *label = pb_xstrndup((const char *)data, size);
    struct pb_resultset *set = pb_resultset_new();
    size_t c = pb_rs_config(set, label);
    /* A dimension the parser already set must survive: odd lengths start
     * with one. */
    if (size % 2)
        pb_rs_config_param(set, c, "recordsize", "4096");
    pb_label_extract(rules(), set, c);
    const struct pb_config *cfg = &set->configs[c];
    FUZZ_CHECK(!strcmp(cfg->label, label));
    for (size_t i = 0; i < cfg->nparams; i++) {
        FUZZ_CHECK(fuzz_valid_str(cfg->params[i].key));
        FUZZ_CHECK(fuzz_valid_str(cfg->params[i].value));
        if (size % 2 && !strcmp(cfg->params[i].key, "recordsize"))
            FUZZ_CHECK(!strcmp(cfg->params[i].value, "4096"));
        check_param(cfg->params[i].key, cfg->params[i].value);
    }
    pb_resultset_dump(set, fuzz_devnull());
    pb_resultset_free(set);
    free(label);
    return 0;
}
