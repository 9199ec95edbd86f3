/* fio json+ latency histograms ("bins" of clat_ns, lat_ns, slat_ns; fio
 * 2.x "clat"/"lat" in usec with bucket indexes as keys): read, checked,
 * turned into percentiles the way fio computes them, merged for numjobs
 * aggregates, and kept in the result set (docs/formats.md, "Latency
 * distributions from json+"). */
#include "ingest/fio/fio_int.h"
#include "ingest/lex/json_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pb_fio_kind_name[FIO_NKIND] = {"clat", "lat", "slat"};

/* More distinct bins than this in one latency is refused: fio 3.x has at
 * most 1856 buckets (FIO_IO_U_PLAT_NR), fio 2.x 1216. */
#define MAX_BINS ((size_t)65536)
/* Counts are JSON numbers: exact as doubles up to 2^53. */
#define MAX_COUNT 9007199254740992.0
/* Bucket values (ns) up to 2^62: a sum of two still fits in int64. */
#define MAX_VALUE ((uint64_t)1 << 62)

/* The standard percentiles and their metric suffixes. */
static const struct {
    double p;
    const char *name;
} std_pct[] = {
    {50.0, "p50"},   {90.0, "p90"},     {95.0, "p95"},      {99.0, "p99"},
    {99.9, "p99.9"}, {99.99, "p99.99"}, {99.999, "p99.999"},
};
#define NSTD (sizeof(std_pct) / sizeof(std_pct[0]))

/* ==== reading ==== */

struct bctx {
    struct pb_json *doc;
    const char *path, *text;
    size_t start;
    struct pb_err *err;
};

static int fail_at(const struct bctx *c, int tok, const char *fmt,
                   const char *a, const char *b, const char *what)
{
    size_t off = c->start + pb_json_offset(c->doc, tok);
    long line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
        if (c->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char msg[200];
    snprintf(msg, sizeof(msg), fmt, a, b);
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col, "%s (bins of %s)",
                      msg, what);
}

/* fio's plat_idx_to_val: the middle of bucket idx of a histogram with
 * `bits` bits per group (fio: FIO_IO_U_PLAT_BITS, 6). */
static uint64_t idx_to_val(uint64_t idx, unsigned bits)
{
    uint64_t nval = (uint64_t)1 << bits;
    if (idx < (nval << 1))
        return idx;
    uint64_t error_bits = (idx >> bits) - 1;
    if (error_bits + bits >= 62)
        return UINT64_MAX; /* refused by the caller: beyond 2^62 */
    uint64_t base = (uint64_t)1 << (error_bits + bits);
    uint64_t k = idx % nval;
    return base + (uint64_t)((k + 0.5) * (double)((uint64_t)1 << error_bits));
}

/* Key k as a number of digits only, at most 19 of them; else 0. Read
 * from the text itself (a million keys are not copied); a key with an
 * escape is unescaped first. */
static int parse_key(struct pb_json *d, int k, uint64_t *out)
{
    const char *s = d->text + pb_json_offset(d, k) + 1;
    const char *end = memchr(s, '"', d->len - (size_t)(s - d->text));
    if (!end)
        return 0;
    if (memchr(s, '\\', (size_t)(end - s))) {
        s = pb_json_str(d, k);
        end = s ? s + strlen(s) : NULL;
    }
    size_t n = s ? (size_t)(end - s) : 0;
    if (n == 0 || n > 19)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 1;
}

/* Key k for a message, or "". */
static const char *key_text(struct pb_json *d, int k)
{
    const char *s = pb_json_str(d, k);
    return s ? s : "";
}

struct pair {
    uint64_t v, c;
    int tok;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->tok < y->tok ? -1 : x->tok > y->tok;
}

/* The bins object `bins` of latency `what` ("read clat_ns"); mult turns
 * its values into ns (1000 for usec). *out NULL when every count is 0. */
static int read_bins(const struct bctx *c, int bins, double mult,
                     const char *what, struct pb_resultset *set,
                     const struct pb_fio_bins **out)
{
    struct pb_json *d = c->doc;
    *out = NULL;
    if (pb_json_type(d, bins) != PB_JSON_OBJECT)
        return fail_at(c, bins, "\"bins\" is not an object%s%s", "", "",
                       what);
    /* fio 2.x: bucket indexes, with the constants of the layout */
    double bits = pb_json_number(d, pb_json_get(d, bins, "FIO_IO_U_PLAT_BITS"));
    int indexed = !isnan(bits);
    if (indexed && !(bits >= 1 && bits <= 16 && bits == floor(bits)))
        return fail_at(c, pb_json_get(d, bins, "FIO_IO_U_PLAT_BITS"),
                       "FIO_IO_U_PLAT_BITS is not 1 to 16%s%s", "", "", what);
    size_t cap = pb_json_size(d, bins);
    if (cap > MAX_BINS)
        cap = MAX_BINS + 1;
    struct pair *p = pb_xcalloc(cap + 1, sizeof(*p));
    size_t n = 0;
    int rc = PB_OK;
    for (int k = pb_json_first(d, bins); k != PB_JSON_NONE && !rc;
         k = pb_json_next(d, k)) {
        uint64_t v;
        if (!parse_key(d, k, &v)) {
            const char *key = key_text(d, k);
            if (indexed && !strncmp(key, "FIO_IO_U_PLAT_", 14))
                continue;
            rc = fail_at(c, k, "bin key \"%.40s\" is not a %s", key,
                         indexed ? "bucket index" : "latency", what);
            break;
        }
        double cnt = pb_json_number(d, pb_json_value(d, k));
        if (!(cnt >= 0 && cnt <= MAX_COUNT && cnt == floor(cnt))) {
            rc = fail_at(c, pb_json_value(d, k),
                         "count of bin %.40s is not a whole number from 0 to "
                         "2^53%s",
                         key_text(d, k), "", what);
            break;
        }
        if (indexed)
            v = idx_to_val(v, (unsigned)bits);
        if ((double)v * mult > (double)MAX_VALUE) {
            rc = fail_at(c, k, "bin %.40s is beyond 2^62 ns%s", key_text(d, k),
                         "", what);
            break;
        }
        v = (uint64_t)((double)v * mult);
        if (cnt == 0)
            continue;
        if (n == MAX_BINS) {
            rc = fail_at(c, bins, "more than 65536 bins%s%s", "", "", what);
            break;
        }
        p[n].v = v;
        p[n].c = (uint64_t)cnt;
        p[n].tok = k;
        n++;
    }
    if (!rc && n) {
        /* fio writes the bins in order: sorted already, as a rule */
        size_t s = 1;
        while (s < n && p[s].v >= p[s - 1].v)
            s++;
        if (s < n)
            qsort(p, n, sizeof(*p), cmp_pair);
        uint64_t total = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            if (i && p[i].v == p[i - 1].v) {
                char kb[24];
                snprintf(kb, sizeof(kb), "%llu", (unsigned long long)p[i].v);
                rc = fail_at(c, p[i].tok, "a second bin for %s ns%s", kb, "",
                             what);
            } else if (total > UINT64_MAX / 2 - p[i].c) {
                rc = fail_at(c, p[i].tok, "counts add up beyond 2^63%s%s", "",
                             "", what);
            }
            total += p[i].c;
        }
        if (!rc) {
            struct pb_fio_bins *b = pb_arena_alloc(&set->arena, sizeof(*b));
            uint64_t *val = pb_arena_alloc(&set->arena, n * sizeof(*val));
            uint64_t *cnt = pb_arena_alloc(&set->arena, n * sizeof(*cnt));
            for (size_t i = 0; i < n; i++) {
                val[i] = p[i].v;
                cnt[i] = p[i].c;
            }
            b->n = n;
            b->val = val;
            b->cnt = cnt;
            b->total = total;
            *out = b;
        }
    }
    free(p);
    return rc;
}

int pb_fio_json_bins(struct pb_json *doc, int entry, const char *path,
                     const char *text, size_t start, struct pb_resultset *set,
                     struct pb_fio_stats *st, struct pb_err *err)
{
    struct bctx c = {doc, path, text, start, err};
    for (int i = 0; i < D_N; i++) {
        int dir = pb_json_get(doc, entry, pb_fio_dir_name[i]);
        if (pb_json_type(doc, dir) != PB_JSON_OBJECT)
            continue;
        for (int k = 0; k < FIO_NKIND; k++) {
            char key[16];
            snprintf(key, sizeof(key), "%s_ns", pb_fio_kind_name[k]);
            double mult = 1;
            int o = pb_json_get(doc, dir, key);
            if (pb_json_type(doc, o) != PB_JSON_OBJECT) {
                /* fio 2.x: usec */
                snprintf(key, sizeof(key), "%s", pb_fio_kind_name[k]);
                o = pb_json_get(doc, dir, key);
                mult = 1000;
            }
            int bins = pb_json_type(doc, o) == PB_JSON_OBJECT
                           ? pb_json_get(doc, o, "bins")
                           : PB_JSON_NONE;
            if (bins == PB_JSON_NONE)
                continue;
            char what[40];
            snprintf(what, sizeof(what), "%s %s", pb_fio_dir_name[i], key);
            int rc = read_bins(&c, bins, mult, what, set, &st->d[i].bins[k]);
            if (rc)
                return rc;
        }
    }
    return PB_OK;
}

/* ==== percentiles ==== */

/* Histograms merged by one pass over their heads, up to this many. */
#define MERGE_FEW 16

double pb_fio_bins_pct(const struct pb_fio_bins *b, double p)
{
    /* fio's calc_clat_percentiles: sum >= (long double)p / 100.0 * nr */
    long double need = (long double)p / 100.0 * (long double)b->total;
    uint64_t sum = 0;
    for (size_t i = 0; i < b->n; i++) {
        sum += b->cnt[i];
        if ((long double)sum >= need)
            return (double)b->val[i];
    }
    return (double)b->val[b->n - 1];
}

/* Merge of a few histograms (each sorted, every value once): one pass,
 * the smallest head each step. */
static const struct pb_fio_bins *
merge_few(struct pb_resultset *set, const struct pb_fio_bins *const *v,
          size_t n, size_t all)
{
    size_t at[MERGE_FEW] = {0};
    uint64_t *val = pb_arena_alloc(&set->arena, (all + 1) * sizeof(*val));
    uint64_t *cnt = pb_arena_alloc(&set->arena, (all + 1) * sizeof(*cnt));
    size_t m = 0;
    uint64_t total = 0;
    for (;;) {
        size_t lo = n;
        for (size_t i = 0; i < n; i++)
            if (at[i] < v[i]->n &&
                (lo == n || v[i]->val[at[i]] < v[lo]->val[at[lo]]))
                lo = i;
        if (lo == n)
            break;
        uint64_t x = v[lo]->val[at[lo]], c = 0;
        for (size_t i = lo; i < n; i++)
            if (at[i] < v[i]->n && v[i]->val[at[i]] == x)
                c += v[i]->cnt[at[i]++];
        val[m] = x;
        cnt[m++] = c;
        total += c;
    }
    struct pb_fio_bins *b = pb_arena_alloc(&set->arena, sizeof(*b));
    b->n = m;
    b->val = val;
    b->cnt = cnt;
    b->total = total;
    return m ? b : NULL;
}

const struct pb_fio_bins *pb_fio_bins_merge(struct pb_resultset *set,
                                            const struct pb_fio_bins *const *v,
                                            size_t n)
{
    size_t all = 0;
    for (size_t i = 0; i < n; i++) {
        if (!v[i])
            return NULL;
        all += v[i]->n;
    }
    /* numjobs clones are a few: merged in one pass; many are sorted */
    if (n <= MERGE_FEW)
        return merge_few(set, v, n, all);
    struct pair *p = pb_xcalloc(all + 1, sizeof(*p));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < v[i]->n; j++) {
            p[k].v = v[i]->val[j];
            p[k].c = v[i]->cnt[j];
            p[k].tok = (int)k;
            k++;
        }
    qsort(p, k, sizeof(*p), cmp_pair);
    uint64_t *val = pb_arena_alloc(&set->arena, (k + 1) * sizeof(*val));
    uint64_t *cnt = pb_arena_alloc(&set->arena, (k + 1) * sizeof(*cnt));
    size_t m = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && val[m - 1] == p[i].v) {
            cnt[m - 1] += p[i].c;
        } else {
            val[m] = p[i].v;
            cnt[m++] = p[i].c;
        }
        total += p[i].c;
    }
    free(p);
    struct pb_fio_bins *b = pb_arena_alloc(&set->arena, sizeof(*b));
    b->n = m;
    b->val = val;
    b->cnt = cnt;
    b->total = total;
    return m ? b : NULL;
}

/* ==== results ==== */

void pb_fio_bins_emit(struct pb_resultset *set, const struct pb_fio_job *j,
                      const char *job, const char *dir,
                      const struct pb_fio_dstat *d, int printed, int keep_hist)
{
    for (int k = 0; k < FIO_NKIND; k++) {
        const struct pb_fio_bins *b = d->bins[k];
        if (!b)
            continue;
        size_t median = 0;
        for (size_t i = 0; i < NSTD; i++) {
            double v = pb_fio_bins_pct(b, std_pct[i].p);
            if (k == FIO_CLAT && printed)
                for (size_t q = 0; q < FIO_NPCT; q++)
                    if (pb_fio_pcts[q].pct == std_pct[i].p &&
                        isfinite(d->pct[q]))
                        v = d->pct[q];
            char m[64];
            snprintf(m, sizeof(m), "%s_%s_%s", dir, pb_fio_kind_name[k],
                     std_pct[i].name);
            pb_rs_add(set, j->config, j->test, j->host, job, m, "ns",
                      PB_DIR_LOWER, v);
            if (i == 0)
                median = set->nresults - 1;
        }
        if (!keep_hist)
            continue;
        PB_GROW(set->hists, set->caphists, set->nhists + 1);
        struct pb_hist *h = &set->hists[set->nhists++];
        char kind[32];
        snprintf(kind, sizeof(kind), "%s_%s", dir, pb_fio_kind_name[k]);
        h->result = median;
        h->kind = pb_rs_str(set, kind);
        h->n = b->n;
        h->value = b->val;
        h->count = b->cnt;
    }
}
