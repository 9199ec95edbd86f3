#!/bin/sh
# e2e: a man page for every subcommand (issue 17, item 3). Each command
# `poolbench --help` lists has docs/man/poolbench-CMD.1.scd (and, when
# scdoc built them, BUILD/man/poolbench-CMD.1), poolbench(1) names it in
# COMMANDS and SEE ALSO, and the page documents every option its
# `poolbench CMD --help` shows; no page is left for a command that is gone.
# usage: test_man_pages.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
build=$(dirname "$pb")
man="$src/docs/man"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

cmds=$("$pb" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p')
[ -n "$cmds" ] || { echo "FAIL: no commands in poolbench --help" >&2; exit 1; }
n=0
for c in $cmds; do
    n=$((n + 1))
    scd="$man/poolbench-$c.1.scd"
    [ -f "$scd" ] || { fail "command '$c' has no man page docs/man/poolbench-$c.1.scd"; continue; }
    if command -v scdoc >/dev/null 2>&1; then
        [ -f "$build/man/poolbench-$c.1" ] || fail "poolbench-$c.1 not built"
    fi
    grep -q "^\*$c\*" "$man/poolbench.1.scd" || fail "poolbench(1) COMMANDS lacks $c"
    sed -n '/^# SEE ALSO/,$p' "$man/poolbench.1.scd" | grep -q "\*poolbench-$c\*(1)" ||
        fail "poolbench(1) SEE ALSO lacks poolbench-$c(1)"
    for sect in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' 'SEE ALSO'; do
        grep -q "^# $sect\$" "$scd" || fail "poolbench-$c(1) has no $sect section"
    done
    # every long option of the command's --help (its option lines and
    # its usage), as *--opt* on the page
    opts=$("$pb" "$c" --help | grep -E '^ +-|^usage:|^       poolbench' |
        grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
    sed -n '/^# OPTIONS$/,/^# [A-Z]/p' "$scd" >"$tmp/options"
    for o in $opts; do
        grep -q -- "\*$o\*" "$tmp/options" || fail "poolbench-$c(1) OPTIONS does not document $o"
    done
done
[ "$n" -ge 8 ] || fail "only $n commands in poolbench --help"
# no page for a command poolbench does not have
for scd in "$man"/poolbench-*.1.scd; do
    c=$(basename "$scd" .1.scd)
    c=${c#poolbench-}
    echo "$cmds" | grep -qx "$c" || fail "docs/man/poolbench-$c.1.scd: no such command in poolbench --help"
done
# the global options of poolbench --help
for o in $("$pb" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    [ "$o" = --help ] && continue
    grep -q -- "\*$o\*" "$man/poolbench.1.scd" || fail "poolbench(1) does not document $o"
done

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: $n commands, each with its man page and options"
