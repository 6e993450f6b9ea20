#!/usr/bin/env bash
# issue 18, session 30, call 7 (H100): the 32-bit affine kernels with tagged offset scores (d1b4ff6, bench/tmp/new)
# against 7c3c562 (bench/tmp/old): test_gpu, bench_gpu affine 32-bit rows old vs new, compute-sanitizer; tarball after each step
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c7; mkdir -p $W
cp bench/tmp/s30_call7.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call7.tgz c7; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $W/info.txt
(cd bench/tmp/old && make -j6 LIBDEFLATE_DIR=$R/.deps/usr build/bench/bench_gpu > $W/build_old.txt 2>&1) &
(cd bench/tmp/new && make -j10 LIBDEFLATE_DIR=$R/.deps/usr build/bench/bench_gpu build/tests-gpu/test_gpu > $W/build_new.txt 2>&1) || { tail -20 $W/build_new.txt; exit 1; }
wait
cd bench/tmp/new; ln -s $R/devdata devdata
timeout 120 build/tests-gpu/test_gpu > $W/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $W/test_gpu.txt) ok $(grep -c '^not ok' $W/test_gpu.txt) not ok"; grep '^not ok' $W/test_gpu.txt | head -5; pack
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps affine --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 2 --kernels auto,rscan,tileddscan --lanes x1"
echo "== old (7c3c562): bench_gpu $A"; timeout 60 $R/bench/tmp/old/build/bench/bench_gpu $A 2>&1 | tee $W/bench_old.txt | grep -v '^#'
echo "== new (d1b4ff6): bench_gpu $A"; timeout 60 build/bench/bench_gpu $A 2>&1 | tee $W/bench_new.txt | grep -v '^#'; pack
for tool in memcheck racecheck; do
  MNW_GPU_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $W/san_$tool.txt 2>&1
  echo "compute-sanitizer $tool rc=$? $(grep -c '^ok' $W/san_$tool.txt) ok $(grep -c '^not ok' $W/san_$tool.txt) not ok"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $W/san_$tool.txt | tail -1; pack
done
