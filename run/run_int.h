/* Private to run/: the parsed plan, command execution and the pool
 * lifecycle helpers shared by plan.c, exec.c, zfs.c, zfs_host.c and
 * run.c. Other modules include run/run.h only. */
#ifndef PB_RUN_INT_H
#define PB_RUN_INT_H

#include "ingest/ingest.h"
#include "run/run.h"
#include "run/zfs_telemetry.h"

#include <sys/types.h>

/* ==== plan (plan.c) ==== */

struct pb_run_vdev {
    char *path;   /* absolute file path, or a /dev/... device */
    double size;  /* bytes, files only */
    int is_file;
    int loop;     /* loop:PATH:SIZE: the file is used through a loop
                     device (is_file set too) */
    char *dev;    /* ... the /dev/loopN it is attached to, while it is */
    char *canon;  /* the canonical path (realpath), to find duplicates */
    int made;     /* this run created the file (O_EXCL) ... */
    unsigned long long ident_dev, ident_ino; /* ... with this identity */
    long line;
};

struct pb_run_vdevs {
    struct pb_run_vdev *v;
    size_t n, cap;
};

/* One key of [pool], [dataset]/[zvol] or [fio]: one value is a setting,
 * several are an axis. */
struct pb_run_axis {
    char *key;
    char **vals;
    size_t nvals, capvals;
    long line;
};

enum pb_run_sect { PB_RUN_POOL = 0, PB_RUN_DATA, PB_RUN_FIO, PB_RUN_NSECT };

struct pb_run_section {
    struct pb_run_axis *ax;
    size_t n, cap;
    size_t ncombos; /* product of the axes' value counts */
};

/* A parsed layout value such as "stripe-2", "mirror", "2xraidz1-3". */
struct pb_run_layout {
    char type[8]; /* stripe, mirror, raidz1, raidz2, raidz3 */
    int groups;   /* 1 unless "Nx" */
    int width;    /* vdevs per group (for a stripe: vdevs) */
};

/* [hosts]: one fio server of a multi-host plan (run/hosts.c). */
struct pb_run_host {
    char *entry;  /* as the plan writes it, canonical: "localhost:18765",
                     "[::1]:8765", "sock:/run/fio.sock"; the result host */
    char *name;   /* host name or address ("localhost", "::1"), or the
                     socket path; what {host} of the template becomes */
    char *client; /* fio's --client= value: "localhost,18765",
                     "ip6:::1,8765", "sock:/run/fio.sock" */
    long port;    /* 0 = fio's default (8765) */
    int sock;     /* sock:PATH (on this machine: pool work runs here) */
    long line;
};

struct pb_run_hosts {
    struct pb_run_host *h; /* n == 0: no [hosts], a one-machine run */
    size_t n, cap;
    char **remote;  /* remote = TEMPLATE split into words (NULL-ended);
                       NULL = remote = local */
    size_t nremote, remote_cap;
    int remote_local;         /* remote = local */
    long line, remote_line;
};

struct pb_run_plan {
    char *path, *name, *description, *pool;
    int zvol;     /* kind = zvol */
    long repeats;  /* with repeats_auto: max_repeats */
    int repeats_auto;  /* repeats = auto (run/repeat.c) */
    double target_rse; /* repeats = auto: stop at this relative standard
                          error of the headline metric (0.02 = 2%) */
    int order_random;  /* order = random: cells shuffled (seed) */
    int has_seed;      /* seed given in the plan */
    unsigned long seed;
    int stop_on_failure; /* on_failure = stop: the first failed cell ends
                            the run (default continue: go on) */
    double time_scale;    /* pb_run_plan_scale(): 1 = as written */
    unsigned logs;        /* [fio] log = bw, iops, lat, hist: PB_RUN_LOG_*
                             bits (fio logs written and ingested) */
    int skip_unsupported; /* on_unsupported = skip: cells using what this
                             ZFS or fio lacks are recorded as skipped
                             (default error: the plan is refused) */
    struct pb_run_vdevs data, log, cache;
    struct pb_run_section sect[PB_RUN_NSECT];
    size_t ncells;
    struct pb_run_hosts hosts; /* [hosts] */
};

/* The next word of a list such as "a, b c" (separated by blanks and
 * commas) at *p, which moves past it: a heap copy (caller frees), or NULL
 * at the end. */
char *pb_run_list_word(const char **p);

/* ==== [hosts] (hosts.c) ==== */

/* One key of [hosts] (servers, remote) at line: 0, or -1 with err set
 * (PB_EUSAGE naming path:line). cont: an indented continuation line. */
int pb_run_hosts_pair(struct pb_run_hosts *h, const char *key,
                      const char *value, int cont, long line,
                      const char *path, struct pb_err *err);
/* Once every line is read: the remote template (its continued lines
 * joined) names {host} and starts with a program. 0, or -1 with err
 * (PB_EUSAGE at the template's first line). */
int pb_run_hosts_check_remote(struct pb_run_hosts *h, const char *path,
                              struct pb_err *err);
/* After the whole plan: [hosts] checks that need the other sections
 * (file vdevs only, no [fio] log). 0, or -1 with err. */
int pb_run_hosts_finish(struct pb_run_plan *p, struct pb_err *err);
void pb_run_hosts_release(struct pb_run_hosts *h);
/* Is the server on this machine (a socket, a loopback address, localhost
 * or this machine's own name)? remote = local takes only those. */
int pb_run_host_is_local(const struct pb_run_host *h);
/* The template's argv for host i ({host} replaced; heap, NULL-ended,
 * free with pb_run_hosts_argv_free), or NULL when its pool work runs on
 * this machine (remote = local, or a sock: server). */
char **pb_run_hosts_remote(const struct pb_run_plan *p, size_t i);
void pb_run_hosts_argv_free(char **v);
/* Pool name, vdev files and dimensions of host i (0-based) of p: a plan
 * sharing p's sections, with pool "POOL-hN" and each file vdev
 * "PATH-hN". Free with pb_run_host_plan_free (p must outlive it). */
struct pb_run_plan *pb_run_host_plan(const struct pb_run_plan *p, size_t i);
void pb_run_host_plan_free(struct pb_run_plan *hp);
/* Which plan host a fio client/server result host names (the parser's
 * "hostname" or "hostname:port"): its index, or -1. */
long pb_run_hosts_match(const struct pb_run_plan *p, const char *host);

/* ==== repeats = auto, order = random (repeat.c) ==== */

/* The [plan] keys max_repeats, target_rse, order, seed (vals[i] NULL when
 * absent, lines[i] their lines), after repeats: fills p (repeats becomes
 * max_repeats under repeats = auto; without a seed, order = random draws
 * one). PB_OK or PB_EUSAGE with err naming path:line. */
int pb_run_plan_stats(struct pb_run_plan *p, const char *const vals[4],
                      const long lines[4], const char *path,
                      struct pb_err *err) PB_WUR;

/* The order the cells run in: order[0..ncells) gets cell indices; plan
 * order, or with order = random a shuffle from p->seed (cells of one
 * pool together, the pools shuffled too). */
void pb_run_order(const struct pb_run_plan *p, size_t *order);

/* Relative standard error (SE / |mean|) of v[0..n): NAN when n < 2, 0
 * when all are equal, INFINITY when the mean is 0 and they differ. */
double pb_run_rse(const double *v, size_t n);

/* Why the repeats of a cell stopped. */
struct pb_run_repstop {
    const char *why;    /* "target", "max"; NULL = go on */
    const char *metric; /* headline metric judged; NULL = none found */
    double rse;         /* its RSE over the repeats so far; NAN = none */
    long n;             /* repeats so far */
};

/* With repeats = auto: 1 when the `got` repeats in sets are enough (the
 * headline metric's RSE is at most target_rse after at least 3 repeats,
 * or max_repeats were run), st saying why; else 0. Always 0 without
 * repeats = auto (the loop runs `repeats` times). */
int pb_run_repeat_enough(const struct pb_run_plan *p,
                         struct pb_resultset *const *sets, long got,
                         struct pb_run_repstop *st);

/* The facts repeats_stop, repeats_done, repeats_metric, repeats_rse and
 * repeats_target_rse of a cell of repeats = auto, on set. */
void pb_run_repeat_facts(const struct pb_run_plan *p,
                         const struct pb_run_repstop *st,
                         struct pb_resultset *set);

/* A cell of the matrix: its index and the combination of each section. */
struct pb_run_cell {
    size_t index;
    size_t combo[PB_RUN_NSECT];
};

void pb_run_cell_at(const struct pb_run_plan *p, size_t i,
                    struct pb_run_cell *out);

/* Value of key in section s for combination `combo`, or NULL when the plan
 * does not set it. */
const char *pb_run_value(const struct pb_run_plan *p, enum pb_run_sect s,
                         size_t combo, const char *key);
/* Value of the a-th axis of section s for combination `combo`. */
const char *pb_run_axis_value(const struct pb_run_plan *p, enum pb_run_sect s,
                              size_t combo, size_t a);

/* Parse a layout value for a plan with ndata data vdevs. PB_OK, or
 * PB_EUSAGE with the message in err (no path or line: the caller adds). */
int pb_run_layout_parse(const char *s, size_t ndata, struct pb_run_layout *out,
                        struct pb_err *err) PB_WUR;

/* Config dimensions of a cell (raw values as written; ingest normalises
 * them): a heap array of heap strings, freed with pb_run_kv_free. */
void pb_run_cell_config(const struct pb_run_plan *p,
                        const struct pb_run_cell *c, struct pb_kv **kv,
                        size_t *n);
void pb_run_kv_free(struct pb_kv *kv, size_t n);

/* The config label of a cell: the varying values, or the plan name. */
void pb_run_cell_label(const struct pb_run_plan *p,
                       const struct pb_run_cell *c, struct pb_buf *b);

/* The fio test name ingest/fio/fio_json.c gives this cell's job, plus the
 * varying fio options that name leaves out (" buffer_compress_percentage=
 * 75"): pb_run_fio_extra() appends only those. */
void pb_run_fio_name(const struct pb_run_plan *p, size_t fio_combo,
                     struct pb_buf *b);
void pb_run_fio_extra(const struct pb_run_plan *p, size_t fio_combo,
                      struct pb_buf *b);
/* Add the test parameters of the cell's fio job to test t of set. */
void pb_run_fio_params(const struct pb_run_plan *p, size_t fio_combo,
                       struct pb_resultset *set, size_t t, int extra_only);

/* ==== fio options a plan may use (fio_opts.c) ==== */

enum { PB_RUN_FIO_OK = 0, PB_RUN_FIO_EXEC, PB_RUN_FIO_REFUSED };
/* PB_RUN_FIO_OK: on the allow-list; PB_RUN_FIO_EXEC: runs a command
 * (needs the run's --allow-exec); PB_RUN_FIO_REFUSED: anything else. */
int pb_run_fio_key_class(const char *key);
/* Does ioengine=value run programs or load code (exec, external:LIB, a
 * library path)? Those need --allow-exec. */
int pb_run_fio_engine_execs(const char *value);
/* May an allow-listed key take this value? PB_OK, or PB_EUSAGE with why in
 * err (no path or line):
 * the 'FILE' form of buffer_pattern/verify_pattern, an ioengine that is
 * not one of fio's file engines (exec-class engines pass: consent.c). */
int pb_run_fio_value_check(const char *key, const char *value,
                           struct pb_err *err) PB_WUR;

/* ==== consent (consent.c) ==== */

struct pb_run_exec;

/* The commands a consented plan runs, one "# ..." note each (the dry-run
 * listing, commands.log), and a warning line each on progress. */
void pb_run_consent_list(const struct pb_run_plan *p,
                         const struct pb_run_opts *o, struct pb_run_exec *x,
                         FILE *progress);

/* ==== commands (exec.c) ==== */

/* fio logs a plan asks for ([fio] log = ...; run/logs.c). */
enum {
    PB_RUN_LOG_BW = 1,
    PB_RUN_LOG_IOPS = 2,
    PB_RUN_LOG_LAT = 4,
    PB_RUN_LOG_HIST = 8
};
/* Parse "bw, iops, lat, hist" into *bits; 0, or -1 naming the bad word
 * in bad (n bytes). */
int pb_run_logs_parse(const char *v, unsigned *bits, char *bad, size_t n);

struct pb_run_argv {
    char **v; /* NULL-terminated once anything was added */
    size_t n, cap;
};
void pb_run_argv_add(struct pb_run_argv *a, const char *s);
void pb_run_argv_addf(struct pb_run_argv *a, const char *fmt, ...)
    PB_PRINTF(2, 3);
void pb_run_argv_release(struct pb_run_argv *a);

struct pb_run_exec {
    int dry_run;
    FILE *dry; /* the dry-run listing */
    FILE *log; /* DIR/commands.log; NULL before it is opened */
    /* A zfs/zpool command that does not finish is killed (its process
     * group) after query_timeout seconds (list, get, status, upgrade,
     * version, iostat) or admin_timeout (create, destroy, export, import,
     * ...); 0 = PB_RUN_QUERY_TIMEOUT / PB_RUN_ADMIN_TIMEOUT. */
    double query_timeout, admin_timeout;
    /* PB_RUN_WATCH commands: called about once a second while they run;
     * non-zero (with err filled) stops the command like an interrupt;
     * err's message becomes the result's `stopped`. */
    int (*watch)(void *ctx, struct pb_err *err);
    void *watch_ctx;
    pid_t child; /* the command being watched, while the watch runs */
    const char *host;   /* [hosts]: the server whose pool work this is
                           (logged after each command), or NULL */
    char *const *remote; /* ... its remote template's argv ({host}
                            replaced): each command runs as these words
                            plus its argv single-quoted for the remote
                            shell; NULL = on this machine */
};

#define PB_RUN_QUERY_TIMEOUT 30.0
#define PB_RUN_ADMIN_TIMEOUT 300.0

struct pb_run_res {
    int status;         /* exit status, 128+signal, or -1: could not run */
    struct pb_buf out;  /* stdout when captured */
    struct pb_buf err;  /* stderr, always captured */
    int timed_out;      /* killed after the command timeout */
    double timeout;     /* ... of this many seconds */
    char stopped[256];  /* why the watch stopped it, or "" */
    int stuck;          /* it did not exit 15 s after SIGKILL (blocked in
                           the kernel, e.g. on a suspended pool): left
                           behind, not reaped */
};
void pb_run_res_release(struct pb_run_res *r);
/* First non-empty line of the command's stderr (or a description of the
 * status), for reasons and messages; written into buf. */
const char *pb_run_res_why(const struct pb_run_res *r, char *buf, size_t n);

#define PB_RUN_CAPTURE 1u /* keep stdout in res->out */
#define PB_RUN_STOPPABLE 2u /* send it SIGINT when the run is interrupted */
#define PB_RUN_WATCH 4u     /* ask x->watch while it runs (with STOPPABLE) */

/* The timeout pb_run_cmd gives argv under x (seconds). */
double pb_run_cmd_timeout(const struct pb_run_exec *x,
                          const char *const *argv);

/* Log and run argv (posix_spawnp, own process group, stdin /dev/null).
 * In a dry run only print it. Returns res->status (0 = success). */
int pb_run_cmd(struct pb_run_exec *x, const char *const *argv,
               unsigned flags, struct pb_run_res *res);
/* A "# ..." line in the listing and the log (control characters of the
 * text as \xHH). */
void pb_run_note(struct pb_run_exec *x, const char *fmt, ...) PB_PRINTF(2, 3);
/* One line on fp (progress), control characters of the text as \xHH; fp
 * NULL writes nothing. */
void pb_run_say(FILE *fp, const char *fmt, ...) PB_PRINTF(2, 3);

/* SIGINT/SIGTERM/SIGHUP set a flag instead of killing the process. */
void pb_run_signals_install(void);
void pb_run_signals_restore(void);
/* The signal that asked the run to stop, or 0. */
int pb_run_stopped(void);

/* ==== pools (zfs.c: lifecycle; zfs_host.c: which ZFS, what cannot run,
 * vdev checks, host facts) ==== */

enum pb_run_impl pb_run_detect_impl(void);
const char *pb_run_impl_name(enum pb_run_impl impl);

/* Free the paths of a vdev list (plan.c); the list itself is the caller's. */
void pb_run_vdevs_release(struct pb_run_vdevs *v);

struct pb_run_zfs {
    struct pb_run_exec *x;
    const struct pb_run_plan *plan;
    enum pb_run_impl impl;
    const char *owner; /* run id */
    const char *mnt;   /* pool root mountpoint (absolute) */
    const char *dir;   /* the run's output folder (-o DIR) */
    int linked;        /* DIR/import holds links to the pool's loop devices */
    int created;       /* the pool exists and this run created it */
    int exported;      /* ... and is currently exported */
    int ds_created;    /* the cell's dataset or zvol exists */
    int suspended;     /* ZFS said the pool's I/O is suspended */
    int gone;          /* ZFS stopped answering (`zpool list` fails) */
    char gone_why[256]; /* ... and what `zpool list` said */
    int loop_cache;    /* file cache vdevs go through loop devices (this
                          ZFS refuses files there) */
    int no_sync;       /* this ZFS has no `sync` property (zfs-fuse): a
                          dataset's sync is left out of `zfs create` and
                          sync=always comes from fio sync=1 */
    FILE *manifest;    /* DIR/manifest.tsv; NULL in a dry run */
    struct pb_run_vdev **files; /* sparse files this run created */
    size_t nfiles, capfiles;
};

/* Name of the cell's dataset or zvol ("POOL/pb" / "POOL/pbvol"), and the
 * device path of the zvol. Heap strings. */
char *pb_run_ds_name(const struct pb_run_plan *p);
char *pb_run_zvol_dev(const struct pb_run_plan *p);

/* Does cell c's dataset ask for sync=always on a ZFS without the `sync`
 * property (no_sync: zfs-fuse)? Then fio's sync=1 (O_SYNC: every write
 * through the ZIL, as sync=always makes it) stands in for it, unless the
 * plan's [fio] sets sync itself. 1 yes, 0 no. */
int pb_run_sync_emulated(const struct pb_run_plan *p,
                         const struct pb_run_cell *c, int no_sync);

/* Why this cell cannot run on impl, known before running anything
 * (compression=lz4 on zfs-fuse, ...), or NULL: what the preflight
 * (preflight.c) falls back on when the ZFS's tables cannot be read. */
const char *pb_run_static_skip(const struct pb_run_plan *p,
                               const struct pb_run_cell *c,
                               enum pb_run_impl impl, char *buf, size_t n);

/* Refuse vdevs that must not be touched: files that already exist, missing
 * folders, devices without --yes, mounted or swap devices. */
int pb_run_check_vdevs(const struct pb_run_plan *p, int yes,
                       struct pb_err *err) PB_WUR;

/* run/cellkey.c: the hash of cell i's full parameters (16 hex digits),
 * stored as the fact run_cell_key of each of its sources. */
void pb_run_cell_key(const struct pb_run_plan *p, size_t i, char out[17]);

/* run/safety.c */
/* Is the plan text UTF-8 without control characters (tab, and CR before
 * LF, aside)? PB_OK, or PB_EUSAGE at the line and column of the first
 * byte that is not (an ESC or CR could hide what the plan runs). */
int pb_run_plan_text_check(const char *path, const char *text,
                           struct pb_err *err) PB_WUR;
/* The canonical form of an absolute path: realpath of its folder (when it
 * exists; else '//', '/./' and '..' taken out) plus its base name. */
void pb_run_canon_path(const char *in, char *out, size_t n);
/* The system folder (/etc, /usr, /lib*, /var but /var/tmp, '/' itself
 * for a file directly in it, ...) absolute path is in, written into buf
 * (n bytes), or NULL when it is in none. */
const char *pb_run_system_folder(const char *path, char *buf, size_t n);
/* May a vdev file be at written (the plan's path; canon: its canonical
 * form or NULL)? PB_OK, or PB_EUSAGE with why in err (no path or line): it
 * is in a system folder, as written or really. */
int pb_run_vdev_place(const char *written, const char *canon,
                      struct pb_err *err) PB_WUR;
/* Refuse vdev files whose sizes, summed per file system, pass its free
 * space (path:line of the first vdev there, with both figures). */
int pb_run_check_space(const struct pb_run_plan *p, struct pb_err *err) PB_WUR;
/* Create a vdev file of v->size bytes: a new file only (O_CREAT|O_EXCL|
 * O_NOFOLLOW, never an existing one truncated), its identity kept in v.
 * Listed as the equivalent 'truncate -s SIZE PATH'. PB_OK, or PB_ERUN
 * with err filled. */
int pb_run_vdev_file_create(struct pb_run_exec *x, struct pb_run_vdev *v,
                            const char *size_txt, struct pb_err *err);
/* 1 when v->path is still the regular file this run created (same device
 * and inode): only then may it be truncated or removed. */
int pb_run_vdev_file_ours(const struct pb_run_vdev *v);
/* The run's folder (and raw/ in it): made 0755 when missing (create), and
 * then a real folder (not a symlink) owned by this user that no one else
 * can write in; else PB_EUSAGE naming what is wrong. */
int pb_run_dir_ours(const char *dir, int create, struct pb_err *err) PB_WUR;
/* Files in the run's folder: never through a symlink (O_NOFOLLOW). */
int pb_run_open_out(const char *path, int flags);
FILE *pb_run_fopen_out(const char *path, int append);
/* An output another program writes (fio --output): whatever is at path
 * (a planted link too) removed, and a new empty file made (O_EXCL). */
int pb_run_out_fresh(const char *path);
/* Is the block device real (resolved path) in use through something the
 * mount and swap tables do not name: a holder (dm, LVM, md) of it or of a
 * partition, a mount of any of them (by device number), or a signature
 * blkid -p finds? 1 with err ("it is held by /dev/dm-0 ..."), else 0. */
int pb_run_device_users(const char *real, struct pb_err *err);
/* The sysfs part of that for the block device maj:min, read under sys
 * (normally "/sys"; tests pass a recorded tree): a holder of it or of a
 * partition (sys/dev/block/MAJ:MIN, then its holders/ and its
 * partitions'), or a mount of any of them in the mountinfo file. 1 with
 * err, else 0 (also when sys knows no such device). */
int pb_run_device_held(const char *sys, unsigned maj, unsigned min,
                       const char *mountinfo, struct pb_err *err);
/* Is fio still doing I/O (run/stall.c)? Called by the run's watch about
 * once a second with the watched command's pid: 2 when a vdev file's file
 * system is full and fio has done no I/O for 10 s (the pool suspends), 1
 * when fio has done no I/O for limit seconds (limit 0: never), else 0;
 * err filled when non-zero. */
struct pb_run_stall {
    pid_t pid;
    unsigned long long io;
    double since;
};
int pb_run_stall_check(struct pb_run_stall *s, pid_t pid,
                       const struct pb_run_plan *p, double limit,
                       struct pb_err *err);

/* What to do about a suspended pool, for the ZFS in use (zfs-fuse can
 * neither clear nor destroy one); mnt is the pool's DIR/mnt. */
void pb_run_suspended_advice(enum pb_run_impl impl, const char *pool,
                             const char *run_id, const char *mnt, char *buf,
                             size_t n);

/* Sparse files, then `zpool create` for the pool combination. Returns
 * PB_OK, or an error with the reason in err (the files are removed
 * again). */
int pb_run_pool_create(struct pb_run_zfs *z, size_t pool_combo,
                       struct pb_err *err);
/* Read poolbench:owner back: PB_OK when it is this run's, else PB_ERUN
 * with err. */
int pb_run_owner_check(struct pb_run_zfs *z, struct pb_err *err);
/* Export and import the pool (drops the ARC). PB_OK or an error in err. */
int pb_run_pool_cycle(struct pb_run_zfs *z, struct pb_err *err);
/* Create the cell's dataset or zvol with its properties. PB_OK or an
 * error in err. */
int pb_run_ds_create(struct pb_run_zfs *z, const struct pb_run_cell *c,
                     struct pb_err *err);
int pb_run_ds_destroy(struct pb_run_zfs *z);
/* Destroy the pool (when created by this run) and remove the sparse
 * files. PB_OK, or PB_ERUN when something could not be removed (err says
 * what, except for a pool that could not be imported: the log does). */
int pb_run_pool_destroy(struct pb_run_zfs *z, struct pb_err *err);
/* Does ZFS still answer? Runs `zpool list -H -o name` (unless z->gone is
 * already set, or in a dry run). 1 yes; 0 no, with z->gone and
 * z->gone_why set. Failed zfs/zpool commands ask this by themselves. */
int pb_run_zfs_answers(struct pb_run_zfs *z);
/* Can zvols be used? Creates and destroys a tiny one. PB_OK yes, else
 * an error saying why in err. */
int pb_run_zvol_probe(struct pb_run_zfs *z, struct pb_err *err);
/* Host facts (CPU, memory, kernel, ZFS implementation and version) added
 * to set; with PB_RUN_IMPL_AUTO (the pools are made on other machines)
 * no ZFS facts. */
void pb_run_host_facts(struct pb_run_exec *x, enum pb_run_impl impl,
                       struct pb_resultset *set);

/* ==== loop devices (loop.c) ==== */

/* `losetup --find --show` over v's file: v->dev set and a "loop RUNID DEV
 * PATH" record appended. PB_OK, or PB_ERUN with err. */
int pb_run_loop_attach(struct pb_run_exec *x, FILE *manifest,
                       const char *run_id, struct pb_run_vdev *v,
                       struct pb_err *err);
/* `losetup -d` v->dev (when attached), "detached RUNID DEV" recorded,
 * v->dev freed. 0, or -1 when losetup failed. */
int pb_run_loop_detach(struct pb_run_exec *x, FILE *manifest,
                       const char *run_id, struct pb_run_vdev *v);
/* --cleanup: detach the loop devices run_id's records in the manifest at
 * manifest_path leave attached, while each still shows the run's file;
 * what was done goes to out. 0, or -1 when one could not be detached. */
int pb_run_loop_cleanup(struct pb_run_exec *x, FILE *manifest,
                        const char *manifest_path, const char *run_id,
                        FILE *out);

/* ==== what a run created (manifest.c; --cleanup: cleanup.c) ==== */

/* DIR/manifest.tsv, appended (and synced) by the run as it goes, one
 * tab-separated record a line, so that `poolbench run --cleanup` can
 * remove what a run left when it could not (ZFS stopped answering):
 *   run  RUNID POOL                 the run started
 *   pool RUNID POOL                 before `zpool create`
 *   destroyed RUNID POOL            after `zpool destroy`
 *   file RUNID DEV INO SIZE BTIME PATH  after `truncate` made the file
 *   gone RUNID PATH                 after it was removed
 *   loop RUNID DEV PATH             after losetup attached DEV to PATH
 *   detached RUNID DEV              after `losetup -d DEV`
 * The file's identity (device, inode, size, birth time or "-") is what
 * allows removing it later: a file put at the same path since then is
 * left alone. */
#define PB_RUN_MANIFEST "manifest.tsv"

/* Open dir's manifest for appending and lock it (a run holds the lock
 * while it goes: no second run in the same folder, no cleanup of a live
 * run). PB_ERUN when locked, PB_EIO when it cannot be opened. */
int pb_run_manifest_open(const char *dir, FILE **out, struct pb_err *err)
    PB_WUR;
/* Append a run / pool / destroyed / gone record (no-op when fp is NULL). */
void pb_run_manifest_add(FILE *fp, const char *kind, const char *run_id,
                         const char *what);
/* Append a file record with the identity lstat() gives path now. */
void pb_run_manifest_file(FILE *fp, const char *run_id, const char *path);
/* Is path a sparse file left by a run recorded in dir's manifest (same
 * identity, not removed since)? 1 with that run's id in run_id, else 0. */
int pb_run_manifest_left(const char *dir, const char *path, char *run_id,
                         size_t n);

/* ==== telemetry (telemetry.c) ==== */

/* Once per run: module parameters and arcstats as facts (or "absent"),
 * and the cache a working set is measured against. */
struct pb_run_telrun {
    enum pb_run_impl impl;
    int have_arc;         /* /proc/spl/kstat/zfs/arcstats is readable */
    double cache;         /* bytes: ARC c_max, zfs_arc_max or RAM; 0 */
    char cache_what[200]; /* "ARC c_max 30.2 GiB", "RAM 23 GiB (...)" */
};
void pb_run_tel_run(struct pb_run_telrun *tr, struct pb_run_exec *x,
                    enum pb_run_impl impl, struct pb_resultset *facts);

/* One cell's fio run: zpool iostat in the background, arcstats around. */
struct pb_run_tel {
    pid_t pid;           /* zpool iostat, or -1 */
    double t0;
    char path[4096];     /* its output: DIR/raw/cNNN[-rK].iostat.txt */
    struct pb_kstat arc0, arc1;
    int have_arc, have_arc1;
    int have_pool;       /* figures of the pool row were read */
    double pool_rbw, pool_wbw;
    int have_ratio;
    double arc_ratio;    /* demand data hit ratio, % */
};
/* Start `zpool iostat -v POOL 1 > iostat_path` (a "#" note in the dry
 * run and the log) and read arcstats. -1 when it could not start. */
int pb_run_tel_start(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                     struct pb_run_exec *x, const char *pool,
                     const char *iostat_path);
/* Read arcstats again and stop zpool iostat (SIGTERM, waited for). */
void pb_run_tel_stop(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                     struct pb_run_exec *x);
/* Add to set (the cell's fio set): metrics pool_read_ops, pool_write_ops,
 * pool_read_bw, pool_write_bw (means over the samples after the first),
 * arc_hit_ratio; facts zpool_iostat.* (per vdev, the series),
 * arc.delta.*, flag.served_from_arc (reads is non-zero for a cell that
 * reads). */
void pb_run_tel_store(struct pb_run_tel *t, const struct pb_run_telrun *tr,
                      int reads, struct pb_resultset *set);
/* Kill zpool iostat if still running; free the arcstats. */
void pb_run_tel_release(struct pb_run_tel *t);
/* 1 when the demand data reads between before and after were at least 90%
 * ARC hits (and 100 or more) in a cell that reads, with the reason in buf;
 * *ratio is the hit ratio in % (NAN without demand data reads). */
int pb_run_arc_verdict(const struct pb_kstat *before,
                       const struct pb_kstat *after, int reads, char *buf,
                       size_t n, double *ratio);
/* The ashift `zdb -C POOL` shows for the top-level vdevs ("12", or "9,12"
 * when they differ), written into out; 0, or -1 when unknown (and in a dry
 * run). */
int pb_run_tel_ashift(struct pb_run_exec *x, const char *pool, char *out,
                      size_t n);
/* Set dimension ashift of every config of set, origin "command: zdb -C". */
void pb_run_tel_set_ashift(struct pb_resultset *set, const char *ashift,
                           const char *pool);
/* "16 MiB", "1.50 GiB" into buf. */
const char *pb_run_fmt_bytes(double b, char *buf, size_t n);

/* ==== what a cell records about itself (cellinfo.c) ==== */

/* Facts run.cell ("3/12"), run.fio_command (quoted), run.zfs_properties,
 * run.pool_options and run.raw_files (raw_files may be NULL). */
/* fio options writing the plan's logs under prefix (DIR/raw/c001), in
 * the folder of the cell's fio JSON so that ingest links them to it. */
void pb_run_log_args(const struct pb_run_plan *p, const char *prefix,
                     struct pb_run_argv *a);
/* Ingest the non-empty logs fio wrote under prefix with the options of
 * the cell's fio JSON; each gets the test of json (as the run patched
 * it). Appends the sets to *sets (caller frees each and the array);
 * returns how many; a log that cannot be read is a warning in warn (the
 * last such, when several). */
size_t pb_run_logs_ingest(const char *prefix, const struct pb_ingest_opts *io,
                          const struct pb_resultset *json,
                          struct pb_resultset ***sets, size_t *n, size_t *cap,
                          struct pb_err *warn);

void pb_run_cell_facts(const struct pb_run_plan *p, const struct pb_run_cell *c,
                       const char *fio_command, const char *raw_files,
                       struct pb_resultset *set);
/* Copy the plan file to DIR/plan.ini (the report links to it); fact
 * run_plan_copy. */
void pb_run_keep_plan(const struct pb_run_plan *p, const char *dir,
                      struct pb_resultset *facts);
/* Append " after TEST" to the names of the tests of a props set. */
void pb_run_props_retest(struct pb_resultset *props, const char *test);
/* `sync`, then `zpool sync POOL` (OpenZFS) or export/import (zfs-fuse, or
 * when zpool sync fails). PB_OK, or an error in err (as
 * pb_run_pool_cycle). */
int pb_run_settle(struct pb_run_zfs *z, struct pb_err *err);

struct pb_run_dsspace {
    int valid;
    double used, referenced, ratio;
};
/* `zfs get -Hp -o property,value used,referenced,compressratio DS`. */
void pb_run_layout_space(struct pb_run_exec *x, const char *ds,
                         struct pb_run_dsspace *out);
/* 1 when ratio is more than 10% off what pct implies (100/(100-pct)),
 * with the comparison written into buf either way. */
int pb_run_ratio_check(double pct, double ratio, char *buf, size_t n);
/* Facts on the props set: after_layout.*, and flag.compression_mismatch
 * or compression_check when the plan gives buffer_compress_percentage. */
void pb_run_compression_check(const struct pb_run_plan *p, size_t fio_combo,
                              const struct pb_run_dsspace *layout,
                              struct pb_resultset *props);
/* size x numjobs of the fio combination in bytes, or -1 when unknown. */
double pb_run_working_set(const struct pb_run_plan *p, size_t fio_combo);
/* Facts working_set_bytes and flag.fits_in_cache (or cache_check). */
void pb_run_cache_check(const struct pb_run_plan *p, size_t fio_combo,
                        const struct pb_run_telrun *tr,
                        struct pb_resultset *set);
/* Does the cell's workload read? */
int pb_run_cell_reads(const struct pb_run_plan *p, size_t fio_combo);
/* "read 12.3k IOPS 48.1 MiB/s; pool read ..." appended to b. */
void pb_run_headline(const struct pb_resultset *set, const struct pb_run_tel *t,
                     struct pb_buf *b);
/* Estimated seconds of a run of p on impl (cells it cannot run left
 * out); *unknown counts cells without a runtime (overhead only). */
double pb_run_estimate(const struct pb_run_plan *p, enum pb_run_impl impl,
                       int *unknown);

#endif
