/* Unit test for the man page poolbench-plan(5) (issue 17, item 3): every
 * plan shown in docs/man/poolbench-plan.5.scd (a literal block starting
 * with "[plan]") is a plan the run module takes, with the cells the page
 * says, and its first example is the one docs/plan-format.md opens with,
 * so the page cannot drift from the parser or from the format document.
 * No root and no ZFS needed. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pb.h"
#include "run/run.h"
#include "run/run_int.h"

#define SOURCE_DIR PB_FIXTURES_DIR "/.."
#define MAN_PLAN SOURCE_DIR "/docs/man/poolbench-plan.5.scd"
#define PLAN_FORMAT SOURCE_DIR "/docs/plan-format.md"

/* The literal blocks (``` ... ```) of text that start with prefix, in
 * order, with scdoc's escape of a backslash (\\) undone. Caller frees
 * each and the array. */
static size_t blocks(const char *text, const char *open, const char *prefix,
                     char ***out)
{
    size_t n = 0;
    char **v = NULL;
    const char *p = text;
    while ((p = strstr(p, open)) != NULL) {
        p += strlen(open);
        const char *end = strstr(p, "```");
        assert_non_null(end);
        if (!strncmp(p, prefix, strlen(prefix))) {
            char *b = pb_xmalloc((size_t)(end - p) + 1);
            size_t k = 0;
            for (const char *s = p; s < end; s++) {
                if (s[0] == '\\' && s + 1 < end && s[1] == '\\')
                    s++;
                b[k++] = *s;
            }
            b[k] = '\0';
            v = realloc(v, (n + 1) * sizeof(*v));
            assert_non_null(v);
            v[n++] = b;
        }
        p = end + 3;
    }
    *out = v;
    return n;
}

static void test_man_plans_parse(void **state)
{
    (void)state;
    skip_unless_exists(MAN_PLAN);
    char *text;
    size_t len;
    struct pb_err err = {0};
    assert_int_equal(pb_read_file(MAN_PLAN, &text, &len, &err), PB_OK);
    char **plans;
    size_t n = blocks(text, "```\n", "[plan]", &plans);
    /* the quick plan of DESCRIPTION and the zvol study of EXAMPLES */
    assert_int_equal(n, 2);
    static const struct {
        const char *name;
        size_t cells;
        int zvol;
    } want[] = {
        {"quick", 8, 0}, /* "2 x 2 x 2 = 8 cells" */
        {"zvol", 2, 1},
    };
    for (size_t i = 0; i < n; i++) {
        struct pb_run_plan *p = NULL;
        memset(&err, 0, sizeof(err));
        if (pb_run_plan_parse("poolbench-plan.5", plans[i], &p, &err) != PB_OK)
            print_error("example %zu: line %ld: %s\n", i + 1, err.line,
                        err.msg);
        assert_non_null(p);
        assert_string_equal(pb_run_plan_name(p), want[i].name);
        assert_int_equal(pb_run_plan_ncells(p), want[i].cells);
        assert_int_equal(p->zvol, want[i].zvol);
        pb_run_plan_free(p);
    }

    /* the page's first plan is docs/plan-format.md's first */
    char *md;
    assert_int_equal(pb_read_file(PLAN_FORMAT, &md, &len, &err), PB_OK);
    char **mdplans;
    size_t m = blocks(md, "```ini\n", "[plan]", &mdplans);
    assert_true(m >= 1);
    assert_string_equal(plans[0], mdplans[0]);
    for (size_t i = 0; i < m; i++)
        free(mdplans[i]);
    free(mdplans);
    free(md);

    for (size_t i = 0; i < n; i++)
        free(plans[i]);
    free(plans);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_man_plans_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
