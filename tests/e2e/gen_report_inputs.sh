# Sourced by the report e2e tests that generate their inputs
# (test_report_bonnie_memory.sh, test_report_bonnie_pages.sh,
# test_report_table_pages.sh): the shared preamble and generators.
# Before sourcing: pb and src set (POOLBENCH and SOURCE_DIR). Sets tmp
# (removed on exit), fails and fail(); exits 77 without python3.

command -v python3 >/dev/null 2>&1 || { echo "skipping: no python3" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# N FILE: N distinct bonnie++ machines, the first row of a real bonnie++
# 2.00a CSV with machine name m0000i and putc (Per Chr) 1000 + i K/s.
gen_bonnie_machines() {
    python3 - "$src/fixtures/bonnie-csv/bonnie-2.00a_q-two-runs-appended.csv" "$1" "$2" <<'PYEOF'
import sys
row = open(sys.argv[1]).readline().rstrip('\n').split(',')
with open(sys.argv[3], 'w') as f:
    for i in range(int(sys.argv[2])):
        r = list(row)
        r[2] = 'm%05d' % i
        r[9] = str(1000 + i)   # putc (Per Chr), K/s
        f.write(','.join(r) + '\n')
PYEOF
}

# N FILE: a summary table (`table` format) of N configurations of one
# test: disks=1..N, read IOPS 1000 + 37i mod N, latency 50 + 11i mod N.
gen_table_configs() {
    python3 - "$1" "$2" <<'PYEOF'
import sys
n = int(sys.argv[1])
with open(sys.argv[2], "w") as f:
    f.write("disks\trw\tbs\tIOPS\tlat (us)\n")
    for i in range(n):
        f.write("%d\trandread\t4k\t%d\t%d\n" %
                (i + 1, 1000 + (37 * i) % n, 50 + (11 * i) % n))
PYEOF
}
