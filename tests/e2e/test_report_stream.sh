#!/bin/sh
# e2e: the report that keeps most cells on disk and loads them one test at
# a time (analysis/stream.c, docs/performance.md "Report memory") is byte for byte
# the report that holds every cell. Every good fixture in one database,
# reported with --ignore-param none (merged tests are never streamed) once
# as usual and once with TMPDIR unusable (no temporary file: every cell in
# memory, the path before streaming). Also checks that the streamed report
# really streamed (strace: a temporary poolbench-cells file) when strace is
# there.
# usage: test_report_stream.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
db=$tmp/f.db
export SOURCE_DATE_EPOCH=1700000000

cd "$src" || exit 1
find fixtures \( -name bad -o -name hostile -o -name jobs -o -name sheets \
    -o -name zfs-caps -o -name zfs-telemetry -o -name zfs-commands \) -prune \
    -o -type f ! -name '*.expected' ! -name '*.md' ! -name '*.sh' -print |
    sort >"$tmp/inputs.txt"
tr '\n' '\0' <"$tmp/inputs.txt" | xargs -0 "$pb" ingest --db "$db" --quiet \
    >/dev/null 2>&1
"$pb" ingest --db "$db" --quiet --configs fixtures/sheets/hosts.csv \
    fixtures/sheets/coded-machines.csv >/dev/null 2>&1
n=$("$pb" list sources --db "$db" 2>/dev/null | wc -l)
[ "$n" -gt 100 ] || fail "only $n sources ingested"

"$pb" report --db "$db" -o "$tmp/streamed" --ignore-param none -q \
    >"$tmp/out1" 2>&1 || fail "report failed: $(cat "$tmp/out1")"
TMPDIR=/nonexistent/poolbench-test "$pb" report --db "$db" \
    -o "$tmp/held" --ignore-param none -q >"$tmp/out2" 2>&1 ||
    fail "report without a temporary folder failed: $(cat "$tmp/out2")"
if ! diff -r "$tmp/held" "$tmp/streamed" >"$tmp/diff"; then
    fail "streamed report differs from the held one:"
    head -40 "$tmp/diff" >&2
fi
[ -s "$tmp/streamed/index.html" ] || fail "no index.html"
# a split report: Results by test is tests.html (docs/report.md "Pages")
grep -q 'id="tests"' "$tmp/streamed/tests.html" ||
    fail "no Results by test in tests.html"

if command -v strace >/dev/null 2>&1; then
    strace -f -e trace=openat -o "$tmp/trace" "$pb" report --db "$db" \
        -o "$tmp/traced" --ignore-param none -q >/dev/null 2>&1
    grep -q 'poolbench-cells-' "$tmp/trace" ||
        fail "the report made no temporary cells file: not streamed"
fi

[ "$fails" -eq 0 ] || exit 1
echo "ok"
