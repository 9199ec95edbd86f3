/* Statistics behind `compare` and `best`: Student's t (through the
 * regularized incomplete beta), Welch's t-test with Fieller's interval of
 * a ratio, the Mann-Whitney U test with the Hodges-Lehmann interval that
 * inverts it, the verdict that picks between them, median, MAD and
 * geometric mean. */
#include "common/stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/pb.h"

#define PB_PI 3.14159265358979323846

/* ==== incomplete beta and Student's t ==== */

/* Continued fraction of I_x(a, b) (modified Lentz), valid for
 * x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-16)
            break;
    }
    return h;
}

double pb_stats_betainc(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
                 b * log1p(-x);
    double bt = exp(lbt);
    if (x < (a + 1.0) / (a + b + 2.0))
        return bt * betacf(a, b, x) / a;
    return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

double pb_stats_normal_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

double pb_stats_t_cdf(double t, double df)
{
    if (isnan(t) || isnan(df) || !(df > 0))
        return NAN;
    if (isinf(df))
        return pb_stats_normal_cdf(t);
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    /* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2); for small t the
     * complement form keeps precision near the centre. */
    double t2 = t * t;
    double tail;
    if (t2 < df)
        tail = 1.0 - pb_stats_betainc(0.5, df / 2.0, t2 / (df + t2));
    else
        tail = pb_stats_betainc(df / 2.0, 0.5, df / (df + t2));
    return t > 0 ? 1.0 - tail / 2.0 : tail / 2.0;
}

/* Standard normal quantile: Acklam's rational approximation (relative
 * error 1.2e-9), polished by one Halley step on erfc. */
static double normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    double q, x;
    if (p < 0.02425) {
        q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q +
             c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p > 1 - 0.02425) {
        q = sqrt(-2 * log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q +
              c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else {
        q = p - 0.5;
        double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
             a[5]) *
            q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    double e = pb_stats_normal_cdf(x) - p;
    double u = e * sqrt(2 * PB_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* Density of Student's t. */
static double t_pdf(double t, double df)
{
    return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
               0.5 * log(df * PB_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double pb_stats_t_quantile(double p, double df)
{
    if (!(p > 0) || !(p < 1) || isnan(df) || !(df > 0))
        return NAN;
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -pb_stats_t_quantile(1.0 - p, df);
    double z = normal_quantile(p);
    if (isinf(df))
        return z;
    /* Start: the Cornish-Fisher expansion (Abramowitz and Stegun
     * 26.7.5), then Newton steps kept inside a bracket of the root (a
     * bisection step whenever Newton would leave it): a few CDF
     * evaluations instead of a bisection's fifty. */
    double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
    double x = z + (z3 + z) / 4 / df +
               (5 * z5 + 16 * z3 + 3 * z) / 96 / (df * df) +
               (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384 / (df * df * df) +
               (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
                   92160 / (df * df * df * df);
    double lo = 0.0, hi = INFINITY;
    if (!(x > 0) || !isfinite(x))
        x = z;
    for (int i = 0; i < 200; i++) {
        double f = pb_stats_t_cdf(x, df) - p;
        if (f == 0)
            return x;
        if (f < 0)
            lo = x;
        else
            hi = x;
        double next = x - f / t_pdf(x, df);
        if (!(next > lo && next < hi))
            next = isinf(hi) ? (lo > 0 ? lo * 2 : 1) : lo + (hi - lo) / 2;
        if (fabs(next - x) <= 1e-14 * fabs(x))
            return next;
        x = next;
    }
    return x;
}

/* ==== Welch's t-test ==== */

/* Fieller's interval of R = cand/base: the R with
 * (c - R b)^2 <= q^2 (sc^2 + R^2 sb^2), q the two-sided critical t. It
 * excludes 1 exactly when the t-test of the difference rejects. */
static void fieller(double b, double sb, double c, double sc, double q,
                    double *lo, double *hi)
{
    double q2 = q * q;
    double den = b * b - q2 * sb * sb;
    double disc = b * b * sc * sc + c * c * sb * sb - q2 * sb * sb * sc * sc;
    if (!(den > 0) || !(disc >= 0)) {
        *lo = *hi = NAN;
        return;
    }
    double r1 = (b * c - q * sqrt(disc)) / den;
    double r2 = (b * c + q * sqrt(disc)) / den;
    *lo = r1 < r2 ? r1 : r2;
    *hi = r1 < r2 ? r2 : r1;
}

int pb_stats_welch(const struct pb_stats_summary *base,
                   const struct pb_stats_summary *cand, double alpha,
                   struct pb_stats_welch *out)
{
    memset(out, 0, sizeof(*out));
    out->diff = cand->mean - base->mean;
    out->ratio = base->mean != 0 ? cand->mean / base->mean : NAN;
    out->p = 1.0;
    out->diff_lo = out->diff_hi = NAN;
    out->ratio_lo = out->ratio_hi = NAN;
    out->df = NAN;
    if (!(base->n >= 2) || !(cand->n >= 2) || !(alpha > 0) || !(alpha < 1) ||
        !isfinite(base->mean) || !isfinite(cand->mean) ||
        !(base->se >= 0) || !(cand->se >= 0))
        return -1;
    double vb = base->se * base->se, vc = cand->se * cand->se;
    out->se = sqrt(vb + vc);
    if (out->se == 0) {
        /* No noise at all: the difference is what it is. */
        out->df = INFINITY;
        out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
        out->p = out->diff == 0 ? 1.0 : 0.0;
        out->diff_lo = out->diff_hi = out->diff;
        out->ratio_lo = out->ratio_hi = out->ratio;
        return 0;
    }
    /* Welch-Satterthwaite; a side with se 0 contributes no term. */
    double dden = 0;
    if (vb > 0)
        dden += vb * vb / (base->n - 1);
    if (vc > 0)
        dden += vc * vc / (cand->n - 1);
    out->df = (vb + vc) * (vb + vc) / dden;
    out->t = out->diff / out->se;
    out->p = 2.0 * pb_stats_t_cdf(-fabs(out->t), out->df);
    if (out->p > 1)
        out->p = 1;
    double q = pb_stats_t_quantile(1.0 - alpha / 2.0, out->df);
    out->diff_lo = out->diff - q * out->se;
    out->diff_hi = out->diff + q * out->se;
    fieller(base->mean, base->se, cand->mean, cand->se, q, &out->ratio_lo,
            &out->ratio_hi);
    return 0;
}

/* ==== Mann-Whitney U ==== */

struct ranked {
    double v;
    int side; /* 0: x, 1: y */
};

static int cmp_ranked(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;
    return (a->v > b->v) - (a->v < b->v);
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The null distribution of U for sizes m (x) and n (y) without ties:
 * cdf[u] = P(U <= u) for u = 0..m n, from the counts of the m-subsets of
 * ranks 1..m+n by rank sum (all counts positive, so doubles keep them to
 * 1e-16 relative). Caller frees. */
static double *mwu_exact_cdf(size_t m, size_t n)
{
    size_t N = m + n;
    size_t maxs = N * (N + 1) / 2;
    double *dp = pb_xcalloc((m + 1) * (maxs + 1), sizeof(double));
#define DP(k, s) dp[(k) * (maxs + 1) + (s)]
    DP(0, 0) = 1;
    for (size_t j = 1; j <= N; j++) {
        size_t kmax = j < m ? j : m;
        for (size_t k = kmax; k >= 1; k--) {
            size_t top = j * (j + 1) / 2;
            for (size_t s = top; s >= j; s--)
                DP(k, s) += DP(k - 1, s - j);
        }
    }
    size_t base = m * (m + 1) / 2, mn = m * n;
    double total = 0;
    for (size_t s = 0; s <= maxs; s++)
        total += DP(m, s);
    double *cdf = pb_xmalloc((mn + 1) * sizeof(double));
    double below = 0;
    for (size_t u = 0; u <= mn; u++) {
        below += DP(m, base + u);
        cdf[u] = below / total;
    }
#undef DP
    free(dp);
    return cdf;
}

/* The null distribution a p is read from: exact (cdf) or normal with
 * the tie term sum(t^3 - t) of the pooled sample. */
struct mwu_null {
    double m, n;
    double *cdf; /* exact; NULL: normal */
    double var;  /* normal: variance of U; <= 0 when every value ties */
};

static void mwu_null_init(struct mwu_null *h, size_t m, size_t n, int exact,
                          double ties)
{
    h->m = (double)m;
    h->n = (double)n;
    h->cdf = exact ? mwu_exact_cdf(m, n) : NULL;
    double N = h->m + h->n;
    h->var = exact ? 0
                   : h->m * h->n / 12.0 * ((N + 1) - ties / (N * (N - 1)));
}

/* Two-sided p of U = u: exact (u an integer), or normal with continuity
 * correction (Conover 5.1; SciPy's "asymptotic"). */
static double mwu_p(const struct mwu_null *h, double u)
{
    double p;
    if (h->cdf) {
        size_t mn = (size_t)(h->m * h->n), k = (size_t)u;
        /* by symmetry P(U >= u) = P(U <= m n - u) */
        double lower = h->cdf[k], upper = h->cdf[mn - k];
        p = 2.0 * (lower < upper ? lower : upper);
    } else {
        if (!(h->var > 0))
            return 1.0; /* every value tied: nothing tells the sides apart */
        double z = (fabs(u - h->m * h->n / 2.0) - 0.5) / sqrt(h->var);
        if (z < 0)
            z = 0;
        p = erfc(z / sqrt(2.0));
    }
    return p > 1 ? 1 : p;
}

/* The tie term sum(t^3 - t) over runs of equal values of sorted s. */
static double tie_term(const double *s, size_t n)
{
    double ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] == s[i])
            j++;
        double t = (double)(j - i);
        ties += t * t * t - t;
        i = j;
    }
    return ties;
}

int pb_stats_mann_whitney(const double *x, size_t nx, const double *y,
                          size_t ny, struct pb_stats_mwu *out)
{
    memset(out, 0, sizeof(*out));
    out->p = 1.0;
    if (nx == 0 || ny == 0)
        return -1;
    size_t N = nx + ny;
    struct ranked *r = pb_xmalloc(N * sizeof(*r));
    for (size_t i = 0; i < nx; i++)
        r[i] = (struct ranked){x[i], 0};
    for (size_t i = 0; i < ny; i++)
        r[nx + i] = (struct ranked){y[i], 1};
    qsort(r, N, sizeof(*r), cmp_ranked);
    double rx = 0, ties = 0;
    for (size_t i = 0; i < N;) {
        size_t j = i;
        while (j < N && r[j].v == r[i].v)
            j++;
        double rank = (double)(i + 1 + j) / 2.0; /* mean of i+1 .. j */
        for (size_t k = i; k < j; k++)
            if (r[k].side == 0)
                rx += rank;
        double t = (double)(j - i);
        ties += t * t * t - t;
        i = j;
    }
    free(r);
    double m = (double)nx;
    out->u = rx - m * (m + 1) / 2.0;
    out->exact = ties == 0 && N <= PB_STATS_MWU_EXACT_MAX;
    struct mwu_null h;
    mwu_null_init(&h, nx, ny, out->exact, ties);
    out->p = mwu_p(&h, out->u);
    free(h.cdf);
    return 0;
}

int pb_stats_mwu_can_reach(size_t m, size_t n, double alpha)
{
    double c = 1;
    for (size_t i = 1; i <= m; i++)
        c = c * (double)(n + i) / (double)i;
    return 2.0 / c <= alpha;
}

static int all_positive(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(v[i] > 0) || !isfinite(v[i]))
            return 0;
    return 1;
}

/* The tie term of x and of y apart: the ties left when x is scaled by a
 * ratio that is none of the y_j / x_i. */
static double within_ties(const double *x, size_t nx, const double *y,
                          size_t ny)
{
    double *s = pb_xmalloc((nx > ny ? nx : ny) * sizeof(*s));
    memcpy(s, x, nx * sizeof(*s));
    qsort(s, nx, sizeof(*s), cmp_double);
    double t = tie_term(s, nx);
    memcpy(s, y, ny * sizeof(*s));
    qsort(s, ny, sizeof(*s), cmp_double);
    t += tie_term(s, ny);
    free(s);
    return t;
}

int pb_stats_mwu_ratio(const double *x, size_t nx, const double *y,
                       size_t ny, double alpha, struct pb_stats_mwu_ratio *out)
{
    memset(out, 0, sizeof(*out));
    out->test.p = 1.0;
    out->est = out->lo = out->hi = NAN;
    if (!nx || !ny || !all_positive(x, nx) || !all_positive(y, ny) ||
        (double)nx * (double)ny > PB_STATS_MWU_RATIO_MAX || !(alpha > 0) ||
        !(alpha < 1))
        return -1;
    if (pb_stats_mann_whitney(x, nx, y, ny, &out->test) != 0)
        return -1;
    size_t mn = nx * ny;
    double *d = pb_xmalloc(mn * sizeof(*d));
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            d[i * ny + j] = y[j] / x[i];
    qsort(d, mn, sizeof(*d), cmp_double);
    /* the median on the log scale: of two middle ratios, their geometric
     * mean */
    out->est = mn % 2 ? d[mn / 2] : sqrt(d[mn / 2 - 1] * d[mn / 2]);
    /* Between two neighbouring ratios d[j-1] < r < d[j] the test of x r
     * against y has U = j (the pairs with x_i r > y_j) and only the ties
     * within each side: the same p at every such r. The interval is the
     * closure of the r whose p is at least alpha: [d[jlo-1], d[jhi]]
     * for the first and last such j (ratio 0 and infinity at the ends). */
    struct mwu_null h;
    mwu_null_init(&h, nx, ny, out->test.exact,
                  out->test.exact ? 0 : within_ties(x, nx, y, ny));
    size_t jlo = SIZE_MAX, jhi = 0;
    for (size_t j = 0; j <= mn; j++)
        if (mwu_p(&h, (double)j) >= alpha) {
            if (jlo == SIZE_MAX)
                jlo = j;
            jhi = j;
        }
    free(h.cdf);
    if (jlo == SIZE_MAX) {
        /* no ratio is accepted: only at ties (a point), the estimate */
        out->lo = out->hi = out->est;
    } else {
        out->lo = jlo ? d[jlo - 1] : 0;
        out->hi = jhi < mn ? d[jhi] : INFINITY;
    }
    free(d);
    return 0;
}

/* ==== one verdict ==== */

/* Fieller's set of R = cand/base when the base mean is not distinct from
 * 0 (den <= 0): (-inf, r1] U [r2, inf), or every R. Of positive
 * quantities only R > 0 can be: when r1 < 0 that is [r2, inf), one
 * interval unbounded above; otherwise there is none. */
static void fieller_open(const struct pb_stats_side *b,
                         const struct pb_stats_side *c, double q,
                         struct pb_stats_judgement *out)
{
    out->unbounded = 1;
    if (!(b->mean > 0) || !(c->mean > 0))
        return;
    double q2 = q * q, sb2 = b->se * b->se, sc2 = c->se * c->se;
    double a = b->mean * b->mean - q2 * sb2; /* < 0 here */
    double disc = b->mean * b->mean * sc2 + c->mean * c->mean * sb2 -
                  q2 * sb2 * sc2;
    if (!(a < 0) || !(disc >= 0))
        return;
    /* roots of a R^2 - 2 b c R + c^2 - q^2 sc^2 = 0 */
    double r1 = (b->mean * c->mean + q * sqrt(disc)) / a;
    double r2 = (b->mean * c->mean - q * sqrt(disc)) / a;
    if (r1 > r2) {
        double t = r1;
        r1 = r2;
        r2 = t;
    }
    if (r1 < 0 && r2 > 0) {
        out->unbounded = 0;
        out->lo = r2;
        out->hi = INFINITY;
    }
}

static void judge_welch(const struct pb_stats_side *b,
                        const struct pb_stats_side *c, double alpha,
                        struct pb_stats_judgement *out)
{
    struct pb_stats_summary sb = {b->mean, b->se, (double)b->n};
    struct pb_stats_summary sc = {c->mean, c->se, (double)c->n};
    struct pb_stats_welch w;
    if (pb_stats_welch(&sb, &sc, alpha, &w) != 0)
        return;
    out->method = "welch";
    out->p = w.p;
    if (!isnan(w.ratio_lo)) {
        out->lo = w.ratio_lo;
        out->hi = w.ratio_hi;
        /* a ratio of positive quantities is never below 0 (-100%) */
        if (b->mean > 0 && c->mean > 0 && out->lo < 0)
            out->lo = 0;
    } else if (w.se > 0) {
        fieller_open(b, c, pb_stats_t_quantile(1.0 - alpha / 2.0, w.df),
                     out);
    }
}

void pb_stats_judge(const struct pb_stats_side *base,
                    const struct pb_stats_side *cand, double alpha,
                    struct pb_stats_judgement *out)
{
    memset(out, 0, sizeof(*out));
    out->method = "none";
    out->p = 1.0;
    out->est = base->mean != 0 ? cand->mean / base->mean : NAN;
    out->lo = out->hi = NAN;
    if (base->n < 2 || cand->n < 2) {
        out->why = "single run";
        return;
    }
    if (base->se < 0 || cand->se < 0) {
        out->why = "no standard error";
        return;
    }
    struct pb_stats_mwu_ratio r;
    if (base->v && cand->v && base->nv >= 2 && cand->nv >= 2 &&
        base->nv == (size_t)base->n && cand->nv == (size_t)cand->n &&
        pb_stats_mwu_can_reach(base->nv, cand->nv, alpha) &&
        pb_stats_mwu_ratio(base->v, base->nv, cand->v, cand->nv, alpha,
                           &r) == 0) {
        out->method = "mann-whitney";
        out->p = r.test.p;
        out->est = r.est;
        out->lo = r.lo;
        out->hi = r.hi;
    } else {
        judge_welch(base, cand, alpha, out);
        if (strcmp(out->method, "welch")) {
            out->why = "single run";
            return;
        }
    }
    int has_ci = !isnan(out->lo);
    int holds_1 = has_ci && out->lo <= 1 && 1 <= out->hi;
    if (out->p < alpha && !holds_1) {
        /* the direction of the test's own interval: Mann-Whitney's can
         * differ from the means' when a repeat is far off */
        if (has_ci)
            out->sign = out->lo > 1 ? 1 : -1;
        else if (cand->mean != base->mean)
            out->sign = cand->mean > base->mean ? 1 : -1;
    } else if (out->p >= alpha && has_ci && !holds_1) {
        /* p at the level itself, a hair from the interval's end in
         * floating point: the interval of a "~" holds 1 */
        if (out->lo > 1)
            out->lo = 1;
        else
            out->hi = 1;
    }
}

/* ==== summaries ==== */

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double pb_stats_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = pb_xmalloc(n * sizeof(*s));
    memcpy(s, v, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    double med = median_sorted(s, n);
    free(s);
    return med;
}

double pb_stats_mad(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double med = pb_stats_median(v, n);
    double *d = pb_xmalloc(n * sizeof(*d));
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(v[i] - med);
    qsort(d, n, sizeof(*d), cmp_double);
    double mad = median_sorted(d, n);
    free(d);
    return mad;
}

void pb_stats_mean_se(const double *v, size_t n, double *mean, double *se)
{
    *se = 0;
    if (n == 0) {
        *mean = NAN;
        return;
    }
    /* Welford: one pass, no cancellation for values far from zero. */
    double m = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = v[i] - m;
        m += d / (double)(i + 1);
        s2 += d * (v[i] - m);
    }
    *mean = m;
    if (n >= 2)
        *se = sqrt(s2 / (double)(n - 1)) / sqrt((double)n);
}

double pb_stats_geomean(const double *v, size_t n, size_t *used)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > 0 && isfinite(v[i])) {
            sum += log(v[i]);
            k++;
        }
    }
    if (used)
        *used = k;
    return k ? exp(sum / (double)k) : NAN;
}
