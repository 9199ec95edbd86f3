/* `poolbench run --cleanup`: removing what a run had to leave when ZFS
 * stopped answering under it (its marked pools and its own sparse files),
 * as its manifest (run/manifest.c) records them. */
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

#define DESTROY_TRIES 5

/* ==== cleanup ==== */

struct cl {
    const struct pb_run_cleanup_opts *o;
    struct pb_err *err;
    struct pb_run_exec x;
    FILE *out;
    char dir[PATH_MAX];  /* absolute, "" when unknown */
    struct manifest m;
    int have_m;
    FILE *lock;          /* the manifest, locked and appended to */
    struct pb_buf pools; /* `zpool list -H -o name` */
    struct pb_buf marks; /* `zfs get -H -o name,value -s local ...` */
    int left;            /* something of the run could not be removed */
};

static void say(struct cl *c, const char *fmt, ...) PB_PRINTF(2, 3);
/* One line of what is done: on out (a "#" line in a dry run) and in the
 * log. */
static void say(struct cl *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (!c->x.dry_run) {
        fprintf(c->out, "%s\n", msg);
        fflush(c->out);
    }
    pb_run_note(&c->x, "%s", msg);
}

static void abs_dir(const char *d, char *out, size_t n)
{
    char cwd[PATH_MAX] = ".";
    if (d[0] != '/' && !getcwd(cwd, sizeof(cwd)))
        snprintf(cwd, sizeof(cwd), ".");
    while (d[0] == '.' && d[1] == '/')
        d += 2;
    if (d[0] == '/')
        snprintf(out, n, "%s", d);
    else if (!strcmp(d, "."))
        snprintf(out, n, "%s", cwd);
    else
        snprintf(out, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", d);
    size_t k = strlen(out);
    while (k > 1 && out[k - 1] == '/')
        out[--k] = '\0';
}

/* Is word a whole line (or a whole tab/space separated field) of text? */
static int has_field(const char *text, const char *word)
{
    size_t wl = strlen(word);
    if (!wl)
        return 0;
    for (const char *q = strstr(text, word); q; q = strstr(q + 1, word)) {
        char before = q == text ? '\n' : q[-1];
        char after = q[wl];
        if ((before == '\n' || before == ' ' || before == '\t') &&
            (after == '\n' || after == ' ' || after == '\t' || !after))
            return 1;
    }
    return 0;
}

/* `zfs get -H -o value poolbench:owner POOL` == id? */
static int owner_is(struct cl *c, const char *pool, const char *id,
                    char *got, size_t n)
{
    const char *argv[] = {"zfs", "get", "-H", "-o", "value",
                          "poolbench:owner", pool, NULL};
    struct pb_run_res res = {0};
    int rc = pb_run_cmd(&c->x, argv, PB_RUN_CAPTURE, &res);
    if (c->x.dry_run) {
        pb_run_res_release(&res);
        return 1;
    }
    if (rc == 0)
        snprintf(got, n, "%s", pb_buf_str(&res.out));
    else
        pb_run_res_why(&res, got, n);
    got[strcspn(got, "\r\n")] = '\0';
    pb_run_res_release(&res);
    return rc == 0 && !strcmp(got, id);
}

/* Which runs are to be cleaned: the manifest's, or the one asked for
 * (which the manifest must know when there is one). */
static int check_ids(struct cl *c)
{
    const char *id = c->o->run_id;
    if (!c->have_m)
        return 0;
    if (id && mf_find_run(&c->m, id) == (size_t)-1) {
        struct pb_buf known = PB_BUF_INIT;
        for (size_t i = 0; i < c->m.nruns; i++)
            pb_buf_printf(&known, "%s%s", i ? ", " : "", c->m.runs[i].id);
        pb_err_set(c->err, PB_EUSAGE, c->m.path, 0, 0,
                   "no run '%s' in it (it has: %s)", id,
                   known.len ? pb_buf_str(&known) : "none");
        pb_buf_release(&known);
        return -1;
    }
    return 0;
}

static int open_dir(struct cl *c, const char *dir)
{
    abs_dir(dir, c->dir, sizeof(c->dir));
    if (mf_load(c->dir, &c->m, c->o->progress, c->err) != PB_OK)
        return -1;
    c->have_m = 1;
    if (check_ids(c) != 0)
        return -1;
    if (c->x.dry_run)
        return 0;
    if (pb_run_manifest_open(c->dir, &c->lock, c->err) != PB_OK) {
        if (c->err->code == PB_ERUN)
            snprintf(c->err->msg, sizeof(c->err->msg),
                     "locked: the run in this folder is still going (stop "
                     "it first: it cleans up after itself)");
        return -1;
    }
    char logp[PATH_MAX];
    snprintf(logp, sizeof(logp), "%s/commands.log", c->dir);
    c->x.log = pb_run_fopen_out(logp, 1);
    return 0;
}

/* The next pool (not a dataset) that the "NAME\tOWNER" lines at *q mark
 * as run id's: its name into line (512 bytes), *q moved past its line;
 * 1, or 0 when there is none. */
static int next_marked_pool(const char **q, const char *id, char line[512])
{
    while (**q) {
        size_t k = strcspn(*q, "\n");
        snprintf(line, 512, "%.*s", (int)k, *q);
        *q += k + ((*q)[k] != '\0');
        char *tab = strchr(line, '\t');
        if (!tab || strcmp(tab + 1, id) ||
            memchr(line, '/', (size_t)(tab - line)))
            continue;
        *tab = '\0';
        return 1;
    }
    return 0;
}

/* Without -o DIR: the run's folder is the parent of its pool's mountpoint
 * (`zpool create -m DIR/mnt`), if the manifest there knows the run. */
static void find_dir(struct cl *c, const char *id)
{
    const char *q = pb_buf_str(&c->marks);
    char line[512];
    while (next_marked_pool(&q, id, line)) {
        const char *argv[] = {"zfs", "get", "-H", "-o", "value",
                              "mountpoint", line, NULL};
        struct pb_run_res res = {0};
        char mnt[PATH_MAX] = "";
        if (pb_run_cmd(&c->x, argv, PB_RUN_CAPTURE, &res) == 0)
            snprintf(mnt, sizeof(mnt), "%s", pb_buf_str(&res.out));
        pb_run_res_release(&res);
        mnt[strcspn(mnt, "\r\n")] = '\0';
        size_t ml = strlen(mnt);
        if (mnt[0] != '/' || ml < 5 || strcmp(mnt + ml - 4, "/mnt"))
            continue;
        mnt[ml - 4] = '\0';
        struct manifest m;
        struct pb_err e = {0};
        if (mf_load(mnt[0] ? mnt : "/", &m, NULL, &e) != PB_OK)
            continue;
        int knows = mf_find_run(&m, id) != (size_t)-1;
        mf_release(&m);
        if (knows && open_dir(c, mnt[0] ? mnt : "/") == 0) {
            say(c, "run %s: its folder is %s (from the mountpoint of pool "
                "'%s')", id, c->dir, line);
            return;
        }
        if (c->err->code)
            return;
    }
}

/* Destroy pool (after reading its mark back). Its file vdevs, from `zpool
 * status`, are added to vdevs. 0 done, -1 left. */
static int destroy_pool(struct cl *c, const char *pool, const char *id,
                        char ***vdevs, size_t *nv, size_t *capv)
{
    struct pb_run_res res = {0};
    if (!c->have_m && !c->x.dry_run) {
        const char *st[] = {"zpool", "status", pool, NULL};
        if (pb_run_cmd(&c->x, st, PB_RUN_CAPTURE, &res) == 0) {
            for (const char *q = pb_buf_str(&res.out); *q;) {
                size_t k = strcspn(q, "\n");
                const char *w = q;
                while (w < q + k && (*w == ' ' || *w == '\t'))
                    w++;
                size_t wl = strcspn(w, " \t\n");
                if (*w == '/' && wl < PATH_MAX) {
                    PB_GROW(*vdevs, *capv, *nv + 1);
                    (*vdevs)[(*nv)++] = pb_xstrndup(w, wl);
                }
                q += k + (q[k] != '\0');
            }
        }
    }
    char got[256];
    if (!owner_is(c, pool, id, got, sizeof(got))) {
        say(c, "kept pool '%s': poolbench:owner is '%s', not '%s'", pool,
            got, id);
        pb_run_res_release(&res);
        return 0; /* not this run's: nothing of it to do */
    }
    const char *argv[] = {"zpool", "destroy", pool, NULL};
    int rc = 0;
    for (int i = 0; i < DESTROY_TRIES; i++) {
        rc = pb_run_cmd(&c->x, argv, 0, &res);
        if (rc <= 0)
            break;
        struct timespec ts = {1, 0}; /* zfs-fuse: "pool is busy" a while */
        nanosleep(&ts, NULL);
    }
    if (rc != 0) {
        char w[200];
        say(c, "could not destroy pool '%s': %s", pool,
            pb_run_res_why(&res, w, sizeof(w)));
        pb_run_res_release(&res);
        c->left = 1;
        return -1;
    }
    pb_run_res_release(&res);
    pb_run_manifest_add(c->lock, "destroyed", id, pool);
    if (!c->x.dry_run)
        say(c, "destroyed pool '%s' (poolbench:owner=%s)", pool, id);
    return 0;
}

/* Remove path (a file of run id; f its record, NULL when it comes from
 * the vdevs of a destroyed pool) unless a pool in status still uses it. */
static void remove_file(struct cl *c, const char *id, const char *path,
                        const struct mfile *f, const char *status)
{
    struct ident now;
    if (mf_ident_of(path, &now) != 0) {
        say(c, "%s is already gone", path);
        if (f)
            pb_run_manifest_add(c->lock, "gone", id, path);
        return;
    }
    const char *why = mf_not_same(f, &now);
    if (why) {
        say(c, "kept %s: %s", path, why);
        return;
    }
    if (status && has_field(status, path)) {
        say(c, "kept %s: a pool still uses it (see 'zpool status')", path);
        c->left = 1;
        return;
    }
    const char *argv[] = {"rm", "-f", path, NULL};
    struct pb_run_res res = {0};
    if (pb_run_cmd(&c->x, argv, 0, &res) != 0) {
        char w[200];
        say(c, "could not remove %s: %s", path,
            pb_run_res_why(&res, w, sizeof(w)));
        c->left = 1;
    } else {
        pb_run_manifest_add(c->lock, "gone", id, path);
        if (!c->x.dry_run)
            say(c, "removed sparse file %s", path);
    }
    pb_run_res_release(&res);
}

static void add_dir_arg(struct pb_run_argv *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == path ? pb_xstrdup("/")
                              : pb_xstrndup(path, (size_t)(slash - path));
    for (size_t i = 1; i < a->n; i++)
        if (!strcmp(a->v[i - 1], "-d") && !strcmp(a->v[i], dir)) {
            free(dir);
            return;
        }
    pb_run_argv_add(a, "-d");
    pb_run_argv_add(a, dir);
    free(dir);
}

/* A pool of the run that is not imported (ZFS went away while it was
 * exported for the cache drop): import it from the run's files, so that
 * its mark can be read and it can be destroyed like the others. */
static int import_pool(struct cl *c, size_t run)
{
    const struct mrun *r = &c->m.runs[run];
    struct pb_run_argv a = {0};
    pb_run_argv_add(&a, "zpool");
    pb_run_argv_add(&a, "import");
    for (size_t i = 0; i < c->m.nfiles; i++) {
        const struct mfile *f = &c->m.files[i];
        struct ident now;
        if (f->run == run && f->live && mf_ident_of(f->path, &now) == 0 &&
            !mf_not_same(f, &now))
            add_dir_arg(&a, f->path);
    }
    int ok = 0;
    if (a.n > 2) {
        pb_run_argv_add(&a, r->pool);
        if (c->x.dry_run) {
            struct pb_buf line = PB_BUF_INIT;
            pb_run_quote(&line, (const char *const *)a.v);
            pb_run_note(&c->x, "if pool '%s' is not imported: %s", r->pool,
                        pb_buf_str(&line));
            pb_buf_release(&line);
            ok = 1;
        } else {
            struct pb_run_res res = {0};
            ok = pb_run_cmd(&c->x, (const char *const *)a.v, 0, &res) == 0;
            if (!ok) {
                char w[200];
                say(c, "pool '%s' of run %s could not be imported (%s): it "
                    "goes with its sparse files", r->pool, r->id,
                    pb_run_res_why(&res, w, sizeof(w)));
            }
            pb_run_res_release(&res);
        }
    }
    pb_run_argv_release(&a);
    return ok;
}

static void clean_run(struct cl *c, const char *id)
{
    size_t run = c->have_m ? mf_find_run(&c->m, id) : (size_t)-1;
    const struct mrun *r = run != (size_t)-1 ? &c->m.runs[run] : NULL;
    char **vdevs = NULL;
    size_t nv = 0, capv = 0;
    int left = c->left, did = 0;
    c->left = 0;
    if (r)
        pb_run_note(&c->x, "cleanup of run %s: pool '%s', %s", id, r->pool,
                    c->m.path);
    else
        pb_run_note(&c->x, "cleanup of run %s: every pool with "
                    "poolbench:owner=%s%s", id, id,
                    c->x.dry_run ? " (from the 'zfs get' above), and its "
                                   "file vdevs"
                                 : "");

    /* the pools: marked ones, plus the run's own if it is exported */
    if (c->x.dry_run) {
        if (r) {
            if (r->pool_live)
                import_pool(c, run);
            destroy_pool(c, r->pool, id, &vdevs, &nv, &capv);
        }
    } else {
        if (r && r->pool_live && !has_field(pb_buf_str(&c->pools), r->pool) &&
            import_pool(c, run)) {
            pb_buf_printf(&c->marks, "%s\t%s\n", r->pool, id);
            pb_buf_printf(&c->pools, "%s\n", r->pool);
        }
        const char *q = pb_buf_str(&c->marks);
        char line[512];
        while (next_marked_pool(&q, id, line))
            if (destroy_pool(c, line, id, &vdevs, &nv, &capv) == 0)
                did = 1;
    }

    /* loop devices over the run's files, then the files */
    if (r && pb_run_loop_cleanup(&c->x, c->lock, c->m.path, id,
                                 c->x.dry_run ? NULL : c->out) != 0)
        c->left = 1;

    /* the sparse files: the manifest's, else the destroyed pools' */
    int want_files = c->x.dry_run || nv > 0;
    if (r)
        for (size_t i = 0; i < c->m.nfiles; i++)
            want_files |= c->m.files[i].run == run && c->m.files[i].live;
    if (want_files && (r || nv)) {
        const char *st[] = {"zpool", "status", NULL};
        struct pb_run_res res = {0};
        int ok = pb_run_cmd(&c->x, st, PB_RUN_CAPTURE, &res) == 0;
        if (!ok && !c->x.dry_run) {
            char w[200];
            say(c, "kept the sparse files of run %s: 'zpool status' failed "
                "(%s), so which pools use them is unknown", id,
                pb_run_res_why(&res, w, sizeof(w)));
            c->left = 1;
        } else {
            const char *status = c->x.dry_run ? NULL : pb_buf_str(&res.out);
            for (size_t i = 0; r && i < c->m.nfiles; i++) {
                const struct mfile *f = &c->m.files[i];
                if (f->run == run && f->live) {
                    remove_file(c, id, f->path, f, status);
                    did = 1;
                }
            }
            for (size_t i = 0; !r && i < nv; i++) {
                remove_file(c, id, vdevs[i], NULL, status);
                did = 1;
            }
        }
        pb_run_res_release(&res);
    }
    for (size_t i = 0; i < nv; i++)
        free(vdevs[i]);
    free(vdevs);
    if (!c->x.dry_run) {
        if (c->left)
            say(c, "run %s: something is left (see above)", id);
        else if (did)
            say(c, "run %s: cleaned up", id);
        else if (r)
            say(c, "run %s: nothing was left (no pool with "
                "poolbench:owner=%s, no sparse file of it)", id, id);
        else
            say(c, "run %s: nothing was left (no imported pool with "
                "poolbench:owner=%s; a pool of it that is not imported, "
                "and its sparse files, are only known with -o DIR)", id,
                id);
    }
    c->left |= left;
}

/* Run argv and append its output to *out; on failure fill err with
 * fmt (one %s: why the command failed) and return -1. */
static int capture(struct cl *c, const char *const *argv, struct pb_buf *out,
                   struct pb_err *err, const char *fmt)
{
    struct pb_run_res res = {0};
    char w[200];
    int rc = pb_run_cmd(&c->x, argv, PB_RUN_CAPTURE, &res);
    if (rc != 0)
        pb_err_set(err, PB_ERUN, NULL, 0, 0, fmt,
                   pb_run_res_why(&res, w, sizeof(w)));
    else
        pb_buf_add(out, pb_buf_str(&res.out), res.out.len);
    pb_run_res_release(&res);
    return rc != 0 ? -1 : 0;
}

int pb_run_cleanup(const struct pb_run_cleanup_opts *o, struct pb_err *err)
{
    struct cl c;
    memset(&c, 0, sizeof(c));
    c.o = o;
    c.err = err;
    c.out = o->out ? o->out : stdout;
    c.x.dry_run = o->dry_run;
    c.x.dry = c.out;
    if (!o->run_id && !o->dir)
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "a cleanup needs a run id or the run's folder");
    if (!o->dry_run && geteuid() != 0)
        return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                          "a cleanup needs root (zpool); try --dry-run to "
                          "see the commands");
    if (o->dir && open_dir(&c, o->dir) != 0)
        goto done;
    if (c.x.log) {
        time_t t = time(NULL);
        char ts[64];
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
        fprintf(c.x.log, "# ==== %s cleanup\n", ts);
    }

    /* ZFS must answer, or nothing is touched: a pool that cannot be seen
     * may still use the files */
    const char *list[] = {"zpool", "list", "-H", "-o", "name", NULL};
    const char *marks[] = {"zfs", "get", "-H", "-o", "name,value", "-s",
                           "local", "poolbench:owner", NULL};
    if (capture(&c, list, &c.pools, err,
                "ZFS does not answer ('zpool list': %s); nothing was "
                "touched: start ZFS (zfs-fuse) and run this again") ||
        capture(&c, marks, &c.marks, err,
                "cannot read the poolbench:owner marks ('zfs get': %s); "
                "nothing was touched"))
        goto done;

    if (!o->dir && !o->dry_run)
        find_dir(&c, o->run_id);
    if (err->code)
        goto done;
    if (o->run_id) {
        clean_run(&c, o->run_id);
    } else {
        for (size_t i = 0; i < c.m.nruns; i++)
            clean_run(&c, c.m.runs[i].id);
        if (!c.m.nruns && !o->dry_run)
            say(&c, "%s records no run: nothing to do", c.m.path);
    }
    if (c.left)
        pb_err_set(err, PB_ERUN, NULL, 0, 0,
                   "not everything could be removed (see above)");
done:
    if (c.x.log)
        fclose(c.x.log);
    if (c.lock)
        fclose(c.lock);
    mf_release(&c.m);
    pb_buf_release(&c.pools);
    pb_buf_release(&c.marks);
    return err->code;
}
