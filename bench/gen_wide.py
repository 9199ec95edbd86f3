#!/usr/bin/env python3
"""Many configurations x many tests from real fio runs (stdlib only).

    gen_wide.py runs   OUTDIR [--fio fio]
    gen_wide.py wide   --seeds DIR... --out DIR --count N

runs: real fio runs of the issue-41 shape, short (--runtime=1, 4 MB
files under OUTDIR): rw read/write/randread/randwrite/randrw x iodepth
1/16 x numjobs 1/4 (4 clones, no group_reporting), each once as json and once as json+ (40 runs, about
a minute); written as OUTDIR/RW-qdD-njN.FORMAT.json.
wide: N files (issue 41 item 1: 10,000), file i a copy of seed i mod S
(every *.json of the seed folders but *.expected; the fresh runs above
plus fixtures/fio-json: S ~64 real fio 3.33 files, ~126 distinct tests)
with its measured numbers scaled by 0.5 + ((37 i + N/2) mod N) / N (as
bench/gen_many.py does), its job names extended with a configuration of
its own ("host-NNNNN zfs LAYOUT recordsize=R compression=C"; files with
several job names keep them and take their label from the file name,
the same words joined by "_"; "All clients" stays as fio wrote it) and
its timestamps moved. So N configurations, each with the tests of its
seed, about 40 results per file. Deterministic.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_many import scale  # noqa: E402

LAYOUTS = ["mirror", "raidz1", "raidz2", "stripe"]
RECORDSIZES = ["16k", "64k", "128k", "1M"]
COMPRESSION = ["off", "lz4", "zstd"]
JOBNAME = re.compile(r'"jobname" : "([^"]*)"')
TS = re.compile(r'"timestamp" : [0-9]+')
TSMS = re.compile(r'"timestamp_ms" : [0-9]+')


def gen_runs(a):
    os.makedirs(a.out, exist_ok=True)
    for rw in ["read", "write", "randread", "randwrite", "randrw"]:
        for qd in [1, 16]:
            for nj in [1, 4]:
                for fmt in ["json", "json+"]:
                    name = "%s-qd%d-nj%d.%s.json" % (
                        rw, qd, nj, "jsonplus" if fmt == "json+" else "json")
                    out = os.path.join(a.out, name)
                    if os.path.isfile(out) and os.path.getsize(out) > 0:
                        continue
                    cmd = [a.fio, "--name=%s-qd%d" % (rw, qd), "--rw=" + rw,
                           "--bs=4k", "--size=4m", "--ioengine=libaio",
                           "--iodepth=%d" % qd, "--numjobs=%d" % nj,
                           "--runtime=1", "--time_based",
                           "--directory=" + a.out,
                           "--output-format=" + fmt, "--output=" + out]
                    subprocess.run(cmd, check=True,
                                   stdout=subprocess.DEVNULL)
    for n in os.listdir(a.out):  # the data files fio wrote
        if not n.endswith(".json"):
            os.remove(os.path.join(a.out, n))


def gen_wide(a):
    seeds = []
    for d in a.seeds:
        seeds += sorted(os.path.join(d, n) for n in os.listdir(d)
                        if n.endswith(".json"))
    if not seeds:
        sys.exit("gen_wide: no seeds")
    texts, merged = [], []
    for p in seeds:
        # fio merged several jobs into one entry named after the first:
        # poolbench names that test after the job names, so keep them
        merged.append("mixed-group" in os.path.basename(p))
        with open(p, encoding="utf-8", errors="surrogateescape") as fp:
            texts.append(fp.read())
    n = a.count
    total = 0
    for i in range(n):
        t = scale(texts[i % len(texts)], 0.5 + ((i * 37 + n // 2) % n) / n)
        k = i // len(texts)
        lab = "host-%05d zfs %s recordsize=%s compression=%s" % (
            i, LAYOUTS[k % 4], RECORDSIZES[(k // 4) % 4],
            COMPRESSION[(k // 16) % 3])
        names = set(JOBNAME.findall(t)) - {"All clients"}
        if merged[i % len(texts)]:
            names.add("")
        if len(names) == 1:  # labelled by its job name
            t = JOBNAME.sub(lambda m: m.group(0) if m.group(1) == "All clients"
                            else '"jobname" : "%s %s"' % (m.group(1), lab), t)
        name = lab.replace(" ", "_") if len(names) > 1 else "cfg-%05d" % i
        t = TS.sub('"timestamp" : %d' % (1795900000 + i), t)
        t = TSMS.sub('"timestamp_ms" : %d' % ((1795900000 + i) * 1000), t)
        sub = os.path.join(a.out, "batch-%03d" % (i // 500))
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, name + ".json"), "w",
                  encoding="utf-8", errors="surrogateescape") as fp:
            fp.write(t)
        total += len(t)
    print("wide: %d files from %d seeds, %.1f MB" % (n, len(seeds),
                                                    total / 1e6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sp = ap.add_subparsers(dest="cmd", required=True)
    r = sp.add_parser("runs")
    r.add_argument("out")
    r.add_argument("--fio", default="fio")
    w = sp.add_parser("wide")
    w.add_argument("--seeds", nargs="+", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--count", type=int, default=10000)
    a = ap.parse_args()
    gen_runs(a) if a.cmd == "runs" else gen_wide(a)


if __name__ == "__main__":
    main()
