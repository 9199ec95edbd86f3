#!/bin/sh
# e2e: compare's verdicts say how sure they are (issue 42, items 10-13,
# 15, 16), on real files of fixtures/compare/ (README there): three fio
# runs of one job throttled to 20 MiB/s (base) and three to 16 MiB/s
# (cand: bandwidth and IOPS 20% lower, latency 25% higher), the first of
# each alone (single runs), and PTS repeats (the issue's two sample sets
# and a third with a far-off repeat).
#   10: the summary is per kind of metric (throughput, latency, cpu,
#       other), over the significant changes, led by the gated kind;
#   11: single runs are "not judged": counted, warned about, passed by
#       the gate unless --gate-unjudged (exit 4);
#   12: no interval below -100% (an open end says "unbounded");
#   13: read_bytes and read_runtime only with --metric;
#   15: --html writes the page and one line, no table or summary;
#   16: each test with its own interval: significant never holds 0%, ~
#       always does (Mann-Whitney with Hodges-Lehmann; the figures are
#       SciPy's, tests/unit/ref/stats_scipy.py).
# usage: test_compare_verdicts.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v python3 >/dev/null || { echo "SKIP: no python3" >&2; exit 77; }

fx="$src/fixtures/compare"
cd "$tmp" || exit 1
db="$tmp/c.db"
for i in 1 2 3; do
    "$pb" ingest --db "$db" -q --label base "$fx/fio-3.33_randread_20MiBps_run$i.json" 2>/dev/null ||
        fail "ingest base $i"
    "$pb" ingest --db "$db" -q --label cand "$fx/fio-3.33_randread_16MiBps_run$i.json" 2>/dev/null ||
        fail "ingest cand $i"
done
one="$tmp/one.db"
"$pb" ingest --db "$one" -q --label base "$fx/fio-3.33_randread_20MiBps_run1.json" 2>/dev/null
"$pb" ingest --db "$one" -q --label cand "$fx/fio-3.33_randread_16MiBps_run1.json" 2>/dev/null
pts="$tmp/pts.db"
"$pb" ingest --db "$pts" -q "$fx/pts-10.8.4_base-cand_outlier-repeats.xml" 2>/dev/null ||
    fail "ingest pts"
t='fio randread bs=4k iodepth=1 direct=1'

# ---- 10: one kind per number, the gated kind first
"$pb" compare --db "$db" base cand --fail-worse 5 >out.txt 2>err.txt
[ $? = 4 ] || fail "3 vs 3 --fail-worse 5: exit not 4"
sed -n '/^$/,$p' out.txt >sum.txt
cat >want.txt <<'W'

throughput: -20.0%, worse (geometric mean of the 2 significant changes among 2 pairs)
latency: +25.0%, worse (geometric mean of the 2 significant changes among 7 pairs)
cpu: no significant change (2 pairs)
0 better, 4 worse, 7 unchanged (~), 0 not judged, 0 unpaired
not compared by default: read_bytes, read_runtime (--metric reaches them)
W
diff want.txt sum.txt >&2 || fail "3 vs 3 summary"
"$pb" compare --db "$db" base cand --fail-worse 5 --json >k.json 2>/dev/null
python3 - k.json <<'PY' || fail "3 vs 3 JSON by kind"
import json, math, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert "geomean_ratio" not in s and "geomean_better" not in s, s
assert s["headline"] == "throughput", s["headline"]
assert sorted(s["by_kind"]) == ["cpu", "latency", "other", "throughput"], s
# each kind's geometric mean, recomputed from its significant pairs only
for kind, k in s["by_kind"].items():
    ps = [p for p in d["pairs"] if p["kind"] == kind]
    sig = [p for p in ps if p["significant"]]
    assert k["n"] == len(ps) and k["significant"] == len(sig), (kind, k)
    if not sig:
        assert k["geomean_better"] is None, (kind, k)
        continue
    logs = [math.log(1 + p["estimate_pct"] / 100) * (1 if p["direction"] == "higher" else -1) for p in sig]
    assert abs(k["geomean_better"] - math.exp(sum(logs) / len(logs))) < 1e-12, (kind, k)
t = s["by_kind"]["throughput"]
assert (t["n"], t["significant"], t["worse"]) == (2, 2, 2), t
assert abs(t["geomean_better"] - 0.8) < 0.002, t
kinds = {p["metric"]: p["kind"] for p in d["pairs"]}
assert kinds["read_bw"] == kinds["read_iops"] == "throughput", kinds
assert kinds["read_clat_p99"] == kinds["read_lat_mean"] == "latency", kinds
assert kinds["usr_cpu"] == kinds["sys_cpu"] == "cpu", kinds
PY
# a gate on latency alone: latency leads
"$pb" compare --db "$db" base cand --fail-worse 5 --fail-metric 'lat' \
    >out.txt 2>/dev/null
sed -n '/^$/{n;p;q}' out.txt | grep -q '^latency: +25.0%, worse' ||
    fail "--fail-metric lat: headline $(sed -n '/^$/{n;p;q}' out.txt)"

# ---- 13: bytes and runtime only with --metric, never offenders
sort err.txt | sed 's/.*direct=1. \([a-z_.0-9]*\) .*/\1/' >off.txt
printf '%s\n' read_bw read_clat_mean read_iops read_lat_mean | diff - off.txt >&2 ||
    fail "offenders by default: $(cat err.txt)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=[p["metric"] for p in d["pairs"]]; assert "read_bytes" not in m and "read_runtime" not in m and len(m) == 11, m; assert d["summary"]["left_out"] == ["read_bytes", "read_runtime"], d["summary"]' k.json ||
    fail "default metrics"
"$pb" compare --db "$db" base cand --metric 'read_(bytes|runtime)$' --json \
    >m.json || fail "--metric read_bytes exit"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert sorted(p["metric"] for p in d["pairs"]) == ["read_bytes", "read_runtime"] and d["summary"]["left_out"] == [], d' m.json ||
    fail "--metric reaches read_bytes"

# ---- 12: intervals of positive quantities stay above -100%
python3 - k.json <<'PY' || fail "intervals below -100%"
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
for p in pairs:
    assert p["ci_low_pct"] is None or p["ci_low_pct"] >= -100, p
cpu = [p for p in pairs if p["metric"] == "usr_cpu"][0]
# base 0.714 +- 0.71: Fieller's set is [0.2765.., inf) (SciPy roots)
assert cpu["ci_unbounded"] and cpu["ci_high_pct"] is None, cpu
assert abs(cpu["ci_low_pct"] - -72.5) < 0.1, cpu
p99 = [p for p in pairs if p["metric"] == "read_clat_p99"][0]
assert p99["ci_unbounded"] and p99["ci_low_pct"] is None, p99
PY
grep -q 'user CPU .*\[-72\.[0-9]%, unbounded)' out.txt || fail "no '[.., unbounded)'"
grep -q 'p99  .*  unbounded  ' out.txt || fail "no 'unbounded' for p99"
# the other way round the candidate's usr_cpu (0.714 +- 0.71) is not
# distinct from 0: Fieller's lower end is -320% (what was printed), cut
# at -100%; the page's axis and whiskers stop there too
"$pb" compare --db "$db" cand base --metric usr_cpu --html rev >/dev/null 2>&1
"$pb" compare --db "$db" cand base --metric usr_cpu >out.txt ||
    fail "reverse usr_cpu exit"
grep -q 'user CPU .*-33\.8%  \[-100\.0%, +263\.6%\]  0\.661  ~$' out.txt ||
    fail "reverse usr_cpu: $(grep 'user CPU' out.txt)"
grep -o '>-[0-9]*%</text>' rev/index.html | tr -d '>%</text' | sort -n | head -1 |
    grep -qx -- -100 || fail "reverse usr_cpu: the axis does not stop at -100%"

# ---- 15: --html writes the page and says so in one line
"$pb" compare --db "$db" base cand --html h >o.txt 2>e.txt || fail "--html exit $?"
[ ! -s o.txt ] || fail "--html printed on stdout: $(head -3 o.txt)"
[ "$(cat e.txt)" = "poolbench: compare: wrote h/index.html" ] ||
    fail "--html stderr: $(cat e.txt)"
grep -q 'id="headline"[^>]*>throughput: -20.0%, worse' h/index.html ||
    fail "page headline"
# the chart's axis stops at -100% for these positive quantities
grep -o '>-[0-9]*%</text>' h/index.html | tr -d '>%</text' | while read -r v; do
    [ "$v" -ge -100 ] || echo "$v"
done | grep -q . && fail "an axis label below -100%"

# ---- 11: single runs are not judged
"$pb" compare --db "$one" base cand --fail-worse 5 >out.txt 2>err.txt ||
    fail "single runs --fail-worse 5: exit $?, not 0"
[ "$(cat err.txt)" = "poolbench: compare: warning: 11 pairs not judged (a single run on a side): their raw change is not tested and does not fail the gate; --gate-unjudged gates them" ] ||
    fail "single runs warning: $(cat err.txt)"
grep -q "^$t  read bandwidth  .*-19\.8%  *–  *–  not judged (single run)\$" out.txt ||
    fail "single runs row: $(grep 'read bandwidth' out.txt)"
grep -qx '0 better, 0 worse, 0 unchanged (~), 11 not judged, 0 unpaired' out.txt ||
    fail "single runs counts"
grep -qx 'throughput: not judged (2 pairs)' out.txt || fail "single runs headline"
"$pb" compare --db "$one" base cand --json >j.json 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["summary"]; assert s["not_judged"] == 11 and s["unchanged"] == 0 and s["by_kind"]["throughput"]["not_judged"] == 2, s; assert all(p["verdict"] == "not judged" and not p["significant"] and p["why"] == "single run" for p in d["pairs"]), d["pairs"]' j.json ||
    fail "single runs JSON"
"$pb" compare --db "$one" base cand --fail-worse 5 --gate-unjudged \
    --fail-metric '_(bw|iops)$' >/dev/null 2>err.txt
[ $? = 4 ] || fail "--gate-unjudged: exit not 4"
grep -qx "poolbench: compare: gate failed: '$t' read_bw is worse by 19.8% (not judged: single run, more than 5%)" err.txt ||
    fail "--gate-unjudged message: $(cat err.txt)"
[ "$(grep -c 'gate failed' err.txt)" = 2 ] || fail "--gate-unjudged offenders: $(cat err.txt)"
"$pb" compare --db "$one" base cand --fail-worse 30 --gate-unjudged \
    >/dev/null 2>&1 || fail "--gate-unjudged above the change: exit $?"
"$pb" compare --db "$one" base cand --gate-unjudged >/dev/null 2>err.txt
[ $? = 2 ] || fail "--gate-unjudged without --fail-worse: exit not 2"
grep -q -- '--gate-unjudged needs --fail-worse' err.txt || fail "$(cat err.txt)"
"$pb" compare --db "$one" base cand --html h1 >/dev/null 2>/dev/null
grep -q 'id="not-judged"' h1/index.html || fail "page: no not-judged line"
grep -q '<b>11</b><span>not judged' h1/index.html || fail "page: no not-judged count"

# ---- 16: a verdict never contradicts its own interval
"$pb" compare --db "$pts" base cand --json >p.json || fail "pts compare exit"
python3 - p.json <<'PY' || fail "pts verdicts"
import json, sys
pairs = {p["test"].split("Type: ")[1].split(" -")[0]: p for p in json.load(open(sys.argv[1]))["pairs"]}
r, s, w = pairs["Random Read"], pairs["Sequential Read"], pairs["Random Write"]
for p in (r, s, w):
    assert p["method"] == "mann-whitney", p
    inside = p["ci_low_pct"] <= 0 <= p["ci_high_pct"]
    assert inside != p["significant"], p
# base 100..103 vs 104, 105, 106, 200 (SciPy: exact p 4/140, HL interval
# 1.0097087378640777 .. 2, estimate 1.0398019613425824)
assert r["verdict"] == "better" and abs(r["p"] - 4 / 140) < 1e-15, r
assert abs(r["ci_low_pct"] - 0.97087378640777) < 1e-9 and abs(r["ci_high_pct"] - 100) < 1e-9, r
assert abs(r["estimate_pct"] - 3.98019613425824) < 1e-9, r
# base 100, 100.5, 101, 101.5 vs 101.2, 103, 103.5, 104 (SciPy: p 8/140,
# 0.99704433497536948 .. 1.04)
assert s["verdict"] == "~" and abs(s["p"] - 8 / 140) < 1e-15, s
assert abs(s["ci_low_pct"] - -0.295566502463052) < 1e-9 and abs(s["ci_high_pct"] - 4) < 1e-9, s
# one far-off repeat: the means say +220%, the repeats say worse
# (SciPy exact p 0.010411810411810413)
assert w["verdict"] == "worse" and w["change_pct"] > 200 and w["estimate_pct"] < 0, w
assert abs(w["p"] - 0.010411810411810413) < 1e-12, w
PY
"$pb" compare --db "$pts" base cand >out.txt || fail "pts table exit"
grep -q 'Random Read.*+26\.8%  \[+1\.0%, +100\.0%\] (median +4\.0%)  0\.0286  better$' out.txt ||
    fail "pts row 1: $(grep 'Random Read' out.txt)"
grep -q 'Sequential Read.*+2\.2%  *\[-0\.3%, +4\.0%\] (median +2\.5%)  0\.0571  ~$' out.txt ||
    fail "pts row 2: $(grep 'Sequential Read' out.txt)"

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo ok
