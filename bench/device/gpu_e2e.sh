#!/usr/bin/env bash
# gpu_e2e.sh - on a GPU machine: build, make test-gpu, then end-to-end
# runs on devdata/16s-2k.fa.gz (2M pairs): CPU only, GPU only (device and
# host trace-back), CPU+GPU; then starts the whole 16s-25k run (GPU, default
# settings) in the background with setsid, its log in bench/tmp/e2e-25k.
# Writes $OUT/{build,test_gpu,e2e_2k}.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
bench_machine >"$OUT/build.txt"
bench_build "$OUT/build.txt" bin/mnw build/bench/bench_gpu
make test-gpu >"$OUT/test_gpu.txt" 2>&1
grep -E 'passed|^    ' "$OUT/test_gpu.txt" | tail -40
{
    bench/run_gpu_e2e.sh devdata/16s-2k.fa.gz 2k-cpu-only --gpus none
    bench/run_gpu_e2e.sh devdata/16s-2k.fa.gz 2k-gpu-only-devtb --cpu-align no
    bench/run_gpu_e2e.sh devdata/16s-2k.fa.gz 2k-gpu-only-hosttb --cpu-align no --traceback host
    bench/run_gpu_e2e.sh devdata/16s-2k.fa.gz 2k-cpu+gpu
    cmp bench/tmp/e2e-2k-cpu-only/pairs.tsv.gz bench/tmp/e2e-2k-cpu+gpu/pairs.tsv.gz && echo "2k: CPU-only and CPU+GPU pairs.tsv.gz identical"
    cmp bench/tmp/e2e-2k-cpu-only/pairs.tsv.gz bench/tmp/e2e-2k-gpu-only-hosttb/pairs.tsv.gz && echo "2k: CPU-only and GPU host-tb pairs.tsv.gz identical"
} 2>&1 | tee "$OUT/e2e_2k.txt"
if [ "${START_25K:-1}" = 1 ]; then
    rm -rf bench/tmp/e2e-25k; mkdir -p bench/tmp
    setsid bash -c 'bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-cpu+gpu > bench/tmp/e2e-25k.txt 2>&1' </dev/null >/dev/null 2>&1 &
    echo "25k run started in the background"
fi
