/* resultset/: the in-memory result set every parser fills and model/
 * stores: configurations, tests, results, facts, series and histograms,
 * every string owned by one arena. It parses nothing, talks no SQL and
 * prints only the --dump text form. It sits below ingest/, model/ and
 * run/ and may include common/ only.
 *
 * Use:
 *   1. pb_resultset_new();
 *   2. pb_rs_config / pb_rs_test / pb_rs_add / pb_rs_fact ... to fill it;
 *   3. read its arrays (model/ stores them, pb_resultset_dump prints them);
 *   4. pb_resultset_free().
 */
#ifndef PB_RESULTSET_H
#define PB_RESULTSET_H

#include "common/pb.h"

#include <stdint.h>
#include <stdio.h>

struct pb_kv {
    const char *key;
    const char *value;
    /* Where a configuration dimension came from, "KIND: DETAIL" with KIND
     * one of label, command, title, path, set, plan, sheet, companion (e.g.
     * "command: line 4: zpool create -o ashift=12 tank /dev/sdb");
     * NULL = the parser read it from the input's own fields. Test
     * parameters leave it NULL. */
    const char *origin;
};

/* A configuration under test (label plus dimensions). */
struct pb_config {
    const char *label;
    int label_is_name; /* a dataset/pool name, not a description: label
                          rules are not applied to it */
    int label_auto;    /* the parser made the label up from the file name
                          (fio jobs of several names on one target): a
                          title replaces it as it replaces generic ones */
    struct pb_kv *params;
    size_t nparams, capparams;
};

/* A test (workload) with its parameters. */
struct pb_test {
    const char *name; /* "fio randread bs=4k iodepth=64" */
    const char *tool; /* "fio" */
    struct pb_kv *params;
    size_t nparams, capparams;
};

enum pb_direction { PB_DIR_HIGHER = 1, PB_DIR_LOWER = -1 };

/* One measured value. Strings point into the set's arena. */
struct pb_result {
    size_t config;      /* index into set->configs */
    size_t test;        /* index into set->tests */
    const char *host;   /* NULL = unknown / local */
    const char *job;    /* fio job name, bonnie++ run, ...; may be NULL */
    const char *metric; /* "read_iops" */
    const char *unit;   /* canonical: "B/s", "ops/s", "ns", "B", "%", ... */
    int direction;      /* PB_DIR_HIGHER or PB_DIR_LOWER */
    int has_value;      /* 0: value is NULL, see null_reason */
    double value;
    const char *null_reason; /* "+++++ (too fast to measure)" */
    int has_stderr;
    double stderr_;
    long samples; /* 0 = unknown */
    long line;    /* input line the value was read at; 0 = unknown (pasted
                     commands then apply as of the end of the input) */
    /* Per-repeat values behind the summary (pb_rs_samples): nsample
     * values from set->svals[sample_off], in input order; 0 = none. */
    size_t sample_off, nsample;
};

/* A fact about the source or a host (CPU, kernel, ZFS version, ...). */
struct pb_fact {
    const char *host;
    const char *key;
    const char *value;
};

/* One point of a time series (fio logs). Unknown members are NAN. */
struct pb_point {
    int64_t t_ms;  /* time since the job started, ms (fio's first column) */
    double value;  /* the value as logged (averaged logs), or the bucket's
                      rate (bw, iops) or mean (latency) */
    int64_t n;     /* samples behind the point (I/Os); 0 = one logged value */
    double min, max, p50, p90, p95, p99;
    double p999; /* p99.9: only from PB_P999_MIN samples on, else NAN */
};
/* Fewer I/Os than this in an interval give no p99.9 (the 1,000th
 * slowest would be one I/O or none: the log does not allow it). */
#define PB_P999_MIN 1000

/* A time series read from a fio log (docs/formats.md, "fio logs: time series").
 * Its summary results (NAME_log_mean, ...) are in the set's results:
 * `result` is the index of NAME_log_mean, whose config, test, host and
 * job the series shares. */
struct pb_series {
    size_t result;
    const char *name; /* "read_bw", "write_clat", "read_clat_hist" */
    const char *unit; /* "B/s", "ops/s", "ns" */
    const char *kind; /* "avg", "max" (log_avg_msec > 0, as given), "io"
                         (per-I/O log in fixed buckets), "hist" */
    long width_ms;    /* bucket width, log_avg_msec or log_hist_msec; 0 =
                         unknown */
    struct pb_point *pts;
    size_t npts, cappts;
};

/* A latency distribution behind a result (fio json+ "bins"): the
 * bucket values fio printed (ns, ascending, distinct) and their counts
 * (> 0); arrays in the set's arena. */
struct pb_hist {
    size_t result;       /* index of its median result ("read_clat_p50") */
    const char *kind;    /* "read_clat", "write_lat", "read_slat" */
    size_t n;            /* bins */
    const uint64_t *value, *count;
};

struct pb_resultset {
    const char *path;         /* input path as given */
    const char *format;       /* parser name */
    const char *tool_version; /* "fio-3.33"; may be NULL */
    char sha256[65];
    size_t size;
    /* The file's modification time, "YYYY-MM-DD HH:MM:SS" UTC, when the
     * walk was asked for it (pb_ingest_opts.file_time); the store adds it
     * as the source's last fact, host=- file_time. NULL = none. */
    const char *file_time;

    struct pb_config *configs;
    size_t nconfigs, capconfigs;
    struct pb_test *tests;
    size_t ntests, captests;
    struct pb_result *results;
    size_t nresults, capresults;
    struct pb_fact *facts;
    size_t nfacts, capfacts;
    double *svals; /* every result's per-repeat values, see pb_rs_samples */
    size_t nsvals, capsvals;
    struct pb_series *series; /* fio logs only */
    size_t nseries, capseries;
    struct pb_hist *hists;
    size_t nhists, caphists;

    struct pb_arena arena; /* owns every string above */

    /* Private: hash indexes so that finding a config, test or fact stays
     * O(1) in files with thousands of them. */
    struct pb_rs_index {
        size_t *slots; /* index + 1; 0 = empty */
        size_t cap;    /* power of two */
    } config_ix, test_ix, fact_ix;
    /* Private: the strings of the set, interned (pb_rs_str), so that a
     * metric, unit, host or job name repeated in 100,000 results is stored
     * once and equal strings of one set are one pointer. */
    struct pb_rs_strings {
        const char **tab; /* open addressing; NULL = free slot */
        uint32_t *hash;
        size_t cap, count;
        /* interned strings returned lately, by address: one passed in
         * again (a host of every result) is found without hashing */
        const char *recent[16];
    } strs;
    /* Private: set when the source is streamed (ingest/stream_set.c:
     * the parser hands parts to the store with pb_rs_flush; NULL =
     * whole). ingest/ owns it; pb_resultset_free calls stream_free. */
    struct pb_rs_stream *stream;
    void (*stream_free)(struct pb_resultset *set);
};

/* New empty set; free with pb_resultset_free (NULL is fine). */
struct pb_resultset *pb_resultset_new(void);
void pb_resultset_free(struct pb_resultset *set);

/* Arena copy of a string owned by the set. */
const char *pb_rs_str(struct pb_resultset *set, const char *s);

/* Find or add a config by label; returns its index. */
size_t pb_rs_config(struct pb_resultset *set, const char *label);
/* Find or add the config of label whose dimension "target" is target
 * (NULL: a config without one): fio jobs of one file on several targets
 * are one config each. */
size_t pb_rs_config_target(struct pb_resultset *set, const char *label,
                           const char *target);
/* c's dimension "target", or NULL: configs are keyed by label and
 * target. */
const char *pb_config_target(const struct pb_config *c);
/* Set (replace) a config dimension read by the parser (origin NULL). */
void pb_rs_config_param(struct pb_resultset *set, size_t config,
                        const char *key, const char *value);
/* Set (replace) a config dimension with its origin ("KIND: DETAIL", see
 * struct pb_kv; NULL = parser). */
void pb_rs_config_param_origin(struct pb_resultset *set, size_t config,
                               const char *key, const char *value,
                               const char *origin);
/* Find or add the test of name, tool and exactly the parameters
 * params[0..n) (copied; their order is kept, a key given twice keeps its
 * last value, origins are ignored), as the database keys tests: a row of
 * the same name with other parameters gets a test of its own. Returns its
 * index. Do not add parameters to it with pb_rs_test_param. */
size_t pb_rs_test_kv(struct pb_resultset *set, const char *name,
                     const char *tool, const struct pb_kv *params, size_t n);
/* Find (by name and tool: the first test added of that name) or add a
 * test, for parsers that give a test's parameters with pb_rs_test_param
 * afterwards; the parameters of every row of the name are then merged
 * into it (the last value of a key wins). */
size_t pb_rs_test(struct pb_resultset *set, const char *name,
                  const char *tool);
void pb_rs_test_param(struct pb_resultset *set, size_t test, const char *key,
                      const char *value);
/* Add a result with a value; returns a pointer valid until the next add,
 * for setting stderr_/samples. */
struct pb_result *pb_rs_add(struct pb_resultset *set, size_t config,
                            size_t test, const char *host, const char *job,
                            const char *metric, const char *unit,
                            int direction, double value);
/* Add a result whose value is NULL for `reason`. */
struct pb_result *pb_rs_add_null(struct pb_resultset *set, size_t config,
                                 size_t test, const char *host,
                                 const char *job, const char *metric,
                                 const char *unit, int direction,
                                 const char *reason);
void pb_rs_fact(struct pb_resultset *set, const char *host, const char *key,
                const char *value);
/* Keep v[0..n) (copied, input order) as the per-repeat values of result
 * r of set, stored by model/ in the sample table; replaces any earlier
 * ones. Nothing is kept when n < 2 or a value is not finite. r->samples
 * is set to n when it was 0. Returns the number kept (0 or n). */
size_t pb_rs_samples(struct pb_resultset *set, struct pb_result *r,
                     const double *v, size_t n);
/* The per-repeat values of r (count; *v the first, valid until the next
 * pb_rs_samples), 0 when it has none. */
size_t pb_rs_result_samples(const struct pb_resultset *set,
                            const struct pb_result *r, const double **v);
/* Add an empty series for result index `result`; returns it (valid until
 * the next pb_rs_series). */
struct pb_series *pb_rs_series(struct pb_resultset *set, size_t result,
                               const char *name, const char *unit,
                               const char *kind, long width_ms);
/* Append a point (copied). */
void pb_series_add(struct pb_series *s, const struct pb_point *p);

/* ==== dimension values (dim_norm.c) ====
 * Every value becomes a dimension normalised, whoever read it (a parser,
 * --set, a sheet, a label rule, a pasted command, a plan): docs/model.md,
 * "How values are normalised". pb_ingest_norm_param keeps the name it had
 * when it lived in ingest/. */

/* Normalise a dimension's value (--set, sheets, tables, plans): white
 * space of any kind (no-break spaces too) trimmed at both ends and one
 * ' ' inside, lower case (but for key "label"), sizes for size-like keys
 * ("128k" -> "131072"). Returns a heap string; caller frees. */
char *pb_ingest_norm_param(const char *key, const char *value);
/* Length of the white space character at s, NUL-terminated (ASCII
 * blanks, and the Unicode spaces a web page or a spreadsheet leaves in
 * copied text: no-break, en/em/thin/hair, narrow no-break, ideographic,
 * zero-width, the BOM), else 0. */
size_t pb_space_len(const char *s);
/* A dimension's value as stored: pb_ingest_norm_param (white
 * space, case, sizes) and, for layout, one spelling ("raidz" -> "raidz1",
 * "2x mirror" -> "mirror" with *vdevs = 2, else 0). Heap string. */
char *pb_dim_norm(const char *key, const char *value, long *vdevs);
/* The type of a vdev group word: "mirror", "raidz" (raidz1), "raidz3",
 * "draid2:4d:1s:7c", also with the "-N" of a `zpool status` name
 * ("mirror-0", "raidz2-1", "draid2:4d:7c:1s-0"), any case; into buf.
 * NULL when s[0..n) names no group type. */
const char *pb_vdev_group_type(const char *s, size_t n, char *buf, size_t cap);

/* Print the set in the stable text form used by `ingest --dump` and the
 * end-to-end tests (.expected files). */
void pb_resultset_dump(const struct pb_resultset *set, FILE *fp);

#endif
