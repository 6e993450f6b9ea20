#!/usr/bin/env bash
# issue 18, affine two per lane: build; bench affine x2 vs x1 (and 3 blocks); linear check; test_gpu; compute-sanitizer
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call1.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; } > $O/info.txt
(make -j4 B=build3 NVFLAGS_EXTRA=-DMNW_GPU_PACK2_BLOCKS_WIDE=3 build3/bench/bench_gpu > $O/build3.txt 2>&1) &
make -j12 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps affine --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3"
echo "== affine: bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8"; timeout 150 build/bench/bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8 2>&1 | tee $O/bench_affine.txt | grep -v '^#'
echo "== affine, launch bounds (128,3): bench_gpu $A --kernels auto --lanes x2 --finishers 8"; timeout 60 build3/bench/bench_gpu $A --kernels auto --lanes x2 --finishers 8 2>&1 | tee $O/bench_affine_b3.txt | grep -v '^#'
L="devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 2"
echo "== linear: bench_gpu $L --kernels auto --lanes x2,x1 --finishers 8"; timeout 60 build/bench/bench_gpu $L --kernels auto --lanes x2,x1 --finishers 8 2>&1 | tee $O/bench_linear.txt | grep -v '^#'
for tool in memcheck racecheck; do
  (MNW_GPU_TEST_SMALL=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $O/san_$tool.txt 2>&1; echo "rc=$?" >> $O/san_$tool.txt) &
done
timeout 330 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep -A3 '^not ok' $O/test_gpu.txt | head -12
wait
for tool in memcheck racecheck; do echo "compute-sanitizer $tool: $(tail -1 $O/san_$tool.txt) $(grep -c '^ok' $O/san_$tool.txt) ok $(grep -c '^not ok' $O/san_$tool.txt) not ok; $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $O/san_$tool.txt | tail -1)"; done
