#!/bin/sh
# e2e: poolbench --version and poolbench doctor (issue 17, item 5) against
# stub tools on a PATH of our own: the fio version and the ZFS kind and
# pool version they report, a zfs-fuse daemon that does not answer, and an
# empty PATH (fio and ZFS missing: exit 1). Never asks the real ZFS.
# usage: test_doctor.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

mkdir "$tmp/bin" "$tmp/down" "$tmp/empty"
# the stubs use shell builtins only: PATH holds nothing else
cat >"$tmp/bin/fio" <<'S'
#!/bin/sh
[ "$1" = --version ] && { echo fio-3.99; exit 0; }
exit 1
S
cat >"$tmp/bin/zpool" <<'S'
#!/bin/sh
if [ "$1" = upgrade ]; then
    echo "This system is currently running ZFS pool version 23."
    exit 0
fi
echo "usage: zpool" >&2
exit 2
S
cat >"$tmp/bin/zfs" <<'S'
#!/bin/sh
echo "usage: zfs" >&2
exit 2
S
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/zfs-fuse"
cp "$tmp/bin/fio" "$tmp/bin/zfs" "$tmp/bin/zfs-fuse" "$tmp/down/"
cat >"$tmp/down/zpool" <<'S'
#!/bin/sh
echo "connect: Connection refused" >&2
echo "Please make sure that the zfs-fuse daemon is running." >&2
exit 1
S
chmod +x "$tmp/bin/"* "$tmp/down/"*

if [ "$(id -u)" = 0 ]; then
    root="root        ok       running as root"
else
    root="root        missing  uid $(id -u): a run needs root (zpool, zfs, drop_caches): sudo poolbench run ..."
fi

# ==== --version ====
PATH="$tmp/empty" "$pb" --version >"$tmp/v" 2>"$tmp/err" ||
    fail "--version exit $?"
[ "$(sed -n 1p "$tmp/v")" = "poolbench 0.1.0" ] || fail "first line: $(sed -n 1p "$tmp/v")"
grep -qx "  fio        not found on PATH" "$tmp/v" || fail "fio line: $(cat "$tmp/v")"
grep -qx "  ZFS        not found on PATH (zfs and zpool)" "$tmp/v" ||
    fail "ZFS line: $(cat "$tmp/v")"
grep -qx "  jsmn       compiled in (header-only library, libjsmn-dev; no version of its own)" "$tmp/v" ||
    fail "jsmn line"
if command -v pkg-config >/dev/null; then
    for pair in SQLite:sqlite3 cairo:cairo libxml2:libxml-2.0 jansson:jansson; do
        name=${pair%%:*} mod=${pair#*:}
        want=$(pkg-config --modversion "$mod")
        grep -qx "  $(printf '%-10s' "$name") $want" "$tmp/v" ||
            fail "$name line is not $want: $(grep " $name " "$tmp/v")"
    done
fi
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 &&
    [ "$(cd "$(git -C "$src" rev-parse --show-toplevel)" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
    grep -Eqx "  git        [0-9A-Za-z._-]+" "$tmp/v" || fail "no git line: $(cat "$tmp/v")"
fi
[ ! -s "$tmp/err" ] || fail "--version stderr: $(cat "$tmp/err")"
[ "$("$pb" --version --short)" = "poolbench 0.1.0" ] || fail "--short"
"$pb" --version --bogus 2>"$tmp/err"
[ $? = 2 ] || fail "--version --bogus is not a usage error"

# the stubs: fio-3.99, zfs-fuse pool version 23 (OpenZFS when its module
# is loaded here: the run's detection prefers it)
zfuse=1
[ -e /sys/module/zfs ] && zfuse=0
PATH="$tmp/bin" "$pb" --version >"$tmp/v" || fail "--version exit $?"
grep -qx "  fio        fio-3.99 ($tmp/bin/fio)" "$tmp/v" ||
    fail "stub fio line: $(grep fio "$tmp/v")"
if [ $zfuse = 1 ]; then
    grep -qx "  ZFS        zfs-fuse (pool version 23) ($tmp/bin/zfs)" "$tmp/v" ||
        fail "stub ZFS line: $(grep ZFS "$tmp/v")"
fi

# ==== doctor ====
# an empty PATH: fio and ZFS missing, exit 1
PATH="$tmp/empty" "$pb" doctor --dir "$tmp" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "doctor with an empty PATH: exit $rc, not 1"
sed -n '1,4p;7,10p' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<W
$root
fio         missing  not on PATH: apt-get install fio
zfs         missing  no zfs and zpool on PATH: apt-get install zfsutils-linux (OpenZFS, Debian contrib) or zfs-fuse
zfs-answer  missing  no ZFS to ask
chromium    missing  optional, for the report's browser check: apt-get install chromium
scdoc       missing  optional, to build the man pages: apt-get install scdoc
man         missing  optional, to read the man pages: apt-get install man-db
W
if [ "$(id -u)" = 0 ]; then
    echo "poolbench doctor: run cannot work here: 3 needed checks missing" >>"$tmp/want"
else
    echo "poolbench doctor: run cannot work here: 4 needed checks missing" >>"$tmp/want"
fi
diff "$tmp/want" "$tmp/got" >&2 || fail "doctor, empty PATH"
grep -q "^loop        missing  optional, for loop: vdevs (and file cache vdevs on zfs-fuse): no losetup on PATH: apt-get install mount$" "$tmp/out" ||
    fail "loop line: $(grep ^loop "$tmp/out")"
grep -Eq "^space       (ok       [0-9.]+[MG] free in $tmp|missing  only )" "$tmp/out" ||
    fail "space line: $(grep ^space "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "doctor stderr: $(cat "$tmp/err")"

if [ $zfuse = 1 ] && [ "$(id -u)" = 0 ]; then
    # everything needed there (space permitting): exit 0
    PATH="$tmp/bin" "$pb" doctor --dir "$tmp" >"$tmp/out"
    rc=$?
    sed -n '2,4p' "$tmp/out" >"$tmp/got"
    cat >"$tmp/want" <<W
fio         ok       fio-3.99 ($tmp/bin/fio)
zfs         ok       zfs-fuse ($tmp/bin/zfs)
zfs-answer  ok       zfs-fuse (pool version 23) answers (its daemon is up)
W
    diff "$tmp/want" "$tmp/got" >&2 || fail "doctor, stub tools"
    if grep -q "^space       ok" "$tmp/out"; then
        [ $rc = 0 ] || fail "doctor with every need met: exit $rc"
        [ "$(tail -1 "$tmp/out")" = "poolbench doctor: run can work here (optional tools missing)" ] ||
            fail "last line: $(tail -1 "$tmp/out")"
    fi
    # -q: only what is not ok
    PATH="$tmp/bin" "$pb" doctor -q --dir "$tmp" >"$tmp/out"
    grep -q "^fio \|^root " "$tmp/out" && fail "-q printed ok lines"

    # the daemon does not answer: exit 1
    PATH="$tmp/down" "$pb" doctor --dir "$tmp" >"$tmp/out"
    rc=$?
    [ $rc = 1 ] || fail "doctor with zfs-fuse down: exit $rc"
    grep -qx "zfs-answer  missing  the zfs-fuse daemon does not answer: start it (service zfs-fuse start; package zfs-fuse)" "$tmp/out" ||
        fail "daemon down line: $(grep zfs-answer "$tmp/out")"
    [ "$(tail -1 "$tmp/out")" = "poolbench doctor: run cannot work here: 1 needed check missing" ] ||
        fail "last line, daemon down: $(tail -1 "$tmp/out")"
fi

# usage
"$pb" doctor --help | grep -q "^usage: poolbench doctor" || fail "--help"
"$pb" doctor --bogus 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "doctor --bogus: exit $rc"
"$pb" doctor extra 2>"$tmp/err"
[ $? = 2 ] || fail "doctor extra: not a usage error"
grep -q "unexpected argument 'extra'" "$tmp/err" || fail "extra: $(cat "$tmp/err")"
"$pb" help | grep -q "^  doctor " || fail "help lists no doctor"

# the man page renders without warnings
if command -v scdoc >/dev/null && command -v man >/dev/null; then
    scdoc <"$src/docs/man/poolbench-doctor.1.scd" >"$tmp/page" || fail "scdoc poolbench-doctor.1"
    w=$(MANWIDTH=80 man --warnings -l "$tmp/page" 2>&1 >/dev/null)
    [ -z "$w" ] || fail "man warnings: $w"
fi

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo ok
