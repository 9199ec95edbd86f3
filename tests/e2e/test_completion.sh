#!/bin/sh
# e2e: the shell completions (issue 17, item 4). bash: completion/
# poolbench.bash is sourced (with bash-completion when installed) and
# _poolbench called with COMP_WORDS/COMP_CWORD set, checking the exact
# candidates: subcommands, options of ingest (from the binary's own
# option table), --format values (the parser table), config, metric and
# test names from a fixture database (--db and $POOLBENCH_DB), plan files
# for run; a hostile label is offered quoted and never run; a missing
# database is not created. zsh: the same through a compadd stub.
# usage: test_completion.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
command -v bash >/dev/null || { echo "SKIP: no bash" >&2; exit 77; }

db="$tmp/t.db"
(cd "$src/fixtures" && "$pb" ingest --db "$db" -q pts-xml/fio-2systems.xml \
    bonnie-csv/*.csv) || fail "ingest fixtures"
# a label that would run a command if a completion expanded it
printf 'ok\n' >"$tmp/evil.txt"
"$pb" ingest --db "$db" -q --label '$(touch pwned)' \
    "$src/fixtures/fio-json/$(ls "$src/fixtures/fio-json" | grep '\.json$' | head -1)" ||
    fail "ingest hostile label"

cat >"$tmp/comp.bash" <<'S'
# usage: comp.bash COMPLETION_FILE WORD... (the last word is completed)
f=$1
shift
bc=/usr/share/bash-completion/bash_completion
[ -n "${NO_BASH_COMPLETION:-}" ] || { [ -f $bc ] && . $bc; }
. "$f"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_poolbench
printf '%s\n' "${COMPREPLY[@]}"
S
# comp WORD...: the candidates, sorted
comp() { bash "$tmp/comp.bash" "$src/completion/poolbench.bash" "$pb" "$@" | LC_ALL=C sort; }
check() { # check NAME "EXPECTED LINES" WORD...
    name=$1 want=$2
    shift 2
    got=$(comp "$@")
    [ "$got" = "$want" ] || fail "$name: got [$(echo "$got" | tr '\n' ' ')], want [$(echo "$want" | tr '\n' ' ')]"
}
nl='
'
cd "$tmp" || exit 1

check commands "$(printf '%s\n' best compare db doctor export help ingest list relabel report rm run)" ''
check "commands r" "$(printf '%s\n' relabel report rm run)" r
check "global options" "$(printf '%s\n' --help --version)" --
check "help r" "$(printf '%s\n' relabel report rm run)" help r
check "ingest options" "$(printf '%s\n' --columns= --configs= --db= --dump --exclude= \
    --follow --format= --help --include= --label-from= --label= --quiet \
    --replace --rules= --set= --skip-unknown --strict --table-metric= --threads= | LC_ALL=C sort)" \
    ingest --
check "ingest --l" "$(printf '%s\n' --label-from= --label=)" ingest --l
check "ingest --format" "$(printf '%s\n' bonnie-csv fio-hist-log fio-json fio-log fio-terse fio-text iozone pts-xml table zfs-commands zfs-props)" \
    ingest --format ''
check "ingest --format f" "$(printf '%s\n' fio-hist-log fio-json fio-log fio-terse fio-text)" ingest --format f
check "ingest --format=f" "$(printf '%s\n' fio-hist-log fio-json fio-log fio-terse fio-text)" ingest --format=f
check "--label-from" "$(printf '%s\n' dir file title)" ingest --label-from ''
check "report --config" "$(printf '%s\n' '\$\(touch\ pwned\)' 'ext4\ mdraid1' legacy_ufs \
    raidz2_rs1M_lz4 tank_raidz1_rs16k 'zfs\ mirror\ recordsize=16k\ lz4' zfs_mirror_rs128k \
    zfs_raidz1_rs64k)" \
    report --db "$db" --config ''
check "report --config z" "$(printf '%s\n' 'zfs\ mirror\ recordsize=16k\ lz4' zfs_mirror_rs128k \
    zfs_raidz1_rs64k)" \
    report --db "$db" --config z
check "--db= form" "$(printf '%s\n' legacy_ufs)" best --db="$db" --config l
check "relabel OLD" "$(printf '%s\n' tank_raidz1_rs16k)" relabel --db "$db" t
check "db ACTION" "$(printf '%s\n' compact)" db ''
check "db options" "$(printf '%s\n' --db= --help)" db --
check "export --metric seq_out" "$(printf '%s\n' seq_out_block_bw seq_out_block_cpu \
    seq_out_block_latency seq_out_char_bw seq_out_char_cpu seq_out_char_latency)" \
    export --db "$db" --metric seq_out
check "report --x r" "$(printf '%s\n' recordsize rw)" report --db "$db" --x r
check "report --series c" "$(printf '%s\n' chunk_size compression concurrency config)" \
    report --db "$db" --series c
[ -e "$tmp/pwned" ] && fail "a label was run as a command"

# $POOLBENCH_DB
got=$(POOLBENCH_DB="$db" comp list --config e)
[ "$got" = 'ext4\ mdraid1' ] || fail "POOLBENCH_DB: got [$got]"
# a database that is not there stays not there
got=$(comp report --db "$tmp/none.db" --config '')
[ -z "$got" ] || fail "missing db: got [$got]"
[ -e "$tmp/none.db" ] && fail "completion created a database"

# run: plan files and folders
mkdir "$tmp/plans" "$tmp/plans/sub"
: >"$tmp/plans/a.ini"
: >"$tmp/plans/b.txt"
got=$(cd "$tmp/plans" && comp run '' | tr '\n' ' ')
[ "$got" = "a.ini sub " ] || fail "run plans: got [$got]"
check "list" "$(printf '%s\n' configs results sources tests)" list ''
check "run --zfs" "$(printf '%s\n' openzfs zfs-fuse)" run --zfs ''

# without bash-completion: the same candidates
got=$(NO_BASH_COMPLETION=1 bash "$tmp/comp.bash" "$src/completion/poolbench.bash" \
    "$pb" ingest --format f | LC_ALL=C sort | tr '\n' ' ')
[ "$got" = "fio-hist-log fio-json fio-log fio-terse fio-text " ] || fail "no bash-completion: got [$got]"

got=$(NO_BASH_COMPLETION=1 bash "$tmp/comp.bash" "$src/completion/poolbench.bash" \
    "$pb" ingest --format = f | LC_ALL=C sort | tr '\n' ' ')
[ "$got" = "fio-hist-log fio-json fio-log fio-terse fio-text " ] || fail "no bash-completion, --format = f: got [$got]"
# --db ~/...: the ~ typed is the home folder
mkdir -p "$tmp/home"
cp "$db" "$tmp/home/t.db"
got=$(HOME="$tmp/home" comp report --db '~/t.db' --config l)
[ "$got" = legacy_ufs ] || fail "--db ~/t.db: got [$got]"

# ==== zsh ====
if command -v zsh >/dev/null; then
    zsh -n "$src/completion/_poolbench" || fail "zsh -n"
    cat >"$tmp/comp.zsh" <<'S'
# usage: comp.zsh COMPLETION_FILE WORD... (the last word is completed)
f=$1
shift
compadd() { # record the candidates (the words after --)
    local seen=0 a
    for a in "$@"; do
        if [[ $seen = 1 ]]; then print -r -- "$a"; fi
        [[ $a = -- ]] && seen=1
    done
    return 0
}
compset() { return 0; }
_files() { print -r -- "_files $*"; }
_pathcompset() { return 0; }
_files() { print -r -- "_files $*"; }
autoload -Uz is-at-least 2>/dev/null
source "$f"
words=("$@")
CURRENT=$#
PREFIX=${words[CURRENT]}
_poolbench
S
    zcomp() { zsh -f "$tmp/comp.zsh" "$src/completion/_poolbench" "$pb" "$@" | LC_ALL=C sort; }
    got=$(zcomp r | tr '\n' ' ')
    [ "$got" = "relabel report rm run " ] || fail "zsh commands r: got [$got]"
    got=$(zcomp ingest --format f | tr '\n' ' ')
    [ "$got" = "fio-hist-log fio-json fio-log fio-terse fio-text " ] || fail "zsh --format f: got [$got]"
    got=$(zcomp ingest --l | tr '\n' ' ')
    [ "$got" = "--label --label-from " ] || fail "zsh ingest --l: got [$got]"
    got=$(zcomp report --db "$db" --config z | tr '\n' '|')
    [ "$got" = "zfs mirror recordsize=16k lz4|zfs_mirror_rs128k|zfs_raidz1_rs64k|" ] ||
        fail "zsh --config z: got [$got]"
    got=$(HOME="$tmp/home" zcomp report --db '~/t.db' --config l)
    [ "$got" = legacy_ufs ] || fail "zsh --db ~/t.db: got [$got]"
    got=$(zcomp report --db "$db" --x r | tr '\n' ' ')
    [ "$got" = "recordsize rw " ] || fail "zsh --x r: got [$got]"
    got=$(zcomp run '' | tr '\n' ' ')
    [ "$got" = "_files -g *.(ini|plan) " ] || fail "zsh run: got [$got]"
    got=$(zcomp db '' | tr '\n' ' ')
    [ "$got" = "compact " ] || fail "zsh db: got [$got]"
fi

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo ok
