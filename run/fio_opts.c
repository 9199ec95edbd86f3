/* Which fio options a plan's [fio] section may pass to fio (run as root):
 * workload, buffer and timing options only. Options that run commands
 * (exec_prerun, exec_postrun, the exec and external engines) need
 * `[plan] allow_exec = yes`; options that read or write files outside
 * the pool (logs, iologs, triggers, opendir, ioscheduler) are refused;
 * filename and directory are set by poolbench inside the pool's mount. */
#include "run/run_int.h"

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
    return !strcmp(value, "exec") || !strncmp(value, "external", 8);
}
