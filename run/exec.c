/* Running commands: argv vectors through posix_spawnp (never a shell),
 * stdout and stderr captured through pipes, every command logged to
 * DIR/commands.log with its exit status, a dry run printing the same lines,
 * and the signal flag that lets a run stop between commands. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CMD_TIMEOUT 600 /* seconds */

/* ==== argv ==== */

void pb_run_argv_add(struct pb_run_argv *a, const char *s)
{
    PB_GROW(a->v, a->cap, a->n + 2);
    a->v[a->n++] = pb_xstrdup(s);
    a->v[a->n] = NULL;
}

void pb_run_argv_addf(struct pb_run_argv *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof(tmp)) {
        pb_run_argv_add(a, tmp);
        return;
    }
    char *big = pb_xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    PB_GROW(a->v, a->cap, a->n + 2);
    a->v[a->n++] = big;
    a->v[a->n] = NULL;
}

void pb_run_argv_release(struct pb_run_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof(*a));
}

/* ==== quoting ==== */

static int plain_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || strchr("_./:=,+@%-", c);
}

/* Bytes a terminal would act on (C0, DEL, C1) or that are not UTF-8:
 * how many at p (the UTF-8 sequence's length for C1), else 0. */
static size_t term_unsafe(const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7f)
        return 1;
    if (*p < 0x80)
        return 0;
    size_t k = pb_utf8_len(p, 4);
    if (k == 0)
        return 1;
    return k == 2 && p[0] == 0xc2 && p[1] < 0xa0 ? 2 : 0;
}

void pb_run_quote(struct pb_buf *b, const char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        if (i)
            pb_buf_putc(b, ' ');
        const char *s = argv[i];
        int plain = *s != '\0';
        for (const char *p = s; *p && plain; p++)
            plain = plain_char(*p);
        if (plain) {
            pb_buf_puts(b, s);
            continue;
        }
        /* single quotes; what a terminal would act on leaves them as
         * bash's $'\xHH' (the line still reads back as the same argv,
         * and no raw ESC, BEL or CR reaches a terminal or the log) */
        pb_buf_putc(b, '\'');
        for (const unsigned char *p = (const unsigned char *)s; *p;) {
            size_t k = term_unsafe(p);
            if (*p == '\'') {
                pb_buf_puts(b, "'\\''");
            } else if (*p == '\n') {
                pb_buf_puts(b, "'$'\\n''");
            } else if (k) {
                pb_buf_puts(b, "'$'");
                for (size_t j = 0; j < k; j++)
                    pb_buf_printf(b, "\\x%02x", p[j]);
                pb_buf_puts(b, "''");
                p += k;
                continue;
            } else {
                pb_buf_putc(b, (char)*p);
            }
            p++;
        }
        pb_buf_putc(b, '\'');
    }
}

/* ==== signals ==== */

static volatile sig_atomic_t stop_signal;
static struct sigaction old_int, old_term, old_hup;

static void on_signal(int sig)
{
    if (!stop_signal)
        stop_signal = sig;
}

void pb_run_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: poll() returns at once */
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
}

void pb_run_signals_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
}

int pb_run_stopped(void)
{
    return (int)stop_signal;
}

/* ==== running ==== */

void pb_run_res_release(struct pb_run_res *r)
{
    pb_buf_release(&r->out);
    pb_buf_release(&r->err);
    r->status = 0;
    r->timed_out = 0;
    r->stopped[0] = '\0';
}

const char *pb_run_res_why(const struct pb_run_res *r, char *buf, size_t n)
{
    if (r->timed_out) {
        snprintf(buf, n, "did not finish in %.0f s and was killed",
                 r->timeout > 0 ? r->timeout : CMD_TIMEOUT);
        return buf;
    }
    if (r->stopped[0]) {
        snprintf(buf, n, "%s", r->stopped);
        return buf;
    }
    const char *s = pb_buf_str(&r->err);
    /* the first line that says something, e.g. "cannot create 'p': ..." */
    while (*s) {
        size_t k = strcspn(s, "\n");
        const char *q = s;
        while (q < s + k && (*q == ' ' || *q == '\t'))
            q++;
        if (q < s + k) {
            size_t m = (size_t)(s + k - q);
            while (m > 0 && (q[m - 1] == ' ' || q[m - 1] == '\r'))
                m--;
            snprintf(buf, n, "%.*s", (int)m, q);
            return buf;
        }
        s += k;
        if (*s)
            s++;
    }
    if (r->status < 0)
        snprintf(buf, n, "could not be started");
    else if (r->status > 128)
        snprintf(buf, n, "killed by signal %d", r->status - 128);
    else
        snprintf(buf, n, "exit status %d", r->status);
    return buf;
}

/* Write "PREFIX" + the formatted text + "\n" to each of fps[0..n) that is
 * not NULL, the text through pb_fput_term: paths, plan values and
 * commands' messages reach a terminal or the log without a control
 * character (as \xHH), on one line. */
static void say(FILE *const *fps, size_t n, const char *prefix,
                const char *fmt, va_list ap)
{
    char *msg;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!fps[i])
            continue;
        fputs(prefix, fps[i]);
        pb_fput_term(msg ? msg : "(out of memory)", fps[i]);
        fputc('\n', fps[i]);
        fflush(fps[i]);
    }
    free(msg);
}

void pb_run_note(struct pb_run_exec *x, const char *fmt, ...)
{
    FILE *fps[2] = {x->dry_run ? x->dry : NULL, x->log};
    va_list ap;
    va_start(ap, fmt);
    say(fps, 2, "# ", fmt, ap);
    va_end(ap);
}

void pb_run_say(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(&fp, 1, "", fmt, ap);
    va_end(ap);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double pb_run_cmd_timeout(const struct pb_run_exec *x,
                          const char *const *argv)
{
    static const char *const queries[] = {"list", "get", "status", "upgrade",
                                          "version", "iostat", NULL};
    if (!argv[0] || (strcmp(argv[0], "zfs") && strcmp(argv[0], "zpool")))
        return CMD_TIMEOUT;
    int query = 0;
    for (size_t i = 0; argv[1] && queries[i] && !query; i++)
        query = !strcmp(argv[1], queries[i]);
    if (query)
        return x->query_timeout > 0 ? x->query_timeout
                                    : PB_RUN_QUERY_TIMEOUT;
    return x->admin_timeout > 0 ? x->admin_timeout : PB_RUN_ADMIN_TIMEOUT;
}

/* Read the child's output until it exits. Stoppable commands (fio) get
 * SIGINT when the run is interrupted or their watch says so, and SIGKILL
 * 15 s later; the others (zpool, zfs, ...) are left to finish, but killed
 * (the whole process group: a wrapper script's children too) after their
 * timeout so that a wedged ZFS cannot hang the run. */
static void wait_child(struct pb_run_exec *x, pid_t pid, unsigned flags,
                       int errfd, int outfd, double timeout,
                       struct pb_run_res *res)
{
    struct pollfd pf[2] = {{errfd, POLLIN, 0}, {outfd, POLLIN, 0}};
    double t0 = now_s(), sent_at = 0, watched = t0, killed = 0;
    int st = 0, reaped = 0;
    for (;;) {
        double now = now_s();
        if ((flags & PB_RUN_STOPPABLE) && pb_run_stopped() && !sent_at) {
            kill(pid, SIGINT);
            sent_at = now;
        }
        if ((flags & PB_RUN_WATCH) && x->watch && !sent_at && !reaped &&
            now - watched >= 1) {
            watched = now;
            x->child = pid;
            struct pb_err we = {0};
            int stop = x->watch(x->watch_ctx, &we);
            x->child = 0;
            snprintf(res->stopped, sizeof(res->stopped), "%.*s",
                     (int)sizeof(res->stopped) - 1, we.msg);
            if (stop) {
                kill(pid, SIGINT);
                sent_at = now;
            } else {
                res->stopped[0] = '\0';
            }
        }
        if (!killed && ((sent_at && now - sent_at > 15) ||
                        (!(flags & PB_RUN_STOPPABLE) &&
                         now - t0 > timeout))) {
            kill(-pid, SIGKILL); /* its own process group */
            kill(pid, SIGKILL);
            killed = now;
            res->timed_out = !sent_at;
            res->timeout = timeout;
        }
        if (killed && !reaped && now - killed > 15) {
            /* SIGKILL waits for a blocked system call to return: a write
             * to a suspended pool (on FUSE: until the daemon answers or
             * dies) never does. Leave it; it exits when the pool does. */
            res->stuck = 1;
            st = SIGKILL; /* reported as killed by signal 9 */
            break;
        }
        int open_fds = (pf[0].fd >= 0) + (pf[1].fd >= 0);
        int n = open_fds ? poll(pf, 2, reaped ? 0 : 200) : 0;
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2 && n > 0; i++) {
            if (pf[i].fd < 0 || !pf[i].revents)
                continue;
            char buf[65536];
            ssize_t k = read(pf[i].fd, buf, sizeof(buf));
            if (k > 0)
                pb_buf_add(i ? &res->out : &res->err, buf, (size_t)k);
            else if (k == 0 || (errno != EINTR && errno != EAGAIN))
                pf[i].fd = -1;
        }
        if (reaped && n <= 0)
            break; /* exited, and its pipes are drained */
        if (!reaped) {
            pid_t w = waitpid(pid, &st, WNOHANG);
            if (w == pid) {
                reaped = 1;
            } else if (w < 0 && errno != EINTR) {
                break;
            } else if (!open_fds) {
                struct timespec ts = {0, 100000000};
                nanosleep(&ts, NULL);
            }
        }
    }
    res->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int pb_run_cmd(struct pb_run_exec *x, const char *const *argv,
               unsigned flags, struct pb_run_res *res)
{
    pb_buf_reset(&res->out);
    pb_buf_reset(&res->err);
    res->status = 0;
    res->timed_out = 0;
    res->stuck = 0;
    res->stopped[0] = '\0';
    const char *const *cmdv = argv; /* what pb_run_cmd_timeout judges */
    struct pb_run_argv rem = {0};
    if (x->remote) {
        /* the template's words, then each argument single-quoted for the
         * POSIX shell on the other side (ssh joins its arguments into one
         * command line): no plan value is ever read by a shell as code */
        for (size_t i = 0; x->remote[i]; i++)
            pb_run_argv_add(&rem, x->remote[i]);
        for (size_t i = 0; argv[i]; i++) {
            struct pb_buf q = PB_BUF_INIT;
            pb_buf_putc(&q, '\'');
            for (const char *p = argv[i]; *p; p++) {
                if (*p == '\'')
                    pb_buf_puts(&q, "'\\''");
                else
                    pb_buf_putc(&q, *p);
            }
            pb_buf_putc(&q, '\'');
            pb_run_argv_add(&rem, pb_buf_str(&q));
            pb_buf_release(&q);
        }
        argv = (const char *const *)rem.v;
    }
    struct pb_buf line = PB_BUF_INIT;
    pb_run_quote(&line, argv);
    if (x->host) {
        pb_buf_puts(&line, "  # host ");
        pb_buf_puts(&line, x->host);
    }
    if (x->dry_run) {
        fprintf(x->dry, "%s\n", pb_buf_str(&line));
        pb_buf_release(&line);
        pb_run_argv_release(&rem);
        return 0;
    }
    if (x->log) {
        fputs(pb_buf_str(&line), x->log);
        fflush(x->log); /* a crash still shows what was running */
    }

    int outp[2] = {-1, -1}, errp[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    int ok = pipe2(errp, O_CLOEXEC) == 0 &&
             ((flags & PB_RUN_CAPTURE) == 0 || pipe2(outp, O_CLOEXEC) == 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (flags & PB_RUN_CAPTURE)
        posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    /* Own process group: a Ctrl-C at the terminal reaches poolbench only,
     * which then decides what to stop (zpool create is never cut short). */
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    double t0 = now_s();
    int rc = ok ? posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv,
                               environ)
                : errno;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (errp[1] >= 0)
        close(errp[1]);
    if (outp[1] >= 0)
        close(outp[1]);
    if (rc != 0) {
        pb_buf_printf(&res->err, "cannot run '%s': %s\n", argv[0],
                      strerror(rc));
        res->status = -1;
    } else {
        wait_child(x, pid, flags, errp[0], outp[0],
                   pb_run_cmd_timeout(x, cmdv), res);
    }
    if (errp[0] >= 0)
        close(errp[0]);
    if (outp[0] >= 0)
        close(outp[0]);
    if (x->log) {
        char why[160] = "";
        if (res->status != 0)
            pb_run_res_why(res, why, sizeof(why));
        fprintf(x->log, "  # exit %d, %.2f s%s", res->status, now_s() - t0,
                *why ? ": " : "");
        pb_fput_term(why, x->log); /* a command's own words, escaped */
        fputc('\n', x->log);
        fflush(x->log);
    }
    pb_buf_release(&line);
    pb_run_argv_release(&rem);
    return res->status;
}
