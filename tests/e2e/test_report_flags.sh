#!/bin/sh
# e2e: what ingest says about a source beyond its numbers, and how the
# report shows it. A combined ZFS log is stored with a warning naming the
# skipped lines (not with --quiet); sources carrying flag.* facts get a
# marker in the Sources table and a line in the Warnings list at the top
# of index.html, escaped; a report without flags has no Warnings; a
# kind of several sources is one fold with the count, serious kinds first.
# usage: test_report_flags.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }

# -- combined log: stored, warned
log="$fx/zfs/zfs-fuse_combined-log_iostat-status-list-df.txt"
"$pb" ingest --db "$tmp/a.db" "$log" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "combined log: exit $rc: $(cat "$tmp/err")"
want="poolbench: warning: $log: skipped lines 1-8 (zpool iostat), 24 (unknown), 25-27 (df)"
grep -qxF "$want" "$tmp/err" || fail "combined log: no warning line: $(cat "$tmp/err")"
v=$(q "$tmp/a.db" "SELECT value FROM v_result WHERE config='pbmsc_14284' AND metric='size'")
[ "$v" = 128974848.0 ] || fail "combined log: pool size $v, want 128974848 (123M)"
v=$(q "$tmp/a.db" "SELECT value FROM fact WHERE key='skipped_lines'")
[ "$v" = "1-8 (zpool iostat), 24 (unknown), 25-27 (df)" ] || fail "combined log: fact skipped_lines '$v'"
"$pb" ingest --db "$tmp/b.db" --quiet "$log" >"$tmp/out" 2>"$tmp/err"
grep -q "warning" "$tmp/err" && fail "--quiet still warns: $(cat "$tmp/err")"

# -- a report without flags has no Warnings
"$pb" report --db "$tmp/a.db" -o "$tmp/r0" >/dev/null 2>&1 || fail "report 0 failed"
grep -q '"#\{0,1\}warnings"' "$tmp/r0/index.html" && fail "Warnings without flagged sources"
grep -q '<th[^>]*>Warnings</th>' "$tmp/r0/index.html" && fail "Warnings column without flagged sources"

# -- flagged sources: an iozone fragment without banner, and a fact
#    flag.interrupted with markup in its text (as another parser stores it)
frag="$fx/iozone/iozone-R-report-only_n16m-g32m-q64k.txt"
"$pb" ingest --db "$tmp/a.db" -q "$frag" >/dev/null 2>&1 || fail "ingest $frag"
q "$tmp/a.db" "INSERT INTO fact(source_id, host, key, value) SELECT id, NULL,
  'flag.interrupted', 'fio: terminating on signal 2 <script>alert(1)</script> & 48 s of 300 s'
  FROM source WHERE path = '$log'"
"$pb" report --db "$tmp/a.db" -o "$tmp/r1" >/dev/null 2>&1 || fail "report 1 failed"
h="$tmp/r1/index.html"
grep -q '<section id="warnings" class="warnings">' "$h" || fail "no Warnings section"
grep -q '<li><a href="#warnings">Warnings</a></li>' "$h" || fail "no Warnings link in the contents"
# before the overview
w=$(grep -n 'id="warnings"' "$h" | cut -d: -f1)
o=$(grep -n 'id="overview"' "$h" | cut -d: -f1)
[ "${w:-0}" -lt "${o:-0}" ] || fail "Warnings ($w) not before the overview ($o)"
grep -qxF "<p class=\"warn\">$frag: ⚠ no version found</p>" "$h" ||
    fail "no warning line for $frag"
grep -qxF "<p class=\"warn\">$log: ⚠ interrupted run: fio: terminating on signal 2 &lt;script&gt;alert(1)&lt;/script&gt; &amp; 48 s of 300 s</p>" "$h" ||
    fail "no escaped warning line for the interrupted run"
grep -q '<td>⚠ interrupted run: fio: terminating on signal 2 &lt;script&gt;alert(1)&lt;/script&gt; &amp; 48 s of 300 s</td>' "$h" ||
    fail "no marker in the Sources table"
grep -q '<script>alert(1)' "$h" && fail "markup of a fact reached index.html unescaped"

# -- many sources of one kind (issue 41 item 7): 20 iozone fragments
#    without a banner (no version) and 2 interrupted sources give two
#    folds, the serious one first; no line per source outside them
for i in $(seq 1 20); do
    { cat "$frag"; printf '%*s\n' "$i" ''; } >"$tmp/frag-$i.txt"
done
"$pb" ingest --db "$tmp/c.db" -q "$tmp"/frag-*.txt >/dev/null 2>&1 || fail "ingest 20 fragments"
"$pb" ingest --db "$tmp/c.db" -q "$log" >/dev/null 2>&1 || fail "ingest the log"
q "$tmp/c.db" "INSERT INTO fact(source_id, host, key, value) SELECT id, NULL,
  'flag.interrupted', 'signal 2 <b>x</b>'
  FROM source WHERE path = '$log' OR path LIKE '%frag-3.txt'"
"$pb" report --db "$tmp/c.db" -o "$tmp/r2" >/dev/null 2>&1 || fail "report 2 failed"
sed -n '/<section id="warnings"/,/<\/section>/p' "$tmp/r2/index.html" >"$tmp/w2"
[ "$(grep -c 'no version' "$tmp/w2")" = 1 ] ||
    fail "20 sources without a version: $(grep -c 'no version' "$tmp/w2") lines, want 1"
nv=$(grep -n '^<details class="warn"><summary>⚠ 20 sources: no version found</summary>$' "$tmp/w2" | cut -d: -f1)
[ -n "$nv" ] || fail "no fold '20 sources: no version found'"
ir=$(grep -n '^<details class="warn serious"><summary>⚠ 2 sources: interrupted run</summary>$' "$tmp/w2" | cut -d: -f1)
[ -n "$ir" ] || fail "no serious fold '2 sources: interrupted run'"
[ "${ir:-99}" -lt "${nv:-0}" ] || fail "the serious fold ($ir) not before the other ($nv)"
[ "$(grep -c '^<li>' "$tmp/w2")" = 22 ] || fail "not 20 + 2 sources listed: $(grep -c '^<li>' "$tmp/w2")"
grep -qxF "<li>$tmp/frag-3.txt: signal 2 &lt;b&gt;x&lt;/b&gt;</li>" "$tmp/w2" ||
    fail "the interrupted fragment not listed, escaped"
grep -q '<p class="warn">' "$tmp/w2" && fail "a line per source beside the folds"

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "all report flag checks passed"
