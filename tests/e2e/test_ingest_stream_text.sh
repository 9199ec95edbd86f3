#!/bin/sh
# e2e: fio normal text streamed (docs/performance.md, "Streaming ingest", fio
# text). Every fio text fixture and corpus file, and the terse,normal
# files fio-text reads, stored in parts of 1 and 40 results gives the
# database of the whole parse (bad ones: the same error, nothing stored),
# also a job file pasted after a run without jobs and two fio servers
# with generic job names (regress inputs);
# 440 runs appended from the fixtures (40 of each) (job names recurring in later runs:
# "NAME run K"; numjobs clones; a fio server's hostname; pasted command
# lines naming files; fio's interrupt line) the same, to the byte of
# `sqlite3 .dump`; a job cut short near its end stores nothing of it (one
# line path:line: ..., exit 1, the other file stored); and 40 MB (18,000
# runs) are ingested with peak RSS under 64 MB (not under ASan; parsed
# whole: about 140 MB).
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

# -- 440 runs: the same database in parts (8,760 results)
gen 440 "$tmp/g.txt"
stream_same "$tmp/g.txt" 1 40 16384
stream_same_dump "$tmp/g.txt" "g.txt: fio-text, 8760 results"
db="$tmp/s.db"
v() { # v JOB METRIC: value
    q "$db" "SELECT value FROM v_result WHERE job = '$1' AND metric = '$2'"
}
# fio-3.33_randrw70_4k_qd8_libaio.txt (the 7th file, runs 7, 18, ...):
# read IOPS 35350 (707 I/Os in 20 ms) in every one of its 40 runs
[ "$(v 'mix7030 run 1' read_iops)" = 35350.0 ] ||
    fail "mix7030 run 1: $(v 'mix7030 run 1' read_iops)"
[ "$(v 'mix7030 run 40' write_iops)" = 15850.0 ] ||
    fail "mix7030 run 40: $(v 'mix7030 run 40' write_iops)"
[ "$(v mix7030 read_iops)" = "" ] || fail "mix7030 without run"
[ "$(q "$db" "SELECT count(DISTINCT job) FROM v_result WHERE job LIKE 'mix7030 run %'")" = 40 ] ||
    fail "mix7030: not 40 runs"
# numjobs=2 without group_reporting: clones #0 and #1 and their aggregate
[ "$(q "$db" "SELECT count(*) FROM v_result WHERE job IN ('rw8k run 7#0', 'rw8k run 7#1', 'rw8k run 7') AND metric = 'write_iops'")" = 3 ] ||
    fail "rw8k run 7: clones"
got=$(q "$db" "SELECT key FROM fact ORDER BY rowid" | tr '\n' ' ')
[ "$got" = "fio_version hostname device flag.interrupted label_origin " ] ||
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
    stream_rss_bound "$tmp/big.txt" "$db" 65536 358366 \
        "18,000 runs ($(($(stat -c %s "$tmp/big.txt") / 1048576)) MiB)"
fi

stream_end
