#!/bin/sh
# e2e: fio normal text streamed (docs/performance.md, "Streaming ingest", fio
# text). Every fio text fixture and corpus file, and the terse,normal
# files fio-text reads, stored in parts of 1 and 40 results gives the
# database of the whole parse (bad ones: the same error, nothing stored),
# also a job file pasted after a run without jobs and two fio servers
# with generic job names (regress inputs);
# 480 runs appended from the fixtures (40 of each) (job names recurring in
# later runs: repeats, folded into one result each of their values;
# numjobs clones; a fio server's hostname; pasted command lines naming
# files; a merged group_reporting block; fio's interrupt line) the same,
# to the byte of `sqlite3 .dump`; a job cut short near its end stores
# nothing of it (one line path:line: ..., exit 1, the other file stored);
# and 40 MB (18,000 runs) are ingested with peak RSS under 64 MB (not
# under ASan; parsed whole: about 140 MB).
# usage: test_ingest_stream_text.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin python3

stream_same_each 16 "fio text" "$src"/fixtures/fio-text/*.txt \
    "$src"/fixtures/fio-text/bad/* "$src"/fixtures/fio-terse/*terse-normal* \
    ${3:+"$3"/fio-text/*}

# -- a job file pasted after a run without jobs: its options reach its run
# while the stream moves the runs (fuzz_fio_text_stream found the test's
# options lost; tests/regress/README.md)
stream_same "$src/tests/regress/fio_text_stream/jobfile-after-a-run.txt" 1 40
# -- two fio servers and generic job names: every part's labels say both
# hosts, as parsed whole (the hostname fact comes with the first part)
f="$src/tests/regress/fio_text_stream/two-servers-generic-names.txt"
stream_same "$f" 1 40
rm -f "$tmp"/s.db*
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=1 "$pb" ingest --db "$tmp/s.db" \
    --quiet "$f" >/dev/null 2>&1 || fail "two servers: not stored"
got=$(q "$tmp/s.db" "SELECT label FROM config ORDER BY id" | tr '\n' ';')
[ "$got" = "job1 (host vm, vm2, fio-3.33);job2 (host vm, vm2, fio-3.33);" ] ||
    fail "two servers: labels '$got'"

# gen RUNS OUT [CUT]: RUNS runs, the fixtures' files (sorted) in turn;
# CUT: the cpu line of the last job removed (a job cut short)
gen() {
    python3 - "$src/fixtures/fio-text" "$@" <<'PYEOF'
import glob, os, sys
d, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
texts = []
for f in sorted(glob.glob(os.path.join(d, "*.txt"))):
    t = open(f).read()
    texts.append(t if t.endswith("\n") else t + "\n")
with open(out, "w") as o:
    for i in range(runs):
        t = texts[i % len(texts)]
        if len(sys.argv) > 4 and i == runs - 1:
            t = "".join(l for l in t.splitlines(True) if "cpu  " not in l)
        o.write(t)
PYEOF
}

# -- 40 runs of each fixture: the same database in parts; the 40 runs of
# a job are repeats, one result each (238 results, however many runs)
nf=$(ls "$src"/fixtures/fio-text/*.txt | wc -l)
gen $((40 * nf)) "$tmp/g.txt"
stream_same "$tmp/g.txt" 1 40 16384
stream_same_dump "$tmp/g.txt" "g.txt: fio-text, 238 results"
db="$tmp/s.db"
v() { # v JOB METRIC: value and n
    q "$db" "SELECT value || ' ' || samples FROM v_result WHERE job = '$1'
        AND metric = '$2'"
}
# fio-3.33_randrw70_4k_qd8_libaio.txt: read IOPS 35350 (707 I/Os in 20
# ms) in every one of its 40 runs
[ "$(v mix7030 read_iops)" = "35350.0 40" ] ||
    fail "mix7030: $(v mix7030 read_iops)"
[ "$(v mix7030 write_iops)" = "15850.0 40" ] ||
    fail "mix7030: $(v mix7030 write_iops)"
[ "$(q "$db" "SELECT count(*) FROM sample s JOIN result r ON r.id =
    s.result_id JOIN job j ON j.id = r.job_id JOIN metric m ON m.id =
    r.metric_id WHERE j.name = 'mix7030' AND m.name = 'read_iops' AND
    s.value = 35350")" = 40 ] || fail "mix7030: not 40 samples"
[ "$(v 'mix7030 run 1' read_iops)" = "" ] || fail "mix7030 run 1 stored"
# numjobs=2 without group_reporting: clones #0 and #1 and their aggregate,
# each folded over the 40 runs
[ "$(q "$db" "SELECT group_concat(job || '=' || samples, ' ') FROM (SELECT
    job, samples FROM v_result WHERE job IN ('rw8k#0', 'rw8k#1', 'rw8k') AND
    metric = 'write_iops' ORDER BY job)")" = "rw8k=40 rw8k#0=40 rw8k#1=40" ] ||
    fail "rw8k: clones"
# label_origin: the file labels the runs of several job names; the first
# file's title replaces that label (and the fact's value, in its place)
got=$(q "$db" "SELECT key FROM fact WHERE key != 'file_time' ORDER BY rowid" | tr '\n' ' ')
[ "$got" = "fio_version timestamp hostname label_origin flag.merged_group device flag.interrupted " ] ||
    fail "facts: '$got'"

# -- a job cut short in the last run: nothing of the file, the other stored
gen 100 "$tmp/bad.txt" cut
small="$src/fixtures/fio-text/fio-3.33_randread_4k_qd4_libaio.txt"
db="$tmp/b.db"
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --db "$db" \
    --quiet "$small" "$tmp/bad.txt" 2>"$tmp/err" >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "cut job: exit $rc, expected 1"
got=$(grep -v "stored (" "$tmp/err")
case $got in
"poolbench: $tmp/bad.txt:"*': job "'*'" is incomplete: no "cpu" line (truncated output?)') ;;
*) fail "cut job: stderr '$got'" ;;
esac
[ "$(q "$db" "SELECT count(*) FROM source")" = 1 ] || fail "cut job: sources"

# -- peak RSS of 40 MB of runs (parsed whole: ~140 MB)
if stream_rss_ok; then
    gen 18000 "$tmp/big.txt"
    db="$tmp/c.db"
    stream_rss_bound "$tmp/big.txt" "$db" 65536 238 \
        "18,000 runs ($(($(stat -c %s "$tmp/big.txt") / 1048576)) MiB)"
fi

stream_end
