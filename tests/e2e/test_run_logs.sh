#!/bin/sh
# e2e (root, real ZFS): `[fio] log = bw, lat, hist` (issue 13 item 3). A
# two-cell plan (log_avg_msec 0 and 200) on a pbl13 pool over one sparse
# file: the dry run shows fio writing its logs next to each cell's JSON,
# the run ingests them with the cell, and the series are in the database
# under the cell's configuration and test (the ones of its fio results),
# per-I/O logs in buckets and averaged logs as logged.
# usage: test_run_logs.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold lg
pool=pbl13lg$$
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<PLAN
[plan]
name = logs
pool = $pool
vdevs = file:$base/d0.img:256M

[pool]
layout = stripe

[dataset]
recordsize = 128k

[fio]
rw = randrw
rwmixread = 70
bs = 4k
size = 8m
runtime = 2
time_based = 1
log = bw, lat, hist
log_avg_msec = 0, 200
log_hist_msec = 250
PLAN
db=$base/r.db out=$base/out

"$pb" run --dry-run --time-scale 0.5 -o "$out" "$base/plan.ini" >"$base/dry.txt" 2>"$base/dry.err" ||
    fail "dry run exit $?: $(cat "$base/dry.err")"
grep -q -- "--write_bw_log=$out/raw/c001 --write_lat_log=$out/raw/c001 --write_hist_log=$out/raw/c001 " "$base/dry.txt" ||
    fail "dry run: no log options: $(grep -m1 'output-format=json --output' "$base/dry.txt")"
grep -q -- "--log_avg_msec=200 " "$base/dry.txt" || fail "dry run: no log_avg_msec=200"

timeout 600 "$pb" run --time-scale 0.5 --db "$db" -o "$out" "$base/plan.ini" >"$base/out.txt" 2>"$base/err.txt"
rc=$?
[ $rc -eq 0 ] || fail "run exit $rc: $(tail -5 "$base/err.txt")"
for f in c001_bw.1.log c001_lat.1.log c001_clat.1.log c001_clat_hist.1.log c002_bw.1.log; do
    [ -s "$out/raw/$f" ] || fail "no $f: $(ls "$out/raw")"
done
zpool list -H -o name | grep -qx "$pool" && fail "pool $pool still exists"

# sources: 2 fio JSON + per cell bw, lat, clat, clat_hist (slat empty)
v=$(q "SELECT count(*) FROM source WHERE format IN ('fio-log', 'fio-hist-log')")
[ "$v" = "8" ] || fail "log sources: $v ($(q "SELECT path FROM source"))"
# cell 1: per-I/O logs in buckets; cell 2: log_avg_msec=200 as logged
v=$(q "SELECT group_concat(DISTINCT s.kind) FROM series s JOIN result r ON r.id = s.result_id JOIN source o ON o.id = r.source_id WHERE o.path LIKE '%/c001_%' AND s.name = 'read_clat'")
[ "$v" = "io" ] || fail "cell 1 read_clat kind: $v"
v=$(q "SELECT s.kind || ' ' || s.width_ms FROM series s JOIN result r ON r.id = s.result_id JOIN source o ON o.id = r.source_id WHERE o.path LIKE '%/c002_bw%' AND s.name = 'read_bw'")
[ "$v" = "avg 200" ] || fail "cell 2 read_bw: $v"
v=$(q "SELECT count(*) FROM series s JOIN result r ON r.id = s.result_id WHERE s.name = 'read_clat_hist' AND s.width_ms = 250")
[ "$v" = "2" ] || fail "hist series: $v"
v=$(q "SELECT count(*) FROM series_point")
[ "$v" -gt 20 ] || fail "points: $v"
# the series are under the cell's own configuration and test: every log
# result shares config and test with a fio-json read_iops result
v=$(q "SELECT count(*) FROM series s JOIN result r ON r.id = s.result_id WHERE NOT EXISTS (SELECT 1 FROM result j JOIN metric m ON m.id = j.metric_id JOIN source o ON o.id = j.source_id WHERE o.format = 'fio-json' AND m.name = 'read_iops' AND j.config_id = r.config_id AND j.test_id = r.test_id)")
[ "$v" = "0" ] || fail "$v series not under their cell's config and test"
v=$(q "SELECT count(DISTINCT r.config_id) FROM series s JOIN result r ON r.id = s.result_id")
[ "$v" = "1" ] || fail "configs of the series: $v"
"$pb" export --db "$db" --series --csv --metric '^read_bw$' >"$base/s.csv" || fail "export --series"
[ "$(wc -l <"$base/s.csv")" -gt 5 ] || fail "series rows: $(cat "$base/s.csv")"

[ $fails -eq 0 ] || exit 1
echo "ok"
