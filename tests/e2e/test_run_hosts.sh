#!/bin/sh
# e2e (root, real ZFS): a plan with [hosts]. Three `fio --server` on
# loopback ports and one on a local socket, remote = local: a 2-cell plan
# runs one fio with a --client and job file per server, on one pool per
# "host" (POOL-h1 .. POOL-h4, vdev files PATH-h1 ..). The database holds
# per-host results under the plan's server entries plus "(all clients)",
# zfs properties per host, and nothing of the pools or files is left.
# Then one server is killed while fio runs: its part fails with the
# reason, the others' results are kept and marked flag.partial, nothing is
# left, exit status 1; once the server is back, --resume runs the cell
# again and the partial record is replaced. Last, a host whose shell
# fails (a remote template that cannot run) loses its part the same way,
# and a template that is not ssh needs --allow-remote-command; so does a
# server that is down before the cell (fio's "failed to connect" quoted).
# usage: test_run_hosts.sh POOLBENCH SOURCE_DIR CORPUS_DIR
# exit 77 (skip) without root, fio, sqlite3 or a usable zpool.
set -u
pb=$1

. "$(dirname "$0")/zfs_env.sh"

base=$(mktemp -d "/var/tmp/pb-e2e-hosts.XXXXXX")
pool=pbh15e$$
run=
spids=
cleanup() {
    [ -n "$run" ] && kill -TERM "$run" 2>/dev/null && wait "$run" 2>/dev/null
    for p in $spids; do stop_server "$p"; done
    for p in $(zpool list -H -o name 2>/dev/null | grep "^$pool-h"); do
        timeout 120 zpool destroy "$p" || echo "left: pool $p"
    done
    rm -rf "$base"
}
trap cleanup EXIT

# three free loopback ports from 18765 on
ports=
p=18765
while [ "$(echo $ports | wc -w)" -lt 3 ] && [ $p -lt 18865 ]; do
    ss -Hltn "sport = :$p" 2>/dev/null | grep -q . || ports="$ports $p"
    p=$((p + 1))
done
set -- $ports
P1=$1 P2=$2 P3=$3
sock=$base/fio.sock
# start_server ARG: a fio server in its own process group (killed whole:
# the server forks a child per job)
start_server() {
    setsid fio --server="$1" >"$base/server-$(echo "$1" | tr -c 'a-z0-9\n' _).log" 2>&1 &
    spids="$spids $!"
    last=$!
}
# stop_server PID: the server and all its descendants. fio runs a job in
# a process of its own group that holds the server's listening socket:
# left alive, it would take connections meant for a restarted server.
tree() { # PID: PID and its descendants
    echo "$1"
    for c in $(pgrep -P "$1"); do tree "$c"; done
}
stop_server() {
    env kill -9 -- $(tree "$1") 2>/dev/null
}
start_server "ip:127.0.0.1,$P1"; s1=$last
start_server "ip:127.0.0.1,$P2"; s2=$last
start_server "ip:127.0.0.1,$P3"; s3=$last
start_server "sock:$sock"; s4=$last
sleep 1

H1=localhost:$P1 H2=localhost:$P2 H3=localhost:$P3 H4=sock:$sock

plan() { # FILE RW RUNTIME
    cat >"$1" <<EOP
[plan]
name = e2e-hosts
pool = $pool
vdevs = file:$base/d0.img:128M
[hosts]
servers = $H1, $H2,
          $H3, $H4
remote = local
[dataset]
recordsize = 128k
[fio]
rw = $2
bs = 4k
size = 4m
runtime = $3
time_based = 1
EOP
}
q() { sqlite3 -batch -noheader "$db" "$1"; }
nothing_left() { # WHAT
    left=$(zpool list -H -o name 2>/dev/null | grep "^$pool" | tr '\n' ' ')
    [ -z "$left" ] || fail "$1: pools left: $left"
    for k in 1 2 3 4; do
        [ -e "$base/d0.img-h$k" ] && fail "$1: vdev file d0.img-h$k left"
    done
    [ -e "$base/d0.img" ] && fail "$1: vdev file d0.img made"
}

# ---- 1. four servers, two cells
plan "$base/h.ini" "randread, write" 1
db=$base/h.db out=$base/hout
timeout 600 "$pb" run --db "$db" -o "$out" "$base/h.ini" >/dev/null 2>"$base/h.err"
rc=$?
[ $rc = 0 ] || { fail "run: exit $rc"; cat "$base/h.err" >&2; }
nothing_left "run"
# per cell one fio source and one zfs-props source per host
[ "$(q "SELECT count(*) FROM source WHERE format = 'fio-json'")" = 2 ] ||
    fail "fio sources: $(q "SELECT count(*) FROM source WHERE format = 'fio-json'")"
[ "$(q "SELECT count(*) FROM source WHERE format = 'zfs-props'")" = 8 ] ||
    fail "zfs-props sources: $(q "SELECT count(*) FROM source WHERE format = 'zfs-props'")"
hosts=$(q "SELECT DISTINCT host FROM v_result WHERE format = 'fio-json' ORDER BY host" | tr '\n' '|')
want=$(printf '%s\n' "(all clients)" "$H1" "$H2" "$H3" "$H4" | sort | tr '\n' '|')
[ "$hosts" = "$want" ] || fail "fio result hosts: '$hosts', want '$want'"
# every host and the aggregate: read_iops in the randread cell, write_iops
# in the write cell (exactly one each)
for h in "(all clients)" "$H1" "$H2" "$H3" "$H4"; do
    n=$(q "SELECT count(*) FROM v_result WHERE host = '$h' AND metric = 'read_iops' AND test LIKE '%randread%' AND value > 0")
    [ "$n" = 1 ] || fail "host $h: $n randread read_iops results"
    n=$(q "SELECT count(*) FROM v_result WHERE host = '$h' AND metric = 'write_iops' AND test LIKE '%write%' AND value > 0")
    [ "$n" = 1 ] || fail "host $h: $n write write_iops results"
done
# the aggregate is fio's "All clients": its bytes are the hosts' sum
# (exactly; its IOPS divide that by the longest runtime)
sum=$(q "SELECT sum(value) FROM v_result WHERE metric = 'read_bytes' AND host <> '(all clients)' AND test LIKE '%randread%'")
agg=$(q "SELECT value FROM v_result WHERE metric = 'read_bytes' AND host = '(all clients)' AND test LIKE '%randread%'")
[ -n "$agg" ] && [ "$agg" = "$sum" ] ||
    fail "all clients read_bytes '$agg', sum of hosts '$sum'"
# facts per host: its pool, and the zfs properties under the host
k=1
for h in "$H1" "$H2" "$H3" "$H4"; do
    v=$(q "SELECT DISTINCT value FROM fact WHERE host = '$h' AND key = 'run_host_pool'")
    [ "$v" = "$pool-h$k" ] || fail "host $h: run_host_pool '$v'"
    n=$(q "SELECT count(*) FROM v_result WHERE host = '$h' AND format = 'zfs-props' AND metric = 'used'")
    [ "$n" = 2 ] || fail "host $h: $n zfs-props 'used' results (one per cell)"
    k=$((k + 1))
done
n=$(q "SELECT count(*) FROM fact WHERE key = 'flag.partial'")
[ "$n" = 0 ] || fail "run: $n flag.partial facts"
# the report shows the host dimension: a Hosts section with a chart of the
# four hosts for each test, every host named in it
"$pb" report --db "$db" -o "$base/hrep" >/dev/null 2>"$base/hrep.err" ||
    fail "report: $(cat "$base/hrep.err")"
sed -n '/id="hosts"/,$p' "$base/hrep/index.html" >"$base/hosts.html"
[ -s "$base/hosts.html" ] || fail "report: no Hosts section"
n=$(grep -o "4 hosts: min" "$base/hosts.html" | wc -l)
[ "$n" -ge 2 ] || fail "report: $n charts of 4 hosts"
for t in "fio randread bs=4k" "fio write bs=4k"; do
    grep -Eq "$t[^<]*: [a-z]+ (IOPS|bandwidth) " "$base/hosts.html" ||
        fail "report: no throughput chart of the hosts for test '$t'"
done
for h in "$H1" "$H2" "$H3" "$H4"; do
    grep -qF "$h" "$base/hosts.html" || fail "report: host $h not in the Hosts section"
done
grep -q "zpool create .* $pool-h3 .*# host $H3" "$out/commands.log" ||
    fail "commands.log does not name the host of each command"
grep -q -- "--client=localhost,$P2 $out/raw/c001.h2.fio" "$out/commands.log" ||
    fail "commands.log: no --client per server"

# ---- 2. a server killed while fio runs
plan "$base/k.ini" "randread" 6
db=$base/k.db out=$base/kout
timeout 600 "$pb" run --db "$db" -o "$out" "$base/k.ini" >/dev/null 2>"$base/k.err" &
run=$!
for i in $(seq 1 300); do
    grep -q '^fio --output-format=json' "$out/commands.log" 2>/dev/null && break
    sleep 0.2
done
sleep 2
stop_server "$s2"
wait "$run"
rc=$?
run=
[ $rc = 1 ] || { fail "killed server: exit $rc, want 1"; cat "$base/k.err" >&2; }
grep -q "host $H2 failed: no result from its fio server" "$base/k.err" ||
    fail "killed server: its failure and reason not printed"
grep -q "1 cell kept partial .*cell 1: $H2 (no result" "$base/k.err" ||
    fail "killed server: the summary does not name the partial cell"
nothing_left "killed server"
v=$(q "SELECT value FROM fact WHERE key = 'flag.partial'" | sort -u)
case "$v" in "$H2 (no result from its fio server"*) ;;
*) fail "flag.partial: '$v'" ;; esac
hosts=$(q "SELECT DISTINCT host FROM v_result WHERE format = 'fio-json' AND metric = 'read_iops' ORDER BY host" | tr '\n' '|')
want=$(printf '%s\n' "(all clients)" "$H1" "$H3" "$H4" | sort | tr '\n' '|')
[ "$hosts" = "$want" ] || fail "killed server: result hosts '$hosts', want '$want'"

# ---- 3. the server back: --resume runs the cell again on every server
start_server "ip:127.0.0.1,$P2"; s2=$last
sleep 1
timeout 600 "$pb" run --resume --db "$db" -o "$out" "$base/k.ini" >/dev/null 2>"$base/r.err"
rc=$?
[ $rc = 0 ] || { fail "resume: exit $rc"; cat "$base/r.err" >&2; }
nothing_left "resume"
n=$(q "SELECT count(*) FROM fact WHERE key = 'flag.partial'")
[ "$n" = 0 ] || fail "resume: $n flag.partial facts left"
hosts=$(q "SELECT DISTINCT host FROM v_result WHERE format = 'fio-json' AND metric = 'read_iops' ORDER BY host" | tr '\n' '|')
want=$(printf '%s\n' "(all clients)" "$H1" "$H2" "$H3" "$H4" | sort | tr '\n' '|')
[ "$hosts" = "$want" ] || fail "resume: result hosts '$hosts', want '$want'"
[ "$(q "SELECT count(*) FROM source WHERE format = 'fio-json'")" = 1 ] ||
    fail "resume: fio sources $(q "SELECT count(*) FROM source WHERE format = 'fio-json'")"
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "resume: database damaged"

# ---- 4. a host whose shell fails: remote = a template that cannot run
# (`env HOST ...` finds no program HOST); the socket server's pool work is
# local and its part runs
cat >"$base/t.ini" <<EOP
[plan]
name = e2e-hosts-shell
pool = $pool
vdevs = file:$base/d0.img:128M
[hosts]
servers = $H1, $H4
remote = env {host}
[fio]
rw = randread
bs = 4k
size = 4m
runtime = 1
time_based = 1
EOP
db=$base/t.db out=$base/tout
timeout 300 "$pb" run --db "$db" -o "$out" "$base/t.ini" >/dev/null 2>"$base/t.err"
rc=$?
[ $rc = 2 ] || fail "template env: exit $rc without --allow-remote-command, want 2"
grep -q "remote: the template runs 'env', not ssh" "$base/t.err" ||
    fail "template env: refusal not printed"
timeout 300 "$pb" run --allow-remote-command --db "$db" -o "$out" "$base/t.ini" >/dev/null 2>"$base/t.err"
rc=$?
[ $rc = 1 ] || { fail "failing shell: exit $rc, want 1"; cat "$base/t.err" >&2; }
grep -q "host $H1 failed: cannot create vdev file '$base/d0.img-h1': the shell of host $H1 failed: env: .localhost.: No such file or directory" "$base/t.err" ||
    { fail "failing shell: no reason printed"; cat "$base/t.err" >&2; }
nothing_left "failing shell"
hosts=$(q "SELECT DISTINCT host FROM v_result WHERE format = 'fio-json' ORDER BY host" | tr '\n' '|')
[ "$hosts" = "$H4|" ] || fail "failing shell: result hosts '$hosts', want '$H4|'"
v=$(q "SELECT DISTINCT value FROM fact WHERE key = 'flag.partial'")
case "$v" in "$H1 (cannot create vdev file '$base/d0.img-h1': the shell of host $H1 failed: "*) ;; *) fail "failing shell: flag.partial '$v'" ;; esac

# ---- 5. a server down before the cell: fio goes on with the others
stop_server "$s3"
sleep 0.5
plan "$base/d.ini" "randread" 1
db=$base/d.db out=$base/dout
timeout 300 "$pb" run --db "$db" -o "$out" "$base/d.ini" >/dev/null 2>"$base/d.err"
rc=$?
[ $rc = 1 ] || { fail "server down: exit $rc, want 1"; cat "$base/d.err" >&2; }
grep -q "host $H3 failed: no result from its fio server (fio exit [0-9]*: fio: failed to connect to $H3)" "$base/d.err" ||
    { fail "server down: reason not printed"; cat "$base/d.err" >&2; }
nothing_left "server down"
hosts=$(q "SELECT DISTINCT host FROM v_result WHERE format = 'fio-json' AND metric = 'read_iops' ORDER BY host" | tr '\n' '|')
want=$(printf '%s\n' "(all clients)" "$H1" "$H2" "$H4" | sort | tr '\n' '|')
[ "$hosts" = "$want" ] || fail "server down: result hosts '$hosts', want '$want'"

[ $fails = 0 ] || exit 1
echo "hosts run checks passed"
