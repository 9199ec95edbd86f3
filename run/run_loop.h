/* Private to run/run.c, run/resume.c and run/cell.c: the state of one
 * run (struct run) and the steps those files share. Other modules include
 * run/run.h only. */
#ifndef PB_RUN_LOOP_H
#define PB_RUN_LOOP_H

#include "run/preflight_int.h"

#include <limits.h>

/* [hosts]: one server's part of the run (run/hostcell.c). */
struct pb_run_hostrun {
    struct pb_run_plan *p; /* pool "POOL-hN", vdev files "PATH-hN" */
    struct pb_run_exec x;  /* the run's, with host and remote set */
    struct pb_run_zfs z;
    char **remote;         /* template argv, NULL = on this machine */
    char mnt[PATH_MAX];    /* DIR/mnt-hN */
    char why[512];         /* why its part of the current cell failed */
    int pool_failed;       /* its pool of this combination failed */
    char pool_why[512];
};

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
        int partial;   /* a source of a cell kept partial ([hosts]) */
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
    struct pb_run_hostrun *hosts; /* [hosts]: one per server */
    size_t nhosts;
    char **host_zfs;  /* [hosts]: per server, the ZFS its shell answered
                         (pb_run_hosts_probe), or NULL */
    int remote_only;  /* every server reached through the template: this
                         machine's ZFS and telemetry are not the run's */
    double fio_deadline; /* [hosts]: when the fio client is stopped (it
                            waits for a server that does not answer) */
    double fio_limit;    /* ... seconds after it started */
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

/* Progress line of repeat rep of cell c on the progress stream. */
void pb_run_progress(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test, long rep);
/* Store the fio sets[0..got) of cell c as one source (a plan with
 * repeats > 1: folded into one set, per result the mean, its standard
 * error and the samples, over the repeats' bytes all), and once stored
 * forget the cell's earlier skip/failure records. Returns the set stored:
 * sets[0], or a folded one the caller frees. */
struct pb_resultset *pb_run_store_fio(struct run *r,
                                      const struct pb_run_cell *c,
                                      struct pb_resultset **sets, long got,
                                      const struct pb_buf *all);
/* Add the varying fio options the fio test name leaves out. */
void pb_run_patch_tests(struct run *r, size_t fio_combo,
                        struct pb_resultset *set);
/* `zfs get -Hp all`, `zpool get all`, `zpool status` of plan p's dataset
 * and pool through x, written to path and ingested (zfs-props) with io.
 * host: NULL, or the server named in the file's first line and in the
 * warnings ([hosts]). hung (may be NULL): the first command that timed
 * out, when one did. The set (caller frees), or NULL (dry run, or
 * not ingested: a warning said why). */
struct pb_resultset *pb_run_capture_props(struct run *r, struct pb_run_exec *x,
                                          const struct pb_run_plan *p,
                                          const char *host, const char *path,
                                          size_t cell,
                                          const struct pb_ingest_opts *io,
                                          struct pb_err *hung);
/* Give `to` the dimensions zfs reported in `from`. */
void pb_run_share_dims(const struct pb_resultset *from,
                       struct pb_resultset *to);
/* `sync` and echo 3 > /proc/sys/vm/drop_caches on this machine. */
void pb_run_drop_page_cache(struct run *r);

/* The watch of fio (pb_run_exec.watch). */
int pb_run_fio_watch(void *ctx, struct pb_err *err);
/* Create the pool of cell c's pool combination: 0, or -1 (r->pool_fail). */
int pb_run_pool_up(struct run *r, const struct pb_run_cell *c);
/* Destroy the dataset and pool (r->fatal when it cannot). */
void pb_run_pool_down(struct run *r);
/* Run cell c on the current pool and store (or record) its outcome. */
void pb_run_cell_run(struct run *r, const struct pb_run_cell *c,
                     const char *label, const char *test);

/* ==== the cell interface (cell.c: this machine, hostcell.c: [hosts]) ====
 * pb_run_execute's cells step hands every cell it does not skip as
 * already stored (--resume) to one of these: skip says why the cell does
 * not run (NULL: run it; failed: record it as a failure, not a skip). The
 * implementation runs it (pools of the combination made as needed) and
 * stores its results, or records the skip. Non-zero: the run stops after
 * this cell (ZFS gone, on_failure = stop). */
struct pb_run_cells {
    const char *name; /* "local", "hosts" */
    int (*cell)(struct run *r, const struct pb_run_cell *c, size_t i,
                const char *skip, int failed, const char *label,
                const char *test);
};
extern const struct pb_run_cells pb_run_cells_local;
extern const struct pb_run_cells pb_run_cells_hosts;
/* Cell i recorded as skipped or failed, then pb_run_cell_after(). */
int pb_run_cell_skipped(struct run *r, const struct pb_run_cell *c, size_t i,
                        const char *skip, int failed, const char *label,
                        const char *test);
/* After cell i: non-zero when the run stops (ZFS stopped answering:
 * r->gone_cell set; or r->stop). */
int pb_run_cell_after(struct run *r, size_t i);

/* ==== [hosts] (hostcell.c) ==== */

/* The per-server state of a plan with [hosts] (after the log is open). */
void pb_run_hosts_setup(struct run *r);
/* [hosts] with a remote template: the preflight's ZFS is the remote
 * servers' (probed through the template: this machine may run another
 * ZFS, or none), r->caps and r->impl set from the first; every remote
 * server must run the same one (else PB_EUSAGE at the servers line). 0
 * when the plan has no remote server. */
int pb_run_hosts_probe(struct run *r, struct pb_err *err);
void pb_run_hosts_free(struct run *r);
/* A new pool combination: each server's pool destroyed (when made) and
 * its failure of the last combination forgotten. */
void pb_run_hosts_pools_down(struct run *r);
/* Cell c on every server: pools and datasets through each server's
 * shell, one fio with a --client and job file per server, properties per
 * server; a server that fails loses its part (the others' results are
 * kept and marked flag.partial). */
void pb_run_hostcell_run(struct run *r, const struct pb_run_cell *c,
                         const char *label, const char *test);

#endif
