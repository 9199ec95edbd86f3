#!/usr/bin/env python3
"""Many configurations of one fio test (stdlib only).

    gen_many.py SEED OUTDIR N

Writes OUTDIR/run-NNN.json: N copies of the real fio JSON file SEED with
the job name cfg-NNN (one configuration each) and every measured number
times 0.5 + ((37 i + N // 2) mod N) / N, so that the values are distinct,
shuffled against the names, and cfg-000 (stored first, the report's
baseline) sits in the middle at exactly 1.0. Identities and clocks keep
their value (as bench/gen_corpus.py scales). Deterministic.
"""
import os
import re
import sys

KEEP = {"timestamp", "timestamp_ms", "time", "groupid", "error", "eta",
        "elapsed", "major", "minor", "job_start"}
NUM = re.compile(r'^(\s*"([^"]*)" : )(-?[0-9]+(?:\.[0-9]+)?)(,?)$', re.M)


def scale(text, f):
    def sub(m):
        key, num = m.group(2), m.group(3)
        if key in KEEP:
            return m.group(0)
        if "." in num:
            digits = len(num) - num.index(".") - 1
            v = "%.*f" % (digits, float(num) * f)
        else:
            n = int(num)
            v = str(n if n in (0, 1) else max(1, int(round(n * f))))
        return m.group(1) + v + m.group(4)
    return NUM.sub(sub, text)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen_many.py SEED OUTDIR N")
    seed, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(seed, encoding="utf-8") as fp:
        text = fp.read()
    os.makedirs(out, exist_ok=True)
    w = max(3, len(str(n - 1)))
    for i in range(n):
        t = scale(text, 0.5 + ((i * 37 + n // 2) % n) / n)
        t = re.sub(r'"jobname" : "[^"]*"', '"jobname" : "cfg-%0*d"' % (w, i),
                   t)
        with open(os.path.join(out, "run-%0*d.json" % (w, i)), "w",
                  encoding="utf-8") as fp:
            fp.write(t)


if __name__ == "__main__":
    main()
