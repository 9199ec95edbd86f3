#!/bin/sh
# e2e: zfs command output streamed (docs/performance.md, "Streaming ingest",
# zfs-props). Every zfs fixture, bad case and corpus file, stored in parts
# of 1 and 40 results, gives the database of the whole parse (bad ones:
# the same error, nothing stored), also with --columns; a generated log
# of 3,000 datasets between a `zpool status` (before) and a `zpool get`
# (after) gives the same database to the byte of `sqlite3 .dump`, with
# exact counts, the pools' layout and ashift on every dataset and the
# facts in the order of the lines; a bad value in its last row stores
# nothing (one line path:line:col, exit 1); and a 14 MB `zfs get -Hp all`
# of 11,211 datasets is ingested with peak RSS under 64 MB (not under
# ASan; parsed whole it takes about 80 MB, 149 MB before it was read a
# line at a time), the same datasets described three times (43 MB) in
# no more than 1.25 times that.
# usage: test_ingest_stream_zfs.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin python3

STREAM_ARGS="--format zfs-props"
stream_same_each 23 zfs "$src"/fixtures/zfs/* "$src"/fixtures/zfs/bad/* \
    ${3:+"$3"/zfs/*}

# -- --columns reaches the streamed parse
printf 'tank/a\t1.50x\t100\ntank/b\t2.00x\t300\n' >"$tmp/h.txt"
STREAM_ARGS="--format zfs-props --columns name,ratio,used"
stream_option_reaches "$tmp/h.txt" compressratio "1.5 2.0" --columns
STREAM_ARGS="--format zfs-props"

# gen N OUT [BAD]: `zpool status` of pool0 (mirror) and pool1 (raidz2),
# bench/gen_zfs_get.py's `zfs get -Hp all` of N datasets on pool0..pool3,
# then `zpool get ashift,size` of pool0 and pool1 (ashift 12 and 9);
# BAD: one more `zfs get` row, the last, whose used is "lots"
gen() {
    {
        cat <<'EOF'
  pool: pool0
 state: ONLINE
config:

	NAME        STATE     READ WRITE CKSUM
	pool0       ONLINE       0     0     0
	  mirror-0  ONLINE       0     0     0
	    sda     ONLINE       0     0     0
	    sdb     ONLINE       0     0     1

errors: No known data errors

  pool: pool1
 state: ONLINE
config:

	NAME        STATE     READ WRITE CKSUM
	pool1       ONLINE       0     0     0
	  raidz2-0  ONLINE       0     0     0
	    sdc     ONLINE       0     0     0
	    sdd     ONLINE       0     0     0
	    sde     ONLINE       0     2     0
	    sdf     ONLINE       0     0     0

errors: No known data errors

EOF
        python3 "$src/bench/gen_zfs_get.py" "$1"
        if [ $# -gt 2 ]; then
            printf 'pool3/vm/disk99999\tused\tlots\t-\n'
        fi
        printf '\nNAME   PROPERTY  VALUE  SOURCE\n'
        printf 'pool0  ashift    12     local\npool0  size      1.81T  -\n'
        printf 'pool1  ashift    9      local\npool1  size      7.25T  -\n'
    } >"$2"
}

# -- generated: the same database in parts, exact values
gen 3000 "$tmp/g.txt"
stream_same "$tmp/g.txt" 40 16384
stream_same_dump "$tmp/g.txt" "g.txt: zfs-props, 18008 results"
db="$tmp/s.db"
got=$(q "$db" "SELECT count(DISTINCT config) || '|' || count(*) FROM v_result
    WHERE test = 'zfs space'")
[ "$got" = "3000|18000" ] || fail "datasets: '$got'"
got=$(q "$db" "SELECT group_concat(p.key || '=' || p.value, ' ') FROM config c
    JOIN config_own o ON o.label = c.label
    JOIN config_own_param p ON p.own_id = o.id
    WHERE c.label = 'pool1/vm/disk00001' AND p.key IN ('layout', 'ashift')
    ORDER BY p.key")
[ "$got" = "ashift=9 layout=raidz2" ] || fail "pool1's dimensions: '$got'"
got=$(q "$db" "SELECT metric || '=' || value FROM v_result
    WHERE config = 'pool1' ORDER BY metric")
want="cksum_errors=0.0
read_errors=0.0
size=7971459301376.0
write_errors=2.0"
[ "$got" = "$want" ] || fail "pool1: '$got'"
# facts: pool0's status, the datasets in order, pool0's and pool1's last
got=$(q "$db" "SELECT key FROM fact WHERE key LIKE 'pool:%:state'
    OR key LIKE '%disk00000:type' OR key LIKE '%disk02999:type'
    OR key = 'skipped_lines' ORDER BY rowid")
want="pool:pool0:state
pool:pool1:state
pool0/vm/disk00000:type
pool3/vm/disk02999:type"
[ "$got" = "$want" ] || fail "fact order: '$got'"
got=$(q "$db" "SELECT count(*) FROM fact WHERE key != 'file_time'")
# (the pools' state and errors: their vdev counts are dimensions)
[ "$got" = 54004 ] || fail "facts: $got (3,000 x 18 + 4 of the pools)"

# -- a bad value in the last row: nothing stored, one line, exit 1
gen 3000 "$tmp/b.txt" bad
rm -f "$tmp"/b.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest \
    --format zfs-props --db "$tmp/b.db" --quiet "$tmp/b.txt" \
    >/dev/null 2>"$tmp/b.err"
rc=$?
[ $rc -eq 1 ] || fail "bad last row: exit $rc"
line=$(grep -n lots "$tmp/b.txt" | cut -d: -f1)
grep -q "^poolbench: $tmp/b.txt:$line:[0-9]*: bad size \"lots\" for 'used'" \
    "$tmp/b.err" || fail "bad last row: '$(cat "$tmp/b.err")'"
[ "$(grep -c "^poolbench: $tmp/b.txt:" "$tmp/b.err")" -eq 1 ] ||
    fail "bad last row: not one line"
[ "$(q "$tmp/b.db" "SELECT count(*) FROM result")" = 0 ] ||
    fail "bad last row: results stored"

# -- memory: 14 MB of `zfs get -Hp all` (the default threshold: 1 MiB)
if stream_rss_ok; then
    python3 "$src/bench/gen_zfs_get.py" 11211 >"$tmp/big.txt"
    stream_rss_bound "$tmp/big.txt" "$tmp/big.db" 65536 67266 "14 MB zfs get"
    # the same datasets described three times (43 MB): memory follows
    # the distinct datasets, not the file
    one=$rss
    cat "$tmp/big.txt" "$tmp/big.txt" "$tmp/big.txt" >"$tmp/big3.txt"
    rm -f "$tmp/big.txt"
    stream_rss "$tmp/big3.txt" "$tmp/big3.db"
    echo "43 MB zfs get (the same 11,211 datasets thrice): peak RSS $rss KB"
    [ "$rss" -lt $((one * 5 / 4)) ] ||
        fail "thrice the datasets' description: peak RSS $rss KB (once: $one KB)"
    [ "$(q "$tmp/big3.db" "SELECT count(*) || '|' || (SELECT count(*) FROM fact WHERE key != 'file_time')
        FROM result")" = "67266|201798" ] ||
        fail "thrice: $(q "$tmp/big3.db" "SELECT count(*) FROM result")"
fi

stream_end
