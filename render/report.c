/* The report: index.html with its sections (overview, best configuration
 * per test, ranking, sweeps, one chart and table per test and metric, the
 * special tables; a large report puts all but the overview on pages of
 * their own), the charts/ folder, and optionally PNGs and a PDF. This
 * file: the driver, pb_render_report, and the contents list; the output
 * primitives are in out.c, the pages around the sections in page.c, the
 * sections in report_overview.c, report_tests.c and the files
 * render_int.h names. */
#define _POSIX_C_SOURCE 200809L
#include "analysis/load.h"
#include "render/report_int.h"
#include "analysis/stream_int.h"

#include <string.h>

/* ==== the sections ==== */

/* What the sections of one report read: the data and what was computed
 * from it before the page began. */
struct rp_report {
    struct rp_out *o;
    struct pb_an *an; /* timeseries and bonnie++ stream rows through it */
    const struct pb_render_opts *opts;
    struct rp_data *d;
    struct rp_sweeps *sws;
    struct rp_ranking *rank;
    struct pb_an_samps *best_samps;
    struct test_plan *plan;
    struct pb_err *err;
};

/* A row of the section table: the page holds its rows in this order,
 * and the contents list links the rows with a title whose has() is true
 * (has NULL: always). emit writes the section when has() is true, or
 * always with RP_SEC_SELF (the section says itself what it shows when it
 * has nothing; it stays on index.html then). The overview draws the
 * configurations and the ranking itself unless the report is split
 * (their rows draw them on pages of their own then). RP_SEC_DB: the
 * section reads the database, so it is skipped once the output failed.
 * RP_SEC_NOCELLS: the section reads no cell of d (its own rows,
 * configurations, sources, facts); the cells are released before the
 * last rows when all of them say so (rp_stream_drop).
 * emit returns PB_OK or the error that ends the report. */
enum { RP_SEC_SELF = 1, RP_SEC_DB = 2, RP_SEC_NOCELLS = 4 };
/* Past this many cells a report is split (docs/report.md, "Pages"). */
#define RP_SPLIT_CELLS 400
struct rp_section {
    const char *id;    /* the HTML id the contents entry links */
    const char *title; /* the contents entry; NULL: none */
    const char *page;  /* in a split report, the stem of the page of its
                          own (rows in a row may share one); NULL: on
                          index.html */
    int (*has)(const struct rp_report *r);
    int (*emit)(struct rp_report *r);
    int flags;
};

static int has_warnings(const struct rp_report *r)
{
    return rp_has_flags(r->d);
}

static int emit_warnings(struct rp_report *r)
{
    rp_section_warnings(r->o, r->d);
    return PB_OK;
}

/* The overview holds the configurations, the best per test and the
 * ranking. */
static int emit_overview(struct rp_report *r)
{
    struct rp_out *o = r->o;
    rp_out_raw(o, "<section id=\"overview\">\n");
    rp_out_heading(o, 2, NULL, "Overview");
    if (!r->d->ncells_total)
        rp_out_para(o, "note",
                    "No results match. Ingest files with 'poolbench ingest' "
                    "or loosen the --test/--config/--metric filters.");
    if (r->d->used_configs && !o->split)
        rp_section_configs(o, r->d);
    rp_section_best(o, r->d, r->plan, r->best_samps);
    if (!o->split)
        rp_section_ranking(o, r->d, r->rank);
    rp_out_raw(o, "</section>\n");
    return PB_OK;
}

/* A split report's configurations and ranking: pages of their own (the
 * overview holds them otherwise). */
static int has_configs(const struct rp_report *r)
{
    return r->o->split && r->d->used_configs;
}

static int emit_configs(struct rp_report *r)
{
    rp_out_raw(r->o, "<section id=\"configs\">\n");
    rp_section_configs(r->o, r->d);
    rp_out_raw(r->o, "</section>\n");
    return PB_OK;
}

static int emit_ranking(struct rp_report *r)
{
    if (r->o->split)
        rp_section_ranking(r->o, r->d, r->rank);
    return PB_OK;
}

static int has_ranking(const struct rp_report *r)
{
    return r->rank->n >= 2 && r->rank->ngroups >= 2;
}

static int has_sweeps(const struct rp_report *r)
{
    return r->sws->n > 0;
}

static int emit_sweeps(struct rp_report *r)
{
    rp_section_sweeps(r->o, r->d, r->sws);
    return PB_OK;
}

static int has_history(const struct rp_report *r)
{
    return rp_has_history(r->d);
}

static int emit_history(struct rp_report *r)
{
    rp_section_history(r->o, r->d);
    return PB_OK;
}

static int has_hosts(const struct rp_report *r)
{
    return rp_has_hosts(r->d);
}

static int emit_hosts(struct rp_report *r)
{
    rp_section_hosts(r->o, r->d);
    return PB_OK;
}

static int has_iolat(const struct rp_report *r)
{
    return r->o->has_iolat;
}

static int emit_iolat(struct rp_report *r)
{
    rp_section_iops_latency(r->o, r->d);
    return PB_OK;
}

static int has_timeseries(const struct rp_report *r)
{
    return r->o->has_ts;
}

static int emit_timeseries(struct rp_report *r)
{
    return rp_section_timeseries(r->o, r->d, r->an, &r->opts->filter,
                                 r->opts->per_job, r->err);
}

static int has_tests(const struct rp_report *r)
{
    const struct rp_data *d = r->d;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (rp_group_charted(d, g) ||
            !rp_metric_in_special(d->metrics[g->metric].name))
            return 1;
    }
    return 0;
}

static int emit_tests(struct rp_report *r)
{
    rp_section_tests(r->o, r->d, r->plan);
    return PB_OK;
}

/* The latency distributions of tests without a section of their own. */
static int emit_latency_rest(struct rp_report *r)
{
    rp_lat_section_rest(r->o, r->d, r->o->lat);
    return PB_OK;
}

static int has_experiment(const struct rp_report *r)
{
    return rp_has_experiment(r->d);
}

static int emit_experiment(struct rp_report *r)
{
    rp_section_experiment(r->o, r->d, rp_dir_path(r->o->out));
    return PB_OK;
}

static int has_compression(const struct rp_report *r)
{
    return rp_has_compression(r->d);
}

static int emit_compression(struct rp_report *r)
{
    rp_section_compression(r->o, r->d);
    return PB_OK;
}

static int has_bonnie(const struct rp_report *r)
{
    return rp_has_bonnie(r->d);
}

static int emit_bonnie(struct rp_report *r)
{
    return rp_section_bonnie(r->o, r->d, r->an, &r->opts->filter, r->err);
}

static int has_systems(const struct rp_report *r)
{
    return rp_has_systems(r->d);
}

static int emit_systems(struct rp_report *r)
{
    rp_section_systems(r->o, r->d);
    return PB_OK;
}

static int emit_sources(struct rp_report *r)
{
    rp_section_sources(r->o, r->d);
    return PB_OK;
}

static const struct rp_section sections[] = {
    {"warnings", "Warnings", NULL, has_warnings, emit_warnings, RP_SEC_SELF},
    {"overview", "Overview", NULL, NULL, emit_overview, 0},
    {"configs", "Configurations", "configs", has_configs, emit_configs, 0},
    {"ranking", "Overall ranking", "ranking", has_ranking, emit_ranking, 0},
    {"sweeps", "Sweeps", "sweeps", has_sweeps, emit_sweeps, RP_SEC_SELF},
    {"history", "History", "history", has_history, emit_history,
     RP_SEC_SELF},
    {"hosts", "Hosts", "hosts", has_hosts, emit_hosts, RP_SEC_SELF},
    {"iops-latency", "IOPS against latency", "iops-latency", has_iolat,
     emit_iolat, RP_SEC_SELF},
    {"over-time", "Over time", "over-time", has_timeseries, emit_timeseries,
     RP_SEC_SELF | RP_SEC_DB},
    {"tests", "Results by test", "tests", has_tests, emit_tests,
     RP_SEC_SELF},
    {"latency", NULL, "tests", NULL, emit_latency_rest, 0},
    {"experiment", "Experiment", "experiment", has_experiment,
     emit_experiment, 0},
    {"compression", "Compression", "compression", has_compression,
     emit_compression, 0},
    {"bonnie", "bonnie++", "bonnie", has_bonnie, emit_bonnie,
     RP_SEC_DB | RP_SEC_NOCELLS},
    {"systems", "Systems", "systems", has_systems, emit_systems,
     RP_SEC_NOCELLS},
    {"sources", "Sources", "sources", NULL, emit_sources, RP_SEC_NOCELLS},
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* has[i] of every row, asked once before the page begins. */
static void sections_has(const struct rp_report *r, int *has)
{
    for (size_t i = 0; i < NSECTIONS; i++)
        has[i] = !sections[i].has || sections[i].has(r);
}

/* The contents list of index.html: the rows with a title, in order. */
static void contents(struct rp_out *o, const int *has)
{
    struct pb_buf *h = &o->html;
    pb_buf_puts(h, "<nav><b>Contents</b><ol>\n");
    for (size_t i = 0; i < NSECTIONS; i++) {
        if (!sections[i].title || !has[i])
            continue;
        if (o->split && sections[i].page)
            pb_buf_printf(h, "<li><a href=\"%s.html\">%s</a></li>\n",
                          sections[i].page, sections[i].title);
        else
            pb_buf_printf(h, "<li><a href=\"#%s\">%s</a></li>\n",
                          sections[i].id, sections[i].title);
    }
    pb_buf_puts(h, "</ol></nav>\n</header>\n");
}

/* Every row's section, in order; PB_OK or the first error of a section
 * that ends the report. */
static int sections_emit(struct rp_report *r, const int *has)
{
    const char *open = NULL; /* the section page being written */
    int rc = PB_OK;
    size_t drop = NSECTIONS; /* the first of the last rows that read no
                                cell */
    while (drop > 0 && (sections[drop - 1].flags & RP_SEC_NOCELLS))
        drop--;
    for (size_t i = 0; i < NSECTIONS && !rc; i++) {
        const struct rp_section *s = &sections[i];
        if (i == drop)
            rp_stream_drop(r->d);
        if (!s->emit || (!has[i] && !(s->flags & RP_SEC_SELF)))
            continue;
        if ((s->flags & RP_SEC_DB) && r->o->rc)
            continue;
        /* a section with nothing to show says so where it stands */
        const char *page = r->o->split && has[i] ? s->page : NULL;
        if (open && (!page || strcmp(page, open))) {
            rp_section_page_end(r->o);
            open = NULL;
        }
        if (page && !open) {
            const char *what = s->title ? s->title : s->id;
            if ((rc = rp_section_page_begin(r->o, page, what)))
                break;
            open = page;
        }
        rc = s->emit(r);
    }
    if (open)
        rp_section_page_end(r->o);
    return rc;
}

void pb_render_an_opts(const struct pb_render_opts *opts,
                       struct pb_an_report_opts *out)
{
    memset(out, 0, sizeof(*out));
    out->filter = &opts->filter;
    out->ignore_params = opts->ignore_params;
    out->x_key = opts->x_key;
    out->series_key = opts->series_key;
    out->palette = opts->palette;
    out->npalette = opts->npalette;
    out->latency_linear = opts->latency_linear;
}

int pb_render_report(struct pb_an_report *rep,
                     const struct pb_render_opts *opts,
                     struct pb_render_summary *out, struct pb_err *err)
{
    struct rp_data *d = &rep->d;
    int rc = PB_OK;
    rp_mark_single(d);
    struct test_plan plan;
    memset(&plan, 0, sizeof(plan)); /* planned with the latency charts */
    struct rp_out o;
    memset(&o, 0, sizeof(o));
    o.h = &o.html;
    o.err = err;
    o.version = opts->version;
    o.timestamp = opts->timestamp;
    o.png = opts->png;
    o.f = rc_fonts_new();
    /* no file of the report replaces the database it reads */
    struct pb_keep keep;
    pb_keep_init(&keep);
    pb_keep_add_db(&keep, pb_an_db_path(rep->an));
    if ((rc = rp_dir_open(opts->outdir ? opts->outdir : "report",
                          opts->force, &keep, &o.out, err)))
        goto done;
    if ((rc = rp_file_open(o.out, "index.html", &o.index, err)))
        goto done;
    if (opts->pdf_path &&
        (rc = rp_pdf_open(opts->pdf_path, &keep, o.f, &o.pdf, err)))
        goto done;

    const char *title = opts->title ? rp_clean(&d->arena, opts->title)
                                    : rp_default_title(d, &d->arena);
    o.title = title;
    o.raw_whole = rp_results_whole(opts, d->nrows);
    o.has_iolat = rp_has_iops_latency(d);
    o.has_ts = rp_has_timeseries(rep->an, &opts->filter);
    o.lat = rep->lat;
    rp_plan_tests(d, o.lat, &plan); /* weighs the latency charts */
    struct rp_report r = {&o,         rep->an,          opts,  d,  &rep->sws,
                          &rep->rank, &rep->best_samps, &plan, err};
    /* a report past RP_SPLIT_CELLS cells (or with test pages) keeps
     * index.html small: the other sections go on pages of their own */
    o.split = plan.npages > 0 || d->ncells_total > RP_SPLIT_CELLS;
    int has[NSECTIONS];
    sections_has(&r, has);
    rp_index_head(&o, d, opts, title);
    contents(&o, has);
    if ((rc = sections_emit(&r, has)))
        goto done;
    rp_index_foot(&o, plan.npages > 0);
    if (!o.rc && (rc = rp_stream_check(d, err)))
        o.rc = rc;
    if (!o.rc && rp_results_whole(opts, d->nrows) &&
        (rc = rp_write_results(rep->an, &opts->filter, o.out, err)))
        o.rc = rc;
    if (!o.rc) {
        rp_file_flush(o.index, &o.html, 0);
        int irc = rp_file_close(o.index, err);
        o.index = NULL;
        if (irc)
            o.rc = irc;
    }
    rc = o.rc;
done:
    if (o.index) { /* a failed report: the stage goes with it; its first
                      error is the one kept */
        int ignored = rp_file_close(o.index, err);
        (void)ignored;
    }
    if (o.pagef) { /* a page left open by a failed report */
        struct pb_err scratch;
        memset(&scratch, 0, sizeof(scratch));
        int ignored = rp_file_close(o.pagef, &scratch);
        (void)ignored;
    }
    rp_out_chart_data(&o, NULL);
    /* The PDF first: a report is switched in only when all of it, PDF
     * included, was written; a failed one leaves the last one whole. */
    if (o.pdf) {
        int prc = rp_pdf_close(o.pdf, !rc, err);
        if (!rc)
            rc = prc;
    }
    if (o.out && !rc)
        rc = rp_dir_commit(o.out, err);
    else
        rp_dir_abort(o.out);
    o.sum.results = d->nrows;
    o.sum.cells = d->ncells_total;
    if (out)
        *out = o.sum;
    rc_fonts_free(o.f);
    pb_buf_release(&o.html);
    pb_buf_release(&o.page);
    rp_plan_release(&plan);
    return rc;
}
