#!/bin/sh
# e2e: streamed ingest (docs/performance.md, "Streaming ingest"). Generated
# bonnie++ CSV files of one distinct machine per row, over the 128 KiB from
# which a file is streamed: stored in parts yet atomic (a broken row near
# the end stores nothing of the file, one line path:line: ..., exit 1, the
# other files of the run stored), runs of a machine at both ends of the
# file still folded, duplicates and --replace as for any file, and peak
# RSS of 200,000 distinct machines (7.2 M results) under 64 MB (not under
# ASan).
# usage: test_ingest_stream.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin

# gen ROWS OUT [BADLINE [REPEAT]]: bonnie++ 2.00a rows (CSV format 1.98),
# machine mNNNNNN on row NNNNNN; row BADLINE is cut after 10 cells; with
# REPEAT, one more row of machine m000001 ends the file
gen() {
    awk -v n="$1" -v bad="${3:-0}" -v rep="${4:-0}" '
    function row(i, name, v) {
        printf "1.98,2.00a,%s,1,%d,64M,,8192,5,%d,99,%d,12,%d,9,%d,99,%d,21,%d.%d,3,1,4096,1024,,4,+++++,+++,%d,40,+++++,+++,+++++,+++,%d,41,+++++,+++,2948us,%dus,172us,1839us,180us,8064us,336us,58us,223us,350us,176us,221us\n", name, 1795000000 + i, v + i % 997, 90000 + i % 5011, 40000 + i % 3001, 5000 + i % 887, 150000 + i % 7919, 200 + i % 97, i % 10, 20000 + i % 1009, 30000 + i % 2003, 200 + i % 61
    }
    BEGIN {
        for (i = 1; i <= n; i++) {
            if (i == bad) {
                printf "1.98,2.00a,m%06d,1,1795987957,64M,,8192,5,oops\n", i
                continue
            }
            row(i, sprintf("m%06d", i), 3000)
        }
        if (rep)
            row(1, "m000001", 3200)
    }' >"$2"
}

small="$src/fixtures/bonnie-csv/bonnie-2.00a_x3-repeats.csv"
[ -f "$small" ] || small=$(ls "$src"/fixtures/bonnie-csv/*.csv | head -1)

# -- a broken row near the end: nothing of the file, the others stored
gen 20000 "$tmp/bad.csv" 19990
size=$(wc -c <"$tmp/bad.csv")
[ "$size" -gt 131072 ] || fail "bad.csv is $size bytes, not streamed"
db="$tmp/a.db"
"$pb" ingest --db "$db" --quiet "$small" "$tmp/bad.csv" 2>"$tmp/err" \
    >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "broken row: exit $rc, expected 1"
want="poolbench: $tmp/bad.csv:19990: row \"m019990\" has 10 columns, expected 50 (CSV format 1.98)"
got=$(grep -v "stored (" "$tmp/err")
[ "$got" = "$want" ] || fail "broken row: stderr '$got'"
n=$(q "$db" "SELECT count(*) FROM source")
[ "$n" = 1 ] || fail "broken row: $n sources, expected 1 (the good file)"
n=$(q "$db" "SELECT count(*) FROM result r JOIN host h ON h.id = r.host_id
             WHERE h.name LIKE 'm0%'")
[ "$n" = 0 ] || fail "broken row: $n results of the broken file stored"
n=$(q "$db" "SELECT count(*) FROM host WHERE name LIKE 'm0%'")
[ "$n" = 0 ] || fail "broken row: $n hosts of the broken file stored"
n=$(q "$db" "SELECT count(*) FROM fact WHERE host LIKE 'm0%'")
[ "$n" = 0 ] || fail "broken row: $n facts of the broken file stored"
# --dump (whole sets) says the same
"$pb" ingest --dump "$tmp/bad.csv" 2>"$tmp/err2" >/dev/null
[ "$(grep -v "stored (" "$tmp/err2")" = "$want" ] ||
    fail "--dump says '$(cat "$tmp/err2")'"

# -- a good streamed file, m000001 again on the last line: exact rows
gen 20000 "$tmp/good.csv" 0 1
db="$tmp/b.db"
"$pb" ingest --db "$db" "$tmp/good.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "good file: exit $rc: $(cat "$tmp/err")"
grep -q "good.csv: bonnie-csv, 720000 results" "$tmp/out" ||
    fail "good file: $(cat "$tmp/out")"
[ "$(q "$db" "SELECT count(*) FROM source")" = 1 ] || fail "sources"
[ "$(q "$db" "SELECT count(*) FROM config")" = 20000 ] ||
    fail "configs: $(q "$db" "SELECT count(*) FROM config")"
[ "$(q "$db" "SELECT count(*) FROM result")" = 720000 ] ||
    fail "results: $(q "$db" "SELECT count(*) FROM result")"
[ "$(q "$db" "SELECT count(*) FROM fact WHERE key = 'bonnie_version'")" = 20000 ] ||
    fail "bonnie_version facts"
[ "$(q "$db" "SELECT tool_version FROM source")" = "bonnie++-2.00a" ] ||
    fail "tool_version: $(q "$db" "SELECT tool_version FROM source")"
v() { # v MACHINE METRIC: value|stderr|samples
    q "$db" "SELECT r.value || '|' || coalesce(r.stderr, '') || '|' ||
                    coalesce(r.samples, '')
             FROM result r JOIN config c ON c.id = r.config_id
             JOIN metric m ON m.id = r.metric_id
             WHERE c.label = '$1' AND m.name = '$2'"
}
# rows 1 and 20001: 3001 and 3201 K/s, folded (mean 3101 K/s, n = 2)
got=$(v m000001 seq_out_char_bw)
[ "$got" = "3175424.0|102400.0|2" ] || fail "m000001 putc: '$got'"
got=$(v m012345 seq_out_block_bw) # 90000 + 12345 % 5011 = 92323 K/s
[ "$got" = "94538752.0||" ] || fail "m012345 put_block: '$got'"
got=$(q "$db" "SELECT count(*) FROM result r JOIN metric m
               ON m.id = r.metric_id WHERE m.name = 'seq_create'
               AND r.value IS NULL AND r.reason_id IN (SELECT id FROM reason WHERE text LIKE '+++++%')")
[ "$got" = 20000 ] || fail "seq_create too fast: $got"
# the machine folded from both ends is one config with one sample pair
got=$(q "$db" "SELECT group_concat(value, ',') FROM (SELECT s.value
               FROM sample s JOIN result r ON r.id = s.result_id
               JOIN config c ON c.id = r.config_id
               JOIN metric m ON m.id = r.metric_id
               WHERE c.label = 'm000001' AND m.name = 'seq_out_char_bw'
               ORDER BY s.seq)")
[ "$got" = "3073024.0,3277824.0" ] || fail "m000001 samples: '$got'"

# -- the same bytes again: skipped; --replace: stored anew, once
"$pb" ingest --db "$db" "$tmp/good.csv" >"$tmp/out" 2>&1 ||
    fail "again: exit $?"
grep -q "already in the database" "$tmp/out" || fail "again: $(cat "$tmp/out")"
"$pb" ingest --db "$db" --replace "$tmp/good.csv" >"$tmp/out" 2>&1 ||
    fail "--replace: exit $?: $(cat "$tmp/out")"
grep -q "drop source 1: replaced by" "$tmp/out" ||
    fail "--replace: $(cat "$tmp/out")"
[ "$(q "$db" "SELECT count(*) FROM source")" = 1 ] ||
    fail "--replace: sources $(q "$db" "SELECT id FROM source")"
[ "$(q "$db" "SELECT count(*) FROM result")" = 720000 ] ||
    fail "--replace: results $(q "$db" "SELECT count(*) FROM result")"

# -- --replace by a broken file at the same path: refused, the old kept
cp "$tmp/bad.csv" "$tmp/good.csv"
"$pb" ingest --db "$db" --replace --quiet "$tmp/good.csv" >/dev/null \
    2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "--replace broken: exit $rc"
grep -q "good.csv:19990: row \"m019990\" has 10 columns" "$tmp/err" ||
    fail "--replace broken: $(cat "$tmp/err")"
[ "$(q "$db" "SELECT count(*) || ' ' || sum(r.n) FROM source s
              JOIN (SELECT source_id, count(*) n FROM result
                    GROUP BY source_id) r ON r.source_id = s.id")" = "1 720000" ] ||
    fail "--replace broken: the stored source changed"

# -- the same database streamed in parts as parsed whole (test ids and
# parameters too; tests/e2e/stream_compare.sh): every bonnie++ fixture
# (bad ones: the same error, nothing stored), the corpus (the annttu file
# mixes 1.96 rows with a 1.03 row naming the same test without
# concurrency: two tests either way), and a file whose machines recur all
# over it, with parts of 1 and 40 results
awk 'BEGIN { for (i = 1; i <= 300; i++) {
    name = i % 7 == 0 ? "rep" (i % 3) : "m" i
    printf "1.98,2.00a,%s,1,%d,%s,,8192,5,%d,99,%d,12,+++++,+++,%d,99,%d,21,%d.5,3,1,4096,1024,,4,+++++,+++,%d,40,+++++,+++,+++++,+++,%d,41,+++++,+++,2948us,%dus,172us,1839us,180us,8064us,336us,58us,223us,350us,176us,221us\n", name, 1795000000 + i, i % 2 ? "64M" : "128M", 3000 + i, 90000 + 7 * i, 5000 + i, 150000 + i, 200 + i, 20000 + i, 30000 + i, 200 + i
} }' >"$tmp/mixed.csv"
for f in "$tmp/mixed.csv" "$src"/fixtures/bonnie-csv/*.csv \
         "$src"/fixtures/bonnie-csv/*.txt "$src"/fixtures/bonnie-csv/bad/* \
         ${3:+"$3"/bonnie-csv/*}; do
    case $f in *.err | *.expected | *.md) continue ;; esac
    [ -f "$f" ] || continue
    stream_same "$f" 1 40
done
# -- tests of one name with other parameters stay apart when the database
# is merged into another (model/merge.c): the annttu file's 1.03 row
f=${3:-/nonexistent}/bonnie-csv/bonnie-1.96-and-1.03-mixed_with-comment_annttu.csv
if [ -f "$f" ]; then
    TQ="SELECT c.label, t.name, (SELECT group_concat(key || '=' || value)
          FROM (SELECT * FROM test_param WHERE test_id = t.id ORDER BY key)),
          count(*) FROM result r JOIN config c ON c.id = r.config_id
        JOIN test t ON t.id = r.test_id GROUP BY c.label, t.id
        ORDER BY c.label, t.id"
    rm -f "$tmp"/w.db* "$tmp"/m.db*
    "$pb" ingest --db "$tmp/w.db" --quiet "$f" >/dev/null 2>&1
    "$pb" ingest --db "$tmp/m.db" --quiet "$tmp/w.db" >/dev/null 2>&1 ||
        fail "merge: exit $?"
    got=$(q "$tmp/m.db" "$TQ" | tail -1)
    [ "$got" = "host7|bonnie++ file_size=8096M files=256k|file_size=8489271296,num_files=262144|24" ] ||
        fail "merged host7: '$got'"
    [ "$(q "$tmp/w.db" "$TQ")" = "$(q "$tmp/m.db" "$TQ")" ] ||
        fail "merged database: tests differ"
    rm -f "$tmp"/w.db* "$tmp"/m.db*
fi
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=1 \
    "$pb" ingest --db "$tmp/s.db" --quiet "$tmp/mixed.csv" >/dev/null 2>&1
got=$(q "$tmp/s.db" "SELECT count(DISTINCT config_id) || ' ' || count(*)
                     FROM result")
# 258 + 3 machines; rep0..2 ran at 64M and 128M: 264 groups x 36
[ "$got" = "261 9504" ] || fail "mixed.csv: configs and results '$got'"

# -- peak RSS of 200,000 distinct machines (48 MB of CSV)
if stream_rss_ok; then
    gen 200000 "$tmp/big.csv"
    db="$tmp/c.db"
    stream_rss "$tmp/big.csv" "$db"
    echo "200k distinct machines: peak RSS $rss KB"
    [ "$rss" -lt 65536 ] || fail "200k: peak RSS $rss KB, limit 65536"
    [ "$(q "$db" "SELECT count(*) FROM config")" = 200000 ] ||
        fail "200k: configs $(q "$db" "SELECT count(*) FROM config")"
    [ "$(q "$db" "SELECT count(*) FROM result")" = 7200000 ] ||
        fail "200k: results $(q "$db" "SELECT count(*) FROM result")"
    got=$(v m199999 seq_in_block_bw) # 150000 + 199999 % 7919 = 152024 K/s
    [ "$got" = "155672576.0||" ] || fail "m199999 get_block: '$got'"
fi

stream_end
