/* Private to the report's files (report.c, report_overview.c,
 * report_tests.c): the output state, the plan of test pages and the
 * sections one file writes for another. */
#ifndef PB_REPORT_INT_H
#define PB_REPORT_INT_H

#include "render/render_int.h"

#define MAX_BARS 40
/* MAX_ALL_ROWS (rows of an "all metrics" table): analysis/data.h */

/* A report whose "Results by test" would hold more charts than this puts
 * those sections on pages of their own (tests-001.html, ...) of at most
 * PAGE_CHARTS charts each, with the charts inline: one page of 4,000
 * charts and tables (a PTS file of 4,000 tests, 23 MB of HTML) does not
 * load in a browser in minutes, and 4,000 chart files cost more to create
 * than the rest of the report. */
#define PAGED_CHARTS 200
#define PAGE_CHARTS  100

/* Which test sections go on which page. */
struct test_plan {
    size_t *page;     /* by test index: 0 = index.html, else page number */
    size_t npages;    /* 0 = everything on index.html */
    size_t *first;    /* by page - 1: ordinal of its first section (0-based) */
    size_t *ntests;   /* by page - 1: its sections */
    size_t *firstt;   /* by page - 1: test index of its first section */
    size_t *lastt;    /* by page - 1: test index of its last section */
    size_t nsections; /* tests with a section of their own */
    size_t ncharts;   /* their charts */
    size_t weight;    /* ncharts, and 1 per 100 rows of a test's tables */
};

struct rp_out {
    struct pb_buf html;    /* index.html: what is not written yet */
    struct rp_file *index; /* index.html, written as it grows */
    struct pb_buf page;    /* the test page being written */
    struct rp_file *pagef; /* its file, written as o->page grows (NULL:
                              written whole at its end) */
    struct pb_buf *h;      /* where the primitives write: html or page */
    int inline_charts;     /* charts as <svg> in the page, not files */
    const char *title, *version, *timestamp; /* for the test pages */
    struct rp_dir *out; /* the report folder being written */
    int png;
    struct rp_pdf *pdf;
    struct rc_fonts *f;
    int has_iolat;       /* an IOPS against latency section */
    int has_ts;          /* an Over time section (fio logs) */
    struct rp_csv *data; /* the next chart's data (rp_out_chart_data) */
    struct rp_lat *lat;  /* latency distributions (latency.c); NULL: none */
    size_t nchart;
    struct pb_render_summary sum;
    struct pb_err *err;
    int rc;
    char here[24];  /* the page being written: "" = index.html */
    char home[24];  /* the section page being written ("sweeps.html"),
                       where here returns after a test page; "" = index */
    int split;      /* a large report: index.html holds the summary, the
                       top of the best table and links; the other
                       sections are pages of their own (report.c) */
    struct rp_file *index_main; /* index.html while a section page is
                                   o->index */
    size_t npaged;  /* tables paged so far (table_pages.c) */
    int raw_whole;  /* results.csv/json are written (rp_results_whole) */
};

/* ==== the pages around the sections (page.c) ==== */

/* index.html's head into o->html: doctype, style, title, the line of
 * counts and filters, the tiles and the link to results.csv; up to the
 * contents list (the driver's, report.c). */
void rp_index_head(struct rp_out *o, const struct rp_data *d,
                   const struct pb_render_opts *opts, const char *title);
/* index.html's footer and script into o->html; has_pages: tests went on
 * pages of their own. */
void rp_index_foot(struct rp_out *o, int has_pages);
/* A section page of a split report (stem.html): o->index and o->html
 * write it until rp_section_page_end, which finishes it and returns to
 * index.html; what: its title line. PB_OK or PB_EIO (o->rc set). */
int rp_section_page_begin(struct rp_out *o, const char *stem,
                          const char *what) PB_WUR;
void rp_section_page_end(struct rp_out *o);
/* Where the tests' sections are ("tests.html" in a split report, "" on
 * index.html): the page of links "#t-N" to a test not on a test page. */
const char *rp_tests_at(const struct rp_out *o);

/* ==== report_overview.c ==== */

/* Title of metric m of d for headings ("read IOPS"). */
const char *rp_group_metric_title(const struct rp_data *d, size_t m, char *buf,
                                  size_t n);
/* "rw=randread · bs=4k" of params (malloc'd; caller frees). */
char *rp_params_text(const struct rp_kv *kv, size_t n);
/* % of the best, direction-aware (best = 100). */
double rp_pct_of_best(double v, double best, int dir);
/* The value cells of c (a cell of d: value ± SE, spread marks) from
 * column at. */
void rp_value_cells(struct rt_table *t, struct rt_cell *row, size_t at,
                    const struct rp_data *d, const struct rp_unit *u,
                    const struct rp_cell *c);
const char *rp_default_title(const struct rp_data *d, struct pb_arena *a);
void rp_section_configs(struct rp_out *o, const struct rp_data *d);
struct pb_an_samps;
/* ss: the stored repeats of best and runner-up cells
 * (rp_best_samples_load); may be NULL. */
/* Rows of the best table index.html of a split report shows. */
#define RP_INDEX_BEST 25
void rp_section_best(struct rp_out *o, const struct rp_data *d,
                     const struct test_plan *pl, const struct pb_an_samps *ss);
void rp_section_ranking(struct rp_out *o, const struct rp_data *d,
                        const struct rp_ranking *r);
void rp_section_sweeps(struct rp_out *o, const struct rp_data *d,
                       const struct rp_sweeps *sws);

/* ==== report_tests.c ==== */

/* Does the group get its own chart, or is it drawn in a sweep? */
int rp_group_charted(const struct rp_data *d, const struct rp_group *g);
/* Mark tests whose charts would have one bar each (rp_test.single). */
void rp_mark_single(struct rp_data *d);
/* Which test sections go on which page (lat: the latency charts drawn in
 * them, NULL none); release with rp_plan_release. */
void rp_plan_tests(const struct rp_data *d, const struct rp_lat *lat,
                   struct test_plan *pl);
void rp_plan_release(struct test_plan *pl);
void rp_section_tests(struct rp_out *o, const struct rp_data *d,
                      const struct test_plan *pl);

/* ==== report.c ==== */

/* Start and end test page `page` (1-based): o's primitives write there. */
void rp_test_page_begin(struct rp_out *o, const struct rp_data *d,
                        const struct test_plan *pl, size_t page);
void rp_test_page_end(struct rp_out *o, const struct test_plan *pl,
                      size_t page);

#endif
