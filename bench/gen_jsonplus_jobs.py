#!/usr/bin/env python3
"""A fio json+ document of many jobs for the bins benchmark (issue 13).

    gen_jsonplus_jobs.py SEED.json NJOBS OUT_PLUS.json OUT_PLAIN.json

Takes the first job entry of SEED (a real fio 3.33 json+ run, e.g.
fixtures/fio-jsonplus/fio-3.33_randrw-nj1_json-plus.json: clat, lat and
slat bins for read and write, ~900 bins) and writes NJOBS copies with
distinct job names ("job0", ...) and each job's bin counts scaled by one
factor (1 + k % 7), as fio writes many jobs without group_reporting.
OUT_PLAIN is the same document with every "bins" object removed: what
fio-json costs without them. Never written inside the repo.
"""
import copy
import json
import sys


def main():
    seed, njobs, out_plus, out_plain = sys.argv[1], int(sys.argv[2]), \
        sys.argv[3], sys.argv[4]
    with open(seed) as f:
        doc = json.load(f)
    base = doc["jobs"][0]
    jobs = []
    for k in range(njobs):
        j = copy.deepcopy(base)
        j["jobname"] = "job%d" % k
        m = 1 + k % 7
        for d in ("read", "write", "trim"):
            for lat in ("clat_ns", "lat_ns", "slat_ns"):
                b = j.get(d, {}).get(lat, {}).get("bins")
                if b:
                    for key in b:
                        b[key] *= m
                    j[d]["total_ios"] = sum(b.values())
        jobs.append(j)
    doc["jobs"] = jobs
    with open(out_plus, "w") as f:
        json.dump(doc, f, indent=2)
    for j in jobs:
        for d in ("read", "write", "trim"):
            for lat in ("clat_ns", "lat_ns", "slat_ns"):
                j.get(d, {}).get(lat, {}).pop("bins", None)
    with open(out_plain, "w") as f:
        json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main()
