#!/bin/sh
# e2e: the usage lines of every command's --help list every option of the
# command (issue 39). For each command `poolbench help` lists, and for
# `poolbench help` and `poolbench --version --help` themselves:
#   - every option of the command that its --help text mentions (a long
#     option of its getopt table, `poolbench __complete options CMD`, or
#     one its option lines define; a short option its option lines
#     define, `  -j, --threads N`) is on the usage lines, spelled as in
#     the text: `-j` and `--threads` both;
#   - every option of its getopt table is on the usage lines and described
#     below them.
# Mentions of other programs' options (`zpool upgrade -v`, `bonnie++ -x`,
# ingest's `--label` in relabel's text) are not the command's and are left
# alone. -h and --help, which every command takes, need not be listed.
# The usage lines are the block from `usage:` to the first blank line.
# usage: test_help_usage.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# check NAME TABLE_OPTIONS ARGS...: NAME for messages, TABLE_OPTIONS the
# long options of its getopt table (one per line), ARGS print its --help.
check() {
    name=$1 table=$2
    shift 2
    "$@" >"$tmp/help" 2>&1 || { fail "$name: '$*' exits $?"; return; }
    sed -n '1,/^$/p' "$tmp/help" >"$tmp/usage"
    sed '1,/^$/d' "$tmp/help" >"$tmp/body"
    head -n 1 "$tmp/usage" | grep -q '^usage: poolbench' ||
        { fail "$name: --help does not start with 'usage: poolbench'"; return; }
    # tokens of the usage lines, one per line: [-o|--output DIR] gives -o
    # and --output
    tr -s ' []|.=' '\n' <"$tmp/usage" | grep -- '^-' >"$tmp/utok"
    # the command's own options: its table and its option lines
    defs=$(grep -E '^ +-' "$tmp/body" | sed 's/^ *//; s/  .*//' |
        grep -oE -- '(^|, )--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^, //')
    own=$(printf '%s\n%s\n' "$table" "$defs" | grep -v '^$' | sort -u)
    # every option the text mentions (after a blank, a quote, a bracket,
    # a bar or a comma: not inside a word or a path)
    mentioned=$(grep -oE -- "(^|[][ ,'\`(\"|])--?[A-Za-z][A-Za-z0-9-]*" "$tmp/body" |
        sed "s/^[][ ,'\`(\"|]*//" | grep -E '^(--[a-z]|-[A-Za-z]$)' | sort -u)
    for o in $mentioned; do
        case $o in -h|--help) continue ;; esac
        echo "$own" | grep -qx -- "$o" || continue
        grep -qx -- "$o" "$tmp/utok" ||
            fail "$name: --help describes $o but its usage lines do not list it"
    done
    for o in $table; do
        case $o in --help) continue ;; esac
        grep -qx -- "$o" "$tmp/utok" ||
            fail "$name: option $o (getopt table) is not on the usage lines"
        grep -q -- "$o" "$tmp/body" ||
            fail "$name: option $o (getopt table) is not described in --help"
    done
    n=$((n + 1))
}

n=0
cmds=$("$pb" help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\)  .*/\1/p')
[ -n "$cmds" ] || { echo "FAIL: no commands in poolbench help" >&2; exit 1; }
for c in $cmds; do
    table=$("$pb" __complete options "$c" | sed 's/=$//')
    [ -n "$table" ] || fail "$c: __complete options $c lists nothing"
    check "$c" "$table" "$pb" "$c" --help
    # `poolbench help CMD` prints the same text
    "$pb" help "$c" >"$tmp/help2" 2>&1
    cmp -s "$tmp/help" "$tmp/help2" || fail "$c: 'poolbench help $c' differs from '$c --help'"
done
# poolbench help: its options are --version (and --help)
check help "--version" "$pb" help
check --version "--short" "$pb" --version --help

# the test catches what it is for: a usage line without an option
printf 'usage: poolbench x [--db FILE]\n\n  --db FILE    database\n  -q, --quiet  quiet\n' >"$tmp/fake"
before=$fails
check fake "--db
--quiet" cat "$tmp/fake" 2>"$tmp/fake.err"
grep -q -- 'describes -q but' "$tmp/fake.err" &&
    grep -q -- 'describes --quiet but' "$tmp/fake.err" ||
    { echo "FAIL: a usage line without -q and --quiet was not caught" >&2; exit 1; }
fails=$before
n=$((n - 1))

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
echo "ok: $n --help texts, every option on their usage lines"
