#!/bin/sh
# e2e (root, real ZFS): issue 20, the run module's own files.
# Item 10: a vdev file that appears after a run started (another run's, or
# anyone's) is never truncated nor removed: the run's pool that needs it is
# refused (O_EXCL) and the file stays byte for byte. A second run on the
# folder of a live run is refused by the folder's lock, before it reads the
# folder's manifest, and leaves the first run's vdevs alone; a second run
# on the live run's vdev paths is refused too.
# Item 1 (run side): -o DIR must be a real folder of this user that no one
# else can write in; commands.log, manifest.tsv, raw/ and fio's raw/*.json
# are never written through a planted symlink (a victim file stays).
# Item 12: --resume with a plan edited since refuses (exit 2) naming the
# cells whose parameters changed; with the plan as it was, it resumes.
# Item 11 (loop devices; skipped without losetup/mkfs.ext4): --yes refuses
# a device with a file system signature (blkid -p), a device mapper holder
# (dmsetup, when it works here), and a mounted one.
# Item 14: a run that stops counts the cells it did not reach ("not run").
# usage: test_run_safety.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

# ---- can this machine run it?
. "$(dirname "$0")/zfs_env.sh"

e2e_scaffold saf
pool=pbr20saf$$
pool2=pbr20sag$$
loops=
dmname=
safety_cleanup() {
    [ -n "$dmname" ] && dmsetup remove "$dmname" 2>/dev/null
    mountpoint -q "$base/mnt" 2>/dev/null && umount "$base/mnt"
    for l in $loops; do losetup -d "$l" 2>/dev/null; done
    if zpool list -H -o name 2>/dev/null | grep -qx "$pool2"; then
        timeout 120 zpool destroy "$pool2" || echo "left: pool $pool2"
    fi
    e2e_cleanup
}
trap safety_cleanup EXIT
has_pool() { timeout 30 zpool list -H -o name 2>/dev/null | grep -qx "$1"; }

plan() { # FILE POOL VDEVS LAYOUTS RUNTIME
    cat >"$1" <<EOP
[plan]
name = e2e-safety
pool = $2
vdevs = $3
[pool]
layout = $4
[fio]
rw = randread
bs = 4k
size = 4m
runtime = $5
time_based = 1
EOP
}
wait_line() { # FILE PATTERN
    i=0
    until grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        if [ $i -gt 1200 ] || ! kill -0 "$run" 2>/dev/null; then
            fail "no line '$2': $(tail -3 "$1")"
            return 1
        fi
        sleep 0.1
    done
}

# ---- 1. a vdev file that appears mid-run is not truncated nor removed
# cell 1 (stripe-1) uses d0 only; d1 is planted while it runs; cell 2
# (stripe-2) needs d1 and must refuse it.
plan "$base/a.ini" "$pool" "file:$base/d0.img:128M file:$base/d1.img:128M" \
    "stripe-1, stripe-2" 1
# on_failure = stop and two fio cells per pool: cell 3 fails, 4 is not run
sed -i -e 's/^\[plan\]$/[plan]\non_failure = stop/' -e 's/^bs = 4k$/bs = 4k, 8k/' "$base/a.ini"
"$pb" run --db "$base/a.db" -o "$base/outa" "$base/a.ini" >/dev/null 2>"$base/a.err" &
run=$!
wait_line "$base/a.err" "^cell 1/4 "
printf 'victim\n' >"$base/d1.img"
wait "$run"
rc=$?
run=
[ $rc -eq 1 ] || fail "planted: exit $rc, want 1: $(tail -3 "$base/a.err")"
[ "$(cat "$base/d1.img" 2>/dev/null)" = victim ] ||
    fail "planted: d1.img changed or removed: $(ls -l "$base/d1.img" 2>&1)"
[ "$(stat -c %s "$base/d1.img" 2>/dev/null)" = 7 ] || fail "planted: d1.img was resized"
grep -q "cannot create vdev file '$base/d1.img': it exists now (another run's vdev?); left as it is" "$base/a.err" ||
    fail "planted: the refusal is not named: $(cat "$base/a.err")"
[ -e "$base/d0.img" ] && fail "planted: the run's own d0.img is left"
has_pool "$pool" && fail "planted: pool $pool left"
# item 14: every cell accounted for when a run stops
grep -q "4 cells: 2 ran, 1 skipped (1 failed), 0 already in the database, 1 not run; " "$base/a.err" ||
    fail "planted: summary: $(grep cells "$base/a.err")"
rm -f "$base/d1.img"

# ---- 2. a second run on a live run's folder, then on its vdev paths
plan "$base/b.ini" "$pool" "file:$base/d0.img:128M" "stripe" 4
plan "$base/c.ini" "$pool2" "file:$base/e0.img:128M" "stripe" 1
plan "$base/d.ini" "$pool2" "file:$base/d0.img:128M" "stripe" 1
"$pb" run --db "$base/b.db" -o "$base/outb" "$base/b.ini" >/dev/null 2>"$base/b.err" &
run=$!
wait_line "$base/b.err" "^cell 1/1 "
ino=$(stat -c %i "$base/d0.img" 2>/dev/null)
"$pb" run --db "$base/c.db" -o "$base/outb" "$base/c.ini" >/dev/null 2>"$base/c.err"
rc=$?
[ $rc -ne 0 ] || fail "same folder: exit 0"
grep -q "locked: another poolbench run or cleanup is using this folder" "$base/c.err" ||
    fail "same folder: no lock message: $(cat "$base/c.err")"
[ -e "$base/e0.img" ] && fail "same folder: the refused run made its vdev"
"$pb" run --db "$base/c.db" -o "$base/outd" "$base/d.ini" >/dev/null 2>"$base/d.err"
rc=$?
[ $rc -eq 2 ] || fail "same vdevs: exit $rc, want 2: $(cat "$base/d.err")"
grep -q "vdev file '$base/d0.img' already exists" "$base/d.err" ||
    fail "same vdevs: no refusal: $(cat "$base/d.err")"
[ "$(stat -c %i "$base/d0.img" 2>/dev/null)" = "$ino" ] ||
    fail "the live run's d0.img was replaced or removed"
has_pool "$pool2" && fail "a refused run created pool $pool2"
wait "$run"
rc=$?
run=
[ $rc -eq 0 ] || fail "the first run: exit $rc: $(tail -3 "$base/b.err")"
grep -q "1 cells: 1 ran" "$base/b.err" || fail "the first run: $(grep cells "$base/b.err")"
[ -e "$base/d0.img" ] && fail "the first run left d0.img"

# ---- 3. planted links and foreign folders (item 1)
printf 'victim\n' >"$base/victim"
victim_ok() { # WHAT
    [ "$(cat "$base/victim")" = victim ] || fail "$1: the victim file was written"
}
plan "$base/e.ini" "$pool" "file:$base/d0.img:128M" "stripe" 1
refused() { # WHAT OUTDIR PATTERN
    "$pb" run --db "$base/e.db" -o "$2" "$base/e.ini" >/dev/null 2>"$base/e.err"
    rc=$?
    [ $rc -eq 2 ] || [ $rc -eq 3 ] || fail "$1: exit $rc, want a refusal: $(cat "$base/e.err")"
    grep -q "$3" "$base/e.err" || fail "$1: message: $(cat "$base/e.err")"
    victim_ok "$1"
    has_pool "$pool" && fail "$1: a pool was created"
    [ -e "$base/d0.img" ] && fail "$1: a vdev file was created"
}
mkdir -m 0777 "$base/open"
refused "world-writable" "$base/open" "$base/open: is writable by others (mode 0777); a run writes only into a folder no one else can write in (chmod go-w)"
mkdir -m 0755 "$base/theirs"
chown nobody "$base/theirs"
refused "foreign owner" "$base/theirs" "$base/theirs: is owned by uid $(id -u nobody), not by this user (uid 0)"
mkdir "$base/real"
ln -s "$base/real" "$base/lnk"
refused "folder link" "$base/lnk" "$base/lnk: is a symbolic link"
mkdir "$base/o1"
ln -s "$base/victim" "$base/o1/manifest.tsv"
refused "manifest link" "$base/o1" "$base/o1/manifest.tsv: cannot open: Too many levels of symbolic links"
mkdir "$base/o2"
ln -s "$base/victim" "$base/o2/commands.log"
refused "commands.log link" "$base/o2" "$base/o2/commands.log: cannot open: Too many levels of symbolic links"
mkdir "$base/o3" "$base/vdir"
ln -s "$base/vdir" "$base/o3/raw"
refused "raw link" "$base/o3" "$base/o3/raw: is a symbolic link"
[ -z "$(ls "$base/vdir")" ] || fail "raw link: files written into the linked folder"
# a link where fio writes its JSON: replaced by the run's own file
mkdir -p "$base/o4/raw"
ln -s "$base/victim" "$base/o4/raw/c001.fio.json"
timeout 600 "$pb" run --db "$base/e.db" -o "$base/o4" "$base/e.ini" >/dev/null 2>"$base/e.err"
rc=$?
[ $rc -eq 0 ] || fail "fio output link: exit $rc: $(tail -3 "$base/e.err")"
victim_ok "fio output link"
[ -L "$base/o4/raw/c001.fio.json" ] && fail "fio output link: still a link"
grep -q '"jobs"' "$base/o4/raw/c001.fio.json" || fail "fio output link: no fio JSON in raw/c001.fio.json"
has_pool "$pool" && fail "fio output link: pool left"

# ---- 4. --resume with an edited plan (item 12)
cat >"$base/r.ini" <<EOP
[plan]
name = e2e-resume
pool = $pool
vdevs = file:$base/d0.img:128M
[dataset]
recordsize = 128k
[fio]
rw = randread
bs = 4k, 8k, 16k
size = 4m
runtime = 1
time_based = 1
EOP
timeout 600 "$pb" run --db "$base/r.db" -o "$base/outr" "$base/r.ini" >/dev/null 2>"$base/r.err"
rc=$?
[ $rc -eq 0 ] || fail "resume: first run exit $rc: $(tail -3 "$base/r.err")"
sed -e 's/^bs = .*/bs = 4k, 64k, 16k/' -e 's/^recordsize = .*/recordsize = 128k/' \
    "$base/r.ini" >"$base/r2.ini"
"$pb" run --resume --db "$base/r.db" -o "$base/outr" "$base/r2.ini" >/dev/null 2>"$base/r2.err"
rc=$?
[ $rc -eq 2 ] || fail "resume edited: exit $rc, want 2: $(cat "$base/r2.err")"
grep -q "r2.ini: --resume: the plan changed since 1 stored cell ran: cell 2 has other parameters now (cell 2 is 'e2e-resume | fio randread bs=64k iodepth=1'); run it into a new -o folder, or restore the plan" "$base/r2.err" ||
    fail "resume edited: message: $(cat "$base/r2.err")"
has_pool "$pool" && fail "resume edited: a pool was created"
n=$(sqlite3 "$base/r.db" "SELECT count(DISTINCT value) FROM fact WHERE key = 'run_cell_key'")
[ "$n" = 3 ] || fail "resume: $n distinct run_cell_key facts, want 3"
timeout 600 "$pb" run --resume --db "$base/r.db" -o "$base/outr" "$base/r.ini" >/dev/null 2>"$base/r3.err"
rc=$?
[ $rc -eq 0 ] || fail "resume same plan: exit $rc: $(cat "$base/r3.err")"
grep -q "3 cells: 0 ran, 0 skipped, 3 already in the database" "$base/r3.err" ||
    fail "resume same plan: $(grep cells "$base/r3.err")"

# ---- 5. real devices used through something else (item 11)
if command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null &&
    truncate -s 80M "$base/ext.img" && mkfs.ext4 -q -F "$base/ext.img" &&
    l1=$(losetup -f --show "$base/ext.img"); then
    loops=$l1
    cat >"$base/dev.ini" <<EOP
[plan]
name = e2e-dev
pool = $pool
vdevs = $l1
[fio]
rw = randread
bs = 4k
size = 4m
runtime = 1
EOP
    devrefused() { # WHAT PATTERN
        "$pb" run --yes --db "$base/dev.db" -o "$base/outdev" "$base/dev.ini" >/dev/null 2>"$base/dev.err"
        rc=$?
        [ $rc -eq 2 ] || fail "$1: exit $rc, want 2: $(cat "$base/dev.err")"
        grep -q "$2" "$base/dev.err" || fail "$1: message: $(cat "$base/dev.err")"
        has_pool "$pool" && fail "$1: pool created on $l1"
    }
    devrefused "ext4 signature" "dev.ini:4: device '$l1' is in use: it has a ext4 signature (blkid -p); if it is free, wipe it first: wipefs -a $l1; refusing to use it"
    [ "$(blkid -p -o value -s TYPE "$l1")" = ext4 ] || fail "ext4 signature: the file system on $l1 was destroyed"
    if command -v dmsetup >/dev/null &&
        dmsetup create "pbr20dm$$" --table "0 8192 linear $l1 0" 2>/dev/null; then
        dmname=pbr20dm$$
        devrefused "dm holder" "device '$l1' is in use: it is held by /dev/dm-"
        dmsetup remove "$dmname" && dmname=
    else
        echo "skip: dm holder (dmsetup create does not work here)"
    fi
    mkdir "$base/mnt"
    if mount -t ext4 "$l1" "$base/mnt" 2>/dev/null; then
        devrefused "mounted" "device '$l1' is mounted"
        umount "$base/mnt"
    else
        echo "skip: mounted loop device (mount does not work here)"
    fi
else
    echo "skip: real devices (no losetup or mkfs.ext4)"
fi

[ $fails -eq 0 ] || exit 1
echo "ok"
