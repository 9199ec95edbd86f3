#!/bin/sh
# e2e (root, real ZFS; RUN_SERIAL, about seven minutes on zfs-fuse): the
# shipped studies run whole at --time-scale 0.05. ashift-recordsize.ini:
# every cell runs (synchronous writes through fio sync=1 where the ZFS has
# no `sync` property, recorded as the fact zfs_sync) and the report shows
# the ashift x recordsize sweep. layouts.ini: every cell runs, the cache
# cells on a loop device where the ZFS refuses a file as a cache device,
# and the report shows the sweep per layout. volblocksize.ini: its
# preflight and dry run here, and where the ZFS has no zvols every cell is
# recorded as skipped with the reason. No pool, loop device or sparse file
# is left. The examples are copied with this test's pool names and vdev
# folder; nothing else of them changes.
# usage: test_run_examples.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3, losetup or a usable zpool.
set -u
pb=$1
src=$2

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"
command -v losetup >/dev/null 2>&1 || { echo "skip: no losetup"; exit 77; }

e2e_scaffold exa
pool=pbrnaex$$
# a failed check may leave loop devices: detach them after the scaffold's
# cleanup destroyed the pool
trap 'e2e_cleanup; for d in $(losetup -a 2>/dev/null | grep "$base/" | cut -d: -f1); do losetup -d "$d"; done' EXIT
fuse=0
zfs get 2>&1 | grep -q "^[[:space:]]*sync[[:space:]]" || fuse=1

example() { # NAME POOL: the example with this test's pool and vdev folder
    sed -e "s/^pool = .*/pool = $2/" -e "s#/var/tmp/poolbench-#$base/#" \
        "$src/examples/$1.ini" >"$base/$1.ini"
}
nothing_left() { # WHAT POOL
    zpool list -H -o name 2>/dev/null | grep -qx "$2" && fail "$1: pool $2 left"
    ls "$base"/*.img >/dev/null 2>&1 && fail "$1: sparse file left: $(ls "$base"/*.img)"
    losetup -a 2>/dev/null | grep -q "$base/" && fail "$1: loop device left: $(losetup -a | grep "$base/")"
}

# ---- 1. ashift x recordsize
pool=${pool}a
example ashift-recordsize "$pool"
db=$base/a.db out=$base/aout
t0=$(date +%s)
timeout 900 "$pb" run --time-scale 0.05 --db "$db" -o "$out" "$base/ashift-recordsize.ini" >/dev/null 2>"$base/a.err"
rc=$?
echo "ashift-recordsize: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "ashift: exit $rc: $(tail -3 "$base/a.err")"
grep -q "plan 'ashift-recordsize': 12 cells: 12 ran, 0 skipped, 0 already in the database" "$base/a.err" ||
    fail "ashift: summary: $(grep "plan '" "$base/a.err")"
q() { sqlite3 "$db" "$1"; }
n=$(q "SELECT count(DISTINCT config) FROM v_result WHERE metric = 'write_iops' AND value > 0")
[ "$n" = 12 ] || fail "ashift: $n configs with write_iops, want 12"
n=$(q "SELECT count(*) FROM config_param p JOIN config c ON c.id = p.config_id WHERE p.key = 'ashift' AND p.value = '14'")
[ "$n" -ge 3 ] || fail "ashift: $n configs with ashift=14, want 3"
grep -q -- "--sync=1 --end_fsync=1 --size=3m --runtime=2 " "$out/commands.log" ||
    fail "ashift: fio not scaled or without sync=1/end_fsync=1"
if [ $fuse = 1 ]; then
    v=$(q "SELECT value FROM fact WHERE key = 'zfs_sync' LIMIT 1")
    case $v in
    "zfs-fuse (pool version "*") has no sync property: synchronous writes come from fio sync=1 (O_SYNC), not from the dataset") ;;
    *) fail "ashift: fact zfs_sync is '$v'" ;;
    esac
fi
v=$(q "SELECT value FROM fact WHERE key = 'run_time_scale' LIMIT 1")
[ "$v" = "0.05 (fio runtimes, sizes and repeats scaled down: a smoke run)" ] ||
    fail "ashift: fact run_time_scale is '$v'"
grep -Eq '<h3 id="sweep-[0-9]*">read IOPS by (ashift and recordsize|recordsize and ashift)</h3>' "$out/report/index.html" ||
    fail "ashift: no ashift x recordsize sweep in the report"
nothing_left "ashift" "$pool"

# ---- 2. layouts, cache cells on a loop device
pool=${pool%a}l
example layouts "$pool"
db=$base/l.db out=$base/lout
t0=$(date +%s)
timeout 1200 "$pb" run --time-scale 0.05 --db "$db" -o "$out" "$base/layouts.ini" >/dev/null 2>"$base/l.err"
rc=$?
echo "layouts: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "layouts: exit $rc: $(tail -3 "$base/l.err")"
grep -q "plan 'layouts': 32 cells: 32 ran, 0 skipped, 0 already in the database" "$base/l.err" ||
    fail "layouts: summary: $(grep "plan '" "$base/l.err")"
n=$(q "SELECT count(DISTINCT config) FROM v_result WHERE metric = 'read_iops' AND value > 0")
[ "$n" = 32 ] || fail "layouts: $n configs with read_iops, want 32"
n=$(q "SELECT count(*) FROM config_param p WHERE p.key = 'l2arc' AND p.value = 'yes'")
[ "$n" -ge 16 ] || fail "layouts: $n configs with a cache vdev, want 16"
if [ $fuse = 1 ]; then
    n=$(grep -c "^losetup --find --show $base/lay-cache.img  # exit 0" "$out/commands.log")
    [ "$n" = 16 ] || fail "layouts: $n loop devices attached for the cache, want 16"
    grep -q "^zpool create .* cache /dev/loop[0-9]*  # exit 0" "$out/commands.log" ||
        fail "layouts: no pool made with a loop cache device"
    a=$(grep -c "^loop	" "$out/manifest.tsv")
    d=$(grep -c "^detached	" "$out/manifest.tsv")
    [ "$a" = 16 ] && [ "$d" = 16 ] ||
        fail "layouts: manifest has $a loop and $d detached records, want 16 each"
fi
# the layout sweep: the plan's name of each pool on the axis (vdevs and
# disks follow from it), slog or l2arc the series
h3=$(grep -o '<h3 id="sweep-[0-9]*">read IOPS by pool_layout and [a-z0-9]*</h3>' "$out/report/index.html")
[ -n "$h3" ] || fail "layouts: no read IOPS sweep by pool_layout in the report: $(grep -o '<h3 id="sweep[^>]*>[^<]*</h3>' "$out/report/index.html")"
num=$(printf '%s' "$h3" | sed -n 's/.*id="sweep-\([0-9]*\)".*/\1/p')
sed -n "/id=\"sweep-$num\"/,/<\/table>/p" "$out/report/index.html" >"$base/lsweep.html"
for l in stripe-1 stripe-4 mirror-2 2xmirror-2 raidz1 raidz2; do
    grep -q ">$l<" "$base/lsweep.html" || fail "layouts: $l not on the sweep's axis"
done
nothing_left "layouts" "$pool"

# ---- 3. volblocksize: preflight and dry run; skips where there are no zvols
pool=${pool%l}v
example volblocksize "$pool"
"$pb" run --dry-run --time-scale 0.05 -o "$base/vout" "$base/volblocksize.ini" >"$base/v.dry" 2>"$base/v.err"
rc=$?
[ $rc -eq 0 ] || fail "volblocksize dry run: exit $rc: $(cat "$base/v.err")"
grep -q "^# preflight: " "$base/v.dry" || fail "volblocksize: the dry run has no preflight"
[ -e "$base/vout" ] && fail "volblocksize: the dry run created its folder"
if [ $fuse = 1 ]; then
    grep -q "^# 576 cells, 576 would be skipped" "$base/v.dry" ||
        fail "volblocksize dry run: $(tail -1 "$base/v.dry")"
    db=$base/v.db
    timeout 300 "$pb" run --time-scale 0.05 --db "$db" -o "$base/vout" "$base/volblocksize.ini" >/dev/null 2>"$base/v.err"
    rc=$?
    [ $rc -eq 0 ] || fail "volblocksize: exit $rc: $(tail -3 "$base/v.err")"
    grep -q "576 cells: 0 ran, 576 skipped, 0 already" "$base/v.err" ||
        fail "volblocksize: summary: $(grep "plan '" "$base/v.err")"
    n=$(q "SELECT count(*) FROM result r JOIN metric m ON m.id = r.metric_id
           WHERE m.name = 'cell_skipped' AND (SELECT text FROM reason WHERE id = r.reason_id) LIKE 'kind=zvol: zfs-fuse (pool version %) has no zvols (no /dev/zvol device nodes; zvols need OpenZFS)'")
    [ "$n" = 576 ] || fail "volblocksize: $n cells recorded as skipped for the zvols, want 576"
    grep -q "^zpool create" "$base/vout/commands.log" && fail "volblocksize: a pool was created"
fi
nothing_left "volblocksize" "$pool"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "example checks passed"
