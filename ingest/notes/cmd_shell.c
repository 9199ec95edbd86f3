/* Shell lines in terminal notes: prompts, words with shell quoting, the
 * commands of a line after sudo, env, nice and other wrappers, and the
 * quick test for lines naming a tool. commands.c reads the commands. */
#include "ingest/notes/commands_int.h"

#include <stdlib.h>
#include <string.h>

const char *pb_cmd_base_name(const char *s)
{
    const char *b = strrchr(s, '/');
    return b ? b + 1 : s;
}

static int known_command(const char *word)
{
    const char *b = pb_cmd_base_name(word);
    return !strcmp(b, "zpool") || !strcmp(b, "zfs") || !strcmp(b, "hdparm") ||
           !strcmp(b, "fio");
}

/* Index of the real command in tok: after sudo and its options, doas,
 * time, nohup, env, nice, VAR=value assignments. */
static size_t skip_wrappers(char **tok, size_t ntok)
{
    size_t i = 0;
    while (i < ntok) {
        const char *b = pb_cmd_base_name(tok[i]);
        if (!strcmp(b, "sudo") || !strcmp(b, "doas")) {
            i++;
            while (i < ntok && tok[i][0] == '-') {
                const char *o = tok[i++];
                if ((!strcmp(o, "-u") || !strcmp(o, "-g") ||
                     !strcmp(o, "-C") || !strcmp(o, "-p")) && i < ntok)
                    i++;
                if (!strcmp(o, "--"))
                    break;
            }
        } else if (!strcmp(b, "time") || !strcmp(b, "nohup") ||
                   !strcmp(b, "env") || !strcmp(b, "command") ||
                   !strcmp(b, "exec")) {
            i++;
        } else if (!strcmp(b, "nice") || !strcmp(b, "ionice")) {
            i++;
            while (i < ntok && tok[i][0] == '-')
                i += (!strcmp(tok[i], "-n") || !strcmp(tok[i], "-c")) ? 2 : 1;
        } else if (strchr(tok[i], '=') && tok[i][0] != '=' &&
                   tok[i][0] != '-' &&
                   strspn(tok[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "abcdefghijklmnopqrstuvwxyz0123456789_") ==
                       (size_t)(strchr(tok[i], '=') - tok[i])) {
            i++;
        } else {
            break;
        }
    }
    return i;
}

/* Length of the prompt at the start of s (`$ `, `# `, `user@host:~$ `,
 * `[root@box ~]# `, `box:~ me$ `), or 0. */
size_t pb_cmd_prompt_len(const char *s, size_t n)
{
    if (n >= 2 && (s[0] == '$' || s[0] == '#' || s[0] == '%') && s[1] == ' ')
        return 2;
    size_t lim = n < 100 ? n : 100;
    for (size_t i = 1; i + 1 < lim; i++) {
        char c = s[i];
        if ((c != '$' && c != '#' && c != '%') || s[i + 1] != ' ')
            continue;
        size_t spaces = 0;
        int mark = 0;
        for (size_t k = 0; k < i; k++) {
            if (s[k] == ' ')
                spaces++;
            if (s[k] == '@' || s[k] == ':' || s[k] == '~' || s[k] == ']')
                mark = 1;
            if (s[k] == '"' || s[k] == '\'' || s[k] == '=' || s[k] == '|' ||
                s[k] == ';' || s[k] == '\t')
                return 0;
        }
        if (spaces > 3 || !mark)
            return 0;
        /* "zfs get all #" is a command, not a prompt */
        size_t w = strcspn(s, " ");
        char first[16];
        if (w < sizeof(first)) {
            memcpy(first, s, w);
            first[w] = '\0';
            if (known_command(first))
                return 0;
        }
        return i + 2;
    }
    return 0;
}

void pb_cmd_split(const char *s, size_t n, pb_cmd_fn *on_cmd, void *ctx)
{
    char **tok = pb_xcalloc(MAX_TOKENS, sizeof(*tok));
    size_t ntok = 0;
    struct pb_buf w = PB_BUF_INIT;
    int inword = 0;
    size_t i = 0;
    for (;;) {
        int end = i >= n;
        char c = end ? '\0' : s[i];
        int sep = end || c == ';' || c == '&' || c == '|' ||
                  (c == '#' && !inword);
        if (end || sep || c == ' ' || c == '\t') {
            if (inword && ntok < MAX_TOKENS)
                tok[ntok++] = pb_buf_take(&w);
            pb_buf_reset(&w);
            inword = 0;
        }
        if (sep) {
            size_t k = skip_wrappers(tok, ntok);
            if (k < ntok && known_command(tok[k]))
                on_cmd(ctx, tok + k, ntok - k);
            for (size_t x = 0; x < ntok; x++)
                free(tok[x]);
            ntok = 0;
            if (end || c == '#')
                break;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t') {
            i++;
            continue;
        }
        inword = 1;
        if (c == '\'' || c == '"') {
            /* a quote runs to its mate; unbalanced: to the end */
            size_t k = i + 1;
            while (k < n && s[k] != c) {
                if (c == '"' && s[k] == '\\' && k + 1 < n)
                    k++;
                pb_buf_putc(&w, s[k]);
                k++;
            }
            i = k < n ? k + 1 : n;
            continue;
        }
        if (c == '\\' && i + 1 < n) {
            pb_buf_putc(&w, s[i + 1]);
            i += 2;
            continue;
        }
        pb_buf_putc(&w, c);
        i++;
    }
    pb_buf_release(&w);
    free(tok);
}

/* 1 when s holds "zpool", "zfs", "hdparm" or "fio" (one pass: memmem per
 * word cost a quarter of parsing a large fio text). */
int pb_cmd_names_tool(const char *s, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++) {
        switch (s[i]) {
        case 'z':
            if (s[i + 1] == 'f' && s[i + 2] == 's')
                return 1;
            if (i + 5 <= n && !memcmp(s + i, "zpool", 5))
                return 1;
            break;
        case 'f':
            if (s[i + 1] == 'i' && s[i + 2] == 'o')
                return 1;
            break;
        case 'h':
            if (i + 6 <= n && !memcmp(s + i, "hdparm", 6))
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}
