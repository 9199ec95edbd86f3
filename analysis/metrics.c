/* Kinds of metric the data model needs to know by name: those the
 * special sections (bonnie++ table, ZFS space, I/O and latency) read
 * across tests, which stay resident when the report streams its cells
 * (stream.c, rp_group_resident). Moved from render/bonnie_table.c,
 * render/tables.c and render/iolat.c, which draw them. */
#include "analysis/data.h"

#include <string.h>

/* ==== bonnie++ ==== */

const struct rp_bon_col rp_bon_cols[RP_NBON] = {
    {"Sequential Output", "Per Chr", "seq_out_char_bw", "seq_out_char_cpu",
     "seq_out_char_latency"},
    {"Sequential Output", "Block", "seq_out_block_bw", "seq_out_block_cpu",
     "seq_out_block_latency"},
    {"Sequential Output", "Rewrite", "seq_rewrite_bw", "seq_rewrite_cpu",
     "seq_rewrite_latency"},
    {"Sequential Input", "Per Chr", "seq_in_char_bw", "seq_in_char_cpu",
     "seq_in_char_latency"},
    {"Sequential Input", "Block", "seq_in_block_bw", "seq_in_block_cpu",
     "seq_in_block_latency"},
    {"Random", "Seeks", "random_seeks", "random_seeks_cpu",
     "random_seeks_latency"},
    {"Sequential Create", "Create", "seq_create", "seq_create_cpu",
     "seq_create_latency"},
    {"Sequential Create", "Read", "seq_stat", "seq_stat_cpu",
     "seq_stat_latency"},
    {"Sequential Create", "Delete", "seq_delete", "seq_delete_cpu",
     "seq_delete_latency"},
    {"Random Create", "Create", "rand_create", "rand_create_cpu",
     "rand_create_latency"},
    {"Random Create", "Read", "rand_stat", "rand_stat_cpu",
     "rand_stat_latency"},
    {"Random Create", "Delete", "rand_delete", "rand_delete_cpu",
     "rand_delete_latency"},
};

int rp_bon_slot(const char *m, int *part)
{
    for (size_t i = 0; i < RP_NBON; i++) {
        if (!strcmp(m, rp_bon_cols[i].value))
            return *part = 0, (int)i;
        if (!strcmp(m, rp_bon_cols[i].cpu))
            return *part = 1, (int)i;
        if (!strcmp(m, rp_bon_cols[i].lat))
            return *part = 2, (int)i;
    }
    return -1;
}

int rp_metric_is_bonnie(const char *metric)
{
    int part;
    return rp_bon_slot(metric, &part) >= 0;
}

/* ==== fio I/O and latency ==== */

const char *const rp_io_dirs[3] = {"read", "write", "trim"};

int rp_iolat_metric(const char *metric)
{
    static const char *const sfx[] = {"_iops", "_clat_mean", "_clat_p99"};
    for (size_t k = 0; k < sizeof(rp_io_dirs) / sizeof(rp_io_dirs[0]); k++) {
        size_t n = strlen(rp_io_dirs[k]);
        if (strncmp(metric, rp_io_dirs[k], n))
            continue;
        for (size_t m = 0; m < 3; m++)
            if (!strcmp(metric + n, sfx[m]))
                return 1;
    }
    return 0;
}

/* ==== ZFS space ==== */

static int in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

static const char *const zfs_metrics[] = {
    "compressratio",     "used",           "logicalused", "referenced",
    "logicalreferenced", "actual_savings", NULL};


int rp_metric_in_special(const char *metric)
{
    return in_list(metric, zfs_metrics) || rp_metric_is_bonnie(metric);
}

int rp_metric_is_zfs_space(const char *metric)
{
    return in_list(metric, zfs_metrics);
}
