#!/bin/sh
# e2e (issue "a storage engineer's first day", item 2): folders with other
# files. A job file and notes beside the results make `ingest DIR` exit 1;
# --skip-unknown lists them as skipped and exits 0; --include/--exclude
# choose files by name or by path below the folder.
# usage: test_ingest_filters.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }

d="$tmp/results"
mkdir -p "$d/raw" "$d/old"
cp "$fx/fio-3.33_randread_4k_qd4_libaio.json" "$d/"
cp "$fx/fio-3.33_three-jobs.json" "$d/raw/"
cp "$fx/fio-3.33_write_64k_fsync16.json" "$d/old/"
printf '[global]\nioengine=libaio\n[randread]\nrw=randread\n' >"$d/job.fio"
printf 'ran on tank, ashift=12\n' >"$d/NOTES.txt"
: >"$d/empty.log"

"$pb" ingest --db "$tmp/a.db" "$d" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 1 ] || fail "without --skip-unknown: exit $rc, want 1"
[ "$(q "$tmp/a.db" 'SELECT count(*) FROM source')" = 3 ] || fail "the results were not stored"

"$pb" ingest --db "$tmp/b.db" --skip-unknown "$d" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "--skip-unknown: exit $rc: $(cat "$tmp/e")"
for f in job.fio NOTES.txt empty.log; do
    grep -q "^skip $d/$f: " "$tmp/o" || fail "--skip-unknown does not list $f: $(cat "$tmp/o")"
done
grep -q "3 stored (81 results), 0 already present, 0 rejected, 3 of no supported format skipped" "$tmp/e" ||
    fail "--skip-unknown summary: $(cat "$tmp/e")"
[ -s "$tmp/e" ] && grep -v "stored" "$tmp/e" | grep -q . && fail "errors printed: $(cat "$tmp/e")"
# a damaged result file is still an error with --skip-unknown
head -c 300 "$fx/fio-3.33_three-jobs.json" >"$d/cut.json"
"$pb" ingest --db "$tmp/c.db" --skip-unknown "$d" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 1 ] || fail "a truncated JSON with --skip-unknown: exit $rc, want 1"
rm "$d/cut.json"

# --include by name, --exclude a folder, a pattern with '/'
"$pb" ingest --db "$tmp/d.db" --include '*.json' --exclude old "$d" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "--include/--exclude: exit $rc: $(cat "$tmp/e")"
got=$(q "$tmp/d.db" "SELECT group_concat(substr(path, length('$d') + 2), ' ') FROM (SELECT path FROM source ORDER BY path)")
[ "$got" = "fio-3.33_randread_4k_qd4_libaio.json raw/fio-3.33_three-jobs.json" ] ||
    fail "--include '*.json' --exclude old: stored '$got'"
"$pb" ingest --db "$tmp/e.db" --exclude 'raw/*.json' --include '*.json' "$d" >/dev/null 2>&1
got=$(q "$tmp/e.db" "SELECT count(*) FROM source WHERE path LIKE '%raw/%'")
[ "$got" = 0 ] || fail "--exclude 'raw/*.json' kept $got raw files"
got=$(q "$tmp/e.db" "SELECT count(*) FROM source")
[ "$got" = 2 ] || fail "--exclude 'raw/*.json': $got sources, want 2"
# a file named on the command line is read whatever the patterns say
"$pb" ingest --db "$tmp/f.db" --include '*.csv' "$d/old/fio-3.33_write_64k_fsync16.json" >/dev/null 2>&1 ||
    fail "a named file was filtered"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "ingest filter checks passed"
