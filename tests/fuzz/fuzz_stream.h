/* Shared by the harnesses of streamed parsers (fuzz_bonnie_stream.c,
 * fuzz_fio_json_stream.c, fuzz_fio_terse_stream.c, fuzz_fio_text_stream.c,
 * fuzz_table_stream.c, fuzz_pts_stream.c, fuzz_zfs_stream.c;
 * docs/performance.md "Streaming ingest"): the input in a memfd, parsed whole (pb_ingest_buffer) and
 * streamed in parts of one result (pb_ingest_stream_open +
 * pb_ingest_stream_run) under the same path, every part a set the database
 * can store, both ways accepted or both refused with the same line and
 * message. What the parts must add up to is the harness's own check. See
 * tests/fuzz/fuzz.h. */
#ifndef PB_FUZZ_STREAM_H
#define PB_FUZZ_STREAM_H

#include "tests/fuzz/fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

/* Called with every part of the streamed parse, the last one included
 * (checked with fuzz_check_set before). */
typedef void (*fuzz_part_fn)(void *ctx, const struct pb_resultset *part);

struct fuzz_stream {
    struct pb_resultset *whole; /* the whole parse, NULL when refused */
    int rc1, rc2;               /* whole, streamed */
    struct pb_err e1, e2;
    /* private */
    struct pb_resultset *set;
    int fd;
    fuzz_part_fn fn;
    void *ctx;
};

static inline int fuzz_stream_part(void *ctx, const struct pb_resultset *part,
                            struct pb_err *err)
{
    (void)err;
    struct fuzz_stream *fs = ctx;
    fuzz_check_set(part);
    fs->fn(fs->ctx, part);
    return PB_OK;
}

/* Parse data as format both ways (fs filled); fn sees every streamed
 * part. Aborts unless both agree on accepting it and, when refused, on
 * the error's line and message. Release with fuzz_stream_release. */
static inline void fuzz_stream_run(struct fuzz_stream *fs, const uint8_t *data,
                                   size_t size, const char *format,
                                   fuzz_part_fn fn, void *ctx)
{
    memset(fs, 0, sizeof(*fs));
    fs->fn = fn;
    fs->ctx = ctx;
    setenv("POOLBENCH_STREAM_MIN", "0", 1);
    setenv("POOLBENCH_STREAM_PART", "1", 1);
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    o.format = format;
    o.stream = 1;
    fs->fd = memfd_create("fuzz-input", MFD_CLOEXEC);
    FUZZ_CHECK(fs->fd >= 0);
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fs->fd, data + off, size - off);
        FUZZ_CHECK(n > 0);
        off += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fs->fd);
    /* the same path both ways: labels of local runs name the file */
    fs->rc1 = pb_ingest_buffer(path, (const char *)data, size, &o, &fs->whole,
                               &fs->e1);
    fs->rc2 = pb_ingest_stream_open(path, &o, &fs->set, &fs->e2);
    FUZZ_CHECK(fs->rc2 != PB_EDUP); /* a forced format, >= 0 bytes */
    if (fs->rc2 == PB_OK) {
        FUZZ_CHECK(pb_ingest_streaming(fs->set));
        fs->rc2 = pb_ingest_stream_run(fs->set, fuzz_stream_part, fs,
                                       &fs->e2);
        if (fs->rc2 == PB_OK) { /* the last part stays in the set */
            fuzz_check_set(fs->set);
            fn(ctx, fs->set);
        }
    }
    FUZZ_CHECK((fs->rc1 == PB_OK) == (fs->rc2 == PB_OK));
    if (fs->rc1 != PB_OK) {
        FUZZ_CHECK(fs->e1.line == fs->e2.line);
        FUZZ_CHECK(strcmp(fs->e1.msg, fs->e2.msg) == 0);
    }
}

static inline void fuzz_stream_release(struct fuzz_stream *fs)
{
    pb_resultset_free(fs->whole);
    pb_resultset_free(fs->set);
    close(fs->fd);
}

/* ==== results and facts compared line by line (the fio harnesses) ==== */

/* One line per result of a set appended to b[0], per fact to b[1]:
 * parts store them in separate tables, so the order that counts is that
 * within each. */
static inline void fuzz_stream_describe(struct pb_buf *b,
                                        const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        pb_buf_printf(&b[0], "r %s|%s|%s|%s|%s|%s|%ld|%d|",
                      set->configs[r->config].label, set->tests[r->test].name,
                      r->host ? r->host : "-", r->job ? r->job : "-", r->metric,
                      r->unit, r->line, r->has_value);
        if (r->has_value)
            pb_buf_printf(&b[0], "%.17g", r->value);
        else
            pb_buf_printf(&b[0], "%s", r->null_reason ? r->null_reason : "-");
        pb_buf_printf(&b[0], "\n");
    }
    for (size_t i = 0; i < set->nfacts; i++)
        pb_buf_printf(&b[1], "f %s|%s|%s\n",
                      set->facts[i].host ? set->facts[i].host : "-",
                      set->facts[i].key, set->facts[i].value);
}

static inline void fuzz_stream_describe_part(void *ctx,
                                             const struct pb_resultset *part)
{
    fuzz_stream_describe(ctx, part);
}

/* The whole test of a harness: data as format whole and streamed in parts
 * of one result must give the same error column, or the same results in
 * order and the same facts in order. */
static inline int fuzz_stream_compare(const uint8_t *data, size_t size,
                                      const char *format)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    struct pb_buf a[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct pb_buf b[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct fuzz_stream fs;
    fuzz_stream_run(&fs, data, size, format, fuzz_stream_describe_part, b);
    if (fs.rc1 == PB_OK) {
        fuzz_stream_describe(a, fs.whole);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[0]), pb_buf_str(&b[0])) == 0);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[1]), pb_buf_str(&b[1])) == 0);
    } else {
        FUZZ_CHECK(fs.e1.col == fs.e2.col);
    }
    for (int i = 0; i < 2; i++) {
        pb_buf_release(&a[i]);
        pb_buf_release(&b[i]);
    }
    fuzz_stream_release(&fs);
    return 0;
}

#endif
