#!/bin/sh
# e2e: poolbench best (issue 19, item 12): the winning configuration per
# test with runner-up, margin and verdict, in human units, --raw and
# --json, on a Phoronix result file (3 runs each: ± SE) and a blog table.
# Issue 42 item 14: the verdict is compare's test (Welch; Mann-Whitney on
# 4+4 stored repeats, fixtures/compare) and single runs are not judged,
# in best and in the report's best table alike. Welch p from SciPy 1.10.1
# (tests/unit/ref/stats_scipy.py welch_summary on the PTS means and the
# standard errors of their RawStrings): IOPS 0.0013569663666698863,
# sequential write 2.6782857256128516e-05.
# usage: test_best.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v jq >/dev/null || { echo "SKIP: no jq" >&2; exit 77; }

db="$tmp/t.db"
cd "$src/fixtures" || exit 1
"$pb" ingest --db "$db" -q pts-xml/fio-2systems.xml \
    table/blog_markdown_recordsize.md || fail ingest

"$pb" best --db "$db" --test 'Random Read.*IOPS|randread' >"$tmp/out" \
    2>"$tmp/err" || fail "best exit $?: $(cat "$tmp/err")"
cat >"$tmp/want" <<'W'
test                                                                                                                                                  metric      best                                                 value                runner-up                                             value                margin   verdict
Flexible IO Tester: Type: Random Read - Engine: IO_uring - Buffered: No - Direct: Yes - Block Size: 4KB - Disk Target: Default Test Directory (IOPS)  PTS result  zfs mirror recordsize=16k lz4                        104.7k ± 0.48k IOPS  ext4 mdraid1                                          99.46k ± 0.45k IOPS    +5.3%  clear: Welch p = 0.0014
randread bs=16k                                                                                                                                       read IOPS   blog_markdown_recordsize.md table 1: recordsize=16k          18.90k IOPS  blog_markdown_recordsize.md table 1: recordsize=128k            2310 IOPS  +718.2%  not judged: single run
W
diff "$tmp/want" "$tmp/out" >&2 || fail "best table differs"
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"

# latency: lower is better, in ms
line=$("$pb" best --db "$db" --metric 'lat' | sed -n 2p)
[ "$line" = "randread bs=16k  read latency, mean  blog_markdown_recordsize.md table 1: recordsize=16k  1.690 ms  blog_markdown_recordsize.md table 1: recordsize=128k  13.80 ms  +716.6%  not judged: single run" ] ||
    fail "latency line: $line"

# --raw: exact numbers in canonical units
line=$("$pb" best --db "$db" --raw --test randread | sed -n 2p)
[ "$line" = "randread bs=16k  read_iops  blog_markdown_recordsize.md table 1: recordsize=16k  18900 ops/s  blog_markdown_recordsize.md table 1: recordsize=128k  2310 ops/s  +718.1818181818181%  not judged: single run" ] ||
    fail "raw line: $line"
line=$("$pb" best --db "$db" --raw --test 'Sequential Write' | sed -n 2p)
case $line in
*"  2786 ± 9."*" MB/s  ext4 mdraid1  "*"2369 ± 13."*" MB/s  +17.6"*"%  clear: Welch p = 2.7e-05") ;;
*) fail "raw pts line: $line" ;;
esac

# --json: numbers as numbers
"$pb" best --db "$db" --json >"$tmp/j" || fail "best --json"
got=$(jq -c '.[] | select(.test == "randread bs=16k") |
    [.metric, .best.config, .best.value, .runner_up.value, .best.stderr, .verdict, .why, .p, .method]' "$tmp/j")
[ "$got" = '["read_iops","blog_markdown_recordsize.md table 1: recordsize=16k",18900,2310,null,"not judged","single run",null,"none"]' ] ||
    fail "json: $got"
got=$(jq -c '[.[] | select(.test | test("Random Read.*IOPS"))][0] |
    [.verdict, .verdict_text, .method, (.p * 1e12 | round)]' "$tmp/j")
[ "$got" = '["clear","clear: Welch p = 0.0014","welch",1356966367]' ] ||
    fail "json pts verdict: $got"
got=$(jq -c '[.[] | select(.test | test("Random Read.*IOPS"))][0] |
    [.best.value, .runner_up.value, .best.n, (.margin * 1000 | round)]' "$tmp/j")
[ "$got" = '[104721,99456,3,53]' ] || fail "json pts: $got"
[ "$(jq length "$tmp/j")" = 4 ] || fail "json rows: $(jq length "$tmp/j")"

# single-configuration tests are counted on stderr
"$pb" best --db "$db" --test 'Random Read.*IOPS' --config ext4 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "one config: exit"
[ "$(cat "$tmp/err")" = "poolbench: best: no test has two configurations to compare
poolbench: best: 1 test/metric pair with a single configuration left out" ] ||
    fail "one config stderr: $(cat "$tmp/err")"
# filters that match nothing
"$pb" best --db "$db" --test randraed 2>"$tmp/err"
[ $? -eq 2 ] || fail "typo exit"
[ "$(head -n 1 "$tmp/err")" = "poolbench: best: no test matches 'randraed'; did you mean 'randread'?" ] ||
    fail "typo: $(cat "$tmp/err")"

# -- the test compare uses, Mann-Whitney included (issue 42 item 14): the
# issue's PTS repeats, 4 (and 8) a side; the verdicts of compare in
# e2e.test_compare_verdicts
db2="$tmp/mw.db"
"$pb" ingest --db "$db2" -q compare/pts-10.8.4_base-cand_outlier-repeats.xml ||
    fail "ingest pts repeats"
"$pb" best --db "$db2" --json >"$tmp/mw.json" || fail "best mw exit"
got=$(jq -c '[.[] | [(.test | sub(" - Engine.*"; "") | sub(".*Type: "; "")), .best.config, .verdict, .method, (.p * 1e6 | round)]]' "$tmp/mw.json")
[ "$got" = '[["Random Read","cand","clear","mann-whitney",28571],["Random Write","cand","unclear","mann-whitney",10412],["Sequential Read","cand","not distinguishable","mann-whitney",57143]]' ] ||
    fail "best mann-whitney: $got"
"$pb" best --db "$db2" | grep -c 'clear: Mann-Whitney p = 0.029$' | grep -qx 1 ||
    fail "best table: $("$pb" best --db "$db2")"
"$pb" best --db "$db2" | grep -q 'unclear: the repeats favour the runner-up (Mann-Whitney p = 0.01)$' ||
    fail "best split verdict"
# the report's best table says the same
"$pb" report --db "$db2" -o "$tmp/rep" >/dev/null 2>&1 || fail "report exit"
best_html=$(sed -n '/id="best"/,/<\/table>/p' "$tmp/rep/index.html")
for v in 'clear: Mann-Whitney p = 0.029' 'not distinguishable: Mann-Whitney p = 0.057' \
    'unclear: the repeats favour the runner-up (Mann-Whitney p = 0.01)'; do
    printf '%s' "$best_html" | grep -qF "$v" || fail "report best table lacks '$v'"
done
printf '%s' "$best_html" | grep -q 'intervals apart\|intervals overlap' &&
    fail "report best table still says ±SE intervals"
"$pb" report --db "$db" -o "$tmp/rep2" >/dev/null 2>&1 || fail "report 2 exit"
sed -n '/id="best"/,/<\/table>/p' "$tmp/rep2/index.html" >"$tmp/best2.html"
grep -qF 'not judged: single run' "$tmp/best2.html" ||
    fail "report best table: single runs not 'not judged'"
grep -qF 'clear: Welch p = 0.0014' "$tmp/best2.html" ||
    fail "report best table: no Welch verdict"

[ $fails -eq 0 ] || exit 1
echo "ok"
