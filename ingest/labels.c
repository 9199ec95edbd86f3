/* Config dimensions from labels: placeholder until the rules land. */
#include "ingest/ingest_int.h"

#include <stdlib.h>

struct pb_label_rules {
    int unused;
};

int pb_label_rules_load(const char *path, struct pb_label_rules **out,
                        struct pb_err *err)
{
    (void)path;
    (void)err;
    *out = pb_xcalloc(1, sizeof(**out));
    return PB_OK;
}

void pb_label_rules_free(struct pb_label_rules *rules)
{
    free(rules);
}

void pb_label_extract(const struct pb_label_rules *rules,
                      struct pb_resultset *set, size_t config)
{
    (void)rules;
    (void)set;
    (void)config;
}
