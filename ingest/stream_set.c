/* Streamed sources: a large file of a format that can be streamed is
 * mapped read-only (never copied), hashed and checked for NUL bytes in one
 * pass that releases its pages behind it, and parsed later in the
 * caller's thread, the parser handing the rows to the store in parts
 * (pb_rs_flush). Peak memory is then a constant plus what the parser must
 * keep open, not the file size. docs/performance.md, "Streaming ingest". */
#define _GNU_SOURCE
#include "ingest/ingest_int.h"
#include "common/pb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK ((size_t)1 << 20) /* hashing and page release step */

struct pb_rs_stream {
    const struct pb_parser *parser;
    const struct pb_ingest_opts *opts;
    char *path; /* the parser's: set->path moves at each flush */
    char *map;
    size_t len;
    size_t dropped; /* bytes from map whose pages were released */
    pb_ingest_part_fn fn;
    void *ctx;
    struct pb_err *err;
    int ran;
    size_t flushed; /* results handed to fn so far */
    size_t part;    /* PB_STREAM_PART */
    /* facts the ingest options added to earlier parts (label_origin),
     * held for the last part */
    struct pb_fact *held; /* strings malloc'd */
    size_t nheld, capheld;
    /* the first "hostname" and "uname" facts of the parts stored so far
     * (what pb_ingest_apply reads of a source, context.c); value NULL:
     * none yet. Strings malloc'd. */
    struct pb_fact context[2];
};

static const char *const context_keys[2] = {"hostname", "uname"};

/* PB_STREAM_MIN and PB_STREAM_PART, or for the tests the environment's
 * POOLBENCH_STREAM_MIN (bytes) and POOLBENCH_STREAM_PART (results): with
 * 0 and 1, every fixture is streamed and flushed at every chance. */
static size_t knob(const char *name, size_t def)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end ? def : (size_t)n;
}

/* The smallest stream_min of the parsers that stream: a smaller file is
 * not looked at. 0 when none streams. */
static size_t smallest_min(void)
{
    size_t min = 0;
    for (size_t i = 0; pb_parsers[i]; i++) {
        const struct pb_parser *p = pb_parsers[i];
        if ((p->flags & PB_PARSER_STREAMS) &&
            (min == 0 || p->stream_min < min))
            min = p->stream_min;
    }
    return min;
}

int pb_ingest_streaming(const struct pb_resultset *set)
{
    return set && set->stream && !set->stream->ran;
}

void pb_rs_consumed(struct pb_resultset *set, const char *done)
{
    struct pb_rs_stream *st = set ? set->stream : NULL;
    if (!st || !st->map || done < st->map || done > st->map + st->len)
        return;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t upto = (size_t)(done - st->map) / page * page;
    if (upto < st->dropped)
        st->dropped = 0; /* a new pass over the input began */
    if (upto <= st->dropped)
        return;
    /* a private read-only mapping: the pages go back to the page cache
     * and are read again from the file if touched */
    madvise(st->map + st->dropped, upto - st->dropped, MADV_DONTNEED);
    st->dropped = upto;
}

void pb_rs_release(struct pb_resultset *set, const char *from,
                   const char *upto)
{
    struct pb_rs_stream *st = set ? set->stream : NULL;
    if (!st || !st->map || from < st->map || upto > st->map + st->len ||
        from >= upto)
        return;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t a = ((size_t)(from - st->map) + page - 1) / page * page;
    size_t b = (size_t)(upto - st->map) / page * page;
    if (a < b)
        madvise(st->map + a, b - a, MADV_DONTNEED);
}

static void stream_free(struct pb_rs_stream *st)
{
    if (!st)
        return;
    if (st->map)
        munmap(st->map, st->len);
    for (size_t i = 0; i < st->nheld; i++) {
        free((char *)st->held[i].host);
        free((char *)st->held[i].key);
        free((char *)st->held[i].value);
    }
    free(st->held);
    for (size_t i = 0; i < 2; i++) {
        free((char *)st->context[i].host);
        free((char *)st->context[i].key);
        free((char *)st->context[i].value);
    }
    free(st->path);
    free(st);
}

int pb_parse_whole_error(const struct pb_parse *x)
{
    struct pb_resultset *tmp = pb_resultset_new();
    int rc = pb_parser_run(x->parser, x->path, x->buf, x->len, tmp, x->err);
    pb_resultset_free(tmp);
    if (rc == PB_OK)
        rc = pb_err_set(x->err, PB_EINPUT, x->path, 0, 0,
                        "%s: the streamed parse failed where the whole file "
                        "parses",
                        x->parser->name);
    return rc;
}

static char *dup_or_null(const char *s)
{
    return s ? pb_xstrdup(s) : NULL;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Parsed whole, the facts the ingest options add (pb_ingest_apply: the
 * title's label_origin) follow the parser's own, once. They are added to
 * every part, so a part's facts from n0 on are held back (one per host
 * and key, the last value, as pb_rs_fact keeps them) for the last part. */
static void hold_applied(struct pb_rs_stream *st, struct pb_resultset *set,
                         size_t n0)
{
    for (size_t i = n0; i < set->nfacts; i++) {
        const struct pb_fact *f = &set->facts[i];
        size_t k = 0;
        while (k < st->nheld && !(same_str(st->held[k].host, f->host) &&
                                  same_str(st->held[k].key, f->key)))
            k++;
        if (k == st->nheld) {
            PB_GROW(st->held, st->capheld, st->nheld + 1);
            st->held[k].host = dup_or_null(f->host);
            st->held[k].key = dup_or_null(f->key);
            st->held[k].value = NULL;
            st->nheld++;
        }
        free((char *)st->held[k].value);
        st->held[k].value = dup_or_null(f->value);
    }
    if (set->nfacts > n0) {
        set->nfacts = n0;
        set->fact_ix.cap = 0; /* rebuilt at the next pb_rs_fact */
    }
}

/* pb_ingest_apply qualifies a generic label by the source's first
 * "hostname" (or "uname") fact. Parsed whole, every configuration sees
 * the first of the whole file; streamed, a later part lacks those of the
 * parts before it (fio text: the hostname facts of several fio servers
 * come with the first part). So those of the earlier parts are lent to
 * each part, first, while the options apply, and taken back before it is
 * stored (lend_context, take_back); remember_context notes them. */
static void remember_context(struct pb_rs_stream *st,
                             const struct pb_resultset *set)
{
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < set->nfacts && !st->context[k].value; i++) {
            const struct pb_fact *f = &set->facts[i];
            if (strcmp(f->key, context_keys[k]) || !f->value || !f->value[0])
                continue;
            st->context[k].host = dup_or_null(f->host);
            st->context[k].key = dup_or_null(f->key);
            st->context[k].value = dup_or_null(f->value);
        }
}

static size_t lend_context(const struct pb_rs_stream *st,
                           struct pb_resultset *set)
{
    size_t m = (st->context[0].value != NULL) + (st->context[1].value != NULL);
    if (!m)
        return 0;
    PB_GROW(set->facts, set->capfacts, set->nfacts + m);
    memmove(set->facts + m, set->facts, set->nfacts * sizeof(*set->facts));
    for (size_t k = 0, j = 0; k < 2; k++)
        if (st->context[k].value)
            set->facts[j++] = st->context[k];
    set->nfacts += m;
    set->fact_ix.cap = 0;
    return m;
}

static void take_back(struct pb_resultset *set, size_t m)
{
    if (!m)
        return;
    memmove(set->facts, set->facts + m, (set->nfacts - m) * sizeof(*set->facts));
    set->nfacts -= m;
    set->fact_ix.cap = 0;
}

/* The set emptied for the next part: every row, config, test, fact and
 * string goes; path, format and tool_version stay. */
static void reset(struct pb_resultset *set)
{
    char *path = pb_xstrdup(set->path ? set->path : "-");
    char *ver = set->tool_version ? pb_xstrdup(set->tool_version) : NULL;
    for (size_t i = 0; i < set->nconfigs; i++)
        free(set->configs[i].params);
    for (size_t i = 0; i < set->ntests; i++)
        free(set->tests[i].params);
    for (size_t i = 0; i < set->nseries; i++)
        free(set->series[i].pts);
    free(set->configs);
    free(set->tests);
    free(set->results);
    free(set->facts);
    free(set->svals);
    free(set->series);
    free(set->hists);
    free(set->config_ix.slots);
    free(set->test_ix.slots);
    free(set->fact_ix.slots);
    free(set->strs.tab);
    free(set->strs.hash);
    pb_arena_release(&set->arena);
    set->configs = NULL;
    set->tests = NULL;
    set->results = NULL;
    set->facts = NULL;
    set->svals = NULL;
    set->series = NULL;
    set->hists = NULL;
    set->nconfigs = set->capconfigs = set->ntests = set->captests = 0;
    set->nresults = set->capresults = set->nfacts = set->capfacts = 0;
    set->nsvals = set->capsvals = set->nseries = set->capseries = 0;
    set->nhists = set->caphists = 0;
    memset(&set->config_ix, 0, sizeof(set->config_ix));
    memset(&set->test_ix, 0, sizeof(set->test_ix));
    memset(&set->fact_ix, 0, sizeof(set->fact_ix));
    memset(&set->strs, 0, sizeof(set->strs));
    pb_arena_init(&set->arena);
    set->path = pb_rs_str(set, path);
    set->tool_version = ver ? pb_rs_str(set, ver) : NULL;
    free(path);
    free(ver);
}

/* Unmap and free a set's stream state (set->stream_free: pb_resultset_free
 * calls it). */
static void rs_stream_free(struct pb_resultset *set)
{
    if (set) {
        stream_free(set->stream);
        set->stream = NULL;
    }
}

int pb_rs_flush_due(const struct pb_resultset *set, size_t pending)
{
    if (!set || !set->stream || !set->stream->fn)
        return 0;
    size_t part = set->stream->part;
    return pending >= part || set->nresults >= part;
}

static size_t head_len(const struct pb_rs_stream *st)
{
    return st->len < 65536 ? st->len : 65536;
}

size_t pb_rs_context_len(const struct pb_resultset *set, size_t len)
{
    if (!set || !set->stream)
        return len;
    return len < head_len(set->stream) ? len : head_len(set->stream);
}

int pb_rs_flush(struct pb_resultset *set, const char *done)
{
    struct pb_rs_stream *st = set ? set->stream : NULL;
    if (!st || !st->fn)
        return PB_OK;
    int rc = PB_OK;
    if (set->nresults || set->nfacts) {
        size_t lent = lend_context(st, set);
        size_t n0 = set->nfacts;
        pb_ingest_apply(set, st->map, head_len(st), st->opts);
        hold_applied(st, set, n0);
        take_back(set, lent);
        remember_context(st, set);
        st->flushed += set->nresults;
        rc = st->fn(st->ctx, set, st->err);
        if (rc != PB_OK && !st->err->code)
            pb_err_set(st->err, rc, set->path, 0, 0, "cannot store part");
        reset(set);
    }
    pb_rs_consumed(set, done);
    return rc;
}

/* Map path and make the unparsed set: PB_EDUP when it is not for
 * streaming (the caller reads it as a buffer), PB_OK with *out, or an
 * input error. */
int pb_ingest_stream_open(const char *path, const struct pb_ingest_opts *opts,
                          struct pb_resultset **out, struct pb_err *err)
{
    *out = NULL;
    if (!opts || !opts->stream || opts->label || opts->label_from ||
        opts->companion || !strcmp(path, "-"))
        return PB_EDUP;
    struct pb_err ignored = {0};
    int fd = pb_open_input(path, &ignored);
    if (fd < 0)
        return PB_EDUP; /* the buffer path says why */
    struct stat sb;
    size_t least = smallest_min();
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || least == 0 ||
        (size_t)sb.st_size < knob("POOLBENCH_STREAM_MIN", least) ||
        (uint64_t)sb.st_size > PB_MAX_INPUT) {
        close(fd);
        return PB_EDUP;
    }
    size_t len = (size_t)sb.st_size;
    char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return PB_EDUP;
    const struct pb_parser *p =
        opts->format ? pb_ingest_parser_by_name(opts->format)
                     : pb_ingest_find_parser(map, len);
    if (!p || !(p->flags & PB_PARSER_STREAMS) ||
        len < knob("POOLBENCH_STREAM_MIN", p->stream_min)) {
        munmap(map, len);
        return PB_EDUP;
    }
    struct pb_rs_stream *st = pb_xcalloc(1, sizeof(*st));
    st->parser = p;
    st->opts = opts;
    st->part = knob("POOLBENCH_STREAM_PART", PB_STREAM_PART);
    st->path = pb_xstrdup(path);
    st->map = map;
    st->len = len;
    struct pb_resultset *set = pb_resultset_new();
    set->stream = st;
    set->stream_free = rs_stream_free;
    set->path = pb_rs_str(set, path);
    set->format = p->name;
    set->size = len;
    /* hash and look for NUL bytes block by block, releasing the pages */
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    const char *nul = NULL;
    for (size_t off = 0; off < len; off += BLOCK) {
        size_t n = len - off < BLOCK ? len - off : BLOCK;
        EVP_DigestUpdate(md, map + off, n);
        if (!nul)
            nul = memchr(map + off, '\0', n);
        pb_rs_consumed(set, map + off + n);
    }
    unsigned char dg[EVP_MAX_MD_SIZE];
    unsigned dlen = 0;
    EVP_DigestFinal_ex(md, dg, &dlen);
    EVP_MD_CTX_free(md);
    for (unsigned i = 0; i < dlen && i < 32; i++)
        snprintf(set->sha256 + 2 * i, 3, "%02x", dg[i]);
    if (nul) {
        size_t off = (size_t)(nul - map);
        const char *bol = off ? memrchr(map, '\n', off) : NULL;
        long col = (long)(off - (bol ? (size_t)(bol - map) + 1 : 0)) + 1;
        pb_err_set(err, PB_EINPUT, path, pb_line_of(map, off), col,
                   "NUL byte: binary or damaged file, not %s output",
                   p->name);
        pb_resultset_free(set);
        return PB_EINPUT;
    }
    *out = set;
    return PB_OK;
}

int pb_ingest_stream_run(struct pb_resultset *set, pb_ingest_part_fn fn,
                         void *ctx, struct pb_err *err)
{
    struct pb_rs_stream *st = set->stream;
    if (!st || st->ran)
        return pb_err_set(err, PB_EUSAGE, set->path, 0, 0,
                          "not a streamed source");
    st->ran = 1;
    st->fn = fn;
    st->ctx = ctx;
    st->err = err;
    st->dropped = 0; /* the hashing pass released them all */
    struct pb_parse pc = {.parser = st->parser, .opts = st->opts,
                          .path = st->path, .buf = st->map, .len = st->len,
                          .part = st->part ? st->part : 1, .out = set,
                          .err = err};
    int rc = st->parser->parse(&pc);
    if (rc == PB_OK && set->nresults == 0 && st->flushed == 0)
        rc = pb_err_set(err, PB_EINPUT, st->path, 0, 0,
                        "%s: no results found", st->parser->name);
    if (rc != PB_OK && !st->opts->format) {
        /* a sniffer's guess, as for a file read whole (ingest.c) */
        struct pb_err known = {0};
        if (pb_ingest_refuse(st->path, st->map, st->len, &known))
            *err = known;
    }
    if (rc != PB_OK) {
        if (!err->code)
            pb_err_set(err, rc, st->path, 0, 0, "%s: parse failed",
                       st->parser->name);
        st->fn = NULL;
        return err->code;
    }
    /* the held facts after the parser's own; this part's options then
     * set them again in place (pb_rs_fact: one per host and key) */
    for (size_t k = 0; k < st->nheld; k++)
        pb_rs_fact(set, st->held[k].host, st->held[k].key,
                   st->held[k].value);
    size_t lent = lend_context(st, set);
    pb_ingest_apply(set, st->map, head_len(st), st->opts);
    take_back(set, lent);
    st->fn = NULL;
    return PB_OK;
}
