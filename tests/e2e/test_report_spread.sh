#!/bin/sh
# e2e: the spread of repeats in the report tables (issue 12 item 5). The
# PTS fixture fio-2systems.xml with its first RawString made
# "412.3:405.8:409.1:409.0:500" (five repeats, 500 far out: median 409.1,
# MAD 3.2, modified z 0.6745 x 90.9 / 3.2 = 19.2 > 3.5) gives that cell
# "5 ⚠ 1 outlier" and nothing else an outlier; every ± SE with n >= 2
# has its 95% CI (t quantile with n - 1 df x SE): SE 18.22 with n = 5
# gives ± 51 MB/s (2.776 x 18.22 = 50.58), SE 1.767 with n = 3 gives
# ± 7.6 MB/s (4.303 x 1.767 = 7.60).
# usage: test_report_spread.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

sed 's/412.3:405.8:409.1/412.3:405.8:409.1:409.0:500/' \
    "$src/fixtures/pts-xml/fio-2systems.xml" >"$tmp/pts-outlier.xml"
db="$tmp/s.db"
"$pb" ingest --db "$db" -q "$tmp/pts-outlier.xml" || fail ingest
"$pb" report --db "$db" -o "$tmp/r" -q || fail report
h="$tmp/r/index.html"
n=$(grep -c '>5 ⚠ 1 outlier</td>' "$h")
[ "$n" -ge 1 ] || fail "no outlier mark"
[ "$(grep -o '⚠ [0-9]* outlier' "$h" | sort -u)" = "⚠ 1 outlier" ] ||
    fail "other outlier marks: $(grep -o '⚠ [0-9]* outlier' "$h" | sort -u)"
grep -q 'title="1 of the 5 stored repeats is more than 3.5 robust deviations from their median (modified z-score: 0.6745 x abs(x - median) / MAD above 3.5)"' "$h" ||
    fail "outlier tooltip"
grep -q '>± 18 MB/s · 95% CI ± 51 MB/s</td>' "$h" || fail "CI of n = 5"
grep -q '>± 1.8 MB/s · 95% CI ± 7.6 MB/s</td>' "$h" || fail "CI of n = 3"

# without the outlier: no mark
"$pb" ingest --db "$tmp/c.db" -q "$src/fixtures/pts-xml/fio-2systems.xml" ||
    fail "ingest clean"
"$pb" report --db "$tmp/c.db" -o "$tmp/c" -q || fail "report clean"
grep -q 'outlier</td>' "$tmp/c/index.html" && fail "outlier in the clean file"

[ $fails -eq 0 ] || exit 1
echo ok
