/* Latency distributions (fio json+ bins, schema v5 table latency_hist):
 * the varint blob, storing a source's histograms behind their results and
 * reading them back for the report. */
#include "model/db_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== blob ==== */

static void put_varint(struct pb_buf *out, uint64_t v)
{
    char b[10];
    size_t n = 0;
    do {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7;
        b[n++] = (char)(v ? c | 0x80 : c);
    } while (v);
    pb_buf_add(out, b, n);
}

/* Next varint of p[*at..len) into *v; 0, or -1 when malformed. */
static int get_varint(const unsigned char *p, size_t len, size_t *at,
                      uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (*at >= len)
            return -1;
        unsigned char c = p[(*at)++];
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

void pb_db_hist_encode(const uint64_t *value, const uint64_t *count, size_t n,
                       struct pb_buf *out)
{
    uint64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        put_varint(out, value[i] - prev);
        put_varint(out, count[i]);
        prev = value[i];
    }
}

int pb_db_hist_decode(const unsigned char *blob, size_t len, size_t n,
                      uint64_t *value, uint64_t *count)
{
    size_t at = 0;
    uint64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d, c;
        if (get_varint(blob, len, &at, &d) || get_varint(blob, len, &at, &c))
            return -1;
        if ((i && d == 0) || d > UINT64_MAX - prev || c == 0)
            return -1;
        value[i] = prev + d;
        count[i] = c;
        prev = value[i];
    }
    return at == len ? 0 : -1;
}

/* ==== store ==== */

int db_store_hists(struct pb_db *db, const struct pb_resultset *set,
                   long long source_id, struct pb_err *err)
{
    /* the source's result ids in insertion order: result i of the set */
    sqlite3_stmt *q = db_stmt(db, S_SOURCE_RESULT_IDS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, source_id);
    long long *ids = pb_xcalloc(set->nresults + 1, sizeof(*ids));
    size_t n = 0;
    int st;
    while ((st = sqlite3_step(q)) == SQLITE_ROW && n < set->nresults)
        ids[n++] = sqlite3_column_int64(q, 0);
    int rc = st == SQLITE_ROW || st == SQLITE_DONE
                 ? PB_OK
                 : db_fail(db, err, "cannot read result ids");
    sqlite3_reset(q);
    if (!rc && n != set->nresults)
        rc = pb_err_set(err, PB_EDB, set->path, 0, 0,
                        "%zu results stored of %zu", n, set->nresults);
    struct pb_buf blob = PB_BUF_INIT;
    for (size_t i = 0; i < set->nhists && !rc; i++) {
        const struct pb_hist *h = &set->hists[i];
        if (h->result >= n)
            continue;
        uint64_t total = 0;
        for (size_t k = 0; k < h->n; k++)
            total += h->count[k];
        pb_buf_reset(&blob);
        pb_db_hist_encode(h->value, h->count, h->n, &blob);
        q = db_stmt(db, S_HIST_INSERT, err);
        if (!q) {
            rc = PB_EDB;
            break;
        }
        sqlite3_bind_int64(q, 1, ids[h->result]);
        db_bind_text(q, 2, h->kind);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)total);
        sqlite3_bind_int64(q, 4, (sqlite3_int64)h->n);
        sqlite3_bind_blob(q, 5, blob.len ? blob.s : "", (int)blob.len,
                          SQLITE_STATIC);
        rc = db_step_done(db, q, err, "cannot insert latency histogram");
    }
    pb_buf_release(&blob);
    free(ids);
    return rc;
}

/* ==== read ==== */

int pb_db_each_hist(struct pb_db *db, const struct pb_db_filter *f,
                    pb_db_hist_cb cb, void *ctx, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_EACH_HIST, err);
    if (!q)
        return PB_EDB;
    if (f) {
        db_bind_text(q, 1, f->host_re);
        db_bind_text(q, 2, f->format);
    }
    int rc, stop = 0;
    uint64_t *val = NULL, *cnt = NULL;
    size_t cap = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct pb_db_hist h;
        h.test_id = sqlite3_column_int64(q, 0);
        h.config_id = sqlite3_column_int64(q, 1);
        h.source_id = sqlite3_column_int64(q, 2);
        h.job = db_col_text(q, 3);
        h.kind = db_col_text(q, 4);
        long long total = sqlite3_column_int64(q, 5);
        long long nb = sqlite3_column_int64(q, 6);
        const unsigned char *blob = sqlite3_column_blob(q, 7);
        size_t len = (size_t)sqlite3_column_bytes(q, 7);
        /* each pair takes two bytes at least */
        if (!h.kind || nb <= 0 || (size_t)nb > len / 2 || total <= 0)
            continue;
        if ((size_t)nb > cap) {
            cap = (size_t)nb;
            free(val);
            free(cnt);
            val = pb_xmalloc(cap * sizeof(*val));
            cnt = pb_xmalloc(cap * sizeof(*cnt));
        }
        if (!blob || pb_db_hist_decode(blob, len, (size_t)nb, val, cnt))
            continue;
        h.total = 0;
        for (long long i = 0; i < nb; i++)
            h.total += cnt[i];
        h.n = (size_t)nb;
        h.value = val;
        h.count = cnt;
        if ((stop = cb(ctx, &h)) != 0)
            break;
    }
    free(val);
    free(cnt);
    return db_finish_query(db, q, rc, stop, err);
}
