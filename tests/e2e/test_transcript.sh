#!/bin/sh
# e2e (issue "the experiment, not just the numbers", item 5): a `zpool
# create` transcript ingested with --label X attaches its layout and
# properties to configuration X of the other sources with that label, in
# either order; without --label it is refused with the hint.
# usage: test_transcript.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }

bon="$fx/sheets/coded-machines.csv"
t1="$fx/zfs-commands/mirror-log_recordsize16k.txt"
t2="$fx/zfs-commands/raidz2-cache_continued.txt"
# results first, then the transcripts
"$pb" ingest -q --db "$tmp/a.db" "$bon" 2>/dev/null || fail "bonnie++ ingest"
"$pb" ingest -q --db "$tmp/a.db" --label host_1.1 "$t1" 2>/dev/null || fail "transcript 1"
"$pb" ingest -q --db "$tmp/a.db" --label host_2.1 "$t2" 2>/dev/null || fail "transcript 2"
# transcripts first
"$pb" ingest -q --db "$tmp/b.db" --label host_2.1 "$t2" 2>/dev/null
"$pb" ingest -q --db "$tmp/b.db" --label host_1.1 "$t1" 2>/dev/null
"$pb" ingest -q --db "$tmp/b.db" "$bon" 2>/dev/null
[ "$("$pb" list --db "$tmp/a.db" configs)" = "$("$pb" list --db "$tmp/b.db" configs)" ] ||
    fail "the order of ingest changed the configurations"
dims() {
    q "$1" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT p.key, p.value
           FROM config_param p JOIN config c ON c.id = p.config_id
           WHERE c.label = '$2' ORDER BY p.key)"
}
for db in a b; do
    got=$(dims "$tmp/$db.db" host_1.1)
    [ "$got" = "ashift=12 atime=off compression=lz4 dedup_class=no disks=4 disks_per_vdev=2 l2arc=no layout=mirror recordsize=16384 slog=stripe slog_vdevs=1 spares=0 special=no vdevs=2" ] ||
        fail "$db: host_1.1 dimensions: $got"
    got=$(dims "$tmp/$db.db" host_2.1)
    [ "$got" = "ashift=13 compression=gzip dedup_class=no disks=4 disks_per_vdev=4 l2arc=yes l2arc_devices=1 layout=raidz2 primarycache=metadata recordsize=1048576 slog=no spares=0 special=no vdevs=1 write_cache=off" ] ||
        fail "$db: host_2.1 dimensions: $got"
    n=$(q "$tmp/$db.db" "SELECT count(*) FROM config c JOIN config_param p ON p.config_id = c.id
                          WHERE c.label = 'host_1.1' AND p.key = 'layout'
                          AND p.origin = 'companion: $t1'")
    [ "$n" = 1 ] || fail "$db: the layout's origin is not the transcript"
    # the results stay where they were, with the dimensions
    v=$(q "$tmp/$db.db" "SELECT value FROM v_result WHERE config = 'host_1.2' AND metric = 'seq_out_block_bw'")
    [ "$v" = 81662976.0 ] || fail "$db: host_1.2 seq_out_block_bw = $v"
    n=$(q "$tmp/$db.db" "SELECT count(*) FROM v_result WHERE config = 'host_1.1'")
    [ "$n" = 30 ] || fail "$db: host_1.1 has $n results, want 30"
    [ "$(q "$tmp/$db.db" 'PRAGMA integrity_check')" = ok ] || fail "$db: integrity_check"
    [ -z "$(q "$tmp/$db.db" 'PRAGMA foreign_key_check')" ] || fail "$db: foreign_key_check"
done
# a report: the dimensions and where they came from
"$pb" report --db "$tmp/a.db" -o "$tmp/r" -q || fail "report"
grep -q "companion" "$tmp/r/index.html" || fail "the report does not say where the dimensions came from"

# without --label: refused with the hint, nothing stored
"$pb" ingest --db "$tmp/c.db" "$t1" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 1 ] || fail "a transcript without --label: exit $rc, want 1"
grep -q "$t1:1: commands that build a pool, and no results: ingest it with --label X" "$tmp/e" ||
    fail "no hint: $(cat "$tmp/e")"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "transcript checks passed"
