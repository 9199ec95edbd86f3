/* Private to the bonnie++ CSV reader (bonnie_scan.c splits and classifies
 * lines, bonnie_csv.c reads rows, bonnie_fold.c folds repeated runs into
 * results): what they share. */
#ifndef PB_BONNIE_INT_H
#define PB_BONNIE_INT_H

#include "ingest/ingest_int.h"

#include <stdint.h>

#define NTESTS 12

extern const char BONNIE_TOO_FAST[]; /* "+++++ (too fast to measure)" */

/* ==== scanning rows (bonnie_scan.c) ==== */

#define MAXCELLS 64 /* more are counted, not kept */

enum layout { L_LEGACY, L_V196, L_V198 };

/* Column of the first value cell of the IO tests, the file-test parameter
 * block, the first value cell of the file tests, and the latencies. */
struct cols {
    size_t ncells, io, files, ftests, lat;
};

struct cell {
    const char *p; /* trimmed */
    size_t n;
    long col; /* 1-based byte column in the line */
};

struct line {
    const char *p; /* trimmed of trailing CR and blanks */
    size_t n;
    long lineno;
    struct cell c[MAXCELLS];
    size_t nf; /* number of cells, may exceed MAXCELLS */
};

enum kind { K_SKIP, K_ROW };

static inline int bonnie_is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

static inline int bonnie_is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* [*a, *b) without its leading and trailing blanks. */
static inline void bonnie_trim(const char **a, const char **b)
{
    while (*a < *b && bonnie_is_blank(**a))
        (*a)++;
    while (*b > *a && bonnie_is_blank((*b)[-1]))
        (*b)--;
}

/* Split l's text into cells, trimmed of blanks; columns from start. */
void bonnie_split(struct line *l, const char *start);
int bonnie_cell_is(const struct cell *c, const char *s);
/* Digits with an optional fraction; the length matched (0: none). */
size_t bonnie_dec_len(const char *p, size_t n);
int bonnie_is_plus(const struct cell *c);   /* "+++++": too fast */
int bonnie_is_number(const struct cell *c); /* bonnie_dec_len of it all */
/* The first n bytes of c as a finite number; -1 when not one. */
int bonnie_to_double(const struct cell *c, size_t n, double *out);
/* Whether l is a bonnie++ CSV row, and its layout in *lay. */
enum kind bonnie_classify(const struct line *l, enum layout *lay);
int bonnie_starts_with(const char *p, size_t n, const char *s);
int bonnie_sniff(const char *buf, size_t len);

/* ==== the twelve bonnie++ tests ==== */

struct btest {
    const char *metric;    /* value metric */
    const char *cpu, *lat; /* its _cpu and _latency companions */
    const char *unit;
    double mult;                   /* K/sec -> B/s */
    const char *col, *ccol, *lcol; /* bonnie++'s CSV column names */
};
extern const struct btest bonnie_tests[NTESTS];

enum mstate { M_EMPTY, M_VALUE, M_PLUS };

struct meas {
    enum mstate st;
    double v;
};

struct params {
    double file_size, chunk, seeks, seekers, conc, nfiles, maxs, mins, dirs,
        fchunk;       /* NAN = absent */
    const char *link; /* "link" / "symlink" instead of max/min */
};

/* ==== folding repeated runs ==== */

/* One metric of one (machine, test) over its runs: Welford's running mean
 * in file order, the arithmetic of the report's fold of repeats
 * (analysis/data.c rp_acc_add), so the report shows the means, SE and n it
 * computed from "run K" rows (up to the last bit: it took the runs in
 * job-name order, "run 1", "run 10", "run 2"). */
struct acc {
    long k;    /* runs that measured it */
    long plus; /* runs that were too fast to measure */
    double mean, m2;
    double *v; /* the k measured values in file order (the samples) */
    size_t capv;
};

/* Slot of test i's value, %CPU and latency: 3i, 3i + 1, 3i + 2. */
#define NSLOTS (3 * NTESTS)

struct group {
    size_t config, test;
    const char *host; /* interned */
    long runs;        /* rows folded into it */
    struct acc a[NSLOTS];
};

/* A row's identity before its test is named: machine name and parameters.
 * Rows whose parameters differ get tests of their own even when the test
 * names are the same (a 1.97 row has no seeks cells, a 2.00 row the
 * default 8192: bonnie_make_test); several keys may still lead to one
 * group. Naming the test on every row would cost more than parsing. */
struct rkey {
    uint64_t hash;
    const char *host; /* interned */
    size_t hostlen;
    struct params pr;
    size_t group;
};

struct fold {
    struct group *g;
    size_t ng, capg;
    size_t *gslots; /* (config, test) -> group + 1, linear probing */
    size_t gcap;
    struct rkey *k;
    size_t nk, capk;
    size_t *kslots; /* row key -> rkey + 1 */
    size_t kcap;
    const char **cver; /* last bonnie_version fact per config */
    size_t capcver;
};

/* The test of a row with parameters pr (bonnie_csv.c). */
size_t bonnie_make_test(struct pb_resultset *set, const struct params *pr);

void bonnie_fold_release(struct fold *f);
/* The group of a row of machine name[0..n) with parameters pr; the
 * config and test are made when the key is new. */
size_t bonnie_group_of(struct fold *f, struct pb_resultset *set,
                       const char *name, size_t n, const struct params *pr);
void bonnie_acc_add(struct acc *a, const struct meas *m);
/* The bonnie_version fact ver[0..n) of the machine of config cfg: set
 * when it is new or differs from the last one set. */
void bonnie_version_fact(struct fold *f, struct pb_resultset *set, size_t cfg,
                         const char *host, const char *ver, size_t n);
/* Results of every group in the order rows first named them, then one
 * too_fast_runs fact per machine that has partly too fast metrics. */
void bonnie_emit_all(struct pb_resultset *set, const struct fold *f);

#endif
