/* Private to ingest/: the parser tables each format file exports, and
 * helpers parsers share. Other modules include ingest.h only. */
#ifndef PB_INGEST_INT_H
#define PB_INGEST_INT_H

#include "ingest/ingest.h"

extern const struct pb_parser pb_parser_fio_json;
extern const struct pb_parser pb_parser_fio_text;
extern const struct pb_parser pb_parser_fio_terse;
extern const struct pb_parser pb_parser_iozone;
extern const struct pb_parser pb_parser_bonnie_csv;
extern const struct pb_parser pb_parser_pts_xml;
extern const struct pb_parser pb_parser_zfs_props;
extern const struct pb_parser pb_parser_table;

/* The table parser with the ingest options (--table-metric). */
int pb_table_parse_opts(const char *path, const char *buf, size_t len,
                        const struct pb_ingest_opts *opts,
                        struct pb_resultset *out, struct pb_err *err);

/* The zfs-props parser with `ingest --columns`: the names of the columns
 * of -H output without a header ("name,used,lused,ratio"). */
int pb_zfs_parse_columns(const char *path, const char *buf, size_t len,
                         const char *columns, struct pb_resultset *out,
                         struct pb_err *err);

/* Skip leading whitespace; returns pointer into buf. */
const char *pb_skip_ws(const char *p, const char *end);

/* Case-insensitive search for needle in the first `len` bytes of buf. */
int pb_contains(const char *buf, size_t len, const char *needle);

/* ==== PTS result descriptions (ingest/pts_desc.c) ==== */

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

#endif
