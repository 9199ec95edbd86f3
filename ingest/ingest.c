/* The parser registry, sniffing, option application, and the parallel walk
 * that reads and parses many files on all cores while the caller stores
 * them one at a time, in path order. */
#define _GNU_SOURCE
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== registry ==== */

const struct pb_parser *const pb_parsers[] = {
    &pb_parser_fio_json,  &pb_parser_fio_text, &pb_parser_fio_terse,
    &pb_parser_iozone,    &pb_parser_bonnie_csv, &pb_parser_pts_xml,
    &pb_parser_zfs_props, NULL,
};

const struct pb_parser *pb_ingest_parser_by_name(const char *name)
{
    for (size_t i = 0; pb_parsers[i]; i++)
        if (!strcmp(pb_parsers[i]->name, name))
            return pb_parsers[i];
    return NULL;
}

#define SNIFF_LEN 8192

const struct pb_parser *pb_ingest_find_parser(const char *buf, size_t len)
{
    const struct pb_parser *best = NULL;
    int best_score = 0;
    size_t n = len < SNIFF_LEN ? len : SNIFF_LEN;
    for (size_t i = 0; pb_parsers[i]; i++) {
        int s = pb_parsers[i]->sniff(buf, n);
        if (s > best_score) {
            best_score = s;
            best = pb_parsers[i];
        }
        if (best_score >= 100) /* certain: nobody can score higher */
            break;
    }
    return best;
}

/* ==== helpers shared by parsers ==== */

const char *pb_skip_ws(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

int pb_contains(const char *buf, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return 1;
    /* compare only where the first character matches (every sniffer
     * calls this on the first 8 KiB of every file) */
    int lo = tolower((unsigned char)needle[0]);
    int up = toupper((unsigned char)needle[0]);
    for (size_t i = 0; i + n <= len; i++) {
        int c = (unsigned char)buf[i];
        if ((c == lo || c == up) && strncasecmp(buf + i, needle, n) == 0)
            return 1;
    }
    return 0;
}

/* ==== options ==== */

static int is_size_key(const char *key)
{
    static const char *const keys[] = {
        "recordsize", "volblocksize", "bs",       "size",
        "file_size",  "record_size",  "blocksize", "special_small_blocks",
        "disk_cluster_size", "guest_block_size",
        NULL};
    for (size_t i = 0; keys[i]; i++)
        if (!strcasecmp(key, keys[i]))
            return 1;
    return 0;
}

char *pb_ingest_norm_param(const char *key, const char *value)
{
    double v;
    if (is_size_key(key) && pb_parse_size(value, 0, &v) == 0) {
        char num[64];
        return pb_xstrdup(pb_fmt_num(v, num, sizeof(num)));
    }
    char *s = pb_xstrdup(value);
    if (strcasecmp(key, "label") != 0)
        for (char *p = s; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return s;
}

static void apply_opts(struct pb_resultset *set, const char *buf,
                       size_t len, const struct pb_ingest_opts *opts)
{
    if (!opts) {
        pb_ingest_context(set, buf, len, opts);
        return;
    }
    if (opts->label && set->nconfigs > 0) {
        /* Every config of the file becomes the one named by --label; the
         * results follow, and dimensions are merged. */
        const char *label = pb_rs_str(set, opts->label);
        for (size_t i = 1; i < set->nconfigs; i++)
            for (size_t j = 0; j < set->configs[i].nparams; j++)
                pb_rs_config_param(set, 0, set->configs[i].params[j].key,
                                   set->configs[i].params[j].value);
        for (size_t i = 1; i < set->nconfigs; i++)
            free(set->configs[i].params);
        set->nconfigs = 1;
        set->configs[0].label = label;
        set->configs[0].label_is_name = 0;
        set->config_ix.cap = 0; /* labels changed: rebuild the index */
        for (size_t i = 0; i < set->nresults; i++)
            set->results[i].config = 0;
    } else if (opts->label) {
        pb_rs_config(set, opts->label);
    }
    /* title, --label-from, generic labels, pasted commands (context.c);
     * precedence: --set > parser > commands > title/path/label rules */
    pb_ingest_context(set, buf, len, opts);
    if (opts->rules)
        for (size_t i = 0; i < set->nconfigs; i++)
            pb_label_extract(opts->rules, set, i);
    for (size_t k = 0; k < opts->nset; k++) {
        char *v = pb_ingest_norm_param(opts->set[k].key, opts->set[k].value);
        for (size_t i = 0; i < set->nconfigs; i++)
            pb_rs_config_param(set, i, opts->set[k].key, v);
        free(v);
    }
}

int pb_ingest_buffer(const char *path, const char *buf, size_t len,
                     const struct pb_ingest_opts *opts,
                     struct pb_resultset **out, struct pb_err *err)
{
    *out = NULL;
    const struct pb_parser *p = NULL;
    if (opts && opts->format) {
        p = pb_ingest_parser_by_name(opts->format);
        if (!p)
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "unknown format '%s'", opts->format);
    } else {
        const char *q = pb_skip_ws(buf, buf + len);
        if (q == buf + len)
            return pb_err_set(err, PB_EINPUT, path, 0, 0,
                              len ? "file holds only white space"
                                  : "empty file");
        p = pb_ingest_find_parser(buf, len);
        if (!p)
            return pb_err_set(err, PB_EINPUT, path, 1, 0,
                              "unrecognised input: not output of any "
                              "supported benchmark tool");
    }
    /* Every supported format is text: a NUL byte means a binary or
     * damaged file, and parsers that stop at it would keep half a file. */
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        size_t off = (size_t)(nul - buf);
        const char *bol = off ? memrchr(buf, '\n', off) : NULL;
        long col = (long)(off - (bol ? (size_t)(bol - buf) + 1 : 0)) + 1;
        return pb_err_set(err, PB_EINPUT, path, pb_line_of(buf, off), col,
                          "NUL byte: binary or damaged file, not %s output",
                          p->name);
    }
    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, path);
    set->format = p->name;
    set->size = len;
    pb_sha256_hex(buf, len, set->sha256);
    int rc = p->parse(path, buf, len, set, err);
    if (rc == PB_OK && set->nresults == 0)
        rc = pb_err_set(err, PB_EINPUT, path, 0, 0, "%s: no results found",
                        p->name);
    if (rc != PB_OK) {
        if (!err->code)
            pb_err_set(err, rc, path, 0, 0, "%s: parse failed", p->name);
        pb_resultset_free(set);
        return err->code;
    }
    apply_opts(set, buf, len, opts);
    *out = set;
    return PB_OK;
}

/* ==== expanding paths ==== */

struct pathlist {
    char **v;
    size_t n, cap;
};

static void pl_add(struct pathlist *pl, char *path)
{
    PB_GROW(pl->v, pl->cap, pl->n + 1);
    pl->v[pl->n++] = path;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(const char *dir, struct pathlist *pl, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 64) {
        if (d)
            closedir(d);
        pl_add(pl, pb_xstrdup(dir)); /* reported as unreadable later */
        return;
    }
    struct pathlist names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .., and hidden files such as .git */
        pl_add(&names, pb_xstrdup(e->d_name));
    }
    closedir(d);
    if (names.n)
        qsort(names.v, names.n, sizeof(char *), cmp_str);
    size_t dl = strlen(dir);
    int slash = dl > 0 && dir[dl - 1] == '/';
    for (size_t i = 0; i < names.n; i++) {
        char *full = pb_xasprintf("%s%s%s", dir, slash ? "" : "/", names.v[i]);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            walk_dir(full, pl, depth + 1);
            free(full);
        } else if (stat(full, &st) == 0 && !S_ISREG(st.st_mode)) {
            free(full); /* sockets, fifos, devices: not result files */
        } else {
            pl_add(pl, full);
        }
        free(names.v[i]);
    }
    free(names.v);
}

/* ==== the parallel walk ==== */

struct slot {
    int done;
    struct pb_resultset *set;
    struct pb_err err;
};

struct walk {
    struct pathlist files;
    const struct pb_ingest_opts *opts;
    struct slot *slots; /* ring of `window` entries */
    size_t window;
    size_t next;     /* next file index to claim */
    size_t consumed; /* files handed to the callback */
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
};

static void process(const char *path, const struct pb_ingest_opts *opts,
                    struct slot *s)
{
    char *buf = NULL;
    size_t len = 0;
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0) {
        pb_err_set(&s->err, PB_EINPUT, path, 0, 0, "cannot open: %s",
                   strerror(errno));
        return;
    }
    int rc = pb_read_file(path, &buf, &len, &s->err);
    if (rc != PB_OK) {
        /* An unreadable input is an input problem, not the environment. */
        s->err.code = PB_EINPUT;
        return;
    }
    rc = pb_ingest_buffer(path, buf, len, opts, &s->set, &s->err);
    free(buf);
    (void)rc;
}

static void *worker(void *arg)
{
    struct walk *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->stop && w->next < w->files.n &&
               w->next >= w->consumed + w->window)
            pthread_cond_wait(&w->cv_work, &w->mu);
        if (w->stop || w->next >= w->files.n)
            break;
        size_t i = w->next++;
        struct slot *s = &w->slots[i % w->window];
        pthread_mutex_unlock(&w->mu);

        struct slot tmp;
        memset(&tmp, 0, sizeof(tmp));
        process(w->files.v[i], w->opts, &tmp);

        pthread_mutex_lock(&w->mu);
        *s = tmp;
        s->done = 1;
        pthread_cond_broadcast(&w->cv_done);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static int ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int pb_ingest_walk(const char *const *paths, size_t npaths,
                   const struct pb_ingest_opts *opts, pb_ingest_cb cb,
                   void *ctx)
{
    struct walk w;
    memset(&w, 0, sizeof(w));
    w.opts = opts;
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 &&
            S_ISDIR(st.st_mode))
            walk_dir(paths[i], &w.files, 0);
        else
            pl_add(&w.files, pb_xstrdup(paths[i]));
    }

    int threads = opts && opts->threads > 0 ? opts->threads : ncores();
    if ((size_t)threads > w.files.n)
        threads = w.files.n ? (int)w.files.n : 1;
    w.window = (size_t)threads * 4;
    w.slots = pb_xcalloc(w.window, sizeof(*w.slots));
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv_work, NULL);
    pthread_cond_init(&w.cv_done, NULL);

    pthread_t *tids = pb_xcalloc((size_t)threads, sizeof(*tids));
    int started = 0;
    for (int i = 0; i < threads && w.files.n > 0; i++)
        if (pthread_create(&tids[i], NULL, worker, &w) == 0)
            started++;

    for (size_t i = 0; i < w.files.n; i++) {
        struct slot *s = &w.slots[i % w.window];
        struct slot got;
        if (started == 0) {
            memset(&got, 0, sizeof(got));
            process(w.files.v[i], opts, &got);
        } else {
            pthread_mutex_lock(&w.mu);
            while (!s->done)
                pthread_cond_wait(&w.cv_done, &w.mu);
            got = *s;
            memset(s, 0, sizeof(*s));
            w.consumed = i + 1;
            pthread_cond_broadcast(&w.cv_work);
            pthread_mutex_unlock(&w.mu);
        }
        int kept = cb(ctx, w.files.v[i], got.set, got.set ? NULL : &got.err);
        if (!kept)
            pb_resultset_free(got.set);
    }

    pthread_mutex_lock(&w.mu);
    w.stop = 1;
    pthread_cond_broadcast(&w.cv_work);
    pthread_mutex_unlock(&w.mu);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv_work);
    pthread_cond_destroy(&w.cv_done);
    free(w.slots);
    for (size_t i = 0; i < w.files.n; i++)
        free(w.files.v[i]);
    free(w.files.v);
    return PB_OK;
}
