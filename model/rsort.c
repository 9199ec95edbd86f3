/* An external sort of the report's 64-byte records: runs of half the
 * budget sorted by LSD radix, spilled to one anonymous temporary file
 * (each record as its difference from the one before, model/rcode.h),
 * merged through a heap (model/rsort.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "model/rsort.h"
#include "model/rcode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define REC        sizeof(struct db_rsort_rec)
#define MIN_BUDGET 256
#define MIN_READ   64 /* a run's read buffer: at least this x REC bytes */

struct run {
    uint64_t off, bytes, n; /* its first byte in the file, bytes, records */
    uint8_t *buf;           /* its bytes read (in s->rbuf) */
    size_t pos, len, cap;   /* next byte in buf, bytes in buf, room */
    uint64_t done;          /* bytes read from the file */
    uint64_t left;          /* records not yet decoded into cur */
    struct db_rsort_rec cur; /* the record decoded last */
};

struct db_rsort {
    size_t budget;
    size_t cap;                      /* records a run holds */
    struct db_rsort_rec *recs, *tmp; /* cap records each, mapped */
    uint8_t *rbuf;                   /* the merge's read buffers */
    size_t n;                        /* records in recs */
    int ids_ascend; /* k3 rises through recs in the order added */
    int full_radix; /* a run was not in order by k0 alone */
    int fd;         /* -1: none yet */
    uint64_t fbytes; /* bytes in the file */
    struct run *runs;
    size_t nruns, capruns;
    size_t *heap; /* run indexes, smallest current record first */
    size_t nheap;
    int merging;              /* 0: reading recs (one run in memory) */
    size_t next;              /* recs: the next record to give */
    size_t rcap;              /* bytes rbuf holds */
    uint32_t hist[4][8][256]; /* sort_run's counts of each key byte */
};

static void oom(size_t n)
{
    fprintf(stderr, "poolbench: out of memory allocating %zu bytes\n", n);
    abort();
}

void *db_map_reserve(struct db_map *m, size_t bytes)
{
    if (bytes <= m->cap)
        return m->p;
    size_t page = 4096, cap = m->cap ? 2 * m->cap : page;
    if (cap < bytes)
        cap = bytes;
    cap = (cap + page - 1) / page * page;
    void *p = m->p ? mremap(m->p, m->cap, cap, MREMAP_MAYMOVE)
                   : mmap(NULL, cap, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        oom(cap);
    m->p = p;
    m->cap = cap;
    return p;
}

void db_map_free(struct db_map *m)
{
    if (m->p)
        munmap(m->p, m->cap);
    m->p = NULL;
    m->cap = 0;
}

/* The sort's buffers: mapped (db_map), and pages never touched cost
 * nothing (a run of ten records maps the run's size). */
static struct db_rsort_rec *map_recs(size_t n)
{
    struct db_map m = {NULL, 0};
    return db_map_reserve(&m, n * REC);
}

static void unmap_recs(struct db_rsort_rec *p, size_t n)
{
    struct db_map m = {p, 0};
    if (p) {
        m.cap = (n * REC + 4095) / 4096 * 4096;
        db_map_free(&m);
    }
}

static uint8_t *map_bytes(size_t n)
{
    struct db_map m = {NULL, 0};
    return db_map_reserve(&m, n);
}

static void unmap_bytes(uint8_t *p, size_t n)
{
    struct db_map m = {p, (n + 4095) / 4096 * 4096};
    if (p)
        db_map_free(&m);
}

size_t db_rsort_default_budget(void)
{
    const char *e = getenv("POOLBENCH_SORT_BYTES");
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(e, &end, 10);
        if (!errno && !*end && v >= MIN_BUDGET && v <= (size_t)-1 / 4)
            return (size_t)v;
    }
    return DB_RSORT_BUDGET;
}

struct db_rsort *db_rsort_new(size_t budget)
{
    struct db_rsort *s = pb_xcalloc(1, sizeof(*s));
    if (!budget)
        budget = db_rsort_default_budget();
    if (budget < MIN_BUDGET)
        budget = MIN_BUDGET;
    s->budget = budget;
    s->cap = budget / (2 * REC); /* the run and the radix sort's copy */
    s->fd = -1;
    s->ids_ascend = 1;
    return s;
}

void db_rsort_free(struct db_rsort *s)
{
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    unmap_recs(s->recs, s->cap);
    unmap_recs(s->tmp, s->cap);
    unmap_bytes(s->rbuf, s->rcap);
    free(s->runs);
    free(s->heap);
    free(s);
}

size_t db_rsort_runs(const struct db_rsort *s)
{
    return s->nruns;
}

/* ==== the temporary file ==== */

/* The folder SQLite would put its temporary files in (os_unix.c
 * unixTempFileDir): $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp,
 * the first that is a folder we may write. */
static const char *temp_dir(void)
{
    const char *cand[] = {getenv("SQLITE_TMPDIR"), getenv("TMPDIR"), "/var/tmp",
                          "/usr/tmp", "/tmp"};
    for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
        struct stat st;
        if (cand[i] && *cand[i] && stat(cand[i], &st) == 0 &&
            S_ISDIR(st.st_mode) && access(cand[i], W_OK | X_OK) == 0)
            return cand[i];
    }
    return "/tmp";
}

/* An anonymous file: O_TMPFILE (no name at all), else mkstemp (O_EXCL:
 * never a link) unlinked at once. */
static int open_temp(struct db_rsort *s, struct pb_err *err)
{
    const char *dir = temp_dir();
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        char *path = pb_xasprintf("%s/poolbench-sort-XXXXXX", dir);
        fd = mkstemp(path);
        if (fd < 0) {
            int rc = pb_err_set(err, PB_EIO, path, 0, 0,
                                "cannot create a temporary file: %s",
                                strerror(errno));
            free(path);
            return rc;
        }
        unlink(path);
        free(path);
    }
    s->fd = fd;
    return PB_OK;
}

static int io_fail(struct pb_err *err, const char *what, int e)
{
    return pb_err_set(err, PB_EIO, NULL, 0, 0,
                      "cannot %s the sort's temporary file: %s", what,
                      strerror(e ? e : EIO));
}

static int write_at(int fd, const void *p, size_t len, uint64_t off,
                    struct pb_err *err)
{
    const char *c = p;
    while (len) {
        ssize_t k = pwrite(fd, c, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return io_fail(err, "write", k < 0 ? errno : 0);
        c += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return PB_OK;
}

static int read_at(int fd, void *p, size_t len, uint64_t off,
                   struct pb_err *err)
{
    char *c = p;
    while (len) {
        ssize_t k = pread(fd, c, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) /* 0: the file is shorter than what we wrote */
            return io_fail(err, "read", k < 0 ? errno : 0);
        c += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return PB_OK;
}

/* ==== sorting one run ==== */

static inline int rec_less(const struct db_rsort_rec *a,
                           const struct db_rsort_rec *b)
{
    if (a->k0 != b->k0)
        return a->k0 < b->k0;
    if (a->k1 != b->k1)
        return a->k1 < b->k1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2;
    return a->k3 < b->k3;
}

static inline uint64_t key_word(const struct db_rsort_rec *r, int w)
{
    return w == 0 ? r->k0 : w == 1 ? r->k1 : w == 2 ? r->k2 : r->k3;
}

/* One pass of an LSD radix sort: where each of the nv digit values
 * starts in the output, from the pass's histogram h of n records; 0 when
 * every record has the same digit (the pass would move nothing). */
static int digit_offsets(const uint32_t *h, size_t nv, size_t n, size_t *off)
{
    size_t sum = 0;
    for (size_t v = 0; v < nv; v++) {
        if (h[v] == n)
            return 0;
        off[v] = sum;
        sum += h[v];
    }
    return 1;
}

/* Sort recs[0..n) by LSD radix over key words 0..words-1, a byte at a
 * time from the least significant, skipping the bytes every record
 * shares; stable. The result ends in s->recs. */
static void radix(struct db_rsort *s, int words)
{
    size_t n = s->n;
    uint32_t(*hist)[8][256] = s->hist;
    memset(s->hist, 0, (size_t)words * sizeof(s->hist[0]));
    for (size_t i = 0; i < n; i++) {
        const struct db_rsort_rec *r = &s->recs[i];
        for (int w = 0; w < words; w++) {
            uint64_t k = key_word(r, w);
            for (int b = 0; b < 8; b++)
                hist[w][b][(k >> (8 * b)) & 0xff]++;
        }
    }
    if (!s->tmp)
        s->tmp = map_recs(s->cap);
    struct db_rsort_rec *src = s->recs, *dst = s->tmp;
    for (int w = words - 1; w >= 0; w--) {
        for (int b = 0; b < 8; b++) {
            int shift = 8 * b;
            size_t off[256];
            if (!digit_offsets(hist[w][b], 256, n, off))
                continue;
            for (size_t i = 0; i < n; i++) {
                unsigned v = (unsigned)((key_word(&src[i], w) >> shift) & 0xff);
                dst[off[v]++] = src[i];
            }
            struct db_rsort_rec *t = src;
            src = dst;
            dst = t;
        }
    }
    s->recs = src;
    s->tmp = dst;
}

/* The bits of k0 that differ within the run: a field of the high half and
 * one of the low half (bits outside them are alike in every record). */
struct k0_bits {
    int hl, hw, ll, lw; /* lowest bit and width of each field */
};

static inline uint32_t k0_key(const struct k0_bits *b, uint64_t k0)
{
    uint64_t hi = (k0 >> 32) >> b->hl, lo = (k0 & UINT32_MAX) >> b->ll;
    hi &= ((uint64_t)1 << b->hw) - 1;
    lo &= ((uint64_t)1 << b->lw) - 1;
    return (uint32_t)(hi << b->lw | lo);
}

#define K0_DIGIT 11 /* bits a pass sorts by at most (2,048 counts) */

/* Sort recs by k0 alone: LSD radix over the bits that differ in the run,
 * taken out of k0 into a key of at most 32 bits and sorted by digits of
 * up to K0_DIGIT bits (the report's test x metric: one pass instead of
 * two byte passes; the ranked order's 100,000 configuration ranks: two
 * instead of three), else radix(s, 1). Stable; the result ends in recs. */
static void radix_k0(struct db_rsort *s)
{
    size_t n = s->n;
    const struct db_rsort_rec *r = s->recs;
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        any |= r[i].k0;
        all &= r[i].k0;
    }
    uint64_t d = any ^ all;
    if (!d)
        return;
    uint32_t dh = (uint32_t)(d >> 32), dl = (uint32_t)d;
    struct k0_bits b = {0, 0, 0, 0};
    if (dh) {
        b.hl = __builtin_ctz(dh);
        b.hw = 32 - __builtin_clz(dh) - b.hl;
    }
    if (dl) {
        b.ll = __builtin_ctz(dl);
        b.lw = 32 - __builtin_clz(dl) - b.ll;
    }
    int w = b.hw + b.lw;
    if (w > 32) {
        radix(s, 1);
        return;
    }
    int np = (w + K0_DIGIT - 1) / K0_DIGIT, db = (w + np - 1) / np;
    uint32_t mask = ((uint32_t)1 << db) - 1;
    /* np <= 3 counts of 2^db <= 2048 in hist's room (8,192) */
    uint32_t *h = (uint32_t *)(void *)s->hist;
    memset(h, 0, (size_t)np * ((size_t)1 << db) * sizeof(*h));
    for (size_t i = 0; i < n; i++) {
        uint32_t k = k0_key(&b, r[i].k0);
        for (int p = 0; p < np; p++)
            h[((size_t)p << db) + ((k >> (p * db)) & mask)]++;
    }
    if (!s->tmp)
        s->tmp = map_recs(s->cap);
    struct db_rsort_rec *src = s->recs, *dst = s->tmp;
    size_t off[1 << K0_DIGIT];
    for (int p = 0; p < np; p++) {
        if (!digit_offsets(h + ((size_t)p << db), (size_t)mask + 1, n, off))
            continue;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = (k0_key(&b, src[i].k0) >> (p * db)) & mask;
            dst[off[v]++] = src[i];
        }
        struct db_rsort_rec *t = src;
        src = dst;
        dst = t;
    }
    s->recs = src;
    s->tmp = dst;
}

/* Groups of at most this many records that share k0 and are out of order
 * are put in order by insertion; a longer one sends the run to the full
 * radix sort. */
#define SMALL_GROUP 64

/* After radix_k0: put every group of records with one k0 in order
 * when it is short, or say 0 when one is long and out of order. */
static int groups_in_order(struct db_rsort *s)
{
    struct db_rsort_rec *r = s->recs;
    size_t n = s->n;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, bad = 0;
        for (; j < n && r[j].k0 == r[i].k0; j++)
            if (!bad && rec_less(&r[j], &r[j - 1]))
                bad = j;
        if (bad && j - i > SMALL_GROUP)
            return 0;
        for (size_t k = bad; bad && k < j; k++) {
            struct db_rsort_rec x = r[k];
            size_t m = k;
            for (; m > i && rec_less(&x, &r[m - 1]); m--)
                r[m] = r[m - 1];
            r[m] = x;
        }
        i = j;
    }
    return 1;
}

/* Sort the run: by k0 alone first (one or two byte passes for the report's
 * rows), which is all when the records of each k0 came in order of the
 * rest of the key (the report's rows of one test and metric come by
 * configuration and id; the ranked order's groups of a configuration and
 * a test are short), else by every key word, and so every later run of
 * the sort at once; k3 needs no pass when the records came in k3 order
 * (stable passes keep it). */
static void sort_run(struct db_rsort *s)
{
    if (s->n < 2)
        return;
    if (!s->full_radix) {
        radix_k0(s);
        if (groups_in_order(s))
            return;
        s->full_radix = 1; /* the runs of one sort are alike */
    }
    radix(s, s->ids_ascend ? 3 : 4);
}

/* Sort the run in memory and write it to the file. */
static int spill(struct db_rsort *s, struct pb_err *err)
{
    if (s->fd < 0) {
        int rc = open_temp(s, err);
        if (rc)
            return rc;
    }
    sort_run(s);
    /* coded into the radix sort's second buffer, free now (the run is
     * in recs): cap records of 64 bytes, written when nearly full */
    if (!s->tmp)
        s->tmp = map_recs(s->cap);
    uint8_t *out = (uint8_t *)s->tmp, *p = out;
    uint8_t *end = out + s->cap * REC - DB_RCODE_MAX;
    uint64_t off = s->fbytes;
    static const struct db_rsort_rec zero;
    const struct db_rsort_rec *old = &zero;
    for (size_t i = 0; i < s->n; old = &s->recs[i++]) {
        if (p > end) {
            int rc = write_at(s->fd, out, (size_t)(p - out), off, err);
            if (rc)
                return rc;
            off += (uint64_t)(p - out);
            p = out;
        }
        p = db_rcode_put(p, old, &s->recs[i]);
    }
    int rc = write_at(s->fd, out, (size_t)(p - out), off, err);
    if (rc)
        return rc;
    off += (uint64_t)(p - out);
    PB_GROW(s->runs, s->capruns, s->nruns + 1);
    struct run *r = &s->runs[s->nruns++];
    memset(r, 0, sizeof(*r));
    r->off = s->fbytes;
    r->bytes = off - s->fbytes;
    r->n = s->n;
    s->fbytes = off;
    s->n = 0;
    s->ids_ascend = 1;
    return PB_OK;
}

int db_rsort_add(struct db_rsort *s, const struct db_rsort_rec *r,
                 struct pb_err *err)
{
    if (s->n == s->cap) {
        int rc = spill(s, err);
        if (rc)
            return rc;
    }
    if (!s->recs)
        s->recs = map_recs(s->cap);
    if (s->n && r->k3 < s->recs[s->n - 1].k3)
        s->ids_ascend = 0;
    s->recs[s->n++] = *r;
    return PB_OK;
}

/* ==== merging ==== */

/* Move what is left of r's buffer to its front and read more of the run
 * after it. */
static int refill(struct db_rsort *s, struct run *r, struct pb_err *err)
{
    size_t keep = r->len - r->pos;
    memmove(r->buf, r->buf + r->pos, keep);
    uint64_t rest = r->bytes - r->done;
    size_t k = rest < r->cap - keep ? (size_t)rest : r->cap - keep;
    r->pos = 0;
    r->len = keep + k;
    int rc = k ? read_at(s->fd, r->buf + keep, k, r->off + r->done, err)
               : PB_OK;
    r->done += k;
    return rc;
}

/* Decode r's next record into r->cur; 0 when the run has none left. */
static int advance(struct db_rsort *s, struct run *r, int *rc,
                   struct pb_err *err)
{
    *rc = PB_OK;
    if (!r->left)
        return 0;
    if (r->len - r->pos < DB_RCODE_MAX && r->done < r->bytes &&
        (*rc = refill(s, r, err)) != PB_OK)
        return 0;
    r->pos = (size_t)(db_rcode_get(r->buf + r->pos, &r->cur) - r->buf);
    r->left--;
    return 1;
}

/* Make r read its run from the first record, through buf of cap bytes. */
static void run_start(struct run *r, uint8_t *buf, size_t cap)
{
    static const struct db_rsort_rec zero;
    r->buf = buf;
    r->cap = cap;
    r->pos = r->len = 0;
    r->done = 0;
    r->left = r->n;
    r->cur = zero;
}

static inline const struct db_rsort_rec *head(const struct db_rsort *s,
                                              size_t h)
{
    return &s->runs[s->heap[h]].cur;
}

static void sift_down(struct db_rsort *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < s->nheap && rec_less(head(s, l), head(s, m)))
            m = l;
        if (l + 1 < s->nheap && rec_less(head(s, l + 1), head(s, m)))
            m = l + 1;
        if (m == i)
            return;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

static int start_merge(struct db_rsort *s, struct pb_err *err);

int db_rsort_finish(struct db_rsort *s, struct pb_err *err)
{
    if (!s->nruns) {
        sort_run(s); /* one run: no file */
        unmap_recs(s->tmp, s->cap);
        s->tmp = NULL;
        return PB_OK;
    }
    if (s->n) {
        int rc = spill(s, err);
        if (rc)
            return rc;
    }
    unmap_recs(s->recs, s->cap);
    unmap_recs(s->tmp, s->cap);
    s->recs = s->tmp = NULL;
    return start_merge(s, err);
}

/* The merge from the first record of every run in the file. */
static int start_merge(struct db_rsort *s, struct pb_err *err)
{
    /* the read buffers take a quarter of the budget: the callbacks run
     * while they are held (the bonnie++ table's pages: the report's
     * peak), and reads of a few KiB cost little */
    size_t per = s->budget / 4 / s->nruns;
    if (per < MIN_READ * REC)
        per = MIN_READ * REC;
    s->rcap = per * s->nruns;
    s->rbuf = map_bytes(s->rcap);
    s->heap = pb_xcalloc(s->nruns, sizeof(*s->heap));
    s->nheap = 0;
    s->next = 0;
    for (size_t i = 0; i < s->nruns; i++) {
        struct run *r = &s->runs[i];
        run_start(r, s->rbuf + i * per, per);
        int rc;
        if (advance(s, r, &rc, err))
            s->heap[s->nheap++] = i;
        if (rc)
            return rc;
    }
    for (size_t i = s->nheap / 2; i-- > 0;)
        sift_down(s, i);
    s->merging = 1;
    return PB_OK;
}

int db_rsort_park(struct db_rsort *s)
{
    if (!s->merging)
        return 0;
    unmap_bytes(s->rbuf, s->rcap);
    s->rbuf = NULL;
    s->rcap = 0;
    free(s->heap);
    s->heap = NULL;
    s->nheap = 0;
    s->merging = 0;
    s->next = 0;
    return 1;
}

int db_rsort_rewind(struct db_rsort *s, struct pb_err *err)
{
    return start_merge(s, err);
}

int db_rsort_each_parked(struct db_rsort *s, db_rsort_rec_cb fn, void *ctx,
                         struct pb_err *err)
{
    size_t per = s->budget / 4;
    if (per < MIN_READ * REC)
        per = MIN_READ * REC;
    uint8_t *buf = map_bytes(per);
    int rc = PB_OK;
    for (size_t i = 0; i < s->nruns && !rc; i++) {
        struct run r = s->runs[i];
        run_start(&r, buf, per);
        while (advance(s, &r, &rc, err) && !(rc = fn(ctx, &r.cur)))
            ;
    }
    unmap_bytes(buf, per);
    return rc;
}

int db_rsort_next(struct db_rsort *s, const struct db_rsort_rec **out,
                  struct pb_err *err)
{
    *out = NULL;
    if (!s->merging) {
        if (s->next < s->n)
            *out = &s->recs[s->next++];
        return PB_OK;
    }
    if (!s->nheap)
        return PB_OK;
    /* the head given last time moves on only now: *out stays valid */
    if (s->next) {
        int rc;
        if (!advance(s, &s->runs[s->heap[0]], &rc, err)) {
            if (rc)
                return rc;
            s->heap[0] = s->heap[--s->nheap];
            if (!s->nheap)
                return PB_OK;
        }
        sift_down(s, 0);
    }
    s->next = 1;
    *out = &s->runs[s->heap[0]].cur;
    return PB_OK;
}
