/* What a cell records about itself besides fio's numbers: the experiment
 * (every fio option and ZFS property it used, its raw files), the space
 * figures taken once the data is on the pool (sync, then `zpool sync` or
 * an export/import), the compression check against fio's
 * buffer_compress_percentage, whether its working set fits in the cache,
 * the headline printed when it finishes, and the dry run's estimate. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RATIO_TOLERANCE 0.10 /* achieved vs implied compressratio */

/* Per repeat, measured here on zfs-fuse (quick.ini): layout, cache drop
 * (export/import), settling and `zfs get` take 4-6 s besides fio's
 * runtime; a dataset create/destroy about 1 s, a pool 2-3 s. */
#define EST_REPEAT_S 5.0
#define EST_CELL_S 2.0
#define EST_POOL_S 3.0

/* ==== the experiment ==== */

/* Fact key of set: the "key=value" settings of section sect in cell c,
 * or dflt when the plan sets none. */
static void section_fact(const struct pb_run_plan *p,
                         const struct pb_run_cell *c, enum pb_run_sect sect,
                         struct pb_resultset *set, const char *key,
                         const char *dflt)
{
    struct pb_buf b = PB_BUF_INIT;
    const struct pb_run_section *s = &p->sect[sect];
    for (size_t i = 0; i < s->n; i++)
        pb_buf_printf(&b, "%s%s=%s", b.len ? " " : "", s->ax[i].key,
                      pb_run_axis_value(p, sect, c->combo[sect], i));
    pb_rs_fact(set, NULL, key, b.len ? pb_buf_str(&b) : dflt);
    pb_buf_release(&b);
}

void pb_run_cell_facts(const struct pb_run_plan *p, const struct pb_run_cell *c,
                       const char *fio_command, const char *raw_files,
                       struct pb_resultset *set)
{
    if (!set)
        return;
    char buf[64];
    snprintf(buf, sizeof(buf), "%zu/%zu", c->index + 1, p->ncells);
    pb_rs_fact(set, NULL, "run.cell", buf);
    if (fio_command)
        pb_rs_fact(set, NULL, "run.fio_command", fio_command);
    section_fact(p, c, PB_RUN_DATA, set, "run.zfs_properties", "(defaults)");
    section_fact(p, c, PB_RUN_POOL, set, "run.pool_options",
                 "(defaults: stripe)");
    if (raw_files)
        pb_rs_fact(set, NULL, "run.raw_files", raw_files);
}

void pb_run_keep_plan(const struct pb_run_plan *p, const char *dir,
                      struct pb_resultset *facts)
{
    char *buf;
    size_t len;
    struct pb_err e = {0};
    if (pb_read_file(p->path, &buf, &len, &e) != PB_OK)
        return;
    char *dst = pb_xasprintf("%s/plan.ini", dir);
    FILE *fp = pb_run_fopen_out(dst, 0);
    if (fp) {
        int ok = fwrite(buf, 1, len, fp) == len;
        if (fclose(fp) == 0 && ok)
            pb_rs_fact(facts, NULL, "run_plan_copy", dst);
    }
    free(dst);
    free(buf);
}

/* The tests of the properties captured after a cell ("zfs space", "zpool
 * space", "zpool status") get the cell's workload in their name: the
 * space and compression a randwrite cell leaves are not those of a
 * randread cell, and the report must not average them. */
void pb_run_props_retest(struct pb_resultset *props, const char *test)
{
    if (!props)
        return;
    for (size_t t = 0; t < props->ntests; t++) {
        char *name = pb_xasprintf("%s after %s", props->tests[t].name, test);
        props->tests[t].name = pb_rs_str(props, name);
        free(name);
    }
}

/* ==== space once the data is on the pool ==== */

int pb_run_settle(struct pb_run_zfs *z, struct pb_err *err)
{
    struct pb_run_res res = {0};
    const char *sync_argv[] = {"sync", NULL};
    pb_run_cmd(z->x, sync_argv, 0, &res);
    pb_run_res_release(&res);
    if (z->impl == PB_RUN_IMPL_OPENZFS) {
        /* zpool sync waits until the dirty data is written */
        const char *zs[] = {"zpool", "sync", z->plan->pool, NULL};
        int rc = pb_run_cmd(z->x, zs, 0, &res);
        pb_run_res_release(&res);
        if (rc == 0)
            return PB_OK;
    }
    /* zfs-fuse has no `zpool sync`, and neither `sync` nor waiting out
     * zfs_txg_timeout (measured: 6 s) gets a randwrite's data counted;
     * an export writes everything */
    pb_run_note(z->x, "settle: export/import so that zfs get sees the data "
                "on disk");
    return pb_run_pool_cycle(z, err);
}

void pb_run_layout_space(struct pb_run_exec *x, const char *ds,
                         struct pb_run_dsspace *out)
{
    memset(out, 0, sizeof(*out));
    const char *argv[] = {"zfs", "get", "-Hp", "-o", "property,value",
                          "used,referenced,compressratio", ds, NULL};
    struct pb_run_res res = {0};
    if (pb_run_cmd(x, argv, PB_RUN_CAPTURE, &res) == 0 && !x->dry_run) {
        const char *s = pb_buf_str(&res.out);
        while (*s) {
            size_t k = strcspn(s, "\n");
            const char *tab = memchr(s, '\t', k);
            if (tab) {
                double v = strtod(tab + 1, NULL); /* "3.80x" reads 3.80 */
                if (!strncmp(s, "used\t", 5))
                    out->used = v;
                else if (!strncmp(s, "referenced\t", 11))
                    out->referenced = v;
                else if (!strncmp(s, "compressratio\t", 14))
                    out->ratio = v;
            }
            s += k;
            if (*s)
                s++;
        }
        out->valid = out->ratio > 0;
    }
    pb_run_res_release(&res);
}

static const struct pb_result *find_metric(const struct pb_resultset *set,
                                           const char *metric)
{
    for (size_t i = 0; i < set->nresults; i++)
        if (!strcmp(set->results[i].metric, metric) &&
            set->results[i].has_value)
            return &set->results[i];
    return NULL;
}

static const char *config_value(const struct pb_resultset *set,
                                const char *key)
{
    for (size_t c = 0; c < set->nconfigs; c++)
        for (size_t i = 0; i < set->configs[c].nparams; i++)
            if (!strcmp(set->configs[c].params[i].key, key))
                return set->configs[c].params[i].value;
    return NULL;
}

int pb_run_ratio_check(double pct, double ratio, char *buf, size_t n)
{
    double implied = 100 / (100 - pct);
    double dev = ratio / implied - 1;
    int bad = fabs(dev) > RATIO_TOLERANCE;
    snprintf(buf, n, "compressratio %.2fx after sync; "
             "buffer_compress_percentage=%g implies %.2fx (%+.0f%%%s)",
             ratio, pct, implied, dev * 100,
             bad ? ", more than 10% off" : ": within 10%");
    return bad;
}

void pb_run_compression_check(const struct pb_run_plan *p, size_t fio_combo,
                              const struct pb_run_dsspace *layout,
                              struct pb_resultset *props)
{
    if (!props)
        return;
    char num[64], buf[512];
    if (layout && layout->valid) {
        pb_rs_fact(props, NULL, "after_layout.compressratio",
                   pb_fmt_num(layout->ratio, num, sizeof(num)));
        pb_rs_fact(props, NULL, "after_layout.used",
                   pb_fmt_num(layout->used, num, sizeof(num)));
    }
    const char *pv = pb_run_value(p, PB_RUN_FIO, fio_combo,
                                  "buffer_compress_percentage");
    const struct pb_result *r = find_metric(props, "compressratio");
    const char *comp = config_value(props, "compression");
    if (!pv || !r)
        return;
    char *end;
    double pct = strtod(pv, &end);
    if (*end || pct < 0 || pct >= 100)
        return;
    if (!comp || !strcmp(comp, "off")) {
        pb_rs_fact(props, NULL, "compression_check",
                   "compression is off: nothing to compare");
        return;
    }
    const struct pb_result *used = find_metric(props, "used");
    if (used && used->value < 1024 * 1024) {
        pb_rs_fact(props, NULL, "compression_check",
                   "less than 1 MiB on the dataset: not compared");
        return;
    }
    int bad = pb_run_ratio_check(pct, r->value, buf, sizeof(buf));
    /* a likely cause: a record of few sectors cannot shrink by much, each
     * compressed record takes whole 2^ashift sectors */
    const char *rs = config_value(props, "recordsize");
    const char *vb = config_value(props, "volblocksize");
    const char *as = config_value(props, "ashift");
    double rec = rs ? strtod(rs, NULL) : vb ? strtod(vb, NULL) : 0;
    long sh = as ? strtol(as, NULL, 10) : 0;
    if (bad && rec > 0 && sh >= 9 && sh <= 16 && rec / ldexp(1, (int)sh) < 8) {
        size_t k = strlen(buf);
        char b1[32], b2[32];
        snprintf(buf + k, sizeof(buf) - k, "; a %s record at ashift %ld is "
                 "%g sectors of %s: compressed records are rounded up to "
                 "whole sectors",
                 pb_run_fmt_bytes(rec, b1, sizeof(b1)), sh,
                 rec / ldexp(1, (int)sh),
                 pb_run_fmt_bytes(ldexp(1, (int)sh), b2, sizeof(b2)));
    }
    pb_rs_fact(props, NULL, bad ? "flag.compression_mismatch"
                                : "compression_check", buf);
}

/* ==== cache honesty ==== */

static double fio_num(const struct pb_run_plan *p, size_t combo,
                      const char *key, double dflt)
{
    const char *v = pb_run_value(p, PB_RUN_FIO, combo, key);
    if (!v)
        return dflt;
    char *end;
    double d = strtod(v, &end);
    return *end ? dflt : d;
}

double pb_run_working_set(const struct pb_run_plan *p, size_t fio_combo)
{
    const char *sz = pb_run_value(p, PB_RUN_FIO, fio_combo, "size");
    double b;
    if (!sz || strchr(sz, '%') || pb_parse_size(sz, 0, &b) != 0)
        return -1;
    return b * fio_num(p, fio_combo, "numjobs", 1);
}

void pb_run_cache_check(const struct pb_run_plan *p, size_t fio_combo,
                        const struct pb_run_telrun *tr,
                        struct pb_resultset *set)
{
    if (!set)
        return;
    double ws = pb_run_working_set(p, fio_combo);
    if (ws < 0 || tr->cache <= 0)
        return;
    char num[64], b1[32], b2[32];
    pb_rs_fact(set, NULL, "working_set_bytes", pb_fmt_num(ws, num, sizeof(num)));
    const char *sz = pb_run_value(p, PB_RUN_FIO, fio_combo, "size");
    const char *rw = pb_run_value(p, PB_RUN_FIO, fio_combo, "rw");
    int writes = rw && (strstr(rw, "write") || !strcmp(rw, "rw") ||
                        !strcmp(rw, "randrw") || strstr(rw, "trim"));
    int synced = fio_num(p, fio_combo, "end_fsync", 0) > 0 ||
                 fio_num(p, fio_combo, "fsync", 0) > 0 ||
                 fio_num(p, fio_combo, "sync", 0) > 0 ||
                 fio_num(p, fio_combo, "fdatasync", 0) > 0;
    char *v;
    if (ws <= tr->cache) {
        v = pb_xasprintf("working set %s (size %s x numjobs %g) fits in the "
                         "cache: %s%s",
                         pb_run_fmt_bytes(ws, b1, sizeof(b1)), sz,
                         fio_num(p, fio_combo, "numjobs", 1), tr->cache_what,
                         writes && !synced
                             ? "; its writes are not synced (no end_fsync, "
                               "fsync or sync): they may end in dirty data "
                               "in memory"
                             : "");
        pb_rs_fact(set, NULL, "flag.fits_in_cache", v);
    } else {
        v = pb_xasprintf("working set %s is larger than the cache (%s)",
                         pb_run_fmt_bytes(ws, b1, sizeof(b1)),
                         pb_run_fmt_bytes(tr->cache, b2, sizeof(b2)));
        pb_rs_fact(set, NULL, "cache_check", v);
    }
    free(v);
}

int pb_run_cell_reads(const struct pb_run_plan *p, size_t fio_combo)
{
    const char *rw = pb_run_value(p, PB_RUN_FIO, fio_combo, "rw");
    if (!rw)
        rw = pb_run_value(p, PB_RUN_FIO, fio_combo, "readwrite");
    if (!rw)
        return 1; /* fio's default is read */
    return strstr(rw, "read") || !strcmp(rw, "rw") || !strcmp(rw, "randrw");
}

/* ==== progress and estimate ==== */

static void fmt_rate(double v, const char *unit, char *buf, size_t n)
{
    if (v >= 1e6)
        snprintf(buf, n, "%.2fM %s", v / 1e6, unit);
    else if (v >= 1e3)
        snprintf(buf, n, "%.1fk %s", v / 1e3, unit);
    else
        snprintf(buf, n, "%.0f %s", v, unit);
}

void pb_run_headline(const struct pb_resultset *set, const struct pb_run_tel *t,
                     struct pb_buf *b)
{
    static const char *const dirs[] = {"read", "write", "trim", NULL};
    char m[32], b1[32], b2[32];
    int any = 0;
    for (size_t d = 0; dirs[d] && set; d++) {
        snprintf(m, sizeof(m), "%s_iops", dirs[d]);
        const struct pb_result *io = find_metric(set, m);
        snprintf(m, sizeof(m), "%s_bw", dirs[d]);
        const struct pb_result *bw = find_metric(set, m);
        if (!io || io->value <= 0)
            continue;
        fmt_rate(io->value, "IOPS", b1, sizeof(b1));
        pb_buf_printf(b, "%s%s %s %s/s", any ? ", " : "", dirs[d], b1,
                      bw ? pb_run_fmt_bytes(bw->value, b2, sizeof(b2)) : "?");
        any = 1;
    }
    if (!any)
        pb_buf_puts(b, "no I/O");
    if (t && t->have_pool)
        pb_buf_printf(b, "; pool read %s/s write %s/s",
                      pb_run_fmt_bytes(t->pool_rbw, b1, sizeof(b1)),
                      pb_run_fmt_bytes(t->pool_wbw, b2, sizeof(b2)));
    if (t && t->have_ratio)
        pb_buf_printf(b, "; ARC hits %.1f%%", t->arc_ratio);
}

double pb_run_estimate(const struct pb_run_plan *p, enum pb_run_impl impl,
                       int *unknown)
{
    double total = 0;
    size_t last_pool = (size_t)-1;
    *unknown = 0;
    for (size_t i = 0; i < p->ncells; i++) {
        struct pb_run_cell c;
        char why[256];
        pb_run_cell_at(p, i, &c);
        if (pb_run_static_skip(p, &c, impl, why, sizeof(why)))
            continue; /* known not to run here */
        if (c.combo[PB_RUN_POOL] != last_pool) {
            total += EST_POOL_S;
            last_pool = c.combo[PB_RUN_POOL];
        }
        size_t fc = c.combo[PB_RUN_FIO];
        const char *rt = pb_run_value(p, PB_RUN_FIO, fc, "runtime");
        const char *ramp = pb_run_value(p, PB_RUN_FIO, fc, "ramp_time");
        double ns = 0, rns = 0, run_s;
        if (rt && pb_parse_duration(rt, 1e9, &ns) == 0) {
            run_s = ns / 1e9;
        } else {
            run_s = 0; /* as long as its size takes: not known */
            (*unknown)++;
        }
        if (ramp && pb_parse_duration(ramp, 1e9, &rns) == 0)
            run_s += rns / 1e9;
        total += EST_CELL_S + (double)p->repeats * (run_s + EST_REPEAT_S);
    }
    return total;
}
