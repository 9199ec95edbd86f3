/* Phoronix Test Suite result descriptions ("Type: Random Read - Engine:
 * Linux AIO - Direct: Yes - Block Size: 8KB - Disk Target: ...") into test
 * parameters with poolbench's keys (rw=randread, ioengine=libaio, direct=1,
 * bs=8192), for the storage test profiles whose options are known; the
 * pairs of other profiles keep their own keys in lower_snake_case. Used by
 * ingest/pts/pts_xml.c; the rules are in docs/formats.md. */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== values ==== */

/* The next "<a><b><c>" (3 bytes, the middle one `mid`) in s, or NULL: a
 * scan that reads s once (strstr from each segment of a 1 MB description
 * reads the rest of it every time under sanitizers). */
static const char *find3(const char *s, char a, char mid, char c)
{
    for (const char *p = s; (p = strchr(p, mid)) != NULL; p++)
        if (p > s && p[-1] == a && p[1] == c)
            return p - 1;
    return NULL;
}

/* The next ", " in s, or NULL (as find3). */
static char *find_comma(char *s)
{
    for (char *p = s; (p = strchr(p, ',')) != NULL; p++)
        if (p[1] == ' ')
            return p;
    return NULL;
}

/* Lower-case copy of s, white space trimmed and runs of it squeezed. */
static char *squeeze(const char *s, size_t n)
{
    char *out = pb_xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isspace(ch)) {
            if (j > 0 && out[j - 1] != ' ')
                out[j++] = ' ';
        } else {
            out[j++] = (char)tolower(ch);
        }
    }
    while (j > 0 && out[j - 1] == ' ')
        j--;
    out[j] = '\0';
    return out;
}

/* The first column of the row of table whose second column is v, or NULL.
 * Tables are {value, words, words, ..., NULL} rows ended by a NULL row. */
static const char *lookup(const char *const (*table)[8], const char *v)
{
    for (size_t i = 0; table[i][0]; i++)
        for (size_t k = 1; k < 8 && table[i][k]; k++)
            if (!strcmp(table[i][k], v))
                return table[i][0];
    return NULL;
}

/* fio's rw names for PTS's workload names (fio Type, tiobench and
 * aio-stress Test, iozone Disk Test). */
static const char *const rw_names[][8] = {
    {"randread", "random read", "random reads", "randread", "rand read"},
    {"randwrite", "random write", "random writes", "randwrite",
     "rand write"},
    {"randrw", "random read/write", "random readwrite", "random read write",
     "random mixed", "randrw", "random rw", "random read/write mix"},
    {"read", "sequential read", "sequential reads", "seq read", "read",
     "read performance", "reads"},
    {"write", "sequential write", "sequential writes", "seq write", "write",
     "write performance", "writes"},
    {"rw", "sequential read/write", "read/write", "sequential mixed",
     "mixed", "rw", "readwrite", "sequential readwrite"},
    {"randtrim", "random trim", "randtrim"},
    {"trim", "sequential trim", "trim"},
    {NULL},
};

/* fio's ioengine names for PTS's Engine / IO Engine option names. */
static const char *const engine_names[][8] = {
    {"libaio", "linux aio", "libaio"},
    {"posixaio", "posix aio", "posixaio"},
    {"io_uring", "io_uring", "io uring", "iouring"},
    {"sync", "sync"},
    {"psync", "psync"},
    {"pvsync", "pvsync"},
    {"pvsync2", "pvsync2"},
    {"mmap", "mmap"},
    {"windowsaio", "windows aio", "windowsaio"},
    {"solarisaio", "solaris aio", "solarisaio"},
    {NULL},
};

static const char *const yes_no[][8] = {
    {"1", "yes", "true", "on", "1"},
    {"0", "no", "false", "off", "0"},
    {NULL},
};

/* "8KB", "4Kb", "1MB", "8GB" -> bytes (binary, as PTS and fio mean them);
 * NULL unless a number with a size unit (or a bare byte count when
 * bare is set). Caller frees. */
static char *size_bytes(const char *v, int bare)
{
    const char *p = v;
    while (isdigit((unsigned char)*p) || *p == '.')
        p++;
    if (p == v)
        return NULL;
    while (*p == ' ')
        p++;
    if (!*p && !bare)
        return NULL;
    if (*p && !strchr("kKmMgGtTpPbB", *p))
        return NULL;
    double d;
    if (pb_parse_size(v, 0, &d) != 0 || !isfinite(d) || d > 9.0e18 ||
        d != floor(d))
        return NULL;
    char num[64];
    return pb_xstrdup(pb_fmt_num(d, num, sizeof(num)));
}

/* Digits only (a count). Caller frees. */
static char *count(const char *v)
{
    size_t n = strlen(v);
    if (n == 0 || n > 18)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)v[i]))
            return NULL;
    return pb_xstrdup(v);
}

/* ==== the known profiles ==== */

enum conv {
    C_RW,     /* workload name -> fio rw */
    C_ENGINE, /* engine name -> fio ioengine */
    C_YESNO,  /* Yes/No -> 1/0 */
    C_SIZE,   /* size with unit -> bytes */
    C_COUNT,  /* an integer */
    C_LOWER,  /* lower case */
    C_FSMARK  /* fs-mark's "1000 Files, 1MB Size, 4 Threads" */
};

struct keymap {
    const char *profile; /* base name of the test profile */
    const char *from;    /* the description key, lower_snake_case */
    const char *to;      /* poolbench's key */
    enum conv conv;
};

static const struct keymap keymap[] = {
    /* pts/fio: Type, Engine (IO Engine before 2.0), Buffered, Direct,
     * Block Size, Job Count, Disk Target */
    {"fio", "type", "rw", C_RW},
    {"fio", "engine", "ioengine", C_ENGINE},
    {"fio", "io_engine", "ioengine", C_ENGINE},
    {"fio", "ioengine", "ioengine", C_ENGINE},
    {"fio", "buffered", "buffered", C_YESNO},
    {"fio", "direct", "direct", C_YESNO},
    {"fio", "block_size", "bs", C_SIZE},
    {"fio", "job_count", "numjobs", C_COUNT},
    {"fio", "jobs", "numjobs", C_COUNT},
    {"fio", "number_of_jobs", "numjobs", C_COUNT},
    {"fio", "io_depth", "iodepth", C_COUNT},
    {"fio", "iodepth", "iodepth", C_COUNT},
    {"fio", "queue_depth", "iodepth", C_COUNT},
    {"fio", "file_size", "size", C_SIZE},
    /* pts/iozone: Record Size, File Size, Disk Test */
    {"iozone", "record_size", "record_size", C_SIZE},
    {"iozone", "file_size", "file_size", C_SIZE},
    {"iozone", "disk_test", "rw", C_RW},
    /* pts/dbench: Client Count */
    {"dbench", "client_count", "clients", C_COUNT},
    {"dbench", "clients", "clients", C_COUNT},
    /* pts/tiobench: Test, Size Per Thread, Thread Count */
    {"tiobench", "test", "rw", C_RW},
    {"tiobench", "size_per_thread", "size", C_SIZE},
    {"tiobench", "thread_count", "threads", C_COUNT},
    {"tiobench", "threads", "threads", C_COUNT},
    /* pts/aio-stress: Test */
    {"aio-stress", "test", "rw", C_RW},
    /* pts/sqlite: Threads / Copies */
    {"sqlite", "threads_copies", "threads", C_COUNT},
    {"sqlite", "threads", "threads", C_COUNT},
    /* pts/pgbench: Scaling Factor, Clients, Mode */
    {"pgbench", "scaling_factor", "scaling_factor", C_COUNT},
    {"pgbench", "clients", "clients", C_COUNT},
    {"pgbench", "mode", "mode", C_LOWER},
    /* pts/fs-mark: Test: "1000 Files, 1MB Size, 4 Threads" */
    {"fs-mark", "test", NULL, C_FSMARK},
    {"fs-mark", "threads", "threads", C_COUNT},
    {"fs-mark", "file_size", "file_size", C_SIZE},
    /* pts/compilebench (Test: Compile, ...) and pts/postmark have no
     * option to map: their pairs keep their own keys */
};

/* Profile names by result title, for results without an identifier. */
static const char *const title_names[][8] = {
    {"fio", "flexible io tester", "fio"},
    {"iozone", "iozone"},
    {"dbench", "dbench"},
    {"tiobench", "threaded i/o tester", "tiobench"},
    {"fs-mark", "fs-mark", "fs mark"},
    {"postmark", "postmark"},
    {"compilebench", "compile bench", "compilebench"},
    {"aio-stress", "aio-stress"},
    {"sqlite", "sqlite"},
    {"pgbench", "postgresql pgbench", "pgbench", "postgresql"},
    {NULL},
};

/* "pts/fio-2.1.0" -> "fio"; "local/aio-stress-1.1.2" -> "aio-stress".
 * Without an identifier, the known title ("Flexible IO Tester"). */
static char *profile_name(const char *ident, const char *title)
{
    if (ident && *ident) {
        const char *b = strrchr(ident, '/');
        b = b ? b + 1 : ident;
        size_t n = strlen(b);
        /* drop "-<version>": a '-' followed by digits and dots only */
        const char *dash = strrchr(b, '-');
        if (dash && dash[1]) {
            const char *q = dash + 1;
            while (isdigit((unsigned char)*q) || *q == '.')
                q++;
            if (!*q)
                n = (size_t)(dash - b);
        }
        char *s = squeeze(b, n);
        return s;
    }
    if (title && *title) {
        char *t = squeeze(title, strlen(title));
        const char *p = lookup(title_names, t);
        free(t);
        if (p)
            return pb_xstrdup(p);
    }
    return pb_xstrdup("");
}

/* ==== phrases without a key ==== */

struct out {
    pb_pts_param_fn fn;
    void *ctx;
    const char *profile;
};

static void emit(const struct out *o, const char *key, const char *value)
{
    if (key && *key && value && *value)
        o->fn(o->ctx, key, value);
}

/* "<number> <word>" with the word one of words: the number, else NULL.
 * Caller frees. */
static char *number_of(const char *ph, const char *const *words)
{
    const char *p = ph;
    while (isdigit((unsigned char)*p))
        p++;
    if (p == ph || p - ph > 18 || *p != ' ')
        return NULL;
    for (size_t i = 0; words[i]; i++)
        if (!strcmp(p + 1, words[i]))
            return pb_xstrndup(ph, (size_t)(p - ph));
    return NULL;
}

/* One phrase such as "12 clients", "1mb size", "64mb read", "no sync/fsync"
 * (lower case): emits what it says. Returns 1 when it knew the phrase. */
static int phrase(const struct out *o, const char *ph)
{
    static const char *const clients[] = {"clients", "client", NULL};
    static const char *const threads[] = {"threads", "thread", NULL};
    static const char *const files[] = {"files", "file", NULL};
    static const char *const dirs[] = {"sub dirs", "sub dir", "dirs",
                                       "directories", "subdirectories",
                                       NULL};
    static const struct {
        const char *const *words;
        const char *key;
    } counts[] = {{clients, "clients"},
                  {threads, "threads"},
                  {files, "files"},
                  {dirs, "dirs"}};
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        char *n = number_of(ph, counts[i].words);
        if (n) {
            emit(o, counts[i].key, n);
            free(n);
            return 1;
        }
    }
    /* "Random Write" alone: PTS 5's aio-stress and tiobench */
    const char *alone = lookup(rw_names, ph);
    if (alone && strcmp(o->profile, "iozone") != 0) {
        emit(o, "rw", alone);
        return 1;
    }
    if (!strcmp(ph, "no sync/fsync") || !strcmp(ph, "no sync") ||
        !strcmp(ph, "no fsync")) {
        emit(o, "fsync", "0");
        return 1;
    }
    /* "<size> <rest>": "1mb size" (a file size), "64mb read" (tiobench's
     * size per thread and workload), "8gb read performance" (iozone) */
    const char *sp = strchr(ph, ' ');
    if (!sp)
        return 0;
    char *num = pb_xstrndup(ph, (size_t)(sp - ph));
    char *bytes = size_bytes(num, 0);
    free(num);
    if (!bytes)
        return 0;
    int known = 1;
    const char *rw = lookup(rw_names, sp + 1);
    if (!strcmp(sp + 1, "size")) {
        emit(o, "file_size", bytes);
    } else if (rw) {
        /* iozone's is the file size; tiobench's the size per thread */
        emit(o, strcmp(o->profile, "iozone") ? "size" : "file_size", bytes);
        emit(o, "rw", rw);
    } else {
        known = 0;
    }
    free(bytes);
    return known;
}

/* Split value at ", " and read each phrase; 1 when all were known. */
static int phrases(const struct out *o, const char *value)
{
    char *low = squeeze(value, strlen(value));
    int all = 1;
    char *p = low;
    for (;;) {
        char *sep = find_comma(p);
        if (sep)
            *sep = '\0';
        if (*p)
            all &= phrase(o, p);
        if (!sep)
            break;
        p = sep + 2;
    }
    free(low);
    return all;
}

/* ==== pairs ==== */

/* "Size Per Thread" -> "size_per_thread". Caller frees. */
static char *snake(const char *k, size_t n)
{
    char *out = pb_xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)k[i];
        if (isalnum(ch))
            out[j++] = (char)tolower(ch);
        else if (j > 0 && out[j - 1] != '_')
            out[j++] = '_';
    }
    while (j > 0 && out[j - 1] == '_')
        j--;
    out[j] = '\0';
    return out;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* A pair of a profile without a mapping for its key: the key as it is,
 * sizes of size keys in bytes, other values as written. */
static void generic(const struct out *o, const char *key, const char *value)
{
    char *b = ends_with(key, "size") ? size_bytes(value, 0) : NULL;
    emit(o, key, b ? b : value);
    free(b);
}

/* Converted value of value by conv, or NULL when it does not convert.
 * Caller frees. */
static char *convert(enum conv conv, const char *value)
{
    char *low = squeeze(value, strlen(value));
    char *r = NULL;
    const char *t;
    switch (conv) {
    case C_RW:
        t = lookup(rw_names, low);
        r = t ? pb_xstrdup(t) : NULL;
        break;
    case C_ENGINE:
        t = lookup(engine_names, low);
        r = t ? pb_xstrdup(t) : NULL;
        break;
    case C_YESNO:
        t = lookup(yes_no, low);
        r = t ? pb_xstrdup(t) : NULL;
        break;
    case C_SIZE:
        r = size_bytes(low, 1);
        break;
    case C_COUNT:
        r = count(low);
        break;
    case C_LOWER:
        r = *low ? pb_xstrdup(low) : NULL;
        break;
    case C_FSMARK:
        break;
    }
    free(low);
    return r;
}

static void pair(const struct out *o, const char *profile, const char *key,
                 const char *value)
{
    for (size_t i = 0; i < sizeof(keymap) / sizeof(keymap[0]); i++) {
        const struct keymap *m = &keymap[i];
        if (strcmp(m->profile, profile) != 0 || strcmp(m->from, key) != 0)
            continue;
        if (m->conv == C_FSMARK) {
            /* keep the text too when some phrase is not understood */
            if (!phrases(o, value))
                generic(o, key, value);
            return;
        }
        char *v = convert(m->conv, value);
        if (v) {
            emit(o, m->to, v);
            free(v);
            return;
        }
        break; /* a value it does not know: kept as it is */
    }
    generic(o, key, value);
}

/* Profiles whose descriptions also hold phrases without a key ("12
 * Clients", "64MB Read - 32 Threads", "8GB Read Performance", "Random
 * Write"). */
static int phrase_profile(const char *profile)
{
    static const char *const names[] = {"dbench", "tiobench", "fs-mark",
                                        "iozone", "aio-stress", NULL};
    for (size_t i = 0; names[i]; i++)
        if (!strcmp(names[i], profile))
            return 1;
    return 0;
}

void pb_pts_desc_params(const char *ident, const char *title,
                        const char *desc, pb_pts_param_fn fn, void *ctx)
{
    if (!desc || !*desc)
        return;
    char *profile = profile_name(ident, title);
    struct out o = {fn, ctx, profile};
    const char *p = desc;
    for (;;) {
        const char *sep = find3(p, ' ', '-', ' ');
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        char *seg = pb_xstrndup(p, n);
        char *colon = strstr(seg, ": ");
        char *key = colon ? snake(seg, (size_t)(colon - seg)) : NULL;
        if (key && *key) {
            const char *val = colon + 2;
            while (isspace((unsigned char)*val))
                val++;
            char *v = pb_xstrdup(val);
            size_t vl = strlen(v);
            while (vl > 0 && isspace((unsigned char)v[vl - 1]))
                v[--vl] = '\0';
            if (*v)
                pair(&o, profile, key, v);
            free(v);
        } else if (!colon && phrase_profile(profile)) {
            /* a segment without a key stays in the test name; the
             * phrases of known profiles also become parameters */
            (void)phrases(&o, seg);
        }
        free(key);
        free(seg);
        if (!sep)
            break;
        p = sep + 3;
    }
    free(profile);
}
