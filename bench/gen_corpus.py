#!/usr/bin/env python3
"""Generate the benchmark corpus from real tool output (stdlib only).

    gen_corpus.py fio    --seeds DIR --fixtures DIR --out DIR --count N [--first I]
    gen_corpus.py bonnie --src FILE... --out FILE --rows N [--unique-names]
    gen_corpus.py pts    --base FILE --out FILE --bytes N
    gen_corpus.py terse  --src FILE... --out FILE --records N [--names D]
                         [--run R] [--interrupt] [--bad K]
    gen_corpus.py text   --src FILE --out FILE --runs N [--names D]

fio: every output file is a real fio JSON/json+ file (a seed) with its job
names changed to a configuration label (ZFS layout, recordsize, compression)
and its measured numbers scaled by one factor per file, so that ratios inside
a file (bw = iops x bs, percentiles in order) stay as fio wrote them.
bonnie: real bonnie++ 1.98 CSV rows (the layout Debian's bon_csv2html and
bon_csv2txt read) with new machine names, seeds and scaled numbers. The
384 names repeat, so most rows are repeated runs of one machine and test,
which poolbench folds into one result per metric; --unique-names gives
every row a name of its own (one result per cell, ~34.5 per row), for
filling a database to a number of results.
pts: a real composite.xml whose <System> is repeated for ten configurations
and whose <Result> blocks are repeated (one <Entry> per system, scaled
values and RawString runs) until the file reaches the size asked for.
terse: real fio terse v3/v5 records (fixtures/fio-terse) with new job
names, group ids, read iops and disk names: runs of R jobs (default 1,000;
the group id goes up ten times a run (every 100 jobs) and falls back to 0 at each
run, so each run is a run of its own to poolbench), every 50th job a group
of 3 numjobs clones (same name, group and disk tail), job names cycling
over D distinct names (default N: all distinct; fewer: a name recurs in
later runs and is labelled "NAME run K"), read iops 1000 + i % 997 (i: the
record's index). --interrupt ends the file with fio's "fio: terminating
on signal 2"; --bad K writes "n/a" as record K's read bandwidth.
text: N copies of one real fio normal-output run (fixtures/fio-text), each
a run of its own to poolbench; its job name kept (labelled "NAME run K")
or, with --names D, cycling over D names j0000000... (D = N: one name a
run, no "run K").
Output is deterministic for the same arguments.
"""
import argparse
import os
import random
import re
import sys

LAYOUTS = ["mirror", "raidz1", "raidz2", "stripe"]
RECORDSIZES = ["16k", "64k", "128k", "1M"]
COMPRESSION = ["off", "lz4", "zstd"]
CONFIGS = [(l, r, c) for l in LAYOUTS for r in RECORDSIZES for c in COMPRESSION]


def label(i, sep=" "):
    lay, rs, comp = CONFIGS[i % len(CONFIGS)]
    return sep.join(["zfs", lay, "recordsize=" + rs, "compression=" + comp])


# ==== fio ====

# fio writes one "key" : value per line; these numbers are identities or
# clocks, not measurements, and keep their value.
FIO_KEEP = {"timestamp", "timestamp_ms", "time", "groupid", "error", "eta",
            "elapsed", "major", "minor", "job_start"}
FIO_NUM = re.compile(r'^(\s*"([^"]*)" : )(-?[0-9]+(?:\.[0-9]+)?)(,?)$', re.M)
FIO_JOBNAME = re.compile(r'"jobname" : "([^"]*)"')
FIO_TS = re.compile(r'"timestamp" : [0-9]+')
FIO_TSMS = re.compile(r'"timestamp_ms" : [0-9]+')


def scale_fio(text, f):
    def sub(m):
        key, num = m.group(2), m.group(3)
        if key in FIO_KEEP:
            return m.group(0)
        if "." in num:
            digits = len(num) - num.index(".") - 1
            v = "%.*f" % (digits, float(num) * f)
        else:
            n = int(num)
            v = str(n if n in (0, 1) else max(1, int(round(n * f))))
        return m.group(1) + v + m.group(4)
    return FIO_NUM.sub(sub, text)


def fio_seeds(seeds_dir, fixtures_dir):
    """(path, weight) list: fresh fio runs, then the fixture files."""
    fresh = [("multi3.json", 10), ("randread-qd8.json", 2),
             ("randrw70.jsonplus.json", 3), ("multi3.jsonplus.json", 2)]
    seeds = []
    for name, w in fresh:
        p = os.path.join(seeds_dir, name) if seeds_dir else ""
        if p and os.path.isfile(p) and os.path.getsize(p) > 0:
            seeds.append((p, w))
    fx = []
    if fixtures_dir and os.path.isdir(fixtures_dir):
        fx = sorted(os.path.join(fixtures_dir, n)
                    for n in os.listdir(fixtures_dir) if n.endswith(".json"))
    if not seeds:  # no fio here: the fixtures only (also real fio 3.33)
        return [(p, 1) for p in fx]
    # the fixtures take three slots in twenty, in turn
    seeds.append((fx, 3) if fx else (seeds[0][0], 3))
    return seeds


def gen_fio(a):
    seeds = fio_seeds(a.seeds, a.fixtures)
    if not seeds:
        sys.exit("gen_corpus: no fio seeds")
    slots = []
    for i, (p, w) in enumerate(seeds):
        slots += [i] * w
    texts = {}

    def text_of(path):
        if path not in texts:
            with open(path, encoding="utf-8", errors="surrogateescape") as fp:
                texts[path] = fp.read()
        return texts[path]

    variants = {}

    def variant(path, k):
        key = (path, k)
        if key not in variants:
            rnd = random.Random("%s/%d" % (os.path.basename(path), k))
            variants[key] = scale_fio(text_of(path), rnd.uniform(0.8, 1.25))
        return variants[key]

    nfx = 0
    total = 0
    for i in range(a.first, a.first + a.count):
        src, _ = seeds[slots[i % len(slots)]]
        if isinstance(src, list):
            src = src[nfx % len(src)]
            nfx += 1
        t = variant(src, (i // len(slots)) % 24)
        lab = label(i // len(slots))
        t = FIO_JOBNAME.sub(lambda m: '"jobname" : "%s %s"' % (m.group(1),
                                                              lab), t)
        t = FIO_TS.sub('"timestamp" : %d' % (1795900000 + i), t)
        t = FIO_TSMS.sub('"timestamp_ms" : %d' % ((1795900000 + i) * 1000), t)
        sub = os.path.join(a.out, "batch-%03d" % (i // 250))
        os.makedirs(sub, exist_ok=True)
        kind = ".plus" if '"bins" :' in t else ""
        path = os.path.join(sub, "run-%05d%s.json" % (i, kind))
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as fp:
            fp.write(t)
        total += len(t)
    print("fio: %d files, %.1f MB" % (a.count, total / 1e6))


# ==== bonnie++ ====

def bonnie_rows(paths):
    rows = []
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as fp:
            for line in fp:
                line = line.strip()
                if line.startswith("1.98,"):
                    rows.append(line.split(","))
    return rows


NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(us|ms|s)?$")
# 1.98 columns that are settings, not measurements (see bon_csv2txt)
BONNIE_SETTINGS = {21, 22, 23, 24, 25}
BONNIE_CPU = set(range(10, 21, 2)) | set(range(27, 38, 2))


def scale_bonnie(row, f, rnd):
    out = list(row)
    for i in range(9, len(out)):
        if i in BONNIE_SETTINGS:
            continue
        m = NUMBER.match(out[i])
        if not m:
            continue  # empty, +++++, +++
        num, unit = m.group(1), m.group(2) or ""
        v = float(num) * (f if unit else rnd.uniform(0.85, 1.15) * f)
        if i in BONNIE_CPU:
            v = min(v, 100.0)
        if "." in num:
            out[i] = "%.1f%s" % (v, unit)
        else:
            out[i] = "%d%s" % (max(1, int(round(v))), unit)
    return out


def gen_bonnie(a):
    rows = bonnie_rows(a.src)
    if not rows:
        sys.exit("gen_corpus: no bonnie++ 1.98 rows in the sources")
    hosts = ["nas%02d" % i for i in range(8)]
    rnd = random.Random(98)
    with open(a.out, "w") as fp:
        for i in range(a.rows):
            r = scale_bonnie(rows[i % len(rows)], rnd.uniform(0.7, 1.3), rnd)
            host = hosts[(i // len(CONFIGS)) % len(hosts)]
            r[2] = "%s_%s" % (host, label(i, "_").replace("=", ""))
            if a.unique_names:
                r[2] += "_r%d" % i
            r[4] = str(1795000000 + i)
            fp.write(",".join(r) + "\n")
    print("bonnie: %d rows, %.1f MB" % (a.rows, os.path.getsize(a.out) / 1e6))


# ==== Phoronix Test Suite ====

def gen_pts(a):
    with open(a.base, encoding="utf-8") as fp:
        text = fp.read()
    first = text.index("<Result>")
    head_end = text.rindex("\n", 0, first) + 1
    last = text.rindex("</Result>") + len("</Result>")
    head, foot = text[:head_end], text[last:]
    results = re.findall(r"[ \t]*<Result>.*?</Result>\n?", text[head_end:],
                         re.S)
    sysm = re.search(r"[ \t]*<System>.*?</System>\n", head, re.S)
    ident = re.search(r"<Identifier>(.*?)</Identifier>", sysm.group(0)).group(1)
    systems = ["%s %s" % (ident, label(k)) for k in range(10)]
    head = (head[:sysm.start()] +
            "".join(sysm.group(0).replace(ident, s) for s in systems) +
            head[sysm.end():])
    rnd = random.Random(5)
    out = [head]
    size = len(head) + len(foot)
    n = 0
    while size < a.bytes:
        res = results[n % len(results)]
        rep = n // len(results)
        if rep:
            res = re.sub(r"</Description>", " - Pass: %d</Description>" % rep,
                         res, count=1)
        entry = re.search(r"[ \t]*<Entry>.*?</Entry>\n", res, re.S)
        ents = []
        for s in systems:
            e = entry.group(0).replace(ident, s)
            f = rnd.uniform(0.7, 1.3)
            raw = re.search(r"<RawString>(.*?)</RawString>", e)
            if raw and raw.group(1):
                vals = []
                for x in raw.group(1).split(":"):
                    try:
                        vals.append(float(x) * f * rnd.uniform(0.97, 1.03))
                    except ValueError:
                        vals = []
                        break
                if vals:
                    e = e.replace(raw.group(0), "<RawString>%s</RawString>" %
                                  ":".join("%.3f" % v for v in vals))
                    e = re.sub(r"<Value>[^<]*</Value>", "<Value>%.2f</Value>" %
                               (sum(vals) / len(vals)), e)
            ents.append(e)
        res = res[:entry.start()] + "".join(ents) + res[entry.end():]
        out.append(res)
        size += len(res)
        n += 1
    out.append(foot)
    with open(a.out, "w", encoding="utf-8") as fp:
        fp.write("".join(out))
    print("pts: %d results x %d systems, %.1f MB" %
          (n, len(systems), os.path.getsize(a.out) / 1e6))


# ==== fio terse ====

def gen_terse(a):
    seeds = []
    for path in a.src:
        with open(path, encoding="utf-8") as fp:
            for line in fp:
                f = line.rstrip("\n").split(";")
                if f[0] in ("3", "5") and len(f) > 120:
                    seeds.append(f)
    if not seeds:
        sys.exit("terse: no v3/v5 records in --src")
    names = a.names or a.records
    out = []
    i = job = 0
    while i < a.records:
        nj = 3 if job % 50 == 49 else 1
        pos = job % a.run
        for k in range(nj):
            if i >= a.records:
                break
            f = list(seeds[job % len(seeds)])
            base = 5
            f[2] = "%s%07d" % ("c" if nj > 1 else "j", job % names)
            f[3] = str(pos * 10 // a.run)
            f[base + 2] = str(1000 + i % 997)
            if i == a.bad:
                f[base + 1] = "n/a"
            sec = 47 if f[0] == "5" else 41
            nsec = 3 if f[0] == "5" else 2
            tail = base + nsec * sec + 34
            if tail < len(f) and f[tail].startswith("vd"):
                f[tail] = "vd" + "abcd"[job % 4]
            out.append(";".join(f) + "\n")
            i += 1
        job += 1
    if a.interrupt:
        out.append("fio: terminating on signal 2\n")
    with open(a.out, "w", encoding="utf-8") as fp:
        fp.write("".join(out))
    print("terse: %d records, %d jobs, %.1f MB" %
          (a.records, job, os.path.getsize(a.out) / 1e6))


# ==== fio normal text ====

def gen_text(a):
    with open(a.src, encoding="utf-8") as fp:
        run = fp.read()
    m = re.search(r"^(\S+): \(g(?:roupid)?=", run, re.M)
    if not m:
        sys.exit("text: no job header or group line in --src")
    name = m.group(1)
    if not run.endswith("\n"):
        run += "\n"
    with open(a.out, "w", encoding="utf-8") as fp:
        for i in range(a.runs):
            if a.names:
                fp.write(re.sub(r"^%s:" % re.escape(name),
                                "j%07d:" % (i % a.names), run, flags=re.M))
            else:
                fp.write(run)
    print("text: %d runs, %.1f MB" % (a.runs, os.path.getsize(a.out) / 1e6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sp = ap.add_subparsers(dest="what", required=True)
    p = sp.add_parser("fio")
    p.add_argument("--seeds")
    p.add_argument("--fixtures")
    p.add_argument("--out", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--first", type=int, default=0)
    p = sp.add_parser("bonnie")
    p.add_argument("--src", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--rows", type=int, required=True)
    p.add_argument("--unique-names", action="store_true")
    p = sp.add_parser("pts")
    p.add_argument("--base", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--bytes", type=int, required=True)
    p = sp.add_parser("terse")
    p.add_argument("--src", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--records", type=int, required=True)
    p.add_argument("--names", type=int, default=0)
    p.add_argument("--run", type=int, default=1000)
    p.add_argument("--interrupt", action="store_true")
    p.add_argument("--bad", type=int, default=-1)
    p = sp.add_parser("text")
    p.add_argument("--src", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--names", type=int, default=0)
    a = ap.parse_args()
    {"fio": gen_fio, "bonnie": gen_bonnie, "pts": gen_pts,
     "terse": gen_terse, "text": gen_text}[a.what](a)


if __name__ == "__main__":
    main()
