/* fio terse: the job header lines and group lines of terse,normal output
 * (read anywhere in the file, indexed once) and the test of each record
 * named from them as fio_text.c names it, else by what the job did
 * (fio_common.c), for the parse of fio_terse_pass.c. */
#include "ingest/fio/fio_terse_int.h"

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

/* The options of a header line: rw, bs, ioengine, iodepth. */
static void each_hdr(const void *ctx, pb_fio_opt_fn fn, void *arg)
{
    const struct hopts *o = ctx;
    static const char *const keys[] = {"rw", "bs", "ioengine", "iodepth"};
    for (size_t i = 0; i < 4; i++) {
        const char *v = hopt(o, keys[i]);
        if (v)
            fn(arg, keys[i], v);
    }
}

static void hopts_of(const struct pb_fio_hdr *h, struct hopts *ho)
{
    memset(ho, 0, sizeof(*ho));
    ho->h = h;
    if (h->bs)
        pb_fio_header_bs(h->bs, ho->bs, sizeof(ho->bs));
}

void pb_terse_count_options(const struct ctx *c, struct pb_fio_file *f)
{
    for (size_t i = 0; i < c->nh; i++) {
        if (c->h[i].members != 0)
            continue; /* a group line */
        struct hopts ho;
        hopts_of(&c->h[i].h, &ho);
        pb_fio_file_options(f, each_hdr, &ho);
    }
}

int pb_terse_is_ambiguous(const void *ctx, size_t i, size_t n)
{
    const struct ctx *c = ctx;
    (void)n;
    return c->nh == 0 && !c->r[i].tail[0];
}

/* The header line i of a job (not a group line), for pb_fio_group_names. */
static const struct pb_fio_hdr *job_hdr(const void *ctx, size_t i)
{
    const struct ctx *c = ctx;
    return c->h[i].members == 0 ? &c->h[i].h : NULL;
}

/* Record e stands for several different jobs: a group_reporting record
 * (its group line says jobs=M > 1) of a group whose header lines name
 * several jobs, or whose I/O contradicts its header line. */
static void merged(struct ctx *c, struct rec *e, const struct pb_fio_hdr *h,
                   const char *bs)
{
    size_t defs;
    long m = group_members(c, e, &defs);
    if (m <= 1)
        return;
    struct pb_buf names = PB_BUF_INIT;
    size_t n = pb_fio_group_names(job_hdr, c, c->nh, e->groupid, &names);
    char why[160] = "";
    if (n > 1)
        snprintf(why, sizeof(why), "the normal output lists %zu jobs in "
                                   "group %ld", n, e->groupid);
    else if (h && pb_fio_merged_io(&e->job, h->rw, bs[0] ? bs : NULL, why,
                                   sizeof(why)) == 0)
        why[0] = '\0';
    if (why[0])
        pb_fio_mark_merged(c->set, c->f, &e->job, e->groupid, m,
                           n > 1 ? names.s : NULL, why, "record");
    pb_buf_release(&names);
}

/* Terse has no job options: with the job's header line (terse,normal
 * output) the test is named from it as fio_text.c names it, else by what
 * the job did. nclones: records in its run of clones. */
void pb_terse_build_test(struct ctx *c, struct rec *e, size_t nclones)
{
    struct pb_fio_opts o = {0};
    struct hopts ho;
    memset(&ho, 0, sizeof(ho));
    const struct pb_fio_hdr *h = find_hdr(c, e);
    if (h) {
        hopts_of(h, &ho);
        size_t defs;
        long m = group_members(c, e, &defs);
        long nj = m > 1 && defs <= 1 ? m : nclones > 1 ? (long)nclones : 0;
        if (nj > 0)
            snprintf(ho.numjobs, sizeof(ho.numjobs), "%ld", nj);
        o.known = 1;
        o.each = each_hdr;
        o.each_ctx = &ho;
        pb_fio_read_opts(&o, hopt, &ho);
    }
    merged(c, e, h, ho.bs);
    pb_fio_build_test(c->set, c->f, &o, &e->job);
}

/* ==== one configuration or one per job name ==== */

struct hsig {
    uint64_t sig;
    const char *name;
};

static int cmp_hsig(const void *pa, const void *pb)
{
    const struct hsig *a = pa, *b = pb;
    if (a->sig != b->sig)
        return a->sig < b->sig ? -1 : 1;
    return strcmp(a->name, b->name);
}

int pb_terse_split(const struct ctx *c, const struct pb_sn_table *names)
{
    /* terse names no target: jobs of several names are tests of one
     * configuration only when header lines show each name runs options
     * of its own (else they may be one workload on several targets) */
    if (c->nhdr == 0)
        return 1;
    for (size_t i = 0; i < names->n; i++) {
        struct hkey key = {names->v[i].s, -1, LONG_MIN, 0};
        size_t k = lower(c->by_nl, c->nhdr, &key, cmp_nl);
        if (k >= c->nhdr || strcmp(c->by_nl[k].name, names->v[i].s) != 0)
            return 1;
    }
    struct hsig *v = pb_xcalloc(c->nhdr + 1, sizeof(*v));
    for (size_t i = 0; i < c->nhdr; i++) {
        struct hopts ho;
        hopts_of(&c->h[c->by_nl[i].i].h, &ho);
        v[i].sig = pb_fio_opts_sig(each_hdr, &ho);
        v[i].name = ho.h->name;
    }
    qsort(v, c->nhdr, sizeof(*v), cmp_hsig);
    int split = 0;
    for (size_t i = 1; i < c->nhdr && !split; i++)
        split = v[i].sig == v[i - 1].sig && strcmp(v[i].name, v[i - 1].name);
    free(v);
    return split;
}
