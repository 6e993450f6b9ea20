#!/usr/bin/env bash
# issue 18 step 2, final call: launch bounds (128,5); test_gpu; bench old / x2 / x1; compute-sanitizer
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $O/info.txt
(cd bench/tmp/old && make -j3 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j13 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
timeout 150 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --tb device,score --cpu-pairs 100 --rodinia-pairs 0 --reps 3"
echo "== old (a5cb0a3; alignments converted on the main thread): bench_gpu $A --kernels auto,tileddscan"; timeout 60 bench/tmp/old/build/bench/bench_gpu $A --kernels auto,tileddscan 2>&1 | tee $O/bench_old.txt | grep -v '^#'
echo "== new: bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8"; timeout 120 build/bench/bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8 2>&1 | tee $O/bench_new.txt | grep -v '^#'
for tool in memcheck racecheck; do
  (MNW_GPU_TEST_SMALL=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $O/san_$tool.txt 2>&1; echo "rc=$?" >> $O/san_$tool.txt) &
done
wait
for tool in memcheck racecheck; do echo "compute-sanitizer $tool: $(tail -1 $O/san_$tool.txt) $(grep -c '^ok' $O/san_$tool.txt) ok $(grep -c '^not ok' $O/san_$tool.txt) not ok; $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $O/san_$tool.txt | tail -1)"; done
