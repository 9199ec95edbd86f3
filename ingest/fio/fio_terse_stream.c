/* fio terse streamed: a large terse file read in two passes over the
 * mapped text, its results stored in parts (docs/performance.md, "Streaming
 * ingest", fio terse). The steps per record are fio_terse.c's.
 *
 * What ties the records together: a job found in several runs is folded
 * into one result (fio_repeats.c), a run's records of several names are
 * labelled by the file, and a test's name depends on header lines that
 * may stand anywhere before it (terse,normal output) and on group lines
 * anywhere. So:
 *
 *   pass 1 reads every line without converting numbers: the name, fio
 *     version, group id and disk tail of each record (enough to cut the
 *     runs as the whole parse does), counting the runs of each job name
 *     (a table of distinct names, not of records); the header and group
 *     lines, fio's interrupt line and the first fio version. Anything it
 *     cannot read makes the file parse whole (the whole parse names the
 *     error).
 *   pass 2 parses the records in order; each time a few hundred are held,
 *     every complete group of numjobs clones (all but the last group,
 *     which the next record may continue) is labelled, gets its test and
 *     results (a repeated job's runs before its last are read again from
 *     the file when the last comes, not held: 30,000 names repeated stay
 *     within the bound), and the part goes to the store once it holds
 *     PB_STREAM_PART results. The facts the whole parse writes after its
 *     results (flag.interrupted, device, flag.no_version,
 *     flag.implausible) are gathered aside and written with the last
 *     part, in the same order.
 *
 * Any error in pass 2 (a bad record, no usable record) parses the file
 * whole for the message; the parts stored so far are rolled back with
 * the source's savepoint. */
#include "ingest/fio/fio_terse_int.h"
#include "ingest/fio/stream_names.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_RECS ((size_t)256) /* records held before a group is cut */

/* ==== the stream ==== */

struct tstream {
    const char *path, *map;
    size_t len;
    struct pb_resultset *set;
    size_t part;                          /* results a part holds */
    struct ctx c;                         /* pass 2's records; header lines */
    struct pb_resultset *hdr, *dev, *imp; /* kept until the end */
    struct pb_fio_file ff;  /* names measured in several runs, options of
                               the header lines: pass 1; the fold: pass 2 */
    unsigned char *multi;   /* per run: its records have several names */
    size_t capmulti;
    struct pb_fio_inv inv;  /* pass 1: the names of the run being read */
    /* pass 2: per job name (its index in ff.names), the records of its
     * measurements before the last, read again when the last comes (a
     * repeat's values are not held: a file may repeat 30,000 names) */
    struct spans {
        struct span {
            size_t off, len;
            long line, recno;
            size_t run, rep;
        } *v;
        size_t n;
    } *spans;
    char *version; /* the first record's fio version, or NULL */
    struct field *f;
    size_t capf;
    size_t maxrec; /* records held before the groups are cut */
    size_t run;    /* pass 2: the run of the last record */
    size_t usable; /* usable records */
    double ran;    /* the longest runtime of a usable record */
};

/* ==== pass 1 ==== */

/* What pass 1 reads of a record: as pb_terse_parse_line reads it. */
struct peek {
    const char *name, *ver, *tail; /* ver NULL: none (v2) */
    size_t nlen, vlen, tlen;
    long gid;
    char buf[32]; /* "job<k>" for an empty name */
};

static int same(const char *a, size_t na, const char *b, size_t nb)
{
    return na == nb && (na == 0 || !memcmp(a, b, na));
}

/* Record line[0..len), the recno-th: 1 with o filled, 0 when it is not
 * one the whole parse reads (it will say why). */
static int peek(struct tstream *t, const char *line, size_t len, long recno,
                struct peek *o)
{
    size_t nf = 0;
    const char *p = line, *end = line + len;
    for (;;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *e = semi ? semi : end;
        PB_GROW(t->f, t->capf, nf + 1);
        t->f[nf].s = p;
        t->f[nf].n = (size_t)(e - p);
        nf++;
        if (!semi)
            break;
        p = semi + 1;
    }
    const struct field *f = t->f;
    int ver = (int)strtol(line, NULL, 10);
    if (ver < 2 || ver > 5)
        return 0;
    size_t base = ver == 2 ? 4 : 5;
    if (nf < base + 13)
        return 0;
    const struct field *fn = &f[ver == 2 ? 1 : 2];
    o->name = fn->s;
    o->nlen = fn->n;
    if (fn->n == 0) {
        snprintf(o->buf, sizeof(o->buf), "job%ld", recno);
        o->name = o->buf;
        o->nlen = strlen(o->buf);
    }
    o->ver = ver > 2 ? f[1].s : NULL;
    o->vlen = ver > 2 ? f[1].n : 0;
    double v;
    if (pb_terse_fnum(&f[base - 2], 0, &v) != 0 || v < 0 || v > INT_MAX)
        return 0;
    o->gid = (long)v;
    int old = ver == 2 && !memchr(f[base + 12].s, '=', f[base + 12].n);
    size_t secsize = old ? 20 : ver == 5 ? 47 : 41;
    size_t nsec = 0, pos = base;
    while (nsec < D_N && pos < nf && !pb_terse_is_pct(&f[pos])) {
        if (pos + secsize > nf)
            return 0;
        pos += secsize;
        nsec++;
    }
    if (pos + TAIL_FIELDS > nf)
        return 0;
    pos += TAIL_FIELDS;
    o->tail = pos < nf ? f[pos].s : end;
    o->tlen = (size_t)(end - o->tail);
    return 1;
}

/* The names of run t->run are complete: its flag kept for pass 2. */
static void run_done(struct tstream *t)
{
    PB_GROW(t->multi, t->capmulti, t->run + 1);
    t->multi[t->run] = (unsigned char)pb_fio_inv_base(&t->inv, "");
    pb_fio_inv_release(&t->inv);
}

/* Pass 1: 1 when the file can be streamed (runs per name counted, header
 * lines and fio's interrupt line noted), 0 when it is parsed whole. */
static int plan(struct tstream *t)
{
    struct peek pk[2];
    struct peek *cur = &pk[0], *prev = NULL;
    size_t run = 0, rep = 0;
    long lineno = 0, recno = 0;
    const char *p = t->map, *end = t->map + t->len, *s, *ls = p;
    size_t n;
    int kind;
    t->c.set = t->hdr;
    while ((kind = pb_terse_next_line(&p, end, &s, &n))) {
        lineno++;
        if ((lineno & 1023) == 0)
            pb_rs_consumed(t->set, ls);
        ls = p;
        if (kind == 2) {
            if (pb_terse_other_line(&t->c, s, n, lineno) != PB_OK)
                return 0;
            continue;
        }
        if (!peek(t, s, n, ++recno, cur))
            return 0;
        if (prev &&
            (cur->gid < prev->gid ||
             (cur->ver == NULL) != (prev->ver == NULL) ||
             (cur->ver && !same(cur->ver, cur->vlen, prev->ver, prev->vlen)) ||
             (cur->gid == prev->gid &&
              same(cur->name, cur->nlen, prev->name, prev->nlen) &&
              !same(cur->tail, cur->tlen, prev->tail, prev->tlen))))
            run++;
        /* each group of clones of a run is a measurement (assign_runs) */
        if (!prev || run != t->run)
            rep = 0;
        else if (cur->gid != prev->gid ||
                 !same(cur->name, cur->nlen, prev->name, prev->nlen) ||
                 !same(cur->tail, cur->tlen, prev->tail, prev->tlen))
            rep++;
        if (!t->version && cur->ver)
            t->version = pb_xstrndup(cur->ver, cur->vlen);
        if (prev && run != t->run)
            run_done(t);
        t->run = run;
        char *nm = pb_xstrndup(cur->name, cur->nlen);
        pb_fio_file_count(&t->ff, nm, pb_fio_meas(run, rep), NULL, NULL);
        pb_fio_inv_add(&t->inv, nm, "", 0);
        free(nm);
        prev = cur;
        cur = cur == &pk[0] ? &pk[1] : &pk[0];
    }
    run_done(t);
    t->run = 0;
    pb_rs_consumed(t->set, end);
    t->c.set = t->set;
    return recno > 0;
}

/* ==== pass 2 ==== */

/* Label and measurement of record r (of a name pass 1 read). */
static int ident(struct tstream *t, struct rec *r)
{
    struct pb_fio_job *j = &r->job;
    if (!pb_sn_get(&t->ff.names, j->name, strlen(j->name), 0) ||
        j->run >= t->capmulti)
        return PB_EINPUT; /* pass 1 read it otherwise */
    j->jobname = j->name;
    pb_fio_file_job(&t->ff, j, t->multi[j->run], NULL, NULL,
                    pb_fio_meas(j->run, j->rep));
    return PB_OK;
}

/* Release the pages of the input that reading [a, b) maps: the kernel
 * maps up to 64 KiB around a page read ("fault-around"). */
static void release(struct tstream *t, size_t a, size_t b)
{
    size_t page = 65536;
    a -= a % page;
    b = b + page - 1 - (b + page - 1) % page;
    if (b > t->len)
        b = t->len;
    pb_rs_release(t->set, t->map + a, t->map + b);
}

/* The measurements of name idx before its last, read again into
 * t->ff.held (tests named as the first time, flags not said again). */
static int replay(struct tstream *t, size_t idx)
{
    struct spans *sp = &t->spans[idx];
    struct ctx rc = t->c;
    struct pb_err lerr = {0};
    rc.r = NULL;
    rc.nr = rc.capr = 0;
    rc.set = pb_resultset_new();
    rc.err = &lerr;
    int ok = PB_OK;
    for (size_t i = 0; i < sp->n && ok == PB_OK; i++) {
        const struct span *x = &sp->v[i];
        ok = pb_terse_parse_line(&rc, t->map + x->off, x->len, x->line,
                                 x->recno);
        release(t, x->off, x->off + x->len);
        if (ok == PB_OK) {
            struct rec *r = &rc.r[rc.nr - 1];
            pb_terse_set_usable(r);
            r->job.run = x->run;
            r->job.rep = x->rep;
            ok = ident(t, r);
        }
    }
    if (ok == PB_OK && rc.nr) {
        t->ff.mute = 1;
        pb_terse_tests(&rc, rc.nr);
        t->ff.mute = 0;
        pb_fio_emit_all(t->ff.held, NULL, &rc.r[0].job, sizeof(rc.r[0]),
                        rc.nr, pb_terse_is_clone, pb_terse_is_ambiguous, NULL,
                        &rc);
    }
    free(rc.r);
    pb_resultset_free(rc.set);
    free(sp->v);
    memset(sp, 0, sizeof(*sp));
    return ok;
}

/* Records [i, i + g) (a group of clones of a held name): kept to be read
 * again, or, being its name's last measurement, emitted with the ones
 * kept and folded. */
static int held(struct tstream *t, size_t i, size_t g)
{
    struct ctx *c = &t->c;
    struct pb_fio_job *j = &c->r[i].job;
    struct pb_sn_name *e =
        pb_sn_get(&t->ff.names, j->name, strlen(j->name), 0);
    size_t idx = (size_t)(e - t->ff.names.v);
    if (!pb_fio_file_last(&t->ff, j)) {
        struct spans *sp = &t->spans[idx];
        for (size_t k = i; k < i + g; k++) {
            const struct rec *r = &c->r[k];
            /* by one: a name has few runs, and names may be 30,000 */
            sp->v = pb_xrealloc(sp->v, (sp->n + 1) * sizeof(*sp->v));
            struct span *x = &sp->v[sp->n++];
            x->off = (size_t)(r->text - t->map);
            x->len = r->len;
            x->line = r->line;
            x->recno = r->recno;
            x->run = r->job.run;
            x->rep = r->job.rep;
        }
        return PB_OK;
    }
    if (replay(t, idx) != PB_OK)
        return PB_EINPUT;
    struct ctx sub = *c;
    sub.r = c->r + i;
    sub.nr = g;
    pb_fio_emit_all(t->ff.held, NULL, j, sizeof(c->r[0]), g,
                    pb_terse_is_clone, pb_terse_is_ambiguous, NULL, &sub);
    pb_fio_file_flush(&t->ff, t->set, j);
    return PB_OK;
}

/* Label, test and results of the records [0, k) of t->c (whole groups of
 * clones), the facts for the end gathered aside; they leave t->c. */
static int emit(struct tstream *t, size_t k)
{
    struct ctx *c = &t->c;
    for (size_t i = 0; i < k; i++)
        if (ident(t, &c->r[i]) != PB_OK)
            return PB_EINPUT;
    for (size_t i = 0; i < k;) {
        size_t g = pb_fio_count_clones(&c->r[0].job, sizeof(c->r[0]), k, i,
                                       pb_terse_is_clone, c);
        struct ctx sub = *c;
        sub.r = c->r + i;
        sub.nr = g;
        if (c->r[i].job.usable && c->r[i].job.held) {
            pb_terse_build(&sub, 0, g);
            if (held(t, i, g) != PB_OK)
                return PB_EINPUT;
        } else {
            pb_fio_emit_all(t->set, &t->ff, &c->r[i].job, sizeof(c->r[0]), g,
                            pb_terse_is_clone, pb_terse_is_ambiguous,
                            pb_terse_build, &sub);
        }
        i += g;
    }
    pb_fio_file_take(&t->ff);
    pb_fio_flag_jobs(t->imp, &c->r[0].job, sizeof(c->r[0]), k);
    for (size_t i = 0; i < k; i++) {
        const struct rec *r = &c->r[i];
        double rt = pb_fio_longest_runtime(&r->job.st);
        if (r->job.usable && rt > 0 && !(rt <= t->ran))
            t->ran = rt;
        pb_terse_disk_fact(t->dev, r);
    }
    memmove(c->r, c->r + k, (c->nr - k) * sizeof(*c->r));
    c->nr -= k;
    return PB_OK;
}

/* Store the part when it is due; the records still held (their strings
 * are in the set's arena, which the flush empties) are kept. */
static int flush(struct tstream *t, const char *upto)
{
    if (!pb_rs_flush_due(t->set, 0)) {
        pb_rs_consumed(t->set, upto);
        return PB_OK;
    }
    struct ctx *c = &t->c;
    char **keep = pb_xcalloc(3 * c->nr + 1, sizeof(*keep));
    for (size_t i = 0; i < c->nr; i++) {
        keep[3 * i] = pb_xstrdup(c->r[i].job.name);
        keep[3 * i + 1] = c->r[i].version ? pb_xstrdup(c->r[i].version) : NULL;
        keep[3 * i + 2] = pb_xstrdup(c->r[i].tail);
    }
    int rc = pb_rs_flush(t->set, upto);
    struct pb_arena *a = &t->set->arena;
    for (size_t i = 0; i < c->nr; i++) {
        struct rec *r = &c->r[i];
        r->job.name = pb_arena_strdup(a, keep[3 * i]);
        r->version =
            keep[3 * i + 1] ? pb_arena_strdup(a, keep[3 * i + 1]) : NULL;
        r->tail = pb_arena_strdup(a, keep[3 * i + 2]);
        for (int x = 0; x < 3; x++)
            free(keep[3 * i + x]);
    }
    free(keep);
    return rc;
}

/* Records held: cut off every complete group of clones (all of them when
 * last), store the part when due. PB_OK, PB_EINPUT (the whole parse will
 * say why), or minus the store's error. */
static int step(struct tstream *t, int last, const char *upto)
{
    struct ctx *c = &t->c;
    size_t open = c->nr;
    if (!last) {
        for (size_t i = 0; i < c->nr;) {
            size_t g = pb_fio_count_clones(&c->r[0].job, sizeof(c->r[0]), c->nr,
                                           i, pb_terse_is_clone, c);
            if (i + g == c->nr)
                open = i;
            i += g;
        }
        if (open == 0) { /* one group of clones fills the chunk */
            t->maxrec *= 2;
            return PB_OK;
        }
    }
    int rc = emit(t, open);
    if (rc != PB_OK)
        return rc;
    size_t part = t->part;
    t->maxrec = part < CHUNK_RECS ? part : CHUNK_RECS;
    if (last)
        return PB_OK;
    rc = flush(t, upto);
    return rc == PB_OK ? PB_OK : -rc;
}

static int pass2(struct tstream *t)
{
    struct ctx *c = &t->c;
    struct pb_err lerr = {0};
    c->err = &lerr;
    if (t->version)
        pb_fio_set_version(t->set, t->version);
    size_t part = t->part;
    t->maxrec = part < CHUNK_RECS ? part : CHUNK_RECS;
    long lineno = 0, recno = 0;
    const char *p = t->map, *end = t->map + t->len, *s;
    size_t n;
    int kind, rc = PB_OK;
    while (rc == PB_OK && (kind = pb_terse_next_line(&p, end, &s, &n))) {
        lineno++;
        if (kind == 2)
            continue; /* read in pass 1 */
        if (pb_terse_parse_line(c, s, n, lineno, ++recno) != PB_OK)
            return PB_EINPUT;
        struct rec *r = &c->r[c->nr - 1];
        pb_terse_set_usable(r);
        t->usable += r->job.usable != 0;
        if (recno > 1) {
            const struct rec *q = &c->r[c->nr - 2];
            if (r->groupid < q->groupid ||
                !pb_fio_same_str(r->version, q->version) ||
                (r->groupid == q->groupid &&
                 !strcmp(r->job.name, q->job.name) &&
                 strcmp(r->tail, q->tail) != 0))
                t->run++;
        }
        r->job.run = t->run;
        r->job.rep = recno > 1 && c->r[c->nr - 2].job.run == t->run
                         ? c->r[c->nr - 2].job.rep +
                               !pb_terse_is_clone(c, c->nr - 2, c->nr - 1)
                         : 0;
        if (c->nr >= t->maxrec)
            rc = step(t, 0, p);
    }
    if (rc == PB_OK)
        rc = step(t, 1, end);
    if (rc == PB_OK && t->usable == 0)
        rc = PB_EINPUT; /* the whole parse names the failed job */
    if (rc == PB_OK)
        pb_fio_file_fold(&t->ff, t->set);
    return rc;
}

/* The facts the whole parse gives after its results, in its order. */
static void end_facts(struct tstream *t)
{
    struct pb_resultset *set = t->set;
    const struct ctx *c = &t->c;
    if (c->intr_line)
        pb_fio_flag_interrupted(set, c->intr_line, c->intr, strlen(c->intr),
                                t->ran, NAN);
    pb_fio_copy_facts(set, t->dev);
    pb_fio_flag_end(set, t->imp);
}

int pb_terse_stream(const struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    struct tstream t;
    memset(&t, 0, sizeof(t));
    t.path = path;
    t.map = buf;
    t.len = len;
    t.set = set;
    t.part = x->part;
    t.ran = NAN;
    t.c.path = path;
    t.c.buf = buf;
    t.hdr = pb_resultset_new();
    t.dev = pb_resultset_new();
    t.imp = pb_resultset_new();
    pb_fio_file_init(&t.ff, path);
    t.c.f = &t.ff;
    struct pb_err perr = {0};
    t.c.err = &perr;
    int whole = !plan(&t);
    if (!whole) {
        pb_terse_sort_lines(&t.c);
        pb_terse_count_options(&t.c, &t.ff);
        pb_fio_file_counted(&t.ff, NULL, NULL);
        t.spans = pb_xcalloc(t.ff.names.n + 1, sizeof(*t.spans));
        if (pb_terse_split(&t.c, &t.ff.names))
            memset(t.multi, 0, t.capmulti);
        rc = pass2(&t);
        if (rc == PB_OK)
            end_facts(&t);
    }
    pb_terse_ctx_free(&t.c);
    pb_resultset_free(t.hdr);
    pb_resultset_free(t.dev);
    pb_resultset_free(t.imp);
    for (size_t i = 0; t.spans && i < t.ff.names.n; i++)
        free(t.spans[i].v);
    free(t.spans);
    pb_fio_file_release(&t.ff);
    pb_fio_inv_release(&t.inv);
    free(t.multi);
    free(t.version);
    free(t.f);
    if (whole)
        return pb_terse_whole(path, buf, len, set, err);
    if (rc < 0)
        return -rc;
    if (rc != PB_OK)
        return pb_parse_whole_error(x);
    return PB_OK;
}
