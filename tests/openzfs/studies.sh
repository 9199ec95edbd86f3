#!/bin/sh
# tests/openzfs/studies.sh: the three example studies on real OpenZFS, run
# by hand inside scripts/openzfs-vm (not a ctest: about half an hour under
# TCG):
#   scripts/openzfs-vm run --timeout 5400 --out DIR -- sh tests/openzfs/studies.sh
# ashift-recordsize.ini (the dataset's own sync=always) and layouts.ini
# (real log and cache vdevs) whole at --time-scale 0.05; volblocksize.ini
# trimmed to what fits an emulated CPU (volblocksize 8k/16k/64k x bs
# 4k/64k x randwrite x fsync 0/1 x compression off/lz4/zstd: 36 of its 576
# cells). Each study's database, run folder (report, raw outputs,
# commands.log) and a summary land in $PB_OUT/studies/.
set -u
cd "$(dirname "$0")/../.." || exit 3
out=$PB_OUT/studies
mkdir -p "$out"
sh tests/openzfs/capture.sh "$out/caps"
rc=0
study() { # study NAME PLAN
    t0=$(date +%s)
    poolbench run --time-scale 0.05 --db "$out/$1.db" -o "$out/run-$1" "$2" \
        >"$out/$1.out" 2>"$out/$1.err"
    r=$?
    echo "studies: $1: exit $r in $(($(date +%s) - t0)) s: $(grep "plan '" "$out/$1.err" | tail -1)"
    [ $r -eq 0 ] || rc=$r
}
study ashift-recordsize examples/ashift-recordsize.ini
study layouts examples/layouts.ini
sed -e 's/^volblocksize = .*/volblocksize = 8k, 16k, 64k/' \
    -e 's/^bs = .*/bs = 4k, 64k/' -e 's/^rw = .*/rw = randwrite/' \
    examples/volblocksize.ini >/tmp/volblocksize.ini
study volblocksize /tmp/volblocksize.ini
zpool list -H -o name >"$out/pools-left.txt" 2>&1
ls /var/tmp >"$out/files-left.txt" 2>&1
exit $rc
