#!/bin/sh
# e2e: a bad input is rejected with exit 1, exactly the message in ERRFILE
# (one line, with path:line), and leaves no rows in the database.
# usage: bad_input.sh POOLBENCH INPUT ERRFILE  (run in fixtures/)
set -u
bin=$1 input=$2 errfile=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" ingest --db "$tmp/t.db" --quiet "$input" 2>"$tmp/err" >/dev/null
rc=$?
if [ $rc -ne 1 ]; then
    echo "expected exit 1, got $rc" >&2
    cat "$tmp/err" >&2
    exit 1
fi
grep -v '^poolbench: [0-9]* stored' "$tmp/err" >"$tmp/msg"
diff -u "$errfile" "$tmp/msg" || exit 1
n=$(sqlite3 "$tmp/t.db" 'SELECT (SELECT count(*) FROM source) + (SELECT count(*) FROM result)')
if [ "$n" != "0" ]; then
    echo "rejected input left $n rows" >&2
    exit 1
fi
