#!/bin/sh
# e2e (root, real ZFS): SIGINT in the middle of `poolbench run` abandons the
# cell in progress, destroys the pool, removes the sparse files, keeps the
# finished cell in the database and exits 130; --resume then runs only the
# remaining cells.
# usage: test_run_sigint.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold sig
q() { sqlite3 "$db" "$1"; }

cat >"$base/plan.ini" <<PLAN
[plan]
name = e2e-sigint
pool = $pool
vdevs = file:$base/d0.img:256M file:$base/d1.img:256M

[dataset]
recordsize = 8k, 128k
compression = off, gzip

[fio]
rw = randread
bs = 4k
size = 8m
runtime = 2
time_based = 1
PLAN
db=$base/r.db out=$base/out

"$pb" run --db "$db" -o "$out" "$base/plan.ini" >/dev/null 2>"$base/err.txt" &
run=$!
i=0
until grep -q "^cell 2/4 " "$base/err.txt" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 1200 ] || ! kill -0 "$run" 2>/dev/null; then
        fail "no progress line for cell 2/4: $(tail -3 "$base/err.txt")"
        break
    fi
    sleep 0.1
done
sleep 1 # into the cell: layout, cache drop or fio
kill -INT "$run"
wait "$run"
rc=$?
run=
[ $rc -eq 130 ] || fail "exit $rc after SIGINT, want 130: $(tail -3 "$base/err.txt")"
grep -q "run interrupted by SIGINT" "$base/err.txt" || fail "no message about the interruption"
zpool list -H -o name | grep -qx "$pool" && fail "pool $pool still exists after SIGINT"
[ -e "$base/d0.img" ] || [ -e "$base/d1.img" ] && fail "sparse files left after SIGINT"
n=$(q "SELECT group_concat(path) FROM source WHERE format = 'fio-json'")
[ "$n" = "$out/raw/c001.fio.json" ] || fail "fio sources after SIGINT: '$n', want cell 1 only"

timeout 600 "$pb" run --db "$db" -o "$out" --resume "$base/plan.ini" >/dev/null 2>"$base/err2.txt"
rc=$?
[ $rc -eq 0 ] || fail "resume exit $rc: $(tail -3 "$base/err2.txt")"
grep -q "4 cells: 3 ran, 0 skipped, 1 already in the database" "$base/err2.txt" ||
    fail "resume summary: $(grep plan "$base/err2.txt")"
n=$(q "SELECT count(*) FROM source WHERE format = 'fio-json'")
[ "$n" = 4 ] || fail "$n fio sources after resume, want 4"
zpool list -H -o name | grep -qx "$pool" && fail "pool $pool still exists after resume"

[ $fails -eq 0 ] || exit 1
echo "ok"
