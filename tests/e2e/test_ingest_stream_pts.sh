#!/bin/sh
# e2e: PTS result XML streamed (docs/performance.md, "Streaming ingest", PTS).
# Every PTS fixture, bad case and corpus file stored in parts of 1 and 40
# results gives the database of the whole parse (bad ones: the same
# error, nothing stored); a composite grown to 3 MB (bench/gen_corpus.py
# pts: 10 systems) the same to the byte of `sqlite3 .dump`, with exact
# counts and sums; a file whose <Generated> comes after its results
# (the tool version is not settled until then) the same; a file cut
# short near its end stores nothing (one line path:line, exit 1); and a
# 30 MB composite is ingested with peak RSS under 48 MB (not under ASan;
# parsed whole it takes about 100 MB).
# usage: test_ingest_stream_pts.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin python3

n=0
for f in "$src"/fixtures/pts-xml/* "$src"/fixtures/pts-xml/bad/* \
         ${3:+"$3"/pts-xml/*}; do
    case $f in *.err | *.expected | */README.md) continue ;; esac
    [ -f "$f" ] || continue
    STREAM_ARGS=
    stream_same "$f" 1 40
    STREAM_ARGS="--format pts-xml"
    stream_same "$f" 1 40
    n=$((n + 1))
done
STREAM_ARGS=
[ $n -ge 10 ] || fail "only $n PTS files compared"

# a composite of 10 systems grown from the fixture to BYTES
grow() {
    python3 "$src/bench/gen_corpus.py" pts \
        --base "$src/fixtures/pts-xml/fio-2systems.xml" --out "$2" \
        --bytes "$1" >/dev/null
}

# -- generated: the same database in parts, exact values
grow 3000000 "$tmp/g.xml"
stream_same "$tmp/g.xml" 1 40 16384
whole=$(POOLBENCH_STREAM_MIN=$STREAM_NEVER "$pb" ingest --db "$tmp/gw.db" \
    "$tmp/g.xml" 2>&1 | sed -n 's/.*g.xml: pts-xml, \([0-9]*\) results.*/\1/p')
[ -n "$whole" ] || fail "g.xml: whole ingest"
stream_same_dump "$tmp/g.xml" "g.xml: pts-xml, $whole results"
got=$(q "$tmp/gw.db" "SELECT tool_version FROM source")
rm -f "$tmp"/gs.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --db "$tmp/gs.db" \
    --quiet "$tmp/g.xml" || fail "g.xml: streamed"
[ "$(q "$tmp/gs.db" "SELECT tool_version FROM source")" = "$got" ] ||
    fail "g.xml: tool version"
a=$(q "$tmp/gw.db" "SELECT count(*) || '|' || sum(value) || '|' ||
    count(DISTINCT test_id) FROM result")
b=$(q "$tmp/gs.db" "SELECT count(*) || '|' || sum(value) || '|' ||
    count(DISTINCT test_id) FROM result")
[ "$a" = "$b" ] || fail "g.xml: whole '$a', streamed '$b'"

# -- <Generated> after the results: nothing goes to the store before the
#    tool version is known, and it is the same
python3 - "$src/fixtures/pts-xml/fio-2systems.xml" "$tmp/late.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
g = re.search(r"\s*<Generated>.*?</Generated>", s, re.S)
s = s[:g.start()] + s[g.end():]
s = s.replace("</PhoronixTestSuite>", g.group(0) + "\n</PhoronixTestSuite>")
open(sys.argv[2], "w").write(s)
PY
stream_same "$tmp/late.xml" 1 40
rm -f "$tmp"/l.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=1 "$pb" ingest --db "$tmp/l.db" \
    --quiet "$tmp/late.xml" || fail "late.xml: streamed"
case $(q "$tmp/l.db" "SELECT tool_version FROM source") in
pts-?*) ;;
*) fail "late.xml: tool version '$(q "$tmp/l.db" "SELECT tool_version FROM source")'" ;;
esac

# -- cut short near the end: nothing stored, one line, exit 1
head -c 2990000 "$tmp/g.xml" >"$tmp/cut.xml"
stream_same "$tmp/cut.xml" 40
rm -f "$tmp"/c.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --db "$tmp/c.db" \
    --quiet "$tmp/cut.xml" >/dev/null 2>"$tmp/c.err"
rc=$?
[ $rc -eq 1 ] || fail "cut short: exit $rc"
[ "$(wc -l <"$tmp/c.err")" -ge 1 ] &&
    grep -q "^poolbench: $tmp/cut.xml:[0-9]*:.*truncated XML" "$tmp/c.err" ||
    fail "cut short: '$(cat "$tmp/c.err")'"
[ "$(q "$tmp/c.db" "SELECT count(*) FROM result")" = 0 ] ||
    fail "cut short: results stored"

# -- memory: 30 MB in parts (the default threshold: 1 MiB)
if stream_rss_ok; then
    grow 30000000 "$tmp/big.xml"
    stream_rss "$tmp/big.xml" "$tmp/big.db"
    [ "$rss" -lt 49152 ] ||
        fail "30 MB composite: peak RSS $rss KB (not < 48 MB)"
    echo "30 MB composite: peak RSS $rss KB"
fi

stream_end
