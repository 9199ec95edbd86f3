#!/bin/sh
# e2e (issue 42, item 18): provenance says the truth.
#   - dimensions the label rules read out of PTS system identifiers have
#     the origin "label: IDENTIFIER", not the parser's, in the database,
#     `list configs` and the report; a companion `zpool status` then
#     outranks them, as docs/model.md ranks the kinds;
#   - "recordsize 16k" in the label of a zvol's run is its volblocksize,
#     so the run and the zvol's `zfs get` agree on one configuration;
#   - an actual savings read from a table ("-1.14x") is shown as read, one
#     the zfs-props reader derived as derived, with its formula.
# usage: test_provenance.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
fx="$src/fixtures"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }

# -- 1. PTS system identifiers: a label rule, not the parser
db="$tmp/a.db"
pts="$fx/pts-xml/fio-2systems.xml"
id='zfs mirror recordsize=16k lz4'
"$pb" ingest -q --db "$db" "$pts" 2>/dev/null || fail "ingest PTS"
got=$(q "$db" "SELECT group_concat(key || '=' || value || ' # ' || coalesce(origin, 'parser'), '; ')
    FROM (SELECT key, value, origin FROM config_param p JOIN config c ON
    c.id = p.config_id WHERE c.label = '$id' ORDER BY key)")
[ "$got" = "compression=lz4 # label: $id; layout=mirror # label: $id; recordsize=16384 # label: $id" ] ||
    fail "PTS dimensions: $got"
"$pb" list --db "$db" configs >"$tmp/list"
grep -q "\[label: $id\]" "$tmp/list" || fail "list configs: $(cat "$tmp/list")"
"$pb" report -q --db "$db" -o "$tmp/r" || fail "report"
grep -q "label $id" "$tmp/r/index.html" ||
    fail "the report does not say the dimensions came from the label"
# a companion zpool status of that system outranks what its name says
"$pb" ingest -q --db "$db" --label "$id" \
    "$fx/zfs/zfs-fuse_zpool-status_mirror.txt" 2>/dev/null || fail "companion"
got=$(q "$db" "SELECT origin FROM config_param p JOIN config c ON c.id =
    p.config_id WHERE c.label = '$id' AND key = 'layout'")
[ "$got" = "companion: $fx/zfs/zfs-fuse_zpool-status_mirror.txt" ] ||
    fail "the companion does not outrank the label: layout origin '$got'"

# -- 2. "recordsize 16k" of a zvol: its volblocksize
db="$tmp/b.db"
lab='zvol recordsize 16k'
"$pb" ingest -q --db "$db" --label "$lab" \
    "$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json" 2>/dev/null || fail "ingest fio"
got=$(q "$db" "SELECT group_concat(key || '=' || value || ' # ' || origin, '; ')
    FROM (SELECT key, value, origin FROM config_param p JOIN config c ON
    c.id = p.config_id WHERE c.label = '$lab' ORDER BY key)")
[ "$got" = "disk_format=zvol # label: $lab; volblocksize=16384 # label: $lab (a zvol's recordsize: its volblocksize)" ] ||
    fail "zvol label: $got"
oz="${corpus:+$corpus/openzfs-2.3}"
if [ -n "$oz" ] && [ -d "$oz" ]; then
    # the real runs on /dev/zvol/tank/vol and the zvol's zfs get: one
    # configuration, volblocksize 16384, no recordsize
    db="$tmp/c.db"
    "$pb" ingest -q --db "$db" --label "$lab" \
        "$oz/fio-3.33_zvol-randwrite-16k_compress0.json" \
        "$oz/zfs-get-all_zvol-zstd-volblocksize16k.txt" 2>/dev/null || fail "ingest zvol"
    n=$(q "$db" "SELECT count(*) FROM config")
    [ "$n" = 1 ] || fail "zvol run and its zfs get: $n configurations"
    got=$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key,
        value FROM config_param WHERE key IN ('recordsize', 'volblocksize') ORDER BY key)")
    [ "$got" = "volblocksize=16384" ] || fail "zvol: $got"
else
    echo "note: no corpus openzfs-2.3 files (../shared/corpus absent): the zvol run is not checked"
fi

# -- 3. actual savings: read from a table, or derived with its formula
db="$tmp/d.db"
"$pb" ingest -q --db "$db" "$fx/table/issue11_tsv_compression.tsv" \
    "$fx/zfs/openzfs-2.2_zfs-list-p-o_zvol-refreserv.txt" 2>/dev/null || fail "ingest"
"$pb" report -q --db "$db" -o "$tmp/r2" || fail "report 2"
h="$tmp/r2/index.html"
grep -q 'title="read: as the table gives it">-1.14×  ▼ data grew<' "$h" ||
    fail "the table's -1.14x is not shown as read"
grep -q -- '-1.14× †' "$h" && fail "the table's -1.14x is marked derived"
grep -q 'title="derived: logicalused/(used-usedbyrefreservation)">1.55× †<' "$h" ||
    fail "the zvol's derived savings lacks its formula"

[ $fails -eq 0 ] || exit 1
echo ok
