/* Writing output files safely: each is written beside its name under a
 * name no one can plant (mkstemp) and renamed over it when complete, so
 * nothing is ever written through a link, a failed write leaves the old
 * file, and the database in use (and its journal files) is never
 * replaced. */
#define _GNU_SOURCE
#include "common/pb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== the files never replaced ==== */

void pb_keep_init(struct pb_keep *k)
{
    memset(k, 0, sizeof(*k));
}

void pb_keep_add_db(struct pb_keep *k, const char *db)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    if (!k || !db)
        return;
    for (size_t i = 0; i < sizeof(sfx) / sizeof(*sfx); i++) {
        char *p = pb_xasprintf("%s%s", db, sfx[i]);
        struct stat st;
        if (k->n < PB_KEEP_MAX && stat(p, &st) == 0) {
            k->id[k->n].dev = st.st_dev;
            k->id[k->n].ino = st.st_ino;
            k->id[k->n].db = db;
            k->id[k->n].sfx = sfx[i];
            k->n++;
        }
        free(p);
    }
}

int pb_keep_check(const struct pb_keep *k, const char *path,
                  struct pb_err *err)
{
    struct stat st;
    if (!k || !path || stat(path, &st) != 0)
        return PB_OK; /* a new file cannot be the database */
    for (size_t i = 0; i < k->n; i++) {
        if (k->id[i].dev != st.st_dev || k->id[i].ino != st.st_ino)
            continue;
        const char *sfx = k->id[i].sfx;
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "refusing to write '%s': it is %s%sthe database "
                          "'%s'",
                          path, sfx, *sfx ? " file of " : "", k->id[i].db);
    }
    return PB_OK;
}

/* ==== creating and replacing ==== */

int pb_create_new(const char *path, mode_t mode)
{
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                mode);
}

int pb_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : ENOSPC;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* PB_OK when path is missing or a regular file (*mode: its mode, else
 * 0644); else PB_EIO naming what it is. */
static int replaceable(const char *path, mode_t *mode, struct pb_err *err)
{
    struct stat st;
    *mode = 0644;
    if (lstat(path, &st) != 0)
        return PB_OK;
    if (S_ISLNK(st.st_mode))
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "is a symbolic link: refusing to replace it");
    if (!S_ISREG(st.st_mode))
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "not a regular file (%s): refusing to replace it",
                          pb_file_kind(st.st_mode));
    *mode = st.st_mode & 0777;
    return PB_OK;
}

int pb_replace(const char *from, const char *to, const struct pb_keep *keep,
               int only_regular, struct pb_err *err)
{
    mode_t mode;
    int rc = pb_keep_check(keep, to, err);
    if (!rc && only_regular)
        rc = replaceable(to, &mode, err);
    if (rc)
        return rc;
    /* rename() replaces the name itself: a link put there after the
     * check is replaced, never written through */
    if (rename(from, to) != 0)
        return pb_err_set(err, PB_EIO, to, 0, 0, "cannot write: %s",
                          strerror(errno));
    return PB_OK;
}

/* ==== one output file ==== */

struct pb_wfile {
    char *path;
    char *tmp; /* PATH.XXXXXX */
    const struct pb_keep *keep;
    int fd;
    FILE *fp;
    int cleanup; /* pb_cleanup_add handle */
};

int pb_wfile_open(const char *path, const struct pb_keep *keep,
                  struct pb_wfile **out, struct pb_err *err)
{
    *out = NULL;
    mode_t mode;
    int rc = pb_keep_check(keep, path, err);
    if (!rc)
        rc = replaceable(path, &mode, err);
    if (rc)
        return rc;
    struct pb_wfile *f = pb_xcalloc(1, sizeof(*f));
    f->tmp = pb_xasprintf("%s.XXXXXX", path);
    f->fd = mkostemp(f->tmp, O_CLOEXEC);
    if (f->fd < 0) {
        rc = pb_err_set(err, PB_EIO, path, 0, 0, "cannot write: %s",
                        strerror(errno));
        free(f->tmp);
        free(f);
        return rc;
    }
    f->cleanup = pb_cleanup_add(f->tmp);
    if (fchmod(f->fd, mode) != 0) {
        rc = pb_err_set(err, PB_EIO, path, 0, 0, "cannot write: %s",
                        strerror(errno));
        pb_wfile_abort(f);
        return rc;
    }
    f->path = pb_xstrdup(path);
    f->keep = keep;
    *out = f;
    return PB_OK;
}

int pb_wfile_fd(const struct pb_wfile *f)
{
    return f->fd;
}

FILE *pb_wfile_stream(struct pb_wfile *f)
{
    if (!f->fp && !(f->fp = fdopen(f->fd, "w")))
        abort(); /* only out of memory: as pb_xmalloc */
    return f->fp;
}

/* Close the descriptor (through its stream when there is one); 0 or
 * the errno of a failed write or close. */
static int close_out(struct pb_wfile *f)
{
    int e = 0;
    if (f->fp) {
        errno = 0;
        if (fflush(f->fp) != 0 || ferror(f->fp))
            e = errno ? errno : EIO;
        if (fclose(f->fp) != 0 && !e)
            e = errno;
    } else if (f->fd >= 0 && close(f->fd) != 0) {
        e = errno;
    }
    f->fp = NULL;
    f->fd = -1;
    return e;
}

static void wfile_free(struct pb_wfile *f)
{
    pb_cleanup_forget(f->cleanup);
    free(f->tmp);
    free(f->path);
    free(f);
}

int pb_wfile_commit(struct pb_wfile *f, struct pb_err *err)
{
    int e = close_out(f);
    int rc = e ? pb_err_set(err, PB_EIO, f->path, 0, 0, "cannot write: %s",
                            strerror(e))
               : pb_replace(f->tmp, f->path, f->keep, 1, err);
    if (rc)
        unlink(f->tmp);
    wfile_free(f);
    return rc;
}

void pb_wfile_abort(struct pb_wfile *f)
{
    if (!f)
        return;
    (void)close_out(f);
    unlink(f->tmp);
    wfile_free(f);
}
