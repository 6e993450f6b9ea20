#!/usr/bin/env bash
# gpu_check.sh - on a GPU machine, in one call: build (with nvcc),
# the GPU tests (make test-gpu) and compute-sanitizer memcheck and racecheck
# on a small batch. The benchmarks are gpu_bench.sh's.
# Writes $OUT/{build,test_gpu,sanitizer}.txt (OUT defaults to bench/tmp).
# Usage: bench/device/gpu_check.sh
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_machine >"$OUT/build.txt"
bench_cuda
bench_build "$OUT/build.txt" bin/mnw build/bench/bench_gpu
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
