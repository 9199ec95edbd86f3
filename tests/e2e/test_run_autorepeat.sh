#!/bin/sh
# e2e (root, real ZFS; about a minute on zfs-fuse): issue 12 item 5.
# 1. repeats = auto with target_rse = 100% and order = random, seed = 2:
#    each of the 2 cells stops on its target after the minimum 3 repeats,
#    recorded (repeats_stop = target, repeats_done = 3, repeats_rse), with
#    3 samples of read_iops in the sample table; the cells ran in the
#    order seed 2 gives (2 1; splitmix64 of 2 is even), recorded (run_seed, run_cell_order,
#    cell_seq) and in commands.log.
# 2. repeats = auto with target_rse = 0.0001% and max_repeats = 2: the
#    cell stops on its maximum (repeats_stop = max, repeats_done = 2).
# Pools are named pbs12*, tiny (one 128M file) and always destroyed.
# usage: test_run_autorepeat.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1

. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold s12
pool=pbs12a$$
q() { sqlite3 "$db" "$1"; }
nothing_left() { # WHAT
    zpool list -H -o name 2>/dev/null | grep -qx "$pool" && fail "$1: pool $pool left"
    ls "$base"/*.img >/dev/null 2>&1 && fail "$1: sparse file left"
}

plan() { # FILE NAME EXTRA-PLAN-KEYS DATASET-AXIS
    cat >"$1" <<EOF
[plan]
name = $2
pool = $pool
vdevs = file:$base/d0.img:128M
$3
[dataset]
$4
[fio]
rw = randread
bs = 4k
size = 4m
runtime = 1
time_based = 1
EOF
}

# ---- 1. target, random order
plan "$base/a.ini" autotarget "repeats = auto
max_repeats = 4
target_rse = 100%
order = random
seed = 2" "recordsize = 8k, 128k"
db=$base/a.db out=$base/aout
"$pb" run --dry-run -o "$out" "$base/a.ini" >"$base/a.dry" 2>&1 ||
    fail "dry run: $(tail -3 "$base/a.dry")"
grep -q "^# order = random, seed 2: cells 2 1$" "$base/a.dry" ||
    fail "dry run order: $(grep order "$base/a.dry")"
t0=$(date +%s)
timeout 600 "$pb" run --db "$db" -o "$out" "$base/a.ini" >/dev/null 2>"$base/a.err"
rc=$?
echo "target: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "target: exit $rc: $(tail -3 "$base/a.err")"
grep -q "plan 'autotarget': 2 cells: 2 ran, 0 skipped" "$base/a.err" ||
    fail "target: summary: $(grep "plan '" "$base/a.err")"
fact() { # KEY: its values over the fio sources, sorted by cell
    q "SELECT group_concat(value, ',') FROM (SELECT f.value FROM fact f
       JOIN source s ON s.id = f.source_id WHERE f.key = '$1'
       AND s.format = 'fio-json' ORDER BY s.path)"
}
[ "$(fact repeats_stop)" = "target,target" ] ||
    fail "target: repeats_stop '$(fact repeats_stop)'"
[ "$(fact repeats_done)" = "3,3" ] || fail "target: repeats_done '$(fact repeats_done)'"
[ "$(fact repeats_metric)" = "read_iops,read_iops" ] ||
    fail "target: repeats_metric '$(fact repeats_metric)'"
[ "$(fact repeats_target_rse)" = "100%,100%" ] ||
    fail "target: repeats_target_rse '$(fact repeats_target_rse)'"
case $(fact repeats_rse) in
*%,*%) ;;
*) fail "target: repeats_rse '$(fact repeats_rse)'" ;;
esac
# cells in the order of seed 2: c002 first, then c001
[ "$(fact cell_seq)" = "2,1" ] || fail "target: cell_seq '$(fact cell_seq)'"
[ "$(q "SELECT value FROM fact WHERE key = 'run_seed'")" = 2 ] ||
    fail "target: run_seed"
[ "$(q "SELECT value FROM fact WHERE key = 'run_cell_order'")" = "2 1" ] ||
    fail "target: run_cell_order"
[ "$(q "SELECT value FROM fact WHERE key = 'run_order'")" = random ] ||
    fail "target: run_order"
c2=$(grep -n "^# cell 2/2" "$out/commands.log" | head -1 | cut -d: -f1)
c1=$(grep -n "^# cell 1/2" "$out/commands.log" | head -1 | cut -d: -f1)
[ -n "$c1" ] && [ -n "$c2" ] && [ "$c2" -lt "$c1" ] ||
    fail "target: commands.log does not run cell 2 before cell 1"
n=$(grep -c -- " --output=[^ ]*\.fio\.json" "$out/commands.log")
[ "$n" = 6 ] || fail "target: $n fio runs, want 6 (3 per cell)"
# every repeat is a sample: 3 per metric with a value, read_iops included
n=$(q "SELECT count(*) FROM sample x JOIN result r ON r.id = x.result_id
       JOIN metric m ON m.id = r.metric_id WHERE m.name = 'read_iops'")
[ "$n" = 6 ] || fail "target: $n read_iops samples, want 6"
# the samples are the repeats' own values: their mean is the result
bad=$(q "SELECT count(*) FROM result r JOIN metric m ON m.id = r.metric_id
         WHERE m.name = 'read_iops' AND abs(r.value - (SELECT avg(value)
         FROM sample WHERE result_id = r.id)) > 1e-6 * r.value")
[ "$bad" = 0 ] || fail "target: $bad read_iops results are not the mean of their samples"
# the report's Experiment says why each cell stopped (a tooltip of its cell)
n=$(grep -c 'title="3 repeats, stopped on its target: RSE of read_iops [0-9.e+-]*% (target 100%)"' "$out/report/index.html")
[ "$n" = 2 ] || fail "target: $n Experiment cells say why they stopped, want 2"
nothing_left target

# ---- 2. max
plan "$base/b.ini" automax "repeats = auto
max_repeats = 2
target_rse = 0.0001%" "recordsize = 128k"
db=$base/b.db out=$base/bout
t0=$(date +%s)
timeout 600 "$pb" run --db "$db" -o "$out" "$base/b.ini" >/dev/null 2>"$base/b.err"
rc=$?
echo "max: $(( $(date +%s) - t0 )) s"
[ $rc -eq 0 ] || fail "max: exit $rc: $(tail -3 "$base/b.err")"
[ "$(fact repeats_stop)" = max ] || fail "max: repeats_stop '$(fact repeats_stop)'"
[ "$(fact repeats_done)" = 2 ] || fail "max: repeats_done '$(fact repeats_done)'"
[ "$(fact repeats_target_rse)" = "0.0001%" ] ||
    fail "max: repeats_target_rse '$(fact repeats_target_rse)'"
[ -z "$(q "SELECT value FROM fact WHERE key = 'run_seed'")" ] ||
    fail "max: a run_seed without order = random"
n=$(q "SELECT samples FROM v_result WHERE metric = 'read_iops'")
[ "$n" = 2 ] || fail "max: read_iops n = '$n', want 2"
grep -q "1 cells x auto repeats (2 to 2, target RSE 0.0001%)" "$out/commands.log" ||
    fail "max: the first note: $(grep "cells x" "$out/commands.log")"
grep -q 'title="2 repeats, stopped on its maximum: RSE of read_iops [0-9.e+-]*% (target 0.0001%)"' "$out/report/index.html" ||
    fail "max: the Experiment does not say the cell stopped on its maximum"
nothing_left max

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "auto repeats and random order checked"
