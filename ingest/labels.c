/* Config dimensions from labels: an ordered list of PCRE2 rules, each with
 * one capture group whose text is normalised into a config_param value
 * ("zfs mirror, ashift=13, recordsize 8k" -> layout, ashift, recordsize).
 * The built-in rules and the user rules file are described in
 * docs/label-rules.md; keep the two in step. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "ingest/ingest_int.h"
#include "ingest/labels_int.h"

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Labels are names, not documents: only their start is examined. */
#define LABEL_MAX 4096

/* ==== built-in rules ==== */

/* Word edges: "_" counts as a separator ("RAIDZ2_FreeNAS"), which \b does
 * not do. Patterns are compiled caseless, so [a-z] covers A-Z. */
#define B   "(?<![a-z0-9])"
#define E   "(?![a-z0-9])"
#define SEP "[\\s_:=-]*"
/* A size: digits, optional fraction, optional unit k/m (kb, kib) or
 * b/bytes. Units-less values are checked by norm_block. */
#define SIZE "(\\d+(?:\\.\\d+)?\\s?(?:[km](?:i?b)?|bytes?|b)?)"
/* End of a size: not glued to a word, not a version ("0.8.6"). */
#define ESZ "(?![a-z0-9]|[.,]\\d)"
/* End of gzip/zstd: not a name such as "gzip-run-3" or "zstd-1.6.0". */
#define ECMP "(?![a-z0-9]|[-_.](?:run|test|bench|job|\\d))"
/* An algorithm: lz4/lzjb/zle end like words, gzip/zstd like ECMP. */
#define CALGO                                                                  \
    "(?:lz4|lzjb|zle)" E "|(?:gzip(?:[-_]?[1-9])?|"                            \
    "zstd(?:[-_]?fast)?(?:[-_]?\\d{1,4})?)" ECMP
#define GFS                                                                    \
    "ntfs|refs|ext[234]|xfs|btrfs|exfat|fat32|vfat|f2fs|jfs|reiserfs|ufs|"     \
    "apfs|hfs\\+?"
/* "cache" that is not an L2ARC: cold/warm cache, page cache, ARC cache,
 * controller or QEMU cache modes. */
#define NOTCACHE                                                               \
    "(?<!cold[ _-]|warm[ _-]|hot[ _-]|page[ _-]|write[ _-]|read[ _-]|"         \
    "disk[ _-]|drop[ _-]|dropped[ _-]|arc[ _-]|host[ _-]|buffer[ _-]|"         \
    "qemu[ _-]|drive[ _-]|controller[ _-]|primary[ _-]|secondary[ _-])"
#define NEG "(?:(?:no|without|w/o)[\\s_-]*)?"
/* A layout word naming an auxiliary vdev ("log mirror", "special mirror")
 * says nothing of the data vdevs. */
#define NOTAUX                                                                 \
    "(?<!log[ _-]|slog[ _-]|zil[ _-]|special[ _-]|dedup[ _-]|cache[ _-])"

static const struct builtin {
    const char *key;
    enum norm norm;
    const char *pattern;
} builtins[] = {
    /* layout: ZFS vdev types only; raid0/1/5/6/10 name md or hardware RAID
     * as often as ZFS and are left to user rules. */
    {"layout", N_LAYOUT,
     B NOTAUX "(draid[1-3]?|raid[ _-]?z-?[1-3]?|mirror(?:s|ed)?)" E},
    {"layout", N_LAYOUT,
     B "(stripe[sd]?)(?![a-z0-9]|[\\s_-]*(?:size|width|unit))"},

    /* vdevs: "2x mirror", "3 x 2-way mirror", "2 mirrors", "4 vdevs" */
    {"vdevs", N_COUNT,
     B "(\\d{1,4})\\s*[x*\\x{d7}]\\s*"
       "(?:\\d+[ -]?(?:way|disks?|drives?|wide)[ _-]?)?"
       "(?:mirror|raid[ _-]?z|draid)"},
    {"vdevs", N_COUNT,
     B "(\\d{1,4})[\\s_-]*(?:mirrors|(?:(?:mirror|raid[ _-]?z-?[1-3]?|"
       "draid[1-3]?)[\\s_-]*)?vdevs?)" E},

    {"ashift", N_ASHIFT, B "ashift" SEP "(\\d{1,2})" E},

    /* recordsize: "recordsize=8k", "8k recordsize", "ZFS 128k" */
    {"recordsize", N_BLOCK,
     B "(?:recordsize|recsize|record[ _-]size)" SEP SIZE ESZ},
    {"recordsize", N_BLOCK,
     B SIZE "[\\s_-]*(?:recordsize|recsize|record[ _-]size)" E},
    {"recordsize", N_BLOCK,
     B "zfs" SEP SIZE ESZ "(?![\\s_-]*(?:zvol|volblock|vol[ _-]block))"},

    /* volblocksize: "volblocksize=8k", "8k volblocksize", "zvol 16k" */
    {"volblocksize", N_BLOCK,
     B "(?:volblocksize|volblock|vol[ _-]block[ _-]?size)" SEP SIZE ESZ},
    {"volblocksize", N_BLOCK,
     B SIZE "[\\s_-]*(?:volblocksize|volblock|vol[ _-]block[ _-]?size|zvol)" E},
    {"volblocksize", N_BLOCK, B "zvol" SEP SIZE ESZ},

    /* compression: after the word, then "no compression", then a bare
     * algorithm name */
    {"compression", N_COMPRESS,
     B "compress(?:ion)?" SEP "((?:on|off|none)" E "|" CALGO ")"},
    {"compression", N_COMPRESS,
     B "((?:no|without|w/o)[\\s_-]*compression|uncompressed|nocompress)" E},
    {"compression", N_COMPRESS, B "(" CALGO ")"},

    {"sync", N_SYNC, B "sync" SEP "(standard|always|disabled|disable|off)" E},
    {"sync", N_SYNC, B "zil" SEP "(disabled|off)" E},

    {"primarycache", N_WORD, B "primarycache" SEP "(all|metadata|none)" E},

    {"atime", N_ONOFF, B "atime" SEP "(on|off)" E},
    {"atime", N_ONOFF, B "(noatime)" E},

    {"logbias", N_WORD, B "logbias" SEP "(latency|throughput)" E},

    /* slog: "slog=nvme0n1", "slog", "log", "zil", "no slog", "without log" */
    {"slog", N_FLAG, B "(?:slog|log[ _-]?dev(?:ice)?)\\s*[=:]\\s*([^\\s,;]+)"},
    {"slog", N_FLAG,
     B "(" NEG "(?:slog|zil|log)(?:[\\s_-]*devices?)?)"
       "(?![a-z0-9]|\\s*[=:]|[\\s_-]*(?:bias|disabled|off))"},

    /* l2arc: "l2arc=...", "l2arc", "cache", "no cache" */
    {"l2arc", N_FLAG,
     B "(?:l2[ _-]?arc|cache[ _-]?dev(?:ice)?)\\s*[=:]\\s*([^\\s,;]+)"},
    {"l2arc", N_FLAG,
     B "(" NEG "(?:l2[ _-]?arc|" NOTCACHE "cache)(?:[\\s_-]*devices?)?)"
       "(?![a-z0-9]|\\s*[=:]|[\\s_-]*(?:mode|size))"},

    /* disk_format: image format of a VM disk */
    {"disk_format", N_WORD, B "(qcow2?|vmdk|vdi|vhdx?|zvol)" E},
    {"disk_format", N_WORD,
     B "(raw)[\\s_-]*(?:image|img|disk|file|format)s?" E},
    {"disk_format", N_WORD,
     B "(?:format|image|img|driver)[\\s_]*[=:][\\s_]*(raw)" E},
    /* disk_cluster_size: "QCOW2 64k", "cluster_size=64k" */
    {"disk_cluster_size", N_BLOCK, B "qcow2?" SEP SIZE ESZ},
    {"disk_cluster_size", N_BLOCK, B "cluster[ _-]?size" SEP SIZE ESZ},

    /* guest_fs and its block size: "NTFS 4k", "ext4 4k", "allocation unit
     * 64k"; the size must follow the name ("64k - NTFS" is someone else's) */
    {"guest_fs", N_WORD, B "(" GFS ")" E},
    {"guest_block_size", N_BLOCK, B "(?:" GFS ")" SEP SIZE ESZ},
    {"guest_block_size", N_BLOCK,
     B "allocation[ _-]unit(?:[ _-]size)?" SEP SIZE ESZ},
};

#define NBUILTINS (sizeof(builtins) / sizeof(builtins[0]))

/* ==== the rule set ==== */

struct rule {
    char *key;
    pcre2_code *re;
    enum norm norm;
    int anchored;     /* can only match at the start: matched once */
    char *path;       /* user rules: the file and line, for warnings */
    long line;
};

/* Limits on one user pattern and one label. PCRE2's match and depth
 * limits hold per start offset, and pcre2_match retries at every offset
 * of the label, so a pattern just under them at each offset of a 4 KiB
 * label burnt ~5 s (issue 20). STEP_BUDGET bounds the whole match: user
 * patterns are compiled with auto-callouts, counted per thread. A label
 * pattern needs a few hundred steps per offset; the built-ins stay far
 * below the limits (test_labels checks them on real labels). */
#define MATCH_LIMIT 10000
#define DEPTH_LIMIT 5000
#define STEP_BUDGET 500000ul

static _Thread_local unsigned long steps;

static int count_step(pcre2_callout_block *cb, void *data)
{
    (void)cb;
    (void)data;
    return ++steps > STEP_BUDGET ? PCRE2_ERROR_CALLOUT : 0;
}

/* A rule that was too expensive on some labels: how many, the first of
 * them in byte order (the report does not depend on thread timing), and
 * which limit. */
struct cost {
    size_t labels;
    char *first;
    int rc;
};

/* What every rule makes of one label, so that a label seen again (the
 * same configuration in thousands of files) costs no regex. */
struct label_memo {
    char *label;  /* NULL = free slot */
    char **vals;  /* per rule: the value, or NULL */
};

#define MEMO_MAX 4096 /* labels remembered; more are matched every time */

struct memo {
    pthread_mutex_t mu;
    struct label_memo *slots; /* open addressing, 2 * MEMO_MAX */
    size_t n;
    struct cost *cost; /* per rule, under mu */
};

struct pb_label_rules {
    struct rule *v;
    size_t n, cap;
    /* Only read by pcre2_match, so threads may share it. */
    pcre2_match_context *mctx;
    struct memo *memo; /* shared by threads under its mutex */
};

static void *check_alloc(void *p)
{
    if (!p) {
        fputs("poolbench: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void rules_add(struct pb_label_rules *r, const char *key, pcre2_code *re,
                      enum norm norm, const char *path, long line)
{
    PB_GROW(r->v, r->cap, r->n + 1);
    struct rule *u = &r->v[r->n++];
    memset(u, 0, sizeof(*u));
    u->key = pb_xstrdup(key);
    u->re = re;
    u->norm = norm;
    uint32_t all = 0;
    pcre2_pattern_info(re, PCRE2_INFO_ALLOPTIONS, &all);
    u->anchored = (all & PCRE2_ANCHORED) != 0;
    u->path = path ? pb_xstrdup(path) : NULL;
    u->line = line;
}

static void rule_release(struct rule *u)
{
    free(u->key);
    free(u->path);
    pcre2_code_free(u->re);
}

void pb_label_rules_free(struct pb_label_rules *rules)
{
    if (!rules)
        return;
    if (rules->memo && rules->memo->cost) {
        for (size_t i = 0; i < rules->n; i++)
            free(rules->memo->cost[i].first);
        free(rules->memo->cost);
    }
    for (size_t i = 0; i < rules->n; i++)
        rule_release(&rules->v[i]);
    free(rules->v);
    pcre2_match_context_free(rules->mctx);
    if (rules->memo) {
        for (size_t i = 0; rules->memo->slots && i < 2 * MEMO_MAX; i++) {
            struct label_memo *m = &rules->memo->slots[i];
            if (!m->label)
                continue;
            for (size_t k = 0; k < rules->n; k++)
                free(m->vals[k]);
            free(m->vals);
            free(m->label);
        }
        free(rules->memo->slots);
        pthread_mutex_destroy(&rules->memo->mu);
        free(rules->memo);
    }
    free(rules);
}

static enum norm norm_of_key(const char *key)
{
    for (size_t i = 0; i < NBUILTINS; i++)
        if (!strcmp(builtins[i].key, key))
            return builtins[i].norm;
    return N_TEXT;
}

/* Compile one pattern; on error fill err at path:line, column `col0` + the
 * offset PCRE2 reports. */
static pcre2_code *compile(const char *pat, size_t len, uint32_t opts,
                           const char *key, const char *path, long line,
                           long col0, struct pb_err *err)
{
    int ec;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, len,
                                   opts | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                                   &ec, &off, NULL);
    if (!re) {
        PCRE2_UCHAR msg[160];
        if (pcre2_get_error_message(ec, msg, sizeof(msg)) < 0)
            snprintf((char *)msg, sizeof(msg), "error %d", ec);
        pb_err_set(err, PB_EUSAGE, path, line, col0 + (long)off + 1,
                   "bad pattern for '%s': %s", key, (char *)msg);
        return NULL;
    }
    uint32_t ncap = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
    if (ncap != 1) {
        pcre2_code_free(re);
        pb_err_set(err, PB_EUSAGE, path, line, 0,
                   "pattern for '%s' has %u capture groups, wants exactly 1",
                   key, (unsigned)ncap);
        return NULL;
    }
    return re;
}

static int key_char_ok(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' ||
           c == ':';
}

/* Parse one non-comment line "key = pattern" into r. */
static int parse_line(const char *path, long lineno, const char *line,
                      size_t len, struct pb_label_rules *r, struct pb_err *err)
{
    if (memchr(line, '\0', len))
        return pb_err_set(err, PB_EUSAGE, path, lineno, 0,
                          "NUL byte in rules file");
    const char *eq = memchr(line, '=', len);
    if (!eq)
        return pb_err_set(err, PB_EUSAGE, path, lineno, 0,
                          "expected 'key = pattern'");
    const char *k = line, *ke = eq;
    while (k < ke && isspace((unsigned char)*k))
        k++;
    while (ke > k && isspace((unsigned char)ke[-1]))
        ke--;
    if (k == ke)
        return pb_err_set(err, PB_EUSAGE, path, lineno, 0,
                          "missing key before '='");
    char *key = pb_xstrndup(k, (size_t)(ke - k));
    for (char *p = key; *p; p++) {
        if (!key_char_ok(*p)) {
            pb_err_set(err, PB_EUSAGE, path, lineno, (long)(k - line) + 1,
                       "bad key '%s': use letters, digits and _ . - :", key);
            free(key);
            return PB_EUSAGE;
        }
        *p = (char)tolower((unsigned char)*p);
    }
    const char *p = eq + 1, *pe = line + len;
    while (p < pe && isspace((unsigned char)*p))
        p++;
    while (pe > p && isspace((unsigned char)pe[-1]))
        pe--;
    if (p == pe) {
        pb_err_set(err, PB_EUSAGE, path, lineno, 0, "missing pattern for '%s'",
                   key);
        free(key);
        return PB_EUSAGE;
    }
    pcre2_code *re = compile(p, (size_t)(pe - p), PCRE2_AUTO_CALLOUT, key,
                             path, lineno, (long)(p - line), err);
    if (re)
        rules_add(r, key, re, norm_of_key(key), path, lineno);
    free(key);
    return re ? PB_OK : PB_EUSAGE;
}

static int load_file(const char *path, struct pb_label_rules *user,
                     struct pb_err *err)
{
    char *buf;
    size_t len;
    struct pb_err e = {0};
    if (pb_read_file(path, &buf, &len, &e) != PB_OK) {
        /* A rules file named on the command line is a usage matter. */
        return pb_err_set(err, PB_EUSAGE, path, 0, 0, "%s", e.msg);
    }
    const char *s = buf, *end = buf + len;
    if (len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
        s += 3; /* UTF-8 byte order mark */
    int rc = PB_OK;
    for (long lineno = 1; s < end && rc == PB_OK; lineno++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        const char *q = s;
        while (q < le && isspace((unsigned char)*q))
            q++;
        if (q < le && *q != '#')
            rc = parse_line(path, lineno, s, (size_t)(le - s), user, err);
        s = nl ? nl + 1 : end;
    }
    free(buf);
    return rc;
}

int pb_label_rules_load(const char *path, struct pb_label_rules **out,
                        struct pb_err *err)
{
    *out = NULL;
    struct pb_label_rules *r = pb_xcalloc(1, sizeof(*r));
    r->mctx = check_alloc(pcre2_match_context_create(NULL));
    r->memo = pb_xcalloc(1, sizeof(*r->memo));
    pthread_mutex_init(&r->memo->mu, NULL);
    /* User patterns may backtrack badly; a label is short, so modest
     * limits only stop runaway patterns (see STEP_BUDGET). */
    pcre2_set_match_limit(r->mctx, MATCH_LIMIT);
    pcre2_set_depth_limit(r->mctx, DEPTH_LIMIT);
    pcre2_set_callout(r->mctx, count_step, NULL);

    struct pb_label_rules user = {0};
    if (path && load_file(path, &user, err) != PB_OK) {
        for (size_t i = 0; i < user.n; i++)
            rule_release(&user.v[i]);
        free(user.v);
        pb_label_rules_free(r);
        return PB_EUSAGE;
    }
    for (size_t i = 0; i < NBUILTINS; i++) {
        int replaced = 0;
        for (size_t j = 0; j < user.n && !replaced; j++)
            replaced = !strcmp(user.v[j].key, builtins[i].key);
        if (replaced)
            continue;
        pcre2_code *re = compile(builtins[i].pattern, PCRE2_ZERO_TERMINATED,
                                 PCRE2_CASELESS, builtins[i].key,
                                 "(built-in label rules)", (long)i + 1, 0, err);
        if (!re) {
            pb_label_rules_free(r);
            r = NULL;
            break;
        }
        /* Built-ins run on every distinct label (100,000 machine names:
         * 3 M matches): JIT-compiled when PCRE2 can, else interpreted.
         * User patterns stay interpreted, where their step budget and
         * limits are counted as documented. */
        (void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
        rules_add(r, builtins[i].key, re, builtins[i].norm, NULL,
                  (long)i + 1);
    }
    for (size_t j = 0; j < user.n; j++) {
        if (r) {
            PB_GROW(r->v, r->cap, r->n + 1);
            r->v[r->n++] = user.v[j];
        } else {
            rule_release(&user.v[j]);
        }
    }
    free(user.v);
    if (!r)
        return PB_EUSAGE;
    r->memo->cost = pb_xcalloc(r->n + 1, sizeof(*r->memo->cost));
    *out = r;
    return PB_OK;
}

/* ==== extraction ==== */

static int has_key(const struct pb_config *c, const char *key)
{
    for (size_t i = 0; i < c->nparams; i++)
        if (c->params[i].key && !strcmp(c->params[i].key, key))
            return 1;
    return 0;
}

/* Rule i hit a limit (rc) on label: count it for the warning. */
static void note_cost(const struct pb_label_rules *rules, size_t i,
                      const char *label, int rc)
{
    struct memo *m = rules->memo;
    pthread_mutex_lock(&m->mu);
    struct cost *c = &m->cost[i];
    c->labels++;
    if (!c->first || strcmp(label, c->first) < 0) {
        free(c->first);
        c->first = pb_xstrdup(label);
        c->rc = rc;
    }
    pthread_mutex_unlock(&m->mu);
}

/* The value of the first match of rule i whose capture normalises, or
 * NULL. Caller frees. */
static char *apply_rule(const struct pb_label_rules *rules, size_t i,
                        const char *label, size_t len, pcre2_match_data *md)
{
    const struct rule *r = &rules->v[i];
    PCRE2_SIZE start = 0;
    steps = 0; /* one budget for the whole label */
    while (start <= len) {
        int rc = pcre2_match(r->re, (PCRE2_SPTR)label, len, start, 0, md,
                             rules->mctx);
        if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* the interpreter then */
            rc = pcre2_match(r->re, (PCRE2_SPTR)label, len, start,
                             PCRE2_NO_JIT, md, rules->mctx);
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
            rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_CALLOUT) {
            note_cost(rules, i, label, rc);
            return NULL; /* too expensive: no value, and no retry */
        }
        if (rc < 0)
            return NULL; /* no match */
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (rc >= 2 && ov[2] != PCRE2_UNSET && ov[3] >= ov[2]) {
            char *cap = pb_xstrndup(label + ov[2], ov[3] - ov[2]);
            char *v = pb_label_normalise(r->norm, r->key, cap);
            free(cap);
            if (v)
                return v;
        }
        /* An anchored pattern matches at the start or nowhere. */
        if (r->anchored)
            return NULL;
        /* Try again one character later (overlapping matches too). */
        PCRE2_SIZE next = (ov[0] < start ? start : ov[0]) + 1;
        while (next < len && ((unsigned char)label[next] & 0xC0) == 0x80)
            next++;
        start = next;
    }
    return NULL;
}

/* Every rule's value for label (vals[i] NULL when rule i finds none).
 * Caller frees each value and the array. */
static char **match_all(const struct pb_label_rules *rules, const char *label,
                        size_t len)
{
    /* Per call, so one rules object serves many threads at once. Every
     * pattern has exactly one capture group: two ovector pairs suffice. */
    pcre2_match_data *md = check_alloc(pcre2_match_data_create(2, NULL));
    char **vals = pb_xcalloc(rules->n + 1, sizeof(*vals));
    for (size_t i = 0; i < rules->n; i++)
        vals[i] = apply_rule(rules, i, label, len, md);
    pcre2_match_data_free(md);
    return vals;
}

static uint32_t label_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The remembered values for label, matching and remembering them the
 * first time; NULL when the memo is full (the caller matches itself).
 * The values stay until the rules are freed. */
static char *const *memo_get(const struct pb_label_rules *rules,
                             const char *label, size_t len)
{
    struct memo *m = rules->memo;
    size_t cap = 2 * MEMO_MAX;
    uint32_t h = label_hash(label);
    pthread_mutex_lock(&m->mu);
    if (!m->slots)
        m->slots = pb_xcalloc(cap, sizeof(*m->slots));
    size_t i = h & (cap - 1);
    while (m->slots[i].label && strcmp(m->slots[i].label, label) != 0)
        i = (i + 1) & (cap - 1);
    char *const *vals = m->slots[i].label ? m->slots[i].vals : NULL;
    int full = m->n >= MEMO_MAX; /* read under the lock (TSan) */
    pthread_mutex_unlock(&m->mu);
    if (vals || full)
        return vals;
    /* Match without the lock; a thread that raced us wins. */
    char **mine = match_all(rules, label, len);
    pthread_mutex_lock(&m->mu);
    while (m->slots[i].label && strcmp(m->slots[i].label, label) != 0)
        i = (i + 1) & (cap - 1);
    if (!m->slots[i].label && m->n < MEMO_MAX) {
        m->slots[i].label = pb_xstrdup(label);
        m->slots[i].vals = mine;
        m->n++;
        mine = NULL;
    }
    vals = m->slots[i].label ? m->slots[i].vals : NULL;
    pthread_mutex_unlock(&m->mu);
    if (mine) {
        for (size_t k = 0; k < rules->n; k++)
            free(mine[k]);
        free(mine);
    }
    return vals;
}

/* The origin of what the rules read out of a label: "label: " and the
 * label, cut after LABEL_ORIGIN_MAX bytes (and the rest of a UTF-8
 * character). */
#define LABEL_ORIGIN_MAX 160

void pb_label_extract(const struct pb_label_rules *rules,
                      struct pb_resultset *set, size_t config)
{
    if (!rules || !set || config >= set->nconfigs)
        return;
    const char *label = set->configs[config].label;
    size_t n = 0;
    while (label && label[n] &&
           (n < LABEL_ORIGIN_MAX || ((unsigned char)label[n] & 0xC0) == 0x80))
        n++;
    char *origin = pb_xasprintf("label: %.*s%s", (int)n, label ? label : "",
                                label && label[n] ? "..." : "");
    pb_label_extract_origin(rules, set, config, origin);
    free(origin);
}

void pb_label_extract_origin(const struct pb_label_rules *rules,
                             struct pb_resultset *set, size_t config,
                             const char *origin)
{
    if (!rules || !set || config >= set->nconfigs)
        return;
    const char *label = set->configs[config].label;
    if (!label || !*label || set->configs[config].label_is_name)
        return;
    size_t len = 0;
    while (len < LABEL_MAX && label[len])
        len++;
    char *const *vals = len < LABEL_MAX ? memo_get(rules, label, len) : NULL;
    char **own = vals ? NULL : match_all(rules, label, len);
    /* "zvol, recordsize 8k": a zvol has no recordsize, the label means
     * its volblocksize */
    int zvol = 0, vbs = 0;
    for (size_t i = 0; i < rules->n; i++) {
        const char *v = vals ? vals[i] : own[i];
        const char *k = rules->v[i].key;
        zvol |= v && !strcmp(k, "disk_format") && !strcmp(v, "zvol");
        vbs |= v && !strcmp(k, "volblocksize");
    }
    for (size_t i = 0; i < rules->n; i++) {
        const char *v = vals ? vals[i] : own[i];
        const char *key = rules->v[i].key;
        char *o2 = NULL;
        if (v && zvol && !strcmp(key, "recordsize")) {
            if (vbs)
                continue; /* the label names the volblocksize itself */
            key = "volblocksize";
            o2 = pb_xasprintf("%s (a zvol's recordsize: its volblocksize)",
                              origin ? origin : "label");
        }
        if (v && !has_key(&set->configs[config], key))
            pb_rs_config_param_origin(set, config, key, v, o2 ? o2 : origin);
        free(o2);
    }
    if (own) {
        for (size_t i = 0; i < rules->n; i++)
            free(own[i]);
        free(own);
    }
}

/* ==== cost warnings ==== */

size_t pb_label_rules_warn(const struct pb_label_rules *rules, FILE *fp)
{
    if (!rules || !rules->memo || !rules->memo->cost)
        return 0;
    size_t n = 0;
    struct memo *m = rules->memo;
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < rules->n; i++) {
        const struct cost *c = &m->cost[i];
        const struct rule *r = &rules->v[i];
        if (!c->labels)
            continue;
        /* the label as one printable line, cut after 40 bytes (and the
         * rest of a UTF-8 character) */
        char ex[48];
        size_t k = 0;
        for (const char *p = c->first;
             *p && k < 46 &&
             (k < 40 || ((unsigned char)*p & 0xC0) == 0x80);
             p++)
            ex[k++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
        ex[k] = '\0';
        const char *limit = c->rc == PCRE2_ERROR_CALLOUT
                                ? "its step budget"
                                : c->rc == PCRE2_ERROR_DEPTHLIMIT
                                      ? "PCRE2's depth limit"
                                      : c->rc == PCRE2_ERROR_HEAPLIMIT
                                            ? "PCRE2's heap limit"
                                            : "PCRE2's match limit";
        fprintf(fp,
                "poolbench: %s:%ld: pattern for '%s' is too expensive: it "
                "hit %s on %zu label%s (first: \"%s%s\"), which got no "
                "'%s' from it; simplify the pattern (nested repeats such "
                "as (a+)+ backtrack without end)\n",
                r->path ? r->path : "(built-in label rules)", r->line, r->key,
                limit, c->labels, c->labels == 1 ? "" : "s", ex,
                strlen(c->first) > k ? "..." : "", r->key);
        n++;
    }
    pthread_mutex_unlock(&m->mu);
    return n;
}
