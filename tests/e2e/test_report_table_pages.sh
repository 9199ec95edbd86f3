#!/bin/sh
# e2e: long tables are paged and the raw files are bounded (issue 16,
# report output volume). A summary table (`table` format) of 2,500
# configurations of one test (disks=1..2500, read IOPS 1000 + 37i mod
# 2500: every value 1000..3499 once, shuffled against the names):
# - the test's complete table shows its first and last 25 rows (the best
#   and the worst) on tests.html (a split report's section page,
#   docs/report.md "Pages"; issue 41: a test page does not grow with the
#   configurations) with links "rows 1–1000", "rows 1001–2000",
#   "rows 2001–2500" to t1-all-001.html .. t1-all-003.html, which hold
#   1,000, 1,000 and 500 rows; each configuration is in exactly one of
#   them; rank 1001 is disks=1528 with 2499 IOPS; the pages link their
#   neighbours; "All metrics of this test" lists 100 rows; headless
#   Chromium loads a page with its 500 rows;
# - --raw-rows 1000 (< 5,000 results): no results.csv/json, the page says
#   so with the exact export command, the report says so on stderr;
#   --raw-rows 0 and the default (100,000) write them whole;
# - exactly 1,000 configurations: the ends and one page of all 1,000;
# - IOPS-against-latency tables (bench/gen_scale.py, 340 configurations,
#   1,020 rows each) are all on pages of their own, exact first row of
#   page 2, every configuration's 3 points once.
# Skips (77) without python3.
# usage: test_report_table_pages.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
. "$src/tests/e2e/gen_report_inputs.sh"

gen_table_configs 2500 "$tmp/t.tsv"
(cd "$tmp" && "$pb" ingest -q --db t.db --format table t.tsv) ||
    fail "ingest 2500"
(cd "$tmp" && "$pb" report --db t.db -o rep --raw-rows 1000 \
    >/dev/null 2>r.err) || fail "report: $(cat "$tmp/r.err")"
rep=$tmp/rep
grep -qx 'poolbench: wrote rep/index.html: 5000 results, 1 charts, 7 tables, 3 more pages of long tables' "$tmp/r.err" ||
    fail "report summary: $(cat "$tmp/r.err")"
grep -qx 'poolbench: results.csv and results.json not written (5000 results, --raw-rows 1000); index.html names the export command' "$tmp/r.err" ||
    fail "report: no line on the raw files: $(cat "$tmp/r.err")"

# rows of the complete table: "rank|label" per row
rows() { # FILE
    sed -n '/All 2500 configurations of this test/,/<\/table>/p' "$1" |
        grep '^<tr><td' | sed -e 's/<[^>]*>/|/g' -e 's/||*/|/g' | cut -d'|' -f2,3
}
# the ends on tests.html: ranks 1..25 and 2476..2500
ends() {
    sed -n '/<caption>All 2500 configurations of this test/,/<\/table>/p' "$1" |
        grep '^<tr><td' | sed -e 's/<[^>]*>/|/g' -e 's/||*/|/g' | cut -d'|' -f2
}
[ "$(ends "$rep/tests.html" | tr '\n' ' ')" = "$(
    { seq 1 25; seq 2476 2500; } | tr '\n' ' ')" ] ||
    fail "tests.html: rows $(ends "$rep/tests.html" | tr '\n' ' '), not the first and last 25"
[ "$(grep -c '<tr><td' "$rep/tests.html")" = 150 ] ||
    fail "tests.html: $(grep -c '<tr><td' "$rep/tests.html") rows, not 50 + 100 of All metrics"
[ "$(rows "$rep/t1-all-001.html" | wc -l)" = 1000 ] ||
    fail "t1-all-001.html: $(rows "$rep/t1-all-001.html" | wc -l) rows, not 1000"
[ "$(rows "$rep/t1-all-002.html" | wc -l)" = 1000 ] ||
    fail "t1-all-002.html: $(rows "$rep/t1-all-002.html" | wc -l) rows, not 1000"
[ "$(rows "$rep/t1-all-003.html" | wc -l)" = 500 ] ||
    fail "t1-all-003.html: $(rows "$rep/t1-all-003.html" | wc -l) rows, not 500"
[ -e "$rep/t1-all-004.html" ] && fail "a fourth page"
{ rows "$rep/t1-all-001.html"; rows "$rep/t1-all-002.html"; rows "$rep/t1-all-003.html"; } >"$tmp/all"
[ "$(cut -d'|' -f2 "$tmp/all" | sort -u | wc -l)" = 2500 ] ||
    fail "pages: $(cut -d'|' -f2 "$tmp/all" | sort -u | wc -l) distinct configurations, not 2500"
[ "$(cut -d'|' -f1 "$tmp/all" | tr '\n' ' ')" = "$(seq 1 2500 | tr '\n' ' ')" ] ||
    fail "pages: ranks are not 1..2500 in order"
# rank 1 is the best (3499 IOPS: 37i = 2499 mod 2500, i = 2027), rank
# 1001 the first row of page 2 (2499 IOPS: i = 1527)
grep -q '<tr><td class="r" data-v="1">1</td><td[^>]*>t.tsv table 1: disks=2028</td><td class="r b" data-v="3499">3499 IOPS</td></tr>' "$rep/tests.html" ||
    fail "tests.html: rank 1 is not disks=2028 with 3499 IOPS"
grep -q '<tr><td class="r" data-v="1001">1001</td><td[^>]*>t.tsv table 1: disks=1528</td><td class="r" data-v="2499">2499 IOPS</td></tr>' "$rep/t1-all-002.html" ||
    fail "t1-all-002.html: rank 1001 is not disks=1528 with 2499 IOPS"
grep -q '<tr><td class="r" data-v="2500">2500</td><td[^>]*>t.tsv table 1: disks=1</td><td class="r" data-v="1000">1000 IOPS</td></tr>' "$rep/t1-all-003.html" ||
    fail "t1-all-003.html: rank 2500 is not disks=1 with 1000 IOPS"
grep -q '<tr><td class="r" data-v="1">1</td><td[^>]*>t.tsv table 1: disks=2028</td>' "$rep/t1-all-001.html" ||
    fail "t1-all-001.html: rank 1 is not disks=2028"
grep -q '<tr><td class="r" data-v="2500">2500</td><td[^>]*>t.tsv table 1: disks=1</td><td class="r" data-v="1000">1000 IOPS</td></tr>' "$rep/tests.html" ||
    fail "tests.html: the last row is not rank 2500, disks=1"
# the note and links where the table stands, the pages' links
grep -q '<caption>All 2500 configurations of this test: the first 25 and the last 25 of 2500 rows</caption>' "$rep/tests.html" ||
    fail "tests.html: no caption of the ends"
grep -q '<p class="note">All 2500 configurations of this test: 2500 rows, on 3 pages of their own (at most 1000 rows each' "$rep/tests.html" ||
    fail "tests.html: no note of the pages"
grep -q '<p class="pager" id="t1-all"><a href="t1-all-001.html">rows 1–1000</a> <a href="t1-all-002.html">rows 1001–2000</a> <a href="t1-all-003.html">rows 2001–2500</a></p>' "$rep/tests.html" ||
    fail "tests.html: no links to the pages"
grep -q '<a href="t1-all-001.html">← page 1</a><a href="t1-all-003.html">page 3 →</a>' "$rep/t1-all-002.html" ||
    fail "t1-all-002.html: links"
grep -q '<a href="t1-all-002.html">← page 2</a></p>' "$rep/t1-all-003.html" ||
    fail "t1-all-003.html: links"
grep -q '<title>[^<]*randread bs=4k: all 2500 configurations, page 3 of 3: rows 2001–2500 of 2500</title>' "$rep/t1-all-003.html" ||
    fail "t1-all-003.html: title"
for f in "$rep"/*.html; do
    [ "$(wc -c <"$f")" -lt 5000000 ] || fail "$f: 5 MB or more"
done

# the raw files: not written past --raw-rows, and the page says why
[ -e "$rep/results.csv" ] && fail "results.csv written past --raw-rows"
[ -e "$rep/results.json" ] && fail "results.json written past --raw-rows"
grep -q '<p class="data">This report summarises 5000 results, more than the 1000 that it writes as results.csv and results.json (report --raw-rows), so it writes neither\..*Every result: <code>poolbench export --db t.db --csv -o results.csv</code></p>' "$rep/index.html" ||
    fail "index.html: no note on the raw files"
grep -q '1500 more configurations are not listed here; &#39;poolbench list configs&#39; lists them all, and the export command at the top has the parameters of every result\.' "$rep/configs.html" ||
    fail "configs.html: the configurations' note names results.csv, which is not written"
(cd "$tmp" && "$pb" report -q --db t.db -o rep0 --raw-rows 0 --test 'rand.*4k' --config "disks=1\$") ||
    fail "report --raw-rows 0"
[ "$(wc -l <"$tmp/rep0/results.csv")" = 3 ] ||
    fail "--raw-rows 0: results.csv has $(wc -l <"$tmp/rep0/results.csv") lines, want 3"
(cd "$tmp" && "$pb" report -q --db t.db -o rep1 --raw-rows 10 --test 'rand.*4k' --config "disks=1\$") ||
    fail "report --raw-rows 10"
[ -e "$tmp/rep1/results.csv" ] || fail "--raw-rows 10: 2 results, no results.csv"
(cd "$tmp" && "$pb" report -q --db t.db -o rep2 --raw-rows 1 --test 'rand.*4k' --config "disks=1\$") ||
    fail "report --raw-rows 1"
grep -qF "<code>poolbench export --db t.db --csv --test &#39;rand.*4k&#39; --config &#39;disks=1\$&#39; -o results.csv</code>" "$tmp/rep2/index.html" ||
    fail "--raw-rows 1: the export command does not carry the filter"
(cd "$tmp" && "$pb" report -q --db t.db -o rep3) || fail "report (default)"
[ "$(wc -l <"$tmp/rep3/results.csv")" = 5001 ] ||
    fail "default: results.csv has $(wc -l <"$tmp/rep3/results.csv") lines, want 5001"
(cd "$tmp" && "$pb" report -q --db t.db -o rep4 --raw-rows -1 2>"$tmp/u.err")
[ $? = 2 ] || fail "--raw-rows -1: not a usage error"

# exactly 1,000 configurations: one page
gen_table_configs 1000 "$tmp/s.tsv"
(cd "$tmp" && "$pb" ingest -q --db s.db --format table s.tsv &&
    "$pb" report --db s.db -o srep >/dev/null 2>s.err) || fail "report 1000"
[ "$(ls "$tmp/srep" | grep '^t1-all-' | tr '\n' ' ')" = "t1-all-001.html " ] ||
    fail "1000 configurations: pages $(ls "$tmp/srep" | grep '^t1-all-' | tr '\n' ' ')"
[ "$(grep -c '<tr><td' "$tmp/srep/t1-all-001.html")" = 1000 ] ||
    fail "1000 configurations: t1-all-001.html has not 1000 rows"
grep -q 'all 1000 rows, in the table.s order, on a page of their own' "$tmp/srep/tests.html" ||
    fail "1000 configurations: no note of its page"
grep -q ', 1 more pages of long tables$' "$tmp/s.err" ||
    fail "1000 configurations: summary '$(cat "$tmp/s.err")'"

# IOPS against latency: one table per family and direction, so past
# 1,000 rows all of them go on pages (bench/gen_scale.py: 340
# configurations of a nightly run, iodepth 1, 4, 16: 1,020 rows a table)
if python3 "$src/bench/gen_scale.py" fio-db --seed \
    "$src/fixtures/fio-json/fio-3.33_three-jobs.json" --results 293760 \
    --out "$tmp/g" >/dev/null; then
    (cd "$tmp" && "$pb" ingest -q --db g.db g && "$pb" report -q --db g.db -o grep) ||
        fail "report of 340 configurations"
    il=$tmp/grep/iops-latency-1-read
    grep -q '<p class="note">Data: fio read bs=4k direct=1: read IOPS against mean completion latency by iodepth: 1020 rows, on 2 pages of their own (at most 1000 rows each, in the table.s order).</p>' "$tmp/grep/iops-latency.html" ||
        fail "iops-latency.html: no note of the IOPS-latency pages"
    grep -q '<p class="pager" id="iops-latency-1-read"><a href="iops-latency-1-read-001.html">rows 1–1000</a> <a href="iops-latency-1-read-002.html">rows 1001–1020</a></p>' "$tmp/grep/iops-latency.html" ||
        fail "iops-latency.html: no links to the IOPS-latency pages"
    grep -q '<caption>Data: fio read bs=4k direct=1: read IOPS against' "$tmp/grep/iops-latency.html" &&
        fail "iops-latency.html: the IOPS-latency table of 1,020 rows is in place"
    [ "$(grep -c '<tr><td' "$il-001.html")" = 1000 ] || fail "$il-001.html: not 1000 rows"
    [ "$(grep -c '<tr><td' "$il-002.html")" = 20 ] || fail "$il-002.html: not 20 rows"
    grep -q '<tr><td data-v="333"><span class="cf"><span class="sw" style="background:#76b7b2"></span><span>nightly-000333 zfs raidz3 recordsize=16k compression=off sync=disabled</span></span></td><td class="r" data-v="4">4</td><td class="r" data-v="2960.362273">2960 IOPS</td><td class="r" data-v="196857.0342">196.9 µs</td>' "$il-002.html" ||
        fail "$il-002.html: first row"
    grep -q '<a href="iops-latency-1-read-001.html">← page 1</a>' "$il-002.html" ||
        fail "$il-002.html: no link to page 1"
    [ "$(cat "$il-001.html" "$il-002.html" | grep -o '<span>nightly-[0-9]*' | sort | uniq -c | awk '$1 == 3' | wc -l)" = 340 ] ||
        fail "IOPS-latency pages: not 3 points of each of 340 configurations"
else
    fail "bench/gen_scale.py"
fi

# a page in a browser: the table with its 500 rows, sortable
. "$src/tests/e2e/browser_check.sh"
if browser_find; then
    n=$(run_browser --dump-dom "file://$rep/t1-all-003.html" |
        grep -o '<tr><td' | wc -l)
    [ "$n" = 500 ] || fail "chromium: t1-all-003.html shows $n rows, not 500 ($(browser_log))"
else
    echo "no chromium: the page is not loaded in a browser"
fi

[ "$fails" = 0 ] || exit 1
echo "ok: 2500 configurations: their ends in place, all on 3 pages; raw files bounded by --raw-rows"
