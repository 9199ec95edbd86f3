/* bonnie++ CSV: folding the repeated runs of a machine and test into one
 * result per metric (the rules are in bonnie_csv.c's header). */
#include "ingest/bonnie/bonnie_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char BONNIE_TOO_FAST[] = "+++++ (too fast to measure)";

const struct btest bonnie_tests[NTESTS] = {
    {"seq_out_char_bw", "seq_out_char_cpu", "seq_out_char_latency", "B/s",
     1024, "putc", "putc_cpu", "putc_latency"},
    {"seq_out_block_bw", "seq_out_block_cpu", "seq_out_block_latency", "B/s",
     1024, "put_block", "put_block_cpu", "put_block_latency"},
    {"seq_rewrite_bw", "seq_rewrite_cpu", "seq_rewrite_latency", "B/s", 1024,
     "rewrite", "rewrite_cpu", "rewrite_latency"},
    {"seq_in_char_bw", "seq_in_char_cpu", "seq_in_char_latency", "B/s", 1024,
     "getc", "getc_cpu", "getc_latency"},
    {"seq_in_block_bw", "seq_in_block_cpu", "seq_in_block_latency", "B/s",
     1024, "get_block", "get_block_cpu", "get_block_latency"},
    {"random_seeks", "random_seeks_cpu", "random_seeks_latency", "ops/s", 1,
     "seeks", "seeks_cpu", "seeks_latency"},
    {"seq_create", "seq_create_cpu", "seq_create_latency", "ops/s", 1,
     "seq_create", "seq_create_cpu", "seq_create_latency"},
    {"seq_stat", "seq_stat_cpu", "seq_stat_latency", "ops/s", 1, "seq_stat",
     "seq_stat_cpu", "seq_stat_latency"},
    {"seq_delete", "seq_delete_cpu", "seq_delete_latency", "ops/s", 1,
     "seq_del", "seq_del_cpu", "seq_del_latency"},
    {"rand_create", "rand_create_cpu", "rand_create_latency", "ops/s", 1,
     "ran_create", "ran_create_cpu", "ran_create_latency"},
    {"rand_stat", "rand_stat_cpu", "rand_stat_latency", "ops/s", 1,
     "ran_stat", "ran_stat_cpu", "ran_stat_latency"},
    {"rand_delete", "rand_delete_cpu", "rand_delete_latency", "ops/s", 1,
     "ran_del", "ran_del_cpu", "ran_del_latency"},
};


void bonnie_fold_release(struct fold *f)
{
    for (size_t i = 0; i < f->ng; i++)
        for (size_t j = 0; j < NSLOTS; j++)
            free(f->g[i].a[j].v);
    free(f->g);
    free(f->gslots);
    free(f->k);
    free(f->kslots);
    free(f->cver);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 32);
}

static uint64_t num_bits(double v)
{
    uint64_t u = 0x7ff8dead0000beefULL; /* every NAN (absent) alike */
    if (!isnan(v))
        memcpy(&u, &v, sizeof(u));
    return u;
}

static void pr_nums(const struct params *p, double out[10])
{
    const double v[10] = {p->file_size, p->chunk, p->seeks, p->seekers,
                          p->conc,      p->nfiles, p->maxs, p->mins,
                          p->dirs,      p->fchunk};
    memcpy(out, v, sizeof(v));
}

static uint64_t key_hash(const char *name, size_t n, const struct params *p)
{
    uint64_t h = mix(0xcbf29ce484222325ULL, n);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, name + i, 8);
        h = mix(h, w);
    }
    for (; i < n; i++)
        h = mix(h, (unsigned char)name[i]);
    double v[10];
    pr_nums(p, v);
    for (int k = 0; k < 10; k++)
        h = mix(h, num_bits(v[k]));
    return mix(h, p->link ? (uint64_t)(unsigned char)p->link[0] : 0);
}

static int same_params(const struct params *a, const struct params *b)
{
    double u[10], v[10];
    pr_nums(a, u);
    pr_nums(b, v);
    for (int i = 0; i < 10; i++)
        if (num_bits(u[i]) != num_bits(v[i]))
            return 0;
    if (!a->link || !b->link)
        return a->link == b->link;
    return strcmp(a->link, b->link) == 0;
}

static uint64_t group_hash(size_t config, size_t test)
{
    return mix(mix(0x51ed270b27a5f3c1ULL, config), test);
}

/* Double a table of index + 1 slots and put every entry back. */
static void rehash(size_t **slots, size_t *cap, size_t n,
                   uint64_t (*hash_of)(const struct fold *, size_t),
                   const struct fold *f)
{
    size_t nc = *cap ? *cap * 2 : 64;
    size_t *s = pb_xcalloc(nc, sizeof(*s));
    for (size_t e = 0; e < n; e++) {
        size_t i = (size_t)hash_of(f, e) & (nc - 1);
        while (s[i])
            i = (i + 1) & (nc - 1);
        s[i] = e + 1;
    }
    free(*slots);
    *slots = s;
    *cap = nc;
}

static uint64_t group_hash_at(const struct fold *f, size_t e)
{
    return group_hash(f->g[e].config, f->g[e].test);
}

static uint64_t key_hash_at(const struct fold *f, size_t e)
{
    return f->k[e].hash;
}

static size_t group_at(struct fold *f, size_t config, size_t test,
                       const char *host)
{
    if ((f->ng + 1) * 2 > f->gcap)
        rehash(&f->gslots, &f->gcap, f->ng, group_hash_at, f);
    size_t mask = f->gcap - 1;
    size_t i = (size_t)group_hash(config, test) & mask;
    for (; f->gslots[i]; i = (i + 1) & mask) {
        const struct group *g = &f->g[f->gslots[i] - 1];
        if (g->config == config && g->test == test)
            return f->gslots[i] - 1;
    }
    PB_GROW(f->g, f->capg, f->ng + 1);
    struct group *g = &f->g[f->ng];
    memset(g, 0, sizeof(*g));
    g->config = config;
    g->test = test;
    g->host = host;
    f->gslots[i] = ++f->ng;
    return f->ng - 1;
}

/* The group of a row of machine name[0..n) with parameters pr; the
 * config and test are made when the key is new. */
size_t bonnie_group_of(struct fold *f, struct pb_resultset *set,
                       const char *name, size_t n, const struct params *pr)
{
    if (n == 0) {
        name = "(unnamed)";
        n = strlen(name);
    }
    uint64_t h = key_hash(name, n, pr);
    if ((f->nk + 1) * 2 > f->kcap)
        rehash(&f->kslots, &f->kcap, f->nk, key_hash_at, f);
    size_t mask = f->kcap - 1;
    size_t i = (size_t)h & mask;
    for (; f->kslots[i]; i = (i + 1) & mask) {
        const struct rkey *k = &f->k[f->kslots[i] - 1];
        if (k->hash == h && k->hostlen == n && !memcmp(k->host, name, n) &&
            same_params(&k->pr, pr))
            return k->group;
    }
    char *s = pb_xstrndup(name, n);
    const char *host = pb_rs_str(set, s);
    free(s);
    size_t cfg = pb_rs_config(set, host);
    size_t t = bonnie_make_test(set, pr);
    size_t g = group_at(f, cfg, t, host);
    PB_GROW(f->k, f->capk, f->nk + 1);
    struct rkey *k = &f->k[f->nk];
    k->hash = h;
    k->host = host;
    k->hostlen = n;
    k->pr = *pr;
    k->group = g;
    f->kslots[i] = ++f->nk;
    return g;
}

void bonnie_acc_add(struct acc *a, const struct meas *m)
{
    if (m->st == M_PLUS) {
        a->plus++;
    } else if (m->st == M_VALUE) {
        PB_GROW(a->v, a->capv, (size_t)a->k + 1);
        a->v[a->k] = m->v;
        a->k++;
        double d = m->v - a->mean;
        a->mean += d / (double)a->k;
        a->m2 += d * (m->v - a->mean);
    }
}

/* The last row's version wins. */
void bonnie_version_fact(struct fold *f, struct pb_resultset *set,
                         size_t cfg, const char *host, const char *ver,
                         size_t n)
{
    if (!set->tool_version)
        set->tool_version =
            pb_arena_printf(&set->arena, "bonnie++-%.*s", (int)n, ver);
    if (cfg >= f->capcver) {
        size_t old = f->capcver;
        PB_GROW(f->cver, f->capcver, cfg + 1);
        memset(f->cver + old, 0, (f->capcver - old) * sizeof(*f->cver));
    }
    const char *last = f->cver[cfg];
    if (last && strlen(last) == n && !memcmp(last, ver, n))
        return;
    char *v = pb_xstrndup(ver, n);
    pb_rs_fact(set, host, "bonnie_version", v);
    f->cver[cfg] = pb_rs_str(set, v);
    free(v);
}

/* One result per metric of group g (see the file header for the rules);
 * metrics some runs measured and others found too fast are listed in
 * *fast as "metric k of N". */
static void emit_group(struct pb_resultset *set, const struct group *g,
                       struct pb_buf *fast)
{
    for (size_t i = 0; i < NSLOTS; i++) {
        const struct acc *a = &g->a[i];
        const struct btest *bt = &bonnie_tests[i / 3];
        int part = (int)(i % 3);
        const char *metric = part == 0 ? bt->metric
                             : part == 1 ? bt->cpu
                                         : bt->lat;
        const char *unit = part == 0 ? bt->unit : part == 1 ? "%" : "ns";
        int dir = part == 0 ? PB_DIR_HIGHER : PB_DIR_LOWER;
        struct pb_result *r;
        if (a->k) {
            r = pb_rs_add(set, g->config, g->test, g->host, NULL, metric,
                          unit, dir, a->mean);
            if (g->runs > 1)
                r->samples = a->k;
            double var = a->k > 1 ? a->m2 / (double)(a->k - 1) : 0;
            double se = sqrt(var > 0 ? var : 0) / sqrt((double)a->k);
            if (a->k > 1 && isfinite(se)) {
                r->has_stderr = 1;
                r->stderr_ = se;
            }
            if (g->runs > 1)
                pb_rs_samples(set, r, a->v, (size_t)a->k);
            if (a->plus)
                pb_buf_printf(fast, "%s%s %ld of %ld",
                              fast->len ? ", " : "", metric, a->plus,
                              a->plus + a->k);
        } else if (a->plus) {
            r = pb_rs_add_null(set, g->config, g->test, g->host, NULL,
                               metric, unit, dir, BONNIE_TOO_FAST);
            if (g->runs > 1)
                r->samples = a->plus;
        }
    }
}

/* Results of every group in the order rows first named them, then one
 * too_fast_runs fact per machine that has partly too fast metrics. */
void bonnie_emit_all(struct pb_resultset *set, const struct fold *f)
{
    struct pb_buf *per_cfg = NULL; /* made on the first partial metric */
    struct pb_buf fast = PB_BUF_INIT;
    for (size_t i = 0; i < f->ng; i++) {
        const struct group *g = &f->g[i];
        pb_buf_reset(&fast);
        emit_group(set, g, &fast);
        if (!fast.len)
            continue;
        if (!per_cfg)
            per_cfg = pb_xcalloc(set->nconfigs, sizeof(*per_cfg));
        struct pb_buf *b = &per_cfg[g->config];
        pb_buf_printf(b, "%s%s: %s", b->len ? "; " : "",
                      set->tests[g->test].name, pb_buf_str(&fast));
    }
    for (size_t c = 0; per_cfg && c < set->nconfigs; c++) {
        /* a config's label is its machine name, the results' host */
        if (per_cfg[c].len)
            pb_rs_fact(set, set->configs[c].label, "too_fast_runs",
                       pb_buf_str(&per_cfg[c]));
        pb_buf_release(&per_cfg[c]);
    }
    free(per_cfg);
    pb_buf_release(&fast);
}
