/* The "Experiment" section: for results made by `poolbench run`, one row
 * per cell with every fio option and ZFS property it used, its flags
 * (fits in cache, served from ARC, compression mismatch) and links to its
 * raw outputs, and per run links to the plan and commands.log, relative to
 * the report's folder. Built from the facts the run stores with each
 * cell. */
#define _GNU_SOURCE
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_sections.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ==== facts ==== */

int rp_cell_fact(const char *key)
{
    static const char *const prefixes[] = {
        "run.", "flag.", "zpool_iostat", "arc.", "after_layout.",
        "repeats_", NULL};
    static const char *const keys[] = {"compression_check", "cache_check",
                                       "working_set_bytes", "cell_seq", NULL};
    for (size_t i = 0; prefixes[i]; i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
            return 1;
    for (size_t i = 0; keys[i]; i++)
        if (!strcmp(key, keys[i]))
            return 1;
    return 0;
}

static int source_used(const struct rp_data *d, long long id)
{
    for (size_t i = 0; i < d->nsources; i++)
        if (d->sources[i].id == id)
            return d->sources[i].used;
    return 0;
}

int rp_has_experiment(const struct rp_data *d)
{
    for (size_t i = 0; i < d->nfacts; i++)
        if (!strcmp(d->facts[i].key, "run.cell") &&
            source_used(d, d->facts[i].source_id))
            return 1;
    return 0;
}

/* ==== links ==== */

/* path relative to the folder `from` (both absolute), into buf. */
static const char *rel_path(const char *from, const char *path, char *buf,
                            size_t n)
{
    if (path[0] != '/' || from[0] != '/') {
        snprintf(buf, n, "%s", path);
        return buf;
    }
    /* the longest common folder prefix */
    size_t i = 0, last = 0;
    while (from[i] && path[i] && from[i] == path[i]) {
        if (from[i] == '/')
            last = i;
        i++;
    }
    if (!from[i] && path[i] == '/')
        last = i;
    struct pb_buf b = PB_BUF_INIT;
    for (const char *q = from + last; *q; q++)
        if (*q == '/' && q[1])
            pb_buf_puts(&b, "../");
    pb_buf_puts(&b, path + last + 1);
    snprintf(buf, n, "%s", pb_buf_str(&b));
    pb_buf_release(&b);
    return buf;
}

/* ==== the section ==== */

struct xcell {
    const char *dir;  /* the run's folder (source path minus /raw/FILE) */
    long idx;         /* cell number */
    const char *cell; /* "3/12" */
    long long fio, props; /* source ids, 0 = none */
};

static int cmp_xcell(const void *a, const void *b)
{
    const struct xcell *x = a, *y = b;
    int c = strcmp(x->dir, y->dir);
    if (c)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static const char *run_dir(struct pb_arena *a, const char *path)
{
    const char *raw = strstr(path, "/raw/");
    if (!raw)
        return NULL;
    const char *next;
    while ((next = strstr(raw + 1, "/raw/")) != NULL)
        raw = next;
    return pb_arena_strndup(a, path, (size_t)(raw - path));
}

static const char *flag_name(const char *key)
{
    if (!strcmp(key, "flag.fits_in_cache"))
        return "fits in cache";
    if (!strcmp(key, "flag.served_from_arc"))
        return "served from ARC";
    if (!strcmp(key, "flag.compression_mismatch"))
        return "compression mismatch";
    return key + 5;
}

/* The config and test of the results of source id. */
static const struct rp_cell *cell_of(const struct rp_data *d, long long id)
{
    for (size_t i = 0; i < d->ncells; i++)
        if (d->cells[i].source == id)
            return &d->cells[i];
    return NULL;
}

/* fio's options from run.fio_command, without the program name and the
 * paths poolbench sets (directory, filename, output). */
static const char *fio_options(struct rt_table *t, const char *cmd)
{
    struct pb_buf b = PB_BUF_INIT;
    const char *s = cmd;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t k = strcspn(s, " ");
        if (k && strncmp(s, "fio", k) && strncmp(s, "--directory=", 12) &&
            strncmp(s, "--filename=", 11) && strncmp(s, "--output=", 9))
            pb_buf_printf(&b, "%s%.*s", b.len ? " " : "",
                          (int)(k >= 2 && s[0] == '-' && s[1] == '-' ? k - 2
                                                                     : k),
                          k >= 2 && s[0] == '-' && s[1] == '-' ? s + 2 : s);
        s += k;
    }
    const char *r = rt_str(t, "%s", pb_buf_str(&b));
    pb_buf_release(&b);
    return r;
}

static void links_para(struct rp_out *o, const char *outdir, const char *dir,
                       const struct rp_data *d, long long any_source)
{
    char rel[PATH_MAX];
    struct pb_buf h = PB_BUF_INIT;
    pb_buf_puts(&h, "<p class=\"note\">Run folder <code>");
    rp_esc(&h, dir);
    pb_buf_puts(&h, "</code>: ");
    const char *plan = rp_fact_of(d, any_source, "run_plan_copy");
    char *planp = plan ? NULL : pb_xasprintf("%s/plan.ini", dir);
    const char *names[3] = {"the plan", "commands.log", "raw outputs"};
    char *paths[3] = {pb_xstrdup(plan ? plan : planp),
                      pb_xasprintf("%s/commands.log", dir),
                      pb_xasprintf("%s/raw/", dir)};
    for (int i = 0; i < 3; i++) {
        if (i)
            pb_buf_puts(&h, " · ");
        pb_buf_puts(&h, "<a href=\"");
        rp_esc(&h, rel_path(outdir, paths[i], rel, sizeof(rel)));
        pb_buf_puts(&h, "\">");
        rp_esc(&h, names[i]);
        pb_buf_puts(&h, "</a>");
        free(paths[i]);
    }
    free(planp);
    pb_buf_puts(&h, "</p>\n");
    rp_out_raw(o, pb_buf_str(&h));
    pb_buf_release(&h);
}

/* The cells of the runs shown, each with its fio and zfs-props sources
 * (the sources with run.cell, paired by folder and number), sorted;
 * *n gets their number. The caller frees the array. */
static struct xcell *collect_cells(const struct rp_data *d, struct pb_arena *a,
                                   size_t *n)
{
    /* the cells: the sources with run.cell, paired by folder and number */
    struct xcell *xs = NULL;
    size_t nx = 0, cap = 0;
    for (size_t i = 0; i < d->nfacts; i++) {
        const struct rp_fact *f = &d->facts[i];
        if (strcmp(f->key, "run.cell") || !source_used(d, f->source_id))
            continue;
        const struct rp_source *src = NULL;
        for (size_t k = 0; k < d->nsources && !src; k++)
            if (d->sources[k].id == f->source_id)
                src = &d->sources[k];
        const char *dir = src ? run_dir(a, src->path) : NULL;
        if (!dir)
            continue;
        long idx = strtol(f->value, NULL, 10);
        int props = !strcmp(src->format, "zfs-props");
        size_t j = 0;
        while (j < nx && (strcmp(xs[j].dir, dir) || xs[j].idx != idx))
            j++;
        if (j == nx) {
            PB_GROW(xs, cap, nx + 1);
            memset(&xs[nx], 0, sizeof(xs[nx]));
            xs[nx].dir = dir;
            xs[nx].idx = idx;
            xs[nx].cell = f->value;
            nx++;
        }
        if (props)
            xs[j].props = f->source_id;
        else
            xs[j].fio = f->source_id;
    }
    if (nx)
        qsort(xs, nx, sizeof(*xs), cmp_xcell);
    *n = nx;
    return xs;
}

/* The cell "Flags": the flags of both sources of x; 1 when any. */
static int flags_cell(struct rt_table *t, struct rt_cell *cell,
                      const struct rp_data *d, const struct xcell *x)
{
    int any = 0;
    struct pb_buf names = PB_BUF_INIT, texts = PB_BUF_INIT;
    long long ids[2] = {x->fio, x->props};
    for (int w = 0; w < 2; w++) {
        size_t first, nf = ids[w] ? rp_facts_of(d, ids[w], &first) : 0;
        for (size_t f = first; nf && f < first + nf; f++) {
            const struct rp_fact *fa = &d->facts[f];
            if (strncmp(fa->key, "flag.", 5))
                continue;
            pb_buf_printf(&names, "%s%s", names.len ? ", " : "",
                          flag_name(fa->key));
            pb_buf_printf(&texts, "%s%s: %s", texts.len ? "\n" : "",
                          flag_name(fa->key), fa->value);
        }
    }
    if (names.len) {
        any = 1;
        rt_set(t, cell, pb_buf_str(&names));
        cell->title = rt_str(t, "%s", pb_buf_str(&texts));
        cell->style = RT_WARN;
    } else {
        rt_set(t, cell, "–");
        cell->style = RT_MUTED;
    }
    pb_buf_release(&names);
    pb_buf_release(&texts);
    return any;
}

/* The cells of x's raw files (fio, zpool iostat, zfs get) from row[0],
 * linked relative to the report's folder absout. */
static void raw_cells(struct rt_table *t, struct rt_cell *row,
                      const struct rp_data *d, const struct xcell *x,
                      const char *absout, struct pb_arena *a)
{
    long long s0 = x->fio ? x->fio : x->props;
    const char *raw = rp_fact_of(d, s0, "run.raw_files");
    static const char *const suffix[] = {".fio.json", ".iostat.txt",
                                         ".zfs.txt"};
    for (int k2 = 0; k2 < 3; k2++) {
        struct rt_cell *cl = &row[k2];
        const char *hit = NULL;
        for (const char *q = raw; q && *q;) {
            size_t len = strcspn(q, " ");
            size_t sl = strlen(suffix[k2]);
            if (len > sl && !strncmp(q + len - sl, suffix[k2], sl)) {
                hit = pb_arena_strndup(a, q, len);
                break;
            }
            q += len;
            while (*q == ' ')
                q++;
        }
        if (!hit) {
            rt_set(t, cl, "–");
            cl->style = RT_MUTED;
            continue;
        }
        char rel[PATH_MAX];
        char *abs = pb_xasprintf("%s/%s", x->dir, hit);
        rt_set(t, cl, strrchr(hit, '/') ? strrchr(hit, '/') + 1 : hit);
        cl->href = rt_str(t, "%s", rel_path(absout, abs, rel, sizeof(rel)));
        free(abs);
    }
}

void rp_section_experiment(struct rp_out *o, const struct rp_data *d,
                           const char *outdir)
{
    struct pb_arena a;
    pb_arena_init(&a);
    char absout[PATH_MAX];
    if (!realpath(outdir, absout))
        snprintf(absout, sizeof(absout), "%s", outdir);

    size_t nx;
    struct xcell *xs = collect_cells(d, &a, &nx);

    rp_out_raw(o, "<section id=\"experiment\">\n");
    rp_out_heading(o, 2, NULL, "Experiment");
    rp_out_para(o, "note",
                "What poolbench run did in each cell: every fio option and "
                "ZFS property it used, what it found out (flags) and its raw "
                "outputs.");
    for (size_t i = 0; i < nx;) {
        size_t j = i;
        while (j < nx && !strcmp(xs[j].dir, xs[i].dir))
            j++;
        links_para(o, absout, xs[i].dir, d,
                   xs[i].fio ? xs[i].fio : xs[i].props);
        struct rt_table t;
        rt_init(&t, 9);
        t.sortable = 1;
        t.fold = j - i > 30;
        t.caption = "Cells of the run";
        static const char *const heads[] = {
            "Cell", "Configuration", "Test", "fio options", "ZFS properties",
            "Flags", "fio", "zpool iostat", "zfs get"};
        for (size_t k = 0; k < 9; k++)
            rt_header(&t, k, heads[k], k == 0 ? RT_RIGHT : RT_LEFT);
        int any_flag = 0;
        for (size_t k = i; k < j; k++) {
            const struct xcell *x = &xs[k];
            long long s0 = x->fio ? x->fio : x->props;
            struct rt_cell *row = rt_row(&t);
            rt_setv(&t, &row[0], x->cell, (double)x->idx);
            const char *rs = x->fio ? rp_fact_of(d, x->fio, "repeats_stop")
                                    : NULL;
            if (rs) { /* repeats = auto: why the cell stopped */
                const char *f[4] = {"repeats_done", "repeats_metric",
                                    "repeats_rse", "repeats_target_rse"};
                for (int w = 0; w < 4; w++)
                    if (!(f[w] = rp_fact_of(d, x->fio, f[w])))
                        f[w] = "?";
                row[0].title = rt_str(
                    &t, "%s repeats, stopped on its %s: RSE of %s %s "
                    "(target %s)", f[0],
                    !strcmp(rs, "max") ? "maximum" : "target", f[1], f[2],
                    f[3]);
            }
            const struct rp_cell *c = cell_of(d, x->fio ? x->fio : x->props);
            rt_set(&t, &row[1], c ? d->configs[c->config].label : "–");
            rt_set(&t, &row[2], c && x->fio ? d->tests[c->test].name : "–");
            const char *cmd = x->fio ? rp_fact_of(d, x->fio,
                                                  "run.fio_command")
                                     : NULL;
            rt_set(&t, &row[3], cmd ? fio_options(&t, cmd) : "–");
            row[3].style = RT_MONO;
            const char *zp = rp_fact_of(d, s0, "run.zfs_properties");
            const char *po = rp_fact_of(d, s0, "run.pool_options");
            rt_set(&t, &row[4], rt_str(&t, "%s; pool: %s", zp ? zp : "–",
                                       po ? po : "–"));
            any_flag |= flags_cell(&t, &row[5], d, x);
            raw_cells(&t, &row[6], d, x, absout, &a);
        }
        if (any_flag)
            t.note = "Flags (hover for the figures): fits in cache = the "
                     "working set (size x numjobs) is not larger than the "
                     "ARC (or RAM where there are no ARC statistics), so the "
                     "cell may measure memory; served from ARC = 90% or more "
                     "of its demand data reads were ARC hits; compression "
                     "mismatch = compressratio, read after the data was on "
                     "the pool, is more than 10% off what fio's "
                     "buffer_compress_percentage implies.";
        rp_out_table(o, &t);
        i = j;
    }
    rp_out_raw(o, "</section>\n");
    free(xs);
    pb_arena_release(&a);
}
