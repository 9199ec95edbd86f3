/* libFuzzer harness: the fio log readers (ingest/fio/fio_log*.c) on any bytes.
 * The first byte picks the log's name (bw, iops, lat, clat, slat,
 * clat_hist: the name says the kind), the rest is the file, read by the
 * parser the sniffers choose (bw/iops/lat lines or histogram lines), and
 * fed in small pieces the way the stream reader feeds lines. See
 * tests/fuzz/fuzz.h for what is checked. */
#include "tests/fuzz/fuzz.h"
#include "ingest/fio/fio_log_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {
        "/nonexistent-pb-fuzz/j_bw.1.log",   "/nonexistent-pb-fuzz/j_iops.log",
        "/nonexistent-pb-fuzz/j_lat.2.log",  "/nonexistent-pb-fuzz/j_clat.log",
        "/nonexistent-pb-fuzz/j_slat.1.log", "/nonexistent-pb-fuzz/j_clat_hist.3.log",
        "/nonexistent-pb-fuzz/noname.log"};
    if (size < 1)
        return 0;
    const char *path = names[data[0] % 7];
    data++;
    size--;
    const char *buf = fuzz_input(data, size);
    int hs = pb_parser_fio_hist_log.sniff(buf, size < 8192 ? size : 8192);
    int ls = pb_parser_fio_log.sniff(buf, size < 8192 ? size : 8192);
    FUZZ_CHECK(hs >= 0 && hs <= 100 && ls >= 0 && ls <= 100);
    struct pb_resultset *set = pb_resultset_new();
    struct pb_err err = {0};
    set->path = pb_rs_str(set, path);
    set->format = "fio-log";
    set->size = size;
    int rc = pb_parser_run(hs > ls ? &pb_parser_fio_hist_log
                                   : &pb_parser_fio_log,
                           path, buf, size, set, &err);
    if (rc == PB_OK) {
        FUZZ_CHECK(err.code == PB_OK);
        fuzz_check_set(set);
        for (size_t i = 0; i < set->nseries; i++) {
            FUZZ_CHECK(set->series[i].result < set->nresults);
            /* one point a line (averaged, histogram logs), or buckets
             * from 0 to the last time: 2,000 at most */
            FUZZ_CHECK(set->series[i].npts <= size ||
                       set->series[i].npts <= PB_LOG_MAXB);
        }
    } else {
        fuzz_check_err(&err, data, size);
    }
    pb_resultset_free(set);
    fuzz_input_free(buf, data);
    return 0;
}
