/* Private to run/: what the ZFS and fio in use can do (caps.c, learnt from
 * their own help tables), the preflight that checks a plan against it
 * before anything is created (preflight.c), and the space estimate of a
 * cell. Other modules include run/run.h only. */
#ifndef PB_RUN_PREFLIGHT_INT_H
#define PB_RUN_PREFLIGHT_INT_H

#include "run/run_int.h"

/* ==== capability tables (caps.c) ==== */

/* One row of the table `zfs get` / `zpool get` print without arguments:
 * "compression  YES  YES  on | off | lzjb | gzip | gzip-[1-9] | zle". */
struct pb_run_prop {
    char *name;   /* "compression", "userquota@..." */
    char *values; /* the VALUES column as printed */
};

struct pb_run_caps {
    char name[128];            /* "zfs-fuse (pool version 23)" */
    struct pb_run_prop *ds;    /* dataset/zvol properties; NULL = unknown */
    size_t nds;
    struct pb_run_prop *pool;  /* pool properties; NULL = unknown */
    size_t npool;
    int pool_version;          /* 5000 = feature flags; 0 unknown */
    int file_cache;            /* files accepted as cache vdevs */
    int zvols;                 /* zvols with a /dev/zvol node */
    int alloc_classes;         /* special and dedup vdevs (feature
                                  allocation_classes) */
};

/* Parse the property table out of the usage text `zfs get` or `zpool get`
 * print without arguments (both forms: with and without INHERIT). Returns
 * the number of rows (0 when there is no table); *out is a heap array
 * freed with pb_run_props_free. */
size_t pb_run_props_parse(const char *text, struct pb_run_prop **out);
void pb_run_props_free(struct pb_run_prop *p, size_t n);

/* The pool version `zpool upgrade -v` states ("running ZFS pool version
 * 23"), 5000 for feature flags, 0 when it says neither. */
int pb_run_pool_version_parse(const char *text);

/* Does value fit the VALUES column spec ("on | off", "gzip-[1-9]",
 * "512 to 128k, power of 2", "<size> | none", "sha256[,verify]")? A
 * free-form "<...>" alternative takes anything. 1 yes, 0 no. */
int pb_run_value_fits(const char *spec, const char *value);

/* Check key=value against a table. NULL when fine, else why (written into
 * buf): "has no property 'sync'" or "does not take that value
 * (compression: on | off | ...)". */
const char *pb_run_prop_check(const struct pb_run_prop *t, size_t n,
                              const char *key, const char *value, char *buf,
                              size_t len);

void pb_run_caps_release(struct pb_run_caps *c);

/* Does the ZFS of c lack the dataset property key? 0 when it has it or
 * its table is unknown. */
int pb_run_caps_lacks(const struct pb_run_caps *c, const char *key);

/* A size to read, not to parse: "2.2G", "512M", "90.5M" (binary units),
 * written into buf. */
const char *pb_run_approx_size(double b, char *buf, size_t n);

/* `fio --cmdhelp=KEY` output: 0 when fio does not know the option ("No
 * such command"), else 1; the valid values it lists (heap strings, NULL
 * terminated, freed with pb_run_strv_free) into *vals, NULL when it lists
 * none. */
int pb_run_fio_help_parse(const char *text, char ***vals);
void pb_run_strv_free(char **v);

/* ==== space (preflight.c) ==== */

/* Bytes a pool combination can hold (usable data space after labels,
 * slop and parity/mirror copies counted in the per-record factor below),
 * the allocation factor of a record of `record` bytes at ashift a on that
 * layout (allocated raw bytes per data byte, parity and padding
 * included), and the data a cell writes. */
struct pb_run_space {
    double data;     /* fio size (or filesize x nrfiles when larger) x
                        numjobs, or the zvol size */
    double factor;   /* allocation per data byte */
    double need;     /* data x factor x copies + metadata margin */
    double capacity; /* raw bytes the pool's data vdevs offer */
    int ashift;      /* used (plan value, else 12) */
    double record;   /* recordsize / volblocksize used */
};
void pb_run_space_of(const struct pb_run_plan *p, const struct pb_run_cell *c,
                     struct pb_run_space *out);
double pb_run_alloc_factor(const struct pb_run_layout *l, int ashift,
                           double record);

/* ==== the preflight (preflight.c) ==== */

struct pb_run_pre {
    char **why[PB_RUN_NSECT]; /* per combination of each section: why it
                                 cannot run here, or NULL */
    size_t n[PB_RUN_NSECT];
};

/* Learn the capabilities of the ZFS and fio in use (read-only queries,
 * run even in a dry run; logged to x->log; through x->remote on a [hosts]
 * server), or read their answers from the files of caps_dir (see struct
 * pb_run_opts). Fills caps; never fails: what could not be learnt stays
 * unknown and is not checked. Returns impl, or with PB_RUN_IMPL_AUTO the
 * implementation its answers show (a pool version without feature flags:
 * zfs-fuse; else OpenZFS). */
enum pb_run_impl pb_run_caps_probe(struct pb_run_exec *x,
                                   enum pb_run_impl impl,
                                   const char *caps_dir,
                                   struct pb_run_caps *caps);

/* Check every value of the plan against caps (and fio options with
 * `fio --cmdhelp`, unless fio_check is 0) and every cell's space. With
 * on_unsupported = error the first problem is a PB_EUSAGE error at
 * plan:line; with skip the reasons are kept in pre. Space problems are
 * always errors. Release pre with pb_run_pre_release. */
int pb_run_preflight(const struct pb_run_plan *p,
                     const struct pb_run_caps *caps, struct pb_run_exec *x,
                     int fio_check, struct pb_run_pre *pre,
                     struct pb_err *err) PB_WUR;
/* Why cell c cannot run (NULL: it can); borrowed from pre. */
const char *pb_run_pre_why(const struct pb_run_pre *pre,
                           const struct pb_run_cell *c);
void pb_run_pre_release(struct pb_run_pre *pre);

/* ==== during the run (preflight.c) ==== */

/* Is the pool mounted at mnt nearly full (less than 1/20 of its space, or
 * 8 MiB, free)? 1 with err ("pool 'P' is nearly full (4.2M of 85M free):
 * ..."), else 0. The watch of fio: stopping it there keeps ZFS from
 * running out of space (zfs-fuse stops answering, OpenZFS suspends). */
int pb_run_pool_nearly_full(const char *mnt, const char *pool,
                            struct pb_err *err);

/* Facts on how the plan meets this ZFS, added to set: run_time_scale
 * (a scaled plan), zfs_sync (fio sync= where the ZFS has no `sync`). */
void pb_run_plan_facts(const struct pb_run_plan *p,
                       const struct pb_run_caps *caps,
                       struct pb_resultset *set);

#endif
