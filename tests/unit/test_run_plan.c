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
#include <limits.h>
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
        {"disks", "2"},         {"disks_per_vdev", "1"}, {"slog", "no"},
        {"l2arc", "no"},        {"recordsize", "128k"},
        {"compression", "off"}, {"sync", "always"}};
    assert_int_equal(n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(kv[i].key, want[i][0]);
        assert_string_equal(kv[i].value, want[i][1]);
    }
    char *norm = pb_ingest_norm_param("recordsize", kv[7].value);
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
        {"stripe", 4, "stripe", 1, 4},      {"stripe-2", 4, "stripe", 1, 2},
        {"mirror", 2, "mirror", 1, 2},      {"mirror-3", 3, "mirror", 1, 3},
        {"2xmirror", 4, "mirror", 2, 2},    {"2xmirror-2", 5, "mirror", 2, 2},
        {"raidz", 3, "raidz1", 1, 3},       {"raidz2-4", 6, "raidz2", 1, 4},
        {"3xraidz3-4", 12, "raidz3", 3, 4},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct pb_run_layout l;
        struct pb_err e = {0};
        assert_int_equal(pb_run_layout_parse(ok[i].s, ok[i].ndata, &l, &e),
                         PB_OK);
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
        struct pb_err e = {0};
        assert_int_equal(pb_run_layout_parse(bad[i].s, bad[i].ndata, &l, &e),
                         PB_EUSAGE);
        assert_string_equal(e.msg, bad[i].msg);
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
        {"[plan]\n" VD "[fio]\nsize = 8m\nwrite_bw_log = /etc/x\n", 5,
         "fio option 'write_bw_log' is not allowed in a plan (see the list "
         "in docs/plan-format.md: fio runs as root, and options that run "
         "programs or touch files outside the pool are refused)"},
        {"[plan]\n" VD "[fio]\nsize = 8m\nioscheduler = none\n", 5,
         "fio option 'ioscheduler' is not allowed in a plan (see the list "
         "in docs/plan-format.md: fio runs as root, and options that run "
         "programs or touch files outside the pool are refused)"},
        {"[plan]\n" VD "allow_exec = 1\n[fio]\nsize = 8m\n", 3,
         "allow_exec = 1: a plan cannot allow itself to run commands; the "
         "person running it gives --allow-exec (after reading them in "
         "--dry-run)"},
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

/* ==== issue 40: what a shared plan may not say ==== */

#define FIO8 "[fio]\nsize = 8m\n"

/* Item 2: fio options that read files. The 'FILE' form of buffer_pattern
 * and verify_pattern (fio, as root, copies the file into the pool's data)
 * is refused; hex, decimal, "string" and %o are taken. An ioengine that is
 * not one of fio's file engines is refused: fio loads any other name as a
 * library (ioengine=/tmp/x.so ran its constructor as root, fio 3.33). */
static void test_fio_files(void **state)
{
    (void)state;
    static const struct rh_bad cases[] = {
        {"[plan]\n" VD FIO8 "buffer_pattern = '/etc/shadow'\n", 5,
         "buffer_pattern='/etc/shadow': '...' is fio's file form (fio, as "
         "root, would copy that file into the pool's data); write the "
         "pattern as 0xHEX, a decimal number or a \"string\""},
        {"[plan]\n" VD FIO8 "verify = pattern\n"
         "verify_pattern = 0xdead'/root/.ssh/id_rsa'\n", 6,
         "verify_pattern=0xdead'/root/.ssh/id_rsa': '...' is fio's file "
         "form (fio, as root, would copy that file into the pool's data); "
         "write the pattern as 0xHEX, a decimal number or a \"string\""},
        {"[plan]\n" VD FIO8 "buffer_pattern = 0x00, /etc/shadow\n", 5,
         "buffer_pattern=/etc/shadow: '/' is not part of a fio pattern "
         "(0xHEX, decimal numbers, \"string\" and %o)"},
        {"[plan]\n" VD FIO8 "buffer_pattern = 0x00\"abc\n", 5,
         "buffer_pattern=0x00\"abc: unterminated \"string\""},
        {"[plan]\n" VD FIO8 "ioengine = libaio, net\n", 5,
         "ioengine=net: is not an engine a plan may use (fio's file "
         "engines: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, "
         "posixaio, mmap, splice, null, falloc, filecreate, filestat, "
         "filedelete, ftruncate; fio loads any other name as a library)"},
        {"[plan]\n" VD FIO8 "ioengine = evil\n", 5,
         "ioengine=evil: is not an engine a plan may use (fio's file "
         "engines: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, "
         "posixaio, mmap, splice, null, falloc, filecreate, filestat, "
         "filedelete, ftruncate; fio loads any other name as a library)"},
    };
    rh_refused(cases, sizeof(cases) / sizeof(cases[0]));
    /* the forms that read no file */
    struct pb_run_plan *p = parse_ok(
        "[plan]\n" VD FIO8 "buffer_pattern = 0xdeadbeef, 1234, -7, "
        "0x00\"it's\"0xff\nverify = pattern\nverify_pattern = 0xff%o\n"
        "ioengine = libaio, io_uring, psync\n");
    assert_int_equal(pb_run_plan_ncells(p), 4 * 3);
    pb_run_plan_free(p);
    /* engines that run code pass the plan: --allow-exec decides
     * (test_run_consent.c) */
    p = parse_ok("[plan]\n" VD FIO8 "ioengine = exec, external:/x.so, "
                 "/tmp/x.so, libaio:/tmp/x.so\n");
    for (size_t i = 0; i < 4; i++)
        assert_true(pb_run_fio_engine_execs(p->sect[PB_RUN_FIO].ax[1].vals[i]));
    assert_false(pb_run_fio_engine_execs("libaio"));
    pb_run_plan_free(p);
}

/* Item 8: a plan is UTF-8 text without control characters: ESC, BEL, a
 * lone CR, DEL, C1 and bytes that are not UTF-8 are refused at their
 * line and column (tab and CRLF are text). */
static void test_control_chars(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        long line, col;
        const char *msg;
    } cases[] = {
        {"[plan]\n" VD FIO8 "rw = read\x1b[2K\rrandwrite\n", 5, 10,
         "control character 0x1b in the plan (a plan is text: ESC, BEL, CR "
         "and the like could hide what it runs)"},
        {"[plan]\nvdevs = file:/tmp/a\x07" "b.img:128M\n" FIO8, 2, 20,
         "control character 0x07 in the plan (a plan is text: ESC, BEL, CR "
         "and the like could hide what it runs)"},
        {"[plan]\n" VD "description = a\rb\n" FIO8, 3, 16,
         "control character 0x0d in the plan (a plan is text: ESC, BEL, CR "
         "and the like could hide what it runs)"},
        {"[plan]\n; a comment \x7f\n" VD FIO8, 2, 13,
         "control character 0x7f in the plan (a plan is text: ESC, BEL, CR "
         "and the like could hide what it runs)"},
        {"[plan]\n" VD "description = \xc2\x9b" "31m\n" FIO8, 3, 15,
         "control character U+009B in the plan (a plan is text: control "
         "characters could hide what it runs)"},
        {"[plan]\n" VD "description = caf\xe9\n" FIO8, 3, 18,
         "byte 0xe9 is not UTF-8 (a plan is UTF-8 text)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_err err = {0};
        struct pb_run_plan *p = NULL;
        int rc = pb_run_plan_parse("/plans/c.ini", cases[i].text, &p, &err);
        if (rc != PB_EUSAGE || err.line != cases[i].line ||
            err.col != cases[i].col || strcmp(err.msg, cases[i].msg))
            print_error("case %zu: rc %d %ld:%ld '%s'\n", i, rc, err.line,
                        err.col, err.msg);
        assert_int_equal(rc, PB_EUSAGE);
        assert_null(p);
        assert_int_equal(err.line, cases[i].line);
        assert_int_equal(err.col, cases[i].col);
        assert_string_equal(err.msg, cases[i].msg);
    }
    /* tabs, CRLF and UTF-8 text are fine */
    struct pb_run_plan *p = parse_ok("[plan]\r\n" VD "description =\tcaf\xc3"
                                     "\xa9 \xe2\x80\x94 d\xc3\xa9" "bit\r\n"
                                     FIO8);
    assert_string_equal(p->description, "caf\xc3\xa9 \xe2\x80\x94 "
                                        "d\xc3\xa9" "bit");
    pb_run_plan_free(p);
}

/* Item 11: vdev files in system folders (the run makes them as root, the
 * plan chooses their bytes) are refused, as written and through a link;
 * /var/tmp, /tmp and folders of their own are not. */
static void test_system_folders(void **state)
{
    (void)state;
#define SYS(path, folder)                                                  \
    "'vdevs': vdev file '" path "' is in a system folder (" folder "): "   \
    "the run makes it as root with bytes the plan chooses; use /var/tmp, " \
    "/tmp or a data disk"
    static const struct rh_bad cases[] = {
        {"[plan]\nvdevs = file:/etc/cron.d/x:64M\n" FIO8, 2,
         SYS("/etc/cron.d/x", "/etc")},
        {"[plan]\nvdevs = file:/etc/ld.so.preload:64M\n" FIO8, 2,
         SYS("/etc/ld.so.preload", "/etc")},
        {"[plan]\nvdevs = loop:/usr/lib/x.img:64M\n" FIO8, 2,
         SYS("/usr/lib/x.img", "/usr")},
        {"[plan]\nvdevs = file:/lib64/x:64M\n" FIO8, 2,
         SYS("/lib64/x", "/lib64")},
        {"[plan]\nvdevs = file:/var/spool/cron/crontabs/root:64M\n" FIO8, 2,
         SYS("/var/spool/cron/crontabs/root", "/var")},
        {"[plan]\nvdevs = file:/var/tmp/../lib/x:64M\n" FIO8, 2,
         SYS("/var/tmp/../lib/x", "/var")},
        {"[plan]\nvdevs = file:/.autorelabel:64M\n" FIO8, 2,
         SYS("/.autorelabel", "/")},
        {"[plan]\nvdevs = file:/root/.bashrc:64M\n" FIO8, 2,
         SYS("/root/.bashrc", "/root")},
        {"[plan]\nvdevs = file:/dev/shm/x:64M\n" FIO8, 2,
         SYS("/dev/shm/x", "/dev")},
        {"[plan]\nvdevs = file:/tmp/d0.img:64M\n"
         "  file:/boot/x:64M\n" FIO8, 2, SYS("/boot/x", "/boot")},
    };
    rh_refused(cases, sizeof(cases) / sizeof(cases[0]));

    /* a folder that is a link into a system folder: named as it is */
    char dir[] = "/tmp/pb-unit-sysf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char link[PATH_MAX + 8], text[PATH_MAX + 64], want[PATH_MAX * 2 + 300];
    snprintf(link, sizeof(link), "%s/cron", dir);
    assert_int_equal(symlink("/etc", link), 0);
    snprintf(text, sizeof(text), "[plan]\nvdevs = file:%s/x.img:64M\n" FIO8,
             link);
    snprintf(want, sizeof(want), "'vdevs': vdev file '%s/x.img' (really "
             "'/etc/x.img') is in a system folder (/etc): the run makes it "
             "as root with bytes the plan chooses; use /var/tmp, /tmp or a "
             "data disk", link);
    struct rh_bad viaLink = {text, 2, want};
    rh_refused(&viaLink, 1);
    /* a remote host's path cannot be resolved here: as written counts */
    struct pb_run_plan *p = parse_ok("[plan]\nvdevs = file:/var/tmp/a.img:64M,"
                                     " file:/srv/pb/b.img:64M, "
                                     "file:/home/u/c.img:64M\n" FIO8);
    assert_int_equal(p->data.n, 3);
    pb_run_plan_free(p);
    unlink(link);
    rmdir(dir);
#undef SYS
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
        cmocka_unit_test(test_fio_files),
        cmocka_unit_test(test_control_chars),
        cmocka_unit_test(test_system_folders),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
