/* Run-module statistics of a plan (issue 12 item 5): the [plan] keys
 * max_repeats, target_rse, order and seed; when a cell of `repeats =
 * auto` has repeated enough (the relative standard error of its headline
 * metric); the order of the cells with `order = random`. run.c asks; the
 * facts it records are listed in docs/plan-format.md. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_MAX_REPEATS 10
#define DEFAULT_TARGET_RSE  0.02 /* 2% */
#define MIN_AUTO_REPEATS    3    /* as PTS: three runs before judging */

/* A percentage "2%", "2.5 %" or "2" (percent) as a fraction; -1 when it
 * is not one in (0, 100]. */
static double parse_pct(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end == '%')
        end++;
    if (*end || !isfinite(v) || v <= 0 || v > 100)
        return -1;
    return v / 100;
}

int pb_run_plan_stats(struct pb_run_plan *p, const char *const vals[4],
                      const long lines[4], const char *path, struct pb_err *err)
{
    const char *maxr = vals[0], *rse = vals[1], *order = vals[2],
               *seed = vals[3];
    if ((maxr || rse) && !p->repeats_auto)
        return pb_err_set(err, PB_EUSAGE, path, maxr ? lines[0] : lines[1], 0,
                          "'%s' needs repeats = auto",
                          maxr ? "max_repeats" : "target_rse");
    if (p->repeats_auto) {
        p->repeats = DEFAULT_MAX_REPEATS;
        p->target_rse = DEFAULT_TARGET_RSE;
    }
    if (maxr) {
        char *end;
        errno = 0;
        long r = strtol(maxr, &end, 10);
        if (*end || end == maxr || errno || r < 2 || r > 1000)
            return pb_err_set(err, PB_EUSAGE, path, lines[0], 0,
                              "max_repeats must be 2..1000, got '%s'", maxr);
        p->repeats = r;
    }
    if (rse && (p->target_rse = parse_pct(rse)) < 0)
        return pb_err_set(err, PB_EUSAGE, path, lines[1], 0,
                          "target_rse must be a percentage above 0 and at "
                          "most 100 (e.g. 2%%), got '%s'",
                          rse);
    if (order) {
        if (!strcmp(order, "random"))
            p->order_random = 1;
        else if (strcmp(order, "plan"))
            return pb_err_set(err, PB_EUSAGE, path, lines[2], 0,
                              "order must be plan or random, got '%s'", order);
    }
    if (seed) {
        if (!p->order_random)
            return pb_err_set(err, PB_EUSAGE, path, lines[3], 0,
                              "'seed' needs order = random");
        char *end;
        errno = 0;
        unsigned long long v = strtoull(seed, &end, 10);
        if (*end || end == seed || errno || seed[0] == '-' || v > 4294967295ULL)
            return pb_err_set(err, PB_EUSAGE, path, lines[3], 0,
                              "seed must be an integer 0..4294967295, got "
                              "'%s'",
                              seed);
        p->seed = (unsigned long)v;
        p->has_seed = 1;
    } else if (p->order_random) {
        /* recorded (fact run_seed): the order can be had again */
        p->seed = (unsigned long)(((uint64_t)time(NULL) * 2654435761u) ^
                                  (uint64_t)getpid()) &
                  0xffffffffUL;
    }
    return PB_OK;
}

/* ==== order = random ==== */

/* splitmix64: the same order from the same seed on every machine */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform index in [0, n) (n >= 1), without modulo bias. */
static size_t rand_below(uint64_t *s, size_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t v;
    do
        v = next_rand(s);
    while (v >= lim);
    return (size_t)(v % n);
}

static void shuffle(size_t *v, size_t n, uint64_t *s)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rand_below(s, i);
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

void pb_run_order(const struct pb_run_plan *p, size_t *order)
{
    for (size_t i = 0; i < p->ncells; i++)
        order[i] = i;
    if (!p->order_random || p->ncells < 2)
        return;
    /* Cells of one pool stay together (a pool is made once), shuffled
     * among themselves; the pools come in a shuffled order too. Cells of
     * one pool combination are consecutive in plan order. */
    uint64_t s = p->seed;
    size_t nb = 0, *first = pb_xcalloc(p->ncells + 1, sizeof(*first));
    size_t last = (size_t)-1;
    for (size_t i = 0; i < p->ncells; i++) {
        struct pb_run_cell c;
        pb_run_cell_at(p, i, &c);
        if (c.combo[PB_RUN_POOL] != last) {
            first[nb++] = i;
            last = c.combo[PB_RUN_POOL];
        }
    }
    first[nb] = p->ncells;
    size_t *blocks = pb_xcalloc(nb, sizeof(*blocks));
    for (size_t b = 0; b < nb; b++)
        blocks[b] = b;
    shuffle(blocks, nb, &s);
    size_t k = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t lo = first[blocks[b]], hi = first[blocks[b] + 1];
        size_t *dst = order + k;
        for (size_t i = lo; i < hi; i++)
            order[k++] = i;
        shuffle(dst, hi - lo, &s);
    }
    free(blocks);
    free(first);
}

/* ==== repeats = auto ==== */

/* The headline metric of a cell: read_iops, else write_iops, else
 * trim_iops, the first with a value above 0 in set; NULL when none. */
static const char *headline(const struct pb_resultset *set)
{
    static const char *const names[] = {"read_iops", "write_iops", "trim_iops"};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < set->nresults; i++) {
            const struct pb_result *r = &set->results[i];
            if (r->has_value && r->value > 0 && !strcmp(r->metric, names[k]))
                return names[k];
        }
    return NULL;
}

static int value_of(const struct pb_resultset *set, const char *metric,
                    double *v)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        if (r->has_value && !strcmp(r->metric, metric)) {
            *v = r->value;
            return 1;
        }
    }
    return 0;
}

double pb_run_rse(const double *v, size_t n)
{
    if (n < 2)
        return NAN;
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        mean += v[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    double se = sqrt(ss / (double)(n - 1)) / sqrt((double)n);
    if (se == 0)
        return 0;
    return mean != 0 ? se / fabs(mean) : INFINITY;
}

int pb_run_repeat_enough(const struct pb_run_plan *p,
                         struct pb_resultset *const *sets, long got,
                         struct pb_run_repstop *st)
{
    memset(st, 0, sizeof(*st));
    st->rse = NAN;
    st->n = got;
    if (!p->repeats_auto || got < 1)
        return 0;
    const char *m = headline(sets[0]);
    st->metric = m;
    if (m && got >= 2) {
        double *v = pb_xcalloc((size_t)got, sizeof(*v));
        size_t n = 0;
        for (long k = 0; k < got; k++)
            if (value_of(sets[k], m, &v[n]))
                n++;
        st->rse = pb_run_rse(v, n);
        free(v);
    }
    long min = p->repeats < MIN_AUTO_REPEATS ? p->repeats : MIN_AUTO_REPEATS;
    if (got >= min && !isnan(st->rse) && st->rse <= p->target_rse) {
        st->why = "target";
        return 1;
    }
    if (got >= p->repeats) {
        st->why = "max";
        return 1;
    }
    return 0;
}

void pb_run_repeat_facts(const struct pb_run_plan *p,
                         const struct pb_run_repstop *st,
                         struct pb_resultset *set)
{
    if (!p->repeats_auto || !st->why)
        return;
    char buf[64];
    pb_rs_fact(set, NULL, "repeats_stop", st->why);
    snprintf(buf, sizeof(buf), "%ld", st->n);
    pb_rs_fact(set, NULL, "repeats_done", buf);
    if (st->metric)
        pb_rs_fact(set, NULL, "repeats_metric", st->metric);
    if (!isnan(st->rse) && isfinite(st->rse)) {
        snprintf(buf, sizeof(buf), "%.4g%%", st->rse * 100);
        pb_rs_fact(set, NULL, "repeats_rse", buf);
    }
    snprintf(buf, sizeof(buf), "%.4g%%", p->target_rse * 100);
    pb_rs_fact(set, NULL, "repeats_target_rse", buf);
}
