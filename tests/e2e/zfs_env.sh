# Sourced by the e2e tests that need real ZFS (not a test itself): exits 77
# (skip) without root, the tools, or a ZFS that answers; starts zfs-fuse
# when it is installed and nothing answers (left running for others).
# Then gives the run tests their scaffold: e2e_scaffold, fail().
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 77; }
for t in zpool zfs fio sqlite3 timeout; do
    command -v $t >/dev/null 2>&1 || { echo "skip: no '$t'"; exit 77; }
done
# zfs_up: ZFS answers, or zfs-fuse (when installed and not running) is
# started and answers within 30 s; 1 when it does not.
zfs_up() {
    timeout 10 zpool list >/dev/null 2>&1 && return 0
    command -v zfs-fuse >/dev/null 2>&1 || return 1
    pgrep -x zfs-fuse >/dev/null || zfs-fuse
    for _ in $(seq 1 150); do
        timeout 5 zpool list >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
zfs_up
timeout 10 zpool list >/dev/null 2>&1 || { echo "skip: zpool does not answer"; exit 77; }
if timeout 10 zpool status -x 2>/dev/null | grep -q -e "IO failures" -e suspended; then
    echo "skip: a pool has suspended its I/O (the ZFS daemon may hang)"
    exit 77
fi

# A failed check: counted, the test goes on and exits 1 at its end.
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# e2e_scaffold TAG: a scratch folder $base, a pool name $pool of this
# process, and on exit: the poolbench run in $run (when set) stopped, the
# pool destroyed and the folder removed. TAG is a few letters naming the
# test.
e2e_scaffold() {
    base=$(mktemp -d "/var/tmp/pb-e2e-$1.XXXXXX")
    pool=pbe2e$1$$
    run=
    trap e2e_cleanup EXIT
}
e2e_cleanup() {
    [ -n "$run" ] && kill -TERM "$run" 2>/dev/null && wait "$run" 2>/dev/null
    if zpool list -H -o name 2>/dev/null | grep -qx "$pool"; then
        timeout 120 zpool destroy "$pool" || { echo "left: pool $pool"; return; }
    fi
    rm -rf "$base"
}
