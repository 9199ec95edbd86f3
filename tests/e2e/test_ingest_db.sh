#!/bin/sh
# e2e: `poolbench ingest OTHER.db` merges another poolbench database
# (issue 15 item 4, "Gathering"). Two databases made from overlapping
# fixture sets (one with a configuration sheet, one with companion zpool
# status outputs and per-repeat samples) are merged: exact counts, PRAGMA
# integrity_check, the same tables, `list configs` and v_result as one
# database that ingested everything directly, samples remapped to the new
# result ids, a second merge changes nothing, the merged file is
# byte-identical after, an older schema is read without being upgraded,
# another program's SQLite file and a newer schema are refused (exit 3).
# usage: test_ingest_db.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }
command -v sha256sum >/dev/null || { echo "SKIP: no sha256sum" >&2; exit 77; }
q() { sqlite3 "$1" "$2"; }
# sources results configs own_configs tests facts label_params samples
counts() {
    q "$1" "SELECT (SELECT count(*) FROM source) || ' ' || (SELECT count(*)
        FROM result) || ' ' || (SELECT count(*) FROM config) || ' ' ||
        (SELECT count(*) FROM config_own) || ' ' || (SELECT count(*) FROM
        test) || ' ' || (SELECT count(*) FROM fact) || ' ' || (SELECT
        count(*) FROM label_param) || ' ' || (SELECT count(*) FROM sample)"
}
clean() {
    got=$(q "$1" "PRAGMA integrity_check; PRAGMA foreign_key_check;")
    [ "$got" = ok ] || fail "$2: integrity: $got"
    got=$(q "$1" "SELECT (SELECT count(*) FROM result WHERE source_id NOT IN
        (SELECT id FROM source) OR config_id NOT IN (SELECT id FROM config)
        OR test_id NOT IN (SELECT id FROM test) OR own_id NOT IN (SELECT id
        FROM config_own)) + (SELECT count(*) FROM sample WHERE result_id NOT
        IN (SELECT id FROM result)) + (SELECT count(*) FROM label_param
        WHERE source_id NOT IN (SELECT id FROM source)) + (SELECT count(*)
        FROM result r JOIN config_own o ON o.id = r.own_id WHERE
        o.config_id != r.config_id)")
    [ "$got" = 0 ] || fail "$2: $got dangling rows"
}
# every table but the ingest times, in key order
tables() {
    sqlite3 "$1" ".dump host config config_param config_own
        config_own_param label_param test test_param metric result fact
        sample latency_hist"
    q "$1" "SELECT id, sha256, path, format, tool_version, size FROM source
        ORDER BY id"
}

cd "$src/fixtures" || exit 1
# A: three fio files, the bonnie++ CSV of coded machine names and the
# sheet naming their pools (dimensions attached to labels host_X)
make_a() {
    "$pb" ingest -q --db "$1" --configs sheets/hosts.csv \
        fio-json/fio-3.33_three-jobs.json \
        fio-json/fio-3.33_write_64k_fsync16.json \
        sheets/coded-machines.csv 2>/dev/null || fail "ingest A into $1"
}
# B: shares three-jobs.json and coded-machines.csv with A; two more
# files, and two zpool status outputs as companions of host_2.1 and
# host_4.4_c
make_b() {
    "$pb" ingest -q --db "$1" fio-json/fio-3.33_three-jobs.json \
        fio-json/fio-3.33_randrw70_4k_json-plus.json pts-xml/fio-2systems.xml \
        sheets/coded-machines.csv 2>/dev/null || fail "ingest B into $1"
    for c in 2.1 4.4_c; do
        "$pb" ingest -q --db "$1" --label "host_$c" \
            "sheets/status/status-$c.txt" 2>/dev/null ||
            fail "companion $c into $1"
    done
}
a=$tmp/a.db b=$tmp/b.db m=$tmp/m.db d=$tmp/d.db
make_a "$a"
make_b "$b"
make_a "$d"
make_b "$d"
# per-repeat samples in B (schema v4): two per result of the randrw70
# file (seq 0 = the value, seq 1 = twice it) and one per result of the
# shared three-jobs file, which the merge skips (A has its bytes)
q "$b" "INSERT INTO sample SELECT r.id, 0, r.value FROM result r JOIN source
    s ON s.id = r.source_id WHERE s.path LIKE '%randrw70%' AND r.value IS
    NOT NULL; INSERT INTO sample SELECT r.id, 1, 2 * r.value FROM result r
    JOIN source s ON s.id = r.source_id WHERE s.path LIKE '%randrw70%' AND
    r.value IS NOT NULL; INSERT INTO sample SELECT r.id, 0, r.value FROM
    result r JOIN source s ON s.id = r.source_id WHERE s.path LIKE
    '%three-jobs%' AND r.value IS NOT NULL"
nrr=$(q "$b" "SELECT count(*) FROM result r JOIN source s ON s.id =
    r.source_id WHERE s.path LIKE '%randrw70%' AND r.value IS NOT NULL")
[ "$nrr" = 32 ] || fail "randrw70 results with values: $nrr"
# A: sheet, 2 fio files (54 + 13 results), bonnie++ (8 machines x 30);
# 8 sheet rows x 4 dimensions attached; configurations: three-jobs' one
# (its three jobs on one target), write_64k's, the 8 machines'; facts:
# three-jobs' label_origin (the file names its configuration) among them,
# each file's file_time and the fio JSON files' timestamp (issue 41 item 8)
[ "$(counts "$a")" = "4 307 10 10 5 18 32 0" ] ||
    fail "A: $(counts "$a")"
# B: 54 + 32 + 6 (PTS) + 240 + 3 + 3 results; the companions' vdev
# dimensions attached (9 of status-2.1's mirror, 11 of status-4.4_c's
# raidz2 with a log and a cache); samples: the inserted ones, and the PTS
# file's RawString values (6 results x 3 runs = 18)
[ "$(counts "$b")" = "6 338 12 12 9 69 20 $((2 * nrr + 54 + 18))" ] ||
    fail "B: $(counts "$b")"
b_sum=$(sha256sum "$b")

# --- the merge: 4 new sources, 2 already there (same SHA-256)
cp "$a" "$m"
"$pb" ingest --db "$m" "$b" >"$tmp/out" 2>"$tmp/err" ||
    fail "merge exit $?: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "poolbench: 4 stored (44 results), 2 already present, 0 rejected" ] ||
    fail "merge summary: $(cat "$tmp/err")"
[ "$(head -1 "$tmp/out")" = "merge $b: poolbench database, 6 sources" ] ||
    fail "merge first line: $(head -1 "$tmp/out")"
grep -qx "skip $b\[fio-json/fio-3.33_three-jobs.json\]: already in the database (same SHA-256)" \
    "$tmp/out" || fail "no skip line for the shared file: $(cat "$tmp/out")"
grep -qx "ok   $b\[fio-json/fio-3.33_randrw70_4k_json-plus.json\]: fio-json, 32 results" \
    "$tmp/out" || fail "no ok line for randrw70: $(cat "$tmp/out")"
[ "$(sha256sum "$b")" = "$b_sum" ] || fail "the merged database changed"
# union without duplicates: 4 + 4 sources, 307 + 32 + 6 + 3 + 3
# results, A's 10 configs + randrw-70 + the 2 PTS systems (the
# companions' results are under host_2.1 and host_4.4_c), 5 + 5 tests,
# the companions' 20 label dimensions beside the sheet's 32, facts 18 + 55 of B's four
# new sources, 2 samples per randrw70 value and the PTS file's 18
# (three-jobs' were not copied: A's copy of those bytes is kept)
exp="8 351 13 13 10 73 52 $((2 * nrr + 18))"
[ "$(counts "$m")" = "$exp" ] || fail "merged counts: $(counts "$m"), want $exp"
clean "$m" merged
# the json+ latency distributions (schema v5) came with their results
got=$(q "$m" "SELECT count(*) || ' ' || sum(h.total) FROM latency_hist h
    JOIN result r ON r.id = h.result_id JOIN source s ON s.id = r.source_id
    WHERE s.path LIKE '%randrw70%'")
[ "$got" = "$(q "$d" "SELECT count(*) || ' ' || sum(h.total) FROM
    latency_hist h JOIN result r ON r.id = h.result_id JOIN source s ON
    s.id = r.source_id WHERE s.path LIKE '%randrw70%'")" ] && [ "$got" != "0 " ] ||
    fail "latency_hist of randrw70: $got"
# samples went to the new ids of the same results
got=$(q "$m" "SELECT count(*) FROM sample x JOIN result r ON r.id =
    x.result_id JOIN source s ON s.id = r.source_id WHERE s.path LIKE
    '%randrw70%' AND x.value = CASE x.seq WHEN 0 THEN r.value ELSE 2 *
    r.value END")
[ "$got" = $((2 * nrr)) ] || fail "samples on the right results: $got"
got=$(q "$m" "SELECT r.value FROM sample x JOIN result r ON r.id =
    x.result_id JOIN metric t ON t.id = r.metric_id WHERE t.name =
    'read_iops' AND x.seq = 1")
[ "$got" = 18128.205128 ] || fail "read_iops of randrw70: $got"
# the first ingest time of a merged source is kept
[ "$(q "$m" "SELECT ingested_at FROM source WHERE path LIKE '%randrw70%'")" = \
  "$(q "$b" "SELECT ingested_at FROM source WHERE path LIKE '%randrw70%'")" ] ||
    fail "ingested_at not kept"

# --- the same as one database that ingested everything itself
for x in m d; do
    "$pb" list --db "$tmp/$x.db" configs >"$tmp/$x.list" || fail "list $x"
    "$pb" list --db "$tmp/$x.db" configs --json >"$tmp/$x.json"
    tables "$tmp/$x.db" >"$tmp/$x.tables"
    q "$tmp/$x.db" "SELECT * FROM v_result ORDER BY 1, 2, 3, 4, 5, 6, 7, 8" \
        >"$tmp/$x.vr"
done
q "$d" "DELETE FROM sample" # d has no samples; m has B's
q "$m" "DELETE FROM sample"
tables "$m" >"$tmp/m.tables"
tables "$d" >"$tmp/d.tables"
cmp -s "$tmp/m.list" "$tmp/d.list" ||
    fail "list configs differs: $(diff "$tmp/m.list" "$tmp/d.list")"
cmp -s "$tmp/m.json" "$tmp/d.json" || fail "list configs --json differs"
cmp -s "$tmp/m.vr" "$tmp/d.vr" || fail "v_result differs"
cmp -s "$tmp/m.tables" "$tmp/d.tables" ||
    fail "tables differ: $(diff "$tmp/m.tables" "$tmp/d.tables" | head -5)"
# the sheet (rank 1) wins over the companion for host_2.1's layout; the
# companion's status still attaches what the sheet does not say
grep -q '^5  *host_2.1  *33  *dedup_class=no, disks=2, disks_per_vdev=2, l2arc=no, layout=mirror, slog=no, spares=0, special=no, vdevs=1 ' "$tmp/m.list" ||
    fail "host_2.1: $(grep host_2.1 "$tmp/m.list")"

# --- merging again changes nothing
cp "$a" "$m"
"$pb" ingest -q --db "$m" "$b" 2>/dev/null || fail "merge (2)"
tables "$m" >"$tmp/m1"
"$pb" ingest --db "$m" "$b" >/dev/null 2>"$tmp/err" || fail "merge again"
[ "$(cat "$tmp/err")" = "poolbench: 0 stored (0 results), 6 already present, 0 rejected" ] ||
    fail "merge again: $(cat "$tmp/err")"
tables "$m" >"$tmp/m2"
cmp -s "$tmp/m1" "$tmp/m2" || fail "second merge changed the database"
# merging A back into the union: every source is there already
"$pb" ingest --db "$m" "$a" >/dev/null 2>"$tmp/err" || fail "merge A"
[ "$(cat "$tmp/err")" = "poolbench: 0 stored (0 results), 4 already present, 0 rejected" ] ||
    fail "merge A: $(cat "$tmp/err")"
# a directory holding a database: merged like a file found there
mkdir "$tmp/gathered"
cp "$b" "$tmp/gathered/host2.db"
cp "$a" "$tmp/e.db"
"$pb" ingest -q --db "$tmp/e.db" "$tmp/gathered" 2>"$tmp/err" ||
    fail "merge from a directory: $(cat "$tmp/err")"
[ "$(counts "$tmp/e.db")" = "$exp" ] || fail "dir merge: $(counts "$tmp/e.db")"

# --- --dump prints what a merge would store, without a database
"$pb" ingest --dump --db "$tmp/none.db" "$b" >"$tmp/dump" 2>&1 ||
    fail "dump exit"
[ ! -e "$tmp/none.db" ] || fail "--dump made a database"
[ "$(grep -c '^# ' "$tmp/dump")" = 6 ] || fail "dump: $(grep '^# ' "$tmp/dump")"

# --- an older schema (3: before the sample and latency_hist tables) is read, not upgraded
old=$tmp/old.db
"$pb" ingest -q --db "$old" fio-json/fio-3.33_randread_4k_qd4_libaio.json \
    2>/dev/null || fail "ingest old"
q "$old" "DROP TABLE series_point; DROP TABLE series; DROP TABLE sample; DROP TABLE latency_hist;
    DROP VIEW v_result; ALTER TABLE result ADD COLUMN job TEXT; ALTER TABLE result ADD COLUMN null_reason TEXT;
    UPDATE result SET job = (SELECT name FROM job WHERE id = job_id),
        null_reason = (SELECT text FROM reason WHERE id = reason_id);
    ALTER TABLE result DROP COLUMN job_id; ALTER TABLE result DROP COLUMN reason_id; DROP TABLE job; DROP TABLE reason;
    PRAGMA user_version = 3; PRAGMA journal_mode = DELETE" >/dev/null
old_sum=$(sha256sum "$old")
cp "$a" "$m"
"$pb" ingest -q --db "$m" "$old" 2>"$tmp/err" || fail "merge v3: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "poolbench: 1 stored (14 results), 0 already present, 0 rejected" ] ||
    fail "merge v3: $(cat "$tmp/err")"
[ "$(sha256sum "$old")" = "$old_sum" ] || fail "the v3 database changed"
[ "$(q "$old" 'PRAGMA user_version')" = 3 ] || fail "v3 upgraded"
clean "$m" "after v3"

# --- refused: another program's SQLite file, a newer schema (exit 3)
cp "$a" "$m"
before=$(counts "$m")
for kind in other appid newer; do
    f=$tmp/$kind.db
    case $kind in
    other) q "$f" "CREATE TABLE t(x); INSERT INTO t VALUES (1)" ;;
    appid) cp "$b" "$f"; q "$f" "PRAGMA application_id = 1234" ;;
    newer) cp "$b" "$f"; q "$f" "PRAGMA user_version = 99" ;;
    esac
    sum=$(sha256sum "$f")
    "$pb" ingest -q --db "$m" "$f" \
        fio-json/fio-3.33_randread_4k_qd4_libaio.json >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 3 ] || fail "$kind: exit $rc, want 3"
    case $kind in
    other) want="poolbench: $f: not a poolbench database (no poolbench tables, schema version 0); not merged" ;;
    appid) want="poolbench: $f: not a poolbench database (it belongs to another program: application_id 0x000004d2); not merged" ;;
    newer) want="poolbench: $f: database schema version 99 is newer than this poolbench (8); not merged: upgrade poolbench" ;;
    esac
    [ "$(head -1 "$tmp/err")" = "$want" ] || fail "$kind: $(cat "$tmp/err")"
    [ "$(sha256sum "$f")" = "$sum" ] || fail "$kind: the file changed"
    # the other input beside it is still stored
    q "$m" "SELECT count(*) FROM source WHERE path LIKE '%qd4_libaio%'" |
        grep -qx 1 || fail "$kind: the fio file beside it was not stored"
    cp "$a" "$m"
done
[ "$(counts "$m")" = "$before" ] || fail "refusals changed the database"
# --skip-unknown passes over another program's SQLite file (exit 0)
"$pb" ingest --db "$m" --skip-unknown "$tmp/other.db" >"$tmp/out" 2>"$tmp/err" ||
    fail "--skip-unknown other.db: exit $?"
[ "$(cat "$tmp/out")" = "skip $tmp/other.db: SQLite file of another program" ] ||
    fail "--skip-unknown: $(cat "$tmp/out")"
[ "$(cat "$tmp/err")" = "poolbench: 0 stored (0 results), 0 already present, 0 rejected, 1 of no supported format skipped" ] ||
    fail "--skip-unknown: $(cat "$tmp/err")"

# --- the output folder of `poolbench run` from another machine. Made
# here by hand in the layout run/run.c writes (no ZFS needed): plan.ini
# (the plan as run), commands.log, manifest.tsv, raw/cNNN.fio.json and
# raw/cNNN.zfs.txt, from repo fixtures
rd=$tmp/run-quick
mkdir -p "$rd/raw"
cp "$src/examples/quick.ini" "$rd/plan.ini"
printf '# cell 1/8: quick recordsize=8k compression=off | fio randread bs=4k iodepth=1\nzfs create -o recordsize=8k -o compression=off pbquick/bench\n  # exit 0, 0.41 s\n' \
    >"$rd/commands.log"
printf 'run\t20261201-101500-4242\tpbquick\n' >"$rd/manifest.tsv"
cp fio-json/fio-3.33_randread_4k_qd4_libaio.json "$rd/raw/c001.fio.json"
cp zfs/zfs-fuse_zfs-get-H_lzjb-16k.txt "$rd/raw/c001.zfs.txt"
# without its database: refused (exit 1) with the reason, nothing stored
"$pb" ingest --db "$tmp/r.db" "$rd" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "run folder without db: exit $rc"
[ "$(head -1 "$tmp/err")" = "poolbench: $rd: a \`poolbench run\` output folder without its database: its raw files lack the run's dimensions (plan, ashift, folded repeats); ingest the run's database, or name its raw/ folder to store them without" ] ||
    fail "run folder without db: $(cat "$tmp/err")"
[ "$(q "$tmp/r.db" 'SELECT count(*) FROM source')" = 0 ] ||
    fail "run folder without db stored something"
# with the run's database in it (here: the cell stored with its plan
# dimensions as --set): the database is merged, the raw files, whose
# bytes it holds already, are not read on their own
"$pb" ingest -q --db "$rd/poolbench.db" --label 'quick recordsize=8k compression=off' \
    --set recordsize=8k --set compression=off "$rd/raw/c001.fio.json" \
    2>/dev/null || fail "run db"
"$pb" list --db "$rd/poolbench.db" configs >"$tmp/run.list"
"$pb" ingest --db "$tmp/r.db" "$rd" >"$tmp/out" 2>"$tmp/err" ||
    fail "run folder with db: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "poolbench: 1 stored (14 results), 0 already present, 0 rejected" ] ||
    fail "run folder with db: $(cat "$tmp/err")"
"$pb" list --db "$tmp/r.db" configs >"$tmp/r.list"
cmp -s "$tmp/run.list" "$tmp/r.list" ||
    fail "run folder: configs differ: $(diff "$tmp/run.list" "$tmp/r.list")"
[ "$(q "$tmp/r.db" "SELECT group_concat(key || '=' || value, ' ') FROM
    config_param")" = "compression=off recordsize=8192" ] ||
    fail "run folder dims: $(q "$tmp/r.db" 'SELECT * FROM config_param')"
# ... and the raw files named by hand are plain files, as before
"$pb" ingest -q --db "$tmp/raw.db" "$rd/raw" 2>/dev/null || fail "raw/"
[ "$(q "$tmp/raw.db" 'SELECT count(*) FROM source')" = 2 ] ||
    fail "raw/: $(q "$tmp/raw.db" 'SELECT path FROM source')"

# --- broken files with the SQLite header: exit 3, one line, nothing
# stored, no temporary copy left behind
mkdir "$tmp/tmpd"
head -c 5000 "$b" >"$tmp/trunc.db"
{ printf 'SQLite format 3\000'; head -c 3000 "$src/README.md"; } >"$tmp/garbage.db"
for f in trunc garbage; do
    rm -f "$tmp/h.db"
    TMPDIR=$tmp/tmpd "$pb" ingest -q --db "$tmp/h.db" "$tmp/$f.db" \
        2>"$tmp/err"
    rc=$?
    [ $rc = 3 ] || fail "$f: exit $rc"
    grep -q "^poolbench: $tmp/$f.db: cannot read the database: " "$tmp/err" ||
        fail "$f: $(cat "$tmp/err")"
    [ "$(q "$tmp/h.db" 'SELECT count(*) FROM source')" = 0 ] ||
        fail "$f stored something"
done
cp "$a" "$tmp/h.db"
TMPDIR=$tmp/tmpd "$pb" ingest -q --db "$tmp/h.db" "$b" 2>/dev/null ||
    fail "merge with TMPDIR"
[ -z "$(ls "$tmp/tmpd")" ] || fail "temporary copies left: $(ls "$tmp/tmpd")"

# --- hostile databases: poolbench's id and version over a schema of its
# own without NOT NULL (NULL metric names, keys, sha256), and HTML in
# labels: refused by name or stored as text, never a crash
mkhostile() {
    rm -f "$1"
    q "$1" "CREATE TABLE source(id INTEGER PRIMARY KEY, sha256, path, format,
        tool_version, size, ingested_at); CREATE TABLE host(id INTEGER
        PRIMARY KEY, name); CREATE TABLE config(id INTEGER PRIMARY KEY,
        label, signature); CREATE TABLE config_param(config_id, key, value,
        origin); CREATE TABLE config_own(id INTEGER PRIMARY KEY, label,
        signature, config_id); CREATE TABLE config_own_param(own_id, key,
        value, origin); CREATE TABLE label_param(label, key, value, origin,
        source_id); CREATE TABLE model_generation(n); CREATE TABLE test(id
        INTEGER PRIMARY KEY, tool, name, signature); CREATE TABLE
        test_param(test_id, key, value); CREATE TABLE metric(id INTEGER
        PRIMARY KEY, name, unit, direction); CREATE TABLE result(id INTEGER
        PRIMARY KEY, source_id, host_id, config_id, test_id, job, metric_id,
        value, null_reason, stderr, samples, own_id); CREATE TABLE
        sample(result_id, seq, value); CREATE TABLE fact(source_id, host,
        key, value); PRAGMA user_version = 4; PRAGMA application_id =
        1346520130;
        INSERT INTO source VALUES (1, 'aa', 'x.json', 'fio-json', NULL, 1,
        '2026-01-01T00:00:00Z');
        INSERT INTO config_own VALUES (1, '<script>alert(1)</script>', '', 1);
        INSERT INTO config_own_param VALUES (1, 'recordsize', NULL, NULL);
        INSERT INTO test VALUES (1, NULL, 'fio <b>read</b>', '');
        INSERT INTO metric VALUES (1, 'read_iops', NULL, 'higher');
        INSERT INTO result VALUES (1, 1, NULL, 1, 1, NULL, 1, 5, NULL, NULL,
        NULL, 1); $2"
}
mkhostile "$tmp/h1.db" ""
rm -f "$tmp/h.db"
"$pb" ingest -q --db "$tmp/h.db" "$tmp/h1.db" 2>"$tmp/err" ||
    fail "hostile (stored as text): $(cat "$tmp/err")"
[ "$(q "$tmp/h.db" "SELECT config || '|' || test || '|' || value FROM v_result")" = \
  "<script>alert(1)</script>|fio <b>read</b>|5.0" ] ||
    fail "hostile text: $(q "$tmp/h.db" 'SELECT * FROM v_result')"
"$pb" report --db "$tmp/h.db" -o "$tmp/hrep" >/dev/null 2>&1 ||
    fail "report of the hostile merge"
# pages and charts escape it (results.csv/.json are data, written as is)
! grep -rq --include='*.html' --include='*.svg' '<script>alert' "$tmp/hrep" ||
    fail "label unescaped in the report"
grep -rq --include='*.html' '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/hrep" ||
    fail "label not in the report"
for bad in "UPDATE metric SET name = NULL|metric.name" \
    "UPDATE source SET sha256 = NULL|source.sha256" \
    "UPDATE config_own_param SET key = NULL|a configuration parameter's key" \
    "INSERT INTO fact VALUES (1, NULL, NULL, 'v')|fact.key" \
    "UPDATE test SET name = NULL|test.name" \
    "UPDATE source SET sha256 = printf('%.65d', 1)|source.sha256 is not a SHA-256"; do
    mkhostile "$tmp/h2.db" "${bad%%|*}"
    rm -f "$tmp/h.db"
    "$pb" ingest -q --db "$tmp/h.db" "$tmp/h2.db" 2>"$tmp/err"
    rc=$?
    [ $rc = 3 ] || fail "hostile ${bad##*|}: exit $rc"
    want="${bad##*|} is NULL"
    case $want in *SHA-256*) want=${bad##*|} ;; esac
    [ "$(head -1 "$tmp/err")" = "poolbench: $tmp/h2.db: broken database: $want" ] ||
        fail "hostile ${bad##*|}: $(cat "$tmp/err")"
    [ "$(q "$tmp/h.db" 'SELECT count(*) FROM source')" = 0 ] ||
        fail "hostile ${bad##*|}: stored"
done

# --- time series of fio logs (schema v6) come along with their results:
# 6 series, 418 points, and export --series byte-identical
"$pb" ingest -q --db "$tmp/s1.db" fio-log/avg0.json fio-log/avg0_bw.1.log \
    fio-log/avg0_clat_hist.1.log fio-log/avg500.json \
    fio-log/avg500_clat.2.log 2>/dev/null || fail "ingest logs"
"$pb" ingest -q --db "$tmp/s2.db" "$tmp/s1.db" 2>/dev/null || fail "merge logs"
for db in s1 s2; do
    got=$(q "$tmp/$db.db" "SELECT (SELECT count(*) FROM series) || ' ' ||
        (SELECT count(*) FROM series_point)")
    [ "$got" = "6 418" ] || fail "$db: series and points: $got"
done
[ "$("$pb" export --db "$tmp/s1.db" --csv --series | sha256sum)" = \
  "$("$pb" export --db "$tmp/s2.db" --csv --series | sha256sum)" ] ||
    fail "merged time series differ"

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "ok"
