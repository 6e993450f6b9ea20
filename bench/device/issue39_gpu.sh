#!/usr/bin/env bash
# bench/device/issue39_gpu.sh - issue 39's filter on the GPU (the lead's
# device call): in the background (it outlasts one 10-minute command):
#   bash bench/device/issue39_gpu.sh start     builds, starts (setsid)
#   bash bench/device/issue39_gpu.sh wait SECONDS   waits, prints bench/tmp/gpu39.txt (a copy in $OUT)
# In order, into bench/tmp/gpu39.txt:
#   1. bench_gpu_prune on the first 5,000,000 pairs of 16s-25k at 0.03 and
#      0.10: the filter kernel's pairs/s, the fraction pruned, and its
#      decisions against the CPU filter's on the first 20,000 pairs;
#   2. bench/run_prune.sh, GPU path (default --cpu-align no), --outputs dist:
#      16s-25k whole at 0.03 (1 rep: --prune no about 145 s), 16s-25k
#      --shard 32/64 at 0.10, gold-5181 whole at 0.03; outputs cmp-identical
#      off and on, the GPU's filter lines of the on runs;
#   3. compute-sanitizer memcheck of test_gpu's filter part
#      (MNW_GPU_TEST_PRUNE_ONLY=1 MNW_TEST_QUICK=1).
# Data: the git-ignored devdata/ (16s-25k.fa.gz, gold-5181.fa.gz), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
case ${1:-} in
start)
    bench_setup gpu39-build.txt bin/mnw build/bench/bench_gpu_prune build/tests-gpu/test_gpu
    log=bench/tmp/gpu39.txt
    bench_machine >"$log"
    # shellcheck disable=SC2016 # the commands run in the setsid shell
    setsid bash -c '
        log='"$log"'
        export PATH=/usr/local/cuda/bin:$PATH
        echo "== $(date -u +%FT%TZ) bench_gpu_prune 16s-25k, first 5,000,000 pairs" >>"$log"
        zcat devdata/16s-25k.fa.gz >bench/tmp/16s-25k.fa
        build/bench/bench_gpu_prune bench/tmp/16s-25k.fa --pairs 5000000 --cutoffs 0.03,0.10 >>"$log" 2>&1
        echo "== $(date -u +%FT%TZ) 16s-25k whole, cutoff 0.03, GPU" >>"$log"
        bench/run_prune.sh devdata/16s-25k.fa.gz 0.03 1 >>"$log" 2>&1
        echo "== $(date -u +%FT%TZ) 16s-25k --shard 32/64, cutoff 0.10, GPU" >>"$log"
        bench/run_prune.sh devdata/16s-25k.fa.gz 0.10 1 --shard 32/64 >>"$log" 2>&1
        echo "== $(date -u +%FT%TZ) gold-5181 whole, cutoff 0.03, GPU" >>"$log"
        bench/run_prune.sh devdata/gold-5181.fa.gz 0.03 1 >>"$log" 2>&1
        echo "== $(date -u +%FT%TZ) compute-sanitizer memcheck, test_gpu filter part" >>"$log"
        MNW_GPU_TEST_PRUNE_ONLY=1 MNW_TEST_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
            build/tests-gpu/test_gpu 2>&1 | grep -v "^ok - " | tail -15 >>"$log"
        echo "memcheck exit ${PIPESTATUS[0]}" >>"$log"
        rm -f bench/tmp/16s-25k.fa
        echo "== all done" >>"$log"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    log=bench/tmp/gpu39.txt
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$log"; do sleep 5; done
    cat "$log"
    cp "$log" "$OUT/" ;;
*) sed -n 2,16p "$0"; exit 2 ;;
esac
