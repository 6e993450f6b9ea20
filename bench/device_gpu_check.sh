#!/usr/bin/env bash
# device_gpu_check.sh - on a GPU machine, in one call: build (with nvcc),
# the GPU tests (make test-gpu) and compute-sanitizer memcheck and racecheck
# on a small batch. The benchmarks are device_gpu_bench.sh's.
# Writes $OUT/{build,test_gpu,sanitizer}.txt (OUT defaults to bench/tmp).
# Usage: bench/device_gpu_check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/tmp}
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
