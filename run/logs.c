/* fio logs of a run ([fio] log = bw, iops, lat, hist): the options that
 * make fio write them next to the cell's JSON, and their ingest with the
 * cell (docs/plan-format.md, "log"). */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const struct {
    const char *name, *option;
    unsigned bit;
} logs[] = {
    {"bw", "write_bw_log", PB_RUN_LOG_BW},
    {"iops", "write_iops_log", PB_RUN_LOG_IOPS},
    {"lat", "write_lat_log", PB_RUN_LOG_LAT},
    {"hist", "write_hist_log", PB_RUN_LOG_HIST},
};
#define NLOGS (sizeof(logs) / sizeof(logs[0]))

int pb_run_logs_parse(const char *v, unsigned *bits, char *bad, size_t n)
{
    const char *p = v;
    while (*p) {
        p += strspn(p, " \t,");
        if (!*p)
            break;
        size_t k = strcspn(p, " \t,");
        size_t i = 0;
        for (; i < NLOGS; i++)
            if (strlen(logs[i].name) == k && !strncasecmp(p, logs[i].name, k))
                break;
        if (i == NLOGS) {
            snprintf(bad, n, "%.*s", (int)k, p);
            return -1;
        }
        *bits |= logs[i].bit;
        p += k;
    }
    return 0;
}

void pb_run_log_args(const struct pb_run_plan *p, const char *prefix,
                     struct pb_run_argv *a)
{
    for (size_t i = 0; i < NLOGS; i++)
        if (p->logs & logs[i].bit)
            pb_run_argv_addf(a, "--%s=%s", logs[i].option, prefix);
    /* a histogram log needs an interval: fio's default 0 logs none */
    if ((p->logs & PB_RUN_LOG_HIST) &&
        !pb_run_value(p, PB_RUN_FIO, 0, "log_hist_msec"))
        pb_run_argv_add(a, "--log_hist_msec=1000");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t pb_run_logs_ingest(const char *prefix, const struct pb_ingest_opts *io,
                          const struct pb_resultset *json,
                          struct pb_resultset ***sets, size_t *n, size_t *cap,
                          struct pb_err *warn)
{
    char *dir = pb_xstrdup(prefix);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : prefix;
    if (slash)
        *slash = '\0';
    DIR *dp = opendir(slash ? dir : ".");
    size_t got = 0;
    if (!dp) {
        free(dir);
        return 0;
    }
    size_t bl = strlen(base);
    char **names = NULL;
    size_t nn = 0, cn = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, base, bl) || e->d_name[bl] != '_' || l < 4 ||
            strcmp(e->d_name + l - 4, ".log"))
            continue;
        PB_GROW(names, cn, nn + 1);
        names[nn++] = pb_xstrdup(e->d_name);
    }
    closedir(dp);
    if (nn)
        qsort(names, nn, sizeof(*names), cmp_str);
    for (size_t i = 0; i < nn; i++) {
        char *path = pb_xasprintf("%s/%s", slash ? dir : ".", names[i]);
        struct stat st;
        struct pb_resultset *set = NULL;
        struct pb_err e2 = {0};
        if (stat(path, &st) != 0 || st.st_size == 0) {
            /* fio writes an empty slat log for sync engines */
        } else if (pb_ingest_file(path, io, &set, &e2) != PB_OK) {
            pb_err_clear(warn); /* the last one is said */
            pb_err_say(warn, PB_EINPUT, "%s:%ld: %s", path, e2.line, e2.msg);
        } else {
            /* the run's name of the test (patch_tests), not fio's */
            if (json && json->ntests == 1 && set->ntests == 1) {
                struct pb_test *t = &set->tests[0];
                const struct pb_test *jt = &json->tests[0];
                t->name = pb_rs_str(set, jt->name);
                t->tool = pb_rs_str(set, jt->tool);
                t->nparams = 0;
                for (size_t k = 0; k < jt->nparams; k++)
                    pb_rs_test_param(set, 0, jt->params[k].key,
                                     jt->params[k].value);
            }
            PB_GROW(*sets, *cap, *n + 1);
            (*sets)[(*n)++] = set;
            got++;
        }
        free(path);
        free(names[i]);
    }
    free(names);
    free(dir);
    return got;
}
