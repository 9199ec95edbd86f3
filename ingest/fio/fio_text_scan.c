/* fio's normal output, line by line: the patterns that recognise its
 * lines, the numbers and units they print, and the scanner that fills the
 * model of one parse (struct ctx: runs, jobs, their directions) from them;
 * also the sniffer, which scores a text by the same patterns. What is made
 * of the model (tests, results, facts) is ingest/fio/fio_text.c's; the pasted
 * command lines and job files are ingest/fio/fio_text_opts.c's.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "ingest/fio/fio_text_int.h"

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

int pb_fio_text_rx_start(void)
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

struct run *pb_fio_text_new_run(struct ctx *c, long line)
{
    PB_GROW(c->runs, c->capruns, c->nruns + 1);
    struct run *r = &c->runs[c->nruns++];
    memset(r, 0, sizeof(*r));
    r->line = line;
    return r;
}

static struct run *cur_run(struct ctx *c, long line)
{
    return c->nruns ? &c->runs[c->nruns - 1] : pb_fio_text_new_run(c, line);
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
    j->job.line = line;
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

void pb_fio_text_free_run(struct run *r)
{
    free(r->global.kv);
    for (size_t k = 0; k < r->nsec; k++)
        free(r->sec[k].kv.kv);
    free(r->sec);
    free(r->hdr);
    free(r->hdr_by_name);
    free(r->hdr_gids);
}

void pb_fio_text_free(struct ctx *c)
{
    for (size_t i = 0; i < c->nruns; i++)
        pb_fio_text_free_run(&c->runs[i]);
    free(c->runs);
    free(c->jobs);
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
    int disks;         /* in the lines after "Disk stats (read/write):" */
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
    pb_fio_text_rep(c, j);
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
    struct pb_fio_hdr h;
    if (!pb_fio_parse_hdr(c->set, sc->m.s, sc->m.len, &h))
        return;
    struct run *r = cur_run(c, sc->line);
    /* a header after results, or after a command line that already has
     * one for this job, starts another run */
    if (r->njobs > 0)
        r = pb_fio_text_new_run(c, sc->line);
    PB_GROW(r->hdr, r->caphdr, r->nhdr + 1);
    r->hdr[r->nhdr++] = h;
    sc->job = NULL;
    sc->dir = sc->pct_dir = -1;
}

/* The time at the end of a job's first line ("...: pid=19870: Tue Dec  1
 * 15:53:33 2026", fio's ctime of the job's start, local time) into out
 * as "YYYY-MM-DD HH:MM:SS"; out unchanged when there is none. */
static void job_time(const char *s, size_t n, char *out, size_t cap)
{
    const char *e = s + n, *p = NULL;
    for (const char *q = s; q + 4 <= e; q++)
        if (!memcmp(q, "pid=", 4))
            p = q + 4;
    if (!p)
        return;
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    if (e - p < 2 || p[0] != ':' || p[1] != ' ')
        return;
    p += 2;
    char b[48];
    size_t len = (size_t)(e - p);
    while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
        len--;
    if (len == 0 || len >= sizeof(b))
        return;
    memcpy(b, p, len);
    b[len] = '\0';
    char t[32];
    long year;
    if (pb_time_ctime(b, t, sizeof(t)) == 0 &&
        (year = strtol(t, NULL, 10)) >= 1971 && year <= 2999)
        snprintf(out, cap, "%s", t);
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
    pb_fio_text_rep(c, j);
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

/* "  vda: ios=0/0, merge=..." after "Disk stats (read/write):": the
 * disk's name joins the file's disks. */
static int disk_line(struct ctx *c, const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *name = p;
    while (p < end && *p != ':' && *p != ' ')
        p++;
    if (p == name || p - name > 64 || end - p < 6 || memcmp(p, ": ios=", 6))
        return 0;
    if (c->disks.len)
        pb_buf_putc(&c->disks, ',');
    pb_buf_add(&c->disks, name, (size_t)(p - name));
    return 1;
}

/* The line a client prints for each fio server it reached: "hostname=vm,
 * be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1". */
static int probe_line(struct ctx *c, const char *s, size_t n)
{
    const char *end = s + n, *h = s + 9, *e = h;
    while (e < end && *e != ',' && e - h < 256)
        e++;
    if (e == h || e == end)
        return 0;
    const char *f = NULL;
    for (const char *p = e; p + 6 <= end && !f; p++)
        if (!memcmp(p, ", fio=", 6))
            f = p + 6;
    if (!f)
        return 0;
    const char *name = pb_arena_strndup(&c->set->arena, h, (size_t)(e - h));
    if (!c->probe_host || strcmp(c->probe_host, name) != 0)
        c->nprobe++;
    c->probe_host = name;
    if (c->probes.len)
        pb_buf_putc(&c->probes, '\n');
    pb_buf_puts(&c->probes, name);
    const char *fe = f;
    while (fe < end && *fe != ',' && !isspace((unsigned char)*fe) &&
           fe - f < 60)
        fe++;
    if (!c->set->tool_version && fe - f > 4 && !memcmp(f, "fio-", 4)) {
        char v[64];
        memcpy(v, f, (size_t)(fe - f));
        v[fe - f] = '\0';
        pb_fio_set_version(c->set, v);
    }
    return 1;
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
            if (!c->light)
                read_pcts(sc);
            return PB_OK;
        }
        sc->pct_dir = -1;
    }
    if (pb_fio_text_jobfile_line(c, &c->jf, sc->line, s, n))
        return PB_OK;
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
        if (!c->time[0])
            job_time(s, n, c->time, sizeof(c->time));
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
            if (!c->light)
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
    if (STARTS("hostname=") && probe_line(c, w, (size_t)(s + n - w)))
        return PB_OK;
    if (STARTS("fio-") && rx(m, RX_VER)) {
        char b[64];
        grp_str(m, 1, b, sizeof(b));
        if (!c->set->tool_version)
            pb_fio_set_version(c->set, b);
        struct run *r = cur_run(c, sc->line);
        if (r->njobs > 0)
            pb_fio_text_new_run(c, sc->line);
        sc->job = NULL;
        sc->dir = sc->pct_dir = -1;
        return PB_OK;
    }
    if ((STARTS("Run status") || STARTS("Disk stats")) && rx(m, RX_END)) {
        sc->job = NULL;
        sc->dir = sc->pct_dir = -1;
        sc->disks = STARTS("Disk stats");
        return PB_OK;
    }
    if (sc->disks && disk_line(c, s, n))
        return PB_OK;
    sc->disks = 0;
    if (has(s, n, "fio") && rx(m, RX_CMD)) {
        const char *p = "";
        size_t k = 0;
        grp(m, 1, &p, &k);
        if (pb_fio_text_cmdline(c, p, k, sc->line)) {
            sc->job = NULL;
            sc->dir = sc->pct_dir = -1;
        }
        return PB_OK;
    }
    if (!c->intr_line && STARTS("fio: ") && pb_fio_is_interrupt(s, n)) {
        c->intr_line = sc->line;
        quote_line(s, n, c->intr, sizeof(c->intr));
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

/* The stream's hook after a line (struct ctx, each_line): it may take the
 * complete jobs out of c->jobs; the job being read, which is always the
 * last one (only new_job makes a job, and it becomes sc->job), moves
 * with them. */
static int line_done(struct scan *sc, const char *next)
{
    struct ctx *c = sc->c;
    int rc = c->each_line(c, next);
    if (sc->job)
        sc->job = &c->jobs[c->njobs - 1];
    return rc;
}

int pb_fio_text_scan(struct ctx *c, const char *buf, size_t len)
{
    struct scan sc;
    memset(&sc, 0, sizeof(sc));
    sc.c = c;
    sc.dir = sc.pct_dir = -1;
    memset(&c->jf, 0, sizeof(c->jf));
    c->jf.run = -1;
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
        } else {
            rc = scan_line(&sc, s, n);
        }
        if (rc == PB_OK && c->each_line)
            rc = line_done(&sc, p);
    }
    if (rc == PB_OK && joined.len > 0)
        rc = scan_line(&sc, joined.s, joined.len);
    pb_buf_release(&joined);
    pcre2_match_data_free(sc.m.md);
    return rc;
}

/* ==== sniff ==== */

int pb_fio_text_sniff(const char *buf, size_t len)
{
    if (len > 8192)
        len = 8192;
    if (!pb_fio_text_rx_start() || len == 0)
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
