/* poolbench ingest: parse result files and store them, one transaction per
 * source. The options, sheets and the walk; storing each source:
 * ingest_store.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/ingest_int.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <ctype.h>
#include <getopt.h>
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
    int rc = pb_sheet_parse(path, buf, len, out, err);
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

int cmd_ingest(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"label", required_argument, NULL, 'l'},
        {"label-from", required_argument, NULL, 'L'},
        {"set", required_argument, NULL, 's'},
        {"dump", no_argument, NULL, 'D'},
        {"rules", required_argument, NULL, 'r'},
        {"configs", required_argument, NULL, 'C'},
        {"columns", required_argument, NULL, 'c'},
        {"threads", required_argument, NULL, 'j'},
        {"table-metric", required_argument, NULL, 'T'},
        {"quiet", no_argument, NULL, 'q'},
        {"follow", no_argument, NULL, 'F'},
        {"skip-unknown", no_argument, NULL, 'U'},
        {"include", required_argument, NULL, 'I'},
        {"exclude", required_argument, NULL, 'X'},
        {"strict", no_argument, NULL, 'S'},
        {"replace", no_argument, NULL, 'R'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dbpath = pb_db_default_path(), *rules_path = NULL;
    struct pb_label_rules *rules = NULL;
    struct pb_ingest_opts io = {0};
    struct ingest_ctx ctx = {0};
    size_t capset = 0, capincl = 0, capexcl = 0, captm = 0;
    const char **tmetrics = NULL;
    const char **incl = NULL, **excl = NULL;
    const char **sheets = NULL;
    size_t nsheets = 0, capsheets = 0;
    struct pb_resultset **sheet_sets = NULL;
    int status = 0, ch;
    rules_path = cli_config()->rules;      /* the config file's defaults; */
    io.label_from = cli_config()->label_from; /* options win */
    optind = 1;
    while ((ch = getopt_long(argc, argv, "hqj:", opts, NULL)) != -1) {
        switch (ch) {
        case 'd':
            dbpath = optarg;
            break;
        case 'f':
            if (!pb_ingest_parser_by_name(optarg)) {
                struct pb_buf names = PB_BUF_INIT;
                for (size_t i = 0; pb_parsers[i]; i++)
                    pb_buf_printf(&names, "%s%s", i ? ", " : "",
                                  pb_parsers[i]->name);
                status = cli_usage_error("ingest", "unknown format '%s' "
                                         "(known: %s)", optarg,
                                         pb_buf_str(&names));
                pb_buf_release(&names);
                goto out;
            }
            io.format = optarg;
            break;
        case 'l':
            io.label = optarg;
            break;
        case 'L':
            if (strcmp(optarg, "file") && strcmp(optarg, "dir") &&
                strcmp(optarg, "title")) {
                status = cli_usage_error("ingest", "--label-from wants "
                                         "file, dir or title, got '%s'",
                                         optarg);
                goto out;
            }
            io.label_from = optarg;
            break;
        case 's':
            PB_GROW(io.set, capset, io.nset + 1);
            if (parse_set(optarg, &io.set[io.nset]) != 0) {
                status = cli_usage_error("ingest", "--set wants KEY=VALUE, "
                                         "got '%s'", optarg);
                goto out;
            }
            io.nset++;
            break;
        case 'D':
            ctx.dump = 1;
            break;
        case 'T': {
            struct pb_err e = {0};
            if (pb_ingest_table_metric_check(optarg, &e) != PB_OK) {
                status = cli_usage_error("ingest", "%s", e.msg);
                goto out;
            }
            PB_GROW(tmetrics, captm, io.ntable_metrics + 1);
            tmetrics[io.ntable_metrics++] = optarg;
            io.table_metrics = tmetrics;
            break;
        }
        case 'r':
            rules_path = optarg;
            break;
        case 'C':
            PB_GROW(sheets, capsheets, nsheets + 1);
            sheets[nsheets++] = optarg;
            break;
        case 'c':
            io.columns = optarg;
            break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 256) {
                status = cli_usage_error("ingest", "--threads wants 1..256");
                goto out;
            }
            io.threads = (int)n;
            break;
        }
        case 'q':
            ctx.quiet = 1;
            break;
        case 'F':
            io.follow = 1;
            break;
        case 'U':
            ctx.skip_unknown = 1;
            break;
        case 'R':
            ctx.replace = 1;
            break;
        case 'I':
            PB_GROW(incl, capincl, io.ninclude + 1);
            incl[io.ninclude++] = optarg;
            io.include = incl;
            break;
        case 'X':
            PB_GROW(excl, capexcl, io.nexclude + 1);
            excl[io.nexclude++] = optarg;
            io.exclude = excl;
            break;
        case 'S':
            ctx.strict = 1;
            break;
        case 'h':
            fputs(usage_text, stdout);
            fputs(usage_text2, stdout);
            goto out;
        default:
            status = cli_bad_option("ingest", "hqj:", opts, argv);
            goto out;
        }
    }
    if (optind >= argc && !nsheets) {
        status = cli_usage_error("ingest", "no PATH given");
        goto out;
    }
    io.companion = io.label != NULL;
    /* every sheet is read before anything is stored: a bad one stops
     * the command (exit 2) with nothing written */
    sheet_sets = pb_xcalloc(nsheets + 1, sizeof(*sheet_sets));
    for (size_t i = 0; i < nsheets; i++) {
        struct pb_err err = {0};
        if (read_sheet(sheets[i], &sheet_sets[i], &err) != PB_OK) {
            pb_err_print(&err, stderr);
            status = 2;
            goto out;
        }
    }
    {
        struct pb_err err = {0};
        if (pb_label_rules_load(rules_path, &rules, &err) != PB_OK) {
            status = cli_fail(&err);
            goto out;
        }
        io.rules = rules;
    }
    if (!ctx.dump) {
        struct pb_err err = {0};
        if (pb_db_open(dbpath, 0, &ctx.db, &err) != PB_OK) {
            status = cli_fail(&err);
            goto out;
        }
    }
    for (size_t i = 0; i < nsheets && !ctx.fatal; i++) {
        if (!ctx.dump)
            replace_sheet(&ctx, sheet_sets[i]);
        if (!ctx.fatal)
            cli_ingest_on_file(&ctx, sheets[i], sheet_sets[i], NULL);
    }
    ctx.tty = isatty(2);
    io.db_path = ctx.dump ? NULL : dbpath;
    io.stream = !ctx.dump; /* --dump prints whole sets */
    /* run output folders: their databases, not their raw files */
    const char **paths =
        pb_xcalloc((size_t)(argc - optind) + 1, sizeof(*paths));
    size_t npaths = 0;
    for (int i = optind; i < argc && !ctx.fatal; i++) {
        if (!cli_is_run_dir(argv[i]))
            paths[npaths++] = argv[i];
        else if (cli_ingest_run_dir(argv[i], io.db_path, ctx.quiet,
                                    cli_ingest_on_file, &ctx, &ctx.merge,
                                    &ctx.db_refused))
            ctx.rejected++;
    }
    if (npaths && !ctx.fatal &&
        pb_ingest_walk(paths, npaths, &io, cli_ingest_on_file, &ctx) != PB_OK)
        ctx.rejected++;
    free(paths);
    if (ctx.tty && !ctx.quiet)
        fputs("\r\033[K", stderr);
    pb_label_rules_warn(rules, stderr); /* rules too expensive on labels */
    cli_ingest_warn_collapsed(&ctx);
    if (ctx.db && !ctx.fatal) {
        struct pb_err err = {0};
        if (cli_ingest_commit(&ctx, &err) != PB_OK) {
            ctx.fatal = 1;
            ctx.fatal_err = err;
        }
    }
    /* after a fatal error: what was not committed */
    cli_ingest_settle(&ctx, 0);
    if (ctx.fatal) {
        status = cli_fail(&ctx.fatal_err);
        if (!ctx.dump)
            fprintf(stderr,
                    "poolbench: %zu stored (%zu results), %zu already "
                    "present, %zu rejected before the error\n",
                    ctx.stored, ctx.results, ctx.dups, ctx.rejected);
        goto out;
    }
    if (!ctx.dump)
        fprintf(stderr,
                "poolbench: %zu stored (%zu results), %zu already present, "
                "%zu rejected",
                ctx.stored, ctx.results, ctx.dups, ctx.rejected);
    if (!ctx.dump && ctx.skip_unknown)
        fprintf(stderr, ", %zu of no supported format skipped", ctx.unknown);
    if (!ctx.dump && ctx.empty)
        fprintf(stderr, ", %zu empty fio log%s skipped", ctx.empty,
                ctx.empty == 1 ? "" : "s");
    if (!ctx.dump)
        fputc('\n', stderr);
    if (!ctx.dump && !ctx.quiet)
        for (size_t i = 0; i < nsheets; i++)
            note_unmatched(ctx.db, sheet_sets[i]);
    status = ctx.db_refused ? 3 : ctx.rejected ? 1 : 0;
out:
    cli_ingest_warn_collapsed(&ctx);
    pb_db_close(ctx.db);
    pb_label_rules_free(rules);
    for (size_t i = 0; i < io.nset; i++) {
        free((char *)io.set[i].key);
        free((char *)io.set[i].value);
    }
    free(io.set);
    free(ctx.pend);
    free(incl);
    free(excl);
    for (size_t i = 0; sheet_sets && i < nsheets; i++)
        pb_resultset_free(sheet_sets[i]);
    free(sheet_sets);
    free(sheets);
    free(tmetrics);
    return status;
}
