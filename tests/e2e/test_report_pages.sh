#!/bin/sh
# e2e: a report too big for one page (a PTS result file of 230 tests on
# two systems, 230 charts): "Results by test" goes on pages of their own
# (tests-001.html ...) with inline SVG charts, linked and explained from
# index.html; nothing is lost, links resolve, labels stay escaped, reruns
# are byte-identical, stale pages go; 60 tests of 40 configurations go on
# pages by the rows of their tables; in chromium (when installed) every
# inline chart's text stays inside its chart and off other text.
# usage: test_report_pages.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

ntests=230
evil='zfs <script>alert(1)</script> & "q"'
{
    echo '<?xml version="1.0"?>'
    echo '<PhoronixTestSuite>'
    echo '  <Generated><Title>pages</Title><TestClient>Phoronix Test Suite v10.8.4</TestClient></Generated>'
    echo '  <System><Identifier>ext4 mdraid1</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    echo '  <System><Identifier>zfs &lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    i=1
    while [ $i -le $ntests ]; do
        cat <<EOF
  <Result>
    <Identifier>pts/fio-2.1.0</Identifier>
    <Title>Flexible IO Tester</Title>
    <Description>Type: Random Read - Block Size: 4KB - Pass: $i</Description>
    <Scale>MB/s</Scale>
    <Proportion>HIB</Proportion>
    <Data>
      <Entry><Identifier>ext4 mdraid1</Identifier><Value>$((100 + i)).5</Value><RawString>$((100 + i)).4:$((100 + i)).6</RawString></Entry>
      <Entry><Identifier>zfs &lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</Identifier><Value>$((90 + 2 * i)).25</Value><RawString>$((90 + 2 * i)).2:$((90 + 2 * i)).3</RawString></Entry>
    </Data>
  </Result>
EOF
        i=$((i + 1))
    done
    echo '</PhoronixTestSuite>'
} >"$tmp/big.xml"
db="$tmp/p.db"
"$pb" ingest --db "$db" -q "$tmp/big.xml" 2>"$tmp/ingest.err" ||
    fail "ingest: $(cat "$tmp/ingest.err")"

out="$tmp/out"
"$pb" report --db "$db" -o "$out" 2>"$tmp/err" || fail "report: $(cat "$tmp/err")"
h="$out/index.html"
grep -q "$ntests results\|$((2 * ntests)) results" "$tmp/err" || fail "summary: $(cat "$tmp/err")"
grep -q ', 3 test pages' "$tmp/err" || fail "summary lacks the pages: $(cat "$tmp/err")"
for p in 001 002 003; do
    [ -s "$out/tests-$p.html" ] || fail "no tests-$p.html"
done
[ -e "$out/tests-004.html" ] && fail "a fourth page"
# the index links Results by test, tests.html (a split report: docs/
# report.md "Pages"), which says why and links every page
has "$h" '<a href="tests.html">Results by test</a>'
t="$out/tests.html"
has "$t" 'too many for one page'
has "$t" "$ntests tests have charts of their own ($ntests charts)"
for p in 001 002 003; do
    has "$t" "<a href=\"tests-$p.html\">"
done
has "$h" 'inline SVG on the test pages'
# charts: files only for the index and the section pages, inline on the
# test pages
nimg=$(cat "$out"/*.html | grep -c '<img src="charts/')
nsvg=$(ls "$out"/charts/*.svg 2>/dev/null | wc -l)
[ "$nimg" = "$nsvg" ] || fail "$nimg charts on the index, $nsvg files"
ninline=$(cat "$out"/tests-*.html | grep -c '^<figure[^>]*><svg xmlns=')
[ "$ninline" = "$ntests" ] || fail "$ninline inline charts for $ntests tests"
for p in "$out"/tests-*.html; do
    n=$(grep -c '^<figure[^>]*><svg xmlns=' "$p")
    [ "$n" -le 100 ] || fail "$n charts on $p"
    [ "$(grep -c '<script' "$p")" = 1 ] || fail "a label became a script in $p"
    grep -o 'https\?://[^"]*' "$p" | grep -v '^http://www.w3.org/2000/svg$' &&
        fail "$p references the network"
    grep -o 'href="[^"]*"' "$p" | grep -v '^href="\(index.html\|tests.html#t-single\|tests-[0-9]*.html\|#\|charts/[0-9]*-[a-z0-9-]*\.csv"\|data:image/png;base64,\)' &&
        fail "non-local href in $p"
    grep -o 'src="[^"]*"' "$p" && fail "$p loads something"
done
# every test once, numbers and the hostile label on the pages
ntitle=$(cat "$out"/tests-*.html | grep -c '^<h3 id="t-[0-9]*">')
[ "$ntitle" = "$ntests" ] || fail "$ntitle test sections for $ntests tests"
has "$out/tests-001.html" '>101.5<'
has "$out/tests-003.html" "$((90 + 2 * ntests)).25"
has "$out/tests-002.html" '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;'
# links of the best table land on a section of that page
grep -o 'href="tests-[0-9]*.html#t-[0-9]*"' "$h" | sed 's/href="\(.*\)#\(.*\)"/\1 \2/' |
    sort -u >"$tmp/links"
[ -s "$tmp/links" ] || fail "the best table links no test page"
while read -r page id; do
    grep -q "<h3 id=\"$id\">" "$out/$page" || fail "$page has no $id"
done <"$tmp/links"
# byte-identical on a second run; a smaller report removes stale pages
"$pb" report --db "$db" -o "$tmp/out2" -q || fail "second report"
diff -r "$out" "$tmp/out2" >/dev/null || fail "second run differs"
db2="$tmp/small.db"
head -n 16 "$tmp/big.xml" >"$tmp/small.xml"
echo '</PhoronixTestSuite>' >>"$tmp/small.xml"
"$pb" ingest --db "$db2" -q "$tmp/small.xml" 2>/dev/null || fail "ingest small"
"$pb" report --db "$db2" -o "$out" -q || fail "small report over the big one"
ls "$out"/tests-*.html >/dev/null 2>&1 && fail "stale test pages left"
grep -q 'tests-001.html' "$out/index.html" && fail "small index links pages"

# -- pages by weight: 60 fio tests (randwrite at iodepth 1..60) of 40
#    configurations each: 180 charts, none reduced, but 680 table rows a
#    test (the table under each chart, "All metrics"). Rows count one
#    chart per 100, so the tests go on pages and every page stays small
#    (counted only for tests of more than 40 configurations, this was one
#    index.html of about 13 MB)
if command -v python3 >/dev/null 2>&1; then
    python3 - "$src/fixtures/fio-json/fio-3.33_three-jobs.json" \
        "$tmp/seed.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
job = [j for j in d["jobs"] if j["jobname"] == "randwrite-8k"][0]
d["jobs"] = []
for q in range(1, 61):
    j = copy.deepcopy(job)
    j["job options"]["iodepth"] = str(q)
    d["jobs"].append(j)
json.dump(d, open(sys.argv[2], "w"), indent=2, separators=(",", " : "))
PY
    python3 "$src/bench/gen_many.py" "$tmp/seed.json" "$tmp/w40" 40 ||
        fail "generate 60 tests x 40"
    "$pb" ingest --db "$tmp/w.db" -q "$tmp/w40" || fail "ingest 60 tests x 40"
    "$pb" report --db "$tmp/w.db" -o "$tmp/w" -q || fail "report 60 tests x 40"
    has "$tmp/w/tests.html" 'a test counts one more per 100 rows of its tables'
    ls "$tmp/w"/tests-*.html >/dev/null 2>&1 || fail "60 x 40: no test pages"
    [ "$(cat "$tmp"/w/tests-*.html | grep -c '^<h3 id="t-[0-9]*">')" = 60 ] ||
        fail "60 x 40: not 60 test sections on the pages"
    for p in "$tmp"/w/index.html "$tmp"/w/tests-*.html; do
        [ -e "$p" ] || continue
        size=$(wc -c <"$p")
        [ "$size" -lt 4000000 ] || fail "60 x 40: $(basename "$p") is $size bytes"
    done
else
    echo "no python3: the pages by weight are not checked" >&2
fi

# -- in a browser: the inline charts' text inside them, not on other text
. "$src/tests/e2e/browser_check.sh"
if browser_find; then
    sed 's#</body>#<script>(function(){var svgs=document.querySelectorAll("figure svg"),bad=[],texts=0;Array.prototype.forEach.call(svgs,function(s){var R=s.getBoundingClientRect(),b=[];Array.prototype.forEach.call(s.querySelectorAll("text"),function(t){var r=t.getBoundingClientRect();texts++;if(r.left<R.left-1||r.top<R.top-1||r.right>R.right+1||r.bottom>R.bottom+1)bad.push("cut: "+t.textContent);b.push({r:r,s:t.textContent})});for(var i=0;i<b.length;i++)for(var j=i+1;j<b.length;j++){var x=b[i].r,y=b[j].r,dx=Math.min(x.right,y.right)-Math.max(x.left,y.left),dy=Math.min(x.bottom,y.bottom)-Math.max(x.top,y.top);if(dx>1\&\&dy>2)bad.push("overlap: "+b[i].s+" / "+b[j].s)}});document.body.setAttribute("data-check",(bad.length?"PROBLEMS "+bad.slice(0,5).join("; "):"OK")+" svgs="+svgs.length+" texts="+texts)})();</script></body>#' \
        "$tmp/out2/tests-002.html" >"$tmp/out2/check.html"
    browser_budget=
    run_browser --window-size=1200,900 \
        --dump-dom "file://$tmp/out2/check.html" >"$tmp/dom.html"
    result=$(grep -o 'data-check="[^"]*"' "$tmp/dom.html")
    case "$result" in
    *'"OK svgs=100 '*) echo "browser: $result" ;;
    *) fail "browser check of tests-002.html: ${result:-no result} $(browser_log)" ;;
    esac
    grep -q '<body[^>]*data-pwned' "$tmp/dom.html" && fail "a label ran as script"
else
    echo "no chromium: browser check skipped" >&2
fi

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all paged report checks passed"
