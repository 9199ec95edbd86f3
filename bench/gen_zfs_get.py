#!/usr/bin/env python3
"""Write a `zfs get -Hp all` of N datasets (default 20,000) on 4 pools, the
shape of a big file server's property dump (issue 20 item 16: zfs-props
must be linear in datasets). Usage: gen_zfs_get.py [N] > big.txt"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rnd = random.Random(20)
comps = ["lz4", "zstd", "off", "gzip-6", "zstd-3"]
out = sys.stdout
for i in range(n):
    pool = "pool%d" % (i % 4)
    ds = "%s/vm/disk%05d" % (pool, i)
    used = rnd.randrange(1 << 20, 1 << 40)
    ratio = 1 + rnd.random() * 2
    lused = int(used * ratio)
    rows = [
        ("type", "filesystem", "-"), ("creation", str(1700000000 + i), "-"),
        ("used", str(used), "-"), ("available", str(1 << 42), "-"),
        ("referenced", str(used), "-"), ("compressratio", "%.2f" % ratio, "-"),
        ("mounted", "yes", "-"), ("quota", "0", "default"),
        ("reservation", "0", "default"),
        ("recordsize", str(1 << rnd.randrange(12, 21)), "local"),
        ("mountpoint", "/" + ds, "default"), ("checksum", "on", "default"),
        ("compression", rnd.choice(comps), "local"),
        ("atime", rnd.choice(["on", "off"]), "inherited from " + pool),
        ("copies", "1", "default"), ("refreservation", "0", "default"),
        ("primarycache", "all", "default"), ("usedbysnapshots", "0", "-"),
        ("usedbydataset", str(used), "-"), ("usedbychildren", "0", "-"),
        ("usedbyrefreservation", "0", "-"), ("logbias", "latency", "default"),
        ("dedup", "off", "default"), ("sync", "standard", "default"),
        ("refcompressratio", "%.2f" % ratio, "-"), ("written", str(used), "-"),
        ("logicalused", str(lused), "-"),
        ("logicalreferenced", str(lused), "-"),
        ("redundant_metadata", "all", "default"),
        ("encryption", "off", "default"),
    ]
    out.write("".join("%s\t%s\t%s\t%s\n" % (ds, k, v, s) for k, v, s in rows))
