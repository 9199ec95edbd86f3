"""Pure-Python stand-in for the few numpy calls fiologparser_hist.py's
--noweight path makes (no numpy on this machine, no network). Semantics
follow numpy's for these calls: elementwise arithmetic, argsort, cumsum,
nonzero, where, interp (linear, clamped at the ends)."""
import math
import bisect

float64 = float
int64 = int


class A(object):
    def __init__(self, v):
        self.v = list(v)

    def __len__(self):
        return len(self.v)

    def __iter__(self):
        return iter(self.v)

    @property
    def size(self):
        return len(self.v)

    def __getitem__(self, i):
        if isinstance(i, A):
            return A([self.v[k] for k in i.v])
        if isinstance(i, tuple):
            return self[i[0]]
        if isinstance(i, slice):
            return A(self.v[i])
        return self.v[i]

    def _op(self, o, f):
        if isinstance(o, A):
            return A([f(a, b) for a, b in zip(self.v, o.v)])
        if isinstance(o, list):
            return A([f(a, b) for a, b in zip(self.v, o)])
        return A([f(a, o) for a in self.v])

    def __add__(self, o): return self._op(o, lambda a, b: a + b)
    __radd__ = __add__
    def __sub__(self, o): return self._op(o, lambda a, b: a - b)
    def __mul__(self, o): return self._op(o, lambda a, b: a * b)
    __rmul__ = __mul__
    def __truediv__(self, o): return self._op(o, lambda a, b: a / b)
    def __ne__(self, o): return self._op(o, lambda a, b: a != b)
    def __eq__(self, o):
        if self.v and isinstance(self.v[0], A):
            return A([r == o for r in self.v])
        return self._op(o, lambda a, b: a == b)

    def cumsum(self):
        out, s = [], 0
        for x in self.v:
            s += x
            out.append(s)
        return A(out)

    def sum(self):
        return sum(self.v)

    def astype(self, t):
        return A([t(x) for x in self.v])


def array(v, dtype=None):
    v = [x for x in v]
    return A([dtype(x) for x in v] if dtype else v)


def arange(n):
    return A(range(n))


def log2(x):
    return math.log2(x)


def zeros(shape, dtype=float):
    return A([dtype(0)] * shape)


def add(a, b):
    return (a if isinstance(a, A) else A(a)) + b


def sum(a):  # noqa: A001 (numpy's name)
    import builtins
    return builtins.sum(a.v if isinstance(a, A) else a)


def nonzero(a):
    return (A([i for i, x in enumerate(a.v) if x]),)


def argsort(a):
    return A(sorted(range(len(a.v)), key=lambda i: a.v[i]))


def transpose(rows):
    rows = [list(r) for r in rows]
    return A([A([rows[j][i] for j in range(len(rows))])
              for i in range(len(rows[0]))])


def where(c):
    if c.v and isinstance(c.v[0], A):
        r, k = [], []
        for i, row in enumerate(c.v):
            for j, x in enumerate(row.v):
                if x:
                    r.append(i)
                    k.append(j)
        return (A(r), A(k))
    return (A([i for i, x in enumerate(c.v) if x]),)


def interp(xs, xp, fp):
    xp, fp = list(xp), list(fp)
    out = []
    for x in xs:
        if x < xp[0]:
            out.append(fp[0])
            continue
        if x >= xp[-1]:
            out.append(fp[-1])
            continue
        j = bisect.bisect_right(xp, x) - 1
        out.append(fp[j] + (x - xp[j]) * (fp[j + 1] - fp[j]) /
                   (xp[j + 1] - xp[j]))
    return out


def any(a):  # noqa: A001
    import builtins
    return builtins.any(a.v if isinstance(a, A) else a)


def isnan(a):
    return A([x != x for x in a.v])
