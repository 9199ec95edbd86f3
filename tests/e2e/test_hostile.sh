#!/bin/sh
# e2e: hostile and broken inputs (fixtures/hostile/, plus inputs generated
# here). A rejected input exits 1 with exactly one stderr line naming it
# and leaves no rows; an accepted one stores what the file says, with
# names kept as plain text. Nothing crashes, hangs or reads other files.
#   - XML: external entities and DTDs naming /etc/passwd (whose lines must
#     never reach the output or the DB), XInclude, billion laughs and
#     quadratic blowup (< 1 s), a 100 MB attribute, 300 and 100,000 deep
#     nesting, invalid UTF-8, bad references;
#   - JSON: 100,000 deep nesting, 1e400, NaN, Infinity, 400 digits
#     (rejected); -0, 20-digit integers, 1e-400 (stored as the nearest
#     double: 0, 12345678901234567890, 0); duplicate keys (rejected or the
#     last one wins, fio's rule for repeated options); NUL bytes, invalid
#     UTF-8, lone surrogates; a 2 GiB sparse file, directly, as stdin and
#     through a pipe (refused at the 512 MiB limit without reading it);
#   - CSV/text: missing and extra columns, NUL bytes, numbers that are not
#     numbers, a 10 MB row, <script>/quotes/commas in names (stored as the
#     exact text), every accepted fixture with CRLF line ends (same dump
#     as with LF), with a NUL byte in the middle and with a 10 MB junk
#     line after it;
#   - every format: an empty and a blank file (sniffed and --format), and
#     every fixture and corpus file cut at each tenth of its length (fio
#     JSON and PTS XML fixtures: rejected, or the same as the whole file).
# usage: test_hostile.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2 corpus=${3:-}
hx="$src/fixtures/hostile"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
: >"$tmp/fails"
# Failures are counted in a file: some checks run in subshells.
fail() { echo "FAIL: $*" >&2; echo x >>"$tmp/fails"; }
note() { echo "note: $*"; }
q() { sqlite3 "$1" "$2"; }
sqlstr() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3" >&2; exit 77; }
[ -d "$hx" ] || { echo "SKIP: no $hx" >&2; exit 77; }
passwd_line=$(grep -m1 '^root:' /etc/passwd || echo 'root:x:0:0:')

# Ingest into a fresh database; sets rc, ms, $tmp/out, $tmp/err (summary
# line removed), $tmp/h.db.
run() {
    rm -f "$tmp/h.db" "$tmp/h.db-wal" "$tmp/h.db-shm"
    t0=$(now_ms)
    "$pb" ingest --db "$tmp/h.db" "$@" >"$tmp/out" 2>"$tmp/err.all"
    rc=$?
    ms=$(($(now_ms) - t0))
    grep -v '^poolbench: [0-9]* stored' "$tmp/err.all" >"$tmp/err"
}
rows() {
    q "$tmp/h.db" "SELECT (SELECT count(*) FROM source) + (SELECT count(*) FROM result) + (SELECT count(*) FROM fact)" 2>/dev/null || echo 0
}
# The database, the output and the messages hold no line of /etc/passwd.
no_secret() { # WHAT
    if { sqlite3 "$tmp/h.db" .dump 2>/dev/null; cat "$tmp/out" "$tmp/err.all"; } |
        grep -qF "$passwd_line"; then
        fail "$1: content of /etc/passwd reached the output or the database"
    fi
}
# Rejected: exit 1, one message line "poolbench: FILE...", no rows.
reject() { # WHAT FILE [ingest options...]
    what=$1 file=$2
    shift 2
    run -q "$@" "$file"
    if [ $rc -ne 1 ]; then
        fail "$what: exit $rc, want 1 (rejected): $(head -c 300 "$tmp/err.all")"
        return
    fi
    n=$(wc -l <"$tmp/err")
    if [ "$n" -ne 1 ] || ! grep -qF "poolbench: $file" "$tmp/err"; then
        fail "$what: want one message line naming the file, got $n: $(head -c 300 "$tmp/err")"
    fi
    r=$(rows)
    [ "$r" = 0 ] || fail "$what: rejected input left $r rows"
}
# Accepted: exit 0, results stored.
accept() { # WHAT FILE [ingest options...]
    what=$1 file=$2
    shift 2
    run -q "$@" "$file"
    [ $rc -eq 0 ] || { fail "$what: exit $rc, want 0: $(head -c 300 "$tmp/err")"; return; }
    n=$(q "$tmp/h.db" "SELECT count(*) FROM result")
    [ "$n" -gt 0 ] || fail "$what: no results stored"
}
# Either cleanly rejected or accepted; never a crash or a half answer.
either() { # WHAT FILE [ingest options...]
    what=$1 file=$2
    shift 2
    run -q "$@" "$file"
    case $rc in
    0) [ "$(q "$tmp/h.db" "SELECT count(*) FROM result")" -gt 0 ] ||
        fail "$what: accepted with no results" ;;
    1) [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: messages: $(head -c 300 "$tmp/err")"
       [ "$(rows)" = 0 ] || fail "$what: rejected input left rows" ;;
    *) fail "$what: exit $rc: $(head -c 300 "$tmp/err.all")" ;;
    esac
}
# After accept: a config (and value) holds exactly TEXT.
has_label() { # WHAT TEXT
    n=$(q "$tmp/h.db" "SELECT count(*) FROM config WHERE label = $(sqlstr "$2")")
    [ "$n" -ge 1 ] || fail "$1: label not stored as the exact text '$2': $(q "$tmp/h.db" 'SELECT label FROM config' | head -n 3)"
}
value_of() { # METRIC: the value stored for it (first row)
    q "$tmp/h.db" "SELECT quote(value) FROM v_result WHERE metric = '$1' LIMIT 1"
}
faster_than() { # WHAT MS
    [ "$ms" -le "$2" ] || fail "$1: took ${ms} ms, limit $2 ms"
}
dump() { # FILE [options...] > stdout without the "# path" line
    f=$1
    shift
    "$pb" ingest --dump "$@" "$f" >"$tmp/d.out" 2>"$tmp/d.err"
    drc=$?
    [ $drc -le 1 ] || fail "ingest --dump $f: exit $drc: $(head -c 300 "$tmp/d.err")"
    sed 1d "$tmp/d.out"
}

# ==== XML ====
x="$hx/pts-xml"
accept "pts control" "$x/control-minimal.xml"
for f in xxe-etc-passwd xxe-parameter-entity xxe-external-dtd xxe-after-junk-and-comment; do
    reject "xml $f" "$x/$f.xml"
    no_secret "xml $f"
done
either "xml xinclude" "$x/xinclude-etc-passwd.xml"
no_secret "xml xinclude"
for f in billion-laughs quadratic-blowup; do
    reject "xml $f" "$x/$f.xml"
    faster_than "xml $f" 1000
done
for f in invalid-utf8 deep-nesting-300 bad-references; do
    reject "xml $f" "$x/$f.xml"
done
accept "xml html in labels" "$x/html-in-labels.xml"
has_label "xml html in labels" "<script>alert(\"x\")</script>, 'q' & <svg onload=alert(1)>"
n=$(q "$tmp/h.db" "SELECT count(*) FROM test WHERE name LIKE '%<img src=x onerror=alert(1)>%'")
[ "$n" = 1 ] || fail "xml CDATA title not stored as text"

# 100 MB attribute and 100,000 deep nesting, made from the control file
{
    sed -n 1,2p "$x/control-minimal.xml"
    printf '  <Generated a="'
    head -c 100000000 /dev/zero | tr '\0' 'A'
    printf '">\n'
    sed -n '4,$p' "$x/control-minimal.xml"
} >"$tmp/attr.xml"
reject "xml 100 MB attribute" "$tmp/attr.xml"
faster_than "xml 100 MB attribute" 10000
rm -f "$tmp/attr.xml"
{
    sed -n 1,10p "$x/control-minimal.xml"
    head -c 100000 /dev/zero | tr '\0' a | sed 's/a/<a>/g'
    printf 'x'
    head -c 100000 /dev/zero | tr '\0' a | sed 's|a|</a>|g'
    printf '\n'
    sed -n '11,$p' "$x/control-minimal.xml"
} >"$tmp/deep.xml"
reject "xml 100,000 deep" "$tmp/deep.xml"
faster_than "xml 100,000 deep" 5000

# ==== JSON ====
j="$hx/fio-json"
accept "json control" "$j/control-minimal.json"
for f in number-1e400 number-minus-1e400 number-nan number-minus-nan \
    number-infinity number-400-digits nul-byte-raw invalid-utf8 \
    lone-surrogate two-documents jobs-not-array; do
    reject "json $f" "$j/$f.json"
done
accept "json -0" "$j/number-minus-zero.json"
v=$(value_of read_iops)
[ "$v" = 0.0 ] || [ "$v" = 0 ] || fail "json -0: read_iops stored as $v, want 0"
accept "json 20 digits" "$j/number-20-digits.json"
v=$(q "$tmp/h.db" "SELECT value = 12345678901234567890.0 FROM v_result WHERE metric = 'read_bytes'")
[ "$v" = 1 ] || fail "json 20 digits: read_bytes stored as $(value_of read_bytes), want 12345678901234567890 as a double"
accept "json 1e-400" "$j/number-1e-400.json"
v=$(value_of read_clat_mean)
[ "$v" = 0.0 ] || [ "$v" = 0 ] || fail "json 1e-400: read_clat_mean $v"
either "json duplicate keys" "$j/duplicate-keys.json"
if [ $rc = 0 ]; then
    v=$(value_of read_iops)
    [ "$v" = 99999.0 ] || fail "json duplicate keys: read_iops $v, want the last one (99999)"
    note "json duplicate keys: accepted, the last value wins"
fi
either "json duplicate jobs" "$j/duplicate-jobs.json"
either "json NUL escape in a name" "$j/nul-escape-in-jobname.json"
either "json wrong types" "$j/wrong-types.json"
either "json byte order mark" "$j/byte-order-mark.json"
accept "json html in names" "$j/html-in-names.json"
has_label "json html in names" "<script>alert(\"x\")</script>, 'q' & <svg onload=alert(1)>"

# 100,000 deep arrays and objects
{
    printf '{"fio version" : "fio-3.33", "jobs" : '
    head -c 100000 /dev/zero | tr '\0' '['
    head -c 100000 /dev/zero | tr '\0' ']'
    printf '}\n'
} >"$tmp/deep1.json"
reject "json 100,000 deep arrays" "$tmp/deep1.json"
faster_than "json 100,000 deep arrays" 1000
{
    printf '{"fio version" : "fio-3.33", "jobs" : ['
    head -c 100000 /dev/zero | tr '\0' a | sed 's/a/{"a":/g'
    printf '1'
    head -c 100000 /dev/zero | tr '\0' '}'
    printf ']}\n'
} >"$tmp/deep2.json"
reject "json 100,000 deep objects" "$tmp/deep2.json"
faster_than "json 100,000 deep objects" 1000

# a 2 GiB sparse file: refused by its size, never read
big="$tmp/sparse.json"
if truncate -s 2G "$big" 2>/dev/null; then
    limit_msg='larger than the 512 MiB input limit'
    reject "2 GiB sparse file" "$big"
    faster_than "2 GiB sparse file" 2000
    grep -q "$limit_msg" "$tmp/err" || fail "2 GiB sparse file: message does not name the limit: $(cat "$tmp/err")"
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o "$tmp/rss" "$pb" ingest --dump "$big" >/dev/null 2>&1
        kb=$(tail -n 1 "$tmp/rss")
        [ "$kb" -lt 262144 ] || fail "2 GiB sparse file: peak memory $kb KiB (read into memory?)"
    fi
    # as standard input redirected from the file
    t0=$(now_ms)
    "$pb" ingest --db "$tmp/h.db" -q - <"$big" >/dev/null 2>"$tmp/err.all"
    rc=$?
    ms=$(($(now_ms) - t0))
    [ $rc -eq 1 ] || fail "2 GiB sparse file on stdin: exit $rc, want 1"
    grep -q "$limit_msg" "$tmp/err.all" || fail "2 GiB sparse file on stdin: $(cat "$tmp/err.all")"
    faster_than "2 GiB sparse file on stdin" 2000
    # through a pipe nothing tells the size: reading must stop at the limit
    t0=$(now_ms)
    head -c 520M /dev/zero | "$pb" ingest --db "$tmp/h.db" -q - >/dev/null 2>"$tmp/err.all"
    rc=$?
    ms=$(($(now_ms) - t0))
    [ $rc -eq 1 ] || fail "520 MiB through a pipe: exit $rc, want 1"
    grep -q "512 MiB" "$tmp/err.all" ||
        fail "520 MiB through a pipe: not refused at the 512 MiB limit: $(cat "$tmp/err.all")"
    faster_than "520 MiB through a pipe" 20000
    rm -f "$big"
else
    note "truncate -s 2G not possible here: sparse file tests skipped"
fi

# ==== CSV and text ====
b="$hx/bonnie-csv"
accept "bonnie control" "$b/control-minimal.csv"
accept "bonnie crlf" "$b/crlf.csv"
[ "$(q "$tmp/h.db" "SELECT count(*) FROM config WHERE label LIKE '%' || char(13) || '%'")" = 0 ] ||
    fail "bonnie crlf: carriage return kept in a label"
for f in missing-columns missing-column-middle extra-columns nul-in-number \
    nul-in-name number-1e400 number-nan number-negative number-hex; do
    reject "bonnie $f" "$b/$f.csv"
done
either "bonnie NUL line" "$b/nul-line.csv"
accept "bonnie html in name" "$b/html-in-name.csv"
has_label "bonnie html in name" "<script>alert(1)</script><svg onload=alert(1)>"
either "bonnie quotes and commas" "$b/quotes-and-commas-in-name.csv"
[ $rc = 0 ] && has_label "bonnie quotes and commas" 'zfs "fast", lz4'
accept "bonnie quote in name" "$b/quote-in-name.csv"
has_label "bonnie quote in name" "it's \"quoted\""
# a 10 MB row: a 10 MB cell where a number belongs, and a 10 MB name
ctl=$(cat "$b/control-minimal.csv")
{
    printf '%s' "$ctl" | cut -d, -f1-11 | tr -d '\n'
    printf ','
    head -c 10000000 /dev/zero | tr '\0' '7'
    printf 'x,'
    printf '%s\n' "$ctl" | cut -d, -f13-
} >"$tmp/row10m.csv"
reject "bonnie 10 MB cell" "$tmp/row10m.csv"
faster_than "bonnie 10 MB cell" 10000
{
    printf '%s' "$ctl" | cut -d, -f1-2 | tr -d '\n'
    printf ','
    head -c 10000000 /dev/zero | tr '\0' 'n'
    printf ','
    printf '%s\n' "$ctl" | cut -d, -f4-
} >"$tmp/name10m.csv"
either "bonnie 10 MB name" "$tmp/name10m.csv"
faster_than "bonnie 10 MB name" 10000
rm -f "$tmp/row10m.csv" "$tmp/name10m.csv"

t="$hx/text"
accept "fio-text html job name" "$t/fio-text_html-job-name.txt"
has_label "fio-text html job name" '<script>alert(1)</script>, "q"'
reject "fio-text NUL in IOPS" "$t/fio-text_nul-in-iops.txt"
either "fio-text CRLF and a NUL line" "$t/fio-text_crlf-and-nul-line.txt"
accept "fio-terse html job name" "$t/fio-terse_html-job-name.txt"
has_label "fio-terse html job name" "<script>alert(1)</script>, 'q'"
reject "fio-terse NUL in a field" "$t/fio-terse_nul-in-field.txt"
reject "fio-terse too few fields" "$t/fio-terse_too-few-fields.txt"
either "fio-terse too many fields" "$t/fio-terse_too-many-fields.txt"
reject "zfs NUL in a value" "$t/zfs_nul-in-value.txt"
accept "zfs html dataset name" "$t/zfs_html-dataset.txt"
has_label "zfs html dataset name" "tank/<script>alert(1)</script>"
# A NUL byte or a stray character in the middle of an iozone table: the
# row is broken, so the file must be rejected, not cut short at that row.
want=$(dump "$src/fixtures/iozone/iozone-3.327_auto_abutting-8-digit-values.txt" | grep -c '^result')
for f in iozone_nul-in-table iozone_corrupt-row; do
    either "$f" "$t/$f.txt"
    if [ $rc = 0 ]; then
        got=$(q "$tmp/h.db" "SELECT count(*) FROM result")
        # at most the broken row (13 results) may be missing
        [ "$got" -ge "$((want - 13))" ] ||
            fail "$f: accepted with $got of $want results (the rows after the broken one dropped)"
    fi
done

# Every accepted fixture: CRLF gives the same dump; a NUL byte in the
# middle never crashes; a 10 MB junk line after it is read in linear time.
mkdir "$tmp/lf" "$tmp/crlf" "$tmp/nul" "$tmp/j"
head -c 10000000 /dev/zero | tr '\0' 'j' >"$tmp/junk10m"
printf '\n' >>"$tmp/junk10m"
seen_fmt=""
for exp in "$src"/fixtures/*/*.expected; do
    f=${exp%.expected}
    [ -f "$f" ] || continue
    fmt=$(basename "$(dirname "$f")")
    name=$fmt-$(basename "$f")
    cp "$f" "$tmp/lf/$name"
    sed 's/$/\r/' "$f" >"$tmp/crlf/$name"
    size=$(wc -c <"$f")
    { head -c $((size / 2)) "$f"; printf '\0'; tail -c +$((size / 2 + 1)) "$f"; } >"$tmp/nul/$name"
    case " $seen_fmt " in
    *" $fmt "*) ;;
    *)
        seen_fmt="$seen_fmt $fmt"
        # same base name: a generic label is qualified by it
        jin="$tmp/j/$(basename "$f")"
        cat "$f" "$tmp/junk10m" >"$jin"
        either "$fmt/$(basename "$f") + 10 MB junk line" "$jin"
        faster_than "$fmt/$(basename "$f") + 10 MB junk line" 10000
        if [ $rc = 0 ]; then
            # the junk may be named (zfs-props: fact skipped_lines)
            [ "$(dump "$jin" | grep -v '^fact host=- skipped_lines=')" = \
                "$(dump "$f" | grep -v '^fact host=- skipped_lines=')" ] ||
                fail "$fmt/$(basename "$f") + 10 MB junk line: accepted, but the dump differs"
        fi
        rm -f "$jin"
        ;;
    esac
done
rm -f "$tmp/junk10m"
# one --dump of each folder; the "# path" lines name the folder
"$pb" ingest --dump "$tmp/lf" >"$tmp/lf.raw" 2>"$tmp/lf.err"
lrc=$?
"$pb" ingest --dump "$tmp/crlf" >"$tmp/crlf.raw" 2>"$tmp/crlf.err"
crc=$?
sed "s|^# $tmp/lf/|# |" "$tmp/lf.raw" >"$tmp/lf.out"
sed "s|^# $tmp/crlf/|# |" "$tmp/crlf.raw" >"$tmp/crlf.out"
[ $lrc -le 1 ] && [ $crc -le 1 ] || fail "LF/CRLF dumps: exit $lrc/$crc"
cmp -s "$tmp/lf.out" "$tmp/crlf.out" ||
    fail "CRLF line ends change the dump: $(diff "$tmp/lf.out" "$tmp/crlf.out" | head -n 6 | tr '\n' ' ')"
[ "$(sed "s|$tmp/lf/||; s|:.*||" "$tmp/lf.err")" = "$(sed "s|$tmp/crlf/||; s|:.*||" "$tmp/crlf.err")" ] ||
    fail "CRLF line ends change which fixtures are rejected: $(cat "$tmp/crlf.err" | head -n 3)"
run "$tmp/nul"
case $rc in
0 | 1) ;;
*) fail "a NUL byte in the middle of each fixture: exit $rc: $(tail -n 5 "$tmp/err.all")" ;;
esac
[ -z "$(grep -v '^poolbench: ' "$tmp/err")" ] ||
    fail "NUL in the middle: stray stderr lines: $(grep -v '^poolbench: ' "$tmp/err" | head -n 3)"

# ==== every format: empty, blank, cut at each tenth ====
: >"$tmp/empty"
printf ' \n\t\r\n' >"$tmp/blank"
reject "empty file" "$tmp/empty"
grep -q ": empty file$" "$tmp/err" || fail "empty file: $(cat "$tmp/err")"
reject "blank file" "$tmp/blank"
for fmt in fio-json fio-text fio-terse iozone bonnie-csv pts-xml zfs-props table; do
    reject "empty file as $fmt" "$tmp/empty" --format "$fmt"
    reject "blank file as $fmt" "$tmp/blank" --format "$fmt"
done

# Cut files: one directory per format, ingested once sniffed and once with
# --format. Each file is stored or named in exactly one error line.
check_walk() { # WHAT DIR NFILES [dump]
    case $rc in
    0 | 1) ;;
    *) fail "$1: exit $rc (crash?): $(tail -n 3 "$tmp/err.all")"; return ;;
    esac
    bad=$(grep -vc '^poolbench: ' "$tmp/err")
    [ "$bad" = 0 ] || fail "$1: $bad stderr lines that are not one-line messages: $(grep -v '^poolbench: ' "$tmp/err" | head -n 2)"
    nerr=$(grep -c "^poolbench: $2/" "$tmp/err")
    if [ $# -gt 3 ]; then
        nok=$(grep -c "^# $2/" "$tmp/out")
        [ $((nerr + nok)) = "$3" ] || fail "$1: $nok parsed + $nerr rejected != $3 files"
        return
    fi
    nok=$(grep -c "^ok   $2/" "$tmp/out")
    [ $((nerr + nok)) = "$3" ] || fail "$1: $nok stored + $nerr rejected != $3 files"
    ns=$(q "$tmp/h.db" "SELECT count(*) FROM source")
    [ "$ns" = "$nok" ] || fail "$1: $ns sources for $nok files reported stored"
    # rejected files left nothing
    sed -n "s|^poolbench: \\($2/[^:]*\\):.*|\\1|p" "$tmp/err" | sort -u >"$tmp/rejected"
    sqlite3 "$tmp/h.db" "SELECT path FROM source" | sort >"$tmp/stored"
    both=$(comm -12 "$tmp/rejected" "$tmp/stored" | head -n 3)
    [ -z "$both" ] || fail "$1: rejected but stored: $both"
    [ "$(q "$tmp/h.db" 'PRAGMA integrity_check')" = ok ] || fail "$1: integrity_check"
}
total_cut=0
for fmt in fio-json fio-text fio-terse iozone bonnie-csv pts-xml zfs table; do
    d="$tmp/cut/$fmt"
    mkdir -p "$d"
    n=0
    for f in "$src/fixtures/$fmt"/* "$corpus/$fmt"/*; do
        [ -f "$f" ] || continue
        case $f in *.expected | *.err | */README.md) continue ;; esac
        size=$(wc -c <"$f")
        [ "$size" -ge 10 ] || continue
        case $f in "$corpus"/*) tag=c ;; *) tag=f ;; esac
        k=1
        while [ $k -le 9 ]; do
            head -c $((size * k / 10)) "$f" >"$d/$tag-$(basename "$f").cut$k"
            k=$((k + 1))
            n=$((n + 1))
        done
    done
    [ $n -gt 0 ] || continue
    total_cut=$((total_cut + n))
    run "$d"
    check_walk "$fmt cut at tenths (sniffed)" "$d" "$n"
    acc=$(grep -c '^ok ' "$tmp/out")
    # fio JSON and PTS XML cannot lose their end unnoticed: a cut fixture
    # is rejected, or it is the whole document (trailing junk cut off).
    case $fmt in
    fio-json | pts-xml)
        grep '^ok   ' "$tmp/out" | sed -n "s|^ok   \\($d/f-[^:]*\\):.*|\\1|p" |
            while IFS= read -r c; do
                orig=$(basename "$c" | sed 's/^f-//; s/\.cut[0-9]$//')
                [ "$(dump "$c")" = "$(dump "$src/fixtures/$fmt/$orig")" ] ||
                    echo "$c"
            done >"$tmp/halves"
        [ -s "$tmp/halves" ] && fail "$fmt: cut fixtures accepted with results that differ from the whole file: $(head -n 3 "$tmp/halves" | tr '\n' ' ')"
        ;;
    esac
    pfmt=$fmt
    [ "$fmt" = zfs ] && pfmt=zfs-props
    run --format "$pfmt" --dump "$d"
    check_walk "$fmt cut at tenths (--format $pfmt)" "$d" "$n" dump
    note "$fmt: $n cut files, $acc accepted when sniffed, $(grep -c '^# ' "$tmp/out") with --format"
done
[ $total_cut -gt 0 ] || fail "no fixtures found to cut"

fails=$(wc -l <"$tmp/fails")
if [ "$fails" -gt 0 ]; then
    echo "$fails failure(s)" >&2
    exit 1
fi
echo "hostile: ok"
exit 0
