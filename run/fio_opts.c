/* Which fio options a plan's [fio] section may pass to fio (run as root),
 * and which values: workload, buffer and timing options only. Options
 * that run commands or load code (exec_prerun, exec_postrun, the exec
 * and external engines, an engine named by a library path) need the
 * run's --allow-exec (run/consent.c); options that read or write files
 * outside the pool (logs, iologs, triggers, opendir, ioscheduler, the
 * 'FILE' form of buffer_pattern and verify_pattern) are refused, and so
 * are engines that are not fio's own file engines; filename and
 * directory are set by poolbench inside the pool's mount. The review of
 * the list is in docs/plan-format.md. */
#include "run/run_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The allow-list, documented in docs/plan-format.md. */
static const char *const allowed[] = {
    /* workload */
    "rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize",
    "bsrange", "blocksize_range", "bssplit", "ba", "blockalign",
    "bs_unaligned", "bs_is_seq_rand", "size", "io_size", "io_limit",
    "filesize", "nrfiles", "openfiles", "file_service_type", "fallocate",
    "offset", "offset_align", "offset_increment", "number_ios", "iodepth",
    "iodepth_batch", "iodepth_batch_submit", "iodepth_batch_complete",
    "iodepth_batch_complete_min", "iodepth_batch_complete_max",
    "iodepth_low", "numjobs", "ioengine", "loops", "zonemode", "zonesize",
    "zonerange", "zoneskip",
    /* caching and syncing */
    "direct", "buffered", "sync", "fsync", "fdatasync", "fsync_on_close",
    "end_fsync", "create_fsync", "create_on_open", "create_serialize",
    "pre_read", "invalidate", "atomic", "sync_file_range",
    /* timing and rates */
    "runtime", "timeout", "time_based", "ramp_time", "startdelay",
    "thinktime", "thinktime_spin", "thinktime_blocks", "rate", "rate_min",
    "rate_iops", "rate_iops_min", "rate_process", "rate_cycle",
    "rate_ignore_thinktime", "max_latency", "latency_target",
    "latency_window", "latency_percentile",
    /* randomness */
    "norandommap", "randrepeat", "randseed", "random_distribution",
    "random_generator", "percentage_random", "softrandommap",
    "allrandrepeat",
    /* buffer contents */
    "zero_buffers", "refill_buffers", "scramble_buffers",
    "buffer_compress_percentage", "buffer_compress_chunk",
    "buffer_pattern", "dedupe_percentage", "dedupe_mode",
    "dedupe_working_set_percentage",
    /* reporting */
    "unified_rw_reporting", "percentile_list", "clat_percentiles",
    "lat_percentiles", "slat_percentiles", "disable_lat", "disable_clat",
    "disable_slat", "disable_bw_measurement", "gtod_reduce",
    "significant_figures", "log_avg_msec", "log_hist_msec",
    "log_hist_coarseness", "log_max_value",
    /* verification and process placement */
    "verify", "verify_pattern", "verify_interval", "verify_fatal",
    "do_verify", "verify_backlog", "cpus_allowed", "cpus_allowed_policy",
    "numa_cpu_nodes", "nice", "prio", "prioclass", "thread",
    /* engine options of the engines allowed */
    "hipri", "fixedbufs", "registerfiles", "sqthread_poll",
    "userspace_reap", "nowait", NULL};

static const char *const exec_family[] = {"exec_prerun", "exec_postrun",
                                          NULL};

/* fio's own engines that do I/O on the files poolbench names: not the
 * network engines (net, netsplice, rbd, rdma, nbd, gfapi, http, nfs),
 * nor those for devices or other file systems (sg, dev-dax, libpmem,
 * pmemblk, e4defrag), nor cpuio. Any name fio does not know it loads
 * with dlopen(): `ioengine=/tmp/x.so` runs the library's constructors
 * as root, in the run and in `fio --enghelp=VALUE` (fio 3.33). */
static const char *const engines[] = {
    "sync",  "psync", "vsync",  "pvsync",    "pvsync2",  "libaio",
    "io_uring", "posixaio", "mmap", "splice", "null", "falloc",
    "filecreate", "filestat", "filedelete", "ftruncate", NULL};

static int listed(const char *k, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(list[i], k))
            return 1;
    return 0;
}

int pb_run_fio_key_class(const char *key)
{
    if (listed(key, exec_family))
        return PB_RUN_FIO_EXEC;
    return listed(key, allowed) ? PB_RUN_FIO_OK : PB_RUN_FIO_REFUSED;
}

int pb_run_fio_engine_execs(const char *value)
{
    /* exec runs programs; external:LIB and a path load a library */
    return !strcmp(value, "exec") || !strncmp(value, "external", 8) ||
           strchr(value, '/') != NULL;
}

/* buffer_pattern, verify_pattern: fio's pattern (lib/pattern.c) is a run
 * of "string", 0xHEX, decimal and %o parts; a 'quoted' part is a file
 * fio opens and copies into the data (as root: any mode-600 secret into
 * the pool, readable while the run lasts). The file form is refused. */
static int pattern_check(const char *v, struct pb_err *err)
{
    for (const char *p = v; *p;) {
        if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q) {
                return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                                  "unterminated \"string\"");
            }
            p = q + 1;
        } else if (*p == '\'') {
            return pb_err_set(
                err, PB_EUSAGE, NULL, 0, 0,
                "'...' is fio's file form (fio, as root, "
                "would copy that file into the pool's data); write "
                "the pattern as 0xHEX, a decimal number or a "
                "\"string\"");
        } else if (p[0] == '%' && p[1] == 'o') {
            p += 2;
        } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
                   isxdigit((unsigned char)p[2])) {
            for (p += 2; isxdigit((unsigned char)*p); p++)
                ;
        } else if (isdigit((unsigned char)*p) ||
                   (*p == '-' && isdigit((unsigned char)p[1]))) {
            for (p++; isdigit((unsigned char)*p); p++)
                ;
        } else {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "'%c' is not part of a fio pattern (0xHEX, "
                              "decimal numbers, \"string\" and %%o)",
                              *p);
        }
    }
    return 0;
}

int pb_run_fio_value_check(const char *key, const char *value,
                           struct pb_err *err)
{
    if (!strcmp(key, "buffer_pattern") || !strcmp(key, "verify_pattern"))
        return pattern_check(value, err);
    if (!strcmp(key, "ioengine") && !listed(value, engines) &&
        !pb_run_fio_engine_execs(value)) {
        return pb_err_set(
            err, PB_EUSAGE, NULL, 0, 0,
            "is not an engine a plan may use (fio's file "
            "engines: sync, psync, vsync, pvsync, pvsync2, libaio, "
            "io_uring, posixaio, mmap, splice, null, falloc, "
            "filecreate, filestat, filedelete, ftruncate; fio loads "
            "any other name as a library)");
    }
    return 0;
}
