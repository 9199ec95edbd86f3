/* libFuzzer harness: the fio JSON parser streamed (ingest/fio_json.c,
 * docs/design.md "Streaming ingest") on any bytes, in parts of one
 * result, against the same bytes parsed whole: the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and facts (as a set: a label's origin fact may come
 * before the end-of-file device facts streamed and after them whole; the
 * database keys facts, the report sorts them), every part a set the
 * database can store.
 * See tests/fuzz/fuzz.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

/* One line per result of a set appended to b[0], per fact to b[1]:
 * parts store them in separate tables, so the order that counts is that
 * within each. */
static void describe(struct pb_buf *b, const struct pb_resultset *set)
{
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        pb_buf_printf(&b[0], "r %s|%s|%s|%s|%s|%s|%d|",
                      set->configs[r->config].label, set->tests[r->test].name,
                      r->host ? r->host : "-", r->job ? r->job : "-", r->metric,
                      r->unit, r->has_value);
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

static int cmp_line(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The lines of b in sorted order. */
static void sort_lines(struct pb_buf *b)
{
    char *s = strdup(pb_buf_str(b));
    if (!s)
        abort();
    size_t n = 0, cap = 16;
    char **v = malloc(cap * sizeof(*v));
    for (char *save = NULL, *l = strtok_r(s, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        if (n == cap && !(v = realloc(v, (cap *= 2) * sizeof(*v))))
            abort();
        v[n++] = l;
    }
    qsort(v, n, sizeof(*v), cmp_line);
    pb_buf_release(b);
    for (size_t i = 0; i < n; i++)
        pb_buf_printf(b, "%s\n", v[i]);
    free(v);
    free(s);
}

static int on_part(void *ctx, const struct pb_resultset *part,
                   struct pb_err *err)
{
    (void)err;
    fuzz_check_set(part);
    describe(ctx, part);
    return PB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    setenv("POOLBENCH_STREAM_MIN", "0", 1);
    setenv("POOLBENCH_STREAM_PART", "1", 1);
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    o.format = "fio-json";
    o.stream = 1;
    int fd = memfd_create("fuzz.json", MFD_CLOEXEC);
    if (fd < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    /* the same path both ways: labels of local runs name the file */
    struct pb_resultset *whole = NULL;
    struct pb_err e1 = {0};
    int rc1 = pb_ingest_buffer(path, (const char *)data, size, &o, &whole, &e1);
    struct pb_resultset *set = NULL;
    struct pb_err e2 = {0};
    int rc2 = pb_ingest_stream_open(path, &o, &set, &e2);
    FUZZ_CHECK(rc2 != PB_EDUP); /* a forced fio-json file of >= 0 bytes */
    struct pb_buf a[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct pb_buf b[2] = {PB_BUF_INIT, PB_BUF_INIT};
    if (rc2 == PB_OK) {
        FUZZ_CHECK(pb_ingest_streaming(set));
        rc2 = pb_ingest_stream_run(set, on_part, b, &e2);
        if (rc2 == PB_OK) {
            fuzz_check_set(set);
            describe(b, set);
        }
    }
    FUZZ_CHECK((rc1 == PB_OK) == (rc2 == PB_OK));
    if (rc1 == PB_OK) {
        describe(a, whole);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[0]), pb_buf_str(&b[0])) == 0);
        sort_lines(&a[1]);
        sort_lines(&b[1]);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[1]), pb_buf_str(&b[1])) == 0);
    } else {
        FUZZ_CHECK(e1.line == e2.line);
        FUZZ_CHECK(e1.col == e2.col);
        FUZZ_CHECK(strcmp(e1.msg, e2.msg) == 0);
    }
    for (int i = 0; i < 2; i++) {
        pb_buf_release(&a[i]);
        pb_buf_release(&b[i]);
    }
    pb_resultset_free(whole);
    pb_resultset_free(set);
    close(fd);
    return 0;
}
