/* ingest/lex/: lexing helpers shared by the parsers of every family, below
 * the registry: white space and sniffing (text.c, here) and JSON
 * (json.c, json_scan.c: ingest/lex/json_int.h). Private to ingest/;
 * includes common/ only. */
#ifndef PB_INGEST_LEX_H
#define PB_INGEST_LEX_H

#include <stddef.h>

/* Skip leading whitespace; returns pointer into buf. */
const char *pb_skip_ws(const char *p, const char *end);

/* Case-insensitive search for needle in the first `len` bytes of buf. */
int pb_contains(const char *buf, size_t len, const char *needle);

#endif
