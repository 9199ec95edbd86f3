/* Unit tests for render/ on databases filled through pb_db_store: repeats
 * folded into mean/SE/n, fio aggregates, best configuration verdicts, the
 * geometric-mean ranking, sweeps, and whole reports: bonnie++ and
 * compression tables, escaping, byte-identical reruns, PDF. Units, text
 * and chart layout: test_render.c. */
#define _XOPEN_SOURCE 700
#include "tests/unit/render_help.h"
#include "analysis/stream_int.h"

/* ==== the model ==== */

/* fio aggregates: "job" beside "job#0".."job#2" and "(all clients)" beside
 * each client stand for their parts. */
static void test_fio_aggregates(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    struct pb_resultset *s = new_set("fio-json");
    size_t c = pb_rs_config(s, "nj3");
    size_t t = pb_rs_test(s, "fio randwrite bs=4k numjobs=3", "fio");
    for (int i = 0; i < 3; i++) {
        char job[16];
        snprintf(job, sizeof(job), "nj3#%d", i);
        pb_rs_add(s, c, t, NULL, job, "write_iops", "ops/s", PB_DIR_HIGHER,
                  256000);
    }
    pb_rs_add(s, c, t, NULL, "nj3", "write_iops", "ops/s", PB_DIR_HIGHER,
              768000);
    size_t c2 = pb_rs_config(s, "cs");
    pb_rs_add(s, c2, t, "127.0.0.1:8765", "cs", "write_iops", "ops/s",
              PB_DIR_HIGHER, 14222.222222);
    pb_rs_add(s, c2, t, "127.0.0.1:8766", "cs", "write_iops", "ops/s",
              PB_DIR_HIGHER, 11130.434783);
    pb_rs_add(s, c2, t, "(all clients)", "cs", "write_iops", "ops/s",
              PB_DIR_HIGHER, 22260.869565);
    store(db, s);
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load(db, NULL, &d, &err), PB_OK);
    assert_int_equal(d.nrows, 7);
    assert_int_equal(d.ncells, 2);
    /* cells in natural config order: "cs" then "nj3" */
    assert_string_equal(d.configs[d.cells[0].config].label, "cs");
    assert_near(d.cells[0].mean, 22260.869565, 1e-6);
    assert_int_equal(d.cells[0].n, 1);
    assert_near(d.cells[1].mean, 768000, 1e-9);
    assert_int_equal(d.cells[1].n, 1);
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* Null reasons: a cell holds an index into d.reasons, one entry per
 * distinct text in the order first read (past the hash's first growths),
 * the same through the temporary file of a streamed load. */
static void check_reasons(const struct rp_data *d)
{
    for (size_t g = 0; g < d->ngroups; g++) {
        const struct rp_group *gr = &d->groups[g];
        if (gr->first == SIZE_MAX)
            continue;
        int m = !strcmp(d->metrics[gr->metric].name, "sys_cpu");
        for (size_t k = 0; k < gr->n; k++) {
            const struct rp_cell *c = &d->cells[gr->first + k];
            int i = atoi(d->configs[c->config].label + 1);
            char want[32];
            snprintf(want, sizeof(want), "m%d why %02d", m, i % 50);
            assert_int_equal(c->has_value, i % 3 == 0);
            if (i % 3 == 0)
                assert_null(rp_cell_reason(d, c));
            else
                assert_string_equal(rp_cell_reason(d, c), want);
        }
    }
}

static void test_cell_reasons(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    struct pb_resultset *s = new_set("fio-json");
    size_t t = pb_rs_test(s, "fio randread bs=4k", "fio");
    for (int i = 0; i < 300; i++) {
        char label[16], why[32];
        snprintf(label, sizeof(label), "c%03d", i);
        size_t c = pb_rs_config(s, label);
        for (int m = 0; m < 2; m++) {
            const char *name = m ? "sys_cpu" : "read_iops";
            const char *unit = m ? "%" : "ops/s";
            int dir_ = m ? PB_DIR_LOWER : PB_DIR_HIGHER;
            snprintf(why, sizeof(why), "m%d why %02d", m, i % 50);
            if (i % 3 == 0)
                pb_rs_add(s, c, t, NULL, label, name, unit, dir_, 1.0 + i);
            else
                pb_rs_add_null(s, c, t, NULL, label, name, unit, dir_, why);
        }
    }
    store(db, s);
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load(db, NULL, &d, &err), PB_OK);
    assert_int_equal(d.ncells, 600);
    assert_int_equal(d.nreasons, 100);
    assert_string_equal(d.reasons[0], "m0 why 01"); /* c001's read_iops */
    check_reasons(&d);
    rp_data_release(&d);
    assert_int_equal(rp_data_load_streamed(db, NULL, NULL, &d, &err), PB_OK);
    assert_non_null(d.stream);
    assert_int_equal(d.nreasons, 100);
    size_t ondisk = 0;
    for (size_t g = 0; g < d.ngroups; g++)
        ondisk += d.groups[g].first == SIZE_MAX;
    assert_int_equal(ondisk, 1); /* sys_cpu: read back from the file */
    rp_stream_test(&d, 0);
    for (size_t g = 0; g < d.ngroups; g++)
        assert_true(d.groups[g].first != SIZE_MAX);
    check_reasons(&d);
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

static void test_best_and_ranking(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    /* A: 100, 50; B: 50, 80; C: 100, 100 on two tests (t2 stored as
     * seconds, lower is better: 200 s, 125 s, 100 s); D only on t1 */
    const char *cfg[] = {"A", "B", "C"};
    double t1[] = {100, 50, 100}, t2[] = {50, 80, 100};
    for (int i = 0; i < 3; i++) {
        struct pb_resultset *s = new_set("pts-xml");
        size_t c = pb_rs_config(s, cfg[i]);
        size_t a = pb_rs_test(s, "t1", "pts");
        size_t b = pb_rs_test(s, "t2", "pts");
        pb_rs_add(s, c, a, NULL, NULL, "value", "MB/s", PB_DIR_HIGHER, t1[i]);
        /* t2 is lower-is-better: invert so C and A/B keep the ratios */
        pb_rs_add(s, c, b, NULL, NULL, "value", "Seconds", PB_DIR_LOWER,
                  10000 / t2[i]);
        store(db, s);
    }
    struct pb_resultset *s = new_set("pts-xml");
    size_t c = pb_rs_config(s, "D");
    size_t a = pb_rs_test(s, "t1", "pts");
    pb_rs_add(s, c, a, NULL, NULL, "value", "MB/s", PB_DIR_HIGHER, 99);
    store(db, s);
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load(db, NULL, &d, &err), PB_OK);
    assert_int_equal(d.ngroups, 2);
    struct rp_ranking r;
    rp_rank_configs(&d, &r);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.ngroups, 2);
    assert_int_equal(r.unranked, 1); /* D lacks t2 */
    assert_string_equal(d.configs[r.e[0].config].label, "C");
    assert_near(r.e[0].score, 1, 1e-12);
    assert_int_equal(r.e[0].wins, 2);
    assert_near(r.e[1].score, sqrt(1.0 * 0.5), 1e-12);
    assert_near(r.e[2].score, sqrt(0.5 * 0.8), 1e-12);
    assert_string_equal(d.configs[r.e[1].config].label, "A");
    assert_string_equal(d.configs[r.e[2].config].label, "B");
    assert_int_equal(r.e[1].wins, 1); /* A ties C on t1 */
    rp_ranking_release(&r);
    /* t1: A and C tie at 100 */
    struct rp_best b;
    rp_best_of(&d, &d.groups[0], NULL, &b);
    assert_int_equal(b.verdict, RP_V_TIE);
    /* t2 (lower is better): C 100 s best, runner-up B at 125 s */
    rp_best_of(&d, &d.groups[1], NULL, &b);
    assert_string_equal(d.configs[d.cells[b.best].config].label, "C");
    assert_string_equal(d.configs[d.cells[b.runner].config].label, "B");
    assert_near(b.margin, 0.25, 1e-12);
    /* single runs are not judged, whatever their standard errors */
    assert_int_equal(b.verdict, RP_V_UNJUDGED);
    assert_string_equal(b.why, "single run");
    d.cells[b.best].se = 10;
    d.cells[b.runner].se = 10;
    rp_best_of(&d, &d.groups[1], NULL, &b);
    assert_int_equal(b.verdict, RP_V_UNJUDGED);
    /* the test compare uses (issue 42 item 14): 100 +- 10 against
     * 125 +- 10 with n 3 each, ±SE intervals apart (the old "clear"),
     * is not distinguishable: Welch p 0.15183454328291035 (SciPy) */
    d.cells[b.best].n = d.cells[b.runner].n = 3;
    rp_best_of(&d, &d.groups[1], NULL, &b);
    assert_int_equal(b.verdict, RP_V_OVERLAP);
    assert_string_equal(b.method, "welch");
    assert_near(b.p, 0.15183454328291035, 1e-9);
    char txt[128];
    unsigned char style;
    assert_string_equal(rp_best_verdict_text(&b, txt, sizeof(txt), &style),
                        "not distinguishable: Welch p = 0.15");
    /* +- 2: clear, p 0.0009044639396769474 (SciPy) */
    d.cells[b.best].se = d.cells[b.runner].se = 2;
    rp_best_of(&d, &d.groups[1], NULL, &b);
    assert_int_equal(b.verdict, RP_V_CLEAR);
    assert_near(b.p, 0.0009044639396769474, 1e-10);
    assert_string_equal(rp_best_verdict_text(&b, txt, sizeof(txt), &style),
                        "clear: Welch p = 0.0009");
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* recordsize x compression x bs with three repeats each */
static void fill_sweep(struct pb_db *db)
{
    const char *rs[] = {"4096", "131072"}, *comp[] = {"off", "lz4"},
               *bs[] = {"4096", "65536"};
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            for (int b = 0; b < 2; b++)
                for (int k = 0; k < 3; k++) {
                    char label[64];
                    snprintf(label, sizeof(label), "zfs rs=%s %s", rs[r],
                             comp[c]);
                    double v = 1000.0 * (r + 1) * (c + 1) * (b + 1) + k;
                    fio_result(db, label, rs[r], comp[c], bs[b], v);
                }
}

static void test_sweeps(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    fill_sweep(db);
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load(db, NULL, &d, &err), PB_OK);
    assert_int_equal(d.nrows, 24 * 3);
    assert_int_equal(d.ncells, 2 * 4 * 3);
    /* repeats 0,1,2 added: mean +1, sd 1, se 1/sqrt(3) */
    for (size_t i = 0; i < d.ncells; i++) {
        assert_int_equal(d.cells[i].n, 3);
    }
    struct rp_sweeps sw;
    assert_int_equal(rp_find_sweeps(&d, NULL, NULL, &sw, &err), PB_OK);
    assert_int_equal(sw.n, 1); /* read_iops is the primary of randread */
    assert_string_equal(d.metrics[sw.v[0].metric].name, "read_iops");
    /* three dims of 2 values: bs (test) first by preference, then
     * recordsize; compression makes the panels */
    assert_string_equal(sw.v[0].x.key, "bs");
    assert_string_equal(sw.v[0].s.key, "recordsize");
    assert_int_equal(sw.v[0].npanels, 2);
    assert_string_equal(sw.v[0].panels[0].title, "compression=lz4");
    assert_int_equal(sw.v[0].panels[0].nx, 2);
    assert_string_equal(sw.v[0].panels[0].xvals[1], "64k");
    size_t cell = sw.v[0].panels[0].grid[1 * 2 + 1]; /* rs=128k, bs=64k */
    assert_near(d.cells[cell].mean, 1000.0 * 2 * 2 * 2 + 1, 1e-9);
    assert_near(d.cells[cell].se, 1 / sqrt(3), 1e-12);
    rp_sweeps_release(&sw);
    assert_int_equal(rp_find_sweeps(&d, "compression", "recordsize", &sw, &err),
                     PB_OK);
    assert_string_equal(sw.v[0].x.key, "compression");
    assert_string_equal(sw.v[0].s.key, "recordsize");
    assert_string_equal(sw.v[0].panels[0].title, "bs=4k");
    rp_sweeps_release(&sw);
    memset(&err, 0, sizeof(err));
    assert_int_equal(rp_find_sweeps(&d, "volblocksize", NULL, &sw, &err),
                     PB_EUSAGE);
    assert_non_null(strstr(err.msg, "'volblocksize'"));
    assert_non_null(strstr(err.msg, "recordsize"));
    rp_sweeps_release(&sw);
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* A PTS suite: different programs in seconds with their own app_version
 * and arguments, two of them sharing an rw key, and one fio profile at
 * three block sizes in MB/s, on two systems the parameters do not tell
 * apart. Only the block sizes make a sweep (issue 18 item 4). */
static void test_sweep_families(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    static const struct {
        const char *tool, *name, *appver, *args, *rw;
        double secs;
    } progs[] = {
        {"pts/c-ray-1.2.0", "C-Ray: Total Time", "1.1", "-s 3840x2160", NULL,
         39.4},
        {"pts/gnupg-1.4.0", "GnuPG: 2.7GB Sample File Encryption", "1.4.22",
         NULL, NULL, 61.1},
        {"pts/compress-pbzip2-1.6.0", "Parallel BZIP2 Compression", "1.1.13",
         NULL, NULL, 2.9},
        {"pts/sqlite-2.1.0", "SQLite: Threads / Copies: 1", "3.30.1", "1",
         "write", 8.2},
        {"pts/encode-mp3-1.7.4", "LAME MP3 Encoding: WAV To MP3", "3.100",
         NULL, "read", 5.9},
    };
    static const char *const bs[] = {"4096", "65536", "1048576"};
    static const char *const sys[] = {"ryzen", "intel"};
    for (int k = 0; k < 2; k++) {
        struct pb_resultset *s = new_set("pts-xml");
        size_t c = pb_rs_config(s, sys[k]);
        for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
            size_t t = pb_rs_test(s, progs[i].name, progs[i].tool);
            pb_rs_test_param(s, t, "app_version", progs[i].appver);
            pb_rs_test_param(s, t, "scale", "Seconds");
            if (progs[i].args)
                pb_rs_test_param(s, t, "arguments", progs[i].args);
            if (progs[i].rw)
                pb_rs_test_param(s, t, "rw", progs[i].rw);
            pb_rs_add(s, c, t, sys[k], NULL, "value", "Seconds", PB_DIR_LOWER,
                      progs[i].secs * (k + 1));
        }
        for (int b = 0; b < 3; b++) {
            char name[64], args[64];
            snprintf(name, sizeof(name), "Flexible IO Tester: bs %s", bs[b]);
            snprintf(args, sizeof(args), "read io_uring 1 0 %s", bs[b]);
            size_t t = pb_rs_test(s, name, "pts/fio-2.1.0");
            pb_rs_test_param(s, t, "rw", "read");
            pb_rs_test_param(s, t, "bs", bs[b]);
            pb_rs_test_param(s, t, "app_version", "3.33");
            pb_rs_test_param(s, t, "scale", "MB/s");
            pb_rs_test_param(s, t, "arguments", args);
            pb_rs_add(s, c, t, sys[k], NULL, "value", "MB/s", PB_DIR_HIGHER,
                      100.0 * (b + 1) + k);
        }
        store(db, s);
    }
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load(db, NULL, &d, &err), PB_OK);
    struct rp_sweeps sw;
    assert_int_equal(rp_find_sweeps(&d, NULL, NULL, &sw, &err), PB_OK);
    assert_int_equal(sw.n, 1);
    assert_string_equal(d.metrics[sw.v[0].metric].unit, "MB/s");
    assert_string_equal(sw.v[0].x.key, "bs");
    assert_int_equal(sw.v[0].s.kind, RP_DIM_LABEL);
    assert_int_equal(sw.v[0].npanels, 1);
    const struct rp_panel *p = &sw.v[0].panels[0];
    assert_int_equal(p->nx, 3);
    assert_int_equal(p->ns, 2);
    assert_string_equal(p->xvals[2], "1M");
    for (size_t i = 0; i < p->nx * p->ns; i++) {
        assert_true(p->grid[i] != SIZE_MAX);
        const struct rp_test *t = &d.tests[d.cells[p->grid[i]].test];
        assert_string_equal(t->tool, "pts/fio-2.1.0");
    }
    rp_sweeps_release(&sw);
    /* identity keys are no dimension; rw varies only across programs */
    static const char *const refused[] = {"app_version", "arguments", "scale",
                                          "tool", "rw"};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        memset(&err, 0, sizeof(err));
        if (rp_find_sweeps(&d, refused[i], NULL, &sw, &err) != PB_EUSAGE) {
            print_error("--x %s was accepted\n", refused[i]);
            fail();
        }
        /* the whole message is kept (issue 42 item 9) */
        assert_non_null(sw.why);
        assert_string_equal(sw.why, err.msg);
        if (!strcmp(refused[i], "rw")) {
            /* it varies, but only between programs: said, not denied */
            assert_non_null(strstr(err.msg, "by rw: rw varies only between "
                                            "programs, and a sweep stays "
                                            "within one"));
            rp_sweeps_release(&sw);
            continue;
        }
        const char *along = strstr(err.msg, "(they vary along: ");
        assert_non_null(along);
        assert_null(strstr(along, "app_version"));
        assert_null(strstr(along, "arguments"));
        assert_null(strstr(along, "tool"));
        rp_sweeps_release(&sw);
    }
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* ==== whole reports ==== */

static void fill_special(struct pb_db *db)
{
    struct pb_resultset *s = new_set("bonnie-csv");
    size_t c = pb_rs_config(s, "host1");
    size_t t = pb_rs_test(s, "bonnie++ file_size=16G", "bonnie++");
    pb_rs_test_param(s, t, "file_size", "17179869184");
    pb_rs_add(s, c, t, "host1", NULL, "seq_out_block_bw", "B/s", PB_DIR_HIGHER,
              26924032);
    pb_rs_add(s, c, t, "host1", NULL, "seq_out_block_cpu", "%", PB_DIR_LOWER,
              3);
    pb_rs_add(s, c, t, "host1", NULL, "seq_out_block_latency", "ns",
              PB_DIR_LOWER, 332000000);
    pb_rs_add_null(s, c, t, "host1", NULL, "seq_create", "ops/s", PB_DIR_HIGHER,
                   "+++++ (too fast to measure)");
    pb_rs_fact(s, "host1", "cpu", "Xeon <b>bold</b>");
    /* a machine whose only bonnie++ field has no value (not +++++): no
     * empty row in the bonnie++ table */
    size_t c2 = pb_rs_config(s, "host2-empty");
    pb_rs_add_null(s, c2, t, "host2-empty", NULL, "seq_out_block_bw", "B/s",
                   PB_DIR_HIGHER, "field left empty");
    store(db, s);
    s = new_set("zfs-props");
    c = pb_rs_config(s, "tank/zvol8k");
    pb_rs_config_param(s, c, "compression", "lz4");
    pb_rs_config_param(s, c, "volblocksize", "8192");
    t = pb_rs_test(s, "zfs space", "zfs");
    pb_rs_add(s, c, t, NULL, NULL, "compressratio", "ratio", PB_DIR_HIGHER,
              1.5);
    pb_rs_add(s, c, t, NULL, NULL, "used", "B", PB_DIR_LOWER, 2e9);
    pb_rs_add(s, c, t, NULL, NULL, "logicalused", "B", PB_DIR_HIGHER, 1.6e9);
    pb_rs_add(s, c, t, NULL, NULL, "actual_savings", "ratio", PB_DIR_HIGHER,
              0.8);
    pb_rs_fact(s, NULL, "tank/zvol8k:volmode", "dev");
    pb_rs_fact(s, NULL, "tank/zvol8k:actual_savings_basis",
               "logicalused/used");
    store(db, s);
}

static char *render(struct pb_db *db, const char *dir, const char *sub,
                    struct pb_render_summary *sum)
{
    char *out = pb_xasprintf("%s/%s", dir, sub);
    struct pb_render_opts o;
    memset(&o, 0, sizeof(o));
    o.outdir = out;
    o.version = "test";
    struct pb_err err = {0};
    int rc = render_report_db(db, &o, sum, &err);
    if (rc) {
        print_error("render: %s\n", err.msg);
        fail();
    }
    return out;
}

static void same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    if (la != lb || memcmp(x, y, la)) {
        print_error("%s and %s differ\n", a, b);
        fail();
    }
    free(x);
    free(y);
}

static void test_report(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    fill_sweep(db);
    fill_special(db);
    fio_result(db, "<script>alert(1)</script>", "4096", "off", "4096", 500);
    struct pb_render_summary sum;
    char *out = render(db, dir, "r1", &sum);
    char path[700];
    snprintf(path, sizeof(path), "%s/index.html", out);
    char *html = slurp(path, NULL);
    /* charts: ranking; sweep grouped + heatmap per compression panel (2x2);
     * per test: bw and iops of the two fio tests (iops of bs=4k has the
     * script config beside the sweep); bonnie seq_out_block_bw (one bar,
     * no sweep). */
    assert_int_equal(count(html, "<img src=\"charts/"), (int)sum.charts);
    assert_true(sum.charts >= 8);
    assert_int_equal(count(html, "<figure>"), (int)sum.charts);
    /* escaping: a label is text, never markup */
    assert_int_equal(count(html, "<script"), 1); /* our sorting script */
    assert_true(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;") >= 2);
    assert_non_null(strstr(html, "Xeon &lt;b&gt;bold&lt;/b&gt;"));
    /* bonnie++ table: +++++ kept, units in headers */
    assert_non_null(strstr(html, "<section id=\"bonnie\">"));
    assert_non_null(strstr(html, ">+++++<"));
    assert_non_null(strstr(html, "Block (MiB/s)"));
    assert_non_null(strstr(html, ">25.7<")); /* 26924032 B/s in MiB/s */
    assert_non_null(strstr(html, ">332.0 ms<"));
    {
        const char *b = strstr(html, "<section id=\"bonnie\">");
        const char *e = b ? strstr(b, "</section>") : NULL;
        assert_non_null(e);
        const char *h2 = strstr(b, "host2-empty");
        assert_true(!h2 || h2 > e);
    }
    /* compression: savings derived by the reader (1.6e9 / 2e9 = 0.80),
     * its formula in the tooltip, and flagged */
    assert_non_null(strstr(html, "<section id=\"compression\">"));
    assert_non_null(strstr(html, "0.80× †  ▼ data grew"));
    assert_non_null(strstr(html, "derived: logicalused/used"));
    assert_non_null(strstr(html, "volblocksize 8k"));
    assert_non_null(strstr(html, ">1.50×<"));
    /* exact values and SE in the tables: rs=128k lz4 bs=64k = 8001 */
    assert_non_null(strstr(html, ">8001<"));
    assert_non_null(strstr(html, "± 0.58 IOPS"));
    assert_non_null(strstr(html, "Best configuration per test"));
    /* the verdicts are the test's (issue 42 item 14), never "±SE apart" */
    assert_non_null(strstr(html, ": Welch p = "));
    assert_null(strstr(html, "intervals apart"));
    assert_non_null(strstr(html, "tank/zvol8k"));
    assert_non_null(strstr(html, "volmode"));
    /* every chart file is there and is well-formed SVG */
    const char *p = html;
    int n = 0;
    while ((p = strstr(p, "<img src=\"charts/")) != NULL) {
        p += 10;
        const char *q = strchr(p, '"');
        char file[700];
        snprintf(file, sizeof(file), "%s/%.*s", out, (int)(q - p), p);
        char *svg = slurp(file, NULL);
        assert_null(strstr(svg, "<script"));
        xmlDocPtr doc = xmlReadMemory(svg, (int)strlen(svg), file, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR);
        assert_non_null(doc);
        xmlFreeDoc(doc);
        free(svg);
        n++;
    }
    assert_int_equal(n, (int)sum.charts);
    /* byte-identical on a second run */
    struct pb_render_summary sum2;
    char *out2 = render(db, dir, "r2", &sum2);
    assert_int_equal(sum2.charts, sum.charts);
    char path2[700];
    snprintf(path2, sizeof(path2), "%s/index.html", out2);
    same_file(path, path2);
    p = html;
    while ((p = strstr(p, "<img src=\"charts/")) != NULL) {
        p += 10;
        const char *q = strchr(p, '"');
        char f1[700], f2[700];
        snprintf(f1, sizeof(f1), "%s/%.*s", out, (int)(q - p), p);
        snprintf(f2, sizeof(f2), "%s/%.*s", out2, (int)(q - p), p);
        same_file(f1, f2);
    }
    free(html);
    /* filters: only the bonnie++ test */
    struct pb_render_opts o;
    memset(&o, 0, sizeof(o));
    char *out3 = pb_xasprintf("%s/r3", dir);
    o.outdir = out3;
    o.filter.test_re = "^bonnie";
    o.title = "only <bonnie>";
    struct pb_err err = {0};
    assert_int_equal(render_report_db(db, &o, &sum, &err), PB_OK);
    snprintf(path, sizeof(path), "%s/index.html", out3);
    html = slurp(path, NULL);
    assert_non_null(strstr(html, "<title>only &lt;bonnie&gt;</title>"));
    assert_null(strstr(html, "compression\">"));
    assert_null(strstr(html, "alert"));
    assert_non_null(strstr(html, "1 source · 2 configurations · 1 test · 5 "
                                 "results"));
    assert_non_null(strstr(html, " · only tests matching “^bonnie”</p>"));
    free(html);
    /* a filter said in words (the run report's): no pattern on screen */
    o.filter_note = "configurations of run <rs>";
    assert_int_equal(render_report_db(db, &o, &sum, &err), PB_OK);
    html = slurp(path, NULL);
    assert_non_null(strstr(html, "5 results · configurations of run "
                                 "&lt;rs&gt;</p>"));
    assert_null(strstr(html, "^bonnie"));
    free(html);
    o.filter_note = NULL;
    /* a bad pattern is a usage error */
    o.filter.test_re = "(";
    assert_int_equal(render_report_db(db, &o, &sum, &err), PB_EUSAGE);
    /* an unwritable folder is an I/O error naming it */
    o.filter.test_re = NULL;
    o.outdir = "/proc/no-such-dir/report";
    memset(&err, 0, sizeof(err));
    assert_int_equal(render_report_db(db, &o, &sum, &err), PB_EIO);
    free(out);
    free(out2);
    free(out3);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* PDF layout (issue 19 item 5), by cairo's own numbers: tables keep 7 pt
 * or more (the best-configuration table once shrank to ~4 pt), wide
 * tables wrap or split into parts, and no heading ends a page. */
static void test_pdf_layout(void **state)
{
    (void)state;
    char *dir = make_tmp();
    char *path = pb_xasprintf("%s/r.pdf", dir);
    struct rc_fonts *f = rc_fonts_new();
    struct rp_pdf *p;
    struct pb_err err = {0};
    assert_int_equal(rp_pdf_open(path, NULL, f, &p, &err), PB_OK);
    /* the best-configuration table: long test names and labels */
    struct rt_table t;
    rt_init(&t, 6);
    rt_header(&t, 0, "Test", RT_LEFT);
    rt_header(&t, 1, "Metric", RT_LEFT);
    rt_header(&t, 2, "Best configuration", RT_LEFT);
    rt_header(&t, 3, "Value", RT_RIGHT);
    rt_header(&t, 4, "Runner-up", RT_LEFT);
    rt_header(&t, 5, "Verdict", RT_LEFT);
    for (int r = 0; r < 40; r++) {
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0],
               rt_str(&t, "Flexible IO Tester: Type: Random Read - Engine: "
                          "IO_uring - Buffered: No - Direct: Yes - Block "
                          "Size: 4KB - Disk Target: Default Test Directory "
                          "%d (MB/s)", r));
        rt_set(&t, &row[1], "read completion latency, p99");
        rt_set(&t, &row[2], "zfs raidz2 recordsize=128k compression=lz4 "
                            "atime=off sync=standard");
        rt_set(&t, &row[3], "148.1 ± 1.2 MiB/s");
        rt_set(&t, &row[4], "zfs mirror recordsize=1M compression=zstd");
        rt_set(&t, &row[5], "clear: ±SE intervals apart (+12.5%)");
    }
    rp_pdf_heading(p, 2, "Overview");
    rp_pdf_heading(p, 3, "Best configuration per test");
    rp_pdf_table(p, &t);
    rt_release(&t);
    struct rp_pdf_stats st;
    rp_pdf_get_stats(p, &st);
    assert_true(st.min_table_pt >= 7.0);
    assert_int_equal(st.table_parts, 1); /* wrapped, not split */
    /* 30 number columns: split into parts, the first column in each */
    rt_init(&t, 31);
    rt_header(&t, 0, "Name", RT_LEFT);
    for (int c = 1; c < 31; c++)
        rt_header(&t, (size_t)c, rt_str(&t, "Column %d (MiB/s)", c), RT_RIGHT);
    for (int r = 0; r < 5; r++) {
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], "tank_raidz1_rs16k");
        for (int c = 1; c < 31; c++)
            rt_setv(&t, &row[c], "123456.7", 123456.7);
    }
    rp_pdf_table(p, &t);
    rt_release(&t);
    rp_pdf_get_stats(p, &st);
    assert_true(st.min_table_pt >= 7.0);
    assert_true(st.table_parts >= 3);
    /* headings then tall charts, many times: each heading stays with its
     * chart (a chart 0.75 x 560 px tall never fits below a heading that
     * comes late on a page) */
    for (int k = 0; k < 12; k++) {
        rp_pdf_para(p, "A line of text before the heading.");
        rp_pdf_heading(p, 3, "fio randread bs=4k iodepth=4: read IOPS");
        struct pb_chart *c = rc_chart_new(860, 560);
        rc_rect(c, 0, 0, 860, 560, 0xeeeeee, RC_NONE, 0);
        rp_pdf_chart(p, c);
        pb_chart_free(c);
    }
    rp_pdf_heading(p, 2, "Sources");
    rp_pdf_get_stats(p, &st);
    assert_int_equal(st.orphans, 0);
    assert_int_equal(st.headings, 2 + 12);
    assert_int_equal(rp_pdf_close(p, 1, &err), PB_OK);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size > 1000);
    rc_fonts_free(f);
    free(path);
    rm_tree(dir);
    free(dir);
}

static void test_empty_and_pdf(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    struct pb_render_summary sum;
    char *out = render(db, dir, "empty", &sum);
    char path[700];
    snprintf(path, sizeof(path), "%s/index.html", out);
    char *html = slurp(path, NULL);
    assert_non_null(strstr(html, "No results match"));
    assert_int_equal(sum.charts, 0);
    free(html);
    fill_special(db);
    fill_sweep(db);
    struct pb_render_opts o;
    memset(&o, 0, sizeof(o));
    char *out2 = pb_xasprintf("%s/pdf", dir);
    char *pdf = pb_xasprintf("%s/r.pdf", dir);
    o.outdir = out2;
    o.pdf_path = pdf;
    o.png = 1;
    struct pb_err err = {0};
    assert_int_equal(render_report_db(db, &o, &sum, &err), PB_OK);
    assert_int_equal(sum.pngs, sum.charts);
    size_t len;
    char *bytes = slurp(pdf, &len);
    assert_true(len > 2000 && !memcmp(bytes, "%PDF-", 5));
    free(bytes);
    free(out);
    free(out2);
    free(pdf);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

/* The window of a streamed report (analysis/stream.c): loading a test reads
 * back only the groups a section reads (charted, the first MAX_ALL_ROWS
 * cells of "All metrics" in group order, the IOPS-against-latency
 * metrics); the others stay on disk (first == SIZE_MAX). The cells of a
 * group come in configuration order (the configurations are stored out
 * of it: c0000 is the first, c0007 the second, ...). After
 * rp_stream_drop no cell is in memory and none is loaded again. 1,200
 * configurations of one fio test, five metrics. */
static void test_stream_window(void **state)
{
    (void)state;
    char *dir = make_tmp();
    struct pb_db *db = open_db(dir);
    struct pb_resultset *s = new_set("fio-json");
    size_t t = pb_rs_test(s, "fio randread bs=4k", "fio");
    static const char *const ms[] = {"read_iops", "read_clat_mean",
                                     "read_clat_p50", "sys_cpu", "usr_cpu"};
    for (int i = 0; i < 1200; i++) {
        int p = (i * 7) % 1200; /* 1,200 labels, not in their order */
        char label[16];
        snprintf(label, sizeof(label), "c%04d", p);
        size_t c = pb_rs_config(s, label);
        for (int m = 0; m < 5; m++)
            pb_rs_add(s, c, t, NULL, label, ms[m], m ? "ns" : "ops/s",
                      m ? PB_DIR_LOWER : PB_DIR_HIGHER, 1000.0 + p + m);
    }
    store(db, s);
    struct rp_data d;
    struct pb_err err = {0};
    assert_int_equal(rp_data_load_streamed(db, NULL, NULL, &d, &err), PB_OK);
    assert_non_null(d.stream);
    assert_int_equal(d.ngroups, 5);
    rp_stream_test(&d, 0);
    size_t before = 0, loaded = 0, ondisk = 0;
    for (size_t g = 0; g < d.ngroups; g++) {
        const struct rp_group *gr = &d.groups[g];
        const char *m = d.metrics[gr->metric].name;
        int want = rp_group_resident(&d, gr) || gr->chart || before < 1000 ||
                   rp_iolat_metric(m);
        assert_int_equal(gr->first != SIZE_MAX, want);
        if (gr->first == SIZE_MAX) {
            ondisk++;
        } else {
            loaded++;
            /* the cells are the group's own: c0000 first, its value */
            assert_int_equal(gr->n, 1200);
            const struct rp_cell *c = &d.cells[gr->first];
            assert_int_equal(c->metric, gr->metric);
            assert_string_equal(d.configs[c->config].label, "c0000");
            size_t k = 0;
            while (strcmp(ms[k], m))
                k++;
            assert_near(c->mean, 1000.0 + (double)k, 1e-9);
            for (size_t i = 1; i < gr->n; i++) {
                const struct rp_cell *a = &d.cells[gr->first + i - 1];
                const struct rp_cell *b = a + 1;
                assert_int_equal(d.configs[a->config].rank + 1,
                                 d.configs[b->config].rank);
                assert_near(b->mean, 1000.0 + (double)(i + k), 1e-9);
            }
        }
        before += gr->n;
    }
    /* read_iops (charted) and read_clat_mean (IOPS against latency) and
     * the first group in order come back; two of the others stay out */
    assert_true(ondisk >= 2);
    assert_true(loaded >= 2);
    rp_stream_drop(&d);
    assert_null(d.cells);
    assert_int_equal(d.ncells, 0);
    rp_stream_test(&d, 0);
    for (size_t g = 0; g < d.ngroups; g++)
        assert_true(d.groups[g].first == SIZE_MAX);
    assert_int_equal(rp_stream_check(&d, &err), PB_OK);
    rp_data_release(&d);
    pb_db_close(db);
    rm_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_aggregates),
        cmocka_unit_test(test_cell_reasons),
        cmocka_unit_test(test_best_and_ranking),
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_sweep_families),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_empty_and_pdf),
        cmocka_unit_test(test_pdf_layout),
        cmocka_unit_test(test_stream_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
