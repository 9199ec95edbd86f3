#!/bin/sh
# e2e (issue 42 item 8, "the experiment's own axis, without being told"):
# a bonnie++ layout study with its sheet (fixtures/sheets/layout-study*:
# twelve real pools, layout, vdevs, disks, slog and l2arc moving together,
# no full factorial) gets a sweep of every configuration by layout, with
# vdevs, slog, l2arc and disks as columns of its table and CSV, without
# --x; before, it drew "by disks and layout" for 6 of the 12 and said
# nothing of the others. A study whose grid holds most configurations
# keeps its grid (fixtures/sheets/hosts.csv: layout and slog).
# usage: test_sweep_axis.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks: $2"; }
# the rows of sweep N's table as text, cells joined by " | "
sweep_rows() {
    awk -v id="id=\"sweep-$2\"" '
        index($0, id) { on = 1 }
        on && /<\/table>/ { exit }
        on && /^<tr><td/ { print }' "$1" |
        sed 's#</td><td[^>]*># | #g; s#<[^>]*>##g'
}
cd "$src/fixtures" || exit 1
db="$tmp/l.db"
"$pb" ingest -q --db "$db" --configs sheets/layout-study-sheet.csv \
    sheets/layout-study.csv 2>/dev/null || fail "ingest the layout study"
[ "$(sqlite3 "$db" 'SELECT count(*) FROM config')" = 12 ] ||
    fail "12 configurations expected"

# -- 1. no --x: block output and rewrite by layout, every configuration
"$pb" report -q --db "$db" -o "$tmp/r" 2>"$tmp/err" || fail "report: $(cat "$tmp/err")"
h="$tmp/r/index.html"
has "$h" '<h3 id="sweep-2">sequential output, block by layout, every configuration</h3>'
has "$h" '<h3 id="sweep-3">sequential rewrite by layout, every configuration</h3>'
has "$h" 'every configuration is drawn by layout, the dimension that explains them, with a row per combination of the others (vdevs · slog · l2arc · disks), which the table lists as columns.'
has "$h" '<tr><th>layout</th><th>vdevs</th><th>slog</th><th>l2arc</th><th>disks</th><th class="r">Value</th>'
sweep_rows "$h" 2 >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" = 12 ] || fail "block sweep: $(wc -l <"$tmp/rows") rows, want 12"
# grouped by layout; exact values of the file (K/s × 1024)
for r in \
    'mirror | 1 | no | no | 2 | 124.5 MiB/s |  | 1 | 77.8% | 130573312 | lab03' \
    'mirror | 1 | yes | no | 2 | 105.6 MiB/s |  | 1 | 66.0% | 110723072 | lab04' \
    'mirror | 2 | no | no | 4 | 146.2 MiB/s |  | 1 | 91.4% | 153286656 | lab06' \
    'raidz1 | 1 | no | no | 3 | 160.0 MiB/s |  | 1 | 100.0% | 167760896 | lab07' \
    'raidz1 | 1 | yes | yes | 4 | 116.9 MiB/s |  | 1 | 73.1% | 122619904 | lab09' \
    'raidz1 | 2 | no | no | 6 | 122.9 MiB/s |  | 1 | 76.8% | 128902144 | lab12' \
    'raidz2 | 1 | no | yes | 5 | 104.7 MiB/s |  | 1 | 65.5% | 109812736 | lab11' \
    'stripe | 1 | no | no | 1 | 130.7 MiB/s |  | 1 | 81.7% | 137097216 | lab01' \
    'stripe | 2 | no | no | 2 | 145.2 MiB/s |  | 1 | 90.8% | 152263680 | lab02'; do
    has "$tmp/rows" "$r — bonnie++ file_size=256M files=1k"
done
[ "$(cut -d'|' -f1 "$tmp/rows" | uniq | tr -d ' \n')" = mirrorraidz1raidz2stripe ] ||
    fail "rows not grouped by layout: $(cut -d'|' -f1 "$tmp/rows" | tr -d ' ' | tr '\n' ' ')"
# nothing left out, nothing pooled
awk '/id="sweep-2"/,/id="sweep-3"/' "$h" | grep -q 'Not in this sweep\|pooled' &&
    fail "the block sweep leaves something out"
# the chart's data: the other dimensions as columns
csv=$(ls "$tmp"/r/charts/*-sweep-seq-out-block-bw-layout-all.csv)
has "$csv" 'layout,vdevs,slog,l2arc,disks,config,test,metric,unit,direction,value,stderr,n,results,pct_of_best'
has "$csv" 'raidz1,1,yes,yes,4,lab09,bonnie++ file_size=256M files=1k,seq_out_block_bw,B/s,higher,122619904,,1,1,'
[ "$(($(wc -l <"$csv") - 1))" = 12 ] || fail "CSV rows: $(wc -l <"$csv")"
python3 "$src/tests/e2e/report_csv_check.py" "$tmp/r" >"$tmp/chk" 2>&1 ||
    fail "chart CSVs and tables differ: $(cat "$tmp/chk")"
# the heatmap: a row per combination of the others, layouts as columns
svg=$(ls "$tmp"/r/charts/*-heatmap-seq-out-block-bw-layout-all.svg)
has "$svg" '>vdevs · slog · l2arc · disks</text>'
has "$svg" '>1 · yes · yes · 4</text>'

# -- 2. --x layout: the same sweep (it used to draw 2 of 12 configurations)
"$pb" report -q --db "$db" -o "$tmp/x" --x layout --metric '^seq_rewrite_bw$' \
    2>"$tmp/err" || fail "--x layout: $(cat "$tmp/err")"
has "$tmp/x/index.html" '<h3 id="sweep-1">sequential rewrite by layout, every configuration</h3>'
[ "$(sweep_rows "$tmp/x/index.html" 1 | wc -l)" = 12 ] || fail "--x layout: not 12 rows"

# -- 3. a study whose grid holds most configurations keeps it
db="$tmp/h.db"
"$pb" ingest -q --db "$db" --configs sheets/hosts.csv sheets/coded-machines.csv \
    2>/dev/null || fail "ingest sheets"
"$pb" report -q --db "$db" -o "$tmp/h" 2>/dev/null || fail "report sheets"
has "$tmp/h/index.html" '<h3 id="sweep-2">sequential output, block by layout and slog</h3>'
grep -q 'every configuration' "$tmp/h/index.html" && fail "the hosts grid was replaced"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "sweep axis checks passed"
