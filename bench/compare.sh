#!/bin/sh
# bench/compare.sh: `poolbench compare` of two sides of 100,000 results
# each (issue 12: < 1 s and < 64 MB). Not part of ctest.
#
#   bench/compare.sh [POOLBENCH]      # default: build/poolbench
#
# Input shape (bench/gen_compare.py): bonnie++ 1.98 CSV, 2,778 machines
# (distinct configuration labels), each run 3 times (-x 3), 36 metrics:
# 100,008 results a side, each the mean of 3 runs with its standard
# error; the candidate is 20% slower in block I/O on every tenth machine.
# Two shapes: two databases (db:base.db db:cand.db), and one database
# with both files (source:base.csv source:cand.csv). Prints the median
# wall time, the CPU time (user + sys) and the largest peak RSS of
# REPEATS runs per output (terminal table, --json, --csv).
set -eu
pb=${1:-build/poolbench}
case $pb in /*) ;; *) pb=$(pwd)/$pb ;; esac
here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-/tmp/poolbench-bench-compare}
repeats=${REPEATS:-5}
machines=${MACHINES:-2778}
mkdir -p "$dir"
cd "$dir"
rm -f base.db cand.db both.db ./*-wal ./*-shm
python3 "$here/gen_compare.py" "$machines" .
"$pb" ingest -q --db base.db base.csv 2>/dev/null
"$pb" ingest -q --db cand.db cand.csv 2>/dev/null
"$pb" ingest -q --db both.db base.csv cand.csv 2>/dev/null
n=$(sqlite3 base.db 'SELECT count(*) FROM result' 2>/dev/null || echo "?")
echo "results a side: $n ($machines machines x 36 metrics, 3 runs each)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %-8s %9s %9s %9s\n' shape output wall_s cpu_s rss_MB
measure() {
    shape=$1 out=$2
    shift 2
    walls="" cpus="" rss=0
    i=0
    while [ $i -le "$repeats" ]; do
        /usr/bin/time -f '%e %U %S %M' -o t.txt "$pb" compare "$@" \
            >/dev/null 2>&1 || true
        if [ $i -gt 0 ]; then # the first run warms the page cache
            read -r w u s m <t.txt
            walls="$walls $w"
            cpus="$cpus $(echo "$u + $s" | bc)"
            [ "$m" -gt "$rss" ] && rss=$m
        fi
        i=$((i + 1))
    done
    med() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -n |
        awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
    printf '%-34s %-8s %9s %9s %9.1f\n' "$shape" "$out" "$(med $walls)" \
        "$(med $cpus)" "$(echo "$rss / 1024" | bc -l)"
}
for o in table json csv; do
    case $o in table) opt="" ;; *) opt="--$o" ;; esac
    # shellcheck disable=SC2086
    measure "db:base.db db:cand.db" "$o" db:base.db db:cand.db $opt
done
measure "source:base.csv source:cand.csv" table --db both.db \
    source:base.csv source:cand.csv
