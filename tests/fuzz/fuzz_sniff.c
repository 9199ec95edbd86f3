/* libFuzzer harness: the whole ingest path of one buffer, as `poolbench
 * ingest` runs it (pb_ingest_buffer: sniffing among all parsers, parsing,
 * then label rules and --set applied to the set). */
#include "tests/fuzz/fuzz.h"

static const struct pb_label_rules *rules(void)
{
    static struct pb_label_rules *r;
    if (!r) {
        struct pb_err err = {0};
        FUZZ_CHECK(pb_label_rules_load(NULL, &r, &err) == PB_OK);
    }
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pb_kv set_kv[] = {{"recordsize", "128k", NULL}, {"compression", "LZ4", NULL}};
    struct pb_ingest_opts opts = {0};
    opts.rules = rules();
    opts.set = set_kv;
    opts.nset = 2;
    opts.threads = 1;

    const char *buf = fuzz_input(data, size);
    const struct pb_parser *p = pb_ingest_find_parser(buf, size);
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    int rc = pb_ingest_buffer("fuzz-input", buf, size, &opts, &set, &err);
    if (rc == PB_OK) {
        FUZZ_CHECK(set != NULL && p != NULL);
        FUZZ_CHECK(!strcmp(set->format, p->name));
        FUZZ_CHECK(set->nresults > 0);
        fuzz_check_set(set);
        for (size_t i = 0; i < set->nconfigs; i++) {
            int seen = 0;
            for (size_t j = 0; j < set->configs[i].nparams; j++)
                if (!strcmp(set->configs[i].params[j].key, "recordsize"))
                    seen = !strcmp(set->configs[i].params[j].value, "131072");
            FUZZ_CHECK(seen);
        }
    } else {
        FUZZ_CHECK(set == NULL);
        FUZZ_CHECK(rc == PB_EINPUT || rc == PB_EFORMAT);
        fuzz_check_err(&err, data, size);
    }
    pb_resultset_free(set);
    fuzz_input_free(buf, data);
    return 0;
}
