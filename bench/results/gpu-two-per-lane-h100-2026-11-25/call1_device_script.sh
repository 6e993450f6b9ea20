#!/usr/bin/env bash
# issue 18 step 2, call 1: build, SASS of the two-per-lane kernel, test_gpu, bench old vs x1 vs x2 (linear)
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $O/info.txt
(cd bench/tmp/old && make -j6 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j10 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
cuobjdump -sass build/workers/gpu/gpu_kernels.o > $O/k.sass 2>&1
for f in dscan2ILb0ELb1ELb1E dscan2ILb0ELb1ELb0E dscanILb0ELb0ELb1ELb1E; do echo "== $f"; python3 bench/sass_loops.py $O/k.sass $f 2; done > $O/sass.txt 2>&1
grep -A40 "== dscan2ILb0ELb1ELb1E" $O/sass.txt | head -60
timeout 240 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --tb device,score --cpu-pairs 100 --rodinia-pairs 0 --reps 2"
echo "== old: bench_gpu $A"; timeout 100 bench/tmp/old/build/bench/bench_gpu $A --kernels auto,tileddscan 2>&1 | tee $O/bench_old.txt | grep -v '^#'
echo "== new: bench_gpu $A --lanes x2,x1"; timeout 150 build/bench/bench_gpu $A --lanes x2,x1 2>&1 | tee $O/bench_new.txt | grep -v '^#'
