# tests/e2e/stream_compare.sh - sourced (". $src/tests/e2e/stream_compare.sh")
# by the streamed-ingest tests (test_ingest_stream.sh for bonnie++,
# test_ingest_stream_fio.sh for fio JSON, test_ingest_stream_terse.sh for
# fio terse, test_ingest_stream_text.sh for fio text,
# test_ingest_stream_table.sh for tables, test_ingest_stream_pts.sh for
# PTS XML, test_ingest_stream_zfs.sh for zfs output); not a test itself (CMake registers test_*.sh only).
# docs/performance.md, "Streaming ingest".
#
# stream_same FILE PARTS...
#     ingests FILE parsed whole (never streamed: $STREAM_NEVER) and, for each
#     PARTS, streamed in parts of that many results (POOLBENCH_STREAM_MIN=0
#     POOLBENCH_STREAM_PART=PARTS), each into a fresh database, and calls
#     fail (the caller's) when the exit code, the stderr or the database
#     (STREAM_Q below: every result with its test id, facts, own configs
#     and their dimensions, test parameters by test id, latency
#     histograms) differ from the whole parse's.
#
# stream_same_each MIN WHAT FILE...
#     stream_same FILE 1 40 for each regular FILE that is no .err,
#     .expected or README.md, and fail unless at least MIN files of the
#     source tree ($src) were compared (WHAT names them in the message);
#     files from elsewhere (the shared corpus) are counted apart, and
#     a note says when there were none (a clone without ../shared).
#
# stream_option_reaches FILE METRIC VALUES WHAT
#     an ingest option in $STREAM_ARGS (WHAT, e.g. "--columns") reaches
#     the streamed parse: stream_same FILE 1 40, then FILE streamed in
#     parts of 1 gives METRIC the VALUES (in result order, blank-separated).
#
# stream_dump DB
#     the whole database as text (sqlite3 .dump), the ingest time left out.
#
# stream_rss_bound FILE DB KB RESULTS WHAT
#     stream_rss FILE DB, says "WHAT: peak RSS N KB", and calls fail
#     unless the peak is under KB and DB holds RESULTS results.
#
# stream_same_dump FILE SAYS
#     ingests FILE whole (never streamed) into $tmp/w.db and in parts of 40 results into
#     $tmp/s.db, and calls fail unless the streamed ingest says SAYS
#     (e.g. "g.txt: fio-terse, 79026 results") and both databases dump
#     the same (stream_dump).
#
# stream_rss_ok
#     true when peak RSS can be measured (not a sanitizer build, and
#     /usr/bin/time is there); else says "skip: ..." and is false.
#
# stream_rss FILE DB
#     ingests FILE into DB and sets rss to its peak RSS in KB (calls fail
#     when the ingest fails).
#
# stream_begin [python3]
#     what every streamed-ingest test starts with: $tmp (a scratch folder,
#     removed on exit), fail MESSAGE (counts in $fails), q DB SQL
#     (sqlite3); skips (exit 77) without sqlite3, or python3 when named.
#
# stream_end
#     exit 1 when anything failed, else says "ok".
#
# Needs from the caller: $pb (poolbench). Optional: $STREAM_ARGS, ingest
# options given both ways (e.g. "--format fio-terse").

stream_begin() {
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$tmp'" EXIT
    fails=0
    for _tool in sqlite3 "$@"; do
        command -v "$_tool" >/dev/null || {
            echo "skip: no $_tool"
            exit 77
        }
    done
}

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

q() { sqlite3 "$1" "$2"; }

stream_end() {
    if [ "$fails" -ne 0 ]; then
        echo "$fails failure(s)" >&2
        exit 1
    fi
    echo "ok"
}

# a threshold past the 512 MiB input limit: the "whole" ingest of a
# comparison is never streamed, whatever the file's size
STREAM_NEVER=1073741824

STREAM_Q="SELECT s.path, s.format, s.tool_version, s.sha256, s.size, c.label,
          r.test_id, t.name, m.name, r.value,
          (SELECT text FROM reason WHERE id = r.reason_id), r.stderr,
          r.samples, h.name, (SELECT name FROM job WHERE id = r.job_id),
          (SELECT group_concat(value, ':') FROM sample
           WHERE result_id = r.id ORDER BY seq)
   FROM result r JOIN config c ON c.id = r.config_id
   JOIN test t ON t.id = r.test_id JOIN metric m ON m.id = r.metric_id
   LEFT JOIN host h ON h.id = r.host_id JOIN source s ON s.id = r.source_id
   ORDER BY r.id;
   SELECT source_id, host, key, value FROM fact ORDER BY rowid;
   SELECT label, signature FROM config_own ORDER BY id;
   SELECT own_id, key, value, origin FROM config_own_param
   ORDER BY own_id, key;
   SELECT t.id, t.tool, t.name, p.key, p.value FROM test t
   LEFT JOIN test_param p ON p.test_id = t.id ORDER BY t.id, p.key;
   SELECT result_id, kind, total, nbins, hex(bins) FROM latency_hist
   ORDER BY result_id;"

stream_same() {
    _f=$1
    shift
    rm -f "$tmp"/w.db* "$tmp"/w.err
    # shellcheck disable=SC2086
    POOLBENCH_STREAM_MIN=$STREAM_NEVER \
        "$pb" ingest ${STREAM_ARGS:-} --db "$tmp/w.db" --quiet "$_f" \
        >/dev/null 2>"$tmp/w.err"
    _a=$?
    q "$tmp/w.db" "$STREAM_Q" >"$tmp/w.txt" 2>&1
    for _part in "$@"; do
        rm -f "$tmp"/s.db*
        # shellcheck disable=SC2086
        POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=$_part \
            "$pb" ingest ${STREAM_ARGS:-} --db "$tmp/s.db" --quiet "$_f" \
            >/dev/null \
            2>"$tmp/s.err"
        _b=$?
        [ $_a -eq $_b ] || fail "$_f part $_part: exit $_b, whole $_a"
        cmp -s "$tmp/w.err" "$tmp/s.err" ||
            fail "$_f part $_part: stderr '$(cat "$tmp/s.err")'"
        q "$tmp/s.db" "$STREAM_Q" >"$tmp/s.txt" 2>&1
        ! grep -q '^Error' "$tmp/s.txt" ||
            fail "query: $(cat "$tmp/s.txt")"
        cmp -s "$tmp/w.txt" "$tmp/s.txt" ||
            fail "$_f part $_part: database differs from the whole parse: $(diff "$tmp/w.txt" "$tmp/s.txt" | head -5)"
    done
    rm -f "$tmp"/w.db* "$tmp"/s.db*
}

stream_same_each() {
    _each_min=$1 _each_what=$2
    shift 2
    _each_n=0 _each_c=0
    for _each_f in "$@"; do
        case $_each_f in *.err | *.expected | */README.md) continue ;; esac
        [ -f "$_each_f" ] || continue
        stream_same "$_each_f" 1 40
        case $_each_f in
        "$src"/*) _each_n=$((_each_n + 1)) ;;
        *) _each_c=$((_each_c + 1)) ;;
        esac
    done
    [ $_each_n -ge "$_each_min" ] ||
        fail "only $_each_n $_each_what fixture files compared"
    if [ $_each_c -eq 0 ]; then
        echo "note: no corpus $_each_what files (../shared/corpus absent): only the $_each_n fixtures compared"
    fi
}

stream_option_reaches() {
    stream_same "$1" 1 40
    rm -f "$tmp"/opt.db*
    # shellcheck disable=SC2086
    POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=1 "$pb" ingest $STREAM_ARGS \
        --db "$tmp/opt.db" --quiet "$1" || fail "$4 streamed"
    [ "$(q "$tmp/opt.db" "SELECT group_concat(value, ' ') FROM v_result
        WHERE metric = '$2'")" = "$3" ] ||
        fail "$4 streamed: $(q "$tmp/opt.db" "SELECT * FROM v_result")"
}

stream_dump() {
    sqlite3 "$1" .dump |
        sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z\{0,1\}/TIME/g'
}

stream_rss_ok() {
    if ldd "$pb" 2>/dev/null | grep -q 'libasan' ||
        [ -n "${ASAN_OPTIONS:-}${PB_ASAN:-}" ] || [ ! -x /usr/bin/time ]; then
        echo "skip: RSS check (sanitizer build or no /usr/bin/time)"
        return 1
    fi
    return 0
}

stream_rss() {
    /usr/bin/time -f '%M' -o "$tmp/rss" "$pb" ingest --db "$2" --quiet \
        "$1" >/dev/null 2>"$tmp/rss.err" ||
        fail "$1: exit $?: $(cat "$tmp/rss.err")"
    rss=$(tail -1 "$tmp/rss")
}

stream_rss_bound() {
    stream_rss "$1" "$2"
    echo "$5: peak RSS $rss KB"
    [ "$rss" -lt "$3" ] || fail "$5: peak RSS $rss KB, bound $3 KB"
    _got=$(q "$2" "SELECT count(*) FROM result")
    [ "$_got" = "$4" ] || fail "$5: $_got results, not $4"
}

stream_same_dump() {
    rm -f "$tmp"/w.db* "$tmp"/s.db*
    # shellcheck disable=SC2086
    POOLBENCH_STREAM_MIN=$STREAM_NEVER "$pb" ingest ${STREAM_ARGS:-} \
        --db "$tmp/w.db" --quiet "$1" >/dev/null 2>&1 || fail "$1: whole"
    # shellcheck disable=SC2086
    POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest \
        ${STREAM_ARGS:-} --db "$tmp/s.db" "$1" >"$tmp/out" 2>&1 ||
        fail "$1: $(cat "$tmp/out")"
    grep -q "$2" "$tmp/out" || fail "$1: $(cat "$tmp/out")"
    stream_dump "$tmp/w.db" >"$tmp/w.sql"
    stream_dump "$tmp/s.db" >"$tmp/s.sql"
    cmp -s "$tmp/w.sql" "$tmp/s.sql" ||
        fail "$1: .dump differs: $(diff "$tmp/w.sql" "$tmp/s.sql" | head -4)"
}
