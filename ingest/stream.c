/* Streaming ingest: fio logs are read in one pass, line by line, without
 * holding the file (a per-I/O log of several GB stays within a few MB),
 * and .gz files are read through zlib. Other formats keep the buffer
 * path (pb_ingest_buffer). docs/performance.md, "fio logs and compressed
 * files". */
#include "ingest/ingest_int.h"
#include "common/pb_file.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK ((size_t)1 << 20)
#define MAX_LINE ((size_t)1 << 20)
#define HEAD ((size_t)8192)

static int is_log_parser(const struct pb_parser *p)
{
    return p && (p->flags & PB_PARSER_LINES);
}

/* Some line-read parser claims head. */
static int maybe_log(const char *head, size_t n)
{
    for (size_t i = 0; pb_parsers[i]; i++)
        if (is_log_parser(pb_parsers[i]) && pb_parsers[i]->sniff(head, n) > 0)
            return 1;
    return 0;
}

/* Read up to n bytes; -1 on a read error (err filled). */
static long rd(gzFile f, char *buf, size_t n, const char *path,
               struct pb_err *err)
{
    int got = gzread(f, buf, (unsigned)n);
    if (got < 0) {
        int e;
        const char *msg = gzerror(f, &e);
        pb_err_set(err, PB_EINPUT, path, 0, 0, "cannot read: %s",
                   e == Z_ERRNO ? strerror(errno) : msg);
        return -1;
    }
    return got;
}

/* The rest of a compressed file that is not a log, whole (up to the input
 * cap), for the buffer path. */
static int slurp(gzFile f, char *head, size_t hlen, const char *path,
                 char **out, size_t *len, struct pb_err *err)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, head, hlen);
    char *chunk = pb_xmalloc(CHUNK);
    long got;
    while ((got = rd(f, chunk, CHUNK, path, err)) > 0) {
        if (b.len + (size_t)got > PB_MAX_INPUT) {
            got = -1;
            pb_err_set(err, PB_EINPUT, path, 0, 0,
                       "input larger than the %zu MiB limit once "
                       "decompressed", PB_MAX_INPUT / 1048576);
            break;
        }
        pb_buf_add(&b, chunk, (size_t)got);
    }
    free(chunk);
    if (got < 0) {
        pb_buf_release(&b);
        return PB_EINPUT;
    }
    *len = b.len;
    *out = b.len ? pb_buf_take(&b) : pb_xstrdup("");
    pb_buf_release(&b);
    return PB_OK;
}

/* The lines of the file, head first, for a PB_PARSER_LINES parse: read a
 * chunk at a time (hashed and counted as read), never held whole. */
struct gz_lines {
    struct pb_lines src;
    gzFile f;
    char *buf;  /* CHUNK + MAX_LINE */
    size_t pos; /* the next line in buf */
    size_t have; /* bytes in buf */
    int eof, done;
    long nlines; /* lines given so far */
    EVP_MD_CTX *md;
    size_t total; /* bytes read */
    const char *path;
};

static int gz_next(struct pb_lines *src, const char **s, size_t *n,
                   struct pb_err *err)
{
    struct gz_lines *g = (struct gz_lines *)src;
    while (!g->done) {
        char *p = g->buf + g->pos, *end = g->buf + g->have;
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t rest = (size_t)(end - p);
        if (nl || (g->eof && rest)) {
            *s = p;
            *n = nl ? (size_t)(nl - p) : rest;
            g->pos = nl ? (size_t)(nl + 1 - g->buf) : g->have;
            g->done = !nl;
            g->nlines++;
            return 1;
        }
        if (g->eof)
            break;
        if (rest >= MAX_LINE)
            return pb_err_set(err, PB_EINPUT, g->path, g->nlines + 1, 0,
                              "line longer than %zu bytes: not a fio log",
                              MAX_LINE);
        memmove(g->buf, p, rest);
        g->pos = 0;
        g->have = rest;
        long got = rd(g->f, g->buf + g->have, CHUNK, g->path, err);
        if (got < 0)
            return PB_EINPUT;
        if (got == 0)
            g->eof = 1;
        EVP_DigestUpdate(g->md, g->buf + g->have, (size_t)got);
        g->total += (size_t)got;
        g->have += (size_t)got;
    }
    g->done = 1;
    return 0;
}

int pb_ingest_stream(const char *path, const struct pb_ingest_opts *opts,
                     struct pb_resultset **out, struct pb_err *err)
{
    *out = NULL;
    int fd = strcmp(path, "-") ? pb_open_input(path, err) : dup(0);
    if (fd < 0) {
        if (!err->code)
            pb_err_set(err, PB_EINPUT, path, 0, 0, "cannot open: %s",
                       strerror(errno));
        err->code = PB_EINPUT;
        return PB_EINPUT;
    }
    gzFile f = gzdopen(fd, "rb");
    if (!f) {
        close(fd);
        return pb_err_set(err, PB_EINPUT, path, 0, 0, "cannot open: %s",
                          strerror(errno));
    }
    gzbuffer(f, 1 << 18);
    char head[HEAD];
    long hlen = rd(f, head, HEAD, path, err);
    if (hlen < 0) {
        gzclose(f);
        return PB_EINPUT;
    }
    int gz = !gzdirect(f);
    /* every input passes here: the other sniffers only run when the first
     * line looks like a log (or the file is compressed) */
    size_t hl = (size_t)hlen;
    int maybe = gz || maybe_log(head, hl);
    const struct pb_parser *p =
        opts && opts->format ? pb_ingest_parser_by_name(opts->format)
        : maybe              ? pb_ingest_find_parser(head, hl)
                             : NULL;
    if (!is_log_parser(p)) {
        if (!gz) {
            gzclose(f);
            return PB_EDUP; /* not ours: the buffer path reads it */
        }
        char *buf = NULL;
        size_t len = 0;
        int rc = slurp(f, head, (size_t)hlen, path, &buf, &len, err);
        gzclose(f);
        if (rc == PB_OK)
            rc = pb_ingest_buffer(path, buf, len, opts, out, err);
        free(buf);
        return rc;
    }
    struct gz_lines g = {.src = {gz_next}, .f = f, .path = path};
    g.buf = pb_xmalloc(CHUNK + MAX_LINE);
    memcpy(g.buf, head, (size_t)hlen);
    g.have = g.total = (size_t)hlen;
    g.md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(g.md, EVP_sha256(), NULL);
    EVP_DigestUpdate(g.md, head, (size_t)hlen);
    struct pb_resultset *set = pb_resultset_new();
    struct pb_parse ctx = {.parser = p, .opts = opts, .path = path,
                           .lines = &g.src, .out = set, .err = err};
    int rc = p->parse(&ctx);
    gzclose(f);
    free(g.buf);
    unsigned char dg[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    EVP_DigestFinal_ex(g.md, dg, &dlen);
    EVP_MD_CTX_free(g.md);
    size_t total = g.total;
    if (rc) {
        pb_resultset_free(set);
        return err->code ? err->code : rc;
    }
    for (unsigned int i = 0; i < dlen && i < 32; i++)
        snprintf(set->sha256 + 2 * i, 3, "%02x", dg[i]);
    set->path = pb_rs_str(set, path);
    set->format = p->name;
    set->size = total;
    pb_ingest_apply(set, head, (size_t)hlen, opts);
    *out = set;
    return PB_OK;
}

int pb_ingest_file(const char *path, const struct pb_ingest_opts *opts,
                   struct pb_resultset **out, struct pb_err *err)
{
    int rc = strcmp(path, "-") ? pb_ingest_stream(path, opts, out, err)
                               : PB_EDUP;
    if (rc != PB_EDUP)
        return rc;
    char *buf = NULL;
    size_t len = 0;
    if ((rc = pb_read_file(path, &buf, &len, err)) != PB_OK) {
        err->code = PB_EINPUT;
        return PB_EINPUT;
    }
    rc = pb_ingest_buffer(path, buf, len, opts, out, err);
    free(buf);
    return rc;
}
