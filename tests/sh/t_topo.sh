# t_topo.sh - the topology module under a narrowed binding: build/tests/test_topo
# run under taskset on one CPU must see a binding of 1 core and a default
# worker count of 1 (MNW_TOPO_EXPECT_BOUND), and pass all its other checks
# there (thread binding wraps on the one core, GPUs from XML, ...).
source "$(dirname "$0")/../lib.sh"
BIN="$BUILD/tests/test_topo"
if ! command -v taskset >/dev/null 2>&1; then
    echo "ok - test_topo under taskset on one CPU # skip taskset not found"
    finish
fi
ok "build/tests/test_topo is built (make build/tests/test_topo)" test -x "$BIN"
# the first CPU this shell may use (CPU 0 may be outside a Slurm cgroup)
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
check "first CPU of this shell's binding: $cpu" '[[ "$cpu" =~ ^[0-9]+$ ]]'
# without the sanitizer runs' HWLOC_COMPONENTS (tests/lib.sh), which would
# make hwloc ignore the HWLOC_XMLFILE of its XML topologies
MNW_TOPO_EXPECT_BOUND=1 env -u HWLOC_COMPONENTS taskset -c "$cpu" "$BIN" >"$TMP/out" 2>&1
rc=$?
nok=$(grep -c '^not ok' "$TMP/out")
check "test_topo under taskset -c $cpu: exit 0, no failing check (exit $rc, $nok failing, $(grep -c '^ok - ' "$TMP/out") passing)" \
    '[ "$rc" -eq 0 ] && [ "$nok" -eq 0 ] && grep -q "^ok - " "$TMP/out"'
[ "$nok" -eq 0 ] || grep '^not ok' "$TMP/out" | sed 's/^/#   /'
check "under taskset -c $cpu: bound cores 1" 'grep -qx "ok - MNW_TOPO_EXPECT_BOUND=1: bound cores 1" "$TMP/out"'
check "under taskset -c $cpu: default workers 1" 'grep -qx "ok - MNW_TOPO_EXPECT_BOUND=1: default workers 1" "$TMP/out"'
check "describe(): process bound to 1 core / 1 PU ($cpu)" 'grep -q "process bound to 1 core / 1 PU ($cpu)" "$TMP/out"'
finish
