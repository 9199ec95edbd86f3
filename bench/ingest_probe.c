/* Split ingest time into its stages for profiling: the parallel walk
 * (read + SHA-256 + sniff + parse + label rules) with a callback that only
 * counts, optionally followed by storing into a database. Part of bench/,
 * linked against a build's libpb_*.a; not part of poolbench or ctest.
 *
 *   ingest_probe [-j N] [--no-rules] [--db FILE] PATH...
 *
 * Prints: files=N results=R walk_s=W (and store_s when --db is given, the
 * time spent inside pb_db_store on the walk's thread). */
#define _POSIX_C_SOURCE 200809L
#include "ingest/ingest.h"
#include "model/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct probe {
    struct pb_db *db;
    size_t files, results, errors;
    double store_s;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int on_file(void *vctx, const char *path, struct pb_resultset *set,
                   const struct pb_err *err)
{
    struct probe *p = vctx;
    (void)path;
    if (!set) {
        p->errors++;
        pb_err_print(err, stderr);
        return 0;
    }
    p->files++;
    p->results += set->nresults;
    if (p->db) {
        struct pb_err e = {0};
        size_t n = 0;
        double t0 = now();
        int rc = pb_db_store(p->db, set, &n, &e);
        p->store_s += now() - t0;
        if (rc != PB_OK && rc != PB_EDUP) {
            pb_err_print(&e, stderr);
            exit(3);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct pb_ingest_opts io = {0};
    struct probe p = {0};
    struct pb_label_rules *rules = NULL;
    const char *dbpath = NULL;
    int use_rules = 1, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-j") && i + 1 < argc)
            io.threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-rules"))
            use_rules = 0;
        else if (!strcmp(argv[i], "--db") && i + 1 < argc)
            dbpath = argv[++i];
        else
            break;
    }
    if (i >= argc) {
        fputs("usage: ingest_probe [-j N] [--no-rules] [--db FILE] PATH...\n",
              stderr);
        return 2;
    }
    struct pb_err err = {0};
    if (use_rules && pb_label_rules_load(NULL, &rules, &err) != PB_OK) {
        pb_err_print(&err, stderr);
        return 3;
    }
    io.rules = rules;
    if (dbpath && pb_db_open(dbpath, 0, &p.db, &err) != PB_OK) {
        pb_err_print(&err, stderr);
        return 3;
    }
    double t0 = now();
    if (pb_ingest_walk((const char *const *)argv + i, (size_t)(argc - i), &io,
                       on_file, &p) != PB_OK)
        p.errors++;
    double walk_s = now() - t0;
    pb_db_close(p.db);
    pb_label_rules_free(rules);
    printf("files=%zu results=%zu errors=%zu walk_s=%.3f", p.files,
           p.results, p.errors, walk_s);
    if (dbpath)
        printf(" store_s=%.3f", p.store_s);
    putchar('\n');
    return p.errors ? 1 : 0;
}
