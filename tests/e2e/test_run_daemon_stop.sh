#!/bin/sh
# e2e (root, zfs-fuse only): the ZFS daemon killed (SIGKILL) while cell 2's
# fio runs. The run must record cell 2 as failed with the reason, keep
# cell 1, stop with exit 3 and print the exact `poolbench run --cleanup`
# command; a cleanup while ZFS is down touches nothing (exit 3); after the
# daemon is restarted, --resume is refused until the cleanup ran, the
# cleanup destroys the run's pool (not a foreign one) and removes its
# sparse files, and --resume then runs the cells not stored.
# It kills the shared daemon: registered RUN_SERIAL, and it always starts
# zfs-fuse again. Never on OpenZFS (that would be a kernel module).
# usage: test_run_daemon_stop.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, zfs-fuse, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
if [ -e /sys/module/zfs ]; then
    echo "skip: OpenZFS is loaded; this test kills the ZFS daemon (zfs-fuse only)"
    exit 77
fi
command -v zfs-fuse >/dev/null 2>&1 || { echo "skip: no zfs-fuse"; exit 77; }
. "$(dirname "$0")/zfs_env.sh"
[ "$(pgrep -x zfs-fuse | wc -l)" = 1 ] ||
    { echo "skip: ZFS answers, but not from one zfs-fuse daemon"; exit 77; }

base=$(mktemp -d /var/tmp/pb-e2e-dmn.XXXXXX)
pool=pbe2ed$$
other=pbe2edx$$
out=$base/out db=$base/r.db
run=

has_pool() { timeout 30 zpool list -H -o name 2>/dev/null | grep -qx "$1"; }
cleanup() {
    [ -n "$run" ] && kill -TERM "$run" 2>/dev/null && wait "$run" 2>/dev/null
    zfs_up || echo "left: zfs-fuse does not answer after a restart"
    for p in "$pool" "$other"; do
        if has_pool "$p"; then
            timeout 120 zpool destroy "$p" || echo "left: pool $p"
        fi
    done
    # mounts of the killed daemon that nothing unmounted (deepest first)
    awk -v b="$base/" 'index($2, b) == 1 { print $2 }' /proc/mounts |
        sort -r | while read -r m; do umount -l "$m" || echo "left: mount $m"; done
    rm -rf "$base"
}
trap cleanup EXIT
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<EOP
[plan]
name = e2e-daemon
pool = $pool
vdevs = file:$base/d0.img:256M file:$base/d1.img:256M
[dataset]
recordsize = 8k, 32k, 128k
[fio]
rw = randread
bs = 4k
size = 8m
runtime = 5
time_based = 1
EOP

# ---- 1. the daemon dies while cell 2's fio runs
"$pb" run --db "$db" -o "$out" "$base/plan.ini" >"$base/run.out" 2>"$base/run.err" &
run=$!
p=
for _ in $(seq 1 300); do
    p=$(pgrep -f "output=$out/raw/c002.fio.json")
    [ -n "$p" ] && break
    kill -0 "$run" 2>/dev/null || break
    sleep 0.2
done
[ -n "$p" ] || { fail "fio of cell 2 never started: $(tail -3 "$base/run.err")"; exit 1; }
sleep 1
zpid=$(pgrep -x zfs-fuse)
kill -9 $zpid
while kill -0 $zpid 2>/dev/null; do sleep 0.1; done
timeout 600 sh -c "while kill -0 $run 2>/dev/null; do sleep 0.2; done"
wait $run
rc=$?
run=
[ $rc -eq 3 ] || fail "exit $rc after the daemon died, want 3: $(tail -3 "$base/run.err")"
grep -q "ZFS stopped answering (.*) in cell 2/3: the run stopped; that cell is recorded as failed, cells finished and kept: 1; pool '$pool' and its vdev files are left" "$base/run.err" ||
    fail "no clear message about the daemon: $(cat "$base/run.err")"
id=$(awk -F'\t' '$1 == "run" { print $2 }' "$out/manifest.tsv")
[ -n "$id" ] || fail "no run record in $out/manifest.tsv"
grep -qx "    poolbench run --cleanup $id -o $out" "$base/run.err" ||
    fail "the message does not name the cleanup command: $(cat "$base/run.err")"
grep -qx "    poolbench run --resume --db $db -o $out $base/plan.ini" "$base/run.err" ||
    fail "the message does not name the resume command"

# the database: cell 1 stored, cell 2 failed with the reason, cell 3 absent
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "database damaged"
n=$(q "SELECT group_concat(path) FROM source WHERE format = 'fio-json'")
[ "$n" = "$out/raw/c001.fio.json" ] || fail "fio sources: '$n', want cell 1 only"
n=$(q "SELECT count(*) FROM v_result WHERE config = 'recordsize=8k' AND metric = 'read_iops' AND value > 0")
[ "$n" = 1 ] || fail "cell 1 not kept ($n read_iops)"
why=$(q "SELECT (SELECT text FROM reason WHERE id = r.reason_id) FROM result r JOIN metric m ON m.id = r.metric_id
         JOIN config c ON c.id = r.config_id
         WHERE m.name = 'cell_skipped' AND c.label = 'recordsize=32k'")
case $why in
"fio failed: "*"(ZFS stopped answering: "*")") ;;
*) fail "cell 2 not recorded as failed with the reason: '$why'" ;;
esac
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'cell_skipped'")
[ "$n" = 1 ] || fail "$n cells recorded as skipped, want 1 (cell 2)"
n=$(q "SELECT count(*) FROM v_result WHERE config = 'recordsize=128k'")
[ "$n" = 0 ] || fail "cell 3 has $n results, but the run stopped before it"
# what the run could not remove is still there for the cleanup
for f in d0 d1; do
    [ -f "$base/$f.img" ] || fail "$f.img gone although ZFS could not be asked"
    grep -q "^file	$id	.*	$base/$f.img\$" "$out/manifest.tsv" ||
        fail "$f.img not in the manifest"
done

# ---- 2. a cleanup while ZFS is down touches nothing
timeout 120 "$pb" run --cleanup "$id" -o "$out" >"$base/c0.out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "cleanup without ZFS: exit $rc, want 3"
grep -q "ZFS does not answer .*nothing was touched" "$base/c0.out" ||
    fail "cleanup without ZFS: $(cat "$base/c0.out")"
[ -f "$base/d0.img" ] || fail "cleanup without ZFS removed a file"

# ---- 3. the daemon back: its pool comes back from zpool.cache
zfs_up || { fail "zfs-fuse does not answer after a restart"; exit 1; }
if has_pool "$pool"; then
    mark=$(timeout 30 zfs get -H -o value poolbench:owner "$pool")
    [ "$mark" = "$id" ] || fail "pool $pool is back with mark '$mark', want '$id'"
else
    echo "note: pool $pool was not imported again by zfs-fuse (the cleanup imports it)"
fi
# a resume before the cleanup is refused and says what to do
timeout 120 "$pb" run --db "$db" -o "$out" --resume "$base/plan.ini" >/dev/null 2>"$base/r0.err"
rc=$?
[ $rc -eq 2 ] || fail "resume before cleanup: exit $rc, want 2"
grep -q "is left from run $id; .*poolbench run --cleanup $id -o $out" "$base/r0.err" ||
    fail "resume before cleanup: $(cat "$base/r0.err")"

# a foreign pool, also marked by poolbench, must survive the cleanup
truncate -s 64M "$base/x0.img"
timeout 60 zpool create -O poolbench:owner=not-$id -m none "$other" "$base/x0.img" ||
    fail "cannot create the foreign pool"

# ---- 4. the cleanup: dry run first (runs nothing), then for real
timeout 120 "$pb" run --cleanup --dry-run "$id" -o "$out" >"$base/c1.out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "dry-run cleanup: exit $rc: $(cat "$base/c1.out")"
for l in "zfs get -H -o value poolbench:owner $pool" "zpool destroy $pool" \
         "rm -f $base/d0.img" "rm -f $base/d1.img"; do
    grep -qx "$l" "$base/c1.out" || fail "dry-run cleanup does not list '$l'"
done
grep -q "$other" "$base/c1.out" && fail "dry-run cleanup names the foreign pool"
[ -f "$base/d0.img" ] || fail "dry-run cleanup removed a file"

timeout 300 "$pb" run --cleanup "$id" -o "$out" >"$base/c2.out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "cleanup: exit $rc: $(cat "$base/c2.out")"
grep -qx "destroyed pool '$pool' (poolbench:owner=$id)" "$base/c2.out" ||
    fail "cleanup did not say it destroyed $pool: $(cat "$base/c2.out")"
grep -qx "removed sparse file $base/d0.img" "$base/c2.out" ||
    fail "cleanup did not say it removed d0.img"
grep -qx "run $id: cleaned up" "$base/c2.out" || fail "cleanup: no final line"
left=$(timeout 30 zfs get -H -o name,value -s local poolbench:owner | awk -F'\t' -v id="$id" '$2 == id')
[ -z "$left" ] || fail "pools with poolbench:owner=$id after the cleanup: $left"
has_pool "$pool" && fail "pool $pool still exists after the cleanup"
for f in d0 d1; do
    [ -e "$base/$f.img" ] && fail "$f.img still exists after the cleanup"
done
has_pool "$other" || fail "the cleanup destroyed the foreign pool $other"
[ -f "$base/x0.img" ] || fail "the cleanup removed the foreign pool's file"
awk -v b="$out/" 'index($2, b) == 1' /proc/mounts | grep -q . &&
    fail "mounts left under $out: $(awk -v b="$out/" 'index($2, b) == 1 { print $2 }' /proc/mounts)"
grep -q "^destroyed	$id	$pool\$" "$out/manifest.tsv" || fail "manifest: no destroyed record"
grep -q "^gone	$id	$base/d1.img\$" "$out/manifest.tsv" || fail "manifest: no gone record"
# again: nothing left, still success
timeout 120 "$pb" run --cleanup "$id" -o "$out" >"$base/c3.out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "second cleanup: exit $rc"
grep -q "^run $id: nothing was left" "$base/c3.out" || fail "second cleanup: $(cat "$base/c3.out")"
timeout 120 zpool destroy "$other" || fail "cannot destroy the foreign pool"

# ---- 5. --resume goes on with cells 2 and 3
timeout 600 "$pb" run --db "$db" -o "$out" --resume "$base/plan.ini" >/dev/null 2>"$base/r1.err"
rc=$?
[ $rc -eq 0 ] || fail "resume after cleanup: exit $rc: $(tail -3 "$base/r1.err")"
grep -q "3 cells: 2 ran, 0 skipped, 1 already in the database" "$base/r1.err" ||
    fail "resume summary: $(grep plan "$base/r1.err")"
n=$(q "SELECT count(DISTINCT path) FROM source WHERE format = 'fio-json'")
[ "$n" = 3 ] || fail "$n fio sources after resume, want 3"
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'read_iops' AND value > 0")
[ "$n" = 3 ] || fail "$n cells with read_iops after resume, want 3"
has_pool "$pool" && fail "pool $pool still exists after the resume"
[ -e "$base/d0.img" ] && fail "d0.img left after the resume"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "daemon stop checks passed"
