#!/usr/bin/env python3
"""Inputs of a given number of results for the scale benchmark (stdlib only).

    gen_scale.py fio-db --seed FILE --out DIR --results N [--tests T]

Writes DIR/dNNN/cfg-NNNNNN.json: one fio JSON file per configuration (one
nightly run of a sweep), each holding T jobs (the tests: the seed's jobs
with their rw, and bs x iodepth varied in "job options"), until the files
hold about N results in all (poolbench stores ~18 per job of the real
seed fio-3.33_three-jobs.json: 13 for a read or write job, 28 for rw).
Every file has a distinct configuration label, e.g.
"nightly-000123 zfs raidz2 recordsize=128k compression=lz4 sync=standard",
whose ZFS words the label rules turn into dimensions; so N results are
~N / (18 T) configurations, T tests and as many sources as configurations:
10^7 results with T = 48 are ~11,600 configurations and files (1.7 GB).
Measured numbers are the seed's scaled by one factor per job (16 variants
per test, chosen per file), identities and clocks keep their value (as
gen_corpus.py scales). The JSON is written compact (no indentation; fio
indents): same content, a third of the bytes, so that 10^7 results fit in
RAM. Deterministic. Prints "files F, configs F, tests T, bytes B".
"""
import argparse
import json
import os
import random
import sys

KEEP = {"timestamp", "timestamp_ms", "time", "groupid", "error", "eta",
        "elapsed", "major", "minor", "job_start", "job_runtime", "runtime"}
LAYOUTS = ["mirror", "raidz1", "raidz2", "raidz3", "stripe"]
RECORDSIZES = ["4k", "8k", "16k", "32k", "64k", "128k", "256k", "1M"]
COMPRESSION = ["off", "lz4", "zstd", "gzip"]
SYNC = ["standard", "always", "disabled"]
BS = ["4k", "8k", "16k", "64k", "128k", "1m"]
QD = ["1", "4", "16", "64"]
VARIANTS = 16
PLACEHOLDER = "\x00JOBNAME\x00"


def scale(obj, f, key=None):
    if isinstance(obj, dict):
        return {k: scale(v, f, k) for k, v in obj.items()}
    if isinstance(obj, list):
        return [scale(v, f, key) for v in obj]
    if isinstance(obj, bool) or key in KEEP:
        return obj
    if isinstance(obj, int):
        return obj if obj in (0, 1) else max(1, int(round(obj * f)))
    if isinstance(obj, float):
        return round(obj * f, 6)
    return obj


def size(s):
    """bytes of a fio size such as "4k", "1m"."""
    mult = {"k": 1024, "m": 1 << 20, "g": 1 << 30}
    s = s.lower()
    return int(s[:-1]) * mult[s[-1]] if s[-1] in mult else int(s)


def fixed_blocks(j, bs):
    """io bytes and bandwidth of each direction that did I/O as fio
    reports them for blocks of bs bytes (the seed job's own bs differs
    from the one its options now say; poolbench reads blocks whose
    average is not the job's bs as a group of several jobs)."""
    b = size(bs)
    for d in ("read", "write", "trim"):
        x = j.get(d)
        if not isinstance(x, dict) or not x.get("total_ios"):
            continue
        x["io_bytes"] = x["total_ios"] * b
        x["io_kbytes"] = x["io_bytes"] // 1024
        if x.get("runtime"):
            x["bw_bytes"] = x["io_bytes"] * 1000 // x["runtime"]
            x["bw"] = x["bw_bytes"] // 1024


def label(i):
    r = i
    lay = LAYOUTS[r % len(LAYOUTS)]
    r //= len(LAYOUTS)
    rs = RECORDSIZES[r % len(RECORDSIZES)]
    r //= len(RECORDSIZES)
    comp = COMPRESSION[r % len(COMPRESSION)]
    r //= len(COMPRESSION)
    sync = SYNC[r % len(SYNC)]
    return "nightly-%06d zfs %s recordsize=%s compression=%s sync=%s" % (
        i, lay, rs, comp, sync)


def tests(seed_jobs, t):
    """T (base job, job options) pairs: the seed's rw x bs x iodepth."""
    out = []
    for k in range(t):
        base = seed_jobs[k % len(seed_jobs)]
        opts = dict(base.get("job options", {}))
        opts["bs"] = BS[(k // len(seed_jobs)) % len(BS)]
        opts["iodepth"] = QD[(k // (len(seed_jobs) * len(BS))) % len(QD)]
        if k >= len(seed_jobs) * len(BS) * len(QD):
            opts["numjobs"] = str(1 + k // (len(seed_jobs) * len(BS) *
                                            len(QD)))
        out.append((base, opts))
    return out


def gen_fio_db(a):
    with open(a.seed, encoding="utf-8") as fp:
        doc = json.load(fp)
    seed_jobs = doc["jobs"]
    per_job = {"read": 13, "randread": 13, "write": 13, "randwrite": 13,
               "trim": 13, "randtrim": 13}
    tl = tests(seed_jobs, a.tests)
    per_cfg = sum(per_job.get(o.get("rw", ""), 28) for _, o in tl)
    nfiles = max(1, (a.results + per_cfg - 1) // per_cfg)
    # job templates: test x variant, jobname left as a placeholder
    rnd = random.Random(16)
    tmpl = []
    for base, opts in tl:
        vs = []
        for _ in range(VARIANTS):
            j = scale(base, rnd.uniform(0.6, 1.4))
            j["jobname"] = PLACEHOLDER
            j["job options"] = opts
            fixed_blocks(j, opts["bs"])
            vs.append(json.dumps(j, separators=(",", ":")).split(
                json.dumps(PLACEHOLDER)))
        tmpl.append(vs)
    head = {k: v for k, v in doc.items() if k not in ("jobs", "disk_util")}
    tail = json.dumps(doc.get("disk_util", []), separators=(",", ":"))
    total = 0
    for i in range(nfiles):
        name = json.dumps(label(i))
        head["timestamp"] = 1795900000 + i * 86400
        head["timestamp_ms"] = head["timestamp"] * 1000
        h = json.dumps(head, separators=(",", ":"))[:-1]
        parts = [h, ',"jobs":[']
        for k, vs in enumerate(tmpl):
            pre, post = vs[(i * 7 + k) % VARIANTS]
            if k:
                parts.append(",")
            parts += [pre, name, post]
        parts += ['],"disk_util":', tail, "}\n"]
        text = "".join(parts)
        sub = os.path.join(a.out, "d%03d" % (i // 500))
        if i % 500 == 0:
            os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "cfg-%06d.json" % i), "w",
                  encoding="utf-8") as fp:
            fp.write(text)
        total += len(text)
    print("files %d, configs %d, tests %d, bytes %d, ~results %d" %
          (nfiles, nfiles, len(tl), total, nfiles * per_cfg))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sp = ap.add_subparsers(dest="what", required=True)
    p = sp.add_parser("fio-db")
    p.add_argument("--seed", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--results", type=int, required=True)
    p.add_argument("--tests", type=int, default=48)
    a = ap.parse_args()
    if a.tests < 1 or a.results < 1:
        sys.exit("gen_scale: --tests and --results must be positive")
    gen_fio_db(a)


if __name__ == "__main__":
    main()
