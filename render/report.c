/* The report: index.html with its sections (overview, best configuration
 * per test, ranking, sweeps, one chart and table per test and metric, the
 * special tables), the charts/ folder, and optionally PNGs and a PDF. This
 * file: the driver, pb_render_report, and the contents list; the output
 * primitives are in out.c, the pages around the sections in page.c, the
 * sections in report_overview.c, report_tests.c and the files
 * render_int.h names. */
#define _POSIX_C_SOURCE 200809L
#include "render/report_int.h"
#include "render/stream_int.h"
#include "render/judge_int.h"

#include <string.h>

/* The contents list of index.html, in the order of the sections. */
static void contents(struct rp_out *o, const struct rp_data *d,
                     int has_sweeps, int has_comp, int has_bonnie,
                     int has_sys, int has_rank, int has_tests)
{
    struct pb_buf *h = &o->html;
    pb_buf_puts(h, "<nav><b>Contents</b><ol>\n");
    if (rp_has_flags(d))
        pb_buf_puts(h, "<li><a href=\"#warnings\">Warnings</a></li>\n");
    pb_buf_puts(h, "<li><a href=\"#overview\">Overview</a></li>\n");
    if (has_rank)
        pb_buf_puts(h, "<li><a href=\"#ranking\">Overall ranking</a></li>\n");
    if (has_sweeps)
        pb_buf_puts(h, "<li><a href=\"#sweeps\">Sweeps</a></li>\n");
    if (rp_has_history(d))
        pb_buf_puts(h, "<li><a href=\"#history\">History</a></li>\n");
    if (rp_has_hosts(d))
        pb_buf_puts(h, "<li><a href=\"#hosts\">Hosts</a></li>\n");
    if (o->has_iolat)
        pb_buf_puts(h, "<li><a href=\"#iops-latency\">IOPS against "
                       "latency</a></li>\n");
    if (o->has_ts)
        pb_buf_puts(h, "<li><a href=\"#over-time\">Over time</a></li>\n");
    if (has_tests)
        pb_buf_puts(h, "<li><a href=\"#tests\">Results by test</a></li>\n");
    if (rp_has_experiment(d))
        pb_buf_puts(h, "<li><a href=\"#experiment\">Experiment</a></li>\n");
    if (has_comp)
        pb_buf_puts(h, "<li><a href=\"#compression\">Compression</a></li>\n");
    if (has_bonnie)
        pb_buf_puts(h, "<li><a href=\"#bonnie\">bonnie++</a></li>\n");
    if (has_sys)
        pb_buf_puts(h, "<li><a href=\"#systems\">Systems</a></li>\n");
    pb_buf_puts(h, "<li><a href=\"#sources\">Sources</a></li>\n</ol></nav>\n"
                   "</header>\n");
}

static int any_tests_section(const struct rp_data *d)
{
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (rp_group_charted(d, g) ||
            !rp_metric_in_special(d->metrics[g->metric].name))
            return 1;
    }
    return 0;
}

int pb_render_report(struct pb_db *db, const struct pb_render_opts *opts,
                     struct pb_render_summary *out, struct pb_err *err)
{
    struct rp_data d;
    int rc = rp_data_load_streamed(db, &opts->filter, opts->ignore_params,
                                   &d, err);
    if (rc) {
        rp_data_release(&d);
        return rc;
    }
    if (opts->palette && opts->npalette)
        for (size_t i = 0; i < d.nconfigs; i++)
            if (d.configs[i].used)
                d.configs[i].color =
                    opts->palette[d.configs[i].rank % opts->npalette];
    struct rp_sweeps sws;
    if (out)
        out->why = NULL;
    rc = rp_find_sweeps(&d, opts->x_key, opts->series_key, &sws, err);
    if (rc) {
        if (out && sws.why)
            out->why = pb_xstrdup(sws.why);
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    struct rp_ranking rank;
    rp_rank_configs(&d, &rank);

    rp_mark_single(&d);
    struct rp_history hist;
    struct rp_hosts hosts;
    struct rp_samps best_samps = {0};
    memset(&hosts, 0, sizeof(hosts));
    if ((rc = rp_history_load(db, &opts->filter, &d, &hist, err)) ||
        (rc = rp_hosts_load(db, &opts->filter, &d, &hosts, err)) ||
        (rc = rp_outliers_load(db, &d, err)) ||
        (rc = rp_best_samples_load(db, &d, &best_samps, err))) {
        rp_samps_release(&best_samps);
        rp_hosts_release(&hosts);
        rp_history_release(&hist);
        rp_ranking_release(&rank);
        rp_sweeps_release(&sws);
        rp_data_release(&d);
        return rc;
    }
    d.history = &hist;
    d.hosts = &hosts;
    struct test_plan plan;
    rp_plan_tests(&d, &plan);

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
    pb_keep_add_db(&keep, pb_db_path(db));
    if ((rc = rp_dir_open(opts->outdir ? opts->outdir : "report",
                          opts->force, &keep, &o.out, err)))
        goto done;
    if ((rc = rp_file_open(o.out, "index.html", &o.index, err)))
        goto done;
    if (opts->pdf_path &&
        (rc = rp_pdf_open(opts->pdf_path, &keep, o.f, &o.pdf, err)))
        goto done;

    const char *title = opts->title ? rp_clean(&d.arena, opts->title)
                                    : rp_default_title(&d, &d.arena);
    o.title = title;
    o.raw_whole = rp_results_whole(opts, d.nrows);
    int has_comp = rp_has_compression(&d), has_bonnie = rp_has_bonnie(&d);
    int has_sys = rp_has_systems(&d);
    o.has_iolat = rp_has_iops_latency(&d);
    o.has_ts = rp_has_timeseries(db, &opts->filter);
    o.lat = rp_lat_load(db, &d, &opts->filter, !opts->latency_linear, &rc,
                        err);
    if (rc)
        goto done;
    rp_index_head(&o, &d, opts, title);
    contents(&o, &d, sws.n > 0, has_comp, has_bonnie, has_sys,
             rank.n >= 2 && rank.ngroups >= 2, any_tests_section(&d));

    rp_section_warnings(&o, &d);
    rp_out_raw(&o, "<section id=\"overview\">\n");
    rp_out_heading(&o, 2, NULL, "Overview");
    if (!d.ncells_total)
        rp_out_para(&o, "note",
                    "No results match. Ingest files with 'poolbench ingest' "
                    "or loosen the --test/--config/--metric filters.");
    if (d.used_configs)
        rp_section_configs(&o, &d);
    rp_section_best(&o, &d, &plan, &best_samps);
    rp_section_ranking(&o, &d, &rank);
    rp_out_raw(&o, "</section>\n");
    rp_section_sweeps(&o, &d, &sws);
    rp_section_history(&o, &d);
    rp_section_hosts(&o, &d);
    rp_section_iops_latency(&o, &d);
    if (!o.rc && (rc = rp_section_timeseries(&o, &d, db, &opts->filter,
                                             opts->per_job, err)))
        goto done;
    rp_section_tests(&o, &d, &plan);
    rp_lat_section_rest(&o, &d, o.lat);
    if (rp_has_experiment(&d))
        rp_section_experiment(&o, &d, rp_dir_path(o.out));
    if (has_comp)
        rp_section_compression(&o, &d);
    if (has_bonnie && !o.rc &&
        (rc = rp_section_bonnie(&o, &d, db, &opts->filter, err)))
        goto done;
    if (has_sys)
        rp_section_systems(&o, &d);
    rp_section_sources(&o, &d);

    rp_index_foot(&o, plan.npages > 0);
    if (!o.rc && (rc = rp_stream_check(&d, err)))
        o.rc = rc;
    if (!o.rc && rp_results_whole(opts, d.nrows) &&
        (rc = rp_write_results(db, &opts->filter, o.out, err)))
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
    o.sum.results = d.nrows;
    o.sum.cells = d.ncells_total;
    if (out)
        *out = o.sum;
    rc_fonts_free(o.f);
    rp_lat_free(o.lat);
    pb_buf_release(&o.html);
    pb_buf_release(&o.page);
    rp_plan_release(&plan);
    rp_ranking_release(&rank);
    rp_sweeps_release(&sws);
    rp_history_release(&hist);
    rp_hosts_release(&hosts);
    rp_samps_release(&best_samps);
    rp_data_release(&d);
    return rc;
}
