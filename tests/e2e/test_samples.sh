#!/bin/sh
# e2e: per-repeat samples (issue 12 item 3). A bonnie++ -x 3 file and a
# real PTS file with RawString values keep their repeats in the sample
# table; export --samples prints them with exact values, in input order;
# rm forgets them with their source; v_result (export) is unchanged.
# usage: test_samples.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v jq >/dev/null || { echo "SKIP: no jq" >&2; exit 77; }

db="$tmp/t.db"
cd "$src/fixtures" || exit 1
bon=bonnie-csv/bonnie-2.00a_x3-repeats.csv
"$pb" ingest --db "$db" -q "$bon" || fail "ingest $bon"

# bonnie++ -x 3: 3 samples per measured metric, K/sec x 1024, in row order
"$pb" export --db "$db" --csv --samples --metric '^seq_out_char_bw$' \
    >"$tmp/s.csv" || fail "export --samples"
tr -d '\r' <"$tmp/s.csv" >"$tmp/s"
want='source_path,format,host,config,test,tool,job,metric,seq,value,unit,direction
bonnie-csv/bonnie-2.00a_x3-repeats.csv,bonnie-csv,zfs_raidz1_rs64k,zfs_raidz1_rs64k,bonnie++ file_size=64M files=1k,bonnie++,,seq_out_char_bw,0,188416,B/s,higher
bonnie-csv/bonnie-2.00a_x3-repeats.csv,bonnie-csv,zfs_raidz1_rs64k,zfs_raidz1_rs64k,bonnie++ file_size=64M files=1k,bonnie++,,seq_out_char_bw,1,144384,B/s,higher
bonnie-csv/bonnie-2.00a_x3-repeats.csv,bonnie-csv,zfs_raidz1_rs64k,zfs_raidz1_rs64k,bonnie++ file_size=64M files=1k,bonnie++,,seq_out_char_bw,2,150528,B/s,higher'
[ "$(cat "$tmp/s")" = "$want" ] || fail "bonnie samples: $(cat "$tmp/s")"
# the summary row stays the mean with n = 3
"$pb" export --db "$db" --csv --metric '^seq_create$' | tr -d '\r' \
    >"$tmp/r"
[ "$(tail -n 1 "$tmp/r" | cut -d, -f8-)" = \
    "seq_create,475.6666666666667,ops/s,higher,39.84274644705663,3" ] ||
    fail "summary: $(tail -n 1 "$tmp/r")"
# every measured metric has 3 samples; the +++++ ones none
n=$("$pb" export --db "$db" --json --samples | jq length)
m=$("$pb" export --db "$db" --json |
    jq '[.[] | select(.value != null and .samples == 3)] | length')
[ "$n" -eq $((3 * m)) ] && [ "$m" -eq 20 ] ||
    fail "bonnie: $n samples for $m metrics (want 60 for 20)"
"$pb" export --db "$db" --json --samples --metric '^seq_create$' \
    >"$tmp/j" || fail "export --json --samples"
[ "$(jq -c '[.[] | [.seq, .value]]' "$tmp/j")" = \
    '[[0,412],[1,466],[2,549]]' ] || fail "json samples: $(cat "$tmp/j")"

# --wide and --samples do not go together
"$pb" export --db "$db" --csv --wide --samples >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] || fail "--wide --samples not a usage error"

# a real PTS file: RawString "855992:883852:878058" behind value 872634
pts="$corpus/pts-xml/pts-8.0.1_blogbench_gcp-clearlinux-docker_ucd.xml"
if [ -r "$pts" ]; then
    "$pb" ingest --db "$db" -q "$pts" || fail "ingest $pts"
    "$pb" export --db "$db" --csv --samples --format pts-xml |
        tr -d '\r' | cut -d, -f8- >"$tmp/p"
    want='metric,seq,value,unit,direction
value,0,855992,Final Score,higher
value,1,883852,Final Score,higher
value,2,878058,Final Score,higher
value,0,4916,Final Score,higher
value,1,5833,Final Score,higher
value,2,5916,Final Score,higher'
    [ "$(cat "$tmp/p")" = "$want" ] || fail "pts samples: $(cat "$tmp/p")"
    "$pb" rm --db "$db" -q "$pts" || fail "rm $pts"
else
    echo "note: corpus absent, PTS part skipped" >&2
fi

# rm forgets the samples with their source
"$pb" rm --db "$db" -q "$bon" || fail "rm $bon"
left=$(sqlite3 "$db" 'SELECT count(*) FROM sample' 2>/dev/null ||
    "$pb" export --db "$db" --json --samples | jq length)
[ "$left" = 0 ] || fail "$left samples left after rm"
# stored again (result ids of the removed rows reused): the same samples
"$pb" ingest --db "$db" -q "$bon" || fail "ingest $bon again"
n=$("$pb" export --db "$db" --json --samples | jq length)
[ "$n" = 60 ] || fail "$n samples after ingesting again, want 60"

[ $fails -eq 0 ] || exit 1
echo ok
