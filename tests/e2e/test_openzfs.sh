#!/bin/sh
# e2e (labels openzfs, slow): the run module on real OpenZFS 2.3, in the
# virtual machine of scripts/openzfs-vm (docs/openzfs-vm.md).
#   1. In the guest: tests/openzfs/datasets.ini (a mirror with a real log
#      and cache vdev, the dataset's own sync=always, zstd and lz4) and
#      tests/openzfs/zvols.ini (zvols of volblocksize 8k and 16k, zstd,
#      fsync=1): every cell runs, and the database holds what only
#      OpenZFS gives (the version fact, sync=always, zvol cells by
#      volblocksize, zstd compression ratios, log and cache vdevs in the
#      layout dimensions, arcstats, module parameters, zpool iostat per
#      vdev and the log and cache devices, ashift read by zdb -C); no pool
#      and no vdev file is left.
#   2. The guest as a remote host: sshd and fio --server in the guest,
#      reached through QEMU's port forwards on loopback; a [hosts] plan
#      whose server is the guest (remote = ssh ..., pools made there on
#      its OpenZFS, fio through fio's client/server): the guest's results
#      under its entry with its ZFS version, nothing left in the guest;
#      then the guest is powered off during the second of three cells:
#      the first cell is stored, the others fail with a line naming the
#      host, exit 3 (its ZFS stopped answering: what it held is left
#      there, as poolbench-run(1) says), and `run --cleanup` leaves nothing
#      here (the guest's disk is a snapshot: a powered-off guest keeps
#      nothing).
# Skips (77) when not root, without qemu or debootstrap, or when no image
# can be built (no mirror) and none is cached. The first build of the
# image takes 7-17 minutes; later runs use the cache.
# usage: test_openzfs.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
vm="$src/scripts/openzfs-vm"
[ "$(id -u)" -eq 0 ] || { echo "skip: not root (the VM image is built in a chroot)"; exit 77; }
for t in qemu-system-x86_64 qemu-img debootstrap sqlite3 fio; do
    command -v $t >/dev/null || { echo "skip: no $t (scripts/deps installs it)"; exit 77; }
done
tmp=$(mktemp -d /var/tmp/pb-e2e-oz.XXXXXX)
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
q() { sqlite3 "$1" "$2"; }
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

t0=$(date +%s)
if ! "$vm" build >"$tmp/build.log" 2>&1; then
    if ls -d /var/cache/poolbench/openzfs-vm/zfs-2.3.*/ready >/dev/null 2>&1 ||
        ls /var/cache/poolbench/openzfs-vm/zfs-2.3.*/ready >/dev/null 2>&1; then
        echo "note: the image could not be rebuilt, the cached one is used: $(tail -1 "$tmp/build.log")"
    else
        echo "skip: no OpenZFS image and none can be built: $(tail -3 "$tmp/build.log")"
        exit 77
    fi
fi
echo "image: $(tail -1 "$tmp/build.log") ($(($(date +%s) - t0)) s)"

# ---- 1. the run module inside the guest
t0=$(date +%s)
out="$tmp/guest"
"$vm" run --timeout 2400 --out "$out" -- sh tests/openzfs/guest.sh \
    >"$tmp/guest.log" 2>&1
rc=$?
echo "guest run: exit $rc ($(($(date +%s) - t0)) s)"
[ $rc -eq 0 ] || fail "guest run: exit $rc: $(grep -v '^\[' "$tmp/guest.log" | tail -15)"
db="$out/oz.db"
if [ -f "$db" ]; then
    v=$(q "$db" "SELECT DISTINCT value FROM fact WHERE key = 'zfs_version'")
    case $v in zfs-2.3.*) ;; *) fail "zfs_version fact '$v', want zfs-2.3.x" ;; esac
    [ "$(q "$db" "SELECT DISTINCT value FROM fact WHERE key = 'zfs_implementation'")" = openzfs ] ||
        fail "zfs_implementation is not openzfs"
    [ "$(q "$db" "SELECT count(*) FROM source WHERE format = 'fio-json'")" = 4 ] ||
        fail "fio sources: $(q "$db" "SELECT count(*) FROM source WHERE format = 'fio-json'"), want 4"
    # the dataset's own sync=always (not the fio sync=1 fallback)
    [ "$(q "$db" "SELECT count(DISTINCT c.id) FROM config c JOIN config_param p
        ON p.config_id = c.id WHERE p.key = 'sync' AND p.value = 'always'")" = 2 ] ||
        fail "sync=always: not a dimension of the two dataset cells"
    q "$db" "SELECT value FROM fact WHERE key = 'zfs_sync'" | grep -q . &&
        fail "zfs_sync fact (the fallback) on OpenZFS"
    # zvol cells by volblocksize, zstd
    [ "$(q "$db" "SELECT group_concat(value, ' ') FROM (SELECT DISTINCT p.value
        FROM config_param p WHERE p.key = 'volblocksize' ORDER BY 0 + p.value)")" = "8192 16384" ] ||
        fail "zvol cells by volblocksize: $(q "$db" "SELECT DISTINCT value FROM config_param WHERE key = 'volblocksize'")"
    # zstd ratios of 50% compressible data: real compression (> 1.2)
    for cfg in compression=zstd volblocksize=8k volblocksize=16k; do
        r=$(q "$db" "SELECT value FROM v_result WHERE config = '$cfg' AND metric = 'compressratio'")
        awk -v r="${r:-0}" 'BEGIN { exit !(r > 1.2 && r < 3) }' ||
            fail "$cfg: compressratio '$r', want zstd's real ratio (1.2..3)"
    done
    # the log and cache vdevs in the layout dimensions
    [ "$(q "$db" "SELECT p.key || '=' || p.value FROM config c JOIN config_param p
        ON p.config_id = c.id WHERE c.label = 'compression=zstd' AND p.key IN
        ('layout', 'slog', 'l2arc') ORDER BY p.key" | tr '\n' ' ')" = "l2arc=yes layout=mirror slog=stripe " ] ||
        fail "layout dimensions of the log/cache pool"
    # ashift as zdb -C reads it
    q "$db" "SELECT origin FROM config_own_param WHERE key = 'ashift' AND value = '12'" |
        grep -q 'zdb -C' || fail "ashift=12 not read from zdb -C"
    # telemetry of the real thing
    for k in arc_c_max zfs_param.zfs_arc_max zpool_iostat.logs./var/tmp/pboz-log.img \
        zpool_iostat.cache./var/tmp/pboz-cache.img arc.delta.hits; do
        [ -n "$(q "$db" "SELECT value FROM fact WHERE key = '$k' LIMIT 1")" ] ||
            fail "no fact $k"
    done
    n=$(q "$db" "SELECT count(*) FROM v_result WHERE metric = 'pool_write_ops' AND value > 0")
    [ "$n" = 4 ] || fail "pool_write_ops of 4 cells, got $n"
    [ -s "$out/pools-left.txt" ] && fail "pools left in the guest: $(cat "$out/pools-left.txt")"
    grep -q 'pboz' "$out/files-left.txt" && fail "vdev files left in the guest: $(cat "$out/files-left.txt")"
else
    fail "the guest wrote no database"
fi

# ---- 2. the guest as a remote host
if :; then
    cat >"$tmp/remote.sh" <<'EOS'
#!/bin/sh
# host side of part 2, run by scripts/openzfs-vm serve
set -u
pb=$1 tmp=$2 src=$3
plan() { # plan NAME CELLS-OF-COMPRESSION
    cat <<EOP
[plan]
name = $1
pool = pbozr
vdevs = file:/var/tmp/pbozr-d0.img:256M

[hosts]
servers = 127.0.0.1:$PB_VM_FIO_PORT
remote = ssh -p $PB_VM_SSH_PORT -i $PB_VM_KEY
    -o BatchMode=yes -o StrictHostKeyChecking=no
    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR root@{host}

[dataset]
recordsize = 16k
compression = $2

[fio]
rw = randwrite
bs = 4k
size = 8m
runtime = 3
time_based = 1
EOP
}
# a: both servers answer
plan oz-remote "lzjb, gzip" >"$tmp/a.ini"
"$pb" run --db "$tmp/a.db" -o "$tmp/a" "$tmp/a.ini" >"$tmp/a.out" 2>"$tmp/a.err"
echo $? >"$tmp/a.rc"
$PB_VM_SSH 'zpool list -H -o name; ls /var/tmp' >"$tmp/a.left" 2>&1
# b: the guest is powered off during the second cell
plan oz-dies "lzjb, gzip, gzip-1" >"$tmp/b.ini"
"$pb" run --db "$tmp/b.db" -o "$tmp/b" "$tmp/b.ini" >"$tmp/b.out" 2>"$tmp/b.err" &
run=$!
until grep -q 'cell 2/3' "$tmp/b.err" 2>/dev/null || ! kill -0 $run 2>/dev/null; do sleep 1; done
kill -9 "$PB_VM_PID"
wait $run
echo $? >"$tmp/b.rc"
"$pb" run --cleanup -o "$tmp/b" >"$tmp/c.out" 2>&1
echo $? >"$tmp/c.rc"
EOS
    t0=$(date +%s)
    "$vm" serve --timeout 1800 -- sh "$tmp/remote.sh" "$pb" "$tmp" "$src" \
        >"$tmp/serve.log" 2>&1
    echo "remote part: $(($(date +%s) - t0)) s"
    # a: the guest's results under its entry, with its ZFS
    [ "$(cat "$tmp/a.rc" 2>/dev/null)" = 0 ] ||
        fail "remote run: exit $(cat "$tmp/a.rc" 2>/dev/null): $(tail -5 "$tmp/a.err" 2>/dev/null; tail -5 "$tmp/serve.log")"
    if [ -f "$tmp/a.db" ]; then
        guest=$(q "$tmp/a.db" "SELECT DISTINCT host FROM v_result WHERE host LIKE '127.0.0.1:%'")
        [ -n "$guest" ] || fail "no results under the guest's entry"
        n=$(q "$tmp/a.db" "SELECT count(*) FROM v_result WHERE host = '$guest' AND metric = 'write_iops'")
        [ "$n" = 2 ] || fail "guest write_iops results: $n, want 2"
        v=$(q "$tmp/a.db" "SELECT value FROM fact WHERE host = '$guest' AND key = 'zfs_version' LIMIT 1")
        case $v in zfs-2.3.*) ;; *) fail "the guest's zfs_version fact: '$v'" ;; esac
    fi
    grep -q 'pbozr' "$tmp/a.left" && fail "left in the guest: $(cat "$tmp/a.left")"
    # b: the guest dies: its cells from then on fail, the first is kept
    [ "$(cat "$tmp/b.rc" 2>/dev/null)" = 3 ] ||
        fail "guest powered off: exit $(cat "$tmp/b.rc" 2>/dev/null), want 3: $(tail -5 "$tmp/b.err" 2>/dev/null)"
    grep -q "host 127.0.0.1:[0-9]*: ZFS stopped answering" "$tmp/b.err" ||
        fail "no line saying the guest's ZFS stopped answering: $(tail -8 "$tmp/b.err" 2>/dev/null)"
    grep -q "host 127.0.0.1:[0-9]* failed" "$tmp/b.err" ||
        fail "no line naming the failed host: $(tail -8 "$tmp/b.err" 2>/dev/null)"
    if [ -f "$tmp/b.db" ]; then
        n=$(q "$tmp/b.db" "SELECT count(*) FROM v_result WHERE host LIKE '127.0.0.1:%' AND metric = 'write_iops'")
        [ "$n" = 1 ] || fail "cells stored before the guest died: $n, want 1"
    fi
    echo "guest powered off: $(grep "plan 'oz-dies'" "$tmp/b.err" 2>/dev/null)"
    echo "run --cleanup: exit $(cat "$tmp/c.rc" 2>/dev/null): $(cat "$tmp/c.out" 2>/dev/null)"
    [ "$(cat "$tmp/c.rc" 2>/dev/null)" = 0 ] || fail "run --cleanup: exit $(cat "$tmp/c.rc"): $(cat "$tmp/c.out")"
    ls /var/tmp | grep -q '^pbozr' && fail "vdev files left here: $(ls /var/tmp | grep pbozr)"
fi
pgrep -f "qemu-system-x86_64.*pb-vm-run" >/dev/null && fail "a qemu process is left"

[ $fails -eq 0 ] || exit 1
echo ok
