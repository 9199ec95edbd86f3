/* poolbench ingest: storing each source as the walk hands it over, one
 * savepoint per source in batched transactions (256 sources or 0.25 s),
 * streamed sources part by part, --replace and --strict, the progress
 * line, and "ok" printed only once the batch is committed (durable);
 * warnings about sources collapsing into one generic configuration. The
 * command and its options: cmd_ingest.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/ingest_int.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

void cli_ingest_warn_collapsed(struct ingest_ctx *c)
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
void cli_ingest_settle(struct ingest_ctx *c, int ok)
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

int cli_ingest_commit(struct ingest_ctx *c, struct pb_err *e)
{
    c->batch_n = 0;
    int rc = pb_db_commit(c->db, e);
    cli_ingest_settle(c, rc == PB_OK);
    return rc;
}

/* What a parser skipped but still stored the rest of (fact skipped_lines,
 * e.g. the df output inside a combined ZFS log) is said on stderr. */
static void warn_skipped(const struct ingest_ctx *c, const char *path,
                         const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nfacts && !c->quiet; i++)
        if (!set->facts[i].host &&
            !strcmp(set->facts[i].key, "skipped_lines") &&
            strcmp(set->facts[i].value, "0")) /* a table's count */
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
 * part, still atomic (docs/performance.md, "Streaming ingest"). PB_OK,
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
    int rc = cli_ingest_commit(c, e);
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

/* "skip PATH: WHY" on standard output, unless --quiet. */
static void say_skip(const struct ingest_ctx *c, const char *path,
                     const char *why)
{
    if (c->quiet)
        return;
    fputs("skip ", stdout);
    pb_fput_term(path, stdout);
    fputs(": ", stdout);
    pb_fput_term(why, stdout);
    fputc('\n', stdout);
}

/* A file that gave no set: another database (its sources ingested as
 * files), a note for one that holds nothing or (--skip-unknown) is of no
 * known format, else the error: a usage error stops the command. */
static void on_no_set(struct ingest_ctx *c, const char *path,
                      const struct pb_err *err)
{
    if (c->tty && !c->quiet)
        fputs("\r\033[K", stderr);
    if (!c->merge && pb_db_merge_sniff(path)) {
        /* another database: its sources, as if each were a file */
        struct pb_err e = {0};
        c->seen--;
        if (cli_ingest_db(path, c->quiet, cli_ingest_on_file, c, &c->merge,
                          &e) == PB_EFORMAT &&
            c->skip_unknown) {
            c->unknown++;
            say_skip(c, path, "SQLite file of another program");
        } else if (e.code) {
            pb_err_print(&e, stderr);
            c->db_refused = 1;
            c->rejected++;
        }
        return;
    }
    if (err->code == PB_ESKIP) {
        /* holds nothing by design (an empty fio log): a note */
        c->empty++;
        say_skip(c, path, err->msg);
        return;
    }
    if (err->code == PB_EFORMAT && c->skip_unknown) {
        c->unknown++;
        say_skip(c, path, err->msg);
        return;
    }
    pb_err_print(err, stderr);
    if (err->code == PB_EUSAGE) {
        c->fatal = 1;
        c->fatal_err = *err;
    } else {
        c->rejected++;
    }
}

/* After a set was stored (rc from store_one or replace_store, n its
 * results): said, counted, and the batch committed when it is due; a
 * failure the batch cannot go on after is fatal. */
static void after_store(struct ingest_ctx *c, const char *path,
                        const struct pb_resultset *set, int rc, size_t n,
                        int streamed, struct pb_err *e)
{
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
        pb_err_print(e, stderr);
        c->rejected++;
    } else if (rc != PB_OK && rc != PB_EDUP) {
        /* The failed source was rolled back alone; the sources before it
         * in this transaction are committed if the database still can,
         * and reported by what that commit says. */
        c->fatal = 1;
        c->fatal_err = *e;
        struct pb_err ignored = {0};
        if (cli_ingest_commit(c, &ignored) != PB_OK)
            cli_ingest_settle(c, 0);
    } else if (c->batch_n >= 256 || now_s() - c->batch_t0 >= 0.25) {
        if (cli_ingest_commit(c, e) != PB_OK) {
            c->fatal = 1;
            c->fatal_err = *e;
        }
    }
}

int cli_ingest_on_file(void *vctx, const char *path, struct pb_resultset *set,
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
        on_no_set(c, path, err);
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
    after_store(c, path, set, rc, n, streamed, &e);
    return 0;
}
