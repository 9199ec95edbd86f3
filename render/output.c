/* The report's folder, written safely as root: every file of a new report
 * is written into a private staging folder, and only when all are written
 * do they replace the old report's files, one rename each (index.html
 * last). Files of the last report that the new one does not write are
 * removed by the folder's manifest, never by a name pattern; nothing is
 * written through a link planted in the folder. */
#define _GNU_SOURCE
#include "render/rp_files.h"
#include "render/rp_csv.h"
#include "common/pb_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST ".poolbench-report"
#define MANIFEST_HEAD "# poolbench report manifest: the files of the last " \
                      "report written here, removed when a report replaces it\n"

struct rp_dir {
    char *dir;    /* the report folder as given */
    struct pb_keep keep; /* the database in use: never replaced */
    char *stage;  /* DIR/.poolbench-new-XXXXXX, mode 0700, ours alone */
    char **files; /* relative names written into the stage */
    size_t nfiles, cap;
};

/* A folder root may write into: a real directory (not a link), owned by
 * the user running poolbench, writable by no one else. Anything else could
 * be changed under us by another user between check and use. */
static int check_folder(const char *path, struct pb_err *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot stat: %s",
                          strerror(errno));
    if (S_ISLNK(st.st_mode))
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "is a symbolic link: poolbench writes reports only "
                          "into a real folder (give the link's target)");
    if (!S_ISDIR(st.st_mode))
        return pb_err_set(err, PB_EIO, path, 0, 0, "not a directory");
    if (st.st_uid != geteuid())
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "owned by another user (uid %ld): refusing to write "
                          "a report there", (long)st.st_uid);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "writable by other users: refusing to write a "
                          "report there (chmod go-w it, or choose another "
                          "folder)");
    return PB_OK;
}

static int make_dirs(const char *path, struct pb_err *err)
{
    /* parents first, as mkdir -p */
    char *p = pb_xstrdup(path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    free(p);
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return pb_err_set(err, PB_EIO, path, 0, 0,
                          "cannot create directory: %s", strerror(errno));
    return PB_OK;
}

/* A manifest line is a name this module writes: "index.html",
 * "tests-001.html", "charts/001-x.svg". Anything else in a manifest (a
 * "../" or an absolute path someone wrote into it) is ignored. */
static int safe_rel(const char *s)
{
    if (!*s || *s == '/' || *s == '.')
        return 0;
    if (!strncmp(s, "charts/", 7))
        s += 7;
    if (!*s || *s == '.')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
              *s == '.'))
            return 0;
    return 1;
}

/* The last report's files, or NULL (and *n = 0) without a manifest. */
static char **read_manifest(const char *dir, size_t *n)
{
    *n = 0;
    char *path = pb_xasprintf("%s/%s", dir, MANIFEST);
    int fd = pb_open_file(path, O_RDONLY | O_NOFOLLOW, 0, PB_OPEN_REG, NULL);
    free(path);
    if (fd < 0)
        return NULL;
    struct pb_buf b = PB_BUF_INIT;
    char chunk[4096];
    ssize_t r;
    while ((r = read(fd, chunk, sizeof(chunk))) > 0 && b.len < (1u << 24))
        pb_buf_add(&b, chunk, (size_t)r);
    close(fd);
    char **v = NULL;
    size_t cap = 0;
    char *s = b.s ? b.s : (char *)"";
    for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !safe_rel(line))
            continue;
        PB_GROW(v, cap, *n + 1);
        v[(*n)++] = pb_xstrdup(line);
    }
    pb_buf_release(&b);
    return v ? v : pb_xcalloc(1, sizeof(char *));
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Is the folder empty apart from a manifest and stale staging folders? */
static int only_ours(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, MANIFEST) ||
            !strncmp(n, ".poolbench-new-", 15))
            continue;
        empty = 0;
    }
    closedir(d);
    return empty;
}

/* Remove a staging folder: only regular files in it and in its charts/. */
static void remove_tree(const char *dir)
{
    static const char *const sub[] = {"charts", ""};
    for (size_t k = 0; k < 2; k++) {
        char *p = *sub[k] ? pb_xasprintf("%s/%s", dir, sub[k])
                          : pb_xstrdup(dir);
        DIR *d = opendir(p);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' && (!e->d_name[1] ||
                                        !strcmp(e->d_name, "..")))
                continue;
            unlinkat(dirfd(d), e->d_name, 0);
        }
        if (d)
            closedir(d);
        rmdir(p);
        free(p);
    }
}

/* Staging folders of reports that were killed: .poolbench-new-PID-XXXXXX
 * of a process that no longer runs, ours, real folders. */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, ".poolbench-new-", 15))
            continue;
        char *end;
        long pid = strtol(e->d_name + 15, &end, 10);
        struct stat st;
        if (end == e->d_name + 15 || *end != '-' || pid <= 0 ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
            continue;
        char *p = pb_xasprintf("%s/%s", dir, e->d_name);
        remove_tree(p);
        free(p);
    }
    closedir(d);
}

int rp_dir_open(const char *dir, int force, const struct pb_keep *keep,
                struct rp_dir **out, struct pb_err *err)
{
    *out = NULL;
    struct stat st;
    int rc;
    if (lstat(dir, &st) != 0 && (rc = make_dirs(dir, err)))
        return rc;
    if ((rc = check_folder(dir, err)))
        return rc;
    size_t nold;
    char **old = read_manifest(dir, &nold);
    int have_manifest = old != NULL;
    free_list(old, nold);
    if (!have_manifest && !force && !only_ours(dir))
        return pb_err_set(err, PB_EUSAGE, dir, 0, 0,
                          "folder holds files of its own and no poolbench "
                          "report: give an empty or new folder, or --force "
                          "(files poolbench does not write are kept)");
    struct rp_dir *d = pb_xcalloc(1, sizeof(*d));
    d->dir = pb_xstrdup(dir);
    if (keep)
        d->keep = *keep;
    remove_stale(dir);
    d->stage = pb_xasprintf("%s/.poolbench-new-%ld-XXXXXX", dir,
                            (long)getpid());
    if (!mkdtemp(d->stage)) {
        rc = pb_err_set(err, PB_EIO, dir, 0, 0, "cannot create a staging "
                        "folder: %s", strerror(errno));
        free(d->stage);
        free(d->dir);
        free(d);
        return rc;
    }
    char *charts = pb_xasprintf("%s/charts", d->stage);
    if (mkdir(charts, 0700) != 0) {
        rc = pb_err_set(err, PB_EIO, charts, 0, 0,
                        "cannot create directory: %s", strerror(errno));
        free(charts);
        rp_dir_abort(d);
        return rc;
    }
    free(charts);
    *out = d;
    return PB_OK;
}

const char *rp_dir_path(const struct rp_dir *d)
{
    return d->dir;
}

const char *rp_dir_stage(const struct rp_dir *d)
{
    return d->stage;
}

void rp_dir_add(struct rp_dir *d, const char *rel)
{
    PB_GROW(d->files, d->cap, d->nfiles + 1);
    d->files[d->nfiles++] = pb_xstrdup(rel);
}

int rp_dir_write(struct rp_dir *d, const char *rel, const char *data,
                 size_t len, struct pb_err *err)
{
    char *path = pb_xasprintf("%s/%s", d->stage, rel);
    int fd = pb_create_new(path, 0644);
    int e = fd < 0 ? errno : pb_write_all(fd, data, len);
    if (fd >= 0 && close(fd) != 0 && !e)
        e = errno;
    int rc = PB_OK;
    if (e)
        rc = pb_err_set(err, PB_EIO, path, 0, 0, "cannot write: %s",
                        strerror(e));
    else
        rp_dir_add(d, rel);
    free(path);
    return rc;
}

/* ==== files written in pieces ==== */

struct rp_file {
    struct rp_dir *dir;
    char *rel, *path;
    int fd;
    int err; /* first errno; 0 = fine */
};

int rp_file_open(struct rp_dir *d, const char *rel, struct rp_file **out,
                 struct pb_err *err)
{
    char *path = pb_xasprintf("%s/%s", d->stage, rel);
    int fd = pb_create_new(path, 0644);
    if (fd < 0) {
        int rc = pb_err_set(err, PB_EIO, path, 0, 0, "cannot write: %s",
                            strerror(errno));
        free(path);
        *out = NULL;
        return rc;
    }
    struct rp_file *f = pb_xcalloc(1, sizeof(*f));
    f->dir = d;
    f->rel = pb_xstrdup(rel);
    f->path = path;
    f->fd = fd;
    *out = f;
    return PB_OK;
}

void rp_file_put(struct rp_file *f, const char *data, size_t len)
{
    if (!f->err)
        f->err = pb_write_all(f->fd, data, len);
}

/* The largest buffer rp_file_flush keeps. */
#define RP_FILE_KEEP ((size_t)2 << 20)

void rp_file_flush(struct rp_file *f, struct pb_buf *b, size_t over)
{
    if (b->len < over)
        return;
    rp_file_put(f, b->s, b->len);
    /* the buffer is kept for the next page: a bonnie++ page of 1,000
     * machines grows it to 2 MiB, and growing it again for each of 100
     * pages was page faults in the kernel. One grown past that by a
     * bigger table is not kept for the rest of the report (memory). */
    if (b->cap > RP_FILE_KEEP) {
        free(b->s);
        b->cap = 4096;
        b->s = pb_xmalloc(b->cap);
    }
    pb_buf_reset(b);
}

int rp_file_close(struct rp_file *f, struct pb_err *err)
{
    if (!f)
        return PB_OK;
    if (close(f->fd) != 0 && !f->err)
        f->err = errno;
    int rc = PB_OK;
    if (f->err)
        rc = pb_err_set(err, PB_EIO, f->path, 0, 0, "cannot write: %s",
                        strerror(f->err));
    else
        rp_dir_add(f->dir, f->rel);
    free(f->rel);
    free(f->path);
    free(f);
    return rc;
}

static int in_list(char **v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* PB_OK when no file the commit replaces or removes (the new files, the
 * last report's files it drops, the manifest) is the database in use or
 * one of its journal files: checked before anything changes. */
static int check_keep(const struct rp_dir *d, char **old, size_t nold,
                      struct pb_err *err)
{
    int rc = PB_OK;
    for (size_t i = 0; i < d->nfiles + nold + 1 && !rc; i++) {
        const char *rel = i < d->nfiles ? d->files[i]
                          : i < d->nfiles + nold ? old[i - d->nfiles]
                                                 : MANIFEST;
        char *to = pb_xasprintf("%s/%s", d->dir, rel);
        rc = pb_keep_check(&d->keep, to, err);
        free(to);
    }
    return rc;
}

int rp_dir_commit(struct rp_dir *d, struct pb_err *err)
{
    size_t nold;
    char **old = read_manifest(d->dir, &nold);
    int rc = check_keep(d, old, nold, err);
    free_list(old, nold);
    if (rc) {
        rp_dir_abort(d);
        return rc;
    }
    char *charts = pb_xasprintf("%s/charts", d->dir);
    struct stat st;
    /* charts/ must be our own folder: a link there is removed (the link,
     * not what it points at), another user's folder refused. */
    if (lstat(charts, &st) == 0 && S_ISLNK(st.st_mode))
        unlink(charts);
    if (mkdir(charts, 0755) != 0 && errno != EEXIST)
        rc = pb_err_set(err, PB_EIO, charts, 0, 0,
                        "cannot create directory: %s", strerror(errno));
    if (!rc)
        rc = check_folder(charts, err);
    free(charts);
    /* Everything but index.html first, so that the index never links to a
     * page that is not there yet. rename() replaces a planted link itself
     * and never writes through it. */
    qsort(d->files, d->nfiles, sizeof(char *), cmp_str);
    for (int pass = 0; pass < 2 && !rc; pass++)
        for (size_t i = 0; i < d->nfiles && !rc; i++) {
            int index = !strcmp(d->files[i], "index.html");
            if (index != pass)
                continue;
            char *from = pb_xasprintf("%s/%s", d->stage, d->files[i]);
            char *to = pb_xasprintf("%s/%s", d->dir, d->files[i]);
            rc = pb_replace(from, to, &d->keep, 0, err);
            free(from);
            free(to);
        }
    if (rc) {
        rp_dir_abort(d);
        return rc;
    }
    /* The last report's files that this one does not write. */
    old = read_manifest(d->dir, &nold);
    for (size_t i = 0; i < nold; i++) {
        if (in_list(d->files, d->nfiles, old[i]))
            continue;
        char *p = pb_xasprintf("%s/%s", d->dir, old[i]);
        struct pb_err kept = {0};
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
            pb_keep_check(&d->keep, p, &kept) == PB_OK)
            unlink(p);
        free(p);
    }
    free_list(old, nold);
    struct pb_buf m = PB_BUF_INIT;
    pb_buf_puts(&m, MANIFEST_HEAD);
    for (size_t i = 0; i < d->nfiles; i++) {
        pb_buf_puts(&m, d->files[i]);
        pb_buf_putc(&m, '\n');
    }
    rc = rp_dir_write(d, MANIFEST, m.s, m.len, err);
    pb_buf_release(&m);
    if (!rc) {
        char *from = pb_xasprintf("%s/%s", d->stage, MANIFEST);
        char *to = pb_xasprintf("%s/%s", d->dir, MANIFEST);
        rc = pb_replace(from, to, &d->keep, 0, err);
        free(from);
        free(to);
    }
    rp_dir_abort(d);
    return rc;
}

void rp_dir_abort(struct rp_dir *d)
{
    if (!d)
        return;
    remove_tree(d->stage);
    free_list(d->files, d->nfiles);
    free(d->stage);
    free(d->dir);
    free(d);
}
