/* Private to the terminal-note readers: commands.c (what zpool, zfs and
 * hdparm commands set) and cmd_shell.c (shell lines into commands). */
#ifndef PB_COMMANDS_INT_H
#define PB_COMMANDS_INT_H

#include "ingest/ingest_int.h"

#define MAX_TOKENS 512 /* words of one command; more are dropped */

/* The last path element of s ("/sbin/zpool" -> "zpool"). */
const char *pb_cmd_base_name(const char *s);
/* Length of the prompt at the start of s (`$ `, `# `, `user@host:~$ `,
 * `[root@box ~]# `, `box:~ me$ `), or 0. */
size_t pb_cmd_prompt_len(const char *s, size_t n);
/* 1 when s holds "zpool", "zfs", "hdparm" or "fio". */
int pb_cmd_names_tool(const char *s, size_t n);

/* A command of a line: tok[0..ntok) after sudo, env, nice..., tok[0]
 * naming zpool, zfs, hdparm or fio. */
typedef void pb_cmd_fn(void *ctx, char **tok, size_t ntok);
/* Split a logical line into words (shell quoting), ending a command at
 * unquoted ; & | and a # that starts a word; on_cmd per known command. */
void pb_cmd_split(const char *s, size_t n, pb_cmd_fn *on_cmd, void *ctx);

#endif
