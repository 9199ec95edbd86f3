#!/bin/sh
# e2e: the report's own sort (model/rsort.c, docs/performance.md "The report's
# own sort"). Every good fixture in one database; the report, with and
# without --ignore-param none, `export --wide` and a `compare` by source
# (source ids), once with the default budget (every row in one run in
# memory: no temporary file) and once with POOLBENCH_SORT_BYTES=256 (runs
# of two records, thousands of them, merged from one anonymous temporary
# file in $TMPDIR): byte for byte the same. With strace: the spilled sort
# opened its file in $TMPDIR without a name (O_TMPFILE, or mkstemp's
# O_EXCL), the default one opened none; $TMPDIR is left empty.
# usage: test_report_sort.sh POOLBENCH SOURCE_DIR CORPUS_DIR
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
n=$("$pb" list sources --db "$db" 2>/dev/null | wc -l)
[ "$n" -gt 100 ] || fail "only $n sources ingested"
mkdir "$tmp/sort"

# NAME ARGS...: the command's output and files under $tmp/NAME
run() {
    name=$1
    shift
    "$@" >"$tmp/$name.out" 2>&1 || fail "$name: $* failed: $(head -5 "$tmp/$name.out")"
}
for budget in default 256; do
    if [ "$budget" = 256 ]; then
        export POOLBENCH_SORT_BYTES=256 TMPDIR="$tmp/sort"
    fi
    run "rep-$budget" "$pb" report --db "$db" -o "$tmp/r-$budget" -q
    run "none-$budget" "$pb" report --db "$db" -o "$tmp/n-$budget" -q \
        --ignore-param none
    run "wide-$budget" "$pb" export --db "$db" --csv --wide
    run "cmp-$budget" "$pb" compare --db "$db" --json \
        'source:*fio-jsonplus/*nj1_json*' 'source:*fio-jsonplus/*nj1-run2*'
done
unset POOLBENCH_SORT_BYTES TMPDIR
for d in r n; do
    diff -r "$tmp/$d-default" "$tmp/$d-256" >"$tmp/diff" ||
        fail "report $d: runs of two records differ from one run: $(head -20 "$tmp/diff")"
done
for o in rep none wide cmp; do
    cmp -s "$tmp/$o-default.out" "$tmp/$o-256.out" ||
        fail "$o: output differs with runs of two records"
done
lines=$(wc -l <"$tmp/r-default/results.csv")
[ "$lines" -gt 3000 ] || fail "results.csv of $lines lines"
grep -q '"metric": "read_bw"' "$tmp/cmp-default.out" || fail "compare paired nothing"
[ -z "$(ls -A "$tmp/sort")" ] || fail "files left in TMPDIR: $(ls -A "$tmp/sort")"

if command -v strace >/dev/null 2>&1; then
    POOLBENCH_SORT_BYTES=256 TMPDIR="$tmp/sort" strace -f -e trace=openat \
        -o "$tmp/trace" "$pb" report --db "$db" -o "$tmp/traced" -q \
        >/dev/null 2>&1
    grep -Eq "\"$tmp/sort(/poolbench-sort-[^\"]*)?\", [^)]*(O_TMPFILE|O_EXCL)[^)]*\) = [0-9]" \
        "$tmp/trace" || fail "the spilled sort opened no file in TMPDIR"
    strace -f -e trace=openat -o "$tmp/trace1" "$pb" report --db "$db" \
        -o "$tmp/traced1" -q >/dev/null 2>&1
    if grep -Eq 'O_TMPFILE|poolbench-sort-' "$tmp/trace1"; then
        fail "one run in memory made a temporary file"
    fi
fi

[ "$fails" -eq 0 ] || exit 1
echo "ok"
