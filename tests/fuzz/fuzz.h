/* Shared by the libFuzzer harnesses in tests/fuzz/: run one parser (or the
 * whole ingest path) on an input and check what came out.
 *
 * A harness file defines LLVMFuzzerTestOneInput(); built with clang and
 * -fsanitize=fuzzer it is a fuzzer (scripts/fuzz), built with any compiler
 * next to replay_main.c it is replay_<name>, which runs the harness on
 * files (ctest replays tests/regress/ with it).
 *
 * The input is handed to parsers exactly as large as it is, with no NUL
 * after it: parsers get (buf, len) and must not read buf[len] (unit tests
 * pass a prefix of a file, where buf[len] is the next byte of it). With
 * PB_FUZZ_PAD=N in the environment N NUL bytes follow (1 = what
 * pb_read_file gives): to fuzz past a known small over-read while it is
 * being fixed. scripts/fuzz and ctest never set it.
 *
 * Besides crashes, leaks and hangs (found by the sanitizers and libFuzzer),
 * fuzz_check_set() aborts on a result set the database could not store
 * faithfully, and fuzz_check_err() on a rejection without a usable message.
 */
#ifndef PB_FUZZ_H
#define PB_FUZZ_H

#include "ingest/ingest_int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz: invariant failed: %s (%s:%d)\n", #cond,   \
                    __FILE__, __LINE__);                                      \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* Where dumps go: every string of a set is printed once, so a dangling or
 * unterminated one is read (and caught by ASan). */
static inline FILE *fuzz_devnull(void)
{
    static FILE *fp;
    if (!fp)
        fp = fopen("/dev/null", "w");
    FUZZ_CHECK(fp != NULL);
    return fp;
}

static inline int fuzz_valid_str(const char *s)
{
    return s && strlen(s) < ((size_t)1 << 30);
}

/* The input as parsers get it: data itself, or a copy followed by
 * PB_FUZZ_PAD NUL bytes. Free with fuzz_input_free(). */
static inline const char *fuzz_input(const uint8_t *data, size_t size)
{
    static long pad = -1;
    if (pad < 0) {
        const char *e = getenv("PB_FUZZ_PAD");
        pad = e ? strtol(e, NULL, 10) : 0;
        if (pad < 0 || pad > 4096)
            pad = 0;
    }
    if (pad == 0)
        return (const char *)data;
    char *copy = pb_xcalloc(size + (size_t)pad, 1);
    if (size)
        memcpy(copy, data, size);
    return copy;
}

static inline void fuzz_input_free(const char *buf, const uint8_t *data)
{
    if (buf != (const char *)data)
        free((char *)buf);
}

/* What the model needs from a parsed set: indexes in range, names present,
 * values finite, NULL values explained, directions set. */
static inline void fuzz_check_set(const struct pb_resultset *set)
{
    FUZZ_CHECK(set->nresults == 0 || set->nconfigs > 0);
    for (size_t i = 0; i < set->nconfigs; i++) {
        const struct pb_config *c = &set->configs[i];
        FUZZ_CHECK(fuzz_valid_str(c->label));
        for (size_t j = 0; j < c->nparams; j++) {
            FUZZ_CHECK(fuzz_valid_str(c->params[j].key));
            FUZZ_CHECK(c->params[j].key[0] != '\0');
            FUZZ_CHECK(fuzz_valid_str(c->params[j].value));
        }
    }
    for (size_t i = 0; i < set->ntests; i++) {
        const struct pb_test *t = &set->tests[i];
        FUZZ_CHECK(fuzz_valid_str(t->name));
        FUZZ_CHECK(t->tool == NULL || fuzz_valid_str(t->tool));
        for (size_t j = 0; j < t->nparams; j++) {
            FUZZ_CHECK(fuzz_valid_str(t->params[j].key));
            FUZZ_CHECK(t->params[j].key[0] != '\0');
            FUZZ_CHECK(fuzz_valid_str(t->params[j].value));
        }
    }
    for (size_t i = 0; i < set->nresults; i++) {
        const struct pb_result *r = &set->results[i];
        FUZZ_CHECK(r->config < set->nconfigs);
        FUZZ_CHECK(r->test < set->ntests);
        FUZZ_CHECK(fuzz_valid_str(r->metric));
        FUZZ_CHECK(r->metric[0] != '\0');
        FUZZ_CHECK(r->unit == NULL || fuzz_valid_str(r->unit));
        FUZZ_CHECK(r->direction == PB_DIR_HIGHER ||
                   r->direction == PB_DIR_LOWER);
        if (r->has_value)
            FUZZ_CHECK(isfinite(r->value));
        else
            FUZZ_CHECK(fuzz_valid_str(r->null_reason));
        if (r->has_stderr)
            FUZZ_CHECK(isfinite(r->stderr_));
        FUZZ_CHECK(r->samples >= 0);
    }
    for (size_t i = 0; i < set->nfacts; i++) {
        FUZZ_CHECK(fuzz_valid_str(set->facts[i].key));
        FUZZ_CHECK(set->facts[i].value == NULL ||
                   fuzz_valid_str(set->facts[i].value));
    }
    pb_resultset_dump(set, fuzz_devnull());
}

/* A rejection: a known code, a message, a line inside the input. */
static inline void fuzz_check_err(const struct pb_err *err,
                                  const uint8_t *data, size_t size)
{
    long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    FUZZ_CHECK((err->code > PB_OK && err->code <= PB_EIO) ||
               err->code == PB_EFORMAT);
    FUZZ_CHECK(memchr(err->msg, '\0', sizeof(err->msg)) != NULL);
    FUZZ_CHECK(err->msg[0] != '\0');
    FUZZ_CHECK(err->line >= 0 && err->line <= lines);
    FUZZ_CHECK(err->col >= 0);
}

/* Run parser p on the input the way pb_ingest_buffer does. */
static inline int fuzz_parser(const struct pb_parser *p, const uint8_t *data,
                              size_t size)
{
    const char *buf = fuzz_input(data, size);
    int score = p->sniff(buf, size < 8192 ? size : 8192);
    FUZZ_CHECK(score >= 0 && score <= 100);

    struct pb_resultset *set = pb_resultset_new();
    struct pb_err err = {0};
    set->path = pb_rs_str(set, "fuzz-input");
    set->format = p->name;
    set->size = size;
    int rc = pb_parser_run(p, "fuzz-input", buf, size, set, &err);
    if (rc == PB_OK) {
        FUZZ_CHECK(err.code == PB_OK);
        fuzz_check_set(set);
    } else {
        /* pb_ingest_buffer supplies "parse failed" when a parser forgot
         * the message; the harness insists on the parser's own. */
        fuzz_check_err(&err, data, size);
    }
    pb_resultset_free(set);
    fuzz_input_free(buf, data);
    return 0;
}

#endif
