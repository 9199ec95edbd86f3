/* The kind of a metric (throughput, latency, cpu, other), which compare
 * never mixes in one number, and which metrics it compares by default
 * (docs/statistics.md, "Kinds of metric"). */
#include "analysis/compare.h"

#include <string.h>
#include <strings.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), m = strlen(suffix);
    return l >= m && !strcmp(s + l - m, suffix);
}

static int in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

/* Does the '_'-separated name hold one of the words? */
static int has_word(const char *name, const char *const *words)
{
    for (const char *p = name; *p;) {
        size_t l = strcspn(p, "_");
        for (const char *const *w = words; *w; w++)
            if (strlen(*w) == l && !strncmp(p, *w, l))
                return 1;
        p += l;
        if (*p)
            p++;
    }
    return 0;
}

const char *pb_metric_kind_name(enum pb_metric_kind k)
{
    static const char *const names[PB_NKINDS] = {"throughput", "latency",
                                                 "cpu", "other"};
    return (unsigned)k < PB_NKINDS ? names[k] : "other";
}

enum pb_metric_kind rp_metric_kind(const char *name, const char *unit)
{
    static const char *const lat[] = {"lat", "clat", "slat", "latency", NULL};
    static const char *const rate[] = {"bw", "iops", "ops", NULL};
    /* units of results kept as given (PTS scales, table columns) */
    static const char *const times[] = {"ns",           "us",
                                        "µs",           "ms",
                                        "Nanoseconds",  "Microseconds",
                                        "Milliseconds", NULL};
    static const char *const rates[] = {"IOPS", "TPS", NULL};
    if (!unit)
        unit = "";
    /* amounts and durations of the run itself are not latencies */
    if (ends_with(name, "_bytes") || ends_with(name, "_runtime") ||
        ends_with(name, "_duration"))
        return PB_KIND_OTHER;
    if (ends_with(name, "_cpu"))
        return PB_KIND_CPU;
    if (has_word(name, lat))
        return PB_KIND_LATENCY;
    if (has_word(name, rate) || !strcmp(unit, "B/s") ||
        !strcmp(unit, "ops/s") || in_list(unit, rates) ||
        (strlen(unit) > 2 && !strcasecmp(unit + strlen(unit) - 2, "/s")))
        return PB_KIND_THROUGHPUT;
    if (in_list(unit, times))
        return PB_KIND_LATENCY;
    return PB_KIND_OTHER;
}

int rp_metric_read(const char *name)
{
    static const char *const state[] = {
        /* the pool and datasets (zfs-props, zfs-commands, tables) */
        "compressratio", "used", "logicalused", "referenced",
        "logicalreferenced", "available", "actual_savings", "size",
        "allocated", "free", "capacity", "fragmentation", "dedupratio",
        "read_errors", "write_errors", "cksum_errors",
        /* what a poolbench run saw around fio: the workload's own
         * figures say the same */
        "pool_read_ops", "pool_write_ops", "pool_read_bw", "pool_write_bw",
        "arc_hit_ratio", "cell_skipped",
        /* fio steady state */
        "ss_attained", "ss_duration", NULL};
    static const char *const log_stats[] = {"_log_mean", "_log_min",
                                            "_log_max", "_log_stdev",
                                            "_log_cv", NULL};
    if (in_list(name, state))
        return 0;
    /* fio's bytes moved and runtime follow from bandwidth and the job */
    if (ends_with(name, "_bytes") || ends_with(name, "_runtime"))
        return 0;
    /* a log's summaries restate the job's figures */
    for (const char *const *s = log_stats; *s; s++)
        if (ends_with(name, *s))
            return 0;
    return 1;
}
