#!/bin/sh
# e2e (root, real ZFS): what a run records about the pool and the caches,
# and how the report shows the experiment. A plan of quick.ini's shape
# (recordsize 128k, compression gzip/lzjb, randread/randwrite on 75%
# compressible data with refill_buffers, 1 s runtimes) on two sparse files:
# - compressratio is read once the data is on the pool: gzip gives within
#   10% of the 4.00x that buffer_compress_percentage=75 implies for both
#   workloads (quick.ini's randwrite read 43.12x before), lzjb is flagged
#   (flag.compression_mismatch), the compression table has one row per
#   workload;
# - zpool iostat -v ran while fio ran: pool_* metrics, per-vdev facts;
# - arcstats and module parameters absent on zfs-fuse are recorded as
#   absent; the working set is flagged as fitting in the cache;
# - ashift is the pool's real one (zdb -C), not 0;
# - progress prints each cell's headline; --dry-run an estimate;
# - the report's Experiment section links the plan, commands.log and raw
#   files with links that resolve from report/index.html.
# usage: test_run_telemetry.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold tel
pool=${PB_E2E_POOL:-$pool}
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<PLAN
[plan]
name = tel
pool = $pool
vdevs = file:$base/d0.img:256M file:$base/d1.img:256M

[dataset]
recordsize = 128k
compression = gzip, lzjb

[fio]
rw = randread, randwrite
bs = 4k
size = 16m
runtime = 1
time_based = 1
buffer_compress_percentage = 75
refill_buffers = 1
PLAN
db=$base/r.db out=$base/out

# ---- dry run: the estimate
"$pb" run --dry-run -o "$out" "$base/plan.ini" >"$base/dry.txt" 2>&1 ||
    fail "dry run exit $?"
grep -q '^# estimated duration: 0:[0-9][0-9]$' "$base/dry.txt" ||
    fail "no estimate: $(tail -2 "$base/dry.txt")"
grep -q "^# in the background while fio runs: zpool iostat -v $pool 1 > $out/raw/c001.iostat.txt\$" \
    "$base/dry.txt" || fail "dry run does not list zpool iostat"

# ---- the run
timeout 600 "$pb" run --db "$db" -o "$out" "$base/plan.ini" >"$base/out.txt" 2>"$base/err.txt"
rc=$?
[ $rc -eq 0 ] || fail "run exit $rc: $(tail -5 "$base/err.txt")"
zpool list -H -o name | grep -qx "$pool" && fail "pool $pool still exists"
[ -e "$base/d0.img" ] || [ -e "$base/d1.img" ] && fail "sparse files left"
pgrep -f "zpool iostat -v $pool" >/dev/null && fail "zpool iostat left running"

# ---- headline per cell
grep -Eq '^cell 2/4 compression=gzip fio randwrite bs=4k iodepth=1: write [0-9.]+k? IOPS [0-9.]+ [KMG]iB/s; pool read .* write .*/s$' \
    "$base/err.txt" || fail "no headline for cell 2: $(grep '^cell 2/4' "$base/err.txt")"

# ---- compression after sync: gzip within 10% of 4.00x, per workload
for rw in randread randwrite; do
    r=$(q "SELECT value FROM v_result WHERE config='compression=gzip'
           AND test='zfs space after fio $rw bs=4k iodepth=1' AND metric='compressratio'")
    [ -n "$r" ] || fail "no compressratio for gzip $rw"
    awk -v r="${r:-0}" 'BEGIN { exit !(r >= 3.6 && r <= 4.4) }' ||
        fail "gzip $rw compressratio $r is not within 10% of 4.00"
done
fact() { # config test-like key
    q "SELECT f.value FROM fact f JOIN result r ON r.source_id = f.source_id
       JOIN config c ON c.id = r.config_id JOIN test t ON t.id = r.test_id
       WHERE c.label = '$1' AND t.name LIKE '$2' AND f.key = '$3' LIMIT 1"
}
got=$(fact compression=gzip 'zfs space after fio randwrite%' compression_check)
case $got in
"compressratio 3."*"x after sync; buffer_compress_percentage=75 implies 4.00x ("*": within 10%)") ;;
*) fail "gzip randwrite compression_check: $got" ;;
esac
got=$(fact compression=lzjb 'zfs space after fio randread%' flag.compression_mismatch)
case $got in
"compressratio 3."*"x after sync; buffer_compress_percentage=75 implies 4.00x (-"*"%, more than 10% off)") ;;
*) fail "lzjb: no flag.compression_mismatch: $got" ;;
esac

# ---- zpool iostat while fio ran
w=$(q "SELECT value FROM v_result WHERE config='compression=gzip'
       AND test='fio randwrite bs=4k iodepth=1' AND metric='pool_write_bw'")
awk -v w="${w:-0}" 'BEGIN { exit !(w > 0) }' || fail "pool_write_bw of randwrite: '$w'"
n=$(q "SELECT count(DISTINCT metric) FROM v_result WHERE metric IN
       ('pool_read_ops','pool_write_ops','pool_read_bw','pool_write_bw')")
[ "$n" = 4 ] || fail "pool metrics: $n of 4"
got=$(fact compression=gzip 'fio randwrite%' "zpool_iostat.$base/d0.img")
case $got in "read "*" ops/s "*", write "*" ops/s "*) ;; *) fail "per-vdev fact: '$got'" ;; esac
[ -s "$out/raw/c002.iostat.txt" ] || fail "no raw zpool iostat output"

# ---- caches: absent sources recorded as absent; working set flagged
if [ ! -e /proc/spl/kstat/zfs/arcstats ]; then
    got=$(q "SELECT value FROM fact WHERE key='arcstats' LIMIT 1")
    case $got in "absent ("*) ;; *) fail "arcstats fact: '$got'" ;; esac
    got=$(q "SELECT value FROM fact WHERE key='zfs_txg_timeout' LIMIT 1")
    case $got in "absent ("*) ;; *) fail "zfs_txg_timeout fact: '$got'" ;; esac
fi
got=$(fact compression=gzip 'fio randread%' flag.fits_in_cache)
case $got in "working set 16 MiB (size 16m x numjobs 1) fits in the cache: "*) ;;
*) fail "flag.fits_in_cache: '$got'" ;; esac

# ---- ashift: what zdb -C says, never 0
want=$(grep -c '' /dev/null) # 0
got=$(q "SELECT DISTINCT p.value FROM config_param p JOIN config c ON c.id = p.config_id
         WHERE c.label LIKE 'compression=%' AND p.key = 'ashift'")
[ -n "$got" ] && [ "$got" != "$want" ] || fail "ashift stored as '$got'"

# ---- the report: Experiment section with working links
idx=$out/report/index.html
grep -q '<section id="experiment">' "$idx" || fail "no Experiment section"
grep -q 'buffer_compress_percentage=75 refill_buffers=1' "$idx" ||
    fail "the fio options are not in the report"
for l in $(grep -o 'href="\.\./[^"]*"' "$idx" | sed 's/^href="//; s/"$//' | sort -u); do
    [ -e "$out/report/$l" ] || fail "broken link $l"
done
grep -q 'href="\.\./commands\.log"' "$idx" || fail "no link to commands.log"
grep -q 'href="\.\./plan\.ini"' "$idx" || fail "no link to the plan"
grep -q 'href="\.\./raw/c003\.zfs\.txt"' "$idx" || fail "no link to a raw file"
grep -q '▲ mismatch' "$idx" || fail "compression table shows no mismatch"

[ $fails -eq 0 ] || exit 1
echo ok
