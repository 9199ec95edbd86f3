/* libFuzzer harness: the ZFS telemetry readers (run/zfs_telemetry.c:
 * zpool iostat -v text and kstat files such as arcstats) on any bytes.
 * Besides crashes and leaks: a rejection must carry a message and a line,
 * and every row read must have a name and depth within reason. */
#include "tests/fuzz/fuzz.h"
#include "run/zfs_telemetry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    FUZZ_CHECK(buf != NULL);
    if (size)
        memcpy(buf, data, size);
    struct pb_err err = {0};
    struct pb_iostat io;
    if (pb_ingest_zpool_iostat("fuzz", buf, size, &io, &err) == PB_OK) {
        FUZZ_CHECK(io.nsamples > 0);
        for (size_t i = 0; i < io.nrows; i++) {
            FUZZ_CHECK(io.rows[i].name && *io.rows[i].name);
            FUZZ_CHECK(io.rows[i].depth >= 0 && (size_t)io.rows[i].depth <= size);
        }
    } else {
        FUZZ_CHECK(err.msg[0] && err.line > 0);
    }
    pb_iostat_release(&io);
    memset(&err, 0, sizeof(err));
    struct pb_kstat k;
    if (pb_ingest_kstat("fuzz", buf, size, &k, &err) == PB_OK) {
        for (size_t i = 0; i < k.n; i++)
            FUZZ_CHECK(k.v[i].name && *k.v[i].name);
    } else {
        FUZZ_CHECK(err.msg[0] && err.line > 0);
    }
    pb_kstat_release(&k);
    free(buf);
    return 0;
}
