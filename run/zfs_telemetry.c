/* Readers of what a pool and the ZFS module report while a benchmark runs:
 * `zpool iostat -v POOL INTERVAL` text (zfs-fuse and OpenZFS shapes),
 * /proc/spl/kstat/zfs/arcstats, and /sys/module/zfs/parameters/. They give
 * plain tables (struct pb_iostat, struct pb_kstat); run/ turns them into
 * metrics and facts. */
#include "run/zfs_telemetry.h"
#include "common/pb_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COLS 16
#define MAX_NAME 1024

/* ==== lines ==== */

struct line {
    const char *s;
    size_t n;
};

static int next_line(const char *buf, size_t len, size_t *pos,
                     struct line *out)
{
    if (*pos >= len)
        return 0;
    const char *s = buf + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - s) : len - *pos;
    *pos += n + (nl ? 1 : 0);
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    out->s = s;
    out->n = n;
    return 1;
}

/* Split l into white-space separated fields (at most max). Returns the
 * count, or max + 1 when there are more. */
static size_t fields(const struct line *l, struct line *f, size_t max)
{
    size_t k = 0, i = 0;
    while (i < l->n) {
        while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
            i++;
        if (i >= l->n)
            break;
        size_t st = i;
        while (i < l->n && l->s[i] != ' ' && l->s[i] != '\t')
            i++;
        if (k == max)
            return max + 1;
        f[k].s = l->s + st;
        f[k].n = i - st;
        k++;
    }
    return k;
}

static int is(const struct line *f, const char *word)
{
    size_t n = strlen(word);
    return f->n == n && !memcmp(f->s, word, n);
}

/* ==== zpool iostat ==== */

/* zpool's human numbers: "0", "21", "1.39K", "12.6M", "249M", "0B" (zfs
 * nicenum: powers of 1024). "-" is NAN. Returns 0, or -1 when it is not
 * such a number. */
static int human(const struct line *f, double *out)
{
    if (is(f, "-")) {
        *out = NAN;
        return 0;
    }
    char tmp[32];
    if (f->n == 0 || f->n >= sizeof(tmp))
        return -1;
    memcpy(tmp, f->s, f->n);
    tmp[f->n] = '\0';
    size_t n = f->n;
    if (n > 1 && tmp[n - 1] == 'B')
        tmp[--n] = '\0'; /* "0B" (OpenZFS) */
    static const char units[] = "KMGTPE";
    double mul = 1;
    const char *u = strchr(units, tmp[n - 1]);
    if (tmp[n - 1] && u) {
        mul = pow(1024.0, (double)(u - units + 1));
        tmp[--n] = '\0';
    }
    if (!n)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)tmp[i]) && tmp[i] != '.')
            return -1;
    char *end;
    double v = strtod(tmp, &end);
    if (*end || !isfinite(v))
        return -1;
    *out = v * mul;
    return 0;
}

static int dashes(const struct line *l)
{
    if (l->n == 0)
        return 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->s[i] != '-' && l->s[i] != ' ')
            return 0;
    return 1;
}

static const char *const sections[] = {"logs", "cache", "spares", "special",
                                       "dedup", NULL};

static const char *section_of(const struct line *f)
{
    for (size_t i = 0; sections[i]; i++)
        if (is(f, sections[i]))
            return sections[i];
    return NULL;
}

void pb_iostat_init(struct pb_iostat *io)
{
    memset(io, 0, sizeof(*io));
    pb_arena_init(&io->arena);
}

void pb_iostat_release(struct pb_iostat *io)
{
    if (!io)
        return;
    free(io->rows);
    free(io->first);
    pb_arena_release(&io->arena);
    memset(io, 0, sizeof(*io));
}

static int io_err(struct pb_err *err, const char *path, long line,
                  const char *what)
{
    return pb_err_set(err, PB_EINPUT, path, line, 0, "%s", what);
}

int pb_ingest_zpool_iostat(const char *path, const char *buf, size_t len,
                           struct pb_iostat *out, struct pb_err *err)
{
    pb_iostat_init(out);
    size_t pos = 0;
    long ln = 0;
    struct line l, f[MAX_COLS];
    /* 0 outside a sample; 1 after "pool alloc..." (dashes next); 2 in the
     * rows (until the closing dashes) */
    int state = 0;
    const char *section = NULL;
    size_t pool_indent = 0;
    while (next_line(buf, len, &pos, &l)) {
        ln++;
        if (memchr(l.s, '\0', l.n))
            return io_err(err, path, ln, "binary data in zpool iostat "
                          "output");
        size_t nf = fields(&l, f, MAX_COLS);
        if (state == 0) {
            if (nf == 0)
                continue;
            if (nf == 7 && is(&f[0], "pool") && is(&f[1], "alloc") &&
                is(&f[2], "free") && is(&f[3], "read") &&
                is(&f[4], "write") && is(&f[5], "read") &&
                is(&f[6], "write")) {
                state = 1;
                continue;
            }
            if (nf >= 3 && is(&f[0], "capacity") &&
                is(&f[1], "operations") && is(&f[2], "bandwidth"))
                continue;
            if (dashes(&l))
                continue; /* a sample's closing line */
            /* a time stamp (-T d/u) or a note between samples */
            continue;
        }
        if (state == 1) {
            if (!dashes(&l))
                return io_err(err, path, ln, "expected a line of dashes "
                              "under the zpool iostat header");
            state = 2;
            section = NULL;
            PB_GROW(out->first, out->capfirst, out->nsamples + 1);
            out->first[out->nsamples++] = out->nrows;
            continue;
        }
        /* state 2: rows */
        if (nf == 0) {
            state = 0;
            continue;
        }
        if (dashes(&l)) {
            state = 0;
            continue;
        }
        if (nf != 7)
            return io_err(err, path, ln, "a zpool iostat row needs a name "
                          "and 6 numbers");
        size_t indent = (size_t)(f[0].s - l.s);
        if (f[0].n >= MAX_NAME)
            return io_err(err, path, ln, "vdev name too long");
        const char *sec = section_of(&f[0]);
        struct pb_iostat_row row;
        memset(&row, 0, sizeof(row));
        double v[6];
        for (int k = 0; k < 6; k++)
            if (human(&f[k + 1], &v[k]) != 0)
                return io_err(err, path, ln, "not a zpool iostat number");
        int first_row = out->nrows == out->first[out->nsamples - 1];
        if (first_row) {
            pool_indent = indent;
            row.depth = 0;
        } else if (sec && indent == pool_indent) {
            section = sec;
            row.depth = 0;
        } else {
            if (indent <= pool_indent)
                return io_err(err, path, ln, "a vdev row must be indented "
                              "under its pool");
            row.depth = (int)((indent - pool_indent + 1) / 2);
        }
        row.name = pb_arena_strndup(&out->arena, f[0].s, f[0].n);
        row.section = section;
        row.alloc = v[0];
        row.free = v[1];
        row.rops = v[2];
        row.wops = v[3];
        row.rbw = v[4];
        row.wbw = v[5];
        PB_GROW(out->rows, out->caprows, out->nrows + 1);
        out->rows[out->nrows++] = row;
    }
    if (state == 1)
        return io_err(err, path, ln, "zpool iostat output ends after its "
                      "header");
    if (out->nsamples == 0)
        return io_err(err, path, ln ? ln : 1, "no zpool iostat sample "
                      "(no 'pool alloc free read write read write' header)");
    /* a sample cut short by the kill that ended zpool iostat: dropped */
    if (out->first[out->nsamples - 1] == out->nrows)
        out->nsamples--;
    if (out->nsamples == 0)
        return io_err(err, path, ln, "no zpool iostat sample has rows");
    return PB_OK;
}

size_t pb_iostat_sample_rows(const struct pb_iostat *io, size_t s,
                             size_t *first)
{
    *first = io->first[s];
    size_t end = s + 1 < io->nsamples ? io->first[s + 1] : io->nrows;
    return end - *first;
}

/* ==== kstat files (arcstats) ==== */

void pb_kstat_release(struct pb_kstat *k)
{
    if (!k)
        return;
    free(k->v);
    pb_arena_release(&k->arena);
    memset(k, 0, sizeof(*k));
}

int pb_ingest_kstat(const char *path, const char *buf, size_t len,
                    struct pb_kstat *out, struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    pb_arena_init(&out->arena);
    size_t pos = 0;
    long ln = 0;
    struct line l, f[4];
    int header = 0;
    while (next_line(buf, len, &pos, &l)) {
        ln++;
        if (memchr(l.s, '\0', l.n))
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "binary data in a kstat file");
        size_t nf = fields(&l, f, 3);
        if (nf == 0)
            continue;
        if (!header) {
            /* "13 1 0x01 123 33456 7402060102 66478716886640" (the kstat
             * header) may precede the column names */
            if (nf == 3 && is(&f[0], "name") && is(&f[1], "type") &&
                is(&f[2], "data")) {
                header = 1;
                continue;
            }
            if (ln == 1 && isdigit((unsigned char)l.s[0]))
                continue;
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "expected the kstat header 'name type data'");
        }
        if (nf != 3)
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "a kstat row has 3 fields: name type data");
        char tmp[32];
        int type = 0;
        if (f[1].n > 2 || !isdigit((unsigned char)f[1].s[0]))
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "kstat type is not a number");
        type = atoi(pb_arena_strndup(&out->arena, f[1].s, f[1].n));
        if (f[2].n >= sizeof(tmp))
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "kstat value too long");
        memcpy(tmp, f[2].s, f[2].n);
        tmp[f[2].n] = '\0';
        /* types: 1 int32, 2 uint32, 3 int64, 4 uint64 (KSTAT_DATA_*) */
        char *end;
        errno = 0;
        double v;
        if (type == 1 || type == 3) {
            long long x = strtoll(tmp, &end, 10);
            v = (double)x;
        } else {
            if (tmp[0] == '-')
                return pb_err_set(err, PB_EINPUT, path, ln, 0,
                                  "negative value of an unsigned kstat");
            unsigned long long x = strtoull(tmp, &end, 10);
            v = (double)x;
        }
        if (*end || end == tmp || errno == ERANGE)
            return pb_err_set(err, PB_EINPUT, path, ln, 0,
                              "kstat value is not an integer");
        PB_GROW(out->v, out->cap, out->n + 1);
        out->v[out->n].name = pb_arena_strndup(&out->arena, f[0].s, f[0].n);
        out->v[out->n].value = v;
        out->n++;
    }
    if (!header)
        return pb_err_set(err, PB_EINPUT, path, ln ? ln : 1, 0,
                          "not a kstat file (no 'name type data' header)");
    return PB_OK;
}

int pb_kstat_get(const struct pb_kstat *k, const char *name, double *out)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i].name, name)) {
            *out = k->v[i].value;
            return 1;
        }
    return 0;
}

/* ==== module parameters ==== */

void pb_params_release(struct pb_params *p)
{
    if (!p)
        return;
    free(p->v);
    pb_arena_release(&p->arena);
    memset(p, 0, sizeof(*p));
}

static int cmp_param(const void *a, const void *b)
{
    return strcmp(((const struct pb_kv *)a)->key,
                  ((const struct pb_kv *)b)->key);
}

int pb_ingest_params_dir(const char *dir, struct pb_params *out,
                         struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    pb_arena_init(&out->arena);
    DIR *d = opendir(dir);
    if (!d)
        return pb_err_set(err, PB_EIO, dir, 0, 0, "cannot open: %s",
                          strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p = pb_xasprintf("%s/%s", dir, e->d_name);
        struct pb_err oe = {0};
        int fd = pb_open_input(p, &oe);
        free(p);
        if (fd < 0)
            continue; /* write-only, vanished, not a file: not a value */
        char val[4096];
        ssize_t r = read(fd, val, sizeof(val) - 1);
        close(fd);
        size_t n = r > 0 ? (size_t)r : 0;
        val[n] = '\0';
        /* one line; control bytes become spaces */
        while (n > 0 && (val[n - 1] == '\n' || val[n - 1] == ' '))
            val[--n] = '\0';
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)val[i] < 0x20 || val[i] == 0x7f)
                val[i] = ' ';
        PB_GROW(out->v, out->cap, out->n + 1);
        out->v[out->n].key = pb_arena_strdup(&out->arena, e->d_name);
        out->v[out->n].value = pb_arena_strdup(&out->arena, val);
        out->v[out->n].origin = NULL;
        out->n++;
    }
    closedir(d);
    if (out->n)
        qsort(out->v, out->n, sizeof(*out->v), cmp_param);
    return PB_OK;
}

const char *pb_params_get(const struct pb_params *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->v[i].key, key))
            return p->v[i].value;
    return NULL;
}
