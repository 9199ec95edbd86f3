#!/usr/bin/env bash
# bench/bonnie_side.sh: issue 41 item 2 side by side in one run: a
# bonnie++ CSV of BON_ROWS distinct machines (bench/gen_corpus.py bonnie
# --unique-names: real rows of fixtures/bonnie-csv, a machine name each,
# nothing folds), bon_csv2html on it, then ingest and report by two
# binaries, alternating, BON_REPEATS times: wall, user, system time and
# peak RSS, and (ingest + report) / bon_csv2html CPU. Prints Markdown.
#
#   BASE, CUR     the binaries (default: /work/baseline/poolbench-18a7a21
#                 and build/poolbench of this tree)
#   BON_DIR       CSV, databases, reports (default /tmp/poolbench-bonnie)
#   BON_ROWS      machines (default 100000)
#   BON_REPEATS   rounds (default 2)
#   FLOOR         1 (default): also, each round, bench/sqlite_floor.c on
#                 CUR's database: SQLite alone storing the same rows from
#                 memory (schema, WAL, synchronous=FULL, one transaction)
#                 and scanning the result table once: the least SQLite
#                 work ingest + report can cost; 0: not
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BON_DIR:-/tmp/poolbench-bonnie}
ROWS=${BON_ROWS:-100000}
REPEATS=${BON_REPEATS:-2}
CUR=${CUR:-$ROOT/build/poolbench}
BASE=${BASE:-/work/baseline/poolbench-18a7a21}
case "${1:-}" in
-h | --help)
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
for b in "$BASE" "$CUR"; do
    [ -x "$b" ] || { echo "bonnie_side.sh: $b is not an executable" >&2; exit 2; }
done
command -v bon_csv2html >/dev/null ||
    { echo "bonnie_side.sh: bon_csv2html (Debian package bonnie++) is needed" >&2; exit 3; }
mkdir -p "$DIR"
FLOOR=${FLOOR:-1}
if [ "$FLOOR" = 1 ]; then
    cc -O2 -o "$DIR/sqlite_floor" "$ROOT/bench/sqlite_floor.c" -lsqlite3 ||
        { echo "bonnie_side.sh: cannot build bench/sqlite_floor.c" >&2; exit 1; }
fi
csv=$DIR/bonnie-$ROWS.csv
[ -s "$csv" ] || python3 "$ROOT/bench/gen_corpus.py" bonnie \
    --src "$ROOT"/fixtures/bonnie-csv/*.csv "$ROOT"/fixtures/bonnie-csv/*.txt \
    --out "$csv" --rows "$ROWS" --unique-names >&2

# run NAME CMD...: "wall user sys rssMB" of one run
run() {
    /usr/bin/time -f '%e %U %S %M' -o "$DIR/time" "$@" >/dev/null 2>&1 ||
        { echo "bonnie_side.sh: failed: $*" >&2; exit 1; }
    awk '{printf "%s %s %s %.1f", $1, $2, $3, $4 / 1024}' "$DIR/time"
}
echo "| round | what | wall s | user s | sys s | peak RSS MB | (ingest+report) / bon_csv2html CPU |"
echo "|---|---|---|---|---|---|---|"
for i in $(seq 1 "$REPEATS"); do
    read -r w u s m <<<"$(run sh -c 'bon_csv2html <"$1" >"$2"' sh "$csv" "$DIR/bon.html")"
    bon=$(echo "$u + $s" | bc -l)
    echo "| $i | bon_csv2html | $w | $u | $s | $m | |"
    for which in base cur; do
        b=$BASE
        [ "$which" = cur ] && b=$CUR
        rm -f "$DIR/$which.db"
        rm -rf "$DIR/rep-$which"
        read -r w u s m <<<"$(run "$b" ingest -q --db "$DIR/$which.db" "$csv")"
        echo "| $i | $which ingest | $w | $u | $s | $m | |"
        cpu=$(echo "$u + $s" | bc -l)
        read -r w u s m <<<"$(run "$b" report -q --db "$DIR/$which.db" -o "$DIR/rep-$which")"
        cpu=$(echo "$cpu + $u + $s" | bc -l)
        printf '| %s | %s report | %s | %s | %s | %s | %.2f |\n' "$i" "$which" \
            "$w" "$u" "$s" "$m" "$(echo "$cpu / $bon" | bc -l)"
    done
    if [ "$FLOOR" = 1 ]; then
        rm -f "$DIR/floor.db" "$DIR/floor.db-wal" "$DIR/floor.db-shm"
        out=$("$DIR/sqlite_floor" "$DIR/cur.db" "$DIR/floor.db" 256 2>"$DIR/floor.err") ||
            { cat "$DIR/floor.err" >&2; exit 1; }
        st=$(echo "$out" | awk '$1 == "store" {print $2}')
        sc=$(echo "$out" | awk '$1 == "scan" {print $2}')
        printf '| %s | SQLite floor: store from memory %s s + scan %s s | | | | | %.2f |\n' \
            "$i" "$st" "$sc" "$(echo "($st + $sc) / $bon" | bc -l)"
        rm -f "$DIR/floor.db" "$DIR/floor.db-wal" "$DIR/floor.db-shm"
    fi
done
echo
echo "Input: $csv ($(du -mL "$csv" | cut -f1) MB, $ROWS distinct machines);" \
    "base = $BASE, cur = $CUR; $(uptime | sed 's/.*load/load/')"
