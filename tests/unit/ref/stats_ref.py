#!/usr/bin/env python3
"""Reference values for tests/unit/test_stats.c, computed by methods
independent of common/stats.c (no SciPy here):

- Student's t CDF by adaptive Simpson integration of the t density
  (lgamma normalisation), not through the incomplete beta;
- t quantiles by bisection on that integral;
- Mann-Whitney exact p by enumerating every split of the pooled ranks
  (itertools.combinations), not by the rank-sum recurrence;
- the normal approximation with tie and continuity correction written
  out from its textbook formula (Conover, Practical Nonparametric
  Statistics, 3rd ed., 5.1).

Run: python3 tests/unit/ref/stats_ref.py  (prints the values the test uses)
"""
import itertools
import math


def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def simpson(f, a, b, eps, whole, depth):
    c = (a + b) / 2
    l = simpson1(f, a, c)
    r = simpson1(f, c, b)
    if depth <= 0 or abs(l + r - whole) <= 15 * eps:
        return l + r + (l + r - whole) / 15
    return simpson(f, a, c, eps / 2, l, depth - 1) + simpson(f, c, b, eps / 2, r, depth - 1)


def simpson1(f, a, b):
    c = (a + b) / 2
    return (b - a) / 6 * (f(a) + 4 * f(c) + f(b))


def integrate(f, a, b):
    return simpson(f, a, b, 1e-15, simpson1(f, a, b), 60)


def t_cdf(t, df):
    # P(T <= t) = 1/2 + integral_0^t pdf (symmetry); long ranges in pieces.
    f = lambda x: t_pdf(x, df)
    s, a, sign = 0.0, 0.0, 1 if t >= 0 else -1
    b = abs(t)
    step = 0.5
    while a < b:
        e = min(b, a + step)
        s += integrate(f, a, e)
        a = e
    return 0.5 + sign * s


def t_quantile(p, df):
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_var(v):
    m = sum(v) / len(v)
    return m, sum((x - m) ** 2 for x in v) / (len(v) - 1)


def welch(a, b):
    ma, va = mean_var(a)
    mb, vb = mean_var(b)
    sa, sb = va / len(a), vb / len(b)
    se = math.sqrt(sa + sb)
    df = (sa + sb) ** 2 / (sa * sa / (len(a) - 1) + sb * sb / (len(b) - 1))
    t = (mb - ma) / se
    p = 2 * (1 - t_cdf(abs(t), df))
    q = t_quantile(0.975, df)
    return ma, math.sqrt(sa), mb, math.sqrt(sb), t, df, p, mb - ma - q * se, mb - ma + q * se


def u_of(x, y):
    return sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)


def mwu_exact(x, y):
    pooled = list(x) + list(y)
    u = u_of(x, y)
    n = len(pooled)
    le = ge = tot = 0
    for idx in itertools.combinations(range(n), len(x)):
        xs = [pooled[i] for i in idx]
        ys = [pooled[i] for i in range(n) if i not in idx]
        v = u_of(xs, ys)
        tot += 1
        le += v <= u
        ge += v >= u
    return u, min(1.0, 2 * min(le, ge) / tot)


def mwu_normal(x, y):
    m, n = len(x), len(y)
    N = m + n
    u = u_of(x, y)
    pooled = sorted(list(x) + list(y))
    ties = 0
    for v in set(pooled):
        t = pooled.count(v)
        ties += t ** 3 - t
    var = m * n / 12 * ((N + 1) - ties / (N * (N - 1)))
    z = max(0.0, (abs(u - m * n / 2) - 0.5) / math.sqrt(var))
    return u, math.erfc(z / math.sqrt(2))


if __name__ == "__main__":
    for df in (1, 2, 3, 5, 10, 24.9, 30):
        print("t_cdf(2.0, %g) = %.15g" % (df, t_cdf(2.0, df)))
    for df in (1, 2, 4, 10, 30):
        print("t_quantile(0.975, %g) = %.15g" % (df, t_quantile(0.975, df)))
    print("t_cdf(-3.5, 7.5) = %.15g" % t_cdf(-3.5, 7.5))
    print("t_cdf(0.1, 3) = %.15g" % t_cdf(0.1, 3))
    # Wikipedia, "Welch's t-test", example 2 (unequal variances, n 15/15).
    a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
    a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]
    print("welch wiki: ma %.15g sea %.15g mb %.15g seb %.15g t %.15g df %.15g p %.15g ci %.15g %.15g" % welch(a1, a2))
    # n = 2 on both sides.
    print("welch n2: ma %.15g sea %.15g mb %.15g seb %.15g t %.15g df %.15g p %.15g ci %.15g %.15g" % welch([10.0, 12.0], [15.0, 19.0]))
    # SciPy's mannwhitneyu doc example (Conover): U 17, exact p 1/9.
    x = [19, 22, 16, 29, 24]
    y = [20, 11, 17, 12]
    print("mwu conover exact: U %.15g p %.15g" % mwu_exact(x, y))
    print("mwu conover normal: U %.15g p %.15g" % mwu_normal(x, y))
    print("mwu 3v3 apart exact: U %.15g p %.15g" % mwu_exact([1, 2, 3], [4, 5, 6]))
    print("mwu 2v2 exact: U %.15g p %.15g" % mwu_exact([1.0, 2.0], [3.0, 4.0]))
    # ties: normal approximation.
    tx = [1, 2, 2, 3, 3, 3, 4]
    ty = [3, 4, 4, 5, 5, 6]
    print("mwu ties normal: U %.15g p %.15g" % mwu_normal(tx, ty))
