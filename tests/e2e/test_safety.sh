#!/bin/sh
# e2e (issue "safe by construction"): what reaches the terminal, a
# spreadsheet and the file system from hostile names. Symbolic link loops
# end fast; the database is never an input or an output; control
# characters in names never reach the terminal raw; CSV cells that a
# spreadsheet would run as formulas are defused; names that are not UTF-8
# survive JSON.
# usage: test_safety.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
esc=$(printf '\033')

# ---- symlink loops: each file once, fast; --follow still ends
mkdir -p "$tmp/loop/x"
cp "$fx"/fio-3.33_randread_4k_qd4_libaio.json "$fx"/fio-3.33_three-jobs.json "$tmp/loop/x/"
ln -s . "$tmp/loop/a"; ln -s . "$tmp/loop/b"; ln -s x "$tmp/loop/y"
ln -s .. "$tmp/loop/x/up"
for follow in "" --follow; do
    t0=$(date +%s%N)
    timeout 20 "$pb" ingest --dump $follow "$tmp/loop" >"$tmp/dump" 2>"$tmp/err"
    rc=$?
    t1=$(date +%s%N)
    [ $rc -eq 0 ] || fail "loop ingest $follow: exit $rc: $(head -3 "$tmp/err")"
    n=$(grep -c '^# ' "$tmp/dump")
    [ "$n" = 2 ] || fail "loop ingest $follow: $n files read, want 2 (each once)"
    ms=$(( (t1 - t0) / 1000000 ))
    [ $ms -lt 1000 ] || fail "loop ingest $follow took $ms ms"
done
grep -q "^# $tmp/loop/x/fio-3.33_three-jobs.json\$" "$tmp/dump" ||
    fail "loop ingest: the real path is not the one read"

# ---- `ingest .` with the database in that folder: the database is skipped
mkdir "$tmp/here"
cp "$fx"/fio-3.33_write_64k_fsync16.json "$tmp/here/"
( cd "$tmp/here" && "$pb" ingest . >/dev/null 2>"$tmp/err1" &&
  "$pb" ingest . >"$tmp/out2" 2>"$tmp/err2" )
rc=$?
[ $rc -eq 0 ] || fail "ingest . twice: exit $rc: $(cat "$tmp/err1" "$tmp/err2")"
grep -q "0 stored (0 results), 1 already present, 0 rejected" "$tmp/err2" ||
    fail "ingest . read its own database: $(cat "$tmp/err2")"

# ---- an output is never the database or its journal files
db="$tmp/here/poolbench.db"
sum0=$(md5sum "$db" | cut -d' ' -f1)
"$pb" report --db "$db" -o "$tmp/r" --pdf "$db" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "report --pdf DB: exit $rc, want 2"
grep -q "refusing to write '$db': it is the database" "$tmp/e" ||
    fail "report --pdf DB: $(cat "$tmp/e")"
"$pb" export --db "$db" --csv -o "$db" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "export -o DB: exit $rc, want 2"
"$pb" export --db "$db" --csv -o "$db-wal" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "export -o DB-wal: exit $rc, want 2"
grep -q "it is -wal file of the database" "$tmp/e" || fail "export -o DB-wal: $(cat "$tmp/e")"
[ "$(md5sum "$db" | cut -d' ' -f1)" = "$sum0" ] || fail "the database changed"
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check"

# ---- hostile names: ESC and newlines in a job name and a file name
mkdir "$tmp/h"
name="evil$(printf '\033')[31mRED$(printf '\033')]0;title$(printf '\007')"
sed "s/\"jobname\" : \"[^\"]*\"/\"jobname\" : \"=HYPERLINK(\\\\\"http:\\/\\/x\\\\\")\\\\u001b[2J\"/" \
    "$fx/fio-3.33_randread_4k_qd4_libaio.json" >"$tmp/h/$name.json"
grep -q 'HYPERLINK' "$tmp/h/$name.json" || fail "could not make the hostile job name"
hdb="$tmp/h.db"
"$pb" ingest --db "$hdb" "$tmp/h" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "hostile ingest: exit $rc: $(cat "$tmp/e")"
grep -q "$esc" "$tmp/o" "$tmp/e" && fail "ingest printed a raw ESC"
grep -q '^ok   .*evil\\x1b\[31mRED\\x1b\]0;title\\x07\.json: fio-json' "$tmp/o" ||
    fail "ingest ok line: $(cat -v "$tmp/o")"
"$pb" ingest --dump "$tmp/h" >"$tmp/o" 2>&1
grep -q "$esc" "$tmp/o" && fail "--dump printed a raw ESC"
grep -q 'HYPERLINK("http://x")\\x1b\[2J' "$tmp/o" || fail "--dump: job name not escaped as \\x1b: $(grep -m1 HYPER "$tmp/o" | cat -v)"
for what in sources configs tests results; do
    "$pb" list --db "$hdb" $what >"$tmp/o" 2>&1
    grep -q "$esc" "$tmp/o" && fail "list $what printed a raw ESC"
done
# one line per error, whatever the file name holds
nl="$tmp/h2/bad
name.json"
mkdir "$tmp/h2"
printf '{"fio version": "fio-3.33", "jobs": [' >"$nl"
"$pb" ingest --db "$hdb" "$tmp/h2" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 1 ] || fail "truncated file: exit $rc"
[ "$(grep -c . "$tmp/e")" = 2 ] || fail "error not on one line: $(cat -v "$tmp/e")"
grep -q 'bad\\nname.json:' "$tmp/e" || fail "newline in the file name not escaped: $(cat -v "$tmp/e")"

# ---- CSV: formula cells defused, numbers untouched
"$pb" export --db "$hdb" --csv -o "$tmp/x.csv" || fail "export --csv"
grep -q ',"'"'"'=HYPERLINK(""http://x"")' "$tmp/x.csv" ||
    fail "formula not defused: $(grep -m1 HYPER "$tmp/x.csv" | cat -v)"
grep -q ',=' "$tmp/x.csv" && fail "a raw formula cell is left"
# a negative number stays a number
"$pb" ingest --db "$hdb" --label "-5" "$fx/fio-3.33_three-jobs.json" >/dev/null 2>&1
"$pb" export --db "$hdb" --csv --config '^-5$' | sed -n 2p | grep -q ',-5,' ||
    fail "a numeric label was changed: $("$pb" export --db "$hdb" --csv --config '^-5$' | sed -n 2p)"
# a --label starting with @ or + is text: quoted with '
"$pb" ingest --db "$hdb" --label "@SUM(1+1)" "$fx/fio-3.33_write_64k_fsync16.json" >/dev/null 2>&1
"$pb" export --db "$hdb" --csv --config SUM | sed -n 2p | grep -q ",\"'@SUM(1+1)\"," ||
    fail "@ label not defused"

# ---- JSON: a file name that is not UTF-8 keeps its source_path
mkdir "$tmp/l1"
cp "$fx/fio-3.33_write_64k_fsync16.json" "$tmp/l1/caf$(printf '\351').json"
jdb="$tmp/j.db"
"$pb" ingest --db "$jdb" "$tmp/l1" >/dev/null 2>&1
"$pb" export --db "$jdb" --json >"$tmp/j.json" || fail "export --json"
grep -q '"source_path": *".*caf\\\\xe9.json"' "$tmp/j.json" ||
    fail "non-UTF-8 path: $(grep -m1 source_path "$tmp/j.json")"
n=$(grep -c '"source_path"' "$tmp/j.json")
m=$(grep -c '"metric"' "$tmp/j.json")
[ "$n" = "$m" ] || fail "$m rows but $n with source_path"

# ---- extreme but valid values: 1.7e308 IOPS draws, says so, PNG and all
mkdir "$tmp/big"
sed 's/"iops" : [0-9.]*/"iops" : 1.7e308/' "$fx/fio-3.33_randread_4k_qd4_libaio.json" >"$tmp/big/big.json"
cp "$fx/fio-3.33_three-jobs.json" "$tmp/big/"
bdb="$tmp/big.db"
"$pb" ingest -q --db "$bdb" "$tmp/big" 2>/dev/null
# a second configuration: tests of one configuration have no chart
{ cat "$tmp/big/big.json"; echo; } >"$tmp/big2.json"
"$pb" ingest -q --db "$bdb" --label other "$tmp/big2.json" 2>/dev/null
"$pb" report --db "$bdb" -o "$tmp/bigr" --png -q 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "report of 1.7e308: exit $rc: $(cat "$tmp/e")"
grep -l '>[^<]*\(inf\|nan\)[^<]*<' "$tmp/bigr/charts/"*.svg >/dev/null 2>&1 &&
    fail "inf/nan text in a chart: $(grep -l '>[^<]*inf' "$tmp/bigr/charts/"*.svg)"
grep -q "beyond what a chart can draw" "$tmp/bigr/index.html" ||
    fail "the clamped chart does not say so"
n=$(ls "$tmp/bigr/charts/"*.png 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "no PNGs"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all safety checks passed"
