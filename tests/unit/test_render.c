/* Unit tests for render/: human units, text cleaning and escaping, label
 * wrapping, chart layouts (no text outside the chart or on other text),
 * well-formed SVG, repeats folded into mean/SE/n, fio aggregates, best
 * configuration verdicts, the geometric-mean ranking, sweeps, and whole
 * reports rendered from databases filled through pb_db_store: bonnie++ and
 * compression tables, escaping, byte-identical reruns. */
#define _XOPEN_SOURCE 700
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

static int rm_one(const char *p, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void rm_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *make_tmp(void)
{
    char *d = strdup("/tmp/pb-test-render.XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static char *slurp(const char *path, size_t *len)
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

static int count(const char *hay, const char *needle)
{
    int n = 0;
    size_t l = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += l)
        n++;
    return n;
}

static int nsets;

/* A new result set with a unique SHA-256 (sources are keyed by it). */
static struct pb_resultset *new_set(const char *format)
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

static void store(struct pb_db *db, struct pb_resultset *s)
{
    struct pb_err err = {0};
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

static struct pb_db *open_db(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/t.db", dir);
    struct pb_db *db;
    struct pb_err err = {0};
    assert_int_equal(pb_db_open(path, 0, &db, &err), PB_OK);
    return db;
}

/* One fio-like result of a config with recordsize/compression dims. */
static void fio_result(struct pb_db *db, const char *label, const char *rs,
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

/* ==== units ==== */

static void fmt_is(const char *metric, const char *unit, double v,
                   const char *want)
{
    struct rp_unit u;
    char buf[96];
    rp_unit_of(metric, unit, &u);
    rp_fmt(&u, v, buf, sizeof(buf));
    if (strcmp(buf, want)) {
        print_error("%s %g %s: got '%s' want '%s'\n", metric, v, unit, buf,
                    want);
        fail();
    }
}

static void test_units(void **state)
{
    (void)state;
    /* numbers of fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json:
     * bw_bytes 155344592, iops 37925.925926 */
    fmt_is("read_bw", "B/s", 155344592, "148.1 MiB/s");
    fmt_is("read_iops", "ops/s", 37925.925926, "37.93k IOPS");
    fmt_is("read_iops", "ops/s", 9500, "9500 IOPS");
    fmt_is("read_iops", "ops/s", 1.5e7, "15.00M IOPS");
    fmt_is("random_seeks", "ops/s", 148.7, "148.7 ops/s");
    fmt_is("read_clat_p99", "ns", 444416, "444.4 µs");
    fmt_is("read_clat_p99", "ns", 1.5e6, "1.500 ms");
    fmt_is("read_clat_p99", "ns", 850, "850.0 ns");
    fmt_is("read_bw", "B/s", 1048576000, "1000 MiB/s");
    fmt_is("read_bw", "B/s", 3145728000, "2.930 GiB/s");
    fmt_is("used", "B", 3575560273.92, "3.330 GiB");
    fmt_is("compressratio", "ratio", 1.23, "1.23×");
    fmt_is("usr_cpu", "%", 10.526316, "10.53%");
    fmt_is("value", "Seconds", 16.23, "16.23 Seconds");
    fmt_is("value", "Files/s", 123456, "123.5k Files/s");
    fmt_is("read_bw", "B/s", 0, "0 B/s");

    struct rp_unit u;
    char buf[96];
    rp_unit_of("read_bw", "B/s", &u);
    assert_string_equal(rp_fmt_pm(&u, 155344592, 1258291.2, buf, sizeof(buf)),
                        "148.1 ± 1.2 MiB/s");
    assert_string_equal(rp_fmt_se(&u, 155344592, 1258291.2, buf, sizeof(buf)),
                        "± 1.2 MiB/s");

    struct rp_ticks t;
    rp_ticks(0, 148.1, 5, &t); /* 29.6 a step: rounds to 20 */
    assert_near(t.lo, 0, 1e-12);
    assert_near(t.step, 20, 1e-9);
    assert_near(t.hi, 160, 1e-9);
    assert_int_equal(t.n, 9);
    assert_int_equal(t.decimals, 0);
    rp_ticks(0, 148.1, 2, &t); /* 74 a step: rounds to 100 */
    assert_near(t.step, 100, 1e-9);
    assert_near(t.hi, 200, 1e-9);
    assert_int_equal(t.n, 3);
    rp_ticks(0, 0.37, 4, &t);
    assert_near(t.step, 0.1, 1e-12);
    assert_int_equal(t.decimals, 1);

    assert_string_equal(rp_param_text("recordsize", "131072", buf, 32), "128k");
    assert_string_equal(rp_param_text("bs", "4096", buf, 32), "4k");
    assert_string_equal(rp_param_text("compression", "lz4", buf, 32), "lz4");
    assert_string_equal(rp_metric_title("write_clat_p99.9", buf, sizeof(buf)),
                        "write completion latency, p99.9");
    assert_string_equal(rp_metric_title("seq_out_block_bw", buf, sizeof(buf)),
                        "sequential output, block");
}

/* rp_fixed, rp_g10 and rp_num give printf's (pb_fmt_num's) text: checked
 * against snprintf on round numbers, ties and near-ties, and pseudo-random
 * values of every magnitude the report prints. */
static void fmt_same(double v)
{
    char want[64], got[64];
    for (int d = 0; d <= 9; d++) {
        snprintf(want, sizeof(want), "%.*f", d, v);
        rp_fixed(v, d, got, sizeof(got));
        if (strcmp(want, got)) {
            print_error("%%.%df of %.17g: printf %s, rp_fixed %s\n", d, v,
                        want, got);
            fail();
        }
    }
    snprintf(want, sizeof(want), "%.10g", v);
    rp_g10(v, got, sizeof(got));
    if (strcmp(want, got)) {
        print_error("%%.10g of %.17g: printf %s, rp_g10 %s\n", v, want, got);
        fail();
    }
    pb_fmt_num(v, want, sizeof(want));
    rp_num(v, got, sizeof(got));
    if (strcmp(want, got)) {
        print_error("%.17g: pb_fmt_num %s, rp_num %s\n", v, want, got);
        fail();
    }
}

static void test_number_text(void **state)
{
    (void)state;
    static const double fixed[] = {0,
                                   -0.0,
                                   0.5,
                                   1.5,
                                   2.5,
                                   -2.5,
                                   0.05,
                                   0.15,
                                   0.25,
                                   0.35,
                                   1.005,
                                   2.675,
                                   1e-7,
                                   -1e-7,
                                   4260.49,
                                   58.369235,
                                   94.71281472,
                                   9.9999999999,
                                   99.999999995,
                                   9999999999.5,
                                   9999999999.4,
                                   1234567890.25,
                                   37925.925926,
                                   155344592,
                                   1e10,
                                   1e12,
                                   123456789012.5,
                                   999999999999.5,
                                   1e15,
                                   0.25,
                                   0.1,
                                   0.01,
                                   0.001,
                                   1e-4,
                                   9.9999999999e-5,
                                   0.099999999999,
                                   0.0999999999995,
                                   0.00999999999996,
                                   0.0015275252316519481,
                                   NAN,
                                   INFINITY,
                                   -INFINITY};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        fmt_same(fixed[i]);
    /* values a tie away at every number of decimals */
    for (int k = 0; k < 3000; k++) {
        for (int d = 0; d <= 6; d++) {
            double scale = pow(10, d);
            fmt_same((k + 0.5) / scale);
            fmt_same(-(k + 0.5) / scale);
            fmt_same(nextafter((k + 0.5) / scale, 0));
            fmt_same(nextafter((k + 0.5) / scale, 1e300));
        }
    }
    uint64_t x = 88172645463325252ull;
    for (int k = 0; k < 40000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double m = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
        int e = (int)((x >> 3) % 30) - 12;
        double v = m * pow(10, e);
        fmt_same((x & 1) ? -v : v);
        fmt_same(round(v * 100) / 100); /* two decimals, as parsed */
    }
}

/* ==== text ==== */

static void test_text(void **state)
{
    (void)state;
    struct pb_arena a;
    pb_arena_init(&a);
    /* bad UTF-8, a C0 control, a surrogate, a tab */
    const char *s = rp_clean(&a, "a\xff<b>\x01\xed\xa0\x80\tz\xc3\xa9");
    assert_string_equal(s, "a\xef\xbf\xbd<b>\xef\xbf\xbd\xef\xbf\xbd\xef"
                           "\xbf\xbd\xef\xbf\xbd z\xc3\xa9");
    assert_null(rp_clean(&a, NULL));
    struct pb_buf b = PB_BUF_INIT;
    rp_esc(&b, "<script>alert('x') & \"y\"</script>");
    assert_string_equal(pb_buf_str(&b), "&lt;script&gt;alert(&#39;x&#39;) "
                                        "&amp; &quot;y&quot;&lt;/script&gt;");
    pb_buf_release(&b);
    char slug[32];
    assert_string_equal(rp_slug("fio randread bs=4k <x>", slug, 20),
                        "fio-randread-bs-4k-x");
    assert_string_equal(rp_slug("!!!", slug, 20), "x");
    assert_true(rp_natcmp("bs=4k", "bs=16k") < 0);
    assert_true(rp_natcmp("rs=128k", "rs=16k") > 0);
    assert_true(rp_natcmp("a", "a") == 0);
    assert_true(rp_natcmp("x07", "x7") != 0);
    pb_arena_release(&a);
}

static void test_acc(void **state)
{
    (void)state;
    struct rp_acc a = {0};
    struct rp_cell c;
    rp_acc_add(&a, 1, 0, 0, 0);
    rp_acc_add(&a, 2, 0, 0, 0);
    rp_acc_add(&a, 3, 0, 0, 0);
    rp_acc_done(&a, &c);
    assert_near(c.mean, 2, 1e-12);
    assert_near(c.se, 1 / sqrt(3), 1e-12); /* sd 1 */
    assert_int_equal(c.n, 3);
    /* one row keeps the parser's SE and sample count (PTS) */
    struct rp_acc b = {0};
    rp_acc_add(&b, 16.23, 1, 0.0766, 3);
    rp_acc_done(&b, &c);
    assert_near(c.mean, 16.23, 1e-12);
    assert_near(c.se, 0.0766, 1e-12);
    assert_int_equal(c.n, 3);
    struct rp_acc e = {0};
    rp_acc_add(&e, 5, 0, 0, 0);
    rp_acc_done(&e, &c);
    assert_true(c.se < 0);
    assert_int_equal(c.n, 1);
}

/* ==== layout ==== */

static void test_wrap(void **state)
{
    (void)state;
    struct rc_fonts *f = rc_fonts_new();
    struct pb_arena a;
    pb_arena_init(&a);
    const char *lines[3];
    int el;
    size_t n = rc_wrap(f, &a, "short", 12, 0, 200, 2, lines, &el);
    assert_int_equal(n, 1);
    assert_false(el);
    assert_string_equal(lines[0], "short");
    const char *lng = "zfs raidz2 ashift=12 recordsize=1M compression=zstd-19 "
                      "atime=off xattr=sa dnodesize=auto primarycache=all";
    n = rc_wrap(f, &a, lng, 12, 0, 200, 2, lines, &el);
    assert_int_equal(n, 2);
    assert_true(el);
    for (size_t i = 0; i < n; i++)
        assert_true(rc_text_width(f, lines[i], 12, 0) <= 200 + 1e-9);
    assert_non_null(strstr(lines[1], "…"));
    /* a word longer than the line is cut inside */
    n = rc_wrap(f, &a, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 12, 0,
                80, 3, lines, &el);
    for (size_t i = 0; i < n; i++)
        assert_true(rc_text_width(f, lines[i], 12, 0) <= 80 + 1e-9);
    /* DejaVu Sans at 12 px: "M" is wider than "i" */
    assert_true(rc_text_width(f, "MMMM", 12, 0) >
                rc_text_width(f, "iiii", 12, 0));
    assert_true(rc_text_width(f, "abc", 12, 1) >
                rc_text_width(f, "abc", 12, 0));
    pb_arena_release(&a);
    rc_fonts_free(f);
}

struct box {
    double x0, y0, x1, y1;
};

static struct box text_box(struct rc_fonts *f, const struct pb_item *it)
{
    double w = rc_text_width(f, it->text, it->size, it->bold);
    struct box b;
    if (it->rot90) {
        b.x0 = it->x - it->size * 0.8;
        b.x1 = it->x + it->size * 0.25;
        double dy = it->anchor == RC_MIDDLE ? w / 2
                    : it->anchor == RC_END  ? w
                                            : 0;
        b.y1 = it->y + dy;
        b.y0 = b.y1 - w;
        return b;
    }
    b.x0 = it->x - (it->anchor == RC_MIDDLE ? w / 2
                    : it->anchor == RC_END  ? w
                                            : 0);
    b.x1 = b.x0 + w;
    b.y0 = it->y - it->size * 0.76; /* DejaVu ascent */
    b.y1 = it->y + it->size * 0.24; /* descent */
    return b;
}

static int overlap(struct box a, struct box b)
{
    double e = 0.5; /* touching is fine */
    return a.x0 < b.x1 - e && b.x0 < a.x1 - e && a.y0 < b.y1 - e &&
           b.y0 < a.y1 - e;
}

/* No text leaves the chart or touches other text; with rects != 0, no
 * text touches a drawn rectangle either (bar charts: labels beside bars). */
static void check_layout(struct rc_fonts *f, const struct pb_chart *c,
                         int rects)
{
    assert_true(c->w > 0 && c->h > 0);
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        if (it->kind != PB_IT_TEXT)
            continue;
        struct box b = text_box(f, it);
        if (b.x0 < -0.5 || b.y0 < -0.5 || b.x1 > c->w + 0.5 ||
            b.y1 > c->h + 0.5) {
            print_error("text '%s' outside %gx%g: %g,%g-%g,%g\n", it->text,
                        c->w, c->h, b.x0, b.y0, b.x1, b.y1);
            fail();
        }
        for (size_t j = i + 1; j < c->n; j++) {
            const struct pb_item *o = &c->items[j];
            if (o->kind == PB_IT_TEXT && overlap(b, text_box(f, o))) {
                print_error("text '%s' overlaps '%s'\n", it->text, o->text);
                fail();
            }
            if (rects && o->kind == PB_IT_RECT && j > 0 && o->fill != RC_NONE) {
                struct box r = {o->x, o->y, o->x + o->w, o->y + o->h};
                if (overlap(b, r)) {
                    print_error("text '%s' on a bar\n", it->text);
                    fail();
                }
            }
        }
    }
}

static struct pb_chart *sample_bars(struct rc_fonts *f)
{
    static struct rc_bar bars[6];
    const char *labels[6] = {
        "zfs rs=128k lz4",
        "a very long configuration label that goes on and on: zfs raidz2 "
        "ashift=12 recordsize=1M compression=zstd-19 atime=off",
        "<script>alert(1)</script>",
        "x",
        "mirror, 4 disks, slog=nvme0n1",
        "bonnie"};
    for (int i = 0; i < 6; i++) {
        bars[i].label = labels[i];
        bars[i].color = rc_config_color((size_t)i);
        bars[i].has_value = i != 5;
        bars[i].v = 155344592.0 / (i + 1);
        bars[i].se = i == 0 ? 1258291.2 : i == 3 ? 0 : -1;
        bars[i].best = i == 0;
        bars[i].note = i == 5 ? "+++++ (too fast to measure)" : NULL;
    }
    struct rc_barspec s = {0};
    s.title =
        "fio randread bs=4k iodepth=64 numjobs=4 direct=1 ioengine=libaio "
        "and a title long enough to wrap onto a second line of the chart";
    s.subtitle = "read bandwidth · higher is better · whiskers: ± standard "
                 "error · ★ best";
    rp_unit_of("read_bw", "B/s", &s.unit);
    s.dir = 1;
    s.bars = bars;
    s.n = 6;
    s.more = 3;
    return rc_bars(f, &s);
}

static void test_bars_layout(void **state)
{
    (void)state;
    struct rc_fonts *f = rc_fonts_new();
    struct pb_chart *c = sample_bars(f);
    check_layout(f, c, 1);
    /* the value labels are there, in human units */
    int found = 0, elided = 0, note = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        if (it->kind != PB_IT_TEXT)
            continue;
        found += !strcmp(it->text, "148.1 ± 1.2 MiB/s");
        elided += it->title && strstr(it->title, "goes on and on") != NULL;
        note += !strcmp(it->text, "+++++ (too fast to measure)");
    }
    assert_int_equal(found, 1);
    assert_true(elided >= 1);
    assert_int_equal(note, 1);
    pb_chart_free(c);

    /* lower is better: the axis says so */
    struct rc_bar one = {"only", 0x4e79a7, 1, 292578, -1, NULL, 0};
    struct rc_barspec s = {0};
    s.title = "t";
    rp_unit_of("read_lat_mean", "ns", &s.unit);
    s.dir = -1;
    s.bars = &one;
    s.n = 1;
    c = rc_bars(f, &s);
    check_layout(f, c, 1);
    int lower = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->items[i].kind == PB_IT_TEXT &&
            strstr(c->items[i].text, "lower is better"))
            lower++;
    assert_int_equal(lower, 1);
    pb_chart_free(c);
    rc_fonts_free(f);
}

static void sample_grid(struct rc_gridspec *g, double *v, double *se)
{
    static const char *xv[] = {"4k", "16k", "128k", "1M"};
    static const char *sv[] = {"lz4", "off", "a rather long series value"};
    static uint32_t col[3];
    for (int i = 0; i < 3; i++)
        col[i] = rc_series_color((size_t)i, 3);
    for (int i = 0; i < 12; i++) {
        v[i] = 1e5 / (1 + i % 4) * (1 + i / 4 * 0.1);
        se[i] = i % 2 ? v[i] * 0.01 : -1;
    }
    v[7] = NAN;
    memset(g, 0, sizeof(*g));
    g->title = "read IOPS by recordsize and compression";
    g->subtitle = "bs=4k · higher is better";
    g->xname = "recordsize";
    g->sname = "compression";
    rp_unit_of("read_iops", "ops/s", &g->unit);
    g->dir = 1;
    g->xvals = xv;
    g->svals = sv;
    g->scolors = col;
    g->nx = 4;
    g->ns = 3;
    g->v = v;
    g->se = se;
}

static void test_grid_layouts(void **state)
{
    (void)state;
    struct rc_fonts *f = rc_fonts_new();
    struct rc_gridspec g;
    double v[12], se[12];
    sample_grid(&g, v, se);
    struct pb_chart *c = rc_heatmap(f, &g);
    check_layout(f, c, 0);
    /* the best cell (1e5 * 1.2 = 120k, row 3 col 1) is marked */
    assert_true(rc_grid_best(&g, 8));
    assert_false(rc_grid_best(&g, 0));
    g.norm = RC_NORM_ROW;
    assert_true(rc_grid_best(&g, 0) && rc_grid_best(&g, 4));
    g.norm = RC_NORM_COL;
    assert_true(rc_grid_best(&g, 9) && !rc_grid_best(&g, 1));
    pb_chart_free(c);
    g.norm = RC_NORM_ALL;
    c = rc_grouped(f, &g);
    check_layout(f, c, 0);
    pb_chart_free(c);
    rc_fonts_free(f);
}

static void test_svg(void **state)
{
    (void)state;
    struct rc_fonts *f = rc_fonts_new();
    struct pb_chart *c = sample_bars(f);
    struct pb_buf b = PB_BUF_INIT;
    pb_chart_svg(c, &b);
    const char *svg = pb_buf_str(&b);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_null(strstr(svg, "<script"));
    assert_non_null(strstr(svg, ">148.1 ± 1.2 MiB/s</text>"));
    /* well-formed XML: a browser would refuse the image otherwise */
    xmlDocPtr doc = xmlReadMemory(svg, (int)b.len, "chart.svg", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR);
    assert_non_null(doc);
    xmlFreeDoc(doc);
    /* the cairo back-end draws the same list without error */
    char *dir = make_tmp();
    char path[600];
    struct pb_err err = {0};
    snprintf(path, sizeof(path), "%s/c.png", dir);
    assert_int_equal(pb_chart_write_png(c, path, 1, &err), PB_OK);
    size_t len;
    char *png = slurp(path, &len);
    assert_true(len > 1000 && !memcmp(png, "\x89PNG", 4));
    free(png);
    snprintf(path, sizeof(path), "%s/no/such/dir/c.png", dir);
    assert_int_equal(pb_chart_write_png(c, path, 1, &err), PB_EIO);
    rm_tree(dir);
    free(dir);
    pb_buf_release(&b);
    pb_chart_free(c);
    rc_fonts_free(f);
}

/* Extreme geometry: coordinates of 1e300, inf and NaN are clamped and
 * flagged; a chart taller than cairo's 32,767-pixel surfaces is scaled
 * down into its PNG rather than not written. */
static void test_extreme_geometry(void **state)
{
    (void)state;
    struct pb_chart *c = rc_chart_new(400, 50000);
    rc_rect(c, 10, 10, 1e300, 20, 0x4e79a7, RC_NONE, 0);
    assert_int_equal(c->clamped, 1);
    rc_line(c, NAN, 0, INFINITY, 5, 0, 1);
    rc_text(c, -INFINITY, 30, "x", 11, 0, RC_START, 0);
    struct pb_buf b = PB_BUF_INIT;
    pb_chart_svg(c, &b);
    assert_null(strstr(pb_buf_str(&b), "inf"));
    assert_null(strstr(pb_buf_str(&b), "nan"));
    assert_non_null(strstr(pb_buf_str(&b), "width=\"1000000\""));
    pb_buf_release(&b);
    char *dir = make_tmp();
    char path[600];
    struct pb_err err = {0};
    snprintf(path, sizeof(path), "%s/tall.png", dir);
    assert_int_equal(pb_chart_write_png(c, path, 1.5, &err), PB_OK);
    size_t len;
    unsigned char *png = (unsigned char *)slurp(path, &len);
    assert_true(len > 24 && !memcmp(png, "\x89PNG", 4));
    /* IHDR: width and height, big-endian, at bytes 16 and 20 */
    unsigned long w = (unsigned long)png[16] << 24 | png[17] << 16 |
                      png[18] << 8 | png[19];
    unsigned long h = (unsigned long)png[20] << 24 | png[21] << 16 |
                      png[22] << 8 | png[23];
    assert_true(h <= 32000 && h >= 31000);
    assert_true(w >= 250 && w <= 260); /* 400 x 32000/50000 */
    free(png);
    rm_tree(dir);
    free(dir);
    pb_chart_free(c);
    /* an axis past every prefix: ticks stay finite and short */
    struct rp_ticks t;
    rp_ticks(0, 1.7e300, 5, &t);
    assert_true(isfinite(t.hi) && t.hi <= 1e281);
    struct rp_unit u = {0};
    u.kind = RP_U_IOPS;
    char buf[64];
    rp_fmt(&u, 1.7e308, buf, sizeof(buf));
    assert_true(strlen(buf) < 20);
    assert_null(strstr(buf, "inf"));
}

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
    rp_best_of(&d, &d.groups[0], &b);
    assert_int_equal(b.verdict, RP_V_TIE);
    /* t2 (lower is better): C 100 s best, runner-up B at 125 s */
    rp_best_of(&d, &d.groups[1], &b);
    assert_string_equal(d.configs[d.cells[b.best].config].label, "C");
    assert_string_equal(d.configs[d.cells[b.runner].config].label, "B");
    assert_near(b.margin, 0.25, 1e-12);
    assert_int_equal(b.verdict, RP_V_NOSE);
    /* SE intervals: apart, then overlapping */
    d.cells[b.best].se = 10;
    d.cells[b.runner].se = 10;
    rp_best_of(&d, &d.groups[1], &b);
    assert_int_equal(b.verdict, RP_V_CLEAR);
    d.cells[b.runner].se = 20; /* 100 + 10 >= 125 - 20 */
    rp_best_of(&d, &d.groups[1], &b);
    assert_int_equal(b.verdict, RP_V_OVERLAP);
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
    pb_rs_fact(s, NULL, "tank/zvol8k:volmode", "dev");
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
    int rc = pb_render_report(db, &o, sum, &err);
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
    /* compression: savings derived (1.6e9 / 2e9 = 0.80) and flagged */
    assert_non_null(strstr(html, "<section id=\"compression\">"));
    assert_non_null(strstr(html, "0.80× †  ▼ data grew"));
    assert_non_null(strstr(html, "volblocksize 8k"));
    assert_non_null(strstr(html, ">1.50×<"));
    /* exact values and SE in the tables: rs=128k lz4 bs=64k = 8001 */
    assert_non_null(strstr(html, ">8001<"));
    assert_non_null(strstr(html, "± 0.58 IOPS"));
    assert_non_null(strstr(html, "Best configuration per test"));
    assert_non_null(strstr(html, "not distinguishable") ||
                    strstr(html, "clear: ±SE intervals apart"));
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
    assert_int_equal(pb_render_report(db, &o, &sum, &err), PB_OK);
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
    assert_int_equal(pb_render_report(db, &o, &sum, &err), PB_OK);
    html = slurp(path, NULL);
    assert_non_null(strstr(html, "5 results · configurations of run "
                                 "&lt;rs&gt;</p>"));
    assert_null(strstr(html, "^bonnie"));
    free(html);
    o.filter_note = NULL;
    /* a bad pattern is a usage error */
    o.filter.test_re = "(";
    assert_int_equal(pb_render_report(db, &o, &sum, &err), PB_EUSAGE);
    /* an unwritable folder is an I/O error naming it */
    o.filter.test_re = NULL;
    o.outdir = "/proc/no-such-dir/report";
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_render_report(db, &o, &sum, &err), PB_EIO);
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
    assert_int_equal(rp_pdf_open(path, f, &p, &err), PB_OK);
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
    assert_int_equal(pb_render_report(db, &o, &sum, &err), PB_OK);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_acc),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_bars_layout),
        cmocka_unit_test(test_grid_layouts),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_extreme_geometry),
        cmocka_unit_test(test_fio_aggregates),
        cmocka_unit_test(test_best_and_ranking),
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_sweep_families),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_empty_and_pdf),
        cmocka_unit_test(test_pdf_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
