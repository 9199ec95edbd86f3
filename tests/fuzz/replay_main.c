/* main() for replay_<name>: runs a harness's LLVMFuzzerTestOneInput on
 * each FILE (directories are walked; hidden files, *.expected, *.err and
 * README.md are skipped), so any compiler can replay tests/regress/ and a
 * seed corpus under ctest. Exit 0 when every input returned; a crash or an
 * invariant abort ends the process. */
#define _POSIX_C_SOURCE 200809L
#include "tests/fuzz/fuzz.h"

#include <dirent.h>
#include <sys/stat.h>

static int skip_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' || !strcmp(name, "README.md") ||
           (n > 9 && !strcmp(name + n - 9, ".expected")) ||
           (n > 4 && !strcmp(name + n - 4, ".err"));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, int quiet, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: missing, skipped\n", path);
        return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d) {
            fprintf(stderr, "replay: cannot open %s\n", path);
            return 1;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (skip_name(e->d_name))
                continue;
            PB_GROW(names, cap, n + 1);
            names[n++] = pb_xasprintf("%s/%s", path, e->d_name);
        }
        closedir(d);
        if (n)
            qsort(names, n, sizeof(*names), cmp_str);
        int rc = 0;
        for (size_t i = 0; i < n; i++) {
            rc |= run_path(names[i], quiet, count);
            free(names[i]);
        }
        free(names);
        return rc;
    }
    if (!S_ISREG(st.st_mode))
        return 0;
    char *buf = NULL;
    size_t len = 0;
    struct pb_err err = {0};
    if (pb_read_file(path, &buf, &len, &err) != PB_OK) {
        pb_err_print(&err, stderr);
        return 1;
    }
    if (!quiet)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    /* An exact-size copy, as libFuzzer gives: no NUL after the input. */
    uint8_t *copy = pb_xmalloc(len ? len : 1);
    memcpy(copy, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
    (*count)++;
    return 0;
}

int main(int argc, char **argv)
{
    int quiet = 0, rc = 0, i = 1;
    size_t count = 0;
    if (i < argc && !strcmp(argv[i], "-q")) {
        quiet = 1;
        i++;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: %s [-q] FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (; i < argc; i++)
        rc |= run_path(argv[i], quiet, &count);
    fprintf(stderr, "replay: %zu inputs run\n", count);
    return rc;
}
