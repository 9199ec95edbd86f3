#!/bin/sh
# tests/golden/compare.sh OLD_POOLBENCH NEW_POOLBENCH [CORPUS_DIR]
#
# Records both builds with tests/golden/record.sh (into /tmp) and compares
# the recordings file by file: exit 0 when byte-identical, 1 with the
# differing files listed (and the first lines of each difference).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$here/record.sh" "$1" "$tmp/old" ${3:+"$3"} >/dev/null || exit 2
sh "$here/record.sh" "$2" "$tmp/new" ${3:+"$3"} >/dev/null || exit 2
n=$(find "$tmp/old" -type f | wc -l)
if diff -r -q "$tmp/old" "$tmp/new" >"$tmp/d"; then
    echo "golden: byte-identical ($n files)"
    exit 0
fi
echo "golden: $(wc -l <"$tmp/d") of $n files differ:"
sed "s#$tmp/##g" "$tmp/d" | head -40
diff -r "$tmp/old" "$tmp/new" | sed "s#$tmp/##g" | head -60
exit 1
