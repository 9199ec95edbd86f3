#!/bin/sh
# e2e guard: a clone without ../shared beside it passes its tests. Every
# test that reads the shared corpus (the list CMake writes to
# BUILD/corpus_tests.sh: the unit tests, the regress seed replays and the
# e2e scripts that take the corpus folder) runs again with the corpus
# folder empty, and must pass or skip (exit 0 or 77), never fail: its
# fixture part runs, its corpus part is skipped with a note. The folder
# is emptied by mounting an empty one over it in a private mount namespace
# (unshare -m as root, unshare -rm otherwise), so the very binaries and
# paths of the build are used; where no namespace can be made, or the
# corpus is absent anyway, the tests run as they are.
# usage: test_no_corpus.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 corpus=""
# (not the brace form of $3: CMake lists the scripts that use it as readers of
# the corpus, and this one must not run itself)
[ $# -ge 3 ] && corpus=$3
build=$(dirname "$pb")
list="$build/corpus_tests.sh"
[ -f "$list" ] || { echo "FAIL: no $list (made by CMakeLists.txt)" >&2; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$tmp'" EXIT
mkdir "$tmp/empty"

# The runner: each line of the list is "t NAME WORKDIR COMMAND...".
cat >"$tmp/run.sh" <<'EOF'
fails=0 n=0
t() {
    name=$1 dir=$2
    shift 2
    n=$((n + 1))
    (cd "$dir" && "$@") >"$OUT/$name.log" 2>&1
    rc=$?
    case $rc in
    0 | 77) ;;
    *)
        echo "FAIL: $name exit $rc with the corpus folder empty:" >&2
        tail -8 "$OUT/$name.log" >&2
        fails=$((fails + 1))
        ;;
    esac
}
if [ -n "$CORPUS" ] && [ -d "$CORPUS" ]; then
    mount --bind "$EMPTY" "$CORPUS" || exit 3
    [ -z "$(ls -A "$CORPUS")" ] || { echo "FAIL: the corpus is still seen" >&2; exit 1; }
fi
. "$LIST"
echo "$n tests ran with the corpus folder empty, $fails failed"
[ $fails -eq 0 ]
EOF

export CORPUS="$corpus" EMPTY="$tmp/empty" LIST="$list" OUT="$tmp" \
    POOLBENCH_CONFIG=none
if [ -z "$corpus" ] || [ ! -d "$corpus" ]; then
    echo "note: no corpus folder here (${corpus:-none given}): the tests run as they are"
    CORPUS="" sh "$tmp/run.sh"
    exit $?
fi
if [ "$(id -u)" -eq 0 ]; then
    ns="unshare -m"
else
    ns="unshare -rm"
fi
if ! $ns true 2>/dev/null; then
    echo "skip: cannot make a mount namespace ($ns) to hide $corpus"
    exit 77
fi
$ns sh "$tmp/run.sh"
rc=$?
[ $rc -ne 3 ] || { echo "skip: cannot mount over $corpus"; exit 77; }
exit $rc
