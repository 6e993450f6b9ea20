#!/usr/bin/env bash
# bench/device/issue39_ab.sh - issue 39: the GPU filter's kernels, a baseline
# tree against this one, on the same pairs in the same call.
# usage: issue39_ab.sh BASE_TREE[,TREE..] [PAIRS [CUTOFFS]]
#   BASE_TREE  a copy of the baseline's sources (git archive COMMIT | tar -x
#              -C bench/tmp/base39, git-ignored, carried); more trees after
#              commas (variants), each run beside the others
# Builds bench_gpu_prune in both (sm_90), then runs them alternately, three
# times each: the first PAIRS (default 2,097,152) pairs of 16s-25k at CUTOFFS
# (default 0.03,0.10), best of 3 a run. Writes $OUT/ab39.txt, and the SASS of
# this tree's bands and eds_reg<1> kernels to $OUT/sass39.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
root=$PWD
IFS=, read -r -a trees <<<"${1:?usage: issue39_ab.sh BASE_TREE[,TREE..] [PAIRS [CUTOFFS]]}"
pairs=${2:-2097152}
cuts=${3:-0.03,0.10}
arch="-gencode arch=compute_90,code=sm_90"
bench_setup ab39.txt build/bench/bench_gpu_prune GPU_ARCH="$arch"
for t in "${trees[@]}"; do
    (cd "$t" && make -j"$(nproc)" build/bench/bench_gpu_prune GPU_ARCH="$arch" LIBDEFLATE_DIR="$root/.deps/usr" \
        >"$OUT/build-$(basename "$t").txt" 2>&1) || { tail -20 "$OUT/build-$(basename "$t").txt"; exit 1; }
done
cuobjdump -sass build/workers/gpu/gpu_kernels.o 2>&1 |
    awk '/Function : /{on = ($3 ~ /mnw_ge5bands|mnw_ge7eds_regILi1/)} on' >"$OUT/sass39.txt"
zcat devdata/16s-25k.fa.gz >bench/tmp/16s-25k.fa
for rep in 1 2 3; do
    for t in "${trees[@]}" .; do
        say "== $(date -u +%FT%TZ) ${t/#./this tree}, rep $rep"
        "$t/build/bench/bench_gpu_prune" bench/tmp/16s-25k.fa --pairs "$pairs" --cutoffs "$cuts" --reps 3 \
            --cpu-pairs 20000 2>&1 | grep -vE '^#' >>"$log"
    done
done
rm -f bench/tmp/16s-25k.fa
cat "$log"
