/* Opening the files poolbench reads: one open that cannot block on a FIFO
 * or a device and refuses what is not a regular file, and whole-file
 * reading with the input cap. */
#define _GNU_SOURCE
#include "common/pb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== opening ==== */

const char *pb_file_kind(mode_t m)
{
    if (S_ISREG(m))
        return NULL;
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISLNK(m))
        return "a symbolic link";
    return "an unknown kind of file";
}

static int allowed(mode_t m, unsigned allow)
{
    return (S_ISREG(m) && (allow & PB_OPEN_REG)) ||
           (S_ISDIR(m) && (allow & PB_OPEN_DIR)) ||
           (S_ISCHR(m) && (allow & PB_OPEN_CHR));
}

int pb_open_file(const char *path, int flags, int mode, unsigned allow,
                 const char **kind)
{
    struct stat st;
    if (kind)
        *kind = NULL;
    /* Not even opened when stat shows it: opening a device can do
     * something (a tape rewinds), and a FIFO's writer would be woken. */
    if (stat(path, &st) == 0 && !allowed(st.st_mode, allow)) {
        if (kind)
            *kind = pb_file_kind(st.st_mode);
        errno = ENXIO;
        return -1;
    }
    int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    /* what was opened, not what the name showed a moment ago */
    if (fstat(fd, &st) != 0 || !allowed(st.st_mode, allow)) {
        int e = errno;
        int bad_kind = !allowed(st.st_mode, allow);
        close(fd);
        if (bad_kind && kind)
            *kind = pb_file_kind(st.st_mode);
        errno = bad_kind ? ENXIO : e;
        return -1;
    }
    if (!(flags & O_NONBLOCK)) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    return fd;
}

int pb_open_input(const char *path, struct pb_err *err)
{
    const char *kind;
    int fd = pb_open_file(path, O_RDONLY, 0, PB_OPEN_REG, &kind);
    if (fd >= 0)
        return fd;
    if (kind && !strcmp(kind, "a directory"))
        pb_err_set(err, PB_EINPUT, path, 0, 0, "is a directory");
    else if (kind)
        pb_err_set(err, PB_EINPUT, path, 0, 0, "not a regular file (%s)%s",
                   kind, !strcmp(kind, "a FIFO")
                             ? ": give '-' to read standard input"
                             : "");
    else
        pb_err_set(err, PB_EIO, path, 0, 0, "cannot open: %s",
                   strerror(errno));
    return -1;
}

/* ==== reading ==== */

static int read_fd(int fd, const char *path, char **out, size_t *len,
                   struct pb_err *err)
{
    size_t cap = 65536, n = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > PB_MAX_INPUT)
            return pb_err_set(err, PB_EINPUT, path, 0, 0,
                              "file is %.0f MiB, larger than the %zu MiB "
                              "input limit",
                              (double)st.st_size / 1048576.0,
                              PB_MAX_INPUT / 1048576);
        cap = (size_t)st.st_size + 1;
    } else if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        return pb_err_set(err, PB_EINPUT, path, 0, 0, "is a directory");
    }
    char *buf = pb_xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > PB_MAX_INPUT) {
                free(buf);
                return pb_err_set(err, PB_EINPUT, path, 0, 0,
                                  "input larger than the %zu MiB limit",
                                  PB_MAX_INPUT / 1048576);
            }
            cap *= 2;
            buf = pb_xrealloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return pb_err_set(err, PB_EIO, path, 0, 0, "cannot read: %s",
                              strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > PB_MAX_INPUT) {
            free(buf);
            return pb_err_set(err, PB_EINPUT, path, 0, 0,
                              "input larger than the %zu MiB limit",
                              PB_MAX_INPUT / 1048576);
        }
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return PB_OK;
}

int pb_read_file(const char *path, char **out, size_t *len,
                 struct pb_err *err)
{
    *out = NULL;
    *len = 0;
    if (!strcmp(path, "-"))
        return read_fd(0, "-", out, len, err);
    int fd = pb_open_input(path, err);
    if (fd < 0)
        return err->code;
    int rc = read_fd(fd, path, out, len, err);
    close(fd);
    return rc;
}
