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

#endif
