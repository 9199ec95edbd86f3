/* fio JSON: where the parts of a big document are, found without tokens
 * (ingest/lex/json_scan.c) so that no part needs the whole document in
 * memory: the document's span, its top-level members, the "jobs" array
 * and each of its elements, the "global options" object; and the
 * skeleton (the document without the jobs' text: version, global
 * options, disk_util). The parse over the parts is fio_json_pass.c's.
 *
 * What ties the entries together across parts is read here too: the
 * hostname and port of every client entry (client/server: a client is
 * "host:port" when its hostname has several ports). A document is one
 * part when some rule would need more: "steadystate" sections (their
 * results follow all others), keys written with escapes, a hostname
 * that is no plain string, very deep nesting, both or several entry
 * arrays, very large global options; and so is every document with an
 * error (the one-part parse names it). */
#include "ingest/fio/fio_json_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GOPTS_MAX  ((size_t)1 << 20) /* "global options" copied per part */
#define SCAN_DEPTH 30 /* nesting below a member; json.c refuses past 64 */
#define NOPOS      ((size_t)-1)

static int key_is(const char *text, const struct pb_json_member *m,
                  const char *name)
{
    size_t n = strlen(name);
    return m->key_end - m->key == n + 2 && !memcmp(text + m->key + 1, name, n);
}

/* What the plan reads of one element: its hostname, port and whether
 * its name is fio's "All clients" (raw spans in the text). */
struct jscan {
    size_t host, host_end; /* the value, quotes included */
    double port;
    int nhost, nport, nname, agg, name_esc;
};

/* A member of a job object: 1 when the element needs the whole
 * document, else what the plan reads noted in ctx. */
static int job_member(void *ctx, const char *text,
                      const struct pb_json_member *m)
{
    struct jscan *j = ctx;
    if (memchr(text + m->key, '\\', m->key_end - m->key) != NULL ||
        m->depth > SCAN_DEPTH - 2 || key_is(text, m, "steadystate"))
        return 1;
    size_t vlen = m->val_end - m->val;
    const char *v = text + m->val;
    if (key_is(text, m, "hostname")) {
        /* a name written with escapes, or no string: one part */
        if (j->nhost++ || *v != '"' || memchr(v, '\\', vlen))
            return 1;
        j->host = m->val;
        j->host_end = m->val_end;
    } else if (key_is(text, m, "port")) {
        if (j->nport++)
            return 1;
        char b[64];
        if (vlen < sizeof(b) && (*v == '-' || (*v >= '0' && *v <= '9'))) {
            memcpy(b, v, vlen);
            b[vlen] = '\0';
            j->port = strtod(b, NULL);
            if (!isfinite(j->port))
                j->port = NAN;
        }
    } else if (key_is(text, m, "jobname")) {
        j->nname++;
        j->agg = vlen == 13 && !memcmp(v, "\"All clients\"", 13);
        j->name_esc = *v == '"' && memchr(v, '\\', vlen) != NULL;
    }
    return 0;
}

void pb_fio_json_elems_init(struct pb_fio_json_elems *w, const char *text,
                            size_t len, size_t arr)
{
    w->text = text;
    w->len = len;
    w->i = pb_json_scan_ws(text, len, arr + 1);
    w->done = w->i < len && text[w->i] == ']';
}

int pb_fio_json_elems_next(struct pb_fio_json_elems *w, size_t *el,
                           size_t *end, int *depth)
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

/* The first pass over the entries' array at map[at]: 1 when every
 * element can be read on its own (its end in *end, the clients' hostnames
 * and ports into p). Releases the pages it read. */
static int plan_array(const char *map, size_t len, struct pb_resultset *set,
                      struct pb_fio_json_plan *p, size_t at, size_t *end_out)
{
    struct pb_fio_json_elems w;
    pb_fio_json_elems_init(&w, map, len, at);
    size_t el, end;
    int depth, r;
    while ((r = pb_fio_json_elems_next(&w, &el, &end, &depth)) == 1) {
        if (depth > SCAN_DEPTH - 2)
            return 0;
        struct jscan j = {0};
        j.port = NAN;
        if (map[el] == '{' &&
            pb_json_scan_object(map, end, el, job_member, &j) != end)
            return 0;
        if (j.nname > 1 || (j.nhost && j.name_esc))
            return 0;
        p->aggs |= j.nhost && j.agg;
        if (j.nhost && !j.agg) {
            char *h = pb_xstrndup(map + j.host + 1, j.host_end - j.host - 2);
            size_t before = p->hps.n;
            pb_fio_json_hps_add(&p->hps, h, j.port);
            if (p->hps.n == before)
                free(h);
        }
        pb_rs_consumed(set, map + end);
    }
    if (r < 0)
        return 0;
    *end_out = w.i + 1;
    return 1;
}

void pb_fio_json_plan_release(struct pb_fio_json_plan *p)
{
    for (size_t i = 0; i < p->hps.n; i++)
        free((char *)p->hps.v[i].host);
    free(p->hps.v);
    memset(&p->hps, 0, sizeof(p->hps));
}

int pb_fio_json_plan(const char *t, size_t len, struct pb_resultset *set,
                     struct pb_fio_json_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->start = pb_fio_json_start(t, len);
    if (p->start == NOPOS)
        return 0;
    p->gopts = NOPOS;
    int njobs = 0;
    size_t i = pb_json_scan_ws(t, len, p->start + 1);
    if (i < len && t[i] == '}')
        return 0;
    for (;;) {
        struct pb_json_member m;
        int depth;
        if (i >= len || t[i] != '"')
            return 0;
        m.key = i;
        m.key_end = pb_json_scan_value(t, len, i, &depth);
        if (m.key_end == NOPOS ||
            memchr(t + m.key, '\\', m.key_end - m.key) != NULL)
            return 0;
        i = pb_json_scan_ws(t, len, m.key_end);
        if (i >= len || t[i] != ':')
            return 0;
        m.val = pb_json_scan_ws(t, len, i + 1);
        int cs = key_is(t, &m, "client_stats");
        if ((key_is(t, &m, "jobs") || cs) && m.val < len && t[m.val] == '[') {
            /* one array of entries, "jobs" or (client/server)
             * "client_stats" */
            p->jobs = m.val;
            p->clients = cs;
            if (njobs++ || !plan_array(t, len, set, p, m.val, &p->jobs_end))
                return 0;
            m.val_end = p->jobs_end;
        } else {
            m.val_end = pb_json_scan_value(t, len, m.val, &depth);
            if (m.val_end == NOPOS || depth > SCAN_DEPTH)
                return 0;
            if (key_is(t, &m, "jobs") || cs)
                return 0; /* not an array: the one-part parse says so */
        }
        pb_rs_consumed(set, t + m.val_end);
        if (key_is(t, &m, "global options")) {
            p->gopts = m.val;
            p->gopts_end = m.val_end;
        }
        i = pb_json_scan_ws(t, len, m.val_end);
        if (i < len && t[i] == '}')
            break;
        if (i >= len || t[i] != ',')
            return 0;
        i = pb_json_scan_ws(t, len, i + 1);
    }
    p->doc_end = i + 1;
    pb_rs_consumed(set, t + p->doc_end);
    if (njobs != 1 || (p->gopts != NOPOS && p->gopts_end - p->gopts > GOPTS_MAX))
        return 0;
    /* a second document: the one-part parse refuses it */
    return pb_fio_json_start(t + p->doc_end, len - p->doc_end) == NOPOS;
}

int pb_fio_json_skeleton(const char *map, const struct pb_fio_json_plan *p,
                         char **text, struct pb_json *doc)
{
    size_t a = p->jobs + 1 - p->start, b = p->doc_end - (p->jobs_end - 1);
    *text = pb_xmalloc(a + b + 1);
    memcpy(*text, map + p->start, a);
    memcpy(*text + a, map + p->jobs_end - 1, b);
    struct pb_json_error je;
    if (pb_json_parse(doc, *text, a + b, &je) != 0)
        return -1;
    if (doc->len != a + b) {
        pb_json_release(doc);
        return -1;
    }
    return 0;
}

char *pb_fio_json_part_text(const char *map, const struct pb_fio_json_plan *p,
                            const size_t (*el)[2], size_t n, size_t *tlen)
{
    const char *g = p->gopts == NOPOS ? "null" : map + p->gopts;
    size_t glen = p->gopts == NOPOS ? 4 : p->gopts_end - p->gopts;
    size_t body = el[n - 1][1] - el[0][0];
    char *text = pb_xmalloc(body + glen + 4);
    text[0] = '[';
    memcpy(text + 1, map + el[0][0], body);
    text[1 + body] = ',';
    memcpy(text + 2 + body, g, glen);
    text[2 + body + glen] = ']';
    *tlen = body + glen + 3;
    return text;
}

/* The members of a job object the count reads (pb_fio_json_count_text),
 * copied to b. */
struct cbuf {
    char *b;
    size_t n, cap;
    int any; /* a member was copied into the current object */
};

static void cbuf_put(struct cbuf *c, const char *s, size_t n)
{
    PB_GROW(c->b, c->cap, c->n + n + 1);
    memcpy(c->b + c->n, s, n);
    c->n += n;
}

static int count_member(void *ctx, const char *text,
                        const struct pb_json_member *m)
{
    static const char *const keys[] = {"jobname", "groupid", "hostname",
                                       "port", "job options", NULL};
    struct cbuf *c = ctx;
    for (size_t k = 0; keys[k]; k++) {
        if (!key_is(text, m, keys[k]))
            continue;
        if (c->any++)
            cbuf_put(c, ",", 1);
        cbuf_put(c, text + m->key, m->val_end - m->key);
        break;
    }
    return 0;
}

char *pb_fio_json_count_text(const char *map, const struct pb_fio_json_plan *p,
                             const size_t (*el)[2], size_t n, size_t *tlen)
{
    struct cbuf c = {0};
    cbuf_put(&c, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (map[el[i][0]] == '{') {
            c.any = 0;
            cbuf_put(&c, "{", 1);
            pb_json_scan_object(map, el[i][1], el[i][0], count_member, &c);
            cbuf_put(&c, "},", 2);
        } else {
            cbuf_put(&c, "0,", 2); /* no entry, but an element */
        }
    }
    const char *g = p->gopts == NOPOS ? "null" : map + p->gopts;
    cbuf_put(&c, g, p->gopts == NOPOS ? 4 : p->gopts_end - p->gopts);
    cbuf_put(&c, "]", 1);
    *tlen = c.n;
    return c.b;
}
