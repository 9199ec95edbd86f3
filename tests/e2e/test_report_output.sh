#!/bin/sh
# e2e (issue "safe by construction", items 1, 6, 8): the report folder.
# Links planted in it are replaced, never written through; a folder of
# another user or writable by others is refused; a folder holding the
# user's own files and no report is refused without --force, and --force
# keeps them; a new report removes only files the last report wrote (its
# manifest); a report killed at any moment leaves the last one whole; the
# PDF goes through a temporary file.
# usage: test_report_output.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

db="$tmp/a.db"
"$pb" ingest -q --db "$db" "$src/fixtures/fio-json" "$src/fixtures/bonnie-csv" \
    "$src/fixtures/iozone" >/dev/null 2>&1
[ -s "$db" ] || { fail "no database"; exit 1; }
links_ok() { # every local href/src of $1/index.html exists
    grep -o '\(href\|src\)="[^"#:]*"' "$1/index.html" | sed 's/^[a-z]*="//; s/"$//' |
        sort -u | while read -r f; do
            [ -z "$f" ] && continue
            [ -e "$1/$f" ] || echo "missing $f"
        done
}

# ---- planted links: index.html and charts/ point elsewhere
r="$tmp/r1"; mkdir "$r"; chmod 755 "$r"
echo precious >"$tmp/victim"; mkdir "$tmp/elsewhere"
"$pb" report --db "$db" -o "$r" -q || fail "first report"
ln -sf "$tmp/victim" "$r/index.html"
rm -rf "$r/charts"; ln -s "$tmp/elsewhere" "$r/charts"
n=$(ls "$r" | grep -c '^tests-' ); : "$n"
ln -s "$tmp/victim" "$r/tests-001.html" 2>/dev/null
"$pb" report --db "$db" -o "$r" -q || fail "report over planted links"
[ "$(cat "$tmp/victim")" = precious ] || fail "a planted link was written through"
[ -z "$(ls "$tmp/elsewhere")" ] || fail "charts written through a planted charts link"
[ -L "$r/index.html" ] && fail "index.html is still the planted link"
[ -d "$r/charts" ] && [ ! -L "$r/charts" ] || fail "charts/ is not a real folder"
[ -z "$(links_ok "$r")" ] || fail "links: $(links_ok "$r")"
ls -a "$r" | grep -q '^\.poolbench-new-' && fail "staging folder left"

# ---- a link as the folder, another user's folder, a folder others can write
ln -s "$r" "$tmp/link"
"$pb" report --db "$db" -o "$tmp/link" -q 2>"$tmp/e"
[ $? -eq 3 ] || fail "report into a link: not refused"
grep -q "is a symbolic link" "$tmp/e" || fail "link: $(cat "$tmp/e")"
mkdir "$tmp/open"; chmod 777 "$tmp/open"
"$pb" report --db "$db" -o "$tmp/open" -q 2>"$tmp/e"
[ $? -eq 3 ] || fail "report into a world-writable folder: not refused"
grep -q "writable by other users" "$tmp/e" || fail "0777: $(cat "$tmp/e")"
[ -z "$(ls -A "$tmp/open")" ] || fail "something was written into the refused folder"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    mkdir "$tmp/theirs"; chown nobody "$tmp/theirs"; chmod 755 "$tmp/theirs"
    "$pb" report --db "$db" -o "$tmp/theirs" -q 2>"$tmp/e"
    [ $? -eq 3 ] || fail "report into another user's folder: not refused"
    grep -q "owned by another user" "$tmp/e" || fail "other user: $(cat "$tmp/e")"
fi

# ---- the user's files: refused without --force, kept with it
u="$tmp/mine"; mkdir -p "$u/charts"
echo mine >"$u/charts/001-mine.png"; echo mine >"$u/tests-001.html"
echo mine >"$u/notes.txt"
"$pb" report --db "$db" -o "$u" -q 2>"$tmp/e"
[ $? -eq 2 ] || fail "a folder of the user's files: not refused"
grep -q "no poolbench report.*--force" "$tmp/e" || fail "user folder: $(cat "$tmp/e")"
[ -e "$u/index.html" ] && fail "index.html written into a refused folder"
"$pb" report --db "$db" -o "$u" -q --force || fail "report --force"
for f in charts/001-mine.png notes.txt; do
    [ "$(cat "$u/$f")" = mine ] || fail "--force: the user's $f was changed or removed"
done
[ -s "$u/index.html" ] || fail "--force: no index.html"

# ---- a smaller report removes the last one's files, and only those
s="$tmp/shrink"
"$pb" report --db "$db" -o "$s" -q || fail "report into a new folder"
n1=$(ls "$s/charts" | wc -l)
echo mine >"$s/charts/999-mine.svg"
"$pb" report --db "$db" -o "$s" -q --test 'randread' || fail "smaller report"
n2=$(ls "$s/charts" | wc -l)
[ "$n2" -lt "$n1" ] || fail "old charts not removed ($n1 -> $n2)"
[ "$(cat "$s/charts/999-mine.svg")" = mine ] || fail "a file the report did not write was removed"
[ -z "$(links_ok "$s")" ] || fail "links after shrink: $(links_ok "$s")"
grep -q '^index.html$' "$s/.poolbench-report" || fail "manifest lacks index.html"

# ---- killed at any moment: the last report stays whole
k="$tmp/kill"
"$pb" report --db "$db" -o "$k" -q --pdf "$tmp/k.pdf" || fail "report to kill"
sum=$(cat "$k/index.html" "$tmp/k.pdf" | md5sum)
for d in 0.02 0.05 0.1 0.2 0.3; do
    "$pb" report --db "$db" -o "$k" -q --test 'read' --pdf "$tmp/k.pdf" &
    p=$!
    sleep $d
    kill -9 $p 2>/dev/null
    wait $p 2>/dev/null
    now=$(cat "$k/index.html" "$tmp/k.pdf" | md5sum)
    if [ "$now" != "$sum" ]; then
        # it finished before the kill: then it must be whole too
        [ -z "$(links_ok "$k")" ] || fail "killed after $d s: $(links_ok "$k")"
        "$pb" report --db "$db" -o "$k" -q --pdf "$tmp/k.pdf" || fail "report again"
    fi
    [ -z "$(links_ok "$k")" ] || fail "killed after $d s: $(links_ok "$k")"
done
"$pb" report --db "$db" -o "$k" -q || fail "report after the kills"
ls -a "$k" | grep -q '^\.poolbench-new-' && fail "a killed report's staging folder was not removed by the next report"
ls "$tmp" | grep -q '^k\.pdf\.' && echo "note: a killed report leaves its PDF temporary file"
# a PDF path that is a link is refused
ln -s "$tmp/victim" "$tmp/p.pdf"
"$pb" report --db "$db" -o "$k" -q --pdf "$tmp/p.pdf" 2>"$tmp/e"
[ $? -eq 3 ] || fail "--pdf LINK not refused"
[ "$(cat "$tmp/victim")" = precious ] || fail "PDF written through a link"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all report folder checks passed"
