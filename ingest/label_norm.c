/* What a label rule's captured text becomes as a config_param value:
 * block sizes as bytes, ashift and counts as integers, pool layouts,
 * compression, sync, on/off and yes/no flags in one spelling each
 * (docs/label-rules.md lists them). */
#include "ingest/ingest_int.h"
#include "ingest/labels_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN 512.0
#define BLOCK_MAX (16.0 * 1024 * 1024)

/* Lowercase copy without leading and trailing white space. */
static char *lower_trim(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    char *r = pb_xstrndup(s, n);
    for (char *p = r; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return r;
}

/* Copy of s without the characters of `drop`. */
static void squeeze(char *s, const char *drop)
{
    char *w = s;
    for (char *p = s; *p; p++)
        if (!strchr(drop, *p))
            *w++ = *p;
    *w = '\0';
}

static char *norm_block(const char *text)
{
    char *s = lower_trim(text);
    squeeze(s, " \t");
    size_t n = strlen(s);
    if (n > 5 && !strcmp(s + n - 5, "bytes"))
        s[n - 5] = '\0';
    else if (n > 4 && !strcmp(s + n - 4, "byte"))
        s[n - 4] = '\0';
    double v;
    char *out = NULL;
    if (pb_parse_size(s, 0, &v) == 0 && v >= BLOCK_MIN && v <= BLOCK_MAX &&
        v == floor(v)) {
        /* Bare numbers are bytes; BLOCK_MIN already refuses "recordsize
         * 128", which may mean KiB: guessing would store nonsense. */
        double l = log2(v);
        if (l == floor(l))
            out = pb_xasprintf("%.0f", v);
    }
    free(s);
    return out;
}

static char *norm_int(const char *text, long lo, long hi)
{
    char *s = lower_trim(text);
    char *end;
    long v = strtol(s, &end, 10);
    char *out = NULL;
    if (end != s && *end == '\0' && isdigit((unsigned char)*s) && v >= lo &&
        v <= hi)
        out = pb_xasprintf("%ld", v);
    free(s);
    return out;
}

static char *norm_layout(const char *text)
{
    static const struct {
        const char *from, *to;
    } map[] = {
        {"raidz", "raidz1"},    {"draid", "draid1"},   {"mirrors", "mirror"},
        {"mirrored", "mirror"}, {"stripes", "stripe"}, {"striped", "stripe"},
        {"raid0", "stripe"},    {"raid1", "mirror"},   {"raid10", "mirror"},
        {"raid5", "raidz1"},    {"raid6", "raidz2"},
    };
    char *s = lower_trim(text);
    squeeze(s, " _-");
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (!strcmp(s, map[i].from)) {
            free(s);
            return pb_xstrdup(map[i].to);
        }
    }
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

/* Does s start with a negation: "no", "without", "w/o"? Returns the length
 * of the negating word, 0 when there is none. */
static size_t negation(const char *s)
{
    static const char *const neg[] = {"without", "w/o", "no"};
    for (size_t i = 0; i < sizeof(neg) / sizeof(neg[0]); i++) {
        size_t n = strlen(neg[i]);
        if (!strncmp(s, neg[i], n))
            return n;
    }
    return 0;
}

static char *norm_compress(const char *text)
{
    char *s = lower_trim(text);
    if (!*s) {
        free(s);
        return NULL;
    }
    if (negation(s) || !strcmp(s, "none") || !strcmp(s, "uncompressed") ||
        !strcmp(s, "nocompress")) {
        free(s);
        return pb_xstrdup("off");
    }
    if (!strncmp(s, "gzip", 4) || !strncmp(s, "zstd", 4)) {
        /* gzip9, gzip_9 -> gzip-9; zstdfast_1 -> zstd-fast-1 */
        char *p = s + 4;
        squeeze(p, "-_ ");
        struct pb_buf b = PB_BUF_INIT;
        pb_buf_add(&b, s, 4);
        if (!strncmp(p, "fast", 4)) {
            pb_buf_puts(&b, "-fast");
            p += 4;
        }
        if (*p)
            pb_buf_printf(&b, "-%s", p);
        free(s);
        return pb_buf_take(&b);
    }
    return s;
}

static char *norm_sync(const char *text)
{
    char *s = lower_trim(text);
    if (!strcmp(s, "off") || !strcmp(s, "disable") || !strcmp(s, "disabled")) {
        free(s);
        return pb_xstrdup("disabled");
    }
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

static char *norm_onoff(const char *text)
{
    static const char *const off[] = {"off", "no",      "false",
                                      "0",   "noatime", "disabled"};
    static const char *const on[] = {"on", "yes", "true", "1", "enabled"};
    char *s = lower_trim(text);
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
        if (!strcmp(s, off[i])) {
            free(s);
            return pb_xstrdup("off");
        }
    for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
        if (!strcmp(s, on[i])) {
            free(s);
            return pb_xstrdup("on");
        }
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

static char *norm_flag(const char *text)
{
    static const char *const no[] = {"no",    "none", "off",
                                     "false", "0",    "disabled"};
    static const char *const dev[] = {"slog", "log", "zil", "cache", "l2"};
    char *s = lower_trim(text);
    int is_no = 0;
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (!strcmp(s, no[i]))
            is_no = 1;
    size_t n = negation(s);
    if (n > 0 && n < 3) {
        /* "no" must be a word of its own or glued to the device word
         * ("nolog", "no-cache"), not the start of "nvme0"-like names. */
        const char *p = s + n;
        while (*p == ' ' || *p == '_' || *p == '-')
            p++;
        for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
            if (!strncmp(p, dev[i], strlen(dev[i])))
                is_no = 1;
    } else if (n >= 3) {
        is_no = 1;
    }
    int empty = !*s;
    free(s);
    if (empty)
        return NULL;
    return pb_xstrdup(is_no ? "no" : "yes");
}

char *pb_label_normalise(enum norm norm, const char *key, const char *text)
{
    switch (norm) {
    case N_WORD: {
        char *s = lower_trim(text);
        if (!*s) {
            free(s);
            return NULL;
        }
        return s;
    }
    case N_BLOCK:
        return norm_block(text);
    case N_ASHIFT:
        return norm_int(text, 9, 16);
    case N_COUNT:
        return norm_int(text, 1, 9999);
    case N_LAYOUT:
        return norm_layout(text);
    case N_COMPRESS:
        return norm_compress(text);
    case N_SYNC:
        return norm_sync(text);
    case N_ONOFF:
        return norm_onoff(text);
    case N_FLAG:
        return norm_flag(text);
    case N_TEXT:
        break;
    }
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return NULL;
    char *t = lower_trim(text);
    /* pb_ingest_norm_param keeps the case of "label" only; trim first. */
    char *r = pb_ingest_norm_param(key, t);
    free(t);
    return r;
}
