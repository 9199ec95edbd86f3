#!/usr/bin/env python3
"""Grow a per-I/O fio latency log (write_lat_log, log_avg_msec=0) of about
SIZE bytes from a real one: the real log's values in order, repeated with
time running on at the real log's rate scaled to IOPS I/Os per second,
directions and block sizes as logged. Also grows a histogram log
(write_hist_log) of LINES lines from a real one, times advanced by its
interval. Output goes where the caller says (never into the repo).

Also N averaged latency logs (log_avg_msec=100) of POINTS lines each, the
real log's values in turn, for the report benchmark (one job each: N
charts).

usage: gen_fio_log.py REAL_LAT_LOG SIZE_MB IOPS OUT_LOG
       gen_fio_log.py --hist REAL_HIST_LOG LINES OUT_LOG
       gen_fio_log.py --many REAL_LAT_LOG N POINTS OUT_DIR
"""
import gzip
import sys


def opener(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def lat(real, size_mb, iops, out):
    rows = []
    with opener(real) as f:
        for line in f:
            p = [x.strip() for x in line.split(",")]
            rows.append((int(p[1]), p[2], p[3], ", ".join(p[4:])))
    target = size_mb * 1024 * 1024
    written = 0
    i = 0
    step = 1000.0 / iops  # ms per I/O
    with open(out, "w") as o:
        buf = []
        while written < target:
            v, d, bs, rest = rows[i % len(rows)]
            t = int(i * step)
            s = "%d, %d, %s, %s, %s\n" % (t, v, d, bs, rest)
            buf.append(s)
            written += len(s)
            i += 1
            if len(buf) >= 100000:
                o.write("".join(buf))
                buf = []
        o.write("".join(buf))
    print("%s: %d lines, %d bytes, %.0f s of log" % (out, i, written,
                                                     i * step / 1000))


def hist(real, lines, out):
    rows = []
    with opener(real) as f:
        for line in f:
            p = line.split(",", 1)
            rows.append((int(p[0]), p[1]))
    period = rows[-1][0] - rows[0][0] + 500
    with open(out, "w") as o:
        for k in range(lines):
            t, rest = rows[k % len(rows)]
            o.write("%d,%s" % (t + (k // len(rows)) * period, rest))
    print("%s: %d lines" % (out, lines))


def many(real, n, points, outdir):
    vals = []
    with opener(real) as f:
        for line in f:
            vals.append(int(line.split(",")[1]))
    for j in range(n):
        with open("%s/job%03d_clat.1.log" % (outdir, j), "w") as o:
            o.write("".join("%d, %d, 0, 0, 0\n" % (
                100 * (i + 1), vals[(i * 7 + j) % len(vals)])
                for i in range(points)))
    print("%s: %d logs of %d points" % (outdir, n, points))


if __name__ == "__main__":
    if sys.argv[1] == "--many":
        many(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "--hist":
        hist(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        lat(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
