#!/usr/bin/env bash
# bench/wide_report.sh: issue 41 item 1 side by side in one run: the
# report of many configurations x many tests (bench/gen_wide.py: 10,000
# fio files of 64 real seeds, ~10,000 configurations x ~50 tests, ~440,000
# results) by two binaries on the same database: wall, user and system
# time, peak RSS, the HTML pages (how many, how many >= 5 MB, the largest)
# and the SVGs, files and inline (how many >= 200 KB, the largest). Each
# binary reports WIDE_REPEATS times, alternating. Prints a Markdown table.
#
#   BASE, CUR     the binaries (default: /work/baseline/poolbench-18a7a21
#                 if present, and build/poolbench of this tree)
#   WIDE_DIR      runs, corpus, database, reports (default /tmp/poolbench-wide)
#   WIDE_COUNT    files (default 10000)
#   WIDE_REPEATS  reports per binary (default 2)
#   FIO           fio for the seed runs (default fio; they are made once)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${WIDE_DIR:-/tmp/poolbench-wide}
COUNT=${WIDE_COUNT:-10000}
REPEATS=${WIDE_REPEATS:-2}
CUR=${CUR:-$ROOT/build/poolbench}
BASE=${BASE:-/work/baseline/poolbench-18a7a21}
case "${1:-}" in
-h | --help)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
for b in "$BASE" "$CUR"; do
    [ -x "$b" ] || { echo "wide_report.sh: $b is not an executable" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "wide_report.sh: /usr/bin/time is needed" >&2; exit 3; }
mkdir -p "$DIR"

if [ ! -s "$DIR/runs/randrw-qd16-nj4.jsonplus.json" ]; then
    echo "== seed runs (fio, about a minute)" >&2
    python3 "$ROOT/bench/gen_wide.py" runs "$DIR/runs" --fio "${FIO:-fio}"
fi
if [ ! -s "$DIR/wide.db" ] || [ "$(cat "$DIR/count" 2>/dev/null)" != "$COUNT" ]; then
    rm -rf "$DIR/wide" "$DIR/wide.db"
    python3 "$ROOT/bench/gen_wide.py" wide --seeds "$DIR/runs" \
        "$ROOT/fixtures/fio-json" --out "$DIR/wide" --count "$COUNT" >&2
    "$CUR" ingest -q --db "$DIR/wide.db" "$DIR/wide"
    rm -f "$DIR/wide-base.db"
    echo "$COUNT" >"$DIR/count"
fi
# each binary reports its own ingest of the files: the base cannot open a
# database of a newer schema (schema 8: series_point.p999)
if [ ! -s "$DIR/wide-base.db" ]; then
    "$BASE" ingest -q --db "$DIR/wide-base.db" "$DIR/wide"
fi
shape=$("$CUR" list configs --db "$DIR/wide.db" 2>/dev/null | wc -l)

# pages and SVGs of report folder $1: "pages big largest svgs bigsvg largestsvg"
sizes() {
    python3 - "$1" <<'EOF'
import os, re, sys
pages, svgs = [], []
for root, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        p = os.path.join(root, f)
        if f.endswith(".html"):
            pages.append(os.path.getsize(p))
            t = open(p, encoding="utf-8", errors="replace").read()
            svgs += [len(m.group(0).encode())
                     for m in re.finditer(r"<svg\b.*?</svg>", t, re.S)]
        elif f.endswith(".svg"):
            svgs.append(os.path.getsize(p))
print(len(pages), sum(s >= 5000000 for s in pages), max(pages),
      len(svgs), sum(s >= 200000 for s in svgs), max(svgs or [0]))
EOF
}

echo "| run | binary | wall s | user s | sys s | peak RSS MB | pages | >= 5 MB | largest page B | SVGs | >= 200 KB | largest SVG B |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for i in $(seq 1 "$REPEATS"); do
    for which in base cur; do
        b=$BASE db=$DIR/wide-base.db
        [ "$which" = cur ] && b=$CUR db=$DIR/wide.db
        rm -rf "$DIR/rep-$which"
        /usr/bin/time -f '%e %U %S %M' -o "$DIR/time" \
            "$b" report -q --db "$db" -o "$DIR/rep-$which"
        read -r wall user sys rss <"$DIR/time"
        read -r np nbig lp ns nsbig ls <<<"$(sizes "$DIR/rep-$which")"
        printf '| %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n' \
            "$i" "$which" "$wall" "$user" "$sys" "$(echo "$rss / 1024" | bc -l)" \
            "$np" "$nbig" "$lp" "$ns" "$nsbig" "$ls"
    done
done
echo
echo "Input: $COUNT fio files (bench/gen_wide.py), $((shape - 1)) configurations," \
    "$(sqlite3 "$DIR/wide.db" 'select count(*) from result' 2>/dev/null || echo '?') results;" \
    "base = $BASE, cur = $CUR; $(uptime | sed 's/.*load/load/')"
