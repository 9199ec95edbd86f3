/* What a run would find on this machine, for `poolbench --version` and
 * `poolbench doctor`: fio's version and the ZFS in use, learnt with the
 * preflight's own capability probe (caps.c, preflight.c) and the same
 * detection of OpenZFS or zfs-fuse a run makes (zfs_host.c). Read-only. */
#define _GNU_SOURCE
#include "run/preflight_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pb_run_which(const char *prog, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    if (n)
        buf[0] = '\0';
    if (!path)
        path = "/usr/sbin:/usr/bin:/sbin:/bin";
    while (*path) {
        size_t k = strcspn(path, ":");
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%.*s/%s", (int)k, path, prog);
        if (k > 0 && access(full, X_OK) == 0) {
            snprintf(buf, n, "%s", full);
            return 1;
        }
        path += k;
        if (*path)
            path++;
    }
    return 0;
}

/* First line of what argv prints (stdout, else stderr); "" when it fails. */
static void first_line(struct pb_run_exec *x, const char *const *argv,
                       char *buf, size_t n)
{
    struct pb_run_res res = {0};
    buf[0] = '\0';
    if (pb_run_cmd(x, argv, PB_RUN_CAPTURE, &res) == 0) {
        const char *s = pb_buf_str(&res.out);
        if (!*s)
            s = pb_buf_str(&res.err);
        snprintf(buf, n, "%.*s", (int)strcspn(s, "\r\n"), s);
    }
    pb_run_res_release(&res);
}

void pb_run_env_probe(struct pb_run_env *env, double timeout)
{
    memset(env, 0, sizeof(*env));
    struct pb_run_exec x = {0};
    x.query_timeout = timeout;
    x.admin_timeout = timeout;
    if (pb_run_which("fio", env->fio_path, sizeof(env->fio_path))) {
        const char *argv[] = {env->fio_path, "--version", NULL};
        first_line(&x, argv, env->fio_version, sizeof(env->fio_version));
    }
    env->impl = pb_run_detect_impl();
    snprintf(env->kind, sizeof(env->kind), "%s", pb_run_impl_name(env->impl));
    env->module = access("/sys/module/zfs", F_OK) == 0;
    int zpool = pb_run_which("zpool", NULL, 0);
    if (!pb_run_which("zfs", env->zfs_path, sizeof(env->zfs_path)) || !zpool)
        return;
    struct pb_run_caps caps;
    pb_run_caps_probe(&x, env->impl, NULL, &caps);
    env->zfs_answers = caps.nds > 0 || caps.npool > 0 || caps.pool_version;
    if (env->zfs_answers)
        snprintf(env->zfs_version, sizeof(env->zfs_version), "%s",
                 caps.name);
    pb_run_caps_release(&caps);
}
