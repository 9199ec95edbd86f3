/* Unit tests for run/: plan parsing and validation (path:line messages),
 * the cell matrix with its labels, dimensions and test names, layouts,
 * argv quoting, hostile plans, and the example plans. The dry run and
 * --cleanup: test_run_dry.c. No root and no ZFS needed. */
#define _GNU_SOURCE
#include "tests/unit/run_help.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXAMPLES_DIR PB_FIXTURES_DIR "/../examples"

/* ==== parsing ==== */

static const char small_plan[] =
    "; a comment\n"
    "# another comment\n"
    "[plan]\n"
    "name = small\n"
    "pool = pbsmall\n"
    "vdevs = file:/tmp/pb-unit-none/d0.img:128M\n"
    "        file:/tmp/pb-unit-none/d1.img:128M\n"
    "repeats = 3\n"
    "\n"
    "[pool]\n"
    "layout = stripe\n"
    "\n"
    "[dataset]\n"
    "recordsize = 8k, 128k\n"
    "compression = off, gzip ; inline comment\n"
    "sync = always\n"
    "\n"
    "[fio]\n"
    "rw = randrw\n"
    "bs = 4k\n"
    "size = 8m\n"
    "runtime = 1\n"
    "buffer_compress_percentage = 75\n";

static void test_parse_small(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok(small_plan);
    assert_string_equal(pb_run_plan_name(p), "small");
    assert_string_equal(p->pool, "pbsmall");
    assert_int_equal(p->repeats, 3);
    assert_int_equal(p->zvol, 0);
    assert_int_equal(p->stop_on_failure, 0); /* on_failure = continue */
    assert_int_equal(p->data.n, 2); /* the continuation line is a vdev */
    assert_string_equal(p->data.v[1].path, "/tmp/pb-unit-none/d1.img");
    assert_near(p->data.v[1].size, 128.0 * 1024 * 1024, 0);
    assert_int_equal(pb_run_plan_ncells(p), 4);

    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    static const char *const labels[] = {
        "recordsize=8k compression=off", "recordsize=8k compression=gzip",
        "recordsize=128k compression=off", "recordsize=128k compression=gzip"};
    for (size_t i = 0; i < 4; i++) {
        pb_run_plan_describe(p, i, &label, &test);
        assert_string_equal(pb_buf_str(&label), labels[i]);
        assert_string_equal(pb_buf_str(&test),
                            "fio randrw bs=4k iodepth=1 rwmixread=50");
    }

    /* every dimension of cell 3, as ingest will normalise them */
    struct pb_run_cell c;
    pb_run_cell_at(p, 2, &c);
    struct pb_kv *kv;
    size_t n;
    pb_run_cell_config(p, &c, &kv, &n);
    static const char *const want[][2] = {
        {"layout", "stripe"}, {"pool_layout", "stripe"}, {"vdevs", "2"},
        {"disks_per_vdev", "1"}, {"slog", "no"},       {"l2arc", "no"},
        {"recordsize", "128k"}, {"compression", "off"}, {"sync", "always"}};
    assert_int_equal(n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(kv[i].key, want[i][0]);
        assert_string_equal(kv[i].value, want[i][1]);
    }
    char *norm = pb_ingest_norm_param("recordsize", kv[6].value);
    assert_string_equal(norm, "131072");
    free(norm);
    pb_run_kv_free(kv, n);
    pb_buf_release(&label);
    pb_buf_release(&test);
    pb_run_plan_free(p);
}

/* Fio options the fio test name leaves out are added when they vary, so
 * that two cells never share a config and a test. */
static void test_fio_names(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok(
        "[plan]\nvdevs = file:/tmp/pb-unit-none/d0.img:1G\n"
        "[fio]\nrw = read, randrw\nbs = 16k\niodepth = 32\nnumjobs = 8\n"
        "rwmixwrite = 30\nfsync = 1\ndirect = 1\nsize = 1g\n"
        "buffer_compress_percentage = 0, 75\ntime_based = 1\n"
        "random_distribution = zipf:1.2\nramp_time = 2\n");
    assert_string_equal(pb_run_plan_name(p), "t");
    assert_int_equal(pb_run_plan_ncells(p), 4);
    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    pb_run_plan_describe(p, 0, &label, &test);
    assert_string_equal(pb_buf_str(&label), "t");
    assert_string_equal(pb_buf_str(&test),
                        "fio read bs=16k iodepth=32 numjobs=8 fsync=1 "
                        "direct=1 buffer_compress_percentage=0");
    pb_run_plan_describe(p, 3, &label, &test);
    assert_string_equal(pb_buf_str(&test),
                        "fio randrw bs=16k iodepth=32 numjobs=8 "
                        "rwmixread=70 fsync=1 direct=1 "
                        "buffer_compress_percentage=75");

    struct pb_resultset *set = pb_resultset_new();
    size_t t = pb_rs_test(set, pb_buf_str(&test), "fio");
    pb_run_fio_params(p, 3, set, t, 0);
    /* and, as ingest stores them from fio's output (a skipped cell has
     * none: its test is still its siblings'), every other option of the
     * workload (issue 42) */
    static const char *const want[][2] = {
        {"rw", "randrw"},     {"bs", "16384"},   {"iodepth", "32"},
        {"numjobs", "8"},     {"direct", "1"},   {"fsync", "1"},
        {"size", "1073741824"}, {"buffer_compress_percentage", "75"},
        {"time_based", "1"},  {"random_distribution", "zipf:1.2"},
        {"ramp_time", "2"}};
    assert_int_equal(set->tests[t].nparams, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < set->tests[t].nparams; i++) {
        assert_string_equal(set->tests[t].params[i].key, want[i][0]);
        assert_string_equal(set->tests[t].params[i].value, want[i][1]);
    }
    pb_resultset_free(set);
    pb_buf_release(&label);
    pb_buf_release(&test);
    pb_run_plan_free(p);
}

static void test_quoting_and_crlf(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok(
        "[plan]\r\nname = crlf\r\nvdevs = file:/tmp/pb-unit-none/d0.img:64M"
        "\r\n[fio]\r\nsize = 8m\r\nbs = \"4k,8k\", 16k\r\n");
    assert_int_equal(pb_run_plan_ncells(p), 2);
    assert_string_equal(pb_run_axis_value(p, PB_RUN_FIO, 0, 1), "4k,8k");
    assert_string_equal(pb_run_axis_value(p, PB_RUN_FIO, 1, 1), "16k");
    pb_run_plan_free(p);

    const char *argv[] = {"zfs", "create", "-o", "a b", "it's", "", "x\ny",
                          "k=v,w:1", NULL};
    struct pb_buf b = PB_BUF_INIT;
    pb_run_quote(&b, argv);
    assert_string_equal(pb_buf_str(&b), "zfs create -o 'a b' 'it'\\''s' '' "
                                        "'x'$'\\n''y' k=v,w:1");
    pb_buf_release(&b);
}

static void test_layouts(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t ndata;
        const char *type;
        int groups, width;
    } ok[] = {
        {"stripe", 4, "stripe", 1, 4},   {"stripe-2", 4, "stripe", 1, 2},
        {"mirror", 2, "mirror", 1, 2},   {"mirror-3", 3, "mirror", 1, 3},
        {"2xmirror", 4, "mirror", 2, 2}, {"2xmirror-2", 5, "mirror", 2, 2},
        {"raidz", 3, "raidz1", 1, 3},    {"raidz2-4", 6, "raidz2", 1, 4},
        {"3xraidz3-4", 12, "raidz3", 3, 4},
    };
    char msg[200];
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct pb_run_layout l;
        assert_int_equal(pb_run_layout_parse(ok[i].s, ok[i].ndata, &l, msg,
                                             sizeof(msg)),
                         0);
        assert_string_equal(l.type, ok[i].type);
        assert_int_equal(l.groups, ok[i].groups);
        assert_int_equal(l.width, ok[i].width);
    }
    static const struct {
        const char *s;
        size_t ndata;
        const char *msg;
    } bad[] = {
        {"mirror", 1, "layout 'mirror' needs at least 2 vdevs per group"},
        {"stripe-5", 4, "layout 'stripe-5' needs 5 vdevs, [plan] vdevs has "
                        "4"},
        {"2xstripe", 4, "layout '2xstripe': a stripe has no groups; write "
                        "'stripe-N'"},
        {"raid5", 4, "bad layout 'raid5' (types: stripe, mirror, raidz1, "
                     "raidz2, raidz3)"},
        {"mirror-x", 4, "bad vdev count in layout 'mirror-x'"},
        {"0xmirror", 4, "bad layout '0xmirror' (e.g. stripe-2, mirror, "
                        "2xmirror-2, raidz2)"},
        {"raidz2", 2, "layout 'raidz2' needs at least 3 vdevs per group"},
        {"", 2, "bad layout '' (types: stripe, mirror, raidz1, raidz2, "
                "raidz3)"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct pb_run_layout l;
        assert_int_equal(pb_run_layout_parse(bad[i].s, bad[i].ndata, &l, msg,
                                             sizeof(msg)),
                         -1);
        assert_string_equal(msg, bad[i].msg);
    }
}

/* ==== errors: exact line and message ==== */

#define VD "vdevs = file:/tmp/pb-unit-none/d0.img:128M\n"

static void test_plan_errors(void **state)
{
    (void)state;
    static const struct rh_bad cases[] = {
        {"", 0, "[plan] needs 'vdevs' (file:PATH:SIZE or /dev/... list)"},
        {"[plan]\n" VD "[fio]\nsize = 8m\n[bogus]\nx = 1\n", 6,
         "unknown section '[bogus]' (known: plan, pool, dataset, zvol, fio, hosts)"},
        {"[plan]\n" VD "foo = 1\n", 3,
         "unknown key 'foo' in [plan] (known: name, description, pool, "
         "kind, repeats, vdevs, log_vdevs, cache_vdevs, on_failure, "
         "on_unsupported, allow_exec, max_repeats, target_rse, order, "
         "seed)"},
        {"[plan]\n" VD "on_failure = abort\n[fio]\nsize=8m\n", 3,
         "on_failure must be continue or stop, got 'abort'"},
        {"[plan]\non_failure = Stop\n" VD "[fio]\nsize=8m\n", 2,
         "on_failure must be continue or stop, got 'Stop'"},
        {"[plan]\non_failure = stop\n" VD "on_failure = stop\n[fio]\n"
         "size=8m\n", 4,
         "'on_failure' given twice in [plan] (first on line 2)"},
        {"[plan]\n" VD "on_failure = continue, stop\n[fio]\nsize=8m\n", 3,
         "on_failure must be continue or stop, got 'continue, stop'"},
        {"[plan]\n" VD "[pool]\nlayout = mirror\n[fio]\nsize=8m\n", 4,
         "layout 'mirror' needs at least 2 vdevs per group"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nsize = 16m\n", 5,
         "'size' given twice in [fio] (first on line 4)"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nthis is not ini\n", 5,
         "syntax error: expected [section], key = value or a comment"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nthis is not ini\nfoo:bar = 1\n", 5,
         "syntax error: expected [section], key = value or a comment"},
        {"[plan]\n" VD "[fio]\nsize = 8m\ndirectory = /x\n", 5,
         "fio option 'directory' is set by poolbench"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nexec_prerun = rm -rf /\n", 5,
         "fio option 'exec_prerun' runs a command through a shell as root; "
         "set [plan] allow_exec = yes to allow it"},
        {"[plan]\n" VD "allow_exec = no\n[fio]\nsize = 8m\n"
         "exec_postrun = id\n", 6,
         "fio option 'exec_postrun' runs a command through a shell as "
         "root; set [plan] allow_exec = yes to allow it"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nwrite_bw_log = /etc/x\n", 5,
         "fio option 'write_bw_log' is not allowed in a plan (see the list "
         "in docs/plan-format.md: fio runs as root, and options that run "
         "programs or touch files outside the pool are refused)"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nioscheduler = none\n", 5,
         "fio option 'ioscheduler' is not allowed in a plan (see the list "
         "in docs/plan-format.md: fio runs as root, and options that run "
         "programs or touch files outside the pool are refused)"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nioengine = psync, exec\n", 5,
         "ioengine=exec runs programs or loads code as root; set [plan] "
         "allow_exec = yes to allow it"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nioengine = external:/tmp/x.so\n",
         5, "ioengine=external:/tmp/x.so runs programs or loads code as "
            "root; set [plan] allow_exec = yes to allow it"},
        {"[plan]\n" VD "allow_exec = 1\n[fio]\nsize = 8m\n", 3,
         "allow_exec must be yes or no, got '1'"},
        {"[plan]\n" VD "on_unsupported = ignore\n[fio]\nsize = 8m\n", 3,
         "on_unsupported must be error or skip, got 'ignore'"},
        {"[plan]\nvdevs = file:x0.img:128M\n[fio]\nsize = 8m\n", 2,
         "'vdevs': vdev path 'x0.img' must be absolute"},
        {"[plan]\nvdevs = file:/x0.img:32M\n[fio]\nsize = 8m\n", 2,
         "'vdevs': '/x0.img' is smaller than 64M, the smallest vdev ZFS "
         "accepts"},
        {"[plan]\nvdevs = file:/x0.img:lots\n[fio]\nsize = 8m\n", 2,
         "'vdevs': bad size 'lots' for '/x0.img'"},
        {"[plan]\nvdevs = sda\n[fio]\nsize = 8m\n", 2,
         "'vdevs': vdev 'sda' is neither file:PATH:SIZE, loop:PATH:SIZE "
         "nor a /dev/ device"},
        {"[plan]\n" VD "vdevs = file:/x1.img:128M\n", 3,
         "'vdevs' given twice in [plan] (first on line 2)"},
        {"[plan]\n" VD "log_vdevs = file:/tmp/pb-unit-none/d0.img:128M\n"
         "[fio]\nsize=8m\n", 3,
         "vdev '/tmp/pb-unit-none/d0.img' is listed twice"},
        {"[plan]\n" VD "[dataset]\nrecordsize = 8k\n[zvol]\nsize=1G\n", 6,
         "a plan has either [dataset] or [zvol], not both"},
        {"[plan]\n" VD "[dataset]\nrecrdsize = 8k\n[fio]\nsize=8m\n", 4,
         "unknown dataset property 'recrdsize'"},
        {"[plan]\n" VD "[dataset]\nrecordsize = 8k, 3k\n[fio]\nsize=8m\n", 4,
         "recordsize must be a power of two from 512 to 16M, got '3k'"},
        {"[plan]\n" VD "[dataset]\nmountpoint = /x\n[fio]\nsize=8m\n", 4,
         "'mountpoint' is set by poolbench"},
        {"[plan]\n" VD "[fio]\nsize=8m\n[pool]\nashift = 12, 8\n", 6,
         "ashift must be 9..16, got '8'"},
        {"[plan]\n" VD "[pool]\nlog = on\n[fio]\nsize=8m\n", 4,
         "log=on needs [plan] log_vdevs"},
        {"[plan]\n" VD "[pool]\ncache = maybe\n[fio]\nsize=8m\n", 4,
         "cache must be none or on, got 'maybe'"},
        {"[plan]\n" VD "[pool]\nrecordsize = 8k\n[fio]\nsize=8m\n", 4,
         "unknown key 'recordsize' in [pool] (known: layout, ashift, log, "
         "cache)"},
        {"[plan]\n" VD "[fio]\nsize=8m\nrw = read,,write\n", 5,
         "empty value in 'rw'"},
        {"[plan]\n" VD "[fio]\nsize=8m\nbs = \"4k\n", 5,
         "unterminated quote in 'bs'"},
        {"[plan]\n" VD "[fio]\nsize=\n", 4, "empty value for 'size'"},
        {"[plan]\nname = <script>\n" VD "[fio]\nsize=8m\n", 2,
         "plan name '<script>' must be letters, digits, _ . - (it names the "
         "output folder)"},
        {"[plan]\npool = mirror1\n" VD "[fio]\nsize=8m\n", 2,
         "bad pool name 'mirror1'"},
        {"[plan]\nkind = lun\n" VD "[fio]\nsize=8m\n", 2,
         "kind must be dataset or zvol, got 'lun'"},
        {"[plan]\nkind = zvol\n" VD "[dataset]\nsync=always\n", 2,
         "kind = zvol but the plan has a [dataset] section"},
        {"[plan]\nrepeats = 0\n" VD "[fio]\nsize=8m\n", 2,
         "repeats must be 1..1000 or auto, got '0'"},
        {"[plan]\n" VD, 0, "[fio] needs 'size' (the file size per job)"},
        {"[plan]\n" VD "[zvol]\nvolblocksize = 8k\n", 0,
         "[zvol] needs 'size' (the volume size)"},
        {"x=1\n[plan]\n", 1, "'x' is outside a section (start with [plan])"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nrw = a,b,c,d,e,f,g,h,i,j\n"
         "bs = a,b,c,d,e,f,g,h,i,j\nnumjobs = a,b,c,d,e,f,g,h,i,j\n"
         "iodepth = a,b,c,d,e,f,g,h,i,j\nfsync = a,b,c,d,e,f,g,h,i,j\n"
         "direct = a,b\n",
         10, "the plan has 200000 cells; at most 100000"},
        {"[plan]\n" VD "[fio]\nsize = 8m\n<script>alert(1)</script>\n", 5,
         "syntax error: expected [section], key = value or a comment"},
    };
    rh_refused(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Lines longer than inih's buffer are refused, not cut; broken files. */
static void test_hostile(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "[plan]\n" VD "[fio]\nsize = 8m\nbs = ");
    for (int i = 0; i < 80; i++)
        pb_buf_puts(&b, i ? ",4k" : "4k");
    pb_buf_puts(&b, "\n");
    struct pb_err err = {0};
    struct pb_run_plan *p = NULL;
    assert_int_equal(pb_run_plan_parse("/p.ini", pb_buf_str(&b), &p, &err),
                     PB_EUSAGE);
    assert_int_equal(err.line, 5);
    assert_string_equal(err.msg, "line is longer than 196 characters "
                                 "(continue a value on indented lines)");
    pb_buf_release(&b);

    /* a file with a NUL byte, and binary garbage */
    char path[64];
    snprintf(path, sizeof(path), "/tmp/pb_unit_plan_%d.ini", (int)getpid());
    static const char nul[] = "[plan]\n" VD "[fio]\nsize=8m\0\n";
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fwrite(nul, 1, sizeof(nul) - 1, fp);
    fclose(fp);
    pb_err_clear(&err);
    assert_int_equal(pb_run_plan_load(path, &p, &err), PB_EUSAGE);
    assert_int_equal(err.line, 4);
    assert_string_equal(err.msg, "NUL byte in the plan (not a text file)");
    fp = fopen(path, "wb");
    for (int i = 0; i < 4096; i++)
        fputc((i * 7919 + 13) % 251 + 1, fp);
    fclose(fp);
    pb_err_clear(&err);
    assert_int_equal(pb_run_plan_load(path, &p, &err), PB_EUSAGE);
    assert_null(p);
    unlink(path);
    pb_err_clear(&err);
    assert_int_equal(pb_run_plan_load("/nonexistent/plan.ini", &p, &err),
                     PB_EIO);

    /* truncated at every tenth of a valid plan: an error or a plan, never
     * a crash */
    size_t len = strlen(small_plan);
    for (int k = 0; k <= 10; k++) {
        char *cut = pb_xstrndup(small_plan, len * (size_t)k / 10);
        pb_err_clear(&err);
        p = NULL;
        int rc = pb_run_plan_parse("/p.ini", cut, &p, &err);
        assert_true(rc == PB_OK || rc == PB_EUSAGE);
        assert_true((rc == PB_OK) == (p != NULL));
        pb_run_plan_free(p);
        free(cut);
    }
}

/* The example plans parse and have the shape their comments promise. */
static void test_examples(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t cells;
        long repeats;
        int zvol;
    } ex[] = {
        {"ashift-recordsize.ini", 12, 3, 0},
        {"volblocksize.ini", 576, 1, 1},
        {"layouts.ini", 32, 1, 0},
        {"quick.ini", 8, 1, 0},
        {"hosts.ini", 2, 1, 0},
    };
    for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", EXAMPLES_DIR, ex[i].file);
        struct pb_err err = {0};
        struct pb_run_plan *p = NULL;
        if (pb_run_plan_load(path, &p, &err) != PB_OK)
            print_error("%s:%ld: %s\n", path, err.line, err.msg);
        assert_non_null(p);
        assert_int_equal(pb_run_plan_ncells(p), ex[i].cells);
        assert_int_equal(p->repeats, ex[i].repeats);
        assert_int_equal(p->zvol, ex[i].zvol);
        pb_run_plan_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_small),
        cmocka_unit_test(test_fio_names),
        cmocka_unit_test(test_quoting_and_crlf),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_plan_errors),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
