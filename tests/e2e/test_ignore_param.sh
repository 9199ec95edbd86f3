#!/bin/sh
# e2e: parameters that do not split tests (issue 19, item 3). The same
# fio 4k randread run for 1 s/32 MiB and for 2 s/64 MiB on two
# configurations (real fio runs, made here): by default (runtime, size,
# ramp_time, time_based ignored) report and best compare them as one test
# whose results are the two runs' mean; --ignore-param none and
# --ignore-param runtime keep them apart; the stored tests are unchanged.
# usage: test_ignore_param.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v fio >/dev/null || { echo "SKIP: no fio" >&2; exit 77; }
command -v jq >/dev/null || { echo "SKIP: no jq" >&2; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }

for c in a b; do
    for r in "1 32m" "2 64m"; do
        set -- $r
        fio --name=randread-4k --rw=randread --bs=4k --ioengine=psync \
            --filename="$tmp/scratch" --size="$2" --runtime="$1" \
            --output-format=json >"$tmp/$c-$1s.json" 2>"$tmp/fio.err" ||
            { echo "SKIP: fio cannot run here: $(cat "$tmp/fio.err")" >&2; exit 77; }
    done
done
rm -f "$tmp/scratch"
db="$tmp/t.db"
"$pb" ingest --db "$db" -q --label zfs-a "$tmp/a-1s.json" "$tmp/a-2s.json" &&
"$pb" ingest --db "$db" -q --label zfs-b "$tmp/b-1s.json" "$tmp/b-2s.json" ||
    fail ingest
# stored: two tests, unchanged by what follows
[ "$(sqlite3 "$db" 'SELECT count(*) FROM test')" = 2 ] || fail "stored tests"

# the mean of the two runs of config C, as poolbench --raw prints it
mean() {
    sqlite3 "$db" "SELECT avg(value) FROM v_result WHERE config = '$1' AND
        metric = 'read_iops'"
}

# default: one test, n = 2, the mean of both runs
"$pb" best --db "$db" --json --metric '^read_iops$' >"$tmp/j" || fail "best"
[ "$(jq length "$tmp/j")" = 1 ] || fail "default: $(jq -c '[.[].test]' "$tmp/j")"
[ "$(jq -r '.[0].test' "$tmp/j")" = "fio randread bs=4k iodepth=1" ] ||
    fail "default test name: $(jq -r '.[0].test' "$tmp/j")"
[ "$(jq -c '[.[0].best.n, .[0].runner_up.n]' "$tmp/j")" = "[2,2]" ] ||
    fail "default n: $(jq -c '.[0]' "$tmp/j")"
win=$(jq -r '.[0].best.config' "$tmp/j")
got=$(jq '.[0].best.value' "$tmp/j")
want=$(mean "$win")
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d;
    exit !(d <= 1e-6 * b) }' || fail "merged mean $got, want $want"
# the ± SE is the standard error of the two runs
se=$(jq '.[0].best.stderr' "$tmp/j")
want=$(sqlite3 "$db" "SELECT abs(max(value) - min(value)) / 2 FROM v_result
    WHERE config = '$win' AND metric = 'read_iops'")
awk -v a="$se" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d;
    exit !(d <= 1e-6 * b + 1e-9) }' || fail "merged SE $se, want $want"

# none: two tests, told apart by their parameters
"$pb" best --db "$db" --json --metric '^read_iops$' --ignore-param none \
    >"$tmp/j" || fail "best none"
[ "$(jq -c '[.[].test]' "$tmp/j")" = '["fio randread bs=4k iodepth=1 (runtime=1s, size=32M)","fio randread bs=4k iodepth=1 (runtime=2s, size=64M)"]' ] ||
    fail "none: $(jq -c '[.[].test]' "$tmp/j")"
[ "$(jq -c '[.[].best.n]' "$tmp/j")" = "[1,1]" ] || fail "none n"
# runtime only: size still separates them (named by all that differs)
"$pb" best --db "$db" --json --metric '^read_iops$' --ignore-param runtime \
    >"$tmp/j" || fail "best runtime"
[ "$(jq -c '[.[].best.n]' "$tmp/j")" = "[1,1]" ] ||
    fail "runtime: $(jq -c '[.[].test]' "$tmp/j")"
# runtime and size: one test again
"$pb" best --db "$db" --json --metric '^read_iops$' --ignore-param \
    runtime,size >"$tmp/j" || fail "best runtime,size"
[ "$(jq -c '[.[].best.n]' "$tmp/j")" = "[2]" ] ||
    fail "runtime,size: $(jq -c '[.[].test]' "$tmp/j")"
"$pb" best --db "$db" --ignore-param 'runtime,,size' 2>"$tmp/err"
[ $? -eq 2 ] || fail "bad list exit"

# the report groups the same way
"$pb" report --db "$db" -q -o "$tmp/r1" || fail "report"
grep -q 'runtime=1s' "$tmp/r1/index.html" && fail "default report splits the test"
"$pb" report --db "$db" -q -o "$tmp/r2" --ignore-param none || fail "report none"
grep -q 'fio randread bs=4k iodepth=1 (runtime=1s, size=32M)' "$tmp/r2/index.html" ||
    fail "report none: no split test"
[ "$(sqlite3 "$db" 'SELECT count(*) FROM test')" = 2 ] || fail "tests changed"

[ $fails -eq 0 ] || exit 1
echo "ok"
