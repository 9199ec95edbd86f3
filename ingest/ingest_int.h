/* Private to ingest/: the parser table entries each format folder exports
 * (one per format; the contract, struct pb_parse and struct pb_parser, is
 * in ingest.h), and the helpers the registry, the stream machinery and the
 * parsers share. Other modules include ingest.h only. */
#ifndef PB_INGEST_INT_H
#define PB_INGEST_INT_H

#include "ingest/ingest.h"
#include "ingest/lex/lex.h"

extern const struct pb_parser pb_parser_fio_json;
extern const struct pb_parser pb_parser_fio_text;
extern const struct pb_parser pb_parser_fio_terse;
extern const struct pb_parser pb_parser_iozone;
extern const struct pb_parser pb_parser_bonnie_csv;
extern const struct pb_parser pb_parser_pts_xml;
extern const struct pb_parser pb_parser_zfs_props;
extern const struct pb_parser pb_parser_zfs_commands;
extern const struct pb_parser pb_parser_table;
extern const struct pb_parser pb_parser_fio_log;
extern const struct pb_parser pb_parser_fio_hist_log;
extern const struct pb_parser pb_parser_sheet; /* PB_PARSER_NO_RESULTS */

/* The zfs-props parser with `ingest --columns`: the names of the columns
 * of -H output without a header ("name,used,lused,ratio"). */
int pb_zfs_parse_columns(const char *path, const char *buf, size_t len,
                         const char *columns, struct pb_resultset *out,
                         struct pb_err *err);

/* --label, --set, label rules and context applied to a parsed set (the
 * end of pb_ingest_buffer); buf is the input, or its first bytes when it
 * was streamed. */
void pb_ingest_apply(struct pb_resultset *set, const char *buf, size_t len,
                     const struct pb_ingest_opts *opts);

/* Read path as a stream when it is a fio log or compressed (.gz through
 * zlib; a compressed file of another format is decompressed whole and
 * parsed as a buffer). PB_EDUP when it is neither: the caller reads it
 * as a buffer. Else like pb_ingest_buffer. (stream.c) */
int pb_ingest_stream(const char *path, const struct pb_ingest_opts *opts,
                     struct pb_resultset **out, struct pb_err *err) PB_WUR;

/* A large file of a format that can be streamed, mapped and hashed but
 * not parsed (pb_ingest_streaming; opts->stream). PB_EDUP when it is not
 * for streaming: the caller reads it as a buffer. (stream_set.c) */
int pb_ingest_stream_open(const char *path, const struct pb_ingest_opts *opts,
                          struct pb_resultset **out, struct pb_err *err) PB_WUR;
/* For parsers: how much of an input of len bytes the ingest options read
 * for its context (pasted commands, title: pb_ingest_apply): all of it,
 * or the head of a streamed source. (stream_set.c) */
size_t pb_rs_context_len(const struct pb_resultset *set, size_t len);
/* When buf is a file poolbench knows it cannot read as results
 * (pb_ingest_recognize: "this is ..., not benchmark output"; a
 * configuration sheet: "use --configs"), fill err with that one line and
 * return PB_EFORMAT; else PB_OK. (recognize.c) */
int pb_ingest_refuse(const char *path, const char *buf, size_t len,
                     struct pb_err *err);
/* The error for a file no parser claims: pb_ingest_refuse's, else
 * "unrecognised input: ...", with the --format table hint when the file
 * holds a table (pb_table_shaped). PB_EFORMAT. (recognize.c) */
int pb_ingest_unknown(const char *path, const char *buf, size_t len,
                      struct pb_err *err);
/* A configuration sheet (`label,KEY,...` and a row of as many cells) in
 * buf: 1 with *line its header line. (sheet.c) */
int pb_sheet_shaped(const char *buf, size_t len, long *line);
/* A table in buf (a header of names, then rows of as many cells that hold
 * numbers), sniffed or not: 1 with *line its header line. (table.c) */
int pb_table_shaped(const char *buf, size_t len, long *line);
/* For a streamed parse that found its input wrong: the error the whole
 * parse of x->parser gives (the one line path:line: what, in x->err), or
 * one saying that the whole parse accepts it. (stream_set.c) */
int pb_parse_whole_error(const struct pb_parse *x) PB_WUR;

/* pb_skip_ws, pb_contains: ingest/lex/lex.h. */

/* ==== PTS result descriptions (ingest/pts/pts_desc.c) ==== */

/* Called with each test parameter found; key and value are borrowed. */
typedef void (*pb_pts_param_fn)(void *ctx, const char *key,
                                const char *value);

/* The test parameters in a PTS result description ("Type: Random Read -
 * Engine: Linux AIO - Block Size: 8KB"), in order: for the storage profiles
 * (fio, iozone, dbench, tiobench, fs-mark, aio-stress, sqlite, pgbench;
 * known from the result identifier "pts/fio-2.1.0", or its title when the
 * identifier is empty) with poolbench's keys and units (rw=randread,
 * ioengine=libaio, bs=8192, clients=48); otherwise "Key: Value" pairs with
 * the key in lower_snake_case, sizes of size keys in bytes. Segments
 * without a key give nothing, except the phrases of dbench, tiobench,
 * fs-mark and iozone ("12 Clients", "64MB Read", "32 Threads"). */
void pb_pts_desc_params(const char *ident, const char *title,
                        const char *desc, pb_pts_param_fn fn, void *ctx);

/* 1 when path, whose content is empty or white space, is named as fio
 * names its logs (NAME_KIND[.N].log[.gz]): err is then PB_ESKIP with
 * the note to print; 0 otherwise. (fio_log_link.c) */
int pb_ingest_empty_log(const char *path, struct pb_err *err);

/* The base name of path without its extension ("run3.json" -> "run3"),
 * or (dir) the name of its folder, NULL when none; caller frees.
 * (context.c) */
char *pb_ingest_path_part(const char *path, int dir);

/* ==== pasted shell commands (commands.c) ==== */

struct pb_cmd_dim {
    char *key, *value;
    char *origin; /* "command: line N: zpool create ..." */
};

/* The dimensions the commands put in force from `line` on. */
struct pb_cmd_epoch {
    long line;
    struct pb_cmd_dim *dims; /* sorted by key */
    size_t ndims;
};

struct pb_cmd_notes {
    struct pb_cmd_epoch *epochs; /* epochs[0]: line 0, nothing known */
    size_t nepochs, capepochs;
    size_t ncommands; /* zpool, zfs, hdparm and fio commands seen */
    char *title;      /* the first line when it is prose, or NULL */
    long title_line;
};

/* Read buf's pasted zpool/zfs/hdparm commands in order (see
 * docs/experiment-context.md). Release out with pb_cmd_notes_release. */
void pb_cmd_scan(const char *buf, size_t len, struct pb_cmd_notes *out);
void pb_cmd_notes_release(struct pb_cmd_notes *n);
/* Set o->title to the first line s (n bytes, at line) when it is a title
 * (title.c): prose, not output, at most 200 bytes of UTF-8. */
void pb_cmd_take_title(struct pb_cmd_notes *o, const char *s, size_t n,
                       long line);
/* The epoch in force at line (1-based; 0 = end of input). */
const struct pb_cmd_epoch *pb_cmd_epoch_at(const struct pb_cmd_notes *n,
                                           long line);

/* cls[e] = the first epoch whose dimensions equal those of epoch e (one
 * setup: the same dimensions in force); caller frees. (context.c) */
size_t *pb_cmd_epoch_classes(const struct pb_cmd_notes *nt);

/* ==== which label and dimensions a source's configurations get
 * (context.c) ==== */

/* Label, commands, title and path applied to a freshly parsed set, before
 * the generic label rules and --set (see pb_ingest_buffer). */
void pb_ingest_context(struct pb_resultset *set, const char *buf,
                       size_t len, const struct pb_ingest_opts *opts);

#endif
