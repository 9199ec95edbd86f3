/* fio terse: the job header lines and group lines of terse,normal output
 * (read anywhere in the file, indexed once) and the test of each record
 * named from them as fio_text.c names it, else by what the job did
 * (fio_common.c). Shared by the whole and the streamed parse. */
#include "ingest/fio_terse_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A "NAME: (groupid=G, jobs=M): ..." line of normal output. */
int pb_terse_group_line(struct ctx *c, const char *s, size_t n, long line)
{
    static const char G[] = ": (groupid=";
    const char *end = s + n, *g = NULL;
    for (const char *p = s; p + sizeof(G) - 1 <= end && !g; p++)
        if (!memcmp(p, G, sizeof(G) - 1))
            g = p;
    if (!g)
        return 0;
    char *e1, *e2;
    char tmp[48];
    size_t k = (size_t)(end - g) < sizeof(tmp) - 1 ? (size_t)(end - g)
                                                   : sizeof(tmp) - 1;
    memcpy(tmp, g, k);
    tmp[k] = '\0';
    long gid = strtol(tmp + sizeof(G) - 1, &e1, 10);
    if (e1 == tmp + sizeof(G) - 1 || strncmp(e1, ", jobs=", 7) != 0)
        return 0;
    long m = strtol(e1 + 7, &e2, 10);
    if (e2 == e1 + 7 || *e2 != ')' || m < 1)
        return 0;
    PB_GROW(c->h, c->caph, c->nh + 1);
    struct hline *x = &c->h[c->nh++];
    memset(x, 0, sizeof(*x));
    x->h.name = pb_arena_strndup(&c->set->arena, s, (size_t)(g - s));
    x->h.groupid = gid;
    x->members = m;
    x->line = line;
    return 1;
}

/* A job header line "NAME: (g=0): rw=..., bs=..., ioengine=..., ...". */
int pb_terse_header_line(struct ctx *c, const char *s, size_t n, long line)
{
    struct pb_fio_hdr h;
    if (!pb_fio_parse_hdr(c->set, s, n, &h))
        return 0;
    PB_GROW(c->h, c->caph, c->nh + 1);
    struct hline *x = &c->h[c->nh++];
    memset(x, 0, sizeof(*x));
    x->h = h;
    x->line = line;
    return 1;
}

/* ==== header and group lines, indexed ==== */

/* name, then group, then line; a NULL name or negative group skips that
 * part (the key searched for, see lower). */
static int hkey_cmp3(const struct hkey *a, const struct hkey *b)
{
    int k = a->name && b->name ? strcmp(a->name, b->name) : 0;
    if (!k && a->g >= 0 && b->g >= 0 && a->g != b->g)
        k = a->g < b->g ? -1 : 1;
    if (!k && a->line != b->line)
        k = a->line < b->line ? -1 : 1;
    return k;
}

static int cmp_ngl(const void *a, const void *b)
{
    return hkey_cmp3(a, b);
}

static int cmp_nl(const void *pa, const void *pb)
{
    struct hkey a = *(const struct hkey *)pa, b = *(const struct hkey *)pb;
    a.g = b.g = -1;
    return hkey_cmp3(&a, &b);
}

static int cmp_g(const void *pa, const void *pb)
{
    struct hkey a = *(const struct hkey *)pa, b = *(const struct hkey *)pb;
    a.name = b.name = NULL;
    a.line = b.line = 0;
    return hkey_cmp3(&a, &b);
}

/* The header lines (group_lines 0) or group lines of c->h, sorted by cmp;
 * caller frees. */
static struct hkey *sorted(const struct ctx *c, int group_lines,
                           int (*cmp)(const void *, const void *), size_t *n)
{
    struct hkey *v = pb_xmalloc((c->nh + 1) * sizeof(*v));
    *n = 0;
    for (size_t i = 0; i < c->nh; i++) {
        const struct hline *x = &c->h[i];
        if ((x->members != 0) != group_lines)
            continue;
        v[*n].name = x->h.name;
        v[*n].g = x->h.groupid;
        v[*n].line = x->line;
        v[*n].i = i;
        (*n)++;
    }
    qsort(v, *n, sizeof(*v), cmp);
    return v;
}

/* Sort the header and group lines once: records find theirs in log n. */
void pb_terse_sort_lines(struct ctx *c)
{
    size_t n;
    c->by_ngl = sorted(c, 0, cmp_ngl, &c->nhdr);
    c->by_nl = sorted(c, 0, cmp_nl, &n);
    c->hdr_gid = sorted(c, 0, cmp_g, &n);
    c->groups = sorted(c, 1, cmp_ngl, &c->ngroups);
}

/* The first position of v (n keys sorted by cmp) not before key. */
static size_t lower(const struct hkey *v, size_t n, const struct hkey *key,
                    int (*cmp)(const void *, const void *))
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp(&v[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The header line of record e: the last one before it with its name and
 * group, else with its name, or NULL. */
static const struct pb_fio_hdr *find_hdr(const struct ctx *c,
                                         const struct rec *e)
{
    struct hkey key = {e->job.name, e->groupid, e->line, 0};
    size_t k = lower(c->by_ngl, c->nhdr, &key, cmp_ngl);
    if (k > 0 && !strcmp(c->by_ngl[k - 1].name, e->job.name) &&
        c->by_ngl[k - 1].g == e->groupid)
        return &c->h[c->by_ngl[k - 1].i].h;
    k = lower(c->by_nl, c->nhdr, &key, cmp_nl);
    if (k > 0 && !strcmp(c->by_nl[k - 1].name, e->job.name))
        return &c->h[c->by_nl[k - 1].i].h;
    return NULL;
}

/* jobs=M of the first group line of record e's name and group, 0 when
 * none; *defs: header lines of that group. */
static long group_members(const struct ctx *c, const struct rec *e,
                          size_t *defs)
{
    struct hkey key = {e->job.name, e->groupid, LONG_MIN, 0};
    size_t a = lower(c->hdr_gid, c->nhdr, &key, cmp_g);
    key.g = e->groupid + 1;
    *defs = lower(c->hdr_gid, c->nhdr, &key, cmp_g) - a;
    key.g = e->groupid;
    size_t k = lower(c->groups, c->ngroups, &key, cmp_ngl);
    if (k < c->ngroups && !strcmp(c->groups[k].name, e->job.name) &&
        c->groups[k].g == e->groupid)
        return c->h[c->groups[k].i].members;
    return 0;
}

struct hopts {
    const struct pb_fio_hdr *h;
    char bs[256];
    char numjobs[32];
};

static const char *hopt(const void *ctx, const char *key)
{
    const struct hopts *o = ctx;
    if (!strcmp(key, "rw"))
        return o->h->rw;
    if (!strcmp(key, "bs"))
        return o->bs[0] ? o->bs : NULL;
    if (!strcmp(key, "ioengine"))
        return o->h->ioengine;
    if (!strcmp(key, "iodepth"))
        return o->h->iodepth;
    if (!strcmp(key, "numjobs"))
        return o->numjobs[0] ? o->numjobs : NULL;
    return NULL;
}

/* Terse has no job options: with the job's header line (terse,normal
 * output) the test is named from it as fio_text.c names it, else by what
 * the job did. nclones: records in its run of clones. */
void pb_terse_build_test(struct ctx *c, struct rec *e, size_t nclones)
{
    struct pb_fio_opts o = {0};
    struct hopts ho;
    memset(&ho, 0, sizeof(ho));
    ho.h = find_hdr(c, e);
    if (ho.h) {
        if (ho.h->bs)
            pb_fio_header_bs(ho.h->bs, ho.bs, sizeof(ho.bs));
        size_t defs;
        long m = group_members(c, e, &defs);
        long nj = m > 1 && defs <= 1 ? m : nclones > 1 ? (long)nclones : 0;
        if (nj > 0)
            snprintf(ho.numjobs, sizeof(ho.numjobs), "%ld", nj);
        o.known = 1;
        pb_fio_read_opts(&o, hopt, &ho);
    }
    pb_fio_build_test(c->set, &o, &e->job);
}
