#!/bin/sh
# e2e: host as a dimension of the report (issue 15 item 2). The fio 3.33
# client/server fixtures: three servers (read IOPS 229426.294821 on
# 127.0.0.1:18771, 211913.086913 on :18772, 226580.41958 on :18773;
# fio's "All clients" 666609.561753, the sum 667919.801314, ratio 0.9980)
# and two servers (14222.222222 on :8765, 11130.434783 on :8766; fio
# 22260.869565, sum 25352.657005, ratio 0.8780: fio divides all I/Os by
# the longest runtime). The edited copy where :18772 does half its I/Os
# (105956.043956, 53.2% below the median 226580.41958) is the one outlier;
# the real files have none. Hostile host names are escaped in the HTML,
# the SVG and the CSV. Headless chromium: the section renders, its charts
# load and no label runs as script (skips, 77, without chromium).
# usage: test_report_hosts.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# ---- three and two servers: exact numbers, no outlier ----
db="$tmp/h.db"
"$pb" ingest --db "$db" -q "$fx/fio-3.33_client-server_three-servers.json" \
    "$fx/fio-3.33_client-server_two-servers.json" 2>/dev/null ||
    fail "ingest"
"$pb" report --db "$db" -o "$tmp/r" -q || fail "report"
h="$tmp/r/index.html"
grep -q '<li><a href="#hosts">Hosts</a></li>' "$h" || fail "no Hosts in the contents"
grep -q '<section id="hosts">' "$h" || fail "no Hosts section"
sec=$(sed -n '/<section id="hosts">/,/<\/section>/p' "$h")
# summary: hosts-randread read IOPS, 3 hosts, min median max, fio, sum
row=$(printf '%s\n' "$sec" | grep '<span>hosts-randread</span>' | grep '>read IOPS<')
for want in '>3</td>' 'data-v="211913.0869">211.9k IOPS' \
    'data-v="226580.4196">226.6k IOPS' 'data-v="229426.2948">229.4k IOPS' \
    'data-v="1.082643352">1.083<' 'data-v="666609.5618" title="all hosts (fio)">666.6k IOPS' \
    'data-v="667919.8013">667.9k IOPS' 'data-v="0.998038328">0.9980<'; do
    printf '%s' "$row" | grep -qF "$want" || fail "three servers summary: no $want"
done
row=$(printf '%s\n' "$sec" | grep '<span>cs-randread</span>' | grep '>read IOPS<')
for want in '>2</td>' 'data-v="11130.43478">11.13k IOPS' \
    'data-v="14222.22222">14.22k IOPS' 'title="all hosts (fio)">22.26k IOPS' \
    'data-v="25352.65701">25.35k IOPS' 'data-v="0.8780487805">0.8780<'; do
    printf '%s' "$row" | grep -qF "$want" || fail "two servers summary: no $want"
done
# latency: fio's aggregate (an I/O-weighted mean), no sum; percentiles: none
row=$(printf '%s\n' "$sec" | grep '<span>hosts-randread</span>' |
    grep '>read completion latency, mean<')
printf '%s' "$row" | grep -qF 'data-v="3797.47783" title="all hosts (fio)">3.797 µs' ||
    fail "clat mean aggregate"
printf '%s' "$row" | grep -qF '<td class="r"></td><td class="r"></td><td></td></tr>' ||
    fail "clat mean has a sum"
# per-host CSV of the three servers' read IOPS: exact values
csv=$(ls "$tmp"/r/charts/*-hosts-fio-randread-bs-4k-iodepth-1-read-iops.csv)
[ "$(printf '%s\n' "$csv" | wc -l)" = 2 ] || fail "read IOPS host CSVs: $csv"
all=$(cat $csv | tr -d '\r')
for want in '127.0.0.1:18771,hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,229426.294821,,1,0.012560111091131565,,' \
    '127.0.0.1:18772,hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,211913.086913,,1,-0.06473345178805844,,' \
    '127.0.0.1:18773,hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,226580.41958,,1,0,,' \
    'all hosts (fio),hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,666609.561753,,1,,,"fio'"'"'s ""All clients"" result"' \
    'sum of hosts,hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,667919.801314,,1,,,all hosts / sum = 0.9980' \
    '127.0.0.1:8765,cs-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,14222.222222,,1,0.1219512194871821,,' \
    'sum of hosts,cs-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,25352.657005,,1,,,all hosts / sum = 0.8780 (the hosts ran unequal times: fio divides all I/Os by the longest runtime)'; do
    printf '%s\n' "$all" | grep -qxF "$want" || fail "host CSV: no line $want"
done
printf '%s\n' "$sec" | grep -q 'Spread of 3 hosts: min 211.9k IOPS, max 229.4k IOPS, max / min 1.083, CV 4.2%' ||
    fail "spread note"
grep -q ',below,\|,above,' "$tmp"/r/charts/*hosts*.csv && fail "outlier in the real files"
grep -q 'host outlier' "$h" && fail "warning without an outlier"
grep -q 'id="warnings"' "$h" && fail "Warnings section without a flag"

# ---- one slow host: flagged, listed under Warnings ----
"$pb" ingest --db "$tmp/s.db" -q \
    "$fx/fio-3.33-edited_client-server_three-servers_slow-host.json" ||
    fail "ingest slow"
"$pb" report --db "$tmp/s.db" -o "$tmp/s" -q || fail "report slow"
hs="$tmp/s/index.html"
grep -qF '<p class="warn">⚠ host outlier: read IOPS of fio randread bs=4k iodepth=1, hosts-randread: host 127.0.0.1:18772 has 106.0k IOPS, 53.2% below the median of its 3 hosts (226.6k IOPS)</p>' "$hs" ||
    fail "no outlier warning"
[ "$(grep -c 'host outlier' "$hs")" = 1 ] || fail "other outlier warnings"
grep -q '<li><a href="#warnings">Warnings</a></li>' "$hs" || fail "Warnings not in the contents"
tr -d '\r' <"$(ls "$tmp"/s/charts/*-hosts-*-read-iops.csv)" |
    grep -qx '127.0.0.1:18772,hosts-randread,fio randread bs=4k iodepth=1,read_iops,ops/s,higher,105956.043956,,1,-0.5323689304115288,below,'  || fail "outlier row in the CSV"
grep -q '<td class="w">⚠ 127.0.0.1:18772</td>' "$hs" || fail "outlier in the summary"
grep -q '>⚠ 127.0.0.1:18772</text>' "$tmp"/s/charts/*-hosts-*-read-iops.svg ||
    fail "outlier bar label"

# ---- --host keeps working: two hosts shown, their sum as the aggregate ----
"$pb" report --db "$tmp/s.db" -o "$tmp/f" -q --host '1877[13]' || fail "report --host"
row=$(sed -n '/<section id="hosts">/,/<\/section>/p' "$tmp/f/index.html" |
    grep '>read IOPS<')
printf '%s' "$row" | grep -qF '>2</td>' || fail "--host: not 2 hosts"
printf '%s' "$row" | grep -qF 'data-v="456006.7144" title="all hosts (sum)">456.0k IOPS' ||
    fail "--host: aggregate is not the sum of the two hosts: $row"
grep -q '18772' "$tmp/f/index.html" && fail "--host: the filtered host is shown"

# ---- hostile host names ----
sed -e '0,/"hostname" : "127.0.0.1"/s//"hostname" : "=2+3<img src=x onerror=document.body.setAttribute(\&quot;data-pwned\&quot;,1)>"/' \
    "$fx/fio-3.33_client-server_three-servers.json" >"$tmp/hostile.json"
grep -q '"hostname" : "=2+3<img' "$tmp/hostile.json" || fail "hostile copy not made"
"$pb" ingest --db "$tmp/x.db" -q "$tmp/hostile.json" || fail "ingest hostile"
"$pb" report --db "$tmp/x.db" -o "$tmp/x" -q || fail "report hostile"
hx="$tmp/x/index.html"
grep -q '<img src=x' "$hx" && fail "host name unescaped in the HTML"
grep -q '&lt;img src=x onerror=' "$hx" || fail "host name not shown escaped"
grep -q '<img src=x' "$tmp"/x/charts/*.svg && fail "host name unescaped in an SVG"
grep -q "^\"'=2+3<img src=x" "$tmp"/x/charts/*-hosts-*-read-iops.csv ||
    fail "host name not formula-escaped in the CSV"

# ---- 50 hosts (made from the three-server file): the chart draws 30 ----
if command -v python3 >/dev/null 2>&1; then
    python3 - "$fx/fio-3.33_client-server_three-servers.json" "$tmp/many.json" <<'PY'
import copy, json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index("\n{") + 1:])
cs = d["client_stats"]
out = []
for i in range(50):
    e = copy.deepcopy(cs[0])
    e["hostname"], e["port"] = "node%02d" % i, 8765
    f = 0.5 if i == 7 else 0.9 + 0.2 * (i * 37 % 50) / 49
    e["read"]["iops"] = 200000 * f
    out.append(e)
d["client_stats"] = out + [cs[-1]]
open(sys.argv[2], "w").write(json.dumps(d))
PY
    "$pb" ingest --db "$tmp/m.db" -q "$tmp/many.json" || fail "ingest 50 hosts"
    "$pb" report --db "$tmp/m.db" -o "$tmp/m" -q || fail "report 50 hosts"
    svg=$(ls "$tmp"/m/charts/*-hosts-*-read-iops.svg)
    grep -q '30 of 50 hosts drawn: the 20 worst, the 10 best and every outlier' "$svg" ||
        fail "50 hosts: no note of the hosts drawn"
    [ "$(grep -c '<rect[^>]*fill="#4e79a7"' "$svg")" = 29 ] ||
        fail "50 hosts: not 29 blue bars and the red one"
    [ "$(grep -c 'host outlier' "$tmp/m/index.html")" = 1 ] ||
        fail "50 hosts: not one outlier"
    grep -q 'host outlier: read IOPS of fio randread bs=4k iodepth=1, hosts-randread: host node07 has 100.0k IOPS, 50.0% below the median of its 50 hosts (200.0k IOPS)' \
        "$tmp/m/index.html" || fail "50 hosts: node07 not the outlier"
    [ "$(tr -d '\r' <"$(ls "$tmp"/m/charts/*-hosts-*-read-iops.csv)" | grep -c '^node')" = 50 ] ||
        fail "50 hosts: not every host in the CSV"
    # huge values: the sum overflows, so there is none (no inf, no 0 ratio)
    python3 - "$fx/fio-3.33_client-server_three-servers.json" "$tmp/huge.json" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index("\n{") + 1:])
for e in d["client_stats"][:3]:
    e["read"]["iops"] = 1.7e308
open(sys.argv[2], "w").write(json.dumps(d))
PY
    "$pb" ingest --db "$tmp/g.db" -q "$tmp/huge.json" || fail "ingest huge"
    "$pb" report --db "$tmp/g.db" -o "$tmp/g" -q || fail "report huge"
    csv=$(ls "$tmp"/g/charts/*-hosts-*-read-iops.csv)
    grep -q '^sum of hosts' "$csv" && fail "huge: a sum past the largest double"
    grep -q '^127.0.0.1:18771,hosts-randread,.*,1.7e+308,' "$csv" || fail "huge: host value"
    sed -n '/<section id="hosts">/,/<\/section>/p' "$tmp/g/index.html" |
        grep -qi '>[^<]*\(inf\|nan\)[^<]*<' && fail "huge: inf or nan shown"
fi

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser=$b
        break
    fi
done
if [ -z "$browser" ]; then
    [ $fails -eq 0 ] || exit 1
    echo "skipping the browser part: no chromium" >&2
    exit 77
fi
run_browser() {
    prof=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --disable-dev-shm-usage \
        --disable-background-networking --disable-component-update \
        --disable-sync --no-first-run --user-data-dir="$prof" \
        --allow-file-access-from-files --virtual-time-budget=15000 "$@" \
        2>>"$tmp/browser.log"
}
run_browser --dump-dom "file://$hx" >"$tmp/dom.html"
[ -s "$tmp/dom.html" ] || fail "chromium printed no DOM"
grep -q '<body[^>]*data-pwned' "$tmp/dom.html" && fail "a host name ran as script"
grep -q '<section id="hosts">' "$tmp/dom.html" || fail "no Hosts section in the DOM"
# the section's charts load and draw (as images, with a width)
charts=$(sed -n 's/.*<img src="\(charts\/[^"]*-hosts-[^"]*\)".*/"\1",/p' "$h" | tr -d '\n')
cat >"$tmp/r/check.html" <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="result">pending</pre>
<script>
var charts = [$charts], problems = [], loaded = 0, done = 0;
function finish() {
  if (++done < charts.length) return;
  document.getElementById('result').textContent =
    (problems.length ? 'PROBLEMS ' + problems.join(' ') : 'OK') +
    ' loaded=' + loaded + ' charts=' + charts.length;
}
charts.forEach(function (src) {
  var img = new Image();
  img.onload = function () {
    if (img.naturalWidth > 0) loaded++; else problems.push('empty ' + src);
    finish();
  };
  img.onerror = function () { problems.push('not loaded ' + src); finish(); };
  img.src = src;
});
if (!charts.length) finish();
</script></body></html>
EOF
run_browser --dump-dom "file://$tmp/r/check.html" >"$tmp/check.html"
result=$(sed -n 's/.*<pre id="result">\([^<]*\)<.*/\1/p' "$tmp/check.html")
[ "$result" = "OK loaded=6 charts=6" ] || fail "browser check: $result"
run_browser --screenshot="$tmp/shot.png" --window-size=1000,2000 \
    "file://$h#hosts" >/dev/null
[ -s "$tmp/shot.png" ] || fail "no screenshot"

[ $fails -eq 0 ] || exit 1
echo ok
