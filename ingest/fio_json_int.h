/* Private to fio_json.c and fio_json_stream.c: a fio JSON document's
 * entries and the steps of its parse that the streamed parse (a chunk of
 * jobs at a time, docs/performance.md "Streaming ingest") shares with the
 * whole one. */
#ifndef PB_FIO_JSON_INT_H
#define PB_FIO_JSON_INT_H

#include "ingest/fio_int.h"
#include "ingest/json_int.h"

/* One element of "jobs" / "client_stats". */
struct entry {
    struct pb_fio_job job; /* name, host, stats, test; jobname = name */
    int obj;               /* in the document */
    const char *hostname;
    double port;
    int is_agg; /* fio's "All clients" */
    int gopts;  /* its global options object, or PB_JSON_NONE */
    double error;
    int have_test; /* job.config and job.test are set */
};

/* A parse: the whole document, or (streamed) one chunk of jobs. */
struct ctx {
    const char *path;
    const char *buf; /* whole file */
    size_t start;    /* offset of the JSON document */
    size_t jlen;     /* its length in buf */
    struct pb_resultset *set;
    struct pb_err *err;
    struct pb_json *doc;
    int global;         /* "global options" (object or list), or PB_JSON_NONE */
    int clients;        /* client/server output ("client_stats") */
    size_t global_mult; /* clients merged into the object (fio 3.33) */
    int global_conflict; /* and some key of theirs is ambiguous */
    struct entry *e;
    size_t ne;
    const char *arrname; /* "jobs" or "client_stats" */
};

/* Offset of the first '{' that is the first non-blank char of a line, or
 * (size_t)-1. */
size_t pb_fio_json_start(const char *buf, size_t len);

/* Read job object obj (element idx of the array) into e. */
void pb_fio_json_entry(struct pb_json *d, int obj, size_t idx, struct entry *e,
                       struct pb_resultset *set);

/* Hosts and global options of c's entries (client/server naming). */
void pb_fio_json_hosts(struct ctx *c);

/* pb_fio_clone_fn over c's entries: ia and ib are clones of one job. */
int pb_fio_json_is_clone(const void *c, size_t ia, size_t ib);

/* Config and test of entry e, from its options. */
void pb_fio_json_test(struct ctx *c, struct entry *e);

/* Job option key of e (its own, else its global options), or NULL. */
const char *pb_fio_json_opt(const struct ctx *c, const struct entry *e,
                            const char *key);

/* The parse of a document held whole (the parser's parse). */
int pb_fio_json_whole(const char *path, const char *buf, size_t len,
                      struct pb_resultset *set, struct pb_err *err);

/* The streamed parse (fio_json_stream.c): set is being streamed; parts
 * go to the store with pb_rs_flush; files that cannot be streamed, and
 * every file with an error, go to pb_fio_json_whole. */
int pb_fio_json_stream(const char *path, const char *buf, size_t len,
                       struct pb_resultset *set, struct pb_err *err);

#endif
