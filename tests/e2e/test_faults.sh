#!/bin/sh
# e2e: faults while ingesting. Never a corrupt database, never half a
# source, never "database is locked":
#   1. `kill -9` of an ingest of 1000 files at random moments, ten times
#      (up to twenty until one lands between two commits; a new database
#      each odd round): PRAGMA integrity_check is ok after each kill and
#      every source is either wholly stored (result count, sum of values
#      and fact count equal those of a clean ingest of the same fixture)
#      or absent; a last run stores exactly the rest;
#   2. two and four processes ingesting overlapping file sets into one
#      database at once: all exit 0, every file stored exactly once;
#   3. a read-only database (immutable file via chattr +i, or a read-only
#      bind mount; chmod when not root) and a database on a full filesystem
#      (a 1 MiB tmpfs): exit 3 with the reason, the database unchanged.
# The parts of 3 that need root or mount print SKIP when not possible.
# The 1000 files are the fio JSON fixtures, each copy followed by 10 bytes
# of spaces and newlines spelling its number, so every SHA-256 differs.
# usage: test_faults.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
mounts=""
immutable=""
cleanup() {
    for f in $immutable; do chattr -i "$f" 2>/dev/null; done
    for m in $mounts; do umount "$m" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fails=0
skips=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
skip() { echo "SKIP: $*" >&2; skips=$((skips + 1)); }
q() { sqlite3 -cmd '.timeout 30000' "$1" "$2"; }
rand() { od -An -N2 -tu2 /dev/urandom | tr -d ' '; } # 0..65535
now_ms() { echo $(($(date +%s%N) / 1000000)); }

command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }
ls "$fx"/*.json >/dev/null 2>&1 || { echo "SKIP: no fio-json fixtures" >&2; exit 77; }

# ---- the inputs: 1000 distinct copies of the fixtures
mkdir "$tmp/files"
suffix() { # N: 10 bytes, a space for each 0 bit of N and a newline for each 1
    j=$1
    for b in 1 2 3 4 5 6 7 8 9 10; do
        if [ $((j % 2)) = 1 ]; then printf '\n'; else printf ' '; fi
        j=$((j / 2))
    done
}
set -- "$fx"/*.json
nfix=$#
i=0
: >"$tmp/gen.csv"
while [ $i -lt 1000 ]; do
    k=$((i % nfix + 1))
    eval "f=\${$k}"
    out=$(printf '%s/files/f%04d.json' "$tmp" $i)
    { cat "$f"; suffix $i; } >"$out"
    printf '%s,%s\n' "$out" "$f" >>"$tmp/gen.csv"
    i=$((i + 1))
done
n=$(sha256sum "$tmp"/files/* | awk '{print $1}' | sort -u | wc -l)
[ "$n" = 1000 ] || { echo "FAIL: generated files are not all distinct ($n)" >&2; exit 1; }

# ---- reference: each fixture ingested once, cleanly
"$pb" ingest --db "$tmp/ref.db" -q "$fx"/*.json 2>"$tmp/ref.err" >/dev/null ||
    { echo "FAIL: reference ingest: $(cat "$tmp/ref.err")" >&2; exit 1; }
sqlite3 "$tmp/ex.db" "CREATE TABLE gen(path TEXT PRIMARY KEY, fixture TEXT)"
sqlite3 "$tmp/ex.db" ".mode csv" ".import $tmp/gen.csv gen"
sqlite3 "$tmp/ex.db" "ATTACH '$tmp/ref.db' AS ref;
  CREATE TABLE want AS SELECT s.path AS fixture,
    (SELECT count(*) FROM ref.result r WHERE r.source_id = s.id) AS n,
    (SELECT total(value) FROM ref.result r WHERE r.source_id = s.id) AS v,
    (SELECT count(*) FROM ref.fact f WHERE f.source_id = s.id) AS f
  FROM ref.source s;"

# Sources of DB that are not exactly what a clean ingest stores.
partial() {
    q "$1" "ATTACH '$tmp/ex.db' AS ex;
      WITH got AS (SELECT s.path AS path,
        (SELECT count(*) FROM result r WHERE r.source_id = s.id) AS n,
        (SELECT total(value) FROM result r WHERE r.source_id = s.id) AS v,
        (SELECT count(*) FROM fact f WHERE f.source_id = s.id) AS f
        FROM source s)
      SELECT got.path || ': ' || got.n || ' results (want ' ||
             ifnull(w.n, '?') || ')'
      FROM got LEFT JOIN ex.gen g ON g.path = got.path
               LEFT JOIN ex.want w ON w.fixture = g.fixture
      WHERE w.fixture IS NULL OR got.n != w.n OR got.v != w.v
            OR got.f != w.f
      UNION ALL
      SELECT 'orphan result rows: ' || count(*) FROM result
      WHERE source_id NOT IN (SELECT id FROM source) HAVING count(*) > 0;"
}

check_db() { # DB WHAT
    ic=$(q "$1" "PRAGMA integrity_check" 2>&1)
    [ "$ic" = ok ] || fail "$2: integrity_check: $ic"
    # killed before the schema was committed: an empty database is fine
    [ "$(q "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'source'")" = 1 ] || return 0
    p=$(partial "$1" 2>&1)
    [ -z "$p" ] || fail "$2: partial sources: $(printf '%s\n' "$p" | head -n 5)"
    # poolbench does not have SQLite enforce foreign keys (model/db.c):
    # every id it writes must still point at a row
    fk=$(q "$1" "PRAGMA foreign_key_check" 2>&1)
    [ -z "$fk" ] || fail "$2: foreign_key_check: $(printf '%s\n' "$fk" | head -n 5)"
}

# ---- 1. kill -9 at random moments, ten times, then finish
# How long one whole ingest takes here (0.4 s plain, 1.5 s with ASan on an
# idle 2-core machine; more under load): kills land anywhere in it.
t0=$(now_ms)
"$pb" ingest --db "$tmp/cal.db" -q "$tmp/files" >/dev/null 2>&1
span=$(($(now_ms) - t0))
rm -f "$tmp/cal.db" "$tmp/cal.db-wal" "$tmp/cal.db-shm"
[ $span -ge 50 ] || span=50
db="$tmp/kill.db"
kills=0
partial_seen=0
# Ten rounds, and up to ten more while no kill has hit between two
# commits (under load the calibration is loose and a few kills can all
# land before the first or after the last commit).
for round in $(seq 1 20); do
    [ $round -gt 10 ] && [ $partial_seen = 1 ] && [ $kills -ge 5 ] && break
    # 10 ms .. 90% of a whole ingest: opening a new file, schema creation,
    # parsing and the stream of transactions (many sources per commit,
    # each under its own savepoint). Odd rounds start a new database, even
    # ones go on with the one the last kill left (crash recovery, then
    # more writes), so every kill hits work in progress.
    ms=$(($(rand) % (span * 9 / 10) + 10))
    [ $((round % 2)) = 1 ] && rm -f "$db" "$db-wal" "$db-shm"
    "$pb" ingest --db "$db" -q "$tmp/files" >/dev/null 2>"$tmp/kill.err" &
    pid=$!
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    if kill -9 $pid 2>/dev/null; then
        kills=$((kills + 1))
    fi
    wait $pid 2>/dev/null
    if [ -f "$db" ]; then
        check_db "$db" "after kill $round at ${ms}ms"
        stored=$(q "$db" "SELECT count(*) FROM source" 2>/dev/null || echo 0)
    else
        stored=0
    fi
    echo "kill $round at ${ms}ms: $stored sources stored"
    [ "$stored" -gt 0 ] && [ "$stored" -lt 1000 ] && partial_seen=1
done
[ $kills -ge 5 ] || fail "only $kills ingests were still running when killed"
[ $partial_seen = 1 ] || fail "no kill left a partly filled database (a whole ingest takes ${span} ms)"
before=$(q "$db" "SELECT count(*) FROM source" 2>/dev/null || echo 0)
"$pb" ingest --db "$db" -q "$tmp/files" >/dev/null 2>"$tmp/rest.err"
rc=$?
[ $rc -eq 0 ] || fail "re-run after kills: exit $rc: $(cat "$tmp/rest.err")"
grep -q "^poolbench: $((1000 - before)) stored ([0-9]* results), $before already present, 0 rejected$" "$tmp/rest.err" ||
    fail "re-run after kills ($before stored before): $(cat "$tmp/rest.err")"
s=$(q "$db" "SELECT count(*) FROM source")
[ "$s" = 1000 ] || fail "after re-run: $s sources, want 1000"
check_db "$db" "after re-run"

# ---- 2. concurrent writers
ls "$tmp"/files/* | head -n 200 >"$tmp/200"
# two processes, overlapping halves (files 0-129 and 70-199)
db="$tmp/two.db"
sed -n '1,130p' "$tmp/200" >"$tmp/l1"
sed -n '71,200p' "$tmp/200" >"$tmp/l2"
# shellcheck disable=SC2046
"$pb" ingest --db "$db" -j 1 $(cat "$tmp/l1") >"$tmp/o1" 2>"$tmp/e1" &
p1=$!
# shellcheck disable=SC2046
"$pb" ingest --db "$db" -j 1 $(cat "$tmp/l2") >"$tmp/o2" 2>"$tmp/e2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] || fail "2 writers: exit $r1/$r2: $(cat "$tmp/e1" "$tmp/e2")"
grep -il "locked\|busy" "$tmp/e1" "$tmp/e2" >/dev/null && fail "2 writers: $(cat "$tmp/e1" "$tmp/e2")"
s=$(q "$db" "SELECT count(*) FROM source")
[ "$s" = 200 ] || fail "2 writers: $s sources, want 200"
ok=$(cat "$tmp/o1" "$tmp/o2" | grep -c '^ok ')
[ "$ok" = 200 ] || fail "2 writers: $ok files reported stored, want 200"
check_db "$db" "2 writers"

# four processes, each all 200 files, starting at a different place
db="$tmp/four.db"
pids=""
for k in 0 1 2 3; do
    { sed -n "$((k * 50 + 1)),\$p" "$tmp/200"; head -n $((k * 50)) "$tmp/200"; } >"$tmp/l4.$k"
    # shellcheck disable=SC2046
    "$pb" ingest --db "$db" -j 1 $(cat "$tmp/l4.$k") >"$tmp/o4.$k" 2>"$tmp/e4.$k" &
    pids="$pids $!"
done
k=0
for p in $pids; do
    wait "$p" || fail "4 writers: process $k exit $?: $(cat "$tmp/e4.$k")"
    k=$((k + 1))
done
grep -il "locked\|busy" "$tmp"/e4.* >/dev/null && fail "4 writers: $(cat "$tmp"/e4.*)"
s=$(q "$db" "SELECT count(*) FROM source")
[ "$s" = 200 ] || fail "4 writers: $s sources, want 200"
ok=$(cat "$tmp"/o4.* | grep -c '^ok ')
dup=$(cat "$tmp"/o4.* | grep -c '^skip ')
[ "$ok" = 200 ] && [ "$dup" = 600 ] ||
    fail "4 writers: $ok stored and $dup skipped, want 200 and 600"
check_db "$db" "4 writers"

# ---- 3. read-only and full databases
# A database with three sources; the fourth file is the one that fails.
seed_db() { # DB
    "$pb" ingest --db "$1" -q "$tmp/files/f0000.json" "$tmp/files/f0001.json" \
        "$tmp/files/f0002.json" >/dev/null 2>&1
}
state() { # DB: what must not change
    q "$1" "SELECT count(*) FROM source; SELECT count(*) FROM result;
            SELECT count(*) FROM fact; PRAGMA integrity_check" 2>&1 | tr '\n' ' '
}
expect_exit3() { # DB WHAT PATTERN: ingest one more file must fail with exit 3
    "$pb" ingest --db "$1" -q "$tmp/files/f0003.json" "$tmp/files/f0004.json" \
        >/dev/null 2>"$tmp/x.err"
    rc=$?
    [ $rc -eq 3 ] || fail "$2: exit $rc, want 3: $(cat "$tmp/x.err")"
    # the reason, not the path, must say it (paths here hold "full")
    sed "s|^poolbench: $1: ||" "$tmp/x.err" | grep -qi "$3" ||
        fail "$2: the message does not give the reason ($3): $(cat "$tmp/x.err")"
    grep -q "^poolbench: $1" "$tmp/x.err" || fail "$2: database not named: $(cat "$tmp/x.err")"
}

root=0
[ "$(id -u)" = 0 ] && root=1

# 3a. an immutable database file (root ignores chmod)
mkdir "$tmp/ro1"
db="$tmp/ro1/ro.db"
seed_db "$db"
before=$(state "$db")
sum=$(sha256sum "$db" | cut -d' ' -f1)
if [ $root = 1 ] && chattr +i "$db" 2>/dev/null; then
    immutable="$db"
    expect_exit3 "$db" "immutable database" "read-only\|readonly\|permission\|not permitted"
    echo "immutable database: $(cat "$tmp/x.err")"
    [ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum" ] || fail "immutable database: bytes changed"
    chattr -i "$db"
    immutable=""
    [ "$(state "$db")" = "$before" ] || fail "immutable database: $before -> $(state "$db")"
elif [ $root = 0 ]; then
    chmod 444 "$db"
    chmod 555 "$tmp/ro1"
    expect_exit3 "$db" "read-only database" "read-only\|readonly\|permission"
    chmod 755 "$tmp/ro1"
    chmod 644 "$db"
    [ "$(state "$db")" = "$before" ] || fail "read-only database: $before -> $(state "$db")"
else
    skip "chattr +i not supported here"
fi

# 3b. a database on a read-only mount
mkdir "$tmp/ro2" "$tmp/ro2m"
db="$tmp/ro2/ro.db"
seed_db "$db"
before=$(state "$db")
sum=$(sha256sum "$db" | cut -d' ' -f1)
if [ $root = 1 ] && mount --bind "$tmp/ro2" "$tmp/ro2m" 2>/dev/null; then
    mounts="$tmp/ro2m $mounts"
    if mount -o remount,bind,ro "$tmp/ro2m" 2>/dev/null; then
        expect_exit3 "$tmp/ro2m/ro.db" "database on a read-only mount" "read-only\|readonly"
        echo "read-only mount: $(cat "$tmp/x.err")"
        [ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum" ] || fail "read-only mount: bytes changed"
        [ "$(state "$db")" = "$before" ] || fail "read-only mount: $before -> $(state "$db")"
    else
        skip "cannot remount read-only"
    fi
    umount "$tmp/ro2m"
    mounts=""
else
    skip "read-only mount (needs root and mount)"
fi

# 3c. a database on a full filesystem
mkdir "$tmp/full"
if [ $root = 1 ] && mount -t tmpfs -o size=1m tmpfs "$tmp/full" 2>/dev/null; then
    mounts="$tmp/full $mounts"
    db="$tmp/full/full.db"
    seed_db "$db"
    if [ ! -s "$db" ]; then
        fail "full filesystem: could not create the database on a 1 MiB tmpfs"
    else
        before=$(state "$db")
        sum=$(sha256sum "$db" | cut -d' ' -f1)
        dd if=/dev/zero of="$tmp/full/filler" bs=4k 2>/dev/null
        expect_exit3 "$db" "database on a full filesystem" "full\|no space"
        echo "full filesystem: $(cat "$tmp/x.err")"
        [ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum" ] || fail "full filesystem: bytes of the database changed"
        rm -f "$tmp/full/filler"
        [ "$(state "$db")" = "$before" ] || fail "full filesystem: $before -> $(state "$db")"
        # nearly full: the database opens, the write fails (at COMMIT or
        # before); files that still fit are stored whole, the first one
        # that does not is refused with exit 3 and leaves nothing
        avail=$(df -k --output=avail "$tmp/full" | tail -n 1)
        dd if=/dev/zero of="$tmp/full/filler" bs=1k count=$((avail - 48)) 2>/dev/null
        k=10
        while [ $k -lt 20 ]; do
            before=$(state "$db")
            "$pb" ingest --db "$db" -q "$tmp/files/f00$k.json" >/dev/null 2>"$tmp/x.err"
            rc=$?
            [ $rc -eq 0 ] || break
            k=$((k + 1))
        done
        if [ $rc -ne 3 ]; then
            fail "nearly full filesystem: exit $rc, want 3: $(cat "$tmp/x.err")"
        else
            echo "nearly full filesystem ($((k - 10)) files fitted): $(cat "$tmp/x.err")"
            sed "s|^poolbench: $db: ||" "$tmp/x.err" | grep -qi "full\|no space" ||
                fail "nearly full filesystem: the message does not give the reason: $(cat "$tmp/x.err")"
            rm -f "$tmp/full/filler"
            [ "$(state "$db")" = "$before" ] || fail "nearly full filesystem: $before -> $(state "$db")"
            check_db "$db" "nearly full filesystem"
        fi
        rm -f "$tmp/full/filler"
        # and a new database on a full filesystem: exit 3, nothing left
        dd if=/dev/zero of="$tmp/full/filler" bs=4k 2>/dev/null
        "$pb" ingest --db "$tmp/full/new.db" -q "$tmp/files/f0005.json" >/dev/null 2>"$tmp/x.err"
        rc=$?
        [ $rc -eq 3 ] || fail "new database on a full filesystem: exit $rc, want 3: $(cat "$tmp/x.err")"
        sed "s|^poolbench: $tmp/full/new.db: ||" "$tmp/x.err" | grep -qi "full\|no space" ||
            fail "new database on a full filesystem: the message does not give the reason: $(cat "$tmp/x.err")"
        rm -f "$tmp/full/filler"
    fi
    umount "$tmp/full"
    mounts=""
else
    skip "full filesystem (needs root and mount -t tmpfs)"
fi

if [ $fails -gt 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "faults: ok ($skips part(s) skipped)"
exit 0
