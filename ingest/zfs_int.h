/* Private to the zfs-props parser (zfs_props.c: zfs get/list and the
 * parse driver; zpool_status.c: zpool status and vdev trees; zfs_common.c:
 * property tables, lines, tokens, values). Nothing else includes it. */
#ifndef PB_ZFS_INT_H
#define PB_ZFS_INT_H

#include "ingest/ingest_int.h"

#include <stdint.h>

/* ==== property tables (zfs_common.c) ==== */

enum vkind { V_SIZE, V_RATIO, V_PCT, V_COUNT };

struct mdef {
    const char *prop; /* property name = metric name */
    const char *unit;
    int dir;
    enum vkind kind;
};

/* Dataset metrics in slot order, then pool metrics; error counters follow
 * the pool metrics in an object's slots. */
enum { DSM_RATIO, DSM_USED, DSM_LUSED, DSM_REFER, DSM_AVAIL, N_DSM };
enum { N_PM = 6 };
#define MAX_M 12 /* slots per object: N_PM + 3 error counters */

extern const struct mdef pb_zfs_ds_metrics[N_DSM];
extern const struct mdef pb_zfs_pool_metrics[N_PM];
extern const char *const pb_zfs_err_metrics[3];
/* vdev class headings: logs, log, cache, spares, ...; NULL-terminated */
extern const char *const pb_zfs_class_names[];

/* 1 when s[0..n) is one of the NULL-terminated list. */
int pb_zfs_in_list(const char *const *list, const char *s, size_t n);
int pb_zfs_is_zpool_only(const char *s, size_t n);
int pb_zfs_is_zfs_only(const char *s, size_t n);
int pb_zfs_is_known_prop(const char *s, size_t n);
/* Property name syntax: native (a-z0-9_), feature@x, user props a:b. */
int pb_zfs_is_prop_name(const char *s, size_t n);

/* ==== lines and tokens ==== */

struct line {
    char *s; /* NUL-terminated, '\r' stripped; points into ctx->text */
    long no; /* 1-based */
};

struct tok {
    const char *s; /* into the line; not NUL-terminated */
    size_t n;
    size_t off; /* offset in the line */
};

struct toks {
    struct tok *t;
    size_t n, cap;
};

/* Words separated by blanks; fields separated by single tabs (-H). */
void pb_zfs_split_ws(const char *line, struct toks *tk);
void pb_zfs_split_tabs(const char *line, struct toks *tk);
int pb_zfs_tokeq(const struct tok *t, const char *s);
int pb_zfs_is_blank(const char *s);
/* Display column of the first non-blank char (tabs to multiples of 8). */
int pb_zfs_indent_of(const char *s);
/* A `zpool status` field line such as "  pool: tank" or "config:"; on
 * success key/klen name the word, val the rest. */
int pb_zfs_status_key(const char *s, const char **key, size_t *klen,
                      const char **val);
/* status_key() with the word `want`; val may be NULL. */
int pb_zfs_is_key(const char *s, const char *want, const char **val);
/* Shell prompts, comments and zfs/zpool commands between outputs. */
int pb_zfs_is_prompt(const struct toks *tk);

enum hkind { H_NONE, H_GET, H_ZFS_LIST, H_ZPOOL_LIST, H_STATUS_CFG };

/* What a line of words starting with NAME is a header of. */
enum hkind pb_zfs_header_kind(const struct toks *tk);

/* ==== objects and the parse context ==== */

enum okind { O_DS, O_POOL };

struct obj {
    int kind;
    const char *name; /* arena */
    size_t config;
    int have[MAX_M];
    double v[MAX_M];
    long line[MAX_M];
    int have_tree; /* pool: layout known */
    /* dataset: sizes that are no metric but decide actual_savings */
    int have_lref, have_ubrr;
    double lref, ubrr; /* logicalreferenced, usedbyrefreservation */
};

struct getrow {
    const char *name, *prop, *value; /* scratch arena */
    long line, col;
};

/* Lines no output poolbench reads took: first..last, and what they are. */
struct zskip {
    long first, last;
    const char *what; /* "df", "zpool iostat", "unknown"; scratch arena */
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    char *text; /* writable copy of the input */
    struct line *lines;
    size_t nlines, caplines;
    int unterminated; /* the last line has no '\n' */
    struct pb_arena scratch;
    struct obj *objs;
    size_t nobjs, capobjs;
    size_t last_obj;
    size_t *ix; /* objs by kind and name: index + 1, 0 = empty */
    size_t ixcap;
    struct toks tk;
    struct getrow *rows;
    size_t nrows, caprows;
    long first_section; /* line of the first recognised output */
    struct zskip *skips;
    size_t nskips, capskips;
    int skip_open;       /* the last skipped range may grow */
    const char *cur_cmd; /* command of the last prompt line; scratch */
    const char *columns; /* ingest --columns: names of -H columns; NULL */
};

/* The dataset or pool named name[0..n), or NULL. */
struct obj *pb_zfs_find_obj(struct ctx *c, int kind, const char *name,
                            size_t n);
/* The dataset or pool named name[0..n), made (with its config) when new. */
struct obj *pb_zfs_get_obj(struct ctx *c, int kind, const char *name, size_t n);
/* Value of a config dimension, or NULL. */
const char *pb_zfs_cfg_get(const struct pb_resultset *set, size_t config,
                           const char *key);

/* ==== values ==== */

/* "", "-" and "none" */
int pb_zfs_absent(const char *v);
/* Number with an optional suffix char (x or %), nothing else; 0 or -1. */
int pb_zfs_parse_plain(const char *s, char suffix, double *out);
/* A value of the kind; 0 or -1. */
int pb_zfs_parse_value(enum vkind kind, const char *s, double *out);
/* dst[0..n] = lower-case copy of src[0..n), NUL-terminated. */
void pb_zfs_lower_copy(char *dst, const char *src, size_t n);
/* Store one property of a dataset or pool: metric, dimension or fact.
 * PB_OK, or PB_EINPUT with c->err naming line and col. */
int pb_zfs_put_prop(struct ctx *c, int kind, const char *name, const char *prop,
                    const char *value, long line, long col);
/* Property named by a `zfs list` / `zpool list` column header. */
const char *pb_zfs_list_col(struct ctx *c, const struct tok *t);
const char *pb_zfs_pool_col(struct ctx *c, const struct tok *t);

/* ==== zpool status and vdev trees (zpool_status.c) ==== */

/* Class of a vdev class heading ("logs", "cache", ...), or -1. */
int pb_zfs_class_of(const char *s, size_t n);
/* A `zpool status` block starting at its "pool:" line p; *next is the
 * first line after it. */
int pb_zfs_status_block(struct ctx *c, size_t p, size_t *next);
/* Re-read a `zpool list -v` table (header h, rows up to end) for the
 * vdev rows under each pool. */
void pb_zfs_pool_list_tree(struct ctx *c, size_t h, size_t end);

/* ==== -H output without a header (zfs_headerless.c) ==== */

/* Lines of `zfs list -H` and `zpool list -H` with their default columns,
 * and tab-separated rows of a name and sizes (some -H -o list). */
int pb_zfs_h_list_line(const char *s, struct toks *tk);
int pb_zfs_h_pool_line(const char *s, struct toks *tk);
int pb_zfs_h_tabbed_line(const char *s, struct toks *tk);
/* When line i starts -H output (default columns, or any with
 * c->columns): read its rows, set *rc and *next, and return 1; rows no
 * --columns names give *rc = PB_EINPUT ("zfs list -H output without a
 * header: pass --columns NAME,..."). 0 when line i is no -H output. */
int pb_zfs_headerless(struct ctx *c, size_t i, size_t *next, int *rc);

/* ==== combined logs (zfs_sections.c) ==== */

/* The name of a known output poolbench does not read ("df", "zpool
 * iostat", "uptime", ...) when the line of words tk is its header or a
 * line only it prints; else NULL. Tables end there. */
const char *pb_zfs_foreign(const struct toks *tk, const char *line);
/* 1 when t can start a row of a pool or dataset (a letter first). */
int pb_zfs_name_shaped(const struct tok *t);
/* A recognised output starts: the next skipped line opens a new range. */
void pb_zfs_section_found(struct ctx *c);
/* Line L is no output poolbench reads: add it to the skipped ranges. */
void pb_zfs_junk_line(struct ctx *c, const struct line *L);
/* Store the skipped ranges as the fact `skipped_lines` (host NULL),
 * "12-19 (df), 20-25 (unknown)"; nothing when none. */
void pb_zfs_skipped_fact(struct ctx *c);

#endif
