/* poolbench doctor: can `poolbench run` work on this machine? One line
 * per check (root, fio, ZFS and whether it answers, loop devices, free
 * space, and the optional tools), with the Debian package to install for
 * what is missing. Only asks; changes nothing. */
#define _XOPEN_SOURCE 700
#include "cli/cli.h"
#include "cli/opt.h"
#include "run/run.h"

#include <getopt.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Below this a run's sparse vdev files and raw outputs do not fit:
 * examples/quick.ini makes two 512M files. */
#define MIN_FREE (1024.0 * 1024 * 1024)

static const char usage_text[] =
    "usage: poolbench doctor [--dir DIR] [-q|--quiet]\n"
    "\n"
    "Check whether 'poolbench run' can work here: root, fio, ZFS (OpenZFS\n"
    "or zfs-fuse, its version, and whether it answers), loop devices, free\n"
    "space in the run folder, and the optional tools (chromium for the\n"
    "report's browser check, scdoc and man for the manual pages). One line\n"
    "per check: ok, or missing with the Debian package to install. Runs\n"
    "only read-only queries (fio --version, and the queries of a run's\n"
    "preflight: zfs get, zpool get, zpool upgrade -v, zfs version).\n"
    "\n"
    "  --dir DIR   folder whose free space a run would use (default: the\n"
    "              current folder, where ./run-<plan> goes)\n"
    "  -q, --quiet print only the checks that are not ok\n"
    "  -h, --help  show this help\n"
    "\n"
    "Exit status: 0 when run can work (optional tools may be missing), 1\n"
    "when something it needs is missing, 2 for a usage error.\n";

struct doctor {
    int quiet;
    int missing;  /* required checks that failed */
    int optional; /* optional checks that failed */
};

static void line(struct doctor *d, const char *what, int ok, int required,
                 const char *fmt, ...) PB_PRINTF(5, 6);

static void line(struct doctor *d, const char *what, int ok, int required,
                 const char *fmt, ...)
{
    if (!ok)
        *(required ? &d->missing : &d->optional) += 1;
    if (ok && d->quiet)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    char *safe = pb_term_str(msg);
    printf("%-11s %-8s %s\n", what, ok ? "ok" : "missing", safe);
    free(safe);
}

static void check_zfs(struct doctor *d, const struct pb_run_env *env)
{
    if (!env->zfs_path[0]) {
        line(d, "zfs", 0, 1, "no zfs and zpool on PATH: apt-get install "
             "zfsutils-linux (OpenZFS, Debian contrib) or zfs-fuse");
        line(d, "zfs-answer", 0, 1, "no ZFS to ask");
        return;
    }
    line(d, "zfs", 1, 1, "%s (%s)", env->kind,
         env->zfs_path);
    if (env->zfs_answers)
        line(d, "zfs-answer", 1, 1, "%s answers%s", env->zfs_version,
             env->impl == PB_RUN_IMPL_ZFS_FUSE ? " (its daemon is up)" : "");
    else if (env->impl == PB_RUN_IMPL_ZFS_FUSE)
        line(d, "zfs-answer", 0, 1, "the zfs-fuse daemon does not answer: "
             "start it (service zfs-fuse start; package zfs-fuse)");
    else
        line(d, "zfs-answer", 0, 1, "OpenZFS does not answer%s: modprobe "
             "zfs (package zfs-dkms)",
             env->module ? "" : " (no zfs kernel module loaded)");
}

static void check_space(struct doctor *d, const char *dir)
{
    struct statvfs sv;
    char abs[PATH_MAX], size[32];
    if (!realpath(dir, abs))
        snprintf(abs, sizeof(abs), "%s", dir);
    if (statvfs(dir, &sv) != 0) {
        line(d, "space", 0, 1, "cannot read the free space of '%s'", abs);
        return;
    }
    double avail = (double)sv.f_bavail * (double)sv.f_frsize;
    if (avail >= 1024.0 * 1024 * 1024)
        snprintf(size, sizeof(size), "%.1fG", avail / (1024.0 * 1024 * 1024));
    else
        snprintf(size, sizeof(size), "%.0fM", avail / (1024.0 * 1024));
    if (avail >= MIN_FREE)
        line(d, "space", 1, 1, "%s free in %s", size, abs);
    else
        line(d, "space", 0, 1, "only %s free in %s: a run needs 1G or more "
             "for its vdev files and outputs (or run -o DIR elsewhere)",
             size, abs);
}

struct doctor_args {
    const char *dir;
    int quiet;
};

#define A(f) offsetof(struct doctor_args, f)
/* In getopt's order (ambiguity and "did you mean" messages follow it). */
static const struct cli_opt doctor_opts[] = {
    {"dir", 0, CLI_OPT_STR, A(dir), NULL},
    {"quiet", 'q', CLI_OPT_FLAG, A(quiet), NULL},
    {"help", 'h', CLI_OPT_HELP, 0, NULL},
    {NULL, 0, CLI_OPT_FLAG, 0, NULL},
};
#undef A

int cmd_doctor(int argc, char **argv)
{
    static const char *const help[] = {usage_text, NULL};
    struct doctor_args a = {".", 0};
    int status;
    if (!cli_opt_parse("doctor", doctor_opts, &a, help, argc, argv, &status))
        return status;
    struct doctor d = {0};
    const char *dir = a.dir;
    d.quiet = a.quiet;
    if (optind < argc)
        return cli_usage_error("doctor", "unexpected argument '%s'",
                               argv[optind]);

    uid_t uid = geteuid();
    if (uid == 0)
        line(&d, "root", 1, 1, "running as root");
    else
        line(&d, "root", 0, 1, "uid %lu: a run needs root (zpool, zfs, "
             "drop_caches): sudo poolbench run ...", (unsigned long)uid);

    struct pb_run_env env;
    pb_run_env_probe(&env, 10);
    if (!env.fio_path[0])
        line(&d, "fio", 0, 1, "not on PATH: apt-get install fio");
    else if (!env.fio_version[0])
        line(&d, "fio", 0, 1, "%s does not say its version: apt-get "
             "install --reinstall fio", env.fio_path);
    else
        line(&d, "fio", 1, 1, "%s (%s)", env.fio_version, env.fio_path);
    check_zfs(&d, &env);

    char path[PATH_MAX];
    int losetup = pb_run_which("losetup", path, sizeof(path));
    int ctl = access("/dev/loop-control", F_OK) == 0;
    if (losetup && ctl)
        line(&d, "loop", 1, 0, "%s, /dev/loop-control", path);
    else
        line(&d, "loop", 0, 0, "optional, for loop: vdevs (and file cache "
             "vdevs on zfs-fuse): %s",
             !losetup ? "no losetup on PATH: apt-get install mount"
                      : "no /dev/loop-control: modprobe loop");
    check_space(&d, dir);

    static const char *const browsers[] = {"chromium", "chromium-browser",
                                           "google-chrome", NULL};
    int found = 0;
    for (size_t i = 0; browsers[i] && !found; i++)
        found = pb_run_which(browsers[i], path, sizeof(path));
    if (found)
        line(&d, "chromium", 1, 0, "%s", path);
    else
        line(&d, "chromium", 0, 0, "optional, for the report's browser "
             "check: apt-get install chromium");
    if (pb_run_which("scdoc", path, sizeof(path)))
        line(&d, "scdoc", 1, 0, "%s", path);
    else
        line(&d, "scdoc", 0, 0, "optional, to build the man pages: "
             "apt-get install scdoc");
    if (pb_run_which("man", path, sizeof(path)))
        line(&d, "man", 1, 0, "%s", path);
    else
        line(&d, "man", 0, 0, "optional, to read the man pages: apt-get "
             "install man-db");

    if (d.missing)
        printf("poolbench doctor: run cannot work here: %d needed check%s "
               "missing\n", d.missing, d.missing == 1 ? "" : "s");
    else if (!d.quiet)
        printf("poolbench doctor: run can work here%s\n",
               d.optional ? " (optional tools missing)" : "");
    return d.missing ? 1 : 0;
}
