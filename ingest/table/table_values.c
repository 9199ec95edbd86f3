/* The `table` reader's vocabulary: which header names are dimensions and
 * which are metrics (and in what unit), and how cells such as "10.5k",
 * "41.2MiB/s", "2,17x" or "92.4G" become numbers. */
#include "ingest/table/table_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== names ==== */

void tb_norm_name(const char *s, char *buf, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (isspace(c) || c == '_' || c == '-')
            continue;
        buf[k++] = (char)tolower(c);
    }
    buf[k] = '\0';
}

/* Dimension keys of docs/model.md: configuration, then test parameters. */
static const char *const config_keys[] = {
    "layout",         "vdevs",          "disks",        "ashift",
    "recordsize",     "volblocksize",   "compression",  "primarycache",
    "atime",          "logbias",        "slog",         "l2arc",
    "special",        "write_cache",    "disk_format",  "disk_cluster_size",
    "guest_fs",       "guest_block_size", "dedup",      "copies",
    "secondarycache", "special_small_blocks", NULL};
static const char *const test_keys[] = {
    "rw",          "bs",       "iodepth",   "numjobs", "direct",
    "fsync",       "ioengine", "size",      "runtime", "file_size",
    "record_size", "clients",  "rwmixread", NULL};
static const struct {
    const char *alias, *key;
} key_aliases[] = {
    {"compress", "compression"},   {"recsize", "recordsize"},
    {"volblock", "volblocksize"},  {"qd", "iodepth"},
    {"queuedepth", "iodepth"},     {"jobs", "numjobs"},
    {"writecache", "write_cache"},
};

/* n (normalised) equals key with its '_' left out. */
static int norm_eq(const char *n, const char *key)
{
    for (; *key; key++) {
        if (*key == '_')
            continue;
        if (*n++ != *key)
            return 0;
    }
    return *n == '\0';
}

/* n (normalised, length nl) starts key with its '_' left out. */
static int norm_prefix(const char *n, size_t nl, const char *key)
{
    size_t i = 0;
    for (; *key && i < nl; key++) {
        if (*key == '_')
            continue;
        if (n[i++] != *key)
            return 0;
    }
    return i == nl;
}

const char *tb_dim_key(const char *name, enum tb_keykind *kind)
{
    char n[64];
    if (strlen(name) > 40)
        return NULL;
    tb_norm_name(name, n, sizeof(n));
    if (!n[0])
        return NULL;
    if (!strcmp(n, "sync")) {
        *kind = TB_K_SYNC;
        return "sync";
    }
    for (size_t i = 0; config_keys[i]; i++)
        if (norm_eq(n, config_keys[i])) {
            *kind = TB_K_CONFIG;
            return config_keys[i];
        }
    for (size_t i = 0; test_keys[i]; i++)
        if (norm_eq(n, test_keys[i])) {
            *kind = TB_K_TEST;
            return test_keys[i];
        }
    for (size_t i = 0; i < sizeof(key_aliases) / sizeof(key_aliases[0]); i++)
        if (!strcmp(n, key_aliases[i].alias))
            return tb_dim_key(key_aliases[i].key, kind);
    return NULL;
}

/* ZFS space columns (as `zfs list` names them, and the property names). */
static const struct {
    const char *name, *metric, *unit;
    int dir;
    enum tb_vkind vk;
} zfs_cols[] = {
    {"ratio", "compressratio", "ratio", PB_DIR_HIGHER, TB_V_RATIO},
    {"compressratio", "compressratio", "ratio", PB_DIR_HIGHER, TB_V_RATIO},
    {"compressionratio", "compressratio", "ratio", PB_DIR_HIGHER, TB_V_RATIO},
    {"used", "used", "B", PB_DIR_LOWER, TB_V_SIZE},
    {"lused", "logicalused", "B", PB_DIR_HIGHER, TB_V_SIZE},
    {"logicalused", "logicalused", "B", PB_DIR_HIGHER, TB_V_SIZE},
    {"refer", "referenced", "B", PB_DIR_LOWER, TB_V_SIZE},
    {"referenced", "referenced", "B", PB_DIR_LOWER, TB_V_SIZE},
    {"lrefer", "logicalreferenced", "B", PB_DIR_HIGHER, TB_V_SIZE},
    {"logicalreferenced", "logicalreferenced", "B", PB_DIR_HIGHER, TB_V_SIZE},
    {"actualsavings", "actual_savings", "ratio", PB_DIR_HIGHER, TB_V_RATIO},
};

/* fio-like measures: the part after the direction. */
static const struct {
    const char *name, *suffix, *unit;
    int dir;
    enum tb_vkind vk;
} measures[] = {
    {"iops", "iops", "ops/s", PB_DIR_HIGHER, TB_V_OPS},
    {"bw", "bw", "B/s", PB_DIR_HIGHER, TB_V_BW},
    {"bandwidth", "bw", "B/s", PB_DIR_HIGHER, TB_V_BW},
    {"throughput", "bw", "B/s", PB_DIR_HIGHER, TB_V_BW},
    {"lat", "lat_mean", "ns", PB_DIR_LOWER, TB_V_LAT},
    {"latency", "lat_mean", "ns", PB_DIR_LOWER, TB_V_LAT},
    {"clat", "clat_mean", "ns", PB_DIR_LOWER, TB_V_LAT},
};

static const struct {
    const char *name, *ddir, *rw;
} dirs[] = {
    {"randomread", "read", "randread"},
    {"randread", "read", "randread"},
    {"randomwrite", "write", "randwrite"},
    {"randwrite", "write", "randwrite"},
    {"randomtrim", "trim", "randtrim"},
    {"randtrim", "trim", "randtrim"},
    {"sequentialread", "read", "read"},
    {"seqread", "read", "read"},
    {"sequentialwrite", "write", "write"},
    {"seqwrite", "write", "write"},
    {"read", "read", "read"},
    {"write", "write", "write"},
    {"trim", "trim", "trim"},
};

/* Multiplier of a unit written in a header: "(MiB/s)", "[ms]", "(GiB)". */
static double header_unit(const char *u, enum tb_vkind vk)
{
    double v;
    char why[8];
    char probe[48];
    snprintf(probe, sizeof(probe), "1%s", u);
    if (tb_value(probe, vk, 0, 0, &v, why, sizeof(why)) != 0 || !(v > 0))
        return 0;
    return v;
}

int tb_map_column(const char *text, const struct tb_custom *cust, size_t ncust,
                  struct tb_colname *out)
{
    memset(out, 0, sizeof(*out));
    char n[96];
    tb_norm_name(text, n, sizeof(n));
    if (!n[0] || strlen(text) > 80)
        return 0;
    for (size_t i = 0; i < ncust; i++) {
        if (!strcmp(n, cust[i].norm)) {
            out->metric = cust[i].metric;
            out->unit = cust[i].unit;
            out->direction = cust[i].direction;
            out->vk = cust[i].vk;
            return 1;
        }
    }
    enum tb_keykind kk;
    const char *key = tb_dim_key(text, &kk);
    if (key) {
        out->is_dim = 1;
        out->key = key;
        return 1;
    }
    /* a unit in brackets at the end: "BW (MiB/s)", "lat [ms]" */
    char unit[32] = "";
    const char *open = strpbrk(text, "([");
    if (open) {
        const char *close = strchr(open, *open == '(' ? ')' : ']');
        size_t ul = close ? (size_t)(close - open - 1) : 0;
        const char *after = close ? close + 1 : "";
        while (*after && isspace((unsigned char)*after))
            after++;
        if (!close || *after || ul == 0 || ul >= sizeof(unit))
            return 0;
        memcpy(unit, open + 1, ul);
        unit[ul] = '\0';
        char *stem = pb_xstrndup(text, (size_t)(open - text));
        tb_norm_name(stem, n, sizeof(n));
        free(stem);
    }
    for (size_t i = 0; i < sizeof(zfs_cols) / sizeof(zfs_cols[0]); i++) {
        if (!strcmp(n, zfs_cols[i].name)) {
            out->metric = zfs_cols[i].metric;
            out->unit = zfs_cols[i].unit;
            out->direction = zfs_cols[i].dir;
            out->vk = zfs_cols[i].vk;
            out->zfs = 1;
            break;
        }
    }
    if (!out->metric && (!strcmp(n, "usrcpu") || !strcmp(n, "syscpu"))) {
        out->metric = n[0] == 'u' ? "usr_cpu" : "sys_cpu";
        out->unit = "%";
        out->direction = PB_DIR_LOWER;
        out->vk = TB_V_PCT;
    }
    for (size_t i = 0; !out->metric && i < sizeof(dirs) / sizeof(dirs[0]) + 1;
         i++) {
        const char *pre =
            i < sizeof(dirs) / sizeof(dirs[0]) ? dirs[i].name : "";
        size_t pl = strlen(pre);
        if (strncmp(n, pre, pl) != 0)
            continue;
        for (size_t j = 0; j < sizeof(measures) / sizeof(measures[0]); j++) {
            if (strcmp(n + pl, measures[j].name) != 0)
                continue;
            out->unit = measures[j].unit;
            out->direction = measures[j].dir;
            out->vk = measures[j].vk;
            if (pl) {
                out->ddir = dirs[i].ddir;
                out->rw = dirs[i].rw;
            }
            out->needs_dir = pl == 0;
            out->metric = measures[j].suffix;
            break;
        }
    }
    if (!out->metric)
        return 0;
    if (unit[0]) {
        out->hmult = header_unit(unit, out->vk);
        if (out->hmult == 0)
            return 0;
    }
    return 1;
}

int tb_name_start(const char *s, size_t len)
{
    char n[48];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '_' || c == '-')
            continue;
        if (!isalpha(c) || k + 1 >= sizeof(n))
            return 0;
        n[k++] = (char)tolower(c);
    }
    n[k] = '\0';
    if (k == 0)
        return 0;
    for (size_t i = 0; config_keys[i]; i++)
        if (norm_prefix(n, k, config_keys[i]))
            return 1;
    for (size_t i = 0; test_keys[i]; i++)
        if (norm_prefix(n, k, test_keys[i]))
            return 1;
    if (norm_prefix(n, k, "sync") || norm_prefix(n, k, "usrcpu") ||
        norm_prefix(n, k, "syscpu"))
        return 1;
    for (size_t i = 0; i < sizeof(key_aliases) / sizeof(key_aliases[0]); i++)
        if (norm_prefix(n, k, key_aliases[i].alias))
            return 1;
    for (size_t i = 0; i < sizeof(zfs_cols) / sizeof(zfs_cols[0]); i++)
        if (norm_prefix(n, k, zfs_cols[i].name))
            return 1;
    for (size_t j = 0; j < sizeof(measures) / sizeof(measures[0]); j++)
        if (norm_prefix(n, k, measures[j].name))
            return 1;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
        if (norm_prefix(n, k, dirs[i].name) ||
            (k > strlen(dirs[i].name) &&
             !strncmp(n, dirs[i].name, strlen(dirs[i].name))))
            return 1;
    return 0;
}

/* ==== dimensions ==== */

void tb_dl_put(struct tb_dimlist *d, const struct tb_dim *x)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].key, x->key)) {
            d->v[i] = *x;
            return;
        }
    PB_GROW(d->v, d->cap, d->n + 1);
    d->v[d->n++] = *x;
}

const struct tb_dim *tb_dl_get(const struct tb_dimlist *d, const char *key)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->v[i].key, key))
            return &d->v[i];
    return NULL;
}

int tb_in_list(const char *s, const char *const *l)
{
    for (; *l; l++)
        if (!strcmp(s, *l))
            return 1;
    return 0;
}

const char *const tb_size_keys[] = {"recordsize",
                                    "volblocksize",
                                    "bs",
                                    "size",
                                    "file_size",
                                    "record_size",
                                    "disk_cluster_size",
                                    "guest_block_size",
                                    "special_small_blocks",
                                    NULL};
static const char *const int_keys[] = {
    "ashift", "vdevs", "disks",   "copies",    "iodepth", "numjobs",
    "direct", "fsync", "clients", "rwmixread", NULL};
static const char *const rw_values[] = {
    "read",     "write",     "randread",      "randwrite",
    "rw",       "readwrite", "randrw",        "trim",
    "randtrim", "trimwrite", "randtrimwrite", NULL};
static const char *const zfs_sync[] = {"standard", "always", "disabled", NULL};
/* Test keys in the order test names list them. */
const char *const tb_test_order[] = {
    "bs",          "iodepth",  "numjobs",   "direct",  "fsync",
    "sync",        "ioengine", "size",      "runtime", "file_size",
    "record_size", "clients",  "rwmixread", NULL};

/* A dimension from the name `name` and value text `raw`. Returns 0, or -1
 * with why[] filled; 1 when name is no dimension key. */
int tb_make_dim(struct pb_arena *a, const char *name, const char *raw,
                const char *origin, struct tb_dim *out, char *why, size_t nwhy)
{
    enum tb_keykind kind;
    const char *key = tb_dim_key(name, &kind);
    if (!key)
        return 1;
    size_t n = strlen(raw);
    if (n == 0 || n > 64) {
        snprintf(why, nwhy, "bad value for '%s'", key);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (iscntrl((unsigned char)raw[i]) || raw[i] == '=') {
            snprintf(why, nwhy, "bad value for '%s'", key);
            return -1;
        }
    /* checked as it will be stored: "128k\u00a0" is 128k */
    char *norm = pb_ingest_norm_param(key, raw);
    size_t nn = strlen(norm);
    int bad = nn == 0;
    double v;
    if (tb_in_list(key, tb_size_keys))
        bad |= pb_parse_size(norm, 0, &v) != 0 || !(v >= 0) || v > 1e18;
    else if (tb_in_list(key, int_keys))
        bad |= strspn(norm, "0123456789") != nn || nn > 9;
    if (!bad && !strcmp(key, "rw"))
        bad = !tb_in_list(norm, rw_values);
    if (bad) {
        free(norm);
        snprintf(why, nwhy, "bad value '%.64s' for '%s'", raw, key);
        return -1;
    }
    out->key = key;
    out->raw = pb_arena_strdup(a, raw);
    out->norm = pb_arena_strdup(a, norm);
    out->origin = origin;
    out->is_test =
        kind == TB_K_TEST || (kind == TB_K_SYNC && !tb_in_list(norm, zfs_sync));
    free(norm);
    return 0;
}

/* ==== values ==== */

/* A number as written: mant / 10^frac, negated when neg. */
struct tb_num {
    uint64_t mant;
    int frac;
    int neg;
};

/* The number at the start of s: digits with '.' or ',' as the decimal
 * point, ',' or '.' between groups of three as thousands separators.
 * *end is set past it. Returns 0, or -1 with why[] filled. */
static int read_number(const char *s, char conv, struct tb_num *out,
                       const char **end, char *why, size_t nwhy)
{
    const char *p = s;
    memset(out, 0, sizeof(*out));
    if (*p == '-' || *p == '+') {
        out->neg = *p == '-';
        p++;
    }
    const char *st = p;
    size_t ndots = 0, ncommas = 0;
    const char *last_sep = NULL;
    int groups_ok = 1;
    for (; isdigit((unsigned char)*p) || *p == '.' || *p == ','; p++) {
        if (*p == '.' || *p == ',') {
            if (!isdigit((unsigned char)p[1]) || p == st)
                break;
            if (last_sep && (p - last_sep - 1) != 3)
                groups_ok = 0;
            ndots += *p == '.';
            ncommas += *p == ',';
            last_sep = p;
        }
    }
    *end = p;
    if (p == st) {
        snprintf(why, nwhy, "not a number");
        return -1;
    }
    size_t after = last_sep ? (size_t)(p - last_sep - 1) : 0;
    char dec = 0; /* the decimal point, 0 = none */
    if (ndots && ncommas) {
        /* 1,234.5 or 1.234,5: the last separator is the decimal point,
         * the others are thousands separators of the other kind */
        dec = *last_sep;
        for (const char *q = st; q < last_sep; q++)
            if (*q == dec) {
                snprintf(why, nwhy, "not a number");
                return -1;
            }
        if (!groups_ok && ndots + ncommas > 2) {
            snprintf(why, nwhy, "not a number");
            return -1;
        }
    } else if (ncommas + ndots == 1 && after == 3) {
        /* 1,812 or 1.267: the table's decimal mark decides */
        if (conv == 0 && ncommas) {
            snprintf(why, nwhy,
                     "ambiguous number: ',' may be a decimal "
                     "comma or a thousands separator");
            return -1;
        }
        dec = conv == 0 || conv == *last_sep ? *last_sep : 0;
    } else if (ndots == 1 || ncommas == 1) {
        dec = *last_sep;
    } else if (ndots > 1 || ncommas > 1) {
        if (!groups_ok || after != 3) { /* 1,234,567 only */
            snprintf(why, nwhy, "not a number");
            return -1;
        }
    }
    int nd = 0, frac = -1;
    for (const char *q = st; q < p; q++) {
        if (*q == '.' || *q == ',') {
            if (dec && q == last_sep)
                frac = 0;
            continue;
        }
        if (nd >= 18) {
            snprintf(why, nwhy, "number has more than 18 digits");
            return -1;
        }
        if (nd > 0 || *q != '0')
            nd++;
        out->mant = out->mant * 10 + (uint64_t)(*q - '0');
        if (frac >= 0)
            frac++;
    }
    out->frac = frac > 0 ? frac : 0;
    return 0;
}

struct unitdef {
    const char *u;
    double mult;
};

static int find_unit(const char *u, const struct unitdef *tab, double *mult,
                     int fold)
{
    for (size_t i = 0; tab[i].u; i++)
        if (fold ? !strcasecmp(u, tab[i].u) : !strcmp(u, tab[i].u)) {
            *mult = tab[i].mult;
            return 1;
        }
    return 0;
}

static const struct unitdef u_ops[] = {
    {"", 1},    {"k", 1e3},  {"K", 1e3},     {"M", 1e6},      {"m", 1e6},
    {"G", 1e9}, {"iops", 1}, {"kiops", 1e3}, {"k iops", 1e3}, {NULL, 0}};
static const struct unitdef u_num[] = {{"", 1},    {"k", 1e3}, {"K", 1e3},
                                       {"M", 1e6}, {"G", 1e9}, {NULL, 0}};
static const struct unitdef u_bw[] = {{"B/s", 1},
                                      {"KiB/s", 1024.0},
                                      {"MiB/s", 1048576.0},
                                      {"GiB/s", 1073741824.0},
                                      {"TiB/s", 1099511627776.0},
                                      {"kB/s", 1e3},
                                      {"KB/s", 1e3},
                                      {"MB/s", 1e6},
                                      {"GB/s", 1e9},
                                      {"TB/s", 1e12},
                                      {NULL, 0}};
static const struct unitdef u_lat[] = {
    {"ns", 1},   {"nsec", 1},   {"us", 1e3}, {"usec", 1e3}, {"\xc2\xb5s", 1e3},
    {"ms", 1e6}, {"msec", 1e6}, {"s", 1e9},  {"sec", 1e9},  {NULL, 0}};
static const struct unitdef u_size[] = {{"", 1},
                                        {"B", 1},
                                        {"K", 1024.0},
                                        {"KB", 1024.0},
                                        {"KiB", 1024.0},
                                        {"M", 1048576.0},
                                        {"MB", 1048576.0},
                                        {"MiB", 1048576.0},
                                        {"G", 1073741824.0},
                                        {"GB", 1073741824.0},
                                        {"GiB", 1073741824.0},
                                        {"T", 1099511627776.0},
                                        {"TB", 1099511627776.0},
                                        {"TiB", 1099511627776.0},
                                        {"P", 1125899906842624.0},
                                        {"PB", 1125899906842624.0},
                                        {"PiB", 1125899906842624.0},
                                        {NULL, 0}};

static int is_empty_cell(const char *s)
{
    static const char *const empty[] = {
        "", "-", "n/a", "na", "\xe2\x80\x94", "\xe2\x80\x93", NULL};
    for (size_t i = 0; empty[i]; i++)
        if (!strcasecmp(s, empty[i]))
            return 1;
    return 0;
}

char tb_decimal_hint(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    const char *last = NULL;
    char first = 0;
    size_t nsep = 0;
    for (; isdigit((unsigned char)*s) || *s == '.' || *s == ','; s++)
        if ((*s == '.' || *s == ',') && isdigit((unsigned char)s[1])) {
            if (!first)
                first = *s;
            last = s;
            nsep++;
        } else if (*s == '.' || *s == ',') {
            break;
        }
    if (!last)
        return 0;
    size_t after = 0;
    while (isdigit((unsigned char)last[1 + after]))
        after++;
    if (nsep == 1 && after == 3)
        return 0;
    if (nsep > 1) /* 1,234.5: the last mark, when it differs */
        return first != *last ? *last : 0;
    return *last;
}

int tb_value(const char *s, enum tb_vkind vk, double hmult, char conv,
             double *out, char *why, size_t nwhy)
{
    if (is_empty_cell(s))
        return 1;
    struct tb_num num;
    const char *e;
    if (read_number(s, conv, &num, &e, why, nwhy) != 0)
        return -1;
    char u[24];
    while (*e == ' ')
        e++;
    size_t ul = strlen(e);
    if (ul >= sizeof(u)) {
        snprintf(why, nwhy, "unknown unit");
        return -1;
    }
    memcpy(u, e, ul + 1);
    while (ul > 0 && u[ul - 1] == ' ')
        u[--ul] = '\0';
    double mult = 1;
    int known = 0;
    switch (vk) {
    case TB_V_OPS:
        known = find_unit(u, u_ops, &mult, 1);
        break;
    case TB_V_NUM:
        known = find_unit(u, u_num, &mult, 0);
        break;
    case TB_V_BW:
        known = find_unit(u, u_bw, &mult, 0);
        if (!u[0] && hmult > 0)
            known = 1, mult = hmult;
        else if (!u[0]) {
            snprintf(why, nwhy,
                     "bandwidth without a unit (write 41.2MiB/s "
                     "or put the unit in the header: "
                     "'BW (MiB/s)')");
            return -1;
        }
        break;
    case TB_V_LAT:
        known = find_unit(u, u_lat, &mult, 0);
        if (!u[0] && hmult > 0)
            known = 1, mult = hmult;
        else if (!u[0]) {
            snprintf(why, nwhy,
                     "latency without a unit (write 250us or put "
                     "the unit in the header: 'lat (us)')");
            return -1;
        }
        break;
    case TB_V_SIZE:
        known = find_unit(u, u_size, &mult, 0);
        break;
    case TB_V_RATIO:
        known = !u[0] || !strcmp(u, "x") || !strcmp(u, "X");
        if (!strcmp(u, "%")) {
            snprintf(why, nwhy,
                     "a percentage where a ratio is wanted "
                     "(write 1.99x)");
            return -1;
        }
        break;
    case TB_V_PCT:
        known = !u[0] || !strcmp(u, "%");
        break;
    }
    if (!known) {
        snprintf(why, nwhy, "unknown unit '%s'", u);
        return -1;
    }
    if (!u[0] && hmult > 0)
        mult = hmult; /* the header's unit: "IOPS (k)", "used (GiB)" */
    if (num.neg && vk != TB_V_RATIO && vk != TB_V_PCT && vk != TB_V_NUM) {
        snprintf(why, nwhy, "negative value");
        return -1;
    }
    /* one rounding: 41.2MiB/s is 412 * 1048576 / 10 */
    double r = (double)num.mant * mult;
    if (num.frac)
        r /= pow(10.0, num.frac);
    if (num.neg)
        r = -r;
    if (vk == TB_V_BW)
        r = floor(r + 0.5); /* whole bytes per second */
    if (!isfinite(r) || fabs(r) > 1e300) {
        snprintf(why, nwhy, "number out of range");
        return -1;
    }
    *out = r;
    return 0;
}

/* ==== --table-metric ==== */

void tb_custom_release(struct tb_custom *c)
{
    free(c->norm);
    free(c->metric);
    free(c->unit);
    memset(c, 0, sizeof(*c));
}

int tb_custom_parse(const char *spec, struct tb_custom *out, char *why,
                    size_t nwhy)
{
    memset(out, 0, sizeof(*out));
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec) {
        snprintf(why, nwhy,
                 "--table-metric wants HEADER=METRIC:UNIT:"
                 "higher|lower, got '%.60s'",
                 spec);
        return -1;
    }
    const char *c1 = strchr(eq + 1, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || c1 == eq + 1 || c2 == c1 + 1 || strchr(c2 + 1, ':')) {
        snprintf(why, nwhy,
                 "--table-metric wants HEADER=METRIC:UNIT:"
                 "higher|lower, got '%.60s'",
                 spec);
        return -1;
    }
    for (const char *p = eq + 1; p < c1; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
            *p != '_' && *p != '.') {
            snprintf(why, nwhy,
                     "--table-metric: metric name '%.*s' may "
                     "hold only a-z, 0-9, '_' and '.'",
                     (int)(c1 - eq - 1), eq + 1);
            return -1;
        }
    const char *d = c2 + 1;
    int dir = !strcmp(d, "higher")  ? PB_DIR_HIGHER
              : !strcmp(d, "lower") ? PB_DIR_LOWER
                                    : 0;
    if (!dir) {
        snprintf(why, nwhy,
                 "--table-metric: direction must be 'higher' or "
                 "'lower', got '%.20s'",
                 d);
        return -1;
    }
    char *hdr = pb_xstrndup(spec, (size_t)(eq - spec));
    char norm[96];
    tb_norm_name(hdr, norm, sizeof(norm));
    free(hdr);
    if (!norm[0]) {
        snprintf(why, nwhy, "--table-metric: empty header name");
        return -1;
    }
    out->norm = pb_xstrdup(norm);
    out->metric = pb_xstrndup(eq + 1, (size_t)(c1 - eq - 1));
    out->unit = pb_xstrndup(c1 + 1, (size_t)(c2 - c1 - 1));
    out->direction = dir;
    const char *u = out->unit;
    out->vk = !strcmp(u, "ops/s")   ? TB_V_OPS
              : !strcmp(u, "B/s")   ? TB_V_BW
              : !strcmp(u, "ns")    ? TB_V_LAT
              : !strcmp(u, "B")     ? TB_V_SIZE
              : !strcmp(u, "ratio") ? TB_V_RATIO
              : !strcmp(u, "%")     ? TB_V_PCT
                                    : TB_V_NUM;
    return 0;
}
