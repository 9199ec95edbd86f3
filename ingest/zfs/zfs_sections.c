/* Combined logs for the zfs-props parser: what the lines between the
 * outputs poolbench reads are (df, zpool iostat, uptime, ...), and the
 * `skipped_lines` fact that names them ("12-19 (df), 20-25 (unknown)"). */
#define _GNU_SOURCE /* memrchr */
#include "ingest/zfs/zfs_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ==== what a line is ==== */

static int has_words(const struct toks *tk, size_t from,
                     const char *const *words)
{
    size_t k = 0;
    for (; words[k]; k++)
        if (from + k >= tk->n || !pb_zfs_tokeq(&tk->t[from + k], words[k]))
            return 0;
    return 1;
}

const char *pb_zfs_foreign(const struct toks *tk, const char *line)
{
    static const char *const df[] = {"Filesystem", NULL};
    static const char *const io1[] = {"capacity", "operations", "bandwidth",
                                      NULL};
    static const char *const io2[] = {"pool", "alloc", "free",
                                      "read", "write", NULL};
    static const char *const arc[] = {"time", "read", "miss", "miss%", NULL};
    if (tk->n == 0)
        return NULL;
    if (has_words(tk, 0, df) && strstr(line, "Mounted on"))
        return "df";
    if (has_words(tk, 0, io1) || has_words(tk, 0, io2))
        return "zpool iostat";
    if (has_words(tk, 0, arc))
        return "arcstat";
    if (pb_zfs_tokeq(&tk->t[0], "NAME") && tk->n >= 2 &&
        pb_zfs_tokeq(&tk->t[1], "MAJ:MIN"))
        return "lsblk";
    if (pb_zfs_tokeq(&tk->t[0], "avg-cpu:") ||
        (pb_zfs_tokeq(&tk->t[0], "Device") && tk->n >= 2))
        return "iostat";
    if (tk->n >= 3 && pb_zfs_tokeq(&tk->t[1], "up") &&
        strstr(line, "load average"))
        return "uptime";
    if (pb_zfs_tokeq(&tk->t[0], "Mem:") || pb_zfs_tokeq(&tk->t[0], "Swap:"))
        return "free";
    if (pb_zfs_tokeq(&tk->t[0], "History") && tk->n >= 3 &&
        pb_zfs_tokeq(&tk->t[1], "for"))
        return "zpool history";
    return NULL;
}

int pb_zfs_name_shaped(const struct tok *t)
{
    /* pool names start with a letter; the rest is left to the rows' own
     * checks (a hostile name is stored escaped, not refused here) */
    return t->n > 0 && isalpha((unsigned char)t->s[0]);
}

/* Commands whose output may sit in a ZFS log; a comment's first word is
 * a command only when it is one of these. */
static const char *const commands[] = {
    "df",     "du",      "free",       "uptime",      "iostat",
    "vmstat", "arcstat", "arcstat.py", "arc_summary", "arc_summary.py",
    "lsblk",  "fio",     "date",       "cat",         "echo",
    "uname",  "hdparm",  "smartctl",   "mount",       "dmesg",
    "top",    "sar",     "nvme",       "zdb",         "ls",
    "time",   NULL};

/* The command of a prompt line ("root@nas:~# zpool iostat -v 5" ->
 * "zpool iostat", "# df -h" -> "df"), or NULL. */
static const char *prompt_cmd(struct ctx *c, const struct toks *tk)
{
    size_t k = 0;
    while (k < tk->n) {
        const struct tok *t = &tk->t[k];
        char last = t->s[t->n - 1];
        if (pb_zfs_tokeq(t, "#") || pb_zfs_tokeq(t, "sudo") ||
            (t->n > 1 && (last == '$' || last == '#' || last == '%')))
            k++;
        else if (pb_zfs_tokeq(t, "$") || pb_zfs_tokeq(t, "%"))
            k++;
        else
            break;
    }
    if (k >= tk->n)
        return NULL;
    const char *w = tk->t[k].s;
    size_t n = tk->t[k].n;
    const char *slash = memrchr(w, '/', n); /* /sbin/zpool */
    if (slash) {
        n -= (size_t)(slash + 1 - w);
        w = slash + 1;
    }
    if ((n == 5 && !memcmp(w, "zpool", 5)) ||
        (n == 3 && !memcmp(w, "zfs", 3))) {
        /* "zpool iostat": the subcommand, when it is a plain word */
        const struct tok *sub = k + 1 < tk->n ? &tk->t[k + 1] : NULL;
        int word = sub && sub->n <= 20;
        for (size_t i = 0; word && i < sub->n; i++)
            word = islower((unsigned char)sub->s[i]) != 0;
        return word ? pb_arena_printf(&c->keep, "%.*s %.*s", (int)n, w,
                                      (int)sub->n, sub->s)
                    : pb_arena_strndup(&c->keep, w, n);
    }
    return pb_zfs_in_list(commands, w, n) ? pb_arena_strndup(&c->keep, w, n)
                                          : NULL;
}

/* ==== skipped ranges ==== */

void pb_zfs_section_found(struct ctx *c)
{
    c->skip_open = 0;
    c->cur_cmd = NULL;
}

void pb_zfs_junk_line(struct ctx *c, const struct line *L)
{
    struct toks *tk = &c->tk;
    pb_zfs_split_ws(L->s, tk);
    if (pb_zfs_is_prompt(tk)) {
        /* a new command: what follows is its output */
        c->cur_cmd = prompt_cmd(c, tk);
        c->skip_open = 0;
        return;
    }
    const char *what = pb_zfs_foreign(tk, L->s);
    struct zskip *last = c->nskips ? &c->skips[c->nskips - 1] : NULL;
    if (!what)
        what = c->cur_cmd             ? c->cur_cmd
               : c->skip_open && last ? last->what
                                      : "unknown";
    if (c->skip_open && last && !strcmp(last->what, what)) {
        last->last = L->no;
        return;
    }
    PB_GROW(c->skips, c->capskips, c->nskips + 1);
    struct zskip *s = &c->skips[c->nskips++];
    s->first = s->last = L->no;
    s->what = what;
    c->skip_open = 1;
}

void pb_zfs_skipped_fact(struct ctx *c)
{
    if (!c->nskips)
        return;
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < c->nskips; i++) {
        const struct zskip *s = &c->skips[i];
        pb_buf_printf(&b, "%s%ld", i ? ", " : "", s->first);
        if (s->last != s->first)
            pb_buf_printf(&b, "-%ld", s->last);
        pb_buf_printf(&b, " (%s)", s->what);
    }
    pb_rs_fact(c->out, NULL, "skipped_lines", pb_buf_str(&b));
    pb_buf_release(&b);
}
