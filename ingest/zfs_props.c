/* ZFS command output into a result set: `zfs get` (human, -p, -H, -Hp),
 * `zfs list` (default columns, -o, -p, -H), `zpool status`, `zpool list`
 * (with or without -v), `zpool get` (human, -p, -H). One file may hold
 * several of them one after the other (with junk lines between).
 *
 * Model mapping:
 *   - Datasets: one config per dataset, label = dataset name ("tank/vm").
 *     Its config_param are the dataset properties that are experiment
 *     dimensions: recordsize and volblocksize (in bytes, "128K" ->
 *     "131072"), compression, sync, primarycache, atime, logbias, dedup,
 *     copies (lowercase, as printed). Results of test "zfs space" (tool
 *     "zfs"): compressratio (ratio, higher), used (B, lower), logicalused
 *     (B, higher: the logical size of what was written, a workload size
 *     more than a score), referenced (B, lower), available (B, higher), and
 *     the derived actual_savings = logicalused / used (ratio, higher) when
 *     both are known and used > 0, flagged by the fact (host NULL)
 *     "<dataset>:actual_savings" = "derived: logicalused/used". Every other
 *     property is a fact "<dataset>:<property>" with host NULL.
 *   - Pools: one config per pool, label = pool name (the pool's root
 *     dataset shares it). From the vdev tree of `zpool status` or
 *     `zpool list -v`: config_param layout ("stripe", "mirror", "raidz2",
 *     "draid1", "2x mirror" for two mirror vdevs, "mirror+stripe" when
 *     mixed), vdevs (number of data vdevs), slog and l2arc ("yes"/"no"),
 *     and from `zpool get` ashift (when not 0). Datasets of a pool seen in
 *     the same file get those pool dimensions too. Facts "pool:<pool>:<key>"
 *     for state, status, action, see, scan, errors, disks_per_vdev,
 *     log_vdevs, cache_vdevs, spares (special_vdevs, dedup_vdevs when
 *     present) and every pool property that is no metric.
 *     Results of test "zpool space" (tool "zpool"): size (B, higher),
 *     allocated (B, lower), free (B, higher), fragmentation (%, lower),
 *     capacity (%, lower), dedupratio (ratio, higher); of test
 *     "zpool status": read_errors, write_errors, cksum_errors (count,
 *     lower), summed over the leaf devices.
 *   - Host and job are NULL: these outputs do not name the machine.
 *   - Sizes use ZFS's binary suffixes (K = 1024); "-", "none" and empty
 *     values are absent, not 0. Ratios lose their "x", percentages their
 *     "%". When a value appears twice in one file, the last one wins.
 *   - A file yielding no result at all is rejected (a pool status without
 *     its vdev table, a `zfs get` of properties that are no metric).
 */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)

/* ==== property tables ==== */

enum vkind { V_SIZE, V_RATIO, V_PCT, V_COUNT };

struct mdef {
    const char *prop; /* property name = metric name */
    const char *unit;
    int dir;
    enum vkind kind;
};

static const struct mdef ds_metrics[] = {
    {"compressratio", "ratio", PB_DIR_HIGHER, V_RATIO},
    {"used", "B", PB_DIR_LOWER, V_SIZE},
    {"logicalused", "B", PB_DIR_HIGHER, V_SIZE},
    {"referenced", "B", PB_DIR_LOWER, V_SIZE},
    {"available", "B", PB_DIR_HIGHER, V_SIZE},
};
#define N_DSM (sizeof(ds_metrics) / sizeof(ds_metrics[0]))
enum { DSM_RATIO, DSM_USED, DSM_LUSED };

static const struct mdef pool_metrics[] = {
    {"size", "B", PB_DIR_HIGHER, V_SIZE},
    {"allocated", "B", PB_DIR_LOWER, V_SIZE},
    {"free", "B", PB_DIR_HIGHER, V_SIZE},
    {"fragmentation", "%", PB_DIR_LOWER, V_PCT},
    {"capacity", "%", PB_DIR_LOWER, V_PCT},
    {"dedupratio", "ratio", PB_DIR_HIGHER, V_RATIO},
};
#define N_PM (sizeof(pool_metrics) / sizeof(pool_metrics[0]))

static const char *const err_metrics[3] = {"read_errors", "write_errors",
                                           "cksum_errors"};

#define MAX_M 12 /* slots per object: N_PM + 3 error counters */

/* Dataset properties stored as config dimensions; sizes in bytes. */
static const struct {
    const char *prop;
    int is_size;
} ds_params[] = {
    {"recordsize", 1},   {"volblocksize", 1}, {"compression", 0},
    {"sync", 0},         {"primarycache", 0}, {"atime", 0},
    {"logbias", 0},      {"dedup", 0},        {"copies", 0},
};

/* Properties only pools have (zpool get). */
static const char *const zpool_only[] = {
    "size",          "capacity",      "altroot",       "health",
    "bootfs",        "delegation",    "autoreplace",   "cachefile",
    "failmode",      "listsnapshots", "autoexpand",    "dedupditto",
    "dedupratio",    "free",          "allocated",     "ashift",
    "comment",       "expandsize",    "freeing",       "fragmentation",
    "leaked",        "multihost",     "checkpoint",    "load_guid",
    "autotrim",      "compatibility", "bcloneused",    "bclonesaved",
    "bcloneratio",   "maxblocksize",  "maxdnodesize",  "tname",
    "last_scrubbed_txg", "dedup_table_size", "dedup_table_quota",
    "dedupcached",   NULL};

/* Properties only datasets have (zfs get); the common ones. */
static const char *const zfs_only[] = {
    "type",           "creation",          "used",
    "available",      "referenced",        "compressratio",
    "mounted",        "quota",             "reservation",
    "recordsize",     "mountpoint",        "sharenfs",
    "checksum",       "compression",       "atime",
    "devices",        "exec",              "setuid",
    "zoned",          "jailed",            "snapdir",
    "aclmode",        "aclinherit",        "createtxg",
    "canmount",       "xattr",             "copies",
    "utf8only",       "normalization",     "casesensitivity",
    "vscan",          "nbmand",            "sharesmb",
    "refquota",       "refreservation",    "primarycache",
    "secondarycache", "usedbysnapshots",   "usedbydataset",
    "usedbychildren", "usedbyrefreservation", "logbias",
    "objsetid",       "dedup",             "mlslabel",
    "sync",           "dnodesize",         "refcompressratio",
    "written",        "logicalused",       "logicalreferenced",
    "volmode",        "filesystem_limit",  "snapshot_limit",
    "filesystem_count", "snapshot_count",  "snapdev",
    "acltype",        "context",           "fscontext",
    "defcontext",     "rootcontext",       "relatime",
    "redundant_metadata", "overlay",       "encryption",
    "keylocation",    "keyformat",         "pbkdf2iters",
    "encryptionroot", "keystatus",         "special_small_blocks",
    "snapshots_changed", "volsize",        "volblocksize",
    "origin",         "clones",            "defer_destroy",
    "userrefs",       "prefetch",          "direct",
    "longname",       "receive_resume_token", "redact_snaps",
    NULL};

/* In both tables: pools and datasets have them. */
static const char *const both_props[] = {"guid", "version", "readonly",
                                         NULL};

/* zfs list column headers that are not the property name in capitals. */
static const struct {
    const char *col, *prop;
} zfs_cols[] = {
    {"AVAIL", "available"},
    {"REFER", "referenced"},
    {"RATIO", "compressratio"},
    {"REFRATIO", "refcompressratio"},
    {"LUSED", "logicalused"},
    {"LREFER", "logicalreferenced"},
    {"RECSIZE", "recordsize"},
    {"VOLBLOCK", "volblocksize"},
    {"COMPRESS", "compression"},
    {"RESERV", "reservation"},
    {"REFRESERV", "refreservation"},
    {"RDONLY", "readonly"},
    {"CASE", "casesensitivity"},
    {"DNSIZE", "dnodesize"},
    {"ENCROOT", "encryptionroot"},
    {"REDUND_MD", "redundant_metadata"},
    {"FSLIMIT", "filesystem_limit"},
    {"SSLIMIT", "snapshot_limit"},
    {"FSCOUNT", "filesystem_count"},
    {"SSCOUNT", "snapshot_count"},
    {"USEDSNAP", "usedbysnapshots"},
    {"USEDDS", "usedbydataset"},
    {"USEDCHILD", "usedbychildren"},
    {"USEDREFRESERV", "usedbyrefreservation"},
    {"KEYSTATUS", "keystatus"},
};

/* zpool list column headers. */
static const struct {
    const char *col, *prop;
} zpool_cols[] = {
    {"SIZE", "size"},           {"ALLOC", "allocated"},
    {"FREE", "free"},           {"CKPOINT", "checkpoint"},
    {"EXPANDSZ", "expandsize"}, {"FRAG", "fragmentation"},
    {"CAP", "capacity"},        {"DEDUP", "dedupratio"},
    {"HEALTH", "health"},       {"ALTROOT", "altroot"},
};

/* Headers that only `zfs list` prints (zpool list never does). */
static const char *const zfs_list_marks[] = {
    "USED",  "AVAIL",    "REFER",  "RATIO",  "LUSED",   "LREFER",
    "MOUNTPOINT", "RECSIZE", "COMPRESS", "VOLBLOCK", "USEDSNAP",
    "USEDDS", "TYPE", "CREATION", "ORIGIN", "VOLSIZE", "QUOTA",
    "REFQUOTA", "MOUNTED", NULL};

/* Headers that only `zpool list` prints. */
static const char *const zpool_list_marks[] = {
    "SIZE", "ALLOC", "FREE", "CKPOINT", "EXPANDSZ", "FRAG", "CAP",
    "HEALTH", "ALTROOT", NULL};

static const char *const class_names[] = {"logs", "log", "cache", "spares",
                                          "spare", "special", "dedup", NULL};

static int in_list(const char *const *list, const char *s, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], s, n))
            return 1;
    return 0;
}

static int has_prefix(const char *s, size_t n, const char *pre)
{
    size_t k = strlen(pre);
    return n > k && !memcmp(s, pre, k);
}

static int is_zpool_only(const char *s, size_t n)
{
    return in_list(zpool_only, s, n) || has_prefix(s, n, "feature@") ||
           has_prefix(s, n, "unsupported@");
}

static int is_zfs_only(const char *s, size_t n)
{
    return in_list(zfs_only, s, n) || has_prefix(s, n, "userused@") ||
           has_prefix(s, n, "groupused@") || has_prefix(s, n, "userquota@") ||
           has_prefix(s, n, "groupquota@") || has_prefix(s, n, "written@") ||
           has_prefix(s, n, "projectused@") ||
           has_prefix(s, n, "projectquota@");
}

static int is_known_prop(const char *s, size_t n)
{
    return is_zpool_only(s, n) || is_zfs_only(s, n) ||
           in_list(both_props, s, n);
}

/* Property name syntax: native (a-z0-9_), feature@x, user props a:b. */
static int is_prop_name(const char *s, size_t n)
{
    if (n == 0 || n > 256 || !islower((unsigned char)s[0]))
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!isalnum(c) && !strchr("_.:@-+", c))
            return 0;
    }
    return 1;
}

/* ==== lines and tokens ==== */

struct line {
    char *s; /* NUL-terminated, '\r' stripped; points into ctx->text */
    long no; /* 1-based */
};

struct tok {
    const char *s; /* into the line; not NUL-terminated */
    size_t n;
    size_t off; /* offset in the line */
};

struct toks {
    struct tok *t;
    size_t n, cap;
};

static void split_ws(const char *line, struct toks *tk)
{
    tk->n = 0;
    const char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ' ' && *q != '\t')
            q++;
        PB_GROW(tk->t, tk->cap, tk->n + 1);
        tk->t[tk->n].s = p;
        tk->t[tk->n].n = (size_t)(q - p);
        tk->t[tk->n].off = (size_t)(p - line);
        tk->n++;
        p = q;
    }
}

/* Fields separated by single tabs (the -H form). */
static void split_tabs(const char *line, struct toks *tk)
{
    tk->n = 0;
    const char *p = line;
    for (;;) {
        const char *q = strchr(p, '\t');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        PB_GROW(tk->t, tk->cap, tk->n + 1);
        tk->t[tk->n].s = p;
        tk->t[tk->n].n = n;
        tk->t[tk->n].off = (size_t)(p - line);
        tk->n++;
        if (!q)
            break;
        p = q + 1;
    }
}

static int tokeq(const struct tok *t, const char *s)
{
    return strlen(s) == t->n && !memcmp(t->s, s, t->n);
}

static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

/* Display column of the first non-blank char (tabs to multiples of 8). */
static int indent_of(const char *s)
{
    int col = 0;
    for (; *s == ' ' || *s == '\t'; s++)
        col = *s == '\t' ? (col / 8 + 1) * 8 : col + 1;
    return col;
}

/* A `zpool status` field line such as "  pool: tank" or "config:": up to
 * seven spaces (never a tab), a lowercase word, a colon, then a space or
 * the end. On success key and klen name the word, val the rest. */
static int status_key(const char *s, const char **key, size_t *klen,
                      const char **val)
{
    size_t sp = 0;
    while (s[sp] == ' ')
        sp++;
    if (sp > 7)
        return 0;
    const char *k = s + sp, *p = k;
    while (islower((unsigned char)*p) || *p == '_')
        p++;
    if (p == k || p - k > 12 || *p != ':' || (p[1] != ' ' && p[1] != '\0'))
        return 0;
    *key = k;
    *klen = (size_t)(p - k);
    const char *v = p + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    *val = v;
    return 1;
}

static int is_key(const char *s, const char *want, const char **val)
{
    const char *k, *v;
    size_t n;
    if (!status_key(s, &k, &n, &v) || strlen(want) != n ||
        memcmp(k, want, n) != 0)
        return 0;
    if (val)
        *val = v;
    return 1;
}

/* Shell prompts, comments and commands between outputs end a table. */
static int is_prompt(const struct toks *tk)
{
    if (tk->n == 0)
        return 0;
    const struct tok *t = &tk->t[0];
    char last = t->s[t->n - 1];
    if (t->s[0] == '#' || last == '$' || last == '#' || last == '%')
        return 1;
    /* "zpool status -v", "sudo zfs get all": a pool may be named "zpool",
     * so the word after it must be a subcommand or an option */
    static const char *const sub[] = {
        "get",    "list",   "status", "iostat", "history", "set",
        "create", "import", "export", "destroy", "scrub",
        "zfs",    "zpool",  NULL};
    if ((tokeq(t, "zfs") || tokeq(t, "zpool") || tokeq(t, "sudo")) &&
        tk->n >= 2 &&
        (tk->t[1].s[0] == '-' || in_list(sub, tk->t[1].s, tk->t[1].n)))
        return 1;
    return 0;
}

/* ==== headers ==== */

enum hkind { H_NONE, H_GET, H_ZFS_LIST, H_ZPOOL_LIST, H_STATUS_CFG };

static int all_caps(const struct tok *t)
{
    for (size_t i = 0; i < t->n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        if (!isupper(c) && !isdigit(c) && c != '_' && c != '@' && c != ':')
            return 0;
    }
    return t->n > 0;
}

/* What a line starting with NAME is a header of. */
static enum hkind header_kind(const struct toks *tk)
{
    if (tk->n < 2 || !tokeq(&tk->t[0], "NAME"))
        return H_NONE;
    for (size_t i = 1; i < tk->n; i++)
        if (!all_caps(&tk->t[i]))
            return H_NONE;
    int prop = 0, value = 0, zfs = 0, zpool = 0;
    for (size_t i = 1; i < tk->n; i++) {
        const struct tok *t = &tk->t[i];
        if (tokeq(t, "PROPERTY"))
            prop = 1;
        else if (tokeq(t, "VALUE"))
            value = 1;
        else if (tokeq(t, "STATE"))
            return tk->n >= 3 ? H_STATUS_CFG : H_NONE;
        else if (in_list(zfs_list_marks, t->s, t->n))
            zfs = 1;
        else if (in_list(zpool_list_marks, t->s, t->n))
            zpool = 1;
    }
    if (prop && value)
        return H_GET;
    if (prop || value)
        return H_NONE;
    if (zpool)
        return H_ZPOOL_LIST;
    if (zfs)
        return H_ZFS_LIST;
    return H_NONE;
}

/* ==== objects ==== */

enum okind { O_DS, O_POOL };

struct obj {
    int kind;
    const char *name; /* arena */
    size_t config;
    int have[MAX_M];
    double v[MAX_M];
    long line[MAX_M];
    int have_tree; /* pool: layout known */
};

struct getrow {
    const char *name, *prop, *value; /* scratch arena */
    long line, col;
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    char *text; /* writable copy of the input */
    struct line *lines;
    size_t nlines, caplines;
    int unterminated; /* the last line has no '\n' */
    struct pb_arena scratch;
    struct obj *objs;
    size_t nobjs, capobjs;
    size_t last_obj;
    struct toks tk;
    struct getrow *rows;
    size_t nrows, caprows;
    long first_section; /* line of the first recognised output */
};

static struct obj *get_obj(struct ctx *c, int kind, const char *name,
                           size_t n)
{
    if (c->last_obj < c->nobjs) {
        struct obj *o = &c->objs[c->last_obj];
        if (o->kind == kind && strlen(o->name) == n &&
            !memcmp(o->name, name, n))
            return o;
    }
    for (size_t i = 0; i < c->nobjs; i++) {
        struct obj *o = &c->objs[i];
        if (o->kind == kind && strlen(o->name) == n &&
            !memcmp(o->name, name, n)) {
            c->last_obj = i;
            return o;
        }
    }
    PB_GROW(c->objs, c->capobjs, c->nobjs + 1);
    struct obj *o = &c->objs[c->nobjs];
    memset(o, 0, sizeof(*o));
    o->kind = kind;
    o->name = pb_arena_strndup(&c->set->arena, name, n);
    o->config = pb_rs_config(c->set, o->name);
    /* "zroot/var/log" names a dataset; it does not describe a slog. */
    c->set->configs[o->config].label_is_name = 1;
    c->last_obj = c->nobjs++;
    return o;
}

static const char *cfg_get(const struct pb_resultset *set, size_t config,
                           const char *key)
{
    const struct pb_config *cf = &set->configs[config];
    for (size_t i = 0; i < cf->nparams; i++)
        if (!strcmp(cf->params[i].key, key))
            return cf->params[i].value;
    return NULL;
}

/* ==== values ==== */

static int absent(const char *v)
{
    return *v == '\0' || !strcmp(v, "-") || !strcmp(v, "none");
}

/* Number with an optional suffix char (x or %), nothing else. */
static int parse_plain(const char *s, char suffix, double *out)
{
    if (!isdigit((unsigned char)*s) && *s != '.')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
        return -1;
    if (*end == suffix && suffix)
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int parse_value(enum vkind kind, const char *s, double *out)
{
    switch (kind) {
    case V_SIZE:
    case V_COUNT:
        /* hex and exponents are no ZFS sizes */
        for (const char *p = s; *p; p++)
            if (*p == 'x' || *p == 'X' || (*p == 'e' && p[1] != '\0'))
                return -1;
        if (pb_parse_size(s, 0, out) != 0 || !isfinite(*out))
            return -1;
        return 0;
    case V_RATIO:
        return parse_plain(s, 'x', out);
    case V_PCT:
        return parse_plain(s, '%', out);
    }
    return -1;
}

static const char *kind_word(enum vkind k)
{
    switch (k) {
    case V_SIZE:
        return "size";
    case V_RATIO:
        return "ratio";
    case V_PCT:
        return "percentage";
    case V_COUNT:
        return "count";
    }
    return "value";
}

static void lower_copy(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[n] = '\0';
}

/* Store one property of a dataset or pool: metric, dimension or fact. */
static int put_prop(struct ctx *c, int kind, const char *name,
                    const char *prop, const char *value, long line, long col)
{
    struct obj *o = get_obj(c, kind, name, strlen(name));
    struct pb_resultset *set = c->set;
    const struct mdef *m = kind == O_DS ? ds_metrics : pool_metrics;
    size_t nm = kind == O_DS ? N_DSM : N_PM;
    for (size_t i = 0; i < nm; i++) {
        if (strcmp(m[i].prop, prop) != 0)
            continue;
        if (absent(value))
            return PB_OK;
        double v;
        if (parse_value(m[i].kind, value, &v) != 0)
            return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                              "bad %s \"%.40s\" for '%s' of \"%.80s\"",
                              kind_word(m[i].kind), value, prop, name);
        o->have[i] = 1;
        o->v[i] = v;
        o->line[i] = line;
        return PB_OK;
    }
    if (kind == O_DS) {
        for (size_t i = 0; i < sizeof(ds_params) / sizeof(ds_params[0]);
             i++) {
            if (strcmp(ds_params[i].prop, prop) != 0)
                continue;
            if (absent(value))
                return PB_OK;
            double v;
            char num[64];
            if (ds_params[i].is_size &&
                parse_value(V_SIZE, value, &v) == 0) {
                pb_rs_config_param(set, o->config, prop,
                                   pb_fmt_num(v, num, sizeof(num)));
            } else {
                size_t n = strlen(value);
                char *low = pb_arena_alloc(&c->scratch, n + 1);
                lower_copy(low, value, n);
                pb_rs_config_param(set, o->config, prop, low);
            }
            return PB_OK;
        }
        char *key = pb_arena_printf(&c->scratch, "%s:%s", name, prop);
        pb_rs_fact(set, NULL, key, value);
        return PB_OK;
    }
    if (!strcmp(prop, "ashift") && !absent(value) && strcmp(value, "0")) {
        double v;
        if (parse_plain(value, 0, &v) == 0) {
            pb_rs_config_param(set, o->config, "ashift", value);
            return PB_OK;
        }
    }
    char *key = pb_arena_printf(&c->scratch, "pool:%s:%s", name, prop);
    pb_rs_fact(set, NULL, key, value);
    return PB_OK;
}

/* ==== zfs get / zpool get ==== */

static void add_row(struct ctx *c, const char *name, size_t nn,
                    const char *prop, size_t np, const char *value,
                    size_t nv, long line, long col)
{
    PB_GROW(c->rows, c->caprows, c->nrows + 1);
    struct getrow *r = &c->rows[c->nrows++];
    r->name = pb_arena_strndup(&c->scratch, name, nn);
    r->prop = pb_arena_strndup(&c->scratch, prop, np);
    r->value = pb_arena_strndup(&c->scratch, value, nv);
    r->line = line;
    r->col = col;
}

/* Counts of pool-only and dataset-only properties per name of a block. */
struct nameclass {
    const char *name; /* NULL: empty slot */
    int zp, zf;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static struct nameclass *class_slot(struct nameclass *tab, size_t cap,
                                    const char *name)
{
    size_t i = (size_t)hash_str(name) & (cap - 1);
    while (tab[i].name && strcmp(tab[i].name, name) != 0)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* Decide, per name, whether the collected rows are `zpool get` or
 * `zfs get` output, and store them. */
static int flush_rows(struct ctx *c)
{
    size_t cap = 16;
    while (cap < c->nrows * 2)
        cap *= 2;
    struct nameclass *tab = pb_xcalloc(cap, sizeof(*tab));
    for (size_t i = 0; i < c->nrows; i++) {
        const struct getrow *r = &c->rows[i];
        struct nameclass *nc = class_slot(tab, cap, r->name);
        nc->name = r->name;
        size_t n = strlen(r->prop);
        nc->zp += is_zpool_only(r->prop, n);
        nc->zf += is_zfs_only(r->prop, n);
    }
    int rc = PB_OK;
    for (size_t i = 0; i < c->nrows && rc == PB_OK; i++) {
        const struct getrow *r = &c->rows[i];
        const struct nameclass *nc = class_slot(tab, cap, r->name);
        int kind;
        if (nc->zp && !nc->zf)
            kind = O_POOL;
        else if (nc->zp && nc->zf)
            kind = is_zpool_only(r->prop, strlen(r->prop)) ? O_POOL : O_DS;
        else
            kind = O_DS;
        rc = put_prop(c, kind, r->name, r->prop, r->value, r->line, r->col);
    }
    free(tab);
    c->nrows = 0;
    return rc;
}

static int valid_source(const struct tok *t)
{
    return tokeq(t, "-") || tokeq(t, "default") || tokeq(t, "local") ||
           tokeq(t, "temporary") || tokeq(t, "received") ||
           tokeq(t, "none");
}

/* Rows of a `zfs get`/`zpool get` table whose header is line h. Columns
 * before VALUE are single words; SOURCE may be "inherited from X";
 * VALUE is what is left between them and may hold spaces or be empty. */
static int get_table(struct ctx *c, size_t h, size_t *next)
{
    struct toks *tk = &c->tk;
    split_ws(c->lines[h].s, tk);
    enum { C_NAME, C_PROP, C_VALUE, C_SOURCE, C_RECEIVED, C_OTHER };
    int cols[16];
    size_t ncols = tk->n < 16 ? tk->n : 16, ivalue = 0;
    for (size_t i = 0; i < ncols; i++) {
        const struct tok *t = &tk->t[i];
        cols[i] = tokeq(t, "NAME")       ? C_NAME
                  : tokeq(t, "PROPERTY") ? C_PROP
                  : tokeq(t, "VALUE")    ? C_VALUE
                  : tokeq(t, "SOURCE")   ? C_SOURCE
                  : tokeq(t, "RECEIVED") ? C_RECEIVED
                                         : C_OTHER;
        if (cols[i] == C_VALUE)
            ivalue = i;
    }
    size_t after = ncols - ivalue - 1;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (is_blank(L->s) || is_key(L->s, "pool", NULL))
            break;
        split_ws(L->s, tk);
        if (is_prompt(tk) || header_kind(tk) != H_NONE)
            break;
        size_t need = ivalue + after;
        if (tk->n < need || tk->n < 2)
            return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                              "truncated row for \"%.*s\"",
                              (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n),
                              tk->t[0].s);
        const struct tok *name = NULL, *prop = NULL;
        for (size_t k = 0; k < ivalue; k++) {
            if (cols[k] == C_NAME)
                name = &tk->t[k];
            else if (cols[k] == C_PROP)
                prop = &tk->t[k];
        }
        /* columns after VALUE, from the end */
        size_t end = tk->n; /* tokens [ivalue, end) hold the value */
        for (size_t k = ncols; k-- > ivalue + 1;) {
            if (cols[k] == C_SOURCE && end >= ivalue + 3 &&
                tokeq(&tk->t[end - 3], "inherited") &&
                tokeq(&tk->t[end - 2], "from")) {
                end -= 3;
            } else if (cols[k] == C_SOURCE) {
                const struct tok *s = &tk->t[end - 1];
                if (!valid_source(s))
                    return pb_err_set(
                        c->err, PB_EINPUT, c->path, L->no,
                        (long)s->off + 1,
                        "bad source \"%.*s\" for property '%.*s'",
                        (int)(s->n > 40 ? 40 : s->n), s->s,
                        prop ? (int)(prop->n > 60 ? 60 : prop->n) : 1,
                        prop ? prop->s : "?");
                end--;
            } else {
                end--;
            }
            if (end < ivalue)
                return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                                  "truncated row");
        }
        if (!name || !prop)
            return pb_err_set(c->err, PB_EINPUT, c->path, c->lines[h].no, 0,
                              "unsupported get columns: NAME and PROPERTY "
                              "must come before VALUE");
        if (!is_prop_name(prop->s, prop->n))
            return pb_err_set(c->err, PB_EINPUT, c->path, L->no,
                              (long)prop->off + 1,
                              "bad property name \"%.*s\"",
                              (int)(prop->n > 60 ? 60 : prop->n), prop->s);
        const char *vs = "";
        size_t vn = 0, voff = ivalue < tk->n ? tk->t[ivalue].off : 0;
        if (end > ivalue) {
            vs = tk->t[ivalue].s;
            vn = (size_t)(tk->t[end - 1].s + tk->t[end - 1].n - vs);
        }
        add_row(c, name->s, name->n, prop->s, prop->n, vs, vn, L->no,
                (long)voff + 1);
    }
    *next = i;
    return flush_rows(c);
}

/* A `zfs get -H`/`zpool get -H` line: name, property, value[, source]
 * separated by tabs. strict: the property must be a known one. */
static int h_get_line(const char *s, struct toks *tk, int strict)
{
    if (!strchr(s, '\t'))
        return 0;
    split_tabs(s, tk);
    if (tk->n != 4 && tk->n != 3)
        return 0;
    const struct tok *name = &tk->t[0], *prop = &tk->t[1];
    if (name->n == 0 || name->s[0] == ' ' || !is_prop_name(prop->s, prop->n))
        return 0;
    if (strict && !is_known_prop(prop->s, prop->n))
        return 0;
    return 1;
}

static int h_get_run(struct ctx *c, size_t first, size_t *next)
{
    struct toks *tk = &c->tk;
    size_t i;
    for (i = first; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (!h_get_line(L->s, tk, 0))
            break;
        add_row(c, tk->t[0].s, tk->t[0].n, tk->t[1].s, tk->t[1].n,
                tk->t[2].s, tk->t[2].n, L->no, (long)tk->t[2].off + 1);
    }
    *next = i;
    return flush_rows(c);
}

/* ==== zfs list ==== */

static const char *zfs_col_prop(struct ctx *c, const struct tok *t)
{
    for (size_t i = 0; i < sizeof(zfs_cols) / sizeof(zfs_cols[0]); i++)
        if (tokeq(t, zfs_cols[i].col))
            return zfs_cols[i].prop;
    char *p = pb_arena_alloc(&c->scratch, t->n + 1);
    lower_copy(p, t->s, t->n);
    return p;
}

static const char *zpool_col_prop(struct ctx *c, const struct tok *t)
{
    for (size_t i = 0; i < sizeof(zpool_cols) / sizeof(zpool_cols[0]); i++)
        if (tokeq(t, zpool_cols[i].col))
            return zpool_cols[i].prop;
    char *p = pb_arena_alloc(&c->scratch, t->n + 1);
    lower_copy(p, t->s, t->n);
    return p;
}

/* One table row split into ncols values: a '#' word past the last column
 * starts a hand-written comment; other extra words belong to CREATION
 * (a date with spaces) or else to the last column. */
static int fit_row(struct ctx *c, const struct line *L, const char **props,
                   size_t ncols, const char **vals, long *vcols)
{
    struct toks *tk = &c->tk;
    size_t n = tk->n;
    for (size_t k = ncols; k < n; k++) {
        if (tk->t[k].s[0] == '#') {
            n = k;
            break;
        }
    }
    if (n < ncols)
        return pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                          "row \"%.*s\" has %zu columns, header has %zu",
                          (int)(tk->t[0].n > 80 ? 80 : tk->t[0].n),
                          tk->t[0].s, n, ncols);
    size_t wide = ncols - 1, extra = n - ncols;
    for (size_t k = 0; k < ncols; k++)
        if (!strcmp(props[k], "creation"))
            wide = k;
    size_t t = 0;
    for (size_t k = 0; k < ncols; k++) {
        size_t span = k == wide ? extra + 1 : 1;
        const struct tok *a = &tk->t[t], *b = &tk->t[t + span - 1];
        vals[k] = pb_arena_strndup(&c->scratch, a->s,
                                   (size_t)(b->s + b->n - a->s));
        vcols[k] = (long)a->off + 1;
        t += span;
    }
    return PB_OK;
}

static int list_table(struct ctx *c, size_t h, size_t *next, int pool)
{
    struct toks *tk = &c->tk;
    split_ws(c->lines[h].s, tk);
    size_t ncols = tk->n;
    const char **props = pb_arena_alloc(&c->scratch, ncols * sizeof(*props));
    const char **vals = pb_arena_alloc(&c->scratch, ncols * sizeof(*vals));
    long *vcols = pb_arena_alloc(&c->scratch, ncols * sizeof(*vcols));
    for (size_t k = 0; k < ncols; k++)
        props[k] = pool ? zpool_col_prop(c, &tk->t[k])
                        : zfs_col_prop(c, &tk->t[k]);
    int base = indent_of(c->lines[h].s);

    int rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (is_blank(L->s) || is_key(L->s, "pool", NULL))
            break;
        split_ws(L->s, tk);
        if (is_prompt(tk) || header_kind(tk) != H_NONE)
            break;
        int ind = indent_of(L->s) - base;
        if (pool && ind > 0)
            continue; /* vdev row of -v: see pool_list_tree() */
        if (pool && in_list(class_names, tk->t[0].s, tk->t[0].n) &&
            tk->n >= 2 && tokeq(&tk->t[1], "-"))
            continue; /* "logs  -  -  -": class heading of -v */
        rc = fit_row(c, L, props, ncols, vals, vcols);
        if (rc)
            return rc;
        for (size_t k = 1; k < ncols; k++) {
            rc = put_prop(c, pool ? O_POOL : O_DS, vals[0], props[k],
                          vals[k], L->no, vcols[k]);
            if (rc)
                return rc;
        }
    }
    *next = i;
    return rc;
}

/* ==== vdev trees (zpool status, zpool list -v) ==== */

enum { CL_DATA, CL_LOGS, CL_CACHE, CL_SPARES, CL_SPECIAL, CL_DEDUP, CL_N };

struct vrow {
    int depth;
    int cls;
    int heading; /* a class heading such as "logs" */
    const char *name; /* scratch */
    int has_cnt;
    double cnt[3];
};

static int class_of(const char *s, size_t n)
{
    if ((n == 4 && !memcmp(s, "logs", 4)) || (n == 3 && !memcmp(s, "log", 3)))
        return CL_LOGS;
    if (n == 5 && !memcmp(s, "cache", 5))
        return CL_CACHE;
    if ((n == 6 && !memcmp(s, "spares", 6)) ||
        (n == 5 && !memcmp(s, "spare", 5)))
        return CL_SPARES;
    if (n == 7 && !memcmp(s, "special", 7))
        return CL_SPECIAL;
    if (n == 5 && !memcmp(s, "dedup", 5))
        return CL_DEDUP;
    return -1;
}

/* Type of a top-level vdev from its name: mirror-0 -> mirror, raidz-0 ->
 * raidz1, draid2:4d:7c:1s-0 -> draid2; a disk -> stripe. */
static const char *vdev_type(struct ctx *c, const char *name, int group)
{
    if (!group)
        return "stripe";
    size_t n = strcspn(name, "-:");
    if (n == 5 && !memcmp(name, "raidz", 5))
        return "raidz1";
    if (n == 5 && !memcmp(name, "draid", 5))
        return "draid1";
    if ((n == 9 && !memcmp(name, "replacing", 9)) ||
        (n == 5 && !memcmp(name, "spare", 5)))
        return "stripe"; /* a single disk being replaced */
    char *t = pb_arena_alloc(&c->scratch, n + 1);
    lower_copy(t, name, n);
    return t;
}

static void pool_fact(struct ctx *c, const char *pool, const char *key,
                      const char *value)
{
    char *k = pb_arena_printf(&c->scratch, "pool:%s:%s", pool, key);
    pb_rs_fact(c->set, NULL, k, value);
}

/* Derive the layout dimensions and error sums of pool o from its rows. */
static void analyze_tree(struct ctx *c, struct obj *o, const struct vrow *r,
                         size_t n)
{
    struct pb_resultset *set = c->set;
    if (n == 0)
        return;
    /* r[0] is the pool itself; top-level vdevs are the shallowest rows
     * below it */
    int top = 0;
    for (size_t i = 1; i < n; i++)
        if (!r[i].heading && r[i].depth > 0 && (top == 0 || r[i].depth < top))
            top = r[i].depth;
    size_t ntop[CL_N] = {0};
    struct pb_buf layout = PB_BUF_INIT, widths = PB_BUF_INIT;
    const char *types[64];
    size_t ntypes = 0, tcount[64] = {0};
    int same_width = 1;
    long width0 = -1;
    double sum[3] = {0, 0, 0};
    int have_cnt = 0;
    for (size_t i = 1; i < n; i++) {
        if (r[i].heading)
            continue;
        int leaf = i + 1 >= n || r[i + 1].heading ||
                   r[i + 1].depth <= r[i].depth;
        if (leaf && r[i].has_cnt) {
            have_cnt = 1;
            for (int k = 0; k < 3; k++)
                sum[k] += r[i].cnt[k];
        }
        if (r[i].depth != top)
            continue;
        if (!strncmp(r[i].name, "indirect-", 9) ||
            !strncmp(r[i].name, "hole", 4))
            continue; /* removed vdevs leave these behind */
        ntop[r[i].cls]++;
        if (r[i].cls != CL_DATA)
            continue;
        long width = 0;
        int child = 0;
        for (size_t j = i + 1; j < n && !r[j].heading && r[j].depth > top;
             j++) {
            if (!child)
                child = r[j].depth;
            if (r[j].depth == child)
                width++;
        }
        const char *t = vdev_type(c, r[i].name, width > 0);
        if (width == 0)
            width = 1;
        if (width0 < 0)
            width0 = width;
        else if (width != width0)
            same_width = 0;
        pb_buf_printf(&widths, "%s%ld", widths.len ? "," : "", width);
        size_t k;
        for (k = 0; k < ntypes; k++)
            if (!strcmp(types[k], t))
                break;
        if (k == ntypes && ntypes < 64)
            types[ntypes++] = t;
        if (k < 64)
            tcount[k]++;
    }
    char num[32];
    if (ntop[CL_DATA] > 0) {
        if (ntypes == 1 && strcmp(types[0], "stripe") != 0 && tcount[0] > 1)
            pb_buf_printf(&layout, "%zux %s", tcount[0], types[0]);
        else
            for (size_t k = 0; k < ntypes; k++)
                pb_buf_printf(&layout, "%s%s", k ? "+" : "", types[k]);
        pb_rs_config_param(set, o->config, "layout", pb_buf_str(&layout));
        snprintf(num, sizeof(num), "%zu", ntop[CL_DATA]);
        pb_rs_config_param(set, o->config, "vdevs", num);
        if (same_width)
            snprintf(num, sizeof(num), "%ld", width0);
        pool_fact(c, o->name, "disks_per_vdev",
                  same_width ? num : pb_buf_str(&widths));
        o->have_tree = 1;
    }
    pb_rs_config_param(set, o->config, "slog", ntop[CL_LOGS] ? "yes" : "no");
    pb_rs_config_param(set, o->config, "l2arc",
                       ntop[CL_CACHE] ? "yes" : "no");
    snprintf(num, sizeof(num), "%zu", ntop[CL_LOGS]);
    pool_fact(c, o->name, "log_vdevs", num);
    snprintf(num, sizeof(num), "%zu", ntop[CL_CACHE]);
    pool_fact(c, o->name, "cache_vdevs", num);
    snprintf(num, sizeof(num), "%zu", ntop[CL_SPARES]);
    pool_fact(c, o->name, "spares", num);
    if (ntop[CL_SPECIAL]) {
        snprintf(num, sizeof(num), "%zu", ntop[CL_SPECIAL]);
        pool_fact(c, o->name, "special_vdevs", num);
    }
    if (ntop[CL_DEDUP]) {
        snprintf(num, sizeof(num), "%zu", ntop[CL_DEDUP]);
        pool_fact(c, o->name, "dedup_vdevs", num);
    }
    if (have_cnt) {
        for (int k = 0; k < 3; k++) {
            o->have[N_PM + (size_t)k] = 1;
            o->v[N_PM + (size_t)k] = sum[k];
        }
    }
    pb_buf_release(&layout);
    pb_buf_release(&widths);
}

/* ==== zpool status ==== */

struct vrows {
    struct vrow *r;
    size_t n, cap;
};

static void add_vrow(struct ctx *c, struct vrows *v, int depth, int cls,
                     int heading, const struct tok *name)
{
    PB_GROW(v->r, v->cap, v->n + 1);
    struct vrow *r = &v->r[v->n++];
    memset(r, 0, sizeof(*r));
    r->depth = depth;
    r->cls = cls;
    r->heading = heading;
    r->name = pb_arena_strndup(&c->scratch, name->s, name->n);
}

/* The config table of a status block: header at line h. */
static int status_config(struct ctx *c, struct obj *o, size_t h,
                         size_t *next)
{
    struct toks *tk = &c->tk;
    split_ws(c->lines[h].s, tk);
    long icnt[3] = {-1, -1, -1};
    for (size_t k = 0; k < tk->n; k++) {
        if (tokeq(&tk->t[k], "READ"))
            icnt[0] = (long)k;
        else if (tokeq(&tk->t[k], "WRITE"))
            icnt[1] = (long)k;
        else if (tokeq(&tk->t[k], "CKSUM"))
            icnt[2] = (long)k;
    }
    int base = indent_of(c->lines[h].s);
    struct vrows v = {0};
    int cls = CL_DATA, rc = PB_OK;
    size_t i;
    for (i = h + 1; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (is_blank(L->s))
            break;
        if (L->s[0] != '\t' && L->s[0] != ' ')
            break;
        split_ws(L->s, tk);
        int depth = indent_of(L->s) - base;
        int k = class_of(tk->t[0].s, tk->t[0].n);
        if (v.n > 0 && depth <= 0 && k >= 0 && tk->n == 1) {
            cls = k;
            add_vrow(c, &v, depth, cls, 1, &tk->t[0]);
            continue;
        }
        add_vrow(c, &v, depth < 0 ? 0 : depth, cls, 0, &tk->t[0]);
        struct vrow *r = &v.r[v.n - 1];
        int last = i + 1 == c->nlines && c->unterminated;
        if (last && tk->n > 1 && tk->n < 5 && icnt[2] > 0) {
            rc = pb_err_set(c->err, PB_EINPUT, c->path, L->no, 0,
                            "truncated vdev row \"%.60s\"", r->name);
            break;
        }
        if (icnt[0] < 0 || icnt[1] < 0 || icnt[2] < 0 ||
            (size_t)icnt[2] >= tk->n || tk->n < 3)
            continue; /* spares: name and state only */
        for (int q = 0; q < 3; q++) {
            const struct tok *t = &tk->t[icnt[q]];
            char buf[64];
            double d;
            if (t->n >= sizeof(buf))
                d = -1;
            else {
                memcpy(buf, t->s, t->n);
                buf[t->n] = '\0';
                if (parse_value(V_COUNT, buf, &d) != 0)
                    d = -1;
            }
            if (d < 0) {
                rc = pb_err_set(c->err, PB_EINPUT, c->path, L->no,
                                (long)t->off + 1,
                                "bad error counter \"%.*s\" for \"%.60s\"",
                                (int)(t->n > 40 ? 40 : t->n), t->s, r->name);
                break;
            }
            r->cnt[q] = d;
        }
        if (rc)
            break;
        r->has_cnt = 1;
    }
    if (rc == PB_OK)
        analyze_tree(c, o, v.r, v.n);
    free(v.r);
    *next = i;
    return rc;
}

/* A `zpool status` block starting at its "pool:" line p. */
static int status_block(struct ctx *c, size_t p, size_t *next)
{
    const char *name;
    is_key(c->lines[p].s, "pool", &name);
    size_t nn = strlen(name);
    while (nn > 0 && (name[nn - 1] == ' ' || name[nn - 1] == '\t'))
        nn--;
    if (nn == 0)
        return pb_err_set(c->err, PB_EINPUT, c->path, c->lines[p].no, 0,
                          "pool line without a pool name");
    struct obj *o = get_obj(c, O_POOL, name, nn);
    int have_cfg = 0;
    struct pb_buf field = PB_BUF_INIT;
    char fkey[16] = "";
    int rc = PB_OK;
    enum { S_HEAD, S_CONFIG, S_ERRORS } st = S_HEAD;
    size_t i = p + 1;
    while (i < c->nlines) {
        const struct line *L = &c->lines[i];
        const char *k, *val;
        size_t kn;
        int key = status_key(L->s, &k, &kn, &val);
        if (key && kn == 4 && !memcmp(k, "pool", 4))
            break;
        if (st == S_HEAD && !key && !is_blank(L->s) &&
            (L->s[0] == '\t' || indent_of(L->s) >= 8) && fkey[0]) {
            /* continuation of status:, action:, scan: */
            pb_buf_putc(&field, ' ');
            pb_buf_puts(&field, pb_skip_ws(L->s, L->s + strlen(L->s)));
            i++;
            continue;
        }
        if (fkey[0]) {
            pool_fact(c, o->name, fkey, pb_buf_str(&field));
            fkey[0] = '\0';
            pb_buf_reset(&field);
        }
        if (key) {
            if (kn == 6 && !memcmp(k, "config", 6)) {
                st = S_CONFIG;
            } else {
                snprintf(fkey, sizeof(fkey), "%.*s", (int)kn, k);
                if (!strcmp(fkey, "scrub"))
                    strcpy(fkey, "scan"); /* before OpenZFS 0.6.4 */
                pb_buf_puts(&field, val);
                st = kn == 6 && !memcmp(k, "errors", 6) ? S_ERRORS : S_HEAD;
            }
            i++;
            continue;
        }
        if (is_blank(L->s)) {
            i++;
            continue;
        }
        if (st == S_CONFIG && (L->s[0] == '\t' || L->s[0] == ' ')) {
            split_ws(L->s, &c->tk);
            if (header_kind(&c->tk) == H_STATUS_CFG) {
                rc = status_config(c, o, i, &i);
                if (rc)
                    break;
                have_cfg = 1;
                continue;
            }
            break;
        }
        if (st == S_ERRORS && (L->s[0] == '\t' || L->s[0] == ' ')) {
            i++; /* files listed by status -v */
            continue;
        }
        break;
    }
    if (rc == PB_OK && fkey[0])
        pool_fact(c, o->name, fkey, pb_buf_str(&field));
    pb_buf_release(&field);
    if (rc == PB_OK && !have_cfg)
        rc = pb_err_set(c->err, PB_EINPUT, c->path, c->lines[p].no, 0,
                        "no vdev table for pool \"%.80s\"", o->name);
    *next = i;
    return rc;
}

/* ==== zpool list -v trees ==== */

/* Re-read a `zpool list -v` table (header h, rows up to end) for the
 * vdev rows under each pool. */
static void pool_list_tree(struct ctx *c, size_t h, size_t end)
{
    struct toks *tk = &c->tk;
    int base = indent_of(c->lines[h].s);
    struct vrows v = {0};
    struct obj *cur = NULL;
    int cls = CL_DATA, verbose = 0;
    for (size_t i = h + 1; i <= end; i++) {
        const struct line *L = i < end ? &c->lines[i] : NULL;
        int depth = 0;
        if (L) {
            split_ws(L->s, tk);
            if (tk->n == 0)
                continue;
            depth = indent_of(L->s) - base;
        }
        int heading = L && depth <= 0 &&
                      class_of(tk->t[0].s, tk->t[0].n) >= 0 && tk->n >= 2 &&
                      tokeq(&tk->t[1], "-");
        if (!L || (depth <= 0 && !heading)) {
            /* a new pool (or the end): finish the previous one */
            if (cur && verbose)
                analyze_tree(c, cur, v.r, v.n);
            v.n = 0;
            verbose = 0;
            cls = CL_DATA;
            if (!L)
                break;
            cur = get_obj(c, O_POOL, tk->t[0].s, tk->t[0].n);
            add_vrow(c, &v, 0, cls, 0, &tk->t[0]);
            continue;
        }
        if (!cur)
            continue;
        if (heading) {
            cls = class_of(tk->t[0].s, tk->t[0].n);
            add_vrow(c, &v, 0, cls, 1, &tk->t[0]);
            continue;
        }
        verbose = 1;
        add_vrow(c, &v, depth, cls, 0, &tk->t[0]);
    }
    free(v.r);
}

/* ==== zfs list -H ==== */

/* `zfs list -H` with the default columns: name used avail refer
 * mountpoint, tab-separated. */
static int h_list_line(const char *s, struct toks *tk)
{
    if (!strchr(s, '\t'))
        return 0;
    split_tabs(s, tk);
    if (tk->n != 5 || tk->t[0].n == 0)
        return 0;
    for (size_t k = 1; k <= 3; k++) {
        char buf[64];
        const struct tok *t = &tk->t[k];
        double d;
        if (t->n == 0 || t->n >= sizeof(buf))
            return 0;
        memcpy(buf, t->s, t->n);
        buf[t->n] = '\0';
        if (strcmp(buf, "-") != 0 && parse_value(V_SIZE, buf, &d) != 0)
            return 0;
    }
    const struct tok *m = &tk->t[4];
    return m->n > 0 && (m->s[0] == '/' || tokeq(m, "none") ||
                        tokeq(m, "legacy") || tokeq(m, "-"));
}

static int h_list_run(struct ctx *c, size_t first, size_t *next)
{
    static const char *const props[5] = {NULL, "used", "available",
                                         "referenced", "mountpoint"};
    struct toks *tk = &c->tk;
    size_t i;
    for (i = first; i < c->nlines; i++) {
        const struct line *L = &c->lines[i];
        if (!h_list_line(L->s, tk))
            break;
        const char *name =
            pb_arena_strndup(&c->scratch, tk->t[0].s, tk->t[0].n);
        for (size_t k = 1; k < 5; k++) {
            const char *v =
                pb_arena_strndup(&c->scratch, tk->t[k].s, tk->t[k].n);
            int rc = put_prop(c, O_DS, name, props[k], v, L->no,
                              (long)tk->t[k].off + 1);
            if (rc)
                return rc;
        }
    }
    *next = i;
    return PB_OK;
}

/* ==== emit ==== */

static void emit(struct ctx *c)
{
    struct pb_resultset *set = c->set;
    size_t t_zfs = (size_t)-1, t_pool = (size_t)-1, t_status = (size_t)-1;
    static const char *const dims[] = {"layout", "vdevs", "slog", "l2arc",
                                       "ashift"};
    for (size_t i = 0; i < c->nobjs; i++) {
        struct obj *o = &c->objs[i];
        if (o->kind == O_DS) {
            /* the pool's dimensions, when the pool is in this file */
            size_t pn = strcspn(o->name, "/@#");
            for (size_t j = 0; j < c->nobjs; j++) {
                const struct obj *p = &c->objs[j];
                if (p->kind != O_POOL || strlen(p->name) != pn ||
                    memcmp(p->name, o->name, pn) != 0 ||
                    p->config == o->config)
                    continue;
                for (size_t k = 0; k < sizeof(dims) / sizeof(dims[0]); k++) {
                    const char *v = cfg_get(set, p->config, dims[k]);
                    if (v && !cfg_get(set, o->config, dims[k]))
                        pb_rs_config_param(set, o->config, dims[k], v);
                }
            }
            for (size_t k = 0; k < N_DSM; k++) {
                if (!o->have[k])
                    continue;
                if (t_zfs == (size_t)-1)
                    t_zfs = pb_rs_test(set, "zfs space", "zfs");
                pb_rs_add(set, o->config, t_zfs, NULL, NULL,
                          ds_metrics[k].prop, ds_metrics[k].unit,
                          ds_metrics[k].dir, o->v[k]);
            }
            if (o->have[DSM_USED] && o->have[DSM_LUSED] &&
                o->v[DSM_USED] > 0) {
                pb_rs_add(set, o->config, t_zfs, NULL, NULL,
                          "actual_savings", "ratio", PB_DIR_HIGHER,
                          o->v[DSM_LUSED] / o->v[DSM_USED]);
                char *key = pb_arena_printf(&c->scratch, "%s:actual_savings",
                                            o->name);
                pb_rs_fact(set, NULL, key, "derived: logicalused/used");
            }
            continue;
        }
        for (size_t k = 0; k < N_PM; k++) {
            if (!o->have[k])
                continue;
            if (t_pool == (size_t)-1)
                t_pool = pb_rs_test(set, "zpool space", "zpool");
            pb_rs_add(set, o->config, t_pool, NULL, NULL,
                      pool_metrics[k].prop, pool_metrics[k].unit,
                      pool_metrics[k].dir, o->v[k]);
        }
        for (size_t k = 0; k < 3; k++) {
            if (!o->have[N_PM + k])
                continue;
            if (t_status == (size_t)-1)
                t_status = pb_rs_test(set, "zpool status", "zpool");
            pb_rs_add(set, o->config, t_status, NULL, NULL, err_metrics[k],
                      "count", PB_DIR_LOWER, o->v[N_PM + k]);
        }
    }
}

/* ==== sniff ==== */

static int zfs_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    char line[512];
    struct toks tk = {0};
    int pool = 0, state = 0, config = 0, score = 0, hget = 0, hlist = 0;
    size_t nonblank = 0;
    const char *p = buf, *end = buf + len;
    while (p < end && score < 90) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t m = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
        memcpy(line, p, m);
        line[m] = '\0';
        if (memchr(line, '\0', m)) { /* binary */
            score = 0;
            break;
        }
        if (m > 0 && line[m - 1] == '\r')
            line[--m] = '\0';
        p = nl ? nl + 1 : end;
        if (is_blank(line))
            continue;
        nonblank++;
        if (is_key(line, "pool", NULL))
            pool = 1;
        else if (pool && is_key(line, "state", NULL))
            state = 1;
        else if (pool && state && is_key(line, "config", NULL))
            config = 1;
        if (pool && state && config)
            score = 95;
        else if (pool && state && score < 70)
            score = 70;
        split_ws(line, &tk);
        enum hkind hk = header_kind(&tk);
        if (hk == H_GET || hk == H_ZPOOL_LIST)
            score = score < 90 ? 90 : score;
        else if (hk == H_ZFS_LIST)
            score = score < 85 ? 85 : score;
        if (h_get_line(line, &tk, 1))
            hget++;
        else if (h_list_line(line, &tk))
            hlist++;
    }
    if (hget >= 2 || (hget == 1 && nonblank == 1))
        score = score < 85 ? 85 : score;
    if (hlist >= 2)
        score = score < 60 ? 60 : score;
    free(tk.t);
    return score;
}

/* ==== parse ==== */

static int split_lines(struct ctx *c, const char *buf, size_t len)
{
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        size_t off = (size_t)(nul - buf);
        size_t bol = off;
        while (bol > 0 && buf[bol - 1] != '\n')
            bol--;
        return pb_err_set(c->err, PB_EINPUT, c->path, pb_line_of(buf, off),
                          (long)(off - bol) + 1, "unexpected NUL byte");
    }
    c->text = pb_xstrndup(buf, len);
    c->unterminated = len > 0 && buf[len - 1] != '\n';
    char *s = c->text, *e = c->text + len;
    long no = 1;
    while (s < e) {
        char *nl = memchr(s, '\n', (size_t)(e - s));
        char *le = nl ? nl : e;
        *le = '\0';
        if (le > s && le[-1] == '\r')
            le[-1] = '\0';
        PB_GROW(c->lines, c->caplines, c->nlines + 1);
        c->lines[c->nlines].s = s;
        c->lines[c->nlines].no = no++;
        c->nlines++;
        s = le + 1;
    }
    return PB_OK;
}

static int not_zfs(struct ctx *c)
{
    for (size_t i = 0; i < c->nlines; i++) {
        const char *s = c->lines[i].s;
        if (is_blank(s))
            continue;
        const char *t = pb_skip_ws(s, s + strlen(s));
        char first[128];
        size_t k = 0;
        for (; t[k] && k < 80; k++)
            first[k] = isprint((unsigned char)t[k]) ||
                               (unsigned char)t[k] >= 0x80
                           ? t[k]
                           : '?';
        while (k > 0 && ((unsigned char)first[k - 1] & 0xC0) == 0x80 &&
               t[k])
            k--; /* do not cut a UTF-8 sequence */
        first[k] = '\0';
        return pb_err_set(c->err, PB_EINPUT, c->path, c->lines[i].no, 0,
                          "no zfs or zpool output found (first line: "
                          "\"%s\")",
                          first);
    }
    return pb_err_set(c->err, PB_EINPUT, c->path, 0, 0,
                      c->nlines ? "file holds only white space"
                                : "empty file");
}

static int parse_all(struct ctx *c)
{
    struct toks *tk = &c->tk;
    int rc = PB_OK;
    size_t i = 0;
    while (i < c->nlines && rc == PB_OK) {
        const struct line *L = &c->lines[i];
        size_t next = i + 1;
        if (is_blank(L->s)) {
            i++;
            continue;
        }
        int found = 1;
        if (is_key(L->s, "pool", NULL)) {
            rc = status_block(c, i, &next);
        } else {
            split_ws(L->s, tk);
            enum hkind hk = header_kind(tk);
            if (hk == H_GET) {
                rc = get_table(c, i, &next);
            } else if (hk == H_ZFS_LIST || hk == H_ZPOOL_LIST) {
                rc = list_table(c, i, &next, hk == H_ZPOOL_LIST);
                if (rc == PB_OK && hk == H_ZPOOL_LIST)
                    pool_list_tree(c, i, next);
            } else if (h_get_line(L->s, tk, 1)) {
                rc = h_get_run(c, i, &next);
            } else if (h_list_line(L->s, tk)) {
                rc = h_list_run(c, i, &next);
            } else {
                found = 0; /* junk: prompts, notes, test harness lines */
            }
        }
        if (found && c->first_section == 0)
            c->first_section = L->no;
        if (next <= i)
            next = i + 1;
        i = next;
    }
    return rc;
}

static int zfs_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    struct ctx c;
    memset(&c, 0, sizeof(c));
    c.path = path;
    c.set = set;
    c.err = err;
    c.last_obj = (size_t)-1;
    pb_arena_init(&c.scratch);
    int rc = split_lines(&c, buf, len);
    if (rc == PB_OK)
        rc = parse_all(&c);
    if (rc == PB_OK && c.first_section == 0)
        rc = not_zfs(&c);
    if (rc == PB_OK) {
        emit(&c);
        if (set->nresults == 0)
            rc = pb_err_set(err, PB_EINPUT, path, c.first_section, 0,
                            "no sizes, ratios or error counters found in "
                            "the zfs output");
    }
    pb_arena_release(&c.scratch);
    free(c.text);
    free(c.lines);
    free(c.objs);
    free(c.tk.t);
    free(c.rows);
    return rc;
}

const struct pb_parser pb_parser_zfs_props = {"zfs-props", zfs_sniff,
                                              zfs_parse};
