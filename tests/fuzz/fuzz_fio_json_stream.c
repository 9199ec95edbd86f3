/* libFuzzer harness: the fio JSON parser streamed (ingest/fio_json.c,
 * docs/design.md "Streaming ingest") on any bytes, in parts of one
 * result, against the same bytes parsed whole: the same error (line,
 * column and message), or the same results (config, test, job, metric,
 * value, in order) and facts (as a set: a label's origin fact may come
 * before the end-of-file device facts streamed and after them whole; the
 * database keys facts, the report sorts them), every part a set the
 * database can store.
 * See tests/fuzz/fuzz.h and fuzz_stream.h. */
#define _GNU_SOURCE
#include "tests/fuzz/fuzz_stream.h"

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

static void on_part(void *ctx, const struct pb_resultset *part)
{
    describe(ctx, part);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > ((size_t)1 << 20))
        return 0;
    struct pb_buf a[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct pb_buf b[2] = {PB_BUF_INIT, PB_BUF_INIT};
    struct fuzz_stream fs;
    fuzz_stream_run(&fs, data, size, "fio-json", on_part, b);
    if (fs.rc1 == PB_OK) {
        describe(a, fs.whole);
        FUZZ_CHECK(strcmp(pb_buf_str(&a[0]), pb_buf_str(&b[0])) == 0);
        sort_lines(&a[1]);
        sort_lines(&b[1]);
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
