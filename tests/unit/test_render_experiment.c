/* Unit tests of the report's view of `poolbench run` results
 * (render/experiment.c, the compression table in render/tables.c): a
 * database holding what a run stores for two cells (fio and zfs get
 * sources with their run.* and flag.* facts) gives an Experiment section
 * with every fio option, flags, and links relative to the report folder
 * that resolve; the compression table keeps the two workloads apart and
 * marks the mismatch; per-cell facts stay out of Systems. */
#define _XOPEN_SOURCE 700
#include "tests/unit/testhelp.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/db.h"
#include "render/render.h"

static int rm_one(const char *p, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void touch(const char *dir, const char *name)
{
    char *p = pb_xasprintf("%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fclose(fp);
    free(p);
}

static int nsets;

static void store(struct pb_db *db, struct pb_resultset *s)
{
    struct pb_err err = {0};
    snprintf(s->sha256, sizeof(s->sha256), "%064x", ++nsets);
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

/* The sources of run cell n (of 2) in run folder dir. */
static void cell(struct pb_db *db, const char *dir, int n, const char *rw,
                 double ratio, const char *flag, const char *check)
{
    char *test = pb_xasprintf("fio %s bs=4k iodepth=1", rw);
    char *cellno = pb_xasprintf("%d/2", n);
    char *raw = pb_xasprintf("raw/c00%d.fio.json raw/c00%d.iostat.txt "
                             "raw/c00%d.zfs.txt", n, n, n);
    struct pb_resultset *s = pb_resultset_new();
    char *p = pb_xasprintf("%s/raw/c00%d.fio.json", dir, n);
    s->path = pb_rs_str(s, p);
    free(p);
    s->format = "fio-json";
    size_t c = pb_rs_config(s, "compression=lzjb");
    pb_rs_config_param(s, c, "compression", "lzjb");
    size_t t = pb_rs_test(s, test, "fio");
    pb_rs_add(s, c, t, NULL, "poolbench",
              strcmp(rw, "randread") ? "write_iops" : "read_iops", "ops/s",
              PB_DIR_HIGHER, 8000 + n);
    pb_rs_add(s, c, t, NULL, NULL, "pool_write_bw", "B/s", PB_DIR_HIGHER,
              524288);
    pb_rs_fact(s, NULL, "run.cell", cellno);
    char *cmd = pb_xasprintf("fio --name=poolbench --directory=%s/mnt/pb "
                             "--rw=%s --bs=4k --size=16m --end_fsync=1 "
                             "--buffer_compress_percentage=75 "
                             "--refill_buffers=1 --output=%s/raw/c00%d"
                             ".fio.json", dir, rw, dir, n);
    pb_rs_fact(s, NULL, "run.fio_command", cmd);
    free(cmd);
    pb_rs_fact(s, NULL, "run.zfs_properties", "compression=lzjb");
    pb_rs_fact(s, NULL, "run.pool_options", "layout=stripe");
    pb_rs_fact(s, NULL, "run.raw_files", raw);
    pb_rs_fact(s, NULL, "flag.fits_in_cache",
               "working set 16 MiB (size 16m x numjobs 1) fits in the cache: "
               "RAM 23.5 GiB <img src=x onerror=pb>");
    if (n == 1)
        pb_rs_fact(s, NULL, "run_plan_copy",
                   p = pb_xasprintf("%s/plan.ini", dir));
    if (n == 1)
        free(p);
    store(db, s);

    s = pb_resultset_new();
    p = pb_xasprintf("%s/raw/c00%d.zfs.txt", dir, n);
    s->path = pb_rs_str(s, p);
    free(p);
    s->format = "zfs-props";
    c = pb_rs_config(s, "compression=lzjb");
    pb_rs_config_param(s, c, "compression", "lzjb");
    char *zt = pb_xasprintf("zfs space after %s", test);
    t = pb_rs_test(s, zt, "zfs");
    free(zt);
    pb_rs_add(s, c, t, NULL, NULL, "compressratio", "ratio", PB_DIR_HIGHER,
              ratio);
    pb_rs_add(s, c, t, NULL, NULL, "used", "B", PB_DIR_LOWER, 5373952);
    pb_rs_fact(s, NULL, "run.cell", cellno);
    pb_rs_fact(s, NULL, "run.raw_files", raw);
    pb_rs_fact(s, NULL, flag ? "flag.compression_mismatch"
                             : "compression_check", check);
    store(db, s);
    free(test);
    free(cellno);
    free(raw);
}

static __attribute__((noinline)) char *read_all(const char *path)
{
    char *buf = NULL;
    size_t len;
    struct pb_err err = {0};
    assert_int_equal(pb_read_file(path, &buf, &len, &err), PB_OK);
    return buf;
}

static void test_experiment(void **state)
{
    (void)state;
    char tmp[] = "/tmp/pb-test-exp.XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char *run = pb_xasprintf("%s/run-q", tmp);
    char *rawd = pb_xasprintf("%s/raw", run);
    assert_int_equal(mkdir(run, 0755), 0);
    assert_int_equal(mkdir(rawd, 0755), 0);
    touch(run, "plan.ini");
    touch(run, "commands.log");
    static const char *const files[] = {
        "c001.fio.json", "c001.iostat.txt", "c001.zfs.txt",
        "c002.fio.json", "c002.iostat.txt", "c002.zfs.txt"};
    for (size_t i = 0; i < 6; i++)
        touch(rawd, files[i]);

    char *dbp = pb_xasprintf("%s/r.db", tmp);
    struct pb_db *db;
    struct pb_err err = {0};
    assert_int_equal(pb_db_open(dbp, 0, &db, &err), PB_OK);
    cell(db, run, 1, "randwrite", 3.23, "flag",
         "compressratio 3.23x after sync; buffer_compress_percentage=75 "
         "implies 4.00x (-19%, more than 10% off)");
    cell(db, run, 2, "randread", 3.80, NULL,
         "compressratio 3.80x after sync; buffer_compress_percentage=75 "
         "implies 4.00x (-5%: within 10%)");

    /* the report in a folder beside the run, not inside it */
    char *rep = pb_xasprintf("%s/elsewhere/report", tmp);
    char *up = pb_xasprintf("%s/elsewhere", tmp);
    assert_int_equal(mkdir(up, 0755), 0);
    struct pb_render_opts o = {0};
    o.outdir = rep;
    struct pb_render_summary sum;
    struct pb_an_report_opts ao = {.filter = &o.filter};
    struct pb_an_report *an;
    assert_int_equal(pb_an_report_load(db, &ao, &an, NULL, &err), PB_OK);
    assert_int_equal(pb_render_report(an, &o, &sum, &err), PB_OK);
    pb_an_report_free(an);
    pb_db_close(db);

    char *idx = pb_xasprintf("%s/index.html", rep);
    char *h = read_all(idx);
    assert_non_null(strstr(h, "<section id=\"experiment\">"));
    assert_non_null(strstr(h, "href=\"#experiment\""));
    /* every fio option, without the paths poolbench sets */
    assert_non_null(strstr(h, "name=poolbench rw=randwrite bs=4k size=16m "
                              "end_fsync=1 buffer_compress_percentage=75 "
                              "refill_buffers=1<"));
    assert_non_null(strstr(h, "compression=lzjb; pool: layout=stripe"));
    /* links relative to the report folder that resolve */
    assert_non_null(strstr(h, "href=\"../../run-q/commands.log\""));
    assert_non_null(strstr(h, "href=\"../../run-q/plan.ini\""));
    assert_non_null(strstr(h, "href=\"../../run-q/raw/c002.iostat.txt\""));
    size_t nlinks = 0;
    for (const char *q = strstr(h, "href=\"../"); q;
         q = strstr(q + 1, "href=\"../")) {
        const char *e = strchr(q + 6, '"');
        char *rel = pb_xasprintf("%s/%.*s", rep, (int)(e - q - 6), q + 6);
        if (access(rel, F_OK) != 0)
            print_error("broken link %s\n", rel);
        assert_int_equal(access(rel, F_OK), 0);
        free(rel);
        nlinks++;
    }
    assert_int_equal(nlinks, 3 + 6);
    /* flags: named in the table, the figures in the tooltip, escaped */
    assert_non_null(strstr(h, "compression mismatch, fits in cache") ||
                            strstr(h, "fits in cache, compression mismatch")
                        ? "ok"
                        : NULL);
    assert_null(strstr(h, "<img src=x"));
    assert_non_null(strstr(h, "RAM 23.5 GiB &lt;img src=x onerror=pb&gt;"));
    /* compression: the two workloads are two rows, never their mean */
    assert_non_null(strstr(h, ">3.23×<"));
    assert_non_null(strstr(h, ">3.80×<"));
    assert_null(strstr(h, "3.515"));
    assert_null(strstr(h, "3.52×"));
    assert_non_null(strstr(h, "▲ mismatch"));
    assert_non_null(strstr(h, ">as expected<"));
    /* per-cell facts are not system facts */
    const char *sys = strstr(h, "<section id=\"systems\">");
    if (sys) {
        const char *end = strstr(sys, "</section>");
        char *part = pb_xstrndup(sys, (size_t)(end - sys));
        assert_null(strstr(part, "run.fio_command"));
        assert_null(strstr(part, "flag.fits_in_cache"));
        free(part);
    }
    free(h);
    free(idx);
    free(rep);
    free(up);
    free(dbp);
    free(run);
    free(rawd);
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_experiment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
