#!/bin/bash
# Issue 41 item 3: fio JSON ingest against a bare single-core jansson parse
# of the same bytes, side by side in one run. By hand, not part of ctest.
#
#   bench/ingest_ceiling.sh POOLBENCH [POOLBENCH...]
#
# Makes (once, kept in BENCH_DIR) the input: COUNT (1,000) fio JSON files
# of gen_wide.py (fresh fio json and json+ runs of read/write/randread/
# randwrite/randrw x iodepth 1/16 x numjobs 1/4, plus fixtures/fio-json;
# one configuration per file, ~44 results per file, json+ latency bins),
# held in /dev/shm when it is a tmpfs (the bytes come from the page cache,
# as in the issue). Then, REPEATS (7) rounds, each one running in turn:
#   bare     parse_ceiling json: read every file, jansson json_loadb each
#            (one thread; the flags fio_json.c once used), nothing kept
#   ingest   each POOLBENCH: `ingest -q --db NEW.db INPUT` into a fresh
#            database on the disk (BENCH_DIR), every result stored and
#            synced as the durability contract says (WAL, synchronous=FULL)
# and prints per round wall and CPU (user+sys) of each process and the
# ratio ingest / bare, then the medians. The stored result count of each
# ingest must be the same in every round (all results stored) and is
# printed with the "0 rejected" check.
#
# Variables: BENCH_DIR (/tmp/poolbench-ingest-ceiling), COUNT (1000),
# REPEATS (7), SEEDS (a folder of fio runs made by `gen_wide.py runs`;
# default BENCH_DIR/runs, made here when missing, ~70 s), FIO (fio).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/poolbench-ingest-ceiling}
COUNT=${COUNT:-1000}
REPEATS=${REPEATS:-7}
SEEDS=${SEEDS:-$BENCH_DIR/runs}
FIO=${FIO:-fio}
[ $# -ge 1 ] || {
    echo "usage: bench/ingest_ceiling.sh POOLBENCH [POOLBENCH...]" >&2
    exit 2
}
for b in "$@"; do
    [ -x "$b" ] || { echo "ingest_ceiling: not executable: $b" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "ingest_ceiling: needs /usr/bin/time" >&2; exit 2; }
mkdir -p "$BENCH_DIR"

# ---- the bare parse ----
CEIL=$BENCH_DIR/parse_ceiling
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -O2 -o "$CEIL" "$ROOT/bench/parse_ceiling.c" \
    $(pkg-config --cflags --libs jansson libxml-2.0 libcrypto)

# ---- the input ----
if ! ls "$SEEDS"/*.json >/dev/null 2>&1; then
    echo "== fio seed runs into $SEEDS (gen_wide.py runs, ~70 s)"
    python3 "$ROOT/bench/gen_wide.py" runs "$SEEDS" --fio "$FIO"
fi
IN_PARENT=$BENCH_DIR
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
    IN_PARENT=/dev/shm/poolbench-ingest-ceiling
fi
IN=$IN_PARENT/wide-$COUNT
STAMP="$(cat "$ROOT/bench/gen_wide.py" "$ROOT/bench/gen_many.py" | cksum) \
$(cat "$SEEDS"/*.json "$ROOT"/fixtures/fio-json/*.json | cksum) $COUNT"
if [ "$(cat "$IN/.stamp" 2>/dev/null)" != "$STAMP" ]; then
    rm -rf "$IN"
    mkdir -p "$IN"
    python3 "$ROOT/bench/gen_wide.py" wide --seeds "$SEEDS" \
        "$ROOT/fixtures/fio-json" --out "$IN" --count "$COUNT"
    printf '%s\n' "$STAMP" >"$IN/.stamp"
fi
NFILES=$(find "$IN" -name '*.json' | wc -l)
NBYTES=$(find "$IN" -name '*.json' -printf '%s\n' | awk '{s += $1} END {print s}')
NPLUS=$(grep -l '"bins"' -r "$IN" --include='*.json' | wc -l)

echo "== input: $IN ($(stat -f -c %T "$IN"))"
echo "   $NFILES files, $NBYTES bytes, $NPLUS of them json+ (latency bins)"
echo "   seeds: $(find "$SEEDS" -maxdepth 1 -name '*.json' | wc -l) fio runs in $SEEDS + fixtures/fio-json"
echo "== machine: $(nproc) cores, $(uname -r); load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for b in "$@"; do
    echo "   $b: $("$b" --version 2>/dev/null | sed -n 's/^ *git *//p')"
done

# run ID CMD...: wall (s) and user+sys (s) of one process into W_ID, C_ID
W=$BENCH_DIR/work
mkdir -p "$W"
run() {
    local id=$1
    shift
    local t0=$EPOCHREALTIME
    /usr/bin/time -o "$W/$id.time" -f '%U %S' "$@" >"$W/$id.out" 2>"$W/$id.err"
    local t1=$EPOCHREALTIME
    WALLS[$id]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')
    CPUS[$id]=$(awk '{printf "%.3f", $1 + $2}' "$W/$id.time")
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

declare -A WALLS CPUS
declare -a BW BC BP
declare -A IW IC RW RC RESULTS
echo "== $REPEATS rounds (one warm-up first, not counted)"
printf '%-6s %-26s %8s %8s %8s %10s %10s\n' round binary wall_s cpu_s parse_s wall_ratio cpu_ratio
for r in $(seq 0 "$REPEATS"); do
    run bare "$CEIL" json "$IN"
    parse_s=$(sed -n 's/.*parse_s=\([0-9.]*\).*/\1/p' "$W/bare.out")
    if [ "$r" -gt 0 ]; then
        BW+=("${WALLS[bare]}")
        BC+=("${CPUS[bare]}")
        BP+=("$parse_s")
        printf '%-6s %-26s %8s %8s %8s\n' "$r" "bare jansson" "${WALLS[bare]}" \
            "${CPUS[bare]}" "$parse_s"
    fi
    i=0
    for b in "$@"; do
        i=$((i + 1))
        rm -f "$W/db$i.db" "$W/db$i.db-wal" "$W/db$i.db-shm"
        run "ing$i" "$b" ingest -q --db "$W/db$i.db" "$IN"
        line=$(grep 'stored (' "$W/ing$i.err" | tail -1)
        n=$(printf '%s\n' "$line" | sed -n 's/.*stored (\([0-9]*\) results).*/\1/p')
        case "$line" in
        *" 0 rejected"*) ;;
        *) echo "ingest_ceiling: $b rejected files: $line" >&2; exit 1 ;;
        esac
        if [ -n "${RESULTS[$i]:-}" ] && [ "${RESULTS[$i]}" != "$n" ]; then
            echo "ingest_ceiling: $b stored $n results, before ${RESULTS[$i]}" >&2
            exit 1
        fi
        RESULTS[$i]=$n
        [ "$r" -gt 0 ] || continue
        IW[$i]="${IW[$i]:-} ${WALLS[ing$i]}"
        IC[$i]="${IC[$i]:-} ${CPUS[ing$i]}"
        rw=$(ratio "${WALLS[ing$i]}" "${WALLS[bare]}")
        rc=$(ratio "${CPUS[ing$i]}" "${CPUS[bare]}")
        RW[$i]="${RW[$i]:-} $rw"
        RC[$i]="${RC[$i]:-} $rc"
        printf '%-6s %-26s %8s %8s %8s %10s %10s\n' "$r" "ingest #$i" \
            "${WALLS[ing$i]}" "${CPUS[ing$i]}" "" "$rw" "$rc"
    done
done

mb=$(median "${BW[@]}")
mc=$(median "${BC[@]}")
mp=$(median "${BP[@]}")
echo "== medians of $REPEATS rounds (load at end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-40s wall %6.3f s  cpu %6.3f s  (parse alone %.3f s)\n' \
    "bare jansson parse (1 thread)" "$mb" "$mc" "$mp"
i=0
for b in "$@"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    w=$(median ${IW[$i]})
    # shellcheck disable=SC2086
    c=$(median ${IC[$i]})
    # shellcheck disable=SC2086
    maxw=$(printf '%s\n' ${RW[$i]} | sort -g | tail -1)
    # shellcheck disable=SC2086
    maxc=$(printf '%s\n' ${RC[$i]} | sort -g | tail -1)
    printf '%-40s wall %6.3f s  cpu %6.3f s  results %s\n' \
        "ingest #$i $(basename "$(dirname "$b")")/$(basename "$b")" "$w" "$c" \
        "${RESULTS[$i]}"
    printf '%-40s wall %s x (worst round %s x), cpu %s x (worst %s x); wall / parse alone %s x\n' \
        "  ingest #$i / bare" "$(ratio "$w" "$mb")" "$maxw" "$(ratio "$c" "$mc")" \
        "$maxc" "$(ratio "$w" "$mp")"
done
