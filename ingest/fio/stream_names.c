/* The streamed parsers' table of distinct job names (stream_names.h). */
#include "ingest/fio/stream_names.h"


#include <stdlib.h>
#include <string.h>

void pb_sn_init(struct pb_sn_table *t)
{
    memset(t, 0, sizeof(*t));
    pb_arena_init(&t->arena);
}

void pb_sn_release(struct pb_sn_table *t)
{
    free(t->v);
    free(t->slot);
    pb_arena_release(&t->arena);
    memset(t, 0, sizeof(*t));
}

static uint64_t hash_of(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static void grow(struct pb_sn_table *t)
{
    size_t nslot = t->nslot ? t->nslot * 2 : 1024;
    size_t *slot = pb_xcalloc(nslot, sizeof(*slot));
    for (size_t i = 0; i < t->n; i++) {
        size_t k = (size_t)t->v[i].hash & (nslot - 1);
        while (slot[k])
            k = (k + 1) & (nslot - 1);
        slot[k] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = nslot;
}

struct pb_sn_name *pb_sn_get(struct pb_sn_table *t, const char *s, size_t n,
                             int add)
{
    uint64_t h = hash_of(s, n);
    if (t->nslot) {
        for (size_t k = (size_t)h & (t->nslot - 1); t->slot[k];
             k = (k + 1) & (t->nslot - 1)) {
            struct pb_sn_name *e = &t->v[t->slot[k] - 1];
            if (e->hash == h && !strncmp(e->s, s, n) && e->s[n] == '\0')
                return e;
        }
    }
    if (!add)
        return NULL;
    if (2 * (t->n + 1) > t->nslot)
        grow(t);
    PB_GROW(t->v, t->cap, t->n + 1);
    struct pb_sn_name *e = &t->v[t->n++];
    memset(e, 0, sizeof(*e));
    e->s = pb_arena_strndup(&t->arena, s, n);
    e->hash = h;
    e->last1 = e->last2 = PB_SN_NONE;
    size_t k = (size_t)h & (t->nslot - 1);
    while (t->slot[k])
        k = (k + 1) & (t->nslot - 1);
    t->slot[k] = t->n;
    return e;
}

struct pb_sn_name *pb_sn_count_run(struct pb_sn_table *t, const char *s,
                                   size_t n, size_t run)
{
    struct pb_sn_name *e = pb_sn_get(t, s, n, 1);
    if (e->last1 == run)
        return NULL;
    e->nruns++;
    e->last1 = run;
    return e;
}
