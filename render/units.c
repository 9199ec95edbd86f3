/* Human units for the report: which scale a canonical value reads best in
 * (KiB/s..GiB/s, k/M IOPS, ns..s), 4-significant-digit labels, round axis
 * ticks, and display names of metrics and parameter values. */
#include "render/rp_base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct step {
    double div;
    const char *prefix, *name;
};

static const struct step s_bps[] = {{1, "", "B/s"},
                                    {1024.0, "", "KiB/s"},
                                    {1048576.0, "", "MiB/s"},
                                    {1073741824.0, "", "GiB/s"},
                                    {1099511627776.0, "", "TiB/s"},
                                    {0, NULL, NULL}};
static const struct step s_bytes[] = {{1, "", "B"},
                                      {1024.0, "", "KiB"},
                                      {1048576.0, "", "MiB"},
                                      {1073741824.0, "", "GiB"},
                                      {1099511627776.0, "", "TiB"},
                                      {1125899906842624.0, "", "PiB"},
                                      {0, NULL, NULL}};
static const struct step s_ns[] = {{1, "", "ns"},
                                   {1e3, "", "µs"},
                                   {1e6, "", "ms"},
                                   {1e9, "", "s"},
                                   {0, NULL, NULL}};

void rp_scale_for(const struct rp_unit *u, double maxabs, struct rp_scale *out)
{
    const struct step *tab = NULL;
    const char *si_name = NULL;
    maxabs = fabs(maxabs);
    if (!isfinite(maxabs))
        maxabs = 0;
    switch (u->kind) {
    case RP_U_BPS:
        tab = s_bps;
        break;
    case RP_U_BYTES:
        tab = s_bytes;
        break;
    case RP_U_NS:
        tab = s_ns;
        break;
    case RP_U_IOPS:
        si_name = "IOPS";
        break;
    case RP_U_OPS:
        si_name = "ops/s";
        break;
    case RP_U_OTHER:
        si_name = u->raw;
        break;
    case RP_U_PCT:
        rp_cat(out->name, sizeof(out->name), "%", (char *)NULL);
        out->div = 1;
        out->prefix[0] = '\0';
        return;
    case RP_U_RATIO:
        rp_cat(out->name, sizeof(out->name), "×", (char *)NULL);
        out->div = 1;
        out->prefix[0] = '\0';
        return;
    }
    out->prefix[0] = '\0';
    if (tab) {
        size_t i = 0;
        while (tab[i + 1].name && maxabs >= tab[i + 1].div)
            i++;
        out->div = tab[i].div;
        rp_cat(out->name, sizeof(out->name), tab[i].name, (char *)NULL);
        return;
    }
    /* SI prefixes only from 10,000 on: "9500 IOPS", "37.93k IOPS". */
    static const struct step si[] = {{1, "", NULL},
                                     {1e3, "k", NULL},
                                     {1e6, "M", NULL},
                                     {1e9, "G", NULL},
                                     {1e12, "T", NULL}};
    size_t i = 0;
    while (i + 1 < sizeof(si) / sizeof(si[0]) && maxabs >= si[i + 1].div * 10)
        i++;
    out->div = si[i].div;
    rp_cat(out->prefix, sizeof(out->prefix), si[i].prefix, (char *)NULL);
    rp_cat(out->name, sizeof(out->name), si_name ? si_name : "",
           (char *)NULL);
}

/* Decimals for 4 significant digits of x. */
static int sig4(double x)
{
    x = fabs(x);
    if (x == 0 || x >= 1000)
        return 0;
    if (x >= 100)
        return 1;
    if (x >= 10)
        return 2;
    return 3;
}

/* Decimals for 2 significant digits of x (at most 6). */
static int sig2(double x)
{
    x = fabs(x);
    if (x == 0 || !isfinite(x))
        return 0;
    int d = 1 - (int)floor(log10(x));
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* The separator between number and unit name. */
static const char *sep(const struct rp_unit *u, const struct rp_scale *s)
{
    if (u->kind == RP_U_PCT || u->kind == RP_U_RATIO || !s->name[0])
        return "";
    return " ";
}

static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                             1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16};

/* The integer nearest y >= 0 (y < 1e12, so y is within 1.2e-4 of the
 * exact product it was rounded from), or -1 when the exact value may lie
 * on the other side of a .5 than y: then only printf knows. */
static long long nearest(double y)
{
    double f = floor(y), frac = y - f;
    if (fabs(frac - 0.5) < 1e-3)
        return -1;
    return (long long)f + (frac > 0.5);
}

/* Digits of r, with a decimal point before the last `decimals` of them
 * (zero-padded: r = 5, decimals 3: "0.005"). Returns the end. */
static char *put_fixed(char *p, unsigned long long r, int decimals)
{
    char d[32];
    int n = 0;
    do {
        d[n++] = (char)('0' + r % 10);
        r /= 10;
    } while (r);
    while (n <= decimals)
        d[n++] = '0';
    while (n > decimals)
        *p++ = d[--n];
    if (decimals) {
        *p++ = '.';
        while (n)
            *p++ = d[--n];
    }
    *p = '\0';
    return p;
}

const char *rp_fixed(double x, int decimals, char *buf, size_t n)
{
    if (n >= 40 && decimals >= 0 && decimals <= 9 && isfinite(x) &&
        fabs(x) < 1e12 / p10[decimals]) {
        long long r = nearest(fabs(x) * p10[decimals]);
        if (r >= 0) {
            char *p = buf;
            if (signbit(x))
                *p++ = '-';
            put_fixed(p, (unsigned long long)r, decimals);
            return buf;
        }
    }
    snprintf(buf, n, "%.*f", decimals, x);
    return buf;
}

/* "%.*g" of v with prec (1..12) significant digits when its text is
 * plain decimal (1e-4 <= |v| < 10^prec after rounding) and no tie is
 * near; else NULL. buf has room for 40. */
static const char *fast_g(double v, int prec, char *buf)
{
    double a = fabs(v);
    if (!(a >= 1e-4 && a < p10[prec]))
        return NULL;
    /* prec - 1 - e decimals for 10^e <= a (the doubles 1e-1..1e-4 lie
     * above the powers they stand for, so comparing with them is exact) */
    int e = a >= 1      ? 0
            : a >= 1e-1 ? -1
            : a >= 1e-2 ? -2
            : a >= 1e-3 ? -3
                        : -4;
    while (e >= 0 && e < prec - 1 && a >= p10[e + 1])
        e++;
    int dec = prec - 1 - e;
    long long r = nearest(a * p10[dec]);
    if (r < 0 || r >= (long long)p10[prec])
        return NULL;
    char *p = buf;
    if (signbit(v))
        *p++ = '-';
    char *end = put_fixed(p, (unsigned long long)r, dec);
    while (dec && end[-1] == '0')
        *--end = '\0';
    if (end[-1] == '.')
        *--end = '\0';
    return buf;
}

const char *rp_g10(double v, char *buf, size_t n)
{
    double a = fabs(v);
    if (n >= 40 && a < 1e10) {
        if (v == floor(v)) {
            char *p = buf;
            if (signbit(v))
                *p++ = '-';
            put_fixed(p, (unsigned long long)a, 0);
            return buf;
        }
        if (fast_g(v, 10, buf))
            return buf;
    }
    snprintf(buf, n, "%.10g", v);
    return buf;
}

const char *rp_int(long long v, char *buf, size_t n)
{
    if (n < 24) {
        snprintf(buf, n, "%lld", v);
        return buf;
    }
    char *p = buf;
    unsigned long long u = (unsigned long long)v;
    if (v < 0) {
        *p++ = '-';
        u = 0 - u;
    }
    put_fixed(p, u, 0);
    return buf;
}

const char *rp_pct1(const char *prefix, double v, char *buf, size_t n)
{
    char num[64];
    rp_fixed(v, 1, num, sizeof(num));
    return rp_cat(buf, n, prefix, num, "%", (char *)NULL);
}

/* Does s read back as v? Plain decimals of up to 15 digits convert
 * exactly without strtod (pb_dec_fast: strtod's double or nothing);
 * strtod and its big-number arithmetic were a tenth of a report of
 * 10,000 configurations (the charts' CSV values). */
static int reads_back(const char *s, double v)
{
    double x;
    if (pb_dec_fast(s, strlen(s), &x) == 0)
        return x == v;
    return strtod(s, NULL) == v;
}

const char *rp_num(double v, char *buf, size_t n)
{
    if (n < 40 || !isfinite(v) || !(fabs(v) < 1e15))
        return pb_fmt_num(v, buf, n);
    if (v == floor(v)) {
        char *p = buf;
        if (signbit(v))
            *p++ = '-';
        put_fixed(p, (unsigned long long)fabs(v), 0);
        return buf;
    }
    for (int prec = 6; prec <= 12; prec++) {
        if (!fast_g(v, prec, buf))
            snprintf(buf, n, "%.*g", prec, v);
        if (reads_back(buf, v))
            return buf;
    }
    /* 13 to 17 digits: try 15 first, then the two below it or the two
     * above (3 printf and strtod at most, not 5: numbers of 16-17 digits
     * were most of the time of a chart's CSV at 10,000 configurations).
     * The nearest 15 digits are at least as near as 13 or 14 digits, so
     * when 15 do not read back neither do 13 or 14; except at a power of
     * two, where the doubles below are closer than those above: every
     * precision in order there. */
    int ex;
    if (fabs(frexp(v, &ex)) == 0.5) {
        for (int prec = 13; prec <= 17; prec++) {
            snprintf(buf, n, "%.*g", prec, v);
            if (reads_back(buf, v))
                return buf;
        }
        return buf;
    }
    snprintf(buf, n, "%.15g", v);
    if (reads_back(buf, v)) {
        char t[48];
        for (int prec = 13; prec <= 14; prec++) {
            snprintf(t, sizeof(t), "%.*g", prec, v);
            if (reads_back(t, v)) {
                memcpy(buf, t, strlen(t) + 1);
                return buf;
            }
        }
        return buf;
    }
    snprintf(buf, n, "%.16g", v);
    if (!reads_back(buf, v))
        snprintf(buf, n, "%.17g", v);
    return buf;
}

/* 10^-d: the decimal literals are the correctly rounded powers, the
 * values pow(10, -d) gives for d in 0..22 (checked bit for bit by
 * test_scaled_zero); a table, as pow was 1% of a report's time. */
static double neg_pow10(int d)
{
    static const double p[] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,
                               1e-6,  1e-7,  1e-8,  1e-9,  1e-10, 1e-11,
                               1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17,
                               1e-18, 1e-19, 1e-20, 1e-21, 1e-22};
    if (d >= 0 && d < (int)(sizeof(p) / sizeof(p[0])))
        return p[d];
    return pow(10, -d);
}

const char *rp_fmt_scaled(double v, const struct rp_scale *s, int decimals,
                          char *buf, size_t n)
{
    double x = v / s->div;
    if (!isfinite(x))
        return rp_cat(buf, n, isnan(x) ? "n/a" : x > 0 ? "∞" : "-∞",
                      (char *)NULL);
    if (fabs(x) >= 1e15) { /* past every prefix: 1.7e+296, not 300 digits */
        char num[64];
        snprintf(num, sizeof(num), "%.3g", x);
        return rp_cat(buf, n, num, s->prefix, (char *)NULL);
    }
    if (fabs(x) < 0.5 * neg_pow10(decimals))
        return rp_cat(buf, n, "0", (char *)NULL); /* not "-0", not "0k" */
    char num[64];
    rp_fixed(x, decimals, num, sizeof(num));
    return rp_cat(buf, n, num, s->prefix, (char *)NULL);
}

const char *rp_fmt(const struct rp_unit *u, double v, char *buf, size_t n)
{
    if (!isfinite(v)) {
        rp_cat(buf, n, isnan(v) ? "n/a" : v > 0 ? "∞" : "-∞", (char *)NULL);
        return buf;
    }
    struct rp_scale s;
    rp_scale_for(u, v, &s);
    int d = u->kind == RP_U_RATIO ? 2 : sig4(v / s.div);
    char num[64];
    rp_fmt_scaled(v, &s, d, num, sizeof(num));
    rp_cat(buf, n, num, sep(u, &s), s.name, (char *)NULL);
    return buf;
}

const char *rp_fmt_se(const struct rp_unit *u, double v, double se, char *buf,
                      size_t n)
{
    struct rp_scale s;
    rp_scale_for(u, v, &s);
    char num[64];
    rp_fmt_scaled(se, &s, sig2(se / s.div), num, sizeof(num));
    rp_cat(buf, n, "± ", num, sep(u, &s), s.name, (char *)NULL);
    return buf;
}

const char *rp_fmt_pm(const struct rp_unit *u, double v, double se, char *buf,
                      size_t n)
{
    if (!(se >= 0) || !isfinite(v))
        return rp_fmt(u, v, buf, n);
    struct rp_scale s;
    rp_scale_for(u, v, &s);
    int d = u->kind == RP_U_RATIO ? 2 : sig4(v / s.div);
    char a[64], b[64];
    rp_fmt_scaled(v, &s, d, a, sizeof(a));
    rp_fmt_scaled(se, &s, sig2(se / s.div), b, sizeof(b));
    rp_cat(buf, n, a, " ± ", b, sep(u, &s), s.name, (char *)NULL);
    return buf;
}

void rp_ticks(double lo, double hi, int target, struct rp_ticks *out)
{
    if (!isfinite(lo) || !isfinite(hi))
        lo = 0, hi = 1;
    /* An axis up to 1e280 in its display unit: ticks times the unit's
     * divisor (at most 1e18) stay finite. Bars beyond are drawn at the
     * chart's edge, and the chart says so (struct pb_chart.clamped). */
    if (hi > 1e280)
        hi = 1e280;
    if (lo < -1e280)
        lo = -1e280;
    if (lo > hi)
        lo = hi;
    if (hi < lo) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (hi - lo < 1e-12 * (fabs(hi) + 1)) {
        hi = lo + (fabs(lo) > 0 ? fabs(lo) : 1);
    }
    if (target < 2)
        target = 2;
    double raw = (hi - lo) / target;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    out->step = step;
    out->lo = floor(lo / step + 1e-9) * step;
    out->hi = ceil(hi / step - 1e-9) * step;
    out->n = (int)floor((out->hi - out->lo) / step + 0.5) + 1;
    int d = -(int)floor(log10(step) + 1e-9);
    out->decimals = d < 0 ? 0 : d;
}
