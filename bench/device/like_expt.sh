#!/usr/bin/env bash
# bench/device/like_expt.sh - where --like mothur's GPU time goes (issue 41):
# bench_gpu with mnw's linear gaps and free end gaps against --like mothur
# (1/-1/2, free end gaps, letters, mothur's tie rule) on 400,000 pairs of
# 16s-2k, device trace-back and score-only, for this tree and for a build
# without the letters' code in the EXT kernels (MNW_GPU_EXPT_NOLET: wrong
# results with ambiguity codes, timing only), alternately; and the EXT
# kernels' registers and spills.
#   bash bench/device/like_expt.sh      (writes $OUT/like_expt.txt)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
res=$OUT/like_expt.txt
bench_machine >"$res"
bench_build "$OUT/build.txt" build/bench/bench_gpu
make -j"$(nproc)" B=build-nolet NVFLAGS_EXTRA=-DMNW_GPU_EXPT_NOLET build-nolet/bench/bench_gpu >>"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
for rep in 1 2; do
    for t in build build-nolet; do
        echo "== $t rep $rep" >>"$res"
        $t/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 400000 --gaps linear,mothur --free-ends 1 --tb device,score \
            --kernels auto --cpu-pairs 0 --rodinia-pairs 0 --reps 2 2>&1 | grep -E "^(linear|mothur) +auto" >>"$res"
    done
done
echo "== registers (sm_90), dscan2 kernels" >>"$res"
cuobjdump --dump-resource-usage build/workers/gpu/gpu_kernels.o 2>&1 | grep -A1 "dscan2" | grep -E "Function|REG" |
    paste - - | sed -E 's/.*Function ([^ :]*).*REG:([0-9]+).*STACK:([0-9]+).*LOCAL:([0-9]+).*/\1 REG \2 STACK \3 LOCAL \4/' | sort -u >>"$res"
rm -rf build-nolet
cat "$res"
