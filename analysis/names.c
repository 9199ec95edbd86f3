/* The text of the report's data as it is read: strings made valid,
 * XML-safe UTF-8, natural order, the kind of a metric's unit and the
 * display text of a parameter value (the data model sorts and names by
 * them; render/ draws with them too), a metric's human name, and
 * rp_cat. Moved from render/html.c and render/units.c. */
#include "analysis/data.h"

#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of a valid UTF-8 sequence at s that XML 1.0 allows, or 0:
 * no control characters, no U+FFFE or U+FFFF. s is NUL-terminated. */
static size_t valid_seq(const unsigned char *s)
{
    if (s[0] < 0x80)
        return (s[0] >= 0x20 && s[0] != 0x7f) ? 1 : 0;
    size_t k = pb_utf8_len(s, 4);
    if (k == 3 && s[0] == 0xef && s[1] == 0xbf &&
        (s[2] == 0xbe || s[2] == 0xbf))
        return 0;
    return k;
}

size_t rp_u8len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            return 1;
    return n;
}

char *rp_clean(struct pb_arena *a, const char *s)
{
    if (!s)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    /* Fast path: most strings are plain printable ASCII. */
    size_t i = 0;
    while (p[i] >= 0x20 && p[i] < 0x7f)
        i++;
    if (!p[i])
        return pb_arena_strndup(a, s, i);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_add(&b, s, i);
    while (p[i]) {
        size_t n = valid_seq(p + i);
        if (n) {
            pb_buf_add(&b, (const char *)p + i, n);
            i += n;
        } else if (p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
            pb_buf_putc(&b, ' ');
            i++;
        } else {
            pb_buf_puts(&b, "\xef\xbf\xbd"); /* U+FFFD */
            i++;
        }
    }
    char *r = pb_arena_strndup(a, pb_buf_str(&b), b.len);
    pb_buf_release(&b);
    return r;
}

int rp_natcmp(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t la = 0, lb = 0;
            while (isdigit((unsigned char)a[la]))
                la++;
            while (isdigit((unsigned char)b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = memcmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a || *b)
        return *a ? 1 : -1;
    /* Equal as numbers ("07" and "7"): keep a total order. */
    return strcmp(a0, b0);
}

void rp_unit_of(const char *metric, const char *unit, struct rp_unit *out)
{
    size_t ml = metric ? strlen(metric) : 0;
    out->raw = unit ? unit : "";
    if (!unit)
        unit = "";
    if (!strcmp(unit, "B/s"))
        out->kind = RP_U_BPS;
    else if (!strcmp(unit, "ops/s"))
        out->kind = (ml >= 4 && !strcmp(metric + ml - 4, "iops")) ? RP_U_IOPS
                                                                  : RP_U_OPS;
    else if (!strcmp(unit, "ns"))
        out->kind = RP_U_NS;
    else if (!strcmp(unit, "B"))
        out->kind = RP_U_BYTES;
    else if (!strcmp(unit, "%"))
        out->kind = RP_U_PCT;
    else if (!strcmp(unit, "ratio") || !strcmp(unit, "x"))
        out->kind = RP_U_RATIO;
    else
        out->kind = RP_U_OTHER;
}

int rp_size_key(const char *key)
{
    if (!key)
        return 0;
    size_t l = strlen(key);
    return !strcmp(key, "bs") || !strncmp(key, "bs_", 3) ||
           (l >= 4 && !strcmp(key + l - 4, "size"));
}

const char *rp_param_text(const char *key, const char *value, char *buf,
                          size_t n)
{
    if (!value)
        return "";
    if (!strcmp(key, "runtime")) { /* stored in ns: show "2s", "1.5m" */
        char *end;
        double v = strtod(value, &end);
        if (end != value && !*end && v >= 0 && isfinite(v)) {
            char num[32];
            if (v >= 60e9 && fmod(v, 60e9) == 0)
                snprintf(buf, n, "%sm", pb_fmt_num(v / 60e9, num, sizeof(num)));
            else if (v >= 1e9)
                snprintf(buf, n, "%ss", pb_fmt_num(v / 1e9, num, sizeof(num)));
            else
                snprintf(buf, n, "%sms", pb_fmt_num(v / 1e6, num, sizeof(num)));
            return buf;
        }
    }
    if (rp_size_key(key)) {
        char *end;
        double v = strtod(value, &end);
        if (end != value && !*end && v >= 0 && isfinite(v)) {
            char tmp[32];
            pb_fmt_size(v, tmp, sizeof(tmp));
            snprintf(buf, n, "%s", tmp);
            return buf;
        }
    }
    return value;
}

char *rp_cat(char *buf, size_t n, ...)
{
    va_list ap;
    va_start(ap, n);
    size_t len = 0;
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL)
        for (; *s && len + 1 < n; s++)
            buf[len++] = *s;
    va_end(ap);
    if (n)
        buf[len] = '\0';
    return buf;
}

static const struct {
    const char *name, *title;
} titles[] = {
    {"usr_cpu", "user CPU"},
    {"sys_cpu", "system CPU"},
    {"seq_out_char_bw", "sequential output, per char"},
    {"seq_out_block_bw", "sequential output, block"},
    {"seq_rewrite_bw", "sequential rewrite"},
    {"seq_in_char_bw", "sequential input, per char"},
    {"seq_in_block_bw", "sequential input, block"},
    {"random_seeks", "random seeks"},
    {"seq_create", "sequential create"},
    {"seq_stat", "sequential read (stat)"},
    {"seq_delete", "sequential delete"},
    {"rand_create", "random create"},
    {"rand_stat", "random read (stat)"},
    {"rand_delete", "random delete"},
    {"bkwd_read_bw", "backward read bandwidth"},
    {"compressratio", "compression ratio"},
    {"actual_savings", "actual savings (logical / written bytes)"},
    {"logicalused", "logical used"},
    {"value", "PTS result"},
};

static const struct {
    const char *suffix, *title;
} fio_parts[] = {
    {"_iops", " IOPS"},
    {"_bw", " bandwidth"},
    {"_lat_mean", " latency, mean"},
    {"_clat_mean", " completion latency, mean"},
    {"_slat_mean", " submission latency, mean"},
    {"_clat_max", " completion latency, max"},
    {"_bytes", " bytes"},
    {"_runtime", " runtime"},
};

const char *rp_metric_title(const char *metric, char *buf, size_t n)
{
    if (!metric)
        metric = "";
    for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
        if (!strcmp(metric, titles[i].name)) {
            rp_cat(buf, n, titles[i].title, (char *)NULL);
            return buf;
        }
    static const char *const dirs[] = {"read", "write", "trim"};
    for (size_t d = 0; d < 3; d++) {
        size_t dl = strlen(dirs[d]);
        if (strncmp(metric, dirs[d], dl) || metric[dl] != '_')
            continue;
        const char *rest = metric + dl;
        for (size_t i = 0; i < sizeof(fio_parts) / sizeof(fio_parts[0]); i++)
            if (!strcmp(rest, fio_parts[i].suffix)) {
                rp_cat(buf, n, dirs[d], fio_parts[i].title, (char *)NULL);
                return buf;
            }
        if (!strncmp(rest, "_clat_p", 7)) {
            snprintf(buf, n, "%s completion latency, %s", dirs[d], rest + 6);
            return buf;
        }
    }
    /* Generic: underscores to spaces, "_bw" as "bandwidth". */
    size_t l = strlen(metric);
    if (l > 3 && !strcmp(metric + l - 3, "_bw"))
        snprintf(buf, n, "%.*s bandwidth", (int)(l - 3), metric);
    else
        rp_cat(buf, n, metric, (char *)NULL);
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = ' ';
    return buf;
}
