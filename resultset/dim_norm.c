/* Values normalised before they become dimensions, whoever read them (a
 * parser, --set, a sheet, a label rule, a pasted command, a plan): white
 * space of any kind trimmed and single, lower case, sizes in bytes, one
 * spelling of a pool layout (docs/model.md, "How values are
 * normalised"). */
#include "resultset/resultset.h"

#include <stdio.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ==== white space ==== */

/* resultset.h: the spaces copied text keeps, as UTF-8 */
size_t pb_space_len(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        return 1;
    if (s[0] == 0xC2 && s[1] == 0xA0) /* U+00A0 */
        return 2;
    if (s[0] == 0xE1 && s[1] == 0x9A && s[2] == 0x80) /* U+1680 */
        return 3;
    /* U+2000-U+200B, U+202F */
    if (s[0] == 0xE2 && s[1] == 0x80 &&
        ((s[2] >= 0x80 && s[2] <= 0x8B) || s[2] == 0xAF))
        return 3;
    if (s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F) /* U+205F */
        return 3;
    if (s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) /* U+3000 */
        return 3;
    if (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) /* U+FEFF */
        return 3;
    return 0;
}

/* value without white space at either end, each run inside one ' ',
 * lower case unless keep_case; a heap string. */
static char *squash(const char *value, int keep_case)
{
    const unsigned char *p = (const unsigned char *)value;
    char *out = pb_xmalloc(strlen(value) + 1), *w = out;
    int gap = 0;
    while (*p) {
        size_t k = pb_space_len((const char *)p);
        if (k) {
            gap = w > out;
            p += k;
            continue;
        }
        if (gap)
            *w++ = ' ';
        gap = 0;
        *w++ = keep_case ? (char)*p : (char)tolower(*p);
        p++;
    }
    *w = '\0';
    return out;
}

/* ==== sizes ==== */

static int is_size_key(const char *key)
{
    static const char *const keys[] = {"recordsize",
                                       "volblocksize",
                                       "bs",
                                       "size",
                                       "file_size",
                                       "record_size",
                                       "blocksize",
                                       "special_small_blocks",
                                       "disk_cluster_size",
                                       "guest_block_size",
                                       NULL};
    for (size_t i = 0; keys[i]; i++)
        if (!strcasecmp(key, keys[i]))
            return 1;
    return 0;
}

char *pb_ingest_norm_param(const char *key, const char *value)
{
    char *s = squash(value, !strcasecmp(key, "label"));
    double v;
    if (is_size_key(key) && pb_parse_size(s, 0, &v) == 0) {
        char num[64];
        free(s);
        return pb_xstrdup(pb_fmt_num(v, num, sizeof(num)));
    }
    return s;
}

/* ==== layouts ==== */

const char *pb_vdev_group_type(const char *s, size_t n, char *buf, size_t cap)
{
    char w[32];
    if (n == 0 || n >= sizeof(w) || cap < 8)
        return NULL;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = '\0';
    /* "mirror-0", "raidz2-1": the index zpool status adds */
    char *dash = strrchr(w, '-');
    if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
        *dash = '\0';
    if (!strcmp(w, "mirror")) {
        snprintf(buf, cap, "mirror");
        return buf;
    }
    if (strncmp(w, "raidz", 5) != 0 && strncmp(w, "draid", 5) != 0)
        return NULL;
    const char *p = w + 5;
    char level = '1';
    if (*p >= '1' && *p <= '3')
        level = *p++;
    /* draid2:4d:1s:7c: the spec after ':' says nothing of the type */
    if (*p && !(w[0] == 'd' && *p == ':'))
        return NULL;
    snprintf(buf, cap, "%.5s%c", w, level);
    return buf;
}

/* "2x mirror", "2 x raidz2", "2×mirror", "3*raidz": the count of vdevs
 * and where the type starts; 0 when s is not so. */
static long vdev_count(const char *s, const char **type)
{
    long n = 0;
    const char *p = s;
    while (isdigit((unsigned char)*p) && n < 10000)
        n = n * 10 + (*p++ - '0');
    if (p == s || n == 0 || n >= 10000)
        return 0;
    while (*p == ' ')
        p++;
    if (*p == 'x' || *p == '*')
        p++;
    else if (!strncmp(p, "\xC3\x97", 2)) /* U+00D7 */
        p += 2;
    else
        return 0;
    while (*p == ' ')
        p++;
    *type = p;
    return n;
}

char *pb_dim_norm(const char *key, const char *value, long *vdevs)
{
    *vdevs = 0;
    char *s = pb_ingest_norm_param(key, value);
    if (strcmp(key, "layout") != 0)
        return s;
    /* one form everywhere: the type ("raidz" is raidz1), and the count
     * of an "Nx TYPE" in vdevs */
    const char *type = s;
    long n = vdev_count(s, &type);
    char buf[16];
    /* not "raidz-2": the "-N" of a zpool status name is no level */
    const char *g = strchr(type, '-') ? NULL
                                      : pb_vdev_group_type(type, strlen(type),
                                                           buf, sizeof(buf));
    if (!g && n && !strcmp(type, "stripe"))
        g = type;
    if (!g)
        return s; /* "mirror+stripe", "stripe", a word of the user's own */
    char *r = pb_xstrdup(g);
    *vdevs = n;
    free(s);
    return r;
}
