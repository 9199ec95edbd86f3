/* Repeats of fio jobs folded into one result each: a job measured more
 * than once in one file (runs appended, outputs pasted one after the
 * other, sections of one name and options in groups of their own) gives,
 * per configuration, test, host, job and metric, the mean of its
 * measurements, their standard error, n and the values themselves
 * (samples). Results of different setups (pasted commands that change the
 * pool between the runs, context.c) are never folded together. Rules:
 * docs/formats.md, "Repeats, clones, groups, tests and configurations in
 * fio output".
 *
 * The held results reach f->held as the parser emits them and are taken
 * from there into their name's groups: per group the values only, with a
 * key made of ids of the distinct configurations, tests and strings (a
 * streamed file keeps a few dozen bytes per open value, not results).
 * A name's groups go to the set as soon as its last measurement is
 * emitted (pb_fio_emit_all), the rest at the end: the same order whole
 * or streamed. */
#include "ingest/fio/fio_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a result of a name shares with results of other names: its host,
 * metric, unit (strings of fd->keys), direction, the job's suffix after
 * the name ("", "#2", " block 1") and setup. The config and test are
 * kept apart: a job without options names its test (and, in a run of
 * several names, its config) after itself, so there are as many as
 * names. */
struct skey {
    const char *host, *metric, *unit, *suffix;
    int dir;
    size_t cls;
};

/* A folded result of a name: its config and test (indexes into
 * fd->keys), shared key and the line of its first result (context.c
 * places the folded result by it: two setups of one note stay apart). */
struct group {
    uint32_t config, test, key;
    long line;
};

/* A value of a name's group, in the order taken; reason: 0 a value,
 * else index + 1 of the NULL's reason. */
struct gval {
    uint32_t g;
    uint32_t reason;
    double v;
};

/* A name's groups and values while it is open. */
struct gname {
    struct group *g;
    size_t n, cap;
    struct gval *v;
    size_t nv, capv;
    size_t name; /* its index in f->names */
};

struct pb_fio_fold {
    struct pb_resultset *keys; /* the distinct configs, tests, strings */
    struct skey *k;
    size_t nk, capk;
    size_t *kslot; /* index + 1 into k; a power of 2 */
    size_t nkslot;
    const char **reason;
    size_t nreason, capreason;
    struct gname *open; /* open names (slots of closed ones reused) */
    size_t nopen, capopen;
    size_t *free_slots; /* closed slots of open */
    size_t nfree, capfree;
    struct pb_cmd_notes nt; /* the setups of a text's pasted commands */
    size_t *cls;            /* epoch -> its setup class */
    size_t taken;           /* results of f->held taken so far */
};

/* ==== keys ==== */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0x100000001b3ULL;
}

/* Strings of fd->keys are interned: equal strings are one pointer. */
static uint64_t hash_key(const struct skey *k)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = mix(h, (uint64_t)(uintptr_t)k->suffix);
    h = mix(h, (uint64_t)(uintptr_t)k->host);
    h = mix(h, (uint64_t)(uintptr_t)k->metric);
    h = mix(h, (uint64_t)(uintptr_t)k->unit);
    h = mix(h, (uint64_t)(k->dir + 2));
    return mix(h, k->cls);
}

static int same_key(const struct skey *a, const struct skey *b)
{
    return a->suffix == b->suffix &&
           a->host == b->host && a->metric == b->metric &&
           a->unit == b->unit && a->dir == b->dir && a->cls == b->cls;
}

static void rehash(struct pb_fio_fold *fd)
{
    size_t ns = fd->nkslot ? fd->nkslot * 2 : 256;
    free(fd->kslot);
    fd->kslot = pb_xcalloc(ns, sizeof(*fd->kslot));
    fd->nkslot = ns;
    for (size_t i = 0; i < fd->nk; i++) {
        size_t j = (size_t)hash_key(&fd->k[i]) & (ns - 1);
        while (fd->kslot[j])
            j = (j + 1) & (ns - 1);
        fd->kslot[j] = i + 1;
    }
}

static uint32_t key_id(struct pb_fio_fold *fd, const struct skey *k)
{
    if ((fd->nk + 1) * 2 > fd->nkslot)
        rehash(fd);
    size_t mask = fd->nkslot - 1, j = (size_t)hash_key(k) & mask;
    for (; fd->kslot[j]; j = (j + 1) & mask)
        if (same_key(&fd->k[fd->kslot[j] - 1], k))
            return (uint32_t)(fd->kslot[j] - 1);
    PB_GROW(fd->k, fd->capk, fd->nk + 1);
    fd->k[fd->nk] = *k;
    fd->kslot[j] = ++fd->nk;
    return (uint32_t)(fd->nk - 1);
}

static uint32_t reason_id(struct pb_fio_fold *fd, const char *s)
{
    s = pb_rs_str(fd->keys, s ? s : "");
    for (size_t i = 0; i < fd->nreason; i++)
        if (fd->reason[i] == s)
            return (uint32_t)(i + 1);
    PB_GROW(fd->reason, fd->capreason, fd->nreason + 1);
    fd->reason[fd->nreason++] = s;
    return (uint32_t)fd->nreason;
}

/* The config of c found or added in set (label, target, the other
 * dimensions the parser gave). */
static size_t copy_config(struct pb_resultset *set, const struct pb_config *c)
{
    size_t i = pb_rs_config_target(set, c->label, pb_config_target(c));
    for (size_t k = 0; k < c->nparams; k++)
        if (strcmp(c->params[k].key, "target") != 0)
            pb_rs_config_param_origin(set, i, c->params[k].key,
                                      c->params[k].value, c->params[k].origin);
    set->configs[i].label_auto |= c->label_auto;
    set->configs[i].label_is_name |= c->label_is_name;
    return i;
}

static size_t copy_test(struct pb_resultset *set, const struct pb_test *t)
{
    return pb_rs_test_kv(set, t->name, t->tool, t->params, t->nparams);
}

static size_t class_of(const struct pb_fio_fold *fd, long line)
{
    if (!fd->cls)
        return 0;
    const struct pb_cmd_epoch *e = pb_cmd_epoch_at(&fd->nt, line);
    return fd->cls[(size_t)(e - fd->nt.epochs)];
}

/* ==== the file's fold ==== */

static struct pb_fio_fold *fold_of(struct pb_fio_file *f)
{
    if (!f->fold) {
        f->fold = pb_xcalloc(1, sizeof(*f->fold));
        f->fold->keys = pb_resultset_new();
    }
    return f->fold;
}

void pb_fio_file_setups(struct pb_fio_file *f, const char *text, size_t len)
{
    struct pb_fio_fold *fd = fold_of(f);
    if (!text || fd->cls)
        return;
    pb_cmd_scan(text, len, &fd->nt);
    if (fd->nt.nepochs > 1)
        fd->cls = pb_cmd_epoch_classes(&fd->nt);
}

/* The name of a held result's job: the job itself, or it without the
 * "#K" of a clone or the " block K" of a block (the suffix). */
static struct pb_sn_name *name_of(struct pb_fio_file *f, const char *job,
                                  const char **suffix)
{
    size_t n = strlen(job);
    for (size_t cut = n + 1; cut-- > 0;) {
        if (cut < n && job[cut] != '#' && job[cut] != ' ')
            continue;
        struct pb_sn_name *e = pb_sn_get(&f->names, job, cut, 0);
        if (e) {
            *suffix = job + cut;
            return e;
        }
    }
    return NULL;
}

static struct gname *open_name(struct pb_fio_fold *fd, struct pb_sn_name *e,
                               size_t idx)
{
    if (!e->data) {
        size_t slot;
        if (fd->nfree) {
            slot = fd->free_slots[--fd->nfree];
        } else {
            PB_GROW(fd->open, fd->capopen, fd->nopen + 1);
            slot = fd->nopen++;
        }
        struct gname *o = &fd->open[slot];
        memset(o, 0, sizeof(*o));
        o->name = idx;
        e->data = slot + 1;
    }
    return &fd->open[e->data - 1];
}

/* No name is open: the keys of the closed ones go (a file of many names
 * each repeated keeps only the open ones'). */
static void forget_keys(struct pb_fio_fold *fd)
{
    if (fd->nfree != fd->nopen)
        return;
    pb_resultset_free(fd->keys);
    fd->keys = pb_resultset_new();
    fd->nk = fd->nreason = 0;
    if (fd->kslot)
        memset(fd->kslot, 0, fd->nkslot * sizeof(*fd->kslot));
}

/* Take the results emitted into f->held since the last take into their
 * names' groups; reset: empty f->held (its configs and tests too). */
static void take(struct pb_fio_file *f, int reset)
{
    struct pb_resultset *h = f->held;
    struct pb_fio_fold *fd = fold_of(f);
    struct pb_resultset *ks = fd->keys;
    size_t *cmap = NULL, *tmap = NULL;
    if (fd->taken < h->nresults) {
        /* only what the results use: a streamed file names tests of
         * jobs whose results come later */
        cmap = pb_xmalloc((h->nconfigs + 1) * sizeof(*cmap));
        tmap = pb_xmalloc((h->ntests + 1) * sizeof(*tmap));
        memset(cmap, 0xff, (h->nconfigs + 1) * sizeof(*cmap));
        memset(tmap, 0xff, (h->ntests + 1) * sizeof(*tmap));
    }
    for (size_t r = fd->taken; r < h->nresults; r++) {
        const struct pb_result *x = &h->results[r];
        if (cmap[x->config] == (size_t)-1)
            cmap[x->config] = copy_config(ks, &h->configs[x->config]);
        if (tmap[x->test] == (size_t)-1)
            tmap[x->test] = copy_test(ks, &h->tests[x->test]);
        const char *suffix = "";
        struct pb_sn_name *e = name_of(f, x->job ? x->job : "", &suffix);
        if (!e)
            e = pb_sn_get(&f->names, x->job ? x->job : "",
                          strlen(x->job ? x->job : ""), 1);
        struct skey k = {pb_rs_str(ks, x->host),
                         pb_rs_str(ks, x->metric),
                         pb_rs_str(ks, x->unit),
                         pb_rs_str(ks, suffix),
                         x->direction,
                         class_of(fd, x->line)};
        uint32_t kid = key_id(fd, &k), tid = (uint32_t)tmap[x->test];
        uint32_t cid = (uint32_t)cmap[x->config];
        struct gname *o = open_name(fd, e, (size_t)(e - f->names.v));
        size_t g = o->n;
        for (size_t i = 0; i < o->n && g == o->n; i++)
            if (o->g[i].key == kid && o->g[i].test == tid &&
                o->g[i].config == cid)
                g = i;
        if (g == o->n) {
            PB_GROW(o->g, o->cap, o->n + 1);
            o->g[o->n].config = cid;
            o->g[o->n].line = x->line;
            o->g[o->n].test = tid;
            o->g[o->n++].key = kid;
        }
        PB_GROW(o->v, o->capv, o->nv + 1);
        struct gval *gv = &o->v[o->nv++];
        gv->g = (uint32_t)g;
        gv->reason = x->has_value ? 0 : reason_id(fd, x->null_reason);
        gv->v = x->has_value ? x->value : 0;
    }
    free(cmap);
    free(tmap);
    fd->taken = h->nresults;
    if (reset) {
        pb_resultset_free(f->held);
        f->held = pb_resultset_new();
        fd->taken = 0;
    }
}

void pb_fio_file_take(struct pb_fio_file *f)
{
    take(f, 1);
}

/* The result of group gi of open name o in set from its values v[0..n)
 * (in the order measured): one value as it was measured, else their mean,
 * its standard error, n and the values; NULL (the first one's reason)
 * when none has a value. */
static void emit(struct pb_fio_fold *fd, struct pb_resultset *set,
                 const char *name, const struct gname *o, size_t gi,
                 const double *v, size_t n, uint32_t reason, size_t *cmap,
                 size_t *tmap)
{
    const struct group *g = &o->g[gi];
    const struct skey *k = &fd->k[g->key];
    const struct pb_resultset *ks = fd->keys;
    if (cmap[g->config] == (size_t)-1)
        cmap[g->config] = copy_config(set, &ks->configs[g->config]);
    if (tmap[g->test] == (size_t)-1)
        tmap[g->test] = copy_test(set, &ks->tests[g->test]);
    char *job = pb_xasprintf("%s%s", name, k->suffix);
    size_t ci = cmap[g->config], ti = tmap[g->test];
    struct pb_result *y;
    if (n == 0) {
        y = pb_rs_add_null(set, ci, ti, k->host, job, k->metric, k->unit,
                           k->dir, fd->reason[reason - 1]);
    } else {
        double sum = 0, sq = 0;
        for (size_t i = 0; i < n; i++)
            sum += v[i];
        double mean = sum / (double)n;
        for (size_t i = 0; i < n; i++)
            sq += (v[i] - mean) * (v[i] - mean);
        y = pb_rs_add(set, ci, ti, k->host, job, k->metric, k->unit, k->dir,
                      n == 1 ? v[0] : mean);
        if (n > 1) {
            y->samples = (long)n;
            y->has_stderr = 1;
            y->stderr_ = sqrt(sq / (double)(n - 1)) / sqrt((double)n);
            pb_rs_samples(set, y, v, n);
        }
    }
    y->line = g->line;
    free(job);
}

/* The groups of open name o to set, in the order they first appeared;
 * o is closed. */
static void flush(struct pb_fio_file *f, struct pb_resultset *set,
                  struct gname *o)
{
    struct pb_fio_fold *fd = f->fold;
    f->names.v[o->name].data = 0;
    PB_GROW(fd->free_slots, fd->capfree, fd->nfree + 1);
    fd->free_slots[fd->nfree++] = (size_t)(o - fd->open);
    if (o->n) {
        size_t nc = fd->keys->nconfigs, nt = fd->keys->ntests;
        size_t *cmap = pb_xmalloc((nc + 1) * sizeof(*cmap));
        size_t *tmap = pb_xmalloc((nt + 1) * sizeof(*tmap));
        memset(cmap, 0xff, (nc + 1) * sizeof(*cmap));
        memset(tmap, 0xff, (nt + 1) * sizeof(*tmap));
        /* each group's values together, in the order measured */
        size_t *at = pb_xcalloc(o->n + 1, sizeof(*at));
        uint32_t *reason = pb_xcalloc(o->n + 1, sizeof(*reason));
        for (size_t i = 0; i < o->nv; i++) {
            if (o->v[i].reason == 0)
                at[o->v[i].g + 1]++;
            else if (!reason[o->v[i].g])
                reason[o->v[i].g] = o->v[i].reason;
        }
        for (size_t i = 0; i < o->n; i++)
            at[i + 1] += at[i];
        double *vals = pb_xmalloc((o->nv + 1) * sizeof(*vals));
        size_t *fill = pb_xmalloc((o->n + 1) * sizeof(*fill));
        memcpy(fill, at, o->n * sizeof(*fill));
        for (size_t i = 0; i < o->nv; i++)
            if (o->v[i].reason == 0)
                vals[fill[o->v[i].g]++] = o->v[i].v;
        const char *name = f->names.v[o->name].s;
        for (size_t i = 0; i < o->n; i++)
            emit(fd, set, name, o, i, vals + at[i], at[i + 1] - at[i],
                 reason[i], cmap, tmap);
        free(fill);
        free(vals);
        free(reason);
        free(at);
        free(cmap);
        free(tmap);
    }
    free(o->g);
    free(o->v);
    o->g = NULL;
    o->v = NULL;
    o->n = o->cap = o->nv = o->capv = 0;
    forget_keys(fd);
}

int pb_fio_file_last(struct pb_fio_file *f, const struct pb_fio_job *j)
{
    struct pb_sn_name *e = pb_sn_get(&f->names, j->name, strlen(j->name), 0);
    if (!e)
        return 0;
    if (e->last2 != j->meas) {
        e->last2 = j->meas;
        e->k++;
        return e->k == e->nruns;
    }
    return 0;
}

void pb_fio_file_flush(struct pb_fio_file *f, struct pb_resultset *set,
                       const struct pb_fio_job *j)
{
    take(f, 0);
    struct pb_sn_name *e = pb_sn_get(&f->names, j->name, strlen(j->name), 0);
    if (e && e->data)
        flush(f, set, &f->fold->open[e->data - 1]);
}

void pb_fio_file_fold(struct pb_fio_file *f, struct pb_resultset *set)
{
    take(f, 1);
    /* the names never measured to the end (a failed run), in the order
     * they first appear in the file */
    for (size_t i = 0; f->fold && i < f->names.n; i++)
        if (f->names.v[i].data)
            flush(f, set, &f->fold->open[f->names.v[i].data - 1]);
    pb_fio_file_flags(f, set); /* gathered while emitting */
}

void pb_fio_fold_free(struct pb_fio_fold *fd)
{
    if (!fd)
        return;
    for (size_t i = 0; i < fd->nopen; i++) {
        free(fd->open[i].g);
        free(fd->open[i].v);
    }
    free(fd->open);
    free(fd->free_slots);
    free(fd->k);
    free(fd->kslot);
    free(fd->reason);
    free(fd->cls);
    pb_cmd_notes_release(&fd->nt);
    pb_resultset_free(fd->keys);
    free(fd);
}
