/* Pool, dataset and zvol lifecycle through zpool/zfs: create, import,
 * export, destroy, with the poolbench:owner mark checked before anything
 * is exported, destroyed or written. What the machine allows (which ZFS,
 * what cannot run, vdev safety checks, host facts): run/zfs_host.c. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define DESTROY_TRIES 20 /* a quarter of a second apart */

/* ==== names ==== */

char *pb_run_ds_name(const struct pb_run_plan *p)
{
    return pb_xasprintf("%s/%s", p->pool, p->zvol ? "pbvol" : "pb");
}

char *pb_run_zvol_dev(const struct pb_run_plan *p)
{
    return pb_xasprintf("/dev/zvol/%s/pbvol", p->pool);
}

/* ==== helpers ==== */

int pb_run_zfs_answers(struct pb_run_zfs *z)
{
    if (z->gone)
        return 0;
    if (z->x->dry_run)
        return 1;
    const char *list[] = {"zpool", "list", "-H", "-o", "name", NULL};
    struct pb_run_res res = {0};
    int rc = pb_run_cmd(z->x, list, PB_RUN_CAPTURE, &res);
    if (rc != 0) {
        z->gone = 1;
        pb_run_res_why(&res, z->gone_why, sizeof(z->gone_why));
        pb_run_note(z->x, "ZFS does not answer any more: %s", z->gone_why);
    }
    pb_run_res_release(&res);
    return !z->gone;
}

/* "cannot destroy 'p/pb': dataset is busy": ZFS answered, and refused. */
static int refused(const struct pb_run_res *res)
{
    const char *s = pb_buf_str(&res->err);
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    return !strncmp(s, "cannot ", 7);
}

/* A zfs or zpool command that fails without ZFS's own refusal may mean the
 * daemon is gone ("connect: Connection refused"): ask `zpool list` then,
 * so that the run stops instead of blaming the pool. */
static int cmd(struct pb_run_zfs *z, struct pb_run_argv *a, unsigned flags,
               struct pb_run_res *res)
{
    int rc = pb_run_cmd(z->x, (const char *const *)a->v, flags, res);
    if (rc != 0 && strstr(pb_buf_str(&res->err), "I/O is currently suspended"))
        z->suspended = 1;
    if (rc != 0 && !z->suspended && !refused(res) &&
        (!strcmp(a->v[0], "zfs") || !strcmp(a->v[0], "zpool")))
        pb_run_zfs_answers(z);
    return rc;
}

/* What is left when ZFS stopped answering: the pool's mark cannot be read,
 * so neither the pool nor its files are touched. */
static int gone_err(struct pb_run_zfs *z, struct pb_err *err)
{
    return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                      "ZFS stopped answering (%s): pool '%s' and its vdev "
                      "files are left", z->gone_why, z->plan->pool);
}

/* A suspended pool blocks every further command on it (and, with
 * zfs-fuse, the daemon's mounts): stop and say what is left. */
static int suspended_err(struct pb_run_zfs *z, struct pb_err *err)
{
    /* what to do is long: the summary carries it (pb_run_suspended_advice) */
    return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                      "pool '%s' has suspended its I/O: the run stopped",
                      z->plan->pool);
}

/* Run a destroy/export until it succeeds: zfs-fuse answers "pool is busy"
 * for a moment after its last use. */
static int retry(struct pb_run_zfs *z, struct pb_run_argv *a,
                 struct pb_run_res *res)
{
    int rc = 0;
    for (int i = 0; i < DESTROY_TRIES; i++) {
        rc = cmd(z, a, 0, res);
        if (rc == 0 || rc < 0 || z->gone)
            break;
        struct timespec ts = {0, 250000000};
        nanosleep(&ts, NULL);
    }
    return rc;
}

static void size_arg(double bytes, char *buf, size_t n)
{
    static const char u[] = "KMGT";
    int k = -1;
    while (bytes >= 1024 && fmod(bytes, 1024) == 0 && k < 3) {
        bytes /= 1024;
        k++;
    }
    if (k < 0)
        snprintf(buf, n, "%.0f", bytes);
    else
        snprintf(buf, n, "%.0f%c", bytes, u[k]);
}

static void remove_files(struct pb_run_zfs *z)
{
    struct pb_run_res res = {0};
    for (size_t i = 0; i < z->nfiles; i++) {
        if (z->files[i]->dev &&
            pb_run_loop_detach(z->x, z->manifest, z->owner, z->files[i]) != 0)
            continue; /* still attached: the file stays, and its record */
        if (!z->x->dry_run && !z->x->remote &&
            !pb_run_vdev_file_ours(z->files[i])) {
            /* replaced or removed since: another run's, or someone's */
            pb_run_note(z->x, "vdev file '%s' is not the file this run "
                        "created any more; left as it is",
                        z->files[i]->path);
            continue;
        }
        struct pb_run_argv a = {0};
        pb_run_argv_add(&a, "rm");
        pb_run_argv_add(&a, "-f");
        pb_run_argv_add(&a, z->files[i]->path);
        if (cmd(z, &a, 0, &res) == 0)
            pb_run_manifest_add(z->manifest, "gone", z->owner,
                                z->files[i]->path);
        pb_run_argv_release(&a);
    }
    pb_run_res_release(&res);
    z->nfiles = 0;
}

static void add_vdevs(struct pb_run_argv *a, const struct pb_run_vdevs *v,
                      size_t from, size_t n)
{
    for (size_t i = from; i < from + n && i < v->n; i++)
        pb_run_argv_add(a, v->v[i].dev ? v->v[i].dev : v->v[i].path);
}

/* ==== pool ==== */

int pb_run_pool_create(struct pb_run_zfs *z, size_t pc, struct pb_err *err)
{
    const struct pb_run_plan *p = z->plan;
    struct pb_run_layout l;
    const char *lay = pb_run_value(p, PB_RUN_POOL, pc, "layout");
    int lrc = pb_run_layout_parse(lay ? lay : "stripe", p->data.n, &l, err);
    if (lrc != PB_OK)
        return lrc;
    const char *log = pb_run_value(p, PB_RUN_POOL, pc, "log");
    const char *cache = pb_run_value(p, PB_RUN_POOL, pc, "cache");
    const char *ashift = pb_run_value(p, PB_RUN_POOL, pc, "ashift");
    int use_log = log && strcmp(log, "none");
    int use_cache = cache && !strcmp(cache, "on");
    size_t ndata = (size_t)l.groups * (size_t)l.width;

    /* the sparse files this pool uses */
    z->nfiles = 0;
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    size_t counts[3] = {ndata, use_log ? p->log.n : 0,
                        use_cache ? p->cache.n : 0};
    struct pb_run_res res = {0};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            struct pb_run_vdev *v = &lists[k]->v[i];
            if (!v->is_file)
                continue;
            char sz[32];
            struct pb_err w = {0};
            size_arg(v->size, sz, sizeof(sz));
            int rc = pb_run_vdev_file_create(z->x, v, sz, &w);
            if (v->made || z->x->dry_run) {
                PB_GROW(z->files, z->capfiles, z->nfiles + 1);
                z->files[z->nfiles++] = v; /* removed even if sizing failed */
            }
            if (rc == 0 && !z->x->remote)
                pb_run_manifest_file(z->manifest, z->owner, v->path);
            if (rc != 0) {
                /* the file's reason as short as it always was */
                pb_err_say(err, PB_ERUN, "cannot create vdev file '%s': %.159s",
                           v->path, w.msg);
                remove_files(z);
                pb_run_res_release(&res);
                return PB_ERUN;
            }
            if ((v->loop || (k == 2 && z->loop_cache)) &&
                pb_run_loop_attach(z->x, z->manifest, z->owner, v, err) !=
                    PB_OK) {
                remove_files(z);
                pb_run_res_release(&res);
                return PB_ERUN;
            }
        }

    struct pb_run_argv a = {0};
    pb_run_argv_add(&a, "zpool");
    pb_run_argv_add(&a, "create");
    if (ashift) {
        pb_run_argv_add(&a, "-o");
        pb_run_argv_addf(&a, "ashift=%s", ashift);
    }
    pb_run_argv_add(&a, "-O");
    pb_run_argv_addf(&a, "poolbench:owner=%s", z->owner);
    pb_run_argv_add(&a, "-m");
    pb_run_argv_add(&a, z->mnt);
    pb_run_argv_add(&a, p->pool);
    if (!strcmp(l.type, "stripe")) {
        add_vdevs(&a, &p->data, 0, ndata);
    } else {
        for (int g = 0; g < l.groups; g++) {
            pb_run_argv_add(&a, l.type);
            add_vdevs(&a, &p->data, (size_t)g * (size_t)l.width,
                      (size_t)l.width);
        }
    }
    if (use_log) {
        pb_run_argv_add(&a, "log");
        if (!strcmp(log, "mirror"))
            pb_run_argv_add(&a, "mirror");
        add_vdevs(&a, &p->log, 0, p->log.n);
    }
    if (use_cache) {
        pb_run_argv_add(&a, "cache");
        add_vdevs(&a, &p->cache, 0, p->cache.n);
    }
    pb_run_manifest_add(z->manifest, "pool", z->owner, p->pool);
    int rc = cmd(z, &a, 0, &res);
    pb_run_argv_release(&a);
    if (rc != 0) {
        char w[200];
        pb_err_say(err, PB_ERUN, "zpool create failed: %s",
                   pb_run_res_why(&res, w, sizeof(w)));
        if (z->gone) {
            /* the daemon may have the pool half made: keep the files,
             * pb_run_cleanup() sorts it out once ZFS answers */
            z->created = 1;
        } else {
            remove_files(z);
        }
        pb_run_res_release(&res);
        return PB_ERUN;
    }
    z->created = 1;
    z->exported = 0;
    pb_run_res_release(&res);
    return 0;
}

int pb_run_owner_check(struct pb_run_zfs *z, struct pb_err *err)
{
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    pb_run_argv_add(&a, "zfs");
    pb_run_argv_add(&a, "get");
    pb_run_argv_add(&a, "-H");
    pb_run_argv_add(&a, "-o");
    pb_run_argv_add(&a, "value");
    pb_run_argv_add(&a, "poolbench:owner");
    pb_run_argv_add(&a, z->plan->pool);
    int rc = cmd(z, &a, PB_RUN_CAPTURE, &res);
    pb_run_argv_release(&a);
    if (z->x->dry_run) {
        pb_run_res_release(&res);
        return PB_OK;
    }
    if (z->suspended) {
        pb_run_res_release(&res);
        return suspended_err(z, err);
    }
    if (z->gone) {
        pb_run_res_release(&res);
        return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                          "ZFS stopped answering (%s): the mark of pool "
                          "'%s' cannot be checked",
                          z->gone_why, z->plan->pool);
    }
    char got[256];
    snprintf(got, sizeof(got), "%s", pb_buf_str(&res.out));
    got[strcspn(got, "\r\n")] = '\0';
    pb_run_res_release(&res);
    if (rc == 0 && !strcmp(got, z->owner))
        return PB_OK;
    return pb_err_set(err, PB_ERUN, NULL, 0, 0,
                      "pool '%s' does not carry this run's mark "
                      "(poolbench:owner is '%s', expected '%s'); not "
                      "touching it",
                      z->plan->pool, rc == 0 ? got : "unreadable", z->owner);
}

/* DIR/import: the run's folder of links to its pools' loop devices. */
static char *import_dir(const struct pb_run_zfs *z)
{
    return pb_xasprintf("%s/import", z->dir && *z->dir ? z->dir : ".");
}

/* Link DIR/import/loopN -> /dev/loopN for each data and log vdev of the
 * pool on a loop device; the folder, or NULL when the pool has none. The
 * folder must be a real folder of this user that only it can write in;
 * links of an earlier run there are replaced. */
static char *import_links(struct pb_run_zfs *z)
{
    const struct pb_run_vdevs *lists[2] = {&z->plan->data, &z->plan->log};
    char *dir = NULL;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            const char *dev = lists[k]->v[i].dev;
            if (!dev)
                continue;
            if (!dir) {
                dir = import_dir(z);
                if (z->x->dry_run) {
                    pb_run_note(z->x, "link the pool's loop devices from %s",
                                dir);
                    return dir;
                }
                struct pb_err err = {0};
                if (pb_run_dir_ours(dir, 1, &err) != PB_OK) {
                    pb_run_note(z->x, "%s; importing from /dev instead",
                                err.msg);
                    free(dir);
                    return pb_xstrdup("/dev");
                }
                z->linked = 1;
            }
            const char *base = strrchr(dev, '/');
            char *link = pb_xasprintf("%s/%s", dir, base ? base + 1 : dev);
            struct stat st;
            if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode))
                unlink(link);
            if (symlink(dev, link) != 0 && errno != EEXIST)
                pb_run_note(z->x, "cannot link %s to %s: %s", link, dev,
                            strerror(errno));
            free(link);
        }
    return dir;
}

/* Remove the links of import_links() and their folder (when empty). */
static void import_unlink(struct pb_run_zfs *z)
{
    if (!z->linked || z->x->dry_run)
        return;
    char *dir = import_dir(z);
    const struct pb_run_vdevs *lists[2] = {&z->plan->data, &z->plan->log};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            const char *dev = lists[k]->v[i].dev;
            if (!dev)
                continue;
            const char *base = strrchr(dev, '/');
            char *link = pb_xasprintf("%s/%s", dir, base ? base + 1 : dev);
            struct stat st;
            if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode))
                unlink(link);
            free(link);
        }
    rmdir(dir); /* fails while another pool's links are there: fine */
    free(dir);
    z->linked = 0;
}

static void import_dirs(struct pb_run_zfs *z, struct pb_run_argv *a)
{
    const struct pb_run_vdevs *lists[3] = {&z->plan->data, &z->plan->log,
                                           &z->plan->cache};
    char **seen = NULL;
    size_t nseen = 0, cap = 0;
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < lists[k]->n; i++) {
            const char *path = lists[k]->v[i].path;
            if (lists[k]->v[i].dev)
                continue;
            const char *slash = strrchr(path, '/');
            char *dir = slash == path ? pb_xstrdup("/")
                                      : pb_xstrndup(path,
                                                    (size_t)(slash - path));
            int dup = 0;
            for (size_t j = 0; j < nseen && !dup; j++)
                dup = !strcmp(seen[j], dir);
            if (dup) {
                free(dir);
                continue;
            }
            PB_GROW(seen, cap, nseen + 1);
            seen[nseen++] = dir;
            pb_run_argv_add(a, "-d");
            pb_run_argv_add(a, dir);
        }
    for (size_t j = 0; j < nseen; j++)
        free(seen[j]);
    free(seen);
    /* Data and log vdevs on loop devices: `-d /dev` would make ZFS open
     * every device node there (other pools' loop devices, devices in use),
     * and an import that way hung beside another run. The pool's own loop
     * devices are linked from a folder of the run's own, and only that
     * folder is searched. The pool then names its vdevs by these links, so
     * they stay until the pool is destroyed. */
    char *idir = import_links(z);
    if (idir) {
        pb_run_argv_add(a, "-d");
        pb_run_argv_add(a, idir);
        free(idir);
    }
}

static int pool_import(struct pb_run_zfs *z, struct pb_run_res *res)
{
    struct pb_run_argv a = {0};
    pb_run_argv_add(&a, "zpool");
    pb_run_argv_add(&a, "import");
    import_dirs(z, &a);
    pb_run_argv_add(&a, z->plan->pool);
    int rc = cmd(z, &a, 0, res);
    pb_run_argv_release(&a);
    if (rc == 0)
        z->exported = 0;
    return rc;
}

/* Poll for a zvol's device node (udev creates it asynchronously). */
static int wait_dev(struct pb_run_zfs *z, const char *dev, int seconds)
{
    if (z->x->dry_run) {
        pb_run_note(z->x, "wait until %s appears", dev);
        return 0;
    }
    for (int i = 0; i < seconds * 10; i++) {
        if (access(dev, F_OK) == 0)
            return 0;
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

int pb_run_pool_cycle(struct pb_run_zfs *z, struct pb_err *err)
{
    int own = pb_run_owner_check(z, err);
    if (own != PB_OK)
        return own;
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    char w[200];
    pb_run_argv_add(&a, "zpool");
    pb_run_argv_add(&a, "export");
    pb_run_argv_add(&a, z->plan->pool);
    int rc = retry(z, &a, &res);
    pb_run_argv_release(&a);
    if (rc != 0) {
        pb_err_say(err, PB_ERUN, "zpool export failed: %s",
                   pb_run_res_why(&res, w, sizeof(w)));
        pb_run_res_release(&res);
        return PB_ERUN;
    }
    z->exported = 1;
    rc = pool_import(z, &res);
    if (rc != 0)
        pb_err_say(err, PB_ERUN, "zpool import failed: %s",
                   pb_run_res_why(&res, w, sizeof(w)));
    pb_run_res_release(&res);
    if (rc == 0 && z->plan->zvol && z->ds_created) {
        /* udev makes the zvol's node again after the import */
        char *dev = pb_run_zvol_dev(z->plan);
        rc = wait_dev(z, dev, 10);
        if (rc != 0)
            pb_err_say(err, PB_ERUN,
                       "the zvol device '%s' did not come back after "
                       "the import",
                       dev);
        free(dev);
    }
    return rc ? PB_ERUN : PB_OK;
}

int pb_run_ds_create(struct pb_run_zfs *z, const struct pb_run_cell *c,
                     struct pb_err *err)
{
    const struct pb_run_plan *p = z->plan;
    int own = pb_run_owner_check(z, err);
    if (own != PB_OK)
        return own;
    char *name = pb_run_ds_name(p);
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    pb_run_argv_add(&a, "zfs");
    pb_run_argv_add(&a, "create");
    const struct pb_run_section *ds = &p->sect[PB_RUN_DATA];
    size_t dc = c->combo[PB_RUN_DATA];
    if (p->zvol) {
        pb_run_argv_add(&a, "-V");
        pb_run_argv_add(&a, pb_run_value(p, PB_RUN_DATA, dc, "size"));
    }
    for (size_t i = 0; i < ds->n; i++) {
        if (p->zvol && !strcmp(ds->ax[i].key, "size"))
            continue;
        if (z->no_sync && !strcmp(ds->ax[i].key, "sync"))
            continue; /* fio sync=1 stands in (pb_run_sync_emulated) */
        pb_run_argv_add(&a, "-o");
        pb_run_argv_addf(&a, "%s=%s", ds->ax[i].key,
                         pb_run_axis_value(p, PB_RUN_DATA, dc, i));
    }
    pb_run_argv_add(&a, name);
    int rc = cmd(z, &a, 0, &res);
    pb_run_argv_release(&a);
    if (rc != 0) {
        char w[200];
        pb_err_say(err, PB_ERUN, "zfs create failed: %s",
                   pb_run_res_why(&res, w, sizeof(w)));
        pb_run_res_release(&res);
        free(name);
        return PB_ERUN;
    }
    z->ds_created = 1;
    pb_run_res_release(&res);
    free(name);
    if (p->zvol) {
        char *dev = pb_run_zvol_dev(p);
        rc = wait_dev(z, dev, 10);
        if (rc != 0)
            pb_err_say(err, PB_ERUN, "the zvol device '%s' did not appear",
                       dev);
        free(dev);
        if (rc != 0)
            return PB_ERUN;
    }
    return PB_OK;
}

int pb_run_ds_destroy(struct pb_run_zfs *z)
{
    if (!z->ds_created || z->exported || z->suspended)
        return 0;
    if (z->gone)
        return -1;
    struct pb_err err = {0};
    if (pb_run_owner_check(z, &err) != 0)
        return -1;
    char *name = pb_run_ds_name(z->plan);
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    pb_run_argv_add(&a, "zfs");
    pb_run_argv_add(&a, "destroy");
    pb_run_argv_add(&a, name);
    int rc = retry(z, &a, &res);
    pb_run_argv_release(&a);
    pb_run_res_release(&res);
    free(name);
    if (rc == 0)
        z->ds_created = 0;
    return rc ? -1 : 0;
}

int pb_run_pool_destroy(struct pb_run_zfs *z, struct pb_err *err)
{
    int ret = PB_OK;
    struct pb_run_res res = {0};
    if (z->created && z->suspended) {
        z->created = 0;
        z->nfiles = 0; /* the pool still uses them */
        return suspended_err(z, err);
    }
    if ((z->created || z->nfiles) && z->gone) {
        z->created = 0;
        z->nfiles = 0; /* the manifest keeps them for pb_run_cleanup() */
        return gone_err(z, err);
    }
    if (z->created) {
        int files_only = 1;
        for (size_t i = 0; i < z->plan->data.n; i++)
            files_only &= z->plan->data.v[i].is_file;
        /* An exported pool of sparse files vanishes with its files; on
         * real devices it is imported again to be destroyed. */
        if (z->exported && !files_only && pool_import(z, &res) != 0)
            ret = PB_ERUN; /* the log has the import's failure */
        if (!z->exported) {
            int own = pb_run_owner_check(z, err);
            if (own != PB_OK) {
                pb_run_res_release(&res);
                z->created = 0;
                return own; /* never remove files under a foreign pool */
            }
            struct pb_run_argv a = {0};
            pb_run_argv_add(&a, "zpool");
            pb_run_argv_add(&a, "destroy");
            pb_run_argv_add(&a, z->plan->pool);
            int rc = retry(z, &a, &res);
            pb_run_argv_release(&a);
            if (rc != 0) {
                char w[200];
                pb_err_set(err, PB_ERUN, NULL, 0, 0,
                           "cannot destroy pool '%s': %s", z->plan->pool,
                           pb_run_res_why(&res, w, sizeof(w)));
                pb_run_res_release(&res);
                return PB_ERUN; /* its files stay: the pool uses them */
            }
            pb_run_manifest_add(z->manifest, "destroyed", z->owner,
                                z->plan->pool);
        }
        z->created = 0;
        z->exported = 0;
        z->ds_created = 0;
        import_unlink(z);
    }
    pb_run_res_release(&res);
    remove_files(z);
    return ret;
}

int pb_run_zvol_probe(struct pb_run_zfs *z, struct pb_err *err)
{
    int own = pb_run_owner_check(z, err);
    if (own != PB_OK)
        return own;
    char *name = pb_xasprintf("%s/pbprobe", z->plan->pool);
    char *dev = pb_xasprintf("/dev/zvol/%s", name);
    struct pb_run_argv a = {0};
    struct pb_run_res res = {0};
    pb_run_argv_add(&a, "zfs");
    pb_run_argv_add(&a, "create");
    pb_run_argv_add(&a, "-V");
    pb_run_argv_add(&a, "4M");
    pb_run_argv_add(&a, name);
    int rc = cmd(z, &a, 0, &res);
    pb_run_argv_release(&a);
    int ok = 0;
    if (rc != 0) {
        char w[200];
        pb_err_say(err, PB_ERUN,
                   "zvols cannot be created here (%s: 'zfs create "
                   "-V' failed: %s)",
                   pb_run_impl_name(z->impl),
                   pb_run_res_why(&res, w, sizeof(w)));
    } else {
        ok = wait_dev(z, dev, 10) == 0;
        if (!ok)
            pb_err_say(err, PB_ERUN,
                       "zvols have no device node here (%s: '%s' "
                       "did not appear)",
                       pb_run_impl_name(z->impl), dev);
    }
    /* remove the probe if zfs left it behind, even after a failure */
    pb_run_argv_add(&a, "zfs");
    pb_run_argv_add(&a, "list");
    pb_run_argv_add(&a, "-H");
    pb_run_argv_add(&a, "-o");
    pb_run_argv_add(&a, "name");
    pb_run_argv_add(&a, name);
    int exists = cmd(z, &a, PB_RUN_CAPTURE, &res) == 0;
    pb_run_argv_release(&a);
    if (exists) {
        pb_run_argv_add(&a, "zfs");
        pb_run_argv_add(&a, "destroy");
        pb_run_argv_add(&a, name);
        retry(z, &a, &res);
        pb_run_argv_release(&a);
    }
    pb_run_res_release(&res);
    free(name);
    free(dev);
    return ok ? PB_OK : PB_ERUN;
}
