/* common/pb_file.h - how poolbench opens the files it reads and writes
 * (file.c, wfile.c, cleanup.c). Every input, rules and config file and
 * every database SQLite opens goes through pb_open_file; every output
 * file of every command through pb_wfile (a file of its own) or, inside
 * a folder only poolbench can write, pb_create_new; the database in use
 * is never replaced (pb_keep). docs/threat-model.md names the rules.
 *
 * Writing one file:
 *   1. struct pb_keep k; pb_keep_init(&k); pb_keep_add_db(&k, dbpath);
 *   2. pb_wfile_open(path, &k, &f, &err), then write to pb_wfile_fd(f) or
 *      pb_wfile_stream(f);
 *   3. pb_wfile_commit(f, &err) (the file replaces path) or
 *      pb_wfile_abort(f) (path is left as it was).
 */
#ifndef PB_FILE_H
#define PB_FILE_H

#include "common/pb.h"

#include <stdio.h>
#include <sys/types.h>

/* ==== opening (file.c) ==== */

/* Kinds of file pb_open_file accepts (bits). */
#define PB_OPEN_REG 1 /* regular file */
#define PB_OPEN_DIR 2 /* directory */
#define PB_OPEN_CHR 4 /* character device */

/* What mode m is, said for a message: "a FIFO", "a directory", "a
 * character device", "a block device", "a socket", "a symbolic link";
 * NULL for a regular file. */
const char *pb_file_kind(mode_t m);

/* open(2) that cannot block or hang: O_NONBLOCK, O_NOCTTY and O_CLOEXEC
 * are added while opening (a FIFO opens at once, a terminal is never
 * taken), and anything whose kind is not in `allow` is refused, before
 * opening when stat() already shows it and by fstat() after (a file
 * swapped in between). O_NONBLOCK is cleared again unless flags asked
 * for it. Returns the descriptor, or -1 with errno (ENXIO for a kind
 * refused; *kind, when not NULL, then says which, else NULL). */
int pb_open_file(const char *path, int flags, int mode, unsigned allow,
                 const char **kind) PB_WUR;

/* Open an input poolbench reads (a result file, rules, a config file):
 * pb_open_file for reading, regular files only. Returns the descriptor
 * (caller closes), or -1 with err: "not a regular file (a FIFO)", "is a
 * directory" (PB_EINPUT) or "cannot open: ..." (PB_EIO). */
int pb_open_input(const char *path, struct pb_err *err) PB_WUR;

/* ==== the files never replaced (wfile.c) ==== */

#define PB_KEEP_MAX 16

/* Files (by device and inode) that no output may replace: the databases
 * in use and their -wal, -shm and -journal files. Zero it or
 * pb_keep_init it; it borrows the paths given. */
struct pb_keep {
    size_t n;
    struct {
        dev_t dev;
        ino_t ino;
        const char *db;  /* the database path given */
        const char *sfx; /* "", "-wal", "-shm" or "-journal" */
    } id[PB_KEEP_MAX];
};

void pb_keep_init(struct pb_keep *k);
/* Add db and those of its journal files that exist now (call it with the
 * database open, when its -wal and -shm are there). NULL is ignored. */
void pb_keep_add_db(struct pb_keep *k, const char *db);
/* PB_OK when path does not exist or is none of k's files (k may be NULL);
 * else PB_EUSAGE with "refusing to write 'PATH': it is the database 'DB'"
 * (or "it is -wal file of the database 'DB'"). */
int pb_keep_check(const struct pb_keep *k, const char *path,
                  struct pb_err *err) PB_WUR;

/* ==== writing (wfile.c) ==== */

/* Create path new, for writing: O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC
 * (never an existing file, never through a link). For files in a folder
 * only poolbench can write (the report's staging folder). Returns the
 * descriptor or -1 with errno. */
int pb_create_new(const char *path, mode_t mode) PB_WUR;

/* Write all of data to fd (again after EINTR and short writes). 0, or the
 * errno of the failure (ENOSPC when write wrote nothing). */
int pb_write_all(int fd, const void *data, size_t len) PB_WUR;

/* An output file written beside its final name and renamed over it when
 * complete: the bytes go to PATH.XXXXXX (mkstemp: O_EXCL, never a link;
 * removed on SIGINT, SIGTERM and SIGHUP), and pb_wfile_commit renames it
 * to path. path, when it exists, must be a regular file (a link, FIFO or
 * device is refused, not written through or replaced) and none of keep's
 * files; both are checked at open (before any work) and again at commit.
 * A new file gets mode 0644, a replaced one keeps its mode. Returns PB_OK
 * with *out, PB_EUSAGE (a file of keep) or PB_EIO, with err. */
struct pb_wfile;
int pb_wfile_open(const char *path, const struct pb_keep *keep,
                  struct pb_wfile **out, struct pb_err *err) PB_WUR;
/* The descriptor to write to (owned by f). */
int pb_wfile_fd(const struct pb_wfile *f);
/* A stdio stream on it, made on first call (owned by f). */
FILE *pb_wfile_stream(struct pb_wfile *f);
/* Flush and close, then rename over path. PB_OK, or PB_EIO / PB_EUSAGE
 * with err (then path is left as it was). Frees f. */
int pb_wfile_commit(struct pb_wfile *f, struct pb_err *err) PB_WUR;
/* Remove the temporary file; path is left as it was. Frees f; NULL is
 * fine. */
void pb_wfile_abort(struct pb_wfile *f);

/* Check that `to` may be replaced by a file poolbench wrote (lstat: none
 * of keep's files; when `only_regular`, nothing but a regular file), then
 * rename(from, to). PB_OK, or PB_EUSAGE / PB_EIO with err naming `to`. */
int pb_replace(const char *from, const char *to, const struct pb_keep *keep,
               int only_regular, struct pb_err *err) PB_WUR;

/* ==== removed if the process is stopped (cleanup.c) ==== */

/* Remember path (copied) to be removed if SIGINT, SIGTERM or SIGHUP ends
 * the process, as long as these signals would end it (their handler is
 * the default: a program with handlers of its own cleans up itself).
 * Returns a handle for pb_cleanup_forget (-1 when none is free: then the
 * path is not removed on a signal). Thread-safe. */
int pb_cleanup_add(const char *path);
/* Forget a path (it was removed or kept by the caller); -1 is ignored. */
void pb_cleanup_forget(int handle);

#endif
