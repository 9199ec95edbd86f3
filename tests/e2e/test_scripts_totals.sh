#!/bin/sh
# e2e (issue 16 item 6): `scripts/fuzz --totals` sums the run history kept
# outside the build dir, the build dir's own and the one committed in the
# repo (bench/fuzz-history.tsv), a line in several counting once, against
# one CPU-hour per harness; `--record` writes the same as a Markdown table
# and the union of the histories to the committed one. No fuzzing, no clang
# needed.
# usage: test_scripts_totals.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
T=$(printf '\t')
mkdir -p "$tmp/b/fuzz"
# the first session is in both histories (a clone that kept its build dir)
{
    echo "2026-11-01T10:00:00Z${T}fio_json${T}600${T}1000000${T}1500${T}5000${T}0"
    echo "2026-11-02T10:00:00Z${T}fio_json${T}3000${T}4000000${T}1600${T}5200${T}0"
    echo "2026-11-02T10:00:00Z${T}pts_xml${T}60${T}20000${T}900${T}3000${T}1"
} >"$tmp/h.tsv"
echo "2026-11-01T10:00:00Z${T}fio_json${T}600${T}1000000${T}1500${T}5000${T}0" >"$tmp/b/fuzz/history.tsv"
echo "2026-11-03T10:00:00Z${T}pts_xml${T}40${T}10000${T}950${T}3100${T}0" >>"$tmp/b/fuzz/history.tsv"
# the committed history: a comment, a line also in h.tsv, one of its own
{
    echo "# carried totals"
    echo "2026-11-02T10:00:00Z${T}pts_xml${T}60${T}20000${T}900${T}3000${T}1"
    echo "2026-10-30T10:00:00Z${T}iozone${T}500${T}7000${T}600${T}2000${T}0"
} >"$tmp/repo.tsv"
export PB_FUZZ_HISTORY="$tmp/h.tsv" PB_FUZZ_BUILD="$tmp/b" PB_FUZZ_RECORD="$tmp/FUZZ.md" \
    PB_FUZZ_REPO_HISTORY="$tmp/repo.tsv"
sh "$src/scripts/fuzz" --totals >"$tmp/out" 2>"$tmp/err" || fail "--totals: exit $?: $(cat "$tmp/err")"
grep -q '^fio_json  *3600s  *2 sessions  *5000000 runs  cov   1600  ft    5200  found 0  met$' "$tmp/out" ||
    fail "fio_json: $(grep fio_json "$tmp/out")"
grep -q '^pts_xml  *100s  *2 sessions  *30000 runs  cov    950  ft    3100  found 1  3500 s to go$' "$tmp/out" ||
    fail "pts_xml: $(grep pts_xml "$tmp/out")"
grep -q '^iozone  *500s  *1 sessions  *7000 runs' "$tmp/out" || fail "iozone: $(grep iozone "$tmp/out")"
grep -q '^fio_log  *0s  *0 sessions' "$tmp/out" || fail "a harness without runs is not listed"
grep -q '^all [0-9]* harnesses: 4200 CPU s; one CPU-hour reached by 1 of ' "$tmp/out" ||
    fail "total: $(tail -1 "$tmp/out")"
sh "$src/scripts/fuzz" --record >/dev/null 2>"$tmp/err" || fail "--record: exit $?: $(cat "$tmp/err")"
grep -q '^| fio_json | 3600 | 2 | 5000000 | 1600 | 5200 | 0 | met |$' "$tmp/FUZZ.md" ||
    fail "FUZZ.md: $(grep fio_json "$tmp/FUZZ.md")"
grep -q 'sessions 2026-10-30T10:00:00Z .. 2026-11-03T10:00:00Z' "$tmp/FUZZ.md" || fail "FUZZ.md sessions"
# the committed history is now the union: its comment first, 5 run lines
[ "$(head -n 1 "$tmp/repo.tsv")" = "# carried totals" ] || fail "repo history: comment not kept first"
[ "$(grep -vc '^#' "$tmp/repo.tsv")" -eq 5 ] || fail "repo history: $(grep -vc '^#' "$tmp/repo.tsv") run lines, not 5"
# and the totals from it alone are the same
PB_FUZZ_HISTORY="$tmp/none.tsv" PB_FUZZ_BUILD="$tmp/none" sh "$src/scripts/fuzz" --totals >"$tmp/out2" 2>&1
cmp -s "$tmp/out" "$tmp/out2" || fail "totals from the recorded history differ: $(diff "$tmp/out" "$tmp/out2")"
# no history at all: usage error
PB_FUZZ_REPO_HISTORY="$tmp/none.tsv" PB_FUZZ_HISTORY="$tmp/none.tsv" PB_FUZZ_BUILD="$tmp/none" \
    sh "$src/scripts/fuzz" --totals >/dev/null 2>&1
[ $? -eq 2 ] || fail "no history: not exit 2"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok"
