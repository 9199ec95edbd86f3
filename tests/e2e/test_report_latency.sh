#!/bin/sh
# e2e: latency distributions from fio json+ bins (issue 13 item 1). Two
# configurations of one randrw test, the read test alone (its own
# "Latency distributions" section) plus a hostile label; the report has a
# CDF, a percentile ladder and a histogram per direction with exact
# numbers in their tables, the --latency-axis choice, and every chart
# checked in headless chromium (loads, no text cut or on other text, no
# label run as script). Skips (77) the browser part without chromium.
# usage: test_report_latency.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-jsonplus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

db="$tmp/l.db"
"$pb" ingest --db "$db" -q --label "zfs rs=16k" \
    "$fx/fio-3.33_randrw-nj1_json-plus.json" 2>/dev/null || fail "ingest 1"
"$pb" ingest --db "$db" -q --label "zfs rs=128k" \
    "$fx/fio-3.33_randrw-nj1-run2_json-plus.json" 2>/dev/null || fail "ingest 2"
"$pb" ingest --db "$db" -q "$fx/fio-3.33_read-nj1_json-plus.json" \
    2>/dev/null || fail "ingest 3"
{ cat "$fx/fio-3.33_write-nj4_json-plus.json"; echo; } >"$tmp/w.json"
evil='<script>document.body.setAttribute("data-pwned","1")</script> & w'
"$pb" ingest --db "$db" -q --label "$evil" "$tmp/w.json" 2>/dev/null ||
    fail "ingest hostile label"
n=$(sqlite3 "$db" "SELECT count(*) || ' ' || sum(total) FROM latency_hist")
[ "$n" = "14 10240" ] || fail "latency_hist rows/total: $n"

out="$tmp/out"
"$pb" report --db "$db" -o "$out" -q || fail "report"
h="$out/index.html"
for c in lat-1-read-cdf lat-1-read-ladder lat-1-read-hist lat-1-write-cdf \
    lat-1-write-ladder lat-1-write-hist; do
    ls "$out"/charts/*-"$c".svg >/dev/null 2>&1 || fail "no chart $c"
done
# the read test (one config) and the write test (hostile label) in the
# Latency distributions section
grep -q '<section id="latency">' "$h" || fail "no Latency distributions section"
[ "$(ls "$out"/charts/ | grep -c -- '-lat-.*-cdf.svg')" = 4 ] ||
    fail "CDFs: $(ls "$out"/charts/ | grep -- '-lat-')"
# exact numbers: fio printed read clat p99.999 4046848 ns (rs=16k) and
# write clat p50 313344 ns; the aggregate of the 4 write clones p99.9
# 700416 ns from their summed bins
grep -q '4.047 ms' "$h" || fail "read p99.999 of rs=16k"
grep -q '313.3 µs' "$h" || fail "write p50 of rs=16k"
grep -q '700.4 µs' "$h" || fail "write aggregate p99.9"
# each latency chart links its data as CSV, with the exact numbers
for c in lat-1-read-cdf lat-1-read-ladder lat-1-read-hist; do
    f=$(ls "$out"/charts/*-"$c".csv 2>/dev/null | head -1)
    [ -n "$f" ] || { fail "no CSV for $c"; continue; }
    grep -q "href=\"charts/$(basename "$f")\"" "$h" || fail "CSV of $c not linked"
done
grep -q '^zfs rs=16k,707,.*,593920,4046848,' "$(ls "$out"/charts/*-lat-1-read-cdf.csv | head -1)" ||
    fail "CDF CSV: no exact p99.999 4046848 ns"
head -1 "$(ls "$out"/charts/*-lat-1-read-hist.csv | head -1)" | grep -q '^band_from_ns,band_to_ns,' ||
    fail "histogram CSV header"
grep -q 'read completion latency, distribution (CDF)' "$h" || fail "CDF caption"
cdf=$(ls "$out"/charts/*-lat-1-read-cdf.svg | head -1)
grep -q '>99.9%<' "$cdf" || fail "nines axis"
grep -q '<script' "$cdf" && fail "script in a chart"
[ "$(grep -c "<polyline" "$cdf")" = 2 ] || fail "read CDF: not one polyline per configuration"
# the ladder on a log latency axis (issue 41 item 5): decade ticks, a point
# per percentile, and for one configuration (the read test) the values
# beside the points as in its table (fio's read clat p99.99 2.310 ms)
lad=$(ls "$out"/charts/*-lat-1-read-ladder.svg | head -1)
grep -q 'latency (log scale)' "$lad" || fail "ladder: no log axis"
grep -q '>1 ms<' "$lad" || fail "ladder: no decade tick"
lad2=$(ls "$out"/charts/*-lat-2-read-ladder.svg | head -1)
[ "$(grep -c '<rect[^>]*width="7"' "$lad2")" = 6 ] ||
    fail "ladder of one config: $(grep -c '<rect[^>]*width="7"' "$lad2") points, want 6"
grep -q '>2.310 ms<' "$lad2" || fail "ladder: no p99.99 label 2.310 ms"
grep -q '<td[^>]*>2.310 ms</td>' "$h" || fail "ladder table: no 2.310 ms"
grep -q '&lt;script&gt;document' "$h" || fail "hostile label not escaped"

"$pb" report --db "$db" -o "$tmp/lin" -q --latency-axis linear ||
    fail "report linear"
cdf=$(ls "$tmp"/lin/charts/*-lat-1-read-cdf.svg | head -1)
grep -q '>100%<' "$cdf" || fail "linear axis has no 100%"
grep -q '>99.9%<' "$cdf" && fail "linear axis shows nines"
"$pb" report --db "$db" -o "$tmp/bad" -q --latency-axis log 2>"$tmp/err"
[ $? = 2 ] || fail "--latency-axis log not a usage error"
grep -q "latency-axis is nines or linear" "$tmp/err" || fail "message: $(cat "$tmp/err")"

# --metric: latency charts only where the filter keeps clat percentiles
"$pb" report --db "$db" -o "$tmp/iops" -q --metric 'read_iops' ||
    fail "report --metric read_iops"
ls "$tmp"/iops/charts/ | grep -q -- '-lat-' &&
    fail "latency charts under --metric read_iops"
"$pb" report --db "$db" -o "$tmp/p99" -q --metric 'read_clat_p99$' ||
    fail "report --metric read_clat_p99"
[ "$(ls "$tmp"/p99/charts/ | grep -c -- '-lat-.*-read-cdf\.svg$')" = 2 ] ||
    fail "read CDFs under --metric read_clat_p99: $(ls "$tmp"/p99/charts/)"
ls "$tmp"/p99/charts/ | grep -q -- '-lat-.*-write-' &&
    fail "write latency charts under --metric read_clat_p99"

# 13 configurations of one test: the charts draw 12, the tables all 13
db13="$tmp/m.db"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
    { cat "$fx/fio-3.33_read-nj1_json-plus.json"; printf '%*s\n' "$i" ''; } \
        >"$tmp/r$i.json"
    "$pb" ingest --db "$db13" -q --label "pool$i" "$tmp/r$i.json" 2>/dev/null ||
        fail "ingest pool$i"
done
"$pb" report --db "$db13" -o "$tmp/m" -q || fail "report of 13"
cdf=$(ls "$tmp"/m/charts/*-lat-1-read-cdf.svg | head -1)
grep -q 'first 12 of 13 configurations' "$cdf" ||
    fail "no note of the configurations left out"
grep -q '>pool12<' "$cdf" || fail "pool12 not in the legend"
grep -q '>pool13<' "$cdf" && fail "pool13 drawn"
# one polyline per configuration drawn, no <line> per bin (the grid and
# axes only), a few KB a configuration (was 549 KB, 6399 <line>s)
n=$(grep -c '<polyline' "$cdf")
[ "$n" = 12 ] || fail "CDF polylines: $n, not one per configuration"
n=$(grep -c '<line' "$cdf")
[ "$n" -lt 100 ] || fail "CDF has $n <line> elements"
n=$(wc -c <"$cdf")
[ "$n" -lt 120000 ] || fail "CDF of 12 configurations is $n bytes"
rows=$(sed -n '/Data: fio read.*distribution (CDF)/,/<\/table>/p' \
    "$tmp/m/index.html" | grep -c '<tr')
[ "$rows" = 14 ] || fail "CDF table rows: $rows (13 and the header)"

. "$src/tests/e2e/browser_check.sh"
if ! browser_find; then
    [ $fails -eq 0 ] || exit 1
    echo "skipping the browser part: no chromium" >&2
    exit 77
fi
run_browser --dump-dom "file://$h" >"$tmp/dom.html"
[ -s "$tmp/dom.html" ] || fail "chromium printed no DOM"
grep -q '<body[^>]*data-pwned' "$tmp/dom.html" && fail "a label ran as script"
charts=$(sed -n 's/.*<img src="\(charts\/[^"]*-lat-[^"]*\)".*/"\1",/p' "$h" | tr -d '\n')
cat >"$out/check.html" <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="result">pending</pre>
<script>
var charts = [$charts], problems = [], loaded = 0, texts = 0, lines = 0, done = 0;
function finish() {
  if (++done < 2 * charts.length) return;
  document.getElementById('result').textContent =
    (problems.length ? 'PROBLEMS\n' + problems.join('\n') : 'OK') +
    '\nloaded=' + loaded + ' charts=' + charts.length + ' texts=' + texts +
    ' lines=' + lines;
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
    lines += doc.querySelectorAll('line').length;
    Array.prototype.forEach.call(doc.querySelectorAll('line,rect'), function (e) {
      var r = e.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
        problems.push('drawn outside: ' + e.tagName + ' in ' + src);
    });
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
echo "$result" | grep -q "loaded=12 charts=12" ||
    fail "not every latency chart loaded: $result"
echo "$result" | tail -1 | sed 's/<[^>]*>//g'

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
exit 0
