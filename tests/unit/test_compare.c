/* render/compare.c: pairing, verdicts by direction, Welch figures, the
 * gate and unpaired results, on a database made here (three sources a
 * side). Reference figures from tests/unit/ref/stats_ref.py (t by
 * numerical integration; Fieller's interval written out in Python):
 *   iops 100,102,98 vs 110,112,108: t 6.123724356957945, df 4,
 *     p 0.0036022326091034174, CI of the change +5.343376273896694% ..
 *     +14.882976700523521%;
 *   p99 1000,1010,990 vs 1200,1210,1190: p 1.6483088986163352e-05,
 *     CI +17.526393951096388% .. +22.5352910785525%. */
#include "tests/unit/testhelp.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/db.h"
#include "render/render.h"

static char dbpath[64];

static void store(struct pb_db *db, const char *label, int rep, double iops,
                  double p99, int extra)
{
    char path[64], content[128];
    snprintf(path, sizeof(path), "%s-%d.json", label, rep);
    snprintf(content, sizeof(content), "%s %d %g %g", label, rep, iops, p99);
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, path);
    s->format = "test";
    s->size = strlen(content);
    pb_sha256_hex(content, strlen(content), s->sha256);
    size_t c = pb_rs_config(s, label);
    size_t t = pb_rs_test(s, "fio randread bs=4k iodepth=1", "fio");
    pb_rs_add(s, c, t, NULL, "job1", "read_iops", "ops/s", PB_DIR_HIGHER,
              iops);
    pb_rs_add(s, c, t, NULL, "job1", "read_clat_p99", "ns", PB_DIR_LOWER,
              p99);
    if (extra)
        pb_rs_add(s, c, t, NULL, "job1", "usr_cpu", "%", PB_DIR_LOWER, 12);
    struct pb_err err = {0};
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dbpath, sizeof(dbpath), "/tmp/pb_test_compare_%d.db",
             (int)getpid());
    unlink(dbpath);
    struct pb_err err = {0};
    struct pb_db *db;
    if (pb_db_open(dbpath, 0, &db, &err) != PB_OK)
        return -1;
    static const double ai[] = {100, 102, 98}, bi[] = {110, 112, 108};
    static const double al[] = {1000, 1010, 990}, bl[] = {1200, 1210, 1190};
    for (int i = 0; i < 3; i++) {
        store(db, "A", i, ai[i], al[i], 1);
        store(db, "B", i, bi[i], bl[i], 0);
    }
    pb_db_close(db);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char p[80];
    unlink(dbpath);
    snprintf(p, sizeof(p), "%s-wal", dbpath);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", dbpath);
    unlink(p);
    return 0;
}

static struct pb_compare *run(const char *base, const char *cand,
                              double fail_worse, const char *fail_metric)
{
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 1, &db, &err), PB_OK);
    struct pb_compare_side b = {db, {.config_re = base}, base};
    struct pb_compare_side c = {db, {.config_re = cand}, cand};
    struct pb_compare_opts o = {0.05, fail_worse, fail_metric, NULL, 0, 0};
    struct pb_compare *cmp = NULL;
    assert_int_equal(pb_compare_run(&b, &c, &o, &cmp, &err), PB_OK);
    pb_db_close(db); /* the comparison keeps no reference to it */
    return cmp;
}

static const struct pb_compare_pair *pair(const struct pb_compare *c,
                                          const char *metric)
{
    for (size_t i = 0; i < c->npairs; i++)
        if (!strcmp(c->pairs[i].metric, metric))
            return &c->pairs[i];
    fail_msg("no pair for %s", metric);
    return NULL;
}

static void verdicts_by_direction(void **state)
{
    (void)state;
    struct pb_compare *c = run("^A$", "^B$", -1, NULL);
    assert_int_equal(c->npairs, 2);
    const struct pb_compare_pair *p = pair(c, "read_iops");
    assert_string_equal(p->base_config, "A");
    assert_string_equal(p->cand_config, "B");
    assert_int_equal(p->base_n, 3);
    assert_near(p->base_mean, 100, 1e-12);
    assert_near(p->base_se, 2 / sqrt(3), 1e-12);
    assert_near(p->change_pct, 10, 1e-12);
    assert_near(p->p, 0.0036022326091034174, 1e-10);
    assert_near(p->ci_lo_pct, 5.343376273896694, 1e-8);
    assert_near(p->ci_hi_pct, 14.882976700523521, 1e-8);
    assert_string_equal(p->method, "welch");
    assert_int_equal(p->verdict, PB_CMP_BETTER); /* IOPS up */
    p = pair(c, "read_clat_p99");
    assert_near(p->change_pct, 20, 1e-12);
    assert_near(p->p, 1.6483088986163352e-05, 1e-10);
    assert_near(p->ci_lo_pct, 17.526393951096388, 1e-8);
    assert_near(p->ci_hi_pct, 22.5352910785525, 1e-8);
    assert_int_equal(p->verdict, PB_CMP_WORSE); /* latency up */
    char buf[64];
    assert_string_equal(pb_compare_value_text(c, p, 1, buf, sizeof(buf)),
                        "1.200 ± 0.0058 µs");
    assert_int_equal(c->better, 1);
    assert_int_equal(c->worse, 1);
    assert_int_equal(c->same, 0);
    /* usr_cpu only in A */
    assert_int_equal(c->nunpaired, 1);
    assert_int_equal(c->unpaired[0].cand, 0);
    assert_string_equal(c->unpaired[0].metric, "usr_cpu");
    /* never one number over different kinds (issue 42 item 10): IOPS
     * +10% is throughput, p99 +20% latency (worse: 1/1.2 oriented) */
    assert_int_equal(p->kind, PB_KIND_LATENCY);
    assert_int_equal(pair(c, "read_iops")->kind, PB_KIND_THROUGHPUT);
    assert_int_equal(c->kinds[PB_KIND_THROUGHPUT].n, 1);
    assert_int_equal(c->kinds[PB_KIND_THROUGHPUT].significant, 1);
    assert_near(c->kinds[PB_KIND_THROUGHPUT].geomean_better, 1.1, 1e-12);
    assert_int_equal(c->kinds[PB_KIND_LATENCY].worse, 1);
    assert_near(c->kinds[PB_KIND_LATENCY].geomean_better, 1 / 1.2, 1e-12);
    assert_int_equal(c->kinds[PB_KIND_CPU].n, 0);
    assert_true(isnan(c->kinds[PB_KIND_CPU].geomean_better));
    assert_int_equal(c->headline, PB_KIND_THROUGHPUT); /* no gate */
    assert_int_equal(c->offenders, 0);
    pb_compare_free(c);
}

static void gate(void **state)
{
    (void)state;
    struct pb_compare *c = run("^A$", "^B$", 15, NULL);
    assert_int_equal(c->offenders, 1);
    assert_true(pair(c, "read_clat_p99")->offender);
    assert_false(pair(c, "read_iops")->offender); /* better: never */
    /* the headline is the kind that failed the gate, not throughput */
    assert_int_equal(c->headline, PB_KIND_LATENCY);
    pb_compare_free(c);
    /* a gate on IOPS only: its kind leads, though latency got worse */
    c = run("^A$", "^B$", 5, "iops");
    assert_int_equal(c->headline, PB_KIND_THROUGHPUT);
    pb_compare_free(c);
    c = run("^A$", "^B$", 5, "clat");
    assert_int_equal(c->headline, PB_KIND_LATENCY);
    pb_compare_free(c);
    c = run("^A$", "^B$", 20.5, NULL); /* worse by 20%, not more */
    assert_int_equal(c->offenders, 0);
    pb_compare_free(c);
    c = run("^A$", "^B$", 5, "iops");
    assert_int_equal(c->offenders, 0);
    pb_compare_free(c);
    /* the other way round, latency is better and IOPS worse by 9.1% */
    c = run("^B$", "^A$", 5, NULL);
    assert_int_equal(c->offenders, 1);
    assert_true(pair(c, "read_iops")->offender);
    assert_near(pair(c, "read_iops")->change_pct, -100.0 / 11, 1e-12);
    pb_compare_free(c);
}

static void self_and_bad_pattern(void **state)
{
    (void)state;
    struct pb_compare *c = run("^A$", "^A$", 0, NULL);
    assert_int_equal(c->npairs, 3);
    assert_int_equal(c->same, 3);
    assert_int_equal(c->offenders, 0);
    for (size_t i = 0; i < c->npairs; i++)
        assert_near(c->pairs[i].p, 1, 1e-12);
    pb_compare_free(c);
    struct pb_err err = {0};
    struct pb_db *db;
    assert_int_equal(pb_db_open(dbpath, 1, &db, &err), PB_OK);
    struct pb_compare_side b = {db, {.config_re = "A"}, "A"};
    struct pb_compare_opts o = {0.05, 1, "(", NULL, 0, 0};
    assert_int_equal(pb_compare_run(&b, &b, &o, &c, &err), PB_EUSAGE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "bad pattern '('"));
    pb_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdicts_by_direction),
        cmocka_unit_test(gate),
        cmocka_unit_test(self_and_bad_pattern),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
