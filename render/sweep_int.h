/* Private to render/sweeps.c and render/sweep_cover.c: the candidate
 * dimensions of a metric's sweep and how many cells a choice of x axis
 * and series would draw (coverage). */
#ifndef PB_SWEEP_INT_H
#define PB_SWEEP_INT_H

#include "render/render_int.h"

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
};

/* The hash of value v of dimension dim; a cell's key is the sum over its
 * dimensions. */
uint64_t rp_sw_hval(size_t dim, size_t v);
void rp_sw_cov_init(struct cov_ws *w, size_t n, size_t maxv);
void rp_sw_cov_release(struct cov_ws *w);
/* dep[a * nreal + b]: dimension b is a function of dimension a over the
 * cells (caller frees). */
unsigned char *rp_sw_dependencies(const struct cand *cands, const uint32_t *vi,
                                  size_t stride, size_t n, size_t nreal);
/* Does dimension k follow from x or s? */
int rp_sw_depends(const unsigned char *dep, size_t nreal, size_t x, size_t s,
                  size_t k);
/* Cells a sweep over x (and series s, SIZE_MAX = none) would draw. */
size_t rp_sw_coverage(const struct cand *cands, const uint32_t *vi,
                      size_t stride, const uint64_t *full, size_t n,
                      size_t nreal, size_t x, size_t s,
                      const unsigned char *dep, struct cov_ws *w);

#endif
