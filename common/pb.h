/* Shared helpers used by every module: error codes and the error struct,
 * allocation that aborts on failure, a growable string buffer, an arena
 * that owns many small strings, and parsing of human sizes and durations.
 *
 * Use:
 *   1. declare `struct pb_err err = {0};` and pass &err to fallible calls;
 *   2. on a non-zero return, print it with pb_err_print();
 *   3. map err.code to an exit status with pb_err_exit_code().
 *
 * Two kinds of message share struct pb_err (one error convention for
 * every module, run/ included). pb_err_set() is for a parser's or a
 * library's one-line message: it keeps at most PB_ERR_SHORT - 1 bytes
 * and turns control characters into spaces. pb_err_say() is for the
 * run's messages, which quote a tool's own words (the first line of its
 * stderr, a path, a command): it keeps up to PB_ERR_MSG - 1 bytes as
 * they are, and whoever prints them escapes them (pb_err_print and
 * pb_fput_term do). msg is sized for the longer kind; the shorter
 * limit keeps every parser message exactly as it was.
 */
#ifndef PB_COMMON_H
#define PB_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PB_WUR __attribute__((warn_unused_result))
#define PB_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ==== errors ==== */

enum pb_code {
    PB_OK = 0,
    PB_EUSAGE, /* bad command line */
    PB_EINPUT, /* an input file is wrong */
    PB_EDB,    /* database cannot be opened or written */
    PB_ERUN,   /* an external tool failed */
    PB_EIO,    /* reading or writing a file failed */
    PB_EDUP,   /* not an error for callers: source already ingested */
    PB_EFORMAT, /* an input of no supported format (empty, notes, a job
                   file, a picture): like PB_EINPUT, but `ingest
                   --skip-unknown` passes over it */
    PB_ESKIP    /* not an error: an input that holds nothing by design (an
                   empty fio log), skipped with a note */
};

#define PB_ERR_SHORT 256  /* pb_err_set: a parser's one-line message */
#define PB_ERR_MSG   1024 /* pb_err_say: a run message quoting a tool */

struct pb_err {
    int code;
    char path[256]; /* input file, not the .c file */
    long line, col; /* 1-based; 0 = unknown */
    char msg[PB_ERR_MSG];
};

/* Fill err unless it already holds an error (the first one wins).
 * Returns code, so callers can write `return pb_err_set(...)`. */
int pb_err_set(struct pb_err *err, int code, const char *path, long line,
               long col, const char *fmt, ...) PB_PRINTF(6, 7);
int pb_err_vset(struct pb_err *err, int code, const char *path, long line,
                long col, const char *fmt, va_list ap);

/* Fill err (unless it already holds an error) with a message kept as it
 * is, control characters included, up to PB_ERR_MSG - 1 bytes; no path
 * or position. For messages that quote another program's words (run/).
 * Returns code. */
int pb_err_say(struct pb_err *err, int code, const char *fmt, ...)
    PB_PRINTF(3, 4);

/* Forget a previous error so err can be reused. */
void pb_err_clear(struct pb_err *err);

/* Print "poolbench: path:line:col: msg" (parts that are unknown left out). */
void pb_err_print(const struct pb_err *err, FILE *fp);

/* Exit status for a PB_E* code (docs/model.md, "Exit codes"): 0, 1 input,
 * 2 usage, 3 env. */
int pb_err_exit_code(int code);

/* ==== memory ==== */

/* Allocation that aborts the process when memory runs out. */
void *pb_xmalloc(size_t n);
void *pb_xcalloc(size_t n, size_t size);
void *pb_xrealloc(void *p, size_t n);
char *pb_xstrdup(const char *s);
char *pb_xstrndup(const char *s, size_t n);
/* printf into a new heap string; caller frees. */
char *pb_xasprintf(const char *fmt, ...) PB_PRINTF(1, 2);

/* Grow *arr (element size `size`) so that it holds at least `need`
 * elements; *cap is updated. */
void pb_grow(void **arr, size_t *cap, size_t need, size_t size);
#define PB_GROW(arr, cap, need)                                              \
    pb_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* ==== string buffer ==== */

struct pb_buf {
    char *s;    /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
};
#define PB_BUF_INIT {NULL, 0, 0}

void pb_buf_add(struct pb_buf *b, const char *s, size_t n);
void pb_buf_puts(struct pb_buf *b, const char *s);
void pb_buf_putc(struct pb_buf *b, char c);
void pb_buf_printf(struct pb_buf *b, const char *fmt, ...) PB_PRINTF(2, 3);
void pb_buf_reset(struct pb_buf *b);
/* The string, never NULL ("" when empty); owned by b. */
const char *pb_buf_str(const struct pb_buf *b);
/* Take the string; b is reset; caller frees. */
char *pb_buf_take(struct pb_buf *b);
void pb_buf_release(struct pb_buf *b);

/* ==== arena: many small strings freed in one call ==== */

struct pb_arena {
    struct pb_arena_block *head;
};

void pb_arena_init(struct pb_arena *a);
void pb_arena_release(struct pb_arena *a);
/* Everything allocated goes; one block is kept for what comes next. */
void pb_arena_reset(struct pb_arena *a);
void *pb_arena_alloc(struct pb_arena *a, size_t n);
/* Copies owned by the arena; NULL in gives NULL out. */
char *pb_arena_strdup(struct pb_arena *a, const char *s);
char *pb_arena_strndup(struct pb_arena *a, const char *s, size_t n);
char *pb_arena_printf(struct pb_arena *a, const char *fmt, ...)
    PB_PRINTF(2, 3);

/* ==== units ==== */

/* Parse a size such as "4k", "128K", "1m", "4KiB", "1.5G", "512" into bytes.
 * Suffixes are binary (k = 1024) as fio and ZFS use them; "kB"/"KB" with an
 * explicit B are also taken as 1024 unless `si_with_b` is set, then 1000.
 * Returns 0 on success, -1 when s is not a size. */
int pb_parse_size(const char *s, int si_with_b, double *out) PB_WUR;

/* Parse a duration with fio's rules: a bare number is `default_unit_ns`
 * (1e9 for seconds), suffixes us/ms/s/m/h/d. Result in ns. 0 or -1. */
int pb_parse_duration(const char *s, double default_unit_ns,
                      double *out) PB_WUR;

/* The decimal s[0 .. n) ("-12", "3.25") as the double strtod would give,
 * without strtod, when it is digits with an optional minus and fraction,
 * 15 digits at most (then mantissa and power of ten are exact doubles and
 * one division rounds correctly). Returns 0, or -1 for anything else
 * (exponents, long numbers, non-numbers): the caller asks strtod. */
int pb_dec_fast(const char *s, size_t n, double *out) PB_WUR;

/* Length of the valid UTF-8 sequence at s (at most n bytes looked at), or
 * 0: overlong forms, surrogates (U+D800..DFFF) and code points above
 * U+10FFFF are invalid. A NUL-terminated string may pass n = 4: a NUL is
 * no continuation byte, so nothing past it is read. */
size_t pb_utf8_len(const unsigned char *s, size_t n);

/* In an array of n elements of `size` bytes sorted by a long long id at
 * byte offset `off`, the index of the first element whose id is >= id
 * (n when none): where the rows of one owner begin. */
size_t pb_lower_bound_id(const void *base, size_t n, size_t size, size_t off,
                         long long id);

/* Write s for a terminal or a one-line message: control characters (C0,
 * DEL, the C1 range U+0080..U+009F) and bytes that are not UTF-8 become
 * \n, \r, \t or \xHH, so a job or file name cannot move the cursor, change
 * colours or start a new line. NULL writes nothing. */
void pb_fput_term(const char *s, FILE *fp);
/* The same into a new string; caller frees. */
char *pb_term_str(const char *s);

/* Format a byte count as a short size ("4k", "128k", "1M"); the form used in
 * test names. Writes into buf (at least 32 bytes). */
const char *pb_fmt_size(double bytes, char *buf, size_t n);

/* Format a double the way values are printed everywhere (%.17g trimmed:
 * shortest form that round-trips). buf at least 32 bytes. */
const char *pb_fmt_num(double v, char *buf, size_t n);

/* ==== files ==== */

/* Largest input poolbench reads (bigger files are refused, not truncated). */
#define PB_MAX_INPUT ((size_t)512 * 1024 * 1024)

/* Read a whole file ("-" = stdin) into a NUL-terminated heap buffer.
 * Refuses files larger than PB_MAX_INPUT, and (opened by pb_open_input,
 * common/pb_file.h) anything but a regular file: a FIFO or a device
 * cannot block it. Caller frees *out. (common/file.c) */
int pb_read_file(const char *path, char **out, size_t *len,
                 struct pb_err *err) PB_WUR;

/* Hex SHA-256 of a buffer into out (65 bytes). */
void pb_sha256_hex(const void *buf, size_t len, char out[65]);

/* 1-based line number of offset `off` in buf. */
long pb_line_of(const char *buf, size_t off);


/* ==== INI text for inih ==== */

/* inih's fgets-like reader over a text in memory, for ini_parse_stream:
 * it counts lines (the packaged inih passes no line numbers to the
 * handler), says whether the line handed last starts with white space (a
 * continuation) and stops at a line too long for inih's buffer
 * (toolong: its number). Start with {text, 0, 0, 0}. */
struct pb_ini_reader {
    const char *p;
    long line;    /* line handed to inih last */
    int indented; /* it starts with white space */
    long toolong; /* line that does not fit inih's buffer */
};
char *pb_ini_read_line(char *str, int num, void *stream);

/* Times as the facts store them, "YYYY-MM-DD HH:MM:SS" (n >= 20):
 * pb_time_utc of t in UTC; pb_time_ctime of a ctime-style text
 * ("Tue Dec  1 15:53:33 2026", nothing after it), as written. 0, or -1
 * (out unchanged) when it is not such a time. */
int pb_time_utc(long long t, char *out, size_t n);
int pb_time_ctime(const char *s, char *out, size_t n);

#endif
