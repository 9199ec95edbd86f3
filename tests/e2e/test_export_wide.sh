#!/bin/sh
# e2e: export --csv --wide (issue 19, item 13): one row per source, host,
# config, test and job; config dimensions, test parameters and metrics as
# sorted columns with exact values; --json --wide and list --json give
# numbers as JSON numbers and parameters as objects.
# usage: test_export_wide.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures/fio-json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v jq >/dev/null || { echo "SKIP: no jq" >&2; exit 77; }

db="$tmp/t.db"
cd "$fx" || exit 1
"$pb" ingest --db "$db" -q --label rs128k --set recordsize=128k \
    --set compression=lz4 fio-3.33_randread_4k_qd4_libaio.json || fail ingest
"$pb" ingest --db "$db" -q --label rs16k --set recordsize=16k \
    --set compression=off fio-3.33_write_64k_fsync16.json \
    fio-3.33_three-jobs.json || fail ingest

"$pb" export --db "$db" --csv --wide --metric '^(read|write)_iops$' \
    >"$tmp/w.csv" || fail "export --wide"
tr -d '\r' <"$tmp/w.csv" >"$tmp/w"
want='source_path,format,host,config,test,tool,job,compression,recordsize,bs,bs_write,direct,fsync,iodepth,ioengine,numjobs,runtime,rw,rwmixread,size,read_iops,write_iops'
[ "$(head -n 1 "$tmp/w")" = "$want" ] || fail "columns: $(head -n 1 "$tmp/w")"
[ "$(wc -l <"$tmp/w")" -eq 6 ] || fail "rows: $(cat "$tmp/w")"
# cell JOB COLUMN: the value of COLUMN in the row of job JOB
cell() {
    awk -F, -v job="$1" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
        if ($i == col) c = i; next } $7 == job { print $c }' "$tmp/w"
}
[ "$(cell randread-4k-qd4 read_iops)" = 37925.925926 ] ||
    fail "randread read_iops '$(cell randread-4k-qd4 read_iops)'"
[ "$(cell randread-4k-qd4 recordsize)" = 131072 ] || fail "recordsize 128k"
[ "$(cell randread-4k-qd4 compression)" = lz4 ] || fail "compression lz4"
[ "$(cell randread-4k-qd4 bs)" = 4096 ] || fail "bs 4k"
[ "$(cell randread-4k-qd4 write_iops)" = "" ] || fail "randread write_iops"
[ "$(cell rw-4k-16k read_iops)" = 4255.319149 ] || fail "rw read_iops"
[ "$(cell rw-4k-16k write_iops)" = 4382.978723 ] || fail "rw write_iops"
[ "$(cell rw-4k-16k bs_write)" = 16384 ] || fail "rw bs_write"
[ "$(cell rw-4k-16k rwmixread)" = 50 ] || fail "rw rwmixread"
[ "$(cell seqwrite-64k recordsize)" = 16384 ] || fail "recordsize 16k"
[ "$(cell seqwrite-64k fsync)" = 16 ] || fail "fsync 16"

# JSON: the same rows, parameters as objects, numbers as numbers
"$pb" export --db "$db" --json --wide --metric '^(read|write)_iops$' \
    >"$tmp/w.json" || fail "export --json --wide"
got=$(jq -c '.[] | select(.job == "randread-4k-qd4") |
    [.config_params, .test_params.bs, .test_params.rw, .metrics]' "$tmp/w.json")
[ "$got" = '[{"compression":"lz4","recordsize":131072},4096,"randread",{"read_iops":37925.925926}]' ] ||
    fail "wide json: $got"
# export --json: each row has its parameters as objects
"$pb" export --db "$db" --json --metric '^read_iops$' --config rs128k \
    >"$tmp/e.json" || fail "export --json"
got=$(jq -c '.[] | [.value == 37925.925926, .config_params, .test_params.bs, .test_params.rw]' "$tmp/e.json")
[ "$got" = '[true,{"compression":"lz4","recordsize":131072},4096,"randread"]' ] ||
    fail "export json params: $got"
# list --json: ids, counts and values are numbers, params objects
"$pb" list --db "$db" --json tests >"$tmp/t.json" || fail "list tests"
got=$(jq -c '.[] | select(.test == "fio write bs=64k iodepth=1 fsync=16") |
    [(.id | type), .results, .params.bs, .params.ioengine]' "$tmp/t.json")
[ "$got" = '["number",13,65536,"psync"]' ] || fail "list tests json: $got"
"$pb" list --db "$db" --json configs >"$tmp/c.json" || fail "list configs"
got=$(jq -c '.[] | select(.config == "rs128k") | [.results, .params]' "$tmp/c.json")
[ "$got" = '[14,{"compression":"lz4","recordsize":131072}]' ] ||
    fail "list configs json: $got"
"$pb" list --db "$db" --json results --metric '^read_iops$' --config rs128k \
    >"$tmp/r.json" || fail "list results"
got=$(jq -c '.[0] | [.value, .samples]' "$tmp/r.json")
[ "$got" = '[37925.925926,null]' ] || fail "list results json: $got"
"$pb" list --db "$db" --json >"$tmp/s.json" || fail "list sources"
got=$(jq -c '[.[] | .bytes | type] | unique' "$tmp/s.json")
[ "$got" = '["number"]' ] || fail "list sources bytes: $got"

[ $fails -eq 0 ] || exit 1
echo "ok"
