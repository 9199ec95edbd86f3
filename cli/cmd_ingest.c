/* poolbench ingest: parse result files and store them, one transaction per
 * source. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/config.h"
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
    "                        [--replace] PATH...\n"
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

/* A source stored in the open transaction: reported "ok" only once that
 * transaction is committed (durable), never before. */
struct pending {
    char *path;
    char *format;
    size_t n;
};

struct ingest_ctx {
    struct pb_db *db;
    int dump, quiet, tty, strict;
    int skip_unknown; /* files of no supported format are skipped */
    int replace;      /* --replace: a known file's old source goes */
    size_t unknown;   /* ... and counted */
    int fatal;
    struct pb_err fatal_err;
    size_t stored, dups, rejected, results, seen;
    double last_progress;
    size_t batch_n;    /* sources in the open transaction */
    double batch_t0;   /* when it was opened */
    struct pending *pend; /* sources of the open transaction */
    size_t npend, cappend;
    struct collapse *coll; /* sources per configuration with a generic name */
    size_t ncoll, capcoll;
    size_t *collix; /* hash of coll: index + 1, 0 = free */
    size_t capix;   /* power of two */
    struct pb_db_merge *merge; /* sources come from this database */
    int db_refused; /* an input was an SQLite file not merged: exit 3 */
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

/* The open transaction was committed (ok = 1) or lost (ok = 0): count and
 * report its sources. */
static void settle(struct ingest_ctx *c, int ok)
{
    for (size_t i = 0; i < c->npend; i++) {
        struct pending *p = &c->pend[i];
        if (ok) {
            c->stored++;
            c->results += p->n;
            if (!c->quiet) {
                fputs("ok   ", stdout);
                pb_fput_term(p->path, stdout);
                printf(": %s, %zu results\n", p->format, p->n);
            }
        }
        free(p->path);
        free(p->format);
    }
    c->npend = 0;
}

static int commit(struct ingest_ctx *c, struct pb_err *e)
{
    c->batch_n = 0;
    int rc = pb_db_commit(c->db, e);
    settle(c, rc == PB_OK);
    return rc;
}

/* What a parser skipped but still stored the rest of (fact skipped_lines,
 * e.g. the df output inside a combined ZFS log) is said on stderr. */
static void warn_skipped(const struct ingest_ctx *c, const char *path,
                         const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nfacts && !c->quiet; i++)
        if (!set->facts[i].host &&
            !strcmp(set->facts[i].key, "skipped_lines"))
            fprintf(stderr, "poolbench: warning: %s: skipped lines %s\n",
                    path, set->facts[i].value);
}

/* --strict: an error for a set that records an interrupted run, whose
 * fact value is "line L: WHAT". */
static int strict_refuse(const struct pb_resultset *set, struct pb_err *e)
{
    for (size_t i = 0; i < set->nfacts; i++) {
        const struct pb_fact *f = &set->facts[i];
        if (strcmp(f->key, "flag.interrupted") != 0)
            continue;
        long line = 0;
        const char *what = f->value;
        if (!strncmp(what, "line ", 5)) {
            char *end;
            line = strtol(what + 5, &end, 10);
            if (end[0] == ':' && end[1] == ' ')
                what = end + 2;
            else
                line = 0;
        }
        pb_err_set(e, PB_EINPUT, set->path, line, 0, "interrupted run (%s)",
                   what);
        return 1;
    }
    return 0;
}

struct stream_ctx {
    struct ingest_ctx *c;
    struct pb_db_stream *st;
};

static int store_part(void *vctx, const struct pb_resultset *part,
                      struct pb_err *e)
{
    struct stream_ctx *s = vctx;
    if (s->c->strict && strict_refuse(part, e))
        return PB_EINPUT;
    return pb_db_stream_part(s->st, part, e);
}

/* A streamed source (pb_ingest_streaming): parsed here and stored part by
 * part, still atomic (docs/design.md, "Streaming ingest"). PB_OK,
 * PB_EDUP, PB_EDB, or the input's error (nothing of it stored). */
static int store_streamed(struct ingest_ctx *c, struct pb_resultset *set,
                          size_t *n, struct pb_err *e)
{
    struct pb_db_stream *st = NULL;
    int rc = pb_db_stream_open(c->db, set, &st, e);
    if (rc)
        return rc;
    struct stream_ctx s = {c, st};
    rc = pb_ingest_stream_run(set, store_part, &s, e);
    if (!rc && c->strict && strict_refuse(set, e))
        rc = PB_EINPUT;
    if (rc) {
        struct pb_err ignored = {0};
        if (pb_db_stream_close(st, NULL, 0, NULL, &ignored) != PB_OK &&
            ignored.code)
            return PB_EDB; /* could not even roll back */
        return rc;
    }
    return pb_db_stream_close(st, set, 1, n, e);
}

/* pb_db_store, or for a source of a merged database pb_db_merge_store
 * (which brings its samples along), or a streamed source in parts. */
static int store_one(struct ingest_ctx *c, struct pb_resultset *set,
                     size_t *n, struct pb_err *e)
{
    if (pb_ingest_streaming(set))
        return store_streamed(c, set, n, e);
    return c->merge ? pb_db_merge_store(c->db, c->merge, set, n, e)
                    : pb_db_store(c->db, set, n, e);
}

/* ingest --replace: the sources of these bytes or this path are removed
 * and set stored in one transaction of its own (the batch so far is
 * committed first). PB_OK with the batch open again, or the error (nothing
 * of this file changed). */
static int replace_store(struct ingest_ctx *c, struct pb_resultset *set,
                         size_t *n, struct pb_err *e)
{
    struct pb_db_select sel = {0};
    sel.source = set->path;
    sel.sha256 = set->sha256;
    long long *ids = NULL;
    size_t nids = 0;
    int rc = commit(c, e);
    if (!rc)
        rc = pb_db_begin(c->db, e);
    if (!rc)
        rc = pb_db_select_sources(c->db, &sel, &ids, &nids, e);
    for (size_t i = 0; i < nids && !rc; i++)
        rc = pb_db_forget_source(c->db, ids[i], e);
    if (!rc && nids)
        rc = pb_db_prune(c->db, e);
    if (!rc)
        rc = store_one(c, set, n, e);
    if (rc) {
        pb_db_rollback(c->db);
        free(ids);
        c->batch_n = 0;
        return rc == PB_EDUP ? PB_EDB : rc;
    }
    rc = pb_db_commit(c->db, e);
    if (!rc && !c->quiet)
        for (size_t i = 0; i < nids; i++)
            printf("drop source %lld: replaced by %s\n", ids[i], set->path);
    free(ids);
    if (!rc)
        rc = pb_db_begin(c->db, e);
    return rc;
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
            fprintf(stderr, "\r\033[Kingest: %zu files, %zu stored...",
                    c->seen, c->stored + c->npend);
            c->last_progress = t;
        }
    }
    if (!set) {
        if (c->tty && !c->quiet)
            fputs("\r\033[K", stderr);
        if (!c->merge && pb_db_merge_sniff(path)) {
            /* another database: its sources, as if each were a file */
            struct pb_err e = {0};
            c->seen--;
            if (cli_ingest_db(path, c->quiet, on_file, c, &c->merge, &e) ==
                    PB_EFORMAT && c->skip_unknown) {
                c->unknown++;
                if (!c->quiet) {
                    fputs("skip ", stdout);
                    pb_fput_term(path, stdout);
                    fputs(": SQLite file of another program\n", stdout);
                }
            } else if (e.code) {
                pb_err_print(&e, stderr);
                c->db_refused = 1;
                c->rejected++;
            }
            return 0;
        }
        if (err->code == PB_EFORMAT && c->skip_unknown) {
            c->unknown++;
            if (!c->quiet) {
                fputs("skip ", stdout);
                pb_fput_term(path, stdout);
                fputs(": ", stdout);
                pb_fput_term(err->msg, stdout);
                fputc('\n', stdout);
            }
            return 0;
        }
        pb_err_print(err, stderr);
        if (err->code == PB_EUSAGE) {
            c->fatal = 1;
            c->fatal_err = *err;
        } else {
            c->rejected++;
        }
        return 0;
    }
    struct pb_err refused = {0};
    if (c->strict && strict_refuse(set, &refused)) {
        if (c->tty && !c->quiet)
            fputs("\r\033[K", stderr);
        pb_err_print(&refused, stderr);
        c->rejected++;
        return 0;
    }
    if (c->tty && !c->quiet)
        fputs("\r\033[K", stderr);
    warn_skipped(c, path, set);
    if (c->dump) {
        count_generic(c, set);
        fputs("# ", stdout);
        pb_fput_term(path, stdout);
        fputc('\n', stdout);
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
    int rc;
    int streamed = pb_ingest_streaming(set);
    if (c->replace) {
        rc = replace_store(c, set, &n, &e);
        if (rc == PB_OK || streamed) /* a stream is parsed only once */
            goto stored;
    }
    rc = store_one(c, set, &n, &e);
stored:
    c->batch_n++;
    if (c->tty && !c->quiet)
        fputs("\r\033[K", stderr);
    if (rc == PB_EDUP) {
        c->dups++;
        if (!c->quiet) {
            fputs("skip ", stdout);
            pb_fput_term(path, stdout);
            fputs(": already in the database (same SHA-256)\n", stdout);
        }
    } else if (rc == PB_OK) {
        count_generic(c, set);
        PB_GROW(c->pend, c->cappend, c->npend + 1);
        c->pend[c->npend].path = pb_xstrdup(path);
        c->pend[c->npend].format = pb_xstrdup(set->format);
        c->pend[c->npend].n = n;
        c->npend++;
    }
    if (streamed && (rc == PB_EINPUT || rc == PB_EFORMAT)) {
        /* a streamed source's input was bad: rolled back alone, the
         * batch goes on (as for a file rejected before storing) */
        pb_err_print(&e, stderr);
        c->rejected++;
    } else if (rc != PB_OK && rc != PB_EDUP) {
        /* The failed source was rolled back alone; the sources before it
         * in this transaction are committed if the database still can,
         * and reported by what that commit says. */
        c->fatal = 1;
        c->fatal_err = e;
        struct pb_err ignored = {0};
        if (commit(c, &ignored) != PB_OK)
            settle(c, 0);
    } else if (c->batch_n >= 256 || now_s() - c->batch_t0 >= 0.25) {
        if (commit(c, &e) != PB_OK) {
            c->fatal = 1;
            c->fatal_err = e;
        }
    }
    return 0;
}

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
            on_file(&ctx, sheets[i], sheet_sets[i], NULL);
    }
    ctx.tty = isatty(2);
    io.db_path = ctx.dump ? NULL : dbpath;
    io.stream = !ctx.dump; /* --dump prints whole sets */
    /* run output folders: their databases, not their raw files */
    const char **paths = pb_xcalloc((size_t)(argc - optind) + 1,
                                    sizeof(*paths));
    size_t npaths = 0;
    for (int i = optind; i < argc && !ctx.fatal; i++) {
        if (!cli_is_run_dir(argv[i]))
            paths[npaths++] = argv[i];
        else if (cli_ingest_run_dir(argv[i], io.db_path, ctx.quiet, on_file,
                                    &ctx, &ctx.merge, &ctx.db_refused))
            ctx.rejected++;
    }
    if (npaths && !ctx.fatal &&
        pb_ingest_walk(paths, npaths, &io, on_file, &ctx) != PB_OK)
        ctx.rejected++;
    free(paths);
    if (ctx.tty && !ctx.quiet)
        fputs("\r\033[K", stderr);
    pb_label_rules_warn(rules, stderr); /* rules too expensive on labels */
    warn_collapsed(&ctx);
    if (ctx.db && !ctx.fatal) {
        struct pb_err err = {0};
        if (commit(&ctx, &err) != PB_OK) {
            ctx.fatal = 1;
            ctx.fatal_err = err;
        }
    }
    settle(&ctx, 0); /* after a fatal error: what was not committed */
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
    if (!ctx.dump)
        fputc('\n', stderr);
    if (!ctx.dump && !ctx.quiet)
        for (size_t i = 0; i < nsheets; i++)
            note_unmatched(ctx.db, sheet_sets[i]);
    status = ctx.db_refused ? 3 : ctx.rejected ? 1 : 0;
out:
    warn_collapsed(&ctx);
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
