#!/bin/sh
# e2e: the table format through the command line and the database: exact
# values of the issue 11 tables in v_result, two tables of one shape kept
# apart, --format table and --table-metric (usage error exit 2), and HTML
# in a table cell escaped in the report.
# usage: test_table.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/table"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }

db="$tmp/t.db"
"$pb" ingest --db "$db" -q "$fx/issue11_tsv_fsync-groups.tsv" \
    "$fx/issue11_tsv_compression.tsv" "$fx/decimal-commas_compression.tsv" \
    "$fx/same-shape_two-tables.tsv" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "ingest exit $rc: $(cat "$tmp/err")"
got=$(q "$db" "SELECT value FROM v_result WHERE format='table' AND
    test='write bs=4k fsync=0' AND metric='write_bw'")
[ "$got" = 43201331.0 ] || fail "41.2MiB/s stored as '$got'"
got=$(q "$db" "SELECT value FROM v_result WHERE test='write bs=4k fsync=1'
    AND metric='write_iops'")
[ "$got" = 65.0 ] || fail "fsync=1 write_iops '$got'"
got=$(q "$db" "SELECT value FROM v_result WHERE metric='compressratio' AND
    config LIKE 'decimal-commas%compression=lz4'")
[ "$got" = 2.17 ] || fail "2,17x stored as '$got'"
got=$(q "$db" "SELECT value FROM v_result WHERE metric='actual_savings'")
[ "$got" = -1.14 ] || fail "-1.14x stored as '$got'"
got=$(q "$db" "SELECT group_concat(p.key || '=' || p.value, ' ') FROM config c
    JOIN config_param p ON p.config_id = c.id
    WHERE c.label LIKE 'issue11_tsv_compression.tsv%' ORDER BY p.key")
[ "$got" = "compression=zstd volblocksize=8192" ] || fail "dimensions: '$got'"
got=$(q "$db" "SELECT group_concat(tp.key || '=' || tp.value, ' ') FROM test t
    JOIN test_param tp ON tp.test_id = t.id WHERE t.name='write bs=4k fsync=1'")
[ "$got" = "bs=4096 fsync=1 rw=write" ] || fail "test parameters: '$got'"
# two tables of one shape: four configurations, four single results
got=$(q "$db" "SELECT count(DISTINCT config), count(*), max(samples) FROM v_result
    WHERE source_path LIKE '%same-shape_two-tables.tsv'")
[ "$got" = "4|4|" ] || fail "same-shape tables: '$got' (configs|results|samples)"

# a header the format does not know: not sniffed; --format table names it;
# --table-metric keeps it
printf 'recordsize\tFoo\tWrite IOPS\n8k\t1.5k\t100\n' >"$tmp/foo.tsv"
"$pb" ingest --db "$tmp/f.db" -q "$tmp/foo.tsv" 2>"$tmp/err"
[ $? -eq 1 ] || fail "unknown header sniffed"
grep -q "unrecognised input" "$tmp/err" || fail "sniff: $(cat "$tmp/err")"
"$pb" ingest --db "$tmp/f.db" -q --format table "$tmp/foo.tsv" 2>"$tmp/err"
[ $? -eq 1 ] || fail "--format table accepted an unknown column"
grep -qx "poolbench: $tmp/foo.tsv:1: column 'Foo' is not a known dimension or metric" \
    "$tmp/err" || fail "unknown column: $(cat "$tmp/err")"
"$pb" ingest --db "$tmp/f.db" -q --format table \
    --table-metric 'Foo=foo_ops:ops/s:higher' "$tmp/foo.tsv" 2>"$tmp/err"
[ $? -eq 0 ] || fail "--table-metric: $(cat "$tmp/err")"
got=$(q "$tmp/f.db" "SELECT value || ' ' || unit || ' ' || direction FROM v_result
    WHERE metric='foo_ops'")
[ "$got" = "1500.0 ops/s higher" ] || fail "custom metric: '$got'"
"$pb" ingest --db "$tmp/f.db" --table-metric 'Foo=foo_ops:ops/s' "$tmp/foo.tsv" \
    >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "bad --table-metric spec not a usage error"
grep -q "table-metric wants HEADER=METRIC:UNIT:higher|lower" "$tmp/err" ||
    fail "bad spec message: $(cat "$tmp/err")"

# HTML in a cell: stored as text, escaped in the report
printf 'compression\tWrite IOPS\n<script>alert(1)</script>\t100\noff\t90\n' >"$tmp/h.tsv"
"$pb" ingest --db "$tmp/h.db" -q "$tmp/h.tsv" 2>"$tmp/err" ||
    fail "html cell: $(cat "$tmp/err")"
got=$(q "$tmp/h.db" "SELECT value FROM config_param WHERE key='compression'
    AND value LIKE '<script>%'")
[ "$got" = "<script>alert(1)</script>" ] || fail "html cell stored as '$got'"
"$pb" report --db "$tmp/h.db" -o "$tmp/rep" >/dev/null 2>"$tmp/err" ||
    fail "report: $(cat "$tmp/err")"
if grep -rq --include="*.html" --include="*.svg" "<script>alert" "$tmp/rep"; then
    fail "unescaped <script> in the report"
fi
grep -rq "&lt;script&gt;alert" "$tmp/rep" || fail "escaped label missing from the report"

[ $fails -eq 0 ] || exit 1
echo "table: ok"
