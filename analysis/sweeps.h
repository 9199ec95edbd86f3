/* analysis/: the sweeps over the report's data (analysis/data.h): the
 * dimensions results vary along, the panels drawn and the cells left out
 * (sweeps.c, sweep_*.c; docs/report.md, "Sweeps"); render/report_sweeps.c
 * draws them. rp_ names kept. */
#ifndef PB_AN_SWEEPS_H
#define PB_AN_SWEEPS_H

#include "analysis/data.h"

/* ==== sweeps.c ==== */

enum rp_dimkind {
    RP_DIM_CONFIG,    /* a config_param key */
    RP_DIM_TEST,      /* a test_param key */
    RP_DIM_LABEL,     /* the config label, when params do not tell apart */
    RP_DIM_TEST_NAME, /* the test name, likewise (internal to sweeps) */
    RP_DIM_FAMILY,    /* the test's tool: groups, never an axis (internal) */
    RP_DIM_OTHERS     /* a series of every configuration: the combination
                         of the configuration dimensions other than x */
};

struct rp_dim {
    enum rp_dimkind kind;
    const char *key;   /* param key; "config" for RP_DIM_LABEL; the keys
                          combined, ", "-joined, for RP_DIM_OTHERS */
    const char **vals; /* distinct values in display order */
    size_t nvals;
    /* RP_DIM_OTHERS: every configuration dimension that varies but x, in
     * order of preference: the columns of the sweep's table */
    const char **keys;
    size_t nkeys;
};

/* A spot of a panel's grid that holds several configurations no
 * dimension tells apart (the same setup under two titles): their results
 * pooled as repeats of one setup. */
struct rp_spot {
    size_t k;            /* its grid index */
    const size_t *cells; /* the cells pooled, in configuration order */
    size_t n;
    const char *labels; /* their configurations' labels, " + "-joined */
    struct rp_cell pooled;
};

/* One chart of a sweep: the cells of one combination of the other
 * dimensions, on an nx × ns grid (row-major by series). */
struct rp_panel {
    const char *title; /* "rw=randread, numjobs=1"; "" when alone */
    size_t *grid;      /* ns * nx cell indexes, SIZE_MAX = none (a pooled
                          spot: its first cell) */
    size_t nx, ns;     /* used x and series values (subset of the dim) */
    const char **xvals, **svals;
    uint32_t *scolors;
    struct rp_spot *spots; /* grid spots of several configurations */
    size_t nspots;
};

/* The cell at grid index k of p (the pooled one of a spot), NULL when
 * empty; *spot (may be NULL) gets the spot or NULL. */
const struct rp_cell *rp_panel_cell(const struct rp_data *d,
                                    const struct rp_panel *p, size_t k,
                                    const struct rp_spot **spot);

/* Why a cell of the sweep's metric is in no panel (docs/report.md,
 * "Sweeps": every configuration appears or is named). */
enum rp_left_why {
    RP_LEFT_NOVALUE, /* the result has no value; what: its reason */
    RP_LEFT_NODIM,   /* no value of x or the series; what: its name */
    RP_LEFT_APART,   /* set apart by other dimensions, nothing to compare
                        with; what: "atime=on" */
    RP_LEFT_CLASH,   /* tests told apart only by name on one spot */
    RP_LEFT_PANELS   /* in panels past the most a sweep draws */
};

struct rp_left {
    size_t cell;
    int why;          /* enum rp_left_why */
    const char *what; /* NULL = nothing to add */
};

struct rp_sweep {
    size_t metric;
    struct rp_dim x, s;
    struct rp_panel *panels;
    size_t npanels, omitted;
    struct rp_left *left; /* by reason, what, configuration, test */
    size_t nleft, capleft;
    size_t nconfigs;      /* configurations with a cell of the metric */
    size_t nleft_configs; /* of them, in no panel */
};

struct rp_sweeps {
    struct pb_arena arena;
    struct rp_sweep *v;
    size_t n, cap;
    /* rp_find_sweeps's PB_EUSAGE in full (the error holds its first 255
     * bytes); NULL otherwise */
    const char *why;
};

/* Find sweeps over the primary groups: for each metric, the config/test
 * dimensions that vary; x and series chosen automatically unless xkey or
 * skey name one (docs/report.md, "Sweeps"). Marks cells drawn in a sweep
 * (in_sweep) and records those left out (rp_sweep.left). Returns PB_OK or
 * PB_EUSAGE when no sweep can be drawn with xkey/skey: out->why says why
 * in full. Release out with rp_sweeps_release either way. */
int rp_find_sweeps(struct rp_data *d, const char *xkey, const char *skey,
                   struct rp_sweeps *out, struct pb_err *err) PB_WUR;
void rp_sweeps_release(struct rp_sweeps *s);

#endif
