#!/bin/sh
# e2e: sweeps of PTS results. Descriptions become test parameters, so fio
# block sizes of one profile make a sweep "by bs" (issue 11 item 6); a
# suite of different programs (C-Ray, BZIP2, GnuPG, SQLite, LAME, all in
# seconds) draws no sweep across programs, by app_version, arguments or
# anything else, while its fio block sizes still do (issue 18 item 4).
# usage: test_report_pts.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/pts-xml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
hasnt() { ! grep -qF -- "$2" "$1" || fail "$1 has: $2"; }
# the rows of the data table of sweep N of index.html, one per line
sweep_rows() {
    awk -v id="id=\"sweep-$2\"" '
        index($0, id) { on = 1 }
        on && /<\/table>/ { exit }
        on && /^<tr><td/ { print }' "$1"
}

# -- storage: fio random read at 4KB/8KB/64KB on two recordsizes
db="$tmp/st.db"
"$pb" ingest -q --db "$db" "$fx/storage-descriptions.xml" 2>/dev/null ||
    fail "ingest storage"
"$pb" report --db "$db" -o "$tmp/st" 2>"$tmp/err" ||
    fail "report: $(cat "$tmp/err")"
h="$tmp/st/index.html"
has "$h" '>PTS result (IOPS) by bs and recordsize</h3>'
ls "$tmp"/st/charts/*-sweep-value-bs-recordsize.svg >/dev/null 2>&1 ||
    fail "no bs sweep chart"
n=$(grep -c '>PTS result (IOPS) by bs and recordsize</h3>' "$h")
[ "$n" = 1 ] || fail "$n bs sweeps"
num=$(awk '/>PTS result \(IOPS\) by bs and recordsize<\/h3>/ { print $0 }' "$h" |
    sed -n 's/.*id="sweep-\([0-9]*\)".*/\1/p')
sweep_rows "$h" "$num" >"$tmp/bs.rows"
[ "$(wc -l <"$tmp/bs.rows")" = 6 ] || fail "bs sweep: $(wc -l <"$tmp/bs.rows") rows, want 6"
# exact values of both configurations at the three block sizes, and
# nothing but the fio random read profile on the axis
for v in 81274 66132 14385 74715 62084 19932; do
    has "$tmp/bs.rows" "<td class=\"r mono\" data-v=\"$v\">$v</td>"
done
for x in '>4k</td>' '>8k</td>' '>64k</td>'; do has "$tmp/bs.rows" "$x"; done
[ "$(grep -c 'Flexible IO Tester: Type: Random Read - IO Engine: Linux AIO' "$tmp/bs.rows")" = 6 ] ||
    fail "bs sweep holds other tests"
# rw varies within IOzone only: fio's write and AIO-Stress's random
# write are other programs
num=$(sed -n 's/.*id="sweep-\([0-9]*\)">PTS result (MB\/s) by rw and recordsize<.*/\1/p' "$h")
if [ -n "$num" ]; then
    sweep_rows "$h" "$num" >"$tmp/rw.rows"
    hasnt "$tmp/rw.rows" 'AIO-Stress'
    hasnt "$tmp/rw.rows" 'Flexible IO Tester'
    [ "$(grep -c 'IOzone: Record Size: 4Kb - File Size: 8GB' "$tmp/rw.rows")" = 4 ] ||
        fail "rw sweep: not the 4 IOzone cells"
fi

# -- a suite of programs: only the fio block sizes make a sweep
db="$tmp/su.db"
"$pb" ingest -q --db "$db" "$fx/suite-programs.xml" 2>/dev/null ||
    fail "ingest suite"
"$pb" report --db "$db" -o "$tmp/su" 2>"$tmp/err" ||
    fail "report: $(cat "$tmp/err")"
h="$tmp/su/index.html"
has "$h" '>PTS result (MB/s) by bs and configuration</h3>'
n=$(grep -c '<h3 id="sweep-' "$h")
[ "$n" = 1 ] || fail "suite: $n sweeps, want the bs one only"
for k in app_version arguments scale tool test; do
    hasnt "$h" "result by $k"
    hasnt "$h" " and $k</h3>"
done
if ls "$tmp"/su/charts/ | grep -q -e 'app-version' -e 'arguments'; then
    fail "a chart by app_version or arguments"
fi
sweep_rows "$h" 1 >"$tmp/su.rows"
[ "$(wc -l <"$tmp/su.rows")" = 6 ] || fail "suite sweep: $(wc -l <"$tmp/su.rows") rows, want 6"
for p in C-Ray BZIP2 GnuPG SQLite LAME; do hasnt "$tmp/su.rows" "$p"; done
# --x app_version is refused: not a dimension the results vary along
if "$pb" report --db "$db" -o "$tmp/su2" --x app_version 2>"$tmp/err"; then
    fail "--x app_version accepted"
fi
has "$tmp/err" "'app_version' is not a dimension the results vary along"

[ $fails -eq 0 ] || exit 1
echo "ok"
