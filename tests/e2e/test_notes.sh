#!/bin/sh
# e2e: the twenty terminal notes of fixtures/notes ingested with no
# options give one configuration per distinct setup, with the dimensions
# of their pasted commands and an ashift and a recordsize sweep in the
# report; --label-from file|dir|title; generic labels of different files
# stay apart; the warning when sources collapse into a generic name.
# usage: test_notes.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
nd="$src/fixtures/notes"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$db" "$1"; }

# -- twenty notes, no options
db="$tmp/notes.db"
"$pb" ingest --db "$db" "$nd"/*.txt >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "ingest of the notes: exit $rc: $(cat "$tmp/err")"
grep -q "20 stored" "$tmp/err" || fail "not 20 stored: $(cat "$tmp/err")"
grep -q "warning" "$tmp/err" && fail "titled notes warned: $(cat "$tmp/err")"
# 20 notes, two pairs of identical setups: 18 configurations
n=$(q "SELECT count(*) FROM config")
[ "$n" = 18 ] || fail "expected 18 configurations, got $n"
# every configuration has the eight dimensions of the issue
for k in ashift recordsize layout slog atime sync primarycache write_cache; do
    n=$(q "SELECT count(*) FROM config_param WHERE key = '$k'")
    [ "$n" = 18 ] || fail "dimension $k on $n of 18 configurations"
done
# one configuration each, with exactly these dimensions
dims() { q "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT p.key,
    p.value FROM config_param p JOIN config c ON c.id = p.config_id
    WHERE c.label = '$1' ORDER BY p.key)"; }
want="ashift=12 atime=off dedup_class=no disks=2 disks_per_vdev=2 l2arc=no layout=mirror primarycache=none recordsize=4096 slog=stripe slog_vdevs=1 spares=0 special=no sync=always vdevs=1 write_cache=on"
[ "$(dims 'mirror + log')" = "$want" ] ||
    fail "mirror + log: $(dims 'mirror + log')"
want="ashift=9 atime=off dedup_class=no disks=2 disks_per_vdev=1 l2arc=no layout=stripe primarycache=none recordsize=4096 slog=no spares=0 special=no sync=always vdevs=2 write_cache=on"
[ "$(dims 'ashift=9')" = "$want" ] || fail "ashift=9: $(dims 'ashift=9')"
[ "$(dims 'write cache off + log' | grep -o 'write_cache=[a-z]*')" = write_cache=off ] ||
    fail "write cache off + log: $(dims 'write cache off + log')"
# exact values: ashift=9 read 4970 IOPS; the two ashift=12 notes are one
# configuration with n=2 (2595 and 673); recordsize=2k has one run in one
# note and three in the other, folded into one result: their mean, n=3,
# the three values kept (issue 42)
v=$(q "SELECT value FROM v_result WHERE config = 'ashift=9' AND metric = 'read_iops'")
[ "$v" = 4970.0 ] || fail "ashift=9 read_iops $v"
v=$(q "SELECT group_concat(value, ' ') FROM (SELECT value FROM v_result
    WHERE config = 'ashift=12' AND metric = 'read_iops' ORDER BY value)")
[ "$v" = "673.0 2595.0" ] || fail "ashift=12 read_iops: $v"
v=$(q "SELECT count(DISTINCT source_path) || ' ' || count(*) FROM v_result
    WHERE config = 'recordsize=2k' AND metric = 'read_iops'")
[ "$v" = "2 2" ] || fail "recordsize=2k: sources and results $v"
v=$(q "SELECT value || ' ' || samples FROM v_result WHERE config =
    'recordsize=2k' AND metric = 'read_iops' AND samples = 3")
[ "$v" = "2294.0 3" ] || fail "recordsize=2k: the three runs folded: $v"
v=$(q "SELECT group_concat(value, ' ') FROM (SELECT s.value FROM sample s
    JOIN result r ON r.id = s.result_id JOIN metric m ON m.id = r.metric_id
    JOIN config c ON c.id = r.config_id WHERE c.label = 'recordsize=2k' AND
    m.name = 'read_iops' ORDER BY s.seq)")
[ "$v" = "2679.0 999.0 3204.0" ] || fail "recordsize=2k: samples $v"
# the report sweeps ashift and recordsize
"$pb" report --db "$db" -o "$tmp/rep" >/dev/null 2>"$tmp/rerr" ||
    fail "report: $(cat "$tmp/rerr")"
grep -q 'alt="[^"]*read IOPS by ashift' "$tmp/rep/index.html" ||
    fail "no ashift sweep in the report"
grep -q 'alt="[^"]*IOPS by [^"]*recordsize' "$tmp/rep/index.html" ||
    fail "no recordsize sweep in the report"

# -- one note, two setups: the same label, two configurations
sed -n '1,/^  write:/p' "$nd/ashift09.txt" >"$tmp/two.txt"
sed -n '/zpool destroy/,$p' "$nd/mirror-ashift13.txt" >>"$tmp/two.txt"
db="$tmp/two.db"
"$pb" ingest --db "$db" "$tmp/two.txt" >/dev/null 2>&1 || fail "two setups: ingest"
v=$(q "SELECT group_concat(label || ':' || p.value, ' ') FROM (SELECT c.label,
    p.value FROM config c JOIN config_param p ON p.config_id = c.id
    WHERE p.key = 'ashift' ORDER BY p.value) p")
[ "$v" = "ashift=9:13 ashift=9:9" ] || fail "two setups in one note: $v"
v=$(q "SELECT group_concat(p.value || '=' || r.value, ' ') FROM result r
    JOIN metric m ON m.id = r.metric_id JOIN config_param p ON
    p.config_id = r.config_id AND p.key = 'ashift' WHERE m.name = 'read_iops'
    ORDER BY CAST(p.value AS INTEGER)")
[ "$v" = "9=4970.0 13=4939.0" ] || fail "two setups: read_iops by ashift $v"

# -- --label-from dir and file: label rules read the path component
strip() { grep -v 'zpool\|zfs \|hdparm\|^ashift\|^recordsize' "$1"; }
mkdir -p "$tmp/mirror-ashift13-recordsize8k"
strip "$nd/ashift09.txt" >"$tmp/mirror-ashift13-recordsize8k/run1.txt"
"$pb" ingest --dump --label-from dir "$tmp/mirror-ashift13-recordsize8k/run1.txt" \
    >"$tmp/d1" 2>&1 || fail "--label-from dir: $(cat "$tmp/d1")"
for l in "config 0 mirror-ashift13-recordsize8k" \
    "  ashift=13  # path: mirror-ashift13-recordsize8k/" \
    "  layout=mirror  # path: mirror-ashift13-recordsize8k/" \
    "  recordsize=8192  # path: mirror-ashift13-recordsize8k/"; do
    grep -qxF "$l" "$tmp/d1" || fail "--label-from dir: no '$l' in $(cat "$tmp/d1")"
done
strip "$nd/ashift09.txt" >"$tmp/raidz2_ashift12.txt"
"$pb" ingest --dump --label-from file "$tmp/raidz2_ashift12.txt" >"$tmp/d2" 2>&1
grep -qxF "  layout=raidz2  # path: raidz2_ashift12" "$tmp/d2" ||
    fail "--label-from file: $(cat "$tmp/d2")"
"$pb" ingest --dump --label-from title "$nd/mirror.txt" >"$tmp/d3" 2>&1
grep -qxF "config 0 mirror" "$tmp/d3" || fail "--label-from title: $(head -5 "$tmp/d3")"
{ echo "Samsung 970, raidz1"; grep '^  ' "$nd/rs8k.txt"; } >"$tmp/t.txt"
"$pb" ingest --dump "$tmp/t.txt" >"$tmp/d5" 2>&1
grep -qxF "config 0 job1 (file t)" "$tmp/d5" ||
    fail "no commands: the title is not taken without --label-from: $(grep config "$tmp/d5")"
"$pb" ingest --dump --label-from title "$tmp/t.txt" >"$tmp/d5" 2>&1
grep -qxF "config 0 Samsung 970, raidz1" "$tmp/d5" &&
    grep -qxF "  layout=raidz1  # title: line 1" "$tmp/d5" ||
    fail "--label-from title without commands: $(grep -A2 config "$tmp/d5")"
"$pb" ingest --dump --label-from fish "$nd/mirror.txt" >"$tmp/d4" 2>&1
[ $? = 2 ] || fail "--label-from fish: not a usage error"

# -- no title, no commands: the generic job name 'fio' is qualified by
# the file, so three files stay three configurations
for i in 1 2 3; do
    grep '^  ' "$nd/rs2k-repeats.txt" | sed -n "$((2 * i - 1)),$((2 * i))p" \
        >"$tmp/plain$i.txt"
done
db="$tmp/plain.db"
"$pb" ingest --db "$db" "$tmp"/plain?.txt >/dev/null 2>"$tmp/err"
n=$(q "SELECT count(*) FROM config")
[ "$n" = 3 ] || fail "three untitled files: $n configurations"
v=$(q "SELECT label FROM config ORDER BY label LIMIT 1")
[ "$v" = "job1 (file plain1)" ] || fail "qualified label: $v"
# -- iozone: two files without a Machine = line stay apart
cp "$src/fixtures/iozone/iozone-3.506_throughput-t2.txt" "$tmp/io-a.txt"
cp "$src/fixtures/iozone/iozone-3.506_throughput-t2.txt" "$tmp/io-b.txt"
echo >>"$tmp/io-b.txt"
db="$tmp/io.db"
"$pb" ingest --db "$db" "$tmp/io-a.txt" "$tmp/io-b.txt" >/dev/null 2>&1
n=$(q "SELECT count(*) FROM config")
[ "$n" = 2 ] || fail "two iozone files: $n configurations"

# -- the warning: three sources, one configuration with a generic name
db="$tmp/w.db"
"$pb" ingest --db "$db" --label fio "$tmp"/plain?.txt >/dev/null 2>"$tmp/err"
grep -q "^poolbench: warning: 3 sources are one configuration 'fio' with a generic name; if they are different setups, name them with --label, --label-from file|dir|title or --set KEY=VALUE$" "$tmp/err" ||
    fail "no collapse warning: $(cat "$tmp/err")"

# -- a hostile title: stored as written, escaped in the report
{ echo 'rs <script>alert(1)</script> & "q"'; sed 1d "$nd/rs8k.txt"; } >"$tmp/xss.txt"
db="$tmp/xss.db"
"$pb" ingest --db "$db" "$tmp/xss.txt" >/dev/null 2>&1 || fail "hostile title: ingest"
v=$(q "SELECT label FROM config")
[ "$v" = 'rs <script>alert(1)</script> & "q"' ] || fail "hostile title: label $v"
"$pb" report --db "$db" -o "$tmp/xr" >/dev/null 2>&1 || fail "hostile title: report"
grep -q 'alert(1)</script>' "$tmp/xr/index.html" "$tmp"/xr/charts/* &&
    fail "hostile title: unescaped in the report"
grep -q 'rs &lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/xr/index.html" ||
    fail "hostile title: not in the report"

[ $fails -eq 0 ] || exit 1
echo "ok: notes"
