/* Storing a run's sets and --resume: which cells are already stored, the
 * check that their parameters are still the plan's, skip and failure
 * records (a cell that runs again replaces its earlier record). */
#define _GNU_SOURCE
#include "run/run_loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pb_run_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pb_run_on_source(void *ctx, const struct pb_db_source *s)
{
    struct run *r = ctx;
    PB_GROW(r->done, r->capdone, r->ndone + 1);
    r->done[r->ndone++] = pb_xstrdup(s->path);
    PB_GROW(r->keys, r->capkeys, r->nkeys + 1);
    r->keys[r->nkeys].id = s->id;
    r->keys[r->nkeys].path = pb_xstrdup(s->path);
    r->keys[r->nkeys++].key[0] = '\0';
    if (s->format && !strcmp(s->format, "poolbench-run")) {
        PB_GROW(r->fails, r->capfails, r->nfails + 1);
        struct failrec *f = &r->fails[r->nfails++];
        f->id = s->id;
        f->path = pb_xstrdup(s->path);
        snprintf(f->sha256, sizeof(f->sha256), "%s",
                 s->sha256 ? s->sha256 : "");
    }
    return 0;
}

int pb_run_cmp_keyrec(const void *a, const void *b)
{
    const struct keyrec *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

int pb_run_on_fact(void *ctx, const struct pb_db_triple *t)
{
    struct run *r = ctx;
    if (!t->b || !t->c)
        return 0;
    int partial = !strcmp(t->b, "flag.partial");
    if (strcmp(t->b, "run_cell_key") && !partial)
        return 0;
    struct keyrec k = {.id = t->id};
    struct keyrec *hit =
        bsearch(&k, r->keys, r->nkeys, sizeof(k), pb_run_cmp_keyrec);
    if (hit && partial) {
        /* [hosts]: a cell some servers' parts of failed runs again */
        for (size_t i = 0; i < r->nfails; i++)
            if (r->fails[i].id == t->id)
                return 0;
        PB_GROW(r->fails, r->capfails, r->nfails + 1);
        struct failrec *f = &r->fails[r->nfails++];
        memset(f, 0, sizeof(*f));
        f->id = t->id;
        f->path = pb_xstrdup(hit->path);
        f->partial = 1;
    } else if (hit) {
        snprintf(hit->key, sizeof(hit->key), "%s", t->c);
    }
    return 0;
}

/* --resume: cells stored under their number whose parameters are not the
 * plan's any more (a key stored, and another now) are named; the run is
 * refused (results of other parameters would stand in for them). */
int pb_run_resume_check(struct run *r)
{
    struct pb_buf bad = PB_BUF_INIT, first = PB_BUF_INIT;
    size_t nbad = 0;
    for (size_t i = 0; i < r->p->ncells; i++) {
        char path[PATH_MAX], key[17];
        pb_run_cell_path(r, i, 0, "fio.json", path, sizeof(path));
        pb_run_cell_key(r->p, i, key);
        for (size_t k = 0; k < r->nkeys; k++) {
            if (!r->keys[k].key[0] || strcmp(r->keys[k].path, path) ||
                !strcmp(r->keys[k].key, key))
                continue;
            if (nbad < 20)
                pb_buf_printf(&bad, "%s%zu", nbad ? ", " : "", i + 1);
            if (!nbad) {
                struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
                pb_run_plan_describe(r->p, i, &label, &test);
                pb_buf_printf(&first, "%s | %s", pb_buf_str(&label),
                              pb_buf_str(&test));
                pb_buf_release(&label);
                pb_buf_release(&test);
            }
            nbad++;
            break;
        }
    }
    if (nbad)
        pb_err_set(r->err, PB_EUSAGE, r->p->path, 0, 0,
                   "--resume: the plan changed since %zu stored cell%s "
                   "ran: cell%s %s%s %s other parameters now (cell %s is "
                   "'%s'); run it into a new -o folder, or restore the plan",
                   nbad, nbad == 1 ? "" : "s", nbad == 1 ? "" : "s",
                   pb_buf_str(&bad), nbad > 20 ? ", ..." : "",
                   nbad == 1 ? "has" : "have", pb_buf_str(&bad),
                   pb_buf_str(&first));
    pb_buf_release(&bad);
    pb_buf_release(&first);
    return nbad ? -1 : 0;
}

int pb_run_is_done(const struct run *r, const char *path)
{
    for (size_t i = 0; i < r->nfails; i++)
        if (r->fails[i].partial && !strcmp(r->fails[i].path, path))
            return 0; /* kept partial: not done */
    return r->ndone &&
           bsearch(&path, r->done, r->ndone, sizeof(char *), pb_run_cmp_str);
}

/* Raw file of cell i (0-based): "DIR/raw/c007.fio.json", or with repeats
 * "DIR/raw/c007-r2.fio.json"; repeat 0 gives the path the cell is stored
 * under ("c007-r*.fio.json" for the folded repeats). */
void pb_run_cell_path(const struct run *r, size_t i, long repeat,
                      const char *suffix, char *buf, size_t n)
{
    if (r->p->repeats == 1 || !strcmp(suffix, "zfs.txt") ||
        !strcmp(suffix, "skipped.txt"))
        pb_run_sfmt(buf, n, "%s/c%0*zu.%s", r->raw, r->width, i + 1, suffix);
    else if (repeat == 0)
        pb_run_sfmt(buf, n, "%s/c%0*zu-r*.%s", r->raw, r->width, i + 1, suffix);
    else
        pb_run_sfmt(buf, n, "%s/c%0*zu-r%ld.%s", r->raw, r->width, i + 1,
                    repeat, suffix);
}

/* ==== storing ==== */

/* Store set; PB_OK or PB_EDUP (already stored), else -1 (the run stops).
 * The run's facts go with its first measured source and with every skip
 * or failure record (`record`): a record a resumed cell forgets later
 * does not take the run's facts with it. */
int pb_run_store(struct run *r, struct pb_resultset *set, int record)
{
    if (!r->o->db)
        return PB_OK;
    int with_facts = r->facts && (record || !r->facts_stored);
    if (r->cell_key[0])
        pb_rs_fact(set, NULL, "run_cell_key", r->cell_key);
    if (with_facts)
        for (size_t i = 0; i < r->facts->nfacts; i++)
            pb_rs_fact(set, r->facts->facts[i].host, r->facts->facts[i].key,
                       r->facts->facts[i].value);
    struct pb_err e = {0};
    int rc = pb_db_store(r->o->db, set, NULL, &e);
    if (rc == PB_OK && !record)
        r->facts_stored = 1;
    if (rc == PB_OK || rc == PB_EDUP) {
        if (rc == PB_EDUP && with_facts) {
            /* the facts were not written with this set: take them off */
            set->nfacts -= r->facts->nfacts;
        }
        return rc;
    }
    *r->err = e;
    r->fatal = 1;
    return -1;
}

/* --resume: the skip and failure records of cell i stored by earlier runs
 * go once the cell has a newer outcome: its results, or a record of
 * another reason (keep_sha, the new record, stays). */
void pb_run_forget_records(struct run *r, size_t i, const char *keep_sha)
{
    if (!r->nfails || !r->o->db || r->x.dry_run)
        return;
    char path[PATH_MAX], pre[PATH_MAX];
    pb_run_cell_path(r, i, 0, "skipped.txt", path, sizeof(path));
    /* the sources of a partial run of the cell: "DIR/raw/c007." or
     * "DIR/raw/c007-r"; replaced by results only, never by a failure */
    pb_run_sfmt(pre, sizeof(pre), "%s/c%0*zu", r->raw, r->width, i + 1);
    size_t pl = strlen(pre);
    for (size_t k = 0; k < r->nfails && !r->fatal; k++) {
        struct failrec *f = &r->fails[k];
        if (!f->id)
            continue;
        if (f->partial ? keep_sha || strncmp(f->path, pre, pl) ||
                             (f->path[pl] != '.' && f->path[pl] != '-')
                       : strcmp(f->path, path) ||
                             (keep_sha && !strcmp(f->sha256, keep_sha)))
            continue;
        struct pb_err e = {0};
        if (pb_db_forget_source(r->o->db, f->id, &e) != PB_OK) {
            *r->err = e;
            r->fatal = 1;
            return;
        }
        pb_run_note(&r->x,
                    "cell %zu/%zu: its earlier record %s (source "
                    "%lld) is replaced",
                    i + 1, r->p->ncells, f->path, f->id);
        f->id = 0;
    }
}

/* A cell that cannot run (`failed` 0: known not to work here) or whose
 * commands failed (1): one NULL-valued "cell_skipped" result with the
 * reason, under the cell's config and test, so the report can show it.
 * A failure ends the run when the plan says on_failure = stop. */
void pb_run_record_skip(struct run *r, const struct pb_run_cell *c,
                        const char *label, const char *test, const char *why,
                        int failed)
{
    r->sum->skipped++;
    if (failed) {
        r->sum->failed++;
        if (r->stop_on_failure && !r->x.dry_run) {
            r->stop = 1;
            r->sum->failed_cell = c->index + 1;
            snprintf(r->sum->failed_why, sizeof(r->sum->failed_why), "%s", why);
        }
    }
    if (r->o->progress && !r->x.dry_run)
        fprintf(r->o->progress, "cell %zu/%zu %s %s %s: %s\n", c->index + 1,
                r->p->ncells, label, test, failed ? "failed" : "skipped", why);
    pb_run_note(&r->x, "%s cell %zu/%zu (%s | %s): %s",
                failed ? "failed" : "skip", c->index + 1, r->p->ncells, label,
                test, why);
    if (r->x.dry_run || !r->o->db)
        return;
    char path[PATH_MAX];
    pb_run_cell_path(r, c->index, 0, "skipped.txt", path, sizeof(path));
    char *text =
        pb_xasprintf("poolbench run %s, cell %zu of %zu\nconfig: "
                     "%s\ntest: %s\nskipped: %s\n",
                     r->p->name, c->index + 1, r->p->ncells, label, test, why);
    if (pb_run_write_file(path, text, strlen(text)) != 0)
        pb_run_warn(r, "cannot write '%s': %s", path, strerror(errno));

    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, path);
    set->format = "poolbench-run";
    set->size = strlen(text);
    pb_sha256_hex(text, strlen(text), set->sha256);
    free(text);
    size_t ci = pb_rs_config(set, label);
    struct pb_kv *kv;
    size_t nkv;
    pb_run_cell_config(r->p, c, &kv, &nkv);
    for (size_t i = 0; i < nkv; i++) {
        char *v = pb_ingest_norm_param(kv[i].key, kv[i].value);
        pb_rs_config_param(set, ci, kv[i].key, v);
        free(v);
    }
    pb_run_kv_free(kv, nkv);
    size_t ti = pb_rs_test(set, test, "fio");
    pb_run_fio_params(r->p, c->combo[PB_RUN_FIO], set, ti, 0);
    pb_rs_add_null(set, ci, ti, NULL, NULL, "cell_skipped", "", PB_DIR_HIGHER,
                   why);
    if (pb_run_store(r, set, 1) >= 0)
        pb_run_forget_records(r, c->index, set->sha256);
    pb_resultset_free(set);
}
