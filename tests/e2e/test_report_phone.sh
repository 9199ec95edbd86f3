#!/bin/sh
# e2e: the report and the compare page on a phone (issue 41 item 6), in
# headless chromium at 390 x 844 and at 1400 x 900. 8 configurations of a
# real fio file (bench/gen_many.py): every value of the first bar chart
# is in the window (drawn inside its bar, at its start, or beside a short
# bar) and each bar's value text is the one of its table; on the compare
# page the first column and the verdict stay in the window with the table
# scrolled to either end. Leaves screenshots beside the poolbench binary
# (report-phone-*.png). Skips (77) without chromium or python3.
# usage: test_report_phone.sh POOLBENCH SOURCE_DIR CORPUS_DIR
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

python3 "$src/bench/gen_many.py" "$seed" "$tmp/c8" 8 || fail "generate"
"$pb" ingest --db "$tmp/p.db" -q "$tmp/c8" || fail "ingest"
"$pb" report --db "$tmp/p.db" -o "$tmp/r" -q || fail "report"
"$pb" compare --db "$tmp/p.db" '^cfg-000$' '^cfg-001$' --html "$tmp/c" \
    >/dev/null 2>&1 || fail "compare --html"
chart=$(sed -n 's/.*<img src="\(charts\/[^"]*read-iops.svg\)".*/\1/p' \
    "$tmp/r/index.html" | head -1)
[ -n "$chart" ] || fail "no read IOPS chart"

# the bar chart: each value text's right edge in the window, drawn over
# the chart's own place in the page (the figure scrolls, not the page)
cat >"$tmp/r/phone.js" <<EOF
window.addEventListener("load", function () {
  var out = document.createElement("pre");
  out.id = "phone";
  var img = document.querySelector('img[src="$chart"]');
  var o = document.createElement("object");
  o.type = "image/svg+xml";
  o.data = "$chart";
  o.style.cssText = "position:absolute;left:0;top:0;border:0";
  o.onload = function () {
    var doc = o.contentDocument, L = [];
    var left = img.getBoundingClientRect().left + 1;
    [].forEach.call(doc.querySelectorAll("text"), function (t) {
      if (!/^[0-9.]+k? IOPS\$/.test(t.textContent))
        return;
      var r = t.getBoundingClientRect();
      L.push(t.textContent + "|" + (left + r.right <= window.innerWidth ?
        "in" : "out " + Math.round(left + r.right)));
    });
    out.textContent = "width=" + window.innerWidth + "\n" + L.join("\n");
    document.body.appendChild(out);
    parent.postMessage(out.textContent, "*");
  };
  document.body.appendChild(o);
});
EOF
sed 's|</body>|<script src="phone.js"></script></body>|' "$tmp/r/index.html" \
    >"$tmp/r/phone.html"

# the compare table: the first and the verdict cell of the first row in
# the window, at the left end and scrolled to the right end
cat >"$tmp/c/phone.js" <<'EOF'
window.addEventListener("load", function () {
  var out = document.createElement("pre"), L = [];
  out.id = "phone";
  var t = document.getElementById("compare"), tw = t.parentNode;
  var row = t.tBodies[0].rows[0], W = window.innerWidth;
  function check(where) {
    var a = row.cells[0].getBoundingClientRect();
    var v = row.cells[row.cells.length - 1].getBoundingClientRect();
    var c = row.cells[5].getBoundingClientRect();
    L.push(where + " first=" + (a.left >= 0 && a.right <= W ? "in" : "out") +
      " verdict=" + (v.left >= 0 && v.right <= W + 0.5 ? "in" : "out") +
      " apart=" + (a.right <= v.left + 0.5 ? "yes" : "no"));
    return c;
  }
  tw.scrollLeft = 0;
  check("start");
  tw.scrollLeft = tw.scrollWidth;
  check("end");
  L.push("verdict=" + row.cells[row.cells.length - 1].textContent);
  out.textContent = "width=" + W + "\n" + L.join("\n");
  document.body.appendChild(out);
  parent.postMessage(out.textContent, "*");
});
EOF
sed 's|</body>|<script src="phone.js"></script></body>|' "$tmp/c/index.html" \
    >"$tmp/c/phone.html"

# headless chromium lays a window out 500 px wide at least: the page goes
# in a frame of the phone's size, which posts what it measured
frame() { # DIR W H: DIR/frame.html showing DIR/phone.html in W x H
    cat >"$1/frame.html" <<EOF
<!DOCTYPE html><html><body style="margin:0">
<iframe src="phone.html" width="$2" height="$3" style="border:0"></iframe>
<script>addEventListener("message", function (e) {
  var p = document.createElement("pre");
  p.id = "phone";
  p.textContent = e.data;
  document.body.appendChild(p);
});</script></body></html>
EOF
}

for size in 390,844 1400,900; do
    w=${size%,*} h=${size#*,}
    frame "$tmp/r" "$w" "$h"
    frame "$tmp/c" "$w" "$h"
    m=$(run_browser --window-size=1500,1000 --dump-dom "file://$tmp/r/frame.html" |
        sed -n '/<pre id="phone">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
    echo "$m" | head -3
    echo "$m" | grep -qx "width=$w" || fail "$w: page not measured: $m"
    [ "$(echo "$m" | grep -c '|in$')" = 8 ] ||
        fail "$w: not 8 bar values in the window: $(echo "$m" | grep '|out')"
    # the best (cfg-007, factor 0.5 + 7/8 of 37.93k) and the baseline
    echo "$m" | grep -qx '52.15k IOPS|in' || fail "$w: best value 52.15k IOPS"
    echo "$m" | grep -qx '37.93k IOPS|in' || fail "$w: baseline value 37.93k IOPS"
    grep -q '>52.15k IOPS<' "$tmp/r/index.html" || fail "table: no 52.15k IOPS"

    m=$(run_browser --window-size=1500,1000 --dump-dom "file://$tmp/c/frame.html" |
        sed -n '/<pre id="phone">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
    echo "$m" | head -4
    echo "$m" | grep -qx 'start first=in verdict=in apart=yes' ||
        fail "$w: compare at the start: $m"
    echo "$m" | grep -qx 'end first=in verdict=in apart=yes' ||
        fail "$w: compare scrolled to the end: $m"
    echo "$m" | grep -qx 'verdict=not judged (single run)' ||
        fail "$w: verdict text: $m"
    browser_shot "$(dirname "$pb")/report-phone-$w.png" \
        "file://$tmp/r/index.html" --window-size=$size ||
        fail "$w: no screenshot"
done

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "ok"
