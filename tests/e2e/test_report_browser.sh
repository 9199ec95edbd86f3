#!/bin/sh
# e2e: the report in a real browser (headless chromium): every chart image
# loads, no label runs as script, and no chart text leaves its chart or
# lies on other text as the browser lays it out. Leaves a screenshot of
# the page beside the poolbench binary (report-screenshot.png).
# Skips (77) when chromium is not installed.
# usage: test_report_browser.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
. "$src/tests/e2e/browser_check.sh"
browser_require
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# -- a database with a sweep, repeats, a hostile label, bonnie++, ZFS and
#    fio logs (the "Over time" charts)
db="$tmp/r.db"
f="$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
i=0
for rs in 8k 128k 1m; do
    for comp in off lz4; do
        for rep in 1 2; do
            i=$((i + 1))
            { cat "$f"; printf '%*s\n' "$i" ''; } >"$tmp/run$i.json"
            "$pb" ingest --db "$db" -q --label "zfs rs=$rs $comp" \
                --set recordsize=$rs --set compression=$comp \
                "$tmp/run$i.json" 2>/dev/null || fail "ingest run $i"
        done
    done
done
{ cat "$fx/fio-json/fio-3.33_randread_json-normal.json"; echo; } >"$tmp/x.json"
evil='<script>document.body.setAttribute("data-pwned","1")</script><img src=x onerror="document.body.setAttribute(&quot;data-pwned&quot;,&quot;2&quot;)"> and a label long enough to be wrapped and elided in the charts'
"$pb" ingest --db "$db" -q --label "$evil" "$tmp/x.json" 2>/dev/null ||
    fail "ingest hostile label"
"$pb" ingest --db "$db" -q "$fx/fio-json" "$fx/bonnie-csv" "$fx/zfs" "$fx/fio-log" \
    >/dev/null 2>&1
out="$tmp/out"
"$pb" report --db "$db" -o "$out" -q || fail "report"

# The report is split (docs/report.md "Pages"): index.html and the
# section pages (sweeps.html, tests.html, ...; not STEM-NNN.html) are
# checked; tests.html holds the test sections and their filter box.
pages=$(cd "$out" && ls ./*.html | sed 's|^\./||' |
    grep -v -- '-[0-9][0-9][0-9]\.html$')
tp="$out/index.html"
[ -f "$out/tests.html" ] && tp="$out/tests.html"

# -- the pages themselves: no injected script ran
: >"$tmp/doms.html"
for pg in $pages; do
    run_browser --dump-dom "file://$out/$pg" >"$tmp/dom.html"
    [ -s "$tmp/dom.html" ] || fail "chromium printed no DOM of $pg: $(browser_log)"
    grep -q '<body[^>]*data-pwned' "$tmp/dom.html" && fail "a label ran as script in $pg"
    [ "$(grep -o '<script' "$tmp/dom.html" | wc -l)" = 1 ] ||
        fail "more than the one script of $pg"
    cat "$tmp/dom.html" >>"$tmp/doms.html"
done
grep -q 'setAttribute("data-pwned"' "$tmp/doms.html" ||
    fail "the hostile label is not shown as text"

# -- every chart: loads as an image; its text inside the chart, not on
#    other text (measured by the browser, with its fonts)
charts=$(cd "$out" && cat $pages | sed -n 's/.*<img src="\(charts\/[^"]*\)".*/"\1",/p' | tr -d '\n')
cat >"$out/check.html" <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="result">pending</pre>
<script>
var charts = [$charts], problems = [], loaded = 0, texts = 0, done = 0;
function finish() {
  if (++done < 2 * charts.length) return;
  document.getElementById('result').textContent =
    (problems.length ? 'PROBLEMS\n' + problems.join('\n') : 'OK') +
    '\nloaded=' + loaded + ' charts=' + charts.length + ' texts=' + texts;
}
charts.forEach(function (src) {
  var img = new Image();
  img.onload = function () {
    if (img.naturalWidth > 0) loaded++; else problems.push('empty ' + src);
    finish();
  };
  img.onerror = function () { problems.push('not loaded ' + src); finish(); };
  img.src = src;
  var o = document.createElement('object');
  o.type = 'image/svg+xml';
  o.data = src;
  o.onload = function () {
    var doc = o.contentDocument;
    if (!doc) { problems.push('no document ' + src); finish(); return; }
    var svg = doc.documentElement;
    var W = parseFloat(svg.getAttribute('width')), H = parseFloat(svg.getAttribute('height'));
    var boxes = [];
    Array.prototype.forEach.call(doc.querySelectorAll('text'), function (t) {
      var r = t.getBoundingClientRect();
      texts++;
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
        problems.push('cut: "' + t.textContent + '" in ' + src);
      boxes.push({r: r, s: t.textContent});
    });
    for (var i = 0; i < boxes.length; i++)
      for (var j = i + 1; j < boxes.length; j++) {
        var a = boxes[i].r, b = boxes[j].r;
        var dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        var dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (dx > 1 && dy > 2)
          problems.push('overlap: "' + boxes[i].s + '" / "' + boxes[j].s + '" in ' + src);
      }
    finish();
  };
  o.onerror = function () { problems.push('object failed ' + src); finish(); };
  document.body.appendChild(o);
});
if (!charts.length) finish();
</script></body></html>
EOF
run_browser --dump-dom "file://$out/check.html" >"$tmp/check.html"
result=$(sed -n '/<pre id="result">/,/<\/pre>/p' "$tmp/check.html")
case "$result" in
*'>OK'*) ;;
*) fail "browser check: $result" ;;
esac
n=$(cd "$out" && cat $pages | grep -c '<img src="charts/')
echo "$result" | grep -q "loaded=$n charts=$n" ||
    fail "not every chart loaded: $result (page has $n)"
[ "$n" -ge 5 ] || fail "only $n charts"

# -- responsive (issue 19 item 4): at 1400 and 390 px no table is cut or
#    scrolls hidden (a box that scrolls shows its scrollbar and keeps its
#    first column), the page never scrolls sideways, and no chart text is
#    drawn below 9 px (smallest font-size of each chart x its scale)
fonts=$(for svg in "$out"/charts/*.svg; do
    m=$(grep -o 'font-size="[0-9.]*"' "$svg" | tr -dc '0-9.\n' | sort -n | head -1)
    printf '"charts/%s":%s,' "$(basename "$svg")" "${m:-99}"
done)
sed 's|</body>|<script>window.addEventListener("load",function(){\
var P=[],W=window.innerWidth,F={'"$fonts"'},de=document.documentElement,n=0,sc=0,minpx=99;\
if(de.scrollWidth>W+1)P.push("page scrolls sideways: "+de.scrollWidth+">"+W);\
document.querySelectorAll("table").forEach(function(t,i){\
var box=t.parentElement,cap=t.caption?t.caption.textContent.slice(0,50):"table "+i;n++;\
if(box.className!=="tw"){if(t.getBoundingClientRect().right>W+1)P.push("cut: "+cap);return;}\
if(box.getBoundingClientRect().right>W+1)P.push("box beyond the window: "+cap);\
if(box.scrollWidth>box.clientWidth+1){sc++;var cs=getComputedStyle(box);\
if(cs.overflowX!=="auto"\&\&cs.overflowX!=="scroll")P.push("hidden overflow: "+cap);\
else if(box.offsetHeight-box.clientHeight<8)P.push("no visible scrollbar: "+cap);\
var td=t.querySelector("tbody td");if(td\&\&getComputedStyle(td).position!=="sticky")P.push("first column scrolls away: "+cap);}});\
document.querySelectorAll("figure img").forEach(function(im){\
var f=F[im.getAttribute("src")],s=im.getBoundingClientRect().width/im.naturalWidth,px=f*s;\
if(px<minpx)minpx=px;if(!(px>=9))P.push("chart text "+px.toFixed(1)+" px: "+im.getAttribute("src"));});\
var r=document.createElement("pre");r.id="measure";\
r.textContent=(P.length?"PROBLEMS\\n"+P.join("\\n"):"OK")+"\\ntables="+n+" scrolling="+sc+" minpx="+minpx.toFixed(2);\
document.body.appendChild(r);});</script></body>|' "$tp" >"$out/measure.html"
for w in 1400 390; do
    run_browser --window-size=$w,2000 --dump-dom "file://$out/measure.html" \
        >"$tmp/measure$w.html"
    m=$(sed -n '/<pre id="measure">/,/<\/pre>/p' "$tmp/measure$w.html")
    case "$m" in
    *'>OK'*) echo "at $w px: $(echo "$m" | tail -1 | sed 's/<[^>]*>//g')" ;;
    *) fail "at $w px: $m" ;;
    esac
done

# -- the filter box (issue 19 item 9): added by the script, it hides the
#    tests whose name lacks the words typed
sed 's|</body>|<script>window.addEventListener("load",function(){\
var P=[],i=document.querySelector("nav.toc input.flt"),T=document.querySelectorAll("div.tst,table#single-tests tbody tr");\
function name(t){return t.tagName==="TR"?t.cells[0].textContent:t.querySelector("h3").textContent}\
function shown(){return [].filter.call(T,function(t){return !t.hidden}).length}\
if(!i)P.push("no filter box");else{\
i.value="no-such-test";i.dispatchEvent(new Event("input"));\
if(shown()!==0)P.push("no-such-test shows "+shown());\
i.value="RANDREAD 4k";i.dispatchEvent(new Event("input"));var a=shown();\
if(!(a>0\&\&a<T.length))P.push("randread 4k shows "+a+" of "+T.length);\
[].forEach.call(T,function(t){if(!t.hidden\&\&!/randread.*4k/.test(name(t)))P.push("shown: "+name(t))});\
i.value="";i.dispatchEvent(new Event("input"));if(shown()!==T.length)P.push("cleared shows "+shown());}\
var r=document.createElement("pre");r.id="filter";r.textContent=(P.length?"PROBLEMS\\n"+P.join("\\n"):"OK")+" tests="+T.length;\
document.body.appendChild(r);});</script></body>|' "$tp" >"$out/filter.html"
run_browser --dump-dom "file://$out/filter.html" >"$tmp/filter.html"
m=$(sed -n '/<pre id="filter">/,/<\/pre>/p' "$tmp/filter.html")
case "$m" in
*'>OK'*) ;;
*) fail "filter: $m" ;;
esac

# -- a screenshot to look at, kept under the build dir
shot="$(dirname "$pb")/report-screenshot.png"
browser_shot "$shot" "file://$out/index.html" --window-size=1200,4000 ||
    fail "no screenshot"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "browser checks passed ($n charts); screenshot: $shot"
