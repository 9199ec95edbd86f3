/* The parse of fio JSON, the parser's parse: one algorithm whether the
 * file is read whole or streamed (its results stored in parts,
 * docs/performance.md "Streaming ingest", fio JSON). A document is read
 * in parts of its entries ("jobs" / "client_stats" elements); a small
 * document (every one not streamed), and a big one that a rule keeps
 * whole (fio_json_parts.c: "steadystate", escaped keys, ...), is one
 * part, parsed once, nothing flushed. The steps per entry are
 * fio_json.c's; what ties the entries together is fio_json_ident.c's.
 *
 *   count  every entry is counted into the file (names measured in
 *          several groups, targets, options; count_part) and
 *          its host's invocation (one per host: client/server);
 *   emit   per part, each entry's label (pb_fio_json_file_job), then
 *          pb_fio_emit_all (tests, numjobs aggregates, "All clients"
 *          after its clients), steadystate results, and aside the facts
 *          that follow every result (hostname, device, flag.implausible)
 *          and the longest runtime; the held repeats are taken into the
 *          fold. Parts are cut between groups of numjobs clones (and,
 *          when the file has them, only right after an "All clients"):
 *          the rest of a part is read again with the next;
 *   end    the folded repeats, the facts in the one-part order
 *          (disk_util's devices for a local run naming no filename,
 *          hostname and device per host, the interruption line,
 *          flag.no_version, flag.implausible).
 *
 * One part: the document parsed by json.c, counted and emitted from that
 * one tree. Several: fio_json_parts.c finds the elements without tokens,
 * the count parses them a megabyte at a time (only the members it reads:
 * name, group, host, port, options), the emit parses them again in parts of at most x->part
 * results' worth. Every error is the one-part parse's: streamed, a part
 * that fails sends the file to it (pb_parse_whole_error) and the parts
 * stored so far are rolled back. */
#include "ingest/fio/fio_json_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES ((size_t)1 << 20) /* element text parsed at once */
#define NOPOS       ((size_t)-1)

/* One host's jobs: an invocation (pb_fio_inv_base). */
struct hinv {
    char *host; /* NULL: local */
    struct pb_fio_inv iv;
};

/* The parse of one file. */
struct jpass {
    const struct pb_parse *x;
    const char *path, *buf;
    size_t len;
    struct pb_resultset *set;
    struct pb_err *err;
    struct pb_fio_file f;
    struct hinv *hi;
    size_t nhi, caphi;
    struct pb_fio_json_groups groups; /* json,normal: the normal groups */
    struct pb_resultset *dev, *imp;   /* facts kept until the end */
    int named;                        /* some job has a filename option */
    double ran, asked;                /* pb_fio_json_ran */
    size_t emitted;                   /* results, held ones too */
};

/* ==== small helpers ==== */

/* 1-based line and column of byte offset off in buf. */
static void line_col(const char *buf, size_t off, long *line, long *col)
{
    long l = 1;
    size_t bol = 0;
    for (size_t i = 0; i < off; i++) {
        if (buf[i] == '\n') {
            l++;
            bol = i + 1;
        }
    }
    *line = l;
    *col = (long)(off - bol) + 1;
}

static struct pb_fio_inv *inv_of(struct jpass *jp, const char *host)
{
    for (size_t i = 0; i < jp->nhi; i++)
        if (pb_fio_same_str(jp->hi[i].host, host))
            return &jp->hi[i].iv;
    PB_GROW(jp->hi, jp->caphi, jp->nhi + 1);
    struct hinv *h = &jp->hi[jp->nhi++];
    memset(h, 0, sizeof(*h));
    h->host = host ? pb_xstrdup(host) : NULL;
    return &h->iv;
}

/* ==== errors (the one-part parse's) ==== */

/* Offset of the nth (0-based) key `"name"` (a string followed by ':') in
 * the document, or (size_t)-1. A quote inside a string is escaped, so
 * string values cannot fake a key. */
static size_t find_key(const struct ctx *c, const char *name, size_t nth)
{
    const char *p = c->buf + c->start, *end = p + c->jlen;
    size_t n = strlen(name);
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            break;
        p = q + 1;
        if ((size_t)(end - p) < n + 1 || memcmp(p, name, n) != 0 || p[n] != '"')
            continue;
        const char *r = p + n + 1;
        while (r < end && isspace((unsigned char)*r))
            r++;
        if (r < end && *r == ':' && nth-- == 0)
            return (size_t)(q - c->buf);
    }
    return (size_t)-1;
}

/* Where entry idx's "error" key is, for the message about it: fio writes
 * that key only once per entry. */
static void locate_error(const struct ctx *c, size_t idx, long *line, long *col)
{
    size_t nth = 0;
    for (size_t i = 0; i < idx; i++)
        if (pb_json_get(c->doc, c->e[i].obj, "error") != PB_JSON_NONE)
            nth++;
    size_t off = find_key(c, "error", nth);
    if (off == (size_t)-1)
        off = c->start;
    line_col(c->buf, off, line, col);
}

static int json_error(const struct ctx *c, const struct pb_json_error *je)
{
    const char *buf = c->buf;
    long line, col;
    if (je->truncated) {
        /* where the text stops */
        size_t end = c->start + c->jlen;
        while (end > c->start && isspace((unsigned char)buf[end - 1]))
            end--;
        line_col(buf, end > c->start ? end - 1 : c->start, &line, &col);
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "truncated JSON: %s", je->msg);
    }
    line_col(buf, c->start + je->offset, &line, &col);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col, "invalid JSON: %s",
                      je->msg);
}

static int no_json(const char *path, const char *buf, size_t len,
                   struct pb_err *err)
{
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    const char *p = pb_skip_ws(buf, buf + len);
    long line, col;
    line_col(buf, (size_t)(p - buf), &line, &col);
    size_t n = 0;
    while (n < 120 && p + n < buf + len && p[n] != '\n' && p[n] != '\r')
        n++;
    if (n == 120 && p + n < buf + len) /* do not cut a UTF-8 sequence */
        while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
            n--;
    char first[128];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)p[i];
        first[k++] = (ch >= 0x80 || isprint(ch)) ? p[i] : '?';
    }
    first[k] = '\0';
    return pb_err_set(err, PB_EINPUT, path, line, 0,
                      "no JSON object found (first line: \"%s\")", first);
}

static int no_results(const struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (!isnan(e->error) && e->error != 0 &&
            !pb_fio_moved_data(&e->job.st)) {
            long line, col;
            locate_error(c, i, &line, &col);
            return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                              "job \"%s\" failed with error %.0f and did "
                              "no I/O",
                              e->job.name, e->error);
        }
    }
    long line, col;
    line_col(c->buf, c->start, &line, &col);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                      "no usable job in \"%s\"", c->arrname);
}

/* ==== count, emit, end: every part the same ==== */

/* Count the entries of part c into the file and their hosts'
 * invocations. */
static void count_part(struct jpass *jp, const struct ctx *c)
{
    for (size_t i = 0; i < c->ne; i++) {
        const struct entry *e = &c->e[i];
        if (e->is_agg)
            continue;
        struct pb_fio_json_src src = {c, e};
        const char *t = pb_fio_json_target(c, e);
        pb_fio_file_count(&jp->f, e->job.name,
                          pb_fio_json_meas(pb_json_number(
                              c->doc, pb_json_get(c->doc, e->obj,
                                                  "groupid"))),
                          e->job.host, t);
        pb_fio_file_options(&jp->f, pb_fio_json_each, &src);
        pb_fio_inv_add(inv_of(jp, e->job.host), e->job.name, t,
                       pb_fio_opts_sig(pb_fio_json_each, &src));
    }
}

static void counted(struct jpass *jp)
{
    pb_fio_file_counted(&jp->f, NULL, NULL);
    for (size_t i = 0; i < jp->nhi; i++)
        pb_fio_inv_done(&jp->hi[i].iv);
}

/* fio's steadystate section of a job (steadystate=, ss_dur=): whether
 * it was attained and over how long a window (docs/report.md,
 * "Over time"). */
static void steady_state(struct ctx *c, const struct entry *e)
{
    int ss = pb_json_get(c->doc, e->obj, "steadystate");
    double att = pb_json_number(c->doc, pb_json_get(c->doc, ss, "attained"));
    double dur = pb_json_number(c->doc, pb_json_get(c->doc, ss, "duration"));
    if (!e->job.usable || !isfinite(att))
        return;
    struct pb_resultset *set = pb_fio_job_set(c->set, c->f, &e->job);
    pb_rs_add(set, e->job.config, e->job.test, e->job.host, e->job.jobname,
              "ss_attained", "", PB_DIR_HIGHER, att != 0);
    if (isfinite(dur))
        pb_rs_add(set, e->job.config, e->job.test, e->job.host,
                  e->job.jobname, "ss_duration", "ns", PB_DIR_LOWER,
                  dur * 1e9);
}

/* The results of the first ne entries of part c; aside, the facts that
 * follow every result. */
static void emit_part(struct jpass *jp, struct ctx *c, size_t ne)
{
    for (size_t i = 0; i < ne; i++)
        if (!c->e[i].is_agg)
            pb_fio_json_file_job(c, &c->e[i], inv_of(jp, c->e[i].job.host));
    struct pb_resultset *set = jp->set, *held = jp->f.held;
    size_t before = set->nresults, hbefore = held->nresults;
    pb_fio_emit_all(set, &jp->f, &c->e[0].job, sizeof(c->e[0]), ne,
                    pb_fio_json_is_clone, NULL, pb_fio_json_build, c);
    for (size_t i = 0; i < ne; i++)
        steady_state(c, &c->e[i]);
    jp->emitted += set->nresults - before + held->nresults - hbefore;
    pb_fio_file_take(&jp->f);
    for (size_t i = 0; i < ne; i++) {
        const struct entry *e = &c->e[i];
        pb_fio_json_ran(c, e, &jp->ran, &jp->asked);
        if (e->is_agg || !e->job.usable)
            continue;
        const char *fn = pb_fio_json_opt(c, e, "filename");
        jp->named |= fn != NULL;
        if (e->hostname)
            pb_rs_fact(jp->dev, e->job.host, "hostname", e->hostname);
        pb_fio_fact_add(jp->dev, e->job.host, "device", fn);
    }
    pb_fio_flag_jobs(jp->imp, &c->e[0].job, sizeof(c->e[0]), ne);
}

/* The end of the file: the fold, then the facts (top: the document or
 * its skeleton, for disk_util). */
static void end(struct jpass *jp, struct pb_json *top, int clients,
                size_t start, size_t doc_end)
{
    struct pb_resultset *set = jp->set;
    pb_fio_file_fold(&jp->f, set);
    if (!jp->named && !clients)
        pb_fio_json_disk_util(set, top);
    pb_fio_copy_facts(set, jp->dev);
    pb_fio_json_interrupted(set, jp->buf, jp->len, start, doc_end, jp->ran,
                            jp->asked);
    pb_fio_flag_end(set, jp->imp);
}

/* ==== one part ==== */

/* The document parsed whole: its entries counted and emitted. */
static int one_part(struct jpass *jp)
{
    struct ctx c = {0};
    c.path = jp->path;
    c.buf = jp->buf;
    c.set = jp->set;
    c.err = jp->err;
    c.f = &jp->f;
    c.groups = &jp->groups;
    c.start = pb_fio_json_start(jp->buf, jp->len);
    if (c.start == (size_t)-1)
        return no_json(jp->path, jp->buf, jp->len, jp->err);
    c.jlen = jp->len - c.start;

    struct pb_json doc;
    struct pb_json_error je;
    if (pb_json_parse(&doc, jp->buf + c.start, c.jlen, &je) != 0)
        return json_error(&c, &je);
    c.doc = &doc;

    /* anything after the document may be text (json,normal) but not a
     * second document (runs appended to one file) */
    size_t used = doc.len, rest = c.start + used;
    size_t second = used < c.jlen
                        ? pb_fio_json_start(jp->buf + rest, jp->len - rest)
                        : (size_t)-1;
    int rc = PB_OK;
    long line, col;
    if (second != (size_t)-1) {
        line_col(jp->buf, rest + second, &line, &col);
        rc = pb_err_set(jp->err, PB_EINPUT, jp->path, line, col,
                        "a second JSON document starts here; one fio run "
                        "per file");
        goto out;
    }
    int root = pb_json_root(&doc);
    int arr = pb_json_get(&doc, root, "jobs");
    c.arrname = "jobs";
    if (pb_json_type(&doc, arr) != PB_JSON_ARRAY) {
        arr = pb_json_get(&doc, root, "client_stats");
        c.arrname = "client_stats";
    }
    if (pb_json_type(&doc, arr) != PB_JSON_ARRAY) {
        line_col(jp->buf, c.start, &line, &col);
        rc = pb_err_set(jp->err, PB_EINPUT, jp->path, line, col,
                        "not fio output: no \"jobs\" or \"client_stats\" "
                        "array");
        goto out;
    }
    pb_fio_json_head(&doc, root, jp->set);
    c.clients = !strcmp(c.arrname, "client_stats");
    pb_fio_json_globals(&c, pb_json_get(&doc, root, "global options"));
    rc = pb_fio_json_entries(&c, arr, (size_t)-1, 0, c.start, NULL, NULL);
    if (rc != PB_OK)
        goto out;
    pb_fio_json_hosts(&c);
    pb_fio_json_groups_read(&jp->groups, jp->buf + rest, jp->len - rest);
    count_part(jp, &c);
    counted(jp);
    emit_part(jp, &c, c.ne);
    if (jp->emitted == 0) {
        rc = no_results(&c);
        goto out;
    }
    end(jp, &doc, c.clients, c.start, rest);
out:
    free(c.e);
    pb_json_release(&doc);
    return rc;
}

/* ==== several parts ==== */

/* A part: elements [0, n) of the file's jobs at spans el[], the first
 * having index base in the array, parsed into doc and read into c
 * (counting: only the members the count reads,
 * pb_fio_json_count_text). PB_OK, or PB_EINPUT for an
 * error the one-part parse names. */
static int part_read(struct jpass *jp, const struct pb_fio_json_plan *p,
                     const size_t (*el)[2], size_t n, size_t base,
                     int counting, struct pb_json *doc, char **text,
                     struct ctx *c, size_t *eix)
{
    memset(c, 0, sizeof(*c));
    size_t tlen;
    *text = counting ? pb_fio_json_count_text(jp->buf, p, el, n, &tlen)
                     : pb_fio_json_part_text(jp->buf, p, el, n, &tlen);
    struct pb_json_error je;
    if (pb_json_parse(doc, *text, tlen, &je) != 0) {
        free(*text);
        *text = NULL;
        return PB_EINPUT;
    }
    c->path = jp->path;
    c->buf = jp->buf;
    c->start = p->start;
    c->jlen = p->doc_end - p->start;
    c->set = jp->set;
    c->err = jp->err;
    c->doc = doc;
    c->arrname = p->clients ? "client_stats" : "jobs";
    c->clients = p->clients;
    c->hps = &p->hps;
    c->aggs = p->aggs;
    c->f = &jp->f;
    c->groups = &jp->groups;
    if (doc->len != tlen)
        return PB_EINPUT;
    int gl = PB_JSON_NONE;
    struct pb_err lerr = {0};
    c->err = &lerr; /* the one-part parse says it */
    int rc = pb_fio_json_entries(c, pb_json_root(doc), n, base, el[0][0] - 1,
                                 eix, &gl);
    c->err = jp->err;
    if (rc != PB_OK)
        return PB_EINPUT;
    pb_fio_json_globals(c, gl);
    pb_fio_json_hosts(c);
    return PB_OK;
}

static void part_free(struct ctx *c, struct pb_json *doc, char *text)
{
    free(c->e);
    c->e = NULL;
    if (text) {
        pb_json_release(doc);
        free(text);
    }
}

/* The elements of the jobs array, a part at a time. */
struct walk {
    struct pb_fio_json_elems w;
    size_t (*el)[2], nel, cap, base;
    int r; /* pb_fio_json_elems_next's last */
};

/* More elements into w up to maxel of them or maxbytes of text: 0, or
 * -1 when the array is malformed. */
static int walk_fill(struct walk *w, size_t maxel, size_t maxbytes)
{
    size_t bytes = w->nel ? w->el[w->nel - 1][1] - w->el[0][0] : 0;
    while (w->nel < maxel && bytes < maxbytes) {
        int depth;
        size_t a, b;
        w->r = pb_fio_json_elems_next(&w->w, &a, &b, &depth);
        if (w->r != 1)
            break;
        PB_GROW(w->el, w->cap, w->nel + 1);
        w->el[w->nel][0] = a;
        w->el[w->nel][1] = b;
        w->nel++;
        bytes = b - w->el[0][0];
    }
    return w->r < 0 ? -1 : 0;
}

/* Drop the first done elements of w. */
static void walk_drop(struct walk *w, size_t done)
{
    memmove(w->el, w->el + done, (w->nel - done) * sizeof(*w->el));
    w->nel -= done;
    w->base += done;
}

/* The count: every element, a megabyte of text at a time. */
static int count_parts(struct jpass *jp, const struct pb_fio_json_plan *p)
{
    struct walk w = {0};
    w.r = 1;
    pb_fio_json_elems_init(&w.w, jp->buf, jp->len, p->jobs);
    int rc = PB_OK;
    while (rc == PB_OK) {
        if (walk_fill(&w, 4096, CHUNK_BYTES) < 0) {
            rc = PB_EINPUT;
            break;
        }
        if (w.nel == 0)
            break;
        struct pb_json doc;
        char *text;
        struct ctx c;
        rc = part_read(jp, p, (const size_t(*)[2])w.el, w.nel, w.base, 1,
                       &doc, &text, &c, NULL);
        if (rc == PB_OK)
            count_part(jp, &c);
        part_free(&c, &doc, text);
        pb_rs_consumed(jp->set, jp->buf + w.el[w.nel - 1][1]);
        walk_drop(&w, w.nel);
    }
    free(w.el);
    counted(jp);
    return rc;
}

/* Where the last group of numjobs clones of part c begins (c->ne when
 * the part ends with none): it may go on in the next part. When the file
 * has fio's "All clients" entries (client/server), the entries after the
 * last one: it takes the job, config and test of the entries before it
 * (nothing is open when the part ends with one). */
static size_t open_group(const struct ctx *c)
{
    if (c->aggs) {
        size_t after = 0; /* after the last "All clients"; clones never
                             span one */
        for (size_t i = 0; i < c->ne; i++)
            if (c->e[i].is_agg)
                after = i + 1;
        return after; /* c->ne: the part ends with one */
    }
    size_t open = c->ne;
    for (size_t i = 0; i < c->ne;) {
        if (!c->e[i].job.usable) {
            i++;
            continue;
        }
        size_t g = pb_fio_count_clones(&c->e[0].job, sizeof(c->e[0]), c->ne,
                                       i, pb_fio_json_is_clone, c);
        if (i + g == c->ne)
            open = i;
        i += g;
    }
    return open;
}

/* The emit: parts of at most x->part results' worth, each cut after its
 * last complete group of clones, stored when due. PB_OK, PB_EINPUT for
 * an error the one-part parse names, or minus the store's error. */
static int emit_parts(struct jpass *jp, const struct pb_fio_json_plan *p)
{
    struct walk w = {0};
    w.r = 1;
    pb_fio_json_elems_init(&w.w, jp->buf, jp->len, p->jobs);
    size_t part = jp->x->part, least = part < 4096 ? part : 4096;
    size_t maxel = least, maxbytes = CHUNK_BYTES;
    int rc = PB_OK;
    while (rc == PB_OK) {
        if (walk_fill(&w, maxel, maxbytes) < 0) {
            rc = PB_EINPUT;
            break;
        }
        if (w.nel == 0)
            break;
        int last = w.r == 0 || w.w.done;
        struct pb_json doc;
        char *text;
        struct ctx c;
        size_t *eix = pb_xcalloc(w.nel + 1, sizeof(*eix));
        rc = part_read(jp, p, (const size_t(*)[2])w.el, w.nel, w.base, 0,
                       &doc, &text, &c, eix);
        size_t open = rc == PB_OK ? open_group(&c) : 0;
        size_t done = last || open == c.ne ? w.nel : eix[open];
        if (rc == PB_OK && done > 0)
            emit_part(jp, &c, last ? c.ne : open);
        part_free(&c, &doc, text);
        free(eix);
        if (rc != PB_OK)
            break;
        if (done == 0) { /* one group of clones fills the part */
            maxel *= 2;
            maxbytes *= 2;
            continue;
        }
        const char *upto =
            jp->buf + (done < w.nel ? w.el[done][0] : w.el[w.nel - 1][1]);
        walk_drop(&w, done);
        maxel = least;
        maxbytes = CHUNK_BYTES;
        if (pb_rs_flush_due(jp->set, 0)) {
            rc = pb_rs_flush(jp->set, upto);
            if (rc != PB_OK)
                rc = -rc; /* the store's error, err filled */
        } else {
            pb_rs_consumed(jp->set, upto);
        }
        if (last && w.nel == 0)
            break;
    }
    free(w.el);
    return rc;
}

/* The document in parts (p: where they are). */
static int parts(struct jpass *jp, const struct pb_fio_json_plan *p)
{
    char *sktext = NULL;
    struct pb_json skel;
    if (pb_fio_json_skeleton(jp->buf, p, &sktext, &skel) != 0) {
        free(sktext);
        return PB_EINPUT;
    }
    int rc = count_parts(jp, p);
    if (rc == PB_OK) {
        pb_fio_json_groups_read(&jp->groups, jp->buf + p->doc_end,
                                jp->len - p->doc_end);
        pb_fio_json_head(&skel, pb_json_root(&skel), jp->set);
        rc = emit_parts(jp, p);
    }
    if (rc == PB_OK && jp->emitted == 0)
        rc = PB_EINPUT; /* the one-part parse names the failed job */
    if (rc == PB_OK)
        end(jp, &skel, p->clients, p->start, p->doc_end);
    pb_json_release(&skel);
    free(sktext);
    return rc;
}

/* ==== the parse ==== */

int pb_fio_json_parse(struct pb_parse *x)
{
    struct jpass jp = {0};
    jp.x = x;
    jp.path = x->path;
    jp.buf = x->buf;
    jp.len = x->len;
    jp.set = x->out;
    jp.err = x->err;
    jp.ran = jp.asked = NAN;
    pb_fio_file_init(&jp.f, x->path);
    jp.dev = pb_resultset_new();
    jp.imp = pb_resultset_new();
    struct pb_fio_json_plan p = {0};
    int several = x->part && pb_fio_json_plan(x->buf, x->len, x->out, &p);
    int rc = several ? parts(&jp, &p) : one_part(&jp);
    pb_fio_json_plan_release(&p);
    pb_fio_file_release(&jp.f);
    for (size_t i = 0; i < jp.nhi; i++) {
        free(jp.hi[i].host);
        pb_fio_inv_release(&jp.hi[i].iv);
    }
    free(jp.hi);
    pb_fio_json_groups_free(&jp.groups);
    pb_resultset_free(jp.dev);
    pb_resultset_free(jp.imp);
    if (several && rc < 0)
        return -rc;
    if (several && rc != PB_OK)
        return pb_parse_whole_error(x);
    return rc;
}

int pb_fio_json_read(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    struct pb_parse x = {.path = path, .buf = buf, .len = len, .out = set,
                         .err = err};
    return pb_fio_json_parse(&x);
}
