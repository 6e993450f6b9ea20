#!/usr/bin/env bash
# run_clockprobe.sh - the machine's all-core slowdown for register-only
# AVX-512 work (bench/clockprobe.c): one copy alone on cpu 0, then N copies
# at once, one per cpu 0..N-1, twice each.   bench/run_clockprobe.sh [N] [ITERS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
N=${1:-14} iters=${2:-400000000}
mkdir -p build/bench
make -s build/bench/clockprobe
echo "# clockprobe: $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs; $iters iterations"
for rep in 1 2; do
    echo "alone (cpu 0): $(taskset -c 0 build/bench/clockprobe "$iters")"
    for c in $(seq 0 $((N - 1))); do taskset -c "$c" build/bench/clockprobe "$iters" > "build/bench/cp.$c" & done
    wait
    echo "$N at once: $(cat build/bench/cp.* | awk '{s += $1; if ($1 > m) m = $1} END {printf "mean %.4f s, slowest %.4f s", s / NR, m}')"
    rm -f build/bench/cp.*
done
