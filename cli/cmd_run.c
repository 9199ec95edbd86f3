/* poolbench run: run a plan of fio benchmarks on fresh ZFS pools and store
 * the results (or list the commands with --dry-run). */
#include "cli/cli.h"
#include "cli/opt.h"
#include "model/db.h"
#include "render/render.h"
#include "run/run.h"

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PB_VERSION
#define PB_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: poolbench run PLAN.ini [--db FILE] [-o|--output DIR] [-n|--dry-run]\n"
    "                     [--yes] [--resume] [--zfs openzfs|zfs-fuse]\n"
    "                     [--on-failure continue|stop] [--time-scale F]\n"
    "                     [--zfs-timeout SECONDS] [--stall-timeout SECONDS]\n"
    "                     [--allow-exec] [--allow-remote-command]\n"
    "                     [--ssh PROGRAM]\n"
    "       poolbench run --cleanup [RUNID] [-o|--output DIR] [-n|--dry-run]\n"
    "\n"
    "Run the plan's matrix of pool layouts, dataset or zvol properties and\n"
    "fio workloads on pools it creates itself (on sparse files or, with\n"
    "--yes, real devices), and store every cell's results. Each cell gets a\n"
    "fresh dataset, cold caches (page cache dropped, pool exported and\n"
    "imported) and its own raw outputs in DIR/raw/; the run ends with its\n"
    "report in DIR/report/index.html. Needs root.\n"
    "The plan format is described in docs/plan-format.md.\n"
    "\n"
    "  --db FILE      database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  -o, --output DIR\n"
    "                 raw outputs, commands.log and the report\n"
    "                 (default ./run-<plan name>)\n"
    "  -n, --dry-run  print the commands the run would execute, one per line;\n"
    "                 execute none and create nothing\n"
    "  --yes          allow real block devices as vdevs (their contents are\n"
    "                 destroyed; mounted or pooled devices are still refused)\n"
    "  --resume       skip cells whose results are already in the database;\n"
    "                 a cell that failed before runs again, and its new\n"
    "                 results replace the failure record\n"
    "  --zfs IMPL     do not detect the ZFS implementation (openzfs or\n"
    "                 zfs-fuse); decides what is known not to work\n"
    "  --on-failure continue|stop\n"
    "                 what a failed cell does to the run (overrides the\n"
    "                 plan's [plan] on_failure)\n"
    "  --time-scale F scale fio runtimes and sizes, zvol sizes and repeats\n"
    "                 by F (0 < F <= 1) for a smoke run of a long plan\n"
    "  --zfs-timeout SECONDS\n"
    "                 kill a zfs/zpool query that has not finished after\n"
    "                 SECONDS (default 30; create, destroy, export and\n"
    "                 import get ten times that): the cell fails\n"
    "  --stall-timeout SECONDS\n"
    "                 stop fio when it has read or written nothing for\n"
    "                 SECONDS (default 300; 0 = never): the cell fails.\n"
    "                 A full file system under a vdev file stops it after\n"
    "                 10 s: the pool's I/O is suspended, the run stops\n"
    "  --allow-exec   let the plan's [fio] run commands or load code as\n"
    "                 root (exec_prerun, exec_postrun, ioengine=exec,\n"
    "                 external:LIB): read them in --dry-run first; a plan\n"
    "                 cannot allow this itself\n"
    "  --allow-remote-command\n"
    "                 run the plan's [hosts] remote template as written\n"
    "                 (else: ssh, its allow-listed options and {host})\n"
    "  --ssh PROGRAM  the ssh a [hosts] remote template's 'ssh' runs (an\n"
    "                 absolute path; default: ssh on PATH)\n"
    "  --cleanup      instead of running a plan, remove what run RUNID (or\n"
    "                 the runs of -o DIR) left behind: see below\n"
    "  -h, --help     show this help\n"
    "\n"
    "Before anything is created, a preflight checks every pool value,\n"
    "vdev kind, dataset/zvol property and fio option of the plan against\n"
    "what the ZFS and fio in use take ('zfs get', 'zpool get', 'zpool\n"
    "upgrade -v', 'fio --cmdhelp'), and each cell's space against its\n"
    "pool: what they lack is an error at the plan's line (status 2), or\n"
    "with [plan] on_unsupported = skip the cells are recorded as skipped.\n"
    "\n";
static const char usage_text2[] =
    "Pools are created with the user property poolbench:owner=<run id>; the\n"
    "run never exports, destroys or writes to a pool without it, and refuses\n"
    "pool names and vdev files that already exist. Ctrl-C or SIGTERM\n"
    "abandons the cell in progress, destroys the pool, removes the sparse\n"
    "files and keeps the finished cells.\n"
    "\n"
    "A cell that fails (fio killed or failing, zpool or zfs create refused)\n"
    "is recorded as failed with the reason. The plan says what comes next:\n"
    "[plan] on_failure = continue (the default) goes on with the next cell;\n"
    "on_failure = stop ends the run there like Ctrl-C does (pool destroyed,\n"
    "sparse files removed, finished cells kept), names the cell and why it\n"
    "failed and prints the --resume command that goes on from it. Either\n"
    "way a run with a failed cell exits with status 1, its last line\n"
    "saying how many failed and where commands.log is.\n"
    "\n"
    "If ZFS stops answering (the zfs-fuse daemon dies), the cell in progress\n"
    "is recorded as failed, the finished cells are kept and the run stops\n"
    "with status 3, whatever on_failure says. It cannot check its pool's\n"
    "mark then, so it leaves the pool and its sparse files, and prints the\n"
    "command that removes them once ZFS answers again:\n"
    "\n"
    "  poolbench run --cleanup RUNID -o DIR\n"
    "\n"
    "It destroys every pool whose poolbench:owner is RUNID (read back before\n"
    "each destroy; no other pool is touched) and removes the sparse files\n"
    "that DIR/manifest.tsv records for the run, if they are still the files\n"
    "the run made (same inode, birth time, size) and no pool uses them.\n"
    "Without RUNID it cleans every run DIR/manifest.tsv records; without\n"
    "-o the folder is found from the pool's mountpoint (DIR/mnt), else the\n"
    "file vdevs of the destroyed pools are removed. --dry-run prints the\n"
    "commands, runs none.\n"
    "Then 'poolbench run --resume' goes on with the cells not yet stored.\n"
    "\n"
    "With [hosts] (many fio servers), a server that does not answer fails\n"
    "its part of the cell only: the others' results are kept and marked\n"
    "flag.partial, the run goes on and exits with status 1; --resume runs\n"
    "such a cell again on every server.\n"
    "\n"
    "Exit status: 0 every cell ran or was recorded as skipped (cleanup:\n"
    "nothing of the run is left), 1 some cells failed (or some servers'\n"
    "parts of a cell), 2 bad plan or usage\n"
    "(also a plan the ZFS or fio in use cannot run, or whose cells do not\n"
    "fit their pool), 3 a ZFS, root or database problem (cleanup: ZFS does\n"
    "not answer, or something could not be removed), 128+N stopped by\n"
    "signal N.\n";

/* "^(?:label|label...)$" matching the configs of the plan's cells, so that
 * the report shows this plan's results even in a shared database. */
static char *labels_pattern(const struct pb_run_plan *plan)
{
    struct pb_buf re = PB_BUF_INIT, label = PB_BUF_INIT, test = PB_BUF_INIT;
    struct pb_buf prev = PB_BUF_INIT;
    pb_buf_puts(&re, "^(?:");
    size_t n = 0;
    for (size_t i = 0; i < pb_run_plan_ncells(plan); i++) {
        pb_run_plan_describe(plan, i, &label, &test);
        if (n && !strcmp(pb_buf_str(&label), pb_buf_str(&prev)))
            continue;
        pb_buf_reset(&prev);
        pb_buf_puts(&prev, pb_buf_str(&label));
        if (n++)
            pb_buf_putc(&re, '|');
        for (const char *c = pb_buf_str(&label); *c; c++) {
            if (strchr("\\^$.|?*+()[]{}-/#", *c))
                pb_buf_putc(&re, '\\');
            pb_buf_putc(&re, *c);
        }
    }
    pb_buf_puts(&re, ")$");
    pb_buf_release(&label);
    pb_buf_release(&test);
    pb_buf_release(&prev);
    return pb_buf_take(&re);
}

/* The run ends with its report in DIR/report/. */
static int write_report(struct pb_db *db, const struct pb_run_plan *plan,
                        const struct pb_run_summary *sum)
{
    struct pb_render_opts o = {0};
    char *outdir = pb_xasprintf("%s/report", sum->dir);
    char *title = pb_xasprintf("poolbench run: %s", pb_run_plan_name(plan));
    char *re = labels_pattern(plan);
    o.outdir = outdir;
    o.title = title;
    o.version = PB_VERSION;
    o.filter.config_re = re;
    char *note =
        pb_xasprintf("configurations of run %s", pb_run_plan_name(plan));
    o.filter_note = note;
    struct pb_render_summary rs;
    struct pb_err err = {0};
    int rc = cli_report_write(db, &o, &rs, NULL, &err);
    if (rc == PB_OK)
        fprintf(stderr, "poolbench: report in %s/index.html\n", outdir);
    else
        pb_err_print(&err, stderr);
    free(outdir);
    free(title);
    free(note);
    free(re);
    return rc;
}

/* A run id as poolbench makes them (20240102T030405-1234) or a test
 * gives them: no blanks, no slashes, nothing a shell would mangle. */
static int valid_run_id(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || strchr("._:-", *s)))
            return 0;
    return 1;
}

static int run_cleanup(int argc, char **argv, const char *dir, int dry_run)
{
    if (optind + 1 < argc)
        return cli_usage_error("run", "--cleanup takes one RUNID, got '%s' "
                               "too", argv[optind + 1]);
    const char *id = optind < argc ? argv[optind] : NULL;
    if (!id && !dir)
        return cli_usage_error("run", "--cleanup needs the RUNID the run "
                               "printed, or its folder with -o DIR");
    if (id && !valid_run_id(id))
        return cli_usage_error("run", "'%s' is not a run id (like "
                               "20240102T030405-1234; it is in "
                               "DIR/commands.log)", id);
    struct pb_run_cleanup_opts co = {0};
    co.run_id = id;
    co.dir = dir;
    co.dry_run = dry_run;
    co.out = stdout;
    co.progress = stderr;
    struct pb_err err = {0};
    if (pb_run_cleanup(&co, &err) != PB_OK)
        return cli_fail(&err);
    return 0;
}

/* ZFS went away under the run: say exactly how to clean up and go on. */
/* The command that goes on with the cells not stored yet, into *out. */
static void resume_command(const struct pb_run_summary *sum, const char *plan,
                           const char *dbpath, struct pb_buf *out)
{
    const char *argv[] = {"poolbench", "run", "--resume", "--db", dbpath,
                          "-o", sum->dir, plan, NULL};
    pb_run_quote(out, argv);
}

static void gone_hint(const struct pb_run_summary *sum, const char *plan,
                      const char *dbpath)
{
    struct pb_buf clean = PB_BUF_INIT, resume = PB_BUF_INIT;
    pb_run_cleanup_command(sum, &clean);
    resume_command(sum, plan, dbpath, &resume);
    fprintf(stderr,
            "poolbench: once ZFS answers again ('zpool list' works; for "
            "zfs-fuse, start the daemon), remove the pool and the sparse "
            "files of run %s with:\n"
            "    %s\n"
            "poolbench: then go on with the cells not stored yet:\n"
            "    %s\n",
            sum->run_id, pb_buf_str(&clean), pb_buf_str(&resume));
    pb_buf_release(&clean);
    pb_buf_release(&resume);
}

/* A cell failed and the plan said stop: which and why (before the error
 * line), then how to go on (after it). */
static void failed_cell(const struct pb_run_plan *plan,
                        const struct pb_run_summary *sum)
{
    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    pb_run_plan_describe(plan, sum->failed_cell - 1, &label, &test);
    fprintf(stderr, "poolbench: cell %zu/%zu (%s | %s) failed: %s\n",
            sum->failed_cell, sum->cells, pb_buf_str(&label),
            pb_buf_str(&test), sum->failed_why);
    pb_buf_release(&label);
    pb_buf_release(&test);
}

static void stop_hint(const struct pb_run_summary *sum, const char *plan,
                      const char *dbpath)
{
    struct pb_buf resume = PB_BUF_INIT;
    resume_command(sum, plan, dbpath, &resume);
    fprintf(stderr,
            "poolbench: once the cause is fixed, go on with cell %zu and the "
            "cells not stored yet:\n"
            "    %s\n",
            sum->failed_cell, pb_buf_str(&resume));
    pb_buf_release(&resume);
}

/* ==== the options ==== */

/* What the command line asks for (values borrowed from argv). */
struct run_args {
    struct pb_run_opts ro;
    const char *db;
    int dbset, cleanup, stall_set;
    double scale;
};

static int opt_db(const char *cmd, void *args, const char *v)
{
    struct run_args *a = args;
    (void)cmd;
    a->db = v;
    a->dbset = 1;
    return 0;
}

static int opt_zfs(const char *cmd, void *args, const char *v)
{
    struct run_args *a = args;
    if (!strcmp(v, "openzfs"))
        a->ro.impl = PB_RUN_IMPL_OPENZFS;
    else if (!strcmp(v, "zfs-fuse"))
        a->ro.impl = PB_RUN_IMPL_ZFS_FUSE;
    else
        return cli_usage_error(cmd,
                               "--zfs wants openzfs or zfs-fuse, got "
                               "'%s'",
                               v);
    return 0;
}

static int opt_on_failure(const char *cmd, void *args, const char *v)
{
    struct run_args *a = args;
    if (!strcmp(v, "continue"))
        a->ro.on_failure = 1;
    else if (!strcmp(v, "stop"))
        a->ro.on_failure = 2;
    else
        return cli_usage_error(cmd,
                               "--on-failure wants continue or stop, "
                               "got '%s'",
                               v);
    return 0;
}

/* A number of seconds (or a scale) in (0, max], or [0, max] with
 * zero_ok; -1 when it is not. */
static double in_range(const char *v, int zero_ok, double max)
{
    char *end;
    double d = strtod(v, &end);
    int low = zero_ok ? d >= 0 : d > 0;
    return end == v || *end || !low || d > max ? -1 : d;
}

static int opt_time_scale(const char *cmd, void *args, const char *v)
{
    double d = in_range(v, 0, 1);
    if (d < 0)
        return cli_usage_error(cmd,
                               "--time-scale wants a number above 0 "
                               "and at most 1, got '%s'",
                               v);
    ((struct run_args *)args)->scale = d;
    return 0;
}

static int opt_zfs_timeout(const char *cmd, void *args, const char *v)
{
    double d = in_range(v, 0, 86400);
    if (d < 0)
        return cli_usage_error(cmd,
                               "--zfs-timeout wants seconds (above 0), "
                               "got '%s'",
                               v);
    ((struct run_args *)args)->ro.zfs_timeout = d;
    return 0;
}

static int opt_stall_timeout(const char *cmd, void *args, const char *v)
{
    struct run_args *a = args;
    double d = in_range(v, 1, 86400);
    if (d < 0)
        return cli_usage_error(cmd,
                               "--stall-timeout wants seconds (0 = "
                               "never), got '%s'",
                               v);
    a->ro.stall_timeout = d;
    a->stall_set = 1;
    return 0;
}

static int opt_ssh(const char *cmd, void *args, const char *v)
{
    if (v[0] != '/')
        return cli_usage_error(cmd,
                               "--ssh wants an absolute path (the ssh "
                               "to run), got '%s'",
                               v);
    ((struct run_args *)args)->ro.ssh = v;
    return 0;
}

#define A(f) offsetof(struct run_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt run_opts[] = {
    {"db", 0, CLI_OPT_FUNC, 0, opt_db},
    {"output", 'o', CLI_OPT_STR, A(ro.dir), NULL},
    {"dry-run", 'n', CLI_OPT_FLAG, A(ro.dry_run), NULL},
    {"yes", 0, CLI_OPT_FLAG, A(ro.yes), NULL},
    {"resume", 0, CLI_OPT_FLAG, A(ro.resume), NULL},
    {"zfs", 0, CLI_OPT_FUNC, 0, opt_zfs},
    {"cleanup", 0, CLI_OPT_FLAG, A(cleanup), NULL},
    {"on-failure", 0, CLI_OPT_FUNC, 0, opt_on_failure},
    {"time-scale", 0, CLI_OPT_FUNC, 0, opt_time_scale},
    {"zfs-timeout", 0, CLI_OPT_FUNC, 0, opt_zfs_timeout},
    {"stall-timeout", 0, CLI_OPT_FUNC, 0, opt_stall_timeout},
    {"allow-remote-command", 0, CLI_OPT_FLAG, A(ro.allow_remote_command), NULL},
    {"allow-exec", 0, CLI_OPT_FLAG, A(ro.allow_exec), NULL},
    {"ssh", 0, CLI_OPT_FUNC, 0, opt_ssh},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

/* ==== the command ==== */

/* The summary lines after a run and its exit status (rc: what
 * pb_run_execute returned, err its detail); the run's report written. */
static int summary(const struct pb_run_plan *plan, const char *plan_path,
                   const struct run_args *a, struct pb_db *db, int rc,
                   const struct pb_run_summary *s, const struct pb_err *err)
{
    struct pb_run_summary sum = *s;
    const char *dbpath = a->db;
    int dry = a->ro.dry_run, status = 0;
    if (!dry && (rc == PB_OK || sum.done || sum.skipped)) {
        char failed[48] = "", notrun[48] = "";
        if (sum.failed)
            snprintf(failed, sizeof(failed), " (%zu failed)", sum.failed);
        /* every cell accounted for: a run that stopped (a suspended pool,
         * on_failure = stop, ZFS gone) names the cells it did not reach */
        size_t seen = sum.done + sum.skipped + sum.resumed;
        if (sum.cells > seen)
            snprintf(notrun, sizeof(notrun), ", %zu not run",
                     sum.cells - seen);
        fprintf(stderr,
                "poolbench: plan '%s': %zu cells: %zu ran, %zu skipped%s, "
                "%zu already in the database%s; results in %s, raw outputs "
                "and commands.log in %s\n",
                pb_run_plan_name(plan), sum.cells, sum.done, sum.skipped,
                failed, sum.resumed, notrun, dbpath, sum.dir);
    }
    if (rc != PB_OK) {
        if (sum.failed_cell)
            failed_cell(plan, &sum);
        status = cli_fail(err);
        if (sum.failed_cell)
            stop_hint(&sum, plan_path, dbpath);
        if (sum.zfs_gone)
            gone_hint(&sum, plan_path, dbpath);
        if (sum.suspended[0]) {
            fputs("poolbench: ", stderr);
            pb_fput_term(sum.suspended, stderr);
            fputc('\n', stderr);
        }
        if (sum.signal)
            status = 128 + sum.signal;
    }
    if (!dry && !sum.signal && (sum.done || sum.skipped || sum.resumed) &&
        write_report(db, plan, &sum) != PB_OK && status == 0)
        status = 3;
    if (!dry && sum.partial) {
        fprintf(stderr, "poolbench: %zu cell%s kept partial (a server's "
                "part failed; --resume runs them again): ", sum.partial,
                sum.partial == 1 ? "" : "s");
        pb_fput_term(sum.partial_why, stderr);
        fputc('\n', stderr);
        if (status == 0)
            status = 1;
    }
    if (!dry && sum.failed) {
        /* the last line: failed cells are a failed run */
        fprintf(stderr, "poolbench: %zu of %zu cells failed (why: "
                "%s/commands.log and the report)\n", sum.failed, sum.cells,
                sum.dir);
        if (status == 0 || (sum.failed_cell && !sum.zfs_gone &&
                            !sum.signal))
            status = 1;
    }
    return status;
}

/* Plan plan_path loaded, scaled and consented to, the database opened
 * (not for a dry run, unless it resumes from an existing one), the run,
 * its summary. */
static int run_plan(struct run_args *a, const char *plan_path)
{
    struct pb_err err = {0};
    struct pb_run_plan *plan = NULL;
    if (pb_run_plan_load(plan_path, &plan, &err) != PB_OK) {
        pb_err_print(&err, stderr);
        return err.code == PB_EIO ? 3 : 2;
    }
    /* the consent the plan needs from the command line, before the
     * database is opened (or made) */
    if (pb_run_plan_scale(plan, a->scale, &err) != PB_OK ||
        pb_run_consent_check(plan, &a->ro, &err) != PB_OK) {
        pb_run_plan_free(plan);
        return cli_fail(&err);
    }
    struct pb_db *db = NULL;
    if (!a->ro.dry_run || (a->ro.resume && access(a->db, F_OK) == 0)) {
        if (pb_db_open(a->db, a->ro.dry_run, &db, &err) != PB_OK) {
            pb_run_plan_free(plan);
            return cli_fail(&err);
        }
    }
    a->ro.db = db;
    a->ro.out = stdout;
    a->ro.progress = stderr;
    struct pb_run_summary sum;
    int rc = pb_run_execute(plan, &a->ro, &sum, &err);
    int status = summary(plan, plan_path, a, db, rc, &sum, &err);
    pb_db_close(db);
    pb_run_plan_free(plan);
    return status;
}

int cmd_run(int argc, char **argv)
{
    static const char *const help[] = {usage_text, usage_text2, NULL};
    struct run_args a = {0};
    a.db = pb_db_default_path();
    a.scale = 1;
    a.ro.stall_timeout = 300;
    int status;
    if (!cli_opt_parse("run", run_opts, &a, help, argc, argv, &status))
        return status;
    const struct pb_run_opts *ro = &a.ro;
    if (a.cleanup) {
        if (ro->resume || ro->yes || a.dbset || ro->impl || ro->on_failure ||
            a.scale != 1 || ro->zfs_timeout || a.stall_set || ro->allow_exec ||
            ro->allow_remote_command || ro->ssh)
            return cli_usage_error("run", "--cleanup takes only RUNID, -o "
                                          "DIR and --dry-run");
        return run_cleanup(argc, argv, ro->dir, ro->dry_run);
    }
    if (optind >= argc)
        return cli_usage_error("run", "no PLAN given");
    if (optind + 1 < argc)
        return cli_usage_error("run", "one PLAN at a time, got '%s' too",
                               argv[optind + 1]);
    return run_plan(&a, argv[optind]);
}
