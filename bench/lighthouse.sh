#!/bin/sh
# bench/lighthouse.sh: how fast the report's first page opens, as web
# engineers measure it (issue 41 item 9). Not part of CI. For each
# POOLBENCH binary given: ingest every file of CORPUS into a fresh
# database, write the report, serve it over HTTP from localhost
# (python3 -m http.server) and run Lighthouse 13 on index.html, mobile
# (its default: a phone, simulated slow 4G and 4x CPU slowdown) and
# desktop (--preset=desktop), with Debian's Chromium. Prints a markdown
# row per binary and form factor: performance, first contentful paint,
# total blocking time, accessibility, best practices, console errors,
# the DOM elements and bytes of index.html. bench/NOTES.md "First page".
#
# usage: bench/lighthouse.sh CORPUS POOLBENCH [POOLBENCH...]
# env:   BENCH_DIR (/tmp/poolbench-lighthouse: the npm install of
#        lighthouse, the databases, reports and JSON results),
#        CHROME_PATH (/usr/bin/chromium), PORT (8741)
set -eu
corpus=$1
shift
dir=${BENCH_DIR:-/tmp/poolbench-lighthouse}
port=${PORT:-8741}
CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
export CHROME_PATH
mkdir -p "$dir"
lh=$dir/node_modules/.bin/lighthouse
if [ ! -x "$lh" ]; then
    (cd "$dir" && npm install --no-audit --no-fund lighthouse@13 >npm.log 2>&1)
fi

echo "| build | form factor | performance | FCP | TBT | accessibility |" \
     "best practices | console errors | DOM elements | index.html bytes |"
echo "|---|---|---|---|---|---|---|---|---|---|"
n=0
for pb in "$@"; do
    n=$((n + 1))
    run=$dir/run$n
    rm -rf "$run"
    mkdir -p "$run"
    "$pb" ingest --db "$run/db" "$corpus" >/dev/null 2>&1 || true
    "$pb" report --db "$run/db" --out "$run/report" >/dev/null 2>&1
    (cd "$run/report" && exec python3 -m http.server "$port" \
        --bind 127.0.0.1 >/dev/null 2>&1) &
    srv=$!
    sleep 1
    for ff in mobile desktop; do
        preset=
        [ "$ff" = desktop ] && preset=--preset=desktop
        "$lh" "http://127.0.0.1:$port/index.html" $preset --quiet \
            --chrome-flags="--headless=new --no-sandbox" \
            --output=json --output-path="$run/$ff.json" >/dev/null 2>&1 ||
            true
        python3 - "$run/$ff.json" "$run/report/index.html" "$pb" "$ff" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
a, c = j["audits"], j["categories"]
def score(k):
    s = c[k]["score"]
    return "–" if s is None else "%.0f" % (s * 100)
def ms(k):
    v = a[k].get("numericValue")
    return "–" if v is None else "%.0f ms" % v
errs = a.get("errors-in-console", {}).get("details", {}).get("items", [])
dom = (a.get("dom-size-insight") or a.get("dom-size") or {}).get("numericValue")
size = len(open(sys.argv[2], "rb").read())
print("| %s | %s | %s | %s | %s | %s | %s | %d | %s | %d |" % (
    sys.argv[3], sys.argv[4], score("performance"),
    ms("first-contentful-paint"), ms("total-blocking-time"),
    score("accessibility"), score("best-practices"), len(errs),
    "–" if dom is None else "%.0f" % dom, size))
for e in errs:
    print("  console error:", e.get("description") or e.get("source"),
          e.get("url", ""), file=sys.stderr)
EOF
    done
    kill "$srv" 2>/dev/null || true
    wait "$srv" 2>/dev/null || true
done
