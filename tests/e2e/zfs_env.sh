# Sourced by the e2e tests that need real ZFS (not a test itself): exits 77
# (skip) without root, the tools, or a ZFS that answers; starts zfs-fuse
# when it is installed and nothing answers (left running for others).
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 77; }
for t in zpool zfs fio sqlite3 timeout; do
    command -v $t >/dev/null 2>&1 || { echo "skip: no '$t'"; exit 77; }
done
if ! timeout 10 zpool list >/dev/null 2>&1 && command -v zfs-fuse >/dev/null; then
    zfs-fuse
    for i in $(seq 1 50); do
        timeout 5 zpool list >/dev/null 2>&1 && break
        sleep 0.2
    done
fi
timeout 10 zpool list >/dev/null 2>&1 || { echo "skip: zpool does not answer"; exit 77; }
if timeout 10 zpool status -x 2>/dev/null | grep -q -e "IO failures" -e suspended; then
    echo "skip: a pool has suspended its I/O (the ZFS daemon may hang)"
    exit 77
fi
