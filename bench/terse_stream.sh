#!/bin/sh
# bench/terse_stream.sh: fio terse streamed ingest (issue 16 item 1) by
# hand: generated terse files of N records (bench/gen_corpus.py terse,
# job names in two runs each) ingested by POOLBENCH and, when given, by
# OLD (say main's binary, which parses terse whole), one after the other
# for each size; prints a markdown row per size (CPU = user+sys, wall,
# peak RSS) and whether the two databases are identical (sqlite3 .dump,
# the ingest time masked). docs/design.md "Streaming ingest", fio terse.
#
# usage: bench/terse_stream.sh POOLBENCH [OLD]
# env:   SIZES ("10000 100000 400000"), NAMES (distinct names = N / NAMES,
#        default 2), BENCH_DIR (/tmp/poolbench-terse; the 400,000-record
#        file is 424 MB, deleted at the end)
set -eu
new=$1
old=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/poolbench-terse}
sizes=${SIZES:-10000 100000 400000}
div=${NAMES:-2}
mkdir -p "$dir"
trap 'rm -f "$dir"/t.txt "$dir"/*.db "$dir"/*.db-*' EXIT

# run BIN: "CPU s, wall s, RSS MB" of ingesting $dir/t.txt into $dir/X.db
run() {
    rm -f "$dir/$2.db" "$dir/$2.db"-*
    /usr/bin/time -f '%U %S %e %M' -o "$dir/time" "$1" ingest --quiet \
        --db "$dir/$2.db" "$dir/t.txt" >/dev/null 2>&1
    awk '{printf "%.2f s, %.2f s, %d MB", $1 + $2, $3, $4 / 1024}' \
        "$dir/time"
}

dump() {
    sqlite3 "$1" .dump |
        sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z\{0,1\}/TIME/g' |
        md5sum
}

echo "load: $(uptime | sed 's/.*load average: //')"
echo "| records | input | results | old: CPU, wall, RSS | new: CPU, wall, RSS | same database |"
echo "|---:|---:|---:|---|---|---|"
for n in $sizes; do
    python3 "$src/bench/gen_corpus.py" terse \
        --src "$src/fixtures/fio-terse/fio-3.33_terse-v3_randrw70_4k_qd8.txt" \
        --records "$n" --names $((n / div)) --out "$dir/t.txt" >/dev/null
    mb=$(du -m "$dir/t.txt" | cut -f1)
    o=-
    [ -n "$old" ] && o=$(run "$old" old)
    w=$(run "$new" new)
    res=$(sqlite3 "$dir/new.db" "SELECT count(*) FROM result")
    same=-
    if [ -n "$old" ]; then
        same=no
        [ "$(dump "$dir/old.db")" = "$(dump "$dir/new.db")" ] && same=yes
    fi
    echo "| $n | $mb MB | $res | $o | $w | $same |"
done
