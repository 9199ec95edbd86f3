/* poolbench ingest: parse result files and store them, one transaction per
 * source. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
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
    "                        [--rules FILE] [--dump] PATH...\n"
    "\n"
    "Load benchmark output into the database. PATH is a file, a directory\n"
    "(walked recursively, hidden files skipped) or - for standard input.\n"
    "Formats are recognised from the content; the same file ingested twice\n"
    "changes nothing.\n"
    "\n"
    "  --db FILE         database (default $POOLBENCH_DB, else ./poolbench.db)\n"
    "  --format FMT      do not sniff; parse every input as FMT\n"
    "  --label TEXT      name of the configuration under test (default: from\n"
    "                    the file, e.g. the fio job name)\n"
    "  --label-from file|dir|title\n"
    "                    the label is the file's base name without extension,\n"
    "                    its folder's name or the note's title line; label\n"
    "                    rules read dimensions from it (a folder\n"
    "                    ashift12-recordsize8k/ gives ashift=12,\n"
    "                    recordsize=8192)\n"
    "  --set KEY=VALUE   add a configuration dimension, e.g. recordsize=128k,\n"
    "                    compression=lz4 (sizes are stored in bytes); wins\n"
    "                    over dimensions found in labels\n"
    "  --rules FILE      extra label rules, lines of `key = PCRE2 pattern with\n"
    "                    one capture group`; they add to or replace the\n"
    "                    built-in rules (ashift, recordsize, layout, ...)\n"
    "  --dump            print what would be stored; do not open the database\n"
    "  -j, --threads N   parse on N threads (default: all cores)\n"
    "  -q, --quiet       print only errors and the summary\n"
    "  -h, --help        show this help\n"
    "\n"
    "Pasted zpool/zfs/hdparm commands in text inputs become configuration\n"
    "dimensions; a generic job name (fio, test, job1, task_0, iozone, ...)\n"
    "gives way to a note's title line, or is qualified by host or file and\n"
    "tool version; a warning names a generic configuration that 3 or more\n"
    "sources fell into (docs/experiment-context.md).\n"
    "\n"
    "Exit status: 0 all inputs stored or already present, 1 some inputs\n"
    "rejected (the rest were stored), 2 usage error, 3 database error.\n";

struct ingest_ctx {
    struct pb_db *db;
    int dump, quiet, tty;
    int fatal;
    struct pb_err fatal_err;
    size_t stored, dups, rejected, results, seen;
    double last_progress;
    size_t batch_n;    /* sources in the open transaction */
    double batch_t0;   /* when it was opened */
    struct collapse *coll; /* sources per configuration with a generic name */
    size_t ncoll, capcoll;
    size_t *collix; /* hash of coll: index + 1, 0 = free */
    size_t capix;   /* power of two */
};

/* ==== sources collapsing into one generically named configuration ==== */

struct collapse {
    char *label, *sig;
    size_t sources;
};

static int cmp_kv_key(const void *a, const void *b)
{
    return strcmp(((const struct pb_kv *)a)->key,
                  ((const struct pb_kv *)b)->key);
}

static size_t coll_hash(const char *label, const char *sig)
{
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (const char *p = label; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    h = (h ^ 0x1f) * 1099511628211u;
    for (const char *p = sig; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    return h;
}

static void count_generic(struct ingest_ctx *c, const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nconfigs; i++) {
        const struct pb_config *cf = &set->configs[i];
        if (!pb_ingest_generic_label(cf->label))
            continue;
        struct pb_kv *kv = pb_xcalloc(cf->nparams + 1, sizeof(*kv));
        if (cf->nparams)
            memcpy(kv, cf->params, cf->nparams * sizeof(*kv));
        qsort(kv, cf->nparams, sizeof(*kv), cmp_kv_key);
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_puts(&b, "");
        for (size_t k = 0; k < cf->nparams; k++)
            pb_buf_printf(&b, "%s=%s, ", kv[k].key, kv[k].value);
        free(kv);
        if ((c->ncoll + 1) * 2 > c->capix) { /* grow and rehash */
            free(c->collix);
            c->capix = c->capix ? c->capix * 2 : 64;
            c->collix = pb_xcalloc(c->capix, sizeof(*c->collix));
            for (size_t i2 = 0; i2 < c->ncoll; i2++) {
                size_t h = coll_hash(c->coll[i2].label, c->coll[i2].sig) &
                           (c->capix - 1);
                while (c->collix[h])
                    h = (h + 1) & (c->capix - 1);
                c->collix[h] = i2 + 1;
            }
        }
        const char *sig = pb_buf_str(&b);
        size_t h = coll_hash(cf->label, sig) & (c->capix - 1);
        while (c->collix[h] &&
               (strcmp(c->coll[c->collix[h] - 1].label, cf->label) ||
                strcmp(c->coll[c->collix[h] - 1].sig, sig)))
            h = (h + 1) & (c->capix - 1);
        if (!c->collix[h]) {
            PB_GROW(c->coll, c->capcoll, c->ncoll + 1);
            c->coll[c->ncoll].label = pb_xstrdup(cf->label);
            c->coll[c->ncoll].sig = pb_buf_take(&b);
            c->coll[c->ncoll].sources = 0;
            c->collix[h] = ++c->ncoll;
        }
        pb_buf_release(&b);
        c->coll[c->collix[h] - 1].sources++;
    }
}

static void warn_collapsed(struct ingest_ctx *c)
{
    for (size_t k = 0; k < c->ncoll; k++) {
        if (c->coll[k].sources >= 3)
            fprintf(stderr,
                    "poolbench: warning: %zu sources are one configuration "
                    "'%s' with a generic name; if they are different setups, "
                    "name them with --label, --label-from file|dir|title or "
                    "--set KEY=VALUE\n",
                    c->coll[k].sources, c->coll[k].label);
        free(c->coll[k].label);
        free(c->coll[k].sig);
    }
    free(c->coll);
    free(c->collix);
    c->coll = NULL;
    c->collix = NULL;
    c->ncoll = c->capcoll = c->capix = 0;
}

static double now_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int on_file(void *vctx, const char *path, struct pb_resultset *set,
                   const struct pb_err *err)
{
    struct ingest_ctx *c = vctx;
    c->seen++;
    if (c->fatal)
        return 0;
    if (c->tty && !c->quiet) {
        /* A progress line at most ten times a second. */
        double t = now_s();
        if (t - c->last_progress >= 0.1) {
            fprintf(stderr, "\r\033[Kingest: %zu files, %zu results...",
                    c->seen, c->results);
            c->last_progress = t;
        }
    }
    if (!set) {
        if (c->tty && !c->quiet)
            fputs("\r\033[K", stderr);
        pb_err_print(err, stderr);
        if (err->code == PB_EUSAGE) {
            c->fatal = 1;
            c->fatal_err = *err;
        } else {
            c->rejected++;
        }
        return 0;
    }
    if (c->dump) {
        count_generic(c, set);
        printf("# %s\n", path);
        pb_resultset_dump(set, stdout);
        c->stored++;
        c->results += set->nresults;
        return 0;
    }
    struct pb_err e = {0};
    size_t n = 0;
    /* Many sources share one commit (each still atomic, see
     * pb_db_begin): at most 256 of them or a quarter of a second, so a
     * concurrent writer waits briefly and a crash loses little. */
    if (c->batch_n == 0) {
        if (pb_db_begin(c->db, &e) != PB_OK) {
            c->fatal = 1;
            c->fatal_err = e;
            return 0;
        }
        c->batch_t0 = now_s();
    }
    int rc = pb_db_store(c->db, set, &n, &e);
    c->batch_n++;
    if (rc != PB_EDB && (c->batch_n >= 256 || now_s() - c->batch_t0 >= 0.25)) {
        c->batch_n = 0;
        if (pb_db_commit(c->db, &e) != PB_OK)
            rc = PB_EDB;
    }
    if (c->tty && !c->quiet)
        fputs("\r\033[K", stderr);
    if (rc == PB_EDUP) {
        c->dups++;
        if (!c->quiet)
            printf("skip %s: already in the database (same SHA-256)\n", path);
    } else if (rc != PB_OK) {
        c->fatal = 1;
        c->fatal_err = e;
    } else {
        count_generic(c, set);
        c->stored++;
        c->results += n;
        if (!c->quiet)
            printf("ok   %s: %s, %zu results\n", path, set->format, n);
    }
    return 0;
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
        {"threads", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dbpath = pb_db_default_path(), *rules_path = NULL;
    struct pb_label_rules *rules = NULL;
    struct pb_ingest_opts io = {0};
    struct ingest_ctx ctx = {0};
    size_t capset = 0;
    int status = 0, ch;
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
        case 'r':
            rules_path = optarg;
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
        case 'h':
            fputs(usage_text, stdout);
            goto out;
        default:
            status = cli_usage_error("ingest", "bad option");
            goto out;
        }
    }
    if (optind >= argc) {
        status = cli_usage_error("ingest", "no PATH given");
        goto out;
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
    ctx.tty = isatty(2);
    if (pb_ingest_walk((const char *const *)argv + optind,
                       (size_t)(argc - optind), &io, on_file, &ctx) != PB_OK)
        ctx.rejected++;
    if (ctx.tty && !ctx.quiet)
        fputs("\r\033[K", stderr);
    warn_collapsed(&ctx);
    if (ctx.db && !ctx.fatal) {
        struct pb_err err = {0};
        if (pb_db_commit(ctx.db, &err) != PB_OK) {
            ctx.fatal = 1;
            ctx.fatal_err = err;
        }
    }
    if (ctx.fatal) {
        status = cli_fail(&ctx.fatal_err);
        goto out;
    }
    if (!ctx.dump)
        fprintf(stderr,
                "poolbench: %zu stored (%zu results), %zu already present, "
                "%zu rejected\n",
                ctx.stored, ctx.results, ctx.dups, ctx.rejected);
    status = ctx.rejected ? 1 : 0;
out:
    warn_collapsed(&ctx);
    pb_db_close(ctx.db);
    pb_label_rules_free(rules);
    for (size_t i = 0; i < io.nset; i++) {
        free((char *)io.set[i].key);
        free((char *)io.set[i].value);
    }
    free(io.set);
    return status;
}
