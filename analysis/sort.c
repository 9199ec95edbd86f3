/* Sorting with an explicit context: the one place analysis/ and render/
 * reach for glibc's qsort_r, so that no comparator reads a file-level
 * global. */
#define _GNU_SOURCE
#include "analysis/data.h"

#include <stdlib.h>

void rp_sort(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *, void *), const void *ctx)
{
    /* qsort_r is glibc's qsort with a context: the same merge sort, so the
     * order (ties included) is the one plain qsort gave */
    if (n > 1)
        qsort_r(base, n, size, cmp, (void *)ctx);
}
