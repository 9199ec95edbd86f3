/* fio JSON streamed: a large file of one local run parsed a chunk of jobs
 * at a time, its results stored in parts (docs/performance.md, "Streaming
 * ingest", fio JSON). The steps per job are fio_json.c's. */
#include "ingest/fio/fio_json_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== streamed (docs/performance.md, "Streaming ingest") ====
 * A large file of one local run: a first pass over the mapped text finds
 * the document, its top-level members and each element of "jobs" without
 * tokens; then the jobs are parsed a chunk at a time, the chunk's text
 * "[" JOBS "," GLOBAL-OPTIONS "]" copied from the file, and their results
 * handed to the store in parts. A group of numjobs clones is never cut:
 * the last group of a chunk is parsed again with the next. Files that
 * need every job at once (client/server "hostname"s, "steadystate" after
 * all results, keys written with escapes, very deep nesting) are parsed
 * whole, and so is every file with an error: the message is then the
 * whole parse's, and the parts stored so far are rolled back. */

#define CHUNK_BYTES ((size_t)1 << 20) /* job text parsed at once */
#define GOPTS_MAX   ((size_t)1 << 20) /* "global options" copied per chunk */
#define SCAN_DEPTH  30 /* nesting below a member; json.c refuses past 64 */
#define NOPOS       ((size_t)-1)

struct stream {
    const char *path, *map;
    size_t len, start, doc_end; /* the document: map[start .. doc_end) */
    size_t jobs, jobs_end;      /* the "jobs" array */
    size_t gopts, gopts_end;    /* "global options", or gopts = NOPOS */
    int njobs;
    struct pb_resultset *set;
    size_t part;                    /* results a part holds */
    struct pb_resultset *dev, *imp; /* facts kept until the end */
    size_t emitted;                 /* results of emit_all, every part */
    int named;                      /* some job has a filename option */
    double ran, asked;              /* as runtimes() */
    struct pb_fio_file f;           /* what ties the jobs together */
    struct pb_fio_inv inv;          /* how each target's jobs are
                                       labelled (pb_fio_inv_base) */
    struct pb_fio_json_groups groups; /* json,normal: the normal groups */
};

static int key_is(const char *text, const struct pb_json_member *m,
                  const char *name)
{
    size_t n = strlen(name);
    return m->key_end - m->key == n + 2 && !memcmp(text + m->key + 1, name, n);
}

/* A member of a job object that needs the whole file. */
static int job_member(void *ctx, const char *text,
                      const struct pb_json_member *m)
{
    (void)ctx;
    return memchr(text + m->key, '\\', m->key_end - m->key) != NULL ||
           m->depth > SCAN_DEPTH - 2 || key_is(text, m, "hostname") ||
           key_is(text, m, "steadystate");
}

/* Walks the elements of the array at map[arr]. */
struct elems {
    const char *text;
    size_t len, i;
    int done;
};

static void elems_init(struct elems *w, const char *text, size_t len,
                       size_t arr)
{
    w->text = text;
    w->len = len;
    w->i = pb_json_scan_ws(text, len, arr + 1);
    w->done = w->i < len && text[w->i] == ']';
}

/* 1 with the next element's span, 0 after the last, -1 when malformed. */
static int elems_next(struct elems *w, size_t *el, size_t *end, int *depth)
{
    if (w->done)
        return 0;
    *el = w->i;
    *end = pb_json_scan_value(w->text, w->len, w->i, depth);
    if (*end == NOPOS)
        return -1;
    size_t i = pb_json_scan_ws(w->text, w->len, *end);
    if (i < w->len && w->text[i] == ']') {
        w->done = 1;
    } else if (i < w->len && w->text[i] == ',') {
        i = pb_json_scan_ws(w->text, w->len, i + 1);
    } else {
        return -1;
    }
    w->i = i;
    return 1;
}

/* The first pass over the jobs array: 1 when every element can be read
 * on its own. Releases the pages it read. */
static int plan_jobs(struct stream *s)
{
    struct elems w;
    elems_init(&w, s->map, s->len, s->jobs);
    size_t el, end;
    int depth, r;
    while ((r = elems_next(&w, &el, &end, &depth)) == 1) {
        if (depth > SCAN_DEPTH - 2)
            return 0;
        if (s->map[el] == '{' &&
            pb_json_scan_object(s->map, end, el, job_member, NULL) != end)
            return 0;
        pb_rs_consumed(s->set, s->map + end);
    }
    if (r < 0)
        return 0;
    s->jobs_end = w.i + 1;
    return 1;
}

/* The first pass: 1 when the file can be streamed (s filled), 0 when it
 * is parsed whole (it may hold an error: that parse reports it). */
static int plan(struct stream *s)
{
    const char *t = s->map;
    s->start = pb_fio_json_start(t, s->len);
    if (s->start == NOPOS)
        return 0;
    s->gopts = NOPOS;
    size_t i = pb_json_scan_ws(t, s->len, s->start + 1);
    if (i < s->len && t[i] == '}')
        return 0;
    for (;;) {
        struct pb_json_member m;
        int depth;
        if (i >= s->len || t[i] != '"')
            return 0;
        m.key = i;
        m.key_end = pb_json_scan_value(t, s->len, i, &depth);
        if (m.key_end == NOPOS ||
            memchr(t + m.key, '\\', m.key_end - m.key) != NULL)
            return 0;
        i = pb_json_scan_ws(t, s->len, m.key_end);
        if (i >= s->len || t[i] != ':')
            return 0;
        m.val = pb_json_scan_ws(t, s->len, i + 1);
        if (key_is(t, &m, "client_stats"))
            return 0;
        if (key_is(t, &m, "jobs") && m.val < s->len && t[m.val] == '[') {
            s->jobs = m.val;
            if (s->njobs++ || !plan_jobs(s))
                return 0;
            m.val_end = s->jobs_end;
        } else {
            m.val_end = pb_json_scan_value(t, s->len, m.val, &depth);
            if (m.val_end == NOPOS || depth > SCAN_DEPTH)
                return 0;
            if (key_is(t, &m, "jobs"))
                return 0; /* not an array: the whole parse says so */
        }
        pb_rs_consumed(s->set, t + m.val_end);
        if (key_is(t, &m, "global options")) {
            s->gopts = m.val;
            s->gopts_end = m.val_end;
        }
        i = pb_json_scan_ws(t, s->len, m.val_end);
        if (i < s->len && t[i] == '}')
            break;
        if (i >= s->len || t[i] != ',')
            return 0;
        i = pb_json_scan_ws(t, s->len, i + 1);
    }
    s->doc_end = i + 1;
    pb_rs_consumed(s->set, s->map + s->doc_end);
    if (s->njobs != 1 ||
        (s->gopts != NOPOS && s->gopts_end - s->gopts > GOPTS_MAX))
        return 0;
    /* a second document: the whole parse refuses it */
    return pb_fio_json_start(t + s->doc_end, s->len - s->doc_end) == NOPOS;
}

/* ==== pass 1b: what ties the jobs together ==== */

/* What the count reads of a job object: spans in the mapped text. */
struct jpeek {
    size_t name, name_end; /* "jobname" value, quotes included */
    size_t gid, gid_end;   /* "groupid" value */
    size_t jo, jo_end;     /* "job options" value */
};

static int peek_member(void *ctx, const char *text,
                       const struct pb_json_member *m)
{
    struct jpeek *p = ctx;
    if (key_is(text, m, "jobname")) {
        p->name = m->val;
        p->name_end = m->val_end;
    } else if (key_is(text, m, "groupid")) {
        p->gid = m->val;
        p->gid_end = m->val_end;
    } else if (key_is(text, m, "job options")) {
        p->jo = m->val;
        p->jo_end = m->val_end;
    }
    return 0;
}

struct gctx {
    struct pb_json *skel;
    int gopts;
};

static const char *global_opt(const void *ctx, const char *key)
{
    const struct gctx *g = ctx;
    return str(g->skel, g->gopts, key);
}

/* An option of the job: its own (parsed "job options", may be NULL),
 * else the global one. */
static const char *job_opt(struct pb_json *own, const struct gctx *g,
                           const char *key)
{
    const char *v = own ? str(own, pb_json_root(own), key) : NULL;
    return v ? v : global_opt(g, key);
}

/* A job's options as the whole parse gives them (pb_fio_json_each): its
 * own, then the global ones it does not set. */
struct both {
    struct pb_json *own; /* NULL: none */
    struct pb_json *skel;
    int gopts;
    pb_fio_opt_fn fn;
    void *arg;
};

static void global_not_own(void *arg, const char *key, const char *value)
{
    struct both *b = arg;
    if (!b->own || pb_json_get(b->own, pb_json_root(b->own), key) ==
                       PB_JSON_NONE)
        b->fn(b->arg, key, value);
}

static void each_both(const void *ctx, pb_fio_opt_fn fn, void *arg)
{
    struct both b = *(const struct both *)ctx;
    b.fn = fn;
    b.arg = arg;
    if (b.own) {
        struct pb_fio_json_own o = {b.own, pb_json_root(b.own)};
        pb_fio_json_each_own(&o, fn, arg);
    }
    struct pb_fio_json_own g = {b.skel, b.gopts};
    pb_fio_json_each_own(&g, global_not_own, &b);
}

/* Every job counted into s->f as the whole parse counts its entries
 * (pb_fio_json_count): name, group, target, options. 1 when done, 0
 * when the file is parsed whole (a name written with escapes). */
static int count_jobs(struct stream *s, struct pb_json *skel)
{
    struct gctx g = {skel, pb_json_get(skel, pb_json_root(skel),
                                       "global options")};
    struct elems w;
    elems_init(&w, s->map, s->len, s->jobs);
    size_t el, end, idx = 0;
    int depth, r, ok = 1;
    struct pb_fio_inv *iv = &s->inv;
    while (ok && (r = elems_next(&w, &el, &end, &depth)) == 1) {
        if (s->map[el] != '{') {
            idx++;
            continue;
        }
        struct jpeek p = {NOPOS, NOPOS, NOPOS, NOPOS, NOPOS, NOPOS};
        pb_json_scan_object(s->map, end, el, peek_member, &p);
        char *name;
        if (p.name != NOPOS && s->map[p.name] == '"' &&
            p.name_end - p.name > 2) {
            if (memchr(s->map + p.name, '\\', p.name_end - p.name)) {
                ok = 0;
                break;
            }
            name = pb_xstrndup(s->map + p.name + 1, p.name_end - p.name - 2);
        } else {
            name = pb_xasprintf("job%zu", idx + 1);
        }
        double gid = NAN;
        if (p.gid != NOPOS && p.gid_end - p.gid < 64 &&
            (s->map[p.gid] == '-' ||
             (s->map[p.gid] >= '0' && s->map[p.gid] <= '9'))) {
            char b[64];
            memcpy(b, s->map + p.gid, p.gid_end - p.gid);
            b[p.gid_end - p.gid] = '\0';
            gid = strtod(b, NULL);
        }
        struct pb_json own;
        struct pb_json_error je;
        int have = p.jo != NOPOS && s->map[p.jo] == '{' &&
                   pb_json_parse(&own, s->map + p.jo, p.jo_end - p.jo,
                                 &je) == 0;
        const char *t = job_opt(have ? &own : NULL, &g, "filename");
        if (!t)
            t = job_opt(have ? &own : NULL, &g, "directory");
        pb_fio_file_count(&s->f, name, pb_fio_json_meas(gid), NULL, t);
        struct both b = {have ? &own : NULL, skel, g.gopts, NULL, NULL};
        pb_fio_file_options(&s->f, each_both, &b);
        pb_fio_inv_add(iv, name, t, pb_fio_opts_sig(each_both, &b));
        if (have)
            pb_json_release(&own);
        free(name);
        pb_rs_consumed(s->set, s->map + end);
        idx++;
    }
    pb_fio_inv_done(iv);
    if (!ok || r < 0)
        return 0;
    pb_fio_file_counted(&s->f, NULL, NULL);
    return 1;
}

/* The document without the jobs' text ("jobs": []), parsed: the version,
 * global options and disk_util; checks every byte outside the jobs. */
static int skeleton(const struct stream *s, char **text, struct pb_json *doc)
{
    size_t a = s->jobs + 1 - s->start, b = s->doc_end - (s->jobs_end - 1);
    *text = pb_xmalloc(a + b + 1);
    memcpy(*text, s->map + s->start, a);
    memcpy(*text + a, s->map + s->jobs_end - 1, b);
    struct pb_json_error je;
    if (pb_json_parse(doc, *text, a + b, &je) != 0)
        return -1;
    if (doc->len != a + b) {
        pb_json_release(doc);
        return -1;
    }
    return 0;
}

/* Results held for the fold so far (emitted, counted as such). */
static size_t held_count(const struct stream *s)
{
    return s->f.held->nresults;
}

/* One chunk: elements [0, n) of the file's jobs at spans el[], the first
 * having index `base` in the array; the results of every complete group
 * of clones (all of them when `last`). *nel: elements done (the rest
 * begin the next chunk); 0 when the chunk is one open group. PB_OK, or
 * PB_EINPUT for an error the whole parse will name. */
static int chunk(struct stream *s, const size_t (*el)[2], size_t n, size_t base,
                 int last, const char *gtext, size_t glen, size_t *nel)
{
    *nel = 0;
    size_t body = el[n - 1][1] - el[0][0];
    char *text = pb_xmalloc(body + glen + 4);
    text[0] = '[';
    memcpy(text + 1, s->map + el[0][0], body);
    text[1 + body] = ',';
    memcpy(text + 2 + body, gtext, glen);
    text[2 + body + glen] = ']';
    size_t tlen = body + glen + 3;

    struct pb_json doc;
    struct pb_json_error je;
    struct pb_err lerr = {0};
    if (pb_json_parse(&doc, text, tlen, &je) != 0) {
        free(text);
        return PB_EINPUT;
    }
    int rc = doc.len == tlen ? PB_OK : PB_EINPUT;
    struct ctx c = {0};
    c.path = s->path;
    c.buf = s->map;
    c.start = s->start;
    c.jlen = s->doc_end - s->start;
    c.set = s->set;
    c.err = &lerr;
    c.doc = &doc;
    c.arrname = "jobs";
    c.global_mult = 1;
    c.f = &s->f;
    c.groups = &s->groups;
    size_t *eix = pb_xcalloc(n + 1, sizeof(*eix));
    int gl = PB_JSON_NONE;
    if (rc == PB_OK)
        rc = pb_fio_json_entries(&c, pb_json_root(&doc), n, base,
                                 el[0][0] - 1, eix, &gl);
    if (rc != PB_OK)
        goto out;
    /* the global options */
    c.global = is_object(&doc, gl) || pb_json_type(&doc, gl) == PB_JSON_ARRAY
                   ? gl
                   : PB_JSON_NONE;
    pb_fio_json_hosts(&c);
    /* where the last group of clones begins: it may go on */
    size_t open = c.ne;
    for (size_t i = 0; i < c.ne;) {
        if (!c.e[i].job.usable) {
            i++;
            continue;
        }
        size_t g = pb_fio_count_clones(&c.e[0].job, sizeof(c.e[0]), c.ne, i,
                                       pb_fio_json_is_clone, &c);
        if (i + g == c.ne)
            open = i;
        i += g;
    }
    size_t ne = last ? c.ne : open;
    *nel = last || open == c.ne ? n : eix[open];
    if (*nel == 0)
        goto out;
    for (size_t i = 0; i < ne; i++) /* local jobs: host NULL */
        pb_fio_json_file_job(&c, &c.e[i], &s->inv);
    size_t before = s->set->nresults, held = held_count(s);
    pb_fio_emit_all(s->set, &s->f, &c.e[0].job, sizeof(c.e[0]), ne,
                    pb_fio_json_is_clone, NULL, pb_fio_json_build, &c);
    s->emitted += s->set->nresults - before + held_count(s) - held;
    pb_fio_file_take(&s->f);
    for (size_t i = 0; i < ne; i++) {
        const struct entry *e = &c.e[i];
        if (!e->job.usable)
            continue;
        const char *fn = pb_fio_json_opt(&c, e, "filename");
        s->named |= fn != NULL;
        pb_fio_fact_add(s->dev, e->job.host, "device", fn);
        pb_fio_json_ran(&c, e, &s->ran, &s->asked);
    }
    pb_fio_flag_jobs(s->imp, &c.e[0].job, sizeof(c.e[0]), ne);
out:
    free(eix);
    free(c.e);
    pb_json_release(&doc);
    free(text);
    return rc;
}

/* pass 2: the jobs a chunk at a time. */
static int stream_jobs(struct stream *s, const char *gtext, size_t glen)
{
    struct elems w;
    elems_init(&w, s->map, s->len, s->jobs);
    size_t part = s->part;
    size_t maxel = part < 4096 ? part : 4096, maxbytes = CHUNK_BYTES;
    size_t(*el)[2] = NULL, nel = 0, cap = 0, base = 0;
    int rc = PB_OK, r = 1;
    while (rc == PB_OK) {
        size_t bytes = nel ? el[nel - 1][1] - el[0][0] : 0;
        while (nel < maxel && bytes < maxbytes) {
            int depth;
            size_t a, b;
            r = elems_next(&w, &a, &b, &depth);
            if (r != 1)
                break;
            PB_GROW(el, cap, nel + 1);
            el[nel][0] = a;
            el[nel][1] = b;
            nel++;
            bytes = b - el[0][0];
        }
        if (r < 0) {
            rc = PB_EINPUT;
            break;
        }
        if (nel == 0)
            break;
        int last = r == 0 || w.done;
        size_t done = 0;
        rc = chunk(s, (const size_t(*)[2])el, nel, base, last, gtext, glen,
                   &done);
        if (rc != PB_OK)
            break;
        if (done == 0) { /* one group of clones fills the chunk */
            maxel *= 2;
            maxbytes *= 2;
            continue;
        }
        const char *upto = s->map + (done < nel ? el[done][0] : el[nel - 1][1]);
        memmove(el, el + done, (nel - done) * sizeof(*el));
        nel -= done;
        base += done;
        maxel = part < 4096 ? part : 4096;
        maxbytes = CHUNK_BYTES;
        if (pb_rs_flush_due(s->set, 0)) {
            rc = pb_rs_flush(s->set, upto);
            if (rc != PB_OK) {
                free(el);
                return -rc; /* the store's error, err filled */
            }
        } else {
            pb_rs_consumed(s->set, upto);
        }
        if (last && nel == 0)
            break;
    }
    free(el);
    return rc;
}

/* The facts the whole parse gives after its results, in its order. */
static void stream_facts(struct stream *s, struct pb_json *skel)
{
    struct pb_resultset *set = s->set;
    if (s->named) {
        pb_fio_copy_facts(set, s->dev);
    } else {
        pb_fio_json_disk_util(set, skel);
    }
    pb_fio_json_interrupted(set, s->map, s->len, s->start, s->doc_end, s->ran,
                            s->asked);
    pb_fio_flag_end(set, s->imp);
}

int pb_fio_json_stream(const struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
    struct stream s = {0};
    s.path = path;
    s.map = buf;
    s.len = len;
    s.set = set;
    s.part = x->part;
    s.ran = s.asked = NAN;
    if (!plan(&s))
        return pb_fio_json_whole(path, buf, len, set, err);
    char *sktext = NULL;
    struct pb_json skel;
    if (skeleton(&s, &sktext, &skel) != 0) {
        free(sktext);
        return pb_parse_whole_error(x);
    }
    pb_fio_file_init(&s.f, path);
    if (!count_jobs(&s, &skel)) {
        pb_fio_file_release(&s.f);
        pb_fio_inv_release(&s.inv);
        pb_json_release(&skel);
        free(sktext);
        return pb_fio_json_whole(path, buf, len, set, err);
    }
    pb_fio_json_groups_read(&s.groups, buf + s.doc_end, len - s.doc_end);
    pb_fio_json_head(&skel, pb_json_root(&skel), set);
    char *gtext = s.gopts == NOPOS
                      ? pb_xstrdup("null")
                      : pb_xstrndup(buf + s.gopts, s.gopts_end - s.gopts);
    s.dev = pb_resultset_new();
    s.imp = pb_resultset_new();
    int rc = stream_jobs(&s, gtext, strlen(gtext));
    if (rc == PB_OK && s.emitted == 0)
        rc = PB_EINPUT; /* the whole parse names the failed job */
    if (rc == PB_OK) {
        pb_fio_file_fold(&s.f, set);
        stream_facts(&s, &skel);
    }
    pb_fio_file_release(&s.f);
    pb_fio_inv_release(&s.inv);
    pb_fio_json_groups_free(&s.groups);
    pb_resultset_free(s.dev);
    pb_resultset_free(s.imp);
    free(gtext);
    pb_json_release(&skel);
    free(sktext);
    if (rc < 0)
        return -rc;
    if (rc != PB_OK)
        return pb_parse_whole_error(x);
    return PB_OK;
}
