/* poolbench --version: the version, the git revision it was built from,
 * the libraries it runs with, and the fio and ZFS a run would use. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/config.h"
#include "run/run.h"
#include "pb_git_rev.h" /* PB_GIT_REV (build dir; cmake/git_rev.cmake) */

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <openssl/crypto.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PB_VERSION
#define PB_VERSION "0.1.0"
#endif

/* 20914 -> "2.9.14" (libxml2's and fontconfig's encoding). */
static const char *dotted(long v, long major_div, char *buf, size_t n)
{
    long minor_div = major_div / 100;
    snprintf(buf, n, "%ld.%ld.%ld", v / major_div, v / minor_div % 100,
             v % minor_div);
    return buf;
}

/* "  NAME       text": one aligned line per component. */
static void row(FILE *fp, const char *name, const char *fmt, ...)
    PB_PRINTF(3, 4);

static void row(FILE *fp, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(fp, "  %-10s ", name);
    vfprintf(fp, fmt, ap);
    va_end(ap);
}

void cli_version_print(FILE *fp, int probe)
{
    char buf[128];
    fprintf(fp, "poolbench %s\n", PB_VERSION);
#ifdef PB_GIT_REV
    row(fp, "git", "%s\n", PB_GIT_REV);
#endif
    row(fp, "SQLite", "%s\n", sqlite3_libversion());
    row(fp, "libxml2", "%s\n",
            dotted(atol(xmlParserVersion), 10000, buf, sizeof(buf)));
    if (pcre2_config(PCRE2_CONFIG_VERSION, NULL) <= (int)sizeof(buf) &&
        pcre2_config(PCRE2_CONFIG_VERSION, buf) > 0)
        row(fp, "PCRE2", "%s\n", buf);
    row(fp, "cairo", "%s\n", cairo_version_string());
    row(fp, "fontconfig", "%s\n",
            dotted(FcGetVersion(), 10000, buf, sizeof(buf)));
    row(fp, "jansson", "%s\n", jansson_version_str());
    row(fp, "libcrypto", "%s\n", OpenSSL_version(OPENSSL_VERSION));
    row(fp, "jsmn", "compiled in (header-only library, libjsmn-dev; "
                "no version of its own)\n");
    int named;
    char *cfg = cli_config_path(&named);
    if (!cfg)
        row(fp, "config", "none\n");
    else
        row(fp, "config", "%s%s\n", cfg,
            access(cfg, F_OK) == 0 ? "" : " (not present)");
    free(cfg);
    if (!probe)
        return;
    struct pb_run_env env;
    pb_run_env_probe(&env, 10);
    if (!env.fio_path[0])
        row(fp, "fio", "not found on PATH\n");
    else
        row(fp, "fio", "%s (%s)\n",
                env.fio_version[0] ? env.fio_version : "version unknown",
                env.fio_path);
    if (!env.zfs_path[0])
        row(fp, "ZFS", "not found on PATH (zfs and zpool)\n");
    else if (!env.zfs_answers)
        row(fp, "ZFS", "%s, not answering (%s)\n",
                env.kind, env.zfs_path);
    else
        row(fp, "ZFS", "%s (%s)\n", env.zfs_version, env.zfs_path);
}

int cli_version(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: poolbench --version [--short]\n\n"
                   "Print poolbench's version, the git revision it was "
                   "built from (when built\nfrom a git checkout), the "
                   "versions of the libraries it runs with, and the\n"
                   "fio and ZFS found on PATH (their own answers to "
                   "`fio --version` and the\nZFS queries a run's "
                   "preflight makes).\n\n"
                   "  --short     only the first line, \"poolbench "
                   "VERSION\"; nothing is run\n");
            return 0;
        }
        if (strcmp(argv[i], "--short"))
            return cli_usage_error(NULL, "--version takes only --short, "
                                   "got '%s'", argv[i]);
    }
    int short_only = argc > 1;
    if (short_only) {
        printf("poolbench %s\n", PB_VERSION);
        return 0;
    }
    cli_version_print(stdout, 1);
    return 0;
}
