#!/bin/sh
# e2e (root, real ZFS, losetup): loop devices. A plan with a loop:PATH:SIZE
# data vdev and a file cache vdev runs (the cache goes through a loop
# device by itself where the ZFS refuses files there; the pool survives
# the export/import of the cache drop), and the loop devices are detached
# and their files removed at the end. A run killed with SIGKILL leaves
# its pool and loop devices; `run --cleanup RUNID -o DIR` detaches and
# removes them from the manifest's records.
# usage: test_run_loop.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3, losetup or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"
command -v losetup >/dev/null 2>&1 || { echo "skip: no losetup"; exit 77; }
losetup -f >/dev/null 2>&1 || { echo "skip: no free loop device"; exit 77; }

e2e_scaffold lop
pool=pbrnalop$$
loops_left() { losetup -a 2>/dev/null | grep "$base/"; }
# a failed check may leave loop devices: detach them after the scaffold's
# cleanup destroyed the pool
trap 'e2e_cleanup; for d in $(losetup -a 2>/dev/null | grep "$base/" | cut -d: -f1); do losetup -d "$d"; done' EXIT
plan() { # FILE RUNTIME
    cat >"$1" <<EOP
[plan]
name = e2e-loop
pool = $pool
vdevs = loop:$base/d0.img:128M
cache_vdevs = file:$base/c0.img:64M
[pool]
cache = on
[dataset]
recordsize = 8k, 128k
[fio]
rw = randread
bs = 4k
size = 4m
runtime = $2
time_based = 1
EOP
}

# ---- 1. a whole run
plan "$base/run.ini" 1
out=$base/out
timeout 300 "$pb" run --db "$base/r.db" -o "$out" "$base/run.ini" >/dev/null 2>"$base/r.err"
rc=$?
[ $rc -eq 0 ] || fail "run: exit $rc: $(tail -3 "$base/r.err")"
grep -q "2 cells: 2 ran, 0 skipped" "$base/r.err" || fail "run: summary: $(grep "plan '" "$base/r.err")"
grep -q "^losetup --find --show $base/d0.img  # exit 0" "$out/commands.log" ||
    fail "run: no loop device for the data vdev"
grep -q "^zpool create .* $pool /dev/loop[0-9]* cache " "$out/commands.log" ||
    fail "run: the pool is not made on the loop device"
grep -q "^zpool import -d $out/import $pool  # exit 0" "$out/commands.log" ||
    fail "run: the pool was not imported from the links to its own loop devices after the cache drop"
[ -e "$out/import" ] && fail "run: the folder of links to the loop devices is left: $(ls -la "$out/import")"
if ! zfs get 2>&1 | grep -q "^[[:space:]]*sync[[:space:]]"; then
    grep -q "^losetup --find --show $base/c0.img  # exit 0" "$out/commands.log" ||
        fail "run: zfs-fuse's cache vdev is not on a loop device"
fi
n=$(grep -c "^losetup -d /dev/loop[0-9]*  # exit 0" "$out/commands.log")
a=$(grep -c "^loop	" "$out/manifest.tsv")
[ "$n" = "$a" ] && [ "$n" -ge 1 ] || fail "run: $a loop devices attached, $n detached"
[ -n "$(loops_left)" ] && fail "run: loop devices left: $(loops_left)"
ls "$base"/*.img >/dev/null 2>&1 && fail "run: sparse files left"
zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "run: pool left"

# ---- 2. SIGKILL in the middle, then --cleanup
plan "$base/kill.ini" 30
out=$base/kout
"$pb" run --db "$base/k.db" -o "$out" "$base/kill.ini" >/dev/null 2>"$base/k.err" &
run=$!
p=
for _ in $(seq 1 300); do
    p=$(pgrep -f "output=$out/raw/c001.fio.json")
    [ -n "$p" ] && break
    sleep 0.2
done
[ -n "$p" ] || fail "kill: fio never started: $(tail -3 "$base/k.err")"
kill -9 "$run"
wait "$run" 2>/dev/null
run=
[ -n "$p" ] && kill -9 $p 2>/dev/null
sleep 1
[ -n "$(loops_left)" ] || fail "kill: no loop device left to clean up"
id=$(sed -n 's/^run	\([^	]*\)	.*/\1/p' "$out/manifest.tsv" | head -1)
timeout 300 "$pb" run --cleanup "$id" -o "$out" >"$base/c.out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "cleanup: exit $rc: $(cat "$base/c.out")"
grep -q "^destroyed pool '$pool' (poolbench:owner=$id)$" "$base/c.out" ||
    fail "cleanup: pool not destroyed: $(cat "$base/c.out")"
grep -q "^detached loop device /dev/loop[0-9]* ($base/d0.img)$" "$base/c.out" ||
    fail "cleanup: data loop device not detached: $(cat "$base/c.out")"
grep -q "^run $id: cleaned up$" "$base/c.out" || fail "cleanup: $(tail -1 "$base/c.out")"
[ -n "$(loops_left)" ] && fail "cleanup: loop devices left: $(loops_left)"
ls "$base"/*.img >/dev/null 2>&1 && fail "cleanup: sparse files left"
zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "cleanup: pool left"
# a second cleanup finds nothing
timeout 120 "$pb" run --cleanup "$id" -o "$out" >"$base/c2.out" 2>&1 ||
    fail "second cleanup: exit $?: $(cat "$base/c2.out")"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "loop device checks passed"
