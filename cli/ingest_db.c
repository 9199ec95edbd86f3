/* poolbench ingest OTHER.db: the sources of another poolbench database,
 * handed one by one to ingest's per-file callback (model/merge.c reads
 * them; docs/model.md, "Merging databases"). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_ingest_db(const char *path, int quiet,
                  int (*cb)(void *ctx, const char *path,
                            struct pb_resultset *set,
                            const struct pb_err *err),
                  void *ctx, struct pb_db_merge **cur, struct pb_err *err)
{
    struct pb_db_merge *m = NULL;
    int rc = pb_db_merge_open(path, &m, err);
    if (rc)
        return rc;
    if (!quiet) {
        fputs("merge ", stdout);
        pb_fput_term(path, stdout);
        printf(": poolbench database, %zu sources\n", pb_db_merge_count(m));
    }
    *cur = m;
    struct pb_resultset *set = NULL;
    while ((rc = pb_db_merge_next(m, &set, err)) == PB_OK && set) {
        /* shown as OTHER.db[SOURCE PATH]; stored with the source's path */
        char *shown = pb_xasprintf("%s[%s]", path, set->path);
        int kept = cb(ctx, shown, set, NULL);
        free(shown);
        if (!kept)
            pb_resultset_free(set);
        set = NULL;
    }
    *cur = NULL;
    pb_db_merge_close(m);
    return rc;
}

/* ==== the output folder of `poolbench run` ==== */

static int is_file(const char *dir, const char *name, int want_dir)
{
    char *p = pb_xasprintf("%s/%s", dir, name);
    struct stat st;
    int ok = lstat(p, &st) == 0 &&
             (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    free(p);
    return ok;
}

int cli_is_run_dir(const char *path)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || stat(path, &st) != 0 ||
        !S_ISDIR(st.st_mode))
        return 0;
    return is_file(path, "plan.ini", 0) && is_file(path, "raw", 1) &&
           (is_file(path, "commands.log", 0) ||
            is_file(path, "manifest.tsv", 0));
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_ingest_run_dir(const char *path, const char *db_path, int quiet,
                       int (*cb)(void *ctx, const char *path,
                                 struct pb_resultset *set,
                                 const struct pb_err *err),
                       void *ctx, struct pb_db_merge **cur, int *refused)
{
    DIR *d = opendir(path);
    char **dbs = NULL;
    size_t n = 0, cap = 0, merged = 0;
    int bad = 0;
    struct stat self = {0};
    int have_self = db_path && stat(db_path, &self) == 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char *p = pb_xasprintf("%s%s%s", path,
                               path[strlen(path) - 1] == '/' ? "" : "/",
                               de->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
            !(have_self && st.st_dev == self.st_dev &&
              st.st_ino == self.st_ino) &&
            pb_db_merge_sniff(p)) {
            PB_GROW(dbs, cap, n + 1);
            dbs[n++] = p;
        } else {
            free(p);
        }
    }
    if (d)
        closedir(d);
    if (n > 1)
        qsort(dbs, n, sizeof(*dbs), cmp_name);
    for (size_t i = 0; i < n; i++) {
        struct pb_err e = {0};
        if (cli_ingest_db(dbs[i], quiet, cb, ctx, cur, &e)) {
            pb_err_print(&e, stderr);
            *refused = 1;
            bad = 1;
        } else {
            merged++;
        }
        free(dbs[i]);
    }
    free(dbs);
    if (!merged && !bad) {
        struct pb_err e = {0};
        pb_err_set(&e, PB_EINPUT, path, 0, 0,
                   "a `poolbench run` output folder without its database: "
                   "its raw files lack the run's dimensions (plan, ashift, "
                   "folded repeats); ingest the run's database, or name its "
                   "raw/ folder to store them without");
        pb_err_print(&e, stderr);
        return PB_EINPUT;
    }
    return bad ? PB_EDB : PB_OK;
}
