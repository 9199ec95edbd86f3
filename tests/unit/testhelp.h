/* Shared by the unit tests: cmocka plus the few helpers it lacks. Include
 * this instead of <cmocka.h>. */
#ifndef PB_TESTHELP_H
#define PB_TESTHELP_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* |a - b| <= eps, printing both values (cmocka 1.1 compares floats only). */
#define assert_near(a, b, eps)                                                \
    do {                                                                      \
        double pb_a_ = (a), pb_b_ = (b);                                      \
        if (!(fabs(pb_a_ - pb_b_) <= (eps))) {                                \
            print_error("%.17g != %.17g (eps %g)\n", pb_a_, pb_b_,            \
                        (double)(eps));                                       \
            fail();                                                           \
        }                                                                     \
    } while (0)

/* Relative comparison for large values: |a - b| <= rel * |b|. */
#define assert_rel(a, b, rel) assert_near((a), (b), fabs((double)(b)) * (rel))

/* Skip the current test (exit code 77 for ctest) when path is absent. */
#define skip_unless_exists(path)                                              \
    do {                                                                      \
        if (access((path), R_OK) != 0) {                                      \
            print_message("skipping: %s absent\n", (path));                   \
            skip();                                                           \
        }                                                                     \
    } while (0)

#endif
