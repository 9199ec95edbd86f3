#!/bin/sh
# bench/stream_ingest.sh: streamed ingest of fio terse or fio text (issue
# 16 item 1) by hand: generated files of N records (terse:
# bench/gen_corpus.py terse, job names in two runs each) or N runs (text:
# bench/gen_corpus.py text, copies of one real run) ingested by POOLBENCH
# and, when given, by OLD (say main's binary before streaming, or "whole":
# POOLBENCH with POOLBENCH_STREAM_MIN past the file size), one after the
# other for each size; prints a markdown row per size (CPU = user+sys,
# wall, peak RSS) and whether the two databases are identical (sqlite3
# .dump, the ingest time masked). docs/performance.md "Streaming ingest".
#
# usage: bench/stream_ingest.sh POOLBENCH [OLD|whole]
# env:   KIND (terse, the default, or text), SIZES (terse: "10000 100000
#        400000" records; text: "18733 74932" runs), NAMES (terse:
#        distinct names = N / NAMES, default 2; text: distinct names, 0 =
#        the run's own name in every run, the default), BENCH_DIR
#        (/tmp/poolbench-stream; the largest file, 424 MB for terse, is
#        deleted at the end)
set -eu
new=$1
old=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/poolbench-stream}
kind=${KIND:-terse}
case $kind in
terse) sizes=${SIZES:-10000 100000 400000} div=${NAMES:-2} ;;
text) sizes=${SIZES:-18733 74932} div=${NAMES:-0} ;;
*) echo "KIND is terse or text" >&2; exit 2 ;;
esac
mkdir -p "$dir"
trap 'rm -f "$dir"/t.txt "$dir"/*.db "$dir"/*.db-*' EXIT

# run BIN NAME: "CPU s, wall s, RSS MB" of ingesting $dir/t.txt into
# $dir/NAME.db (BIN "whole": $new, parsed whole)
run() {
    rm -f "$dir/$2.db" "$dir/$2.db"-*
    if [ "$1" = whole ]; then
        set -- "env POOLBENCH_STREAM_MIN=999999999999 $new" "$2"
    fi
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S %e %M' -o "$dir/time" $1 ingest --quiet \
        --db "$dir/$2.db" "$dir/t.txt" >/dev/null 2>&1
    awk '{printf "%.2f s, %.2f s, %d MB", $1 + $2, $3, $4 / 1024}' \
        "$dir/time"
}

dump() {
    sqlite3 "$1" .dump |
        sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z\{0,1\}/TIME/g' |
        md5sum
}

gen() {
    if [ "$kind" = terse ]; then
        python3 "$src/bench/gen_corpus.py" terse \
            --src "$src/fixtures/fio-terse/fio-3.33_terse-v3_randrw70_4k_qd8.txt" \
            --records "$1" --names $(($1 / div)) --out "$dir/t.txt" >/dev/null
    else
        python3 "$src/bench/gen_corpus.py" text \
            --src "$src/fixtures/fio-text/fio-3.33_randrw70_4k_qd8_libaio.txt" \
            --runs "$1" --names "$div" --out "$dir/t.txt" >/dev/null
    fi
}

echo "load: $(uptime | sed 's/.*load average: //')"
echo "| $kind: records or runs | input | results | old: CPU, wall, RSS | new: CPU, wall, RSS | same database |"
echo "|---:|---:|---:|---|---|---|"
for n in $sizes; do
    gen "$n"
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
