#!/bin/sh
# e2e: the bonnie++ table of many distinct machines is read from its own
# ordered query, one page of 1,000 rows in memory (issue 16: 100,000
# machines took 904 MB). 20,000 distinct machines (a real bonnie++ 2.00a
# row, putc 1000 + i K/s for machine m0000i, 720,000 results): the report
# stays under 42 MB peak RSS (before bon16: 99.9 MB; before rep17: 48.4
# MB, a window of the test's 36 metrics x 20,000 machines and a copy of
# the null reason "+++++" per cell; now 36 MB: the window holds only the
# groups a section reads, reasons are stored once), the first row and a
# cell on page 3 are exact (values and colours over all 20,000 rows), 20
# pages.
# The RSS check is skipped under ASan. Skips (77) without python3.
# usage: test_report_bonnie_memory.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
. "$src/tests/e2e/gen_report_inputs.sh"

gen_bonnie_machines 20000 "$tmp/b.csv"
"$pb" ingest --db "$tmp/b.db" "$tmp/b.csv" >/dev/null 2>"$tmp/i.err" || fail "ingest: $(cat "$tmp/i.err")"
grep -q '720000 results' "$tmp/i.err" || fail "ingest: $(cat "$tmp/i.err")"

asan=0
if ldd "$pb" 2>/dev/null | grep -q 'libasan' ||
    nm "$pb" 2>/dev/null | grep -q '__asan_init'; then
    asan=1
fi
if [ "$asan" = 0 ] && [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$tmp/rss" "$pb" report --db "$tmp/b.db" \
        -o "$tmp/rep" >/dev/null 2>"$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
    rss=$(tail -1 "$tmp/rss")
    [ "$rss" -lt 43008 ] || fail "report: peak RSS $rss KB, not under 42 MB"
else
    "$pb" report --db "$tmp/b.db" -o "$tmp/rep" >/dev/null 2>"$tmp/r.err" ||
        fail "report: $(cat "$tmp/r.err")"
    rss="(not measured)"
fi
grep -q '720000 results, 0 charts' "$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
grep -q '19 more pages of long tables' "$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
[ -e "$tmp/rep/bonnie-020.html" ] && [ ! -e "$tmp/rep/bonnie-021.html" ] ||
    fail "not 20 pages: $(ls "$tmp/rep" | grep -c '^bonnie-') more"

rows() { # FILE: rows of the throughput table
    sed -n '/bon_csv2html layout/,/<\/table>/p' "$1" | grep '^<tr><td data-v='
}
# the first row: m00000, 64M, 1k:4096:1024/4, putc 1000 K/s (the red
# end of its column), 99 %CP, the rest +++++ or empty
# a split report (docs/report.md "Pages"): the table's page 1 is bonnie.html
first=$(rows "$tmp/rep/bonnie.html" | head -1)
case $first in
'<tr><td data-v="0"><span class="cf"><span class="sw" style="background:#4e79a7"></span><span>m00000</span></span></td><td class="r" data-v="67108864" title="bonnie++ file_size=64M files=1k max=4k min=1k dirs=4">64M</td><td class="r" data-v="1024" title="bonnie++ file_size=64M files=1k max=4k min=1k dirs=4">1k:4096:1024/4</td><td class="r" data-v="1024000" style="background:#f4b6b6;color:#1a1a1a" title="1000 KiB/s">0.98</td><td class="r" data-v="99" title="99.00%">99</td>'*) ;;
*) fail "index.html: first row '$first'" ;;
esac
[ "$(rows "$tmp/rep/bonnie.html" | wc -l)" = 1000 ] || fail "bonnie.html: not 1000 rows"
# page 3 holds rows 2,001-3,000: m02000 first, putc 3000 K/s = 3072000
# B/s, 2.93 MiB/s, a tenth of the way from red to green over all rows
p3=$(rows "$tmp/rep/bonnie-003.html" | head -1)
case $p3 in
*'<span>m02000</span>'*'<td class="r" data-v="3072000" style="background:#f5c1b6;color:#1a1a1a" title="2.930 MiB/s">2.93</td>'*) ;;
*) fail "bonnie-003.html: first row '$p3'" ;;
esac
grep -q 'rows 2001–3000 of 20000' "$tmp/rep/bonnie-003.html" || fail "bonnie-003.html: title"
[ "$(rows "$tmp/rep/bonnie-020.html" | wc -l)" = 1000 ] || fail "bonnie-020.html: not 1000 rows"
rows "$tmp/rep/bonnie-020.html" | tail -1 | grep -q '<span>m19999</span>.*data-v="21502976" style="background:#bfe3bf' ||
    fail "bonnie-020.html: last row not m19999 at the green end"

[ "$fails" = 0 ] || exit 1
echo "ok: 20000 bonnie++ machines on 20 pages, report peak RSS $rss KB"
