#!/bin/sh
# e2e: scripts/demo, the first command of the README, end to end on a clean
# copy of the source tree (the files git knows or would, as a fresh clone has them;
# no build folder): it builds, ingests the sample results, runs the quick
# plan on real pools when root and a ZFS answers (the demo itself skips it
# otherwise, saying why), writes the report, exits 0 and prints where the
# report is. As root it then runs again as a normal user (nobody) on the
# same copy: no pools, a line saying so, the report written all the same.
# usage: test_demo.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
src=$2
tmp=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$tmp'" EXIT
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }

# -- the clean copy: what a clone holds (the working tree's version of
# each file git knows), or the tree without build outputs when this is no
# git checkout
copy="$tmp/poolbench"
mkdir "$copy"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
        tar -xf - -C "$copy" || fail "copy of the tree"
else
    (cd "$src" && tar --exclude='./build*' --exclude=./demo-out -cf - .) |
        tar -xf - -C "$copy" || fail "copy of the tree"
fi
[ -x "$copy/scripts/demo" ] || { echo "FAIL: no scripts/demo in the copy" >&2; exit 1; }

# demo_ok LOG: the demo's output says where the report is, and it is there
demo_ok() {
    rep=$(sed -n 's/^report: *//p' "$1")
    [ "$rep" = "$copy/demo-out/report/index.html" ] ||
        fail "$1: no 'report: $copy/demo-out/report/index.html' line: $(tail -5 "$1")"
    [ -s "$rep" ] || fail "$1: the report $rep is not there"
    grep -q "^database: $copy/demo-out/poolbench.db$" "$1" ||
        fail "$1: no database line"
    db="$copy/demo-out/poolbench.db"
    # every sample folder gave results: one format each at least
    got=$(sqlite3 "$db" "SELECT group_concat(format, ' ') FROM
        (SELECT DISTINCT format FROM source ORDER BY format)")
    for f in bonnie-csv fio-json fio-log fio-terse fio-text iozone pts-xml table zfs-props; do
        case " $got " in *" $f "*) ;; *) fail "$1: no $f source (formats: $got)" ;; esac
    done
    # a value read from a sample file: the 4k random read fixture's IOPS
    v=$(sqlite3 "$db" "SELECT value FROM v_result WHERE source_path LIKE
        '%fio-json/fio-3.33_randread_4k_qd4_libaio.json' AND metric = 'read_iops'")
    [ -n "$v" ] || fail "$1: the randread fixture's read_iops is missing"
}

uid=$(id -u)
# -- as the user running the tests (root in CI)
(cd "$tmp" && "$copy/scripts/demo") >"$tmp/demo.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "scripts/demo exit $rc: $(tail -15 "$tmp/demo.log")"
demo_ok "$tmp/demo.log"
if [ "$uid" -ne 0 ]; then
    grep -q "^== no ZFS run: not root" "$tmp/demo.log" ||
        fail "not root, yet no 'no ZFS run: not root' line"
elif grep -q "^== no ZFS run" "$tmp/demo.log"; then
    echo "note: $(grep '^== no ZFS run' "$tmp/demo.log"), the run part skipped"
else
    grep -q "plan 'quick': 8 cells: 8 ran" "$tmp/demo.log" ||
        fail "the quick plan did not run its 8 cells: $(grep "plan 'quick'" "$tmp/demo.log")"
    grep -q "^run: *$copy/demo-out/run-quick/" "$tmp/demo.log" ||
        fail "no 'run:' line"
fi

# -- as a normal user on the same copy (its build is already there)
if [ "$uid" -eq 0 ] && command -v runuser >/dev/null 2>&1; then
    rm -rf "$copy/demo-out"
    chmod 755 "$tmp"
    mkdir "$tmp/home"
    chown -R nobody "$copy" "$tmp/home"
    (cd "$copy" && HOME="$tmp/home" runuser -u nobody -- scripts/demo) \
        >"$tmp/user.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "scripts/demo as nobody: exit $rc: $(tail -15 "$tmp/user.log")"
    grep -q "^== no ZFS run: not root" "$tmp/user.log" ||
        fail "as nobody: no 'no ZFS run: not root' line"
    demo_ok "$tmp/user.log"
else
    echo "note: not root, the demo ran once as uid $uid"
fi

[ $fails -eq 0 ] || exit 1
echo ok
