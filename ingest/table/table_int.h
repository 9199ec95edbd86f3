/* Private to the `table` reader (ingest/table/table*.c): lines split into cells,
 * the names columns and heading keys may have, and numbers as tables write
 * them. docs/table-format.md states every rule. */
#ifndef PB_TABLE_INT_H
#define PB_TABLE_INT_H

#include "ingest/ingest_int.h"

#include <stdint.h>

/* ==== lines ==== */

struct tb_line {
    const char *s;  /* the text, \r stripped; NUL-terminated in a window */
    size_t n;
    long no;        /* 1-based */
    const char *at; /* where the line starts in the input */
};

/* Lines read one at a time from buf (a UTF-8 BOM at its start skipped); a
 * line longer than maxline reads as empty (the sniffer's bound). */
struct tb_reader {
    const char *p, *end;
    long no;
    size_t maxline;
};
void tb_reader_init(struct tb_reader *r, const char *buf, size_t len,
                    size_t maxline);
/* The next line into *l (l->s points into the input: not
 * NUL-terminated); 0 at the end of the input. */
int tb_read(struct tb_reader *r, struct tb_line *l);
/* r reads from line l on (l from a reader of the same input, like). */
void tb_reader_from(struct tb_reader *r, const struct tb_reader *like,
                    const struct tb_line *l);

/* The lines a parse looks around a place: a window of NUL-terminated
 * copies of lines [base, base + n), read ahead when asked for, so that
 * a file's memory does not grow with its lines (docs/table-format.md,
 * "Large tables"). */
struct tb_lines {
    struct tb_line *v;
    size_t n, cap;
    size_t base;          /* the index of v[0] */
    struct tb_reader rd;  /* reads line base + n */
    struct tb_line nb;    /* the last non-blank line forgotten (a copy) */
    size_t nb_idx;
    int has_nb;
};
void tb_lines_init(struct tb_lines *w, const char *buf, size_t len,
                   size_t maxline);
/* Line i (i >= base), NULL past the end. Reading further lines may move
 * the records: pointers from earlier calls are then stale. */
const struct tb_line *tb_line_at(struct tb_lines *w, size_t i);
/* Forget the lines before i (the last non-blank one stays in nb). */
void tb_lines_forget(struct tb_lines *w, size_t i);
/* Forget every line and go on from line i, which r is about to read. */
void tb_lines_restart(struct tb_lines *w, size_t i, const struct tb_reader *r);
void tb_lines_release(struct tb_lines *w);

/* Only white space. */
int tb_blank(const struct tb_line *l);

/* Printable excerpt of s (at most about max bytes, valid UTF-8, control
 * characters as '?'), for messages and origins; lives in arena a. */
const char *tb_excerpt(struct pb_arena *a, const char *s, size_t max);

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
enum tb_delim {
    TB_PIPE = '|',
    TB_TAB = '\t',
    TB_SEMI = ';',
    TB_COMMA = ',',
    TB_WS = ' '
};

/* The delimiter a header line s[0..n) uses: a leading '|' is Markdown, a
 * tab TSV, a semicolon or a comma CSV (';' first: spreadsheets that write
 * decimal commas separate with it), anything else whitespace-aligned. */
enum tb_delim tb_delim_of(const char *s, size_t n);

/* Split s[0..n) with delimiter d into out (reset first). TB_WS splits at
 * white space and joins a unit token ("MiB/s", "x", "ms") to the number
 * before it. Quotes are honoured for TB_COMMA and TB_SEMI; Markdown drops the
 * outer pipes. Cell strings live in arena a. */
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
    int zfs;       /* a ZFS space metric (test "zfs space") */
    int needs_dir; /* "IOPS", "BW", "lat": the direction comes from
                      rw */
    double hmult;  /* unit given in the header: "BW (MiB/s)"; 0 = none */
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
int tb_map_column(const char *text, const struct tb_custom *cust, size_t ncust,
                  struct tb_colname *out);

/* Could the word s[0..len) start a built-in column name ("Write" of
 * "Write IOPS", "volblocksize")? A cheap test before mapping a line. */
int tb_name_start(const char *s, size_t len);

/* Kinds of dimension key. */
enum tb_keykind { TB_K_NONE, TB_K_CONFIG, TB_K_TEST, TB_K_SYNC };

/* Canonical key for a dimension name (case-insensitive, aliases such as
 * "compress"), or NULL. *kind says config or test. */
const char *tb_dim_key(const char *name, enum tb_keykind *kind);

/* ==== dimensions ==== */

/* A dimension: canonical key, value as written and normalised (sizes in
 * bytes, lower case), its origin ("title: ..."; NULL = a cell). */
struct tb_dim {
    const char *key, *raw, *norm, *origin;
    int is_test; /* a test parameter, not a configuration dimension */
};

struct tb_dimlist {
    struct tb_dim *v;
    size_t n, cap;
};

/* Add x, replacing a dimension with the same key. */
void tb_dl_put(struct tb_dimlist *d, const struct tb_dim *x);
const struct tb_dim *tb_dl_get(const struct tb_dimlist *d, const char *key);

int tb_in_list(const char *s, const char *const *l);

/* Keys whose values are sizes; test keys in the order test names list
 * them. NULL-terminated. */
extern const char *const tb_size_keys[];
extern const char *const tb_test_order[];

/* The dimension named `name` with value text `raw` (checked: sizes,
 * integers, rw modes). Returns 0, 1 when name is no dimension key, or -1
 * with why[] filled. Strings live in arena a. */
int tb_make_dim(struct pb_arena *a, const char *name, const char *raw,
                const char *origin, struct tb_dim *out, char *why, size_t nwhy);

/* ==== values ==== */

/* The decimal mark the number in s shows beyond doubt: ',' for "2,17x",
 * '.' for "41.2" or "1,234.5", 0 when it shows none ("812", "1.267",
 * "1,812": one separator before exactly three digits). */
char tb_decimal_hint(const char *s);

/* Read the cell text s as a value of kind vk (hmult: unit from the header,
 * 0 = none; conv: the table's decimal mark, 0 = unknown, which reads
 * "1.267" as a decimal and refuses "1,812" as ambiguous). Returns 0 with
 * *out set, 1 for an empty cell ("", "-", "n/a"), -1 with why[] filled for
 * anything else. */
int tb_value(const char *s, enum tb_vkind vk, double hmult, char conv,
             double *out, char *why, size_t nwhy);

/* Parse a --table-metric spec HEADER=METRIC:UNIT:higher|lower. 0 or -1
 * with why[] filled. On success the strings of out are heap copies: free
 * with tb_custom_release. */
int tb_custom_parse(const char *spec, struct tb_custom *out, char *why,
                    size_t nwhy);
void tb_custom_release(struct tb_custom *c);

/* ==== one parse ==== */

/* A column of a table: what its header means, and the dimensions of the
 * heading cells spanning it. */
struct tb_col {
    struct tb_colname nm;
    const char *title;
    long off;
    struct tb_dimlist group; /* from heading cells spanning this column */
};

/* One parse (or sniff) of a buffer. */
struct tb_ctx {
    const char *path;
    const char *base; /* file name for labels */
    struct pb_resultset *set;
    struct pb_err *err;
    const struct tb_custom *cust;
    size_t ncust;
    struct pb_arena a;
    struct pb_arena row;   /* strings of the row being read, freed after it */
    struct tb_lines lines;
    struct tb_cells cells; /* scratch */
    size_t used;           /* lines that belong to tables */
    int ntables;
};

/* Is line l a heading (every word key=value) for a table of delimiter d?
 * Its cells in hc; *spans: they span column groups. */
int tb_heading_cells(struct tb_ctx *c, const struct tb_line *l, enum tb_delim d,
                     struct tb_cells *hc, int *spans);

/* Apply heading line l to the table's columns, or to `whole`. PB_OK or
 * PB_EINPUT (c->err filled: unknown key, bad value). */
int tb_apply_heading(struct tb_ctx *c, const struct tb_line *l, enum tb_delim d,
                     struct tb_col *cols, size_t ncols,
                     struct tb_dimlist *whole);

/* key=value words of known keys in prose line l into `whole`. */
int tb_sentence_dims(struct tb_ctx *c, const struct tb_line *l,
                     struct tb_dimlist *whole);

#endif
