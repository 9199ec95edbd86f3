/* fio JSON: the options of each entry, looked up once. An entry's option
 * is its own ("job options") when that is a string, else its global
 * options' ("global options"; in fio 3.33 client/server output merged
 * from every client: known only when it occurs as often as any key, with
 * one value). pb_fio_json_opts_index reads both objects of every entry
 * once into a table sorted by key; pb_fio_json_opt and pb_fio_json_each
 * answer from it. Each option used to be a walk of the entry's object
 * and its options, and each pass over all options a walk per option
 * (4.5 % of the instructions of ingesting fio JSON files, bench/NOTES.md,
 * "Issue 41 item 3"). */
#include "ingest/fio/fio_json_int.h"

#include <stdlib.h>
#include <string.h>

/* One member of an options object: its key, place and value. */
struct mem {
    const char *key;
    int pos, val;
};

static int cmp_mem(const void *a, const void *b)
{
    const struct mem *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* The members of object obj (none for anything else), sorted by key and,
 * within a key, by place. Caller frees. */
static struct mem *members(struct pb_json *d, int obj, size_t *n)
{
    *n = 0;
    if (pb_json_type(d, obj) != PB_JSON_OBJECT)
        return NULL;
    struct mem *m = pb_xmalloc((pb_json_size(d, obj) + 1) * sizeof(*m));
    int pos = 0;
    for (int k = pb_json_first(d, obj); k != PB_JSON_NONE;
         k = pb_json_next(d, k), pos++) {
        const char *key = pb_json_str(d, k);
        if (!key)
            continue;
        m[*n].key = key;
        m[*n].pos = pos;
        m[*n].val = pb_json_value(d, k);
        (*n)++;
    }
    qsort(m, *n, sizeof(*m), cmp_mem);
    return m;
}

/* End of the run of members with the key of m[i]. */
static size_t run_end(const struct mem *m, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && !strcmp(m[j].key, m[i].key))
        j++;
    return j;
}

/* The global value of the key of the run g[i..j): the last one (a local
 * run, as fio reads a job file), or (client/server) the one value of all
 * of them when they are `need` or more, all strings and all equal. */
static const char *global_value(struct pb_json *d, const struct mem *g,
                                size_t i, size_t j, int clients, size_t need)
{
    if (!clients)
        return pb_json_str(d, g[j - 1].val);
    const char *v = NULL;
    for (size_t k = i; k < j; k++) {
        const char *x = pb_json_str(d, g[k].val);
        if (!x || (v && strcmp(v, x) != 0))
            return NULL;
        v = x;
    }
    return j - i >= need ? v : NULL;
}

/* A distinct key of one object: its option's value and the place of its
 * last occurrence. */
struct last {
    const char *key, *val;
    int pos;
};

static int cmp_last_pos(const void *a, const void *b)
{
    const struct last *x = a, *y = b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int cmp_kv_key(const void *a, const void *b)
{
    return strcmp(((const struct pb_fio_json_kv *)a)->key,
                  ((const struct pb_fio_json_kv *)b)->key);
}

/* The value of key in the sorted table t[0..n), or NULL. */
static const char *lookup(const struct pb_fio_json_kv *t, size_t n,
                          const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(key, t[mid].key);
        if (!c)
            return t[mid].val;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static void index_entry(struct ctx *c, struct entry *e)
{
    struct pb_json *d = c->doc;
    size_t no, ng;
    struct mem *own = members(d, pb_json_get(d, e->obj, "job options"), &no);
    struct mem *glo = members(d, e->gopts, &ng);
    size_t need = e->gopts == c->global ? c->global_mult : 1;
    struct last *lo = pb_xmalloc((no + 1) * sizeof(*lo));
    struct last *lg = pb_xmalloc((ng + 1) * sizeof(*lg));
    size_t nlo = 0, nlg = 0;
    /* both key-sorted: walk them together, each distinct key once */
    size_t i = 0, k = 0;
    while (i < no || k < ng) {
        int c_ = i == no ? 1 : k == ng ? -1 : strcmp(own[i].key, glo[k].key);
        size_t ie = c_ <= 0 ? run_end(own, no, i) : i;
        size_t ke = c_ >= 0 ? run_end(glo, ng, k) : k;
        const char *ov = c_ <= 0 ? pb_json_str(d, own[ie - 1].val) : NULL;
        const char *gv = c_ >= 0 ? global_value(d, glo, k, ke, c->clients,
                                                need)
                                 : NULL;
        const char *v = ov ? ov : gv;
        if (c_ <= 0)
            lo[nlo++] = (struct last){own[ie - 1].key, v, own[ie - 1].pos};
        else
            lg[nlg++] = (struct last){glo[ke - 1].key, v, glo[ke - 1].pos};
        i = ie;
        k = ke;
    }
    /* the table by key; pb_fio_json_each's order: the job's own keys,
     * then the global ones it does not have, each by its last place */
    struct pb_fio_json_kv *t =
        pb_arena_alloc(&d->str, (nlo + nlg + 1) * sizeof(*t));
    struct pb_fio_json_kv *each =
        pb_arena_alloc(&d->str, (nlo + nlg + 1) * sizeof(*each));
    size_t nt = 0, ne = 0;
    qsort(lo, nlo, sizeof(*lo), cmp_last_pos);
    qsort(lg, nlg, sizeof(*lg), cmp_last_pos);
    for (size_t x = 0; x < nlo + nlg; x++) {
        const struct last *l = x < nlo ? &lo[x] : &lg[x - nlo];
        t[nt++] = (struct pb_fio_json_kv){l->key, l->val};
        if (l->val)
            each[ne++] = (struct pb_fio_json_kv){l->key, l->val};
    }
    qsort(t, nt, sizeof(*t), cmp_kv_key);
    e->opts = t;
    e->nopts = nt;
    e->each = each;
    e->neach = ne;
    free(lo);
    free(lg);
    free(own);
    free(glo);
}

void pb_fio_json_opts_index(struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++)
        index_entry(c, &c->e[i]);
}

const char *pb_fio_json_opt(const struct ctx *c, const struct entry *e,
                            const char *key)
{
    (void)c;
    return lookup(e->opts, e->nopts, key);
}

void pb_fio_json_each(const void *src, pb_fio_opt_fn fn, void *arg)
{
    const struct pb_fio_json_src *s = src;
    for (size_t i = 0; i < s->e->neach; i++)
        fn(arg, s->e->each[i].key, s->e->each[i].val);
}
