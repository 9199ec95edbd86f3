/* libFuzzer harness: a user label rules file (`key = PCRE2 pattern`, the
 * --rules FILE of `poolbench ingest`) is the input; it is loaded through
 * a memfd and applied to a few labels. Catches crashes in the rules
 * parser and patterns that run away on short labels. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

static const char *const labels[] = {
    "zfs mirror, ashift=12, recordsize 128k, lz4",
    "RAIDZ2_FreeNAS 1M recordsize sync=disabled no slog",
    "qcow2 64k on zvol 16k, NTFS 4k, l2arc=nvme0n1",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    if (fd < 0)
        fd = memfd_create("fuzz-rules", 0);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(ftruncate(fd, 0) == 0);
    FUZZ_CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

    struct pb_label_rules *r = NULL;
    struct pb_err err = {0};
    int rc = pb_label_rules_load(path, &r, &err);
    if (rc != PB_OK) {
        FUZZ_CHECK(r == NULL);
        FUZZ_CHECK(err.code == PB_EUSAGE);
        fuzz_check_err(&err, data, size);
        return 0;
    }
    FUZZ_CHECK(r != NULL);
    struct pb_resultset *set = pb_resultset_new();
    for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
        pb_label_extract(r, set, pb_rs_config(set, labels[i]));
    fuzz_check_set(set);
    pb_resultset_free(set);
    pb_label_rules_free(r);
    return 0;
}
