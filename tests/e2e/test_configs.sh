#!/bin/sh
# e2e: configurations whose dimensions are written elsewhere than the result
# files. A bonnie++ CSV with coded machine names (host_1.1 ... host_4.4_c)
# gets layout, vdevs, l2arc and slog from a configuration sheet
# (--configs, CSV and TSV) or from one `zpool status` per code ingested
# with --label, in either order, with byte-identical `list configs`, the
# same v_result and a clean model; the report shows where each dimension
# came from and a sweep by layout. Also: a sheet stored again from the same
# path replaces the old one, a note for sheet labels no configuration has,
# --set origins, bad sheets (exit 2, nothing stored), hostile sheet values
# escaped in the report, --dump.
# usage: test_configs.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
hasnt() { grep -qF -- "$2" "$1" && fail "$1 has: $2"; }
# run from fixtures/ so that stored paths (and origins) are relative
cd "$src/fixtures" || exit 1
csv=sheets/coded-machines.csv
codes="1.1 1.2 2.1 2.2 3.1 3.2 4.1 4.4_c"

# the model must be clean whatever the order
clean() {
    [ "$(q "$1" 'PRAGMA integrity_check')" = ok ] || fail "$1: integrity_check"
    [ -z "$(q "$1" 'PRAGMA foreign_key_check')" ] || fail "$1: foreign_key_check"
    n=$(q "$1" "SELECT count(*) FROM result r JOIN config_own o ON
                o.id = r.own_id WHERE o.config_id != r.config_id")
    [ "$n" = 0 ] || fail "$1: $n results not in their own config's config"
}
# every row of v_result with its config's dimensions
results() {
    q "$1" "SELECT v.config, v.test, v.metric, v.value, v.source_path,
            (SELECT group_concat(key || '=' || value, ',') FROM
              (SELECT key, value FROM config_param p WHERE p.config_id =
               r.config_id ORDER BY key))
            FROM v_result v JOIN result r ON r.rowid = (SELECT r2.rowid FROM
            result r2 JOIN source s ON s.id = r2.source_id JOIN metric m ON
            m.id = r2.metric_id WHERE s.path = v.source_path AND m.name =
            v.metric AND r2.config_id IN (SELECT id FROM config WHERE label =
            v.config) LIMIT 1) ORDER BY 1, 2, 3, 5"
}

# -- 1. sheet then results, results then sheet (CSV); then the TSV
"$pb" ingest -q --db "$tmp/s1.db" --configs sheets/hosts.csv "$csv" \
    2>"$tmp/err" || fail "sheet first: $(cat "$tmp/err")"
"$pb" ingest -q --db "$tmp/s2.db" "$csv" 2>/dev/null || fail "results first"
"$pb" ingest --db "$tmp/s2.db" --configs sheets/hosts.csv >"$tmp/out" \
    2>&1 || fail "sheet alone: $(cat "$tmp/out")"
has "$tmp/out" "ok   sheets/hosts.csv: sheet, 0 results"
"$pb" ingest -q --db "$tmp/s3.db" --configs sheets/hosts.tsv "$csv" \
    2>/dev/null || fail "tsv sheet"
for d in s1 s2 s3; do
    clean "$tmp/$d.db"
    "$pb" list --db "$tmp/$d.db" configs >"$tmp/$d.list"
    "$pb" list --db "$tmp/$d.db" configs --json >"$tmp/$d.json"
    results "$tmp/$d.db" >"$tmp/$d.res"
done
cmp -s "$tmp/s1.list" "$tmp/s2.list" ||
    fail "list configs differs by order: $(diff "$tmp/s1.list" "$tmp/s2.list")"
cmp -s "$tmp/s1.json" "$tmp/s2.json" || fail "list configs --json differs by order"
cmp -s "$tmp/s1.res" "$tmp/s2.res" || fail "v_result differs by order"
[ "$(wc -l <"$tmp/s1.res")" = 240 ] || fail "240 results expected: $(wc -l <"$tmp/s1.res")"
# the TSV says the same, from another file
sed 's/hosts\.tsv/hosts.csv/g' "$tmp/s3.list" | cmp -s - "$tmp/s1.list" ||
    fail "TSV sheet differs from CSV sheet"
# every machine has the four dimensions, from the sheet's line of its code
db="$tmp/s1.db"
[ "$(q "$db" 'SELECT count(*) FROM config')" = 8 ] || fail "8 configs expected"
n=$(q "$db" "SELECT count(*) FROM config_param WHERE key IN
             ('layout','vdevs','l2arc','slog') AND origin LIKE
             'sheet: sheets/hosts.csv:%'")
[ "$n" = 32 ] || fail "32 sheet dimensions expected, got $n"
v=$(q "$db" "SELECT group_concat(key || '=' || value || ' # ' || origin, '; ')
             FROM (SELECT p.* FROM config_param p JOIN config c ON c.id =
             p.config_id WHERE c.label = 'host_4.4_c' ORDER BY key)")
[ "$v" = "l2arc=yes # sheet: sheets/hosts.csv:11; layout=raidz2 # sheet: sheets/hosts.csv:11; slog=yes # sheet: sheets/hosts.csv:11; vdevs=1 # sheet: sheets/hosts.csv:11" ] ||
    fail "host_4.4_c dimensions: $v"
# exact values of the file: host_1.2's block output 79749 K/s, seeks 1004.9
v=$(q "$db" "SELECT value FROM v_result WHERE config = 'host_1.2' AND
             metric = 'seq_out_block_bw'")
[ "$v" = 81662976.0 ] || fail "host_1.2 seq_out_block_bw $v"
# list configs shows the origin of each dimension, text and JSON
grep -q '^1  *host_1.1  *30  *l2arc=no, layout=stripe, slog=no, vdevs=1  *l2arc, layout, slog, vdevs \[sheet: sheets/hosts.csv:4\]  *parser$' \
    "$tmp/s1.list" || fail "list configs text: $(head -2 "$tmp/s1.list")"
# JSON: one object per config with a "dims" array of key, value, origin
tr -d ' \n' <"$tmp/s1.json" >"$tmp/s1.flat"
has "$tmp/s1.flat" '"dims":[{"key":"l2arc","value":"no","origin":"sheet:sheets/hosts.csv:4"},{"key":"layout","value":"stripe","origin":"sheet:sheets/hosts.csv:4"}'
has "$tmp/s1.json" '"origin": "sheet: sheets/hosts.csv:11"'

# -- 2. the report: origins in the configurations table, a sweep by layout
"$pb" report --db "$db" -o "$tmp/rep" >/dev/null 2>&1 || fail "report"
h="$tmp/rep/index.html"
has "$h" "<th>Where the parameters came from</th>"
has "$h" '<td class="m" title="sheet: sheets/hosts.csv:11: l2arc layout slog vdevs">sheet hosts.csv:11: l2arc layout slog vdevs</td>'
has "$h" "sheet = a configuration sheet (ingest --configs), file:line"
grep -q '<h3 id="sweep-[0-9]*">[^<]* by layout' "$h" || fail "no sweep by layout"
# sweeps read config_param: the layout values are the x axis
has "$h" "raidz2"

# -- 3. the same through zpool status files, in either order
st() {
    for c in $codes; do
        "$pb" ingest -q --db "$1" --label "host_$c" "sheets/status/status-$c.txt" \
            2>/dev/null || fail "status $c"
    done
}
st "$tmp/z1.db"
"$pb" ingest -q --db "$tmp/z1.db" "$csv" 2>/dev/null || fail "bonnie after status"
"$pb" ingest -q --db "$tmp/z2.db" "$csv" 2>/dev/null || fail "bonnie before status"
st "$tmp/z2.db"
for d in z1 z2; do
    clean "$tmp/$d.db"
    "$pb" list --db "$tmp/$d.db" configs >"$tmp/$d.list"
    results "$tmp/$d.db" >"$tmp/$d.res"
done
cmp -s "$tmp/z1.list" "$tmp/z2.list" ||
    fail "status: list configs differs by order: $(diff "$tmp/z1.list" "$tmp/z2.list")"
cmp -s "$tmp/z1.res" "$tmp/z2.res" || fail "status: v_result differs by order"
db="$tmp/z1.db"
# one configuration per code: the pool's results are stored under it too
[ "$(q "$db" 'SELECT count(*) FROM config')" = 8 ] ||
    fail "status: 8 configs expected, got $(q "$db" 'SELECT count(*) FROM config')"
v=$(q "$db" "SELECT group_concat(key || '=' || value || ' # ' || origin, '; ')
             FROM (SELECT p.* FROM config_param p JOIN config c ON c.id =
             p.config_id WHERE c.label = 'host_4.4_c' ORDER BY key)")
c44="companion: sheets/status/status-4.4_c.txt"
[ "$v" = "dedup_class=no # $c44; disks=4 # $c44; disks_per_vdev=4 # $c44; l2arc=yes # $c44; l2arc_devices=1 # $c44; layout=raidz2 # $c44; slog=stripe # $c44; slog_vdevs=1 # $c44; spares=0 # $c44; special=no # $c44; vdevs=1 # $c44" ] ||
    fail "status: host_4.4_c dimensions: $v"
# the companion's results (error counters) stay, under host_2.2
n=$(q "$db" "SELECT count(*) FROM v_result WHERE config = 'host_2.2' AND
             metric = 'cksum_errors' AND value = 0")
[ "$n" = 1 ] || fail "status: host_2.2 cksum_errors"
# the same dimensions as the sheet says (the pools are the same): the
# sheet's keys, its slog=yes being a log of some layout (a status says
# which: one disk, "stripe")
said() { # db: label key=value per line, the sheet's keys, slog yes/no
    q "$1" "SELECT c.label || ' ' || p.key || '=' || CASE WHEN p.key = 'slog'
            AND p.value <> 'no' THEN 'yes' ELSE p.value END FROM config c JOIN
            config_param p ON p.config_id = c.id WHERE p.key IN ('layout',
            'vdevs', 'l2arc', 'slog') ORDER BY c.label, p.key"
}
said "$tmp/z1.db" >"$tmp/z1.said"
said "$tmp/s1.db" >"$tmp/s1.said"
[ "$(wc -l <"$tmp/s1.said")" = 32 ] || fail "sheet: $(wc -l <"$tmp/s1.said") dimensions"
cmp -s "$tmp/z1.said" "$tmp/s1.said" ||
    fail "status and sheet disagree: $(diff "$tmp/z1.said" "$tmp/s1.said")"
n=$(q "$db" "SELECT count(*) FROM result")
[ "$n" = 264 ] || fail "status: 240 + 8 x 3 results expected, got $n"
"$pb" report --db "$db" -o "$tmp/rep2" >/dev/null 2>&1 || fail "report 2"
grep -q '<h3 id="sweep-[0-9]*">[^<]* by layout' "$tmp/rep2/index.html" ||
    fail "status: no sweep by layout"
has "$tmp/rep2/index.html" "companion status-4.4_c.txt: dedup_class disks disks_per_vdev l2arc l2arc_devices layout slog slog_vdevs spares special vdevs"

# -- 4. a sheet stored again from the same path replaces the stored one
cp sheets/hosts.csv "$tmp/h.csv"
db="$tmp/r.db"
"$pb" ingest -q --db "$db" --configs "$tmp/h.csv" "$csv" 2>/dev/null
sed 's/^host_1.1,stripe/host_1.1,mirror/' sheets/hosts.csv >"$tmp/h.csv"
"$pb" ingest --db "$db" --configs "$tmp/h.csv" >"$tmp/out" 2>&1 ||
    fail "sheet again: $(cat "$tmp/out")"
has "$tmp/out" "drop sheet source 1: replaced by $tmp/h.csv"
v=$(q "$db" "SELECT value FROM config_param p JOIN config c ON c.id =
             p.config_id WHERE c.label = 'host_1.1' AND key = 'layout'")
[ "$v" = mirror ] || fail "replaced sheet: host_1.1 layout $v"
[ "$(q "$db" "SELECT count(*) FROM source WHERE format = 'sheet'")" = 1 ] ||
    fail "replaced sheet: one sheet source expected"
[ "$(q "$db" "SELECT count(*) FROM label_param")" = 32 ] ||
    fail "replaced sheet: 32 label dimensions expected"
clean "$db"

# a label no configuration has (a typo) is noted, not refused
printf 'label,layout\nhost_1.1,stripe\nhost-1.1,mirror\n' >"$tmp/typo.csv"
"$pb" ingest --db "$db" --configs "$tmp/typo.csv" >/dev/null 2>"$tmp/err" ||
    fail "typo sheet refused: $(cat "$tmp/err")"
has "$tmp/err" "poolbench: note: $tmp/typo.csv: no stored configuration is labelled 'host-1.1' yet"
hasnt "$tmp/err" "labelled 'host_1.1'"

# -- 5. --set records its origin; it wins over the sheet
db="$tmp/set.db"
"$pb" ingest -q --db "$db" --configs sheets/hosts.csv --set layout=draid1 \
    "$csv" 2>/dev/null || fail "ingest --set"
v=$(q "$db" "SELECT count(*) FROM config_param WHERE key = 'layout' AND
             value = 'draid1' AND origin = 'set: --set layout=draid1'")
[ "$v" = 8 ] || fail "--set layout wins on 8 configs, got $v"

# -- 6. bad sheets: one line, exit 2, nothing stored (not even the PATHs)
for f in sheets/bad-sheets/*.csv sheets/bad-sheets/*.tsv; do
    rm -f "$tmp/bad.db"
    "$pb" ingest --db "$tmp/bad.db" --configs "$f" "$csv" >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "$f: exit $rc, expected 2"
    diff -u "$f.err" "$tmp/err" >/dev/null || fail "$f: $(cat "$tmp/err")"
    if [ -f "$tmp/bad.db" ]; then
        n=$(q "$tmp/bad.db" "SELECT count(*) FROM source")
        [ "$n" = 0 ] || fail "$f: $n sources stored"
    fi
done
[ -f sheets/bad-sheets/no-label-column.csv.err ] || fail "no .err files found"

# -- 7. hostile values: stored as given (lower case), escaped in the report
printf 'label,note\nhost_1.1,"<script>alert(1)</script>"\n' >"$tmp/evil.csv"
db="$tmp/evil.db"
"$pb" ingest -q --db "$db" --configs "$tmp/evil.csv" "$csv" 2>/dev/null ||
    fail "hostile sheet"
"$pb" report --db "$db" -o "$tmp/rep3" >/dev/null 2>&1 || fail "report 3"
hasnt "$tmp/rep3/index.html" "<script>alert"
has "$tmp/rep3/index.html" "note=&lt;script&gt;alert(1)&lt;/script&gt;"

# -- 8. --dump prints the sheet as a set, without a database
"$pb" ingest --dump --configs sheets/hosts.csv >"$tmp/dump" 2>&1 ||
    fail "dump"
has "$tmp/dump" "format sheet"
has "$tmp/dump" "  layout=raidz2  # sheet: sheets/hosts.csv:11"

[ $fails -eq 0 ] || exit 1
echo "ok"
