/* What people paste around fio's normal output, and the options of a job:
 * `fio --rw=... --bs=...` command lines (also `\`-continued, after a shell
 * prompt or sudo), job files ("[global]", "[name]", "key=value" lines,
 * as `cat job.fio` prints them), and the job header lines fio prints
 * itself. Rules in the header comment of ingest/fio/fio_text.c; the test is
 * named by ingest/fio/fio_common.c.
 */
#include "ingest/fio/fio_text_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== option lists ==== */

/* fio has some 400 options, and a job file a few sections: more (from a
 * hostile file) are not read, so that lookups stay cheap. */
#define MAX_KEYS     1024
#define MAX_SECTIONS 4096

static void kvl_set(struct ctx *c, struct kvl *l, const char *key,
                    const char *value)
{
    for (size_t i = 0; i < l->n; i++) {
        if (!strcmp(l->kv[i].key, key)) {
            l->kv[i].value = pb_rs_str(c->set, value);
            return;
        }
    }
    if (l->n >= MAX_KEYS)
        return;
    PB_GROW(l->kv, l->cap, l->n + 1);
    l->kv[l->n].key = pb_rs_str(c->set, key);
    l->kv[l->n].value = pb_rs_str(c->set, value);
    l->kv[l->n].origin = NULL;
    l->n++;
}

static const char *kvl_get(const struct kvl *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->kv[i].key, key))
            return l->kv[i].value;
    return NULL;
}

/* ==== command lines ==== */

/* Options taking a value that may follow as the next word (`--bs 4k`). */
static int valued_key(const char *k)
{
    static const char *const keys[] = {
        "name",      "rw",        "bs",         "iodepth",  "numjobs",
        "direct",    "fsync",     "sync",       "ioengine", "size",
        "runtime",   "rwmixread", "rwmixwrite", "buffered", "filename",
        "directory", NULL};
    return pb_fio_key_in(k, keys);
}

static const char *canon_key(const char *k)
{
    if (!strcmp(k, "readwrite"))
        return "rw";
    if (!strcmp(k, "blocksize"))
        return "bs";
    if (!strcmp(k, "timeout"))
        return "runtime";
    return k;
}

/* Split shell words (simple quotes, no expansion) into toks. */
static size_t split_words(char *s, char **toks, size_t max)
{
    size_t n = 0;
    char *w = s;
    while (*s && n < max) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        toks[n++] = w;
        char q = 0;
        while (*s && (q || (*s != ' ' && *s != '\t'))) {
            if (!q && (*s == '\'' || *s == '"')) {
                q = *s++;
                continue;
            }
            if (q && *s == q) {
                q = 0;
                s++;
                continue;
            }
            *w++ = *s++;
        }
        if (*s)
            s++;
        *w++ = '\0';
        w = s;
    }
    return n;
}

int pb_fio_text_cmdline(struct ctx *c, const char *args, size_t n, long line)
{
    if (n > 4096)
        n = 4096;
    char *s = pb_xstrndup(args, n);
    char *toks[256];
    size_t nt = split_words(s, toks, sizeof(toks) / sizeof(toks[0]));
    size_t nopt = 0;
    for (size_t i = 0; i < nt; i++)
        if (toks[i][0] == '-' &&
            isalpha((unsigned char)toks[i][1 + (toks[i][1] == '-')]))
            nopt++;
    if (nopt == 0) {
        free(s);
        return 0;
    }
    struct run *r = pb_fio_text_new_run(c, line);
    r->has_cmd = 1;
    struct kvl *dst = &r->global;
    for (size_t i = 0; i < nt; i++) {
        char *t = toks[i];
        if (!strcmp(t, "|") || !strcmp(t, ">") || !strcmp(t, ">>") ||
            !strcmp(t, "&&") || !strcmp(t, ";") || !strcmp(t, "2>&1"))
            break;
        if (t[0] != '-')
            continue;
        t += t[1] == '-' ? 2 : 1;
        if (!isalpha((unsigned char)t[0]))
            continue;
        char *eq = strchr(t, '=');
        const char *val = NULL;
        if (eq) {
            *eq = '\0';
            val = eq + 1;
        }
        for (char *p = t; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        const char *key = canon_key(t);
        if (!val && valued_key(key) && i + 1 < nt && toks[i + 1][0] != '-')
            val = toks[++i];
        if (!val)
            val = "1"; /* a flag such as --group_reporting */
        if (!strcmp(key, "name")) {
            PB_GROW(r->sec, r->capsec, r->nsec + 1);
            struct cmdsec *sec = &r->sec[r->nsec++];
            memset(sec, 0, sizeof(*sec));
            sec->name = pb_rs_str(c->set, val);
            dst = &sec->kv;
            continue;
        }
        kvl_set(c, dst, key, val);
    }
    free(s);
    return 1;
}

/* ==== pasted job files ==== */

/* "[name]" alone on the line: the name, else NULL. */
static const char *section_name(struct ctx *c, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n < 3 || s[0] != '[' || s[n - 1] != ']' || n > 200 ||
        memchr(s + 1, ']', n - 2) || memchr(s + 1, '[', n - 2))
        return NULL;
    return pb_arena_strndup(&c->set->arena, s + 1, n - 2);
}

/* A "key=value" (or "key") line of a job file into key and value. */
static int option_line(const char *s, size_t n, char *key, size_t kcap,
                       char *val, size_t vcap)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    size_t k = 0;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
        k++;
    if (k == 0 || k >= kcap || !isalpha((unsigned char)s[0]))
        return 0;
    size_t e = k;
    while (e < n && (s[e] == ' ' || s[e] == '\t'))
        e++;
    if (e < n && s[e] != '=')
        return 0;
    for (size_t i = 0; i < k; i++)
        key[i] = (char)tolower((unsigned char)s[i]);
    key[k] = '\0';
    if (e == n) {
        snprintf(val, vcap, "1"); /* a flag such as group_reporting */
        return 1;
    }
    e++;
    while (e < n && (s[e] == ' ' || s[e] == '\t'))
        e++;
    size_t vn = n - e < vcap - 1 ? n - e : vcap - 1;
    memcpy(val, s + e, vn);
    val[vn] = '\0';
    return 1;
}

/* Job file lines (pasted in notes or logs before fio's output) give the
 * options of a run as a command line does: [global] its globals, [name]
 * the section of job name. Returns 1 when the line was one. */
int pb_fio_text_jobfile_line(struct ctx *c, struct jobfile *jf, long line,
                             const char *s, size_t n)
{
    const char *sec = section_name(c, s, n);
    if (sec) {
        if (!jf->dst && !jf->pending)
            jf->run = -1; /* a new file; else its next section */
        jf->dst = NULL;
        jf->pending = sec;
        return 1;
    }
    const char *p = s;
    while (p < s + n && (*p == ' ' || *p == '\t'))
        p++;
    if (jf->pending || jf->dst) {
        if (p == s + n || *p == '#' || *p == ';')
            return 1; /* blank lines and comments inside the file */
    }
    char key[64], val[256];
    if (!(jf->pending || jf->dst) ||
        !option_line(s, n, key, sizeof(key), val, sizeof(val))) {
        jf->pending = NULL;
        jf->dst = NULL;
        jf->run = -1;
        return 0;
    }
    if (jf->pending) {
        if (jf->run < 0) {
            pb_fio_text_new_run(c, line)->has_cmd = 1;
            jf->run = (long)c->nruns - 1;
        }
        struct run *r = &c->runs[jf->run];
        if (!strcmp(jf->pending, "global")) {
            jf->dst = &r->global;
        } else if (r->nsec >= MAX_SECTIONS) {
            jf->pending = NULL; /* the rest of the file is not read */
            return 1;
        } else {
            PB_GROW(r->sec, r->capsec, r->nsec + 1);
            struct cmdsec *cs = &r->sec[r->nsec++];
            memset(cs, 0, sizeof(*cs));
            cs->name = jf->pending;
            jf->dst = &cs->kv;
        }
        jf->pending = NULL;
    }
    kvl_set(c, jf->dst, canon_key(key), val);
    return 1;
}

/* ==== options of a job (command line and header) ==== */

struct jopts {
    const struct kvl *sec;    /* command-line section of this job */
    const struct kvl *global; /* command-line options before --name */
    const struct pb_fio_hdr *hdr;
    char bs[256];     /* "r,w,t" from the header */
    char numjobs[32]; /* derived */
};

static const char *opt(const struct jopts *o, const char *key)
{
    if (o->hdr) {
        if (!strcmp(key, "rw") && o->hdr->rw)
            return o->hdr->rw;
        if (!strcmp(key, "bs") && o->bs[0])
            return o->bs;
        if (!strcmp(key, "ioengine") && o->hdr->ioengine)
            return o->hdr->ioengine;
        if (!strcmp(key, "iodepth") && o->hdr->iodepth)
            return o->hdr->iodepth;
    }
    const char *v = o->sec ? kvl_get(o->sec, key) : NULL;
    if (!v && o->global)
        v = kvl_get(o->global, key);
    if (!v && !strcmp(key, "numjobs") && o->numjobs[0])
        v = o->numjobs;
    return v;
}

static int known_opts(const struct jopts *o)
{
    return o->hdr || o->sec || (o->global && o->global->n > 0);
}

/* Block size of direction d in bytes, NAN when not one fixed size. */
static double dir_bs(const struct jopts *o, int d)
{
    const char *v = opt(o, "bs");
    char bs[3][64];
    pb_fio_split_bs(v ? v : "4096", bs);
    if (d == D_MIXED) {
        if (strcmp(bs[0], bs[1]) != 0 || strcmp(bs[0], bs[2]) != 0)
            return NAN;
        d = D_READ;
    }
    double b = pb_fio_int_opt(bs[d]);
    return b > 0 ? b : NAN;
}

/* ==== per job ==== */

/* ==== header lines of a run, indexed ==== */

struct name_ix {
    const char *name;
    size_t i;
};

static int name_ix_cmp(const void *pa, const void *pb)
{
    const struct name_ix *a = pa, *b = pb;
    int k = strcmp(a->name, b->name);
    return k ? k : (a->i > b->i) - (a->i < b->i);
}

static int long_cmp(const void *pa, const void *pb)
{
    long a = *(const long *)pa, b = *(const long *)pb;
    return (a > b) - (a < b);
}

/* Sort r's header lines once, so that a job finds its own in log n. */
static void index_run(struct run *r)
{
    if (r->hdr_by_name || r->nhdr == 0)
        return;
    struct name_ix *v = pb_xmalloc(r->nhdr * sizeof(*v));
    for (size_t i = 0; i < r->nhdr; i++) {
        v[i].name = r->hdr[i].name;
        v[i].i = i;
    }
    qsort(v, r->nhdr, sizeof(*v), name_ix_cmp);
    r->hdr_by_name = pb_xmalloc(r->nhdr * sizeof(size_t));
    r->hdr_gids = pb_xmalloc(r->nhdr * sizeof(long));
    for (size_t i = 0; i < r->nhdr; i++) {
        r->hdr_by_name[i] = v[i].i;
        r->hdr_gids[i] = r->hdr[i].groupid;
    }
    qsort(r->hdr_gids, r->nhdr, sizeof(long), long_cmp);
    free(v);
}

/* The first header line of job j's name in r (else r's only one, when
 * its group fits), or NULL. */
static const struct pb_fio_hdr *find_hdr(const struct run *r, const struct job *j)
{
    size_t lo = 0, hi = r->nhdr;
    while (lo < hi && r->hdr_by_name) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(r->hdr[r->hdr_by_name[mid]].name, j->job.name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (r->hdr_by_name && lo < r->nhdr &&
        !strcmp(r->hdr[r->hdr_by_name[lo]].name, j->job.name))
        return &r->hdr[r->hdr_by_name[lo]];
    if (r->nhdr == 1 && (!j->full || r->hdr[0].groupid == j->groupid))
        return &r->hdr[0];
    return NULL;
}

static const struct kvl *find_sec(const struct run *r, const struct job *j)
{
    for (size_t i = 0; i < r->nsec; i++)
        if (!strcmp(r->sec[i].name, j->job.name))
            return &r->sec[i].kv;
    if (!j->full && r->nsec > 0)
        return &r->sec[j->implied_idx < r->nsec ? j->implied_idx : r->nsec - 1]
                    .kv;
    return NULL;
}

/* Job definitions (header lines) of group g in run r. */
static size_t defs_in_group(const struct run *r, long g)
{
    size_t lo = 0, hi = r->nhdr;
    while (lo < hi) { /* first >= g */
        size_t mid = lo + (hi - lo) / 2;
        if (r->hdr_gids[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t a = lo;
    hi = r->nhdr;
    while (lo < hi) { /* first > g */
        size_t mid = lo + (hi - lo) / 2;
        if (r->hdr_gids[mid] <= g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - a;
}

static void fill_opts(const struct ctx *c, const struct job *j, size_t nclones,
                      struct jopts *o)
{
    const struct run *r = &c->runs[j->job.run];
    memset(o, 0, sizeof(*o));
    o->hdr = find_hdr(r, j);
    o->sec = find_sec(r, j);
    o->global = r->has_cmd ? &r->global : NULL;
    if (o->hdr && o->hdr->bs)
        pb_fio_header_bs(o->hdr->bs, o->bs, sizeof(o->bs));
    long nj = 0;
    if (!known_opts(o))
        nj = 0; /* as fio_json.c: no numjobs for jobs without options */
    else if (j->full && j->members > 1 && defs_in_group(r, j->groupid) <= 1)
        nj = j->members;
    else if (nclones > 1)
        nj = (long)nclones;
    if (nj > 0)
        snprintf(o->numjobs, sizeof(o->numjobs), "%ld", nj);
}

/* ==== tests and results (fio_common.c) ==== */

static const char *opt_of(const void *o, const char *key)
{
    return opt(o, key);
}

static void build_test(struct ctx *c, struct job *j, const struct jopts *jo)
{
    struct pb_fio_opts o = {0};
    struct pb_fio_text_src src = {c, j};
    o.known = known_opts(jo);
    o.each = pb_fio_text_each;
    o.each_ctx = &src;
    pb_fio_read_opts(&o, opt_of, jo);
    pb_fio_build_test(c->set, c->f, &o, &j->job);
}

void pb_fio_text_job_test(struct ctx *c, struct job *j, size_t nclones,
                          double bs[D_N])
{
    index_run(&c->runs[j->job.run]);
    struct jopts o;
    fill_opts(c, j, nclones, &o);
    build_test(c, j, &o);
    for (int d = 0; d < D_N; d++)
        bs[d] = dir_bs(&o, d);
}

const char *pb_fio_text_cmd_opt(const struct ctx *c, const struct job *j,
                                const char *key)
{
    const struct run *r = &c->runs[j->job.run];
    const struct kvl *sec = find_sec(r, j);
    const char *v = sec ? kvl_get(sec, key) : NULL;
    if (!v && r->has_cmd)
        v = kvl_get(&r->global, key);
    return v;
}

/* ==== what ties the jobs of a file together (fio_ident.c) ==== */

const char *pb_fio_text_target(const struct ctx *c, const struct job *j)
{
    const char *t = pb_fio_text_cmd_opt(c, j, "filename");
    return t ? t : pb_fio_text_cmd_opt(c, j, "directory");
}

/* A flag option given ("--group_reporting", "group_reporting=1"). */
static int truthy(const char *v)
{
    return v && strcmp(v, "0") != 0 && strcmp(v, "false") != 0;
}

/* Which measurement of its name block j is in its run (j->job.rep): the
 * blocks of one name and group in a row are clones (numjobs), repeats
 * pasted one after the other (group_reporting) or both; every such
 * streak starts at the run's next free index, so a name in groups 0 and 1
 * of one run was measured twice (as terse and JSON read it). */
void pb_fio_text_rep(struct ctx *c, struct job *j)
{
    struct run *r = &c->runs[j->job.run];
    size_t i = 0;
    if (r->last_name && !strcmp(r->last_name, j->job.name) &&
        r->last_gid == j->groupid)
        i = r->last_i + 1;
    else
        r->rep_base = r->rep_next;
    r->last_name = j->job.name;
    r->last_gid = j->groupid;
    r->last_i = i;
    j->block = i;
    /* fio prints one block per group and run with group_reporting (the
     * block's jobs=M > 1 says so too), numjobs blocks per run without */
    int group = (j->full && j->members > 1) ||
                truthy(pb_fio_text_cmd_opt(c, j, "group_reporting"));
    double nj = pb_fio_int_opt(pb_fio_text_cmd_opt(c, j, "numjobs"));
    size_t rep = 0;
    if (group)
        rep = i;
    else if (nj >= 1)
        rep = i / (size_t)nj;
    else if (r->has_cmd)
        rep = i; /* the options are known: numjobs=1 */
    j->job.rep = r->rep_base + rep;
    if (j->job.rep >= r->rep_next)
        r->rep_next = j->job.rep + 1;
}

int pb_fio_text_is_ambiguous(const void *ctx, size_t i, size_t n)
{
    const struct ctx *c = ctx;
    const struct job *j = &c->jobs[i];
    (void)n;
    return !j->full && !c->runs[j->job.run].has_cmd;
}

/* Each distinct key of l once, unless seen already. */
struct each_st {
    const struct jopts *o;
    pb_fio_opt_fn fn;
    void *arg;
    const char **seen;
    size_t nseen, cap;
};

static void each_key(struct each_st *e, const char *key)
{
    for (size_t i = 0; i < e->nseen; i++)
        if (!strcmp(e->seen[i], key))
            return;
    PB_GROW(e->seen, e->cap, e->nseen + 1);
    e->seen[e->nseen++] = key;
    const char *v = opt(e->o, key);
    if (v)
        e->fn(e->arg, key, v);
}

void pb_fio_text_each(const void *src, pb_fio_opt_fn fn, void *arg)
{
    const struct pb_fio_text_src *s = src;
    struct jopts o;
    index_run(&s->c->runs[s->j->job.run]);
    fill_opts(s->c, s->j, 1, &o);
    struct each_st e = {&o, fn, arg, NULL, 0, 0};
    static const char *const hdr[] = {"rw", "bs", "ioengine", "iodepth"};
    for (size_t i = 0; o.hdr && i < 4; i++)
        each_key(&e, hdr[i]);
    for (size_t i = 0; o.sec && i < o.sec->n; i++)
        each_key(&e, o.sec->kv[i].key);
    for (size_t i = 0; o.global && i < o.global->n; i++)
        each_key(&e, o.global->kv[i].key);
    free(e.seen);
}

/* The header line i of run ctx, for pb_fio_group_names. */
static const struct pb_fio_hdr *run_hdr(const void *ctx, size_t i)
{
    return &((const struct run *)ctx)->hdr[i];
}

void pb_fio_text_merged(struct ctx *c, struct job *j)
{
    if (!j->full || j->members <= 1 || !j->job.usable)
        return;
    struct run *r = &c->runs[j->job.run];
    index_run(r);
    struct pb_buf names = PB_BUF_INIT;
    size_t n = pb_fio_group_names(run_hdr, r, r->nhdr, j->groupid, &names);
    char why[160] = "";
    if (n > 1) {
        snprintf(why, sizeof(why), "its run lists %zu jobs in group %ld", n,
                 j->groupid);
    } else {
        struct jopts o;
        fill_opts(c, j, 1, &o);
        const char *verify = pb_fio_text_cmd_opt(c, j, "verify");
        if (o.hdr && !truthy(verify) &&
            !pb_fio_merged_io(&j->job, o.hdr->rw, o.bs[0] ? o.bs : NULL, why,
                              sizeof(why)))
            why[0] = '\0';
    }
    if (why[0])
        pb_fio_mark_merged(c->set, c->f, &j->job, j->groupid, j->members,
                           n > 1 ? names.s : NULL, why, "block");
    pb_buf_release(&names);
}
