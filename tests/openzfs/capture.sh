#!/bin/sh
# tests/openzfs/capture.sh DIR: what the preflight and the telemetry
# readers read, as the guest's OpenZFS prints it (the sources of
# fixtures/zfs-caps/openzfs-2.3 and the real files of fixtures/zfs-telemetry)
set -u
mkdir -p "$1"
zfs version >"$1/zfs-version.txt" 2>&1
zfs get >"$1/zfs-get-usage.txt" 2>&1
zpool get >"$1/zpool-get-usage.txt" 2>&1
zpool upgrade -v >"$1/zpool-upgrade-v.txt" 2>&1
cat /proc/spl/kstat/zfs/arcstats >"$1/arcstats.txt" 2>&1
