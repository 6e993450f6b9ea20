#!/usr/bin/env bash
# device_gpu_check.sh - on a GPU machine, in one call: build (with nvcc),
# the GPU tests (make test-gpu), compute-sanitizer memcheck and racecheck on
# a small batch, and the kernel benchmark (bench_gpu) on real 16S pairs.
# Writes $OUT/{build,test_gpu,sanitizer,bench_gpu}.txt (OUT defaults to
# bench/tmp). Data: devdata/16s-2k.fa.gz (a copy of ../shared's, carried).
# Usage: bench/device_gpu_check.sh [PAIRS]   (bench pairs, default 200000)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/tmp}
PAIRS=${1:-200000}
mkdir -p "$OUT"
{ date -u; nproc; grep -m1 '^model name' /proc/cpuinfo; nvidia-smi -L 2>/dev/null; nvcc --version 2>/dev/null | tail -2; } > "$OUT/build.txt"
export PATH=/usr/local/cuda/bin:$PATH
make -j"$(nproc)" bin/mnw build/bench/bench_gpu >>"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
make test-gpu >"$OUT/test_gpu.txt" 2>&1
tail -25 "$OUT/test_gpu.txt"
{
    for tool in memcheck racecheck; do
        echo "== compute-sanitizer --tool $tool (MNW_GPU_TEST_SMALL=1)"
        MNW_GPU_TEST_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu 2>&1 | grep -v '^ok - ' | tail -15
        echo "exit status: ${PIPESTATUS[0]}"
    done
} >"$OUT/sanitizer.txt" 2>&1
cat "$OUT/sanitizer.txt"
build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs "$PAIRS" --cpu-pairs 1000 2>&1 | tee "$OUT/bench_gpu.txt"
