#!/usr/bin/env python3
"""Two bonnie++ 1.98 CSV files for the compare benchmark (issue 12):
MACHINES machines (distinct configuration labels host_00000, ...), each
run 3 times (-x 3: one result per metric with mean, stderr and n = 3),
every field numeric. The candidate file has the same machines; its block
throughputs are 20% lower on every tenth machine, the rest the same
within noise. usage: gen_compare.py MACHINES OUTDIR"""
import os
import random
import sys

machines = int(sys.argv[1])
out = sys.argv[2]
rnd = random.Random(12)
HEAD = ("1.98", "2.00a")


def row(name, seed, f, slow):
    v = []
    # putc,cpu,put_block,cpu,rewrite,cpu,getc,cpu,get_block,cpu,seeks,cpu
    base = [3500, 98, 180000, 30, 90000, 20, 5000, 99, 400000, 25, 900, 5]
    for i, b in enumerate(base):
        x = b * f * (1 + rnd.gauss(0, 0.02))
        if slow and i in (2, 8):
            x *= 0.8
        v.append(str(max(1, int(x))))
    files = ["16", "4096", "1024", "", "4"]
    ops = []
    for b in (20000, 90, 60000, 95, 15000, 80, 21000, 90, 58000, 96, 14000, 82):
        ops.append(str(max(1, int(b * f * (1 + rnd.gauss(0, 0.02))))))
    lat = []
    for b in (2900, 260, 170, 1800, 180, 8000, 330, 60, 220, 350, 170, 220):
        lat.append("%dus" % max(1, int(b * (1 + rnd.gauss(0, 0.05)))))
    return ",".join(list(HEAD) + [name, "1", str(seed), "64M", "", "8192", "5"]
                    + v + files + ops + lat)


for side in ("base", "cand"):
    speed = random.Random(7)  # the same machines on both sides
    rnd.seed(12 if side == "base" else 13)  # their own noise
    with open(os.path.join(out, side + ".csv"), "w") as fp:
        for m in range(machines):
            f = 0.5 + speed.random()
            for rep in range(3):
                fp.write(row("host_%05d" % m, 1000 + rep, f,
                             side == "cand" and m % 10 == 0) + "\n")
