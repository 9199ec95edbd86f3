/* Private to the `table` reader (ingest/table*.c): lines split into cells,
 * the names columns and heading keys may have, and numbers as tables write
 * them. docs/table-format.md states every rule. */
#ifndef PB_TABLE_INT_H
#define PB_TABLE_INT_H

#include "ingest/ingest_int.h"

#include <stdint.h>

/* ==== cells ==== */

/* One cell of a split line: a trimmed copy (in the caller's arena) and the
 * byte offset of its first character in the line. */
struct tb_cell {
    const char *s;
    long off;
};

struct tb_cells {
    struct tb_cell *v;
    size_t n, cap;
};

/* How the cells of a table are separated: decided by its header line. */
enum tb_delim { TB_PIPE = '|', TB_TAB = '\t', TB_COMMA = ',', TB_WS = ' ' };

/* The delimiter a header line s[0..n) uses: a leading '|' is Markdown, a
 * tab TSV, a comma CSV, anything else whitespace-aligned. */
enum tb_delim tb_delim_of(const char *s, size_t n);

/* Split s[0..n) with delimiter d into out (reset first). TB_WS splits at
 * white space and joins a unit token ("MiB/s", "x", "ms") to the number
 * before it. Quotes are honoured for TB_COMMA; Markdown drops the outer
 * pipes. Cell strings live in arena a. */
void tb_split(const char *s, size_t n, enum tb_delim d, struct tb_cells *out,
              struct pb_arena *a);

/* A Markdown separator row (|---|:--:|). */
int tb_is_md_rule(const struct tb_cells *c);

/* At least half of the non-empty cells start like a number, and one does. */
int tb_row_like(const struct tb_cells *c);

/* ==== names ==== */

/* The measure of a metric column: how its cells are read. */
enum tb_vkind {
    TB_V_OPS,   /* count per second, k/M/G suffixes (x1000) */
    TB_V_BW,    /* bytes/s: KiB/s MiB/s (binary), kB/s MB/s (SI) */
    TB_V_LAT,   /* duration: ns us ms s */
    TB_V_SIZE,  /* bytes: K M G T (binary, as ZFS prints) */
    TB_V_RATIO, /* 1.99x */
    TB_V_PCT,   /* 12% */
    TB_V_NUM    /* plain number, k/M/G suffixes */
};

/* What a header cell means. */
struct tb_colname {
    int is_dim;         /* a dimension (key) or a metric */
    const char *key;    /* dimension key ("volblocksize") */
    const char *metric; /* full metric name, or the measure ("iops") when
                           ddir is NULL and the name needs a direction */
    const char *ddir;   /* "read", "write", "trim" or NULL */
    const char *rw;     /* rw the column itself implies, or NULL */
    const char *unit;
    int direction;
    enum tb_vkind vk;
    int zfs;            /* a ZFS space metric (test "zfs space") */
    int needs_dir;      /* "IOPS", "BW", "lat": the direction comes from
                           rw */
    double hmult;       /* unit given in the header: "BW (MiB/s)"; 0 = none */
};

/* A --table-metric column, parsed. */
struct tb_custom {
    char *norm;   /* header, normalised (tb_norm_name) */
    char *metric; /* metric name */
    char *unit;
    int direction;
    enum tb_vkind vk;
};

/* Lower-case s without spaces, '_' and '-' ("Write IOPS" -> "writeiops").
 * Writes at most n-1 bytes into buf. */
void tb_norm_name(const char *s, char *buf, size_t n);

/* Map header text to a column; customs first. Returns 1 when known. */
int tb_map_column(const char *text, const struct tb_custom *cust,
                  size_t ncust, struct tb_colname *out);

/* Kinds of dimension key. */
enum tb_keykind { TB_K_NONE, TB_K_CONFIG, TB_K_TEST, TB_K_SYNC };

/* Canonical key for a dimension name (case-insensitive, aliases such as
 * "compress"), or NULL. *kind says config or test. */
const char *tb_dim_key(const char *name, enum tb_keykind *kind);

/* ==== values ==== */

/* Read the cell text s as a value of kind vk (hmult: unit from the header,
 * 0 = none). Returns 0 with *out set, 1 for an empty cell ("", "-", "n/a"),
 * -1 with why[] filled for anything else. */
int tb_value(const char *s, enum tb_vkind vk, double hmult, double *out,
             char *why, size_t nwhy);

/* Parse a --table-metric spec HEADER=METRIC:UNIT:higher|lower. 0 or -1
 * with why[] filled. On success the strings of out are heap copies: free
 * with tb_custom_release. */
int tb_custom_parse(const char *spec, struct tb_custom *out, char *why,
                    size_t nwhy);
void tb_custom_release(struct tb_custom *c);

#endif
