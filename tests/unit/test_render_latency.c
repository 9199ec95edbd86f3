/* Unit tests for render/chart_latency.c: axis labels (decades, nines), the
 * histogram's bands, and the CDF and histogram layouts of a real fio 3.33
 * json+ distribution (fixtures/fio-jsonplus): every item inside the chart,
 * the CDF's last step at the top of the nines axis, the bands adding up to
 * 100%, the percentile ladder's points on its log axis. */
#include "tests/unit/testhelp.h"

#include <math.h>

#include "ingest/ingest.h"
#include "ingest/ingest_int.h"
#include "render/rp_chart.h"

#define FIX_DIR PB_FIXTURES_DIR "/fio-jsonplus"

static void labels(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(rc_lat_decade(0, b, sizeof(b)), "1 ns");
    assert_string_equal(rc_lat_decade(4, b, sizeof(b)), "10 µs");
    assert_string_equal(rc_lat_decade(8, b, sizeof(b)), "100 ms");
    assert_string_equal(rc_lat_decade(9, b, sizeof(b)), "1 s");
    assert_string_equal(rc_lat_decade(11, b, sizeof(b)), "100 s");
    assert_string_equal(rc_lat_nines_label(0, b, sizeof(b)), "0%");
    assert_string_equal(rc_lat_nines_label(1, b, sizeof(b)), "90%");
    assert_string_equal(rc_lat_nines_label(2, b, sizeof(b)), "99%");
    assert_string_equal(rc_lat_nines_label(3, b, sizeof(b)), "99.9%");
    assert_string_equal(rc_lat_nines_label(7, b, sizeof(b)), "99.99999%");
    assert_true(fabs(rc_lat_hist_edge(3, 10) - 1e4) < 1e-6);
}

/* The read clat histogram of the randrw fixture (230 bins, 707 I/Os). */
static struct pb_resultset *randrw(struct rc_latline *l)
{
    struct pb_resultset *s = th_parse_ok(&pb_parser_fio_json, FIX_DIR,
                                         "fio-3.33_randrw-nj1_json-plus.json");
    const struct pb_hist *h = NULL;
    for (size_t i = 0; i < s->nhists && !h; i++)
        if (!strcmp(s->hists[i].kind, "read_clat"))
            h = &s->hists[i];
    assert_non_null(h);
    l->label = "zfs rs=16k";
    l->color = 0x4e79a7;
    l->n = h->n;
    l->val = h->value;
    l->cnt = h->count;
    l->total = 0;
    for (size_t i = 0; i < h->n; i++)
        l->total += h->count[i];
    return s;
}

static void inside(const struct pb_chart *c)
{
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        assert_true(it->x >= 0 && it->x <= c->w);
        assert_true(it->y >= 0 && it->y <= c->h);
        if (it->kind == PB_IT_LINE) {
            assert_true(it->w >= 0 && it->w <= c->w);
            assert_true(it->h >= 0 && it->h <= c->h);
        }
    }
}

static void cdf_layout(void **state)
{
    (void)state;
    struct rc_latline l;
    struct pb_resultset *s = randrw(&l);
    assert_int_equal(l.total, 707);
    struct rc_fonts *f = rc_fonts_new();
    struct rc_latspec spec = {"t", "s", &l, 1, 1};
    struct pb_chart *c = rc_lat_cdf(f, &spec);
    inside(c);
    /* 707 I/Os: 3 nines; the highest line point is the top label's y */
    double top_label = -1, min_y = 1e9;
    int curves = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        if (it->kind == PB_IT_TEXT && !strcmp(it->text, "99.9%"))
            top_label = it->y - 4;
        /* the step curve is one polyline, not a line per bin */
        assert_false(it->kind == PB_IT_LINE && it->stroke == l.color);
        if (it->kind == PB_IT_POLY && it->stroke == l.color) {
            curves++;
            assert_int_equal(it->fill, RC_NONE);
            assert_true(it->npts >= 2 && it->npts <= 2 * l.n);
            for (size_t k = 0; k < it->npts; k++)
                if (it->pts[2 * k + 1] < min_y)
                    min_y = it->pts[2 * k + 1];
        }
    }
    assert_int_equal(curves, 1);
    assert_true(top_label > 0);
    assert_true(fabs(min_y - top_label) < 1e-6);
    pb_chart_free(c);
    /* linear: 0..100% */
    spec.nines = 0;
    c = rc_lat_cdf(f, &spec);
    inside(c);
    int has100 = 0;
    for (size_t i = 0; i < c->n; i++)
        has100 |= c->items[i].kind == PB_IT_TEXT &&
                  !strcmp(c->items[i].text, "100%");
    assert_true(has100);
    pb_chart_free(c);
    rc_fonts_free(f);
    pb_resultset_free(s);
}

static void hist_layout(void **state)
{
    (void)state;
    struct rc_latline l;
    struct pb_resultset *s = randrw(&l);
    struct rc_latspec spec = {"t", "s", &l, 1, 1};
    int dlo;
    size_t nb = rc_lat_hist_bins(&spec, &dlo);
    /* bins from 1.2 µs to 4 ms: decades 10^3 .. 10^7 ns, 40 bands */
    assert_int_equal(dlo, 3);
    assert_int_equal(nb, 40);
    double *p = calloc(nb, sizeof(double)), sum = 0;
    rc_lat_hist_fill(&l, dlo, nb, p);
    for (size_t j = 0; j < nb; j++)
        sum += p[j];
    assert_true(fabs(sum - 100) < 1e-9);
    free(p);
    struct rc_fonts *f = rc_fonts_new();
    struct pb_chart *c = rc_lat_hist(f, &spec);
    inside(c);
    pb_chart_free(c);
    rc_fonts_free(f);
    pb_resultset_free(s);
}

/* The ladder: one point (7 px square) per percentile, x on the log axis
 * (a decade is the same width everywhere), a value label each for one
 * configuration. */
static void ladder_layout(void **state)
{
    (void)state;
    struct rc_latline l = {"one", 0x4e79a7, 0, NULL, NULL, 1};
    static const char *const names[] = {"p50", "p90", "p99", "p99.99"};
    const double v[] = {1e3, 1e4, 1e5, 1e6}; /* 1 µs .. 1 ms */
    struct rc_ladspec spec = {{"t", "s", &l, 1, 1}, names, 4, v};
    struct rc_fonts *f = rc_fonts_new();
    struct pb_chart *c = rc_lat_ladder(f, &spec);
    inside(c);
    double x[4];
    size_t np = 0, nlab = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        if (it->kind == PB_IT_RECT && it->fill == l.color && it->w == 7 &&
            np < 4)
            x[np++] = it->x + 3.5;
        if (it->kind == PB_IT_TEXT &&
            (!strcmp(it->text, "1.000 µs") || !strcmp(it->text, "1.000 ms")))
            nlab++;
    }
    assert_int_equal(np, 4);
    assert_int_equal(nlab, 2);
    /* equal steps for equal ratios: the axis is logarithmic */
    assert_true(fabs((x[1] - x[0]) - (x[3] - x[2])) < 1e-6);
    assert_true(x[1] > x[0]);
    /* the axis is 1 µs .. 1 ms (decades 10^3..10^6 ns) */
    int has1us = 0, has1ms = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct pb_item *it = &c->items[i];
        has1us |= it->kind == PB_IT_TEXT && !strcmp(it->text, "1 µs");
        has1ms |= it->kind == PB_IT_TEXT && !strcmp(it->text, "1 ms");
    }
    assert_true(has1us && has1ms);
    pb_chart_free(c);
    rc_fonts_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(labels),
        cmocka_unit_test(cdf_layout),
        cmocka_unit_test(ladder_layout),
        cmocka_unit_test(hist_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
