#!/bin/sh
# e2e: install like a real tool (issue 17, item 1). `cmake --install` of
# this build into a temporary prefix (no root needed) puts the binary,
# the man pages, the completions (when the source has them), the docs
# and the example plans under the GNU folders; the installed binary
# runs (--version, ingest a fixture, list, report) and `man` reads its
# pages from there; the uninstall target removes every file again.
# usage: test_install.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
build=$(dirname "$pb")
tmp=$(mktemp -d)
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
[ -f "$build/cmake_install.cmake" ] ||
    { echo "SKIP: $build is not a CMake build folder" >&2; exit 77; }

# The test's install must not replace the manifest of a real install
# made from this build (the uninstall target reads it): keep it aside.
manifest="$build/install_manifest.txt"
[ -f "$manifest" ] && cp -p "$manifest" "$tmp/manifest.saved"
restore() {
    if [ -f "$tmp/manifest.saved" ]; then
        cp -p "$tmp/manifest.saved" "$manifest"
    else
        rm -f "$manifest"
    fi
    rm -rf "$tmp"
}
trap restore EXIT

prefix="$tmp/prefix with space"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "cmake --install exit"; exit 1; }

# ---- files in place (GNUInstallDirs with the default lib/share names) ----
doc="$prefix/share/doc/poolbench"
for f in bin/poolbench share/doc/poolbench/README.md \
         share/doc/poolbench/copyright \
         share/doc/poolbench/docs/plan-format.md \
         share/doc/poolbench/docs/label-rules.md \
         share/doc/poolbench/examples/quick.ini \
         share/doc/poolbench/examples/layouts.ini; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/bin/poolbench" ] || fail "bin/poolbench is not executable"
# every docs/*.md and examples/* of the source, nothing else
for f in "$src"/docs/*.md; do
    [ -f "$doc/docs/$(basename "$f")" ] || fail "doc missing: $(basename "$f")"
done
n_src=$(ls "$src/examples" | wc -l)
n_inst=$(ls "$doc/examples" | wc -l)
[ "$n_src" = "$n_inst" ] || fail "examples: $n_inst installed, $n_src in source"
cmp -s "$src/examples/quick.ini" "$doc/examples/quick.ini" ||
    fail "examples/quick.ini differs from the source"
# the Debian changelog belongs to the package only
[ ! -e "$doc/changelog.Debian.gz" ] || fail "changelog.Debian.gz in a plain install"
# completions: installed exactly when the source has them (branch cli17)
if [ -f "$src/completion/poolbench.bash" ]; then
    cmp -s "$src/completion/poolbench.bash" \
        "$prefix/share/bash-completion/completions/poolbench" ||
        fail "bash completion not installed as share/bash-completion/completions/poolbench"
else
    [ ! -e "$prefix/share/bash-completion" ] || fail "bash completion folder without a source"
fi
if [ -f "$src/completion/_poolbench" ]; then
    cmp -s "$src/completion/_poolbench" \
        "$prefix/share/zsh/vendor-completions/_poolbench" ||
        fail "zsh completion not installed as share/zsh/vendor-completions/_poolbench"
fi

# ---- man pages: one per source page, gzipped, read by man from the prefix ----
if command -v scdoc >/dev/null 2>&1 && [ -d "$build/man" ]; then
    for scd in "$src"/docs/man/*.scd; do
        page=$(basename "$scd" .scd)
        sec=${page##*.}
        gz="$prefix/share/man/man$sec/$page.gz"
        [ -f "$gz" ] || { fail "man page not installed: man$sec/$page.gz"; continue; }
        gzip -t "$gz" || fail "$page.gz is not gzip"
    done
    if command -v man >/dev/null 2>&1; then
        out=$(MANPATH="$prefix/share/man" MANWIDTH=80 man --warnings poolbench-plan 2>"$tmp/man.err")
        [ ! -s "$tmp/man.err" ] || fail "man poolbench-plan warns: $(cat "$tmp/man.err")"
        case $out in
        *"poolbench-plan - the plan file of poolbench run"*) ;;
        *) fail "man poolbench-plan does not show its NAME line" ;;
        esac
        path=$(MANPATH="$prefix/share/man" man -w poolbench-ingest)
        [ "$path" = "$prefix/share/man/man1/poolbench-ingest.1.gz" ] ||
            fail "man -w poolbench-ingest: $path"
    fi
else
    echo "note: scdoc missing, man pages not checked" >&2
fi

# ---- the installed binary works ----
ipb="$prefix/bin/poolbench"
ver=$("$ipb" --version | head -n 1)
case $ver in
"poolbench "[0-9]*) ;;
*) fail "--version: $ver" ;;
esac
db="$tmp/t.db"
cd "$src/fixtures" || exit 1
"$ipb" ingest -q --db "$db" fio-json/fio-3.33_randread_4k_qd4_libaio.json ||
    fail "installed ingest exit $?"
got=$("$ipb" export --db "$db" --csv --metric '^read_iops$' | tr -d '\r' | sed -n 2p)
[ "$got" = "fio-json/fio-3.33_randread_4k_qd4_libaio.json,fio-json,,randread-4k-qd4,fio randread bs=4k iodepth=4 direct=1,fio,randread-4k-qd4,read_iops,37925.925926,ops/s,higher,," ] ||
    fail "installed export: $got"
"$ipb" report -q --db "$db" -o "$tmp/report" || fail "installed report exit $?"
grep -q 'data-v="37925.92593"' "$tmp/report/index.html" ||
    fail "report lacks read_iops 37925.92593"
# the installed examples are plans the installed binary takes (dry run
# needs ZFS; only the file is checked here)
grep -q '^\[plan\]' "$doc/examples/quick.ini" || fail "quick.ini has no [plan]"

# ---- uninstall removes every file the install wrote ----
cmake --build "$build" --target uninstall >"$tmp/uninstall.log" 2>&1 ||
    { cat "$tmp/uninstall.log" >&2; fail "uninstall target exit"; }
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
[ ! -e "$doc" ] || fail "share/doc/poolbench left after uninstall"
# a second uninstall is harmless
cmake --build "$build" --target uninstall >"$tmp/uninstall2.log" 2>&1 ||
    fail "second uninstall exit"
grep -q 'Already gone' "$tmp/uninstall2.log" || fail "second uninstall says nothing"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: installed into a temporary prefix, ran, uninstalled"
