/* actual_savings of each dataset of a zfs-props input: the logical bytes
 * over the bytes that hold them. `used` also counts space that holds no
 * data: the unused part of a refreservation (a thick zvol's, in its own
 * `used` and in every ancestor's) and of a reservation (in the parent's).
 * That space is taken out where the input says how much it is, and
 * actual_savings is left out, with the reason, where it cannot say
 * (docs/formats.md, "`actual_savings` from the space actually
 * written"). */
#define _GNU_SOURCE /* qsort_r */
#include "ingest/zfs/zfs_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A missing child may hide at most this much of usedbychildren: 2%, or
 * 1 MiB on small pools (the root's hidden $MOS and $FREE children, and
 * the rounding of human sizes, are in it too). */
#define SLACK_SHARE 0.02
#define SLACK_MIN   (1024.0 * 1024.0)

/* One dataset's space, as its subtree in the input adds up. */
struct node {
    size_t obj;
    double nondata;  /* bytes of used that hold no data */
    double children; /* what the children in the input charge to it */
    int from_desc;   /* nondata has a descendant's share */
    const char *why; /* NULL: nondata is known; else why not */
};

/* ctx: the struct ctx whose objs the nodes index (qsort_r: files are
 * parsed on several threads, a file-level context was a data race that
 * crashed one `ingest --dump` of a folder in about fifty) */
static int by_name_desc(const void *a, const void *b, void *ctx)
{
    const struct ctx *c = ctx;
    const struct obj *x = &c->objs[((const struct node *)a)->obj];
    const struct obj *y = &c->objs[((const struct node *)b)->obj];
    return strcmp(y->name, x->name);
}

static int is_volume(const struct ctx *c, const struct obj *o)
{
    if (o->dstype)
        return o->dstype == 'v';
    return pb_zfs_cfg_get(c->set, o->config, "volblocksize") &&
           !pb_zfs_cfg_get(c->set, o->config, "recordsize");
}

/* The bytes of o's own used that its refreservation holds without data;
 * NULL, or why they are not known. */
static const char *own_nondata(struct ctx *c, const struct obj *o, double *out)
{
    *out = 0;
    if (o->have_sp[SP_UBRR]) {
        *out = o->sp[SP_UBRR];
        return NULL;
    }
    if (o->have_sp[SP_REFRESV] && o->sp[SP_REFRESV] == 0)
        return NULL;
    if (is_volume(c, o) || o->have_sp[SP_REFRESV])
        /* volumes are thick unless made with -s: used holds the
         * refreservation */
        return pb_arena_printf(&c->keep,
                               "left out: usedbyrefreservation of %s is not "
                               "in the input",
                               o->name);
    return NULL; /* a filesystem: no refreservation unless set */
}

/* The index of the closest ancestor of nodes[i] in the input, or -1:
 * names are sorted descending, so ancestors come later. */
static long parent_of(struct ctx *c, const struct node *nodes, size_t n,
                      size_t i, const size_t *where)
{
    const char *name = c->objs[nodes[i].obj].name;
    size_t len = strlen(name);
    while (len > 0) {
        while (len > 0 && name[len - 1] != '/')
            len--;
        if (len == 0)
            break;
        len--; /* the '/' */
        const struct obj *p = pb_zfs_find_obj(c, O_DS, name, len);
        if (p) {
            size_t k = where[(size_t)(p - c->objs)];
            if (k < n)
                return (long)k;
        }
    }
    return -1;
}

static void finish(struct ctx *c, struct node *nd)
{
    const struct obj *o = &c->objs[nd->obj];
    if (nd->why || !o->have_sp[SP_UBC])
        return;
    double ubc = o->sp[SP_UBC];
    double slack = fmax(SLACK_MIN, SLACK_SHARE * ubc);
    if (fabs(ubc - nd->children) > slack)
        nd->why = pb_arena_printf(
            &c->keep,
            "left out: the datasets in the input account for %.0f of the "
            "%.0f bytes usedbychildren of %s",
            nd->children, ubc, o->name);
}

void pb_zfs_savings(struct ctx *c, struct zsav *out)
{
    size_t n = 0;
    struct node *nodes = pb_xcalloc(c->nobjs + 1, sizeof(*nodes));
    size_t *where = pb_xcalloc(c->nobjs + 1, sizeof(*where));
    memset(out, 0, c->nobjs * sizeof(*out));
    for (size_t i = 0; i < c->nobjs; i++) {
        where[i] = (size_t)-1;
        const struct obj *o = &c->objs[i];
        if (o->kind == O_DS && !strpbrk(o->name, "@#")) /* no snapshots */
            nodes[n++].obj = i;
    }
    if (n > 1)
        qsort_r(nodes, n, sizeof(*nodes), by_name_desc, c);
    for (size_t k = 0; k < n; k++)
        where[nodes[k].obj] = k;
    /* children before parents: each adds what it charges to the closest
     * ancestor in the input */
    for (size_t k = 0; k < n; k++) {
        struct node *nd = &nodes[k];
        const struct obj *o = &c->objs[nd->obj];
        double own;
        const char *why = own_nondata(c, o, &own);
        if (!nd->why)
            nd->why = why;
        nd->nondata += own;
        finish(c, nd);
        long p = parent_of(c, nodes, n, k, where);
        if (p < 0)
            continue;
        struct node *pn = &nodes[p];
        double used = o->have[DSM_USED] ? o->v[DSM_USED] : NAN;
        double resv = o->have_sp[SP_RESV] ? o->sp[SP_RESV] : 0;
        pn->from_desc |= nd->nondata > 0 || resv > used;
        if (isnan(used)) {
            if (!pn->why)
                pn->why = pb_arena_printf(&c->keep,
                                          "left out: the used of %s is not "
                                          "in the input",
                                          o->name);
            continue;
        }
        /* the parent is charged max(used, reservation); of that, the
         * unused reservation and o's own nondata hold no data */
        pn->children += fmax(used, resv);
        pn->nondata += nd->nondata + fmax(0, resv - used);
        if (nd->why && !pn->why)
            pn->why = nd->why;
    }
    for (size_t k = 0; k < n; k++) {
        const struct node *nd = &nodes[k];
        const struct obj *o = &c->objs[nd->obj];
        struct zsav *z = &out[nd->obj];
        const double *v = o->v;
        int used = o->have[DSM_USED], lused = o->have[DSM_LUSED];
        /* the dataset's own data, when it has any: no children, no
         * reservations in it */
        if (o->have_sp[SP_LREF] && o->have[DSM_REFER] && v[DSM_REFER] > 0 &&
            (!used || v[DSM_REFER] >= v[DSM_USED] / 100)) {
            z->ratio = o->sp[SP_LREF] / v[DSM_REFER];
            z->basis = "logicalreferenced/referenced";
            z->stored = 1;
            continue;
        }
        if (!used || !lused || v[DSM_USED] <= 0)
            continue;
        double data = v[DSM_USED] - nd->nondata;
        if (nd->why) {
            z->basis = nd->why;
        } else if (data <= 0) {
            z->basis = "left out: its used is all reservation";
        } else if (nd->nondata == 0) {
            z->ratio = v[DSM_LUSED] / v[DSM_USED];
            z->basis = "logicalused/used";
            z->stored = 1;
        } else {
            z->ratio = v[DSM_LUSED] / data;
            z->basis = nd->from_desc
                           ? pb_arena_printf(
                                 &c->keep,
                                 "logicalused/(used-reserved): reserved "
                                 "%.0f bytes, the unused reservations of %s "
                                 "and the datasets under it",
                                 nd->nondata, o->name)
                           : "logicalused/(used-usedbyrefreservation)";
            z->stored = 1;
        }
    }
    free(nodes);
    free(where);
}
