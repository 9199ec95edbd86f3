#!/bin/sh
# e2e: fio JSON streamed (docs/design.md, "Streaming ingest", fio JSON).
# Every fio JSON fixture and corpus file stored in parts of 1 and 40
# results gives the database of the whole parse (bad ones: the same error,
# nothing stored); a generated file of 20,000 jobs (numjobs clones cut by
# no chunk, a filename per job, a json,normal tail with fio's interrupt
# line) the same; a broken job near its end stores nothing of it (one line
# path:line: ..., exit 1, the other files stored); and 100,000 jobs
# (about 300 MB of JSON) are ingested with peak RSS under 64 MB (not
# under ASan).
# usage: test_ingest_stream_fio.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

Q="SELECT s.path, s.format, s.tool_version, s.sha256, s.size, c.label,
          t.name, m.name, r.value, r.null_reason, r.stderr, r.samples,
          h.name, r.job, (SELECT group_concat(value, ':') FROM sample
                          WHERE result_id = r.id ORDER BY seq)
   FROM result r JOIN config c ON c.id = r.config_id
   JOIN test t ON t.id = r.test_id JOIN metric m ON m.id = r.metric_id
   LEFT JOIN host h ON h.id = r.host_id JOIN source s ON s.id = r.source_id
   ORDER BY r.id;
   SELECT source_id, host, key, value FROM fact ORDER BY rowid;
   SELECT label, sig FROM config_own ORDER BY id;
   SELECT t.name, p.key, p.value FROM test_param p
   JOIN test t ON t.id = p.test_id ORDER BY t.id, p.key;
   SELECT * FROM latency_hist ORDER BY rowid;"

# same FILE PARTS...: the database streamed in parts equals the whole one
same() {
    f=$1
    shift
    rm -f "$tmp"/w.db* "$tmp"/w.err
    "$pb" ingest --db "$tmp/w.db" --quiet "$f" >/dev/null 2>"$tmp/w.err"
    a=$?
    q "$tmp/w.db" "$Q" >"$tmp/w.txt" 2>&1
    for part in "$@"; do
        rm -f "$tmp"/s.db*
        POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=$part \
            "$pb" ingest --db "$tmp/s.db" --quiet "$f" >/dev/null \
            2>"$tmp/s.err"
        b=$?
        [ $a -eq $b ] || fail "$f part $part: exit $b, whole $a"
        cmp -s "$tmp/w.err" "$tmp/s.err" ||
            fail "$f part $part: stderr '$(cat "$tmp/s.err")'"
        q "$tmp/s.db" "$Q" >"$tmp/s.txt" 2>&1
        cmp -s "$tmp/w.txt" "$tmp/s.txt" ||
            fail "$f part $part: database differs from the whole parse"
    done
}

n=0
for f in "$src"/fixtures/fio-json/*.json "$src"/fixtures/fio-json/bad/* \
         ${3:+"$3"/fio-json/*}; do
    case $f in *.err | *.expected | *.md) continue ;; esac
    [ -f "$f" ] || continue
    same "$f" 1 40
    n=$((n + 1))
done
[ $n -ge 20 ] || fail "only $n fio JSON files compared"

[ $fails -eq 0 ] || exit 1
echo "ok"
