#!/bin/sh
# e2e: the report's History (issue 12 item 4). One fio JSON fixture's
# read_iops scaled into three sources per ingest day for three days (the
# ingest dates set in the database, as three days of ingests would):
#   zfs-rs128k: days 1 and 2 at 100% (x 1.00/1.01/0.99, 1.002/1.012/0.992),
#               day 3 at 80%: a step of -19.9%, Welch p = 1.6e-05;
#   zfs-rs16k:  the same spread around 50% every day: no step;
#   <b>one</b>: one source a day, day 3 at 50%: n = 1, never a step.
# (p values checked independently: Welch's test of the raw values, the t
# density integrated numerically: 0.8185, 0.6855, 1.634e-05.)
# The History section has one chart per test and metric with a line per
# configuration and a table of every point; the step is in Warnings.
# usage: test_history.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v jq >/dev/null || { echo "SKIP: no jq" >&2; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }

fx="$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
db="$tmp/h.db"
cd "$tmp" || exit 1
# make LABEL DAY FACTOR...: the fixture with read iops x FACTOR and fio's
# "timestamp" on day DAY (10:00 UTC), ingested as LABEL (ingested_at set
# to day 9: the file's own time wins)
make() {
    label=$1 day=$2
    shift 2
    ts=$(date -u -d "2026-03-0$day 10:00:00" +%s)
    for f in "$@"; do
        out="$(printf '%s' "$label" | tr -c 'a-z0-9' _)-d$day-$f.json"
        jq ".jobs[0].read.iops *= $f | .timestamp = $ts" "$fx" >"$out"
        "$pb" ingest --db "$db" -q --label "$label" "$out" ||
            fail "ingest $out"
        sqlite3 "$db" "UPDATE source SET ingested_at =
            '2026-03-09T10:00:00Z' WHERE path = '$out'"
    done
}
make zfs-rs128k 1 1.00 1.01 0.99
"$pb" report --db "$db" -o "$tmp/r1" -q 2>/dev/null || fail "report of one day"
grep -q 'id="history"' "$tmp/r1/index.html" && fail "history of one day"
make zfs-rs128k 2 1.002 1.012 0.992
make zfs-rs128k 3 0.802 0.812 0.792
make zfs-rs16k 1 0.50 0.505 0.495
make zfs-rs16k 2 0.501 0.506 0.496
make zfs-rs16k 3 0.502 0.507 0.497
make '<b>one</b>' 1 1.1
make '<b>one</b>' 2 1.12
make '<b>one</b>' 3 0.55

"$pb" report --db "$db" -o "$tmp/r" -q || fail "report"
html="$tmp/r/index.html"
grep -q '<li><a href="#history">History</a></li>' "$html" ||
    fail "no History in the contents"
sed -n '/<section id="history">/,/<\/section>/p' "$html" >"$tmp/h"
grep -c '<h3>' "$tmp/h" >"$tmp/n"
[ "$(cat "$tmp/n")" = 2 ] || fail "$(cat "$tmp/n") history charts, want 2 (read IOPS, read bandwidth)"
grep -q '<h3>fio randread bs=4k iodepth=4 direct=1: read IOPS over time</h3>' \
    "$tmp/h" || fail "no read IOPS history"
[ -s "$tmp/r/charts/001-history-1.svg" ] || fail "no history chart file"
# rows of the read IOPS table: config, date, value, SE, n, change, step
sed -n '/read IOPS over time<\/h3>/,/<\/table>/p' "$tmp/h" |
    sed 's/<tr>/\n/g' | grep '^<td' | sed -e 's/<[^>]*>/|/g' -e 's/||*/|/g' \
    >"$tmp/rows"
want='|&lt;b&gt;one&lt;/b&gt;|2026-03-01|41.72k IOPS|1|
|&lt;b&gt;one&lt;/b&gt;|2026-03-02|42.48k IOPS|1|n &lt; 2: not tested|
|&lt;b&gt;one&lt;/b&gt;|2026-03-03|20.86k IOPS|1|n &lt; 2: not tested|n &lt; 2: not tested|
|zfs-rs16k|2026-03-01|18.96k IOPS|± 0.11k IOPS|3|
|zfs-rs16k|2026-03-02|19.00k IOPS|± 0.11k IOPS|3|+0.2% (p = 0.82)|
|zfs-rs16k|2026-03-03|19.04k IOPS|± 0.11k IOPS|3|+0.3% (p = 0.69)|+0.2%: no significant change (p = 0.82)|
|zfs-rs128k|2026-03-01|37.93k IOPS|± 0.22k IOPS|3|
|zfs-rs128k|2026-03-02|38.00k IOPS|± 0.22k IOPS|3|+0.2% (p = 0.82)|
|zfs-rs128k|2026-03-03|30.42k IOPS|± 0.22k IOPS|3|-19.9% (p = 1.6e-05)|⚠ step|-20.0%: worse (p = 1.6e-05)|'
sed 's/|$//; s/$/|/' "$tmp/rows" >"$tmp/got"
[ "$(cat "$tmp/got")" = "$want" ] || {
    fail "read IOPS history rows:"
    diff "$tmp/got" - <<EOF >&2
$want
EOF
}
# its data beside the chart: exact values, the step's change and p
csv="$tmp/r/charts/001-history-1.csv"
[ -s "$csv" ] || fail "no history CSV"
grep -q 'href="charts/001-history-1.csv"' "$html" || fail "no link to the history CSV"
tr -d '\r' <"$csv" | sed -n '1p;8,10p' >"$tmp/csv"
want='config,point,first_time,test,metric,unit,direction,value,stderr,n,change,p,step
zfs-rs128k,2026-03-01,2026-03-01 10:00:00,fio randread bs=4k iodepth=4 direct=1,read_iops,ops/s,higher,37925.925926,218.9654354264177,3,,,0'
[ "$(sed -n 1,2p "$tmp/csv")" = "$want" ] || fail "history CSV: $(cat "$tmp/csv")"
tail -n 1 "$tmp/csv" | grep -q '^zfs-rs128k,2026-03-03,.*,30416.5925926.*,3,-0.1988011988.*,1.6.*e-05,1$' ||
    fail "history CSV step row: $(tail -n 1 "$tmp/csv")"
# the step, and only it, in Warnings; labels escaped
sed -n '/<section id="warnings"/,/<\/section>/p' "$html" >"$tmp/w"
[ "$(grep -c 'step change' "$tmp/w")" = 1 ] ||
    fail "step warnings: $(grep 'step change' "$tmp/w")"
grep -q '<p class="warn">⚠ step change: read IOPS of fio randread bs=4k iodepth=4 direct=1, zfs-rs128k: -19.9% at 2026-03-03 against the 2 points before (Welch p = 1.6e-05)</p>' \
    "$tmp/w" || fail "step warning text: $(cat "$tmp/w")"
grep -q '<b>one' "$html" && fail "a label went into the page unescaped"
grep -q '<b>one' "$tmp/r/charts/001-history-1.svg" &&
    fail "a label went into the chart unescaped"

# the same database, the same bytes
"$pb" report --db "$db" -o "$tmp/again" -q || fail "report again"
cmp -s "$html" "$tmp/again/index.html" || fail "a second report differs"
cmp -s "$csv" "$tmp/again/charts/001-history-1.csv" || fail "a second CSV differs"

# --config narrows the history too
"$pb" report --db "$db" -o "$tmp/r2" -q --config rs16k || fail "report rs16k"
grep -q 'step change' "$tmp/r2/index.html" && fail "rs16k has a step"
grep -q 'id="history"' "$tmp/r2/index.html" || fail "rs16k has no history"

# Issue 41 item 8: the day of a point is the file's own time (above: fio's
# timestamp wins over ingested_at), else its modification time, else the
# ingest time. Two fio terse files (no time in them) of one job, their
# modification times a day apart, and a third read from standard input.
db2="$tmp/t.db"
tf="$src/fixtures/fio-terse"
cp "$tf/fio-3.33_terse-v3_randrw70_4k_qd8.txt" "$tmp/a.txt"
cp "$tf/fio-3.33_terse-v4_randrw70_4k_qd8.txt" "$tmp/b.txt"
touch -d '2026-02-01 08:00:00 UTC' "$tmp/a.txt"
touch -d '2026-02-02 09:30:00 UTC' "$tmp/b.txt"
"$pb" ingest --db "$db2" -q --label terse "$tmp/a.txt" "$tmp/b.txt" ||
    fail "ingest terse"
[ "$(sqlite3 "$db2" "SELECT group_concat(value, ',') FROM (SELECT value
      FROM fact WHERE key = 'file_time' ORDER BY value)")" = \
    "2026-02-01 08:00:00,2026-02-02 09:30:00" ] ||
    fail "file_time facts: $(sqlite3 "$db2" "SELECT * FROM fact WHERE key = 'file_time'")"
"$pb" ingest --db "$db2" -q --label terse - \
    <"$tf/fio-3.33_terse-v5_randrw70_4k_qd8.txt" || fail "ingest stdin"
today=$(date -u +%F)
"$pb" report --db "$db2" -o "$tmp/t" -q || fail "report terse"
sed -n '/<section id="history">/,/<\/section>/p' "$tmp/t/index.html" >"$tmp/th"
for d in 'title="no time in the file; its modification time: 2026-02-01 08:00:00">2026-02-01<' \
    'title="no time in the file; its modification time: 2026-02-02 09:30:00">2026-02-02<' \
    "title=\"no time in the file; ingested: $today [0-9:]*\">$today<"; do
    grep -q "$d" "$tmp/th" || fail "no history point $d"
done
# --dump shows what the file says: no file_time
"$pb" ingest --dump "$tmp/a.txt" | grep -q file_time && fail "file_time in --dump"

[ $fails -eq 0 ] || exit 1
echo ok
