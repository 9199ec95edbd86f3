/* zfs-commands: a transcript of the commands that built a pool (`zpool
 * create`, `zpool add`, `zfs set`, `zfs create`, `hdparm -W`) and nothing
 * else. It holds no results: ingested with --label X it is a companion
 * output and attaches its layout and properties to configuration X
 * (docs/model.md, "Configurations"); alone it is refused with that hint.
 * The commands are read by commands.c, as in terminal notes. */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The line without a shell prompt ("$ ", "# ", "user@host:~$ ") and sudo. */
static const char *strip_prompt(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *q = p;
    while (q < end && *q != '\n' && *q != '$' && *q != '#' && *q != ' ')
        q++;
    if (q < end && (*q == '$' || *q == '#') && q + 1 < end && q[1] == ' ')
        p = q + 2; /* "$ cmd", "# cmd", "root@h:~# cmd" */
    while (p < end && *p == ' ')
        p++;
    if (end - p > 5 && !strncmp(p, "sudo ", 5))
        p += 5;
    return p;
}

static int is_command(const char *p, const char *end)
{
    static const char *const tools[] = {"zpool ", "zfs ", "hdparm ",
                                        "/sbin/zpool ", "/sbin/zfs ",
                                        "/usr/sbin/zpool ", "/usr/sbin/zfs ",
                                        "/usr/bin/zpool ", "/usr/bin/zfs ",
                                        "/sbin/hdparm ", NULL};
    for (size_t i = 0; tools[i]; i++) {
        size_t n = strlen(tools[i]);
        if ((size_t)(end - p) >= n && !strncmp(p, tools[i], n))
            return 1;
    }
    return 0;
}

/* Claimed when every line is a zpool/zfs/hdparm command, a comment, a
 * continuation or blank, and one of them is `zpool create`: any output
 * (fio's, zpool status') leaves the file to its own parser. */
static int sniff(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    int create = 0, commands = 0, cont = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *s = p;
        while (s < le && isspace((unsigned char)*s))
            s++;
        int blank = s == le;
        const char *c = strip_prompt(p, le);
        if (!blank && !cont) {
            if (is_command(c, le)) {
                commands++;
                const char *w = memchr(c, ' ', (size_t)(le - c));
                int zpool = w && w - c >= 5 && !strncmp(w - 5, "zpool", 5);
                while (w && w < le && *w == ' ')
                    w++;
                if (zpool && le - w >= 7 && !strncmp(w, "create ", 7))
                    create = 1;
            } else if (*s != '#') {
                return 0; /* output or prose: not a transcript */
            }
        }
        cont = !blank && le > p && le[-1] == '\\';
        p = nl ? nl + 1 : end;
    }
    return create && commands ? 40 : 0;
}

static int parse(struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *out = x->out;
    struct pb_err *err = x->err;
    struct pb_cmd_notes n;
    pb_cmd_scan(buf, len, &n);
    const struct pb_cmd_epoch *e = pb_cmd_epoch_at(&n, 0);
    int rc = PB_OK;
    if (!e || e->ndims == 0) {
        rc = pb_err_set(err, PB_EINPUT, path, 1, 0,
                        "no zpool create, zpool add, zfs set or zfs create "
                        "that poolbench can read");
    } else {
        /* the pool's name: the first operand of the last zpool create */
        const char *pool = "pool";
        const char *o = NULL;
        for (size_t i = 0; i < e->ndims && !o; i++)
            if (e->dims[i].origin && strstr(e->dims[i].origin, "create"))
                o = e->dims[i].origin;
        char name[128] = "";
        if (o) {
            const char *c = strstr(o, "create");
            for (c += 6; *c;) {
                while (*c == ' ')
                    c++;
                if (*c == '-') { /* an option, and its value */
                    int takes = c[1] == 'o' || c[1] == 'O' || c[1] == 'm' ||
                                c[1] == 'R' || c[1] == 't';
                    c += strcspn(c, " ");
                    if (takes) {
                        while (*c == ' ')
                            c++;
                        c += strcspn(c, " ");
                    }
                    continue;
                }
                size_t k = strcspn(c, " ");
                if (k && k < sizeof(name)) {
                    memcpy(name, c, k);
                    name[k] = '\0';
                }
                break;
            }
        }
        if (name[0])
            pool = name;
        size_t ci = pb_rs_config(out, pool);
        out->configs[ci].label_is_name = 1;
        /* origin NULL: what the transcript states; as a companion the
         * origin becomes "companion: PATH", and the command line of each
         * dimension is kept as a fact */
        for (size_t i = 0; i < e->ndims; i++) {
            pb_rs_config_param(out, ci, e->dims[i].key, e->dims[i].value);
            if (e->dims[i].origin) {
                char *k = pb_xasprintf("origin.%s", e->dims[i].key);
                pb_rs_fact(out, NULL, k, e->dims[i].origin);
                free(k);
            }
        }
    }
    pb_cmd_notes_release(&n);
    return rc;
}

const struct pb_parser pb_parser_zfs_commands = {
    .name = "zfs-commands",
    .flags = PB_PARSER_COMPANION | PB_PARSER_NEEDS_LABEL,
    .sniff = sniff,
    .parse = parse,
    .needs_label = "commands that build a pool, and no results: ingest it "
                   "with --label X to attach its layout and properties to "
                   "configuration X",
};
