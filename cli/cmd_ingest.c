/* poolbench ingest: parse result files and store them, one transaction per
 * source. The options, sheets and the walk; storing each source:
 * ingest_store.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/ingest_int.h"
#include "cli/opt.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <ctype.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: poolbench ingest [--db FILE] [--format FMT] [--label TEXT]\n"
    "                        [--label-from file|dir|title] [--set KEY=VALUE]...\n"
    "                        [--rules FILE] [--dump] [--configs SHEET]...\n"
    "                        [--table-metric SPEC]... [--columns LIST]\n"
    "                        [--skip-unknown] [--include GLOB]...\n"
    "                        [--exclude GLOB]... [--follow] [--strict]\n"
    "                        [--replace] [-j|--threads N] [-q|--quiet]\n"
    "                        PATH...\n"
    "\n"
    "Load benchmark output into the database. PATH is a file, a directory\n"
    "(walked recursively; hidden files, symbolic links to directories and\n"
    "the database itself skipped) or - for standard input.\n"
    "Formats are recognised from the content; the same file ingested twice\n"
    "changes nothing.\n"
    "\n"
    "  --db FILE         database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --format FMT      do not sniff; parse every input as FMT\n"
    "  --label TEXT      name of the configuration under test (default: from\n"
    "                    the file, e.g. the fio job name); zpool status,\n"
    "                    zpool get and zfs get outputs ingested with it\n"
    "                    attach their layout and properties to that label\n"
    "  --label-from file|dir|title\n"
    "                    the label is the file's base name without extension,\n"
    "                    its folder's name or the note's title line; label\n"
    "                    rules read dimensions from it (a folder\n"
    "                    ashift12-recordsize8k/ gives ashift=12,\n"
    "                    recordsize=8192)\n"
    "  --set KEY=VALUE   add a configuration dimension, e.g. recordsize=128k,\n"
    "                    compression=lz4 (sizes are stored in bytes); wins\n"
    "                    over dimensions found in labels\n"
    "  --configs SHEET   CSV or TSV, header `label,<key>,...`, one row per\n"
    "                    label: dimensions of every configuration with that\n"
    "                    label, stored now or later (PATH is then optional);\n"
    "                    a sheet stored again from the same path replaces it\n"
    "  --rules FILE      extra label rules, lines of `key = PCRE2 pattern with\n"
    "                    one capture group`; they add to or replace the\n"
    "                    built-in rules (ashift, recordsize, layout, ...)\n"
    "  --table-metric 'HEADER=METRIC:UNIT:higher|lower'\n"
    "                    keep a table column the table format does not know\n"
    "                    as a named metric, e.g. 'Foo=foo_ops:ops/s:higher'\n"
    "                    (docs/table-format.md)\n";
/* in two parts: one literal would pass C99's 4095-byte minimum */
static const char usage_text2[] =
    "  --columns LIST    the -o columns of ZFS -H output without a header,\n"
    "                    e.g. name,used,lused,ratio (`zfs list -H -o ...`);\n"
    "                    the default columns of zfs/zpool list -H need none\n"
    "  --strict          refuse sources that record an interrupted run (fact\n"
    "                    flag.interrupted, e.g. fio killed by a signal)\n"
    "  --dump            print what would be stored; do not open the database\n"
    "  -j, --threads N   parse on N threads (default: all cores)\n"
    "  --skip-unknown    pass over files of no supported format (notes, job\n"
    "                    files, pictures): listed as skipped, exit 0\n"
    "  --include GLOB    in directories, read only files whose name (or, for\n"
    "                    a GLOB with '/', path below PATH) matches; repeatable\n"
    "  --exclude GLOB    in directories, skip matching files and folders;\n"
    "                    repeatable (e.g. --exclude '*.fio' --exclude raw)\n"
    "  --replace         a file already stored (same bytes, or the same path)\n"
    "                    replaces its old source with everything of it, in\n"
    "                    one transaction: re-ingest with a better --label\n"
    "  --follow          follow symbolic links to directories (each directory\n"
    "                    is still walked once, so link loops end)\n"
    "  -q, --quiet       print only errors and the summary\n"
    "  -h, --help        show this help\n"
    "\n"
    "A PATH that is a poolbench database (another machine's) is merged:\n"
    "its sources, configurations, results, facts and samples, each source\n"
    "skipped when its SHA-256 is stored; the file is only read. The output\n"
    "folder of `poolbench run` is gathered through the database in it.\n"
    "\n"
    "Pasted zpool/zfs/hdparm commands in text inputs become configuration\n"
    "dimensions; a generic job name (fio, test, job1, task_0, iozone, ...)\n"
    "gives way to a note's title line, or is qualified by host or file and\n"
    "tool version; a warning names a generic configuration that 3 or more\n"
    "sources fell into (docs/experiment-context.md).\n"
    "\n"
    "Exit status: 0 all inputs stored or already present, 1 some inputs\n"
    "rejected (the rest were stored), 2 usage error (also a bad sheet:\n"
    "nothing is stored), 3 database error (also an SQLite file that is\n"
    "not a poolbench database: not merged, the other inputs are stored).\n";

static int read_sheet(const char *path, struct pb_resultset **out,
                      struct pb_err *err)
{
    char *buf;
    size_t len;
    *out = NULL;
    if (pb_read_file(path, &buf, &len, err) != PB_OK) {
        err->code = PB_EUSAGE;
        return PB_EUSAGE;
    }
    int rc = pb_ingest_sheet(path, buf, len, out, err);
    free(buf);
    return rc;
}

struct old_sheet {
    const struct pb_resultset *set;
    long long *ids;
    size_t n, cap;
};

static int find_old_sheet(void *vctx, const struct pb_db_source *s)
{
    struct old_sheet *o = vctx;
    if (!strcmp(s->format, "sheet") && !strcmp(s->path, o->set->path) &&
        strcmp(s->sha256, o->set->sha256)) {
        PB_GROW(o->ids, o->cap, o->n + 1);
        o->ids[o->n++] = s->id;
    }
    return 0;
}

/* A sheet stored again from the same path with other content replaces
 * the stored one (its attached dimensions are taken back). */
static void replace_sheet(struct ingest_ctx *c, const struct pb_resultset *set)
{
    struct old_sheet o = {set, NULL, 0, 0};
    struct pb_err e = {0};
    int rc = pb_db_each_source(c->db, find_old_sheet, &o, &e);
    for (size_t i = 0; i < o.n && !rc; i++) {
        rc = pb_db_forget_source(c->db, o.ids[i], &e);
        if (!rc && !c->quiet)
            printf("drop sheet source %lld: replaced by %s\n", o.ids[i],
                   set->path);
    }
    if (rc) {
        c->fatal = 1;
        c->fatal_err = e;
    }
    free(o.ids);
}

struct labels {
    char **v;
    size_t n, cap;
};

static int on_label(void *vctx, const struct pb_db_entity *e)
{
    struct labels *l = vctx;
    PB_GROW(l->v, l->cap, l->n + 1);
    l->v[l->n++] = pb_xstrdup(e->name);
    return 0;
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows of a sheet no stored configuration has the label of (a typo, or
 * results still to come): a note, not an error. */
static void note_unmatched(struct pb_db *db, const struct pb_resultset *set)
{
    struct labels l = {0};
    struct pb_err e = {0};
    if (pb_db_each_config(db, on_label, &l, &e) == PB_OK) {
        if (l.n > 1)
            qsort(l.v, l.n, sizeof(*l.v), cmp_strp);
        size_t missing = 0;
        for (size_t i = 0; i < set->nconfigs; i++) {
            const char *label = set->configs[i].label;
            if (bsearch(&label, l.v, l.n, sizeof(*l.v), cmp_strp))
                continue;
            if (missing++ < 5)
                fprintf(stderr,
                        "poolbench: note: %s: no stored configuration is "
                        "labelled '%s' yet\n",
                        set->path, label);
        }
        if (missing > 5)
            fprintf(stderr, "poolbench: note: %s: %zu more labels without "
                    "configurations\n", set->path, missing - 5);
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.v[i]);
    free(l.v);
}

static int parse_set(const char *arg, struct pb_kv *kv)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return -1;
    for (const char *p = arg; p < eq; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' &&
            *p != '-' && *p != ':')
            return -1;
    kv->key = pb_xstrndup(arg, (size_t)(eq - arg));
    for (char *p = (char *)kv->key; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    kv->value = pb_xstrdup(eq + 1);
    return 0;
}

/* ==== the options ==== */

/* What the command line asks for (values borrowed from argv). */
struct ingest_args {
    const char *db, *format, *label, *label_from, *rules, *columns;
    int dump, quiet, follow, skip_unknown, strict, replace, threads;
    struct cli_strv sheets, include, exclude, table_metrics;
    struct pb_kv *set; /* --set, owned */
    size_t nset, capset;
};

static int opt_format(const char *cmd, void *args, const char *v)
{
    struct ingest_args *a = args;
    if (!pb_ingest_parser_by_name(v)) {
        struct pb_buf names = PB_BUF_INIT;
        for (size_t i = 0; pb_parsers[i]; i++)
            if (!(pb_parsers[i]->flags & PB_PARSER_NO_RESULTS))
                pb_buf_printf(&names, "%s%s", names.len ? ", " : "",
                              pb_parsers[i]->name);
        int status = cli_usage_error(cmd, "unknown format '%s' (known: %s)", v,
                                     pb_buf_str(&names));
        pb_buf_release(&names);
        return status;
    }
    a->format = v;
    return 0;
}

static int opt_label_from(const char *cmd, void *args, const char *v)
{
    if (strcmp(v, "file") && strcmp(v, "dir") && strcmp(v, "title"))
        return cli_usage_error(cmd,
                               "--label-from wants file, dir or title, got "
                               "'%s'",
                               v);
    ((struct ingest_args *)args)->label_from = v;
    return 0;
}

static int opt_set(const char *cmd, void *args, const char *v)
{
    struct ingest_args *a = args;
    PB_GROW(a->set, a->capset, a->nset + 1);
    if (parse_set(v, &a->set[a->nset]) != 0)
        return cli_usage_error(cmd, "--set wants KEY=VALUE, got '%s'", v);
    a->nset++;
    return 0;
}

static int opt_table_metric(const char *cmd, void *args, const char *v)
{
    struct ingest_args *a = args;
    struct pb_err e = {0};
    if (pb_ingest_table_metric_check(v, &e) != PB_OK)
        return cli_usage_error(cmd, "%s", e.msg);
    PB_GROW(a->table_metrics.v, a->table_metrics.cap, a->table_metrics.n + 1);
    a->table_metrics.v[a->table_metrics.n++] = v;
    return 0;
}

static int opt_threads(const char *cmd, void *args, const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 1 || n > 256)
        return cli_usage_error(cmd, "--threads wants 1..256");
    ((struct ingest_args *)args)->threads = (int)n;
    return 0;
}

#define A(f) offsetof(struct ingest_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt ingest_opts[] = {
    {"db", 0, CLI_OPT_STR, A(db), NULL},
    {"format", 0, CLI_OPT_FUNC, 0, opt_format},
    {"label", 0, CLI_OPT_STR, A(label), NULL},
    {"label-from", 0, CLI_OPT_FUNC, 0, opt_label_from},
    {"set", 0, CLI_OPT_FUNC, 0, opt_set},
    {"dump", 0, CLI_OPT_FLAG, A(dump), NULL},
    {"rules", 0, CLI_OPT_STR, A(rules), NULL},
    {"configs", 0, CLI_OPT_LIST, A(sheets), NULL},
    {"columns", 0, CLI_OPT_STR, A(columns), NULL},
    {"threads", 'j', CLI_OPT_FUNC, 0, opt_threads},
    {"table-metric", 0, CLI_OPT_FUNC, 0, opt_table_metric},
    {"quiet", 'q', CLI_OPT_FLAG, A(quiet), NULL},
    {"follow", 0, CLI_OPT_FLAG, A(follow), NULL},
    {"skip-unknown", 0, CLI_OPT_FLAG, A(skip_unknown), NULL},
    {"include", 0, CLI_OPT_LIST, A(include), NULL},
    {"exclude", 0, CLI_OPT_LIST, A(exclude), NULL},
    {"strict", 0, CLI_OPT_FLAG, A(strict), NULL},
    {"replace", 0, CLI_OPT_FLAG, A(replace), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

static void args_release(struct ingest_args *a)
{
    for (size_t i = 0; i < a->nset; i++) {
        free((char *)a->set[i].key);
        free((char *)a->set[i].value);
    }
    free(a->set);
    cli_strv_release(&a->sheets);
    cli_strv_release(&a->include);
    cli_strv_release(&a->exclude);
    cli_strv_release(&a->table_metrics);
}

/* ==== the command ==== */

/* The ingest options of a (pointers into a, which outlives them). */
static void wire(const struct ingest_args *a, struct pb_ingest_opts *io,
                 struct ingest_ctx *ctx)
{
    io->format = a->format;
    io->label = a->label;
    io->label_from = a->label_from;
    io->set = a->set;
    io->nset = a->nset;
    io->columns = a->columns;
    io->threads = a->threads;
    io->follow = a->follow;
    io->include = a->include.v;
    io->ninclude = a->include.n;
    io->exclude = a->exclude.v;
    io->nexclude = a->exclude.n;
    io->table_metrics = a->table_metrics.v;
    io->ntable_metrics = a->table_metrics.n;
    io->companion = a->label != NULL;
    ctx->dump = a->dump;
    ctx->quiet = a->quiet;
    ctx->skip_unknown = a->skip_unknown;
    ctx->strict = a->strict;
    ctx->replace = a->replace;
}

/* Every sheet read (before anything is stored: a bad one stops the
 * command, exit 2, with nothing written), the label rules loaded, the
 * database opened (not for --dump). 0, or the exit status (printed). */
static int open_inputs(const struct ingest_args *a, struct pb_resultset **sets,
                       struct pb_label_rules **rules, struct ingest_ctx *ctx)
{
    for (size_t i = 0; i < a->sheets.n; i++) {
        struct pb_err err = {0};
        if (read_sheet(a->sheets.v[i], &sets[i], &err) != PB_OK) {
            pb_err_print(&err, stderr);
            return 2;
        }
    }
    struct pb_err err = {0};
    if (pb_label_rules_load(a->rules, rules, &err) != PB_OK)
        return cli_fail(&err);
    struct pb_err dberr = {0};
    if (!ctx->dump && pb_db_open(a->db, 0, &ctx->db, &dberr) != PB_OK)
        return cli_fail(&dberr);
    return 0;
}

/* The sheets, then PATH...: run output folders through their databases
 * (not their raw files), the rest walked. */
static void ingest_all(const struct ingest_args *a, struct pb_ingest_opts *io,
                       struct pb_resultset **sheet_sets, struct ingest_ctx *ctx,
                       int npath, char **path)
{
    for (size_t i = 0; i < a->sheets.n && !ctx->fatal; i++) {
        if (!ctx->dump)
            replace_sheet(ctx, sheet_sets[i]);
        if (!ctx->fatal)
            cli_ingest_on_file(ctx, a->sheets.v[i], sheet_sets[i], NULL);
    }
    ctx->tty = isatty(2);
    io->db_path = ctx->dump ? NULL : a->db;
    io->stream = !ctx->dump; /* --dump prints whole sets */
    io->file_time = !ctx->dump; /* --dump prints what the file says */
    const char **paths = pb_xcalloc((size_t)npath + 1, sizeof(*paths));
    size_t npaths = 0;
    for (int i = 0; i < npath && !ctx->fatal; i++) {
        if (!cli_is_run_dir(path[i]))
            paths[npaths++] = path[i];
        else if (cli_ingest_run_dir(path[i], io->db_path, ctx->quiet,
                                    cli_ingest_on_file, ctx, &ctx->merge,
                                    &ctx->db_refused))
            ctx->rejected++;
    }
    if (npaths && !ctx->fatal &&
        pb_ingest_walk(paths, npaths, io, cli_ingest_on_file, ctx) != PB_OK)
        ctx->rejected++;
    free(paths);
}

/* The last commit and the summary line; the exit status. */
static int finish(const struct ingest_args *a, struct pb_label_rules *rules,
                  struct pb_resultset **sheet_sets, struct ingest_ctx *ctx)
{
    if (ctx->tty && !ctx->quiet)
        fputs("\r\033[K", stderr);
    pb_label_rules_warn(rules, stderr); /* rules too expensive on labels */
    cli_ingest_warn_collapsed(ctx);
    if (ctx->db && !ctx->fatal) {
        struct pb_err err = {0};
        if (cli_ingest_commit(ctx, &err) != PB_OK) {
            ctx->fatal = 1;
            ctx->fatal_err = err;
        }
    }
    /* after a fatal error: what was not committed */
    cli_ingest_settle(ctx, 0);
    if (ctx->fatal) {
        int status = cli_fail(&ctx->fatal_err);
        if (!ctx->dump)
            fprintf(stderr,
                    "poolbench: %zu stored (%zu results), %zu already "
                    "present, %zu rejected before the error\n",
                    ctx->stored, ctx->results, ctx->dups, ctx->rejected);
        return status;
    }
    if (!ctx->dump)
        fprintf(stderr,
                "poolbench: %zu stored (%zu results), %zu already present, "
                "%zu rejected",
                ctx->stored, ctx->results, ctx->dups, ctx->rejected);
    if (!ctx->dump && ctx->skip_unknown)
        fprintf(stderr, ", %zu of no supported format skipped", ctx->unknown);
    if (!ctx->dump && ctx->empty)
        fprintf(stderr, ", %zu empty fio log%s skipped", ctx->empty,
                ctx->empty == 1 ? "" : "s");
    if (!ctx->dump)
        fputc('\n', stderr);
    if (!ctx->dump && !ctx->quiet)
        for (size_t i = 0; i < a->sheets.n; i++)
            note_unmatched(ctx->db, sheet_sets[i]);
    return ctx->db_refused ? 3 : ctx->rejected ? 1 : 0;
}

/* The command once its options are parsed: PATH... is path[0..npath). */
static int ingest(const struct ingest_args *a, int npath, char **path)
{
    if (npath <= 0 && !a->sheets.n)
        return cli_usage_error("ingest", "no PATH given");
    struct pb_ingest_opts io = {0};
    struct ingest_ctx ctx = {0};
    struct pb_label_rules *rules = NULL;
    wire(a, &io, &ctx);
    struct pb_resultset **sheet_sets =
        pb_xcalloc(a->sheets.n + 1, sizeof(*sheet_sets));
    int status = open_inputs(a, sheet_sets, &rules, &ctx);
    if (!status) {
        io.rules = rules;
        ingest_all(a, &io, sheet_sets, &ctx, npath, path);
        status = finish(a, rules, sheet_sets, &ctx);
    }
    cli_ingest_warn_collapsed(&ctx);
    pb_db_close(ctx.db);
    pb_label_rules_free(rules);
    free(ctx.pend);
    for (size_t i = 0; i < a->sheets.n; i++)
        pb_resultset_free(sheet_sets[i]);
    free(sheet_sets);
    return status;
}

int cmd_ingest(int argc, char **argv)
{
    static const char *const help[] = {usage_text, usage_text2, NULL};
    struct ingest_args a = {0};
    a.db = pb_db_default_path();
    a.rules = cli_config()->rules;           /* the config file's defaults; */
    a.label_from = cli_config()->label_from; /* options win */
    int status;
    if (cli_opt_parse("ingest", ingest_opts, &a, help, argc, argv, &status))
        status = ingest(&a, argc - optind, argv + optind);
    args_release(&a);
    return status;
}
