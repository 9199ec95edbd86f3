/* What a run created, kept in DIR/manifest.tsv as it goes: writing its
 * records (synced at once) and reading them back for `poolbench run
 * --cleanup` (run/cleanup.c). */
#define _GNU_SOURCE
#include "run/manifest_int.h"
#include "run/run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ==== writing the manifest ==== */

int pb_run_manifest_open(const char *dir, FILE **out, struct pb_err *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir, PB_RUN_MANIFEST);
    /* close-on-exec: a child (fio, zpool) must not keep the lock alive */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
                            O_CLOEXEC, 0644);
    if (fd < 0)
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot open: %s",
                          strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return pb_err_set(err, PB_ERUN, path, 0, 0,
                          "locked: another poolbench run or cleanup is "
                          "using this folder");
    }
    FILE *fp = fdopen(fd, "a");
    if (!fp) {
        close(fd);
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot open: %s",
                          strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size == 0)
        fputs("# poolbench run: what the runs in this folder created; read "
              "by 'poolbench run --cleanup'\n", fp);
    *out = fp;
    return PB_OK;
}

/* Each record is on disk before the next command runs: the daemon, the
 * machine or poolbench itself may die right after. */
static void flush_sync(FILE *fp)
{
    fflush(fp);
    fsync(fileno(fp));
}

void pb_run_manifest_add(FILE *fp, const char *kind, const char *run_id,
                         const char *what)
{
    if (!fp)
        return;
    fprintf(fp, "%s\t%s\t%s\n", kind, run_id, what);
    flush_sync(fp);
}

int mf_ident_of(const char *path, struct ident *id)
{
    struct statx sx;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW,
              STATX_TYPE | STATX_UID | STATX_INO | STATX_SIZE | STATX_BTIME,
              &sx) != 0)
        return -1;
    id->dev = ((unsigned long long)sx.stx_dev_major << 32) | sx.stx_dev_minor;
    id->ino = sx.stx_ino;
    id->size = (long long)sx.stx_size;
    id->regular = S_ISREG(sx.stx_mode);
    id->uid = (int)sx.stx_uid;
    if (sx.stx_mask & STATX_BTIME)
        snprintf(id->btime, sizeof(id->btime), "%lld.%09u",
                 (long long)sx.stx_btime.tv_sec, sx.stx_btime.tv_nsec);
    else
        snprintf(id->btime, sizeof(id->btime), "-");
    return 0;
}

void pb_run_manifest_file(FILE *fp, const char *run_id, const char *path)
{
    struct ident id;
    if (!fp || mf_ident_of(path, &id) != 0 || !id.regular)
        return;
    fprintf(fp, "file\t%s\t%llu\t%llu\t%lld\t%s\t%s\n", run_id, id.dev, id.ino,
            id.size, id.btime, path);
    flush_sync(fp);
}

/* ==== reading it ==== */

void mf_release(struct manifest *m)
{
    for (size_t i = 0; i < m->nruns; i++) {
        free(m->runs[i].id);
        free(m->runs[i].pool);
    }
    for (size_t i = 0; i < m->nfiles; i++)
        free(m->files[i].path);
    free(m->runs);
    free(m->files);
    memset(m, 0, sizeof(*m));
}

size_t mf_find_run(const struct manifest *m, const char *id)
{
    for (size_t i = 0; i < m->nruns; i++)
        if (!strcmp(m->runs[i].id, id))
            return i;
    return (size_t)-1;
}

static struct mfile *mf_find_file(struct manifest *m, size_t run,
                                  const char *path)
{
    for (size_t i = 0; i < m->nfiles; i++)
        if (m->files[i].run == run && !strcmp(m->files[i].path, path))
            return &m->files[i];
    return NULL;
}

static int parse_ull(const char *s, unsigned long long *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return errno || *end ? -1 : 0;
}

/* One record; -1 when it is not one (the caller warns and goes on). */
static int manifest_record(struct manifest *m, char *line)
{
    char *f[7];
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < 7; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    if (n < 3 || !*f[1] || !*f[2])
        return -1;
    size_t run = mf_find_run(m, f[1]);
    if (!strcmp(f[0], "run") && n == 3) {
        if (run == (size_t)-1) {
            PB_GROW(m->runs, m->capruns, m->nruns + 1);
            m->runs[m->nruns].id = pb_xstrdup(f[1]);
            m->runs[m->nruns].pool = pb_xstrdup(f[2]);
            m->runs[m->nruns].pool_live = 0;
            m->nruns++;
        }
        return 0;
    }
    if (run == (size_t)-1)
        return -1; /* every other record follows its run's */
    struct mrun *r = &m->runs[run];
    if ((!strcmp(f[0], "pool") || !strcmp(f[0], "destroyed")) && n == 3) {
        if (strcmp(f[2], r->pool))
            return -1;
        r->pool_live = f[0][0] == 'p';
        return 0;
    }
    if ((!strcmp(f[0], "loop") && n == 4) ||
        (!strcmp(f[0], "detached") && n == 3))
        return 0; /* loop devices: loop.c reads them */
    if (!strcmp(f[0], "gone") && n == 3) {
        struct mfile *mf = mf_find_file(m, run, f[2]);
        if (mf)
            mf->live = 0;
        return 0;
    }
    if (!strcmp(f[0], "file") && n == 7 && f[6][0] == '/') {
        unsigned long long dev, ino, size;
        if (parse_ull(f[2], &dev) || parse_ull(f[3], &ino) ||
            parse_ull(f[4], &size) || size > (unsigned long long)LLONG_MAX ||
            strlen(f[5]) >= sizeof(((struct ident *)0)->btime))
            return -1;
        struct mfile *mf = mf_find_file(m, run, f[6]);
        if (!mf) {
            PB_GROW(m->files, m->capfiles, m->nfiles + 1);
            mf = &m->files[m->nfiles++];
            mf->run = run;
            mf->path = pb_xstrdup(f[6]);
        }
        mf->id.dev = dev;
        mf->id.ino = ino;
        mf->id.size = (long long)size;
        snprintf(mf->id.btime, sizeof(mf->id.btime), "%s", f[5]);
        mf->live = 1;
        return 0;
    }
    return -1;
}

/* Load dir's manifest. It says which files root may remove, so it must be
 * root's own (this user's) and writable by nobody else. */
int mf_load(const char *dir, struct manifest *m, FILE *warn, struct pb_err *err)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->path, sizeof(m->path), "%s/%s", dir, PB_RUN_MANIFEST);
    struct stat st;
    if (lstat(m->path, &st) != 0)
        return pb_err_set(err, PB_EUSAGE, m->path, 0, 0,
                          "cannot read: %s (is '%s' the -o folder of a "
                          "poolbench run?)",
                          strerror(errno), dir);
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
        return pb_err_set(err, PB_EUSAGE, m->path, 0, 0,
                          "not trusted: a manifest must be a regular file "
                          "of this user that nobody else can write");
    char *buf;
    size_t len;
    if (pb_read_file(m->path, &buf, &len, err) != PB_OK)
        return err->code;
    long lineno = 0;
    for (char *p = buf, *next; p < buf + len; p = next) {
        char *nl = memchr(p, '\n', (size_t)(buf + len - p));
        char *end = nl ? nl : buf + len; /* buf is NUL-terminated */
        next = nl ? nl + 1 : buf + len;
        *end = '\0';
        lineno++;
        if (!*p || *p == '#')
            continue;
        /* a NUL inside the line makes it shorter than it is: refused */
        if (strlen(p) != (size_t)(end - p) || manifest_record(m, p) != 0) {
            if (warn)
                fprintf(warn,
                        "poolbench: %s:%ld: not a manifest record "
                        "(ignored)\n",
                        m->path, lineno);
        }
    }
    free(buf);
    return PB_OK;
}

/* Why the file now at f's path is not the one the run made, or NULL. */
const char *mf_not_same(const struct mfile *f, const struct ident *now)
{
    if (!now->regular)
        return "it is not a regular file";
    if (now->uid != (int)geteuid())
        return "it belongs to another user";
    if (f && (f->id.dev != now->dev || f->id.ino != now->ino ||
              strcmp(f->id.btime, now->btime)))
        return "another file has its name now (device, inode or birth time "
               "differs)";
    if (f && f->id.size != now->size)
        return "its size is not the one the run gave it";
    return NULL;
}

int pb_run_manifest_left(const char *dir, const char *path, char *run_id,
                         size_t n)
{
    struct manifest m;
    struct pb_err err = {0};
    struct ident now;
    int found = 0;
    if (mf_ident_of(path, &now) != 0 ||
        mf_load(dir, &m, NULL, &err) != PB_OK)
        return 0;
    for (size_t i = m.nfiles; i-- > 0 && !found;) {
        const struct mfile *f = &m.files[i];
        if (f->live && !strcmp(f->path, path) && !mf_not_same(f, &now)) {
            snprintf(run_id, n, "%s", m.runs[f->run].id);
            found = 1;
        }
    }
    mf_release(&m);
    return found;
}
