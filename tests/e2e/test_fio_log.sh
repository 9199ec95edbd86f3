#!/bin/sh
# e2e: fio logs (issue 13, items 2 and 4). The real fio 3.33 runs in
# fixtures/fio-log are ingested with their fio JSON; the summaries of the
# per-I/O clat log equal fio's own JSON clat statistics (every I/O is in
# the log), series are stored with exact first and last points, export
# --series prints them (formula cells escaped), rm forgets them, and
# hostile files (10 GB sparse, NUL after a log line) are refused.
# usage: test_fio_log.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
db="$tmp/t.db"
q() { sqlite3 "$db" "$1"; }

cd "$src/fixtures" || exit 1
# (p999's logs are test_report_overtime_p99's)
"$pb" ingest --db "$db" -q $(ls fio-log/*.json fio-log/*.log fio-log/*.log.gz |
    grep -v '/p999') 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "ingest exit $rc: $(cat "$tmp/err")"

# the per-I/O clat log of avg0 holds all 800 reads: its mean, min, max and
# stdev are fio's JSON clat_ns mean 233554.0325, min 55532, max 2874433,
# stddev 150112.875173
v=$(q "SELECT value || ' ' || samples FROM v_result WHERE job = 'avg0' AND metric = 'read_clat_log_mean'")
[ "$v" = "233554.0325 800" ] || fail "read_clat_log_mean: $v"
v=$(q "SELECT value FROM v_result WHERE job = 'avg0' AND metric = 'read_clat_mean' AND format = 'fio-json'")
[ "$v" = "233554.0325" ] || fail "fio JSON read_clat_mean: $v"
v=$(q "SELECT group_concat(value, ' ') FROM (SELECT value FROM v_result WHERE job = 'avg0' AND metric IN ('read_clat_log_min', 'read_clat_log_max') ORDER BY metric DESC)")
[ "$v" = "55532.0 2874433.0" ] || fail "read_clat min/max: $v"
v=$(q "SELECT printf('%.6f', value) FROM v_result WHERE job = 'avg0' AND metric = 'read_clat_log_stdev'")
[ "$v" = "150112.875173" ] || fail "read_clat_log_stdev: $v"

# series: 5 logs of avg0 and 4 x 5 of avg500, each with reads and
# writes, and ss_iops (reads); avg0 per-I/O logs in 10 ms buckets (2 s run: 200 buckets);
# avg500 (log_avg_msec=500, numjobs=4) as logged: job avg500#0 read bw
# first line "499, 1202, 0, 0, 0" = 1202 KiB/s
v=$(q "SELECT count(*) FROM series")
[ "$v" = "51" ] || fail "series: $v"
v=$(q "SELECT s.kind || ' ' || s.width_ms || ' ' || count(*) FROM series s JOIN result r ON r.id = s.result_id JOIN job j ON j.id = r.job_id JOIN series_point p ON p.series_id = s.id WHERE j.name = 'avg0' AND s.name = 'read_clat' GROUP BY s.id")
[ "$v" = "io 10 200" ] || fail "avg0 read_clat: $v"
v=$(q "SELECT p.t_ms || ' ' || p.value || ' ' || p.n || ' ' || p.min || ' ' || p.max FROM series s JOIN result r ON r.id = s.result_id JOIN job j ON j.id = r.job_id JOIN series_point p ON p.series_id = s.id WHERE j.name = 'avg0' AND s.name = 'read_clat' ORDER BY p.seq LIMIT 1")
[ "$v" = "10 172415.75 4 93359.0 311682.0" ] || fail "avg0 read_clat first bucket: $v"
v=$(q "SELECT p.t_ms || ' ' || p.value FROM series s JOIN result r ON r.id = s.result_id JOIN job j ON j.id = r.job_id JOIN series_point p ON p.series_id = s.id WHERE j.name = 'avg500#0' AND s.name = 'read_bw' ORDER BY p.seq")
[ "$(echo "$v" | head -n 1)" = "499 1230848.0" ] || fail "avg500#0 read_bw first: $v"
[ "$(echo "$v" | wc -l)" = "6" ] || fail "avg500#0 read_bw points: $v"
# histogram log: the first interval of avg500#1 (job 2) reads. fio's
# tools/fiologparser_hist.py (fio 3.33, /usr/share/doc/fio) printed, run
# here once on 1 Dec 2026 as `fiologparser_hist.py --noweight -i 500
# --directions r fixtures/fio-log/avg500_clat_hist.2.log` (numpy and
# pandas absent: a pure-Python stand-in for the numpy calls of that path,
# bench/fio_logs):
#   end-time, dir, samples, min, avg, median, 90%, 95%, 99%, max
#   1000, r, 152, 42496, 391296.000, 204800.000, 653066.240, 792985.600, 3046113.280, 3211264
v=$(q "SELECT p.t_ms || ' ' || p.n || ' ' || p.min || ' ' || printf('%.3f %.3f %.3f %.3f %.3f', p.value, p.p50, p.p90, p.p95, p.p99) || ' ' || p.max FROM series s JOIN result r ON r.id = s.result_id JOIN job j ON j.id = r.job_id JOIN series_point p ON p.series_id = s.id WHERE j.name = 'avg500#1' AND s.name = 'read_clat_hist' ORDER BY p.seq LIMIT 1")
[ "$v" = "503 152 42496.0 391296.000 204800.000 653066.240 792985.600 3046113.280 3211264.0" ] ||
    fail "avg500#1 read_clat_hist: $v"

# the .gz log is the plain log's bytes: one source
v=$(q "SELECT count(*) FROM source WHERE path LIKE '%avg0_clat.1.log%'")
[ "$v" = "1" ] || fail "gz sources: $v"

# export --series
"$pb" export --db "$db" --series --csv --metric '^read_bw$' --config '^avg500$' \
    >"$tmp/s.csv" || fail "export --series"
tr -d '\r' <"$tmp/s.csv" >"$tmp/s"
[ "$(head -n 1 "$tmp/s")" = "source,config,test,job,series,t_ms,value,min,max,unit,kind,n,p50,p90,p95,p99,p99.9" ] ||
    fail "series header: $(head -n 1 "$tmp/s")"
[ "$(wc -l <"$tmp/s")" = "24" ] || fail "series rows: $(wc -l <"$tmp/s")"
grep -q '^fio-log/avg500_bw.1.log,avg500,fio randrw bs=4k iodepth=1 numjobs=4 rwmixread=70,avg500#0,read_bw,499,1230848,,,B/s,avg,,,,,,$' "$tmp/s" ||
    fail "series row: $(sed -n 2p "$tmp/s")"
"$pb" export --db "$db" --series --json --metric '^write_clat_hist$' \
    --config '^avg0$' >"$tmp/s.json" || fail "export --series --json"
v=$(grep -c '"series":"write_clat_hist"' "$tmp/s.json")
[ "$v" = "3" ] || fail "json rows: $v"
# a label that a spreadsheet would run stays text
"$pb" ingest --db "$tmp/f.db" -q --label '=HYPERLINK("x")' fio-log/avg0_iops.1.log ||
    fail "ingest --label"
"$pb" export --db "$tmp/f.db" --series --csv | sed -n 2p | grep -q "^fio-log/avg0_iops.1.log,\"'=HYPERLINK" ||
    fail "formula escaping: $("$pb" export --db "$tmp/f.db" --series --csv | sed -n 2p)"
# ... and in the report's series CSV (render/csv_out.c, as every chart's)
"$pb" report --db "$tmp/f.db" -o "$tmp/frep" -q || fail "report of the label"
v=$(sed -n 2p "$tmp/frep/charts/series-001-read_iops.csv")
case "$v" in
'"'"'"'=HYPERLINK(""x"")",'*) ;;
*) fail "series CSV formula escaping: $v" ;;
esac

# report: an "Over time" chart per test and series (1 + 2 tests x 10
# series), each with its exact points as CSV next to it; avg0's read_clat
# (tests sort "fio randread", "... numjobs=4 ...", "... rwmixread=70") has
# 200 buckets
"$pb" report --db "$db" -o "$tmp/rep" -q || fail report
grep -q '<h2>Over time</h2>' "$tmp/rep/index.html" || fail "no Over time section"
grep -q '<li><a href="#over-time">Over time</a></li>' "$tmp/rep/index.html" ||
    fail "contents list does not link Over time"
v=$(ls "$tmp/rep/charts" | grep -c '^series-.*\.csv$')
[ "$v" = "21" ] || fail "series CSV files: $v"
v=$(tr -d '\r' <"$tmp/rep/charts/series-013-read_clat.csv" | wc -l)
[ "$v" = "201" ] || fail "read_clat CSV lines: $v"
grep -q 'href="charts/series-013-read_clat.csv"' "$tmp/rep/index.html" ||
    fail "no CSV link"
# --metric names series too: only the read_clat charts (2 tests)
"$pb" report --db "$db" -o "$tmp/rm" -q --metric '^read_clat$' ||
    fail "report --metric '^read_clat\$'"
v=$(ls "$tmp/rm/charts" | grep -c 'series-read-clat\.svg$')
[ "$v" = "2" ] || fail "read_clat charts: $v ($(ls "$tmp/rm/charts" | tr '\n' ' '))"

# --per-job: avg500's four jobs are four lines, not one summed line
"$pb" report --db "$db" -o "$tmp/rpj" -q --per-job --config '^avg500$' ||
    fail "report --per-job"
v=$(grep -l 'numjobs=4 rwmixread=70: read_bw over time' "$tmp/rpj/charts/"*.svg)
[ "$(grep -o '>avg500 · avg500#[0-3]<' $v | sort -u | wc -l)" = "4" ] ||
    fail "per-job legend: $(grep -o '>avg500[^<]*<' $v | tr '\n' ' ')"
v=$(grep -l 'numjobs=4 rwmixread=70: read_bw over time' "$tmp/rep/charts/"*.svg)
[ "$(grep -c '>avg500<' $v)" = "1" ] || fail "summed line legend"
# the CSV has every point of every job (6 + 5 + 6 + 6)
v=$(cat "$tmp/rpj/charts/"series-*-read_bw.csv | tr -d '\r' | grep -c '^avg500,avg500#')
[ "$v" = "23" ] || fail "per-job CSV rows: $v"

# fio's steadystate section (ss.json: attained over a 2 s window) shades
# the chart of its test
v=$(q "SELECT group_concat(metric || '=' || value, ' ') FROM (SELECT metric, value FROM v_result WHERE metric LIKE 'ss_%' ORDER BY metric)")
[ "$v" = "ss_attained=1.0 ss_duration=2000000000.0" ] || fail "steadystate: $v"
v=$(grep -l '>steady state</text>' "$tmp/rep/charts/"*.svg)
[ "$(echo "$v" | wc -w)" = "1" ] && grep -q 'fio randread bs=4k iodepth=1: read_iops over time' $v ||
    fail "steady-state marking: $v"

# rm forgets the series with the source
"$pb" rm --db "$db" fio-log/avg0_clat_hist.1.log >/dev/null || fail rm
v=$(q "SELECT count(*) FROM series")
[ "$v" = "49" ] || fail "series after rm: $v"
v=$(q "SELECT count(*) FROM series_point WHERE series_id NOT IN (SELECT id FROM series)")
[ "$v" = "0" ] || fail "orphan points: $v"
v=$(q "PRAGMA foreign_key_check")
[ -z "$v" ] || fail "foreign keys: $v"

# hostile: a 10 GB sparse file named like a log, and a log line then NULs
truncate -s 10G "$tmp/big_bw.1.log"
printf '0, 1, 0, 4096, 0\n' >"$tmp/nul_iops.1.log"
truncate -s 1M "$tmp/nul_iops.1.log"
"$pb" ingest --db "$tmp/h.db" -q "$tmp/big_bw.1.log" "$tmp/nul_iops.1.log" 2>"$tmp/herr"
rc=$?
[ $rc -eq 1 ] || fail "hostile exit $rc"
grep -q "big_bw.1.log: file is 10240 MiB, larger than the 512 MiB" "$tmp/herr" ||
    fail "sparse: $(cat "$tmp/herr")"
grep -q "nul_iops.1.log:2: NUL byte" "$tmp/herr" || fail "nul: $(cat "$tmp/herr")"
v=$(sqlite3 "$tmp/h.db" "SELECT count(*) FROM source")
[ "$v" = "0" ] || fail "hostile stored $v"

[ $fails -eq 0 ] || exit 1
echo "ok"
