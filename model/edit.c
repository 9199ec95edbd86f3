/* Fixing the database after ingest: choosing sources to remove, removing
 * what no result uses any more, and moving results to another label
 * (poolbench rm, relabel, ingest --replace; docs/model.md, "Fixing the
 * database"). */
#include "model/db_int.h"

#include <stdlib.h>
#include <string.h>

void pb_db_rollback(struct pb_db *db)
{
    if (!db->batch)
        return;
    db->batch = 0;
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    db_forget_ids(db);
    db->generation = -1;
}

/* Run one SQL text with up to two text parameters and an integer; the
 * ids of its rows are appended to *ids. */
static int collect_ids(struct pb_db *db, const char *sql, const char *a,
                       const char *b, long long **ids, size_t *n,
                       size_t *cap, struct pb_err *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot select sources");
    db_bind_text(q, 1, a);
    if (b)
        db_bind_text(q, 2, b);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        PB_GROW(*ids, *cap, *n + 1);
        (*ids)[(*n)++] = sqlite3_column_int64(q, 0);
    }
    int out = db_finish_query(db, q, rc, 0, err);
    sqlite3_finalize(q);
    return out;
}

int pb_db_select_sources(struct pb_db *db, const struct pb_db_select *sel,
                         long long **ids, size_t *n, struct pb_err *err)
{
    size_t cap = 0;
    *ids = NULL;
    *n = 0;
    int rc = PB_OK;
    if (sel->sha256) {
        rc = collect_ids(db, "SELECT id FROM source WHERE sha256 = ?1 OR "
                             "path = ?2 ORDER BY id", sel->sha256,
                         sel->source ? sel->source : "", ids, n, &cap, err);
    } else if (sel->source) {
        /* a path as stored, else a source id */
        rc = collect_ids(db, "SELECT id FROM source WHERE path = ?1 ORDER BY "
                             "id", sel->source, NULL, ids, n, &cap, err);
        if (!rc && !*n)
            rc = collect_ids(db, "SELECT id FROM source WHERE "
                                 "CAST(id AS TEXT) = ?1", sel->source, NULL,
                             ids, n, &cap, err);
    } else if (sel->config_re) {
        rc = collect_ids(db, "SELECT id FROM source WHERE id IN (SELECT "
                             "r.source_id FROM result r JOIN config c ON "
                             "c.id = r.config_id WHERE regexp(?1, c.label)) "
                             "ORDER BY id", sel->config_re, NULL, ids, n,
                         &cap, err);
    } else if (sel->run_id) {
        rc = collect_ids(db, "SELECT id FROM source WHERE id IN (SELECT "
                             "source_id FROM fact WHERE key = 'run_id' AND "
                             "value = ?1) ORDER BY id", sel->run_id, NULL,
                         ids, n, &cap, err);
    }
    if (rc) {
        free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return rc;
}

int pb_db_source_outside(struct pb_db *db, long long source_id,
                         const char *config_re, int *outside,
                         struct pb_err *err)
{
    long long *ids = NULL;
    size_t n = 0, cap = 0;
    char num[32];
    snprintf(num, sizeof(num), "%lld", source_id);
    int rc = collect_ids(db, "SELECT 1 FROM result r JOIN config c ON c.id "
                             "= r.config_id WHERE r.source_id = CAST(?2 AS "
                             "INTEGER) AND NOT regexp(?1, c.label) LIMIT 1",
                         config_re, num, &ids, &n, &cap, err);
    free(ids);
    *outside = n > 0;
    return rc;
}

int pb_db_prune(struct pb_db *db, struct pb_err *err)
{
    static const char *const sql[] = {
        /* own configs no result names; then configs no result and no own
         * config uses; then tests, job names and reasons without results */
        "DELETE FROM config_own_param WHERE own_id NOT IN (SELECT own_id "
        "FROM result WHERE own_id IS NOT NULL)",
        "DELETE FROM config_own WHERE id NOT IN (SELECT own_id FROM result "
        "WHERE own_id IS NOT NULL)",
        "DELETE FROM config_param WHERE config_id NOT IN (SELECT config_id "
        "FROM result) AND config_id NOT IN (SELECT config_id FROM "
        "config_own)",
        "DELETE FROM config WHERE id NOT IN (SELECT config_id FROM result) "
        "AND id NOT IN (SELECT config_id FROM config_own)",
        "DELETE FROM test_param WHERE test_id NOT IN (SELECT test_id FROM "
        "result)",
        "DELETE FROM test WHERE id NOT IN (SELECT test_id FROM result)",
        "DELETE FROM job WHERE id NOT IN (SELECT job_id FROM result "
        "WHERE job_id IS NOT NULL)",
        "DELETE FROM reason WHERE id NOT IN (SELECT reason_id FROM result "
        "WHERE reason_id IS NOT NULL)",
        /* other connections drop the ids they cached */
        "UPDATE model_generation SET n = n + 1",
    };
    for (size_t i = 0; i < sizeof(sql) / sizeof(*sql); i++)
        if (sqlite3_exec(db->h, sql[i], NULL, NULL, NULL) != SQLITE_OK)
            return db_fail(db, err, "cannot remove unused rows");
    db_forget_ids(db);
    db->generation = -1;
    return PB_OK;
}

/* ==== relabel ==== */

/* Run sql with ?1 a, ?2 b (texts, may be NULL) and ?3 id; *changed (may
 * be NULL) gets the number of rows it changed added. */
static int exec1(struct pb_db *db, const char *sql, const char *a,
                 const char *b, long long id, size_t *changed,
                 struct pb_err *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
        return db_fail(db, err, "cannot relabel");
    db_bind_text(q, 1, a);
    db_bind_text(q, 2, b);
    sqlite3_bind_int64(q, 3, id);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return db_fail(db, err, "cannot relabel");
    if (changed)
        *changed += (size_t)sqlite3_changes(db->h);
    return PB_OK;
}

/* The own config of label new with params kv (found or added); 0 with
 * *rc set on failure. Signature as store.c makes it: sorted key=value,
 * "\x1e" origin. */
static long long own_for(struct pb_db *db, const char *label,
                         struct pb_kv *kv, size_t n, int *rc,
                         struct pb_err *err)
{
    char *sig = db_signature(kv, n, 1);
    long long id = 0;
    sqlite3_stmt *q = db_stmt(db, S_OWN_FIND, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    id = db_find_id(db, q, rc, err);
    if (!id && !*rc)
        id = db_own_insert(db, label, sig, kv, n, rc, err);
out:
    free(sig);
    return *rc ? 0 : id;
}

static const char *kv_get(const struct pb_kv *kv, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(kv[i].key, key))
            return kv[i].value ? kv[i].value : "";
    return NULL;
}

/* The own configs of label old that have results (of the sources, when
 * given). */
static int old_owns(struct pb_db *db, const char *old, const long long *src,
                    size_t nsrc, long long **ids, size_t *n,
                    struct pb_err *err)
{
    size_t cap = 0;
    *ids = NULL;
    *n = 0;
    if (!nsrc)
        return collect_ids(db, "SELECT id FROM config_own WHERE label = ?1 "
                               "AND id IN (SELECT own_id FROM result) ORDER "
                               "BY id", old, NULL, ids, n, &cap, err);
    for (size_t i = 0; i < nsrc; i++) {
        char num[32];
        snprintf(num, sizeof(num), "%lld", src[i]);
        int rc = collect_ids(db, "SELECT DISTINCT o.id FROM config_own o "
                                 "JOIN result r ON r.own_id = o.id WHERE "
                                 "o.label = ?1 AND r.source_id = "
                                 "CAST(?2 AS INTEGER) ORDER BY o.id",
                             old, num, ids, n, &cap, err);
        if (rc)
            return rc;
    }
    return PB_OK;
}

int pb_db_relabel(struct pb_db *db, const struct pb_db_relabel *r,
                  size_t *nresults, struct pb_err *err)
{
    *nresults = 0;
    if (!strcmp(r->old_label, r->new_label))
        return PB_OK;
    if (db_exec(db, db->batch ? S_SAVEPOINT : S_BEGIN, err))
        return PB_EDB;
    int rc = db->batch ? PB_OK : db_sync_generation(db, err);
    long long *owns = NULL;
    size_t nown = 0;
    if (!rc)
        rc = old_owns(db, r->old_label, r->sources, r->nsources, &owns,
                      &nown, err);
    for (size_t i = 0; i < nown && !rc; i++) {
        /* own dims less those the label rules read out of the old label,
         * plus those they read out of the new one */
        sqlite3_stmt *q = db_stmt(db, S_OWN_PARAMS, err);
        if (!q) {
            rc = PB_EDB;
            break;
        }
        sqlite3_bind_int64(q, 1, owns[i]);
        struct pb_kv *kv = NULL;
        size_t n = 0, cap = 0;
        int st;
        while ((st = sqlite3_step(q)) == SQLITE_ROW) {
            const char *k = db_col_text(q, 0), *v = db_col_text(q, 1);
            const char *o = db_col_text(q, 2);
            const char *lv = kv_get(r->old_dims, r->nold, k ? k : "");
            if (o && !strncmp(o, "label: ", 7))
                continue; /* read out of the old label */
            if (!o && lv && v && !strcmp(lv, v))
                continue; /* so, in a database from before issue 42 */
            PB_GROW(kv, cap, n + 1);
            kv[n].key = pb_xstrdup(k ? k : "");
            kv[n].value = pb_xstrdup(v ? v : "");
            kv[n].origin = o ? pb_xstrdup(o) : NULL;
            n++;
        }
        rc = db_finish_query(db, q, st, 0, err);
        for (size_t k = 0; k < r->nnew && !rc; k++) {
            if (kv_get(kv, n, r->new_dims[k].key))
                continue;
            PB_GROW(kv, cap, n + 1);
            kv[n].key = pb_xstrdup(r->new_dims[k].key);
            kv[n].value = pb_xstrdup(r->new_dims[k].value);
            kv[n].origin = r->new_dims[k].origin
                               ? pb_xstrdup(r->new_dims[k].origin)
                               : NULL;
            n++;
        }
        long long nid = rc ? 0 : own_for(db, r->new_label, kv, n, &rc, err);
        for (size_t k = 0; k < n; k++) {
            free((char *)kv[k].key);
            free((char *)kv[k].value);
            free((char *)kv[k].origin);
        }
        free(kv);
        if (rc)
            break;
        /* its results (of the sources, when given) move */
        char a[32];
        snprintf(a, sizeof(a), "%lld", owns[i]);
        if (!r->nsources) {
            rc = exec1(db, "UPDATE result SET own_id = ?3 WHERE own_id = "
                           "CAST(?1 AS INTEGER)", a, NULL, nid, nresults,
                       err);
        } else {
            for (size_t s = 0; s < r->nsources && !rc; s++) {
                char b[32];
                snprintf(b, sizeof(b), "%lld", r->sources[s]);
                rc = exec1(db, "UPDATE result SET own_id = ?3 WHERE own_id "
                               "= CAST(?1 AS INTEGER) AND source_id = "
                               "CAST(?2 AS INTEGER)", a, b, nid, nresults,
                           err);
            }
        }
    }
    free(owns);
    /* what a companion source said with --label old moves with it */
    if (!rc && !r->nsources)
        rc = exec1(db, "UPDATE label_param SET label = ?2 WHERE label = ?1 "
                       "AND origin LIKE 'companion:%'",
                   r->old_label, r->new_label, 0, NULL, err);
    for (size_t s = 0; s < r->nsources && !rc; s++)
        rc = exec1(db, "UPDATE label_param SET label = ?2 WHERE label = ?1 "
                       "AND origin LIKE 'companion:%' AND source_id = ?3",
                   r->old_label, r->new_label, r->sources[s], NULL, err);
    /* both labels' configs recomputed; results follow their own config */
    char *labels[2] = {(char *)r->old_label, (char *)r->new_label};
    if (!rc)
        rc = db_rekey_labels(db, labels, 2, err);
    if (!rc)
        rc = exec1(db, "UPDATE result SET config_id = (SELECT o.config_id "
                       "FROM config_own o WHERE o.id = result.own_id) WHERE "
                       "own_id IN (SELECT id FROM config_own WHERE label = "
                       "?2) AND config_id IS NOT (SELECT o.config_id FROM "
                       "config_own o WHERE o.id = result.own_id)",
                   NULL, r->new_label, 0, NULL, err);
    if (!rc)
        rc = pb_db_prune(db, err);
    if (!rc)
        rc = db_exec(db, db->batch ? S_RELEASE : S_COMMIT, err);
    if (rc) {
        db_forget_ids(db);
        if (!db->batch) {
            sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        } else {
            db_exec(db, S_ROLLBACK_TO, err);
            db_exec(db, S_RELEASE, err);
        }
        return PB_EDB;
    }
    return PB_OK;
}
