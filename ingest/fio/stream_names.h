/* A table of distinct names for the fio parsers, whole and streamed
 * (docs/performance.md, "Streaming ingest"): pass 1 counts the runs
 * (measurements) a job name occurs in, pass 2 counts those it has
 * emitted, so that the repeats of a name are folded once its last run is
 * read (ingest/fio/fio_repeats.c). Memory: the distinct names, never the
 * records. Private to ingest/. */
#ifndef PB_STREAM_NAMES_H
#define PB_STREAM_NAMES_H

#include "ingest/ingest.h"

#include <stddef.h>
#include <stdint.h>

#define PB_SN_NONE ((size_t)-1)

struct pb_sn_name {
    const char *s; /* in the table's arena */
    uint64_t hash;
    size_t nruns, last1; /* pass 1: runs of the name, the last one */
    size_t k, last2;     /* pass 2: runs emitted so far, the last one */
    size_t data;         /* free for the caller (the fold of repeats: its
                            groups' index + 1) */
};

struct pb_sn_table {
    struct pb_sn_name *v;
    size_t n, cap;
    size_t *slot; /* index + 1 into v; 0: empty */
    size_t nslot; /* a power of 2, at least twice n */
    struct pb_arena arena;
};

void pb_sn_init(struct pb_sn_table *t);
void pb_sn_release(struct pb_sn_table *t);

/* The entry of name s[0..n), added (counts 0, last1 and last2
 * PB_SN_NONE, data 0) when add is set; NULL when absent. Valid until the
 * next entry is added. */
struct pb_sn_name *pb_sn_get(struct pb_sn_table *t, const char *s, size_t n,
                             int add);

/* Pass 1: job name s[0..n) seen in run `run` (runs numbered in file
 * order). Returns the name's entry when this is a run of it not seen
 * before, else NULL. */
struct pb_sn_name *pb_sn_count_run(struct pb_sn_table *t, const char *s,
                                   size_t n, size_t run);

#endif
