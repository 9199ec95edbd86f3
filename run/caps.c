/* What the ZFS and fio in use can do, read from their own help texts: the
 * property table `zfs get` / `zpool get` print without arguments (names
 * and the values each takes), the pool version of `zpool upgrade -v`, and
 * `fio --cmdhelp=KEY`. Pure parsing and matching; the probing that runs
 * the commands is in preflight.c. */
#define _GNU_SOURCE
#include "run/preflight_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== property tables ==== */

static int yesno(const char *s, size_t n)
{
    return (n == 3 && !strncmp(s, "YES", 3)) || (n == 2 && !strncmp(s, "NO",
                                                                     2));
}

size_t pb_run_props_parse(const char *text, struct pb_run_prop **out)
{
    *out = NULL;
    size_t n = 0, cap = 0;
    const char *s = strstr(text, "PROPERTY");
    if (!s)
        return 0;
    s += strcspn(s, "\n");
    while (*s) {
        if (*s == '\n')
            s++;
        size_t len = strcspn(s, "\n");
        const char *line = s, *end = s + len;
        s = end;
        const char *q = line;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == end)
            continue; /* blank line around the table */
        if (q == line)
            break;    /* unindented text: the table is over */
        const char *name = q;
        while (q < end && *q != ' ' && *q != '\t')
            q++;
        size_t nl = (size_t)(q - name);
        /* EDIT (and INHERIT for datasets): YES or NO */
        int cols = 0;
        for (;;) {
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            size_t k = 0;
            while (q + k < end && q[k] != ' ' && q[k] != '\t')
                k++;
            if (cols < 2 && yesno(q, k)) {
                q += k;
                cols++;
                continue;
            }
            break;
        }
        if (cols == 0)
            continue;
        size_t vl = (size_t)(end - q);
        while (vl > 0 && (q[vl - 1] == ' ' || q[vl - 1] == '\r'))
            vl--;
        PB_GROW(*out, cap, n + 1);
        (*out)[n].name = pb_xstrndup(name, nl);
        (*out)[n].values = pb_xstrndup(q, vl);
        n++;
    }
    return n;
}

void pb_run_props_free(struct pb_run_prop *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].name);
        free(p[i].values);
    }
    free(p);
}

void pb_run_caps_release(struct pb_run_caps *c)
{
    pb_run_props_free(c->ds, c->nds);
    pb_run_props_free(c->pool, c->npool);
    memset(c, 0, sizeof(*c));
}

int pb_run_pool_version_parse(const char *text)
{
    const char *v = strstr(text, "pool version ");
    if (v && strstr(text, "running"))
        return (int)strtol(v + 13, NULL, 10);
    if (strstr(text, "feature flags"))
        return 5000;
    return 0;
}

/* ==== values ==== */

/* "gzip-[1-9]" / "zstd-fast-[1-10,20,...]": prefix, then a number in one
 * of the bracket's ranges. */
static int fits_bracket(const char *alt, size_t n, const char *v)
{
    const char *lb = memchr(alt, '[', n);
    if (!lb || alt[n - 1] != ']')
        return 0;
    size_t pl = (size_t)(lb - alt);
    if (strncmp(v, alt, pl))
        return 0;
    const char *num = v + pl;
    if (lb[1] == ',') { /* "sha256[,verify]" */
        size_t rest = n - pl - 2; /* ",verify" */
        return !*num || (!strncmp(num, lb + 1, rest) && !num[rest]);
    }
    char *e;
    long x = strtol(num, &e, 10);
    if (e == num || *e || !isdigit((unsigned char)*num))
        return 0;
    const char *q = lb + 1, *stop = alt + n - 1;
    while (q < stop) {
        char *qe;
        long lo = strtol(q, &qe, 10), hi = lo;
        if (qe == q)
            return 0;
        q = qe;
        if (*q == '-') {
            hi = strtol(q + 1, &qe, 10);
            q = qe;
        }
        if (x >= lo && x <= hi)
            return 1;
        if (*q == ',')
            q++;
        else
            break;
    }
    return 0;
}

/* "512 to 128k, power of 2" (optionally "zero or ..."). */
static int fits_range(const char *spec, const char *v)
{
    const char *to = strstr(spec, " to ");
    if (!to)
        return 0;
    const char *lo_s = spec;
    if (!strncmp(lo_s, "zero or ", 8)) {
        lo_s += 8;
        if (!strcmp(v, "0") || !strcmp(v, "zero"))
            return 1;
    }
    char lo_b[32], hi_b[32];
    snprintf(lo_b, sizeof(lo_b), "%.*s", (int)(to - lo_s), lo_s);
    const char *hs = to + 4;
    snprintf(hi_b, sizeof(hi_b), "%.*s", (int)strcspn(hs, ", "), hs);
    double lo, hi, x;
    if (pb_parse_size(lo_b, 0, &lo) != 0 || pb_parse_size(hi_b, 0, &hi) != 0 ||
        pb_parse_size(v, 0, &x) != 0)
        return 0;
    if (x < lo || x > hi)
        return 0;
    if (strstr(spec, "power of 2")) {
        double l = log2(x);
        return l == floor(l);
    }
    return 1;
}

int pb_run_value_fits(const char *spec, const char *v)
{
    if (strstr(spec, " to "))
        return fits_range(spec, v);
    const char *s = spec;
    while (*s) {
        while (*s == ' ')
            s++;
        const char *bar = strstr(s, " | ");
        size_t n = bar ? (size_t)(bar - s) : strlen(s);
        while (n > 0 && s[n - 1] == ' ')
            n--;
        if (n > 0) {
            if (*s == '<')
                return 1; /* <size>, <path>, ...: free form */
            if (strchr(s, ' ') && (size_t)(strchr(s, ' ') - s) < n)
                return 1; /* "share(1M) options": free text */
            if (strlen(v) == n && !strncmp(s, v, n))
                return 1;
            if (fits_bracket(s, n, v))
                return 1;
        }
        if (!bar)
            break;
        s = bar + 3;
    }
    return 0;
}

int pb_run_caps_lacks(const struct pb_run_caps *c, const char *key)
{
    for (size_t i = 0; i < c->nds; i++)
        if (!strcmp(c->ds[i].name, key))
            return 0;
    return c->nds > 0;
}

const char *pb_run_prop_check(const struct pb_run_prop *t, size_t n,
                              const char *key, const char *value, char *buf,
                              size_t len)
{
    if (strchr(key, ':'))
        return NULL; /* user property */
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i].name, key))
            continue;
        if (pb_run_value_fits(t[i].values, value))
            return NULL;
        snprintf(buf, len, "does not take that value (%s: %s)", key,
                 t[i].values);
        return buf;
    }
    snprintf(buf, len, "has no property '%s'", key);
    return buf;
}

/* ==== sizes to read ==== */

const char *pb_run_approx_size(double b, char *buf, size_t n)
{
    static const char u[] = "KMGTP";
    int k = -1;
    while (b >= 1024 && k < 4) {
        b /= 1024;
        k++;
    }
    if (k < 0)
        snprintf(buf, n, "%.0f", b);
    else if (b >= 100 || b == floor(b))
        snprintf(buf, n, "%.0f%c", b, u[k]);
    else
        snprintf(buf, n, "%.1f%c", b, u[k]);
    return buf;
}

/* ==== fio ==== */

void pb_run_strv_free(char **v)
{
    if (!v)
        return;
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

int pb_run_fio_help_parse(const char *text, char ***vals)
{
    *vals = NULL;
    if (strstr(text, "No such command") || !strchr(text, ':'))
        return 0;
    const char *s = strstr(text, "valid values:");
    if (!s)
        return 1;
    size_t n = 0, cap = 0;
    s += strlen("valid values");
    while (*s) {
        /* ": name  description" */
        const char *colon = s;
        size_t len = strcspn(s, "\n");
        const char *end = s + len;
        while (colon < end && *colon != ':')
            colon++;
        if (colon == end)
            break;
        const char *v = colon + 1;
        while (v < end && *v == ' ')
            v++;
        size_t k = 0;
        while (v + k < end && v[k] != ' ' && v[k] != '\t')
            k++;
        if (k) {
            PB_GROW(*vals, cap, n + 2);
            (*vals)[n++] = pb_xstrndup(v, k);
            (*vals)[n] = NULL;
        }
        s = *end ? end + 1 : end;
        /* the list goes on on lines that start with blanks and ':' */
        const char *q = s;
        while (*q == ' ')
            q++;
        if (*q != ':')
            break;
    }
    return 1;
}
