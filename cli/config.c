/* The user's config file: INI-like `key = value` lines, sections naming
 * a prefix ([report] title = ... is report.title), read with inih like
 * the plans. One bad line is one error at path:line. */
#define _POSIX_C_SOURCE 200809L
#include "cli/config.h"
#include "common/pb_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SIZE (1024 * 1024)

static const char *const known_keys =
    "db, report.title, report.palette, ingest.label-from, ingest.rules";

char *cli_config_path(int *explicit_)
{
    *explicit_ = 0;
    const char *e = getenv("POOLBENCH_CONFIG");
    if (e) {
        if (!*e || !strcmp(e, "none"))
            return NULL;
        *explicit_ = 1;
        return pb_xstrdup(e);
    }
    e = getenv("XDG_CONFIG_HOME");
    if (e && e[0] == '/') /* relative values are invalid (XDG spec) */
        return pb_xasprintf("%s/poolbench/config", e);
    e = getenv("HOME");
    if (e && *e)
        return pb_xasprintf("%s/.config/poolbench/config", e);
    return NULL;
}

/* ==== reading ==== */



struct ctx {
    struct cli_config *c;
    struct pb_ini_reader *rd;
    struct pb_err *err;
    const char *path;
    char *dir; /* the file's folder: relative paths are relative to it */
    long seen[5]; /* line each key was set on, by index in keys[] */
};

enum { K_DB, K_TITLE, K_PALETTE, K_LABEL_FROM, K_RULES };
static const char *const keys[] = {"db", "report.title", "report.palette",
                                   "ingest.label-from", "ingest.rules"};

/* ~/x is under $HOME; a relative path is under the config's folder. */
static char *file_value(const struct ctx *x, const char *v)
{
    const char *home = getenv("HOME");
    if (v[0] == '~' && (v[1] == '/' || !v[1]) && home && *home)
        return pb_xasprintf("%s%s", home, v + 1);
    if (v[0] == '/')
        return pb_xstrdup(v);
    return pb_xasprintf("%s/%s", x->dir, v);
}

/* An error at the current line; 0 for inih (stop). */
static int bad(struct ctx *x, const char *fmt, ...) PB_PRINTF(2, 3);

static int bad(struct ctx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pb_err_vset(x->err, PB_EUSAGE, x->path, x->rd->line, 0, fmt, ap);
    va_end(ap);
    return 0;
}

/* "#4e79a7, #f28e2b" or blank-separated. */
static int palette(struct ctx *x, const char *v)
{
    const char *s = v;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            break;
        size_t n = strcspn(s, " \t,");
        int ok = n == 7 && s[0] == '#';
        for (size_t i = 1; ok && i < 7; i++)
            ok = isxdigit((unsigned char)s[i]);
        char word[64];
        snprintf(word, sizeof(word), "%.*s", (int)(n < 60 ? n : 60), s);
        if (!ok)
            return bad(x, "report.palette: '%s' is not a colour #rrggbb",
                       word);
        if (x->c->npalette == CLI_CONFIG_MAX_COLORS)
            return bad(x, "report.palette: more than %d colours",
                       CLI_CONFIG_MAX_COLORS);
        x->c->palette[x->c->npalette++] =
            (uint32_t)strtoul(word + 1, NULL, 16);
        s += n;
    }
    if (!x->c->npalette)
        return bad(x, "report.palette: no colours (write #rrggbb, ...)");
    return 1;
}

static int on_pair(void *user, const char *section, const char *name,
                   const char *value)
{
    struct ctx *x = user;
    if (x->err->code)
        return 0;
    char key[128];
    snprintf(key, sizeof(key), "%s%s%s", section, *section ? "." : "", name);
    for (char *p = key; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    size_t k = 0;
    while (k < sizeof(keys) / sizeof(*keys) && strcmp(keys[k], key))
        k++;
    if (k == sizeof(keys) / sizeof(*keys))
        return bad(x, "unknown key '%s' (known: %s)", key, known_keys);
    if (x->seen[k] && k != K_PALETTE) /* palette: continuation lines add */
        return bad(x, "'%s' is set twice (first on line %ld)", key,
                   x->seen[k]);
    if (!*value)
        return bad(x, "'%s' has no value", key);
    x->seen[k] = x->rd->line;
    struct cli_config *c = x->c;
    switch (k) {
    case K_DB: c->db = file_value(x, value); break;
    case K_TITLE: c->title = pb_xstrdup(value); break;
    case K_PALETTE: return palette(x, value);
    case K_LABEL_FROM:
        if (strcmp(value, "file") && strcmp(value, "dir") &&
            strcmp(value, "title"))
            return bad(x, "ingest.label-from wants file, dir or title, got "
                       "'%s'", value);
        c->label_from = pb_xstrdup(value);
        break;
    case K_RULES: c->rules = file_value(x, value); break;
    }
    return 1;
}

/* As root, a config another user can write would let them choose the
 * database and rules files root writes and reads: refused. */
static int trusted(int fd, const char *path, struct pb_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot read: %s",
                          strerror(errno));
    if (geteuid() != 0)
        return PB_OK;
    if (st.st_uid != 0)
        return pb_err_set(err, PB_EUSAGE, path, 0, 0, "refusing the config "
                          "file: it belongs to uid %lu, not root (poolbench "
                          "runs as root)", (unsigned long)st.st_uid);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return pb_err_set(err, PB_EUSAGE, path, 0, 0, "refusing the config "
                          "file: others can write it (chmod go-w)");
    return PB_OK;
}

int cli_config_load(const char *path, struct cli_config *c,
                    struct pb_err *err)
{
    memset(c, 0, sizeof(*c));
    c->path = pb_xstrdup(path);
    /* as every input: a FIFO or a device named as config cannot hang
     * the command, only a regular file is read */
    const char *kind;
    int fd = pb_open_file(path, O_RDONLY, 0, PB_OPEN_REG, &kind);
    if (fd < 0 && kind)
        return pb_err_set(err, PB_EUSAGE, path, 0, 0, "refusing the config "
                          "file: not a regular file (%s)", kind);
    if (fd < 0)
        return pb_err_set(err, PB_EIO, path, 0, 0, "cannot read the config "
                          "file: %s", strerror(errno));
    if (trusted(fd, path, err) != PB_OK) {
        close(fd);
        return err->code;
    }
    /* read through the descriptor checked, not the name again */
    struct pb_buf b = PB_BUF_INIT;
    char chunk[4096];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof(chunk))) > 0 && b.len <= MAX_SIZE)
        pb_buf_add(&b, chunk, (size_t)n);
    int e = errno;
    close(fd);
    if (n < 0 || b.len > MAX_SIZE) {
        pb_buf_release(&b);
        return n < 0 ? pb_err_set(err, PB_EIO, path, 0, 0, "cannot read the "
                                  "config file: %s", strerror(e))
                     : pb_err_set(err, PB_EUSAGE, path, 0, 0, "larger than "
                                  "1M: not a config file");
    }
    const char *buf = pb_buf_str(&b);
    size_t len = b.len;
    int rc = cli_config_parse(path, buf, len, c, err);
    pb_buf_release(&b);
    return rc;
}

int cli_config_parse(const char *path, const char *buf, size_t len,
                     struct cli_config *c, struct pb_err *err)
{
    if (!c->path) {
        memset(c, 0, sizeof(*c));
        c->path = pb_xstrdup(path);
    }
    const char *nul = memchr(buf, '\0', len);
    if (nul)
        return pb_err_set(err, PB_EUSAGE, path,
                          pb_line_of(buf, (size_t)(nul - buf)), 0,
                          "NUL byte in the config file (not a text file)");
    char *text = pb_xstrndup(buf, len);
    struct pb_ini_reader rd = {text, 0, 0, 0};
    struct ctx x = {0};
    x.c = c;
    x.rd = &rd;
    x.err = err;
    x.path = path;
    x.dir = pb_xstrdup(path);
    char *slash = strrchr(x.dir, '/');
    if (slash)
        slash[slash == x.dir ? 1 : 0] = '\0';
    else
        strcpy(x.dir, ".");
    int rc = ini_parse_stream(pb_ini_read_line, &rd, on_pair, &x);
    if (!err->code && rd.toolong)
        pb_err_set(err, PB_EUSAGE, path, rd.toolong, 0, "line is longer than "
                   "196 characters");
    else if (rc > 0 && (!err->code || rc < err->line)) {
        pb_err_clear(err);
        pb_err_set(err, PB_EUSAGE, path, rc, 0, "expected 'key = value', "
                   "'[section]' or a comment");
    }
    free(x.dir);
    free(text);
    return err->code;
}

void cli_config_release(struct cli_config *c)
{
    free(c->path);
    free(c->db);
    free(c->title);
    free(c->label_from);
    free(c->rules);
    memset(c, 0, sizeof(*c));
}

/* ==== the process's config ==== */

static struct cli_config the_config;

const struct cli_config *cli_config(void)
{
    return &the_config;
}

int cli_config_init(int quiet)
{
    int explicit_;
    char *path = cli_config_path(&explicit_);
    if (!path)
        return 0;
    struct stat st;
    if (!explicit_ && stat(path, &st) != 0 && errno == ENOENT) {
        free(path);
        return 0; /* no config file: the built-in defaults */
    }
    struct pb_err err = {0};
    int rc = cli_config_load(path, &the_config, &err);
    free(path);
    if (rc != PB_OK) {
        cli_config_release(&the_config);
        if (quiet)
            return 0;
        pb_err_print(&err, stderr);
        return 2;
    }
    const char *env = getenv("POOLBENCH_DB");
    if (the_config.db && !(env && *env))
        setenv("POOLBENCH_DB", the_config.db, 1);
    return 0;
}
