#!/usr/bin/python3
"""Reference values for the verdicts of tests/unit/test_stats.c (issue 42,
items 12 and 16), computed with SciPy (Debian's python3-scipy, 1.10.1):

- Welch: scipy.stats.ttest_ind(equal_var=False) for t, df and p, and
  Fieller's interval of the ratio cand/base written out with
  scipy.stats.t.ppf as its critical value;
- Mann-Whitney: scipy.stats.mannwhitneyu (method "exact" without ties,
  "asymptotic" with tie and continuity correction otherwise, as
  common/stats.c chooses) for p; the Hodges-Lehmann interval of the
  ratio by inverting SciPy's own test: for r between every two
  neighbouring ratios y_j / x_i, SciPy's p of (x r, y) -- the interval is
  the closure of the r whose p is at least alpha. No formula of
  common/stats.c is reused.

Run: /usr/bin/python3 tests/unit/ref/stats_scipy.py
(the pyenv python3 of this machine has no SciPy: use Debian's)
"""
import math

import numpy as np
from scipy import stats

ALPHA = 0.05


def welch_fieller(x, y, alpha=ALPHA):
    mx, my = np.mean(x), np.mean(y)
    sx = np.std(x, ddof=1) / math.sqrt(len(x))
    sy = np.std(y, ddof=1) / math.sqrt(len(y))
    return welch_summary(mx, sx, len(x), my, sy, len(y), alpha)


def welch_summary(mx, sx, nx, my, sy, ny, alpha=ALPHA):
    vx, vy = sx * sx, sy * sy
    df = (vx + vy) ** 2 / (vx * vx / (nx - 1) + vy * vy / (ny - 1))
    t = (my - mx) / math.sqrt(vx + vy)
    p = 2 * stats.t.sf(abs(t), df)
    q = stats.t.ppf(1 - alpha / 2, df)
    # Fieller: the R with (my - R mx)^2 <= q^2 (vy + R^2 vx)
    a = mx * mx - q * q * vx
    b = -2 * mx * my
    c = my * my - q * q * vy
    disc = b * b - 4 * a * c
    roots = sorted([(-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)]) if disc >= 0 else None
    return dict(t=t, df=df, p=p, q=q, a=a, roots=roots)


def mwu_method(x, y):
    pooled = list(x) + list(y)
    ties = len(set(pooled)) != len(pooled)
    return "asymptotic" if ties or len(pooled) > 100 else "exact"


def mwu_p(x, y, method):
    return stats.mannwhitneyu(x, y, alternative="two-sided", method=method,
                              use_continuity=True).pvalue


def hodges_lehmann_ratio(x, y, alpha=ALPHA):
    method = mwu_method(x, y)
    p = mwu_p(x, y, method)
    d = sorted(yj / xi for xi in x for yj in y)
    logs = sorted(math.log(v) for v in d)
    m = len(logs)
    est = math.exp(logs[m // 2]) if m % 2 else math.exp((logs[m // 2 - 1] + logs[m // 2]) / 2)
    # test inversion: r in each open interval between neighbours
    edges = [0.0] + d + [math.inf]
    acc = []
    for j in range(len(edges) - 1):
        lo, hi = edges[j], edges[j + 1]
        if lo == hi:
            continue
        r = lo * 2 if hi == math.inf else (hi / 2 if lo == 0 else math.sqrt(lo * hi))
        if mwu_p([v * r for v in x], y, method) >= alpha:
            acc.append((lo, hi))
    return dict(method=method, p=p, est=est, lo=acc[0][0], hi=acc[-1][1])


def show(name, d):
    print(name + ": " + ", ".join("%s %s" % (k, ("%.17g" % v) if isinstance(v, float) else v) for k, v in d.items()))


if __name__ == "__main__":
    # The two PTS sample sets (issue 42, item 16).
    pts1 = ([100, 101, 102, 103], [104, 105, 106, 200])
    pts2 = ([100, 100.5, 101, 101.5], [101.2, 103, 103.5, 104])
    for name, (x, y) in (("pts1", pts1), ("pts2", pts2)):
        show(name + " mwu+HL", hodges_lehmann_ratio(x, y))
        w = welch_fieller(x, y)
        show(name + " welch", dict(p=w["p"], df=w["df"], lo=w["roots"][0], hi=w["roots"][1]))
    # Ties inside each side (asymptotic), none across at r = 1.
    tx, ty = [10, 10, 11, 12, 13, 13], [14, 15, 15, 16, 17, 18]
    show("ties-within", hodges_lehmann_ratio(tx, ty))
    # A tie across the sides at r = 1 (base 14 and cand 14).
    cx, cy = [10, 11, 12, 13, 14], [14, 15, 16, 17, 18]
    show("tie-across", hodges_lehmann_ratio(cx, cy))
    # 5 against 5 apart (exact), the CI of the compare e2e test's samples.
    fx = [100 * (1 + (k - 2) / 100) for k in range(5)]
    fy = [50 * (1 + (k - 2) / 100) for k in range(5)]
    show("five-apart", hodges_lehmann_ratio(fx, fy))
    # Fieller below 0: base 100 +- 1 (n 3) against cand 20 +- 15 (n 3):
    # the candidate is not distinct from 0, the lower end is negative and
    # is clipped at 0 (-100%).
    w = welch_summary(100, 1, 3, 20, 15, 3)
    show("fieller-clip", dict(p=w["p"], df=w["df"], lo=w["roots"][0], hi=w["roots"][1]))
    # Fieller unbounded: the base not distinct from 0 (the user CPU of
    # fixtures/compare: 0.714 +- 0.71 against 1.079 +- 0.071, n 3).
    w = welch_summary(0.714, 0.71, 3, 1.079, 0.071, 3)
    show("fieller-open", dict(p=w["p"], df=w["df"], a=w["a"], roots=w["roots"]))
    # Fieller two rays, one negative: base 10 +- 10 against 1000 +- 1
    # (n 3): the set is (-inf, r1] U [r2, inf) with r1 < 0.
    w = welch_summary(10, 10, 3, 1000, 1, 3)
    show("fieller-ray", dict(p=w["p"], df=w["df"], a=w["a"], roots=w["roots"]))
