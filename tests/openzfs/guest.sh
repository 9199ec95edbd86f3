#!/bin/sh
# tests/openzfs/guest.sh: run inside scripts/openzfs-vm (poolbench on
# PATH, $PB_OUT copied back): the two OpenZFS plans into one database,
# and what the guest's ZFS says of itself, for e2e.test_openzfs to check.
set -u
db=$PB_OUT/oz.db
cd "$(dirname "$0")/../.." || exit 3
sh tests/openzfs/capture.sh "$PB_OUT/caps"
rc=0
for plan in tests/openzfs/datasets.ini tests/openzfs/zvols.ini; do
    name=$(basename "$plan" .ini)
    poolbench run --db "$db" -o "$PB_OUT/run-$name" "$plan" \
        >"$PB_OUT/$name.out" 2>"$PB_OUT/$name.err"
    r=$?
    echo "guest: poolbench run $plan: exit $r"
    tail -3 "$PB_OUT/$name.err"
    [ $r -eq 0 ] || rc=$r
done
zpool list -H -o name >"$PB_OUT/pools-left.txt" 2>&1
ls /var/tmp >"$PB_OUT/files-left.txt" 2>&1
exit $rc
