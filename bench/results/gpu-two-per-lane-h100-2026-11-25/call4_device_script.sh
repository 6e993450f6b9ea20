#!/usr/bin/env bash
# issue 18 step 2, call 4: bench with finisher threads; register bound variants; ncu stall reasons of the DIRS kernel
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $O/info.txt
(cd bench/tmp/old && make -j2 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
(make -j5 B=build5 NVFLAGS_EXTRA=-DMNW_GPU_PACK2_BLOCKS=5 build5/bench/bench_gpu > $O/build5.txt 2>&1) &
make -j9 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
timeout 200 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --tb device,score --cpu-pairs 100 --rodinia-pairs 0 --reps 3"
echo "== old (a5cb0a3, conversion on the main thread): bench_gpu $A --kernels auto,tileddscan"; timeout 60 bench/tmp/old/build/bench/bench_gpu $A --kernels auto,tileddscan 2>&1 | tee $O/bench_old.txt | grep -v '^#'
echo "== new: bench_gpu $A --lanes x2,x1 --finishers 8"; timeout 120 build/bench/bench_gpu $A --lanes x2,x1 --finishers 8 2>&1 | tee $O/bench_new.txt | grep -v '^#'
echo "== new, finishers 1: bench_gpu $A --kernels auto --lanes x2 --finishers 1"; timeout 60 build/bench/bench_gpu $A --kernels auto --lanes x2 --finishers 1 2>&1 | tee $O/bench_new_f1.txt | grep -v '^#'
echo "== build5 (launch bounds 128,5): bench_gpu $A --kernels auto --lanes x2"; timeout 60 build5/bench/bench_gpu $A --kernels auto --lanes x2 2>&1 | tee $O/bench_new_b5.txt | grep -v '^#'
echo "== affine: bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps affine --tb device,score --kernels auto --reps 2"; timeout 60 build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps affine --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --kernels auto --reps 2 2>&1 | tee $O/bench_affine.txt | grep -v '^#'
B="devdata/16s-2k.fa.gz --pairs 60000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb device"
timeout 150 ncu --kernel-name regex:dscan2 --launch-count 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis build/bench/bench_gpu $B > $O/ncu_stalls.txt 2>&1; echo "ncu rc=$?"
grep -E "Stall|Warp Cycles|Issued Warp|Eligible|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|L1/TEX Hit|Registers|Block Limit" $O/ncu_stalls.txt | head -30
