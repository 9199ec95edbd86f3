#!/bin/sh
# e2e (root, zfs-fuse only): a pool whose I/O suspends during a cell (the
# file system under its vdev file fills up while fio writes). zfs-fuse
# does not say so (`zpool status` shows ONLINE) and blocks fio's writes
# for ever; the run must notice (a full vdev file system and no I/O by
# fio for 10 s), record the cell as failed with the reason, account for
# every cell ("1 not run"), exit 3 and print advice that works on
# zfs-fuse. The test then follows that advice word for word: kill the
# daemon, unmount its mounts, make room, start zfs-fuse, run the printed
# `poolbench run --cleanup`: the pool and its vdev file are gone.
# It kills the shared daemon: registered RUN_SERIAL, and it always starts
# zfs-fuse again. Never on OpenZFS.
# usage: test_run_suspend.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, zfs-fuse, fio, sqlite3, tmpfs mounts or a
# usable zpool.
set -u
pb=$1

if [ -e /sys/module/zfs ]; then
    echo "skip: OpenZFS is loaded; this test kills the ZFS daemon (zfs-fuse only)"
    exit 77
fi
command -v zfs-fuse >/dev/null 2>&1 || { echo "skip: no zfs-fuse"; exit 77; }
command -v fusermount >/dev/null 2>&1 || { echo "skip: no fusermount"; exit 77; }
. "$(dirname "$0")/zfs_env.sh"
[ "$(pgrep -x zfs-fuse | wc -l)" = 1 ] ||
    { echo "skip: ZFS answers, but not from one zfs-fuse daemon"; exit 77; }

base=$(mktemp -d /var/tmp/pb-e2e-sus.XXXXXX)
pool=pbe2es$$
out=$base/out db=$base/r.db vd=$base/vd
run= filler=
mount -t tmpfs -o size=300M tmpfs "$vd" 2>/dev/null ||
    { mkdir -p "$vd" && mount -t tmpfs -o size=300M tmpfs "$vd"; } ||
    { rm -rf "$base"; echo "skip: cannot mount a tmpfs"; exit 77; }

zfs_up() {
    timeout 10 zpool list >/dev/null 2>&1 && return 0
    pgrep -x zfs-fuse >/dev/null || zfs-fuse
    for _ in $(seq 1 150); do
        timeout 5 zpool list >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
has_pool() { timeout 30 zpool list -H -o name 2>/dev/null | grep -qx "$1"; }
# the daemon's mounts: the pool's, and those of a killed daemon
fuse_mounts() { awk '$3 == "fuse.zfs" { print $2 }' /proc/mounts | sort -r; }
cleanup() {
    [ -n "$filler" ] && kill "$filler" 2>/dev/null
    [ -n "$run" ] && kill -TERM "$run" 2>/dev/null && wait "$run" 2>/dev/null
    if [ -n "$(pgrep -f "directory=$out/mnt/pb")" ]; then
        # fio still blocked on the suspended pool: the daemon must go
        pkill -KILL -x zfs-fuse
        sleep 1
        fuse_mounts | while read -r m; do fusermount -uz "$m"; done
        rm -f "$vd/filler"
    fi
    zfs_up || echo "left: zfs-fuse does not answer after a restart"
    if has_pool "$pool"; then
        timeout 120 zpool destroy "$pool" || echo "left: pool $pool"
    fi
    awk -v b="$base/" 'index($2, b) == 1 { print $2 }' /proc/mounts |
        sort -r | while read -r m; do umount -l "$m" || echo "left: mount $m"; done
    rm -rf "$base"
}
trap cleanup EXIT
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<EOP
[plan]
name = e2e-suspend
pool = $pool
vdevs = file:$vd/d0.img:256M
[dataset]
recordsize = 128k
compression = off
[fio]
rw = write, read
bs = 1m
size = 90m
EOP

# Once the cell's dataset is mounted, fill the vdev file's file system
# but for ~8 MB: ZFS cannot write fio's 90 MB to it.
(
    for _ in $(seq 1 600); do
        grep -q " $out/mnt/pb fuse.zfs " /proc/mounts && break
        sleep 0.1
    done
    free=$(df -k --output=avail "$vd" | tail -1)
    dd if=/dev/zero of="$vd/filler" bs=1k count=$((free - 4096)) 2>/dev/null
) &
filler=$!

# ---- 1. the run notices, fails the cell, accounts for the other
t0=$(date +%s)
timeout 400 "$pb" run --db "$db" -o "$out" "$base/plan.ini" >"$base/run.out" 2>"$base/run.err" &
run=$!
wait $run
rc=$?
run=
wait $filler 2>/dev/null
filler=
secs=$(($(date +%s) - t0))
cat "$base/run.err"
[ $rc -eq 3 ] || fail "exit $rc with a suspended pool, want 3"
[ $secs -lt 300 ] || fail "the run took $secs s to notice the suspended pool"
grep -q "poolbench: plan 'e2e-suspend': 2 cells: 0 ran, 1 skipped (1 failed), 0 already in the database, 1 not run;" "$base/run.err" ||
    fail "the summary does not account for both cells"
grep -q "pool '$pool' has suspended its I/O" "$base/run.err" ||
    fail "no word of the suspended pool"
id=$(awk -F'\t' '$1 == "run" { print $2 }' "$out/manifest.tsv")
[ -n "$id" ] || fail "no run record in $out/manifest.tsv"
grep -q "pkill -KILL -x zfs-fuse" "$base/run.err" || fail "advice: how to stop zfs-fuse"
grep -q "fusermount -uz MOUNTPOINT" "$base/run.err" || fail "advice: the stale mounts"
cmd=$(sed -n "s/.*then run '\(poolbench run --cleanup $id -o [^']*\)'.*/\1/p" "$base/run.err")
[ "$cmd" = "poolbench run --cleanup $id -o $out" ] ||
    fail "advice: the cleanup command is '$cmd'"
why=$(q "SELECT (SELECT text FROM reason WHERE id = r.reason_id) FROM result r JOIN metric m ON m.id = r.metric_id
         WHERE m.name = 'cell_skipped'")
case $why in
*"the pool's I/O is suspended: the file system of vdev file $vd/d0.img is full"*) ;;
*) fail "cell 1 not recorded with the reason: '$why'" ;;
esac
[ "$(q "SELECT count(*) FROM v_result WHERE metric = 'cell_skipped'")" = 1 ] ||
    fail "want exactly one failure record"
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "database damaged"
[ -f "$vd/d0.img" ] || fail "the vdev file of a suspended pool was removed"

# ---- 2. the advice, word for word
pkill -KILL -x zfs-fuse
for _ in $(seq 1 50); do pgrep -x zfs-fuse >/dev/null || break; sleep 0.1; done
fuse_mounts | while read -r m; do fusermount -uz "$m" || fail "fusermount -uz $m"; done
rm -f "$vd/filler"
zfs-fuse
zfs_up || { fail "zfs-fuse does not answer after a restart"; exit 1; }
has_pool "$pool" || fail "pool $pool did not come back"
st=$(timeout 30 zpool list -H -o health "$pool")
[ "$st" = ONLINE ] || fail "pool $pool came back $st"
for _ in $(seq 1 50); do
    [ -z "$(pgrep -f "directory=$out/mnt/pb")" ] && break
    sleep 0.1
done
[ -z "$(pgrep -f "directory=$out/mnt/pb")" ] || fail "fio still running after the daemon was stopped"
(cd "$base" && timeout 300 "$pb" ${cmd#poolbench } >"$base/c.out" 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "cleanup: exit $rc: $(cat "$base/c.out")"
grep -qx "destroyed pool '$pool' (poolbench:owner=$id)" "$base/c.out" ||
    fail "cleanup: $(cat "$base/c.out")"
has_pool "$pool" && fail "pool $pool still exists after the cleanup"
[ -e "$vd/d0.img" ] && fail "d0.img still exists after the cleanup"
exit $((fails > 0))
