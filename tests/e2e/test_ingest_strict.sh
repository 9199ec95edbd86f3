#!/bin/sh
# e2e: an interrupted fio run (SIGINT before the JSON) is stored with fact
# flag.interrupted; `ingest --strict` refuses it (exit 1, one line
# path:line: interrupted run (...), no rows) and still stores the others.
# usage: test_ingest_strict.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
cd "$src/fixtures" || exit 1
sig=fio-json/fio-3.33_randread_sigint-prefix.json
ok=fio-json/fio-3.33_randread_4k_qd4_libaio.json

# -- without --strict: stored, with the fact
db="$tmp/a.db"
"$pb" ingest --db "$db" --quiet "$sig" 2>"$tmp/err" >/dev/null
rc=$?
[ $rc -eq 0 ] || fail "plain ingest exit $rc: $(cat "$tmp/err")"
v=$(q "$db" "SELECT value FROM fact WHERE key='flag.interrupted'")
[ "$v" = "line 2: fio: terminating on signal 2; ran 1.243 s of 30 s" ] ||
    fail "fact flag.interrupted: '$v'"

# -- with --strict: refused, the good file stored
db="$tmp/b.db"
"$pb" ingest --db "$db" --quiet --strict "$sig" "$ok" 2>"$tmp/err" >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "--strict exit $rc, expected 1"
grep -v '^poolbench: [0-9]* stored' "$tmp/err" >"$tmp/msg"
echo "poolbench: $sig:2: interrupted run (fio: terminating on signal 2; ran 1.243 s of 30 s)" >"$tmp/want"
diff -u "$tmp/want" "$tmp/msg" || fail "--strict message"
n=$(q "$db" "SELECT count(*) FROM source WHERE path LIKE '%sigint%'")
[ "$n" = 0 ] || fail "refused source stored ($n)"
n=$(q "$db" "SELECT count(*) FROM source")
[ "$n" = 1 ] || fail "expected the good source stored, got $n sources"

# -- --strict with --dump refuses too
"$pb" ingest --strict --dump "$sig" >/dev/null 2>&1
[ $? -eq 1 ] || fail "--strict --dump did not refuse"

[ $fails -eq 0 ]
