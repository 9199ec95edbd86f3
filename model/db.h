/* model/: the SQLite database. Opens and migrates it, stores result sets
 * (one transaction per source, keyed by SHA-256), and answers the queries
 * the CLI and the report need. Knows no input format; owns canonical units
 * and metric names through the result sets it is given.
 *
 * Use:
 *   1. pb_db_open() (creates the file and applies model/schema.sql);
 *   2. pb_db_store() for each parsed result set (pb_db_forget_source()
 *      takes one back), or the pb_db_each_* iterators to read;
 *   3. pb_db_close().
 */
#ifndef PB_DB_H
#define PB_DB_H

#include "common/pb.h"
#include "resultset/resultset.h"

struct pb_db;

/* Schema version this binary writes (PRAGMA user_version). */
#define PB_DB_SCHEMA_VERSION 8
/* PRAGMA application_id of poolbench databases ("PBDB"): a file with
 * another id, or with tables and no id, is not changed. */
#define PB_DB_APPLICATION_ID 0x50424442

/* The --db default: $POOLBENCH_DB, else "./poolbench.db". */
const char *pb_db_default_path(void);

/* Open (creating and migrating if needed) the database at path. readonly
 * opens an existing file without creating it, and migrates it only when
 * its schema is older than this binary's (readers need the new columns). Sets WAL mode
 * and a busy timeout so several processes can ingest at once.
 * Returns PB_OK, or PB_EDB with err filled. Free *out with pb_db_close. */
int pb_db_open(const char *path, int readonly, struct pb_db **out,
               struct pb_err *err) PB_WUR;
void pb_db_close(struct pb_db *db);
/* Open another poolbench database read-only as a file from elsewhere
 * (compare's db:FILE): each table poolbench reads must be a table of its
 * shape and the file may hold no trigger (else PB_EDB "not poolbench's
 * schema: ..."), and its work is bounded by its size (a query past the
 * bound fails with PB_EDB). As pb_db_open otherwise. */
int pb_db_open_foreign(const char *path, struct pb_db **out,
                       struct pb_err *err) PB_WUR;
/* The path db was opened from (owned by db). */
const char *pb_db_path(const struct pb_db *db);

/* Store one parsed source in one transaction. Config dimensions whose
 * origin is "sheet: ..." or "companion: ..." are attached to the config's
 * label, not kept to this source: every configuration with that label,
 * stored before or after, gets them, and configurations are re-keyed
 * (merged when they now agree) so that the order of stores does not
 * matter; a set config carrying only such dimensions and no results makes
 * no configuration (a sheet row). See docs/model.md. Returns PB_OK, PB_EDUP when
 * a source with the same SHA-256 is already stored (nothing changes), or
 * PB_EDB with err filled (nothing was written). *nresults gets the number
 * of rows written (may be NULL). */
int pb_db_store(struct pb_db *db, const struct pb_resultset *set,
                size_t *nresults, struct pb_err *err) PB_WUR;

/* A source stored in parts (a streamed source, docs/performance.md "Streaming
 * ingest"): pb_db_stream_open checks the SHA-256 (PB_EDUP: already
 * stored, nothing changed and *out NULL) and opens the source's
 * transaction or savepoint; pb_db_stream_part stores one part (the source
 * row is written with the first, with the path, format and tool_version
 * of that part); pb_db_stream_close stores the last part when ok, then
 * commits or releases, or (ok 0, or any failure) rolls the whole source
 * back; it frees *st and sets *nresults (may be NULL) to the rows of all
 * parts. A part's ids of results are not kept across parts: series and
 * latency distributions must come in the last part. */
struct pb_db_stream;
int pb_db_stream_open(struct pb_db *db, const struct pb_resultset *set,
                      struct pb_db_stream **out, struct pb_err *err) PB_WUR;
int pb_db_stream_part(struct pb_db_stream *st, const struct pb_resultset *part,
                      struct pb_err *err) PB_WUR;
int pb_db_stream_close(struct pb_db_stream *st, const struct pb_resultset *last,
                       int ok, size_t *nresults, struct pb_err *err) PB_WUR;

/* Group the next stores into one transaction (each source stays atomic:
 * it is stored under a savepoint). Far fewer commits when many small files
 * are ingested; a crash loses at most the open batch, never part of a
 * source. pb_db_commit ends the batch (no-op when none is open). Both
 * return PB_OK or PB_EDB. */
int pb_db_begin(struct pb_db *db, struct pb_err *err) PB_WUR;
int pb_db_commit(struct pb_db *db, struct pb_err *err) PB_WUR;

/* Delete source source_id with its results, facts and the dimensions it
 * attached to labels (configs of those labels are re-keyed back), in one
 * transaction (a savepoint inside a batch). Its configs, tests, hosts and
 * metrics stay (ids are never reused). Returns PB_OK (also when no source
 * has that id: nothing changes) or PB_EDB with err filled (nothing was
 * deleted). */
int pb_db_forget_source(struct pb_db *db, long long source_id,
                        struct pb_err *err) PB_WUR;

/* Compact the database (compact.c): VACUUM, ANALYZE, PRAGMA optimize,
 * then fold the -wal file into it. *before and *after get the bytes of
 * the file plus its -wal file. Not inside a batch. PB_OK, or PB_EDB with
 * err filled (the content is unchanged either way: each step is one
 * transaction that only rewrites pages or statistics). */
int pb_db_compact(struct pb_db *db, long long *before, long long *after,
                  struct pb_err *err) PB_WUR;

/* ==== fixing the database (edit.c; docs/model.md, "Fixing the
 * database") ==== */

/* Undo the batch opened with pb_db_begin: nothing of it stays (a dry
 * run). No-op when none is open. */
void pb_db_rollback(struct pb_db *db);

/* Which sources: one member set. */
struct pb_db_select {
    const char *source;    /* a path as stored, else a source id */
    const char *config_re; /* sources with results of matching labels */
    const char *run_id;    /* sources with fact run_id = this */
    /* with sha256: the sources with these bytes or stored from this path
     * (source, matched as a path only; ingest --replace) */
    const char *sha256;
};
/* Ids of the selected sources, ascending, in *ids (caller frees; NULL
 * when none). PB_OK, PB_EUSAGE (bad pattern) or PB_EDB. */
int pb_db_select_sources(struct pb_db *db, const struct pb_db_select *sel,
                         long long **ids, size_t *n, struct pb_err *err) PB_WUR;

/* *outside = 1 when source source_id has results of a configuration whose
 * label config_re does not match. PB_OK, PB_EUSAGE or PB_EDB. */
int pb_db_source_outside(struct pb_db *db, long long source_id,
                         const char *config_re, int *outside,
                         struct pb_err *err) PB_WUR;

/* Delete own configs, configs and tests no result uses any more (with
 * their parameters), in the caller's transaction; other connections drop
 * their cached ids. PB_OK or PB_EDB. */
int pb_db_prune(struct pb_db *db, struct pb_err *err) PB_WUR;

/* Move results from label old_label to new_label: of every source, or of
 * the nsources given. Own dimensions the label rules read out of the old
 * label (origin "label: ..."; in databases from before issue 42: parser
 * origin and equal to old_dims) are dropped, new_dims (read out of the
 * new label, with their origins) fill keys the own config does not have;
 * what a companion source attached to old_label moves with it (a sheet's
 * rows stay: they name labels); both labels are re-keyed and unused rows
 * pruned. One transaction (a savepoint in a batch). *nresults gets the
 * number of results moved. PB_OK or PB_EDB (nothing changed). */
struct pb_db_relabel {
    const char *old_label, *new_label;
    const long long *sources; /* NULL/0 = all */
    size_t nsources;
    const struct pb_kv *old_dims, *new_dims;
    size_t nold, nnew;
};
int pb_db_relabel(struct pb_db *db, const struct pb_db_relabel *r,
                  size_t *nresults, struct pb_err *err) PB_WUR;

/* ==== reading ==== */

/* Filters; NULL members match everything. *_re are PCRE2 patterns matched
 * anywhere in the value (use ^...$ to anchor). model/rkeep.c reuses a
 * sort only for an equal filter: a field added here is compared there. */
struct pb_db_filter {
    const char *test_re;
    const char *config_re;
    const char *metric_re;
    const char *host_re;
    const char *format;
    /* pb_db_each_report_row only: keep rows of these source ids (sorted
     * ascending); NULL = every source (compare's run: and source:) */
    const long long *source_ids;
    size_t nsource_ids;
};

/* One v_result row; strings are borrowed until the callback returns. */
struct pb_db_row {
    const char *source_path, *format, *host, *config, *test, *tool, *job,
        *metric, *unit, *direction;
    int has_value;
    double value;
    int has_stderr;
    double stderr_;
    long samples; /* 0 = unknown */
    long long config_id, test_id;
};

/* Callbacks return 0 to go on, non-zero to stop (that value is returned). */
typedef int (*pb_db_row_cb)(void *ctx, const struct pb_db_row *row);

/* Every v_result row matching f, ordered by test, config, metric, job,
 * host. Returns PB_OK, the callback's stop value, PB_EUSAGE for a bad
 * pattern or PB_EDB. */
int pb_db_each_result(struct pb_db *db, const struct pb_db_filter *f,
                      pb_db_row_cb cb, void *ctx, struct pb_err *err) PB_WUR;

/* Every stored per-repeat sample (table sample) of the v_result rows
 * matching f, in pb_db_each_result's order and then by seq: the row's
 * fields with value = the sample's value, samples = its seq (0-based),
 * has_stderr 0. Returns like pb_db_each_result. */
int pb_db_each_result_sample(struct pb_db *db, const struct pb_db_filter *f,
                             pb_db_row_cb cb, void *ctx,
                             struct pb_err *err) PB_WUR;

struct pb_db_source {
    long long id;
    const char *sha256, *path, *format, *tool_version, *ingested_at;
    long long size, nresults;
};
typedef int (*pb_db_source_cb)(void *ctx, const struct pb_db_source *s);
int pb_db_each_source(struct pb_db *db, pb_db_source_cb cb, void *ctx,
                      struct pb_err *err) PB_WUR;

/* A config or a test with its parameters ("k=v, k=v") and result count. */
struct pb_db_entity {
    long long id;
    const char *name, *tool; /* tool is NULL for configs */
    const char *params;      /* "recordsize=131072, compression=lz4" */
    long long nresults;
};
typedef int (*pb_db_entity_cb)(void *ctx, const struct pb_db_entity *e);
int pb_db_each_config(struct pb_db *db, pb_db_entity_cb cb, void *ctx,
                      struct pb_err *err) PB_WUR;
int pb_db_each_test(struct pb_db *db, pb_db_entity_cb cb, void *ctx,
                    struct pb_err *err) PB_WUR;

/* Row counts for a summary line. */
struct pb_db_counts {
    long long sources, configs, tests, results;
};
int pb_db_counts(struct pb_db *db, struct pb_db_counts *out,
                 struct pb_err *err) PB_WUR;

/* Kinds of names a filter matches (pb_db_each_name). */
enum pb_db_name_kind {
    PB_DB_TESTS,   /* test names */
    PB_DB_CONFIGS, /* configuration labels */
    PB_DB_METRICS, /* metric names, and the names of time series */
    PB_DB_HOSTS,   /* host names */
    PB_DB_FORMATS  /* source formats (matched exactly, not as a pattern) */
};
typedef int (*pb_db_name_cb)(void *ctx, const char *name);
/* The distinct names of one kind that have results, sorted, and only those
 * matching re when it is not NULL (PCRE2 anywhere; for PB_DB_FORMATS
 * equality). Returns PB_OK, the callback's stop value, PB_EUSAGE for a
 * bad pattern or PB_EDB. */
int pb_db_each_name(struct pb_db *db, enum pb_db_name_kind kind,
                    const char *re, pb_db_name_cb cb, void *ctx,
                    struct pb_err *err) PB_WUR;

/* ==== time series (fio logs) ==== */

/* One point of a series with its owner's names; strings borrowed until
 * the callback returns. NAN for unknown numbers. */
struct pb_db_point {
    const char *source_path, *config, *test, *job, *host;
    const char *series, *unit, *kind; /* "read_bw", "B/s", "avg" */
    long width_ms;                    /* 0 = unknown */
    long long config_id, test_id, series_id;
    long long t_ms, n; /* n: 0 = unknown */
    double value, min, max, p50, p90, p95, p99, p999;
};
typedef int (*pb_db_point_cb)(void *ctx, const struct pb_db_point *p);

/* Every point of the series matching f (metric_re matches the series
 * name), ordered by test, series, config, job, host, source, time
 * (a chart per test and series, a line per config: contiguous).
 * Returns like pb_db_each_result. */
int pb_db_each_point(struct pb_db *db, const struct pb_db_filter *f,
                     pb_db_point_cb cb, void *ctx, struct pb_err *err) PB_WUR;

/* ==== report queries ==== */

/* One result row for render/: ids instead of names so the report can group
 * without string compares; strings borrowed until the callback returns. */
struct pb_db_rrow {
    long long test_id, metric_id, config_id, source_id;
    const char *metric, *unit, *direction, *job, *host;
    const char *null_reason; /* set when !has_value */
    int has_value;
    double value;
    int has_stderr;
    double stderr_;
    long samples; /* 0 = unknown */
};
typedef int (*pb_db_rrow_cb)(void *ctx, const struct pb_db_rrow *r);

/* Every result matching f, ordered by test id, metric id, config id,
 * source id, job, host (names, NULL first) and result id. Sorted by
 * model/rsort.c in runs of bounded memory spilled to one anonymous
 * temporary file (SQLite's ORDER BY when an id passes 32 bits); no
 * statement runs during the callbacks, and the strings stay valid until
 * this returns. Returns like pb_db_each_result, or PB_EIO when the
 * temporary file fails. */
int pb_db_each_report_row(struct pb_db *db, const struct pb_db_filter *f,
                          pb_db_rrow_cb cb, void *ctx,
                          struct pb_err *err) PB_WUR;

/* One stored per-repeat value (table sample) with its result's keys. */
struct pb_db_sample {
    long long result_id, source_id, test_id, metric_id, config_id;
    long seq;
    double value;
};
typedef int (*pb_db_sample_cb)(void *ctx, const struct pb_db_sample *s);
/* Every sample, ordered by source, test, metric, config, result id and
 * seq. Returns PB_OK, the callback's stop value or PB_EDB. */
int pb_db_each_sample(struct pb_db *db, pb_db_sample_cb cb, void *ctx,
                      struct pb_err *err) PB_WUR;

/* A listing row: an id and up to three texts (borrowed, may be NULL). */
struct pb_db_triple {
    long long id;
    const char *a, *b, *c;
};
typedef int (*pb_db_triple_cb)(void *ctx, const struct pb_db_triple *t);

/* Configs as (id, label), ordered by id. */
int pb_db_report_configs(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                         struct pb_err *err) PB_WUR;
/* Tests as (id, name, tool), ordered by id. */
int pb_db_report_tests(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                       struct pb_err *err) PB_WUR;
/* Parameters as (owner id, key, value, origin) ordered by owner id and
 * key: of tests when `tests` is non-zero (origin always NULL), else of
 * configs (origin "KIND: DETAIL", NULL = the parser; see struct pb_kv). */
int pb_db_report_params(struct pb_db *db, int tests, pb_db_triple_cb cb,
                        void *ctx, struct pb_err *err) PB_WUR;
/* Facts as (source id, host, key, value) in source and insertion order. */
int pb_db_report_facts(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                       struct pb_err *err) PB_WUR;
/* Where the labels came from: (config id, a label_origin fact of a source
 * with results in it), each pair once, ordered by config id and text. */
int pb_db_label_origins(struct pb_db *db, pb_db_triple_cb cb, void *ctx,
                        struct pb_err *err) PB_WUR;

/* A table's own order (model/ranked.c): the caller ranks configurations
 * and tests by id (< 0 leaves their rows out) and picks metrics by name. */
struct pb_db_order {
    long long (*config_rank)(void *ctx, long long config_id);
    long long (*test_rank)(void *ctx, long long test_id);
    int (*want_metric)(void *ctx, const char *name);
    void *ctx;
    /* non-zero: the callback reads no host name, row.host is NULL (rows
     * are still ordered by it; 100,000 machines' names are 5 MB) */
    int no_host;
};
/* A row of pb_db_each_ranked_row: row as pb_db_each_report_row gives it
 * (job always NULL: not read), its ranks and its result id. */
struct pb_db_ranked {
    struct pb_db_rrow row;
    long long config_rank, test_rank, result_id;
};
typedef int (*pb_db_ranked_cb)(void *ctx, const struct pb_db_ranked *r);
/* Every result matching f (as pb_db_each_report_row) of a wanted metric
 * with config and test ranks >= 0, ordered by config rank, test rank,
 * metric name, unit and id, test id, source id, host and result id.
 * Sorted like pb_db_each_report_row (memory does not grow with the
 * rows); when a rank or id passes 32 bits, SQLite's ORDER BY, which
 * registers the SQL function pb_rank on the connection. No other
 * statement may be running. Returns like pb_db_each_report_row. */
int pb_db_each_ranked_row(struct pb_db *db, const struct pb_db_filter *f,
                          const struct pb_db_order *ord, pb_db_ranked_cb cb,
                          void *ctx, struct pb_err *err) PB_WUR;
/* The per-repeat samples (table sample) of one result, by seq: use
 * pb_db_samples_open (PB_OK or PB_EDB; free with pb_db_samples_close,
 * NULL is fine), then pb_db_samples_of per result: *v (grown, caller
 * frees) gets *n values. PB_OK or PB_EDB. */
struct pb_db_samples;
int pb_db_samples_open(struct pb_db *db, struct pb_db_samples **out,
                       struct pb_err *err) PB_WUR;
int pb_db_samples_of(struct pb_db_samples *s, long long result_id, double **v,
                     size_t *n, size_t *cap, struct pb_err *err) PB_WUR;
void pb_db_samples_close(struct pb_db_samples *s);

/* ==== latency distributions (hist.c; docs/formats.md, "Latency
 * distributions from json+") ==== */

/* One stored histogram with the ids of its result; arrays and strings
 * borrowed until the callback returns. */
struct pb_db_hist {
    long long test_id, config_id, source_id;
    const char *job;  /* may be NULL */
    const char *kind; /* "read_clat" */
    uint64_t total;   /* sum of count[] */
    size_t n;
    const uint64_t *value; /* ns, ascending */
    const uint64_t *count;
};
typedef int (*pb_db_hist_cb)(void *ctx, const struct pb_db_hist *h);

/* Every histogram of the results f's host_re and format select (f may
 * be NULL; its test, config and metric patterns are left to the caller,
 * who has the ids), ordered by test id, config id, kind, result id. A
 * blob that does not decode is skipped. Returns like pb_db_each_result. */
int pb_db_each_hist(struct pb_db *db, const struct pb_db_filter *f,
                    pb_db_hist_cb cb, void *ctx, struct pb_err *err) PB_WUR;

/* The blob form of n (value, count) pairs (schema.sql, latency_hist):
 * appended to out. Values ascending. */
void pb_db_hist_encode(const uint64_t *value, const uint64_t *count, size_t n,
                       struct pb_buf *out);
/* Decode n pairs of blob[0..len) into value/count (n each); 0, or -1 when
 * the blob is not n well-formed pairs. */
int pb_db_hist_decode(const unsigned char *blob, size_t len, size_t n,
                      uint64_t *value, uint64_t *count);

/* ==== merging another poolbench database (merge_open.c, merge.c;
 * docs/model.md, "Merging databases") ====
 * Use: pb_db_merge_sniff() on an input path; pb_db_merge_open(); then
 * pb_db_merge_next() and pb_db_merge_store() per source until *set is
 * NULL; pb_db_merge_close(). The other file is never written. */
struct pb_db_merge;

/* 1 when path is a regular file with the SQLite header, else 0. */
int pb_db_merge_sniff(const char *path);

/* Open the poolbench database at path for merging: read-only, copied to
 * a temporary file ($TMPDIR, else /tmp) that is migrated when its schema
 * is older. PB_OK (free *out with pb_db_merge_close), PB_EFORMAT with err
 * filled for another program's SQLite file (no poolbench id or tables),
 * or PB_EDB: a newer schema, unreadable. */
int pb_db_merge_open(const char *path, struct pb_db_merge **out,
                     struct pb_err *err) PB_WUR;
/* Number of sources in the other database. */
size_t pb_db_merge_count(const struct pb_db_merge *m);
/* The next source of the other database as a result set (its path,
 * format, SHA-256, results with their own dimensions and origins, the
 * dimensions it attached to labels, facts, latency distributions), in
 * source id order; *set is
 * NULL after the last. Caller frees *set. PB_OK or PB_EDB. */
int pb_db_merge_next(struct pb_db_merge *m, struct pb_resultset **set,
                     struct pb_err *err) PB_WUR;
/* Store set, the one pb_db_merge_next gave last, like pb_db_store (same
 * returns, PB_EDUP for a source already there), plus its per-repeat
 * samples (result ids remapped) and its first ingest time, all under one
 * savepoint (a transaction of its own outside a batch). */
int pb_db_merge_store(struct pb_db *db, struct pb_db_merge *m,
                      const struct pb_resultset *set, size_t *nresults,
                      struct pb_err *err) PB_WUR;
void pb_db_merge_close(struct pb_db_merge *m);

#endif
