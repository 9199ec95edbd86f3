/* Unit tests for render/: human units, text cleaning and escaping, label
 * wrapping, chart layouts (no text outside the chart or on other text),
 * well-formed SVG, extreme geometry. The model behind the report and
 * whole reports: test_render_report.c. */
#define _XOPEN_SOURCE 700
#include "tests/unit/render_help.h"

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

/* rp_fmt_scaled prints "0" exactly below half the last decimal, the
 * threshold 0.5 * pow(10, -d) (its table of powers must be pow's values
 * bit for bit: one ULP off moves a value across it). */
static void test_scaled_zero(void **state)
{
    (void)state;
    struct rp_scale s = {1, "", ""};
    char buf[64];
    for (int d = 1; d <= 25; d++) { /* 23..25: past the table, pow */
        double half = 0.5 * pow(10, -d);
        assert_string_equal(
            rp_fmt_scaled(nextafter(half, 0), &s, d, buf, sizeof(buf)), "0");
        assert_string_equal(
            rp_fmt_scaled(-nextafter(half, 0), &s, d, buf, sizeof(buf)), "0");
        rp_fmt_scaled(half, &s, d, buf, sizeof(buf));
        if (!strcmp(buf, "0")) {
            print_error("decimals %d: %.17g printed as 0\n", d, half);
            fail();
        }
    }
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

/* A reduced heatmap: a gap row stands for rows left out (text, no
 * cells), and cells compare with the best of all rows (bestv), so a
 * drawn grid without that best has no outlined cell. */
static void test_heatmap_reduced(void **state)
{
    (void)state;
    struct rc_fonts *f = rc_fonts_new();
    struct rc_gridspec g;
    double v[12], se[12], bv[12];
    sample_grid(&g, v, se);
    const char *gaps[3] = {NULL, "… 7 configurations not drawn (ranks 2–8)",
                           NULL};
    for (int i = 0; i < 12; i++)
        bv[i] = i / 4 == 1 ? NAN : 2e5; /* better than every drawn cell */
    v[4] = v[5] = v[6] = v[7] = NAN;
    g.bestv = bv;
    g.sgaps = gaps;
    struct pb_chart *c = rc_heatmap(f, &g);
    check_layout(f, c, 0);
    int gap = 0, outlined = 0, cells = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        if (it->kind == PB_IT_TEXT && strstr(it->text, "7 configurations not"))
            gap++;
        if (it->kind == PB_IT_RECT && it->stroke == 0xf2a900 && it->sw == 3)
            outlined++;
        if (it->kind == PB_IT_RECT && it->h >= 20 && it->w >= 40 &&
            it->fill != RC_NONE && it->fill != 0xffffff)
            cells++;
    }
    assert_int_equal(gap, 1);
    assert_int_equal(outlined, 0);
    assert_int_equal(cells, 8); /* rows 1 and 3, 4 cells each */
    /* 60k of a best of 200k: the colour of a 30% share */
    assert_true(fabs(rc_share(6e4, 2e5, 1) - 0.3) < 1e-12);
    assert_true(fabs(rc_share(2e5, 6e4, -1) - 0.3) < 1e-12);
    assert_true(rc_share(5, NAN, 1) == 1);
    pb_chart_free(c);
    rc_fonts_free(f);
}

/* rp_many_pick: what a reduced view draws of nv ranked items. */
static void test_many_pick(void **state)
{
    (void)state;
    struct rp_pick p[RP_MANY_PICKS];
    struct rp_pick_sum sum;
    /* 120, the baseline at rank 60: best 30, gap 31-59, the baseline,
     * gap 61-115, the worst 5 */
    assert_int_equal(rp_many_pick(120, 59, p, &sum), 38);
    assert_int_equal(sum.drawn, 36);
    assert_int_equal(p[29].i, 29);
    assert_int_equal(p[29].mark, 0);
    assert_true(p[30].i == SIZE_MAX && p[30].from == 31 && p[30].to == 59);
    assert_true(p[31].i == 59 && p[31].mark == RP_PICK_BASE);
    assert_true(p[32].i == SIZE_MAX && p[32].from == 61 && p[32].to == 115);
    assert_true(p[33].i == 115 && p[33].mark == RP_PICK_WORST);
    assert_true(p[37].i == 119 && p[37].mark == RP_PICK_WORST);
    /* 41, the baseline at rank 21 among the best: one gap (31-36) */
    assert_int_equal(rp_many_pick(41, 20, p, &sum), 36);
    assert_int_equal(sum.drawn, 35);
    assert_int_equal(p[20].mark, RP_PICK_BASE);
    assert_true(p[30].i == SIZE_MAX && p[30].from == 31 && p[30].to == 36);
    assert_int_equal(p[31].i, 36);
    /* the baseline right after the best, and among the worst */
    assert_int_equal(rp_many_pick(100, 30, p, &sum), 37);
    assert_true(p[30].i == 30 && p[30].mark == RP_PICK_BASE);
    assert_true(p[31].i == SIZE_MAX && p[31].from == 32 && p[31].to == 95);
    assert_int_equal(rp_many_pick(100, 97, p, &sum), 36);
    assert_int_equal(sum.drawn, 35);
    assert_true(p[33].i == 97 && p[33].mark == RP_PICK_BASE);
    assert_int_equal(p[34].mark, RP_PICK_WORST);
    /* no baseline; 35 and fewer: all drawn, no gap */
    assert_int_equal(rp_many_pick(100, SIZE_MAX, p, &sum), 36);
    assert_true(p[30].from == 31 && p[30].to == 95);
    assert_int_equal(rp_many_pick(35, SIZE_MAX, p, &sum), 35);
    assert_int_equal(sum.drawn, 35);
    assert_int_equal(rp_many_pick(3, 1, p, &sum), 3);
    assert_int_equal(rp_many_pick(0, SIZE_MAX, p, &sum), 0);
    struct pb_arena a;
    pb_arena_init(&a);
    assert_string_equal(rp_many_label(&a, "cfg-000", &(struct rp_pick){
                                          59, 0, 0, RP_PICK_BASE}, 120),
                        "cfg-000 (baseline, rank 60 of 120)");
    assert_string_equal(rp_many_label(&a, "x", &(struct rp_pick){
                                          9999, 0, 0, RP_PICK_WORST}, 10000),
                        "x (worst, rank 10000 of 10000)");
    assert_string_equal(rp_many_label(&a, "x", &(struct rp_pick){0, 0, 0, 0},
                                      5),
                        "x");
    pb_arena_release(&a);
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
    /* drawn while an rc_fonts lives, as in a report: freeing the last one
     * empties fontconfig, which the PNG's text set up (leak checkers) */
    struct rc_fonts *f = rc_fonts_new();
    assert_int_equal(pb_chart_write_png(c, path, 1.5, &err), PB_OK);
    rc_fonts_free(f);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_scaled_zero),
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_acc),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_bars_layout),
        cmocka_unit_test(test_grid_layouts),
        cmocka_unit_test(test_heatmap_reduced),
        cmocka_unit_test(test_many_pick),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_extreme_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
