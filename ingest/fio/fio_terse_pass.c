/* The parse of fio terse output, the parser's parse: one algorithm over
 * the buffer, read in two passes, whether the file is parsed whole (one
 * part: x->part 0) or streamed (its results stored in parts,
 * docs/performance.md "Streaming ingest", fio terse). The steps per line
 * are fio_terse.c's; the tests are named by fio_terse_tests.c.
 *
 * What ties the records together: a job found in several runs is folded
 * into one result (fio_repeats.c), a run's records of several names are
 * labelled by the file, and a test's name depends on header lines that
 * may stand anywhere before it (terse,normal output) and on group lines
 * anywhere. So:
 *
 *   pass 1 reads every line without converting numbers: the name, fio
 *     version, group id and disk tail of each record (enough to cut the
 *     runs and measurements, next_meas), counting the measurements of
 *     each job name (a table of distinct names, not of records); the
 *     header and group lines, fio's interrupt and error lines and the
 *     first fio version. It stops at the first line it cannot read.
 *   pass 2 parses the records in order; each time a few hundred are held,
 *     every complete group of numjobs clones (all but the last group,
 *     which the next record may continue) is labelled, gets its test and
 *     results (a repeated job's measurements before its last are read
 *     again from the buffer when the last comes, not held: 30,000 names
 *     repeated stay within the bound), and, streamed, the part goes to
 *     the store once it holds PB_STREAM_PART results. The facts that
 *     follow the results (flag.interrupted, device, flag.no_version,
 *     flag.implausible) are gathered aside and written with the last
 *     part.
 *
 * Errors are those of the first bad line in file order: when pass 1
 * stopped at a line, pass 2 only parses the records before it (a bad
 * number there comes first) and then names that line's error. A record
 * that fails makes the parse fail; streamed, the parts stored so far are
 * rolled back with the source's savepoint. */
#include "ingest/fio/fio_terse_int.h"
#include "ingest/fio/stream_names.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_RECS ((size_t)256) /* records held before a group is cut */

/* ==== the parse ==== */

struct tparse {
    const char *path, *map; /* map: the buffer, mapped when streamed */
    size_t len;
    struct pb_resultset *set;
    struct pb_err *err;
    size_t part;                          /* results a part holds; 0: one */
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
    size_t run, rep; /* pass 2: run and measurement of the last record */
    size_t usable; /* usable records */
    double ran;    /* the longest runtime of a usable record */
    /* pass 1 stopped at line bad_line (0: read to the end): a record
     * pass 2 names the error of (bad_rec), or another line, perr */
    long bad_line;
    int bad_rec;
    struct pb_err perr;
    /* pass 2: the first record that failed and did no I/O (line 0: none) */
    long fail_line, fail_code;
    char *fail_name;
};

/* ==== pass 1 ==== */

/* What cuts runs and measurements: a record's name, fio version, group
 * id and disk tail (the strings up to a NUL, as the record keeps them). */
struct key {
    const char *name, *ver, *tail; /* ver NULL: none (v2) */
    size_t nlen, vlen, tlen;
    long gid;
};

/* What pass 1 reads of a record: as pb_terse_parse_line reads it. */
struct peek {
    struct key k;
    char buf[32]; /* "job<k>" for an empty name */
};

/* Length of s[0..n) up to a NUL. */
static size_t upto_nul(const char *s, size_t n)
{
    const char *z = memchr(s, '\0', n);
    return z ? (size_t)(z - s) : n;
}

static int same(const char *a, size_t na, const char *b, size_t nb)
{
    na = upto_nul(a, na);
    nb = upto_nul(b, nb);
    return na == nb && (na == 0 || !memcmp(a, b, na));
}

static void key_of(const struct rec *r, struct key *k)
{
    k->name = r->job.name;
    k->nlen = strlen(r->job.name);
    k->ver = r->version;
    k->vlen = r->version ? strlen(r->version) : 0;
    k->tail = r->tail;
    k->tlen = strlen(r->tail);
    k->gid = r->groupid;
}

/* The run and measurement of record cur after record prev (NULL: cur is
 * the first): a group id going down, another fio version, or a
 * same-named record of the group with other disk stats starts a run;
 * each group of clones (same name, group and disk stats, in a row) of a
 * run is a measurement of its name (*rep: its index in the run), so a
 * name in several groups of one run (groups 0 and 7) was measured that
 * many times. The one place runs are cut. */
static void next_meas(const struct key *prev, const struct key *cur,
                      size_t *run, size_t *rep)
{
    if (!prev) {
        *run = *rep = 0;
        return;
    }
    int name = same(cur->name, cur->nlen, prev->name, prev->nlen);
    int tail = same(cur->tail, cur->tlen, prev->tail, prev->tlen);
    int ver = (cur->ver == NULL) == (prev->ver == NULL) &&
              (!cur->ver || same(cur->ver, cur->vlen, prev->ver, prev->vlen));
    if (cur->gid < prev->gid || !ver ||
        (cur->gid == prev->gid && name && !tail)) {
        ++*run;
        *rep = 0;
    } else if (cur->gid != prev->gid || !name || !tail) {
        ++*rep;
    }
}

/* Record line[0..len), the recno-th: 1 with o filled, 0 when
 * pb_terse_parse_line refuses it (pass 2 says why). */
static int peek(struct tparse *t, const char *line, size_t len, long recno,
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
    o->k.name = fn->s;
    o->k.nlen = fn->n;
    if (upto_nul(fn->s, fn->n) == 0) { /* as the record's name is kept */
        snprintf(o->buf, sizeof(o->buf), "job%ld", recno);
        o->k.name = o->buf;
        o->k.nlen = strlen(o->buf);
    }
    o->k.ver = ver > 2 ? f[1].s : NULL;
    o->k.vlen = ver > 2 ? f[1].n : 0;
    double v;
    if (pb_terse_fnum(&f[base - 2], 0, &v) != 0 || v < 0 || v > INT_MAX)
        return 0;
    o->k.gid = (long)v;
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
    o->k.tail = pos < nf ? f[pos].s : end;
    o->k.tlen = (size_t)(end - o->k.tail);
    return 1;
}

/* The names of run t->run are complete: its flag kept for pass 2. */
static void run_done(struct tparse *t)
{
    PB_GROW(t->multi, t->capmulti, t->run + 1);
    t->multi[t->run] = (unsigned char)pb_fio_inv_base(&t->inv, "");
    pb_fio_inv_release(&t->inv);
}

/* Pass 1: the measurements per name counted, header lines and fio's
 * interrupt and error lines noted; t->bad_line set when a line cannot be
 * read (the rest is not). */
static void plan(struct tparse *t)
{
    struct peek pk[2];
    struct peek *cur = &pk[0], *prev = NULL;
    size_t run = 0, rep = 0;
    long lineno = 0, recno = 0;
    const char *p = t->map, *end = t->map + t->len, *s, *ls = p;
    size_t n;
    int kind;
    t->c.set = t->hdr;
    t->c.err = &t->perr;
    while ((kind = pb_terse_next_line(&p, end, &s, &n))) {
        lineno++;
        if ((lineno & 1023) == 0)
            pb_rs_consumed(t->set, ls);
        ls = p;
        if (kind == 2) {
            if (pb_terse_other_line(&t->c, s, n, lineno) != PB_OK) {
                t->bad_line = lineno;
                break;
            }
            continue;
        }
        if (!peek(t, s, n, ++recno, cur)) {
            t->bad_line = lineno;
            t->bad_rec = 1;
            break;
        }
        next_meas(prev ? &prev->k : NULL, &cur->k, &run, &rep);
        if (!t->version && cur->k.ver)
            t->version = pb_xstrndup(cur->k.ver, cur->k.vlen);
        if (prev && run != t->run)
            run_done(t);
        t->run = run;
        char *nm = pb_xstrndup(cur->k.name, cur->k.nlen);
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
    t->c.err = t->err;
}

/* ==== pass 2 ==== */

/* Pass 2 read the record at line otherwise than pass 1 (never). */
static int mismatch(struct tparse *t, long line)
{
    return pb_err_set(t->err, PB_EINPUT, t->path, line, 0,
                      "record read otherwise by the two passes of the "
                      "fio-terse parse");
}

/* Label and measurement of record r (of a name pass 1 read). */
static int ident(struct tparse *t, struct rec *r)
{
    struct pb_fio_job *j = &r->job;
    if (!pb_sn_get(&t->ff.names, j->name, strlen(j->name), 0) ||
        j->run >= t->capmulti)
        return mismatch(t, r->line);
    j->jobname = j->name;
    pb_fio_file_job(&t->ff, j, t->multi[j->run], NULL, NULL,
                    pb_fio_meas(j->run, j->rep));
    return PB_OK;
}

/* Release the pages of the input that reading [a, b) maps: the kernel
 * maps up to 64 KiB around a page read ("fault-around"). */
static void release(struct tparse *t, size_t a, size_t b)
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
static int replay(struct tparse *t, size_t idx)
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
static int held(struct tparse *t, size_t i, size_t g)
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
        return mismatch(t, j->line);
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
static int emit(struct tparse *t, size_t k)
{
    struct ctx *c = &t->c;
    if (k == 0)
        return PB_OK; /* no record in the file */
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
static int flush(struct tparse *t, const char *upto)
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

/* Records held before the groups are cut: a part's, at most
 * CHUNK_RECS. */
static size_t chunk(const struct tparse *t)
{
    return t->part && t->part < CHUNK_RECS ? t->part : CHUNK_RECS;
}

/* Records held: cut off every complete group of clones (all of them when
 * last), store the part when due. PB_OK, PB_EINPUT (t->err set), or
 * minus the store's error. */
static int step(struct tparse *t, int last, const char *upto)
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
    t->maxrec = chunk(t);
    if (last)
        return PB_OK;
    rc = flush(t, upto);
    return rc == PB_OK ? PB_OK : -rc;
}

/* Record r was just parsed: usable, run and measurement (q: the record
 * before it, NULL for the first), the first failed one noted. */
static void add_rec(struct tparse *t, struct rec *r, const struct rec *q)
{
    pb_terse_set_usable(r);
    t->usable += r->job.usable != 0;
    if (!t->fail_line && r->err != 0 && !pb_fio_moved_data(&r->job.st)) {
        t->fail_line = r->line;
        t->fail_code = r->err;
        t->fail_name = pb_xstrdup(r->job.name);
    }
    struct key kq, kr;
    if (q)
        key_of(q, &kq);
    key_of(r, &kr);
    size_t run = t->run, rep = t->rep;
    next_meas(q ? &kq : NULL, &kr, &run, &rep);
    t->run = r->job.run = run;
    t->rep = r->job.rep = rep;
}

/* Pass 2 up to the line pass 1 stopped at: its records parsed for an
 * error before it, then that line's error. */
static int check(struct tparse *t)
{
    struct ctx *c = &t->c;
    long lineno = 0, recno = 0;
    const char *p = t->map, *end = t->map + t->len, *s;
    size_t n;
    int kind;
    while ((kind = pb_terse_next_line(&p, end, &s, &n))) {
        lineno++;
        if (lineno == t->bad_line && !t->bad_rec)
            return pb_err_set(t->err, t->perr.code, t->perr.path,
                              t->perr.line, t->perr.col, "%s", t->perr.msg);
        if (kind == 2)
            continue;
        int rc = pb_terse_parse_line(c, s, n, lineno, ++recno);
        if (rc != PB_OK)
            return rc;
        c->nr = 0;
        if (lineno == t->bad_line)
            break;
    }
    return mismatch(t, t->bad_line);
}

static int pass2(struct tparse *t)
{
    struct ctx *c = &t->c;
    if (t->version)
        pb_fio_set_version(t->set, t->version);
    t->maxrec = chunk(t);
    long lineno = 0, recno = 0;
    const char *p = t->map, *end = t->map + t->len, *s;
    size_t n;
    int kind, rc = PB_OK;
    while (rc == PB_OK && (kind = pb_terse_next_line(&p, end, &s, &n))) {
        lineno++;
        if (kind == 2)
            continue; /* read in pass 1 */
        rc = pb_terse_parse_line(c, s, n, lineno, ++recno);
        if (rc != PB_OK)
            return rc;
        add_rec(t, &c->r[c->nr - 1], recno > 1 ? &c->r[c->nr - 2] : NULL);
        if (c->nr >= t->maxrec)
            rc = step(t, 0, p);
    }
    if (rc == PB_OK)
        rc = step(t, 1, end);
    if (rc == PB_OK && t->usable == 0)
        rc = pb_terse_no_results(c, t->fail_line, t->fail_name,
                                 t->fail_code);
    if (rc == PB_OK)
        pb_fio_file_fold(&t->ff, t->set);
    return rc;
}

/* The facts that follow the results, in their order. */
static void end_facts(struct tparse *t)
{
    struct pb_resultset *set = t->set;
    const struct ctx *c = &t->c;
    if (c->intr_line)
        pb_fio_flag_interrupted(set, c->intr_line, c->intr, strlen(c->intr),
                                t->ran, NAN);
    pb_fio_copy_facts(set, t->dev);
    pb_fio_flag_end(set, t->imp);
}

int pb_terse_parse(const struct pb_parse *x)
{
    int rc = pb_fio_check_blank(x->path, x->buf, x->len, x->err);
    if (rc != PB_OK)
        return rc;
    struct tparse t;
    memset(&t, 0, sizeof(t));
    t.path = x->path;
    t.map = x->buf;
    t.len = x->len;
    t.set = x->out;
    t.err = x->err;
    t.part = x->part;
    t.ran = NAN;
    t.c.path = x->path;
    t.c.buf = x->buf;
    t.hdr = pb_resultset_new();
    t.dev = pb_resultset_new();
    t.imp = pb_resultset_new();
    pb_fio_file_init(&t.ff, x->path);
    t.c.f = &t.ff;
    plan(&t);
    if (t.bad_line) {
        rc = check(&t);
    } else {
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
    free(t.fail_name);
    free(t.f);
    return rc < 0 ? -rc : rc;
}
