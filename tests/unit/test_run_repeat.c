/* Unit tests for run/repeat.c (issue 12 item 5): the [plan] keys
 * repeats = auto, max_repeats, target_rse, order, seed (values and
 * path:line errors), the relative standard error, when auto repeats stop
 * and what they record, and the fixed order of order = random. No root
 * and no ZFS needed. */
#define _GNU_SOURCE
#include "tests/unit/run_help.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"

#define VD     "vdevs = file:/tmp/pb-unit-none/d0.img:128M\n"
#define SEED42 2, 0, 1, 4, 5, 3
#define VD2                                                                    \
    "vdevs = file:/tmp/pb-unit-none/d0.img:128M, "                             \
    "file:/tmp/pb-unit-none/d1.img:128M\n"

static void test_keys(void **state)
{
    (void)state;
    struct pb_run_plan *p =
        parse_ok("[plan]\nrepeats = auto\n" VD "[fio]\nsize=8m\n");
    assert_int_equal(p->repeats_auto, 1);
    assert_int_equal(p->repeats, 10); /* default max_repeats */
    assert_near(p->target_rse, 0.02, 1e-15);
    assert_int_equal(p->order_random, 0);
    pb_run_plan_free(p);

    p = parse_ok("[plan]\nrepeats = auto\nmax_repeats = 4\n"
                 "target_rse = 5.5%\norder = random\nseed = 42\n" VD
                 "[fio]\nsize=8m\n");
    assert_int_equal(p->repeats, 4);
    assert_near(p->target_rse, 0.055, 1e-15);
    assert_int_equal(p->order_random, 1);
    assert_int_equal(p->has_seed, 1);
    assert_int_equal(p->seed, 42);
    pb_run_plan_free(p);

    /* a bare number is a percentage too; order = plan is the default */
    p = parse_ok("[plan]\nrepeats = auto\ntarget_rse = 1\norder = plan\n" VD
                 "[fio]\nsize=8m\n");
    assert_near(p->target_rse, 0.01, 1e-15);
    assert_int_equal(p->order_random, 0);
    pb_run_plan_free(p);

    /* --time-scale leaves the maximum of auto repeats alone */
    p = parse_ok("[plan]\nrepeats = auto\nmax_repeats = 6\n" VD
                 "[fio]\nsize=64m\nruntime=10\n");
    struct pb_err err = {0};
    assert_int_equal(pb_run_plan_scale(p, 0.05, &err), PB_OK);
    assert_int_equal(p->repeats, 6);
    pb_run_plan_free(p);
}

static void test_key_errors(void **state)
{
    (void)state;
    static const struct rh_bad cases[] = {
        {"[plan]\nrepeats = sometimes\n" VD "[fio]\nsize=8m\n", 2,
         "repeats must be 1..1000 or auto, got 'sometimes'"},
        {"[plan]\n" VD "max_repeats = 5\n[fio]\nsize=8m\n", 3,
         "'max_repeats' needs repeats = auto"},
        {"[plan]\nrepeats = 3\n" VD "target_rse = 2%\n[fio]\nsize=8m\n", 4,
         "'target_rse' needs repeats = auto"},
        {"[plan]\nrepeats = auto\n" VD "max_repeats = 1\n[fio]\nsize=8m\n", 4,
         "max_repeats must be 2..1000, got '1'"},
        {"[plan]\nrepeats = auto\nmax_repeats = 1001\n" VD "[fio]\nsize=8m\n",
         3, "max_repeats must be 2..1000, got '1001'"},
        {"[plan]\nrepeats = auto\nmax_repeats = 5x\n" VD "[fio]\nsize=8m\n", 3,
         "max_repeats must be 2..1000, got '5x'"},
        {"[plan]\nrepeats = auto\ntarget_rse = 0%\n" VD "[fio]\nsize=8m\n", 3,
         "target_rse must be a percentage above 0 and at most 100 (e.g. "
         "2%), got '0%'"},
        {"[plan]\nrepeats = auto\ntarget_rse = 150\n" VD "[fio]\nsize=8m\n", 3,
         "target_rse must be a percentage above 0 and at most 100 (e.g. "
         "2%), got '150'"},
        {"[plan]\nrepeats = auto\ntarget_rse = nan\n" VD "[fio]\nsize=8m\n", 3,
         "target_rse must be a percentage above 0 and at most 100 (e.g. "
         "2%), got 'nan'"},
        {"[plan]\nrepeats = auto\ntarget_rse = 2%%\n" VD "[fio]\nsize=8m\n", 3,
         "target_rse must be a percentage above 0 and at most 100 (e.g. "
         "2%), got '2%%'"},
        {"[plan]\n" VD "order = shuffled\n[fio]\nsize=8m\n", 3,
         "order must be plan or random, got 'shuffled'"},
        {"[plan]\n" VD "seed = 7\n[fio]\nsize=8m\n", 3,
         "'seed' needs order = random"},
        {"[plan]\norder = random\n" VD "seed = -1\n[fio]\nsize=8m\n", 4,
         "seed must be an integer 0..4294967295, got '-1'"},
        {"[plan]\norder = random\n" VD "seed = 4294967296\n[fio]\nsize=8m\n", 4,
         "seed must be an integer 0..4294967295, got '4294967296'"},
        {"[plan]\norder = random\n" VD "seed = 0x10\n[fio]\nsize=8m\n", 4,
         "seed must be an integer 0..4294967295, got '0x10'"},
        {"[plan]\norder = random\nseed = 1\n" VD "seed = 2\n[fio]\nsize=8m\n",
         5, "'seed' given twice in [plan] (first on line 3)"},
    };
    rh_refused(cases, sizeof(cases) / sizeof(cases[0]));
}

static void test_rse(void **state)
{
    (void)state;
    /* mean 100, sample SD 10, SE 10 / sqrt(3) */
    const double a[] = {100, 110, 90};
    assert_near(pb_run_rse(a, 3), 10 / sqrt(3.0) / 100, 1e-15);
    const double b[] = {5, 5, 5, 5};
    assert_true(pb_run_rse(b, 4) == 0);
    assert_true(isnan(pb_run_rse(a, 1)));
    const double c[] = {-1, 1};
    assert_true(isinf(pb_run_rse(c, 2)));
}

/* A fio-like set with read_iops v (0: none) and write_iops w. */
static struct pb_resultset *iops_set(double v, double w)
{
    struct pb_resultset *s = pb_resultset_new();
    size_t c = pb_rs_config(s, "cell"), t = pb_rs_test(s, "fio", "fio");
    pb_rs_add(s, c, t, NULL, "poolbench", "read_bw", "B/s", PB_DIR_HIGHER,
              v * 4096);
    pb_rs_add(s, c, t, NULL, "poolbench", "read_iops", "ops/s", PB_DIR_HIGHER,
              v);
    pb_rs_add(s, c, t, NULL, "poolbench", "write_iops", "ops/s", PB_DIR_HIGHER,
              w);
    return s;
}

static void test_auto_stop(void **state)
{
    (void)state;
    struct pb_run_plan *p =
        parse_ok("[plan]\nrepeats = auto\nmax_repeats = "
                 "5\ntarget_rse = 3%\n" VD "[fio]\nsize=8m\n");
    /* read_iops 1000, 1100, 900: RSE 5.77% > 3%; then 1000, 1000: the
     * five give mean 1000, SD sqrt(20000 / 4), RSE 3.16% > 3%: stops at
     * the maximum */
    const double v[] = {1000, 1100, 900, 1000, 1000};
    struct pb_resultset *sets[5];
    for (int i = 0; i < 5; i++)
        sets[i] = iops_set(v[i], 50);
    struct pb_run_repstop st;
    assert_int_equal(pb_run_repeat_enough(p, sets, 1, &st), 0);
    assert_int_equal(pb_run_repeat_enough(p, sets, 2, &st), 0);
    assert_int_equal(pb_run_repeat_enough(p, sets, 3, &st), 0);
    assert_string_equal(st.metric, "read_iops");
    assert_near(st.rse, 10 / sqrt(3.0) / 100, 1e-12);
    assert_int_equal(pb_run_repeat_enough(p, sets, 4, &st), 0);
    assert_int_equal(pb_run_repeat_enough(p, sets, 5, &st), 1);
    assert_string_equal(st.why, "max");
    assert_near(st.rse, sqrt(20000.0 / 4) / sqrt(5.0) / 1000, 1e-12);
    pb_run_repeat_facts(p, &st, sets[0]);
    assert_string_equal(th_fact_any(sets[0], "repeats_stop"), "max");
    assert_string_equal(th_fact_any(sets[0], "repeats_done"), "5");
    assert_string_equal(th_fact_any(sets[0], "repeats_metric"), "read_iops");
    assert_string_equal(th_fact_any(sets[0], "repeats_rse"), "3.162%");
    assert_string_equal(th_fact_any(sets[0], "repeats_target_rse"), "3%");
    for (int i = 0; i < 5; i++)
        pb_resultset_free(sets[i]);

    /* 1000, 1010, 990: RSE 0.577% <= 3% after three (never after two) */
    const double w[] = {1000, 1000, 1010, 990};
    for (int i = 0; i < 4; i++)
        sets[i] = iops_set(0, w[i]);
    assert_int_equal(pb_run_repeat_enough(p, sets, 2, &st), 0);
    assert_near(st.rse, 0, 0);
    assert_int_equal(pb_run_repeat_enough(p, sets + 1, 3, &st), 1);
    assert_string_equal(st.why, "target");
    assert_string_equal(st.metric, "write_iops");
    pb_run_repeat_facts(p, &st, sets[1]);
    assert_string_equal(th_fact_any(sets[1], "repeats_stop"), "target");
    assert_string_equal(th_fact_any(sets[1], "repeats_done"), "3");
    assert_string_equal(th_fact_any(sets[1], "repeats_rse"), "0.5774%");
    for (int i = 0; i < 4; i++)
        pb_resultset_free(sets[i]);
    pb_run_plan_free(p);

    /* repeats = N: never stops early, records nothing */
    p = parse_ok("[plan]\nrepeats = 3\n" VD "[fio]\nsize=8m\n");
    sets[0] = iops_set(5, 5);
    sets[1] = iops_set(5, 5);
    sets[2] = iops_set(5, 5);
    assert_int_equal(pb_run_repeat_enough(p, sets, 3, &st), 0);
    pb_run_repeat_facts(p, &st, sets[0]);
    assert_null(th_fact_any(sets[0], "repeats_stop"));
    for (int i = 0; i < 3; i++)
        pb_resultset_free(sets[i]);
    pb_run_plan_free(p);
}

static const char order_plan[] = "[plan]\norder = random\nseed = %s\n" VD2
                                 "[pool]\nlayout = stripe, mirror\n"
                                 "[fio]\nsize = 8m\nbs = 4k, 8k, 16k\n";

static void test_order(void **state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof(text), order_plan, "42");
    struct pb_run_plan *p = parse_ok(text);
    assert_int_equal(pb_run_plan_ncells(p), 6);
    size_t o[6], again[6];
    pb_run_order(p, o);
    pb_run_order(p, again);
    assert_memory_equal(o, again, sizeof(o));
    /* a permutation, with the cells of one pool together */
    int seen[6] = {0};
    for (int i = 0; i < 6; i++)
        seen[o[i]]++;
    for (int i = 0; i < 6; i++)
        assert_int_equal(seen[i], 1);
    for (int i = 0; i < 6; i++) {
        struct pb_run_cell a, b;
        pb_run_cell_at(p, o[i], &a);
        pb_run_cell_at(p, o[i - i % 3], &b);
        assert_int_equal(a.combo[PB_RUN_POOL], b.combo[PB_RUN_POOL]);
    }
    /* the order seed 42 gives, on every machine (splitmix64) */
    static const size_t want42[6] = {SEED42};
    assert_memory_equal(o, want42, sizeof(o));
    pb_run_plan_free(p);

    snprintf(text, sizeof(text), order_plan, "7");
    p = parse_ok(text);
    pb_run_order(p, again);
    assert_memory_not_equal(o, again, sizeof(o));
    pb_run_plan_free(p);

    /* order = plan: as written */
    p = parse_ok("[plan]\n" VD "[fio]\nsize = 8m\nbs = 4k, 8k, 16k\n");
    pb_run_order(p, o);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(o[i], i);
    pb_run_plan_free(p);
}

/* The dry run says the order and the repeat rule, and lists the cells in
 * that order, each with its most repeats. */
static void test_dry_run(void **state)
{
    (void)state;
    const char *dir = "/tmp/pb-unit-repeat-out";
    if (access("/tmp/pb-unit-rep-d0.img", F_OK) == 0 || access(dir, F_OK) == 0)
        skip();
    static const char text[] =
        "[plan]\nname = unitrep\npool = pbunitrep\n"
        "vdevs = file:/tmp/pb-unit-rep-d0.img:128M\n"
        "repeats = auto\nmax_repeats = 3\norder = random\nseed = 42\n"
        "[dataset]\nrecordsize = 8k, 128k\ncompression = gzip, off\n"
        "[fio]\nrw = randread\nsize = 8m\nruntime = 1\n";
    struct pb_run_opts o = {0};
    o.dir = dir;
    o.run_id = "unit-rep";
    o.impl = PB_RUN_IMPL_ZFS_FUSE;
    o.caps_dir = CAPS_DIR "/zfs-fuse";
    struct pb_err err = {0};
    int rc;
    char *out = rh_dry_run(text, o, &rc, &err);
    if (rc)
        print_error("dry run: %s\n", err.msg);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "plan 'unitrep', 4 cells x auto repeats (3 "
                                "to 3, target RSE 2%), pool 'pbunitrep'"));
    assert_non_null(strstr(out, "# order = random, seed 42: cells 3 1 4 2\n"));
    /* the cells in that order */
    static const char *const cells[] = {
        "# cell 3/4: recordsize=128k compression=gzip",
        "# cell 1/4: recordsize=8k compression=gzip",
        "# cell 4/4: recordsize=128k compression=off",
        "# cell 2/4: recordsize=8k compression=off"};
    const char *at = out;
    for (size_t i = 0; i < 4; i++) {
        const char *c = strstr(at, cells[i]);
        if (!c)
            print_error("cell '%s' not after the cells before it\n", cells[i]);
        assert_non_null(c);
        at = c;
    }
    /* each with its 3 repeats at most */
    size_t n = 0;
    for (const char *q = strstr(out, "--output-format=json "); q;
         q = strstr(q + 1, "--output-format=json "))
        n++;
    assert_int_equal(n, 12);
    assert_int_not_equal(access(dir, F_OK), 0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),  cmocka_unit_test(test_key_errors),
        cmocka_unit_test(test_rse),   cmocka_unit_test(test_auto_stop),
        cmocka_unit_test(test_order), cmocka_unit_test(test_dry_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
