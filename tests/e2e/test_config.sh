#!/bin/sh
# e2e: the config file (issue 17, item 7): where it is looked for
# ($POOLBENCH_CONFIG, $XDG_CONFIG_HOME, ~/.config), what it sets (db,
# report.title, report.palette, ingest.label-from, ingest.rules), the
# precedence command line > environment > config file > default, one-line
# path:line errors with exit 2, and (as root) refusing a file others own
# or can write.
# usage: test_config.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
unset POOLBENCH_CONFIG POOLBENCH_DB XDG_CONFIG_HOME
export HOME="$tmp/home"
mkdir -p "$tmp/home" "$tmp/xdg/poolbench" "$tmp/work" "$tmp/data/tank-q7"
pts="$src/fixtures/pts-xml/fio-2systems.xml"
fio="$src/fixtures/fio-json/fio-3.33_randread_4k_qd4_libaio.json"
cp "$fio" "$tmp/data/tank-q7/run.json"
cd "$tmp/work" || exit 1
configs() { "$pb" list --db "$1" configs | awk -F'  +' 'NR > 1 { print $2 }' | sort | tr '\n' '|'; }

# ==== db: relative to the config's folder; env and --db win ====
printf '# mine\ndb = lab.db\n' >"$tmp/xdg/poolbench/config"
XDG_CONFIG_HOME="$tmp/xdg" "$pb" ingest -q "$pts" || fail "ingest with config db"
[ -f "$tmp/xdg/poolbench/lab.db" ] || fail "config db not used"
[ -e poolbench.db ] && fail "default db made despite the config"
[ "$(configs "$tmp/xdg/poolbench/lab.db")" = "ext4 mdraid1|zfs mirror recordsize=16k lz4|" ] ||
    fail "configs in lab.db: $(configs "$tmp/xdg/poolbench/lab.db")"
XDG_CONFIG_HOME="$tmp/xdg" POOLBENCH_DB="$tmp/env.db" "$pb" ingest -q "$fio" ||
    fail "ingest with env db"
[ -f "$tmp/env.db" ] || fail "POOLBENCH_DB does not win over the config"
XDG_CONFIG_HOME="$tmp/xdg" POOLBENCH_DB="$tmp/env.db" "$pb" ingest -q \
    --db "$tmp/opt.db" "$fio" || fail "ingest with --db"
[ -f "$tmp/opt.db" ] || fail "--db does not win"
n=$("$pb" list --db "$tmp/xdg/poolbench/lab.db" sources | tail -n +2 | wc -l)
[ "$n" = 1 ] || fail "lab.db has $n sources, not 1"
# the completion reads the config's db too
got=$(XDG_CONFIG_HOME="$tmp/xdg" "$pb" __complete configs | tr '\n' '|')
[ "$got" = "ext4 mdraid1|zfs mirror recordsize=16k lz4|" ] || fail "__complete configs: $got"

# ~/.config when $XDG_CONFIG_HOME is unset or relative (the XDG spec)
mkdir -p "$tmp/home/.config/poolbench"
printf 'db = ~/home.db\n' >"$tmp/home/.config/poolbench/config"
"$pb" ingest -q "$fio" || fail "ingest with ~/.config"
[ -f "$tmp/home/home.db" ] || fail "~/.config/poolbench/config not read (or ~ not expanded)"
rm -f "$tmp/home/home.db"
XDG_CONFIG_HOME=relative "$pb" ingest -q "$fio" || fail "ingest, relative XDG"
[ -f "$tmp/home/home.db" ] || fail "a relative XDG_CONFIG_HOME was not ignored"
# POOLBENCH_CONFIG names another file; none ignores every config
printf 'db = %s/named.db\n' "$tmp" >"$tmp/named.cfg"
POOLBENCH_CONFIG="$tmp/named.cfg" XDG_CONFIG_HOME="$tmp/xdg" "$pb" ingest -q "$fio" ||
    fail "ingest with POOLBENCH_CONFIG"
[ -f "$tmp/named.db" ] || fail "POOLBENCH_CONFIG not read"
POOLBENCH_CONFIG=none XDG_CONFIG_HOME="$tmp/xdg" "$pb" ingest -q "$fio" ||
    fail "ingest with POOLBENCH_CONFIG=none"
[ -f poolbench.db ] || fail "POOLBENCH_CONFIG=none did not ignore the config"
rm -f "$tmp/home/.config/poolbench/config"

# ==== report.title and report.palette ====
cat >"$tmp/xdg/poolbench/config" <<'C'
db = lab.db
[report]
title = Lab <b>& co</b>
palette = #123456, #abcdef
    #fedcba
C
XDG_CONFIG_HOME="$tmp/xdg" "$pb" report -q -o r1 || fail "report with config"
grep -q "<title>Lab &lt;b&gt;&amp; co&lt;/b&gt;</title>" r1/index.html ||
    fail "title: $(grep -o '<title>.*</title>' r1/index.html)"
grep -q "Lab <b>" r1/index.html && fail "title not escaped"
# the two configurations in label order get the first two colours
grep -q 'fill="#123456"' r1/charts/001-ranking.svg || fail "first colour not used"
grep -q 'fill="#abcdef"' r1/charts/001-ranking.svg || fail "second colour not used"
grep -q '#4e79a7' r1/charts/001-ranking.svg && fail "built-in palette still used"
XDG_CONFIG_HOME="$tmp/xdg" "$pb" report -q -o r2 --title Mine || fail "report --title"
grep -q "<title>Mine</title>" r2/index.html || fail "--title does not win"
POOLBENCH_CONFIG=none "$pb" report -q --db "$tmp/xdg/poolbench/lab.db" -o r3 ||
    fail "report without config"
grep -q 'fill="#4e79a7"' r3/charts/001-ranking.svg || fail "default palette"

# ==== ingest.label-from and ingest.rules (also for relabel) ====
printf 'vdevs = tank-q(\\d+)\n' >"$tmp/rules"
printf '[ingest]\nlabel-from = dir\nrules = ../../rules\n' >"$tmp/xdg/poolbench/config"
out=$(XDG_CONFIG_HOME="$tmp/xdg" "$pb" ingest --dump "$tmp/data/tank-q7/run.json" |
    grep -A1 '^config 0')
[ "$out" = "config 0 tank-q7
  vdevs=7  # path: tank-q7/" ] || fail "label-from/rules from the config: $out"
out=$(XDG_CONFIG_HOME="$tmp/xdg" "$pb" ingest --dump --label-from file \
    "$tmp/data/tank-q7/run.json" | grep '^config 0')
[ "$out" = "config 0 run" ] || fail "--label-from does not win: $out"

# the example of poolbench-config(5) is a valid config that does what it
# says
mkdir -p "$tmp/readme"
sed -n '/^db = ~\/bench/,/^rules = rules.txt/p' \
    "$src/docs/man/poolbench-config.5.scd" >"$tmp/readme/config"
[ -s "$tmp/readme/config" ] || fail "no config example in poolbench-config.5.scd"
POOLBENCH_CONFIG="$tmp/readme/config" "$pb" report -q \
    --db "$tmp/xdg/poolbench/lab.db" -o r4 || fail "the man page's config refused"
grep -q "<title>recordsize study, tank</title>" r4/index.html ||
    fail "the man page's title: $(grep -o '<title>.*</title>' r4/index.html)"
grep -q 'fill="#1b9e77"' r4/charts/001-ranking.svg || fail "the man page's palette"

# --version names the config file in effect
got=$(XDG_CONFIG_HOME="$tmp/xdg" "$pb" --version | grep '^  config ')
[ "$got" = "  config     $tmp/xdg/poolbench/config" ] || fail "--version config: $got"
got=$(XDG_CONFIG_HOME="$tmp/nothing" "$pb" --version | grep '^  config ')
[ "$got" = "  config     $tmp/nothing/poolbench/config (not present)" ] ||
    fail "--version absent config: $got"
got=$(POOLBENCH_CONFIG=none "$pb" --version | grep '^  config ')
[ "$got" = "  config     none" ] || fail "--version no config: $got"

# ==== errors: path:line, exit 2, nothing done ====
bad() { # bad NAME "CONFIG TEXT" "EXPECTED STDERR"
    printf '%s' "$2" >"$tmp/bad.cfg"
    POOLBENCH_CONFIG="$tmp/bad.cfg" "$pb" ingest --db "$tmp/never.db" -q "$fio" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "$1: exit $rc, not 2"
    [ "$(cat "$tmp/err")" = "$3" ] || fail "$1: stderr [$(cat "$tmp/err")]"
    [ -e "$tmp/never.db" ] && fail "$1: the command ran"
}
bad "unknown key" "db = x.db
colour = red
" "poolbench: $tmp/bad.cfg:2: unknown key 'colour' (known: db, report.title, report.palette, ingest.label-from, ingest.rules)"
bad "unknown key in a section" "[report]
titel = x
" "poolbench: $tmp/bad.cfg:2: unknown key 'report.titel' (known: db, report.title, report.palette, ingest.label-from, ingest.rules)"
bad syntax "# ok
db = x.db

just words
" "poolbench: $tmp/bad.cfg:4: expected 'key = value', '[section]' or a comment"
bad colour "[report]
palette = #123456, red
" "poolbench: $tmp/bad.cfg:2: report.palette: 'red' is not a colour #rrggbb"
bad label-from "[ingest]
label-from = path
" "poolbench: $tmp/bad.cfg:2: ingest.label-from wants file, dir or title, got 'path'"
bad twice "db = a.db
db = b.db
" "poolbench: $tmp/bad.cfg:2: 'db' is set twice (first on line 1)"
bad empty "report.title =
" "poolbench: $tmp/bad.cfg:1: 'report.title' has no value"
POOLBENCH_CONFIG="$tmp/missing.cfg" "$pb" list >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "missing named config: exit $rc"
[ "$(cat "$tmp/err")" = "poolbench: $tmp/missing.cfg: cannot read the config file: No such file or directory" ] ||
    fail "missing named config: $(cat "$tmp/err")"
# a bad config does not break completion, --help or --version
got=$(POOLBENCH_CONFIG="$tmp/bad.cfg" "$pb" __complete formats | head -1)
[ "$got" = fio-json ] || fail "__complete with a bad config: $got"
POOLBENCH_CONFIG="$tmp/bad.cfg" "$pb" --version --short >/dev/null || fail "--version with a bad config"
POOLBENCH_CONFIG="$tmp/bad.cfg" "$pb" report --help >/dev/null || fail "report --help with a bad config"

# ==== as root: only root's own file, not writable by others ====
if [ "$(id -u)" = 0 ]; then
    printf 'db = %s/root.db\n' "$tmp" >"$tmp/root.cfg"
    chmod 644 "$tmp/root.cfg"
    POOLBENCH_CONFIG="$tmp/root.cfg" "$pb" ingest -q "$fio" || fail "root's own config"
    [ -f "$tmp/root.db" ] || fail "root's config not used"
    chmod 666 "$tmp/root.cfg"
    POOLBENCH_CONFIG="$tmp/root.cfg" "$pb" list >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "world-writable config: exit $rc"
    [ "$(cat "$tmp/err")" = "poolbench: $tmp/root.cfg: refusing the config file: others can write it (chmod go-w)" ] ||
        fail "world-writable: $(cat "$tmp/err")"
    chmod 644 "$tmp/root.cfg"
    chown 65534 "$tmp/root.cfg"
    POOLBENCH_CONFIG="$tmp/root.cfg" "$pb" list >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "config of another user: exit $rc"
    [ "$(cat "$tmp/err")" = "poolbench: $tmp/root.cfg: refusing the config file: it belongs to uid 65534, not root (poolbench runs as root)" ] ||
        fail "other owner: $(cat "$tmp/err")"
fi

# the man page renders without warnings
if command -v scdoc >/dev/null && command -v man >/dev/null; then
    scdoc <"$src/docs/man/poolbench-config.5.scd" >"$tmp/page" || fail "scdoc poolbench-config.5"
    w=$(MANWIDTH=80 man --warnings -l "$tmp/page" 2>&1 >/dev/null)
    [ -z "$w" ] || fail "man warnings: $w"
fi

[ $fails = 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo ok
