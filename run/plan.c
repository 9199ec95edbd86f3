/* Plan files: INI read with libinih, validated with path:line messages
 * (the cell matrix is in matrix.c). */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <ctype.h>
#include <limits.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_CELLS 100000

/* ==== reading ==== */



struct parse_ctx {
    struct pb_run_plan *plan;
    struct pb_ini_reader *rd;
    struct pb_err *err;
    const char *path;
    char last_sect[32], last_key[64];
    long plan_line[15]; /* line of each [plan] key, by index in plan_keys */
    char *vals[15];     /* value of each [plan] key */
};

static const char *const plan_keys[] = {
    "name", "description", "pool", "kind", "repeats",
    "vdevs", "log_vdevs", "cache_vdevs", "on_failure", "on_unsupported",
    "allow_exec", "max_repeats", "target_rse", "order", "seed", NULL};

static int fail(struct parse_ctx *c, long line, const char *fmt, ...)
    PB_PRINTF(3, 4);
static int fail(struct parse_ctx *c, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pb_err_vset(c->err, PB_EUSAGE, c->path, line, 0, fmt, ap);
    va_end(ap);
    return 0;
}

static int sect_of(const char *name, enum pb_run_sect *s, int *zvol)
{
    *zvol = -1;
    if (!strcasecmp(name, "pool"))
        *s = PB_RUN_POOL;
    else if (!strcasecmp(name, "dataset")) {
        *s = PB_RUN_DATA;
        *zvol = 0;
    } else if (!strcasecmp(name, "zvol")) {
        *s = PB_RUN_DATA;
        *zvol = 1;
    } else if (!strcasecmp(name, "fio"))
        *s = PB_RUN_FIO;
    else
        return -1;
    return 0;
}

/* Split "a, b, \"c,d\"" into values (quotes removed). */
static int split_values(struct parse_ctx *c, struct pb_run_axis *a,
                        const char *v, long line)
{
    const char *p = v;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        struct pb_buf one = PB_BUF_INIT;
        int quoted = 0;
        if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q) {
                pb_buf_release(&one);
                return fail(c, line, "unterminated quote in '%s'", a->key);
            }
            pb_buf_add(&one, p + 1, (size_t)(q - p - 1));
            p = q + 1;
            quoted = 1;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p && *p != ',') {
                pb_buf_release(&one);
                return fail(c, line, "text after the closing quote in '%s'",
                            a->key);
            }
        } else {
            const char *q = strchr(p, ',');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
                n--;
            pb_buf_add(&one, p, n);
            p += n;
            while (*p == ' ' || *p == '\t')
                p++;
        }
        if (!quoted && one.len == 0) {
            pb_buf_release(&one);
            return fail(c, line, "empty value in '%s'", a->key);
        }
        PB_GROW(a->vals, a->capvals, a->nvals + 1);
        a->vals[a->nvals++] = pb_buf_take(&one);
        if (*p != ',')
            break;
        p++;
    }
    return 1;
}

static int valid_key(const char *k)
{
    if (!*k)
        return 0;
    for (const char *p = k; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
            *p != '_' && *p != ':' && *p != '.' && *p != '-')
            return 0;
    return 1;
}

static int on_pair(void *user, const char *section, const char *name,
                   const char *value)
{
    struct parse_ctx *c = user;
    long line = c->rd->line;
    if (c->err->code)
        return 1; /* keep the first error; inih reports nothing more */
    int cont = c->rd->indented && !strcmp(c->last_sect, section) &&
               !strcasecmp(c->last_key, name);
    char key[64];
    size_t kn = strlen(name);
    if (kn >= sizeof(key))
        return fail(c, line, "key '%.40s...' is too long", name);
    for (size_t i = 0; i <= kn; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    if (!*section)
        return fail(c, line, "'%s' is outside a section (start with [plan])",
                    key);
    snprintf(c->last_sect, sizeof(c->last_sect), "%s", section);
    snprintf(c->last_key, sizeof(c->last_key), "%s", key);
    if (!*value)
        return fail(c, line, "empty value for '%s'", key);

    if (!strcasecmp(section, "plan")) {
        size_t i = 0;
        for (; plan_keys[i]; i++)
            if (!strcmp(plan_keys[i], key))
                break;
        if (!plan_keys[i])
            return fail(c, line, "unknown key '%s' in [plan] (known: name, "
                        "description, pool, kind, repeats, vdevs, log_vdevs, "
                        "cache_vdevs, on_failure, on_unsupported, "
                        "allow_exec, max_repeats, target_rse, order, seed)",
                        key);
        if (cont && c->vals[i]) {
            char *s = pb_xasprintf("%s %s", c->vals[i], value);
            free(c->vals[i]);
            c->vals[i] = s;
            return 1;
        }
        if (c->vals[i])
            return fail(c, line, "'%s' given twice in [plan] (first on line "
                        "%ld)", key, c->plan_line[i]);
        c->vals[i] = pb_xstrdup(value);
        c->plan_line[i] = line;
        return 1;
    }

    if (!strcasecmp(section, "hosts")) {
        if (pb_run_hosts_pair(&c->plan->hosts, key, value, cont, line,
                              c->path, c->err) != 0)
            return 0;
        return 1;
    }
    enum pb_run_sect s;
    int zvol;
    if (sect_of(section, &s, &zvol) != 0)
        return fail(c, line, "unknown section '[%s]' (known: plan, pool, "
                    "dataset, zvol, fio, hosts)", section);
    struct pb_run_plan *p = c->plan;
    if (zvol >= 0) {
        if (p->zvol >= 0 && p->zvol != zvol)
            return fail(c, line, "a plan has either [dataset] or [zvol], "
                        "not both");
        p->zvol = zvol;
    }
    if (!valid_key(key))
        return fail(c, line, "bad key '%s' (letters, digits, _ : . -)", key);
    if (s == PB_RUN_FIO && !strcmp(key, "log")) {
        /* not a fio option nor an axis: the logs every cell writes */
        char bad[64];
        unsigned bits = 0;
        if (pb_run_logs_parse(value, &bits, bad, sizeof(bad)) != 0)
            return fail(c, line, "log: unknown log '%s' (known: bw, iops, "
                        "lat, hist)", bad);
        if (p->logs && !cont)
            return fail(c, line, "'log' given twice in [fio]");
        p->logs |= bits;
        return 1;
    }
    struct pb_run_section *sec = &p->sect[s];
    for (size_t i = 0; i < sec->n; i++) {
        if (strcmp(sec->ax[i].key, key))
            continue;
        if (cont)
            return split_values(c, &sec->ax[i], value, line);
        return fail(c, line, "'%s' given twice in [%s] (first on line %ld)",
                    key, section, sec->ax[i].line);
    }
    PB_GROW(sec->ax, sec->cap, sec->n + 1);
    struct pb_run_axis *a = &sec->ax[sec->n++];
    memset(a, 0, sizeof(*a));
    a->key = pb_xstrdup(key);
    a->line = line;
    return split_values(c, a, value, line);
}

/* ==== validation ==== */

static int in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

char *pb_run_list_word(const char **p)
{
    const char *s = *p;
    while (*s && (isspace((unsigned char)*s) || *s == ','))
        s++;
    size_t n = strcspn(s, " \t,");
    *p = s + n;
    return *s ? pb_xstrndup(s, n) : NULL;
}

static int parse_vdevs(struct parse_ctx *c, const char *key, const char *v,
                       long line, struct pb_run_vdevs *out)
{
    const char *p = v;
    char *tok;
    while ((tok = pb_run_list_word(&p)) != NULL) {
        struct pb_run_vdev d = {0};
        d.line = line;
        size_t pre = !strncmp(tok, "file:", 5)   ? 5
                     : !strncmp(tok, "loop:", 5) ? 5
                                                 : 0;
        if (pre) {
            const char *kind = tok[0] == 'f' ? "file" : "loop";
            char *colon = strrchr(tok + pre, ':');
            double sz = 0;
            if (!colon || colon == tok + pre || !colon[1]) {
                fail(c, line, "'%s': vdev '%s' is not %s:PATH:SIZE", key,
                     tok, kind);
            } else {
                *colon = '\0';
                if (tok[pre] != '/')
                    fail(c, line, "'%s': vdev path '%s' must be absolute",
                         key, tok + pre);
                else if (pb_parse_size(colon + 1, 0, &sz) != 0 ||
                         sz != floor(sz))
                    fail(c, line, "'%s': bad size '%s' for '%s'", key,
                         colon + 1, tok + pre);
                else if (sz < 64.0 * 1024 * 1024)
                    fail(c, line, "'%s': '%s' is smaller than 64M, the "
                         "smallest vdev ZFS accepts", key, tok + pre);
                char canon[PATH_MAX];
                struct pb_err why = {0};
                pb_run_canon_path(tok + pre, canon, sizeof(canon));
                if (!c->err->code && tok[pre] == '/' &&
                    pb_run_vdev_place(tok + pre, canon, &why) != PB_OK)
                    fail(c, line, "'%s': %s", key, why.msg);
                d.path = pb_xstrdup(canon);
                d.size = sz;
                d.is_file = 1;
                d.loop = tok[0] == 'l';
            }
        } else if (!strncmp(tok, "/dev/", 5) && tok[5]) {
            char canon[PATH_MAX];
            d.path = pb_xstrdup(tok);
            if (realpath(tok, canon))
                d.canon = pb_xstrdup(canon);
        } else {
            fail(c, line, "'%s': vdev '%s' is neither file:PATH:SIZE, "
                 "loop:PATH:SIZE nor a /dev/ device", key, tok);
        }
        free(tok);
        if (c->err->code) {
            free(d.path);
            free(d.canon);
            return -1;
        }
        PB_GROW(out->v, out->cap, out->n + 1);
        out->v[out->n++] = d;
    }
    return 0;
}

int pb_run_layout_parse(const char *s, size_t ndata, struct pb_run_layout *out,
                        struct pb_err *err)
{
    memset(out, 0, sizeof(*out));
    const char *p = s;
    out->groups = 1;
    if (isdigit((unsigned char)*p)) {
        char *end;
        long g = strtol(p, &end, 10);
        if (*end != 'x' || g < 1 || g > 64) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "bad layout '%s' (e.g. stripe-2, mirror, "
                              "2xmirror-2, raidz2)",
                              s);
        }
        out->groups = (int)g;
        p = end + 1;
    }
    size_t tn = strcspn(p, "-");
    static const char *const types[] = {"stripe", "mirror", "raidz",
                                        "raidz1", "raidz2", "raidz3", NULL};
    char type[8] = "";
    if (tn < sizeof(type)) {
        memcpy(type, p, tn);
        type[tn] = '\0';
    }
    if (!*type || !in_list(type, types)) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "bad layout '%s' (types: stripe, mirror, raidz1, "
                          "raidz2, raidz3)",
                          s);
    }
    if (!strcmp(type, "raidz"))
        strcpy(type, "raidz1");
    snprintf(out->type, sizeof(out->type), "%s", type);
    p += tn;
    long w = 0;
    if (*p == '-') {
        char *end;
        w = strtol(p + 1, &end, 10);
        if (end == p + 1 || *end || w < 1 || w > 1024) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "bad vdev count in layout '%s'", s);
        }
    } else if (*p) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0, "bad layout '%s'", s);
    }
    if (!strcmp(type, "stripe") && out->groups > 1) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "layout '%s': a stripe has no groups; write "
                          "'stripe-N'",
                          s);
    }
    if (w == 0)
        w = (long)ndata / out->groups;
    int min = !strcmp(type, "stripe")   ? 1
              : !strcmp(type, "mirror") ? 2
              : !strcmp(type, "raidz1") ? 2
              : !strcmp(type, "raidz2") ? 3
                                        : 4;
    if (w < min) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "layout '%s' needs at least %d vdevs per group", s,
                          min);
    }
    out->width = (int)w;
    if ((size_t)out->groups * (size_t)w > ndata) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "layout '%s' needs %ld vdevs, [plan] vdevs has %zu",
                          s, (long)out->groups * w, ndata);
    }
    return 0;
}

static const char *const dataset_props[] = {
    "aclinherit", "aclmode", "acltype", "atime", "casesensitivity",
    "checksum", "compression", "copies", "dedup", "dnodesize", "exec",
    "logbias", "normalization", "primarycache", "quota", "readonly",
    "recordsize", "redundant_metadata", "refquota", "refreservation",
    "relatime", "reservation", "secondarycache", "setuid",
    "special_small_blocks", "sync", "utf8only", "xattr", NULL};
static const char *const zvol_props[] = {
    "checksum", "compression", "copies", "dedup", "logbias",
    "primarycache", "redundant_metadata", "refreservation", "reservation",
    "secondarycache", "size", "sync", "volblocksize", NULL};
/* fio options poolbench sets itself. */
static const char *const fio_reserved[] = {
    "name", "directory", "filename", "filename_format", "output",
    "output-format", "create_only", "group_reporting", NULL};

static int is_pow2_size(const char *v, double lo, double hi)
{
    double b;
    if (pb_parse_size(v, 0, &b) != 0 || b < lo || b > hi)
        return 0;
    double l = log2(b);
    return l == floor(l);
}

static int validate_axes(struct parse_ctx *c)
{
    struct pb_run_plan *p = c->plan;
    for (size_t i = 0; i < p->sect[PB_RUN_POOL].n; i++) {
        struct pb_run_axis *a = &p->sect[PB_RUN_POOL].ax[i];
        for (size_t j = 0; j < a->nvals; j++) {
            const char *v = a->vals[j];
            if (!strcmp(a->key, "layout")) {
                struct pb_run_layout l;
                struct pb_err lerr = {0};
                if (pb_run_layout_parse(v, p->data.n, &l, &lerr) != PB_OK)
                    return fail(c, a->line, "%s", lerr.msg);
            } else if (!strcmp(a->key, "ashift")) {
                char *end;
                long n = strtol(v, &end, 10);
                if (*end || end == v || n < 9 || n > 16)
                    return fail(c, a->line, "ashift must be 9..16, got '%s'",
                                v);
            } else if (!strcmp(a->key, "log")) {
                if (strcmp(v, "none") && strcmp(v, "on") && strcmp(v, "mirror"))
                    return fail(c, a->line, "log must be none, on or mirror, "
                                "got '%s'", v);
                if (strcmp(v, "none") && p->log.n == 0)
                    return fail(c, a->line, "log=%s needs [plan] log_vdevs",
                                v);
                if (!strcmp(v, "mirror") && p->log.n < 2)
                    return fail(c, a->line, "log=mirror needs two log_vdevs");
            } else if (!strcmp(a->key, "cache")) {
                if (strcmp(v, "none") && strcmp(v, "on"))
                    return fail(c, a->line, "cache must be none or on, got "
                                "'%s'", v);
                if (!strcmp(v, "on") && p->cache.n == 0)
                    return fail(c, a->line, "cache=on needs [plan] "
                                "cache_vdevs");
            } else {
                return fail(c, a->line, "unknown key '%s' in [pool] (known: "
                            "layout, ashift, log, cache)", a->key);
            }
        }
    }
    const char *sname = p->zvol ? "zvol" : "dataset";
    int have_size = 0;
    for (size_t i = 0; i < p->sect[PB_RUN_DATA].n; i++) {
        struct pb_run_axis *a = &p->sect[PB_RUN_DATA].ax[i];
        if (!strcmp(a->key, "mountpoint") || !strcmp(a->key, "canmount"))
            return fail(c, a->line, "'%s' is set by poolbench", a->key);
        if (!strchr(a->key, ':') &&
            !in_list(a->key, p->zvol ? zvol_props : dataset_props))
            return fail(c, a->line, "unknown %s property '%s'", sname,
                        a->key);
        for (size_t j = 0; j < a->nvals; j++) {
            const char *v = a->vals[j];
            if (!strcmp(a->key, "recordsize") &&
                !is_pow2_size(v, 512, 16.0 * 1024 * 1024))
                return fail(c, a->line, "recordsize must be a power of two "
                            "from 512 to 16M, got '%s'", v);
            if (!strcmp(a->key, "volblocksize") &&
                !is_pow2_size(v, 512, 16.0 * 1024 * 1024))
                return fail(c, a->line, "volblocksize must be a power of two "
                            "from 512 to 16M, got '%s'", v);
            double b;
            if (!strcmp(a->key, "size") &&
                (pb_parse_size(v, 0, &b) != 0 || b < 1024 * 1024))
                return fail(c, a->line, "zvol size must be a size of at "
                            "least 1M, got '%s'", v);
        }
        if (!strcmp(a->key, "size"))
            have_size = 1;
    }
    if (p->zvol && !have_size)
        return fail(c, 0, "[zvol] needs 'size' (the volume size)");
    int have_fio_size = 0;
    for (size_t i = 0; i < p->sect[PB_RUN_FIO].n; i++) {
        struct pb_run_axis *a = &p->sect[PB_RUN_FIO].ax[i];
        if (in_list(a->key, fio_reserved))
            return fail(c, a->line, "fio option '%s' is set by poolbench",
                        a->key);
        if (strchr(a->key, ':') || strchr(a->key, '.'))
            return fail(c, a->line, "bad fio option '%s'", a->key);
        if (pb_run_fio_key_class(a->key) == PB_RUN_FIO_REFUSED)
            return fail(c, a->line, "fio option '%s' is not allowed in a "
                        "plan (see the list in docs/plan-format.md: fio runs "
                        "as root, and options that run programs or touch "
                        "files outside the pool are refused)", a->key);
        /* commands (exec_prerun, ioengine=exec, ...) are the run's
         * --allow-exec to allow: run/consent.c */
        for (size_t j = 0; j < a->nvals; j++) {
            struct pb_err why = {0};
            if (pb_run_fio_value_check(a->key, a->vals[j], &why) != PB_OK)
                return fail(c, a->line, "%s=%s: %s", a->key, a->vals[j],
                            why.msg);
        }
        if (!strcmp(a->key, "size"))
            have_fio_size = 1;
    }
    if (!p->zvol && !have_fio_size)
        return fail(c, 0, "[fio] needs 'size' (the file size per job)");
    return 1;
}

static int valid_name(const char *s, const char *extra)
{
    if (!*s || !isalpha((unsigned char)*s))
        return 0;
    for (const char *q = s; *q; q++)
        if (!isalnum((unsigned char)*q) && !strchr(extra, *q))
            return 0;
    return 1;
}

/* Long on purpose: the [plan] keys' checks in the order the plan format
 * documents them, each a few lines that fail at the key's own line. */
static int finish(struct parse_ctx *c)
{
    struct pb_run_plan *p = c->plan;
    /* the [hosts] template, whole now that its lines are read */
    if (pb_run_hosts_check_remote(&p->hosts, c->path, c->err) != 0)
        return 0;
    /* [plan] */
    if (c->vals[0]) {
        if (!valid_name(c->vals[0], "_.-"))
            return fail(c, c->plan_line[0], "plan name '%s' must be letters, "
                        "digits, _ . - (it names the output folder)",
                        c->vals[0]);
        p->name = pb_xstrdup(c->vals[0]);
    } else {
        const char *b = strrchr(c->path, '/');
        b = b ? b + 1 : c->path;
        size_t n = strlen(b);
        if (n > 4 && !strcmp(b + n - 4, ".ini"))
            n -= 4;
        p->name = pb_xstrndup(b, n);
        if (!valid_name(p->name, "_.-")) {
            free(p->name);
            p->name = pb_xstrdup("plan");
        }
    }
    if (c->vals[1])
        p->description = pb_xstrdup(c->vals[1]);
    p->pool = pb_xstrdup(c->vals[2] ? c->vals[2] : "poolbench");
    if (!valid_name(p->pool, "_.-:") || strlen(p->pool) > 200 ||
        !strncmp(p->pool, "mirror", 6) || !strncmp(p->pool, "raidz", 5) ||
        !strncmp(p->pool, "spare", 5) || !strncmp(p->pool, "log", 3) ||
        !strncmp(p->pool, "cache", 5))
        return fail(c, c->plan_line[2], "bad pool name '%s'", p->pool);
    if (c->vals[3]) {
        int z = !strcmp(c->vals[3], "zvol")      ? 1
                : !strcmp(c->vals[3], "dataset") ? 0
                                                   : -1;
        if (z < 0)
            return fail(c, c->plan_line[3], "kind must be dataset or zvol, "
                        "got '%s'", c->vals[3]);
        if (p->zvol >= 0 && p->zvol != z)
            return fail(c, c->plan_line[3], "kind = %s but the plan has a "
                        "[%s] section", c->vals[3],
                        p->zvol ? "zvol" : "dataset");
        p->zvol = z;
    }
    if (p->zvol < 0)
        p->zvol = 0;
    p->repeats = 1;
    if (c->vals[4] && !strcmp(c->vals[4], "auto")) {
        p->repeats_auto = 1;
    } else if (c->vals[4]) {
        char *end;
        long r = strtol(c->vals[4], &end, 10);
        if (*end || end == c->vals[4] || r < 1 || r > 1000)
            return fail(c, c->plan_line[4], "repeats must be 1..1000 or "
                        "auto, got '%s'", c->vals[4]);
        p->repeats = r;
    }
    if (pb_run_plan_stats(p, (const char *const *)c->vals + 11,
                          c->plan_line + 11, c->path, c->err) != PB_OK)
        return 0;
    if (c->vals[8]) {
        int stop = !strcmp(c->vals[8], "stop")       ? 1
                   : !strcmp(c->vals[8], "continue") ? 0
                                                     : -1;
        if (stop < 0)
            return fail(c, c->plan_line[8], "on_failure must be continue or "
                        "stop, got '%s'", c->vals[8]);
        p->stop_on_failure = stop;
    }
    if (c->vals[9]) {
        int skip = !strcmp(c->vals[9], "skip")    ? 1
                   : !strcmp(c->vals[9], "error") ? 0
                                                  : -1;
        if (skip < 0)
            return fail(c, c->plan_line[9], "on_unsupported must be error "
                        "or skip, got '%s'", c->vals[9]);
        p->skip_unsupported = skip;
    }
    /* a plan cannot opt itself into running commands: that consent is
     * the run's --allow-exec (no = the default, kept for old plans) */
    if (c->vals[10] && strcmp(c->vals[10], "no"))
        return fail(c, c->plan_line[10], "allow_exec = %s: a plan cannot "
                    "allow itself to run commands; the person running it "
                    "gives --allow-exec (after reading them in --dry-run)",
                    c->vals[10]);
    if (!c->vals[5])
        return fail(c, 0, "[plan] needs 'vdevs' (file:PATH:SIZE or /dev/... "
                    "list)");
    if (parse_vdevs(c, "vdevs", c->vals[5], c->plan_line[5], &p->data) ||
        (c->vals[6] && parse_vdevs(c, "log_vdevs", c->vals[6],
                                     c->plan_line[6], &p->log)) ||
        (c->vals[7] && parse_vdevs(c, "cache_vdevs", c->vals[7],
                                     c->plan_line[7], &p->cache)))
        return 0;
    if (p->data.n == 0)
        return fail(c, c->plan_line[5], "'vdevs' lists no vdev");
    /* a path used twice would be two vdevs on one file */
    struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < lists[a]->n; i++)
            for (int b = a; b < 3; b++)
                for (size_t j = (a == b ? i + 1 : 0); j < lists[b]->n; j++)
                    if (!strcmp(lists[a]->v[i].canon ? lists[a]->v[i].canon
                                                     : lists[a]->v[i].path,
                                lists[b]->v[j].canon ? lists[b]->v[j].canon
                                                     : lists[b]->v[j].path))
                        return fail(c, lists[b]->v[j].line, "vdev '%s' is "
                                    "listed twice", lists[b]->v[j].path);
    if (!validate_axes(c))
        return 0;
    if (pb_run_hosts_finish(p, c->err) != 0)
        return 0;
    /* the matrix */
    /* counted in double: a size_t product wraps (2^64 cells gave 0) */
    double cells = 1;
    long over = 0;
    for (int s = 0; s < PB_RUN_NSECT; s++) {
        struct pb_run_section *sec = &p->sect[s];
        double combos = 1;
        for (size_t i = 0; i < sec->n; i++) {
            combos *= (double)sec->ax[i].nvals;
            cells *= (double)sec->ax[i].nvals;
            if (cells > MAX_CELLS && !over)
                over = sec->ax[i].line;
        }
        sec->ncombos = combos > MAX_CELLS ? 0 : (size_t)combos;
    }
    if (cells > MAX_CELLS)
        return fail(c, over, cells < 1e21 ? "the plan has %.0f cells; at "
                    "most %d" : "the plan has %.3g cells; at most %d",
                    cells, MAX_CELLS);
    p->ncells = (size_t)cells;
    return 1;
}

int pb_run_plan_parse(const char *path, const char *text,
                      struct pb_run_plan **out, struct pb_err *err)
{
    *out = NULL;
    if (pb_run_plan_text_check(path, text, err) != PB_OK)
        return err->code;
    struct pb_run_plan *p = pb_xcalloc(1, sizeof(*p));
    p->path = pb_xstrdup(path);
    p->zvol = -1;
    p->time_scale = 1;
    struct pb_ini_reader rd = {text, 0, 0, 0};
    struct parse_ctx c = {0};
    c.plan = p;
    c.rd = &rd;
    c.err = err;
    c.path = path;
        int rc = ini_parse_stream(pb_ini_read_line, &rd, on_pair, &c);
    if (!err->code && rd.toolong)
        pb_err_set(err, PB_EUSAGE, path, rd.toolong, 0,
                   "line is longer than %d characters (continue a value on "
                   "indented lines)", 196);
    else if (rc > 0 && (!err->code || rc < err->line)) {
        pb_err_clear(err);
        pb_err_set(err, PB_EUSAGE, path, rc, 0,
                   "syntax error: expected [section], key = value or a "
                   "comment");
    } else if (rc < 0 && !err->code) {
        pb_err_set(err, PB_EIO, path, 0, 0, "cannot read the plan");
    }
    if (!err->code)
        finish(&c);
    for (size_t i = 0; i < sizeof(c.vals) / sizeof(c.vals[0]); i++)
        free(c.vals[i]);
    if (err->code) {
        pb_run_plan_free(p);
        return err->code;
    }
    *out = p;
    return PB_OK;
}

int pb_run_plan_load(const char *path, struct pb_run_plan **out,
                     struct pb_err *err)
{
    *out = NULL;
    char *buf;
    size_t len;
    if (pb_read_file(path, &buf, &len, err) != PB_OK)
        return err->code;
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        pb_err_set(err, PB_EUSAGE, path, pb_line_of(buf, (size_t)(nul - buf)),
                   0, "NUL byte in the plan (not a text file)");
        free(buf);
        return err->code;
    }
    int rc = pb_run_plan_parse(path, buf, out, err);
    free(buf);
    return rc;
}

void pb_run_vdevs_release(struct pb_run_vdevs *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->v[i].path);
        free(v->v[i].dev);
        free(v->v[i].canon);
    }
    free(v->v);
}

void pb_run_plan_free(struct pb_run_plan *p)
{
    if (!p)
        return;
    for (int s = 0; s < PB_RUN_NSECT; s++) {
        for (size_t i = 0; i < p->sect[s].n; i++) {
            struct pb_run_axis *a = &p->sect[s].ax[i];
            for (size_t j = 0; j < a->nvals; j++)
                free(a->vals[j]);
            free(a->vals);
            free(a->key);
        }
        free(p->sect[s].ax);
    }
    pb_run_vdevs_release(&p->data);
    pb_run_vdevs_release(&p->log);
    pb_run_vdevs_release(&p->cache);
    pb_run_hosts_release(&p->hosts);
    free(p->path);
    free(p->name);
    free(p->description);
    free(p->pool);
    free(p);
}

const char *pb_run_plan_name(const struct pb_run_plan *p)
{
    return p->name;
}

size_t pb_run_plan_ncells(const struct pb_run_plan *p)
{
    return p->ncells;
}
