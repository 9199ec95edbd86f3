#!/bin/sh
# e2e (issue 16 item 5): a schema-6 database made by the poolbench of main
# before schema 7 (fixtures/db/schema-v6.sql, its .dump) is upgraded when
# this binary opens it: v_result gives the same rows, `export` and
# `report` print what a fresh database of the same files gives; a database
# of long job names (bench/gen_scale.py's) is less than 60% of its v6 size
# once upgraded (compacted by the upgrade); a database no one may write is
# refused, unchanged.
# usage: test_db_schema_v7.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
size() { # bytes of the file and its -wal
    n=$(stat -c %s "$1")
    [ -f "$1-wal" ] && n=$((n + $(stat -c %s "$1-wal")))
    echo "$n"
}
view() { sqlite3 "$1" "SELECT * FROM v_result ORDER BY source_path, config, test, metric, job, host, value"; }

old="$tmp/v6.db"
sqlite3 "$old" <"$src/fixtures/db/schema-v6.sql" || fail "loading the v6 dump"
[ "$(sqlite3 "$old" "PRAGMA user_version")" = 6 ] || fail "the fixture is not schema 6"
n6=$(sqlite3 "$old" "SELECT count(*) FROM result")
[ "$n6" = 352 ] || fail "v6: $n6 results, want 352"
view "$old" >"$tmp/view6"
cp "$old" "$tmp/ro.db"
size6=$(size "$old")

# the same files, the same way, into a new database
fresh="$tmp/fresh.db"
(cd "$src" &&
    "$pb" ingest -q --db "$fresh" fixtures/fio-json/fio-3.33_three-jobs.json \
        fixtures/fio-json/fio-3.33_client-server_three-servers.json \
        fixtures/fio-jsonplus/fio-3.33_randrw-nj1_json-plus.json \
        fixtures/bonnie-csv/bonnie-2.00a_x3-repeats.csv \
        fixtures/bonnie-csv/bonnie-1.03-and-1.97_hand-written_crlf.csv \
        fixtures/fio-log/avg0.json fixtures/fio-log/avg0_bw.1.log \
        fixtures/fio-log/avg0_clat_hist.1.log &&
    "$pb" ingest -q --db "$fresh" --label "zfs recordsize=16k" \
        fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json) ||
    fail "fresh ingest: exit $?"

# a reader opening the v6 file upgrades it (once, in one transaction)
"$pb" export --db "$old" --csv >"$tmp/old.csv" 2>"$tmp/err" || fail "export v6: exit $?: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "export v6 said: $(cat "$tmp/err")"
[ "$(sqlite3 "$old" "PRAGMA user_version")" = 8 ] || fail "not upgraded to 8"
"$pb" export --db "$fresh" --csv >"$tmp/fresh.csv" || fail "export fresh: exit $?"
[ "$(wc -l <"$tmp/old.csv")" -eq $((n6 + 1)) ] || fail "export: $(wc -l <"$tmp/old.csv") lines"
cmp -s "$tmp/old.csv" "$tmp/fresh.csv" || fail "export --csv differs: $(diff "$tmp/old.csv" "$tmp/fresh.csv" | head -5)"
for how in --json "--csv --samples" "--csv --series" "--csv --wide"; do
    # shellcheck disable=SC2086
    "$pb" export --db "$old" $how >"$tmp/old.x" && "$pb" export --db "$fresh" $how >"$tmp/fresh.x" &&
        cmp -s "$tmp/old.x" "$tmp/fresh.x" || fail "export $how differs: $(diff "$tmp/old.x" "$tmp/fresh.x" | head -5)"
    [ "$(wc -l <"$tmp/old.x")" -gt 2 ] || fail "export $how: $(wc -l <"$tmp/old.x") lines"
done
view "$old" >"$tmp/view7"
cmp -s "$tmp/view6" "$tmp/view7" || fail "v_result changed: $(diff "$tmp/view6" "$tmp/view7" | head -5)"
# job names once each, by id; nothing left of the old column
[ "$(sqlite3 "$old" "SELECT count(*) FROM job")" = "$(sqlite3 "$old" "SELECT count(DISTINCT job) FROM v_result")" ] ||
    fail "job table: $(sqlite3 "$old" "SELECT count(*) FROM job") names"
[ "$(sqlite3 "$old" "SELECT count(*) FROM pragma_table_info('result') WHERE name = 'job'")" = 0 ] ||
    fail "result.job still there"
[ "$(sqlite3 "$old" "PRAGMA integrity_check")" = ok ] || fail "integrity_check"
[ -z "$(sqlite3 "$old" "PRAGMA foreign_key_check")" ] || fail "foreign_key_check"
# the same report, page for page (the dates of ingest aside: the dump's
# are from when it was made). Dimensions the label rules read have had
# the origin "label: ..." since issue 42; the v6 database stored them
# with the parser's, and cannot tell them apart: the fresh one's are
# cleared so that both reports show the same
sqlite3 "$fresh" "UPDATE config_param SET origin = NULL WHERE origin LIKE 'label: %';
                  UPDATE config_own_param SET origin = NULL WHERE origin LIKE 'label: %'" ||
    fail "clearing label origins"
"$pb" report -q --db "$old" -o "$tmp/rep-old" >/dev/null 2>&1 || fail "report v6: exit $?"
"$pb" report -q --db "$fresh" -o "$tmp/rep-fresh" >/dev/null 2>&1 || fail "report fresh: exit $?"
nd=$(diff -r "$tmp/rep-old" "$tmp/rep-fresh" | grep '^[<>]' | grep -cv '20[0-9][0-9]-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]')
[ "$nd" = 0 ] || fail "report differs: $(diff -r "$tmp/rep-old" "$tmp/rep-fresh" | head -8)"
[ "$(ls "$tmp/rep-old" | wc -l)" -gt 3 ] || fail "report: $(ls "$tmp/rep-old")"
# it takes new files, naming known jobs by their ids
"$pb" ingest -q --db "$old" --label again "$src/fixtures/fio-json/fio-3.33_three-jobs.json" ||
    fail "ingest after upgrade: exit $?"
[ "$(sqlite3 "$old" "SELECT count(*) FROM job")" = "$(sqlite3 "$fresh" "SELECT count(*) FROM job")" ] ||
    fail "known job names stored again"
# smaller: nightly runs whose fio job names are long labels (the shape
# of bench/gen_scale.py, 150 files), stored by this binary, taken back to
# the v6 row (the job name in every row, as in the fixture) and compacted,
# then upgraded
if command -v python3 >/dev/null; then
    python3 "$src/bench/gen_scale.py" fio-db --seed "$src/fixtures/fio-json/fio-3.33_three-jobs.json" \
        --out "$tmp/scale" --results 20000 --tests 8 >/dev/null || fail "gen_scale"
    big="$tmp/big.db"
    "$pb" ingest -q --db "$big" "$tmp/scale" || fail "ingest scale: exit $?"
    nb=$(sqlite3 "$big" "SELECT count(*) FROM result")
    sqlite3 "$big" "SELECT * FROM v_result ORDER BY source_path, test, metric, job" | md5sum >"$tmp/big.view"
    sqlite3 "$big" "DROP VIEW v_result;
        CREATE TABLE r6 (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
            host_id INTEGER REFERENCES host(id), config_id INTEGER NOT NULL REFERENCES config(id),
            test_id INTEGER NOT NULL REFERENCES test(id), job TEXT, metric_id INTEGER NOT NULL REFERENCES metric(id),
            value REAL, null_reason TEXT, stderr REAL, samples INTEGER, own_id INTEGER REFERENCES config_own(id));
        INSERT INTO r6 SELECT r.id, r.source_id, r.host_id, r.config_id, r.test_id, j.name, r.metric_id, r.value,
            y.text, r.stderr, r.samples, r.own_id FROM result r LEFT JOIN job j ON j.id = r.job_id
            LEFT JOIN reason y ON y.id = r.reason_id;
        DROP TABLE result; DROP TABLE job; DROP TABLE reason; ALTER TABLE r6 RENAME TO result;
        CREATE INDEX result_by_source ON result(source_id);
        CREATE VIEW v_result AS SELECT s.path AS source_path, s.format AS format, h.name AS host, c.label AS config,
            t.name AS test, t.tool AS tool, r.job AS job, m.name AS metric, r.value AS value, m.unit AS unit,
            m.direction AS direction, r.stderr AS stderr, r.samples AS samples FROM result r
            JOIN source s ON s.id = r.source_id LEFT JOIN host h ON h.id = r.host_id JOIN config c ON c.id = r.config_id
            JOIN test t ON t.id = r.test_id JOIN metric m ON m.id = r.metric_id;
        ALTER TABLE series_point DROP COLUMN p999;
        PRAGMA user_version = 6; PRAGMA journal_mode = DELETE; VACUUM;" >/dev/null || fail "to v6"
    s6=$(size "$big")
    # the upgrade compacts the file itself (VACUUM after the rebuild)
    "$pb" list --db "$big" configs >/dev/null 2>"$tmp/err" || fail "list big: exit $?"
    [ ! -s "$tmp/err" ] || fail "upgrade of $nb results said: $(cat "$tmp/err")"
    s7=$(size "$big")
    [ "$(sqlite3 "$big" "PRAGMA freelist_count")" = 0 ] || fail "big: free pages left"
    [ "$(sqlite3 "$big" "PRAGMA user_version")" = 8 ] || fail "big: not upgraded"
    sqlite3 "$big" "SELECT * FROM v_result ORDER BY source_path, test, metric, job" | md5sum | cmp -s - "$tmp/big.view" ||
        fail "big: v_result changed"
    # 116 -> ~47 bytes a result measured at 10^6 (docs/performance.md)
    [ "$s7" -lt $((s6 * 6 / 10)) ] || fail "not smaller: $nb results, v6 $s6 bytes, v7 $s7"
    echo "$nb results: v6 $s6 bytes ($((s6 / nb)) a result), v7 $s7 bytes ($((s7 / nb)) a result)"
fi

# a database no one may write: a reader is refused (exit 3), the file as it was
if [ "$(id -u)" != 0 ]; then
    s0=$(md5sum <"$tmp/ro.db")
    chmod a-w "$tmp/ro.db" "$tmp"
    "$pb" list --db "$tmp/ro.db" configs >/dev/null 2>"$tmp/err.ro"
    rc=$?
    chmod u+w "$tmp"
    [ $rc -eq 3 ] || fail "read-only v6: exit $rc, want 3"
    grep -q "schema version 6 is older than this poolbench (8) and cannot be upgraded" "$tmp/err.ro" ||
        fail "read-only v6: $(cat "$tmp/err.ro")"
    [ "$(md5sum <"$tmp/ro.db")" = "$s0" ] || fail "read-only v6 changed"
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: export, report and v_result unchanged by the upgrade"
