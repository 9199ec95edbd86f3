#!/bin/sh
# e2e (issue 17 item 6): the data behind every chart. A report from the
# fixtures (a recordsize x compression sweep of two fio tests with
# repeats, an iodepth family, hostile labels) links under every chart its
# CSV (charts/NNN-stem.csv): every link of every page resolves, each CSV's
# numbers equal the table under its chart (report_csv_check.py), re-runs
# and --png keep the CSVs beside their charts, a paged report links them
# too; results.csv has as many rows as `poolbench export` for the same
# filter, results.json is valid JSON of the same rows; hostile labels
# round-trip quoted and formula-escaped; in headless chromium every CSV
# link is visible and its href a file:// that exists.
# usage: test_report_csv.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
chk="$src/tests/e2e/report_csv_check.py"
if ! command -v python3 >/dev/null 2>&1; then
    echo "skipping: no python3" >&2
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# poolbench report ARGS..., its stderr in the failure
report() {
    "$pb" report -q "$@" 2>"$tmp/report.err" ||
        { fail "report $*: $(cat "$tmp/report.err")"; return 1; }
}

# -- the database. fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json:
#    read iops 37925.925926, clat mean 95120.722656 ns, p99 411648 ns;
#    fio-3.33_read_16k_warning-prefix.json: a second test for the ranking
db="$tmp/r.db"
i=0
for rs in 8k 128k; do
    for comp in off lz4; do
        for rep in 1 2; do
            for f in fio-3.33_randread_4k_qd4_libaio.json \
                fio-3.33_read_16k_warning-prefix.json; do
                i=$((i + 1))
                { cat "$fx/fio-json/$f"; printf '%*s\n' "$i" ''; } >"$tmp/run$i.json"
                "$pb" ingest --db "$db" -q --label "zfs rs=$rs $comp" \
                    --set recordsize=$rs --set compression=$comp \
                    "$tmp/run$i.json" 2>/dev/null || fail "ingest run $i"
            done
        done
    done
done
# the same job at iodepth 16 with 51234.5 IOPS: IOPS against latency
sed 's/"iodepth" : "4"/"iodepth" : "16"/; s/"iops" : 37925.925926/"iops" : 51234.5/' \
    "$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json" >"$tmp/qd16.json"
"$pb" ingest --db "$db" -q --label "zfs rs=8k off" --set recordsize=8k \
    --set compression=off "$tmp/qd16.json" 2>/dev/null || fail "ingest qd16"
# hostile labels: a formula, a comma and quotes, a newline, markup
h1='=HYPERLINK("http://evil.example/","click")'
h2='a,b "quoted"'
h3='two
lines'
h4='<script>document.body.setAttribute("data-pwned","1")</script>'
k=0
for h in "$h1" "$h2" "$h3" "$h4"; do
    k=$((k + 1))
    { cat "$fx/fio-json/fio-3.33_randread_json-normal.json"; printf '%*s\n' "$k" ''; } \
        >"$tmp/h$k.json"
    { cat "$fx/fio-json/fio-3.33_read_16k_warning-prefix.json"; printf '%*s\n' $((100 + k)) ''; } \
        >"$tmp/s$k.json"
    "$pb" ingest --db "$db" -q --label "$h" "$tmp/h$k.json" "$tmp/s$k.json" \
        2>/dev/null || fail "ingest hostile label $k"
done
# a label that is not UTF-8: U+FFFD in the CSVs, \xHH in JSON (as export)
{ cat "$fx/fio-json/fio-3.33_randread_json-normal.json"; printf '%*s\n' 10 ''; } >"$tmp/h5.json"
{ cat "$fx/fio-json/fio-3.33_read_16k_warning-prefix.json"; printf '%*s\n' 110 ''; } >"$tmp/s5.json"
"$pb" ingest --db "$db" -q --label "$(printf 'bad\377byte')" "$tmp/h5.json" \
    "$tmp/s5.json" 2>/dev/null || fail "ingest a label that is not UTF-8"

out="$tmp/out"
report --db "$db" -o "$out"
python3 "$chk" "$out" >"$tmp/chk" || fail "CSV check: $(cat "$tmp/chk")"
# every kind of chart has its CSV
for kind in sweep-read-iops-recordsize-compression \
    heatmap-read-iops-recordsize-compression ranking iops-latency-1-read \
    fio-randread-bs-4k-iodepth-4-direc-read-iops; do
    ls "$out"/charts/*-"$kind".csv >/dev/null 2>&1 || fail "no $kind CSV"
done
n=$(grep -c '<figcaption class="csv">' "$out/index.html")
[ "$n" -ge 8 ] || fail "only $n CSV links"

# -- exact numbers, canonical units, in the table's order
python3 - "$out" >"$tmp/vals" <<'EOF' || fail "values: $(cat "$tmp/vals")"
import csv, glob, sys
out = sys.argv[1]
def rows(pat):
    [p] = glob.glob(out + "/charts/*-" + pat + ".csv")
    return list(csv.DictReader(open(p, newline="", encoding="utf-8")))
bad = []
sw = rows("sweep-read-iops-recordsize-compression")
r = [x for x in sw if x["config"] == "zfs rs=8k off"][0]
want = {"compression": "off", "recordsize": "8k", "metric": "read_iops",
        "unit": "ops/s", "direction": "higher", "value": "37925.925926",
        "stderr": "0", "n": "2", "results": "2", "pct_of_best": "100",
        "test": "fio randread bs=4k iodepth=4 direct=1"}
bad += ["sweep %s=%r" % (k, r[k]) for k in want if r[k] != want[k]]
io = rows("iops-latency-1-read")
q16 = [x for x in io if x["iodepth"] == "16"]
if len(q16) != 1 or q16[0]["read_iops (ops/s)"] != "51234.5" or \
        q16[0]["read_clat_mean (ns)"] != "95120.722656" or \
        q16[0]["read_clat_p99 (ns)"] != "411648":
    bad.append("iodepth 16 point %r" % q16)
p99 = rows("fio-randread-bs-4k-iodepth-4-direc-read-clat-p99")
if p99[-1]["value"] != "411648" or p99[-1]["direction"] != "lower" or \
        p99[-1]["unit"] != "ns":
    bad.append("p99 last bar %r" % p99[-1])
# hostile labels in a chart's CSV: quoted, formula escaped, one line
labels = [x["config"] for x in rows("fio-randread-bs-4k-iodepth-4-direc-read-iops")]
for want in ["'=HYPERLINK(\"http://evil.example/\",\"click\")",
             'a,b "quoted"', "two lines",
             '<script>document.body.setAttribute("data-pwned","1")</script>']:
    if want not in labels:
        bad.append("label %r not in %r" % (want, labels))
# no field of any CSV would run as a formula
for p in glob.glob(out + "/charts/*.csv") + [out + "/results.csv"]:
    for row in csv.reader(open(p, newline="", encoding="utf-8")):
        for f in row:
            if f[:1] in ("=", "+", "@") or (f[:1] == "-" and
                                            not f[1:].replace(".", "").isdigit()):
                bad.append("formula %r in %s" % (f, p))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# -- results.csv and results.json: the rows of export, same filter
count_csv() { python3 -c 'import csv,sys; print(len(list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8", errors="surrogateescape")))) - 1)' "$1"; }
count_json() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1], encoding="utf-8"))))' "$1"; }
check_results() { # DIR FILTER...
    d=$1
    shift
    "$pb" export --db "$db" --csv "$@" -o "$tmp/export.csv" || fail "export $*"
    ne=$(count_csv "$tmp/export.csv")
    nr=$(count_csv "$d/results.csv")
    [ "$nr" = "$ne" ] || fail "results.csv has $nr rows, export $ne ($*)"
    python3 -m json.tool "$d/results.json" >/dev/null ||
        fail "results.json is not JSON ($*)"
    nj=$(count_json "$d/results.json")
    [ "$nj" = "$ne" ] || fail "results.json has $nj rows, export $ne ($*)"
}
check_results "$out"
# 8 x 14 randread + 8 x 13 read 16k + 14 at iodepth 16 + 5 x (14 + 13)
[ "$(count_csv "$tmp/export.csv")" = 365 ] ||
    fail "export rows: $(count_csv "$tmp/export.csv")"
python3 - "$out" "$h1" "$h2" "$h3" "$h4" >"$tmp/res" <<'EOF' || fail "results: $(cat "$tmp/res")"
import csv, json, sys
out, labels = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(out + "/results.csv", newline="", encoding="utf-8")))
js = json.load(open(out + "/results.json", encoding="utf-8"))
bad = []
have = {r["config"] for r in rows}
for l in labels:
    want = "'" + l if l[0] in "=+-@" else l
    if want not in have:
        bad.append("results.csv lacks %r" % want)
    if l not in {r["config"] for r in js}:
        bad.append("results.json lacks %r" % l)
if "bad\ufffdbyte" not in have:
    bad.append("results.csv lacks the label that is not UTF-8")
if "bad\\xffbyte" not in {r["config"] for r in js}:
    bad.append("results.json lacks the label that is not UTF-8")
r = [x for x in rows if x["source_path"].endswith("/qd16.json")
     and x["metric"] == "read_iops"]
if len(r) != 1 or r[0]["value"] != "51234.5" or r[0]["unit"] != "ops/s" \
        or r[0]["config.recordsize"] != "8192" or r[0]["test.iodepth"] != "16" \
        or r[0]["config.compression"] != "off":
    bad.append("qd16 read_iops row %r" % r)
j = [x for x in js if x["source_path"].endswith("/qd16.json")
     and x["metric"] == "read_iops"]
if len(j) != 1 or j[0]["value"] != 51234.5 or \
        j[0]["config_params"] != {"compression": "off", "recordsize": 8192} \
        or j[0]["test_params"]["iodepth"] != 16:
    bad.append("qd16 read_iops JSON %r" % j)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# -- a filtered re-run into the same folder: the old CSVs go (manifest)
report --db "$db" -o "$out" --test 'read bs=16k'
python3 "$chk" "$out" >"$tmp/chk" || fail "CSV check after re-run: $(cat "$tmp/chk")"
ls "$out"/charts/*iops-latency* >/dev/null 2>&1 && fail "stale IOPS/latency CSV kept"
check_results "$out" --test 'read bs=16k'

# -- --png: each PNG has its CSV beside it
report --db "$db" -o "$tmp/png" --png
np=0
for p in "$tmp/png"/charts/*.png; do
    np=$((np + 1))
    [ -s "${p%.png}.csv" ] || fail "no CSV beside $p"
done
[ "$np" -ge 8 ] || fail "only $np PNGs"
python3 "$chk" "$tmp/png" >"$tmp/chk" || fail "CSV check --png: $(cat "$tmp/chk")"

# -- the check can fail: one number changed in one CSV
cp -r "$out" "$tmp/tampered"
f=$(ls "$tmp/tampered"/charts/*-read-bw.csv | head -1)
sed -i '2s/,\([0-9][0-9]*\),/,\11,/' "$f"
python3 "$chk" "$tmp/tampered" >/dev/null && fail "a changed number passed the check"

# -- a paged report (230 tests on two systems, inline charts): the test
#    pages link every chart's CSV too
{
    echo '<?xml version="1.0"?>'
    echo '<PhoronixTestSuite>'
    echo '  <Generated><Title>pages</Title><TestClient>Phoronix Test Suite v10.8.4</TestClient></Generated>'
    echo '  <System><Identifier>ext4</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    echo '  <System><Identifier>=cmd|x &lt;b&gt;</Identifier><Hardware>Processor: X</Hardware><Software>OS: Debian 12</Software></System>'
    i=1
    while [ $i -le 230 ]; do
        echo "  <Result><Identifier>pts/fio-2.1.0</Identifier><Title>Flexible IO Tester</Title><Description>Type: Random Read - Block Size: 4KB - Pass: $i</Description><Scale>MB/s</Scale><Proportion>HIB</Proportion><Data><Entry><Identifier>ext4</Identifier><Value>$((100 + i)).5</Value></Entry><Entry><Identifier>=cmd|x &lt;b&gt;</Identifier><Value>$((90 + 2 * i)).25</Value></Entry></Data></Result>"
        i=$((i + 1))
    done
    echo '</PhoronixTestSuite>'
} >"$tmp/big.xml"
"$pb" ingest --db "$tmp/p.db" -q "$tmp/big.xml" 2>/dev/null || fail "ingest pages"
report --db "$tmp/p.db" -o "$tmp/pages"
[ -s "$tmp/pages/tests-003.html" ] || fail "no test pages"
python3 "$chk" "$tmp/pages" >"$tmp/chk" || fail "CSV check pages: $(head -5 "$tmp/chk")"
n=$(cat "$tmp/pages"/tests-*.html | grep -c '<figcaption class="csv">')
[ "$n" = 230 ] || fail "paged: $n CSV links on the test pages"

# -- headless chromium: each CSV link is visible and resolves
. "$src/tests/e2e/browser_check.sh"
if ! browser_find; then
    echo "no chromium: browser check skipped" >&2
elif report --db "$db" -o "$out"; then
    sed 's|</body>|<script>(function(){\
var P=[],H=[];\
document.querySelectorAll("figure").forEach(function(f){\
var a=f.querySelectorAll("figcaption.csv a");\
if(a.length!==1){P.push("figure with "+a.length+" CSV links");return;}\
a=a[0];var r=a.getBoundingClientRect(),s=getComputedStyle(a);\
if(r.width<1\|\|r.height<1\|\|s.visibility!=="visible"\|\|s.display==="none")\
P.push("hidden link "+a.getAttribute("href"));\
H.push(a.href);});\
document.querySelectorAll("p.data a").forEach(function(a){H.push(a.href);});\
var e=document.createElement("pre");e.id="csvresult";\
e.textContent=(P.length?"PROBLEMS "+P.join("; "):"OK")+"\\n"+H.join("\\n");\
document.body.appendChild(e);})();</script></body>|' \
        "$out/index.html" >"$out/csvcheck.html"
    browser_budget=5000
    run_browser --dump-dom "file://$out/csvcheck.html" >"$tmp/dom.html"
    python3 -c 'import html,re,sys
m = re.search(r"<pre id=\"csvresult\">(.*?)</pre>", open(sys.argv[1]).read(), re.S)
print(html.unescape(m.group(1)) if m else "no result")' "$tmp/dom.html" >"$tmp/links"
    head -1 "$tmp/links" | grep -qx 'OK' ||
        fail "browser: $(head -1 "$tmp/links") $(browser_log)"
    nl=0
    for u in $(sed 1d "$tmp/links"); do
        nl=$((nl + 1))
        case "$u" in
        file://*) [ -s "${u#file://}" ] || fail "link to a missing file: $u" ;;
        *) fail "link not a file:// URL: $u" ;;
        esac
    done
    nf=$(grep -c '<figure' "$out/index.html")
    [ "$nl" = $((nf + 2)) ] ||
        fail "browser saw $nl links; the page has $nf charts and 2 results files"
    grep -q '<body[^>]*data-pwned' "$tmp/dom.html" && fail "a label ran as script"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "ok"
