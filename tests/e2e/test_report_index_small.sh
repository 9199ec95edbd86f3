#!/bin/sh
# e2e: the first page of a large report is small (issue 41 item 9). The
# report of every sample folder of fixtures/ (the shape of the corpus: a
# dozen tools, hundreds of cells) is split: index.html holds the summary,
# the first rows of the best table and the links, under a bound of DOM
# elements and bytes; the big tables (best, configurations, sweeps,
# tests, sources) are pages of their own, each linked from index.html;
# charts load lazily with their sizes; the icon is inline; links into a
# section name its page. A report of one file keeps everything on
# index.html. docs/report.md "Pages".
# usage: test_report_index_small.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

cd "$src/fixtures" || exit 1
"$pb" ingest --db "$tmp/a.db" -q --exclude 'bad/*' --exclude 'jobs/*' \
    --exclude '*.expected' --exclude '*.err' --exclude '*.md' \
    --exclude '*.sh' bonnie-csv fio-json fio-jsonplus fio-log fio-terse \
    fio-text iozone notes pts-xml table zfs 2>/dev/null
"$pb" report --db "$tmp/a.db" -o "$tmp/r" -q || fail "report"
idx=$tmp/r/index.html
[ -f "$idx" ] || { echo "FAIL: no index.html" >&2; exit 1; }

# elements: every start tag; bytes of the file
nel=$(grep -o '<[a-zA-Z]' "$idx" | wc -l)
nby=$(wc -c <"$idx")
[ "$nel" -le 800 ] || fail "index.html has $nel elements (> 800)"
[ "$nby" -le 60000 ] || fail "index.html is $nby bytes (> 60000)"
for p in best configs sweeps tests sources; do
    [ -f "$tmp/r/$p.html" ] || fail "no $p.html"
    grep -q "href=\"$p.html\"" "$idx" || fail "index.html does not link $p.html"
    grep -q '<a href="index.html">' "$tmp/r/$p.html" ||
        fail "$p.html does not link index.html"
done
# the best table's top on index.html, all of it on best.html
rows_idx=$(sed -n '/id="best"/,/<\/table>/p' "$idx" | grep -c '<tr')
rows_all=$(grep -c '<tr' "$tmp/r/best.html")
[ "$rows_idx" -le 26 ] || fail "index.html shows $rows_idx best rows"
[ "$rows_all" -gt "$rows_idx" ] || fail "best.html holds no more rows"
# the big tables are not on index.html
grep -q '<section id="sweeps"' "$idx" && fail "sweeps on index.html"
grep -q '<section id="tests"' "$idx" && fail "tests on index.html"
grep -q '<section id="sweeps"' "$tmp/r/sweeps.html" ||
    fail "sweeps.html lacks its section"
# every link of index.html to a page of the report names a file there
grep -o 'href="[a-z0-9-]*\.html' "$idx" | sed 's/href="//' | sort -u \
    >"$tmp/links"
while read -r f; do
    [ -f "$tmp/r/$f" ] || fail "index.html links missing $f"
done <"$tmp/links"
# links to a test from the best table name the page that holds it
if grep -o 'href="#t-[0-9]*"' "$tmp/r/best.html" | grep -q .; then
    fail "best.html links #t-N on itself"
fi
# every page: the inline icon; images lazy with their sizes
for f in "$tmp"/r/*.html; do
    grep -q '<link rel="icon" type="image/png" href="data:image/png;base64,' "$f" ||
        fail "$(basename "$f") has no inline icon"
done
if grep -h -o '<img [^>]*>' "$tmp"/r/*.html | grep -v 'loading="lazy"' |
    grep -q .; then
    fail "an image is not loading=lazy"
fi
if grep -h -o '<img [^>]*>' "$tmp"/r/*.html |
    grep -v 'width="[0-9]*" height="[0-9]*"' | grep -q .; then
    fail "an image has no width and height"
fi
# the report's manifest lists the section pages (a next report replaces
# them)
grep -qx 'sweeps.html' "$tmp/r/.poolbench-report" ||
    fail "sweeps.html not in the manifest"

# one file: a small report stays whole on index.html
"$pb" ingest --db "$tmp/s.db" -q fio-json/fio-3.33_randread_4k_qd4_libaio.json
"$pb" report --db "$tmp/s.db" -o "$tmp/s" -q || fail "small report"
[ -f "$tmp/s/sources.html" ] && fail "a small report was split"
grep -q '<section id="sources"' "$tmp/s/index.html" ||
    fail "small index.html lacks its sources"

[ "$fails" -eq 0 ] || exit 1
echo "ok: index.html $nel elements, $nby bytes; best $rows_idx of $rows_all rows"
