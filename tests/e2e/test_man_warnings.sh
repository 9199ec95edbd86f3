#!/bin/sh
# e2e: the man pages (issue 17, item 3). Every docs/man/NAME.SECTION.scd
# is built into BUILD/man/NAME.SECTION; `man --warnings -l` renders each
# without a single warning, lexgrog reads its NAME line (what whatis,
# apropos and lintian read), and its title line names its own file.
# usage: test_man_warnings.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
build=$(dirname "$pb")
command -v scdoc >/dev/null 2>&1 || { echo "SKIP: no scdoc: man pages are not built" >&2; exit 77; }
command -v man >/dev/null 2>&1 || { echo "SKIP: no man" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

n=0
for scd in "$src"/docs/man/*.scd; do
    page=$(basename "$scd" .scd)
    name=${page%.*} sec=${page##*.}
    n=$((n + 1))
    [ "$(head -n 1 "$scd")" = "$name($sec)" ] ||
        fail "$page.scd: title line '$(head -n 1 "$scd")' is not '$name($sec)'"
    out="$build/man/$page"
    [ -f "$out" ] || { fail "$page not built (BUILD/man/$page)"; continue; }
    [ "$out" -nt "$scd" ] || [ ! "$scd" -nt "$out" ] || fail "$page is older than its source"
    for width in 80 60; do
        MANWIDTH=$width LC_ALL=C.UTF-8 man --warnings -l "$out" >"$tmp/out" 2>"$tmp/err"
        [ ! -s "$tmp/err" ] || fail "man --warnings -l $page (width $width): $(cat "$tmp/err")"
    done
    grep -q '^NAME' "$tmp/out" || fail "$page renders without NAME"
    if command -v lexgrog >/dev/null 2>&1; then
        what=$(lexgrog "$out" 2>&1)
        case $what in
        *": \"$name - "*) ;;
        *) fail "lexgrog $page: $what" ;;
        esac
    fi
done
[ "$n" -ge 10 ] || fail "only $n man pages in docs/man"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: $n man pages render without warnings"
