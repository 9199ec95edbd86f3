#!/bin/sh
# e2e (issue "safe by construction", items 5 and 18): other programs'
# SQLite files are never changed (not even switched to WAL), poolbench's
# own files carry an application_id, and a user who may only read a
# shared database can read it.
# usage: test_db_safety.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
f="$src/fixtures/fio-json/fio-3.33_three-jobs.json"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
sum() { cat "$1"* | md5sum; }

# another program's database: refused, byte for byte unchanged, no -wal
sqlite3 "$tmp/other.db" "CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep');"
s0=$(sum "$tmp/other.db")
"$pb" ingest --db "$tmp/other.db" "$f" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 3 ] || fail "other program's database: exit $rc, want 3"
grep -q "not a poolbench database (tables or views of another program: 1, schema version 0); refusing to change it" "$tmp/e" ||
    fail "other db: $(cat "$tmp/e")"
[ "$(sum "$tmp/other.db")" = "$s0" ] || fail "the other program's database changed"
[ -e "$tmp/other.db-wal" ] && fail "the other program's database was switched to WAL"
# its own tables named like ours, or its own application_id
sqlite3 "$tmp/clash.db" "CREATE TABLE source(x);"
s0=$(sum "$tmp/clash.db")
"$pb" ingest --db "$tmp/clash.db" "$f" >/dev/null 2>&1
[ $? -eq 3 ] || fail "clashing tables: not refused"
[ "$(sum "$tmp/clash.db")" = "$s0" ] || fail "the clashing database changed"
sqlite3 "$tmp/app.db" "PRAGMA application_id = 1234;"
"$pb" ingest --db "$tmp/app.db" "$f" >/dev/null 2>"$tmp/e"
[ $? -eq 3 ] || fail "another application_id: not refused"
grep -q "application_id 0x000004d2" "$tmp/e" || fail "app id: $(cat "$tmp/e")"
"$pb" list --db "$tmp/other.db" >/dev/null 2>&1
[ $? -eq 3 ] || fail "list of another program's database: not refused"
# a new database and an empty one become poolbench's
"$pb" ingest -q --db "$tmp/new.db" "$f" 2>/dev/null || fail "new database"
[ "$(sqlite3 "$tmp/new.db" 'PRAGMA application_id')" = 1346520130 ] ||
    fail "new database: application_id $(sqlite3 "$tmp/new.db" 'PRAGMA application_id')"
: >"$tmp/empty.db"
"$pb" ingest -q --db "$tmp/empty.db" "$f" 2>/dev/null || fail "empty file refused"
# a poolbench database of an older version (no application_id) is upgraded
sqlite3 "$tmp/new.db" "PRAGMA application_id = 0"
"$pb" ingest -q --db "$tmp/new.db" "$src/fixtures/fio-json/fio-3.33_write_64k_fsync16.json" 2>/dev/null ||
    fail "a poolbench database without application_id was refused"
[ "$(sqlite3 "$tmp/new.db" 'PRAGMA application_id')" = 1346520130 ] || fail "application_id not set on upgrade"

# a shared database, read by a user who cannot write its folder
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    mkdir "$tmp/shared"; chmod 755 "$tmp/shared"
    "$pb" ingest -q --db "$tmp/shared/s.db" "$f" 2>/dev/null
    chmod 644 "$tmp/shared/s.db"
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$pb" list --db "$tmp/shared/s.db" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    [ $rc -eq 0 ] || fail "read-only user: exit $rc: $(cat "$tmp/e")"
    grep -q "fio-3.33_three-jobs.json" "$tmp/o" || fail "read-only user: $(cat "$tmp/o")"
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$pb" export --db "$tmp/shared/s.db" --csv >"$tmp/o" 2>"$tmp/e" ||
        fail "read-only export: $(cat "$tmp/e")"
    [ "$(wc -l <"$tmp/o")" -gt 50 ] || fail "read-only export: $(wc -l <"$tmp/o") lines"
else
    echo "note: the shared read-only check needs root, setpriv and nobody"
fi

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "database safety checks passed"
