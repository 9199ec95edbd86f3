#!/bin/sh
# e2e: the ingest/list/export command line against real fio fixtures:
# idempotent re-ingest, a truncated file among good ones, usage and
# database errors with their exit codes, --label/--set, stdin, two
# concurrent writers, and values checked against the JSON files themselves.
# usage: test_ingest_cli.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }

# -- a directory of good files, twice
mkdir "$tmp/good"
cp "$fx"/fio-3.33_randread_4k_qd4_libaio.json "$fx"/fio-3.33_three-jobs.json \
   "$fx"/fio-3.33_write_64k_fsync16.json "$tmp/good/"
db="$tmp/a.db"
"$pb" ingest --db "$db" "$tmp/good" >"$tmp/out1" 2>"$tmp/err1"
rc=$?
[ $rc -eq 0 ] || fail "first ingest exit $rc: $(cat "$tmp/err1")"
n1=$(q "$db" "SELECT count(*) FROM result")
s1=$(q "$db" "SELECT count(*) FROM source")
[ "$s1" = 3 ] || fail "expected 3 sources, got $s1"
[ "$n1" -gt 0 ] || fail "no results"
"$pb" ingest --db "$db" "$tmp/good" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ $rc -eq 0 ] || fail "second ingest exit $rc"
n2=$(q "$db" "SELECT count(*) FROM result")
[ "$n1" = "$n2" ] || fail "re-ingest changed row count $n1 -> $n2"
grep -q "already in the database" "$tmp/out2" || fail "re-ingest did not say so"
grep -q "0 stored (0 results), 3 already present, 0 rejected" "$tmp/err2" ||
    fail "summary after re-ingest: $(cat "$tmp/err2")"

# -- values match the files (oracle: sqlite's own JSON functions)
f="$tmp/good/fio-3.33_randread_4k_qd4_libaio.json"
want=$(q "$db" "SELECT json_extract(readfile('$f'), '\$.jobs[0].read.iops')")
got=$(q "$db" "SELECT value FROM v_result WHERE source_path='$f' AND metric='read_iops'")
[ -n "$want" ] && [ "$want" = "$got" ] || fail "read_iops $got != file $want"
want=$(q "$db" "SELECT json_extract(readfile('$f'), '\$.jobs[0].read.bw_bytes')")
got=$(q "$db" "SELECT value FROM v_result WHERE source_path='$f' AND metric='read_bw'")
[ "$(printf '%.0f' "$want")" = "$(printf '%.0f' "$got")" ] || fail "read_bw $got != $want"
want=$(q "$db" "SELECT json_extract(readfile('$f'), '\$.jobs[0].read.clat_ns.percentile.\"99.000000\"')")
got=$(q "$db" "SELECT value FROM v_result WHERE source_path='$f' AND metric='read_clat_p99'")
[ "$(printf '%.0f' "$want")" = "$(printf '%.0f' "$got")" ] || fail "read_clat_p99 $got != $want"
unit=$(q "$db" "SELECT unit || ' ' || direction FROM v_result WHERE source_path='$f' AND metric='read_clat_p99'")
[ "$unit" = "ns lower" ] || fail "clat unit/direction: $unit"
# write-only job: no read rows
f="$tmp/good/fio-3.33_write_64k_fsync16.json"
n=$(q "$db" "SELECT count(*) FROM v_result WHERE source_path='$f' AND metric LIKE 'read%'")
[ "$n" = 0 ] || fail "write-only job has $n read rows"

# -- a truncated file among good ones: good ones land, exit 1, bad one named
mkdir "$tmp/mixed"
cp "$tmp/good/"* "$tmp/mixed/"
cp "$fx"/fio-3.33_randrw70_4k_json-plus.json "$tmp/mixed/zz-good.json"
head -c 3000 "$fx"/fio-3.33_randread_numjobs4_group-reporting.json >"$tmp/mixed/m-truncated.json"
printf 'hello, these are my notes\n' >"$tmp/mixed/notes.txt"
: >"$tmp/mixed/empty.json"
db="$tmp/b.db"
"$pb" ingest --db "$db" -q "$tmp/mixed" 2>"$tmp/err3" >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "mixed dir exit $rc, want 1"
grep -q "^poolbench: $tmp/mixed/m-truncated.json:[0-9][0-9]*:" "$tmp/err3" ||
    fail "truncated file not named with path:line: $(cat "$tmp/err3")"
grep -q "^poolbench: $tmp/mixed/notes.txt:" "$tmp/err3" || fail "notes.txt not reported"
grep -q "^poolbench: $tmp/mixed/empty.json: empty file" "$tmp/err3" || fail "empty file not reported"
s=$(q "$db" "SELECT count(*) FROM source")
[ "$s" = 4 ] || fail "mixed dir stored $s sources, want 4"
n=$(q "$db" "SELECT count(*) FROM source WHERE path LIKE '%truncated%'")
[ "$n" = 0 ] || fail "truncated file left a source row"
nerr=$(grep -c '^poolbench: /' "$tmp/err3")
[ "$nerr" = 3 ] || fail "want exactly 3 error lines, got $nerr"

# -- stdin, --label, --set
db="$tmp/c.db"
"$pb" ingest --db "$db" -q --label "zfs 8k" --set recordsize=8k --set Compression=LZ4 - \
    <"$fx"/fio-3.33_randread_4k_qd4_libaio.json 2>/dev/null || fail "stdin ingest"
v=$(q "$db" "SELECT value FROM config_param p JOIN config c ON c.id=p.config_id WHERE c.label='zfs 8k' AND key='recordsize'")
[ "$v" = 8192 ] || fail "--set recordsize=8k stored '$v'"
v=$(q "$db" "SELECT value FROM config_param WHERE key='compression'")
[ "$v" = lz4 ] || fail "--set compression stored '$v'"
v=$(q "$db" "SELECT DISTINCT config FROM v_result")
[ "$v" = "zfs 8k" ] || fail "--label gave config '$v'"
v=$(q "$db" "SELECT value FROM test_param WHERE key='bs'")
[ "$v" = 4096 ] || fail "bs test_param '$v'"

# -- list and export
"$pb" list --db "$db" sources | grep -q "fio-json" || fail "list sources"
"$pb" list --db "$db" configs | grep -q "compression=lz4, recordsize=8192" || fail "list configs"
"$pb" list --db "$db" tests | grep -q "fio randread bs=4k iodepth=4" || fail "list tests"
"$pb" list --db "$db" --json results >"$tmp/r.json" || fail "list --json"
v=$(q "$db" "SELECT json_valid(readfile('$tmp/r.json')) AND json_array_length(readfile('$tmp/r.json')) = (SELECT count(*) FROM result)")
[ "$v" = 1 ] || fail "list --json results is not a full JSON array"
"$pb" export --db "$db" --csv --metric '^read_iops$' >"$tmp/e.csv" || fail "export csv"
[ "$(wc -l <"$tmp/e.csv")" = 2 ] || fail "export --metric ^read_iops$ rows: $(cat "$tmp/e.csv")"
head -1 "$tmp/e.csv" | grep -q '^source_path,format,host,config,test,tool,job,metric,value,unit,direction,stderr,samples' ||
    fail "csv header"
"$pb" export --db "$db" --json -o "$tmp/e.json" --test 'randread' || fail "export json"
v=$(q "$db" "SELECT json_array_length(readfile('$tmp/e.json')) = (SELECT count(*) FROM v_result WHERE test LIKE '%randread%')")
[ "$v" = 1 ] || fail "export --json row count"
"$pb" export --db "$db" --csv --test '(' >/dev/null 2>"$tmp/err4"
[ $? -eq 2 ] || fail "bad regex should exit 2"
grep -q "bad pattern" "$tmp/err4" || fail "bad regex message: $(cat "$tmp/err4")"

# -- usage errors exit 2, environment errors exit 3
"$pb" ingest --db "$db" >/dev/null 2>&1; [ $? -eq 2 ] || fail "ingest without PATH"
"$pb" ingest --bogus x >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option"
"$pb" ingest --set novalue x >/dev/null 2>&1; [ $? -eq 2 ] || fail "--set without ="
"$pb" ingest --format nope x >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown --format"
"$pb" injest x >/dev/null 2>"$tmp/err5"; [ $? -eq 2 ] || fail "unknown command"
grep -q "Did you mean 'ingest'" "$tmp/err5" || fail "no suggestion: $(cat "$tmp/err5")"
"$pb" export --db "$db" >/dev/null 2>&1; [ $? -eq 2 ] || fail "export without --csv/--json"
"$pb" ingest --db "$tmp/no/such/dir/x.db" "$f" >/dev/null 2>"$tmp/err6"
[ $? -eq 3 ] || fail "unopenable db should exit 3"
grep -q "cannot \(open\|create\) database" "$tmp/err6" || fail "db error message: $(cat "$tmp/err6")"
"$pb" list --db "$tmp/missing.db" >/dev/null 2>&1; [ $? -eq 3 ] || fail "list on missing db"
[ -e "$tmp/missing.db" ] && fail "list created a database"
printf 'not a database at all, just text padding it out to a page.....' >"$tmp/junk.db"
"$pb" ingest --db "$tmp/junk.db" "$f" >/dev/null 2>&1; [ $? -eq 3 ] || fail "junk db should exit 3"
for c in ingest list export; do
    "$pb" $c --help | grep -q "^usage: poolbench $c" || fail "$c --help"
done

# -- two processes ingesting into one database at once
db="$tmp/d.db"
mkdir "$tmp/p1" "$tmp/p2"
i=0
for g in "$fx"/*.json; do
    i=$((i + 1))
    if [ $((i % 2)) -eq 0 ]; then cp "$g" "$tmp/p1/"; else cp "$g" "$tmp/p2/"; fi
done
"$pb" ingest --db "$db" -q "$tmp/p1" 2>"$tmp/e1" & p1=$!
"$pb" ingest --db "$db" -q "$tmp/p2" 2>"$tmp/e2" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 -le 1 ] && [ $r2 -le 1 ] || fail "concurrent ingest exits $r1 $r2"
grep -q "locked" "$tmp/e1" "$tmp/e2" && fail "database is locked"
want=$(cat "$tmp/e1" "$tmp/e2" | sed -n 's/.* \([0-9][0-9]*\) stored.*/\1/p' | awk '{s+=$1} END {print s}')
got=$(q "$db" "SELECT count(*) FROM source")
[ "$want" = "$got" ] || fail "concurrent: stored $want but $got sources"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"
# foreign keys are not enforced by SQLite for poolbench (model/db.c): the
# ids it writes must all point at rows
[ -z "$(q "$db" 'PRAGMA foreign_key_check')" ] || fail "foreign_key_check: $(q "$db" 'PRAGMA foreign_key_check' | head -n 3)"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all ingest CLI checks passed"
