#!/bin/sh
# e2e (issue 16 item 5): `poolbench db compact` gives back the space of
# removed sources (the file shrinks, its content and integrity unchanged),
# refuses another program's SQLite file unchanged (exit 3) and never
# creates a database.
# usage: test_db_compact.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
size() { # bytes of the file and its -wal
    n=$(stat -c %s "$1")
    [ -f "$1-wal" ] && n=$((n + $(stat -c %s "$1-wal")))
    echo "$n"
}
view() { sqlite3 "$1" "SELECT * FROM v_result ORDER BY config, test, metric, job" | md5sum; }

# 200 configurations of the real three-job fio file (54 results each),
# then the first 100 removed
python3 "$src/bench/gen_many.py" "$src/fixtures/fio-json/fio-3.33_three-jobs.json" \
    "$tmp/in" 200
db="$tmp/t.db"
"$pb" ingest -q --db "$db" "$tmp/in" || fail "ingest: exit $?"
n=$(sqlite3 "$db" "SELECT count(*) FROM result")
[ "$n" = 10800 ] || fail "ingest: $n results, want 10800"
"$pb" rm -q --db "$db" --config '^cfg-0' >/dev/null 2>&1 || fail "rm: exit $?"
n=$(sqlite3 "$db" "SELECT count(*) FROM result")
[ "$n" = 5400 ] || fail "rm: $n results left, want 5400"
before=$(size "$db")
v0=$(view "$db")
"$pb" db compact --db "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "compact: exit $rc: $(cat "$tmp/err")"
after=$(size "$db")
[ "$after" -lt $((before * 3 / 4)) ] ||
    fail "compact: $before -> $after bytes, want at least a quarter less"
grep -qx "$db: $before -> $after bytes (.* MB -> .* MB, .*% smaller)" "$tmp/out" ||
    fail "compact output: $(cat "$tmp/out") (sizes $before -> $after)"
[ "$(sqlite3 "$db" "PRAGMA integrity_check")" = ok ] || fail "integrity_check after compact"
[ -z "$(sqlite3 "$db" "PRAGMA foreign_key_check")" ] || fail "foreign_key_check after compact"
[ "$(view "$db")" = "$v0" ] || fail "v_result changed by compact"
sqlite3 "$db" "SELECT count(*) FROM sqlite_stat1" >/dev/null 2>&1 ||
    fail "compact did not ANALYZE (no sqlite_stat1)"
# the database still works: a report, and a store
"$pb" ingest -q --db "$db" "$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json" ||
    fail "ingest after compact: exit $?"
[ "$(sqlite3 "$db" "SELECT count(*) FROM result")" = 5414 ] || fail "ingest after compact: count"

# another program's database: refused with exit 3, byte for byte unchanged
sqlite3 "$tmp/other.db" "CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep'); DELETE FROM notes;"
s0=$(md5sum <"$tmp/other.db")
"$pb" db compact --db "$tmp/other.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || fail "other program's database: exit $rc, want 3"
grep -q "not a poolbench database" "$tmp/err" || fail "other db: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "other db: printed $(cat "$tmp/out")"
[ "$(md5sum <"$tmp/other.db")" = "$s0" ] || fail "the other program's database changed"
[ -e "$tmp/other.db-wal" ] && fail "the other program's database was switched to WAL"

# no database: refused, none created
"$pb" db compact --db "$tmp/none.db" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || fail "missing database: exit $rc, want 3"
grep -q "none.db: no database here" "$tmp/err" || fail "missing db: $(cat "$tmp/err")"
[ -e "$tmp/none.db" ] && fail "compact created a database"

# usage
"$pb" db --db "$db" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "db without an action: not exit 2"
"$pb" db --db "$db" compat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "db compat: not exit 2"
grep -q "did you mean 'compact'" "$tmp/err" || fail "db compat: $(cat "$tmp/err")"
"$pb" db --help | grep -q "^usage: poolbench db compact \[--db FILE\]" || fail "db --help"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: compact $before -> $after bytes"
