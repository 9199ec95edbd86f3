#!/bin/sh
# e2e (issue 14, "a layout sweep"): dimensions that follow from another
# (vdevs and disks of a layout such as stripe-2, as a `poolbench run` of
# examples/layouts.ini stores them) do not split the sweep's groups, so the
# report sweeps by layout; with them counted as dimensions of their own
# only slog x l2arc per layout was drawn.
# usage: test_sweep_layout.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

t="$tmp/layouts.tsv"
printf 'layout\tvdevs\tdisks\tslog\tl2arc\tRead IOPS\n' >"$t"
n=100
for l in stripe-1:1:1 stripe-2:2:2 stripe-3:3:3 stripe-4:4:4 mirror-2:1:2 \
         2xmirror-2:2:4 raidz1:1:4 raidz2:1:4; do
    ly=${l%%:*} r=${l#*:} v=${r%%:*} d=${r#*:}
    for s in yes no; do
        for c in yes no; do
            n=$((n + 37))
            printf '%s\t%s\t%s\t%s\t%s\t%d\n' "$ly" "$v" "$d" "$s" "$c" "$n" >>"$t"
        done
    done
done
"$pb" ingest -q --db "$tmp/a.db" --format table "$t" 2>/dev/null || fail "ingest"
"$pb" report --db "$tmp/a.db" -o "$tmp/r" -q || fail "report"
h="$tmp/r/index.html"
grep -q '<h3 id="sweep-1">read IOPS by layout and [a-z0-9]*</h3>' "$h" ||
    fail "no sweep by layout: $(grep -o '<h3 id="sweep[^>]*>[^<]*</h3>' "$h")"
# one panel holds every layout: vdevs and disks did not split it
n=$(grep -o 'id="sweep-1"' "$h" | wc -l)
[ "$n" = 1 ] || fail "sweep-1 heading $n times"
for l in stripe-1 stripe-4 2xmirror-2 raidz2; do
    grep -q ">$l<" "$h" || fail "layout $l missing from the report"
done

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "layout sweep checks passed"
