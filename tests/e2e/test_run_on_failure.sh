#!/bin/sh
# e2e (root, real ZFS): [plan] on_failure. With `stop`, a cell whose
# `zfs create` is refused (reservation=10G: out of space) ends the run:
# exit 1, the cell and the reason named, the --resume command printed,
# the pool and sparse files gone, the finished cell stored, the later cell not run. Without
# the key (continue) the same plan runs the later cell and exits 1 too,
# its last line counting the failed cells. Cells the preflight knows this
# ZFS cannot run (on_unsupported = skip) are skips, not failures, and do
# not stop it. fio killed
# in cell 2 with `stop` ends the run the same way; --resume then runs
# cell 2 again, and its failure record is replaced by its results (in the
# database and in the report) while the run's facts stay.
# usage: test_run_on_failure.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold onf
has_pool() { timeout 30 zpool list -H -o name 2>/dev/null | grep -qx "$pool"; }
# nothing of a run is left: no pool, no sparse file, the manifest says so
nothing_left() { # WHAT OUTDIR
    has_pool && fail "$1: pool $pool left"
    [ -e "$base/d0.img" ] && fail "$1: sparse file d0.img left"
    grep -q "^destroyed	.*	$pool\$" "$2/manifest.tsv" ||
        fail "$1: manifest has no destroyed record"
    grep -q "^gone	.*	$base/d0.img\$" "$2/manifest.tsv" ||
        fail "$1: manifest has no gone record for d0.img"
}
db_sane() { # DB WHAT
    [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] || fail "$2: database damaged"
    n=$(sqlite3 "$1" 'SELECT count(*) FROM pragma_foreign_key_check')
    [ "$n" = 0 ] || fail "$2: $n rows point at missing parents"
}

plan() { # FILE ON_FAILURE-LINE DATASET-LINE RUNTIME
    cat >"$1" <<EOP
[plan]
name = e2e-onfail
pool = $pool
$2
vdevs = file:$base/d0.img:128M
[dataset]
$3
[fio]
rw = randread
bs = 4k
size = 4m
runtime = $4
time_based = 1
EOP
}

# ---- 1. on_failure = stop: cell 2's `zfs create` is refused
plan "$base/stop.ini" "on_failure = stop" "reservation = none, 10G, 1m" 1
db=$base/s.db out=$base/sout
timeout 600 "$pb" run --db "$db" -o "$out" "$base/stop.ini" >/dev/null 2>"$base/s.err"
rc=$?
[ $rc -eq 1 ] || fail "stop: exit $rc, want 1: $(tail -3 "$base/s.err")"
[ "$(tail -1 "$base/s.err")" = "poolbench: 1 of 3 cells failed (why: $out/commands.log and the report)" ] ||
    fail "stop: last line: $(tail -1 "$base/s.err")"
grep -q "^poolbench: cell 2/3 (reservation=10G | fio randread bs=4k iodepth=1) failed: zfs create failed: cannot create '$pool/pb': out of space" "$base/s.err" ||
    fail "stop: the failed cell and the reason are not named: $(cat "$base/s.err")"
grep -qx "poolbench: the run stopped at cell 2/3, which failed (\[plan\] on_failure = stop): cells finished and kept: 1, not run: 1; its pool and sparse files are removed" "$base/s.err" ||
    fail "stop: no message about the stop: $(cat "$base/s.err")"
grep -qx "    poolbench run --resume --db $db -o $out $base/stop.ini" "$base/s.err" ||
    fail "stop: the --resume command is not printed"
grep -q "3 cells: 1 ran, 1 skipped (1 failed), 0 already in the database" "$base/s.err" ||
    fail "stop: summary: $(grep "plan '" "$base/s.err")"
nothing_left "stop" "$out"
db_sane "$db" "stop"
q() { sqlite3 "$db" "$1"; }
n=$(q "SELECT group_concat(path) FROM source WHERE format = 'fio-json'")
[ "$n" = "$out/raw/c001.fio.json" ] || fail "stop: fio sources '$n', want cell 1 only"
n=$(q "SELECT count(*) FROM v_result WHERE config = 'reservation=none' AND metric = 'read_iops' AND value > 0")
[ "$n" = 1 ] || fail "stop: finished cell 1 not kept ($n read_iops)"
why=$(q "SELECT (SELECT text FROM reason WHERE id = r.reason_id) FROM result r JOIN metric m ON m.id = r.metric_id
         JOIN config c ON c.id = r.config_id
         WHERE m.name = 'cell_skipped' AND c.label = 'reservation=10G'")
case $why in
"zfs create failed: cannot create '$pool/pb': out of space"*) ;;
*) fail "stop: cell 2 not recorded as failed with the reason: '$why'" ;;
esac
n=$(q "SELECT count(*) FROM v_result WHERE config = 'reservation=1m'")
[ "$n" = 0 ] || fail "stop: cell 3 has $n results, but the run stopped before it"
grep -q "reservation=1m" "$out/commands.log" && fail "stop: commands of cell 3 ran"
ls "$out"/raw/c003.* >/dev/null 2>&1 && fail "stop: cell 3 has raw outputs"
grep -q "run id .*, on_failure = stop$" "$out/commands.log" ||
    fail "stop: commands.log does not record on_failure"

# ---- 2. the same plan without the key (continue): cell 3 runs
plan "$base/cont.ini" "" "reservation = none, 10G, 1m" 1
db=$base/c.db out=$base/cout
timeout 600 "$pb" run --db "$db" -o "$out" "$base/cont.ini" >/dev/null 2>"$base/c.err"
rc=$?
[ $rc -eq 1 ] || fail "continue: exit $rc, want 1: $(tail -3 "$base/c.err")"
[ "$(tail -1 "$base/c.err")" = "poolbench: 1 of 3 cells failed (why: $out/commands.log and the report)" ] ||
    fail "continue: last line: $(tail -1 "$base/c.err")"
grep -q "^cell 2/3 reservation=10G fio randread bs=4k iodepth=1 failed: zfs create failed: " "$base/c.err" ||
    fail "continue: no progress line for the failed cell"
grep -q "3 cells: 2 ran, 1 skipped (1 failed), 0 already in the database" "$base/c.err" ||
    fail "continue: summary: $(grep "plan '" "$base/c.err")"
grep -q "the run stopped" "$base/c.err" && fail "continue: the run says it stopped"
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'read_iops' AND value > 0 AND config IN ('reservation=none', 'reservation=1m')")
[ "$n" = 2 ] || fail "continue: $n cells with read_iops, want 2 (reservation=none and reservation=1m)"
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'cell_skipped'")
[ "$n" = 1 ] || fail "continue: $n cells recorded as failed, want 1"
nothing_left "continue" "$out"

# ---- 3. on_failure = stop and a cell zfs-fuse cannot run: a skip
plan "$base/skip.ini" "on_failure = stop
on_unsupported = skip" "compression = lz4, off" 1
db=$base/k.db out=$base/kout
timeout 600 "$pb" run --db "$db" -o "$out" "$base/skip.ini" >/dev/null 2>"$base/k.err"
rc=$?
[ $rc -eq 0 ] || fail "skip with stop: exit $rc, want 0: $(tail -3 "$base/k.err")"
n=$(q "SELECT count(*) FROM v_result WHERE config = 'compression=off' AND metric = 'read_iops' AND value > 0")
[ "$n" = 1 ] || fail "skip with stop: cell 2 did not run ($n read_iops)"
if grep -q "zfs-fuse" "$out/commands.log"; then
    grep -q "2 cells: 1 ran, 1 skipped, 0 already" "$base/k.err" ||
        fail "skip with stop: summary: $(grep "plan '" "$base/k.err")"
fi
nothing_left "skip with stop" "$out"

# ---- 4. on_failure = stop, fio killed with SIGKILL in cell 2
plan "$base/kill.ini" "on_failure = stop" "recordsize = 8k, 32k, 128k" 4
db=$base/f.db out=$base/fout
"$pb" run --db "$db" -o "$out" "$base/kill.ini" >/dev/null 2>"$base/f.err" &
run=$!
p=
for _ in $(seq 1 600); do
    p=$(pgrep -f "output=$out/raw/c002.fio.json")
    [ -n "$p" ] && break
    kill -0 "$run" 2>/dev/null || break
    sleep 0.2
done
if [ -z "$p" ]; then
    fail "fio of cell 2 never started: $(tail -3 "$base/f.err")"
else
    sleep 1
    kill -9 $p
fi
timeout 600 sh -c "while kill -0 $run 2>/dev/null; do sleep 0.2; done"
wait $run
rc=$?
run=
[ $rc -eq 1 ] || fail "killed fio: exit $rc, want 1: $(tail -3 "$base/f.err")"
grep -q "^poolbench: cell 2/3 (recordsize=32k | fio randread bs=4k iodepth=1) failed: fio failed: .*signal 9" "$base/f.err" ||
    fail "killed fio: the failed cell and the reason are not named: $(cat "$base/f.err")"
grep -qx "poolbench: the run stopped at cell 2/3, which failed (\[plan\] on_failure = stop): cells finished and kept: 1, not run: 1; its pool and sparse files are removed" "$base/f.err" ||
    fail "killed fio: no message about the stop: $(cat "$base/f.err")"
grep -qx "    poolbench run --resume --db $db -o $out $base/kill.ini" "$base/f.err" ||
    fail "killed fio: the --resume command is not printed"
nothing_left "killed fio" "$out"
db_sane "$db" "killed fio"
n=$(q "SELECT group_concat(path) FROM source WHERE format = 'fio-json'")
[ "$n" = "$out/raw/c001.fio.json" ] || fail "killed fio: fio sources '$n', want cell 1 only"
n=$(q "SELECT count(*) FROM v_result WHERE config = 'recordsize=128k'")
[ "$n" = 0 ] || fail "killed fio: cell 3 has $n results, but the run stopped before it"
why=$(q "SELECT (SELECT text FROM reason WHERE id = r.reason_id) FROM result r JOIN metric m ON m.id = r.metric_id
         JOIN config c ON c.id = r.config_id
         WHERE m.name = 'cell_skipped' AND c.label = 'recordsize=32k'")
case $why in
"fio failed: "*"signal 9"*) ;;
*) fail "killed fio: cell 2 not recorded as failed: '$why'" ;;
esac
# the report of the stopped run shows the failure
grep -rqs "signal 9" "$out/report" || fail "killed fio: the report does not show the failure"

# ---- 5. --resume: cell 2 runs again and replaces its failure record
timeout 600 "$pb" run --db "$db" -o "$out" --resume "$base/kill.ini" >/dev/null 2>"$base/r.err"
rc=$?
[ $rc -eq 0 ] || fail "resume: exit $rc: $(tail -3 "$base/r.err")"
grep -q "3 cells: 2 ran, 0 skipped, 1 already in the database" "$base/r.err" ||
    fail "resume summary: $(grep "plan '" "$base/r.err")"
db_sane "$db" "resume"
n=$(q "SELECT count(*) FROM v_result WHERE metric = 'cell_skipped'")
[ "$n" = 0 ] || fail "resume: $n failure records left, want 0"
n=$(q "SELECT count(*) FROM source WHERE format = 'poolbench-run'")
[ "$n" = 0 ] || fail "resume: $n failure sources left, want 0"
n=$(q "SELECT count(*) FROM result WHERE (SELECT text FROM reason WHERE id = reason_id) LIKE 'fio failed%'")
[ "$n" = 0 ] || fail "resume: $n results still name the failure"
for rs in 8k 32k 128k; do
    n=$(q "SELECT count(*) FROM v_result WHERE config = 'recordsize=$rs' AND metric = 'read_iops' AND value > 0")
    [ "$n" = 1 ] || fail "resume: recordsize=$rs has $n read_iops, want 1"
done
n=$(q "SELECT count(*) FROM source WHERE format = 'fio-json'")
[ "$n" = 3 ] || fail "resume: $n fio sources, want 3"
grep -q "^# cell 2/3: its earlier record $out/raw/c002.skipped.txt (source [0-9]*) is replaced$" "$out/commands.log" ||
    fail "resume: commands.log does not say the record was replaced"
# both runs' facts are kept: the first run's on its cell 1
n=$(q "SELECT count(DISTINCT value) FROM fact WHERE key = 'run_id'")
[ "$n" = 2 ] || fail "resume: facts of $n runs, want 2"
grep -rqs "signal 9" "$out/report" && fail "resume: the report still shows the failure"
grep -rqs "recordsize=32k" "$out/report" || fail "resume: the report does not show cell 2"
nothing_left "resume" "$out"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "on_failure checks passed"
