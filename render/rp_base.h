/* Private to render/: text helpers (html.c) and units (units.c) shared
 * by the render/ files, with the data's own (text as read, rp_sort, unit
 * kinds: analysis/data.h). Included by the render/ files
 * that use them (render_int.h has all). */
#ifndef PB_RP_BASE_H
#define PB_RP_BASE_H

#include "analysis/data.h"
#include "render/render.h"

#include <stddef.h>

/* ==== text: sanitising and escaping (html.c) ==== */

/* Append s escaped for HTML/XML text and attribute values (& < > " '). */
void rp_esc(struct pb_buf *b, const char *s);

/* Lowercase [a-z0-9-] slug of s, at most max bytes, for file names and
 * ids; "x" when nothing is left. Writes into buf (max + 1 bytes). */
const char *rp_slug(const char *s, char *buf, size_t max);


/* ==== units (units.c) ==== */

/* A display scale: value / div, then the suffix (" MiB/s", "k IOPS"). */
struct rp_scale {
    double div;
    char prefix[8]; /* "k" for IOPS-like units; "" otherwise */
    char name[40];  /* axis name: "MiB/s", "IOPS", "µs", "Files/s" */
};

/* Scale in which `maxabs` reads best. */
void rp_scale_for(const struct rp_unit *u, double maxabs, struct rp_scale *out);

/* v in human units with 4 significant digits: "148.1 MiB/s",
 * "37.93k IOPS", "292.6 µs", "1.99×". Returns buf. */
const char *rp_fmt(const struct rp_unit *u, double v, char *buf, size_t n);

/* v ± se in one scale: "148.1 ± 1.2 MiB/s"; se < 0 gives rp_fmt. */
const char *rp_fmt_pm(const struct rp_unit *u, double v, double se, char *buf,
                      size_t n);

/* Just the ± part in v's scale: "± 1.2 MiB/s". */
const char *rp_fmt_se(const struct rp_unit *u, double v, double se, char *buf,
                      size_t n);

/* The same text as snprintf(buf, n, "%.*f", decimals, x) (n >= 40), by
 * hand where no rounding tie is near: printf of doubles was a third of
 * the time of big reports. Returns buf. */
const char *rp_fixed(double x, int decimals, char *buf, size_t n);

/* The same text as snprintf(buf, n, "%.10g", v) (n >= 40). Returns buf. */
const char *rp_g10(double v, char *buf, size_t n);

/* "%lld" of v; prefix + "%.1f%%" of v (n >= 48). Return buf. */
const char *rp_int(long long v, char *buf, size_t n);
const char *rp_pct1(const char *prefix, double v, char *buf, size_t n);

/* The same text as pb_fmt_num (shortest exact decimal), faster. */
const char *rp_num(double v, char *buf, size_t n);

/* v / s->div with `decimals` decimals and the prefix, no unit name. */
const char *rp_fmt_scaled(double v, const struct rp_scale *s, int decimals,
                          char *buf, size_t n);

/* Round ticks from lo to hi (lo <= 0 <= hi usually), about target of them.
 * Values are in the scaled unit. */
struct rp_ticks {
    double lo, hi, step;
    int n, decimals;
};
void rp_ticks(double lo, double hi, int target, struct rp_ticks *out);


#endif
