/* The report's fixed-shape tables: ZFS compression per dataset, host facts
 * (Systems) and the ingested files (Sources); bonnie++ is bonnie_table.c. */
#include "render/rp_base.h"
#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_sections.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ==== shared ==== */

static int strcasecmp_ascii(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x += 32;
        if (y >= 'A' && y <= 'Z')
            y += 32;
        if (x != y || !x)
            return x - y;
    }
}

/* Rows keyed by (config, test): cell indexes sorted that way. ctx: the
 * struct rp_data the indexes point into. */
static int cmp_ct(const void *a, const void *b, void *ctx)
{
    const struct rp_data *key_d = ctx;
    const struct rp_cell *x = &key_d->cells[*(const size_t *)a];
    const struct rp_cell *y = &key_d->cells[*(const size_t *)b];
    size_t cx = key_d->configs[x->config].rank,
           cy = key_d->configs[y->config].rank;
    if (cx != cy)
        return cx < cy ? -1 : 1;
    size_t tx = key_d->tests[x->test].rank, ty = key_d->tests[y->test].rank;
    if (tx != ty)
        return tx < ty ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *cells_where(const struct rp_data *d,
                           int (*want)(const char *metric), size_t *n)
{
    size_t *v = NULL, cap = 0;
    *n = 0;
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const struct rp_group *g = &d->groups[gi];
        if (!want(d->metrics[g->metric].name))
            continue;
        for (size_t i = g->first; i < g->first + g->n; i++) {
            PB_GROW(v, cap, *n + 1);
            v[(*n)++] = i;
        }
    }
    rp_sort(v, *n, sizeof(*v), cmp_ct, d);
    return v;
}

static int distinct_tests(const struct rp_data *d, const size_t *cells,
                          size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (d->cells[cells[i]].test != d->cells[cells[0]].test)
            return 1;
    return 0;
}

/* ==== compression ==== */

static int want_zfs(const char *m)
{
    return rp_metric_is_zfs_space(m);
}

int rp_has_compression(const struct rp_data *d)
{
    for (size_t gi = 0; gi < d->ngroups; gi++) {
        const char *m = d->metrics[d->groups[gi].metric].name;
        if (!strcmp(m, "compressratio") || !strcmp(m, "actual_savings") ||
            !strcmp(m, "logicalused"))
            return 1;
    }
    return 0;
}

/* How cell c (actual_savings) of configuration conf was made: the
 * formula the zfs-props reader recorded (fact "<dataset>:actual_savings_
 * basis", or the run's "<dataset>:actual_savings"), "logicalused / used"
 * when neither is there; NULL when a table gave it as written. */
static const char *savings_basis(const struct rp_data *d, long long source,
                                 const struct rp_config *conf)
{
    for (size_t i = 0; i < d->nsources; i++)
        if (d->sources[i].id == source &&
            !strcmp(d->sources[i].format, "table"))
            return NULL;
    const char *any = NULL;
    size_t nl = strlen(conf->label);
    for (size_t i = 0; i < d->nfacts; i++) {
        const struct rp_fact *f = &d->facts[i];
        if (f->source_id != source)
            continue;
        const char *colon = strrchr(f->key, ':');
        if (!colon || (strcmp(colon, ":actual_savings_basis") != 0 &&
                       strcmp(colon, ":actual_savings") != 0))
            continue;
        const char *v = f->value;
        if (!strncmp(v, "derived: ", 9))
            v += 9; /* the run's fact */
        if ((size_t)(colon - f->key) == nl && !strncmp(f->key, conf->label, nl))
            return v; /* the dataset is the configuration */
        if (!any)
            any = v; /* a companion's dataset, under --label */
    }
    return any ? any : "logicalused / used";
}

/* What the compression table's note explains: derived or read actual
 * savings, data that grew, the run's check against fio's data. */
struct comp_flags {
    int derived, read, grew, check;
};

/* The actual savings cell of a configuration: cs (NULL: none, and why
 * when the reader said, from the source of cany). */
static void savings_cell(struct rt_table *t, struct rt_cell *cell,
                         const struct rp_data *d, const struct rp_config *conf,
                         const struct rp_cell *cs, const struct rp_cell *cany,
                         struct comp_flags *fl)
{
    /* actual savings as stored: derived by the zfs-props reader (the
     * formula in its fact), or read from a table; never made up here
     * from used and logicalused, which may hold reservations */
    if (!cs) {
        const char *why = cany ? savings_basis(d, cany->source, conf) : NULL;
        rt_set(t, cell, "–");
        cell->style = RT_MUTED;
        if (why && !strncmp(why, "left out: ", 10))
            cell->title = why; /* the reader said why */
    } else {
        double sav = cs->mean;
        const char *basis = savings_basis(d, cs->source, conf);
        int grew = sav < 1.0;
        fl->grew |= grew;
        fl->derived |= basis != NULL;
        fl->read |= basis == NULL;
        rt_setv(t, cell,
                rt_str(t, "%.2f×%s%s", sav, basis ? " †" : "",
                       grew ? "  ▼ data grew" : ""),
                sav);
        cell->title = basis ? rt_str(t, "derived: %s", basis)
                            : "read: as the table gives it";
        if (grew)
            cell->style = RT_WARN;
    }
}

/* The cell "vs. fio's data". */
static void check_cell(struct rt_table *t, struct rt_cell *cell,
                       const struct rp_data *d, const struct rp_cell *cn,
                       struct comp_flags *fl)
{
    /* the run's check of compressratio against fio's
     * buffer_compress_percentage (facts of the zfs get source) */
    const char *bad =
        cn ? rp_fact_of(d, cn->source, "flag.compression_mismatch") : NULL;
    const char *ok = cn ? rp_fact_of(d, cn->source, "compression_check") : NULL;
    if (bad) {
        rt_set(t, cell, "▲ mismatch");
        cell->title = bad;
        cell->style = RT_WARN;
        fl->check = 1;
    } else if (ok) {
        rt_set(t, cell, strstr(ok, "within") ? "as expected" : "–");
        cell->title = ok;
        cell->style = RT_MUTED;
        fl->check = 1;
    } else {
        rt_set(t, cell, "–");
        cell->style = RT_MUTED;
    }
}

/* The note under the compression table. */
static void compression_note(struct rt_table *t, const struct comp_flags *fl)
{
    struct pb_buf note = PB_BUF_INIT;
    pb_buf_puts(&note, "compressratio, used, logicalused and referenced are "
                       "read from ZFS's output (or a table of it).");
    if (fl->derived)
        pb_buf_puts(&note, " † derived, not read: actual savings = the "
                           "logical bytes / the bytes that hold them "
                           "(padding and metadata included, unlike "
                           "compressratio; reservations left out), with "
                           "the formula of each dataset in its tooltip.");
    if (fl->read)
        pb_buf_puts(&note, " Actual savings without † are read from a "
                           "table, as it gives them.");
    if (fl->grew)
        pb_buf_puts(&note, " ▼ below 1.00×: the data takes more space than "
                           "was written (e.g. small volblocksize on raidz).");
    pb_buf_puts(&note, " Rows are per configuration and workload (a "
                       "randwrite leaves other data than a randread); n is "
                       "the number of values behind a mean, ± its standard "
                       "error.");
    if (fl->check)
        pb_buf_puts(&note, " vs. fio's data: poolbench run compares "
                           "compressratio, read once the data is on the "
                           "pool, with what buffer_compress_percentage "
                           "implies (100 / (100 - pct)); ▲ more than 10% "
                           "off (hover for the figures).");
    t->note = rt_str(t, "%s", pb_buf_str(&note));
    pb_buf_release(&note);
}

void rp_section_compression(struct rp_out *o, const struct rp_data *d)
{
    size_t n;
    size_t *cells = cells_where(d, want_zfs, &n);
    int multi = distinct_tests(d, cells, n);
    rp_out_raw(o, "<section id=\"compression\">\n");
    rp_out_heading(o, 2, NULL, "Compression");
    struct rt_table t;
    size_t nc = multi ? 11 : 10, k = 0;
    rt_init(&t, nc);
    t.sortable = 1;
    rt_header(&t, k++, "Dataset", RT_LEFT);
    if (multi)
        rt_header(&t, k++, "Test", RT_LEFT);
    rt_header(&t, k++, "compression", RT_LEFT);
    rt_header(&t, k++, "record / volblock size", RT_RIGHT);
    rt_header(&t, k++, "compressratio", RT_RIGHT);
    rt_header(&t, k++, "used", RT_RIGHT);
    rt_header(&t, k++, "logicalused", RT_RIGHT);
    rt_header(&t, k++, "referenced", RT_RIGHT);
    rt_header(&t, k++, "actual savings", RT_RIGHT);
    rt_header(&t, k++, "n", RT_RIGHT);
    rt_header(&t, k++, "vs. fio's data", RT_LEFT);
    struct comp_flags fl = {0, 0, 0, 0};
    for (size_t i = 0; i < n;) {
        const struct rp_cell *c0 = &d->cells[cells[i]];
        const struct rp_cell *cr = NULL, *cu = NULL, *cl = NULL, *cf = NULL,
                             *cs = NULL;
        size_t j = i;
        while (j < n && d->cells[cells[j]].config == c0->config &&
               d->cells[cells[j]].test == c0->test) {
            const struct rp_cell *c = &d->cells[cells[j]];
            const char *m = d->metrics[c->metric].name;
            if (c->has_value) {
                if (!strcmp(m, "compressratio"))
                    cr = c;
                else if (!strcmp(m, "used"))
                    cu = c;
                else if (!strcmp(m, "logicalused"))
                    cl = c;
                else if (!strcmp(m, "referenced"))
                    cf = c;
                else if (!strcmp(m, "actual_savings"))
                    cs = c;
            }
            j++;
        }
        i = j;
        const struct rp_config *conf = &d->configs[c0->config];
        /* `zfs list` rows (used/referenced only) say nothing about
         * compression */
        if (!cr && !cl && !cs &&
            !rp_param(conf->params, conf->nparams, "compression"))
            continue;
        struct rt_cell *row = rt_row(&t);
        k = 0;
        rp_config_cell(&t, &row[k++], conf);
        if (multi)
            rt_set(&t, &row[k++], d->tests[c0->test].name);
        const char *comp = rp_param(conf->params, conf->nparams, "compression");
        rt_set(&t, &row[k], comp ? comp : "–");
        if (!comp)
            row[k].style = RT_MUTED;
        k++;
        const char *rs = rp_param(conf->params, conf->nparams, "recordsize");
        const char *vb = rp_param(conf->params, conf->nparams, "volblocksize");
        char b1[64], b2[80];
        if (vb) {
            rt_setv(&t, &row[k],
                    rt_str(&t, "volblocksize %s",
                           rp_param_text("volblocksize", vb, b1, sizeof(b1))),
                    atof(vb));
        } else if (rs) {
            rt_setv(&t, &row[k],
                    rp_param_text("recordsize", rs, b1, sizeof(b1)), atof(rs));
        } else {
            rt_set(&t, &row[k], "–");
            row[k].style = RT_MUTED;
        }
        k++;
        const struct rp_cell *vals[4] = {cr, cu, cl, cf};
        for (int v = 0; v < 4; v++, k++) {
            if (!vals[v]) {
                rt_set(&t, &row[k], "–");
                row[k].style = RT_MUTED;
                continue;
            }
            const struct rp_metric *m = &d->metrics[vals[v]->metric];
            rt_setv(&t, &row[k],
                    vals[v]->n > 1 && vals[v]->se >= 0
                        ? rp_fmt_pm(&m->u, vals[v]->mean, vals[v]->se, b2,
                                    sizeof(b2))
                        : rp_fmt(&m->u, vals[v]->mean, b2, sizeof(b2)),
                    vals[v]->mean);
            if (m->u.kind == RP_U_BYTES)
                row[k].title = rt_str(&t, "%.0f bytes", vals[v]->mean);
            rp_ci_title(&t, &row[k], &m->u, vals[v]);
            rp_outlier_mark(&t, &row[k], vals[v]);
        }
        savings_cell(&t, &row[k], d, conf, cs, cr ? cr : cu ? cu : cl, &fl);
        k++;
        /* how many values the figures are the mean of */
        const struct rp_cell *cn = cr ? cr : cu ? cu : cl;
        if (cn)
            rt_setv(&t, &row[k], rt_str(&t, "%ld", cn->n), (double)cn->n);
        else
            rt_set(&t, &row[k], "–");
        k++;
        check_cell(&t, &row[k], d, cn, &fl);
    }
    compression_note(&t, &fl);
    rp_out_table(o, &t);
    rp_out_raw(o, "</section>\n");
    free(cells);
}

/* ==== systems ==== */

static const char *const key_order[] = {
    "system",         "hostname", "processor",   "cpu",      "cpu_model",
    "cores",          "threads",  "motherboard", "chipset",  "memory",
    "disk",           "disks",    "graphics",    "os",       "kernel",
    "zfs_version",    "zfs",      "filesystem",  "compiler", "desktop",
    "display server", NULL};

static int key_rank(const char *k)
{
    for (int i = 0; key_order[i]; i++)
        if (!strcasecmp_ascii(k, key_order[i]))
            return i;
    return 100;
}

static const char *host_of(const struct rp_fact *f)
{
    return f->host && *f->host && strcmp(f->host, "-") ? f->host
                                                       : "(this machine)";
}

static int cmp_key(const char *a, const char *b)
{
    int ra = key_rank(a), rb = key_rank(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return strcmp(a, b);
}

/* ctx: the struct rp_data whose facts the indexes point into */
static int cmp_fact(const void *a, const void *b, void *ctx)
{
    const struct rp_data *fact_d = ctx;
    const struct rp_fact *x = &fact_d->facts[*(const size_t *)a];
    const struct rp_fact *y = &fact_d->facts[*(const size_t *)b];
    int c = rp_natcmp(host_of(x), host_of(y));
    if (c)
        return c;
    if ((c = cmp_key(x->key, y->key)))
        return c;
    if ((c = strcmp(x->value, y->value)))
        return c;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int source_used(const struct rp_data *d, long long id)
{
    size_t lo = pb_lower_bound_id(d->sources, d->nsources,
                                  sizeof(*d->sources),
                                  offsetof(struct rp_source, id), id);
    return lo < d->nsources && d->sources[lo].id == id && d->sources[lo].used;
}

/* Facts of shown sources: props != 0 selects "object:property" keys
 * (ZFS properties per dataset or pool), else host facts. Sorted. */
static size_t *used_facts(const struct rp_data *d, int props, size_t *n)
{
    size_t *v = pb_xcalloc(d->nfacts + 1, sizeof(size_t));
    *n = 0;
    for (size_t i = 0; i < d->nfacts; i++) {
        const struct rp_fact *f = &d->facts[i];
        if (!f->key[0] || !source_used(d, f->source_id) ||
            rp_cell_fact(f->key))
            continue;
        if ((strchr(f->key, ':') != NULL) == (props != 0))
            v[(*n)++] = i;
    }
    rp_sort(v, *n, sizeof(size_t), cmp_fact, d);
    return v;
}

int rp_has_systems(const struct rp_data *d)
{
    for (size_t i = 0; i < d->nfacts; i++)
        if (source_used(d, d->facts[i].source_id))
            return 1;
    return 0;
}

/* One (host, key) with its distinct values joined: the one value itself
 * (a machine's: 100,000 machines' copies were 6.4 MB) or own, a text made
 * of several. */
struct fact_row {
    const char *host, *key;
    const char *vals;
    char *own;
};

static struct fact_row *fact_rows(const struct rp_data *d, const size_t *v,
                                  size_t n, size_t *nrows)
{
    struct fact_row *rows = pb_xcalloc(n + 1, sizeof(*rows));
    *nrows = 0;
    for (size_t i = 0; i < n;) {
        const struct rp_fact *f = &d->facts[v[i]];
        size_t j = i;
        struct pb_buf vals = PB_BUF_INIT;
        size_t nv = 0;
        pb_buf_puts(&vals, "");
        while (j < n && !strcmp(host_of(&d->facts[v[j]]), host_of(f)) &&
               !strcmp(d->facts[v[j]].key, f->key)) {
            const char *val = d->facts[v[j]].value;
            if (j == i || strcmp(val, d->facts[v[j - 1]].value)) {
                if (nv < 4)
                    pb_buf_printf(&vals, "%s%s", nv ? " / " : "", val);
                nv++;
            }
            j++;
        }
        if (nv > 4)
            pb_buf_printf(&vals, " / … (%zu values)", nv);
        rows[*nrows].host = host_of(f);
        rows[*nrows].key = f->key;
        if (nv == 1) {
            rows[*nrows].vals = f->value;
            pb_buf_release(&vals);
        } else {
            rows[*nrows].own = pb_buf_take(&vals);
            rows[*nrows].vals = rows[*nrows].own;
        }
        (*nrows)++;
        i = j;
    }
    return rows;
}

static int cmp_keyp(const void *a, const void *b)
{
    return cmp_key(*(const char *const *)a, *(const char *const *)b);
}

static const char *const THIS_MACHINE = "(this machine)";

/* Key / value table of some rows (one host, or the common facts). */
static void kv_table(struct rp_out *o, const char *caption,
                     struct fact_row *const *rows, size_t n)
{
    struct rt_table t;
    rt_init(&t, 2);
    t.caption = caption;
    t.fold = n > 40;
    rt_header(&t, 0, "Fact", RT_LEFT);
    rt_header(&t, 1, "Value", RT_LEFT);
    for (size_t i = 0; i < n; i++) {
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], rows[i]->key);
        row[0].style = RT_BOLD;
        rt_set(&t, &row[1], rows[i]->vals);
    }
    rp_out_table(o, &t);
}

/* Index of k among the distinct keys[0..nk), sorted by cmp_key. */
static size_t key_index(const char *const *keys, size_t nk, const char *k)
{
    size_t lo = 0, hi = nk;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(keys[mid], k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Does rows[i] start its host's first row of its key? (A host's rows are
 * adjacent, in key order; the rows of the run are skipped.) */
static int host_key_first(const struct fact_row *rows, size_t i,
                          size_t prev)
{
    return prev == SIZE_MAX || strcmp(rows[prev].host, rows[i].host) ||
           strcmp(rows[prev].key, rows[i].key);
}

/* Facts of named hosts: those all of them share once, the others side by
 * side (as OpenBenchmarking shows systems), or as a list for many hosts.
 * Read from rows in their order, per key (not per host and key: 100,000
 * machines were a table of each). */
static void host_table(struct rp_out *o, struct fact_row *rows, size_t nrows)
{
    /* facts without a host describe the run: a table of their own */
    size_t nrun = 0, nh = 0, nhosts = 0, nk = 0, capkeys = 0;
    for (size_t i = 0; i < nrows; i++)
        nrun += !strcmp(rows[i].host, THIS_MACHINE);
    struct fact_row **run = pb_xcalloc(nrun + 1, sizeof(*run));
    const char **keys = NULL;
    size_t prev = SIZE_MAX;
    nrun = 0;
    for (size_t i = 0; i < nrows; i++) {
        if (!strcmp(rows[i].host, THIS_MACHINE)) {
            run[nrun++] = &rows[i];
            continue;
        }
        if (!nh || strcmp(rows[i].host, rows[prev].host))
            nhosts++;
        nh++;
        prev = i;
        if (!nk || strcmp(keys[nk - 1], rows[i].key)) {
            PB_GROW(keys, capkeys, nk + 1);
            keys[nk++] = rows[i].key;
        }
    }
    if (nrun)
        kv_table(o, nhosts ? "About the runs" : "Facts", run, nrun);
    free(run);
    if (!nh) {
        free(keys);
        return;
    }
    qsort(keys, nk, sizeof(*keys), cmp_keyp);
    size_t w = 0;
    for (size_t i = 0; i < nk; i++)
        if (!w || strcmp(keys[i], keys[w - 1]))
            keys[w++] = keys[i];
    nk = w;
    /* per key: the first host's row, the hosts with its value; per key
     * and host (up to 10 hosts, drawn side by side): the row */
    int side = nhosts <= 10;
    struct fact_row **ref = pb_xcalloc(nk + 1, sizeof(*ref));
    size_t *nsame = pb_xcalloc(nk + 1, sizeof(*nsame));
    struct fact_row **at =
        side ? pb_xcalloc(nk * nhosts + 1, sizeof(*at)) : NULL;
    const char **hosts = pb_xcalloc(side ? nhosts : 1, sizeof(*hosts));
    size_t h = 0;
    prev = SIZE_MAX;
    for (size_t i = 0; i < nrows; i++) {
        if (!strcmp(rows[i].host, THIS_MACHINE))
            continue;
        if (prev != SIZE_MAX && strcmp(rows[i].host, rows[prev].host))
            h++;
        int first = host_key_first(rows, i, prev);
        prev = i;
        if (!first)
            continue;
        if (side)
            hosts[h] = rows[i].host;
        size_t k = key_index(keys, nk, rows[i].key);
        if (!h)
            ref[k] = &rows[i];
        if (side)
            at[k * nhosts + h] = &rows[i];
        nsame[k] += ref[k] && !strcmp(rows[i].vals, ref[k]->vals);
    }
    struct fact_row **common = pb_xcalloc(nk + 1, sizeof(*common));
    unsigned char *differs = pb_xcalloc(nk + 1, 1);
    size_t ncommon = 0, ndiff = 0;
    for (size_t i = 0; i < nk; i++) {
        if (nhosts > 1 && ref[i] && nsame[i] == nhosts)
            common[ncommon++] = ref[i];
        else {
            differs[i] = 1;
            ndiff++;
        }
    }
    if (ncommon) {
        char cap[80];
        snprintf(cap, sizeof(cap), "The same on all %zu systems", nhosts);
        kv_table(o, cap, common, ncommon);
    }
    struct rt_table t;
    if (ndiff && side) {
        rt_init(&t, nhosts + 1);
        t.caption = nhosts > 1 ? "Where the systems differ" : hosts[0];
        rt_header(&t, 0, "", RT_LEFT);
        for (size_t k = 0; k < nhosts; k++)
            rt_header(&t, k + 1, hosts[k], RT_LEFT);
        for (size_t i = 0; i < nk; i++) {
            if (!differs[i])
                continue;
            struct rt_cell *row = rt_row(&t);
            rt_set(&t, &row[0], keys[i]);
            row[0].style = RT_BOLD;
            for (size_t k = 0; k < nhosts; k++) {
                struct fact_row *r = at[i * nhosts + k];
                rt_set(&t, &row[k + 1], r ? r->vals : "–");
                if (!r)
                    row[k + 1].style = RT_MUTED;
            }
        }
        rp_out_table(o, &t);
    } else if (ndiff) {
        rt_init(&t, 3);
        t.caption = "Where the systems differ";
        t.fold = 1;
        rt_header(&t, 0, "Host", RT_LEFT);
        rt_header(&t, 1, "Fact", RT_LEFT);
        rt_header(&t, 2, "Value", RT_LEFT);
        /* by host, each in key order: the order of rows */
        prev = SIZE_MAX;
        for (size_t i = 0; i < nrows; i++) {
            if (!strcmp(rows[i].host, THIS_MACHINE))
                continue;
            int first = host_key_first(rows, i, prev);
            prev = i;
            if (!first || !differs[key_index(keys, nk, rows[i].key)])
                continue;
            struct rt_cell *row = rt_row(&t);
            rt_set(&t, &row[0], rows[i].host);
            row[0].style = RT_BOLD;
            rt_set(&t, &row[1], rows[i].key);
            rt_set(&t, &row[2], rows[i].vals);
        }
        rp_out_table(o, &t);
    }
    free(common);
    free(differs);
    free(at);
    free(keys);
    free(ref);
    free(nsame);
    free(hosts);
}

void rp_section_systems(struct rp_out *o, const struct rp_data *d)
{
    rp_out_raw(o, "<section id=\"systems\">\n");
    rp_out_heading(o, 2, NULL, "Systems");
    for (int props = 0; props < 2; props++) {
        size_t n, nrows;
        size_t *v = used_facts(d, props, &n);
        struct fact_row *rows = fact_rows(d, v, n, &nrows);
        free(v);
        if (nrows && !props) {
            host_table(o, rows, nrows);
        } else if (nrows) {
            struct rt_table t;
            rt_init(&t, 3);
            t.fold = 1;
            t.caption = "Pool and dataset properties";
            rt_header(&t, 0, "Object", RT_LEFT);
            rt_header(&t, 1, "Property", RT_LEFT);
            rt_header(&t, 2, "Value", RT_LEFT);
            for (size_t i = 0; i < nrows; i++) {
                struct rt_cell *row = rt_row(&t);
                const char *colon = strrchr(rows[i].key, ':');
                rt_set(&t, &row[0],
                       rt_str(&t, "%.*s", (int)(colon - rows[i].key),
                              rows[i].key));
                rt_set(&t, &row[1], colon + 1);
                rt_set(&t, &row[2], rows[i].vals);
            }
            rp_out_table(o, &t);
        }
        for (size_t i = 0; i < nrows; i++)
            free(rows[i].own);
        free(rows);
    }
    rp_out_raw(o, "</section>\n");
}

/* ==== sources ==== */

void rp_section_sources(struct rp_out *o, const struct rp_data *d)
{
    rp_out_raw(o, "<section id=\"sources\">\n");
    rp_out_heading(o, 2, NULL, "Sources");
    struct rt_table t;
    int flags = rp_has_flags(d);
    rt_init(&t, flags ? 8 : 7);
    t.sortable = 1;
    t.fold = d->used_sources > 30;
    t.caption = "Ingested files";
    rt_header(&t, 0, "File", RT_LEFT);
    rt_header(&t, 1, "Format", RT_LEFT);
    rt_header(&t, 2, "Tool version", RT_LEFT);
    rt_header(&t, 3, "Results", RT_RIGHT);
    rt_header(&t, 4, "Bytes", RT_RIGHT);
    rt_header(&t, 5, "SHA-256", RT_LEFT);
    rt_header(&t, 6, "Ingested (UTC)", RT_LEFT);
    if (flags)
        rt_header(&t, 7, "Warnings", RT_LEFT);
    size_t left = 0; /* past RP_MANY_ROWS: only sources with warnings */
    for (size_t i = 0; i < d->nsources; i++) {
        const struct rp_source *s = &d->sources[i];
        if (!s->used)
            continue;
        if (t.nrows >= RP_MANY_ROWS) {
            struct pb_buf b = PB_BUF_INIT;
            if (flags)
                rp_source_flags(d, s->id, &b);
            int warned = pb_buf_str(&b)[0] != 0;
            pb_buf_release(&b);
            if (!warned) {
                left++;
                continue;
            }
        }
        struct rt_cell *row = rt_row(&t);
        rt_set(&t, &row[0], s->path);
        row[0].style = RT_MONO;
        rt_set(&t, &row[1], s->format);
        rt_set(&t, &row[2], s->tool_version ? s->tool_version : "–");
        rt_setv(&t, &row[3], rt_str(&t, "%lld", s->nresults),
                (double)s->nresults);
        rt_setv(&t, &row[4], rt_str(&t, "%lld", s->size), (double)s->size);
        rt_set(&t, &row[5], rt_str(&t, "%.12s", s->sha256 ? s->sha256 : ""));
        row[5].title = s->sha256;
        row[5].style = RT_MONO;
        rt_set(&t, &row[6], s->ingested_at ? s->ingested_at : "");
        if (flags) {
            struct pb_buf b = PB_BUF_INIT;
            rp_source_flags(d, s->id, &b);
            rt_set(&t, &row[7], rt_str(&t, "%s", pb_buf_str(&b)));
            pb_buf_release(&b);
        }
    }
    if (!t.nrows)
        t.note = "No source has results matching the filters.";
    if (left)
        t.note = rt_str(&t,
                        "%zu more files (none with warnings) are not listed "
                        "here; 'poolbench list sources' lists them all.",
                        left);
    rp_out_table(o, &t);
    rp_out_raw(o, "</section>\n");
}
