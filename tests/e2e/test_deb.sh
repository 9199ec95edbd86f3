#!/bin/sh
# e2e: the Debian package (issue 17, item 2). Builds poolbench from the
# source the way docs/packaging.md says (a fresh build folder with
# Debian's hardening flags from dpkg-buildflags, then `cpack -G DEB`),
# checks the control fields (Depends computed by dpkg-shlibdeps equal the
# packages of the binary's NEEDED libraries, the Recommends the issue
# names) and the contents (dpkg-deb -c), installs it with `dpkg --root`
# into a scratch root (nothing on this machine changes), runs the
# installed `poolbench --version`, renders every man page with `man
# --warnings`, runs lintian (every tag left must be one docs/packaging.md
# explains) and purges it again.
# usage: test_deb.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
for tool in cmake cpack dpkg dpkg-deb dpkg-buildflags dpkg-shlibdeps \
            dpkg-query lintian scdoc man gzip objdump; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "SKIP: $tool is missing" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# ---- build as docs/packaging.md says ----
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
export CFLAGS LDFLAGS
b="$tmp/build"
if ! cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=None \
        -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >"$tmp/cmake.log" 2>&1; then
    cat "$tmp/cmake.log" >&2; echo "FAIL: configure" >&2; exit 1
fi
if ! cmake --build "$b" -j 2 --target poolbench man >"$tmp/build.log" 2>&1; then
    tail -n 30 "$tmp/build.log" >&2; echo "FAIL: build" >&2; exit 1
fi
if ! (cd "$b" && cpack -G DEB -B "$tmp/out") >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log" >&2; echo "FAIL: cpack" >&2; exit 1
fi
ver=$(sed -n 's/^project(poolbench VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
rev=$(sed -n '1s/^poolbench ([^-]*-\([^)]*\)).*/\1/p' "$src/cmake/deb/changelog")
arch=$(dpkg --print-architecture)
deb="$tmp/out/poolbench_${ver}-${rev}_${arch}.deb"
[ -f "$deb" ] || { ls "$tmp/out" >&2; echo "FAIL: no $deb" >&2; exit 1; }

# ---- control fields ----
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = poolbench ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$ver-$rev" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = utils ] || fail "Section: $(field Section)"
[ "$(field Priority)" = optional ] || fail "Priority: $(field Priority)"
[ "$(field Recommends)" = "fio, zfs-fuse | zfsutils-linux, bonnie++" ] ||
    fail "Recommends: $(field Recommends)"
field Maintainer | grep -q '^[^<]* <[^>]*@[^>]*>$' || fail "Maintainer: $(field Maintainer)"
[ "$(field Description | sed -n 1p)" = "benchmark results of ZFS tuning in one database and one report" ] ||
    fail "Description synopsis: $(field Description | sed -n 1p)"
# Depends: the packages that hold the libraries the binary names
# (NEEDED), each with a version, found here independently of dpkg-shlibdeps
deps=$(field Depends)
want=$(objdump -p "$b/poolbench" | awk '$1 == "NEEDED" { print $2 }' |
    while read -r so; do
        path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
        [ -n "$path" ] || { echo "?$so"; continue; }
        real=$(readlink -f "$path")
        dpkg -S "$path" 2>/dev/null || dpkg -S "$real" 2>/dev/null ||
            dpkg -S "/usr$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null ||
            echo "?$so:"
    done | sed 's/:.*//; s/:[a-z0-9]*$//' | sort -u)
got=$(echo "$deps" | tr ',' '\n' | sed 's/^ *//; s/ .*//; s/:.*//' | sort -u)
[ "$want" = "$got" ] ||
    fail "Depends names $(echo $got) but the binary's libraries are in $(echo $want)"
echo "$deps" | tr ',' '\n' | grep -v '(>= ' | grep -q . &&
    fail "a Depends without a version: $deps"
# every Depends is satisfied on this machine (a Debian 12 like the target)
echo "$deps" | tr ',' '\n' | sed 's/^ *//' | while read -r dep; do
    name=${dep%% *}
    min=$(echo "$dep" | sed -n 's/.*(>= \(.*\)).*/\1/p')
    have=$(dpkg-query -W -f '${Version}' "$name" 2>/dev/null)
    if [ -z "$have" ] || ! dpkg --compare-versions "$have" ge "$min"; then
        echo "FAIL: $dep not satisfied here (have '${have}')" >&2
        echo x >>"$tmp/depfail"
    fi
done
[ ! -f "$tmp/depfail" ] || fail "some Depends are not satisfied here"

# ---- contents ----
dpkg-deb -c "$deb" >"$tmp/contents" || fail "dpkg-deb -c"
awk '$2 != "root/root" { print }' "$tmp/contents" | grep -q . &&
    fail "files not owned by root/root: $(awk '$2 != "root/root"' "$tmp/contents")"
awk '{ print $6 }' "$tmp/contents" | grep -v '/$' | sed 's#^\./#/#' | sort >"$tmp/files"
{
    echo /usr/bin/poolbench
    echo /usr/share/doc/poolbench/README.md
    echo /usr/share/doc/poolbench/changelog.Debian.gz
    echo /usr/share/doc/poolbench/copyright
    for f in "$src"/docs/*.md; do echo "/usr/share/doc/poolbench/docs/${f##*/}"; done
    for f in "$src"/examples/*; do echo "/usr/share/doc/poolbench/examples/${f##*/}"; done
    for f in "$src"/docs/man/*.scd; do
        page=$(basename "$f" .scd)
        echo "/usr/share/man/man${page##*.}/$page.gz"
    done
    [ -f "$src/completion/poolbench.bash" ] &&
        echo /usr/share/bash-completion/completions/poolbench
    [ -f "$src/completion/_poolbench" ] &&
        echo /usr/share/zsh/vendor-completions/_poolbench
} | sort >"$tmp/want_files"
diff "$tmp/want_files" "$tmp/files" >&2 || fail "package contents differ (< wanted, > in the .deb)"
grep -q ' \./usr/bin/poolbench$' "$tmp/contents" &&
    grep ' \./usr/bin/poolbench$' "$tmp/contents" | grep -q '^-rwxr-xr-x' ||
    fail "usr/bin/poolbench is not -rwxr-xr-x"

# ---- install into a scratch root ----
root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/log"
: >"$root/var/lib/dpkg/status"
notroot=""
[ "$(id -u)" -eq 0 ] || notroot="--force-not-root"
# The scratch root has no libc6 &c. registered: their presence is
# checked above against this machine's dpkg database instead.
# shellcheck disable=SC2086
dpkg --root="$root" --log="$root/var/log/dpkg.log" $notroot \
    --force-depends -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
    { cat "$tmp/dpkg.log" >&2; fail "dpkg --root -i"; }
st=$(dpkg --root="$root" -s poolbench 2>/dev/null | sed -n 's/^Status: //p')
[ "$st" = "install ok installed" ] || fail "dpkg status: $st"
got=$("$root/usr/bin/poolbench" --version | head -n 1)
case $got in
"poolbench $ver" | "poolbench $ver "*) ;;
*) fail "installed --version: $got (want poolbench $ver)" ;;
esac
# the changelog is the source's, compressed without name or time stamp
gzip -dc "$root/usr/share/doc/poolbench/changelog.Debian.gz" |
    cmp -s - "$src/cmake/deb/changelog" || fail "changelog.Debian.gz differs"
mtime=$(od -An -tu4 -j4 -N4 "$root/usr/share/doc/poolbench/changelog.Debian.gz" | tr -d ' ')
[ "$mtime" = 0 ] || fail "changelog.Debian.gz carries a time stamp ($mtime)"
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
    "$root/usr/share/doc/poolbench/copyright" || fail "copyright is not DEP-5"

# ---- man renders every page from the installed tree without warnings ----
for f in "$src"/docs/man/*.scd; do
    page=$(basename "$f" .scd)
    name=${page%.*} sec=${page##*.}
    out=$(MANPATH="$root/usr/share/man" MANWIDTH=80 man --warnings "$sec" "$name" 2>"$tmp/man.err")
    [ ! -s "$tmp/man.err" ] || fail "man $sec $name warns: $(cat "$tmp/man.err")"
    echo "$out" | grep -q "^NAME" || fail "man $sec $name: no NAME section"
done
out=$(MANPATH="$root/usr/share/man" MANWIDTH=200 man poolbench 2>/dev/null)
case $out in
*"poolbench - ZFS tuning benchmarks in one database and one report"*) ;;
*) fail "man poolbench: no NAME line" ;;
esac

# ---- lintian: every tag left is explained in docs/packaging.md ----
lintian --pedantic --display-info "$deb" >"$tmp/lintian" 2>"$tmp/lintian.err"
tags=$(sed -n 's/^[EWIPXO]: poolbench[^:]*: \([a-z0-9+.-]*\).*/\1/p' "$tmp/lintian" | sort -u)
for t in $tags; do
    grep -q "^| \`$t\`" "$src/docs/packaging.md" ||
        fail "lintian tag $t is not explained in docs/packaging.md: $(grep "$t" "$tmp/lintian")"
done
grep -q '^E:' "$tmp/lintian" && fail "lintian errors: $(grep '^E:' "$tmp/lintian")"
# and every tag the docs explain is still real (the list stays honest)
sed -n 's/^| `\([a-z0-9+.-]*\)` | .*/\1/p' "$src/docs/packaging.md" |
while read -r t; do
    echo "$tags" | grep -qx "$t" || echo "note: lintian no longer reports $t" >&2
done

# ---- purge leaves nothing of the package ----
dpkg --root="$root" --log="$root/var/log/dpkg.log" $notroot \
    --purge poolbench >"$tmp/purge.log" 2>&1 ||
    { cat "$tmp/purge.log" >&2; fail "dpkg --purge"; }
left=$(find "$root/usr" -type f 2>/dev/null)
[ -z "$left" ] || fail "left after purge: $left"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: $(basename "$deb") built, installed into a scratch root, ran, purged; lintian: $(echo $tags)"
