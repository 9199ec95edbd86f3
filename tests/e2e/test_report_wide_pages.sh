#!/bin/sh
# e2e: pages that do not grow with the configurations (issue 41 item 1).
# bench/gen_wide.py makes N fio files from two real ones (a json+ randrw
# with latency bins, a json randread), each file a configuration of its
# own: 600 and then 1,200 configurations of each test. At both sizes:
# every HTML page is under 1 MB and every SVG (file or inline) under
# 200 KB; the tests' page is the same size at 1,200 configurations as at
# 600 (within 5%); each test's table of configurations shows its first
# and last 25 rows and holds all of them on pages of its own
# (t1-all-001.html ...), as do the latency CDF's and ladder's data tables
# (lat-2-read-cdf-001.html ...). Skips (77) without python3.
# usage: test_report_wide_pages.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
if ! command -v python3 >/dev/null 2>&1; then
    echo "skipping: no python3" >&2
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

mkdir "$tmp/seeds"
cp "$src/fixtures/fio-json/fio-3.33_randrw70_4k_json-plus.json" \
    "$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json" "$tmp/seeds/"

# rows of the tables on stdin: the first cell's text of each row
rows() {
    grep '^<tr><td' | sed -e 's/<[^>]*>/|/g' -e 's/||*/|/g' | cut -d'|' -f2
}

for n in 600 1200; do
    python3 "$src/bench/gen_wide.py" wide --seeds "$tmp/seeds" \
        --out "$tmp/w$n" --count $((2 * n)) >/dev/null ||
        { fail "gen_wide.py $n"; continue; }
    "$pb" ingest -q --db "$tmp/w$n.db" "$tmp/w$n" || fail "ingest $n"
    r=$tmp/r$n
    "$pb" report -q --db "$tmp/w$n.db" -o "$r" || fail "report $n"
    [ -s "$r/tests.html" ] || { fail "$n: no tests.html"; continue; }
    # the bounds: pages and SVGs, inline ones too
    python3 - "$r" "$n" <<'EOF' || fail "$n: a page or an SVG over its bound"
import os, re, sys
d, n, bad = sys.argv[1], sys.argv[2], 0
for root, _, fs in os.walk(d):
    for f in fs:
        p = os.path.join(root, f)
        s = os.path.getsize(p)
        if f.endswith(".html"):
            if s >= 1000000:
                print("%s: %s is %d bytes" % (n, p, s)); bad = 1
            t = open(p, encoding="utf-8").read()
            for m in re.finditer(r"<svg\b.*?</svg>", t, re.S):
                if len(m.group(0).encode()) >= 200000:
                    print("%s: inline SVG in %s" % (n, p)); bad = 1
        elif f.endswith(".svg") and s >= 200000:
            print("%s: %s is %d bytes" % (n, p, s)); bad = 1
sys.exit(bad)
EOF
    # the ends of each test's table here, all its rows on its pages
    [ "$(grep -c "<caption>All $n configurations of this test: the first 25 and the last 25 of $n rows</caption>" "$r/tests.html")" = 2 ] ||
        fail "$n: tests.html lacks the ends of its two tests' tables"
    for t in t1 t2; do
        got=$(cat "$r/$t"-all-0*.html | rows | sort -n | uniq | wc -l)
        [ "$got" = "$n" ] || fail "$n: $t-all pages hold $got ranks, not $n"
    done
    for k in cdf ladder; do
        got=$(cat "$r"/lat-2-read-$k-0*.html | grep '^<tr><td' | grep -o 'host-[0-9]*' | sort -u | wc -l)
        [ "$got" = "$n" ] || fail "$n: lat-2-read-$k pages hold $got configurations, not $n"
        grep -q "<caption>Data: [^<]*read completion latency, [^<]*: the first 25 and the last 25 of $n rows</caption>" "$r/tests.html" ||
            fail "$n: no ends of the $k table"
    done
done
a=$(wc -c <"$tmp/r600/tests.html") b=$(wc -c <"$tmp/r1200/tests.html")
[ "$b" -le $((a + a / 20)) ] ||
    fail "tests.html grows with the configurations: $a bytes at 600, $b at 1200"

[ "$fails" = 0 ] || exit 1
echo "ok: tests.html $a bytes at 600 configurations a test, $b at 1200; every page < 1 MB"
