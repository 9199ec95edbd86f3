/* Private to the fio JSON parser (fio_json*.c; fio_log_link.c): a fio
 * JSON document's entries and the steps of its one parse
 * (fio_json_pass.c), which reads the document in parts of its entries
 * (one part when it is small, docs/performance.md "Streaming ingest"). */
#ifndef PB_FIO_JSON_INT_H
#define PB_FIO_JSON_INT_H

#include "ingest/fio/fio_int.h"
#include "ingest/lex/json_int.h"

static inline int is_object(const struct pb_json *d, int v)
{
    return pb_json_type(d, v) == PB_JSON_OBJECT;
}

/* A string stored under key (owned by the document), or NULL. */
static inline const char *str(struct pb_json *d, int obj, const char *key)
{
    return pb_json_str(d, pb_json_get(d, obj, key));
}

/* The file's fio version and start ("fio version", "timestamp" of the
 * document's root, or of its skeleton when read in parts). */
static inline void pb_fio_json_head(struct pb_json *d, int root,
                                    struct pb_resultset *set)
{
    const char *version = str(d, root, "fio version");
    if (version)
        pb_fio_set_version(set, version);
    pb_fio_set_time(set, pb_json_number(d, pb_json_get(d, root, "timestamp")));
}

/* An option and its value (NULL: known to be unset). */
struct pb_fio_json_kv {
    const char *key, *val;
};

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
    /* its options (pb_fio_json_opts_index): sorted by key, and in
     * pb_fio_json_each's order (only those with a value) */
    const struct pb_fio_json_kv *opts, *each;
    size_t nopts, neach;
};

/* The hostname and port of every client entry of a file, each pair once
 * (client/server: "host:port" names a client when its hostname has
 * several ports). */
struct pb_fio_json_hp {
    const char *host;
    double port; /* NAN: none */
};
struct pb_fio_json_hps {
    struct pb_fio_json_hp *v;
    size_t n, cap;
};
/* Add host and port unless the pair is there (host is not copied). */
void pb_fio_json_hps_add(struct pb_fio_json_hps *t, const char *host,
                         double port);

/* A part of the document: all of it, or (several parts) some of its
 * "jobs" elements with the global options. */
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
    /* the file's clients when it is read in parts (pb_fio_json_plan);
     * NULL: c's entries are all */
    const struct pb_fio_json_hps *hps;
    int aggs; /* some entry of the file is "All clients" (parts cut after
                 one) */
    size_t global_mult; /* clients merged into the object (fio 3.33) */
    int global_conflict; /* and some key of theirs is ambiguous */
    struct entry *e;
    size_t ne;
    const char *arrname; /* "jobs" or "client_stats" */
    struct pb_fio_file *f; /* what ties the file's jobs together */
    /* the groups fio's normal output after the document lists
     * (json,normal); NULL: none */
    const struct pb_fio_json_groups *groups;
};

/* The groups of fio's normal output (json,normal): the jobs its header
 * lines name in each group (fio_json_ident.c). */
struct pb_fio_json_groups {
    struct grp *v; /* sorted by group id */
    size_t n, cap;
};
void pb_fio_json_groups_read(struct pb_fio_json_groups *gs, const char *text,
                             size_t len);
void pb_fio_json_groups_free(struct pb_fio_json_groups *gs);

/* An entry's options (pb_fio_json_each). */
struct pb_fio_json_src {
    const struct ctx *c;
    const struct entry *e;
};

/* An object of options of its own (pb_fio_json_each_own). */
struct pb_fio_json_own {
    struct pb_json *doc;
    int obj;
};

/* Offset of the first '{' that is the first non-blank char of a line, or
 * (size_t)-1. */
size_t pb_fio_json_start(const char *buf, size_t len);

/* Read job object obj (element idx of the array) into e. */
void pb_fio_json_entry(struct pb_json *d, int obj, size_t idx, struct entry *e,
                       struct pb_resultset *set);

/* c's global options: node global of c->doc when it is an object or a
 * list, and how many clients were merged into it (client/server). */
void pb_fio_json_globals(struct ctx *c, int global);

/* Hosts and global options of c's entries (client/server naming), then
 * their options read (pb_fio_json_opts_index). */
void pb_fio_json_hosts(struct ctx *c);

/* pb_fio_clone_fn over c's entries: ia and ib are clones of one job. */
int pb_fio_json_is_clone(const void *c, size_t ia, size_t ib);


/* ==== fio_json_opts.c ==== */

/* Read the options of every entry of c (after pb_fio_json_hosts gave
 * each its global options); they live as long as c->doc. */
void pb_fio_json_opts_index(struct ctx *c);
/* Job option key of e (its own, else its global options), or NULL. */
const char *pb_fio_json_opt(const struct ctx *c, const struct entry *e,
                            const char *key);
/* pb_fio_each_fn of a struct pb_fio_json_src: every option of the entry,
 * its own winning over its global options (pb_fio_json_opt). */
void pb_fio_json_each(const void *src, pb_fio_opt_fn fn, void *arg);

/* ==== fio_json_ident.c ==== */

/* pb_fio_each_fn of a struct pb_fio_json_own: the options of one object
 * (a job's own, without the global ones). */
void pb_fio_json_each_own(const void *src, pb_fio_opt_fn fn, void *arg);
/* The entry's target: its filename option, else its directory. */
const char *pb_fio_json_target(const struct ctx *c, const struct entry *e);
/* An entry's group id as its measurement (pb_fio_file_count). */
size_t pb_fio_json_meas(double groupid);
/* Entry e's label, held and target in c->f (pb_fio_file_job): iv says
 * how its host's jobs are labelled. */
void pb_fio_json_file_job(const struct ctx *c, struct entry *e,
                          const struct pb_fio_inv *iv);
/* Mark entry e merged when it stands for several different jobs
 * (group_reporting; flag.merged_group). */
void pb_fio_json_merged(struct ctx *c, struct entry *e);

/* pb_fio_build_fn over c's entries: their tests (a merged group's too),
 * "All clients" after its clients. */
void pb_fio_json_build(void *ctx, size_t i, size_t n);

/* The entries of the first n elements of array arr in c->doc (all:
 * (size_t)-1), element k being element base + k of the file's array,
 * into c->e and c->ne, with their json+ bins (off: where the parsed text
 * begins in c->buf). eix, when not NULL, gets each entry's k; after,
 * when not NULL, the element after the last one read. PB_OK, or the
 * bins' error in c->err. */
int pb_fio_json_entries(struct ctx *c, int arr, size_t n, size_t base,
                        size_t off, size_t *eix, int *after) PB_WUR;
/* When usable entry e (not "All clients") ran longer than *ran: its time
 * in *ran, and in *asked its runtime (or timeout) option in ns, NAN when
 * none (pb_fio_flag_interrupted). */
void pb_fio_json_ran(const struct ctx *c, const struct entry *e, double *ran,
                     double *asked);
/* fio's interruption line before the document buf[start .. doc_end) or
 * after the line it ends on (stderr captured with it, or json,normal
 * text after it): the first one flagged (pb_fio_flag_interrupted). */
void pb_fio_json_interrupted(struct pb_resultset *set, const char *buf,
                             size_t len, size_t start, size_t doc_end,
                             double ran, double asked);
/* A "device" fact of each disk of doc's "disk_util" (a local run whose
 * jobs name no filename). */
void pb_fio_json_disk_util(struct pb_resultset *set, struct pb_json *doc);

/* ==== fio_json_parts.c: where a big document's parts are ==== */

/* The document map[start .. doc_end), its "jobs" (or "client_stats") array map[jobs ..
 * jobs_end) and "global options" (gopts = (size_t)-1: none). */
struct pb_fio_json_plan {
    size_t start, doc_end;
    size_t jobs, jobs_end; /* or "client_stats" */
    size_t gopts, gopts_end;
    int clients;                /* the entries are "client_stats" */
    int aggs;                   /* some entry is fio's "All clients" */
    struct pb_fio_json_hps hps; /* every client's hostname and port */
};
/* 1 when the document can be read in parts (p filled; the pages read are
 * released to set), 0 when it is one part (its entries need each other,
 * or it may hold an error: the one-part parse names it). */
int pb_fio_json_plan(const char *map, size_t len, struct pb_resultset *set,
                     struct pb_fio_json_plan *p);
/* What a plan holds (its hostnames), after pb_fio_json_plan either way. */
void pb_fio_json_plan_release(struct pb_fio_json_plan *p);
/* The document without the jobs' text ("jobs": []) parsed into doc
 * (text: its copy, caller frees after doc); -1 when it does not parse. */
int pb_fio_json_skeleton(const char *map, const struct pb_fio_json_plan *p,
                         char **text, struct pb_json *doc);
/* The text "[" ELEMENTS "," GLOBAL-OPTIONS "]" of the n elements at
 * spans el[] (caller frees), its length in *tlen. */
char *pb_fio_json_part_text(const char *map, const struct pb_fio_json_plan *p,
                            const size_t (*el)[2], size_t n, size_t *tlen);

/* The same text for the count: each job object with only the members
 * the count reads ("jobname", "groupid", "hostname", "port", "job
 * options"), any other element as 0. */
char *pb_fio_json_count_text(const char *map, const struct pb_fio_json_plan *p,
                             const size_t (*el)[2], size_t n, size_t *tlen);

/* Walks the elements of the array at text[arr]. */
struct pb_fio_json_elems {
    const char *text;
    size_t len, i;
    int done;
};
void pb_fio_json_elems_init(struct pb_fio_json_elems *w, const char *text,
                            size_t len, size_t arr);
/* 1 with the next element's span, 0 after the last, -1 when malformed. */
int pb_fio_json_elems_next(struct pb_fio_json_elems *w, size_t *el,
                           size_t *end, int *depth);

/* ==== fio_json_pass.c ==== */

/* The parser's parse: the document in parts (x->part set and
 * pb_fio_json_plan finds them; each part's results go to the store with
 * pb_rs_flush), else as one part. */
int pb_fio_json_parse(struct pb_parse *x);
/* buf parsed as one part into set (fio_log_link.c: a log's run). */
int pb_fio_json_read(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err);

#endif
