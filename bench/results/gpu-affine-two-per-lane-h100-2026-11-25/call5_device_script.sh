#!/usr/bin/env bash
# issue 18: bench_gpu finishing in tasks of 5,000 pairs (as mnw); kernels: 1e60e2e (k0), + chain reorder (k1), + base a step ahead (k2 = working tree)
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call5.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; git status --short | head; } > $O/info.txt
(cd bench/tmp/old && make -j4 build/bench/bench_gpu > $O/build_k0.txt 2>&1) &
(cd bench/tmp/k1 && make -j4 build/bench/bench_gpu > $O/build_k1.txt 2>&1) &
make -j6 build/bench/bench_gpu > $O/build_k2.txt 2>&1 || { tail -20 $O/build_k2.txt; exit 1; }
wait
for g in linear affine; do
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps $g --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3 --kernels auto --lanes x2 --finishers 8"
for k in k0 k1 k2; do
  case $k in k0) B=bench/tmp/old/build/bench/bench_gpu;; k1) B=bench/tmp/k1/build/bench/bench_gpu;; k2) B=build/bench/bench_gpu;; esac
  echo "== $g $k: bench_gpu $A"; timeout 100 $B $A 2>&1 | tee $O/bench_${g}_$k.txt | grep -v '^# [bG]'
done
done
A="devdata/16s-2k.fa.gz --pairs 800000 --gaps linear --tb device --cpu-pairs 10 --rodinia-pairs 0 --reps 2 --kernels auto --lanes x2 --finishers 8"
echo "== linear k2, 800,000 pairs: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $O/bench_linear_k2_800k.txt | grep -v '^# [bG]'
