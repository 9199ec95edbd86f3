#!/bin/sh
# e2e: fio JSON streamed (docs/performance.md, "Streaming ingest", fio JSON).
# Every fio JSON fixture and corpus file stored in parts of 1 and 40
# results gives the database of the whole parse (bad ones: the same error,
# nothing stored); a generated file of 20,000 jobs (numjobs clones cut by
# no chunk, a filename per job, a json,normal tail with fio's interrupt
# line) the same; a broken job near its end stores nothing of it (one line
# path:line: ..., exit 1, the other files stored); client/server output
# ("client_stats", hosts named host:port, "All clients") the same in parts,
# 16,000 of its entries with peak RSS under 64 MB; and 20,000 jobs
# (107 MB of JSON) are ingested with peak RSS under 64 MB (not under
# ASan).
# usage: test_ingest_stream_fio.sh POOLBENCH SOURCE_DIR [CORPUS_DIR]
set -u
pb=$1 src=$2
. "$src/tests/e2e/stream_compare.sh"
stream_begin python3

stream_same_each 17 "fio JSON" "$src"/fixtures/fio-json/*.json \
    "$src"/fixtures/fio-json/bad/* ${3:+"$3"/fio-json/*}
# a title line and disk_util: the title's label_origin fact after the
# end-of-file device facts, streamed as whole (facts compared by rowid)
stream_same "$src/tests/regress/fio_json_stream/facts-order-title-disk-util.json" 1 40
# steadystate results after all others: such a file stays one part
stream_same "$src/fixtures/fio-log/ss.json" 1 40

# gen N OUT [BADJOB]: a fio JSON of N jobs made from a fixture's first job
# (write iops 1000 + i % 997 + 0.25), every 50th position a group of 3
# numjobs clones "cNNNNNN", every 7th ioengine sync instead of psync (a
# test of the same name with other parameters: its own test, whole and
# streamed), a json,normal tail with fio's interrupt line; job BADJOB
# has usr_cpu 1.2.5
gen() {
    python3 - "$src/fixtures/fio-json/fio-3.33_randwrite_numjobs3_no-group-reporting.json" "$@" <<'PY'
import json, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bad = int(sys.argv[4]) if len(sys.argv) > 4 else -1
d = json.load(open(src))
j = d['jobs'][0]
j['jobname'] = '@NAME@'
j['groupid'] = 12345678
o = j['job options']
o['numjobs'] = '@NJ@'
o['filename'] = '@DEV@'
o['ioengine'] = '@ENG@'
j['write']['iops'] = 987654321.25
j['usr_cpu'] = 7654321.5
t = '\n'.join('    ' + l for l in json.dumps(j, indent=2).split('\n'))
t = t.replace('"@NAME@"', '"%(name)s"').replace('12345678', '%(gid)d')
t = t.replace('"@NJ@"', '"%(nj)d"').replace('"@DEV@"', '"/dev/sd%(dev)s"')
t = t.replace('"@ENG@"', '"%(eng)s"')
t = t.replace('987654321.25', '%(iops)s').replace('7654321.5', '%(cpu)s')
with open(out, 'w') as f:
    f.write('note: both iodepth >= 1 and synchronous I/O engine are '
            'selected, queue depth will be capped at 1\n')
    f.write('{\n  "fio version" : "%s",\n  "jobs" : [\n' % d['fio version'])
    i = 0
    while i < n:
        nj = 3 if i % 50 == 49 else 1
        for k in range(nj):
            x = i + k
            v = {'name': ('c%06d' if nj > 1 else 'j%06d') % i, 'gid': i // 1000,
                 'nj': nj, 'dev': 'abcd'[i % 4], 'iops': '%d.25' % (1000 + x % 997),
                 'eng': 'sync' if i % 7 == 3 else 'psync',
                 'cpu': '1.5' if x != bad else '1.2.5'}
            f.write((',\n' if x else '') + t % v)
        i += nj
    f.write('\n  ],\n  "disk_util" : %s\n}\nfio: terminating on signal 2\n'
            % json.dumps(d.get('disk_util', [])))
PY
}

# -- generated: the same database in parts of 1, 40 and 16,384 results
gen 600 "$tmp/g.json"
stream_same "$tmp/g.json" 1 40 16384
db="$tmp/g.db"
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --db "$db" \
    "$tmp/g.json" >"$tmp/out" 2>&1 || fail "g.json: $(cat "$tmp/out")"
grep -q "g.json: fio-json, 7934 results" "$tmp/out" ||
    fail "g.json: $(cat "$tmp/out")"
v() { # v JOB METRIC: value
    q "$db" "SELECT value FROM v_result WHERE job = '$1' AND metric = '$2'"
}
[ "$(v j000102 write_iops)" = 1102.25 ] || fail "j000102 $(v j000102 write_iops)"
# one test per numjobs, each with psync and with sync jobs: 4 tests, the
# ioengine in their names (it differs between the file's jobs)
got=$(q "$db" "SELECT group_concat(t.name || ':' || p.value, ',') FROM
               (SELECT * FROM test ORDER BY id) t JOIN test_param p
               ON p.test_id = t.id AND p.key = 'ioengine'")
[ "$got" = "fio randwrite bs=4k iodepth=1 ioengine=psync:psync,fio randwrite bs=4k iodepth=1 ioengine=sync:sync,fio randwrite bs=4k iodepth=1 numjobs=3 ioengine=psync:psync,fio randwrite bs=4k iodepth=1 numjobs=3 ioengine=sync:sync" ] ||
    fail "tests: '$got'"
# the jobs on four disks: one configuration per target, labelled by the
# file (many job names), the target a dimension
got=$(q "$db" "SELECT group_concat(c.label || ':' || p.value, ',') FROM
               (SELECT * FROM config ORDER BY id) c JOIN config_param p
               ON p.config_id = c.id AND p.key = 'target'")
[ "$got" = "g:/dev/sda,g:/dev/sdb,g:/dev/sdc,g:/dev/sdd" ] ||
    fail "configs: '$got'"
[ "$(q "$db" "SELECT DISTINCT p.value FROM result x JOIN job j
              ON j.id = x.job_id JOIN test_param p ON p.test_id = x.test_id
              AND p.key = 'ioengine' WHERE j.name = 'j000003'")" = sync ] ||
    fail "j000003 ioengine"
# clones 49..51: 1049.25 + 1050.25 + 1051.25
[ "$(v 'c000049#2' write_iops)" = 1051.25 ] || fail "clone #2"
[ "$(v c000049 write_iops)" = 3150.75 ] || fail "aggregate $(v c000049 write_iops)"
[ "$(q "$db" "SELECT count(*) FROM v_result WHERE job LIKE 'c%#%'
              AND metric = 'write_iops'")" = 36 ] || fail "clone count"
got=$(q "$db" "SELECT key || '=' || value FROM fact WHERE key != 'file_time' ORDER BY rowid")
want="fio_version=fio-3.33
label_origin=file: fio jobs of several names on one target (g)
device=/dev/sda, /dev/sdb, /dev/sdc, /dev/sdd
flag.interrupted=line 149906: fio: terminating on signal 2; ran 0.002 s"
[ "$got" = "$want" ] || fail "facts: '$got'"

# -- a broken job near the end: nothing of the file, the other stored
gen 2000 "$tmp/bad.json" 1990
small="$src/fixtures/fio-json/fio-3.33_three-jobs.json"
db="$tmp/b.db"
"$pb" ingest --db "$db" --quiet "$small" "$tmp/bad.json" 2>"$tmp/err" \
    >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "broken job: exit $rc, expected 1"
want="poolbench: $tmp/bad.json:495689:18: invalid JSON: invalid number or literal '1.2.5'"
got=$(grep -v "stored (" "$tmp/err")
[ "$got" = "$want" ] || fail "broken job: stderr '$got'"
[ "$(q "$db" "SELECT count(*) FROM source")" = 1 ] || fail "broken: sources"
[ "$(q "$db" "SELECT count(*) FROM v_result WHERE job LIKE 'j0%'")" = 0 ] ||
    fail "broken job: results of the broken file stored"
"$pb" ingest --dump "$tmp/bad.json" 2>"$tmp/err2" >/dev/null
[ "$(grep -v "stored (" "$tmp/err2")" = "$want" ] ||
    fail "--dump says '$(cat "$tmp/err2")'"

# gen_clients N OUT: client/server output ("client_stats") of N groups of
# three clients (127.0.0.1 on ports 18771-18773: hosts named host:port)
# running job "jNNNNNN" (read iops 2000 + i % 991 + port - 18771), each
# group followed by fio's "All clients" entry, made from a fixture's
gen_clients() {
    python3 - "$src/fixtures/fio-json/fio-3.33_client-server_three-servers.json" "$@" <<'PY'
import json, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = open(src).read()
d, _ = json.JSONDecoder().raw_decode(t[t.index('{'):])
cs = d.pop('client_stats')
cli, agg = cs[0], cs[3]
ents = []
for i in range(n):
    for port in (18771, 18772, 18773):
        e = json.loads(json.dumps(cli))
        e['jobname'] = 'j%06d' % i
        e['port'] = port
        e['read']['iops'] = 2000 + i % 991 + port - 18771 + 0.5
        ents.append(e)
    a = json.loads(json.dumps(agg))
    a['read']['iops'] = 9000 + i % 991 + 0.5
    ents.append(a)
d['client_stats'] = ents
with open(out, 'w') as f:
    json.dump(d, f, indent=1)
    f.write('\n')
PY
}

# -- client/server in parts: the same database in parts of 1 and 40 (a
# part is cut only after an "All clients" entry, which takes its clients'
# job and test), hosts named host:port across parts
gen_clients 300 "$tmp/cs.json"
stream_same "$tmp/cs.json" 1 40
db="$tmp/cs.db"
POOLBENCH_STREAM_MIN=0 POOLBENCH_STREAM_PART=40 "$pb" ingest --db "$db" \
    "$tmp/cs.json" >"$tmp/out" 2>&1 || fail "cs.json: $(cat "$tmp/out")"
got=$(q "$db" "SELECT group_concat(host || '=' || value, ',') FROM
               (SELECT host, value FROM v_result WHERE job = 'j000250'
               AND metric = 'read_iops' ORDER BY host)")
[ "$got" = "(all clients)=9250.5,127.0.0.1:18771=2250.5,127.0.0.1:18772=2251.5,127.0.0.1:18773=2252.5" ] ||
    fail "cs.json: read_iops '$got'"

# -- peak RSS of 20,000 jobs (107 MB of JSON; parsed whole: 505 MB)
if stream_rss_ok; then
    gen 20000 "$tmp/big.json"
    db="$tmp/c.db"
    stream_rss_bound "$tmp/big.json" "$db" 65536 263626 "20k jobs"
    # client/server: 16,000 entries (about 100 MB; parsed whole: ~470 MB)
    gen_clients 4000 "$tmp/bigcs.json"
    stream_rss_bound "$tmp/bigcs.json" "$tmp/d.db" 65536 192000 \
        "4k groups of 3 clients"
fi

stream_end
