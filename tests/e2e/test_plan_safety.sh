#!/bin/sh
# e2e (issue 40, fast: no pool is made): a plan is a file people share and
# `poolbench run` runs as root, so a plan cannot run programs on this
# machine, read files into a pool, hide what it runs, reach a server
# elsewhere as if it were here, or make files in system folders. Each
# refusal is exit 2 with `PLAN:LINE: ...` before anything runs, in
# --dry-run too; what the person at the keyboard allows (--allow-exec,
# --allow-remote-command, --ssh) is listed by the dry run, which still
# runs nothing of the plan.
#   item 1: [hosts] remote = ssh (PATH's, or --ssh) with allow-listed
#           options only: ProxyCommand, LocalCommand, -F, a program named
#           ssh elsewhere are refused
#   item 2: the 'FILE' form of buffer_pattern/verify_pattern; an ioengine
#           that is a library is loaded by nothing, not even the preflight
#   item 8: control characters: refused in a plan, escaped in the listing
#   item 10: remote = local takes only servers on this machine
#   item 11: no vdev files in system folders
#   item 13: [plan] allow_exec = yes is refused; --allow-exec is the consent
# usage: test_plan_safety.sh POOLBENCH SOURCE_DIR CORPUS_DIR
set -u
pb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
esc=$(printf '\033')
cr=$(printf '\r')
mark=$tmp/RAN # made by anything of a plan that runs
mkdir "$tmp/vd"

# plan FILE: a plan on a vdev in $tmp/vd, then the lines of stdin
plan() {
    { printf '[plan]\nname = p40\npool = pb40\nvdevs = file:%s/vd/d0.img:128M\n' "$tmp"
      cat; } >"$1"
}
hosts() { # FILE SERVERS REMOTE: a plan with [hosts]
    printf '[hosts]\nservers = %s\nremote = %s\n[fio]\nrw = randread\nsize = 8m\n' \
        "$2" "$3" | plan "$1"
}
ran_nothing() { # WHAT
    if [ -e "$mark" ]; then
        fail "$1: something of the plan ran"
        rm -f "$mark"
    fi
}
# refused WHAT PLAN MESSAGE [OPTIONS]: exit 2, the message, nothing listed
refused() {
    what=$1 p=$2 msg=$3
    shift 3
    "$pb" run --dry-run -o "$tmp/out" "$@" "$p" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, want 2: $(head -3 "$tmp/e")"
    grep -qxF -- "poolbench: $msg" "$tmp/e" ||
        fail "$what: want 'poolbench: $msg', got: $(cat "$tmp/e")"
    [ -s "$tmp/o" ] && fail "$what: the dry run listed commands"
    ran_nothing "$what"
}
listed() { # WHAT PLAN [OPTIONS]: a dry run that lists, exit 0
    what=$1 p=$2
    shift 2
    "$pb" run --dry-run -o "$tmp/out" "$@" "$p" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    [ $rc -eq 0 ] || fail "$what: exit $rc: $(cat "$tmp/e")"
    ran_nothing "$what"
}
P=$tmp/p.ini

# ---- item 1: the remote template
hosts "$P" nas1 "ssh -oProxyCommand={touch,$mark} -oBatchMode=yes {host}"
refused "ProxyCommand" "$P" "$P:7: remote: ssh option '-oProxyCommand={touch,$mark}' is not allowed in a plan (the allowed ones: [hosts] in poolbench-plan(5); --allow-remote-command runs the template as written)"
# and in a real run: refused before the database is even made
"$pb" run --db "$tmp/r.db" -o "$tmp/out" "$P" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "ProxyCommand, real run: exit $rc, want 2"
[ -e "$tmp/r.db" ] && fail "ProxyCommand, real run: the database was made"
ran_nothing "ProxyCommand, real run"
hosts "$P" nas1 "ssh -o LocalCommand=touch -o PermitLocalCommand=yes {host}"
refused "LocalCommand" "$P" "$P:7: remote: ssh option '-o LocalCommand=touch' is not allowed in a plan (the allowed ones: [hosts] in poolbench-plan(5); --allow-remote-command runs the template as written)"
printf 'Match exec "touch %s"\n' "$mark" >"$tmp/cfg"
hosts "$P" nas1 "ssh -F $tmp/cfg {host}"
refused "-F with Match exec" "$P" "$P:7: remote: ssh option '-F' is not allowed in a plan (the allowed ones: [hosts] in poolbench-plan(5); --allow-remote-command runs the template as written)"
mkdir "$tmp/bin"
printf '#!/bin/sh\ntouch %s\n' "$mark" >"$tmp/bin/ssh"
chmod +x "$tmp/bin/ssh"
hosts "$P" nas1 "$tmp/bin/ssh {host}"
refused "a program named ssh" "$P" "$P:7: remote: the template runs '$tmp/bin/ssh', not ssh: a plan names no other program (ssh is found on PATH, or give --ssh PROGRAM) unless the run is given --allow-remote-command"
hosts "$P" nas1 "ssh {host} sudo"
refused "a remote command" "$P" "$P:7: remote: after ssh and its options the template ends with the destination, {host} or USER@{host} (a remote command is the run's own; --allow-remote-command runs the template as written)"
# what a plan may say, and what the command line may
hosts "$P" "nas1, 10.0.0.7:8766" "ssh -o BatchMode=yes -o ConnectTimeout=5 -p 2222 root@{host}"
listed "allowed ssh options" "$P"
grep -q "^ssh -o BatchMode=yes -o ConnectTimeout=5 -p 2222 root@10.0.0.7 ''\\\\''zpool'\\\\''' " "$tmp/o" ||
    fail "allowed ssh options: no such line: $(grep -m1 zpool "$tmp/o")"
listed "--ssh" "$P" --ssh "$tmp/bin/ssh"
grep -q "^# remote: 'ssh' is $tmp/bin/ssh (--ssh)\$" "$tmp/o" || fail "--ssh: not listed"
grep -q "^$tmp/bin/ssh -o BatchMode=yes " "$tmp/o" || fail "--ssh: not the program run"
"$pb" run --dry-run --ssh bin/ssh "$P" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "--ssh relative: exit $rc, want 2"
grep -q "poolbench: run: --ssh wants an absolute path (the ssh to run), got 'bin/ssh'" "$tmp/e" ||
    fail "--ssh relative: $(cat "$tmp/e")"
hosts "$P" nas1 "ssh -oProxyCommand={touch,$mark} {host}"
listed "--allow-remote-command" "$P" --allow-remote-command
grep -qF "# remote template ($P:7): ssh '-oProxyCommand={touch,$mark}' '{host}' (run as written: --allow-remote-command)" "$tmp/o" ||
    fail "--allow-remote-command: the template is not listed: $(grep -m1 template "$tmp/o")"

# ---- item 10: remote = local is this machine
hosts "$P" "localhost:18765, nas1.example.org:8765" local
refused "remote = local, a server elsewhere" "$P" "$P:6: servers: 'nas1.example.org:8765' is not this machine, but remote = local makes its pool here (with local: loopback addresses, localhost, this machine's name '$(hostname)' or sock:PATH; a server elsewhere needs a remote template like: ssh -o BatchMode=yes {host})"
hosts "$P" "localhost:18765, 127.0.0.1:18766, [::1]:18767, $(hostname):18768, sock:$tmp/s.sock" local
listed "remote = local, this machine" "$P"

# ---- item 2: fio options that read files, engines that load code
printf '[fio]\nsize = 8m\nbuffer_pattern = '"'"'/etc/shadow'"'"'\n' | plan "$P"
refused "buffer_pattern file" "$P" "$P:7: buffer_pattern='/etc/shadow': '...' is fio's file form (fio, as root, would copy that file into the pool's data); write the pattern as 0xHEX, a decimal number or a \"string\""
printf '[fio]\nsize = 8m\nverify = pattern\nverify_pattern = 0xdead'"'"'/etc/shadow'"'"'\n' | plan "$P"
refused "verify_pattern file" "$P" "$P:8: verify_pattern=0xdead'/etc/shadow': '...' is fio's file form (fio, as root, would copy that file into the pool's data); write the pattern as 0xHEX, a decimal number or a \"string\""
printf '[fio]\nsize = 8m\nbuffer_pattern = 0xdeadbeef\nverify = pattern\nverify_pattern = 0xff%%o\n' | plan "$P"
listed "patterns without files" "$P"
grep -q -- "--buffer_pattern=0xdeadbeef " "$tmp/o" || fail "patterns: not passed to fio"
printf '[fio]\nsize = 8m\nioengine = net\n' | plan "$P"
refused "a network engine" "$P" "$P:7: ioengine=net: is not an engine a plan may use (fio's file engines: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio, mmap, splice, null, falloc, filecreate, filestat, filedelete, ftruncate; fio loads any other name as a library)"
if command -v cc >/dev/null 2>&1; then
    # fio loads an engine it does not know with dlopen(), and so does the
    # preflight's `fio --enghelp=VALUE`: its constructor ran as root
    # during a dry run before (userspace_reap made the preflight ask)
    printf '#include <stdio.h>\n__attribute__((constructor)) static void c(void)\n{ FILE *f = fopen("%s", "w"); if (f) fclose(f); }\n' "$mark" >"$tmp/evil.c"
    cc -shared -fPIC -o "$tmp/evil.so" "$tmp/evil.c" || fail "cannot build evil.so"
    printf '[fio]\nsize = 8m\nuserspace_reap = 1\nioengine = %s\n' "$tmp/evil.so" | plan "$P"
    refused "an engine library" "$P" "$P:8: ioengine=$tmp/evil.so runs programs or loads code as root; a plan cannot allow that itself: read it in --dry-run, then give the run --allow-exec"
    "$pb" run --dry-run --allow-exec -o "$tmp/out" "$P" >/dev/null 2>&1
    ran_nothing "an engine library, --allow-exec --dry-run"
else
    echo "note: no cc: the engine library part is skipped"
fi

# ---- item 13: consent to commands comes from the command line
printf 'allow_exec = yes\n[fio]\nsize = 8m\n' | plan "$P"
refused "allow_exec = yes" "$P" "$P:5: allow_exec = yes: a plan cannot allow itself to run commands; the person running it gives --allow-exec (after reading them in --dry-run)"
printf '[fio]\nsize = 8m\nexec_postrun = touch %s\n' "$mark" | plan "$P"
refused "exec_postrun" "$P" "$P:7: fio option 'exec_postrun' runs a command through a shell as root; a plan cannot allow that itself: read it in --dry-run, then give the run --allow-exec"
listed "exec_postrun, --allow-exec" "$P" --allow-exec
grep -qxF "# warning: $P:7: exec_postrun=touch $mark is a command fio runs through a shell as root, allowed by --allow-exec" "$tmp/o" ||
    fail "--allow-exec: the command is not listed: $(grep -m1 warning "$tmp/o")"
grep -qxF "poolbench: warning: $P:7: exec_postrun=touch $mark is a command fio runs through a shell as root, allowed by --allow-exec" "$tmp/e" ||
    fail "--allow-exec: no warning on stderr: $(cat "$tmp/e")"

# ---- item 11: vdev files in system folders
printf '[fio]\nsize = 8m\n' >"$tmp/fio"
{ printf '[plan]\nvdevs = file:/etc/cron.d/pb40-%s:64M\n' "$$"; cat "$tmp/fio"; } >"$P"
refused "/etc/cron.d" "$P" "$P:2: 'vdevs': vdev file '/etc/cron.d/pb40-$$' is in a system folder (/etc): the run makes it as root with bytes the plan chooses; use /var/tmp, /tmp or a data disk"
{ printf '[plan]\nvdevs = file:/etc/ld.so.preload:64M\n'; cat "$tmp/fio"; } >"$P"
refused "/etc/ld.so.preload" "$P" "$P:2: 'vdevs': vdev file '/etc/ld.so.preload' is in a system folder (/etc): the run makes it as root with bytes the plan chooses; use /var/tmp, /tmp or a data disk"
ln -s /usr/lib "$tmp/lib"
{ printf '[plan]\nvdevs = loop:%s/lib/pb40.img:64M\n' "$tmp"; cat "$tmp/fio"; } >"$P"
refused "a link into /usr" "$P" "$P:2: 'vdevs': vdev file '$tmp/lib/pb40.img' (really '/usr/lib/pb40.img') is in a system folder (/usr): the run makes it as root with bytes the plan chooses; use /var/tmp, /tmp or a data disk"
[ -e "/etc/cron.d/pb40-$$" ] && fail "/etc/cron.d/pb40-$$ was made"

# ---- item 8: control characters
printf '[fio]\nsize = 8m\nrw = read\033[2K\rrandwrite\n' | plan "$P"
refused "ESC in a value" "$P" "$P:7:10: control character 0x1b in the plan (a plan is text: ESC, BEL, CR and the like could hide what it runs)"
{ printf '[plan]\nvdevs = file:%s/vd/a\007b.img:128M\n' "$tmp"; cat "$tmp/fio"; } >"$P"
refused "BEL in a vdev path" "$P" "$P:2:$(( ${#tmp} + 19 )): control character 0x07 in the plan (a plan is text: ESC, BEL, CR and the like could hide what it runs)"
# what does not come from the plan is escaped: a folder named with ESC
printf '[fio]\nsize = 8m\n' | plan "$P"
out="$tmp/o${esc}[2K${cr}x"
"$pb" run --dry-run -o "$out" "$P" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "ESC in -o: exit $rc: $(cat -v "$tmp/e")"
grep -q "$esc" "$tmp/o" "$tmp/e" && fail "ESC in -o: a raw ESC in the listing: $(grep -m1 "$esc" "$tmp/o" | cat -v)"
grep -q "$cr" "$tmp/o" "$tmp/e" && fail "ESC in -o: a raw CR in the listing"
grep -qF -- "'--directory=$tmp/o'\$'\\x1b''[2K'\$'\\x0d''x/mnt/pb'" "$tmp/o" ||
    fail "ESC in -o: not escaped as \$'\\xHH': $(grep -m1 directory "$tmp/o" | cat -v)"

[ $fails -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "plan safety checks passed"
