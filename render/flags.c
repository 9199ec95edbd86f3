/* Sources flagged by their parser (facts whose key starts with "flag.":
 * flag.interrupted, flag.implausible, flag.no_version, ...): the marker
 * text of the Sources table and the Warnings list at the top of
 * index.html, grouped by kind (the serious ones first: interrupted,
 * implausible, compression mismatch; a kind of several sources folded with
 * its count), which also lists the step changes of the History
 * (history.c). Everything goes through the escaping writers. */
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_out.h"
#include "render/rp_sections.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int is_flag(const struct rp_fact *f)
{
    return !strncmp(f->key, "flag.", 5) && f->key[5] != '\0';
}

static const struct {
    const char *key, *name;
} names[] = {
    {"flag.interrupted", "interrupted run"},
    {"flag.implausible", "implausible value"},
    {"flag.no_version", "no version found"},
};
/* the serious kinds, listed first in this order */
static const char *const serious[] = {
    "flag.interrupted", "flag.implausible", "flag.compression_mismatch"};
#define NSERIOUS (sizeof(serious) / sizeof(serious[0]))

/* What a flag's key is called: "interrupted run", or the key's words
 * ("compression mismatch"). */
static void flag_name(struct pb_buf *b, const char *key)
{
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(key, names[i].key)) {
            pb_buf_puts(b, names[i].name);
            return;
        }
    for (const char *p = key + 5; *p; p++)
        pb_buf_putc(b, *p == '_' ? ' ' : *p);
}

/* What a flag says beyond its name, after sep: "<sep>fio: terminating on
 * signal 2 (host a)"; nothing when it says nothing more. */
static void flag_detail(struct pb_buf *b, const struct rp_fact *f,
                        const char *sep)
{
    const char *name = NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(f->key, names[i].key))
            name = names[i].name;
    const char *v = f->value ? f->value : "";
    if (*v && (!name || strcmp(v, name) != 0)) {
        pb_buf_puts(b, sep);
        pb_buf_puts(b, v);
        sep = " ";
    }
    if (f->host) {
        pb_buf_puts(b, *sep == ':' ? ": " : " ");
        pb_buf_puts(b, "(host ");
        pb_buf_puts(b, f->host);
        pb_buf_putc(b, ')');
    }
}

/* "⚠ interrupted run: fio: terminating on signal 2" */
static void flag_text(struct pb_buf *b, const struct rp_fact *f)
{
    pb_buf_puts(b, "\xE2\x9A\xA0 "); /* U+26A0 warning sign */
    flag_name(b, f->key);
    flag_detail(b, f, ": ");
}

int rp_source_flags(const struct rp_data *d, long long source_id,
                    struct pb_buf *out)
{
    int n = 0;
    /* facts come ordered by source (pb_db_report_facts): a search, not a
     * pass over all facts per source (10,000 sources took 0.75 s) */
    size_t i = pb_lower_bound_id(d->facts, d->nfacts, sizeof(*d->facts),
                                 offsetof(struct rp_fact, source_id),
                                 source_id);
    for (; i < d->nfacts && d->facts[i].source_id == source_id; i++) {
        const struct rp_fact *f = &d->facts[i];
        if (!is_flag(f))
            continue;
        if (n++)
            pb_buf_puts(out, "; ");
        flag_text(out, f);
    }
    return n;
}

int rp_has_flags(const struct rp_data *d)
{
    if (d->history && d->history->nsteps)
        return 1;
    if (d->hosts && d->hosts->noutliers)
        return 1;
    for (size_t i = 0; i < d->nsources; i++) {
        struct pb_buf b = PB_BUF_INIT;
        int n =
            d->sources[i].used ? rp_source_flags(d, d->sources[i].id, &b) : 0;
        pb_buf_release(&b);
        if (n)
            return 1;
    }
    return 0;
}

/* A flag of a used source, for grouping the Warnings by kind. */
struct flagref {
    size_t rank;   /* index in serious[], else NSERIOUS */
    size_t source; /* index in d->sources */
    const struct rp_fact *f;
};

static size_t rank_of(const char *key)
{
    for (size_t i = 0; i < NSERIOUS; i++)
        if (!strcmp(key, serious[i]))
            return i;
    return NSERIOUS;
}

/* Serious kinds first, then by key; within a kind in source order. */
static int cmp_ref(const void *a, const void *b)
{
    const struct flagref *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    int c = strcmp(x->f->key, y->f->key);
    if (c)
        return c;
    if (x->source != y->source)
        return x->source < y->source ? -1 : 1;
    return x->f < y->f ? -1 : x->f > y->f;
}

/* The flags of the used sources grouped by kind: a kind of one source is
 * one line "path: ⚠ text"; of several, a fold "⚠ N sources: kind" listing
 * them. */
static void flags_by_kind(struct rp_out *o, const struct rp_data *d)
{
    size_t n = 0, cap = 16;
    struct flagref *r = pb_xcalloc(cap, sizeof(*r));
    for (size_t i = 0; i < d->nsources; i++) {
        const struct rp_source *s = &d->sources[i];
        if (!s->used)
            continue;
        size_t k = pb_lower_bound_id(d->facts, d->nfacts, sizeof(*d->facts),
                                     offsetof(struct rp_fact, source_id),
                                     s->id);
        for (; k < d->nfacts && d->facts[k].source_id == s->id; k++) {
            if (!is_flag(&d->facts[k]))
                continue;
            if (n == cap)
                r = pb_xrealloc(r, (cap *= 2) * sizeof(*r));
            r[n++] = (struct flagref){rank_of(d->facts[k].key), i,
                                      &d->facts[k]};
        }
    }
    qsort(r, n, sizeof(*r), cmp_ref);
    struct pb_buf b = PB_BUF_INIT;
    struct pb_arena a;
    pb_arena_init(&a);
    for (size_t i = 0, j; i < n; i = j) {
        /* sources of this kind (a source with the flag twice counts once) */
        size_t nsrc = 0;
        for (j = i; j < n && !strcmp(r[j].f->key, r[i].f->key); j++)
            nsrc += j == i || r[j].source != r[j - 1].source;
        if (nsrc == 1 && j - i == 1) {
            pb_buf_reset(&b);
            pb_buf_printf(&b, "%s: ", d->sources[r[i].source].path);
            flag_text(&b, r[i].f);
            rp_out_para(o, "warn", pb_buf_str(&b));
            continue;
        }
        /* in the fold: the path and what the flag says beyond its kind */
        const char **items = pb_arena_alloc(&a, (j - i) * sizeof(*items));
        for (size_t k = i; k < j; k++) {
            pb_buf_reset(&b);
            pb_buf_puts(&b, d->sources[r[k].source].path);
            flag_detail(&b, r[k].f, ": ");
            items[k - i] = pb_arena_strdup(&a, pb_buf_str(&b));
        }
        pb_buf_reset(&b);
        char nb[32];
        rp_int((long long)nsrc, nb, sizeof(nb));
        pb_buf_printf(&b, "\xE2\x9A\xA0 %s source%s: ", nb,
                      nsrc == 1 ? "" : "s");
        flag_name(&b, r[i].f->key);
        rp_out_fold(o, r[i].rank < NSERIOUS ? "warn serious" : "warn",
                    pb_buf_str(&b), items, j - i);
    }
    pb_arena_release(&a);
    pb_buf_release(&b);
    free(r);
}

void rp_section_warnings(struct rp_out *o, const struct rp_data *d)
{
    if (!rp_has_flags(d))
        return;
    rp_out_raw(o, "<section id=\"warnings\" class=\"warnings\">\n");
    rp_out_heading(o, 2, NULL, "Warnings");
    flags_by_kind(o, d);
    struct pb_buf b = PB_BUF_INIT;
    const struct rp_history *h = d->history;
    for (size_t i = 0; h && i < h->ns; i++)
        for (size_t k = 0; k < h->s[i].n; k++) {
            const struct rp_hpoint *p = &h->pts[h->s[i].first + k];
            if (!p->step)
                continue;
            pb_buf_reset(&b);
            rp_history_step_text(d, h, &h->s[i], p, &b);
            rp_out_para(o, "warn", pb_buf_str(&b));
        }
    pb_buf_release(&b);
    rp_hosts_warnings(o, d);
    rp_out_raw(o, "</section>\n");
}
