#!/bin/sh
# e2e: a --rules pattern that backtracks without end on a long label is
# stopped quickly, the label keeps the dimensions of the other rules, and
# ingest warns once, naming the rules file line (issue 20 item 16).
# usage: test_rules_cost.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
f="$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

printf '# lab rules\npool = (?i)pool[ =:]+([a-z0-9_-]+)\nburn = (x+x+)+y\n' \
    >"$tmp/lab.rules"
# 18 x's and a '!', repeated to 3,990 bytes, then the real words: PCRE2
# tries (x+x+)+y at every offset, each just under its match limit (4.6 s
# for this label before the step budget)
label=$(awk 'BEGIN { s = ""; while (length(s) < 3990) s = s "xxxxxxxxxxxxxxxxxx!"; printf "%sy mirror pool=Tank", s }')
start=$(date +%s%N)
"$pb" ingest --dump --rules "$tmp/lab.rules" --label "$label" "$f" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
[ $rc -eq 0 ] || fail "exit $rc"
[ $ms -lt 2000 ] || fail "took $ms ms"
grep -q '^  pool=tank  # label: ' "$tmp/out" || grep -q '^  pool=tank$' "$tmp/out" ||
    fail "no pool=tank: $(grep -A4 '^config' "$tmp/out")"
grep -q '^  layout=mirror' "$tmp/out" || fail "no layout=mirror"
grep -q '^  burn=' "$tmp/out" && fail "burn has a value"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "stderr: $(cat "$tmp/err")"
grep -q "^poolbench: $tmp/lab.rules:3: pattern for 'burn' is too expensive: it hit .* on 1 label (first: \"xxxxxxxxxxxxxxxxxx!xxxxxxxxxxxxxxxxxx!xx...\"), which got no 'burn' from it; simplify the pattern" "$tmp/err" ||
    fail "warning: $(cat "$tmp/err")"

# rules within their limits: no warning
printf 'pool = (?i)pool[ =:]+([a-z0-9_-]+)\n' >"$tmp/ok.rules"
"$pb" ingest --dump --rules "$tmp/ok.rules" --label "$label" "$f" \
    >/dev/null 2>"$tmp/err2" || fail "ok rules: exit $?"
[ -s "$tmp/err2" ] && fail "ok rules warned: $(cat "$tmp/err2")"

[ $fails -eq 0 ] || exit 1
echo "ok"
