#!/bin/sh
# e2e (issue 42, item 19): rejections that help. A configuration sheet
# ingested as a file is told to use --configs (its header line named); a
# table the sniffer does not take gets the --format table hint; a list of
# sources that names PTS elements is no PTS definition; prose gets neither
# hint. Each is one line, exit 1, nothing stored; the rest of a folder is.
# (The table and the list are also e2e.bad fixtures.)
# usage: test_rejections.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# one input: exit 1, exactly the line, nothing stored
reject() { # file, line
    rm -f "$tmp/x.db"
    "$pb" ingest -q --db "$tmp/x.db" "$1" 2>"$tmp/err" >/dev/null
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc"
    grep -v '^poolbench: [0-9]* stored' "$tmp/err" >"$tmp/msg"
    [ "$(cat "$tmp/msg")" = "poolbench: $2" ] ||
        fail "$1: got '$(cat "$tmp/msg")', want 'poolbench: $2'"
    n=$(sqlite3 "$tmp/x.db" 'SELECT count(*) FROM source')
    [ "$n" = 0 ] || fail "$1: $n sources stored"
}

sheet="configuration sheet: use --configs"
reject "$fx/sheets/hosts.csv" "$fx/sheets/hosts.csv:3: this looks like a $sheet"
reject "$fx/sheets/hosts.tsv" "$fx/sheets/hosts.tsv:3: this looks like a $sheet"
reject "$fx/sheets/hosts_web-copy.tsv" \
    "$fx/sheets/hosts_web-copy.tsv:4: this looks like a $sheet"
reject "$fx/table/bad/first-column-setup_not-sniffed.tsv" \
    "$fx/table/bad/first-column-setup_not-sniffed.tsv:1: unrecognised input: not output of any supported benchmark tool; if this is a summary table, read it with --format table"
reject "$fx/unreadable/bad/sources-list_pts-files.tsv" \
    "$fx/unreadable/bad/sources-list_pts-files.tsv:1: unrecognised input: not output of any supported benchmark tool"
reject "$fx/sheets/README.md" \
    "$fx/sheets/README.md:1: unrecognised input: not output of any supported benchmark tool"

# the sheet as a sheet is fine
"$pb" ingest -q --db "$tmp/ok.db" --configs "$fx/sheets/hosts.csv" \
    "$fx/sheets/coded-machines.csv" 2>/dev/null || fail "--configs"

# a folder of results with its sheet in it: the sheet is rejected with
# the hint, the results are stored
mkdir "$tmp/dir"
cp "$fx/sheets/coded-machines.csv" "$fx/sheets/hosts.csv" "$tmp/dir/"
"$pb" ingest -q --db "$tmp/d.db" "$tmp/dir" 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] || fail "folder: exit not 1"
grep -qx "poolbench: $tmp/dir/hosts.csv:3: this looks like a $sheet" "$tmp/err" ||
    fail "folder: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/d.db" 'SELECT count(*) FROM source')" = 1 ] ||
    fail "folder: the bonnie++ results are not stored"
# --skip-unknown passes over it, as over any file of no result format
"$pb" ingest -q --db "$tmp/s.db" --skip-unknown "$tmp/dir" 2>"$tmp/err" >/dev/null ||
    fail "--skip-unknown: exit $?: $(cat "$tmp/err")"

[ $fails -eq 0 ] || exit 1
echo ok
