/* bonnie++ CSV (every layout: 1.0x without a version column, 1.96/1.97,
 * and the "1.98" format written by 1.98 and 2.00) into a result set.
 *
 * Layouts, by the first cells of a row (checked against bonnie++'s
 * bon_time.cpp and runs of bonnie++ 2.00a):
 *   - 1.0x, 27 cells: name, size[:chunk], 6 x (K/sec or /sec, %CPU),
 *     files[:max:min | :link | :symlink][/dirs], 6 x (/sec, %CPU).
 *   - format 1.9x below 1.98, 48 cells: format_version, bonnie_version,
 *     name, concurrency, seed, file_size, chunk_size, 6 x (value, cpu),
 *     num_files, max_size, min_size, 2 cells for num_dirs and
 *     file_chunk_size, 6 x (value, cpu), 12 latencies.
 *   - format 1.98 and later, 50 cells: as above with seeks and
 *     seek_proc_count after chunk_size.
 *   bonnie++ writes num_dirs into the cell its header calls
 *   file_chunk_size and leaves the one before it empty ("1,4096,1024,,4"
 *   for -n 1:4096:1024:4); when that earlier cell holds a number the
 *   header order is taken instead. bonnie++ 2.00a leaves chunk_size empty
 *   even for -s 64:4k, and 1.9x leaves it empty for the 8k default, so an
 *   empty chunk_size is "not recorded", never a guessed default.
 *
 * Mapping:
 *   - config label = machine name ("(unnamed)" when empty; a control
 *     byte in it is an error); result host = machine name too, so the
 *     bonnie_version fact (per machine; 1.0x rows have none) joins its
 *     rows. tool_version = "bonnie++-" + the first row's bonnie_version.
 *   - one test per parameter set: "bonnie++ file_size=8096M chunk=4k
 *     files=16k max=4k min=1k dirs=4 concurrency=2"; parts appear only when
 *     the row has them (seeks/seekers only when not bonnie's 8192/5,
 *     concurrency only when not 1). test_param holds bytes and counts:
 *     file_size, chunk_size, seeks, seek_procs, concurrency, num_files
 *     (files, i.e. bonnie's -n value x 1024), max_size, min_size ("link"/
 *     "symlink" for -n N:-1/-2), num_dirs, file_chunk_size. The random
 *     seed is not a parameter: it differs on every run.
 *   - repeats: rows of one file with the same machine name and the same
 *     test are runs of one experiment (bonnie++ -x N, or -q runs appended
 *     with >>), wherever they are in the file. They are folded while
 *     reading (per machine, test and metric a running mean, Welford, in
 *     file order; never a result per row) into ONE result per metric,
 *     job NULL, ordered by the row that first named the machine and test:
 *       - one run: its value, no stderr, samples 0 (unknown), as a row
 *         of its own has always been;
 *       - k >= 2 runs measured it: value = their mean, stderr = sample SD
 *         / sqrt(k), samples = k, and the k values in file order kept as
 *         the result's samples (pb_rs_samples; also when some runs of it
 *         were too fast: the measured ones);
 *       - all runs too fast: NULL with the "+++++" reason, samples = the
 *         number of runs when there were several;
 *       - some runs measured, some too fast: the mean (and stderr when
 *         k >= 2) of the measured runs, samples = k, and the machine's
 *         fact too_fast_runs says which, e.g. "bonnie++ file_size=64M
 *         files=1k: seq_delete 1 of 2, seq_delete_cpu 1 of 2" (one fact
 *         per machine; its tests joined by "; ");
 *       - a run with the cell empty (not run) does not count.
 *     These are the mean, SE and n the report computed from per-run rows.
 *     Runs of one machine in different files stay one result per file.
 *   - K/sec (KiB/s) x 1024 -> B/s; seeks and file tests in ops/s; %CPU;
 *     latencies "2326us", "87ms", "120s" -> ns (a bare number is rejected:
 *     its unit is unknown).
 *   - "+++++", "++++", "+++" (too fast to measure) -> NULL with a reason.
 *     An empty cell is a test that was not run (-f, -s 0, -n 0): no row.
 *
 * Lines that are not bonnie CSV (the text tables, '#' comments, free text,
 * header lines) are skipped. A row that starts like bonnie CSV but has the
 * wrong number of cells or a bad cell is an error at its line; a file
 * without any row is an error too. sniff: 95 for a header line, 90 for a
 * version-prefixed row, 80 for a complete 1.0x row, 60 for bonnie++'s text
 * tables alone (the parser then says there is no CSV row).
 */
#include "ingest/bonnie/bonnie_int.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct cols layouts[] = {
    [L_LEGACY] = {27, 2, 14, 15, 0},
    [L_V196] = {48, 7, 19, 24, 36},
    [L_V198] = {50, 9, 21, 26, 38},
};

/* ==== parsing cells ==== */

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    const struct line *l;
    struct fold *fold; /* repeated runs, see the file header */
};

/* A cell for a message: bytes other than printable ASCII shown as '?'
 * (garbage must not reach the terminal), at most 40 of them. */
static void show(const struct cell *c, char *out, size_t size)
{
    size_t n = c->n < 40 ? c->n : 40, k = 0;
    for (size_t i = 0; i < n && k + 4 < size; i++) {
        unsigned char ch = (unsigned char)c->p[i];
        out[k++] = (ch < 0x20 || ch >= 0x7f || ch == '"') ? '?' : (char)ch;
    }
    if (n < c->n && k + 4 < size) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

static int bad_cell(struct ctx *x, const struct cell *c, const char *what,
                    const char *colname)
{
    char s[64];
    show(c, s, sizeof(s));
    return pb_err_set(x->err, PB_EINPUT, x->path, x->l->lineno, c->col,
                      "invalid %s \"%s\" in column \"%s\"", what, s, colname);
}

/* Cell text copied into tmp (NUL-terminated); 0 when too long. */
static int cell_str(const struct cell *c, char *tmp, size_t size)
{
    if (c->n >= size)
        return 0;
    memcpy(tmp, c->p, c->n);
    tmp[c->n] = '\0';
    return 1;
}

/* A rate or %CPU cell. */
static int parse_stat(struct ctx *x, const struct cell *c, double mult,
                      const char *colname, struct meas *m)
{
    m->st = M_EMPTY;
    if (c->n == 0)
        return PB_OK;
    if (bonnie_is_plus(c)) {
        m->st = M_PLUS;
        return PB_OK;
    }
    if (!bonnie_is_number(c) || bonnie_to_double(c, c->n, &m->v) != 0)
        return bad_cell(x, c, "value", colname);
    m->v *= mult;
    m->st = M_VALUE;
    return PB_OK;
}

/* A latency cell: a number with ns, us, ms or s. */
static int parse_latency(struct ctx *x, const struct cell *c,
                         const char *colname, struct meas *m)
{
    m->st = M_EMPTY;
    if (c->n == 0)
        return PB_OK;
    if (bonnie_is_plus(c)) {
        m->st = M_PLUS;
        return PB_OK;
    }
    size_t d = bonnie_dec_len(c->p, c->n);
    const char *u = c->p + d;
    size_t un = c->n - d;
    double mult = 0;
    if (un == 2 && !memcmp(u, "ns", 2))
        mult = 1;
    else if (un == 2 && !memcmp(u, "us", 2))
        mult = 1e3;
    else if (un == 2 && !memcmp(u, "ms", 2))
        mult = 1e6;
    else if (un == 1 && *u == 's')
        mult = 1e9;
    if (!d || mult == 0 || bonnie_to_double(c, d, &m->v) != 0)
        return bad_cell(x, c, "latency", colname);
    m->v *= mult;
    m->st = M_VALUE;
    return PB_OK;
}

/* A whole number such as a count; NAN when the cell is empty. */
static int parse_count(struct ctx *x, const struct cell *c, const char *colname,
                       double *out)
{
    *out = NAN;
    if (c->n == 0)
        return PB_OK;
    size_t i = 0;
    while (i < c->n && bonnie_is_digit(c->p[i]))
        i++;
    if (i == 0 || i != c->n || bonnie_to_double(c, c->n, out) != 0)
        return bad_cell(x, c, "number", colname);
    return PB_OK;
}

/* bonnie++ sizes: file sizes in MiB ("8096M", "16G", bare = MiB) or chunk
 * sizes in bytes ("4k", "1m", bare = bytes). NAN when empty. */
static int parse_size(struct ctx *x, const struct cell *c, double bare,
                      const char *colname, double *out)
{
    *out = NAN;
    if (c->n == 0)
        return PB_OK;
    char tmp[64];
    double v;
    if (!cell_str(c, tmp, sizeof(tmp)) || !bonnie_is_digit(tmp[0]))
        return bad_cell(x, c, "size", colname);
    if (bonnie_is_number(c)) {
        if (bonnie_to_double(c, c->n, &v) != 0)
            return bad_cell(x, c, "size", colname);
        v *= bare;
    } else if (pb_parse_size(tmp, 0, &v) != 0) {
        return bad_cell(x, c, "size", colname);
    }
    if (!isfinite(v))
        return bad_cell(x, c, "size", colname);
    *out = v;
    return PB_OK;
}

/* ==== one row ==== */

/* A sub-cell [p, p+n) of c, for the 1.0x combined cells. */
static struct cell sub(const struct cell *c, const char *p, size_t n)
{
    struct cell s = {p, n, c->col + (long)(p - c->p)};
    return s;
}

static int legacy_params(struct ctx *x, struct params *pr)
{
    const struct cell *c = &x->l->c[1];
    const char *colon = memchr(c->p, ':', c->n);
    size_t n1 = colon ? (size_t)(colon - c->p) : c->n;
    struct cell a = sub(c, c->p, n1);
    int rc = parse_size(x, &a, 1048576.0, "file_size", &pr->file_size);
    if (rc == PB_OK && colon) {
        struct cell b = sub(c, colon + 1, c->n - n1 - 1);
        rc = parse_size(x, &b, 1, "file_size", &pr->chunk);
        if (rc == PB_OK && isnan(pr->chunk))
            rc = bad_cell(x, c, "size", "file_size");
    }
    if (rc != PB_OK)
        return rc;

    /* files[:max[:min] | :link | :symlink][/dirs] */
    c = &x->l->c[14];
    const char *p = c->p, *end = c->p + c->n;
    const char *q = p;
    while (q < end && *q != ':' && *q != '/')
        q++;
    struct cell f = sub(c, p, (size_t)(q - p));
    if ((rc = parse_count(x, &f, "num_files", &pr->nfiles)) != PB_OK)
        return rc;
    if (q < end && *q == ':') {
        p = ++q;
        while (q < end && *q != ':' && *q != '/')
            q++;
        struct cell m = sub(c, p, (size_t)(q - p));
        if (bonnie_cell_is(&m, "link") || bonnie_cell_is(&m, "-1"))
            pr->link = "link";
        else if (bonnie_cell_is(&m, "symlink") || bonnie_cell_is(&m, "-2"))
            pr->link = "symlink";
        else if ((rc = parse_count(x, &m, "num_files", &pr->maxs)) != PB_OK)
            return rc;
        if (q < end && *q == ':') {
            p = ++q;
            while (q < end && *q != '/')
                q++;
            struct cell mi = sub(c, p, (size_t)(q - p));
            if ((rc = parse_count(x, &mi, "num_files", &pr->mins)) != PB_OK)
                return rc;
        }
    }
    if (q < end && *q == '/') {
        struct cell d = sub(c, q + 1, (size_t)(end - q - 1));
        if (d.n == 0)
            return bad_cell(x, c, "number", "num_files");
        if ((rc = parse_count(x, &d, "num_files", &pr->dirs)) != PB_OK)
            return rc;
    }
    return PB_OK;
}

static int v_params(struct ctx *x, enum layout lay, struct params *pr)
{
    const struct cell *c = x->l->c;
    const struct cols *k = &layouts[lay];
    int rc;
    if ((rc = parse_count(x, &c[3], "concurrency", &pr->conc)) != PB_OK ||
        (rc = parse_size(x, &c[5], 1048576.0, "file_size", &pr->file_size)) !=
            PB_OK ||
        (rc = parse_size(x, &c[6], 1, "chunk_size", &pr->chunk)) != PB_OK)
        return rc;
    if (lay == L_V198 &&
        ((rc = parse_count(x, &c[7], "seeks", &pr->seeks)) != PB_OK ||
         (rc = parse_count(x, &c[8], "seek_proc_count", &pr->seekers)) !=
             PB_OK))
        return rc;
    size_t f = k->files;
    if ((rc = parse_count(x, &c[f], "num_files", &pr->nfiles)) != PB_OK)
        return rc;
    if (bonnie_cell_is(&c[f + 1], "link") ||
        bonnie_cell_is(&c[f + 1], "symlink"))
        pr->link = bonnie_cell_is(&c[f + 1], "link") ? "link" : "symlink";
    else if ((rc = parse_count(x, &c[f + 1], "max_size", &pr->maxs)) != PB_OK)
        return rc;
    if ((rc = parse_count(x, &c[f + 2], "min_size", &pr->mins)) != PB_OK)
        return rc;
    /* see the file header: num_dirs is written in the last cell */
    if (c[f + 3].n == 0)
        return parse_count(x, &c[f + 4], "num_dirs", &pr->dirs);
    if ((rc = parse_count(x, &c[f + 3], "num_dirs", &pr->dirs)) != PB_OK)
        return rc;
    return parse_size(x, &c[f + 4], 1, "file_chunk_size", &pr->fchunk);
}

static void name_size(struct pb_buf *b, const char *key, double v)
{
    char s[64];
    if (!isnan(v))
        pb_buf_printf(b, " %s=%s", key, pb_fmt_size(v, s, sizeof(s)));
}

static void name_num(struct pb_buf *b, const char *key, double v, double def)
{
    char s[64];
    if (!isnan(v) && v != def)
        pb_buf_printf(b, " %s=%s", key, pb_fmt_num(v, s, sizeof(s)));
}

/* A test's parameters as they are built: at most 10, values in vals. */
struct tparams {
    struct pb_kv kv[10];
    char vals[10][64];
    size_t n;
};

/* Add key = v (or = text when text is not NULL); NAN: absent. */
static void param(struct tparams *tp, const char *key, double v,
                  const char *text)
{
    if ((isnan(v) && !text) || tp->n == 10)
        return;
    tp->kv[tp->n].key = key;
    tp->kv[tp->n].value = text ? text : pb_fmt_num(v, tp->vals[tp->n], 64);
    tp->kv[tp->n++].origin = NULL;
}

/* The test of a row: its name shows every parameter but those at
 * bonnie++'s default; rows of one name whose parameters differ (a 1.03
 * row has no concurrency, a 1.97 row no seeks) get tests of their own,
 * as the database keys them (pb_rs_test_kv). */
size_t bonnie_make_test(struct pb_resultset *set, const struct params *pr)
{
    struct pb_buf b = PB_BUF_INIT;
    double files = pr->nfiles > 0 ? pr->nfiles * 1024 : NAN;
    pb_buf_puts(&b, "bonnie++");
    name_size(&b, "file_size", pr->file_size);
    name_size(&b, "chunk", pr->chunk);
    name_num(&b, "seeks", pr->seeks, 8192);
    name_num(&b, "seekers", pr->seekers, 5);
    if (!isnan(files)) {
        name_size(&b, "files", files);
        if (pr->link)
            pb_buf_printf(&b, " max=%s", pr->link);
        name_size(&b, "max", pr->maxs);
        name_size(&b, "min", pr->mins);
        name_num(&b, "dirs", pr->dirs, 1);
        name_size(&b, "file_chunk", pr->fchunk);
    }
    name_num(&b, "concurrency", pr->conc, 1);

    struct tparams tp;
    tp.n = 0;
    param(&tp, "file_size", pr->file_size, NULL);
    param(&tp, "chunk_size", pr->chunk, NULL);
    param(&tp, "seeks", pr->seeks, NULL);
    param(&tp, "seek_procs", pr->seekers, NULL);
    param(&tp, "concurrency", pr->conc, NULL);
    if (!isnan(files)) {
        param(&tp, "num_files", files, NULL);
        param(&tp, "max_size", pr->maxs, pr->link); /* "link", "symlink" */
        param(&tp, "min_size", pr->mins, NULL);
        param(&tp, "num_dirs", pr->dirs, NULL);
        param(&tp, "file_chunk_size", pr->fchunk, NULL);
    }
    size_t t = pb_rs_test_kv(set, pb_buf_str(&b), "bonnie++", tp.kv, tp.n);
    pb_buf_release(&b);
    return t;
}

static int bad_name(struct ctx *x, const struct cell *c)
{
    for (size_t i = 0; i < c->n; i++) {
        unsigned char ch = (unsigned char)c->p[i];
        if (ch < 0x20 || ch == 0x7f)
            return pb_err_set(x->err, PB_EINPUT, x->path, x->l->lineno,
                              c->col + (long)i,
                              "control character in machine name");
    }
    return PB_OK;
}

static int do_row(struct ctx *x, enum layout lay)
{
    const struct line *l = x->l;
    const struct cols *k = &layouts[lay];
    const struct cell *nc = &l->c[lay == L_LEGACY ? 0 : 2];
    if (l->nf != k->ncells) {
        char s[64], f[16];
        if (lay == L_LEGACY) {
            show(nc, s, sizeof(s));
            return pb_err_set(x->err, PB_EINPUT, x->path, l->lineno, 0,
                              "row \"%s\" has %zu columns, expected 27 "
                              "(bonnie++ 1.0x CSV)",
                              s, l->nf);
        }
        show(&l->c[0], f, sizeof(f));
        if (l->nf <= 2)
            return pb_err_set(x->err, PB_EINPUT, x->path, l->lineno, 0,
                              "row has %zu columns, expected %zu (CSV "
                              "format %s)",
                              l->nf, k->ncells, f);
        show(nc, s, sizeof(s));
        return pb_err_set(x->err, PB_EINPUT, x->path, l->lineno, 0,
                          "row \"%s\" has %zu columns, expected %zu (CSV "
                          "format %s)",
                          s, l->nf, k->ncells, f);
    }
    int rc = bad_name(x, nc);
    if (rc != PB_OK)
        return rc;

    struct params pr = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NULL};
    rc = lay == L_LEGACY ? legacy_params(x, &pr) : v_params(x, lay, &pr);
    if (rc != PB_OK)
        return rc;

    struct meas val[NTESTS], cpu[NTESTS], lat[NTESTS];
    int any = 0;
    for (size_t i = 0; i < NTESTS; i++) {
        const struct btest *bt = &bonnie_tests[i];
        size_t col = i < 6 ? k->io + 2 * i : k->ftests + 2 * (i - 6);
        if ((rc = parse_stat(x, &l->c[col], bt->mult, bt->col, &val[i])) !=
                PB_OK ||
            (rc = parse_stat(x, &l->c[col + 1], 1, bt->ccol, &cpu[i])) != PB_OK)
            return rc;
        lat[i].st = M_EMPTY;
        if (lay != L_LEGACY && (rc = parse_latency(x, &l->c[k->lat + i],
                                                   bt->lcol, &lat[i])) != PB_OK)
            return rc;
        any |= val[i].st != M_EMPTY || cpu[i].st != M_EMPTY ||
               lat[i].st != M_EMPTY;
    }
    if (!any)
        return PB_OK; /* -s 0 -n 0: nothing was measured */

    size_t gi = bonnie_group_of(x->fold, x->set, nc->p, nc->n, &pr);
    struct group *g = &x->fold->g[gi];
    if (lay != L_LEGACY)
        bonnie_version_fact(x->fold, x->set, g->config, g->host, l->c[1].p,
                            l->c[1].n);
    g->runs++;
    for (size_t i = 0; i < NTESTS; i++) {
        bonnie_acc_add(&g->a[3 * i], &val[i]);
        bonnie_acc_add(&g->a[3 * i + 1], &cpu[i]);
        bonnie_acc_add(&g->a[3 * i + 2], &lat[i]);
    }
    return PB_OK;
}

/* ==== parse ==== */

/* Only 1.0x rows (no version cell): the version of the text table bonnie++
 * prints before them ("Version  1.03e  ------Sequential Output------") is
 * the fact bonnie_version; without one, flag.no_version. */
static void text_version(struct pb_resultset *set, const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (bonnie_starts_with(p, n, "Version ") &&
            pb_contains(p, n, "------Sequential")) {
            const char *v = p + 8;
            while (v < e && *v == ' ')
                v++;
            const char *w = v;
            while (w < e && w - v < 16 &&
                   (isalnum((unsigned char)*w) || *w == '.'))
                w++;
            if (w > v && isdigit((unsigned char)*v) && (w == e || *w == ' ')) {
                char *ver = pb_xstrndup(v, (size_t)(w - v));
                pb_rs_fact(set, NULL, "bonnie_version", ver);
                free(ver);
                return;
            }
        }
        p = nl ? nl + 1 : end;
    }
    pb_rs_fact(set, NULL, "flag.no_version", "no version found");
}

/* The rows of a buffer, one at a time. */
struct rows {
    const char *p, *end;
    long lineno;
    const char *next; /* after the row handed last */
};

static void rows_init(struct rows *it, const char *buf, size_t len)
{
    it->p = buf;
    it->end = buf + len;
    it->lineno = 1;
    it->next = buf;
    if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
        it->p += 3;
}

/* The next bonnie++ CSV row into l and *lay; 0 at the end of the buffer. */
static int next_row(struct rows *it, struct line *l, enum layout *lay)
{
    while (it->p < it->end) {
        const char *p = it->p;
        const char *nl = memchr(p, '\n', (size_t)(it->end - p));
        const char *e = nl ? nl : it->end;
        long lineno = it->lineno;
        it->p = nl ? nl + 1 : it->end;
        it->lineno++;
        const char *a = p, *b = e;
        bonnie_trim(&a, &b);
        if (a < b && *a != '#' && memchr(a, ',', (size_t)(b - a))) {
            l->p = a;
            l->n = (size_t)(b - a);
            l->lineno = lineno;
            bonnie_split(l, p);
            if (bonnie_classify(l, lay) == K_ROW) {
                it->next = it->p;
                return 1;
            }
        }
    }
    return 0;
}

/* ==== streaming (docs/performance.md, "Streaming ingest") ====
 * Runs of a machine fold wherever they are in the file, so a part can go
 * to the store only when no machine seen so far has a row further on: a
 * first pass notes the last line of each machine name (by a 64-bit hash;
 * a collision only keeps a machine open longer). */

struct lastline {
    uint64_t *h; /* 0 = free */
    long *line;
    size_t n, cap;
};

static uint64_t name_hash(const struct cell *c)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < c->n; i++)
        h = (h ^ (unsigned char)c->p[i]) * 0x100000001b3ULL;
    return h ? h : 1;
}

static long *ll_slot(struct lastline *t, uint64_t h)
{
    if ((t->n + 1) * 2 > t->cap) {
        struct lastline g = {0};
        g.cap = t->cap ? t->cap * 2 : 1024;
        g.h = pb_xcalloc(g.cap, sizeof(*g.h));
        g.line = pb_xcalloc(g.cap, sizeof(*g.line));
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->h[i])
                continue;
            size_t j = (size_t)t->h[i] & (g.cap - 1);
            while (g.h[j])
                j = (j + 1) & (g.cap - 1);
            g.h[j] = t->h[i];
            g.line[j] = t->line[i];
        }
        g.n = t->n;
        free(t->h);
        free(t->line);
        *t = g;
    }
    size_t i = (size_t)h & (t->cap - 1);
    while (t->h[i] && t->h[i] != h)
        i = (i + 1) & (t->cap - 1);
    if (!t->h[i]) {
        t->h[i] = h;
        t->line[i] = 0;
        t->n++;
    }
    return &t->line[i];
}

/* The hash of a row's machine name; 1 when the row is too short to have
 * one (do_row rejects it). */
static uint64_t row_key(const struct line *l, enum layout lay)
{
    size_t i = lay == L_LEGACY ? 0 : 2;
    return i < l->nf && i < MAXCELLS ? name_hash(&l->c[i]) : 1;
}

static void last_lines(struct pb_resultset *set, const char *buf, size_t len,
                       struct line *l, struct lastline *t)
{
    struct rows it;
    rows_init(&it, buf, len);
    enum layout lay;
    const char *released = buf;
    while (next_row(&it, l, &lay)) {
        *ll_slot(t, row_key(l, lay)) = l->lineno;
        if (it.p - released >= (1 << 20)) {
            pb_rs_consumed(set, it.p);
            released = it.p;
        }
    }
}

/* ==== parse ==== */

static int parse(struct pb_parse *pc)
{
    const char *path = pc->path, *buf = pc->buf;
    size_t len = pc->len;
    struct pb_resultset *set = pc->out;
    struct pb_err *err = pc->err;
    struct line *l = pb_xmalloc(sizeof(*l));
    struct fold fold;
    memset(&fold, 0, sizeof(fold));
    struct ctx x = {path, set, err, l, &fold};
    struct lastline last = {0};
    int streamed = pc->part != 0;
    if (streamed)
        last_lines(set, buf, len, l, &last);
    long open_until = 0; /* the last line of a machine seen so far */
    struct rows it;
    rows_init(&it, buf, len);
    enum layout lay;
    int rc = PB_OK, seen = 0;
    while (rc == PB_OK && next_row(&it, l, &lay)) {
        seen = 1;
        rc = do_row(&x, lay);
        if (!streamed || rc != PB_OK)
            continue;
        long *ll = ll_slot(&last, row_key(l, lay));
        if (*ll > open_until)
            open_until = *ll;
        if (l->lineno >= open_until && pb_rs_flush_due(set, fold.ng * NSLOTS)) {
            bonnie_emit_all(set, &fold);
            bonnie_fold_release(&fold);
            memset(&fold, 0, sizeof(fold));
            rc = pb_rs_flush(set, it.next);
        }
    }
    if (rc == PB_OK && !seen)
        rc =
            pb_err_set(err, PB_EINPUT, path, 0, 0, "no bonnie++ CSV row found");
    if (rc == PB_OK) {
        bonnie_emit_all(set, &fold);
        if (!set->tool_version)
            text_version(set, buf, len);
    }
    bonnie_fold_release(&fold);
    free(last.h);
    free(last.line);
    free(l);
    return rc;
}

const struct pb_parser pb_parser_bonnie_csv = {
    .name = "bonnie-csv",
    .flags = PB_PARSER_STREAMS,
    .sniff = bonnie_sniff,
    .parse = parse,
    .stream_min = PB_STREAM_MIN,
};
