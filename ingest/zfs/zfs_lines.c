/* Lines of zfs command output read from the input on demand, never the
 * whole text copied: line i is copied (NUL-terminated, one trailing '\r'
 * stripped) into slot i % PB_ZFS_RING of a ring, so a line stays valid
 * while fewer than PB_ZFS_RING others are read after it (the parser
 * keeps no line across more: a table's header is used at its start, an
 * error names a line by its index). Reading goes on from the last line
 * read; a line before it is found again from the checkpoint (byte offset)
 * at every PB_ZFS_CK-th line, so re-reading a table or a second pass
 * costs what reading it did. Memory: the ring's slots (the longest lines
 * seen) and one offset per PB_ZFS_CK lines. */
#include "ingest/zfs/zfs_int.h"

#include <stdlib.h>
#include <string.h>

int pb_zfs_lines_open(struct ctx *c, const char *buf, size_t len)
{
    /* NUL bytes and lines a MiB at a time, the pages of a streamed input
     * let go behind */
    const size_t block = (size_t)1 << 20;
    size_t n = 0;
    for (size_t off = 0; off < len; off += block) {
        const char *p = buf + off;
        const char *e = buf + (len - off < block ? len : off + block);
        const char *nul = memchr(p, '\0', (size_t)(e - p));
        if (nul) {
            size_t at = (size_t)(nul - buf);
            size_t bol = at;
            while (bol > 0 && buf[bol - 1] != '\n')
                bol--;
            return pb_err_set(c->err, PB_EINPUT, c->path, pb_line_of(buf, at),
                              (long)(at - bol) + 1, "unexpected NUL byte");
        }
        while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL && ++n)
            p++;
        pb_rs_release(c->out, buf + off, e);
    }
    c->buf = buf;
    c->len = len;
    c->unterminated = len > 0 && buf[len - 1] != '\n';
    c->nlines = n + (size_t)c->unterminated;
    c->ring = pb_xcalloc(PB_ZFS_RING, sizeof(*c->ring));
    c->cur_i = c->cur_off = c->released = 0;
    PB_GROW(c->ck, c->capck, 1);
    c->ck[0] = 0;
    c->nck = 1;
    return PB_OK;
}

void pb_zfs_lines_close(struct ctx *c)
{
    if (c->ring)
        for (size_t k = 0; k < PB_ZFS_RING; k++)
            free(c->ring[k].s);
    free(c->ring);
    free(c->ck);
    c->ring = NULL;
    c->ck = NULL;
    c->nck = c->capck = 0;
}

/* Length of the line at c->cur_off (without its '\n'). */
static size_t cur_len(const struct ctx *c)
{
    const char *p = c->buf + c->cur_off;
    const char *nl = memchr(p, '\n', c->len - c->cur_off);
    return nl ? (size_t)(nl - p) : c->len - c->cur_off;
}

/* Past the line at the cursor, noting a checkpoint when one is due; the
 * pages of a streamed input behind it go every MiB (read again from the
 * page cache when a table is re-read). */
static void step(struct ctx *c, size_t n)
{
    c->cur_off += n + (c->cur_off + n < c->len);
    c->cur_i++;
    if (c->cur_off >= c->released + ((size_t)1 << 20)) {
        pb_rs_release(c->out, c->buf + c->released, c->buf + c->cur_off);
        c->released = c->cur_off;
    }
    if (c->cur_i % PB_ZFS_CK == 0 && c->cur_i / PB_ZFS_CK == c->nck) {
        PB_GROW(c->ck, c->capck, c->nck + 1);
        c->ck[c->nck++] = c->cur_off;
    }
}

const struct line *pb_zfs_line(struct ctx *c, size_t i)
{
    struct lslot *sl = &c->ring[i % PB_ZFS_RING];
    if (sl->idx == i + 1)
        return &sl->L;
    if (i < c->cur_i) {
        size_t k = i / PB_ZFS_CK;
        c->cur_i = k * PB_ZFS_CK;
        c->cur_off = c->ck[k];
        if (c->cur_off < c->released)
            c->released = c->cur_off;
    }
    while (c->cur_i < i)
        step(c, cur_len(c));
    size_t raw = cur_len(c), n = raw;
    if (sl->cap < n + 1) {
        free(sl->s);
        sl->cap = n + 1 > 128 ? n + 1 : 128;
        sl->s = pb_xmalloc(sl->cap);
    }
    memcpy(sl->s, c->buf + c->cur_off, n);
    if (n > 0 && sl->s[n - 1] == '\r')
        n--;
    sl->s[n] = '\0';
    sl->idx = i + 1;
    sl->L.s = sl->s;
    sl->L.no = (long)i + 1;
    step(c, raw);
    return &sl->L;
}

const char *pb_zfs_read_upto(const struct ctx *c)
{
    return c->buf + c->cur_off;
}
