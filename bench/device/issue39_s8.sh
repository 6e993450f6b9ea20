#!/usr/bin/env bash
# bench/device/issue39_s8.sh - issue 39, step 8: the band kernel without its
# end path against other trees (stage 1's bands on a list), in the
# background (it outlasts one 10-minute command):
#   TREES=T1,T2 bash bench/device/issue39_s8.sh start   builds, starts (setsid)
#   bash bench/device/issue39_s8.sh wait SECONDS         waits, prints bench/tmp/s8.txt (a copy in $OUT)
# TREES: copies of other trees' sources (git archive COMMIT | tar -x -C
# bench/tmp/NAME, git-ignored, carried), the first the baseline.
# In order, into bench/tmp/s8.txt:
#   1. test_gpu's filter part on the device (this tree: every figure of both
#      stages against the CPU filter's);
#   2. bench_gpu_prune on the first 2,097,152 pairs of 16s-25k at 0.03 and
#      0.10, every tree and this one, alternated three times;
#   3. 16s-25k whole at CUT (default 0.10), filter on, GPU path, --outputs
#      dist, this tree: wall time and the run's log lines (the run of
#      2026-11-28 also tried streams of different priorities, through a
#      knob since removed: no effect);
#   4. the SASS of this tree's bands kernel into $OUT/sass-bands.txt.
# Data: the git-ignored devdata/ (16s-25k), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
s8=bench/tmp/s8.txt
case ${1:-} in
start)
    bench_setup s8-build.txt bin/mnw build/bench/bench_gpu_prune build/tests-gpu/test_gpu
    IFS=, read -r -a trees <<<"${TREES:-}"
    outdir=$(cd "$OUT" && pwd)
    pids=()
    for t in "${trees[@]}"; do
        (cd "$t" && make -j8 build/bench/bench_gpu_prune LIBDEFLATE_DIR="$OLDPWD/.deps/usr" \
            >"$outdir/build-$(basename "$t").txt" 2>&1) &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || { echo "a tree's build failed"; tail -5 "$OUT"/build-*.txt; exit 1; }; done
    cuobjdump -sass build/workers/gpu/gpu_kernels.o 2>&1 |
        awk '/Function : /{on = ($3 ~ /mnw_ge5bands/)} on' >"$OUT/sass-bands.txt"
    bench_machine >"$s8"
    # shellcheck disable=SC2016 # the commands run in the setsid shell
    setsid bash -c '
        log='"$s8"'
        trees="'"${trees[*]}"'"
        cut='"${CUT:-0.10}"'
        export PATH=/usr/local/cuda/bin:$PATH
        echo "== $(date -u +%FT%TZ) test_gpu, the filter part" >>"$log"
        MNW_GPU_TEST_PRUNE_ONLY=1 build/tests-gpu/test_gpu 2>&1 | grep -v "^ok - " | tail -8 >>"$log"
        echo "== $(date -u +%FT%TZ) bench_gpu_prune 16s-25k, first 2,097,152 pairs" >>"$log"
        zcat devdata/16s-25k.fa.gz >bench/tmp/16s-25k.fa
        for rep in 1 2 3; do
            for t in $trees .; do
                echo "-- $t, rep $rep" >>"$log"
                "$t/build/bench/bench_gpu_prune" bench/tmp/16s-25k.fa --pairs 2097152 --cutoffs 0.03,0.10 \
                    --reps 3 --cpu-pairs 20000 2>&1 | grep -vE "^#" >>"$log"
            done
        done
        rm -f bench/tmp/16s-25k.fa
        echo "== $(date -u +%FT%TZ) 16s-25k whole, cutoff $cut, filter on, GPU" >>"$log"
        rm -rf bench/tmp/s8-o
        /usr/bin/time -f "%e s wall, %U s user, %S s sys" bin/mnw -q -i devdata/16s-25k.fa.gz \
            -o bench/tmp/s8-o --outputs dist --cutoff "$cut" --prune yes >>"$log" 2>&1
        grep -E "INFO (done|GPU)" bench/tmp/s8-o/mnw.log | sed "s/^[^]]*] /    /" | cut -c1-260 >>"$log"
        rm -rf bench/tmp/s8-o
        echo "== all done" >>"$log"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$s8"; do sleep 5; done
    cat "$s8"
    cp "$s8" "$OUT/" ;;
*) sed -n 2,20p "$0"; exit 2 ;;
esac
