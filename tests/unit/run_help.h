/* Helpers of the run/ unit tests (test_run_plan.c, test_run_hosts.c,
 * test_run_repeat.c, test_run_telemetry.c): a plan from a string, its
 * refusals with exact line and message, and a dry run's listing. Static
 * and possibly unused in one of them (TH_FN). */
#ifndef PB_RUN_HELP_H
#define PB_RUN_HELP_H

#include "tests/unit/testhelp.h"

#include <stdio.h>
#include <string.h>

#include "run/run.h"
#include "run/run_int.h"

#define CAPS_DIR PB_FIXTURES_DIR "/zfs-caps"

/* A plan the text must give (as /plans/t.ini); caller frees with
 * pb_run_plan_free. */
TH_FN struct pb_run_plan *parse_ok(const char *text)
{
    struct pb_err err = {0};
    struct pb_run_plan *p = NULL;
    int rc = pb_run_plan_parse("/plans/t.ini", text, &p, &err);
    if (rc != PB_OK)
        print_error("unexpected error: %s:%ld: %s\n", err.path, err.line,
                    err.msg);
    assert_int_equal(rc, PB_OK);
    assert_non_null(p);
    return p;
}

/* A plan text refused with this message at this line. */
struct rh_bad {
    const char *text;
    long line;
    const char *msg;
};

/* Each of cases[0..n), as /plans/bad.ini, is refused (PB_EUSAGE, no plan)
 * naming that path, line and message. */
TH_FN void rh_refused(const struct rh_bad *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct pb_err err = {0};
        struct pb_run_plan *p = NULL;
        int rc = pb_run_plan_parse("/plans/bad.ini", cases[i].text, &p, &err);
        if (rc != PB_EUSAGE || err.line != cases[i].line ||
            strcmp(err.msg, cases[i].msg))
            print_error("case %zu: rc %d line %ld msg '%s'\n", i, rc, err.line,
                        err.msg);
        assert_int_equal(rc, PB_EUSAGE);
        assert_null(p);
        assert_string_equal(err.path, "/plans/bad.ini");
        assert_int_equal(err.line, cases[i].line);
        assert_string_equal(err.msg, cases[i].msg);
    }
}

/* A dry run of the plan text with o (dry_run and out set here): what it
 * printed (caller frees); *rc what pb_run_execute returned, err why.
 * Not inlined: GCC's -Wdangling-pointer then takes a search in the text
 * for a pointer to the local `out` whose address open_memstream keeps. */
TH_FN __attribute__((noinline)) char *
rh_dry_run(const char *text, struct pb_run_opts o, int *rc, struct pb_err *err)
{
    struct pb_run_plan *p = parse_ok(text);
    char *out = NULL;
    size_t outlen = 0;
    FILE *fp = open_memstream(&out, &outlen);
    assert_non_null(fp);
    o.dry_run = 1;
    o.out = fp;
    struct pb_run_summary sum;
    *rc = pb_run_execute(p, &o, &sum, err);
    fclose(fp);
    pb_run_plan_free(p);
    return out;
}

#endif
