#!/bin/sh
# e2e (root; issue "safe by construction", item 9): ingest on a full disk.
# A file is reported "ok" only after the transaction holding it is
# committed, and the summary counts only what is in the database: on a
# small tmpfs that fills mid-ingest, the "ok" lines, the summary and the
# database's sources agree. Skips (77) where tmpfs cannot be mounted.
# usage: test_ingest_full_disk.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
[ "$(id -u)" = 0 ] || { echo "skip: needs root (mount)"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
mnt="$tmp/mnt"
mkdir "$mnt"
mount -t tmpfs -o size=1600k tmpfs "$mnt" 2>/dev/null ||
    { rm -rf "$tmp"; echo "skip: cannot mount a tmpfs"; exit 77; }
trap 'umount "$mnt"; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# 600 distinct files (each a new source), a batch commit every 256 files
# or 0.25 s: the disk fills after some commits.
mkdir "$tmp/in"
i=0
while [ $i -lt 600 ]; do
    sed "s/\"jobname\" : \"/\"jobname\" : \"j$i-/" \
        "$src/fixtures/fio-json/fio-3.33_three-jobs.json" >"$tmp/in/f$(printf %04d $i).json"
    i=$((i + 1))
done
db="$mnt/a.db"
"$pb" ingest -j 1 --db "$db" "$tmp/in" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || fail "exit $rc on a full disk, want 3: $(tail -2 "$tmp/err")"
grep -q "database or disk is full" "$tmp/err" || fail "no disk-full message: $(tail -2 "$tmp/err")"
ok=$(grep -c '^ok ' "$tmp/out")
stored=$(sqlite3 "$db" "SELECT count(*) FROM source" 2>/dev/null || echo "?")
said=$(sed -n 's/^poolbench: \([0-9]*\) stored.*/\1/p' "$tmp/err")
[ "$ok" = "$stored" ] || fail "$ok files printed ok, $stored in the database"
[ "$said" = "$stored" ] || fail "summary says $said stored, $stored in the database"
[ "$stored" != 0 ] || echo "note: the disk was full before the first commit"
[ "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>/dev/null)" = ok ] || fail "integrity_check"
# every file printed ok is in the database
grep '^ok ' "$tmp/out" | sed 's/^ok   \(.*\): fio-json.*/\1/' | while read -r f; do
    n=$(sqlite3 "$db" "SELECT count(*) FROM source WHERE path = '$f'")
    [ "$n" = 1 ] || echo "$f"
done >"$tmp/missing"
[ -s "$tmp/missing" ] && fail "printed ok but not stored: $(head -3 "$tmp/missing")"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "full disk checks passed ($stored of 600 stored, all reported truly)"
