/* Private to run/run.c, run/resume.c and run/cell.c: the state of one
 * run (struct run) and the steps those files share. Other modules include
 * run/run.h only. */
#ifndef PB_RUN_LOOP_H
#define PB_RUN_LOOP_H

#include "run/preflight_int.h"

#include <limits.h>

struct run {
    const struct pb_run_plan *p;
    const struct pb_run_opts *o;
    struct pb_run_summary *sum;
    struct pb_err *err;
    struct pb_run_exec x;
    struct pb_run_zfs z;
    enum pb_run_impl impl;
    struct pb_run_caps caps; /* what this ZFS and fio can do */
    struct pb_run_pre pre;   /* ... and which cells lack it */
    int stop_on_failure;     /* the plan's on_failure, or --on-failure */
    size_t seq;              /* 1-based position of the cell in the run */
    char run_id[64];
    char dir[PATH_MAX - 64], raw[PATH_MAX], mnt[PATH_MAX];
    int width; /* digits of cell numbers in file names */

    char **done; /* source paths already in the database (--resume) */
    size_t ndone, capdone;
    struct keyrec { /* ... with their run_cell_key fact, by source id */
        long long id;
        char *path;
        char key[17];
    } * keys;
    size_t nkeys, capkeys;
    char cell_key[17]; /* of the cell being run: a fact of its sources */
    struct failrec {   /* skip and failure records in the database, with */
        long long id;  /* the cell's source path (--resume); id 0 once */
        char *path;    /* forgotten */
        char sha256[65];
    } * fails;
    size_t nfails, capfails;

    struct pb_resultset *facts; /* host facts, moved to the first store */
    struct pb_run_telrun tr;    /* module parameters, arcstats, cache */
    char ashift[16];            /* effective ashift of the pool (zdb -C) */
    int facts_stored;
    int warned_props;

    size_t pool_combo;   /* pool combination of z, or (size_t)-1 */
    char pool_fail[512]; /* why the current pool combination cannot run */
    int zvol_ok;         /* 0 unknown, 1 yes, -1 no (zvol_why) */
    char zvol_why[512];

    double t0;
    size_t ran;       /* cells that ran in this process */
    double ran_secs;  /* their total time */
    int fatal;        /* storing failed or a pool is not ours: stop */
    size_t gone_cell; /* the cell during which ZFS stopped answering */
    int stop;         /* a cell failed and the plan says on_failure = stop */
    struct pb_run_stall stall; /* fio's I/O progress (run/stall.c) */
    int stalled;               /* ... what the watch last found */
};

/* ==== small helpers (run.c) ==== */

/* Monotonic seconds. */
double pb_run_now(void);
/* "1:02:03" / "2:03" into buf. */
void pb_run_fmt_dur(double s, char *buf, size_t n);
/* snprintf for paths and messages that may be cut short on purpose. */
void pb_run_sfmt(char *buf, size_t n, const char *fmt, ...) PB_PRINTF(3, 4);
/* Write buf to path in the run's folder (no symlink followed). 0 or -1. */
int pb_run_write_file(const char *path, const char *buf, size_t len);
/* A warning on the progress stream and in the log. */
void pb_run_warn(struct run *r, const char *fmt, ...) PB_PRINTF(2, 3);

/* ==== storing and --resume (resume.c) ==== */

int pb_run_cmp_str(const void *a, const void *b);
int pb_run_cmp_keyrec(const void *a, const void *b);
/* pb_db_each_source / pb_db_report_facts callbacks filling r->done,
 * r->keys and r->fails. */
int pb_run_on_source(void *ctx, const struct pb_db_source *s);
int pb_run_on_fact(void *ctx, const struct pb_db_triple *t);
/* --resume: refuse when stored cells have other parameters now. 0/-1. */
int pb_run_resume_check(struct run *r);
/* Is path a source already stored (--resume)? */
int pb_run_is_done(const struct run *r, const char *path);
/* Raw file of cell i: "DIR/raw/c007.SUFFIX" (see resume.c). */
void pb_run_cell_path(const struct run *r, size_t i, long repeat,
                      const char *suffix, char *buf, size_t n);
/* Store set: PB_OK, PB_EDUP, or -1 (r->fatal set). */
int pb_run_store(struct run *r, struct pb_resultset *set, int record);
/* Forget the earlier skip/failure records of cell i (but keep_sha). */
void pb_run_forget_records(struct run *r, size_t i, const char *keep_sha);
/* Record cell c as skipped (failed 0) or failed (1) with why. */
void pb_run_record_skip(struct run *r, const struct pb_run_cell *c,
                        const char *label, const char *test, const char *why,
                        int failed);

/* ==== a cell (cell.c) ==== */

/* The watch of fio (pb_run_exec.watch). */
int pb_run_fio_watch(void *ctx, char *why, size_t n);
/* Create the pool of cell c's pool combination: 0, or -1 (r->pool_fail). */
int pb_run_pool_up(struct run *r, const struct pb_run_cell *c);
/* Destroy the dataset and pool (r->fatal when it cannot). */
void pb_run_pool_down(struct run *r);
/* Run cell c on the current pool and store (or record) its outcome. */
void pb_run_cell_run(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test);

#endif
