/* Private to run/: the run's manifest (DIR/manifest.tsv) as read back,
 * shared by manifest.c (writing and reading it) and cleanup.c (`run
 * --cleanup`). */
#ifndef PB_RUN_MANIFEST_INT_H
#define PB_RUN_MANIFEST_INT_H

#include <limits.h>
#include <stdio.h>

#include "common/pb.h"

/* A file's identity: device, inode and size, plus its birth time where
 * the file system keeps one (ext4 hands a freed inode number to the next
 * new file at once; writes do not change the birth time). */
struct ident {
    unsigned long long dev, ino;
    long long size;
    char btime[32]; /* "SEC.NSEC", or "-" */
    int regular, uid;
};

struct mrun {
    char *id, *pool;
    int pool_live; /* a "pool" record with no "destroyed" after it */
};

struct mfile {
    size_t run;
    char *path;
    struct ident id;
    int live; /* made and not removed since */
};

struct manifest {
    char path[PATH_MAX];
    struct mrun *runs;
    size_t nruns, capruns;
    struct mfile *files;
    size_t nfiles, capfiles;
};

/* The identity of the file at path; -1 when it cannot be read. */
int mf_ident_of(const char *path, struct ident *id);
/* Index of run id in m, or SIZE_MAX. */
size_t mf_find_run(const struct manifest *m, const char *id);
/* Load dir's manifest (root's own, writable by nobody else: see
 * manifest.c); warnings about odd records go to warn. */
int mf_load(const char *dir, struct manifest *m, FILE *warn,
            struct pb_err *err);
void mf_release(struct manifest *m);
/* Why the file now at f's path is not the one the run made, or NULL. */
const char *mf_not_same(const struct mfile *f, const struct ident *now);

#endif
