#!/bin/sh
# e2e (root, real ZFS): `poolbench run` of a 2x2 plan (recordsize 8k/128k x
# compression off/gzip) on a fresh pool over two sparse files. Checks that
# the dry run predicted exactly the commands executed and created nothing,
# that every cell landed in the database with its test and config
# parameters, that gzip on 75% compressible data gives compressratio > 1,
# that no pool and no sparse file is left, that the report is written, and
# that --resume then runs nothing.
# usage: test_run_matrix.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold mtx
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<PLAN
[plan]
name = e2e
pool = $pool
vdevs = file:$base/d0.img:256M file:$base/d1.img:256M

[pool]
layout = stripe

[dataset]
recordsize = 8k, 128k
compression = off, gzip

[fio]
rw = randread
bs = 4k
size = 16m
runtime = 1
time_based = 1
buffer_compress_percentage = 75
refill_buffers = 1
PLAN
db=$base/r.db out=$base/out

# ---- dry run: the command list, nothing created
"$pb" run --dry-run -o "$out" "$base/plan.ini" >"$base/dry.txt" 2>"$base/dry.err" ||
    fail "dry run exit $?: $(cat "$base/dry.err")"
[ -e "$out" ] && fail "dry run created $out"
[ -e "$base/d0.img" ] && fail "dry run created a sparse file"
grep -q "^zpool create .* $pool $base/d0.img $base/d1.img\$" "$base/dry.txt" ||
    fail "dry run has no zpool create"

# ---- the run
timeout 600 "$pb" run --db "$db" -o "$out" "$base/plan.ini" >"$base/out.txt" 2>"$base/err.txt"
rc=$?
[ $rc -eq 0 ] || fail "run exit $rc: $(tail -5 "$base/err.txt")"
grep -q "^cell 4/4 recordsize=128k compression=gzip fio randread bs=4k iodepth=1 elapsed " \
    "$base/err.txt" || fail "no progress line for cell 4/4"

# ---- nothing left behind
zpool list -H -o name | grep -qx "$pool" && fail "pool $pool still exists"
[ -e "$base/d0.img" ] || [ -e "$base/d1.img" ] && fail "sparse files left"

# ---- the dry run listed exactly what ran (retries and run ids aside)
norm() { sed -e 's/poolbench:owner=[^ ]*/poolbench:owner=ID/' -e 's/  # exit .*//' | grep -v '^#' | uniq; }
norm <"$base/dry.txt" >"$base/dry.cmds"
norm <"$out/commands.log" >"$base/log.cmds"
cmp -s "$base/dry.cmds" "$base/log.cmds" ||
    fail "dry run and commands.log differ: $(diff "$base/dry.cmds" "$base/log.cmds" | head -10)"
grep -q "^zpool destroy $pool  # exit 0" "$out/commands.log" || fail "no zpool destroy logged"

# ---- the results
test_name='fio randread bs=4k iodepth=1'
got=$(q "SELECT group_concat(config, '|') FROM (SELECT DISTINCT config FROM v_result
         WHERE test='$test_name' AND metric='read_iops' AND value > 0 ORDER BY config)")
[ "$got" = "recordsize=128k compression=gzip|recordsize=128k compression=off|recordsize=8k compression=gzip|recordsize=8k compression=off" ] ||
    fail "configs with read_iops: $got"
param() { # label key
    q "SELECT group_concat(DISTINCT p.value) FROM config c JOIN config_param p
       ON p.config_id = c.id WHERE c.label = '$1' AND p.key = '$2'"
}
for rs in 8k:8192 128k:131072; do
    for comp in off gzip; do
        label="recordsize=${rs%%:*} compression=$comp"
        [ "$(param "$label" recordsize)" = "${rs#*:}" ] || fail "$label: recordsize $(param "$label" recordsize)"
        [ "$(param "$label" compression)" = "$comp" ] || fail "$label: compression $(param "$label" compression)"
        [ "$(param "$label" layout)" = stripe ] || fail "$label: layout $(param "$label" layout)"
        [ "$(param "$label" vdevs)" = 2 ] || fail "$label: vdevs $(param "$label" vdevs)"
        n=$(q "SELECT count(*) FROM v_result WHERE config='$label' AND metric IN ('logicalused','used','compressratio')")
        [ "$n" = 3 ] || fail "$label: $n of compressratio/used/logicalused"
    done
done
got=$(q "SELECT group_concat(p.key || '=' || p.value, ',') FROM test t JOIN test_param p ON p.test_id = t.id
         WHERE t.name = '$test_name' AND p.key IN ('rw', 'bs', 'iodepth') ORDER BY p.key")
case "$got" in *rw=randread*) ;; *) fail "test params: $got" ;; esac
case "$got" in *bs=4096*) ;; *) fail "test params: $got" ;; esac
ratio() { q "SELECT value FROM v_result WHERE config='$1' AND metric='compressratio'"; }
for rs in 8k 128k; do
    r=$(ratio "recordsize=$rs compression=gzip")
    awk -v r="$r" 'BEGIN { exit !(r > 1.2) }' || fail "gzip $rs: compressratio '$r' is not > 1"
    r=$(ratio "recordsize=$rs compression=off")
    awk -v r="$r" 'BEGIN { exit !(r == 1) }' || fail "off $rs: compressratio '$r' is not 1"
done
n=$(q "SELECT count(*) FROM source WHERE path LIKE '$out/raw/c00_.fio.json'")
[ "$n" = 4 ] || fail "$n fio sources, want 4"
n=$(q "SELECT count(DISTINCT value) FROM fact WHERE key = 'zfs_implementation'")
[ "$n" = 1 ] || fail "host facts: $n zfs_implementation facts"
[ -s "$out/report/index.html" ] || fail "no report in $out/report"

# ---- --resume: everything is there, nothing runs
before=$(q "SELECT count(*) FROM result")
timeout 300 "$pb" run --db "$db" -o "$out" --resume "$base/plan.ini" >/dev/null 2>"$base/err2.txt" ||
    fail "resume exit $?: $(tail -3 "$base/err2.txt")"
grep -q "4 cells: 0 ran, 0 skipped, 4 already in the database" "$base/err2.txt" ||
    fail "resume summary: $(grep plan "$base/err2.txt")"
[ "$(q "SELECT count(*) FROM result")" = "$before" ] || fail "resume changed the results"
[ "$(grep -c '^zpool create' "$out/commands.log")" = 1 ] || fail "resume created a pool"

[ $fails -eq 0 ] || exit 1
echo "ok"
