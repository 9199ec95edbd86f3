#!/bin/sh
# e2e: fixing the database after ingest (issue 19, item 1): rm SOURCE,
# --config, --run, --dry-run; relabel OLD NEW (dimensions re-derived from
# the new label, --source moves some sources); ingest --replace. Counts of
# every table, and PRAGMA integrity_check / foreign_key_check clean.
# usage: test_db_edit.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }
q() { sqlite3 "$db" "$1"; }
# counts: sources results configs own_configs tests facts
counts() {
    q "SELECT (SELECT count(*) FROM source) || ' ' || (SELECT count(*) FROM
        result) || ' ' || (SELECT count(*) FROM config) || ' ' || (SELECT
        count(*) FROM config_own) || ' ' || (SELECT count(*) FROM test) ||
        ' ' || (SELECT count(*) FROM fact)"
}
clean() {
    got=$(q "PRAGMA integrity_check; PRAGMA foreign_key_check;")
    [ "$got" = ok ] || fail "$1: integrity: $got"
    # no row left pointing at nothing (foreign keys are not enforced)
    got=$(q "SELECT (SELECT count(*) FROM result WHERE source_id NOT IN
        (SELECT id FROM source) OR config_id NOT IN (SELECT id FROM config)
        OR test_id NOT IN (SELECT id FROM test) OR own_id NOT IN (SELECT id
        FROM config_own)) + (SELECT count(*) FROM fact WHERE source_id NOT
        IN (SELECT id FROM source)) + (SELECT count(*) FROM config_param
        WHERE config_id NOT IN (SELECT id FROM config)) + (SELECT count(*)
        FROM config_own WHERE config_id NOT IN (SELECT id FROM config)) +
        (SELECT count(*) FROM result r JOIN config_own o ON o.id = r.own_id
        WHERE o.config_id != r.config_id)")
    [ "$got" = 0 ] || fail "$1: $got dangling rows"
}

fx="$src/fixtures/fio-json"
cd "$fx" || exit 1
db="$tmp/t.db"
"$pb" ingest --db "$db" -q fio-3.33_three-jobs.json \
    fio-3.33_write_64k_fsync16.json fio-3.33_randread_4k_qd4_libaio.json ||
    fail ingest
# three configurations: the three-job file's (one target), two single jobs
[ "$(counts)" = "3 81 3 3 5 $(q 'SELECT count(*) FROM fact')" ] ||
    fail "start: $(counts)"
facts0=$(q 'SELECT count(*) FROM fact')

# --- rm --dry-run changes nothing and says what would go
before=$(counts)
"$pb" rm --db "$db" --dry-run fio-3.33_write_64k_fsync16.json >"$tmp/out" \
    2>"$tmp/err" || fail "rm --dry-run exit"
[ "$(cat "$tmp/out")" = "would remove source 2 fio-3.33_write_64k_fsync16.json (fio-json): 13 results
would remove configuration 2 'seqwrite-64k': left without results" ] ||
    fail "dry-run out: $(cat "$tmp/out")"
[ "$(cat "$tmp/err")" = "poolbench: rm: would remove 1 source, 13 results; 1 configuration left empty" ] ||
    fail "dry-run err: $(cat "$tmp/err")"
[ "$(counts)" = "$before" ] || fail "dry-run changed: $(counts)"

# --- rm by path: the source, its results, facts, config and test go
nf=$(q "SELECT count(*) FROM fact WHERE source_id = 2")
"$pb" rm --db "$db" -q fio-3.33_write_64k_fsync16.json || fail "rm exit"
[ "$(counts)" = "2 68 2 2 4 $((facts0 - nf))" ] || fail "after rm: $(counts)"
clean "rm path"
[ "$(q "SELECT count(*) FROM v_result WHERE config = 'seqwrite-64k'")" = 0 ] ||
    fail "seqwrite results left"
# unknown source: exit 2 with the nearest stored path
"$pb" rm --db "$db" fio-3.33_three-job.json 2>"$tmp/err"
[ $? -eq 2 ] || fail "rm unknown exit"
[ "$(head -n 1 "$tmp/err")" = "poolbench: rm: no source 'fio-3.33_three-job.json'; did you mean 'fio-3.33_three-jobs.json'?" ] ||
    fail "rm unknown: $(cat "$tmp/err")"

# --- rm --config: a source with results of other configs is refused (the
# two-target file: a configuration per target)
"$pb" ingest --db "$db" -q fio-3.33_randread_two-targets.json || fail "ingest 2t"
"$pb" rm --db "$db" --config '^rr-a' 2>"$tmp/err"
[ $? -eq 2 ] || fail "rm --config mixed exit"
grep -q "also has results of configurations '^rr-a' does not match" "$tmp/err" ||
    fail "rm --config mixed: $(cat "$tmp/err")"
"$pb" rm --db "$db" -q fio-3.33_randread_two-targets.json || fail "rm 2t"
"$pb" rm --db "$db" -q --config 'randread-4k' || fail "rm --config"
[ "$(counts)" = "1 54 1 1 3 $(q 'SELECT count(*) FROM fact')" ] ||
    fail "after rm --config: $(counts)"
clean "rm config"

# --- ingest --replace: the same file with a better label
"$pb" ingest --db "$db" -q --label 'zfs mirror recordsize=16k' \
    fio-3.33_three-jobs.json
[ "$(counts)" = "1 54 1 1 3 $(q 'SELECT count(*) FROM fact')" ] ||
    fail "ingest again changed: $(counts)"
"$pb" ingest --db "$db" --replace --label 'zfs mirror recordsize=16k' \
    fio-3.33_three-jobs.json >"$tmp/out" 2>&1 || fail "replace exit"
grep -q "^drop source 1: replaced by fio-3.33_three-jobs.json" "$tmp/out" ||
    fail "replace out: $(cat "$tmp/out")"
[ "$(counts)" = "1 54 1 1 3 $(q 'SELECT count(*) FROM fact')" ] ||
    fail "after replace: $(counts)"
[ "$(q "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key,
    value FROM config_param ORDER BY key)")" = "layout=mirror recordsize=16384" ] ||
    fail "replace dims"
[ "$(q 'SELECT path FROM source')" = fio-3.33_three-jobs.json ] ||
    fail "replace source"
clean replace

# --- relabel: dimensions re-derived from the new label
"$pb" ingest --db "$db" -q --label 'zfs mirror recordsize=16k' --set \
    compression=lz4 fio-3.33_write_64k_fsync16.json || fail "ingest 3"
"$pb" relabel --db "$db" 'zfs mirror recordsize=16k' \
    'zfs raidz1 recordsize=128k' 2>"$tmp/err" || fail "relabel exit"
[ "$(cat "$tmp/err")" = "poolbench: relabel: 67 results moved from 'zfs mirror recordsize=16k' to 'zfs raidz1 recordsize=128k'" ] ||
    fail "relabel: $(cat "$tmp/err")"
got=$(q "SELECT c.label || ': ' || group_concat(p.key || '=' || p.value, ' ')
    FROM config c JOIN (SELECT * FROM config_param ORDER BY key) p ON
    p.config_id = c.id GROUP BY c.id ORDER BY c.id")
[ "$got" = "zfs raidz1 recordsize=128k: compression=lz4 layout=raidz1 recordsize=131072
zfs raidz1 recordsize=128k: layout=raidz1 recordsize=131072" ] ||
    fail "relabel dims: $got"
[ "$(q "SELECT count(*) FROM v_result WHERE config LIKE 'zfs mirror%'")" = 0 ] ||
    fail "old label left"
clean relabel
# --source moves only that source's results
"$pb" relabel --db "$db" -q --source fio-3.33_write_64k_fsync16.json \
    'zfs raidz1 recordsize=128k' 'zfs mirror ashift=12' || fail "relabel --source"
got=$(q "SELECT config, count(*) FROM v_result GROUP BY config ORDER BY config")
[ "$got" = "zfs mirror ashift=12|13
zfs raidz1 recordsize=128k|54" ] || fail "relabel --source: $got"
got=$(q "SELECT group_concat(p.key || '=' || p.value, ' ') FROM config c JOIN
    (SELECT * FROM config_param ORDER BY key) p ON p.config_id = c.id WHERE
    c.label = 'zfs mirror ashift=12'")
[ "$got" = "ashift=12 compression=lz4 layout=mirror" ] || fail "relabel --source dims: $got"
clean "relabel --source"
# a typo in OLD
"$pb" relabel --db "$db" 'zfs mirror ashift=13' x 2>"$tmp/err"
[ $? -eq 2 ] || fail "relabel typo exit"
[ "$(head -n 1 "$tmp/err")" = "poolbench: relabel: no configuration 'zfs mirror ashift=13'; did you mean 'zfs mirror ashift=12'?" ] ||
    fail "relabel typo: $(cat "$tmp/err")"

# --- rm --run: the sources with fact run_id
db2="$tmp/run.db"
cp "$db" "$db2"
sqlite3 "$db2" "INSERT INTO fact(source_id, host, key, value) SELECT id,
    NULL, 'run_id', 'r-42' FROM source WHERE path =
    'fio-3.33_write_64k_fsync16.json'"
db=$db2
"$pb" rm --db "$db" -q --run r-42 || fail "rm --run"
[ "$(counts)" = "1 54 1 1 3 $(q 'SELECT count(*) FROM fact')" ] ||
    fail "after rm --run: $(counts)"
[ "$(q 'SELECT path FROM source')" = fio-3.33_three-jobs.json ] ||
    fail "rm --run removed the wrong source"
clean "rm run"
"$pb" rm --db "$db" --run r-43 2>"$tmp/err"
[ $? -eq 2 ] || fail "rm --run unknown exit"

# --- relabel with a companion zpool status: its dimensions follow it
cd "$src/fixtures" || exit 1
db="$tmp/comp.db"
"$pb" ingest --db "$db" -q --label tankA zfs/zfs-fuse_zpool-status_mirror.txt \
    fio-json/fio-3.33_three-jobs.json || fail "ingest companion"
"$pb" relabel --db "$db" -q tankA tankB || fail "relabel companion"
got=$(q "SELECT c.label || ' ' || count(*) || ' ' || (SELECT group_concat(key
    || '=' || value, ' ') FROM (SELECT key, value FROM config_param WHERE
    config_id = c.id ORDER BY key)) FROM config c JOIN result r ON
    r.config_id = c.id GROUP BY c.id")
[ "$got" = "tankB 57 dedup_class=no disks=2 disks_per_vdev=2 l2arc=no layout=mirror slog=no spares=0 special=no vdevs=1" ] ||
    fail "companion relabel: $got"
[ "$(q "SELECT group_concat(DISTINCT label) FROM label_param")" = tankB ] ||
    fail "companion label_param: $(q 'SELECT * FROM label_param')"
clean "relabel companion"
# only the fio source moves: the companion's dimensions stay with tankB
"$pb" relabel --db "$db" -q --source fio-json/fio-3.33_three-jobs.json \
    tankB tankC || fail "relabel --source companion"
got=$(q "SELECT c.label || ' ' || count(*) || ' ' || coalesce((SELECT
    group_concat(key, ' ') FROM (SELECT key FROM config_param WHERE
    config_id = c.id ORDER BY key)), '-')
    FROM config c JOIN result r ON r.config_id = c.id GROUP BY c.id ORDER BY
    c.label")
[ "$got" = "tankB 3 dedup_class disks disks_per_vdev l2arc layout slog spares special vdevs
tankC 54 -" ] || fail "relabel --source companion: $got"
clean "relabel --source companion"

[ $fails -eq 0 ] || exit 1
echo "ok"
