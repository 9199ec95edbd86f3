/* run/: produces fresh results on real ZFS pools. A plan file (INI) names
 * vdevs, pool layouts, dataset or zvol properties and fio workloads to
 * sweep; every cell of the matrix gets a fresh dataset (pools are reused
 * while only dataset properties or the workload change), caches dropped,
 * fio run with JSON output, and `zfs get -Hp all` captured. Raw outputs go
 * to DIR/raw/ and are handed to ingest/ (this module parses no result file
 * itself) and stored with model/, one source per cell.
 *
 * It never goes through a shell: commands are argv vectors run with
 * posix_spawnp, each logged to DIR/commands.log; a dry run prints the same
 * lines and executes nothing. It only exports, destroys or writes to pools
 * it created in this run (they carry the poolbench:owner user property).
 *
 * Use:
 *   1. pb_run_plan_load() (or pb_run_plan_parse() for a buffer);
 *   2. optionally inspect it: pb_run_plan_name(), pb_run_plan_ncells();
 *   3. fill a struct pb_run_opts (db opened by the caller, NULL for a dry
 *      run) and call pb_run_execute();
 *   4. pb_run_plan_free().
 * A cell that fails (fio killed or failing, zpool or zfs create refused)
 * is recorded as failed with the reason; the plan's on_failure says
 * whether the run goes on (continue) or ends there (stop: the pool and
 * sparse files are removed as at the end of a run). A resumed cell that
 * succeeds (or fails anew) takes the place of its earlier failure record.
 * When ZFS stopped answering during a run (zfs-fuse killed), the run stops
 * and leaves its pool and files; once ZFS answers again, pb_run_cleanup()
 * removes them (`poolbench run --cleanup`).
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include "common/pb.h"
#include "model/db.h"

#include <stdio.h>

struct pb_run_plan;

/* Read and validate the plan at path. Errors are PB_EUSAGE (or PB_EIO
 * when the file cannot be read) with err naming path:line. Free *out with
 * pb_run_plan_free. */
int pb_run_plan_load(const char *path, struct pb_run_plan **out,
                     struct pb_err *err) PB_WUR;

/* Same from a NUL-terminated buffer; path is used in messages and for the
 * default plan name (its base name without .ini). */
int pb_run_plan_parse(const char *path, const char *text,
                      struct pb_run_plan **out, struct pb_err *err) PB_WUR;

void pb_run_plan_free(struct pb_run_plan *plan);

/* --time-scale: scale the plan down for a smoke run (0 < f <= 1): fio
 * runtime, ramp_time and size, the zvol size (not below 16M) and repeats
 * (not below 1) are multiplied by f; sizes are rounded to whole MiB and
 * kept at least 1M (and at least the largest fio bs), runtimes at least
 * 1 s. PB_EUSAGE for an f out of range. */
int pb_run_plan_scale(struct pb_run_plan *plan, double f,
                      struct pb_err *err) PB_WUR;

/* The plan's name ([plan] name, else the file's base name); borrowed. */
const char *pb_run_plan_name(const struct pb_run_plan *plan);

/* Number of cells (pool axes x dataset/zvol axes x fio axes); repeats are
 * not counted. */
size_t pb_run_plan_ncells(const struct pb_run_plan *plan);

/* Config label and test name of cell i (0-based) as they will be stored:
 * written into the caller's buffers (reset first). */
void pb_run_plan_describe(const struct pb_run_plan *plan, size_t i,
                          struct pb_buf *label, struct pb_buf *test);

/* Which ZFS is used; AUTO detects it (OpenZFS module, else zfs-fuse). */
enum pb_run_impl { PB_RUN_IMPL_AUTO = 0, PB_RUN_IMPL_OPENZFS,
                   PB_RUN_IMPL_ZFS_FUSE };

struct pb_run_opts {
    struct pb_db *db;   /* where results go; may be NULL for a dry run
                           (with resume it is read to skip finished cells) */
    const char *dir;    /* output folder; NULL = ./run-<plan name> */
    int dry_run;        /* print the commands to out, execute none */
    int yes;            /* allow real block devices as vdevs */
    int resume;         /* skip cells whose fio output is already stored;
                           a cell that runs again replaces its earlier
                           failure record */
    FILE *out;          /* dry-run listing and the final summary; stdout */
    FILE *progress;     /* progress lines; NULL = none */
    const char *run_id; /* owner mark; NULL = generated (time and pid) */
    enum pb_run_impl impl;
    int on_failure;     /* 0 = the plan's on_failure, 1 continue, 2 stop */
    const char *caps_dir; /* tests: the preflight reads zfs-get-usage.txt,
                             zpool-get-usage.txt, zpool-upgrade-v.txt (and
                             zfs-version.txt) from this folder instead of
                             asking zfs and zpool, and checks no fio
                             option; NULL = ask */
    double zfs_timeout; /* seconds before a hung zfs/zpool query is killed
                           (create, destroy, export, import: ten times
                           that); 0 = 30 */
    double stall_timeout; /* seconds without any I/O by fio before it is
                             stopped and its cell fails (run/stall.c);
                             0 = never */
    /* Consent from the person at the keyboard (run/consent.c): a plan is
     * a file people share, so nothing in it widens what a run may do. */
    int allow_remote_command; /* --allow-remote-command: [hosts] remote
                                 runs as written (else: ssh and its
                                 allow-listed options only) */
    int allow_exec;       /* --allow-exec: [fio] may run commands or load
                             code (exec_prerun, exec_postrun,
                             ioengine=exec/external:); else refused */
    const char *ssh;      /* --ssh PROGRAM: the absolute path run for a
                             template's 'ssh'; NULL = ssh on PATH */
};

/* What a run did; filled by pb_run_execute even when it fails. */
struct pb_run_summary {
    size_t cells;       /* in the plan */
    size_t done;        /* ran and stored */
    size_t skipped;     /* recorded as cell_skipped with a reason */
    size_t failed;      /* ... of them: a command of the cell failed (the
                           others cannot run on this ZFS) */
    size_t failed_cell; /* the cell (1-based) whose failure stopped the run
                           (on_failure = stop), or 0 */
    char failed_why[1024]; /* ... and why it failed */
    size_t resumed;     /* already in the database */
    int signal;         /* SIGINT / SIGTERM that stopped the run, or 0 */
    int zfs_gone;       /* ZFS stopped answering: the run stopped and left
                           its pool and sparse files (see pb_run_cleanup) */
    char dir[4096];     /* the output folder used (absolute) */
    char run_id[64];    /* the owner mark of this run's pools */
    char suspended[1024]; /* a pool suspended: what to do, for the ZFS in
                             use; else "" */
    size_t partial;     /* [hosts]: cells kept with some servers' parts
                           failed (flag.partial; counted in done) */
    char partial_why[1024]; /* ... "cell 2: HOST (why); ..." */
};

/* What a plan may do only when the person running it says so on the
 * command line (a plan is a file people share): [fio] options that run
 * commands or load code (opts->allow_exec), a [hosts] remote template
 * other than ssh with its allow-listed options and one destination
 * (opts->allow_remote_command), an ssh other than PATH's (opts->ssh,
 * absolute). PB_OK, or PB_EUSAGE naming the plan's line. pb_run_execute
 * checks it first (in a dry run too); a caller may check it before
 * opening anything. */
int pb_run_consent_check(const struct pb_run_plan *plan,
                         const struct pb_run_opts *opts, struct pb_err *err)
    PB_WUR;

/* Run (or, with opts->dry_run, list) every cell of plan. Returns PB_OK when
 * every cell ran or was recorded as skipped; PB_EUSAGE for a refused plan
 * (real device without --yes, existing pool or vdev file, ...); PB_ERUN
 * when interrupted (sum->signal set), when a pool cannot be cleaned up,
 * when a cell failed and the plan says on_failure = stop
 * (sum->failed_cell set), or when ZFS stops answering (sum->zfs_gone
 * set: the cell in progress is recorded as failed and the run stops,
 * whatever on_failure says); PB_EDB when storing fails.
 * Finished cells stay stored. Pools and sparse files this run created are
 * gone when it returns, except after zfs_gone (the owner mark cannot be
 * checked): pb_run_cleanup() removes them once ZFS answers again. */
int pb_run_execute(const struct pb_run_plan *plan,
                   const struct pb_run_opts *opts, struct pb_run_summary *sum,
                   struct pb_err *err) PB_WUR;

/* Shell-quote argv into b, for reading (the commands never see a shell). */
void pb_run_quote(struct pb_buf *b, const char *const *argv);

/* The command that removes what the run of sum left behind
 * ("poolbench run --cleanup RUNID -o DIR", quoted), appended to b. */
void pb_run_cleanup_command(const struct pb_run_summary *sum,
                            struct pb_buf *b);

/* ==== cleanup of a run that could not clean up after itself ==== */

struct pb_run_cleanup_opts {
    const char *run_id; /* the run to clean up; NULL = every run recorded
                           in dir's manifest */
    const char *dir;    /* the run's output folder (its manifest.tsv lists
                           the sparse files it made); NULL = found from the
                           mountpoint of the run's pool when there is one */
    int dry_run;        /* print the commands to out, execute none */
    FILE *out;          /* what was done (or the listing); stdout */
    FILE *progress;     /* warnings; NULL = none */
};

/* Destroy every pool whose poolbench:owner is the run's id (read back
 * right before `zpool destroy`; other pools are never touched), and
 * remove the sparse files the run's manifest records, when they are still
 * the very files the run made and no pool uses them. Without a manifest,
 * the file vdevs of the destroyed pools are removed. Returns PB_OK when
 * nothing of the run is left (also when there was nothing); PB_EUSAGE for
 * a missing manifest or a run id it does not know; PB_ERUN when ZFS does
 * not answer (nothing is touched then), without root, while the run still
 * goes, or when something could not be removed. */
int pb_run_cleanup(const struct pb_run_cleanup_opts *opts,
                   struct pb_err *err) PB_WUR;

/* ==== the environment a run needs (env.c) ==== */

/* What `poolbench --version` and `poolbench doctor` report. */
struct pb_run_env {
    enum pb_run_impl impl;  /* the ZFS a run would use (never AUTO) */
    char kind[16];          /* ... by name: "openzfs", "zfs-fuse" */
    int module;             /* the OpenZFS kernel module is loaded */
    char zfs_path[4096];    /* zfs on $PATH (with zpool), "" when absent */
    int zfs_answers;        /* ... and it answered the preflight's queries
                               (for zfs-fuse: its daemon is up) */
    char zfs_version[128];  /* "zfs-fuse (pool version 23)", "OpenZFS
                               zfs-2.1.11-1"; "" when unknown */
    char fio_path[4096];    /* fio on $PATH, "" when absent */
    char fio_version[64];   /* first line of `fio --version`, "" unknown */
};

/* Detect the ZFS (as a run does), ask it what it is with the preflight's
 * capability queries, and ask fio its version; argv only, read-only,
 * each command killed after timeout seconds (0 = 30). Never fails: what
 * is absent or does not answer is left empty. */
void pb_run_env_probe(struct pb_run_env *env, double timeout);

/* The first executable prog on $PATH: 1 with its path written into buf
 * (when n > 0), else 0. */
int pb_run_which(const char *prog, char *buf, size_t n);

#endif
