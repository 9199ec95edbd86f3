#!/bin/sh
# e2e: poolbench compare and its gate (issue 12 items 1, 2). Two sets of
# three fio JSON runs made from a real fixture (bandwidth and IOPS scaled
# by 1.00/0.98/1.02; the candidate at 0.8 of that): the candidate is
# worse, significantly, by 20% with a CI that excludes 0; --fail-worse 5
# exits 4 naming test and metric; a set against itself is all `~`; single
# runs are never significant; Mann-Whitney on stored samples; selectors
# (label, source:, db:FILE[:RE]) and their errors; --json, --csv, and
# --html in headless chromium (when installed); no database is written.
# usage: test_compare.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v python3 >/dev/null || { echo "SKIP: no python3" >&2; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }

fixture="$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
cd "$tmp" || exit 1
python3 - "$fixture" <<'PY'
import json, sys
d0 = json.load(open(sys.argv[1]))
def make(name, f):
    d = json.loads(json.dumps(d0))
    for j in d["jobs"]:
        s = j["read"]
        for k in ("bw", "bw_bytes", "iops", "bw_mean", "iops_mean"):
            s[k] = int(round(s[k] * f)) if isinstance(s[k], int) else s[k] * f
    json.dump(d, open(name, "w"), indent=1)
for i, f in enumerate((1.0, 0.98, 1.02)):
    make("base%d.json" % i, f)
    make("cand%d.json" % i, f * 0.8)
make("one-base.json", 1.01)
make("one-cand.json", 0.5)
PY
db="$tmp/t.db"
for i in 0 1 2; do
    "$pb" ingest --db "$db" -q --label base "base$i.json" 2>/dev/null ||
        fail "ingest base$i"
    "$pb" ingest --db "$db" -q --label cand "cand$i.json" 2>/dev/null ||
        fail "ingest cand$i"
done
"$pb" ingest --db "$db" -q --label single-base one-base.json 2>/dev/null
"$pb" ingest --db "$db" -q --label single-cand one-cand.json 2>/dev/null
rm -f "$db-wal" "$db-shm"
sum_before=$(sha256sum "$db" | cut -d' ' -f1)

test_name='fio randread bs=4k iodepth=4 direct=1'

# -- the terminal table: worse, significant, -20.0%, CI below 0
"$pb" compare --db "$db" '^base$' '^cand$' --metric 'read_bw$' >out.txt \
    2>err.txt || fail "compare exit $?: $(cat err.txt)"
line=$(grep 'read bandwidth' out.txt)
case $line in
"$test_name  read bandwidth  148.1 ± 1.7 MiB/s  118.5 ± 1.4 MiB/s  -20.0%  [-23.6%, -16.2%]  0.00023  worse") ;;
*) fail "bandwidth line: '$line'" ;;
esac
grep -qx '0 better, 1 worse, 0 unchanged (~), 0 not judged, 0 unpaired' out.txt ||
    fail "summary: $(tail -1 out.txt)"
grep -qx 'throughput: -20.0%, worse (geometric mean of the 1 significant change among 1 pair)' out.txt ||
    fail "summary headline: $(cat out.txt)"

# -- JSON: valid, exact figures
"$pb" compare --db "$db" '^base$' '^cand$' --json >c.json ||
    fail "compare --json exit $?"
python3 -m json.tool c.json >/dev/null || fail "--json is not JSON"
python3 - c.json <<'PY' || fail "JSON figures"
import json, sys
d = json.load(open(sys.argv[1]))
bw = [p for p in d["pairs"] if p["metric"] == "read_bw"][0]
assert bw["verdict"] == "worse" and bw["significant"], bw
assert bw["method"] == "welch", bw
assert abs(bw["change_pct"] - -20.0) < 1e-6, bw
assert bw["ci_high_pct"] < 0 and abs(bw["ci_low_pct"] - -23.6146) < 1e-3, bw
assert abs(bw["p"] - 0.000230153) < 1e-8, bw
assert bw["base_n"] == 3 and bw["cand_n"] == 3, bw
assert bw["base_mean"] == 155344592, bw
iops = [p for p in d["pairs"] if p["metric"] == "read_iops"][0]
assert iops["verdict"] == "worse", iops
# every other metric is the same in all six files: not significant
# (read_bytes and read_runtime are not compared by default: issue 42)
others = [p for p in d["pairs"] if p["metric"] not in ("read_bw", "read_iops")]
assert len(others) == 10 and all(p["verdict"] == "~" for p in others), others
s = d["summary"]
assert (s["better"], s["worse"], s["unchanged"], s["not_judged"], s["unpaired"]) == (0, 2, 10, 0, 0), s
assert s["headline"] == "throughput" and s["left_out"] == ["read_bytes", "read_runtime"], s
assert abs(s["by_kind"]["throughput"]["geomean_better"] - 0.8) < 1e-6, s
assert s["by_kind"]["latency"]["significant"] == 0 and s["by_kind"]["latency"]["geomean_better"] is None, s
assert d["gate"]["failed"] is False and d["gate"]["offenders"] == []
PY

# -- the gate: exit 4, each offender named on stderr and in JSON
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 5 >out.txt 2>err.txt
rc=$?
[ $rc = 4 ] || fail "--fail-worse 5 exit $rc, want 4"
grep -qx "poolbench: compare: gate failed: '$test_name' read_bw is worse by 20.0% (more than 5%, p = 0.00023)" err.txt ||
    fail "gate message: $(cat err.txt)"
grep -q "read_iops is worse by 20.0%" err.txt || fail "read_iops not named"
grep -q 'worse  FAIL > 5%' out.txt || fail "table does not mark the offender"
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 5 --json >g.json 2>/dev/null
[ $? = 4 ] || fail "--json gate exit"
python3 - g.json <<'PY' || fail "JSON gate"
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
assert g["failed"] is True and g["fail_worse_pct"] == 5, g
assert sorted(o["metric"] for o in g["offenders"]) == ["read_bw", "read_iops"], g
assert g["offenders"][0]["test"] == "fio randread bs=4k iodepth=4 direct=1", g
PY
# a threshold above the change, or another metric: the gate passes
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 25 >/dev/null ||
    fail "--fail-worse 25 exit $?"
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 5 \
    --fail-metric 'lat' >/dev/null || fail "--fail-metric lat exit $?"
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 5 \
    --fail-metric '^read_iops$' >/dev/null 2>err.txt
[ $? = 4 ] || fail "--fail-metric read_iops exit"
[ "$(wc -l <err.txt)" = 1 ] || fail "--fail-metric: $(cat err.txt)"
# better is never an offender: the other way round passes
"$pb" compare --db "$db" '^cand$' '^base$' --fail-worse 5 >out.txt ||
    fail "reverse compare exit $?"
grep -q 'read bandwidth.*+25.0%.*better' out.txt || fail "reverse: not better"

# -- a set against itself: exit 0, every pair ~
"$pb" compare --db "$db" '^base$' '^base$' --fail-worse 0 --json >s.json ||
    fail "self compare exit $?"
python3 - s.json <<'PY' || fail "self compare verdicts"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["pairs"]) == 12 and all(p["verdict"] == "~" for p in d["pairs"])
assert all(p["change_pct"] == 0 for p in d["pairs"])
PY

# -- single runs: never significant, not judged (here -50%)
"$pb" compare --db "$db" single-base single-cand --metric 'read_bw$' \
    --fail-worse 1 >out.txt 2>/dev/null || fail "single runs exit $?"
grep -q -- '-50.5%.*not judged (single run)' out.txt || fail "single: $(cat out.txt)"
# one side of three runs against a single run
"$pb" compare --db "$db" '^base$' single-cand --metric 'read_bw$' \
    --json >one.json 2>/dev/null || fail "3 vs 1 exit $?"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pairs"][0]; assert p["verdict"]=="not judged" and p["why"]=="single run" and p["method"]=="none", p' one.json ||
    fail "3 vs 1 verdict"

# -- selectors: source:GLOB, db:FILE, db:FILE:RE
"$pb" compare --db "$db" 'source:base*' 'source:cand?.json' --metric 'read_bw$' \
    --json >src.json || fail "source: exit $?"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pairs"][0]; assert p["verdict"]=="worse" and p["base_n"]==3, p' src.json ||
    fail "source: selectors"
cp "$db" other.db
"$pb" compare --db "$db" '^base$' "db:other.db:^cand\$" --metric 'read_bw$' \
    --json >db.json || fail "db:FILE:RE exit $?"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pairs"][0]; assert p["verdict"]=="worse", p' db.json ||
    fail "db: selector"

# -- run:ID (the fact poolbench run records on its sources)
cp "$db" run.db
sqlite3 run.db "INSERT INTO fact(source_id, host, key, value)
  SELECT id, NULL, 'run_id', CASE WHEN path LIKE 'base%' THEN 'r1' ELSE 'r2' END
  FROM source WHERE path LIKE 'base%' OR path LIKE 'cand%'"
rm -f run.db-wal run.db-shm
"$pb" compare --db run.db run:r1 run:r2 --metric 'read_bw$' --json \
    >run.json || fail "run: exit $?"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pairs"][0]; assert p["verdict"]=="worse" and p["base_config"]=="base" and p["cand_config"]=="cand", p' run.json ||
    fail "run: selectors"
"$pb" compare --db run.db run:r3 run:r2 2>err.txt >/dev/null
grep -q "no run matches 'run:r3'; did you mean 'run:r1'?" err.txt ||
    fail "run: message: $(cat err.txt)"

# -- several configurations a side: paired by label, else by dimensions
for i in 0 1 2; do
    for rs in 8k 128k; do
        f=$( [ $rs = 8k ] && echo base$i.json || echo cand$i.json )
        "$pb" ingest --db dims.db -q --label "old $rs" --set recordsize=$rs \
            "$f" 2>/dev/null
        "$pb" ingest --db new.db -q --label "old $rs" --set recordsize=$rs \
            "$f" 2>/dev/null
        { cat "$f"; echo; } >"new-$rs-$i.json" # other bytes, same figures
        "$pb" ingest --db dims.db -q --label "new $rs" --set recordsize=$rs \
            "new-$rs-$i.json" 2>/dev/null
    done
done
"$pb" compare --db dims.db '^old' '^new' --metric 'read_bw$' --json \
    >dims.json || fail "pairing by dimensions exit $?"
python3 - dims.json <<'PY' || fail "pairing by dimensions"
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((p["base_config"], p["cand_config"]) for p in d["pairs"])
assert got == [("old 128k", "new 128k"), ("old 8k", "new 8k")], got
assert d["unpaired"] == [], d["unpaired"]
PY
"$pb" compare --db dims.db '^old' 'db:new.db' --metric 'read_bw$' --json \
    >lab.json || fail "pairing by label exit $?"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert sorted(p["base_config"] for p in d["pairs"])==["old 128k","old 8k"] and all(p["base_config"]==p["cand_config"] and p["verdict"]=="~" for p in d["pairs"]), d' lab.json ||
    fail "pairing by label"

# -- bad selectors: exit 2 naming the selector and what there is
"$pb" compare --db "$db" '^base$' 'cnad' 2>err.txt >/dev/null
[ $? = 2 ] || fail "label matching nothing: exit not 2"
grep -qx "poolbench: compare: no configuration label matches 'cnad'; did you mean 'cand'? configurations: 'base', 'cand', 'single-base', 'single-cand'" err.txt ||
    fail "label message: $(cat err.txt)"
"$pb" compare --db "$db" 'source:nothing*' '^cand$' 2>err.txt >/dev/null
[ $? = 2 ] || fail "source: matching nothing: exit not 2"
grep -q "no source matches 'source:nothing\*'; sources: 'base0.json'" err.txt ||
    fail "source message: $(cat err.txt)"
"$pb" compare --db "$db" 'run:nope' '^cand$' 2>err.txt >/dev/null
[ $? = 2 ] || fail "run: matching nothing: exit not 2"
grep -q "no run matches 'run:nope'; runs: none" err.txt ||
    fail "run message: $(cat err.txt)"
# sides that share no test
"$pb" ingest --db share.db -q "$src/fixtures/fio-json/fio-3.33_write_64k_fsync16.json" 2>/dev/null
"$pb" compare --db "$db" '^base$' 'db:share.db' 2>err.txt >/dev/null
[ $? = 2 ] || fail "no shared test: exit not 2"
grep -q "'^base\$' and 'db:share.db' share no test and metric: base has '$test_name'; cand has 'fio write" err.txt ||
    fail "no shared test message: $(cat err.txt)"
# db: of a file that is not poolbench's: exit 3 with the reason
sqlite3 foreign.db 'CREATE TABLE t(a)'
"$pb" compare --db "$db" '^base$' 'db:foreign.db' 2>err.txt >/dev/null
[ $? = 3 ] || fail "foreign db: exit not 3"
grep -q "foreign.db: not a poolbench database" err.txt ||
    fail "foreign db message: $(cat err.txt)"
echo 'not a database' >text.db
"$pb" compare --db "$db" '^base$' 'db:text.db' 2>/dev/null >/dev/null
[ $? = 3 ] || fail "text file db: exit not 3"

# -- CSV: one row per pair, label text formula-escaped
"$pb" ingest --db csv.db -q --label '=cmd|calc' base0.json 2>/dev/null
"$pb" ingest --db csv.db -q --label '=cmd|calc' base1.json 2>/dev/null
"$pb" compare --db csv.db '=cmd' '=cmd' --metric 'read_bw$' --csv >c.csv ||
    fail "--csv exit $?"
[ "$(wc -l <c.csv)" = 2 ] || fail "csv rows: $(cat c.csv)"
grep -q "^$test_name,read_bw,B/s,higher,\"'=cmd|calc\",\"'=cmd|calc\"," c.csv ||
    fail "csv label not escaped: $(sed -n 2p c.csv)"

# -- Mann-Whitney on stored samples: 5 per side, apart: exact p 2/252
cp "$db" mw.db
sqlite3 mw.db "
UPDATE result SET samples = 5 WHERE id IN (SELECT r.id FROM result r
  JOIN config c ON c.id = r.config_id JOIN metric m ON m.id = r.metric_id
  WHERE c.label IN ('single-base', 'single-cand') AND m.name = 'read_bw');
INSERT INTO sample(result_id, seq, value)
  SELECT r.id, k.seq, r.value * (1 + (k.seq - 2) / 100.0)
  FROM result r JOIN config c ON c.id = r.config_id
  JOIN metric m ON m.id = r.metric_id,
  (SELECT 0 AS seq UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4) k
  WHERE c.label IN ('single-base', 'single-cand') AND m.name = 'read_bw';
UPDATE result SET stderr = value * 0.007 WHERE samples = 5;"
rm -f mw.db-wal mw.db-shm
"$pb" compare --db mw.db single-base single-cand --metric 'read_bw$' \
    --json >mw.json || fail "mann-whitney exit $?"
python3 - mw.json <<'PY' || fail "mann-whitney figures"
import json, sys
p = json.load(open(sys.argv[1]))["pairs"][0]
assert p["method"] == "mann-whitney", p
assert abs(p["p"] - 2 / 252) < 1e-12, p
assert p["verdict"] == "worse" and p["base_n"] == 5, p
PY
# without a stored standard error: the one of the samples
sqlite3 mw.db "UPDATE result SET stderr = NULL WHERE samples = 5"
rm -f mw.db-wal mw.db-shm
"$pb" compare --db mw.db single-base single-cand --metric 'read_bw$' \
    --json >mw2.json || fail "mann-whitney without stderr exit $?"
python3 - mw2.json <<'PY' || fail "mann-whitney without stderr"
import json, sys
p = json.load(open(sys.argv[1]))["pairs"][0]
assert p["method"] == "mann-whitney" and p["verdict"] == "worse", p
# samples v * (1 + (k - 2) / 100), k = 0..4: sd = v * sqrt(2.5) / 100
assert abs(p["base_stderr"] / p["base_mean"] - 0.025 ** 0.5 / 100 / 5 ** 0.5 * 10) < 1e-9, p
PY

# -- --html: the page, checked in a real browser when there is one
"$pb" compare --db "$db" '^base$' '^cand$' --fail-worse 5 --html html \
    >/dev/null 2>err.txt
[ $? = 4 ] || fail "--html gate exit"
[ -s html/index.html ] || fail "no html/index.html"
grep -q '<svg[^>]*id="change-chart"' html/index.html || fail "no chart"
. "$src/tests/e2e/browser_check.sh"
if browser_find; then
    browser_budget=5000
    run_browser --dump-dom "file://$tmp/html/index.html" >dom.html
    [ -s dom.html ] || fail "chromium printed no DOM: $(browser_log)"
    python3 - dom.html g.json <<'PY' || fail "the page does not match the JSON"
import json, re, sys
dom = open(sys.argv[1]).read()
pairs = json.load(open(sys.argv[2]))["pairs"]
body = dom.split('<tbody>')[1].split('</tbody>')[0]
rows = re.findall(r'<tr(?: class="offender")? data-verdict="([^"]*)"><td>([^<]*)</td>', body)
assert len(rows) == len(pairs), (len(rows), len(pairs))
for (v, t), p in zip(rows, pairs):
    assert v == p["verdict"] and t == p["test"], (v, t, p)
assert body.count('class="offender"') == 2
assert len(re.findall(r'<g class="bar" data-verdict="worse">', dom)) == 2
assert 'Gate failed' in dom
PY
else
    echo "note: no chromium, the page was checked as text only" >&2
fi

# -- a hostile label is text on the page, never markup
evil='<img src=x onerror=alert(1)>&'
"$pb" ingest --db evil.db -q --label "$evil" base0.json 2>/dev/null
"$pb" ingest --db evil.db -q --label "$evil" base1.json 2>/dev/null
"$pb" compare --db evil.db 'img' 'img' --html evil >/dev/null 2>&1 ||
    fail "compare --html of a hostile label"
grep -q '<img' evil/index.html && fail "a label leaked markup into the page"
grep -q '&lt;img src=x onerror=alert(1)&gt;&amp;' evil/index.html ||
    fail "the hostile label is not shown escaped"

# -- nothing was written to the database
rm -f "$db-wal" "$db-shm"
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum_before" ] ||
    fail "compare changed the database"

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo ok
