/* Unit tests for ingest/fio/fio_bins.c and model/hist.c: the json+ fixtures
 * made with fio 3.33 (every percentile fio printed equals the one computed
 * from its bins; the bins count every I/O), numjobs aggregates, fio 2.x
 * bucket indexes, hostile bins built in memory, and the histograms'
 * round trip through the database (stored, read, forgotten). */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"

#include "ingest/fio/fio_int.h"
#include "model/db.h"

#include <jansson.h>
#include <unistd.h>

#define FIX_DIR PB_FIXTURES_DIR "/fio-jsonplus"
#define JSONP   (&pb_parser_fio_json)

static const char *const fixtures[] = {
    "fio-3.33_read-nj1_json-plus.json",
    "fio-3.33_write-nj4_json-plus.json",
    "fio-3.33_randrw-nj1_json-plus.json",
    "fio-3.33_randrw-nj4_json-plus.json",
    "fio-3.33_randrw-nj1-run2_json-plus.json",
};

/* The value of result `metric` of job `job`, or fail. */
static double value_of(const struct pb_resultset *s, const char *job,
                       const char *metric)
{
    for (size_t i = 0; i < s->nresults; i++)
        if (!strcmp(s->results[i].metric, metric) && s->results[i].job &&
            !strcmp(s->results[i].job, job))
            return s->results[i].value;
    print_error("no %s of job %s\n", metric, job);
    fail();
    return NAN;
}

/* The histogram `kind` behind a result of job `job`, or NULL. */
static const struct pb_hist *hist_of(const struct pb_resultset *s,
                                     const char *job, const char *kind)
{
    for (size_t i = 0; i < s->nhists; i++) {
        const struct pb_hist *h = &s->hists[i];
        const struct pb_result *r = &s->results[h->result];
        if (!strcmp(h->kind, kind) && r->job && !strcmp(r->job, job))
            return h;
    }
    return NULL;
}

static struct pb_fio_bins as_bins(const struct pb_hist *h)
{
    struct pb_fio_bins b = {h->n, h->value, h->count, 0};
    for (size_t i = 0; i < h->n; i++)
        b.total += h->count[i];
    return b;
}

/* Every percentile fio printed for a latency with bins (all of its
 * default list: 1, 5, 10, ... 99.99; and the standard list in randrw-nj1)
 * is what the bins give, exactly; the bins count total_ios; the stored
 * standard percentiles of jobs alone are fio's own. */
static void fixtures_agree_with_fio(void **state)
{
    (void)state;
    size_t checked = 0, stored = 0, hists = 0;
    for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
        struct pb_resultset *s = th_parse_ok(JSONP, FIX_DIR, fixtures[f]);
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", FIX_DIR, fixtures[f]);
        json_error_t je;
        json_t *root = json_load_file(path, 0, &je);
        assert_non_null(root);
        json_t *jobs = json_object_get(root, "jobs");
        size_t nj = json_array_size(jobs);
        for (size_t e = 0; e < nj; e++) {
            json_t *job = json_array_get(jobs, e);
            char name[128];
            /* clones of write-nj4 are "<name>#k"; their bins are kept
             * only summed, so they are read back from the file */
            snprintf(name, sizeof(name), "%s%s%zu",
                     json_string_value(json_object_get(job, "jobname")),
                     nj > 1 ? "#" : "", e);
            if (nj == 1)
                snprintf(name, sizeof(name), "%s",
                         json_string_value(json_object_get(job, "jobname")));
            for (int d = 0; d < 3; d++) {
                json_t *dir = json_object_get(job, pb_fio_dir_name[d]);
                for (int k = 0; k < FIO_NKIND; k++) {
                    char key[16], kind[32];
                    snprintf(key, sizeof(key), "%s_ns", pb_fio_kind_name[k]);
                    snprintf(kind, sizeof(kind), "%s_%s", pb_fio_dir_name[d],
                             pb_fio_kind_name[k]);
                    json_t *lat = json_object_get(dir, key);
                    json_t *bins = json_object_get(lat, "bins");
                    if (!bins || !json_object_size(bins))
                        continue;
                    /* the bins as fio wrote them, through the parser's
                     * percentile rule */
                    size_t n = json_object_size(bins);
                    uint64_t *val = calloc(n, sizeof(*val));
                    uint64_t *cnt = calloc(n, sizeof(*cnt));
                    const char *bk;
                    json_t *bv;
                    size_t i = 0;
                    json_object_foreach(bins, bk, bv)
                    {
                        val[i] = strtoull(bk, NULL, 10);
                        cnt[i++] = (uint64_t)json_integer_value(bv);
                    }
                    /* ascending (fio writes them so; checked here) */
                    for (i = 1; i < n; i++)
                        assert_true(val[i] > val[i - 1]);
                    struct pb_fio_bins b = {n, val, cnt, 0};
                    for (i = 0; i < n; i++)
                        b.total += cnt[i];
                    assert_int_equal(
                        b.total, json_integer_value(json_object_get(
                                     dir, "total_ios")));
                    json_t *pm = json_object_get(lat, "percentile");
                    const char *pk;
                    json_t *pv;
                    json_object_foreach(pm, pk, pv)
                    {
                        double want = (double)json_integer_value(pv);
                        assert_true(pb_fio_bins_pct(&b, atof(pk)) == want);
                        checked++;
                        char metric[64];
                        snprintf(metric, sizeof(metric), "%s_p%s", kind,
                                 !strcmp(pk, "50.000000")     ? "50"
                                 : !strcmp(pk, "90.000000")   ? "90"
                                 : !strcmp(pk, "95.000000")   ? "95"
                                 : !strcmp(pk, "99.000000")   ? "99"
                                 : !strcmp(pk, "99.900000")   ? "99.9"
                                 : !strcmp(pk, "99.990000")   ? "99.99"
                                 : !strcmp(pk, "99.999000")   ? "99.999"
                                                              : "");
                        if (metric[strlen(metric) - 1] != 'p') {
                            assert_true(value_of(s, name, metric) == want);
                            stored++;
                        }
                    }
                    const struct pb_hist *h = hist_of(s, name, kind);
                    if (nj == 1) {
                        /* kept whole, as fio wrote it */
                        assert_non_null(h);
                        assert_int_equal(h->n, n);
                        for (i = 0; i < n; i++) {
                            assert_int_equal(h->value[i], val[i]);
                            assert_int_equal(h->count[i], cnt[i]);
                        }
                        hists++;
                    } else {
                        assert_null(h);
                    }
                    free(val);
                    free(cnt);
                }
            }
        }
        json_decref(root);
        pb_resultset_free(s);
    }
    /* 5 files, 19 distributions: 203 printed percentiles (fio's default
     * list of 17 for 7 of them, the standard 7 for the 6 of each randrw-nj1
     * run), 126 of them standard ones */
    assert_int_equal(checked, 203);
    assert_int_equal(stored, 126);
    assert_int_equal(hists, 15);
}

/* randrw-nj1: lat and slat bins too (lat_percentiles, slat_percentiles);
 * fio printed the whole standard list with percentile_list. */
static void randrw_all_kinds(void **state)
{
    (void)state;
    struct pb_resultset *s =
        th_parse_ok(JSONP, FIX_DIR, "fio-3.33_randrw-nj1_json-plus.json");
    assert_true(value_of(s, "randrw", "read_clat_p99.999") == 4046848);
    assert_true(value_of(s, "randrw", "read_lat_p90") == 391168);
    assert_true(value_of(s, "randrw", "read_slat_p99") == 36608);
    assert_true(value_of(s, "randrw", "write_clat_p95") == 1171456);
    assert_true(value_of(s, "randrw", "write_slat_p99.9") == 52480);
    const struct pb_hist *h = hist_of(s, "randrw", "read_clat");
    assert_non_null(h);
    assert_int_equal(h->n, 230);
    assert_string_equal(s->results[h->result].metric, "read_clat_p50");
    assert_int_equal(s->nhists, 6);
    pb_resultset_free(s);
}

/* write-nj4: four clones without group_reporting; the aggregate job gets
 * the sum of their bins and percentiles from it (as group_reporting). */
static void numjobs_aggregate(void **state)
{
    (void)state;
    struct pb_resultset *s =
        th_parse_ok(JSONP, FIX_DIR, "fio-3.33_write-nj4_json-plus.json");
    assert_int_equal(s->nhists, 1);
    const struct pb_hist *h = hist_of(s, "seqwrite", "write_clat");
    assert_non_null(h);
    struct pb_fio_bins b = as_bins(h);
    assert_int_equal(b.total, 2048);
    assert_int_equal(h->n, 149);
    assert_true(value_of(s, "seqwrite", "write_clat_p50") == 3440);
    assert_true(value_of(s, "seqwrite", "write_clat_p99.9") == 700416);
    assert_true(value_of(s, "seqwrite", "write_clat_p99.99") == 13828096);
    /* a clone keeps fio's printed value and gains the rest from bins */
    assert_true(value_of(s, "seqwrite#1", "write_clat_p99") == 9152);
    assert_true(value_of(s, "seqwrite#1", "write_clat_p99.999") == 13828096);
    pb_resultset_free(s);
}

/* ==== in memory ==== */

static char *doc_with_bins(const char *lat, const char *bins)
{
    return pb_xasprintf(
        "{\"fio version\" : \"fio-3.33\", \"jobs\" : [ {\"jobname\" : "
        "\"j\", \"groupid\" : 0, \"error\" : 0, \"job options\" : {\"rw\" "
        ": \"read\"}, \"read\" : {\"io_bytes\" : 4096, \"io_kbytes\" : 4, "
        "\"bw_bytes\" : 4096, \"iops\" : 1.0, \"runtime\" : 1000, "
        "\"total_ios\" : 1, \"%s\" : {\"min\" : 1, \"max\" : 2, \"mean\" : "
        "1.5, \"N\" : 1, \"bins\" : %s}}}]}",
        lat, bins);
}

static int parse_doc(const char *doc, struct pb_resultset **s,
                     struct pb_err *err)
{
    return th_parse(JSONP, "mem.json", doc, strlen(doc), s, err);
}

/* fio 2.x: "clat" in usec, keys are bucket indexes plus the layout's
 * constants, every bucket listed (zeros too). */
static void fio2_indexes(void **state)
{
    (void)state;
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "{");
    for (int i = 0; i < 1216; i++)
        pb_buf_printf(&b, "\"%d\" : %d, ", i,
                      i == 100 ? 1 : i == 200 ? 3 : 0);
    pb_buf_puts(&b, "\"FIO_IO_U_PLAT_BITS\" : 6, \"FIO_IO_U_PLAT_VAL\" : "
                    "64, \"FIO_IO_U_PLAT_NR\" : 1216}");
    char *doc = doc_with_bins("clat", pb_buf_str(&b));
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_doc(doc, &s, &err), PB_OK);
    const struct pb_hist *h = hist_of(s, "j", "read_clat");
    assert_non_null(h);
    assert_int_equal(h->n, 2);
    /* index 100 < 128: 100 usec; index 200: group 2, bucket 8 of 64,
     * 256 + 8.5 * 4 = 290 usec */
    assert_int_equal(h->value[0], 100000);
    assert_int_equal(h->value[1], 290000);
    assert_true(value_of(s, "j", "read_clat_p50") == 290000);
    assert_true(value_of(s, "j", "read_clat_p90") == 290000);
    pb_resultset_free(s);
    free(doc);
    pb_buf_release(&b);
}

static void expect_bad(const char *bins, long col_min, const char *msg)
{
    char *doc = doc_with_bins("clat_ns", bins);
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_doc(doc, &s, &err), PB_EINPUT);
    assert_null(s);
    assert_int_equal(err.line, 1);
    assert_true(err.col >= col_min);
    if (!strstr(err.msg, msg)) {
        print_error("message \"%s\" lacks \"%s\"\n", err.msg, msg);
        fail();
    }
    free(doc);
}

static void hostile_bins(void **state)
{
    (void)state;
    expect_bad("{\"10\" : -1}", 200, "count of bin 10 is not a whole number");
    expect_bad("{\"10\" : 1e300}", 200, "count of bin 10 is not a whole");
    expect_bad("{\"ten\" : 1}", 200, "bin key \"ten\" is not a latency");
    expect_bad("{\"-5\" : 1}", 200, "bin key \"-5\" is not a latency");
    expect_bad("{\"\" : 1}", 200, "bin key \"\" is not a latency");
    expect_bad("{\"9223372036854775807\" : 1}", 200, "beyond 2^62 ns");
    expect_bad("{\"10\" : 1, \"10\" : 2}", 200, "a second bin for 10 ns");
    /* 1100 counts of 2^53 add up beyond 2^63 */
    struct pb_buf big = PB_BUF_INIT;
    pb_buf_puts(&big, "{");
    for (int i = 0; i < 1100; i++)
        pb_buf_printf(&big, "%s\"%d\" : 9007199254740992", i ? ", " : "",
                      i + 1);
    pb_buf_puts(&big, "}");
    expect_bad(pb_buf_str(&big), 200, "counts add up beyond 2^63");
    pb_buf_release(&big);
    expect_bad("\"x\"", 200, "\"bins\" is not an object");
    /* fio 2.x index so large its bucket is beyond 2^62 */
    char *doc = doc_with_bins(
        "clat", "{\"4294967295\" : 1, \"FIO_IO_U_PLAT_BITS\" : 6}");
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_doc(doc, &s, &err), PB_EINPUT);
    assert_non_null(strstr(err.msg, "beyond 2^62 ns"));
    free(doc);
    /* a key with escapes is read unescaped: "\u0031\u0030" is 10 */
    doc = doc_with_bins("clat_ns", "{\"\\u0031\\u0030\" : 2}");
    assert_int_equal(parse_doc(doc, &s, &err), PB_OK);
    assert_int_equal(s->nhists, 1);
    assert_int_equal(s->hists[0].value[0], 10);
    assert_int_equal(s->hists[0].count[0], 2);
    pb_resultset_free(s);
    free(doc);
    /* all counts 0: no bins, no percentiles from them */
    doc = doc_with_bins("clat_ns", "{\"10\" : 0}");
    assert_int_equal(parse_doc(doc, &s, &err), PB_OK);
    assert_int_equal(s->nhists, 0);
    for (size_t i = 0; i < s->nresults; i++)
        assert_null(strstr(s->results[i].metric, "_p"));
    pb_resultset_free(s);
    free(doc);
}

/* 10^6 bins are refused (fio never writes more than 1856), 65,536 are
 * read; neither takes long (sorted once). */
static void many_bins(void **state)
{
    (void)state;
    for (int round = 0; round < 2; round++) {
        size_t n = round ? 1000000 : 65536;
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_puts(&b, "{");
        for (size_t i = 0; i < n; i++)
            pb_buf_printf(&b, "%s\"%zu\" : 1", i ? ", " : "", n - i);
        pb_buf_puts(&b, "}");
        char *doc = doc_with_bins("clat_ns", pb_buf_str(&b));
        struct pb_resultset *s;
        struct pb_err err;
        int rc = parse_doc(doc, &s, &err);
        if (round) {
            assert_int_equal(rc, PB_EINPUT);
            assert_non_null(strstr(err.msg, "more than 65536 bins"));
        } else {
            assert_int_equal(rc, PB_OK);
            const struct pb_hist *h = hist_of(s, "j", "read_clat");
            assert_int_equal(h->n, 65536);
            assert_int_equal(h->value[0], 1);
            assert_true(value_of(s, "j", "read_clat_p50") == 32768);
            assert_true(value_of(s, "j", "read_clat_p99.999") == 65536);
            pb_resultset_free(s);
        }
        free(doc);
        pb_buf_release(&b);
    }
}

/* ==== model ==== */

static void blob_round_trip(void **state)
{
    (void)state;
    uint64_t v[4] = {0, 127, 128, (uint64_t)1 << 62};
    uint64_t c[4] = {1, 300, 1, 9007199254740992ULL};
    struct pb_buf b = PB_BUF_INIT;
    pb_db_hist_encode(v, c, 4, &b);
    uint64_t v2[4], c2[4];
    assert_int_equal(pb_db_hist_decode((const unsigned char *)b.s, b.len, 4,
                                       v2, c2),
                     0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(v2[i], v[i]);
        assert_int_equal(c2[i], c[i]);
    }
    /* a pair short, a byte too many, a zero count: refused */
    assert_int_equal(pb_db_hist_decode((const unsigned char *)b.s, b.len - 1,
                                       4, v2, c2),
                     -1);
    assert_int_equal(pb_db_hist_decode((const unsigned char *)b.s, b.len, 3,
                                       v2, c2),
                     -1);
    const unsigned char zero[] = {5, 0};
    assert_int_equal(pb_db_hist_decode(zero, 2, 1, v2, c2), -1);
    pb_buf_release(&b);
}

struct seen {
    size_t n;
    uint64_t total;
    char kinds[256];
};

static int on_hist(void *ctx, const struct pb_db_hist *h)
{
    struct seen *s = ctx;
    s->n++;
    s->total += h->total;
    size_t l = strlen(s->kinds);
    snprintf(s->kinds + l, sizeof(s->kinds) - l, "%s%s:%zu", l ? " " : "",
             h->kind, h->n);
    return 0;
}

static void stored_and_forgotten(void **state)
{
    (void)state;
    char dbpath[] = "/tmp/pbh13-hist-XXXXXX";
    int fd = mkstemp(dbpath);
    assert_true(fd >= 0);
    close(fd);
    unlink(dbpath);
    struct pb_db *db;
    struct pb_err err;
    assert_int_equal(pb_db_open(dbpath, 0, &db, &err), PB_OK);
    struct pb_resultset *s =
        th_parse_ok(JSONP, FIX_DIR, "fio-3.33_randrw-nj4_json-plus.json");
    strcpy(s->sha256, "aa");
    s->format = "fio-json"; /* what pb_ingest_buffer sets */
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
    struct seen seen = {0};
    assert_int_equal(pb_db_each_hist(db, NULL, on_hist, &seen, &err), PB_OK);
    assert_int_equal(seen.n, 2);
    assert_int_equal(seen.total, 997 + 1051);
    assert_string_equal(seen.kinds, "read_clat:239 write_clat:133");
    /* the host and format filters (a local run: host '') */
    struct pb_db_filter f = {0};
    f.host_re = "server";
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(pb_db_each_hist(db, &f, on_hist, &seen, &err), PB_OK);
    assert_int_equal(seen.n, 0);
    f.host_re = "^$";
    f.format = "fio-json";
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(pb_db_each_hist(db, &f, on_hist, &seen, &err), PB_OK);
    assert_int_equal(seen.n, 2);
    f.format = "fio-text";
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(pb_db_each_hist(db, &f, on_hist, &seen, &err), PB_OK);
    assert_int_equal(seen.n, 0);
    assert_int_equal(pb_db_forget_source(db, 1, &err), PB_OK);
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(pb_db_each_hist(db, NULL, on_hist, &seen, &err), PB_OK);
    assert_int_equal(seen.n, 0);
    pb_db_close(db);
    char side[600];
    unlink(dbpath);
    snprintf(side, sizeof(side), "%s-wal", dbpath);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", dbpath);
    unlink(side);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixtures_agree_with_fio),
        cmocka_unit_test(randrw_all_kinds),
        cmocka_unit_test(numjobs_aggregate),
        cmocka_unit_test(fio2_indexes),
        cmocka_unit_test(hostile_bins),
        cmocka_unit_test(many_bins),
        cmocka_unit_test(blob_round_trip),
        cmocka_unit_test(stored_and_forgotten),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
