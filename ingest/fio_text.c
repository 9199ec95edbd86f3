/* fio's human ("normal") output, fio 2.x (`read : io=..., bw=..., iops=`)
 * and 3.x (`read: IOPS=18.9k, BW=73.7MiB/s (77.3MB/s)(...)`), also when
 * embedded in other text (pod logs), several runs appended to one file, and
 * notes that paste `fio --rw=... --bs=...` command lines followed by the
 * `read: IOPS=...` lines of that run. Same model as ingest/fio_json.c; the
 * test naming, results and aggregates are ingest/fio_common.c's.
 *
 * Decisions (documented in fixtures/fio-text/README.md):
 *   - Metrics, units, test names and params are those of fio_json.c. The
 *     job header line (`name: (g=0): rw=..., bs=..., ioengine=...,
 *     iodepth=N`) gives rw, bs, ioengine, iodepth; a command line gives
 *     those plus numjobs, rwmixread, direct, fsync, sync, size, runtime
 *     (the header wins for the four it shows). Without either, the test is
 *     named as fio_json names option-less jobs: "fio <rw done> job=<name>".
 *   - numjobs, when no command line says it: `jobs=N` of a group_reporting
 *     block whose group has one job definition, else the number of clone
 *     blocks. rwmixread, when no command line says it: the read share of
 *     the I/O counts, rounded to the nearest 5.
 *   - Values are read at the text's precision; when the `issued` counts and
 *     a fixed block size are known, bytes, bw and iops are recomputed from
 *     them exactly as fio computes its JSON (io_bytes = ios * bs,
 *     bw = floor(bytes * 1000 / runtime_ms), iops = ios * 1000 /
 *     runtime_ms), but only when they agree with the printed values.
 *   - Runs appended to one file are all kept. A job name that occurs in
 *     more than one run gets job "<name> run <k>" (k counted per name from
 *     1); its config label stays "<name>". Clone blocks (numjobs without
 *     group_reporting) get "<name>#<i>" plus an aggregate "<name>", as in
 *     fio_json.c; the text has no job_runtime, so CPU is weighted by each
 *     job's longest direction runtime (a plain mean when one is unknown).
 *   - A job block (`name: (groupid=...)`) without its `cpu` line is cut
 *     short and rejects the file; output with no results is rejected,
 *     quoting fio's own error line when there is one.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "ingest/fio_int.h"

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ==== regular expressions (compiled once, shared read-only) ==== */

enum rx_id {
    RX_HDR,     /* name: (g=0): rw=randread, bs=..., ioengine=..., iodepth=4 */
    RX_GROUP,   /* name: (groupid=0, jobs=1): err= 0: pid=... */
    RX_VER,     /* fio-3.33 */
    RX_DIR3,    /* read: IOPS=18.9k, BW=73.7MiB/s (77.3MB/s)(4096KiB/55msec) */
    RX_DIR2,    /* read : io=32708KB, bw=557417B/s, iops=136, runt= 60086msec */
    RX_DIRANY,  /* any line starting like a direction line */
    RX_LAT,     /* clat (usec): min=1, max=2, avg=3.00, stdev=... */
    RX_PCTHDR,  /* clat percentiles (usec): */
    RX_PCTENT,  /* 99.90th=[ 1234] */
    RX_CPU,     /* cpu : usr=1.23%, sys=4.56%, ... */
    RX_ISSUED3, /* issued rwts: total=1,2,3,4 short=0,0,0,0 ... */
    RX_ISSUED2, /* issued : total=r=1/w=2/d=0, short=r=0/w=0/d=0 ... */
    RX_CMD,     /* $ sudo fio --name=x --rw=randread ... */
    RX_SYNC,    /* fsync/fdatasync/sync_file_range: */
    RX_END,     /* Run status group 0 (all jobs): / Disk stats */
    RX_ERRLINE, /* fio: ... / error: ... */
    RX_N
};

#define NUM  "([0-9]+(?:\\.[0-9]*)?)"
#define SFX  "([kKMGT]?)"
#define UNIT "([A-Za-z]*B)"

static const char *const rx_src[RX_N] = {
    [RX_HDR] = "^(.*?): \\(g=([0-9]+)\\): rw=([a-z]+)(?:, bs=(.*?))?"
               "(?:, ioengine=([^,\\s]+))?(?:, iodepth=([0-9]+))?\\s*$",
    [RX_GROUP] = "^(.*?): \\(groupid=([0-9]+), jobs=([0-9]+)\\): "
                 "err=\\s*(-?[0-9]+)(?:\\s*\\(([^)]*)\\))?",
    [RX_VER] = "^\\s*(fio-[0-9]+\\.[0-9]+\\S*)\\s*$",
    [RX_DIR3] = "^\\s*(read|write|trim|mixed)\\s*: IOPS=" NUM SFX
                ", BW=" NUM UNIT "/s(?: \\(" NUM UNIT "/s\\))?"
                "(?:\\(" NUM UNIT "/([0-9]+)\\s*msec\\))?",
    /* fio 2.0 printed "iops=43211 , runt=" */
    [RX_DIR2] =
        "^\\s*(read|write|trim|mixed)\\s*: io=\\s*" NUM "\\s*" UNIT
        "\\s*,\\s*bw=\\s*" NUM "\\s*" UNIT "/s\\s*,\\s*iops=\\s*" NUM SFX
        "\\s*,\\s*runt=\\s*([0-9]+)\\s*msec",
    [RX_DIRANY] = "^\\s*(read|write|trim|mixed)\\s*:",
    [RX_LAT] =
        "^\\s*(slat|clat|lat)\\s*\\((nsec|usec|msec)\\)\\s*:\\s*"
        "min=\\s*" NUM SFX ",\\s*max=\\s*" NUM SFX ",\\s*avg=\\s*" NUM SFX,
    [RX_PCTHDR] = "^\\s*(\\S.*?)\\s*percentiles\\s*\\((nsec|usec|msec)\\)"
                  "\\s*:",
    [RX_PCTENT] = "([0-9]+(?:\\.[0-9]+)?)th=\\[\\s*" NUM SFX "\\s*\\]",
    [RX_CPU] = "^\\s*cpu\\s*:\\s*usr=" NUM "%,\\s*sys=" NUM "%",
    [RX_ISSUED3] = "^\\s*issued rwts?\\s*:\\s*total=([0-9]+),([0-9]+),"
                   "([0-9]+)(?:,[0-9]+)?,?\\s+short=([0-9]+),([0-9]+),"
                   "([0-9]+)",
    [RX_ISSUED2] = "^\\s*issued\\s*:\\s*total=r=([0-9]+)/w=([0-9]+)"
                   "(?:/d=([0-9]+))?,\\s*short=r=([0-9]+)/w=([0-9]+)"
                   "(?:/d=([0-9]+))?",
    [RX_CMD] = "^\\s*(?:\\S*[$#%>]\\s*)?(?:sudo\\s+(?:-\\S+\\s+)*)?"
               "(?:\\S*/)?fio\\s+(.*-.*)$",
    [RX_SYNC] = "^\\s*fsync/fdatasync/sync_file_range:",
    [RX_END] = "^\\s*(?:Run status group [0-9]+|Disk stats \\(read/write\\))",
    [RX_ERRLINE] = "^\\s*(?:fio: |error: |Bad option)",
};

static pcre2_code *rx_code[RX_N];
static int rx_ready;
static pthread_once_t rx_once = PTHREAD_ONCE_INIT;

static void rx_init(void)
{
    int ok = 1;
    for (int i = 0; i < RX_N; i++) {
        int errcode;
        PCRE2_SIZE erroff;
        rx_code[i] = pcre2_compile((PCRE2_SPTR)rx_src[i], PCRE2_ZERO_TERMINATED,
                                   0, &errcode, &erroff, NULL);
        if (!rx_code[i])
            ok = 0;
    }
    rx_ready = ok;
}

static int rx_start(void)
{
    pthread_once(&rx_once, rx_init);
    return rx_ready;
}

/* A line with its match data. */
struct mt {
    const char *s;
    size_t len;
    pcre2_match_data *md;
};

static int rx(struct mt *m, enum rx_id id)
{
    return pcre2_match(rx_code[id], (PCRE2_SPTR)m->s, m->len, 0, 0, m->md,
                       NULL) > 0;
}

/* Group i of the last match: 1 and its span, or 0 when unset. */
static int grp(const struct mt *m, int i, const char **p, size_t *n)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    if ((uint32_t)i >= pcre2_get_ovector_count(m->md) ||
        ov[2 * i] == PCRE2_UNSET)
        return 0;
    *p = m->s + ov[2 * i];
    *n = ov[2 * i + 1] - ov[2 * i];
    return 1;
}

static int grp_str(const struct mt *m, int i, char *buf, size_t cap)
{
    const char *p;
    size_t n;
    if (!grp(m, i, &p, &n) || cap == 0) {
        if (cap)
            buf[0] = '\0';
        return 0;
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return 1;
}

/* ==== numbers ==== */

static double sfx_mult(char c)
{
    switch (c) {
    case 'k':
    case 'K':
        return 1e3;
    case 'M':
        return 1e6;
    case 'G':
        return 1e9;
    case 'T':
        return 1e12;
    default:
        return 1;
    }
}

/* A plain number with an optional k/M/G suffix (x1000, as fio prints
 * counts and latencies), times 10^shift (3: usec to ns). *step: one unit
 * of the last printed digit. */
static double num_sfx(const struct mt *m, int gnum, int gsfx, int shift,
                      double *step)
{
    char b[64], s[8];
    const char *gp;
    size_t gn;
    if (!grp(m, gnum, &gp, &gn) || gn >= 40)
        return NAN; /* unset, or beyond any real measurement */
    grp_str(m, gnum, b, sizeof(b));
    s[0] = '\0';
    if (gsfx > 0)
        grp_str(m, gsfx, s, sizeof(s));
    double mult = sfx_mult(s[0]);
    const char *dot = strchr(b, '.');
    size_t dec = dot ? strlen(dot + 1) : 0;
    if (step)
        *step = pow(10.0, -(double)dec) * mult;
    return pb_fio_dec_shift(b, (int)lround(log10(mult)) + shift);
}

/* Bytes per unit: B, KiB..EiB (binary), kB..EB (decimal; binary in fio
 * 2.x, where "KB" meant 1024). NAN when unknown. */
static double unit_mult(const char *u, int legacy)
{
    static const char pre[] = "KMGTPE";
    size_t n = strlen(u);
    if (n == 1 && (u[0] == 'B' || u[0] == 'b'))
        return 1;
    const char *k = n >= 2 ? strchr(pre, toupper((unsigned char)u[0])) : NULL;
    if (!k || !u[0])
        return NAN;
    double e = (double)(k - pre) + 1;
    if (n == 3 && u[1] == 'i' && u[2] == 'B')
        return pow(1024.0, e);
    if (n == 2 && u[1] == 'B')
        return legacy ? pow(1024.0, e) : pow(1000.0, e);
    return NAN;
}

static double size_val(const struct mt *m, int gnum, int gunit, int legacy,
                       double *step, int *binary)
{
    char b[64], u[16];
    const char *gp;
    size_t gn;
    if (!grp(m, gnum, &gp, &gn) || gn >= 40 ||
        !grp_str(m, gnum, b, sizeof(b)) || !grp_str(m, gunit, u, sizeof(u)))
        return NAN;
    double mult = unit_mult(u, legacy);
    const char *dot = strchr(b, '.');
    size_t dec = dot ? strlen(dot + 1) : 0;
    if (step)
        *step = pow(10.0, -(double)dec) * mult;
    if (binary)
        *binary = strchr(u, 'i') != NULL;
    return strtod(b, NULL) * mult;
}

/* Decimal exponent of a latency unit to ns. */
static int lat_unit(const struct mt *m, int g)
{
    char u[8];
    grp_str(m, g, u, sizeof(u));
    return !strcmp(u, "msec") ? 6 : !strcmp(u, "usec") ? 3 : 0;
}

/* ==== the model of one parse ==== */

/* A direction's numbers as printed, for the exact recomputation. */
struct printed {
    double bytes_step, bw_step, iops_step, runtime_ms, shorts;
};

struct kvl {
    struct pb_kv *kv;
    size_t n, cap;
};

/* One job section of a command line (`--name=x` starts one). */
struct cmdsec {
    const char *name;
    struct kvl kv;
};

struct hdr {
    const char *name;
    long groupid;
    const char *rw, *bs, *ioengine, *iodepth;
};

struct run {
    long line;
    int has_cmd;
    struct kvl global; /* command-line options before the first --name */
    struct cmdsec *sec;
    size_t nsec, capsec;
    struct hdr *hdr;
    size_t nhdr, caphdr;
    size_t njobs;    /* jobs seen in this run */
    size_t nimplied; /* jobs without a groupid line, for --name sections */
};

struct job {
    struct pb_fio_job job; /* name, run, stats, test, ... */
    long line;
    long groupid; /* -1: unknown */
    long members; /* jobs=N; 0: unknown */
    long err;
    const char *errtext;
    int full; /* from a `(groupid=...)` line */
    int has_cpu;
    size_t implied_idx;
    struct printed pr[D_N];
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    struct run *runs;
    size_t nruns, capruns;
    struct job *jobs;
    size_t njobs, capjobs;
    long errline;     /* first fio error line, 0: none */
    char errmsg[160]; /* its text */
    long jobcount;    /* for names of nameless jobs */
};

static void kvl_set(struct ctx *c, struct kvl *l, const char *key,
                    const char *value)
{
    for (size_t i = 0; i < l->n; i++) {
        if (!strcmp(l->kv[i].key, key)) {
            l->kv[i].value = pb_rs_str(c->set, value);
            return;
        }
    }
    PB_GROW(l->kv, l->cap, l->n + 1);
    l->kv[l->n].key = pb_rs_str(c->set, key);
    l->kv[l->n].value = pb_rs_str(c->set, value);
    l->kv[l->n].origin = NULL;
    l->n++;
}

static const char *kvl_get(const struct kvl *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->kv[i].key, key))
            return l->kv[i].value;
    return NULL;
}

static struct run *new_run(struct ctx *c, long line)
{
    PB_GROW(c->runs, c->capruns, c->nruns + 1);
    struct run *r = &c->runs[c->nruns++];
    memset(r, 0, sizeof(*r));
    r->line = line;
    return r;
}

static struct run *cur_run(struct ctx *c, long line)
{
    return c->nruns ? &c->runs[c->nruns - 1] : new_run(c, line);
}

static struct job *new_job(struct ctx *c, const char *name, long line)
{
    struct run *r = cur_run(c, line);
    PB_GROW(c->jobs, c->capjobs, c->njobs + 1);
    struct job *j = &c->jobs[c->njobs++];
    memset(j, 0, sizeof(*j));
    j->job.name = name;
    j->line = line;
    j->job.run = c->nruns - 1;
    j->groupid = -1;
    pb_fio_stats_init(&j->job.st, 1);
    for (int i = 0; i < D_N; i++) {
        struct printed *pr = &j->pr[i];
        pr->bytes_step = pr->bw_step = pr->iops_step = pr->runtime_ms = NAN;
        pr->shorts = NAN;
    }
    r->njobs++;
    c->jobcount++;
    return j;
}

static void free_ctx(struct ctx *c)
{
    for (size_t i = 0; i < c->nruns; i++) {
        struct run *r = &c->runs[i];
        free(r->global.kv);
        for (size_t k = 0; k < r->nsec; k++)
            free(r->sec[k].kv.kv);
        free(r->sec);
        free(r->hdr);
    }
    free(c->runs);
    free(c->jobs);
}

/* ==== command lines ==== */

/* Options taking a value that may follow as the next word (`--bs 4k`). */
static int valued_key(const char *k)
{
    static const char *const keys[] = {
        "name",      "rw",        "bs",         "iodepth",  "numjobs",
        "direct",    "fsync",     "sync",       "ioengine", "size",
        "runtime",   "rwmixread", "rwmixwrite", "buffered", "filename",
        "directory", NULL};
    for (size_t i = 0; keys[i]; i++)
        if (!strcmp(k, keys[i]))
            return 1;
    return 0;
}

static const char *canon_key(const char *k)
{
    if (!strcmp(k, "readwrite"))
        return "rw";
    if (!strcmp(k, "blocksize"))
        return "bs";
    if (!strcmp(k, "timeout"))
        return "runtime";
    return k;
}

/* Split shell words (simple quotes, no expansion) into toks. */
static size_t split_words(char *s, char **toks, size_t max)
{
    size_t n = 0;
    char *w = s;
    while (*s && n < max) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        toks[n++] = w;
        char q = 0;
        while (*s && (q || (*s != ' ' && *s != '\t'))) {
            if (!q && (*s == '\'' || *s == '"')) {
                q = *s++;
                continue;
            }
            if (q && *s == q) {
                q = 0;
                s++;
                continue;
            }
            *w++ = *s++;
        }
        if (*s)
            s++;
        *w++ = '\0';
        w = s;
    }
    return n;
}

/* Parse the arguments of a command line into a new run; returns 0 when
 * the line holds no fio option (prose that happens to say "fio"). */
static int parse_cmdline(struct ctx *c, const char *args, size_t n, long line)
{
    if (n > 4096)
        n = 4096;
    char *s = pb_xstrndup(args, n);
    char *toks[256];
    size_t nt = split_words(s, toks, sizeof(toks) / sizeof(toks[0]));
    size_t nopt = 0;
    for (size_t i = 0; i < nt; i++)
        if (toks[i][0] == '-' &&
            isalpha((unsigned char)toks[i][1 + (toks[i][1] == '-')]))
            nopt++;
    if (nopt == 0) {
        free(s);
        return 0;
    }
    struct run *r = new_run(c, line);
    r->has_cmd = 1;
    struct kvl *dst = &r->global;
    for (size_t i = 0; i < nt; i++) {
        char *t = toks[i];
        if (!strcmp(t, "|") || !strcmp(t, ">") || !strcmp(t, ">>") ||
            !strcmp(t, "&&") || !strcmp(t, ";") || !strcmp(t, "2>&1"))
            break;
        if (t[0] != '-')
            continue;
        t += t[1] == '-' ? 2 : 1;
        if (!isalpha((unsigned char)t[0]))
            continue;
        char *eq = strchr(t, '=');
        const char *val = NULL;
        if (eq) {
            *eq = '\0';
            val = eq + 1;
        }
        for (char *p = t; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        const char *key = canon_key(t);
        if (!val && valued_key(key) && i + 1 < nt && toks[i + 1][0] != '-')
            val = toks[++i];
        if (!val)
            val = "1"; /* a flag such as --group_reporting */
        if (!strcmp(key, "name")) {
            PB_GROW(r->sec, r->capsec, r->nsec + 1);
            struct cmdsec *sec = &r->sec[r->nsec++];
            memset(sec, 0, sizeof(*sec));
            sec->name = pb_rs_str(c->set, val);
            dst = &sec->kv;
            continue;
        }
        kvl_set(c, dst, key, val);
    }
    free(s);
    return 1;
}

/* ==== the line scanner ==== */

struct scan {
    struct ctx *c;
    struct mt m;
    long line;
    struct job *job; /* job whose lines are being read */
    int dir;         /* direction being read, -1 none */
    int pct_dir;     /* direction of a clat percentiles block, -1 none */
    int pct_unit;
};

static struct job *implied_job(struct scan *sc, int d)
{
    struct ctx *c = sc->c;
    struct job *j = sc->job;
    if (j && !j->full && !j->job.st.d[d].present && !j->has_cpu)
        return j;
    if (j && j->full && !j->has_cpu && !j->job.st.d[d].present)
        return j;
    struct run *r = cur_run(c, sc->line);
    const char *name = NULL;
    size_t k = r->nimplied;
    if (r->nsec > 0)
        name = r->sec[k < r->nsec ? k : r->nsec - 1].name;
    else if (r->nhdr == 1)
        name = r->hdr[0].name;
    if (!name)
        name = pb_arena_printf(&c->set->arena, "job%ld", c->jobcount + 1);
    j = new_job(c, name, sc->line);
    j->implied_idx = r->nimplied++;
    sc->job = j;
    return j;
}

/* Direction d of the job a direction line belongs to, now being read. */
static struct pb_fio_dstat *start_dir(struct scan *sc, int d,
                                      struct printed **pr)
{
    struct job *j = implied_job(sc, d);
    *pr = &j->pr[d];
    j->job.st.d[d].present = 1;
    sc->dir = d;
    sc->pct_dir = -1;
    return &j->job.st.d[d];
}

/* Runtime from the msec of group g, when it is there. */
static void read_runtime(const struct mt *m, int g, struct pb_fio_dstat *x,
                         struct printed *pr)
{
    char b[32];
    if (grp_str(m, g, b, sizeof(b))) {
        pr->runtime_ms = strtod(b, NULL);
        x->runtime = pr->runtime_ms * 1e6;
    }
}

static void read_dir3(struct scan *sc, int d)
{
    struct mt *m = &sc->m;
    struct printed *pr;
    struct pb_fio_dstat *x = start_dir(sc, d, &pr);
    x->iops = num_sfx(m, 2, 3, 0, &pr->iops_step);
    double st1 = NAN, st2 = NAN;
    int bin1 = 0, bin2 = 0;
    double bw1 = size_val(m, 4, 5, 0, &st1, &bin1);
    double bw2 = size_val(m, 6, 7, 0, &st2, &bin2);
    if (!isnan(bw2) && bin2 && !bin1) {
        x->bw = bw2;
        pr->bw_step = st2;
    } else {
        x->bw = bw1;
        pr->bw_step = st1;
    }
    x->bytes = size_val(m, 8, 9, 0, &pr->bytes_step, NULL);
    read_runtime(m, 10, x, pr);
}

static void read_dir2(struct scan *sc, int d)
{
    struct mt *m = &sc->m;
    struct printed *pr;
    struct pb_fio_dstat *x = start_dir(sc, d, &pr);
    x->bytes = size_val(m, 2, 3, 1, &pr->bytes_step, NULL);
    x->bw = size_val(m, 4, 5, 1, &pr->bw_step, NULL);
    x->iops = num_sfx(m, 6, 7, 0, &pr->iops_step);
    read_runtime(m, 8, x, pr);
}

static int dir_index(const struct mt *m)
{
    char b[8];
    grp_str(m, 1, b, sizeof(b));
    for (int i = 0; i < D_N; i++)
        if (!strcmp(b, pb_fio_dir_name[i]))
            return i;
    return -1;
}

static void read_lat(struct scan *sc)
{
    struct mt *m = &sc->m;
    struct pb_fio_dstat *x = &sc->job->job.st.d[sc->dir];
    char kind[8];
    grp_str(m, 1, kind, sizeof(kind));
    int unit = lat_unit(m, 2);
    double min = num_sfx(m, 3, 4, unit, NULL);
    double max = num_sfx(m, 5, 6, unit, NULL);
    double avg = num_sfx(m, 7, 8, unit, NULL);
    if (!strcmp(kind, "slat")) {
        /* fio 2.x prints all zeros when it did not measure slat */
        if (!(avg == 0 && max == 0 && min == 0))
            x->slat_mean = avg;
    } else if (!strcmp(kind, "clat")) {
        x->clat_mean = avg;
        x->clat_max = max;
    } else {
        x->lat_mean = avg;
    }
}

static void read_pcts(struct scan *sc)
{
    struct mt *m = &sc->m;
    struct pb_fio_dstat *x = &sc->job->job.st.d[sc->pct_dir];
    size_t off = 0;
    while (off < m->len && pcre2_match(rx_code[RX_PCTENT], (PCRE2_SPTR)m->s,
                                       m->len, off, 0, m->md, NULL) > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
        char k[32];
        grp_str(m, 1, k, sizeof(k));
        double pk = strtod(k, NULL);
        double v = num_sfx(m, 2, 3, sc->pct_unit, NULL);
        pb_fio_set_pct(x, pk, v);
        off = ov[1] > off ? ov[1] : off + 1;
    }
}

static void read_issued(struct scan *sc)
{
    struct mt *m = &sc->m;
    struct job *j = sc->job;
    double tot[3], sh[3];
    for (int i = 0; i < 3; i++) {
        char b[32];
        tot[i] = grp_str(m, 1 + i, b, sizeof(b)) ? strtod(b, NULL) : 0;
        sh[i] = grp_str(m, 4 + i, b, sizeof(b)) ? strtod(b, NULL) : 0;
    }
    for (int i = 0; i < 3; i++) {
        j->job.st.d[i].ios = tot[i];
        j->pr[i].shorts = sh[i];
    }
    /* unified_rw_reporting counts everything as mixed */
    j->job.st.d[D_MIXED].ios = tot[0] + tot[1] + tot[2];
    j->pr[D_MIXED].shorts = sh[0] + sh[1] + sh[2];
}

static void read_header(struct scan *sc)
{
    struct ctx *c = sc->c;
    struct mt *m = &sc->m;
    struct run *r = cur_run(c, sc->line);
    /* a header after results, or after a command line that already has
     * one for this job, starts another run */
    if (r->njobs > 0)
        r = new_run(c, sc->line);
    PB_GROW(r->hdr, r->caphdr, r->nhdr + 1);
    struct hdr *h = &r->hdr[r->nhdr++];
    memset(h, 0, sizeof(*h));
    const char *p = "";
    size_t n = 0;
    char b[512];
    grp(m, 1, &p, &n);
    h->name = pb_arena_strndup(&c->set->arena, p, n);
    grp_str(m, 2, b, sizeof(b));
    h->groupid = strtol(b, NULL, 10);
    grp_str(m, 3, b, sizeof(b));
    h->rw = pb_rs_str(c->set, b);
    if (grp_str(m, 4, b, sizeof(b)))
        h->bs = pb_rs_str(c->set, b);
    if (grp_str(m, 5, b, sizeof(b)))
        h->ioengine = pb_rs_str(c->set, b);
    if (grp_str(m, 6, b, sizeof(b)))
        h->iodepth = pb_rs_str(c->set, b);
    sc->job = NULL;
    sc->dir = sc->pct_dir = -1;
}

static void read_group(struct scan *sc)
{
    struct ctx *c = sc->c;
    struct mt *m = &sc->m;
    const char *p = "";
    size_t n = 0;
    char b[64];
    grp(m, 1, &p, &n);
    const char *name = pb_arena_strndup(&c->set->arena, p, n);
    if (!*name)
        name = pb_arena_printf(&c->set->arena, "job%ld", c->jobcount + 1);
    struct job *j = new_job(c, name, sc->line);
    j->full = 1;
    grp_str(m, 2, b, sizeof(b));
    j->groupid = strtol(b, NULL, 10);
    grp_str(m, 3, b, sizeof(b));
    j->members = strtol(b, NULL, 10);
    grp_str(m, 4, b, sizeof(b));
    j->err = strtol(b, NULL, 10);
    if (grp(m, 5, &p, &n)) {
        /* "(file:x.c:399, func=td_io_queue, error=Inappropriate ...)" */
        const char *e = NULL;
        for (size_t i = 0; i + 6 <= n; i++)
            if (!memcmp(p + i, "error=", 6))
                e = p + i + 6;
        if (e)
            j->errtext =
                pb_arena_strndup(&c->set->arena, e, (size_t)(p + n - e));
        else
            j->errtext = pb_arena_strndup(&c->set->arena, p, n);
    }
    sc->job = j;
    sc->dir = sc->pct_dir = -1;
}

/* lit occurs in s[0..n). */
static int has(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    for (const char *p = s; p + k <= s + n; p++) {
        p = memchr(p, lit[0], (size_t)(s + n - p));
        if (!p || p + k > s + n)
            return 0;
        if (!memcmp(p, lit, k))
            return 1;
    }
    return 0;
}

/* Printable copy of a line for messages. */
static void quote_line(const char *s, size_t n, char *out, size_t cap)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[k++] = (ch >= 0x80 || isprint(ch)) ? (char)ch : '?';
    }
    /* do not leave half a UTF-8 sequence */
    if (k + 1 >= cap)
        while (k > 0 && ((unsigned char)out[k - 1] & 0xC0) == 0x80)
            k--;
    if (k > 0 && ((unsigned char)out[k - 1] & 0xC0) == 0xC0)
        k--;
    out[k] = '\0';
}

static int scan_line(struct scan *sc, const char *s, size_t n)
{
    struct ctx *c = sc->c;
    struct mt *m = &sc->m;
    m->s = s;
    m->len = n;

    if (sc->pct_dir >= 0 && sc->job) {
        const char *q = s;
        while (q < s + n && (*q == ' ' || *q == '\t'))
            q++;
        if (q < s + n && *q == '|') {
            read_pcts(sc);
            return PB_OK;
        }
        sc->pct_dir = -1;
    }
    /* cheap tests first: most lines need no pattern at all */
    const char *w = s;
    while (w < s + n && (*w == ' ' || *w == '\t'))
        w++;
    size_t wl = 0;
    while (w + wl < s + n && w[wl] >= 'a' && w[wl] <= 'z')
        wl++;
#define WORD(lit) (wl == sizeof(lit) - 1 && !memcmp(w, lit, wl))
#define STARTS(lit)                                                            \
    ((size_t)(s + n - w) >= sizeof(lit) - 1 && !memcmp(w, lit, sizeof(lit) - 1))
    int dirword =
        WORD("read") || WORD("write") || WORD("trim") || WORD("mixed");
    if (has(s, n, ": (groupid=") && rx(m, RX_GROUP)) {
        read_group(sc);
        return PB_OK;
    }
    if (has(s, n, ": (g=") && rx(m, RX_HDR)) {
        read_header(sc);
        return PB_OK;
    }
    if (dirword && rx(m, RX_DIR3)) {
        read_dir3(sc, dir_index(m));
        return PB_OK;
    }
    if (dirword && rx(m, RX_DIR2)) {
        read_dir2(sc, dir_index(m));
        return PB_OK;
    }
    if (dirword && sc->job && sc->job->full && !sc->job->has_cpu &&
        rx(m, RX_DIRANY)) {
        char q[120];
        quote_line(s, n, q, sizeof(q));
        return pb_err_set(c->err, PB_EINPUT, c->path, sc->line, 0,
                          "cannot read the direction line \"%s\"", q);
    }
    if (sc->job && sc->dir >= 0) {
        if ((WORD("slat") || WORD("clat") || WORD("lat")) && rx(m, RX_LAT)) {
            read_lat(sc);
            return PB_OK;
        }
        if (has(s, n, "percentiles") && rx(m, RX_PCTHDR)) {
            char what[16];
            grp_str(m, 1, what, sizeof(what));
            if (!strcmp(what, "clat")) {
                sc->pct_dir = sc->dir;
                sc->pct_unit = lat_unit(m, 2);
            }
            return PB_OK;
        }
    }
    if (WORD("fsync") && rx(m, RX_SYNC)) {
        sc->dir = sc->pct_dir = -1;
        return PB_OK;
    }
    if (sc->job && WORD("cpu") && rx(m, RX_CPU)) {
        sc->job->job.st.usr_cpu = num_sfx(m, 1, -1, 0, NULL);
        sc->job->job.st.sys_cpu = num_sfx(m, 2, -1, 0, NULL);
        sc->job->has_cpu = 1;
        sc->dir = sc->pct_dir = -1;
        return PB_OK;
    }
    if (sc->job && WORD("issued") && rx(m, RX_ISSUED3)) {
        read_issued(sc);
        return PB_OK;
    }
    if (sc->job && WORD("issued") && rx(m, RX_ISSUED2)) {
        read_issued(sc);
        return PB_OK;
    }
    if (STARTS("fio-") && rx(m, RX_VER)) {
        char b[64];
        grp_str(m, 1, b, sizeof(b));
        if (!c->set->tool_version)
            pb_fio_set_version(c->set, b);
        struct run *r = cur_run(c, sc->line);
        if (r->njobs > 0)
            new_run(c, sc->line);
        sc->job = NULL;
        sc->dir = sc->pct_dir = -1;
        return PB_OK;
    }
    if ((STARTS("Run status") || STARTS("Disk stats")) && rx(m, RX_END)) {
        sc->job = NULL;
        sc->dir = sc->pct_dir = -1;
        return PB_OK;
    }
    if (has(s, n, "fio") && rx(m, RX_CMD)) {
        const char *p = "";
        size_t k = 0;
        grp(m, 1, &p, &k);
        if (parse_cmdline(c, p, k, sc->line)) {
            sc->job = NULL;
            sc->dir = sc->pct_dir = -1;
        }
        return PB_OK;
    }
    if (!c->errline &&
        (STARTS("fio: ") || STARTS("error: ") || STARTS("Bad option")) &&
        rx(m, RX_ERRLINE)) {
        c->errline = sc->line;
        quote_line(s, n, c->errmsg, sizeof(c->errmsg));
    }
    return PB_OK;
#undef WORD
#undef STARTS
}

#define MAX_LINE ((size_t)16384)

/* Feed every line; `\`-continued command lines are joined first. */
static int scan_all(struct ctx *c, const char *buf, size_t len)
{
    struct scan sc;
    memset(&sc, 0, sizeof(sc));
    sc.c = c;
    sc.dir = sc.pct_dir = -1;
    sc.m.md = pcre2_match_data_create(32, NULL);
    if (!sc.m.md)
        abort(); /* out of memory, as pb_xmalloc does */
    struct pb_buf joined = PB_BUF_INIT;
    int rc = PB_OK;
    const char *p = buf, *end = buf + len;
    long line = 0;
    while (p < end && rc == PB_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        line++;
        const char *s = p;
        p = nl ? nl + 1 : end;
        while (e > s && (e[-1] == '\r'))
            e--;
        /* a terminal redraw: keep what was written after the last CR */
        for (const char *q = e; q > s; q--)
            if (q[-1] == '\r') {
                s = q;
                break;
            }
        size_t n = (size_t)(e - s);
        if (n > MAX_LINE) {
            /* no fio line is this long; do not feed it to the patterns */
            if (joined.len == 0)
                continue;
            n = 0;
        }
        if (joined.len == 0)
            sc.line = line; /* a continued command keeps its first line */
        if (n > 0 && s[n - 1] == '\\' && joined.len < 65536 &&
            (joined.len > 0 || (sc.m.s = s, sc.m.len = n, rx(&sc.m, RX_CMD)))) {
            pb_buf_add(&joined, s, n - 1);
            pb_buf_putc(&joined, ' ');
            continue;
        }
        if (joined.len > 0) {
            pb_buf_add(&joined, s, n);
            rc = scan_line(&sc, joined.s, joined.len);
            pb_buf_reset(&joined);
            continue;
        }
        rc = scan_line(&sc, s, n);
    }
    if (rc == PB_OK && joined.len > 0)
        rc = scan_line(&sc, joined.s, joined.len);
    pb_buf_release(&joined);
    pcre2_match_data_free(sc.m.md);
    return rc;
}

/* ==== options of a job (command line and header) ==== */

struct jopts {
    const struct kvl *sec;    /* command-line section of this job */
    const struct kvl *global; /* command-line options before --name */
    const struct hdr *hdr;
    char bs[256];     /* "r,w,t" from the header */
    char numjobs[32]; /* derived */
    char rwmix[32];   /* derived: pb_fio_opts.rwmix_done */
};

static const char *opt(const struct jopts *o, const char *key)
{
    if (o->hdr) {
        if (!strcmp(key, "rw") && o->hdr->rw)
            return o->hdr->rw;
        if (!strcmp(key, "bs") && o->bs[0])
            return o->bs;
        if (!strcmp(key, "ioengine") && o->hdr->ioengine)
            return o->hdr->ioengine;
        if (!strcmp(key, "iodepth") && o->hdr->iodepth)
            return o->hdr->iodepth;
    }
    const char *v = o->sec ? kvl_get(o->sec, key) : NULL;
    if (!v && o->global)
        v = kvl_get(o->global, key);
    if (!v && !strcmp(key, "numjobs") && o->numjobs[0])
        v = o->numjobs;
    return v;
}

static int known_opts(const struct jopts *o)
{
    return o->hdr || o->sec || (o->global && o->global->n > 0);
}

/* One "min-max" block size range of a header: bytes, or "min-max". */
static void range_bs(const char *s, size_t n, char *out, size_t cap)
{
    char tmp[32];
    if (n >= sizeof(tmp))
        n = sizeof(tmp) - 1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *dash = strchr(tmp, '-');
    if (dash)
        *dash = '\0';
    double lo, hi = NAN;
    int ok = pb_fio_parse_size(tmp, &lo) == 0;
    if (dash)
        ok = ok && pb_fio_parse_size(dash + 1, &hi) == 0;
    char a[32], b[32];
    if (!ok)
        snprintf(out, cap, "%s", tmp);
    else if (!dash || hi == lo)
        snprintf(out, cap, "%s", pb_fmt_num(lo, a, sizeof(a)));
    else
        snprintf(out, cap, "%s-%s", pb_fmt_num(lo, a, sizeof(a)),
                 pb_fmt_num(hi, b, sizeof(b)));
}

/* Header bs "(R) 4096B-4096B, (W) ..., (T) ..." (3.x) or
 * "4K-4K/4K-4K/4K-4K" (2.x) into "r,w,t". */
static void header_bs(const char *bs, char *out, size_t cap)
{
    char part[3][80];
    int np = 0;
    const char *p = bs;
    while (*p && np < 3) {
        while (*p == ' ' || *p == ',' || *p == '/')
            p++;
        if (p[0] == '(' && p[1] && p[2] == ')')
            p += 3;
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, ",/");
        if (n == 0)
            break;
        size_t k = n;
        while (k > 0 && p[k - 1] == ' ')
            k--;
        range_bs(p, k, part[np], sizeof(part[np]));
        np++;
        p += n;
    }
    if (np == 0) {
        out[0] = '\0';
        return;
    }
    for (int i = np; i < 3; i++)
        strcpy(part[i], part[np - 1]);
    snprintf(out, cap, "%s,%s,%s", part[0], part[1], part[2]);
}

/* Block size of direction d in bytes, NAN when not one fixed size. */
static double dir_bs(const struct jopts *o, int d)
{
    const char *v = opt(o, "bs");
    char bs[3][64];
    pb_fio_split_bs(v ? v : "4096", bs);
    if (d == D_MIXED) {
        if (strcmp(bs[0], bs[1]) != 0 || strcmp(bs[0], bs[2]) != 0)
            return NAN;
        d = D_READ;
    }
    double b = pb_fio_int_opt(bs[d]);
    return b > 0 ? b : NAN;
}

/* ==== per-job finishing ==== */

/* Exact bytes/bw/iops from the I/O count when they agree with the text. */
static void refine(struct pb_fio_dstat *x, const struct printed *pr, double bs)
{
    if (!x->present || isnan(x->ios) || pr->shorts != 0 || isnan(bs) ||
        !(pr->runtime_ms > 0) || isnan(x->bytes))
        return;
    double bytes = x->ios * bs;
    if (!(fabs(bytes - x->bytes) <= pr->bytes_step))
        return;
    x->bytes = bytes;
    double bw = floor(bytes * 1000 / pr->runtime_ms);
    if (fabs(bw - x->bw) <= pr->bw_step)
        x->bw = bw;
    double iops = x->ios * 1000 / pr->runtime_ms;
    if (fabs(iops - x->iops) <= pr->iops_step)
        x->iops = iops;
}

static const struct hdr *find_hdr(const struct run *r, const struct job *j)
{
    for (size_t i = 0; i < r->nhdr; i++)
        if (!strcmp(r->hdr[i].name, j->job.name))
            return &r->hdr[i];
    if (r->nhdr == 1 && (!j->full || r->hdr[0].groupid == j->groupid))
        return &r->hdr[0];
    return NULL;
}

static const struct kvl *find_sec(const struct run *r, const struct job *j)
{
    for (size_t i = 0; i < r->nsec; i++)
        if (!strcmp(r->sec[i].name, j->job.name))
            return &r->sec[i].kv;
    if (!j->full && r->nsec > 0)
        return &r->sec[j->implied_idx < r->nsec ? j->implied_idx : r->nsec - 1]
                    .kv;
    return NULL;
}

/* Job definitions (header lines) of group g in run r. */
static size_t defs_in_group(const struct run *r, long g)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nhdr; i++)
        if (r->hdr[i].groupid == g)
            n++;
    return n;
}

static int is_clone(const void *ctx, size_t ia, size_t ib)
{
    const struct ctx *c = ctx;
    const struct job *a = &c->jobs[ia], *b = &c->jobs[ib];
    return a->job.run == b->job.run && a->full == b->full &&
           a->groupid == b->groupid && !strcmp(a->job.name, b->job.name) &&
           (!a->full || (a->members <= 1 && b->members <= 1));
}

static void fill_opts(const struct ctx *c, const struct job *j, size_t nclones,
                      struct jopts *o)
{
    const struct run *r = &c->runs[j->job.run];
    memset(o, 0, sizeof(*o));
    o->hdr = find_hdr(r, j);
    o->sec = find_sec(r, j);
    o->global = r->has_cmd ? &r->global : NULL;
    if (o->hdr && o->hdr->bs)
        header_bs(o->hdr->bs, o->bs, sizeof(o->bs));
    long nj = 0;
    if (!known_opts(o))
        nj = 0; /* as fio_json.c: no numjobs for jobs without options */
    else if (j->full && j->members > 1 && defs_in_group(r, j->groupid) <= 1)
        nj = j->members;
    else if (nclones > 1)
        nj = (long)nclones;
    if (nj > 0)
        snprintf(o->numjobs, sizeof(o->numjobs), "%ld", nj);
    /* read share of a mixed job, from what it did (unknowable with
     * unified_rw_reporting) */
    const struct pb_fio_stats *st = &j->job.st;
    const struct pb_fio_dstat *rd = &st->d[D_READ], *wr = &st->d[D_WRITE];
    double a = NAN, b = NAN;
    if (st->d[D_MIXED].present) {
        /* fio_json's default applies */
    } else if (!isnan(rd->ios) && !isnan(wr->ios)) {
        a = rd->ios;
        b = wr->ios;
    } else if (rd->present && wr->present) {
        a = rd->iops;
        b = wr->iops;
    }
    if (a + b > 0) {
        double share = floor(a * 100 / (a + b) / 5 + 0.5) * 5;
        /* outside 0..100 only when counts overflow: fio's default then */
        if (share >= 0 && share <= 100)
            snprintf(o->rwmix, sizeof(o->rwmix), "%.0f", share);
    }
}

/* ==== tests and results (fio_common.c) ==== */

static const char *opt_of(const void *o, const char *key)
{
    return opt(o, key);
}

static void build_test(struct ctx *c, struct job *j, const struct jopts *jo)
{
    struct pb_fio_opts o = {0};
    o.known = known_opts(jo);
    pb_fio_read_opts(&o, opt_of, jo);
    o.rwmix_done = jo->rwmix[0] ? jo->rwmix : NULL;
    pb_fio_build_test(c->set, &o, &j->job);
}

/* ==== parse ==== */

static int check_jobs(struct ctx *c)
{
    for (size_t i = 0; i < c->njobs; i++) {
        struct job *j = &c->jobs[i];
        if (j->full && !j->has_cpu)
            return pb_err_set(c->err, PB_EINPUT, c->path, j->line, 0,
                              "job \"%s\" is incomplete: no \"cpu\" line "
                              "(truncated output?)",
                              j->job.name);
        int failed = j->err != 0 && !pb_fio_moved_data(&j->job.st);
        j->job.usable = !failed && (pb_fio_any_dir(&j->job.st) || j->has_cpu);
    }
    return PB_OK;
}

static int no_results(struct ctx *c)
{
    for (size_t i = 0; i < c->njobs; i++) {
        const struct job *j = &c->jobs[i];
        if (j->err != 0 && !pb_fio_moved_data(&j->job.st))
            return pb_fio_job_failed(c->err, c->path, j->line, j->job.name,
                                     j->err, j->errtext);
    }
    return pb_fio_no_results(c->err, c->path, c->errline, c->errmsg,
                             "no fio results found (no \"read:\", "
                             "\"write:\" or \"trim:\" lines)");
}

struct jline {
    const char *name;
    long line;
};

static int cmp_jline(const void *a, const void *b)
{
    const struct jline *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->line < y->line ? -1 : x->line > y->line);
}

/* Each result gets the line of its job (its clone "<job>#<k>" too), so
 * that pasted commands apply as of there (ingest/context.c). */
static void set_lines(struct ctx *c)
{
    struct jline *v = pb_xcalloc(c->njobs + 1, sizeof(*v));
    size_t n = 0;
    for (size_t i = 0; i < c->njobs; i++)
        if (c->jobs[i].job.jobname) {
            v[n].name = c->jobs[i].job.jobname;
            v[n++].line = c->jobs[i].line;
        }
    qsort(v, n, sizeof(*v), cmp_jline);
    long prev = 0;
    for (size_t r = 0; r < c->set->nresults; r++) {
        struct pb_result *res = &c->set->results[r];
        const char *job = res->job ? res->job : "";
        size_t len = strlen(job);
        const char *hash = strrchr(job, '#');
        if (hash && hash[1] && strspn(hash + 1, "0123456789") ==
                                   strlen(hash + 1))
            len = (size_t)(hash - job);
        char *key = pb_xstrndup(job, len);
        struct jline k = {key, 0};
        size_t lo = 0, hi = n;
        while (lo < hi) { /* first entry with that name */
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_jline(&v[mid], &k) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n && !strcmp(v[lo].name, key))
            prev = v[lo].line;
        res->line = prev;
        free(key);
    }
    free(v);
}

static void emit_all(struct ctx *c)
{
    /* clone groups first: they decide numjobs */
    size_t *ncl = pb_xcalloc(c->njobs + 1, sizeof(*ncl));
    for (size_t i = 0; i < c->njobs; i += ncl[i])
        ncl[i] = pb_fio_count_clones(&c->jobs[0].job, sizeof(c->jobs[0]),
                                     c->njobs, i, is_clone, c);
    for (size_t i = 0; i < c->njobs;) {
        size_t n = ncl[i];
        for (size_t k = 0; k < n; k++) {
            struct job *j = &c->jobs[i + k];
            struct pb_fio_stats *st = &j->job.st;
            if (!j->job.usable)
                continue;
            struct jopts o;
            fill_opts(c, j, n, &o);
            build_test(c, j, &o);
            for (int d = 0; d < D_N; d++)
                refine(&st->d[d], &j->pr[d], dir_bs(&o, d));
            /* full output leaves out directions without I/O */
            int has_mixed = st->d[D_MIXED].present;
            for (int d = 0; d < D_MIXED && j->full && !has_mixed; d++) {
                struct pb_fio_dstat *x = &st->d[d];
                if (!x->present && (j->job.rwmask & (1u << d))) {
                    x->present = 1;
                    x->bytes = x->bw = x->iops = 0;
                }
            }
            /* CPU weight in aggregates (see the file header) */
            st->job_runtime = pb_fio_longest_runtime(st);
        }
        i += n;
    }
    free(ncl);
    pb_fio_emit_all(c->set, &c->jobs[0].job, sizeof(c->jobs[0]), c->njobs,
                    is_clone, c);
    set_lines(c);
}

static int fio_text_parse(const char *path, const char *buf, size_t len,
                          struct pb_resultset *set, struct pb_err *err)
{
    if (!rx_start())
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "internal error: cannot compile patterns");
    int rc = pb_fio_check_blank(path, buf, len, err);
    if (rc != PB_OK)
        return rc;
    struct ctx c = {.path = path, .set = set, .err = err};
    rc = scan_all(&c, buf, len);
    if (rc == PB_OK)
        rc = check_jobs(&c);
    if (rc == PB_OK) {
        size_t usable = 0;
        for (size_t i = 0; i < c.njobs; i++)
            usable += c.jobs[i].job.usable != 0;
        if (usable == 0) {
            rc = no_results(&c);
        } else {
            pb_fio_name_runs(set, &c.jobs[0].job, sizeof(c.jobs[0]), c.njobs);
            emit_all(&c);
            if (set->nresults == 0)
                rc = no_results(&c);
        }
    }
    free_ctx(&c);
    return rc;
}

/* ==== sniff ==== */

static int fio_text_sniff(const char *buf, size_t len)
{
    if (len > 8192)
        len = 8192;
    if (!rx_start() || len == 0)
        return 0;
    /* fio-json handles json,normal output (the JSON comes first) */
    if (pb_contains(buf, len, "\"fio version\""))
        return 30; /* the cap below; fio-json scores 90: skip the regexes */
    int json = pb_contains(buf, len, "\"jobname\"");
    struct mt m;
    m.md = pcre2_match_data_create(32, NULL);
    if (!m.md)
        abort();
    int score = 0, err = 0;
    const char *p = buf, *end = buf + len;
    while (p < end && score < 95) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        m.s = p;
        m.len = (size_t)(e - p);
        while (m.len > 0 && m.s[m.len - 1] == '\r')
            m.len--;
        p = nl ? nl + 1 : end;
        if (rx(&m, RX_GROUP))
            score = 95;
        else if (rx(&m, RX_HDR))
            score = score < 90 ? 90 : score;
        else if (rx(&m, RX_DIR3) || rx(&m, RX_DIR2))
            score = score < 80 ? 80 : score;
        else if (rx(&m, RX_END))
            score = score < 60 ? 60 : score;
        else if (rx(&m, RX_ERRLINE))
            err = 1;
    }
    pcre2_match_data_free(m.md);
    if (score == 0 && err)
        score = 15; /* fio's error messages alone: say what fio said */
    if (json && score > 30)
        score = 30;
    return score;
}

const struct pb_parser pb_parser_fio_text = {"fio-text", fio_text_sniff,
                                             fio_text_parse};
