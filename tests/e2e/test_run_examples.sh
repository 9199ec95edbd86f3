#!/bin/sh
# e2e (root, real ZFS; RUN_SERIAL, about seven minutes on zfs-fuse): the
# shipped studies run whole at --time-scale 0.05. ashift-recordsize.ini:
# every cell runs (the dataset's sync=always; fio sync=1 in its place where
# the ZFS has no `sync` property, recorded as the fact zfs_sync) and the report shows
# the ashift x recordsize sweep. layouts.ini: every cell runs, the cache
# cells on a loop device where the ZFS refuses a file as a cache device,
# and the report shows the sweep per layout. volblocksize.ini: its
# preflight and dry run here, and where the ZFS has no zvols every cell is
# recorded as skipped with the reason. No pool, loop device or sparse file
# is left. The examples are copied with this test's pool names and vdev
# folder; nothing else of them changes. When zfs-fuse itself dies during a
# study (it did once in CI), the test recovers as a user would (restart,
# `run --cleanup`, `run --resume`) and checks the resumed study whole;
# tested by killing the daemon (SIGKILL) after cell 10 of layouts.
# usage: test_run_examples.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3, losetup or a usable zpool.
set -u
pb=$1
src=$2

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"
command -v losetup >/dev/null 2>&1 || { echo "skip: no losetup"; exit 77; }

e2e_scaffold exa
# the page of a report that holds its sweeps: sweeps.html when the report
# is split into pages (docs/report.md "Pages"), else index.html
sweep_page() {
    if [ -f "$1/sweeps.html" ]; then echo "$1/sweeps.html"; else echo "$1/index.html"; fi
}
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
# study NAME SECONDS ARGS...: `poolbench run ARGS` into $base/NAME.err,
# its exit code in $rc. zfs-fuse is a user-space daemon and has died under
# a study (once in CI, at cell 24 of layouts: the run then stops with exit
# 3, as it should). When the daemon is gone after such a stop, the test
# recovers once, the way the README tells a user to: unmount what the dead
# daemon left, start zfs-fuse, `run --cleanup RUNID`, then `run --resume`;
# $recovered says so and the checks below allow for the cell run twice.
study() {
    sname=$1 secs=$2
    shift 2
    recovered=0
    timeout "$secs" "$pb" run "$@" >/dev/null 2>"$base/$sname.err"
    rc=$?
    [ $rc -eq 3 ] && ! timeout 10 zpool list >/dev/null 2>&1 || return 0
    # a killed daemon takes a moment to end (its threads, its FUSE mounts)
    for _ in $(seq 1 60); do
        pgrep -x zfs-fuse >/dev/null || break
        sleep 0.5
    done
    pgrep -x zfs-fuse >/dev/null && { fail "$sname: ZFS does not answer, but zfs-fuse is still running"; return 0; }
    id=$(awk -F'\t' '$1 == "run" { print $2; exit }' "$out/manifest.tsv" 2>/dev/null)
    echo "note: $sname: zfs-fuse died during the study ($(grep -m1 -o "'zpool list' does not answer.*" "$base/$sname.err")); recovering: restart, run --cleanup $id, run --resume"
    [ -n "$id" ] || { fail "$sname: no run id in $out/manifest.tsv"; return 0; }
    awk -v p="$pool" '$3 ~ /^fuse/ && ($1 == p || index($1, p "/") == 1) { print $2 }' /proc/mounts |
        sort -r | while read -r m; do umount -l "$m"; done
    zfs_up || { fail "$sname: zfs-fuse does not start again"; return 0; }
    timeout 300 "$pb" run --cleanup "$id" -o "$out" >"$base/$sname.cleanup" 2>&1 ||
        fail "$sname: run --cleanup $id after the daemon died: $(tail -3 "$base/$sname.cleanup")"
    timeout "$secs" "$pb" run --resume "$@" >/dev/null 2>"$base/$sname.err"
    rc=$?
    recovered=1
}
# summary NAME PLAN CELLS: the run's last summary says every cell ran, none
# skipped (after a recovery: ran + already in the database = CELLS)
summary() {
    line=$(grep "plan '$2': $3 cells: " "$base/$1.err")
    if [ $recovered = 0 ]; then
        case $line in *"$3 cells: $3 ran, 0 skipped, 0 already in the database"*) return ;; esac
    else
        r=$(printf '%s' "$line" | sed -n 's/.* cells: \([0-9]*\) ran, 0 skipped, \([0-9]*\) already in the database.*/\1 \2/p')
        [ -n "$r" ] && [ $(( ${r% *} + ${r#* } )) = "$3" ] && return
    fi
    fail "$1: summary: $(grep "plan '" "$base/$1.err")"
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
study a 900 --time-scale 0.05 --db "$db" -o "$out" "$base/ashift-recordsize.ini"
echo "ashift-recordsize: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "ashift: exit $rc: $(tail -3 "$base/a.err")"
summary a ashift-recordsize 12
q() { sqlite3 "$db" "$1"; }
n=$(q "SELECT count(DISTINCT config) FROM v_result WHERE metric = 'write_iops' AND value > 0")
[ "$n" = 12 ] || fail "ashift: $n configs with write_iops, want 12"
n=$(q "SELECT count(*) FROM config_param p JOIN config c ON c.id = p.config_id WHERE p.key = 'ashift' AND p.value = '14'")
[ "$n" -ge 3 ] || fail "ashift: $n configs with ashift=14, want 3"
grep -q -- "--end_fsync=1 --size=3m --runtime=2 " "$out/commands.log" ||
    fail "ashift: fio not scaled or without end_fsync=1"
if [ $fuse = 1 ]; then
    grep -q -- "--time_based=1 --sync=1 " "$out/commands.log" ||
        fail "ashift: fio without sync=1 in place of sync=always"
    grep -q "zfs create .*sync=" "$out/commands.log" &&
        fail "ashift: sync= given to zfs-fuse's zfs create"
    v=$(q "SELECT value FROM fact WHERE key = 'zfs_sync' LIMIT 1")
    case $v in
    "zfs-fuse (pool version "*") has no sync property: the dataset's sync=always comes from fio sync=1 (O_SYNC: every write through the ZIL), unless [fio] sets sync itself; sync=standard is left out") ;;
    *) fail "ashift: fact zfs_sync is '$v'" ;;
    esac
else
    grep -q "zfs create .*-o sync=always" "$out/commands.log" ||
        fail "ashift: the dataset is not made with sync=always"
fi
v=$(q "SELECT value FROM fact WHERE key = 'run_time_scale' LIMIT 1")
[ "$v" = "0.05 (fio runtimes, sizes and repeats scaled down: a smoke run)" ] ||
    fail "ashift: fact run_time_scale is '$v'"
grep -Eq '<h3 id="sweep-[0-9]*">read IOPS by (ashift and recordsize|recordsize and ashift)</h3>' "$(sweep_page "$out/report")" ||
    fail "ashift: no ashift x recordsize sweep in the report"
nothing_left "ashift" "$pool"

# ---- 2. layouts, cache cells on a loop device
pool=${pool%a}l
example layouts "$pool"
db=$base/l.db out=$base/lout
t0=$(date +%s)
study l 1200 --time-scale 0.05 --db "$db" -o "$out" "$base/layouts.ini"
echo "layouts: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "layouts: exit $rc: $(tail -3 "$base/l.err")"
summary l layouts 32
n=$(q "SELECT count(DISTINCT config) FROM v_result WHERE metric = 'read_iops' AND value > 0")
[ "$n" = 32 ] || fail "layouts: $n configs with read_iops, want 32"
n=$(q "SELECT count(*) FROM config_param p WHERE p.key = 'l2arc' AND p.value = 'yes'")
[ "$n" -ge 16 ] || fail "layouts: $n configs with a cache vdev, want 16"
if [ $fuse = 1 ]; then
    n=$(grep -c "^losetup --find --show $base/lay-cache.img  # exit 0" "$out/commands.log")
    # after a recovery the cell the daemon died in attached one more
    [ "$n" = 16 ] || { [ $recovered = 1 ] && [ "$n" -ge 16 ]; } ||
        fail "layouts: $n loop devices attached for the cache, want 16"
    grep -q "^zpool create .* cache /dev/loop[0-9]*  # exit 0" "$out/commands.log" ||
        fail "layouts: no pool made with a loop cache device"
    a=$(grep -c "^loop	" "$out/manifest.tsv")
    d=$(grep -c "^detached	" "$out/manifest.tsv")
    [ "$a" = "$d" ] && { [ "$a" = 16 ] || { [ $recovered = 1 ] && [ "$a" -ge 16 ]; }; } ||
        fail "layouts: manifest has $a loop and $d detached records, want 16 each"
fi
# the layout sweep: the plan's name of each pool on the axis (vdevs and
# disks follow from it), slog or l2arc the series
h3=$(grep -o '<h3 id="sweep-[0-9]*">read IOPS by pool_layout and [a-z0-9]*</h3>' "$(sweep_page "$out/report")")
[ -n "$h3" ] || fail "layouts: no read IOPS sweep by pool_layout in the report: $(grep -o '<h3 id="sweep[^>]*>[^<]*</h3>' "$(sweep_page "$out/report")")"
num=$(printf '%s' "$h3" | sed -n 's/.*id="sweep-\([0-9]*\)".*/\1/p')
sed -n "/id=\"sweep-$num\"/,/<\/table>/p" "$(sweep_page "$out/report")" >"$base/lsweep.html"
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
