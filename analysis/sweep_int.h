/* Private to the sweep files of analysis/: sweeps.c (choosing x and series
 * per metric), sweep_dims.c (the candidate dimensions and their values),
 * sweep_cover.c (how many cells a choice would draw), sweep_panels.c (the
 * panels, pooled spots and the cells left out) and sweep_why.c (why a
 * requested sweep cannot be drawn). docs/report.md, "Sweeps". */
#ifndef PB_SWEEP_INT_H
#define PB_SWEEP_INT_H

#include "analysis/sweeps.h"

#include <stdint.h>

/* A candidate dimension while a metric's cells are examined. */
struct cand {
    enum rp_dimkind kind;
    const char *key;
    const char **vals; /* sorted distinct values (NULL = missing, last) */
    double *nums;      /* their numbers when numeric */
    size_t nvals;
    int numeric;
    int pref;
    /* RP_DIM_LABEL: configs whose label counts (the parameters do not tell
     * them apart); the others have no value here */
    const unsigned char *only;
};

/* One metric's cells and their candidate dimensions (sweeps.c builds it).
 * vi holds each cell's value index of every candidate, n rows of stride;
 * candidates past nreal (the test name, the others of a composite series)
 * tell cells apart without grouping them. */
struct sw_metric {
    struct rp_data *d;
    size_t metric;
    size_t *cells, n;     /* the metric's primary cells with a value */
    size_t *nulls, nnull; /* and those without */
    struct cand *cands;
    size_t ncand, nreal;
    uint32_t *vi;
    size_t stride;
    unsigned char *dep;     /* rp_sw_dependencies over the real ones */
    size_t label;           /* the label pseudo-dimension, SIZE_MAX = none */
    struct pb_arena *arena; /* the sweeps' own: values live as long */
};

/* ==== sweep_dims.c ==== */

/* The preference of a key as an axis (lower first; 100 unknown). */
int rp_sw_pref(const char *key);
/* PTS arguments, app_version, scale: never an axis. */
int rp_sw_identity_key(const char *key);
/* A cell's value of k (NULL = none). */
const char *rp_sw_value(const struct rp_data *d, const struct rp_cell *c,
                        const struct cand *k);
/* Fill k's sorted distinct values from the cells. */
void rp_sw_values(const struct rp_data *d, const size_t *cells, size_t n,
                  struct cand *k, struct pb_arena *a);
/* Column col of the value index matrix: k's value index of every cell. */
void rp_sw_fill(const struct rp_data *d, const size_t *cells, size_t n,
                const struct cand *k, uint32_t *vi, size_t stride, size_t col);
/* The candidates of m: every config and test key with two values or
 * more, the label (configurations no parameter tells apart), the tool,
 * the test name when cells still collide. Fills m->cands, ncand, nreal,
 * vi, stride (room for one more: a composite series), label. */
void rp_sw_candidates(struct sw_metric *m);
/* A value as the report shows it ("4k" for 4096 of bs). */
const char *rp_sw_text(const struct cand *k, const char *v, char *buf,
                       size_t n);
/* The name of a dimension in text ("config" for the label). */
const char *rp_sw_key(const struct cand *k);

/* Sort order (= 0..n-1 on entry) by the tuples of value indexes in dims
 * (stable: ties keep their order). */
void rp_sw_sort(size_t *order, size_t n, const uint32_t *vi, size_t stride,
                const size_t *dims, size_t ndims);
/* Do rows a and b have the same value indexes in dims? */
int rp_sw_same(const uint32_t *vi, size_t stride, const size_t *dims,
               size_t ndims, size_t a, size_t b);

/* ==== sweep_cover.c ==== */

struct keyed {
    uint64_t key;
    uint32_t x, s; /* value indexes: 16 bytes an element, not 24 */
};

/* Group keys made dense (0, 1, 2, ... in order of first appearance) with
 * an open-addressing table that generations clear: sorting by them sorts
 * in 2 byte passes instead of 8. Groups stay the same; their order does
 * not matter to coverage. */
struct dense {
    uint64_t *k;
    uint32_t *id; /* dense ids < the elements of one call */
    unsigned *gen;
    size_t mask;
    unsigned g;
};

/* What coverage() works in, shared by the calls of one metric. Stamps
 * carry a generation that only grows, so nothing needs clearing (and no
 * stamp of an earlier call or group is taken for one of this group). */
#define PAIR_STAMPS (1u << 20) /* x × series spots stamped directly */

struct cov_ws {
    struct keyed *tmp, *tmp2; /* n each */
    struct dense h;
    size_t *start;            /* n + 1: first element of each group */
    size_t *xst, *sst;        /* maxv each: generation, count pairs */
    size_t *pst;              /* PAIR_STAMPS: generation per (x, s) */
    size_t gen;
    uint64_t **hv;            /* hval(k, v) by real dimension k, value v */
    uint64_t *full;           /* per cell: the sum over its real values */
    size_t *rid;              /* per element: its group in the first pass */
    unsigned char *gok;       /* per group of it: drawn */
};

/* The hash of value v of dimension dim; a cell's key is the sum over its
 * dimensions. */
uint64_t rp_sw_hval(size_t dim, size_t v);
/* The workspace of m (hashes, keys) and its release. */
void rp_sw_cov_init(struct cov_ws *w, const struct sw_metric *m);
void rp_sw_cov_release(struct cov_ws *w, size_t nreal);
/* dep[a * nreal + b]: dimension b is a function of dimension a over the
 * cells (caller frees). */
unsigned char *rp_sw_dependencies(const struct cand *cands, const uint32_t *vi,
                                  size_t stride, size_t n, size_t nreal);
/* Does dimension k follow from x or s? */
int rp_sw_depends(const unsigned char *dep, size_t nreal, size_t x, size_t s,
                  size_t k);
/* Cells a sweep over x (and series s, SIZE_MAX = none) would draw. */
size_t rp_sw_coverage(const struct sw_metric *m, size_t x, size_t s,
                      struct cov_ws *w);
/* Cells a sweep of every configuration by the configuration dimension x
 * would draw (rp_sw_others as the series): those with a value of x in a
 * panel of two cells or more. */
size_t rp_sw_coverage_all(const struct sw_metric *m, size_t x,
                          struct cov_ws *w);

/* ==== sweep_panels.c ==== */

/* Add the composite series of a sweep of every configuration by x: one
 * value per combination of the configuration dimensions that vary and do
 * not follow from x ("vdevs=2, disks=4, slog=yes"), as candidate
 * m->ncand (past nreal). Returns its index; *keys gets every varying
 * configuration dimension but x (the table's columns), in the order of
 * preference. */
size_t rp_sw_others(struct sw_metric *m, size_t x, struct rp_dim *out);
/* Draw the sweep of m over x and series s (SIZE_MAX = none) as panels,
 * one per combination of the dimensions in pdims; configurations no
 * dimension tells apart share a spot, pooled; every cell left out is
 * recorded with its reason. Appends to out (nothing when no panel can be
 * drawn). */
void rp_sw_panels(struct sw_metric *m, struct rp_sweeps *out, size_t x,
                  size_t s, const struct rp_dim *others);

/* ==== sweep_why.c ==== */

/* Why no sweep by x (and s, SIZE_MAX = none) can be drawn from m, and
 * what can: one line appended to b ("no sweep by layout and l2arc:
 * l2arc=yes was measured only with layout=raidz2 (host_4.4_c); ..."). */
void rp_sw_explain(const struct sw_metric *m, size_t x, size_t s,
                   struct cov_ws *w, struct pb_buf *b);

#endif
