/* Sources flagged by their parser (facts whose key starts with "flag.":
 * flag.interrupted, flag.implausible, flag.no_version, ...): the marker
 * text of the Sources table and the Warnings list at the top of
 * index.html, which also lists the step changes of the History
 * (history.c). Everything goes through the escaping writers. */
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_out.h"
#include "render/rp_sections.h"

#include <stddef.h>
#include <string.h>

static int is_flag(const struct rp_fact *f)
{
    return !strncmp(f->key, "flag.", 5) && f->key[5] != '\0';
}

/* "⚠ interrupted run: fio: terminating on signal 2" */
static void flag_text(struct pb_buf *b, const struct rp_fact *f)
{
    static const struct {
        const char *key, *name;
    } names[] = {
        {"flag.interrupted", "interrupted run"},
        {"flag.implausible", "implausible value"},
        {"flag.no_version", "no version found"},
    };
    const char *name = NULL;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(f->key, names[i].key))
            name = names[i].name;
    pb_buf_puts(b, "\xE2\x9A\xA0 "); /* U+26A0 warning sign */
    if (name) {
        pb_buf_puts(b, name);
    } else {
        for (const char *p = f->key + 5; *p; p++)
            pb_buf_putc(b, *p == '_' ? ' ' : *p);
    }
    const char *v = f->value ? f->value : "";
    if (*v && (!name || strcmp(v, name) != 0)) {
        pb_buf_puts(b, ": ");
        pb_buf_puts(b, v);
    }
    if (f->host) {
        pb_buf_puts(b, " (host ");
        pb_buf_puts(b, f->host);
        pb_buf_putc(b, ')');
    }
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

void rp_section_warnings(struct rp_out *o, const struct rp_data *d)
{
    if (!rp_has_flags(d))
        return;
    rp_out_raw(o, "<section id=\"warnings\" class=\"warnings\">\n");
    rp_out_heading(o, 2, NULL, "Warnings");
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < d->nsources; i++) {
        const struct rp_source *s = &d->sources[i];
        if (!s->used)
            continue;
        pb_buf_reset(&b);
        pb_buf_printf(&b, "%s: ", s->path);
        if (rp_source_flags(d, s->id, &b))
            rp_out_para(o, "warn", pb_buf_str(&b));
    }
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
