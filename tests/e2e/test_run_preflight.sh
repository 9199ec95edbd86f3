#!/bin/sh
# e2e (root, real ZFS): the preflight and the exit status of `poolbench
# run`. A plan asking `sync=disabled` of a ZFS without the property is
# refused in under a second at its line (exit 2), nothing created
# (sync=always runs there with fio sync=1 in its place: test_run_examples); so is a
# plan whose cells cannot fit their pool, naming the cell and the figures.
# A zpool that hangs is killed after --zfs-timeout, its cell fails with the
# reason, and the pool and sparse files still go. A run with a failed cell
# exits 1, its last line counting the failed cells; --on-failure stop on
# the command line stops it at that cell. A pool that gets nearly full
# while fio runs stops fio and fails the cell with the reason.
# usage: test_run_preflight.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold pre
pool=pbrnapre$$ # this test's pools: pbrna...
nothing_made() { # WHAT OUTDIR
    [ -e "$2" ] && fail "$1: $2 created"
    ls "$base"/*.img >/dev/null 2>&1 && fail "$1: a sparse file created"
    zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "$1: pool created"
}
nothing_left() { # WHAT
    zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "$1: pool $pool left"
    ls "$base"/*.img >/dev/null 2>&1 && fail "$1: sparse file left"
}
plan() { # FILE PLAN-LINES DATASET-LINES FIO-SIZE VDEV-SIZE
    cat >"$1" <<EOP
[plan]
name = e2e-pre
pool = $pool
$2
vdevs = file:$base/d0.img:$5
[dataset]
$3
[fio]
rw = randread
bs = 4k
size = $4
runtime = 1
time_based = 1
EOP
}

# ---- 1. sync=disabled where the ZFS has no `sync` property
if ! zfs get 2>&1 | grep -q "^[[:space:]]*sync[[:space:]]"; then
    plan "$base/sync.ini" "" "recordsize = 8k
sync = disabled" 4m 128M
    t0=$(date +%s%N)
    "$pb" run --db "$base/s.db" -o "$base/sout" "$base/sync.ini" >/dev/null 2>"$base/s.err"
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ $rc -eq 2 ] || fail "sync=disabled: exit $rc, want 2"
    [ $ms -lt 1000 ] || fail "sync=disabled: refused after $ms ms, want < 1 s"
    grep -qx "poolbench: $base/sync.ini:8: sync=disabled: zfs-fuse (pool version [0-9]*) has no property 'sync' (or \[plan\] on_unsupported = skip)" "$base/s.err" ||
        fail "sync=disabled: message: $(cat "$base/s.err")"
    nothing_made "sync=disabled" "$base/sout"
    echo "sync=disabled refused in $ms ms"
else
    echo "note: this ZFS has a sync property; the refusal is not checked"
fi

# ---- 2. a cell that cannot fit its pool
plan "$base/big.ini" "" "recordsize = 128k" 200m 128M
"$pb" run --db "$base/b.db" -o "$base/bout" "$base/big.ini" >/dev/null 2>"$base/b.err"
rc=$?
[ $rc -eq 2 ] || fail "too big: exit $rc, want 2"
grep -qx "poolbench: $base/big.ini:5: cell 1/1 does not fit its pool: 200M of data x 1.00 (ashift=12, recordsize=128k) + metadata = about 236M; the pool holds about 60M: larger vdevs or a smaller fio size (e2e-pre | fio randread bs=4k iodepth=1)" "$base/b.err" ||
    fail "too big: message: $(cat "$base/b.err")"
nothing_made "too big" "$base/bout"

# ---- 3. a zpool that hangs on `zpool get all POOL`: killed, cell failed
mkdir "$base/fake"
real=$(command -v zpool)
cat >"$base/fake/zpool" <<EOS
#!/bin/sh
[ "\$1 \$2" = "get all" ] && exec sleep 1$$
exec $real "\$@"
EOS
chmod 755 "$base/fake/zpool"
plan "$base/hang.ini" "" "recordsize = 8k" 4m 128M
t0=$(date +%s)
PATH="$base/fake:$PATH" timeout 300 "$pb" run --zfs-timeout 1 --db "$base/h.db" -o "$base/hout" "$base/hang.ini" >/dev/null 2>"$base/h.err"
rc=$?
secs=$(( $(date +%s) - t0 ))
[ $rc -eq 1 ] || fail "hung zpool: exit $rc, want 1: $(tail -3 "$base/h.err")"
[ $secs -lt 60 ] || fail "hung zpool: the run took $secs s"
grep -q "^cell 1/1 e2e-pre fio randread bs=4k iodepth=1 failed: 'zpool get all' did not finish in 1 s and was killed$" "$base/h.err" ||
    fail "hung zpool: no failure line: $(cat "$base/h.err")"
[ "$(tail -1 "$base/h.err")" = "poolbench: 1 of 1 cells failed (why: $base/hout/commands.log and the report)" ] ||
    fail "hung zpool: last line: $(tail -1 "$base/h.err")"
grep -q "^zpool get all $pool  # exit 137, .*did not finish in 1 s and was killed" "$base/hout/commands.log" ||
    fail "hung zpool: commands.log does not show the kill"
grep -q "^zpool destroy $pool  # exit 0" "$base/hout/commands.log" ||
    fail "hung zpool: the pool was not destroyed after the failure"
pgrep -xf "sleep 1$$" >/dev/null && fail "hung zpool: the fake zpool's sleep is left"
nothing_left "hung zpool"

# ---- 4. --on-failure stop on the command line (the plan says nothing)
plan "$base/stop.ini" "" "reservation = none, 10G, 1m" 4m 128M
timeout 300 "$pb" run --on-failure stop --db "$base/o.db" -o "$base/oout" "$base/stop.ini" >/dev/null 2>"$base/o.err"
rc=$?
[ $rc -eq 1 ] || fail "--on-failure stop: exit $rc, want 1: $(tail -3 "$base/o.err")"
grep -q "^poolbench: the run stopped at cell 2/3, which failed" "$base/o.err" ||
    fail "--on-failure stop: did not stop: $(cat "$base/o.err")"
grep -q "3 cells: 1 ran, 1 skipped (1 failed)" "$base/o.err" ||
    fail "--on-failure stop: summary: $(grep "plan '" "$base/o.err")"
grep -q "on_failure = stop$" "$base/oout/commands.log" ||
    fail "--on-failure stop: commands.log does not say stop"
[ "$(tail -1 "$base/o.err")" = "poolbench: 1 of 3 cells failed (why: $base/oout/commands.log and the report)" ] ||
    fail "--on-failure stop: last line: $(tail -1 "$base/o.err")"
nothing_left "--on-failure stop"
# and continue overrides a plan's stop
plan "$base/cont.ini" "on_failure = stop" "reservation = none, 10G, 1m" 4m 128M
timeout 300 "$pb" run --on-failure continue --db "$base/c.db" -o "$base/cout" "$base/cont.ini" >/dev/null 2>"$base/c.err"
rc=$?
[ $rc -eq 1 ] || fail "--on-failure continue: exit $rc, want 1"
grep -q "3 cells: 2 ran, 1 skipped (1 failed)" "$base/c.err" ||
    fail "--on-failure continue: summary: $(grep "plan '" "$base/c.err")"
nothing_left "--on-failure continue"

# ---- 5. the pool nearly full while fio runs: fio stopped, cell failed
# (something else fills the pool: a file written into its root, leaving
# 5 MiB, less than the 8 MiB the run keeps free; never to ENOSPC, which
# zfs-fuse may not survive)
plan "$base/full.ini" "" "recordsize = 128k" 4m 128M
sed -i 's/^runtime = 1$/runtime = 30/' "$base/full.ini"
out=$base/fout
"$pb" run --db "$base/f.db" -o "$out" "$base/full.ini" >/dev/null 2>"$base/f.err" &
run=$!
p=
for _ in $(seq 1 300); do
    p=$(pgrep -f "output=$out/raw/c001.fio.json")
    [ -n "$p" ] && break
    sleep 0.2
done
if [ -z "$p" ]; then
    fail "pool full: fio never started: $(tail -3 "$base/f.err")"
else
    avail=$(zfs get -Hp -o value available "$pool")
    mb=$(( avail / 1048576 - 5 ))
    dd if=/dev/zero of="$out/mnt/filler" bs=1M count=$mb 2>/dev/null
    sync
fi
t0=$(date +%s)
timeout 120 sh -c "while kill -0 $run 2>/dev/null; do sleep 0.2; done"
wait $run
rc=$?
run=
[ $rc -eq 1 ] || fail "pool full: exit $rc, want 1: $(tail -3 "$base/f.err")"
[ $(( $(date +%s) - t0 )) -lt 25 ] || fail "pool full: fio was not stopped early"
grep -q "^cell 1/1 e2e-pre fio randread bs=4k iodepth=1 failed: fio failed: pool '$pool' is nearly full ([0-9.]*[KM] of [0-9.]*M free): fio was stopped before ZFS runs out of space; make the vdevs larger or the fio size smaller$" "$base/f.err" ||
    fail "pool full: no failure line: $(grep -v elapsed "$base/f.err")"
nothing_left "pool full"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "preflight checks passed"
