/* Private to fio_terse.c, fio_terse_tests.c and fio_terse_pass.c: the
 * records of fio terse output and the steps of its one parse (two passes
 * over the buffer, whole or streamed: docs/performance.md "Streaming
 * ingest", fio terse). Nothing else includes it. */
#ifndef PB_FIO_TERSE_INT_H
#define PB_FIO_TERSE_INT_H

#include "ingest/fio/fio_int.h"

#define TAIL_FIELDS 34 /* cpu 5, depths 7, usec 10, msec 12 */

/* One terse record. Strings in the set's arena. */
struct rec {
    struct pb_fio_job job; /* name, run, stats, test */
    const char *version;   /* "fio-3.33"; NULL in v2 */
    const char *tail;      /* disk utilisation etc., "" when none */
    long line;
    long groupid;
    long err;
    /* the record as read: text[0..len), the recno-th record */
    const char *text;
    size_t len;
    long recno;
};

struct field {
    const char *s;
    size_t n;
};

/* A header or group line as sort key; i: its index in c->h. */
struct hkey {
    const char *name;
    long g, line;
    size_t i;
};

/* A job header line of normal output printed next to the terse lines
 * (--output-format=terse,normal), or a "NAME: (groupid=G, jobs=M)" line
 * of its normal section (M: -1). */
struct hline {
    struct pb_fio_hdr h; /* name and groupid only for a group line */
    long line;
    long members; /* jobs=M of a group line; 0 for a header */
};

struct ctx {
    const char *path;
    const char *buf;
    struct pb_resultset *set; /* records' strings; header lines' too */
    struct pb_err *err;
    struct rec *r;
    size_t nr, capr;
    struct hline *h;
    size_t nh, caph;
    /* indexes into h, sorted once the file is read (see sort_lines) */
    struct hkey *by_ngl;  /* headers by name, group, line */
    struct hkey *by_nl;   /* headers by name, line */
    struct hkey *groups;  /* group lines by name, group, line */
    struct hkey *hdr_gid; /* headers by group */
    size_t nhdr, ngroups;
    long errline;
    char errmsg[160];
    long intr_line; /* "fio: terminating on signal 2", 0: none */
    char intr[160];
    struct pb_fio_file *f; /* what ties the file's records together */
};

/* Number in field f (optionally with a trailing '%'); -1 when it is not
 * one. */
int pb_terse_fnum(const struct field *f, int pct, double *out);

/* f is a "12.5%" field (CPU usage: the end of the direction sections). */
int pb_terse_is_pct(const struct field *f);

/* The next line from *p (end: the input's end), trimmed as the parse
 * reads it: 1 with a terse record in s[0..n) (fio's progress text glued
 * before it stripped), 2 with any other line, 0 at the end. */
int pb_terse_next_line(const char **p, const char *end, const char **s,
                       size_t *n);

/* Parse record line[0..len) (line lineno, recno-th record) and append it
 * to c->r. PB_OK or PB_EINPUT (c->err set). */
int pb_terse_parse_line(struct ctx *c, const char *line, size_t len,
                        long lineno, long recno);

/* A line that holds no record: fio's interrupt and error lines, job
 * header and group lines are noted in c; PB_EINPUT for a line of 20+
 * fields (never dropped silently). */
int pb_terse_other_line(struct ctx *c, const char *s, size_t n, long lineno);

/* r->job.usable: r did something and did not fail. */
void pb_terse_set_usable(struct rec *r);

/* ==== header and group lines, tests (fio_terse_tests.c) ==== */

/* s[0..n) is a job header line "NAME: (g=0): rw=..., bs=..., ..." (1,
 * noted in c->h) or not (0). */
int pb_terse_header_line(struct ctx *c, const char *s, size_t n, long line);

/* s[0..n) is a group line "NAME: (groupid=G, jobs=M): ..." (1, noted in
 * c->h) or not (0). */
int pb_terse_group_line(struct ctx *c, const char *s, size_t n, long line);

/* Sort c's header and group lines (once, before pb_terse_build_test). */
void pb_terse_sort_lines(struct ctx *c);

/* Name the test of record e (nclones: records in its run of clones). */
void pb_terse_build_test(struct ctx *c, struct rec *e, size_t nclones);

/* pb_fio_clone_fn over c->r. */
int pb_terse_is_clone(const void *c, size_t ia, size_t ib);
/* pb_fio_ambig_fn over c->r: records of one name, group and run with no
 * disk statistics to tell their runs apart and no normal output to say
 * how fio reported them: clones or repeats cannot be told apart. */
int pb_terse_is_ambiguous(const void *c, size_t i, size_t n);
/* The tests of the group of clones [i, i + n) of c->r (header lines
 * sorted; pb_fio_build_fn), flag.ambiguous_jobs when it may be repeats. */
void pb_terse_build(void *ctx, size_t i, size_t n);
/* pb_terse_build of every group of records [0, k) of c. */
void pb_terse_tests(struct ctx *c, size_t k);
/* 1 when the records of several names of one run are a configuration
 * each (no header lines show that each name runs options of its own:
 * they may be one workload on several targets), 0 when they are tests of
 * one configuration. c's lines sorted; names: the file's job names. */
int pb_terse_split(const struct ctx *c, const struct pb_sn_table *names);
/* The options of every header line of c (sorted) into f's options. */
void pb_terse_count_options(const struct ctx *c, struct pb_fio_file *f);

/* Fact device from r's disk utilisation, added to set. */
void pb_terse_disk_fact(struct pb_resultset *set, const struct rec *r);

/* Free what c holds (not its set). */
void pb_terse_ctx_free(struct ctx *c);

/* No record is usable: "job \"NAME\" failed ..." for the first record
 * that failed and did no I/O (line: its line, 0 for none), else fio's
 * error line or "no fio terse lines found". PB_EINPUT (c->err set). */
int pb_terse_no_results(const struct ctx *c, long line, const char *name,
                        long code);

/* The parser's parse, whole (x->part 0: one part) or streamed
 * (fio_terse_pass.c). */
int pb_terse_parse(const struct pb_parse *x);

#endif
