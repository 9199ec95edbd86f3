/* fio JSON: what ties the entries of a document together (fio_ident.c's
 * rules): the options of one object (an entry's options as a whole are
 * fio_json_opts.c's), the entries counted into the file
 * (names measured in several groups, targets, options that vary), the
 * label of each host's jobs, and entries that merged different jobs
 * (group_reporting). The count over the document's parts is
 * fio_json_pass.c's. */
#define _GNU_SOURCE
#include "ingest/fio/fio_json_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== the options of an entry ==== */

/* Each distinct key of object obj once (in the order of its last
 * occurrence, whose value fio keeps), unless skip has it. */
static void each_key(struct pb_json *d, int obj, int skip,
                     void (*fn)(void *arg, const char *key), void *arg)
{
    if (!is_object(d, obj))
        return;
    for (int k = pb_json_first(d, obj); k != PB_JSON_NONE;
         k = pb_json_next(d, k)) {
        const char *key = pb_json_str(d, k);
        if (!key)
            continue;
        int later = 0;
        for (int m = pb_json_next(d, k); m != PB_JSON_NONE && !later;
             m = pb_json_next(d, m)) {
            const char *o = pb_json_str(d, m);
            later = o && !strcmp(o, key);
        }
        if (!later && (skip == PB_JSON_NONE ||
                       pb_json_get(d, skip, key) == PB_JSON_NONE))
            fn(arg, key);
    }
}

struct own {
    struct pb_json *d;
    int obj;
    pb_fio_opt_fn fn;
    void *arg;
};

static void own_key(void *arg, const char *key)
{
    struct own *x = arg;
    const char *v = pb_json_str(x->d, pb_json_get(x->d, x->obj, key));
    if (v)
        x->fn(x->arg, key, v);
}

void pb_fio_json_each_own(const void *src, pb_fio_opt_fn fn, void *arg)
{
    const struct pb_fio_json_own *s = src;
    struct own x = {s->doc, s->obj, fn, arg};
    each_key(s->doc, s->obj, PB_JSON_NONE, own_key, &x);
}

/* ==== the entries of a document counted into the file ==== */

const char *pb_fio_json_target(const struct ctx *c, const struct entry *e)
{
    const char *t = pb_fio_json_opt(c, e, "filename");
    return t ? t : pb_fio_json_opt(c, e, "directory");
}

/* The group id as a measurement: entries of one name in several groups
 * ran one after the other (stonewall). */
size_t pb_fio_json_meas(double groupid)
{
    return isfinite(groupid) && groupid >= 0 && groupid < 1e15
               ? (size_t)groupid
               : 0;
}

void pb_fio_json_file_job(const struct ctx *c, struct entry *e,
                          const struct pb_fio_inv *iv)
{
    const char *t = pb_fio_json_target(c, e);
    pb_fio_file_job(c->f, &e->job, pb_fio_inv_base(iv, t), e->job.host, t,
                    pb_fio_json_meas(pb_json_number(
                        c->doc, pb_json_get(c->doc, e->obj, "groupid"))));
}

/* ==== an entry that merged different jobs ==== */

/* One group of the normal output after the document (json,normal): the
 * jobs its header lines name ("seqread: (g=0): rw=read, ...") and the
 * jobs=M of its group line. */
struct grp {
    long g;
    char *names; /* ", "-joined, each once, in order */
    size_t nnames;
    long members;
};

static int cmp_grp(const void *a, const void *b)
{
    long x = ((const struct grp *)a)->g, y = ((const struct grp *)b)->g;
    return (x > y) - (x < y);
}

static struct grp *grp_get(struct pb_fio_json_groups *gs, long g)
{
    for (size_t i = gs->n; i-- > 0;) /* lines of one group come together */
        if (gs->v[i].g == g)
            return &gs->v[i];
    PB_GROW(gs->v, gs->cap, gs->n + 1);
    struct grp *x = &gs->v[gs->n++];
    memset(x, 0, sizeof(*x));
    x->g = g;
    return x;
}

static void grp_name(struct grp *x, const char *name)
{
    size_t k = strlen(name);
    for (const char *q = x->names; q;) {
        const char *comma = strstr(q, ", ");
        size_t m = comma ? (size_t)(comma - q) : strlen(q);
        if (m == k && !memcmp(q, name, k))
            return;
        q = comma ? comma + 2 : NULL;
    }
    char *n = x->names ? pb_xasprintf("%s, %s", x->names, name)
                       : pb_xstrdup(name);
    free(x->names);
    x->names = n;
    x->nnames++;
}

void pb_fio_json_groups_read(struct pb_fio_json_groups *gs, const char *text,
                             size_t len)
{
    memset(gs, 0, sizeof(*gs));
    struct pb_resultset *tmp = pb_resultset_new();
    const char *p = text, *end = text + len;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        struct pb_fio_hdr h;
        const char *gl = memmem(p, (size_t)(e - p), ": (groupid=", 11);
        if (pb_fio_parse_hdr(tmp, p, (size_t)(e - p), &h)) {
            grp_name(grp_get(gs, h.groupid), h.name);
        } else if (gl) {
            char *x;
            long g = strtol(gl + 11, &x, 10);
            if (!strncmp(x, ", jobs=", 7))
                grp_get(gs, g)->members = strtol(x + 7, NULL, 10);
        }
        p = nl ? nl + 1 : end;
    }
    pb_resultset_free(tmp);
    if (gs->n)
        qsort(gs->v, gs->n, sizeof(*gs->v), cmp_grp);
}

void pb_fio_json_groups_free(struct pb_fio_json_groups *gs)
{
    for (size_t i = 0; i < gs->n; i++)
        free(gs->v[i].names);
    free(gs->v);
    memset(gs, 0, sizeof(*gs));
}

static const struct grp *grp_find(const struct pb_fio_json_groups *gs, long g)
{
    if (!gs || !gs->n)
        return NULL;
    struct grp key = {g, NULL, 0, 0};
    return bsearch(&key, gs->v, gs->n, sizeof(*gs->v), cmp_grp);
}

void pb_fio_json_merged(struct ctx *c, struct entry *e)
{
    if (e->is_agg || !e->job.usable)
        return;
    struct pb_fio_job *j = &e->job;
    double g = pb_json_number(c->doc, pb_json_get(c->doc, e->obj, "groupid"));
    j->groupid = isfinite(g) ? (long)g : 0;
    const struct grp *x = grp_find(c->groups, j->groupid);
    size_t nnames = x ? x->nnames : 0;
    long members = x ? x->members : 0;
    char why[160] = "";
    if (nnames > 1) {
        snprintf(why, sizeof(why), "the normal output lists %zu jobs in "
                                   "group %ld", nnames, j->groupid);
    } else {
        /* the options known, fio's defaults stand for those not given; a
         * verifying job reads what it wrote, a ranged bs has no one size */
        int known = pb_json_size(c->doc, pb_json_get(c->doc, e->obj,
                                                     "job options")) > 0 ||
                    pb_json_size(c->doc, e->gopts) > 0;
        const char *rw = pb_fio_json_opt(c, e, "rw");
        if (!rw)
            rw = pb_fio_json_opt(c, e, "readwrite");
        const char *bs = pb_fio_json_opt(c, e, "bs");
        if (!bs)
            bs = pb_fio_json_opt(c, e, "blocksize");
        const char *verify = pb_fio_json_opt(c, e, "verify");
        int ranged = pb_fio_json_opt(c, e, "bsrange") ||
                     pb_fio_json_opt(c, e, "bssplit") ||
                     pb_fio_json_opt(c, e, "blocksize_range") ||
                     pb_fio_json_opt(c, e, "bs_unaligned");
        if (verify && strcmp(verify, "0") && strcmp(verify, "none"))
            known = 0;
        if (known && pb_fio_merged_io(j, rw ? rw : "read",
                                      ranged ? NULL : bs ? bs : "4k", why,
                                      sizeof(why)) == 0)
            why[0] = '\0';
    }
    if (why[0])
        pb_fio_mark_merged(c->set, c->f, j, j->groupid, members,
                           nnames > 1 ? x->names : NULL, why, "entry");
}
