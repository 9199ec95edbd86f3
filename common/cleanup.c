/* Temporary files removed when SIGINT, SIGTERM or SIGHUP ends the
 * process (a merge's copy of another database, an output file not yet
 * renamed): a handler unlinks the paths registered, then the signal's
 * default action ends the process as it would have. SIGKILL cannot be
 * caught: the merge sweeps the copies it leaves (model/merge_open.c). */
#define _GNU_SOURCE
#include "common/pb_file.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 16

static char paths[SLOTS][PATH_MAX];
static volatile sig_atomic_t used[SLOTS];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    int e = errno;
    for (int i = 0; i < SLOTS; i++)
        if (used[i])
            unlink(paths[i]); /* async-signal-safe */
    errno = e;
    /* SA_RESETHAND made the default action current: raised again, the
     * signal ends the process once this handler returns */
    raise(sig);
}

/* Handle each of sigs whose action is the default (it would end the
 * process); leave ignored signals and other handlers alone. */
static void install(void)
{
    for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
        struct sigaction cur, sa;
        if (sigaction(sigs[i], NULL, &cur) != 0 ||
            (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof(sigs) / sizeof(*sigs); j++)
            sigaddset(&sa.sa_mask, sigs[j]);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}

int pb_cleanup_add(const char *path)
{
    size_t n = strlen(path);
    if (n >= PATH_MAX)
        return -1;
    int h = -1;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < SLOTS && h < 0; i++)
        if (!used[i])
            h = i;
    if (h >= 0) {
        memcpy(paths[h], path, n + 1);
        __atomic_thread_fence(__ATOMIC_SEQ_CST); /* the path, then the flag */
        used[h] = 1;
        install();
    }
    pthread_mutex_unlock(&mu);
    return h;
}

void pb_cleanup_forget(int handle)
{
    if (handle < 0 || handle >= SLOTS)
        return;
    pthread_mutex_lock(&mu);
    used[handle] = 0;
    pthread_mutex_unlock(&mu);
}
