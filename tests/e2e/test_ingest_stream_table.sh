#!/bin/sh
# e2e: tables streamed (docs/table-format.md, "Large tables"). Every table
# fixture and bad case, stored in parts of 1 and 40 results, gives the
# database of the whole parse (bad ones: the same error, nothing stored),
# also with --table-metric; a generated file of three tables (TSV with a
# sentence and a heading line, prose, a Markdown table, 40,000 rows) the
# same to the byte of `sqlite3 .dump`, with exact counts and sums; a
# sentence 2,000 blank lines above its table still applies; a bad value
# in its last row stores nothing (one line path:line:col, exit 1); and a
# 10 MB table is ingested with peak RSS under 40 MB (not under ASan;
# parsed whole it takes about 140 MB).
# usage: test_ingest_stream_table.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin python3

STREAM_ARGS="--format table"
stream_same_each 17 table "$src"/fixtures/table/* "$src"/fixtures/table/bad/*

# -- --table-metric reaches the streamed parse
printf 'recordsize\tFoo\tWrite IOPS\n8k\t1.5k\t100\n16k\t2k\t90\n' >"$tmp/foo.tsv"
STREAM_ARGS="--format table --table-metric Foo=foo_ops:ops/s:higher"
stream_option_reaches "$tmp/foo.tsv" foo_ops "1500.0 2000.0" --table-metric
STREAM_ARGS="--format table"

# gen ROWS OUT [BAD]: three tables: a TSV of ROWS rows under a sentence
# and a heading line (read iops 1000 + i % 997, write bw (i % 500) / 4
# MiB/s), prose, a Markdown table of 10 rows, an aligned table of 5; BAD:
# the TSV's last write bw is "fast"
gen() {
    python3 - "$@" <<'PY'
import sys
rows, out = int(sys.argv[1]), sys.argv[2]
bad = len(sys.argv) > 3
lay = ["mirror", "raidz1", "raidz2", "stripe"]
comp = ["off", "lz4", "zstd"]
rs = ["4k", "8k", "16k", "32k", "64k", "128k"]
with open(out, "w") as f:
    f.write("Random reads of a recordsize sweep with ashift=12 on four "
            "layouts.\n")
    f.write("bs=4k\n")
    f.write("layout\tcompression\trecordsize\tRead IOPS\tWrite BW (MiB/s)\n")
    for i in range(rows):
        w = "fast" if bad and i == rows - 1 else "%.2f" % ((i % 500) / 4)
        f.write("%s\t%s\t%s\t%d\t%s\n" % (lay[i % 4], comp[i % 3], rs[i % 6],
                                          1000 + i % 997, w))
    f.write("\nSome prose between the tables, with no table in it.\n\n")
    f.write("| volblocksize | Write IOPS |\n|---|---|\n")
    for i in range(10):
        f.write("| %dk | %d |\n" % (4 << (i % 4), 500 + i))
    f.write("\nvolblocksize  Read IOPS\n")
    for i in range(5):
        f.write("%dk  %d\n" % (8 << i, 700 + i))
PY
}

# -- generated: the same database in parts, exact values
gen 40000 "$tmp/g.tsv"
stream_same "$tmp/g.tsv" 1 40 16384
stream_same_dump "$tmp/g.tsv" "g.tsv: table, 80015 results"
db="$tmp/s.db"
want=$(python3 -c 'print("%d|%d" % (40000, sum(1000 + i % 997 for i in range(40000))))')
got=$(q "$db" "SELECT count(*) || '|' || CAST(sum(value) AS INTEGER) FROM v_result
    WHERE metric = 'read_iops' AND config LIKE 'g.tsv table 1:%'")
[ "$got" = "$want" ] || fail "table 1 read iops: '$got', not '$want'"
got=$(q "$db" "SELECT count(*) || '|' || sum(value) FROM v_result
    WHERE metric = 'write_iops' AND config LIKE 'g.tsv table 2:%'")
[ "$got" = "10|5045.0" ] || fail "table 2: '$got'"
got=$(q "$db" "SELECT count(*) || '|' || sum(value) FROM v_result
    WHERE config LIKE 'g.tsv table 3:%'")
[ "$got" = "5|3510.0" ] || fail "table 3: '$got'"
got=$(q "$db" "SELECT key || '=' || value FROM fact WHERE key != 'file_time' ORDER BY rowid")
want="table:1=lines 2-40003
table:2=lines 40007-40018
table:3=lines 40020-40025
tables=3
skipped_lines=2"
[ "$got" = "$want" ] || fail "facts: '$got'"
got=$(q "$db" "SELECT label FROM config ORDER BY id LIMIT 1")
[ "$got" = "g.tsv table 1: layout=mirror, compression=off, recordsize=4k" ] ||
    fail "label of table 1: '$got'"

# -- a sentence 2,000 blank lines and 3,000 prose lines away from its
#    table: past the window of lines the parse keeps, its dimensions
#    still apply (the window keeps the last non-blank line it forgets)
python3 - "$tmp/far.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(3000):
        f.write("prose line %d with no table in it\n" % i)
    f.write("\nRuns with ashift=12 and compression=lz4.\n" + "\n" * 2000)
    f.write("recordsize\tRead IOPS\n8k\t100\n16k\t200\n")
PY
stream_same "$tmp/far.txt" 1 40
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=1 "$pb" ingest --format table \
    --db "$tmp/far.db" --quiet "$tmp/far.txt" 2>/dev/null || fail "a far sentence"
got=$(q "$tmp/far.db" "SELECT DISTINCT key || '=' || value || ' ' || origin
    FROM config_own_param WHERE key IN ('ashift', 'compression') ORDER BY key")
want="ashift=12 title: line 3002: Runs with ashift=12 and compression=lz4.
compression=lz4 title: line 3002: Runs with ashift=12 and compression=lz4."
[ "$got" = "$want" ] || fail "a far sentence: '$got'"

# -- a bad value in the last row: nothing stored, one line, exit 1
gen 40000 "$tmp/b.tsv" bad
rm -f "$tmp"/b.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --format table \
    --db "$tmp/b.db" --quiet "$tmp/b.tsv" >/dev/null 2>"$tmp/b.err"
rc=$?
[ $rc -eq 1 ] || fail "bad last row: exit $rc"
grep -q "^poolbench: $tmp/b.tsv:40003:[0-9]*: bad value 'fast' in column 'Write BW (MiB/s)'" \
    "$tmp/b.err" || fail "bad last row: '$(cat "$tmp/b.err")'"
[ "$(q "$tmp/b.db" "SELECT count(*) FROM result")" = 0 ] ||
    fail "bad last row: results stored"

# -- memory: a 10 MB table in parts (the default threshold: 1 MiB)
if stream_rss_ok; then
    gen 300000 "$tmp/big.tsv"
    stream_rss_bound "$tmp/big.tsv" "$tmp/big.db" 40960 600015 "10 MB table"
fi

stream_end
