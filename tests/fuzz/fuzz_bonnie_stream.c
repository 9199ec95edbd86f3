/* libFuzzer harness: the bonnie++ CSV parser streamed (ingest/stream_set.c,
 * docs/design.md "Streaming ingest") on any bytes, in parts of one result,
 * against the same bytes parsed whole: the same error (line and message)
 * or the same number of results, every part a set the database can store.
 * See tests/fuzz/fuzz.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

struct count {
    size_t results, parts;
};

static int on_part(void *ctx, const struct pb_resultset *part,
                   struct pb_err *err)
{
    (void)err;
    struct count *c = ctx;
    fuzz_check_set(part);
    c->results += part->nresults;
    c->parts++;
    return PB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    setenv("POOLBENCH_STREAM_MIN", "0", 1);
    setenv("POOLBENCH_STREAM_PART", "1", 1);
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    o.format = "bonnie-csv";
    o.stream = 1;
    struct pb_resultset *whole = NULL;
    struct pb_err e1 = {0};
    int rc1 = pb_ingest_buffer("fuzz.csv", (const char *)data, size, &o,
                               &whole, &e1);
    int fd = memfd_create("fuzz.csv", MFD_CLOEXEC);
    if (fd < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    struct pb_resultset *set = NULL;
    struct pb_err e2 = {0};
    int rc2 = pb_ingest_stream_open(path, &o, &set, &e2);
    FUZZ_CHECK(rc2 != PB_EDUP); /* a forced bonnie-csv file of >= 0 bytes */
    struct count c = {0, 0};
    if (rc2 == PB_OK) {
        FUZZ_CHECK(pb_ingest_streaming(set));
        rc2 = pb_ingest_stream_run(set, on_part, &c, &e2);
        if (rc2 == PB_OK) {
            fuzz_check_set(set);
            c.results += set->nresults;
        }
    }
    FUZZ_CHECK((rc1 == PB_OK) == (rc2 == PB_OK));
    if (rc1 == PB_OK) {
        FUZZ_CHECK(c.results == whole->nresults);
    } else {
        FUZZ_CHECK(e1.line == e2.line);
        FUZZ_CHECK(strcmp(e1.msg, e2.msg) == 0);
    }
    pb_resultset_free(whole);
    pb_resultset_free(set);
    close(fd);
    return 0;
}
