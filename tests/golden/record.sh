#!/bin/sh
# tests/golden/record.sh POOLBENCH OUTDIR [CORPUS_DIR]
#
# Records what a poolbench binary prints and writes for a fixed set of
# commands over the repo's fixtures (and the shared corpus when given):
# every `ingest --dump` (stdout, stderr, exit status), the databases
# (sqlite3 .dump, ingest times blanked), every listing and export, reports
# with their option sets, best, compare and run --dry-run. Two recordings
# of two builds are compared with tests/golden/compare.sh: a refactoring
# that claims "behaviour unchanged" must leave them byte-identical.
# Needs sqlite3. Not a ctest (it compares builds, not one build).
set -u
pb=$(readlink -f "$1")
out=$2
corpus=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
export POOLBENCH_CONFIG=none TZ=UTC LC_ALL=C

# rec NAME CMD...: stdout, stderr and exit status of CMD under NAME
rec() {
    _n=$1
    shift
    mkdir -p "$(dirname "$out/$_n")"
    "$@" >"$out/$_n.out" 2>"$out/$_n.err"
    echo $? >"$out/$_n.rc"
    # the run's id, timestamps and temporary folders are not behaviour
    sed -i -e 's/[0-9]\{8\}T[0-9]\{6\}-[0-9]*/RUNID/g' \
        -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9][T ][0-9:.]*Z\{0,1\}/TIME/g' \
        -e "s#$out#OUT#g" "$out/$_n.out" "$out/$_n.err"
}

# dbdump NAME DB: the whole database as text, the ingest times blanked
dbdump() {
    mkdir -p "$(dirname "$out/$1")"
    sqlite3 "$2" .dump |
        sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z\{0,1\}/TIME/g' \
            >"$out/$1.sql"
}

cd "$src/fixtures" || exit 1

# -- 1. ingest --dump of every fixture file (good and bad)
find . -type f ! -name '*.expected' ! -name '*.err' ! -name '*.md' \
    ! -name '*.sh' ! -name '*.py' | sort | while IFS= read -r f; do
    rec "dump/${f#./}" "$pb" ingest --dump "$f"
done

# -- 2. databases of the sample folders, one per family and one of all
samples="bonnie-csv fio-json fio-jsonplus fio-log fio-terse fio-text iozone
notes pts-xml table zfs"
ex="--exclude bad/* --exclude jobs/* --exclude *.expected --exclude *.err
--exclude *.md --exclude *.sh"
for d in $samples all; do
    db="$out/db-$d.db"
    if [ $d = all ]; then
        # shellcheck disable=SC2086
        set -- $samples
    else
        set -- "$d"
    fi
    # shellcheck disable=SC2086
    rec "ingest/$d" "$pb" ingest --db "$db" $ex "$@"
    dbdump "db/$d" "$db"
done
db="$out/db-all.db"
rec ingest/configs "$pb" ingest --db "$db" --configs sheets/hosts.csv \
    sheets/coded-machines.csv
rec ingest/transcript "$pb" ingest --db "$db" --label host_1.1 \
    zfs-commands/mirror-log_recordsize16k.txt
dbdump db/all-sheets "$db"

# -- 3. listings and exports
for what in sources configs tests results; do
    rec "list/$what" "$pb" list --db "$db" "$what"
    rec "list/$what.json" "$pb" list --db "$db" "$what" --json
done
rec export/csv "$pb" export --db "$db" --csv
rec export/json "$pb" export --db "$db" --json
rec export/wide "$pb" export --db "$db" --csv --wide
rec export/samples "$pb" export --db "$db" --csv --samples
rec export/series "$pb" export --db "$db" --csv --series
rec export/metric "$pb" export --db "$db" --csv --metric '^read_(iops|bw)$'

# -- 4. reports: each folder's, the whole one, and with options
report() { # NAME DB ARGS...
    _rn=$1 _rdb=$2
    shift 2
    rec "report/$_rn" "$pb" report --db "$_rdb" -o "$out/report/$_rn.d" "$@"
    # the sources' ingest times are shown: not behaviour
    find "$out/report/$_rn.d" -type f \( -name '*.html' -o -name '*.csv' \
        -o -name '*.json' \) -exec sed -i \
        's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z\{0,1\}/TIME/g' {} +
}
for d in $samples all; do
    report "$d" "$out/db-$d.db"
done
report all-sheets "$db"
report notes-sweep "$out/db-notes.db" --test randrw --x ashift --series recordsize
report linear "$out/db-fio-jsonplus.db" --latency-axis linear
report per-job "$out/db-fio-json.db" --per-job
report png "$out/db-bonnie-csv.db" --png
report hosts "$db" --config '^host_'
report ignore "$out/db-fio-json.db" --ignore-param none

# -- 5. best and compare
rec best/all "$pb" best --db "$db"
rec best/json "$pb" best --db "$db" --json
rec best/raw "$pb" best --db "$db" --raw
rec compare/pts "$pb" compare --db "$out/db-pts-xml.db" Ryzen 'Core i7'
rec compare/pts.json "$pb" compare --db "$out/db-pts-xml.db" Ryzen 'Core i7' --json
rec compare/pts.csv "$pb" compare --db "$out/db-pts-xml.db" Ryzen 'Core i7' --csv
rec compare/gate "$pb" compare --db "$out/db-pts-xml.db" 'Core i7' Ryzen --fail-worse 5
rec compare/html "$pb" compare --db "$out/db-pts-xml.db" Ryzen 'Core i7' --html "$out/compare-html"
if [ -d compare ]; then
    cdb="$out/db-compare.db"
    "$pb" ingest -q --db "$cdb" $ex compare >/dev/null 2>&1
    rec compare/fixtures "$pb" compare --db "$cdb" --json base cand
fi

# -- 6. the run module's plans, dry
for plan in "$src"/examples/*.ini; do
    rec "run/$(basename "$plan")" "$pb" run --dry-run --db "$out/run.db" \
        -o "$out/run-out" "$plan"
done

# -- 7. the shared corpus, one database and report per format folder
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
    for d in "$corpus"/*/; do
        n=corpus-$(basename "$d")
        rec "ingest/$n" "$pb" ingest --db "$out/$n.db" --skip-unknown "$d"
        dbdump "db/$n" "$out/$n.db"
        report "$n" "$out/$n.db"
        rec "export/$n" "$pb" export --db "$out/$n.db" --csv
    done
fi
rm -f "$out"/*.db "$out"/*.db-wal "$out"/*.db-shm "$out"/run.db*
echo "recorded $(find "$out" -type f | wc -l) files in $out"
