/* ingest/: turns benchmark output files into in-memory result sets.
 * One parser per format, each an entry {name, flags, sniff, parse} of the
 * table pb_parsers[]: sniff scores a buffer's head, parse(struct pb_parse
 * *ctx) reads the input the context holds (a buffer, read whole or mapped
 * and streamed in parts, or a source of lines) with the ingest options,
 * and fills the context's result set. Callers ask the flags
 * (PB_PARSER_*), never which parser it is. This module never talks SQL
 * and never prints reports. The caller stores result sets (model/).
 *
 * The result set itself (struct pb_resultset, pb_rs_*) is resultset/'s.
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
#include "resultset/resultset.h"

#include <stdint.h>

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

/* ==== parsers ==== */

struct pb_ingest_opts;
struct pb_parser;

/* One parse: what a parser's parse reads and where it writes. The caller
 * (pb_ingest_buffer, pb_ingest_stream_run) fills it; a parser reads the
 * input, the options it knows (--table-metric, --columns; opts NULL when
 * none), adds rows to out and, on failure, fills err. */
struct pb_parse {
    const struct pb_parser *parser;    /* the one called */
    const struct pb_ingest_opts *opts; /* NULL = none */
    const char *path;                  /* for messages ("-" for stdin) */
    const char *buf;                   /* the input, whole: read into */
    size_t len;                        /* memory, or mapped when streamed */
    /* PB_PARSER_LINES read from a file (pb_ingest_file: fio logs, also
     * compressed): the input as a source of lines, never held whole; buf
     * is then NULL. NULL: the input is buf. */
    struct pb_lines *lines;
    /* Streamed (PB_PARSER_STREAMS, pb_ingest_stream_run): the results
     * (or pending records) a part holds, at least 1 (PB_STREAM_PART or
     * POOLBENCH_STREAM_PART); the parser hands out its rows in parts with
     * pb_rs_flush at points where nothing it holds refers to them. 0: the
     * input is one part, parsed whole (pb_rs_flush is then a no-op). */
    size_t part;
    struct pb_resultset *out; /* the sink: path, format, size, sha256 set */
    struct pb_err *err;
};

/* A source of lines: next gives the next line without its newline (1
 * with *s and *n, valid until the next call), 0 at the end, or an error
 * code with err filled. */
struct pb_lines {
    int (*next)(struct pb_lines *src, const char **s, size_t *n,
                struct pb_err *err);
};

/* What a parser can do besides sniff and parse: flags of struct
 * pb_parser, each with the members it needs. Callers ask the flags, never
 * which parser it is. */
enum {
    /* large inputs are streamed in parts (stream_min; parse sees part > 0;
     * docs/performance.md, "Streaming ingest") */
    PB_PARSER_STREAMS = 1 << 0,
    /* read line by line from its file, never held whole (parse reads
     * ctx->lines: fio logs, also compressed); an empty file named as a
     * fio log is skipped */
    PB_PARSER_LINES = 1 << 1,
    /* reads ingest options itself (ctx->opts: --table-metric,
     * --columns) */
    PB_PARSER_OPTIONS = 1 << 2,
    /* with --label, its dimensions attach to the label as a companion
     * (pb_ingest_companion) */
    PB_PARSER_COMPANION = 1 << 3,
    /* holds no results of its own: without --label as a companion, its
     * input is refused with the message needs_label */
    PB_PARSER_NEEDS_LABEL = 1 << 4,
    /* not a result format: configuration sheets (ingest --configs,
     * pb_ingest_sheet). Never sniffed (its sniff gives 0), never named
     * by --format (pb_ingest_parser_by_name), not listed (completion,
     * the known formats): every loop over pb_parsers[] skips it but
     * pb_ingest_sheet's. */
    PB_PARSER_NO_RESULTS = 1 << 5,
};

struct pb_parser {
    const char *name;                          /* "fio-json" */
    unsigned flags;                            /* PB_PARSER_* */
    int (*sniff)(const char *buf, size_t len); /* 0..100 */
    /* PB_OK, or an error code with ctx->err filled. */
    int (*parse)(struct pb_parse *ctx);
    /* PB_PARSER_STREAMS: the input size from which opts->stream streams
     * a file of this format. */
    size_t stream_min;
    /* PB_PARSER_NEEDS_LABEL: the error for its input alone. */
    const char *needs_label;
};

/* Parse buf whole with p into out (the sink; no options): the parse
 * tests and fuzzers call. PB_OK or the parser's error. */
int pb_parser_run(const struct pb_parser *p, const char *path,
                  const char *buf, size_t len, struct pb_resultset *out,
                  struct pb_err *err) PB_WUR;

/* The registered parsers, NULL-terminated; a loop that lists, sniffs or
 * names formats skips those with PB_PARSER_NO_RESULTS. */
extern const struct pb_parser *const pb_parsers[];

/* Parser by name, or NULL (also for a PB_PARSER_NO_RESULTS one). */
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
    int file_time; /* walk: record each file's modification time as fact
                      host=- file_time (UTC "YYYY-MM-DD HH:MM:SS"): the
                      History's time of a source that states none */
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

/* ==== fio test names (ingest/fio/fio_ident.c; run/ names its cells so) ==== */

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

/* Parse a configuration sheet with the table's PB_PARSER_NO_RESULTS
 * parser (ingest/sheet/sheet.c): CSV or TSV, header `label,<key>,...`,
 * one row per label (blank lines and # comments skipped). Gives a set of
 * format "sheet" without results: one config per row, its non-empty
 * cells as dimensions normalised like --set, with origin
 * "sheet: PATH:LINE" (model/ attaches them to the label). Returns PB_OK
 * (caller frees *out) or PB_EUSAGE with err naming path:line. */
int pb_ingest_sheet(const char *path, const char *buf, size_t len,
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

#endif
