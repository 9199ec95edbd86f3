#!/bin/sh
# e2e (issue 42 item 9, "errors that contradict themselves"): --x/--series
# that cannot be drawn get one line, in full, that says which combination
# is impossible and why, and what can be drawn instead; a mistyped key gets
# the nearest one and every key there is. Before, "--x layout --series
# l2arc" answered "'layout' is not a dimension the results vary along
# (they vary along: l2arc, layout, slog)", and long lists were cut at 255
# bytes.
# usage: test_sweep_errors.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# refused ARGS...: exit 2 and the whole stderr in $tmp/err
refused() {
    "$pb" report -q --db "$db" -o "$tmp/r" "$@" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$*: exit $rc, want 2: $(cat "$tmp/err")"
}
is() { [ "$(cat "$tmp/err")" = "$1" ] || fail "got: $(cat "$tmp/err")
want: $1"; }
cd "$src/fixtures" || exit 1

# -- 1. the coded bonnie++ machines and their sheet
db="$tmp/s.db"
"$pb" ingest -q --db "$db" --configs sheets/hosts.csv sheets/coded-machines.csv \
    2>/dev/null || fail "ingest sheets"
# layout varies, l2arc varies, but not together: said so, with what can
refused --x layout --series l2arc
is "poolbench: no sweep of random seeks by layout and l2arc: l2arc=yes was measured only with layout=raidz2 (host_4.4_c), and a sweep needs two values of layout, each measured at two values of l2arc, with every other dimension the same; layout can be swept with --series slog, or alone"
grep -q "is not a dimension the results vary along" "$tmp/err" &&
    fail "a dimension the results vary along is denied"
refused --x layout --series layout
is "poolbench: no sweep of random seeks by layout and layout: --x and --series name the same dimension"
refused --series l2arc
is "poolbench: no sweep of random seeks with the series l2arc: no two results differ in l2arc alone: those with other values of l2arc differ in layout, slog too"
# a key that does not vary here: its one value
refused --x vdevs
is "poolbench: 'vdevs' is not a dimension the results vary along: every result here has vdevs=1 (they vary along: l2arc, layout, slog)"
# what it suggests is drawn
"$pb" report -q --db "$db" -o "$tmp/ok" --x layout --series slog 2>"$tmp/err" ||
    fail "--x layout --series slog: $(cat "$tmp/err")"
grep -q '<h3 id="sweep-1">random seeks by layout and slog</h3>' "$tmp/ok/index.html" ||
    fail "no sweep by layout and slog"

# -- 2. the layout study: the same question, a longer answer (345 bytes),
# said of the metric with the most results, whole
db="$tmp/l.db"
"$pb" ingest -q --db "$db" --configs sheets/layout-study-sheet.csv \
    sheets/layout-study.csv 2>/dev/null || fail "ingest the layout study"
refused --x layout --series l2arc
is "poolbench: no sweep of sequential output, block by layout and l2arc: layout=mirror was measured only with l2arc=no (lab03, lab04, lab05, ...); layout=stripe was measured only with l2arc=no (lab01, lab02), and a sweep needs two values of layout, each measured at two values of l2arc, with every other dimension the same; layout can be swept with --series disks, or alone"

# -- 3. the notes: a typo, and every key in full
db="$tmp/n.db"
"$pb" ingest -q --db "$db" notes/*.txt 2>/dev/null || fail "ingest notes"
refused --x ashfit
keys=$( (echo config; sqlite3 "$db" "SELECT key FROM config_param UNION
         SELECT key FROM test_param") | sort -u | paste -sd, - | sed 's/,/, /g')
is "poolbench: report: --x 'ashfit' is not a dimension of these results; did you mean 'ashift'? (their dimensions: $keys)
Try 'poolbench report --help'."
[ "$(head -1 "$tmp/err" | wc -c)" -gt 256 ] || fail "the case does not test the length"
refused --series recordsze
grep -q "^poolbench: report: --series 'recordsze' is not a dimension of these results; did you mean 'recordsize'? " "$tmp/err" ||
    fail "--series typo: $(cat "$tmp/err")"
refused --x sync
is "poolbench: 'sync' is not a dimension the results vary along: every result here has sync=always (they vary along: ashift, atime, disks_per_vdev, layout, recordsize, slog, slog_vdevs, vdevs, write_cache)"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "sweep error checks passed"
