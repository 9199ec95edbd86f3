/* The objects of the zfs-props parser (datasets and pools), their facts
 * and what becomes of them: configs and results in c->out.
 *
 * An object's configuration and dimensions live in c->set, a set of the
 * parser's own that is never stored; emit copies them to c->out, the
 * caller's set, object by object, with the results, so a streamed parse
 * can store c->out in parts.
 *
 * Facts ("<dataset>:<property>", "pool:<pool>:<key>") are kept per
 * object, in the order given (the repeats too: pb_rs_fact keeps a key's
 * first place and last value), and written to c->out object by object,
 * ordered by where the object's last fact came (c->pos, the furthest line
 * stored from so far) and then by first appearance. For the usual file, which
 * describes each object in one place, that is the order of the lines. A
 * streamed parse reads the file twice: pass A stores nothing and notes where
 * each object's last fact comes (and finds every input error before anything is
 * stored); pass B writes an object's facts once the reading is past that place,
 * and stores a part when one is due (pb_zfs_flush_point). So a streamed parse
 * holds the facts of the objects not finished yet, not those of the file.
 * docs/performance.md, "Streaming ingest". */
#include "ingest/zfs/vdev_int.h"
#include "ingest/zfs/zfs_int.h"

#include <stdlib.h>
#include <string.h>

/* ==== objects ==== */

uint64_t pb_zfs_hash(uint64_t seed, const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull ^ seed; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int obj_is(const struct obj *o, int kind, const char *name, size_t n)
{
    return o->kind == kind && strlen(o->name) == n && !memcmp(o->name, name, n);
}

/* Slot of the object (or the empty slot where it goes) in c->ix. */
static size_t *obj_slot(struct ctx *c, int kind, const char *name, size_t n)
{
    size_t mask = c->ixcap - 1;
    size_t i = (size_t)pb_zfs_hash((uint64_t)kind, name, n) & mask;
    while (c->ix[i] && !obj_is(&c->objs[c->ix[i] - 1], kind, name, n))
        i = (i + 1) & mask;
    return &c->ix[i];
}

/* Keep the index at most half full: O(1) lookups for 20,000 datasets. */
static void obj_index_grow(struct ctx *c)
{
    if (c->ixcap && (c->nobjs + 1) * 2 <= c->ixcap)
        return;
    free(c->ix);
    c->ixcap = c->ixcap ? c->ixcap * 2 : 64;
    c->ix = pb_xcalloc(c->ixcap, sizeof(*c->ix));
    for (size_t k = 0; k < c->nobjs; k++) {
        const struct obj *o = &c->objs[k];
        *obj_slot(c, o->kind, o->name, strlen(o->name)) = k + 1;
    }
}

struct obj *pb_zfs_find_obj(struct ctx *c, int kind, const char *name, size_t n)
{
    if (c->last_obj < c->nobjs && obj_is(&c->objs[c->last_obj], kind, name, n))
        return &c->objs[c->last_obj];
    if (!c->ixcap)
        return NULL;
    size_t k = *obj_slot(c, kind, name, n);
    if (!k)
        return NULL;
    c->last_obj = k - 1;
    return &c->objs[k - 1];
}

struct obj *pb_zfs_get_obj(struct ctx *c, int kind, const char *name, size_t n)
{
    struct obj *f = pb_zfs_find_obj(c, kind, name, n);
    if (f)
        return f;
    obj_index_grow(c);
    PB_GROW(c->objs, c->capobjs, c->nobjs + 1);
    struct obj *o = &c->objs[c->nobjs];
    memset(o, 0, sizeof(*o));
    o->kind = kind;
    o->name = pb_arena_strndup(&c->set->arena, name, n);
    /* c->set's configs are the objects' own: one per name (a pool and
     * its root dataset share it), copied to c->out at emit */
    o->config = pb_rs_config(c->set, o->name);
    /* "zroot/var/log" names a dataset; it does not describe a slog. */
    c->set->configs[o->config].label_is_name = 1;
    *obj_slot(c, kind, name, n) = c->nobjs + 1;
    c->last_obj = c->nobjs++;
    return o;
}

const char *pb_zfs_cfg_get(const struct pb_resultset *set, size_t config,
                           const char *key)
{
    const struct pb_config *cf = &set->configs[config];
    for (size_t i = 0; i < cf->nparams; i++)
        if (!strcmp(cf->params[i].key, key))
            return cf->params[i].value;
    return NULL;
}

/* ==== facts ==== */

static void fb_put(struct obj *o, const char *s, size_t n)
{
    if (n == 0)
        return;
    PB_GROW(o->fb, o->fbcap, o->fbn + n);
    memcpy(o->fb + o->fbn, s, n);
    o->fbn += n;
}

/* The pair at fb + at: property, value; the offset of the next one. */
static size_t fb_pair(const char *fb, size_t at, const char **prop,
                      const char **value)
{
    *prop = fb + at;
    *value = *prop + strlen(*prop) + 1;
    return (size_t)(*value - fb) + strlen(*value) + 1;
}

/* One pair per property, at its first place with its last value (what
 * pb_rs_fact makes of them): an object described again and again keeps
 * what one description holds, not all of them. */
static void fb_compact(struct obj *o)
{
    size_t n = 0;
    for (size_t at = 0; at < o->fbn; n++) {
        const char *p, *v;
        at = fb_pair(o->fb, at, &p, &v);
    }
    size_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    struct slot {
        const char *prop, *value;
    } *tab = pb_xcalloc(cap, sizeof(*tab));
    size_t *firsts = pb_xcalloc(n + 1, sizeof(*firsts)); /* slots, in order */
    size_t nf = 0;
    for (size_t at = 0; at < o->fbn;) {
        const char *p, *v;
        at = fb_pair(o->fb, at, &p, &v);
        size_t i = (size_t)pb_zfs_hash(0, p, strlen(p)) & (cap - 1);
        while (tab[i].prop && strcmp(tab[i].prop, p) != 0)
            i = (i + 1) & (cap - 1);
        if (!tab[i].prop) {
            tab[i].prop = p;
            firsts[nf++] = i;
        }
        tab[i].value = v;
    }
    char *old = o->fb;
    o->fb = NULL;
    o->fbn = o->fbcap = 0;
    for (size_t k = 0; k < nf; k++) {
        const struct slot *t = &tab[firsts[k]];
        fb_put(o, t->prop, strlen(t->prop) + 1);
        fb_put(o, t->value, strlen(t->value) + 1);
    }
    o->fbkeep = o->fbn;
    free(old);
    free(firsts);
    free(tab);
}

/* The facts of o to c->out, in the order they came: keys
 * "<dataset>:<property>" and "pool:<pool>:<key>". */
static void write_facts(struct ctx *c, struct obj *o)
{
    struct pb_buf key = PB_BUF_INIT;
    for (size_t at = 0; at < o->fbn;) {
        const char *p, *v;
        at = fb_pair(o->fb, at, &p, &v);
        pb_buf_reset(&key);
        pb_buf_printf(&key, "%s%s:%s", o->kind == O_POOL ? "pool:" : "",
                      o->name, p);
        pb_rs_fact(c->out, NULL, pb_buf_str(&key), v);
    }
    pb_buf_release(&key);
    free(o->fb);
    o->fb = NULL;
    o->fbn = o->fbcap = o->fbkeep = 0;
    o->facts_out = 1;
}

void pb_zfs_fact(struct ctx *c, struct obj *o, const char *prop,
                 const char *value)
{
    o->fact_pos = c->pos;
    o->has_facts = 1;
    if (c->facts_off)
        return;
    fb_put(o, prop, strlen(prop) + 1);
    fb_put(o, value, strlen(value) + 1);
    if (o->fbn > 2 * (o->fbkeep > 256 ? o->fbkeep : 256))
        fb_compact(o);
    if (o->facts_out) /* pass B saw more than pass A: keep it anyway */
        write_facts(c, o);
}

static int by_pos(const void *a, const void *b)
{
    const struct zord *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void pb_zfs_fact_order(struct ctx *c, const struct obj *objs, size_t n)
{
    free(c->order);
    c->order = pb_xcalloc(n + 1, sizeof(*c->order));
    c->norder = c->next_order = 0;
    for (size_t i = 0; i < n; i++)
        if (objs[i].has_facts) {
            c->order[c->norder].pos = objs[i].fact_pos;
            c->order[c->norder++].idx = i;
        }
    qsort(c->order, c->norder, sizeof(*c->order), by_pos);
}

/* Write the facts of the objects in c->order whose last fact came before
 * position upto. */
static void facts_before(struct ctx *c, size_t upto)
{
    for (; c->next_order < c->norder; c->next_order++) {
        const struct zord *z = &c->order[c->next_order];
        if (z->pos >= upto || z->idx >= c->nobjs)
            break;
        write_facts(c, &c->objs[z->idx]);
    }
}

int pb_zfs_flush_point(struct ctx *c)
{
    if (!c->streamed || c->facts_off)
        return PB_OK;
    facts_before(c, c->pos);
    if (!pb_rs_flush_due(c->out, c->out->nfacts))
        return PB_OK;
    return pb_rs_flush(c->out, pb_zfs_read_upto(c));
}

/* ==== emit ==== */

static int ds_has_results(const struct obj *o)
{
    /* actual_savings needs used or referenced: never a result alone */
    for (size_t k = 0; k < N_DSM; k++)
        if (o->have[k])
            return 1;
    return 0;
}

int pb_zfs_has_results(const struct ctx *c)
{
    for (size_t i = 0; i < c->nobjs; i++) {
        const struct obj *o = &c->objs[i];
        if (o->kind == O_DS && ds_has_results(o))
            return 1;
        for (size_t k = 0; o->kind == O_POOL && k < N_PM + 3; k++)
            if (o->have[k])
                return 1;
    }
    return 0;
}

/* The config of o in c->out, made like c->set's. */
static size_t out_config(struct ctx *c, const struct obj *o)
{
    const struct pb_config *src = &c->set->configs[o->config];
    size_t ci = pb_rs_config(c->out, src->label);
    c->out->configs[ci].label_is_name = src->label_is_name;
    for (size_t k = 0; k < src->nparams; k++)
        pb_rs_config_param_origin(c->out, ci, src->params[k].key,
                                  src->params[k].value, src->params[k].origin);
    return ci;
}

static void add(struct ctx *c, size_t ci, size_t *test, const char *name,
                const char *tool, const char *metric, const char *unit, int dir,
                double v)
{
    if (*test == (size_t)-1)
        *test = pb_rs_test(c->out, name, tool);
    pb_rs_add(c->out, ci, *test, NULL, NULL, metric, unit, dir, v);
    c->nemitted++;
}

static void copy_dim(struct ctx *c, const struct obj *from,
                     const struct obj *to, const char *key)
{
    const char *v = pb_zfs_cfg_get(c->set, from->config, key);
    if (v && !pb_zfs_cfg_get(c->set, to->config, key))
        pb_rs_config_param(c->set, to->config, key, v);
}

/* The pool's dimensions (its vdevs, ashift) to dataset o, when the pool
 * is in this file. */
static void pool_dims(struct ctx *c, const struct obj *o)
{
    size_t pn = strcspn(o->name, "/@#");
    const struct obj *p = pb_zfs_find_obj(c, O_POOL, o->name, pn);
    if (!p || p->config == o->config)
        return;
    for (size_t k = 0; pb_vtree_keys[k]; k++)
        copy_dim(c, p, o, pb_vtree_keys[k]);
    copy_dim(c, p, o, "ashift");
}

int pb_zfs_emit(struct ctx *c)
{
    if (!c->streamed)
        pb_zfs_fact_order(c, c->objs, c->nobjs);
    facts_before(c, (size_t)-1);
    for (size_t i = 0; i < c->nobjs; i++)
        if (c->objs[i].fbn)
            write_facts(c, &c->objs[i]);
    size_t t_zfs = (size_t)-1, t_pool = (size_t)-1, t_status = (size_t)-1;
    int rc = PB_OK;
    struct zsav *sav = pb_xcalloc(c->nobjs + 1, sizeof(*sav));
    pb_zfs_savings(c, sav);
    for (size_t i = 0; i < c->nobjs && rc == PB_OK; i++) {
        struct obj *o = &c->objs[i];
        if (o->kind == O_DS)
            pool_dims(c, o);
        size_t ci = out_config(c, o);
        if (o->kind == O_DS) {
            for (size_t k = 0; k < N_DSM; k++)
                if (o->have[k])
                    add(c, ci, &t_zfs, "zfs space", "zfs",
                        pb_zfs_ds_metrics[k].prop, pb_zfs_ds_metrics[k].unit,
                        pb_zfs_ds_metrics[k].dir, o->v[k]);
            const struct zsav *z = &sav[i];
            if (z->stored)
                add(c, ci, &t_zfs, "zfs space", "zfs", "actual_savings",
                    "ratio", PB_DIR_HIGHER, z->ratio);
            if (z->basis) {
                char *key = pb_arena_printf(&c->row, "%s:actual_savings_basis",
                                            o->name);
                pb_rs_fact(c->out, NULL, key, z->basis);
                pb_arena_reset(&c->row);
            }
        } else {
            for (size_t k = 0; k < N_PM; k++)
                if (o->have[k])
                    add(c, ci, &t_pool, "zpool space", "zpool",
                        pb_zfs_pool_metrics[k].prop,
                        pb_zfs_pool_metrics[k].unit, pb_zfs_pool_metrics[k].dir,
                        o->v[k]);
            for (size_t k = 0; k < 3; k++)
                if (o->have[N_PM + k])
                    add(c, ci, &t_status, "zpool status", "zpool",
                        pb_zfs_err_metrics[k], "count", PB_DIR_LOWER,
                        o->v[N_PM + k]);
        }
        if (pb_rs_flush_due(c->out, c->out->nfacts)) {
            rc = pb_rs_flush(c->out, c->buf + c->len);
            t_zfs = t_pool = t_status = (size_t)-1;
        }
    }
    free(sav);
    return rc;
}
