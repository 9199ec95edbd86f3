#!/bin/sh
# e2e: the "too many configurations" rule (issue 16 item 3) in a real
# browser (headless chromium). 120 configurations of one fio test: each
# chart draws the best 30, the baseline and the worst 5 as bars (36) and a
# strip with a dot for each of the 120; its text stays inside the chart and
# off other text; the one table of the test lists all 120, folded; the CSV
# keeps all 120. 30 configurations: nothing changes (30 bars, no strip,
# one table per chart); 40 are drawn whole, 41 reduced; the ranking of
# 41 over two tests is folded; a sweep of 120 configurations by bs draws
# a reduced heatmap (36 rows) and keeps every cell in its table; 500
# configurations draw the strip as one band. Leaves a
# screenshot of the 120-configuration chart beside the poolbench binary
# (report-many-screenshot.png). Skips (77) without chromium or python3.
# usage: test_report_many.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
seed="$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
. "$src/tests/e2e/browser_check.sh"
browser_require
if ! command -v python3 >/dev/null 2>&1; then
    echo "skipping: no python3" >&2
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# N copies of a real fio file, job names cfg-000 .. and every measured
# number times 0.5 + ((37 i + N/2) mod N) / N: distinct, shuffled, and
# cfg-000 (stored first: the baseline) in the middle at exactly 1.0
# (bench/gen_many.py)
gen() {
    python3 "$src/bench/gen_many.py" "$seed" "$1" "$2"
}

# -- the page and its first chart in the browser: bars, dots, text inside
#    the chart and apart, the tables' rows
# A large report is split (docs/report.md "Pages"): whole DIR prints
# index.html and then its section pages; page_of DIR CHART names the
# page with the first chart named *CHART.svg.
whole() {
    cat "$1/index.html"
    for p in "$1"/*.html; do
        case $p in */index.html | */many.html | */*-[0-9][0-9][0-9].html) ;;
        *) cat "$p" ;; esac
    done
}
page_of() {
    for p in "$1/index.html" "$1"/*.html; do
        case $p in */many.html) continue ;; esac
        if grep -q "<img src=\"charts/[^\"]*$2.svg\"" "$p"; then
            echo "$p"
            return
        fi
    done
    echo "$1/index.html"
}
measure() { # DIR [CHART] -> prints the measurement of the page of DIR
    # with its first chart named *CHART.svg (default read-iops)
    page=$(page_of "$1" "${2:-read-iops}")
    chart=$(sed -n "s/.*<img src=\"\\(charts\\/[^\"]*${2:-read-iops}.svg\\)\".*/\\1/p" \
        "$page" | head -1)
    cat >"$1/many.js" <<EOF
window.addEventListener("load", function () {
  var P = [], out = document.createElement("pre");
  out.id = "many";
  function summary(t) {
    var d = t.closest("details");
    return d ? d.querySelector("summary").textContent : "";
  }
  var T = [].map.call(document.querySelectorAll("table"), function (t) {
    var d = t.closest("details");
    var s = d ? summary(t) : (t.caption ? t.caption.textContent : "");
    return s.replace(/ *\(.*/, "") + "|" +
      (d ? (d.open ? "open" : "closed") : "plain") + "|" +
      t.tBodies[0].rows.length;
  });
  var lab = {};
  [].forEach.call(document.querySelectorAll("details table"), function (t) {
    if (/^All .* configurations of this test/.test(summary(t)))
      [].forEach.call(t.tBodies[0].rows, function (r) {
        lab[r.cells[1].textContent] = 1;
      });
  });
  var o = document.createElement("object");
  o.type = "image/svg+xml";
  o.data = "$chart";
  o.onload = function () {
    var doc = o.contentDocument, svg = doc.documentElement, B = [];
    var W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
    var bars = doc.querySelectorAll('rect[height="18"]').length;
    var dots = doc.querySelectorAll('rect[width="4"][height="4"]').length;
    var cells = doc.querySelectorAll('rect[height="26"],rect[height="36"]')
      .length;
    [].forEach.call(doc.querySelectorAll("text"), function (t) {
      var r = t.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
        P.push("cut: " + t.textContent);
      B.push({r: r, s: t.textContent});
    });
    for (var i = 0; i < B.length; i++)
      for (var j = i + 1; j < B.length; j++) {
        var a = B[i].r, b = B[j].r;
        if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2)
          P.push("overlap: " + B[i].s + " / " + B[j].s);
      }
    var txt = [].map.call(doc.querySelectorAll("text"), function (t) {
      return t.textContent;
    }).join("\n");
    out.textContent = "bars=" + bars + " dots=" + dots + " labels=" +
      Object.keys(lab).length + "\ncells=" + cells + " height=" + H +
      "\n" + T.join("\n") + "\n" +
      (P.length ? "PROBLEMS\n" + P.join("\n") : "readable") + "\n" + txt;
    document.body.appendChild(out);
  };
  o.onerror = function () {
    out.textContent = "chart not loaded";
    document.body.appendChild(out);
  };
  document.body.appendChild(o);
});
EOF
    sed 's|</body>|<script src="many.js"></script></body>|' "$page" \
        >"$1/many.html"
    run_browser --window-size=1400,2000 --dump-dom "file://$1/many.html" |
        sed -n '/<pre id="many">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
}

db="$tmp/m.db"
gen "$tmp/c120" 120 || fail "generate 120"
"$pb" ingest --db "$db" -q "$tmp/c120" || fail "ingest 120"
out="$tmp/r120"
"$pb" report --db "$db" -o "$out" -q || fail "report 120"
m=$(measure "$out")
echo "$m" | head -12
has() { echo "$m" | grep -qx -- "$1" || fail "120: no line '$1'"; }
# 30 best + baseline + 5 worst as bars; 120 dots; the table has all 120
has "bars=36 dots=120 labels=120"
has "readable"
has "All 120 configurations of this test|closed|120"
# the per-chart tables are gone: the only tables are the configurations
# (folded), the one of the test, its other metrics, best and sources
echo "$m" | grep -q '^|plain|120$' && fail "120: a per-chart table is left"
# exact bars: cfg-047 is best (factor 0.5 + 119/120), cfg-000 the baseline
# (1.0: rank 60), cfg-060 the worst (0.5)
has "cfg-047"
has "56.57k IOPS"
has "cfg-000 (baseline, rank 60 of 120)"
has "cfg-060 (worst, rank 120 of 120)"
has "…"
has "29 configurations not drawn (ranks 31–59): in the strip below and the table"
has "All 120 configurations with a value: one dot each"
whole "$out" | grep -q '<p class="note">36 of 120 configurations shown; all in the table below and in the CSV</p>' \
    || fail "120: no caption '36 of 120 configurations shown'"
# the chart's CSV keeps every configuration
csv=$(ls "$out"/charts/*read-iops.csv | head -1)
[ "$(tail -n +2 "$csv" | wc -l)" = 120 ] || fail "120: the CSV has not 120 rows"
size=$(wc -c <"$out/index.html")
[ "$size" -lt 1000000 ] || fail "120: index.html is $size bytes"
shot="$(dirname "$pb")/report-many-screenshot.png"
browser_shot "$shot" \
    "file://$out/$(basename "$csv" .csv | sed 's/^/charts\//').svg" \
    --window-size=1000,1600

# -- a dense strip (issue 41 item 1): past RP_MANY_DOTS (400) values the
#    strip is one grey polygon (a band of every value) with only the 36
#    configurations drawn as bars as dots; the chart stays small
gen "$tmp/c500" 500 || fail "generate 500"
"$pb" ingest --db "$tmp/d500.db" -q "$tmp/c500" || fail "ingest 500"
"$pb" report --db "$tmp/d500.db" -o "$tmp/r500" -q || fail "report 500"
svg=$(ls "$tmp/r500"/charts/*read-iops.svg | head -1)
[ "$(grep -c '<polygon fill="#a8a8a8"' "$svg")" = 1 ] || fail "500: not one band"
[ "$(grep -c 'width="4" height="4" fill="#a8a8a8"' "$svg")" = 0 ] ||
    fail "500: grey dots beside the band"
[ "$(grep -c 'width="4" height="4"' "$svg")" = 36 ] ||
    fail "500: $(grep -c 'width="4" height="4"' "$svg") dots, not the 36 shown"
grep -q 'All 500 configurations with a value: a band' "$svg" ||
    fail "500: the strip's heading"
size=$(wc -c <"$svg")
[ "$size" -lt 30000 ] || fail "500: the chart is $size bytes"
m=$(measure "$tmp/r500")
echo "$m" | grep -qx readable || fail "500: $(echo "$m" | sed -n '/PROBLEMS/,$p' | head -3)"

# -- 30 configurations: the chart and tables as before
db="$tmp/s.db"
gen "$tmp/c30" 30 || fail "generate 30"
"$pb" ingest --db "$db" -q "$tmp/c30" || fail "ingest 30"
out="$tmp/r30"
"$pb" report --db "$db" -o "$out" -q || fail "report 30"
m=$(measure "$out")
echo "$m" | head -6
has() { echo "$m" | grep -qx -- "$1" || fail "30: no line '$1'"; }
has "bars=30 dots=0 labels=0"
has "readable"
[ "$(echo "$m" | grep -c '^|plain|30$')" = 3 ] ||
    fail "30: not three tables of 30 rows under the charts"
whole "$out" | grep -q 'configurations shown' &&
    fail "30: a chart says it is reduced"

# -- the limit: 40 configurations are drawn whole, 41 are reduced (the
#    baseline cfg-000 at rank 21 is one of the best 30: 35 bars)
for n in 40 41; do
    gen "$tmp/c$n" $n || fail "generate $n"
    "$pb" ingest --db "$tmp/l$n.db" -q "$tmp/c$n" || fail "ingest $n"
    "$pb" report --db "$tmp/l$n.db" -o "$tmp/r$n" -q || fail "report $n"
    svg=$(ls "$tmp/r$n"/charts/*read-iops.svg | head -1)
    got="$(grep -c 'height="18"' "$svg") $(grep -c 'width="4" height="4"' "$svg")"
    case $n in
    40) want="40 0" ;;
    41) want="35 41" ;;
    esac
    [ "$got" = "$want" ] || fail "$n: bars and dots '$got', not '$want'"
done
grep -q 'cfg-000 (baseline, rank 21 of 41)' "$tmp/r41"/charts/*read-iops.svg ||
    fail "41: the baseline is not marked at rank 21"

# -- the ranking of 41 configurations over two tests: its table folded,
#    complete
python3 "$src/bench/gen_many.py" \
    "$src/fixtures/fio-json/fio-3.33_read_16k_warning-prefix.json" \
    "$tmp/d41" 41 || fail "generate the second test"
"$pb" ingest --db "$tmp/l41.db" -q "$tmp/d41" || fail "ingest the second test"
"$pb" report --db "$tmp/l41.db" -o "$tmp/k41" -q || fail "report 41 x 2"
whole "$tmp/k41" | grep -q '<summary>All 41 ranked configurations (41 rows)</summary>' \
    || fail "41 x 2: the ranking's table is not folded"
[ "$(whole "$tmp/k41" | grep -c '<summary>All 41 configurations of this test (41 rows)')" = 2 ] || fail "41 x 2: not two tables of 41"

# -- a sweep of 120 configurations by bs (the three-jobs file: read at two
#    block sizes): no grouped bars, a heatmap of the best 30, the baseline
#    and the worst 5 rows (72 cells), the gaps marked, its text readable;
#    the sweep's table and CSV keep all 240 cells
python3 "$src/bench/gen_many.py" \
    "$src/fixtures/fio-json/fio-3.33_three-jobs.json" "$tmp/w120" 120 ||
    fail "generate the sweep"
"$pb" ingest --db "$tmp/w.db" -q "$tmp/w120" || fail "ingest the sweep"
"$pb" report --db "$tmp/w.db" -o "$tmp/rw" -q || fail "report the sweep"
m=$(measure "$tmp/rw" heatmap-read-bw-configuration-bs)
echo "$m" | sed -n 2p
has() { echo "$m" | grep -qx -- "$1" || fail "sweep: no line '$1'"; }
has "readable"
echo "$m" | grep -qx 'cells=72 height=[0-9]*' || fail "sweep: not 72 cells"
h=$(echo "$m" | sed -n 's/^cells=72 height=//p')
[ "${h:-99999}" -lt 1400 ] || fail "sweep: the heatmap is ${h:-?} px high"
has "cfg-047"
has "cfg-000 (baseline, rank 60 of 120)"
has "cfg-060 (worst, rank 120 of 120)"
has "… 29 configurations not drawn (ranks 31–59): in the table below"
has "… 55 configurations not drawn (ranks 61–115): in the table below"
echo "$m" | grep -q '^Data: .*read bandwidth by configuration and bs|closed|240$' ||
    fail "sweep: the table has not all 240 cells"
whole "$tmp/rw" | grep -q 'sweep-read-bw' &&
    fail "sweep: grouped bars of 120 configurations are drawn"
whole "$tmp/rw" | grep -q '<p class="note">36 of 120 configurations shown; all in the table below and in the CSV</p>' \
    || fail "sweep: no note '36 of 120 configurations shown'"
[ "$(tail -n +2 "$tmp"/rw/charts/*heatmap-read-bw-configuration-bs.csv | wc -l)" = 240 ] ||
    fail "sweep: the heatmap's CSV has not 240 rows"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "ok"
