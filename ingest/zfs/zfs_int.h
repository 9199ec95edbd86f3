/* Private to the zfs-props parser (zfs_props.c: zfs get/list and the
 * parse drivers, whole and streamed; zpool_status.c: zpool status and vdev
 * trees; zfs_lines.c: lines read from the input; zfs_objects.c: objects,
 * facts, emit; zfs_common.c: property tables, tokens, values). Nothing
 * else includes it. */
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
/* Dataset sizes that decide actual_savings: logicalreferenced,
 * usedbyrefreservation, usedbychildren, reservation, refreservation. */
enum { SP_LREF, SP_UBRR, SP_UBC, SP_RESV, SP_REFRESV, N_SP };
extern const char *const pb_zfs_space_props[N_SP];
#define MAX_M 12 /* slots per object: N_PM + 3 error counters */

extern const struct mdef pb_zfs_ds_metrics[N_DSM];
extern const struct mdef pb_zfs_pool_metrics[N_PM];
extern const char *const pb_zfs_err_metrics[3];

/* 1 when s[0..n) is one of the NULL-terminated list. */
int pb_zfs_in_list(const char *const *list, const char *s, size_t n);
int pb_zfs_is_zpool_only(const char *s, size_t n);
int pb_zfs_is_zfs_only(const char *s, size_t n);
int pb_zfs_is_known_prop(const char *s, size_t n);
/* Property name syntax: native (a-z0-9_), feature@x, user props a:b. */
int pb_zfs_is_prop_name(const char *s, size_t n);

/* ==== lines and tokens ==== */

struct line {
    const char *s; /* NUL-terminated, '\r' stripped; a slot of the ring */
    long no;       /* 1-based */
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
    const char *name; /* c->set's arena */
    size_t config;
    double v[MAX_M];
    unsigned char have[MAX_M];
    unsigned char kind;
    /* dataset: sizes that are no metric but decide actual_savings
     * (zfs_savings.c), and its type: 'f' filesystem, 'v' volume, 0 not
     * said */
    unsigned char have_sp[N_SP];
    double sp[N_SP];
    char dstype;
    /* facts: "property\0value\0" pairs in the order given, repeats kept
     * until they take more than twice fbkeep (pb_rs_fact keeps the first
     * place and the last value); fact_pos is c->pos when the last one
     * came (zfs_objects.c) */
    char *fb;
    size_t fbn, fbcap, fbkeep;
    size_t fact_pos;
    unsigned char has_facts;
    unsigned char facts_out; /* written to c->out */
};

/* Lines are read from the input on demand into a ring of slots
 * (zfs_lines.c): a line stays valid until PB_ZFS_RING other lines were
 * read after it. */
#define PB_ZFS_RING 4096
struct lslot {
    size_t idx; /* line index + 1; 0: empty */
    char *s;
    size_t cap;
    struct line L;
};

/* Lines no output poolbench reads took: first..last, and what they are. */
struct zskip {
    long first, last;
    const char *what; /* "df", "zpool iostat", "unknown"; scratch arena */
};

struct ctx {
    const char *path;
    /* objects' configs and dimensions, never flushed; copied to out at
     * emit (zfs_objects.c) */
    struct pb_resultset *set;
    struct pb_resultset *out; /* the caller's: facts, configs, results */
    struct pb_err *err;
    /* the input, read a line at a time (zfs_lines.c) */
    const char *buf;
    size_t len;
    size_t nlines;
    int unterminated; /* the last line has no '\n' */
    struct lslot *ring;
    size_t cur_i, cur_off; /* the next line read in order, its offset */
    size_t released;       /* input pages before it let go (streamed) */
    size_t *ck;            /* offset of line k * PB_ZFS_CK */
    size_t nck, capck;
    /* the highest line number stored from so far (pb_zfs_at): a table
     * re-read or a pool's facts after its rows do not move it back */
    size_t pos;
    /* facts (zfs_objects.c): pass A of a streamed parse only notes where
     * each object's last fact comes; order lists the objects by it */
    int facts_off;
    int streamed;
    struct zord {
        size_t pos, idx; /* fact_pos (of pass A), object index */
    } *order;
    size_t norder, next_order;
    size_t nemitted; /* results made by emit */
    struct pb_arena scratch; /* reset at each section */
    struct pb_arena row;     /* reset at each row */
    struct pb_arena keep;    /* for the whole parse: skipped ranges */
    struct obj *objs;
    size_t nobjs, capobjs;
    size_t last_obj;
    size_t *ix; /* objs by kind and name: index + 1, 0 = empty */
    size_t ixcap;
    struct toks tk;
    long first_section; /* line of the first recognised output */
    struct zskip *skips;
    size_t nskips, capskips;
    int skip_open;       /* the last skipped range may grow */
    const char *cur_cmd; /* command of the last prompt line; keep */
    const char *columns; /* ingest --columns: names of -H columns; NULL */
};

/* ==== lines (zfs_lines.c) ==== */

#define PB_ZFS_CK 256 /* lines between checkpoints */

/* Count the lines of buf (PB_EINPUT at a NUL byte) and get ready to read
 * them. */
int pb_zfs_lines_open(struct ctx *c, const char *buf, size_t len);
void pb_zfs_lines_close(struct ctx *c);
/* Line i (< c->nlines). */
const struct line *pb_zfs_line(struct ctx *c, size_t i);
/* Byte offset where the line read last ends (for pb_rs_flush). */
const char *pb_zfs_read_upto(const struct ctx *c);
/* What is stored next comes from line no (1-based): c->pos moves on. */
static inline void pb_zfs_at(struct ctx *c, long no)
{
    if (no > 0 && (size_t)no > c->pos)
        c->pos = (size_t)no;
}

/* ==== objects, facts and emit (zfs_objects.c) ==== */

/* FNV-1a of s[0..n), its offset basis xor seed: the parser's hash tables. */
uint64_t pb_zfs_hash(uint64_t seed, const char *s, size_t n);

/* A fact of object o: key "<dataset>:<prop>" or "pool:<pool>:<prop>". */
void pb_zfs_fact(struct ctx *c, struct obj *o, const char *prop,
                 const char *value);
/* A point between rows: in pass B of a streamed parse, the facts of the
 * objects that get no more are written and a part stored when due. */
int pb_zfs_flush_point(struct ctx *c);
/* Objects by (fact_pos, index), for pass B or the end. */
void pb_zfs_fact_order(struct ctx *c, const struct obj *objs, size_t n);
/* Every fact not yet written, then configs and results per object. */
int pb_zfs_emit(struct ctx *c);
/* 1 when emit would make a result. */
int pb_zfs_has_results(const struct ctx *c);

/* The dataset or pool named name[0..n), or NULL. */
struct obj *pb_zfs_find_obj(struct ctx *c, int kind, const char *name,
                            size_t n);
/* The dataset or pool named name[0..n), made (with its config) when new. */
struct obj *pb_zfs_get_obj(struct ctx *c, int kind, const char *name, size_t n);
/* Value of a config dimension, or NULL. */
const char *pb_zfs_cfg_get(const struct pb_resultset *set, size_t config,
                           const char *key);

/* ==== values ==== */

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

/* A `zpool status` block starting at its "pool:" line p; *next is the
 * first line after it. */
int pb_zfs_status_block(struct ctx *c, size_t p, size_t *next);
/* Re-read a `zpool list -v` table (header h, rows up to end) for the
 * vdev rows under each pool. */
void pb_zfs_pool_list_tree(struct ctx *c, size_t h, size_t end);

/* ==== actual_savings (zfs_savings.c) ==== */

/* What a dataset's actual_savings is: ratio, and basis the formula it
 * divides by (the fact <dataset>:actual_savings_basis); basis NULL: no
 * used and logicalused to say it, none stored; stored 0: left out, basis
 * says why ("left out: ..."). */
struct zsav {
    double ratio;
    const char *basis; /* c->keep or static */
    int stored;
};

/* out[i] for each object c->objs[i] (pools: basis NULL). */
void pb_zfs_savings(struct ctx *c, struct zsav *out);

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
