/* Which label and dimensions a source's configurations get: the title of a
 * note or the file/folder name instead of a generic job name, a generic
 * label qualified by host or file so different systems never merge, and
 * the dimensions of pasted commands in force where each result was read
 * (a configuration splits when they change). docs/experiment-context.md
 * states the rules. */
#define _GNU_SOURCE
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== generic labels ==== */

int pb_ingest_generic_label(const char *label)
{
    static const char *const names[] = {
        "fio",   "test",   "tests",  "job",   "jobs",    "task",  "bench",
        "benchmark", "run", "default", "global", "file",  "files", "data",
        "tmp",   "temp",   "foo",    "bar",   "iozone",  "bonnie", "bonnie++",
        "unnamed system", "mytest", "testjob", "fiotest", "fio-test",
        "fio_test", "iotest", "fiojob", "fio_job", "fio-job", NULL};
    if (!label)
        return 1;
    size_t n = strcspn(label, "(");
    while (n && label[n - 1] == ' ')
        n--; /* "fio (host db1, fio-3.33)": the qualified form */
    if (n == 0)
        return 1;
    /* a trailing number: job1, task_0, test-2 */
    size_t k = n;
    while (k && isdigit((unsigned char)label[k - 1]))
        k--;
    if (k < n && k && (label[k - 1] == '_' || label[k - 1] == '-' ||
                       label[k - 1] == ' ' || label[k - 1] == '.'))
        k--;
    for (size_t i = 0; names[i]; i++) {
        size_t m = strlen(names[i]);
        if ((m == n || m == k) && !strncasecmp(label, names[i], m))
            return 1;
    }
    return 0;
}

/* ==== small helpers ==== */

static int text_format(const char *f)
{
    return f && (!strcmp(f, "fio-text") || !strcmp(f, "fio-terse") ||
                 !strcmp(f, "fio-json") || !strcmp(f, "iozone"));
}

static const char *fact(const struct pb_resultset *set, const char *key)
{
    for (size_t i = 0; i < set->nfacts; i++)
        if (!strcmp(set->facts[i].key, key) && set->facts[i].value &&
            set->facts[i].value[0])
            return set->facts[i].value;
    return NULL;
}

char *pb_ingest_path_part(const char *path, int dir)
{
    const char *p = path ? path : "-";
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        n--;
    size_t b = n;
    while (b && p[b - 1] != '/')
        b--;
    if (!dir) {
        char *s = pb_xstrndup(p + b, n - b);
        char *dot = strrchr(s, '.');
        if (dot && dot != s)
            *dot = '\0';
        return s;
    }
    if (b == 0)
        return NULL;
    size_t e = b - 1;
    while (e > 0 && p[e - 1] == '/')
        e--;
    size_t s = e;
    while (s && p[s - 1] != '/')
        s--;
    if (e == s || (e - s == 1 && p[s] == '.') ||
        (e - s == 2 && p[s] == '.' && p[s + 1] == '.'))
        return NULL;
    return pb_xstrndup(p + s, e - s);
}

static void set_label(struct pb_resultset *set, size_t i, const char *label,
                      int is_name)
{
    set->configs[i].label = pb_rs_str(set, label);
    set->configs[i].label_is_name = is_name;
    set->configs[i].label_auto = 0;
    set->config_ix.cap = 0; /* labels changed: rebuild the index */
}

/* Host of a config: its results' host (rhost), else the file's hostname
 * or the node name of its uname line. */
static const char *config_host(const struct pb_resultset *set,
                               const char *rhost, char *buf, size_t cap)
{
    if (rhost)
        return rhost;
    const char *h = fact(set, "hostname");
    if (h)
        return h;
    const char *u = fact(set, "uname"); /* "Linux box 6.1.0 ..." */
    if (u) {
        const char *s = strchr(u, ' ');
        if (s) {
            s++;
            size_t n = strcspn(s, " ");
            if (n && n < cap) {
                memcpy(buf, s, n);
                buf[n] = '\0';
                return buf;
            }
        }
    }
    return NULL;
}

/* ==== labels ==== */

/* A label a title replaces: generic, or made up by the parser from the
 * file name (fio jobs of several names on one target). */
static int replaceable(const struct pb_config *c)
{
    return c->label_auto || pb_ingest_generic_label(c->label);
}

/* The label every config gets and where it came from (a new label),
 * or NULL to keep the parser's labels (qualifying generic ones). */
static void relabel(struct pb_resultset *set, const struct pb_cmd_notes *nt,
                    const struct pb_ingest_opts *opts, char **label_out,
                    char **origin_out, int *only_generic)
{
    *only_generic = 0;
    const char *from = opts ? opts->label_from : NULL;
    *label_out = *origin_out = NULL;
    if (from && (!strcmp(from, "file") || !strcmp(from, "dir"))) {
        int dir = !strcmp(from, "dir");
        char *part = pb_ingest_path_part(set->path, dir);
        if (part && *part) {
            *origin_out = pb_xasprintf("path: %s%s", part, dir ? "/" : "");
            *label_out = part;
            return;
        }
        free(part);
    }
    int any_generic = 0;
    for (size_t i = 0; i < set->nconfigs; i++)
        any_generic |= replaceable(&set->configs[i]);
    if (nt->title && ((from && !strcmp(from, "title")) ||
                      (!from && any_generic && nt->ncommands > 0))) {
        *label_out = pb_xstrdup(nt->title);
        *origin_out = pb_xasprintf("title: line %ld", nt->title_line);
        *only_generic = !from; /* a named job keeps its name */
    }
}

static void qualify(struct pb_resultset *set)
{
    const char **rhost = NULL; /* first host of each config's results */
    for (size_t i = 0; i < set->nconfigs; i++) {
        const char *l = set->configs[i].label;
        if (!pb_ingest_generic_label(l) || strchr(l, '('))
            continue;
        if (!rhost) {
            rhost = pb_xcalloc(set->nconfigs + 1, sizeof(*rhost));
            for (size_t r = 0; r < set->nresults; r++) {
                const struct pb_result *x = &set->results[r];
                if (!rhost[x->config] && x->host && x->host[0])
                    rhost[x->config] = x->host;
            }
        }
        char hb[128];
        const char *host = config_host(set, rhost[i], hb, sizeof(hb));
        char *file = host ? NULL : pb_ingest_path_part(set->path, 0);
        const char *v = set->tool_version;
        char *q = pb_xasprintf("%s (%s %s%s%s)", l, host ? "host" : "file",
                               host ? host : file, v ? ", " : "", v ? v : "");
        set_label(set, i, q, 1);
        free(q);
        free(file);
    }
    free(rhost);
}

/* ==== commands ==== */

static int cmp_sig(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    int c = strcmp(x[0], y[0]);
    if (c)
        return c;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

size_t *pb_cmd_epoch_classes(const struct pb_cmd_notes *nt)
{
    size_t n = nt->nepochs;
    char **sig = pb_xcalloc(2 * n + 1, sizeof(*sig));
    for (size_t e = 0; e < n; e++) {
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_puts(&b, "");
        for (size_t k = 0; k < nt->epochs[e].ndims; k++)
            pb_buf_printf(&b, "%s=%s\x1f", nt->epochs[e].dims[k].key,
                          nt->epochs[e].dims[k].value);
        sig[2 * e] = pb_buf_take(&b);
        sig[2 * e + 1] = (char *)(uintptr_t)e; /* the index, as a tag */
    }
    qsort(sig, n, 2 * sizeof(*sig), cmp_sig);
    size_t *cls = pb_xcalloc(n + 1, sizeof(*cls));
    size_t first = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(sig[2 * i], sig[2 * (i - 1)]) != 0)
            first = (size_t)(uintptr_t)sig[2 * i + 1];
        cls[(size_t)(uintptr_t)sig[2 * i + 1]] = first;
    }
    for (size_t i = 0; i < n; i++)
        free(sig[2 * i]);
    free(sig);
    return cls;
}

struct pair {
    size_t cfg, cls, res;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->cfg != y->cfg)
        return x->cfg < y->cfg ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    return x->res < y->res ? -1 : x->res > y->res;
}

static size_t copy_config(struct pb_resultset *set, size_t from)
{
    PB_GROW(set->configs, set->capconfigs, set->nconfigs + 1);
    size_t to = set->nconfigs++;
    struct pb_config *c = &set->configs[to];
    memset(c, 0, sizeof(*c));
    c->label = set->configs[from].label;
    c->label_is_name = set->configs[from].label_is_name;
    c->label_auto = set->configs[from].label_auto;
    for (size_t k = 0; k < set->configs[from].nparams; k++) {
        const struct pb_kv *kv = &set->configs[from].params[k];
        pb_rs_config_param_origin(set, to, kv->key, kv->value, kv->origin);
    }
    set->config_ix.cap = 0;
    return to;
}

static int has_key(const struct pb_config *c, const char *key)
{
    for (size_t i = 0; i < c->nparams; i++)
        if (!strcmp(c->params[i].key, key))
            return 1;
    return 0;
}

/* Give each result the dimensions in force at its line; a config whose
 * results see different dimensions becomes one config per setup. */
static void apply_commands(struct pb_resultset *set,
                           const struct pb_cmd_notes *nt)
{
    size_t *cls = pb_cmd_epoch_classes(nt);
    struct pair *pr = pb_xcalloc(set->nresults + 1, sizeof(*pr));
    for (size_t r = 0; r < set->nresults; r++) {
        const struct pb_cmd_epoch *e =
            pb_cmd_epoch_at(nt, set->results[r].line);
        pr[r].cfg = set->results[r].config;
        pr[r].cls = cls[(size_t)(e - nt->epochs)];
        pr[r].res = r;
    }
    qsort(pr, set->nresults, sizeof(*pr), cmp_pair);
    size_t nold = set->nconfigs;
    size_t *ecls = pb_xcalloc(nold + set->nresults + 1, sizeof(*ecls));
    unsigned char *has = pb_xcalloc(nold + set->nresults + 1, 1);
    size_t target = 0;
    for (size_t i = 0; i < set->nresults; i++) {
        int new_pair = i == 0 || pr[i].cfg != pr[i - 1].cfg ||
                       pr[i].cls != pr[i - 1].cls;
        if (new_pair) {
            int new_cfg = i == 0 || pr[i].cfg != pr[i - 1].cfg;
            target = new_cfg ? pr[i].cfg : copy_config(set, pr[i].cfg);
            ecls[target] = pr[i].cls;
            has[target] = 1;
        }
        set->results[pr[i].res].config = target;
    }
    for (size_t c = 0; c < set->nconfigs; c++) {
        if (!has[c])
            continue;
        const struct pb_cmd_epoch *e = &nt->epochs[ecls[c]];
        for (size_t k = 0; k < e->ndims; k++)
            if (!has_key(&set->configs[c], e->dims[k].key))
                pb_rs_config_param_origin(set, c, e->dims[k].key,
                                          e->dims[k].value,
                                          e->dims[k].origin);
    }
    free(has);
    free(ecls);
    free(pr);
    free(cls);
}

/* ==== merging equal configs ==== */

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const struct pb_kv *)a)->key,
                  ((const struct pb_kv *)b)->key);
}

static char *config_sig(const struct pb_config *c)
{
    struct pb_kv *kv = pb_xcalloc(c->nparams + 1, sizeof(*kv));
    if (c->nparams)
        memcpy(kv, c->params, c->nparams * sizeof(*kv));
    qsort(kv, c->nparams, sizeof(*kv), cmp_kv);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "%s\x1e", c->label);
    for (size_t i = 0; i < c->nparams; i++)
        pb_buf_printf(&b, "%s=%s\x1f", kv[i].key, kv[i].value);
    free(kv);
    return pb_buf_take(&b);
}

/* Configs with the same label and dimensions become one (the first). */
static void merge_equal(struct pb_resultset *set)
{
    size_t n = set->nconfigs;
    if (n < 2)
        return;
    char **sig = pb_xcalloc(2 * n + 1, sizeof(*sig));
    for (size_t i = 0; i < n; i++) {
        sig[2 * i] = config_sig(&set->configs[i]);
        sig[2 * i + 1] = (char *)(uintptr_t)i;
    }
    qsort(sig, n, 2 * sizeof(*sig), cmp_sig);
    size_t *to = pb_xcalloc(n + 1, sizeof(*to));
    size_t first = 0;
    for (size_t i = 0; i < n; i++) {
        size_t idx = (size_t)(uintptr_t)sig[2 * i + 1];
        if (i == 0 || strcmp(sig[2 * i], sig[2 * (i - 1)]) != 0)
            first = idx;
        to[idx] = first;
    }
    for (size_t i = 0; i < n; i++)
        free(sig[2 * i]);
    free(sig);
    size_t *pos = pb_xcalloc(n + 1, sizeof(*pos));
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (to[i] == i) {
            pos[i] = m;
            set->configs[m++] = set->configs[i];
        } else {
            free(set->configs[i].params);
        }
    }
    for (size_t r = 0; r < set->nresults; r++)
        set->results[r].config = pos[to[set->results[r].config]];
    set->nconfigs = m;
    set->config_ix.cap = 0;
    free(pos);
    free(to);
}

/* ==== entry ==== */

void pb_ingest_context(struct pb_resultset *set, const char *buf, size_t len,
                       const struct pb_ingest_opts *opts)
{
    if (!set || set->nconfigs == 0)
        return;
    const char *from = opts ? opts->label_from : NULL;
    struct pb_cmd_notes nt;
    memset(&nt, 0, sizeof(nt));
    if (text_format(set->format) || (from && !strcmp(from, "title")))
        pb_cmd_scan(buf, len, &nt);
    char *label = NULL, *origin = NULL;
    if (!opts || !opts->label) {
        int only_generic = 0;
        relabel(set, &nt, opts, &label, &origin, &only_generic);
        if (label) {
            for (size_t i = 0; i < set->nconfigs; i++)
                if (!only_generic || replaceable(&set->configs[i]))
                    set_label(set, i, label, 0);
            pb_rs_fact(set, NULL, "label_origin", origin);
        } else {
            qualify(set);
        }
    }
    int split = text_format(set->format) && nt.nepochs > 1;
    if (split)
        apply_commands(set, &nt);
    if (label && opts && opts->rules)
        for (size_t i = 0; i < set->nconfigs; i++)
            if (!strcmp(set->configs[i].label, label))
                pb_label_extract_origin(opts->rules, set, i, origin);
    if (label || split)
        merge_equal(set); /* configs that became the same setup */
    free(label);
    free(origin);
    pb_cmd_notes_release(&nt);
}
