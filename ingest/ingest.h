/* ingest/: turns benchmark output files into in-memory result sets.
 * One parser per format sniffs and parses a buffer; this module never talks
 * SQL and never prints reports. The caller stores result sets (model/).
 *
 * Use:
 *   1. pb_ingest_find_parser() or pb_ingest_buffer() for one buffer, or
 *   2. pb_ingest_walk() for many paths: files are read and parsed on all
 *      cores and handed, in path order, to a callback in the caller's thread;
 *   3. the callback stores the set (pb_db_store) and the walk frees it.
 */
#ifndef PB_INGEST_H
#define PB_INGEST_H

#include "common/pb.h"

#include <stdint.h>

/* ==== result set ==== */

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
};

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
    } strs;
    /* Private: set when the source is streamed (stream_set.c): the
     * parser hands parts to the store with pb_rs_flush; NULL = whole. */
    struct pb_rs_stream *stream;
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

/* ==== streaming (docs/performance.md, "Streaming ingest") ====
 * A large source of a format that can be streamed is mapped, not read,
 * and parsed in the caller's thread by pb_ingest_stream_run: the parser
 * calls pb_rs_flush at points where nothing it holds refers to the rows
 * in the set, and the rows go to a callback (the store) in parts. */

/* Called with each part of a streamed source (options applied), in input
 * order; the part's rows are dropped after it returns. PB_OK to go on;
 * anything else stops the parse (err filled). */
typedef int (*pb_ingest_part_fn)(void *ctx, const struct pb_resultset *part,
                                 struct pb_err *err);

/* Results (or, for a parser that folds, pending records) a part holds
 * before the parser flushes it. */
#define PB_STREAM_PART 16384

/* 1 when set is a streamed source not parsed yet (pb_ingest_walk with
 * opts->stream gives such sets for large files). */
int pb_ingest_streaming(const struct pb_resultset *set);

/* Parse a streamed set: every part but the last goes to fn; the last
 * stays in set (options applied) for the caller to store as the final
 * part. PB_OK, or the parser's or fn's error (err filled). Call once. */
int pb_ingest_stream_run(struct pb_resultset *set, pb_ingest_part_fn fn,
                         void *ctx, struct pb_err *err) PB_WUR;

/* For parsers: 1 when set is streamed and holds at least `pending` rows
 * worth a flush (pending >= PB_STREAM_PART or set->nresults does). */
int pb_rs_flush_due(const struct pb_resultset *set, size_t pending);

/* For parsers, at a point where no later input refers to the set's
 * configs, tests, results or facts: apply the options, hand the set to
 * the part callback and empty it (path, format and tool_version stay;
 * every other pointer into the set is invalid after). `done` is how far
 * the input was read (its pages are released). No-op (PB_OK) when the
 * set is not streamed. */
int pb_rs_flush(struct pb_resultset *set, const char *done) PB_WUR;

/* For parsers: input before `done` is not read again (its mapped pages
 * are released). No-op when the set is not streamed. */
void pb_rs_consumed(struct pb_resultset *set, const char *done);
/* For parsers that read parts of the input more than once: the mapped
 * pages wholly inside [from, upto) are released (read again from the
 * page cache if touched). No-op when the set is not streamed. */
void pb_rs_release(struct pb_resultset *set, const char *from,
                   const char *upto);

/* For parsers: the ingest options of a streamed set (NULL when none or
 * not streamed), for the options a parser reads itself (--table-metric). */
const struct pb_ingest_opts *pb_rs_stream_opts(const struct pb_resultset *set);

/* Print the set in the stable text form used by `ingest --dump` and the
 * end-to-end tests (.expected files). */
void pb_resultset_dump(const struct pb_resultset *set, FILE *fp);

/* ==== parsers ==== */

struct pb_parser {
    const char *name;                          /* "fio-json" */
    int (*sniff)(const char *buf, size_t len); /* 0..100 */
    int (*parse)(const char *path, const char *buf, size_t len,
                 struct pb_resultset *out, struct pb_err *err);
    /* Streaming (docs/performance.md, "Streaming ingest"): the parse that
     * pb_ingest_stream_run calls on a streamed set, handing parts to the
     * store with pb_rs_flush (it may be parse itself when that checks for
     * a streamed set), and the input size from which opts->stream streams
     * a file of this format. NULL and 0: the format never streams. */
    int (*parse_stream)(const char *path, const char *buf, size_t len,
                        struct pb_resultset *out, struct pb_err *err);
    size_t stream_min;
};

/* The registered parsers, NULL-terminated. */
extern const struct pb_parser *const pb_parsers[];

/* Parser by name, or NULL. */
const struct pb_parser *pb_ingest_parser_by_name(const char *name);

/* Best parser for buf (sniffing the first few KiB), or NULL when none
 * scores above zero. */
const struct pb_parser *pb_ingest_find_parser(const char *buf, size_t len);

/* What buf is when it is a file poolbench cannot read but can name (ZFS
 * arcstats/kstat dumps, zdb output, PTS test profile definitions and
 * console logs, fio job files, zpool iostat alone): a static phrase such
 * as "a ZFS arcstats dump (kstat)", else NULL. Looks at the first 8 KiB. */
const char *pb_ingest_recognize(const char *buf, size_t len);

/* ==== config dimensions from labels ==== */

/* Rules turning labels such as "zfs mirror, ashift=13, recordsize 8k" into
 * config dimensions (ashift=13, layout=mirror, recordsize=8192). */
struct pb_label_rules;

/* Built-in rules plus, when path is not NULL, a user rules file (lines of
 * `key = PCRE2 pattern with one capture group`; # comments) whose keys add
 * to or replace the built-ins. Returns PB_OK or PB_EUSAGE with err naming
 * path:line. Free with pb_label_rules_free (NULL is fine). */
int pb_label_rules_load(const char *path, struct pb_label_rules **out,
                        struct pb_err *err) PB_WUR;
void pb_label_rules_free(struct pb_label_rules *rules);

/* Print to fp one line "poolbench: FILE:LINE: pattern for 'key' is too
 * expensive: ..." per rule that hit a matching limit on some label since
 * the rules were loaded (such a label gets no value from that rule; the
 * ingest goes on). Returns the number of lines. */
size_t pb_label_rules_warn(const struct pb_label_rules *rules, FILE *fp);

/* Add the dimensions found in the label of config `config` to it, with
 * the origin "label: LABEL"; keys the config already has (from the
 * parser) are left alone. A label that names a zvol (disk_format=zvol)
 * gives its recordsize as volblocksize. */
void pb_label_extract(const struct pb_label_rules *rules,
                      struct pb_resultset *set, size_t config);
/* The same, recording origin ("title: line 1", "path: ashift12-rs8k/")
 * on each dimension it adds. */
void pb_label_extract_origin(const struct pb_label_rules *rules,
                             struct pb_resultset *set, size_t config,
                             const char *origin);

/* ==== options applied to every parsed set ==== */

struct pb_ingest_opts {
    const struct pb_label_rules *rules; /* NULL = no label extraction */
    const char *format; /* force a parser; NULL = sniff */
    const char *label;  /* replaces every config label; NULL = keep */
    const char *label_from; /* "file", "dir", "title": the label is the
                               input's base name, folder or title line;
                               NULL = automatic (docs/experiment-context.md) */
    struct pb_kv *set;  /* --set KEY=VALUE config dimensions */
    size_t nset;
    /* where set comes from when not the command line: origin "plan: FILE:
     * KEY=VALUE" for set_origin "FILE" (poolbench run's cells); NULL =
     * "set: --set KEY=VALUE" */
    const char *set_origin;
    int companion; /* with label: ZFS outputs (zfs-props) attach their
                      dimensions to the label (pb_ingest_companion) */
    int threads; /* 0 = number of cores */
    int follow;  /* walk: follow symlinks to directories */
    /* walk: files found in directories are kept when their name (a
     * pattern without '/') or their path below the walked directory (a
     * pattern with '/') matches one of include (all when ninclude is 0)
     * and none of exclude; an excluded directory is not entered.
     * fnmatch(3) globs. Paths given by name are always read. */
    const char *const *include;
    size_t ninclude;
    const char *const *exclude;
    size_t nexclude;
    const char *db_path; /* walk: never read this file (and its -wal,
                            -shm, -journal): the database in use */
    /* --table-metric 'HEADER=METRIC:UNIT:higher|lower' (table format) */
    const char *const *table_metrics;
    size_t ntable_metrics;
    /* --columns: the -o column list of ZFS -H output without a header
     * ("name,used,lused,ratio"); NULL = only default column sets */
    const char *columns;
    /* walk: a regular file of at least its parser's stream_min bytes in
     * a format that can be streamed (bonnie-csv, fio-json, fio-terse)
     * comes to the callback unparsed (pb_ingest_streaming), for
     * pb_ingest_stream_run;
     * only without label, label_from and companion, which need the whole
     * source. */
    int stream;
};

/* Input size from which opts->stream streams a file (the stream_min of
 * the parser tables): a bonnie++ CSV from 128 KiB (parsed whole it takes
 * ~35x its size), a fio JSON from 4 MiB (~6x its size whole; streaming
 * one of the many small files of a nightly run costs 30-60% more wall
 * time, as its parse no longer runs beside the store of the file
 * before). */
#define PB_STREAM_MIN ((size_t)128 << 10)
#define PB_STREAM_MIN_JSON ((size_t)4 << 20)
/* fio terse from 1 MiB (~5x its size whole; streamed no slower, but on
 * the storing thread instead of beside it; docs/performance.md, "Streaming
 * ingest", fio terse). */
#define PB_STREAM_MIN_TERSE ((size_t)1 << 20)
/* fio normal text from 1 MiB (docs/performance.md, "Streaming ingest", fio
 * text): parsed whole it takes 3 to 20 times its size. */
#define PB_STREAM_MIN_TEXT ((size_t)1 << 20)
/* PTS result XML from 1 MiB (docs/performance.md, "Streaming ingest", PTS):
 * parsed whole a result file takes about 3.6 times its size. */
#define PB_STREAM_MIN_PTS ((size_t)1 << 20)
/* tables from 1 MiB (docs/table-format.md, "Large tables"): parsed whole
 * a table takes about 13 times its size (its results). */
#define PB_STREAM_MIN_TABLE ((size_t)1 << 20)
/* zfs command output from 1 MiB (docs/performance.md, "Streaming ingest",
 * zfs-props): parsed whole, `zfs get all` of many datasets takes about
 * 10 times its size (its facts). */
#define PB_STREAM_MIN_ZFS ((size_t)1 << 20)

/* Check one --table-metric spec; PB_OK or PB_EUSAGE with err saying why. */
int pb_ingest_table_metric_check(const char *spec, struct pb_err *err) PB_WUR;

/* Parse one buffer into a new set (sniffing unless opts->format), then
 * apply label and --set. On error returns PB_EINPUT with err filled and
 * *out NULL. Caller frees *out. */
int pb_ingest_buffer(const char *path, const char *buf, size_t len,
                     const struct pb_ingest_opts *opts,
                     struct pb_resultset **out, struct pb_err *err) PB_WUR;

/* Read and parse one file as the walk does: fio logs and .gz files
 * streamed (never held whole), others as a buffer. Like
 * pb_ingest_buffer. */
int pb_ingest_file(const char *path, const struct pb_ingest_opts *opts,
                   struct pb_resultset **out, struct pb_err *err) PB_WUR;

/* 1 when label is a name that says nothing about the setup: a tool or
 * job default such as "fio", "test", "job1", "task_0", "iozone"
 * (docs/experiment-context.md lists them), also when qualified as
 * "fio (host, fio-3.33)". */
int pb_ingest_generic_label(const char *label);

/* Normalise a dimension's value (--set, sheets, tables, plans): white
 * space of any kind (no-break spaces too) trimmed at both ends and one
 * ' ' inside, lower case (but for key "label"), sizes for size-like keys
 * ("128k" -> "131072"). Returns a heap string; caller frees. */
char *pb_ingest_norm_param(const char *key, const char *value);

/* ==== fio test names (ingest/fio_ident.c; run/ names its cells so) ==== */

/* key is a fio option the test name itself shows ("fio randread bs=4k
 * iodepth=8 ...": rw, bs, iodepth, numjobs, rwmixread, fsync, direct and
 * their aliases). */
int pb_ingest_fio_name_shows(const char *key);
/* Append " key=value" to a test name: an option that differs between
 * the tests (cells, jobs) named together and the name does not show. */
void pb_ingest_fio_name_extra(struct pb_buf *b, const char *key,
                              const char *value);
/* key is a fio option stored as a test parameter of its own, value
 * normalised (pb_ingest_norm_param): every option but those the test's
 * own code reads (rw, bs, iodepth, numjobs, size, runtime, ... stored
 * as such) and those that do not change the workload (names, targets,
 * output, logs). */
int pb_ingest_fio_test_option(const char *key);

/* ==== configuration sheets and companions (sheet.c) ==== */

/* Parse a configuration sheet: CSV or TSV, header `label,<key>,...`, one
 * row per label (blank lines and # comments skipped). Gives a set of
 * format "sheet" without results: one config per row, its non-empty
 * cells as dimensions normalised like --set, with origin
 * "sheet: PATH:LINE" (model/ attaches them to the label). Returns PB_OK
 * (caller frees *out) or PB_EUSAGE with err naming path:line. */
int pb_sheet_parse(const char *path, const char *buf, size_t len,
                   struct pb_resultset **out, struct pb_err *err) PB_WUR;

/* Make the parser's dimensions of set (origin NULL) companion dimensions,
 * "companion: PATH", which model/ attaches to the config label instead of
 * keeping them to this source; keys whose values differ between the
 * set's configs stay the parser's. */
void pb_ingest_companion(struct pb_resultset *set);

/* ==== walking many paths ==== */

/* Called once per input file, in path order, in the caller's thread.
 * Exactly one of set and err is non-NULL. The callback may keep set by
 * returning 1 (it then frees it); return 0 to let the walk free it. */
typedef int (*pb_ingest_cb)(void *ctx, const char *path,
                            struct pb_resultset *set, const struct pb_err *err);

/* Expand paths (files, directories walked recursively in sorted order,
 * "-" for stdin; symlinks to directories only with opts->follow, and no
 * directory twice, so link loops end; the database opts->db_path is not
 * an input), read and parse them on opts->threads threads, and call cb
 * for each. Paths that do not exist are reported through cb as errors.
 * Returns PB_OK, or PB_EIO if a path could not be walked at all. */
int pb_ingest_walk(const char *const *paths, size_t npaths,
                   const struct pb_ingest_opts *opts, pb_ingest_cb cb,
                   void *ctx) PB_WUR;

/* ==== ZFS telemetry readers (zfs_telemetry.c) ====
 * Not result formats (no sniffing, no result set): tables that run/ reads
 * while a benchmark goes and turns into metrics and facts. */

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
