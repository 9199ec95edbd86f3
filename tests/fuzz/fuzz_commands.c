/* libFuzzer harness: pasted shell commands and titles (ingest/notes/commands.c)
 * on any bytes, then the whole ingest path as fio text (ingest/context.c:
 * titles, generic labels, configs split by the commands in force). Checks
 * that every dimension has a value of its kind and an origin naming its
 * line, that epochs come in line order, and that the set stays storable. */
#include "tests/fuzz/fuzz.h"

#include <ctype.h>

static int one_of(const char *v, const char *const *set)
{
    for (size_t i = 0; set[i]; i++)
        if (!strcmp(v, set[i]))
            return 1;
    return 0;
}

/* A layout: vdev types, each once, sorted, joined by '+'. */
static int is_layout(const char *v)
{
    static const char *const types[] = {
        "stripe", "mirror", "raidz1", "raidz2", "raidz3", "draid1",
        "draid2", "draid3", NULL};
    char buf[256], prev[16] = "";
    if (!*v || strlen(v) >= sizeof(buf))
        return 0;
    strcpy(buf, v);
    for (char *t = strtok(buf, "+"); t; t = strtok(NULL, "+")) {
        if (!one_of(t, types) || strcmp(prev, t) >= 0)
            return 0;
        snprintf(prev, sizeof(prev), "%s", t);
    }
    return 1;
}

static int is_count(const char *v, const char *also)
{
    if (!isdigit((unsigned char)v[0]))
        return 0;
    for (const char *p = v; *p; p++)
        if (!isdigit((unsigned char)*p) && !strchr(also, *p))
            return 0;
    return 1;
}

static void check_dim(const struct pb_cmd_dim *d)
{
    static const char *const yn[] = {"yes", "no", NULL};
    static const char *const onoff[] = {"on", "off", NULL};
    static const char *const counts[] = {
        "vdevs",         "disks",         "slog_vdevs",
        "l2arc_devices", "special_vdevs", "dedup_class_vdevs",
        "spares",        NULL};
    FUZZ_CHECK(fuzz_valid_str(d->key) && fuzz_valid_str(d->value));
    FUZZ_CHECK(fuzz_valid_str(d->origin));
    FUZZ_CHECK(!strncmp(d->origin, "command: line ", 14));
    FUZZ_CHECK(strlen(d->origin) < 256);
    if (!strcmp(d->key, "ashift")) {
        long a = strtol(d->value, NULL, 10);
        FUZZ_CHECK(a >= 9 && a <= 16);
    } else if (!strcmp(d->key, "l2arc")) {
        FUZZ_CHECK(one_of(d->value, yn));
    } else if (!strcmp(d->key, "slog") || !strcmp(d->key, "special") ||
               !strcmp(d->key, "dedup_class")) {
        FUZZ_CHECK(!strcmp(d->value, "no") || is_layout(d->value));
    } else if (!strcmp(d->key, "write_cache")) {
        FUZZ_CHECK(one_of(d->value, onoff));
    } else if (!strcmp(d->key, "layout")) {
        FUZZ_CHECK(is_layout(d->value));
    } else if (one_of(d->key, counts)) {
        FUZZ_CHECK(is_count(d->value, ""));
    } else if (!strcmp(d->key, "disks_per_vdev")) {
        FUZZ_CHECK(is_count(d->value, ","));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = fuzz_input(data, size);
    struct pb_cmd_notes nt;
    pb_cmd_scan(buf, size, &nt);
    FUZZ_CHECK(nt.nepochs >= 1 && nt.epochs[0].line == 0);
    for (size_t e = 0; e < nt.nepochs; e++) {
        if (e)
            FUZZ_CHECK(nt.epochs[e].line > nt.epochs[e - 1].line);
        for (size_t k = 0; k < nt.epochs[e].ndims; k++) {
            check_dim(&nt.epochs[e].dims[k]);
            if (k)
                FUZZ_CHECK(strcmp(nt.epochs[e].dims[k - 1].key,
                                  nt.epochs[e].dims[k].key) < 0);
        }
    }
    if (nt.title) {
        FUZZ_CHECK(fuzz_valid_str(nt.title));
        FUZZ_CHECK(strlen(nt.title) <= 200 && nt.title_line >= 1);
        for (const char *p = nt.title; *p; p++)
            FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
    }
    pb_cmd_notes_release(&nt);

    struct pb_ingest_opts o = {0};
    o.format = "fio-text";
    o.threads = 1;
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    if (pb_ingest_buffer("note.txt", buf, size, &o, &set, &err) == PB_OK) {
        fuzz_check_set(set);
        pb_resultset_dump(set, fuzz_devnull());
        pb_resultset_free(set);
    }
    fuzz_input_free(buf, data);
    return 0;
}
