/* run/zfs_telemetry.c: the ZFS telemetry readers. Not result formats (no
 * sniffing, no result set): tables that run/ reads while a benchmark goes
 * and turns into metrics and facts (run/telemetry.c). Private to run/
 * (and its tests); includes common/ and resultset/ (struct pb_kv). The pb_ingest_ names are
 * historical: these readers lived in ingest/ until issue 37.
 */
#ifndef PB_RUN_ZFS_TELEMETRY_H
#define PB_RUN_ZFS_TELEMETRY_H

#include "common/pb.h"
#include "resultset/resultset.h"

/* One row of a `zpool iostat -v` sample: the pool (depth 0, section NULL),
 * a vdev or a section header ("logs", "cache", ... at depth 0 with
 * section set) and the vdevs under it (depth 1, 2). Numbers are bytes,
 * ops/s and B/s; NAN where zpool printed "-". */
struct pb_iostat_row {
    const char *name;
    const char *section; /* NULL (data vdevs), "logs", "cache", "spares",
                            "special", "dedup" */
    int depth;
    double alloc, free, rops, wops, rbw, wbw;
};

struct pb_iostat {
    struct pb_iostat_row *rows; /* every sample's rows, in order */
    size_t nrows, caprows;
    size_t *first; /* index of each sample's first row */
    size_t nsamples, capfirst;
    struct pb_arena arena; /* owns the names */
};

void pb_iostat_init(struct pb_iostat *io);
/* Read the text `zpool iostat -v POOL INTERVAL` printed (zfs-fuse and
 * OpenZFS shapes; time stamps of -T between samples are skipped; a
 * sample cut short at the end is dropped). PB_OK, or PB_EINPUT with err
 * naming path:line. Release *out with pb_iostat_release in both cases. */
int pb_ingest_zpool_iostat(const char *path, const char *buf, size_t len,
                           struct pb_iostat *out, struct pb_err *err) PB_WUR;
void pb_iostat_release(struct pb_iostat *io);
/* Rows of sample s: returns their count, the first in *first. */
size_t pb_iostat_sample_rows(const struct pb_iostat *io, size_t s,
                             size_t *first);

/* A kstat file such as /proc/spl/kstat/zfs/arcstats: the optional
 * numeric header line, "name type data", then one counter a line. */
struct pb_kstat {
    struct pb_kstat_value {
        const char *name;
        double value;
    } *v;
    size_t n, cap;
    struct pb_arena arena;
};
/* PB_OK, or PB_EINPUT with err naming path:line. Release *out with
 * pb_kstat_release in both cases. */
int pb_ingest_kstat(const char *path, const char *buf, size_t len,
                    struct pb_kstat *out, struct pb_err *err) PB_WUR;
void pb_kstat_release(struct pb_kstat *k);
/* 1 with the value in *out when the counter is there, else 0. */
int pb_kstat_get(const struct pb_kstat *k, const char *name, double *out);

/* Module parameters, one file per parameter (/sys/module/zfs/parameters):
 * key = file name, value = its first bytes on one line; sorted by key. */
struct pb_params {
    struct pb_kv *v;
    size_t n, cap;
    struct pb_arena arena;
};
/* PB_OK, or PB_EIO when dir cannot be opened (err names it). Unreadable
 * entries are left out. Release *out with pb_params_release. */
int pb_ingest_params_dir(const char *dir, struct pb_params *out,
                         struct pb_err *err) PB_WUR;
void pb_params_release(struct pb_params *p);
/* The value of key, or NULL. */
const char *pb_params_get(const struct pb_params *p, const char *key);

#endif
