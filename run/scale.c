/* --time-scale: a plan scaled down for a smoke run (fio runtimes and
 * sizes, zvol sizes, repeats), so that a long study can be tried whole in
 * minutes with the same matrix. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static void set_value(char **v, const char *fmt, double x)
{
    char buf[64];
    snprintf(buf, sizeof(buf), fmt, x);
    free(*v);
    *v = pb_xstrdup(buf);
}

/* The largest block size an fio value of bs names ("4k", "4k,64k"). */
static double max_bs(const struct pb_run_section *f)
{
    double mx = 4096;
    for (size_t a = 0; a < f->n; a++) {
        if (strcmp(f->ax[a].key, "bs") && strcmp(f->ax[a].key, "blocksize"))
            continue;
        for (size_t j = 0; j < f->ax[a].nvals; j++) {
            const char *q = f->ax[a].vals[j];
            while (*q) {
                char one[64];
                size_t k = strcspn(q, ",");
                snprintf(one, sizeof(one), "%.*s", (int)k, q);
                double b;
                if (pb_parse_size(one, 0, &b) == 0 && b > mx)
                    mx = b;
                q += k + (q[k] == ',');
            }
        }
    }
    return mx;
}

static void scale_size(char **v, double f, double floor_b)
{
    double b;
    if (pb_parse_size(*v, 0, &b) != 0 || b <= floor_b)
        return; /* "50%" and the like, or already small */
    double s = floor(b * f / MIB) * MIB;
    if (s < floor_b)
        s = floor_b;
    if (fmod(s, MIB) == 0)
        set_value(v, "%.0fm", s / MIB);
    else
        set_value(v, "%.0f", s);
}

static void scale_time(char **v, double f)
{
    double ns;
    if (pb_parse_duration(*v, 1e9, &ns) != 0)
        return;
    double s = round(ns / 1e9 * f);
    set_value(v, "%.0f", s < 1 ? 1 : s);
}

int pb_run_plan_scale(struct pb_run_plan *p, double f, struct pb_err *err)
{
    if (!(f > 0 && f <= 1))
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "--time-scale wants "
                          "a number above 0 and at most 1, got %g", f);
    p->time_scale = f;
    if (f == 1)
        return PB_OK;
    struct pb_run_section *fs = &p->sect[PB_RUN_FIO];
    double bs = max_bs(fs);
    double floor_b = ceil(bs / MIB) * MIB;
    for (size_t a = 0; a < fs->n; a++) {
        struct pb_run_axis *ax = &fs->ax[a];
        for (size_t j = 0; j < ax->nvals; j++) {
            if (!strcmp(ax->key, "size") || !strcmp(ax->key, "io_size") ||
                !strcmp(ax->key, "filesize"))
                scale_size(&ax->vals[j], f, floor_b);
            else if (!strcmp(ax->key, "runtime") ||
                     !strcmp(ax->key, "ramp_time"))
                scale_time(&ax->vals[j], f);
        }
    }
    if (p->zvol) {
        struct pb_run_section *ds = &p->sect[PB_RUN_DATA];
        for (size_t a = 0; a < ds->n; a++)
            if (!strcmp(ds->ax[a].key, "size"))
                for (size_t j = 0; j < ds->ax[a].nvals; j++)
                    scale_size(&ds->ax[a].vals[j], f, 16 * MIB);
    }
    long r = lround((double)p->repeats * f);
    if (!p->repeats_auto) /* auto: its maximum stays (repeat.c) */
        p->repeats = r < 1 ? 1 : r;
    return PB_OK;
}
