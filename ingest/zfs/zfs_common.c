/* Shared by the zfs-props parser: the property tables, tokens, header
 * recognition, values and how one property is stored. */
#include "ingest/zfs/zfs_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== property tables ==== */

const struct mdef pb_zfs_ds_metrics[] = {
    {"compressratio", "ratio", PB_DIR_HIGHER, V_RATIO},
    {"used", "B", PB_DIR_LOWER, V_SIZE},
    {"logicalused", "B", PB_DIR_HIGHER, V_SIZE},
    {"referenced", "B", PB_DIR_LOWER, V_SIZE},
    {"available", "B", PB_DIR_HIGHER, V_SIZE},
};

const struct mdef pb_zfs_pool_metrics[] = {
    {"size", "B", PB_DIR_HIGHER, V_SIZE},
    {"allocated", "B", PB_DIR_LOWER, V_SIZE},
    {"free", "B", PB_DIR_HIGHER, V_SIZE},
    {"fragmentation", "%", PB_DIR_LOWER, V_PCT},
    {"capacity", "%", PB_DIR_LOWER, V_PCT},
    {"dedupratio", "ratio", PB_DIR_HIGHER, V_RATIO},
};

const char *const pb_zfs_err_metrics[3] = {"read_errors", "write_errors",
                                           "cksum_errors"};

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

const char *const pb_zfs_space_props[N_SP] = {
    "logicalreferenced", "usedbyrefreservation", "usedbychildren",
    "reservation", "refreservation"};

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

int pb_zfs_in_list(const char *const *list, const char *s, size_t n)
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

int pb_zfs_is_zpool_only(const char *s, size_t n)
{
    return pb_zfs_in_list(zpool_only, s, n) || has_prefix(s, n, "feature@") ||
           has_prefix(s, n, "unsupported@");
}

int pb_zfs_is_zfs_only(const char *s, size_t n)
{
    return pb_zfs_in_list(zfs_only, s, n) || has_prefix(s, n, "userused@") ||
           has_prefix(s, n, "groupused@") || has_prefix(s, n, "userquota@") ||
           has_prefix(s, n, "groupquota@") || has_prefix(s, n, "written@") ||
           has_prefix(s, n, "projectused@") ||
           has_prefix(s, n, "projectquota@");
}

int pb_zfs_is_known_prop(const char *s, size_t n)
{
    return pb_zfs_is_zpool_only(s, n) || pb_zfs_is_zfs_only(s, n) ||
           pb_zfs_in_list(both_props, s, n);
}

/* Property name syntax: native (a-z0-9_), feature@x, user props a:b. */
int pb_zfs_is_prop_name(const char *s, size_t n)
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

void pb_zfs_split_ws(const char *line, struct toks *tk)
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
void pb_zfs_split_tabs(const char *line, struct toks *tk)
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

int pb_zfs_tokeq(const struct tok *t, const char *s)
{
    return strlen(s) == t->n && !memcmp(t->s, s, t->n);
}

int pb_zfs_is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

/* Display column of the first non-blank char (tabs to multiples of 8). */
int pb_zfs_indent_of(const char *s)
{
    int col = 0;
    for (; *s == ' ' || *s == '\t'; s++)
        col = *s == '\t' ? (col / 8 + 1) * 8 : col + 1;
    return col;
}

/* A `zpool status` field line such as "  pool: tank" or "config:": up to
 * seven spaces (never a tab), a lowercase word, a colon, then a space or
 * the end. On success key and klen name the word, val the rest. */
int pb_zfs_status_key(const char *s, const char **key, size_t *klen,
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

int pb_zfs_is_key(const char *s, const char *want, const char **val)
{
    const char *k, *v;
    size_t n;
    if (!pb_zfs_status_key(s, &k, &n, &v) || strlen(want) != n ||
        memcmp(k, want, n) != 0)
        return 0;
    if (val)
        *val = v;
    return 1;
}

/* Shell prompts, comments and commands between outputs end a table. */
int pb_zfs_is_prompt(const struct toks *tk)
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
    if ((pb_zfs_tokeq(t, "zfs") || pb_zfs_tokeq(t, "zpool") ||
         pb_zfs_tokeq(t, "sudo")) &&
        tk->n >= 2 &&
        (tk->t[1].s[0] == '-' || pb_zfs_in_list(sub, tk->t[1].s, tk->t[1].n)))
        return 1;
    return 0;
}

/* ==== headers ==== */

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
enum hkind pb_zfs_header_kind(const struct toks *tk)
{
    if (tk->n < 2 || !pb_zfs_tokeq(&tk->t[0], "NAME"))
        return H_NONE;
    for (size_t i = 1; i < tk->n; i++)
        if (!all_caps(&tk->t[i]))
            return H_NONE;
    int prop = 0, value = 0, zfs = 0, zpool = 0;
    for (size_t i = 1; i < tk->n; i++) {
        const struct tok *t = &tk->t[i];
        if (pb_zfs_tokeq(t, "PROPERTY"))
            prop = 1;
        else if (pb_zfs_tokeq(t, "VALUE"))
            value = 1;
        else if (pb_zfs_tokeq(t, "STATE"))
            return tk->n >= 3 ? H_STATUS_CFG : H_NONE;
        else if (pb_zfs_in_list(zfs_list_marks, t->s, t->n))
            zfs = 1;
        else if (pb_zfs_in_list(zpool_list_marks, t->s, t->n))
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

/* ==== values ==== */

/* "", "-" and "none" */
static int zfs_absent(const char *v)
{
    return *v == '\0' || !strcmp(v, "-") || !strcmp(v, "none");
}

/* Number with an optional suffix char (x or %), nothing else. */
/* Number with an optional suffix char (x or %), nothing else; 0 or -1. */
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

int pb_zfs_parse_value(enum vkind kind, const char *s, double *out)
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

void pb_zfs_lower_copy(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[n] = '\0';
}

/* Store one property of a dataset or pool: metric, dimension or fact. */
int pb_zfs_put_prop(struct ctx *c, int kind, const char *name,
                    const char *prop, const char *value, long line, long col)
{
    struct obj *o = pb_zfs_get_obj(c, kind, name, strlen(name));
    struct pb_resultset *set = c->set;
    pb_zfs_at(c, line);
    const struct mdef *m =
        kind == O_DS ? pb_zfs_ds_metrics : pb_zfs_pool_metrics;
    size_t nm = kind == O_DS ? N_DSM : N_PM;
    for (size_t i = 0; i < nm; i++) {
        if (strcmp(m[i].prop, prop) != 0)
            continue;
        if (zfs_absent(value))
            return PB_OK;
        double v;
        if (pb_zfs_parse_value(m[i].kind, value, &v) != 0)
            return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                              "bad %s \"%.40s\" for '%s' of \"%.80s\"",
                              kind_word(m[i].kind), value, prop, name);
        o->have[i] = 1;
        o->v[i] = v;
        return PB_OK;
    }
    if (kind == O_DS) {
        for (size_t i = 0; i < sizeof(ds_params) / sizeof(ds_params[0]);
             i++) {
            if (strcmp(ds_params[i].prop, prop) != 0)
                continue;
            if (zfs_absent(value))
                return PB_OK;
            double v;
            char num[64];
            if (ds_params[i].is_size &&
                pb_zfs_parse_value(V_SIZE, value, &v) == 0) {
                pb_rs_config_param(set, o->config, prop,
                                   pb_fmt_num(v, num, sizeof(num)));
            } else {
                size_t n = strlen(value);
                char *low = pb_arena_alloc(&c->row, n + 1);
                pb_zfs_lower_copy(low, value, n);
                pb_rs_config_param(set, o->config, prop, low);
            }
            return PB_OK;
        }
        /* no metrics, but they decide how actual_savings is computed */
        for (size_t k = 0; k < N_SP; k++) {
            if (strcmp(prop, pb_zfs_space_props[k]) != 0)
                continue;
            double v = 0;
            if (!zfs_absent(value) &&
                pb_zfs_parse_value(V_SIZE, value, &v) != 0)
                return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                                  "bad size \"%.40s\" for '%s' of "
                                  "\"%.80s\"",
                                  value, prop, name);
            /* "none" is 0 for a reservation, not said for the others */
            if (!zfs_absent(value) || k == SP_RESV || k == SP_REFRESV) {
                o->have_sp[k] = 1;
                o->sp[k] = v;
            }
        }
        if (!strcmp(prop, "type"))
            o->dstype = !strcmp(value, "volume")       ? 'v'
                        : !strcmp(value, "filesystem") ? 'f'
                                                       : o->dstype;
        /* poolbench's own fact (emit): a property of that name is not
         * kept, or a streamed parse would store the key twice */
        if (strcmp(prop, "actual_savings_basis") != 0)
            pb_zfs_fact(c, o, prop, value);
        return PB_OK;
    }
    if (!strcmp(prop, "ashift") && !zfs_absent(value) &&
        strcmp(value, "0")) {
        double v;
        if (parse_plain(value, 0, &v) == 0) {
            pb_rs_config_param(set, o->config, "ashift", value);
            return PB_OK;
        }
    }
    pb_zfs_fact(c, o, prop, value);
    return PB_OK;
}

const char *pb_zfs_list_col(struct ctx *c, const struct tok *t)
{
    for (size_t i = 0; i < sizeof(zfs_cols) / sizeof(zfs_cols[0]); i++)
        if (pb_zfs_tokeq(t, zfs_cols[i].col))
            return zfs_cols[i].prop;
    char *p = pb_arena_alloc(&c->scratch, t->n + 1);
    pb_zfs_lower_copy(p, t->s, t->n);
    return p;
}

const char *pb_zfs_pool_col(struct ctx *c, const struct tok *t)
{
    for (size_t i = 0; i < sizeof(zpool_cols) / sizeof(zpool_cols[0]); i++)
        if (pb_zfs_tokeq(t, zpool_cols[i].col))
            return zpool_cols[i].prop;
    char *p = pb_arena_alloc(&c->scratch, t->n + 1);
    pb_zfs_lower_copy(p, t->s, t->n);
    return p;
}
