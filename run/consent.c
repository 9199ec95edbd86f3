/* What a plan may do only when the person running it says so on the
 * command line. A plan is a file people share, like a fio job file, and
 * `poolbench run` runs as root: no key of a plan widens what the run does.
 * Commands ([fio] exec_prerun, exec_postrun, ioengine = exec, external:
 * or a library path) need --allow-exec; a [hosts] remote template is ssh,
 * found on PATH (or the --ssh PROGRAM given), with allow-listed options
 * and one destination, unless --allow-remote-command. See
 * docs/threat-model.md, "Consent". */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== [fio] commands ==== */

/* Does value of fio key run a command or load code? */
static int runs_code(const char *key, const char *value)
{
    if (pb_run_fio_key_class(key) == PB_RUN_FIO_EXEC)
        return 1;
    return !strcmp(key, "ioengine") && pb_run_fio_engine_execs(value);
}

/* The next [fio] value that runs a command or loads code, from axis *a,
 * value *j on: 1 with *a and *j at it, else 0. */
static int next_code(const struct pb_run_section *f, size_t *a, size_t *j)
{
    for (; *a < f->n; (*a)++, *j = 0)
        for (; *j < f->ax[*a].nvals; (*j)++)
            if (runs_code(f->ax[*a].key, f->ax[*a].vals[*j]))
                return 1;
    return 0;
}

static int exec_check(const struct pb_run_plan *p, struct pb_err *err)
{
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    size_t a = 0, j = 0;
    if (!next_code(f, &a, &j))
        return PB_OK;
    const char *k = f->ax[a].key, *v = f->ax[a].vals[j];
    if (pb_run_fio_key_class(k) == PB_RUN_FIO_EXEC)
        return pb_err_set(err, PB_EUSAGE, p->path, f->ax[a].line, 0,
                          "fio option '%s' runs a command through a shell "
                          "as root; a plan cannot allow that itself: read "
                          "it in --dry-run, then give the run --allow-exec",
                          k);
    return pb_err_set(err, PB_EUSAGE, p->path, f->ax[a].line, 0,
                      "ioengine=%s runs programs or loads code as root; a "
                      "plan cannot allow that itself: read it in "
                      "--dry-run, then give the run --allow-exec",
                      v);
}

/* ==== the remote template ==== */

/* A user name for ssh: letters, digits, '.', '_', '-'; not first '-'. */
static int ssh_user(const char *s, size_t n)
{
    if (n == 0 || n > 64 || s[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return 0;
    return 1;
}

static int digits(const char *s, long lo, long hi)
{
    if (!*s || strlen(s) > 6)
        return 0;
    long v = 0;
    for (const char *q = s; *q; q++) {
        if (!isdigit((unsigned char)*q))
            return 0;
        v = v * 10 + (*q - '0');
    }
    return v >= lo && v <= hi;
}

/* A file ssh reads (IdentityFile): an absolute or ~/ path, no tokens
 * (%d, %h, ...) and no '..'. */
static int ssh_file(const char *s)
{
    if (!(s[0] == '/' || (s[0] == '~' && s[1] == '/')) || strchr(s, '%') ||
        strstr(s, "/../") || (strlen(s) >= 3 && !strcmp(s + strlen(s) - 3,
                                                         "/..")))
        return 0;
    return 1;
}

/* UserKnownHostsFile: ssh appends host keys to it (as root: a write to
 * any file), so only /dev/null or a file in ~/.ssh/. */
static int known_hosts_file(const char *s)
{
    if (!strcmp(s, "/dev/null"))
        return 1;
    return !strncmp(s, "~/.ssh/", 7) && s[7] && !strchr(s + 7, '/') &&
           strcmp(s + 7, "..") && strcmp(s + 7, ".") && !strchr(s, '%');
}

static int word_in(const char *v, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcasecmp(v, list[i]))
            return 1;
    return 0;
}

/* -o KEY=VALUE: the keys a plan may set, each with its values. */
static int ssh_option_ok(const char *kv)
{
    static const char *const yesno[] = {"yes", "no", NULL};
    static const char *const strict[] = {"yes", "no", "accept-new", "off",
                                         "ask", NULL};
    static const char *const levels[] = {"QUIET",  "FATAL",   "ERROR",
                                         "INFO",   "VERBOSE", "DEBUG",
                                         "DEBUG1", "DEBUG2",  "DEBUG3",
                                         NULL};
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return 0;
    char key[32];
    size_t kn = (size_t)(eq - kv);
    if (kn >= sizeof(key))
        return 0;
    memcpy(key, kv, kn);
    key[kn] = '\0';
    const char *v = eq + 1;
    if (!strcasecmp(key, "BatchMode") || !strcasecmp(key, "IdentitiesOnly"))
        return word_in(v, yesno);
    if (!strcasecmp(key, "StrictHostKeyChecking"))
        return word_in(v, strict);
    if (!strcasecmp(key, "LogLevel"))
        return word_in(v, levels);
    if (!strcasecmp(key, "ConnectTimeout") ||
        !strcasecmp(key, "ServerAliveInterval"))
        return digits(v, 0, 86400);
    if (!strcasecmp(key, "ServerAliveCountMax") ||
        !strcasecmp(key, "ConnectionAttempts"))
        return digits(v, 0, 1000);
    if (!strcasecmp(key, "Port"))
        return digits(v, 1, 65535);
    if (!strcasecmp(key, "User"))
        return ssh_user(v, strlen(v));
    if (!strcasecmp(key, "IdentityFile"))
        return ssh_file(v);
    if (!strcasecmp(key, "UserKnownHostsFile"))
        return known_hosts_file(v);
    return 0;
}

/* One option word (and its argument, the next word, when detached) at
 * w[i]: the number of words it takes, or 0 when it is not allowed. */
static size_t ssh_option(char *const *w, size_t i)
{
    static const char *const flags[] = {"-4", "-6", "-C", "-q", "-T", "-v",
                                        NULL};
    const char *s = w[i];
    for (size_t k = 0; flags[k]; k++)
        if (!strcmp(s, flags[k]))
            return 1;
    if (s[0] != '-' || !s[1] || !strchr("plio", s[1]))
        return 0;
    size_t take = 1;
    const char *arg = s + 2;
    if (!*arg) {
        if (!w[i + 1])
            return 0;
        arg = w[i + 1];
        take = 2;
    }
    int ok = s[1] == 'p'   ? digits(arg, 1, 65535)
             : s[1] == 'l' ? ssh_user(arg, strlen(arg))
             : s[1] == 'i' ? ssh_file(arg)
                           : ssh_option_ok(arg);
    return ok ? take : 0;
}

/* ssh, allow-listed options, then one last word: {host} or USER@{host}. */
static int template_check(const struct pb_run_plan *p, struct pb_err *err)
{
    char *const *w = p->hosts.remote;
    long line = p->hosts.remote_line;
    if (strcmp(w[0], "ssh"))
        return pb_err_set(err, PB_EUSAGE, p->path, line, 0,
                          "remote: the template runs '%s', not ssh: a plan "
                          "names no other program (ssh is found on PATH, or "
                          "give --ssh PROGRAM) unless the run is given "
                          "--allow-remote-command",
                          w[0]);
    size_t i = 1;
    while (w[i] && w[i][0] == '-') {
        size_t take = ssh_option(w, i);
        if (!take) {
            /* name the option with its detached argument, if any */
            int two = w[i][1] && strchr("plio", w[i][1]) && !w[i][2] &&
                      w[i + 1];
            return pb_err_set(err, PB_EUSAGE, p->path, line, 0,
                              "remote: ssh option '%s%s%s' is not allowed "
                              "in a plan (the allowed ones: [hosts] in "
                              "poolbench-plan(5); --allow-remote-command "
                              "runs the template as written)",
                              w[i], two ? " " : "", two ? w[i + 1] : "");
        }
        i += take;
    }
    const char *d = w[i];
    const char *at = d ? strrchr(d, '@') : NULL;
    int dest_ok = d && (!strcmp(d, "{host}") ||
                        (at && !strcmp(at + 1, "{host}") &&
                         ssh_user(d, (size_t)(at - d))));
    if (!dest_ok || w[i + 1])
        return pb_err_set(err, PB_EUSAGE, p->path, line, 0,
                          "remote: after ssh and its options the template "
                          "ends with the destination, {host} or USER@{host}%s"
                          " (a remote command is the run's own; "
                          "--allow-remote-command runs the template as "
                          "written)",
                          d ? "" : " (none given)");
    return PB_OK;
}

int pb_run_consent_check(const struct pb_run_plan *p,
                         const struct pb_run_opts *o, struct pb_err *err)
{
    if (!o->allow_exec && exec_check(p, err) != PB_OK)
        return err->code;
    if (o->ssh && o->ssh[0] != '/')
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "--ssh wants an absolute path, got '%s'", o->ssh);
    if (p->hosts.remote && !o->allow_remote_command &&
        template_check(p, err) != PB_OK)
        return err->code;
    return PB_OK;
}

void pb_run_consent_list(const struct pb_run_plan *p,
                         const struct pb_run_opts *o, struct pb_run_exec *x,
                         FILE *progress)
{
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    for (size_t a = 0, j = 0; next_code(f, &a, &j); j++) {
        const char *k = f->ax[a].key, *v = f->ax[a].vals[j];
        const char *what = pb_run_fio_key_class(k) == PB_RUN_FIO_EXEC
                               ? "is a command fio runs through a shell"
                           : !strcmp(v, "exec") ? "runs programs"
                                                : "loads code";
        char *msg = pb_xasprintf("%s:%ld: %s=%s %s as root, allowed by "
                                 "--allow-exec",
                                 p->path, f->ax[a].line, k, v, what);
        pb_run_say(progress, "poolbench: warning: %s", msg);
        pb_run_note(x, "warning: %s", msg);
        free(msg);
    }
    if (p->hosts.remote) {
        struct pb_buf t = PB_BUF_INIT;
        pb_run_quote(&t, (const char *const *)p->hosts.remote);
        pb_run_note(x, "remote template (%s:%ld): %s%s", p->path,
                    p->hosts.remote_line, pb_buf_str(&t),
                    o->allow_remote_command ? " (run as written: "
                                              "--allow-remote-command)"
                                            : "");
        if (o->ssh && !strcmp(p->hosts.remote[0], "ssh"))
            pb_run_note(x, "remote: 'ssh' is %s (--ssh)", o->ssh);
        pb_buf_release(&t);
    }
}
