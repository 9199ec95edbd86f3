#!/bin/sh
# e2e: issue 19's report items, checked against the numbers of real files.
#  7  bonnie++ table: counts per second as bonnie prints them (no doubled
#     prefix), a unit in every header, runs told apart by their file tests
#  6  chart titles name the workload and the metric
#  8  one throughput metric beside mean and p99 completion latency per
#     test; IOPS against latency where a family varies iodepth
#  9  big reports navigable: a contents list per page grouped by tool and
#     workload, tests of one configuration folded into one table
# 10  no internals on screen: PTS "value" is "PTS result (MB/s)", no test
#     ids in names, filters said in words
# usage: test_report_firstday.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
fx="$src/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
hasnt() { grep -qF -- "$2" "$1" && fail "$1 has: $2"; }
# the cells of the rows of the first table of section $3 whose name cell
# is $2, as "a|b|c|" (tags dropped), one line per row
rows_of() {
    sed -n "/<section id=\"$3\">/,/<\/table>/p" "$1" |
        grep "<span>$2</span>" | sed 's/<\/t[dh]>/|/g; s/<[^>]*>//g'
}

# ---- 7: bonnie++ -------------------------------------------------------
db="$tmp/b.db"
"$pb" ingest --db "$db" -q \
    "$fx/bonnie-csv/bonnie-1.03-and-1.97_hand-written_crlf.csv" \
    "$fx/bonnie-csv/bonnie-2.00a_q-two-runs-appended.csv" 2>/dev/null ||
    fail "ingest bonnie fixtures"
q="$corpus/bonnie-csv/bonnie-1.97_single-line_qemu-zfs_george-qiaozhi.csv"
k="$corpus/bonnie-csv/bonnie-1.96_fast-mode-empty-putc_perfkit.csv"
for f in "$q" "$k"; do
    [ -f "$f" ] && { "$pb" ingest --db "$db" -q "$f" 2>/dev/null || fail "ingest $f"; }
done
"$pb" report --db "$db" -o "$tmp/ob" -q || fail "bonnie report"
hb="$tmp/ob/index.html"
hasnt "$hb" '()</th>'
hasnt "$hb" 'kops/s'
has "$hb" '<th class="r">Read (ops/s)</th>'
has "$hb" '<th class="r">Create (ops/s)</th>'
has "$hb" '<th class="r">Files</th>'
# zfs_mirror_rs128k (two appended runs): rand_create 1775 in the second
# run only, printed as bonnie prints it
has "$hb" 'title="1775 ops/s">1775<'
# tank_raidz1_rs16k: a 16G run with 16k files (seq_create 1034) and a
# file-only run (-n 16:4096:512:8, seq_create 705): two rows told apart
rows_of "$hb" tank_raidz1_rs16k bonnie >"$tmp/tank"
[ "$(wc -l <"$tmp/tank")" = 2 ] || fail "tank rows: $(cat "$tmp/tank")"
grep -q '^tank_raidz1_rs16k||16k:4096:512/8|' "$tmp/tank" ||
    fail "file-only run not told apart: $(cat "$tmp/tank")"
grep -q '|705|11|+++++|+++++|650|9|690|10|+++++|+++++|540|8|$' "$tmp/tank" ||
    fail "file-only run values: $(cat "$tmp/tank")"
if [ -f "$q" ]; then
    # s209: putc empty, put_block 14450 K/s, rewrite 13191 K/s, get_block
    # 174964 K/s, seeks 390.3, creates 157 +++++ 160 / 170 +++++ 165
    rows_of "$hb" s209 bonnie | head -1 >"$tmp/s209"
    grep -qx 's209|16G|16k|||14.1|8|12.9|2|||171|11|390|15|157|2|+++++|+++++|160|3|170|2|+++++|+++++|165|3|' \
        "$tmp/s209" || fail "s209 row: $(cat "$tmp/s209")"
fi
if [ -f "$k" ]; then
    # perfkit: seq_create 49223/s was "49.2k" under "Create (kops/s)"
    rows_of "$hb" perfkit-7b22f510-0 bonnie >"$tmp/pk"
    grep -q '|49223|58|+++++|+++++|54405|53|2898|97|+++++|+++++|59089|60|$' \
        "$tmp/pk" || fail "perfkit row: $(cat "$tmp/pk")"
fi

# ---- 6: chart titles carry the workload ------------------------------
# two workloads swept over recordsize x compression: their charts of the
# same metric must be told apart by their titles alone
dbs="$tmp/s.db"
i=0
for f in "$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json" \
    "$fx/fio-json/fio-3.33_read_16k_warning-prefix.json"; do
    for rs in 8k 128k; do
        for comp in off lz4; do
            i=$((i + 1))
            { cat "$f"; printf '%*s\n' "$i" ''; } >"$tmp/run$i.json"
            "$pb" ingest --db "$dbs" -q --label "zfs rs=$rs $comp" \
                --set recordsize=$rs --set compression=$comp \
                "$tmp/run$i.json" 2>/dev/null || fail "ingest run $i"
        done
    done
done
"$pb" report --db "$dbs" -o "$tmp/os" -q || fail "sweep report"
hs="$tmp/os/index.html"
for w in 'fio randread bs=4k iodepth=4 direct=1' 'fio read bs=16k iodepth=1'; do
    re="alt=\"$w: read [A-Za-z]* by recordsize and compression\""
    grep -q "$re" "$hs" || fail "no sweep chart titled with '$w'"
    # the chart file itself (what a PNG shows) carries it too
    svg=$(grep -o "<img src=\"charts/[^\"]*\" [^>]*$re" "$hs" | head -1 |
        sed 's/<img src="\([^"]*\)".*/\1/')
    [ -n "$svg" ] && grep -q "$w: read" "$tmp/os/$svg" ||
        fail "chart '$svg' lacks its workload '$w'"
done

# ---- 8: latency beside throughput ------------------------------------
# randread 4k: IOPS (not bandwidth too) beside mean and p99 latency
w='fio randread bs=4k iodepth=4 direct=1'
for m in 'read IOPS' 'read completion latency, mean' 'read completion latency, p99'; do
    has "$hs" "alt=\"$w: $m\""
done
hasnt "$hs" "alt=\"$w: read bandwidth\""
# sequential read 16k: bandwidth, not IOPS
has "$hs" 'alt="fio read bs=16k iodepth=1: read bandwidth"'
hasnt "$hs" 'alt="fio read bs=16k iodepth=1: read IOPS"'
hasnt "$hs" 'id="iops-latency"' # no test varies iodepth here
# a real iodepth sweep (fio 3.28, 48 jobs: bs x iodepth 1..256, io_uring)
qd="$corpus/fio-json/fio-3.28_48-job-bs-qd-sweep_io_uring_whitepau.json"
if [ -f "$qd" ]; then
    dbq="$tmp/q.db"
    "$pb" ingest --db "$dbq" -q --label "nvme io_uring" "$qd" 2>/dev/null ||
        fail "ingest $qd"
    "$pb" report --db "$dbq" -o "$tmp/oq" -q || fail "iodepth report"
    # a split report (docs/report.md "Pages"): the section is a page
    has "$tmp/oq/index.html" '<li><a href="iops-latency.html">IOPS against latency</a></li>'
    hq="$tmp/oq/iops-latency.html"
    has "$hq" 'alt="fio write bs=16k direct=1: write IOPS against mean completion latency by iodepth"'
    # job r_bs16k_qd4: write iops 19582.53, clat mean 196410 ns, p99 230400
    sed -n '/<section id="iops-latency">/,/<\/section>/p' "$hq" |
        grep -o '<tr>.*' | sed 's/<\/t[dh]>/|/g; s/<[^>]*>//g' >"$tmp/iolat"
    grep -qx 'nvme io_uring|4|19.58k IOPS|196.4 µs|230.4 µs|' "$tmp/iolat" ||
        fail "iodepth 4 point: $(head -3 "$tmp/iolat")"
    grep -qx 'nvme io_uring|256|26.57k IOPS|9.630 ms|15.14 ms|' "$tmp/iolat" ||
        fail "iodepth 256 point"
    # 8 block sizes, one chart each, six points per line
    [ "$(grep -c 'iops-latency-[0-9]*-write.svg' "$hq")" = 8 ] ||
        fail "not one chart per block size"
fi

# ---- 9: contents, folded single-configuration tests ------------------
# the sweep report: contents grouped by tool and workload
has "$hs" '<nav class="toc"><b>Tests on this page</b>'
has "$hs" '<li class="tg"><span>fio · randread</span> <span class="m">(1)</span>'
has "$hs" '<li class="tg"><span>fio · read</span> <span class="m">(1)</span>'
has "$hs" '<div class="tst">'
# the script adds the filter box; the page has none without it
hasnt "$hs" '<input'
has "$hs" "i.className='flt'"
# 205 PTS tests on two systems (paged) and 3 of one system (folded)
{
    echo '<?xml version="1.0"?>'
    echo '<PhoronixTestSuite>'
    echo '  <Generated><Title>big</Title><TestClient>Phoronix Test Suite v10.8.4</TestClient></Generated>'
    echo '  <System><Identifier>ext4</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    echo '  <System><Identifier>zfs</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    i=1
    while [ $i -le 208 ]; do
        two="<Entry><Identifier>zfs</Identifier><Value>$((90 + i)).25</Value></Entry>"
        t="Flexible IO Tester" d="Type: Random Read - Pass: $i"
        # three tests of one system, nothing in common to sweep
        case $i in
        206) two="" t=Dbench d="Client Count: 6" ;;
        207) two="" t=SQLite d="Threads / Copies: 1" ;;
        208) two="" t=PostMark d="Disk Transaction Performance" ;;
        esac
        echo "  <Result><Identifier>pts/fio-2.1.0</Identifier><Title>$t</Title><Description>$d</Description><Scale>MB/s</Scale><Proportion>HIB</Proportion><Data><Entry><Identifier>ext4</Identifier><Value>$((100 + i)).5</Value></Entry>$two</Data></Result>"
        i=$((i + 1))
    done
    echo '</PhoronixTestSuite>'
} >"$tmp/big.xml"
"$pb" ingest --db "$tmp/big.db" -q "$tmp/big.xml" 2>/dev/null || fail "ingest big"
"$pb" report --db "$tmp/big.db" -o "$tmp/ob2" -q || fail "big report"
# a split report (docs/report.md "Pages"): Results by test is tests.html
hi="$tmp/ob2/tests.html"
[ -s "$tmp/ob2/tests-002.html" ] || fail "the big report has no pages"
has "$hi" '<li class="tg"><span>pts/fio-2.1.0 · randread</span> <span class="m">(205)</span>'
has "$hi" '<li class="tl"><a href="tests-001.html#t-2">Flexible IO Tester: Type: Random Read - Pass: 1 (MB/s)</a></li>'
has "$hi" '<li class="tg"><a href="#t-single">Tests with one configuration</a> <span class="m">(3)</span></li>'
has "$hi" '<h3 id="t-single">Tests with one configuration</h3>'
sed -n '/id="t-single"/,/<\/table>/p' "$hi" | grep -o '<tr>.*' |
    sed 's/<\/t[dh]>/|/g; s/<[^>]*>//g' >"$tmp/single2"
grep -qx 'SQLite: Threads / Copies: 1 (MB/s)|ext4|PTS result (MB/s)|307.5 MB/s|1|' \
    "$tmp/single2" || fail "one-configuration row: $(cat "$tmp/single2")"
grep -q 'alt="SQLite' "$hi" "$tmp"/ob2/tests-*.html && fail "a one-bar chart"
# each test page: its own contents, links within the page
p2="$tmp/ob2/tests-002.html"
has "$p2" '<nav class="toc"><b>Tests on this page</b>'
n=$(sed -n '/<nav class="toc"/,/<\/nav>/p' "$p2" | grep -c '<li class="tl"><a href="#t-')
[ "$n" -ge 50 ] || fail "page 2 contents: $n tests"
grep -q '<li class="tl"><a href="tests-' "$p2" && fail "page 2 contents link other pages"

# ---- 10: no internals on screen --------------------------------------
dbp="$tmp/p.db"
"$pb" ingest --db "$dbp" -q "$fx/pts-xml/junk-crlf-html.xml" \
    "$fx/pts-xml/fio-2systems.xml" 2>/dev/null || fail "ingest pts"
# the same fio job without its runtime: a test of the same name
f="$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
sed '/"runtime" : "1"/d; s/"size" : "4m",/"size" : "4m"/' "$f" >"$tmp/nort.json"
"$pb" ingest --db "$dbp" -q "$f" "$tmp/nort.json" 2>/dev/null || fail "ingest fio"
"$pb" report --db "$dbp" -o "$tmp/op" -q --ignore-param none || fail "pts report"
hp="$tmp/op/index.html"
# two systems: a chart; Dbench: Client Count: 6 (one system, 308.51 MB/s):
# a row of the table of tests with one configuration
has "$hp" '<th class="r">PTS result (MB/s)</th>'
has "$hp" 'Block Size: 1MB - Disk Target: Default Test Directory (MB/s): PTS result (MB/s)"'
sed -n '/id="t-single"/,/<\/table>/p' "$hp" | grep -o '<tr>.*' |
    sed 's/<\/t[dh]>/|/g; s/<[^>]*>//g' >"$tmp/single"
grep -q '^Dbench: Client Count: 6 (MB/s)|.*|PTS result (MB/s)|308.5 ± 1.7 MB/s|3|$' \
    "$tmp/single" || fail "Dbench row: $(cat "$tmp/single")"
hasnt "$hp" '>result<'
hasnt "$hp" ': result"'
has "$hp" 'fio randread bs=4k iodepth=4 direct=1 (runtime=1s)'
has "$hp" 'fio randread bs=4k iodepth=4 direct=1 (no runtime)'
grep -q '(fio #[0-9]*)' "$hp" && fail "a test id in a name"
"$pb" report --db "$dbp" -o "$tmp/op2" -q --test randread --config 'qd.' ||
    fail "filtered report"
has "$tmp/op2/index.html" 'only tests matching “randread”, configurations matching “qd.”'
hasnt "$tmp/op2/index.html" 'config ~ /'

if [ $fails -ne 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "report first-day checks passed"
