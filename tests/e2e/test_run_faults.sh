#!/bin/sh
# e2e (root, real ZFS): faults in `poolbench run`. A vdev too small for ZFS
# is refused before anything is created (exit 2, path:line); fio killed in
# the middle of a cell makes that cell a recorded failure ("fio failed:
# killed by signal 9") while the next cell still runs, and no pool or
# sparse file is left.
# usage: test_run_faults.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold flt

# ---- 1. a vdev below ZFS's 64 MiB minimum: refused up front
cat >"$base/small.ini" <<EOP
[plan]
name = small
pool = $pool
vdevs = file:$base/small.img:16M
[dataset]
recordsize = 8k
[fio]
rw = randread
size = 4m
runtime = 1
time_based = 1
EOP
"$pb" run --db "$base/s.db" -o "$base/small" "$base/small.ini" >/dev/null 2>"$base/small.err"
rc=$?
[ $rc -eq 2 ] || fail "too-small vdev: exit $rc, want 2"
grep -q "small.ini:4: .*smaller than 64M" "$base/small.err" ||
    fail "too-small vdev message: $(cat "$base/small.err")"
[ -e "$base/small.img" ] && fail "too-small vdev: sparse file created"
zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "too-small vdev: pool created"

# ---- 2. fio killed with SIGKILL in the middle of cell 1
cat >"$base/kill.ini" <<EOP
[plan]
name = killfio
pool = $pool
vdevs = file:$base/k0.img:256M
[dataset]
recordsize = 8k, 128k
[fio]
rw = randread
bs = 4k
size = 8m
runtime = 4
time_based = 1
EOP
out="$base/kout"
"$pb" run --db "$base/k.db" -o "$out" "$base/kill.ini" >"$base/k.out" 2>&1 &
run=$!
p=
for _ in $(seq 1 200); do
    p=$(pgrep -f "output=$out/raw/c001.fio.json")
    [ -n "$p" ] && break
    sleep 0.2
done
if [ -z "$p" ]; then
    fail "fio of cell 1 never started: $(tail -3 "$base/k.out")"
else
    sleep 1
    kill -9 $p
fi
wait $run
rc=$?
run=
[ $rc -eq 1 ] || fail "run after a killed fio: exit $rc, want 1 (a cell failed): $(tail -3 "$base/k.out")"
tail -1 "$base/k.out" | grep -q "^poolbench: [12] of 2 cells failed (why: $out/commands.log and the report)$" ||
    fail "run after a killed fio: last line: $(tail -1 "$base/k.out")"
q() { sqlite3 "$base/k.db" "$1"; }
why=$(q "SELECT (SELECT text FROM reason WHERE id = r.reason_id) FROM result r JOIN metric m ON m.id = r.metric_id
         WHERE m.name = 'cell_skipped'")
case $why in
*"fio failed"*"signal 9"*) ;;
*) fail "killed cell not recorded as failed: '$why'" ;;
esac
# The run goes on to cell 2. On a loaded machine zfs-fuse may still hold
# the killed fio's dataset busy, and cell 2 is then recorded as skipped with
# its reason: either way it must be accounted for, never silently lost.
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'read_iops' AND value > 0")
s=$(q "SELECT count(*) FROM result r JOIN metric m ON m.id = r.metric_id
       WHERE m.name = 'cell_skipped' AND (SELECT text FROM reason WHERE id = r.reason_id) <> ''")
[ "$n" = 1 ] || [ "$s" = 2 ] ||
    fail "cell 2 neither ran nor was recorded ($n read_iops, $s skipped): $(grep -e skipped -e failed "$base/k.out" | head -3)"
[ "$n" = 1 ] || echo "note: cell 2 was recorded as skipped: $(grep skipped "$base/k.out" | tail -1)"
zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "pool left after the run"
ls "$base"/k0.img >/dev/null 2>&1 && fail "sparse file left after the run"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "run fault checks passed"
