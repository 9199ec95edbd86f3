#!/bin/sh
# e2e: filters that match nothing exit 2 with the nearest name (issue 19,
# item 11), for report, list, export and best; option typos get the
# nearest option; nothing is written by a refused report.
# usage: test_filter_errors.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

db="$tmp/t.db"
"$pb" ingest --db "$db" -q "$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json" \
    "$fx/fio-json/fio-3.33_write_64k_fsync16.json" \
    "$fx/bonnie-csv/"*.csv 2>"$tmp/err" || fail "ingest: $(cat "$tmp/err")"

# expect EXIT STDERR-LINE CMD...: exit status and first line of stderr
expect() {
    want_rc=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(head -n 1 "$tmp/err")
    [ $rc -eq "$want_rc" ] || fail "$*: exit $rc, want $want_rc"
    [ "$got" = "$want" ] || fail "$*: stderr '$got', want '$want'"
}

expect 2 "poolbench: report: no test matches 'randraed'; did you mean 'randread'?" \
    "$pb" report --db "$db" -o "$tmp/r" --test randraed
[ -e "$tmp/r" ] && fail "a refused report wrote $tmp/r"
expect 2 "poolbench: list: no metric matches 'read_ipos'; did you mean 'read_iops'?" \
    "$pb" list --db "$db" results --metric read_ipos
expect 2 "poolbench: export: no config matches 'randread-4k-qd5'; did you mean 'randread-4k-qd4'?" \
    "$pb" export --db "$db" --csv --config randread-4k-qd5
expect 2 "poolbench: export: no host matches 'nohost'" \
    "$pb" export --db "$db" --json --host nohost
expect 2 "poolbench: export: no source of format 'fio-jsn' has results; did you mean 'fio-json'?" \
    "$pb" export --db "$db" --json --format fio-jsn
# a test word given as a config: the suggestion names the right option
expect 2 "poolbench: list: no config matches 'fsynk'; did you mean --test 'fsync'?" \
    "$pb" list --db "$db" results --config fsynk
# each filter matches, together nothing
expect 2 "poolbench: list: no result matches all the filters together (each matches some)" \
    "$pb" list --db "$db" results --test bonnie --metric read_iops
# a filter that matches still works
expect 0 "" "$pb" list --db "$db" results --test randread --metric '^read_iops$'
[ "$(grep -c read_iops "$tmp/out")" = 1 ] || fail "randread read_iops rows: $(cat "$tmp/out")"
# a bad pattern is still a bad pattern
expect 2 "poolbench: bad pattern '(' at offset 1: missing closing parenthesis" \
    "$pb" export --db "$db" --csv --metric '('

# option typos
expect 2 "poolbench: report: unknown option '--tset'; did you mean '--test'?" \
    "$pb" report --db "$db" --tset x
expect 2 "poolbench: export: option '--c' is ambiguous (--csv, --config)" \
    "$pb" export --db "$db" --c
expect 2 "poolbench: export: option '--test' needs a value" \
    "$pb" export --db "$db" --csv --test
expect 2 "poolbench: export: option '--csv' takes no value" \
    "$pb" export --db "$db" --csv=yes
expect 2 "poolbench: ingest: unknown option '--lable'; did you mean '--label'?" \
    "$pb" ingest --db "$db" --lable x "$fx/fio-json/fio-3.33_three-jobs.json"
expect 2 "poolbench: 'ingset' is not a poolbench command. Did you mean 'ingest'?" \
    "$pb" ingset

[ $fails -eq 0 ] || exit 1
echo "ok"
