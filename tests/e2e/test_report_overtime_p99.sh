#!/bin/sh
# e2e: tail latency over time (issue 41, item 4). The real fio 3.33 run
# avg0 of fixtures/fio-log (write_hist_log and per-I/O clat logs, one job)
# is ingested; the report's "Over time" chart of read_clat_hist draws each
# interval's p99 as a bold line and the mean as a thin one, with a key
# naming both. The drawn points, read back through the y axis' tick
# labels, are export --series' p99 (first interval and the largest) and
# mean. --metric SERIES_STAT (or BASE_STAT for a _hist series) picks one
# line; a rate series (read_bw) keeps its single line.
# usage: test_report_overtime_p99.sh POOLBENCH SOURCE_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
db="$tmp/t.db"

cd "$src/fixtures" || exit 1
"$pb" ingest --db "$db" -q fio-log/avg0.json fio-log/avg0_*.log \
    fio-log/avg0_clat.1.log.gz 2>"$tmp/err" ||
    fail "ingest: $(cat "$tmp/err")"
"$pb" export --db "$db" --series --csv --metric '^read_clat_hist$' |
    tr -d '\r' >"$tmp/s.csv" || fail "export --series"

# check.py SVG STAT... : for each STAT (a column of export --series: value
# = the mean, p50 .. p99) the polyline of stroke width W (STAT=W) read
# back to values; prints "STAT first max" in ns, and the legend texts
cat >"$tmp/check.py" <<'EOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
mult = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}
unit = re.search(r">↑ [a-z_]+ \(([^)]+)\)<", svg).group(1)
ticks = [(float(y) - 4, float(v)) for y, v in re.findall(
    r'<text x="[0-9.]+" y="([0-9.]+)" font-size="11" text-anchor="end"[^>]*>([0-9.]+)</text>', svg)]
(ya, va), (yb, vb) = ticks[0], ticks[-1]
def value(y):
    return (va + (y - ya) * (vb - va) / (yb - ya)) * mult[unit]
for arg in sys.argv[2:]:
    st, w = arg.split("=")
    lines = re.findall(r'<polyline fill="none" stroke="#[0-9a-f]+" stroke-width="%s"[^>]* points="([^"]+)"' % re.escape(w), svg)
    if len(lines) != 1:
        print(st, "lines", len(lines))
        continue
    ys = [float(p.split(",")[1]) for p in lines[0].split()]
    print(st, "%.0f" % value(ys[0]), "%.0f" % value(min(ys)))
for t in re.findall(r">([a-z0-9.]+ of each interval)<", svg):
    print("key", t)
EOF
# the values export --series has, and how near the drawing must be (the
# points are rounded to 0.1 px: 0.5% of the axis)
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$tmp/s.csv"; }
near() { # near GOT WANT SPAN
    [ -n "$1" ] && [ -n "$2" ] || return 1
    awk -v g="$1" -v w="$2" -v s="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= s * 0.005) }'
}
p99_first=$(col p99 | head -n 1)
p99_max=$(col p99 | sort -g | tail -n 1)
mean_first=$(col value | head -n 1)
p90_first=$(col p90 | head -n 1)
[ "$p99_first" = "434012.16" ] && [ "$p99_max" = "606208" ] ||
    fail "export --series p99: $p99_first $p99_max"

# the default chart: p99 bold, the mean thin, the key names both
"$pb" report --db "$db" -o "$tmp/rep" -q || fail report
svg=$(grep -l ': read_clat_hist over time<' "$tmp/rep/charts/"*.svg)
[ "$(echo "$svg" | wc -w)" = "1" ] || fail "read_clat_hist charts: $svg"
python3 "$tmp/check.py" "$svg" p99=2.6 mean=1 >"$tmp/got" ||
    fail "check.py failed"
read -r _ got_first got_max <<EOF
$(grep '^p99 ' "$tmp/got")
EOF
near "${got_first:-}" "$p99_first" 1000000 ||
    fail "p99 first point drawn at $got_first ns, export says $p99_first"
near "${got_max:-}" "$p99_max" 1000000 ||
    fail "p99 largest point drawn at $got_max ns, export says $p99_max"
read -r _ got_first _ <<EOF
$(grep '^mean ' "$tmp/got")
EOF
near "${got_first:-}" "$mean_first" 1000000 ||
    fail "mean first point drawn at $got_first ns, export says $mean_first"
grep -qx 'key p99 of each interval' "$tmp/got" &&
    grep -qx 'key mean of each interval' "$tmp/got" ||
    fail "key: $(grep key "$tmp/got" | tr '\n' ' ')"
# the key's samples have the lines' widths (the mean paler)
grep -q 'stroke="#1a1a1a" stroke-width="2.6"/>' "$svg" &&
    grep -q 'stroke="#8c8c8c" stroke-width="1"/>' "$svg" ||
    fail "key line widths"
# the table under it has a row per line
grep -q '>avg0 · p99<' "$tmp/rep/index.html" ||
    grep -q '>avg0 · p99<' "$tmp/rep/"*.html || fail "table row avg0 · p99"

# p99.9 only where an interval holds 1,000 I/Os or more: avg0's (rate
# 400 IOPS, 500 ms) have none, the column is empty
[ -z "$(col p99.9 | tr -d '\n')" ] || fail "avg0 has a p99.9: $(col p99.9 | head -n 3)"
grep -q 'p99.9 of each interval' "$svg" && fail "avg0's chart draws a p99.9"

# p999 (fixtures/fio-log/README.md): 480,000-960,000 I/Os an interval,
# each with a p99.9; fio's own p99.9 of the whole run (the JSON's clat
# percentiles) lies between the intervals' smallest and largest
"$pb" ingest --db "$tmp/p.db" -q fio-log/p999.json fio-log/p999_clat_hist.1.log ||
    fail "ingest p999"
"$pb" export --db "$tmp/p.db" --series --csv --metric '^read_clat_hist$' |
    tr -d '\r' >"$tmp/s.csv" || fail "export --series p999"
[ "$(col p99.9 | tr '\n' ' ')" = "3300.2830769231223 3106.995512195255 3626.8065185185606 " ] ||
    fail "p999 export p99.9: $(col p99.9 | tr '\n' ' ')"
fio999=$(jq '.jobs[0].read.clat_ns.percentile["99.900000"]' fio-log/p999.json)
[ "$fio999" = 3344 ] || fail "fio's p99.9: $fio999"
awk -v f="$fio999" 'BEGIN { exit !(f >= 3106.995512195255 && f <= 3626.8065185185606) }' ||
    fail "fio's whole-run p99.9 $fio999 outside the intervals' p99.9"
"$pb" report --db "$tmp/p.db" -o "$tmp/prep" -q || fail "report p999"
psvg=$(grep -l ': read_clat_hist over time<' "$tmp/prep/charts/"*.svg)
python3 "$tmp/check.py" "$psvg" p99=2.6 mean=1 >"$tmp/got" ||
    fail "check.py p999"
grep -qx 'key p99.9 of each interval' "$tmp/got" ||
    fail "p999 key: $(grep key "$tmp/got" | tr '\n' ' ')"
[ "$(grep -c '<polyline' "$psvg")" = 3 ] ||
    fail "p999 chart lines: $(grep -c '<polyline' "$psvg")"
grep -q 'p99 (bold), p99.9 (above it) and the mean (thin)' "$psvg" ||
    fail "p999 subtitle"
# the chart's data file carries the p99.9
pcsv=$(ls "$tmp/prep/charts/"series-*-read_clat_hist.csv)
head -n 1 "$pcsv" | tr -d '\r' | grep -q ',p50,p99,p99.9$' || fail "chart CSV header: $(head -n 1 "$pcsv")"
grep -q ',3626.8065185185606' "$pcsv" || fail "chart CSV p99.9 value"
# --metric read_clat_hist_p99.9 picks that line alone
"$pb" report --db "$tmp/p.db" -o "$tmp/p9" -q --metric 'read_clat_hist_p99\.9$' ||
    fail "report --metric read_clat_hist_p99.9"
psvg=$(ls "$tmp/p9/charts/"*series-read-clat-hist.svg 2>/dev/null)
[ -n "$psvg" ] && [ "$(grep -c '<polyline' $psvg)" = 1 ] ||
    fail "p99.9 alone: one line"

# a rate series keeps one line of the interval mean, no key
svg=$(grep -l ': read_bw over time<' "$tmp/rep/charts/"*.svg)
[ "$(grep -c '<polyline' $svg)" = "1" ] &&
    grep -q 'stroke-width="1.6"' $svg || fail "read_bw line"
grep -q 'of each interval<' $svg && fail "read_bw has a key"

# --metric naming a percentile line: only that line. clat_p90 (a metric of
# fio's JSON, so report's name check passes) names the p90 lines of the
# per-I/O and histogram clat logs, reads and writes
"$pb" report --db "$db" -o "$tmp/p90" -q --metric 'clat_p90$' ||
    fail "report --metric clat_p90"
v=$(ls "$tmp/p90/charts" | grep -c 'series-.*\.svg$')
[ "$v" = "4" ] || fail "p90 charts (read, write; log, hist): $v"
svg=$(grep -l ': read_clat_hist over time<' "$tmp/p90/charts/"*.svg)
python3 "$tmp/check.py" "$svg" p90=1.6 >"$tmp/got" || fail "check.py p90"
read -r _ got_first _ <<EOF
$(grep '^p90 ' "$tmp/got")
EOF
near "${got_first:-}" "$p90_first" 1000000 ||
    fail "p90 first point drawn at $got_first ns, export says $p90_first"
[ "$(grep -c '<polyline' "$svg")" = "1" ] || fail "p90 chart lines"
grep -qx 'key p90 of each interval' "$tmp/got" || fail "p90 key"
# clat_p99 names the p99 of the per-I/O log and of the histogram log
"$pb" report --db "$db" -o "$tmp/p99" -q --metric '^read_clat_p99$' ||
    fail "report --metric ^read_clat_p99\$"
v=$(ls "$tmp/p99/charts" | grep 'series-.*\.svg$' | tr '\n' ' ')
case $v in
*series-read-clat.svg*series-read-clat-hist.svg*) ;;
*) fail "read_clat_p99 charts: $v" ;;
esac
# --metric naming the series draws its default pair
"$pb" report --db "$db" -o "$tmp/ser" -q --metric '^read_clat_hist$' ||
    fail "report --metric ^read_clat_hist\$"
svg=$(ls "$tmp/ser/charts/"*series-read-clat-hist.svg)
[ "$(grep -c '<polyline' $svg)" = "2" ] || fail "series-named chart lines"
# a line name that only the logs know (no fio JSON in the database):
# report's name check accepts SERIES_STAT, a name that is neither a
# metric, a series nor such a line is still refused
"$pb" ingest --db "$tmp/logs.db" -q "$src/fixtures/fio-log/avg0_clat_hist.1.log" ||
    fail "ingest the histogram log alone"
"$pb" report --db "$tmp/logs.db" -o "$tmp/lo" -q --metric 'read_clat_hist_p90$' \
    2>"$tmp/lo.err" || fail "report --metric read_clat_hist_p90: $(cat "$tmp/lo.err")"
svg=$(ls "$tmp/lo/charts/"*series-read-clat-hist.svg 2>/dev/null)
[ -n "$svg" ] && [ "$(grep -c '<polyline' $svg)" = "1" ] ||
    fail "read_clat_hist_p90 alone: one line"
"$pb" report --db "$tmp/logs.db" -o "$tmp/lo2" -q --metric 'nosuch_p90$' \
    2>"$tmp/lo2.err"
[ $? -eq 2 ] && grep -q "no metric matches 'nosuch_p90\$'" "$tmp/lo2.err" ||
    fail "an unknown line name is not refused: $(cat "$tmp/lo2.err")"

[ $fails -eq 0 ] && echo "ok"
exit $((fails > 0))
