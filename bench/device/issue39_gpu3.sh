#!/usr/bin/env bash
# bench/device/issue39_gpu3.sh - issue 39, step 7: the GPU filter after the
# dispatcher's work a pair was cut (nld_gpu.c) and the band kernel's changes,
# in the background (it outlasts one 10-minute command):
#   bash bench/device/issue39_gpu3.sh start           builds, starts (setsid)
#   bash bench/device/issue39_gpu3.sh wait SECONDS    waits, prints bench/tmp/gpu39c.txt (a copy in $OUT)
# In order, into bench/tmp/gpu39c.txt:
#   1. test_gpu's filter part on the device (every figure of both stages
#      against the CPU filter's, 120 real genes and the built pairs);
#   2. bench_gpu_prune on the first 2,097,152 pairs of 16s-25k at 0.03 and
#      0.10: the filter kernels' pairs/s, decisions against the CPU's; the
#      baseline tree's (BASE, default bench/tmp/base39: git archive 99a3371,
#      carried) and this tree's, alternated twice;
#   3. bench/run_prune.sh, GPU path, --outputs dist, filter off then on:
#      16s-25k whole at 0.10 and at 0.03, gold-5181 whole at 0.10 and 0.03;
#   4. 16s-100k whole at 0.03, filter on (the off run would take 40 minutes;
#      docs/DISTRIBUTED.md models it);
#   5. compute-sanitizer memcheck of test_gpu's filter part (quick).
# Data: the git-ignored devdata/ (16s-25k, gold-5181, 16s-100k), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
case ${1:-} in
start)
    bench_setup gpu39c-build.txt bin/mnw build/bench/bench_gpu_prune build/tests-gpu/test_gpu
    base=${BASE:-bench/tmp/base39}
    (cd "$base" && make -j"$(nproc)" build/bench/bench_gpu_prune LIBDEFLATE_DIR="$OLDPWD/.deps/usr") \
        >>"$OUT/gpu39c-build.txt" 2>&1 || { tail -20 "$OUT/gpu39c-build.txt"; exit 1; }
    log=bench/tmp/gpu39c.txt
    bench_machine >"$log"
    # shellcheck disable=SC2016 # the commands run in the setsid shell
    setsid bash -c '
        log='"$log"'
        export PATH=/usr/local/cuda/bin:$PATH
        echo "== $(date -u +%FT%TZ) test_gpu, the filter part" >>"$log"
        MNW_GPU_TEST_PRUNE_ONLY=1 build/tests-gpu/test_gpu 2>&1 | grep -v "^ok - " | tail -8 >>"$log"
        echo "== $(date -u +%FT%TZ) bench_gpu_prune 16s-25k, first 2,097,152 pairs" >>"$log"
        zcat devdata/16s-25k.fa.gz >bench/tmp/16s-25k.fa
        for rep in 1 2; do
            for t in '"$base"' .; do
                echo "-- $t, rep $rep" >>"$log"
                "$t/build/bench/bench_gpu_prune" bench/tmp/16s-25k.fa --pairs 2097152 --cutoffs 0.03,0.10 >>"$log" 2>&1
            done
        done
        for c in 0.10 0.03; do
            echo "== $(date -u +%FT%TZ) 16s-25k whole, cutoff $c, GPU" >>"$log"
            bench/run_prune.sh devdata/16s-25k.fa.gz $c 1 >>"$log" 2>&1
        done
        for c in 0.10 0.03; do
            echo "== $(date -u +%FT%TZ) gold-5181 whole, cutoff $c, GPU" >>"$log"
            bench/run_prune.sh devdata/gold-5181.fa.gz $c 1 >>"$log" 2>&1
        done
        echo "== $(date -u +%FT%TZ) 16s-100k whole, cutoff 0.03, GPU, filter on" >>"$log"
        rm -rf bench/tmp/p100k
        /usr/bin/time -f "%e s wall" bin/mnw -q -i devdata/16s-100k.fa.gz -o bench/tmp/p100k --outputs dist \
            --cutoff 0.03 --prune yes >>"$log" 2>&1
        grep -E "INFO (done|GPU|rank)" bench/tmp/p100k/mnw.log | sed "s/^[^]]*] /    /" | cut -c1-260 >>"$log"
        rm -rf bench/tmp/p100k
        echo "== $(date -u +%FT%TZ) compute-sanitizer memcheck, test_gpu filter part" >>"$log"
        MNW_GPU_TEST_PRUNE_ONLY=1 MNW_TEST_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
            build/tests-gpu/test_gpu 2>&1 | grep -v "^ok - " | tail -15 >>"$log"
        echo "memcheck exit ${PIPESTATUS[0]}" >>"$log"
        rm -f bench/tmp/16s-25k.fa
        echo "== all done" >>"$log"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    log=bench/tmp/gpu39c.txt
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$log"; do sleep 5; done
    cat "$log"
    cp "$log" "$OUT/" ;;
*) sed -n 2,15p "$0"; exit 2 ;;
esac
