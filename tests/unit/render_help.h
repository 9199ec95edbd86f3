/* Helpers of the report tests (test_render.c: units, text, chart layout;
 * test_render_report.c: the model behind the report and whole reports):
 * temporary folders, files, and databases filled with results. Static and
 * possibly unused in one of them (TH_FN). */
#ifndef PB_RENDER_HELP_H
#define PB_RENDER_HELP_H

#include "tests/unit/testhelp.h"

#include <ftw.h>
#include <math.h>
#include <libxml/parser.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "model/db.h"
#include "render/render_int.h"

/* ==== helpers ==== */

/* The report of db as o says, as the command runs it: the analysis step
 * (pb_an_report_load), then pb_render_report. */
TH_FN int render_report_db(struct pb_db *db, const struct pb_render_opts *o,
                           struct pb_render_summary *sum, struct pb_err *err)
{
    struct pb_an_report_opts ao;
    pb_render_an_opts(o, &ao);
    struct pb_an_report *rep;
    memset(sum, 0, sizeof(*sum));
    int rc = pb_an_report_load(db, &ao, &rep, NULL, err);
    if (rc)
        return rc;
    rc = pb_render_report(rep, o, sum, err);
    pb_an_report_free(rep);
    return rc;
}

TH_FN int rm_one(const char *p, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

TH_FN void rm_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TH_FN char *make_tmp(void)
{
    char *d = strdup("/tmp/pb-test-render.XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

TH_FN char *slurp(const char *path, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    struct pb_err err = {0};
    if (pb_read_file(path, &buf, &n, &err) != PB_OK) {
        print_error("cannot read %s: %s\n", path, err.msg);
        fail();
    }
    if (len)
        *len = n;
    return buf;
}

TH_FN int count(const char *hay, const char *needle)
{
    int n = 0;
    size_t l = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += l)
        n++;
    return n;
}

TH_FN int nsets;

/* A new result set with a unique SHA-256 (sources are keyed by it). */
TH_FN struct pb_resultset *new_set(const char *format)
{
    struct pb_resultset *s = pb_resultset_new();
    nsets++;
    s->path = pb_rs_str(s, format);
    s->format = pb_rs_str(s, format);
    s->tool_version = pb_rs_str(s, "test-1");
    snprintf(s->sha256, sizeof(s->sha256), "%064x", nsets);
    s->size = 100;
    return s;
}

TH_FN void store(struct pb_db *db, struct pb_resultset *s)
{
    struct pb_err err = {0};
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

TH_FN struct pb_db *open_db(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/t.db", dir);
    struct pb_db *db;
    struct pb_err err = {0};
    assert_int_equal(pb_db_open(path, 0, &db, &err), PB_OK);
    return db;
}

/* One fio-like result of a config with recordsize/compression dims. */
TH_FN void fio_result(struct pb_db *db, const char *label, const char *rs,
                       const char *comp, const char *bs, double iops)
{
    struct pb_resultset *s = new_set("fio-json");
    size_t c = pb_rs_config(s, label);
    pb_rs_config_param(s, c, "recordsize", rs);
    pb_rs_config_param(s, c, "compression", comp);
    char name[64];
    snprintf(name, sizeof(name), "fio randread bs=%s", bs);
    size_t t = pb_rs_test(s, name, "fio");
    pb_rs_test_param(s, t, "rw", "randread");
    pb_rs_test_param(s, t, "bs", bs);
    pb_rs_add(s, c, t, NULL, "job", "read_iops", "ops/s", PB_DIR_HIGHER, iops);
    pb_rs_add(s, c, t, NULL, "job", "read_bw", "B/s", PB_DIR_HIGHER,
              iops * 4096);
    pb_rs_add(s, c, t, NULL, "job", "read_clat_p99", "ns", PB_DIR_LOWER,
              1e9 / iops);
    store(db, s);
}

#endif
