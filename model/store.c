/* Storing a parsed source's rows: ids of hosts, metrics, configs and tests
 * found or added, results inserted 256 rows per statement, samples, facts
 * and series. The transaction, savepoint and forgetting: store_source.c. */
#define _GNU_SOURCE
#include "model/db_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_kv(const void *a, const void *b)
{
    const struct pb_kv *x = a, *y = b;
    return strcmp(x->key, y->key);
}

/* Sorted "k=v\x1f..." signature of a parameter list; with_origin adds
 * "\x1eORIGIN" to each dimension that has one (own configs are keyed by
 * what they say and where it came from). Caller frees. */
char *db_signature(const struct pb_kv *params, size_t n, int with_origin)
{
    struct pb_kv *s = pb_xcalloc(n ? n : 1, sizeof(*s));
    if (n)
        memcpy(s, params, n * sizeof(*s));
    if (n > 1)
        qsort(s, n, sizeof(*s), cmp_kv);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (i)
            pb_buf_putc(&b, '\x1f');
        pb_buf_puts(&b, s[i].key);
        pb_buf_putc(&b, '=');
        pb_buf_puts(&b, s[i].value ? s[i].value : "");
        if (with_origin && s[i].origin) {
            pb_buf_putc(&b, '\x1e');
            pb_buf_puts(&b, s[i].origin);
        }
    }
    free(s);
    return pb_buf_take(&b);
}

/* The params of own config id. PB_OK or PB_EDB. */
static int own_params_insert(struct pb_db *db, long long id,
                             const struct pb_kv *kv, size_t n,
                             struct pb_err *err)
{
    int rc = PB_OK;
    for (size_t k = 0; k < n && !rc; k++) {
        sqlite3_stmt *q = db_stmt(db, S_OWN_PARAM_INSERT, err);
        if (!q)
            return PB_EDB;
        sqlite3_bind_int64(q, 1, id);
        db_bind_text(q, 2, kv[k].key);
        db_bind_text(q, 3, kv[k].value ? kv[k].value : "");
        db_bind_text(q, 4, kv[k].origin);
        rc = db_step_done(db, q, err, "cannot insert parameter");
    }
    return rc;
}

long long db_own_insert(struct pb_db *db, const char *label, const char *sig,
                        const struct pb_kv *kv, size_t n, int *rc,
                        struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_OWN_INSERT, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    if ((*rc = db_step_done(db, q, err, "cannot insert config")))
        return 0;
    long long id = sqlite3_last_insert_rowid(db->h);
    *rc = own_params_insert(db, id, kv, n, err);
    return *rc ? 0 : id;
}

static long long entity_id(struct pb_db *db, enum db_stmt find, enum db_stmt ins,
                           enum db_stmt param_ins, const char *tool,
                           const char *name, const struct pb_kv *params,
                           size_t nparams, int *rc, struct pb_err *err)
{
    char *sig = db_signature(params, nparams, 0);
    /* tests are keyed by tool and name */
    struct idcache *c = &db->ids[C_TEST];
    char *key = tool ? pb_xasprintf("%s\x1f%s", tool, name) : NULL;
    long long id = db_cache_get(c, key ? key : name, sig, 0);
    if (id) {
        free(key);
        free(sig);
        return id;
    }
    sqlite3_stmt *q = db_stmt(db, find, err);
    if (!q)
        goto out;
    int i = 1;
    if (tool)
        db_bind_text(q, i++, tool);
    db_bind_text(q, i++, name);
    db_bind_text(q, i++, sig);
    id = db_find_id(db, q, rc, err);
    if (id || *rc)
        goto out;
    q = db_stmt(db, ins, err);
    if (!q)
        goto out;
    i = 1;
    if (tool)
        db_bind_text(q, i++, tool);
    db_bind_text(q, i++, name);
    db_bind_text(q, i++, sig);
    if ((*rc = db_step_done(db, q, err, "cannot insert config/test")))
        goto out;
    id = sqlite3_last_insert_rowid(db->h);
    q = db_stmt(db, param_ins, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    for (size_t k = 0; k < nparams; k++) {
        sqlite3_bind_int64(q, 1, id);
        db_bind_text(q, 2, params[k].key);
        db_bind_text(q, 3, params[k].value ? params[k].value : "");
        if ((*rc = db_step_done(db, q, err, "cannot insert parameter")))
            goto out;
    }
out:
    if (!q && !*rc)
        *rc = PB_EDB;
    if (id && !*rc)
        db_cache_put(c, key ? key : name, sig, 0, id);
    free(key);
    free(sig);
    return id;
}

static long long named_id(struct pb_db *db, enum db_stmt find, enum db_stmt ins,
                          const char *const *vals, int nvals, int *rc,
                          struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, find, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    for (int i = 0; i < nvals; i++)
        db_bind_text(q, i + 1, vals[i]);
    long long id = db_find_id(db, q, rc, err);
    if (id || *rc)
        return id;
    q = db_stmt(db, ins, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    for (int i = 0; i < nvals; i++)
        db_bind_text(q, i + 1, vals[i]);
    if ((*rc = db_step_done(db, q, err, "cannot insert")))
        return 0;
    return sqlite3_last_insert_rowid(db->h);
}

/* ==== result rows ==== */

#define RESULT_COLS 11 /* parameters of S_RESULT_INSERT */
/* the ids of a result's names */
enum { R_HOST, R_JOB, R_REASON, R_METRIC, R__COUNT };
/* S_RESULT_INSERT with `rows` rows of values. Caller frees. */
static char *multi_insert_sql(int rows)
{
    const char *sql = pb_db_sql[S_RESULT_INSERT];
    const char *values = strstr(sql, "VALUES");
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, sql, (size_t)(values - sql));
    pb_buf_puts(&b, "VALUES ");
    for (int k = 0; k < rows; k++)
        pb_buf_puts(&b, k ? ",(?,?,?,?,?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?,?,?,?,?)");
    return pb_buf_take(&b);
}

/* The INSERT of 2^lg rows, prepared once per connection. */
static sqlite3_stmt *multi_stmt(struct pb_db *db, int lg, struct pb_err *err)
{
    if (lg == 0)
        return db_stmt(db, S_RESULT_INSERT, err);
    if (!db->multi[lg]) {
        char *sql = multi_insert_sql(1 << lg);
        if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
                               &db->multi[lg], NULL) != SQLITE_OK) {
            db_fail(db, err, "cannot prepare statement");
            db->multi[lg] = NULL;
        }
        free(sql);
    }
    return db->multi[lg];
}

/* Text that lives in the set until the statement has run. */
static void bind_str(sqlite3_stmt *q, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

/* Bind one result to parameters off+1 .. off+RESULT_COLS. */
static void bind_result(sqlite3_stmt *q, int off, long long source_id,
                        long long host_id, long long config_id,
                        long long test_id, const long long *ids,
                        long long own_id, const struct pb_result *r)
{
    sqlite3_bind_int64(q, off + 1, source_id);
    if (host_id)
        sqlite3_bind_int64(q, off + 2, host_id);
    else
        sqlite3_bind_null(q, off + 2);
    sqlite3_bind_int64(q, off + 3, config_id);
    sqlite3_bind_int64(q, off + 4, test_id);
    if (ids[R_JOB])
        sqlite3_bind_int64(q, off + 5, ids[R_JOB]);
    else
        sqlite3_bind_null(q, off + 5);
    sqlite3_bind_int64(q, off + 6, ids[R_METRIC]);
    if (r->has_value)
        sqlite3_bind_double(q, off + 7, r->value);
    else
        sqlite3_bind_null(q, off + 7);
    if (ids[R_REASON])
        sqlite3_bind_int64(q, off + 8, ids[R_REASON]);
    else
        sqlite3_bind_null(q, off + 8);
    if (r->has_stderr)
        sqlite3_bind_double(q, off + 9, r->stderr_);
    else
        sqlite3_bind_null(q, off + 9);
    if (r->samples > 0)
        sqlite3_bind_int64(q, off + 10, r->samples);
    else
        sqlite3_bind_null(q, off + 10);
    sqlite3_bind_int64(q, off + 11, own_id);
}

/* The id of one name (host, job, reason) of a result, from cache c or
 * the database; 0 for no name. ins_first: ins is an INSERT OR IGNORE,
 * tried before find (one index search for a new name, two for a known
 * one the cache forgot). */
static long long name_id(struct pb_db *db, int c, enum db_stmt find,
                         enum db_stmt ins, int ins_first, const char *name,
                         int *rc, struct pb_err *err)
{
    if (!name || *rc)
        return 0;
    long long id = db_cache_get(&db->ids[c], name, NULL, 0);
    if (id)
        return id;
    const char *v[1] = {name};
    sqlite3_stmt *q = ins_first ? db_stmt(db, ins, err) : NULL;
    if (ins_first && !q) {
        *rc = PB_EDB;
        return 0;
    }
    if (q) {
        db_bind_text(q, 1, name);
        if ((*rc = db_step_done(db, q, err, "cannot insert")))
            return 0;
        if (sqlite3_changes(db->h) == 1)
            id = sqlite3_last_insert_rowid(db->h);
    }
    if (!id)
        id = named_id(db, find, ins, v, 1, rc, err);
    if (!*rc)
        db_cache_put(&db->ids[c], name, NULL, 0, id);
    return id;
}

/* The ids of one set's names by address (host, job, reason; metric with
 * unit and direction): a set interns its strings (pb_rs_str), so the
 * results of a part name a few hundred addresses, and looking an address
 * up costs less than hashing the name for the id cache (a sixth of the
 * CPU time of storing a bonnie++ result). Only a cache of the caches:
 * two addresses of one name give the same id. */
struct addr_ids {
    struct addr_id {
        const void *a, *b; /* NULL a: free */
        int k;             /* R_* (metric: R_METRIC + lower) */
        long long id;
    } *v;
    size_t n, cap; /* cap a power of two */
};

static struct addr_id *addr_slot(struct addr_ids *m, const void *a,
                                 const void *b, int k)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        struct addr_id *v = pb_xcalloc(cap, sizeof(*v));
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->v[i].a)
                continue;
            size_t j = ((uintptr_t)m->v[i].a >> 3) * 0x9E3779B1u +
                       (uintptr_t)m->v[i].b + (size_t)m->v[i].k;
            while (v[j & (cap - 1)].a)
                j++;
            v[j & (cap - 1)] = m->v[i];
        }
        free(m->v);
        m->v = v;
        m->cap = cap;
    }
    size_t j = ((uintptr_t)a >> 3) * 0x9E3779B1u + (uintptr_t)b + (size_t)k;
    for (;; j++) {
        struct addr_id *s = &m->v[j & (m->cap - 1)];
        if (!s->a || (s->a == a && s->b == b && s->k == k))
            return s;
    }
}

/* The id of one name from the address memo or found; 0 for none. */
static long long memo_name_id(struct pb_db *db, struct addr_ids *m, int k,
                              int c, enum db_stmt find, enum db_stmt ins,
                              int ins_first, const char *name, int *rc,
                              struct pb_err *err)
{
    if (!name || *rc)
        return 0;
    struct addr_id *s = addr_slot(m, name, NULL, k);
    if (s->a)
        return s->id;
    long long id = name_id(db, c, find, ins, ins_first, name, rc, err);
    if (!*rc && id) {
        s = addr_slot(m, name, NULL, k); /* the table may have grown */
        s->a = name;
        s->k = k;
        s->id = id;
        m->n++;
    }
    return id;
}

/* Host, job, reason and metric ids of a result (ids[R_*]; 0: none), from
 * the memo m, the caches or the database. */
static int result_ids(struct pb_db *db, struct addr_ids *m,
                      const struct pb_result *r, long long *ids,
                      struct pb_err *err)
{
    struct idcache *metrics = &db->ids[C_METRIC];
    int rc = PB_OK;
    int lower = r->direction == PB_DIR_LOWER;
    ids[R_HOST] = memo_name_id(db, m, R_HOST, C_HOST, S_HOST_FIND,
                               S_HOST_INSERT, 1, r->host, &rc, err);
    ids[R_JOB] = memo_name_id(db, m, R_JOB, C_JOB, S_JOB_FIND, S_JOB_INSERT,
                              1, r->job, &rc, err);
    ids[R_REASON] = memo_name_id(db, m, R_REASON, C_REASON, S_REASON_FIND,
                                 S_REASON_INSERT, 1,
                                 r->has_value ? NULL : r->null_reason, &rc,
                                 err);
    struct addr_id *s = addr_slot(m, r->metric, r->unit, R_METRIC + lower);
    if (s->a && !rc) {
        ids[R_METRIC] = s->id;
        return rc;
    }
    ids[R_METRIC] = db_cache_get(metrics, r->metric, r->unit, lower);
    if (!ids[R_METRIC] && !rc) {
        const char *v[3] = {r->metric, r->unit ? r->unit : "",
                            lower ? "lower" : "higher"};
        ids[R_METRIC] =
            named_id(db, S_METRIC_FIND, S_METRIC_INSERT, v, 3, &rc, err);
        if (!rc)
            db_cache_put(metrics, r->metric, r->unit, lower, ids[R_METRIC]);
    }
    if (!rc && ids[R_METRIC]) {
        s = addr_slot(m, r->metric, r->unit, R_METRIC + lower);
        s->a = r->metric;
        s->b = r->unit;
        s->k = R_METRIC + lower;
        s->id = ids[R_METRIC];
        m->n++;
    }
    return rc;
}

/* ==== configurations ==== */

/* INSERT OR IGNORE of n params of one id: single-row INSERTs cost a
 * statement each (6 of the 15 of a new bonnie++ machine's configs). OR
 * IGNORE, not OR REPLACE: a statement of several rows that may abort
 * keeps a statement journal (see S_RESULT_INSERT); the rows are new (one
 * a key, a config or own config without params) so neither ever
 * applies. */
static sqlite3_stmt *kv_stmt(struct pb_db *db, int cfg, size_t n,
                             struct pb_err *err)
{
    sqlite3_stmt **q = &db->kv_multi[cfg][n];
    if (!*q) {
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_puts(&b, cfg ? "INSERT OR IGNORE INTO config_param(config_id"
                            : "INSERT OR IGNORE INTO config_own_param(own_id");
        pb_buf_puts(&b, ", key, value, origin) VALUES ");
        for (size_t k = 0; k < n; k++)
            pb_buf_puts(&b, k ? ",(?1,?,?,?)" : "(?1,?,?,?)");
        char *sql = pb_buf_take(&b);
        if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, q,
                               NULL) != SQLITE_OK) {
            db_fail(db, err, "cannot prepare statement");
            *q = NULL;
        }
        free(sql);
        return *q;
    }
    sqlite3_reset(*q);
    sqlite3_clear_bindings(*q);
    return *q;
}

int db_new_params(struct pb_db *db, int cfg, long long id,
                  const struct pb_kv *kv, size_t n, struct pb_err *err)
{
    for (size_t i = 0; i < n;) {
        size_t m = n - i < KV_MULTI ? n - i : KV_MULTI;
        sqlite3_stmt *q = kv_stmt(db, cfg, m, err);
        if (!q)
            return PB_EDB;
        sqlite3_bind_int64(q, 1, id);
        for (size_t k = 0; k < m; k++, i++) {
            int at = 2 + 3 * (int)k;
            db_bind_text(q, at, kv[i].key);
            db_bind_text(q, at + 1, kv[i].value ? kv[i].value : "");
            db_bind_text(q, at + 2, kv[i].origin);
        }
        int rc = db_step_done(db, q, err, "cannot insert parameter");
        if (rc)
            return rc;
    }
    return PB_OK;
}

struct kv_at {
    const struct pb_kv *p;
    size_t i; /* position in the list */
};

static int cmp_kv_at(const void *x, const void *y)
{
    const struct kv_at *a = x, *b = y;
    int c = strcmp(a->p->key, b->p->key);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* kv[0..n) as single-row INSERT OR REPLACEs store it (and S_OWN_PARAMS
 * reads it back): one a key, its last statement, by key (byte order, as
 * SQLite's BINARY). Into u (room for n); returns how many. */
static size_t kv_stored(const struct pb_kv *kv, size_t n, struct pb_kv *u)
{
    struct kv_at *at = pb_xcalloc(n ? n : 1, sizeof(*at));
    for (size_t i = 0; i < n; i++)
        at[i] = (struct kv_at){&kv[i], i};
    qsort(at, n, sizeof(*at), cmp_kv_at);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++)
        if (i + 1 == n || strcmp(at[i].p->key, at[i + 1].p->key))
            u[nu++] = *at[i].p;
    free(at);
    return nu;
}

/* A new own config (label, sig) with params own[0..n) and its config,
 * when no label has attached dimensions (no_att): inserted without
 * looking it up first (INSERT OR IGNORE), its params a statement, its
 * config placed from them (db_place_new_own). 0 when it was already
 * there (or on error, *rc set). 100,000 distinct machines of a bonnie++
 * CSV are 100,000 new own configs: 15 statements each before, 6 now. */
static long long own_new(struct pb_db *db, const char *label, const char *sig,
                         const struct pb_kv *own, size_t n,
                         long long *config_id, int *rc, struct pb_err *err)
{
    for (size_t k = 0; k < n; k++)
        if (!own[k].key)
            return 0; /* the usual path says what is wrong */
    sqlite3_stmt *q = db_stmt(db, S_OWN_INSERT_NEW, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    if ((*rc = db_step_done(db, q, err, "cannot insert config")) ||
        sqlite3_changes(db->h) != 1)
        return 0;
    long long id = sqlite3_last_insert_rowid(db->h);
    struct pb_kv *u = pb_xcalloc(n ? n : 1, sizeof(*u));
    size_t nu = kv_stored(own, n, u);
    if (!(*rc = db_new_params(db, 0, id, u, nu, err)))
        *config_id = db_place_new_own(db, id, label, u, nu, rc, err);
    free(u);
    return *rc ? 0 : id;
}

/* The own config of label with own params, found or added (with its
 * params, and placed in a config); *config_id gets its config. no_att:
 * no label has attached dimensions (S_LABEL_ANY). */
static long long own_config(struct pb_db *db, const char *label,
                            const struct pb_kv *own, size_t n, int no_att,
                            long long *config_id, int *rc, struct pb_err *err)
{
    char *sig = db_signature(own, n, 1);
    struct idcache *c = &db->ids[C_OWN];
    long long id = db_cache_get2(c, label, sig, 0, config_id);
    if (id && *config_id)
        goto out;
    if (!id && no_att &&
        ((id = own_new(db, label, sig, own, n, config_id, rc, err)) || *rc))
        goto cache;
    sqlite3_stmt *q = db_stmt(db, S_OWN_FIND, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    int st = sqlite3_step(q);
    if (st == SQLITE_ROW) {
        id = sqlite3_column_int64(q, 0);
        *config_id = sqlite3_column_int64(q, 1);
    } else if (st != SQLITE_DONE) {
        *rc = db_fail(db, err, "lookup failed");
    }
    sqlite3_reset(q);
    if (id || *rc)
        goto cache;
    if (!(id = db_own_insert(db, label, sig, own, n, rc, err)))
        goto out;
cache:
    if (!*rc && id && !*config_id)
        *config_id = db_place_own(db, id, label, rc, err);
    if (!*rc && id && *config_id) {
        db_cache_put2(c, label, sig, 0, id, *config_id);
    }
out:
    free(sig);
    return *rc ? 0 : id;
}

/* Does any label have attached dimensions? 1 yes, 0 no, -1 on error
 * (*rc set). */
static int any_attached(struct pb_db *db, int *rc, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_LABEL_ANY, err);
    if (!q) {
        *rc = PB_EDB;
        return -1;
    }
    long long one = db_find_id(db, q, rc, err);
    return *rc ? -1 : one != 0;
}

static void add_label(char ***labels, size_t *n, size_t *cap,
                      const char *label)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*labels)[i], label))
            return;
    PB_GROW(*labels, *cap, *n + 1);
    (*labels)[(*n)++] = (char *)label;
}

/* Attached dimensions of the set go to label_param (and the configs of
 * their labels are re-keyed); the rest of each config is its own config,
 * mapped to a config (ids into own[] and cfg[]). A config that only
 * carries attached dimensions and no results (a sheet row) gets none. */
static int store_configs(struct pb_db *db, const struct pb_resultset *set,
                         long long source_id, long long *own,
                         long long *cfg, struct pb_err *err)
{
    int rc = PB_OK;
    char **labels = NULL;
    size_t nl = 0, capl = 0;
    unsigned char *used = pb_xcalloc(set->nconfigs + 1, 1);
    for (size_t i = 0; i < set->nresults; i++)
        used[set->results[i].config] = 1;
    for (size_t i = 0; i < set->nconfigs && !rc; i++) {
        const struct pb_config *c = &set->configs[i];
        for (size_t k = 0; k < c->nparams && !rc; k++) {
            const struct pb_kv *p = &c->params[k];
            if (!db_origin_attached(p->origin))
                continue;
            sqlite3_stmt *q = db_stmt(db, S_LABEL_PARAM_INSERT, err);
            if (!q) {
                rc = PB_EDB;
                break;
            }
            db_bind_text(q, 1, c->label);
            db_bind_text(q, 2, p->key);
            db_bind_text(q, 3, p->value ? p->value : "");
            db_bind_text(q, 4, p->origin);
            sqlite3_bind_int64(q, 5, source_id);
            rc = db_step_done(db, q, err, "cannot attach dimension");
            add_label(&labels, &nl, &capl, c->label);
        }
    }
    if (!rc && nl)
        rc = db_rekey_labels(db, labels, nl, err);
    /* read after this set's own attachments; no other writer until the
     * commit */
    int no_att = !rc && any_attached(db, &rc, err) == 0;
    struct pb_kv *mine = NULL;
    size_t capm = 0;
    for (size_t i = 0; i < set->nconfigs && !rc; i++) {
        const struct pb_config *c = &set->configs[i];
        size_t nm = 0, natt = 0;
        PB_GROW(mine, capm, c->nparams + 1);
        for (size_t k = 0; k < c->nparams; k++) {
            if (db_origin_attached(c->params[k].origin))
                natt++;
            else
                mine[nm++] = c->params[k];
        }
        if (!used[i] && natt)
            continue;
        own[i] = own_config(db, c->label, mine, nm, no_att, &cfg[i], &rc,
                            err);
    }
    free(mine);
    free(labels);
    free(used);
    return rc;
}

/* The per-repeat values of results first .. first+n-1, the rows one
 * multi-row INSERT just added: SQLite numbers the rows of one INSERT
 * consecutively (max(id) + 1 each, under our write lock), so the k-th
 * row's id is last - n + 1 + k. */
static int store_samples(struct pb_db *db, const struct pb_resultset *set,
                         size_t first, size_t n, long long last,
                         struct pb_err *err)
{
    sqlite3_stmt *q = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct pb_result *r = &set->results[first + k];
        const double *v;
        size_t ns = pb_rs_result_samples(set, r, &v);
        if (!ns)
            continue;
        if (!q && !(q = db_stmt(db, S_SAMPLE_INSERT, err)))
            return PB_EDB;
        long long id = last - (long long)n + 1 + (long long)k;
        for (size_t j = 0; j < ns; j++) {
            sqlite3_bind_int64(q, 1, id);
            sqlite3_bind_int64(q, 2, (sqlite3_int64)j);
            sqlite3_bind_double(q, 3, v[j]);
            int rc = db_step_done(db, q, err, "cannot insert sample");
            if (rc)
                return rc;
        }
    }
    return PB_OK;
}

/* ==== time series ==== */

static void bind_num(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

/* The series of set, after its results: result i of the set got row id
 * first + i (one writer, rows appended in order). */
static int store_series(struct pb_db *db, const struct pb_resultset *set,
                        long long source_id, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_FIRST_RESULT, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, source_id);
    int rc = PB_OK;
    long long first = db_find_id(db, q, &rc, err);
    for (size_t i = 0; i < set->nseries && !rc; i++) {
        const struct pb_series *s = &set->series[i];
        q = db_stmt(db, S_SERIES_INSERT, err);
        if (!q)
            return PB_EDB;
        sqlite3_bind_int64(q, 1, first + (long long)s->result);
        bind_str(q, 2, s->name);
        bind_str(q, 3, s->unit);
        bind_str(q, 4, s->kind);
        if (s->width_ms > 0)
            sqlite3_bind_int64(q, 5, s->width_ms);
        else
            sqlite3_bind_null(q, 5);
        if ((rc = db_step_done(db, q, err, "cannot insert series")))
            break;
        long long sid = sqlite3_last_insert_rowid(db->h);
        sqlite3_stmt *pq = db_stmt(db, S_POINT_INSERT, err);
        if (!pq)
            return PB_EDB;
        for (size_t j = 0; j < s->npts && !rc; j++) {
            const struct pb_point *p = &s->pts[j];
            sqlite3_bind_int64(pq, 1, sid);
            sqlite3_bind_int64(pq, 2, (long long)j);
            sqlite3_bind_int64(pq, 3, p->t_ms);
            bind_num(pq, 4, p->value);
            if (p->n)
                sqlite3_bind_int64(pq, 5, p->n);
            else
                sqlite3_bind_null(pq, 5);
            bind_num(pq, 6, p->min);
            bind_num(pq, 7, p->max);
            bind_num(pq, 8, p->p50);
            bind_num(pq, 9, p->p90);
            bind_num(pq, 10, p->p95);
            bind_num(pq, 11, p->p99);
            bind_num(pq, 12, p->p999);
            rc = db_step_done(db, pq, err, "cannot insert series point");
        }
    }
    return rc;
}

int db_store_fact(struct pb_db *db, long long source_id, const char *host,
                  const char *key, const char *value, struct pb_err *err)
{
    sqlite3_stmt *fq = db_stmt(db, S_FACT_INSERT, err);
    if (!fq)
        return PB_EDB;
    sqlite3_bind_int64(fq, 1, source_id);
    db_bind_text(fq, 2, host);
    db_bind_text(fq, 3, key);
    db_bind_text(fq, 4, value);
    return db_step_done(db, fq, err, "cannot insert fact");
}

int db_store_rows(struct pb_db *db, const struct pb_resultset *set,
                  long long source_id, struct pb_err *err)
{
    long long *cfg = pb_xcalloc(set->nconfigs + 1, sizeof(*cfg));
    long long *own = pb_xcalloc(set->nconfigs + 1, sizeof(*own));
    long long *tst = pb_xcalloc(set->ntests + 1, sizeof(*tst));
    struct addr_ids memo = {NULL, 0, 0};
    int rc = store_configs(db, set, source_id, own, cfg, err);

    for (size_t i = 0; i < set->ntests && !rc; i++) {
        const struct pb_test *t = &set->tests[i];
        tst[i] = entity_id(db, S_TEST_FIND, S_TEST_INSERT, S_TEST_PARAM_INSERT,
                           t->tool ? t->tool : "", t->name, t->params,
                           t->nparams, &rc, err);
    }
    /* Rows go 256 per INSERT, the rest in INSERTs of 128, 64, ... 1
     * rows: each statement costs as much as several rows (bench/: half
     * the CPU of one INSERT per row for a fio file of 33 results; 256
     * rather than 64: ~0.15 s less of 3.5 M bonnie++ results). */
    for (size_t i = 0; i < set->nresults && !rc;) {
        size_t left = set->nresults - i;
        int lg = MULTI_LOG;
        while ((size_t)1 << lg > left)
            lg--;
        size_t n = (size_t)1 << lg;
        sqlite3_stmt *q = multi_stmt(db, lg, err);
        if (!q) {
            rc = PB_EDB;
            break;
        }
        for (size_t k = 0; k < n && !rc; k++, i++) {
            const struct pb_result *r = &set->results[i];
            long long ids[R__COUNT] = {0};
            rc = result_ids(db, &memo, r, ids, err);
            if (!rc)
                bind_result(q, (int)k * RESULT_COLS, source_id, ids[R_HOST],
                            cfg[r->config], tst[r->test], ids, own[r->config],
                            r);
        }
        if (!rc)
            rc = db_step_done(db, q, err, "cannot insert result");
        else
            sqlite3_reset(q);
        if (!rc)
            rc = store_samples(db, set, i - n, n,
                               sqlite3_last_insert_rowid(db->h), err);
    }
    for (size_t i = 0; i < set->nfacts && !rc; i++)
        rc = db_store_fact(db, source_id, set->facts[i].host,
                           set->facts[i].key, set->facts[i].value, err);
    if (!rc && set->nseries)
        rc = store_series(db, set, source_id, err);
    free(cfg);
    free(own);
    free(tst);
    free(memo.v);
    return rc;
}
