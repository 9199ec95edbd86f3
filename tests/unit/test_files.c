/* Unit tests for common/pb_file.h (issue 40 items 3, 5, 6, 9): inputs that
 * are not regular files are refused at once, output files are written
 * beside their name and renamed (never through a link), the database in
 * use is never replaced, and temporary files go when a signal ends the
 * process. */
#define _GNU_SOURCE
#include "tests/unit/testhelp.h"
#include "common/pb_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmp_dir(void)
{
    char *d = pb_xstrdup("/tmp/pb-files-XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(dir);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void put(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static char *get(const char *path)
{
    char *buf = NULL;
    size_t len;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, &len, &e) != PB_OK)
        return NULL;
    return buf;
}

/* A FIFO, a device, a folder: refused at once with what they are; a
 * regular file opens blocking again. */
static void test_open_input(void **state)
{
    (void)state;
    alarm(20); /* a regression fails the test instead of hanging it */
    char *dir = tmp_dir();
    char *fifo = pb_xasprintf("%s/fifo", dir);
    char *file = pb_xasprintf("%s/f.txt", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    put(file, "hello\n");

    struct pb_err e = {0};
    double t0 = th_now();
    assert_int_equal(pb_open_input(fifo, &e), -1);
    assert_int_equal(e.code, PB_EINPUT);
    assert_string_equal(e.msg, "not a regular file (a FIFO): give '-' to "
                               "read standard input");
    char *buf = NULL;
    size_t len;
    pb_err_clear(&e);
    assert_int_equal(pb_read_file(fifo, &buf, &len, &e), PB_EINPUT);
    assert_true(th_now() - t0 < 2); /* no writer ever comes: it did not wait */

    pb_err_clear(&e);
    assert_int_equal(pb_open_input("/dev/zero", &e), -1);
    assert_string_equal(e.msg, "not a regular file (a character device)");
    pb_err_clear(&e);
    assert_int_equal(pb_open_input(dir, &e), -1);
    assert_string_equal(e.msg, "is a directory");
    pb_err_clear(&e);
    char *missing = pb_xasprintf("%s/missing", dir);
    assert_int_equal(pb_open_input(missing, &e), -1);
    assert_int_equal(e.code, PB_EIO);
    assert_string_equal(e.msg, "cannot open: No such file or directory");

    pb_err_clear(&e);
    int fd = pb_open_input(file, &e);
    assert_true(fd >= 0);
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    close(fd);
    /* the raw form: kinds allowed by the caller, errno and kind else */
    const char *kind = NULL;
    fd = pb_open_file(dir, O_RDONLY, 0, PB_OPEN_REG | PB_OPEN_DIR, &kind);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(pb_open_file(fifo, O_RDWR, 0, PB_OPEN_REG, &kind), -1);
    assert_int_equal(errno, ENXIO);
    assert_string_equal(kind, "a FIFO");

    alarm(0);
    free(missing);
    free(fifo);
    free(file);
    rm_dir(dir);
    free(dir);
}

/* The database and its journal files, by device and inode: refused
 * whatever the name (a hard link too); other and new files pass. */
static void test_keep(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    char *db = pb_xasprintf("%s/a.db", dir);
    char *wal = pb_xasprintf("%s/a.db-wal", dir);
    char *hard = pb_xasprintf("%s/results.json", dir);
    char *other = pb_xasprintf("%s/other", dir);
    put(db, "db");
    put(wal, "wal");
    put(other, "x");
    assert_int_equal(link(db, hard), 0);
    struct pb_keep k;
    pb_keep_init(&k);
    pb_keep_add_db(&k, db);
    assert_int_equal(k.n, 2);
    struct pb_err e = {0};
    assert_int_equal(pb_keep_check(&k, hard, &e), PB_EUSAGE);
    char *want = pb_xasprintf("refusing to write '%s': it is the database "
                              "'%s'", hard, db);
    assert_string_equal(e.msg, want);
    free(want);
    pb_err_clear(&e);
    assert_int_equal(pb_keep_check(&k, wal, &e), PB_EUSAGE);
    want = pb_xasprintf("refusing to write '%s': it is -wal file of the "
                        "database '%s'", wal, db);
    assert_string_equal(e.msg, want);
    free(want);
    pb_err_clear(&e);
    assert_int_equal(pb_keep_check(&k, other, &e), PB_OK);
    assert_int_equal(pb_keep_check(&k, "/nonexistent/x", &e), PB_OK);
    assert_int_equal(pb_keep_check(NULL, db, &e), PB_OK);
    free(db);
    free(wal);
    free(hard);
    free(other);
    rm_dir(dir);
    free(dir);
}

/* An output file: a new one is 0644, a replaced one keeps its mode; a
 * link, a FIFO or a file of keep is refused at open; a link planted
 * while it is written is refused at commit; an abort keeps the old file;
 * no temporary file is left either way. */
static void test_wfile(void **state)
{
    (void)state;
    alarm(20);
    char *dir = tmp_dir();
    char *out = pb_xasprintf("%s/out.csv", dir);
    char *victim = pb_xasprintf("%s/victim", dir);
    char *link_ = pb_xasprintf("%s/link.csv", dir);
    char *fifo = pb_xasprintf("%s/fifo.csv", dir);
    put(victim, "precious");
    assert_int_equal(symlink(victim, link_), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    struct pb_err e = {0};
    struct pb_wfile *f;

    assert_int_equal(pb_wfile_open(out, NULL, &f, &e), PB_OK);
    fputs("a,b\n", pb_wfile_stream(f));
    assert_int_equal(pb_wfile_commit(f, &e), PB_OK);
    char *s = get(out);
    assert_string_equal(s, "a,b\n");
    free(s);
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(chmod(out, 0600), 0);
    assert_int_equal(pb_wfile_open(out, NULL, &f, &e), PB_OK);
    assert_int_equal(pb_write_all(pb_wfile_fd(f), "c\n", 2), 0);
    assert_int_equal(pb_wfile_commit(f, &e), PB_OK);
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);

    /* aborted: the last file stays */
    assert_int_equal(pb_wfile_open(out, NULL, &f, &e), PB_OK);
    fputs("half", pb_wfile_stream(f));
    pb_wfile_abort(f);
    s = get(out);
    assert_string_equal(s, "c\n");
    free(s);

    assert_int_equal(pb_wfile_open(link_, NULL, &f, &e), PB_EIO);
    assert_string_equal(e.msg, "is a symbolic link: refusing to replace it");
    pb_err_clear(&e);
    double t0 = th_now();
    assert_int_equal(pb_wfile_open(fifo, NULL, &f, &e), PB_EIO);
    assert_true(th_now() - t0 < 2);
    assert_string_equal(e.msg,
                        "not a regular file (a FIFO): refusing to replace it");
    pb_err_clear(&e);
    struct pb_keep k;
    pb_keep_init(&k);
    pb_keep_add_db(&k, out);
    assert_int_equal(pb_wfile_open(out, &k, &f, &e), PB_EUSAGE);
    pb_err_clear(&e);

    /* a link planted at the name while the file is written */
    char *late = pb_xasprintf("%s/late.csv", dir);
    assert_int_equal(pb_wfile_open(late, NULL, &f, &e), PB_OK);
    fputs("new", pb_wfile_stream(f));
    assert_int_equal(symlink(victim, late), 0);
    assert_int_equal(pb_wfile_commit(f, &e), PB_EIO);
    assert_string_equal(e.msg, "is a symbolic link: refusing to replace it");
    s = get(victim);
    assert_string_equal(s, "precious");
    free(s);
    /* out.csv, victim, link.csv, fifo.csv, late.csv: no temporary left */
    assert_int_equal(count_entries(dir), 5);

    alarm(0);
    free(late);
    free(out);
    free(victim);
    free(link_);
    free(fifo);
    rm_dir(dir);
    free(dir);
}

/* A child registers a file (and forgets it, when `forget`) and raises
 * sig: the file must be gone when `gone`, and the child ended by the
 * signal, or, when it ignores it, exited 0. */
static void signal_case(const char *path, int sig, int ignore, int forget,
                        int gone)
{
    put(path, "copy");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (ignore)
            signal(sig, SIG_IGN);
        int h = pb_cleanup_add(path);
        if (h < 0)
            _exit(3);
        if (forget)
            pb_cleanup_forget(h);
        raise(sig);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (ignore)
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    else
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sig);
    assert_int_equal(access(path, F_OK) == 0, !gone);
}

static void test_cleanup(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    char *p = pb_xasprintf("%s/poolbench-merge-1-abcdef", dir);
    signal_case(p, SIGTERM, 0, 0, 1);
    signal_case(p, SIGINT, 0, 0, 1);
    signal_case(p, SIGHUP, 0, 0, 1);
    signal_case(p, SIGTERM, 0, 1, 0); /* forgotten: kept */
    signal_case(p, SIGINT, 1, 0, 0);  /* ignored: the process lives on */
    free(p);
    rm_dir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_input),
        cmocka_unit_test(test_keep),
        cmocka_unit_test(test_wfile),
        cmocka_unit_test(test_cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
