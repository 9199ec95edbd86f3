/* model/rkeep: the last sort of the report's rows on a connection, kept
 * (its temporary file only, model/rsort.c db_rsort_park) so that the next
 * pass over the same rows in the same order merges it again instead of
 * scanning `result` and sorting anew. A report reads its rows twice in
 * each order (report order: the data and the hosts section; a table's own
 * order: the bonnie++ table's statistics and its pages); for 100,000
 * bonnie++ machines that is 3.5 M rows a pass (bench/NOTES.md, issue 41
 * item 2, "CPU").
 *
 * A kept sort is given again only when nothing that decides the rows can
 * differ: the same order (the caller's callbacks and context), the same
 * filter (by value), the same database contents (PRAGMA data_version: no
 * other connection committed; sqlite3_total_changes64: this one wrote
 * nothing) and the same fingerprint, which rrows.c makes of what the
 * caller decides: its ranks of every configuration and test and the
 * metrics it wants. Anything else drops it. */
#include "model/db_int.h"
#include "model/rsort.h"

#include <stdlib.h>
#include <string.h>

struct db_rkeep {
    int ranked;
    struct pb_db_order ord; /* ranked only */
    char *re[5];            /* test, config, metric, host, format */
    long long *ids;         /* the filter's source ids */
    size_t nids;
    struct db_rstate state;
    struct db_map fp; /* the fingerprint's numbers */
    size_t nfp;
    struct db_rsort *s;
};

static void filter_texts(const struct pb_db_filter *f, const char *out[5])
{
    out[0] = f->test_re;
    out[1] = f->config_re;
    out[2] = f->metric_re;
    out[3] = f->host_re;
    out[4] = f->format;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int db_rstate_now(struct pb_db *db, struct db_rstate *st)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, "PRAGMA data_version", -1, &q, NULL) !=
        SQLITE_OK)
        return 0;
    int ok = sqlite3_step(q) == SQLITE_ROW;
    if (ok)
        st->version = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    st->changes = (long long)sqlite3_total_changes64(db->h);
    st->valid = ok;
    return ok;
}

static void keep_free(struct db_rkeep *k)
{
    if (!k)
        return;
    for (int i = 0; i < 5; i++)
        free(k->re[i]);
    free(k->ids);
    db_map_free(&k->fp);
    db_rsort_free(k->s);
    free(k);
}

void db_rkeep_free(struct pb_db *db)
{
    keep_free(db->rkeep);
    db->rkeep = NULL;
}

static int matches(const struct db_rkeep *k, const struct pb_db_filter *f,
                   const struct pb_db_order *ord, const struct db_rstate *st,
                   const long long *fp, size_t nfp)
{
    if (k->ranked != (ord != NULL) || !st->valid ||
        k->state.version != st->version || k->state.changes != st->changes ||
        k->nfp != nfp || (nfp && memcmp(k->fp.p, fp, nfp * sizeof(*fp)) != 0))
        return 0;
    if (ord && (ord->config_rank != k->ord.config_rank ||
                ord->test_rank != k->ord.test_rank ||
                ord->want_metric != k->ord.want_metric ||
                ord->ctx != k->ord.ctx || ord->no_host != k->ord.no_host))
        return 0;
    const char *re[5];
    filter_texts(f, re);
    for (int i = 0; i < 5; i++)
        if (!same_text(re[i], k->re[i]))
            return 0;
    size_t nids = f->source_ids ? f->nsource_ids : 0;
    return nids == k->nids && (f->source_ids != NULL) == (k->ids != NULL) &&
           (!nids ||
            memcmp(f->source_ids, k->ids, nids * sizeof(*k->ids)) == 0);
}

struct db_rsort *db_rkeep_take(struct pb_db *db, const struct pb_db_filter *f,
                               const struct pb_db_order *ord,
                               const struct db_rstate *st, const long long *fp,
                               size_t nfp, struct db_rsort **rows)
{
    static const struct pb_db_filter all;
    struct db_rkeep *k = db->rkeep;
    db->rkeep = NULL;
    *rows = NULL;
    if (!k)
        return NULL;
    if (!f)
        f = &all;
    struct db_rsort *s = NULL;
    if (matches(k, f, ord, st, fp, nfp)) {
        s = k->s;
        k->s = NULL;
    } else if (ord && matches(k, f, NULL, st, NULL, 0)) {
        *rows = k->s; /* the same rows in the report's order */
        k->s = NULL;
    }
    keep_free(k);
    return s;
}

void db_rkeep_put(struct pb_db *db, const struct pb_db_filter *f,
                  const struct pb_db_order *ord, const struct db_rstate *st,
                  const long long *fp, size_t nfp, struct db_rsort *s)
{
    static const struct pb_db_filter all;
    db_rkeep_free(db);
    if (!st->valid || !db_rsort_park(s)) {
        db_rsort_free(s);
        return;
    }
    if (!f)
        f = &all;
    struct db_rkeep *k = pb_xcalloc(1, sizeof(*k));
    k->ranked = ord != NULL;
    if (ord)
        k->ord = *ord;
    const char *re[5];
    filter_texts(f, re);
    for (int i = 0; i < 5; i++)
        k->re[i] = re[i] ? pb_xstrdup(re[i]) : NULL;
    if (f->source_ids) {
        k->nids = f->nsource_ids;
        k->ids = pb_xmalloc((k->nids ? k->nids : 1) * sizeof(*k->ids));
        if (k->nids)
            memcpy(k->ids, f->source_ids, k->nids * sizeof(*k->ids));
    }
    k->state = *st;
    if (nfp)
        memcpy(db_map_reserve(&k->fp, nfp * sizeof(*fp)), fp,
               nfp * sizeof(*fp));
    k->nfp = nfp;
    k->s = s;
    db->rkeep = k;
}
