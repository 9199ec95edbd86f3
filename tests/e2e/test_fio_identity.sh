#!/bin/sh
# e2e (issue 42, items 1-5): what is a repeat, a clone, a group, a test
# and a configuration in fio output (docs/formats.md, "Repeats, clones,
# groups, tests and configurations in fio output"), on real fio 3.33 files:
#  1. a note pasting one `--numjobs=8 --group_reporting` command's output
#     three times is one result, their mean, stderr, n=3, the values kept
#     (not three clones summed), in v_result, export and best;
#  2. a group_reporting entry of three different jobs is a test of its
#     own (`fio group 0 (...)`, flag.merged_group), never a workload's;
#  3. six jobs of one file on one target are six tests of one
#     configuration; jobs on two targets are two; --label keeps them
#     apart; `list configs` says where each label came from;
#  4. an empty fio slat log (psync) is skipped with a note, exit 0;
#  5. two runs that differ only in buffer_compress_percentage (the
#     OpenZFS 2.3.2 corpus pair, 849 and 913 IOPS, and the fixture's own
#     pair) are two tests, never averaged; a file's options that differ
#     are named in its tests.
# usage: test_fio_identity.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$db" "$1"; }
cd "$src/fixtures" || exit 1

# ---- 1. repeats: the three pastes of a group_reporting command
db="$tmp/one.db"
"$pb" ingest -q --db "$db" notes/three-pastes.note 2>/dev/null ||
    fail "ingest three-pastes"
# write: IOPS=19.3k, 22.2k, 22.3k: mean 21266.67, sd 1703.9, se 983.76
v=$(q "SELECT printf('%.2f %.2f', value, stderr) || ' ' || samples || ' '
    || job FROM v_result WHERE metric = 'write_iops'")
[ "$v" = "21266.67 983.76 3 fio" ] || fail "three pastes: $v"
[ "$(q "SELECT count(*) FROM v_result WHERE job LIKE 'fio#%'")" = 0 ] ||
    fail "three pastes: stored as clones"
v=$(q "SELECT group_concat(value, ' ') FROM (SELECT s.value FROM sample s
    JOIN result r ON r.id = s.result_id JOIN metric m ON m.id = r.metric_id
    WHERE m.name = 'write_iops' ORDER BY s.seq)")
[ "$v" = "19300.0 22200.0 22300.0" ] || fail "three pastes: samples $v"
# export and best carry the mean, not the 63,800 of a sum
"$pb" export --db "$db" --csv --metric '^write_iops$' >"$tmp/x.csv" ||
    fail "export"
grep -q ',fio,write_iops,21266.666666666668,ops/s,higher,983.7569708915804,3' \
    "$tmp/x.csv" || fail "export: $(cat "$tmp/x.csv")"
grep -q 63800 "$tmp/x.csv" && fail "export: the sum of three runs"
# the same job three times in a JSON document (three sections, stonewall)
"$pb" ingest -q --db "$db" fio-json/fio-3.33_randread_stonewall-repeats.json \
    2>/dev/null || fail "ingest stonewall repeats"
v=$(q "SELECT samples FROM v_result WHERE config = 'rr' AND metric =
    'read_iops'")
[ "$v" = 3 ] || fail "stonewall repeats: n $v"

# ---- 2. a merged group: not the workload its options name
db="$tmp/two.db"
"$pb" ingest -q --db "$db" fio-json/fio-3.33_mixed-group_group-reporting.json \
    fio-text/fio-3.33_mixed-group_group-reporting.txt \
    fio-json/fio-3.33_write_64k_fsync16.json 2>/dev/null ||
    fail "ingest mixed groups"
v=$(q "SELECT group_concat(name, '|') FROM (SELECT name FROM test WHERE
    name LIKE 'fio group%' ORDER BY name)")
[ "$v" = "fio group 0 (3 jobs: seqread, randread, seqwrite)|fio group 0 (seqread and others)" ] ||
    fail "merged tests: $v"
# its 1.5 GB/s of writes are not a 'fio write bs=64k' result
[ "$(q "SELECT count(*) FROM v_result WHERE test LIKE 'fio write bs=64k%'
    AND source_path LIKE '%mixed-group%'")" = 0 ] ||
    fail "merged group filed under its last job's workload"
[ "$(q "SELECT count(*) FROM fact WHERE key = 'flag.merged_group'")" = 2 ] ||
    fail "flag.merged_group"
q "SELECT value FROM fact WHERE key = 'flag.merged_group'" |
    grep -q "read I/O in a job whose options say rw=write" ||
    fail "flag: $(q "SELECT value FROM fact WHERE key = 'flag.merged_group'")"

# ---- 3. configurations: one per invocation and target
db="$tmp/three.db"
"$pb" ingest -q --db "$db" fio-json/fio-3.33_bs-x-runtime_stonewall.json \
    fio-json/fio-3.33_randread_two-targets.json 2>/dev/null ||
    fail "ingest configs"
# (six tests: three names, each of runtime 1 s and 2 s)
v=$(q "SELECT count(DISTINCT config_id) || ' ' || count(DISTINCT test_id)
    || ' ' || count(DISTINCT job_id) FROM result WHERE source_id = 1")
[ "$v" = "1 6 6" ] || fail "bs x runtime: configs tests jobs $v"
[ "$(q "SELECT DISTINCT config FROM v_result WHERE source_path LIKE '%bs-x%'")" = \
    fio-3.33_bs-x-runtime_stonewall ] || fail "bs x runtime: label"
v=$(q "SELECT group_concat(label || ':' || value, ' ') FROM (SELECT c.label,
    p.value FROM config c JOIN config_param p ON p.config_id = c.id AND
    p.key = 'target' ORDER BY c.label)")
[ "$v" = "rr-a:/tmp/fiofix/target-a rr-b:/tmp/fiofix/target-b" ] ||
    fail "two targets: $v"
# --label relabels, the targets stay two configurations
"$pb" ingest -q --db "$tmp/l.db" --label lab \
    fio-json/fio-3.33_randread_two-targets.json 2>/dev/null
[ "$(sqlite3 "$tmp/l.db" "SELECT count(*) || ' ' || count(DISTINCT label)
    FROM config")" = "2 1" ] || fail "--label merged the targets"
# where the labels came from
"$pb" ingest -q --db "$db" --label mylab fio-json/fio-3.33_randwrite_16k_compress0.json \
    notes/three-pastes.note 2>/dev/null
"$pb" ingest -q --db "$db" notes/rs2k.txt 2>/dev/null
# two jobs on target-a (one configuration, the file's name) and one on
# target-b (its own name): each label's own origin
"$pb" ingest -q --db "$db" fio-json/fio-3.33_targets-mixed.json 2>/dev/null
"$pb" list --db "$db" configs >"$tmp/list" || fail "list configs"
grep -q '^1  *fio-3.33_bs-x-runtime_stonewall  *78 .*  file: fio jobs of several names on one target (fio-3.33_bs-x-runtime_stonewall)$' \
    "$tmp/list" || fail "list configs: file label: $(cat "$tmp/list")"
grep -q '  rr-a  .* parser$' "$tmp/list" || fail "list configs: job name"
grep -q '  fio-3.33_targets-mixed  *26  *target=/tmp/fiofix/target-a .* (fio-3.33_targets-mixed)$' \
    "$tmp/list" || fail "list configs: mixed targets, file label"
grep -q '  rand-b  *13  *target=/tmp/fiofix/target-b .*  parser$' "$tmp/list" ||
    fail "list configs: mixed targets, the single job's own name"
grep -q '  mylab  .* --label$' "$tmp/list" || fail "list configs: --label"
grep -q '  recordsize=2k  .* title: line 1$' "$tmp/list" ||
    fail "list configs: title"
"$pb" list --db "$db" configs --json | grep -q '"label_from": "--label"' ||
    fail "list configs --json: no label_from"

# ---- 4. an empty fio log: skipped with a note, exit 0
db="$tmp/four.db"
"$pb" ingest --db "$db" fio-log/psync >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "empty slat log: exit $rc: $(cat "$tmp/err")"
grep -qx "skip fio-log/psync/psync_slat.1.log: empty fio slat log, no samples (fio writes one for a log it has nothing for, e.g. slat of a synchronous engine)" \
    "$tmp/out" || fail "empty slat log: $(cat "$tmp/out")"
grep -q "^poolbench: 3 stored (23 results), 0 already present, 0 rejected, 1 empty fio log skipped$" \
    "$tmp/err" || fail "empty slat log: $(cat "$tmp/err")"
[ "$(q "SELECT count(*) FROM series")" = 2 ] || fail "psync: lat and clat series"

# ---- 5. workloads that differ are not repeats
db="$tmp/five.db"
"$pb" ingest -q --db "$db" --label pair \
    fio-json/fio-3.33_randwrite_16k_compress0.json \
    fio-json/fio-3.33_randwrite_16k_compress50.json 2>/dev/null ||
    fail "ingest compress pair"
v=$(q "SELECT group_concat(p.value || '=' || r.value, ' ') FROM (SELECT
    * FROM result ORDER BY test_id) r JOIN metric m ON m.id = r.metric_id
    JOIN test_param p ON p.test_id = r.test_id AND p.key =
    'buffer_compress_percentage' WHERE m.name = 'write_iops'")
[ "$v" = "0=15552.447552 50=24310.689311" ] || fail "compress pair: $v"
[ "$(q "SELECT count(*) FROM result WHERE samples > 1")" = 0 ] ||
    fail "compress pair averaged as repeats"
# one file of both: the option that differs is in the names
"$pb" ingest --dump fio-json/fio-3.33_randwrite_16k_compress-pair.json |
    grep '^test' >"$tmp/t"
[ "$(cat "$tmp/t")" = "test 0 fio randwrite bs=16k iodepth=8 direct=1 buffer_compress_percentage=0 [fio]
test 1 fio randwrite bs=16k iodepth=8 direct=1 buffer_compress_percentage=50 [fio]" ] ||
    fail "compress pair names: $(cat "$tmp/t")"
# the real OpenZFS 2.3.2 pair (849 and 913 IOPS on one zvol)
if [ -n "$corpus" ] && [ -f "$corpus/openzfs-2.3/fio-3.33_zvol-randwrite-16k_compress0.json" ]; then
    db="$tmp/corpus.db"
    "$pb" ingest -q --db "$db" --label zvol \
        "$corpus/openzfs-2.3/fio-3.33_zvol-randwrite-16k_compress0.json" \
        "$corpus/openzfs-2.3/fio-3.33_zvol-randwrite-16k_compress50.json" \
        2>/dev/null || fail "ingest corpus pair"
    v=$(q "SELECT count(DISTINCT test_id) || ' ' || group_concat(value, ' ')
        FROM (SELECT r.test_id, r.value FROM result r JOIN metric m ON m.id =
        r.metric_id WHERE m.name = 'write_iops' ORDER BY r.value)")
    [ "$v" = "2 849.449817 913.251818" ] || fail "corpus pair: $v"
else
    echo "note: no corpus openzfs-2.3 files: the OpenZFS pair not checked"
fi

[ $fails -eq 0 ] || exit 1
echo ok
