#!/usr/bin/env bash
# gpu_bench.sh - the kernel benchmarks on a GPU machine, in one call
# (after gpu_check.sh built everything):
#   bench_gpu.txt  real 16S pairs (16s-2k): every kernel (auto and each one
#                  forced) with device trace-back, host trace-back and
#                  score-only, linear and affine gaps, beside one CPU thread
#                  and the Rodinia-NW baseline measured in the same run;
#   bench_trim.txt the same genes cut to 32..512 bases: RScan-mNW against
#                  DScan-mNW (where AUTO's RScan limit comes from);
#   sass.txt       the inner loops' instruction mix (cuobjdump, sm_90).
# Writes to $OUT (default bench/tmp). Data: devdata/16s-2k.fa.gz (carried).
# Usage: bench/device/gpu_bench.sh [PAIRS]   (default 200000)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
PAIRS=${1:-200000}
bench_cuda
make -j"$(nproc)" bin/mnw build/bench/bench_gpu >/dev/null 2>&1 || { echo "build failed"; exit 1; }
{ date -u; nvidia-smi -L; } > "$OUT/bench_gpu.txt"
build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs "$PAIRS" --cpu-pairs 1000 --rodinia-pairs 100 2>&1 | tee -a "$OUT/bench_gpu.txt"
: > "$OUT/bench_trim.txt"
for L in 32 64 128 256 512; do
    build/bench/bench_gpu devdata/16s-2k.fa.gz --trim $L --pairs 1000000 --gaps linear --kernels rscan,dscan \
        --tb device,score --cpu-pairs 2000 --rodinia-pairs 0 2>&1 | tee -a "$OUT/bench_trim.txt"
done
{
    cuobjdump -sass -arch sm_90 build/workers/gpu/gpu_kernels.o > "$OUT/k.sass" 2>&1
    for k in 'rscanILb0ELb0ELb1E' 'dscanILb0ELb0ELb1ELb1E' 'dscanILb1ELb0ELb1ELb1E' 'dscanILb0ELb0ELb1ELb0E'; do
        echo "== $k"; python3 bench/sass_loops.py "$OUT/k.sass" "$k" 3
    done
    rm -f "$OUT/k.sass"
} > "$OUT/sass.txt" 2>&1
cat "$OUT/sass.txt"
