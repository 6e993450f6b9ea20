#!/usr/bin/env bash
# bench/device/like_base.sh - the linear kernels with the tie rule as a
# runtime value (issue 41: the kept tag T and the left gap's add, the
# ambiguity rule's profile values) against the kernels before it, in the same call:
# bench_gpu of both trees alternately (linear gaps, mnw's rule, device
# trace-back and score-only, with and without free end gaps, 400,000 pairs
# of 16s-2k), and the SASS of the two-per-lane kernels' inner loops
# (cuobjdump, bench/sass_loops.py).
#   bash bench/device/like_base.sh COMMIT [linear|affine]   (the baseline commit, the gaps
#   (default linear); writes $OUT/like_base.txt)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
base_commit=${1:?baseline commit}
gaps=${2:-linear} # linear or affine: which default kernels are compared
res=$OUT/like_base.txt
bench_machine >"$res"
B=bench/tmp/base
rm -rf $B && mkdir -p $B
git archive "$base_commit" | tar -x -C $B || { echo "no commit $base_commit here" >>"$res"; cat "$res"; exit 1; }
ln -s "$PWD/.deps" $B/.deps
(cd $B && make -j"$(nproc)" build/bench/bench_gpu >build.txt 2>&1) || { tail -20 $B/build.txt; exit 1; }
bench_build "$OUT/build.txt" build/bench/bench_gpu
echo "baseline: $base_commit (bench/tmp/base); new: this tree" >>"$res"
for fe in 0 1; do
    for rep in 1 2; do
        for t in base new; do
            bin=build/bench/bench_gpu
            [ $t = base ] && bin=$B/build/bench/bench_gpu
            echo "== $t rep $rep --free-ends $fe" >>"$res"
            $bin devdata/16s-2k.fa.gz --pairs 400000 --gaps "$gaps" --tb device,score --kernels auto --free-ends $fe \
                --cpu-pairs 0 --rodinia-pairs 0 --reps 2 2>&1 | grep -E "^$gaps +auto" >>"$res"
        done
    done
done
cuobjdump -sass build/workers/gpu/gpu_kernels.o >bench/tmp/new.sass
cuobjdump -sass $B/build/workers/gpu/gpu_kernels.o >bench/tmp/base.sass
a=0
[ "$gaps" = affine ] && a=1
for k in "dscan2ILb${a}ELb0ELb1ELb1E" "dscan2ILb${a}ELb1ELb1ELb1E" "dscan2ILb${a}ELb0ELb1ELb0E"; do
    for t in base new; do
        echo "== SASS $t $k (the largest loop)" >>"$res"
        python3 bench/sass_loops.py bench/tmp/$t.sass "$k" 1 >>"$res" 2>&1
    done
done
rm -rf $B
cat "$res"
