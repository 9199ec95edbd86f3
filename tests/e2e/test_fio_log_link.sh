#!/bin/sh
# e2e: fio logs linked to the fio JSON of their folder when many logs and
# folders go through one ingest run (ingest/fio/fio_log_link.c reads each
# folder's files once and keeps them per folder): every log gets the JSON
# of its own folder, a log that two JSON files name stays unlinked
# (ambiguous), files that are no fio JSON are passed over; seven folders,
# more than the folders the cache keeps, with the same job names.
# usage: test_fio_log_link.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
command -v sqlite3 >/dev/null 2>&1 || { echo "skipping: no sqlite3" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
fx="$src/fixtures/fio-log"

# folder dD: jD.json (its job "r" writes r_bw.1.log) and sK.json for
# K = 0..9 (job sK, sK_bw.1.log), their logs, and a file that is no JSON.
# Each log's first value is its own (a copy would be "already present").
for d in 1 2 3 4 5 6 7; do
    mkdir -p "$tmp/d$d"
    sed "s/avg0/r/g" "$fx/avg0.json" >"$tmp/d$d/j$d.json"
    sed "1s/^0, [0-9]*/0, 9$d/" "$fx/avg0_bw.1.log" >"$tmp/d$d/r_bw.1.log"
    for k in 0 1 2 3 4 5 6 7 8 9; do
        sed "s/avg0/s$k/g" "$fx/avg0.json" >"$tmp/d$d/s$k.json"
        sed "1s/^0, [0-9]*/0, 8$d$k/" "$fx/avg0_bw.1.log" >"$tmp/d$d/s${k}_bw.1.log"
    done
    echo "not json" >"$tmp/d$d/notes.txt"
done
# d7: a second JSON naming job r makes r_bw.1.log ambiguous there
sed "s/avg0/r/g" "$fx/avg0.json" >"$tmp/d7/k7.json"
# d3: s5.json is of another job (t5): d3/s5_bw.1.log has no run, though
# the s5.json of every other folder names s5
sed "s/avg0/t5/g" "$fx/avg0.json" >"$tmp/d3/s5.json"

db="$tmp/l.db"
"$pb" ingest --db "$db" -q --threads 2 "$tmp"/d*/*.json "$tmp"/d*/*.log \
    2>"$tmp/err" ||
    fail "ingest exit $?: $(cat "$tmp/err")"
q() { sqlite3 "$db" "$1"; }
n=$(q "SELECT count(*) FROM source WHERE format = 'fio-log'")
[ "$n" = 77 ] || fail "logs stored: $n"
# every log but d7's r_bw is linked to the JSON of its own folder that
# names it: dD/sK_bw.1.log to dD/sK.json, dD/r_bw.1.log to dD/jD.json
q "SELECT s.path || ' ' || coalesce(f.value, '-') FROM source s
   LEFT JOIN fact f ON f.source_id = s.id AND f.key = 'fio_log_run'
   WHERE s.format = 'fio-log' ORDER BY s.path" >"$tmp/links"
while read -r log json; do
    dir=${log%/*}
    case "$log" in
    */d7/r_bw.1.log) continue ;;
    */d3/s5_bw.1.log) want=- ;;
    */r_bw.1.log) want="$dir/j${dir##*/d}.json" ;;
    *) want="${log%_bw.1.log}.json" ;;
    esac
    [ "$json" = "$want" ] || fail "$log linked to $json, not $want"
done <"$tmp/links"
[ "$(wc -l <"$tmp/links")" = 77 ] || fail "links: $(wc -l <"$tmp/links")"
v=$(q "SELECT f.value FROM fact f JOIN source s ON s.id = f.source_id
       WHERE f.key = 'fio_log_run' AND s.path LIKE '%/d7/r_bw.1.log'")
case "$v" in
ambiguous:*) ;;
*) fail "d7/r_bw.1.log: $v" ;;
esac
# linked logs take the JSON's configuration and test, the ambiguous one its
# own name (fio r, fio s5)
v=$(q "SELECT count(DISTINCT test) FROM v_result WHERE format = 'fio-log'")
[ "$v" = 3 ] || fail "tests of the logs: $v ($(q "SELECT DISTINCT test FROM v_result WHERE format = 'fio-log'" | tr '\n' '|'))"
v=$(q "SELECT test FROM v_result WHERE source_path LIKE '%/d7/r_bw.1.log' LIMIT 1")
[ "$v" = "fio r" ] || fail "ambiguous log's test: $v"

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "ok: 77 logs in 7 folders linked"
