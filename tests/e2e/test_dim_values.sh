#!/bin/sh
# e2e (issue 42, item 17): values are normalised before they become
# dimensions, whoever says them.
#   - a blog table and a configuration sheet copied from web pages keep
#     no-break spaces after values ("on\u00a0"): they are the same values
#     as without, so compression=on is one value, not two;
#   - two mirror vdevs are layout=mirror, vdevs=2 in every reader: a real
#     `zpool status`, a `zpool create` transcript, a label, --set and a
#     sheet cell "2x mirror".
# usage: test_dim_values.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
fx="$src/fixtures"
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
q() { sqlite3 "$1" "$2"; }
values() { # db, key: its distinct values, sorted, one line
    q "$1" "SELECT group_concat(value, ',') FROM (SELECT DISTINCT value FROM
           config_param WHERE key = '$2' ORDER BY value)"
}

# -- 1. no-break spaces
db="$tmp/a.db"
"$pb" ingest -q --db "$db" "$fx/table/blog_html-copy_nbsp-values.md" 2>/dev/null ||
    fail "ingest the blog table"
[ "$(values "$db" compression)" = "off,on" ] ||
    fail "blog table: compression values '$(values "$db" compression)'"
[ "$(values "$db" recordsize)" = 16384 ] ||
    fail "blog table: recordsize values '$(values "$db" recordsize)'"
db="$tmp/b.db"
"$pb" ingest -q --db "$db" --configs "$fx/sheets/hosts_web-copy.tsv" \
    "$fx/sheets/coded-machines.csv" 2>/dev/null || fail "ingest the sheet"
[ "$(values "$db" compression)" = "lz4,off,on" ] ||
    fail "sheet: compression values '$(values "$db" compression)'"
[ "$(values "$db" layout)" = "mirror,raidz1,raidz2,stripe" ] ||
    fail "sheet: layout values '$(values "$db" layout)'"
[ "$(values "$db" vdevs)" = 1 ] || fail "sheet: vdevs values '$(values "$db" vdevs)'"
for d in "$tmp/a.db" "$tmp/b.db"; do
    n=$(q "$d" "SELECT count(*) FROM config_param WHERE instr(value, char(160))
                OR value <> trim(value)")
    [ "$n" = 0 ] || fail "$d: $n values keep white space"
done

# -- 2. one form of a layout
want="layout=mirror vdevs=2"
lv() { # db, label
    q "$1" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key, value
           FROM config_param p JOIN config c ON c.id = p.config_id WHERE
           c.label = '$2' AND key IN ('layout', 'vdevs') ORDER BY key)"
}
"$pb" ingest -q --db "$tmp/c.db" "$fx/zfs/zfs-fuse_zpool-status_2x-mirror-log-cache.txt" 2>/dev/null
[ "$(lv "$tmp/c.db" pbcls)" = "$want" ] || fail "zpool status: $(lv "$tmp/c.db" pbcls)"
"$pb" ingest -q --db "$tmp/c.db" --label cmd "$fx/zfs-commands/zfs-fuse_2x-mirror-log-cache.txt" 2>/dev/null
"$pb" ingest -q --db "$tmp/c.db" --label cmd "$fx/fio-json/fio-3.33_three-jobs.json" 2>/dev/null
[ "$(lv "$tmp/c.db" cmd)" = "$want" ] || fail "zpool create: $(lv "$tmp/c.db" cmd)"
"$pb" ingest -q --db "$tmp/c.db" --label "tank 2x mirror" \
    "$fx/fio-json/fio-3.33_write_64k_fsync16.json" 2>/dev/null
[ "$(lv "$tmp/c.db" "tank 2x mirror")" = "$want" ] ||
    fail "label: $(lv "$tmp/c.db" "tank 2x mirror")"
"$pb" ingest -q --db "$tmp/c.db" --label set --set "layout=2x mirror" \
    "$fx/fio-json/fio-3.33_randread_4k_qd4_libaio.json" 2>/dev/null
[ "$(lv "$tmp/c.db" set)" = "$want" ] || fail "--set: $(lv "$tmp/c.db" set)"
o=$(q "$tmp/c.db" "SELECT DISTINCT origin FROM config_param p JOIN config c ON
        c.id = p.config_id WHERE c.label = 'set' AND key IN ('layout', 'vdevs')")
[ "$o" = "set: --set layout=2x mirror" ] || fail "--set origin: $o"
printf 'label,layout\nhost_2.1,2x mirror\n' >"$tmp/sheet.csv"
"$pb" ingest -q --db "$tmp/c.db" --configs "$tmp/sheet.csv" \
    "$fx/sheets/coded-machines.csv" 2>/dev/null
[ "$(lv "$tmp/c.db" host_2.1)" = "$want" ] || fail "sheet: $(lv "$tmp/c.db" host_2.1)"
n=$(q "$tmp/c.db" "SELECT count(*) FROM config_param WHERE value LIKE '%x mirror'")
[ "$n" = 0 ] || fail "$n values still say 'Nx mirror'"

[ $fails -eq 0 ] || exit 1
echo ok
