#!/bin/sh
# e2e (issue 42, item 6): every vdev class is a dimension, and
# actual_savings divides by the bytes that hold data.
#   - two real zfs-fuse pools named alike that differ only by their log
#     (one disk, a mirror) and their spares (0, 2) stay two
#     configurations; the transcript of the first pool's `zpool create`
#     gives its `zpool status` dimensions exactly;
#   - the OpenZFS 2.3.2 pool of the corpus (raidz2 plus special, dedup and
#     log mirrors, a cache and a spare): `zpool status` and `zpool list
#     -v` give every class with its layout, the same for both;
#   - `zfs get -Hp all` of its pool, a dataset and a thick zvol: the
#     pool's actual_savings leaves the zvol's refreservation out (0.995,
#     not 0.658); `zfs list` without usedbyrefreservation leaves the zvol
#     and the pool out, with the reason.
# usage: test_zfs_classes.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
fx="$src/fixtures"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
dims() { # db, config id: "key=value ..." sorted
    q "$1" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key,
           value FROM config_param WHERE config_id = $2 ORDER BY key)"
}

# -- 1. zfs-fuse: two pools that differ only by their log and spares
s1="$fx/zfs/zfs-fuse_zpool-status_2x-mirror-log-cache.txt"
s2="$fx/zfs/zfs-fuse_zpool-status_2x-mirror-logmirror-cache-2spares.txt"
db="$tmp/a.db"
"$pb" ingest -q --db "$db" "$s1" "$s2" || fail "ingest the two statuses"
n=$(q "$db" "SELECT count(*) FROM config WHERE label = 'pbcls'")
[ "$n" = 2 ] || fail "two pools pbcls that differ by log and spares: $n configurations"
got=$(q "$db" "SELECT max(n) FROM (SELECT count(DISTINCT r.source_id) n FROM
    result r JOIN config c ON c.id = r.config_id WHERE c.label = 'pbcls'
    GROUP BY c.id)")
[ "$got" = 1 ] || fail "the results of two pools are repeats of one configuration ($got sources)"
want1="dedup_class=no disks=4 disks_per_vdev=2 l2arc=yes l2arc_devices=1 layout=mirror slog=stripe slog_vdevs=1 spares=0 special=no vdevs=2"
want2="dedup_class=no disks=4 disks_per_vdev=2 l2arc=yes l2arc_devices=1 layout=mirror slog=mirror slog_vdevs=1 spares=2 special=no vdevs=2"
got=$(for id in $(q "$db" "SELECT id FROM config WHERE label = 'pbcls' ORDER BY id"); do
          dims "$db" "$id"; done)
[ "$got" = "$want1
$want2" ] || fail "zfs-fuse dimensions:
$got"
# the same pool from the command that made it: the same dimensions
"$pb" ingest -q --db "$tmp/t.db" --label pbcls \
    "$fx/zfs-commands/zfs-fuse_2x-mirror-log-cache.txt" ||
    fail "ingest the transcript"
"$pb" ingest -q --db "$tmp/t.db" "$s1" || fail "ingest the status"
n=$(q "$tmp/t.db" "SELECT count(*) FROM config WHERE label = 'pbcls'")
[ "$n" = 1 ] || fail "transcript and status of one pool: $n configurations"
got=$(dims "$tmp/t.db" "(SELECT id FROM config WHERE label = 'pbcls')")
[ "$got" = "$want1" ] || fail "transcript + status: $got"

# -- 2. the OpenZFS 2.3.2 pool of the corpus
oz="${corpus:+$corpus/openzfs-2.3}"
if [ -z "$oz" ] || [ ! -d "$oz" ]; then
    echo "note: no corpus openzfs-2.3 files (../shared/corpus absent): only the fixtures checked"
    [ $fails -eq 0 ] || exit 1
    echo ok
    exit 0
fi
want="dedup_class=mirror dedup_class_vdevs=1 disks=6 disks_per_vdev=6 l2arc=yes l2arc_devices=1 layout=raidz2 slog=mirror slog_vdevs=1 spares=1 special=mirror special_vdevs=1 vdevs=1"
for f in zpool-status_raidz2-special-dedup-logmirror-cache-spare.txt \
         zpool-list-v_raidz2-special-dedup-logmirror-cache-spare.txt; do
    rm -f "$tmp/c.db"
    "$pb" ingest -q --db "$tmp/c.db" "$oz/$f" || fail "ingest $f"
    got=$(dims "$tmp/c.db" "(SELECT id FROM config WHERE label = 'tank')")
    [ "$got" = "$want" ] || fail "$f: $got"
done
# both in one database: one pool, one configuration
"$pb" ingest -q --db "$tmp/c.db" \
    "$oz/zpool-status_raidz2-special-dedup-logmirror-cache-spare.txt" ||
    fail "ingest status after list -v"
n=$(q "$tmp/c.db" "SELECT count(*) FROM config")
[ "$n" = 1 ] || fail "status and list -v of one pool: $n configurations"

# -- 3. actual_savings: which bytes it divides
rm -f "$tmp/z.db"
"$pb" ingest -q --db "$tmp/z.db" "$oz/zfs-get-Hp-all_pool-dataset-zvol.txt" \
    "$oz/zfs-list_space-columns.txt" || fail "ingest zfs get / zfs list"
sav() { # source file, dataset
    q "$tmp/z.db" "SELECT printf('%.4f', value) FROM v_result WHERE
        source_path LIKE '%$1' AND config = '$2' AND metric = 'actual_savings'"
}
basis() {
    q "$tmp/z.db" "SELECT f.value FROM fact f JOIN source s ON s.id =
        f.source_id WHERE s.path LIKE '%$1' AND f.key = '$2:actual_savings_basis'"
}
g=zfs-get-Hp-all_pool-dataset-zvol.txt l=zfs-list_space-columns.txt
# 158384128 / (240615424 - 81443184): the zvol's usedbyrefreservation out
[ "$(sav $g tank)" = 0.9950 ] || fail "tank actual_savings $(sav $g tank), want 0.9950"
[ "$(basis $g tank)" = "logicalused/(used-reserved): reserved 81443184 bytes, the unused reservations of tank and the datasets under it" ] ||
    fail "tank basis: $(basis $g tank)"
[ "$(sav $g tank/vol)" = 0.9978 ] || fail "tank/vol: $(sav $g tank/vol)"
[ "$(sav $g tank/db)" = 0.9974 ] || fail "tank/db: $(sav $g tank/db)"
# zfs list gives no usedbyrefreservation: no number for the zvol or the pool
[ -z "$(sav $l tank)" ] || fail "zfs list: tank actual_savings $(sav $l tank)"
[ -z "$(sav $l tank/vol)" ] || fail "zfs list: tank/vol actual_savings $(sav $l tank/vol)"
[ "$(basis $l tank/vol)" = "left out: usedbyrefreservation of tank/vol is not in the input" ] ||
    fail "zfs list: tank/vol basis: $(basis $l tank/vol)"
[ "$(sav $l tank/db)" = 0.9969 ] || fail "zfs list: tank/db $(sav $l tank/db)"
# the report says how each was made, and never makes one up
"$pb" report -q --db "$tmp/z.db" -o "$tmp/r" || fail "report"
grep -q 'title="derived: logicalused/(used-reserved): reserved 81443184 bytes' "$tmp/r/index.html" ||
    fail "report: no formula for tank"
grep -q 'title="left out: usedbyrefreservation of tank/vol is not in the input"' "$tmp/r/index.html" ||
    fail "report: no reason for the zvol's missing savings"

[ $fails -eq 0 ] || exit 1
echo ok
