/* Private to ingest/: a pool's vdev tree, as `zpool status`, `zpool list -v`
 * (zpool_status.c) and a pasted `zpool create`/`zpool add` (commands.c)
 * give it, and the configuration dimensions it makes (vdev_tree.c), so
 * that every reader names a pool alike (docs/model.md, "Dimensions of a
 * pool's vdevs"). Use: pb_vtree_add per top-level vdev, then
 * pb_vtree_dims, then pb_vtree_release. */
#ifndef PB_VDEV_INT_H
#define PB_VDEV_INT_H

#include "resultset/resultset.h"

#include <stddef.h>

/* The classes `zpool status` heads its sections with; data first. */
enum pb_vclass {
    PB_VC_DATA,
    PB_VC_LOG,
    PB_VC_CACHE,
    PB_VC_SPARE,
    PB_VC_SPECIAL,
    PB_VC_DEDUP,
    PB_VC_N
};

/* One top-level vdev: its class, type ("stripe" for a single disk,
 * "mirror", "raidz2", "draid1", ...) and width (its disks). */
struct pb_vtop {
    int cls;
    char type[16];
    long width;
};

struct pb_vtree {
    struct pb_vtop *v;
    size_t n, cap;
};

/* The class a section word names ("logs", "log", "cache", "spares",
 * "spare", "special", "dedup"; lower case, as zpool prints and takes
 * them), or -1. */
int pb_vclass_of(const char *s, size_t n);

/* pb_vdev_group_type: resultset/resultset.h (dimension values). */

/* Add a top-level vdev of class cls: type NULL is a single disk (width
 * 1). The last one added is the tree's current vdev (pb_vtree_widen). */
void pb_vtree_add(struct pb_vtree *t, int cls, const char *type, long width);
/* One more disk in the current vdev. */
void pb_vtree_widen(struct pb_vtree *t);
void pb_vtree_release(struct pb_vtree *t);

/* Called with each dimension; key and value are borrowed. */
typedef void pb_vtree_put_fn(void *ctx, const char *key, const char *value);

/* The tree's dimensions, in this order: layout, vdevs, disks,
 * disks_per_vdev (only with data vdevs), slog, slog_vdevs, l2arc,
 * l2arc_devices, special, special_vdevs, dedup_class, dedup_class_vdevs,
 * spares (the counts only where the class is present). */
void pb_vtree_dims(const struct pb_vtree *t, pb_vtree_put_fn *put, void *ctx);
/* Those keys, NULL-terminated. */
extern const char *const pb_vtree_keys[];

#endif
