/* The parallel walk: expands paths (directories recursively, in sorted
 * order), then reads and parses the files on all cores while the caller
 * stores them one at a time, in path order. */
#define _GNU_SOURCE
#include "ingest/ingest_int.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== expanding paths ==== */

struct pathlist {
    char **v;
    size_t n, cap;
};

static void pl_add(struct pathlist *pl, char *path)
{
    PB_GROW(pl->v, pl->cap, pl->n + 1);
    pl->v[pl->n++] = path;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files and directories by identity: directories already walked (a
 * symlink or bind mount back up the tree is walked once), and files never
 * to read (the database in use with its -wal and -shm). */
struct fileid {
    dev_t dev;
    ino_t ino;
};

struct idset {
    struct fileid *v; /* open addressing; ino 0 and dev 0 = free */
    unsigned char *used;
    size_t n, cap;    /* cap: 0 or a power of two */
};

static size_t id_hash(const struct stat *st, size_t cap)
{
    uint64_t h = (uint64_t)st->st_ino * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)st->st_dev + (h >> 29);
    return (size_t)(h & (cap - 1));
}

static int ids_has(const struct idset *s, const struct stat *st)
{
    if (!s->cap)
        return 0;
    for (size_t i = id_hash(st, s->cap); s->used[i]; i = (i + 1) & (s->cap - 1))
        if (s->v[i].dev == st->st_dev && s->v[i].ino == st->st_ino)
            return 1;
    return 0;
}

static void ids_add(struct idset *s, const struct stat *st)
{
    if (ids_has(s, st))
        return;
    if ((s->n + 1) * 2 > s->cap) {
        struct idset g = {0};
        g.cap = s->cap ? s->cap * 2 : 64;
        g.v = pb_xcalloc(g.cap, sizeof(*g.v));
        g.used = pb_xcalloc(g.cap, 1);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->used[i])
                continue;
            struct stat t;
            t.st_dev = s->v[i].dev;
            t.st_ino = s->v[i].ino;
            size_t j = id_hash(&t, g.cap);
            while (g.used[j])
                j = (j + 1) & (g.cap - 1);
            g.v[j] = s->v[i];
            g.used[j] = 1;
        }
        g.n = s->n;
        free(s->v);
        free(s->used);
        *s = g;
    }
    size_t i = id_hash(st, s->cap);
    while (s->used[i])
        i = (i + 1) & (s->cap - 1);
    s->v[i].dev = st->st_dev;
    s->v[i].ino = st->st_ino;
    s->used[i] = 1;
    s->n++;
}

static void ids_free(struct idset *s)
{
    free(s->v);
    free(s->used);
}

struct expand {
    struct pathlist files;
    struct idset dirs;  /* walked */
    struct idset skip;  /* the database files */
    int follow;
    const struct pb_ingest_opts *opts; /* --include, --exclude */
};

static int glob_hit(const char *const *pat, size_t n, const char *name,
                    const char *rel)
{
    for (size_t i = 0; i < n; i++) {
        int path = strchr(pat[i], '/') != NULL;
        if (fnmatch(pat[i], path ? rel : name, path ? FNM_PATHNAME : 0) == 0)
            return 1;
    }
    return 0;
}

/* Is this entry of a walked directory kept (see pb_ingest_opts)? */
static int wanted(const struct expand *x, const char *name, const char *rel,
                  int isdir)
{
    const struct pb_ingest_opts *o = x->opts;
    if (!o)
        return 1;
    if (glob_hit(o->exclude, o->nexclude, name, rel))
        return 0;
    return isdir || !o->ninclude ||
           glob_hit(o->include, o->ninclude, name, rel);
}

/* root: the length of the walked directory's path in dir's (for the
 * path below it that --include/--exclude patterns with '/' match). */
static void walk_dir(struct expand *x, const char *dir, size_t root,
                     int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 64) {
        if (d)
            closedir(d);
        pl_add(&x->files, pb_xstrdup(dir)); /* reported as unreadable later */
        return;
    }
    struct pathlist names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .., and hidden files such as .git */
        pl_add(&names, pb_xstrdup(e->d_name));
    }
    closedir(d);
    if (names.n)
        qsort(names.v, names.n, sizeof(char *), cmp_str);
    size_t dl = strlen(dir);
    int slash = dl > 0 && dir[dl - 1] == '/';
    for (size_t i = 0; i < names.n; i++) {
        char *full = pb_xasprintf("%s%s%s", dir, slash ? "" : "/", names.v[i]);
        const char *rel = full + root;
        while (*rel == '/')
            rel++;
        struct stat lst, st;
        int islink = lstat(full, &lst) == 0 && S_ISLNK(lst.st_mode);
        int isdir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        if (!wanted(x, names.v[i], rel, isdir)) {
            free(full);
        } else if (stat(full, &st) != 0) {
            pl_add(&x->files, full); /* dangling: reported when opened */
        } else if (S_ISDIR(st.st_mode)) {
            /* A directory symlink is followed only when asked, and no
             * directory is walked twice: `a -> .` cannot recurse. */
            if ((!islink || x->follow) && !ids_has(&x->dirs, &st)) {
                ids_add(&x->dirs, &st);
                walk_dir(x, full, root, depth + 1);
            }
            free(full);
        } else if (!S_ISREG(st.st_mode) || ids_has(&x->skip, &st)) {
            free(full); /* sockets, fifos, devices, the database */
        } else {
            pl_add(&x->files, full);
        }
        free(names.v[i]);
    }
    free(names.v);
}

/* The database in use and its journal files are never inputs. */
static void skip_db(struct expand *x, const char *db)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    if (!db)
        return;
    for (size_t i = 0; i < sizeof(sfx) / sizeof(*sfx); i++) {
        char *p = pb_xasprintf("%s%s", db, sfx[i]);
        struct stat st;
        if (stat(p, &st) == 0)
            ids_add(&x->skip, &st);
        free(p);
    }
}

static void expand_paths(struct expand *x, const char *const *paths,
                         size_t npaths)
{
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 &&
            S_ISDIR(st.st_mode)) {
            if (!ids_has(&x->dirs, &st)) {
                ids_add(&x->dirs, &st);
                walk_dir(x, paths[i], strlen(paths[i]), 0);
            }
        } else if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 &&
                   ids_has(&x->skip, &st)) {
            continue; /* `ingest poolbench.db*` stores nothing */
        } else {
            pl_add(&x->files, pb_xstrdup(paths[i]));
        }
    }
}

/* ==== the parallel walk ==== */

struct slot {
    int done;
    struct pb_resultset *set;
    struct pb_err err;
};

struct walk {
    struct pathlist files;
    const struct pb_ingest_opts *opts;
    struct slot *slots; /* ring of `window` entries */
    size_t window;
    size_t next;     /* next file index to claim */
    size_t consumed; /* files handed to the callback */
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
};

/* The file's modification time (stored as fact file_time), when asked
 * for. */
static void file_time(const struct pb_ingest_opts *opts, const struct stat *st,
                      struct pb_resultset *set)
{
    char b[32];
    if (opts && opts->file_time && set &&
        pb_time_utc((long long)st->st_mtime, b, sizeof(b)) == 0)
        set->file_time = pb_rs_str(set, b);
}

/* Parse path into s->set, or say why not in s->err: PB_OK when parsed. */
static int parse_one(const char *path, const struct pb_ingest_opts *opts,
                     struct slot *s)
{
    char *buf = NULL;
    size_t len = 0;
    /* large files of streamable formats are parsed in the caller's
     * thread, in parts (stream_set.c) */
    int rc = strcmp(path, "-") ? pb_ingest_stream_open(path, opts, &s->set,
                                                       &s->err)
                               : PB_EDUP;
    if (rc != PB_EDUP)
        return rc;
    /* fio logs and .gz files are streamed (stream.c) */
    rc = strcmp(path, "-") ? pb_ingest_stream(path, opts, &s->set, &s->err)
                           : PB_EDUP;
    if (rc != PB_EDUP)
        return rc;
    rc = pb_read_file(path, &buf, &len, &s->err);
    if (rc != PB_OK) {
        /* An unreadable input is an input problem, not the environment. */
        s->err.code = PB_EINPUT;
        return rc;
    }
    rc = pb_ingest_buffer(path, buf, len, opts, &s->set, &s->err);
    free(buf);
    return rc;
}

static void process(const char *path, const struct pb_ingest_opts *opts,
                    struct slot *s)
{
    struct stat st;
    int file = strcmp(path, "-") != 0;
    if (file && stat(path, &st) != 0) {
        pb_err_set(&s->err, PB_EINPUT, path, 0, 0, "cannot open: %s",
                   strerror(errno));
        return;
    }
    if (parse_one(path, opts, s) == PB_OK && file)
        file_time(opts, &st, s->set);
}

static void *worker(void *arg)
{
    struct walk *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->stop && w->next < w->files.n &&
               w->next >= w->consumed + w->window)
            pthread_cond_wait(&w->cv_work, &w->mu);
        if (w->stop || w->next >= w->files.n)
            break;
        size_t i = w->next++;
        struct slot *s = &w->slots[i % w->window];
        pthread_mutex_unlock(&w->mu);

        struct slot tmp;
        memset(&tmp, 0, sizeof(tmp));
        process(w->files.v[i], w->opts, &tmp);

        pthread_mutex_lock(&w->mu);
        *s = tmp;
        s->done = 1;
        pthread_cond_broadcast(&w->cv_done);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static int ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int pb_ingest_walk(const char *const *paths, size_t npaths,
                   const struct pb_ingest_opts *opts, pb_ingest_cb cb,
                   void *ctx)
{
    struct walk w;
    memset(&w, 0, sizeof(w));
    w.opts = opts;
    {
        struct expand x;
        memset(&x, 0, sizeof(x));
        x.follow = opts && opts->follow;
        x.opts = opts;
        skip_db(&x, opts ? opts->db_path : NULL);
        expand_paths(&x, paths, npaths);
        w.files = x.files;
        ids_free(&x.dirs);
        ids_free(&x.skip);
    }

    int threads = opts && opts->threads > 0 ? opts->threads : ncores();
    if ((size_t)threads > w.files.n)
        threads = w.files.n ? (int)w.files.n : 1;
    w.window = (size_t)threads * 4;
    w.slots = pb_xcalloc(w.window, sizeof(*w.slots));
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv_work, NULL);
    pthread_cond_init(&w.cv_done, NULL);

    pthread_t *tids = pb_xcalloc((size_t)threads, sizeof(*tids));
    int started = 0;
    for (int i = 0; i < threads && w.files.n > 0; i++)
        if (pthread_create(&tids[i], NULL, worker, &w) == 0)
            started++;

    for (size_t i = 0; i < w.files.n; i++) {
        struct slot *s = &w.slots[i % w.window];
        struct slot got;
        if (started == 0) {
            memset(&got, 0, sizeof(got));
            process(w.files.v[i], opts, &got);
        } else {
            pthread_mutex_lock(&w.mu);
            while (!s->done)
                pthread_cond_wait(&w.cv_done, &w.mu);
            got = *s;
            memset(s, 0, sizeof(*s));
            w.consumed = i + 1;
            pthread_cond_broadcast(&w.cv_work);
            pthread_mutex_unlock(&w.mu);
        }
        int kept = cb(ctx, w.files.v[i], got.set, got.set ? NULL : &got.err);
        if (!kept)
            pb_resultset_free(got.set);
    }

    pthread_mutex_lock(&w.mu);
    w.stop = 1;
    pthread_cond_broadcast(&w.cv_work);
    pthread_mutex_unlock(&w.mu);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv_work);
    pthread_cond_destroy(&w.cv_done);
    free(w.slots);
    for (size_t i = 0; i < w.files.n; i++)
        free(w.files.v[i]);
    free(w.files.v);
    return PB_OK;
}
