#!/bin/sh
# e2e: `poolbench ingest --dump INPUT` must print exactly EXPECTED.
# usage: dump_diff.sh POOLBENCH INPUT EXPECTED  (run in fixtures/)
set -u
bin=$1 input=$2 expected=$3
out=$("$bin" ingest --dump "$input")
rc=$?
if [ $rc -ne 0 ]; then
    echo "ingest --dump $input exited $rc" >&2
    exit 1
fi
printf '%s\n' "$out" | diff -u "$expected" - || {
    echo "regenerate with: cd fixtures && poolbench ingest --dump $input > $expected" >&2
    exit 1
}
