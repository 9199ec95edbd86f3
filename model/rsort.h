/* model/rsort: an external sort of fixed-size records with bounded memory,
 * for the report's rows in report order (model/rrows.c) instead of
 * SQLite's generic sorter (docs/performance.md "The report's own sort").
 *
 * Records are added in any order; they are kept in a run of at most half
 * the budget, sorted (LSD radix over the key bytes that differ) when the
 * run is full and written to one anonymous temporary file (each record
 * as its difference from the one before, model/rcode.h), then read back
 * in order by a k-way merge (a heap) through a small buffer per run. When
 * every record fits in one run there is no file. Private to model/ (as
 * db_int.h): the prefix is db_.
 *
 * Use: db_rsort_new, db_rsort_add per record, db_rsort_finish once, then
 * db_rsort_next until it gives NULL; db_rsort_free. */
#ifndef DB_RSORT_H
#define DB_RSORT_H

#include "common/pb.h"

#include <stdint.h>

/* One record, 64 bytes; ordered by k0, k1, k2, k3 as unsigned numbers.
 * The report's: k0 = test id << 32 | metric id, k1 = config id << 32 |
 * source id, k2 = job rank << 32 | host rank (0 = NULL, first), k3 =
 * result id with its sign bit flipped (db_rsort_id_key). A table's own
 * order (pb_db_each_ranked_row): k0 = config rank << 32 | test rank, k1 =
 * metric rank (name, unit, id) << 32 | test id, k2 = source id << 32 |
 * host rank, k3 the result id. */
struct db_rsort_rec {
    uint64_t k0, k1, k2, k3;
    double value, stderr_;
    int64_t samples;
    uint32_t aux;   /* the caller's: the ranked order's config id */
    uint32_t flags; /* DB_RSORT_VALUE, DB_RSORT_STDERR, and from bit
                     * DB_RSORT_REASON_SHIFT 1 + index of the reason text
                     * (0 = none) */
};
enum { DB_RSORT_VALUE = 1, DB_RSORT_STDERR = 2, DB_RSORT_REASON_SHIFT = 2 };
/* Reason texts a record can name. */
#define DB_RSORT_MAX_REASONS ((uint32_t)1 << 29)

/* A signed 64-bit id as an unsigned key of the same order. */
static inline uint64_t db_rsort_id_key(long long id)
{
    return (uint64_t)id ^ ((uint64_t)1 << 63);
}
static inline long long db_rsort_key_id(uint64_t k)
{
    k ^= (uint64_t)1 << 63;
    return k > (uint64_t)INT64_MAX ? -(long long)(~k) - 1 : (long long)k;
}

/* The default memory budget of one sort (records of the run and the
 * radix sort's second buffer; the merge's read buffers take a quarter of
 * it, at least 4 KiB a run):
 * $POOLBENCH_SORT_BYTES when set (a testing and measuring knob, at least
 * 256), else DB_RSORT_BUDGET. */
#define DB_RSORT_BUDGET ((size_t)4 * 1024 * 1024)
size_t db_rsort_default_budget(void);

/* Memory of its own mapping, for the sort's buffers and the tables beside
 * it: its pages go back to the system when freed, and freeing it does not
 * raise glibc's mmap threshold (a freed malloc chunk of a few MB does, and
 * later buffers of that size then stay in the heap: the report's peak RSS
 * grew by 10 MB so). db_map_reserve gives room for at least bytes
 * (contents kept, p may move); out of memory aborts like pb_xmalloc. */
struct db_map {
    void *p;
    size_t cap; /* bytes */
};
void *db_map_reserve(struct db_map *m, size_t bytes);
void db_map_free(struct db_map *m);

struct db_rsort;
/* A sort of budget bytes (0: db_rsort_default_budget()). */
struct db_rsort *db_rsort_new(size_t budget);
void db_rsort_free(struct db_rsort *s);
/* Add a record. PB_OK, or PB_EIO (the temporary file could not be made
 * or written) with err filled. */
int db_rsort_add(struct db_rsort *s, const struct db_rsort_rec *r,
                 struct pb_err *err) PB_WUR;
/* No more records: sort what is left. PB_OK or PB_EIO. */
int db_rsort_finish(struct db_rsort *s, struct pb_err *err) PB_WUR;
/* The next record in order in *out (valid until the next call), NULL at
 * the end. PB_OK or PB_EIO (the temporary file could not be read). */
int db_rsort_next(struct db_rsort *s, const struct db_rsort_rec **out,
                  struct pb_err *err) PB_WUR;
/* Runs written to the temporary file so far (0: all in memory). */
size_t db_rsort_runs(const struct db_rsort *s);
/* After db_rsort_finish of a sort with runs in the file: give back the
 * merge's buffers and keep only the file, to merge it again from its
 * first record with db_rsort_rewind (PB_OK or PB_EIO). 1 when parked so,
 * 0 when every record was in memory (nothing kept to merge again). */
int db_rsort_park(struct db_rsort *s);
int db_rsort_rewind(struct db_rsort *s, struct pb_err *err) PB_WUR;
/* Every record of a parked sort in the order of its file (not sorted:
 * run after run), fn(ctx, record) each until fn returns non-zero; that,
 * PB_EIO (the file could not be read) or PB_OK. */
typedef int (*db_rsort_rec_cb)(void *ctx, const struct db_rsort_rec *r);
int db_rsort_each_parked(struct db_rsort *s, db_rsort_rec_cb fn, void *ctx,
                         struct pb_err *err) PB_WUR;

#endif
