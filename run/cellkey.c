/* A cell's key for --resume: a hash of everything that makes its results
 * (the vdevs, and the value of every pool, dataset/zvol and fio key in the
 * cell), stored as the fact run_cell_key of each source the cell stores.
 * A resumed run compares it with the cell of the same number in the plan
 * as it is now: a plan edited since does not get old results kept for
 * cells whose parameters changed (issue 20, item 12). */
#include "run/run_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    h ^= 0xff; /* field separator: "ab"+"c" differs from "a"+"bc" */
    h *= 1099511628211ULL;
    return h;
}

void pb_run_cell_key(const struct pb_run_plan *p, size_t i, char out[17])
{
    static const char *const sname[PB_RUN_NSECT] = {"pool", "data", "fio"};
    struct pb_run_cell c;
    uint64_t h = 14695981039346656037ULL;
    char num[64];
    pb_run_cell_at(p, i, &c);
    h = fnv(h, p->zvol > 0 ? "zvol" : "dataset");
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    for (int l = 0; l < 3; l++) {
        h = fnv(h, "vdevs");
        for (size_t k = 0; k < lists[l]->n; k++) {
            h = fnv(h, lists[l]->v[k].path);
            snprintf(num, sizeof(num), "%.0f", lists[l]->v[k].size);
            h = fnv(h, num);
        }
    }
    for (int s = 0; s < PB_RUN_NSECT; s++) {
        h = fnv(h, sname[s]);
        for (size_t a = 0; a < p->sect[s].n; a++) {
            h = fnv(h, p->sect[s].ax[a].key);
            h = fnv(h, pb_run_axis_value(p, (enum pb_run_sect)s,
                                         c.combo[s], a));
        }
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}
