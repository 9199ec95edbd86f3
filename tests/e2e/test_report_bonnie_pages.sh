#!/bin/sh
# e2e: a bonnie++ table of many machines is paged (issue 16: 100,000
# distinct machines made a 356 MB index.html). 2,500 distinct machines
# (a real bonnie++ 2.00a row, putc 1000 + i K/s for machine m0000i):
# bonnie.html (a section page, docs/report.md "Pages") holds the first 1,000 rows and links pages 2 and 3;
# bonnie-002.html holds rows 1,001-2,000, bonnie-003.html the last 500,
# each machine exactly once over the three pages, every page's links
# lead to its neighbours, and the colours compare all 2,500 (the slowest
# machine, on page 1, is the red end, the fastest, on page 3, the green).
# 1,000 machines: one page, no links. Skips (77) without python3.
# usage: test_report_bonnie_pages.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
. "$src/tests/e2e/gen_report_inputs.sh"

gen_bonnie_machines 2500 "$tmp/b.csv"
"$pb" ingest --db "$tmp/b.db" "$tmp/b.csv" >/dev/null 2>"$tmp/i.err" || fail "ingest: $(cat "$tmp/i.err")"
"$pb" report --db "$tmp/b.db" -o "$tmp/rep" >/dev/null 2>"$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
grep -q "2 more pages of long tables" "$tmp/r.err" || fail "report: summary '$(cat "$tmp/r.err")'"
rows() { # FILE: machine names in the throughput table
    sed -n '/bon_csv2html layout/,/<\/table>/p' "$1" | grep -o '>m[0-9]\{5\}<' | tr -d '<>'
}
[ "$(rows "$tmp/rep/bonnie.html" | wc -l)" = 1000 ] || fail "bonnie.html: $(rows "$tmp/rep/bonnie.html" | wc -l) rows, not 1000"
[ "$(rows "$tmp/rep/bonnie-002.html" | wc -l)" = 1000 ] || fail "bonnie-002.html: not 1000 rows"
[ "$(rows "$tmp/rep/bonnie-003.html" | wc -l)" = 500 ] || fail "bonnie-003.html: not 500 rows"
[ -e "$tmp/rep/bonnie-004.html" ] && fail "a fourth page"
{ rows "$tmp/rep/bonnie.html"; rows "$tmp/rep/bonnie-002.html"; rows "$tmp/rep/bonnie-003.html"; } >"$tmp/all"
[ "$(sort -u "$tmp/all" | wc -l)" = 2500 ] || fail "pages: $(sort -u "$tmp/all" | wc -l) distinct machines, not 2500"
rows "$tmp/rep/bonnie-002.html" | head -1 | grep -qx m01000 || fail "bonnie-002.html does not start at m01000"
grep -q '2500 rows (machine and size): the first 1000 here, all on 3 pages' "$tmp/rep/bonnie.html" || fail "bonnie.html: no note of the pages"
grep -q '<a href="bonnie-002.html">2</a> <a href="bonnie-003.html">3</a>' "$tmp/rep/bonnie.html" || fail "bonnie.html: no links to pages 2 and 3"
grep -q '<a href="bonnie.html#bonnie">← page 1</a><a href="bonnie-003.html">page 3 →</a>' "$tmp/rep/bonnie-002.html" || fail "bonnie-002.html: links"
grep -q '<a href="bonnie-002.html">← page 2</a></p>' "$tmp/rep/bonnie-003.html" || fail "bonnie-003.html: links"
grep -q 'rows 2001–2500 of 2500' "$tmp/rep/bonnie-003.html" || fail "bonnie-003.html: title"
# colours over all rows: m00000 (1000 K/s) is the lowest, m02499 the highest
c0=$(grep -o '<td[^>]*>[^<]*</td>' "$tmp/rep/bonnie.html" | grep -m1 '>0.98<' | grep -o 'background:[^;"]*')
c1=$(grep -o '<td[^>]*>[^<]*</td>' "$tmp/rep/bonnie-003.html" | grep -m1 '>3.42<' | grep -o 'background:[^;"]*')
[ -n "$c0" ] && [ -n "$c1" ] && [ "$c0" != "$c1" ] || fail "colours: slowest '$c0', fastest '$c1'"
c2=$(grep -o '<td[^>]*>[^<]*</td>' "$tmp/rep/bonnie-002.html" | grep -m1 '>1.95<' | grep -o 'background:[^;"]*')
[ -n "$c2" ] && [ "$c2" != "$c0" ] && [ "$c2" != "$c1" ] || fail "colours: middle '$c2' (slowest '$c0', fastest '$c1')"

# 1,000 machines: one page
gen_bonnie_machines 1000 "$tmp/s.csv"
"$pb" ingest --db "$tmp/s.db" "$tmp/s.csv" >/dev/null 2>&1
"$pb" report --db "$tmp/s.db" -o "$tmp/srep" >/dev/null 2>"$tmp/s.err" || fail "report 1000: $(cat "$tmp/s.err")"
[ "$(rows "$tmp/srep/bonnie.html" | wc -l)" = 1000 ] || fail "1000 machines: not 1000 rows"
ls "$tmp/srep" | grep -q '^bonnie-' && fail "1000 machines: a page of its own"
grep -q 'more pages' "$tmp/s.err" && fail "1000 machines: summary '$(cat "$tmp/s.err")'"

[ "$fails" = 0 ] || exit 1
echo "ok: 2500 bonnie++ machines on 3 pages, 1000 on one"
