/* Unit tests of the fio terse parser (ingest/fio/fio_terse.c): terse v2..v5
 * fixtures and every corpus file with values read by hand from the
 * semicolon fields, the same runs compared with ingest/fio/fio_json.c, and
 * hostile inputs. */
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

#include <unistd.h>

#define FX     PB_FIXTURES_DIR "/fio-terse/"
#define CORPUS PB_CORPUS_DIR "/fio-terse/"

/* ==== helpers (most in testhelp.h) ==== */

#define TERSEP (&pb_parser_fio_terse)

static struct pb_resultset *parse_ok(const char *path)
{
    return th_parse_ok(TERSEP, NULL, path);
}

/* bw as fio's JSON computes it when the printed KiB/s agrees. */
static double exact_bw(double kib, double ms, double printed_kib)
{
    double bw = floor(kib * 1024 * 1000 / ms);
    return floor(bw / 1024) == printed_kib ? bw : printed_kib * 1024;
}

/* ==== fixtures: terse v2..v5 of the same job ==== */

static void test_v2(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v2_randrw70_4k_qd8.txt");
    assert_null(s->tool_version); /* v2 has no fio version field */
    const char *j = "mix7030";
    /* read iops 24379, write 10931 (69.0% read): terse does not state
     * rwmixread and the measured split is never taken for it */
    assert_string_equal(th_test_of(s, j)->name, "fio rw job=mix7030");
    assert_null(th_param(th_test_of(s, j), "rwmixread"));
    assert_string_equal(th_fact(s, NULL, "flag.no_version"),
                        "no version found");
    assert_string_equal(s->configs[0].label, "mix7030");
    /* 2;mix7030;0;0;2828;97517;24379;29;1;92;5.016595;9.183333;44;4181;
     * 217.765001;...;50%=128;...;95%=444;99%=509;...;99.9%=4177;...;
     * 54;4183;222.781597 */
    assert_near(th_val(s, j, "read_bytes"), 2828.0 * 1024, 0);
    assert_near(th_val(s, j, "read_bw"), exact_bw(2828, 29, 97517), 0);
    assert_near(th_val(s, j, "read_bw"), 99857655, 0);
    assert_near(th_val(s, j, "read_iops"), 24379, 0);
    assert_near(th_val(s, j, "read_runtime"), 29e6, 0);
    assert_near(th_val(s, j, "read_slat_mean"), 5016.595, 1e-9);
    assert_near(th_val(s, j, "read_clat_mean"), 217765.001, 1e-9);
    assert_near(th_val(s, j, "read_clat_max"), 4181000, 0);
    assert_near(th_val(s, j, "read_clat_p50"), 128000, 0);
    assert_near(th_val(s, j, "read_clat_p95"), 444000, 0);
    assert_near(th_val(s, j, "read_clat_p99"), 509000, 0);
    assert_near(th_val(s, j, "read_clat_p99.9"), 4177000, 0);
    assert_near(th_val(s, j, "read_lat_mean"), 222781.597, 1e-9);
    /* 1268;43724;10931;29;1;52;4.956987;...;4205;218.065767 */
    assert_near(th_val(s, j, "write_bytes"), 1268.0 * 1024, 0);
    assert_near(th_val(s, j, "write_bw"), exact_bw(1268, 29, 43724), 0);
    assert_near(th_val(s, j, "write_iops"), 10931, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 4956.987, 1e-9);
    assert_near(th_val(s, j, "write_clat_mean"), 218065.767, 1e-9);
    assert_near(th_val(s, j, "write_clat_p99.9"), 4227000, 0);
    /* trim section all zero: no rows; cpu 35.714286%;0.000000% */
    assert_int_equal(th_count_prefix(s, NULL, "trim_"), 0);
    assert_near(th_val(s, j, "usr_cpu"), 35.714286, 1e-12);
    assert_near(th_val(s, j, "sys_cpu"), 0, 0);
    const struct pb_result *r = th_find(s, j, "read_bw");
    assert_string_equal(r->unit, "B/s");
    assert_int_equal(r->direction, PB_DIR_HIGHER);
    r = th_find(s, j, "read_clat_p99");
    assert_string_equal(r->unit, "ns");
    assert_int_equal(r->direction, PB_DIR_LOWER);
    pb_resultset_free(s);
}

static void test_v3_v4(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v3_randrw70_4k_qd8.txt");
    assert_string_equal(s->tool_version, "fio-3.33");
    assert_string_equal(th_test_of(s, "mix7030")->name, "fio rw job=mix7030");
    assert_null(th_fact(s, NULL, "flag.no_version"));
    /* runtime 19 ms, iops 37210 / 16684 */
    assert_near(th_val(s, "mix7030", "read_iops"), 37210, 0);
    assert_near(th_val(s, "mix7030", "read_bw"), 152414315, 0);
    assert_near(th_val(s, "mix7030", "write_iops"), 16684, 0);
    assert_near(th_val(s, "mix7030", "read_clat_mean"), 133087.342, 1e-9);
    pb_resultset_free(s);
    s = parse_ok(FX "fio-3.33_terse-v4_randrw70_4k_qd8.txt");
    /* v4: read, write and trim sections */
    assert_near(th_val(s, "mix7030", "read_iops"), 35350, 0);
    assert_near(th_val(s, "mix7030", "read_bw"), exact_bw(2828, 20, 141400), 0);
    assert_near(th_val(s, "mix7030", "write_iops"), 15850, 0);
    assert_near(th_val(s, "mix7030", "read_clat_mean"), 139238.512, 1e-9);
    assert_near(th_val(s, "mix7030", "write_clat_p50"), 115000, 0);
    assert_int_equal(th_count_prefix(s, NULL, "trim_"), 0);
    pb_resultset_free(s);
}

static void test_v5(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v5_randrw70_4k_qd8.txt");
    const char *j = "mix7030";
    /* 5;fio-3.33;mix7030;0;0;2828;157111;39277;18;1;110;3.867054;7.294873;
     * 86;279;123.075871;...;50%=118;...;99.9%=280;...;89;347;126.942925 */
    assert_near(th_val(s, j, "read_bytes"), 2828.0 * 1024, 0);
    assert_near(th_val(s, j, "read_bw"), 160881777, 0);
    assert_near(th_val(s, j, "read_iops"), 39277, 0);
    assert_near(th_val(s, j, "read_runtime"), 18e6, 0);
    assert_near(th_val(s, j, "read_slat_mean"), 3867.054, 1e-9);
    assert_near(th_val(s, j, "read_clat_mean"), 123075.871, 1e-9);
    assert_near(th_val(s, j, "read_clat_max"), 279000, 0);
    assert_near(th_val(s, j, "read_clat_p50"), 118000, 0);
    assert_near(th_val(s, j, "read_clat_p99.9"), 280000, 0);
    assert_near(th_val(s, j, "read_lat_mean"), 126942.925, 1e-9);
    /* v5's 6 extra fields per section: write starts at field 53 */
    assert_near(th_val(s, j, "write_bytes"), 1268.0 * 1024, 0);
    assert_near(th_val(s, j, "write_iops"), 17611, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 3686.467, 1e-9);
    assert_near(th_val(s, j, "write_clat_mean"), 133107.401, 1e-9);
    assert_near(th_val(s, j, "write_clat_p95"), 191000, 0);
    assert_near(th_val(s, j, "write_lat_mean"), 136793.868, 1e-9);
    assert_near(th_val(s, j, "usr_cpu"), 35.294118, 1e-12);
    assert_int_equal(th_count_prefix(s, NULL, "trim_"), 0);
    pb_resultset_free(s);
}

static void test_v5_groups(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v5_randread_two-groups.txt");
    assert_int_equal(s->nconfigs, 2);
    assert_string_equal(th_test_of(s, "qd1")->name, "fio read job=qd1");
    assert_string_equal(th_test_of(s, "qd16")->name, "fio read job=qd16");
    /* 5;fio-3.33;qd1;0;0;2048;40960;10240;50;1;105;21.614365;... */
    assert_near(th_val(s, "qd1", "read_iops"), 10240, 0);
    assert_near(th_val(s, "qd1", "read_bw"), 41943040, 0);
    assert_near(th_val(s, "qd1", "read_slat_mean"), 21614.365, 1e-9);
    assert_near(th_val(s, "qd1", "read_clat_mean"), 73301.75, 1e-9);
    /* 5;fio-3.33;qd16;1;0;2048;157538;39384;13;1;77;2.301035;... */
    assert_near(th_val(s, "qd16", "read_iops"), 39384, 0);
    assert_near(th_val(s, "qd16", "read_bw"), floor(2097152000.0 / 13), 0);
    assert_near(th_val(s, "qd16", "read_clat_mean"), 378500.449, 1e-9);
    assert_int_equal(th_count_prefix(s, NULL, "write_"), 0);
    pb_resultset_free(s);
}

static void test_clones(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v3_randwrite_8k_numjobs2.txt");
    assert_string_equal(th_test_of(s, "rw8k#0")->name, "fio write job=rw8k");
    assert_string_equal(th_test_of(s, "rw8k")->name, "fio write job=rw8k");
    /* #0: 2048;60235;7529;34;...;128.521289; #1: 2048;62060;7757;33;... */
    assert_near(th_val(s, "rw8k#0", "write_iops"), 7529, 0);
    assert_near(th_val(s, "rw8k#1", "write_iops"), 7757, 0);
    assert_near(th_val(s, "rw8k", "write_iops"), 7529 + 7757, 0);
    assert_near(th_val(s, "rw8k", "write_bytes"), 2 * 2097152.0, 0);
    assert_near(th_val(s, "rw8k", "write_runtime"), 34e6, 0);
    assert_near(th_val(s, "rw8k", "write_bw"),
                floor(2097152000.0 / 34) + floor(2097152000.0 / 33), 0);
    assert_near(th_val(s, "rw8k", "write_clat_mean"),
                (128521.289 + 127117.508) / 2, 1e-6);
    assert_near(th_val(s, "rw8k", "write_clat_max"), 910000, 0);
    /* sys 17.647059% (34 ms) and 15.625000% (33 ms) */
    assert_near(th_val(s, "rw8k", "sys_cpu"),
                (17.647059 * 34 + 15.625 * 33) / 67, 1e-9);
    assert_null(th_find(s, "rw8k", "write_clat_p50"));
    assert_null(th_find(s, "rw8k", "write_slat_mean")); /* psync: all zero */
    pb_resultset_free(s);
}

static void test_unified(void **state)
{
    (void)state;
    struct pb_resultset *s =
        parse_ok(FX "fio-3.33_terse-v3_randrw_unified-mixed.txt");
    /* one section, then the CPU "0.000000%;37.500000%" */
    assert_string_equal(th_test_of(s, "unified")->name, "fio job=unified");
    assert_near(th_val(s, "unified", "mixed_iops"), 12487, 0);
    assert_near(th_val(s, "unified", "mixed_bytes"), 2097152, 0);
    /* 2048;49951;12487;41: floor(2048 KiB * 1000 / 41) agrees */
    assert_near(th_val(s, "unified", "mixed_bw"), floor(2097152000.0 / 41), 0);
    assert_near(th_val(s, "unified", "mixed_clat_mean"), 78363.947, 1e-9);
    assert_near(th_val(s, "unified", "mixed_clat_p99"), 140000, 0);
    assert_null(th_find(s, "unified", "mixed_slat_mean"));
    assert_near(th_val(s, "unified", "sys_cpu"), 37.5, 0);
    assert_int_equal(th_count_prefix(s, NULL, "read_"), 0);
    pb_resultset_free(s);
}

/* ==== terse + normal output of one job file ==== */

static void expect_error(const char *buf, size_t len, long line, long col,
                         const char *msg);

/* Test of job through parser p (sniffing when NULL). */
static void names_of(const char *file, const struct pb_parser *p,
                     const char *rr, const char *sw)
{
    size_t len;
    char *buf = th_slurp(file, &len);
    if (!p)
        p = pb_ingest_find_parser(buf, len);
    struct pb_resultset *s = NULL;
    struct pb_err err;
    assert_int_equal(th_parse(p, file, buf, len, &s, &err), PB_OK);
    const struct pb_test *a = th_test_of(s, "Rand-Read-4K");
    const struct pb_test *b = th_test_of(s, "Seq-Write-64K");
    assert_string_equal(a->name, rr);
    assert_string_equal(b->name, sw);
    if (strstr(rr, "randread")) {
        assert_string_equal(th_param(a, "rw"), "randread");
        assert_string_equal(th_param(a, "bs"), "4096");
        assert_string_equal(th_param(a, "ioengine"), "psync");
        assert_string_equal(th_param(a, "iodepth"), "1");
        assert_string_equal(th_param(a, "numjobs"), "1");
        assert_int_equal(a->nparams, 5);
        assert_string_equal(th_param(b, "bs"), "65536");
        assert_string_equal(th_param(b, "numjobs"), "2");
        assert_int_equal(b->nparams, 5);
    }
    pb_resultset_free(s);
    free(buf);
}

/* --output-format=terse,normal: named from the job header lines whether
 * the numbers come from the normal section (fio-text, sniffed) or from the
 * terse lines (--format fio-terse), and whatever progress text precedes
 * the first terse line (CR-redrawn, or glued once the CRs were lost). */
static void test_terse_normal_names(void **state)
{
    (void)state;
    static const char *const files[] = {
        FX "fio-3.33_terse-normal_two-groups.txt",
        FX "fio-3.33_terse-normal_two-groups_eta-glued.txt",
        FX "fio-3.33_terse-normal_two-groups_eta-glued-no-cr.txt",
    };
    const char *rr = "fio randread bs=4k iodepth=1";
    const char *sw = "fio write bs=64k iodepth=1 numjobs=2";
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *buf = th_slurp(files[i], &len);
        assert_string_equal(th_sniffed(buf, len), "fio-text");
        free(buf);
        names_of(files[i], NULL, rr, sw);
        names_of(files[i], TERSEP, rr, sw);
    }
    /* --minimal prints no header: only what the jobs did is known */
    names_of(FX "fio-3.33_terse-v3_two-groups_minimal.txt", NULL,
             "fio read job=Rand-Read-4K", "fio write job=Seq-Write-64K");
}

/* 14 jobs: their terse lines push the first "(groupid=" past the 8 KiB
 * the sniffers read. Still fio-text (the job header lines come first,
 * and it reads the normal section), and the same tests through both. */
static void test_terse_normal_many_jobs(void **state)
{
    (void)state;
    const char *f = FX "fio-3.33_terse-normal_14-jobs.txt";
    size_t len;
    char *buf = th_slurp(f, &len);
    const char *g = strstr(buf, "(groupid=");
    assert_true(g && g - buf > 8192);
    assert_string_equal(th_sniffed(buf, len), "fio-text");
    struct pb_resultset *tx = NULL, *te = NULL;
    struct pb_err err;
    assert_int_equal(th_parse(&pb_parser_fio_text, f, buf, len, &tx, &err),
                     PB_OK);
    assert_int_equal(th_parse(TERSEP, f, buf, len, &te, &err), PB_OK);
    assert_int_equal(tx->ntests, 1);
    assert_int_equal(te->ntests, 1);
    assert_string_equal(tx->tests[0].name, "fio randread bs=4k iodepth=1");
    assert_string_equal(te->tests[0].name, "fio randread bs=4k iodepth=1");
    assert_int_equal(te->nconfigs, 14);
    /* 3;fio-3.33;job7;0;0;1024;1024000;256000;... */
    assert_near(th_val(te, "job7", "read_iops"), 256000, 0);
    assert_near(th_val(tx, "job7", "read_iops"), 256000, 0);
    pb_resultset_free(tx);
    pb_resultset_free(te);
    free(buf);
}

/* The first terse record glued to progress text is read, not dropped:
 * 3;fio-3.33;Rand-Read-4K;0;0;1036728;1033627;258406;... */
static void test_eta_glued_record(void **state)
{
    (void)state;
    const char *f[] = {FX "fio-3.33_terse-normal_two-groups_eta-glued.txt",
                       FX "fio-3.33_terse-normal_two-groups_eta-glued-no-cr"
                          ".txt"};
    for (size_t i = 0; i < 2; i++) {
        struct pb_resultset *s = parse_ok(f[i]);
        assert_near(th_val(s, "Rand-Read-4K", "read_iops"), 258406, 0);
        assert_near(th_val(s, "Rand-Read-4K", "read_bytes"), 1036728.0 * 1024,
                    0);
        assert_near(th_val(s, "Seq-Write-64K", "write_iops"), 49177, 0);
        pb_resultset_free(s);
    }
    /* a record that does not start a line, nor follows progress text, is
     * an error, not a line silently skipped */
    const char *mid2 = "note: 3;fio-3.33;b;0;0;1;2;3;4;0;0;0;0;0;0;0;0;0;0;0;0\n";
    expect_error(mid2, strlen(mid2), 1, 0,
                 "line with 21 fields is not a terse record (starts \"note: "
                 "3;fio-3.33;b;0;0;1;2;3;4;0;0;0;0;0\")");
}

/* ==== the same runs through fio_json.c ==== */

static void compare_pair(const char *base)
{
    char pj[512], pt[512];
    snprintf(pj, sizeof(pj), FX "same-run/%s.json", base);
    snprintf(pt, sizeof(pt), FX "%s.txt", base);
    struct pb_resultset *js = th_parse_ok(&pb_parser_fio_json, NULL, pj);
    struct pb_resultset *te = parse_ok(pt);
    assert_int_equal(js->nresults, te->nresults);
    for (size_t i = 0; i < js->nresults; i++) {
        const struct pb_result *r = &js->results[i];
        const struct pb_result *q = th_find(te, r->job, r->metric);
        if (!q) {
            print_error("%s: terse lacks %s %s\n", base, r->job, r->metric);
            fail();
        }
        assert_string_equal(q->unit, r->unit);
        assert_int_equal(q->direction, r->direction);
        assert_int_equal(q->has_value, r->has_value);
        assert_string_equal(js->configs[r->config].label,
                            te->configs[q->config].label);
        assert_true(!strncmp(te->tests[q->test].name, "fio ", 4));
        if (!r->has_value)
            continue;
        const char *m = r->metric;
        double a = r->value, b = q->value;
        int agg = !strchr(r->job, '#') && strstr(base, "numjobs");
        if (strstr(m, "_bytes") || strstr(m, "_runtime")) {
            assert_near(b, a, 0);
        } else if (strstr(m, "_bw")) {
            assert_near(b, a, agg ? 2048 : 1024); /* KiB/s printed */
        } else if (strstr(m, "_iops")) {
            assert_near(b, agg ? b : floor(a), agg ? 0 : 0);
            assert_near(b, a, agg ? 2 : 1);
        } else if (strstr(m, "_p") || strstr(m, "clat_max")) {
            assert_true(a - b >= 0 && a - b < 1000); /* usec, truncated */
        } else if (strstr(m, "_mean")) {
            assert_near(b, a, 0.01);
        } else {
            assert_near(b, a, agg ? 0.1 : 1e-6); /* CPU */
        }
    }
    pb_resultset_free(js);
    pb_resultset_free(te);
}

static void test_same_run_as_json(void **state)
{
    (void)state;
    static const char *const base[] = {
        "fio-3.33_terse-v2_randrw70_4k_qd8",
        "fio-3.33_terse-v3_randrw70_4k_qd8",
        "fio-3.33_terse-v4_randrw70_4k_qd8",
        "fio-3.33_terse-v5_randrw70_4k_qd8",
        "fio-3.33_terse-v5_randread_two-groups",
        "fio-3.33_terse-v3_randwrite_8k_numjobs2",
        "fio-3.33_terse-v3_randrw_unified-mixed",
    };
    for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
        compare_pair(base[i]);
}

/* ==== corpus ==== */

#define CORPUS_FILE(name) skip_unless_in(CORPUS, name)

static void test_corpus_jtulak(void **state)
{
    (void)state;
    CORPUS_FILE("fio-2.1.2_terse-v3_12jobs-3groups_jtulak.txt");
    struct pb_resultset *s =
        parse_ok(CORPUS "fio-2.1.2_terse-v3_12jobs-3groups_jtulak.txt");
    assert_string_equal(s->tool_version, "fio-2.1.2");
    assert_int_equal(s->nconfigs, 3);
    /* 4 clones per group: "#0".."#3" plus the aggregate */
    const char *j = "test-multi-file-io-4#0";
    assert_string_equal(th_test_of(s, j)->name,
                        "fio rw job=test-multi-file-io-4");
    /* 3;fio-2.1.2;test-multi-file-io-4;0;0;52392;5208;651;10058;2;2593;
     * 20.060925;60.521283;1;514754;4610.434417;...;50%=796;...;
     * 95%=16192;99%=74240;...;99.9%=79360;...;56;514760;4632.422660 */
    assert_near(th_val(s, j, "read_bytes"), 52392.0 * 1024, 0);
    assert_near(th_val(s, j, "read_bw"), exact_bw(52392, 10058, 5208), 0);
    assert_near(th_val(s, j, "read_iops"), 651, 0);
    assert_near(th_val(s, j, "read_runtime"), 10058e6, 0);
    assert_near(th_val(s, j, "read_slat_mean"), 20060.925, 1e-9);
    assert_near(th_val(s, j, "read_clat_mean"), 4610434.417, 1e-6);
    assert_near(th_val(s, j, "read_clat_max"), 514754000, 0);
    assert_near(th_val(s, j, "read_clat_p50"), 796000, 0);
    assert_near(th_val(s, j, "read_clat_p95"), 16192000, 0);
    assert_near(th_val(s, j, "read_clat_p99"), 74240000, 0);
    assert_near(th_val(s, j, "read_clat_p99.9"), 79360000, 0);
    assert_near(th_val(s, j, "read_lat_mean"), 4632422.66, 1e-6);
    /* write: 13080;1300;162;10058;4;545;24.773700;...;514753;5995.006728;
     * ...;50%=1640;...;99.9%=514048 */
    assert_near(th_val(s, j, "write_bytes"), 13080.0 * 1024, 0);
    assert_near(th_val(s, j, "write_iops"), 162, 0);
    assert_near(th_val(s, j, "write_slat_mean"), 24773.7, 1e-9);
    assert_near(th_val(s, j, "write_clat_mean"), 5995006.728, 1e-6);
    assert_near(th_val(s, j, "write_clat_p50"), 1640000, 0);
    assert_near(th_val(s, j, "write_clat_p99.9"), 514048000, 0);
    assert_near(th_val(s, j, "usr_cpu"), 0.397733, 1e-12);
    assert_near(th_val(s, j, "sys_cpu"), 0.765636, 1e-12);
    /* aggregate of the four io-4 lines */
    j = "test-multi-file-io-4";
    assert_near(th_val(s, j, "read_iops"), 651 + 687 + 679 + 687, 0);
    assert_near(th_val(s, j, "read_bytes"),
                (52392.0 + 55368 + 54672 + 55384) * 1024, 0);
    assert_near(th_val(s, j, "read_runtime"), 10067e6, 0);
    assert_near(th_val(s, j, "write_iops"), 162 + 172 + 170 + 172, 0);
    /* group 1: 3;fio-2.1.2;test-multi-file-io-8;1;0;89112;8885;1110;10029 */
    assert_near(th_val(s, "test-multi-file-io-8#0", "read_iops"), 1110, 0);
    assert_near(th_val(s, "test-multi-file-io-8#0", "read_bytes"),
                89112.0 * 1024, 0);
    /* group 2, last line: 131240;13086;1635;10029 ... 0.528520%;1.844834% */
    assert_near(th_val(s, "test-multi-file-io-16#3", "read_iops"), 1635, 0);
    assert_near(th_val(s, "test-multi-file-io-16#3", "sys_cpu"), 1.844834,
                1e-12);
    assert_null(th_find(s, "test-multi-file-io-16#4", "read_iops"));
    pb_resultset_free(s);
}

static void test_corpus_mcgrof(void **state)
{
    (void)state;
    CORPUS_FILE("fio-3.1_terse-v3_randrw-70-30_empty-jobname_mcgrof.txt");
    struct pb_resultset *s = parse_ok(
        CORPUS "fio-3.1_terse-v3_randrw-70-30_empty-jobname_mcgrof.txt");
    /* 3;fio-3.1;;0;0;30178896;125744;31436;240001;1;75;2.162712;... */
    assert_string_equal(s->tool_version, "fio-3.1");
    assert_string_equal(s->configs[0].label, "job1");
    assert_string_equal(th_test_of(s, "job1")->name,
                        "fio rw job=job1");
    assert_near(th_val(s, "job1", "read_bytes"), 30178896.0 * 1024, 0);
    assert_near(th_val(s, "job1", "read_bw"),
                exact_bw(30178896, 240001, 125744), 0);
    assert_near(th_val(s, "job1", "read_iops"), 31436, 0);
    assert_near(th_val(s, "job1", "read_slat_mean"), 2162.712, 1e-9);
    assert_near(th_val(s, "job1", "read_clat_mean"), 118735.24, 1e-9);
    assert_near(th_val(s, "job1", "read_clat_max"), 6738000, 0);
    assert_near(th_val(s, "job1", "read_clat_p99.9"), 2637000, 0);
    assert_near(th_val(s, "job1", "write_bytes"), 12933600.0 * 1024, 0);
    assert_near(th_val(s, "job1", "write_iops"), 13472, 0);
    assert_near(th_val(s, "job1", "write_lat_mean"), 12871.519, 1e-9);
    assert_near(th_val(s, "job1", "write_clat_p50"), 9000, 0);
    assert_near(th_val(s, "job1", "usr_cpu"), 5.0775, 1e-12);
    assert_near(th_val(s, "job1", "sys_cpu"), 16.462083, 1e-12);
    pb_resultset_free(s);

    CORPUS_FILE("fio-3.8_terse-v3_randread_16jobs-grouped_mcgrof.txt");
    s = parse_ok(CORPUS "fio-3.8_terse-v3_randread_16jobs-grouped_mcgrof.txt");
    /* 3;fio-3.8-83-g24a9;randread;0;0;784857236;2616129;654032;300007;1;
     * 7728;3.963435;11.049304;1;69525;6258.138531;...;50%=6455;...;
     * 99.9%=20316 */
    assert_string_equal(s->tool_version, "fio-3.8-83-g24a9");
    assert_string_equal(th_test_of(s, "randread")->name,
                        "fio read job=randread");
    assert_near(th_val(s, "randread", "read_bytes"), 784857236.0 * 1024, 0);
    assert_near(th_val(s, "randread", "read_iops"), 654032, 0);
    assert_near(th_val(s, "randread", "read_runtime"), 300007e6, 0);
    assert_near(th_val(s, "randread", "read_slat_mean"), 3963.435, 1e-9);
    assert_near(th_val(s, "randread", "read_clat_mean"), 6258138.531, 1e-6);
    assert_near(th_val(s, "randread", "read_clat_p50"), 6455000, 0);
    assert_near(th_val(s, "randread", "read_clat_p99.9"), 20316000, 0);
    assert_near(th_val(s, "randread", "usr_cpu"), 3.218711, 1e-12);
    assert_int_equal(th_count_prefix(s, NULL, "write_"),
                     0); /* all-zero section */
    pb_resultset_free(s);

    CORPUS_FILE("fio-3.8_terse-v3_read_qd1024_nvme_mcgrof.txt");
    s = parse_ok(CORPUS "fio-3.8_terse-v3_read_qd1024_nvme_mcgrof.txt");
    /* 3;fio-3.8-83-g24a9;read;0;0;358973440;1196570;299142;300002;1011;
     * 4600;1193.690490;...;616;6872;2069.630299;...;50%=2007;...;
     * 2560;8147;3263.341754 */
    assert_string_equal(th_test_of(s, "read")->name, "fio read job=read");
    assert_near(th_val(s, "read", "read_bytes"), 358973440.0 * 1024, 0);
    assert_near(th_val(s, "read", "read_bw"),
                exact_bw(358973440, 300002, 1196570), 0);
    assert_near(th_val(s, "read", "read_iops"), 299142, 0);
    assert_near(th_val(s, "read", "read_slat_mean"), 1193690.49, 1e-6);
    assert_near(th_val(s, "read", "read_clat_mean"), 2069630.299, 1e-6);
    assert_near(th_val(s, "read", "read_clat_max"), 6872000, 0);
    assert_near(th_val(s, "read", "read_clat_p50"), 2007000, 0);
    assert_near(th_val(s, "read", "read_lat_mean"), 3263341.754, 1e-6);
    assert_near(th_val(s, "read", "sys_cpu"), 42.252526, 1e-12);
    assert_int_equal(th_count_prefix(s, NULL, "write_"), 0);
    pb_resultset_free(s);
}

static void test_corpus_sniff(void **state)
{
    (void)state;
    static const char *const files[] = {
        "fio-2.1.2_terse-v3_12jobs-3groups_jtulak.txt",
        "fio-3.1_terse-v3_randrw-70-30_empty-jobname_mcgrof.txt",
        "fio-3.8_terse-v3_randread_16jobs-grouped_mcgrof.txt",
        "fio-3.8_terse-v3_read_qd1024_nvme_mcgrof.txt",
    };
    skip_unless_exists(CORPUS);
    th_sniffed_as(TERSEP, CORPUS, files, sizeof(files) / sizeof(files[0]));
}

/* ==== sniffing ==== */

static void test_sniff(void **state)
{
    (void)state;
    static const char *const mine[] = {
        FX "fio-3.33_terse-v2_randrw70_4k_qd8.txt",
        FX "fio-3.33_terse-v3_randrw70_4k_qd8.txt",
        FX "fio-3.33_terse-v4_randrw70_4k_qd8.txt",
        FX "fio-3.33_terse-v5_randrw70_4k_qd8.txt",
        FX "bad/fio-3.33_terse-v3_truncated-line.txt",
        FX "bad/fio-3.33_terse-v3_randtrim_failed-job.txt",
    };
    th_sniffed_as(TERSEP, NULL, mine, sizeof(mine) / sizeof(mine[0]));
    size_t len;
    char *buf =
        th_slurp(FX "same-run/fio-3.33_terse-v3_randrw70_4k_qd8.json", &len);
    assert_int_equal(pb_parser_fio_terse.sniff(buf, len), 0);
    free(buf);
    buf = th_slurp(
        PB_FIXTURES_DIR "/fio-text/fio-3.33_randread_4k_qd4_libaio.txt", &len);
    assert_int_equal(pb_parser_fio_terse.sniff(buf, len), 0);
    free(buf);
    const char *csv = "1;2;3\n3;4;5;6\n";
    assert_int_equal(pb_parser_fio_terse.sniff(csv, strlen(csv)), 0);
}

/* ==== hostile and broken inputs ==== */

static void expect_error(const char *buf, size_t len, long line, long col,
                         const char *msg)
{
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(th_parse(TERSEP, "mem", buf, len, &s, &err), PB_EINPUT);
    assert_null(s);
    assert_int_equal(err.line, line);
    if (col >= 0)
        assert_int_equal(err.col, col);
    if (msg)
        assert_string_equal(err.msg, msg);
}

static void test_bad_fixtures(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "bad/fio-3.33_terse-v3_truncated-line.txt", &len);
    expect_error(buf, len, 1, -1,
                 "terse line ends after 60 fields; terse version 3 needs at "
                 "least 121 (truncated?)");
    free(buf);
    buf = th_slurp(FX "bad/fio-3.33_terse-v3_bw-not-a-number.txt", &len);
    expect_error(buf, len, 1, 29, "field 7 (\"n/a\") is not a number");
    free(buf);
    buf = th_slurp(FX "bad/fio-3.33_terse-v3_randtrim_failed-job.txt", &len);
    expect_error(buf, len, 2, -1,
                 "job \"trimfail\" failed with error 25 (Inappropriate ioctl "
                 "for device) and did no I/O");
    free(buf);
}

/* fio 1.x's terse v2 as fio's HOWTO prints it: no iops, no percentiles,
 * no trim (hand-copied from the HOWTO's example line). */
static const char howto_v2[] =
    "2;card0;0;0;7139336;121836;60004;1;10109;27.932460;116.933948;220;"
    "126861;3495.446807;1085.368601;226;126864;3523.635629;1089.012448;"
    "24063;99944;50.275485%;59818.274627;5540.657370;7155060;122104;60004;"
    "1;8338;29.086342;117.839068;388;128077;5032.488518;1234.785715;391;"
    "128085;5061.839412;1236.909129;23436;100928;50.287926%;59964.832030;"
    "5644.844189;14.595833%;19.394167%;123706;0;7313;0.1%;0.1%;0.1%;0.1%;"
    "0.1%;0.1%;100.0%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.01%;0.02%;"
    "0.05%;0.16%;6.04%;40.40%;52.68%;0.64%;0.01%;0.00%;0.01%;0.00%;0.00%;"
    "0.00%;0.00%;0.00%\n"
    "A description of this job goes here.\n";

static void test_old_v2(void **state)
{
    (void)state;
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(
        th_parse(TERSEP, "mem", howto_v2, strlen(howto_v2), &s, &err), PB_OK);
    assert_string_equal(th_test_of(s, "card0")->name,
                        "fio rw job=card0");
    assert_near(th_val(s, "card0", "read_bytes"), 7139336.0 * 1024, 0);
    assert_near(th_val(s, "card0", "read_runtime"), 60004e6, 0);
    assert_near(th_val(s, "card0", "read_slat_mean"), 27932.46, 1e-9);
    assert_near(th_val(s, "card0", "read_clat_mean"), 3495446.807, 1e-6);
    assert_near(th_val(s, "card0", "read_lat_mean"), 3523635.629, 1e-6);
    assert_null(th_find(s, "card0", "read_iops"));
    assert_null(th_find(s, "card0", "read_clat_p50"));
    assert_near(th_val(s, "card0", "write_bytes"), 7155060.0 * 1024, 0);
    assert_near(th_val(s, "card0", "write_clat_max"), 128077000, 0);
    assert_near(th_val(s, "card0", "usr_cpu"), 14.595833, 1e-12);
    assert_near(th_val(s, "card0", "sys_cpu"), 19.394167, 1e-12);
    pb_resultset_free(s);
}

static void test_garbage(void **state)
{
    (void)state;
    expect_error("", 0, 0, -1, "empty file");
    expect_error("\n \n", 3, 0, -1, "file holds only white space");
    const char *prose = "hello\nfio: engine libaio not loadable\n";
    expect_error(prose, strlen(prose), 2, -1,
                 "fio failed: \"fio: engine libaio not loadable\"");
    const char *none = "hello, these are my notes\n";
    expect_error(none, strlen(none), 0, -1,
                 "no fio terse lines found (lines such as "
                 "\"3;fio-3.33;job;0;0;...\")");
    const char *v9 = "junk first\n9;fio-9.0;x;0;0;1;2;3\n";
    expect_error(v9, strlen(v9), 2, 1,
                 "unsupported terse version 9 (fio writes 2 to 5)");
    unsigned char g[4096];
    th_garbage(g, sizeof(g), 99);
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(
        th_parse(TERSEP, "mem", (const char *)g, sizeof(g), &s, &err),
        PB_EINPUT);
    assert_int_equal(pb_parser_fio_terse.sniff((const char *)g, sizeof(g)), 0);
}

static void test_edits(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_terse-v3_randrw70_4k_qd8.txt", &len);
    /* CRLF and a junk prefix: same values */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "$ fio --minimal job.fio\r\n");
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\n')
            pb_buf_putc(&b, '\r');
        pb_buf_putc(&b, buf[i]);
    }
    struct pb_err err;
    struct pb_resultset *a = NULL, *c = NULL;
    assert_int_equal(th_parse(TERSEP, "mem", buf, len, &a, &err), PB_OK);
    assert_int_equal(th_parse(TERSEP, "mem", b.s, b.len, &c, &err), PB_OK);
    assert_int_equal(a->nresults, c->nresults);
    for (size_t i = 0; i < a->nresults; i++)
        assert_near(a->results[i].value, c->results[i].value, 0);
    pb_resultset_free(c);
    pb_buf_release(&b);

    /* HTML as the job name is kept as text */
    char *p = strstr(buf, ";mix7030;");
    assert_non_null(p);
    char *html =
        pb_xasprintf("%.*s;<b onclick=x>j</b>;%s", (int)(p - buf), buf, p + 9);
    assert_int_equal(th_parse(TERSEP, "mem", html, strlen(html), &c, &err),
                     PB_OK);
    assert_string_equal(c->configs[0].label, "<b onclick=x>j</b>");
    pb_resultset_free(c);
    free(html);

    /* the same line appended again with other disk stats: a second run */
    char *two = pb_xasprintf("%s%.*s;sdb;1;2;3;4;5;6;7;8.00%%\n", buf,
                             (int)(strstr(buf, ";vda;") - buf), buf);
    assert_int_equal(th_parse(TERSEP, "mem", two, strlen(two), &c, &err),
                     PB_OK);
    /* repeats of one job: one result of two samples (issue 42) */
    const struct pb_result *rr = th_find(c, "mix7030", "read_iops");
    assert_non_null(rr);
    assert_int_equal(rr->samples, 2);
    assert_int_equal(rr->nsample, 2);
    assert_null(th_find(c, "mix7030 run 1", "read_iops"));
    assert_null(th_find(c, "mix7030#0", "read_iops"));
    pb_resultset_free(c);
    free(two);

    /* huge numbers stay finite or are refused */
    char *huge = pb_xstrndup(buf, len);
    char *f = strstr(huge, ";2828;");
    memcpy(f + 1, "9e99", 4);
    int rc = th_parse(TERSEP, "mem", huge, len, &c, &err);
    if (rc == PB_OK) {
        for (size_t i = 0; i < c->nresults; i++)
            if (c->results[i].has_value)
                assert_true(isfinite(c->results[i].value));
        pb_resultset_free(c);
    }
    free(huge);

    /* NUL bytes: no crash, and a NUL inside a number is refused */
    char *nul = pb_xstrndup(buf, len);
    nul[strstr(nul, ";2828;") - nul + 2] = '\0';
    expect_error(nul, len, 1, -1, NULL);
    free(nul);

    /* every prefix at 10% steps: an error or a set, never a crash */
    for (int k = 0; k <= 10; k++) {
        size_t n = len * (size_t)k / 10;
        rc = th_parse(TERSEP, "mem", buf, n, &c, &err);
        if (rc == PB_OK) {
            assert_true(c->nresults > 0);
            pb_resultset_free(c);
        } else {
            assert_int_equal(rc, PB_EINPUT);
            assert_true(err.line <= 1);
        }
    }
    pb_resultset_free(a);
    free(buf);
}

/* One name in groups 7, 0, 7 (the group going down starts a run): the
 * same name in two groups of one run is two measurements, so three in
 * all, in file order (the streamed parse once kept two, the whole one
 * split them 2 + 1). */
static void test_name_in_two_groups(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_terse-v3_randrw70_4k_qd8.txt", &len);
    const char *tail = strstr(buf, ";37210;");
    assert_non_null(tail);
    struct pb_buf b = PB_BUF_INIT;
    const int gid[3] = {7, 0, 7}, iops[3] = {100, 200, 300};
    for (int i = 0; i < 3; i++)
        pb_buf_printf(&b, "3;fio-3.33;j;%d;0;2828;148842;%d%s", gid[i],
                      iops[i], tail + 6);
    struct pb_err err;
    struct pb_resultset *s = NULL;
    assert_int_equal(th_parse(TERSEP, "mem", b.s, b.len, &s, &err), PB_OK);
    const struct pb_result *r = th_find(s, "j", "read_iops");
    assert_non_null(r);
    assert_int_equal(r->samples, 3);
    assert_int_equal(r->nsample, 3);
    assert_near(r->value, 200, 1e-9);
    for (int i = 0; i < 3; i++)
        assert_near(s->svals[r->sample_off + (size_t)i], iops[i], 0);
    size_t n = 0;
    for (size_t i = 0; i < s->nresults; i++)
        n += !strcmp(s->results[i].metric, "read_iops");
    assert_int_equal(n, 1);
    pb_resultset_free(s);
    pb_buf_release(&b);
    free(buf);
}

static void test_truncated_corpus(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS "fio-2.1.2_terse-v3_12jobs-3groups_jtulak.txt");
    size_t len;
    char *buf =
        th_slurp(CORPUS "fio-2.1.2_terse-v3_12jobs-3groups_jtulak.txt", &len);
    long lines = pb_line_of(buf, len);
    for (int k = 0; k <= 10; k++) {
        size_t n = len * (size_t)k / 10;
        struct pb_err err;
        struct pb_resultset *s = NULL;
        int rc = th_parse(TERSEP, "mem", buf, n, &s, &err);
        if (rc == PB_OK) {
            pb_resultset_free(s);
        } else {
            assert_int_equal(rc, PB_EINPUT);
            assert_true(err.line >= 0 && err.line <= lines);
        }
    }
    free(buf);
}

static void test_threads(void **state)
{
    (void)state;
    size_t len;
    char *buf = th_slurp(FX "fio-3.33_terse-v5_randread_two-groups.txt", &len);
    struct pb_resultset *ref = NULL;
    struct pb_err err;
    assert_int_equal(th_parse(TERSEP, "mem", buf, len, &ref, &err), PB_OK);
    assert_true(ref->nresults > 0);
    th_parse_in_threads(TERSEP, buf, len, ref->nresults);
    pb_resultset_free(ref);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2),
        cmocka_unit_test(test_terse_normal_names),
        cmocka_unit_test(test_eta_glued_record),
        cmocka_unit_test(test_terse_normal_many_jobs),
        cmocka_unit_test(test_v3_v4),
        cmocka_unit_test(test_v5),
        cmocka_unit_test(test_v5_groups),
        cmocka_unit_test(test_clones),
        cmocka_unit_test(test_unified),
        cmocka_unit_test(test_same_run_as_json),
        cmocka_unit_test(test_corpus_jtulak),
        cmocka_unit_test(test_corpus_mcgrof),
        cmocka_unit_test(test_corpus_sniff),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_old_v2),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_name_in_two_groups),
        cmocka_unit_test(test_truncated_corpus),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
