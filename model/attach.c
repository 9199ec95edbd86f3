/* Dimensions attached to a label (configuration sheets, companion ZFS
 * outputs) and the re-keying of configurations when they come or go: a
 * configuration's dimensions are its own config's plus its label's, and
 * its identity is the label plus all of them (docs/model.md). */
#include "model/db_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== origins ==== */

static int has_kind(const char *origin, const char *kind)
{
    size_t n = strlen(kind);
    return strncmp(origin, kind, n) == 0 && origin[n] == ':';
}

int db_origin_rank(const char *origin)
{
    if (!origin)
        return 2;
    static const struct {
        const char *kind;
        int rank;
    } ranks[] = {{"set", 0},     {"plan", 0},      {"sheet", 1},
                 {"command", 3},
                 {"companion", 4}, {"label", 5},   {"title", 5},
                 {"path", 5}};
    for (size_t i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++)
        if (has_kind(origin, ranks[i].kind))
            return ranks[i].rank;
    return 6;
}

int db_origin_attached(const char *origin)
{
    return origin && (has_kind(origin, "sheet") ||
                      has_kind(origin, "companion"));
}

/* ==== dimension lists ==== */

struct dim {
    char *key, *value, *origin; /* origin NULL = parser */
};

struct dims {
    struct dim *v;
    size_t n, cap;
};

static void dims_add(struct dims *d, const char *k, const char *v,
                     const char *o)
{
    PB_GROW(d->v, d->cap, d->n + 1);
    d->v[d->n].key = pb_xstrdup(k ? k : "");
    d->v[d->n].value = pb_xstrdup(v ? v : "");
    d->v[d->n].origin = o ? pb_xstrdup(o) : NULL;
    d->n++;
}

static void dims_release(struct dims *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].key);
        free(d->v[i].value);
        free(d->v[i].origin);
    }
    free(d->v);
    memset(d, 0, sizeof(*d));
}

/* The better of two statements of one key: lower rank, then the smaller
 * origin text, then the smaller value. Total, so never order-dependent. */
static int dim_cmp(const struct dim *a, const struct dim *b)
{
    int ra = db_origin_rank(a->origin), rb = db_origin_rank(b->origin);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    int c = strcmp(a->origin ? a->origin : "", b->origin ? b->origin : "");
    return c ? c : strcmp(a->value, b->value);
}

static int cmp_dim(const void *x, const void *y)
{
    const struct dim *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : dim_cmp(a, b);
}

/* Rows (key, value, origin) of a bound statement into d. */
static int load_dims(struct pb_db *db, sqlite3_stmt *q, struct dims *d,
                     struct pb_err *err)
{
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        dims_add(d, db_col_text(q, 0), db_col_text(q, 1), db_col_text(q, 2));
    return db_finish_query(db, q, rc, 0, err);
}

/* The label's attached dimensions, the best statement per key, sorted. */
static int label_dims(struct pb_db *db, const char *label, struct dims *out,
                      struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_LABEL_PARAMS, err);
    if (!q)
        return PB_EDB;
    db_bind_text(q, 1, label);
    struct dims all = {0};
    int rc = load_dims(db, q, &all, err);
    if (!rc && all.n > 1)
        qsort(all.v, all.n, sizeof(*all.v), cmp_dim);
    for (size_t i = 0; i < all.n && !rc; i++)
        if (i == 0 || strcmp(all.v[i].key, all.v[i - 1].key))
            dims_add(out, all.v[i].key, all.v[i].value, all.v[i].origin);
    dims_release(&all);
    return rc;
}

/* Own dims of own config own_id plus the attached ones (sorted by key):
 * an attached dimension fills a key the source did not state, and
 * replaces one it stated only when its origin ranks higher. */
static int effective(struct pb_db *db, long long own_id,
                     const struct dims *att, struct dims *out,
                     struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_OWN_PARAMS, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, own_id);
    struct dims own = {0};
    int rc = load_dims(db, q, &own, err);
    size_t i = 0, j = 0;
    while (!rc && (i < own.n || j < att->n)) {
        int c = i == own.n   ? 1
                : j == att->n ? -1
                              : strcmp(own.v[i].key, att->v[j].key);
        const struct dim *d;
        if (c < 0) {
            d = &own.v[i++];
        } else if (c > 0) {
            d = &att->v[j++];
        } else {
            int att_wins = db_origin_rank(att->v[j].origin) <
                           db_origin_rank(own.v[i].origin);
            d = att_wins ? &att->v[j] : &own.v[i];
            i++;
            j++;
        }
        dims_add(out, d->key, d->value, d->origin);
    }
    dims_release(&own);
    return rc;
}

/* Sorted "k=v\x1f..." of sorted dims: the config signature (values only,
 * as store.c computes it for parameter lists). Caller frees. */
static char *dims_signature(const struct dims *d)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    for (size_t i = 0; i < d->n; i++) {
        if (i)
            pb_buf_putc(&b, '\x1f');
        pb_buf_printf(&b, "%s=%s", d->v[i].key, d->v[i].value);
    }
    return pb_buf_take(&b);
}

/* ==== configs ==== */

static int write_params(struct pb_db *db, long long cid, const struct dims *d,
                        struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_CONFIG_PARAMS_CLEAR, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, cid);
    if (db_step_done(db, q, err, "cannot re-key configuration"))
        return PB_EDB;
    for (size_t i = 0; i < d->n; i++) {
        if (!(q = db_stmt(db, S_CONFIG_PARAM_INSERT, err)))
            return PB_EDB;
        sqlite3_bind_int64(q, 1, cid);
        db_bind_text(q, 2, d->v[i].key);
        db_bind_text(q, 3, d->v[i].value);
        db_bind_text(q, 4, d->v[i].origin);
        if (db_step_done(db, q, err, "cannot insert parameter"))
            return PB_EDB;
    }
    return PB_OK;
}

/* Rewrite config cid's params from every own config mapped to it: the
 * values agree (same signature); each key keeps its best origin. */
static int refresh_config(struct pb_db *db, long long cid, const char *label,
                          const struct dims *att, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_CONFIG_OWNS, err);
    if (!q)
        return PB_EDB;
    db_bind_text(q, 1, label);
    sqlite3_bind_int64(q, 2, cid);
    long long *owns = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        PB_GROW(owns, cap, n + 1);
        owns[n++] = sqlite3_column_int64(q, 0);
    }
    rc = db_finish_query(db, q, rc, 0, err);
    struct dims all = {0}, best = {0};
    for (size_t i = 0; i < n && !rc; i++)
        rc = effective(db, owns[i], att, &all, err);
    if (!rc && all.n > 1)
        qsort(all.v, all.n, sizeof(*all.v), cmp_dim);
    for (size_t i = 0; i < all.n && !rc; i++)
        if (i == 0 || strcmp(all.v[i].key, all.v[i - 1].key))
            dims_add(&best, all.v[i].key, all.v[i].value, all.v[i].origin);
    if (!rc)
        rc = write_params(db, cid, &best, err);
    dims_release(&all);
    dims_release(&best);
    free(owns);
    return rc;
}

static long long insert_config(struct pb_db *db, const char *label,
                               const char *sig, int *rc, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_CONFIG_INSERT, err);
    if (!q) {
        *rc = PB_EDB;
        return 0;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    if ((*rc = db_step_done(db, q, err, "cannot insert config")))
        return 0;
    return sqlite3_last_insert_rowid(db->h);
}

static int set_own_config(struct pb_db *db, long long own_id, long long cid,
                          struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_OWN_SET_CONFIG, err);
    if (!q)
        return PB_EDB;
    sqlite3_bind_int64(q, 1, own_id);
    sqlite3_bind_int64(q, 2, cid);
    return db_step_done(db, q, err, "cannot re-key configuration");
}

long long db_place_own(struct pb_db *db, long long own_id, const char *label,
                       int *rc, struct pb_err *err)
{
    struct dims att = {0}, eff = {0};
    long long cid = 0;
    char *sig = NULL;
    if ((*rc = label_dims(db, label, &att, err)) ||
        (*rc = effective(db, own_id, &att, &eff, err)))
        goto out;
    sig = dims_signature(&eff);
    sqlite3_stmt *q = db_stmt(db, S_CONFIG_FIND, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    cid = db_find_id(db, q, rc, err);
    if (*rc)
        goto out;
    int fresh = !cid;
    if (fresh && !(cid = insert_config(db, label, sig, rc, err)))
        goto out;
    if ((*rc = set_own_config(db, own_id, cid, err)))
        goto out;
    /* a new config's params are this own config's; a found one may get
     * a better origin from it */
    *rc = fresh ? write_params(db, cid, &eff, err)
                : refresh_config(db, cid, label, &att, err);
out:
    dims_release(&att);
    dims_release(&eff);
    free(sig);
    return *rc ? 0 : cid;
}

long long db_place_new_own(struct pb_db *db, long long own_id,
                           const char *label, const struct pb_kv *kv,
                           size_t n, int *rc, struct pb_err *err)
{
    /* no attached dimensions: the effective ones are its own, and the
     * config's signature is theirs (dims_signature of the same) */
    char *sig = db_signature(kv, n, 0);
    long long cid = 0;
    sqlite3_stmt *q = db_stmt(db, S_CONFIG_INSERT_NEW, err);
    if (!q) {
        *rc = PB_EDB;
        goto out;
    }
    db_bind_text(q, 1, label);
    db_bind_text(q, 2, sig);
    if ((*rc = db_step_done(db, q, err, "cannot insert config")))
        goto out;
    int fresh = sqlite3_changes(db->h) == 1;
    if (fresh) {
        cid = sqlite3_last_insert_rowid(db->h);
    } else if ((q = db_stmt(db, S_CONFIG_FIND, err))) {
        db_bind_text(q, 1, label);
        db_bind_text(q, 2, sig);
        cid = db_find_id(db, q, rc, err);
        if (!cid && !*rc)
            *rc = db_fail(db, err, "cannot insert config");
    } else {
        *rc = PB_EDB;
    }
    if (*rc || (*rc = set_own_config(db, own_id, cid, err)))
        goto out;
    if (!fresh) {
        struct dims att = {0};
        *rc = refresh_config(db, cid, label, &att, err);
        goto out;
    }
    /* write_params: none left of an earlier config of this id, then its
     * own */
    if (!(q = db_stmt(db, S_CONFIG_PARAMS_CLEAR, err))) {
        *rc = PB_EDB;
        goto out;
    }
    sqlite3_bind_int64(q, 1, cid);
    if (!(*rc = db_step_done(db, q, err, "cannot re-key configuration")))
        *rc = db_new_params(db, 1, cid, kv, n, err);
out:
    free(sig);
    return *rc ? 0 : cid;
}

/* ==== re-keying ==== */

struct own {
    long long id, config_id, target;
    char *sig;
};

static int cmp_own(const void *x, const void *y)
{
    const struct own *a = x, *b = y;
    int c = strcmp(a->sig, b->sig);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

struct cfg {
    long long id;
    char *sig;
    int claimed;
};

/* Every own config of label gets the config of its new signature: one
 * whose signature it already is, else the smallest config id among the
 * group's current ones (so results then sheet and sheet then results give
 * the same ids), else a new one. Configs left without own configs are
 * deleted (merged). *changed is set when an existing mapping moved. */
static int rekey_label(struct pb_db *db, const char *label, int *changed,
                       struct pb_err *err)
{
    struct dims att = {0};
    struct own *o = NULL;
    struct cfg *c = NULL;
    size_t no = 0, capo = 0, nc = 0, capc = 0;
    int rc = label_dims(db, label, &att, err);
    sqlite3_stmt *q = rc ? NULL : db_stmt(db, S_LABEL_OWNS, err);
    if (!rc && !q)
        rc = PB_EDB;
    if (!rc) {
        int st;
        db_bind_text(q, 1, label);
        while ((st = sqlite3_step(q)) == SQLITE_ROW) {
            PB_GROW(o, capo, no + 1);
            o[no].id = sqlite3_column_int64(q, 0);
            o[no].config_id = sqlite3_column_int64(q, 1);
            o[no].target = 0;
            o[no].sig = NULL;
            no++;
        }
        rc = db_finish_query(db, q, st, 0, err);
    }
    for (size_t i = 0; i < no && !rc; i++) {
        struct dims eff = {0};
        rc = effective(db, o[i].id, &att, &eff, err);
        o[i].sig = dims_signature(&eff);
        dims_release(&eff);
    }
    if (!rc && !(q = db_stmt(db, S_LABEL_CONFIGS, err)))
        rc = PB_EDB;
    if (!rc) {
        int st;
        db_bind_text(q, 1, label);
        while ((st = sqlite3_step(q)) == SQLITE_ROW) {
            PB_GROW(c, capc, nc + 1);
            c[nc].id = sqlite3_column_int64(q, 0);
            c[nc].sig = pb_xstrdup(db_col_text(q, 1));
            c[nc].claimed = 0;
            nc++;
        }
        rc = db_finish_query(db, q, st, 0, err);
    }
    if (!rc && no > 1)
        qsort(o, no, sizeof(*o), cmp_own);
    /* phase 1: groups whose signature a config already has */
    for (size_t i = 0; i < no && !rc;) {
        size_t j = i;
        while (j < no && !strcmp(o[j].sig, o[i].sig))
            j++;
        for (size_t k = 0; k < nc; k++)
            if (!strcmp(c[k].sig, o[i].sig)) {
                c[k].claimed = 1;
                for (size_t m = i; m < j; m++)
                    o[m].target = c[k].id;
                break;
            }
        i = j;
    }
    /* phase 2: the others take a config of theirs or a new one */
    for (size_t i = 0; i < no && !rc;) {
        size_t j = i;
        while (j < no && !strcmp(o[j].sig, o[i].sig))
            j++;
        if (!o[i].target) {
            size_t pick = SIZE_MAX;
            for (size_t m = i; m < j; m++)
                for (size_t k = 0; k < nc; k++)
                    if (c[k].id == o[m].config_id && !c[k].claimed &&
                        (pick == SIZE_MAX || c[k].id < c[pick].id))
                        pick = k;
            long long t = 0;
            if (pick != SIZE_MAX) {
                c[pick].claimed = 1;
                t = c[pick].id;
                if (!(q = db_stmt(db, S_CONFIG_RESIGN, err))) {
                    rc = PB_EDB;
                    break;
                }
                sqlite3_bind_int64(q, 1, t);
                db_bind_text(q, 2, o[i].sig);
                rc = db_step_done(db, q, err, "cannot re-key configuration");
                *changed = 1;
            } else {
                t = insert_config(db, label, o[i].sig, &rc, err);
            }
            for (size_t m = i; m < j; m++)
                o[m].target = t;
        }
        i = j;
    }
    for (size_t i = 0; i < no && !rc; i++) {
        if (o[i].target == o[i].config_id)
            continue;
        if (o[i].config_id) {
            *changed = 1;
            if (!(q = db_stmt(db, S_REMAP_ADD, err))) {
                rc = PB_EDB;
                break;
            }
            sqlite3_bind_int64(q, 1, o[i].id);
            sqlite3_bind_int64(q, 2, o[i].target);
            if ((rc = db_step_done(db, q, err, "cannot re-key configuration")))
                break;
        }
        rc = set_own_config(db, o[i].id, o[i].target, err);
    }
    /* sorted by signature: each group's first own config names it */
    for (size_t i = 0; i < no && !rc; i++)
        if (i == 0 || strcmp(o[i].sig, o[i - 1].sig))
            rc = refresh_config(db, o[i].target, label, &att, err);
    /* configs no own config maps to any more: merged into another */
    for (size_t k = 0; k < nc && !rc; k++) {
        if (c[k].claimed)
            continue;
        *changed = 1;
        static const enum db_stmt del[] = {S_CONFIG_PARAMS_CLEAR,
                                           S_CONFIG_DELETE};
        for (size_t d = 0; d < 2 && !rc; d++) {
            if (!(q = db_stmt(db, del[d], err))) {
                rc = PB_EDB;
                break;
            }
            sqlite3_bind_int64(q, 1, c[k].id);
            rc = db_step_done(db, q, err, "cannot merge configuration");
        }
    }
    for (size_t i = 0; i < no; i++)
        free(o[i].sig);
    for (size_t k = 0; k < nc; k++)
        free(c[k].sig);
    free(o);
    free(c);
    dims_release(&att);
    return rc;
}

int db_rekey_labels(struct pb_db *db, char **labels, size_t n,
                    struct pb_err *err)
{
    int changed = 0, rc = db_exec(db, S_REMAP_CLEAR, err);
    for (size_t i = 0; i < n && !rc; i++)
        rc = rekey_label(db, labels[i], &changed, err);
    if (!rc && changed)
        rc = db_exec(db, S_REMAP_RESULTS, err);
    if (!rc && changed)
        rc = db_exec(db, S_REMAP_CLEAR, err);
    if (!rc && changed) {
        /* ids of own configs and configs cached here or elsewhere moved */
        rc = db_exec(db, S_GEN_BUMP, err);
        db_forget_ids(db);
        db->generation = -1; /* read again at the next transaction */
    }
    return rc;
}

int db_sync_generation(struct pb_db *db, struct pb_err *err)
{
    sqlite3_stmt *q = db_stmt(db, S_GEN_GET, err);
    if (!q)
        return PB_EDB;
    int rc = PB_OK;
    long long g = db_find_id(db, q, &rc, err);
    if (rc)
        return rc;
    if (g != db->generation) {
        db_forget_ids(db);
        db->generation = g;
    }
    return PB_OK;
}
